//! Secrets of our own and output hygiene, end to end: the LLM API key never shows in what a run
//! prints or writes (even when a reply quotes it), never reaches the environment of the driver or
//! Chromium, and is not echoed from a `base_url` query; a warning is said once; the log follows
//! `--color`; no command writes the control characters of a hostile project to the terminal.

use std::fs;
use std::thread;
use std::time::{Duration, Instant};

use crate::cli::{HOSTILE, raw_controls};
use crate::support::fake_llm::{FakeLlm, Reply};
use crate::support::{Output, Test};

/// The key of every test here: long enough to be searched for in replies.
const KEY: &str = "sk-hygiene-0123456789-secret";

const OPEN: &str = "async function step(page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'todos' })).toBeVisible();
}";

/// Fails on the page (the heading says "todos"), once the heading is there: the failure is a
/// failed check however slow the machine.
const HEADING_GROCERIES: &str = "async function step(page) {
  await expect(page.getByRole('heading', { name: 'todos' })).toBeVisible({ timeout: 30000 });
  await expect(page.getByRole('heading', { name: 'todos' })).toHaveText('groceries', { timeout: 1000 });
}";

fn llm_config(base_url: &str) -> String {
    format!("[llm]\nprovider = \"openai\"\nmodel = \"fake\"\nbase_url = \"{base_url}\"\n")
}

#[test]
fn a_reply_quoting_the_api_key_is_redacted_in_every_output_and_report() {
    let llm = FakeLlm::start();
    llm.reply(Reply::text(format!(
        "product_defect | the page printed {KEY} | rotate {KEY} now"
    )));
    let out = Test::new()
        .config(&llm_config(&llm.base_url()))
        .page("index.html", "<h1>todos</h1>")
        .scenario(
            "scenarios/a.steps",
            "test: t\n  open the app\n  the heading says groceries\n",
        )
        .cached("scenarios/a.steps", "t", "open the app", 1, OPEN)
        .cached(
            "scenarios/a.steps",
            "t",
            "the heading says groceries",
            1,
            HEADING_GROCERIES,
        )
        .env("OPENAI_API_KEY", KEY)
        .args(&[
            "replay",
            "--reporter",
            "list",
            "--reporter",
            "junit",
            "--reporter",
            "html",
            "--output",
            "report",
            "--events",
            "events.jsonl",
        ])
        .run()
        .assert_exit(1)
        .stdout_contains("the page printed [redacted]")
        .output_not_contains(KEY);
    for file in ["events.jsonl", "report/junit.xml", "report/index.html"] {
        let text = out.read(file);
        if text.contains(KEY) || !text.contains("[redacted]") {
            out.fail(&format!("{file} shows the key or no [redacted]:\n{text}"));
        }
    }
}

#[test]
fn generated_code_quoting_the_api_key_is_redacted_before_it_is_cached() {
    let llm = FakeLlm::start();
    llm.reply(Reply::text(format!(
        "```js\nasync function step(page) {{\n  // key: {KEY}\n  await page.goto('/');\n}}\n```"
    )));
    let out = Test::new()
        .config(&llm_config(&llm.base_url()))
        .page("index.html", "<h1>todos</h1>")
        .scenario("scenarios/a.steps", "test: t\n  open the app\n")
        .env("OPENAI_API_KEY", KEY)
        .args(&["run", "-v", "--events", "events.jsonl"])
        .run()
        .assert_exit(0)
        .output_not_contains(KEY);
    let cache = out.read("cache/scenarios/a.steps.toml");
    assert!(cache.contains("// key: [redacted]"), "{cache}");
    assert!(!out.read("events.jsonl").contains(KEY));
}

/// The pids of the descendants of `pid` now, from `/proc/*/stat`.
fn descendants(pid: u32) -> Vec<u32> {
    let mut parents: Vec<(u32, u32)> = Vec::new();
    for entry in fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(child) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`; comm may hold spaces and parentheses.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse().ok());
        if let Some(ppid) = ppid {
            parents.push((child, ppid));
        }
    }
    let mut found = vec![pid];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(
            parents
                .iter()
                .filter(|(_, ppid)| *ppid == parent)
                .map(|(child, _)| *child),
        );
        i += 1;
    }
    found.remove(0);
    found
}

#[test]
fn the_driver_and_chromium_do_not_inherit_the_api_key() {
    // The heading appears 4 s after the page loads: the browser is up all that time.
    let page =
        "<script>setTimeout(() => { document.body.innerHTML = '<h1>ready</h1>'; }, 4000);</script>";
    let step = "async function step(page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'ready' })).toBeVisible({ timeout: 60000 });
}";
    let running = Test::new()
        .page("index.html", page)
        .scenario("scenarios/a.steps", "test: t\n  wait for the page\n")
        .cached("scenarios/a.steps", "t", "wait for the page", 1, step)
        .env("OPENAI_API_KEY", KEY)
        .env("ANTHROPIC_API_KEY", KEY)
        .args(&["replay", "--strict"])
        .spawn();
    let pid = running.pid();
    // A child between fork and exec is still prettyplay, environment and all: only what it
    // became (the driver, Chromium) is checked, never the copy of the parent.
    let own_exe = fs::read_link(format!("/proc/{pid}/exe")).expect("prettyplay's exe");
    let started = Instant::now();
    let (mut node, mut chromium, mut leaks) = (false, false, Vec::new());
    while started.elapsed() < Duration::from_secs(120) && !(node && chromium) {
        for child in descendants(pid) {
            if fs::read_link(format!("/proc/{child}/exe")).is_ok_and(|exe| exe == own_exe) {
                continue;
            }
            let (Ok(environ), Ok(cmdline)) = (
                fs::read(format!("/proc/{child}/environ")),
                fs::read(format!("/proc/{child}/cmdline")),
            ) else {
                continue;
            };
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            node |= cmdline.contains("cli.js") || cmdline.contains("node");
            chromium |= cmdline.contains("chrom");
            if environ.windows(KEY.len()).any(|w| w == KEY.as_bytes()) {
                leaks.push(cmdline);
            }
        }
        thread::sleep(Duration::from_millis(50));
    }
    let out = running.wait().assert_exit(0);
    if !(node && chromium && leaks.is_empty()) {
        out.fail(&format!(
            "seen the driver: {node}, Chromium: {chromium}; processes with the key: {leaks:#?}"
        ));
    }
}

#[test]
fn a_key_in_the_llm_base_url_query_is_not_echoed() {
    Test::new()
        .config(&llm_config("http://127.0.0.1:1/v1?key=SECRET-IN-QUERY"))
        .scenario("scenarios/a.steps", "test: t\n  open the app\n")
        .args(&["run"])
        .run()
        .output_contains("`http://127.0.0.1:1/v1?key=[redacted]` must not have a query")
        .output_not_contains("SECRET-IN-QUERY");
}

/// A project whose `[llm]` is broken (no model): `replay` warns that failures get no verdicts.
fn broken_llm() -> Test {
    Test::new()
        .config("[llm]\nprovider = \"openai\"\n")
        .scenario("scenarios/a.steps", "test: t\n  do nothing\n")
        .cached(
            "scenarios/a.steps",
            "t",
            "do nothing",
            1,
            "async function step(page) {}",
        )
}

#[test]
fn a_warning_is_said_once() {
    broken_llm()
        .args(&["replay"])
        .run()
        .assert_exit(0)
        .output_count("no verdicts for failures", 1);
}

#[test]
fn the_log_is_coloured_only_as_the_reporters_are() {
    for color in [None, Some("never")] {
        let mut args = vec!["replay"];
        if let Some(color) = color {
            args.extend(["--color", color]);
        }
        let out = broken_llm()
            .env_remove("NO_COLOR")
            .env("PRETTYPLAY_LOG", "prettyplay=debug")
            .args(&args)
            .run()
            .assert_exit(0)
            .stderr_contains("no verdicts for failures");
        if out.stderr().contains('\u{1b}') || out.stdout().contains('\u{1b}') {
            out.fail(&format!("escape sequences with --color {color:?}"));
        }
    }
    let out = broken_llm()
        .env("PRETTYPLAY_LOG", "prettyplay=debug")
        .args(&["replay", "--color", "always"])
        .run()
        .assert_exit(0);
    assert!(out.stderr().contains('\u{1b}'), "{}", out.stderr());
}

/// [`HOSTILE`] without NUL, which no file name can hold.
fn hostile_name() -> String {
    HOSTILE.replace('\0', "")
}

/// A project where everything a command may print is hostile: the name of its `.steps` file, a
/// test's name, tag and step, the page's heading, the console line and failure of a cached step.
/// The test `reads the page` has cached code, so that the page's text reaches the output; the
/// cache also has an entry of a test that is gone.
fn hostile_project() -> Test {
    let file = format!("scenarios/a{}.steps", hostile_name());
    let steps = format!(
        "test: t{HOSTILE} @tag{HOSTILE}\n  open the app{HOSTILE}\n\n\
         test: reads the page\n  open the app\n  the page says hi\n"
    );
    // Backslash escapes, which the JavaScript makes control characters: the cache file is TOML
    // and cannot hold them raw.
    let check = "async function step(page) {\n  \
                 console.log('log \\x1b]0;title\\x07 \\r \\u202e \\x9b2J');\n  \
                 await expect(page.getByRole('heading')).toBeVisible({ timeout: 30000 });\n  \
                 await expect(page.getByRole('heading')).toHaveText('never', { timeout: 1000 });\n}";
    Test::new()
        .scenario(&file, &steps)
        .cached(&file, "reads the page", "open the app", 1, OPEN_ANY)
        .cached(&file, "reads the page", "the page says hi", 1, check)
        // A stale entry, of a test no file has, for `cache prune` to name.
        .cached(
            &file,
            &format!("gone{HOSTILE}"),
            &format!("step{HOSTILE}"),
            1,
            OPEN_ANY,
        )
        .page("index.html", &format!("<h1>hi{}</h1>", hostile_name()))
}

/// Opens the app, whatever its heading says.
const OPEN_ANY: &str = "async function step(page) {\n  await page.goto('/');\n}";

/// Fails the test unless `out` exited with `code` and wrote no raw control character.
fn assert_escaped(out: &Output, what: &str, code: i32) {
    assert_eq!(
        out.status_code(),
        Some(code),
        "`{what}`:\n{}\n{}",
        out.stdout(),
        out.stderr()
    );
    for (stream, text) in [("stdout", out.stdout()), ("stderr", out.stderr())] {
        let raw = raw_controls(text);
        assert!(
            raw.is_empty(),
            "`{what}` wrote {raw:?} raw to {stream}:\n{text}"
        );
    }
    let shown = format!("{}{}", out.stdout(), out.stderr());
    assert!(
        ["\\x1b", "\\u001b"].iter().any(|e| shown.contains(e)),
        "`{what}` showed no escaped ESC, so it printed nothing hostile:\n{shown}"
    );
}

/// A command's arguments, an environment variable for it, and its exit code.
type Case<'a> = (&'a [&'a str], Option<(&'a str, &'a str)>, i32);

#[test]
fn no_command_writes_a_control_character_of_a_hostile_project_raw() {
    let no_test_there = format!("scenarios/a{}.steps:99", hostile_name());
    // No button has that name: the decline quotes it.
    let sentence = format!("click the \"hi{}\" button", hostile_name());
    let runs: [Case<'_>; 11] = [
        (&["list"], None, 0),
        (&["list", "-v"], None, 0),
        (&["list", "--format", "json"], None, 0),
        (&["list", "-g", "t"], None, 0),
        // No test at that line: the error names the file.
        (&["list", &no_test_there], None, 2),
        (&["cache", "prune", "--dry-run"], None, 0),
        // The log quotes the step's console line. (Not strict: the project has a step without
        // code, and a strict replay would stop before any step runs.)
        (
            &["replay", "-v"],
            Some(("PRETTYPLAY_LOG", "prettyplay=info")),
            1,
        ),
        (&["run"], Some(("PRETTYPLAY_GENERATE_BUILTIN", "first")), 1),
        (&["audit"], None, 1),
        (&["explain", &sentence, "-v"], None, 1),
        (&["export", "--playwright", "out"], None, 0),
    ];
    for (args, env, code) in runs {
        let test = match env {
            Some((key, value)) => hostile_project().env(key, value),
            None => hostile_project(),
        };
        let out = test.args(args).run();
        assert_escaped(&out, &args.join(" "), code);
    }

    // The shards' blobs carry the names to `merge-reports`.
    let shard = hostile_project()
        .args(&["replay", "--reporter", "blob"])
        .run();
    assert_escaped(&shard, "replay --reporter blob", 1);
    let merged = shard
        .again()
        .args(&["merge-reports", "prettyplay-report/blob"])
        .run();
    assert_escaped(&merged, "merge-reports", 1);

    // A Gherkin file to import, hostile in name and content.
    let name = hostile_name();
    let out = Test::new()
        .write(
            &format!("specs/f{name}.feature"),
            &format!(
                "Feature: f{HOSTILE}\n  Scenario: s{HOSTILE}\n    Given I open the app{HOSTILE}\n"
            ),
        )
        .args(&["import", &format!("specs/f{name}.feature")])
        .run();
    assert_escaped(&out, "import", 0);

    // A parse error quotes the line, in a file with a hostile name.
    let out = Test::new()
        .scenario(
            &format!("scenarios/b{name}.steps"),
            &format!("open the app{HOSTILE}\ntest: x\n  y\n"),
        )
        .args(&["list"])
        .run();
    assert_escaped(&out, "list (a parse error)", 2);
}
