//! [`Screenshots`]: one test's screenshot baselines, whose they are, whether the run may write
//! them ([`SnapshotMode`]) and where the images of a mismatch go. The comparison itself is
//! `screenshots.rs`.

use std::cell::{Cell, RefCell};
use std::path::PathBuf;

use crate::cache::Baselines;
use crate::script::visual_diff::VisualDiff;

/// Whether a run may write baselines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum SnapshotMode {
    /// A missing baseline is written; an existing one is only compared (`run`, `replay`).
    #[default]
    Missing,
    /// As [`SnapshotMode::Missing`], and a baseline the page no longer matches is rewritten
    /// (`run --update-snapshots`).
    Changed,
    /// No baseline is ever written: a missing one fails the step (`replay --strict`, `audit`).
    Never,
}

/// One test's screenshots: where its baselines are, whose they are, and where the images of a
/// mismatch go.
pub(crate) struct Screenshots {
    pub baselines: Baselines,
    /// The scenario's path, for the hint of a missing baseline and the failure images' names.
    pub scenario: String,
    pub test: String,
    /// The browser project the test runs in (`chromium` for the default run).
    pub project: String,
    pub mode: SnapshotMode,
    /// The run's directory for failure images.
    pub output: PathBuf,
    /// The 1-based index of the step that runs now.
    pub(super) step: Cell<usize>,
    /// How many unnamed screenshots the current execution took.
    unnamed: Cell<usize>,
    /// The images of the last mismatch, until the step's failure takes them.
    pub(super) last: RefCell<Option<VisualDiff>>,
}

impl Screenshots {
    pub(crate) fn new(
        baselines: Baselines,
        scenario: String,
        test: String,
        project: String,
        mode: SnapshotMode,
        output: PathBuf,
    ) -> Self {
        Self {
            baselines,
            scenario,
            test,
            project,
            mode,
            output,
            step: Cell::new(1),
            unnamed: Cell::new(0),
            last: RefCell::new(None),
        }
    }

    /// The step at 1-based `index` starts.
    pub(crate) fn begin_step(&self, index: usize) {
        self.step.set(index);
        self.begin_execution();
    }

    /// An execution of the step's code starts: its unnamed screenshots count from one again.
    pub(crate) fn begin_execution(&self) {
        self.unnamed.set(0);
        self.last.borrow_mut().take();
    }

    /// The images of the last mismatch, once.
    pub(crate) fn take_diff(&self) -> Option<VisualDiff> {
        self.last.borrow_mut().take()
    }

    /// The name of the screenshot step code called `name`: an unnamed one is the step's first,
    /// second, ... (`-2` from the second on), as Playwright numbers them in a test.
    pub(super) fn name_of(&self, name: Option<String>) -> Option<String> {
        if name.is_some() {
            return name;
        }
        let count = self.unnamed.get() + 1;
        self.unnamed.set(count);
        (count > 1).then(|| count.to_string())
    }
}
