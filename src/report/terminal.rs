//! The terminal reporter (`--reporter list`, the default): a line per test, loud heals and
//! failures, and a summary that ends with the closing `N passed, N failed` line and the total time.
//! On a terminal (and not in CI) a progress bar sits below the lines.
//!
//! Main type: [`TerminalReporter`]. It writes to any `Write`, so its output is testable; colour
//! is decided by the caller (off in tests, `NO_COLOR` honoured by the CLI).

use std::io::{self, Write};
use std::time::Duration;

use console::Style;
use indicatif::ProgressDrawTarget;

use super::details::{
    Palette, Summary, Verbosity, diff_lines, failure_label, heal_diff, project_prefix, seconds,
};
use super::eta::EtaBasis;
use super::github::error_annotation;
use super::locations::{Locations, ReportFile};
use super::progress::Progress;
use super::reporter::Reporter;
use crate::cache::{Author, ProofRecord};
use crate::engine::{Pool, StepProof};
use crate::llm::Classification;
use crate::runner::{
    EventKind, GenerationStarted, Healed, HealingStarted, ReuseTried, RunEvent, RunKind, RunStats,
    SettleRetry, StepFailed, StepId, StepKind, StepLog, StepPassed, StepSkipped, TestFailure,
    TestId, TestKind, TestOutcome,
};
use crate::visible::Visible;

/// Where what an event of a step shows goes.
enum Shown {
    /// A line kept with the test's other step lines (see [`TerminalReporter::step_line`]).
    StepLine(String),
    /// A line about the test (see [`TerminalReporter::test_line`]).
    TestLine(String),
    Nothing,
}

/// Writes a human-readable report of a run.
pub(crate) struct TerminalReporter<W: Write> {
    out: W,
    /// What the event being handled prints, written to `out` at once (through the bar).
    buf: Vec<u8>,
    palette: Palette,
    verbosity: Verbosity,
    summary: Summary,
    progress: Option<Progress>,
    github: bool,
    /// Verbose step lines of running tests, printed with the test's result line so that tests
    /// running in parallel do not interleave their steps.
    steps: Vec<(TestId, String)>,
    /// The traces of the run, and where the report files went once they are written.
    locations: Locations,
}

impl<W: Write> TerminalReporter<W> {
    pub(crate) fn new(out: W, colors: bool, verbosity: Verbosity) -> Self {
        Self {
            out,
            buf: Vec::new(),
            palette: Palette { colors },
            verbosity,
            summary: Summary::default(),
            progress: None,
            github: false,
            steps: Vec::new(),
            locations: Locations::default(),
        }
    }

    /// Shows the paths of report files and traces relative to `cwd` when they are under it.
    pub(crate) fn with_cwd(mut self, cwd: Option<std::path::PathBuf>) -> Self {
        self.locations = Locations::new(cwd);
        self
    }

    /// Shows a progress bar on `target` (the CLI passes stdout when it is a terminal and `CI`
    /// is not set), with an ETA from `eta`; lines are printed above it.
    pub(crate) fn with_progress(mut self, target: ProgressDrawTarget, eta: EtaBasis) -> Self {
        self.progress = Some(Progress::new(target, eta));
        self
    }

    /// Also prints a GitHub Actions `::error` annotation for each failed test.
    pub(crate) fn with_github_annotations(mut self, on: bool) -> Self {
        self.github = on;
        self
    }

    fn style(&self, style: Style) -> Style {
        self.palette.style(style)
    }

    /// Handles one event.
    pub(crate) fn handle(&mut self, event: &RunEvent) -> io::Result<()> {
        self.report(event)?;
        self.emit()
    }

    /// Writes the buffer to `out`, above the bar when there is one.
    fn emit(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let buf = std::mem::take(&mut self.buf);
        let out = &mut self.out;
        let mut write = || {
            out.write_all(&buf)?;
            out.flush()
        };
        let result = match &self.progress {
            Some(progress) => progress.print(write),
            None => write(),
        };
        self.buf = buf;
        self.buf.clear();
        result
    }

    /// Writes what `event` shows into the buffer and updates the bar. Each kind of event has
    /// one arm, and what it shows at which verbosity is decided in its own function.
    fn report(&mut self, event: &RunEvent) -> io::Result<()> {
        match &event.kind {
            EventKind::Run(RunKind::Started(started)) => self.run_started(started.tests)?,
            EventKind::Run(RunKind::Finished(finished)) => self.run_finished(&finished.stats)?,
            EventKind::Test(test, kind) => self.test_event(test, kind)?,
            EventKind::Step(step, kind) => self.step_event(step, kind),
        }
        Ok(())
    }

    fn run_started(&mut self, tests: usize) -> io::Result<()> {
        if let Some(progress) = &mut self.progress {
            progress.run_started(tests);
        }
        if self.verbosity != Verbosity::Quiet {
            let noun = if tests == 1 { "test" } else { "tests" };
            writeln!(self.buf, "Running {tests} {noun}")?;
        }
        Ok(())
    }

    /// What an event of `test` (not of one of its steps) shows.
    fn test_event(&mut self, test: &TestId, kind: &TestKind) -> io::Result<()> {
        match kind {
            TestKind::Started => {
                if let Some(progress) = &self.progress {
                    progress.test_started(test);
                }
            }
            TestKind::Warning(warning) => {
                let line = format!(
                    "{} {}: {}",
                    self.style(Style::new().yellow().bold()).apply_to("WARNING"),
                    Visible(test),
                    Visible(&warning.message)
                );
                self.test_line(test, line);
            }
            TestKind::TraceWritten(trace) => self.trace_written(test, &trace.path),
            TestKind::Retry(retry) => {
                self.test_retry(test, retry.attempt, &retry.failure, retry.duration)?;
            }
            TestKind::Finished(finished) => {
                self.test_finished(test, &finished.outcome, finished.duration)?;
            }
            // Each request is in the step's log already.
            TestKind::Timing(_) | TestKind::LlmCall(_) | TestKind::Origins(_) => {}
        }
        Ok(())
    }

    /// A trace is listed with the report files at the end, and named as it is written unless
    /// quiet.
    fn trace_written(&mut self, test: &TestId, path: &std::path::Path) {
        self.locations.trace_written(path);
        if self.verbosity == Verbosity::Quiet {
            return;
        }
        let line = format!(
            "  {} {}: {}",
            self.style(Style::new().dim()).apply_to("trace of"),
            Visible(test),
            Visible(path.display())
        );
        self.test_line(test, line);
    }

    /// What an event of a step shows: a line kept with the test's other step lines, a line
    /// about the test, or nothing but the bar.
    fn step_event(&mut self, step: &StepId, kind: &StepKind) {
        let StepId { test, index } = step;
        let shown = match kind {
            StepKind::Started(started) => {
                if let Some(progress) = &self.progress {
                    progress.step_started(test, *index, started.steps, &started.sentence);
                }
                Shown::Nothing
            }
            StepKind::Passed(passed) => self.step_passed(test, *index, passed),
            StepKind::Failed(failed) => self.step_failed(*index, failed),
            StepKind::Skipped(skipped) => self.step_skipped(*index, skipped),
            StepKind::Log(log) => self.step_log(log),
            StepKind::SettleRetry(retry) => self.settle_retry(retry),
            StepKind::ReuseTried(tried) => self.reuse_tried(test, *index, tried),
            StepKind::GenerationStarted(started) => self.generation_started(test, *index, started),
            StepKind::HealingStarted(started) => self.healing_started(test, *index, started),
            StepKind::Healed(healed) => {
                if let Some(progress) = &mut self.progress {
                    progress.healed();
                }
                Shown::TestLine(self.healed(test, *index, healed))
            }
            StepKind::Verdict(verdict) => self.step_verdict(*index, &verdict.verdict),
        };
        match shown {
            Shown::StepLine(line) => self.step_line(test, line),
            Shown::TestLine(line) => self.test_line(test, line),
            Shown::Nothing => {}
        }
    }

    /// `prettyplay audit` names a check that cannot fail at its step, at every verbosity, as a
    /// compiler names an error; any other passed step is a line in verbose mode.
    fn step_passed(&self, test: &TestId, index: usize, passed: &StepPassed) -> Shown {
        if let Some(StepProof::Vacuous(why)) = &passed.proof {
            return Shown::StepLine(format!(
                "{}{}:{}: {} {}: {}",
                project_prefix(test),
                Visible(&test.scenario),
                passed.line,
                self.style(Style::new().red().bold())
                    .apply_to("vacuous check"),
                Visible(&passed.sentence),
                Visible(why)
            ));
        }
        if self.verbosity != Verbosity::Verbose {
            return Shown::Nothing;
        }
        let mut line = format!(
            "  {} {index}. {} {}",
            self.style(Style::new().green()).apply_to("✓"),
            Visible(&passed.sentence),
            self.style(Style::new().dim())
                .apply_to(format!("({})", seconds(passed.duration)))
        );
        // A check no mutation could prove is named where it is, with why, so that a count of
        // unproven checks can be followed to each of them.
        if let Some(StepProof::Recorded(ProofRecord::None(why))) = &passed.proof {
            line.push_str(&format!(
                "\n    {}{}:{}: {} {}: {}",
                project_prefix(test),
                Visible(&test.scenario),
                passed.line,
                self.style(Style::new().yellow()).apply_to("unproven check"),
                Visible(&passed.sentence),
                Visible(why)
            ));
        }
        Shown::StepLine(line)
    }

    fn step_failed(&self, index: usize, failed: &StepFailed) -> Shown {
        if self.verbosity != Verbosity::Verbose {
            return Shown::Nothing;
        }
        Shown::StepLine(format!(
            "  {} {index}. {} ({})",
            self.style(Style::new().red()).apply_to("✗"),
            Visible(&failed.sentence),
            seconds(failed.duration)
        ))
    }

    /// A skipped step is said at every verbosity but quiet: it did not run, and that must not
    /// read like a pass.
    fn step_skipped(&self, index: usize, skipped: &StepSkipped) -> Shown {
        if self.verbosity == Verbosity::Quiet {
            return Shown::Nothing;
        }
        Shown::StepLine(format!(
            "  {} {index}. {} {}",
            self.style(Style::new().yellow()).apply_to("↷"),
            Visible(&skipped.sentence),
            self.style(Style::new().dim())
                .apply_to(format!("(skipped: optional, {})", Visible(&skipped.reason)))
        ))
    }

    fn step_log(&self, log: &StepLog) -> Shown {
        if self.verbosity != Verbosity::Verbose {
            return Shown::Nothing;
        }
        Shown::StepLine(format!(
            "    {}",
            self.style(Style::new().dim()).apply_to(Visible(&log.line))
        ))
    }

    fn settle_retry(&self, retry: &SettleRetry) -> Shown {
        if self.verbosity != Verbosity::Verbose {
            return Shown::Nothing;
        }
        Shown::StepLine(format!(
            "    {} retry {}: {}",
            self.style(Style::new().yellow()).apply_to("↻"),
            retry.attempt,
            Visible(retry.failure.lines().next().unwrap_or_default())
        ))
    }

    fn reuse_tried(&self, test: &TestId, index: usize, tried: &ReuseTried) -> Shown {
        if self.verbosity == Verbosity::Quiet {
            return Shown::Nothing;
        }
        let mark = self.style(Style::new().cyan()).apply_to("♻");
        Shown::TestLine(match &tried.failure {
            None => format!(
                "  {mark} step {index} of {} reuses the code of {}",
                Visible(test),
                Visible(&tried.from)
            ),
            Some(failure) => format!(
                "  {mark} step {index} of {}: the code of {} failed here: {}",
                Visible(test),
                Visible(&tried.from),
                Visible(failure.lines().next().unwrap_or_default())
            ),
        })
    }

    /// The bar says what the LLM is doing; without a bar, a line does unless quiet.
    fn generation_started(
        &self,
        test: &TestId,
        index: usize,
        started: &GenerationStarted,
    ) -> Shown {
        let GenerationStarted {
            pool,
            attempt,
            limit,
        } = started;
        if let Some(progress) = &self.progress {
            progress.generation_started(test, index, *pool, *attempt, *limit);
            return Shown::Nothing;
        }
        if self.verbosity == Verbosity::Quiet {
            return Shown::Nothing;
        }
        let what = match pool {
            Pool::Generation => "generating",
            Pool::Healing => "regenerating",
        };
        Shown::TestLine(format!(
            "  {} {what} step {index} of {} (attempt {attempt}/{limit})",
            self.style(Style::new().cyan()).apply_to("⚙"),
            Visible(test),
        ))
    }

    fn healing_started(&self, test: &TestId, index: usize, started: &HealingStarted) -> Shown {
        if self.verbosity == Verbosity::Quiet {
            return Shown::Nothing;
        }
        Shown::TestLine(format!(
            "  {} step {index} of {} failed; classified as {}",
            self.style(Style::new().yellow()).apply_to("⚕"),
            Visible(test),
            started.category
        ))
    }

    fn step_verdict(&self, index: usize, verdict: &Classification) -> Shown {
        if self.verbosity != Verbosity::Verbose {
            return Shown::Nothing;
        }
        Shown::StepLine(format!(
            "    verdict for step {index}: {}",
            Visible(verdict)
        ))
    }

    /// A line (or lines) about `test`: printed now, or, in verbose mode, with the test's other
    /// lines when it finishes.
    fn test_line(&mut self, test: &TestId, line: String) {
        if self.verbosity == Verbosity::Verbose {
            self.step_line(test, line);
        } else {
            self.buf.extend_from_slice(line.as_bytes());
            self.buf.push(b'\n');
        }
    }

    /// Keeps a verbose step line of `test` until the test finishes.
    fn step_line(&mut self, test: &TestId, line: String) {
        match self.steps.iter_mut().find(|(t, _)| t == test) {
            Some((_, lines)) => {
                lines.push_str(&line);
                lines.push('\n');
            }
            None => self.steps.push((test.clone(), line + "\n")),
        }
    }

    /// Writes the kept step lines of `test` (of every test when `None`).
    fn flush_steps(&mut self, test: Option<&TestId>) {
        let (flush, keep) = std::mem::take(&mut self.steps)
            .into_iter()
            .partition(|(t, _)| test.is_none_or(|test| t == test));
        self.steps = keep;
        for (_, lines) in flush {
            self.buf.extend_from_slice(lines.as_bytes());
        }
    }

    fn test_finished(
        &mut self,
        test: &TestId,
        outcome: &TestOutcome,
        duration: Duration,
    ) -> io::Result<()> {
        self.flush_steps(Some(test));
        let (label, style, failure) = match outcome {
            TestOutcome::Passed => ("PASS", Style::new().green().bold(), None),
            TestOutcome::Flaky { .. } => ("FLAKY", Style::new().yellow().bold(), None),
            TestOutcome::Interrupted(_) => ("INTERRUPTED", Style::new().yellow().bold(), None),
            TestOutcome::Failed(failure) => ("FAIL", Style::new().red().bold(), Some(&**failure)),
        };
        if self.verbosity != Verbosity::Quiet || !outcome.is_pass() {
            writeln!(
                self.buf,
                "{} {} {}",
                self.style(style).apply_to(label),
                Visible(test),
                self.style(Style::new().dim())
                    .apply_to(format!("({})", seconds(duration)))
            )?;
        }
        if let (Some(failure), true) = (failure, self.github) {
            writeln!(self.buf, "{}", error_annotation(test, failure))?;
        }
        if let Some(progress) = &mut self.progress {
            progress.test_finished(test, duration, outcome.is_pass());
        }
        self.summary.test_finished(test, duration, outcome);
        Ok(())
    }

    /// An attempt failed and the test runs again: said at once (with the attempt's steps in
    /// verbose mode); the failure's details come with the summary.
    fn test_retry(
        &mut self,
        test: &TestId,
        attempt: u32,
        failure: &TestFailure,
        duration: Duration,
    ) -> io::Result<()> {
        self.flush_steps(Some(test));
        if self.verbosity != Verbosity::Quiet {
            writeln!(
                self.buf,
                "{} {} {}: attempt {} failed ({}), running attempt {attempt}",
                self.style(Style::new().yellow().bold()).apply_to("RETRY"),
                Visible(test),
                self.style(Style::new().dim())
                    .apply_to(format!("({})", seconds(duration))),
                attempt - 1,
                failure_label(failure),
            )?;
        }
        self.summary.attempt_failed(test, attempt - 1, failure);
        Ok(())
    }

    /// A heal is loud: the step (with who wrote the new code when it was not the LLM), why it
    /// was rot, and the diff of the cached code.
    fn healed(&self, test: &TestId, index: usize, healed: &Healed) -> String {
        let writer = match (healed.by, healed.offline) {
            (Author::Builtin, true) => " (built-in, no LLM)",
            (Author::Builtin, false) => " (built-in)",
            (Author::Llm, _) => "",
            (Author::Reused, _) => " (reused, no LLM)",
        };
        let yellow = self.style(Style::new().yellow().bold());
        let mut text = format!(
            "{} {} › step {index}: {}\n  why: {}",
            yellow.apply_to("HEALED"),
            Visible(test),
            Visible(&format!("{}{writer}", healed.sentence)),
            Visible(&healed.explanation)
        );
        for (kind, line) in diff_lines(&heal_diff(&healed.old_code, &healed.new_code)) {
            text.push_str(&format!(
                "\n  {}",
                self.palette.diff(kind).apply_to(Visible(line))
            ));
        }
        text
    }

    fn run_finished(&mut self, stats: &RunStats) -> io::Result<()> {
        if let Some(progress) = &self.progress {
            progress.finish();
        }
        self.flush_steps(None);
        self.locations.run_finished();
        self.summary
            .write(&mut self.buf, self.palette, self.verbosity, stats)
    }
}

impl<W: Write> Reporter for TerminalReporter<W> {
    fn handle(&mut self, event: &RunEvent) -> io::Result<()> {
        TerminalReporter::handle(self, event)
    }

    /// Says where the report files and traces went, after the summary, at every verbosity:
    /// like Playwright's "To open last HTML report run", it is what a quiet CI log needs too.
    fn reports_written(&mut self, files: &[ReportFile]) -> io::Result<()> {
        self.locations.write(&mut self.buf, self.palette, files)?;
        self.emit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing::{self, redact};
    use crate::runner::{FailureCause, RunFinished, RunStarted, StepSource, TestFailure, Warning};
    use crate::script::{FailureKind, StepFailure};

    fn id() -> TestId {
        testing::id("scenarios/todo.steps", "add a todo", 2)
    }

    fn render(events: &[RunEvent], verbosity: Verbosity) -> String {
        let mut out = Vec::new();
        let mut reporter = TerminalReporter::new(&mut out, false, verbosity);
        testing::feed(&mut reporter, events);
        String::from_utf8(out).unwrap()
    }

    fn one_test(outcome: TestOutcome, stats: RunStats) -> Vec<RunEvent> {
        vec![
            RunEvent::of_run(RunStarted { tests: 1 }),
            testing::finished(&id(), outcome, 1500),
            RunEvent::of_run(RunFinished { stats }),
        ]
    }

    #[test]
    fn control_characters_from_pages_and_steps_are_shown_as_escapes() {
        let nasty = "\u{1b}[31mred\u{7}";
        let mut failure: TestFailure = testing::check_failure();
        failure.step = format!("the list shows {nasty}");
        failure.cause = FailureCause::Step(StepFailure {
            kind: FailureKind::FailedCheck,
            message: format!("expected {nasty}\0 got\r"),
            code_line: Some(2),
            visual: None,
        });
        failure.code = Some(format!("async function step(page) {{\n  // {nasty}\n}}"));
        failure.verdict = Some(crate::llm::Classification {
            explanation: nasty.to_owned(),
            ..testing::defect_verdict()
        });
        let mut events = one_test(
            TestOutcome::Failed(Box::new(failure)),
            RunStats {
                failed: 1,
                ..RunStats::default()
            },
        );
        let log = StepLog {
            line: format!("console says {nasty}"),
        };
        events.insert(1, RunEvent::of_step(id(), 2, log));
        let warning = Warning {
            message: format!("warned {nasty}"),
        };
        events.insert(1, RunEvent::of_test(id(), warning));
        for verbosity in [Verbosity::Normal, Verbosity::Verbose] {
            let text = render(&events, verbosity);
            for raw in ['\u{1b}', '\u{7}', '\0', '\r'] {
                assert!(!text.contains(raw), "{raw:?} in {verbosity:?}:\n{text}");
            }
            assert!(text.contains("\\x1b[31mred\\x07"), "{text}");
        }
        let mut out = Vec::new();
        let mut dot = crate::report::DotReporter::new(&mut out, false, Verbosity::Normal)
            .with_github_annotations(true);
        testing::feed(&mut dot, &events);
        let text = String::from_utf8(out).unwrap();
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{7}'),
            "{text}"
        );
    }

    #[test]
    fn failure_shows_step_location_message_and_code() {
        let failure: TestFailure = testing::check_failure();
        let events = one_test(
            TestOutcome::Failed(Box::new(failure)),
            RunStats {
                failed: 1,
                duration: Duration::from_secs(2),
                ..RunStats::default()
            },
        );
        let text = render(&events, Verbosity::Normal);
        let expected = [
            "Running 1 test",
            "FAIL scenarios/todo.steps › add a todo (1.50s)",
            "",
            "──── FAIL scenarios/todo.steps › add a todo",
            "  step 2: the list shows \"milk\"",
            "  at scenarios/todo.steps:4",
            "  failed check",
            "",
            "    expect(locator).toHaveText(expected) failed",
            "",
            "  step code:",
            "      1 | async function step(page) {",
            "  >   2 |   await x;",
            "      3 | }",
            "",
            "steps: 0 cached, 0 generated, 0 healed",
            "0 passed, 1 failed",
            "finished in 2.00s",
            "",
        ]
        .join("\n");
        assert_eq!(text, expected);
    }

    #[test]
    fn verbose_shows_settle_retries_with_the_first_line_of_the_failure() {
        let retry = |attempt| {
            let retry = SettleRetry {
                attempt,
                failure: format!(
                    "expect(locator).toBeVisible() failed\n\nReceived: hidden {attempt}"
                ),
            };
            RunEvent::of_step(id(), 1, retry)
        };
        let passed = StepPassed {
            proof: None,
            sentence: "the list is ready".into(),
            line: 3,
            source: StepSource::Cached,
            by: None,
            duration: Duration::from_millis(1250),
            code: "async function step(page) {}".into(),
        };
        let events = [
            RunEvent::of_run(RunStarted { tests: 1 }),
            retry(2),
            retry(3),
            RunEvent::of_step(id(), 1, passed),
            testing::finished(&id(), TestOutcome::Passed, 1300),
            RunEvent::of_run(RunFinished {
                stats: RunStats {
                    passed: 1,
                    cached_steps: 1,
                    duration: Duration::from_secs(2),
                    ..RunStats::default()
                },
            }),
        ];
        let expected = [
            "Running 1 test",
            "    ↻ retry 2: expect(locator).toBeVisible() failed",
            "    ↻ retry 3: expect(locator).toBeVisible() failed",
            "  ✓ 1. the list is ready (1.25s)",
            "PASS scenarios/todo.steps › add a todo (1.30s)",
            "",
            "steps: 1 cached, 0 generated, 0 healed",
            "1 passed, 0 failed",
            "finished in 2.00s",
            "",
        ]
        .join("\n");
        assert_eq!(render(&events, Verbosity::Verbose), expected);
        let normal = render(&events, Verbosity::Normal);
        assert!(!normal.contains("retry"), "{normal}");
    }

    #[test]
    fn quiet_prints_only_failures_and_totals() {
        let events = one_test(
            TestOutcome::Passed,
            RunStats {
                passed: 1,
                ..RunStats::default()
            },
        );
        assert_eq!(render(&events, Verbosity::Quiet), "\n1 passed, 0 failed\n");
    }

    #[test]
    fn list_report_of_a_run_with_a_generation_a_heal_and_a_product_defect() {
        let text = render(&testing::events(), Verbosity::Normal);
        insta::assert_snapshot!(redact(&text));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[lines.len() - 2], "2 passed, 1 failed");
    }

    #[test]
    fn verbose_list_report_shows_steps_logs_retries_and_verdicts() {
        insta::assert_snapshot!(redact(&render(&testing::events(), Verbosity::Verbose)));
    }

    #[test]
    fn github_annotations_follow_the_failed_test_line() {
        let mut out = Vec::new();
        let mut reporter =
            TerminalReporter::new(&mut out, false, Verbosity::Quiet).with_github_annotations(true);
        testing::feed(&mut reporter, &testing::events());
        let text = String::from_utf8(out).unwrap();
        let fail = text
            .lines()
            .position(|l| l.starts_with("FAIL scenarios/login.steps › log in"))
            .unwrap();
        let annotation = text.lines().nth(fail + 1).unwrap();
        assert!(
            annotation.starts_with(
                "::error file=scenarios/login.steps,line=4,title=scenarios/login.steps › log in::"
            ),
            "{annotation}"
        );
        assert_eq!(text.matches("::error ").count(), 1, "{text}");
    }

    #[test]
    fn with_a_progress_bar_the_lines_are_the_same_and_the_bar_counts_tests() {
        let plain = render(&testing::events(), Verbosity::Normal);
        let events = testing::events();
        let mut out = Vec::new();
        let mut reporter = TerminalReporter::new(&mut out, false, Verbosity::Normal)
            .with_progress(ProgressDrawTarget::hidden(), EtaBasis::default());
        // Up to the generation of the first test's second step.
        for event in &events[..4] {
            reporter.handle(event).unwrap();
        }
        let (_, length, _, message) = reporter.progress.as_ref().unwrap().state();
        assert_eq!(length, Some(3));
        assert_eq!(message, "add a todo: generating step 2, attempt 1/3");
        for event in &events[4..events.len() - 1] {
            reporter.handle(event).unwrap();
        }
        let (position, _, prefix, _) = reporter.progress.as_ref().unwrap().state();
        assert_eq!(position, 3);
        assert_eq!(prefix, "2 passed, 1 failed, 1 healed");
        reporter.handle(events.last().unwrap()).unwrap();
        let text = String::from_utf8(out).unwrap();
        // The bar replaces the generation lines; everything else is as without a bar.
        let without_generation: String = plain
            .lines()
            .filter(|l| !l.contains("⚙"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(text, without_generation);
    }

    #[test]
    fn verbose_lines_of_parallel_tests_are_printed_together_when_each_finishes() {
        let a = testing::id("a.steps", "a", 1);
        let b = testing::id("b.steps", "b", 1);
        let step = |test: &TestId, index| {
            let passed = StepPassed {
                proof: None,
                sentence: format!("{} step {index}", test.name),
                line: index + 1,
                source: StepSource::Cached,
                by: None,
                duration: Duration::from_millis(100),
                code: String::new(),
            };
            RunEvent::of_step(test.clone(), index, passed)
        };
        let finished = |test: &TestId| testing::finished(test, TestOutcome::Passed, 300);
        let slow = Warning {
            message: "slow".into(),
        };
        let events = [
            RunEvent::of_run(RunStarted { tests: 2 }),
            RunEvent::of_test(a.clone(), TestKind::Started),
            RunEvent::of_test(b.clone(), TestKind::Started),
            step(&a, 1),
            step(&b, 1),
            RunEvent::of_test(b.clone(), slow),
            step(&a, 2),
            finished(&b),
            step(&a, 3),
            finished(&a),
            RunEvent::of_run(RunFinished {
                stats: RunStats {
                    passed: 2,
                    ..RunStats::default()
                },
            }),
        ];
        let text = render(&events, Verbosity::Verbose);
        let head: Vec<&str> = text.lines().take(8).collect();
        assert_eq!(
            head,
            [
                "Running 2 tests",
                "  ✓ 1. b step 1 (0.10s)",
                "WARNING b.steps › b: slow",
                "PASS b.steps › b (0.30s)",
                "  ✓ 1. a step 1 (0.10s)",
                "  ✓ 2. a step 2 (0.10s)",
                "  ✓ 3. a step 3 (0.10s)",
                "PASS a.steps › a (0.30s)",
            ]
        );
    }

    #[test]
    fn a_test_of_a_browser_project_has_the_project_in_front_of_its_name() {
        let events = testing::in_project(&testing::events(), "firefox");
        let mut out = Vec::new();
        let mut reporter = TerminalReporter::new(&mut out, false, Verbosity::Normal)
            .with_github_annotations(true)
            .with_progress(ProgressDrawTarget::hidden(), EtaBasis::default());
        for event in &events[..4] {
            reporter.handle(event).unwrap();
        }
        let (_, _, _, message) = reporter.progress.as_ref().unwrap().state();
        assert_eq!(
            message,
            "[firefox] add a todo: generating step 2, attempt 1/3"
        );
        for event in &events[4..] {
            reporter.handle(event).unwrap();
        }
        let text = redact(&String::from_utf8(out).unwrap());
        for line in [
            "PASS [firefox] scenarios/todo.steps › add a todo ([DURATION])",
            "FAIL [firefox] scenarios/login.steps › log in ([DURATION])",
            "──── FAIL [firefox] scenarios/login.steps › log in",
            "  at scenarios/login.steps:4",
        ] {
            assert!(text.lines().any(|l| l == line), "no {line:?} in:\n{text}");
        }
        assert!(
            text.contains(
                "::error file=scenarios/login.steps,line=4,title=[firefox] \
                 scenarios/login.steps › log in::"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_vacuous_check_of_a_browser_project_names_the_project_before_its_place() {
        let vacuous = |project: Option<&str>| {
            let passed = StepPassed {
                proof: Some(StepProof::Vacuous("nothing is checked".into())),
                sentence: "the list shows \"milk\"".into(),
                line: 4,
                source: StepSource::Cached,
                by: None,
                duration: Duration::from_millis(100),
                code: String::new(),
            };
            RunEvent::of_step(id().in_project(project), 2, passed)
        };
        let events = [
            vacuous(None),
            vacuous(Some("firefox")),
            RunEvent::of_run(RunFinished {
                stats: RunStats::default(),
            }),
        ];
        let text = render(&events, Verbosity::Quiet);
        assert_eq!(
            text.lines().take(2).collect::<Vec<_>>(),
            [
                "scenarios/todo.steps:4: vacuous check the list shows \"milk\": nothing is checked",
                "[firefox] scenarios/todo.steps:4: vacuous check the list shows \"milk\": nothing \
                 is checked",
            ]
        );
    }

    #[test]
    fn an_unproven_check_is_named_at_its_line_with_why_in_verbose_mode_only() {
        let passed = StepPassed {
            proof: Some(StepProof::Recorded(ProofRecord::None(
                crate::cache::Unproven::Acts("click".into()),
            ))),
            sentence: "press go and see done".into(),
            line: 4,
            source: StepSource::Cached,
            by: None,
            duration: Duration::from_millis(100),
            code: String::new(),
        };
        let events = [
            RunEvent::of_step(id(), 2, passed),
            RunEvent::of_run(RunFinished {
                stats: RunStats::default(),
            }),
        ];
        let named = "    scenarios/todo.steps:4: unproven check press go and see done: the step \
                     acts on the page (click)";
        let verbose = render(&events, Verbosity::Verbose);
        assert!(verbose.lines().any(|line| line == named), "{verbose}");
        let normal = render(&events, Verbosity::Normal);
        assert!(!normal.contains("unproven check"), "{normal}");
    }

    #[test]
    fn colours_are_off_unless_asked_for() {
        assert!(!render(&testing::events(), Verbosity::Verbose).contains('\u{1b}'));
        let mut out = Vec::new();
        let mut reporter = TerminalReporter::new(&mut out, true, Verbosity::Normal);
        testing::feed(&mut reporter, &testing::events());
        assert!(String::from_utf8(out).unwrap().contains("\u{1b}["));
    }

    #[test]
    fn heal_diffs_are_coloured_only_when_colours_are_on() {
        let plain = render(&testing::events(), Verbosity::Normal);
        assert!(plain.lines().any(|l| l.starts_with("  -")), "{plain}");
        let mut out = Vec::new();
        let mut reporter = TerminalReporter::new(&mut out, true, Verbosity::Normal);
        testing::feed(&mut reporter, &testing::events());
        let coloured = String::from_utf8(out).unwrap();
        for (sign, colour) in [('-', "\u{1b}[31m"), ('+', "\u{1b}[32m")] {
            assert!(
                coloured
                    .lines()
                    .any(|l| l.starts_with(&format!("  {colour}{sign} "))),
                "no {sign} line in {colour:?}: {coloured:?}"
            );
        }
        assert!(
            coloured.contains("\u{1b}[2m--- cached\u{1b}[0m"),
            "{coloured:?}"
        );
    }

    #[test]
    fn a_flaky_test_is_loud_and_every_failed_attempt_is_shown() {
        let text = redact(&render(&testing::retried_events(), Verbosity::Normal));
        for line in [
            "RETRY scenarios/todo.steps › flaky ([DURATION]): attempt 1 failed (failed check), running attempt 2",
            "FLAKY scenarios/todo.steps › flaky ([DURATION])",
            "──── FLAKY scenarios/todo.steps › flaky (attempt 1 failed; passed on attempt 2)",
            "RETRY scenarios/todo.steps › broken ([DURATION]): attempt 2 failed (failed check), running attempt 3",
            "FAIL scenarios/todo.steps › broken ([DURATION])",
            "──── FAIL scenarios/todo.steps › broken (attempt 1)",
            "──── FAIL scenarios/todo.steps › broken (attempt 2)",
            "──── FAIL scenarios/todo.steps › broken (attempt 3)",
            "1 flaky test(s): failed, then passed on a retry (see the failures above)",
            "0 passed, 1 failed, 1 flaky",
        ] {
            assert!(text.lines().any(|l| l == line), "no {line:?} in:\n{text}");
        }
        // Quiet still shows the failures of every attempt and the closing line.
        let quiet = render(&testing::retried_events(), Verbosity::Quiet);
        assert!(
            quiet.contains("──── FLAKY scenarios/todo.steps › flaky"),
            "{quiet}"
        );
        assert!(quiet.contains("0 passed, 1 failed, 1 flaky"), "{quiet}");
    }
}
