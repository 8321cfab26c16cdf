//! Reading a report blob back (`merge-reports`): its header checked, every line turned into a
//! [`RunEvent`], screenshots read from the files the lines name. Nothing is skipped: a line that
//! cannot be read, a blob cut short or one that never says its run finished is an error that
//! names the file and the line.
//!
//! Blobs come from other jobs' artifacts, so they are untrusted input. The blob is opened
//! without following a symbolic link and read only if it is a regular file within
//! [`MAX_BLOB_BYTES`] (a blob the user names as a link is resolved by
//! [`super::merge::find_blobs`] first). A file a line names (a screenshot, a trace)
//! must be a relative path inside the blob's directory that stays inside it once its symbolic
//! links are resolved; it is opened without following a link and must be a regular file within
//! [`super::wire_read_outcome::MAX_SCREENSHOT_BYTES`] or [`MAX_TRACE_BYTES`]. Each of these is an error
//! naming the blob, the line and the file, rather than a skipped attachment, because a link to
//! `/dev/zero` or to a file outside the artifact is a tampered blob, not a lost screenshot.
//!
//! Screenshots are held in memory until the reports are written, and a blob may name one file
//! many times, so the screenshots of all the blobs of a merge are bounded together too, by a
//! [`ScreenshotBudget`] of [`MAX_SCREENSHOTS_TOTAL_BYTES`].
//!
//! Main function: [`read_blob`]; its errors are [`MergeError`]s.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use super::blob::{BLOB_FORMAT, BLOB_VERSION, BlobHeader, screenshot_of};
use super::wire_error::{AttachmentError, WireError};
use super::wire_read::parse_event;
use crate::regular_file::{MIB, human, read_regular_nofollow_to_string};
use crate::runner::{EventKind, RunEvent, RunKind};

/// The largest blob read: far above the events of thousands of tests, far below a runaway read.
pub(crate) const MAX_BLOB_BYTES: u64 = 256 * MIB;
/// The largest trace copied from a blob's directory. Traces are copied, not held in memory, so
/// the bound is about the disk of the merging job.
pub(crate) const MAX_TRACE_BYTES: u64 = 1024 * MIB;

/// The most screenshot bytes one merge holds, all blobs together: thousands of full-page
/// screenshots, and what an HTML report that embeds them all can still be opened with.
pub(crate) const MAX_SCREENSHOTS_TOTAL_BYTES: u64 = 1024 * MIB;

/// What is left of the screenshot bytes one merge may hold (see the module's comment).
#[derive(Debug)]
pub(crate) struct ScreenshotBudget {
    limit: u64,
    left: u64,
}

impl ScreenshotBudget {
    /// The budget of a merge: [`MAX_SCREENSHOTS_TOTAL_BYTES`].
    pub(crate) fn new() -> Self {
        Self::of(MAX_SCREENSHOTS_TOTAL_BYTES)
    }

    fn of(limit: u64) -> Self {
        Self { limit, left: limit }
    }

    /// Takes `bytes` from what is left, or says why there is not that much left.
    fn spend(&mut self, bytes: u64) -> Result<(), LineError> {
        self.left = self
            .left
            .checked_sub(bytes)
            .ok_or(LineError::OverBudget { limit: self.limit })?;
        Ok(())
    }
}

/// Why a line of a blob cannot be merged: it is not an event this prettyplay reads, or the
/// screenshots it names are over the merge's budget. Said after the blob's file and line.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LineError {
    #[error(transparent)]
    Wire(#[from] WireError),
    #[error(
        "the screenshots the blobs name add up to more than {}, the most merge-reports holds: a \
         blob that names one screenshot many times, or huge ones, was not written by a shard; \
         merge the blobs the shards wrote",
        human(*limit)
    )]
    OverBudget { limit: u64 },
}

/// Why `merge-reports` could not merge: the file and line are in every message.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MergeError {
    #[error(
        "no report blobs (*.jsonl) in {0}: run the shards with `--reporter blob` and pass the \
         directories their `prettyplay-report/blob/` artifacts were put in"
    )]
    NoBlobs(String),
    #[error("cannot read {}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{}:1: not a prettyplay report blob: {reason}", .path.display())]
    NotABlob { path: PathBuf, reason: String },
    #[error(
        "{}:1: a report blob of format version {found} (written by prettyplay {prettyplay}); \
         this prettyplay ({ours}) reads version {BLOB_VERSION}: write and merge the blobs with \
         the same prettyplay version",
        .path.display(),
        ours = env!("CARGO_PKG_VERSION")
    )]
    Version {
        path: PathBuf,
        found: u64,
        prettyplay: String,
    },
    /// The reason is said in the message, after the file and the line, rather than as a
    /// cause, because it is what is wrong with that line.
    #[error("{}:{line}: {reason}", .path.display())]
    BadLine {
        path: PathBuf,
        line: usize,
        reason: LineError,
    },
    #[error(
        "{}:{line}: the blob is truncated: its last line is cut short (the run that wrote it \
         stopped while writing); run that shard again",
        .path.display()
    )]
    Truncated { path: PathBuf, line: usize },
    #[error(
        "{}:{line}: the blob ends before `run_finished`: the run that wrote it did not finish; \
         run that shard again",
        .path.display()
    )]
    Unfinished { path: PathBuf, line: usize },
    #[error(
        "test `{test}` is in two blobs, {first} and {second}: a test must be in one shard only \
         (merge the blobs of one sharded run, each shard once)"
    )]
    Duplicate {
        test: String,
        first: String,
        second: String,
    },
    #[error(
        "{}:{line}: cannot copy the trace {} into the merged report",
        .blob.display(),
        .path.display()
    )]
    Trace {
        blob: PathBuf,
        line: usize,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// A blob, read: its header and its events, each with its 1-based line in the file.
#[derive(Debug)]
pub(crate) struct Blob {
    pub path: PathBuf,
    pub header: BlobHeader,
    pub events: Vec<(usize, RunEvent)>,
}

/// Reads the blob at `path`, its screenshots taken from `budget`: see the module's comment for
/// what is an error.
pub(crate) fn read_blob(path: &Path, budget: &mut ScreenshotBudget) -> Result<Blob, MergeError> {
    let text = read_regular_nofollow_to_string(path, MAX_BLOB_BYTES, "report blobs").map_err(
        |source| MergeError::Read {
            path: path.to_path_buf(),
            source,
        },
    )?;
    let not_a_blob = |reason: &str| MergeError::NotABlob {
        path: path.to_path_buf(),
        reason: reason.to_owned(),
    };
    let mut lines = text.split_inclusive('\n').enumerate();
    let Some((_, first)) = lines.next() else {
        return Err(not_a_blob("the file is empty"));
    };
    let header = read_header(path, first.trim_end_matches('\n'))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let resolve = |reference: &str| attachment(dir, reference);
    let mut events = Vec::new();
    let mut last = 1;
    for (at, line) in lines {
        let number = at + 1;
        last = number;
        let Some(line) = line.strip_suffix('\n') else {
            return Err(MergeError::Truncated {
                path: path.to_path_buf(),
                line: number,
            });
        };
        let bad_line = |reason| MergeError::BadLine {
            path: path.to_path_buf(),
            line: number,
            reason,
        };
        let event = parse_event(line, &resolve).map_err(|err| bad_line(err.into()))?;
        // A newer prettyplay's event this one does not know is skipped.
        if let Some(event) = event {
            if let Some(png) = screenshot_of(&event) {
                budget.spend(png.len() as u64).map_err(bad_line)?;
            }
            events.push((number, event));
        }
    }
    if !first.ends_with('\n') {
        return Err(MergeError::Truncated {
            path: path.to_path_buf(),
            line: 1,
        });
    }
    if !matches!(events.last(), Some((_, event)) if matches!(event.kind, EventKind::Run(RunKind::Finished(_))))
    {
        return Err(MergeError::Unfinished {
            path: path.to_path_buf(),
            line: last,
        });
    }
    Ok(Blob {
        path: path.to_path_buf(),
        header,
        events,
    })
}

/// The header of the blob at `path`, from its first line.
fn read_header(path: &Path, line: &str) -> Result<BlobHeader, MergeError> {
    let not_a_blob = |reason: String| MergeError::NotABlob {
        path: path.to_path_buf(),
        reason,
    };
    let value: serde_json::Value = serde_json::from_str(line)
        .map_err(|err| not_a_blob(format!("its first line is not JSON ({err})")))?;
    if value.get("format").and_then(serde_json::Value::as_str) != Some(BLOB_FORMAT) {
        return Err(not_a_blob(format!(
            "its first line is not a blob header (`\"format\":\"{BLOB_FORMAT}\"`); an events \
             file (`--events`, `--reporter json`) cannot be merged, a blob \
             (`--reporter blob`) can"
        )));
    }
    let found = value.get("version").and_then(serde_json::Value::as_u64);
    if found != Some(u64::from(BLOB_VERSION)) {
        return Err(MergeError::Version {
            path: path.to_path_buf(),
            found: found.unwrap_or(0),
            prettyplay: value
                .get("prettyplay")
                .and_then(serde_json::Value::as_str)
                .unwrap_or("unknown")
                .to_owned(),
        });
    }
    serde_json::from_value(value).map_err(|err| not_a_blob(format!("a bad header: {err}")))
}

/// The file a blob's line names, with its symbolic links resolved: a relative path inside the
/// blob's directory (`..` and absolute paths are refused, and so is a path whose links lead out
/// of the directory, so a blob cannot make the report read or publish other files).
fn attachment(dir: &Path, reference: &str) -> Result<PathBuf, AttachmentError> {
    let path = Path::new(reference);
    if path
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(AttachmentError::Outside(reference.to_owned()));
    }
    let joined = dir.join(path);
    let resolve = |path: &Path| {
        fs::canonicalize(path).map_err(|error| AttachmentError::Unreadable {
            path: joined.clone(),
            error,
        })
    };
    let (root, resolved) = (resolve(dir)?, resolve(&joined)?);
    if !resolved.starts_with(&root) {
        return Err(AttachmentError::LinkOutside {
            path: joined,
            target: resolved,
        });
    }
    Ok(resolved)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::blob::BlobReporter;
    use crate::report::{ReportOptions, testing};

    /// A blob of the fixture run in `dir`: its path.
    fn blob(dir: &Path) -> PathBuf {
        let options = ReportOptions {
            output_dir: dir.to_path_buf(),
            ..ReportOptions::default()
        };
        let path = options.blob_file();
        let mut blob = BlobReporter::create(&path, &BlobHeader::new(&options)).unwrap();
        testing::feed(&mut blob, &testing::events());
        path
    }

    fn read(path: &Path) -> Result<Blob, MergeError> {
        read_blob(path, &mut ScreenshotBudget::new())
    }

    fn error(path: &Path) -> String {
        read(path).unwrap_err().to_string()
    }

    #[test]
    fn a_blob_reads_back_as_the_events_that_wrote_it() {
        let dir = tempfile::tempdir().unwrap();
        let blob = read(&blob(dir.path())).unwrap();
        let events: Vec<RunEvent> = blob.events.into_iter().map(|(_, e)| e).collect();
        assert_eq!(events, testing::events());
        assert_eq!(blob.header.shard, None);
    }

    /// A blob of the fixture run written by a prettyplay whose events carried no time
    /// (`fixtures/blob-without-time.jsonl`), with its screenshot beside it, under `dir`.
    pub(crate) fn blob_without_time(dir: &Path) -> PathBuf {
        let path = dir.join("blob/report.jsonl");
        let screenshot = dir.join("blob/report/screenshots/1.png");
        fs::create_dir_all(screenshot.parent().unwrap()).unwrap();
        fs::write(&screenshot, testing::PNG).unwrap();
        fs::write(&path, include_str!("fixtures/blob-without-time.jsonl")).unwrap();
        path
    }

    #[test]
    fn a_blob_written_before_events_carried_their_time_reads_as_the_events_it_holds() {
        let dir = tempfile::tempdir().unwrap();
        let blob = read(&blob_without_time(dir.path())).unwrap();
        let events: Vec<RunEvent> = blob.events.into_iter().map(|(_, e)| e).collect();
        assert_eq!(events, testing::events());
        assert!(events.iter().all(|event| event.time.is_none()));
    }

    #[test]
    fn a_blob_of_stamped_events_reads_back_with_their_times() {
        let dir = tempfile::tempdir().unwrap();
        let options = ReportOptions {
            output_dir: dir.path().to_path_buf(),
            ..ReportOptions::default()
        };
        let path = options.blob_file();
        let mut writer = BlobReporter::create(&path, &BlobHeader::new(&options)).unwrap();
        let events = testing::stamped(testing::events());
        testing::feed(&mut writer, &events);
        let read: Vec<RunEvent> = read(&path)
            .unwrap()
            .events
            .into_iter()
            .map(|(_, e)| e)
            .collect();
        assert_eq!(read, events);
    }

    #[test]
    fn a_blob_of_a_browser_project_reads_back_with_the_project() {
        let dir = tempfile::tempdir().unwrap();
        let options = ReportOptions {
            output_dir: dir.path().to_path_buf(),
            setups: vec![
                testing::id("scenarios/auth.steps", "sign in", 1).in_project(Some("firefox")),
            ],
            ..ReportOptions::default()
        };
        let path = options.blob_file();
        let mut writer = BlobReporter::create(&path, &BlobHeader::new(&options)).unwrap();
        let events = testing::in_project(&testing::events(), "firefox");
        testing::feed(&mut writer, &events);
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains(r#""project":"firefox""#), "{text}");
        let blob = read(&path).unwrap();
        let read: Vec<RunEvent> = blob.events.into_iter().map(|(_, e)| e).collect();
        assert_eq!(read, events);
        assert_eq!(blob.header.setups[0].project.as_deref(), Some("firefox"));
    }

    #[test]
    fn a_blob_without_projects_has_no_project_fields() {
        let dir = tempfile::tempdir().unwrap();
        let text = fs::read_to_string(blob(dir.path())).unwrap();
        assert!(!text.contains("project\":"), "{text}");
    }

    #[test]
    fn a_truncated_or_unfinished_blob_is_said_with_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = blob(dir.path());
        let text = fs::read_to_string(&path).unwrap();
        let lines = text.lines().count();
        fs::write(&path, &text[..text.len() - 10]).unwrap();
        let err = error(&path);
        assert_eq!(
            err,
            format!(
                "{}:{lines}: the blob is truncated: its last line is cut short (the run that \
                 wrote it stopped while writing); run that shard again",
                path.display()
            )
        );
        let without_last: String = text
            .lines()
            .take(lines - 1)
            .map(|l| format!("{l}\n"))
            .collect();
        fs::write(&path, without_last).unwrap();
        let err = error(&path);
        assert!(
            err.starts_with(&format!(
                "{}:{}: the blob ends before `run_finished`",
                path.display(),
                lines - 1
            )),
            "{err}"
        );
    }

    #[test]
    fn other_files_and_versions_are_refused_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.jsonl");
        fs::write(&path, "").unwrap();
        assert!(
            error(&path).ends_with("x.jsonl:1: not a prettyplay report blob: the file is empty")
        );
        fs::write(
            &path,
            "{\"version\":1,\"event\":\"run_started\",\"tests\":1}\n",
        )
        .unwrap();
        assert!(
            error(&path).contains("not a blob header"),
            "{}",
            error(&path)
        );
        fs::write(&path, "<xml/>\n").unwrap();
        assert!(error(&path).contains("its first line is not JSON"));
        fs::write(
            &path,
            "{\"format\":\"prettyplay-blob\",\"version\":7,\"prettyplay\":\"9.0.0\"}\n",
        )
        .unwrap();
        let err = error(&path);
        assert!(
            err.contains(
                "x.jsonl:1: a report blob of format version 7 (written by prettyplay 9.0.0)"
            ),
            "{err}"
        );
        let good = blob(dir.path());
        let text = fs::read_to_string(&good).unwrap();
        let broken = text.replacen(
            "\"event\":\"test_started\",\"test\"",
            "\"event\":\"test_started\",\"tst\"",
            1,
        );
        fs::write(&good, &broken).unwrap();
        let err = error(&good);
        assert!(
            err.contains("report.jsonl:3: not an event: missing field `test`"),
            "{err}"
        );
        // An event kind this prettyplay does not know (a newer one's) is skipped.
        let newer = text.replacen(
            "\"event\":\"test_started\"",
            "\"event\":\"test_paused\",\"was\":\"test_started\"",
            1,
        );
        fs::write(&good, newer).unwrap();
        let newer = read(&good).unwrap();
        assert_eq!(newer.events.len(), testing::events().len() - 1);
        assert!(newer.events.iter().all(|(line, _)| *line != 3));
    }

    #[test]
    fn the_screenshots_of_a_merge_are_bounded_together() {
        let dir = tempfile::tempdir().unwrap();
        let path = blob(dir.path());
        let png = testing::PNG.len() as u64;
        // The fixture has one screenshot: a budget of one reads one blob, not two.
        let mut budget = ScreenshotBudget::of(png);
        read_blob(&path, &mut budget).unwrap();
        let err = read_blob(&path, &mut budget).unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "report.jsonl:{}: the screenshots the blobs name add up to more than {png} bytes",
                screenshot_line(&path)
            )),
            "{err}"
        );
        let mut bigger = ScreenshotBudget::of(2 * png);
        read_blob(&path, &mut bigger).unwrap();
        read_blob(&path, &mut bigger).unwrap();
    }

    /// The line of the blob at `path` that names a screenshot.
    fn screenshot_line(path: &Path) -> usize {
        let text = fs::read_to_string(path).unwrap();
        1 + text
            .lines()
            .position(|line| line.contains("\"screenshot\":\""))
            .unwrap()
    }

    #[test]
    fn attachments_stay_inside_the_blobs_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = &tmp.path().join("blobs");
        fs::create_dir_all(dir.join("r")).unwrap();
        fs::write(dir.join("r/1.png"), "png").unwrap();
        fs::write(tmp.path().join("secret"), "secret").unwrap();
        let root = fs::canonicalize(dir).unwrap();
        assert_eq!(attachment(dir, "r/1.png").unwrap(), root.join("r/1.png"));
        assert!(attachment(dir, "../secret").is_err());
        assert!(attachment(dir, "/etc/passwd").is_err());
        // A link inside the directory to a file inside it is followed; one out of it is not.
        std::os::unix::fs::symlink("1.png", dir.join("r/2.png")).unwrap();
        assert_eq!(attachment(dir, "r/2.png").unwrap(), root.join("r/1.png"));
        std::os::unix::fs::symlink("../../secret", dir.join("r/3.png")).unwrap();
        std::os::unix::fs::symlink(tmp.path(), dir.join("out")).unwrap();
        for reference in ["r/3.png", "out/secret"] {
            let err = attachment(dir, reference).unwrap_err().to_string();
            assert!(
                err.contains("is a symbolic link that leads outside the blob's directory"),
                "{err}"
            );
        }
        let err = attachment(dir, "r/9.png").unwrap_err().to_string();
        assert!(err.starts_with("cannot read the attachment "), "{err}");
    }
}
