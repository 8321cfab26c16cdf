//! Running tests: selecting them, executing each test's steps in order on its own thread and
//! page, and reporting everything as [`RunEvent`]s. The runner never prints.
//!
//! Main types: [`Runner`], [`RunEvent`], [`RunStats`], and [`RunHost`], which owns what the
//! tests run on.

mod event;
#[cfg(test)]
mod fake;
mod last_run;
mod lifecycle;
mod masked;
mod port;
mod projects;
mod retry;
mod run_config;
mod run_host;
mod run_job;
#[expect(
    clippy::module_inception,
    reason = "one main type per file, named after it"
)]
mod runner;
mod select;
mod setups;
mod shared_steps;
mod skip;
mod tag_expr;
mod test_run;

pub use event::{FailureCause, RunEvent, RunStats, StepSource, TestFailure, TestId, TestOutcome};
pub(crate) use event::{Interruption, SetupFailed, StopReason, TestTiming};
pub(crate) use last_run::{FailedTest, LastRun, TestDuration};
pub(crate) use projects::run_projects;
pub(crate) use run_config::{Mode, RunConfig, TraceMode};
pub(crate) use run_host::{HostError, RunHost};
pub(crate) use run_job::RunJob;
pub(crate) use runner::Runner;
#[cfg(test)]
pub(crate) use select::with_setups;
pub(crate) use select::{Location, Selection, Shard, TestRef, select_tests, unmatched_locations};
pub(crate) use tag_expr::TagExpr;
pub(crate) use test_run::{test_steps, test_vars};
