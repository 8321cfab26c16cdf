//! The progress bar of the `list` reporter on a terminal (never in CI): tests done of all,
//! passed, failed, healed, elapsed time and ETA (see [`Eta`]), with the step a test is at, or
//! what the LLM is doing, as its message. Result lines are printed above it through
//! [`Progress::print`], so they never tear it.
//!
//! Main type: [`Progress`]; [`step_message`] is the text of its message while a step runs.

use std::io;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::details::project_prefix;
use super::eta::{Eta, EtaBasis, eta_text};
use crate::engine::Pool;
use crate::runner::TestId;
use crate::visible::Visible;

/// Kept well under 80 columns, so that `{wide_msg}` has room on a narrow terminal. `{eta_left}`
/// is `, ETA 42s`, or nothing while the time left is unknown.
const TEMPLATE: &str =
    "{spinner} [{bar:16}] {pos}/{len} · {prefix} · {elapsed}{eta_left} · {wide_msg}";

/// Sentences longer than this are cut in the message, so that the step number stays in view.
const SENTENCE_CHARS: usize = 60;

/// The bar and the counts it shows.
pub(crate) struct Progress {
    bar: ProgressBar,
    /// Where the bar is drawn once the run starts (hidden before, so no empty bar shows).
    target: Option<ProgressDrawTarget>,
    passed: usize,
    failed: usize,
    healed: usize,
    /// Shared with the bar's style, which asks it for the time left each time it draws, so
    /// that the ETA counts down between events.
    eta: Arc<Mutex<Eta>>,
}

impl Progress {
    pub(super) fn new(target: ProgressDrawTarget, basis: EtaBasis) -> Self {
        let eta = Arc::new(Mutex::new(Eta::new(basis)));
        let drawn = Arc::clone(&eta);
        let eta_left = move |_: &ProgressState, out: &mut dyn std::fmt::Write| {
            let left = lock(&drawn).remaining(Instant::now());
            // The bar's line is a String: writing to it cannot fail.
            let _ = out.write_str(&eta_text(left));
        };
        let style = ProgressStyle::with_template(TEMPLATE)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .with_key("eta_left", eta_left)
            .progress_chars("=> ");
        let bar =
            ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden()).with_style(style);
        let progress = Self {
            bar,
            target: Some(target),
            passed: 0,
            failed: 0,
            healed: 0,
            eta,
        };
        progress.update_prefix();
        progress
    }

    pub(super) fn run_started(&mut self, tests: usize) {
        self.bar.set_length(tests as u64);
        self.bar.reset_elapsed();
        if let Some(target) = self.target.take() {
            self.bar.set_draw_target(target);
        }
        self.bar.enable_steady_tick(Duration::from_millis(200));
    }

    pub(super) fn test_started(&self, test: &TestId) {
        lock(&self.eta).test_started(test, Instant::now());
        self.bar
            .set_message(format!("{}{}", project_prefix(test), Visible(&test.name)));
    }

    /// The step a test is at: `add a todo › step 7/15: the counter says 3`.
    pub(super) fn step_started(&self, test: &TestId, index: usize, steps: usize, sentence: &str) {
        self.bar
            .set_message(step_message(test, index, steps, sentence));
    }

    /// An LLM attempt at a step's code: `add a todo: generating step 3, attempt 2/3`, or
    /// `[firefox] add a todo: ...` in a run of several browsers.
    pub(super) fn generation_started(
        &self,
        test: &TestId,
        index: usize,
        pool: Pool,
        attempt: u32,
        limit: u32,
    ) {
        let what = match pool {
            Pool::Generation => "generating",
            Pool::Healing => "regenerating",
        };
        self.bar.set_message(format!(
            "{}{}: {what} step {index}, attempt {attempt}/{limit}",
            project_prefix(test),
            Visible(&test.name)
        ));
    }

    pub(super) fn healed(&mut self) {
        self.healed += 1;
        self.update_prefix();
    }

    pub(super) fn test_finished(&mut self, test: &TestId, took: Duration, passed: bool) {
        lock(&self.eta).test_finished(test, took);
        if passed {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
        self.update_prefix();
        self.bar.set_message("");
        self.bar.inc(1);
    }

    /// Runs `print` with the bar cleared, then redraws the bar below what it printed.
    pub(super) fn print<T>(&self, print: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
        self.bar.suspend(print)
    }

    /// Removes the bar for good (before the summary).
    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
    }

    /// `3 passed, 1 failed`, and `, 2 healed` once a step was healed.
    fn update_prefix(&self) {
        let mut prefix = format!("{} passed, {} failed", self.passed, self.failed);
        if self.healed > 0 {
            prefix.push_str(&format!(", {} healed", self.healed));
        }
        self.bar.set_prefix(prefix);
    }

    #[cfg(test)]
    pub(super) fn state(&self) -> (u64, Option<u64>, String, String) {
        (
            self.bar.position(),
            self.bar.length(),
            self.bar.prefix(),
            self.bar.message(),
        )
    }
}

/// The message while a step runs: the test (with its browser project in a run of several), the
/// step's number of the test's steps (its file's background included) and its sentence, cut
/// past [`SENTENCE_CHARS`] characters. A step count of 0 means the event did not say it.
pub(crate) fn step_message(test: &TestId, index: usize, steps: usize, sentence: &str) -> String {
    let number = match steps {
        0 => format!("step {index}"),
        steps => format!("step {index}/{steps}"),
    };
    let sentence = match sentence.char_indices().nth(SENTENCE_CHARS) {
        Some((cut, _)) => format!("{}…", &sentence[..cut]),
        None => sentence.to_owned(),
    };
    format!(
        "{}{} › {number}: {}",
        project_prefix(test),
        Visible(&test.name),
        Visible(sentence)
    )
}

/// Locks the ETA, also when a thread panicked while holding it: its counts stay whole, because
/// each update is one map insertion or removal.
fn lock(eta: &Mutex<Eta>) -> std::sync::MutexGuard<'_, Eta> {
    eta.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Drop for Progress {
    fn drop(&mut self) {
        if !self.bar.is_finished() {
            self.bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing;

    #[test]
    fn the_message_names_the_test_and_its_browser_project_when_it_has_one() {
        let progress = Progress::new(ProgressDrawTarget::hidden(), EtaBasis::default());
        let test = testing::id("scenarios/todo.steps", "add a todo", 2);
        progress.test_started(&test);
        assert_eq!(progress.state().3, "add a todo");
        let test = test.in_project(Some("firefox"));
        progress.test_started(&test);
        assert_eq!(progress.state().3, "[firefox] add a todo");
        progress.generation_started(&test, 3, Pool::Healing, 2, 3);
        assert_eq!(
            progress.state().3,
            "[firefox] add a todo: regenerating step 3, attempt 2/3"
        );
    }

    #[test]
    fn the_message_follows_the_step_a_test_is_at() {
        let progress = Progress::new(ProgressDrawTarget::hidden(), EtaBasis::default());
        let test = testing::id("scenarios/counter.steps", "count to fifteen", 1);
        progress.test_started(&test);
        progress.step_started(&test, 7, 15, "the counter says 7");
        assert_eq!(
            progress.state().3,
            "count to fifteen › step 7/15: the counter says 7"
        );
    }

    #[test]
    fn step_messages() {
        let test = testing::id("scenarios/counter.steps", "count", 1);
        let firefox = test.clone().in_project(Some("firefox"));
        let long = "the counter says seven after a very long sentence that goes on and on and on";
        let messages = [
            step_message(&test, 1, 3, "background: open the app"),
            step_message(&firefox, 2, 3, "click \"+\""),
            step_message(&test, 3, 0, "an event that did not say how many steps"),
            step_message(&test, 3, 3, long),
            step_message(&test, 3, 3, "a sentence with\u{1b}[2J an escape"),
        ];
        insta::assert_snapshot!(messages.join("\n"));
    }
}
