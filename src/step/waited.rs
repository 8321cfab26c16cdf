//! How long an execution of step code waited on the page, against the timeout it waited under:
//! the margin a generated or healed candidate passed with, and the timeout a call ran out.
//!
//! Main type: [`Waited`]. A replay runs a step right after the step before it, while a
//! candidate runs only after its code was written (the built-in generator read the page, an LLM
//! answered), and the page went on loading meanwhile. So when a call of the candidate had to
//! wait for the page, the time before the candidate ran counts toward what a replay would wait.

use std::time::Duration;

use crate::script::{Limits, TimedCall};

/// A candidate that used more than this share of a timeout (in thousandths) passed with too
/// little room: a replay, which does not spend the time the candidate's code took to write,
/// may run out of it.
const TIGHT_PER_MILLE: u128 = 600;

/// A call that ran for at least this share of its timeout (in thousandths) waited for the
/// page: what it waited for appeared only while it ran, after the time before the execution.
const WAITING_PER_MILLE: u128 = 100;

/// Which setting a call's timeout came from, so that a message can say where to change it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutSetting {
    /// `[browser] timeout`: actions and assertions without a `timeout` option.
    Browser,
    /// Navigations without a `timeout` option: `[browser] timeout`, and 30 s at least.
    Navigation,
    /// The step code's own `timeout` option.
    Code,
}

impl TimeoutSetting {
    /// The setting of a call whose timeout is `timeout` under `limits`.
    pub(crate) fn of(timeout: Duration, limits: &Limits) -> TimeoutSetting {
        if timeout == limits.action_timeout {
            TimeoutSetting::Browser
        } else if timeout == limits.navigation_timeout {
            TimeoutSetting::Navigation
        } else {
            TimeoutSetting::Code
        }
    }

    /// Where the timeout is set, for messages.
    pub fn place(self) -> &'static str {
        match self {
            TimeoutSetting::Browser => {
                "[browser] timeout (in prettyplay.toml; PRETTYPLAY_BROWSER_TIMEOUT or --timeout \
                 override it)"
            }
            TimeoutSetting::Navigation => {
                "the navigation timeout ([browser] timeout, and 30 s at least; \
                 PRETTYPLAY_BROWSER_TIMEOUT or --timeout override it)"
            }
            TimeoutSetting::Code => "the `timeout` option the step code gives the call",
        }
    }

    pub const ALL: [TimeoutSetting; 3] = [
        TimeoutSetting::Browser,
        TimeoutSetting::Navigation,
        TimeoutSetting::Code,
    ];

    /// The name on the wire (`docs/reports.md`).
    pub fn as_str(self) -> &'static str {
        match self {
            TimeoutSetting::Browser => "browser",
            TimeoutSetting::Navigation => "navigation",
            TimeoutSetting::Code => "code",
        }
    }
}

/// Which run of step code a wait was measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitedIn {
    /// An execution of the step (a candidate, a replay, a settle retry).
    Step,
    /// A run of the mutation proof on the page as the step left it, which passes with the
    /// code's own timeouts: a wait there is a wait a replay may make too.
    ProofRerun,
}

/// The call of one execution that came closest to its timeout, with the time before the
/// execution that counts toward it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waited {
    /// The protocol method (`click`, `expect`, `waitForSelector`, ...).
    pub method: String,
    /// How long the call ran.
    pub call: Duration,
    /// The time between the end of the test's previous execution and the start of this one,
    /// when the call waited for the page (zero otherwise, and for a repeated execution).
    pub before: Duration,
    pub timeout: Duration,
    pub setting: TimeoutSetting,
    pub run: WaitedIn,
}

impl Waited {
    /// The wait of `call`, in an execution that started `before` after the previous one ended
    /// (`None` for a repetition inside the settle window), under `limits`.
    pub(crate) fn new(call: TimedCall, before: Option<Duration>, limits: &Limits) -> Waited {
        let waiting = call.per_mille() >= WAITING_PER_MILLE;
        Waited {
            setting: TimeoutSetting::of(call.timeout, limits),
            before: before.filter(|_| waiting).unwrap_or_default(),
            method: call.method,
            call: call.waited,
            timeout: call.timeout,
            run: WaitedIn::Step,
        }
    }

    /// The wait of `call` in a run of the mutation proof on the unmutated page.
    pub(crate) fn in_proof(call: TimedCall, limits: &Limits) -> Waited {
        Waited {
            run: WaitedIn::ProofRerun,
            ..Waited::new(call, None, limits)
        }
    }

    /// The share of its timeout the wait took, in thousandths, so that waits compare exactly.
    pub(crate) fn per_mille(&self) -> u128 {
        self.total().as_micros() * 1000 / self.timeout.as_micros().max(1)
    }

    /// What a replay of the code would wait for the page at this call.
    pub fn total(&self) -> Duration {
        self.call + self.before
    }

    /// Whether the wait took more than 60% of the timeout.
    pub fn is_tight(&self) -> bool {
        self.total().as_micros() * 1000 > self.timeout.as_micros() * TIGHT_PER_MILLE
    }

    /// Whether the call itself ran out its timeout.
    pub fn ran_out(&self) -> bool {
        self.call >= self.timeout
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(method: &str, waited_ms: u64, timeout_ms: u64) -> TimedCall {
        TimedCall {
            method: method.to_owned(),
            waited: Duration::from_millis(waited_ms),
            timeout: Duration::from_millis(timeout_ms),
        }
    }

    #[test]
    fn the_setting_is_the_one_whose_value_the_timeout_has() {
        let limits = Limits::new(Duration::from_secs(5));
        let of = |ms| TimeoutSetting::of(Duration::from_millis(ms), &limits);
        assert_eq!(of(5000), TimeoutSetting::Browser);
        assert_eq!(of(30000), TimeoutSetting::Navigation);
        assert_eq!(of(1234), TimeoutSetting::Code);
    }

    #[test]
    fn the_time_before_counts_only_for_a_call_that_waited_for_the_page() {
        let limits = Limits::new(Duration::from_secs(5));
        let before = Some(Duration::from_millis(2500));
        // It waited 2 s of 5 s after 2.5 s of writing: a replay waits 4.5 s.
        let waited = Waited::new(call("click", 2000, 5000), before, &limits);
        assert_eq!(waited.total(), Duration::from_millis(4500));
        assert!(waited.is_tight());
        // It found its element at once: what it needed may have been there long before.
        let quick = Waited::new(call("click", 20, 5000), before, &limits);
        assert_eq!(quick.total(), Duration::from_millis(20));
        assert!(!quick.is_tight());
        // A repetition in the settle window does not count the time before.
        let repeated = Waited::new(call("click", 2000, 5000), None, &limits);
        assert_eq!(repeated.total(), Duration::from_secs(2));
        assert!(!repeated.is_tight());
    }

    #[test]
    fn over_sixty_percent_is_tight_and_the_whole_timeout_ran_out() {
        let limits = Limits::new(Duration::from_secs(5));
        let of = |ms| Waited::new(call("expect", ms, 5000), None, &limits);
        assert!(!of(3000).is_tight());
        assert!(of(3001).is_tight());
        assert!(!of(4999).ran_out());
        assert!(of(5000).ran_out());
    }
}
