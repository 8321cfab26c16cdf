//! Secrets of our own and output hygiene, end to end: the LLM API key never shows in what a run
//! prints or writes (even when a reply quotes it), never reaches the environment of the driver or
//! Chromium, and is not echoed from a `base_url` query; a warning is said once; the log follows
//! `--color`.

use std::fs;
use std::thread;
use std::time::{Duration, Instant};

use crate::support::Test;
use crate::support::fake_llm::{FakeLlm, Reply};

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
