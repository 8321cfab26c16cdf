//! Setup tests and the tests that start from what they saved (`[saves=NAME]`, `[state=NAME]`,
//! Playwright's setup project and `storageState`): which setups a selection needs, the order
//! tests may start in, and the state files.
//!
//! A setup test runs once per run, before every test that starts from its state; the state is
//! shared by every worker. A test whose setup failed (or never ran) does not run: it fails as
//! "setup failed".
//!
//! Main types: [`Schedule`] (the queue the workers take tests from) and [`Next`];
//! [`write_state`] writes a state file; `select.rs` adds the setups a selection needs.

use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::driver::SavedState;
use crate::runner::{Selected, SetupFailed, TestId};
use crate::scenario::Scenario;

/// What a worker does next.
#[derive(Debug)]
pub(crate) enum Next {
    /// Run this test, starting from this state.
    Run(Selected, Option<Arc<SavedState>>),
    /// Report this test as not run: the setup of its state failed.
    SetupFailed(Selected, SetupFailed),
    /// Nothing is left (or the run is stopping).
    Done,
}

/// Where a state stands in this run.
enum Progress {
    /// Its setup test has not finished.
    Pending,
    Saved(Arc<SavedState>),
    Failed(SetupFailed),
}

struct Queue {
    pending: VecDeque<Selected>,
    /// Tests handed out with [`Next::Run`] and not finished yet.
    running: usize,
    states: HashMap<String, Progress>,
}

/// The tests of a run in the order they may start: every test is handed out once, a test that
/// starts from a state only once its setup finished. Setup tests come first.
pub(crate) struct Schedule<'s> {
    scenarios: &'s [Scenario],
    queue: Mutex<Queue>,
    changed: Condvar,
}

/// How often a worker waiting for a setup looks at whether the run is stopping.
const WAIT_SLICE: Duration = Duration::from_millis(100);

impl<'s> Schedule<'s> {
    pub(crate) fn new(scenarios: &'s [Scenario], selected: &[Selected]) -> Self {
        let test = |&(si, ti): &Selected| &scenarios[si].tests[ti];
        let (setups, rest): (Vec<Selected>, Vec<Selected>) =
            selected.iter().partition(|at| test(at).saves.is_some());
        let mut pending = VecDeque::from(setups);
        let states = pending
            .iter()
            .filter_map(|at| Some((test(at).saves.clone()?, Progress::Pending)))
            .collect();
        pending.extend(rest);
        Schedule {
            scenarios,
            queue: Mutex::new(Queue {
                pending,
                running: 0,
                states,
            }),
            changed: Condvar::new(),
        }
    }

    /// The next test a worker may start, waiting while every test left waits on a setup that
    /// is still running. `Done` when nothing is left or `stopping()` says so.
    pub(crate) fn next(&self, stopping: &dyn Fn() -> bool) -> Next {
        let Ok(mut queue) = self.queue.lock() else {
            return Next::Done;
        };
        loop {
            if stopping() || queue.pending.is_empty() {
                return Next::Done;
            }
            let ready = queue.pending.iter().enumerate().find_map(|(index, &at)| {
                let test = &self.scenarios[at.0].tests[at.1];
                let Some(state) = test.state.as_deref() else {
                    return Some((index, Ok(None)));
                };
                match queue.states.get(state) {
                    Some(Progress::Pending) => None,
                    Some(Progress::Saved(saved)) => Some((index, Ok(Some(Arc::clone(saved))))),
                    Some(Progress::Failed(failed)) => Some((index, Err(failed.clone()))),
                    None => Some((
                        index,
                        Err(SetupFailed {
                            state: state.to_owned(),
                            setup: None,
                            infrastructure: false,
                        }),
                    )),
                }
            });
            match ready {
                Some((index, ready)) => {
                    let Some(at) = queue.pending.remove(index) else {
                        return Next::Done;
                    };
                    return match ready {
                        Ok(state) => {
                            queue.running += 1;
                            Next::Run(at, state)
                        }
                        Err(failed) => {
                            // A setup that does not run saves nothing: the tests that start
                            // from its state do not run either.
                            self.record(&mut queue, at, Err(failed.infrastructure));
                            Next::SetupFailed(at, failed)
                        }
                    };
                }
                // Waiting on setups nobody runs: cannot happen, as a setup is queued before
                // its dependents and is pending until it finished; end rather than hang.
                None if queue.running == 0 => return Next::Done,
                None => match self.changed.wait_timeout(queue, WAIT_SLICE) {
                    Ok((again, _)) => queue = again,
                    Err(_) => return Next::Done,
                },
            }
        }
    }

    /// A test handed out by [`Next::Run`] finished; for a setup test, `saved` is its state
    /// (`Ok`) or says why it has none, `infrastructure` when the browser, driver or LLM failed.
    pub(crate) fn finished(&self, at: Selected, saved: Result<Arc<SavedState>, bool>) {
        let Ok(mut queue) = self.queue.lock() else {
            return;
        };
        queue.running = queue.running.saturating_sub(1);
        self.record(&mut queue, at, saved);
        drop(queue);
        self.changed.notify_all();
    }

    /// For a setup test, what became of the state it saves: `saved` (`Ok`), or why it has none
    /// (`Err`: whether the browser, driver or LLM failed). Nothing for another test.
    fn record(&self, queue: &mut Queue, at: Selected, saved: Result<Arc<SavedState>, bool>) {
        let scenario = &self.scenarios[at.0];
        let test = &scenario.tests[at.1];
        let Some(name) = &test.saves else {
            return;
        };
        let progress = match saved {
            Ok(state) => Progress::Saved(state),
            Err(infrastructure) => Progress::Failed(SetupFailed {
                state: name.clone(),
                setup: Some(TestId::of(scenario, test)),
                infrastructure,
            }),
        };
        queue.states.insert(name.clone(), progress);
    }

    /// Tests never handed out.
    pub(crate) fn left(&self) -> usize {
        self.queue.lock().map_or(0, |q| q.pending.len())
    }
}

/// Writes `state` to `dir/NAME.json` atomically (a temporary file renamed over it), readable by
/// its owner only: it holds session cookies. Returns the path.
pub(crate) fn write_state(dir: &Path, name: &str, state: &SavedState) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!("{name}.json"));
    let temp = dir.join(format!(".{name}.json.{}.tmp", std::process::id()));
    let written = (|| {
        // A fresh file (never one left behind, nor what a link there points at).
        let _ = std::fs::remove_file(&temp);
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&temp)?;
        file.write_all(state.to_json().as_bytes())?;
        file.write_all(b"\n")?;
        file.sync_all()?;
        std::fs::rename(&temp, &path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written.map(|()| path)
}

#[cfg(test)]
#[path = "setups_tests.rs"]
mod tests;
