//! Reading back what the wire says of a test and a run (`docs/reports.md`): the test an event
//! is about, how a test ended (its failure, cause, verdict and screenshot), and the run's
//! totals, each checked against the names [`super::wire_outcome`] writes.
//!
//! Main type: [`FailureIn`].

use std::time::Duration;

use base64::Engine as _;
use serde::Deserialize;

use super::wire_error::Resolve;
use super::wire_error::{WireError, by_name};
use super::wire_outcome::failure_kind_name;
use crate::engine::{EngineFailure, EngineFailureKind};
use crate::llm::{Category, Classification, VerdictSource};
use crate::regular_file::{MIB, read_regular_nofollow};
use crate::runner::{
    FailureCause, Interruption, RunStats, SetupFailed, StopReason, TestFailure, TestId,
    TestOutcome, WrittenStep,
};
use crate::script::{FailureKind, StepFailure};
use crate::step::{TimeoutSetting, Waited, WaitedIn};

/// The largest screenshot read by reference (from a report blob's directory): a full-page PNG
/// of a long page fits.
pub(crate) const MAX_SCREENSHOT_BYTES: u64 = 64 * MIB;

/// A duration of the wire, in whole milliseconds.
pub(super) fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

/// The verdict category named `name`.
pub(super) fn category_named(name: &str) -> Result<Category, WireError> {
    by_name(
        &[Category::Rot, Category::ProductDefect, Category::Incurable],
        name,
        Category::as_str,
        "category",
    )
}

#[derive(Deserialize)]
pub(super) struct TestIdIn {
    scenario: String,
    name: String,
    line: usize,
    /// Absent in the events of a run of the default Chromium alone, and in older blobs.
    #[serde(default)]
    project: Option<String>,
}

impl From<TestIdIn> for TestId {
    fn from(id: TestIdIn) -> Self {
        TestId {
            scenario: id.scenario,
            name: id.name,
            line: id.line,
            project: id.project,
        }
    }
}

#[derive(Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub(super) enum OutcomeIn {
    Passed,
    Flaky { attempts: u32 },
    Failed(Box<FailureIn>),
}

impl OutcomeIn {
    pub(super) fn read(self, resolve: Resolve<'_>) -> Result<TestOutcome, WireError> {
        Ok(match self {
            OutcomeIn::Passed => TestOutcome::Passed,
            OutcomeIn::Flaky { attempts } => TestOutcome::Flaky { attempts },
            OutcomeIn::Failed(failure) => failure.into_outcome(resolve)?,
        })
    }
}

#[derive(Deserialize)]
pub(super) struct FailureIn {
    step: String,
    step_index: usize,
    line: usize,
    cause: CauseIn,
    code: Option<String>,
    verdict: Option<ClassificationIn>,
    #[serde(default)]
    screenshot_png_base64: Option<String>,
    /// A report blob's reference to the PNG file.
    #[serde(default)]
    screenshot: Option<String>,
    #[serde(default)]
    timed_out: Option<TimedOutIn>,
    #[serde(default)]
    written_before: Vec<WrittenStepIn>,
}

/// An earlier step's code written in the run (`docs/reports.md`).
#[derive(Deserialize)]
struct WrittenStepIn {
    step_index: usize,
    step: String,
    code: String,
}

/// The call that ran out its timeout (`docs/reports.md`).
#[derive(Deserialize)]
struct TimedOutIn {
    method: String,
    waited_ms: u64,
    timeout_ms: u64,
    setting: String,
}

impl TryFrom<TimedOutIn> for Waited {
    type Error = WireError;

    fn try_from(wire: TimedOutIn) -> Result<Self, WireError> {
        Ok(Waited {
            method: wire.method,
            call: Duration::from_millis(wire.waited_ms),
            before: Duration::ZERO,
            timeout: Duration::from_millis(wire.timeout_ms),
            setting: by_name(
                &TimeoutSetting::ALL,
                &wire.setting,
                TimeoutSetting::as_str,
                "timeout setting",
            )?,
            // The wire keeps the call, not which run of the code it was in.
            run: WaitedIn::Step,
        })
    }
}

impl FailureIn {
    /// The outcome of a finished test: an interruption when the cause says so (the wire
    /// writes an interrupted test as a failure whose cause is `interrupted`), else the failure.
    fn into_outcome(self, resolve: Resolve<'_>) -> Result<TestOutcome, WireError> {
        if matches!(self.cause, CauseIn::Interrupted) {
            return Ok(TestOutcome::Interrupted(Interruption {
                step: self.step,
                step_index: self.step_index,
                line: self.line,
            }));
        }
        Ok(TestOutcome::Failed(Box::new(self.into_failure(resolve)?)))
    }

    pub(super) fn into_failure(self, resolve: Resolve<'_>) -> Result<TestFailure, WireError> {
        let screenshot = match (self.screenshot_png_base64, self.screenshot) {
            (Some(base64), _) => Some(
                base64::engine::general_purpose::STANDARD
                    .decode(base64)
                    .map_err(WireError::Base64)?,
            ),
            (None, Some(reference)) => {
                let path = resolve(&reference)?;
                let read = read_regular_nofollow(
                    &path,
                    MAX_SCREENSHOT_BYTES,
                    "screenshots in report blobs",
                );
                Some(read.map_err(|error| WireError::Screenshot { path, error })?)
            }
            (None, None) => None,
        };
        Ok(TestFailure {
            step: self.step,
            step_index: self.step_index,
            line: self.line,
            cause: self.cause.try_into()?,
            code: self.code,
            verdict: self.verdict.map(TryInto::try_into).transpose()?,
            screenshot,
            timed_out: self.timed_out.map(TryInto::try_into).transpose()?,
            written_before: self
                .written_before
                .into_iter()
                .map(|written| WrittenStep {
                    step_index: written.step_index,
                    step: written.step,
                    code: written.code,
                })
                .collect(),
        })
    }
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum CauseIn {
    Step {
        kind: String,
        message: String,
        code_line: Option<u32>,
    },
    CacheMiss,
    Infrastructure {
        message: String,
    },
    Engine {
        kind: String,
        reason: String,
        verdict: Option<ClassificationIn>,
        #[serde(default)]
        candidate: Option<String>,
    },
    SetupFailed {
        state: String,
        #[serde(default)]
        setup_test: Option<TestIdIn>,
        #[serde(default)]
        infrastructure: bool,
    },
    Interrupted,
}

impl TryFrom<CauseIn> for FailureCause {
    type Error = WireError;

    fn try_from(cause: CauseIn) -> Result<Self, WireError> {
        Ok(match cause {
            CauseIn::Step {
                kind,
                message,
                code_line,
            } => FailureCause::Step(StepFailure {
                kind: by_name(&FailureKind::ALL, &kind, failure_kind_name, "failure kind")?,
                message,
                code_line,
                visual: None,
            }),
            CauseIn::CacheMiss => FailureCause::CacheMiss,
            CauseIn::Infrastructure { message } => FailureCause::Infrastructure(message),
            CauseIn::Engine {
                kind,
                reason,
                verdict,
                candidate,
            } => FailureCause::Engine(EngineFailure {
                kind: by_name(
                    &EngineFailureKind::ALL,
                    &kind,
                    EngineFailureKind::as_str,
                    "engine failure kind",
                )?,
                // A report keeps only the composed message, so the failure read back carries it
                // as its summary, without a separate cause.
                summary: reason,
                cause: None,
                verdict: verdict.map(TryInto::try_into).transpose()?,
                candidate,
            }),
            CauseIn::SetupFailed {
                state,
                setup_test,
                infrastructure,
            } => FailureCause::SetupFailed(SetupFailed {
                state,
                setup: setup_test.map(TestId::from),
                infrastructure,
            }),
            CauseIn::Interrupted => return Err(WireError::InterruptedRetry),
        })
    }
}

#[derive(Deserialize)]
pub(super) struct ClassificationIn {
    category: String,
    explanation: String,
    recommendation: String,
    /// Absent in blobs written before verdicts named their source: those were the LLM's.
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    llm_category: Option<String>,
}

impl TryFrom<ClassificationIn> for Classification {
    type Error = WireError;

    fn try_from(verdict: ClassificationIn) -> Result<Self, WireError> {
        let source = match verdict.source.as_deref() {
            None | Some("llm") => VerdictSource::Llm,
            Some("evidence") => VerdictSource::Evidence { llm: None },
            Some("evidence+llm") => VerdictSource::Evidence {
                llm: verdict
                    .llm_category
                    .as_deref()
                    .map(category_named)
                    .transpose()?,
            },
            Some(other) => return Err(WireError::UnknownVerdictSource(other.to_owned())),
        };
        Ok(Classification {
            category: category_named(&verdict.category)?,
            explanation: verdict.explanation,
            recommendation: verdict.recommendation,
            source,
        })
    }
}

#[derive(Deserialize)]
pub(super) struct StatsIn {
    passed: usize,
    failed: usize,
    #[serde(default)]
    flaky: usize,
    infrastructure_failures: usize,
    #[serde(default)]
    configuration_failures: usize,
    not_run: usize,
    interrupted: bool,
    duration_ms: u64,
    cached_steps: usize,
    generated_steps: usize,
    healed_steps: usize,
    #[serde(default)]
    skipped_steps: usize,
    #[serde(default)]
    builtin_steps: usize,
    #[serde(default)]
    reused_steps: usize,
    #[serde(default)]
    checks_proven: usize,
    #[serde(default)]
    checks_unproven: usize,
    #[serde(default)]
    checks_vacuous: usize,
    llm_requests: usize,
    tokens_in: u64,
    #[serde(default)]
    tokens_in_cached: u64,
    tokens_out: u64,
    llm_wait_ms: u64,
    #[serde(default)]
    heal_veto_off: bool,
    #[serde(default)]
    llm_writes: bool,
    #[serde(default)]
    allowed_origins_off: bool,
    #[serde(default)]
    interrupted_tests: usize,
    #[serde(default)]
    llm_cut_off: bool,
    #[serde(default)]
    stopped: Option<String>,
}

impl From<StatsIn> for RunStats {
    fn from(stats: StatsIn) -> Self {
        RunStats {
            passed: stats.passed,
            flaky: stats.flaky,
            failed: stats.failed,
            interrupted_tests: stats.interrupted_tests,
            infrastructure_failures: stats.infrastructure_failures,
            configuration_failures: stats.configuration_failures,
            not_run: stats.not_run,
            llm_cut_off: stats.llm_cut_off,
            heal_veto_off: stats.heal_veto_off,
            llm_writes: stats.llm_writes,
            stopped: match (stats.stopped, stats.interrupted) {
                (Some(reason), _) => Some(StopReason::Halted(reason)),
                (None, true) => Some(StopReason::Interrupted),
                (None, false) => None,
            },
            allowed_origins_off: stats.allowed_origins_off,
            duration: ms(stats.duration_ms),
            cached_steps: stats.cached_steps,
            generated_steps: stats.generated_steps,
            healed_steps: stats.healed_steps,
            skipped_steps: stats.skipped_steps,
            builtin_steps: stats.builtin_steps,
            reused_steps: stats.reused_steps,
            checks_proven: stats.checks_proven,
            checks_unproven: stats.checks_unproven,
            checks_vacuous: stats.checks_vacuous,
            llm_requests: stats.llm_requests,
            tokens_in: stats.tokens_in,
            tokens_in_cached: stats.tokens_in_cached,
            tokens_out: stats.tokens_out,
            llm_wait: ms(stats.llm_wait_ms),
        }
    }
}
