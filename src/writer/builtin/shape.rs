//! One sentence shape of the built-in generator as the registry in `shapes.rs` lists it: its
//! name, its documented examples, and how it reads a sentence.
//!
//! Main type: [`Shape`].

use crate::writer::builtin::intent::{Decline, Intent};
use crate::writer::builtin::said::Said;
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::builtin::tokens::Tok;
use crate::writer::builtin::vocabulary::Reads;

/// Reads a whole sentence as the registry does, without a page: the shapes whose parts are
/// sentences of their own (a compound step's clauses) are handed it, because the registry
/// lists them and so cannot be imported by them.
pub(crate) type Parse = fn(&str, &[String]) -> Result<Intent, Decline>;

/// Writes an intent's statements on a page, as `codegen.rs` does: the intents made of other
/// intents (a choice's second action, a compound step's clauses) are written with it by their
/// code files (`choice_code.rs`, `compound_code.rs`), because `codegen.rs` imports those files.
pub(crate) type Render = fn(&Intent, &Snapshot) -> Result<Vec<String>, Decline>;

/// Reads a sentence's words as the registry's word shapes do: the first that reads them
/// decides. Two checks joined by `and` read each half with it.
pub(crate) type ReadWords = fn(&[Tok]) -> Option<Result<Intent, Decline>>;

/// A documented example of a shape: a sentence, the page it is written on (an aria
/// snapshot), and the statements of the code the built-in generator writes for it.
#[derive(Debug, Clone, Copy)]
#[cfg_attr(
    not(test),
    expect(
        dead_code,
        reason = "the examples are documentation, walked by a unit test"
    )
)]
pub(crate) struct Example {
    pub sentence: &'static str,
    pub page: &'static str,
    /// The statements of the step function, one a line, as written.
    pub code: &'static str,
}

/// What a shape is asked to read: the sentence, its normalized words and the page, when one is
/// known.
pub(crate) struct Sentence<'a> {
    /// The sentence as written; `None` when only words are read (a half of two checks), and
    /// the shapes that read the text as a whole do not apply.
    pub text: Option<&'a str>,
    /// The examples table's columns: `<name>` is a value only for these.
    pub columns: &'a [String],
    /// The sentence's words, politeness and fillers normalized away.
    pub toks: &'a [Tok],
    /// The page's snapshot; `None` when the sentence is read without one (`prettyplay list
    /// --check`, an `[optional]` step's reading).
    pub page: Option<&'a Snapshot>,
    pub parse: Parse,
    pub words: ReadWords,
    /// The sentence in its test: its words as written (before a navigation sentence is read
    /// as what it opens), the earlier steps' memory and the page's state. `None` outside a
    /// test, where the readers of the test's context do not apply.
    pub test: Option<&'a Said<'a>>,
}

/// What a shape reads, which decides how the walk weighs its reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShapeKind {
    /// A shape of the sentence alone, or of the sentence on its page.
    Sentence,
    /// The test's memory (`discourse.rs`): a sentence that refers back to earlier steps.
    Memory,
    /// A planner's loose step read with the test's context; the words and kinds of meaning
    /// its pattern reads explain the sentence's words with its parts (`plan_accounting.rs`).
    Plan(&'static Reads),
}

/// One sentence shape. The registry's order is the precedence: the first shape that reads a
/// sentence decides it, unless it declines, when only the shapes that rescue a sentence are
/// tried after it.
pub(crate) trait Shape: Sync {
    /// The shape's name in docs/builtin.md's table of shapes.
    fn name(&self) -> &'static str;

    /// The documented examples, each walked by a unit test on its page.
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "the examples are documentation, walked by a unit test"
        )
    )]
    fn examples(&self) -> &'static [Example];

    /// `None` when the sentence is not of this shape, so that the next one is tried; else what
    /// the shape made of it, whose code `codegen.rs` writes, or why it cannot be written.
    fn read(&self, sentence: &Sentence<'_>) -> Option<Result<Intent, Decline>>;

    /// The words of the sentence its reading must account for (`accounting.rs`): all of them,
    /// but for those the shape read as its own frame (the verb it starts with, a summary before
    /// the check it reads as a sentence of its own). A shape that does not say so accounts for
    /// every word.
    fn accountable<'t>(&self, toks: &'t [Tok]) -> &'t [Tok] {
        toks
    }

    /// What the shape reads: the sentence (and its page), or the sentence in its test.
    fn kind(&self) -> ShapeKind {
        ShapeKind::Sentence
    }

    /// The earlier steps of the test its examples are written in, each a sentence and the
    /// code it passed with; none for a shape of the sentence alone.
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "the examples are documentation, walked by a unit test"
        )
    )]
    fn before(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// Whether the shape reads the page as well as the sentence (it is skipped without one).
    fn needs_page(&self) -> bool {
        false
    }

    /// Whether the shape is tried after an earlier one declined the sentence: a reading of it
    /// as something else (its clauses, a page's cards) may still write it.
    fn rescues(&self) -> bool {
        false
    }
}
