//! One test's execution on its own thread: a JavaScript sandbox, the test's page, its engine,
//! and its steps in order, its file's `background:` steps first.
//!
//! Main type: [`TestPlan`]; the entry point is [`run_test`], a few stages: open the page's
//! sandbox, make the engine, then run each step ([`TestSteps::step`]: its context, how it ends
//! (`step_run.rs`), its events) until one ends the test.

use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use crate::cache::{Baselines, CacheFile, StepKey};
use crate::driver::TestPage;
use crate::engine::{Budgets, Engine, EngineObserver, HealPolicy, Reuse, StepContext, StepProof};
use crate::runner::margins::{margin_warning, timed_out};
use crate::runner::shared_steps::SharedSteps;
use crate::runner::step_reporter::StepReporter;
use crate::runner::step_run::{Cached, StepResult, Turn, advance, shared_step};
use crate::runner::written_code::WrittenCode;
use crate::runner::{
    FailureCause, Interruption, Mode, OriginsSeen, RunConfig, RunEvent, StepFailed, StepPassed,
    StepSkipped, StepSource, StepStarted, TestFailure, TestId, TestOutcome, WrittenStep,
};
use crate::scenario::{Scenario, Step, Test};
use crate::script::{Accessibility, Screenshots, SnapshotMode};
use crate::step::{LivePage, SettleWindow};

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
    /// Where the steps note the code they write to the cache, for the runner to take back
    /// when anything in the test was blocked.
    pub written: &'a WrittenCode,
}

/// Runs the steps of one test in order; the first failing step ends the test.
pub(crate) fn run_test(
    plan: TestPlan<'_>,
    page: TestPage,
    handle: tokio::runtime::Handle,
    events: Sender<RunEvent>,
) -> TestOutcome {
    let steps = test_steps(plan.scenario, plan.test);
    let live = match open_sandbox(&plan, &steps, page, handle) {
        Ok(live) => live,
        Err(failed) => return failed,
    };
    let mut run = TestSteps {
        plan: &plan,
        live: &live,
        events: &events,
        steps: &steps,
        engine: engine_for(&plan),
        passed_code: Vec::new(),
        written_here: Vec::new(),
    };
    let outcome = run.all();
    // Concluding the test waited for the pages to settle, so the tally is whole.
    let origins = live.origins_seen();
    if !origins.is_empty() {
        let _ = events.send(RunEvent::of_test(plan.id.clone(), OriginsSeen { origins }));
    }
    outcome
}

/// The sandbox the test's step code runs in, on `page`, with the test's `vars`; a failure of
/// the test's first step when it cannot start.
fn open_sandbox(
    plan: &TestPlan<'_>,
    steps: &[(Step, StepKey)],
    page: TestPage,
    handle: tokio::runtime::Handle,
) -> Result<LivePage, TestOutcome> {
    let vars = test_vars(plan.config.vars.values(), plan.test);
    let screenshots = screenshots_of(plan);
    let accessibility = Accessibility::new(
        plan.config.driver_dir.clone(),
        plan.config.accept_violations.clone(),
    );
    let opened = LivePage::open(
        plan.config.limits,
        handle,
        page,
        vars,
        Some(screenshots),
        accessibility,
    );
    opened.map_err(|failure| {
        let step = steps.first().map(|(step, _)| step);
        TestOutcome::Failed(Box::new(TestFailure::at(
            step.map(|s| s.sentence.clone()).unwrap_or_default(),
            1,
            step.map_or(plan.test.line, |s| s.line),
            FailureCause::Step(failure),
        )))
    })
}

/// Where the test's screenshot baselines are, and whether this run may write them: never in
/// strict replay or audit, which change no file of the cache.
fn screenshots_of(plan: &TestPlan<'_>) -> Screenshots {
    let config = plan.config;
    let mode = match config.mode {
        Mode::StrictReplay | Mode::Audit => SnapshotMode::Never,
        Mode::Replay | Mode::Run { .. } => config.snapshots,
    };
    Screenshots::new(
        Baselines::of(&config.cache, &plan.scenario.rel_path),
        plan.scenario.rel_path.clone(),
        plan.test.name.clone(),
        config
            .project
            .clone()
            .unwrap_or_else(|| config.browser_name.clone()),
        mode,
        config.screenshot_dir.clone(),
    )
}

/// The test's engine. It exists only where code may be written or a verdict asked: never in
/// strict replay or audit; in replay only with an LLM; in `run` with an LLM or the built-in
/// generator.
fn engine_for<'p>(plan: &'p TestPlan<'p>) -> Option<Engine<'p>> {
    let config = plan.config;
    let writes = matches!(config.mode, Mode::Run { .. }) && config.builtin.uses_builtin();
    match (config.mode, &config.provider) {
        (Mode::StrictReplay | Mode::Audit, _) => return None,
        (_, None) if !writes => return None,
        _ => {}
    }
    let engine = Engine::new(
        config.provider.as_deref(),
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
    Some(match plan.reuse {
        Some(reuse) => engine.with_reuse(reuse),
        None => engine,
    })
}

/// A test's steps as they run: what each step needs from the ones before it.
struct TestSteps<'p> {
    plan: &'p TestPlan<'p>,
    live: &'p LivePage,
    events: &'p Sender<RunEvent>,
    steps: &'p [(Step, StepKey)],
    engine: Option<Engine<'p>>,
    /// The code every step of this test passed with so far, in order: the next step's
    /// requests carry it.
    passed_code: Vec<String>,
    /// The steps of this test whose code was generated or healed in this run, in order.
    written_here: Vec<WrittenStep>,
}

impl<'p> TestSteps<'p> {
    /// Runs the steps in order; the first that ends the test ends it.
    fn all(&mut self) -> TestOutcome {
        for offset in 0..self.steps.len() {
            if let Some(ended) = self.step(offset) {
                return ended;
            }
        }
        // The test's end settle: what the pages have on its way (a timer's request just
        // after the last call) reaches the guard before the test is concluded. The runner
        // reads what the guard blocked, and takes back what the test wrote, once the
        // context is closed.
        let _ = self.live.violation();
        TestOutcome::Passed
    }

    /// Runs the step at `offset` and reports it; the test's outcome when the step ends the
    /// test (it failed, or Ctrl-C came before it).
    fn step(&mut self, offset: usize) -> Option<TestOutcome> {
        let (plan, live, events) = (self.plan, self.live, self.events);
        let (step, key) = &self.steps[offset];
        let index = offset + 1;
        if offset > 0 && plan.config.cancel.load(Ordering::SeqCst) {
            return Some(TestOutcome::Interrupted(Interruption {
                step: step.sentence.clone(),
                step_index: index,
                line: step.line,
            }));
        }
        let reporter = StepReporter {
            test: &plan.id,
            index,
            step,
            live,
            events,
        };
        live.begin_step(index);
        let on_retry = |attempt: u32, failure: &_| reporter.send_retry(attempt, failure);
        let exec = live
            .executor(
                SettleWindow::new(&plan.config.polling, step.tries),
                &on_retry,
            )
            .with_argument(step.argument.as_ref())
            .with_optional(
                step.optional
                    .then_some(plan.config.polling.optional_timeout),
            );
        let context = self.context(offset);
        reporter.send(StepStarted {
            steps: self.steps.len(),
            sentence: step.sentence.clone(),
            line: step.line,
        });
        let started = Instant::now();
        let cached = lookup(plan, key);
        let fresh = cached == Cached::Missing;
        let result = match (plan.config.mode, self.engine.as_mut()) {
            (Mode::Run { heal }, Some(engine)) if is_shared(plan, key) => {
                let turn = Turn {
                    heal,
                    engine,
                    context: &context,
                    exec: &exec,
                    observer: &reporter,
                };
                shared_step(&plan.shared.slot(key), cached, turn, plan.deadline)
            }
            (mode, engine) => advance(cached, mode, engine, &context, &exec, &reporter),
        };
        let duration = started.elapsed();
        live.end_step();
        reporter.send_log();
        self.ended(&reporter, key, result, duration, fresh)
    }

    /// What the step at `offset` is given: its key and line, and the sentences and code of the
    /// steps before it.
    fn context(&self, offset: usize) -> StepContext<'p> {
        let (step, key) = &self.steps[offset];
        StepContext {
            scenario: self.plan.scenario,
            key: key.clone(),
            line: step.line,
            columns: if key.is_background() {
                &[]
            } else {
                self.plan.test.columns()
            },
            previous: self.steps[..offset]
                .iter()
                .map(|(_, key)| key.step.clone())
                .collect(),
            previous_code: self.passed_code.clone(),
        }
    }

    /// Reports how the step ended and keeps what the steps after it need; the test's outcome
    /// when the step failed.
    fn ended(
        &mut self,
        reporter: &StepReporter<'_>,
        key: &StepKey,
        result: StepResult,
        duration: Duration,
        fresh: bool,
    ) -> Option<TestOutcome> {
        let step = reporter.step;
        match result {
            StepResult::Passed {
                source,
                by,
                code,
                proof,
            } => {
                self.passed_code.push(code.clone());
                let waited = self.live.last_wait();
                if let Some(warning) =
                    margin_warning(reporter.index, &step.sentence, source, waited.as_ref())
                {
                    reporter.warning(&warning);
                }
                if matches!(source, StepSource::Generated | StepSource::Healed) {
                    self.plan.written.push(key.clone(), code.clone());
                    self.written_here.push(WrittenStep {
                        step_index: reporter.index,
                        step: step.sentence.clone(),
                        code: code.clone(),
                    });
                }
                // Cached code that was not proven in this run shows the proof its entry records.
                let proof = match (source, proof) {
                    (StepSource::Cached, None) => self
                        .plan
                        .cached
                        .and_then(|file| file.get(key))
                        .and_then(|entry| entry.proof.clone())
                        .map(StepProof::Recorded),
                    (_, proof) => proof,
                };
                reporter.send(StepPassed {
                    sentence: step.sentence.clone(),
                    line: step.line,
                    source,
                    by,
                    duration,
                    code,
                    proof,
                });
                None
            }
            StepResult::Skipped(reason) => {
                reporter.send(StepSkipped {
                    sentence: step.sentence.clone(),
                    line: step.line,
                    duration,
                    reason,
                });
                None
            }
            StepResult::Failed { mut failure } => {
                if !failure.is_infrastructure() {
                    failure.screenshot = self.live.screenshot();
                }
                failure.timed_out = timed_out(&failure, self.live.last_wait());
                if fresh && failure.is_incurable() {
                    failure.written_before = self.written_here.clone();
                }
                reporter.send(StepFailed {
                    sentence: step.sentence.clone(),
                    line: step.line,
                    duration,
                });
                Some(TestOutcome::Failed(failure))
            }
        }
    }
}

/// Whether other tests share the step (a background step, a step of an examples row), so that
/// the engine decides it once for all of them.
fn is_shared(plan: &TestPlan<'_>, key: &StepKey) -> bool {
    key.is_background() || plan.test.example.is_some()
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

/// Finds the step's cached code.
fn lookup(plan: &TestPlan<'_>, key: &StepKey) -> Cached {
    match plan.cached.and_then(|file| file.get(key)) {
        Some(entry) => Cached::Code(entry.code.clone()),
        None => Cached::Missing,
    }
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
