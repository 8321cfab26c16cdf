//! One test's execution on its own thread: a JavaScript sandbox, the test's page, its engine,
//! and its steps in order, its file's `background:` steps first.
//!
//! Main type: [`TestPlan`]; the entry point is [`run_test`]. Each step starts from what the cache
//! holds for it ([`Cached`]) and ends as a [`StepResult`]. A step that other tests share (a
//! background step, a step of an examples row) goes through its [`Slot`] when it needs the
//! engine, so that it is generated or healed once per run; [`SharedTurn::decide`] is that
//! decision.

use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use crate::cache::{Author, CacheFile, StepKey};
use crate::driver::TestPage;
use crate::engine::{
    Budgets, Engine, EngineCause, EngineFailure, EngineFailureKind, EngineObserver, HealPolicy,
    Judgement, LlmPurpose, Pool, Reuse, StepContext, StepProof, audit_record,
    defect_classification, evident_failure, judge,
};
use crate::llm::{Category, Classification, Usage};
use crate::runner::shared_steps::{SharedSteps, Slot, lock};
use crate::runner::skip::{generation_skip, skip_or_fail};
use crate::runner::{
    FailureCause, Interruption, Mode, RunConfig, RunEvent, StepSource, TestFailure, TestId,
    TestOutcome,
};
use crate::scenario::{Scenario, Step, Test};
use crate::script::{FailureKind, StepFailure};
use crate::step::{LiveExecutor, LivePage, SettleWindow, StepExecutor};

/// Everything a test thread needs to run one test.
pub(crate) struct TestPlan<'a> {
    pub id: TestId,
    pub scenario: &'a Scenario,
    pub test: &'a Test,
    pub cached: Option<&'a CacheFile>,
    /// What the engine decided this run for the steps tests share.
    pub shared: &'a SharedSteps,
    /// Code other tests proved for the same sentence (`[generate] reuse`).
    pub reuse: Option<&'a Reuse<'a>>,
    pub config: &'a RunConfig,
    pub page_api: &'a str,
    /// When the test timeout ends the test: every LLM call gives up by then.
    pub deadline: Instant,
    /// 1 for the first run of the test, 2 for its first retry.
    pub attempt: u32,
}

/// What the cache holds for a step.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Cached {
    Code(String),
    Missing,
}

/// How a step ended.
enum StepResult {
    Passed {
        source: StepSource,
        /// Who wrote generated or healed code.
        by: Option<Author>,
        code: String,
        /// How its checks were proven (see `RunEvent::StepPassed`).
        proof: Option<StepProof>,
    },
    Failed {
        failure: Box<TestFailure>,
    },
    /// An `[optional]` step whose target did not appear, and why (see `skip.rs`).
    Skipped(String),
}

/// Runs the steps of one test in order; the first failing step ends the test.
pub(crate) fn run_test(
    plan: TestPlan<'_>,
    page: TestPage,
    handle: tokio::runtime::Handle,
    events: Sender<RunEvent>,
) -> TestOutcome {
    let config = plan.config;
    let vars = test_vars(config.vars.values(), plan.test);
    let steps = test_steps(plan.scenario, plan.test);
    let live = match LivePage::open(config.limits, handle, page, vars) {
        Ok(live) => live,
        Err(failure) => {
            let step = steps.first().map(|(step, _)| step);
            return TestOutcome::Failed(Box::new(TestFailure::at(
                step.map(|s| s.sentence.clone()).unwrap_or_default(),
                1,
                step.map_or(plan.test.line, |s| s.line),
                FailureCause::Step(failure),
            )));
        }
    };
    // The engine exists only where code may be written or a verdict asked: never in strict
    // replay; in replay only with an LLM; in `run` with an LLM or the built-in generator.
    let writes = matches!(config.mode, Mode::Run { .. }) && config.builtin.uses_builtin();
    let mut engine = match (config.mode, &config.provider) {
        (Mode::StrictReplay | Mode::Audit, _) => None,
        (_, None) if !writes => None,
        (_, provider) => Some({
            let engine = Engine::new(
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
            .with_secrets(config.vars.secrets());
            match plan.reuse {
                Some(reuse) => engine.with_reuse(reuse),
                None => engine,
            }
        }),
    };
    // The code every step of this test passed with so far, in order: the next step's requests
    // carry it.
    let mut passed_code: Vec<String> = Vec::new();
    // What this test wrote to the cache, so that a test that reached for a forbidden origin,
    // even after its step passed, keeps none of it.
    let mut written = Written::default();
    for (offset, (step, key)) in steps.iter().enumerate() {
        let index = offset + 1;
        if offset > 0 && config.cancel.load(std::sync::atomic::Ordering::SeqCst) {
            written.undo_if_blocked(&plan, &live, &events, index - 1);
            return TestOutcome::Interrupted(Interruption {
                step: step.sentence.clone(),
                step_index: index,
                line: step.line,
            });
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
            .with_argument(step.argument.as_ref())
            .with_optional(step.optional.then_some(config.polling.optional_timeout));
        let context = StepContext {
            scenario: plan.scenario,
            key: key.clone(),
            line: step.line,
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
            steps: steps.len(),
            sentence: step.sentence.clone(),
            line: step.line,
        });
        let started = Instant::now();
        let cached = lookup(&plan, &context.key);
        let shared = key.is_background() || plan.test.example.is_some();
        let result = match (config.mode, engine.as_mut()) {
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
        match result {
            StepResult::Passed {
                source,
                by,
                code,
                proof,
            } => {
                passed_code.push(code.clone());
                if matches!(source, StepSource::Generated | StepSource::Healed) {
                    written.steps.push((key.clone(), code.clone()));
                }
                // Cached code that was not proven in this run shows the proof its entry records.
                let proof = match (source, proof) {
                    (StepSource::Cached, None) => plan
                        .cached
                        .and_then(|file| file.get(key))
                        .and_then(|entry| entry.proof.clone())
                        .map(StepProof::Recorded),
                    (_, proof) => proof,
                };
                reporter.send(RunEvent::StepPassed {
                    test: plan.id.clone(),
                    index,
                    sentence: step.sentence.clone(),
                    line: step.line,
                    source,
                    by,
                    duration,
                    code,
                    proof,
                });
            }
            StepResult::Skipped(reason) => {
                reporter.send(RunEvent::StepSkipped {
                    test: plan.id.clone(),
                    index,
                    sentence: step.sentence.clone(),
                    line: step.line,
                    duration,
                    reason,
                });
            }
            StepResult::Failed { mut failure } => {
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
                written.undo_if_blocked(&plan, &live, &events, index);
                return TestOutcome::Failed(failure);
            }
        }
    }
    written.undo_if_blocked(&plan, &live, &events, steps.len());
    TestOutcome::Passed
}

/// The values a test's step code reads as `vars`: `vars`, and the cells of the test's examples
/// row under their column names (each `${NAME}` in a cell filled from `vars`).
pub(crate) fn test_vars(
    mut vars: std::collections::BTreeMap<String, String>,
    test: &Test,
) -> std::collections::BTreeMap<String, String> {
    let row: Vec<(String, String)> = test
        .row()
        .map(|(column, value)| (column.to_owned(), fill_variables(value, &vars)))
        .collect();
    vars.extend(row);
    vars
}

/// The steps a test runs, in order: its file's `background:` steps, then its own, each as
/// reports show it (a background step's sentence starts with `background: `) and with its cache
/// key, whose `step` is the sentence as written.
pub(crate) fn test_steps(scenario: &Scenario, test: &Test) -> Vec<(Step, StepKey)> {
    scenario
        .background
        .iter()
        .map(|step| {
            let shown = Step {
                sentence: format!("background: {}", step.sentence),
                ..step.clone()
            };
            (shown, StepKey::background(scenario, step))
        })
        .chain(
            test.steps
                .iter()
                .map(|step| (step.clone(), StepKey::of(scenario, test, step))),
        )
        .collect()
}

/// The code a test wrote to the cache, step by step.
#[derive(Default)]
struct Written {
    steps: Vec<(StepKey, String)>,
}

impl Written {
    /// Takes back what the test wrote when `[browser] allowed_origins` blocked anything in it:
    /// code that passed while something reached out, however late, is not trusted. Each entry
    /// becomes what the cache held when the run started, or goes. The test fails on the block
    /// on its own (see `TestEnd`); this only keeps its code out of the cache, and says so.
    fn undo_if_blocked(
        &self,
        plan: &TestPlan<'_>,
        live: &LivePage,
        events: &Sender<RunEvent>,
        index: usize,
    ) {
        // Asked even when nothing was written: the wait lets a late block reach the guard
        // before the test is concluded.
        let Some(blocked) = live.violation() else {
            return;
        };
        let mut undone = 0;
        for (key, code) in &self.steps {
            let previous = plan.cached.and_then(|file| file.get(key));
            match plan.config.cache.revert(plan.scenario, key, code, previous) {
                Ok(true) => undone += 1,
                Ok(false) => {}
                Err(err) => tracing::warn!("could not take back the code of `{}`: {err}", key.step),
            }
        }
        if undone > 0 {
            let line = format!(
                "the code this test wrote for {undone} step(s) was not kept in the cache: {blocked}"
            );
            let _ = events.send(RunEvent::StepLog {
                test: plan.id.clone(),
                index,
                line,
            });
        }
    }
}

/// Finds the step's cached code.
fn lookup(plan: &TestPlan<'_>, key: &StepKey) -> Cached {
    match plan.cached.and_then(|file| file.get(key)) {
        Some(entry) => Cached::Code(entry.code.clone()),
        None => Cached::Missing,
    }
}

/// Runs a step according to the run mode, from what the cache holds for it.
fn advance(
    cached: Cached,
    mode: Mode,
    engine: Option<&mut Engine<'_>>,
    context: &StepContext<'_>,
    exec: &LiveExecutor<'_>,
    observer: &StepReporter<'_>,
) -> StepResult {
    match cached {
        Cached::Code(code) => match exec.execute(&code) {
            Ok(()) => StepResult::Passed {
                source: StepSource::Cached,
                by: None,
                // `audit` proves checks, and an optional step is an action that may be skipped.
                proof: (mode == Mode::Audit && !observer.step.optional)
                    .then(|| audit_record(exec, &code, &context.key.step, context.columns))
                    .flatten(),
                code,
            },
            Err(failure) => match skip_or_fail(failure, exec, context) {
                Ok(reason) => StepResult::Skipped(reason),
                Err(failure) => after_failure(code, failure, mode, engine, context, exec, observer),
            },
        },
        Cached::Missing => match (mode, engine) {
            (Mode::Run { .. }, Some(engine)) => generate(engine, context, exec, observer),
            _ => failed_step(observer, FailureCause::CacheMiss, None, None),
        },
    }
}

/// A failed step of the test `observer` reports for.
fn failed_step(
    observer: &StepReporter<'_>,
    cause: FailureCause,
    code: Option<String>,
    verdict: Option<Classification>,
) -> StepResult {
    let (step, index) = (observer.step, observer.index);
    let mut failure = TestFailure::at(step.sentence.clone(), index, step.line, cause);
    failure.code = code;
    failure.verdict = verdict;
    StepResult::Failed {
        failure: Box::new(failure),
    }
}

/// Generates code for a step without any.
fn generate(
    engine: &mut Engine<'_>,
    context: &StepContext<'_>,
    exec: &LiveExecutor<'_>,
    observer: &StepReporter<'_>,
) -> StepResult {
    match engine.generate(context, exec, observer) {
        Ok(generated) => StepResult::Passed {
            source: StepSource::Generated,
            by: Some(generated.by),
            code: generated.code,
            proof: generated.proof.map(StepProof::Recorded),
        },
        Err(decided) => {
            if let Some(reason) = generation_skip(observer.step.optional, context, &decided) {
                return StepResult::Skipped(reason);
            }
            let verdict = decided.verdict.clone();
            let shown = decided.candidate.clone();
            failed_step(observer, FailureCause::Engine(decided), shown, verdict)
        }
    }
}

/// Whether a failure of step code is decided by what it says, before any engine sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Evidence {
    /// The failure is reported as this cause, and no LLM is asked about it.
    Decides(FailureCause),
    /// The engine decides, when there is one (a crash too: the engine says so itself).
    Leaves(StepFailure),
}

impl Evidence {
    /// What `failure` decides on its own: an app that cannot be reached is the infrastructure's
    /// failure and a missing setting the configuration's, each reported as it is; an HTTP 5xx
    /// main document is the app's defect (PRODUCT DEFECT). No step code can fix any of them, so
    /// they are never healed or regenerated.
    fn of(failure: StepFailure) -> Evidence {
        match failure.kind {
            FailureKind::Unreachable | FailureKind::Misconfigured => {
                Evidence::Decides(FailureCause::Step(failure))
            }
            FailureKind::AppError | FailureKind::Blocked => {
                Evidence::Decides(FailureCause::Engine(evident_failure(&failure, None)))
            }
            _ => Evidence::Leaves(failure),
        }
    }

    /// The cause a failure that no engine will judge is reported as.
    fn cause_of(failure: StepFailure) -> FailureCause {
        match Evidence::of(failure) {
            Evidence::Decides(cause) => cause,
            Evidence::Leaves(failure) => FailureCause::Step(failure),
        }
    }
}

/// A step of `code` that failed for `cause`, with the verdict the cause carries (an HTTP 5xx's
/// product defect, from evidence) reported as the engine reports its own.
fn evident_step(observer: &StepReporter<'_>, cause: FailureCause, code: String) -> StepResult {
    let verdict = match &cause {
        FailureCause::Engine(decided) => decided.verdict.clone(),
        _ => None,
    };
    if let Some(verdict) = &verdict {
        observer.verdict(verdict);
    }
    failed_step(observer, cause, Some(code), verdict)
}

/// What follows a failure of cached `code`, by mode: a heal, a verdict, or the failure as it is.
/// A failure that decides itself ([`Evidence::of`]) is reported at once in every mode.
fn after_failure(
    code: String,
    failure: StepFailure,
    mode: Mode,
    engine: Option<&mut Engine<'_>>,
    context: &StepContext<'_>,
    exec: &LiveExecutor<'_>,
    observer: &StepReporter<'_>,
) -> StepResult {
    let failed = |cause: FailureCause, code: Option<String>, verdict: Option<Classification>| {
        failed_step(observer, cause, code, verdict)
    };
    let failure = match Evidence::of(failure) {
        Evidence::Decides(cause) => return evident_step(observer, cause, code),
        Evidence::Leaves(failure) => failure,
    };
    if !matches!(mode, Mode::Run { heal: true }) || engine.is_none() {
        // No heal: the evidence may still call the failure a product defect, which no LLM
        // can overrule.
        let judged = if failure.kind.speaks_for_itself() {
            Judgement::Undecided
        } else {
            judge(&context.key.step, &failure, &exec.observe())
        };
        if let Judgement::Defect(observed) = judged {
            let verdict = match engine {
                Some(engine) => {
                    engine.defect_verdict(context, exec, observer, &code, &failure, observed)
                }
                None => {
                    let verdict = defect_classification(observed, None);
                    observer.verdict(&verdict);
                    verdict
                }
            };
            let decided = EngineFailure::new(
                EngineFailureKind::ProductDefect,
                "the application does not behave as the step expects",
                Some(verdict.clone()),
            )
            .with_cause(EngineCause::Step(failure));
            return failed(FailureCause::Engine(decided), Some(code), Some(verdict));
        }
    }
    match (mode, engine) {
        (Mode::Run { heal: true }, Some(engine)) => {
            match engine.heal(context, exec, observer, &code, &failure) {
                Ok(healed) => StepResult::Passed {
                    source: StepSource::Healed,
                    by: Some(healed.by),
                    code: healed.code,
                    proof: healed.proof.map(StepProof::Recorded),
                },
                Err(decided) => {
                    // Show the code the message is about: the last regenerated
                    // candidate when there was one, else the cached code. A vetoed heal
                    // keeps the cached code, which failed and stays in the cache; its
                    // refused candidate is the failure's own.
                    let verdict = decided.verdict.clone();
                    let shown = match decided.kind {
                        EngineFailureKind::HealVetoed => code,
                        _ => decided.candidate.clone().unwrap_or(code),
                    };
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

/// What a test does with a shared step after running the code it had first (the code proven
/// in this run, else the cached code), given what the step's slot says now.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SharedTurn {
    /// The code this test ran was proven in this run and still failed here. A step is healed
    /// once a run, so the failure stands.
    FailAsItIs { code: String, failure: StepFailure },
    /// Another test generated or healed the step meanwhile: run its code.
    RunProven(String),
    /// The engine gave up on the step for another test: this test fails the same way.
    FailLikeTheOther(Box<TestFailure>),
    /// Nobody decided yet and this test's code failed: heal it, or ask for a verdict.
    AfterFailure { code: String, failure: StepFailure },
    /// Nobody decided yet and there was no code: generate it.
    Generate,
}

impl SharedTurn {
    /// The decision when the slot holds `slot` and this test ran `tried` (its code and how it
    /// failed), or had no code at all (`None`).
    fn decide(slot: &Slot, tried: Option<(String, StepFailure)>) -> SharedTurn {
        match (slot, tried) {
            (Slot::Proven(proven), Some((code, failure))) if *proven == code => {
                SharedTurn::FailAsItIs { code, failure }
            }
            (Slot::Proven(proven), _) => SharedTurn::RunProven(proven.clone()),
            (Slot::Failed(failure), _) => SharedTurn::FailLikeTheOther(failure.clone()),
            (Slot::Undecided, Some((code, failure))) => SharedTurn::AfterFailure { code, failure },
            (Slot::Undecided, None) => SharedTurn::Generate,
        }
    }
}

/// Runs a step that other tests share (see `shared_steps.rs`). The code proven in this run,
/// else the cached code, runs without waiting. When there is none or it fails, this test takes
/// the slot's lock and uses what another test decided meanwhile, or else asks the engine and
/// records its decision for the others.
fn shared_step(
    slot: &std::sync::Mutex<Slot>,
    cached: Cached,
    turn: Turn<'_, '_>,
    deadline: Instant,
) -> StepResult {
    let proven = match &*lock(slot) {
        Slot::Proven(code) => Some(code.clone()),
        _ => None,
    };
    let first = proven.or(match cached {
        Cached::Code(code) => Some(code),
        Cached::Missing => None,
    });
    let mut tried = None;
    if let Some(code) = first {
        match turn.exec.execute(&code) {
            Ok(()) => {
                return StepResult::Passed {
                    source: StepSource::Cached,
                    by: None,
                    code,
                    proof: None,
                };
            }
            Err(failure) => match skip_or_fail(failure, turn.exec, turn.context) {
                // Absent from this test's page: skipped here, nothing decided for the others.
                Ok(reason) => return StepResult::Skipped(reason),
                Err(failure) => tried = Some((code, failure)),
            },
        }
    }
    let mut decided = lock(slot);
    let result = match SharedTurn::decide(&decided, tried) {
        SharedTurn::FailAsItIs { code, failure } => {
            return evident_step(turn.observer, Evidence::cause_of(failure), code);
        }
        SharedTurn::RunProven(code) => {
            return match turn.exec.execute(&code) {
                Ok(()) => StepResult::Passed {
                    source: StepSource::Cached,
                    by: None,
                    code,
                    proof: None,
                },
                Err(failed) => match skip_or_fail(failed, turn.exec, turn.context) {
                    Ok(reason) => StepResult::Skipped(reason),
                    Err(failed) => evident_step(turn.observer, Evidence::cause_of(failed), code),
                },
            };
        }
        SharedTurn::FailLikeTheOther(failure) => return StepResult::Failed { failure },
        SharedTurn::AfterFailure { code, failure } => after_failure(
            code,
            failure,
            Mode::Run { heal: turn.heal },
            Some(turn.engine),
            turn.context,
            turn.exec,
            turn.observer,
        ),
        SharedTurn::Generate => generate(turn.engine, turn.context, turn.exec, turn.observer),
    };
    match &result {
        StepResult::Passed {
            source: StepSource::Generated | StepSource::Healed,
            code,
            ..
        } => *decided = Slot::Proven(code.clone()),
        // Only what the engine decided is shared, not what this test's deadline cut short.
        StepResult::Failed { failure }
            if matches!(failure.cause, FailureCause::Engine(_)) && Instant::now() < deadline =>
        {
            *decided = Slot::Failed(failure.clone());
        }
        _ => {}
    }
    result
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

    fn healed(&self, explanation: &str, by: Author, offline: bool, old_code: &str, new_code: &str) {
        self.send(RunEvent::Healed {
            test: self.test.clone(),
            index: self.index,
            sentence: self.step.sentence.clone(),
            explanation: explanation.to_owned(),
            by,
            offline,
            old_code: old_code.to_owned(),
            new_code: new_code.to_owned(),
        });
    }

    fn reuse_tried(&self, from: &str, failure: Option<&str>) {
        self.send_log();
        self.send(RunEvent::ReuseTried {
            test: self.test.clone(),
            index: self.index,
            from: from.to_owned(),
            failure: failure.map(str::to_owned),
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
        // The reporters show the warning and the log keeps only a debug record, so that users
        // see it once.
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

    fn failure(message: &str) -> StepFailure {
        StepFailure::new(crate::script::FailureKind::Script, message.to_owned())
    }

    #[test]
    fn proven_code_that_fails_again_fails_as_it_is() {
        let slot = Slot::Proven("proven()".into());
        assert_eq!(
            SharedTurn::decide(&slot, Some(("proven()".into(), failure("boom")))),
            SharedTurn::FailAsItIs {
                code: "proven()".into(),
                failure: failure("boom")
            }
        );
    }

    #[test]
    fn code_another_test_proved_meanwhile_runs_instead() {
        let slot = Slot::Proven("new()".into());
        assert_eq!(
            SharedTurn::decide(&slot, Some(("old()".into(), failure("boom")))),
            SharedTurn::RunProven("new()".into())
        );
        assert_eq!(
            SharedTurn::decide(&slot, None),
            SharedTurn::RunProven("new()".into())
        );
    }

    #[test]
    fn a_step_the_engine_gave_up_on_fails_every_test_the_same_way() {
        let given_up = Box::new(TestFailure::at(
            "open the app".into(),
            1,
            2,
            FailureCause::CacheMiss,
        ));
        let slot = Slot::Failed(given_up.clone());
        assert_eq!(
            SharedTurn::decide(&slot, Some(("old()".into(), failure("boom")))),
            SharedTurn::FailLikeTheOther(given_up.clone())
        );
        assert_eq!(
            SharedTurn::decide(&slot, None),
            SharedTurn::FailLikeTheOther(given_up)
        );
    }

    #[test]
    fn an_undecided_step_is_healed_after_its_code_failed_and_generated_without_code() {
        assert_eq!(
            SharedTurn::decide(&Slot::Undecided, Some(("old()".into(), failure("boom")))),
            SharedTurn::AfterFailure {
                code: "old()".into(),
                failure: failure("boom")
            }
        );
        assert_eq!(
            SharedTurn::decide(&Slot::Undecided, None),
            SharedTurn::Generate
        );
    }

    #[test]
    fn an_app_that_cannot_be_reached_or_a_missing_setting_is_reported_as_it_is() {
        for kind in [FailureKind::Unreachable, FailureKind::Misconfigured] {
            let failure = StepFailure::new(kind, "it says what it is");
            assert_eq!(
                Evidence::of(failure.clone()),
                Evidence::Decides(FailureCause::Step(failure)),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn an_http_5xx_main_document_is_a_product_defect_from_evidence() {
        let failure = StepFailure::new(
            FailureKind::AppError,
            "page.goto: the app answered HTTP 500 Internal Server Error for http://a/",
        );
        let Evidence::Decides(FailureCause::Engine(defect)) = Evidence::of(failure.clone()) else {
            panic!("decided as the engine's product defect");
        };
        assert_eq!(defect.kind, crate::engine::EngineFailureKind::ProductDefect);
        let verdict = defect.verdict.clone().expect("a verdict from evidence");
        assert_eq!(verdict.category, Category::ProductDefect);
        assert_eq!(
            verdict.source,
            crate::llm::VerdictSource::Evidence { llm: None }
        );
        assert_eq!(verdict.explanation, failure.message);
        assert!(
            defect.message().ends_with(&failure.message),
            "{}",
            defect.message()
        );
    }

    #[test]
    fn the_engine_decides_every_other_failure_crashes_included() {
        for kind in FailureKind::ALL.into_iter().filter(|kind| {
            !matches!(
                kind,
                FailureKind::Unreachable
                    | FailureKind::Misconfigured
                    | FailureKind::AppError
                    | FailureKind::Blocked
            )
        }) {
            let failure = StepFailure::new(kind, "the engine decides");
            assert_eq!(
                Evidence::of(failure.clone()),
                Evidence::Leaves(failure.clone()),
                "{kind:?}"
            );
            assert_eq!(
                Evidence::cause_of(failure.clone()),
                FailureCause::Step(failure)
            );
        }
    }

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
