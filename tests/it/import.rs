//! `prettyplay import` through the binary: Playwright's own TodoMVC plan (its test-planner
//! agent's output, committed under tests/fixtures/playwright-plans) becomes a `.steps` file that
//! loads and lists, and a `.feature` file becomes a `.steps` file with the same tests; an
//! existing file is never overwritten.

use crate::support::{Test, repo_dir};

#[test]
fn playwrights_todomvc_plan_imports_into_a_steps_file_that_loads() {
    let plan = repo_dir().join("tests/fixtures/playwright-plans/basic-operations.plan.md");
    let out = Test::new()
        .args(&["import", plan.to_str().unwrap()])
        .run()
        .assert_exit(0)
        .stdout_contains("scenarios/basic-operations.steps (22 tests, 178 sentences)");
    let steps = out.read("scenarios/basic-operations.steps");
    assert!(steps.contains("background:\n  open the app\n"), "{steps}");
    assert!(
        steps.contains(
            "test: should-add-single-todo @adding-todos\n  Navigate to the TodoMVC application\n  \
             The application loads successfully\n"
        ),
        "{steps}"
    );
    let out = out
        .again()
        .args(&["list", "--tag", "persistence"])
        .run()
        .assert_exit(0)
        .stdout_contains(
            "scenarios/basic-operations.steps › should-persist-todos-after-page-reload",
        );
    // A second import finds the file there and leaves it alone.
    out.again()
        .args(&["import", plan.to_str().unwrap()])
        .run()
        .assert_exit(2)
        .stderr_contains("basic-operations.steps exists; import never overwrites a file");
}

#[test]
fn a_feature_imports_with_its_tests_and_an_unportable_one_is_refused() {
    let feature = "Feature: todos\n  Background:\n    Given I open the app\n\n  @smoke\n  \
                   Scenario Outline: add <item>\n    When I add <item>\n    Examples:\n      \
                   | item |\n      | milk |\n";
    let out = Test::new()
        .write("features/todos.feature", feature)
        .write(
            "features/table.feature",
            "Feature: t\n  Scenario: s\n    Given these\n      | a |\n",
        )
        .args(&["import", "features/todos.feature", "--output", "native"])
        .run()
        .assert_exit(0)
        .stdout_contains("native/todos.steps (1 tests, 2 sentences)");
    assert_eq!(
        out.read("native/todos.steps"),
        "# Imported by `prettyplay import` from features/todos.feature.\n\nbackground:\n  I open \
         the app\n\ntest: add <item> @smoke\n  I add <item>\n  examples:\n    | item |\n    | \
         milk |\n"
    );
    out.again()
        .args(&["import", "features/table.feature"])
        .run()
        .assert_exit(2)
        .stderr_contains("features/table.feature:3: the step `these` has a data table");
}
