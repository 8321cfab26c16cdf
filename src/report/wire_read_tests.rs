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
        RunEvent::TraceWritten {
            test: test.clone(),
            path: "/tmp/traces/a-t.zip".into(),
        },
        RunEvent::StepPassed {
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
            reason: "no".into(),
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
            passed: 1,
            flaky: 2,
            failed: 12,
            interrupted_tests: 1,
            infrastructure_failures: 2,
            not_run: 3,
            llm_cut_off: true,
            heal_veto_off: true,
            stopped: Some(StopReason::BrowserUnavailable(
                "the browser could not be launched".into(),
            )),
            allowed_origins_off: true,
            duration: ms(4210),
            cached_steps: 4,
            generated_steps: 5,
            healed_steps: 6,
            builtin_steps: 2,
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
