//! How a test ends: passed, flaky, failed (with the step, the cause, the code, the verdict and
//! the screenshot), or interrupted.
//!
//! Main types: [`TestOutcome`] and [`TestFailure`].

use crate::engine::{EngineCause, EngineFailure, EngineFailureKind};
use crate::llm::Classification;
use crate::runner::TestId;
use crate::script::{FailureKind, StepFailure, VisualDiff};
use crate::step::Waited;

/// Why a test failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FailureCause {
    /// The step's code ran and failed.
    Step(StepFailure),
    /// Strict replay found no cached code for the step.
    CacheMiss,
    /// The browser side failed before or around the step (a page could not be opened).
    Infrastructure(String),
    /// The engine decided: a product defect, an incurable step, or an unavailable LLM.
    Engine(EngineFailure),
    /// The test starts from a saved state whose setup test did not pass: it did not run.
    SetupFailed(SetupFailed),
}

/// Why a test that starts from a state did not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupFailed {
    /// The state it starts from.
    pub state: String,
    /// The test that saves it; `None` when no test of the run does.
    pub setup: Option<TestId>,
    /// The setup failed for the browser's, the driver's or the LLM's reason.
    pub infrastructure: bool,
}

impl SetupFailed {
    /// One sentence: which setup, which state, and that the test did not run.
    pub fn message(&self) -> String {
        match &self.setup {
            Some(setup) => format!(
                "setup failed: `{setup}` (line {}), which saves state `{}`, did not pass; this \
                 test did not run",
                setup.line, self.state
            ),
            None => format!(
                "setup failed: no test of this run saves state `{}`; this test did not run",
                self.state
            ),
        }
    }
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
    /// The LLM's verdict on the failure, when one was asked for and given.
    pub verdict: Option<Classification>,
    /// A PNG screenshot of the page when the step failed, when one could be taken.
    pub screenshot: Option<Vec<u8>>,
    /// The call that ran out its timeout, with which timeout that was, when the step's code
    /// failed on one.
    pub timed_out: Option<Waited>,
    /// For an INCURABLE step whose code was being generated: the code of the earlier steps of
    /// the test that was written in this run, which left the page as the step found it.
    pub written_before: Vec<WrittenStep>,
}

/// A step of a test whose code was generated or healed in the run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenStep {
    /// 1-based index of the step in its test.
    pub step_index: usize,
    pub step: String,
    pub code: String,
}

impl TestFailure {
    /// A failure at step `step_index` (`step`, on `line`) for `cause`, with no code, verdict or
    /// screenshot yet.
    pub(crate) fn at(step: String, step_index: usize, line: usize, cause: FailureCause) -> Self {
        TestFailure {
            step,
            step_index,
            line,
            cause,
            code: None,
            verdict: None,
            screenshot: None,
            timed_out: None,
            written_before: Vec::new(),
        }
    }

    /// The expected, actual and diff images of a screenshot mismatch, when the step failed on
    /// one (decided by the step's evidence, or carried in the engine's failure).
    pub fn visual(&self) -> Option<&VisualDiff> {
        let step = match &self.cause {
            FailureCause::Step(step) => step,
            FailureCause::Engine(engine) => match engine.cause.as_deref() {
                Some(EngineCause::Step(step)) => step,
                _ => return None,
            },
            _ => return None,
        };
        step.visual.as_deref()
    }

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
            FailureCause::Engine(failure) => failure.to_string(),
            FailureCause::SetupFailed(setup) => setup.message(),
        }
    }

    /// Whether the failure is the infrastructure's (the browser, the driver, the LLM, or an app
    /// that cannot be reached), not the test's.
    pub fn is_infrastructure(&self) -> bool {
        match &self.cause {
            FailureCause::Infrastructure(_) => true,
            FailureCause::Step(f) => {
                matches!(f.kind, FailureKind::Crash | FailureKind::Unreachable)
            }
            FailureCause::Engine(f) => f.kind.is_infrastructure(),
            FailureCause::SetupFailed(setup) => setup.infrastructure,
            FailureCause::CacheMiss => false,
        }
    }

    /// Whether the engine found the step incurable (INCURABLE).
    pub(crate) fn is_incurable(&self) -> bool {
        matches!(&self.cause, FailureCause::Engine(f) if f.kind == EngineFailureKind::Incurable)
    }

    /// Whether the failure is the configuration's: a step needs a setting the run lacks.
    pub fn is_configuration(&self) -> bool {
        match &self.cause {
            FailureCause::Step(f) => f.kind == FailureKind::Misconfigured,
            FailureCause::Engine(f) => f.kind == EngineFailureKind::Misconfigured,
            _ => false,
        }
    }

    /// Why no other test can pass either, when the failure says so: the app cannot be reached,
    /// or a setting is missing. The run then stops ([`crate::runner::StopReason::Halted`]).
    pub(crate) fn halts_the_run(&self) -> Option<&'static str> {
        let kind = match &self.cause {
            FailureCause::Step(f) => f.kind,
            FailureCause::Engine(f) => match f.kind {
                EngineFailureKind::AppUnreachable => FailureKind::Unreachable,
                EngineFailureKind::Misconfigured => FailureKind::Misconfigured,
                _ => return None,
            },
            _ => return None,
        };
        match kind {
            FailureKind::Unreachable => Some("the app could not be reached (APP UNREACHABLE)"),
            FailureKind::Misconfigured => {
                Some("a step needs a setting the run lacks (CONFIGURATION ERROR)")
            }
            _ => None,
        }
    }
}

/// How a test ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestOutcome {
    Passed,
    /// Failed, then passed on a retry (`--retries`): passed on attempt `attempts`, every attempt
    /// before it failed (each reported by a [`crate::runner::TestRetry`] event).
    Flaky {
        attempts: u32,
    },
    Failed(Box<TestFailure>),
    /// Ctrl-C stopped the test before or during a step: neither passed nor failed, and nothing
    /// was written for that step.
    Interrupted(Interruption),
}

impl TestOutcome {
    /// Whether the test passed, on its first attempt or a retry.
    pub fn is_pass(&self) -> bool {
        matches!(self, TestOutcome::Passed | TestOutcome::Flaky { .. })
    }
}

#[cfg(test)]
impl TestOutcome {
    /// For tests: a failure of step 1 ("open the app", line 2) with `cause`, nothing else set.
    pub(crate) fn failed_first_step(cause: FailureCause) -> Self {
        TestOutcome::Failed(Box::new(TestFailure::at(
            "open the app".into(),
            1,
            2,
            cause,
        )))
    }
}

/// Where a stop signal (Ctrl-C, SIGTERM, SIGHUP) stopped a test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Interruption {
    /// The step that did not finish (or did not start).
    pub step: String,
    /// 1-based index of the step in its test.
    pub step_index: usize,
    /// Line of the step in the scenario file.
    pub line: usize,
}

impl Interruption {
    /// The one line reports show for an interrupted test.
    pub fn message(&self) -> &'static str {
        "interrupted (Ctrl-C, SIGTERM or SIGHUP) before this step; nothing was written for it"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{RunEvent, RunStats, TestFinished};
    use std::time::Duration;

    fn finished(failure: TestFailure) -> RunEvent {
        let test = TestId {
            scenario: "a.steps".into(),
            name: "t".into(),
            line: 1,
            project: None,
        };
        RunEvent::of_test(
            test,
            TestFinished {
                outcome: TestOutcome::Failed(Box::new(failure)),
                duration: Duration::from_millis(5),
            },
        )
    }

    #[test]
    fn an_unreachable_app_is_the_infrastructures_and_a_missing_setting_the_configurations() {
        let step = |kind| {
            TestFailure::at(
                "open the app".into(),
                1,
                2,
                FailureCause::Step(StepFailure::new(kind, "x")),
            )
        };
        let engine = |kind| {
            TestFailure::at(
                "open the app".into(),
                1,
                2,
                FailureCause::Engine(EngineFailure::new(kind, "x", None)),
            )
        };
        // (the failure, infrastructure, configuration, halts the run)
        for (failure, infrastructure, configuration, halts) in [
            (step(FailureKind::Unreachable), true, false, true),
            (engine(EngineFailureKind::AppUnreachable), true, false, true),
            (step(FailureKind::Misconfigured), false, true, true),
            (engine(EngineFailureKind::Misconfigured), false, true, true),
            (step(FailureKind::Crash), true, false, false),
            (step(FailureKind::AppError), false, false, false),
            (
                engine(EngineFailureKind::ProductDefect),
                false,
                false,
                false,
            ),
            (step(FailureKind::FailedCheck), false, false, false),
        ] {
            assert_eq!(failure.is_infrastructure(), infrastructure, "{failure:?}");
            assert_eq!(failure.is_configuration(), configuration, "{failure:?}");
            assert_eq!(failure.halts_the_run().is_some(), halts, "{failure:?}");
        }
        let mut stats = RunStats::default();
        for failure in [
            step(FailureKind::Unreachable),
            step(FailureKind::Misconfigured),
        ] {
            stats.observe(&finished(failure));
        }
        assert_eq!(
            (
                stats.failed,
                stats.infrastructure_failures,
                stats.configuration_failures
            ),
            (2, 1, 1)
        );
    }
}
