//! Running tests: selecting them, executing each test's steps in order on its own thread and
//! page, and reporting everything as [`RunEvent`]s. The runner never prints.
//!
//! Main types: [`Runner`], [`RunEvent`], [`RunStats`].

mod event;
#[cfg(test)]
mod fake;
mod last_run;
mod lifecycle;
mod masked;
mod port;
mod retry;
mod run_config;
#[expect(
    clippy::module_inception,
    reason = "one main type per file, named after it"
)]
mod runner;
mod select;
mod setups;
mod shared_steps;
mod tag_expr;
mod test_run;

pub use event::{
    FailureCause, Interruption, RunEvent, RunStats, SetupFailed, StepSource, StopReason,
    TestFailure, TestId, TestOutcome, TestTiming,
};
pub use last_run::{FailedTest, LastRun};
pub use run_config::{Mode, RunConfig, TraceMode};
pub use runner::Runner;
pub use select::{
    Location, Selection, Shard, TestRef, select_tests, unmatched_locations, with_setups,
};
pub use tag_expr::{TagExpr, TagExprError};
