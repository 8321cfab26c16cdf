//! One Playwright driver and one Chromium per prettyplay process; a fresh browser context and
//! page per test.
//!
//! Main types: [`BrowserRuntime`] and [`TestPage`]. Step code never sees these: it reaches the
//! browser through the `script` module's binding, which calls the page's protocol channels.

use std::path::{Path, PathBuf};
use std::time::Duration;

use playwright_rs::protocol::{
    BrowserContext, Frame, Page, TracingStartOptions, TracingStopOptions,
};
use playwright_rs::{Browser, LaunchOptions, Playwright};

use crate::config::BrowserSettings;
use crate::config::Screen;
use crate::driver::origins::OriginGuard;
use crate::driver::{ContextEvents, DriverError, DriverPaths};
use playwright_rs::protocol::{BrowserContextOptions, DeviceDescriptor, Viewport};
use std::collections::HashMap;
use std::sync::Arc;

/// The Playwright driver of a run (one per prettyplay process) and what every browser it
/// launches shares: launch options and the context options of the screen mode.
pub struct BrowserRuntime {
    playwright: Playwright,
    settings: BrowserSettings,
    /// Context options of the screen mode, resolved once (device names need the driver).
    context_options: BrowserContextOptions,
    launch_options: LaunchOptions,
    chromium: PathBuf,
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
    /// Starts the driver and resolves the screen mode; browsers are launched per worker with
    /// [`BrowserRuntime::launch_browser`].
    ///
    /// The driver's location must already be exported with [`export_driver_env`] (playwright-rs
    /// reads it from the process environment).
    pub async fn start(
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
        let context_options = context_options(&settings.screen, playwright.devices())?;
        let mut args: Vec<String> = CHROMIUM_ARGS.iter().map(|a| (*a).to_owned()).collect();
        args.extend(window_arg(&settings.screen, settings.headless).map(str::to_owned));
        if running_as_root() {
            args.push("--no-sandbox".to_owned());
        }
        let launch_options = LaunchOptions::new()
            .executable_path(chromium.display().to_string())
            .headless(settings.headless)
            .chromium_sandbox(false)
            .args(args)
            .timeout(60_000.0);
        Ok(Self {
            playwright,
            settings: settings.clone(),
            context_options,
            launch_options,
            chromium: chromium.to_owned(),
        })
    }

    /// Launches one Chromium process (a worker's, or a test's with `isolation = "browser"`).
    pub async fn launch_browser(&self) -> Result<WorkerBrowser, DriverError> {
        let browser = self
            .playwright
            .chromium()
            .launch_with_options(self.launch_options.clone())
            .await
            .map_err(|source| DriverError::Launch {
                executable: self.chromium.clone(),
                source: Box::new(source),
            })?;
        Ok(WorkerBrowser {
            browser,
            settings: self.settings.clone(),
            context_options: self.context_options.clone(),
        })
    }

    /// Stops the driver; the driver closes every browser it launched before it exits.
    pub async fn shutdown(self) {
        if let Err(err) = self.playwright.shutdown().await {
            tracing::debug!("stopping the driver: {err}");
        }
    }
}

/// One Chromium process; every test it runs gets a fresh context.
pub struct WorkerBrowser {
    browser: Browser,
    settings: BrowserSettings,
    context_options: BrowserContextOptions,
}

impl WorkerBrowser {
    /// A fresh, isolated browser context (cookies and storage of its own) with one page.
    pub async fn new_test_page(&self) -> Result<TestPage, DriverError> {
        let context = self
            .browser
            .new_context_with_options(self.context_options.clone())
            .await
            .map_err(|e| DriverError::NewPage(Box::new(e)))?;
        let events = ContextEvents::attach(&context)
            .await
            .map_err(|e| DriverError::NewPage(Box::new(e)))?;
        let origins = OriginGuard::install(&context, &self.settings.allowed_origins)
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
            events,
            origins,
            accept_dialogs: self.settings.accept_dialogs,
            base_url: self.settings.base_url.clone(),
            project_dir: self.settings.project_dir.clone(),
            timeout: self.settings.timeout,
        })
    }

    /// Closes the browser process.
    pub async fn close(self) {
        if let Err(err) = self.browser.close().await {
            tracing::debug!("closing a browser: {err}");
        }
    }
}

/// One test's page: its own browser context, closed when the test ends.
#[derive(Clone)]
pub struct TestPage {
    context: BrowserContext,
    page: Page,
    frame: Frame,
    events: Arc<ContextEvents>,
    /// `[browser] allowed_origins`; `None` when every origin is allowed.
    origins: Option<Arc<OriginGuard>>,
    accept_dialogs: bool,
    base_url: Option<String>,
    timeout: Duration,
    project_dir: PathBuf,
}

impl TestPage {
    pub fn page(&self) -> &Page {
        &self.page
    }

    pub fn main_frame(&self) -> &Frame {
        &self.frame
    }

    /// Pages, dialogs and downloads the context produced.
    pub fn events(&self) -> &ContextEvents {
        &self.events
    }

    /// The guard of `[browser] allowed_origins`; `None` when every origin is allowed.
    pub fn origins(&self) -> Option<&OriginGuard> {
        self.origins.as_deref()
    }

    /// `[browser] accept_dialogs`: what the resolver of last resort does with unclaimed dialogs.
    pub fn accept_dialogs(&self) -> bool {
        self.accept_dialogs
    }

    pub fn base_url(&self) -> Option<&str> {
        self.base_url.as_deref()
    }

    /// The project root, where step code's file paths (`setInputFiles`) resolve.
    pub fn project_dir(&self) -> &Path {
        &self.project_dir
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

    /// Starts a Playwright trace of the test (screenshots and DOM snapshots).
    pub async fn start_tracing(&self, name: &str) -> Result<(), playwright_rs::Error> {
        let tracing = self.context.tracing().await?;
        let options = TracingStartOptions::default()
            .name(name)
            .screenshots(true)
            .snapshots(true);
        tracing.start(options).await
    }

    /// Stops the trace; writes it as a zip (viewable with Playwright's trace viewer) to `path`,
    /// or discards it when `path` is `None`.
    pub async fn stop_tracing(&self, path: Option<&Path>) -> Result<(), playwright_rs::Error> {
        let tracing = self.context.tracing().await?;
        let options = match path {
            Some(path) => TracingStopOptions::default().path(path.display().to_string()),
            None => TracingStopOptions::default(),
        };
        tracing.stop(options).await
    }
}

/// The window size of a headless `fullscreen` run, whose page takes the window's size.
const HEADLESS_WINDOW_SIZE: &str = "--window-size=1920,1080";

/// The Chromium flag that sizes the window for `fullscreen` (no viewport, so the page takes the
/// window's size): a 1920x1080 window headless, a maximized one headed. `None` otherwise.
fn window_arg(screen: &Screen, headless: bool) -> Option<&'static str> {
    match screen {
        Screen::Fullscreen if headless => Some(HEADLESS_WINDOW_SIZE),
        Screen::Fullscreen => Some("--start-maximized"),
        _ => None,
    }
}

/// The options of every test's browser context for `screen`; a device is looked up in
/// `devices`, the driver's device list (exact, case-sensitive names, as in Playwright).
fn context_options(
    screen: &Screen,
    devices: &HashMap<String, DeviceDescriptor>,
) -> Result<BrowserContextOptions, DriverError> {
    let builder = BrowserContextOptions::builder();
    Ok(match screen {
        Screen::Default => builder.build(),
        Screen::Size { width, height } => builder
            .viewport(Viewport {
                width: *width,
                height: *height,
            })
            .build(),
        Screen::Fullscreen => builder.no_viewport(true).build(),
        Screen::Device(name) => {
            let Some(device) = devices.get(name) else {
                return Err(DriverError::UnknownDevice {
                    name: name.clone(),
                    suggestions: Screen::device_suggestions(
                        name,
                        devices.keys().map(String::as_str),
                    )
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
                });
            };
            let mut builder = builder
                .viewport(device.viewport.clone().into())
                .user_agent(device.user_agent.clone())
                .device_scale_factor(device.device_scale_factor)
                .is_mobile(device.is_mobile)
                .has_touch(device.has_touch);
            if let Some(screen) = &device.screen {
                builder = builder.screen(screen.clone());
            }
            builder.build()
        }
    })
}

/// Reads the variables `names` and removes them from the process environment, so that the
/// driver and the browsers it launches (which inherit it) never see them; answers the values
/// that were set. `run` passes the LLM key variables, read here once for the provider.
///
/// Like [`export_driver_env`], call it before any thread is spawned (the tokio runtime
/// included).
pub fn withhold_from_driver(names: &[String]) -> HashMap<String, String> {
    let mut kept = HashMap::new();
    for name in names {
        if let Some(value) = std::env::var_os(name) {
            if let Some(value) = value.to_str() {
                kept.insert(name.clone(), value.to_owned());
            }
            // SAFETY: called from `cli` before any thread is spawned, so nothing reads the
            // environment concurrently.
            unsafe {
                std::env::remove_var(name);
            }
        }
    }
    kept
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

#[cfg(test)]
mod tests {
    use super::*;

    fn devices() -> HashMap<String, DeviceDescriptor> {
        serde_json::from_value(serde_json::json!({
            "iPhone 13": {
                "userAgent": "Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X)",
                "screen": {"width": 390, "height": 844},
                "viewport": {"width": 390, "height": 664},
                "deviceScaleFactor": 3,
                "isMobile": true,
                "hasTouch": true,
                "defaultBrowserType": "webkit"
            },
            "iPhone 13 landscape": {
                "userAgent": "Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X)",
                "viewport": {"width": 750, "height": 342},
                "deviceScaleFactor": 3,
                "isMobile": true,
                "hasTouch": true,
                "defaultBrowserType": "webkit"
            }
        }))
        .expect("descriptors deserialize")
    }

    fn json(screen: &Screen) -> serde_json::Value {
        let options = context_options(screen, &devices()).expect("known screen");
        serde_json::to_value(options).expect("options serialize")
    }

    #[test]
    fn context_options_of_each_screen() {
        assert_eq!(json(&Screen::Default), serde_json::json!({}));
        assert_eq!(
            json(&Screen::Size {
                width: 800,
                height: 600
            }),
            serde_json::json!({"viewport": {"width": 800, "height": 600}})
        );
        assert_eq!(
            json(&Screen::Fullscreen),
            serde_json::json!({"noDefaultViewport": true})
        );
        assert_eq!(
            json(&Screen::Device("iPhone 13".into())),
            serde_json::json!({
                "viewport": {"width": 390, "height": 664},
                "screen": {"width": 390, "height": 844},
                "userAgent": "Mozilla/5.0 (iPhone; CPU iPhone OS 15_0 like Mac OS X)",
                "deviceScaleFactor": 3.0,
                "isMobile": true,
                "hasTouch": true
            })
        );
    }

    #[test]
    fn an_unknown_device_suggests_close_names() {
        let err = context_options(&Screen::Device("iphone 13".into()), &devices())
            .expect_err("names are case-sensitive");
        assert_eq!(
            err.to_string(),
            "unknown device `iphone 13` in `browser.screen`"
        );
        assert_eq!(
            err.hint().expect("a hint"),
            "did you mean \"iPhone 13\", \"iPhone 13 landscape\"? device names are Playwright's, \
             exact and case-sensitive (such as \"iPhone 13\" or \"Pixel 7\"); the other forms are \
             empty, WxH such as 1280x720, and fullscreen"
        );
        let err =
            context_options(&Screen::Device("Nokia 3310".into()), &devices()).expect_err("unknown");
        assert!(
            err.hint()
                .expect("a hint")
                .starts_with("device names are Playwright's")
        );
    }

    #[test]
    fn only_fullscreen_sizes_the_window() {
        assert_eq!(
            window_arg(&Screen::Fullscreen, true),
            Some("--window-size=1920,1080")
        );
        assert_eq!(
            window_arg(&Screen::Fullscreen, false),
            Some("--start-maximized")
        );
        assert_eq!(window_arg(&Screen::Default, true), None);
        assert_eq!(window_arg(&Screen::Device("Pixel 7".into()), true), None);
    }
}
