//! Gherkin `.feature` files end to end: a Cucumber-style suite (a Background, an Outline with
//! Examples, tags, a data table, And/`*` steps) is generated through a scripted LLM, cached
//! under its own cache file, replayed with `replay --strict`, selected by tag and by the line
//! of an Examples row, and healed when the page changes. A Gherkin file saved as `.steps` is
//! refused with the hint to rename it. A doc string (media type, indentation, escaped delimiter)
//! and a data table (cell escapes) reach step code as Cucumber passes them, in a run, a replay
//! and a run of the `.steps` file `import` writes from the feature.

use crate::support::Test;
use crate::support::fake_llm::FakeLlm;

const PAGE: &str = include_str!("support/fixtures/items.html");

const FEATURE: &str = "\
# A Cucumber suite, as teams write them.
@shop
Feature: items
  Background:
    Given I open the app

  @smoke
  Scenario: add from a table
    When I add these items
      | item  |
      | milk  |
      | eggs  |
    Then the list has 2 items
    * the heading says todos

  Scenario Outline: add <item>
    When I add <item> to the list
    And I look at the list
    Then the list shows <item>

    @rows
    Examples:
      | item  |
      | bread |
      | jam   |
";

const SCENARIO: &str = "scenarios/items.feature";
const CACHE: &str = "cache/scenarios/items.feature.toml";

const OPEN: &str = "async function step(page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'todos' })).toBeVisible();
}";

const ADD_TABLE: &str = "async function step(page) {
  for (const [item] of vars.dataTable.slice(1)) {
    await page.getByLabel('New item').fill(item);
    await page.getByRole('button', { name: 'Add' }).click();
  }
}";

const TWO_ITEMS: &str = "async function step(page) {
  await expect(page.getByRole('listitem')).toHaveCount(2);
}";

const HEADING: &str = "async function step(page) {
  await expect(page.getByRole('heading')).toHaveText('todos');
}";

const ADD_ROW: &str = "async function step(page) {
  await page.getByLabel('New item').fill(vars.item);
  await page.getByRole('button', { name: 'Add' }).click();
}";

const LOOK: &str = "async function step(page) {
  await expect(page.getByRole('list', { name: 'Items' })).toBeVisible();
}";

const SHOWS_ROW: &str = "async function step(page) {
  await expect(page.getByRole('listitem')).toHaveText(vars.item);
}";

fn fenced(code: &str) -> String {
    format!("```js\n{code}\n```\n")
}

/// The part of a generation request that names its step: a sentence with a `<column>` has a
/// VARIABLES section next, the step with the data table its STEP ARGUMENT.
fn generation_of(sentence: &str) -> String {
    let next = if sentence.contains('<') {
        "VARIABLES:"
    } else if sentence == "I add these items" {
        "STEP ARGUMENT:"
    } else {
        "PREVIOUS STEPS:"
    };
    format!("STEP:\n{sentence}\n\n{next}")
}

fn llm_config(base_url: &str) -> String {
    format!(
        "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n[browser]\ntimeout = 2\n\
         [llm]\nprovider = \"openai\"\nmodel = \"fake\"\nbase_url = \"{base_url}\"\n"
    )
}

#[test]
fn a_cucumber_suite_is_generated_cached_replayed_selected_and_healed() {
    let llm = FakeLlm::start();
    // One-shot replies: a sentence generated twice (the background, the outline's steps for
    // their second row) would be an unexpected request.
    for (sentence, code) in [
        ("I open the app", OPEN),
        ("I add these items", ADD_TABLE),
        ("the list has 2 items", TWO_ITEMS),
        ("the heading says todos", HEADING),
        ("I add <item> to the list", ADD_ROW),
        ("I look at the list", LOOK),
        ("the list shows <item>", SHOWS_ROW),
    ] {
        llm.on_contains(&generation_of(sentence), fenced(code).as_str());
    }
    let out = Test::new()
        .config(&llm_config(&llm.base_url()))
        .scenario(SCENARIO, FEATURE)
        .page("index.html", PAGE)
        .args(&["run", "-j", "2"])
        .run()
        .assert_exit(0)
        .stdout_line("3 passed, 0 failed");
    assert!(llm.take_unexpected().is_empty());
    // The LLM is told how the step's code reads its data table, and what the table holds.
    let table = llm
        .requests()
        .into_iter()
        .map(|r| r.user_text())
        .find(|text| text.contains(&generation_of("I add these items")))
        .unwrap_or_default();
    assert!(
        table.contains(
            "STEP ARGUMENT:\nThe step has a data table; step code reads it as vars.dataTable"
        ) && table.contains("[[\"item\"],[\"milk\"],[\"eggs\"]]"),
        "{table}"
    );
    let cache = out.read(CACHE);
    assert_eq!(cache.matches("[[background]]").count(), 1, "{cache}");
    assert!(cache.contains("step = \"I open the app\""), "{cache}");
    // The keyword is not part of the identity; the outline's steps are one entry for both rows.
    assert!(!cache.contains("Given"), "{cache}");
    assert_eq!(cache.matches("test = \"add <item>\"").count(), 3, "{cache}");
    assert_eq!(
        cache.matches("test = \"add from a table\"").count(),
        3,
        "{cache}"
    );

    // Replayed from the cache alone.
    let out = out
        .again()
        .page("index.html", PAGE)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_line("3 passed, 0 failed");
    let out = out
        .again()
        .args(&["list", "--tag", "rows"])
        .run()
        .assert_exit(0)
        .stdout_line("scenarios/items.feature › add <item> [item=bread] @shop @rows")
        .stdout_line("scenarios/items.feature › add <item> [item=jam] @shop @rows")
        .stdout_line("2 test(s), 0 step(s) without cached code");
    // The line of an Examples row selects that row.
    let out = out
        .again()
        .args(&["list", "scenarios/items.feature:25"])
        .run()
        .assert_exit(0)
        .stdout_line("scenarios/items.feature › add <item> [item=jam] @shop @rows")
        .stdout_line("1 test(s), 0 step(s) without cached code");

    // The heading is no longer a heading: the background step rots, and is healed once for
    // every test (the text it checks stays the same: a heal may not change it).
    let llm = FakeLlm::start();
    let renamed = PAGE.replace("<h1>todos</h1>", "<p class=\"title\">todos</p>");
    let healed_open = OPEN.replace(
        "page.getByRole('heading', { name: 'todos' })",
        "page.getByText('todos', { exact: true })",
    );
    assert_ne!(healed_open, OPEN);
    llm.on_contains(
        "STEP:\nI open the app\n\nCODE:",
        "rot | the heading was renamed | regenerate the step",
    );
    llm.on_contains(
        &generation_of("I open the app"),
        fenced(&healed_open).as_str(),
    );
    llm.on_contains(
        "STEP:\nthe heading says todos\n\nCODE:",
        "product_defect | the heading no longer says todos | fix the page or the test",
    );
    out.again()
        .config(&llm_config(&llm.base_url()))
        .page("index.html", &renamed)
        .args(&["run", "-j", "1"])
        .run()
        .assert_exit(1)
        .output_count("HEALED scenarios/items.feature", 1)
        .stdout_contains("product_defect")
        .stdout_line("2 passed, 1 failed");
}

#[test]
fn a_gherkin_file_saved_as_steps_is_refused_with_the_hint_to_rename_it() {
    Test::new()
        .scenario("scenarios/items.steps", FEATURE)
        .args(&["list"])
        .run()
        .assert_exit(2)
        .stderr_contains("scenarios/items.steps:3:1: Gherkin keyword `Feature:` in a `.steps` file")
        .stderr_contains("rename the file to `.feature`");
}

#[test]
fn first_person_gherkin_sentences_are_proven_by_the_built_in_generator() {
    let feature = "Feature: items\n  Scenario: add an item\n    Given I open the app\n    \
                   When I type \"milk\" into the new item field\n    And I click the Add \
                   button\n    Then I should see \"milk\"\n";
    let out = Test::new()
        .scenario(SCENARIO, feature)
        .page("index.html", PAGE)
        .env("PRETTYPLAY_GENERATE_BUILTIN", "first")
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_contains("4 generated")
        .stdout_line("1 passed, 0 failed");
    let cache = out.read(CACHE);
    assert_eq!(cache.matches("by = \"builtin\"").count(), 4, "{cache}");
}

/// A page with a note to write and a list to add to.
const NOTES_PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>notes</title></head>
<body>
  <h1>notes</h1>
  <label>Note <textarea id="note"></textarea></label>
  <button type="button" id="save">Save</button>
  <pre data-testid="saved"></pre>
  <label>Cell <input id="cell"></label>
  <button type="button" id="add">Add</button>
  <ul aria-label="Added"></ul>
  <script>
    document.getElementById('save').onclick = () => {
      document.querySelector('[data-testid=saved]').textContent =
        document.getElementById('note').value;
    };
    document.getElementById('add').onclick = () => {
      const item = document.createElement('li');
      item.textContent = document.getElementById('cell').value;
      document.querySelector('ul').append(item);
    };
  </script>
</body></html>"#;

/// A doc string with a media type, indentation beyond its delimiter's and an escaped delimiter,
/// and a data table with Gherkin's cell escapes and a backslash that escapes nothing.
const NOTES: &str = r#"Feature: notes
  Scenario: write a note
    Given I open the notes
    When I write the note
        """json
        {"a": \"\"\"}
          indented
        """
    And I add the cells
      | a\|b | c\\d | e\x |
    Then the note and 3 cells are saved
"#;

/// The value Cucumber passes for the doc string above.
const NOTE_VALUE: &str = "{\"a\": \"\"\"}\n  indented";

const OPEN_NOTES: &str = "async function step(page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'notes' })).toBeVisible();
}";

/// Fails unless the step is passed exactly what Cucumber passes it.
const WRITE_NOTE: &str = r#"async function step(page) {
  if (vars.docString !== '{"a": """}\n  indented') {
    throw new Error('the doc string is ' + JSON.stringify(vars.docString));
  }
  await page.getByLabel('Note').fill(vars.docString);
  await page.getByRole('button', { name: 'Save' }).click();
}"#;

const ADD_CELLS: &str = r#"async function step(page) {
  const expected = JSON.stringify([['a|b', 'c\\d', 'e\\x']]);
  if (JSON.stringify(vars.dataTable) !== expected) {
    throw new Error('the data table is ' + JSON.stringify(vars.dataTable));
  }
  for (const cell of vars.dataTable[0]) {
    await page.getByLabel('Cell').fill(cell);
    await page.getByRole('button', { name: 'Add' }).click();
  }
}"#;

const SAVED: &str = "async function step(page) {
  await expect(page.getByTestId('saved')).toContainText('indented');
  await expect(page.getByRole('listitem')).toHaveCount(3);
}";

/// A fake LLM that writes the notes scenario's code, once per sentence.
fn notes_llm() -> FakeLlm {
    let llm = FakeLlm::start();
    for (sentence, next, code) in [
        ("I open the notes", "PREVIOUS STEPS:", OPEN_NOTES),
        ("I write the note", "STEP ARGUMENT:", WRITE_NOTE),
        ("I add the cells", "STEP ARGUMENT:", ADD_CELLS),
        ("the note and 3 cells are saved", "PREVIOUS STEPS:", SAVED),
    ] {
        llm.on_contains(
            &format!("STEP:\n{sentence}\n\n{next}"),
            fenced(code).as_str(),
        );
    }
    llm
}

#[test]
fn doc_strings_and_data_tables_reach_step_code_as_cucumber_passes_them_and_survive_import() {
    let llm = notes_llm();
    let out = Test::new()
        .config(&llm_config(&llm.base_url()))
        .scenario("scenarios/notes.feature", NOTES)
        .page("index.html", NOTES_PAGE)
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    assert!(llm.take_unexpected().is_empty());
    // The model is shown the doc string's value, without its media type.
    let note = llm
        .requests()
        .into_iter()
        .map(|r| r.user_text())
        .find(|text| text.contains("STEP:\nI write the note\n"))
        .unwrap_or_default();
    assert!(
        note.contains(
            "STEP ARGUMENT:\nThe step has a doc string; step code reads it as vars.docString"
        ) && note.contains(NOTE_VALUE)
            && !note.contains("json\n"),
        "{note}"
    );
    // Replayed from the cache, the same values reach the same code.
    let out = out
        .again()
        .page("index.html", NOTES_PAGE)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");

    // Imported, the `.steps` file passes each step the same values: the code, generated again
    // for the new file, throws on any other.
    let out = out
        .again()
        .args(&["import", "scenarios/notes.feature", "--output", "native"])
        .run()
        .assert_exit(0)
        .stdout_contains("native/notes.steps (1 tests, 4 sentences)");
    assert_eq!(
        out.read("native/notes.steps"),
        "# Imported by `prettyplay import` from scenarios/notes.feature.\n\n\
         test: write a note\n  I open the notes\n  I write the note\n    \"\"\"json\n    \
         {\"a\": \\\"\\\"\\\"}\n      indented\n    \"\"\"\n  I add the cells\n    \
         | a\\|b | c\\\\d | e\\\\x |\n  the note and 3 cells are saved\n"
    );
    let llm = notes_llm();
    out.again()
        .config(&llm_config(&llm.base_url()))
        .page("index.html", NOTES_PAGE)
        .args(&["run", "native/notes.steps"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    assert!(llm.take_unexpected().is_empty());
}
