//! The step engine: how a step's code gets executed until it proves itself. The settle window
//! re-executes code on transient failures; generation turns a sentence into proven code;
//! healing regenerates code the UI outgrew, and never masks a product defect.
//!
//! Main types: [`SettleWindow`] and the [`settle`] loop, [`Engine`], [`EngineFailure`].

mod budgets;
#[expect(
    clippy::module_inception,
    reason = "one main type per file, named after it"
)]
mod engine;
mod prompts;
mod settle;
mod verdict;

pub(crate) use budgets::Budgets;
pub use budgets::Pool;
pub(crate) use engine::{Engine, EngineObserver, StepContext, StepExecutor};
pub use engine::{LlmPurpose, PageState};
pub(crate) use settle::{SettleWindow, SystemClock, settle};
pub use verdict::{EngineFailure, EngineFailureKind};
