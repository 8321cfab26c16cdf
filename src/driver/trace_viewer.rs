//! Runs Playwright's trace viewer from the pinned driver for `prettyplay show-trace`, with
//! playwright-core's own command `node cli.js show-trace --host H --port P TRACE`.
//!
//! Main type: [`TraceViewer`]. With `--host` and `--port`, playwright-core serves the viewer
//! over HTTP, prints `Listening on URL` and opens the URL with `xdg-open`. Without them it would
//! launch a Chromium of Playwright's own download, which prettyplay never installs, so both are
//! always passed. Nothing is downloaded, because the viewer is part of playwright-core.

use std::io::{self, BufRead as _, BufReader};
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use crate::driver::{DriverError, DriverPaths};

/// How long the viewer may take to print its URL.
const START_LIMIT: Duration = Duration::from_secs(60);

/// What playwright-core prints before the viewer's URL.
const LISTENING: &str = "Listening on ";

/// A running trace viewer. Dropping it stops it.
pub(crate) struct TraceViewer {
    child: Child,
    url: String,
}

impl TraceViewer {
    /// Starts the viewer on `trace` (a zip, or a directory of traces) at `host:port`, where
    /// port 0 picks a free port, and waits until it serves.
    ///
    /// With `open_browser`, playwright-core opens the URL in a browser. Without it, when there
    /// is no display, its `xdg-open` gets `BROWSER=true`. With no display `xdg-open` falls back
    /// to `$BROWSER`, which is then a no-op, rather than to text-mode browsers that could show
    /// nothing without a terminal.
    ///
    /// The viewer shares prettyplay's stderr, and its stdout after the URL goes to the log. It
    /// gets SIGTERM if prettyplay dies without stopping it, and it is in prettyplay's process
    /// group, so Ctrl-C in the terminal stops both.
    pub(crate) fn start(
        driver: &DriverPaths,
        trace: &Path,
        host: &str,
        port: u16,
        open_browser: bool,
    ) -> Result<Self, DriverError> {
        let mut command = Command::new(&driver.node);
        command
            .arg(&driver.cli_js)
            .arg("show-trace")
            .arg("--host")
            .arg(host)
            .arg("--port")
            .arg(port.to_string())
            .arg(trace)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if !open_browser {
            command.env("BROWSER", "true");
        }
        #[cfg(target_os = "linux")]
        // SAFETY: prctl(2) is async-signal-safe and touches no memory of the parent. It asks the
        // kernel to send SIGTERM to the viewer should prettyplay die without stopping it
        // (SIGKILL); the viewer is spawned on the main thread, which lives as long as it.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
                Ok(())
            });
        }
        let start_error = |source: io::Error| DriverError::TraceViewerStart {
            node: driver.node.clone(),
            cli_js: driver.cli_js.clone(),
            source,
        };
        let mut child = command.spawn().map_err(start_error)?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| start_error(io::Error::other("no pipe for the viewer's stdout")))?;
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut tx = Some(tx);
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                match (line.trim().strip_prefix(LISTENING), tx.take()) {
                    (Some(url), Some(tx)) => {
                        let _ = tx.send(url.to_owned());
                    }
                    (_, kept) => {
                        tx = kept;
                        if !line.trim().is_empty() {
                            tracing::info!("trace viewer: {line}");
                        }
                    }
                }
            }
        });
        let mut viewer = TraceViewer {
            child,
            url: String::new(),
        };
        match rx.recv_timeout(START_LIMIT) {
            Ok(url) => {
                viewer.url = url;
                Ok(viewer)
            }
            // Its stdout closed before it printed its URL, so it exited or is about to, and its
            // error is on stderr.
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let status = viewer.child.wait().map_err(start_error)?;
                Err(DriverError::TraceViewerExited {
                    status: status.to_string(),
                })
            }
            Err(mpsc::RecvTimeoutError::Timeout) => Err(DriverError::TraceViewerExited {
                status: format!(
                    "it did not say where it serves within {} s and was stopped",
                    START_LIMIT.as_secs()
                ),
            }),
        }
    }

    /// Returns the URL the viewer serves, such as `http://127.0.0.1:PORT`.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// Waits for the viewer to exit, which Ctrl-C causes.
    pub(crate) fn wait(mut self) -> io::Result<ExitStatus> {
        self.child.wait()
    }
}

impl Drop for TraceViewer {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for `node cli.js`: `sh` running `script`.
    fn fake_driver(dir: &Path, script: &str) -> DriverPaths {
        let cli_js = dir.join("cli.sh");
        std::fs::write(&cli_js, script).unwrap();
        DriverPaths {
            node: "/bin/sh".into(),
            cli_js,
        }
    }

    #[test]
    fn the_url_is_read_from_what_the_viewer_prints_and_dropping_it_stops_it() {
        let dir = tempfile::tempdir().unwrap();
        let driver = fake_driver(
            dir.path(),
            "echo; echo \"Listening on http://viewer/$BROWSER/$*\"; echo more; exec sleep 600\n",
        );
        let viewer =
            TraceViewer::start(&driver, Path::new("/t/a.zip"), "127.0.0.1", 0, false).unwrap();
        assert_eq!(
            viewer.url(),
            "http://viewer/true/show-trace --host 127.0.0.1 --port 0 /t/a.zip"
        );
        let pid = viewer.child.id();
        drop(viewer);
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "the viewer was stopped and reaped"
        );

        let viewer = TraceViewer::start(&driver, Path::new("t.zip"), "::1", 9322, true).unwrap();
        assert!(
            viewer
                .url()
                .starts_with("http://viewer//show-trace --host ::1 --port 9322"),
            "{}",
            viewer.url()
        );
    }

    #[test]
    fn a_viewer_that_exits_before_it_serves_is_an_error_with_its_status() {
        let dir = tempfile::tempdir().unwrap();
        let driver = fake_driver(
            dir.path(),
            "echo 'Trace file t.zip does not exist!' >&2; exit 1\n",
        );
        let err = TraceViewer::start(&driver, Path::new("t.zip"), "127.0.0.1", 0, false)
            .err()
            .unwrap();
        assert_eq!(
            err.to_string(),
            "Playwright's trace viewer exited before it served the trace (exit status: 1)"
        );
        assert!(err.hint().unwrap().contains("prettyplay install"));

        let missing = DriverPaths {
            node: dir.path().join("no-node"),
            cli_js: dir.path().join("cli.js"),
        };
        let err = TraceViewer::start(&missing, Path::new("t.zip"), "127.0.0.1", 0, false)
            .err()
            .unwrap();
        assert!(
            err.to_string()
                .starts_with("could not start Playwright's trace viewer ("),
            "{err}"
        );
    }
}
