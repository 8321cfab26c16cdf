//! Reading the wire format back (`docs/reports.md`): owned, deserializable mirrors of the JSON
//! lines event objects that [`super::wire`] writes, turned into [`crate::runner::RunEvent`]s so
//! that `merge-reports` can replay a report blob through the reporters. The mapping from events
//! to the wire stays one-way in `wire.rs`; the names read here are checked against the names it
//! writes (`failure_kind_name`, `engine_kind_name`, ...), so the two cannot drift apart.
//!
//! Main function: [`parse_event`].

use std::path::PathBuf;
use std::time::Duration;

use base64::Engine as _;
use serde::Deserialize;

use super::wire::{engine_kind_name, failure_kind_name, purpose_name, source_name};
use crate::cache::Author;
use crate::engine::{EngineFailure, EngineFailureKind, LlmPurpose, Pool, StepProof};
use crate::llm::{Category, Classification, Usage, VerdictSource};
use crate::regular_file::{MIB, read_regular_nofollow};
use crate::runner::{
    FailureCause, Interruption, RunEvent, RunStats, SetupFailed, StepSource, StopReason,
    TestFailure, TestId, TestOutcome, TestTiming,
};
use crate::script::{FailureKind, StepFailure};

/// The largest screenshot read by reference (from a report blob's directory): a full-page PNG
/// of a long page fits.
pub(crate) const MAX_SCREENSHOT_BYTES: u64 = 64 * MIB;

/// Where a reference in an event (a screenshot, a trace) points: `reference` is the path the
/// line carries; the answer is the file to use, or why there is none.
pub(crate) type Resolve<'a> = &'a dyn Fn(&str) -> Result<PathBuf, String>;

/// One line of the JSON lines stream (or of a report blob after its header) as a
/// [`RunEvent`]; `None` for an event kind this prettyplay does not know (a newer one's), which
/// is skipped. `resolve` turns a screenshot's or a trace's reference into a file. The error is
/// a lowercase fragment saying what is wrong with the line.
pub(crate) fn parse_event(line: &str, resolve: Resolve<'_>) -> Result<Option<RunEvent>, String> {
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|err| format!("not JSON: {err}"))?;
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(version) if version == u64::from(super::EVENTS_VERSION) => {}
        Some(version) => {
            return Err(format!(
                "event version {version}, this prettyplay reads version {}",
                super::EVENTS_VERSION
            ));
        }
        None => return Err("no \"version\" field: not an event".to_owned()),
    }
    let event = EventIn::deserialize(value).map_err(|err| format!("not an event: {err}"))?;
    event.into_event(resolve)
}

/// The variant of `all` whose wire name is `name`.
fn by_name<T: Copy>(
    all: &[T],
    name: &str,
    wire: fn(T) -> &'static str,
    what: &str,
) -> Result<T, String> {
    all.iter()
        .copied()
        .find(|item| wire(*item) == name)
        .ok_or_else(|| format!("unknown {what} {name:?}"))
}

fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

#[derive(Deserialize)]
struct TestIdIn {
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
#[serde(tag = "event", rename_all = "snake_case")]
enum EventIn {
    RunStarted {
        tests: usize,
    },
    TestStarted {
        test: TestIdIn,
    },
    StepStarted {
        test: TestIdIn,
        index: usize,
        /// Absent in the events of a version that did not say it.
        #[serde(default)]
        steps: usize,
        sentence: String,
        line: usize,
    },
    StepPassed {
        test: TestIdIn,
        index: usize,
        sentence: String,
        line: usize,
        source: String,
        #[serde(default)]
        by: Option<String>,
        duration_ms: u64,
        code: String,
        #[serde(default)]
        proof: Option<String>,
    },
    StepFailed {
        test: TestIdIn,
        index: usize,
        sentence: String,
        line: usize,
        duration_ms: u64,
    },
    StepSkipped {
        test: TestIdIn,
        index: usize,
        sentence: String,
        line: usize,
        duration_ms: u64,
        reason: String,
    },
    SettleRetry {
        test: TestIdIn,
        index: usize,
        attempt: u32,
        failure: String,
    },
    StepLog {
        test: TestIdIn,
        index: usize,
        line: String,
    },
    GenerationStarted {
        test: TestIdIn,
        index: usize,
        pool: String,
        attempt: u32,
        limit: u32,
    },
    HealingStarted {
        test: TestIdIn,
        index: usize,
        category: String,
    },
    Healed {
        test: TestIdIn,
        index: usize,
        sentence: String,
        explanation: String,
        /// Absent in blobs written before heals named their writer: the LLM wrote those.
        #[serde(default)]
        by: Option<String>,
        #[serde(default)]
        offline: bool,
        old_code: String,
        new_code: String,
    },
    ReuseTried {
        test: TestIdIn,
        index: usize,
        from: String,
        #[serde(default)]
        failure: Option<String>,
    },
    StepVerdict {
        test: TestIdIn,
        index: usize,
        verdict: ClassificationIn,
    },
    LlmCall {
        test: TestIdIn,
        purpose: String,
        usage: UsageIn,
        elapsed_ms: u64,
    },
    Warning {
        test: TestIdIn,
        message: String,
    },
    TraceWritten {
        test: TestIdIn,
        path: String,
    },
    TestTiming {
        test: TestIdIn,
        attempt: u32,
        #[serde(default)]
        launch_ms: Option<u64>,
        context_ms: u64,
        steps_ms: u64,
        navigation_ms: u64,
        teardown_ms: u64,
    },
    TestRetry {
        test: TestIdIn,
        attempt: u32,
        failure: Box<FailureIn>,
        duration_ms: u64,
    },
    TestFinished {
        test: TestIdIn,
        outcome: OutcomeIn,
        duration_ms: u64,
    },
    RunFinished {
        stats: StatsIn,
    },
    /// An event this prettyplay does not know: a newer one's (adding an event is not a version
    /// change, docs/reports.md), skipped.
    #[serde(other)]
    Unknown,
}

impl EventIn {
    fn into_event(self, resolve: Resolve<'_>) -> Result<Option<RunEvent>, String> {
        Ok(Some(match self {
            EventIn::Unknown => return Ok(None),
            EventIn::RunStarted { tests } => RunEvent::RunStarted { tests },
            EventIn::TestStarted { test } => RunEvent::TestStarted { test: test.into() },
            EventIn::StepStarted {
                test,
                index,
                steps,
                sentence,
                line,
            } => RunEvent::StepStarted {
                test: test.into(),
                index,
                steps,
                sentence,
                line,
            },
            EventIn::StepPassed {
                test,
                index,
                sentence,
                line,
                source,
                by,
                duration_ms,
                code,
                proof,
            } => RunEvent::StepPassed {
                test: test.into(),
                index,
                sentence,
                line,
                source: by_name(
                    &[
                        StepSource::Cached,
                        StepSource::Generated,
                        StepSource::Healed,
                    ],
                    &source,
                    source_name,
                    "step source",
                )?,
                by: by
                    .map(|by| {
                        by_name(
                            &[Author::Builtin, Author::Llm, Author::Reused],
                            &by,
                            Author::as_str,
                            "author",
                        )
                    })
                    .transpose()?,
                duration: ms(duration_ms),
                code,
                proof: proof
                    .map(|text| {
                        StepProof::from_text(&text).ok_or_else(|| format!("unknown proof {text:?}"))
                    })
                    .transpose()?,
            },
            EventIn::StepFailed {
                test,
                index,
                sentence,
                line,
                duration_ms,
            } => RunEvent::StepFailed {
                test: test.into(),
                index,
                sentence,
                line,
                duration: ms(duration_ms),
            },
            EventIn::StepSkipped {
                test,
                index,
                sentence,
                line,
                duration_ms,
                reason,
            } => RunEvent::StepSkipped {
                test: test.into(),
                index,
                sentence,
                line,
                duration: ms(duration_ms),
                reason,
            },
            EventIn::SettleRetry {
                test,
                index,
                attempt,
                failure,
            } => RunEvent::SettleRetry {
                test: test.into(),
                index,
                attempt,
                failure,
            },
            EventIn::StepLog { test, index, line } => RunEvent::StepLog {
                test: test.into(),
                index,
                line,
            },
            EventIn::GenerationStarted {
                test,
                index,
                pool,
                attempt,
                limit,
            } => RunEvent::GenerationStarted {
                test: test.into(),
                index,
                pool: by_name(
                    &[Pool::Generation, Pool::Healing],
                    &pool,
                    Pool::name,
                    "pool",
                )?,
                attempt,
                limit,
            },
            EventIn::HealingStarted {
                test,
                index,
                category,
            } => RunEvent::HealingStarted {
                test: test.into(),
                index,
                category: category_named(&category)?,
            },
            EventIn::Healed {
                test,
                index,
                sentence,
                explanation,
                by,
                offline,
                old_code,
                new_code,
            } => RunEvent::Healed {
                test: test.into(),
                index,
                sentence,
                explanation,
                by: match by {
                    Some(by) => by_name(
                        &[Author::Builtin, Author::Llm, Author::Reused],
                        &by,
                        Author::as_str,
                        "author",
                    )?,
                    None => Author::Llm,
                },
                offline,
                old_code,
                new_code,
            },
            EventIn::ReuseTried {
                test,
                index,
                from,
                failure,
            } => RunEvent::ReuseTried {
                test: test.into(),
                index,
                from,
                failure,
            },
            EventIn::StepVerdict {
                test,
                index,
                verdict,
            } => RunEvent::StepVerdict {
                test: test.into(),
                index,
                verdict: verdict.try_into()?,
            },
            EventIn::LlmCall {
                test,
                purpose,
                usage,
                elapsed_ms,
            } => RunEvent::LlmCall {
                test: test.into(),
                purpose: by_name(
                    &[LlmPurpose::Generation, LlmPurpose::Classification],
                    &purpose,
                    purpose_name,
                    "LLM purpose",
                )?,
                usage: Usage {
                    input_tokens: usage.input_tokens,
                    cached_input_tokens: usage.cached_input_tokens,
                    output_tokens: usage.output_tokens,
                },
                elapsed: ms(elapsed_ms),
            },
            EventIn::Warning { test, message } => RunEvent::Warning {
                test: test.into(),
                message,
            },
            EventIn::TraceWritten { test, path } => RunEvent::TraceWritten {
                test: test.into(),
                path: resolve(&path)?,
            },
            EventIn::TestTiming {
                test,
                attempt,
                launch_ms,
                context_ms,
                steps_ms,
                navigation_ms,
                teardown_ms,
            } => RunEvent::TestTiming {
                test: test.into(),
                attempt,
                timing: TestTiming {
                    launch: launch_ms.map(ms),
                    context: ms(context_ms),
                    steps: ms(steps_ms),
                    navigation: ms(navigation_ms),
                    teardown: ms(teardown_ms),
                },
            },
            EventIn::TestRetry {
                test,
                attempt,
                failure,
                duration_ms,
            } => RunEvent::TestRetry {
                test: test.into(),
                attempt,
                failure: Box::new(failure.into_failure(resolve)?),
                duration: ms(duration_ms),
            },
            EventIn::TestFinished {
                test,
                outcome,
                duration_ms,
            } => RunEvent::TestFinished {
                test: test.into(),
                outcome: match outcome {
                    OutcomeIn::Passed => TestOutcome::Passed,
                    OutcomeIn::Flaky { attempts } => TestOutcome::Flaky { attempts },
                    OutcomeIn::Failed(failure) => failure.into_outcome(resolve)?,
                },
                duration: ms(duration_ms),
            },
            EventIn::RunFinished { stats } => RunEvent::RunFinished {
                stats: stats.into(),
            },
        }))
    }
}

fn category_named(name: &str) -> Result<Category, String> {
    by_name(
        &[Category::Rot, Category::ProductDefect, Category::Incurable],
        name,
        Category::as_str,
        "category",
    )
}

#[derive(Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
enum OutcomeIn {
    Passed,
    Flaky { attempts: u32 },
    Failed(Box<FailureIn>),
}

#[derive(Deserialize)]
struct FailureIn {
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
}

impl FailureIn {
    /// The outcome of a finished test: an interruption when the cause says so (the wire
    /// writes an interrupted test as a failure whose cause is `interrupted`), else the failure.
    fn into_outcome(self, resolve: Resolve<'_>) -> Result<TestOutcome, String> {
        if matches!(self.cause, CauseIn::Interrupted) {
            return Ok(TestOutcome::Interrupted(Interruption {
                step: self.step,
                step_index: self.step_index,
                line: self.line,
            }));
        }
        Ok(TestOutcome::Failed(Box::new(self.into_failure(resolve)?)))
    }

    fn into_failure(self, resolve: Resolve<'_>) -> Result<TestFailure, String> {
        let screenshot = match (self.screenshot_png_base64, self.screenshot) {
            (Some(base64), _) => Some(
                base64::engine::general_purpose::STANDARD
                    .decode(base64)
                    .map_err(|err| format!("the screenshot is not base64: {err}"))?,
            ),
            (None, Some(reference)) => {
                let path = resolve(&reference)?;
                Some(
                    read_regular_nofollow(
                        &path,
                        MAX_SCREENSHOT_BYTES,
                        "screenshots in report blobs",
                    )
                    .map_err(|err| {
                        format!("cannot read the screenshot {}: {err}", path.display())
                    })?,
                )
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

/// Every engine failure kind, for reading their wire names.
const ENGINE_KINDS: [EngineFailureKind; 10] = [
    EngineFailureKind::ProductDefect,
    EngineFailureKind::Incurable,
    EngineFailureKind::LlmUnavailable,
    EngineFailureKind::CacheWrite,
    EngineFailureKind::HealVetoed,
    EngineFailureKind::BrowserCrash,
    EngineFailureKind::PageCrash,
    EngineFailureKind::AppUnreachable,
    EngineFailureKind::Misconfigured,
    EngineFailureKind::Blocked,
];

impl TryFrom<CauseIn> for FailureCause {
    type Error = String;

    fn try_from(cause: CauseIn) -> Result<Self, String> {
        Ok(match cause {
            CauseIn::Step {
                kind,
                message,
                code_line,
            } => FailureCause::Step(StepFailure {
                kind: by_name(&FailureKind::ALL, &kind, failure_kind_name, "failure kind")?,
                message,
                code_line,
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
                    &ENGINE_KINDS,
                    &kind,
                    engine_kind_name,
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
            CauseIn::Interrupted => {
                return Err("an attempt that Ctrl-C stopped is never retried".to_owned());
            }
        })
    }
}

#[derive(Deserialize)]
struct ClassificationIn {
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
    type Error = String;

    fn try_from(verdict: ClassificationIn) -> Result<Self, String> {
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
            Some(other) => return Err(format!("unknown verdict source `{other}`")),
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
struct UsageIn {
    input_tokens: u64,
    #[serde(default)]
    cached_input_tokens: u64,
    output_tokens: u64,
}

#[derive(Deserialize)]
struct StatsIn {
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

/// A reference resolved against nothing: the path as it is (an events file's absolute trace
/// paths; an events file carries its screenshots inline).
#[cfg(test)]
pub(crate) fn as_is(reference: &str) -> Result<PathBuf, String> {
    Ok(PathBuf::from(reference))
}

#[cfg(test)]
mod tests {
    //! Unit tests of `wire_read.rs`: every event, cause and name written by `wire.rs` reads back
    //! as itself; bad lines say what is wrong.

    use super::*;
    use crate::report::event_json;
    use crate::report::testing;

    /// Every event, written as the events file writes it, reads back as itself.
    fn assert_round_trip(events: &[RunEvent]) {
        for event in events {
            let line = event_json(event);
            let back = parse_event(&line, &as_is)
                .unwrap_or_else(|err| panic!("{err}: {line}"))
                .unwrap_or_else(|| panic!("not read as an event: {line}"));
            assert_eq!(&back, event, "{line}");
        }
    }

    #[test]
    fn every_event_of_the_fixtures_reads_back_as_itself() {
        assert_round_trip(&testing::events());
        assert_round_trip(&testing::retried_events());
    }

    #[test]
    fn every_event_kind_cause_and_name_reads_back_as_itself() {
        let test = testing::id("scenarios/a.steps", "t", 1);
        let failed = |cause: FailureCause| RunEvent::TestFinished {
            test: test.clone(),
            outcome: TestOutcome::Failed(Box::new(TestFailure {
                step: "open the app".into(),
                step_index: 1,
                line: 2,
                cause,
                code: Some("x".into()),
                verdict: Some(testing::defect_verdict()),
                screenshot: Some(testing::PNG.to_vec()),
            })),
            duration: ms(12),
        };
        let mut events = vec![
            RunEvent::StepStarted {
                test: test.clone(),
                index: 1,
                steps: 1,
                sentence: "open the app".into(),
                line: 2,
            },
            RunEvent::StepFailed {
                test: test.clone(),
                index: 1,
                sentence: "open the app".into(),
                line: 2,
                duration: ms(3),
            },
            RunEvent::StepSkipped {
                test: test.clone(),
                index: 2,
                sentence: "accept the cookies".into(),
                line: 3,
                duration: ms(2000),
                reason: "\"Accept\" did not appear within 2s".into(),
            },
            RunEvent::TraceWritten {
                test: test.clone(),
                path: "/tmp/traces/a-t.zip".into(),
            },
            RunEvent::ReuseTried {
                test: test.clone(),
                index: 1,
                from: "scenarios/b.steps › \"u\" › \"open the app\" #1".into(),
                failure: Some("page.goto: Timeout".into()),
            },
            RunEvent::ReuseTried {
                test: test.clone(),
                index: 1,
                from: "scenarios/b.steps › \"v\" › \"open the app\" #1".into(),
                failure: None,
            },
            RunEvent::StepPassed {
                proof: None,
                test: test.clone(),
                index: 1,
                sentence: "open the app".into(),
                line: 2,
                source: StepSource::Generated,
                by: Some(crate::cache::Author::Reused),
                duration: ms(3),
                code: "async function step(page) {}".into(),
            },
            RunEvent::StepPassed {
                proof: None,
                test: test.clone(),
                index: 1,
                sentence: "open the app".into(),
                line: 2,
                source: StepSource::Healed,
                by: Some(crate::cache::Author::Builtin),
                duration: ms(3),
                code: "async function step(page) {}".into(),
            },
            RunEvent::TestTiming {
                test: test.clone(),
                attempt: 2,
                timing: crate::runner::TestTiming {
                    launch: Some(ms(480)),
                    context: ms(40),
                    steps: ms(900),
                    navigation: ms(300),
                    teardown: ms(25),
                },
            },
            RunEvent::TestTiming {
                test: test.clone(),
                attempt: 1,
                timing: crate::runner::TestTiming::default(),
            },
            RunEvent::Warning {
                test: test.clone(),
                message: "careful".into(),
            },
        ];
        for kind in FailureKind::ALL {
            events.push(failed(FailureCause::Step(StepFailure {
                kind,
                message: "it failed".into(),
                code_line: Some(3),
            })));
        }
        for kind in ENGINE_KINDS {
            events.push(failed(FailureCause::Engine(EngineFailure {
                kind,
                summary: "no".into(),
                cause: None,
                verdict: Some(testing::defect_verdict()),
                candidate: Some("y".into()),
            })));
        }
        for category in [Category::Rot, Category::ProductDefect, Category::Incurable] {
            events.push(RunEvent::HealingStarted {
                test: test.clone(),
                index: 1,
                category,
            });
        }
        for pool in [Pool::Generation, Pool::Healing] {
            events.push(RunEvent::GenerationStarted {
                test: test.clone(),
                index: 1,
                pool,
                attempt: 2,
                limit: 3,
            });
        }
        for purpose in [LlmPurpose::Generation, LlmPurpose::Classification] {
            events.push(RunEvent::LlmCall {
                test: test.clone(),
                purpose,
                usage: Usage {
                    input_tokens: 9,
                    cached_input_tokens: 4,
                    output_tokens: 2,
                },
                elapsed: ms(7),
            });
        }
        events.push(failed(FailureCause::CacheMiss));
        events.push(failed(FailureCause::Infrastructure("gone".into())));
        events.push(RunEvent::TestFinished {
            test: testing::id("scenarios/todo.steps", "stopped", 9),
            outcome: testing::interrupted(),
            duration: ms(12),
        });
        for setup in [
            Some(testing::id("scenarios/auth.steps", "sign in", 4)),
            None,
        ] {
            events.push(failed(FailureCause::SetupFailed(SetupFailed {
                state: "user".into(),
                setup,
                infrastructure: true,
            })));
        }
        events.push(RunEvent::RunFinished {
            stats: RunStats {
                checks_proven: 0,
                checks_unproven: 0,
                checks_vacuous: 0,
                passed: 1,
                flaky: 2,
                failed: 12,
                interrupted_tests: 1,
                infrastructure_failures: 2,
                configuration_failures: 1,
                not_run: 3,
                llm_cut_off: true,
                heal_veto_off: true,
                stopped: Some(StopReason::Halted(
                    "the browser could not be launched".into(),
                )),
                allowed_origins_off: true,
                duration: ms(4210),
                cached_steps: 4,
                generated_steps: 5,
                healed_steps: 6,
                skipped_steps: 3,
                builtin_steps: 2,
                reused_steps: 1,
                llm_requests: 7,
                tokens_in: 8,
                tokens_in_cached: 3,
                tokens_out: 9,
                llm_wait: ms(10),
            },
        });
        assert_round_trip(&events);
    }

    #[test]
    fn a_screenshot_by_reference_is_read_from_the_resolved_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("1.png"), testing::PNG).unwrap();
        let line = event_json(&RunEvent::TestFinished {
            test: testing::id("a.steps", "t", 1),
            outcome: TestOutcome::Passed,
            duration: ms(1),
        });
        assert!(parse_event(&line, &as_is).is_ok());
        let mut failure = testing::defect_failure();
        failure.screenshot = None;
        let line = event_json(&RunEvent::TestFinished {
            test: testing::id("a.steps", "t", 1),
            outcome: TestOutcome::Failed(Box::new(failure)),
            duration: ms(1),
        });
        let line = line.replace("\"verdict\":{", "\"screenshot\":\"1.png\",\"verdict\":{");
        let resolve = |reference: &str| Ok(dir.path().join(reference));
        let RunEvent::TestFinished {
            outcome: TestOutcome::Failed(failure),
            ..
        } = parse_event(&line, &resolve).unwrap().unwrap()
        else {
            panic!("expected a failed test: {line}");
        };
        assert_eq!(failure.screenshot.as_deref(), Some(&testing::PNG[..]));
        let missing = line.replace("1.png", "2.png");
        let err = parse_event(&missing, &resolve).unwrap_err();
        assert!(err.starts_with("cannot read the screenshot"), "{err}");
    }

    #[test]
    fn a_bad_line_says_what_is_wrong_with_it() {
        let err = |line: &str| parse_event(line, &as_is).unwrap_err();
        assert!(err("{\"version\":1,").starts_with("not JSON"));
        assert_eq!(
            err("{\"version\":2,\"event\":\"run_started\",\"tests\":1}"),
            "event version 2, this prettyplay reads version 1"
        );
        assert!(err("{\"event\":\"run_started\"}").contains("no \"version\""));
        // A newer prettyplay's event is skipped; a known event that does not read is an error.
        assert_eq!(
            parse_event("{\"version\":1,\"event\":\"party\",\"x\":1}", &as_is),
            Ok(None)
        );
        assert!(err("{\"version\":1,\"event\":\"run_started\"}").starts_with("not an event"));
        let bad_source = event_json(&testing::events()[2]).replace("\"cached\"", "\"borrowed\"");
        assert_eq!(err(&bad_source), "unknown step source \"borrowed\"");
    }
}
