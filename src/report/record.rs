//! A run, gathered from its events into tests and steps: what the file reports (JUnit, HTML)
//! render once the run has finished.
//!
//! Main type: [`RunRecord`].

use std::time::Duration;

use super::details::code_blocks;
use crate::llm::Classification;
use crate::runner::{
    EventKind, RunEvent, RunKind, RunStats, StepId, StepKind, StepSource, TestFailure, TestId,
    TestKind, TestOutcome,
};

/// Everything a file report shows of a run.
#[derive(Debug, Clone, Default)]
pub(crate) struct RunRecord {
    /// Finished tests, in the order they finished.
    pub tests: Vec<TestRecord>,
    /// The totals, once the run finished.
    pub stats: Option<RunStats>,
    /// When the run started, when its first event says (events of an older prettyplay do not).
    pub started: Option<jiff::Timestamp>,
    /// The totals counted from the events so far, for a run that did not finish.
    counted: RunStats,
    /// The tests being run (several with parallel workers).
    running: Vec<TestRecord>,
}

/// One test and what happened to its steps.
#[derive(Debug, Clone)]
pub(crate) struct TestRecord {
    pub id: TestId,
    /// The steps of the last attempt (the only one without `--retries`).
    pub steps: Vec<StepRecord>,
    /// The attempts that failed before the last one (`--retries`), in order.
    pub retries: Vec<AttemptRecord>,
    pub outcome: Option<TestOutcome>,
    pub duration: Duration,
    pub warnings: Vec<String>,
    pub traces: Vec<String>,
}

impl TestRecord {
    fn new(id: TestId) -> Self {
        Self {
            id,
            steps: Vec::new(),
            retries: Vec::new(),
            outcome: None,
            duration: Duration::ZERO,
            warnings: Vec::new(),
            traces: Vec::new(),
        }
    }

    /// The test's failure; `None` for a test that passed, did not finish, or that Ctrl-C
    /// stopped (interrupted is not failed).
    pub(super) fn failure(&self) -> Option<&TestFailure> {
        match &self.outcome {
            Some(TestOutcome::Failed(failure)) => Some(failure),
            _ => None,
        }
    }

    /// Whether Ctrl-C stopped the test.
    pub(super) fn interrupted(&self) -> bool {
        matches!(&self.outcome, Some(TestOutcome::Interrupted(_)))
    }

    /// Whether the test passed, at once or on a retry (flaky).
    pub(super) fn passed(&self) -> bool {
        matches!(
            self.outcome,
            Some(TestOutcome::Passed | TestOutcome::Flaky { .. })
        )
    }

    /// Whether the test failed, then passed on a retry.
    pub(super) fn flaky(&self) -> bool {
        matches!(self.outcome, Some(TestOutcome::Flaky { .. }))
    }

    /// Whether any step of the test was healed.
    pub(super) fn healed(&self) -> bool {
        self.steps.iter().any(|s| s.heal.is_some())
    }

    /// Marks the step `failure` names as failed, with the failure's code and verdict.
    fn fail_step(&mut self, failure: &TestFailure) {
        let step = self.step(failure.step_index);
        if step.sentence.is_empty() {
            step.sentence.clone_from(&failure.step);
        }
        if step.line == 0 {
            step.line = failure.line;
        }
        step.status = StepStatus::Failed;
        if let Some((label, code)) = code_blocks(failure).first() {
            step.code = Some((*code).to_owned());
            step.code_label = label;
        }
        if step.verdict.is_none() {
            step.verdict.clone_from(&failure.verdict);
        }
    }

    fn step(&mut self, index: usize) -> &mut StepRecord {
        let at = match self.steps.iter().position(|s| s.index == index) {
            Some(at) => at,
            None => {
                self.steps.push(StepRecord::new(index));
                self.steps.len() - 1
            }
        };
        &mut self.steps[at]
    }
}

/// A failed attempt of a test that ran again: its steps and its failure.
#[derive(Debug, Clone)]
pub(crate) struct AttemptRecord {
    /// 1 for the first attempt.
    pub number: u32,
    pub steps: Vec<StepRecord>,
    pub failure: TestFailure,
    pub duration: Duration,
}

/// How a step ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StepStatus {
    /// Started (an LLM attempt, a retry) but not reported as passed or failed.
    Unfinished,
    Passed(StepSource),
    Failed,
    /// An `[optional]` step whose target did not appear: neither passed nor failed.
    Skipped,
}

/// A rot heal: why, and the code before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Heal {
    pub explanation: String,
    pub old_code: String,
    pub new_code: String,
}

/// One step of a test.
#[derive(Debug, Clone)]
pub(crate) struct StepRecord {
    /// 1-based index of the step in its test.
    pub index: usize,
    pub sentence: String,
    /// Line of the step in the scenario file (0 when no event said).
    pub line: usize,
    pub status: StepStatus,
    pub duration: Duration,
    /// The code that passed, or the code that failed.
    pub code: Option<String>,
    /// What `code` is: `step code`, or for a vetoed heal `cached code (kept)`.
    pub code_label: &'static str,
    /// How the code's checks were proven, if known.
    pub proof: Option<crate::engine::StepProof>,
    /// Settle retries (executions after the first).
    pub retries: u32,
    /// LLM attempts at the step's code.
    pub attempts: u32,
    pub heal: Option<Heal>,
    pub verdict: Option<Classification>,
    /// `console.*` output of the step's code.
    pub logs: Vec<String>,
    /// Why a skipped step was skipped.
    pub skip_reason: Option<String>,
}

impl StepRecord {
    /// Adds what an event of the step says.
    fn observe(&mut self, kind: &StepKind) {
        match kind {
            StepKind::Started(_) | StepKind::HealingStarted(_) => {}
            StepKind::Passed(passed) => {
                self.ended(&passed.sentence, passed.line, passed.duration);
                self.status = StepStatus::Passed(passed.source);
                self.code = Some(passed.code.clone());
                self.code_label = "step code";
                self.proof.clone_from(&passed.proof);
            }
            StepKind::Failed(failed) => {
                self.ended(&failed.sentence, failed.line, failed.duration);
                self.status = StepStatus::Failed;
            }
            StepKind::Skipped(skipped) => {
                self.ended(&skipped.sentence, skipped.line, skipped.duration);
                self.status = StepStatus::Skipped;
                self.skip_reason = Some(skipped.reason.clone());
            }
            StepKind::SettleRetry(_) => self.retries += 1,
            StepKind::Log(log) => self.logs.push(log.line.clone()),
            StepKind::GenerationStarted(_) => self.attempts += 1,
            StepKind::ReuseTried(tried) => {
                let line = match &tried.failure {
                    None => format!("reused the code of {}", tried.from),
                    Some(failure) => format!(
                        "the code of {} was tried and failed here: {}",
                        tried.from,
                        failure.lines().next().unwrap_or_default()
                    ),
                };
                self.logs.push(line);
            }
            StepKind::Healed(healed) => {
                self.sentence.clone_from(&healed.sentence);
                self.heal = Some(Heal {
                    explanation: healed.explanation.clone(),
                    old_code: healed.old_code.clone(),
                    new_code: healed.new_code.clone(),
                });
            }
            StepKind::Verdict(verdict) => self.verdict = Some(verdict.verdict.clone()),
        }
    }

    /// The step ended (passed, failed or was skipped): its sentence, line and duration.
    fn ended(&mut self, sentence: &str, line: usize, duration: Duration) {
        sentence.clone_into(&mut self.sentence);
        self.line = line;
        self.duration = duration;
    }

    fn new(index: usize) -> Self {
        Self {
            index,
            sentence: String::new(),
            line: 0,
            status: StepStatus::Unfinished,
            duration: Duration::ZERO,
            code: None,
            code_label: "step code",
            proof: None,
            retries: 0,
            attempts: 0,
            heal: None,
            verdict: None,
            logs: Vec::new(),
            skip_reason: None,
        }
    }
}

impl RunRecord {
    /// Adds what `event` says.
    pub(super) fn observe(&mut self, event: &RunEvent) {
        self.counted.observe(event);
        match &event.kind {
            EventKind::Run(RunKind::Started(_)) => {
                self.started = event.time.map(|time| time.timestamp);
            }
            EventKind::Run(RunKind::Finished(finished)) => {
                self.stats = Some(finished.stats.clone());
            }
            EventKind::Test(test, kind) => self.test_event(test, kind),
            EventKind::Step(StepId { test, index }, kind) => {
                self.test(test).step(*index).observe(kind);
            }
        }
    }

    /// Adds what an event of `test` (not of one of its steps) says.
    fn test_event(&mut self, test: &TestId, kind: &TestKind) {
        match kind {
            TestKind::Started => {
                self.running.retain(|t| t.id != *test);
                self.running.push(TestRecord::new(test.clone()));
            }
            TestKind::Timing(_) | TestKind::LlmCall(_) | TestKind::Origins(_) => {}
            TestKind::Warning(warning) => self.test(test).warnings.push(warning.message.clone()),
            TestKind::TraceWritten(trace) => {
                self.test(test)
                    .traces
                    .push(trace.path.display().to_string());
            }
            TestKind::Retry(retry) => {
                let record = self.test(test);
                record.fail_step(&retry.failure);
                let mut steps = std::mem::take(&mut record.steps);
                steps.sort_by_key(|s| s.index);
                record.retries.push(AttemptRecord {
                    number: retry.attempt - 1,
                    steps,
                    failure: (*retry.failure).clone(),
                    duration: retry.duration,
                });
            }
            TestKind::Finished(finished) => {
                let mut record = match self.running.iter().position(|t| t.id == *test) {
                    Some(at) => self.running.remove(at),
                    None => TestRecord::new(test.clone()),
                };
                if let TestOutcome::Failed(failure) = &finished.outcome {
                    record.fail_step(failure);
                }
                record.steps.sort_by_key(|s| s.index);
                record.outcome = Some(finished.outcome.clone());
                record.duration = finished.duration;
                self.tests.push(record);
            }
        }
    }

    /// The record of the running test `id` (a fresh one if its start was not seen).
    fn test(&mut self, id: &TestId) -> &mut TestRecord {
        let at = match self.running.iter().position(|t| t.id == *id) {
            Some(at) => at,
            None => {
                self.running.push(TestRecord::new(id.clone()));
                self.running.len() - 1
            }
        };
        &mut self.running[at]
    }

    /// Finished tests, then tests that never finished (an interrupted run), sorted by browser
    /// project, scenario file and line so that reports do not depend on which worker finished
    /// first. Tests without a project come first.
    pub(super) fn all_tests(&self) -> Vec<&TestRecord> {
        let mut tests: Vec<&TestRecord> = self.tests.iter().chain(&self.running).collect();
        tests.sort_by(|a, b| sort_key(&a.id).cmp(&sort_key(&b.id)));
        tests
    }

    /// The totals: those of `RunFinished`, or counted from the events when the run did not
    /// finish (its duration then is that of the finished tests).
    pub(super) fn totals(&self) -> RunStats {
        match &self.stats {
            Some(stats) => stats.clone(),
            None => RunStats {
                duration: self.tests.iter().map(|t| t.duration).sum(),
                ..self.counted.clone()
            },
        }
    }

    /// [`Self::all_tests`] grouped by browser project and scenario file, so that a file run in
    /// two browsers is two groups.
    pub(super) fn by_scenario(&self) -> Vec<(ScenarioGroup<'_>, Vec<&TestRecord>)> {
        let mut groups: Vec<(ScenarioGroup<'_>, Vec<&TestRecord>)> = Vec::new();
        for test in self.all_tests() {
            let group = ScenarioGroup::of(&test.id);
            match groups.iter_mut().find(|(g, _)| *g == group) {
                Some((_, tests)) => tests.push(test),
                None => groups.push((group, vec![test])),
            }
        }
        groups
    }
}

/// The order of tests in the file reports: project, scenario file, line.
fn sort_key(id: &TestId) -> (Option<&str>, &str, usize) {
    (id.project.as_deref(), &id.scenario, id.line)
}

/// The tests of one scenario file in one browser project.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ScenarioGroup<'a> {
    /// The browser project, `None` in a run of the default Chromium alone.
    pub project: Option<&'a str>,
    pub scenario: &'a str,
}

impl<'a> ScenarioGroup<'a> {
    /// The group of the test `id`.
    pub(crate) fn of(id: &'a TestId) -> Self {
        Self {
            project: id.project.as_deref(),
            scenario: &id.scenario,
        }
    }
}

impl std::fmt::Display for ScenarioGroup<'_> {
    /// `scenarios/todo.steps`, or `[firefox] scenarios/todo.steps` in a browser project, as
    /// the test ids name their file.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(project) = self.project {
            write!(f, "[{project}] ")?;
        }
        f.write_str(self.scenario)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing;
    use crate::runner::RunFinished;

    #[test]
    fn gathers_steps_heals_verdicts_and_the_failed_step() {
        let mut record = RunRecord::default();
        for event in testing::events() {
            record.observe(&event);
        }
        assert_eq!(record.tests.len(), 3);
        assert!(record.running.is_empty());
        let healed = &record.tests[1];
        assert!(healed.passed() && healed.healed());
        let failed = &record.tests[2];
        let last = failed.steps.last().unwrap();
        assert_eq!(last.status, StepStatus::Failed);
        assert!(last.code.is_some() && last.verdict.is_some());
        assert_eq!(
            record
                .by_scenario()
                .iter()
                .map(|(g, t)| (g.scenario, t.len()))
                .collect::<Vec<_>>(),
            [("scenarios/login.steps", 1), ("scenarios/todo.steps", 2)]
        );
    }

    #[test]
    fn the_totals_of_a_run_that_did_not_finish_are_counted_from_its_events() {
        let mut events = testing::events();
        let Some(EventKind::Run(RunKind::Finished(RunFinished { stats }))) =
            events.pop().map(|event| event.kind)
        else {
            panic!("the fixture ends with the run's totals");
        };
        let mut record = RunRecord::default();
        for event in &events {
            record.observe(event);
        }
        assert_eq!(
            record.totals(),
            RunStats {
                duration: Duration::from_millis(1900 + 2400 + 3700),
                ..stats
            }
        );
    }

    #[test]
    fn tests_are_sorted_and_grouped_by_project_then_file_then_line() {
        let mut record = RunRecord::default();
        for event in testing::two_browser_events() {
            record.observe(&event);
        }
        let order: Vec<String> = record
            .all_tests()
            .iter()
            .map(|t| format!("{}:{}", t.id, t.id.line))
            .collect();
        assert_eq!(
            order,
            [
                "[chromium] scenarios/login.steps › log in:2",
                "[chromium] scenarios/todo.steps › add a todo:2",
                "[chromium] scenarios/todo.steps › rename a todo:6",
                "[firefox] scenarios/login.steps › log in:2",
                "[firefox] scenarios/todo.steps › add a todo:2",
                "[firefox] scenarios/todo.steps › rename a todo:6",
            ]
        );
        let groups: Vec<(String, usize)> = record
            .by_scenario()
            .iter()
            .map(|(g, t)| (g.to_string(), t.len()))
            .collect();
        assert_eq!(
            groups,
            [
                ("[chromium] scenarios/login.steps".to_owned(), 1),
                ("[chromium] scenarios/todo.steps".to_owned(), 2),
                ("[firefox] scenarios/login.steps".to_owned(), 1),
                ("[firefox] scenarios/todo.steps".to_owned(), 2),
            ]
        );
    }

    #[test]
    fn tests_without_a_project_come_before_those_with_one() {
        let mut record = RunRecord::default();
        let finished = |test: TestId| testing::finished(&test, TestOutcome::Passed, 0);
        record.observe(&finished(
            testing::id("b.steps", "b", 1).in_project(Some("firefox")),
        ));
        record.observe(&finished(testing::id("z.steps", "z", 9)));
        let order: Vec<String> = record
            .all_tests()
            .iter()
            .map(|t| t.id.to_string())
            .collect();
        assert_eq!(order, ["z.steps › z", "[firefox] b.steps › b"]);
    }
}
