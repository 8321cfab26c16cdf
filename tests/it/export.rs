//! `prettyplay export --playwright` end to end: a suite with passing tests, a product defect, a
//! step without cached code, a background, an examples table whose rows pass and fail, a public
//! and a secret variable, and a Gherkin data table is replayed with `replay` (no LLM), exported,
//! and run with `npx playwright test` (`@playwright/test` 1.64.0 from npm, no browser download,
//! the Debian Chromium the config names): every test passes or fails in both alike. Doc strings
//! and data tables (of a `.feature` and of a `.steps` file) reach the exported code as they reach
//! replayed code, and control characters in names and cached code are written as escapes that
//! keep their meaning.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::support::Test;
use crate::support::playwright_test::playwright_test_modules;

const PAGE: &str = "<!doctype html><title>shop</title><h1>shop</h1>\
<input aria-label=\"item\"><button onclick=\"const i=document.querySelector('input');\
const li=document.createElement('li');li.textContent=i.value;document.querySelector('ul').append(li);\
i.value=''\">Add</button><ul></ul>";

const STEPS: &str = "\
background:
  open the shop

test: add an item @smoke
  add ${ITEM}
  the list shows ${ITEM}

test: a product defect
  add milk
  the heading says \"market\"

test: never generated
  add milk
  a step nobody ran

test: add <thing>
  add the thing
  the list shows the thing
  examples:
    | thing | shown |
    | eggs  | eggs  |
    | jam   | honey |
";

const FEATURE: &str = "\
Feature: basket
  Scenario: add from a table
    Given the shop is open
    When I add the items
      | item  |
      | bread |
      | tea   |
    Then the list has 2 items
";

const OPEN: &str = "async function step(page) {\n  await page.goto('/');\n}";

fn add(value: &str) -> String {
    format!(
        "async function step(page) {{\n  await page.getByLabel('item').fill({value});\n  await page.getByRole('button', {{ name: 'Add' }}).click();\n}}"
    )
}

fn shows(value: &str) -> String {
    format!(
        "async function step(page) {{\n  await expect(page.getByRole('listitem')).toHaveText([{value}]);\n}}"
    )
}

/// `name → passed` of every test of a prettyplay run, from its JSON lines.
fn prettyplay_results(events: &str) -> BTreeMap<String, bool> {
    events
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|event| event["event"] == "test_finished")
        .map(|event| {
            let name = format!(
                "{} › {}",
                event["test"]["scenario"].as_str().unwrap(),
                event["test"]["name"].as_str().unwrap()
            );
            (name, event["outcome"]["status"] == "passed")
        })
        .collect()
}

/// `name → passed` of every test of a Playwright JSON report (`describe › test`).
fn playwright_results(report: &serde_json::Value) -> BTreeMap<String, bool> {
    let mut results = BTreeMap::new();
    fn walk(suite: &serde_json::Value, titles: &[String], out: &mut BTreeMap<String, bool>) {
        let mut titles = titles.to_vec();
        if let Some(title) = suite["title"]
            .as_str()
            .filter(|t| !t.is_empty() && !t.ends_with(".ts"))
        {
            titles.push(title.to_owned());
        }
        for spec in suite["specs"].as_array().into_iter().flatten() {
            let mut name = titles.clone();
            name.push(spec["title"].as_str().unwrap().to_owned());
            let passed = spec["ok"].as_bool().unwrap();
            out.insert(name.join(" › "), passed);
        }
        for child in suite["suites"].as_array().into_iter().flatten() {
            walk(child, &titles, out);
        }
    }
    for suite in report["suites"].as_array().into_iter().flatten() {
        walk(suite, &[], &mut results);
    }
    results
}

fn run_playwright(dir: &Path, modules: &Path) -> serde_json::Value {
    std::os::unix::fs::symlink(modules, dir.join("node_modules")).unwrap();
    let output = Command::new("node")
        .arg(modules.join("@playwright/test/cli.js"))
        .args(["test", "--reporter=json"])
        .current_dir(dir)
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
        .env("ITEM", "milk")
        .env_remove("CI")
        .output()
        .expect("run playwright test");
    let stdout = String::from_utf8_lossy(&output.stdout);
    serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "playwright's JSON report ({e}):\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

#[test]
fn the_exported_suite_passes_and_fails_as_replay_does() {
    let modules = playwright_test_modules();
    let test = Test::new()
        .config("scenarios = \"scenarios\"\ncache_dir = \"cache\"\n[browser]\ntimeout = 2\n[vars]\nSHOP = \"shop\"\n")
        .page("index.html", PAGE)
        .scenario("scenarios/shop.steps", STEPS)
        .scenario("scenarios/basket.feature", FEATURE)
        .cached_background("scenarios/shop.steps", "open the shop", 1, OPEN)
        .cached("scenarios/shop.steps", "add an item", "add ${ITEM}", 1, &add("vars.ITEM"))
        .cached("scenarios/shop.steps", "add an item", "the list shows ${ITEM}", 1, &shows("vars.ITEM"))
        .cached("scenarios/shop.steps", "a product defect", "add milk", 1, &add("'milk'"))
        .cached(
            "scenarios/shop.steps",
            "a product defect",
            "the heading says \"market\"",
            1,
            "async function step(page) {\n  await expect(page.getByRole('heading')).toHaveText('market');\n}",
        )
        .cached("scenarios/shop.steps", "never generated", "add milk", 1, &add("'milk'"))
        .cached("scenarios/shop.steps", "add <thing>", "add the thing", 1, &add("vars.thing"))
        .cached("scenarios/shop.steps", "add <thing>", "the list shows the thing", 1, &shows("vars.shown"))
        .cached("scenarios/basket.feature", "add from a table", "the shop is open", 1, OPEN)
        .cached(
            "scenarios/basket.feature",
            "add from a table",
            "I add the items",
            1,
            "async function step(page) {\n  for (const [item] of vars.dataTable.slice(1)) {\n    await page.getByLabel('item').fill(item);\n    await page.getByRole('button', { name: 'Add' }).click();\n  }\n}",
        )
        .cached(
            "scenarios/basket.feature",
            "add from a table",
            "the list has 2 items",
            1,
            "async function step(page) {\n  await expect(page.getByRole('listitem')).toHaveCount(2);\n}",
        )
        .env("ITEM", "milk");
    // Plain replay: strict replay would refuse to start, because `never generated` has a step
    // without cached code, and the export is to fail that step as a replay does.
    let out = test
        .args(&["replay", "--reporter", "list", "--reporter", "json"])
        .run()
        .assert_exit(1)
        .stdout_contains("3 passed, 3 failed");
    let ours = prettyplay_results(&out.read("prettyplay-report/events.jsonl"));
    let out = out
        .again()
        // Served again: the exported config's baseURL is this run's server, which stays up.
        .page("index.html", PAGE)
        .env("ITEM", "milk")
        .args(&["export", "--playwright", "e2e"])
        .run()
        .assert_exit(0)
        .stdout_contains("e2e/playwright.config.ts")
        .stdout_contains("e2e/scenarios/shop.spec.ts")
        .stdout_contains("e2e/scenarios/basket.feature.spec.ts");
    let config = out.read("e2e/playwright.config.ts");
    assert!(config.contains("executablePath: \""), "{config}");
    assert!(config.contains("baseURL: \"http://127.0.0.1:"), "{config}");
    assert!(config.contains("actionTimeout: 2000"), "{config}");
    let spec = out.read("e2e/scenarios/shop.spec.ts");
    assert!(
        !spec.contains("milk\", \"ITEM"),
        "no environment value is written"
    );
    let theirs = playwright_results(&run_playwright(&out.project_dir().join("e2e"), modules));
    assert_eq!(ours.len(), 6, "{ours:?}");
    assert_eq!(theirs, ours, "Playwright Test and prettyplay replay differ");
}

/// A cache file of `scenario` with `(test, step, code)` entries, written with TOML's escapes so
/// that code may hold control characters.
fn cache_file(scenario: &str, entries: &[(&str, &str, &str)]) -> String {
    let mut file = toml::Table::new();
    file.insert("format".into(), 1.into());
    file.insert("scenario".into(), scenario.into());
    let steps = entries
        .iter()
        .map(|(test, step, code)| {
            let mut entry = toml::Table::new();
            entry.insert("test".into(), (*test).into());
            entry.insert("step".into(), (*step).into());
            entry.insert("occurrence".into(), 1.into());
            entry.insert("created".into(), "2026-11-30".into());
            entry.insert("code".into(), format!("{code}\n").into());
            toml::Value::Table(entry)
        })
        .collect();
    file.insert("steps".into(), toml::Value::Array(steps));
    toml::to_string(&file).unwrap()
}

/// A scenario name that clears the screen, and a doc string and data table to pass on.
const ARGUMENTS_FEATURE: &str = "Feature: arguments
  Scenario: clear \u{1b}[2J now
    Given the shop is open
    When I add the note
      \"\"\"text/plain
      line 1
        line 2
      \"\"\"
    And I add the cells
      | a\\|b | c\\\\d |
    Then the list has 3 items
";

const ARGUMENTS_STEPS: &str = "test: from a steps file
  open the shop
  add the note
    \"\"\"
    from steps
    \"\"\"
  add the cells
    | tea |
  the list has 2 items
";

/// Fails unless it is passed `note`; holds an ESC in a string literal and in a comment, and
/// checks the literal's value, so that an export that changed it fails.
fn add_note(note: &str) -> String {
    format!(
        "async function step(page) {{\n  // the mark is \u{1b}[0m\n  const mark = '\u{1b}[0m';\n  \
         if (mark.length !== 4 || vars.docString !== {note:?}) {{\n    throw new Error('passed ' + \
         JSON.stringify(vars.docString));\n  }}\n  await page.getByLabel('item').fill(vars.docString);\n  \
         await page.getByRole('button', {{ name: 'Add' }}).click();\n}}"
    )
}

fn add_cells(cells: &str) -> String {
    format!(
        "async function step(page) {{\n  if (JSON.stringify(vars.dataTable) !== {cells:?}) {{\n    \
         throw new Error('passed ' + JSON.stringify(vars.dataTable));\n  }}\n  for (const cell of \
         vars.dataTable.flat()) {{\n    await page.getByLabel('item').fill(cell);\n    \
         await page.getByRole('button', {{ name: 'Add' }}).click();\n  }}\n}}"
    )
}

fn has_items(count: usize) -> String {
    format!(
        "async function step(page) {{\n  await expect(page.getByRole('listitem')).toHaveCount({count});\n}}"
    )
}

#[test]
fn doc_strings_tables_and_control_characters_export_as_they_replay() {
    let modules = playwright_test_modules();
    let name = "clear \u{1b}[2J now";
    let test = Test::new()
        .config("scenarios = \"scenarios\"\ncache_dir = \"cache\"\n[browser]\ntimeout = 2\n")
        .page("index.html", PAGE)
        .scenario("scenarios/arguments.feature", ARGUMENTS_FEATURE)
        .scenario("scenarios/arguments.steps", ARGUMENTS_STEPS)
        .cache(
            "cache/scenarios/arguments.feature.toml",
            &cache_file(
                "scenarios/arguments.feature",
                &[
                    (name, "the shop is open", OPEN),
                    (name, "I add the note", &add_note("line 1\n  line 2")),
                    (
                        name,
                        "I add the cells",
                        &add_cells("[[\"a|b\",\"c\\\\d\"]]"),
                    ),
                    (name, "the list has 3 items", &has_items(3)),
                ],
            ),
        )
        .cache(
            "cache/scenarios/arguments.steps.toml",
            &cache_file(
                "scenarios/arguments.steps",
                &[
                    ("from a steps file", "open the shop", OPEN),
                    ("from a steps file", "add the note", &add_note("from steps")),
                    (
                        "from a steps file",
                        "add the cells",
                        &add_cells("[[\"tea\"]]"),
                    ),
                    ("from a steps file", "the list has 2 items", &has_items(2)),
                ],
            ),
        );
    let out = test
        .args(&[
            "replay",
            "--strict",
            "--reporter",
            "list",
            "--reporter",
            "json",
        ])
        .run()
        .assert_exit(0)
        .stdout_contains("2 passed, 0 failed");
    let ours = prettyplay_results(&out.read("prettyplay-report/events.jsonl"));
    let out = out
        .again()
        .page("index.html", PAGE)
        .args(&["export", "--playwright", "e2e"])
        .run()
        .assert_exit(0);
    // No file written for people to read carries a raw control or invisible character.
    for spec in [
        "e2e/scenarios/arguments.feature.spec.ts",
        "e2e/scenarios/arguments.spec.ts",
    ] {
        let text = out.read(spec);
        assert!(
            !text
                .chars()
                .any(|c| (c.is_control() && c != '\n' && c != '\t')
                    || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')),
            "a raw control character in {spec}:\n{text:?}"
        );
    }
    let spec = out.read("e2e/scenarios/arguments.feature.spec.ts");
    assert!(spec.contains("test(\"clear \\u001b[2J now\""), "{spec}");
    assert!(spec.contains("const mark = '\\u001b[0m';"), "{spec}");
    assert!(spec.contains("// the mark is \\x1b[0m"), "{spec}");
    assert!(
        spec.contains("prettyplayVars.with(testVars, \"docString\", \"line 1\\n  line 2\")"),
        "{spec}"
    );
    let theirs = playwright_results(&run_playwright(&out.project_dir().join("e2e"), modules));
    assert_eq!(ours.len(), 2, "{ours:?}");
    assert_eq!(theirs, ours, "Playwright Test and prettyplay replay differ");
    assert!(theirs.values().all(|passed| *passed), "{theirs:?}");
}

/// Code that is inert in the sandbox and writes a file in Node.js: the export refuses it, names
/// the step, and writes nothing, unless it is told to allow unsandboxed code.
#[test]
fn cached_code_that_reaches_past_the_sandbox_is_exported_only_when_allowed() {
    let payload = "async function step(page) {\n  \
        if (new Error().stack.includes('.spec.')) {\n    \
          await import('node:fs').then((fs) => fs.writeFileSync('pwned.txt', 'x'));\n  \
        }\n  \
        await expect(page.getByRole('heading')).toHaveText('shop');\n}";
    let out = Test::new()
        .config("scenarios = \"scenarios\"\ncache_dir = \"cache\"\n")
        .page("index.html", PAGE)
        .scenario(
            "scenarios/shop.steps",
            "test: open\n  open the shop\n  the heading says shop\n",
        )
        .cached("scenarios/shop.steps", "open", "open the shop", 1, OPEN)
        .cached(
            "scenarios/shop.steps",
            "open",
            "the heading says shop",
            1,
            payload,
        )
        .args(&["replay", "--strict"])
        .run()
        // In the sandbox the branch is never taken (and `import()` would be refused).
        .assert_exit(0);
    let out = out
        .again()
        .args(&["export", "--playwright", "e2e"])
        .run()
        .assert_exit(2)
        .stderr_contains(
            "scenarios/shop.steps:3: step \"the heading says shop\": the cached code uses \
             `.stack`, which prettyplay's sandbox does not provide; exported code would run it \
             with Node's privileges",
        )
        .stderr_contains("--allow-unsandboxed");
    assert!(
        !out.project_dir().join("e2e").exists(),
        "a refused export writes nothing"
    );
    let out = out
        .again()
        .args(&["export", "--playwright", "e2e", "--allow-unsandboxed"])
        .run()
        .assert_exit(0)
        .stdout_contains("e2e/scenarios/shop.spec.ts");
    let spec = out.read("e2e/scenarios/shop.spec.ts");
    assert!(spec.contains("await import('node:fs')"), "{spec}");
}

/// A page whose heading's colour and whose form's label the visual and accessibility test
/// change; its logo has no alternative text, a violation prettyplay.toml accepts.
fn checked_page(color: &str, labelled: bool) -> String {
    let label = if labelled {
        "<label for=\"email\">Email</label>"
    } else {
        ""
    };
    format!(
        "<!doctype html><html lang=\"en\"><head><title>Checks</title><style>\
         body {{ font-family: sans-serif; margin: 20px; }} h1 {{ color: {color}; }}</style>\
         </head><body><main><h1>Hello</h1><img id=\"logo\" src=\"data:image/gif;base64,\
         R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==\" width=\"20\" height=\"20\">\
         <form>{label}<input id=\"email\"></form></main></body></html>"
    )
}

const CHECKS: &str = "\
test: the look
  open the page
  the page looks as before

test: the form
  open the page
  the form has no accessibility violations
";

/// Three screenshots, two of them unnamed in one step (prettyplay names the second `-2`), and
/// accessibility checks of the page (the logo's violation accepted) and of a locator.
const LOOK: &str = "async function step(page) {\n  \
    await expect(page).toHaveScreenshot();\n  \
    await expect(page.locator('h1')).toHaveScreenshot('heading');\n  \
    await expect(page).toHaveScreenshot({ maxDiffPixels: 0 });\n}";

const ACCESSIBLE: &str = "async function step(page) {\n  \
    await expect(page).toHaveNoAccessibilityViolations();\n  \
    await expect(page.locator('form')).toHaveNoAccessibilityViolations({ impact: 'serious' });\n}";

/// The message of each failed test of a Playwright JSON report, by `describe › test`.
fn playwright_errors(report: &serde_json::Value) -> BTreeMap<String, String> {
    fn walk(suite: &serde_json::Value, titles: &[String], out: &mut BTreeMap<String, String>) {
        let mut titles = titles.to_vec();
        if let Some(title) = suite["title"]
            .as_str()
            .filter(|t| !t.is_empty() && !t.ends_with(".ts"))
        {
            titles.push(title.to_owned());
        }
        for spec in suite["specs"].as_array().into_iter().flatten() {
            let mut name = titles.clone();
            name.push(spec["title"].as_str().unwrap().to_owned());
            let errors: Vec<String> = spec["tests"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|test| test["results"].as_array().into_iter().flatten())
                .flat_map(|result| result["errors"].as_array().into_iter().flatten())
                .filter_map(|error| error["message"].as_str().map(str::to_owned))
                .collect();
            if !errors.is_empty() {
                out.insert(name.join(" › "), errors.join("\n"));
            }
        }
        for child in suite["suites"].as_array().into_iter().flatten() {
            walk(child, &titles, out);
        }
    }
    let mut errors = BTreeMap::new();
    for suite in report["suites"].as_array().into_iter().flatten() {
        walk(suite, &[], &mut errors);
    }
    errors
}

/// Screenshots and accessibility checks exported: the baselines prettyplay wrote are copied
/// where Playwright Test looks for them and the accessibility check runs with
/// `@axe-core/playwright` and the accepted rules, so `npx playwright test` passes where
/// `replay --strict` passes, and fails (a changed look, a missing label) where it fails.
#[test]
fn screenshots_and_accessibility_checks_export_as_they_replay() {
    let modules = playwright_test_modules();
    let scenario = "scenarios/checks.steps";
    let open = "async function step(page) {\n  await page.goto('/index.html');\n}";
    let test = Test::new()
        .config(
            "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n[browser]\ntimeout = 5\n\
             [accessibility]\naccept = [{ rule = \"image-alt\", reason = \"the logo is decorative\" }]\n",
        )
        .page("index.html", &checked_page("black", true))
        .scenario(scenario, CHECKS)
        .cached(scenario, "the look", "open the page", 1, open)
        .cached(scenario, "the look", "the page looks as before", 1, LOOK)
        .cached(scenario, "the form", "open the page", 1, open)
        .cached(
            scenario,
            "the form",
            "the form has no accessibility violations",
            1,
            ACCESSIBLE,
        );
    // The first replay writes the baselines; strict replay then compares with them.
    let out = test
        .args(&["replay"])
        .run()
        .assert_exit(0)
        .stdout_contains("2 passed");
    let snapshots = "cache/scenarios/checks.steps-snapshots";
    for name in ["the-look-2", "the-look-2-heading", "the-look-2-2"] {
        assert!(
            out.exists(&format!("{snapshots}/{name}-chromium.png")),
            "{name}"
        );
    }
    let out = out
        .again()
        .page("index.html", &checked_page("black", true))
        .args(&[
            "replay",
            "--strict",
            "--reporter",
            "list",
            "--reporter",
            "json",
        ])
        .run()
        .assert_exit(0)
        .stdout_contains("2 passed, 0 failed");
    let ours = prettyplay_results(&out.read("prettyplay-report/events.jsonl"));
    let out = out
        .again()
        .page("index.html", &checked_page("black", true))
        .args(&["export", "--playwright", "e2e"])
        .run()
        .assert_exit(0);
    let package = out.read("e2e/package.json");
    assert!(
        package.contains("\"@axe-core/playwright\": \"4.14.1\""),
        "{package}"
    );
    let copied = out
        .project_dir()
        .join("e2e/scenarios/checks.spec.ts-snapshots/the-look-2-heading-linux.png");
    assert_eq!(
        std::fs::read(&copied).unwrap(),
        std::fs::read(
            out.project_dir()
                .join(format!("{snapshots}/the-look-2-heading-chromium.png"))
        )
        .unwrap(),
        "the baseline is copied as it is"
    );
    let report = run_playwright(&out.project_dir().join("e2e"), modules);
    let theirs = playwright_results(&report);
    assert_eq!(ours.len(), 2, "{ours:?}");
    assert!(ours.values().all(|passed| *passed), "{ours:?}");
    assert_eq!(
        theirs,
        ours,
        "Playwright Test and prettyplay replay differ on the page of the baselines: {:?}",
        playwright_errors(&report)
    );

    // The heading turns red and the field loses its label: both checks fail in both runners.
    let out = out
        .again()
        .page("index.html", &checked_page("red", false))
        .args(&[
            "replay",
            "--strict",
            "--reporter",
            "list",
            "--reporter",
            "json",
        ])
        .run()
        .assert_exit(1)
        .stdout_contains("0 passed, 2 failed")
        .stdout_contains("label");
    let ours = prettyplay_results(&out.read("prettyplay-report/events.jsonl"));
    let out = out
        .again()
        .page("index.html", &checked_page("red", false))
        .args(&["export", "--playwright", "e2e"])
        .run()
        .assert_exit(0);
    let e2e = out.project_dir().join("e2e");
    std::fs::remove_file(e2e.join("node_modules")).unwrap();
    let report = run_playwright(&e2e, modules);
    let theirs = playwright_results(&report);
    assert_eq!(theirs, ours, "Playwright Test and prettyplay replay differ");
    let errors = playwright_errors(&report);
    let look = &errors["scenarios/checks.steps › the look"];
    assert!(look.contains("pixels"), "{look}");
    let form = &errors["scenarios/checks.steps › the form"];
    assert!(form.contains("- label (critical)"), "{form}");
    assert!(form.contains("#email"), "{form}");
    assert!(
        !form.contains("image-alt"),
        "the accepted rule is left out: {form}"
    );
}
