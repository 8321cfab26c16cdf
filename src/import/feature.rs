//! A Gherkin `.feature` file rewritten as a `.steps` file, for teams that want the native
//! format: the tests `parse_feature_as_written` maps it to, written back as `background:`, `test:` headers
//! with their tags, sentences without their Given/When/Then keyword, each step's data table or
//! doc string below it, and an outline's rows as one `examples:` table. Sentences and test names
//! stay as they were, so each step keeps its identity.
//!
//! Main entry point: [`feature_to_steps`].

use super::steps_writer::{Converted, StepsWriter, content};
use super::unportable::Unportable;
use crate::scenario::{DocString, Parsed, Step, StepArgument, Test};

/// The indentation of a step's data table and doc string under it.
const BELOW_STEP: &str = "    ";

/// The `.steps` text of `parsed` (read from `display` by `parse_feature_as_written`, so that
/// an outline's doc strings and tables keep their `<column>`), or the first thing `.steps`
/// cannot say.
pub(super) fn feature_to_steps(display: &str, parsed: &Parsed) -> Result<Converted, Unportable> {
    let mut out = StepsWriter::default();
    out.comment(&format!("Imported by `prettyplay import` from {display}."));
    if !parsed.background.is_empty() {
        out.line("\nbackground:");
        write_steps(&mut out, &parsed.background)?;
    }
    let mut index = 0;
    while index < parsed.tests.len() {
        let test = &parsed.tests[index];
        let Some(example) = &test.example else {
            write_header(&mut out, &test.name, test);
            write_steps(&mut out, &test.steps)?;
            index += 1;
            continue;
        };
        // The rows of one outline, from its tables (their tags must agree, as a `.steps` test
        // has one set).
        let rows: Vec<&Test> = parsed.tests[index..]
            .iter()
            .take_while(|t| {
                t.example
                    .as_ref()
                    .is_some_and(|e| e.template == example.template)
            })
            .collect();
        for row in &rows {
            let same_columns = row.columns() == test.columns();
            if !same_columns || row.tags != test.tags {
                return Err(Unportable {
                    line: row.example.as_ref().map_or(row.line, |e| e.line),
                    reason: format!(
                        "the outline `{}` has examples tables with other columns or tags; a \
                         `.steps` test has one table and one set of tags",
                        example.template
                    ),
                });
            }
        }
        write_header(&mut out, &example.template, test);
        write_steps(&mut out, &test.steps)?;
        out.line("  examples:");
        write_row(&mut out, "    ", &example.columns, example.line)?;
        for row in &rows {
            if let Some(e) = &row.example {
                write_row(&mut out, "    ", &e.values, e.line)?;
            }
        }
        index += rows.len();
    }
    Ok(out.finish())
}

fn write_header(out: &mut StepsWriter, name: &str, test: &Test) {
    out.line("");
    out.note(
        "",
        std::iter::once(name).chain(test.tags.iter().map(String::as_str)),
    );
    let tags: String = test
        .tags
        .iter()
        .map(|t| format!(" @{}", content(t)))
        .collect();
    out.line(&format!("test: {}{tags}", content(name)));
}

fn write_steps(out: &mut StepsWriter, steps: &[Step]) -> Result<(), Unportable> {
    for step in steps {
        let mut texts = vec![step.sentence.as_str()];
        match &step.argument {
            Some(StepArgument::DocString(doc)) => {
                texts.push(&doc.text);
                texts.extend(doc.media_type.as_deref());
            }
            Some(StepArgument::DataTable(rows)) => {
                texts.extend(rows.iter().flatten().map(String::as_str));
            }
            None => {}
        }
        out.note("  ", texts);
        out.line(&format!("  {}", content(&step.sentence)));
        match &step.argument {
            None => {}
            Some(StepArgument::DataTable(rows)) => {
                for row in rows {
                    out.line(&format!("{BELOW_STEP}{}", table_row(row, step.line)?));
                }
            }
            Some(StepArgument::DocString(doc)) => {
                let shown = DocString {
                    text: content(&doc.text).into_owned(),
                    media_type: doc.media_type.as_deref().map(|m| content(m).into_owned()),
                };
                let Some(written) = shown.written(BELOW_STEP) else {
                    return Err(Unportable {
                        line: step.line,
                        reason: format!(
                            "the doc string of the step `{}` holds both `\\\"\\\"\\\"` and \
                             ```\\`\\`\\` ``` as text, which no `.steps` delimiter can \
                             carry: keep the file as `.feature`",
                            step.sentence
                        ),
                    });
                };
                out.line(written.trim_end_matches('\n'));
            }
        }
    }
    Ok(())
}

/// A row of an examples table, with the note above it when its cells hold escapes.
fn write_row(
    out: &mut StepsWriter,
    indent: &str,
    cells: &[String],
    line: usize,
) -> Result<(), Unportable> {
    out.note(indent, cells.iter().map(String::as_str));
    out.line(&format!("{indent}{}", table_row(cells, line)?));
    Ok(())
}

/// `| a | b |`, with `|` and `\` escaped as `.steps` tables read them. A cell holding a line
/// break (Gherkin's `\n`) has no `.steps` form.
fn table_row(cells: &[String], line: usize) -> Result<String, Unportable> {
    let mut written = Vec::with_capacity(cells.len());
    for cell in cells {
        if cell.contains('\n') {
            return Err(Unportable {
                line,
                reason: format!(
                    "the table cell `{}` holds a line break (`\\n`), which a `.steps` table \
                     cannot hold: keep the file as `.feature`",
                    cell.replace('\n', "\\n")
                ),
            });
        }
        written.push(content(cell).replace('\\', "\\\\").replace('|', "\\|"));
    }
    Ok(format!("| {} |", written.join(" | ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse, parse_feature, parse_feature_as_written};

    const FEATURE: &str = "\
@todo
Feature: todos
  Background:
    Given I open the app

  @smoke
  Scenario: add one
    When I add a todo \"milk\"
    Then the list shows \"milk\"

  Scenario Outline: add <item>
    When I add a todo <item>
    Examples:
      | item |
      | a\\|b |
      | eggs |
";

    #[test]
    fn a_feature_becomes_steps_with_the_same_identities() {
        let parsed = parse_feature("f.feature", FEATURE.as_bytes()).expect("parses");
        let steps = feature_to_steps("features/todo.feature", &parsed)
            .expect("portable")
            .text;
        assert_eq!(
            steps,
            "# Imported by `prettyplay import` from features/todo.feature.\n\
             \nbackground:\n  I open the app\n\
             \ntest: add one @todo @smoke\n  I add a todo \"milk\"\n  the list shows \"milk\"\n\
             \ntest: add <item> @todo\n  I add a todo <item>\n  examples:\n    | item |\n    \
             | a\\|b |\n    | eggs |\n"
        );
        let back = parse("todo.steps", steps.as_bytes()).expect("a valid .steps file");
        let names = |p: &Parsed| -> Vec<(String, Vec<String>)> {
            p.tests
                .iter()
                .map(|t| {
                    (
                        t.name.clone(),
                        t.steps.iter().map(|s| s.sentence.clone()).collect(),
                    )
                })
                .collect()
        };
        assert_eq!(names(&back), names(&parsed));
        assert_eq!(back.background.len(), 1);
    }

    const ARGUMENTS: &str = r#"Feature: arguments
  Scenario: import
    Given the todos
      | title       | note        |
      | a\|b        | c\\d \e     |
    When I paste
      """json
      {"a": 1,
        "b": \"\"\"}
      \"\"\"
      """
    Then it is done

  Scenario Outline: note <item>
    Given the note
      ```
      buy <item>
      ```
    And the row
      | <item> |

    Examples:
      | item |
      | milk |
      | eggs |
"#;

    #[test]
    fn data_tables_and_doc_strings_are_written_below_their_steps_and_read_back() {
        let parsed = parse_feature_as_written("f.feature", ARGUMENTS.as_bytes()).expect("parses");
        let steps = feature_to_steps("f.feature", &parsed)
            .expect("portable")
            .text;
        assert_eq!(
            steps,
            "# Imported by `prettyplay import` from f.feature.\n\
             \ntest: import\n  the todos\n    | title | note |\n    | a\\|b | c\\\\d \\\\e |\n  \
             I paste\n    \"\"\"json\n    {\"a\": 1,\n      \"b\": \\\"\\\"\\\"}\n    \
             \\\"\\\"\\\"\n    \"\"\"\n  it is done\n\
             \ntest: note <item>\n  the note\n    \"\"\"\n    buy <item>\n    \"\"\"\n  \
             the row\n    | <item> |\n  examples:\n    | item |\n    | milk |\n    | eggs |\n"
        );
        // Read back, the `.steps` file passes each step what the `.feature` file passes it.
        let back = parse("f.steps", steps.as_bytes()).expect("a valid .steps file");
        let filled = parse_feature("f.feature", ARGUMENTS.as_bytes()).expect("parses");
        let arguments = |p: &Parsed| -> Vec<(String, Vec<Option<StepArgument>>)> {
            p.tests
                .iter()
                .map(|t| {
                    (
                        t.name.clone(),
                        t.steps.iter().map(|s| s.argument.clone()).collect(),
                    )
                })
                .collect()
        };
        assert_eq!(arguments(&back), arguments(&filled));
        let StepArgument::DocString(doc) = back.tests[0].steps[1].argument.clone().unwrap() else {
            panic!("a doc string");
        };
        assert_eq!(doc.text, "{\"a\": 1,\n  \"b\": \"\"\"}\n\"\"\"");
        assert_eq!(doc.media_type.as_deref(), Some("json"));
    }

    #[test]
    fn a_cell_with_a_line_break_is_named_at_its_line() {
        let feature = "Feature: a\n  Scenario: b\n    Given these\n      | x\\ny |\n";
        let parsed = parse_feature_as_written("f.feature", feature.as_bytes()).expect("parses");
        let error = feature_to_steps("f.feature", &parsed).expect_err("unportable");
        assert_eq!(error.line, 3);
        assert!(error.reason.contains("line break"), "{error:?}");
    }

    #[test]
    fn control_characters_are_written_as_escapes_under_a_note() {
        let feature = "Feature: a\u{1b}[2J\n  @t\u{7}\n  Scenario: b\u{202e}\n    Given clear \u{1b}[2J\n      \
                       \"\"\"\n      x\u{9b}y\n      \"\"\"\n    Then fine\n";
        let parsed =
            parse_feature_as_written("f\u{1b}.feature", feature.as_bytes()).expect("parses");
        let converted = feature_to_steps("f\u{1b}.feature", &parsed).expect("portable");
        assert!(converted.escaped);
        let text = &converted.text;
        assert!(
            !text.chars().any(crate::visible::is_unsafe),
            "a raw control character in {text:?}"
        );
        assert!(
            text.starts_with("# Imported by `prettyplay import` from f\\x1b.feature.\n"),
            "{text}"
        );
        assert!(
            text.contains("# The next line holds control characters of the source"),
            "{text}"
        );
        assert!(text.contains("\ntest: b\\u{202e} @t\\x07\n"), "{text}");
        assert!(
            text.contains("  clear \\x1b[2J\n    \"\"\"\n    x\\u{9b}y\n"),
            "{text}"
        );
        assert!(text.contains("\n  fine\n"), "{text}");
        // The note sits above the lines it is about, and not above the others.
        assert_eq!(text.matches("# The next line").count(), 2, "{text}");
        // What is written loads, with the escapes as text.
        let back = parse("f.steps", text.as_bytes()).expect("a valid .steps file");
        assert_eq!(back.tests[0].name, "b\\u{202e}");
        assert_eq!(back.tests[0].steps[0].sentence, "clear \\x1b[2J");
    }
}
