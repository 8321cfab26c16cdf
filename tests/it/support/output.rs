//! [`Output`]: what one run of `prettyplay` printed and returned, with fluent assertions.
//!
//! Every failed assertion prints the command and both streams in full, so a failure explains
//! itself without a rerun.

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;
use std::process::ExitStatus;

use regex::Regex;
use tempfile::TempDir;

use super::test::KEEP_ENV;

/// The result of [`super::Test::run`]. It owns the temporary project, which lives as long as it.
pub(crate) struct Output {
    command: String,
    status: ExitStatus,
    stdout: String,
    stderr: String,
    dir: TempDir,
}

impl Output {
    pub(super) fn new(
        command: String,
        status: ExitStatus,
        stdout: String,
        stderr: String,
        dir: TempDir,
    ) -> Self {
        Self {
            command,
            status,
            stdout,
            stderr,
            dir,
        }
    }

    /// The exit code, `None` when a signal ended the run.
    pub(crate) fn status_code(&self) -> Option<i32> {
        self.status.code()
    }

    pub(crate) fn stdout(&self) -> &str {
        &self.stdout
    }

    pub(crate) fn stderr(&self) -> &str {
        &self.stderr
    }

    /// Another run in this run's project (its reports and all).
    pub(crate) fn again(self) -> super::Test {
        super::Test::in_dir(self.dir)
    }

    /// The project directory the run used as working directory.
    pub(crate) fn project_dir(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    /// The content of a project file, `path` relative to the project directory.
    #[track_caller]
    /// The events of a JSON-lines file the run wrote (`--events`, the json reporter's
    /// `events.jsonl`), `path` relative to the project.
    pub(crate) fn events(&self, path: &str) -> Vec<serde_json::Value> {
        self.read(path)
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }

    pub(crate) fn read(&self, path: &str) -> String {
        let full = self.project_dir().join(path);
        fs::read_to_string(&full)
            .unwrap_or_else(|e| self.fail(&format!("cannot read {}: {e}", full.display())))
    }

    /// Whether a project file exists, `path` relative to the project directory.
    pub(crate) fn exists(&self, path: &str) -> bool {
        self.project_dir().join(path).exists()
    }

    #[track_caller]
    pub(crate) fn assert_exit(self, code: i32) -> Self {
        if self.status.code() != Some(code) {
            self.fail(&format!("expected exit code {code}, got {}", self.status));
        }
        self
    }

    /// Fails unless `signal` ended the run (it had no exit code of its own).
    #[track_caller]
    pub(crate) fn assert_killed_by(self, signal: i32) -> Self {
        if std::os::unix::process::ExitStatusExt::signal(&self.status) != Some(signal) {
            self.fail(&format!(
                "expected signal {signal} to end it, got {}",
                self.status
            ));
        }
        self
    }

    #[track_caller]
    pub(crate) fn stdout_contains(self, needle: &str) -> Self {
        if !self.stdout.contains(needle) {
            self.fail(&format!("stdout does not contain {needle:?}"));
        }
        self
    }

    #[track_caller]
    pub(crate) fn stderr_contains(self, needle: &str) -> Self {
        if !self.stderr.contains(needle) {
            self.fail(&format!("stderr does not contain {needle:?}"));
        }
        self
    }

    /// One line of stdout is exactly `line` (ignoring trailing whitespace).
    #[track_caller]
    pub(crate) fn stdout_line(self, line: &str) -> Self {
        if !self.stdout.lines().any(|l| l.trim_end() == line) {
            self.fail(&format!("no line of stdout is exactly {line:?}"));
        }
        self
    }

    /// `needle` is in stdout or in stderr: for messages whose stream is not part of the contract.
    #[track_caller]
    pub(crate) fn output_contains(self, needle: &str) -> Self {
        if !self.stdout.contains(needle) && !self.stderr.contains(needle) {
            self.fail(&format!("neither stdout nor stderr contains {needle:?}"));
        }
        self
    }

    /// Like [`Self::output_contains`], ignoring ASCII case.
    #[track_caller]
    pub(crate) fn output_contains_ignore_case(self, needle: &str) -> Self {
        let needle_lower = needle.to_ascii_lowercase();
        let found = [&self.stdout, &self.stderr]
            .iter()
            .any(|s| s.to_ascii_lowercase().contains(&needle_lower));
        if !found {
            self.fail(&format!(
                "neither stdout nor stderr contains {needle:?} (ignoring case)"
            ));
        }
        self
    }

    #[track_caller]
    pub(crate) fn output_not_contains(self, needle: &str) -> Self {
        if self.stdout.contains(needle) || self.stderr.contains(needle) {
            self.fail(&format!("the output contains {needle:?}"));
        }
        self
    }

    /// `needle` occurs exactly `times` times in stdout and stderr together.
    #[track_caller]
    pub(crate) fn output_count(self, needle: &str, times: usize) -> Self {
        let seen = self.stdout.matches(needle).count() + self.stderr.matches(needle).count();
        if seen != times {
            self.fail(&format!(
                "{needle:?} occurs {seen} time(s) in stdout and stderr, expected {times}"
            ));
        }
        self
    }

    /// A regular expression matches stdout or stderr (multi-line mode: `^` and `$` match at lines).
    #[track_caller]
    pub(crate) fn output_matches(self, pattern: &str) -> Self {
        let regex = Regex::new(&format!("(?m){pattern}"))
            .unwrap_or_else(|e| panic!("bad pattern {pattern:?}: {e}"));
        if !regex.is_match(&self.stdout) && !regex.is_match(&self.stderr) {
            self.fail(&format!("neither stdout nor stderr matches /{pattern}/"));
        }
        self
    }

    /// The line of stdout or stderr that contains `needle` (the first one), for assertions on
    /// what else that line says.
    #[track_caller]
    pub(crate) fn line_with(&self, needle: &str) -> &str {
        self.stdout
            .lines()
            .chain(self.stderr.lines())
            .find(|line| line.contains(needle))
            .unwrap_or_else(|| self.fail(&format!("no output line contains {needle:?}")))
    }

    /// Fails the test with `message`, the command and both streams.
    #[track_caller]
    pub(crate) fn fail(&self, message: &str) -> ! {
        let mut report = format!(
            "{message}\ncommand: {}\nproject: {} (kept only with {KEEP_ENV}=1)\nstatus: {}\n",
            self.command,
            self.project_dir().display(),
            self.status
        );
        let _ = write!(
            report,
            "--- stdout ---\n{}\n--- stderr ---\n{}\n--- end ---",
            self.stdout, self.stderr
        );
        panic!("{report}");
    }
}
