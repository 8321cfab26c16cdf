//! End to end: the settle window. Cached step code that fails with a pollable failure is executed
//! again (after `[polling] delay`) until it passes or `[polling] timeout` is spent, or `[tries=N]`
//! executions were made; other failures are not retried. See `docs/settle.md`.

use regex::Regex;

use crate::support::{Output, Test};

/// A `ready` paragraph that is late: never on the first load of the page in the test's browser
/// context, and on a later load (a step's repetition opens the page again) not before 1.5 s
/// after the first (its time is kept in `localStorage`, so a reload does not restart the clock).
/// The first execution of [`WAIT_FOR_READY`] therefore fails however slow the machine is.
const LATE_PAGE: &str = r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>settle</title></head>
<body>
  <h1>settle</h1>
  <script>
    const first = Number(localStorage.getItem('first') || Date.now());
    const loads = Number(localStorage.getItem('loads') || 0) + 1;
    localStorage.setItem('first', String(first));
    localStorage.setItem('loads', String(loads));
    if (loads > 1) {
      setTimeout(() => {
        const p = document.createElement('p');
        p.textContent = 'ready';
        document.body.append(p);
      }, Math.max(0, first + 1500 - Date.now()));
    }
  </script>
</body>
</html>
"#;

/// Waits 300 ms for `ready`: on the first load it never comes.
const WAIT_FOR_READY: &str = "async function step(page) {
  await page.goto('/');
  await expect(page.getByText('ready')).toBeVisible({ timeout: 300 });
}";

/// `[browser]` of every run: the 10 s action timeout is a margin for the actions meant to pass
/// (the counter's click) on a loaded machine; the waits meant to fail give their own timeouts.
const BROWSER: &str = "[browser]\ntimeout = 10\n";

/// A project whose only test opens `/` and waits briefly for `ready`, with `polling` as the
/// `[polling]` section, run with `-v`.
fn wait_for_ready(page: &str, polling: &str) -> Output {
    Test::new()
        .config(&format!("{BROWSER}\n[polling]\n{polling}"))
        .page("index.html", page)
        .scenario(
            "scenarios/settle.steps",
            "test: late\n  the page is ready\n",
        )
        .cached(
            "scenarios/settle.steps",
            "late",
            "the page is ready",
            1,
            WAIT_FOR_READY,
        )
        .args(&["replay", "--strict", "-v"])
        .run()
}

/// The duration the verbose report gives the step `sentence`, in seconds.
fn step_seconds(out: &Output, sentence: &str) -> f64 {
    let pattern = format!(r"[✓✗] \d+\. {} \((\d+\.\d+)s\)", regex::escape(sentence));
    let Some(captures) = Regex::new(&pattern)
        .expect("a valid pattern")
        .captures(out.stdout())
    else {
        out.fail(&format!("no verbose step line for {sentence:?}"));
    };
    captures[1].parse().expect("a number of seconds")
}

#[test]
fn a_late_element_fails_without_polling() {
    wait_for_ready(LATE_PAGE, "timeout = 0\n")
        .assert_exit(1)
        .stdout_contains("FAIL scenarios/settle.steps › late (")
        .output_contains("getByText('ready')")
        .output_not_contains("retry")
        .stdout_line("0 passed, 1 failed");
}

#[test]
fn a_late_element_passes_within_the_settle_window() {
    let out = wait_for_ready(LATE_PAGE, "timeout = 10\ndelay = 0.2\n")
        .assert_exit(0)
        .stdout_contains("↻ retry 2: expect(locator).toBeVisible() failed")
        .stdout_contains("PASS scenarios/settle.steps › late (")
        .stdout_line("1 passed, 0 failed");
    let seconds = step_seconds(&out, "the page is ready");
    eprintln!("settle: the late element passed after {seconds:.2}s");
    // Not before `ready` can show (1.5 s after the first load), and an upper bound that holds
    // on a loaded machine too (the window is 10 s).
    if !(1.0..10.0).contains(&seconds) {
        out.fail(&format!(
            "the step should pass once `ready` shows (~1.5 s), took {seconds}s"
        ));
    }
}

#[test]
fn an_element_that_never_appears_fails_once_the_window_is_spent() {
    let out = wait_for_ready(
        "<!doctype html><html><body><h1>settle</h1></body></html>",
        // The window starts with the first execution, which a loaded machine stretched past 2 s
        // (no repetition, no `retry 2`): 5 s leaves room for repetitions.
        "timeout = 5\ndelay = 0.2\n",
    )
    .assert_exit(1)
    .stdout_contains("↻ retry 2: expect(locator).toBeVisible() failed")
    .output_contains("getByText('ready')")
    .stdout_line("0 passed, 1 failed");
    let seconds = step_seconds(&out, "the page is ready");
    eprintln!("settle: the missing element failed after {seconds:.2}s");
    // The window plus at most one execution (under 1 s idle); generous for a loaded machine.
    if !(5.0..20.0).contains(&seconds) {
        out.fail(&format!(
            "the step should fail after about the 5 s window, took {seconds}s"
        ));
    }
}

#[test]
fn a_strict_mode_violation_is_not_retried() {
    let out = Test::new()
        .config(&format!("{BROWSER}\n[polling]\ntimeout = 10\ndelay = 0.2\n"))
        .page(
            "index.html",
            "<!doctype html><html><body><button>one</button><button>two</button></body></html>",
        )
        .scenario("scenarios/strict.steps", "test: ambiguous\n  press the button\n")
        .cached(
            "scenarios/strict.steps",
            "ambiguous",
            "press the button",
            1,
            "async function step(page) {\n  await page.goto('/');\n  await page.getByRole('button').click();\n}",
        )
        .args(&["replay", "--strict", "-v"])
        .run()
        .assert_exit(1)
        .output_contains("strict mode violation")
        .output_not_contains("retry")
        .stdout_line("0 passed, 1 failed");
    let seconds = step_seconds(&out, "press the button");
    eprintln!("settle: the strict-mode violation failed after {seconds:.2}s");
    // A repetition would run until the 10 s window is spent.
    if seconds >= 8.0 {
        out.fail(&format!(
            "a strict-mode violation should fail on its first execution, took {seconds}s"
        ));
    }
}

/// A counter the step code increments; its text is the number of clicks.
const COUNTER_PAGE: &str = r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>counter</title></head>
<body>
  <button onclick="const c = document.getElementById('count'); c.textContent = String(Number(c.textContent) + 1)">add</button>
  <span id="count">0</span>
</body>
</html>
"#;

#[test]
fn tries_executes_the_step_exactly_n_times_with_polling_off() {
    let scenario = "test: count\n  open the counter\n  add one until it reaches 99 [tries=3]\n";
    let out = Test::new()
        .config(&format!("{BROWSER}\n[polling]\ndelay = 0.1\n"))
        .page("index.html", COUNTER_PAGE)
        .scenario("scenarios/count.steps", scenario)
        .cached(
            "scenarios/count.steps",
            "count",
            "open the counter",
            1,
            "async function step(page) {\n  await page.goto('/');\n}",
        )
        .cached(
            "scenarios/count.steps",
            "count",
            "add one until it reaches 99",
            1,
            "async function step(page) {\n  await page.getByRole('button', { name: 'add' }).click();\n  await expect(page.locator('#count')).toHaveText('99', { timeout: 300 });\n}",
        )
        .env("PRETTYPLAY_LOG", "prettyplay::settle=info")
        .args(&["replay", "--strict", "-v"])
        .run()
        .assert_exit(1)
        .stdout_contains("↻ retry 2: expect(locator).toHaveText(expected) failed")
        .stdout_contains("↻ retry 3: ")
        .output_not_contains("retry 4")
        // The last failure is reported: the counter after the third click.
        .stdout_contains("Received: \"3\"\n")
        .stderr_contains("settle_retry")
        .stderr_contains("attempt=3")
        .stdout_line("0 passed, 1 failed");
    let seconds = step_seconds(&out, "add one until it reaches 99");
    eprintln!("settle: [tries=3] failed after {seconds:.2}s");
}

/// Reloads itself the first time a step evaluates in it (a navigation racing the call, as an app
/// that redirects after login does), and answers the second time.
const RELOAD_ONCE: &str = "async function step(page) {
  await page.goto('/');
  const answer = await page.evaluate(() => new Promise((resolve) => {
    if (sessionStorage.getItem('reloaded')) { resolve('settled'); return; }
    sessionStorage.setItem('reloaded', '1');
    location.reload();
  }));
  if (answer !== 'settled') throw new Error(`unexpected ${answer}`);
}";

#[test]
fn a_navigation_that_destroys_the_context_polls_while_the_browser_lives() {
    let run = |polling: &str| {
        Test::new()
            .config(&format!("{BROWSER}\n[polling]\n{polling}"))
            .page(
                "index.html",
                "<!doctype html><title>reload</title><h1>reload</h1>",
            )
            .scenario(
                "scenarios/settle.steps",
                "test: reload\n  the page settles\n",
            )
            .cached(
                "scenarios/settle.steps",
                "reload",
                "the page settles",
                1,
                RELOAD_ONCE,
            )
            .args(&["replay", "--strict", "-v"])
            .run()
    };
    // Without polling, the destroyed context is the step's failure, and says what happened.
    run("timeout = 0\n")
        .assert_exit(1)
        .output_contains("page detached")
        .output_contains("Execution context was destroyed");
    // With a window, the second execution (after the reload) passes.
    run("timeout = 10\ndelay = 0.1\n")
        .assert_exit(0)
        .stdout_contains("↻ retry 2:")
        .stdout_line("1 passed, 0 failed");
}
