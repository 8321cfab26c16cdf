//! End to end: the real binary replays cached step code in a real headless Chromium against pages
//! served on 127.0.0.1. Needs `./setup` (Chromium and the Playwright driver); without them these
//! tests fail with a message saying so.

use crate::support::{Output, Test};

const PAGE: &str = r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>todos</title></head>
<body>
  <h1>todos</h1>
  <label>New todo <input type="text" placeholder="What needs to be done?"></label>
</body>
</html>
"#;

const OPEN: &str = "async function step(page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'todos' })).toBeVisible();
}";

/// A project with [`PAGE`] served as `/`. The 10 s browser timeout is a margin for the checks
/// meant to pass (the heading of [`OPEN`]) on a loaded machine; a check meant to fail gives its
/// own.
fn browser_test() -> Test {
    Test::new()
        .config("[browser]\ntimeout = 10\n")
        .page("index.html", PAGE)
}

#[test]
fn a_cached_test_passes() {
    browser_test()
        .scenario(
            "scenarios/pass.steps",
            "test: open the app\n  open the app\n",
        )
        .cached(
            "scenarios/pass.steps",
            "open the app",
            "open the app",
            1,
            OPEN,
        )
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_contains("PASS scenarios/pass.steps › open the app (")
        .stdout_line("1 passed, 0 failed");
}

#[test]
fn a_failing_expect_shows_the_step_the_locator_expected_received_and_code() {
    browser_test()
        .scenario(
            "scenarios/fail.steps",
            "test: the heading\n  open the app\n  the heading says \"groceries\"\n",
        )
        .cached("scenarios/fail.steps", "the heading", "open the app", 1, OPEN)
        .cached(
            "scenarios/fail.steps",
            "the heading",
            "the heading says \"groceries\"",
            1,
            // The heading is there (the step before saw it), so the check fails on its text.
            "async function step(page) {\n  await expect(page.getByRole('heading', { name: 'todos' })).toHaveText('groceries', { timeout: 1000 });\n}",
        )
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("FAIL scenarios/fail.steps › the heading (")
        .output_contains("the heading says \"groceries\"")
        .output_contains("scenarios/fail.steps:3")
        .output_contains("getByRole('heading', { name: 'todos' })")
        .output_matches(r"Expected[^\n]*groceries")
        .output_matches(r"Received[^\n]*todos")
        .output_contains(".toHaveText('groceries', { timeout: 1000 })")
        .stdout_line("0 passed, 1 failed");
}

/// `replay --strict` checks every step it would run before it starts anything, the background,
/// the setup a test needs and the steps of a test with a variable included, and names each step
/// without cached code at its line, all at once. It exits 1, as the failed tests would have: no
/// web server starts (its command would leave a file) and no browser is looked for (this one
/// does not exist, and looking for it exits 3).
#[test]
fn strict_replay_names_every_step_without_cached_code_before_anything_starts() {
    let out = Test::new()
        .config(
            "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n\
             [browser]\nexecutable = \"/nonexistent/chromium\"\n\
             [web_server]\ncommand = \"touch web-server-ran\"\nurl = \"http://127.0.0.1:9/\"\n",
        )
        .scenario(
            "scenarios/auth.steps",
            "test: sign in [saves=user]\n  open the login page\n  sign in\n",
        )
        .cached(
            "scenarios/auth.steps",
            "sign in",
            "open the login page",
            1,
            OPEN,
        )
        .scenario(
            "scenarios/shop.steps",
            "background:\n  open the shop\n\n\
             test: cart [state=user]\n  add ${ITEM} to the cart\n  the cart has 1 item\n\n\
             test: not selected\n  look around\n",
        )
        .cached(
            "scenarios/shop.steps",
            "cart",
            "add ${ITEM} to the cart",
            1,
            OPEN,
        )
        .env("ITEM", "milk")
        // The green report of an earlier run, which this run must not leave standing.
        .write(
            "prettyplay-report/junit.xml",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <testsuites name=\"prettyplay\" tests=\"1\" failures=\"0\"></testsuites>\n",
        )
        .write("prettyplay-report/notes.xml", "mine")
        .args(&[
            "replay",
            "--strict",
            "--grep",
            "cart",
            "--reporter",
            "junit",
        ])
        .run()
        .assert_exit(1)
        .output_not_contains("Running ")
        .output_not_contains("look around");
    assert!(!out.exists("web-server-ran"), "the web server started");
    assert!(
        !out.exists("prettyplay-report/junit.xml"),
        "the last run's report was left standing"
    );
    assert!(
        out.exists("prettyplay-report/notes.xml"),
        "a file of the user's was removed"
    );
    insta::assert_snapshot!(out.stderr());
}

#[test]
fn a_syntax_error_in_step_code_is_a_clear_script_error() {
    browser_test()
        .scenario(
            "scenarios/syntax.steps",
            "test: broken code\n  open the app\n",
        )
        .cached(
            "scenarios/syntax.steps",
            "broken code",
            "open the app",
            1,
            "async function step(page) {\n  await page.goto('/';\n}",
        )
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("FAIL scenarios/syntax.steps › broken code (")
        .output_contains("scenarios/syntax.steps:2")
        .output_contains_ignore_case("syntax")
        .stdout_line("0 passed, 1 failed");
}

/// Replays `code` as the only step of a test, followed by a test that must still pass.
fn hostile(code: &str) -> Output {
    browser_test()
        .scenario(
            "scenarios/hostile.steps",
            "test: hostile\n  do something nasty\n\ntest: after\n  open the app\n",
        )
        .cached(
            "scenarios/hostile.steps",
            "hostile",
            "do something nasty",
            1,
            code,
        )
        .cached("scenarios/hostile.steps", "after", "open the app", 1, OPEN)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("FAIL scenarios/hostile.steps › hostile (")
        .stdout_contains("PASS scenarios/hostile.steps › after (")
        .output_contains("do something nasty")
        .output_contains("scenarios/hostile.steps:2")
        .stdout_line("1 passed, 1 failed")
}

#[test]
fn step_code_cannot_require_node_modules() {
    hostile("async function step(page) {\n  const fs = require('fs');\n  fs.writeFileSync('/tmp/pwned', 'x');\n}")
        .output_matches(r"(?i)require\W*(is )?(not defined|not available|not allowed|not supported|not a function)");
}

#[test]
fn step_code_cannot_fetch() {
    hostile("async function step(page) {\n  await fetch('http://127.0.0.1:1/');\n}")
        .output_matches(r"(?i)fetch\W*(is )?(not defined|not available|not allowed|not supported|not a function)");
}

#[test]
fn step_code_that_never_returns_is_stopped() {
    hostile("async function step(page) {\n  while (true) {}\n}").output_matches(
        r"(?i)(timed out|timeout|interrupted|time limit|too long|stopped|endless loop)",
    );
}

#[test]
fn grep_selects_tests_by_name() {
    browser_test()
        .scenario(
            "scenarios/grep.steps",
            "test: the chosen one\n  open the app\n\ntest: the other one\n  open the app\n",
        )
        .cached(
            "scenarios/grep.steps",
            "the chosen one",
            "open the app",
            1,
            OPEN,
        )
        .args(&["replay", "--strict", "-g", "chosen"])
        .run()
        .assert_exit(0)
        .stdout_contains("PASS scenarios/grep.steps › the chosen one (")
        .output_not_contains("the other one")
        .stdout_line("1 passed, 0 failed");
}

#[test]
fn the_binding_drives_the_demo_app_through_the_api_subset() {
    Test::new()
        .demo_pages()
        .page("extras.html", include_str!("support/fixtures/extras.html"))
        .scenario(
            "scenarios/binding.steps",
            include_str!("support/fixtures/binding.steps"),
        )
        .cache(
            "cache/scenarios/binding.steps.toml",
            include_str!("support/fixtures/binding.steps.toml"),
        )
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_contains("PASS scenarios/binding.steps › the binding drives the demo app (")
        .stdout_line("1 passed, 0 failed");
}

/// The repository's `prettyplay.toml` without its `[web_server]`, which runs the release build
/// of the demo server that `./setup demo` makes: here the harness serves `demo/` itself.
pub(crate) fn shipped_config_without_web_server() -> String {
    let shipped = std::fs::read_to_string(crate::support::repo_dir().join("prettyplay.toml"))
        .expect("read the shipped prettyplay.toml");
    let mut config: toml_edit::DocumentMut = shipped.parse().expect("the shipped config parses");
    let server = config
        .remove("web_server")
        .expect("the shipped config starts the demo server");
    assert_eq!(
        server["url"].as_str(),
        Some("http://127.0.0.1:4173"),
        "the demo server's url"
    );
    config.to_string()
}

#[test]
fn the_example_scenarios_pass_against_the_demo_app() {
    let out = Test::new()
        .config(&shipped_config_without_web_server())
        .copy_from_repo("scenarios")
        .copy_from_repo("cache")
        .demo_pages()
        .env("DEMO_PASSWORD", "secret")
        .args(&["replay", "--strict", "-j", "1"])
        .run()
        .assert_exit(0)
        .stdout_contains("PASS scenarios/todo.steps › add a todo (")
        .stdout_contains("PASS scenarios/login.steps › sign in (")
        .stdout_line("5 passed, 0 failed");
    // One worker: files run in sorted path order, tests in file order. (With several workers
    // results are reported as tests finish.)
    let order = [
        "› sign in (",
        "› a wrong password is refused (",
        "› add a todo (",
        "› complete a todo",
        "› edit, delete",
    ];
    let positions: Vec<_> = order.iter().map(|name| out.stdout().find(name)).collect();
    if positions.iter().any(Option::is_none) || !positions.is_sorted() {
        out.fail(&format!("the tests should run in this order: {order:?}"));
    }
    for file in [
        "cache/scenarios/todo.steps.toml",
        "cache/scenarios/login.steps.toml",
    ] {
        let shipped = std::fs::read_to_string(crate::support::repo_dir().join(file))
            .expect("read the shipped cache");
        if out.read(file) != shipped {
            out.fail(&format!("replay --strict rewrote {file}"));
        }
    }
}

#[test]
fn a_missing_browser_is_an_infrastructure_error() {
    Test::new()
        .config("[browser]\nexecutable = \"/nonexistent/chromium\"\n")
        .scenario("scenarios/pass.steps", "test: t\n  open the app\n")
        .cached("scenarios/pass.steps", "t", "open the app", 1, OPEN)
        .args(&["replay", "--strict", "--base-url", "http://127.0.0.1:9/"])
        .run()
        .assert_exit(3)
        .output_contains("/nonexistent/chromium");
}

/// `--executable /nonexistent` is blamed on the flag that set it, not on the settings file.
#[test]
fn a_missing_executable_from_the_flag_is_blamed_on_the_flag() {
    Test::new()
        .scenario("scenarios/pass.steps", "test: t\n  open the app\n")
        .cached("scenarios/pass.steps", "t", "open the app", 1, OPEN)
        .args(&[
            "replay",
            "--strict",
            "--base-url",
            "http://127.0.0.1:9/",
            "--executable",
            "/nonexistent",
        ])
        .run()
        .assert_exit(3)
        .output_contains("Chromium: `--executable` is /nonexistent, which does not exist")
        .output_contains("fix `--executable`, or leave it out")
        .output_not_contains("[browser] executable");
}

/// `--executable /bin/true`: an executable that is not a browser is said in a few lines, with
/// the flag to fix, and without the flags Chromium would have been launched with.
#[test]
fn an_executable_that_is_not_a_browser_is_said_in_a_few_lines() {
    let out = browser_test()
        .scenario("scenarios/pass.steps", "test: t\n  open the app\n")
        .cached("scenarios/pass.steps", "t", "open the app", 1, OPEN)
        .args(&["replay", "--strict", "--executable", "/bin/true"])
        .run()
        .assert_exit(3)
        .output_contains("/bin/true is not a Chromium: it ")
        .output_contains("as soon as it started")
        .output_contains("or fix `--executable`")
        .output_not_contains("--disable-")
        .output_not_contains("<launching>");
    let lines = out.stdout().lines().count() + out.stderr().lines().count();
    if lines > 15 {
        out.fail(&format!(
            "{lines} lines of output; at most 15 were expected"
        ));
    }
}

#[test]
fn a_missing_driver_is_an_infrastructure_error() {
    Test::new()
        .scenario("scenarios/pass.steps", "test: t\n  open the app\n")
        .cached("scenarios/pass.steps", "t", "open the app", 1, OPEN)
        .env("PLAYWRIGHT_CLI_JS", "/nonexistent/playwright-core/cli.js")
        .args(&["replay", "--strict", "--base-url", "http://127.0.0.1:9/"])
        .run()
        .assert_exit(3)
        .output_contains("/nonexistent/playwright-core/cli.js");
}

/// `prettyplay run | head -n 1` on a failing test. The reader closes stdout after the first
/// line, long before the test ends, and the run must still finish: it caches the code it wrote,
/// writes its JUnit report and `last-run.json`, and exits 1 because the test failed.
#[test]
fn a_closed_stdout_keeps_the_exit_code_the_cache_and_the_reports_of_a_failed_run() {
    let out = browser_test()
        .env("PRETTYPLAY_GENERATE_BUILTIN", "first")
        .scenario(
            "scenarios/fail.steps",
            "test: the heading\n  open the app\n  make the list pretty\n",
        )
        .stdout_head(1)
        .args(&[
            "run",
            "--reporter",
            "list",
            "--reporter",
            "junit",
            "--output",
            "report",
        ])
        .run()
        .assert_exit(1)
        .output_not_contains("Broken pipe")
        .output_not_contains("panicked");
    assert_eq!(
        out.stdout(),
        "Running 1 test\n",
        "only the first line is read"
    );
    let cache = out.read("cache/scenarios/fail.steps.toml");
    assert!(
        cache.contains("step = \"open the app\""),
        "the step the built-in generator wrote is cached:\n{cache}"
    );
    let junit = out.read("report/junit.xml");
    assert!(
        junit.contains("failures=\"1\"") && junit.contains("the heading"),
        "the JUnit report records the failure:\n{junit}"
    );
    let last_run = out.read(".prettyplay/last-run.json");
    assert!(
        last_run.contains("the heading"),
        "`--last-failed` will rerun the test:\n{last_run}"
    );
}
