//! How run events look on the wire (the JSON lines stream, `docs/reports.md`): serializable
//! mirrors of [`crate::runner::RunEvent`] and the types it carries, borrowing from the event and
//! built from it here, so that the runner's types know nothing of the format.
//!
//! Main type: [`EventWire`]. An event is one flat object: its name (`"event"`), its header
//! ([`Head`]: when it happened, its test, its step's index), then its own fields. Durations are
//! whole milliseconds, enums are snake_case strings, screenshots are base64. The failure a test
//! ends with is in `wire_outcome.rs`, the totals in `wire_stats.rs`.

use std::path::Path;

use serde::Serialize;

use super::wire_outcome::{ClassificationWire, FailureWire, OutcomeWire, TestIdWire};
use super::wire_stats::{StatsWire, UsageWire, millis};
use crate::cache::Author;
use crate::engine::LlmPurpose;
use crate::runner::{
    EventKind, EventTime, OriginSeen, RunEvent, RunKind, StepId, StepKind, StepSource, TestId,
    TestKind,
};

/// The version of the JSON lines format; every object carries it as `"version"`.
pub(crate) const EVENTS_VERSION: u32 = 1;

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

/// The header of an event: when it happened (absent in an event that was never stamped), and
/// what it is about (`test` for a test's and a step's events, `index` for a step's).
#[derive(Serialize)]
pub(crate) struct Head<'a> {
    /// RFC 3339 in UTC, to the millisecond.
    #[serde(skip_serializing_if = "Option::is_none")]
    timestamp: Option<String>,
    /// The time since the run started (its shard's run, in a merged report).
    #[serde(skip_serializing_if = "Option::is_none")]
    run_elapsed_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    test: Option<TestIdWire<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    index: Option<usize>,
}

impl<'a> Head<'a> {
    fn of(time: Option<&EventTime>, test: Option<&'a TestId>, index: Option<usize>) -> Self {
        Self {
            timestamp: time.map(|time| format!("{:.3}", time.timestamp)),
            run_elapsed_ms: time.map(|time| millis(time.elapsed)),
            test: test.map(TestIdWire::from),
            index,
        }
    }
}

/// One event: `"event"` names it, its header and its fields follow.
#[derive(Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub(crate) enum EventWire<'a> {
    RunStarted {
        #[serde(flatten)]
        head: Head<'a>,
        tests: usize,
    },
    TestStarted {
        #[serde(flatten)]
        head: Head<'a>,
    },
    StepStarted {
        #[serde(flatten)]
        head: Head<'a>,
        /// How many steps the test has, its file's background included.
        steps: usize,
        sentence: &'a str,
        line: usize,
    },
    StepPassed {
        #[serde(flatten)]
        head: Head<'a>,
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
        head: Head<'a>,
        sentence: &'a str,
        line: usize,
        duration_ms: u64,
    },
    /// An `[optional]` step whose target did not appear: skipped, never passed.
    StepSkipped {
        #[serde(flatten)]
        head: Head<'a>,
        sentence: &'a str,
        line: usize,
        duration_ms: u64,
        reason: &'a str,
    },
    SettleRetry {
        #[serde(flatten)]
        head: Head<'a>,
        attempt: u32,
        failure: &'a str,
    },
    StepLog {
        #[serde(flatten)]
        head: Head<'a>,
        line: &'a str,
    },
    GenerationStarted {
        #[serde(flatten)]
        head: Head<'a>,
        pool: &'static str,
        attempt: u32,
        limit: u32,
    },
    HealingStarted {
        #[serde(flatten)]
        head: Head<'a>,
        category: &'static str,
    },
    Healed {
        #[serde(flatten)]
        head: Head<'a>,
        sentence: &'a str,
        explanation: &'a str,
        by: &'static str,
        offline: bool,
        old_code: &'a str,
        new_code: &'a str,
    },
    ReuseTried {
        #[serde(flatten)]
        head: Head<'a>,
        from: &'a str,
        /// Absent when the reused code passed.
        #[serde(skip_serializing_if = "Option::is_none")]
        failure: Option<&'a str>,
    },
    StepVerdict {
        #[serde(flatten)]
        head: Head<'a>,
        verdict: ClassificationWire<'a>,
    },
    LlmCall {
        #[serde(flatten)]
        head: Head<'a>,
        purpose: &'static str,
        usage: UsageWire,
        elapsed_ms: u64,
    },
    Warning {
        #[serde(flatten)]
        head: Head<'a>,
        message: &'a str,
    },
    TraceWritten {
        #[serde(flatten)]
        head: Head<'a>,
        path: &'a Path,
    },
    OriginsSeen {
        #[serde(flatten)]
        head: Head<'a>,
        origins: &'a [OriginSeen],
    },
    TestTiming {
        #[serde(flatten)]
        head: Head<'a>,
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
        #[serde(flatten)]
        head: Head<'a>,
        attempt: u32,
        failure: Box<FailureWire<'a>>,
        duration_ms: u64,
    },
    TestFinished {
        #[serde(flatten)]
        head: Head<'a>,
        outcome: OutcomeWire<'a>,
        duration_ms: u64,
    },
    RunFinished {
        #[serde(flatten)]
        head: Head<'a>,
        stats: StatsWire,
    },
}

impl<'a> From<&'a RunEvent> for EventWire<'a> {
    fn from(event: &'a RunEvent) -> Self {
        let time = event.time.as_ref();
        match &event.kind {
            EventKind::Run(kind) => run_event(Head::of(time, None, None), kind),
            EventKind::Test(test, kind) => test_event(Head::of(time, Some(test), None), kind),
            EventKind::Step(StepId { test, index }, kind) => {
                step_event(Head::of(time, Some(test), Some(*index)), kind)
            }
        }
    }
}

fn run_event<'a>(head: Head<'a>, kind: &'a RunKind) -> EventWire<'a> {
    match kind {
        RunKind::Started(started) => EventWire::RunStarted {
            head,
            tests: started.tests,
        },
        RunKind::Finished(finished) => EventWire::RunFinished {
            head,
            stats: (&finished.stats).into(),
        },
    }
}

fn test_event<'a>(head: Head<'a>, kind: &'a TestKind) -> EventWire<'a> {
    match kind {
        TestKind::Started => EventWire::TestStarted { head },
        TestKind::Timing(timing) => {
            let phases = &timing.timing;
            EventWire::TestTiming {
                head,
                attempt: timing.attempt,
                launch_ms: phases.launch.map(millis),
                context_ms: millis(phases.context),
                steps_ms: millis(phases.steps),
                navigation_ms: millis(phases.navigation),
                teardown_ms: millis(phases.teardown),
            }
        }
        TestKind::LlmCall(call) => EventWire::LlmCall {
            head,
            purpose: purpose_name(call.purpose),
            usage: (&call.usage).into(),
            elapsed_ms: millis(call.elapsed),
        },
        TestKind::Warning(warning) => EventWire::Warning {
            head,
            message: &warning.message,
        },
        TestKind::Origins(seen) => EventWire::OriginsSeen {
            head,
            origins: &seen.origins,
        },
        TestKind::TraceWritten(trace) => EventWire::TraceWritten {
            head,
            path: &trace.path,
        },
        TestKind::Retry(retry) => EventWire::TestRetry {
            head,
            attempt: retry.attempt,
            failure: Box::new(retry.failure.as_ref().into()),
            duration_ms: millis(retry.duration),
        },
        TestKind::Finished(finished) => EventWire::TestFinished {
            head,
            outcome: (&finished.outcome).into(),
            duration_ms: millis(finished.duration),
        },
    }
}

fn step_event<'a>(head: Head<'a>, kind: &'a StepKind) -> EventWire<'a> {
    match kind {
        StepKind::Started(started) => EventWire::StepStarted {
            head,
            steps: started.steps,
            sentence: &started.sentence,
            line: started.line,
        },
        StepKind::Passed(passed) => EventWire::StepPassed {
            head,
            sentence: &passed.sentence,
            line: passed.line,
            source: source_name(passed.source),
            by: passed.by.map(Author::as_str),
            duration_ms: millis(passed.duration),
            code: &passed.code,
            proof: passed.proof.as_ref().map(ToString::to_string),
        },
        StepKind::Failed(failed) => EventWire::StepFailed {
            head,
            sentence: &failed.sentence,
            line: failed.line,
            duration_ms: millis(failed.duration),
        },
        StepKind::Skipped(skipped) => EventWire::StepSkipped {
            head,
            sentence: &skipped.sentence,
            line: skipped.line,
            duration_ms: millis(skipped.duration),
            reason: &skipped.reason,
        },
        StepKind::SettleRetry(retry) => EventWire::SettleRetry {
            head,
            attempt: retry.attempt,
            failure: &retry.failure,
        },
        StepKind::Log(log) => EventWire::StepLog {
            head,
            line: &log.line,
        },
        StepKind::GenerationStarted(started) => EventWire::GenerationStarted {
            head,
            pool: started.pool.name(),
            attempt: started.attempt,
            limit: started.limit,
        },
        StepKind::HealingStarted(started) => EventWire::HealingStarted {
            head,
            category: started.category.as_str(),
        },
        StepKind::Healed(healed) => EventWire::Healed {
            head,
            sentence: &healed.sentence,
            explanation: &healed.explanation,
            by: healed.by.as_str(),
            offline: healed.offline,
            old_code: &healed.old_code,
            new_code: &healed.new_code,
        },
        StepKind::ReuseTried(tried) => EventWire::ReuseTried {
            head,
            from: &tried.from,
            failure: tried.failure.as_deref(),
        },
        StepKind::Verdict(verdict) => EventWire::StepVerdict {
            head,
            verdict: (&verdict.verdict).into(),
        },
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
