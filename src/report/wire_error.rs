//! Why a line of the wire format (an events file's, a report blob's) could not be read back,
//! and why a file it names could not be used.
//!
//! Main type: [`WireError`]. Each message is a lowercase fragment saying what is wrong with the
//! line; `merge-reports` puts the file and the line in front of it.

use std::io;
use std::path::PathBuf;

use super::wire::EVENTS_VERSION;

/// Why a line is not an event this prettyplay can read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum WireError {
    #[error("not JSON: {0}")]
    NotJson(serde_json::Error),
    #[error("no \"version\" field: not an event")]
    NoVersion,
    #[error("event version {found}, this prettyplay reads version {EVENTS_VERSION}")]
    Version { found: u64 },
    /// The line is JSON of the right version but not the shape of its event.
    #[error("not an event: {0}")]
    NotAnEvent(serde_json::Error),
    /// The event's header lacks what its kind is about (its test, its step's index).
    #[error("not an event: missing field `{0}`")]
    Missing(&'static str),
    #[error("not an event: the timestamp {timestamp:?} is not RFC 3339: {error}")]
    Timestamp {
        timestamp: String,
        error: jiff::Error,
    },
    /// A name (a step source, an author, a failure kind, ...) this prettyplay does not know.
    #[error("unknown {what} {name:?}")]
    UnknownName { what: &'static str, name: String },
    #[error("unknown proof {0:?}")]
    UnknownProof(String),
    #[error("unknown verdict source `{0}`")]
    UnknownVerdictSource(String),
    #[error("the screenshot is not base64: {0}")]
    Base64(base64::DecodeError),
    #[error("cannot read the screenshot {}: {error}", path.display())]
    Screenshot { path: PathBuf, error: io::Error },
    /// A retry whose failure says Ctrl-C stopped the attempt: the runner never writes one.
    #[error("an attempt that Ctrl-C stopped is never retried")]
    InterruptedRetry,
    #[error(transparent)]
    Attachment(#[from] AttachmentError),
}

/// Why a file a report blob's line names (a screenshot, a trace) cannot be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum AttachmentError {
    #[error("the attachment {0:?} is not a path inside the blob's directory")]
    Outside(String),
    #[error("cannot read the attachment {}: {error}", path.display())]
    Unreadable { path: PathBuf, error: io::Error },
    #[error(
        "the attachment {} is a symbolic link that leads outside the blob's directory (to {}): \
         merge the blobs and their directories as the shards wrote them",
        path.display(),
        target.display()
    )]
    LinkOutside { path: PathBuf, target: PathBuf },
}

/// Where a reference in an event (a screenshot, a trace) points: `reference` is the path the
/// line carries; the answer is the file to use, or why there is none.
pub(crate) type Resolve<'a> = &'a dyn Fn(&str) -> Result<PathBuf, AttachmentError>;

/// The item of `all` whose wire name is `name`.
pub(crate) fn by_name<T: Copy>(
    all: &[T],
    name: &str,
    wire: fn(T) -> &'static str,
    what: &'static str,
) -> Result<T, WireError> {
    all.iter()
        .copied()
        .find(|item| wire(*item) == name)
        .ok_or_else(|| WireError::UnknownName {
            what,
            name: name.to_owned(),
        })
}
