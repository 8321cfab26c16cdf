//! The report blob (`--reporter blob`, `docs/reports.md`): a machine-readable record of a run
//! that `prettyplay merge-reports` combines with the blobs of the other shards into one report.
//!
//! A blob is a JSON lines file. Its first line is a [`BlobHeader`]; every other line is a run
//! event exactly as the events file writes it (the same wire mapping, masked the same way), but
//! screenshots and traces are files next to the blob, named by a path relative to the blob's
//! directory, instead of inline base64 and absolute paths.
//!
//! Main type: [`BlobReporter`].

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::file_report::{with_path, write_file};
use super::json::wire_json;
use super::options::ReportOptions;
use super::reporter::Reporter;
use super::wire::EventWire;
use crate::runner::{EventKind, RunEvent, TestId, TestKind, TestOutcome};

/// The `format` of a blob's header: what tells a blob from any other JSON lines file.
pub(crate) const BLOB_FORMAT: &str = "prettyplay-blob";
/// The version of the blob format. A blob of another version is refused by `merge-reports`.
pub(crate) const BLOB_VERSION: u32 = 1;

/// The first line of a blob.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct BlobHeader {
    /// Always [`BLOB_FORMAT`].
    pub format: String,
    /// [`BLOB_VERSION`] of the prettyplay that wrote it.
    pub version: u32,
    /// The version of the prettyplay that wrote it (`0.1.0`).
    pub prettyplay: String,
    /// The events' own version ([`super::EVENTS_VERSION`]).
    pub events_version: u32,
    /// `K/N` for a shard of a sharded run, `null` otherwise.
    pub shard: Option<String>,
    /// When the run started, RFC 3339 in UTC.
    pub started_at: String,
    /// Scenario paths in the events are relative to the project root; attachment paths are
    /// relative to the blob's directory. Always `"project"`.
    pub paths: String,
    /// The setup tests (`[saves=NAME]`) the run had: each shard that needs one runs it, so they
    /// may be in several blobs.
    pub setups: Vec<SetupTest>,
}

/// A setup test of a blob's header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SetupTest {
    pub scenario: String,
    pub name: String,
    pub line: usize,
    /// The browser project it ran in; left out where it has none, and absent in the blobs of a
    /// prettyplay without browser projects, which read as `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
}

impl From<&TestId> for SetupTest {
    fn from(id: &TestId) -> Self {
        Self {
            scenario: id.scenario.clone(),
            name: id.name.clone(),
            line: id.line,
            project: id.project.clone(),
        }
    }
}

impl BlobHeader {
    /// The header of a run with `options`, starting now.
    pub(crate) fn new(options: &ReportOptions) -> Self {
        Self {
            format: BLOB_FORMAT.to_owned(),
            version: BLOB_VERSION,
            prettyplay: env!("CARGO_PKG_VERSION").to_owned(),
            events_version: super::EVENTS_VERSION,
            shard: options
                .shard
                .map(|shard| format!("{}/{}", shard.index, shard.total)),
            started_at: jiff::Timestamp::now().to_string(),
            paths: "project".to_owned(),
            setups: options.setups.iter().map(SetupTest::from).collect(),
        }
    }
}

/// The directory of a blob's attachments, relative to the blob's own: its file stem
/// (`report-1-of-3` for `report-1-of-3.jsonl`).
pub(crate) fn attachments_dir_name(blob: &Path) -> String {
    blob.file_stem()
        .map_or_else(|| "report".to_owned(), |s| s.to_string_lossy().into_owned())
}

/// Writes a report blob as the run goes: the header when created, then a line per event,
/// each flushed, so a shard that dies leaves a blob whose last line is cut (which
/// `merge-reports` says).
pub(crate) struct BlobReporter {
    out: BufWriter<File>,
    /// The blob's directory: attachment paths are relative to it.
    dir: PathBuf,
    /// The attachments' directory, relative to `dir`.
    attachments: String,
    screenshots: usize,
}

impl BlobReporter {
    /// Creates the blob at `path` (and its directory), removes a previous run's attachments
    /// beside it, and writes `header`.
    pub(crate) fn create(path: &Path, header: &BlobHeader) -> io::Result<Self> {
        let dir = path
            .parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        fs::create_dir_all(&dir).map_err(|err| with_path(err, "cannot create directory", &dir))?;
        let attachments = attachments_dir_name(path);
        let old = dir.join(&attachments);
        if old.is_dir() {
            fs::remove_dir_all(&old).map_err(|err| with_path(err, "cannot remove", &old))?;
        }
        let file = File::create(path).map_err(|err| with_path(err, "cannot create", path))?;
        let mut out = BufWriter::new(file);
        let header = serde_json::to_string(header).map_err(io::Error::other)?;
        writeln!(out, "{header}")?;
        out.flush()?;
        Ok(Self {
            out,
            dir,
            attachments,
            screenshots: 0,
        })
    }

    /// Writes `png` as the next screenshot; answers its path relative to the blob's directory.
    fn write_screenshot(&mut self, png: &[u8]) -> io::Result<String> {
        self.screenshots += 1;
        let reference = format!("{}/screenshots/{}.png", self.attachments, self.screenshots);
        write_file(&self.dir.join(&reference), png)?;
        Ok(reference)
    }

    /// Copies the trace at `path` next to the blob; answers its path relative to the blob's
    /// directory.
    fn copy_trace(&self, path: &Path) -> io::Result<PathBuf> {
        let name = path
            .file_name()
            .map_or_else(|| "trace.zip".into(), |n| n.to_string_lossy().into_owned());
        let reference = PathBuf::from(&self.attachments).join("traces").join(name);
        let target = self.dir.join(&reference);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent)
                .map_err(|err| with_path(err, "cannot create directory", parent))?;
        }
        fs::copy(path, &target).map_err(|err| with_path(err, "cannot copy the trace", path))?;
        Ok(reference)
    }
}

/// The screenshot of the failure an event carries, if any.
pub(super) fn screenshot_of(event: &RunEvent) -> Option<&[u8]> {
    let failure = match &event.kind {
        EventKind::Test(_, TestKind::Retry(retry)) => &retry.failure,
        EventKind::Test(_, TestKind::Finished(finished)) => match &finished.outcome {
            TestOutcome::Failed(failure) => failure,
            _ => return None,
        },
        _ => return None,
    };
    failure.screenshot.as_deref()
}

impl Reporter for BlobReporter {
    fn handle(&mut self, event: &RunEvent) -> io::Result<()> {
        let screenshot = screenshot_of(event)
            .map(|png| self.write_screenshot(png))
            .transpose()?;
        let trace = match &event.kind {
            EventKind::Test(_, TestKind::TraceWritten(trace)) => {
                Some(self.copy_trace(&trace.path)?)
            }
            _ => None,
        };
        let mut wire = EventWire::from(event);
        if let (Some(reference), Some(failure)) = (screenshot, wire.failure_mut()) {
            failure.refer_screenshot(reference);
        }
        if let (Some(reference), Some(path)) = (trace.as_deref(), wire.trace_path_mut()) {
            *path = reference;
        }
        writeln!(self.out, "{}", wire_json(wire))?;
        self.out.flush()
    }

    fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing;
    use crate::runner::Shard;

    #[test]
    fn a_blob_is_a_header_then_the_events_with_screenshots_and_traces_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("traces/a-t.zip");
        write_file(&trace, b"zip").unwrap();
        let options = ReportOptions {
            output_dir: dir.path().join("out"),
            shard: Some(Shard { index: 2, total: 3 }),
            setups: vec![testing::id("scenarios/auth.steps", "sign in", 1)],
            ..ReportOptions::default()
        };
        let path = options.blob_file();
        // A previous run's attachments go.
        write_file(
            &dir.path().join("out/blob/report-2-of-3/screenshots/9.png"),
            b"",
        )
        .unwrap();
        let mut blob = BlobReporter::create(&path, &BlobHeader::new(&options)).unwrap();
        let mut events = testing::events();
        events.insert(
            1,
            RunEvent::of_test(
                testing::id("scenarios/todo.steps", "add a todo", 2),
                crate::runner::TraceWritten { path: trace },
            ),
        );
        testing::feed(&mut blob, &events);

        let text = fs::read_to_string(&path).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), events.len() + 1);
        let header: BlobHeader = serde_json::from_value(lines[0].clone()).unwrap();
        assert_eq!(
            (
                header.format.as_str(),
                header.version,
                header.shard.as_deref()
            ),
            (BLOB_FORMAT, BLOB_VERSION, Some("2/3"))
        );
        assert_eq!(header.setups[0].name, "sign in");
        assert!(header.started_at.parse::<jiff::Timestamp>().is_ok());
        assert_eq!(lines[2]["path"], "report-2-of-3/traces/a-t.zip");
        let failed = &lines[lines.len() - 2]["outcome"];
        assert_eq!(failed["screenshot"], "report-2-of-3/screenshots/1.png");
        assert!(failed.get("screenshot_png_base64").is_none(), "{failed}");
        let blob_dir = dir.path().join("out/blob");
        assert_eq!(
            fs::read(blob_dir.join("report-2-of-3/screenshots/1.png")).unwrap(),
            testing::PNG
        );
        assert_eq!(
            fs::read(blob_dir.join("report-2-of-3/traces/a-t.zip")).unwrap(),
            b"zip"
        );
        assert!(!blob_dir.join("report-2-of-3/screenshots/9.png").exists());
        // Each event line is the events file's line but for the references.
        assert!(
            text.lines()
                .nth(1)
                .unwrap()
                .starts_with("{\"version\":1,\"event\":\"run_started\"")
        );
    }

    #[test]
    fn a_setup_test_keeps_its_project_and_one_without_reads_as_before() {
        let firefox = testing::id("scenarios/auth.steps", "sign in", 1).in_project(Some("firefox"));
        let json = serde_json::to_string(&SetupTest::from(&firefox)).unwrap();
        assert_eq!(
            json,
            r#"{"scenario":"scenarios/auth.steps","name":"sign in","line":1,"project":"firefox"}"#
        );
        let plain = testing::id("scenarios/auth.steps", "sign in", 1);
        let old = r#"{"scenario":"scenarios/auth.steps","name":"sign in","line":1}"#;
        assert_eq!(
            serde_json::to_string(&SetupTest::from(&plain)).unwrap(),
            old
        );
        let read: SetupTest = serde_json::from_str(old).unwrap();
        assert_eq!(read, SetupTest::from(&plain));
        assert_ne!(read, SetupTest::from(&firefox));
    }
}
