//! `prettyplay import` through the binary: Playwright's own TodoMVC plan (its test-planner
//! agent's output, committed under tests/fixtures/playwright-plans) becomes a `.steps` file that
//! loads and lists, and a `.feature` file becomes a `.steps` file with the same tests; an
//! existing file is never overwritten; a FIFO or a file over the `.steps` limit is refused.

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

#[test]
fn a_feature_or_plan_that_is_a_fifo_or_too_big_is_refused_without_reading_it() {
    let test = Test::new();
    let specs = test.project_dir().join("specs");
    std::fs::create_dir_all(&specs).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(specs.join("pipe.feature"))
        .status()
        .unwrap();
    assert!(made.success());
    // Sparse: its size is what counts, and it takes no disk.
    let big = std::fs::File::create(specs.join("big.plan.md")).unwrap();
    big.set_len(10 * 1024 * 1024 + 1).unwrap();
    let out = test
        .args(&["import", "specs/pipe.feature"])
        .run()
        .assert_exit(2)
        .output_contains("cannot read ")
        .output_contains("specs/pipe.feature")
        .output_contains(
            "it is a FIFO (named pipe), not a regular file: imported files must be regular files",
        );
    out.again()
        .args(&["import", "specs/big.plan.md"])
        .run()
        .assert_exit(2)
        .output_contains("specs/big.plan.md")
        .output_contains(
            "it is 10485761 bytes, over the limit of 10485760 bytes (10 MiB) for imported files",
        );
}
