//! One test's execution on its own thread: a JavaScript sandbox, the test's page, and its steps
//! in order.
//!
//! Main type: [`TestPlan`]; the entry point is [`run_test`]. Each step moves through an explicit
//! [`StepState`]; a ready step's code runs inside its settle window ([`settle`]).

use std::rc::Rc;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use crate::cache::{CacheFile, StepKey};
use crate::config::PollingSettings;
use crate::driver::TestPage;
use crate::engine::{SettleWindow, SystemClock, settle};
use crate::runner::{FailureCause, Mode, RunEvent, StepSource, TestFailure, TestId, TestOutcome};
use crate::scenario::{Scenario, Step, Test};
use crate::script::{Limits, Sandbox, StepFailure, StepHost};

/// Everything a test thread needs to run one test.
pub(crate) struct TestPlan<'a> {
    pub id: TestId,
    pub scenario: &'a Scenario,
    pub test: &'a Test,
    pub cached: Option<&'a CacheFile>,
    pub mode: Mode,
    pub limits: Limits,
    /// The settle window of every step (with the step's `[tries=N]`).
    pub polling: &'a PollingSettings,
}

/// The life of one step.
enum StepState {
    /// No code to run: strict replay found nothing cached.
    Missing,
    /// Cached code is about to run, re-executed within its settle window while it fails with
    /// pollable failures.
    Ready {
        code: String,
        source: StepSource,
        window: SettleWindow,
    },
    Passed {
        duration: Duration,
        source: StepSource,
    },
    Failed {
        duration: Duration,
        failure: TestFailure,
    },
}

/// Runs the steps of one test in order; the first failing step ends the test.
pub(crate) fn run_test(
    plan: TestPlan<'_>,
    page: TestPage,
    handle: tokio::runtime::Handle,
    events: Sender<RunEvent>,
) -> TestOutcome {
    let sandbox = match Sandbox::new(plan.limits) {
        Ok(sandbox) => sandbox,
        Err(failure) => {
            let step = plan.test.steps.first();
            return TestOutcome::Failed(Box::new(TestFailure {
                step: step.map(|s| s.sentence.clone()).unwrap_or_default(),
                step_index: 1,
                line: step.map_or(plan.test.line, |s| s.line),
                cause: FailureCause::Step(failure),
                code: None,
            }));
        }
    };
    let host = Rc::new(StepHost::new(handle, page));
    for (offset, step) in plan.test.steps.iter().enumerate() {
        let index = offset + 1;
        let state = prepare(&plan, step);
        let reporter = StepReporter {
            test: &plan.id,
            index,
            host: &host,
            events: &events,
        };
        let state = execute(state, &sandbox, &reporter, step);
        reporter.send_log();
        match state {
            StepState::Passed { duration, source } => {
                let _ = events.send(RunEvent::StepPassed {
                    test: plan.id.clone(),
                    index,
                    sentence: step.sentence.clone(),
                    source,
                    duration,
                });
            }
            StepState::Failed { duration, failure } => {
                let _ = events.send(RunEvent::StepFailed {
                    test: plan.id.clone(),
                    index,
                    sentence: step.sentence.clone(),
                    duration,
                });
                return TestOutcome::Failed(Box::new(failure));
            }
            StepState::Missing | StepState::Ready { .. } => {
                unreachable!("execute() always ends in Passed or Failed")
            }
        }
    }
    TestOutcome::Passed
}

/// Finds the step's code for the run mode.
fn prepare(plan: &TestPlan<'_>, step: &Step) -> StepState {
    match plan.mode {
        Mode::StrictReplay => {
            let key = StepKey::of(plan.scenario, plan.test, step);
            match plan.cached.and_then(|file| file.get(&key)) {
                Some(entry) => StepState::Ready {
                    code: entry.code.clone(),
                    source: StepSource::Cached,
                    window: SettleWindow::new(plan.polling, step.tries),
                },
                None => StepState::Missing,
            }
        }
    }
}

/// Where a step's executions report: its host's `console.*` log and the run's events.
struct StepReporter<'a> {
    test: &'a TestId,
    index: usize,
    host: &'a Rc<StepHost>,
    events: &'a Sender<RunEvent>,
}

impl StepReporter<'_> {
    /// Sends what step code logged so far.
    fn send_log(&self) {
        for line in self.host.take_log() {
            self.send(RunEvent::StepLog {
                test: self.test.clone(),
                index: self.index,
                line,
            });
        }
    }

    /// Sends the log of the failed execution, then the retry.
    fn send_retry(&self, attempt: u32, failure: &StepFailure) {
        self.send_log();
        self.send(RunEvent::SettleRetry {
            test: self.test.clone(),
            index: self.index,
            attempt,
            failure: failure.message.clone(),
        });
    }

    fn send(&self, event: RunEvent) {
        // A closed receiver means the run is being torn down; nothing left to tell.
        let _ = self.events.send(event);
    }
}

/// Runs a ready step; every state leaves as `Passed` or `Failed`.
fn execute(
    state: StepState,
    sandbox: &Sandbox,
    reporter: &StepReporter<'_>,
    step: &Step,
) -> StepState {
    let index = reporter.index;
    match state {
        StepState::Missing => StepState::Failed {
            duration: Duration::ZERO,
            failure: TestFailure {
                step: step.sentence.clone(),
                step_index: index,
                line: step.line,
                cause: FailureCause::CacheMiss,
                code: None,
            },
        },
        StepState::Ready {
            code,
            source,
            window,
        } => {
            let started = Instant::now();
            let result = settle(
                &window,
                &SystemClock,
                || sandbox.run_step(&code, reporter.host),
                |attempt, failure| reporter.send_retry(attempt, failure),
            );
            match result {
                Ok(()) => StepState::Passed {
                    duration: started.elapsed(),
                    source,
                },
                Err(failure) => StepState::Failed {
                    duration: started.elapsed(),
                    failure: step_failure(step, index, failure, code),
                },
            }
        }
        done @ (StepState::Passed { .. } | StepState::Failed { .. }) => done,
    }
}

fn step_failure(step: &Step, index: usize, failure: StepFailure, code: String) -> TestFailure {
    TestFailure {
        step: step.sentence.clone(),
        step_index: index,
        line: step.line,
        cause: FailureCause::Step(failure),
        code: Some(code),
    }
}
