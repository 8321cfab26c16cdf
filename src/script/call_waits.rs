//! How close the browser calls of one execution of step code came to their timeouts: the call
//! that used the largest share of its timeout is kept, so that code which passed only after
//! waiting most of it can be told apart from code with room to spare, and a call that timed out
//! can be named with the timeout it had.
//!
//! Main type: [`TimedCall`]; [`CallWaits`] keeps the tightest one of an execution.

use std::cell::RefCell;
use std::time::Duration;

use serde_json::Value;

/// One browser call that had a timeout: its method, how long it ran, and its timeout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TimedCall {
    /// The method the prelude called, without a `frame.` prefix (`click`, `expect`, ...).
    pub method: String,
    pub waited: Duration,
    pub timeout: Duration,
}

impl TimedCall {
    /// The call of `method` with `params` (the prelude's JSON) that ran for `waited`, when its
    /// parameters give it a timeout. A timeout of 0 is no timeout, so such a call is none.
    ///
    /// A pause of a wait the prelude runs itself (`expect.toPass`, `expect.poll`,
    /// `page.waitForURL`) names that wait (`waiting`) and how long it had lasted when the pause
    /// began (`since`): the wait, not the pause, is judged against its whole timeout.
    pub(crate) fn of(method: &str, params: &str, waited: Duration) -> Option<TimedCall> {
        let params: Value = serde_json::from_str(params).ok()?;
        let ms = params
            .get("total")
            .or_else(|| params.get("timeout"))
            .and_then(Value::as_f64)?;
        let since = params
            .get("since")
            .and_then(Value::as_f64)
            .filter(|ms| ms.is_finite() && *ms > 0.0)
            .map_or(Duration::ZERO, |ms| Duration::from_secs_f64(ms / 1000.0));
        // Frame calls are named as a locator's or a page's own: `click`, not `frame.click`.
        let method = params
            .get("waiting")
            .and_then(Value::as_str)
            .unwrap_or_else(|| method.strip_prefix("frame.").unwrap_or(method));
        (ms.is_finite() && ms > 0.0).then(|| TimedCall {
            method: method.to_owned(),
            waited: since + waited,
            timeout: Duration::from_secs_f64(ms / 1000.0),
        })
    }

    /// The share of its timeout the call used, in thousandths, so that calls compare exactly.
    pub(crate) fn per_mille(&self) -> u128 {
        self.waited.as_micros() * 1000 / self.timeout.as_micros().max(1)
    }
}

/// The tightest call of the current execution.
#[derive(Debug, Default)]
pub(crate) struct CallWaits {
    tightest: RefCell<Option<TimedCall>>,
}

impl CallWaits {
    /// Forgets the calls so far, before an execution starts.
    pub(crate) fn reset(&self) {
        self.tightest.borrow_mut().take();
    }

    /// Keeps `call` when it used a larger share of its timeout than any call before it.
    pub(crate) fn record(&self, call: TimedCall) {
        let mut tightest = self.tightest.borrow_mut();
        if tightest
            .as_ref()
            .is_none_or(|kept| call.per_mille() > kept.per_mille())
        {
            *tightest = Some(call);
        }
    }

    /// The call of the execution that came closest to its timeout, if any call had one.
    pub(crate) fn tightest(&self) -> Option<TimedCall> {
        self.tightest.borrow().clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_has_the_timeout_its_parameters_give_and_none_without_one() {
        let call = TimedCall::of(
            "click",
            r#"{"selector":"x","timeout":5000}"#,
            Duration::from_millis(4000),
        )
        .unwrap();
        assert_eq!(call.timeout, Duration::from_secs(5));
        assert_eq!(call.per_mille(), 800);
        let frame = TimedCall::of("frame.click", r#"{"timeout":5000}"#, Duration::ZERO);
        assert_eq!(frame.unwrap().method, "click");
        assert!(TimedCall::of("click", r#"{"timeout":0}"#, Duration::ZERO).is_none());
        assert!(TimedCall::of("title", "{}", Duration::ZERO).is_none());
        assert!(TimedCall::of("click", "not json", Duration::ZERO).is_none());
        // A waiter's slice of its whole timeout is judged against the whole.
        let waiter = TimedCall::of(
            "waiter.finish",
            r#"{"timeout":100,"total":2000}"#,
            Duration::from_millis(50),
        )
        .unwrap();
        assert_eq!(waiter.timeout, Duration::from_secs(2));
    }

    #[test]
    fn a_pause_of_a_wait_the_prelude_runs_is_that_wait_so_far_against_its_whole_timeout() {
        let pause = TimedCall::of(
            "frame.waitForTimeout",
            r#"{"waitTimeout":1000,"total":5000,"since":3200,"waiting":"expect.toPass"}"#,
            Duration::from_millis(1000),
        )
        .unwrap();
        assert_eq!(pause.method, "expect.toPass");
        assert_eq!(pause.waited, Duration::from_millis(4200));
        assert_eq!(pause.timeout, Duration::from_secs(5));
        assert_eq!(pause.per_mille(), 840);
        // A pause of no wait (or of one without a timeout) is no timed call.
        assert!(
            TimedCall::of(
                "frame.waitForTimeout",
                r#"{"waitTimeout":50}"#,
                Duration::ZERO
            )
            .is_none()
        );
    }

    #[test]
    fn the_call_that_used_the_largest_share_of_its_timeout_is_kept() {
        let waits = CallWaits::default();
        let call = |method: &str, waited: u64, timeout: u64| TimedCall {
            method: method.to_owned(),
            waited: Duration::from_millis(waited),
            timeout: Duration::from_millis(timeout),
        };
        waits.record(call("click", 100, 5000));
        waits.record(call("expect", 900, 1000));
        waits.record(call("fill", 4000, 30000));
        assert_eq!(waits.tightest().unwrap().method, "expect");
        waits.reset();
        assert_eq!(waits.tightest(), None);
    }
}
