//! The progress bar of the `list` reporter on a terminal (never in CI): tests done of all,
//! passed, failed, healed, elapsed time and ETA, with what the LLM is doing as its message.
//! Result lines are printed above it through [`Progress::print`], so they never tear it.
//!
//! Main type: [`Progress`].

use std::io;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::details::project_prefix;
use crate::engine::Pool;
use crate::runner::TestId;
use crate::visible::Visible;

/// Kept well under 80 columns, so that `{wide_msg}` has room on a narrow terminal.
const TEMPLATE: &str =
    "{spinner} [{bar:16}] {pos}/{len} · {prefix} · {elapsed}, ETA {eta} · {wide_msg}";

/// The bar and the counts it shows.
pub(crate) struct Progress {
    bar: ProgressBar,
    /// Where the bar is drawn once the run starts (hidden before, so no empty bar shows).
    target: Option<ProgressDrawTarget>,
    passed: usize,
    failed: usize,
    healed: usize,
}

impl Progress {
    pub(super) fn new(target: ProgressDrawTarget) -> Self {
        let style = ProgressStyle::with_template(TEMPLATE)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        let bar =
            ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden()).with_style(style);
        let progress = Self {
            bar,
            target: Some(target),
            passed: 0,
            failed: 0,
            healed: 0,
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
        self.bar
            .set_message(format!("{}{}", project_prefix(test), Visible(&test.name)));
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

    pub(super) fn test_finished(&mut self, passed: bool) {
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
        let progress = Progress::new(ProgressDrawTarget::hidden());
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
}
