//! `prettyplay import` through the binary: Playwright's own TodoMVC plan (its test-planner
//! agent's output, committed under tests/fixtures/playwright-plans) becomes a `.steps` file that
//! loads and lists, and a `.feature` file becomes a `.steps` file with the same tests; an
//! existing file is never overwritten; a FIFO or a file over the `.steps` limit is refused. Bad
//! files among good ones: every file is tried, the good ones are written, every error is named
//! at its file and line, and the exit code is 2. A hostile plan writes no raw control
//! character: comments show them as escapes, and a sentence holding one is written with the
//! escape under a comment that says so.

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
            "features/outline.feature",
            "Feature: t\n  Scenario Outline: s <a>\n    Given <a>\n    Examples:\n      | a |\n      \
             | 1 |\n    Examples:\n      | b | a |\n      | 2 | 3 |\n",
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
        .args(&["import", "features/outline.feature"])
        .run()
        .assert_exit(2)
        .stderr_contains(
            "features/outline.feature:9: the outline `s <a>` has examples tables with other \
             columns or tags",
        );
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

/// A plan whose title and file names hold terminal control sequences (clear the screen, set the
/// window title, a C1 CSI, a right-to-left override): they may only be shown as escapes.
const HOSTILE_PLAN: &str = "# Plan \u{1b}[2J\u{1b}]0;pwned\u{7}\n\n**Seed:** `seed\u{9b}31m.spec.ts`\n\n\
### 1. Group \u{1b}[5m\n\n#### 1.1. adds a todo\n\n**File:** `tests/a\u{202e}b.spec.ts`\n\n**Steps:**\n  \
1. Add a todo 'milk'\n    - expect: The list shows 'milk'\n";

#[test]
fn bad_files_among_good_ones_are_all_named_and_the_good_ones_imported() {
    let feature = "Feature: notes\n  Scenario: write\n    Given the note\n      \"\"\"\n      \
                   hello\n      \"\"\"\n    And the cells\n      | a |\n";
    let out = Test::new()
        .write("in/good.feature", feature)
        .write("in/broken.feature", "Feature: b\n  Scenario: s\n    Given x\n    Whenever y\n")
        .write(
            "in/escape.plan.md",
            "#### 1.1. t\n\n**Steps:**\n  1. Open the app\n  2. Type \u{1b}[2J into the field\n",
        )
        .write("in/hostile.plan.md", HOSTILE_PLAN)
        .write("in/notes.txt", "not a plan")
        .write(
            "in/outline.feature",
            "Feature: t\n  Scenario Outline: s <a>\n    Given <a>\n    Examples:\n      | a |\n      \
             | 1 |\n    Examples:\n      | b | a |\n      | 2 | 3 |\n",
        )
        .args(&[
            "import",
            "in/good.feature",
            "in/broken.feature",
            "in/escape.plan.md",
            "in/hostile.plan.md",
            "in/notes.txt",
            "in/outline.feature",
        ])
        .run()
        .assert_exit(2)
        .stdout_contains("imported in/good.feature -> scenarios/good.steps (1 tests, 2 sentences)")
        .stdout_contains("imported in/hostile.plan.md -> scenarios/hostile.steps (1 tests, 3 sentences)")
        .stdout_contains("imported in/escape.plan.md -> scenarios/escape.steps (1 tests, 2 sentences)")
        .stdout_contains(
            "control characters of in/escape.plan.md are written as escapes (`\\x1b`) in \
             scenarios/escape.steps",
        )
        .stderr_contains("3 of 6 files were not imported:")
        .stderr_contains("in/broken.feature:4:5: not valid Gherkin")
        .stderr_contains(
            "in/outline.feature:9: the outline `s <a>` has examples tables with other columns",
        )
        .stderr_contains("in/notes.txt is neither a Playwright plan");
    assert!(!out.exists("scenarios/broken.steps") && !out.exists("scenarios/outline.steps"));
    // A sentence's control character is written as its escape, under a comment that says so.
    let escaped = out.read("scenarios/escape.steps");
    assert!(
        escaped.ends_with(
            "  Open the app\n  # The next line holds control characters of the source, written \
             as escapes (`\\x1b`, `\\u{202e}`) that are now its text.\n  Type \\x1b[2J into \
             the field\n"
        ),
        "{escaped}"
    );
    assert_eq!(
        out.read("scenarios/good.steps"),
        "# Imported by `prettyplay import` from in/good.feature.\n\ntest: write\n  the note\n    \
         \"\"\"\n    hello\n    \"\"\"\n  the cells\n    | a |\n"
    );
    // Nothing the terminal would act on is written raw; the comments show it as escapes.
    let hostile = out.read("scenarios/hostile.steps");
    assert!(
        !hostile.chars().any(|c| (c.is_control() && c != '\n')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')),
        "a raw control character in {hostile:?}"
    );
    assert!(
        hostile.contains("# Plan \\x1b[2J\\x1b]0;pwned\\x07\n"),
        "{hostile}"
    );
    assert!(hostile.contains("(seed\\u{9b}31m.spec.ts)"), "{hostile}");
    assert!(
        hostile.contains("# Playwright's test: tests/a\\u{202e}b.spec.ts\n"),
        "{hostile}"
    );
    assert!(
        hostile.contains("test: adds a todo @group-5m\n"),
        "{hostile}"
    );
    // The written files load.
    out.again()
        .args(&[
            "list",
            "scenarios/good.steps",
            "scenarios/hostile.steps",
            "scenarios/escape.steps",
        ])
        .run()
        .assert_exit(0)
        .stdout_contains("3 test(s)");
}
