//! The port through which code is tried against the page.
//!
//! Main type: [`StepExecutor`]. The engine decides which code to try; an executor runs it and
//! says how it went. The live implementation is [`LiveExecutor`](crate::step::LiveExecutor);
//! the engine's unit tests use a strict scripted one.

use std::time::Duration;

use crate::script::{Observation, PageState, StepFailure, SubjectRead};
use crate::step::{Claims, Proof};

/// Runs step code against a page and reports a typed outcome: `Ok` when the code ran to its end,
/// else the [`StepFailure`] whose kind says how it failed.
pub(crate) trait StepExecutor {
    /// Compiles `code` and checks that it defines `step(page)`, without running it against the
    /// page.
    fn check(&self, code: &str) -> Result<(), StepFailure>;
    /// Executes `code` against the live page inside the step's settle window.
    fn execute(&self, code: &str) -> Result<(), StepFailure>;
    /// The current page as the LLM sees it.
    fn page_state(&self, screenshot: bool, snapshot_budget: usize) -> PageState;
    /// Runs the mutation proof of `code`, which just passed on the page: under each mutation
    /// that contradicts `claims` it must fail, and on the restored page pass again.
    fn prove(&self, code: &str, claims: &Claims) -> Proof;
    /// The evidence about the last [`execute`](Self::execute) that failed: its last call and
    /// what the page shows now.
    fn observe(&self) -> Observation;
    /// Forgets what `[browser] allowed_origins` blocked so far in the test, once a candidate
    /// that reached out failed for it and another is about to be tried: the block is that
    /// candidate's failure, not the test's. Anything blocked later fails again.
    fn forgive_blocked(&self) {}
    /// Fails when `[browser] allowed_origins` blocked anything the code that just passed set
    /// going, after a short wait for what it left in flight: code about to be cached must not
    /// reach out even after its last call.
    fn kept_to_origins(&self) -> Result<(), StepFailure> {
        Ok(())
    }
    /// Whether `[browser] allowed_origins` lets the test's pages go to `url`.
    fn allows_url(&self, _url: &str) -> bool {
        true
    }
    /// For an `[optional]` step, how long its target may take to appear (`None` for any other
    /// step).
    fn optional_bound(&self) -> Option<Duration> {
        None
    }
    /// How long what a sentence names may take to appear before the built-in generator says
    /// it is not on the page: an `[optional]` step's bound, else the time the code's own first
    /// action would wait for its target (a page may render its content after it loads).
    fn appear_bound(&self) -> Duration {
        self.optional_bound().unwrap_or_default()
    }
    /// The HTTP method of a request that writes (not GET or HEAD) which the last
    /// [`execute`](Self::execute) sent, if any.
    fn sent_write(&self) -> Option<String> {
        None
    }
    /// The element reads the last [`execute`](Self::execute) made, each with where its
    /// elements are against the subject the last [`observe`](Self::observe) marked (the
    /// elements a failed check's locator still resolved to); `None` when it marked none.
    fn subject_reads(&self) -> Option<Vec<SubjectRead>> {
        None
    }
}
