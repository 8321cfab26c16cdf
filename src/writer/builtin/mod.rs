//! The built-in generator: step code for plain sentences, written from the sentence and the
//! page's aria snapshot without an LLM — deterministic, instant and offline. Its code is tried
//! and cached exactly like an LLM's (the engine's `generate.rs`, through the writer port), and
//! declines what it cannot resolve.
//!
//! Main function: [`write_step`] (`builtin.rs`); the shapes are in `grammar.rs`, the phrases
//! they are made of in `phrases.rs`, the snapshot in `snapshot.rs`, element resolution in
//! `resolve.rs`, the code in `codegen.rs`. No two files here import each other, directly or in
//! a circle: a shape that reads its parts as shapes (`forms.rs`) is handed the grammar's reader.

mod accessibility;
mod assertions;
#[expect(
    clippy::module_inception,
    reason = "one main type per file, named after it"
)]
mod builtin;
mod cards;
mod check_code;
mod check_sentences;
mod choices;
mod codegen;
mod compound;
mod discourse;
mod forms;
mod grammar;
mod http;
mod http_js;
mod http_request;
mod in_test;
mod intent;
mod js_values;
mod kinds;
mod locator;
mod navigation;
mod phrases;
mod resolve;
mod rewrites;
mod rows;
mod snapshot;
mod structure;
mod tokens;
mod visual;

pub(crate) use builtin::{Explanation, explain, write_step};
pub(crate) use check_sentences::{check_clause, reads_as_check};
pub(crate) use grammar::parse as parse_sentence;
pub(crate) use in_test::write_step_in_test;
pub(crate) use intent::Decline;
pub(crate) use rewrites::rewrite_candidates;
