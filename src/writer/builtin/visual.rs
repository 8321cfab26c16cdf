//! The visual sentences: `the page looks as before`, `the page looks the same`, `the header
//! looks as before` (a landmark or an element by its name), with the dynamic regions the
//! screenshot masks named after `ignoring` (`the page looks as before, ignoring the clock and
//! the ads`). Each writes `toHaveScreenshot`, whose first run writes the baseline.
//!
//! Main functions: [`shape`] (the reading) and [`lines`] (the code).

use crate::writer::builtin::accessibility::{region, region_locator};
use crate::writer::builtin::intent::{Decline, Intent};
use crate::writer::builtin::snapshot::Snapshot;
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

/// The code of a visual intent.
pub(super) fn lines(snap: &Snapshot, intent: &Intent) -> Result<Vec<String>, Decline> {
    let Intent::LooksAsBefore { subject, masks } = intent else {
        return Err(Decline::new("the sentence is no visual check"));
    };
    let shot = region_locator(snap, subject)?.unwrap_or_else(|| "page".to_owned());
    let mut masked = Vec::new();
    for mask in masks {
        // A mask of the whole page would hide everything the comparison looks at.
        let Some(locator) = region_locator(snap, mask)? else {
            return Err(Decline::new(
                "a screenshot that ignores the whole page compares nothing",
            ));
        };
        masked.push(locator);
    }
    let options = if masked.is_empty() {
        String::new()
    } else {
        format!("{{ mask: [{}] }}", masked.join(", "))
    };
    Ok(vec![format!(
        "await expect({shot}).toHaveScreenshot({options});"
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::tokens::{normalize, tokenize};

    fn read(sentence: &str) -> Option<Result<Intent, Decline>> {
        shape(&normalize(tokenize(sentence, &[])))
    }

    fn code(sentence: &str) -> Result<String, Decline> {
        let snap = Snapshot::parse(
            "- banner:\n  - heading \"Acme\" [level=1]\n- main:\n  - paragraph: \"12:04\"\n  - status \"Clock\"\n",
        );
        let intent = read(sentence).expect("a shape")?;
        lines(&snap, &intent).map(|lines| lines.join("\n"))
    }

    #[test]
    fn the_page_or_a_region_with_the_masks_it_names() {
        assert_eq!(
            code("the page looks as before").unwrap(),
            "await expect(page).toHaveScreenshot();"
        );
        assert_eq!(
            code("the page looks the same").unwrap(),
            "await expect(page).toHaveScreenshot();"
        );
        assert_eq!(
            code("the header looks as before").unwrap(),
            "await expect(page.locator('header, [role=\"banner\"]')).toHaveScreenshot();"
        );
        assert_eq!(
            code("the page looks the same as before, ignoring the \"Clock\" status and the footer")
                .unwrap(),
            "await expect(page).toHaveScreenshot({ mask: [page.getByRole('status', { name: 'Clock', exact: true }), page.locator('footer, [role=\"contentinfo\"]')] });"
        );
    }

    #[test]
    fn a_mask_of_the_whole_page_or_another_ending_is_declined_or_not_read() {
        assert!(code("the header looks as before, ignoring the page").is_err());
        for sentence in ["the page looks good", "looks as before", "the page looks"] {
            assert!(read(sentence).is_none(), "{sentence}");
        }
    }
}
