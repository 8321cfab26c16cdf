//! The file reports rendered once the run has finished (`junit.xml`, `index.html`), and how a
//! report file is written: its directory created, an error naming the path.
//!
//! Main type: [`FileReport`].

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::record::RunRecord;
use super::reporter::Reporter;
use crate::runner::RunEvent;

/// A report file rendered from the whole run when it finishes (`junit.xml`, `index.html`):
/// it gathers the run's events into a [`RunRecord`] and renders it once.
pub(crate) struct FileReport {
    path: PathBuf,
    record: RunRecord,
    /// Renders the report from the run and the directory it is written in.
    render: fn(&RunRecord, &Path) -> String,
}

impl FileReport {
    /// The JUnit XML report, written to `path` (its directory is created when needed).
    pub(crate) fn junit(path: PathBuf) -> Self {
        Self::new(path, |record, _| super::junit::render(record))
    }

    /// The self-contained HTML report, written to `path`.
    pub(crate) fn html(path: PathBuf) -> Self {
        Self::new(path, super::html::render)
    }

    fn new(path: PathBuf, render: fn(&RunRecord, &Path) -> String) -> Self {
        Self {
            path,
            record: RunRecord::default(),
            render,
        }
    }
}

impl Reporter for FileReport {
    fn handle(&mut self, event: &RunEvent) -> io::Result<()> {
        self.record.observe(event);
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        let dir = self.path.parent().unwrap_or(Path::new(""));
        write_file(&self.path, (self.render)(&self.record, dir).as_bytes())
    }
}

/// `err` with a message that names `path`, keeping its kind.
pub(crate) fn with_path(err: io::Error, what: &str, path: &Path) -> io::Error {
    io::Error::new(err.kind(), format!("{what} {}: {err}", path.display()))
}

/// Writes `content` to `path`, creating its directory; the error names the path.
pub(crate) fn write_file(path: &Path, content: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|err| with_path(err, "cannot create directory", dir))?;
    }
    fs::write(path, content).map_err(|err| with_path(err, "cannot write", path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_file_gets_its_directory_and_an_error_names_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report/nested/junit.xml");
        write_file(&path, b"<testsuites/>").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "<testsuites/>");

        let blocked = dir.path().join("report/nested/junit.xml/index.html");
        let err = write_file(&blocked, b"").unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("cannot create directory {}", path.display())),
            "{err}"
        );
    }
}
