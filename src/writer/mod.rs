//! The writers of step code, below the engine that decides what to do with it: the built-in
//! generator (`builtin/`, offline, from the sentence and the page) and the LLM (through the
//! [`crate::llm`] client), both behind the one [`Writer`] port. The sentence tokenizer lives here
//! too because the writers read sentences first; the engine's decisions read them with it.
//!
//! Main types: [`Writer`], [`BuiltinWriter`], [`LlmWriter`], [`Draft`], [`Context`].

mod builtin;
mod sentence;
#[expect(
    clippy::module_inception,
    reason = "one main type per file, named after it"
)]
mod writer;

pub(crate) use builtin::{
    Decline, Explanation, check_clause, explain, parse_sentence, reads_as_check,
    rewrite_candidates, write_step,
};
pub(crate) use sentence::{Tok, placeholders_of, quoted_literals, tokenize, words};
pub(crate) use writer::{BuiltinWriter, Context, LlmWriter, Writer};
