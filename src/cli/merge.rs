//! `prettyplay merge-reports DIR...` replays the report blobs of a sharded run's shards through
//! the usual reporters as one run (one HTML report, one JUnit file, one terminal summary) and
//! exits with the code that run would have had.
//!
//! Main entry point: [`merge_reports`].

use std::path::Path;

use crate::cli::args::{GlobalArgs, MergeArgs};
use crate::cli::run::{exit_code_of, reporter_kinds};
use crate::cli::stdout_sink::StdoutSink;
use crate::cli::{env_var, verbosity_of};
use crate::error::Error;
use crate::report::{ReportOptions, build_reporters, find_blobs, merge_blobs};
use crate::runner::{EventKind, RunKind, RunStats};

/// Warns before the report that a shard of the split has no blob among those merged.
#[expect(
    clippy::print_stderr,
    reason = "the user must see this warning with the merged report"
)]
fn warn_missing(shard: &str) {
    eprintln!(
        "WARNING: no blob of shard {shard}: its tests are not in the merged report (the shard \
         failed before it wrote its blob, had no tests, or its artifact was not downloaded)"
    );
}

/// Merges the blobs under `args.dirs` into the reports that `args` asks for and returns the
/// merged run's exit code.
pub(crate) fn merge_reports(
    global: &GlobalArgs,
    args: &MergeArgs,
    cwd: &Path,
    colors: bool,
) -> Result<u8, Error> {
    let options = ReportOptions {
        kinds: reporter_kinds(&args.reporters)?,
        output_dir: cwd.join(&args.output),
        cwd: Some(cwd.to_owned()),
        ..ReportOptions::default()
    };
    let dirs: Vec<_> = args.dirs.iter().map(|dir| cwd.join(dir)).collect();
    let blobs = find_blobs(&dirs)?;
    let merged = merge_blobs(&blobs, &options.output_dir.join("traces"))?;
    for shard in &merged.missing_shards {
        warn_missing(shard);
    }
    let events = merged.events;
    let is_tty = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let mut reporters = build_reporters(
        &options,
        // A closed stdout drops the summary but keeps the merged run's exit code, as in a run.
        Box::new(StdoutSink::new(std::io::stdout())),
        colors,
        verbosity_of(global, &args.quiet),
        is_tty,
        &env_var,
    )
    .map_err(Error::Output)?;
    let mut write_error = None;
    for event in &events {
        if let Err(err) = reporters.handle(event) {
            write_error.get_or_insert(err);
        }
    }
    let finished = reporters.finish();
    if let Some(err) = write_error.or(finished.err()) {
        return Err(Error::Output(err));
    }
    let stats = match events.last().map(|event| &event.kind) {
        Some(EventKind::Run(RunKind::Finished(finished))) => finished.stats.clone(),
        _ => RunStats::default(),
    };
    Ok(exit_code_of(&stats, args.fail_on_flaky_tests))
}
