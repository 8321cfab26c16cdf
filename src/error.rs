//! The top-level error of a prettyplay invocation: every area's error, its exit code, and a
//! display that walks the cause chain and adds a hint.
//!
//! Main type: [`Error`]. Exit codes are named constants, documented in `docs/exit-codes.md`.

use std::fmt;

use crate::cache::CacheError;
use crate::causes::write_report;
use crate::config::ConfigError;
use crate::driver::DriverError;
use crate::export::ExportError;
use crate::import::ImportError;
use crate::install::InstallError;
use crate::llm::LlmError;
use crate::report::MergeError;
use crate::report::ServeError;
use crate::runner::HostError;
use crate::scenario::ScenarioError;
use crate::script::StepFailure;
use crate::web_server::WebServerError;

/// Every selected test passed (or there was nothing to run).
pub(crate) const EXIT_SUCCESS: u8 = 0;
/// At least one test failed.
pub(crate) const EXIT_TEST_FAILED: u8 = 1;
/// Bad usage, configuration, scenario or cache file: nothing ran.
pub(crate) const EXIT_USAGE: u8 = 2;
/// Infrastructure: the driver or the browser is missing or crashed, the LLM is unavailable, or
/// prettyplay's own I/O failed (the working directory, its output, a report file).
pub(crate) const EXIT_INFRA: u8 = 3;
/// The run was interrupted with Ctrl-C (128 + SIGINT, as shells report it). SIGTERM and SIGHUP
/// exit 143 and 129 ([`crate::stop_signal::StopSignal::exit_code`]).
pub(crate) const EXIT_INTERRUPTED: u8 = 130;

/// Why prettyplay could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    /// A bad command line: a flag value, a `--grep` pattern, a selection with no tests.
    #[error("{0}")]
    Usage(String),
    /// `prettyplay run` without an LLM configured: it could neither generate nor heal.
    #[error("`prettyplay run` needs an LLM to generate and heal steps")]
    LlmRequired,
    /// The `[llm]` settings do not make a provider (no model, a missing key, a bad URL).
    #[error("the [llm] settings cannot be used")]
    LlmSettings(#[source] LlmError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error(transparent)]
    Cache(#[from] CacheError),
    /// `merge-reports` found no blobs, or blobs it cannot merge (another version, a cut line,
    /// the same test twice).
    #[error(transparent)]
    Merge(#[from] MergeError),
    #[error(transparent)]
    Driver(#[from] DriverError),
    /// A `[web_server]` exited early, never answered, or its URL was already taken.
    #[error(transparent)]
    WebServer(#[from] WebServerError),
    #[error("could not start the async runtime")]
    Runtime(#[source] std::io::Error),
    #[error("could not write output")]
    Output(#[source] std::io::Error),
    /// The process's working directory could not be read (it was removed, or is not
    /// accessible).
    #[error("cannot read the working directory")]
    WorkingDirectory(#[source] std::io::Error),
    /// The step-code API listing could not be produced: the sandbox failed to start or to list
    /// its binding (`prettyplay api`).
    #[error("cannot list the step-code API")]
    ApiListing(#[source] StepFailure),
    /// `prettyplay show-report` found no report where it looked, or could not listen.
    #[error(transparent)]
    ShowReport(#[from] ServeError),
    /// `prettyplay explain` could not open its page (it did not load, answered an HTTP
    /// error, or is outside `[browser] allowed_origins`).
    #[error("cannot open {url} to explain the sentence on it")]
    Explain {
        url: String,
        #[source]
        source: StepFailure,
    },
    /// `prettyplay install` left something missing, or apt-get or npm failed.
    #[error(transparent)]
    Install(#[from] InstallError),
    /// `prettyplay export` could not write its project.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// `prettyplay import` could not read, convert or write a file (boxed: it holds a whole
    /// scenario error).
    #[error(transparent)]
    Import(Box<ImportError>),
    /// `prettyplay show-trace` names a file that does not exist.
    #[error("no trace at {}", path.display())]
    NoTrace { path: std::path::PathBuf },
    /// `replay --strict` found steps without cached code before it started: one line per step,
    /// `FILE:LINE: <sentence>: no cached code`.
    #[error("{}", .0.join("\n"))]
    NotCached(Vec<String>),
}

/// The host's errors are the run's: each keeps the exit code and message it has anywhere.
impl From<HostError> for Error {
    fn from(err: HostError) -> Self {
        match err {
            HostError::Runtime(source) => Error::Runtime(source),
            HostError::Driver(err) => Error::Driver(err),
            HostError::WebServer(err) => Error::WebServer(err),
            HostError::Cache(err) => Error::Cache(err),
            HostError::NoFirstBrowser | HostError::RanTwice => Error::Usage(err.to_string()),
        }
    }
}

impl From<ImportError> for Error {
    fn from(err: ImportError) -> Self {
        Error::Import(Box::new(err))
    }
}

impl Error {
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_)
            | Error::LlmRequired
            | Error::LlmSettings(_)
            | Error::Config(_)
            | Error::Scenario(_)
            | Error::Cache(_)
            | Error::Merge(_)
            | Error::NoTrace { .. }
            | Error::Explain { .. } => EXIT_USAGE,
            // Like a test that fails on a step without cached code, which is what it forestalls.
            Error::NotCached(_) => EXIT_TEST_FAILED,
            Error::Export(
                ExportError::NotOurs { .. }
                | ExportError::Cache(_)
                | ExportError::Unsandboxed { .. },
            ) => EXIT_USAGE,
            Error::Import(err) if err.is_infrastructure() => EXIT_INFRA,
            Error::Import(_) => EXIT_USAGE,
            Error::ShowReport(err) if err.is_usage() => EXIT_USAGE,
            // A device name is configuration, even though only the driver knows the list.
            Error::Driver(DriverError::UnknownDevice { .. }) => EXIT_USAGE,
            Error::WebServer(WebServerError::Interrupted) => {
                crate::stop_signal::interrupted_exit_code()
            }
            Error::Driver(_)
            | Error::WebServer(_)
            | Error::Runtime(_)
            | Error::Output(_)
            | Error::WorkingDirectory(_)
            | Error::ApiListing(_)
            | Error::ShowReport(_)
            | Error::Install(_)
            | Error::Export(_) => EXIT_INFRA,
        }
    }

    fn hint(&self) -> Option<String> {
        match self {
            Error::Driver(err) => err.hint(),
            Error::Install(err) => err.hint(),
            Error::Export(err) => err.hint(),
            Error::Import(err) => err.hint(),
            Error::WebServer(err) => err.hint(),
            Error::ShowReport(err) => err.hint(),
            Error::NoTrace { .. } => Some(
                "traces are written by `--trace on` (or `--trace retain-on-failure`) under \
                 <output>/traces/ (default prettyplay-report/traces/); the HTML report links \
                 each one"
                    .to_owned(),
            ),
            Error::NotCached(steps) => Some(format!(
                "`replay --strict` never generates code, and it checks every step before it \
                 starts: run `prettyplay run` to generate the code of {}, then commit the cache",
                match steps.len() {
                    1 => "this step".to_owned(),
                    n => format!("these {n} steps"),
                }
            )),
            Error::LlmRequired => Some(
                "set `provider` and `model` under [llm] in prettyplay.toml (or \
                 PRETTYPLAY_LLM_PROVIDER and PRETTYPLAY_LLM_MODEL); see docs/llm.md. To run \
                 cached code only, use `prettyplay replay`"
                    .to_owned(),
            ),
            _ => None,
        }
    }

    /// The message, its causes and a hint, as printed on stderr.
    pub(crate) fn report(&self) -> Report<'_> {
        Report(self)
    }
}

/// Displays an [`Error`] with its cause chain and hint.
pub(crate) struct Report<'a>(&'a Error);

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_report(f, self.0, self.0.hint().as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_errors_exit_2_and_driver_errors_exit_3() {
        assert_eq!(Error::Usage("x".into()).exit_code(), EXIT_USAGE);
        let missing = Error::Driver(DriverError::Missing {
            what: "Chromium".into(),
            hint: "apt-get install -y chromium".into(),
        });
        assert_eq!(missing.exit_code(), EXIT_INFRA);
        assert_eq!(
            missing.report().to_string(),
            "error: missing Chromium\n  hint: apt-get install -y chromium"
        );
    }

    #[test]
    fn llm_configuration_errors_exit_2_with_the_cause_or_a_hint() {
        let settings = Error::LlmSettings(LlmError::Config("`llm.model` is not set".into()));
        assert_eq!(settings.exit_code(), EXIT_USAGE);
        assert_eq!(
            settings.report().to_string(),
            "error: the [llm] settings cannot be used\n  caused by: `llm.model` is not set"
        );
        let required = Error::LlmRequired;
        assert_eq!(required.exit_code(), EXIT_USAGE);
        let text = required.report().to_string();
        assert!(
            text.starts_with("error: `prettyplay run` needs an LLM to generate and heal steps\n  hint: set `provider` and `model` under [llm]"),
            "{text}"
        );
        assert!(text.contains("`prettyplay replay`"), "{text}");
    }

    #[test]
    fn steps_without_cached_code_exit_1_one_line_each_with_what_to_do() {
        let one = Error::NotCached(vec!["a.steps:2: open the app: no cached code".into()]);
        assert_eq!(one.exit_code(), EXIT_TEST_FAILED);
        assert_eq!(
            one.report().to_string(),
            "error: a.steps:2: open the app: no cached code\n  hint: `replay --strict` never \
             generates code, and it checks every step before it starts: run `prettyplay run` to \
             generate the code of this step, then commit the cache"
        );
        let two = Error::NotCached(vec![
            "a.steps:2: open the app: no cached code".into(),
            "a.steps:3: add a todo: no cached code".into(),
        ]);
        let text = two.report().to_string();
        assert!(
            text.starts_with(
                "error: a.steps:2: open the app: no cached code\na.steps:3: add a todo: no cached \
                 code\n"
            ),
            "{text}"
        );
        assert!(text.contains("the code of these 2 steps"), "{text}");
    }

    #[test]
    fn prettyplays_own_io_and_api_listing_failures_exit_3() {
        let cwd = Error::WorkingDirectory(std::io::ErrorKind::NotFound.into());
        assert_eq!(cwd.exit_code(), EXIT_INFRA);
        assert_eq!(
            cwd.report().to_string(),
            "error: cannot read the working directory\n  caused by: entity not found"
        );
        let listing = Error::ApiListing(StepFailure::new(
            crate::script::FailureKind::Script,
            "listing the API: out of memory",
        ));
        assert_eq!(listing.exit_code(), EXIT_INFRA);
        assert_eq!(
            listing.report().to_string(),
            "error: cannot list the step-code API\n  caused by: listing the API: out of memory"
        );
        let output = Error::Output(std::io::Error::other("disk full"));
        assert_eq!(output.exit_code(), EXIT_INFRA);
    }

    #[test]
    fn no_report_or_trace_to_show_exits_2_naming_the_path_and_what_to_do() {
        let no_report = Error::from(ServeError::NoIndex {
            dir: "prettyplay-report".into(),
        });
        assert_eq!(no_report.exit_code(), EXIT_USAGE);
        let text = no_report.report().to_string();
        assert!(
            text.starts_with(
                "error: no HTML report in prettyplay-report: it has no index.html\n  hint: \
                 write a report first with `--reporter html`"
            ),
            "{text}"
        );
        let taken = Error::from(ServeError::Bind {
            address: "127.0.0.1:9323".into(),
            source: std::io::ErrorKind::AddrInUse.into(),
        });
        assert_eq!(taken.exit_code(), EXIT_INFRA);
        let no_trace = Error::NoTrace {
            path: "traces/t.zip".into(),
        };
        assert_eq!(no_trace.exit_code(), EXIT_USAGE);
        let text = no_trace.report().to_string();
        assert!(
            text.starts_with(
                "error: no trace at traces/t.zip\n  hint: traces are written by `--trace on`"
            ),
            "{text}"
        );
    }

    #[test]
    fn report_walks_causes() {
        let err = Error::Runtime(std::io::Error::other("no threads"));
        assert_eq!(
            err.report().to_string(),
            "error: could not start the async runtime\n  caused by: no threads"
        );
    }
}
