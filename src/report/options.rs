//! What reports a run writes: [`ReportOptions`] (from `--reporter`, `--output`, `--events`) and
//! the [`ReporterKind`]s it names.
//!
//! Main type: [`ReportOptions`].

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use super::eta::EtaBasis;
use crate::runner::{Shard, TestId};

/// The default directory of file reports (`--output`).
pub(crate) const DEFAULT_OUTPUT_DIR: &str = "prettyplay-report";

/// One `--reporter` value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReporterKind {
    /// A line per test on the terminal, failure details and a summary (the default).
    List,
    /// A character per test on the terminal, then failure details and the summary.
    Dot,
    /// The JSON lines event stream, written to `<output>/events.jsonl`.
    Json,
    /// JUnit XML, written to `<output>/junit.xml`.
    Junit,
    /// A self-contained HTML report, written to `<output>/index.html`.
    Html,
    /// A machine-readable report blob for `merge-reports`, written to
    /// `<output>/blob/report[-K-of-N].jsonl` with its attachments beside it.
    Blob,
}

impl ReporterKind {
    /// Every kind, in the order `--help` and error messages list them.
    pub const ALL: [ReporterKind; 6] = [
        ReporterKind::List,
        ReporterKind::Dot,
        ReporterKind::Json,
        ReporterKind::Junit,
        ReporterKind::Html,
        ReporterKind::Blob,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ReporterKind::List => "list",
            ReporterKind::Dot => "dot",
            ReporterKind::Json => "json",
            ReporterKind::Junit => "junit",
            ReporterKind::Html => "html",
            ReporterKind::Blob => "blob",
        }
    }

    /// Whether the reporter writes to the terminal (stdout) rather than to a file.
    pub fn is_terminal(self) -> bool {
        matches!(self, ReporterKind::List | ReporterKind::Dot)
    }
}

impl fmt::Display for ReporterKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ReporterKind {
    /// `unknown reporter "xml": expected one of list, dot, json, junit, html`.
    type Err = String;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        ReporterKind::ALL
            .into_iter()
            .find(|kind| kind.as_str().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                let valid: Vec<&str> = ReporterKind::ALL.iter().map(|k| k.as_str()).collect();
                format!(
                    "unknown reporter {name:?}: expected one of {}",
                    valid.join(", ")
                )
            })
    }
}

/// Which reports a run writes, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportOptions {
    /// `--reporter` values, in order. Empty means `list`. Without `list` or `dot`, `list` still
    /// reports on the terminal: file reports never silence it.
    pub kinds: Vec<ReporterKind>,
    /// Where `json`, `junit` and `html` write their files (`--output`); created when needed.
    pub output_dir: PathBuf,
    /// Also write the JSON lines event stream to this file (`--events`).
    pub events_file: Option<PathBuf>,
    /// The shard this run is (`--shard K/N`): the report blob says so and is named after it.
    pub shard: Option<Shard>,
    /// The setup tests (`[saves=NAME]`) of the run: the report blob lists them, since every
    /// shard whose tests need one runs it.
    pub setups: Vec<TestId>,
    /// The working directory: the terminal names report files and traces under it by their
    /// path relative to it. `None` names them as they are.
    pub cwd: Option<PathBuf>,
    /// What the progress bar's ETA is estimated from.
    pub eta: EtaBasis,
}

impl Default for ReportOptions {
    fn default() -> Self {
        Self {
            kinds: vec![ReporterKind::List],
            output_dir: PathBuf::from(DEFAULT_OUTPUT_DIR),
            events_file: None,
            shard: None,
            setups: Vec::new(),
            cwd: None,
            eta: EtaBasis::default(),
        }
    }
}

impl ReportOptions {
    pub fn has(&self, kind: ReporterKind) -> bool {
        self.kinds.contains(&kind)
    }

    /// The terminal reporter: `dot` when asked for, else `list`.
    pub fn terminal_kind(&self) -> ReporterKind {
        if self.has(ReporterKind::Dot) && !self.has(ReporterKind::List) {
            ReporterKind::Dot
        } else {
            ReporterKind::List
        }
    }

    /// The report blob: `<output>/blob/report.jsonl`, or `report-K-of-N.jsonl` for a shard, so
    /// that the blobs of the shards of a run never collide.
    pub fn blob_file(&self) -> PathBuf {
        let name = match self.shard {
            Some(shard) => format!("report-{}-of-{}.jsonl", shard.index, shard.total),
            None => "report.jsonl".to_owned(),
        };
        self.output_dir.join("blob").join(name)
    }

    /// The files this run writes, in the order they are written.
    pub fn files(&self) -> Vec<PathBuf> {
        let mut files = Vec::new();
        if let Some(events) = &self.events_file {
            files.push(events.clone());
        }
        for (kind, path) in [
            (ReporterKind::Json, self.output_dir.join("events.jsonl")),
            (ReporterKind::Junit, self.output_dir.join("junit.xml")),
            (ReporterKind::Html, self.output_dir.join("index.html")),
            (ReporterKind::Blob, self.blob_file()),
        ] {
            if self.has(kind) && !files.contains(&path) {
                files.push(path);
            }
        }
        files
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_parse_case_insensitively_and_unknown_names_list_the_valid_ones() {
        assert_eq!("junit".parse(), Ok(ReporterKind::Junit));
        assert_eq!("HTML".parse(), Ok(ReporterKind::Html));
        let err = "xml".parse::<ReporterKind>().unwrap_err();
        assert_eq!(
            err,
            "unknown reporter \"xml\": expected one of list, dot, json, junit, html, blob"
        );
        for kind in ReporterKind::ALL {
            assert_eq!(kind.as_str().parse(), Ok(kind));
        }
    }

    #[test]
    fn files_follow_the_kinds_and_the_events_file() {
        let options = ReportOptions {
            kinds: vec![
                ReporterKind::Dot,
                ReporterKind::Html,
                ReporterKind::Json,
                ReporterKind::Blob,
            ],
            output_dir: PathBuf::from("out"),
            events_file: Some(PathBuf::from("run.jsonl")),
            shard: Some(Shard { index: 2, total: 3 }),
            setups: Vec::new(),
            cwd: None,
            eta: EtaBasis::default(),
        };
        assert_eq!(options.terminal_kind(), ReporterKind::Dot);
        assert_eq!(
            options.files(),
            [
                PathBuf::from("run.jsonl"),
                PathBuf::from("out/events.jsonl"),
                PathBuf::from("out/index.html"),
                PathBuf::from("out/blob/report-2-of-3.jsonl"),
            ]
        );
        assert_eq!(ReportOptions::default().terminal_kind(), ReporterKind::List);
        assert!(ReportOptions::default().files().is_empty());
    }
}
