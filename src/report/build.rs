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
use super::options::{ReportOptions, ReporterKind};
use super::reporter::Reporters;
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
/// [`super::Reporter::finish`].
pub fn build_reporters(
    options: &ReportOptions,
    stdout: Box<dyn Write + Send>,
    colors: bool,
    verbosity: Verbosity,
    is_tty: bool,
    env: &dyn Fn(&str) -> Option<String>,
) -> io::Result<Reporters> {
    let github = env("GITHUB_ACTIONS").is_some_and(|v| v.trim() == "true");
    let mut reporters = Reporters::new();
    match options.terminal_kind() {
        ReporterKind::Dot => reporters
            .push(DotReporter::new(stdout, colors, verbosity).with_github_annotations(github)),
        _ => {
            let mut terminal =
                TerminalReporter::new(stdout, colors, verbosity).with_github_annotations(github);
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
        reporters.push(JsonReporter::new(create_file(&path)?));
    }
    if options.has(ReporterKind::Junit) {
        reporters.push(FileReport::junit(options.output_dir.join("junit.xml")));
    }
    if options.has(ReporterKind::Html) {
        reporters.push(FileReport::html(options.output_dir.join("index.html")));
    }
    if options.has(ReporterKind::Blob) {
        let header = BlobHeader::new(options);
        reporters.push(BlobReporter::create(&options.blob_file(), &header)?);
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
        testing::feed(&mut reporters, &testing::events());
        for file in options.files() {
            let content = fs::read_to_string(&file).unwrap();
            assert!(!content.is_empty(), "{} is empty", file.display());
        }
        let events = fs::read_to_string(dir.path().join("events/run.jsonl")).unwrap();
        assert_eq!(events.lines().count(), testing::events().len());
        let text = out.text();
        assert!(text.contains("2 passed, 1 failed"), "{text}");
        assert!(
            text.contains("::error file=scenarios/login.steps,line=4,"),
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
