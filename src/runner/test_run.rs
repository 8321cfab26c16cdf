//! One test's execution on its own thread: a JavaScript sandbox, the test's page, its engine,
//! and its steps in order.
//!
//! Main type: [`TestPlan`]; the entry point is [`run_test`]. Each step moves through an explicit
//! [`StepState`].

use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use crate::cache::{CacheFile, StepKey};
use crate::driver::TestPage;
use crate::engine::{Budgets, Engine, EngineObserver, HealPolicy, LlmPurpose, Pool, StepContext};
use crate::llm::{Category, Classification, Usage};
use crate::runner::{
    FailureCause, Mode, RunConfig, RunEvent, StepSource, TestFailure, TestId, TestOutcome,
};
use crate::scenario::{Scenario, Step, Test};
use crate::script::StepFailure;
use crate::step::{LiveExecutor, LivePage, SettleWindow, StepExecutor};

/// Everything a test thread needs to run one test.
pub(crate) struct TestPlan<'a> {
    pub id: TestId,
    pub scenario: &'a Scenario,
    pub test: &'a Test,
    pub cached: Option<&'a CacheFile>,
    pub config: &'a RunConfig,
    pub page_api: &'a str,
    /// When the test timeout ends the test: every LLM call gives up by then.
    pub deadline: Instant,
    /// 1 for the first run of the test, 2 for its first retry.
    pub attempt: u32,
}

/// The life of one step.
enum StepState {
    /// Cached code is about to run.
    Cached {
        code: String,
    },
    /// No cached code.
    Missing,
    Passed {
        source: StepSource,
        code: String,
    },
    Failed {
        failure: Box<TestFailure>,
    },
}

/// Runs the steps of one test in order; the first failing step ends the test.
pub(crate) fn run_test(
    plan: TestPlan<'_>,
    page: TestPage,
    handle: tokio::runtime::Handle,
    events: Sender<RunEvent>,
) -> TestOutcome {
    let config = plan.config;
    let mut vars = config.vars.values();
    vars.extend(
        plan.test
            .row()
            .map(|(column, value)| (column.to_owned(), value.to_owned())),
    );
    let live = match LivePage::open(config.limits, handle, page, vars) {
        Ok(live) => live,
        Err(failure) => {
            let step = plan.test.steps.first();
            return TestOutcome::Failed(Box::new(TestFailure {
                step: step.map(|s| s.sentence.clone()).unwrap_or_default(),
                step_index: 1,
                line: step.map_or(plan.test.line, |s| s.line),
                cause: FailureCause::Step(failure),
                code: None,
                verdict: None,
                screenshot: None,
            }));
        }
    };
    // The engine exists only where an LLM may be asked: never in strict replay.
    let mut engine = match (config.mode, &config.provider) {
        (Mode::StrictReplay, _) | (_, None) => None,
        (_, Some(provider)) => Some(
            Engine::new(
                provider.as_ref(),
                &config.llm,
                &config.cache,
                plan.page_api,
                Budgets::new(config.budgets),
                HealPolicy {
                    veto: config.heal_veto,
                    expect_timeout: config.limits.action_timeout,
                },
            )
            .with_deadline(plan.deadline)
            .with_secrets(config.vars.secrets()),
        ),
    };
    // The code every step of this test passed with so far, in order: the next step's requests
    // carry it.
    let mut passed_code: Vec<String> = Vec::new();
    for (offset, step) in plan.test.steps.iter().enumerate() {
        let index = offset + 1;
        if offset > 0 && config.cancel.load(std::sync::atomic::Ordering::SeqCst) {
            return TestOutcome::Failed(Box::new(TestFailure {
                step: step.sentence.clone(),
                step_index: index,
                line: step.line,
                cause: FailureCause::Interrupted,
                code: None,
                verdict: None,
                screenshot: None,
            }));
        }
        let reporter = StepReporter {
            test: &plan.id,
            index,
            step,
            live: &live,
            events: &events,
        };
        let on_retry = |attempt: u32, failure: &StepFailure| reporter.send_retry(attempt, failure);
        let exec = live.executor(SettleWindow::new(&config.polling, step.tries), &on_retry);
        let context = StepContext {
            scenario: plan.scenario,
            key: StepKey::of(plan.scenario, plan.test, step),
            columns: plan.test.columns(),
            previous: plan.test.steps[..offset]
                .iter()
                .map(|s| s.sentence.clone())
                .collect(),
            previous_code: passed_code.clone(),
        };
        let started = Instant::now();
        let state = lookup(&plan, &context.key);
        let state = advance(
            state,
            config.mode,
            engine.as_mut(),
            &context,
            &exec,
            &reporter,
        );
        let duration = started.elapsed();
        reporter.send_log();
        match state {
            StepState::Passed { source, code } => {
                passed_code.push(code.clone());
                reporter.send(RunEvent::StepPassed {
                    test: plan.id.clone(),
                    index,
                    sentence: step.sentence.clone(),
                    line: step.line,
                    source,
                    duration,
                    code,
                });
            }
            StepState::Failed { mut failure } => {
                if !failure.is_infrastructure() {
                    failure.screenshot = live.screenshot();
                }
                reporter.send(RunEvent::StepFailed {
                    test: plan.id.clone(),
                    index,
                    sentence: step.sentence.clone(),
                    line: step.line,
                    duration,
                });
                return TestOutcome::Failed(failure);
            }
            StepState::Cached { .. } | StepState::Missing => {
                unreachable!("advance() always ends in Passed or Failed")
            }
        }
    }
    TestOutcome::Passed
}

/// Finds the step's cached code.
fn lookup(plan: &TestPlan<'_>, key: &StepKey) -> StepState {
    match plan.cached.and_then(|file| file.get(key)) {
        Some(entry) => StepState::Cached {
            code: entry.code.clone(),
        },
        None => StepState::Missing,
    }
}

/// Drives a step to `Passed` or `Failed` according to the run mode.
fn advance(
    state: StepState,
    mode: Mode,
    engine: Option<&mut Engine<'_>>,
    context: &StepContext<'_>,
    exec: &LiveExecutor<'_>,
    observer: &StepReporter<'_>,
) -> StepState {
    let (step, index) = (observer.step, observer.index);
    let failed = |cause: FailureCause, code: Option<String>, verdict: Option<Classification>| {
        StepState::Failed {
            failure: Box::new(TestFailure {
                step: step.sentence.clone(),
                step_index: index,
                line: step.line,
                cause,
                code,
                verdict,
                screenshot: None,
            }),
        }
    };
    match state {
        StepState::Cached { code } => match exec.execute(&code) {
            Ok(()) => StepState::Passed {
                source: StepSource::Cached,
                code,
            },
            Err(failure) => match (mode, engine) {
                (Mode::Run { heal: true }, Some(engine)) => {
                    match engine.heal(context, exec, observer, &code, &failure) {
                        Ok(healed) => StepState::Passed {
                            source: StepSource::Healed,
                            code: healed,
                        },
                        Err(decided) => {
                            // Show the code the message is about: the last regenerated
                            // candidate when there was one, else the cached code.
                            let verdict = decided.verdict.clone();
                            let shown = decided.candidate.clone().unwrap_or(code);
                            failed(FailureCause::Engine(decided), Some(shown), verdict)
                        }
                    }
                }
                (_, Some(engine)) => {
                    let verdict = engine.verdict_for(context, exec, observer, &code, &failure);
                    failed(FailureCause::Step(failure), Some(code), verdict)
                }
                (_, None) => failed(FailureCause::Step(failure), Some(code), None),
            },
        },
        StepState::Missing => match (mode, engine) {
            (Mode::Run { .. }, Some(engine)) => match engine.generate(context, exec, observer) {
                Ok(generated) => StepState::Passed {
                    source: StepSource::Generated,
                    code: generated,
                },
                Err(decided) => {
                    let verdict = decided.verdict.clone();
                    let shown = decided.candidate.clone();
                    failed(FailureCause::Engine(decided), shown, verdict)
                }
            },
            _ => failed(FailureCause::CacheMiss, None, None),
        },
        done @ (StepState::Passed { .. } | StepState::Failed { .. }) => done,
    }
}

/// Sends one step's events to the runner.
struct StepReporter<'a> {
    test: &'a TestId,
    index: usize,
    step: &'a Step,
    live: &'a LivePage,
    events: &'a Sender<RunEvent>,
}

impl StepReporter<'_> {
    fn send_log(&self) {
        for line in self.live.take_log() {
            self.send(RunEvent::StepLog {
                test: self.test.clone(),
                index: self.index,
                line,
            });
        }
    }

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

impl EngineObserver for StepReporter<'_> {
    fn generation_started(&self, pool: Pool, attempt: u32, limit: u32) {
        self.send_log();
        self.send(RunEvent::GenerationStarted {
            test: self.test.clone(),
            index: self.index,
            pool,
            attempt,
            limit,
        });
    }

    fn healing_started(&self, category: Category) {
        self.send(RunEvent::HealingStarted {
            test: self.test.clone(),
            index: self.index,
            category,
        });
    }

    fn healed(&self, explanation: &str, old_code: &str, new_code: &str) {
        self.send(RunEvent::Healed {
            test: self.test.clone(),
            index: self.index,
            sentence: self.step.sentence.clone(),
            explanation: explanation.to_owned(),
            old_code: old_code.to_owned(),
            new_code: new_code.to_owned(),
        });
    }

    fn verdict(&self, verdict: &Classification) {
        tracing::info!(
            target: "prettyplay::verdict",
            test = %self.test,
            step = self.index,
            category = verdict.category.as_str(),
            explanation = %verdict.explanation,
            recommendation = %verdict.recommendation,
            "step_verdict"
        );
        self.send(RunEvent::StepVerdict {
            test: self.test.clone(),
            index: self.index,
            verdict: verdict.clone(),
        });
    }

    fn llm_call(&self, purpose: LlmPurpose, usage: Usage, elapsed: Duration) {
        self.send(RunEvent::LlmCall {
            test: self.test.clone(),
            purpose,
            usage,
            elapsed,
        });
    }

    fn warning(&self, message: &str) {
        // The reporters show the warning; the log keeps a debug record, so it is said once.
        tracing::debug!(target: "prettyplay::engine", test = %self.test, "{message}");
        self.send(RunEvent::Warning {
            test: self.test.clone(),
            message: message.to_owned(),
        });
    }
}
