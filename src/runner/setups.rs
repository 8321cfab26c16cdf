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
use crate::runner::lifecycle::SetupEnd;
use crate::runner::{SetupFailed, TestId, TestRef};
use crate::scenario::Scenario;

/// What a worker does next.
#[derive(Debug)]
pub(crate) enum Next {
    /// Run this test, starting from this state.
    Run(TestRef, Option<Arc<SavedState>>),
    /// Report this test as not run: the setup of its state failed.
    SetupFailed(TestRef, SetupFailed),
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
    pending: VecDeque<TestRef>,
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
    pub(crate) fn new(scenarios: &'s [Scenario], selected: &[TestRef]) -> Self {
        let test = |at: &TestRef| at.of(scenarios).1;
        let (setups, rest): (Vec<TestRef>, Vec<TestRef>) =
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
                let test = at.of(self.scenarios).1;
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
                            let end = SetupEnd::Failed {
                                infrastructure: failed.infrastructure,
                            };
                            self.record(&mut queue, at, end);
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

    /// Records that a test handed out by [`Next::Run`] finished; for a setup test, `end` says
    /// whether the tests that start from its state may run.
    pub(crate) fn finished(&self, at: TestRef, end: SetupEnd) {
        let Ok(mut queue) = self.queue.lock() else {
            return;
        };
        queue.running = queue.running.saturating_sub(1);
        self.record(&mut queue, at, end);
        drop(queue);
        self.changed.notify_all();
    }

    /// Records what became of the state a setup test saves; a test that saves no state changes
    /// nothing.
    fn record(&self, queue: &mut Queue, at: TestRef, end: SetupEnd) {
        let (scenario, test) = at.of(self.scenarios);
        let Some(name) = &test.saves else {
            return;
        };
        let failed = |infrastructure| {
            Progress::Failed(SetupFailed {
                state: name.clone(),
                setup: Some(TestId::of(scenario, test)),
                infrastructure,
            })
        };
        let progress = match end {
            SetupEnd::Saved(state) => Progress::Saved(state),
            SetupEnd::Failed { infrastructure } => failed(infrastructure),
            // A setup that passed without saving was stopped by Ctrl-C; it is not the
            // browser's fault.
            SetupEnd::NothingSaved => failed(false),
            SetupEnd::Panicked => failed(true),
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
mod tests {

    use super::*;
    use crate::runner::fake::scenarios;
    use crate::runner::with_setups;

    fn refs(pairs: &[(usize, usize)]) -> Vec<TestRef> {
        pairs.iter().map(|&(s, t)| TestRef::new(s, t)).collect()
    }

    fn project() -> Vec<Scenario> {
        scenarios(&[
            (
                "auth.steps",
                "test: sign in [saves=user]\n  sign in\n\
                 test: become admin [state=user] [saves=admin]\n  promote\n\
                 test: plain\n  look\n",
            ),
            (
                "shop.steps",
                "test: order [state=admin]\n  order\ntest: browse\n  browse\n\
                 test: cart [state=user]\n  cart\n",
            ),
        ])
    }

    fn state() -> Arc<SavedState> {
        Arc::new(SavedState::from_json(r#"{"cookies": [], "origins": []}"#).expect("a state"))
    }

    fn never() -> bool {
        false
    }

    #[test]
    fn a_selection_gets_the_setups_it_needs_in_front_and_transitively() {
        let scenarios = project();
        // `order` needs admin, which needs user.
        assert_eq!(
            with_setups(&scenarios, refs(&[(1, 0)])),
            [(0, 0), (0, 1), (1, 0)]
        );
        // A setup selected anyway keeps its place; nothing is added twice.
        assert_eq!(
            with_setups(&scenarios, refs(&[(1, 2), (0, 0)])),
            [(1, 2), (0, 0)]
        );
        assert_eq!(with_setups(&scenarios, refs(&[(1, 1)])), [(1, 1)]);
    }

    #[test]
    fn setups_start_first_and_dependents_wait_for_their_state() {
        let scenarios = project();
        let selected = with_setups(&scenarios, refs(&[(1, 0), (1, 1), (1, 2)]));
        let schedule = Schedule::new(&scenarios, &selected);
        let Next::Run(first, None) = schedule.next(&never) else {
            panic!("the first setup runs first");
        };
        assert_eq!(first, (0, 0));
        // `become admin` waits on `user`: the next ready test is `browse`.
        let Next::Run(second, None) = schedule.next(&never) else {
            panic!("a test without state");
        };
        assert_eq!(second, (1, 1));
        schedule.finished(first, SetupEnd::Saved(state()));
        let Next::Run(third, Some(_)) = schedule.next(&never) else {
            panic!("become admin, with the user state");
        };
        assert_eq!(third, (0, 1));
        let Next::Run(fourth, Some(_)) = schedule.next(&never) else {
            panic!("cart, with the user state");
        };
        assert_eq!(fourth, (1, 2));
        // `order` waits for `admin`: with tests still running, a stopping run ends the wait.
        assert!(matches!(schedule.next(&|| true), Next::Done));
        schedule.finished(
            third,
            SetupEnd::Failed {
                infrastructure: true,
            },
        );
        let Next::SetupFailed(at, failed) = schedule.next(&never) else {
            panic!("order does not run");
        };
        assert_eq!(at, (1, 0));
        assert_eq!(failed.state, "admin");
        assert!(failed.infrastructure);
        assert_eq!(
            failed.message(),
            "setup failed: `auth.steps › become admin` (line 3), which saves state `admin`, did \
             not pass; this test did not run"
        );
        assert!(matches!(schedule.next(&never), Next::Done));
        assert_eq!(schedule.left(), 0);
    }

    #[test]
    fn a_waiting_worker_is_woken_when_the_setup_finishes() {
        let scenarios = project();
        let selected = with_setups(&scenarios, refs(&[(1, 2)]));
        let schedule = Schedule::new(&scenarios, &selected);
        let Next::Run(setup, None) = schedule.next(&never) else {
            panic!("the setup");
        };
        std::thread::scope(|scope| {
            let waiter = scope.spawn(|| schedule.next(&never));
            std::thread::sleep(Duration::from_millis(50));
            schedule.finished(setup, SetupEnd::Saved(state()));
            assert!(matches!(
                waiter.join().expect("joined"),
                Next::Run(
                    TestRef {
                        project: 0,
                        scenario: 1,
                        test: 2
                    },
                    Some(_)
                )
            ));
        });
    }

    #[test]
    fn a_state_no_test_of_the_run_saves_fails_its_tests_without_running_them() {
        let scenarios = project();
        let schedule = Schedule::new(&scenarios, &refs(&[(1, 2)]));
        let Next::SetupFailed(_, failed) = schedule.next(&never) else {
            panic!("not run");
        };
        assert_eq!(failed.setup, None);
        assert!(
            failed
                .message()
                .contains("no test of this run saves state `user`")
        );
    }

    #[test]
    fn state_files_are_written_whole_and_private() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let path = write_state(&dir.path().join("state"), "user", &state()).expect("written");
        assert_eq!(path, dir.path().join("state/user.json"));
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(SavedState::from_json(&text).is_ok(), "{text}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let names: Vec<_> = std::fs::read_dir(dir.path().join("state"))
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, ["user.json"], "no temporary file left");
    }

    #[test]
    fn a_setup_that_cannot_run_fails_the_tests_of_its_own_state_too() {
        let scenarios = project();
        // `order` needs admin, saved by `become admin`, which needs user.
        let selected = with_setups(&scenarios, refs(&[(1, 0)]));
        let schedule = Schedule::new(&scenarios, &selected);
        let Next::Run(sign_in, None) = schedule.next(&never) else {
            panic!("sign in first");
        };
        schedule.finished(
            sign_in,
            SetupEnd::Failed {
                infrastructure: false,
            },
        );
        let Next::SetupFailed(
            TestRef {
                project: 0,
                scenario: 0,
                test: 1,
            },
            _,
        ) = schedule.next(&never)
        else {
            panic!("become admin does not run");
        };
        let Next::SetupFailed(
            TestRef {
                project: 0,
                scenario: 1,
                test: 0,
            },
            failed,
        ) = schedule.next(&never)
        else {
            panic!("order does not run either, rather than wait");
        };
        assert_eq!(failed.state, "admin");
        assert_eq!(
            failed.setup.map(|s| s.name).as_deref(),
            Some("become admin")
        );
        assert!(matches!(schedule.next(&never), Next::Done));
    }
}
