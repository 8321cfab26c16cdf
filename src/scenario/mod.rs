//! Scenario files (`.steps`): discovery on disk and parsing into tests and steps.
//!
//! Main types: [`Scenario`] (one file), [`Test`], [`Step`]. The format is documented in
//! `docs/steps-format.md`.

mod discover;
mod line;
mod parse;
mod scenario_error;

pub use discover::{discover, load};
pub use parse::parse;
pub use scenario_error::ScenarioError;

use std::path::PathBuf;

/// One `.steps` file and the tests it declares, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    /// Absolute path of the file.
    pub path: PathBuf,
    /// Path relative to the project root, `/`-separated (e.g. `scenarios/todo.steps`). This is the
    /// scenario part of every step identity and the name of its cache file.
    pub rel_path: String,
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
}
