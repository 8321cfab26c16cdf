//! The step API in a real headless Firefox (Debian's `firefox-esr`, driven over WebDriver BiDi
//! with the launch channel `moz-firefox`): every group of the conformance suite, and dialogs,
//! frames, scrolling and downloads, as in Chromium. Popups work, but the driver hands over a
//! popup before its first navigation in Firefox (`popup.url()` can still be `about:blank`), so
//! the popup suite, which reads the URL at once, is Chromium's only. Where Firefox differs for a reason
//! that is not prettyplay's (docs/configuration.md, Firefox), the test says what it sees, so a
//! driver that closes the gap shows up here.

use crate::conformance::{GROUPS, SCENARIO, replay_groups};
use crate::conformance_events::{check_dialogs, check_downloads, check_frames, check_scrolling};
use crate::support::require_firefox;

const FIREFOX: &str = "name = \"firefox\"\n";

/// The groups whose checks double-click: the driver's BiDi input sends the two clicks as two
/// actions, and Firefox fires no `dblclick` for them.
const DOUBLE_CLICKING: &[&str] = &["actions", "the page"];

/// The lines of the waiting group that click an element re-created every 200 ms. Each click
/// over BiDi takes several round trips to Firefox, and on a busy machine the element is
/// replaced before one lands often enough to use up the timeout: the driver's pace, not a
/// wrong answer (the rest of the group, auto-waiting and polling, runs).
const FLAKY_ELEMENT: &[&str] = &[
    "  await page.getByRole('button', { name: 'Flaky' }).click();\n",
    "  await page.locator('#flaky').click();\n",
    "  await expect(page.locator('#flaky-clicks')).toHaveText('2');\n",
    "  await expect(page.locator('#flaky')).toHaveText('Flaky');\n",
    "  await expect(async () => {\n    await expect(page.locator('#flaky-clicks')).toHaveText('2', { timeout: 100 });\n  }).toPass({ timeout: 5000 });\n",
];

/// The conformance groups as Firefox runs them: the waiting group without [`FLAKY_ELEMENT`].
fn groups() -> Vec<(&'static str, String)> {
    GROUPS
        .iter()
        .map(|(name, code)| {
            let mut code = (*code).to_owned();
            if *name == "waiting and polling" {
                for line in FLAKY_ELEMENT {
                    assert!(code.contains(line), "the waiting group changed: {line}");
                    code = code.replace(line, "");
                }
            }
            (*name, code)
        })
        .collect()
}

#[test]
fn every_api_group_runs_in_firefox_and_only_double_clicks_differ() {
    require_firefox();
    let out = replay_groups(FIREFOX, &groups())
        .assert_exit(1)
        .stdout_line(&format!(
            "{} passed, {} failed",
            GROUPS.len() - DOUBLE_CLICKING.len(),
            DOUBLE_CLICKING.len()
        ));
    for (name, _) in GROUPS {
        let verdict = if DOUBLE_CLICKING.contains(name) {
            "FAIL"
        } else {
            "PASS"
        };
        if !out
            .stdout()
            .contains(&format!("{verdict} {SCENARIO} › {name} ("))
        {
            out.fail(&format!("the group {name:?} did not {verdict}"));
        }
    }
    // Each of them fails where it expects a `dblclick` event, which Firefox never fired: the
    // events before it are the same as Chromium's.
    for name in DOUBLE_CLICKING {
        let failure = out
            .stdout()
            .split(&format!("──── FAIL {SCENARIO} › {name}"))
            .nth(1);
        let failure = failure.unwrap_or_else(|| out.fail(&format!("no failure of {name:?}")));
        let (expected, received) = failure
            .split_once("Expected: ")
            .and_then(|(_, rest)| rest.split_once("Received: "))
            .unwrap_or_else(|| out.fail(&format!("{name:?} failed otherwise")));
        let received = received.lines().next().unwrap_or_default();
        assert!(expected.contains("click:2 dblclick"), "{expected}");
        assert!(!received.contains("dblclick"), "{received}");
        assert!(
            received.contains("click:1 down:0 up:0 click:1"),
            "{received}"
        );
    }
}

#[test]
fn dialogs_work_in_firefox() {
    require_firefox();
    check_dialogs(FIREFOX);
}

#[test]
fn frames_work_in_firefox() {
    require_firefox();
    check_frames(FIREFOX);
}

#[test]
fn scrolling_into_view_works_in_firefox() {
    require_firefox();
    check_scrolling(FIREFOX);
}

#[test]
fn downloads_work_in_firefox() {
    require_firefox();
    check_downloads(FIREFOX);
}
