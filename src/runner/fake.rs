//! A strict scripted fake of the runner's browser port (`port.rs`), so that the runner's
//! decisions are unit-tested without Chromium.
//!
//! Main type: [`FakeBrowsers`]. A test scripts every browser launch (a browser and the pages it
//! opens, or the error the launch fails with) and every page (what its steps do and how the
//! page ends). The fake is strict like the engine's fakes: a call the script does not expect
//! panics with what happened, and dropping the fake panics when a scripted launch or page was
//! not used, or when a page or browser was left open.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::cache::Cache;
use crate::config::{BudgetSettings, BuiltinOrder, Isolation, LlmSettings, PollingSettings, Vars};
use crate::driver::{CallError, DriverError, Loss, SavedState};
use crate::runner::port::{Browser, Browsers, LaunchError, Page, PageError};
use crate::runner::shared_steps::lock;
use crate::runner::test_run::TestPlan;
use crate::runner::{
    EventKind, FailureCause, Mode, RunConfig, RunEvent, RunStats, Runner, TestFailure, TestKind,
    TestOutcome, TestRef, TraceMode,
};
use crate::scenario::{Scenario, parse};
use crate::script::{FailureKind, Limits, StepFailure};

/// What a page's steps do when the runner runs them.
pub(crate) type Steps = Box<dyn FnOnce(&StepsCall<'_>) -> TestOutcome + Send>;

/// What scripted steps can see and do.
pub(crate) struct StepsCall<'c> {
    /// The test's name.
    pub(crate) test: &'c str,
    page: &'c FakePage,
    cancel: &'c AtomicBool,
    events: &'c Sender<RunEvent>,
}

impl StepsCall<'_> {
    /// Waits until the runner (or its watchdog) closes the page, as a step in flight does.
    pub(crate) fn until_closed(&self) {
        let state = &self.page.state;
        let mut closed = lock(&state.closed);
        while *closed == 0 {
            closed = state
                .changed
                .wait(closed)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// Presses Ctrl-C.
    pub(crate) fn interrupt(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }

    /// Sends an event, as steps do.
    pub(crate) fn send(&self, event: RunEvent) {
        let _ = self.events.send(event);
    }

    /// The browser goes away now, for the page and for the browser that opened it.
    pub(crate) fn lose_browser(&self, reason: &str) {
        *lock(&self.page.state.lost) = Some(reason.to_owned());
        *lock(&self.page.browser_lost) = Some(reason.to_owned());
    }
}

/// One scripted page.
pub(crate) struct PageScript {
    steps: Steps,
    crashed: bool,
    blocked: Option<String>,
    save: Option<Result<SavedState, String>>,
    tracing: bool,
}

impl PageScript {
    /// A page whose steps do what `steps` does.
    pub(crate) fn steps(
        steps: impl FnOnce(&StepsCall<'_>) -> TestOutcome + Send + 'static,
    ) -> Self {
        PageScript {
            steps: Box::new(steps),
            crashed: false,
            blocked: None,
            save: None,
            tracing: false,
        }
    }

    /// A page whose steps pass.
    pub(crate) fn passes() -> Self {
        Self::steps(|_| TestOutcome::Passed)
    }

    /// A page whose steps fail at the first step with `cause`.
    pub(crate) fn fails(cause: FailureCause) -> Self {
        Self::steps(move |_| TestOutcome::failed_first_step(cause))
    }

    /// A page whose steps hang until the page is closed, then fail as a step whose page
    /// closed under it.
    pub(crate) fn hangs() -> Self {
        Self::steps(|call| {
            call.until_closed();
            TestOutcome::failed_first_step(closed_under_it())
        })
    }

    /// A page whose steps see Ctrl-C, wait until the watchdog closes the page, and fail as a
    /// step whose page closed under it.
    pub(crate) fn interrupted() -> Self {
        Self::interrupted_after(TestOutcome::failed_first_step(closed_under_it()))
    }

    /// A page whose steps see Ctrl-C, wait until the watchdog closes the page, and then
    /// return `outcome`.
    pub(crate) fn interrupted_after(outcome: TestOutcome) -> Self {
        Self::steps(move |call| {
            call.interrupt();
            call.until_closed();
            outcome
        })
    }

    /// The page's renderer crashes while the steps run.
    pub(crate) fn crashing(mut self) -> Self {
        self.crashed = true;
        self
    }

    /// `[browser] allowed_origins` blocks a navigation of the page.
    pub(crate) fn blocking(mut self, message: &str) -> Self {
        self.blocked = Some(message.to_owned());
        self
    }

    /// The runner is expected to save the page's state, and gets `saved`.
    pub(crate) fn saving(mut self, saved: Result<SavedState, String>) -> Self {
        self.save = Some(saved);
        self
    }

    /// The runner is expected to start and stop a trace of the page.
    pub(crate) fn traced(mut self) -> Self {
        self.tracing = true;
        self
    }
}

/// The failure of a step whose page was closed under it.
pub(crate) fn closed_under_it() -> FailureCause {
    FailureCause::Step(StepFailure::new(
        FailureKind::Crash,
        "Target page, context or browser has been closed".to_owned(),
    ))
}

/// What a scripted browser's `new_page` returns, in order.
pub(crate) enum Open {
    Page(PageScript),
    /// Opening fails with the driver's protocol error of this message.
    Fails(String),
    /// The browser goes away as the page opens, with this reason.
    Lost(String),
}

/// What a scripted launch returns.
pub(crate) enum Launch {
    Browser(Vec<Open>),
    /// The launch fails: the browser went away with this reason as it started.
    Fails(String),
}

/// The fake's shared record: what is left of the script, what happened, and what broke the
/// rules.
#[derive(Default)]
struct Record {
    launches: VecDeque<Launch>,
    log: Vec<String>,
    violations: Vec<String>,
    open_pages: usize,
    open_browsers: usize,
    unused_opens: usize,
}

/// The runner's browsers, scripted.
pub(crate) struct FakeBrowsers {
    record: Arc<Mutex<Record>>,
    cancel: Arc<AtomicBool>,
}

impl FakeBrowsers {
    /// Browsers whose launches return `launches`, in order; `cancel` is the run's Ctrl-C flag.
    pub(crate) fn new(launches: Vec<Launch>, cancel: Arc<AtomicBool>) -> Self {
        FakeBrowsers {
            record: Arc::new(Mutex::new(Record {
                launches: launches.into(),
                ..Record::default()
            })),
            cancel,
        }
    }

    /// What happened so far, one line per call: `launch`, `launch failed`, `page`,
    /// `steps NAME #ATTEMPT`, `save`, `trace start`, `trace stop`, `trace kept`, `close page`,
    /// `close browser`.
    pub(crate) fn log(&self) -> Vec<String> {
        lock(&self.record).log.clone()
    }

    /// The calls that broke the script so far, which the fake then forgets.
    pub(crate) fn take_violations(&self) -> Vec<String> {
        std::mem::take(&mut lock(&self.record).violations)
    }
}

/// Records `what` as breaking the script, then panics with it.
fn violate(record: &Mutex<Record>, what: String) -> ! {
    lock(record).violations.push(what.clone());
    panic!("{what}");
}

impl Drop for FakeBrowsers {
    fn drop(&mut self) {
        if std::thread::panicking() {
            return;
        }
        let record = lock(&self.record);
        assert!(record.violations.is_empty(), "{:?}", record.violations);
        assert!(
            record.launches.is_empty(),
            "{} scripted launch(es) never happened; log: {:?}",
            record.launches.len(),
            record.log
        );
        assert_eq!(record.unused_opens, 0, "scripted pages never opened");
        assert_eq!(record.open_pages, 0, "pages left open: {:?}", record.log);
        assert_eq!(
            record.open_browsers, 0,
            "browsers left open: {:?}",
            record.log
        );
    }
}

impl Browsers for FakeBrowsers {
    type Browser = FakeBrowser;

    fn launch(&self) -> Result<FakeBrowser, LaunchError> {
        let mut record = lock(&self.record);
        match record.launches.pop_front() {
            Some(Launch::Browser(opens)) => {
                record.log.push("launch".into());
                record.open_browsers += 1;
                record.unused_opens += opens.len();
                Ok(FakeBrowser {
                    record: Arc::clone(&self.record),
                    cancel: Arc::clone(&self.cancel),
                    opens: Mutex::new(opens.into()),
                    lost: Arc::new(Mutex::new(None)),
                })
            }
            Some(Launch::Fails(message)) => {
                record.log.push("launch failed".into());
                Err(DriverError::Lost(Loss::of_browser(message)).into())
            }
            None => {
                drop(record);
                violate(&self.record, "an unscripted browser launch".into())
            }
        }
    }
}

/// One scripted browser.
pub(crate) struct FakeBrowser {
    record: Arc<Mutex<Record>>,
    cancel: Arc<AtomicBool>,
    opens: Mutex<VecDeque<Open>>,
    lost: Arc<Mutex<Option<String>>>,
}

impl Browser for FakeBrowser {
    type Page = FakePage;

    fn lost(&self) -> Option<Loss> {
        lock(&self.lost).clone().map(Loss::of_browser)
    }

    fn new_page(&self, _state: Option<&SavedState>) -> Result<FakePage, PageError> {
        let Some(open) = lock(&self.opens).pop_front() else {
            violate(&self.record, "an unscripted page".into())
        };
        let mut record = lock(&self.record);
        record.unused_opens -= 1;
        match open {
            Open::Page(script) => {
                record.log.push("page".into());
                record.open_pages += 1;
                Ok(FakePage {
                    record: Arc::clone(&self.record),
                    cancel: Arc::clone(&self.cancel),
                    browser_lost: Arc::clone(&self.lost),
                    state: Arc::new(PageState {
                        script: Mutex::new(Some(script)),
                        crashed: AtomicBool::new(false),
                        blocked: Mutex::new(None),
                        lost: Mutex::new(None),
                        closed: Mutex::new(0),
                        changed: Condvar::new(),
                        save: Mutex::new(None),
                        tracing: AtomicBool::new(false),
                    }),
                })
            }
            Open::Fails(message) => {
                record.log.push("page failed".into());
                let refused = playwright_rs::Error::ProtocolError(message);
                Err(PageError::Open(DriverError::NewPage(Box::new(refused))))
            }
            Open::Lost(reason) => {
                record.log.push("page lost".into());
                *lock(&self.lost) = Some(reason.clone());
                Err(PageError::Open(DriverError::Lost(Loss::of_browser(reason))))
            }
        }
    }

    fn close(self) {
        let mut record = lock(&self.record);
        record.log.push("close browser".into());
        record.open_browsers -= 1;
        let left = lock(&self.opens).len();
        if left > 0 {
            drop(record);
            violate(
                &self.record,
                format!("a browser closed with {left} page(s) unopened"),
            );
        }
    }
}

struct PageState {
    script: Mutex<Option<PageScript>>,
    crashed: AtomicBool,
    blocked: Mutex<Option<String>>,
    lost: Mutex<Option<String>>,
    /// How often the page was closed.
    closed: Mutex<usize>,
    changed: Condvar,
    save: Mutex<Option<Result<SavedState, String>>>,
    tracing: AtomicBool,
}

/// One scripted page; clones share it.
#[derive(Clone)]
pub(crate) struct FakePage {
    record: Arc<Mutex<Record>>,
    cancel: Arc<AtomicBool>,
    browser_lost: Arc<Mutex<Option<String>>>,
    state: Arc<PageState>,
}

impl FakePage {
    fn log(&self, line: String) {
        lock(&self.record).log.push(line);
    }
}

impl Page for FakePage {
    fn run_steps(&self, plan: TestPlan<'_>, events: &Sender<RunEvent>) -> TestOutcome {
        let Some(script) = lock(&self.state.script).take() else {
            violate(&self.record, "steps ran twice on one page".into())
        };
        self.log(format!("steps {} #{}", plan.test.name, plan.attempt));
        *lock(&self.state.save) = script.save;
        self.state.tracing.store(script.tracing, Ordering::SeqCst);
        let call = StepsCall {
            test: &plan.test.name,
            page: self,
            cancel: &self.cancel,
            events,
        };
        let outcome = (script.steps)(&call);
        self.state.crashed.store(script.crashed, Ordering::SeqCst);
        *lock(&self.state.blocked) = script.blocked;
        outcome
    }

    fn close(&self) {
        let mut closed = lock(&self.state.closed);
        *closed += 1;
        if *closed == 1 {
            let mut record = lock(&self.record);
            record.log.push("close page".into());
            record.open_pages -= 1;
        }
        self.state.changed.notify_all();
    }

    fn lost(&self) -> Option<Loss> {
        lock(&self.state.lost).clone().map(Loss::of_browser)
    }

    fn crashed(&self) -> bool {
        self.state.crashed.load(Ordering::SeqCst)
    }

    fn blocked_navigation(&self) -> Option<String> {
        lock(&self.state.blocked).clone()
    }

    fn start_tracing(&self, _name: &str) -> Result<(), PageError> {
        // Tracing starts before the steps run, so the script is still there to read.
        let expected = lock(&self.state.script)
            .as_ref()
            .is_some_and(|script| script.tracing);
        if !expected {
            violate(&self.record, "an unscripted trace".into());
        }
        self.log("trace start".into());
        Ok(())
    }

    fn stop_tracing(&self, path: Option<&Path>) -> Result<(), PageError> {
        if !self.state.tracing.load(Ordering::SeqCst) {
            violate(&self.record, "an unscripted trace stop".into());
        }
        self.log(match path {
            Some(_) => "trace kept".into(),
            None => "trace stop".into(),
        });
        Ok(())
    }

    fn save_state(&self) -> Result<SavedState, PageError> {
        let Some(saved) = lock(&self.state.save).take() else {
            violate(
                &self.record,
                "an unscripted save of the page's state".into(),
            )
        };
        self.log("save".into());
        // A scripted failure is the context going away under the save.
        saved.map_err(|reason| PageError::Call(CallError::Lost(Loss::of_browser(reason))))
    }

    fn navigation(&self) -> Duration {
        Duration::ZERO
    }
}

/// Scenarios parsed from `(file name, .steps source)` pairs.
pub(crate) fn scenarios(files: &[(&str, &str)]) -> Vec<Scenario> {
    files
        .iter()
        .map(|(name, source)| {
            let parsed = parse(name, source.as_bytes()).expect("parses");
            Scenario {
                path: (*name).into(),
                rel_path: (*name).to_owned(),
                background: parsed.background,
                tests: parsed.tests,
            }
        })
        .collect()
}

/// A run's configuration for unit tests: strict replay (no engine), one worker, a long test
/// timeout, no retries, files under `dir`.
pub(crate) fn config(dir: &Path) -> RunConfig {
    RunConfig {
        mode: Mode::StrictReplay,
        limits: Limits::new(Duration::from_secs(5)),
        polling: PollingSettings {
            timeout: None,
            delay: Duration::from_millis(500),
            optional_timeout: Duration::from_secs(2),
        },
        cache: Cache::new(dir.join("cache")),
        llm: LlmSettings::default(),
        budgets: BudgetSettings::default(),
        heal_veto: true,
        allowed_origins_off: false,
        provider: None,
        builtin: BuiltinOrder::Off,
        reuse: true,
        workers: 1,
        isolation: Isolation::Context,
        test_timeout: Duration::from_secs(3600),
        retries: 0,
        max_failures: None,
        cancel: Arc::new(AtomicBool::new(false)),
        trace: TraceMode::Off,
        trace_dir: dir.join("traces"),
        snapshots: crate::script::SnapshotMode::Missing,
        screenshot_dir: dir.join("screenshots"),
        state_dir: dir.join("state"),
        accept_violations: Vec::new(),
        driver_dir: None,
        project: None,
        browser_name: "chromium".to_owned(),
        vars: Vars::default(),
    }
}

/// What a fake run reported.
pub(crate) struct Ran {
    pub(crate) stats: RunStats,
    pub(crate) events: Vec<RunEvent>,
}

impl Ran {
    /// Each finished test's name and outcome, in the order they finished.
    pub(crate) fn outcomes(&self) -> Vec<(String, TestOutcome)> {
        self.events
            .iter()
            .filter_map(|event| match &event.kind {
                EventKind::Test(test, TestKind::Finished(finished)) => {
                    Some((test.name.clone(), finished.outcome.clone()))
                }
                _ => None,
            })
            .collect()
    }

    /// The outcome of the test named `name`.
    pub(crate) fn outcome(&self, name: &str) -> TestOutcome {
        self.outcomes()
            .into_iter()
            .find(|(test, _)| test == name)
            .map(|(_, outcome)| outcome)
            .unwrap_or_else(|| panic!("no test {name} finished: {:?}", self.outcomes()))
    }

    /// The failure of the test named `name`.
    pub(crate) fn failure(&self, name: &str) -> TestFailure {
        match self.outcome(name) {
            TestOutcome::Failed(failure) => *failure,
            other => panic!("test {name} did not fail: {other:?}"),
        }
    }
}

/// Runs every test of `scenarios` with `config` in `browsers`.
pub(crate) fn run(scenarios: &[Scenario], config: RunConfig, browsers: &FakeBrowsers) -> Ran {
    let selected = scenarios
        .iter()
        .enumerate()
        .flat_map(|(si, scenario)| (0..scenario.tests.len()).map(move |ti| TestRef::new(si, ti)))
        .collect();
    let runner = Runner::new(scenarios, selected, config).expect("no cache to load");
    let mut events = Vec::new();
    let stats = runner.run_with(browsers, &mut |event| events.push(event));
    Ran { stats, events }
}

/// A temporary directory for a test's files.
pub(crate) fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temp dir")
}
