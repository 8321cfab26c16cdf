//! The step engine: deciding which code a step runs. Generation turns a sentence into proven
//! code; healing regenerates code the UI outgrew, and never masks a product defect. Code is
//! tried through the `step` layer's [`StepExecutor`](crate::step::StepExecutor).
//!
//! Main types: [`Engine`] (with `generate.rs` and `heal.rs`), [`Budgets`], [`EngineFailure`].

mod assertion_call;
mod budgets;
mod builtin_step;
mod check_reader;
mod checks;
mod claims;
mod continuity;
#[expect(
    clippy::module_inception,
    reason = "one main type per file, named after it"
)]
mod engine;
mod evidence;
mod generate;
mod heal;
mod locator_texts;
mod not_a_read;
mod optional_chain;
mod prompts;
mod proof;
mod requests;
mod reuse;
mod reused;
mod scope;
mod scope_match;
mod script_argument;
mod sentence;
mod subject_origin;
#[cfg(test)]
mod testing;
mod verdict;
mod veto;

pub(crate) use budgets::Budgets;
pub(crate) use budgets::Pool;
pub(crate) use engine::LlmPurpose;
#[cfg(test)]
pub(crate) use engine::Written;
pub(crate) use engine::{Engine, EngineObserver, HealPolicy, StepContext};
pub(crate) use evidence::{Judgement, defect_classification, judge, likeness_classification};
pub(crate) use generate::evident_failure;
pub use proof::StepProof;
pub(crate) use proof::audit_record;
pub(crate) use reuse::Reuse;
pub(crate) use verdict::EngineCause;
pub use verdict::{EngineFailure, EngineFailureKind};
