//! Connects to a browser that runs elsewhere. With `connect`, playwright-rs opens a WebSocket to
//! a Playwright server itself, and prettyplay watches that connection. With `cdp`, the local
//! driver connects to a Chromium's DevTools endpoint (`connectOverCDP`), holds the connection
//! and reports when it closes. `[browser] connect_timeout` bounds every attempt.
//!
//! Main item: [`connect_remote`], which `BrowserRuntime::launch_browser` calls instead of a
//! launch when `[browser] connect` or `cdp` is set.

use std::time::Duration;

use playwright_rs::api::ConnectOptions;
use playwright_rs::protocol::BrowserType;
use playwright_rs::{Browser, ConnectOverCdpOptions};

use crate::config::{BrowserSettings, RemoteBrowser, RemoteProtocol};
use crate::driver::connection_watch::{connections_to, watch_connection};
use crate::driver::{DriverError, Lifeline};

/// Header that tells a `playwright run-server` which engine to launch. A `launchServer`
/// ignores it, because its browser is already running.
const BROWSER_HEADER: &str = "x-playwright-browser";
/// Header with the launch options a `playwright run-server` uses.
const LAUNCH_OPTIONS_HEADER: &str = "x-playwright-launch-options";

/// How much longer than the driver's own timeout prettyplay waits for a CDP connection, so
/// that the driver's error, which is more specific, comes first.
const CDP_SLACK: Duration = Duration::from_secs(5);

/// Connects to the browser at `remote` and returns it with the lifeline of the connection.
/// A `connect` connection gets a lifeline of its own. A CDP connection uses `driver`, because
/// the driver holds that connection and reports its loss as the browser's disconnection.
/// Connections are made one at a time (`serial`) so that the socket each one opened can be told
/// apart.
pub(crate) async fn connect_remote(
    browser_type: &BrowserType,
    remote: &RemoteBrowser,
    settings: &BrowserSettings,
    driver: &Lifeline,
    serial: &tokio::sync::Mutex<()>,
    handle: &tokio::runtime::Handle,
) -> Result<(Browser, Lifeline), DriverError> {
    let failed = |source: playwright_rs::Error| DriverError::Connect {
        endpoint: remote.shown(),
        source: Box::new(source),
    };
    let timed_out = || {
        failed(playwright_rs::Error::Timeout(format!(
            "no connection within {} s (`[browser] connect_timeout`)",
            remote.timeout.as_secs_f64()
        )))
    };
    let slow_mo = settings.slow_mo.as_secs_f64() * 1000.0;
    match remote.protocol {
        RemoteProtocol::Connect => {
            let _one_at_a_time = serial.lock().await;
            let port = url::Url::parse(&remote.endpoint)
                .ok()
                .and_then(|url| url.port_or_known_default())
                .unwrap_or(80);
            let before = connections_to(port);
            let mut headers = remote.headers.to_map();
            if !remote.headers.has(BROWSER_HEADER) {
                headers.insert(BROWSER_HEADER.to_owned(), settings.name.as_str().to_owned());
            }
            if !remote.headers.has(LAUNCH_OPTIONS_HEADER) {
                let options = serde_json::json!({ "headless": settings.headless });
                headers.insert(LAUNCH_OPTIONS_HEADER.to_owned(), options.to_string());
            }
            let mut options = ConnectOptions::new()
                .headers(headers)
                .timeout(remote.timeout.as_secs_f64() * 1000.0);
            if slow_mo > 0.0 {
                options = options.slow_mo(slow_mo);
            }
            let connect = browser_type.connect(&remote.endpoint, options);
            let browser = tokio::time::timeout(remote.timeout, connect)
                .await
                .map_err(|_| timed_out())?
                .map_err(failed)?;
            if browser.name() != settings.name.as_str() {
                return Err(DriverError::WrongEngine {
                    endpoint: remote.shown(),
                    expected: settings.name.as_str(),
                    actual: browser.name().to_owned(),
                });
            }
            let opened: Vec<_> = connections_to(port).difference(&before).copied().collect();
            let reason = format!(
                "lost the connection to the Playwright server at {}",
                remote.shown()
            );
            let lifeline = match opened.as_slice() {
                [socket] => watch_connection(*socket, reason, handle),
                _ => {
                    tracing::warn!(
                        "cannot find the connection to {} to watch it: a lost connection is \
                         noticed only by the test timeout",
                        remote.shown()
                    );
                    Lifeline::new().0
                }
            };
            Ok((browser, lifeline))
        }
        RemoteProtocol::Cdp => {
            let mut options = ConnectOverCdpOptions::new()
                .headers(remote.headers.to_map())
                .timeout(remote.timeout.as_secs_f64() * 1000.0);
            if slow_mo > 0.0 {
                options = options.slow_mo(slow_mo);
            }
            let connect = browser_type.connect_over_cdp(&remote.endpoint, options);
            let connected = tokio::select! {
                biased;
                connected = tokio::time::timeout(remote.timeout + CDP_SLACK, connect) => connected,
                reason = driver.until_lost() => Ok(Err(playwright_rs::Error::LaunchFailed(reason))),
            };
            let browser = connected.map_err(|_| timed_out())?.map_err(failed)?;
            Ok((browser, driver.clone()))
        }
    }
}
