//! Executing step code on the live page: the [`StepExecutor`] port the engine tries code through,
//! its live implementation (the test's JavaScript sandbox and browser host inside a settle
//! window), and the settle window itself.
//!
//! Main types: [`StepExecutor`], [`LivePage`] / [`LiveExecutor`], [`SettleWindow`] and the
//! [`settle`] loop, and the mutation proof ([`Proof`], in `proof.rs`). This layer sits between `engine` (which decides what code to try) and
//! `script` (which runs it); it reports settle retries through a callback and names nothing above
//! it.

mod executor;
mod live;
mod mutations;
mod proof;
mod settle;
mod waited;

pub(crate) use executor::StepExecutor;
pub(crate) use live::{LiveExecutor, LivePage};
pub(crate) use mutations::Claims;
pub(crate) use proof::Proof;
pub(crate) use settle::{SettleWindow, SystemClock, settle};
pub(crate) use waited::{TimeoutSetting, Waited, WaitedIn};
