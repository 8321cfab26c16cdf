//! Test-level retries (`--retries N`, `[run] retries`), as in Playwright Test: a test that fails
//! runs again from scratch (a fresh context, or browser, and its steps from the first), up to N
//! more times. One that passes after failing is flaky; one that fails every attempt is failed
//! with its last attempt's failure (every earlier one was reported as a [`TestRetry`] event).
//!
//! Never retried: a test Ctrl-C stopped, and any test once the run is stopping (Ctrl-C, a
//! browser that could not be launched, `--max-failures` reached).
//!
//! Main entry point: [`run_attempts`]; [`cache_for_retry`] is the cache a retry replays.
//!
//! [`TestRetry`]: crate::runner::TestRetry

use std::time::{Duration, Instant};

use crate::cache::{Cache, CacheFile};
use crate::runner::{Mode, TestFailure, TestOutcome};

/// Runs `attempt(n)` for n = 1, 2, ... until one passes, `retries` retries are spent, or a
/// retry is not allowed: the failure was an interruption, or `may_retry()` says the run is
/// stopping. Before each retry, `retrying(next, failure, duration)` is told of the attempt
/// that failed.
pub(crate) fn run_attempts(
    retries: u32,
    mut attempt: impl FnMut(u32) -> TestOutcome,
    may_retry: impl Fn() -> bool,
    mut retrying: impl FnMut(u32, Box<TestFailure>, Duration),
) -> TestOutcome {
    let mut number = 1;
    loop {
        let started = Instant::now();
        match attempt(number) {
            TestOutcome::Passed if number > 1 => return TestOutcome::Flaky { attempts: number },
            TestOutcome::Failed(failure) if number <= retries && may_retry() => {
                number += 1;
                retrying(number, failure, started.elapsed());
            }
            outcome => return outcome,
        }
    }
}

/// The cache file a retry of a test of `scenario` replays in `run` mode: read again, so that a
/// step generated or healed (and written) by an earlier attempt is replayed as cached rather
/// than generated or healed, and written, a second time. `None` keeps the file the run loaded:
/// in the replay modes nothing was written; a file that cannot be read now was read before.
pub(crate) fn cache_for_retry(mode: Mode, cache: &Cache, scenario: &str) -> Option<CacheFile> {
    match mode {
        Mode::Run { .. } => cache.load(scenario).ok().flatten(),
        Mode::Replay | Mode::StrictReplay | Mode::Audit => None,
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use super::*;
    use crate::runner::FailureCause;

    fn failed() -> TestOutcome {
        TestOutcome::failed_first_step(FailureCause::CacheMiss)
    }

    /// Runs `outcomes` as successive attempts and returns the outcome and the retries reported.
    fn attempts(
        retries: u32,
        outcomes: Vec<TestOutcome>,
        may_retry: bool,
    ) -> (TestOutcome, Vec<u32>) {
        let told = RefCell::new(Vec::new());
        let mut outcomes = outcomes.into_iter();
        let outcome = run_attempts(
            retries,
            |n| {
                assert_eq!(told.borrow().last().copied().unwrap_or(1), n);
                outcomes.next().expect("no attempt past the outcomes")
            },
            || may_retry,
            |next, _, _| told.borrow_mut().push(next),
        );
        (outcome, told.into_inner())
    }

    #[test]
    fn a_test_that_fails_then_passes_is_flaky() {
        let (outcome, told) = attempts(2, vec![failed(), TestOutcome::Passed], true);
        assert_eq!(outcome, TestOutcome::Flaky { attempts: 2 });
        assert_eq!(told, [2]);
    }

    #[test]
    fn a_test_that_passes_at_once_runs_once_and_one_that_always_fails_runs_every_attempt() {
        assert_eq!(
            attempts(3, vec![TestOutcome::Passed], true),
            (TestOutcome::Passed, vec![])
        );
        assert_eq!(
            attempts(2, vec![failed(), failed(), failed()], true),
            (failed(), vec![2, 3])
        );
        assert_eq!(attempts(0, vec![failed()], true), (failed(), vec![]));
    }

    #[test]
    fn no_retry_for_an_interrupted_test_or_a_stopping_run() {
        let interrupted = TestOutcome::Interrupted(crate::runner::Interruption {
            step: "open the app".into(),
            step_index: 1,
            line: 2,
        });
        assert_eq!(
            attempts(2, vec![interrupted.clone()], true),
            (interrupted, vec![])
        );
        assert_eq!(attempts(2, vec![failed()], false), (failed(), vec![]));
    }
}
