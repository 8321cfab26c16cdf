//! What the app sends as a test's context closes, end to end in Chromium and Firefox: an app
//! that beacons (`navigator.sendBeacon`) and sends a `keepalive` fetch to another origin from
//! its `pagehide` and `visibilitychange` handlers fires them while the context closes, when the
//! context's routes may no longer see the page's requests. The other origin must receive none
//! of them: whatever leaves the page then still meets a guard. And none fails a test: with
//! nothing the floor guards in play they are the app's own traffic to the closing test, and
//! the next test did not send them.

use std::time::Duration;

use crate::support::recording_server::RecordingServer;
use crate::support::{Test, require_firefox};

const SCENARIO: &str = "scenarios/close.steps";

/// How many tests the scenario holds; each closes a context of its own, so each is one more
/// chance for a request to leave as its context closes.
const TESTS: usize = 6;

/// The app's page: when it is hidden or left, it reports to `elsewhere` with a beacon and a
/// `keepalive` fetch, as analytics snippets do, naming the event in the path.
fn closing_page(elsewhere: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>close</title></head>
<body>
  <h1>close</h1>
  <script>
    const report = (event) => {{
      navigator.sendBeacon('{elsewhere}/leak-beacon-' + event, 'bye');
      fetch('{elsewhere}/leak-keepalive-' + event, {{ method: 'POST', body: 'bye', keepalive: true, mode: 'no-cors' }});
    }};
    addEventListener('pagehide', () => report('pagehide'));
    addEventListener('unload', () => report('unload'));
    document.addEventListener('visibilitychange', () => report('visibilitychange'));
  </script>
</body>
</html>
"#
    )
}

/// Replays [`TESTS`] tests in `browser` (the `[browser]` section's keys), one worker,
/// and fails when the other origin received anything.
fn replay_closing_tests(browser: &str) {
    let elsewhere = RecordingServer::start();
    let sentence = "see the app";
    let code = "async function step(page) {\n  await page.goto('/');\n  \
                await expect(page.locator('h1')).toHaveText('close');\n}\n";
    let mut scenario = String::new();
    let mut test = Test::new()
        .config(&format!("[browser]\ntimeout = 10\n{browser}"))
        .page("index.html", &closing_page(elsewhere.origin()));
    for n in 1..=TESTS {
        let name = format!("closing {n}");
        scenario.push_str(&format!("test: {name}\n  {sentence}\n"));
        test = test.cached(SCENARIO, &name, sentence, 1, code);
    }
    let out = test
        .scenario(SCENARIO, &scenario)
        .args(&["replay", "--strict", "-j", "1"])
        .run();
    // The browser has exited with prettyplay; this pause only lets the recording server read
    // a connection the kernel already accepted, so it cannot make the check pass.
    std::thread::sleep(Duration::from_millis(500));
    let reached = elsewhere.requests();
    if !reached.is_empty() {
        out.fail(&format!(
            "the other origin received {} requests: {reached:?}",
            reached.len()
        ));
    }
    // What a page sends as its context closes is refused by that context's own proxy port,
    // so it fails no test: neither its own, whose verdict is in, nor the next one.
    let passed = out.stdout().matches("PASS scenarios/close.steps").count();
    if passed != TESTS {
        out.fail(&format!("{passed} of {TESTS} tests passed"));
    }
}

#[test]
fn what_the_app_sends_as_its_context_closes_never_leaves_in_chromium() {
    replay_closing_tests("");
}

#[test]
fn what_the_app_sends_as_its_context_closes_never_leaves_in_firefox() {
    require_firefox();
    replay_closing_tests("name = \"firefox\"\n");
}
