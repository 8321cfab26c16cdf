//! Reporters: they consume the runner's [`crate::runner::RunEvent`] stream and decide what to
//! show. The terminal reporters (`list`, `dot`) write to stdout; the file reporters write the
//! JSON lines event stream, JUnit XML, a self-contained HTML report and the report blob that
//! `merge-reports` reads back and replays (`docs/reports.md`).
//!
//! Main types: the [`Reporter`] trait, [`Reporters`] (a fan-out) and [`build_reporters`], which
//! makes the reporters of a run from [`ReportOptions`]; [`ReportServer`] serves a report
//! directory (`prettyplay show-report`).

mod blob;
mod blob_read;
mod build;
mod content_type;
mod details;
mod dot;
mod eta;
mod file_report;
mod github;
mod html;
mod json;
mod junit;
mod locations;
mod merge;
mod options;
mod progress;
mod record;
mod reporter;
mod serve;
mod serve_error;
mod stale;
mod terminal;
#[cfg(test)]
mod testing;
mod trace_link;
mod wire;
mod wire_error;
mod wire_outcome;
mod wire_read;
mod wire_read_outcome;
mod wire_stats;
mod xml;

pub(crate) use crate::visible::{Visible, visible as visible_text, visible_json};
pub(crate) use blob_read::MergeError;
pub use build::build_reporters;
pub use details::Verbosity;
#[cfg(test)]
pub(crate) use dot::DotReporter;
pub use eta::EtaBasis;
#[cfg(test)]
pub(crate) use json::event_json;
pub use locations::{ReportFile, ReportFileKind};
pub(crate) use merge::{find_blobs, merge_blobs};
pub(crate) use options::DEFAULT_OUTPUT_DIR;
pub use options::{ReportOptions, ReporterKind};
pub(crate) use reporter::Reporters;
pub(crate) use serve::ReportServer;
pub(crate) use serve_error::ServeError;
pub(crate) use stale::remove_reports_of_a_run_that_did_not_start;
pub(crate) use wire::EVENTS_VERSION;
