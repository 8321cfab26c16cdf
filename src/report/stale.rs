//! Report files an earlier run left in the output directory that this run does not write
//! (`index.html`, `junit.xml`, `events.jsonl`). They are removed before the run starts, because
//! a report that is still there after a run that did not write it looks like that run's report:
//! a CI step uploads it, `prettyplay show-report` serves it.
//!
//! A file is removed only when its first bytes show prettyplay wrote it, so a file of the same
//! name that the user wrote is left alone, as is anything that is not a regular file (a
//! symbolic link, a directory). Report blobs are kept: `merge-reports` combines blobs that shard
//! runs wrote at different times, and each blob says when its run started.
//!
//! Main entry point: [`remove_stale_reports`].

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::options::{ReportOptions, ReporterKind};

/// How many bytes of a file are read to tell whether prettyplay wrote it.
const HEAD: u64 = 512;

/// The report files of the output directory, with the mark each has in its first bytes.
const REPORTS: [(ReporterKind, &str, Mark); 3] = [
    (ReporterKind::Html, "index.html", Mark::Html),
    (ReporterKind::Junit, "junit.xml", Mark::Junit),
    (ReporterKind::Json, "events.jsonl", Mark::Events),
];

/// What the beginning of a report file that prettyplay wrote looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    /// The page's title, `<title>prettyplay report: ...`.
    Html,
    /// The root element, `<testsuites name="prettyplay" ...`.
    Junit,
    /// The first event, `{"version":1,"event":"run_started",...}`.
    Events,
}

impl Mark {
    fn is_on(self, head: &str) -> bool {
        match self {
            Mark::Html => head.contains("<title>prettyplay report"),
            Mark::Junit => head.contains("<testsuites name=\"prettyplay\""),
            Mark::Events => {
                let first = head.lines().next().unwrap_or_default();
                first.starts_with("{\"version\":") && first.contains("\"event\":\"run_started\"")
            }
        }
    }
}

/// Removes the report files in the output directory that an earlier run wrote and this run
/// does not write, and returns their paths. A file that cannot be read or removed is kept and
/// logged, because a stale report must not stop a run that writes no report at all.
pub(crate) fn remove_stale_reports(options: &ReportOptions) -> Vec<PathBuf> {
    let written = options.files();
    remove_reports(options, |kind, path| {
        options.has(kind) || written.iter().any(|file| file == path)
    })
}

/// Removes every report file that an earlier run left in the output directory, those of this
/// run's reporters included, and returns their paths: for a run that stops before its first
/// test (a strict replay with steps that have no code), whose reports are never written, so
/// that the last run's reports do not stand for it.
pub(crate) fn remove_reports_of_a_run_that_did_not_start(options: &ReportOptions) -> Vec<PathBuf> {
    remove_reports(options, |_, _| false)
}

/// Removes the report files of the output directory that prettyplay wrote, but those `keep`
/// names.
fn remove_reports(
    options: &ReportOptions,
    keep: impl Fn(ReporterKind, &Path) -> bool,
) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    for (kind, name, mark) in REPORTS {
        let path = options.output_dir.join(name);
        if keep(kind, &path) {
            continue;
        }
        match written_by_prettyplay(&path, mark) {
            Ok(false) => {}
            Ok(true) => match fs::remove_file(&path) {
                Ok(()) => {
                    tracing::info!("removed {}, left by an earlier run", path.display());
                    removed.push(path);
                }
                Err(err) => tracing::warn!(
                    "cannot remove {}, the report of an earlier run: {err}",
                    path.display()
                ),
            },
            Err(err) => tracing::debug!("cannot read {}: {err}", path.display()),
        }
    }
    removed
}

/// Whether `path` is a regular file whose first bytes carry `mark`; `false` when there is no
/// such file.
fn written_by_prettyplay(path: &Path, mark: Mark) -> io::Result<bool> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_file() => {}
        Ok(_) => return Ok(false),
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(err) => return Err(err),
    }
    let mut head = Vec::new();
    File::open(path)?.take(HEAD).read_to_end(&mut head)?;
    Ok(mark.is_on(&String::from_utf8_lossy(&head)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing;

    /// The reports of the demo run, written by prettyplay's own reporters into `dir`.
    fn write_every_report(dir: &Path) {
        let options = ReportOptions {
            kinds: vec![ReporterKind::Json, ReporterKind::Junit, ReporterKind::Html],
            output_dir: dir.to_owned(),
            ..ReportOptions::default()
        };
        let mut reporters = crate::report::build_reporters(
            &options,
            Box::new(io::sink()),
            false,
            crate::report::Verbosity::Normal,
            false,
            &|_| None,
        )
        .unwrap();
        testing::feed(&mut reporters, &testing::events());
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_reports_this_run_does_not_write_are_removed_and_the_others_kept() {
        let dir = tempfile::tempdir().unwrap();
        write_every_report(dir.path());
        assert_eq!(
            names(dir.path()),
            ["events.jsonl", "index.html", "junit.xml"]
        );
        let options = ReportOptions {
            kinds: vec![ReporterKind::List, ReporterKind::Junit],
            output_dir: dir.path().to_owned(),
            ..ReportOptions::default()
        };
        let removed = remove_stale_reports(&options);
        assert_eq!(
            removed,
            [
                dir.path().join("index.html"),
                dir.path().join("events.jsonl")
            ]
        );
        assert_eq!(names(dir.path()), ["junit.xml"]);
    }

    #[test]
    fn an_events_file_the_run_writes_there_is_not_stale() {
        let dir = tempfile::tempdir().unwrap();
        write_every_report(dir.path());
        let options = ReportOptions {
            kinds: vec![ReporterKind::List],
            output_dir: dir.path().to_owned(),
            events_file: Some(dir.path().join("events.jsonl")),
            ..ReportOptions::default()
        };
        remove_stale_reports(&options);
        assert_eq!(names(dir.path()), ["events.jsonl"]);
    }

    #[test]
    fn files_of_the_same_names_that_prettyplay_did_not_write_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let own = [
            ("index.html", "<!doctype html><title>my docs</title>"),
            ("junit.xml", "<testsuites name=\"pytest\"></testsuites>"),
            ("events.jsonl", "{\"version\":1,\"event\":\"deploy\"}\n"),
            ("notes.txt", "<title>prettyplay report</title>"),
        ];
        for (name, content) in own {
            fs::write(dir.path().join(name), content).unwrap();
        }
        let options = ReportOptions {
            output_dir: dir.path().to_owned(),
            ..ReportOptions::default()
        };
        assert!(remove_stale_reports(&options).is_empty());
        assert_eq!(
            names(dir.path()),
            ["events.jsonl", "index.html", "junit.xml", "notes.txt"]
        );
        // A link or a directory of a report's name is not a report file either.
        let report = tempfile::tempdir().unwrap();
        write_every_report(report.path());
        let linked = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(
            report.path().join("index.html"),
            linked.path().join("index.html"),
        )
        .unwrap();
        fs::create_dir(linked.path().join("junit.xml")).unwrap();
        let options = ReportOptions {
            output_dir: linked.path().to_owned(),
            ..ReportOptions::default()
        };
        assert!(remove_stale_reports(&options).is_empty());
        assert_eq!(names(linked.path()), ["index.html", "junit.xml"]);
        assert!(report.path().join("index.html").is_file());
    }

    #[test]
    fn no_output_directory_is_nothing_to_remove() {
        let dir = tempfile::tempdir().unwrap();
        let options = ReportOptions {
            output_dir: dir.path().join("missing"),
            ..ReportOptions::default()
        };
        assert!(remove_stale_reports(&options).is_empty());
        assert!(!dir.path().join("missing").exists());
    }

    #[test]
    fn each_mark_reads_the_head_prettyplay_writes() {
        assert!(Mark::Html.is_on("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>prettyplay report: 2 passed, 1 failed</title>"));
        assert!(Mark::Junit.is_on("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"prettyplay\" tests=\"2\""));
        assert!(Mark::Events.is_on("{\"version\":1,\"event\":\"run_started\",\"tests\":2}\n{}"));
        assert!(
            !Mark::Events
                .is_on("{\"version\":1,\"event\":\"test_started\"}\n{\"event\":\"run_started\"}")
        );
        assert!(!Mark::Junit.is_on("<testsuites name=\"other\">"));
    }

    #[test]
    fn a_run_that_did_not_start_removes_the_reports_of_its_own_reporters_too() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        write_every_report(dir.path());
        fs::write(dir.path().join("notes.html"), "mine").expect("write");
        let options = ReportOptions {
            kinds: vec![ReporterKind::List, ReporterKind::Junit, ReporterKind::Html],
            output_dir: dir.path().to_owned(),
            ..ReportOptions::default()
        };
        let mut removed = remove_reports_of_a_run_that_did_not_start(&options);
        removed.sort();
        assert_eq!(
            removed,
            ["events.jsonl", "index.html", "junit.xml"].map(|name| dir.path().join(name))
        );
        assert!(dir.path().join("notes.html").exists());
    }
}
