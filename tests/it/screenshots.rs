//! `toHaveScreenshot` end to end, in a real headless browser against a page served on
//! 127.0.0.1: the first run writes the baseline beside the scenario's cache file, a CSS change
//! fails the step as a PRODUCT DEFECT with the expected, actual and diff images in the JSON,
//! JUnit and HTML reports, `run --update-snapshots` accepts the change, `replay --strict`
//! passes on it and never writes a baseline, and two browser projects keep their own.

use crate::support::{Test, require_firefox};

const SCENARIO: &str = "scenarios/look.steps";
const STEP: &str = "the page looks as before";
const BASELINE: &str = "cache/scenarios/look.steps-snapshots/the-look-2-chromium.png";

/// A page whose heading's colour the tests change, and a clock masked out of the comparison.
fn page(color: &str) -> String {
    format!(
        "<!doctype html><html><head><title>Look</title><style>\
         body {{ font-family: sans-serif; margin: 20px; }} \
         h1 {{ color: {color}; }}</style></head><body><h1>Hello</h1>\
         <p id=\"clock\"></p>\
         <script>document.getElementById('clock').textContent = String(Date.now());</script>\
         </body></html>"
    )
}

/// The step code: every comparison runs twice, to show it is stable on this machine.
const CODE: &str = "async function step(page) {\n  \
    await expect(page).toHaveScreenshot({ mask: [page.locator('#clock')] });\n  \
    await expect(page.locator('h1')).toHaveScreenshot('heading');\n  \
    await expect(page).toHaveScreenshot({ mask: [page.locator('#clock')] });\n  \
    await expect(page.locator('h1')).toHaveScreenshot('heading');\n}";

/// A timeout for the comparisons that a busy machine cannot run out before the page gives two
/// identical screenshots: a page that holds still ends the wait at once.
const SLOW_MACHINE: &str = "[browser]\ntimeout = 30\n";

fn project(color: &str, config: &str) -> Test {
    let scenario = format!("test: the look\n  open the page\n  {STEP}\n");
    Test::new()
        .config(&format!(
            "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n{config}"
        ))
        .page("index.html", &page(color))
        .scenario(SCENARIO, &scenario)
        .cached(
            SCENARIO,
            "the look",
            "open the page",
            1,
            "async function step(page) {\n  await page.goto('/index.html');\n}",
        )
        .cached(SCENARIO, "the look", STEP, 1, CODE)
}

#[test]
fn a_css_change_fails_with_three_images_until_update_snapshots_accepts_it() {
    css_change_cycle(SLOW_MACHINE, BASELINE);
}

/// The same cycle in Firefox, with baselines of its own (`-firefox`), never Chromium's.
#[test]
fn a_css_change_fails_and_is_accepted_alike_in_firefox() {
    require_firefox();
    let baseline = "cache/scenarios/look.steps-snapshots/the-look-2-firefox.png";
    let out = css_change_cycle(&format!("{SLOW_MACHINE}name = \"firefox\"\n"), baseline);
    assert!(
        !out.exists(BASELINE),
        "a Firefox run wrote a Chromium baseline"
    );
}

/// A page that never holds still fails as a timeout saying so, never as a mismatch, both when
/// the baseline is to be written and when it is compared.
#[test]
fn a_page_that_never_holds_still_is_not_stable_rather_than_a_mismatch() {
    let ticking = page("black").replace(
        "</body>",
        "<p id=\"tick\"></p><script>setInterval(() => { \
         document.getElementById('tick').textContent = String(Math.random()); }, 10);</script></body>",
    );
    let unmasked = "async function step(page) {\n  await expect(page).toHaveScreenshot();\n}";
    let first = Test::new()
        .config("scenarios = \"scenarios\"\ncache_dir = \"cache\"\n[browser]\ntimeout = 2\n")
        .page("index.html", &ticking)
        .scenario(
            SCENARIO,
            &format!("test: the look\n  open the page\n  {STEP}\n"),
        )
        .cached(
            SCENARIO,
            "the look",
            "open the page",
            1,
            "async function step(page) {\n  await page.goto('/index.html');\n}",
        )
        .cached(SCENARIO, "the look", STEP, 1, unmasked)
        .args(&["replay"])
        .run()
        .assert_exit(1)
        .stdout_contains("the page was not stable")
        .output_not_contains("SCREENSHOT MISMATCH");
    assert!(
        !first.exists(BASELINE),
        "no baseline from a page that never held still"
    );
    // A still page, with a timeout a busy machine cannot run out.
    let second = first
        .again()
        .page("index.html", &page("black"))
        .args(&["replay", "--timeout", "30"])
        .run()
        .assert_exit(0);
    assert!(second.exists(BASELINE));
    second
        .again()
        .page("index.html", &ticking)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("the page was not stable")
        .output_not_contains("SCREENSHOT MISMATCH")
        .output_not_contains("PRODUCT DEFECT");
}

/// Runs the look's test from a first run that writes `baseline` to a CSS change that fails it,
/// `--update-snapshots` and a strict replay that passes; returns the last run's output.
fn css_change_cycle(config: &str, baseline_path: &str) -> crate::support::Output {
    // The first run writes the baselines, and passes: the second comparison of each compares
    // with what the first wrote.
    let first = project("black", config)
        .args(&["replay"])
        .run()
        .assert_exit(0)
        .stdout_contains("1 passed");
    assert!(first.exists(baseline_path), "{}", first.stdout());
    let heading = baseline_path.replace("-2-", "-2-heading-");
    assert!(first.exists(&heading), "{heading}");
    let baseline = std::fs::read(first.project_dir().join(baseline_path)).unwrap();
    assert!(baseline.starts_with(b"\x89PNG"), "the baseline is a PNG");

    // The same page again, strict: the comparisons hold, twice each, and nothing is rewritten.
    let same = first
        .again()
        .page("index.html", &page("black"))
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_contains("1 passed");
    assert_eq!(
        std::fs::read(same.project_dir().join(baseline_path)).unwrap(),
        baseline
    );

    // The heading turns red: a product defect, with the three images named and shown.
    let changed = same
        .again()
        .page("index.html", &page("red"))
        .args(&[
            "replay",
            "--strict",
            "--reporter",
            "list",
            "--reporter",
            "json",
            "--reporter",
            "junit",
            "--reporter",
            "html",
        ])
        .run()
        .assert_exit(1)
        .stdout_contains("PRODUCT DEFECT")
        .stdout_contains("toHaveScreenshot")
        .stdout_contains("pixels");
    assert_eq!(
        std::fs::read(changed.project_dir().join(baseline_path)).unwrap(),
        baseline,
        "a mismatch never rewrites the baseline"
    );
    let events = changed.events("prettyplay-report/events.jsonl");
    let visual = events
        .iter()
        .find_map(find_visual)
        .unwrap_or_else(|| changed.fail("no failure names the images"));
    let mut shown = Vec::new();
    for key in ["expected", "actual", "diff"] {
        let path = visual[key]
            .as_str()
            .unwrap_or_else(|| changed.fail(&format!("no {key} image in {visual}")));
        let png = std::fs::read(path).unwrap_or_else(|err| changed.fail(&format!("{path}: {err}")));
        assert!(png.starts_with(b"\x89PNG"), "{key} is a PNG");
        shown.push(png);
    }
    assert_eq!(shown[0], baseline, "the expected image is the baseline");
    assert_ne!(shown[1], baseline, "the actual image is the red page");
    let junit = changed.read("prettyplay-report/junit.xml");
    assert!(junit.contains("[[ATTACHMENT|"), "{junit}");
    assert!(junit.contains("-diff.png]]"), "{junit}");
    let html = changed.read("prettyplay-report/index.html");
    for needle in [
        "visual-expected",
        "visual-actual",
        "visual-diff",
        "type=\"range\"",
    ] {
        assert!(html.contains(needle), "the HTML report lacks {needle}");
    }

    // `run --update-snapshots` accepts the new look; strict replay then passes on it.
    let updated = changed
        .again()
        .page("index.html", &page("red"))
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .args(&["run", "--update-snapshots"])
        .run()
        .assert_exit(0)
        .stdout_contains("1 passed");
    let rewritten = std::fs::read(updated.project_dir().join(baseline_path)).unwrap();
    assert_ne!(rewritten, baseline, "the baseline was rewritten");
    updated
        .again()
        .page("index.html", &page("red"))
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_contains("1 passed")
}

/// The `visual` object of a failure, wherever the event nests it.
fn find_visual(value: &serde_json::Value) -> Option<serde_json::Value> {
    match value {
        serde_json::Value::Object(map) => map
            .get("visual")
            .cloned()
            .or_else(|| map.values().find_map(find_visual)),
        serde_json::Value::Array(items) => items.iter().find_map(find_visual),
        _ => None,
    }
}

#[test]
fn strict_replay_never_writes_a_missing_baseline() {
    let out = project("black", "")
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(2)
        .stdout_contains("no screenshot baseline")
        .stdout_contains("`prettyplay run scenarios/look.steps`");
    assert!(!out.exists(BASELINE), "strict replay wrote a baseline");
}

#[test]
fn two_browser_projects_keep_their_own_baselines() {
    require_firefox();
    let both = "[browser]\nbrowsers = [\"chromium\", \"firefox\"]\n";
    let first = project("black", both)
        .args(&["replay"])
        .run()
        .assert_exit(0)
        .stdout_contains("2 passed");
    let chromium = std::fs::read(first.project_dir().join(BASELINE)).unwrap();
    let firefox_path = "cache/scenarios/look.steps-snapshots/the-look-2-firefox.png";
    let firefox = std::fs::read(first.project_dir().join(firefox_path)).unwrap();
    assert_ne!(
        chromium, firefox,
        "the two engines draw the page differently"
    );
    first
        .again()
        .page("index.html", &page("black"))
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_contains("2 passed");
}
