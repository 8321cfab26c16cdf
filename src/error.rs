//! The top-level error of a prettyplay invocation: every area's error, its exit code, and a
//! display that walks the cause chain and adds a hint.
//!
//! Main type: [`Error`]. Exit codes are named constants, documented in `docs/exit-codes.md`.

use std::fmt;

use crate::cache::CacheError;
use crate::config::ConfigError;
use crate::driver::DriverError;
use crate::scenario::ScenarioError;

/// Every selected test passed (or there was nothing to run).
pub const EXIT_SUCCESS: u8 = 0;
/// At least one test failed.
pub const EXIT_TEST_FAILED: u8 = 1;
/// Bad usage, configuration, scenario or cache file: nothing ran.
pub const EXIT_USAGE: u8 = 2;
/// Infrastructure: the driver or the browser is missing or crashed, or the LLM is unavailable.
pub const EXIT_INFRA: u8 = 3;
/// The run was interrupted with Ctrl-C (128 + SIGINT, as shells report it).
pub const EXIT_INTERRUPTED: u8 = 130;

/// Why prettyplay could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    #[error(transparent)]
    Cache(#[from] CacheError),
    #[error(transparent)]
    Driver(#[from] DriverError),
    #[error("could not start the async runtime")]
    Runtime(#[source] std::io::Error),
    #[error("could not write output")]
    Output(#[source] std::io::Error),
}

impl Error {
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) | Error::Config(_) | Error::Scenario(_) | Error::Cache(_) => EXIT_USAGE,
            // A device name is configuration, even though only the driver knows the list.
            Error::Driver(DriverError::UnknownDevice { .. }) => EXIT_USAGE,
            Error::Driver(_) | Error::Runtime(_) | Error::Output(_) => EXIT_INFRA,
        }
    }

    fn hint(&self) -> Option<String> {
        match self {
            Error::Driver(err) => err.hint(),
            _ => None,
        }
    }

    /// The message, its causes and a hint, as printed on stderr.
    pub fn report(&self) -> Report<'_> {
        Report(self)
    }
}

/// Displays an [`Error`] with its cause chain and hint.
pub struct Report<'a>(&'a Error);

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", self.0)?;
        let mut source = std::error::Error::source(self.0);
        // Transparent variants already printed their own message; skip the duplicate.
        if let Some(first) = source
            && first.to_string() == self.0.to_string()
        {
            source = first.source();
        }
        while let Some(cause) = source {
            write!(f, "\n  caused by: {cause}")?;
            source = cause.source();
        }
        if let Some(hint) = self.0.hint() {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
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
    fn report_walks_causes() {
        let err = Error::Runtime(std::io::Error::other("no threads"));
        assert_eq!(
            err.report().to_string(),
            "error: could not start the async runtime\n  caused by: no threads"
        );
    }
}
