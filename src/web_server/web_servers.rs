//! [`WebServers`]: the `[web_server]`s of one run, started in order before the first test and
//! stopped in reverse order after the last.
//!
//! Each server is first asked whether its URL already answers: then it is reused (nothing is
//! run) or, with `reuse_existing = false`, the run fails. Otherwise its command is started and
//! its URL polled (after 100 ms, 250 ms, then every 500 ms) until it answers, the command exits,
//! the timeout passes or Ctrl-C is pressed; the last three stop the servers started so far and
//! fail the run.

use std::ffi::OsString;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use tokio::runtime::Handle;

use super::WebServerError;
use super::output_tail::LineSink;
use super::probe::Probe;
use super::process::ServerProcess;
use crate::config::WebServerSettings;

/// The pauses between readiness checks; the last one repeats.
const POLL_DELAYS: [Duration; 3] = [
    Duration::from_millis(100),
    Duration::from_millis(250),
    Duration::from_millis(500),
];
/// The longest one readiness check may take.
const PROBE_LIMIT: Duration = Duration::from_secs(5);

/// The web servers a run started (reused ones are not here: they are not stopped). Dropping it
/// stops them.
pub(crate) struct WebServers {
    /// In start order, each with its command.
    started: Vec<(String, ServerProcess)>,
}

impl WebServers {
    /// Makes every server of `settings` ready, in order; see the module comment. `cancel` is
    /// the run's Ctrl-C flag; `sink` receives every output line when the output is streamed
    /// (`-v`); `restore` lists the variables prettyplay set for the driver, with the values the
    /// servers get instead (see [`ServerProcess::spawn`]). Blocks; the readiness checks run on
    /// `handle`'s runtime. Must be called from the main thread (see [`ServerProcess::spawn`]).
    pub(crate) fn start(
        settings: &[WebServerSettings],
        restore: &[(String, Option<OsString>)],
        handle: &Handle,
        cancel: &AtomicBool,
        sink: Option<LineSink>,
    ) -> Result<WebServers, WebServerError> {
        let mut servers = WebServers {
            started: Vec::new(),
        };
        if settings.is_empty() {
            return Ok(servers);
        }
        let probe = Probe::new(handle)?;
        for (index, server) in settings.iter().enumerate() {
            if cancel.load(Ordering::SeqCst) {
                return Err(WebServerError::Interrupted);
            }
            if handle.block_on(probe.answers(&server.url, PROBE_LIMIT)) {
                if server.reuse_existing {
                    tracing::info!(url = %server.url, "reusing the web server that answers");
                    continue;
                }
                return Err(WebServerError::AlreadyUsed {
                    url: server.url.clone(),
                });
            }
            let label = if settings.len() == 1 {
                "web_server".to_owned()
            } else {
                format!("web_server {}", index + 1)
            };
            let mut process = ServerProcess::spawn(server, restore, sink.clone(), &label)?;
            wait_until_ready(&mut process, server, &probe, handle, cancel)?;
            tracing::debug!(url = %server.url, "web server ready");
            servers.started.push((server.command.clone(), process));
        }
        Ok(servers)
    }

    /// Stops every started server, last first; answers a warning for each that had exited
    /// during the run.
    pub(crate) fn stop(mut self) -> Vec<String> {
        let mut warnings = Vec::new();
        while let Some((command, mut process)) = self.started.pop() {
            if let Some(status) = process.stop() {
                warnings.push(format!(
                    "web server `{command}` exited during the run ({status}){}",
                    process.last_output()
                ));
            }
        }
        warnings
    }
}

impl Drop for WebServers {
    fn drop(&mut self) {
        while let Some((_, mut process)) = self.started.pop() {
            let _ = process.stop();
        }
    }
}

/// Polls `server.url` until it answers; fails when the command exits first, the timeout passes
/// or `cancel` is set. The caller stops the process on failure (by dropping it).
fn wait_until_ready(
    process: &mut ServerProcess,
    server: &WebServerSettings,
    probe: &Probe,
    handle: &Handle,
    cancel: &AtomicBool,
) -> Result<(), WebServerError> {
    let started = Instant::now();
    let mut delays = POLL_DELAYS.iter().copied();
    loop {
        if cancel.load(Ordering::SeqCst) {
            return Err(WebServerError::Interrupted);
        }
        let left = server.timeout.saturating_sub(started.elapsed());
        if left.is_zero() {
            return Err(WebServerError::NotReady {
                command: server.command.clone(),
                url: server.url.clone(),
                timeout: server.timeout,
                output: process.last_output(),
            });
        }
        // Asked before the exit status: a command that starts a daemon and exits is fine.
        if handle.block_on(probe.answers(&server.url, left.min(PROBE_LIMIT))) {
            return Ok(());
        }
        if let Some(status) = process.exit_status() {
            return Err(exited_early(process, server, status));
        }
        let delay = delays.next().unwrap_or(POLL_DELAYS[POLL_DELAYS.len() - 1]);
        thread::sleep(delay.min(server.timeout.saturating_sub(started.elapsed())));
    }
}

fn exited_early(
    process: &ServerProcess,
    server: &WebServerSettings,
    status: ExitStatus,
) -> WebServerError {
    WebServerError::ExitedEarly {
        command: server.command.clone(),
        url: server.url.clone(),
        status: status.to_string(),
        output: process.last_output(),
    }
}
