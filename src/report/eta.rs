//! The progress bar's ETA: how long the tests of a run that have not finished will still take,
//! from how long each took the last time it ran (`.prettyplay/last-run.json`). A test without a
//! recorded duration counts as the mean of the durations known, this run's included, and with
//! none known there is no ETA at all: an estimate of 0 s would only mislead.
//!
//! Main type: [`Eta`], fed the run's test events; [`EtaBasis`] is what the CLI knows before the
//! run starts.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::runner::TestId;

/// What the ETA is estimated from, known before the run starts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EtaBasis {
    /// Each test of the run, with how long it took the last time it ran, when that is known.
    pub tests: Vec<(TestId, Option<Duration>)>,
    /// How many tests run at once.
    pub workers: usize,
}

/// Where the tests of a run stand, for the ETA.
#[derive(Debug, Default)]
pub(crate) struct Eta {
    basis: EtaBasis,
    /// When each running test (or its latest attempt) started.
    started: HashMap<TestId, Instant>,
    /// How long each finished test took in this run.
    finished: HashMap<TestId, Duration>,
}

impl Eta {
    pub(crate) fn new(basis: EtaBasis) -> Self {
        Self {
            basis,
            ..Self::default()
        }
    }

    pub(crate) fn test_started(&mut self, test: &TestId, now: Instant) {
        self.started.insert(test.clone(), now);
    }

    pub(crate) fn test_finished(&mut self, test: &TestId, took: Duration) {
        self.started.remove(test);
        self.finished.insert(test.clone(), took);
    }

    /// How long the run still takes at `now`: the expected durations of the tests that have not
    /// finished, less what the running ones already spent, shared among the workers. `None`
    /// when a test that has not finished has no duration to go by.
    pub(crate) fn remaining(&self, now: Instant) -> Option<Duration> {
        let known: Vec<Duration> = self
            .basis
            .tests
            .iter()
            .filter_map(|(_, last)| *last)
            .chain(self.finished.values().copied())
            .collect();
        let mean = u32::try_from(known.len())
            .ok()
            .filter(|&n| n > 0)
            .map(|n| known.iter().sum::<Duration>() / n);
        let mut work = Duration::ZERO;
        let mut left = 0;
        for (test, last) in &self.basis.tests {
            if self.finished.contains_key(test) {
                continue;
            }
            let expected = last.or(mean)?;
            let spent = self.started.get(test).map_or(Duration::ZERO, |started| {
                now.saturating_duration_since(*started)
            });
            work += expected.saturating_sub(spent);
            left += 1;
        }
        let parallel = self.basis.workers.clamp(1, left.max(1));
        Some(work / u32::try_from(parallel).unwrap_or(u32::MAX))
    }
}

/// `, ETA 42s` (or `, ETA 3m 05s`) for the bar, and nothing when the time left is unknown.
pub(crate) fn eta_text(remaining: Option<Duration>) -> String {
    let Some(remaining) = remaining else {
        return String::new();
    };
    // Rounded up, so that a test about to end shows 1s rather than 0s.
    let secs = remaining.as_secs() + u64::from(remaining.subsec_nanos() > 0);
    let shown = match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m {:02}s", secs / 60, secs % 60),
        _ => format!("{}h {:02}m", secs / 3600, secs % 3600 / 60),
    };
    format!(", ETA {shown}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing;

    fn secs(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    fn test(name: &str) -> TestId {
        testing::id("scenarios/a.steps", name, 1)
    }

    fn basis(last: &[Option<u64>], workers: usize) -> EtaBasis {
        EtaBasis {
            tests: last
                .iter()
                .enumerate()
                .map(|(i, last)| (test(&format!("t{i}")), last.map(secs)))
                .collect(),
            workers,
        }
    }

    #[test]
    fn the_last_runs_durations_give_the_eta_before_any_test_finishes() {
        let eta = Eta::new(basis(&[Some(10), Some(20), Some(30)], 1));
        assert_eq!(eta.remaining(Instant::now()), Some(secs(60)));
        let eta = Eta::new(basis(&[Some(10), Some(20), Some(30)], 2));
        assert_eq!(eta.remaining(Instant::now()), Some(secs(30)));
    }

    #[test]
    fn a_running_test_counts_what_it_has_left_and_a_finished_one_nothing() {
        let mut eta = Eta::new(basis(&[Some(10), Some(20)], 1));
        let start = Instant::now();
        eta.test_started(&test("t0"), start);
        assert_eq!(eta.remaining(start + secs(4)), Some(secs(26)));
        // A test slower than last time has nothing left, not less than nothing.
        assert_eq!(eta.remaining(start + secs(15)), Some(secs(20)));
        eta.test_finished(&test("t0"), secs(15));
        assert_eq!(eta.remaining(start + secs(15)), Some(secs(20)));
    }

    #[test]
    fn a_test_without_a_record_counts_as_the_mean_of_the_known_ones() {
        let mut eta = Eta::new(basis(&[None, None, Some(30)], 1));
        assert_eq!(eta.remaining(Instant::now()), Some(secs(90)));
        eta.test_finished(&test("t0"), secs(10));
        assert_eq!(eta.remaining(Instant::now()), Some(secs(50)));
    }

    #[test]
    fn with_no_duration_known_there_is_no_eta_until_a_test_finishes() {
        let mut eta = Eta::new(basis(&[None, None], 4));
        assert_eq!(eta.remaining(Instant::now()), None);
        assert_eq!(eta_text(eta.remaining(Instant::now())), "");
        eta.test_finished(&test("t0"), secs(8));
        assert_eq!(eta.remaining(Instant::now()), Some(secs(8)));
    }

    #[test]
    fn the_text_rounds_up_and_grows_units() {
        let shown: Vec<String> = [
            Duration::from_millis(300),
            secs(42),
            secs(185),
            secs(3 * 3600 + 7 * 60 + 5),
        ]
        .into_iter()
        .map(|d| eta_text(Some(d)))
        .collect();
        assert_eq!(
            shown,
            [", ETA 1s", ", ETA 42s", ", ETA 3m 05s", ", ETA 3h 07m"]
        );
    }
}
