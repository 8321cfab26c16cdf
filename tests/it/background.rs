//! End to end: `background:` blocks and `examples:` tables. A background step is one cache entry
//! for every test of its file: generated once and healed once however many tests and workers
//! reach it, and a failure names it in every test it fails; an examples table runs its test
//! once per row, with one entry per template step serving every row (`vars.<column>`). Plus the
//! grammar's errors (exit 2, `file:line`), `list`, `--grep` on row names, and `cache prune`.

use crate::support::fake_llm::{FakeLlm, generation_of};
use crate::support::{Test, proofs_as_text};

/// A heading "todos", buttons "Add" and "Clear", and a list "Items" the buttons fill and empty.
const PAGE: &str = include_str!("support/fixtures/engine/app.html");

/// A page whose field adds what is typed to a list "Items".
const FORM: &str = include_str!("support/fixtures/items.html");

const SCENARIO: &str = "scenarios/app.steps";
const CACHE: &str = "cache/scenarios/app.steps.toml";

const OPEN: &str = "async function step(page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'todos' })).toBeVisible();
}";

/// [`OPEN`] as cached before the heading's markup changed (it was an `h2` with a class); gives
/// up after 1 s.
const ROTTED_OPEN: &str = "async function step(page) {
  await page.goto('/');
  await expect(page.locator('h2.title')).toBeVisible({ timeout: 1000 });
}";

/// [`ROTTED_OPEN`] healed: the heading found by its new markup. It names no text the sentence
/// does not quote, which the heal veto would refuse.
const HEALED_OPEN: &str = "async function step(page) {
  await page.goto('/');
  await expect(page.locator('h1')).toBeVisible();
}";

const CLICK_ADD: &str = "async function step(page) {
  await page.getByRole('button', { name: 'Add' }).click();
}";

const CLICK_CLEAR: &str = "async function step(page) {
  await page.getByRole('button', { name: 'Clear' }).click();
}";

const ONE_ITEM: &str = "async function step(page) {
  await expect(page.getByRole('listitem')).toHaveCount(1);
}";

/// Three tests after a one-step background.
const WITH_BACKGROUND: &str = "background:\n  open the app\n\n\
    test: add\n  click the add button\n\
    test: add then check\n  click the add button\n  the list has one item\n\
    test: clear\n  click the clear button\n";

const ADD_ROW: &str = "async function step(page) {
  await page.getByLabel('New item').fill(vars.item);
  await page.getByRole('button', { name: 'Add' }).click();
}";

const SHOWS_ROW: &str = "async function step(page) {
  await expect(page.getByRole('listitem')).toHaveText(vars.item);
}";

/// One test, three rows.
const WITH_EXAMPLES: &str = "test: add an item\n  open the app\n  add <item> to the list\n  \
    the list shows <item>\n  examples:\n    | item |\n    | milk |\n    | eggs |\n    \
    | bread |\n";

fn llm_config(base_url: &str) -> String {
    format!("[llm]\nprovider = \"openai\"\nmodel = \"fake\"\nbase_url = \"{base_url}\"\n")
}

fn fenced(code: &str) -> String {
    format!("```js\n{code}\n```\n")
}

/// [`generation_of`] a step with placeholders: its VARIABLES section comes next.
fn generation_with_vars_of(sentence: &str) -> String {
    format!("STEP:\n{sentence}\n\nVARIABLES:")
}

/// How many requests the fake LLM got whose user text contains `needle`.
fn requests_with(llm: &FakeLlm, needle: &str) -> usize {
    llm.requests()
        .iter()
        .filter(|r| r.user_text().contains(needle))
        .count()
}

fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

#[test]
fn background_is_generated_once_for_every_test_and_replayed_from_one_entry() {
    let llm = FakeLlm::start();
    // One-shot replies: a second request for the background step would be unexpected and fail
    // the test when the fake is dropped.
    llm.on_contains(&generation_of("open the app"), fenced(OPEN).as_str());
    for _ in 0..2 {
        llm.on_contains(
            &generation_of("click the add button"),
            fenced(CLICK_ADD).as_str(),
        );
    }
    llm.on_contains(
        &generation_of("the list has one item"),
        fenced(ONE_ITEM).as_str(),
    );
    llm.on_contains(
        &generation_of("click the clear button"),
        fenced(CLICK_CLEAR).as_str(),
    );
    let out = Test::new()
        .config(&llm_config(&llm.base_url()))
        .scenario(SCENARIO, WITH_BACKGROUND)
        .page("index.html", PAGE)
        .args(&["run", "-j", "3"])
        .run()
        .assert_exit(0)
        .stdout_line("3 passed, 0 failed");
    assert_eq!(
        requests_with(&llm, &generation_of("open the app")),
        1,
        "the background step is generated once"
    );
    // The test's own steps come after it: their requests list it as a previous step.
    let add = llm
        .requests()
        .into_iter()
        .find(|r| {
            r.user_text()
                .contains(&generation_of("click the add button"))
        })
        .map(|r| r.user_text())
        .unwrap_or_default();
    assert!(add.contains("PREVIOUS STEPS:\n1. open the app"), "{add}");
    let cache = proofs_as_text(&out.read(CACHE));
    // The background's check came with a navigation, so its proof says why none was tried.
    assert!(cache.starts_with("format = 5\n"), "{cache}");
    assert!(
        cache.contains("proof = \"none: the step acts on the page (goto)\""),
        "{cache}"
    );
    assert_eq!(count(&cache, "[[background]]"), 1, "{cache}");
    assert_eq!(count(&cache, "step = \"open the app\""), 1, "{cache}");
    assert!(
        cache.contains("[[background]]\nstep = \"open the app\"\noccurrence = 1\n"),
        "{cache}"
    );

    // Replayed from that one entry, by every test.
    Test::new()
        .no_config()
        .scenario(SCENARIO, WITH_BACKGROUND)
        .cache(CACHE, &cache)
        .page("index.html", PAGE)
        .args(&["replay", "--strict", "-j", "2"])
        .run()
        .assert_exit(0)
        .stdout_line("3 passed, 0 failed");
    Test::new()
        .no_config()
        .scenario(SCENARIO, WITH_BACKGROUND)
        .cache(CACHE, &cache)
        .args(&["list"])
        .run()
        .assert_exit(0)
        .stdout_line("scenarios/app.steps › add")
        .stdout_line("  [cached ] background: open the app")
        .output_count("background: open the app", 3)
        .stdout_line("3 test(s), 0 step(s) without cached code");
}

#[test]
fn a_rotted_background_step_is_healed_once_and_a_missing_one_fails_each_test_naming_it() {
    let llm = FakeLlm::start();
    llm.on_contains(
        "STEP:\nopen the app\n\nCODE:",
        "rot | the heading was renamed | regenerate the step",
    );
    llm.on_contains(&generation_of("open the app"), fenced(HEALED_OPEN).as_str());
    let cached = Test::new()
        .config(&llm_config(&llm.base_url()))
        .scenario(SCENARIO, WITH_BACKGROUND)
        .cached_background(SCENARIO, "open the app", 1, ROTTED_OPEN)
        .cached(SCENARIO, "add", "click the add button", 1, CLICK_ADD)
        .cached(
            SCENARIO,
            "add then check",
            "click the add button",
            1,
            CLICK_ADD,
        )
        .cached(
            SCENARIO,
            "add then check",
            "the list has one item",
            1,
            ONE_ITEM,
        )
        .cached(SCENARIO, "clear", "click the clear button", 1, CLICK_CLEAR)
        .page("index.html", PAGE)
        .args(&["run", "-j", "2"]);
    let out = cached
        .run()
        .assert_exit(0)
        .output_count("HEALED scenarios/app.steps", 1)
        .stdout_line("3 passed, 0 failed");
    assert_eq!(llm.request_count(), 2, "one verdict and one regeneration");
    let cache = out.read(CACHE);
    assert!(cache.contains("healed = "), "{cache}");
    assert!(!cache.contains("h2.title"), "{cache}");

    // No entry and no working code: the first test spends the budget; every test fails on the
    // background step, named, and the LLM is not asked again for the others.
    let failing = FakeLlm::start();
    failing.always_on_contains(
        &generation_of("open the app"),
        // A syntax error: each attempt fails, and another is asked for until the budget is spent.
        fenced("async function step(page) {\n  await (;\n}").as_str(),
    );
    // Once the budget is spent, the engine asks for a verdict on the last failure.
    failing.always_on_contains(
        "STEP:\nopen the app\n\nCODE:",
        "incurable | the step cannot be written | reword it",
    );
    let out = Test::new()
        .config(&format!(
            "{}\n[budgets]\ngeneration = 2\n",
            llm_config(&failing.base_url())
        ))
        .scenario(SCENARIO, WITH_BACKGROUND)
        .page("index.html", PAGE)
        .args(&["run", "-j", "2"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 3 failed")
        .output_count("background: open the app", 3);
    assert_eq!(
        requests_with(&failing, &generation_of("open the app")),
        2,
        "the budget of the first test only:\n{}",
        out.stdout()
    );
    assert_eq!(failing.request_count(), 3, "and one verdict");
    assert!(!out.exists(CACHE), "nothing is cached");
}

#[test]
fn example_rows_run_once_each_from_one_cache_entry_per_step() {
    let llm = FakeLlm::start();
    llm.on_contains(&generation_of("open the app"), fenced(OPEN).as_str());
    llm.on_contains(
        &generation_with_vars_of("add <item> to the list"),
        fenced(ADD_ROW).as_str(),
    );
    llm.on_contains(
        &generation_with_vars_of("the list shows <item>"),
        fenced(SHOWS_ROW).as_str(),
    );
    let out = Test::new()
        .config(&llm_config(&llm.base_url()))
        .scenario(SCENARIO, WITH_EXAMPLES)
        .page("index.html", FORM)
        .args(&["run", "-j", "2"])
        .run()
        .assert_exit(0)
        .stdout_contains("PASS scenarios/app.steps › add an item [item=milk] (")
        .stdout_contains("PASS scenarios/app.steps › add an item [item=eggs] (")
        .stdout_contains("PASS scenarios/app.steps › add an item [item=bread] (")
        .stdout_line("3 passed, 0 failed");
    assert_eq!(llm.request_count(), 3, "one generation per template step");
    let request = llm
        .requests()
        .into_iter()
        .find(|r| {
            r.user_text()
                .contains(&generation_with_vars_of("add <item> to the list"))
        })
        .map(|r| r.user_text())
        .unwrap_or_default();
    assert!(
        request.contains("VARIABLES:\n<item>: read it as vars.item"),
        "{request}"
    );
    let cache = out.read(CACHE);
    assert_eq!(count(&cache, "[[steps]]"), 3, "{cache}");
    assert_eq!(count(&cache, "test = \"add an item\""), 3, "{cache}");
    assert!(!cache.contains("milk"), "{cache}");

    // Replay: every row from the same entries; `--grep` matches a row's name.
    Test::new()
        .no_config()
        .scenario(SCENARIO, WITH_EXAMPLES)
        .cache(CACHE, &cache)
        .page("index.html", FORM)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_line("3 passed, 0 failed");
    Test::new()
        .no_config()
        .scenario(SCENARIO, WITH_EXAMPLES)
        .cache(CACHE, &cache)
        .page("index.html", FORM)
        .args(&["replay", "--strict", "--grep", r"\[item=eggs\]"])
        .run()
        .assert_exit(0)
        .stdout_contains("PASS scenarios/app.steps › add an item [item=eggs] (")
        .stdout_line("1 passed, 0 failed");
    // A row whose name would be unclear is named by its number.
    Test::new()
        .no_config()
        .scenario(
            SCENARIO,
            &WITH_EXAMPLES.replace("| bread |", "| bread |\n    | a, b |"),
        )
        .cache(CACHE, &cache)
        .page("index.html", FORM)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_contains("PASS scenarios/app.steps › add an item [row 4] (")
        .stdout_line("4 passed, 0 failed");
}

#[test]
fn grammar_errors_stop_the_run_with_file_and_line() {
    Test::new()
        .no_config()
        .scenario(
            SCENARIO,
            "test: buy\n  add <item> for <user>\n  examples:\n  | item | item |\n  | a |\n",
        )
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(2)
        .stderr_contains("scenarios/app.steps:4:12: duplicate column `item`")
        .stderr_contains("scenarios/app.steps:5:5: row has 1 cell(s) but the header has 2")
        .stderr_contains(
            "scenarios/app.steps:2:18: `<user>` is not a column of the examples table",
        );
    Test::new()
        .no_config()
        .scenario(SCENARIO, "test: a\n  x\nbackground:\n  y\n")
        .args(&["list"])
        .run()
        .assert_exit(2)
        .stderr_contains("scenarios/app.steps:3:1: `background:` must come before the first test");
}

#[test]
fn prune_knows_background_entries_and_example_tests() {
    let scenario = "background:\n  open the app\ntest: t <item>\n  add <item>\n  examples:\n  \
                    | item |\n  | milk |\n";
    let out = Test::new()
        .no_config()
        .scenario(SCENARIO, scenario)
        .cached_background(SCENARIO, "open the app", 1, "x")
        .cached_background(SCENARIO, "log in", 1, "x")
        .cached(SCENARIO, "t <item>", "add <item>", 1, "x")
        .args(&["cache", "prune"])
        .run()
        .assert_exit(0)
        .stdout_line(&format!(
            "removed background › \"log in\" #1 from {CACHE} (step gone)"
        ))
        .stdout_line("1 removal(s) made");
    let cache = out.read(CACHE);
    assert!(cache.contains("step = \"open the app\""), "{cache}");
    assert!(cache.contains("test = \"t <item>\""), "{cache}");
}
