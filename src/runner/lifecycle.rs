//! How one test attempt ends, as data: what ended it besides its steps ([`TestEnd`]), the pure
//! decision that turns what the steps did and that end into the attempt's outcome
//! ([`conclude`]), whether a setup test then saves its state ([`StateSave`]), and what the
//! schedule learns from a finished test ([`SetupEnd`]).
//!
//! Each of these is a table, and each row has a unit test below.

use std::sync::Arc;
use std::time::Duration;

use crate::driver::SavedState;
use crate::engine::EngineFailureKind;
use crate::runner::{FailureCause, Interruption, TestFailure, TestOutcome};
use crate::scenario::Test;
use crate::script::{FailureKind, StepFailure};

/// What ended a test attempt besides its steps, in the order the ends win when several
/// happened: a test that Ctrl-C stopped is interrupted even when its browser died as it
/// closed, and a browser that died explains a timeout that followed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TestEnd {
    /// Ctrl-C stopped the run while the test ran.
    Interrupted,
    /// The browser, or the driver behind it, went away; the reason says which.
    BrowserLost(String),
    /// A page's renderer process exited.
    PageCrashed,
    /// The test ran past its timeout and the watchdog closed its page.
    TimedOut,
    /// `[browser] allowed_origins` blocked a navigation; the message says where to.
    OriginBlocked(String),
    /// Nothing but the steps ended the test.
    Ran,
}

/// What the runner observed once the steps returned, before deciding how the test ended.
#[derive(Debug, Clone, Default)]
pub(crate) struct EndSignals {
    pub(crate) interrupted: bool,
    pub(crate) browser_lost: Option<String>,
    pub(crate) page_crashed: bool,
    pub(crate) timed_out: bool,
    pub(crate) blocked_navigation: Option<String>,
}

impl TestEnd {
    /// The end that wins among `signals`.
    pub(crate) fn of(signals: EndSignals) -> TestEnd {
        if signals.interrupted {
            TestEnd::Interrupted
        } else if let Some(reason) = signals.browser_lost {
            TestEnd::BrowserLost(reason)
        } else if signals.page_crashed {
            TestEnd::PageCrashed
        } else if signals.timed_out {
            TestEnd::TimedOut
        } else if let Some(blocked) = signals.blocked_navigation {
            TestEnd::OriginBlocked(blocked)
        } else {
            TestEnd::Ran
        }
    }
}

/// Where a test's steps are, for failures that belong to no step the steps reported: its own
/// steps are numbered after its file's background steps.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shape<'t> {
    pub(crate) test: &'t Test,
    pub(crate) background_steps: usize,
}

impl Shape<'_> {
    /// A failure at the test's last step, for what went wrong after every step had passed.
    pub(crate) fn at_last_step(&self, cause: FailureCause) -> TestOutcome {
        let last = self.test.steps.last();
        TestOutcome::Failed(Box::new(TestFailure::at(
            last.map(|s| s.sentence.clone()).unwrap_or_default(),
            (self.background_steps + self.test.steps.len()).max(1),
            last.map_or(self.test.line, |s| s.line),
            cause,
        )))
    }
}

/// The outcome of an attempt whose steps returned `steps` and which ended as `end`. A browser
/// or page that went away fails the test whatever its steps said, because step code that
/// caught the error must not turn a crash green.
pub(crate) fn conclude(
    steps: TestOutcome,
    end: &TestEnd,
    shape: Shape<'_>,
    test_timeout: Duration,
) -> TestOutcome {
    match end {
        TestEnd::Interrupted => interrupted(steps),
        TestEnd::BrowserLost(reason) => crashed(steps, shape, FailureKind::Crash, reason),
        TestEnd::PageCrashed => crashed(
            steps,
            shape,
            FailureKind::PageCrash,
            "the page's renderer process exited",
        ),
        TestEnd::TimedOut => timed_out(steps, test_timeout),
        // Step code caught the block, or the block came after the last step's last call.
        TestEnd::OriginBlocked(blocked) if steps.is_pass() => crashed(
            steps,
            shape,
            FailureKind::Blocked,
            &format!("{blocked}; anything blocked during a test fails it"),
        ),
        TestEnd::OriginBlocked(_) | TestEnd::Ran => steps,
    }
}

/// A test Ctrl-C stopped mid-step is interrupted, not failed; a test that passed still passed.
fn interrupted(steps: TestOutcome) -> TestOutcome {
    match steps {
        TestOutcome::Failed(failure) => TestOutcome::Interrupted(Interruption {
            step: failure.step,
            step_index: failure.step_index,
            line: failure.line,
        }),
        other => other,
    }
}

/// The failure of a test whose browser (`Crash`) or page (`PageCrash`) went away, or whose
/// navigation was blocked (`Script`): at the step it was in, or at its last step when every
/// step had passed. The step's own failure follows as the cause.
fn crashed(steps: TestOutcome, shape: Shape<'_>, kind: FailureKind, reason: &str) -> TestOutcome {
    let label = kind.label();
    let mut failure = match steps {
        TestOutcome::Failed(failure) => failure,
        TestOutcome::Passed | TestOutcome::Flaky { .. } => {
            let cause = FailureCause::Step(StepFailure::new(kind, format!("{label}: {reason}")));
            return shape.at_last_step(cause);
        }
        interrupted @ TestOutcome::Interrupted(_) => return interrupted,
    };
    let detail = match &failure.cause {
        FailureCause::Step(step) if step.kind == kind => return TestOutcome::Failed(failure),
        FailureCause::Step(step) => format!("{label}: {reason}\n\n{}", step.message),
        FailureCause::Engine(engine) => format!("{label}: {reason}\n\n{}", engine.message()),
        _ => format!("{label}: {reason}"),
    };
    failure.cause = FailureCause::Step(StepFailure::new(kind, detail));
    failure.verdict = None;
    TestOutcome::Failed(failure)
}

/// The failure of a test that ran past its deadline, naming the step it was in. An LLM that
/// the deadline cut short stays the LLM's failure (infrastructure), not the test's timeout.
fn timed_out(steps: TestOutcome, limit: Duration) -> TestOutcome {
    let message = format!("test timeout of {:.0}s exceeded", limit.as_secs_f64());
    match steps {
        TestOutcome::Failed(failure)
            if matches!(
                &failure.cause,
                FailureCause::Engine(f) if f.kind == EngineFailureKind::LlmUnavailable
            ) =>
        {
            TestOutcome::Failed(failure)
        }
        TestOutcome::Failed(mut failure) => {
            let detail = format!(
                "{message} during step {} ({:?})",
                failure.step_index, failure.step
            );
            failure.cause = FailureCause::Step(StepFailure::new(FailureKind::Timeout, detail));
            failure.verdict = None;
            TestOutcome::Failed(failure)
        }
        // The deadline passed just as the last step finished: the test passed in time.
        other => other,
    }
}

/// What happens to a setup test's state (`[saves=NAME]`) once its outcome is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StateSave<'t> {
    /// Nothing to save: not a setup test, or one that did not pass, or one Ctrl-C stopped.
    Nothing,
    /// The test passed: save its state under this name.
    Save(&'t str),
    /// The deadline closed the page as the last step passed, so the state is gone and the
    /// test fails.
    TooLate(&'t str),
}

impl<'t> StateSave<'t> {
    /// What to do with the state `saves` names after an attempt that ended as `end` with
    /// `outcome`.
    pub(crate) fn decide(outcome: &TestOutcome, end: &TestEnd, saves: Option<&'t str>) -> Self {
        match (outcome.is_pass(), saves, end) {
            (true, Some(_), TestEnd::Interrupted) | (false, _, _) | (_, None, _) => {
                StateSave::Nothing
            }
            (true, Some(name), TestEnd::TimedOut) => StateSave::TooLate(name),
            (true, Some(name), _) => StateSave::Save(name),
        }
    }
}

/// The failure of a setup test whose deadline came before its state was saved.
pub(crate) fn saved_too_late(shape: Shape<'_>, name: &str, limit: Duration) -> TestOutcome {
    shape.at_last_step(FailureCause::Step(StepFailure::new(
        FailureKind::Timeout,
        format!(
            "{}: test timeout of {:.0}s exceeded before state `{name}` was saved",
            FailureKind::Timeout.label(),
            limit.as_secs_f64()
        ),
    )))
}

/// What the schedule learns when a test finishes: for a setup test, whether the tests that
/// start from its state may run.
#[derive(Debug, Clone)]
pub(crate) enum SetupEnd {
    /// The test saved its state.
    Saved(Arc<SavedState>),
    /// The test failed; `infrastructure` when the browser, the driver or the LLM failed.
    Failed { infrastructure: bool },
    /// The test saved nothing: it is not a setup test, or Ctrl-C stopped it.
    NothingSaved,
    /// The worker panicked while the test ran.
    Panicked,
}

impl SetupEnd {
    /// What a test that ended with `outcome` and saved `saved` tells the schedule.
    pub(crate) fn of(outcome: &TestOutcome, saved: Option<SavedState>) -> Self {
        match (outcome, saved) {
            (TestOutcome::Failed(failure), _) => SetupEnd::Failed {
                infrastructure: failure.is_infrastructure(),
            },
            (TestOutcome::Interrupted(_), _) | (_, None) => SetupEnd::NothingSaved,
            (_, Some(saved)) => SetupEnd::Saved(Arc::new(saved)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineFailure;
    use crate::scenario::Step;

    fn test_of(steps: &[(&str, usize)]) -> Test {
        Test {
            name: "t".into(),
            line: 1,
            tags: Vec::new(),
            steps: steps
                .iter()
                .map(|&(sentence, line)| Step {
                    sentence: sentence.into(),
                    line,
                    occurrence: 1,
                    tries: None,
                    optional: false,
                    argument: None,
                })
                .collect(),
            example: None,
            saves: None,
            state: None,
        }
    }

    fn shape(test: &Test) -> Shape<'_> {
        Shape {
            test,
            background_steps: 1,
        }
    }

    fn step_failure(kind: FailureKind, message: &str) -> TestOutcome {
        TestOutcome::failed_first_step(FailureCause::Step(StepFailure::new(
            kind,
            message.to_owned(),
        )))
    }

    fn cause(outcome: &TestOutcome) -> &FailureCause {
        match outcome {
            TestOutcome::Failed(failure) => &failure.cause,
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    fn step_cause(outcome: &TestOutcome) -> &StepFailure {
        match cause(outcome) {
            FailureCause::Step(step) => step,
            other => panic!("expected a step failure, got {other:?}"),
        }
    }

    const LIMIT: Duration = Duration::from_secs(5);

    #[test]
    fn ctrl_c_wins_over_every_other_end() {
        let all = EndSignals {
            interrupted: true,
            browser_lost: Some("gone".into()),
            page_crashed: true,
            timed_out: true,
            blocked_navigation: Some("blocked".into()),
        };
        assert_eq!(TestEnd::of(all), TestEnd::Interrupted);
    }

    #[test]
    fn a_lost_browser_wins_over_a_crash_a_timeout_and_a_block() {
        let signals = EndSignals {
            browser_lost: Some("gone".into()),
            page_crashed: true,
            timed_out: true,
            blocked_navigation: Some("blocked".into()),
            ..EndSignals::default()
        };
        assert_eq!(TestEnd::of(signals), TestEnd::BrowserLost("gone".into()));
    }

    #[test]
    fn a_crashed_page_wins_over_a_timeout_and_a_block() {
        let signals = EndSignals {
            page_crashed: true,
            timed_out: true,
            blocked_navigation: Some("blocked".into()),
            ..EndSignals::default()
        };
        assert_eq!(TestEnd::of(signals), TestEnd::PageCrashed);
    }

    #[test]
    fn a_timeout_wins_over_a_blocked_navigation() {
        let signals = EndSignals {
            timed_out: true,
            blocked_navigation: Some("blocked".into()),
            ..EndSignals::default()
        };
        assert_eq!(TestEnd::of(signals), TestEnd::TimedOut);
    }

    #[test]
    fn a_blocked_navigation_alone_ends_the_test_as_blocked_and_no_signal_as_ran() {
        let signals = EndSignals {
            blocked_navigation: Some("blocked".into()),
            ..EndSignals::default()
        };
        assert_eq!(
            TestEnd::of(signals),
            TestEnd::OriginBlocked("blocked".into())
        );
        assert_eq!(TestEnd::of(EndSignals::default()), TestEnd::Ran);
    }

    #[test]
    fn an_interrupted_failure_becomes_an_interruption_at_its_step() {
        let test = test_of(&[("open the app", 2)]);
        let failed = step_failure(FailureKind::Crash, "target closed");
        assert_eq!(
            conclude(failed, &TestEnd::Interrupted, shape(&test), LIMIT),
            TestOutcome::Interrupted(Interruption {
                step: "open the app".into(),
                step_index: 1,
                line: 2,
            })
        );
    }

    #[test]
    fn an_interrupted_test_whose_steps_passed_still_passed() {
        let test = test_of(&[("open the app", 2)]);
        for passed in [TestOutcome::Passed, TestOutcome::Flaky { attempts: 2 }] {
            let end = conclude(passed.clone(), &TestEnd::Interrupted, shape(&test), LIMIT);
            assert_eq!(end, passed);
        }
    }

    #[test]
    fn a_lost_browser_fails_a_test_whose_steps_passed_at_its_last_step() {
        let test = test_of(&[("open the app", 2), ("click go", 3)]);
        let end = TestEnd::BrowserLost("the browser closed".into());
        let outcome = conclude(TestOutcome::Passed, &end, shape(&test), LIMIT);
        let TestOutcome::Failed(failure) = &outcome else {
            panic!("a lost browser fails the test: {outcome:?}");
        };
        assert_eq!(
            (failure.step.as_str(), failure.step_index, failure.line),
            ("click go", 3, 3)
        );
        assert_eq!(step_cause(&outcome).kind, FailureKind::Crash);
        assert!(step_cause(&outcome).message.ends_with("the browser closed"));
        assert!(failure.is_infrastructure());
    }

    #[test]
    fn a_lost_browser_relabels_a_step_failure_and_keeps_it_as_the_cause() {
        let test = test_of(&[("open the app", 2)]);
        let failed = step_failure(FailureKind::Script, "boom");
        let end = TestEnd::BrowserLost("the driver exited".into());
        let outcome = conclude(failed, &end, shape(&test), LIMIT);
        let step = step_cause(&outcome);
        assert_eq!(step.kind, FailureKind::Crash);
        assert!(
            step.message.contains("the driver exited"),
            "{}",
            step.message
        );
        assert!(step.message.ends_with("boom"), "{}", step.message);
    }

    #[test]
    fn a_failure_of_the_same_kind_as_the_end_is_kept_as_it_is() {
        let test = test_of(&[("open the app", 2)]);
        let failed = step_failure(FailureKind::Crash, "target closed");
        let end = TestEnd::BrowserLost("gone".into());
        assert_eq!(conclude(failed.clone(), &end, shape(&test), LIMIT), failed);
    }

    #[test]
    fn a_lost_browser_relabels_an_engine_failure_and_drops_its_verdict() {
        let test = test_of(&[("open the app", 2)]);
        let mut failed = TestOutcome::failed_first_step(FailureCause::Engine(EngineFailure::new(
            EngineFailureKind::Incurable,
            "no candidate passed",
            None,
        )));
        if let TestOutcome::Failed(failure) = &mut failed {
            failure.verdict = Some(crate::llm::Classification {
                category: crate::llm::Category::Rot,
                explanation: "x".into(),
                recommendation: "y".into(),
                source: crate::llm::VerdictSource::Llm,
            });
        }
        let outcome = conclude(
            failed,
            &TestEnd::BrowserLost("gone".into()),
            shape(&test),
            LIMIT,
        );
        let TestOutcome::Failed(failure) = &outcome else {
            panic!("still failed");
        };
        assert_eq!(failure.verdict, None);
        assert!(step_cause(&outcome).message.contains("no candidate passed"));
    }

    #[test]
    fn a_crashed_page_fails_a_passed_test_as_a_page_crash() {
        let test = test_of(&[("open the app", 2)]);
        let outcome = conclude(
            TestOutcome::Passed,
            &TestEnd::PageCrashed,
            shape(&test),
            LIMIT,
        );
        assert_eq!(step_cause(&outcome).kind, FailureKind::PageCrash);
        assert!(
            step_cause(&outcome)
                .message
                .contains("renderer process exited")
        );
    }

    #[test]
    fn the_deadline_relabels_a_step_failure_but_not_an_llm_it_cut_short() {
        let test = test_of(&[("open the app", 2)]);
        let llm = TestOutcome::failed_first_step(FailureCause::Engine(EngineFailure::new(
            EngineFailureKind::LlmUnavailable,
            "no answer within 5.0 s, the time left before the test timeout",
            None,
        )));
        assert_eq!(
            conclude(llm.clone(), &TestEnd::TimedOut, shape(&test), LIMIT),
            llm
        );
        let step = step_failure(FailureKind::Crash, "target closed");
        let relabelled = conclude(step, &TestEnd::TimedOut, shape(&test), LIMIT);
        assert_eq!(
            cause(&relabelled),
            &FailureCause::Step(StepFailure::new(
                FailureKind::Timeout,
                "test timeout of 5s exceeded during step 1 (\"open the app\")".to_owned()
            ))
        );
    }

    #[test]
    fn a_deadline_that_passed_as_the_last_step_finished_leaves_the_test_passed() {
        let test = test_of(&[("open the app", 2)]);
        let outcome = conclude(TestOutcome::Passed, &TestEnd::TimedOut, shape(&test), LIMIT);
        assert_eq!(outcome, TestOutcome::Passed);
    }

    #[test]
    fn a_blocked_navigation_fails_a_passed_test_but_leaves_a_failure_as_it_is() {
        let test = test_of(&[("open the app", 2)]);
        let end = TestEnd::OriginBlocked("blocked: http://evil.test/".into());
        let outcome = conclude(TestOutcome::Passed, &end, shape(&test), LIMIT);
        let step = step_cause(&outcome);
        assert_eq!(step.kind, FailureKind::Blocked);
        assert!(step.message.contains("blocked: http://evil.test/"));
        assert!(
            step.message
                .ends_with("anything blocked during a test fails it")
        );
        let failed = TestOutcome::failed_first_step(FailureCause::CacheMiss);
        assert_eq!(conclude(failed.clone(), &end, shape(&test), LIMIT), failed);
    }

    #[test]
    fn a_test_that_only_ran_keeps_what_its_steps_said() {
        let test = test_of(&[("open the app", 2)]);
        for steps in [
            TestOutcome::Passed,
            TestOutcome::failed_first_step(FailureCause::CacheMiss),
        ] {
            assert_eq!(
                conclude(steps.clone(), &TestEnd::Ran, shape(&test), LIMIT),
                steps
            );
        }
    }

    #[test]
    fn a_passed_setup_saves_its_state_unless_stopped_short() {
        let passed = TestOutcome::Passed;
        let save = |end: &TestEnd, saves| StateSave::decide(&passed, end, saves);
        assert_eq!(save(&TestEnd::Ran, Some("login")), StateSave::Save("login"));
        assert_eq!(
            save(&TestEnd::TimedOut, Some("login")),
            StateSave::TooLate("login")
        );
        assert_eq!(
            save(&TestEnd::Interrupted, Some("login")),
            StateSave::Nothing
        );
        assert_eq!(save(&TestEnd::Ran, None), StateSave::Nothing);
        let flaky = TestOutcome::Flaky { attempts: 2 };
        assert_eq!(
            StateSave::decide(&flaky, &TestEnd::Ran, Some("login")),
            StateSave::Save("login")
        );
    }

    #[test]
    fn a_failed_or_interrupted_setup_saves_nothing() {
        let failed = TestOutcome::failed_first_step(FailureCause::CacheMiss);
        assert_eq!(
            StateSave::decide(&failed, &TestEnd::Ran, Some("login")),
            StateSave::Nothing
        );
        let interrupted = TestOutcome::Interrupted(Interruption {
            step: "s".into(),
            step_index: 1,
            line: 2,
        });
        assert_eq!(
            StateSave::decide(&interrupted, &TestEnd::Interrupted, Some("login")),
            StateSave::Nothing
        );
    }

    #[test]
    fn a_state_saved_too_late_fails_the_last_step_as_a_timeout() {
        let test = test_of(&[("open the app", 2), ("sign in", 3)]);
        let outcome = saved_too_late(shape(&test), "login", LIMIT);
        let step = step_cause(&outcome);
        assert_eq!(step.kind, FailureKind::Timeout);
        assert!(
            step.message
                .ends_with("test timeout of 5s exceeded before state `login` was saved"),
            "{}",
            step.message
        );
    }

    #[test]
    fn the_schedule_learns_saved_failed_or_nothing_from_a_finished_test() {
        let state = SavedState::from_json(r#"{"cookies":[],"origins":[]}"#).unwrap();
        assert!(matches!(
            SetupEnd::of(&TestOutcome::Passed, Some(state)),
            SetupEnd::Saved(_)
        ));
        assert!(matches!(
            SetupEnd::of(&TestOutcome::Passed, None),
            SetupEnd::NothingSaved
        ));
        let infra = TestOutcome::failed_first_step(FailureCause::Infrastructure("x".into()));
        assert!(matches!(
            SetupEnd::of(&infra, None),
            SetupEnd::Failed {
                infrastructure: true
            }
        ));
        let miss = TestOutcome::failed_first_step(FailureCause::CacheMiss);
        assert!(matches!(
            SetupEnd::of(&miss, None),
            SetupEnd::Failed {
                infrastructure: false
            }
        ));
        let interrupted = TestOutcome::Interrupted(Interruption {
            step: "s".into(),
            step_index: 1,
            line: 2,
        });
        assert!(matches!(
            SetupEnd::of(&interrupted, None),
            SetupEnd::NothingSaved
        ));
    }
}
