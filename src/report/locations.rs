//! Where a run's report files and traces went, said at the end of the terminal report:
//! `HTML report: prettyplay-report/index.html (open with `prettyplay show-report`)`, one line
//! per file, and one per directory of traces.
//!
//! Main type: [`Locations`]. The terminal reporters (`list`, `dot`) keep one; the fan-out of
//! reporters hands it the files the file reporters wrote once they have written them.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use console::Style;

use super::details::Palette;
use super::options::DEFAULT_OUTPUT_DIR;
use super::trace_link::shell_word;
use crate::paths::normalize;
use crate::visible::Visible;

/// What a report file is, for the line that says where it went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFileKind {
    /// `index.html`, opened with `prettyplay show-report`.
    Html,
    /// `junit.xml`.
    Junit,
    /// A JSON lines event stream (`--reporter json`, `--events`).
    Events,
    /// A report blob, read by `prettyplay merge-reports`.
    Blob,
}

/// A report file a reporter wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportFile {
    pub kind: ReportFileKind,
    pub path: PathBuf,
}

impl ReportFile {
    pub fn new(kind: ReportFileKind, path: impl Into<PathBuf>) -> Self {
        Self {
            kind,
            path: path.into(),
        }
    }
}

/// The traces a run wrote and the directory paths are shown relative to.
#[derive(Debug, Default)]
pub(crate) struct Locations {
    /// The working directory; paths under it are shown relative to it, as the user typed them.
    cwd: Option<PathBuf>,
    traces: Vec<PathBuf>,
    /// Whether the run finished: a report cut short by an error says nothing of its files.
    finished: bool,
}

impl Locations {
    pub(crate) fn new(cwd: Option<PathBuf>) -> Self {
        Self {
            cwd,
            ..Self::default()
        }
    }

    pub(crate) fn trace_written(&mut self, path: &Path) {
        if !self.traces.iter().any(|p| p == path) {
            self.traces.push(path.to_owned());
        }
    }

    pub(crate) fn run_finished(&mut self) {
        self.finished = true;
    }

    /// `path` relative to the working directory when it is under it, else as it is.
    fn shown(&self, path: &Path) -> String {
        let path = normalize(path);
        let relative = self
            .cwd
            .as_deref()
            .and_then(|cwd| path.strip_prefix(normalize(cwd)).ok())
            .filter(|rel| !rel.as_os_str().is_empty());
        relative.unwrap_or(&path).display().to_string()
    }

    /// The lines that say where `files` and the traces went, after a blank line; nothing when
    /// there is nothing to say or the run did not finish.
    pub(crate) fn write(
        &self,
        out: &mut dyn Write,
        palette: Palette,
        files: &[ReportFile],
    ) -> io::Result<()> {
        if !self.finished || (files.is_empty() && self.traces.is_empty()) {
            return Ok(());
        }
        let bold = palette.style(Style::new().bold());
        let command = |text: String| palette.style(Style::new().cyan()).apply_to(text);
        writeln!(out)?;
        for file in files {
            let shown = self.shown(&file.path);
            match file.kind {
                ReportFileKind::Html => {
                    let dir = self.shown(file.path.parent().unwrap_or(Path::new(".")));
                    // `show-report` without a directory serves the default one, as
                    // `npx playwright show-report` does.
                    let open = if dir == DEFAULT_OUTPUT_DIR {
                        "prettyplay show-report".to_owned()
                    } else {
                        format!("prettyplay show-report {}", shell_word(&dir))
                    };
                    writeln!(
                        out,
                        "{} {} (open with `{}`)",
                        bold.apply_to("HTML report:"),
                        Visible(&shown),
                        command(open)
                    )?;
                }
                ReportFileKind::Junit => {
                    writeln!(
                        out,
                        "{} {}",
                        bold.apply_to("JUnit report:"),
                        Visible(&shown)
                    )?;
                }
                ReportFileKind::Events => {
                    writeln!(out, "{} {}", bold.apply_to("JSON events:"), Visible(&shown))?;
                }
                ReportFileKind::Blob => {
                    let dir = self.shown(file.path.parent().unwrap_or(Path::new(".")));
                    writeln!(
                        out,
                        "{} {} (merge the shards' blobs with `{}`)",
                        bold.apply_to("Report blob:"),
                        Visible(&shown),
                        command(format!("prettyplay merge-reports {}", shell_word(&dir)))
                    )?;
                }
            }
        }
        self.write_traces(out, palette)
    }

    /// A line per directory of traces: the trace and the command that opens it when there is
    /// one, the count and the command's shape when there are several.
    fn write_traces(&self, out: &mut dyn Write, palette: Palette) -> io::Result<()> {
        let bold = palette.style(Style::new().bold());
        let cyan = palette.style(Style::new().cyan());
        let mut dirs: Vec<(PathBuf, Vec<&PathBuf>)> = Vec::new();
        for trace in &self.traces {
            let dir = trace.parent().unwrap_or(Path::new(".")).to_owned();
            match dirs.iter_mut().find(|(d, _)| *d == dir) {
                Some((_, traces)) => traces.push(trace),
                None => dirs.push((dir, vec![trace])),
            }
        }
        for (dir, traces) in dirs {
            if let [trace] = traces[..] {
                let shown = self.shown(trace);
                writeln!(
                    out,
                    "{} {} (open with `{}`)",
                    bold.apply_to("Trace:"),
                    Visible(&shown),
                    cyan.apply_to(format!("prettyplay show-trace {}", shell_word(&shown)))
                )?;
            } else {
                writeln!(
                    out,
                    "{} {} in {}/ (open one with `{}`)",
                    bold.apply_to("Traces:"),
                    traces.len(),
                    Visible(self.shown(&dir)),
                    cyan.apply_to("prettyplay show-trace FILE")
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(locations: &Locations, files: &[ReportFile], colors: bool) -> String {
        let mut out = Vec::new();
        locations
            .write(&mut out, Palette { colors }, files)
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    fn every_file(dir: &str) -> Vec<ReportFile> {
        vec![
            ReportFile::new(ReportFileKind::Events, "/work/proj/run.jsonl"),
            ReportFile::new(ReportFileKind::Events, format!("{dir}/events.jsonl")),
            ReportFile::new(ReportFileKind::Junit, format!("{dir}/junit.xml")),
            ReportFile::new(ReportFileKind::Html, format!("{dir}/index.html")),
            ReportFile::new(
                ReportFileKind::Blob,
                format!("{dir}/blob/report-2-of-3.jsonl"),
            ),
        ]
    }

    #[test]
    fn every_file_and_trace_directory_gets_a_line_with_the_command_that_opens_it() {
        let mut locations = Locations::new(Some("/work/proj".into()));
        for name in ["a.zip", "b.zip"] {
            locations
                .trace_written(&PathBuf::from("/work/proj/prettyplay-report/traces").join(name));
        }
        locations.trace_written(Path::new("/tmp/elsewhere/c d.zip"));
        locations.run_finished();
        insta::assert_snapshot!(render(
            &locations,
            &every_file("/work/proj/prettyplay-report"),
            false
        ));
    }

    #[test]
    fn a_report_outside_the_default_directory_is_opened_by_its_directory() {
        let mut locations = Locations::new(Some("/work/proj".into()));
        locations.run_finished();
        let files = [ReportFile::new(
            ReportFileKind::Html,
            "/work/proj/build/e2e report/index.html",
        )];
        assert_eq!(
            render(&locations, &files, false),
            "\nHTML report: build/e2e report/index.html (open with `prettyplay show-report \
             'build/e2e report'`)\n"
        );
        let elsewhere = [ReportFile::new(
            ReportFileKind::Html,
            "/srv/report/index.html",
        )];
        assert_eq!(
            render(&locations, &elsewhere, false),
            "\nHTML report: /srv/report/index.html (open with `prettyplay show-report \
             /srv/report`)\n"
        );
    }

    #[test]
    fn nothing_is_said_without_files_or_traces_or_before_the_run_finished() {
        let mut locations = Locations::new(Some("/work/proj".into()));
        let files = every_file("/work/proj/prettyplay-report");
        assert_eq!(render(&locations, &files, false), "");
        locations.run_finished();
        assert_eq!(render(&locations, &[], false), "");
        locations.trace_written(Path::new("/work/proj/t.zip"));
        assert_eq!(
            render(&locations, &[], false),
            "\nTrace: t.zip (open with `prettyplay show-trace t.zip`)\n"
        );
    }

    #[test]
    fn colours_follow_the_palette() {
        let mut locations = Locations::new(None);
        locations.run_finished();
        let files = every_file("/work/proj/prettyplay-report");
        assert!(!render(&locations, &files, false).contains('\u{1b}'));
        let coloured = render(&locations, &files, true);
        assert!(
            coloured.contains("\u{1b}[1mHTML report:\u{1b}[0m"),
            "{coloured:?}"
        );
        assert!(
            coloured.contains("\u{1b}[36mprettyplay show-report"),
            "{coloured:?}"
        );
    }
}
