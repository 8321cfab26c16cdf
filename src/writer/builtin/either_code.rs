//! The code of `<claim> or <element> is hidden` (read by `either.rs`): it asks the page whether
//! the element is shown, checks the other claim when it is and that the element is hidden when it
//! is not, so it passes exactly when the sentence holds.
//!
//! Main function: [`code`].

use crate::writer::builtin::check_code::hidden_locator;
use crate::writer::builtin::intent::{Decline, Intent, Target};
use crate::writer::builtin::shape::Render;
use crate::writer::builtin::snapshot::Snapshot;

/// The code: when the element is shown, the other claim is checked; else that it is hidden.
/// The other claim is read on the page as it is, or, when it is about an element the page
/// hides now (a counter inside the hidden footer), with the hidden elements counted as shown,
/// since its check runs only once the element is shown.
pub(crate) fn code(
    snap: &Snapshot,
    hidden: &Target,
    otherwise: &Intent,
    render: Render,
) -> Result<Vec<String>, Decline> {
    let element = hidden_locator(snap, hidden)?;
    let checked = render(otherwise, snap)
        .or_else(|first| render(otherwise, &snap.revealed()).map_err(|_| first))?;
    let mut lines = vec![format!("if (await {element}.isVisible()) {{")];
    lines.extend(checked.iter().map(|line| format!("  {line}")));
    lines.push("} else {".to_owned());
    lines.push(format!("  await expect({element}).toBeHidden();"));
    lines.push("}".to_owned());
    Ok(lines)
}
