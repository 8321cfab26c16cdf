//! Masking the event stream: every text an event carries, with each secret value written `***`.
//! The CLI masks each event once, before any reporter (terminal, `--events`, JUnit, HTML) or
//! `last-run.json` sees it, so no reporter has to remember to.
//!
//! Main function: [`RunEvent::masked`].

use crate::llm::Classification;
use crate::runner::{
    EventKind, FailureCause, RunEvent, StepKind, TestFailure, TestId, TestKind, TestOutcome,
};
use crate::secrets::Secrets;

impl RunEvent {
    /// This event with every secret value in its texts replaced by `***`. Screenshots are
    /// images and pass as they are (see `docs/reports.md`).
    pub fn masked(mut self, secrets: &Secrets) -> RunEvent {
        if secrets.is_empty() {
            return self;
        }
        let m = |text: &mut String| secrets.mask_in_place(text);
        if let Some(test) = self.test_mut() {
            id(test, m);
        }
        match &mut self.kind {
            EventKind::Run(_) => {}
            EventKind::Test(_, kind) => test_kind(kind, m),
            EventKind::Step(_, kind) => step_kind(kind, m),
        }
        self
    }
}

fn test_kind(kind: &mut TestKind, m: impl Fn(&mut String) + Copy) {
    match kind {
        TestKind::Started
        | TestKind::Timing(_)
        | TestKind::LlmCall(_)
        | TestKind::TraceWritten(_) => {}
        TestKind::Warning(warning) => m(&mut warning.message),
        TestKind::Origins(seen) => {
            for origin in &mut seen.origins {
                m(&mut origin.origin);
                m(&mut origin.url);
            }
        }
        TestKind::Retry(retry) => test_failure(&mut retry.failure, m),
        TestKind::Finished(finished) => match &mut finished.outcome {
            TestOutcome::Failed(failure) => test_failure(failure, m),
            TestOutcome::Interrupted(at) => m(&mut at.step),
            TestOutcome::Passed | TestOutcome::Flaky { .. } => {}
        },
    }
}

fn step_kind(kind: &mut StepKind, m: impl Fn(&mut String) + Copy) {
    match kind {
        StepKind::Started(started) => m(&mut started.sentence),
        StepKind::Passed(passed) => {
            m(&mut passed.sentence);
            m(&mut passed.code);
        }
        StepKind::Failed(failed) => m(&mut failed.sentence),
        StepKind::Skipped(skipped) => {
            m(&mut skipped.sentence);
            m(&mut skipped.reason);
        }
        StepKind::SettleRetry(retry) => m(&mut retry.failure),
        StepKind::Log(log) => m(&mut log.line),
        StepKind::GenerationStarted(_) | StepKind::HealingStarted(_) => {}
        StepKind::Healed(healed) => {
            for text in [
                &mut healed.sentence,
                &mut healed.explanation,
                &mut healed.old_code,
                &mut healed.new_code,
            ] {
                m(text);
            }
        }
        StepKind::ReuseTried(tried) => {
            m(&mut tried.from);
            if let Some(failure) = tried.failure.as_mut() {
                m(failure);
            }
        }
        StepKind::Verdict(verdict) => classification(&mut verdict.verdict, m),
    }
}

fn id(test: &mut TestId, m: impl Fn(&mut String)) {
    m(&mut test.scenario);
    m(&mut test.name);
}

fn classification(verdict: &mut Classification, m: impl Fn(&mut String)) {
    m(&mut verdict.explanation);
    m(&mut verdict.recommendation);
}

fn test_failure(failure: &mut TestFailure, m: impl Fn(&mut String) + Copy) {
    m(&mut failure.step);
    if let Some(code) = failure.code.as_mut() {
        m(code);
    }
    if let Some(verdict) = failure.verdict.as_mut() {
        classification(verdict, m);
    }
    match &mut failure.cause {
        FailureCause::Step(step) => m(&mut step.message),
        FailureCause::Infrastructure(message) => m(message),
        FailureCause::Engine(engine) => {
            engine.edit_texts(m);
            if let Some(verdict) = engine.verdict.as_mut() {
                classification(verdict, m);
            }
            if let Some(candidate) = engine.candidate.as_mut() {
                m(candidate);
            }
        }
        FailureCause::CacheMiss | FailureCause::SetupFailed(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{StepLog, TestFinished};
    use crate::script::{FailureKind, StepFailure};

    fn test_id() -> TestId {
        TestId {
            scenario: "a.steps".into(),
            name: "t".into(),
            line: 1,
            project: None,
        }
    }

    #[test]
    fn every_text_of_a_failure_is_masked() {
        let secrets = Secrets::new([("PASSWORD".to_owned(), "hunter22".to_owned())]);
        let mut failure = TestFailure {
            step: "type ${PASSWORD}".into(),
            step_index: 1,
            line: 2,
            cause: FailureCause::Step(StepFailure::new(
                FailureKind::FailedCheck,
                "Received: \"hunter22\"".to_owned(),
            )),
            code: Some("fill('hunter22')".into()),
            verdict: None,
            screenshot: None,
            timed_out: None,
            written_before: Vec::new(),
        };
        let event = RunEvent::of_test(
            test_id(),
            TestFinished {
                outcome: TestOutcome::Failed(Box::new(failure.clone())),
                duration: std::time::Duration::ZERO,
            },
        )
        .masked(&secrets);
        failure.cause = FailureCause::Step(StepFailure::new(
            FailureKind::FailedCheck,
            "Received: \"***\"".to_owned(),
        ));
        failure.code = Some("fill('***')".into());
        let EventKind::Test(_, TestKind::Finished(TestFinished { outcome, .. })) = event.kind
        else {
            panic!("still a finished test");
        };
        assert_eq!(outcome, TestOutcome::Failed(Box::new(failure)));
        let log = RunEvent::of_step(
            test_id(),
            1,
            StepLog {
                line: "typed hunter22".into(),
            },
        )
        .masked(&secrets);
        assert!(
            matches!(log.kind, EventKind::Step(_, StepKind::Log(StepLog { line })) if line == "typed ***")
        );
    }

    #[test]
    fn the_step_an_interrupted_test_stopped_at_is_masked() {
        let secrets = Secrets::new([("PASSWORD".to_owned(), "hunter22".to_owned())]);
        let event = RunEvent::of_test(
            test_id(),
            TestFinished {
                outcome: TestOutcome::Interrupted(crate::runner::Interruption {
                    step: "type hunter22".into(),
                    step_index: 1,
                    line: 2,
                }),
                duration: std::time::Duration::ZERO,
            },
        )
        .masked(&secrets);
        let EventKind::Test(
            _,
            TestKind::Finished(TestFinished {
                outcome: TestOutcome::Interrupted(at),
                ..
            }),
        ) = event.kind
        else {
            panic!("still an interrupted test");
        };
        assert_eq!(at.step, "type ***");
    }
}
