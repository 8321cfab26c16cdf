//! The runner: selects tests, loads their cached code, and runs each test on a thread of its
//! own with a fresh browser context, turning everything into [`RunEvent`]s.
//!
//! Main type: [`Runner`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use std::sync::Arc;

use crate::cache::{CacheError, CacheFile};
use crate::config::Isolation;
use crate::driver::{BrowserRuntime, SavedState, TestPage, WorkerBrowser};
use crate::engine::EngineFailureKind;
use crate::llm::{Breaker, LlmProvider};
use crate::runner::retry::{cache_for_retry, run_attempts};
use crate::runner::setups::{Next, Schedule, write_state};
use crate::runner::shared_steps::SharedSteps;
use crate::runner::test_run::{TestPlan, run_test};
use crate::runner::{
    FailureCause, Mode, RunConfig, RunEvent, RunStats, Selected, SetupFailed, TestFailure, TestId,
    TestOutcome, TestTiming, TraceMode,
};
use crate::scenario::{Scenario, Test};
use crate::script::{FailureKind, StepFailure};

/// Runs selected tests of a set of scenarios against one browser runtime.
pub struct Runner<'a> {
    scenarios: &'a [Scenario],
    selected: Vec<Selected>,
    cache_files: HashMap<usize, CacheFile>,
    config: RunConfig,
    /// The step-code API listing, sent to the LLM with every generation request.
    page_api: String,
    /// Wraps the configured provider for the whole run: it stops calling an LLM that failed
    /// several times in a row.
    breaker: Option<Arc<Breaker>>,
    /// Browser launches that failed in a row, across workers; reset by one that works.
    failed_launches: AtomicUsize,
    /// Set when the run must stop (the browser could not be relaunched), with why.
    stopped: Mutex<Option<String>>,
    /// What the engine decided this run for steps several tests share.
    shared: SharedSteps,
}

/// Browser launches that may fail in a row before the run stops.
const LAUNCH_ATTEMPTS: usize = 2;

impl<'a> Runner<'a> {
    /// Loads the cache files of the selected tests' scenarios; a malformed one is an error
    /// (and is left untouched).
    pub fn new(
        scenarios: &'a [Scenario],
        selected: Vec<Selected>,
        mut config: RunConfig,
    ) -> Result<Self, CacheError> {
        let cache = &config.cache;
        let mut cache_files = HashMap::new();
        for &(si, _) in &selected {
            if cache_files.contains_key(&si) {
                continue;
            }
            if let Some(file) = cache.load(&scenarios[si].rel_path)? {
                cache_files.insert(si, file);
            }
        }
        // Only the engine sends the listing; it comes from the binding, so a failure to list it
        // is a bug, reported in the request rather than hidden.
        let page_api = match config.provider {
            Some(_) => crate::script::api_listing().unwrap_or_else(|f| f.message),
            None => String::new(),
        };
        let breaker = config.provider.take().map(|p| Arc::new(Breaker::new(p)));
        config.provider = breaker
            .clone()
            .map(|breaker| breaker as Arc<dyn LlmProvider>);
        Ok(Self {
            scenarios,
            selected,
            cache_files,
            config,
            page_api,
            breaker,
            failed_launches: AtomicUsize::new(0),
            stopped: Mutex::new(None),
            shared: SharedSteps::default(),
        })
    }

    pub fn test_count(&self) -> usize {
        self.selected.len()
    }

    /// Runs the selected tests on `workers` threads, each owning a browser, and reports every
    /// event through `on_event` (on the calling thread, in the order they happen).
    pub fn run(
        &self,
        runtime: &BrowserRuntime,
        handle: &tokio::runtime::Handle,
        on_event: &mut dyn FnMut(RunEvent),
    ) -> RunStats {
        let started = Instant::now();
        let mut stats = RunStats::default();
        on_event(RunEvent::RunStarted {
            tests: self.selected.len(),
        });
        let schedule = Schedule::new(self.scenarios, &self.selected);
        let failures = AtomicUsize::new(0);
        let workers = self.config.workers.clamp(1, self.selected.len().max(1));
        let (tx, rx) = mpsc::channel::<RunEvent>();
        std::thread::scope(|scope| {
            for worker in 0..workers {
                let tx = tx.clone();
                let (schedule, failures) = (&schedule, &failures);
                let spawned = std::thread::Builder::new()
                    .name(format!("worker {worker}"))
                    .spawn_scoped(scope, move || {
                        self.worker(runtime, handle, schedule, failures, &tx);
                    });
                if let Err(err) = spawned {
                    tracing::error!("could not start worker {worker}: {err}");
                }
            }
            drop(tx);
            for event in rx {
                stats.observe(&event);
                on_event(event);
            }
        });
        stats.not_run = schedule.left();
        stats.interrupted = self.config.cancel.load(Ordering::SeqCst);
        stats.stopped = self.stopped.lock().ok().and_then(|s| s.clone());
        stats.llm_cut_off = self.breaker.as_ref().is_some_and(|b| b.is_open());
        stats.heal_veto_off =
            !self.config.heal_veto && self.config.mode == (Mode::Run { heal: true });
        stats.allowed_origins_off = self.config.allowed_origins_off;
        stats.duration = started.elapsed();
        on_event(RunEvent::RunFinished {
            stats: stats.clone(),
        });
        stats
    }

    /// One worker: takes tests from the schedule until it is empty, the run is cancelled, or
    /// `--max-failures` is reached. Its browser is launched on first use and closed at the end.
    fn worker(
        &self,
        runtime: &BrowserRuntime,
        handle: &tokio::runtime::Handle,
        schedule: &Schedule<'_>,
        failures: &AtomicUsize,
        tx: &mpsc::Sender<RunEvent>,
    ) {
        let mut browser: Option<WorkerBrowser> = None;
        loop {
            let (si, ti, state) = match schedule.next(&|| self.stopping(failures)) {
                Next::Done => break,
                Next::Run((si, ti), state) => (si, ti, state),
                Next::SetupFailed((si, ti), failed) => {
                    self.setup_failed(si, ti, failed, tx);
                    // A failed test for `--max-failures`, like every test it reports failed.
                    failures.fetch_add(1, Ordering::SeqCst);
                    continue;
                }
            };
            // Tells the schedule the test finished even if this worker panics below, so no
            // other worker waits forever for its state.
            let running = Running {
                schedule,
                at: (si, ti),
                done: false,
            };
            let scenario = &self.scenarios[si];
            let test = &scenario.tests[ti];
            let id = TestId::of(scenario, test);
            let _ = tx.send(RunEvent::TestStarted { test: id.clone() });
            let started = Instant::now();
            let mut saved: Option<SavedState> = None;
            let outcome = run_attempts(
                self.config.retries,
                |attempt| {
                    let reread = (attempt > 1)
                        .then(|| {
                            cache_for_retry(
                                self.config.mode,
                                &self.config.cache,
                                &scenario.rel_path,
                            )
                        })
                        .flatten();
                    let plan = TestPlan {
                        id: id.clone(),
                        scenario,
                        test,
                        cached: reread.as_ref().or(self.cache_files.get(&si)),
                        shared: &self.shared,
                        config: &self.config,
                        page_api: &self.page_api,
                        // Set again when the watchdog starts, to its own deadline.
                        deadline: Instant::now() + self.config.test_timeout,
                        attempt,
                    };
                    let start = Start {
                        state: state.as_deref(),
                        saved: &mut saved,
                    };
                    self.run_one(plan, start, &mut browser, runtime, handle, tx)
                },
                || !self.stopping(failures),
                |attempt, failure, duration| {
                    let _ = tx.send(RunEvent::TestRetry {
                        test: id.clone(),
                        attempt,
                        failure,
                        duration,
                    });
                },
            );
            if matches!(&outcome, TestOutcome::Failed(f) if f.cause != FailureCause::Interrupted) {
                failures.fetch_add(1, Ordering::SeqCst);
            }
            let setup = match (&outcome, saved) {
                (TestOutcome::Failed(failure), _) => Err(failure.is_infrastructure()),
                (_, Some(saved)) => Ok(Arc::new(saved)),
                // Passed without saving: not a setup test (or one Ctrl-C stopped).
                (_, None) => Err(false),
            };
            // Reported before its dependents may start, so a setup's result comes first.
            let _ = tx.send(RunEvent::TestFinished {
                test: id,
                outcome,
                duration: started.elapsed(),
            });
            running.finish(setup);
        }
        if let Some(browser) = browser {
            handle.block_on(browser.close());
        }
    }

    /// Reports a test whose setup did not pass: started and failed at once, without running.
    fn setup_failed(&self, si: usize, ti: usize, failed: SetupFailed, tx: &mpsc::Sender<RunEvent>) {
        let scenario = &self.scenarios[si];
        let test = &scenario.tests[ti];
        let id = TestId::of(scenario, test);
        let _ = tx.send(RunEvent::TestStarted { test: id.clone() });
        let _ = tx.send(RunEvent::TestFinished {
            test: id,
            outcome: at_first_step(scenario, test, FailureCause::SetupFailed(failed)),
            duration: std::time::Duration::ZERO,
        });
    }

    /// Whether no test (nor retry) may start: Ctrl-C, a browser that could not be launched, or
    /// `--max-failures` reached.
    fn stopping(&self, failures: &AtomicUsize) -> bool {
        self.config.cancel.load(Ordering::SeqCst)
            || self.stopped.lock().is_ok_and(|s| s.is_some())
            || self
                .config
                .max_failures
                .is_some_and(|max| failures.load(Ordering::SeqCst) >= max)
    }

    /// Runs one test in a fresh context (or browser), under the test timeout, with tracing.
    fn run_one(
        &self,
        mut plan: TestPlan<'_>,
        start: Start<'_>,
        browser: &mut Option<WorkerBrowser>,
        runtime: &BrowserRuntime,
        handle: &tokio::runtime::Handle,
        tx: &mpsc::Sender<RunEvent>,
    ) -> TestOutcome {
        let test = plan.test;
        let background_steps = plan.scenario.background.len();
        let infrastructure = |message: String| {
            at_first_step(plan.scenario, test, FailureCause::Infrastructure(message))
        };
        let opening = Instant::now();
        let (page, launch) = match self.open_page(browser, start.state, runtime, handle) {
            Ok(opened) => opened,
            Err(message) => return infrastructure(message),
        };
        let trace = self.config.trace;
        if trace != TraceMode::Off
            && let Err(err) = handle.block_on(page.start_tracing(&plan.id.name))
        {
            tracing::warn!("could not start a trace for {}: {err}", plan.id);
        }
        // The watchdog closes the test's context at the deadline or at Ctrl-C: the step in
        // flight then fails at once, and its failure is reported as the test timeout (or the
        // test as interrupted). LLM calls carry the same deadline and give up by it (the LLM's
        // failure, reported as such).
        let timed_out = Arc::new(AtomicBool::new(false));
        let interrupted = Arc::new(AtomicBool::new(false));
        plan.deadline = Instant::now() + self.config.test_timeout;
        let watchdog = handle.spawn({
            let (page, timed_out) = (page.clone(), Arc::clone(&timed_out));
            let (cancel, interrupted) = (Arc::clone(&self.config.cancel), Arc::clone(&interrupted));
            let limit = self.config.test_timeout;
            async move {
                tokio::select! {
                    () = tokio::time::sleep(limit) => timed_out.store(true, Ordering::SeqCst),
                    () = until_set(&cancel) => interrupted.store(true, Ordering::SeqCst),
                }
                page.close().await;
            }
        });
        let (id, attempt) = (plan.id.clone(), plan.attempt);
        let context = opening.elapsed().saturating_sub(launch.unwrap_or_default());
        let steps_started = Instant::now();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_test(plan, page.clone(), handle.clone(), tx.clone())
        }))
        .unwrap_or_else(|_| infrastructure("the test panicked (a bug in prettyplay)".to_owned()));
        watchdog.abort();
        let steps = steps_started.elapsed();
        let teardown_started = Instant::now();
        // A browser or page that went away fails the test whatever its steps said: step code
        // that caught the error must not turn a crash green.
        let outcome = if interrupted.load(Ordering::SeqCst) {
            interrupted_outcome(outcome)
        } else if let Some(reason) = page.lost() {
            crashed_outcome(outcome, test, background_steps, FailureKind::Crash, &reason)
        } else if page.events().page_crashed() {
            crashed_outcome(
                outcome,
                test,
                background_steps,
                FailureKind::PageCrash,
                "the page's renderer process exited",
            )
        } else if timed_out.load(Ordering::SeqCst) {
            timed_out_outcome(outcome, self.config.test_timeout)
        } else if let (TestOutcome::Passed, Some(blocked)) = (
            &outcome,
            page.origins().and_then(|guard| guard.first_violation()),
        ) {
            // Step code that caught the block, or a block after the last step's last call.
            crashed_outcome(
                outcome,
                test,
                background_steps,
                FailureKind::Script,
                &format!("{blocked}; a blocked navigation fails its test"),
            )
        } else {
            outcome
        };
        // A setup test saves its state once it passed; one that cannot does not pass.
        let stopped_short = interrupted.load(Ordering::SeqCst) || timed_out.load(Ordering::SeqCst);
        let outcome = match (&outcome, test.saves.as_deref()) {
            // Ctrl-C or the deadline closed the page as the last step passed: nothing to save.
            (TestOutcome::Passed | TestOutcome::Flaky { .. }, Some(name)) if stopped_short => {
                if interrupted.load(Ordering::SeqCst) {
                    outcome
                } else {
                    crashed_outcome(
                        outcome,
                        test,
                        background_steps,
                        FailureKind::Timeout,
                        &format!(
                            "test timeout of {:.0}s exceeded before state `{name}` was saved",
                            self.config.test_timeout.as_secs_f64()
                        ),
                    )
                }
            }
            (TestOutcome::Passed | TestOutcome::Flaky { .. }, Some(name)) => {
                match self.save_state(&page, name, handle) {
                    Ok(saved) => {
                        *start.saved = Some(saved);
                        outcome
                    }
                    Err(message) => at_last_step(
                        test,
                        background_steps,
                        FailureCause::Infrastructure(message),
                    ),
                }
            }
            _ => outcome,
        };
        if trace != TraceMode::Off {
            let keep = trace == TraceMode::On || matches!(outcome, TestOutcome::Failed(_));
            let path = keep.then(|| self.config.trace_dir.join(trace_file_name(&id, attempt)));
            if let Some(dir) = path.as_ref().and_then(|p| p.parent()) {
                let _ = std::fs::create_dir_all(dir);
            }
            match handle.block_on(page.stop_tracing(path.as_deref())) {
                Ok(()) => {
                    if let Some(path) = path {
                        let _ = tx.send(RunEvent::TraceWritten {
                            test: id.clone(),
                            path,
                        });
                    }
                }
                Err(err) => tracing::warn!("could not write the trace of {id}: {err}"),
            }
        }
        handle.block_on(page.close());
        if self.config.isolation == Isolation::Browser
            && let Some(done) = browser.take()
        {
            handle.block_on(done.close());
        }
        let _ = tx.send(RunEvent::TestTiming {
            test: id,
            attempt,
            timing: TestTiming {
                launch,
                context,
                steps,
                navigation: page.navigation().total(),
                teardown: teardown_started.elapsed(),
            },
        });
        outcome
    }

    /// The storage state of a setup test's page, written to `.prettyplay/state/NAME.json`.
    fn save_state(
        &self,
        page: &TestPage,
        name: &str,
        handle: &tokio::runtime::Handle,
    ) -> Result<SavedState, String> {
        let saved = handle
            .block_on(page.save_state())
            .map_err(|err| format!("could not read the storage state `{name}` to save: {err}"))?;
        let dir = &self.config.state_dir;
        match write_state(dir, name, &saved) {
            Ok(path) => tracing::info!(
                "saved state `{name}` ({} cookies, {} origins) to {}",
                saved.cookies(),
                saved.origins(),
                path.display()
            ),
            // The tests of this run read the state from memory: a file that cannot be written
            // costs only the copy on disk.
            Err(err) => tracing::warn!(
                "could not write state `{name}` to {} ({err}); this run's tests start from it \
                 all the same",
                dir.join(format!("{name}.json")).display()
            ),
        }
        Ok(saved)
    }

    /// A fresh page for a test: in the worker's browser, launched first when there is none
    /// (or with `isolation = "browser"`), and launched again when it crashed or its driver died.
    /// After [`LAUNCH_ATTEMPTS`] failed launches in a row the run stops. With the page comes
    /// the time spent launching browsers for it, when one was.
    fn open_page(
        &self,
        browser: &mut Option<WorkerBrowser>,
        state: Option<&SavedState>,
        runtime: &BrowserRuntime,
        handle: &tokio::runtime::Handle,
    ) -> Result<(TestPage, Option<Duration>), String> {
        let mut launch: Option<Duration> = None;
        loop {
            if let Some(reason) = browser.as_ref().and_then(WorkerBrowser::lost) {
                // A dead driver is said once, where it is started again.
                if !reason.contains("Playwright driver") {
                    tracing::warn!("{reason}: launching a new browser");
                }
                // Gone already (then closing only lets it go), or spent by a failed reuse.
                if let Some(old) = browser.take() {
                    handle.block_on(old.close());
                }
            }
            if self.config.isolation == Isolation::Browser || browser.is_none() {
                let launching = Instant::now();
                let launched = handle.block_on(runtime.launch_browser());
                launch = Some(launch.unwrap_or_default() + launching.elapsed());
                match launched {
                    Ok(launched) => {
                        self.failed_launches.store(0, Ordering::SeqCst);
                        if let Some(old) = browser.replace(launched) {
                            handle.block_on(old.close());
                        }
                    }
                    Err(err) => {
                        let failed = self.failed_launches.fetch_add(1, Ordering::SeqCst) + 1;
                        let message = err.report();
                        if failed >= LAUNCH_ATTEMPTS
                            && let Ok(mut stopped) = self.stopped.lock()
                        {
                            stopped.get_or_insert_with(|| {
                                format!(
                                    "the browser could not be launched {failed} times in a row \
                                     ({})",
                                    message.lines().next().unwrap_or_default()
                                )
                            });
                        }
                        return Err(message);
                    }
                }
            }
            let Some(current) = browser.as_ref() else {
                return Err("no browser".to_owned());
            };
            match handle.block_on(current.new_test_page(state)) {
                Ok(page) => return Ok((page, launch)),
                // Went away between two tests: the test has not started, so it gets a new
                // browser rather than the failure.
                Err(_) if current.lost().is_some() => continue,
                Err(err) => return Err(err.report()),
            }
        }
    }
}

/// A test the schedule handed out, until its worker says it finished (or panicked).
struct Running<'s, 'q> {
    schedule: &'s Schedule<'q>,
    at: Selected,
    done: bool,
}

impl Running<'_, '_> {
    fn finish(mut self, saved: Result<Arc<SavedState>, bool>) {
        self.done = true;
        self.schedule.finished(self.at, saved);
    }
}

impl Drop for Running<'_, '_> {
    fn drop(&mut self) {
        if !self.done {
            self.schedule.finished(self.at, Err(true));
        }
    }
}

/// What a test starts from, and where a setup test leaves the state it saved.
struct Start<'s> {
    state: Option<&'s SavedState>,
    saved: &'s mut Option<SavedState>,
}

/// A failure of `test` at the step it would have run first (its file's first background step,
/// if any), for what failed before any step ran.
fn at_first_step(scenario: &Scenario, test: &Test, cause: FailureCause) -> TestOutcome {
    let (step, line) = match scenario.background.first() {
        Some(step) => (format!("background: {}", step.sentence), step.line),
        None => test
            .steps
            .first()
            .map_or((String::new(), test.line), |s| (s.sentence.clone(), s.line)),
    };
    TestOutcome::Failed(Box::new(TestFailure {
        step,
        step_index: 1,
        line,
        cause,
        code: None,
        verdict: None,
        screenshot: None,
    }))
}

/// A failure of `test` at its last step, for what went wrong after every step had passed; the
/// test's own steps are numbered after its file's `background_steps`.
fn at_last_step(test: &Test, background_steps: usize, cause: FailureCause) -> TestOutcome {
    let last = test.steps.last();
    TestOutcome::Failed(Box::new(TestFailure {
        step: last.map(|s| s.sentence.clone()).unwrap_or_default(),
        step_index: (background_steps + test.steps.len()).max(1),
        line: last.map_or(test.line, |s| s.line),
        cause,
        code: None,
        verdict: None,
        screenshot: None,
    }))
}

/// Resolves once `flag` is set (polled: Ctrl-C sets it from a signal handler).
async fn until_set(flag: &AtomicBool) {
    while !flag.load(Ordering::SeqCst) {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// A test Ctrl-C stopped mid-step: interrupted, not failed (a test that passed still passed).
fn interrupted_outcome(outcome: TestOutcome) -> TestOutcome {
    match outcome {
        TestOutcome::Failed(mut failure) => {
            failure.cause = FailureCause::Interrupted;
            failure.verdict = None;
            failure.code = None;
            failure.screenshot = None;
            TestOutcome::Failed(failure)
        }
        passed @ (TestOutcome::Passed | TestOutcome::Flaky { .. }) => passed,
    }
}

/// The failure of a test whose browser (`Crash`) or page (`PageCrash`) went away while it ran:
/// the step it was in, or its last step when every step had passed.
fn crashed_outcome(
    outcome: TestOutcome,
    test: &Test,
    background_steps: usize,
    kind: FailureKind,
    reason: &str,
) -> TestOutcome {
    let label = kind.label();
    let mut failure = match outcome {
        TestOutcome::Failed(failure) => failure,
        TestOutcome::Passed | TestOutcome::Flaky { .. } => {
            let cause = FailureCause::Step(StepFailure::new(kind, format!("{label}: {reason}")));
            return at_last_step(test, background_steps, cause);
        }
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

/// A trace file name for a test: `<scenario>-<test>.zip` with unsafe characters replaced;
/// `<scenario>-<test>-retry1.zip` for its first retry (Playwright's suffix).
fn trace_file_name(id: &TestId, attempt: u32) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let retry = match attempt {
        0 | 1 => String::new(),
        n => format!("-retry{}", n - 1),
    };
    format!("{}-{}{retry}.zip", clean(&id.scenario), clean(&id.name))
}

/// The failure of a test that ran past its deadline: the step it was in, named. An LLM the
/// deadline cut short stays the LLM's failure (infrastructure), not the test's timeout.
fn timed_out_outcome(outcome: TestOutcome, limit: std::time::Duration) -> TestOutcome {
    let message = format!("test timeout of {:.0}s exceeded", limit.as_secs_f64());
    match outcome {
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
        passed @ (TestOutcome::Passed | TestOutcome::Flaky { .. }) => passed,
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::engine::EngineFailure;

    fn failed(cause: FailureCause) -> TestOutcome {
        TestOutcome::failed_first_step(cause)
    }

    #[test]
    fn the_deadline_relabels_a_step_failure_but_not_an_llm_it_cut_short() {
        let limit = Duration::from_secs(5);
        let llm = failed(FailureCause::Engine(EngineFailure::new(
            EngineFailureKind::LlmUnavailable,
            "no answer within 5.0 s, the time left before the test timeout",
            None,
        )));
        assert_eq!(timed_out_outcome(llm.clone(), limit), llm);
        let step = failed(FailureCause::Step(StepFailure::new(
            FailureKind::Crash,
            "target closed".to_owned(),
        )));
        let TestOutcome::Failed(relabelled) = timed_out_outcome(step, limit) else {
            panic!("still failed");
        };
        assert_eq!(
            relabelled.cause,
            FailureCause::Step(StepFailure::new(
                FailureKind::Timeout,
                "test timeout of 5s exceeded during step 1 (\"open the app\")".to_owned()
            ))
        );
    }
}
