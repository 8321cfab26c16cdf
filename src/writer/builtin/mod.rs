//! The built-in generator: step code for plain sentences, written from the sentence and the
//! page's aria snapshot without an LLM — deterministic, instant and offline. Its code is tried
//! and cached exactly like an LLM's (`generate.rs`), and declines what it cannot resolve.
//!
//! Main function: [`write_step`] (`builtin.rs`); the shapes are in `grammar.rs`, the snapshot
//! in `snapshot.rs`, element resolution in `resolve.rs`, the code in `codegen.rs`.

mod assertions;
#[expect(
    clippy::module_inception,
    reason = "one main type per file, named after it"
)]
mod builtin;
mod cards;
mod check_code;
mod choices;
mod codegen;
mod compound;
mod forms;
mod grammar;
mod http;
mod http_js;
mod intent;
mod js_values;
mod kinds;
mod resolve;
mod rewrites;
mod rows;
mod snapshot;
mod structure;
mod tokens;

pub(crate) use builtin::{Explanation, explain, write_step, write_step_on};
pub(crate) use forms::{check_clause, reads_as_check};
pub(crate) use grammar::Decline;
pub(crate) use grammar::parse as parse_sentence;
pub(crate) use rewrites::rewrite_candidates;
