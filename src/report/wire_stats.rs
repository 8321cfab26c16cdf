//! How a run's totals and an LLM request's tokens look on the wire (`docs/reports.md`), and the
//! whole milliseconds every duration of the wire is written in.
//!
//! Main type: [`StatsWire`].

use std::time::Duration;

use serde::Serialize;

use crate::llm::Usage;
use crate::runner::{RunStats, StopReason};

/// A duration as whole milliseconds (saturating at `u64::MAX`).
pub(super) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// The tokens of one LLM request.
#[derive(Serialize)]
pub(crate) struct UsageWire {
    input_tokens: u64,
    /// The part of `input_tokens` read from the server's prompt cache.
    cached_input_tokens: u64,
    output_tokens: u64,
}

impl From<&Usage> for UsageWire {
    fn from(usage: &Usage) -> Self {
        Self {
            input_tokens: usage.input_tokens,
            cached_input_tokens: usage.cached_input_tokens,
            output_tokens: usage.output_tokens,
        }
    }
}

/// The totals of a run.
#[derive(Serialize)]
pub(crate) struct StatsWire {
    passed: usize,
    failed: usize,
    flaky: usize,
    infrastructure_failures: usize,
    /// Failures a missing setting caused; present only when some did.
    #[serde(skip_serializing_if = "is_zero")]
    configuration_failures: usize,
    not_run: usize,
    interrupted: bool,
    duration_ms: u64,
    cached_steps: usize,
    generated_steps: usize,
    healed_steps: usize,
    /// `[optional]` steps skipped because their target did not appear; present only when some
    /// were.
    #[serde(skip_serializing_if = "is_zero")]
    skipped_steps: usize,
    /// Of the generated and healed steps, those the built-in generator wrote; present only
    /// when some were.
    #[serde(skip_serializing_if = "is_zero")]
    builtin_steps: usize,
    /// Of the generated and healed steps, those whose code was reused from another test;
    /// present only when some were.
    #[serde(skip_serializing_if = "is_zero")]
    reused_steps: usize,
    /// Passed check steps by what the mutation proof said; present only when some were.
    #[serde(skip_serializing_if = "is_zero")]
    checks_proven: usize,
    #[serde(skip_serializing_if = "is_zero")]
    checks_unproven: usize,
    #[serde(skip_serializing_if = "is_zero")]
    checks_vacuous: usize,
    llm_requests: usize,
    tokens_in: u64,
    tokens_in_cached: u64,
    tokens_out: u64,
    llm_wait_ms: u64,
    /// Present (and `true`) only when healing ran with the heal veto off.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    heal_veto_off: bool,
    /// Present (and `true`) only when an LLM could be asked to write code in the run.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    llm_writes: bool,
    /// Present (and `true`) only when `[browser] allowed_origins = ["*"]`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    allowed_origins_off: bool,
    /// Tests Ctrl-C stopped (not in `failed`); present only when some were.
    #[serde(skip_serializing_if = "is_zero")]
    interrupted_tests: usize,
    /// Present (and `true`) only when the LLM failed several times in a row and the rest of the
    /// run made no LLM calls.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    llm_cut_off: bool,
    /// Why the run stopped early (a browser that could not be relaunched, an app that could not
    /// be reached, a missing setting); present only then.
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

impl From<&RunStats> for StatsWire {
    fn from(stats: &RunStats) -> Self {
        // Destructured so that a new total cannot be left off the wire unnoticed.
        let RunStats {
            passed,
            flaky,
            failed,
            infrastructure_failures,
            configuration_failures,
            not_run,
            duration,
            cached_steps,
            generated_steps,
            healed_steps,
            skipped_steps,
            builtin_steps,
            reused_steps,
            checks_proven,
            checks_unproven,
            checks_vacuous,
            llm_requests,
            tokens_in,
            tokens_in_cached,
            tokens_out,
            llm_wait,
            heal_veto_off,
            llm_writes,
            allowed_origins_off,
            interrupted_tests,
            llm_cut_off,
            ref stopped,
        } = *stats;
        Self {
            passed,
            failed,
            flaky,
            infrastructure_failures,
            configuration_failures,
            not_run,
            interrupted: stats.interrupted(),
            duration_ms: millis(duration),
            cached_steps,
            generated_steps,
            healed_steps,
            skipped_steps,
            builtin_steps,
            reused_steps,
            checks_proven,
            checks_unproven,
            checks_vacuous,
            llm_requests,
            tokens_in,
            tokens_in_cached,
            tokens_out,
            llm_wait_ms: millis(llm_wait),
            heal_veto_off,
            llm_writes,
            allowed_origins_off,
            interrupted_tests,
            llm_cut_off,
            stopped: match stopped {
                Some(StopReason::Halted(reason)) => Some(reason.clone()),
                _ => None,
            },
        }
    }
}
