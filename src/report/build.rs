//! [`build_reporters`]: from [`ReportOptions`] and the terminal it runs on to the reporters of a
//! run.
//!
//! Main entry point: [`build_reporters`].

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::Path;

use indicatif::ProgressDrawTarget;

use super::blob::{BlobHeader, BlobReporter};
use super::details::Verbosity;
use super::dot::DotReporter;
use super::file_report::{FileReport, with_path};
use super::json::JsonReporter;
use super::locations::{ReportFile, ReportFileKind};
use super::options::{ReportOptions, ReporterKind};
use super::reporter::Reporters;
use super::stale::remove_stale_reports;
use super::terminal::TerminalReporter;

/// The reporters of a run: the terminal one (`list`, or `dot`) on `stdout`, plus a file reporter
/// per file report asked for.
///
/// - `colors`: whether the terminal reporter styles its output (the caller honours `NO_COLOR`).
/// - `is_tty`: whether `stdout` is a terminal. With it, and without `CI` in `env`, `list` shows a
///   progress bar (drawn on stdout, result lines printed above it).
/// - `env`: `CI` (no progress bar) and `GITHUB_ACTIONS=true` (`::error` annotations for failures
///   on stdout).
///
/// The event files (`--events`, `--reporter json`) and the report blob are created here, so a path that cannot be
/// written fails before the run starts; `junit.xml` and `index.html` are written by
/// [`super::Reporter::finish`]. The reports an earlier run left in the output directory that
/// this run does not write are removed here, so that none of them passes for this run's.
pub fn build_reporters(
    options: &ReportOptions,
    stdout: Box<dyn Write + Send>,
    colors: bool,
    verbosity: Verbosity,
    is_tty: bool,
    env: &dyn Fn(&str) -> Option<String>,
) -> io::Result<Reporters> {
    let github = env("GITHUB_ACTIONS").is_some_and(|v| v.trim() == "true");
    remove_stale_reports(options);
    let mut reporters = Reporters::new();
    let cwd = options.cwd.clone();
    match options.terminal_kind() {
        ReporterKind::Dot => reporters.push(
            DotReporter::new(stdout, colors, verbosity)
                .with_github_annotations(github)
                .with_cwd(cwd),
        ),
        _ => {
            let mut terminal = TerminalReporter::new(stdout, colors, verbosity)
                .with_github_annotations(github)
                .with_cwd(cwd);
            if shows_progress(is_tty, verbosity, env) {
                terminal =
                    terminal.with_progress(ProgressDrawTarget::stdout(), options.eta.clone());
            }
            reporters.push(terminal);
        }
    }

    let mut event_files = Vec::new();
    if let Some(path) = &options.events_file {
        event_files.push(path.clone());
    }
    if options.has(ReporterKind::Json) {
        let path = options.output_dir.join("events.jsonl");
        if !event_files.contains(&path) {
            event_files.push(path);
        }
    }
    for path in event_files {
        let file = ReportFile::new(ReportFileKind::Events, &path);
        reporters.push_writing(JsonReporter::new(create_file(&path)?), vec![file]);
    }
    if options.has(ReporterKind::Junit) {
        let path = options.output_dir.join("junit.xml");
        let file = ReportFile::new(ReportFileKind::Junit, &path);
        reporters.push_writing(FileReport::junit(path), vec![file]);
    }
    if options.has(ReporterKind::Html) {
        let path = options.output_dir.join("index.html");
        let file = ReportFile::new(ReportFileKind::Html, &path);
        reporters.push_writing(FileReport::html(path), vec![file]);
    }
    if options.has(ReporterKind::Blob) {
        let header = BlobHeader::new(options);
        let path = options.blob_file();
        let file = ReportFile::new(ReportFileKind::Blob, &path);
        reporters.push_writing(BlobReporter::create(&path, &header)?, vec![file]);
    }
    Ok(reporters)
}

/// Whether `list` shows a progress bar: on a terminal, not in CI (`CI` set to anything but empty,
/// `0` or `false`), not with `-q`.
fn shows_progress(
    is_tty: bool,
    verbosity: Verbosity,
    env: &dyn Fn(&str) -> Option<String>,
) -> bool {
    let ci = env("CI").is_some_and(|v| !matches!(v.trim(), "" | "0" | "false"));
    is_tty && !ci && verbosity != Verbosity::Quiet
}

/// Creates `path` (and its directory) for writing; the error names the path.
fn create_file(path: &Path) -> io::Result<BufWriter<File>> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|err| with_path(err, "cannot create directory", dir))?;
    }
    File::create(path)
        .map(BufWriter::new)
        .map_err(|err| with_path(err, "cannot create", path))
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::report::testing;
    use crate::runner::RunEvent;

    /// A `Write` whose content the test can read after the reporter took it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().write(buf)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn every_report_asked_for_is_written_and_the_terminal_gets_the_summary() {
        let dir = tempfile::tempdir().unwrap();
        let out = Shared::default();
        let options = ReportOptions {
            kinds: vec![
                ReporterKind::Json,
                ReporterKind::Junit,
                ReporterKind::Html,
                ReporterKind::Blob,
            ],
            output_dir: dir.path().join("report"),
            events_file: Some(dir.path().join("events/run.jsonl")),
            cwd: Some(dir.path().to_owned()),
            ..ReportOptions::default()
        };
        let env = |name: &str| (name == "GITHUB_ACTIONS").then(|| "true".to_owned());
        let mut reporters = build_reporters(
            &options,
            Box::new(out.clone()),
            false,
            Verbosity::Normal,
            false,
            &env,
        )
        .unwrap();
        assert_eq!(reporters.len(), 6);
        let mut events = testing::events();
        let path = dir
            .path()
            .join("report/traces/scenarios_login.steps-log_in.zip");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, b"PK").unwrap();
        let trace = RunEvent::of_test(
            testing::id("scenarios/login.steps", "log in", 2),
            crate::runner::TraceWritten { path },
        );
        events.insert(events.len() - 1, trace);
        testing::feed(&mut reporters, &events);
        for file in options.files() {
            let content = fs::read_to_string(&file).unwrap();
            assert!(!content.is_empty(), "{} is empty", file.display());
        }
        let events = fs::read_to_string(dir.path().join("events/run.jsonl")).unwrap();
        assert_eq!(events.lines().count(), testing::events().len() + 1);
        let text = out.text();
        assert!(text.contains("2 passed, 1 failed"), "{text}");
        assert!(
            text.contains("::error file=scenarios/login.steps,line=4,"),
            "{text}"
        );
        // The terminal ends by saying where each file went, once it is written.
        let end: Vec<&str> = text.lines().rev().take(6).collect();
        assert_eq!(
            end,
            [
                "Trace: report/traces/scenarios_login.steps-log_in.zip (open with `prettyplay \
                 show-trace report/traces/scenarios_login.steps-log_in.zip`)",
                "Report blob: report/blob/report.jsonl (merge the shards' blobs with `prettyplay \
                 merge-reports report/blob`)",
                "HTML report: report/index.html (open with `prettyplay show-report report`)",
                "JUnit report: report/junit.xml",
                "JSON events: report/events.jsonl",
                "JSON events: events/run.jsonl",
            ],
            "{text}"
        );
    }

    #[test]
    fn the_progress_bar_needs_a_terminal_and_no_ci() {
        let none = |_: &str| None;
        let ci = |name: &str| (name == "CI").then(|| "true".to_owned());
        let not_ci = |name: &str| (name == "CI").then(|| "false".to_owned());
        assert!(shows_progress(true, Verbosity::Normal, &none));
        assert!(shows_progress(true, Verbosity::Verbose, &not_ci));
        assert!(!shows_progress(false, Verbosity::Normal, &none));
        assert!(!shows_progress(true, Verbosity::Normal, &ci));
        assert!(!shows_progress(true, Verbosity::Quiet, &none));
    }

    #[test]
    fn an_unwritable_events_file_fails_before_the_run() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("file"), "").unwrap();
        let options = ReportOptions {
            events_file: Some(dir.path().join("file/events.jsonl")),
            ..ReportOptions::default()
        };
        let Err(err) = build_reporters(
            &options,
            Box::new(io::sink()),
            false,
            Verbosity::Normal,
            false,
            &|_| None,
        ) else {
            panic!("expected an error");
        };
        assert!(err.to_string().contains("file"), "{err}");
    }
}
