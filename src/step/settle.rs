//! The settle window: re-executing a step's code while its failures look like transient page
//! state, within a time window (`[polling] timeout` / `delay`) or a count (`[tries=N]`).
//!
//! Main type: [`SettleWindow`]; the loop is [`settle`]. Time comes through a [`Clock`], so the
//! policy is tested without waiting. The policy is documented in `docs/settle.md`. Retries are
//! told to the caller through a callback; this layer names nothing above it.

use std::cell::Cell;
use std::time::{Duration, Instant};

use crate::config::PollingSettings;
use crate::script::StepFailure;

/// The re-execution policy of one step execution: created once per step, shared by every
/// execution of its code — the cached code's and every generated candidate's. The time window
/// starts with the step's first execution and never re-arms: a later [`settle`] call of the
/// same step (a regenerated candidate) gets what is left of it. A `[tries=N]` count starts
/// from zero in each call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SettleWindow {
    /// How long repetitions may start after the first execution started; `None` is polling off.
    pub timeout: Option<Duration>,
    /// Pause before each repetition.
    pub delay: Duration,
    /// `[tries=N]`: at most N executions in total, the first included. Replaces the time bound.
    pub tries: Option<u32>,
    /// When the step's first execution started: set by the first [`settle`] call.
    started: Cell<Option<Instant>>,
}

/// What bounds the repetitions of one [`settle`] call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    /// One execution, no repetition.
    Off,
    /// Repetitions may start until this long after the first execution started.
    Time(Duration),
    /// At most this many executions in total.
    Count(u32),
}

impl SettleWindow {
    /// The window of a step: the polling settings, and the step's `[tries=N]` if it has one.
    /// A zero timeout is polling off, like an unset one.
    pub(crate) fn new(polling: &PollingSettings, tries: Option<u32>) -> Self {
        Self {
            timeout: polling.timeout.filter(|timeout| !timeout.is_zero()),
            delay: polling.delay,
            tries,
            started: Cell::new(None),
        }
    }

    fn bound(&self) -> Bound {
        match (self.tries, self.timeout) {
            (Some(tries), _) => Bound::Count(tries),
            (None, Some(timeout)) if !timeout.is_zero() => Bound::Time(timeout),
            (None, _) => Bound::Off,
        }
    }
}

/// The time source of [`settle`].
pub(crate) trait Clock {
    fn now(&self) -> Instant;
    fn sleep(&self, duration: Duration);
}

/// The real clock.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }

    fn sleep(&self, duration: Duration) {
        std::thread::sleep(duration);
    }
}

/// Executes a step's code until it passes, re-executing it after `window.delay` while its
/// failure is pollable ([`FailureKind::is_pollable`](crate::script::FailureKind::is_pollable))
/// and the window allows another execution.
///
/// The window starts with the first execution, so the code's own auto-waits count inside it.
/// It only gates repetitions: the remaining time is checked after a failure and again after the
/// pause, before the repeat starts; a running execution is never cut short. `on_retry` is told
/// the number of the execution about to run (2 for the first repetition) and the failure that
/// caused it, right before it runs. A failure that is not pollable, or the failure of the last
/// execution the window allows, is returned as it is.
pub(crate) fn settle<F>(
    window: &SettleWindow,
    clock: &dyn Clock,
    mut execute: F,
    mut on_retry: impl FnMut(u32, &StepFailure),
) -> Result<(), StepFailure>
where
    F: FnMut() -> Result<(), StepFailure>,
{
    let bound = window.bound();
    let started = *window.started.get().get_or_insert(clock.now());
    window.started.set(Some(started));
    let time_left = |clock: &dyn Clock, timeout: Duration| {
        clock.now().saturating_duration_since(started) < timeout
    };
    let mut attempt: u32 = 1;
    loop {
        let failure = match execute() {
            Ok(()) => return Ok(()),
            Err(failure) => failure,
        };
        if !failure.kind.is_pollable() {
            return Err(failure);
        }
        let may_repeat = match bound {
            Bound::Off => false,
            Bound::Count(tries) => attempt < tries,
            Bound::Time(timeout) => time_left(clock, timeout),
        };
        if !may_repeat {
            return Err(failure);
        }
        if !window.delay.is_zero() {
            clock.sleep(window.delay);
        }
        // The pause may have spent what was left of the window.
        if let Bound::Time(timeout) = bound
            && !time_left(clock, timeout)
        {
            return Err(failure);
        }
        attempt += 1;
        tracing::info!(
            target: "prettyplay::settle",
            attempt,
            failure = ?failure.message,
            "settle_retry"
        );
        on_retry(attempt, &failure);
    }
}

#[cfg(test)]
mod tests {
    use std::cell::{Cell, RefCell};

    use super::*;
    use crate::script::FailureKind;

    /// A clock that only moves when told to (by `sleep` or by an execution taking time).
    struct FakeClock {
        start: Instant,
        elapsed: Cell<Duration>,
        sleeps: RefCell<Vec<Duration>>,
    }

    impl FakeClock {
        fn new() -> Self {
            Self {
                start: Instant::now(),
                elapsed: Cell::new(Duration::ZERO),
                sleeps: RefCell::new(Vec::new()),
            }
        }

        fn advance(&self, by: Duration) {
            self.elapsed.set(self.elapsed.get() + by);
        }

        fn elapsed(&self) -> Duration {
            self.elapsed.get()
        }
    }

    impl Clock for FakeClock {
        fn now(&self) -> Instant {
            self.start + self.elapsed.get()
        }

        fn sleep(&self, duration: Duration) {
            self.sleeps.borrow_mut().push(duration);
            self.advance(duration);
        }
    }

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    fn window(timeout: Option<f64>, delay: f64, tries: Option<u32>) -> SettleWindow {
        SettleWindow::new(
            &PollingSettings {
                timeout: timeout.map(secs),
                delay: secs(delay),
                optional_timeout: Duration::from_secs(2),
            },
            tries,
        )
    }

    fn failure(kind: FailureKind, n: u32) -> StepFailure {
        StepFailure::new(kind, format!("failure {n}\nReceived: \"{n}\""))
    }

    /// What one [`settle`] call did.
    #[derive(Debug)]
    struct Ran {
        result: Result<(), StepFailure>,
        executions: u32,
        /// The retries reported: the execution about to run, and the failure's message.
        retries: Vec<(u32, String)>,
        sleeps: Vec<Duration>,
        elapsed: Duration,
    }

    impl Ran {
        fn retry_numbers(&self) -> Vec<u32> {
            self.retries.iter().map(|(n, _)| *n).collect()
        }
    }

    /// Runs `settle` on a fake clock with executions that each take `took` seconds and fail with
    /// `kind` until execution `passes_at` (never when `None`).
    fn run(window: &SettleWindow, kind: FailureKind, took: f64, passes_at: Option<u32>) -> Ran {
        let clock = FakeClock::new();
        let executions = Cell::new(0);
        let mut retries = Vec::new();
        let result = settle(
            window,
            &clock,
            || {
                let n = executions.get() + 1;
                executions.set(n);
                clock.advance(secs(took));
                if passes_at == Some(n) {
                    Ok(())
                } else {
                    Err(failure(kind, n))
                }
            },
            |attempt, failure| retries.push((attempt, failure.message.clone())),
        );
        Ran {
            result,
            executions: executions.get(),
            retries,
            sleeps: clock.sleeps.borrow().clone(),
            elapsed: clock.elapsed(),
        }
    }

    #[test]
    fn polling_off_executes_once() {
        for off in [window(None, 0.5, None), window(Some(0.0), 0.5, None)] {
            assert_eq!(off.timeout, None);
            let ran = run(&off, FailureKind::Timeout, 0.3, Some(2));
            assert_eq!(ran.result, Err(failure(FailureKind::Timeout, 1)));
            assert_eq!(ran.executions, 1);
            assert!(ran.retries.is_empty() && ran.sleeps.is_empty());
        }
    }

    #[test]
    fn a_pollable_failure_that_clears_within_the_window_passes() {
        let ran = run(
            &window(Some(5.0), 0.2, None),
            FailureKind::FailedCheck,
            0.3,
            Some(3),
        );
        assert_eq!(ran.result, Ok(()));
        assert_eq!(ran.executions, 3);
        assert_eq!(ran.retry_numbers(), [2, 3]);
        assert!(ran.retries[0].1.starts_with("failure 1"));
        assert_eq!(ran.sleeps, [secs(0.2), secs(0.2)]);
    }

    #[test]
    fn a_failure_that_never_clears_stops_once_the_window_is_spent() {
        // Executions of 0.3 s with 0.2 s pauses: they start at 0, 0.5, 1.0, 1.5, and the pause
        // after the fourth ends at 2.0 s, when nothing is left of the window.
        let ran = run(
            &window(Some(2.0), 0.2, None),
            FailureKind::Timeout,
            0.3,
            None,
        );
        assert_eq!(ran.executions, 4);
        assert_eq!(ran.retries.len(), 3);
        assert_eq!(
            ran.result,
            Err(failure(FailureKind::Timeout, 4)),
            "the last failure"
        );
        assert!(ran.elapsed >= secs(2.0));
    }

    #[test]
    fn non_pollable_failures_propagate_after_one_execution() {
        for kind in [
            FailureKind::StrictMode,
            FailureKind::Script,
            FailureKind::Crash,
        ] {
            for settle_window in [window(Some(5.0), 0.2, None), window(None, 0.2, Some(3))] {
                let ran = run(&settle_window, kind, 0.1, Some(2));
                assert_eq!(ran.result, Err(failure(kind, 1)), "{kind:?}");
                assert_eq!(ran.executions, 1, "{kind:?}");
                assert!(ran.retries.is_empty() && ran.sleeps.is_empty());
            }
        }
    }

    #[test]
    fn tries_executes_exactly_n_times_with_polling_off() {
        let ran = run(
            &window(None, 0.5, Some(3)),
            FailureKind::FailedCheck,
            0.1,
            None,
        );
        assert_eq!(ran.executions, 3);
        assert_eq!(ran.result, Err(failure(FailureKind::FailedCheck, 3)));
        assert_eq!(ran.retry_numbers(), [2, 3]);
        assert_eq!(ran.sleeps, [secs(0.5), secs(0.5)]);
    }

    #[test]
    fn tries_bounds_the_count_not_the_time() {
        // Each execution outlasts the 1 s window; tries still gets its 3 executions.
        let ran = run(
            &window(Some(1.0), 0.0, Some(3)),
            FailureKind::Timeout,
            2.0,
            None,
        );
        assert!(ran.result.is_err());
        assert_eq!(ran.executions, 3);
    }

    #[test]
    fn tries_one_executes_once() {
        let ran = run(
            &window(Some(5.0), 0.0, Some(1)),
            FailureKind::Timeout,
            0.1,
            None,
        );
        assert_eq!(ran.executions, 1);
        assert!(ran.retries.is_empty());
    }

    #[test]
    fn a_zero_delay_re_executes_without_a_pause() {
        let ran = run(
            &window(Some(1.0), 0.0, None),
            FailureKind::Timeout,
            0.25,
            Some(3),
        );
        assert_eq!(ran.result, Ok(()));
        assert_eq!(ran.executions, 3);
        assert!(ran.sleeps.is_empty());
        assert_eq!(ran.elapsed, secs(0.75));
    }

    #[test]
    fn the_window_gates_repeats_only_and_never_cuts_an_execution_short() {
        // The second execution starts at 0.9 s with 0.1 s left and runs 3 s; it still counts.
        let clock = FakeClock::new();
        let executions = Cell::new(0);
        let result = settle(
            &window(Some(1.0), 0.0, None),
            &clock,
            || {
                executions.set(executions.get() + 1);
                if executions.get() == 1 {
                    clock.advance(secs(0.9));
                    Err(failure(FailureKind::Timeout, 1))
                } else {
                    clock.advance(secs(3.0));
                    Ok(())
                }
            },
            |_, _| {},
        );
        assert_eq!(result, Ok(()));
        assert_eq!(executions.get(), 2);
        assert_eq!(clock.elapsed(), secs(3.9));
    }

    #[test]
    fn a_window_spent_by_the_first_execution_or_by_the_pause_starts_no_repeat() {
        // (execution time, pause, pauses taken): a first execution of 1.5 s spends the 1 s
        // window before any pause; one of 0.8 s leaves time, but the 0.5 s pause spends it.
        for (took, delay, pauses) in [(1.5, 0.2, 0), (0.8, 0.5, 1)] {
            let ran = run(
                &window(Some(1.0), delay, None),
                FailureKind::Timeout,
                took,
                Some(2),
            );
            assert_eq!(ran.result, Err(failure(FailureKind::Timeout, 1)), "{took}");
            assert_eq!(ran.executions, 1, "{took}");
            assert!(ran.retries.is_empty(), "{took}");
            assert_eq!(ran.sleeps.len(), pauses, "{took}");
        }
    }

    #[test]
    fn the_window_is_shared_by_every_execution_of_a_step_and_never_re_arms() {
        // The cached code fails twice in 1.0 s of a 2 s window (the second failure is not
        // pollable); the regenerated candidate (0.4 s per execution) gets the 1.0 s left:
        // executions start at 1.0, 1.4 and 1.8 s. A re-armed window would have run it 5 times.
        let clock = FakeClock::new();
        let shared = window(Some(2.0), 0.0, None);
        let executed = Cell::new(0);
        let cached = settle(
            &shared,
            &clock,
            || {
                executed.set(executed.get() + 1);
                clock.advance(secs(0.5));
                let kind = match executed.get() {
                    1 => FailureKind::Timeout,
                    _ => FailureKind::Script,
                };
                Err(failure(kind, executed.get()))
            },
            |_, _| {},
        );
        assert_eq!(cached, Err(failure(FailureKind::Script, 2)));
        executed.set(0);
        let candidate = settle(
            &shared,
            &clock,
            || {
                executed.set(executed.get() + 1);
                clock.advance(secs(0.4));
                Err(failure(FailureKind::Timeout, executed.get()))
            },
            |_, _| {},
        );
        assert_eq!(candidate, Err(failure(FailureKind::Timeout, 3)));
        assert_eq!(executed.get(), 3, "the window re-armed for the second call");
        // Another step's window starts afresh.
        let fresh = window(Some(2.0), 0.0, None);
        assert_eq!(run(&fresh, FailureKind::Timeout, 0.4, None).executions, 5);
    }

    #[test]
    fn tries_count_from_zero_in_each_call_of_the_step() {
        let shared = window(None, 0.0, Some(2));
        assert_eq!(run(&shared, FailureKind::Timeout, 0.1, None).executions, 2);
        assert_eq!(run(&shared, FailureKind::Timeout, 0.1, None).executions, 2);
    }

    #[test]
    fn a_detached_page_polls_and_a_crash_does_not() {
        let polling = window(Some(5.0), 0.0, None);
        assert_eq!(
            run(&polling, FailureKind::Detached, 0.1, Some(2)).result,
            Ok(())
        );
        let crash = run(
            &window(Some(5.0), 0.0, None),
            FailureKind::Crash,
            0.1,
            Some(2),
        );
        assert_eq!(crash.executions, 1);
        let page = run(
            &window(Some(5.0), 0.0, None),
            FailureKind::PageCrash,
            0.1,
            Some(2),
        );
        assert_eq!(page.executions, 1);
    }
}
