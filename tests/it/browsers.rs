//! Browser projects end to end, in real headless Chromium and Firefox (`firefox-esr` over
//! WebDriver BiDi): a run of several browsers names every test after its browser in each
//! report, `--last-failed` remembers the browser, `--shard` splits the matrix and the shards'
//! blobs merge into the matrix's report, code generated in the first browser is replayed in
//! the second, and a machine without Firefox is told what to install.

use crate::merge::copy_dir;
use crate::support::{Test, require_firefox};

const FILE: &str = "scenarios/b.steps";

/// A page with a list and a button that adds to it.
const PAGE: &str = "<!doctype html><title>Browsers</title>\n\
<h1>Shopping</h1>\n\
<ul id=\"list\"><li>apples</li></ul>\n\
<button onclick=\"const li = document.createElement('li'); li.textContent = 'pears'; \
document.getElementById('list').append(li)\">Add pears</button>\n";

const OPEN: &str = "async function step(page) {\n  await page.goto('/');\n}";
const ADD: &str = "async function step(page) {\n  await page.getByRole('button', { name: 'Add pears' }).click();\n}";
const TWO: &str =
    "async function step(page) {\n  await expect(page.getByRole('listitem')).toHaveCount(2);\n}";
/// Fails in Firefox only: a check a real cross-browser difference would fail the same way.
const NOT_FIREFOX: &str = "async function step(page) {\n  const agent = await page.evaluate(() => navigator.userAgent);\n  expect(agent).not.toContain('Firefox');\n}";

/// A strict replay in Chromium, then Firefox.
const BOTH: &[&str] = &[
    "replay",
    "--strict",
    "--browser",
    "chromium",
    "--browser",
    "firefox",
];

/// Two tests: one passes in every browser, the other fails in Firefox only.
fn project() -> Test {
    require_firefox();
    Test::new()
        .config("[browser]\ntimeout = 5\n")
        .page("index.html", PAGE)
        .scenario(
            FILE,
            "test: add pears\n  open the app\n  add pears\n  the list has two items\n\n\
             test: not in firefox\n  open the app\n  the browser is not Firefox\n",
        )
        .cached(FILE, "add pears", "open the app", 1, OPEN)
        .cached(FILE, "add pears", "add pears", 1, ADD)
        .cached(FILE, "add pears", "the list has two items", 1, TWO)
        .cached(FILE, "not in firefox", "open the app", 1, OPEN)
        .cached(
            FILE,
            "not in firefox",
            "the browser is not Firefox",
            1,
            NOT_FIREFOX,
        )
}

#[test]
fn a_two_browser_run_names_every_test_after_its_browser_in_every_report() {
    let out = project()
        .args(BOTH)
        .args(&[
            "--reporter",
            "list",
            "--reporter",
            "junit",
            "--reporter",
            "json",
            "--reporter",
            "html",
        ])
        .run()
        .assert_exit(1)
        .stdout_line("Running 4 tests")
        .stdout_contains(&format!("PASS [chromium] {FILE} › add pears ("))
        .stdout_contains(&format!("PASS [chromium] {FILE} › not in firefox ("))
        .stdout_contains(&format!("PASS [firefox] {FILE} › add pears ("))
        .stdout_contains(&format!("FAIL [firefox] {FILE} › not in firefox ("))
        .stdout_contains(&format!("──── FAIL [firefox] {FILE} › not in firefox"))
        .stdout_line("3 passed, 1 failed");
    // Chromium's tests run first, then Firefox's, as Playwright runs projects in order.
    let stdout = out.stdout();
    let first_firefox = stdout.find("[firefox]").unwrap();
    assert!(
        stdout.rfind("PASS [chromium]").unwrap() < first_firefox,
        "{stdout}"
    );

    let events = out.events("prettyplay-report/events.jsonl");
    let finished: Vec<(String, String, String)> = events
        .iter()
        .filter(|e| e["event"] == "test_finished")
        .map(|e| {
            (
                e["test"]["project"].as_str().unwrap_or_default().to_owned(),
                e["test"]["name"].as_str().unwrap_or_default().to_owned(),
                e["outcome"]["status"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            )
        })
        .collect();
    let expected = [
        ("chromium", "add pears", "passed"),
        ("chromium", "not in firefox", "passed"),
        ("firefox", "add pears", "passed"),
        ("firefox", "not in firefox", "failed"),
    ]
    .map(|(p, n, s)| (p.to_owned(), n.to_owned(), s.to_owned()));
    assert_eq!(finished, expected);

    let junit = out.read("prettyplay-report/junit.xml");
    assert_eq!(junit.matches("<testcase ").count(), 4, "{junit}");
    assert!(
        junit.contains(&format!("classname=\"[firefox] {FILE}\"")),
        "{junit}"
    );
    assert!(
        junit.contains("<property name=\"browser\" value=\"firefox\"/>"),
        "{junit}"
    );
    let html = out.read("prettyplay-report/index.html");
    assert!(
        html.contains("firefox"),
        "the HTML report names the browser"
    );

    // `--last-failed` runs the test that failed, in the browser it failed in only.
    let last_run = ".prettyplay/last-run.json";
    project()
        .write(last_run, &out.read(last_run))
        .args(BOTH)
        .args(&["--last-failed"])
        .run()
        .assert_exit(1)
        .stdout_line("Running 1 test")
        .stdout_contains(&format!("FAIL [firefox] {FILE} › not in firefox ("))
        .output_not_contains("[chromium]");
}

#[test]
fn shards_split_the_matrix_and_their_blobs_merge_into_one_report() {
    let blobs = tempfile::tempdir().unwrap();
    let mut seen = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = project()
            .args(BOTH)
            .args(&["--shard", shard, "--reporter", "list", "--reporter", "blob"])
            .run();
        // Each shard takes every other test of the matrix: one of each browser.
        let ran: Vec<String> = out
            .stdout()
            .lines()
            .filter(|line| line.starts_with("PASS [") || line.starts_with("FAIL ["))
            .map(|line| {
                line.rsplit_once(" (")
                    .map_or(line, |(name, _)| name)
                    .to_owned()
            })
            .collect();
        assert_eq!(ran.len(), 2, "shard {shard}: {ran:?}");
        seen.extend(ran);
        copy_dir(
            &out.project_dir().join("prettyplay-report/blob"),
            blobs.path(),
        );
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            format!("FAIL [firefox] {FILE} › not in firefox"),
            format!("PASS [chromium] {FILE} › add pears"),
            format!("PASS [chromium] {FILE} › not in firefox"),
            format!("PASS [firefox] {FILE} › add pears"),
        ]
    );
    let merge = Test::new();
    copy_dir(blobs.path(), &merge.project_dir().join("blobs"));
    let merged = merge
        .args(&[
            "merge-reports",
            "blobs",
            "--reporter",
            "list",
            "--reporter",
            "junit",
        ])
        .run()
        .assert_exit(1)
        .stdout_line("3 passed, 1 failed")
        .stdout_contains(&format!("FAIL [firefox] {FILE} › not in firefox"));
    let junit = merged.read("prettyplay-report/junit.xml");
    assert_eq!(junit.matches("<testcase ").count(), 4, "{junit}");
}

#[test]
fn code_generated_in_the_first_browser_is_replayed_in_the_second() {
    require_firefox();
    let out = Test::new()
        .config("[browser]\ntimeout = 5\n")
        .page("index.html", PAGE)
        .scenario(
            FILE,
            "test: add pears\n  open the app\n  click the \"Add pears\" button\n  \
             the list shows \"apples\" and \"pears\"\n",
        )
        .env("PRETTYPLAY_GENERATE_BUILTIN", "first")
        .args(&[
            "run",
            "--browser",
            "firefox",
            "--browser",
            "chromium",
            "--reporter",
            "list",
            "--reporter",
            "json",
        ])
        .run()
        .assert_exit(0)
        .stdout_contains(&format!("PASS [firefox] {FILE} › add pears ("))
        .stdout_contains(&format!("PASS [chromium] {FILE} › add pears ("))
        .stdout_line("steps: 3 cached, 3 generated, 0 healed (3 by the built-in generator)");
    // Firefox generated every step; Chromium replayed the code.
    let sources: Vec<(String, String)> = out
        .events("prettyplay-report/events.jsonl")
        .iter()
        .filter(|e| e["event"] == "step_passed")
        .map(|e| {
            (
                e["test"]["project"].as_str().unwrap_or_default().to_owned(),
                e["source"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = [("firefox", "generated"), ("chromium", "cached")]
        .iter()
        .flat_map(|(p, s)| std::iter::repeat_n(((*p).to_owned(), (*s).to_owned()), 3))
        .collect();
    assert_eq!(sources, expected);
    let cache = out.read("cache/scenarios/b.steps.toml");
    assert_eq!(cache.matches("[[steps]]").count(), 3, "{cache}");
}

#[test]
fn a_machine_without_firefox_is_told_to_install_it_before_any_test_runs() {
    require_firefox();
    // A PATH with Node.js (the driver's) and Chromium, and no Firefox.
    let bin = tempfile::tempdir().unwrap();
    for name in ["node", "chromium"] {
        std::os::unix::fs::symlink(which(name), bin.path().join(name)).unwrap();
    }
    let path = bin.path().to_str().unwrap();
    let one = project()
        .env("PATH", path)
        .args(&["replay", "--strict", "--browser", "firefox"]);
    let matrix = project()
        .config("[browser]\nbrowsers = [\"chromium\", \"firefox\"]\n")
        .env("PATH", path)
        .args(&["replay", "--strict"]);
    for test in [one, matrix] {
        test.run()
            .assert_exit(3)
            .stderr_contains("missing Firefox (none of firefox-esr, firefox is on PATH)")
            .stderr_contains(
                "run `prettyplay install --with-deps firefox` as root (apt-get install \
                 firefox-esr)",
            )
            .output_not_contains("Running ");
    }
}

fn which(name: &str) -> std::path::PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|dir| dir.join(name))
        .find(|path| path.is_file())
        .unwrap_or_else(|| panic!("{name} is not on PATH"))
}

#[test]
fn list_names_each_test_once_per_browser() {
    project()
        .env("PRETTYPLAY_BROWSER_BROWSERS", "chromium,firefox")
        .args(&["list"])
        .run()
        .assert_exit(0)
        .stdout_line(&format!("[chromium] {FILE} › add pears"))
        .stdout_line(&format!("[firefox] {FILE} › not in firefox"))
        .stdout_line("4 test(s), 0 step(s) without cached code");
    let json = project()
        .env("PRETTYPLAY_BROWSER_BROWSERS", "chromium,firefox")
        .args(&["list", "--format", "json"])
        .run()
        .assert_exit(0);
    let document: serde_json::Value = serde_json::from_str(json.stdout()).unwrap();
    let projects: Vec<&str> = document["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["project"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(projects, ["chromium", "chromium", "firefox", "firefox"]);
}
