//! The dot reporter (`--reporter dot`): one character per test (`.` passed, `±` flaky, `F`
//! failed), then the failure details and the summary that the `list` reporter ends with.
//!
//! Main type: [`DotReporter`].

use std::io::{self, Write};
use std::time::Duration;

use console::Style;

use super::details::{Palette, Summary, Verbosity};
use super::github::error_annotation;
use super::locations::{Locations, ReportFile};
use super::reporter::Reporter;
use crate::runner::{EventKind, RunEvent, RunKind, TestId, TestKind, TestOutcome};

/// Characters per line before the dots wrap.
const WIDTH: usize = 80;

/// Writes a compact report of a run.
pub(crate) struct DotReporter<W: Write> {
    out: W,
    palette: Palette,
    verbosity: Verbosity,
    summary: Summary,
    /// Dots on the current line.
    column: usize,
    /// Annotations, printed after the dots (they would break the line of dots).
    annotations: Option<Vec<String>>,
    /// The traces of the run, and where the report files went once they are written.
    locations: Locations,
}

impl<W: Write> DotReporter<W> {
    pub(crate) fn new(out: W, colors: bool, verbosity: Verbosity) -> Self {
        Self {
            out,
            palette: Palette { colors },
            verbosity,
            summary: Summary::default(),
            column: 0,
            annotations: None,
            locations: Locations::default(),
        }
    }

    /// Shows the paths of report files and traces relative to `cwd` when they are under it.
    pub(crate) fn with_cwd(mut self, cwd: Option<std::path::PathBuf>) -> Self {
        self.locations = Locations::new(cwd);
        self
    }

    /// Also prints a GitHub Actions `::error` annotation for each failed test (after the dots).
    pub(crate) fn with_github_annotations(mut self, on: bool) -> Self {
        self.annotations = on.then(Vec::new);
        self
    }

    fn end_line(&mut self) -> io::Result<()> {
        if self.column > 0 {
            writeln!(self.out)?;
            self.column = 0;
        }
        Ok(())
    }
}

impl<W: Write> DotReporter<W> {
    /// A character for the test, and its failure's annotation kept for the end.
    fn test_finished(
        &mut self,
        test: &TestId,
        outcome: &TestOutcome,
        duration: Duration,
    ) -> io::Result<()> {
        let dot = match outcome {
            TestOutcome::Passed => self.palette.style(Style::new().green()).apply_to("."),
            TestOutcome::Flaky { .. } => self.palette.style(Style::new().yellow()).apply_to("±"),
            TestOutcome::Failed(_) => self.palette.style(Style::new().red().bold()).apply_to("F"),
            TestOutcome::Interrupted(_) => self.palette.style(Style::new().yellow()).apply_to("I"),
        };
        write!(self.out, "{dot}")?;
        self.column += 1;
        if self.column == WIDTH {
            self.end_line()?;
        }
        if let (Some(annotations), TestOutcome::Failed(failure)) = (&mut self.annotations, outcome)
        {
            annotations.push(error_annotation(test, failure));
        }
        self.summary.test_finished(test, duration, outcome);
        Ok(())
    }
}

impl<W: Write> Reporter for DotReporter<W> {
    fn handle(&mut self, event: &RunEvent) -> io::Result<()> {
        match &event.kind {
            EventKind::Test(test, TestKind::Finished(finished)) => {
                self.test_finished(test, &finished.outcome, finished.duration)?;
            }
            EventKind::Test(test, TestKind::Retry(retry)) => {
                self.summary
                    .attempt_failed(test, retry.attempt - 1, &retry.failure);
                return Ok(());
            }
            EventKind::Test(_, TestKind::TraceWritten(trace)) => {
                self.locations.trace_written(&trace.path);
                return Ok(());
            }
            EventKind::Run(RunKind::Finished(finished)) => {
                self.locations.run_finished();
                self.end_line()?;
                for annotation in self.annotations.iter_mut().flat_map(std::mem::take) {
                    writeln!(self.out, "{annotation}")?;
                }
                self.summary
                    .write(&mut self.out, self.palette, self.verbosity, &finished.stats)?;
            }
            _ => return Ok(()),
        }
        self.out.flush()
    }

    fn reports_written(&mut self, files: &[ReportFile]) -> io::Result<()> {
        self.locations.write(&mut self.out, self.palette, files)?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing::{self, redact};

    fn render(verbosity: Verbosity, github: bool) -> String {
        let mut out = Vec::new();
        let mut reporter =
            DotReporter::new(&mut out, false, verbosity).with_github_annotations(github);
        testing::feed(&mut reporter, &testing::events());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn dot_report_is_a_char_per_test_then_the_failures_and_the_summary() {
        let text = render(Verbosity::Normal, false);
        assert!(text.starts_with("..F\n"), "{text}");
        insta::assert_snapshot!(redact(&text));
    }

    #[test]
    fn dot_report_prints_annotations_after_the_dots() {
        let text = render(Verbosity::Quiet, true);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "..F");
        assert!(lines[1].starts_with("::error file=scenarios/login.steps,line=4,"));
        assert_eq!(lines.last(), Some(&"2 passed, 1 failed"));
    }

    #[test]
    fn dots_wrap_at_eighty() {
        let test = testing::id("a.steps", "t", 1);
        let mut events: Vec<RunEvent> = (0..81)
            .map(|_| testing::finished(&test, TestOutcome::Passed, 0))
            .collect();
        events.push(RunEvent::of_run(crate::runner::RunFinished {
            stats: crate::runner::RunStats {
                passed: 81,
                ..Default::default()
            },
        }));
        let mut out = Vec::new();
        testing::feed(
            &mut DotReporter::new(&mut out, false, Verbosity::Quiet),
            &events,
        );
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with(&format!("{}\n.\n", ".".repeat(80))),
            "{text}"
        );
    }

    #[test]
    fn the_failures_of_a_browser_project_name_the_project() {
        let mut out = Vec::new();
        let mut reporter =
            DotReporter::new(&mut out, false, Verbosity::Normal).with_github_annotations(true);
        testing::feed(
            &mut reporter,
            &testing::in_project(&testing::events(), "firefox"),
        );
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("..F\n"), "{text}");
        assert!(
            text.contains("title=[firefox] scenarios/login.steps › log in::"),
            "{text}"
        );
        assert!(
            text.contains("\n──── FAIL [firefox] scenarios/login.steps › log in\n"),
            "{text}"
        );
    }
}
