//! [`WebServerError`]: why the web servers of a run could not be started, or why the app they
//! would serve cannot be reached. Every one fails the run before its first test with exit 3
//! (infrastructure), but Ctrl-C (exit 130).

use std::io;
use std::path::PathBuf;
use std::time::Duration;

/// Why a web server could not be made ready.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WebServerError {
    /// The HTTP client of the readiness checks could not be built.
    #[error("cannot set up the HTTP client that checks web servers: {0}")]
    Client(String),
    /// `cwd` names no directory.
    #[error("web server `{command}`: its cwd {} is not a directory", .cwd.display())]
    Cwd { command: String, cwd: PathBuf },
    /// `sh` could not be run.
    #[error("cannot start web server `{command}`")]
    Spawn {
        command: String,
        #[source]
        source: io::Error,
    },
    /// The command exited before its URL answered. `output` is its last output, shown.
    #[error("web server `{command}` exited ({status}) before {url} answered{output}")]
    ExitedEarly {
        command: String,
        url: String,
        status: String,
        output: String,
    },
    /// The URL did not answer within the timeout.
    #[error("web server `{command}` did not answer at {url} within {}{output}", seconds(.timeout))]
    NotReady {
        command: String,
        url: String,
        timeout: Duration,
        output: String,
    },
    /// `reuse_existing = false` and something already answers at the URL.
    #[error(
        "{url} is already used: make sure nothing is running on its port, or set \
         `reuse_existing = true` under [web_server]"
    )]
    AlreadyUsed { url: String },
    /// `[browser] base_url` could not be reached before the first test, and no `[web_server]`
    /// was there to start the app.
    #[error("APP UNREACHABLE: {url} — {what}")]
    AppUnreachable {
        url: String,
        what: String,
        /// Where the base URL was set (`` `--base-url` ``), for the hint.
        set_at: String,
    },
    /// Ctrl-C while the servers were starting.
    #[error("interrupted while starting the web servers")]
    Interrupted,
}

impl WebServerError {
    /// What to try, where there is something to try.
    pub(crate) fn hint(&self) -> Option<String> {
        match self {
            WebServerError::NotReady { .. } => Some(
                "check that the command serves `url` (GET must answer 2xx, 3xx or 400-403), or \
                 raise `timeout` under [web_server] for a slow start"
                    .to_owned(),
            ),
            WebServerError::AppUnreachable { set_at, .. } => Some(format!(
                "{}; no test was started (the URL comes from {set_at})",
                super::UNREACHABLE_HINT
            )),
            WebServerError::AlreadyUsed { .. } => Some(
                "`reuse_existing` is off by default when CI is set; \
                 PRETTYPLAY_WEB_SERVER_REUSE_EXISTING overrides it"
                    .to_owned(),
            ),
            _ => None,
        }
    }
}

/// `60 s`, `2.5 s`.
fn seconds(duration: &Duration) -> String {
    format!("{} s", duration.as_secs_f64())
}
