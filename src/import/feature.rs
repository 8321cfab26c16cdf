//! A Gherkin `.feature` file rewritten as a `.steps` file, for teams that want the native
//! format: the tests `parse_feature` maps it to, written back as `background:`, `test:` headers
//! with their tags, sentences without their Given/When/Then keyword, and an outline's rows as
//! one `examples:` table. Sentences and test names stay as they were, so each step keeps its
//! identity.
//!
//! Main entry point: [`feature_to_steps`].

use std::fmt::Write;

use crate::scenario::{Parsed, Step, Test};

/// Why a feature has no `.steps` form.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Unportable {
    pub(super) line: usize,
    pub(super) reason: String,
}

/// The `.steps` text of `parsed` (read from `display`), or the first thing `.steps` cannot
/// say.
pub(super) fn feature_to_steps(display: &str, parsed: &Parsed) -> Result<String, Unportable> {
    let mut out = String::new();
    let _ = writeln!(out, "# Imported by `prettyplay import` from {display}.");
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
        let _ = writeln!(out, "    {}", table_row(&example.columns));
        for row in &rows {
            if let Some(values) = row.example.as_ref().map(|e| &e.values) {
                let _ = writeln!(out, "    {}", table_row(values));
            }
        }
        index += rows.len();
    }
    Ok(out)
}

fn write_header(out: &mut String, name: &str, test: &Test) -> Result<(), Unportable> {
    let tags: String = test.tags.iter().map(|t| format!(" @{t}")).collect();
    let _ = writeln!(out, "\ntest: {name}{tags}");
    Ok(())
}

fn write_steps(out: &mut String, steps: &[Step]) -> Result<(), Unportable> {
    for step in steps {
        if let Some(argument) = &step.argument {
            return Err(Unportable {
                line: step.line,
                reason: format!(
                    "the step `{}` has a {}, which a `.steps` file cannot hold: keep the file as \
                     `.feature` (prettyplay runs it as it is)",
                    step.sentence,
                    match argument {
                        crate::scenario::StepArgument::DocString(_) => "doc string",
                        crate::scenario::StepArgument::DataTable(_) => "data table",
                    }
                ),
            });
        }
        let _ = writeln!(out, "  {}", step.sentence);
    }
    Ok(())
}

/// `| a | b |`, with `|` and `\` escaped as `.steps` tables read them.
fn table_row(cells: &[String]) -> String {
    let cells: Vec<String> = cells
        .iter()
        .map(|c| c.replace('\\', "\\\\").replace('|', "\\|"))
        .collect();
    format!("| {} |", cells.join(" | "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{parse, parse_feature};

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

    #[test]
    fn a_data_table_has_no_steps_form() {
        let parsed = parse_feature(
            "f.feature",
            b"Feature: a\n  Scenario: b\n    Given these\n      | x |\n",
        )
        .expect("parses");
        let error = feature_to_steps("f.feature", &parsed).expect_err("unportable");
        assert_eq!(error.line, 3);
        assert!(error.reason.contains("data table"), "{error:?}");
    }
}
