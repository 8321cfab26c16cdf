//! Scenario files (`.steps`, and Gherkin `.feature`): discovery on disk and parsing into tests and steps.
//!
//! Main types: [`Scenario`] (one file), [`Test`], [`Step`]. The format is documented in
//! `docs/steps-format.md`.

mod discover;
mod doc_string;
mod examples;
mod feature;
mod feature_text;
mod line;
mod mistakes;
mod parse;
mod placeholders;
mod scenario_error;
mod setup_states;
mod step_arguments;

pub(crate) use discover::{MAX_SCENARIO_BYTES, load};
pub use doc_string::DocString;
pub(crate) use doc_string::OpenDocString;
pub(crate) use feature::{parse_feature, parse_feature_as_written};
pub(crate) use parse::Parsed;
pub use parse::parse;
pub(crate) use placeholders::{columns, is_var_name, malformed_variable, variables};
pub(crate) use scenario_error::ScenarioError;
pub(crate) use setup_states::{check_states, is_state_name, unsaved_states};

use std::path::PathBuf;

/// One `.steps` file and the tests it declares, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    /// Absolute path of the file.
    pub path: PathBuf,
    /// Path relative to the project root, `/`-separated (e.g. `scenarios/todo.steps`). This is the
    /// scenario part of every step identity and the name of its cache file.
    pub rel_path: String,
    /// The `background:` steps, run before every test of the file (empty without one).
    pub background: Vec<Step>,
    /// The tests in file order; a test with an `examples:` table is one test per row.
    pub tests: Vec<Test>,
}

/// One test: a named, ordered list of steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Test {
    pub name: String,
    /// 1-based line of the `test:` header (of the first step for a header-less file).
    pub line: usize,
    /// `@word` tags from the header, without the `@`.
    pub tags: Vec<String>,
    pub steps: Vec<Step>,
    /// The row of the `examples:` table this test runs, if it has one.
    pub example: Option<Example>,
    /// `[saves=NAME]`: a setup test; once it passes, its context's storage state is saved
    /// under NAME for the tests that start from it.
    pub saves: Option<String>,
    /// `[state=NAME]`: the test starts from the storage state the test that saves NAME saved in
    /// this run (that test runs first).
    pub state: Option<String>,
}

/// One row of a test's `examples:` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The test's name as written: every row shares its cache entries.
    pub template: String,
    /// The column names, in table order.
    pub columns: Vec<String>,
    /// This row's cells, one per column.
    pub values: Vec<String>,
    /// 1-based line of the row.
    pub line: usize,
}

impl Test {
    /// The name the cache knows this test's steps by: the name as written, without the row
    /// of an examples table.
    pub fn identity(&self) -> &str {
        self.example
            .as_ref()
            .map_or(self.name.as_str(), |e| e.template.as_str())
    }

    /// The columns of the test's examples table (none without one).
    pub fn columns(&self) -> &[String] {
        self.example.as_ref().map_or(&[], |e| e.columns.as_slice())
    }

    /// `(column, value)` of the test's row (none without one).
    pub fn row(&self) -> impl Iterator<Item = (&str, &str)> {
        self.example.iter().flat_map(|e| {
            e.columns
                .iter()
                .map(String::as_str)
                .zip(e.values.iter().map(String::as_str))
        })
    }
}

/// One step sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The sentence, trimmed, without step options.
    pub sentence: String,
    /// 1-based line in the file.
    pub line: usize,
    /// The n-th time this exact sentence appears in its test, from 1.
    pub occurrence: u32,
    /// `[tries=N]`: settle re-execution count bound (N >= 1).
    pub tries: Option<u32>,
    /// `[optional]`: the step is skipped when the target of its first action does not appear
    /// within `[polling] optional_timeout`. Like `tries`, not part of the step's identity.
    pub optional: bool,
    /// The step's doc string or data table, written on the lines below it. Step code reads it
    /// as `vars.docString` or `vars.dataTable`; it is not part of the step's identity.
    pub argument: Option<StepArgument>,
}

/// What a step carries below its line, in a `.feature` or a `.steps` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepArgument {
    /// A `"""` (or ```` ``` ````) block, dedented, without its delimiters.
    DocString(DocString),
    /// A `| a | b |` table: its rows, the first one included, of trimmed cells.
    DataTable(Vec<Vec<String>>),
}

impl StepArgument {
    /// The argument with each `<column>` of an outline's row replaced by its value, as
    /// Cucumber fills doc strings and tables of an outline.
    pub fn filled(&self, columns: &[String], values: &[String]) -> StepArgument {
        let fill = |text: &str| {
            columns
                .iter()
                .zip(values)
                .fold(text.to_owned(), |text, (column, value)| {
                    text.replace(&format!("<{column}>"), value)
                })
        };
        match self {
            StepArgument::DocString(doc) => StepArgument::DocString(DocString {
                text: fill(&doc.text),
                media_type: doc.media_type.clone(),
            }),
            StepArgument::DataTable(rows) => StepArgument::DataTable(
                rows.iter()
                    .map(|row| row.iter().map(|cell| fill(cell)).collect())
                    .collect(),
            ),
        }
    }

    /// The name step code reads the argument by: `vars.docString` or `vars.dataTable`.
    pub fn var_name(&self) -> &'static str {
        match self {
            StepArgument::DocString(_) => "docString",
            StepArgument::DataTable(_) => "dataTable",
        }
    }
}
