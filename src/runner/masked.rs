//! Masking the event stream: every text an event carries, with each secret value written `***`.
//! The CLI masks each event once, before any reporter (terminal, `--events`, JUnit, HTML) or
//! `last-run.json` sees it, so no reporter has to remember to.
//!
//! Main function: [`RunEvent::masked`].

use crate::llm::Classification;
use crate::runner::{FailureCause, RunEvent, TestFailure, TestId, TestOutcome};
use crate::secrets::Secrets;

impl RunEvent {
    /// This event with every secret value in its texts replaced by `***`. Screenshots are
    /// images and pass as they are (see `docs/reports.md`).
    pub fn masked(mut self, secrets: &Secrets) -> RunEvent {
        if secrets.is_empty() {
            return self;
        }
        let m = |text: &mut String| secrets.mask_in_place(text);
        match &mut self {
            RunEvent::RunStarted { .. } | RunEvent::RunFinished { .. } => {}
            RunEvent::TestStarted { test }
            | RunEvent::TraceWritten { test, .. }
            | RunEvent::TestTiming { test, .. } => id(test, m),
            RunEvent::StepPassed {
                test,
                sentence,
                code,
                ..
            } => {
                id(test, m);
                m(sentence);
                m(code);
            }
            RunEvent::StepFailed { test, sentence, .. }
            | RunEvent::StepStarted { test, sentence, .. } => {
                id(test, m);
                m(sentence);
            }
            RunEvent::StepSkipped {
                test,
                sentence,
                reason,
                ..
            } => {
                id(test, m);
                m(sentence);
                m(reason);
            }
            RunEvent::SettleRetry { test, failure, .. } => {
                id(test, m);
                m(failure);
            }
            RunEvent::StepLog { test, line, .. } => {
                id(test, m);
                m(line);
            }
            RunEvent::GenerationStarted { test, .. }
            | RunEvent::HealingStarted { test, .. }
            | RunEvent::LlmCall { test, .. } => id(test, m),
            RunEvent::Healed {
                test,
                sentence,
                explanation,
                old_code,
                new_code,
                ..
            } => {
                id(test, m);
                for text in [sentence, explanation, old_code, new_code] {
                    m(text);
                }
            }
            RunEvent::ReuseTried {
                test,
                from,
                failure,
                ..
            } => {
                id(test, m);
                m(from);
                if let Some(failure) = failure {
                    m(failure);
                }
            }
            RunEvent::StepVerdict { test, verdict, .. } => {
                id(test, m);
                classification(verdict, m);
            }
            RunEvent::Warning { test, message } => {
                id(test, m);
                m(message);
            }
            RunEvent::TestRetry { test, failure, .. } => {
                id(test, m);
                test_failure(failure, m);
            }
            RunEvent::TestFinished { test, outcome, .. } => {
                id(test, m);
                match outcome {
                    TestOutcome::Failed(failure) => test_failure(failure, m),
                    TestOutcome::Interrupted(at) => m(&mut at.step),
                    TestOutcome::Passed | TestOutcome::Flaky { .. } => {}
                }
            }
        }
        self
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
    use crate::script::{FailureKind, StepFailure};

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
        };
        let event = RunEvent::TestFinished {
            test: TestId {
                scenario: "a.steps".into(),
                name: "t".into(),
                line: 1,
                project: None,
            },
            outcome: TestOutcome::Failed(Box::new(failure.clone())),
            duration: std::time::Duration::ZERO,
        }
        .masked(&secrets);
        failure.cause = FailureCause::Step(StepFailure::new(
            FailureKind::FailedCheck,
            "Received: \"***\"".to_owned(),
        ));
        failure.code = Some("fill('***')".into());
        let RunEvent::TestFinished { outcome, .. } = event else {
            panic!("still a finished test");
        };
        assert_eq!(outcome, TestOutcome::Failed(Box::new(failure)));
        let log = RunEvent::StepLog {
            test: TestId {
                scenario: "a.steps".into(),
                name: "t".into(),
                line: 1,
                project: None,
            },
            index: 1,
            line: "typed hunter22".into(),
        }
        .masked(&secrets);
        assert!(matches!(log, RunEvent::StepLog { line, .. } if line == "typed ***"));
    }

    #[test]
    fn the_step_an_interrupted_test_stopped_at_is_masked() {
        let secrets = Secrets::new([("PASSWORD".to_owned(), "hunter22".to_owned())]);
        let event = RunEvent::TestFinished {
            test: TestId {
                scenario: "a.steps".into(),
                name: "t".into(),
                line: 1,
                project: None,
            },
            outcome: TestOutcome::Interrupted(crate::runner::Interruption {
                step: "type hunter22".into(),
                step_index: 1,
                line: 2,
            }),
            duration: std::time::Duration::ZERO,
        }
        .masked(&secrets);
        let RunEvent::TestFinished {
            outcome: TestOutcome::Interrupted(at),
            ..
        } = event
        else {
            panic!("still an interrupted test");
        };
        assert_eq!(at.step, "type ***");
    }
}
