//! Authoring aids that tell the truth, end to end on pages served on 127.0.0.1: `explain` offers
//! a `try:` rewrite only after it passed (and, for a check, was proven) on the page, and lists
//! what it read instead when none did; `audit -v` names each unproven check; a run without an
//! LLM claims no LLM request saved; a decline on a page no step opened says so; an INCURABLE
//! generated step shows the code written before it; a run names `cache prune` for stale entries.

use crate::support::Test;

/// Two headings, as on the practice app the issue was found on.
const HEADINGS: &str = "<!doctype html><title>the internet</title>\
    <h1>Welcome to the-internet</h1><h2>Available Examples</h2>";

fn headings() -> Test {
    Test::new()
        .config("scenarios = \"scenarios\"\ncache_dir = \"cache\"\n[browser]\ntimeout = 1\n")
        .page("index.html", HEADINGS)
}

#[test]
fn explain_offers_no_rewrite_that_fails_on_the_page_and_lists_what_it_read_instead() {
    let out = headings()
        .args(&[
            "explain",
            "the \"Examples Available\" heading says \"Welcome to the-internet\"",
        ])
        .run()
        .assert_exit(1)
        .stdout_contains("declined: ")
        .stdout_contains(
            "no rewrite to offer: the built-in generator reads these on the page, but none \
             passed and was proven there:\n  the \"Available Examples\" heading says \"Welcome \
             to the-internet\" (its check does not hold here: ",
        );
    assert!(
        !out.stdout().lines().any(|line| line.starts_with("try: ")),
        "{}",
        out.stdout()
    );
}

#[test]
fn explain_offers_a_check_rewrite_that_passed_and_was_proven() {
    let out = headings()
        .args(&["explain", "the \"Welcom to the-internet\" heading is shown"])
        .run()
        .assert_exit(1)
        .stdout_contains("try: the \"Welcome to the-internet\" heading is shown\n")
        .output_not_contains("no rewrite to offer");
    // What it offers explains, and its code passes on the page.
    let rewrite = out
        .stdout()
        .lines()
        .find_map(|line| line.strip_prefix("try: "))
        .expect("a try: line")
        .to_owned();
    headings()
        .args(&["explain", &rewrite, "--execute"])
        .run()
        .assert_exit(0)
        .stdout_contains("\nexecuted: passed\n");
}

/// A button that says "done" when pressed.
const BUTTON: &str = "<!doctype html><title>press</title><p id=status>waiting</p>\
    <button onclick=\"document.getElementById('status').textContent = 'done'\">Go</button>";

#[test]
fn audit_verbose_names_each_unproven_check_at_its_line_with_why() {
    let scenario = "test: press\n  open the app\n  press go and see done\n";
    let project = || {
        Test::new()
            .page("index.html", BUTTON)
            .scenario("scenarios/press.steps", scenario)
            .cached(
                "scenarios/press.steps",
                "press",
                "open the app",
                1,
                "async function step(page) {\n  await page.goto('/');\n}",
            )
            .cached(
                "scenarios/press.steps",
                "press",
                "press go and see done",
                1,
                "async function step(page) {\n  await page.getByRole('button', { name: 'Go' \
                 }).click();\n  await expect(page.locator('#status')).toHaveText('done');\n}",
            )
    };
    let unproven = "scenarios/press.steps:3: unproven check press go and see done: the step \
                    acts on the page (click)";
    project()
        .args(&["audit", "-v"])
        .run()
        .assert_exit(0)
        .stdout_contains(unproven)
        .stdout_line("checks: 0 proven, 1 unproven")
        .output_not_contains("-v names");
    // Without -v the count says how to see which checks are unproven.
    project()
        .args(&["audit"])
        .run()
        .assert_exit(0)
        .output_not_contains(unproven)
        .stdout_line("checks: 0 proven, 1 unproven")
        .stdout_line(
            "  -v names each unproven check at its line, with why no mutation could prove it",
        );
    let out = project()
        .args(&["audit", "--reporter", "list", "--reporter", "json"])
        .run()
        .assert_exit(0)
        .output_not_contains(unproven);
    let events = out.events("prettyplay-report/events.jsonl");
    assert!(
        events.iter().any(|event| event["event"] == "step_passed"
            && event["line"] == 3
            && event["sentence"] == "press go and see done"
            && event["proof"] == "none: the step acts on the page (click)"),
        "{events:#?}"
    );
}

/// Two tests that say the same sentences, which the built-in generator reads.
const TWICE: &str = "test: one\n  open the app\n  click the \"Go\" button\n\n\
    test: two\n  open the app\n  click the \"Go\" button\n";

#[test]
fn a_run_without_an_llm_reuses_code_but_claims_no_llm_request_saved() {
    Test::new()
        .page("index.html", BUTTON)
        .scenario("scenarios/twice.steps", TWICE)
        .env("PRETTYPLAY_GENERATE_BUILTIN", "first")
        .args(&["run", "-j", "1"])
        .run()
        .assert_exit(0)
        .stdout_line("2 passed, 0 failed")
        .stdout_contains(" reused)")
        .output_not_contains("LLM request(s) saved");
}

#[test]
fn a_step_before_any_page_was_opened_is_declined_as_such() {
    Test::new()
        .page("index.html", BUTTON)
        .scenario(
            "scenarios/blank.steps",
            "test: blank\n  click the \"Go\" button\n",
        )
        .env("PRETTYPLAY_GENERATE_BUILTIN", "first")
        .args(&["run"])
        .run()
        .assert_exit(1)
        .stdout_contains(
            "because no earlier step opened a page (the test's page is still about:blank): \
             start the test with a step that opens one, such as `open /`",
        )
        .output_not_contains("could not be read");
}

#[test]
fn an_incurable_generated_step_shows_the_code_written_before_it() {
    // The first step opens a page without the button the second one names.
    let out = Test::new()
        .page("index.html", BUTTON)
        .page(
            "other.html",
            "<!doctype html><title>other</title><p>nothing to press</p>",
        )
        .scenario(
            "scenarios/wrong.steps",
            "test: wrong page\n  open /other.html\n  click the \"Go\" button\n",
        )
        .env("PRETTYPLAY_GENERATE_BUILTIN", "first")
        .args(&[
            "run",
            "--reporter",
            "list",
            "--reporter",
            "html",
            "--reporter",
            "junit",
        ])
        .run()
        .assert_exit(1)
        .stdout_contains("INCURABLE")
        .stdout_contains("code of step 1 \"open /other.html\", written in this run:")
        .stdout_contains("other.html');");
    // The HTML and JUnit reports show it too.
    let html = out.read("prettyplay-report/index.html");
    assert!(
        html.contains(
            "<p class=\"code-label\">code of step 1 &quot;open /other.html&quot;, written in \
             this run</p><pre><code>"
        ) && html.contains("other.html');"),
        "{html}"
    );
    let junit = out.read("prettyplay-report/junit.xml");
    assert!(
        junit.contains("code of step 1 \"open /other.html\", written in this run:")
            && junit.contains("other.html');"),
        "{junit}"
    );
}

#[test]
fn a_run_names_cache_prune_when_entries_match_no_sentence() {
    Test::new()
        .page("index.html", BUTTON)
        .scenario("scenarios/press.steps", "test: press\n  open the app\n")
        .cached(
            "scenarios/press.steps",
            "press",
            "open the application",
            1,
            "async function step(page) {\n  await page.goto('/');\n}",
        )
        .env("PRETTYPLAY_GENERATE_BUILTIN", "first")
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stderr_contains(
            "note: 1 cache entry no longer matches any sentence of the scenarios; `prettyplay \
             cache prune` removes it (`--dry-run` lists it first):",
        )
        .stderr_contains("\"press\" › \"open the application\" #1 in ")
        .stderr_contains("(step gone)");
}
