//! A test's `examples:` table: its rows split into cells, checked (column names, one cell per
//! column, every `<column>` of the test's sentences in the table), and expanded into one [`Test`]
//! per row, named `NAME [user=alice, item=milk]` (`NAME [row N]` when that is long).
//!
//! Main type: [`Table`], built line by line by `parse.rs`. The format is documented in
//! `docs/steps-format.md`.

use super::line::col_of;
use super::{Example, ScenarioError, Step, Test};

/// An expanded name longer than this many characters is `NAME [row N]` instead.
pub(super) const MAX_ROW_NAME_CHARS: usize = 60;

/// One cell of a table row: its text (unescaped, trimmed) and the column where it starts.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Cell {
    pub(super) text: String,
    pub(super) col: usize,
}

/// A row as written: its line and cells.
#[derive(Debug)]
struct Row {
    line: usize,
    text: String,
    cells: Vec<Cell>,
}

/// The `examples:` table of a test, as it is read.
#[derive(Debug)]
pub(super) struct Table {
    /// Line, column and text of the `examples:` keyword.
    line: usize,
    col: usize,
    text: String,
    /// The header row, then the value rows.
    header: Option<Row>,
    rows: Vec<Row>,
}

/// What `parse.rs` needs of the test a table belongs to.
pub(super) struct Owner<'a> {
    pub(super) file: &'a str,
    pub(super) name: &'a str,
    pub(super) line: usize,
    pub(super) tags: &'a [String],
    /// `[state=NAME]` of the header: every row starts from it.
    pub(super) state: Option<&'a str>,
    pub(super) steps: &'a [Step],
    /// The raw text of each step's line, in the order of `steps`.
    pub(super) step_texts: &'a [String],
}

impl Table {
    /// A table opened by the `examples:` keyword at `line`:`col` of `text`.
    pub(super) fn new(line: usize, col: usize, text: &str) -> Self {
        Table {
            line,
            col,
            text: text.to_owned(),
            header: None,
            rows: Vec::new(),
        }
    }

    /// The line of the `examples:` keyword.
    pub(super) fn line(&self) -> usize {
        self.line
    }

    /// Adds the row at `line`, whose text is `raw`; a malformed row is an error.
    pub(super) fn row(&mut self, file: &str, line: usize, raw: &str) -> Result<(), ScenarioError> {
        let cells = split_cells(raw).map_err(|(col, message, hint)| {
            parse_error(file, line, col, raw, message, Some(hint.to_owned()))
        })?;
        let row = Row {
            line,
            text: raw.to_owned(),
            cells,
        };
        if self.header.is_none() {
            self.header = Some(row);
        } else {
            self.rows.push(row);
        }
        Ok(())
    }

    /// Checks the table against its test and expands it into one test per row, or every error
    /// found.
    pub(super) fn expand(self, owner: &Owner<'_>) -> Result<Vec<Test>, Vec<ScenarioError>> {
        let file = owner.file;
        let mut errors = Vec::new();
        let Some(header) = self.header else {
            return Err(vec![parse_error(
                file,
                self.line,
                self.col,
                &self.text,
                "examples table has no header row".to_owned(),
                Some("name the columns on the next line, e.g. `| user | item |`".to_owned()),
            )]);
        };
        let mut columns: Vec<String> = Vec::new();
        for (i, cell) in header.cells.iter().enumerate() {
            let error = |message: String, hint: &str| {
                parse_error(
                    file,
                    header.line,
                    cell.col,
                    &header.text,
                    message,
                    Some(hint.to_owned()),
                )
            };
            if !super::is_var_name(&cell.text) {
                errors.push(error(
                    format!("invalid column name `{}`", cell.text),
                    "a column is named like a variable (ASCII letters, digits and `_`, not \
                     starting with a digit): step code reads it as `vars.NAME`",
                ));
            } else if let Some(first) = header.cells[..i].iter().find(|c| c.text == cell.text) {
                errors.push(error(
                    format!("duplicate column `{}`", cell.text),
                    &format!(
                        "the first `{}` is at column {} of this line; column names must be unique",
                        cell.text, first.col
                    ),
                ));
            }
            columns.push(cell.text.clone());
        }
        if self.rows.is_empty() {
            errors.push(parse_error(
                file,
                header.line,
                header.cells.first().map_or(1, |c| c.col),
                &header.text,
                "examples table has no rows".to_owned(),
                Some("add one row of values per line below the header".to_owned()),
            ));
        }
        for row in &self.rows {
            if row.cells.len() != columns.len() {
                let col = row
                    .cells
                    .get(columns.len())
                    .or(row.cells.last())
                    .map_or(1, |c| c.col);
                errors.push(parse_error(
                    file,
                    row.line,
                    col,
                    &row.text,
                    format!(
                        "row has {} cell(s) but the header has {} column(s)",
                        row.cells.len(),
                        columns.len()
                    ),
                    Some(format!(
                        "the columns are {}, from line {}",
                        quoted(&columns),
                        header.line
                    )),
                ));
            }
            for cell in &row.cells {
                if let Some(at) = super::malformed_variable(&cell.text) {
                    errors.push(parse_error(
                        file,
                        row.line,
                        cell.col + cell.text[..at].chars().count(),
                        &row.text,
                        "malformed variable: `${` must start `${NAME}`".to_owned(),
                        Some("a cell may name a variable as `${NAME}`".to_owned()),
                    ));
                }
            }
        }
        for (step, text) in owner.steps.iter().zip(owner.step_texts) {
            for (name, at) in super::columns(&step.sentence) {
                if columns.iter().any(|c| c == name) {
                    continue;
                }
                let lead = text.len() - text.trim_start().len();
                errors.push(parse_error(
                    file,
                    step.line,
                    col_of(text, lead + at),
                    text,
                    format!("`<{name}>` is not a column of the examples table"),
                    Some(format!(
                        "the columns are {}, from line {}",
                        quoted(&columns),
                        header.line
                    )),
                ));
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(self
            .rows
            .into_iter()
            .enumerate()
            .map(|(index, row)| {
                let values: Vec<String> = row.cells.into_iter().map(|c| c.text).collect();
                Test {
                    name: row_name(owner.name, &columns, &values, index + 1),
                    line: owner.line,
                    tags: owner.tags.to_vec(),
                    saves: None,
                    state: owner.state.map(str::to_owned),
                    // A row's values fill `<column>` in the steps' doc strings and data
                    // tables, as Gherkin fills them: they are values, not identities.
                    steps: owner
                        .steps
                        .iter()
                        .map(|step| Step {
                            argument: step
                                .argument
                                .as_ref()
                                .map(|argument| argument.filled(&columns, &values)),
                            ..step.clone()
                        })
                        .collect(),
                    example: Some(Example {
                        template: owner.name.to_owned(),
                        columns: columns.clone(),
                        values,
                        line: row.line,
                    }),
                }
            })
            .collect())
    }
}

/// `NAME [user=alice, item=milk]`, or `NAME [row N]` when that is over
/// [`MAX_ROW_NAME_CHARS`] characters (or a value holds a character that would make it
/// ambiguous or hard to read: a bracket, a comma, a control character).
pub(super) fn row_name(name: &str, columns: &[String], values: &[String], index: usize) -> String {
    let plain = values.iter().all(|v| {
        !v.chars()
            .any(|c| matches!(c, '[' | ']' | ',') || c.is_control())
    });
    let pairs: Vec<String> = columns
        .iter()
        .zip(values)
        .map(|(column, value)| format!("{column}={value}"))
        .collect();
    let full = format!("{name} [{}]", pairs.join(", "));
    if plain && full.chars().count() <= MAX_ROW_NAME_CHARS {
        full
    } else {
        format!("{name} [row {index}]")
    }
}

/// `` `a`, `b` ``.
fn quoted(columns: &[String]) -> String {
    columns
        .iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The cells of a row `| a | b |`: between the pipes, trimmed; `\|` is a `|` in a cell and `\\`
/// a backslash. The row must end with `|`. An error is `(column, message, hint)`.
pub(super) fn split_cells(raw: &str) -> Result<Vec<Cell>, (usize, String, &'static str)> {
    let end = raw.trim_end().len();
    let start = raw.len() - raw.trim_start().len();
    let body = &raw[start + 1..end];
    let mut cells = Vec::new();
    let mut current = String::new();
    // Byte offset in `raw` of the current cell's first non-blank character.
    let mut cell_start: Option<usize> = None;
    let mut closed = false;
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let at = start + 1 + i;
        closed = false;
        match c {
            '|' => {
                cells.push(Cell {
                    text: current.trim_end().to_owned(),
                    col: col_of(raw, cell_start.unwrap_or(at)),
                });
                current.clear();
                cell_start = None;
                closed = true;
                continue;
            }
            '\\' if matches!(chars.peek(), Some((_, '|' | '\\'))) => {
                if let Some((_, escaped)) = chars.next() {
                    current.push(escaped);
                }
            }
            c if c.is_whitespace() && cell_start.is_none() => continue,
            c => current.push(c),
        }
        cell_start.get_or_insert(at);
    }
    if !closed {
        return Err((
            col_of(raw, end),
            "table row does not end with `|`".to_owned(),
            "write a row as `| a | b |`; a `|` inside a cell is `\\|`",
        ));
    }
    Ok(cells)
}

fn parse_error(
    file: &str,
    line: usize,
    col: usize,
    text: &str,
    message: String,
    hint: Option<String>,
) -> ScenarioError {
    ScenarioError::Parse {
        file: file.to_owned(),
        line,
        col,
        text: text.to_owned(),
        message,
        hint,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(raw: &str) -> Vec<(String, usize)> {
        split_cells(raw)
            .unwrap_or_else(|e| panic!("{raw:?}: {e:?}"))
            .into_iter()
            .map(|c| (c.text, c.col))
            .collect()
    }

    #[test]
    fn cells_are_trimmed_with_escaped_pipes_and_columns() {
        assert_eq!(
            cells("  | user | a \\| b |  x\\\\y|"),
            [
                ("user".to_owned(), 5),
                ("a | b".to_owned(), 12),
                ("x\\y".to_owned(), 22)
            ]
        );
        assert_eq!(cells("| |"), [(String::new(), 3)]);
        assert_eq!(cells("|a|b|"), [("a".to_owned(), 2), ("b".to_owned(), 4)]);
        let (col, message, _) = split_cells("| a | b").unwrap_err();
        assert_eq!(
            (col, message.as_str()),
            (8, "table row does not end with `|`")
        );
    }

    #[test]
    fn row_names_list_the_values_or_the_row_number_when_long() {
        let columns = ["user".to_owned(), "item".to_owned()];
        let values = ["alice".to_owned(), "milk".to_owned()];
        assert_eq!(
            row_name("buy", &columns, &values, 1),
            "buy [user=alice, item=milk]"
        );
        let long = ["a".repeat(60), "milk".to_owned()];
        assert_eq!(row_name("buy", &columns, &long, 2), "buy [row 2]");
        let comma = ["a, b".to_owned(), "milk".to_owned()];
        assert_eq!(row_name("buy", &columns, &comma, 3), "buy [row 3]");
    }

    fn parsed(source: &str) -> super::super::Parsed {
        super::super::parse("s.steps", source.as_bytes())
            .unwrap_or_else(|e| panic!("unexpected error:\n{e}"))
    }

    /// `(line, col, message)` of every error `source` has.
    fn errors(source: &str) -> Vec<(usize, usize, String)> {
        let error = super::super::parse("s.steps", source.as_bytes()).expect_err("an error");
        let list = match error {
            ScenarioError::Multiple(list) => list,
            other => vec![other],
        };
        list.into_iter()
            .map(|e| match e {
                ScenarioError::Parse {
                    line, col, message, ..
                } => (line, col, message),
                other => panic!("not a parse error: {other}"),
            })
            .collect()
    }

    #[test]
    fn a_background_holds_the_steps_before_the_first_test() {
        let file = parsed(
            "# top\nbackground:\n  open the app\n  open the app [tries=2]\n\ntest: a\n  \
             open the app\ntest: b\n  click\n",
        );
        let background: Vec<_> = file
            .background
            .iter()
            .map(|s| (s.sentence.as_str(), s.line, s.occurrence, s.tries))
            .collect();
        assert_eq!(
            background,
            [
                ("open the app", 3, 1, None),
                ("open the app", 4, 2, Some(2))
            ]
        );
        // A test counts its own occurrences.
        assert_eq!(file.tests.len(), 2);
        assert_eq!(file.tests[0].steps[0].occurrence, 1);
        assert!(parsed("test: a\n  x\n").background.is_empty());
    }

    #[test]
    fn a_misplaced_or_empty_background_is_an_error() {
        assert_eq!(
            errors("test: a\n  x\nbackground:\n  y\n"),
            [(
                3,
                1,
                "`background:` must come before the first test".to_owned()
            )]
        );
        assert_eq!(
            errors("background:\n  x\nbackground:\n  y\ntest: a\n  z\n"),
            [(3, 1, "a file has one `background:`".to_owned())]
        );
        assert_eq!(
            errors("background:\ntest: a\n  z\n"),
            [(1, 1, "`background:` has no steps".to_owned())]
        );
        assert_eq!(
            errors("  background:\n  x\n"),
            [(1, 3, "`background:` without tests".to_owned())]
        );
        assert_eq!(
            errors("background: open\n  x\ntest: a\n  z\n"),
            [(1, 13, "unexpected text after `background:`".to_owned())]
        );
        assert_eq!(
            errors("  stray\nbackground:\n  x\ntest: a\n  z\n"),
            [
                (
                    2,
                    1,
                    "`background:` must come before the first test".to_owned()
                ),
                (1, 3, "step outside a test".to_owned())
            ]
        );
    }

    #[test]
    fn an_examples_table_expands_into_one_test_per_row() {
        let file = parsed(
            "test: buy @shop\n  sign in as <user>\n  add <item> to the cart\n  examples:\n    \
             | user  | item |\n    | alice | milk |\n\n    # a comment between rows\n    | bob \
             | eggs |\ntest: after\n  the text reads <none>\n",
        );
        let names: Vec<_> = file.tests.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "buy [user=alice, item=milk]",
                "buy [user=bob, item=eggs]",
                "after"
            ]
        );
        let bob = &file.tests[1];
        assert_eq!(bob.identity(), "buy");
        assert_eq!(bob.tags, ["shop"]);
        assert_eq!((bob.line, bob.steps.len()), (1, 2));
        assert_eq!(bob.steps[0].sentence, "sign in as <user>");
        let row: Vec<_> = bob.row().collect();
        assert_eq!(row, [("user", "bob"), ("item", "eggs")]);
        assert_eq!(bob.example.as_ref().map(|e| e.line), Some(9));
        // Without a table, `<none>` is plain text.
        assert_eq!(file.tests[2].identity(), "after");
        assert!(file.tests[2].columns().is_empty());
    }

    #[test]
    fn table_errors_point_at_file_line_and_column() {
        let head = "test: buy\n  add <item> for <user>\n  examples:\n";
        assert_eq!(
            errors(&format!("{head}  | item |\n  | milk |\n")),
            [(
                2,
                18,
                "`<user>` is not a column of the examples table".to_owned()
            )]
        );
        assert_eq!(
            errors(&format!(
                "{head}  | item | user |\n  | milk |\n  | a | b | c |\n"
            )),
            [
                (
                    5,
                    5,
                    "row has 1 cell(s) but the header has 2 column(s)".to_owned()
                ),
                (
                    6,
                    13,
                    "row has 3 cell(s) but the header has 2 column(s)".to_owned()
                )
            ]
        );
        assert_eq!(
            errors(&format!(
                "{head}  | item | user | item |\n  | a | b | c |\n"
            )),
            [(4, 19, "duplicate column `item`".to_owned())]
        );
        assert_eq!(
            errors(&format!(
                "{head}  | item | user | the user |\n  | a | b | c |\n"
            )),
            [(4, 19, "invalid column name `the user`".to_owned())]
        );
        assert_eq!(
            errors(&format!("{head}  | item | user |\n  | a | b\n")),
            [(5, 10, "table row does not end with `|`".to_owned())]
        );
        assert_eq!(
            errors(&format!("{head}  | item | user |\n")),
            [(4, 5, "examples table has no rows".to_owned())]
        );
        assert_eq!(
            errors(&format!("{head}test: next\n  x\n")),
            [(3, 3, "examples table has no header row".to_owned())]
        );
        assert_eq!(
            errors(&format!(
                "{head}  | item | user |\n  | a | b |\n  one more step\n"
            )),
            [(6, 3, "step after the examples table".to_owned())]
        );
        assert_eq!(
            errors(&format!(
                "{head}  | item | user |\n  | a | b |\n  | a | b |\n"
            )),
            [(
                6,
                1,
                "duplicate test name `buy [item=a, user=b]`".to_owned()
            )]
        );
        assert_eq!(
            errors(&format!("{head}  | item | user |\n  | a | ${{bad |\n")),
            [(
                5,
                9,
                "malformed variable: `${` must start `${NAME}`".to_owned()
            )]
        );
        assert_eq!(
            errors("test: a\n| a |\n  x\nexamples:\n"),
            [
                (2, 1, "table row outside a table".to_owned()),
                (4, 1, "examples table has no header row".to_owned())
            ]
        );
        assert_eq!(
            errors("background:\n  x\n  examples:\ntest: a\n  y\n"),
            [(3, 3, "`examples:` outside a test".to_owned())]
        );
    }

    #[test]
    fn a_row_may_name_a_variable_and_its_name_shows_it_as_written() {
        let file =
            parsed("test: t\n  sign in as <user>\n  examples:\n  | user |\n  | ${ADMIN} |\n");
        assert_eq!(file.tests[0].name, "t [user=${ADMIN}]");
    }
}
