//! The event stream of a run, consumed by reporters.
//!
//! Main type: [`RunEvent`].

use std::time::Duration;

use crate::script::{FailureKind, StepFailure};

/// A test, as reports name it: `scenarios/todo.steps › add a todo`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TestId {
    pub scenario: String,
    pub name: String,
    /// Line of the `test:` header.
    pub line: usize,
}

impl std::fmt::Display for TestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} › {}", self.scenario, self.name)
    }
}

/// Where a step's code came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepSource {
    Cached,
}

/// Why a test failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FailureCause {
    /// The step's code ran and failed.
    Step(StepFailure),
    /// Strict replay found no cached code for the step.
    CacheMiss,
    /// The browser side failed before or around the step (a page could not be opened).
    Infrastructure(String),
}

/// A failed test: which step, where, why, and the code that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestFailure {
    pub step: String,
    /// 1-based index of the step in its test.
    pub step_index: usize,
    /// Line of the step in the scenario file.
    pub line: usize,
    pub cause: FailureCause,
    /// The step code that failed, when there was code.
    pub code: Option<String>,
}

impl TestFailure {
    /// A one-paragraph message for the cause.
    pub fn message(&self, scenario: &str, test: &str) -> String {
        match &self.cause {
            FailureCause::Step(failure) => failure.message.clone(),
            FailureCause::CacheMiss => format!(
                "{scenario}:{line}: no cached code for step {step:?} of test {test:?}; \
                 `replay --strict` never generates code: run `prettyplay run` to generate it, \
                 then commit the cache",
                line = self.line,
                step = self.step,
            ),
            FailureCause::Infrastructure(message) => message.clone(),
        }
    }

    /// Whether the failure is the browser's or the driver's, not the test's.
    pub fn is_infrastructure(&self) -> bool {
        matches!(self.cause, FailureCause::Infrastructure(_))
            || matches!(&self.cause, FailureCause::Step(f) if f.kind == FailureKind::Crash)
    }
}

/// How a test ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestOutcome {
    Passed,
    Failed(Box<TestFailure>),
}

/// Totals of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunStats {
    pub passed: usize,
    pub failed: usize,
    /// Failures caused by the browser or driver (counted in `failed` too).
    pub infrastructure_failures: usize,
    pub duration: Duration,
}

/// Everything a reporter can show, in the order it happens.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEvent {
    RunStarted {
        tests: usize,
    },
    TestStarted {
        test: TestId,
    },
    StepPassed {
        test: TestId,
        index: usize,
        sentence: String,
        source: StepSource,
        duration: Duration,
    },
    StepFailed {
        test: TestId,
        index: usize,
        sentence: String,
        duration: Duration,
    },
    /// The step's code failed with a pollable failure and is executed again inside its settle
    /// window (see `docs/settle.md`).
    SettleRetry {
        test: TestId,
        index: usize,
        /// The execution about to run: 2 for the first repetition.
        attempt: u32,
        /// The message of the failure that caused the repetition.
        failure: String,
    },
    /// `console.*` output of step code.
    StepLog {
        test: TestId,
        index: usize,
        line: String,
    },
    TestFinished {
        test: TestId,
        outcome: TestOutcome,
        duration: Duration,
    },
    RunFinished {
        stats: RunStats,
    },
}
