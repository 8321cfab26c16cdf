//! Unit tests of `parse.rs`: the documented grammar, occurrences, options and every error.

use super::*;

fn ok(source: &str) -> Vec<Test> {
    match parse("scenarios/todo.steps", source.as_bytes()) {
        Ok(parsed) => parsed.tests,
        Err(e) => panic!("unexpected error:\n{e}"),
    }
}

fn err(source: &str) -> ScenarioError {
    match parse("scenarios/todo.steps", source.as_bytes()) {
        Ok(tests) => panic!("expected an error, got {tests:?}"),
        Err(e) => e,
    }
}

fn sentences(test: &Test) -> Vec<&str> {
    test.steps.iter().map(|s| s.sentence.as_str()).collect()
}

/// (line, col, message) of a single `Parse` error.
fn at(error: &ScenarioError) -> (usize, usize, &str) {
    match error {
        ScenarioError::Parse {
            line, col, message, ..
        } => (*line, *col, message.as_str()),
        other => panic!("expected a parse error, got {other:?}"),
    }
}

#[test]
fn parses_the_documented_example() {
    let tests = ok("# a comment line\n\
         test: add a todo @smoke\n  \
           open the app\n  \
           type \"buy milk\" into the new todo field and press Enter\n  \
           the list shows \"buy milk\"        [tries=3]\n");
    assert_eq!(
        tests,
        vec![Test {
            name: "add a todo".into(),
            line: 2,
            tags: vec!["smoke".into()],
            state: None,
            saves: None,
            example: None,
            steps: vec![
                Step {
                    sentence: "open the app".into(),
                    line: 3,
                    occurrence: 1,
                    tries: None,
                    argument: None
                },
                Step {
                    sentence: "type \"buy milk\" into the new todo field and press Enter".into(),
                    line: 4,
                    occurrence: 1,
                    tries: None,
                    argument: None
                },
                Step {
                    sentence: "the list shows \"buy milk\"".into(),
                    line: 5,
                    occurrence: 1,
                    tries: Some(3),
                    argument: None
                },
            ],
        }]
    );
}

#[test]
fn returns_all_tests_in_file_order() {
    let tests = ok("test: b\n  one\n\ntest: a\n  two\n  three\n");
    let names: Vec<_> = tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["b", "a"]);
    assert_eq!(sentences(&tests[1]), ["two", "three"]);
    assert_eq!(tests[1].line, 4);
}

#[test]
fn tags_are_only_taken_from_the_end_of_the_header() {
    let tests = ok("test: a @b c @d @e\n  step\n");
    assert_eq!(tests[0].name, "a @b c");
    assert_eq!(tests[0].tags, ["d", "e"]);
}

#[test]
fn a_lone_at_sign_is_not_a_tag_and_duplicate_tags_collapse() {
    let tests = ok("test: email me @ home @x @x\n  step\n");
    assert_eq!(tests[0].name, "email me @ home");
    assert_eq!(tests[0].tags, ["x"]);
}

#[test]
fn blank_lines_comments_and_indentation_are_ignored() {
    let tests = ok("\n   # indented comment\n\ttest:   spaced name  \n\n\t  click #submit  \n");
    assert_eq!(tests[0].name, "spaced name");
    assert_eq!(sentences(&tests[0]), ["click #submit"]);
    assert_eq!(tests[0].steps[0].line, 5);
}

#[test]
fn occurrences_count_identical_sentences_per_test() {
    let tests = ok("test: a\n  click ok\n  wait\n  click ok\n  click ok\ntest: b\n  click ok\n");
    let occ: Vec<_> = tests[0].steps.iter().map(|s| s.occurrence).collect();
    assert_eq!(occ, [1, 1, 2, 3]);
    assert_eq!(tests[1].steps[0].occurrence, 1);
}

#[test]
fn options_are_stripped_and_several_are_allowed() {
    let tests = ok("test: a\n  see it [tries=2]\n  see it  [ tries = 7 ]  \n");
    assert_eq!(sentences(&tests[0]), ["see it", "see it"]);
    assert_eq!(tests[0].steps[0].tries, Some(2));
    assert_eq!(tests[0].steps[1].tries, Some(7));
    // Options count in occurrences by sentence only.
    assert_eq!(tests[0].steps[1].occurrence, 2);
}

#[test]
fn brackets_that_are_not_options_stay_in_the_sentence() {
    let tests = ok(
        "test: a\n  the title reads [sic]\n  click [x=1] then save\n  shows \"[a=b]\"\n  see [sic] [tries=2]\n",
    );
    assert_eq!(
        sentences(&tests[0]),
        [
            "the title reads [sic]",
            "click [x=1] then save",
            "shows \"[a=b]\"",
            "see [sic]"
        ]
    );
    assert_eq!(tests[0].steps[3].tries, Some(2));
}

#[test]
fn header_less_file_is_one_test_named_after_the_stem() {
    let tests = ok("# setup\n  open the app\n  click add\n");
    assert_eq!(tests.len(), 1);
    assert_eq!(tests[0].name, "todo");
    assert_eq!(tests[0].line, 2);
    assert!(tests[0].tags.is_empty());
    assert_eq!(sentences(&tests[0]), ["open the app", "click add"]);
}

#[test]
fn crlf_line_endings_and_bom_are_accepted() {
    let tests = ok("\u{feff}test: a @t\r\n  open it [tries=2]\r\n  close it\r\n");
    assert_eq!(tests[0].name, "a");
    assert_eq!(tests[0].tags, ["t"]);
    assert_eq!(sentences(&tests[0]), ["open it", "close it"]);
    assert_eq!(tests[0].steps[0].tries, Some(2));
}

#[test]
fn duplicate_test_name_displays_location_snippet_and_hint() {
    let e = err("test: x\n  one\n\ntest: x\n  two\n");
    assert_eq!(
        e.to_string(),
        "scenarios/todo.steps:4:7: duplicate test name `x`\n  \
         |\n\
         4 | test: x\n  \
         |       ^\n  \
         = hint: the first `test: x` is at line 1; test names must be unique within a file"
    );
}

#[test]
fn unknown_option_displays_location_snippet_and_hint() {
    let e = err("test: a\n  see it [retries=3]\n");
    assert_eq!(
        e.to_string(),
        "scenarios/todo.steps:2:10: unknown step option `retries`\n  \
         |\n\
         2 |   see it [retries=3]\n  \
         |          ^\n  \
         = hint: known options: `tries`"
    );
}

#[test]
fn malformed_tries_values_are_errors() {
    for (line, col) in [
        ("  a [tries=0]", 12),
        ("  a [tries=x]", 12),
        ("  a [tries=]", 12),
    ] {
        let e = err(&format!("test: t\n{line}\n"));
        let value = &line[11..line.len() - 1];
        assert_eq!(
            at(&e),
            (
                2,
                col,
                format!("invalid value `{value}` for step option `tries`").as_str()
            ),
            "{line}"
        );
    }
    let e = err("test: t\n  a [tries=99999999999]\n");
    assert_eq!(
        at(&e).2,
        "invalid value `99999999999` for step option `tries`"
    );
    let e = err("test: t\n  a [tries=-1]\n");
    assert_eq!(at(&e).2, "invalid value `-1` for step option `tries`");
}

#[test]
fn repeated_option_is_an_error() {
    let e = err("test: t\n  a [tries=1] [tries=2]\n");
    assert_eq!(at(&e), (2, 15, "step option `tries` is given twice"));
}

#[test]
fn options_without_sentence_is_an_error() {
    let e = err("test: t\n  [tries=2]\n");
    assert_eq!(at(&e), (2, 3, "step options without a step sentence"));
}

#[test]
fn empty_test_name_is_an_error() {
    let e = err("test:\n  a\n");
    assert_eq!(at(&e), (1, 6, "empty test name"));
    let e = err("test: @smoke\n  a\n");
    assert_eq!(at(&e), (1, 7, "empty test name"));
}

#[test]
fn test_without_steps_is_an_error() {
    let e = err("test: a\n  one\ntest: empty\n# nothing\n");
    assert_eq!(at(&e), (3, 1, "test `empty` has no steps"));
    assert!(
        e.to_string()
            .ends_with("hint: add step sentences on the lines below `test: empty`")
    );
}

#[test]
fn step_before_the_first_header_is_an_error() {
    let e = err("  stray step\n  another\ntest: a\n  one\n");
    assert_eq!(at(&e), (1, 3, "step outside a test"));
}

#[test]
fn empty_or_comment_only_file_has_no_tests() {
    for source in ["", "\n\n", "# only a comment\n"] {
        let e = err(source);
        assert!(matches!(e, ScenarioError::NoTests { .. }), "{source:?}");
        assert_eq!(
            e.to_string(),
            "scenarios/todo.steps: no tests in file\n  \
             = hint: add a `test: NAME` line followed by step sentences, or delete the file"
        );
    }
}

#[test]
fn non_utf8_reports_the_line_and_column_of_the_first_bad_byte() {
    let source = b"test: a\n  caf\xc3\xa9 \xff here\n";
    let e = parse("x.steps", source).expect_err("not utf-8");
    assert_eq!(at(&e), (2, 8, "invalid UTF-8 (byte 0xff)"));
    assert!(e.to_string().contains("2 |   café \u{fffd} here\n"), "{e}");
}

#[test]
fn every_error_in_a_file_is_reported() {
    let e = err("test: a\n  x [retries=1]\ntest: a\n  y\ntest: b\n");
    let ScenarioError::Multiple(errors) = &e else {
        panic!("expected several errors, got {e:?}");
    };
    let found: Vec<_> = errors.iter().map(at).collect();
    assert_eq!(
        found,
        [
            (2, 5, "unknown step option `retries`"),
            (3, 7, "duplicate test name `a`"),
            (5, 1, "test `b` has no steps"),
        ]
    );
    assert!(
        e.to_string()
            .starts_with("3 errors in scenario files:\n\nscenarios/todo.steps:2:5: ")
    );
}

#[test]
fn variables_stay_in_the_sentence_and_a_malformed_one_is_an_error() {
    let tests = ok("test: a\n  type ${PASSWORD} into the field\n");
    assert_eq!(sentences(&tests[0]), ["type ${PASSWORD} into the field"]);
    let e = err("test: a\n  type ${pass word} here\n");
    assert_eq!(
        at(&e),
        (2, 8, "malformed variable: `${` must start `${NAME}`")
    );
}

#[test]
fn caret_follows_tabs() {
    let e = err("test: a\n\tx [bad=1]\n");
    assert!(
        e.to_string().contains("2 | \tx [bad=1]\n  | \t  ^\n"),
        "{e}"
    );
}

#[test]
fn header_options_name_a_saved_state_and_one_to_start_from() {
    let tests = ok("test: sign in [saves=admin] @auth\n  sign in\n\
         test: order [state=admin]\n  order\n\
         test: rows [state=admin]\n  add <x>\n  examples:\n    | x |\n    | 1 |\n    | 2 |\n");
    assert_eq!(tests[0].name, "sign in");
    assert_eq!(tests[0].tags, ["auth"]);
    assert_eq!(
        (tests[0].saves.as_deref(), tests[0].state.as_deref()),
        (Some("admin"), None)
    );
    assert_eq!(
        (tests[1].saves.as_deref(), tests[1].state.as_deref()),
        (None, Some("admin"))
    );
    // Every row of a table starts from the header's state.
    assert!(
        tests[2..]
            .iter()
            .all(|t| t.state.as_deref() == Some("admin"))
    );
}

#[test]
fn header_option_errors_say_where_and_what_to_do() {
    let cases = [
        (
            "test: a [State=x]\n  x\n",
            1,
            9,
            "test option `State` must be written in lowercase",
        ),
        (
            "test: a [saves=]\n  x\n",
            1,
            16,
            "empty state name in `[saves=]`",
        ),
        (
            "test: cart @smoke[state=u]\n  x\n",
            1,
            18,
            "a test option in the middle of the header",
        ),
        (
            "test: cart [state=u] # note\n  x\n",
            1,
            12,
            "a test option in the middle of the header",
        ),
        (
            "test: cart [state=u].\n  x\n",
            1,
            12,
            "a test option in the middle of the header",
        ),
        (
            "test: cart [state:u]\n  x\n",
            1,
            12,
            "a test option in the middle of the header",
        ),
        (
            "test: a [saves=x] [saves=y]\n  x\n",
            1,
            19,
            "test option `saves` is given twice",
        ),
        (
            "test: a [saves=../x]\n  x\n",
            1,
            16,
            "invalid state name `../x`",
        ),
        (
            "test: a [saves=x] [state=x]\n  x\n",
            1,
            9,
            "a test cannot start from the state `x` it saves",
        ),
        (
            "test: a [saves=x]\n  add <v>\n  examples:\n    | v |\n    | 1 |\n",
            1,
            1,
            "a test with an `examples:` table cannot save state `x`",
        ),
    ];
    for (source, line, col, message) in cases {
        let error = err(source);
        assert_eq!(at(&error), (line, col, message), "{source}");
    }
    // Another key stays in the name, as before header options existed.
    let tests = ok("test: buy [item=milk]\n  x\ntest: b [tries=2]\n  x\n");
    assert_eq!(tests[0].name, "buy [item=milk]");
    assert_eq!(tests[1].name, "b [tries=2]");
}

#[test]
fn clear_mistakes_are_errors_at_their_column_with_a_hint() {
    // A Gherkin file saved as `.steps`: one error says so, not one per line.
    let error = err("Feature: todos\n  Scenario: add\n    Given I open the app\n");
    assert_eq!(
        at(&error),
        (1, 1, "Gherkin keyword `Feature:` in a `.steps` file")
    );
    assert!(
        error.to_string().contains("rename the file to `.feature`"),
        "{error}"
    );
    let error = err("test add a todo\n  open the app\n");
    assert_eq!(at(&error), (1, 1, "test header without its colon"));
    let error = err("test: add\n  type \"milk into the field\n");
    assert_eq!(at(&error), (2, 8, "unclosed quote"));
    assert!(
        error.to_string().contains("= hint: close the quoted text"),
        "{error}"
    );
}
