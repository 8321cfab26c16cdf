//! The errors of the browser side, such as a missing driver or browser, a failed start or
//! launch (or an executable that exited at once, which is likely no browser), an unknown
//! device, or a trace viewer that did not start.
//!
//! Main type: [`DriverError`]. Its hint tells the user what to do about it.

use std::path::{Path, PathBuf};

use crate::causes;
use crate::config::Sources;
use crate::driver::{DRIVER_VERSION, ExitedAtLaunch, Loss};

/// A failure of the browser side, such as a missing piece, a launch failure or a crash.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DriverError {
    #[error("missing {what}")]
    Missing { what: String, hint: String },
    #[error("could not start the Playwright driver ({node} {cli_js})")]
    DriverStart {
        node: PathBuf,
        cli_js: PathBuf,
        #[source]
        source: Box<playwright_rs::Error>,
    },
    #[error("could not launch {browser} at {executable}")]
    Launch {
        browser: &'static str,
        executable: PathBuf,
        /// Where the executable was configured, if it was (see [`BrowserTarget`]).
        ///
        /// [`BrowserTarget`]: crate::driver::BrowserTarget
        configured_at: Option<String>,
        #[source]
        source: Box<playwright_rs::Error>,
    },
    /// The launched process exited before it became a browser. Only the exit and the first lines
    /// of its output are kept: the driver's error repeats the whole command line and its log.
    #[error("{}", exited_message(.browser, .executable, .exited))]
    ExitedAtLaunch {
        browser: &'static str,
        executable: PathBuf,
        configured_at: Option<String>,
        /// Boxed because it is the largest part of the error, which every `Result` carries.
        exited: Box<ExitedAtLaunch>,
    },
    /// The remote browser of `[browser] connect` or `cdp` could not be reached.
    #[error("could not connect to the browser at {endpoint}")]
    Connect {
        /// The endpoint in the form that may be shown (`RemoteBrowser::shown`).
        endpoint: String,
        #[source]
        source: Box<playwright_rs::Error>,
    },
    /// The Playwright server runs another engine than `[browser] name`.
    #[error("the Playwright server at {endpoint} runs {actual}, not {expected}")]
    WrongEngine {
        endpoint: String,
        expected: &'static str,
        actual: String,
    },
    /// The proxy that enforces `[browser] allowed_origins` on connections could not listen.
    #[error("could not start the [browser] allowed_origins proxy on 127.0.0.1")]
    Proxy(#[source] std::io::Error),
    #[error("could not open a browser page for the test")]
    NewPage(#[source] Box<playwright_rs::Error>),
    /// The driver or the browser went away.
    #[error("{0}")]
    Lost(Loss),
    /// `[browser] screen` names a device the driver's device list lacks.
    #[error("unknown device `{name}` (from {})", .set_at.as_deref().unwrap_or("`[browser] screen`"))]
    UnknownDevice {
        name: String,
        /// Where the screen was set (`` `--screen` ``), once [`DriverError::placed`] knows.
        set_at: Option<String>,
        /// Close names from the device list, best first.
        suggestions: Vec<String>,
    },
    /// `node cli.js show-trace` could not be run.
    #[error("could not start Playwright's trace viewer ({} {})", node.display(), cli_js.display())]
    TraceViewerStart {
        node: PathBuf,
        cli_js: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The trace viewer exited or hung before it printed its URL. Its own error went to stderr.
    #[error("Playwright's trace viewer exited before it served the trace ({status})")]
    TraceViewerExited { status: String },
    /// The trace viewer stopped on its own after it served. Ctrl-C does not count, because it
    /// stops prettyplay too.
    #[error("Playwright's trace viewer stopped ({status})")]
    TraceViewerStopped { status: String },
}

impl DriverError {
    /// Returns the message, its causes and the hint, as `prettyplay` prints them.
    pub(crate) fn report(&self) -> String {
        causes::report(self, self.hint().as_deref())
    }

    /// The error with the places of the settings it blames taken from `sources`, so that it
    /// names the flag, variable or file key that set them.
    pub(crate) fn placed(self, sources: &Sources) -> Self {
        match self {
            DriverError::UnknownDevice {
                name, suggestions, ..
            } => DriverError::UnknownDevice {
                name,
                set_at: Some(sources.place("browser.screen").to_string()),
                suggestions,
            },
            other => other,
        }
    }

    /// Returns what the user can do about the error.
    pub(crate) fn hint(&self) -> Option<String> {
        match self {
            DriverError::Missing { hint, .. } => Some(hint.clone()),
            DriverError::DriverStart { .. } => Some(format!(
                "the driver must be playwright-core {} on Node.js; run `prettyplay install` to install it",
                DRIVER_VERSION
            )),
            DriverError::Launch {
                browser,
                executable,
                configured_at,
                ..
            }
            | DriverError::ExitedAtLaunch {
                browser,
                executable,
                configured_at,
                ..
            } => {
                let check = format!(
                    "check that the executable is a working {browser} (`{} --version`)",
                    executable.display()
                );
                Some(match configured_at {
                    Some(place) => {
                        format!("{check}, or fix {place}; run with -v for the driver's log")
                    }
                    None => format!("{check}; run with -v for the driver's log"),
                })
            }
            DriverError::Connect { .. } => Some(format!(
                "check that the server runs and answers at that address (`[browser] connect` or \
                 `cdp`), with the headers it needs (`connect_headers`); a Playwright server must \
                 be playwright {DRIVER_VERSION}, the driver's version; run with -v for details"
            )),
            DriverError::WrongEngine { expected, .. } => Some(format!(
                "set `[browser] name` to what the server runs, or connect to a server that \
                 runs {expected}"
            )),
            DriverError::Proxy(_) => Some(
                "prettyplay listens on a free port of 127.0.0.1 for it; check that loopback \
                 works on this machine, or set `[browser] allowed_origins = [\"*\"]` to run \
                 without the guard"
                    .to_owned(),
            ),
            DriverError::NewPage(_) | DriverError::Lost(_) => None,
            DriverError::TraceViewerStopped { .. } => None,
            DriverError::TraceViewerStart { .. } | DriverError::TraceViewerExited { .. } => {
                Some(format!(
                    "the trace viewer is part of the driver, playwright-core {DRIVER_VERSION} on \
                     Node.js 20 or newer; run `prettyplay install` to install it (its own message, if any, \
                     is above)"
                ))
            }
            DriverError::UnknownDevice { suggestions, .. } => {
                Some(unknown_device_hint(suggestions))
            }
        }
    }
}

/// `/bin/true is not a Chromium: it exited with code 0 ...` for an executable that is not a
/// browser, else `Chromium at PATH did not start: it exited ...`.
fn exited_message(browser: &str, executable: &Path, exited: &ExitedAtLaunch) -> String {
    let executable = executable.display();
    if exited.not_a_browser() {
        format!("{executable} is not a {browser}: {exited}")
    } else {
        format!("{browser} at {executable} did not start: {exited}")
    }
}

fn unknown_device_hint(suggestions: &[String]) -> String {
    let forms = "device names are Playwright's, exact and case-sensitive (such as \"iPhone 13\" or \
                 \"Pixel 7\"); the other forms are empty, WxH such as 1280x720, and fullscreen";
    if suggestions.is_empty() {
        return forms.to_owned();
    }
    let names: Vec<String> = suggestions.iter().map(|s| format!("{s:?}")).collect();
    format!("did you mean {}? {forms}", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Overrides, Settings};

    /// The whole report of `--executable /bin/true` when the driver saw the exit, and of a
    /// Chromium that could not start, as `prettyplay` prints them.
    #[test]
    fn an_executable_that_exits_at_launch_is_reported_in_a_few_lines() {
        let report = |executable: &str, exit: &str, output: &[&str]| {
            DriverError::ExitedAtLaunch {
                browser: "Chromium",
                executable: PathBuf::from(executable),
                configured_at: Some("`--executable`".into()),
                exited: Box::new(ExitedAtLaunch {
                    exit: Some(exit.into()),
                    output: output.iter().map(|line| (*line).to_owned()).collect(),
                    version: None,
                }),
            }
            .report()
        };
        insta::assert_snapshot!(format!(
            "{}\n\n{}",
            report("/bin/true", "code 0", &[]),
            report(
                "/usr/bin/chromium",
                "code 127",
                &[
                    "error while loading shared libraries: libnss3.so: cannot open shared object file"
                ]
            )
        ));
    }

    #[test]
    fn an_unknown_device_names_the_flag_that_set_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let overrides = Overrides {
            screen: Some("iphone 13".into()),
            ..Overrides::default()
        };
        let settings = Settings::resolve(dir.path(), &|_| None, &overrides).expect("settings");
        let error = DriverError::UnknownDevice {
            name: "iphone 13".into(),
            set_at: None,
            suggestions: vec!["iPhone 13".into()],
        };
        assert_eq!(
            error.to_string(),
            "unknown device `iphone 13` (from `[browser] screen`)"
        );
        assert_eq!(
            error.placed(&settings.sources).to_string(),
            "unknown device `iphone 13` (from `--screen`)"
        );
    }
}
