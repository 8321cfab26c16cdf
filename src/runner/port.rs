//! The runner's port to the browser: the few things a worker does with browsers and pages,
//! behind narrow traits, so that every decision the runner makes can be unit-tested against a
//! strict scripted fake (`fake.rs`) without Chromium.
//!
//! Main traits: [`Browsers`] (launches a worker's browser), [`Browser`] (opens test pages) and
//! [`Page`] (one test's page: its steps, its trace, its saved state and how it ended). The
//! implementations here wrap the driver's [`BrowserRuntime`], [`WorkerBrowser`] and
//! [`TestPage`]. The methods block, because the runner calls them from worker threads; the
//! driver's implementations wait on its futures with the run's Tokio handle.

use std::path::Path;
use std::sync::mpsc::Sender;
use std::time::Duration;

use crate::driver::{BrowserRuntime, SavedState, TestPage, WorkerBrowser};
use crate::runner::test_run::{TestPlan, run_test};
use crate::runner::{RunEvent, TestOutcome};

/// Launches the browsers workers run their tests in.
pub(crate) trait Browsers: Sync {
    type Browser: Browser;

    /// A new browser (or a new connection to a remote one); `Err` holds the full report of why
    /// it could not be launched.
    fn launch(&self) -> Result<Self::Browser, String>;
}

/// One worker's browser.
pub(crate) trait Browser: Send {
    type Page: Page;

    /// Why the browser went away (or cannot serve another test); `None` while it can.
    fn lost(&self) -> Option<String>;

    /// A fresh page in a context of its own, starting from `state` when given.
    fn new_page(&self, state: Option<&SavedState>) -> Result<Self::Page, String>;

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
    fn lost(&self) -> Option<String>;

    /// Whether a page's renderer process exited.
    fn crashed(&self) -> bool;

    /// The first navigation `[browser] allowed_origins` blocked, as a step failure message.
    fn blocked_navigation(&self) -> Option<String>;

    fn start_tracing(&self, name: &str) -> Result<(), String>;

    /// Stops the trace and writes it to `path`, or discards it when `path` is `None`.
    fn stop_tracing(&self, path: Option<&Path>) -> Result<(), String>;

    /// The context's storage state, for the tests that start from it.
    fn save_state(&self) -> Result<SavedState, String>;

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

    fn launch(&self) -> Result<DriverBrowser, String> {
        match self.handle.block_on(self.runtime.launch_browser()) {
            Ok(browser) => Ok(DriverBrowser {
                browser,
                handle: self.handle.clone(),
            }),
            Err(err) => Err(err.report()),
        }
    }
}

/// A launched [`WorkerBrowser`].
pub(crate) struct DriverBrowser {
    browser: WorkerBrowser,
    handle: tokio::runtime::Handle,
}

impl Browser for DriverBrowser {
    type Page = DriverPage;

    fn lost(&self) -> Option<String> {
        self.browser.lost()
    }

    fn new_page(&self, state: Option<&SavedState>) -> Result<DriverPage, String> {
        match self.handle.block_on(self.browser.new_test_page(state)) {
            Ok(page) => Ok(DriverPage {
                page,
                handle: self.handle.clone(),
            }),
            Err(err) => Err(err.report()),
        }
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

    fn lost(&self) -> Option<String> {
        self.page.lost()
    }

    fn crashed(&self) -> bool {
        self.page.events().page_crashed()
    }

    fn blocked_navigation(&self) -> Option<String> {
        self.page
            .origins()
            .and_then(|guard| guard.first_violation())
    }

    fn start_tracing(&self, name: &str) -> Result<(), String> {
        self.handle.block_on(self.page.start_tracing(name))
    }

    fn stop_tracing(&self, path: Option<&Path>) -> Result<(), String> {
        self.handle.block_on(self.page.stop_tracing(path))
    }

    fn save_state(&self) -> Result<SavedState, String> {
        self.handle.block_on(self.page.save_state())
    }

    fn navigation(&self) -> Duration {
        self.page.navigation().total()
    }
}
