//! Timing margins: a step whose code passed only after waiting most of a timeout is told at
//! once (a replay, which does not spend the time generated code took to write, may run out of
//! it; cached code may on a slower run), and a step whose call ran out its timeout carries
//! which timeout that was.
//!
//! Main functions: [`margin_warning`] and [`timed_out`]; the facts are a [`Waited`].

use std::time::Duration;

use crate::runner::{FailureCause, StepSource, TestFailure};
use crate::script::FailureKind;
use crate::step::{TimeoutSetting, Waited, WaitedIn};

/// The warning for a step that passed with `waited` as its tightest wait, when the wait took
/// more than 60% of its timeout; `None` otherwise.
pub(crate) fn margin_warning(
    index: usize,
    sentence: &str,
    source: StepSource,
    waited: Option<&Waited>,
) -> Option<String> {
    // Code written in this run had its writing time to spare, which a replay does not have;
    // cached code ran as a replay runs, so only a slower run is at risk.
    let (written, risk) = match source {
        StepSource::Generated => ("generated", "replay may time out"),
        StepSource::Healed => ("healed", "replay may time out"),
        StepSource::Cached => ("cached", "a slower run may time out"),
    };
    let waited = waited.filter(|waited| waited.is_tight())?;
    let before = if waited.before.is_zero() {
        String::new()
    } else {
        format!(
            ", counting {} the page went on loading while the code was written",
            wait_seconds(waited.before)
        )
    };
    // The proof re-runs a check on the page as the step left it, as a replay runs it.
    let run = match waited.run {
        WaitedIn::Step => "",
        WaitedIn::ProofRerun => ", in the mutation proof's run of it on the unchanged page",
    };
    Some(format!(
        "step {index} \"{sentence}\" ({written}): waited {} of {} (the `{}` call{before}{run}): \
         {risk}; raise {} or write \"wait until … appears\" before it",
        wait_seconds(waited.total()),
        wait_seconds(waited.timeout),
        waited.method,
        raise(waited.setting),
    ))
}

/// What to raise for a timeout from `setting`.
fn raise(setting: TimeoutSetting) -> &'static str {
    match setting {
        TimeoutSetting::Browser => "[browser] timeout",
        TimeoutSetting::Navigation => "[browser] timeout (navigations wait 30 s at least)",
        TimeoutSetting::Code => "the `timeout` option the step code gives the call",
    }
}

/// The wait to attach to `failure`: the last execution's tightest call, when the step's code
/// failed on a timeout (an action's or an assertion's) and that call ran out its timeout.
pub(crate) fn timed_out(failure: &TestFailure, waited: Option<Waited>) -> Option<Waited> {
    let FailureCause::Step(step) = &failure.cause else {
        return None;
    };
    if !matches!(step.kind, FailureKind::Timeout | FailureKind::FailedCheck) {
        return None;
    }
    waited.filter(Waited::ran_out)
}

/// A duration as reports show a wait: `4.8 s`, `5 s`.
pub(crate) fn wait_seconds(duration: Duration) -> String {
    let tenths = (duration.as_millis() + 50) / 100;
    if tenths.is_multiple_of(10) {
        format!("{} s", tenths / 10)
    } else {
        format!("{}.{} s", tenths / 10, tenths % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::StepFailure;

    fn waited(call_ms: u64, before_ms: u64, setting: TimeoutSetting) -> Waited {
        Waited {
            method: "click".to_owned(),
            call: Duration::from_millis(call_ms),
            before: Duration::from_millis(before_ms),
            timeout: Duration::from_secs(5),
            setting,
            run: WaitedIn::Step,
        }
    }

    #[test]
    fn a_written_step_that_waited_most_of_its_timeout_is_told() {
        let tight = waited(2300, 2500, TimeoutSetting::Browser);
        let told = margin_warning(2, "click \"Go\"", StepSource::Generated, Some(&tight));
        assert_eq!(
            told.as_deref(),
            Some(
                "step 2 \"click \"Go\"\" (generated): waited 4.8 s of 5 s (the `click` call, \
                 counting 2.5 s the page went on loading while the code was written): replay \
                 may time out; raise [browser] timeout or write \"wait until … appears\" before \
                 it"
            )
        );
        let healed = margin_warning(
            1,
            "open it",
            StepSource::Healed,
            Some(&waited(4000, 0, TimeoutSetting::Code)),
        )
        .unwrap();
        assert!(
            healed.contains("(healed): waited 4 s of 5 s (the `click` call): replay"),
            "{healed}"
        );
        assert!(healed.contains("raise the `timeout` option"), "{healed}");
    }

    #[test]
    fn a_wait_in_the_proofs_run_and_a_wait_run_in_javascript_are_told_as_such() {
        let proof = Waited {
            run: WaitedIn::ProofRerun,
            ..waited(4000, 0, TimeoutSetting::Browser)
        };
        let told = margin_warning(2, "s", StepSource::Generated, Some(&proof)).unwrap();
        assert!(
            told.contains(
                "waited 4 s of 5 s (the `click` call, in the mutation proof's run of it on the \
                 unchanged page): replay may time out"
            ),
            "{told}"
        );
        let polled = Waited {
            method: "expect.poll".to_owned(),
            ..waited(3500, 0, TimeoutSetting::Browser)
        };
        let told = margin_warning(1, "s", StepSource::Cached, Some(&polled)).unwrap();
        assert!(
            told.contains("waited 3.5 s of 5 s (the `expect.poll` call)"),
            "{told}"
        );
    }

    #[test]
    fn cached_code_that_waited_most_of_its_timeout_is_told_as_a_risk_to_slower_runs() {
        let tight = waited(4900, 0, TimeoutSetting::Browser);
        let told = margin_warning(3, "s", StepSource::Cached, Some(&tight)).unwrap();
        assert!(
            told.contains("(cached): waited 4.9 s of 5 s (the `click` call): a slower run may"),
            "{told}"
        );
    }

    #[test]
    fn room_to_spare_and_no_timed_call_are_not_told() {
        let loose = waited(1000, 1000, TimeoutSetting::Browser);
        assert_eq!(
            margin_warning(1, "s", StepSource::Generated, Some(&loose)),
            None
        );
        assert_eq!(
            margin_warning(1, "s", StepSource::Cached, Some(&loose)),
            None
        );
        assert_eq!(margin_warning(1, "s", StepSource::Generated, None), None);
    }

    #[test]
    fn only_a_timed_out_call_of_failed_code_is_attached() {
        let at = |kind| {
            TestFailure::at(
                "s".into(),
                1,
                2,
                FailureCause::Step(StepFailure::new(kind, "Timeout 5000ms exceeded.")),
            )
        };
        let ran_out = waited(5000, 0, TimeoutSetting::Browser);
        let timeout = at(FailureKind::Timeout);
        assert_eq!(
            timed_out(&timeout, Some(ran_out.clone())),
            Some(ran_out.clone())
        );
        assert!(timed_out(&at(FailureKind::FailedCheck), Some(ran_out.clone())).is_some());
        assert!(timed_out(&at(FailureKind::Script), Some(ran_out.clone())).is_none());
        let short = waited(10, 0, TimeoutSetting::Browser);
        assert!(timed_out(&timeout, Some(short)).is_none());
        let miss = TestFailure::at("s".into(), 1, 2, FailureCause::CacheMiss);
        assert!(timed_out(&miss, Some(ran_out)).is_none());
    }

    #[test]
    fn seconds_are_shown_to_a_tenth() {
        assert_eq!(wait_seconds(Duration::from_millis(4830)), "4.8 s");
        assert_eq!(wait_seconds(Duration::from_millis(5000)), "5 s");
        assert_eq!(wait_seconds(Duration::from_millis(30)), "0 s");
    }
}
