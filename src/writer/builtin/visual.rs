//! The visual sentences: `the page looks as before`, `the page looks the same`, `the header
//! looks as before` (a landmark or an element by its name), with the dynamic regions the
//! screenshot masks named after `ignoring` (`the page looks as before, ignoring the clock and
//! the ads`). This file only reads: `visual_code.rs` writes the check.
//!
//! Main function: [`shape`].

use crate::writer::builtin::accessibility::region;
use crate::writer::builtin::intent::{Decline, Intent};
use crate::writer::builtin::tokens::{Tok, find};

/// The endings that say a region looks as it did: `looks as before`, `looks the same`,
/// `looks the same as before`, `looks unchanged`.
pub(crate) const ENDINGS: &[&[&str]] = &[
    &["as", "before"],
    &["the", "same"],
    &["the", "same", "as", "before"],
    &["unchanged"],
];

/// `<region> looks as before[, ignoring <region> [and <region>]...]`; `None` when the sentence
/// is not one.
pub(super) fn shape(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let (main, ignoring) = match find(t, &["ignoring"]) {
        Some(at) => (&t[..at], Some(&t[at + 1..])),
        None => (t, None),
    };
    let at = main
        .iter()
        .position(|w| w.is("looks") || w.is("look"))
        .filter(|&at| at > 0)?;
    let ending = &main[at + 1..];
    let ends = ENDINGS.iter().any(|words| {
        words.len() == ending.len() && words.iter().zip(ending).all(|(w, tok)| tok.is(w))
    });
    if !ends {
        return None;
    }
    let subject = match region(&main[..at]) {
        Ok(subject) => subject,
        Err(decline) => return Some(Err(decline)),
    };
    let mut masks = Vec::new();
    if let Some(ignoring) = ignoring {
        let parts = ignoring.split(|w| w.is("and"));
        for part in parts {
            if part.is_empty() {
                return Some(Err(Decline::new(
                    "name each region the screenshot ignores after `ignoring`",
                )));
            }
            match region(part) {
                Ok(mask) => masks.push(mask),
                Err(decline) => return Some(Err(decline)),
            }
        }
    }
    Some(Ok(Intent::LooksAsBefore { subject, masks }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::tokens::{normalize, tokenize};

    fn read(sentence: &str) -> Option<Result<Intent, Decline>> {
        shape(&normalize(tokenize(sentence, &[])))
    }

    #[test]
    fn another_ending_is_not_read() {
        for sentence in ["the page looks good", "looks as before", "the page looks"] {
            assert!(read(sentence).is_none(), "{sentence}");
        }
    }
}
