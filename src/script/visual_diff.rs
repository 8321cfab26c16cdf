//! [`VisualDiff`]: the files of a screenshot that did not match its baseline, which a step's
//! failure carries from the binding (`screenshots.rs`) to the reports.

use std::path::PathBuf;

/// The images of a screenshot that did not match its baseline, written to the run's output
/// directory for the reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VisualDiff {
    /// The committed baseline the page was compared with.
    pub baseline: PathBuf,
    pub expected: PathBuf,
    /// `None` when the page gave no stable screenshot to show.
    pub actual: Option<PathBuf>,
    /// `None` when there was no actual image, or the two images have different sizes.
    pub diff: Option<PathBuf>,
}
