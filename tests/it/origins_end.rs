//! What the app does just after a test's last act, end to end in Chromium and Firefox: the end
//! of a test keeps the origin guard's floor after an act only while something the floor guards
//! is in play, and these tests hold it to that. The app's page answers each act a moment later,
//! on a 50 ms timer of its own, well inside the floor, which counts from when the act returned:
//! a test that typed a secret and ends on a check still fails when the app beacons the
//! secret to another origin; a test that ends on a click still fails when the app answers it by
//! navigating to another origin; and a test that typed a public value and ends on a check
//! passes while the app's beacon of it is blocked (the app's own traffic). The other origin
//! receives nothing in every case.

use crate::support::recording_server::RecordingServer;
use crate::support::{Test, require_firefox};

const SCENARIO: &str = "scenarios/late.steps";

/// The secret the first test types.
const SECRET: &str = "Late-s3cret-Numbat";

/// The app's page: every answer to an act comes from a 50 ms timer of the app's. The
/// password and the note are beaconed to `elsewhere` as session-replay snippets do, and the
/// "Leave" button takes the page to `elsewhere`.
fn late_page(elsewhere: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>late</title></head>
<body>
  <h1>late</h1>
  <label>Password <input id="password" type="password"></label>
  <label>Note <input id="note"></label>
  <button id="leave">Leave</button>
  <script>
    const later = (f) => setTimeout(f, 50);
    for (const id of ['password', 'note']) {{
      document.getElementById(id).addEventListener('input', (e) => {{
        const value = e.target.value;
        later(() => navigator.sendBeacon('{elsewhere}/replay?' + id + '=' + encodeURIComponent(value)));
      }});
    }}
    document.getElementById('leave').addEventListener('click', () => {{
      later(() => {{ location.href = '{elsewhere}/away'; }});
    }});
  </script>
</body>
</html>
"#
    )
}

/// Step code that opens the app and runs `body`.
fn on_the_app(body: &str) -> String {
    format!("async function step(page) {{\n  await page.goto('/');\n{body}}}\n")
}

/// Replays the three tests in `browser` (the `[browser]` section's keys), one worker.
fn replay_late_answers(browser: &str) {
    let elsewhere = RecordingServer::start();
    let tests = [
        (
            "a secret then a check",
            "sign in with ${PASSWORD}",
            on_the_app(
                "  await page.locator('#password').fill(vars.PASSWORD);\n  \
                 await expect(page.locator('h1')).toHaveText('late');\n",
            ),
        ),
        (
            "a click at the end",
            "leave the app",
            on_the_app("  await page.locator('#leave').click();\n"),
        ),
        (
            "a public note then a check",
            "write a note",
            on_the_app(
                "  await page.locator('#note').fill('a public note of mine');\n  \
                 await expect(page.locator('h1')).toHaveText('late');\n",
            ),
        ),
    ];
    let mut scenario = String::new();
    let mut test = Test::new()
        .config(&format!("[browser]\ntimeout = 10\n{browser}"))
        .page("index.html", &late_page(elsewhere.origin()))
        .env("PASSWORD", SECRET);
    for (name, sentence, code) in &tests {
        scenario.push_str(&format!("test: {name}\n  {sentence}\n"));
        test = test.cached(SCENARIO, name, sentence, 1, code);
    }
    let out = test
        .scenario(SCENARIO, &scenario)
        .args(&["replay", "--strict", "-j", "1"])
        .run()
        .assert_exit(1)
        .stdout_line("1 passed, 2 failed")
        .stdout_contains("PASS scenarios/late.steps › a public note then a check")
        .stdout_contains("FAIL scenarios/late.steps › a secret then a check (")
        .stdout_contains("FAIL scenarios/late.steps › a click at the end (")
        .output_contains(&format!(
            "blocked by [browser] allowed_origins: {}/away",
            elsewhere.origin()
        ))
        .output_not_contains(SECRET);
    let blocked = out
        .stdout()
        .matches("  BLOCKED BY allowed_origins\n")
        .count();
    if blocked != 2 {
        out.fail(&format!("{blocked} of 2 tests failed on the block"));
    }
    let reached = elsewhere.requests();
    if !reached.is_empty() {
        out.fail(&format!("the other origin received {reached:?}"));
    }
}

#[test]
fn what_the_app_does_late_after_a_secret_or_a_last_act_fails_in_chromium() {
    replay_late_answers("");
}

#[test]
fn what_the_app_does_late_after_a_secret_or_a_last_act_fails_in_firefox() {
    require_firefox();
    replay_late_answers("name = \"firefox\"\n");
}
