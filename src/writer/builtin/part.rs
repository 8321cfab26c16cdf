//! One part of what a sentence read in its test means (`discourse.rs`, the plan readers): a
//! sentence the shapes read, or an act or a check on an element the reader resolved.
//!
//! Main type: [`Part`].

use crate::writer::builtin::element_step::ElementStep;

/// One part of what a referring sentence means: a sentence the shapes read, or an act or a
/// check on an element the reader resolved, which `element_code.rs` writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Part {
    Sentence(String),
    /// A sentence about an element an earlier part of the step may show (the toggle-all
    /// control a page shows once it has items): read on the page with the elements it hides
    /// now counted as shown.
    Revealed(String),
    Step(ElementStep),
}
