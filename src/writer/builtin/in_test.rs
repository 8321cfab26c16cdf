//! The built-in generator's writer for a step in its test: the step's sentence is read with
//! the test's discourse memory (what earlier steps added and acted on, `discourse.rs`), as a
//! planner's loose step (`plan_steps.rs`) and with the run's origins (`navigation.rs`), and
//! its parts are written by the shapes.
//!
//! Main function: [`write_step_in_test`].

use crate::script::PageState;
use crate::writer::builtin::codegen::{statements, step_function};
use crate::writer::builtin::discourse::{Discourse, Part};
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::navigation::write_step_within;
use crate::writer::builtin::plan_readers::read_plan_step;
use crate::writer::builtin::plan_steps::without_comments;

/// The code of `sentence` on the page of `state`, after the test's earlier steps (their
/// `sentences`, background first, and the `code` they passed with); `allows`
/// says whether the run's pages may go to a URL. A parenthesized comment is no part of the
/// sentence. A sentence that refers back is read as what it refers to; when the reference
/// does not resolve and the shapes cannot read the sentence on their own either, the
/// reference's decline says what it could have meant.
pub(crate) fn write_step_in_test(
    sentence: &str,
    columns: &[String],
    state: &PageState,
    allows: &dyn Fn(&str) -> bool,
    sentences: &[String],
    code: &[String],
) -> Result<String, Decline> {
    let sentence = &without_comments(sentence);
    let discourse = Discourse::of(sentences, code);
    let read = match discourse.read(sentence, columns) {
        None => read_plan_step(&discourse, sentence, columns, state),
        Some(Err(unresolved)) => Some(
            read_plan_step(&discourse, sentence, columns, state)
                .and_then(Result::ok)
                .ok_or(unresolved),
        ),
        read => read,
    };
    match read {
        None => write_step_within(sentence, columns, state, allows),
        Some(Err(unresolved)) => {
            write_step_within(sentence, columns, state, allows).map_err(|_| unresolved)
        }
        Some(Ok(parts)) => {
            let mut lines = Vec::new();
            for part in parts {
                match part {
                    Part::Code(line) => lines.push(line),
                    Part::Sentence(said) => lines.extend(statements(&write_step_within(
                        &said, columns, state, allows,
                    )?)),
                }
            }
            Ok(step_function(lines))
        }
    }
}
