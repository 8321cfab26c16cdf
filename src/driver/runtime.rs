//! One Playwright driver and one Chromium per prettyplay process; a fresh browser context and
//! page per test.
//!
//! Main types: [`BrowserRuntime`] and [`TestPage`]. Step code never sees these: it reaches the
//! browser through the `script` module's binding, which calls the page's protocol channels.

use std::path::{Path, PathBuf};
use std::time::Duration;

use playwright_rs::protocol::{BrowserContext, Frame, Page};
use playwright_rs::{Browser, LaunchOptions, Playwright};

use crate::config::BrowserSettings;
use crate::driver::DriverPaths;

/// A failure of the browser side: a missing piece, a launch failure or a crash.
#[derive(Debug, thiserror::Error)]
pub enum DriverError {
    #[error("missing {what}")]
    Missing { what: String, hint: String },
    #[error("could not start the Playwright driver ({node} {cli_js})")]
    DriverStart {
        node: PathBuf,
        cli_js: PathBuf,
        #[source]
        source: Box<playwright_rs::Error>,
    },
    #[error("could not launch Chromium at {executable}")]
    Launch {
        executable: PathBuf,
        #[source]
        source: Box<playwright_rs::Error>,
    },
    #[error("could not open a browser page for the test")]
    NewPage(#[source] Box<playwright_rs::Error>),
}

impl DriverError {
    /// What the user can do about it.
    pub fn hint(&self) -> Option<String> {
        match self {
            DriverError::Missing { hint, .. } => Some(hint.clone()),
            DriverError::DriverStart { .. } => Some(format!(
                "the driver must be playwright-core {} on Node.js; run `./setup` to install it",
                crate::driver::DRIVER_VERSION
            )),
            DriverError::Launch { .. } => Some(
                "check that the executable is a working Chromium (`chromium --version`); \
                 run with -v for the driver's log"
                    .to_owned(),
            ),
            DriverError::NewPage(_) => None,
        }
    }
}

/// The driver and browser shared by every test of a run.
pub struct BrowserRuntime {
    playwright: Playwright,
    browser: Browser,
    settings: BrowserSettings,
}

/// Chromium flags for a closed network and a root user: without the background-networking
/// flags Chromium floods the refused network with connection attempts at every start.
const CHROMIUM_ARGS: &[&str] = &[
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-gpu",
];

impl BrowserRuntime {
    /// Starts the driver and launches Chromium.
    ///
    /// The driver's location must already be exported with [`export_driver_env`] (playwright-rs
    /// reads it from the process environment).
    pub async fn launch(
        settings: &BrowserSettings,
        driver: &DriverPaths,
        chromium: &Path,
    ) -> Result<Self, DriverError> {
        let playwright = Playwright::launch()
            .await
            .map_err(|source| DriverError::DriverStart {
                node: driver.node.clone(),
                cli_js: driver.cli_js.clone(),
                source: Box::new(source),
            })?;
        let mut args: Vec<String> = CHROMIUM_ARGS.iter().map(|a| (*a).to_owned()).collect();
        if running_as_root() {
            args.push("--no-sandbox".to_owned());
        }
        let options = LaunchOptions::new()
            .executable_path(chromium.display().to_string())
            .headless(settings.headless)
            .chromium_sandbox(false)
            .args(args)
            .timeout(60_000.0);
        let browser = playwright
            .chromium()
            .launch_with_options(options)
            .await
            .map_err(|source| DriverError::Launch {
                executable: chromium.to_owned(),
                source: Box::new(source),
            })?;
        Ok(Self {
            playwright,
            browser,
            settings: settings.clone(),
        })
    }

    /// A fresh, isolated browser context (cookies and storage of its own) with one page.
    pub async fn new_test_page(&self) -> Result<TestPage, DriverError> {
        let context = self
            .browser
            .new_context()
            .await
            .map_err(|e| DriverError::NewPage(Box::new(e)))?;
        let page = context
            .new_page()
            .await
            .map_err(|e| DriverError::NewPage(Box::new(e)))?;
        let frame = page
            .main_frame()
            .await
            .map_err(|e| DriverError::NewPage(Box::new(e)))?;
        Ok(TestPage {
            context,
            page,
            frame,
            base_url: self.settings.base_url.clone(),
            timeout: self.settings.timeout,
        })
    }

    /// Closes the browser and stops the driver; nothing outlives this.
    pub async fn shutdown(self) {
        if let Err(err) = self.browser.close().await {
            tracing::debug!("closing the browser: {err}");
        }
        if let Err(err) = self.playwright.shutdown().await {
            tracing::debug!("stopping the driver: {err}");
        }
    }
}

/// One test's page: its own browser context, closed when the test ends.
#[derive(Clone)]
pub struct TestPage {
    context: BrowserContext,
    page: Page,
    frame: Frame,
    base_url: Option<String>,
    timeout: Duration,
}

impl TestPage {
    pub fn page(&self) -> &Page {
        &self.page
    }

    pub fn main_frame(&self) -> &Frame {
        &self.frame
    }

    pub fn base_url(&self) -> Option<&str> {
        self.base_url.as_deref()
    }

    /// The default timeout of actions and expectations.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Closes the test's browser context (and with it every page it opened).
    pub async fn close(&self) {
        if let Err(err) = self.context.close().await {
            tracing::debug!("closing a test's browser context: {err}");
        }
    }
}

/// Exports the driver's location for playwright-rs, which reads it from the environment.
///
/// Call it before any other thread exists (before the tokio runtime is built).
pub fn export_driver_env(driver: &DriverPaths) {
    // SAFETY: called from `cli` before any thread is spawned, so nothing reads the
    // environment concurrently.
    unsafe {
        std::env::set_var("PLAYWRIGHT_NODE_EXE", &driver.node);
        std::env::set_var("PLAYWRIGHT_CLI_JS", &driver.cli_js);
        // prettyplay handles Ctrl-C itself.
        std::env::set_var("PLAYWRIGHT_NO_SIGNAL_HANDLER", "1");
    }
}

fn running_as_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|meta| meta.uid() == 0)
}
