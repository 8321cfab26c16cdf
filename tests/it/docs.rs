//! The walk-throughs of README.md and docs/tutorial.md, run as they are written: every command
//! block runs in a fresh directory against the demo app and a scripted LLM, and the outputs the
//! documents show must be what prettyplay prints ([`crate::support::walk`]).

use std::fs;
use std::path::{Path, PathBuf};

use crate::support::fake_llm::{FakeLlm, classification_of, generation_of};
use crate::support::walk::{self, Directive, Walk};
use crate::support::{copy_tree, driver_cli_js, free_port, repo_dir, require_browser};

/// Where the whole walk (each command and what it printed) is written when set: what updating
/// a document after a deliberate change of output starts from.
const LOG_ENV: &str = "PRETTYPLAY_WALK_LOG";

/// When set, the blocks whose output differs are rewritten in the document with what prettyplay
/// printed (durations and all), as insta's `INSTA_UPDATE=always` does for snapshots; the test
/// still fails, and the changes are for a person to review (and to shorten with `...`).
const BLESS_ENV: &str = "PRETTYPLAY_WALK_BLESS";

/// The languages of blocks that show files, code or output rather than commands to run.
const NOT_COMMANDS: [&str; 11] = [
    "text",
    "toml",
    "diff",
    "rust",
    "json",
    "yaml",
    "js",
    "javascript",
    "ts",
    "html",
    "gherkin",
];

fn fenced(body: &str) -> String {
    format!("```js\nasync function step(page) {{\n{body}\n}}\n```\n")
}

const COUNTER: &str = "the counter says \"1 item left\"";

/// The replies of the stand-in model for the block whose directive names `script`.
fn script_llm(llm: &FakeLlm, script: &str) {
    match script {
        "help" => {
            llm.on_contains(
                &generation_of("the page explains how to edit a todo"),
                fenced("  await expect(page.getByText('Double-click a todo to edit it.')).toBeVisible();"),
            );
        }
        "login" => {
            llm.on_contains(
                &generation_of("open the sign-in page"),
                fenced("  await page.goto('login.html');"),
            );
        }
        "defect" => {
            llm.on_contains(
                &classification_of(COUNTER),
                "product_defect | with one todo the counter says \"1 items left\": its singular \
                 form is wrong | fix the counter text for one item",
            );
        }
        "veto" => {
            llm.on_contains(
                &classification_of(COUNTER),
                "rot | the counter now counts todos (\"1 todo left\") | check the counter by its new text",
            );
            llm.on_contains(
                &generation_of(COUNTER),
                fenced("  await expect(page.getByRole('status')).toBeVisible();"),
            );
        }
        _ => panic!("no LLM script named {script:?}"),
    }
}

/// Runs every block of `document` (relative to the repository) in `walk`, and returns what
/// differed from the document.
fn run_document(walk: &mut Walk, llm: &FakeLlm, document: &str) -> (Vec<String>, Vec<String>) {
    let text = fs::read_to_string(repo_dir().join(document)).expect("read the document");
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    // (first line, last line, indentation, new body) of the blocks to rewrite.
    let mut blessed: Vec<(usize, usize, usize, String)> = Vec::new();
    for block in walk::blocks(&text) {
        let at = format!("{document}:{}", block.line);
        let mut exit = 0;
        let mut env = Vec::new();
        let mut output_of = None;
        let mut file = None;
        let mut skip = None;
        for directive in &block.directives {
            match directive {
                Directive::Skip(why) => skip = Some(why.clone()),
                Directive::File(path) => file = Some((path.clone(), false)),
                Directive::Append(path) => file = Some((path.clone(), true)),
                Directive::OutputOf(command) => output_of = Some(command.clone()),
                Directive::Exit(code) => exit = *code,
                Directive::Llm(script) => script_llm(llm, script),
                Directive::Env(pairs) => env.extend(pairs.iter().cloned()),
            }
        }
        if let Some(why) = skip {
            skipped.push(format!("{at} ({}): {why}", block.lang));
            continue;
        }
        if let Some((path, append)) = file {
            walk.write(&path, &block.body, append);
            continue;
        }
        let is_output_of = output_of.is_some();
        // The info string's first word: `console title=x` is a console block too.
        let lang = block.lang.split_whitespace().next().unwrap_or_default();
        let sessions = match (output_of, lang) {
            (Some(command), _) => vec![(command, block.body.clone())],
            (None, "console" | "shell-session") => walk::sessions(&block.body),
            (None, "sh" | "bash" | "shell" | "zsh") => {
                let ran = walk.run_script(&block.body, &env);
                if ran.code != Some(exit) {
                    failures.push(format!(
                        "{at}: the script exited {:?}, not {exit}:\n{}",
                        ran.code, ran.output
                    ));
                }
                continue;
            }
            (None, lang) if NOT_COMMANDS.contains(&lang) => continue,
            (None, lang) => {
                failures.push(format!(
                    "{at}: a block in `{lang}`, which the walk neither runs nor knows to hold no \
                     commands: add the language to NOT_COMMANDS, or mark the block `walk: skip`"
                ));
                continue;
            }
        };
        let mut new_body = String::new();
        let mut differs = false;
        for (command, expected) in sessions {
            let ran = walk.run(&command, &env);
            let want = walk::normalize(&expected);
            let got = walk::normalize(&ran.output);
            let same = walk::matches(&want, &got);
            if !is_output_of {
                new_body.push_str(&format!("$ {command}\n"));
            }
            new_body.push_str(if same { &expected } else { &ran.output });
            differs |= !same;
            if ran.code != Some(exit) || !same {
                failures.push(format!(
                    "{at}: `{command}` exited {:?} (the document: {exit}) and printed:\n{}\n\
                     ---- the document shows:\n{}",
                    ran.code, ran.output, expected
                ));
            }
        }
        if differs {
            blessed.push((block.line + 1, block.end - 1, block.indent, new_body));
        }
        // A block marked *stand-in model* must have asked for every reply scripted for it.
        if llm.pending() > 0 {
            failures.push(format!(
                "{at}: {} scripted LLM repl(ies) were never asked for: the block does not need \
                 the stand-in model its directive names",
                llm.pending()
            ));
        }
        let unexpected = llm.take_unexpected();
        if !unexpected.is_empty() {
            failures.push(format!(
                "{at}: {} LLM request(s) nothing was scripted for; the first:\n{}",
                unexpected.len(),
                unexpected[0].user_text()
            ));
        }
    }
    if std::env::var_os(BLESS_ENV).is_some() && !blessed.is_empty() {
        bless(&repo_dir().join(document), &text, &blessed);
    }
    (failures, skipped)
}

/// `text` with the body lines of each block replaced, written to `path`.
fn bless(path: &Path, text: &str, blessed: &[(usize, usize, usize, String)]) {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut n = 1;
    for (first, last, indent, body) in blessed {
        for line in &lines[n - 1..first - 1] {
            out.push_str(line);
            out.push('\n');
        }
        for line in body.lines() {
            if !line.is_empty() {
                out.push_str(&" ".repeat(*indent));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        n = last + 1;
    }
    for line in &lines[n - 1..] {
        out.push_str(line);
        out.push('\n');
    }
    fs::write(path, out).expect("rewrite the document");
}

fn assert_walked(document: &str, walk: &Walk, failures: Vec<String>, skipped: &[String]) {
    if let Some(path) = std::env::var_os(LOG_ENV) {
        fs::write(path, &walk.log).expect("write the walk's log");
    }
    eprintln!("{document}: blocks not run:\n  {}", skipped.join("\n  "));
    assert!(
        failures.is_empty(),
        "{document} does not match what prettyplay does ({} block(s)):\n\n{}\n\n==== the whole walk:\n{}",
        failures.len(),
        failures.join("\n\n"),
        walk.log
    );
}

/// A walk with `~` in a directory of its own, `~/prettyplay` the repository, and prettyplay on
/// PATH.
fn new_walk(root: &Path) -> Walk {
    let home = root.join("home");
    let mut walk = Walk::new(home.clone(), home.clone());
    std::os::unix::fs::symlink(repo_dir(), home.join("prettyplay")).expect("link the checkout");
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_prettyplay"));
    walk.prepend_path(bin.parent().expect("the binary's directory").to_path_buf());
    walk.substitute("/home/me", &home.display().to_string());
    // The walk's HOME is its own, so the driver `prettyplay install` put in the real one is
    // named explicitly.
    let cli_js = driver_cli_js();
    let driver = cli_js
        .ancestors()
        .nth(3)
        .expect("cli.js under DIR/node_modules/playwright-core");
    walk.env("PRETTYPLAY_DRIVER_DIR", &driver.display().to_string());
    walk.substitute(
        "~/.cache/prettyplay/driver/1.64.0",
        &driver.display().to_string(),
    );
    walk
}

#[test]
fn the_tutorial_runs_as_written() {
    require_browser();
    let root = tempfile::tempdir().expect("a temporary directory");
    let llm = FakeLlm::start();
    let mut walk = new_walk(root.path());
    let llm_addr = llm
        .base_url()
        .trim_start_matches("http://")
        .trim_end_matches("/v1")
        .to_string();
    walk.substitute("127.0.0.1:11434", &llm_addr);
    // The port appears alone in the server's command line too.
    walk.substitute("4173", &free_port().to_string());
    // One worker, so that the tests of a run finish in the order the document shows.
    walk.env("PRETTYPLAY_RUN_WORKERS", "1");
    let (failures, skipped) = run_document(&mut walk, &llm, "docs/tutorial.md");
    assert_walked("docs/tutorial.md", &walk, failures, &skipped);
}

#[test]
fn the_readme_runs_as_written() {
    require_browser();
    let root = tempfile::tempdir().expect("a temporary directory");
    let llm = FakeLlm::start();
    let mut walk = new_walk(root.path());
    // The README's project is the checkout's own: its settings, scenarios, cache and demo app.
    let project = walk.home.join("project");
    for item in ["scenarios", "cache", "demo"] {
        copy_tree(&repo_dir().join(item), &project.join(item));
    }
    walk.run(&format!("cd '{}'", project.display()), &[]);
    walk.substitute("4173", &free_port().to_string());
    let config = fs::read_to_string(repo_dir().join("prettyplay.toml")).expect("read the settings");
    walk.write("prettyplay.toml", &config, false);
    // Its [web_server] runs the demo server that `cargo test` builds.
    let examples = PathBuf::from(env!("CARGO_BIN_EXE_prettyplay"))
        .parent()
        .expect("the binary's directory")
        .join("examples");
    fs::create_dir_all(project.join("target/release")).expect("create target/release");
    std::os::unix::fs::symlink(examples, project.join("target/release/examples"))
        .expect("link the examples");
    walk.env("PRETTYPLAY_RUN_WORKERS", "1");
    let (failures, skipped) = run_document(&mut walk, &llm, "README.md");
    assert_walked("README.md", &walk, failures, &skipped);
}

/// The fenced blocks of `lang` in the section of `document` that starts with the line
/// `heading`, up to the next heading of its level or above.
fn section_blocks(document: &str, heading: &str, lang: &str) -> Vec<String> {
    let text = fs::read_to_string(repo_dir().join(document)).expect("read the document");
    let level = heading.split(' ').next().unwrap_or_default();
    let start = text
        .lines()
        .position(|line| line == heading)
        .unwrap_or_else(|| panic!("{document} has no {heading}"));
    let mut blocks = Vec::new();
    let mut block: Option<String> = None;
    for line in text.lines().skip(start + 1) {
        match &mut block {
            None if line.starts_with('#')
                && line.split(' ').next().unwrap_or_default().len() <= level.len() =>
            {
                break;
            }
            None if line == format!("```{lang}") => block = Some(String::new()),
            None => {}
            Some(body) if line == "```" => {
                blocks.push(std::mem::take(body));
                block = None;
            }
            Some(body) => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    blocks
}

/// docs/configuration.md's `[accessibility]` section as written: its example accepts a page's
/// `color-contrast` and `region` violations (the check passes, and fails without it), and its
/// entry without a reason stops the run with the error the document shows.
#[test]
fn the_accessibility_settings_of_configuration_md_work_as_written() {
    use crate::support::Test;
    let document = "docs/configuration.md";
    let heading = "### `[accessibility]`";
    let tomls = section_blocks(document, heading, "toml");
    let [accepted, without_reason] = tomls.as_slice() else {
        panic!(
            "{document}'s {heading} shows {} TOML blocks, not 2",
            tomls.len()
        );
    };
    let texts = section_blocks(document, heading, "text");
    let [error] = texts.as_slice() else {
        panic!(
            "{document}'s {heading} shows {} text blocks, not 1",
            texts.len()
        );
    };
    // Light grey text on white, outside the main landmark.
    let page = "<!doctype html><html lang=\"en\"><head><title>Hero</title></head><body>\
                <main><h1>Hero</h1></main><p style=\"color:#ddd\">Faint words</p></body></html>";
    let scenario = "scenarios/hero.steps";
    let project = |config: &str| {
        Test::new()
            .config(&format!(
                "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n{config}"
            ))
            .page("index.html", page)
            .scenario(scenario, "test: hero\n  open the page\n  the page has no accessibility violations\n")
            .cached(
                scenario,
                "hero",
                "open the page",
                1,
                "async function step(page) {\n  await page.goto('/index.html');\n}",
            )
            .cached(
                scenario,
                "hero",
                "the page has no accessibility violations",
                1,
                "async function step(page) {\n  await expect(page).toHaveNoAccessibilityViolations();\n}",
            )
            .args(&["replay", "--strict"])
    };
    project("")
        .run()
        .assert_exit(1)
        .stdout_contains("color-contrast (serious)")
        .stdout_contains("region (moderate)");
    project(accepted)
        .run()
        .assert_exit(0)
        .stdout_contains("1 passed");
    let out = project(without_reason).run().assert_exit(2);
    // The document's file is /home/me/app/prettyplay.toml; the test's, its own, with the
    // same lines after the settings the project needs.
    let dir = out.project_dir().display().to_string();
    let offset = 2;
    let expected = error
        .replace("/home/me/app", &dir)
        .replace("toml:3:3", &format!("toml:{}:3", 3 + offset))
        .replace("\n3 |", &format!("\n{} |", 3 + offset));
    let stderr = out.stderr();
    for line in expected.lines().filter(|line| !line.trim().is_empty()) {
        let line = line.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ');
        assert!(
            stderr.contains(line.trim()),
            "{line:?} is not in:\n{stderr}"
        );
    }
}
