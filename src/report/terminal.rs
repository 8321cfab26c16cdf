//! The terminal reporter: a line per test, failure details, and the closing
//! `N passed, N failed` line.
//!
//! Main type: [`TerminalReporter`]. It writes to any `Write`, so its output is testable; colour
//! is decided by the caller (off in tests, `NO_COLOR` honoured by the CLI).

use std::io::{self, Write};
use std::time::Duration;

use console::Style;

use crate::engine::Pool;
use crate::runner::{FailureCause, RunEvent, RunStats, TestFailure, TestId, TestOutcome};

/// How much the reporter prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbosity {
    /// Failures and the closing line only.
    Quiet,
    /// A line per test, failures, the closing line.
    Normal,
    /// Also every step, its settle retries and `console.*` output of step code.
    Verbose,
}

/// Writes a human-readable report of a run.
pub struct TerminalReporter<W: Write> {
    out: W,
    colors: bool,
    verbosity: Verbosity,
    failures: Vec<(TestId, TestFailure)>,
}

impl<W: Write> TerminalReporter<W> {
    pub fn new(out: W, colors: bool, verbosity: Verbosity) -> Self {
        Self {
            out,
            colors,
            verbosity,
            failures: Vec::new(),
        }
    }

    fn style(&self, style: Style) -> Style {
        style.force_styling(self.colors)
    }

    /// Handles one event.
    pub fn handle(&mut self, event: &RunEvent) -> io::Result<()> {
        match event {
            RunEvent::RunStarted { tests } => {
                if self.verbosity != Verbosity::Quiet {
                    let noun = if *tests == 1 { "test" } else { "tests" };
                    writeln!(self.out, "Running {tests} {noun}")?;
                }
            }
            RunEvent::TestStarted { .. } => {}
            RunEvent::StepPassed {
                index,
                sentence,
                duration,
                ..
            } if self.verbosity == Verbosity::Verbose => {
                let dim = self.style(Style::new().dim());
                writeln!(
                    self.out,
                    "  {} {index}. {sentence} {}",
                    self.style(Style::new().green()).apply_to("✓"),
                    dim.apply_to(format!("({})", seconds(*duration)))
                )?;
            }
            RunEvent::StepFailed {
                index,
                sentence,
                duration,
                ..
            } if self.verbosity == Verbosity::Verbose => {
                writeln!(
                    self.out,
                    "  {} {index}. {sentence} ({})",
                    self.style(Style::new().red()).apply_to("✗"),
                    seconds(*duration)
                )?;
            }
            RunEvent::StepLog { line, .. } if self.verbosity == Verbosity::Verbose => {
                writeln!(
                    self.out,
                    "    {}",
                    self.style(Style::new().dim()).apply_to(line)
                )?;
            }
            RunEvent::SettleRetry {
                attempt, failure, ..
            } if self.verbosity == Verbosity::Verbose => {
                writeln!(
                    self.out,
                    "    {} retry {attempt}: {}",
                    self.style(Style::new().yellow()).apply_to("↻"),
                    failure.lines().next().unwrap_or_default()
                )?;
            }
            RunEvent::GenerationStarted {
                test,
                index,
                pool,
                attempt,
                limit,
                ..
            } if self.verbosity != Verbosity::Quiet => {
                let what = match pool {
                    Pool::Generation => "generating",
                    Pool::Healing => "regenerating",
                };
                writeln!(
                    self.out,
                    "  {} {what} step {index} of {test} (attempt {attempt}/{limit})",
                    self.style(Style::new().cyan()).apply_to("⚙"),
                )?;
            }
            RunEvent::HealingStarted {
                test,
                index,
                category,
            } if self.verbosity != Verbosity::Quiet => {
                writeln!(
                    self.out,
                    "  {} step {index} of {test} failed; classified as {category}",
                    self.style(Style::new().yellow()).apply_to("⚕"),
                )?;
            }
            RunEvent::Healed {
                test,
                index,
                sentence,
                explanation,
                old_code,
                new_code,
            } => self.healed(test, *index, sentence, explanation, old_code, new_code)?,
            RunEvent::StepVerdict { index, verdict, .. }
                if self.verbosity == Verbosity::Verbose =>
            {
                writeln!(self.out, "    verdict for step {index}: {verdict}")?;
            }
            RunEvent::Warning { test, message } => {
                writeln!(
                    self.out,
                    "{} {test}: {message}",
                    self.style(Style::new().yellow().bold()).apply_to("WARNING")
                )?;
            }
            RunEvent::StepPassed { .. }
            | RunEvent::StepFailed { .. }
            | RunEvent::SettleRetry { .. }
            | RunEvent::StepLog { .. }
            | RunEvent::GenerationStarted { .. }
            | RunEvent::HealingStarted { .. }
            | RunEvent::StepVerdict { .. }
            | RunEvent::LlmCall { .. } => {}
            RunEvent::TestFinished {
                test,
                outcome,
                duration,
            } => self.test_finished(test, outcome, *duration)?,
            RunEvent::RunFinished { stats } => self.run_finished(stats)?,
        }
        self.out.flush()
    }

    fn test_finished(
        &mut self,
        test: &TestId,
        outcome: &TestOutcome,
        duration: Duration,
    ) -> io::Result<()> {
        let (label, style) = match outcome {
            TestOutcome::Passed => ("PASS", Style::new().green().bold()),
            TestOutcome::Failed(_) => ("FAIL", Style::new().red().bold()),
        };
        if self.verbosity != Verbosity::Quiet || matches!(outcome, TestOutcome::Failed(_)) {
            writeln!(
                self.out,
                "{} {test} {}",
                self.style(style).apply_to(label),
                self.style(Style::new().dim())
                    .apply_to(format!("({})", seconds(duration)))
            )?;
        }
        if let TestOutcome::Failed(failure) = outcome {
            self.failures.push((test.clone(), (**failure).clone()));
        }
        Ok(())
    }

    /// A heal is loud: the step, why it was rot, and the diff of the cached code.
    fn healed(
        &mut self,
        test: &TestId,
        index: usize,
        sentence: &str,
        explanation: &str,
        old_code: &str,
        new_code: &str,
    ) -> io::Result<()> {
        let yellow = self.style(Style::new().yellow().bold());
        writeln!(
            self.out,
            "{} {test} › step {index}: {sentence}",
            yellow.apply_to("HEALED")
        )?;
        writeln!(self.out, "  why: {explanation}")?;
        let diff = similar::TextDiff::from_lines(old_code, new_code);
        let unified = diff
            .unified_diff()
            .context_radius(3)
            .header("cached", "healed")
            .to_string();
        for line in unified.lines() {
            let style = if line.starts_with('+') && !line.starts_with("+++") {
                Style::new().green()
            } else if line.starts_with('-') && !line.starts_with("---") {
                Style::new().red()
            } else {
                Style::new().dim()
            };
            writeln!(self.out, "  {}", self.style(style).apply_to(line))?;
        }
        Ok(())
    }

    fn run_finished(&mut self, stats: &RunStats) -> io::Result<()> {
        let failures = std::mem::take(&mut self.failures);
        for (test, failure) in &failures {
            self.failure_details(test, failure)?;
        }
        writeln!(self.out)?;
        if stats.infrastructure_failures > 0 {
            writeln!(
                self.out,
                "{} of the failures came from the browser or driver, not the tests",
                stats.infrastructure_failures
            )?;
        }
        if self.verbosity != Verbosity::Quiet
            && stats.generated_steps + stats.healed_steps + stats.llm_requests > 0
        {
            writeln!(
                self.out,
                "steps: {} cached, {} generated, {} healed",
                stats.cached_steps, stats.generated_steps, stats.healed_steps
            )?;
            writeln!(
                self.out,
                "LLM: {} request(s), {} tokens in, {} tokens out, {} waiting",
                stats.llm_requests,
                stats.tokens_in,
                stats.tokens_out,
                seconds(stats.llm_wait)
            )?;
        }
        let passed = format!("{} passed", stats.passed);
        let failed = format!("{} failed", stats.failed);
        let passed = if stats.passed > 0 {
            self.style(Style::new().green())
                .apply_to(passed)
                .to_string()
        } else {
            passed
        };
        let failed = if stats.failed > 0 {
            self.style(Style::new().red()).apply_to(failed).to_string()
        } else {
            failed
        };
        writeln!(self.out, "{passed}, {failed}")?;
        if self.verbosity != Verbosity::Quiet {
            writeln!(
                self.out,
                "{}",
                self.style(Style::new().dim())
                    .apply_to(format!("finished in {}", seconds(stats.duration)))
            )?;
        }
        Ok(())
    }

    fn failure_details(&mut self, test: &TestId, failure: &TestFailure) -> io::Result<()> {
        let red = self.style(Style::new().red().bold());
        let dim = self.style(Style::new().dim());
        writeln!(self.out)?;
        writeln!(self.out, "{} {test}", red.apply_to("──── FAIL"))?;
        writeln!(self.out, "  step {}: {}", failure.step_index, failure.step)?;
        writeln!(
            self.out,
            "  at {}",
            dim.apply_to(format!("{}:{}", test.scenario, failure.line))
        )?;
        let kind = match &failure.cause {
            FailureCause::Step(step) => step.kind.label(),
            FailureCause::CacheMiss => "no cached code",
            FailureCause::Infrastructure(_) => "infrastructure",
            FailureCause::Engine(engine) => engine.kind.label(),
        };
        writeln!(self.out, "  {}", red.apply_to(kind))?;
        writeln!(self.out)?;
        for line in failure.message(&test.scenario, &test.name).lines() {
            writeln!(self.out, "    {line}")?;
        }
        // Engine failures carry their verdict in their message already.
        if let (Some(verdict), false) = (
            &failure.verdict,
            matches!(failure.cause, FailureCause::Engine(_)),
        ) {
            writeln!(self.out)?;
            writeln!(self.out, "    verdict: {verdict}")?;
        }
        if let Some(code) = &failure.code {
            let failing_line = match &failure.cause {
                FailureCause::Step(step) => step.code_line,
                _ => None,
            };
            writeln!(self.out)?;
            writeln!(self.out, "  {}", dim.apply_to("step code:"))?;
            for (n, line) in code.lines().enumerate() {
                let n = n as u32 + 1;
                let marker = if Some(n) == failing_line { ">" } else { " " };
                writeln!(self.out, "  {marker} {n:>3} | {line}")?;
            }
        }
        Ok(())
    }
}

fn seconds(duration: Duration) -> String {
    format!("{:.2}s", duration.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::StepSource;
    use crate::script::{FailureKind, StepFailure};

    fn id() -> TestId {
        TestId {
            scenario: "scenarios/todo.steps".into(),
            name: "add a todo".into(),
            line: 2,
        }
    }

    fn render(events: &[RunEvent], verbosity: Verbosity) -> String {
        let mut out = Vec::new();
        let mut reporter = TerminalReporter::new(&mut out, false, verbosity);
        for event in events {
            reporter.handle(event).unwrap();
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn failure_shows_step_location_message_and_code() {
        let failure = TestFailure {
            step: "the list shows \"milk\"".into(),
            step_index: 2,
            line: 4,
            cause: FailureCause::Step(StepFailure {
                kind: FailureKind::FailedCheck,
                message: "expect(locator).toHaveText(expected) failed".into(),
                code_line: Some(2),
            }),
            code: Some("async function step(page) {\n  await x;\n}".into()),
            verdict: None,
            screenshot: None,
        };
        let events = [
            RunEvent::RunStarted { tests: 1 },
            RunEvent::TestFinished {
                test: id(),
                outcome: TestOutcome::Failed(Box::new(failure)),
                duration: Duration::from_millis(1500),
            },
            RunEvent::RunFinished {
                stats: RunStats {
                    passed: 0,
                    failed: 1,
                    infrastructure_failures: 0,
                    duration: Duration::from_secs(2),
                    ..RunStats::default()
                },
            },
        ];
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
            "0 passed, 1 failed",
            "finished in 2.00s",
            "",
        ]
        .join("\n");
        assert_eq!(text, expected);
    }

    #[test]
    fn verbose_shows_settle_retries_with_the_first_line_of_the_failure() {
        let retry = |attempt| RunEvent::SettleRetry {
            test: id(),
            index: 1,
            attempt,
            failure: format!("expect(locator).toBeVisible() failed\n\nReceived: hidden {attempt}"),
        };
        let events = [
            RunEvent::RunStarted { tests: 1 },
            retry(2),
            retry(3),
            RunEvent::StepPassed {
                test: id(),
                index: 1,
                sentence: "the list is ready".into(),
                line: 3,
                source: StepSource::Cached,
                duration: Duration::from_millis(1250),
                code: "async function step(page) {}".into(),
            },
            RunEvent::TestFinished {
                test: id(),
                outcome: TestOutcome::Passed,
                duration: Duration::from_millis(1300),
            },
            RunEvent::RunFinished {
                stats: RunStats {
                    passed: 1,
                    duration: Duration::from_secs(2),
                    ..RunStats::default()
                },
            },
        ];
        let expected = [
            "Running 1 test",
            "    ↻ retry 2: expect(locator).toBeVisible() failed",
            "    ↻ retry 3: expect(locator).toBeVisible() failed",
            "  ✓ 1. the list is ready (1.25s)",
            "PASS scenarios/todo.steps › add a todo (1.30s)",
            "",
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
        let events = [
            RunEvent::RunStarted { tests: 1 },
            RunEvent::TestFinished {
                test: id(),
                outcome: TestOutcome::Passed,
                duration: Duration::from_millis(10),
            },
            RunEvent::RunFinished {
                stats: RunStats {
                    passed: 1,
                    ..RunStats::default()
                },
            },
        ];
        assert_eq!(render(&events, Verbosity::Quiet), "\n1 passed, 0 failed\n");
    }
}
