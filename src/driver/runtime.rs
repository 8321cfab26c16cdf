//! The browser side of a run. A run starts one Playwright driver, and each worker launches one
//! Chromium or, with `[browser] connect` or `cdp`, opens one connection to a browser elsewhere
//! (see `remote.rs`). Each test gets a fresh browser context and page; with `isolation =
//! "reuse"` a worker keeps one context and resets it between tests. When a driver or browser
//! dies or a connection is lost, `lifeline.rs` and `connection_watch.rs` notice, and the tests
//! that follow get a new one.
//!
//! Main types: [`BrowserRuntime`] and [`WorkerBrowser`]. Step code never sees them, because it
//! reaches the browser through the `script` module's binding, which calls the page's protocol
//! channels.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use playwright_rs::protocol::{BrowserContextOptions, BrowserType, DeviceDescriptor, Viewport};
use playwright_rs::{Browser, LaunchOptions, Playwright};

use crate::config::{BrowserName, BrowserSettings, Isolation, RemoteBrowser, Screen};
use crate::driver::app_loader::AppLoader;
use crate::driver::chromium_args::base_args;
use crate::driver::closed_port::ClosedPort;
use crate::driver::driver_path::{compile_cache_for, driver_path_for};
use crate::driver::launch_failure::probe_version;
use crate::driver::lifeline::{children_running, watch_driver};
use crate::driver::origins::{GuardSetup, OriginGuard};
use crate::driver::outbound_proxy::OutboundProxy;
use crate::driver::remote::connect_remote;
use crate::driver::reuse::{open_reused, scrub};
use crate::driver::test_page::Release;
use crate::driver::{
    BrowserTarget, CLOSE_LIMIT, ContextEvents, DriverError, DriverPaths, ExitedAtLaunch, Lifeline,
    LifelineCut, Loss, NavigationClock, SavedState, TestPage, Watched, browser_title,
};
use crate::secrets::Secrets;

/// The Playwright driver of a run and what all its browsers share: how they are launched and
/// the context options of the screen mode. A driver that died is started again.
pub(crate) struct BrowserRuntime {
    settings: BrowserSettings,
    /// Context options of the screen mode, resolved once because device names need the
    /// driver.
    context_options: BrowserContextOptions,
    /// How each worker gets its browser.
    target: Target,
    driver_paths: DriverPaths,
    handle: tokio::runtime::Handle,
    /// The driver that runs now; a new one replaces it when it dies.
    session: tokio::sync::Mutex<DriverSession>,
    /// The run's secrets, which no request to another origin may carry.
    secrets: Secrets,
    /// Fetches the app's read-only subresources from other origins for every test's pages.
    loader: Arc<AppLoader>,
}

/// How each worker gets its browser: it launches a local Chromium, or it connects to a browser
/// that runs elsewhere (`[browser] connect` or `cdp`).
enum Target {
    Local {
        /// Boxed because the options are several times larger than the remote variant.
        options: Box<LaunchOptions>,
        executable: PathBuf,
        /// Where the executable was configured, for the hint of a failed launch.
        configured_at: Option<String>,
        /// The port Firefox's own proxy preferences name, held for as long as the browsers
        /// run, so that a request outside every context's proxy is refused.
        _fallback: Option<ClosedPort>,
    },
    Remote {
        remote: RemoteBrowser,
        /// Serialises the connections, because `connect_remote` finds the socket a connection
        /// opened by comparing the sockets before and after it.
        connecting: tokio::sync::Mutex<()>,
    },
}

impl Target {
    fn new(target: BrowserTarget, settings: &BrowserSettings) -> Result<Self, DriverError> {
        Ok(match target {
            BrowserTarget::Local {
                executable,
                configured_at,
            } => {
                let fallback = match settings.name {
                    BrowserName::Firefox if needs_proxy(settings) => {
                        Some(ClosedPort::bind().map_err(DriverError::Proxy)?)
                    }
                    _ => None,
                };
                let options = launch_options(settings, &executable, fallback.as_ref());
                Target::Local {
                    options: Box::new(options),
                    executable,
                    configured_at,
                    _fallback: fallback,
                }
            }
            BrowserTarget::Remote(remote) => Target::Remote {
                remote,
                connecting: tokio::sync::Mutex::new(()),
            },
        })
    }
}

/// One driver process and its lifeline.
struct DriverSession {
    playwright: Playwright,
    lifeline: Lifeline,
}

/// How long a browser may take to launch, and the driver to start.
const LAUNCH_TIMEOUT: Duration = Duration::from_secs(60);

/// How long a clean shutdown of the driver and its browsers may take.
const SHUTDOWN_LIMIT: Duration = Duration::from_secs(15);

impl BrowserRuntime {
    /// Starts the driver and resolves the screen mode. Each worker then launches or connects to
    /// `target` with [`BrowserRuntime::launch_browser`]. The driver's watch runs on `handle`.
    ///
    /// Call [`export_driver_env`] first, because playwright-rs reads the driver's location from
    /// the process environment.
    pub(crate) async fn start(
        settings: &BrowserSettings,
        driver: &DriverPaths,
        target: BrowserTarget,
        handle: &tokio::runtime::Handle,
    ) -> Result<Self, DriverError> {
        let mut settings = settings.clone();
        if settings.isolation == Isolation::Reuse && settings.name != BrowserName::Chromium {
            // The reset of a reused context needs Chromium's DevTools protocol (see `reuse.rs`).
            tracing::warn!(
                "`isolation = \"reuse\"` needs Chromium: every test gets a fresh context instead"
            );
            settings.isolation = Isolation::Context;
        }
        let session = start_driver(driver, handle).await?;
        let context_options = context_options(&settings.screen, session.playwright.devices())?;
        if let Some(what) = firefox_ignores(&settings, &context_options) {
            tracing::warn!(
                "{what} of the screen {} do not apply in Firefox: its pages get the device's \
                 viewport, user agent and scale only",
                settings.screen
            );
        }
        let target = Target::new(target, &settings)?;
        Ok(Self {
            settings,
            context_options,
            target,
            driver_paths: driver.clone(),
            handle: handle.clone(),
            session: tokio::sync::Mutex::new(session),
            secrets: Secrets::default(),
            loader: AppLoader::shared(),
        })
    }

    /// The runtime whose tests' origin guards refuse every request to another origin that
    /// carries one of `secrets`.
    pub(crate) fn with_secrets(mut self, secrets: Secrets) -> Self {
        self.secrets = secrets;
        self
    }

    /// Launches one Chromium process (for a worker, or for a test with `isolation = "browser"`),
    /// or opens one connection to the remote browser. A driver that died is started again
    /// first.
    pub(crate) async fn launch_browser(&self) -> Result<WorkerBrowser, DriverError> {
        let (browser_type, driver) = {
            let mut session = self.session.lock().await;
            if let Some(reason) = session.lifeline.lost() {
                tracing::warn!("{reason}: starting the Playwright driver again");
                // Dropping the dead driver reaps its process (its pipe is already closed).
                *session = start_driver(&self.driver_paths, &self.handle).await?;
            }
            (
                browser_type(&session.playwright, self.settings.name).clone(),
                session.lifeline.clone(),
            )
        };
        let (browser, connection, gone) = match &self.target {
            Target::Remote { remote, connecting } => {
                let (browser, connection) = connect_remote(
                    &browser_type,
                    remote,
                    &self.settings,
                    &driver,
                    connecting,
                    &self.handle,
                )
                .await?;
                let gone = format!(
                    "the browser at {} closed or was disconnected",
                    remote.shown()
                );
                (browser, connection, gone)
            }
            Target::Local {
                options,
                executable,
                configured_at,
                ..
            } => {
                let launch = browser_type.launch_with_options(LaunchOptions::clone(options));
                let launched = tokio::select! {
                    biased;
                    launched = launch => launched,
                    reason = driver.until_lost() => Err(playwright_rs::Error::LaunchFailed(reason)),
                };
                let title = browser_title(self.settings.name);
                let browser = launched
                    .map_err(|source| launch_error(title, executable, configured_at, source))?;
                let gone = format!("{title} exited or lost its connection to the driver");
                (browser, driver, gone)
            }
        };
        let (lifeline, cut) = Lifeline::new();
        let registered = browser
            .on_disconnected(move || {
                cut.cut(&gone);
                async { Ok(()) }
            })
            .await;
        if let Err(err) = registered {
            tracing::debug!("cannot watch the browser for a crash: {err}");
        }
        let (spent, spend) = Lifeline::new();
        let context_options = self.context_options.clone();
        let proxy = match &self.target {
            Target::Local { .. } if needs_proxy(&self.settings) => {
                let allowed = self.settings.allowed_origins.clone();
                let reuse = self.settings.isolation == Isolation::Reuse;
                let proxy = OutboundProxy::start(allowed, reuse, self.settings.name)
                    .await
                    .map_err(DriverError::Proxy)?;
                Some(Arc::new(proxy))
            }
            _ => None,
        };
        Ok(WorkerBrowser {
            browser,
            settings: self.settings.clone(),
            context_options,
            secrets: self.secrets.clone(),
            loader: Arc::clone(&self.loader),
            proxy,
            driver: connection,
            lifeline,
            spent,
            spend,
        })
    }

    /// Stops the driver, which closes every browser it launched before it exits. A driver that
    /// does not stop within [`SHUTDOWN_LIMIT`] is left to exit with prettyplay.
    pub(crate) async fn shutdown(self) {
        let session = self.session.into_inner();
        if session.lifeline.lost().is_some() {
            return;
        }
        match tokio::time::timeout(SHUTDOWN_LIMIT, session.playwright.shutdown()).await {
            Ok(Ok(())) => {}
            Ok(Err(err)) => tracing::debug!("stopping the driver: {err}"),
            Err(_) => tracing::warn!(
                "the Playwright driver did not stop within {} s",
                SHUTDOWN_LIMIT.as_secs()
            ),
        }
    }
}

/// The error of a failed launch of `executable`: a short one when the process ended at once
/// (the driver's own text is then mostly the browser's flag list, twice), else the driver's.
/// When the driver did not see how it ended, the executable's `--version` tells whether it is
/// a browser at all.
fn launch_error(
    browser: &'static str,
    executable: &Path,
    configured_at: &Option<String>,
    source: playwright_rs::Error,
) -> DriverError {
    let text = source.to_string();
    match ExitedAtLaunch::read(&text) {
        Some(mut exited) => {
            tracing::debug!("the driver's launch error: {text}");
            if exited.exit.is_none() {
                exited.version = probe_version(executable);
            }
            DriverError::ExitedAtLaunch {
                browser,
                executable: executable.to_path_buf(),
                configured_at: configured_at.clone(),
                exited: Box::new(exited),
            }
        }
        None => DriverError::Launch {
            browser,
            executable: executable.to_path_buf(),
            configured_at: configured_at.clone(),
            source: Box::new(source),
        },
    }
}

/// Starts a driver process and watches it.
async fn start_driver(
    driver: &DriverPaths,
    handle: &tokio::runtime::Handle,
) -> Result<DriverSession, DriverError> {
    let failed = |source: playwright_rs::Error| DriverError::DriverStart {
        node: driver.node.clone(),
        cli_js: driver.cli_js.clone(),
        source: Box::new(source),
    };
    // The driver's command line is `node CLI_JS run-driver`. Searching for its own cli.js
    // next to `run-driver` keeps a web server that starts at the same time from being taken
    // for it.
    let needle = format!("{}\0run-driver", driver.cli_js.display());
    let before = children_running(&needle);
    // A driver that dies while it starts would leave playwright-rs waiting 30 s for its
    // first reply, so its process is watched from the moment it shows up.
    let died_starting = async {
        let mut seen = None;
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            match seen {
                None => {
                    seen = children_running(&needle)
                        .into_iter()
                        .rfind(|process| !before.contains(process));
                }
                Some(process) if !process.is_alive() => return,
                Some(_) => {}
            }
        }
    };
    let launched = tokio::select! {
        launched = tokio::time::timeout(LAUNCH_TIMEOUT, Playwright::launch()) => launched,
        () = died_starting => Ok(Err(playwright_rs::Error::LaunchFailed(
            "the Playwright driver exited while it started".to_owned(),
        ))),
    };
    let playwright = launched
        .map_err(|_| {
            failed(playwright_rs::Error::Timeout(format!(
                "the driver did not start within {} s",
                LAUNCH_TIMEOUT.as_secs()
            )))
        })?
        .map_err(failed)?;
    let started = children_running(&needle)
        .into_iter()
        .rfind(|process| !before.contains(process));
    let lifeline = match started {
        Some(process) => watch_driver(process, handle),
        None => {
            // A driver wrapper that forks may hide the process. Calls are then bounded by
            // their own timeouts only.
            tracing::warn!("cannot find the Playwright driver's process to watch it");
            Lifeline::watching(Watched::Driver).0
        }
    };
    Ok(DriverSession {
        playwright,
        lifeline,
    })
}

/// One Chromium process, or one connection to a remote browser. Every test it runs gets a
/// fresh context.
pub(crate) struct WorkerBrowser {
    browser: Browser,
    settings: BrowserSettings,
    context_options: BrowserContextOptions,
    secrets: Secrets,
    loader: Arc<AppLoader>,
    /// The proxy every context of the worker connects through (a port per context), which
    /// refuses connections to origins outside `[browser] allowed_origins`; `None` when every
    /// origin is allowed or the browser runs elsewhere (it could not reach this machine's
    /// loopback).
    proxy: Option<Arc<OutboundProxy>>,
    /// The lifeline of what the browser is reached through: the local driver, or the
    /// connection to a Playwright server (`[browser] connect`).
    driver: Lifeline,
    lifeline: Lifeline,
    /// Cut by [`WorkerBrowser::new_test_page`] or a test's [`TestPage::close`] when the reused
    /// context could not be reset for the next test (`isolation = "reuse"`).
    spent: Lifeline,
    spend: LifelineCut,
}

impl WorkerBrowser {
    /// Returns why the browser (or the driver behind it) went away, or why its reused context
    /// cannot serve another test. It returns `None` while the browser can run tests.
    pub(crate) fn lost(&self) -> Option<Loss> {
        self.gone().or_else(|| self.spent.loss())
    }

    /// Returns why the browser (or the driver behind it) went away.
    fn gone(&self) -> Option<Loss> {
        self.driver.loss().or_else(|| self.lifeline.loss())
    }

    /// Opens a fresh, isolated browser context with one page. The context has cookies and
    /// storage of its own, starting from `state` when given. With `isolation = "reuse"`, the
    /// driver resets the worker's one context instead (see `reuse.rs`); a reset that fails or
    /// does not finish within [`CLOSE_LIMIT`] spends the browser, and the test gets a new one.
    pub(crate) async fn new_test_page(
        &self,
        state: Option<&SavedState>,
    ) -> Result<TestPage, DriverError> {
        let reuse = self.settings.isolation == Isolation::Reuse;
        let open = async {
            let mut options = self.context_options.clone();
            options.storage_state = state.map(|s| s.0.clone());
            let port = match &self.proxy {
                Some(proxy) => {
                    let port = proxy.port().await.map_err(playwright_rs::Error::Io)?;
                    options.proxy = Some(proxy.settings(&port));
                    Some(port)
                }
                None => None,
            };
            let (context, kept) = if reuse {
                open_reused(&self.browser, &options).await?
            } else {
                (self.browser.new_context_with_options(options).await?, None)
            };
            let events = ContextEvents::attach(&context).await?;
            if reuse {
                events.track_origins(&context).await?;
            }
            let setup = GuardSetup {
                allowed: &self.settings.allowed_origins,
                secrets: &self.secrets,
                loader: &self.loader,
                saved_state: state.is_some(),
            };
            let origins = OriginGuard::install(&context, &setup).await?;
            if let (Some(port), Some(guard)) = (&port, &origins) {
                port.attach(guard);
            }
            let page = match kept {
                Some(page) => page,
                None => context.new_page().await?,
            };
            if reuse {
                scrub(&context, &page).await?;
            }
            events.watch_crashes(&page).await?;
            let frame = page.main_frame().await?;
            Ok::<_, playwright_rs::Error>((context, events, origins, page, frame))
        };
        // The driver's own timeouts bound a fresh context; this limit bounds a reset.
        let limit = if reuse { CLOSE_LIMIT } else { Duration::MAX };
        let opened = tokio::select! {
            biased;
            opened = tokio::time::timeout(limit, open) => match opened {
                Ok(Ok(opened)) => opened,
                Ok(Err(err)) if reuse => return Err(self.spend(&err.to_string())),
                Ok(Err(err)) => return Err(DriverError::NewPage(Box::new(err))),
                Err(_) => {
                    let late = format!("no answer within {} s", CLOSE_LIMIT.as_secs());
                    return Err(self.spend(&late));
                }
            },
            loss = self.driver.until_loss() => return Err(DriverError::Lost(loss)),
            loss = self.lifeline.until_loss() => return Err(DriverError::Lost(loss)),
        };
        let (context, events, origins, page, frame) = opened;
        let release = if reuse {
            Release::Disconnect {
                browser: Box::new(self.browser.clone()),
                spend: self.spend.clone(),
            }
        } else {
            Release::Close
        };
        Ok(TestPage {
            context,
            page,
            frame,
            events,
            origins,
            release,
            accept_dialogs: self.settings.accept_dialogs,
            base_url: self.settings.base_url.clone(),
            project_dir: self.settings.project_dir.clone(),
            driver: self.driver.clone(),
            browser: self.lifeline.clone(),
            closing: Arc::default(),
            navigation: NavigationClock::default(),
        })
    }

    /// Marks the browser as spent because its reused context could not be reset. The runner
    /// then closes it and launches another.
    fn spend(&self, why: &str) -> DriverError {
        let reason = format!("the reused browser context could not be reset ({why})");
        self.spend.cut(&reason);
        DriverError::Lost(Loss::of_browser(reason))
    }

    /// Closes the browser process. A browser that is already gone is only dropped.
    pub(crate) async fn close(self) {
        if self.gone().is_some() {
            return;
        }
        let closed = tokio::time::timeout(SHUTDOWN_LIMIT, self.browser.close());
        tokio::select! {
            closed = closed => match closed {
                Ok(Ok(())) => {}
                Ok(Err(err)) => tracing::debug!("closing a browser: {err}"),
                Err(_) => tracing::warn!("a browser did not close within {} s", SHUTDOWN_LIMIT.as_secs()),
            },
            _ = self.driver.until_lost() => {}
        }
    }
}

/// Returns the flags a local Chromium is launched with under `settings`. `prettyplay export`
/// writes the same flags into `launchOptions`.
pub(crate) fn chromium_launch_args(settings: &BrowserSettings) -> Vec<String> {
    let mut args = base_args();
    args.extend(window_arg(&settings.screen, settings.headless).map(str::to_owned));
    if !settings.allowed_origins.is_any() {
        // WebRTC would otherwise reach peers and STUN servers over UDP, past the proxy.
        args.push("--force-webrtc-ip-handling-policy=disable_non_proxied_udp".to_owned());
    }
    if running_as_root() {
        args.push("--no-sandbox".to_owned());
    }
    args
}

/// The launch channel that makes the driver speak WebDriver BiDi to a stock Firefox, rather
/// than Juggler to Playwright's own build of it, which no package registry offers.
pub(crate) const FIREFOX_CHANNEL: &str = "moz-firefox";

/// Returns the launch options of the local browser at `executable`; Firefox sends whatever no
/// context's proxy covers to `fallback`.
fn launch_options(
    settings: &BrowserSettings,
    executable: &Path,
    fallback: Option<&ClosedPort>,
) -> LaunchOptions {
    let options = LaunchOptions::new()
        .executable_path(executable.display().to_string())
        .headless(settings.headless)
        .timeout(LAUNCH_TIMEOUT.as_secs_f64() * 1000.0);
    let options = match settings.name {
        BrowserName::Firefox => options
            .channel(FIREFOX_CHANNEL.to_owned())
            .firefox_user_prefs(firefox_prefs(settings, fallback)),
        _ => options
            .chromium_sandbox(false)
            .args(chromium_launch_args(settings)),
    };
    if settings.slow_mo.is_zero() {
        options
    } else {
        options.slow_mo(settings.slow_mo.as_secs_f64() * 1000.0)
    }
}

/// Firefox preferences for a closed network: no update, telemetry, captive-portal or
/// safe-browsing traffic, which would otherwise fail against the refused network at every
/// start. With some origin not allowed, WebRTC is off as well, because its UDP passes every
/// guard, and with a `fallback`, the browser's own proxy is that closed port.
fn firefox_prefs(
    settings: &BrowserSettings,
    fallback: Option<&ClosedPort>,
) -> HashMap<String, serde_json::Value> {
    let mut prefs: HashMap<String, serde_json::Value> = [
        ("app.update.enabled", false),
        ("datareporting.policy.dataSubmissionEnabled", false),
        ("toolkit.telemetry.enabled", false),
        ("network.captive-portal-service.enabled", false),
        ("network.connectivity-service.enabled", false),
        ("browser.safebrowsing.malware.enabled", false),
        ("browser.safebrowsing.phishing.enabled", false),
        ("extensions.update.enabled", false),
    ]
    .into_iter()
    .map(|(name, value)| (name.to_owned(), value.into()))
    .collect();
    if !settings.allowed_origins.is_any() {
        prefs.insert("media.peerconnection.enabled".to_owned(), false.into());
        // Firefox never proxies loopback by default, and the app usually is on loopback:
        // without this, the outbound proxy would see none of the app's own redirects.
        prefs.insert(
            "network.proxy.allow_hijacking_localhost".to_owned(),
            true.into(),
        );
    }
    if let Some(fallback) = fallback {
        // A context's proxy covers only the requests the context owns: one sent as its context
        // closes (a page's beacon at `pagehide`) has no context left and takes the browser's
        // proxy instead, which is direct by default. Through a closed port it fails instead.
        let fallback: [(&str, serde_json::Value); 7] = [
            ("network.proxy.type", 1.into()),
            ("network.proxy.socks", "127.0.0.1".into()),
            ("network.proxy.socks_port", fallback.port().into()),
            ("network.proxy.socks_version", 5.into()),
            // Names go to the proxy unresolved, so no DNS query carries them out either.
            ("network.proxy.socks_remote_dns", true.into()),
            ("network.proxy.no_proxies_on", "".into()),
            // A proxy that refuses must not make Firefox try the direct way instead.
            ("network.proxy.failover_direct", false.into()),
        ];
        prefs.extend(fallback.map(|(name, value)| (name.to_owned(), value)));
    }
    prefs
}

/// Whether the worker's contexts connect through an [`OutboundProxy`]: when some origin is
/// not allowed, in Chromium, whose per-context proxy Playwright routes loopback through too,
/// and in Firefox, which does with `network.proxy.allow_hijacking_localhost`.
fn needs_proxy(settings: &BrowserSettings) -> bool {
    !settings.allowed_origins.is_any()
        && matches!(settings.name, BrowserName::Chromium | BrowserName::Firefox)
}

/// What of the context options Firefox over WebDriver BiDi does not emulate (`isMobile` and
/// `hasTouch` of a device), said once at the start rather than silently dropped.
fn firefox_ignores(
    settings: &BrowserSettings,
    options: &BrowserContextOptions,
) -> Option<&'static str> {
    if settings.name != BrowserName::Firefox {
        return None;
    }
    match (
        options.is_mobile == Some(true),
        options.has_touch == Some(true),
    ) {
        (true, true) => Some("isMobile and hasTouch"),
        (true, false) => Some("isMobile"),
        (false, true) => Some("hasTouch"),
        (false, false) => None,
    }
}

/// Returns the driver's browser type for the engine `name`.
fn browser_type(playwright: &Playwright, name: BrowserName) -> &BrowserType {
    match name {
        BrowserName::Chromium => playwright.chromium(),
        BrowserName::Firefox => playwright.firefox(),
        BrowserName::Webkit => playwright.webkit(),
    }
}

/// The window size of a headless `fullscreen` run, whose page takes the window's size.
const HEADLESS_WINDOW_SIZE: &str = "--window-size=1920,1080";

/// Returns the Chromium flag that sizes the window for `fullscreen`, where the page has no
/// viewport and takes the window's size. Headless gets a 1920x1080 window, headed a maximized
/// one, and other screens no flag.
fn window_arg(screen: &Screen, headless: bool) -> Option<&'static str> {
    match screen {
        Screen::Fullscreen if headless => Some(HEADLESS_WINDOW_SIZE),
        Screen::Fullscreen => Some("--start-maximized"),
        _ => None,
    }
}

/// Returns the options of every test's browser context for `screen`. A device is looked up in
/// `devices`, the driver's device list, by its exact, case-sensitive name, as in Playwright.
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
                    set_at: None,
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

/// Reads the variables `names`, removes them from the process environment and returns the
/// values that were set. The driver and its browsers inherit the environment, so they never see
/// these. `run` passes the LLM key variables, which the provider reads from the returned map.
///
/// Like [`export_driver_env`], call it before any thread is spawned, the tokio runtime's
/// included.
pub(crate) fn withhold_from_driver(names: &[String]) -> HashMap<String, String> {
    let mut kept = HashMap::new();
    for name in names {
        if let Some(value) = std::env::var_os(name) {
            if let Some(value) = value.to_str() {
                kept.insert(name.clone(), value.to_owned());
            }
            // SAFETY: called before any thread is spawned (see the doc comment), so nothing
            // reads the environment concurrently.
            unsafe {
                std::env::remove_var(name);
            }
        }
    }
    kept
}

/// The variables [`export_driver_env`] set for the driver, each with the value it had before
/// (`None` when it was not set). The other processes prettyplay starts, such as the web
/// servers, get the old values back, so that nothing meant for the driver reaches them.
pub(crate) type DriverEnv = Vec<(String, Option<OsString>)>;

/// Exports the driver's location for playwright-rs, which reads it from the environment, and
/// Node.js's compile cache, which speeds up the driver's start. Returns what it changed.
///
/// Call it before any other thread exists (before the tokio runtime is built).
pub(crate) fn export_driver_env(driver: &DriverPaths) -> DriverEnv {
    let env = |name: &str| std::env::var(name).ok();
    let mut set: Vec<(&str, OsString)> = vec![
        ("PLAYWRIGHT_NODE_EXE", driver.node.clone().into()),
        ("PLAYWRIGHT_CLI_JS", driver.cli_js.clone().into()),
        // prettyplay handles Ctrl-C itself.
        ("PLAYWRIGHT_NO_SIGNAL_HANDLER", "1".into()),
    ];
    // This ends playwright-rs's own driver search at once (see `driver_path.rs`).
    if let Some(dir) = driver_path_for(&env, driver) {
        set.push(("PLAYWRIGHT_DRIVER_PATH", dir.into()));
    }
    // Node.js 22.1 and later keep the code they compiled there (Node.js 20 ignores it).
    if let Some(dir) = compile_cache_for(&env) {
        set.push(("NODE_COMPILE_CACHE", dir.into()));
    }
    let mut changed = Vec::new();
    for (name, value) in set {
        changed.push((name.to_owned(), std::env::var_os(name)));
        // SAFETY: called before any thread is spawned (see the doc comment), so nothing reads
        // the environment concurrently.
        unsafe {
            std::env::set_var(name, value);
        }
    }
    changed
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
            "unknown device `iphone 13` (from `[browser] screen`)"
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
    fn firefox_says_which_device_options_it_does_not_emulate() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let defaults = crate::config::Settings::resolve(
            dir.path(),
            &|_| None,
            &crate::config::Overrides::default(),
        )
        .expect("the defaults resolve")
        .browser;
        let firefox = BrowserSettings {
            name: BrowserName::Firefox,
            ..defaults.clone()
        };
        let iphone =
            context_options(&Screen::Device("iPhone 13".into()), &devices()).expect("known device");
        assert_eq!(
            firefox_ignores(&firefox, &iphone),
            Some("isMobile and hasTouch")
        );
        assert_eq!(
            firefox_ignores(&defaults, &iphone),
            None,
            "Chromium emulates both"
        );
        let sized = context_options(
            &Screen::Size {
                width: 800,
                height: 600,
            },
            &devices(),
        )
        .expect("a size");
        assert_eq!(firefox_ignores(&firefox, &sized), None);
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
