//! What a reader of a sentence in its test sees (the test's memory and the plan readers of the
//! registry, `plan_readers.rs`): the sentence's words, the earlier steps' memory and the page.
//!
//! Main type: [`Said`].

use crate::script::PageState;
use crate::writer::builtin::discourse::Discourse;
use crate::writer::builtin::tokens::Tok;

/// What a reader sees: the sentence's normalized tokens, its raw tokens (an ordinal that
/// starts the sentence survives there), the test's discourse and the page.
pub(crate) struct Said<'a> {
    pub(crate) toks: Vec<Tok>,
    pub(crate) raw: Vec<Tok>,
    pub(crate) discourse: &'a Discourse,
    pub(crate) state: &'a PageState,
}
