//! Browser projects: a run of every selected test once per browser, as Playwright's
//! `projects`. The projects run one after another, each in its own browser runtime and with
//! its own [`Runner`](crate::runner::Runner), so that code generated or healed in the first
//! browser a step runs in is in the cache, and proven on replay, when the next one starts. The
//! reporters see one run: one `RunStarted` with the whole matrix, every test's events with the
//! project in its name, and one `RunFinished` with the counts of all projects. Each event is
//! stamped with its time here, on its way to the reporters, by one clock for the whole matrix.
//!
//! Main entry point: [`run_projects`].

use crate::runner::{
    EventKind, RunClock, RunEvent, RunFinished, RunStarted, RunStats, StopReason, TestRef,
};

/// What one project's run needs from its caller: the project's index, its tests, the
/// failures it may still count before `--max-failures` stops it (`None`: no limit), and
/// where its events go. It returns the project's counts, or the error that kept it from
/// starting (a browser that cannot be launched is a test failure, not such an error).
pub(crate) type ProjectRun<'f, E> = dyn FnMut(usize, Vec<TestRef>, Option<usize>, &mut dyn FnMut(RunEvent)) -> Result<RunStats, E>
    + 'f;

/// Runs `selected` (the whole matrix, in project order) project by project with `run`, and
/// reports the matrix as one run through `on_event`, every event stamped with the time it got
/// there (as nextest's dispatcher stamps its events). A project whose run stopped the run
/// (Ctrl-C, `--max-failures`, a halt) leaves the later projects' tests not run. An error of a
/// project is returned once the events of the projects before it were reported, without a
/// `RunFinished`, as a run that cannot start reports none.
pub(crate) fn run_projects<E>(
    selected: &[TestRef],
    max_failures: Option<usize>,
    run: &mut ProjectRun<'_, E>,
    on_event: &mut dyn FnMut(RunEvent),
) -> Result<RunStats, E> {
    let clock = RunClock::start();
    on_event(
        RunEvent::of_run(RunStarted {
            tests: selected.len(),
        })
        .stamped(clock.now()),
    );
    let mut total = RunStats::default();
    let mut projects: Vec<usize> = selected.iter().map(|at| at.project).collect();
    projects.dedup();
    for project in projects {
        let tests: Vec<TestRef> = selected
            .iter()
            .copied()
            .filter(|at| at.project == project)
            .collect();
        if total.stopped.is_some() {
            total.not_run += tests.len();
            continue;
        }
        let left = max_failures.map(|max| max.saturating_sub(total.failed));
        if left == Some(0) {
            total.not_run += tests.len();
            total.stopped = max_failures.map(StopReason::MaxFailures);
            continue;
        }
        let stats = run(project, tests, left, &mut |event| match event.kind {
            EventKind::Run(_) => {}
            _ => on_event(event.stamped(clock.now())),
        })?;
        add(&mut total, &stats);
        // A project stopped by `--max-failures` stops the matrix with the run's own limit.
        if let Some(StopReason::MaxFailures(_)) = total.stopped {
            total.stopped = max_failures.map(StopReason::MaxFailures);
        }
    }
    total.duration = clock.elapsed();
    on_event(
        RunEvent::of_run(RunFinished {
            stats: total.clone(),
        })
        .stamped(clock.now()),
    );
    Ok(total)
}

/// Adds the counts of one project's run to the matrix's. The first reason a project stopped
/// is the matrix's, and a warning of any project is the matrix's.
fn add(total: &mut RunStats, project: &RunStats) {
    total.passed += project.passed;
    total.flaky += project.flaky;
    total.failed += project.failed;
    total.interrupted_tests += project.interrupted_tests;
    total.infrastructure_failures += project.infrastructure_failures;
    total.configuration_failures += project.configuration_failures;
    total.not_run += project.not_run;
    if total.stopped.is_none() {
        total.stopped.clone_from(&project.stopped);
    }
    total.llm_cut_off |= project.llm_cut_off;
    total.heal_veto_off |= project.heal_veto_off;
    total.llm_writes |= project.llm_writes;
    total.allowed_origins_off |= project.allowed_origins_off;
    total.cached_steps += project.cached_steps;
    total.generated_steps += project.generated_steps;
    total.healed_steps += project.healed_steps;
    total.skipped_steps += project.skipped_steps;
    total.builtin_steps += project.builtin_steps;
    total.reused_steps += project.reused_steps;
    total.checks_proven += project.checks_proven;
    total.checks_unproven += project.checks_unproven;
    total.checks_vacuous += project.checks_vacuous;
    total.llm_requests += project.llm_requests;
    total.tokens_in += project.tokens_in;
    total.tokens_in_cached += project.tokens_in_cached;
    total.tokens_out += project.tokens_out;
    total.llm_wait += project.llm_wait;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{FailureCause, RunKind, TestFailure, TestFinished, TestId, TestOutcome};
    use std::time::Duration;

    fn matrix(projects: usize, tests: usize) -> Vec<TestRef> {
        (0..projects)
            .flat_map(|p| (0..tests).map(move |t| TestRef::new(0, t).in_project(p)))
            .collect()
    }

    fn id(project: usize, test: usize) -> TestId {
        TestId {
            scenario: "a.steps".into(),
            name: format!("t{test}"),
            line: 1,
            project: Some(format!("p{project}")),
        }
    }

    /// A project run that fails the tests `failing` says and passes the others, stopping at
    /// its failure limit like the runner.
    fn scripted<'c>(
        failing: impl Fn(usize, usize) -> bool + 'c,
        calls: &'c mut Vec<(usize, usize, Option<usize>)>,
    ) -> Box<ProjectRun<'c, String>> {
        Box::new(move |project, tests, left, on_event| {
            calls.push((project, tests.len(), left));
            let mut stats = RunStats::default();
            on_event(RunEvent::of_run(RunStarted { tests: tests.len() }));
            for (i, at) in tests.iter().enumerate() {
                if left.is_some_and(|left| stats.failed >= left) {
                    stats.not_run = tests.len() - i;
                    stats.stopped = left.map(StopReason::MaxFailures);
                    break;
                }
                let outcome = if failing(project, at.test) {
                    stats.failed += 1;
                    TestOutcome::Failed(Box::new(TestFailure::at(
                        "s".into(),
                        1,
                        2,
                        FailureCause::CacheMiss,
                    )))
                } else {
                    stats.passed += 1;
                    TestOutcome::Passed
                };
                on_event(RunEvent::of_test(
                    id(project, at.test),
                    TestFinished {
                        outcome,
                        duration: Duration::ZERO,
                    },
                ));
            }
            on_event(RunEvent::of_run(RunFinished {
                stats: stats.clone(),
            }));
            Ok(stats)
        })
    }

    #[test]
    fn every_project_runs_its_tests_and_the_reporters_see_one_run() {
        let mut calls = Vec::new();
        let mut events = Vec::new();
        let mut run = scripted(|project, test| project == 1 && test == 0, &mut calls);
        let stats = run_projects(&matrix(2, 3), None, run.as_mut(), &mut |e| events.push(e))
            .expect("no project fails to start");
        drop(run);
        assert_eq!(calls, vec![(0, 3, None), (1, 3, None)]);
        assert_eq!((stats.passed, stats.failed, stats.not_run), (5, 1, 0));
        assert!(matches!(
            events.first().map(|e| &e.kind),
            Some(EventKind::Run(RunKind::Started(RunStarted { tests: 6 })))
        ));
        assert!(
            matches!(events.last().map(|e| &e.kind), Some(EventKind::Run(RunKind::Finished(RunFinished { stats }))) if stats.failed == 1)
        );
        let starts = events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Run(_)))
            .count();
        assert_eq!(
            starts, 2,
            "one RunStarted and one RunFinished for the matrix"
        );
    }

    #[test]
    fn every_event_reaches_the_reporters_stamped_by_one_clock_for_the_matrix() {
        let mut calls = Vec::new();
        let mut events = Vec::new();
        let mut run = scripted(|_, _| false, &mut calls);
        run_projects(&matrix(2, 2), None, run.as_mut(), &mut |e| events.push(e))
            .expect("no project fails to start");
        drop(run);
        let times: Vec<_> = events
            .iter()
            .map(|e| e.time.expect("every event is stamped"))
            .collect();
        assert_eq!(times.len(), 2 + 4);
        // One monotonic clock from the first event to the last, across the projects.
        assert!(
            times.windows(2).all(|w| w[0].elapsed <= w[1].elapsed),
            "{times:?}"
        );
    }

    #[test]
    fn max_failures_counts_across_projects_and_leaves_the_rest_not_run() {
        let mut calls = Vec::new();
        let mut run = scripted(|_, test| test == 0, &mut calls);
        let stats = run_projects(&matrix(3, 2), Some(2), run.as_mut(), &mut |_| {})
            .expect("no project fails to start");
        drop(run);
        assert_eq!(calls, vec![(0, 2, Some(2)), (1, 2, Some(1))]);
        assert_eq!(stats.failed, 2);
        assert_eq!(
            stats.not_run,
            1 + 2,
            "the second project's last test and the third's"
        );
        assert_eq!(stats.stopped, Some(StopReason::MaxFailures(2)));
    }

    #[test]
    fn an_interrupted_project_stops_the_matrix() {
        let mut run = |_: usize,
                       tests: Vec<TestRef>,
                       _: Option<usize>,
                       _: &mut dyn FnMut(RunEvent)|
         -> Result<RunStats, String> {
            Ok(RunStats {
                not_run: tests.len(),
                stopped: Some(StopReason::Interrupted),
                ..RunStats::default()
            })
        };
        let stats = run_projects(&matrix(2, 2), None, &mut run, &mut |_| {})
            .expect("no project fails to start");
        assert!(stats.interrupted());
        assert_eq!(stats.not_run, 4);
    }

    #[test]
    fn a_project_that_cannot_start_is_the_runs_error() {
        let mut started = Vec::new();
        let mut run = |project: usize,
                       _: Vec<TestRef>,
                       _: Option<usize>,
                       _: &mut dyn FnMut(RunEvent)|
         -> Result<RunStats, String> {
            started.push(project);
            if project == 1 {
                Err("no Firefox".to_owned())
            } else {
                Ok(RunStats::default())
            }
        };
        let err = run_projects(&matrix(2, 1), None, &mut run, &mut |_| {})
            .expect_err("the second project cannot start");
        assert_eq!(err, "no Firefox");
        assert_eq!(started, vec![0, 1]);
    }
}
