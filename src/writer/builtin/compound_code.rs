//! The code of a sentence that is several steps in one (read by `compound.rs`): each clause's
//! statements in order in one step, so the step passes only when every clause holds, and the
//! acts on the element that has the keyboard focus.
//!
//! Main function: [`code`].

use crate::writer::builtin::intent::{Clause as Said, ClauseAct, Decline};
use crate::writer::builtin::js_values::value_js;
use crate::writer::builtin::locator::js_str;
use crate::writer::builtin::shape::Render;
use crate::writer::builtin::snapshot::Snapshot;

/// The locator of the element that has the keyboard focus.
const FOCUSED: &str = "page.locator(':focus')";

/// The statements of `clauses` on the page `snap` shows, in order, each shape's written with
/// `render`. A clause the page cannot satisfy declines the sentence with its own reason.
pub(crate) fn code(
    clauses: &[Said],
    snap: &Snapshot,
    render: Render,
) -> Result<Vec<String>, Decline> {
    let mut lines: Vec<String> = Vec::new();
    for clause in clauses {
        let written = match &clause.act {
            ClauseAct::Intent(intent) => render(intent, snap),
            ClauseAct::ClearFocused => Ok(vec![format!("await {FOCUSED}.clear();")]),
            ClauseAct::FillFocused(value) => {
                Ok(vec![format!("await {FOCUSED}.fill({});", value_js(value))])
            }
            ClauseAct::PressFocused(key) => {
                Ok(vec![format!("await {FOCUSED}.press({});", js_str(key))])
            }
        };
        match written {
            Ok(clause_lines) => {
                // Clauses may declare the same names (`const field`): each gets its own block.
                if clause_lines.iter().any(|l| l.starts_with("const ")) {
                    lines.push("{".to_owned());
                    lines.extend(clause_lines.into_iter().map(|l| format!("  {l}")));
                    lines.push("}".to_owned());
                } else {
                    lines.extend(clause_lines);
                }
            }
            Err(decline) => {
                return Err(Decline::new(format!(
                    "in \"{}\": {}",
                    clause.said, decline.0
                )));
            }
        }
    }
    Ok(lines)
}
