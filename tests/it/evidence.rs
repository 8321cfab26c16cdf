//! Verdicts from evidence, on a real TodoMVC build (jQuery, tests/fixtures/todomvc) in a real
//! browser: a counter off by one is a PRODUCT DEFECT with no LLM and whatever an LLM says; a
//! renamed field is rot the built-in generator heals with no LLM, written back and replayed
//! clean; a failure the evidence cannot decide says that healing it needs an LLM.

use crate::support::fake_llm::{FakeLlm, Reply};
use crate::support::{Output, Test};

const SCENARIO: &str = "scenarios/todo.steps";
const CACHE: &str = "cache/scenarios/todo.steps.toml";
const APP: &str = "tests/fixtures/todomvc/jquery";

const STEPS: &str = "\
test: the counter counts active todos
  open the app
  add a todo \"buy milk\"
  add a todo \"walk the dog\"
  the page shows \"2 items left\"
";

/// The jQuery build's script with its counter one too high: a seeded product defect.
fn off_by_one() -> String {
    let script = std::fs::read_to_string(crate::support::repo_dir().join(APP).join("app.js"))
        .expect("read the jQuery build's app.js");
    let honest = "var activeTodoCount = this.getActiveTodos().length;";
    assert!(
        script.contains(honest),
        "the build counts active todos here"
    );
    script.replace(
        honest,
        "var activeTodoCount = this.getActiveTodos().length + 1;",
    )
}

fn llm_config(base_url: &str) -> String {
    format!(
        "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n\n[llm]\nprovider = \"openai\"\n\
         model = \"fake\"\nbase_url = \"{base_url}\"\n"
    )
}

/// The suite proven on the honest build by the built-in generator alone.
fn proven() -> Output {
    Test::new()
        .site_from_repo(APP)
        .scenario(SCENARIO, STEPS)
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
}

#[test]
fn a_seeded_counter_defect_is_a_product_defect_from_evidence_with_no_llm() {
    let first = proven();
    let cached = first.read(CACHE);
    let run = first
        .again()
        .site_from_repo(APP)
        .page("app.js", &off_by_one())
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .args(&["run"])
        .run()
        .assert_exit(1)
        .stdout_contains("PRODUCT DEFECT")
        .stdout_contains(
            "verdict: product_defect (from evidence) — the page shows \"3 items left\" where the \
             step expects \"2 items left\"",
        )
        .output_not_contains("HEALED");
    assert_eq!(run.read(CACHE), cached, "a defect never changes the cache");
    // The CI mode, with no engine at all, says the same.
    run.again()
        .site_from_repo(APP)
        .page("app.js", &off_by_one())
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("PRODUCT DEFECT")
        .stdout_contains("(from evidence)");
}

#[test]
fn an_llm_that_lies_rot_cannot_turn_a_seeded_defect_into_a_heal() {
    let first = proven();
    let cached = first.read(CACHE);
    let llm = FakeLlm::start();
    llm.always_on_contains(
        "",
        Reply::text("rot | the counter was restyled | regenerate the step"),
    );
    let run = first
        .again()
        .config(&llm_config(&llm.base_url()))
        .site_from_repo(APP)
        .page("app.js", &off_by_one())
        .args(&["run", "--events", "events.jsonl"])
        .run()
        .assert_exit(1)
        .stdout_contains("PRODUCT DEFECT")
        .stdout_contains(
            "verdict: product_defect (from evidence; the LLM said rot and was overruled)",
        )
        .output_not_contains("HEALED");
    assert_eq!(run.read(CACHE), cached, "a defect never changes the cache");
    let requests = llm.requests();
    assert_eq!(requests.len(), 1, "one second opinion, no code asked for");
    assert!(
        requests[0].system().to_lowercase().contains("classif"),
        "{}",
        requests[0].system()
    );
    let events = run.read("events.jsonl");
    assert!(
        events.contains("\"source\":\"evidence+llm\",\"llm_category\":\"rot\",\"agreed\":false"),
        "{events}"
    );
}

#[test]
fn a_renamed_field_is_healed_by_the_built_in_generator_with_no_llm_and_replays_clean() {
    let first = proven();
    // The cache as another build would have written it: the new todo field had another name.
    let rotted =
        first
            .read(CACHE)
            .replacen("name: 'What needs to be done?'", "name: 'New todo'", 1);
    assert!(rotted.contains("'New todo'"), "{rotted}");
    let healed = first
        .again()
        .site_from_repo(APP)
        .write(CACHE, &rotted)
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_contains(
            "HEALED scenarios/todo.steps › the counter counts active todos › step 2: add a todo \
             \"buy milk\" (built-in, no LLM)",
        )
        .stdout_contains("why: the step's locator (`internal:role=textbox[name=\"New todo\"i]`) finds nothing on the page, which loaded")
        .stdout_contains("-  const field = page.getByRole('textbox', { name: 'New todo' });")
        .stdout_line("steps: 3 cached, 0 generated, 1 healed (1 by the built-in generator)");
    let cache = healed.read(CACHE);
    assert!(!cache.contains("'New todo'"), "{cache}");
    assert!(cache.contains("healed = \""), "the heal is dated: {cache}");
    healed
        .again()
        .site_from_repo(APP)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_line("steps: 4 cached, 0 generated, 0 healed");
}

#[test]
fn a_failure_the_evidence_cannot_decide_says_healing_it_needs_an_llm() {
    let first = proven();
    // A check of another text with no number: rot or defect, the evidence cannot tell.
    let cached = first.read(CACHE);
    let check = cached
        .lines()
        .find(|line| line.contains("toBeVisible()"))
        .expect("the cached check");
    let other = cached.replace(
        check,
        "  await expect(page.locator('h1')).toHaveText('todo list');",
    );
    first
        .again()
        .site_from_repo(APP)
        .write(CACHE, &other)
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .args(&["run"])
        .run()
        .assert_exit(1)
        .stdout_contains("INCURABLE")
        .stdout_contains("healing this step needs [llm] or a rewritten sentence")
        .stdout_contains("`prettyplay explain scenarios/todo.steps:5`")
        .output_not_contains("HEALED");
}
