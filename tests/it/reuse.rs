//! `[browser] isolation = "reuse"` end to end: one context per worker, reset by the driver
//! between tests, must leave a test nothing of the one before. A first test leaves behind what
//! step code can (a cookie, localStorage, sessionStorage, IndexedDB, CacheStorage, a service
//! worker, a popup, a resized viewport, `window.name`, history); the next test, in the same
//! worker, checks each in a step of its own. The same suite runs with `isolation = "context"`
//! too, which shows the checks pass on a fresh context, and the driver's log shows the context
//! was reused. A `beforeunload` handler with a dialog that opens after the test's last step does
//! not stall the next test. Routes: step code cannot add any (`page.route` is refused), so the
//! one route a context has is the `[browser] allowed_origins` guard's; a blocked navigation
//! fails its own test and no later one. A test cut off by its deadline leaves the next one a
//! working page in the same context. Two workers each reuse a context of their own, with a trace
//! per test.
//!
//! Not checked, because it is not isolated: a permission prompt the page left unanswered counts
//! towards Chromium's embargo in the context, so a later test may find the permission `denied`
//! (see `docs/configuration.md`).

use crate::support::{Output, Test};

const SCENARIO: &str = "scenarios/leak.steps";

/// A page with a button, which gives the page the user activation `beforeunload` needs.
const PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>leak</title></head>
<body><h1>leak</h1><button type="button">touch</button></body></html>"#;

/// A service worker that answers `/sw-probe` itself and takes control at once.
const WORKER: &str = "self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  if (event.request.url.endsWith('/sw-probe')) event.respondWith(new Response('from the worker'));
});
";

/// The first test's steps: each leaves something behind, and checks it is really there.
const LEAVE: &[(&str, &str)] = &[
    (
        "open the page",
        "async function step(page) {
  await page.goto('/leak.html');
}",
    ),
    (
        "store everything",
        "async function step(page) {
  const stored = await page.evaluate(async () => {
    document.cookie = 'leak=1; path=/; max-age=3600';
    localStorage.setItem('leak', '1');
    sessionStorage.setItem('leak', '1');
    await new Promise((resolve, reject) => {
      const open = indexedDB.open('leak', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('things');
      open.onsuccess = () => { open.result.close(); resolve(); };
      open.onerror = () => reject(open.error);
    });
    await (await caches.open('leak')).put('/leak-cached', new Response('cached'));
    window.name = 'leak';
    history.pushState({}, '', '/leak.html#pushed');
    return [document.cookie, localStorage.length, sessionStorage.length,
      (await indexedDB.databases()).length, (await caches.keys()).length].join(' ');
  });
  expect(stored).toBe('leak=1 1 1 1 1');
}",
    ),
    (
        "register a service worker",
        "async function step(page) {
  const answer = await page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js');
    await navigator.serviceWorker.ready;
    for (let i = 0; i < 50 && !navigator.serviceWorker.controller; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    return (await fetch('/sw-probe')).text();
  });
  expect(answer).toBe('from the worker');
}",
    ),
    (
        "open a popup",
        "async function step(page) {
  const popup = page.waitForEvent('popup');
  await page.evaluate(() => { window.open('/leak.html?popup'); });
  await popup;
  expect(page.context().pages().length).toBe(2);
}",
    ),
    (
        "resize the viewport",
        "async function step(page) {
  await page.setViewportSize({ width: 400, height: 300 });
  expect(await page.evaluate(() => innerWidth)).toBe(400);
}",
    ),
];

/// The second test's steps: one leak each.
const CHECK: &[(&str, &str)] = &[
    (
        "no other page",
        "async function step(page) {
  expect(page.context().pages().length).toBe(1);
}",
    ),
    (
        "no history",
        "async function step(page) {
  expect(await page.evaluate(() => history.length)).toBe(1);
}",
    ),
    (
        "open the page",
        "async function step(page) {
  await page.goto('/leak.html');
}",
    ),
    (
        "no cookie",
        "async function step(page) {
  expect(await page.evaluate(() => document.cookie)).toBe('');
}",
    ),
    (
        "no localStorage",
        "async function step(page) {
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
}",
    ),
    (
        "no sessionStorage",
        "async function step(page) {
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
}",
    ),
    (
        "no IndexedDB",
        "async function step(page) {
  expect(await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name).join())).toBe('');
}",
    ),
    (
        "no CacheStorage",
        "async function step(page) {
  expect(await page.evaluate(async () => (await caches.keys()).join())).toBe('');
}",
    ),
    (
        "no service worker",
        "async function step(page) {
  const seen = await page.evaluate(async () => [
    (await navigator.serviceWorker.getRegistrations()).length,
    navigator.serviceWorker.controller === null,
    await (await fetch('/sw-probe')).status,
  ].join(' '));
  expect(seen).toBe('0 true 404');
}",
    ),
    (
        "the default viewport",
        "async function step(page) {
  expect(await page.evaluate(() => `${innerWidth}x${innerHeight}`)).toBe('1280x720');
}",
    ),
    (
        "no window name",
        "async function step(page) {
  expect(await page.evaluate(() => window.name)).toBe('');
}",
    ),
];

/// A project whose first test leaves everything behind and whose second checks it sees none of
/// it, under `isolation`.
fn leak_project(isolation: &str) -> Test {
    let mut scenario = String::from("test: leave everything behind\n");
    for (step, _) in LEAVE {
        scenario.push_str(&format!("  {step}\n"));
    }
    scenario.push_str("test: see none of it\n");
    for (step, _) in CHECK {
        scenario.push_str(&format!("  {step}\n"));
    }
    let mut test = Test::new()
        .config(&format!(
            "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n\n[browser]\ntimeout = 5\n\
             isolation = \"{isolation}\"\n"
        ))
        .page("leak.html", PAGE)
        .page("sw.js", WORKER)
        .scenario(SCENARIO, &scenario);
    for (step, code) in LEAVE {
        test = test.cached(SCENARIO, "leave everything behind", step, 1, code);
    }
    for (step, code) in CHECK {
        test = test.cached(SCENARIO, "see none of it", step, 1, code);
    }
    test
}

fn replay(test: Test) -> Output {
    test.env("PRETTYPLAY_LOG", "prettyplay::driver=debug")
        .args(&["replay", "--strict", "-j", "1", "--color", "never"])
        .run()
}

/// The driver's log line of a reset that kept the page.
const KEPT: &str = "reset the worker's browser context for another test, its page kept";

/// A project of `tests` (name, steps of (step, code)) in one file, under `isolation = "reuse"`
/// and `config` (more `[browser]` keys).
fn reuse_project(config: &str, tests: &[(&str, &[(&str, &str)])]) -> Test {
    let mut scenario = String::new();
    for (name, steps) in tests {
        scenario.push_str(&format!("test: {name}\n"));
        for (step, _) in *steps {
            scenario.push_str(&format!("  {step}\n"));
        }
    }
    let mut test = Test::new()
        .config(&format!(
            "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n\n[browser]\ntimeout = 5\n\
             isolation = \"reuse\"\n{config}"
        ))
        .page("leak.html", PAGE)
        .scenario(SCENARIO, &scenario);
    for (name, steps) in tests {
        for (step, code) in *steps {
            test = test.cached(SCENARIO, name, step, 1, code);
        }
    }
    test
}

const OPEN: (&str, &str) = (
    "open the page",
    "async function step(page) {
  await page.goto('/leak.html');
}",
);

/// Every step of both tests passed, each named.
fn assert_all_passed(out: Output) -> Output {
    let mut out = out
        .assert_exit(0)
        .stdout_contains(&format!("PASS {SCENARIO} › leave everything behind ("))
        .stdout_contains(&format!("PASS {SCENARIO} › see none of it ("))
        .stdout_line("2 passed, 0 failed");
    for (step, _) in CHECK {
        out = out.output_not_contains(&format!("✗ {step}"));
    }
    out
}

#[test]
fn a_fresh_context_passes_the_leak_checks() {
    let out = assert_all_passed(replay(leak_project("context")));
    out.output_not_contains("reset the worker's browser context");
}

#[test]
fn a_reused_context_leaks_nothing_to_the_next_test() {
    let out = assert_all_passed(replay(leak_project("reuse")));
    // The second test really ran in the first one's context, reset, with its page kept.
    out.output_count(KEPT, 1);
}

#[test]
fn a_dialog_as_the_page_unloads_does_not_stall_the_next_test() {
    let leave: &[(&str, &str)] = &[
        OPEN,
        (
            "leave a dialog and a beforeunload",
            "async function step(page) {
  await page.getByRole('button', { name: 'touch' }).click();
  await page.evaluate(() => {
    window.addEventListener('beforeunload', (event) => { event.preventDefault(); event.returnValue = 'stay'; });
    setTimeout(() => alert('left open'), 50);
  });
}",
        ),
    ];
    let check: &[(&str, &str)] = &[(
        "no dialog",
        "async function step(page) {
  let seen = 0;
  page.on('dialog', (dialog) => { seen += 1; dialog.dismiss(); });
  await page.goto('/leak.html');
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
  expect(seen).toBe(0);
  expect(await page.evaluate(() => document.title)).toBe('leak');
}",
    )];
    let out = replay(reuse_project(
        "",
        &[("leave a dialog", leave), ("see no dialog", check)],
    ))
    .assert_exit(0)
    .stdout_line("2 passed, 0 failed");
    // The page left its document at the test's end (or, stuck in a navigation the dialog
    // cancelled, its context was closed): the browser itself was never given up.
    out.output_not_contains("could not be")
        .output_not_contains("launching a new browser");
}

#[test]
fn a_blocked_navigation_fails_only_its_own_test_in_a_reused_context() {
    let off: &[(&str, &str)] = &[(
        "leave the app",
        "async function step(page) {
  await page.goto('http://127.0.0.1:9/elsewhere');
}",
    )];
    let out = replay(reuse_project(
        "",
        &[
            ("before", &[OPEN]),
            ("off the app", off),
            ("after", &[OPEN]),
        ],
    ))
    .assert_exit(1)
    .stdout_contains(&format!("PASS {SCENARIO} › before ("))
    .stdout_contains(&format!("FAIL {SCENARIO} › off the app ("))
    .stdout_contains(&format!("PASS {SCENARIO} › after ("))
    .output_contains("blocked by [browser] allowed_origins: http://127.0.0.1:9/elsewhere")
    .stdout_line("2 passed, 1 failed");
    // All three ran in the one context: each reset kept its page.
    out.output_count(KEPT, 2);
}

#[test]
fn a_test_cut_off_by_its_deadline_leaves_the_next_a_working_page() {
    let hang: &[(&str, &str)] = &[
        OPEN,
        (
            "wait forever",
            "async function step(page) {
  await page.evaluate(() => new Promise(() => {}));
}",
        ),
    ];
    let out = replay(reuse_project(
        "\n[run]\ntest_timeout = 3\n",
        &[("hangs", hang), ("after", &[OPEN])],
    ))
    .assert_exit(1)
    .stdout_contains(&format!("FAIL {SCENARIO} › hangs ("))
    .stdout_contains(&format!("PASS {SCENARIO} › after ("))
    .stdout_line("1 passed, 1 failed");
    out.output_count(KEPT, 1);
}

/// Checks that the page's storage holds no mark of an earlier test, then leaves one.
const MARK: (&str, &str) = (
    "find no mark and leave one",
    "async function step(page) {
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, '']);
  await page.evaluate(() => { localStorage.setItem('mark', '1'); sessionStorage.setItem('mark', '1'); document.cookie = 'mark=1'; });
}",
);

#[test]
fn two_workers_each_reuse_a_context_and_every_test_gets_its_own_trace() {
    let tests: Vec<(String, &[(&str, &str)])> = (1..=6)
        .map(|n| (format!("test {n}"), &[OPEN, MARK][..]))
        .collect();
    let tests: Vec<(&str, &[(&str, &str)])> = tests
        .iter()
        .map(|(name, steps)| (name.as_str(), *steps))
        .collect();
    let out = reuse_project("", &tests)
        .env("PRETTYPLAY_LOG", "prettyplay::driver=debug")
        .args(&["replay", "--strict", "-j", "2", "--color", "never"])
        .args(&["--trace", "on", "--output", "report"])
        .run()
        .assert_exit(0)
        .stdout_line("6 passed, 0 failed");
    // Six tests in two contexts (one, should a worker get none): four or five of them started
    // in a reset one.
    let resets = out.stdout().matches(KEPT).count() + out.stderr().matches(KEPT).count();
    if !(4..=5).contains(&resets) {
        out.fail(&format!("{resets} resets of a kept page, not 4 or 5"));
    }
    let dir = out.project_dir().join("report").join("traces");
    let mut traces: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| out.fail(&format!("no {}: {err}", dir.display())))
        .filter_map(Result::ok)
        .map(|entry| {
            let bytes = std::fs::read(entry.path()).unwrap_or_default();
            let name = entry.file_name().to_string_lossy().into_owned();
            if !bytes.starts_with(b"PK") || bytes.len() < 1000 {
                out.fail(&format!(
                    "trace {name} is not a trace zip ({} bytes)",
                    bytes.len()
                ));
            }
            name
        })
        .collect();
    traces.sort();
    assert_eq!(
        traces.len(),
        6,
        "one trace per test ({resets} resets): {traces:?}"
    );
    for n in 1..=6 {
        assert!(
            traces.iter().any(|t| t.ends_with(&format!("test_{n}.zip"))),
            "no trace of test {n}: {traces:?}"
        );
    }
}
