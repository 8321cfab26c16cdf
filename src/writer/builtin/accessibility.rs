//! The accessibility sentences: `the page has no accessibility violations`, `… no serious
//! accessibility violations` (an impact floor), `the form has no accessibility violations`,
//! `the "Sign up" dialog has no accessibility violations` (the check scoped to an element). Also
//! where a sentence's [`Region`] (the page, a landmark by its noun, or an element) is read,
//! which the visual sentences (`visual.rs`) share. This file only reads: the code is written by
//! `accessibility_code.rs`.
//!
//! Main functions: [`shape`] and [`region`].

use crate::writer::builtin::intent::{Decline, Intent, Region};
use crate::writer::builtin::phrases::target;
use crate::writer::builtin::tokens::{Tok, skip};

/// axe-core's impact levels, as a sentence names its floor.
pub(crate) const IMPACTS: [&str; 4] = ["minor", "moderate", "serious", "critical"];

/// The nouns of the page's landmarks, each with the CSS of its element (the HTML element or
/// its ARIA role).
const LANDMARKS: &[(&str, &str)] = &[
    ("form", "form"),
    ("header", "header, [role=\"banner\"]"),
    ("banner", "header, [role=\"banner\"]"),
    ("footer", "footer, [role=\"contentinfo\"]"),
    ("navigation", "nav, [role=\"navigation\"]"),
    ("nav", "nav, [role=\"navigation\"]"),
    ("menu", "nav, [role=\"navigation\"]"),
    ("main", "main, [role=\"main\"]"),
    ("sidebar", "aside, [role=\"complementary\"]"),
];

/// The nouns that name what axe reports.
pub(crate) const PROBLEMS: [&str; 4] = ["violations", "violation", "issues", "errors"];

/// `<region> has no [impact] accessibility violations`; `None` when the sentence is not one.
pub(super) fn shape(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let at = t
        .iter()
        .position(|w| w.is("has") || w.is("have"))
        .filter(|&at| at > 0)?;
    let rest = &t[at + 1..];
    let (impact, tail) = match rest {
        [no, level, tail @ ..] if no.is("no") && IMPACTS.iter().any(|i| level.is(i)) => {
            (IMPACTS.iter().copied().find(|i| level.is(i)), tail)
        }
        [no, tail @ ..] if no.is("no") => (None, tail),
        _ => return None,
    };
    let [a11y, problems] = tail else {
        return None;
    };
    if !(a11y.is("accessibility") || a11y.is("a11y")) || !PROBLEMS.iter().any(|p| problems.is(p)) {
        return None;
    }
    Some(region(&t[..at]).map(|scope| Intent::Accessible { scope, impact }))
}

/// The page, a landmark by its noun, or an element as the sentence names it.
pub(super) fn region(t: &[Tok]) -> Result<Region, Decline> {
    let words = skip(skip(t, &["the"]), &["whole", "entire"]);
    if let [w] = words
        && (w.is("page") || w.is("screen"))
    {
        return Ok(Region::Page);
    }
    if let [w] = words
        && let Some((_, css)) = LANDMARKS.iter().find(|(noun, _)| w.is(noun))
    {
        return Ok(Region::Landmark(css));
    }
    target(t).map(Region::Element)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::tokens::{normalize, tokenize};

    fn read(sentence: &str) -> Option<Result<Intent, Decline>> {
        shape(&normalize(tokenize(sentence, &[])))
    }

    #[test]
    fn other_sentences_are_not_this_shape() {
        for sentence in [
            "the page has no errors",
            "the list has no items",
            "has no accessibility violations",
            "the page has no accessibility violations yet",
        ] {
            assert!(read(sentence).is_none(), "{sentence}");
        }
    }
}
