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
mod margins;
mod masked;
mod outcome;
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
mod stats;
mod step_reporter;
mod step_run;
mod tag_expr;
mod test_id;
mod test_run;
mod written_code;

pub use crate::driver::{OriginOutcome, OriginSeen};
pub(crate) use event::RunClock;
pub use event::{
    AttemptTiming, EventKind, EventTime, GenerationStarted, Healed, HealingStarted, LlmCall,
    OriginsSeen, ReuseTried, RunEvent, RunFinished, RunKind, RunStarted, SettleRetry, StepFailed,
    StepId, StepKind, StepLog, StepPassed, StepSkipped, StepSource, StepStarted, StepVerdict,
    TestFinished, TestKind, TestRetry, TestTiming, TraceWritten, Warning,
};
pub(crate) use last_run::{FailedTest, LastRun, TestDuration};
pub(crate) use margins::wait_seconds;
pub use outcome::{FailureCause, TestFailure, TestOutcome, WrittenStep};
pub(crate) use outcome::{Interruption, SetupFailed};
pub(crate) use projects::run_projects;
pub(crate) use run_config::{Mode, RunConfig, TraceMode};
pub(crate) use run_host::{HostError, RunHost};
pub(crate) use run_job::RunJob;
pub(crate) use runner::Runner;
#[cfg(test)]
pub(crate) use select::with_setups;
pub(crate) use select::{Location, Selection, Shard, TestRef, select_tests, unmatched_locations};
pub use stats::RunStats;
pub(crate) use stats::StopReason;
pub(crate) use tag_expr::TagExpr;
pub use test_id::TestId;
pub(crate) use test_run::{test_steps, test_vars};
