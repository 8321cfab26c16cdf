//! The runner: selects tests, loads their cached code, and runs each test on a thread of its
//! own with a fresh browser context, turning everything into [`RunEvent`]s.
//!
//! Main type: [`Runner`].

use std::collections::HashMap;
use std::sync::mpsc;
use std::time::Instant;

use regex::Regex;

use std::sync::Arc;

use crate::cache::{Cache, CacheError, CacheFile};
use crate::config::PollingSettings;
use crate::config::{BudgetSettings, LlmSettings};
use crate::driver::BrowserRuntime;
use crate::llm::LlmProvider;
use crate::runner::test_run::{TestPlan, run_test};
use crate::runner::{FailureCause, RunEvent, RunStats, TestFailure, TestId, TestOutcome};
use crate::scenario::Scenario;
use crate::script::Limits;

/// How steps get their code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Cached code only; a step without cached code fails its test. Never contacts an LLM.
    StrictReplay,
    /// Cached code only, never generates or heals; a failure gets a verdict when an LLM is
    /// configured and reachable.
    Replay,
    /// Generates missing steps; heals failing ones unless `heal` is off (then a failure gets a
    /// verdict, as in replay).
    Run { heal: bool },
}

/// Everything about how tests run that is not the tests themselves.
pub struct RunConfig {
    pub mode: Mode,
    pub limits: Limits,
    pub polling: PollingSettings,
    pub cache: Cache,
    pub llm: LlmSettings,
    pub budgets: BudgetSettings,
    /// `None` in strict replay (never constructed) or when no LLM is configured.
    pub provider: Option<Arc<dyn LlmProvider>>,
}

/// A selected test: indexes into the scenario list and its tests.
pub type Selected = (usize, usize);

/// The tests matching `grep` (a regex searched in `file › test`), in scenario order.
pub fn select_tests(scenarios: &[Scenario], grep: Option<&Regex>) -> Vec<Selected> {
    scenarios
        .iter()
        .enumerate()
        .flat_map(|(si, scenario)| {
            scenario
                .tests
                .iter()
                .enumerate()
                .filter(move |(_, test)| {
                    grep.is_none_or(|re| {
                        re.is_match(&format!("{} › {}", scenario.rel_path, test.name))
                    })
                })
                .map(move |(ti, _)| (si, ti))
        })
        .collect()
}

/// Runs selected tests of a set of scenarios against one browser runtime.
pub struct Runner<'a> {
    scenarios: &'a [Scenario],
    selected: Vec<Selected>,
    cache_files: HashMap<usize, CacheFile>,
    config: RunConfig,
    /// The step-code API listing, sent to the LLM with every generation request.
    page_api: String,
}

impl<'a> Runner<'a> {
    /// Loads the cache files of the selected tests' scenarios; a malformed one is an error
    /// (and is left untouched).
    pub fn new(
        scenarios: &'a [Scenario],
        selected: Vec<Selected>,
        config: RunConfig,
    ) -> Result<Self, CacheError> {
        let cache = &config.cache;
        let mut cache_files = HashMap::new();
        for &(si, _) in &selected {
            if cache_files.contains_key(&si) {
                continue;
            }
            if let Some(file) = cache.load(&scenarios[si].rel_path)? {
                cache_files.insert(si, file);
            }
        }
        // Only the engine sends the listing; it comes from the binding, so a failure to list it
        // is a bug, reported in the request rather than hidden.
        let page_api = match config.provider {
            Some(_) => crate::script::api_listing().unwrap_or_else(|f| f.message),
            None => String::new(),
        };
        Ok(Self {
            scenarios,
            selected,
            cache_files,
            config,
            page_api,
        })
    }

    pub fn test_count(&self) -> usize {
        self.selected.len()
    }

    /// Runs every selected test in order and reports through `on_event`.
    pub fn run(
        &self,
        browser: &BrowserRuntime,
        handle: &tokio::runtime::Handle,
        on_event: &mut dyn FnMut(RunEvent),
    ) -> RunStats {
        let started = Instant::now();
        let mut stats = RunStats::default();
        on_event(RunEvent::RunStarted {
            tests: self.selected.len(),
        });
        for &(si, ti) in &self.selected {
            let scenario = &self.scenarios[si];
            let test = &scenario.tests[ti];
            let id = TestId {
                scenario: scenario.rel_path.clone(),
                name: test.name.clone(),
                line: test.line,
            };
            on_event(RunEvent::TestStarted { test: id.clone() });
            let test_started = Instant::now();
            let outcome = match handle.block_on(browser.new_test_page()) {
                Ok(page) => {
                    let plan = TestPlan {
                        id: id.clone(),
                        scenario,
                        test,
                        cached: self.cache_files.get(&si),
                        config: &self.config,
                        page_api: &self.page_api,
                    };
                    let mut relay = |event: RunEvent| {
                        stats.observe(&event);
                        on_event(event);
                    };
                    let outcome = run_on_thread(plan, page.clone(), handle, &mut relay);
                    handle.block_on(page.close());
                    outcome
                }
                Err(err) => TestOutcome::Failed(Box::new(TestFailure {
                    step: test
                        .steps
                        .first()
                        .map(|s| s.sentence.clone())
                        .unwrap_or_default(),
                    step_index: 1,
                    line: test.line,
                    cause: FailureCause::Infrastructure(
                        crate::error::Error::from(err).report().to_string(),
                    ),
                    code: None,
                    verdict: None,
                    screenshot: None,
                })),
            };
            match &outcome {
                TestOutcome::Passed => stats.passed += 1,
                TestOutcome::Failed(failure) => {
                    stats.failed += 1;
                    if failure.is_infrastructure() {
                        stats.infrastructure_failures += 1;
                    }
                }
            }
            on_event(RunEvent::TestFinished {
                test: id,
                outcome,
                duration: test_started.elapsed(),
            });
        }
        stats.duration = started.elapsed();
        on_event(RunEvent::RunFinished {
            stats: stats.clone(),
        });
        stats
    }
}

/// Runs one test's steps on a thread of its own (its JavaScript sandbox lives there), relaying
/// its events as they happen.
fn run_on_thread(
    plan: TestPlan<'_>,
    page: crate::driver::TestPage,
    handle: &tokio::runtime::Handle,
    on_event: &mut dyn FnMut(RunEvent),
) -> TestOutcome {
    let (tx, rx) = mpsc::channel();
    let failure_step = plan
        .test
        .steps
        .first()
        .map(|s| (s.sentence.clone(), s.line));
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name(format!("test {}", plan.id))
            .spawn_scoped(scope, {
                let handle = handle.clone();
                move || run_test(plan, page, handle, tx)
            });
        let worker = match worker {
            Ok(worker) => worker,
            Err(err) => {
                return internal_failure(
                    failure_step,
                    format!("could not start a test thread: {err}"),
                );
            }
        };
        for event in rx {
            on_event(event);
        }
        worker.join().unwrap_or_else(|_| {
            internal_failure(failure_step, "the test thread panicked".to_owned())
        })
    })
}

fn internal_failure(step: Option<(String, usize)>, message: String) -> TestOutcome {
    let (step, line) = step.unwrap_or_default();
    TestOutcome::Failed(Box::new(TestFailure {
        step,
        step_index: 1,
        line,
        cause: FailureCause::Infrastructure(message),
        code: None,
        verdict: None,
        screenshot: None,
    }))
}
