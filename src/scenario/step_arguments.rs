//! The lines of a `.steps` file below a step that belong to it, as Gherkin's do: its data table
//! (`| a | b |` rows right after the step) or its doc string (a `"""` or ```` ``` ```` line,
//! the text, the same delimiter again), read into the step's [`StepArgument`]. Blank lines and
//! comments may come between the step and what belongs to it, and between rows.
//!
//! Main type: [`Below`], the state `parse.rs` keeps between lines. The format is documented in
//! `docs/steps-format.md`.

use super::doc_string::{Fed, OpenDocString};
use super::examples::split_cells;
use super::{ScenarioError, Step, StepArgument};

/// What the lines after the last one read may add to the last step.
#[derive(Debug, Default)]
pub(super) enum Below {
    /// Nothing: the last line was not a step, nor part of one.
    #[default]
    Nothing,
    /// The last line was a step: a data table or a doc string may follow.
    Step,
    /// The last line was a row of the last step's data table, whose first row has `width`
    /// cells.
    Table { width: usize, first: usize },
    /// A doc string is being read; `attach` is whether it belongs to the last step (it is
    /// read to its end either way, so that its lines are not taken for steps).
    DocString { open: OpenDocString, attach: bool },
    /// The last step has its doc string: a row or another doc string is an error.
    Done,
}

impl Below {
    /// Whether a table row now belongs to the last step's data table.
    pub(super) fn takes_rows(&self) -> bool {
        matches!(self, Below::Step | Below::Table { .. })
    }

    /// Whether a doc string is being read.
    pub(super) fn in_doc_string(&self) -> bool {
        matches!(self, Below::DocString { .. })
    }

    /// Reads a line of the open doc string into it, or closes it into `step`. Returns an error
    /// for text after the closing delimiter.
    pub(super) fn doc_line(
        &mut self,
        file: &str,
        number: usize,
        raw: &str,
        step: Option<&mut Step>,
    ) -> Result<(), ScenarioError> {
        let Below::DocString { open, .. } = self else {
            return Ok(());
        };
        let Fed::Closed { extra } = open.feed(raw) else {
            return Ok(());
        };
        let delimiter = open.delimiter();
        let Below::DocString { open, attach } = std::mem::replace(self, Below::Done) else {
            return Ok(());
        };
        if attach && let Some(step) = step {
            step.argument = Some(StepArgument::DocString(open.finish()));
        }
        match extra {
            Some(at) => Err(error(
                file,
                number,
                raw[..at].chars().count() + 1,
                raw,
                format!("unexpected text after the closing `{delimiter}`"),
                "the closing delimiter stands alone on its line; a media type goes after the \
                 opening one (`\"\"\"json`)",
            )),
            None => Ok(()),
        }
    }

    /// Opens the doc string that `raw` starts, for the last step if it can take one.
    pub(super) fn open_doc_string(
        &mut self,
        file: &str,
        open: OpenDocString,
    ) -> Result<(), ScenarioError> {
        let found = match self {
            Below::Step => None,
            Below::Table { .. } | Below::Done => Some((
                "a step has one doc string or one data table",
                "a step takes what is written right below it: move the doc string under a step \
                 of its own",
            )),
            Below::Nothing | Below::DocString { .. } => Some((
                "doc string without a step",
                "a doc string goes right below the step it belongs to (blank lines and comments \
                 may come between)",
            )),
        };
        let result = match found {
            Some((message, hint)) => Err(error(
                file,
                open.line,
                open.col,
                &open.text,
                message.to_owned(),
                hint,
            )),
            None => Ok(()),
        };
        *self = Below::DocString {
            attach: result.is_ok(),
            open,
        };
        result
    }

    /// The doc string left open at the end of the file, as an error at its opening line.
    pub(super) fn unclosed(&self, file: &str) -> Option<ScenarioError> {
        let Below::DocString { open, .. } = self else {
            return None;
        };
        Some(error(
            file,
            open.line,
            open.col,
            &open.text,
            "unclosed doc string".to_owned(),
            &format!(
                "end it with a line that starts with `{}`; a `{0}` inside it is written `{}`",
                open.delimiter(),
                open.delimiter()
                    .chars()
                    .flat_map(|c| ['\\', c])
                    .collect::<String>()
            ),
        ))
    }

    /// Adds the row `raw` to the data table of `step`, which [`Below::takes_rows`].
    pub(super) fn row(
        &mut self,
        file: &str,
        number: usize,
        raw: &str,
        step: &mut Step,
    ) -> Result<(), ScenarioError> {
        let cells = split_cells(raw)
            .map_err(|(col, message, hint)| error(file, number, col, raw, message, hint))?;
        let count = cells.len();
        let texts: Vec<String> = cells.into_iter().map(|c| c.text).collect();
        match self {
            Below::Table { width, first } if *width != count => {
                return Err(error(
                    file,
                    number,
                    raw.chars().take_while(|c| c.is_whitespace()).count() + 1,
                    raw,
                    format!("table row has {count} cell(s) but the table's first row has {width}"),
                    &format!(
                        "every row of a data table has as many cells as its first row (line \
                         {first}); a `|` inside a cell is `\\|`"
                    ),
                ));
            }
            Below::Table { .. } => {
                if let Some(StepArgument::DataTable(rows)) = step.argument.as_mut() {
                    rows.push(texts);
                }
            }
            _ => {
                step.argument = Some(StepArgument::DataTable(vec![texts]));
                *self = Below::Table {
                    width: count,
                    first: number,
                };
            }
        }
        Ok(())
    }
}

fn error(
    file: &str,
    line: usize,
    col: usize,
    text: &str,
    message: String,
    hint: &str,
) -> ScenarioError {
    ScenarioError::Parse {
        file: file.to_owned(),
        line,
        col,
        text: text.to_owned(),
        message,
        hint: Some(hint.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::{DocString, ScenarioError, StepArgument, parse};

    fn argument(source: &str, test: usize, step: usize) -> Option<StepArgument> {
        let parsed = parse("a.steps", source.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        parsed.tests[test].steps[step].argument.clone()
    }

    fn errors(source: &str) -> Vec<(usize, usize, String)> {
        let flat = match parse("a.steps", source.as_bytes()).expect_err("an error") {
            ScenarioError::Multiple(all) => all,
            one => vec![one],
        };
        flat.into_iter()
            .map(|e| match e {
                ScenarioError::Parse {
                    line, col, message, ..
                } => (line, col, message),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn rows_right_below_a_step_are_its_data_table() {
        let source = "test: t\n  add these\n    | title | done |\n\n    # a comment\n    | a\\|b  | no   |\n  check them\n";
        assert_eq!(
            argument(source, 0, 0),
            Some(StepArgument::DataTable(vec![
                vec!["title".to_owned(), "done".to_owned()],
                vec!["a|b".to_owned(), "no".to_owned()],
            ]))
        );
        assert_eq!(argument(source, 0, 1), None);
        // In a background too, and before an examples table.
        let source = "background:\n  open\n    | x |\ntest: t <a>\n  add <a>\n    | <a> |\n  examples:\n    | a |\n    | 1 |\n    | 2 |\n";
        let parsed = parse("a.steps", source.as_bytes()).expect("parses");
        assert_eq!(
            parsed.background[0].argument,
            Some(StepArgument::DataTable(vec![vec!["x".to_owned()]]))
        );
        // Each row fills its values into the table, as Gherkin does.
        assert_eq!(
            parsed.tests[1].steps[0].argument,
            Some(StepArgument::DataTable(vec![vec!["2".to_owned()]]))
        );
    }

    #[test]
    fn a_doc_string_below_a_step_is_its_value() {
        let source = "test: t\n  paste\n    \"\"\"json\n    {\"a\":\n      \\\"\\\"\\\"}\n    # not a comment\n    \"\"\"\n  check\n";
        assert_eq!(
            argument(source, 0, 0),
            Some(StepArgument::DocString(DocString {
                text: "{\"a\":\n  \"\"\"}\n# not a comment".to_owned(),
                media_type: Some("json".to_owned()),
            }))
        );
        let source = "paste\n  ```\n  test: not a header\n  ```\n";
        assert_eq!(
            argument(source, 0, 0),
            Some(StepArgument::DocString(DocString::from(
                "test: not a header"
            )))
        );
    }

    #[test]
    fn misplaced_rows_and_doc_strings_are_errors_at_their_line() {
        assert_eq!(
            errors("test: t\n  a\n    | x | y |\n    | 1 |\n"),
            [(
                4,
                5,
                "table row has 1 cell(s) but the table's first row has 2".to_owned()
            )]
        );
        assert_eq!(
            errors("test: t\n  a\n    \"\"\"\n    x\n"),
            [(3, 5, "unclosed doc string".to_owned())]
        );
        assert_eq!(
            errors("test: t\n  a\n    | x |\n    \"\"\"\n    y\n    \"\"\"\n"),
            [(
                4,
                5,
                "a step has one doc string or one data table".to_owned()
            )]
        );
        assert_eq!(
            errors("test: t\n  a\n    \"\"\"\n    y\n    \"\"\" z\n"),
            [(
                5,
                9,
                "unexpected text after the closing `\"\"\"`".to_owned()
            )]
        );
        assert_eq!(
            errors("\"\"\"\nx\n\"\"\"\ntest: t\n  a\n"),
            [(1, 1, "doc string without a step".to_owned())]
        );
    }
}
