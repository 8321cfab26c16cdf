//! `prettyplay show-report` and `prettyplay show-trace`: serve an HTML report directory, or a
//! trace in Playwright's trace viewer, on 127.0.0.1 until Ctrl-C; say the URL, and open it in a
//! browser when there is a display.
//!
//! Main entry points: [`show_report`] and [`show_trace`]. Neither reads `prettyplay.toml`: the
//! report directory is relative to the working directory, as `--output` is.

use std::io::{self, Write as _};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::cli::args::{ShowReportArgs, ShowTraceArgs};
use crate::cli::env_var;
use crate::driver::{DriverError, TraceViewer, find_driver};
use crate::error::{EXIT_SUCCESS, Error};
use crate::report::{DEFAULT_OUTPUT_DIR, ReportServer, Visible};

/// Serves the report directory (`DIR`, else `prettyplay-report`) until the process is stopped.
pub(crate) fn show_report(args: &ShowReportArgs, cwd: &Path) -> Result<u8, Error> {
    let named = args.dir.as_deref().unwrap_or(Path::new(DEFAULT_OUTPUT_DIR));
    let dir = cwd.join(named);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    runtime.block_on(async {
        let server = ReportServer::bind(&dir, &args.serve.host, args.serve.port).await?;
        let url = server.url();
        announce(&format!(
            "Serving the HTML report {} at {url}",
            Visible(named.display())
        ))?;
        open_in_browser(&url, &env_var);
        server.run().await;
        Ok(EXIT_SUCCESS)
    })
}

/// Runs Playwright's trace viewer on `FILE` until it stops (Ctrl-C stops both).
pub(crate) fn show_trace(args: &ShowTraceArgs, cwd: &Path) -> Result<u8, Error> {
    let trace = cwd.join(&args.file);
    if !trace.exists() {
        return Err(Error::NoTrace {
            path: args.file.clone(),
        });
    }
    let driver = find_driver(&env_var)?;
    let viewer = TraceViewer::start(
        &driver,
        &trace,
        &args.serve.host,
        args.serve.port,
        has_display(&env_var),
    )?;
    announce(&format!(
        "Serving the trace viewer for {} at {}",
        Visible(args.file.display()),
        viewer.url()
    ))?;
    match viewer.wait() {
        Ok(status) if status.success() => Ok(EXIT_SUCCESS),
        Ok(status) => Err(DriverError::TraceViewerStopped {
            status: status.to_string(),
        }
        .into()),
        Err(err) => Err(DriverError::TraceViewerStopped {
            status: err.to_string(),
        }
        .into()),
    }
}

/// Says where it serves, and how to stop it, on stdout (at once: a script may be waiting for
/// the URL).
fn announce(serving: &str) -> Result<(), Error> {
    let mut out = io::stdout().lock();
    writeln!(out, "{serving}\nPress Ctrl-C to stop.")
        .and_then(|()| out.flush())
        .map_err(Error::Output)
}

/// Whether a graphical session is there to show a browser: `DISPLAY` or `WAYLAND_DISPLAY` set.
fn has_display(env: &dyn Fn(&str) -> Option<String>) -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|name| env(name).is_some_and(|v| !v.is_empty()))
}

/// Opens `url` with `xdg-open` when there is a display; never fails (the URL was printed).
fn open_in_browser(url: &str, env: &dyn Fn(&str) -> Option<String>) {
    if !has_display(env) {
        return;
    }
    // A server on every interface is opened on this machine's own.
    let url = url
        .replacen("//0.0.0.0:", "//localhost:", 1)
        .replacen("//[::]:", "//localhost:", 1);
    let opened = Command::new("xdg-open")
        .arg(&url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match opened {
        // Reaped when it exits (it hands the URL to the browser and returns).
        Ok(mut child) => {
            std::thread::spawn(move || child.wait());
        }
        Err(err) => tracing::info!("could not open a browser with xdg-open: {err}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_env::env_of;

    #[test]
    fn a_display_is_display_or_wayland_display_set_and_not_empty() {
        assert!(!has_display(&env_of(&[])));
        assert!(!has_display(&env_of(&[("DISPLAY", "")])));
        assert!(has_display(&env_of(&[("DISPLAY", ":0")])));
        assert!(has_display(&env_of(&[("WAYLAND_DISPLAY", "wayland-0")])));
    }
}
