//! The runner's port to the browser: the few things a worker does with browsers and pages,
//! behind narrow traits, so that every decision the runner makes can be unit-tested against a
//! strict scripted fake (`fake.rs`) without Chromium.
//!
//! Main traits: [`Browsers`] (launches a worker's browser), [`Browser`] (opens test pages) and
//! [`Page`] (one test's page: its steps, its trace, its saved state and how it ended), with
//! their errors [`LaunchError`] and [`PageError`]. The implementations here wrap the driver's
//! [`BrowserRuntime`], [`WorkerBrowser`] and [`TestPage`]. The methods block, because the
//! runner calls them from worker threads; the driver's implementations wait on its futures
//! with the run's Tokio handle.

use std::path::Path;
use std::sync::mpsc::Sender;
use std::time::Duration;

use crate::driver::{
    BrowserRuntime, CallError, DriverError, Loss, SavedState, TestPage, WorkerBrowser,
};
use crate::runner::test_run::{TestPlan, run_test};
use crate::runner::{RunEvent, TestOutcome};

/// Why a worker got no browser: the driver could not start again, or could not launch the
/// browser or connect to it.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub(crate) struct LaunchError(#[from] DriverError);

impl LaunchError {
    /// The error as the test that needed the browser reports it: the message, its causes and
    /// what to do about it.
    pub(crate) fn report(&self) -> String {
        self.0.report()
    }
}

/// Why a test's page could not be opened, or a call the runner made on it did not finish.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PageError {
    /// The browser opened no page (or went away as it opened one).
    #[error(transparent)]
    Open(DriverError),
    /// A call on the open page (its trace, its storage state) did not finish.
    #[error(transparent)]
    Call(#[from] CallError),
}

impl PageError {
    /// The error as a test reports it: the message, its causes and what to do about it.
    pub(crate) fn report(&self) -> String {
        match self {
            PageError::Open(err) => err.report(),
            PageError::Call(err) => crate::causes::report(err, None),
        }
    }
}

/// Launches the browsers workers run their tests in.
pub(crate) trait Browsers: Sync {
    type Browser: Browser;

    /// A new browser (or a new connection to a remote one).
    fn launch(&self) -> Result<Self::Browser, LaunchError>;
}

/// One worker's browser.
pub(crate) trait Browser: Send {
    type Page: Page;

    /// Why the browser went away (or cannot serve another test); `None` while it can.
    fn lost(&self) -> Option<Loss>;

    /// A fresh page in a context of its own, starting from `state` when given.
    fn new_page(&self, state: Option<&SavedState>) -> Result<Self::Page, PageError>;

    /// Closes the browser.
    fn close(self);
}

/// One test's page. Clones share the page: the watchdog closes the page the steps run on.
pub(crate) trait Page: Clone + Send + 'static {
    /// Runs the test's steps on this page and returns what they did.
    fn run_steps(&self, plan: TestPlan<'_>, events: &Sender<RunEvent>) -> TestOutcome;

    /// Closes the page's context; the step in flight, if any, then fails at once.
    fn close(&self);

    /// Why the browser behind the page went away, if it did.
    fn lost(&self) -> Option<Loss>;

    /// Whether a page's renderer process exited.
    fn crashed(&self) -> bool;

    /// The first request or navigation `[browser] allowed_origins` blocked and failed in the
    /// test, as a step failure message. Read again once the page is closed, it is final.
    fn blocked_navigation(&self) -> Option<String>;

    fn start_tracing(&self, name: &str) -> Result<(), PageError>;

    /// Stops the trace and writes it to `path`, or discards it when `path` is `None`.
    fn stop_tracing(&self, path: Option<&Path>) -> Result<(), PageError>;

    /// The context's storage state, for the tests that start from it.
    fn save_state(&self) -> Result<SavedState, PageError>;

    /// The time the steps spent in navigations.
    fn navigation(&self) -> Duration;
}

/// The driver's runtime as the runner's [`Browsers`].
pub(crate) struct DriverBrowsers<'r> {
    pub(crate) runtime: &'r BrowserRuntime,
    pub(crate) handle: tokio::runtime::Handle,
}

impl Browsers for DriverBrowsers<'_> {
    type Browser = DriverBrowser;

    fn launch(&self) -> Result<DriverBrowser, LaunchError> {
        let browser = self.handle.block_on(self.runtime.launch_browser())?;
        Ok(DriverBrowser {
            browser,
            handle: self.handle.clone(),
        })
    }
}

/// A launched [`WorkerBrowser`].
pub(crate) struct DriverBrowser {
    browser: WorkerBrowser,
    handle: tokio::runtime::Handle,
}

impl Browser for DriverBrowser {
    type Page = DriverPage;

    fn lost(&self) -> Option<Loss> {
        self.browser.lost()
    }

    fn new_page(&self, state: Option<&SavedState>) -> Result<DriverPage, PageError> {
        let page = self
            .handle
            .block_on(self.browser.new_test_page(state))
            .map_err(PageError::Open)?;
        Ok(DriverPage {
            page,
            handle: self.handle.clone(),
        })
    }

    fn close(self) {
        self.handle.block_on(self.browser.close());
    }
}

/// A [`TestPage`] whose steps run in the JavaScript sandbox (`test_run.rs`).
#[derive(Clone)]
pub(crate) struct DriverPage {
    page: TestPage,
    handle: tokio::runtime::Handle,
}

impl Page for DriverPage {
    fn run_steps(&self, plan: TestPlan<'_>, events: &Sender<RunEvent>) -> TestOutcome {
        run_test(plan, self.page.clone(), self.handle.clone(), events.clone())
    }

    fn close(&self) {
        self.handle.block_on(self.page.close());
    }

    fn lost(&self) -> Option<Loss> {
        self.page.lost()
    }

    fn crashed(&self) -> bool {
        self.page.events().page_crashed()
    }

    fn blocked_navigation(&self) -> Option<String> {
        let guard = self.page.origins()?;
        self.handle.block_on(guard.final_violation())
    }

    fn start_tracing(&self, name: &str) -> Result<(), PageError> {
        Ok(self.handle.block_on(self.page.start_tracing(name))?)
    }

    fn stop_tracing(&self, path: Option<&Path>) -> Result<(), PageError> {
        Ok(self.handle.block_on(self.page.stop_tracing(path))?)
    }

    fn save_state(&self) -> Result<SavedState, PageError> {
        Ok(self.handle.block_on(self.page.save_state())?)
    }

    fn navigation(&self) -> Duration {
        self.page.navigation().total()
    }
}
