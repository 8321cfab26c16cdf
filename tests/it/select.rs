//! Selecting tests through the CLI: `list` with the selection flags of `run` (`--tag`
//! expressions, `--shard`, `--grep`, `--grep-invert`, `FILE:LINE`) and `list --format json`, bad
//! tag expressions and lines with no test as usage errors, and `replay FILE:LINE` running the
//! one test at that line in a real headless Chromium.

use crate::runner::{SCENARIO, Spec, passing, reported, suite};
use crate::support::Test;

const FILE: &str = "scenarios/a.steps";

/// Line 1 a comment, tests at lines 2 (@smoke), 6 (@smoke @slow) and 9 (@slow), blank lines 5
/// and 8.
const STEPS: &str = "# tags\n\
test: quick @smoke\n  open the app\n  the list is empty\n\n\
test: long @smoke @slow\n  open the app\n\n\
test: other @slow\n  open the app\n";

fn project() -> Test {
    Test::new().scenario(FILE, STEPS).cached(
        FILE,
        "quick",
        "open the app",
        1,
        "async function step(page) {}",
    )
}

/// The test names `list` printed, in order.
fn listed(args: &[&str]) -> Vec<String> {
    let mut all = vec!["list"];
    all.extend_from_slice(args);
    let out = project().args(&all).run().assert_exit(0);
    out.stdout()
        .lines()
        .filter_map(|line| line.strip_prefix(&format!("{FILE} › ")))
        .map(|rest| rest.split(" @").next().unwrap_or(rest).to_owned())
        .collect()
}

#[test]
fn list_takes_the_selection_flags_of_run() {
    assert_eq!(listed(&[]), ["quick", "long", "other"]);
    assert_eq!(listed(&["--tag", "smoke and not slow"]), ["quick"]);
    assert_eq!(
        listed(&["--tag", "not (smoke or slow)"]),
        Vec::<String>::new()
    );
    // Repeated `--tag`s keep their meaning: any of them.
    assert_eq!(
        listed(&["--tag", "@slow", "--tag", "quick"]),
        ["long", "other"]
    );
    assert_eq!(
        listed(&["--tag", "slow", "--tag", "smoke"]),
        ["quick", "long", "other"]
    );
    assert_eq!(listed(&["--shard", "2/2"]), ["long"]);
    assert_eq!(
        listed(&["--grep", "› [lo]", "--grep-invert", "other"]),
        ["long"]
    );
    assert_eq!(listed(&["--grep-invert", "quick|long"]), ["other"]);
    assert_eq!(listed(&["scenarios/a.steps:7"]), ["long"]);
    assert_eq!(
        listed(&["scenarios/a.steps:2", "scenarios/a.steps:10"]),
        ["quick", "other"]
    );
}

#[test]
fn list_format_json_is_a_versioned_document_of_tests_and_steps() {
    let out = project()
        .args(&["list", "--format", "json", "--tag", "smoke"])
        .run()
        .assert_exit(0);
    let value: serde_json::Value = serde_json::from_str(out.stdout()).unwrap();
    assert_eq!(
        value,
        serde_json::json!({
            "version": 1,
            "tests": [
                {"file": FILE, "name": "quick", "line": 2, "tags": ["smoke"], "steps": [
                    {"sentence": "open the app", "line": 3, "cached": true},
                    {"sentence": "the list is empty", "line": 4, "cached": false},
                ]},
                {"file": FILE, "name": "long", "line": 6, "tags": ["smoke", "slow"], "steps": [
                    {"sentence": "open the app", "line": 7, "cached": false},
                ]},
            ]
        })
    );
    assert_eq!(out.stdout().lines().count(), 1);
}

#[test]
fn a_bad_tag_expression_is_a_usage_error_that_points_at_the_column() {
    project()
        .args(&["list", "--tag", "smoke and (slow"])
        .run()
        .assert_exit(2)
        .stderr_contains(
            "invalid --tag expression \"smoke and (slow\": expected `)` to close the `(` of column 11 at column 16",
        )
        .stderr_contains("\n  smoke and (slow\n                 ^");
    project()
        .args(&["replay", "--strict", "--tag", "smoke slow"])
        .run()
        .assert_exit(2)
        .stderr_contains("found tag `slow` at column 7");
}

#[test]
fn a_line_with_no_test_is_a_usage_error() {
    for line in ["1", "5", "99"] {
        project()
            .args(&["list", &format!("{FILE}:{line}")])
            .run()
            .assert_exit(2)
            .stderr_contains(&format!("{FILE}:{line}: no test at this line"));
    }
    project()
        .args(&["replay", "--strict", &format!("{FILE}:8")])
        .run()
        .assert_exit(2)
        .stderr_contains(&format!("{FILE}:8: no test at this line"));
}

#[test]
fn replay_file_colon_line_runs_the_test_at_that_line() {
    // Tests at lines 1, 4 and 7 (a test, one step, a blank line each).
    let out = suite(&passing(3))
        .args(&["replay", "--strict", &format!("{SCENARIO}:5")])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    assert_eq!(reported(&out, "PASS"), ["t02"]);
    let out = suite(&[Spec::passing("only"), Spec::passing("also")])
        .args(&["replay", "--strict", "--grep-invert", "only"])
        .run()
        .assert_exit(0);
    assert_eq!(reported(&out, "PASS"), ["also"]);
}
