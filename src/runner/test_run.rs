//! One test's execution on its own thread: a JavaScript sandbox, the test's page, its engine,
//! and its steps in order, its file's `background:` steps first.
//!
//! Main type: [`TestPlan`]; the entry point is [`run_test`]. Each step moves through an explicit
//! [`StepState`]. A step other tests share (a background step, a step of an examples row) goes
//! through its [`Slot`] when it needs the engine, so it is generated or healed once per run.

use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use crate::cache::{Author, CacheFile, StepKey};
use crate::driver::TestPage;
use crate::engine::{Budgets, Engine, EngineObserver, HealPolicy, LlmPurpose, Pool, StepContext};
use crate::llm::{Category, Classification, Usage};
use crate::runner::shared_steps::{SharedSteps, Slot, lock};
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
    /// What the engine decided this run for the steps tests share.
    pub shared: &'a SharedSteps,
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
        /// Who wrote generated or healed code.
        by: Option<Author>,
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
    let row: Vec<(String, String)> = plan
        .test
        .row()
        .map(|(column, value)| (column.to_owned(), fill_variables(value, &vars)))
        .collect();
    vars.extend(row);
    // The background's steps, then the test's: (the step as reports show it, its key).
    let steps: Vec<(Step, StepKey)> = plan
        .scenario
        .background
        .iter()
        .map(|step| {
            let shown = Step {
                sentence: format!("background: {}", step.sentence),
                ..step.clone()
            };
            (shown, StepKey::background(plan.scenario, step))
        })
        .chain(
            plan.test
                .steps
                .iter()
                .map(|step| (step.clone(), StepKey::of(plan.scenario, plan.test, step))),
        )
        .collect();
    let live = match LivePage::open(config.limits, handle, page, vars) {
        Ok(live) => live,
        Err(failure) => {
            let step = steps.first().map(|(step, _)| step);
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
    // The engine exists only where code may be written or a verdict asked: never in strict
    // replay; in replay only with an LLM; in `run` with an LLM or the built-in generator.
    let writes = matches!(config.mode, Mode::Run { .. }) && config.builtin.uses_builtin();
    let mut engine = match (config.mode, &config.provider) {
        (Mode::StrictReplay, _) => None,
        (_, None) if !writes => None,
        (_, provider) => Some(
            Engine::new(
                provider.as_deref(),
                &config.llm,
                &config.cache,
                plan.page_api,
                Budgets::new(config.budgets),
                HealPolicy {
                    veto: config.heal_veto,
                    expect_timeout: config.limits.action_timeout,
                },
            )
            .with_builtin(config.builtin)
            .with_deadline(plan.deadline)
            .with_secrets(config.vars.secrets()),
        ),
    };
    // The code every step of this test passed with so far, in order: the next step's requests
    // carry it.
    let mut passed_code: Vec<String> = Vec::new();
    for (offset, (step, key)) in steps.iter().enumerate() {
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
        let exec = live
            .executor(SettleWindow::new(&config.polling, step.tries), &on_retry)
            .with_argument(step.argument.as_ref());
        let context = StepContext {
            scenario: plan.scenario,
            key: key.clone(),
            columns: if key.is_background() {
                &[]
            } else {
                plan.test.columns()
            },
            previous: steps[..offset]
                .iter()
                .map(|(_, key)| key.step.clone())
                .collect(),
            previous_code: passed_code.clone(),
        };
        reporter.send(RunEvent::StepStarted {
            test: plan.id.clone(),
            index,
            sentence: step.sentence.clone(),
            line: step.line,
        });
        let started = Instant::now();
        let cached = lookup(&plan, &context.key);
        let shared = key.is_background() || plan.test.example.is_some();
        let state = match (config.mode, engine.as_mut()) {
            (Mode::Run { heal }, Some(engine)) if shared => {
                let slot = plan.shared.slot(key);
                let turn = Turn {
                    heal,
                    engine,
                    context: &context,
                    exec: &exec,
                    observer: &reporter,
                };
                shared_step(&slot, cached, turn, plan.deadline)
            }
            (mode, engine) => advance(cached, mode, engine, &context, &exec, &reporter),
        };
        let duration = started.elapsed();
        reporter.send_log();
        match state {
            StepState::Passed { source, by, code } => {
                passed_code.push(code.clone());
                reporter.send(RunEvent::StepPassed {
                    test: plan.id.clone(),
                    index,
                    sentence: step.sentence.clone(),
                    line: step.line,
                    source,
                    by,
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
    match state {
        StepState::Cached { code } => match exec.execute(&code) {
            Ok(()) => StepState::Passed {
                source: StepSource::Cached,
                by: None,
                code,
            },
            Err(failure) => after_failure(code, failure, mode, engine, context, exec, observer),
        },
        StepState::Missing => match (mode, engine) {
            (Mode::Run { .. }, Some(engine)) => generate(engine, context, exec, observer),
            _ => failed_step(observer, FailureCause::CacheMiss, None, None),
        },
        done @ (StepState::Passed { .. } | StepState::Failed { .. }) => done,
    }
}

/// A failed step of the test `observer` reports for.
fn failed_step(
    observer: &StepReporter<'_>,
    cause: FailureCause,
    code: Option<String>,
    verdict: Option<Classification>,
) -> StepState {
    let (step, index) = (observer.step, observer.index);
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
}

/// Generates code for a step without any.
fn generate(
    engine: &mut Engine<'_>,
    context: &StepContext<'_>,
    exec: &LiveExecutor<'_>,
    observer: &StepReporter<'_>,
) -> StepState {
    match engine.generate(context, exec, observer) {
        Ok(generated) => StepState::Passed {
            source: StepSource::Generated,
            by: Some(generated.by),
            code: generated.code,
        },
        Err(decided) => {
            let verdict = decided.verdict.clone();
            let shown = decided.candidate.clone();
            failed_step(observer, FailureCause::Engine(decided), shown, verdict)
        }
    }
}

/// What follows a failure of cached `code`, by mode: a heal, a verdict, or the failure as it is.
fn after_failure(
    code: String,
    failure: StepFailure,
    mode: Mode,
    engine: Option<&mut Engine<'_>>,
    context: &StepContext<'_>,
    exec: &LiveExecutor<'_>,
    observer: &StepReporter<'_>,
) -> StepState {
    let failed = |cause: FailureCause, code: Option<String>, verdict: Option<Classification>| {
        failed_step(observer, cause, code, verdict)
    };
    match (mode, engine) {
        (Mode::Run { heal: true }, Some(engine)) if engine.has_llm() => {
            match engine.heal(context, exec, observer, &code, &failure) {
                Ok(healed) => StepState::Passed {
                    source: StepSource::Healed,
                    by: Some(healed.by),
                    code: healed.code,
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
    }
}

/// The engine's part in one shared step.
struct Turn<'t, 'e> {
    heal: bool,
    engine: &'t mut Engine<'e>,
    context: &'t StepContext<'t>,
    exec: &'t LiveExecutor<'t>,
    observer: &'t StepReporter<'t>,
}

/// Runs a step other tests share (see `shared_steps.rs`): the code proven in this run, else the
/// cached code, runs without waiting; when there is none or it fails, the slot's lock is taken
/// and what another test decided meanwhile is used, or else this test asks the engine and
/// records its decision for the others.
fn shared_step(
    slot: &std::sync::Mutex<Slot>,
    cached: StepState,
    turn: Turn<'_, '_>,
    deadline: Instant,
) -> StepState {
    let proven = match &*lock(slot) {
        Slot::Proven(code) => Some(code.clone()),
        _ => None,
    };
    let first = proven.or(match cached {
        StepState::Cached { code } => Some(code),
        _ => None,
    });
    let mut failure = None;
    if let Some(code) = &first {
        match turn.exec.execute(code) {
            Ok(()) => {
                return StepState::Passed {
                    source: StepSource::Cached,
                    by: None,
                    code: code.clone(),
                };
            }
            Err(failed) => failure = Some(failed),
        }
    }
    let mut decided = lock(slot);
    let state = match (&*decided, first, failure) {
        // Proven in this run, yet it fails here: a step is healed once a run, so this stands.
        (Slot::Proven(code), Some(ran), Some(failed)) if *code == ran => {
            return failed_step(turn.observer, FailureCause::Step(failed), Some(ran), None);
        }
        // Another test generated or healed it while this one ran the older code (or none).
        (Slot::Proven(code), _, _) => {
            return match turn.exec.execute(code) {
                Ok(()) => StepState::Passed {
                    source: StepSource::Cached,
                    by: None,
                    code: code.clone(),
                },
                Err(failed) => failed_step(
                    turn.observer,
                    FailureCause::Step(failed),
                    Some(code.clone()),
                    None,
                ),
            };
        }
        // The engine gave up on it for another test: this one fails the same way.
        (Slot::Failed(failure), _, _) => {
            return StepState::Failed {
                failure: failure.clone(),
            };
        }
        (Slot::Undecided, Some(code), Some(failure)) => after_failure(
            code,
            failure,
            Mode::Run { heal: turn.heal },
            Some(turn.engine),
            turn.context,
            turn.exec,
            turn.observer,
        ),
        (Slot::Undecided, _, _) => generate(turn.engine, turn.context, turn.exec, turn.observer),
    };
    match &state {
        StepState::Passed {
            source: StepSource::Generated | StepSource::Healed,
            code,
            ..
        } => *decided = Slot::Proven(code.clone()),
        // Only what the engine decided, and not what this test's deadline cut short.
        StepState::Failed { failure }
            if matches!(failure.cause, FailureCause::Engine(_)) && Instant::now() < deadline =>
        {
            *decided = Slot::Failed(failure.clone());
        }
        _ => {}
    }
    state
}

/// A cell of an examples row with each `${NAME}` replaced by its value (a name without one stays
/// as written: the run checked every name it uses before it started).
fn fill_variables(cell: &str, vars: &std::collections::BTreeMap<String, String>) -> String {
    let mut filled = String::with_capacity(cell.len());
    let mut rest = 0;
    for (name, at) in crate::scenario::variables(cell) {
        filled.push_str(&cell[rest..at]);
        match vars.get(name) {
            Some(value) => filled.push_str(value),
            None => filled.push_str(&cell[at..at + name.len() + 3]),
        }
        rest = at + name.len() + 3;
    }
    filled.push_str(&cell[rest..]);
    filled
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_gets_its_variables_filled_and_keeps_unknown_ones() {
        let vars = std::collections::BTreeMap::from([("PW".to_owned(), "s3cret".to_owned())]);
        assert_eq!(fill_variables("milk", &vars), "milk");
        assert_eq!(fill_variables("${PW}", &vars), "s3cret");
        assert_eq!(
            fill_variables("a ${PW} b ${NOPE} c", &vars),
            "a s3cret b ${NOPE} c"
        );
    }
}
