//! One test's execution on its own thread: a JavaScript sandbox, the test's page, its engine,
//! and its steps in order.
//!
//! Main type: [`TestPlan`]; the entry point is [`run_test`]. Each step moves through an explicit
//! [`StepState`].

use std::rc::Rc;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use crate::cache::{CacheFile, StepKey};
use crate::driver::TestPage;
use crate::engine::{
    Budgets, Engine, EngineObserver, LlmPurpose, PageState, Pool, SettleWindow, StepContext,
    StepExecutor, SystemClock, settle,
};
use crate::llm::{Category, Classification, Usage};
use crate::runner::{
    FailureCause, Mode, RunConfig, RunEvent, StepSource, TestFailure, TestId, TestOutcome,
};
use crate::scenario::{Scenario, Step, Test};
use crate::script::{Sandbox, StepFailure, StepHost};

/// Everything a test thread needs to run one test.
pub(crate) struct TestPlan<'a> {
    pub id: TestId,
    pub scenario: &'a Scenario,
    pub test: &'a Test,
    pub cached: Option<&'a CacheFile>,
    pub config: &'a RunConfig,
    pub page_api: &'a str,
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
    let sandbox = match Sandbox::new(config.limits) {
        Ok(sandbox) => sandbox,
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
    let host = Rc::new(StepHost::new(handle, page));
    // The engine exists only where an LLM may be asked: never in strict replay.
    let mut engine = match (config.mode, &config.provider) {
        (Mode::StrictReplay, _) | (_, None) => None,
        (_, Some(provider)) => Some(Engine::new(
            provider.as_ref(),
            &config.llm,
            &config.cache,
            plan.page_api,
            Budgets::new(config.budgets),
        )),
    };
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
            sentence: &step.sentence,
            host: &host,
            events: &events,
        };
        let live = LiveStep {
            sandbox: &sandbox,
            host: &host,
            window: SettleWindow::new(&config.polling, step.tries),
            reporter: &reporter,
        };
        let context = StepContext {
            scenario: plan.scenario,
            key: StepKey::of(plan.scenario, plan.test, step),
            previous: plan.test.steps[..offset]
                .iter()
                .map(|s| s.sentence.clone())
                .collect(),
        };
        let started = Instant::now();
        let state = lookup(&plan, &context.key);
        let state = advance(
            state,
            config.mode,
            engine.as_mut(),
            &context,
            &live,
            step,
            index,
        );
        let duration = started.elapsed();
        reporter.send_log();
        match state {
            StepState::Passed { source, code } => reporter.send(RunEvent::StepPassed {
                test: plan.id.clone(),
                index,
                sentence: step.sentence.clone(),
                line: step.line,
                source,
                duration,
                code,
            }),
            StepState::Failed { mut failure } => {
                if !failure.is_infrastructure() {
                    failure.screenshot = host.screenshot();
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
    live: &LiveStep<'_>,
    step: &Step,
    index: usize,
) -> StepState {
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
        StepState::Cached { code } => match live.execute(&code) {
            Ok(()) => StepState::Passed {
                source: StepSource::Cached,
                code,
            },
            Err(failure) => match (mode, engine) {
                (Mode::Run { heal: true }, Some(engine)) => {
                    match engine.heal(context, live, live.reporter, &code, &failure) {
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
                    let verdict = engine.verdict_for(context, live, live.reporter, &code, &failure);
                    failed(FailureCause::Step(failure), Some(code), verdict)
                }
                (_, None) => failed(FailureCause::Step(failure), Some(code), None),
            },
        },
        StepState::Missing => match (mode, engine) {
            (Mode::Run { .. }, Some(engine)) => match engine.generate(context, live, live.reporter)
            {
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

/// The live page behind a step: the sandbox, the page and the step's settle window.
struct LiveStep<'a> {
    sandbox: &'a Sandbox,
    host: &'a Rc<StepHost>,
    window: SettleWindow,
    reporter: &'a StepReporter<'a>,
}

impl StepExecutor for LiveStep<'_> {
    fn check(&self, code: &str) -> Result<(), StepFailure> {
        self.sandbox.check(code)
    }

    fn execute(&self, code: &str) -> Result<(), StepFailure> {
        settle(
            &self.window,
            &SystemClock,
            || self.sandbox.run_step(code, self.host),
            |attempt, failure| self.reporter.send_retry(attempt, failure),
        )
    }

    fn page_state(&self, screenshot: bool, snapshot_budget: usize) -> PageState {
        self.host.page_state(screenshot, snapshot_budget)
    }
}

/// Sends one step's events to the runner.
struct StepReporter<'a> {
    test: &'a TestId,
    index: usize,
    sentence: &'a str,
    host: &'a Rc<StepHost>,
    events: &'a Sender<RunEvent>,
}

impl StepReporter<'_> {
    fn send_log(&self) {
        for line in self.host.take_log() {
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
            sentence: self.sentence.to_owned(),
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
        tracing::warn!(target: "prettyplay::engine", test = %self.test, "{message}");
        self.send(RunEvent::Warning {
            test: self.test.clone(),
            message: message.to_owned(),
        });
    }
}
