//! The authoring loop end to end: `explain FILE:LINE` runs a test's earlier steps in a real
//! headless Chromium on a page served on 127.0.0.1 and explains the step at the line on the page
//! they leave, with `try:` rewrites for a decline; `list --check` names the sentences no shape
//! of the built-in generator reads, without a browser.

use crate::support::Test;

/// A todo list: each added todo is a list item with its text and a Delete button.
const TODOS: &str = "<!doctype html><title>todos</title>\
    <label>New todo <input id=new></label><button id=add>Add</button><ul id=list></ul>\
    <script>document.getElementById('add').onclick = () => {\
      const field = document.getElementById('new');\
      const item = document.createElement('li');\
      item.append(field.value + ' ');\
      const remove = document.createElement('button');\
      remove.textContent = 'Delete';\
      remove.onclick = () => item.remove();\
      item.append(remove);\
      document.getElementById('list').append(item);\
      field.value = '';\
    };</script>";

/// Two todos are added, then one is deleted (line 8). Line 3 is cached code for a sentence
/// the built-in generator does not read, so only the cache can run it.
const SCENARIO: &str = "background:
  open the app

test: add and delete
  put my usual drink on the list
  type \"walk the dog\" into the \"New todo\" field
  click the \"Add\" button
  click the \"Delete\" button of \"buy milk\"
";

/// The cached code of line 5.
const USUAL_DRINK: &str = "async function step(page) {\n  await page.locator('#new').fill('buy milk');\n  await page.locator('#add').click();\n}";

fn todos(scenario: &str) -> Test {
    Test::new()
        .page("index.html", TODOS)
        .scenario("scenarios/todo.steps", scenario)
        .cached(
            "scenarios/todo.steps",
            "add and delete",
            "put my usual drink on the list",
            1,
            USUAL_DRINK,
        )
}

#[test]
fn explain_file_line_explains_a_step_on_the_page_its_earlier_steps_leave() {
    let out = todos(SCENARIO)
        .args(&["explain", "scenarios/todo.steps:8", "--execute"])
        .run()
        .assert_exit(0)
        .stdout_contains(
            "async function step(page) {\n  await page.getByRole('listitem').filter({ hasText: \
             'buy milk' }).getByRole('button', { name: 'Delete', exact: true }).click();\n}\n",
        )
        .stdout_contains("\nexecuted: passed\n");
    // Explain reads the cache and writes nothing to it: the file is as the harness wrote it,
    // with the one entry, and the steps it wrote code for are not in it.
    let cache = out.read("cache/scenarios/todo.steps.toml");
    assert_eq!(cache.matches("[[").count(), 1, "{cache}");
    assert!(!cache.contains("walk the dog"), "{cache}");
    assert!(!cache.contains("open the app"), "{cache}");
}

#[test]
fn explain_file_line_declines_with_rewrites_each_of_which_explains() {
    // Line 8 names a button both todos have.
    let ambiguous = SCENARIO.replace(
        "click the \"Delete\" button of \"buy milk\"",
        "click Delete",
    );
    let out = todos(&ambiguous)
        .args(&["explain", "scenarios/todo.steps:8"])
        .run()
        .assert_exit(1)
        .stdout_contains("declined: 2 elements on the page could be \"Delete\"")
        .stdout_contains(
            "try: click the \"Delete\" button of \"buy milk\"\n\
             try: click the \"Delete\" button of \"walk the dog\"\n",
        )
        // The candidates it weighed, without -v.
        .stdout_contains("\n  - button \"Delete\"\n  - button \"Delete\"\n");
    let tries: Vec<String> = out
        .stdout()
        .lines()
        .filter_map(|line| line.strip_prefix("try: "))
        .map(str::to_owned)
        .collect();
    assert_eq!(tries.len(), 2, "{}", out.stdout());
    for rewrite in tries {
        let rewritten = SCENARIO.replace("click the \"Delete\" button of \"buy milk\"", &rewrite);
        todos(&rewritten)
            .args(&["explain", "scenarios/todo.steps:8", "--execute"])
            .run()
            .assert_exit(0)
            .stdout_contains("getByRole('button', { name: 'Delete', exact: true }).click();")
            .stdout_contains("\nexecuted: passed\n");
    }
}

#[test]
fn explain_file_line_names_the_earlier_step_that_did_not_run() {
    // Line 7 names a button the page does not have.
    let declined = SCENARIO.replace("click the \"Add\" button", "click the \"Save\" button");
    todos(&declined)
        .args(&["explain", "scenarios/todo.steps:8"])
        .run()
        .assert_exit(1)
        .stdout_contains(
            "not explained: scenarios/todo.steps:8 is reached only after an earlier step that \
             did not run:\n  scenarios/todo.steps:7: click the \"Save\" button\n  it has no \
             cached code and the built-in generator declined it: no element on the page is",
        )
        .output_not_contains("async function");
    // Cached code that fails is said as such.
    Test::new()
        .page("index.html", TODOS)
        .scenario("scenarios/todo.steps", SCENARIO)
        .cached(
            "scenarios/todo.steps",
            "add and delete",
            "put my usual drink on the list",
            1,
            "async function step(page) {\n  throw new Error('the drink ran out');\n}",
        )
        .args(&["explain", "scenarios/todo.steps:6"])
        .run()
        .assert_exit(1)
        .stdout_contains("  scenarios/todo.steps:5: put my usual drink on the list\n")
        .stdout_contains("  its cached code failed (")
        .stdout_contains("the drink ran out");
}

#[test]
fn explain_file_line_at_a_line_without_a_step_is_a_usage_error() {
    todos(SCENARIO)
        .args(&["explain", "scenarios/todo.steps:4"])
        .run()
        .assert_exit(2)
        .stderr_contains(
            "scenarios/todo.steps:4: line 4 is not a step line (it is the header of the test \
             \"add and delete\"): give the line of a step sentence (this file has steps at \
             lines 2, 5, 6, 7, 8)",
        );
    todos(SCENARIO)
        .args(&["explain", "scenarios/nope.steps:3"])
        .run()
        .assert_exit(2)
        .stderr_contains("there is no scenario file scenarios/nope.steps");
}

/// A Gherkin outline: explain reads `.feature` files as `run` does, and a step of an outline is
/// explained for the first row of its examples. Only that row's todo, "bread", has a Delete
/// button of its own on the page: with the second row's the step would decline.
#[test]
fn explain_file_line_reads_a_feature_and_takes_the_first_examples_row() {
    let feature = "Feature: todos
  Background:
    Given I open the app

  Scenario Outline: add <item>
    When I type <item> into the \"New todo\" field
    And I click the \"Add\" button
    Then I click the \"Delete\" button of \"bread\"

    Examples:
      | item  |
      | bread |
      | jam   |
";
    let out = Test::new()
        .page("index.html", TODOS)
        .scenario("scenarios/todo.feature", feature)
        .args(&["explain", "scenarios/todo.feature:8", "-v", "--execute"])
        .run()
        .assert_exit(0)
        .stdout_contains(
            "filter({ hasText: 'bread' }).getByRole('button', { name: 'Delete', exact: true })",
        )
        .stdout_contains("\nexecuted: passed\n");
    assert!(!out.stdout().contains("jam"), "{}", out.stdout());
}

/// A test that starts from a saved state: its setup test runs first, in a page of its own, and
/// the step is explained on a page opened from the state it saved. Without it, the page would
/// have no "Sign out" button.
#[test]
fn explain_file_line_runs_the_setup_test_a_saved_state_comes_from() {
    const APP: &str = "<!doctype html><title>app</title><div id=app></div><script>\
        const app = document.getElementById('app');\
        if (localStorage.getItem('user')) {\
          app.innerHTML = '<p>Signed in</p><button>Sign out</button>';\
        } else {\
          const button = document.createElement('button');\
          button.textContent = 'Sign in';\
          button.onclick = () => { localStorage.setItem('user', 'ann'); location.reload(); };\
          app.append(button);\
        }</script>";
    let suite = "test: sign in [saves=user]
  open the app
  click the \"Sign in\" button
  the page shows \"Signed in\"

test: sign out [state=user]
  open the app
  click the \"Sign out\" button
";
    Test::new()
        .page("index.html", APP)
        .scenario("scenarios/app.steps", suite)
        .args(&["explain", "scenarios/app.steps:8"])
        .run()
        .assert_exit(0)
        .stdout_contains("getByRole('button', { name: 'Sign out', exact: true }).click();");
    // A setup step that does not run is named in its own file and line.
    Test::new()
        .page("index.html", APP)
        .scenario(
            "scenarios/app.steps",
            &suite.replace(
                "click the \"Sign in\" button",
                "click the \"Log in\" button",
            ),
        )
        .args(&["explain", "scenarios/app.steps:8"])
        .run()
        .assert_exit(1)
        .stdout_contains("  scenarios/app.steps:3: click the \"Log in\" button\n");
}

#[test]
fn list_check_names_the_uncached_sentences_no_shape_reads() {
    let suite = "background:
  open the app

test: one
  click the \"Add\" button
  make the list pretty
  do the cached magic

test: rows
  type <who> into the \"Name\" field
  wiggle <who>
  examples:
    | who |
    | ann |
    | bob |
";
    let project = || {
        Test::new()
            .scenario("scenarios/a.steps", suite)
            .scenario(
                "scenarios/b.steps",
                "test: fine\n  open the app\n  the page shows \"hello\"\n",
            )
            .cached(
                "scenarios/a.steps",
                "one",
                "do the cached magic",
                1,
                "async function step(page) {}",
            )
    };
    let shapes = "the sentence is none of the built-in shapes (open, click, type into, check, \
        select, press, hover, is shown, shows, has value, is checked, there are N, the URL, the \
        title, METHOD /path)";
    let out = project().args(&["list", "--check"]).run().assert_exit(1);
    assert_eq!(
        out.stdout(),
        format!(
            "scenarios/a.steps:6: make the list pretty: {shapes}\n\
             scenarios/a.steps:11: wiggle <who>: {shapes}\n\
             5 of 7 sentence(s) without cached code read by the built-in generator; 1 cached, \
             not checked\n"
        )
    );
    let out = project()
        .args(&["list", "--check", "--format", "json"])
        .run()
        .assert_exit(1);
    let json: serde_json::Value = serde_json::from_str(out.stdout()).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "version": 1,
            "unread": [
                {"file": "scenarios/a.steps", "line": 6, "sentence": "make the list pretty",
                 "why": shapes},
                {"file": "scenarios/a.steps", "line": 11, "sentence": "wiggle <who>",
                 "why": shapes},
            ],
            "read": 5,
            "checked": 7,
            "cached": 1,
        })
    );
    project()
        .args(&["list", "--check", "scenarios/b.steps"])
        .run()
        .assert_exit(0)
        .stdout_line(
            "2 of 2 sentence(s) without cached code read by the built-in generator; 0 cached, \
             not checked",
        );
    project()
        .args(&["list", "--check", "scenarios/missing.steps"])
        .run()
        .assert_exit(2);
}
