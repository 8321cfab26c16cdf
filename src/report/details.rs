//! What the terminal reporters (`list`, `dot`) share: how much they print ([`Verbosity`]), the
//! failure details (of each failed attempt of a retried test), the final summary with its
//! closing `N passed, N failed` line (`, N flaky` when some were), and durations as people read
//! them.
//!
//! Main type: [`Summary`].

use std::io::{self, Write};
use std::time::Duration;

use console::Style;

use crate::engine::EngineFailureKind;
use crate::llm::Classification;
use crate::runner::{
    FailureCause, Interruption, RunStats, StopReason, TestFailure, TestId, TestOutcome,
    wait_seconds,
};
use crate::step::Waited;
use crate::visible::Visible;

/// How much the terminal reporters (`list`, `dot`) print.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verbosity {
    /// Failures and the closing line only.
    Quiet,
    /// A line per test, failures, the closing line.
    Normal,
    /// Also every step, its settle retries and `console.*` output of step code.
    Verbose,
}

/// How many of the slowest tests the summary names.
const SLOWEST: usize = 3;

/// A duration as the reports show it: `1.50s`.
pub(crate) fn seconds(duration: Duration) -> String {
    format!("{:.2}s", duration.as_secs_f64())
}

/// The summary's LLM line: `LLM: 3 request(s), 3600 tokens in, 240 tokens out, 1.20s waiting`;
/// when the server reported prompt-cache hits, the input is split: `3600 tokens in (1200 fresh,
/// 2400 cached)`.
pub(crate) fn llm_summary(stats: &RunStats) -> String {
    let cached = match stats.tokens_in_cached {
        0 => String::new(),
        cached => format!(
            " ({} fresh, {cached} cached)",
            stats.tokens_in.saturating_sub(cached)
        ),
    };
    format!(
        "LLM: {} request(s), {} tokens in{cached}, {} tokens out, {} waiting",
        stats.llm_requests,
        stats.tokens_in,
        stats.tokens_out,
        seconds(stats.llm_wait)
    )
}

/// The unified diff of a heal, `cached` to `healed`, with a context of 3 lines. Both sides end
/// with a newline, so the diff never says "No newline at end of file".
pub(crate) fn heal_diff(old_code: &str, new_code: &str) -> String {
    let with_newline = |code: &str| {
        if code.ends_with('\n') {
            code.to_owned()
        } else {
            format!("{code}\n")
        }
    };
    let (old_code, new_code) = (with_newline(old_code), with_newline(new_code));
    similar::TextDiff::from_lines(&old_code, &new_code)
        .unified_diff()
        .context_radius(3)
        .header("cached", "healed")
        .to_string()
}

/// What a line of text is when it may be part of a unified diff, for its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DiffLine {
    /// Not part of a diff.
    Text,
    /// `--- cached`, `+++ healed` or an `@@` hunk header.
    Header,
    Added,
    Removed,
    /// An unchanged line around the changes.
    Context,
}

/// Each line of `text` with what it is: the lines of a unified diff are told apart from the
/// text around them. A diff starts at a `--- ` line followed by a `+++ ` line and ends at the
/// first line that no diff line starts like (an empty line included), so the diff a vetoed
/// heal's message ends with is found in the message read back from a report blob too.
pub(crate) fn diff_lines(text: &str) -> Vec<(DiffLine, &str)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut marked = Vec::with_capacity(lines.len());
    let mut in_diff = false;
    for (n, line) in lines.iter().enumerate() {
        let starts = !in_diff
            && line.starts_with("--- ")
            && lines
                .get(n + 1)
                .is_some_and(|next| next.starts_with("+++ "));
        if starts {
            in_diff = true;
        }
        let kind = if !in_diff {
            DiffLine::Text
        } else if starts || line.starts_with("+++ ") || line.starts_with("@@") {
            DiffLine::Header
        } else if line.starts_with('+') {
            DiffLine::Added
        } else if line.starts_with('-') {
            DiffLine::Removed
        } else if line.starts_with(' ') || line.starts_with('\\') {
            DiffLine::Context
        } else {
            in_diff = false;
            DiffLine::Text
        };
        marked.push((kind, *line));
    }
    marked
}

/// Styles applied, or not, depending on whether colours are on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Palette {
    pub colors: bool,
}

impl Palette {
    pub(super) fn style(self, style: Style) -> Style {
        style.force_styling(self.colors)
    }

    /// The style of a line of a diff: removed lines red, added lines green, the rest of the
    /// diff dim, other text plain.
    pub(super) fn diff(self, line: DiffLine) -> Style {
        self.style(match line {
            DiffLine::Text => Style::new(),
            DiffLine::Header | DiffLine::Context => Style::new().dim(),
            DiffLine::Added => Style::new().green(),
            DiffLine::Removed => Style::new().red(),
        })
    }
}

/// The blocks of step code a failure shows, each with its label. A vetoed heal shows the code
/// that stays cached and the candidate the veto refused, because the message is about both; a
/// failure read from an older report, whose code is the candidate, shows the candidate alone.
pub(crate) fn code_blocks(failure: &TestFailure) -> Vec<(&'static str, &str)> {
    let refused = match &failure.cause {
        FailureCause::Engine(engine) if engine.kind == EngineFailureKind::HealVetoed => {
            engine.candidate.as_deref()
        }
        _ => None,
    };
    match (failure.code.as_deref(), refused) {
        (Some(kept), Some(refused)) if kept != refused => {
            vec![("cached code (kept)", kept), ("refused candidate", refused)]
        }
        (_, Some(refused)) => vec![("refused candidate", refused)],
        (Some(code), None) => vec![("step code", code)],
        (None, None) => Vec::new(),
    }
}

/// What goes in front of a test's name where a report names the test without its file: the
/// browser project, `[firefox] `, in a run of several browsers, and nothing otherwise. Reports
/// that print the whole id use its `Display`, which carries the project already.
pub(crate) fn project_prefix(test: &TestId) -> String {
    match &test.project {
        Some(project) => format!("[{}] ", Visible(project)),
        None => String::new(),
    }
}

/// The loud label of a failure: `failed check`, `PRODUCT DEFECT`, `LLM UNAVAILABLE`, ...
pub(crate) fn failure_label(failure: &TestFailure) -> &'static str {
    match &failure.cause {
        FailureCause::Step(step) => step.kind.label(),
        FailureCause::CacheMiss => "no cached code",
        FailureCause::Infrastructure(_) => "infrastructure",
        FailureCause::Engine(engine) => engine.kind.label(),
        FailureCause::SetupFailed(_) => "setup failed",
    }
}

/// The failure's message without its verdict (shown on its own), for any cause.
pub(crate) fn failure_text(test: &TestId, failure: &TestFailure) -> String {
    match &failure.cause {
        FailureCause::Engine(engine) => engine.message(),
        _ => failure.message(&test.scenario, &test.name),
    }
}

/// The verdict on a failure: the failure's own, or the engine's.
pub(crate) fn failure_verdict(failure: &TestFailure) -> Option<&Classification> {
    failure.verdict.as_ref().or(match &failure.cause {
        FailureCause::Engine(engine) => engine.verdict.as_ref(),
        _ => None,
    })
}

/// Writes the details of a failed test: the step and where it is, the loud label, the message,
/// the verdict (what was expected and observed, and the recommendation), and the step code with
/// the failing line marked.
pub(crate) fn write_failure(
    out: &mut dyn Write,
    palette: Palette,
    test: &TestId,
    failure: &TestFailure,
) -> io::Result<()> {
    write_attempt_failure(out, palette, test, failure, None)
}

/// Which attempt of a retried test failed (`--retries`), and how the test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Attempt {
    /// The attempt that failed, from 1.
    pub number: u32,
    /// The attempt the test passed on, when it did (a flaky test).
    pub passed_on: Option<u32>,
}

/// [`write_failure`] of one attempt of a retried test: the heading says which attempt, and
/// that the test was flaky when a later attempt passed.
pub(crate) fn write_attempt_failure(
    out: &mut dyn Write,
    palette: Palette,
    test: &TestId,
    failure: &TestFailure,
    attempt: Option<Attempt>,
) -> io::Result<()> {
    let red = palette.style(Style::new().red().bold());
    let dim = palette.style(Style::new().dim());
    writeln!(out)?;
    match attempt {
        None => writeln!(out, "{} {}", red.apply_to("──── FAIL"), Visible(test))?,
        Some(Attempt {
            number,
            passed_on: None,
        }) => writeln!(
            out,
            "{} {} (attempt {number})",
            red.apply_to("──── FAIL"),
            Visible(test)
        )?,
        Some(Attempt {
            number,
            passed_on: Some(passed),
        }) => writeln!(
            out,
            "{} {} (attempt {number} failed; passed on attempt {passed})",
            palette
                .style(Style::new().yellow().bold())
                .apply_to("──── FLAKY"),
            Visible(test)
        )?,
    }
    writeln!(
        out,
        "  step {}: {}",
        failure.step_index,
        Visible(&failure.step)
    )?;
    writeln!(
        out,
        "  at {}",
        dim.apply_to(format!("{}:{}", Visible(&test.scenario), failure.line))
    )?;
    writeln!(out, "  {}", red.apply_to(failure_label(failure)))?;
    writeln!(out)?;
    for (kind, line) in diff_lines(&failure_text(test, failure)) {
        if line.trim().is_empty() {
            writeln!(out)?;
        } else {
            writeln!(out, "    {}", palette.diff(kind).apply_to(Visible(line)))?;
        }
    }
    if let Some(waited) = &failure.timed_out {
        writeln!(out)?;
        writeln!(
            out,
            "    {} {}",
            palette.style(Style::new().bold()).apply_to("timed out:"),
            Visible(timed_out_text(waited))
        )?;
    }
    if let Some(verdict) = failure_verdict(failure) {
        // `verdict: category — explanation (expected vs observed) — recommendation`.
        writeln!(out)?;
        writeln!(
            out,
            "    {} {}",
            palette.style(Style::new().bold()).apply_to("verdict:"),
            Visible(verdict)
        )?;
    }
    let failing_line = match &failure.cause {
        FailureCause::Step(step) => step.code_line,
        _ => None,
    };
    for (label, code) in code_blocks(failure) {
        writeln!(out)?;
        writeln!(out, "  {}", dim.apply_to(format!("{label}:")))?;
        for (n, line) in code.lines().enumerate() {
            let n = n as u32 + 1;
            let marker = if Some(n) == failing_line { ">" } else { " " };
            writeln!(out, "  {marker} {n:>3} | {}", Visible(line))?;
        }
    }
    // The page the step found is the work of the code written before it in this run.
    for written in &failure.written_before {
        writeln!(out)?;
        let label = format!(
            "code of step {} \"{}\", written in this run:",
            written.step_index, written.step
        );
        writeln!(out, "  {}", dim.apply_to(Visible(label)))?;
        for (n, line) in written.code.lines().enumerate() {
            writeln!(out, "    {:>3} | {}", n + 1, Visible(line))?;
        }
    }
    Ok(())
}

/// Which call ran out which timeout, how long it waited, and where that timeout is set.
pub(crate) fn timed_out_text(waited: &Waited) -> String {
    format!(
        "the `{}` call waited its whole {} timeout, which is {}: raise it, or write \"wait \
         until … appears\" before this step if the page is slow to show what it needs",
        waited.method,
        wait_seconds(waited.timeout),
        waited.setting.place()
    )
}

/// Writes where Ctrl-C stopped a test: the step, where it is, and that nothing was written.
fn write_interruption(
    out: &mut dyn Write,
    palette: Palette,
    test: &TestId,
    at: &Interruption,
) -> io::Result<()> {
    let yellow = palette.style(Style::new().yellow().bold());
    let dim = palette.style(Style::new().dim());
    writeln!(out)?;
    writeln!(
        out,
        "{} {}",
        yellow.apply_to("──── INTERRUPTED"),
        Visible(test)
    )?;
    writeln!(out, "  step {}: {}", at.step_index, Visible(&at.step))?;
    writeln!(
        out,
        "  at {}",
        dim.apply_to(format!("{}:{}", Visible(&test.scenario), at.line))
    )?;
    writeln!(out)?;
    writeln!(out, "    {}", at.message())
}

/// The end of a terminal report: failure details, counts, the slowest tests, LLM figures, the
/// closing `N passed, N failed` line and the total time (the last line).
#[derive(Debug, Default)]
pub(crate) struct Summary {
    failures: Vec<(TestId, TestFailure, Option<Attempt>)>,
    durations: Vec<(TestId, Duration)>,
    /// Failed attempts of tests that have not finished (`--retries`).
    attempts: Vec<(TestId, u32, TestFailure)>,
    /// Tests that Ctrl-C stopped, and where.
    interrupted: Vec<(TestId, Interruption)>,
}

impl Summary {
    /// Remembers a failed attempt of a test that runs again (`attempt` is the one that failed).
    pub(super) fn attempt_failed(&mut self, test: &TestId, attempt: u32, failure: &TestFailure) {
        self.attempts.push((test.clone(), attempt, failure.clone()));
    }

    /// Remembers a finished test: its failure (after those of its earlier attempts), where
    /// Ctrl-C stopped it, or, when it passed on a retry, the failures of the attempts before.
    pub(super) fn test_finished(
        &mut self,
        test: &TestId,
        duration: Duration,
        outcome: &TestOutcome,
    ) {
        let (failure, passed_on) = match outcome {
            TestOutcome::Passed => (None, None),
            TestOutcome::Flaky { attempts } => (None, Some(*attempts)),
            TestOutcome::Failed(failure) => (Some(&**failure), None),
            TestOutcome::Interrupted(at) => {
                self.interrupted.push((test.clone(), at.clone()));
                (None, None)
            }
        };
        self.durations.push((test.clone(), duration));
        let (earlier, others) = std::mem::take(&mut self.attempts)
            .into_iter()
            .partition(|(t, _, _)| t == test);
        self.attempts = others;
        let earlier: Vec<(TestId, u32, TestFailure)> = earlier;
        let last = earlier.iter().map(|(_, number, _)| number + 1).max();
        for (test, number, failure) in earlier {
            let attempt = Attempt { number, passed_on };
            self.failures.push((test, failure, Some(attempt)));
        }
        if let Some(failure) = failure {
            let attempt = last.map(|number| Attempt {
                number,
                passed_on: None,
            });
            self.failures.push((test.clone(), failure.clone(), attempt));
        }
    }

    /// The slowest tests, slowest first: none for a run of one test.
    fn slowest(&self) -> Vec<&(TestId, Duration)> {
        if self.durations.len() < 2 {
            return Vec::new();
        }
        let mut slowest: Vec<_> = self.durations.iter().collect();
        slowest.sort_by_key(|(_, duration)| std::cmp::Reverse(*duration));
        slowest.truncate(SLOWEST);
        slowest
    }

    /// Writes the summary: the failure details, what the run warns about, the counts (not
    /// when quiet), and the closing line with the total time.
    pub(super) fn write(
        &mut self,
        out: &mut dyn Write,
        palette: Palette,
        verbosity: Verbosity,
        stats: &RunStats,
    ) -> io::Result<()> {
        for (test, failure, attempt) in &self.failures {
            write_attempt_failure(out, palette, test, failure, *attempt)?;
        }
        for (test, at) in &self.interrupted {
            write_interruption(out, palette, test, at)?;
        }
        writeln!(out)?;
        write_warnings(out, palette, stats)?;
        write_not_run(out, palette, stats)?;
        if verbosity != Verbosity::Quiet {
            self.write_slowest(out, palette)?;
            write_counts(out, stats, verbosity)?;
        }
        write_closing(out, palette, verbosity, stats)?;
        self.failures.clear();
        self.interrupted.clear();
        Ok(())
    }

    fn write_slowest(&self, out: &mut dyn Write, palette: Palette) -> io::Result<()> {
        let slowest = self.slowest();
        if slowest.is_empty() {
            return Ok(());
        }
        let dim = palette.style(Style::new().dim());
        writeln!(out, "slowest:")?;
        for (test, duration) in slowest {
            writeln!(
                out,
                "  {} {}",
                dim.apply_to(seconds(*duration)),
                Visible(test)
            )?;
        }
        Ok(())
    }
}

/// What the run warns about: flaky tests, failures that are not the tests', a heal veto that
/// was off, every origin allowed, an LLM that was cut off.
fn write_warnings(out: &mut dyn Write, palette: Palette, stats: &RunStats) -> io::Result<()> {
    let loud = palette.style(Style::new().yellow().bold());
    if stats.flaky > 0 {
        writeln!(
            out,
            "{}",
            loud.apply_to(format!(
                "{} flaky test(s): failed, then passed on a retry (see the failures above)",
                stats.flaky
            ))
        )?;
    }
    if stats.infrastructure_failures > 0 {
        writeln!(
            out,
            "{} of the failures came from the infrastructure (browser, driver, LLM or an \
             app that could not be reached), not the tests",
            stats.infrastructure_failures
        )?;
    }
    if stats.configuration_failures > 0 {
        writeln!(
            out,
            "{} of the failures came from the configuration (a setting the steps need), \
             not the tests",
            stats.configuration_failures
        )?;
    }
    if stats.heal_veto_off {
        writeln!(
            out,
            "{}",
            loud.apply_to(
                "WARNING: the heal veto is off (heal.veto = false): healed code was allowed \
                 to check less than the code it replaced"
            )
        )?;
    }
    if stats.allowed_origins_off {
        writeln!(
            out,
            "{}",
            loud.apply_to(
                "WARNING: every origin is allowed ([browser] allowed_origins = [\"*\"]): step \
                 code could read file: URLs and send what it read to any host"
            )
        )?;
    }
    if stats.llm_cut_off {
        writeln!(
            out,
            "the LLM failed {} times in a row: the rest of the run made no LLM calls",
            crate::llm::BREAKER_LIMIT
        )?;
    }
    Ok(())
}

/// Why tests did not run, when some did not.
fn write_not_run(out: &mut dyn Write, palette: Palette, stats: &RunStats) -> io::Result<()> {
    if let Some(StopReason::Halted(reason)) = &stats.stopped {
        let loud = palette.style(Style::new().red().bold());
        writeln!(
            out,
            "{} {} test(s) did not run",
            loud.apply_to(format!("the run stopped: {}.", Visible(reason))),
            stats.not_run
        )
    } else if stats.interrupted() {
        writeln!(out, "interrupted: {} test(s) did not run", stats.not_run)
    } else if stats.not_run > 0 {
        writeln!(out, "{} test(s) did not run", stats.not_run)
    } else {
        Ok(())
    }
}

/// The steps by source (and writer), the checks by proof, and the LLM figures. Unproven checks
/// are named only in verbose mode, so a count of them says how to see which they are.
fn write_counts(out: &mut dyn Write, stats: &RunStats, verbosity: Verbosity) -> io::Result<()> {
    let mut writers = Vec::new();
    if stats.builtin_steps > 0 {
        writers.push(format!("{} by the built-in generator", stats.builtin_steps));
    }
    if stats.reused_steps > 0 && stats.llm_writes {
        // Each reused step stood in for at least one generation or heal request.
        writers.push(format!(
            "{0} reused, {0} LLM request(s) saved",
            stats.reused_steps
        ));
    } else if stats.reused_steps > 0 {
        // No LLM would have been asked: reuse saved the built-in generator's work, not a
        // request.
        writers.push(format!("{} reused", stats.reused_steps));
    }
    let builtin = if writers.is_empty() {
        String::new()
    } else {
        format!(" ({})", writers.join("; "))
    };
    let skipped = if stats.skipped_steps > 0 {
        format!(", {} skipped (optional)", stats.skipped_steps)
    } else {
        String::new()
    };
    writeln!(
        out,
        "steps: {} cached, {} generated, {} healed{skipped}{builtin}",
        stats.cached_steps, stats.generated_steps, stats.healed_steps
    )?;
    let checks = stats.checks_proven + stats.checks_unproven + stats.checks_vacuous;
    if checks > 0 {
        let vacuous = if stats.checks_vacuous > 0 {
            format!(", {} cannot fail", stats.checks_vacuous)
        } else {
            String::new()
        };
        writeln!(
            out,
            "checks: {} proven, {} unproven{vacuous}",
            stats.checks_proven, stats.checks_unproven
        )?;
        if stats.checks_unproven > 0 && verbosity != Verbosity::Verbose {
            writeln!(
                out,
                "  -v names each unproven check at its line, with why no mutation could prove it"
            )?;
        }
    }
    if stats.llm_requests > 0 {
        writeln!(out, "{}", llm_summary(stats))?;
    }
    Ok(())
}

/// The closing line, `N passed, N failed` (`, N flaky`, `, N interrupted` when some were),
/// and the total time unless quiet.
fn write_closing(
    out: &mut dyn Write,
    palette: Palette,
    verbosity: Verbosity,
    stats: &RunStats,
) -> io::Result<()> {
    let passed = format!("{} passed", stats.passed);
    let failed = format!("{} failed", stats.failed);
    let passed = if stats.passed > 0 {
        palette
            .style(Style::new().green())
            .apply_to(passed)
            .to_string()
    } else {
        passed
    };
    let failed = if stats.failed > 0 {
        palette
            .style(Style::new().red())
            .apply_to(failed)
            .to_string()
    } else {
        failed
    };
    let mut closing = format!("{passed}, {failed}");
    if stats.flaky > 0 {
        let flaky = format!("{} flaky", stats.flaky);
        closing.push_str(&format!(
            ", {}",
            palette.style(Style::new().yellow()).apply_to(flaky)
        ));
    }
    if stats.interrupted_tests > 0 {
        closing.push_str(&format!(", {} interrupted", stats.interrupted_tests));
    }
    writeln!(out, "{closing}")?;
    if verbosity != Verbosity::Quiet {
        let dim = palette.style(Style::new().dim());
        writeln!(
            out,
            "{}",
            dim.apply_to(format!("finished in {}", seconds(stats.duration)))
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing;

    fn failure_details(failure: &TestFailure, colors: bool) -> String {
        let mut out = Vec::new();
        let test = testing::id("scenarios/todo.steps", "add a todo", 2);
        write_failure(&mut out, Palette { colors }, &test, failure).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn diff_lines_are_told_apart_from_the_text_around_them() {
        let text = "the veto refused it\n--- not a diff\n\nthe cached code failed:\n\
                    --- cached\n+++ healed\n@@ -1,3 +1,3 @@\n async function step(page) {\n\
                    -  one\n+  two\n\\ No newline at end of file\nafter\n- a list item";
        let kinds: Vec<DiffLine> = diff_lines(text).into_iter().map(|(k, _)| k).collect();
        use DiffLine::*;
        assert_eq!(
            kinds,
            [
                Text, Text, Text, Text, Header, Header, Header, Context, Removed, Added, Context,
                Text, Text
            ]
        );
        assert_eq!(diff_lines("")[..], []);
    }

    #[test]
    fn a_timed_out_call_is_named_with_its_timeout_and_where_it_is_set() {
        let mut failure = testing::check_failure();
        failure.timed_out = Some(Waited {
            method: "expect".into(),
            call: Duration::from_millis(5004),
            before: Duration::ZERO,
            timeout: Duration::from_secs(5),
            setting: crate::step::TimeoutSetting::Browser,
            run: crate::step::WaitedIn::Step,
        });
        let details = failure_details(&failure, false);
        assert!(
            details.contains(
                "    timed out: the `expect` call waited its whole 5 s timeout, which is [browser] \
                 timeout (in prettyplay.toml; PRETTYPLAY_BROWSER_TIMEOUT or --timeout override \
                 it): raise it, or write \"wait until … appears\" before this step"
            ),
            "{details}"
        );
        assert!(!failure_details(&testing::check_failure(), false).contains("timed out:"));
    }

    #[test]
    fn the_code_written_before_an_incurable_step_is_shown_after_its_own() {
        let mut failure = testing::check_failure();
        failure.written_before = vec![crate::runner::WrittenStep {
            step_index: 1,
            step: "open the app".into(),
            code: "async function step(page) {\n  await page.goto('/other');\n}".into(),
        }];
        let details = failure_details(&failure, false);
        let own = details.find("step code:").unwrap();
        let earlier = details
            .find("code of step 1 \"open the app\", written in this run:\n")
            .unwrap();
        assert!(own < earlier, "{details}");
        assert!(
            details.contains("      2 |   await page.goto('/other');\n"),
            "{details}"
        );
    }

    #[test]
    fn a_count_of_unproven_checks_says_that_verbose_mode_names_them() {
        let counts = |unproven, verbosity| {
            let stats = RunStats {
                checks_proven: 2,
                checks_unproven: unproven,
                ..RunStats::default()
            };
            let mut out = Vec::new();
            write_counts(&mut out, &stats, verbosity).unwrap();
            String::from_utf8(out).unwrap()
        };
        let hint = "  -v names each unproven check at its line, with why no mutation could prove \
                    it\n";
        assert_eq!(
            counts(1, Verbosity::Normal),
            format!("steps: 0 cached, 0 generated, 0 healed\nchecks: 2 proven, 1 unproven\n{hint}")
        );
        // Verbose mode names them already; with none unproven there is nothing to name.
        assert!(!counts(1, Verbosity::Verbose).contains("-v names"));
        assert!(!counts(0, Verbosity::Normal).contains("-v names"));
    }

    #[test]
    fn reused_steps_claim_saved_llm_requests_only_when_an_llm_could_write() {
        let counts = |llm_writes| {
            let stats = RunStats {
                generated_steps: 2,
                reused_steps: 1,
                llm_writes,
                ..RunStats::default()
            };
            let mut out = Vec::new();
            write_counts(&mut out, &stats, Verbosity::Normal).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(
            counts(true),
            "steps: 0 cached, 2 generated, 0 healed (1 reused, 1 LLM request(s) saved)\n"
        );
        assert_eq!(
            counts(false),
            "steps: 0 cached, 2 generated, 0 healed (1 reused)\n"
        );
    }

    #[test]
    fn a_vetoed_heal_shows_the_kept_code_and_the_refused_candidate() {
        let vetoed = testing::vetoed_failure();
        assert_eq!(
            code_blocks(&vetoed),
            [
                ("cached code (kept)", testing::KEPT),
                ("refused candidate", testing::REFUSED)
            ]
        );
        // An older report's failure holds the candidate as its code: it is shown once.
        let mut older = vetoed.clone();
        older.code = Some(testing::REFUSED.into());
        assert_eq!(
            code_blocks(&older),
            [("refused candidate", testing::REFUSED)]
        );
        let mut no_code = vetoed;
        no_code.code = None;
        assert_eq!(
            code_blocks(&no_code),
            [("refused candidate", testing::REFUSED)]
        );
        // Any other failure shows its step code, when it has some.
        let check = testing::check_failure();
        let code = check.code.clone().unwrap();
        assert_eq!(code_blocks(&check), [("step code", code.as_str())]);
        let mut without = check;
        without.code = None;
        assert!(code_blocks(&without).is_empty());
    }

    #[test]
    fn the_details_of_a_vetoed_heal() {
        insta::assert_snapshot!(failure_details(&testing::vetoed_failure(), false));
    }

    #[test]
    fn the_diff_of_a_vetoed_heal_is_coloured_only_when_colours_are_on() {
        let plain = failure_details(&testing::vetoed_failure(), false);
        assert!(!plain.contains('\u{1b}'), "{plain}");
        let coloured = failure_details(&testing::vetoed_failure(), true);
        let red = "\u{1b}[31m-  await expect(page.getByRole('listitem')).toHaveCount(1);\u{1b}[0m";
        let green =
            "\u{1b}[32m+  await expect(page.getByRole('listitem')).toHaveCount(2);\u{1b}[0m";
        assert!(coloured.contains(red), "{coloured:?}");
        assert!(coloured.contains(green), "{coloured:?}");
        // The code blocks are not diffs: their lines are not coloured.
        assert!(
            coloured
                .contains("      2 |   await expect(page.getByRole('listitem')).toHaveCount(1);\n"),
            "{coloured:?}"
        );
    }

    #[test]
    fn the_llm_line_splits_the_input_only_when_a_server_reported_cached_tokens() {
        let stats = RunStats {
            llm_requests: 3,
            tokens_in: 3600,
            tokens_out: 240,
            llm_wait: Duration::from_millis(1200),
            ..RunStats::default()
        };
        assert_eq!(
            llm_summary(&stats),
            "LLM: 3 request(s), 3600 tokens in, 240 tokens out, 1.20s waiting"
        );
        let cached = RunStats {
            tokens_in_cached: 2400,
            ..stats
        };
        assert_eq!(
            llm_summary(&cached),
            "LLM: 3 request(s), 3600 tokens in (1200 fresh, 2400 cached), 240 tokens out, 1.20s waiting"
        );
    }

    #[test]
    fn every_summary_warns_when_every_origin_is_allowed() {
        for verbosity in [Verbosity::Quiet, Verbosity::Normal, Verbosity::Verbose] {
            let summary = |allowed_origins_off: bool| {
                let mut out = Vec::new();
                let stats = RunStats {
                    passed: 1,
                    allowed_origins_off,
                    ..RunStats::default()
                };
                Summary::default()
                    .write(&mut out, Palette { colors: false }, verbosity, &stats)
                    .unwrap();
                String::from_utf8(out).unwrap()
            };
            let text = summary(true);
            assert!(
                text.lines().any(|l| l
                    == "WARNING: every origin is allowed ([browser] allowed_origins = [\"*\"]): \
                        step code could read file: URLs and send what it read to any host"),
                "{verbosity:?}:\n{text}"
            );
            assert!(!summary(false).contains("allowed_origins"));
        }
    }

    #[test]
    fn every_summary_warns_when_the_heal_veto_is_off() {
        let summary = |heal_veto_off: bool, verbosity: Verbosity| {
            let mut out = Vec::new();
            let stats = RunStats {
                passed: 1,
                heal_veto_off,
                ..RunStats::default()
            };
            Summary::default()
                .write(&mut out, Palette { colors: false }, verbosity, &stats)
                .unwrap();
            String::from_utf8(out).unwrap()
        };
        for verbosity in [Verbosity::Quiet, Verbosity::Normal, Verbosity::Verbose] {
            let text = summary(true, verbosity);
            assert!(
                text.lines()
                    .any(|l| l.starts_with("WARNING: the heal veto is off")),
                "{verbosity:?}:\n{text}"
            );
            assert!(!summary(false, verbosity).contains("heal veto"));
        }
    }

    #[test]
    fn a_failure_of_a_browser_project_names_it_in_its_heading_and_the_slowest_list() {
        let test = crate::report::testing::id("scenarios/login.steps", "log in", 2);
        assert_eq!(project_prefix(&test), "");
        let test = test.in_project(Some("firefox"));
        assert_eq!(project_prefix(&test), "[firefox] ");
        let mut out = Vec::new();
        let failure = crate::report::testing::check_failure();
        write_failure(&mut out, Palette { colors: false }, &test, &failure).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("\n──── FAIL [firefox] scenarios/login.steps › log in\n"),
            "{text}"
        );
        assert!(text.contains("\n  at scenarios/login.steps:4\n"), "{text}");
        let mut summary = Summary::default();
        let chromium = test.clone().in_project(Some("chromium"));
        summary.test_finished(&test, Duration::from_secs(2), &TestOutcome::Passed);
        summary.test_finished(&chromium, Duration::from_secs(1), &TestOutcome::Passed);
        let mut out = Vec::new();
        let stats = RunStats::default();
        summary
            .write(
                &mut out,
                Palette { colors: false },
                Verbosity::Normal,
                &stats,
            )
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(
                "slowest:\n  2.00s [firefox] scenarios/login.steps › log in\n  1.00s [chromium] \
                 scenarios/login.steps › log in\n"
            ),
            "{text}"
        );
    }
}
