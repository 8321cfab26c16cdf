//! Why `prettyplay show-report` cannot serve a report: no report where it looked, or no port to
//! listen on.
//!
//! Main type: [`ServeError`], with the hint that says what to do about it.

use std::io;
use std::path::PathBuf;

/// A report directory that cannot be served.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ServeError {
    /// The directory does not exist.
    #[error("no HTML report at {}: the directory does not exist", dir.display())]
    NoDirectory { dir: PathBuf },
    /// The path is a file, not a directory.
    #[error("no HTML report at {}: it is not a directory", dir.display())]
    NotADirectory { dir: PathBuf },
    /// The directory has no `index.html`.
    #[error("no HTML report in {}: it has no index.html", dir.display())]
    NoIndex { dir: PathBuf },
    /// The directory exists but cannot be read (permissions, I/O).
    #[error("cannot read the report directory {}", dir.display())]
    Read {
        dir: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The host and port cannot be listened on (taken, or not an address of this machine).
    #[error("cannot listen on {address}")]
    Bind {
        address: String,
        #[source]
        source: io::Error,
    },
}

impl ServeError {
    /// Whether the command line named the wrong thing (no report there), rather than the
    /// machine failing prettyplay.
    pub(crate) fn is_usage(&self) -> bool {
        matches!(
            self,
            ServeError::NoDirectory { .. }
                | ServeError::NotADirectory { .. }
                | ServeError::NoIndex { .. }
        )
    }

    /// What the user can do about it.
    pub(crate) fn hint(&self) -> Option<String> {
        match self {
            ServeError::NoDirectory { .. }
            | ServeError::NotADirectory { .. }
            | ServeError::NoIndex { .. } => Some(
                "write a report first with `--reporter html` (e.g. `prettyplay replay \
                 --reporter html`; `--output DIR` puts it elsewhere than prettyplay-report/), \
                 or name its directory: `prettyplay show-report DIR`"
                    .to_owned(),
            ),
            ServeError::Bind { .. } => {
                Some("choose another port with `--port N`, or `--port 0` for a free one".to_owned())
            }
            ServeError::Read { .. } => None,
        }
    }
}
