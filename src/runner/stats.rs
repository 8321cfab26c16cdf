//! The totals of a run, and why it stopped early when it did.
//!
//! Main type: [`RunStats`]. The counts come from the events ([`RunStats::observe`], beside the
//! event kinds it reads in `event.rs`); what no event says the runner sets.

use std::time::Duration;

/// Why a run stopped before every selected test ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StopReason {
    /// Ctrl-C, SIGTERM or SIGHUP: no new test starts, running tests stop before their next step.
    Interrupted,
    /// `--max-failures` tests failed; running tests finish.
    MaxFailures(usize),
    /// Every test left would fail the same way for a reason that is not the tests': the browser
    /// could not be launched several times in a row, the app could not be reached, or a setting
    /// the steps need is missing. No new test starts and running tests finish; the text says
    /// why.
    Halted(String),
}

/// Totals of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Tests that passed on their first attempt.
    pub passed: usize,
    /// Tests that failed, then passed on a retry: in neither `passed` nor `failed`.
    pub flaky: usize,
    /// Tests that failed (not those Ctrl-C stopped).
    pub failed: usize,
    /// Tests Ctrl-C stopped before one of their steps: neither passed nor failed.
    pub interrupted_tests: usize,
    /// Failures caused by the browser, the driver, the LLM or an app that cannot be reached
    /// (counted in `failed` too).
    pub infrastructure_failures: usize,
    /// Failures caused by a setting the steps need and the run lacks (counted in `failed` too).
    pub configuration_failures: usize,
    /// Selected tests that never started (Ctrl-C or `--max-failures`).
    pub not_run: usize,
    /// Why the run stopped early, if it did: the first reason that stopped it.
    pub stopped: Option<StopReason>,
    /// The LLM failed [`crate::llm::BREAKER_LIMIT`] times in a row and the rest of the run
    /// made no LLM calls.
    pub llm_cut_off: bool,
    /// Healing ran with the heal veto off (`heal.veto = false`): every summary warns.
    pub heal_veto_off: bool,
    /// An LLM could be asked to write code in this run (`run` with an LLM configured and
    /// `[generate] builtin` not `only`): only then did a reused step save an LLM request.
    pub llm_writes: bool,
    /// `[browser] allowed_origins = ["*"]`: pages could reach every origin; every summary warns.
    pub allowed_origins_off: bool,
    pub duration: Duration,
    /// Steps replayed from the cache, generated, and healed.
    pub cached_steps: usize,
    pub generated_steps: usize,
    pub healed_steps: usize,
    /// `[optional]` steps skipped because their target did not appear.
    pub skipped_steps: usize,
    /// Of the generated and healed steps, those whose code the built-in generator wrote.
    pub builtin_steps: usize,
    /// Of the generated and healed steps, those whose code was reused from another test for
    /// the same sentence: each saved at least one LLM request.
    pub reused_steps: usize,
    /// Passed steps whose checks the mutation proof saw failing, could not prove, or (in
    /// `prettyplay audit`) saw passing on a page that contradicts the sentence.
    pub checks_proven: usize,
    pub checks_unproven: usize,
    pub checks_vacuous: usize,
    /// LLM requests, tokens and time spent waiting on the LLM.
    pub llm_requests: usize,
    pub tokens_in: u64,
    /// The part of `tokens_in` servers reported as read from their prompt cache.
    pub tokens_in_cached: u64,
    pub tokens_out: u64,
    pub llm_wait: Duration,
}

impl RunStats {
    /// Whether Ctrl-C stopped the run.
    pub fn interrupted(&self) -> bool {
        self.stopped == Some(StopReason::Interrupted)
    }
}
