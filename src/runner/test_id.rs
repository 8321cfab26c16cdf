//! The name of a test in reports: its scenario file, its name, the line of its `test:` header
//! and its browser project.
//!
//! Main type: [`TestId`].

use crate::scenario::{Scenario, Test};

/// A test, as reports name it: `scenarios/todo.steps › add a todo`, or in a run of several
/// browsers `[firefox] scenarios/todo.steps › add a todo`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TestId {
    pub scenario: String,
    pub name: String,
    /// Line of the `test:` header.
    pub line: usize,
    /// The browser project the test ran in, as Playwright names projects (`firefox`); `None`
    /// in a run of the default Chromium alone.
    pub project: Option<String>,
}

impl TestId {
    /// The id of `test` of `scenario`.
    pub fn of(scenario: &Scenario, test: &Test) -> Self {
        TestId {
            scenario: scenario.rel_path.clone(),
            name: test.name.clone(),
            line: test.line,
            project: None,
        }
    }

    /// The same test in the browser project `project`.
    pub fn in_project(mut self, project: Option<&str>) -> Self {
        self.project = project.map(str::to_owned);
        self
    }

    /// The test's name without its project: `scenarios/todo.steps › add a todo`.
    pub fn path(&self) -> String {
        format!("{} › {}", self.scenario, self.name)
    }
}

impl std::fmt::Display for TestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(project) = &self.project {
            write!(f, "[{project}] ")?;
        }
        write!(f, "{} › {}", self.scenario, self.name)
    }
}
