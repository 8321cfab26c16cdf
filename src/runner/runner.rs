//! The runner: selects tests, loads their cached code, and runs each test on a worker thread
//! in a fresh browser context, turning everything into [`RunEvent`]s.
//!
//! Main type: [`Runner`]. The runner reaches browsers only through the port in `port.rs`, and
//! decides how each test ended with the pure functions of `lifecycle.rs`. Its unit tests
//! check those decisions against the strict fake browser of `fake.rs`.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use crate::cache::{CacheError, CacheFile};
use crate::config::Isolation;
use crate::driver::{BrowserRuntime, SavedState, Watched};
use crate::engine::Reuse;
use crate::llm::{Breaker, LlmProvider};
use crate::runner::lifecycle::{
    EndSignals, SetupEnd, Shape, StateSave, TestEnd, conclude, saved_too_late,
};
use crate::runner::port::{Browser, Browsers, DriverBrowsers, LaunchError, Page, PageError};
use crate::runner::retry::{cache_for_retry, run_attempts};
use crate::runner::setups::{Next, Schedule, write_state};
use crate::runner::shared_steps::{SharedSteps, lock};
use crate::runner::test_run::TestPlan;
use crate::runner::written_code::WrittenCode;
use crate::runner::{
    AttemptTiming, FailureCause, Mode, RunConfig, RunEvent, RunFinished, RunStarted, RunStats,
    SetupFailed, StepLog, StopReason, TestFailure, TestFinished, TestId, TestKind, TestOutcome,
    TestRef, TestRetry, TestTiming, TraceMode, TraceWritten,
};
use crate::scenario::{Scenario, Test};

/// Runs selected tests of a set of scenarios against one browser runtime.
pub(crate) struct Runner<'a> {
    scenarios: &'a [Scenario],
    selected: Vec<TestRef>,
    cache_files: HashMap<usize, CacheFile>,
    config: RunConfig,
    /// The step-code API listing, sent to the LLM with every generation request.
    page_api: String,
    /// Wraps the configured provider for the whole run, so that the run stops calling an LLM
    /// that failed several times in a row.
    breaker: Option<Arc<Breaker>>,
    /// Browser launches that failed in a row, across workers; a launch that works resets it.
    failed_launches: AtomicUsize,
    /// Set when the browser could not be launched again, the app could not be reached, or a
    /// setting the steps need is missing, which stops the run.
    halted: Mutex<Option<String>>,
    /// What the engine decided in this run for the steps that several tests share.
    shared: SharedSteps,
    /// The suite's proven code, offered to steps of other tests that say the same sentence;
    /// `None` with `[generate] reuse = false`.
    reuse: Option<Reuse<'a>>,
}

/// Browser launches that may fail in a row before the run stops.
const LAUNCH_ATTEMPTS: usize = 2;

/// How often the watchdog checks for Ctrl-C, which a signal handler reports through a flag.
const CANCEL_POLL: Duration = Duration::from_millis(50);

impl<'a> Runner<'a> {
    /// Loads the cache files of the selected tests' scenarios. A malformed cache file is an
    /// error, and the file is left untouched.
    pub(crate) fn new(
        scenarios: &'a [Scenario],
        selected: Vec<TestRef>,
        mut config: RunConfig,
    ) -> Result<Self, CacheError> {
        let cache = &config.cache;
        let mut cache_files = HashMap::new();
        for at in &selected {
            if cache_files.contains_key(&at.scenario) {
                continue;
            }
            if let Some(file) = cache.load(&scenarios[at.scenario].rel_path)? {
                cache_files.insert(at.scenario, file);
            }
        }
        // Only the engine sends the listing. It comes from the binding, so a failure to list
        // it is a bug, and the request carries the error rather than hiding it.
        let page_api = match config.provider {
            Some(_) => crate::script::api_listing().unwrap_or_else(|f| f.message),
            None => String::new(),
        };
        let reuse = config.reuse.then(|| Reuse::new(scenarios));
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
            halted: Mutex::new(None),
            shared: SharedSteps::default(),
            reuse,
        })
    }

    /// Lets reuse look for a sentence's code in `suite` (the run's scenarios and the rest of
    /// the suite) rather than in the run's scenarios alone; nothing when reuse is off.
    pub(crate) fn reusing_from(mut self, suite: &'a [Scenario]) -> Self {
        if self.reuse.is_some() && !suite.is_empty() {
            self.reuse = Some(Reuse::new(suite));
        }
        self
    }

    /// Runs the selected tests on the configured number of worker threads, each owning a
    /// browser of `runtime`, and reports every event through `on_event` (on the calling
    /// thread, in the order they happen).
    pub(crate) fn run(
        &self,
        runtime: &BrowserRuntime,
        handle: &tokio::runtime::Handle,
        on_event: &mut dyn FnMut(RunEvent),
    ) -> RunStats {
        let browsers = DriverBrowsers {
            runtime,
            handle: handle.clone(),
        };
        self.run_with(&browsers, on_event)
    }

    /// Runs the selected tests in browsers that `browsers` launches.
    pub(crate) fn run_with<B: Browsers>(
        &self,
        browsers: &B,
        on_event: &mut dyn FnMut(RunEvent),
    ) -> RunStats {
        let started = Instant::now();
        let mut stats = RunStats::default();
        on_event(RunEvent::of_run(RunStarted {
            tests: self.selected.len(),
        }));
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
                        self.worker(browsers, schedule, failures, &tx);
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
        stats.stopped = self.stop_reason(&failures);
        stats.llm_cut_off = self.breaker.as_ref().is_some_and(|b| b.is_open());
        stats.heal_veto_off =
            !self.config.heal_veto && self.config.mode == (Mode::Run { heal: true });
        stats.allowed_origins_off = self.config.allowed_origins_off;
        stats.llm_writes = self.breaker.is_some()
            && self.config.builtin.uses_llm()
            && matches!(self.config.mode, Mode::Run { .. });
        stats.duration = started.elapsed();
        on_event(RunEvent::of_run(RunFinished {
            stats: stats.clone(),
        }));
        stats
    }

    /// One worker takes tests from the schedule until it is empty or the run stops. It
    /// launches its browser on first use and closes it at the end.
    fn worker<B: Browsers>(
        &self,
        browsers: &B,
        schedule: &Schedule<'_>,
        failures: &AtomicUsize,
        tx: &mpsc::Sender<RunEvent>,
    ) {
        let mut browser: Option<B::Browser> = None;
        loop {
            let (at, state) = match schedule.next(&|| self.stop_reason(failures).is_some()) {
                Next::Done => break,
                Next::Run(at, state) => (at, state),
                Next::SetupFailed(at, failed) => {
                    self.setup_failed(at, failed, tx);
                    // It counts toward `--max-failures` like every test reported as failed.
                    failures.fetch_add(1, Ordering::SeqCst);
                    continue;
                }
            };
            // The guard tells the schedule that the test finished even if this worker panics
            // below, so that no other worker waits forever for its state.
            let running = Running {
                schedule,
                at,
                done: false,
            };
            let (scenario, test) = at.of(self.scenarios);
            let id = TestId::of(scenario, test).in_project(self.config.project.as_deref());
            let _ = tx.send(RunEvent::of_test(id.clone(), TestKind::Started));
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
                    let written = WrittenCode::default();
                    let plan = TestPlan {
                        id: id.clone(),
                        scenario,
                        test,
                        cached: reread.as_ref().or(self.cache_files.get(&at.scenario)),
                        shared: &self.shared,
                        reuse: self.reuse.as_ref(),
                        config: &self.config,
                        page_api: &self.page_api,
                        // run_one sets it again when the watchdog starts.
                        deadline: Instant::now() + self.config.test_timeout,
                        attempt,
                        written: &written,
                    };
                    let start = Start {
                        state: state.as_deref(),
                        saved: &mut saved,
                    };
                    let outcome = self.run_one(plan, start, &mut browser, browsers, tx);
                    // Set before the retry is decided, so that no attempt runs into it again.
                    if let TestOutcome::Failed(failure) = &outcome
                        && let Some(reason) = failure.halts_the_run()
                    {
                        lock(&self.halted).get_or_insert_with(|| reason.to_owned());
                    }
                    outcome
                },
                || self.stop_reason(failures).is_none(),
                |attempt, failure, duration| {
                    let retry = TestRetry {
                        attempt,
                        failure,
                        duration,
                    };
                    let _ = tx.send(RunEvent::of_test(id.clone(), retry));
                },
            );
            if matches!(outcome, TestOutcome::Failed(_)) {
                failures.fetch_add(1, Ordering::SeqCst);
            }
            let setup = SetupEnd::of(&outcome, saved);
            // The test's result is reported before its dependents may start, so that a
            // setup's result comes first.
            let finished = TestFinished {
                outcome,
                duration: started.elapsed(),
            };
            let _ = tx.send(RunEvent::of_test(id, finished));
            running.finish(setup);
        }
        if let Some(browser) = browser {
            browser.close();
        }
    }

    /// Reports a test whose setup did not pass: it starts and fails at once, without running.
    fn setup_failed(&self, at: TestRef, failed: SetupFailed, tx: &mpsc::Sender<RunEvent>) {
        let (scenario, test) = at.of(self.scenarios);
        let id = TestId::of(scenario, test).in_project(self.config.project.as_deref());
        let _ = tx.send(RunEvent::of_test(id.clone(), TestKind::Started));
        let finished = TestFinished {
            outcome: at_first_step(scenario, test, FailureCause::SetupFailed(failed)),
            duration: Duration::ZERO,
        };
        let _ = tx.send(RunEvent::of_test(id, finished));
    }

    /// Why no test (nor retry) may start any more, if something stopped the run. Ctrl-C comes
    /// first, because it also decides the exit code.
    fn stop_reason(&self, failures: &AtomicUsize) -> Option<StopReason> {
        if self.config.cancel.load(Ordering::SeqCst) {
            return Some(StopReason::Interrupted);
        }
        if let Some(reason) = lock(&self.halted).clone() {
            return Some(StopReason::Halted(reason));
        }
        self.config
            .max_failures
            .filter(|&max| failures.load(Ordering::SeqCst) >= max)
            .map(StopReason::MaxFailures)
    }

    /// Runs one attempt of a test in a fresh context (or browser), under the test timeout,
    /// with tracing.
    fn run_one<B: Browsers>(
        &self,
        mut plan: TestPlan<'_>,
        start: Start<'_>,
        browser: &mut Option<B::Browser>,
        browsers: &B,
        tx: &mpsc::Sender<RunEvent>,
    ) -> TestOutcome {
        let (scenario, test) = (plan.scenario, plan.test);
        let (written, cached) = (plan.written, plan.cached);
        let shape = Shape {
            test,
            background_steps: plan.scenario.background.len(),
        };
        let limit = self.config.test_timeout;
        let opening = Instant::now();
        let (page, launch) = match self.open_page(browser, start.state, browsers) {
            Ok(opened) => opened,
            Err(err) => {
                return at_first_step(scenario, test, FailureCause::Infrastructure(err.report()));
            }
        };
        let trace = self.config.trace;
        if trace != TraceMode::Off
            && let Err(err) = page.start_tracing(&plan.id.name)
        {
            tracing::warn!("could not start a trace for {}: {err}", plan.id);
        }
        // The watchdog closes the test's context at the deadline or at Ctrl-C, so that the
        // step in flight fails at once. LLM calls carry the same deadline and give up by it.
        plan.deadline = Instant::now() + limit;
        let watchdog = Watchdog::start(page.clone(), limit, Arc::clone(&self.config.cancel));
        let (id, attempt) = (plan.id.clone(), plan.attempt);
        let context = opening.elapsed().saturating_sub(launch.unwrap_or_default());
        let steps_started = Instant::now();
        let steps =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| page.run_steps(plan, tx)))
                .unwrap_or_else(|_| {
                    let message = "the test panicked (a bug in prettyplay)".to_owned();
                    at_first_step(scenario, test, FailureCause::Infrastructure(message))
                });
        let fired = watchdog.map_or(Fired::No, Watchdog::stop);
        let steps_took = steps_started.elapsed();
        let teardown_started = Instant::now();
        let end = TestEnd::of(EndSignals {
            interrupted: fired == Fired::Interrupted,
            browser_lost: page.lost().map(|loss| loss.reason),
            page_crashed: page.crashed(),
            timed_out: fired == Fired::TimedOut,
            blocked_navigation: page.blocked_navigation(),
        });
        let mut outcome = conclude(steps, &end, shape, limit);
        match StateSave::decide(&outcome, &end, test.saves.as_deref()) {
            StateSave::Nothing => {}
            StateSave::TooLate(name) => outcome = saved_too_late(shape, name, limit),
            StateSave::Save(name) => match self.save_state(&page, name) {
                Ok(saved) => *start.saved = Some(saved),
                Err(err) => {
                    let message =
                        format!("could not read the storage state `{name}` to save: {err}");
                    outcome = shape.at_last_step(FailureCause::Infrastructure(message));
                }
            },
        }
        if trace != TraceMode::Off {
            self.stop_tracing(&page, &id, attempt, &outcome, tx);
        }
        page.close();
        // The context is closed, so nothing its pages or their timers do can be blocked any
        // more: what the guard recorded is whole. Anything it blocked takes back every entry
        // the attempt wrote, and fails an attempt that passed.
        if let Some(blocked) = page.blocked_navigation() {
            let undone = written.take_back(&self.config.cache, scenario, cached);
            if undone > 0 {
                let line = format!(
                    "the code this test wrote for {undone} step(s) was not kept in the cache: \
                     {blocked}"
                );
                let index = match &outcome {
                    TestOutcome::Failed(failure) => failure.step_index,
                    _ => shape.background_steps + test.steps.len(),
                };
                let _ = tx.send(RunEvent::of_step(id.clone(), index, StepLog { line }));
            }
            if outcome.is_pass() {
                outcome = conclude(outcome, &TestEnd::OriginBlocked(blocked), shape, limit);
                *start.saved = None;
            }
        }
        if self.config.isolation == Isolation::Browser
            && let Some(done) = browser.take()
        {
            done.close();
        }
        let timing = AttemptTiming {
            attempt,
            timing: TestTiming {
                launch,
                context,
                steps: steps_took,
                navigation: page.navigation(),
                teardown: teardown_started.elapsed(),
            },
        };
        let _ = tx.send(RunEvent::of_test(id, timing));
        outcome
    }

    /// Stops the test's trace, and keeps it when `--trace on` asks for every trace or the
    /// test failed.
    fn stop_tracing<P: Page>(
        &self,
        page: &P,
        id: &TestId,
        attempt: u32,
        outcome: &TestOutcome,
        tx: &mpsc::Sender<RunEvent>,
    ) {
        let keep = self.config.trace == TraceMode::On || matches!(outcome, TestOutcome::Failed(_));
        let path: Option<PathBuf> =
            keep.then(|| self.config.trace_dir.join(trace_file_name(id, attempt)));
        if let Some(dir) = path.as_ref().and_then(|p| p.parent()) {
            let _ = std::fs::create_dir_all(dir);
        }
        match page.stop_tracing(path.as_deref()) {
            Ok(()) => {
                if let Some(path) = path {
                    let _ = tx.send(RunEvent::of_test(id.clone(), TraceWritten { path }));
                }
            }
            Err(err) => tracing::warn!("could not write the trace of {id}: {err}"),
        }
    }

    /// Reads the storage state of a setup test's page and writes it to
    /// `.prettyplay/state/NAME.json`.
    fn save_state<P: Page>(&self, page: &P, name: &str) -> Result<SavedState, PageError> {
        let saved = page.save_state()?;
        let dir = &self.config.state_dir;
        match write_state(dir, name, &saved) {
            Ok(path) => tracing::info!(
                "saved state `{name}` ({} cookies, {} origins) to {}",
                saved.cookies(),
                saved.origins(),
                path.display()
            ),
            // The tests of this run read the state from memory, so a file that cannot be
            // written costs only the copy on disk.
            Err(err) => tracing::warn!(
                "could not write state `{name}` to {} ({err}); this run's tests start from it \
                 all the same",
                dir.join(format!("{name}.json")).display()
            ),
        }
        Ok(saved)
    }

    /// Opens a fresh page for a test in the worker's browser. It launches a browser first when
    /// the worker has none (or with `isolation = "browser"`), and launches another when the
    /// old one crashed or its driver died. The page comes with the time spent launching
    /// browsers for it.
    fn open_page<B: Browsers>(
        &self,
        browser: &mut Option<B::Browser>,
        state: Option<&SavedState>,
        browsers: &B,
    ) -> Result<(<B::Browser as Browser>::Page, Option<Duration>), NoPage> {
        let mut launch: Option<Duration> = None;
        loop {
            if let Some(loss) = browser.as_ref().and_then(Browser::lost) {
                // The runtime says itself that it starts a dead driver again, so that loss is
                // not repeated here.
                if loss.watched != Watched::Driver {
                    tracing::warn!("{loss}: launching a new browser");
                }
                // The browser is gone already, or a failed reuse spent it.
                if let Some(old) = browser.take() {
                    old.close();
                }
            }
            let current = match browser {
                Some(current) if self.config.isolation != Isolation::Browser => current,
                _ => {
                    let launched = self.launch(browsers, &mut launch)?;
                    if let Some(old) = browser.take() {
                        old.close();
                    }
                    browser.insert(launched)
                }
            };
            match current.new_page(state) {
                Ok(page) => return Ok((page, launch)),
                // The browser went away between two tests. The test has not started, so it
                // gets a new browser rather than the failure.
                Err(_) if current.lost().is_some() => continue,
                Err(err) => return Err(NoPage::Page(err)),
            }
        }
    }

    /// Launches a browser, adding the time it took to `launch`. After [`LAUNCH_ATTEMPTS`]
    /// failed launches in a row the run stops.
    fn launch<B: Browsers>(
        &self,
        browsers: &B,
        launch: &mut Option<Duration>,
    ) -> Result<B::Browser, LaunchError> {
        let launching = Instant::now();
        let launched = browsers.launch();
        *launch = Some(launch.unwrap_or_default() + launching.elapsed());
        match launched {
            Ok(launched) => {
                self.failed_launches.store(0, Ordering::SeqCst);
                Ok(launched)
            }
            Err(err) => {
                let failed = self.failed_launches.fetch_add(1, Ordering::SeqCst) + 1;
                if failed >= LAUNCH_ATTEMPTS {
                    let report = err.report();
                    let first = report.lines().next().unwrap_or_default();
                    lock(&self.halted).get_or_insert_with(|| {
                        format!(
                            "the browser could not be launched {failed} times in a row ({first})"
                        )
                    });
                }
                Err(err)
            }
        }
    }
}

/// Why a test got no page: no browser could be launched, or the browser opened no page.
#[derive(Debug, thiserror::Error)]
enum NoPage {
    #[error(transparent)]
    Launch(#[from] LaunchError),
    #[error(transparent)]
    Page(PageError),
}

impl NoPage {
    /// The error as the test reports it: the message, its causes and what to do about it.
    fn report(&self) -> String {
        match self {
            NoPage::Launch(err) => err.report(),
            NoPage::Page(err) => err.report(),
        }
    }
}

/// A test the schedule handed out, until its worker says it finished (or panicked).
struct Running<'s, 'q> {
    schedule: &'s Schedule<'q>,
    at: TestRef,
    done: bool,
}

impl Running<'_, '_> {
    fn finish(mut self, end: SetupEnd) {
        self.done = true;
        self.schedule.finished(self.at, end);
    }
}

impl Drop for Running<'_, '_> {
    fn drop(&mut self) {
        if !self.done {
            self.schedule.finished(self.at, SetupEnd::Panicked);
        }
    }
}

/// What a test starts from, and where a setup test leaves the state it saved.
struct Start<'s> {
    state: Option<&'s SavedState>,
    saved: &'s mut Option<SavedState>,
}

/// What the watchdog did before the steps returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fired {
    No,
    TimedOut,
    Interrupted,
}

/// A thread that closes a test's page when the test timeout passes or Ctrl-C comes.
struct Watchdog {
    done: mpsc::Sender<()>,
    thread: std::thread::JoinHandle<Fired>,
}

impl Watchdog {
    /// Starts watching `page`; `None` when no thread could be started, and then the test runs
    /// unwatched, bounded only by its steps' own timeouts.
    fn start<P: Page>(page: P, limit: Duration, cancel: Arc<AtomicBool>) -> Option<Watchdog> {
        let (done, finished) = mpsc::channel::<()>();
        let deadline = Instant::now() + limit;
        let thread = std::thread::Builder::new()
            .name("watchdog".into())
            .spawn(move || {
                loop {
                    let fired = if cancel.load(Ordering::SeqCst) {
                        Fired::Interrupted
                    } else if Instant::now() >= deadline {
                        Fired::TimedOut
                    } else {
                        let wait = deadline
                            .saturating_duration_since(Instant::now())
                            .min(CANCEL_POLL);
                        match finished.recv_timeout(wait) {
                            Err(mpsc::RecvTimeoutError::Timeout) => continue,
                            // The steps returned: the sender was dropped.
                            Ok(()) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                                return Fired::No;
                            }
                        }
                    };
                    page.close();
                    return fired;
                }
            });
        match thread {
            Ok(thread) => Some(Watchdog { done, thread }),
            Err(err) => {
                tracing::warn!("could not start a test's watchdog: {err}");
                None
            }
        }
    }

    /// Stops watching and returns what the watchdog did. It waits for a close in flight, so
    /// that what the runner then reads of the page is final.
    fn stop(self) -> Fired {
        drop(self.done);
        self.thread.join().unwrap_or(Fired::No)
    }
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
    TestOutcome::Failed(Box::new(TestFailure::at(step, 1, line, cause)))
}

/// A trace file name for a test: `<scenario>-<test>.zip` with unsafe characters replaced;
/// `<scenario>-<test>-retry1.zip` for its first retry (Playwright's suffix), with `-<project>`
/// before it in a run of browser projects.
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
    // Each browser's trace of the same test is a file of its own, as in Playwright.
    let project = id
        .project
        .as_deref()
        .map(|p| format!("-{}", clean(p)))
        .unwrap_or_default();
    format!(
        "{}-{}{project}{retry}.zip",
        clean(&id.scenario),
        clean(&id.name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::fake::{
        FakeBrowsers, Launch, Open, PageScript, Ran, closed_under_it, config, run, scenarios,
        temp_dir,
    };
    use crate::runner::{EventKind, Interruption, RunKind, StepKind, StepPassed, StepSource};
    use crate::script::{FailureKind, StepFailure};

    /// One scenario, `a.steps`, with `source`.
    fn one_file(source: &str) -> Vec<Scenario> {
        scenarios(&[("a.steps", source)])
    }

    /// One one-step test, a.
    const ONE: &str = "test: a\n  open a\n";
    /// Two one-step tests, a and b.
    const TWO: &str = "test: a\n  open a\ntest: b\n  open b\n";
    /// Three one-step tests: a, b and c.
    const THREE: &str = "test: a\n  open a\ntest: b\n  open b\ntest: c\n  open c\n";

    fn browsers(launches: Vec<Launch>, config: &RunConfig) -> FakeBrowsers {
        FakeBrowsers::new(launches, Arc::clone(&config.cancel))
    }

    fn pages(pages: Vec<PageScript>) -> Launch {
        Launch::Browser(pages.into_iter().map(Open::Page).collect())
    }

    fn names(ran: &Ran) -> Vec<String> {
        ran.outcomes().into_iter().map(|(name, _)| name).collect()
    }

    fn state() -> SavedState {
        SavedState::from_json(r#"{"cookies":[],"origins":[]}"#).expect("a state")
    }

    fn is_step(outcome: &TestOutcome, kind: FailureKind) -> bool {
        matches!(outcome, TestOutcome::Failed(f)
            if matches!(&f.cause, FailureCause::Step(step) if step.kind == kind))
    }

    #[test]
    fn a_passing_test_opens_a_page_runs_its_steps_and_closes_page_and_browser() {
        let dir = temp_dir();
        let config = config(dir.path());
        let fake = browsers(vec![pages(vec![PageScript::passes()])], &config);
        let ran = run(&one_file(ONE), config, &fake);
        assert_eq!(ran.outcome("a"), TestOutcome::Passed);
        assert_eq!(
            fake.log(),
            [
                "launch",
                "page",
                "steps a #1",
                "close page",
                "close browser"
            ]
        );
        assert_eq!((ran.stats.passed, ran.stats.failed), (1, 0));
        assert_eq!(ran.stats.stopped, None);
    }

    #[test]
    fn events_come_in_order_started_timing_finished_and_the_run_ends_last() {
        let dir = temp_dir();
        let config = config(dir.path());
        let fake = browsers(vec![pages(vec![PageScript::passes()])], &config);
        let ran = run(&one_file(ONE), config, &fake);
        let kinds: Vec<&str> = ran
            .events
            .iter()
            .map(|event| match &event.kind {
                EventKind::Run(RunKind::Started(_)) => "run started",
                EventKind::Test(_, TestKind::Started) => "test started",
                EventKind::Test(_, TestKind::Timing(timing)) => {
                    assert!(timing.timing.launch.is_some(), "the first test launched");
                    "timing"
                }
                EventKind::Test(_, TestKind::Finished(_)) => "test finished",
                EventKind::Run(RunKind::Finished(_)) => "run finished",
                other => panic!("unexpected {other:?}"),
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "run started",
                "test started",
                "timing",
                "test finished",
                "run finished"
            ]
        );
    }

    #[test]
    fn the_tests_of_one_worker_share_its_browser_and_only_the_first_pays_the_launch() {
        let dir = temp_dir();
        let config = config(dir.path());
        let fake = browsers(
            vec![pages(vec![
                PageScript::passes(),
                PageScript::passes(),
                PageScript::passes(),
            ])],
            &config,
        );
        let ran = run(&one_file(THREE), config, &fake);
        assert_eq!(names(&ran), ["a", "b", "c"]);
        assert_eq!(fake.log().iter().filter(|l| *l == "launch").count(), 1);
        let launches: Vec<bool> = ran
            .events
            .iter()
            .filter_map(|event| match &event.kind {
                EventKind::Test(_, TestKind::Timing(timing)) => {
                    Some(timing.timing.launch.is_some())
                }
                _ => None,
            })
            .collect();
        assert_eq!(launches, [true, false, false]);
    }

    #[test]
    fn isolation_browser_gives_every_test_a_browser_of_its_own() {
        let dir = temp_dir();
        let mut config = config(dir.path());
        config.isolation = Isolation::Browser;
        let fake = browsers(
            vec![
                pages(vec![PageScript::passes()]),
                pages(vec![PageScript::passes()]),
            ],
            &config,
        );
        run(&one_file(TWO), config, &fake);
        assert_eq!(
            fake.log(),
            [
                "launch",
                "page",
                "steps a #1",
                "close page",
                "close browser",
                "launch",
                "page",
                "steps b #1",
                "close page",
                "close browser"
            ]
        );
    }

    #[test]
    fn a_failed_launch_fails_the_test_as_infrastructure_and_the_next_test_launches_again() {
        let dir = temp_dir();
        let config = config(dir.path());
        let fake = browsers(
            vec![
                Launch::Fails("chromium exited".into()),
                pages(vec![PageScript::passes()]),
            ],
            &config,
        );
        let ran = run(&one_file(TWO), config, &fake);
        let failure = ran.failure("a");
        assert_eq!(
            failure.cause,
            FailureCause::Infrastructure("error: chromium exited".into())
        );
        assert_eq!((failure.step.as_str(), failure.line), ("open a", 2));
        assert_eq!(ran.outcome("b"), TestOutcome::Passed);
        assert_eq!(ran.stats.infrastructure_failures, 1);
        assert_eq!(ran.stats.stopped, None);
    }

    #[test]
    fn two_failed_launches_in_a_row_stop_the_run_and_say_why() {
        let dir = temp_dir();
        let config = config(dir.path());
        let fake = browsers(
            vec![
                Launch::Fails("chromium exited\nmore".into()),
                Launch::Fails("chromium exited\nmore".into()),
            ],
            &config,
        );
        let ran = run(&one_file(THREE), config, &fake);
        assert_eq!(names(&ran), ["a", "b"]);
        assert_eq!(ran.stats.not_run, 1);
        assert_eq!(
            ran.stats.stopped,
            Some(StopReason::Halted(
                "the browser could not be launched 2 times in a row (error: chromium exited)"
                    .into()
            ))
        );
    }

    #[test]
    fn an_app_that_cannot_be_reached_stops_the_run_without_a_retry() {
        for (kind, reason) in [
            (
                FailureKind::Unreachable,
                "the app could not be reached (APP UNREACHABLE)",
            ),
            (
                FailureKind::Misconfigured,
                "a step needs a setting the run lacks (CONFIGURATION ERROR)",
            ),
        ] {
            let dir = temp_dir();
            let mut config = config(dir.path());
            config.retries = 2;
            let failure = StepFailure::new(kind, "it says why");
            let fake = browsers(
                vec![pages(vec![PageScript::fails(FailureCause::Step(failure))])],
                &config,
            );
            let ran = run(&one_file(THREE), config, &fake);
            assert_eq!(names(&ran), ["a"], "{kind:?}");
            assert!(is_step(&ran.outcome("a"), kind), "{kind:?}");
            assert_eq!(ran.stats.not_run, 2, "{kind:?}");
            assert_eq!(
                ran.stats.stopped,
                Some(StopReason::Halted(reason.into())),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn a_launch_that_works_resets_the_count_of_failed_launches() {
        let dir = temp_dir();
        let mut config = config(dir.path());
        config.isolation = Isolation::Browser;
        let fake = browsers(
            vec![
                Launch::Fails("no".into()),
                pages(vec![PageScript::passes()]),
                Launch::Fails("no".into()),
            ],
            &config,
        );
        let ran = run(&one_file(THREE), config, &fake);
        assert_eq!(names(&ran), ["a", "b", "c"]);
        assert_eq!(ran.stats.stopped, None);
    }

    #[test]
    fn a_browser_lost_between_tests_is_replaced_and_the_test_never_sees_it() {
        let dir = temp_dir();
        let config = config(dir.path());
        let fake = browsers(
            vec![
                Launch::Browser(vec![
                    Open::Page(PageScript::passes()),
                    Open::Lost("the browser closed".into()),
                ]),
                pages(vec![PageScript::passes()]),
            ],
            &config,
        );
        let ran = run(&one_file(TWO), config, &fake);
        assert_eq!(ran.outcome("b"), TestOutcome::Passed);
        assert_eq!(
            fake.log(),
            [
                "launch",
                "page",
                "steps a #1",
                "close page",
                "page lost",
                "close browser",
                "launch",
                "page",
                "steps b #1",
                "close page",
                "close browser"
            ]
        );
    }

    #[test]
    fn a_page_that_cannot_be_opened_fails_its_test_as_infrastructure() {
        let dir = temp_dir();
        let config = config(dir.path());
        let fake = browsers(
            vec![Launch::Browser(vec![
                Open::Fails("new context failed".into()),
                Open::Page(PageScript::passes()),
            ])],
            &config,
        );
        let ran = run(&one_file(TWO), config, &fake);
        assert_eq!(
            ran.failure("a").cause,
            FailureCause::Infrastructure(
                "error: could not open a browser page for the test\n  caused by: Protocol error: \
                 new context failed"
                    .into()
            )
        );
        assert_eq!(ran.outcome("b"), TestOutcome::Passed);
    }

    #[test]
    fn a_background_step_is_where_a_test_that_never_ran_fails() {
        let dir = temp_dir();
        let config = config(dir.path());
        let fake = browsers(vec![Launch::Fails("no".into())], &config);
        let ran = run(
            &one_file("background:\n  sign in\ntest: a\n  open a\n"),
            config,
            &fake,
        );
        let failure = ran.failure("a");
        assert_eq!(
            (failure.step.as_str(), failure.step_index, failure.line),
            ("background: sign in", 1, 2)
        );
    }

    #[test]
    fn a_browser_lost_while_steps_ran_fails_the_test_even_when_they_passed() {
        let dir = temp_dir();
        let config = config(dir.path());
        let lost = PageScript::steps(|call| {
            call.lose_browser("the driver exited");
            TestOutcome::Passed
        });
        let fake = browsers(
            vec![pages(vec![lost]), pages(vec![PageScript::passes()])],
            &config,
        );
        let ran = run(
            &one_file("test: a\n  open a\n  click go\ntest: b\n  open b\n"),
            config,
            &fake,
        );
        let outcome = ran.outcome("a");
        assert!(is_step(&outcome, FailureKind::Crash), "{outcome:?}");
        let failure = ran.failure("a");
        assert_eq!((failure.step.as_str(), failure.step_index), ("click go", 2));
        assert!(failure.is_infrastructure());
        // The next test gets a new browser.
        assert_eq!(ran.outcome("b"), TestOutcome::Passed);
        assert_eq!(fake.log().iter().filter(|l| *l == "launch").count(), 2);
    }

    #[test]
    fn a_crashed_page_fails_a_test_whose_steps_passed() {
        let dir = temp_dir();
        let config = config(dir.path());
        let fake = browsers(vec![pages(vec![PageScript::passes().crashing()])], &config);
        let ran = run(&one_file(ONE), config, &fake);
        assert!(is_step(&ran.outcome("a"), FailureKind::PageCrash));
    }

    #[test]
    fn a_blocked_navigation_fails_a_test_whose_steps_passed() {
        let dir = temp_dir();
        let config = config(dir.path());
        let blocked = PageScript::passes().blocking("blocked: http://evil.test/");
        let fake = browsers(vec![pages(vec![blocked])], &config);
        let ran = run(&one_file(ONE), config, &fake);
        let outcome = ran.outcome("a");
        assert!(is_step(&outcome, FailureKind::Blocked), "{outcome:?}");
        assert!(
            ran.failure("a")
                .message("a.steps", "a")
                .contains("blocked: http://evil.test/")
        );
    }

    #[test]
    fn the_watchdog_closes_a_hung_test_at_its_timeout_and_the_test_times_out() {
        let dir = temp_dir();
        let mut config = config(dir.path());
        config.test_timeout = Duration::from_millis(50);
        let fake = browsers(vec![pages(vec![PageScript::hangs()])], &config);
        let ran = run(&one_file(ONE), config, &fake);
        let outcome = ran.outcome("a");
        assert!(is_step(&outcome, FailureKind::Timeout), "{outcome:?}");
        assert!(
            ran.failure("a")
                .message("a.steps", "a")
                .starts_with("test timeout of 0s exceeded during step 1")
        );
    }

    #[test]
    fn a_test_that_finishes_in_time_is_not_touched_by_the_watchdog() {
        let dir = temp_dir();
        let config = config(dir.path());
        let failing = PageScript::fails(closed_under_it());
        let fake = browsers(vec![pages(vec![failing])], &config);
        let ran = run(&one_file(ONE), config, &fake);
        // Without the watchdog the failure stays the step's own, not a timeout.
        assert!(is_step(&ran.outcome("a"), FailureKind::Crash));
    }

    #[test]
    fn ctrl_c_during_a_step_interrupts_the_test_and_no_other_test_starts() {
        let dir = temp_dir();
        let config = config(dir.path());
        let interrupted = PageScript::interrupted();
        let fake = browsers(vec![pages(vec![interrupted])], &config);
        let ran = run(&one_file(THREE), config, &fake);
        assert_eq!(
            ran.outcome("a"),
            TestOutcome::Interrupted(Interruption {
                step: "open the app".into(),
                step_index: 1,
                line: 2,
            })
        );
        assert_eq!(names(&ran), ["a"]);
        assert_eq!(ran.stats.stopped, Some(StopReason::Interrupted));
        assert_eq!(
            (
                ran.stats.interrupted_tests,
                ran.stats.failed,
                ran.stats.not_run
            ),
            (1, 0, 2)
        );
    }

    #[test]
    fn an_interrupted_test_is_never_retried() {
        let dir = temp_dir();
        let mut config = config(dir.path());
        config.retries = 2;
        let interrupted = PageScript::interrupted();
        let fake = browsers(vec![pages(vec![interrupted])], &config);
        let ran = run(&one_file(ONE), config, &fake);
        assert!(matches!(ran.outcome("a"), TestOutcome::Interrupted(_)));
        assert!(
            !ran.events
                .iter()
                .any(|e| matches!(e.kind, EventKind::Test(_, TestKind::Retry(_))))
        );
    }

    #[test]
    fn ctrl_c_as_the_last_step_passed_leaves_the_test_passed() {
        let dir = temp_dir();
        let config = config(dir.path());
        let passes_then_interrupted = PageScript::interrupted_after(TestOutcome::Passed);
        let fake = browsers(vec![pages(vec![passes_then_interrupted])], &config);
        let ran = run(&one_file(ONE), config, &fake);
        assert_eq!(ran.outcome("a"), TestOutcome::Passed);
        assert_eq!(ran.stats.stopped, Some(StopReason::Interrupted));
    }

    #[test]
    fn a_failed_test_runs_again_in_a_fresh_page_and_passes_as_flaky() {
        let dir = temp_dir();
        let mut config = config(dir.path());
        config.retries = 2;
        let fake = browsers(
            vec![pages(vec![
                PageScript::fails(FailureCause::CacheMiss),
                PageScript::passes(),
            ])],
            &config,
        );
        let ran = run(&one_file(ONE), config, &fake);
        assert_eq!(ran.outcome("a"), TestOutcome::Flaky { attempts: 2 });
        assert!(fake.log().contains(&"steps a #2".to_owned()));
        let retries: Vec<u32> = ran
            .events
            .iter()
            .filter_map(|event| match &event.kind {
                EventKind::Test(_, TestKind::Retry(retry)) => Some(retry.attempt),
                _ => None,
            })
            .collect();
        assert_eq!(retries, [2]);
        assert_eq!((ran.stats.flaky, ran.stats.passed), (1, 0));
    }

    #[test]
    fn a_test_that_fails_every_attempt_fails_with_its_last_failure() {
        let dir = temp_dir();
        let mut config = config(dir.path());
        config.retries = 1;
        let fake = browsers(
            vec![pages(vec![
                PageScript::fails(FailureCause::CacheMiss),
                PageScript::fails(FailureCause::Infrastructure("last".into())),
            ])],
            &config,
        );
        let ran = run(&one_file(ONE), config, &fake);
        assert_eq!(
            ran.failure("a").cause,
            FailureCause::Infrastructure("last".into())
        );
        assert_eq!(ran.stats.failed, 1);
    }

    #[test]
    fn max_failures_counts_a_test_once_it_failed_every_attempt_and_then_stops_the_run() {
        let dir = temp_dir();
        let mut config = config(dir.path());
        config.max_failures = Some(1);
        config.retries = 2;
        let fake = browsers(
            vec![pages(vec![
                PageScript::fails(FailureCause::CacheMiss),
                PageScript::fails(FailureCause::CacheMiss),
                PageScript::fails(FailureCause::CacheMiss),
            ])],
            &config,
        );
        let ran = run(&one_file(THREE), config, &fake);
        // A test counts as failed when its last attempt failed, as in Playwright Test, so its
        // retries run; then nothing else starts.
        assert!(fake.log().contains(&"steps a #3".to_owned()));
        assert_eq!(names(&ran), ["a"]);
        assert_eq!(ran.stats.not_run, 2);
        assert_eq!(ran.stats.stopped, Some(StopReason::MaxFailures(1)));
    }

    #[test]
    fn a_flaky_test_does_not_count_toward_max_failures() {
        let dir = temp_dir();
        let mut config = config(dir.path());
        config.max_failures = Some(1);
        config.retries = 1;
        let fake = browsers(
            vec![pages(vec![
                PageScript::fails(FailureCause::CacheMiss),
                PageScript::passes(),
                PageScript::passes(),
                PageScript::passes(),
            ])],
            &config,
        );
        let ran = run(&one_file(THREE), config, &fake);
        assert_eq!(names(&ran), ["a", "b", "c"]);
        assert_eq!(ran.stats.stopped, None);
    }

    #[test]
    fn a_panic_in_the_steps_fails_the_test_as_a_bug_and_the_run_goes_on() {
        let dir = temp_dir();
        let config = config(dir.path());
        let panics = PageScript::steps(|_| panic!("a bug"));
        let fake = browsers(vec![pages(vec![panics, PageScript::passes()])], &config);
        let ran = run(&one_file(TWO), config, &fake);
        assert_eq!(
            ran.failure("a").cause,
            FailureCause::Infrastructure("the test panicked (a bug in prettyplay)".into())
        );
        assert_eq!(ran.outcome("b"), TestOutcome::Passed);
    }

    #[test]
    fn the_events_steps_send_reach_the_reporters_before_their_test_finishes() {
        let dir = temp_dir();
        let config = config(dir.path());
        let sends = PageScript::steps(|call| {
            let test = TestId {
                scenario: "a.steps".into(),
                name: call.test.to_owned(),
                line: 1,
                project: None,
            };
            call.send(RunEvent::of_step(
                test,
                1,
                StepPassed {
                    proof: None,
                    sentence: "open a".into(),
                    line: 2,
                    source: StepSource::Cached,
                    by: None,
                    duration: Duration::ZERO,
                    code: "x".into(),
                },
            ));
            TestOutcome::Passed
        });
        let fake = browsers(vec![pages(vec![sends])], &config);
        let ran = run(&one_file(ONE), config, &fake);
        let passed = ran
            .events
            .iter()
            .position(|e| matches!(e.kind, EventKind::Step(_, StepKind::Passed(_))));
        let finished = ran
            .events
            .iter()
            .position(|e| matches!(e.kind, EventKind::Test(_, TestKind::Finished(_))));
        assert!(passed < finished, "{:?}", ran.events);
        assert_eq!(ran.stats.cached_steps, 1);
    }

    const SETUP: &str = "test: sign in [saves=user]\n  sign in\n\
                         test: cart [state=user]\n  open the cart\n";

    #[test]
    fn a_setup_saves_its_state_to_a_file_before_the_tests_that_start_from_it() {
        let dir = temp_dir();
        let config = config(dir.path());
        let fake = browsers(
            vec![pages(vec![
                PageScript::passes().saving(Ok(state())),
                PageScript::passes(),
            ])],
            &config,
        );
        let ran = run(&one_file(SETUP), config, &fake);
        assert_eq!(names(&ran), ["sign in", "cart"]);
        assert_eq!(ran.outcome("cart"), TestOutcome::Passed);
        assert!(dir.path().join("state/user.json").is_file());
        let log = fake.log();
        let saved = log.iter().position(|l| l == "save");
        let cart = log.iter().position(|l| l == "steps cart #1");
        assert!(saved < cart, "{log:?}");
    }

    #[test]
    fn a_setup_whose_state_cannot_be_read_fails_as_infrastructure_and_its_dependents_do_not_run() {
        let dir = temp_dir();
        let config = config(dir.path());
        let fake = browsers(
            vec![pages(vec![
                PageScript::passes().saving(Err("context closed".into())),
            ])],
            &config,
        );
        let ran = run(&one_file(SETUP), config, &fake);
        let failure = ran.failure("sign in");
        assert!(matches!(&failure.cause, FailureCause::Infrastructure(m)
            if m == "could not read the storage state `user` to save: context closed"));
        let FailureCause::SetupFailed(setup) = ran.failure("cart").cause else {
            panic!("the dependent fails as setup failed");
        };
        assert!(setup.infrastructure);
        assert_eq!(setup.state, "user");
    }

    #[test]
    fn a_failed_setup_fails_its_dependents_without_running_them_and_they_count_as_failures() {
        let dir = temp_dir();
        let mut config = config(dir.path());
        config.max_failures = Some(2);
        let fake = browsers(
            vec![pages(vec![PageScript::fails(FailureCause::CacheMiss)])],
            &config,
        );
        let ran = run(
            &one_file(
                "test: sign in [saves=user]\n  sign in\n\
                 test: cart [state=user]\n  open the cart\n\
                 test: later\n  open later\n",
            ),
            config,
            &fake,
        );
        let FailureCause::SetupFailed(setup) = ran.failure("cart").cause else {
            panic!("the dependent fails as setup failed");
        };
        assert!(!setup.infrastructure);
        // The setup and its dependent are two failures: `later` never starts.
        assert_eq!(names(&ran), ["sign in", "cart"]);
        assert_eq!(ran.stats.stopped, Some(StopReason::MaxFailures(2)));
    }

    #[test]
    fn a_setup_whose_deadline_came_as_its_last_step_passed_fails_without_a_state() {
        let dir = temp_dir();
        let mut config = config(dir.path());
        config.test_timeout = Duration::from_millis(50);
        let late = PageScript::steps(|call| {
            call.until_closed();
            TestOutcome::Passed
        });
        let fake = browsers(vec![pages(vec![late])], &config);
        let ran = run(&one_file(SETUP), config, &fake);
        let outcome = ran.outcome("sign in");
        assert!(is_step(&outcome, FailureKind::Timeout), "{outcome:?}");
        assert!(matches!(
            ran.failure("cart").cause,
            FailureCause::SetupFailed(_)
        ));
        assert!(!dir.path().join("state/user.json").exists());
    }

    #[test]
    fn a_setup_ctrl_c_stopped_after_its_steps_passed_saves_nothing() {
        let dir = temp_dir();
        let config = config(dir.path());
        let stopped = PageScript::interrupted_after(TestOutcome::Passed);
        let fake = browsers(vec![pages(vec![stopped])], &config);
        let ran = run(&one_file(SETUP), config, &fake);
        assert_eq!(ran.outcome("sign in"), TestOutcome::Passed);
        assert_eq!(names(&ran), ["sign in"]);
        assert!(!fake.log().contains(&"save".to_owned()));
    }

    #[test]
    fn trace_on_keeps_every_trace_and_names_it_in_an_event() {
        let dir = temp_dir();
        let mut config = config(dir.path());
        config.trace = TraceMode::On;
        let fake = browsers(vec![pages(vec![PageScript::passes().traced()])], &config);
        let ran = run(&one_file(ONE), config, &fake);
        assert!(fake.log().contains(&"trace kept".to_owned()));
        let written: Vec<&PathBuf> = ran
            .events
            .iter()
            .filter_map(|event| match &event.kind {
                EventKind::Test(_, TestKind::TraceWritten(trace)) => Some(&trace.path),
                _ => None,
            })
            .collect();
        assert_eq!(written, [&dir.path().join("traces").join("a.steps-a.zip")]);
    }

    #[test]
    fn retain_on_failure_keeps_the_traces_of_failed_tests_only() {
        let dir = temp_dir();
        let mut config = config(dir.path());
        config.trace = TraceMode::RetainOnFailure;
        let fake = browsers(
            vec![pages(vec![
                PageScript::passes().traced(),
                PageScript::fails(FailureCause::CacheMiss).traced(),
            ])],
            &config,
        );
        let ran = run(&one_file(TWO), config, &fake);
        let log = fake.log();
        assert_eq!(
            log.iter()
                .filter(|l| l.starts_with("trace "))
                .collect::<Vec<_>>(),
            ["trace start", "trace stop", "trace start", "trace kept"]
        );
        assert_eq!(
            ran.events
                .iter()
                .filter(|e| matches!(e.kind, EventKind::Test(_, TestKind::TraceWritten(_))))
                .count(),
            1
        );
    }

    #[test]
    fn a_retry_keeps_its_trace_under_a_name_of_its_own() {
        let id = TestId {
            scenario: "scenarios/todo.steps".into(),
            name: "add a todo".into(),
            line: 1,
            project: None,
        };
        assert_eq!(
            trace_file_name(&id, 1),
            "scenarios_todo.steps-add_a_todo.zip"
        );
        assert_eq!(
            trace_file_name(&id, 3),
            "scenarios_todo.steps-add_a_todo-retry2.zip"
        );
    }

    #[test]
    fn two_workers_run_tests_at_once_each_in_a_browser_of_its_own() {
        let dir = temp_dir();
        let mut config = config(dir.path());
        config.workers = 2;
        // Each test waits for the other to start, so the two run at once and neither worker
        // can take both.
        let both = Arc::new(std::sync::Barrier::new(2));
        let meets = || {
            let both = Arc::clone(&both);
            pages(vec![PageScript::steps(move |_| {
                both.wait();
                TestOutcome::Passed
            })])
        };
        let fake = browsers(vec![meets(), meets()], &config);
        let ran = run(&one_file(TWO), config, &fake);
        let mut finished = names(&ran);
        finished.sort();
        assert_eq!(finished, ["a", "b"]);
        assert_eq!(fake.log().iter().filter(|l| *l == "launch").count(), 2);
        assert_eq!(ran.stats.passed, 2);
    }

    #[test]
    fn the_fake_refuses_a_launch_its_script_does_not_expect() {
        let dir = temp_dir();
        let config = config(dir.path());
        let fake = browsers(Vec::new(), &config);
        let scenarios = one_file(ONE);
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run(&scenarios, config, &fake);
        }));
        assert!(ran.is_err(), "the worker's panic reaches the run");
        assert_eq!(fake.take_violations(), ["an unscripted browser launch"]);
    }

    #[test]
    #[should_panic(expected = "scripted launch(es) never happened")]
    fn the_fake_refuses_a_script_left_unused() {
        let dir = temp_dir();
        let config = config(dir.path());
        let fake = browsers(vec![pages(vec![PageScript::passes()])], &config);
        drop(fake);
    }
}
