//! What a run runs: the selected tests of the whole browser-project matrix, how they run, and
//! the [`Runner`] of each project, made when the project's turn comes.
//!
//! Main type: [`RunJob`]. [`RunHost::run`](crate::runner::RunHost::run) runs it.

use crate::cache::CacheError;
use crate::runner::{RunConfig, Runner, TestRef};
use crate::scenario::Scenario;

/// The tests of a run and how they run, for every browser project.
pub(crate) struct RunJob<'a> {
    scenarios: &'a [Scenario],
    selected: &'a [TestRef],
    /// How the tests run; each project's runner gets it with the project's label.
    config: RunConfig,
    /// The label of each browser project (`None` for the default Chromium alone).
    labels: &'a [Option<String>],
    /// Where reuse looks for a sentence's code (see [`Runner::reusing_from`]).
    suite: &'a [Scenario],
    /// The first project's runner, made with the job.
    first: Option<Runner<'a>>,
}

impl<'a> RunJob<'a> {
    /// The job of running `selected` (in project order) with `config`. The first project's
    /// runner is made now, so that a malformed cache file is the error before anything starts;
    /// the others' are made when their turn comes, after the projects before them wrote what
    /// they generated.
    pub(crate) fn new(
        scenarios: &'a [Scenario],
        selected: &'a [TestRef],
        config: RunConfig,
        labels: &'a [Option<String>],
        suite: &'a [Scenario],
    ) -> Result<Self, CacheError> {
        let mut job = RunJob {
            scenarios,
            selected,
            config,
            labels,
            suite,
            first: None,
        };
        let project = job.first_project();
        let tests = job.tests_of(project);
        let max_failures = job.config.max_failures;
        job.first = Some(job.make_runner(project, tests, max_failures)?);
        Ok(job)
    }

    /// The selected tests, the whole matrix in project order.
    pub(crate) fn selected(&self) -> &'a [TestRef] {
        self.selected
    }

    /// The failures after which the run stops (`--max-failures`), if any.
    pub(crate) fn max_failures(&self) -> Option<usize> {
        self.config.max_failures
    }

    /// The project whose tests run first.
    pub(crate) fn first_project(&self) -> usize {
        self.selected.first().map_or(0, |at| at.project)
    }

    /// The runner of `project`'s `tests`, which may count `max_failures` more failures: the
    /// one made with the job for the first project, a new one for the others.
    pub(crate) fn runner(
        &mut self,
        project: usize,
        tests: Vec<TestRef>,
        max_failures: Option<usize>,
    ) -> Result<Runner<'a>, CacheError> {
        match self.first.take() {
            Some(runner) => Ok(runner),
            None => self.make_runner(project, tests, max_failures),
        }
    }

    fn make_runner(
        &self,
        project: usize,
        tests: Vec<TestRef>,
        max_failures: Option<usize>,
    ) -> Result<Runner<'a>, CacheError> {
        let config = RunConfig {
            project: self.labels.get(project).cloned().flatten(),
            max_failures,
            ..self.config.clone()
        };
        Ok(Runner::new(self.scenarios, tests, config)?.reusing_from(self.suite))
    }

    fn tests_of(&self, project: usize) -> Vec<TestRef> {
        self.selected
            .iter()
            .copied()
            .filter(|at| at.project == project)
            .collect()
    }
}
