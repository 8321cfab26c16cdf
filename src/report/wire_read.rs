//! Reading the wire format back (`docs/reports.md`): owned, deserializable mirrors of the JSON
//! lines event objects that [`super::wire`] writes, turned into [`crate::runner::RunEvent`]s so
//! that `merge-reports` can replay a report blob through the reporters. The mapping from events
//! to the wire stays one-way in `wire.rs`; the names read here are checked against the names it
//! writes (`failure_kind_name`, `EngineFailureKind::as_str`, ...), so the two cannot drift apart.
//!
//! A line is read in two parts from the same object: its header ([`HeadIn`]: when, which test,
//! which step) and its kind with its own fields ([`KindIn`]). Lines of a prettyplay that wrote
//! no time read as events without one. The failure a test ends with and the totals are read in
//! `wire_read_outcome.rs`.
//!
//! Main function: [`parse_event`].

use serde::Deserialize;

use super::wire::{purpose_name, source_name};
use super::wire_error::{Resolve, WireError, by_name};
use super::wire_read_outcome::{
    ClassificationIn, FailureIn, OutcomeIn, StatsIn, TestIdIn, category_named, ms,
};
use crate::cache::Author;
use crate::engine::{LlmPurpose, Pool, StepProof};
use crate::llm::Usage;
use crate::runner::{
    AttemptTiming, EventKind, EventTime, GenerationStarted, Healed, HealingStarted, LlmCall,
    OriginSeen, OriginsSeen, ReuseTried, RunEvent, RunFinished, RunKind, RunStarted, SettleRetry,
    StepFailed, StepId, StepKind, StepLog, StepPassed, StepSkipped, StepSource, StepStarted,
    StepVerdict, TestFinished, TestKind, TestRetry, TestTiming, TraceWritten, Warning,
};

/// One line of the JSON lines stream (or of a report blob after its header) as a
/// [`RunEvent`]; `None` for an event kind this prettyplay does not know (a newer one's), which
/// is skipped. `resolve` turns a screenshot's or a trace's reference into a file.
pub(crate) fn parse_event(line: &str, resolve: Resolve<'_>) -> Result<Option<RunEvent>, WireError> {
    let value: serde_json::Value = serde_json::from_str(line).map_err(WireError::NotJson)?;
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(version) if version == u64::from(super::EVENTS_VERSION) => {}
        Some(found) => return Err(WireError::Version { found }),
        None => return Err(WireError::NoVersion),
    }
    let kind = KindIn::deserialize(&value).map_err(WireError::NotAnEvent)?;
    let Some(kind) = kind.read(resolve)? else {
        return Ok(None);
    };
    let mut head = HeadIn::deserialize(&value).map_err(WireError::NotAnEvent)?;
    let time = head.time()?;
    let kind = match kind {
        Scoped::Run(kind) => EventKind::Run(kind),
        Scoped::Test(kind) => EventKind::Test(head.test()?, kind),
        Scoped::Step(kind) => {
            let index = head.index.ok_or(WireError::Missing("index"))?;
            let test = head.test()?;
            EventKind::Step(StepId { test, index }, kind)
        }
    };
    Ok(Some(RunEvent { time, kind }))
}

/// The header of an event: each field absent where the event has none, and the time absent in
/// the events of a prettyplay that wrote none.
#[derive(Deserialize)]
struct HeadIn {
    #[serde(default)]
    timestamp: Option<String>,
    #[serde(default)]
    run_elapsed_ms: Option<u64>,
    #[serde(default)]
    test: Option<TestIdIn>,
    #[serde(default)]
    index: Option<usize>,
}

impl HeadIn {
    /// When the event happened: both fields, or neither.
    fn time(&self) -> Result<Option<EventTime>, WireError> {
        let (timestamp, elapsed) = match (&self.timestamp, self.run_elapsed_ms) {
            (None, None) => return Ok(None),
            (Some(timestamp), Some(elapsed)) => (timestamp, elapsed),
            (None, Some(_)) => return Err(WireError::Missing("timestamp")),
            (Some(_), None) => return Err(WireError::Missing("run_elapsed_ms")),
        };
        let parsed = timestamp.parse().map_err(|error| WireError::Timestamp {
            timestamp: timestamp.clone(),
            error,
        })?;
        Ok(Some(EventTime {
            timestamp: parsed,
            elapsed: ms(elapsed),
        }))
    }

    /// The test a test's or a step's event is about.
    fn test(&mut self) -> Result<crate::runner::TestId, WireError> {
        self.test
            .take()
            .map(Into::into)
            .ok_or(WireError::Missing("test"))
    }
}

/// An event's kind, read: what happened, and whether it is about the run, a test or a step.
enum Scoped {
    Run(RunKind),
    Test(TestKind),
    Step(StepKind),
}

/// The kind of an event (`"event"`) and its own fields.
#[derive(Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
enum KindIn {
    RunStarted(RunStartedIn),
    TestStarted {},
    StepStarted(StepStartedIn),
    StepPassed(StepPassedIn),
    StepFailed(StepFailedIn),
    StepSkipped(StepSkippedIn),
    SettleRetry(SettleRetryIn),
    StepLog(StepLogIn),
    GenerationStarted(GenerationStartedIn),
    HealingStarted(HealingStartedIn),
    Healed(HealedIn),
    ReuseTried(ReuseTriedIn),
    StepVerdict(StepVerdictIn),
    LlmCall(LlmCallIn),
    Warning(WarningIn),
    TraceWritten(TraceWrittenIn),
    OriginsSeen(OriginsSeenIn),
    TestTiming(TestTimingIn),
    TestRetry(TestRetryIn),
    TestFinished(TestFinishedIn),
    RunFinished(RunFinishedIn),
    /// An event this prettyplay does not know: a newer one's (adding an event is not a version
    /// change, docs/reports.md), skipped.
    #[serde(other)]
    Unknown,
}

impl KindIn {
    /// The kind as the runner has it; `None` for an unknown kind.
    fn read(self, resolve: Resolve<'_>) -> Result<Option<Scoped>, WireError> {
        Ok(Some(match self {
            KindIn::Unknown => return Ok(None),
            KindIn::RunStarted(started) => Scoped::Run(
                RunStarted {
                    tests: started.tests,
                }
                .into(),
            ),
            KindIn::RunFinished(finished) => Scoped::Run(
                RunFinished {
                    stats: finished.stats.into(),
                }
                .into(),
            ),
            KindIn::TestStarted {} => Scoped::Test(TestKind::Started),
            KindIn::TestTiming(timing) => Scoped::Test(timing.read().into()),
            KindIn::LlmCall(call) => Scoped::Test(call.read()?.into()),
            KindIn::Warning(warning) => Scoped::Test(warning.read().into()),
            KindIn::TraceWritten(trace) => Scoped::Test(trace.read(resolve)?.into()),
            KindIn::OriginsSeen(seen) => Scoped::Test(
                OriginsSeen {
                    origins: seen.origins,
                }
                .into(),
            ),
            KindIn::TestRetry(retry) => Scoped::Test(retry.read(resolve)?.into()),
            KindIn::TestFinished(finished) => Scoped::Test(finished.read(resolve)?.into()),
            KindIn::StepStarted(started) => Scoped::Step(started.read().into()),
            KindIn::StepPassed(passed) => Scoped::Step(passed.read()?.into()),
            KindIn::StepFailed(failed) => Scoped::Step(failed.read().into()),
            KindIn::StepSkipped(skipped) => Scoped::Step(skipped.read().into()),
            KindIn::SettleRetry(retry) => Scoped::Step(retry.read().into()),
            KindIn::StepLog(log) => Scoped::Step(log.read().into()),
            KindIn::GenerationStarted(started) => Scoped::Step(started.read()?.into()),
            KindIn::HealingStarted(started) => Scoped::Step(started.read()?.into()),
            KindIn::Healed(healed) => Scoped::Step(healed.read()?.into()),
            KindIn::ReuseTried(tried) => Scoped::Step(tried.read().into()),
            KindIn::StepVerdict(verdict) => Scoped::Step(verdict.read()?.into()),
        }))
    }
}

#[derive(Deserialize)]
struct RunStartedIn {
    tests: usize,
}

#[derive(Deserialize)]
struct RunFinishedIn {
    stats: StatsIn,
}

#[derive(Deserialize)]
struct TestTimingIn {
    attempt: u32,
    #[serde(default)]
    launch_ms: Option<u64>,
    context_ms: u64,
    steps_ms: u64,
    navigation_ms: u64,
    teardown_ms: u64,
}

impl TestTimingIn {
    fn read(self) -> AttemptTiming {
        AttemptTiming {
            attempt: self.attempt,
            timing: TestTiming {
                launch: self.launch_ms.map(ms),
                context: ms(self.context_ms),
                steps: ms(self.steps_ms),
                navigation: ms(self.navigation_ms),
                teardown: ms(self.teardown_ms),
            },
        }
    }
}

#[derive(Deserialize)]
struct LlmCallIn {
    purpose: String,
    usage: UsageIn,
    elapsed_ms: u64,
}

#[derive(Deserialize)]
struct UsageIn {
    input_tokens: u64,
    #[serde(default)]
    cached_input_tokens: u64,
    output_tokens: u64,
}

impl LlmCallIn {
    fn read(self) -> Result<LlmCall, WireError> {
        Ok(LlmCall {
            purpose: by_name(
                &[LlmPurpose::Generation, LlmPurpose::Classification],
                &self.purpose,
                purpose_name,
                "LLM purpose",
            )?,
            usage: Usage {
                input_tokens: self.usage.input_tokens,
                cached_input_tokens: self.usage.cached_input_tokens,
                output_tokens: self.usage.output_tokens,
            },
            elapsed: ms(self.elapsed_ms),
        })
    }
}

#[derive(Deserialize)]
struct WarningIn {
    message: String,
}

impl WarningIn {
    fn read(self) -> Warning {
        Warning {
            message: self.message,
        }
    }
}

#[derive(Deserialize)]
struct OriginsSeenIn {
    origins: Vec<OriginSeen>,
}

#[derive(Deserialize)]
struct TraceWrittenIn {
    path: String,
}

impl TraceWrittenIn {
    fn read(self, resolve: Resolve<'_>) -> Result<TraceWritten, WireError> {
        Ok(TraceWritten {
            path: resolve(&self.path)?,
        })
    }
}

#[derive(Deserialize)]
struct TestRetryIn {
    attempt: u32,
    failure: Box<FailureIn>,
    duration_ms: u64,
}

impl TestRetryIn {
    fn read(self, resolve: Resolve<'_>) -> Result<TestRetry, WireError> {
        Ok(TestRetry {
            attempt: self.attempt,
            failure: Box::new(self.failure.into_failure(resolve)?),
            duration: ms(self.duration_ms),
        })
    }
}

#[derive(Deserialize)]
struct TestFinishedIn {
    outcome: OutcomeIn,
    duration_ms: u64,
}

impl TestFinishedIn {
    fn read(self, resolve: Resolve<'_>) -> Result<TestFinished, WireError> {
        Ok(TestFinished {
            outcome: self.outcome.read(resolve)?,
            duration: ms(self.duration_ms),
        })
    }
}

#[derive(Deserialize)]
struct StepStartedIn {
    /// Absent in the events of a version that did not say it.
    #[serde(default)]
    steps: usize,
    sentence: String,
    line: usize,
}

impl StepStartedIn {
    fn read(self) -> StepStarted {
        StepStarted {
            steps: self.steps,
            sentence: self.sentence,
            line: self.line,
        }
    }
}

/// The authors of generated code, for reading their wire names.
const AUTHORS: [Author; 3] = [Author::Builtin, Author::Llm, Author::Reused];

#[derive(Deserialize)]
struct StepPassedIn {
    sentence: String,
    line: usize,
    source: String,
    #[serde(default)]
    by: Option<String>,
    duration_ms: u64,
    code: String,
    #[serde(default)]
    proof: Option<String>,
}

impl StepPassedIn {
    fn read(self) -> Result<StepPassed, WireError> {
        let sources = [
            StepSource::Cached,
            StepSource::Generated,
            StepSource::Healed,
        ];
        Ok(StepPassed {
            sentence: self.sentence,
            line: self.line,
            source: by_name(&sources, &self.source, source_name, "step source")?,
            by: self
                .by
                .map(|by| by_name(&AUTHORS, &by, Author::as_str, "author"))
                .transpose()?,
            duration: ms(self.duration_ms),
            code: self.code,
            proof: self
                .proof
                .map(|text| {
                    StepProof::from_text(&text).ok_or_else(|| WireError::UnknownProof(text))
                })
                .transpose()?,
        })
    }
}

#[derive(Deserialize)]
struct StepFailedIn {
    sentence: String,
    line: usize,
    duration_ms: u64,
}

impl StepFailedIn {
    fn read(self) -> StepFailed {
        StepFailed {
            sentence: self.sentence,
            line: self.line,
            duration: ms(self.duration_ms),
        }
    }
}

#[derive(Deserialize)]
struct StepSkippedIn {
    sentence: String,
    line: usize,
    duration_ms: u64,
    reason: String,
}

impl StepSkippedIn {
    fn read(self) -> StepSkipped {
        StepSkipped {
            sentence: self.sentence,
            line: self.line,
            duration: ms(self.duration_ms),
            reason: self.reason,
        }
    }
}

#[derive(Deserialize)]
struct SettleRetryIn {
    attempt: u32,
    failure: String,
}

impl SettleRetryIn {
    fn read(self) -> SettleRetry {
        SettleRetry {
            attempt: self.attempt,
            failure: self.failure,
        }
    }
}

#[derive(Deserialize)]
struct StepLogIn {
    line: String,
}

impl StepLogIn {
    fn read(self) -> StepLog {
        StepLog { line: self.line }
    }
}

#[derive(Deserialize)]
struct GenerationStartedIn {
    pool: String,
    attempt: u32,
    limit: u32,
}

impl GenerationStartedIn {
    fn read(self) -> Result<GenerationStarted, WireError> {
        Ok(GenerationStarted {
            pool: by_name(
                &[Pool::Generation, Pool::Healing],
                &self.pool,
                Pool::name,
                "pool",
            )?,
            attempt: self.attempt,
            limit: self.limit,
        })
    }
}

#[derive(Deserialize)]
struct HealingStartedIn {
    category: String,
}

impl HealingStartedIn {
    fn read(self) -> Result<HealingStarted, WireError> {
        Ok(HealingStarted {
            category: category_named(&self.category)?,
        })
    }
}

#[derive(Deserialize)]
struct HealedIn {
    sentence: String,
    explanation: String,
    /// Absent in blobs written before heals named their writer: the LLM wrote those.
    #[serde(default)]
    by: Option<String>,
    #[serde(default)]
    offline: bool,
    old_code: String,
    new_code: String,
}

impl HealedIn {
    fn read(self) -> Result<Healed, WireError> {
        Ok(Healed {
            sentence: self.sentence,
            explanation: self.explanation,
            by: match self.by {
                Some(by) => by_name(&AUTHORS, &by, Author::as_str, "author")?,
                None => Author::Llm,
            },
            offline: self.offline,
            old_code: self.old_code,
            new_code: self.new_code,
        })
    }
}

#[derive(Deserialize)]
struct ReuseTriedIn {
    from: String,
    #[serde(default)]
    failure: Option<String>,
}

impl ReuseTriedIn {
    fn read(self) -> ReuseTried {
        ReuseTried {
            from: self.from,
            failure: self.failure,
        }
    }
}

#[derive(Deserialize)]
struct StepVerdictIn {
    verdict: ClassificationIn,
}

impl StepVerdictIn {
    fn read(self) -> Result<StepVerdict, WireError> {
        Ok(StepVerdict {
            verdict: self.verdict.try_into()?,
        })
    }
}

/// A reference resolved against nothing: the path as it is (an events file's absolute trace
/// paths; an events file carries its screenshots inline).
#[cfg(test)]
pub(crate) fn as_is(
    reference: &str,
) -> Result<std::path::PathBuf, super::wire_error::AttachmentError> {
    Ok(std::path::PathBuf::from(reference))
}

#[cfg(test)]
mod tests {
    //! Unit tests of `wire_read.rs`: every event, cause and name written by `wire.rs` reads back
    //! as itself, with its header; lines of a prettyplay that wrote no time still read; bad
    //! lines say what is wrong.

    use super::*;
    use crate::engine::{EngineFailure, EngineFailureKind};
    use crate::llm::Category;
    use crate::report::event_json;
    use crate::report::testing;
    use crate::runner::{
        FailureCause, RunStats, SetupFailed, StopReason, TestFailure, TestOutcome,
    };
    use crate::script::{FailureKind, StepFailure};

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

    fn err(line: &str) -> String {
        parse_event(line, &as_is).unwrap_err().to_string()
    }

    #[test]
    fn every_event_of_the_fixtures_reads_back_as_itself() {
        assert_round_trip(&testing::events());
        assert_round_trip(&testing::retried_events());
        assert_round_trip(&testing::stamped(testing::events()));
        assert_round_trip(&testing::stamped(testing::retried_events()));
    }

    /// The events file of the fixture runs as a prettyplay wrote it before events carried
    /// their time (`fixtures/events-without-time.jsonl`): every line reads as the event it
    /// was, without a time.
    #[test]
    fn lines_written_before_events_carried_their_time_read_as_the_events_they_were() {
        let old = include_str!("fixtures/events-without-time.jsonl");
        let read: Vec<RunEvent> = old
            .lines()
            .map(|line| {
                parse_event(line, &as_is)
                    .unwrap_or_else(|err| panic!("{err}: {line}"))
                    .unwrap_or_else(|| panic!("not read as an event: {line}"))
            })
            .collect();
        let mut expected = testing::events();
        expected.extend(testing::retried_events());
        assert_eq!(read, expected);
        assert!(read.iter().all(|event| event.time.is_none()));
        // Written again, an event without a time is the line it was read from.
        let written: Vec<String> = read.iter().map(event_json).collect();
        assert_eq!(written, old.lines().collect::<Vec<_>>());
    }

    #[test]
    fn the_header_comes_after_the_name_and_reads_back() {
        let events = testing::stamped(testing::events());
        let step = events
            .iter()
            .find(|event| matches!(event.kind, EventKind::Step(..)))
            .unwrap();
        let line = event_json(step);
        let time = step.time.unwrap();
        assert!(
            line.starts_with(&format!(
                "{{\"version\":1,\"event\":\"step_passed\",\"timestamp\":\"{:.3}\",\
                 \"run_elapsed_ms\":{},\"test\":{{",
                time.timestamp,
                time.elapsed.as_millis()
            )),
            "{line}"
        );
        assert!(line.contains("},\"index\":1,\"sentence\":"), "{line}");
        let back = parse_event(&line, &as_is).unwrap().unwrap();
        assert_eq!(back.time, Some(time));
        assert_eq!(back.test(), step.test());
        // The run's own events have no test; a test's have no index.
        let run = event_json(&events[0]);
        assert!(
            !run.contains("\"test\"") && !run.contains("\"index\""),
            "{run}"
        );
        let test = event_json(&events[1]);
        assert!(
            test.contains("\"test\"") && !test.contains("\"index\""),
            "{test}"
        );
    }

    #[test]
    fn a_header_that_lacks_what_its_kind_is_about_is_not_an_event() {
        let events = testing::stamped(testing::events());
        let step = event_json(&events[2]);
        assert_eq!(
            err(&step.replace("\"index\":1,", "")),
            "not an event: missing field `index`"
        );
        let time = format!(
            "\"timestamp\":\"{:.3}\",",
            events[2].time.unwrap().timestamp
        );
        assert_eq!(
            err(&step.replace(&time, "")),
            "not an event: missing field `timestamp`"
        );
        let bad = step.replace(&time, "\"timestamp\":\"yesterday\",");
        assert!(
            err(&bad).starts_with("not an event: the timestamp \"yesterday\" is not RFC 3339"),
            "{}",
            err(&bad)
        );
    }

    #[test]
    fn every_event_kind_cause_and_name_reads_back_as_itself() {
        let test = testing::id("scenarios/a.steps", "t", 1);
        let failed = |cause: FailureCause| {
            let failure = TestFailure {
                step: "open the app".into(),
                step_index: 1,
                line: 2,
                cause,
                code: Some("x".into()),
                verdict: Some(testing::defect_verdict()),
                screenshot: Some(testing::PNG.to_vec()),
                timed_out: Some(crate::step::Waited {
                    method: "click".into(),
                    call: ms(5003),
                    before: ms(0),
                    timeout: ms(5000),
                    setting: crate::step::TimeoutSetting::Navigation,
                    run: crate::step::WaitedIn::Step,
                }),
                written_before: vec![crate::runner::WrittenStep {
                    step_index: 1,
                    step: "open the app".into(),
                    code: "x".into(),
                }],
            };
            testing::finished(&test, TestOutcome::Failed(Box::new(failure)), 12)
        };
        let step = |index, kind: StepKind| RunEvent::of_step(test.clone(), index, kind);
        let mut events = vec![
            step(
                1,
                StepStarted {
                    steps: 1,
                    sentence: "open the app".into(),
                    line: 2,
                }
                .into(),
            ),
            step(
                1,
                StepFailed {
                    sentence: "open the app".into(),
                    line: 2,
                    duration: ms(3),
                }
                .into(),
            ),
            step(
                2,
                StepSkipped {
                    sentence: "accept the cookies".into(),
                    line: 3,
                    duration: ms(2000),
                    reason: "\"Accept\" did not appear within 2s".into(),
                }
                .into(),
            ),
            RunEvent::of_test(
                test.clone(),
                TraceWritten {
                    path: "/tmp/traces/a-t.zip".into(),
                },
            ),
            step(
                1,
                ReuseTried {
                    from: "scenarios/b.steps › \"u\" › \"open the app\" #1".into(),
                    failure: Some("page.goto: Timeout".into()),
                }
                .into(),
            ),
            step(
                1,
                ReuseTried {
                    from: "scenarios/b.steps › \"v\" › \"open the app\" #1".into(),
                    failure: None,
                }
                .into(),
            ),
            step(
                1,
                StepPassed {
                    proof: None,
                    sentence: "open the app".into(),
                    line: 2,
                    source: StepSource::Generated,
                    by: Some(Author::Reused),
                    duration: ms(3),
                    code: "async function step(page) {}".into(),
                }
                .into(),
            ),
            step(
                1,
                StepPassed {
                    proof: None,
                    sentence: "open the app".into(),
                    line: 2,
                    source: StepSource::Healed,
                    by: Some(Author::Builtin),
                    duration: ms(3),
                    code: "async function step(page) {}".into(),
                }
                .into(),
            ),
            RunEvent::of_test(
                test.clone(),
                AttemptTiming {
                    attempt: 2,
                    timing: TestTiming {
                        launch: Some(ms(480)),
                        context: ms(40),
                        steps: ms(900),
                        navigation: ms(300),
                        teardown: ms(25),
                    },
                },
            ),
            RunEvent::of_test(
                test.clone(),
                AttemptTiming {
                    attempt: 1,
                    timing: TestTiming::default(),
                },
            ),
            RunEvent::of_test(
                test.clone(),
                Warning {
                    message: "careful".into(),
                },
            ),
        ];
        for kind in FailureKind::ALL {
            events.push(failed(FailureCause::Step(StepFailure {
                kind,
                message: "it failed".into(),
                code_line: Some(3),
                visual: None,
            })));
        }
        for kind in EngineFailureKind::ALL {
            events.push(failed(FailureCause::Engine(EngineFailure {
                kind,
                summary: "no".into(),
                cause: None,
                verdict: Some(testing::defect_verdict()),
                candidate: Some("y".into()),
            })));
        }
        for category in [Category::Rot, Category::ProductDefect, Category::Incurable] {
            events.push(step(1, HealingStarted { category }.into()));
        }
        for pool in [Pool::Generation, Pool::Healing] {
            let started = GenerationStarted {
                pool,
                attempt: 2,
                limit: 3,
            };
            events.push(step(1, started.into()));
        }
        for purpose in [LlmPurpose::Generation, LlmPurpose::Classification] {
            let call = LlmCall {
                purpose,
                usage: Usage {
                    input_tokens: 9,
                    cached_input_tokens: 4,
                    output_tokens: 2,
                },
                elapsed: ms(7),
            };
            events.push(RunEvent::of_test(test.clone(), call));
        }
        events.push(failed(FailureCause::CacheMiss));
        events.push(failed(FailureCause::Infrastructure("gone".into())));
        events.push(testing::finished(
            &testing::id("scenarios/todo.steps", "stopped", 9),
            testing::interrupted(),
            12,
        ));
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
        events.push(RunEvent::of_run(RunFinished {
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
                llm_writes: true,
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
        }));
        assert_round_trip(&events);
        assert_round_trip(&testing::stamped(events));
    }

    #[test]
    fn a_screenshot_by_reference_is_read_from_the_resolved_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("1.png"), testing::PNG).unwrap();
        let test = testing::id("a.steps", "t", 1);
        let line = event_json(&testing::finished(&test, TestOutcome::Passed, 1));
        assert!(parse_event(&line, &as_is).is_ok());
        let mut failure = testing::defect_failure();
        failure.screenshot = None;
        let line = event_json(&testing::finished(
            &test,
            TestOutcome::Failed(Box::new(failure)),
            1,
        ));
        let line = line.replace("\"verdict\":{", "\"screenshot\":\"1.png\",\"verdict\":{");
        let resolve = |reference: &str| Ok(dir.path().join(reference));
        let read = parse_event(&line, &resolve).unwrap().unwrap();
        let EventKind::Test(_, TestKind::Finished(finished)) = read.kind else {
            panic!("expected a finished test: {line}");
        };
        let TestOutcome::Failed(failure) = finished.outcome else {
            panic!("expected a failed test: {line}");
        };
        assert_eq!(failure.screenshot.as_deref(), Some(&testing::PNG[..]));
        let missing = line.replace("1.png", "2.png");
        let err = parse_event(&missing, &resolve).unwrap_err().to_string();
        assert!(err.starts_with("cannot read the screenshot"), "{err}");
    }

    #[test]
    fn a_bad_line_says_what_is_wrong_with_it() {
        assert!(err("{\"version\":1,").starts_with("not JSON"));
        assert_eq!(
            err("{\"version\":2,\"event\":\"run_started\",\"tests\":1}"),
            "event version 2, this prettyplay reads version 1"
        );
        assert!(err("{\"event\":\"run_started\"}").contains("no \"version\""));
        // A newer prettyplay's event is skipped; a known event that does not read is an error.
        assert!(matches!(
            parse_event("{\"version\":1,\"event\":\"party\",\"x\":1}", &as_is),
            Ok(None)
        ));
        assert!(err("{\"version\":1,\"event\":\"run_started\"}").starts_with("not an event"));
        let bad_source = event_json(&testing::events()[2]).replace("\"cached\"", "\"borrowed\"");
        assert_eq!(err(&bad_source), "unknown step source \"borrowed\"");
    }
}
