//! End to end: one sentence's proven code serves every test that says it (`[generate] reuse`).
//! The same sentences in three tests across two files are generated once each, and the other
//! tests reuse the stored code, proven again on their own page, with no LLM request; with
//! `PRETTYPLAY_GENERATE_REUSE=false` every test asks for its own. A heal is shared the same way:
//! one test heals a rotted sentence with the LLM, and the other tests' copies, which fail the
//! same way, are healed from its code without asking. The fake LLM answers every request for a
//! sentence, so the request counts, not the replies on offer, show what reuse saved. The tests
//! run on three workers: the per-sentence lock makes the counts the same however the tests
//! interleave.

use crate::support::Test;
use crate::support::fake_llm::{FakeLlm, generation_of};

/// A heading "todos", buttons "Add" and "Clear", and a list "Items" the buttons fill and empty.
const PAGE: &str = include_str!("support/fixtures/engine/app.html");

const OPEN: &str = "async function step(page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'todos' })).toBeVisible();
}";

/// [`OPEN`] as cached before the heading's markup changed; gives up after 1 s.
const ROTTED_OPEN: &str = "async function step(page) {
  await page.goto('/');
  await expect(page.locator('h2.title')).toBeVisible({ timeout: 1000 });
}";

/// [`ROTTED_OPEN`] healed: the heading found by its new markup.
const HEALED_OPEN: &str = "async function step(page) {
  await page.goto('/');
  await expect(page.locator('h1')).toBeVisible();
}";

const CLICK_ADD: &str = "async function step(page) {
  await page.getByRole('button', { name: 'Add' }).click();
}";

const ONE_ITEM: &str = "async function step(page) {
  await expect(page.getByRole('listitem')).toHaveCount(1);
}";

const FIRST_FILE: &str = "scenarios/a.steps";
const SECOND_FILE: &str = "scenarios/b.steps";

/// Two tests; [`SECOND`] has a third. Every sentence is said in more than one test.
const FIRST: &str = "test: one\n  open the todos app\n  click the add button\n  the list has 1 item\n\n\
    test: two\n  open the todos app\n  click the add button\n";
const SECOND: &str =
    "test: three\n  open the todos app\n  click the add button\n  the list has 1 item\n";

fn config(base_url: &str) -> String {
    // The LLM writes every step, so that each step's request shows in the counts.
    format!(
        "[llm]\nprovider = \"openai\"\nmodel = \"fake\"\nbase_url = \"{base_url}\"\n\n\
         [generate]\nbuiltin = \"off\"\n"
    )
}

fn fenced(code: &str) -> String {
    format!("```js\n{code}\n```\n")
}

/// A fake LLM that writes the code of every sentence of [`FIRST`] and [`SECOND`] as often as
/// it is asked.
fn writer() -> FakeLlm {
    let llm = FakeLlm::start();
    for (sentence, code) in [
        ("open the todos app", OPEN),
        ("click the add button", CLICK_ADD),
        ("the list has 1 item", ONE_ITEM),
    ] {
        llm.always_on_contains(&generation_of(sentence), fenced(code).as_str());
    }
    llm
}

fn requests_with(llm: &FakeLlm, needle: &str) -> usize {
    llm.requests()
        .iter()
        .filter(|r| r.user_text().contains(needle))
        .count()
}

fn events(out: &crate::support::Output) -> Vec<serde_json::Value> {
    out.read("events.jsonl")
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON event a line"))
        .collect()
}

#[test]
fn a_sentence_said_in_three_tests_is_generated_once_and_reused_by_the_others() {
    let llm = writer();
    let out = Test::new()
        .config(&config(&llm.base_url()))
        .scenario(FIRST_FILE, FIRST)
        .scenario(SECOND_FILE, SECOND)
        .page("index.html", PAGE)
        .args(&["run", "-j", "3", "--events", "events.jsonl"])
        .run()
        .assert_exit(0)
        .stdout_line("3 passed, 0 failed")
        .stdout_line("steps: 0 cached, 8 generated, 0 healed (5 reused, 5 LLM request(s) saved)");
    for sentence in [
        "open the todos app",
        "click the add button",
        "the list has 1 item",
    ] {
        assert_eq!(
            requests_with(&llm, &generation_of(sentence)),
            1,
            "{sentence:?} is generated once for the three tests"
        );
    }
    assert_eq!(llm.request_count(), 3);

    // Every test's entry is stored, the reused ones saying so.
    let cache =
        out.read("cache/scenarios/a.steps.toml") + &out.read("cache/scenarios/b.steps.toml");
    assert_eq!(cache.matches("by = \"llm\"").count(), 3, "{cache}");
    assert_eq!(cache.matches("by = \"reused\"").count(), 5, "{cache}");

    let events = events(&out);
    let reused: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| e["event"] == "step_passed" && e["by"] == "reused")
        .collect();
    assert_eq!(reused.len(), 5);
    assert!(reused.iter().all(|e| e["source"] == "generated"));
    // Each reuse names the step its code came from, and it passed there.
    let tried: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| e["event"] == "reuse_tried")
        .collect();
    assert_eq!(tried.len(), 5, "{tried:?}");
    for event in &tried {
        let from = event["from"].as_str().unwrap();
        assert!(
            from.starts_with("scenarios/a.steps › ") || from.starts_with("scenarios/b.steps › "),
            "{from}"
        );
        assert!(event.get("failure").is_none(), "{event}");
    }
    let finished = events.last().unwrap();
    assert_eq!(finished["stats"]["reused_steps"], 5, "{finished}");
    assert_eq!(finished["stats"]["llm_requests"], 3, "{finished}");

    // The same suite without reuse asks for every step of every test.
    let without = writer();
    Test::new()
        .config(&config(&without.base_url()))
        .scenario(FIRST_FILE, FIRST)
        .scenario(SECOND_FILE, SECOND)
        .page("index.html", PAGE)
        .env("PRETTYPLAY_GENERATE_REUSE", "false")
        .args(&["run", "-j", "3"])
        .run()
        .assert_exit(0)
        .stdout_line("steps: 0 cached, 8 generated, 0 healed");
    assert_eq!(
        without.request_count(),
        8,
        "3 + 3 + 2 steps, each asked for"
    );
}

#[test]
fn reused_code_that_fails_on_this_page_is_not_kept_and_the_step_is_generated() {
    // The first file's cached code clicks a button the page does not have; the test that
    // reuses it generates its own, and nothing of the failed reuse stays.
    let stale_add = "async function step(page) {
  await page.getByRole('button', { name: 'Append' }).click({ timeout: 1000 });
}";
    let llm = writer();
    let out = Test::new()
        .config(&config(&llm.base_url()))
        .scenario(FIRST_FILE, "test: one\n  click the add button\n")
        .scenario(
            SECOND_FILE,
            "test: three\n  open the todos app\n  click the add button\n",
        )
        .cached(FIRST_FILE, "one", "click the add button", 1, stale_add)
        .page("index.html", PAGE)
        .args(&["run", SECOND_FILE, "--events", "events.jsonl"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    assert_eq!(
        requests_with(&llm, &generation_of("click the add button")),
        1
    );
    let tried: Vec<serde_json::Value> = events(&out)
        .into_iter()
        .filter(|e| e["event"] == "reuse_tried")
        .collect();
    assert_eq!(tried.len(), 1, "{tried:?}");
    assert_eq!(
        tried[0]["from"],
        "scenarios/a.steps › \"one\" › \"click the add button\" #1"
    );
    assert!(
        tried[0]["failure"].as_str().unwrap().contains("Timeout"),
        "{}",
        tried[0]
    );
    let cache = out.read("cache/scenarios/b.steps.toml");
    assert!(!cache.contains("Append"), "{cache}");
    assert_eq!(cache.matches("by = \"llm\"").count(), 2, "{cache}");
}

#[test]
fn a_heal_in_one_test_heals_the_same_sentence_in_the_others_without_the_llm() {
    let llm = FakeLlm::start();
    // One-shot: a second verdict or regeneration for the sentence would be unexpected.
    llm.on_contains(
        "STEP:\nopen the todos app\n\nCODE:",
        "rot | the heading was renamed | regenerate the step",
    );
    llm.on_contains(
        &generation_of("open the todos app"),
        fenced(HEALED_OPEN).as_str(),
    );
    let out = Test::new()
        .config(&config(&llm.base_url()))
        .scenario(FIRST_FILE, FIRST)
        .scenario(SECOND_FILE, SECOND)
        .cached(FIRST_FILE, "one", "open the todos app", 1, ROTTED_OPEN)
        .cached(FIRST_FILE, "one", "click the add button", 1, CLICK_ADD)
        .cached(FIRST_FILE, "one", "the list has 1 item", 1, ONE_ITEM)
        .cached(FIRST_FILE, "two", "open the todos app", 1, ROTTED_OPEN)
        .cached(FIRST_FILE, "two", "click the add button", 1, CLICK_ADD)
        .cached(SECOND_FILE, "three", "open the todos app", 1, ROTTED_OPEN)
        .cached(SECOND_FILE, "three", "click the add button", 1, CLICK_ADD)
        .cached(SECOND_FILE, "three", "the list has 1 item", 1, ONE_ITEM)
        .page("index.html", PAGE)
        .args(&["run", "-j", "3", "--events", "events.jsonl"])
        .run()
        .assert_exit(0)
        .stdout_line("3 passed, 0 failed")
        .stdout_line("steps: 5 cached, 0 generated, 3 healed (2 reused, 2 LLM request(s) saved)")
        // Every heal is reported loudly, the reused ones as such.
        .output_count("HEALED scenarios/", 3)
        .output_count("(reused, no LLM)", 2);
    assert_eq!(llm.request_count(), 2, "one verdict and one regeneration");
    assert!(llm.take_unexpected().is_empty());
    for file in [
        "cache/scenarios/a.steps.toml",
        "cache/scenarios/b.steps.toml",
    ] {
        let cache = out.read(file);
        assert!(!cache.contains("h2.title"), "{cache}");
        assert!(cache.contains("locator('h1')"), "{cache}");
    }
    let cache =
        out.read("cache/scenarios/a.steps.toml") + &out.read("cache/scenarios/b.steps.toml");
    assert_eq!(cache.matches("healed = ").count(), 3, "{cache}");
    assert_eq!(cache.matches("by = \"reused\"").count(), 2, "{cache}");
    let healed: Vec<serde_json::Value> = events(&out)
        .into_iter()
        .filter(|e| e["event"] == "healed")
        .collect();
    assert_eq!(healed.len(), 3);
    assert_eq!(healed.iter().filter(|e| e["by"] == "reused").count(), 2);
    assert!(
        healed
            .iter()
            .filter(|e| e["by"] == "reused")
            .all(|e| e["offline"] == true)
    );
}

#[test]
fn a_product_defect_in_one_test_is_not_healed_by_another_tests_code() {
    // The second test's page shows two items where its sentence says one: a check that did
    // not hold, which the evidence calls a product defect. The first test's code for the same
    // sentence (healed, so on offer) must not make it pass.
    let two_items = PAGE.replace(
        "<ul aria-label=\"Items\"></ul>",
        "<ul aria-label=\"Items\"><li>item</li><li>item</li></ul>",
    );
    let plain = "async function step(page) {
  expect(await page.getByRole('listitem').count()).toBe(1);
}";
    let llm = FakeLlm::start();
    llm.always_on_contains(
        "STEP:\nthe list has 1 item\n\nCODE:",
        "product_defect | the list has two items | fix the app",
    );
    let out = Test::new()
        .config(&config(&llm.base_url()))
        .scenario(
            FIRST_FILE,
            "test: one\n  open the todos app\n  the list has 1 item\n",
        )
        .scenario(
            SECOND_FILE,
            "test: three\n  open the defective app\n  the list has 1 item\n",
        )
        .cache(
            "cache/scenarios/a.steps.toml",
            &format!(
                "format = 1\nscenario = \"scenarios/a.steps\"\n\n[[steps]]\ntest = \"one\"\n\
                 step = \"open the todos app\"\noccurrence = 1\ncreated = \"2026-11-30\"\n\
                 code = '''\n{OPEN}\n'''\n\n[[steps]]\ntest = \"one\"\n\
                 step = \"the list has 1 item\"\noccurrence = 1\ncreated = \"2026-11-30\"\n\
                 healed = \"2026-12-01\"\ncode = '''\n{ONE_ITEM}\n'''\n"
            ),
        )
        .cached(
            SECOND_FILE,
            "three",
            "open the defective app",
            1,
            "async function step(page) {\n  await page.goto('/defective.html');\n}",
        )
        .cached(SECOND_FILE, "three", "the list has 1 item", 1, plain)
        .page("index.html", PAGE)
        .page("defective.html", &two_items)
        .args(&["run", SECOND_FILE, "--events", "events.jsonl"])
        .run()
        .assert_exit(1)
        .output_contains("PRODUCT DEFECT");
    let tried = events(&out)
        .into_iter()
        .filter(|e| e["event"] == "reuse_tried")
        .count();
    assert_eq!(
        tried, 0,
        "no other test's code was tried on a product defect"
    );
    assert!(out.read("cache/scenarios/b.steps.toml").contains("toBe(1)"));
}

/// The figure in `docs/benchmarks.md` (Reuse): a suite of 12 tests in 3 files saying 5
/// sentences in all, generated from scratch by the fake LLM with and without reuse, at `-j 2`.
/// Ignored in the normal run; `it reused_code::bench -- --ignored --nocapture` prints it.
#[test]
#[ignore = "a benchmark, run by hand"]
fn bench_llm_requests_with_and_without_reuse() {
    const ZERO: &str = "async function step(page) {
  await expect(page.getByRole('listitem')).toHaveCount(0);
}";
    const CLEAR: &str = "async function step(page) {
  await page.getByRole('button', { name: 'Clear' }).click();
}";
    let test = "  open the todos app\n  click the add button\n  the list has 1 item\n  \
                click the clear button\n  the list has 0 items\n";
    let file = |names: &[&str]| -> String {
        names
            .iter()
            .map(|name| format!("test: {name}\n{test}\n"))
            .collect()
    };
    let mut figures = Vec::new();
    for reuse in ["true", "false"] {
        let llm = writer();
        llm.always_on_contains(
            &generation_of("click the clear button"),
            fenced(CLEAR).as_str(),
        );
        llm.always_on_contains(
            &generation_of("the list has 0 items"),
            fenced(ZERO).as_str(),
        );
        let started = std::time::Instant::now();
        Test::new()
            .config(&config(&llm.base_url()))
            .scenario("scenarios/a.steps", &file(&["a1", "a2", "a3", "a4"]))
            .scenario("scenarios/b.steps", &file(&["b1", "b2", "b3", "b4"]))
            .scenario("scenarios/c.steps", &file(&["c1", "c2", "c3", "c4"]))
            .page("index.html", PAGE)
            .env("PRETTYPLAY_GENERATE_REUSE", reuse)
            .args(&["run", "-j", "2"])
            .run()
            .assert_exit(0)
            .stdout_line("12 passed, 0 failed");
        figures.push(format!(
            "reuse = {reuse}: {} LLM requests, {:.1} s",
            llm.request_count(),
            started.elapsed().as_secs_f64()
        ));
    }
    println!("{}", figures.join("\n"));
}
