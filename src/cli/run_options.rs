//! The command-line options of `prettyplay run`, `replay` and `audit`, checked: the selection,
//! the failure limit, traces, reporters and how much the run prints.
//!
//! Main type: [`RunOptions`].

use std::path::Path;

use crate::cli::args::{GlobalArgs, RunnerArgs, TraceArg};
use crate::cli::select::{NamedLocation, SelectOptions};
use crate::cli::verbosity_of;
use crate::error::Error;
use crate::report::{ReportOptions, ReporterKind, Verbosity};
use crate::runner::TraceMode;

/// The options of a run of tests that come from the command line.
pub(crate) struct RunOptions {
    pub(crate) select: SelectOptions,
    pub(super) max_failures: Option<usize>,
    pub(super) trace: TraceMode,
    pub(super) report: ReportOptions,
    pub(super) colors: bool,
    pub(super) verbosity: Verbosity,
    /// With `--debug`, each step is announced on stderr before it runs.
    pub(super) debug: bool,
    /// `run --update-snapshots`: baselines the pages no longer match are rewritten.
    pub(super) update_snapshots: bool,
}

impl RunOptions {
    pub(crate) fn new(
        global: &GlobalArgs,
        runner: &RunnerArgs,
        locations: Vec<NamedLocation>,
        cwd: &Path,
        colors: bool,
    ) -> Result<Self, Error> {
        let kinds = reporter_kinds(&runner.report.reporters)?;
        if runner.max_failures == Some(0) {
            return Err(Error::Usage("--max-failures must be at least 1".to_owned()));
        }
        Ok(Self {
            select: SelectOptions::new(&runner.select, locations)?,
            max_failures: if runner.exit_first {
                Some(1)
            } else {
                runner.max_failures
            },
            trace: match runner.report.trace {
                TraceArg::On => TraceMode::On,
                TraceArg::Off => TraceMode::Off,
                TraceArg::RetainOnFailure => TraceMode::RetainOnFailure,
            },
            report: ReportOptions {
                kinds,
                output_dir: cwd.join(&runner.report.output),
                events_file: runner.report.events.as_ref().map(|p| cwd.join(p)),
                cwd: Some(cwd.to_owned()),
                ..ReportOptions::default()
            },
            colors,
            verbosity: if runner.debug {
                Verbosity::Verbose
            } else {
                verbosity_of(global, &runner.report.quiet)
            },
            debug: runner.debug,
            update_snapshots: false,
        })
    }
}

/// Parses the `--reporter` values. No value means `list`, and an unknown value is a usage error.
pub(crate) fn reporter_kinds(names: &[String]) -> Result<Vec<ReporterKind>, Error> {
    if names.is_empty() {
        return Ok(vec![ReporterKind::List]);
    }
    names
        .iter()
        .map(|name| name.parse::<ReporterKind>().map_err(Error::Usage))
        .collect()
}
