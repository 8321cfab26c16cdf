//! The command line without a browser: scenario and configuration errors, `list`,
//! `cache prune`, `--help`.

use crate::support::Test;

const TODO: &str = "scenarios/todo.steps";
const OPEN: &str = "async function step(page) {\n  await page.goto('/');\n}";

#[test]
fn help_lists_the_commands() {
    let out = Test::new()
        .args(&["--help"])
        .run()
        .assert_exit(0)
        .stdout_contains("replay")
        .stdout_contains("list")
        .stdout_contains("cache");
    if !out.stderr().is_empty() {
        out.fail("--help wrote to stderr");
    }
}

#[test]
fn replay_help_lists_its_flags() {
    Test::new()
        .args(&["replay", "--help"])
        .run()
        .assert_exit(0)
        .stdout_contains("--strict")
        .stdout_contains("--base-url")
        .stdout_contains("--grep");
}

#[test]
fn cache_prune_help_lists_only_the_flags_it_uses() {
    let out = Test::new()
        .args(&["cache", "prune", "--help"])
        .run()
        .assert_exit(0)
        .stdout_contains("--dry-run")
        .stdout_contains("--config");
    for flag in [
        "--headed",
        "--slow-mo",
        "--llm-provider",
        "--grep",
        "--base-url",
        "--quiet",
    ] {
        if out.stdout().contains(flag) {
            out.fail(&format!(
                "`cache prune --help` lists {flag}, which does nothing for it"
            ));
        }
    }
}

#[test]
fn a_flag_of_another_command_is_a_usage_error_that_says_so() {
    Test::new()
        .args(&["cache", "prune", "--headed"])
        .run()
        .assert_exit(2)
        .stderr_contains("--headed");
}

#[test]
fn an_unknown_command_is_a_usage_error() {
    Test::new()
        .args(&["frobnicate"])
        .run()
        .assert_exit(2)
        .stderr_contains("frobnicate");
}

#[test]
fn a_duplicate_test_name_is_reported_at_its_line_and_nothing_runs() {
    Test::new()
        .scenario(
            TODO,
            "test: add a todo\n  open the app\n\ntest: add a todo\n  open the app\n",
        )
        .cached(TODO, "add a todo", "open the app", 1, OPEN)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(2)
        .output_contains("scenarios/todo.steps:4:")
        .output_contains("duplicate test name")
        .output_not_contains("PASS")
        .output_not_contains("FAIL")
        .output_not_contains(" passed, ");
}

#[test]
fn every_broken_scenario_file_is_reported_at_once() {
    Test::new()
        .scenario(
            "scenarios/a.steps",
            "test: x\n  open the app\ntest: x\n  open the app\n",
        )
        .scenario("scenarios/b.steps", "test: y\n  open the app [tries=0]\n")
        .args(&["list"])
        .run()
        .assert_exit(2)
        .output_contains("scenarios/a.steps:3:")
        .output_contains("scenarios/b.steps:2:")
        .output_contains("tries");
}

#[test]
fn list_shows_tests_steps_and_whether_each_step_is_cached() {
    let out = Test::new()
        .scenario(
            TODO,
            "test: add a todo @smoke\n  open the app\n  type \"milk\" and press Enter\n",
        )
        .cached(TODO, "add a todo", "open the app", 1, OPEN)
        .args(&["list"])
        .run()
        .assert_exit(0)
        .stdout_contains("scenarios/todo.steps")
        .stdout_contains("add a todo");
    let uncached = |line: &str| line.contains("missing") || line.contains("not cached");
    let cached = out.line_with("open the app");
    if !cached.contains("cached") || uncached(cached) {
        out.fail(&format!(
            "the cached step's line should say `cached`: {cached:?}"
        ));
    }
    let missing = out.line_with("type \"milk\" and press Enter");
    if !uncached(missing) {
        out.fail(&format!(
            "the uncached step's line should say `missing` or `not cached`: {missing:?}"
        ));
    }
}

#[test]
fn list_works_without_a_settings_file() {
    Test::new()
        .no_config()
        .scenario(TODO, "test: add a todo\n  open the app\n")
        .args(&["list"])
        .run()
        .assert_exit(0)
        .stdout_contains("add a todo")
        .stdout_contains("open the app");
}

#[test]
fn list_takes_scenario_paths() {
    Test::new()
        .scenario("scenarios/a.steps", "test: in a\n  open the app\n")
        .scenario("scenarios/b.steps", "test: in b\n  open the app\n")
        .args(&["list", "scenarios/b.steps"])
        .run()
        .assert_exit(0)
        .stdout_contains("in b")
        .output_not_contains("in a");
}

/// A cache with a live entry, a stale entry (its step is gone) and a file whose scenario is gone.
fn stale_cache() -> Test {
    Test::new()
        .scenario(TODO, "test: add a todo\n  open the app\n")
        .cache("cache/scenarios/todo.steps.toml", STALE_TODO_CACHE)
        .cache("cache/scenarios/gone.steps.toml", GONE_CACHE)
}

const STALE_TODO_CACHE: &str = r#"format = 1
scenario = "scenarios/todo.steps"

[[steps]]
test = "add a todo"
step = "open the app"
occurrence = 1
created = "2026-11-30"
code = '''
async function step(page) {
  await page.goto('/');
}
'''

[[steps]]
test = "add a todo"
step = "open the old app"
occurrence = 1
created = "2026-11-01"
code = '''
async function step(page) {
  await page.goto('/old');
}
'''
"#;

const GONE_CACHE: &str = r#"format = 1
scenario = "scenarios/gone.steps"

[[steps]]
test = "an old test"
step = "visit the museum"
occurrence = 1
created = "2026-11-01"
code = '''
async function step(page) {
  await page.goto('/museum');
}
'''
"#;

#[test]
fn cache_prune_dry_run_lists_removals_and_changes_nothing() {
    let out = stale_cache()
        .args(&["cache", "prune", "--dry-run"])
        .run()
        .assert_exit(0)
        .output_contains("would remove")
        .output_contains("open the old app")
        .output_contains("gone.steps.toml")
        .output_not_contains("\"open the app\"");
    assert_eq!(
        out.read("cache/scenarios/todo.steps.toml"),
        STALE_TODO_CACHE,
        "--dry-run changed a file"
    );
    assert_eq!(
        out.read("cache/scenarios/gone.steps.toml"),
        GONE_CACHE,
        "--dry-run changed a file"
    );
}

#[test]
fn cache_prune_removes_stale_entries_and_orphaned_files() {
    let out = stale_cache()
        .args(&["cache", "prune"])
        .run()
        .assert_exit(0)
        .output_contains("removed")
        .output_contains("open the old app")
        .output_contains("gone.steps.toml");
    let todo = out.read("cache/scenarios/todo.steps.toml");
    if !todo.contains("step = \"open the app\"") || todo.contains("open the old app") {
        out.fail(&format!(
            "prune should keep only the live entry; the file is now:\n{todo}"
        ));
    }
    if out.exists("cache/scenarios/gone.steps.toml") {
        out.fail("prune should delete the cache file of a scenario that is gone");
    }
}

#[test]
fn cache_prune_with_nothing_stale_changes_nothing() {
    let out = Test::new()
        .scenario(TODO, "test: add a todo\n  open the app\n")
        .cached(TODO, "add a todo", "open the app", 1, OPEN)
        .args(&["cache", "prune"])
        .run()
        .assert_exit(0)
        .output_not_contains("removed");
    if !out
        .read("cache/scenarios/todo.steps.toml")
        .contains("step = \"open the app\"")
    {
        out.fail("prune removed a live entry");
    }
}

#[test]
fn an_unknown_config_key_is_an_error_naming_the_key_and_the_file() {
    Test::new()
        .config("[browser]\nheadles = true\n")
        .scenario(TODO, "test: t\n  open the app\n")
        .args(&["list"])
        .run()
        .assert_exit(2)
        .output_contains("headles")
        .output_contains("prettyplay.toml:2");
}

#[test]
fn allowed_origins_without_a_real_host_port_or_with_a_path_are_config_errors_at_their_line() {
    for (entry, problem) in [
        ("http://*", "has no real host name"),
        ("http://127.0.0.1:3000/../", "has a path"),
        ("http://127.0.0.1:0", "has no real port (1 to 65535)"),
        ("http://127.0.0.1:", "has no real port (1 to 65535)"),
    ] {
        Test::new()
            .config(&format!(
                "scenarios = \"scenarios\"\n[browser]\nallowed_origins = [\n  \"{entry}\",\n]\n"
            ))
            .scenario(TODO, "test: t\n  open the app\n")
            .args(&["list"])
            .run()
            .assert_exit(2)
            .output_contains(&format!(
                "prettyplay.toml:4:3: `browser.allowed_origins` entry \"{entry}\" {problem}"
            ));
        // The same entry in the environment variable is an error naming the variable.
        Test::new()
            .scenario(TODO, "test: t\n  open the app\n")
            .env(
                "PRETTYPLAY_BROWSER_ALLOWED_ORIGINS",
                &format!("http://a:1, {entry}"),
            )
            .args(&["list"])
            .run()
            .assert_exit(2)
            .output_contains(&format!(
                "environment variable `PRETTYPLAY_BROWSER_ALLOWED_ORIGINS` has invalid value \
                 `http://a:1, {entry}`: expected a comma-separated list of origins"
            ));
    }
}

#[test]
fn an_unknown_llm_key_is_refused_naming_key_and_file() {
    Test::new()
        .config("[llm]\nmodle = \"x\"\n")
        .scenario(TODO, "test: t\n  open the app\n")
        .args(&["list"])
        .run()
        .assert_exit(2)
        .output_contains("modle")
        .output_contains("prettyplay.toml");
}

#[test]
fn run_without_an_llm_is_a_usage_error_pointing_at_replay() {
    Test::new()
        .scenario(TODO, "test: t\n  open the app\n")
        .args(&["run"])
        .run()
        .assert_exit(2)
        .output_contains("[llm]")
        .output_contains("prettyplay replay");
}

#[test]
fn a_missing_config_file_given_with_config_is_an_error() {
    Test::new()
        .scenario(TODO, "test: t\n  open the app\n")
        .args(&["list", "--config", "nowhere/prettyplay.toml"])
        .run()
        .assert_exit(2)
        .output_contains("nowhere/prettyplay.toml");
}

#[test]
fn a_missing_scenario_path_is_an_error() {
    Test::new()
        .args(&["list", "scenarios/missing.steps"])
        .run()
        .assert_exit(2)
        .output_contains("scenarios/missing.steps");
}

#[cfg(unix)]
#[test]
fn a_scenario_that_links_to_dev_zero_or_is_a_fifo_is_refused_at_once_with_exit_2() {
    let test = Test::new().scenario("scenarios/ok.steps", "test: x\n  open the app\n");
    let scenarios = test.project_dir().join("scenarios");
    std::os::unix::fs::symlink("/dev/zero", scenarios.join("zero.steps")).expect("symlink");
    let status = std::process::Command::new("mkfifo")
        .arg(scenarios.join("pipe.steps"))
        .status()
        .expect("run mkfifo");
    assert!(status.success());
    // Named explicitly or found by the walk, a FIFO is refused.
    test.args(&["list", "scenarios", "scenarios/pipe.steps"])
        .run()
        .assert_exit(2)
        .stderr_contains("2 errors in scenario files")
        .stderr_contains("scenarios/zero.steps`")
        .stderr_contains("it is a character device, not a regular file")
        .stderr_contains("scenarios/pipe.steps`")
        .stderr_contains("it is a FIFO (named pipe), not a regular file");
}

#[cfg(unix)]
#[test]
fn a_fifo_found_by_walking_the_scenarios_directory_is_an_error_naming_it() {
    let test = Test::new().scenario("scenarios/ok.steps", "test: x\n  open the app\n");
    std::fs::create_dir_all(test.project_dir().join("scenarios/sub")).expect("mkdir");
    let status = std::process::Command::new("mkfifo")
        .arg(test.project_dir().join("scenarios/sub/x.steps"))
        .status()
        .expect("run mkfifo");
    assert!(status.success());
    test.args(&["list"])
        .run()
        .assert_exit(2)
        .stderr_contains("scenarios/sub/x.steps`")
        .stderr_contains("it is a FIFO (named pipe), not a regular file")
        .output_not_contains("ok.steps › x");
}

#[test]
fn init_makes_a_project_whose_example_replays_and_never_overwrites() {
    const MADE: [&str; 5] = [
        "prettyplay.toml",
        "scenarios/example.steps",
        "cache/scenarios/example.steps.toml",
        ".gitignore",
        ".github/workflows/prettyplay.yml",
    ];
    let out = Test::new()
        .no_config()
        .args(&["init"])
        .run()
        .assert_exit(0)
        .stdout_contains("prettyplay replay --strict");
    let out = MADE.iter().fold(out, |out, path| {
        out.stdout_line(&format!("created  {path}"))
    });
    assert!(
        out.read(".gitignore")
            .contains("prettyplay-report/\n.prettyplay/\ncache/.lock\n.env\n")
    );

    // The new project replays its example in a real browser, with no LLM and no server.
    let mut project = Test::new().no_config();
    for path in MADE {
        project = project.write(path, &out.read(path));
    }
    project
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");

    // A second init keeps every file as it is.
    let mut again = Test::new().no_config().write("prettyplay.toml", "# mine\n");
    for path in &MADE[1..] {
        again = again.write(path, &out.read(path));
    }
    let second = MADE
        .iter()
        .fold(again.args(&["init"]).run().assert_exit(0), |out, path| {
            out.stdout_line(&format!("kept     {path} (it exists; not overwritten)"))
        });
    assert_eq!(second.read("prettyplay.toml"), "# mine\n");
}

/// Every control character a `.steps` file can smuggle to a terminal: ESC sequences that colour,
/// retitle or clear it, NUL, BEL, CR, backspace, DEL, C1 (CSI), bidirectional overrides and
/// isolates, a line separator.
pub(crate) const HOSTILE: &str =
    "\u{1b}[2J\u{1b}]0;pwned\u{7}\0\r\u{8}\u{7f}\u{9b}31m\u{202e}gpj.exe\u{2066}\u{2028}";

/// The characters of `text` that must not reach a terminal raw: C0 but newline and tab, DEL, C1,
/// bidirectional controls and the line and paragraph separators.
pub(crate) fn raw_controls(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n' && c != '\t')
                || matches!(
                    c,
                    '\u{061c}'
                        | '\u{200e}'
                        | '\u{200f}'
                        | '\u{2028}'
                        | '\u{2029}'
                        | '\u{202a}'..='\u{202e}'
                        | '\u{2066}'..='\u{2069}'
                )
        })
        .collect()
}

#[test]
fn no_command_writes_a_control_character_of_a_steps_file_raw() {
    // A file that parses: its test name, tags and steps carry the controls.
    let parses = format!("test: t{HOSTILE} @tag{HOSTILE}\n  open the app{HOSTILE}\n");
    // A file that does not: the error quotes its line.
    let broken = format!("open the app{HOSTILE}\ntest: x\n  y\n");
    let runs: [(&str, &[&str]); 6] = [
        ("scenarios/a.steps", &["list"]),
        ("scenarios/a.steps", &["list", "--format", "json"]),
        ("scenarios/a.steps", &["list", "-v"]),
        ("scenarios/a.steps", &["replay", "--strict"]),
        ("scenarios/a.steps", &["cache", "prune", "--dry-run"]),
        ("scenarios/broken.steps", &["list"]),
    ];
    for (file, args) in runs {
        let content = if file.ends_with("broken.steps") {
            &broken
        } else {
            &parses
        };
        // A stale cache entry of a test no file has: `cache prune` names it.
        let out = Test::new()
            .scenario(file, content)
            .cached(
                "scenarios/a.steps",
                &format!("gone{HOSTILE}"),
                &format!("step{HOSTILE}"),
                1,
                OPEN,
            )
            .args(args)
            .run();
        for (stream, text) in [("stdout", out.stdout()), ("stderr", out.stderr())] {
            let raw = raw_controls(text);
            assert!(
                raw.is_empty(),
                "`prettyplay {}` wrote {raw:?} raw to {stream}:\n{text}",
                args.join(" ")
            );
        }
        let shown = format!("{}{}", out.stdout(), out.stderr());
        assert!(
            ["\\x1b", "\\u001b", "\\u{1b}"]
                .iter()
                .any(|escaped| shown.contains(escaped)),
            "`prettyplay {}` showed no escaped ESC:\n{shown}",
            args.join(" ")
        );
    }
}
