//! Test support for the reporters: a fixed event sequence that exercises every kind of event,
//! and a [`redact`] that replaces durations with placeholders (like nextest's `Redactor`), so
//! snapshots do not change when a duration does.

use std::sync::LazyLock;
use std::time::Duration;

use regex::Regex;

use crate::engine::{EngineFailure, EngineFailureKind, LlmPurpose, Pool};
use crate::llm::{Category, Classification, Usage};
use crate::runner::{
    EventTime, FailureCause, GenerationStarted, Healed, HealingStarted, LlmCall, RunEvent,
    RunFinished, RunStarted, RunStats, SettleRetry, StepFailed, StepLog, StepPassed, StepSource,
    StepVerdict, TestFailure, TestFinished, TestId, TestKind, TestOutcome, TestRetry, Warning,
};
use crate::script::{FailureKind, StepFailure};

use super::reporter::Reporter;

/// A 1×1 PNG, the screenshot of the failing test.
pub(crate) const PNG: [u8; 69] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x00, 0x03, 0x01, 0x01, 0x00, 0xc9, 0xfe, 0x92, 0xef, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

pub(crate) fn id(scenario: &str, name: &str, line: usize) -> TestId {
    TestId {
        scenario: scenario.into(),
        name: name.into(),
        line,
        project: None,
    }
}

const OPEN: &str = "async function step(page) {\n  await page.goto('/');\n}";

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn passed(
    test: &TestId,
    index: usize,
    sentence: &str,
    line: usize,
    source: StepSource,
    code: &str,
) -> RunEvent {
    RunEvent::of_step(
        test.clone(),
        index,
        StepPassed {
            proof: None,
            sentence: sentence.into(),
            line,
            source,
            by: (source != StepSource::Cached).then_some(crate::cache::Author::Llm),
            duration: ms(500 + 10 * index as u64),
            code: code.into(),
        },
    )
}

fn llm_call(test: &TestId, purpose: LlmPurpose, usage: Usage, elapsed: u64) -> RunEvent {
    RunEvent::of_test(
        test.clone(),
        LlmCall {
            purpose,
            usage,
            elapsed: ms(elapsed),
        },
    )
}

/// The event of `test` finishing with `outcome` after `duration` milliseconds.
pub(crate) fn finished(test: &TestId, outcome: TestOutcome, duration: u64) -> RunEvent {
    RunEvent::of_test(
        test.clone(),
        TestFinished {
            outcome,
            duration: ms(duration),
        },
    )
}

/// A verdict of a product defect.
pub(crate) fn defect_verdict() -> Classification {
    Classification {
        category: Category::ProductDefect,
        explanation: "expected the greeting \"Hello, Ada\", observed \"Hello, undefined\"".into(),
        recommendation: "fix how the greeting reads the user's name".into(),
        source: crate::llm::VerdictSource::Llm,
    }
}

/// The failure of the third test: a product defect with its verdict, code and screenshot.
pub(crate) fn defect_failure() -> TestFailure {
    TestFailure {
        step: "the greeting says \"Hello, Ada\"".into(),
        step_index: 2,
        line: 4,
        cause: FailureCause::Engine(EngineFailure {
            candidate: None,
            kind: EngineFailureKind::ProductDefect,
            cause: None,
            summary: "expect(locator).toHaveText(expected) failed\n\nLocator: getByRole('heading')\nExpected: \"Hello, Ada\"\nReceived: \"Hello, undefined\"".into(),
            verdict: Some(defect_verdict()),
        }),
        code: Some(
            "async function step(page) {\n  await expect(page.getByRole('heading')).toHaveText('Hello, Ada');\n}"
                .into(),
        ),
        verdict: Some(defect_verdict()),
        screenshot: Some(PNG.to_vec()),
                timed_out: None,
                written_before: Vec::new(),
    }
}

/// The code a vetoed heal keeps in the cache, and the candidate the veto refused.
pub(crate) const KEPT: &str =
    "async function step(page) {\n  await expect(page.getByRole('listitem')).toHaveCount(1);\n}";
pub(crate) const REFUSED: &str =
    "async function step(page) {\n  await expect(page.getByRole('listitem')).toHaveCount(2);\n}";

/// A heal the veto refused: the failure keeps the cached code, the refused candidate is the
/// engine's, and the message ends with the diff between them.
pub(crate) fn vetoed_failure() -> TestFailure {
    let verdict = Classification {
        category: Category::Rot,
        explanation: "the list changed".into(),
        recommendation: "regenerate the step".into(),
        source: crate::llm::VerdictSource::Llm,
    };
    let engine = EngineFailure::new(
        EngineFailureKind::HealVetoed,
        "the healed code passed, but the heal veto refused it",
        Some(verdict.clone()),
    )
    .with_cause(crate::engine::EngineCause::Vetoed {
        veto: "`toHaveCount` changed its expected value from 1 to 2".into(),
        by: crate::cache::Author::Llm,
        failure: "expect(locator).toHaveCount(expected) failed\nReceived: 2".into(),
        diff: super::details::heal_diff(KEPT, REFUSED),
    })
    .with_candidate(REFUSED);
    TestFailure {
        step: "the list has one item".into(),
        step_index: 3,
        line: 5,
        cause: FailureCause::Engine(engine),
        code: Some(KEPT.into()),
        verdict: Some(verdict),
        timed_out: None,
        written_before: Vec::new(),
        screenshot: None,
    }
}

/// The events of the first test: it passes with a generated step.
fn add_a_todo(usage: Usage) -> Vec<RunEvent> {
    let add = id("scenarios/todo.steps", "add a todo", 2);
    vec![
        RunEvent::of_test(add.clone(), TestKind::Started),
        passed(&add, 1, "open the app", 3, StepSource::Cached, OPEN),
        RunEvent::of_step(
            add.clone(),
            2,
            GenerationStarted {
                pool: Pool::Generation,
                attempt: 1,
                limit: 3,
            },
        ),
        llm_call(&add, LlmPurpose::Generation, usage, 900),
        RunEvent::of_step(
            add.clone(),
            2,
            StepLog {
                line: "added milk".into(),
            },
        ),
        passed(
            &add,
            2,
            "add \"milk\"",
            4,
            StepSource::Generated,
            "async function step(page) {\n  await page.getByPlaceholder('What needs to be done?').fill('milk');\n  await page.keyboard.press('Enter');\n}",
        ),
        finished(&add, TestOutcome::Passed, 1900),
    ]
}

/// The events of the second test: it passes after a heal.
fn rename_a_todo(usage: Usage) -> Vec<RunEvent> {
    let rename = id("scenarios/todo.steps", "rename a todo", 6);
    let sentence = "rename <b>milk</b> to \"oat milk\"";
    let new_code = "async function step(page) {\n  await page.getByRole('button', { name: 'Rename' }).click();\n  await page.keyboard.type('oat milk');\n}";
    vec![
        RunEvent::of_test(rename.clone(), TestKind::Started),
        passed(&rename, 1, "open the app", 7, StepSource::Cached, OPEN),
        RunEvent::of_step(
            rename.clone(),
            2,
            HealingStarted {
                category: Category::Rot,
            },
        ),
        RunEvent::of_step(
            rename.clone(),
            2,
            GenerationStarted {
                pool: Pool::Healing,
                attempt: 1,
                limit: 2,
            },
        ),
        llm_call(&rename, LlmPurpose::Generation, usage, 700),
        RunEvent::of_step(
            rename.clone(),
            2,
            Healed {
                sentence: sentence.into(),
                explanation: "the edit button is now labelled \"Rename\"".into(),
                by: crate::cache::Author::Llm,
                offline: false,
                old_code: "async function step(page) {\n  await page.getByRole('button', { name: 'Edit' }).click();\n  await page.keyboard.type('oat milk');\n}".into(),
                new_code: new_code.into(),
            },
        ),
        passed(&rename, 2, sentence, 8, StepSource::Healed, new_code),
        finished(&rename, TestOutcome::Passed, 2400),
    ]
}

/// The events of the third test: it fails with a product defect (settle retry, verdict,
/// screenshot).
fn log_in(usage: Usage) -> Vec<RunEvent> {
    let login = id("scenarios/login.steps", "log in", 2);
    vec![
        RunEvent::of_test(login.clone(), TestKind::Started),
        passed(
            &login,
            1,
            "open the login page",
            3,
            StepSource::Cached,
            OPEN,
        ),
        RunEvent::of_step(
            login.clone(),
            2,
            SettleRetry {
                attempt: 2,
                failure:
                    "expect(locator).toHaveText(expected) failed\n\nReceived: \"Hello, undefined\""
                        .into(),
            },
        ),
        RunEvent::of_step(
            login.clone(),
            2,
            StepFailed {
                sentence: "the greeting says \"Hello, Ada\"".into(),
                line: 4,
                duration: ms(3100),
            },
        ),
        llm_call(&login, LlmPurpose::Classification, usage, 800),
        RunEvent::of_step(
            login.clone(),
            2,
            StepVerdict {
                verdict: defect_verdict(),
            },
        ),
        RunEvent::of_test(
            login.clone(),
            Warning {
                message: "the page logged 1 error".into(),
            },
        ),
        finished(
            &login,
            TestOutcome::Failed(Box::new(defect_failure())),
            3700,
        ),
    ]
}

/// A run of three tests in two scenario files: one passes with a generated step, one passes
/// after a heal, one fails with a product defect (settle retry, verdict, screenshot).
pub(crate) fn events() -> Vec<RunEvent> {
    let usage = Usage {
        input_tokens: 1200,
        cached_input_tokens: 0,
        output_tokens: 80,
    };
    let mut events = vec![RunEvent::of_run(RunStarted { tests: 3 })];
    events.extend(add_a_todo(usage));
    events.extend(rename_a_todo(usage));
    events.extend(log_in(usage));
    events.push(RunEvent::of_run(RunFinished {
        stats: RunStats {
            passed: 2,
            failed: 1,
            duration: ms(8123),
            cached_steps: 3,
            generated_steps: 1,
            healed_steps: 1,
            llm_requests: 3,
            tokens_in: 3600,
            tokens_out: 240,
            llm_wait: ms(2400),
            ..RunStats::default()
        },
    }));
    events
}

/// `events` stamped as a run stamps them: the first at 2026-01-02T03:04:05.000Z, each 250ms
/// after the one before.
pub(crate) fn stamped(events: Vec<RunEvent>) -> Vec<RunEvent> {
    let start: jiff::Timestamp = "2026-01-02T03:04:05Z".parse().expect("a valid timestamp");
    events
        .into_iter()
        .zip(0u64..)
        .map(|(event, n)| {
            let elapsed = ms(250 * n);
            let timestamp = start
                .checked_add(elapsed)
                .expect("within the range of timestamps");
            event.stamped(EventTime { timestamp, elapsed })
        })
        .collect()
}

/// A test Ctrl-C stopped at its second step.
pub(crate) fn interrupted() -> crate::runner::TestOutcome {
    crate::runner::TestOutcome::Interrupted(crate::runner::Interruption {
        step: "the list shows \"milk\"".into(),
        step_index: 2,
        line: 4,
    })
}

/// A failure of step code (no engine, no verdict).
pub(crate) fn check_failure() -> TestFailure {
    TestFailure {
        step: "the list shows \"milk\"".into(),
        step_index: 2,
        line: 4,
        cause: FailureCause::Step(StepFailure {
            kind: FailureKind::FailedCheck,
            message: "expect(locator).toHaveText(expected) failed".into(),
            code_line: Some(2),
            visual: None,
        }),
        code: Some("async function step(page) {\n  await x;\n}".into()),
        timed_out: None,
        written_before: Vec::new(),
        verdict: None,
        screenshot: None,
    }
}

/// A check that ran out its timeout on a page the code of an earlier step, written in the same
/// run, had left: the failure carries both.
pub(crate) fn timed_out_failure() -> TestFailure {
    TestFailure {
        timed_out: Some(crate::step::Waited {
            method: "expect".into(),
            call: ms(5004),
            before: Duration::ZERO,
            timeout: Duration::from_secs(5),
            setting: crate::step::TimeoutSetting::Browser,
            run: crate::step::WaitedIn::Step,
        }),
        written_before: vec![crate::runner::WrittenStep {
            step_index: 1,
            step: "open the app".into(),
            code: "async function step(page) {\n  await page.goto('/other');\n}".into(),
        }],
        ..check_failure()
    }
}

/// A run of two retried tests (`--retries 2`): `scenarios/todo.steps › flaky` fails its first
/// attempt at step 2 and passes its second; `scenarios/todo.steps › broken` fails all three.
pub(crate) fn retried_events() -> Vec<RunEvent> {
    let flaky = id("scenarios/todo.steps", "flaky", 2);
    let broken = id("scenarios/todo.steps", "broken", 7);
    let step = |test: &TestId, index: usize, passed: bool| {
        let sentence = if index == 1 {
            "open the app".to_owned()
        } else {
            "the list shows \"milk\"".to_owned()
        };
        let line = index + test.line;
        if passed {
            let passed = StepPassed {
                proof: None,
                sentence,
                line,
                source: StepSource::Cached,
                by: None,
                duration: ms(100),
                code: "async function step(page) {}".into(),
            };
            RunEvent::of_step(test.clone(), index, passed)
        } else {
            let failed = StepFailed {
                sentence,
                line,
                duration: ms(100),
            };
            RunEvent::of_step(test.clone(), index, failed)
        }
    };
    let retry = |test: &TestId, attempt: u32| {
        let retry = TestRetry {
            attempt,
            failure: Box::new(TestFailure {
                line: 2 + test.line,
                ..check_failure()
            }),
            duration: ms(200),
        };
        RunEvent::of_test(test.clone(), retry)
    };
    let mut events = vec![
        RunEvent::of_run(RunStarted { tests: 2 }),
        RunEvent::of_test(flaky.clone(), TestKind::Started),
        step(&flaky, 1, true),
        step(&flaky, 2, false),
        retry(&flaky, 2),
        step(&flaky, 1, true),
        step(&flaky, 2, true),
        finished(&flaky, TestOutcome::Flaky { attempts: 2 }, 400),
        RunEvent::of_test(broken.clone(), TestKind::Started),
    ];
    for attempt in 1..=3 {
        events.push(step(&broken, 1, true));
        events.push(step(&broken, 2, false));
        if attempt < 3 {
            events.push(retry(&broken, attempt + 1));
        }
    }
    let failure = TestFailure {
        line: 9,
        ..check_failure()
    };
    events.push(finished(
        &broken,
        TestOutcome::Failed(Box::new(failure)),
        600,
    ));
    events.push(RunEvent::of_run(RunFinished {
        stats: RunStats {
            flaky: 1,
            failed: 1,
            cached_steps: 7,
            duration: ms(1000),
            ..RunStats::default()
        },
    }));
    events
}

/// `events` with every test in the browser project `project`, as a run of several browsers
/// reports them.
pub(crate) fn in_project(events: &[RunEvent], project: &str) -> Vec<RunEvent> {
    let mut events = events.to_vec();
    for test in events.iter_mut().filter_map(RunEvent::test_mut) {
        test.project = Some(project.to_owned());
    }
    events
}

/// The run of [`events`] in two browsers, `firefox` and then `chromium`: the same three tests
/// twice, between one `run_started` and one `run_finished`.
pub(crate) fn two_browser_events() -> Vec<RunEvent> {
    let one = events();
    let tests = &one[1..one.len() - 1];
    let mut two = vec![RunEvent::of_run(RunStarted { tests: 6 })];
    two.extend(in_project(tests, "firefox"));
    two.extend(in_project(tests, "chromium"));
    two.push(one[one.len() - 1].clone());
    two
}

/// Feeds `events` to `reporter` and finishes it.
pub(crate) fn feed(reporter: &mut dyn Reporter, events: &[RunEvent]) {
    for event in events {
        reporter
            .handle(event)
            .expect("the reporter handles the event");
    }
    reporter.finish().expect("the reporter finishes");
}

static DURATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b\d+\.\d+s\b").expect("a valid pattern"));
static MILLIS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#""(duration_ms|elapsed_ms|llm_wait_ms|run_elapsed_ms)":\d+"#)
        .expect("a valid pattern")
});
static TIMESTAMP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#""timestamp":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z""#).expect("a valid pattern")
});
static TIME_ATTR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#" time="[0-9.]+""#).expect("a valid pattern"));

/// Replaces durations (`1.50s`, `"duration_ms":1500`, `time="1.500"`) and the events'
/// timestamps (`"timestamp":"2026-01-02T03:04:05.250Z"`) with placeholders.
pub(crate) fn redact(text: &str) -> String {
    let text = TIMESTAMP.replace_all(text, "\"timestamp\":\"[TIMESTAMP]\"");
    let text = DURATION.replace_all(&text, "[DURATION]");
    let text = MILLIS.replace_all(&text, "\"$1\":\"[MS]\"");
    TIME_ATTR
        .replace_all(&text, " time=\"[SECONDS]\"")
        .into_owned()
}

#[test]
fn redact_replaces_every_kind_of_duration() {
    assert_eq!(
        redact(r#"PASS x (1.50s) {"duration_ms":1500,"elapsed_ms":3} <t time="0.250"> v1.2"#),
        r#"PASS x ([DURATION]) {"duration_ms":"[MS]","elapsed_ms":"[MS]"} <t time="[SECONDS]"> v1.2"#
    );
    assert_eq!(
        redact(r#"{"timestamp":"2026-01-02T03:04:05.250Z","run_elapsed_ms":250}"#),
        r#"{"timestamp":"[TIMESTAMP]","run_elapsed_ms":"[MS]"}"#
    );
}
