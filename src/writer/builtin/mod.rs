//! The built-in generator: step code for plain sentences, written from the sentence and the
//! page's aria snapshot without an LLM — deterministic, instant and offline. Its code is tried
//! and cached exactly like an LLM's (the engine's `generate.rs`, through the writer port), and
//! declines what it cannot resolve.
//!
//! Main function: [`write_step`] (`builtin.rs`), and [`write_step_in_test`] (`in_test.rs`) for
//! a step in its test; the shapes are one ordered registry (`SHAPES` in `shapes.rs`, each a
//! `Shape` of `shape.rs` with its examples in `shape_examples.rs`), headed by the readers of
//! a sentence in its test (`plan_readers.rs`: the test's memory and the plan readers, with
//! their examples in `reader_examples.rs`), whose other readers live in `grammar.rs`
//! (actions), `assertions.rs` (checks),
//! `forms.rs`, `http.rs`, `cards.rs`, `choices.rs` and `compound.rs`; the phrases they are made
//! of are in `phrases.rs`, the snapshot in `snapshot.rs`, element resolution in `resolve.rs`,
//! the code in `codegen.rs` and the `*_code.rs` files beside it (`element_code.rs` for the plan
//! readers' typed steps; `accessibility_code.rs`, `cards_code.rs`, `choice_code.rs`,
//! `compound_code.rs`, `dropdown_code.rs`, `either_code.rs`, `form_code.rs`, `http_code.rs` and
//! `visual_code.rs` for the intents and findings of their reading files; `text_line_code.rs`
//! for the locator of a line of text). No two files here import each other, directly or in a
//! circle: a shape that reads its parts as sentences (two checks, clauses, a dropdown's second
//! action) is handed the registry's reader.

mod accessibility;
mod accessibility_code;
mod accounting;
mod assertions;
#[expect(
    clippy::module_inception,
    reason = "one main type per file, named after it"
)]
mod builtin;
mod cards;
mod cards_code;
mod cell_code;
mod check_code;
mod check_options;
mod check_sentences;
mod choice_code;
mod choices;
mod clicks;
mod codegen;
mod compound;
mod compound_code;
mod discourse;
mod dropdown_code;
mod dropdown_option;
mod edit_mode;
mod either;
mod either_code;
mod element_code;
mod element_step;
mod field_reference;
mod form_code;
mod forms;
mod grammar;
mod http;
mod http_code;
mod http_js;
mod http_request;
mod in_test;
mod intent;
mod js_values;
mod kinds;
mod loading;
mod loading_code;
mod locator;
mod navigation;
mod part;
mod phrases;
mod place_code;
mod placement;
mod plan_accounting;
mod plan_counts;
mod plan_readers;
mod plan_states;
mod plan_steps;
mod plan_typing;
mod plan_unnamed;
mod qualifiers;
mod quoting;
mod reader_examples;
mod resolve;
mod rewrites;
mod rows;
mod said;
mod sentence_shapes;
mod shape;
mod shape_examples;
mod shapes;
mod snapshot;
mod structure;
mod table_cells;
mod table_code;
mod tables;
mod text_line_code;
mod tokens;
mod unnamed;
mod visual;
mod visual_code;
mod vocabulary;
mod waits;

pub(crate) use builtin::{Explanation, explain, write_step};
pub(crate) use check_sentences::{check_clause, reads_as_check};
pub(crate) use in_test::write_step_in_test;
pub(crate) use intent::Decline;
pub(crate) use rewrites::rewrite_candidates;
pub(crate) use shapes::parse as parse_sentence;
