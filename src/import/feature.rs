//! A Gherkin `.feature` file rewritten as a `.steps` file, for teams that want the native
//! format: the tests `parse_feature_as_written` maps it to, written back as `background:`, `test:` headers
//! with their tags, sentences without their Given/When/Then keyword, each step's data table or
//! doc string below it, and an outline's rows as one `examples:` table. Sentences and test names
//! stay as they were, so each step keeps its identity.
//!
//! Main entry point: [`feature_to_steps`].

use std::fmt::Write;

use super::unportable::{Unportable, carried};
use crate::scenario::{Parsed, Step, StepArgument, Test};
use crate::visible::visible;

/// The indentation of a step's data table and doc string under it.
const BELOW_STEP: &str = "    ";

/// The `.steps` text of `parsed` (read from `display` by `parse_feature_as_written`, so that
/// an outline's doc strings and tables keep their `<column>`), or the first thing `.steps`
/// cannot say.
pub(super) fn feature_to_steps(display: &str, parsed: &Parsed) -> Result<String, Unportable> {
    let mut out = String::new();
    // The path is the user's, and may hold anything a file name can.
    let _ = writeln!(
        out,
        "# Imported by `prettyplay import` from {}.",
        visible(display)
    );
    if !parsed.background.is_empty() {
        let _ = writeln!(out, "\nbackground:");
        write_steps(&mut out, &parsed.background)?;
    }
    let mut index = 0;
    while index < parsed.tests.len() {
        let test = &parsed.tests[index];
        let Some(example) = &test.example else {
            write_header(&mut out, &test.name, test)?;
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
        write_header(&mut out, &example.template, test)?;
        write_steps(&mut out, &test.steps)?;
        let _ = writeln!(out, "  examples:");
        let _ = writeln!(out, "    {}", table_row(&example.columns, example.line)?);
        for row in &rows {
            if let Some(e) = &row.example {
                let _ = writeln!(out, "    {}", table_row(&e.values, e.line)?);
            }
        }
        index += rows.len();
    }
    Ok(out)
}

fn write_header(out: &mut String, name: &str, test: &Test) -> Result<(), Unportable> {
    carried(name, &format!("the name of `{name}`"), test.line)?;
    for tag in &test.tags {
        carried(tag, &format!("the tag `@{tag}` of `{name}`"), test.line)?;
    }
    let tags: String = test.tags.iter().map(|t| format!(" @{t}")).collect();
    let _ = writeln!(out, "\ntest: {name}{tags}");
    Ok(())
}

fn write_steps(out: &mut String, steps: &[Step]) -> Result<(), Unportable> {
    for step in steps {
        let what = format!("the step `{}`", step.sentence);
        carried(&step.sentence, &what, step.line)?;
        let _ = writeln!(out, "  {}", step.sentence);
        match &step.argument {
            None => {}
            Some(StepArgument::DataTable(rows)) => {
                for row in rows {
                    let _ = writeln!(out, "{BELOW_STEP}{}", table_row(row, step.line)?);
                }
            }
            Some(StepArgument::DocString(doc)) => {
                carried(&doc.text, &format!("the doc string of {what}"), step.line)?;
                if let Some(media_type) = &doc.media_type {
                    carried(media_type, &format!("the doc string of {what}"), step.line)?;
                }
                let Some(written) = doc.written(BELOW_STEP) else {
                    return Err(Unportable {
                        line: step.line,
                        reason: format!(
                            "the doc string of {what} holds both `\\\"\\\"\\\"` and \
                             ```\\`\\`\\` ``` as text, which no `.steps` delimiter can \
                             carry: keep the file as `.feature`"
                        ),
                    });
                };
                out.push_str(&written);
            }
        }
    }
    Ok(())
}

/// `| a | b |`, with `|` and `\` escaped as `.steps` tables read them. A cell holding a line
/// break (Gherkin's `\n`) has no `.steps` form.
fn table_row(cells: &[String], line: usize) -> Result<String, Unportable> {
    let mut written = Vec::with_capacity(cells.len());
    for cell in cells {
        carried(cell, &format!("the table cell `{cell}`"), line)?;
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
        written.push(cell.replace('\\', "\\\\").replace('|', "\\|"));
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
        let steps = feature_to_steps("features/todo.feature", &parsed).expect("portable");
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
        let steps = feature_to_steps("f.feature", &parsed).expect("portable");
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
    fn what_a_steps_file_cannot_hold_is_named_at_its_line() {
        for (feature, line, what) in [
            (
                "Feature: a\n  Scenario: b\n    Given these\n      | x\\ny |\n",
                3,
                "line break",
            ),
            (
                "Feature: a\n  Scenario: b\n    Given clear \u{1b}[2J\n",
                3,
                "`\\x1b`",
            ),
            (
                "Feature: a\n  Scenario: b\n    Given x\n      \"\"\"\n      \u{202e}\n      \"\"\"\n",
                3,
                "`\\u{202e}`",
            ),
            (
                "Feature: a\n  Scenario: b\u{7}\n    Given x\n",
                2,
                "`\\x07`",
            ),
        ] {
            let parsed = parse_feature_as_written("f.feature", feature.as_bytes()).expect("parses");
            let error = feature_to_steps("f.feature", &parsed).expect_err("unportable");
            assert_eq!(error.line, line, "{feature:?}");
            assert!(error.reason.contains(what), "{error:?}");
        }
    }
}
