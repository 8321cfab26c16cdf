//! The JSON lines event stream (`--events FILE`, `--reporter json`): one JSON object per run
//! event, written and flushed as it happens, so the file can be followed while the run goes on.
//! Every object carries `"version"` ([`EVENTS_VERSION`]) first and `"event"` second; the format
//! is documented in `docs/reports.md`.
//!
//! Main type: [`JsonReporter`].

use std::io::{self, Write};

use serde::Serialize;

use super::reporter::Reporter;
use super::wire::{EVENTS_VERSION, EventWire};
use crate::runner::RunEvent;

/// One line of the stream: the version, then the event's fields.
#[derive(Serialize)]
struct Line<'a> {
    version: u32,
    #[serde(flatten)]
    event: EventWire<'a>,
}

/// Writes every event as a line of JSON.
pub(crate) struct JsonReporter<W: Write> {
    out: W,
}

impl<W: Write> JsonReporter<W> {
    pub(crate) fn new(out: W) -> Self {
        Self { out }
    }
}

/// An event as one line of JSON (without the newline).
pub(crate) fn event_json(event: &RunEvent) -> String {
    wire_json(EventWire::from(event))
}

/// An event's wire form as one line of JSON (without the newline), the version first.
pub(super) fn wire_json(event: EventWire<'_>) -> String {
    let line = Line {
        version: EVENTS_VERSION,
        event,
    };
    // Serializing to a String cannot fail: every map key is a string and no serializer errors.
    serde_json::to_string(&line).unwrap_or_else(|err| {
        serde_json::json!({ "version": EVENTS_VERSION, "event": "error", "message": err.to_string() })
            .to_string()
    })
}

impl<W: Write> Reporter for JsonReporter<W> {
    fn handle(&mut self, event: &RunEvent) -> io::Result<()> {
        writeln!(self.out, "{}", event_json(event))?;
        self.out.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing::{self, redact};

    #[test]
    fn json_lines_of_every_event() {
        let mut out = Vec::new();
        let events = testing::stamped(testing::events());
        testing::feed(&mut JsonReporter::new(&mut out), &events);
        let text = String::from_utf8(out).unwrap();
        for line in text.lines() {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(value["version"], 1, "{line}");
            assert!(value["event"].is_string(), "{line}");
            assert!(line.starts_with("{\"version\":1,\"event\":"), "{line}");
            assert!(value["timestamp"].is_string(), "{line}");
            assert!(value["run_elapsed_ms"].is_u64(), "{line}");
        }
        insta::assert_snapshot!(redact(&text));
    }

    /// Events and causes the run fixture lacks: every failure cause and kind, a trace, and an
    /// interrupted run's totals.
    fn other_events() -> Vec<RunEvent> {
        use crate::engine::{EngineFailure, EngineFailureKind};
        use crate::llm::Category;
        use crate::runner::{
            AttemptTiming, FailureCause, HealingStarted, RunFinished, RunStats, StepStarted,
            TestFailure, TestOutcome, TraceWritten,
        };
        use crate::script::{FailureKind, StepFailure};
        use std::time::Duration;

        let test = testing::id("scenarios/a.steps", "t", 1);
        let failed = |cause: FailureCause, code: Option<&str>| {
            let failure = TestFailure {
                step: "open the app".into(),
                step_index: 1,
                line: 2,
                cause,
                code: code.map(str::to_owned),
                verdict: None,
                screenshot: None,
                timed_out: None,
                written_before: Vec::new(),
            };
            testing::finished(&test, TestOutcome::Failed(Box::new(failure)), 12)
        };
        let timing = |launch| {
            let timing = AttemptTiming {
                attempt: 1,
                timing: crate::runner::TestTiming {
                    launch,
                    context: Duration::from_millis(40),
                    steps: Duration::from_millis(900),
                    navigation: Duration::from_millis(300),
                    teardown: Duration::from_millis(25),
                },
            };
            RunEvent::of_test(test.clone(), timing)
        };
        let trace = TraceWritten {
            path: "prettyplay-report/traces/a-t.zip".into(),
        };
        let mut events = vec![
            RunEvent::of_test(test.clone(), trace),
            timing(Some(Duration::from_millis(480))),
            timing(None),
        ];
        for kind in FailureKind::ALL {
            let step = StepFailure {
                kind,
                message: "it failed".into(),
                code_line: None,
                visual: None,
            };
            events.push(failed(FailureCause::Step(step), Some("x")));
        }
        for kind in EngineFailureKind::ALL {
            let engine = EngineFailure {
                kind,
                summary: "no".into(),
                cause: None,
                verdict: None,
                candidate: Some("y".into()),
            };
            events.push(failed(FailureCause::Engine(engine), None));
        }
        events.push(failed(FailureCause::CacheMiss, None));
        events.push(failed(FailureCause::Infrastructure("gone".into()), None));
        let interrupted = TestOutcome::Interrupted(crate::runner::Interruption {
            step: "open the app".into(),
            step_index: 1,
            line: 2,
        });
        events.push(testing::finished(&test, interrupted, 12));
        for setup in [
            Some(testing::id("scenarios/auth.steps", "sign in", 4)),
            None,
        ] {
            let setup = crate::runner::SetupFailed {
                state: "user".into(),
                setup,
                infrastructure: false,
            };
            events.push(failed(FailureCause::SetupFailed(setup), None));
        }
        let started = StepStarted {
            steps: 2,
            sentence: "open the app".into(),
            line: 2,
        };
        events.push(RunEvent::of_step(test.clone(), 1, started));
        let healing = HealingStarted {
            category: Category::Incurable,
        };
        events.push(RunEvent::of_step(test.clone(), 1, healing));
        events.push(RunEvent::of_run(RunFinished {
            stats: RunStats {
                failed: 12,
                infrastructure_failures: 2,
                not_run: 3,
                stopped: Some(crate::runner::StopReason::Interrupted),
                ..RunStats::default()
            },
        }));
        events
    }

    #[test]
    fn json_lines_of_every_cause_and_kind() {
        let text: String = other_events()
            .iter()
            .map(|event| event_json(event) + "\n")
            .collect();
        insta::assert_snapshot!(text);
    }

    #[test]
    fn a_failed_test_carries_its_cause_verdict_and_screenshot() {
        let events = testing::events();
        let finished = events
            .iter()
            .rev()
            .find(|e| {
                matches!(
                    e.kind,
                    crate::runner::EventKind::Test(_, crate::runner::TestKind::Finished(_))
                )
            })
            .unwrap();
        let value: serde_json::Value = serde_json::from_str(&event_json(finished)).unwrap();
        let outcome = &value["outcome"];
        assert_eq!(outcome["status"], "failed");
        assert_eq!(outcome["cause"]["type"], "engine");
        assert_eq!(outcome["cause"]["kind"], "product_defect");
        assert_eq!(outcome["verdict"]["category"], "product_defect");
        assert_eq!(value["duration_ms"], 3700);
        use base64::Engine as _;
        let png = base64::engine::general_purpose::STANDARD
            .decode(outcome["screenshot_png_base64"].as_str().unwrap())
            .unwrap();
        assert_eq!(png, testing::PNG);
    }

    #[test]
    fn every_cause_is_an_object_with_a_type() {
        use crate::report::wire_outcome::{CauseWire, FailureWire};
        use crate::runner::FailureCause;
        for (cause, ty) in [
            (FailureCause::CacheMiss, "cache_miss"),
            (
                FailureCause::Infrastructure("gone".into()),
                "infrastructure",
            ),
        ] {
            let value = serde_json::to_value(CauseWire::from(&cause)).unwrap();
            assert_eq!(value["type"], ty);
        }
        let value = serde_json::to_value(FailureWire::from(&testing::check_failure())).unwrap();
        assert_eq!(
            value["cause"],
            serde_json::json!({"type": "step", "kind": "failed_check",
                "message": "expect(locator).toHaveText(expected) failed", "code_line": 2})
        );
        assert!(value.get("screenshot_png_base64").is_none());
    }

    #[test]
    fn a_retry_carries_the_failed_attempt_and_a_flaky_test_says_so() {
        let lines: Vec<serde_json::Value> = testing::retried_events()
            .iter()
            .map(|event| serde_json::from_str(&event_json(event)).unwrap())
            .collect();
        let retry = lines.iter().find(|l| l["event"] == "test_retry").unwrap();
        assert_eq!(retry["attempt"], 2);
        assert_eq!(retry["test"]["name"], "flaky");
        assert_eq!(retry["failure"]["step_index"], 2);
        assert_eq!(retry["failure"]["cause"]["kind"], "failed_check");
        assert_eq!(retry["duration_ms"], 200);
        let finished = lines
            .iter()
            .find(|l| l["event"] == "test_finished")
            .unwrap();
        assert_eq!(
            finished["outcome"],
            serde_json::json!({"status": "flaky", "attempts": 2})
        );
        let stats = &lines.last().unwrap()["stats"];
        assert_eq!((&stats["flaky"], &stats["failed"]), (&1.into(), &1.into()));
    }
}
