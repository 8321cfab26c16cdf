//! How run events look on the wire (the JSON lines stream, `docs/reports.md`): serializable
//! mirrors of [`crate::runner::RunEvent`] and the types it carries, borrowing from the event and
//! built from it here, so that the runner's types know nothing of the format.
//!
//! Main type: [`EventWire`]. Durations are whole milliseconds, enums are snake_case strings,
//! screenshots are base64.

use std::path::Path;
use std::time::Duration;

use base64::Engine as _;
use serde::Serialize;

use crate::cache::Author;
use crate::engine::{EngineFailureKind, LlmPurpose};
use crate::llm::{Category, Classification, Usage, VerdictSource};
use crate::runner::{
    FailureCause, RunEvent, RunStats, StepSource, StopReason, TestFailure, TestId, TestOutcome,
};
use crate::script::FailureKind;

/// The version of the JSON lines format; every object carries it as `"version"`.
pub(crate) const EVENTS_VERSION: u32 = 1;

/// A duration as whole milliseconds (saturating at `u64::MAX`).
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// The wire name of a step failure kind (`failed_check`, `timeout`, ...).
pub(crate) fn failure_kind_name(kind: FailureKind) -> &'static str {
    match kind {
        FailureKind::FailedCheck => "failed_check",
        FailureKind::Timeout => "timeout",
        FailureKind::StrictMode => "strict_mode",
        FailureKind::Script => "script",
        FailureKind::Crash => "crash",
        FailureKind::PageCrash => "page_crash",
        FailureKind::Detached => "detached",
        FailureKind::Unreachable => "unreachable",
        FailureKind::AppError => "app_error",
        FailureKind::Misconfigured => "misconfigured",
        FailureKind::Blocked => "blocked",
        FailureKind::Absent => "absent",
        FailureKind::Refused { .. } => "refused",
    }
}

/// The wire name of an engine failure kind (`product_defect`, ...).
pub(crate) fn engine_kind_name(kind: EngineFailureKind) -> &'static str {
    match kind {
        EngineFailureKind::ProductDefect => "product_defect",
        EngineFailureKind::Incurable => "incurable",
        EngineFailureKind::LlmUnavailable => "llm_unavailable",
        EngineFailureKind::CacheWrite => "cache_write",
        EngineFailureKind::HealVetoed => "heal_vetoed",
        EngineFailureKind::BrowserCrash => "browser_crash",
        EngineFailureKind::PageCrash => "page_crash",
        EngineFailureKind::AppUnreachable => "app_unreachable",
        EngineFailureKind::Misconfigured => "misconfigured",
        EngineFailureKind::Blocked => "blocked",
    }
}

/// The wire name of where a step's code came from (`cached`, `generated`, `healed`).
pub(crate) fn source_name(source: StepSource) -> &'static str {
    match source {
        StepSource::Cached => "cached",
        StepSource::Generated => "generated",
        StepSource::Healed => "healed",
    }
}

/// The wire name of an LLM request's purpose (`generation`, `classification`).
pub(crate) fn purpose_name(purpose: LlmPurpose) -> &'static str {
    match purpose {
        LlmPurpose::Generation => "generation",
        LlmPurpose::Classification => "classification",
    }
}

/// The step an event is about: its test and its 1-based index, the first fields of every step
/// event.
#[derive(Serialize)]
pub(crate) struct StepRef<'a> {
    test: TestIdWire<'a>,
    index: usize,
}

impl<'a> StepRef<'a> {
    fn new(test: &'a TestId, index: usize) -> Self {
        Self {
            test: test.into(),
            index,
        }
    }
}

/// One event: `"event"` names it, its fields follow.
#[derive(Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub(crate) enum EventWire<'a> {
    RunStarted {
        tests: usize,
    },
    TestStarted {
        test: TestIdWire<'a>,
    },
    StepStarted {
        #[serde(flatten)]
        step: StepRef<'a>,
        /// How many steps the test has, its file's background included.
        steps: usize,
        sentence: &'a str,
        line: usize,
    },
    StepPassed {
        #[serde(flatten)]
        step: StepRef<'a>,
        sentence: &'a str,
        line: usize,
        source: &'static str,
        /// Who wrote generated or healed code: `"builtin"` or `"llm"`; absent for cached code.
        #[serde(skip_serializing_if = "Option::is_none")]
        by: Option<&'static str>,
        duration_ms: u64,
        code: &'a str,
        /// How the step's checks were proven (see `docs/reports.md`); absent when unknown.
        #[serde(skip_serializing_if = "Option::is_none")]
        proof: Option<String>,
    },
    StepFailed {
        #[serde(flatten)]
        step: StepRef<'a>,
        sentence: &'a str,
        line: usize,
        duration_ms: u64,
    },
    /// An `[optional]` step whose target did not appear: skipped, never passed.
    StepSkipped {
        #[serde(flatten)]
        step: StepRef<'a>,
        sentence: &'a str,
        line: usize,
        duration_ms: u64,
        reason: &'a str,
    },
    SettleRetry {
        #[serde(flatten)]
        step: StepRef<'a>,
        attempt: u32,
        failure: &'a str,
    },
    StepLog {
        #[serde(flatten)]
        step: StepRef<'a>,
        line: &'a str,
    },
    GenerationStarted {
        #[serde(flatten)]
        step: StepRef<'a>,
        pool: &'static str,
        attempt: u32,
        limit: u32,
    },
    HealingStarted {
        #[serde(flatten)]
        step: StepRef<'a>,
        category: &'static str,
    },
    Healed {
        #[serde(flatten)]
        step: StepRef<'a>,
        sentence: &'a str,
        explanation: &'a str,
        by: &'static str,
        offline: bool,
        old_code: &'a str,
        new_code: &'a str,
    },
    ReuseTried {
        #[serde(flatten)]
        step: StepRef<'a>,
        from: &'a str,
        /// Absent when the reused code passed.
        #[serde(skip_serializing_if = "Option::is_none")]
        failure: Option<&'a str>,
    },
    StepVerdict {
        #[serde(flatten)]
        step: StepRef<'a>,
        verdict: ClassificationWire<'a>,
    },
    LlmCall {
        test: TestIdWire<'a>,
        purpose: &'static str,
        usage: UsageWire,
        elapsed_ms: u64,
    },
    Warning {
        test: TestIdWire<'a>,
        message: &'a str,
    },
    TraceWritten {
        test: TestIdWire<'a>,
        path: &'a Path,
    },
    TestTiming {
        test: TestIdWire<'a>,
        attempt: u32,
        /// Present only when this attempt launched (or connected to) a browser.
        #[serde(skip_serializing_if = "Option::is_none")]
        launch_ms: Option<u64>,
        context_ms: u64,
        steps_ms: u64,
        navigation_ms: u64,
        teardown_ms: u64,
    },
    TestRetry {
        test: TestIdWire<'a>,
        attempt: u32,
        failure: Box<FailureWire<'a>>,
        duration_ms: u64,
    },
    TestFinished {
        test: TestIdWire<'a>,
        outcome: OutcomeWire<'a>,
        duration_ms: u64,
    },
    RunFinished {
        stats: StatsWire,
    },
}

impl<'a> From<&'a RunEvent> for EventWire<'a> {
    fn from(event: &'a RunEvent) -> Self {
        match event {
            RunEvent::RunStarted { tests } => EventWire::RunStarted { tests: *tests },
            RunEvent::TestStarted { test } => EventWire::TestStarted { test: test.into() },
            RunEvent::StepStarted {
                test,
                index,
                steps,
                sentence,
                line,
            } => EventWire::StepStarted {
                step: StepRef::new(test, *index),
                steps: *steps,
                sentence,
                line: *line,
            },
            RunEvent::StepPassed {
                test,
                index,
                sentence,
                line,
                source,
                by,
                duration,
                code,
                proof,
            } => EventWire::StepPassed {
                step: StepRef::new(test, *index),
                sentence,
                line: *line,
                source: source_name(*source),
                by: by.map(Author::as_str),
                duration_ms: millis(*duration),
                code,
                proof: proof.as_ref().map(ToString::to_string),
            },
            RunEvent::StepFailed {
                test,
                index,
                sentence,
                line,
                duration,
            } => EventWire::StepFailed {
                step: StepRef::new(test, *index),
                sentence,
                line: *line,
                duration_ms: millis(*duration),
            },
            RunEvent::StepSkipped {
                test,
                index,
                sentence,
                line,
                duration,
                reason,
            } => EventWire::StepSkipped {
                step: StepRef::new(test, *index),
                sentence,
                line: *line,
                duration_ms: millis(*duration),
                reason,
            },
            RunEvent::SettleRetry {
                test,
                index,
                attempt,
                failure,
            } => EventWire::SettleRetry {
                step: StepRef::new(test, *index),
                attempt: *attempt,
                failure,
            },
            RunEvent::StepLog { test, index, line } => EventWire::StepLog {
                step: StepRef::new(test, *index),
                line,
            },
            RunEvent::GenerationStarted {
                test,
                index,
                pool,
                attempt,
                limit,
            } => EventWire::GenerationStarted {
                step: StepRef::new(test, *index),
                pool: pool.name(),
                attempt: *attempt,
                limit: *limit,
            },
            RunEvent::HealingStarted {
                test,
                index,
                category,
            } => EventWire::HealingStarted {
                step: StepRef::new(test, *index),
                category: category.as_str(),
            },
            RunEvent::Healed {
                test,
                index,
                sentence,
                explanation,
                by,
                offline,
                old_code,
                new_code,
            } => EventWire::Healed {
                step: StepRef::new(test, *index),
                sentence,
                explanation,
                by: by.as_str(),
                offline: *offline,
                old_code,
                new_code,
            },
            RunEvent::ReuseTried {
                test,
                index,
                from,
                failure,
            } => EventWire::ReuseTried {
                step: StepRef::new(test, *index),
                from,
                failure: failure.as_deref(),
            },
            RunEvent::StepVerdict {
                test,
                index,
                verdict,
            } => EventWire::StepVerdict {
                step: StepRef::new(test, *index),
                verdict: verdict.into(),
            },
            RunEvent::LlmCall {
                test,
                purpose,
                usage,
                elapsed,
            } => EventWire::LlmCall {
                test: test.into(),
                purpose: purpose_name(*purpose),
                usage: usage.into(),
                elapsed_ms: millis(*elapsed),
            },
            RunEvent::Warning { test, message } => EventWire::Warning {
                test: test.into(),
                message,
            },
            RunEvent::TraceWritten { test, path } => EventWire::TraceWritten {
                test: test.into(),
                path,
            },
            RunEvent::TestTiming {
                test,
                attempt,
                timing,
            } => EventWire::TestTiming {
                test: test.into(),
                attempt: *attempt,
                launch_ms: timing.launch.map(millis),
                context_ms: millis(timing.context),
                steps_ms: millis(timing.steps),
                navigation_ms: millis(timing.navigation),
                teardown_ms: millis(timing.teardown),
            },
            RunEvent::TestRetry {
                test,
                attempt,
                failure,
                duration,
            } => EventWire::TestRetry {
                test: test.into(),
                attempt: *attempt,
                failure: Box::new(failure.as_ref().into()),
                duration_ms: millis(*duration),
            },
            RunEvent::TestFinished {
                test,
                outcome,
                duration,
            } => EventWire::TestFinished {
                test: test.into(),
                outcome: outcome.into(),
                duration_ms: millis(*duration),
            },
            RunEvent::RunFinished { stats } => EventWire::RunFinished {
                stats: stats.into(),
            },
        }
    }
}

/// A test: scenario file, name and the line of its `test:` header, and its browser project in
/// a run of several browsers (left out otherwise, so the events of a Chromium run are as
/// before).
#[derive(Serialize)]
pub(crate) struct TestIdWire<'a> {
    scenario: &'a str,
    name: &'a str,
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    project: Option<&'a str>,
}

impl<'a> From<&'a TestId> for TestIdWire<'a> {
    fn from(id: &'a TestId) -> Self {
        Self {
            scenario: &id.scenario,
            name: &id.name,
            line: id.line,
            project: id.project.as_deref(),
        }
    }
}

/// How a test ended: `"status"` is `passed`, `flaky` (passed on attempt `attempts` after
/// failing every attempt before), or `failed` with the failure's fields.
#[derive(Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub(crate) enum OutcomeWire<'a> {
    Passed,
    Flaky { attempts: u32 },
    Failed(Box<FailureWire<'a>>),
}

impl<'a> From<&'a TestOutcome> for OutcomeWire<'a> {
    fn from(outcome: &'a TestOutcome) -> Self {
        match outcome {
            TestOutcome::Passed => OutcomeWire::Passed,
            TestOutcome::Flaky { attempts } => OutcomeWire::Flaky {
                attempts: *attempts,
            },
            TestOutcome::Failed(failure) => OutcomeWire::Failed(Box::new(failure.as_ref().into())),
            // Written as a failure whose cause is `interrupted`, the shape readers know.
            TestOutcome::Interrupted(at) => OutcomeWire::Failed(Box::new(FailureWire {
                step: &at.step,
                step_index: at.step_index,
                line: at.line,
                cause: CauseWire::Interrupted,
                code: None,
                verdict: None,
                screenshot_png_base64: None,
                screenshot: None,
            })),
        }
    }
}

/// A failed test: the step, its cause, its code, the verdict and the screenshot.
#[derive(Serialize)]
pub(crate) struct FailureWire<'a> {
    step: &'a str,
    step_index: usize,
    line: usize,
    cause: CauseWire<'a>,
    code: Option<&'a str>,
    verdict: Option<ClassificationWire<'a>>,
    /// Standard base64 of the PNG; the field is absent without a screenshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    screenshot_png_base64: Option<String>,
    /// The PNG by reference instead (a report blob): a path relative to the blob's directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    screenshot: Option<String>,
}

impl FailureWire<'_> {
    /// Names the screenshot by `path` instead of carrying it inline (report blobs).
    pub(crate) fn refer_screenshot(&mut self, path: String) {
        self.screenshot_png_base64 = None;
        self.screenshot = Some(path);
    }
}

impl<'a> EventWire<'a> {
    /// The failure the event carries: a failed test's, or a failed attempt's before a retry.
    pub(crate) fn failure_mut(&mut self) -> Option<&mut FailureWire<'a>> {
        match self {
            EventWire::TestRetry { failure, .. } => Some(failure),
            EventWire::TestFinished {
                outcome: OutcomeWire::Failed(failure),
                ..
            } => Some(failure),
            _ => None,
        }
    }

    /// The path of a [`EventWire::TraceWritten`] event, to point it elsewhere (report blobs).
    pub(crate) fn trace_path_mut(&mut self) -> Option<&mut &'a Path> {
        match self {
            EventWire::TraceWritten { path, .. } => Some(path),
            _ => None,
        }
    }
}

impl<'a> From<&'a TestFailure> for FailureWire<'a> {
    fn from(failure: &'a TestFailure) -> Self {
        let TestFailure {
            step,
            step_index,
            line,
            cause,
            code,
            verdict,
            screenshot,
        } = failure;
        Self {
            step,
            step_index: *step_index,
            line: *line,
            cause: cause.into(),
            code: code.as_deref(),
            verdict: verdict.as_ref().map(ClassificationWire::from),
            screenshot_png_base64: screenshot
                .as_ref()
                .map(|png| base64::engine::general_purpose::STANDARD.encode(png)),
            screenshot: None,
        }
    }
}

/// Why a test failed: `"type"` names the cause, its fields follow.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum CauseWire<'a> {
    Step {
        kind: &'static str,
        message: &'a str,
        code_line: Option<u32>,
    },
    CacheMiss,
    Infrastructure {
        message: &'a str,
    },
    Engine {
        kind: &'static str,
        /// The summary followed by the cause, as [`EngineFailure::message`] composes them.
        reason: String,
        verdict: Option<ClassificationWire<'a>>,
        /// The last generated code that failed, when the failure is about a candidate.
        #[serde(skip_serializing_if = "Option::is_none")]
        candidate: Option<&'a str>,
    },
    /// The saved state the test starts from has no passing setup test: the test did not run.
    SetupFailed {
        state: &'a str,
        /// `file › test` of the setup test; absent when no test of the run saves the state.
        setup: Option<String>,
        /// The setup test as a test object; absent when no test of the run saves the state.
        #[serde(skip_serializing_if = "Option::is_none")]
        setup_test: Option<TestIdWire<'a>>,
        /// Whether the setup failed for the browser's, the driver's or the LLM's reason.
        infrastructure: bool,
        message: String,
    },
    Interrupted,
}

impl<'a> From<&'a FailureCause> for CauseWire<'a> {
    fn from(cause: &'a FailureCause) -> Self {
        match cause {
            FailureCause::Step(failure) => CauseWire::Step {
                kind: failure_kind_name(failure.kind),
                message: &failure.message,
                code_line: failure.code_line,
            },
            FailureCause::CacheMiss => CauseWire::CacheMiss,
            FailureCause::Infrastructure(message) => CauseWire::Infrastructure { message },
            FailureCause::Engine(failure) => CauseWire::Engine {
                kind: engine_kind_name(failure.kind),
                reason: failure.message(),
                verdict: failure.verdict.as_ref().map(ClassificationWire::from),
                candidate: failure.candidate.as_deref(),
            },
            FailureCause::SetupFailed(setup) => CauseWire::SetupFailed {
                state: &setup.state,
                setup: setup.setup.as_ref().map(ToString::to_string),
                setup_test: setup.setup.as_ref().map(TestIdWire::from),
                infrastructure: setup.infrastructure,
                message: setup.message(),
            },
        }
    }
}

/// The verdict on a failure, and what decided it: `source` is `evidence`, `llm`, or
/// `evidence+llm` (the evidence decided, and `llm_category` is what the LLM said; `agreed`
/// tells whether it said the same).
#[derive(Serialize)]
pub(crate) struct ClassificationWire<'a> {
    category: &'static str,
    explanation: &'a str,
    recommendation: &'a str,
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    llm_category: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agreed: Option<bool>,
}

impl<'a> From<&'a Classification> for ClassificationWire<'a> {
    fn from(verdict: &'a Classification) -> Self {
        let llm = match verdict.source {
            VerdictSource::Evidence { llm } => llm,
            VerdictSource::Llm => None,
        };
        Self {
            category: verdict.category.as_str(),
            explanation: &verdict.explanation,
            recommendation: &verdict.recommendation,
            source: verdict.source.as_str(),
            llm_category: llm.map(Category::as_str),
            agreed: llm.map(|llm| llm == verdict.category),
        }
    }
}

/// The tokens of one LLM request.
#[derive(Serialize)]
pub(crate) struct UsageWire {
    input_tokens: u64,
    /// The part of `input_tokens` read from the server's prompt cache.
    cached_input_tokens: u64,
    output_tokens: u64,
}

impl From<&Usage> for UsageWire {
    fn from(usage: &Usage) -> Self {
        Self {
            input_tokens: usage.input_tokens,
            cached_input_tokens: usage.cached_input_tokens,
            output_tokens: usage.output_tokens,
        }
    }
}

/// The totals of a run.
#[derive(Serialize)]
pub(crate) struct StatsWire {
    passed: usize,
    failed: usize,
    flaky: usize,
    infrastructure_failures: usize,
    /// Failures a missing setting caused; present only when some did.
    #[serde(skip_serializing_if = "is_zero")]
    configuration_failures: usize,
    not_run: usize,
    interrupted: bool,
    duration_ms: u64,
    cached_steps: usize,
    generated_steps: usize,
    healed_steps: usize,
    /// `[optional]` steps skipped because their target did not appear; present only when some
    /// were.
    #[serde(skip_serializing_if = "is_zero")]
    skipped_steps: usize,
    /// Of the generated and healed steps, those the built-in generator wrote; present only
    /// when some were.
    #[serde(skip_serializing_if = "is_zero")]
    builtin_steps: usize,
    /// Of the generated and healed steps, those whose code was reused from another test;
    /// present only when some were.
    #[serde(skip_serializing_if = "is_zero")]
    reused_steps: usize,
    /// Passed check steps by what the mutation proof said; present only when some were.
    #[serde(skip_serializing_if = "is_zero")]
    checks_proven: usize,
    #[serde(skip_serializing_if = "is_zero")]
    checks_unproven: usize,
    #[serde(skip_serializing_if = "is_zero")]
    checks_vacuous: usize,
    llm_requests: usize,
    tokens_in: u64,
    tokens_in_cached: u64,
    tokens_out: u64,
    llm_wait_ms: u64,
    /// Present (and `true`) only when healing ran with the heal veto off.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    heal_veto_off: bool,
    /// Present (and `true`) only when `[browser] allowed_origins = ["*"]`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    allowed_origins_off: bool,
    /// Tests Ctrl-C stopped (not in `failed`); present only when some were.
    #[serde(skip_serializing_if = "is_zero")]
    interrupted_tests: usize,
    /// Present (and `true`) only when the LLM failed several times in a row and the rest of the
    /// run made no LLM calls.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    llm_cut_off: bool,
    /// Why the run stopped early (a browser that could not be relaunched, an app that could not
    /// be reached, a missing setting); present only then.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

impl From<&RunStats> for StatsWire {
    fn from(stats: &RunStats) -> Self {
        // Destructured so that a new total cannot be left off the wire unnoticed.
        let RunStats {
            passed,
            flaky,
            failed,
            infrastructure_failures,
            configuration_failures,
            not_run,
            duration,
            cached_steps,
            generated_steps,
            healed_steps,
            skipped_steps,
            builtin_steps,
            reused_steps,
            checks_proven,
            checks_unproven,
            checks_vacuous,
            llm_requests,
            tokens_in,
            tokens_in_cached,
            tokens_out,
            llm_wait,
            heal_veto_off,
            allowed_origins_off,
            interrupted_tests,
            llm_cut_off,
            ref stopped,
        } = *stats;
        Self {
            passed,
            failed,
            flaky,
            infrastructure_failures,
            configuration_failures,
            not_run,
            interrupted: stats.interrupted(),
            duration_ms: millis(duration),
            cached_steps,
            generated_steps,
            healed_steps,
            skipped_steps,
            builtin_steps,
            reused_steps,
            checks_proven,
            checks_unproven,
            checks_vacuous,
            llm_requests,
            tokens_in,
            tokens_in_cached,
            tokens_out,
            llm_wait_ms: millis(llm_wait),
            heal_veto_off,
            allowed_origins_off,
            interrupted_tests,
            llm_cut_off,
            stopped: match stopped {
                Some(StopReason::Halted(reason)) => Some(reason.clone()),
                _ => None,
            },
        }
    }
}
