//! The rule of `[browser] allowed_origins` on an app with third-party traffic of its own, end to
//! end in Chromium and Firefox: the app's page (served as the base URL) loads a web font and a
//! script from a second origin of 127.0.0.1 (the "CDN", a [`ThirdParty`] server) and sends an
//! analytics beacon to a third (a [`RecordingServer`] that must receive nothing). One test per
//! class of traffic: the app's subresources load and its beacon is blocked and listed, with no
//! configuration; step code's `fetch`, its `page.goto`, a `<script src>` it inserts, a URL it
//! types that the app loads, and the app's beacon carrying a secret the step typed each fail,
//! and reach nothing. In `run`, a model's candidate that reaches for another origin fails and
//! is never cached. Step code that leaves a timer reaching for another origin: the timer's
//! request during a later, slow step fails the test and keeps nothing the test wrote in the
//! cache, and a timer due after the test's end sends nothing (its context is closed).

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use crate::support::fake_llm::{FakeLlm, generation_of};
use crate::support::recording_server::RecordingServer;
use crate::support::{Output, Test, require_firefox};

const SCENARIO: &str = "scenarios/shop.steps";

/// The secret the `secret` test types into the app's password field.
const SECRET: &str = "Shop-s3cret-Wombat";

/// What the CDN's script writes into the page, so a step can see that it ran.
const LOADED: &str = "library loaded";

/// A second origin on 127.0.0.1 that serves a font and a script, with
/// `Access-Control-Allow-Origin: *`, and records every request line it receives.
struct ThirdParty {
    origin: String,
    requests: Arc<Mutex<Vec<String>>>,
}

impl ThirdParty {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a port on 127.0.0.1");
        let origin = format!("http://{}", listener.local_addr().expect("its address"));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let recorded = Arc::clone(&recorded);
                thread::spawn(move || {
                    let _ = serve(stream, &recorded);
                });
            }
        });
        Self { origin, requests }
    }

    fn requests(&self) -> Vec<String> {
        self.requests.lock().expect("the request list").clone()
    }
}

fn serve(stream: TcpStream, recorded: &Mutex<Vec<String>>) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    if line.trim_end().is_empty() {
        return Ok(());
    }
    recorded
        .lock()
        .expect("the request list")
        .push(line.trim_end().to_owned());
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim_end().is_empty() {
            break;
        }
    }
    let path = line.split(' ').nth(1).unwrap_or("/");
    let (status, kind, body): (&str, &str, Vec<u8>) = match path.split('?').next() {
        Some("/lib.js") => (
            "200 OK",
            "text/javascript",
            format!(
                "document.addEventListener('DOMContentLoaded', () => {{ \
                 document.getElementById('lib').textContent = '{LOADED}'; }});"
            )
            .into_bytes(),
        ),
        Some("/font.woff2") => ("200 OK", "font/woff2", b"wOF2 not really a font".to_vec()),
        _ => ("404 Not Found", "text/plain", b"not here".to_vec()),
    };
    let mut stream = stream;
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nAccess-Control-Allow-Origin: *\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    stream.write_all(&body)
}

/// The app's page: its font and script come from `cdn`, its analytics go to `stats` (a page
/// view on load, and the password field's value as it is typed, as session-replay snippets
/// do), and an avatar field previews the image at the URL typed into it.
fn shop_page(cdn: &str, stats: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8"><title>shop</title>
  <style>
    @font-face {{ font-family: Brand; src: url({cdn}/font.woff2) format('woff2'); }}
    h1 {{ font-family: Brand, sans-serif; }}
  </style>
  <script src="{cdn}/lib.js"></script>
</head>
<body>
  <h1>shop</h1>
  <p id="lib">library missing</p>
  <label>Avatar URL <input id="avatar"></label>
  <img id="preview" alt="avatar preview">
  <label>Password <input id="password" type="password"></label>
  <script>
    navigator.sendBeacon('{stats}/collect', 'page=' + location.pathname);
    document.getElementById('avatar').addEventListener('input', (e) => {{
      document.getElementById('preview').src = e.target.value;
    }});
    document.getElementById('password').addEventListener('input', (e) => {{
      navigator.sendBeacon('{stats}/replay?v=' + encodeURIComponent(e.target.value));
    }});
  </script>
</body>
</html>
"#
    )
}

/// Step code that opens the shop and waits for the CDN's script, then runs `body`.
fn on_the_shop(body: &str) -> String {
    format!(
        "async function step(page) {{\n  await page.goto('/');\n  \
         await expect(page.locator('#lib')).toHaveText('{LOADED}');\n{body}}}"
    )
}

/// The tests, one per class of traffic, as (name, step code): `cdn` is the app's second
/// origin, `stats` its analytics.
fn classes(cdn: &str, stats: &str) -> Vec<(&'static str, String)> {
    vec![
        ("the app's own traffic", on_the_shop("")),
        (
            "step code's fetch",
            on_the_shop(&format!(
                "  await page.evaluate((u) => {{ fetch(u + '/data?from=fetch').catch(() => 0); }}, '{cdn}');\n"
            )),
        ),
        (
            "step code's goto",
            on_the_shop(&format!("  await page.goto('{stats}/landing');\n")),
        ),
        (
            "step code's script",
            on_the_shop(&format!(
                "  await page.evaluate((u) => {{ const s = document.createElement('script'); \
                 s.src = u + '/lib.js?from=script'; document.head.append(s); }}, '{cdn}');\n"
            )),
        ),
        (
            "a typed URL",
            on_the_shop(&format!(
                "  await page.locator('#avatar').fill('{cdn}/avatar.png?from=typed');\n"
            )),
        ),
        (
            "a secret",
            on_the_shop("  await page.locator('#password').fill(vars.PASSWORD);\n"),
        ),
    ]
}

/// Replays every class's test in `browser` (the `[browser]` section's keys) and checks what
/// each did and that nothing but the app's own subresources reached another origin.
fn replay_classes(browser: &str) -> Output {
    let cdn = ThirdParty::start();
    let stats = RecordingServer::start();
    let mut scenario = String::new();
    let mut test = Test::new()
        .config(&format!("[browser]\ntimeout = 10\n{browser}"))
        .page("index.html", &shop_page(&cdn.origin, stats.origin()))
        .env("PASSWORD", SECRET)
        .env("PRETTYPLAY_LOG", "prettyplay::origins=debug");
    for (name, code) in classes(&cdn.origin, stats.origin()) {
        scenario.push_str(&format!("test: {name}\n  shop with ${{PASSWORD}}\n"));
        test = test.cached(SCENARIO, name, "shop with ${PASSWORD}", 1, &code);
    }
    let out = test
        .scenario(SCENARIO, &scenario)
        .args(&[
            "replay",
            "--strict",
            "-v",
            "-j",
            "1",
            "--events",
            "events.jsonl",
        ])
        .run()
        .assert_exit(1)
        .stdout_contains("PASS scenarios/shop.steps › the app's own traffic")
        .stdout_line("1 passed, 5 failed")
        .output_contains(&format!(
            "[browser] allowed_origins: loaded the app's script {}/lib.js",
            cdn.origin
        ))
        .output_contains(&format!(
            "[browser] allowed_origins: loaded the app's font {}/font.woff2",
            cdn.origin
        ))
        .output_contains(&format!("{}/collect", stats.origin()))
        .output_contains(&format!(
            "blocked by [browser] allowed_origins: fetch {}/data?from=fetch",
            cdn.origin
        ))
        .output_contains(&format!(
            "blocked by [browser] allowed_origins: {}/landing — add its origin",
            stats.origin()
        ))
        .output_contains(&format!(
            "blocked by [browser] allowed_origins: script {}/lib.js?from=script",
            cdn.origin
        ))
        .output_contains(&format!(
            "blocked by [browser] allowed_origins: image {}/avatar.png?from=typed",
            cdn.origin
        ))
        .output_not_contains(SECRET);
    for failed in [
        "step code's fetch",
        "step code's script",
        "a typed URL",
        "a secret",
    ] {
        let fail = format!("FAIL scenarios/shop.steps › {failed} (");
        if !out.stdout().contains(&fail) {
            out.fail(&format!("the test {failed:?} did not fail"));
        }
    }
    let blocked = out
        .stdout()
        .matches("  BLOCKED BY allowed_origins\n")
        .count();
    if blocked != 5 {
        out.fail(&format!("{blocked} of 5 tests failed on the block"));
    }
    // The app's beacon on load is blocked, not failed: listed as the app's, whatever kind the
    // browser gives it (`ping` in Chromium, `other` in Firefox).
    let beacon = out.line_with(&format!("{}/collect", stats.origin()));
    if !beacon.contains("[browser] allowed_origins: blocked the app's ") {
        out.fail(&format!(
            "the app's beacon was not listed as blocked: {beacon}"
        ));
    }
    // Only the app's own font and script reached the CDN, and nothing reached the analytics.
    let seen = cdn.requests();
    if seen
        .iter()
        .any(|r| !(r.starts_with("GET /lib.js HTTP") || r.starts_with("GET /font.woff2 HTTP")))
        || !seen.iter().any(|r| r.starts_with("GET /lib.js HTTP"))
    {
        out.fail(&format!("the CDN received {seen:?}"));
    }
    let leaked = stats.requests();
    if !leaked.is_empty() {
        out.fail(&format!("the analytics origin received {leaked:?}"));
    }
    // The events list each test's origins; the secret's beacon is failed, masked.
    let events = out.read("events.jsonl");
    if events.contains(SECRET) {
        out.fail("the secret is in the events");
    }
    let seen: Vec<serde_json::Value> = out
        .events("events.jsonl")
        .into_iter()
        .filter(|e| e["event"] == "origins_seen")
        .collect();
    let loaded = seen.iter().any(|e| {
        e["origins"].as_array().is_some_and(|o| {
            o.iter()
                .any(|o| o["origin"] == cdn.origin.as_str() && o["outcome"] == "loaded")
        })
    });
    if seen.len() != 6 || !loaded {
        out.fail(&format!("the origins_seen events: {seen:?}"));
    }
    out
}

#[test]
fn each_class_of_traffic_in_chromium_and_the_last_runs_origins_are_listed() {
    let out = replay_classes("");
    let listing = out
        .again()
        .args(&["origins"])
        .run()
        .assert_exit(0)
        .stdout_contains("origins outside [browser] allowed_origins in the last run")
        .stdout_contains("  loaded   font, script (")
        .stdout_contains("to let the app's own requests through, add to [browser] in prettyplay.toml: allowed_origins = [");
    if !listing.stdout().contains("failed: step code reached for ") {
        listing.fail("the failed origins are not named");
    }
}

#[test]
fn each_class_of_traffic_in_firefox() {
    require_firefox();
    replay_classes("name = \"firefox\"\n");
}

#[test]
fn a_first_run_with_no_configuration_is_green_and_lists_the_blocked_beacon() {
    let cdn = ThirdParty::start();
    let stats = RecordingServer::start();
    // The default prettyplay.toml of the tests: no `[browser]` section at all.
    let out = Test::new()
        .page("index.html", &shop_page(&cdn.origin, stats.origin()))
        .env("PRETTYPLAY_GENERATE_BUILTIN", "first")
        .scenario(
            SCENARIO,
            "test: the shop opens\n  open /index.html\n  the page says \"library loaded\"\n",
        )
        .args(&["run", "-v"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .output_contains(&format!(
            "[browser] allowed_origins: blocked the app's ping {}/collect",
            stats.origin()
        ))
        .output_contains(&format!(
            "[browser] allowed_origins: loaded the app's script {}/lib.js",
            cdn.origin
        ));
    let cache = out.read("cache/scenarios/shop.steps.toml");
    if !cache.contains("library loaded") {
        out.fail(&format!("the generated code was not cached:\n{cache}"));
    }
    let leaked = stats.requests();
    if !leaked.is_empty() {
        out.fail(&format!("the analytics origin received {leaked:?}"));
    }
}

#[test]
fn a_models_candidate_that_reaches_another_origin_fails_and_is_never_cached() {
    let cdn = ThirdParty::start();
    let stats = RecordingServer::start();
    // The origin a prompt-injected model sends the page's data to: none of the app's.
    let elsewhere = RecordingServer::start();
    let llm = FakeLlm::start();
    let reaching = on_the_shop(&format!(
        "  await page.evaluate((u) => {{ fetch(u + '/data?from=model').catch(() => 0); }}, '{}');\n",
        elsewhere.origin()
    ));
    let honest = on_the_shop("");
    llm.reply_text(&format!("```js\n{reaching}\n```\n"));
    llm.reply_text(&format!("```js\n{honest}\n```\n"));
    // The fetch the first candidate set going may be blocked only after the next candidate
    // started, failing that one too: a third reply, honest as well, makes room for it.
    llm.reply_text(&format!("```js\n{honest}\n```\n"));
    let out = Test::new()
        .config(&format!(
            "[browser]\ntimeout = 10\n[llm]\nprovider = \"openai\"\nmodel = \"fake\"\n\
             base_url = \"{}\"\n",
            llm.base_url()
        ))
        .page("index.html", &shop_page(&cdn.origin, stats.origin()))
        .env("PRETTYPLAY_GENERATE_BUILTIN", "off")
        .scenario(
            SCENARIO,
            "test: generated\n  the shop's library is loaded\n",
        )
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("steps: 0 cached, 1 generated, 0 healed");
    let requests = llm.requests();
    if !(2..=3).contains(&requests.len()) {
        out.fail(&format!("{} LLM requests", requests.len()));
    }
    let retry = requests[1].user_text();
    let refused = format!(
        "blocked by [browser] allowed_origins: fetch {}/data?from=model",
        elsewhere.origin()
    );
    if !retry.contains(&refused) {
        out.fail(&format!("the retry does not carry the block:\n{retry}"));
    }
    let cache = out.read("cache/scenarios/shop.steps.toml");
    if cache.contains("from=model") || !cache.contains(LOADED) {
        out.fail(&format!("the cache holds the wrong code:\n{cache}"));
    }
    let reached = elsewhere.requests();
    if !reached.is_empty() {
        out.fail(&format!("the model's origin received {reached:?}"));
    }
    let leaked = stats.requests();
    if !leaked.is_empty() {
        out.fail(&format!("the analytics origin received {leaked:?}"));
    }
}

/// Replays, in `browser`, steps whose code leaves a timer behind in the page that fetches from
/// the CDN just after the code returned (at once, and 60 ms later): the request reaches the
/// guard only after the step's last call, and under load after the step's round trips, so
/// only a settle that waits for what the driver announced sees it. Each test fails on it, and
/// nothing reaches the CDN but the app's own script and font.
fn replay_late_timers(browser: &str) {
    let cdn = ThirdParty::start();
    let stats = RecordingServer::start();
    let mut scenario = String::new();
    let mut test = Test::new()
        .config(&format!("[browser]\ntimeout = 10\n{browser}"))
        .page("index.html", &shop_page(&cdn.origin, stats.origin()));
    for (name, delay) in [("a timer at once", 0), ("a timer after 60 ms", 60)] {
        let code = on_the_shop(&format!(
            "  await page.evaluate(([u, d]) => {{ setTimeout(() => \
             fetch(u + '/data?from=timer' + d).catch(() => 0), d); }}, ['{}', {delay}]);\n",
            cdn.origin
        ));
        scenario.push_str(&format!("test: {name}\n  shop\n"));
        test = test.cached(SCENARIO, name, "shop", 1, &code);
    }
    let out = test
        .scenario(SCENARIO, &scenario)
        .args(&["replay", "--strict", "-j", "1"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 2 failed");
    timer_tests_failed(
        &out,
        &cdn,
        &[
            ("a timer at once", "timer0"),
            ("a timer after 60 ms", "timer60"),
        ],
    );
}

/// Each of `failed` (a test's name and the `from` of the fetch its timer sent) failed with its
/// fetch blocked, and the CDN received only the files the app's page loads.
fn timer_tests_failed(out: &Output, cdn: &ThirdParty, failed: &[(&str, &str)]) {
    for (name, from) in failed {
        let fail = format!("FAIL scenarios/shop.steps › {name} (");
        if !out.stdout().contains(&fail) {
            out.fail(&format!("the test {name:?} did not fail"));
        }
        let blocked = format!(
            "blocked by [browser] allowed_origins: fetch {}/data?from={from}",
            cdn.origin
        );
        if !out.stdout().contains(&blocked) {
            out.fail(&format!(
                "the fetch of {name:?} was not blocked as the step's"
            ));
        }
    }
    let seen = cdn.requests();
    if seen
        .iter()
        .any(|r| !(r.starts_with("GET /lib.js HTTP") || r.starts_with("GET /font.woff2 HTTP")))
    {
        out.fail(&format!("the CDN received {seen:?}"));
    }
}

#[test]
fn a_fetch_step_code_left_on_a_timer_fails_its_step_in_chromium() {
    replay_late_timers("");
}

#[test]
fn a_fetch_step_code_left_on_a_timer_fails_its_step_in_firefox() {
    require_firefox();
    replay_late_timers("name = \"firefox\"\n");
}

/// An app page whose status turns "ready" a while after it loads, by the app's own timer: 2 s,
/// or the milliseconds its `?after=` asks for. A step that waits for it is slow.
const SLOW_PAGE: &str = r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>slow</title></head>
<body>
  <h1>slow</h1>
  <p id="status">loading</p>
  <script>
    const after = Number(new URLSearchParams(location.search).get('after') || 2000);
    setTimeout(() => { document.getElementById('status').textContent = 'ready'; }, after);
  </script>
</body>
</html>
"#;

const SLOW_SCENARIO: &str = "scenarios/slow.steps";

/// Step code that opens the slow page and leaves a timer that fetches from `origin` after
/// `delay` ms.
fn open_leaving_a_timer(origin: &str, delay: u32) -> String {
    format!(
        "async function step(page) {{\n  await page.goto('/');\n  \
         await page.evaluate(([u, d]) => {{ setTimeout(() => \
         fetch(u + '/data?from=timer' + d).catch(() => 0), d); }}, ['{origin}', {delay}]);\n}}\n"
    )
}

/// Step code that waits for the slow page's status.
const WAIT_FOR_READY: &str = "async function step(page) {\n  await expect(page.locator('#status'))\
    .toHaveText('ready', { timeout: 8000 });\n}\n";

/// The test of the slow page: a step whose code leaves a 1 s timer, then a slow step.
const TIMER_THEN_SLOW: &str =
    "test: a timer, then a slow step\n  open the app\n  the status says ready\n";

/// In `run`, a model writes code for a first step that leaves a 1 s timer fetching from
/// another origin, and for a slow second step; the timer fires after the first step passed,
/// during (or just before) the second, whose candidate fails on the block. Whatever the model
/// writes next, the test fails and nothing it wrote stays in the cache, and the other origin
/// receives nothing. `browser` is the `[browser]` section's keys.
fn run_a_timer_that_fires_in_a_later_step(browser: &str) {
    let elsewhere = RecordingServer::start();
    let llm = FakeLlm::start();
    let leaving = open_leaving_a_timer(elsewhere.origin(), 1000);
    llm.always_on_contains(
        &generation_of("open the app"),
        format!("```js\n{leaving}\n```\n").as_str(),
    );
    llm.always_on_contains(
        &generation_of("the status says ready"),
        format!("```js\n{WAIT_FOR_READY}\n```\n").as_str(),
    );
    let out = Test::new()
        .config(&format!(
            "[browser]\ntimeout = 10\n{browser}[llm]\nprovider = \"openai\"\nmodel = \"fake\"\n\
             base_url = \"{}\"\n",
            llm.base_url()
        ))
        .page("index.html", SLOW_PAGE)
        .env("PRETTYPLAY_GENERATE_BUILTIN", "off")
        .scenario(SLOW_SCENARIO, TIMER_THEN_SLOW)
        .args(&["run", "-j", "1"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 1 failed")
        .stdout_contains(&format!(
            "blocked by [browser] allowed_origins: fetch {}/data?from=timer1000",
            elsewhere.origin()
        ));
    let path = "cache/scenarios/slow.steps.toml";
    let cache = if out.exists(path) {
        out.read(path)
    } else {
        String::new()
    };
    if cache.contains("open the app") || cache.contains("the status says ready") {
        out.fail(&format!("the test's code was kept in the cache:\n{cache}"));
    }
    let reached = elsewhere.requests();
    if !reached.is_empty() {
        out.fail(&format!("the other origin received {reached:?}"));
    }
}

#[test]
fn a_models_timer_that_fires_in_a_later_step_is_never_cached_in_chromium() {
    run_a_timer_that_fires_in_a_later_step("");
}

#[test]
fn a_models_timer_that_fires_in_a_later_step_is_never_cached_in_firefox() {
    require_firefox();
    run_a_timer_that_fires_in_a_later_step("name = \"firefox\"\n");
}

/// `replay --strict` of hand-written cached code that does the same as the model's above: the
/// test fails on the block, and the other origin receives nothing.
fn replay_a_timer_that_fires_in_a_later_step(browser: &str) {
    let elsewhere = RecordingServer::start();
    let out = Test::new()
        .config(&format!("[browser]\ntimeout = 10\n{browser}"))
        .page("index.html", SLOW_PAGE)
        .scenario(SLOW_SCENARIO, TIMER_THEN_SLOW)
        .cached(
            SLOW_SCENARIO,
            "a timer, then a slow step",
            "open the app",
            1,
            &open_leaving_a_timer(elsewhere.origin(), 1000),
        )
        .cached(
            SLOW_SCENARIO,
            "a timer, then a slow step",
            "the status says ready",
            1,
            WAIT_FOR_READY,
        )
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 1 failed")
        .stdout_contains(&format!(
            "blocked by [browser] allowed_origins: fetch {}/data?from=timer1000",
            elsewhere.origin()
        ));
    let reached = elsewhere.requests();
    if !reached.is_empty() {
        out.fail(&format!("the other origin received {reached:?}"));
    }
}

#[test]
fn cached_code_whose_timer_fires_in_a_later_step_fails_replay_strict_in_chromium() {
    replay_a_timer_that_fires_in_a_later_step("");
}

#[test]
fn cached_code_whose_timer_fires_in_a_later_step_fails_replay_strict_in_firefox() {
    require_firefox();
    replay_a_timer_that_fires_in_a_later_step("name = \"firefox\"\n");
}

/// Replays, in one browser (`-j 1`), two tests whose last step leaves a timer fetching from
/// another origin (after 300 ms and after 5 s), then a test that waits 6 s for the slow page:
/// the browser lives on well past both timers, but their contexts are closed. Whether the
/// 300 ms timer fires before its test ends (and fails it) depends on the machine, so only
/// this is asserted: the other origin receives nothing, and the slow test passes.
fn timers_past_the_tests_end_send_nothing(browser: &str) {
    let elsewhere = RecordingServer::start();
    let scenario = "test: a 300 ms timer at the end\n  open the app\n\
                    test: a 5 s timer at the end\n  open the app\n\
                    test: a slow page\n  the page is ready after 6 seconds\n";
    let slow = "async function step(page) {\n  await page.goto('/?after=6000');\n  \
                await expect(page.locator('#status')).toHaveText('ready', { timeout: 9000 });\n}\n";
    let out = Test::new()
        .config(&format!("[browser]\ntimeout = 10\n{browser}"))
        .page("index.html", SLOW_PAGE)
        .scenario(SLOW_SCENARIO, scenario)
        .cached(
            SLOW_SCENARIO,
            "a 300 ms timer at the end",
            "open the app",
            1,
            &open_leaving_a_timer(elsewhere.origin(), 300),
        )
        .cached(
            SLOW_SCENARIO,
            "a 5 s timer at the end",
            "open the app",
            1,
            &open_leaving_a_timer(elsewhere.origin(), 5000),
        )
        .cached(
            SLOW_SCENARIO,
            "a slow page",
            "the page is ready after 6 seconds",
            1,
            slow,
        )
        .args(&["replay", "--strict", "-j", "1"])
        .run()
        .stdout_contains("PASS scenarios/slow.steps › a slow page");
    let reached = elsewhere.requests();
    if !reached.is_empty() {
        out.fail(&format!("the other origin received {reached:?}"));
    }
}

#[test]
fn timers_past_the_tests_end_send_nothing_in_chromium() {
    timers_past_the_tests_end_send_nothing("");
}

#[test]
fn timers_past_the_tests_end_send_nothing_in_firefox() {
    require_firefox();
    timers_past_the_tests_end_send_nothing("name = \"firefox\"\n");
}

/// The tests of the timers step code leaves, as (name, what step code does on the shop after
/// it loaded): a 400 ms timer that fetches from `cdn`, the same timer cleared by the step, and
/// a chain of two 200 ms timers, the second of which fetches.
fn left_timers(cdn: &str) -> Vec<(&'static str, String)> {
    vec![
        (
            "a 400 ms timer",
            format!(
                "  await page.evaluate((u) => {{ setTimeout(() => \
                 fetch(u + '/data?from=timer400').catch(() => 0), 400); }}, '{cdn}');\n"
            ),
        ),
        (
            "a timer the step cleared",
            format!(
                "  await page.evaluate((u) => {{ const t = setTimeout(() => \
                 fetch(u + '/data?from=cleared').catch(() => 0), 400); clearTimeout(t); }}, '{cdn}');\n"
            ),
        ),
        (
            "a chain of timers",
            format!(
                "  await page.evaluate((u) => {{ setTimeout(() => {{ setTimeout(() => \
                 fetch(u + '/data?from=chain').catch(() => 0), 200); }}, 200); }}, '{cdn}');\n"
            ),
        ),
    ]
}

/// Replays, in `browser`, the tests of [`left_timers`]: each timer step code left fires before
/// its test is judged, whatever the machine's speed, because the guard waits for the timers
/// step code set; so the 400 ms timer and the chain fail their test on the blocked fetch, and
/// the cleared timer's test passes. Nothing reaches the CDN but the app's script and font.
fn replay_left_timers(browser: &str) {
    let cdn = ThirdParty::start();
    let stats = RecordingServer::start();
    let mut scenario = String::new();
    let mut test = Test::new()
        .config(&format!("[browser]\ntimeout = 10\n{browser}"))
        .page("index.html", &shop_page(&cdn.origin, stats.origin()));
    for (name, body) in left_timers(&cdn.origin) {
        scenario.push_str(&format!("test: {name}\n  shop\n"));
        test = test.cached(SCENARIO, name, "shop", 1, &on_the_shop(&body));
    }
    let out = test
        .scenario(SCENARIO, &scenario)
        .args(&["replay", "--strict", "-j", "1"])
        .run()
        .assert_exit(1)
        .stdout_line("1 passed, 2 failed")
        .stdout_contains("PASS scenarios/shop.steps › a timer the step cleared");
    timer_tests_failed(
        &out,
        &cdn,
        &[
            ("a 400 ms timer", "timer400"),
            ("a chain of timers", "chain"),
        ],
    );
}

#[test]
fn timers_step_code_left_are_waited_for_and_a_cleared_one_is_not_in_chromium() {
    replay_left_timers("");
}

#[test]
fn timers_step_code_left_are_waited_for_and_a_cleared_one_is_not_in_firefox() {
    require_firefox();
    replay_left_timers("name = \"firefox\"\n");
}

/// An app page that runs an animation loop and a poll of its own for as long as it is open,
/// and writes whether its timer functions still read as the browser's own.
const BUSY_APP: &str = r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>busy</title></head>
<body>
  <h1>busy</h1>
  <p id="frames">0</p>
  <p id="native">unknown</p>
  <script>
    const native = (f) => /^function \w+\(\) \{\s*\[native code\]\s*\}$/
      .test(Function.prototype.toString.call(f));
    const all = [setTimeout, setInterval, clearTimeout, clearInterval, requestAnimationFrame,
      cancelAnimationFrame, requestIdleCallback, cancelIdleCallback, Function.prototype.toString];
    document.getElementById('native').textContent =
      all.every(native) && setTimeout.name === 'setTimeout' && !('prototype' in setTimeout)
        ? 'native' : 'wrapped';
    let frames = 0;
    const loop = () => { frames += 1; requestAnimationFrame(loop); };
    requestAnimationFrame(loop);
    setInterval(() => { document.getElementById('frames').textContent = String(frames); }, 50);
  </script>
</body>
</html>
"#;

/// Replays, in `browser`, a test on [`BUSY_APP`] whose code runs a script of its own (so the
/// guard asks the page for step code's timers), then checks, from the page and from step code,
/// that the timer functions read as native code: the app's loop and poll are not step code's,
/// so the test passes; and a test whose code leaves an interval running fails, after the
/// step's timeout, on the pending timer.
fn busy_app(browser: &str) {
    let scenario =
        "test: a busy app\n  open the app\ntest: an interval left running\n  open the app\n";
    let busy = "async function step(page) {\n  await page.goto('/');\n  \
                await page.evaluate(() => { document.title = 'seen by step code'; });\n  \
                await expect(page.locator('#native')).toHaveText('native');\n  \
                const reads = await page.evaluate(() => /^function setTimeout\\(\\) \\{\\s*\\[native code\\]\\s*\\}$/\
                .test(Function.prototype.toString.call(setTimeout)));\n  \
                expect(reads).toBe(true);\n  \
                await expect(page.locator('#frames')).not.toHaveText('0');\n}\n";
    let interval = "async function step(page) {\n  await page.goto('/');\n  \
                    await page.evaluate(() => { setInterval(() => { document.title = 'tick'; }, 100); });\n}\n";
    Test::new()
        .config(&format!("[browser]\ntimeout = 3\n{browser}"))
        .page("index.html", BUSY_APP)
        .scenario(SLOW_SCENARIO, scenario)
        .cached(SLOW_SCENARIO, "a busy app", "open the app", 1, busy)
        .cached(
            SLOW_SCENARIO,
            "an interval left running",
            "open the app",
            1,
            interval,
        )
        .args(&["replay", "--strict", "-j", "1"])
        .run()
        .assert_exit(1)
        .stdout_line("1 passed, 1 failed")
        .stdout_contains("PASS scenarios/slow.steps › a busy app")
        .stdout_contains("FAIL scenarios/slow.steps › an interval left running (")
        .stdout_contains("step code left 1 timer(s) pending in the page");
}

#[test]
fn an_apps_own_loop_and_poll_are_not_waited_for_and_step_codes_interval_fails_in_chromium() {
    busy_app("");
}

#[test]
fn an_apps_own_loop_and_poll_are_not_waited_for_and_step_codes_interval_fails_in_firefox() {
    require_firefox();
    busy_app("name = \"firefox\"\n");
}
