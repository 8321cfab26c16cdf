//! The code of the loading-indicator intents (`loading.rs` reads them): the page's own
//! indicator, an element whose role is progressbar, one the page marks `aria-busy`, or one
//! whose class or id is the whole word loading, loader, spinner or progress (as the step
//! host's `structure.js` lists them, hidden ones included). A page with none, or with several
//! that are not one element, is declined: the sentence does not say which.
//!
//! Main function: [`indicator`].

use crate::writer::builtin::check_code;
use crate::writer::builtin::check_options::CheckOptions;
use crate::writer::builtin::intent::{Cause, Decline, Literal};
use crate::writer::builtin::snapshot::Snapshot;

/// The locator of the page's one loading indicator.
pub(super) fn indicator(snap: &Snapshot) -> Result<String, Decline> {
    let mut found: Vec<String> = Vec::new();
    if !snap.with_roles(&["progressbar"]).is_empty() {
        found.push("page.getByRole('progressbar')".to_owned());
    }
    // An indicator the page gives no locator of its own (two `div.spinner`s) still counts: left
    // out, the one named indicator beside it would stand for all of them.
    let mut unnamed = 0;
    for hint in &snap.structure.hints {
        if hint.indicator.is_none() {
            continue;
        }
        // `structure.js` gives an indicator a locator from the page, never from a row.
        match hint.locator.as_deref() {
            Some(locator) if !found.iter().any(|f| f == locator) => found.push(locator.to_owned()),
            Some(_) => {}
            None => unnamed += 1,
        }
    }
    if unnamed > 0 {
        found.push(format!("{unnamed} with no locator of its own"));
    }
    match found.as_slice() {
        [one] if unnamed == 0 && snap.with_roles(&["progressbar"]).len() <= 1 => Ok(one.clone()),
        [] => Err(Decline::of(
            Cause::NoElement,
            "the page shows no loading indicator (an element with the role progressbar or \
             aria-busy, or whose class or id is loading, loader, spinner or progress)",
        )),
        _ => Err(Decline::new(format!(
            "the page has several loading indicators ({}): name the element in quotes",
            found.join(", ")
        ))),
    }
}

/// `the loading bar appears` (`shown`) or `is gone`: a web-first check, which waits up to the
/// step's timeout for the indicator to come or go.
pub(super) fn check(snap: &Snapshot, shown: bool) -> Result<Vec<String>, Decline> {
    let locator = indicator(snap)?;
    let matcher = if shown { "toBeVisible" } else { "toBeHidden" };
    Ok(vec![format!("await expect({locator}).{matcher}();")])
}

/// `"Hello World!" appears after loading`: the text comes, and the indicator is gone.
pub(super) fn after_loading(snap: &Snapshot, text: &Literal) -> Result<Vec<String>, Decline> {
    let locator = indicator(snap)?;
    let mut lines = check_code::page_shows(snap, text, CheckOptions::default())?;
    lines.push(format!("await expect({locator}).toBeHidden();"));
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_indicator_is_the_pages_own_or_none() {
        let by_id = Snapshot::read(
            "- text: Loading...\n",
            r##"[{"role":"generic","tag":"div","words":[],"locator":"page.locator('#loading')","text":"Loading...","visible":false,"indicator":"loading"}]"##,
        );
        assert_eq!(indicator(&by_id).as_deref(), Ok("page.locator('#loading')"));
        let none = Snapshot::read("- button \"Start\"\n", "[]");
        assert_eq!(indicator(&none).unwrap_err().1, Cause::NoElement);
        let two = Snapshot::read("- progressbar\n- progressbar\n", "[]");
        assert!(indicator(&two).is_err());
        let both = Snapshot::read(
            "- progressbar\n",
            r##"[{"role":"generic","tag":"div","words":[],"locator":"page.locator('div.spinner')","text":"","visible":true,"indicator":"spinner"}]"##,
        );
        assert!(
            indicator(&both).is_err(),
            "two elements: which one is meant"
        );
        // Two spinners the page gives no locator of their own, beside one `#loading`: the
        // `#loading` alone would pass while both spinners still spin.
        let unnamed = Snapshot::read(
            "- text: Loading...\n",
            r##"[{"role":"generic","tag":"div","words":[],"locator":"page.locator('#loading')","text":"Loading...","visible":true,"indicator":"loading"},{"role":"generic","tag":"div","words":[],"locator":null,"text":"","visible":true,"indicator":"spinner"},{"role":"generic","tag":"div","words":[],"locator":null,"text":"","visible":true,"indicator":"spinner"}]"##,
        );
        let why = indicator(&unnamed).unwrap_err().0;
        assert!(why.contains("2 with no locator of its own"), "{why}");
    }
}
