use super::*;

fn parsed(source: &str) -> Parsed {
    parse_feature("features/todo.feature", source.as_bytes())
        .unwrap_or_else(|e| panic!("parses:\n{e}"))
}

fn error(source: &str) -> String {
    parse_feature("features/todo.feature", source.as_bytes())
        .expect_err("an error")
        .to_string()
}

fn sentences(steps: &[Step]) -> Vec<(&str, usize, u32)> {
    steps
        .iter()
        .map(|s| (s.sentence.as_str(), s.line, s.occurrence))
        .collect()
}

const TODOS: &str = "\
# A comment before the feature.
@todo
Feature: todos
  The description of the feature is ignored,
  over several lines.

  Background:
    Given I open the app

  @smoke
  Scenario: add one
    When I type \"buy milk\" into the new todo field and press Enter
    # A comment between steps.
    Then the list shows \"buy milk\"
    And the counter shows 1 item left
    But the list does not show \"eggs\"
    * the counter shows 1 item left

  Scenario Outline: add <item>
    When I add a todo <item>
    Then the list shows <item>

    @fast
    Examples: short
      | item |
      | milk |
      | eggs |

    Examples:
      | item  |
      | bread |

  Scenario: import a list
    Given the todos
      | title    | done  |
      | buy milk | false |
    When I paste
      \"\"\"
      first line
        indented line
      \"\"\"
    Then the list shows 2 items
";

#[test]
fn a_feature_maps_onto_background_tests_rows_and_tags() {
    let parsed = parsed(TODOS);
    assert_eq!(sentences(&parsed.background), [("I open the app", 8, 1)]);
    let names: Vec<_> = parsed
        .tests
        .iter()
        .map(|t| (t.name.as_str(), t.line, t.tags.clone()))
        .collect();
    assert_eq!(
        names,
        [
            ("add one", 11, vec!["todo".to_owned(), "smoke".to_owned()]),
            (
                "add <item> [item=milk]",
                19,
                vec!["todo".to_owned(), "fast".to_owned()]
            ),
            (
                "add <item> [item=eggs]",
                19,
                vec!["todo".to_owned(), "fast".to_owned()]
            ),
            ("add <item> [item=bread]", 19, vec!["todo".to_owned()]),
            ("import a list", 33, vec!["todo".to_owned()]),
        ]
    );
    // The keyword is not part of the sentence, and a repeated sentence counts its occurrences.
    assert_eq!(
        sentences(&parsed.tests[0].steps),
        [
            (
                "I type \"buy milk\" into the new todo field and press Enter",
                12,
                1
            ),
            ("the list shows \"buy milk\"", 14, 1),
            ("the counter shows 1 item left", 15, 1),
            ("the list does not show \"eggs\"", 16, 1),
            ("the counter shows 1 item left", 17, 2),
        ]
    );
    // Outline rows: the sentence as written is the identity; the row is the example.
    let row = &parsed.tests[1];
    assert_eq!(row.steps[0].sentence, "I add a todo <item>");
    let example = row.example.as_ref().expect("a row");
    assert_eq!(
        (
            example.template.as_str(),
            example.columns.as_slice(),
            example.values.as_slice(),
            example.line
        ),
        (
            "add <item>",
            &["item".to_owned()][..],
            &["milk".to_owned()][..],
            26
        )
    );
    assert_eq!(parsed.tests[2].example.as_ref().map(|e| e.line), Some(27));
    assert_eq!(parsed.tests[3].example.as_ref().map(|e| e.line), Some(31));
    // Data tables and doc strings are the steps' arguments.
    let import = &parsed.tests[4];
    assert_eq!(
        import.steps[0].argument,
        Some(StepArgument::DataTable(vec![
            vec!["title".to_owned(), "done".to_owned()],
            vec!["buy milk".to_owned(), "false".to_owned()],
        ]))
    );
    assert_eq!(
        import.steps[1].argument,
        Some(StepArgument::DocString(
            "first line\n  indented line".to_owned()
        ))
    );
    assert_eq!(import.steps[2].argument, None);
}

#[test]
fn rules_bring_their_tags_and_background_into_their_scenarios() {
    let parsed = parsed(
        "Feature: accounts\n\
         \n\
         Scenario: sign up\n\
         \x20 Given I open the sign-up page\n\
         \n\
         @admin\n\
         Rule: admins\n\
         \x20 Background:\n\
         \x20   Given I sign in as admin\n\
         \n\
         \x20 Example: ban a user\n\
         \x20   When I ban \"bob\"\n\
         \x20   Then \"bob\" is banned\n",
    );
    assert!(parsed.background.is_empty());
    let ban = &parsed.tests[1];
    assert_eq!(
        (ban.name.as_str(), ban.tags.as_slice()),
        ("ban a user", &["admin".to_owned()][..])
    );
    assert_eq!(
        sentences(&ban.steps),
        [
            ("I sign in as admin", 9, 1),
            ("I ban \"bob\"", 12, 1),
            ("\"bob\" is banned", 13, 1)
        ]
    );
}

#[test]
fn a_language_directive_switches_the_keywords() {
    let parsed = parsed(
        "# language: fr\n\
         Fonctionnalité: tâches\n\
         \x20 Scénario: ajouter\n\
         \x20   Soit j'ouvre l'application\n\
         \x20   Quand j'ajoute \"lait\"\n\
         \x20   Alors la liste affiche \"lait\"\n",
    );
    assert_eq!(
        sentences(&parsed.tests[0].steps),
        [
            ("j'ouvre l'application", 4, 1),
            ("j'ajoute \"lait\"", 5, 1),
            ("la liste affiche \"lait\"", 6, 1)
        ]
    );
    let shown = error("# language: xx-nowhere\nFeature: a\n");
    assert!(
        shown.starts_with("features/todo.feature:1:13: unknown Gherkin language `xx-nowhere`"),
        "{shown}"
    );
}

#[test]
fn crlf_and_a_byte_order_mark_are_read() {
    let parsed = parse_feature(
        "a.feature",
        b"\xEF\xBB\xBFFeature: a\r\n  Scenario: b\r\n    Given c\r\n",
    )
    .expect("parses");
    assert_eq!(sentences(&parsed.tests[0].steps), [("c", 3, 1)]);
}

#[test]
fn a_syntax_error_points_at_its_line_and_column() {
    let shown = error("Feature: a\n  Scenario: b\n    Given c\n    Whenever d\n");
    assert!(shown.starts_with("features/todo.feature:4:"), "{shown}");
    assert!(shown.contains("not valid Gherkin"), "{shown}");
    assert!(shown.contains("4 |     Whenever d"), "{shown}");
    assert!(shown.contains("= hint: "), "{shown}");
}

#[test]
fn mapping_errors_name_their_place_and_all_are_reported() {
    let shown = error(
        "Feature: a\n\
         \x20 Scenario: same\n\
         \x20   Given x\n\
         \x20 Scenario: same\n\
         \x20   Given y\n\
         \x20 Scenario: empty\n\
         \x20 Scenario Outline: o\n\
         \x20   Given <nope> and <item>\n\
         \x20   Examples:\n\
         \x20     | item | first name |\n\
         \x20     | a    | b          |\n",
    );
    assert!(shown.starts_with("4 errors in scenario files:"), "{shown}");
    assert!(
        shown.contains("features/todo.feature:4:13: duplicate scenario name `same`"),
        "{shown}"
    );
    assert!(
        shown.contains("features/todo.feature:6:3: scenario `empty` has no steps"),
        "{shown}"
    );
    assert!(
        shown.contains("features/todo.feature:10:7: invalid column name `first name`"),
        "{shown}"
    );
    assert!(
        shown
            .contains("features/todo.feature:8:11: `<nope>` is not a column of the examples table"),
        "{shown}"
    );
}

#[test]
fn a_ragged_table_is_named_at_its_row() {
    let shown = error("Feature: a\n  Scenario: b\n    Given c\n      | x | y |\n      | 1 |\n");
    assert!(
        shown.starts_with(
            "features/todo.feature:5:7: table row has 1 cell(s) but the table's first row has 2"
        ),
        "{shown}"
    );
}

#[test]
fn a_feature_without_scenarios_has_no_tests() {
    let e = parse_feature("a.feature", b"Feature: nothing yet\n").expect_err("no tests");
    assert!(matches!(e, ScenarioError::NoTests { .. }), "{e:?}");
}

#[test]
fn outline_rows_fill_their_values_into_doc_strings_and_tables() {
    let parsed = parsed(
        "Feature: a\n\
         \x20 Scenario Outline: b\n\
         \x20   Given the items\n\
         \x20     | <item> | 2 |\n\
         \x20   Examples:\n\
         \x20     | item |\n\
         \x20     | milk |\n",
    );
    assert_eq!(
        parsed.tests[0].steps[0].argument,
        Some(StepArgument::DataTable(vec![vec![
            "milk".to_owned(),
            "2".to_owned()
        ]]))
    );
}
