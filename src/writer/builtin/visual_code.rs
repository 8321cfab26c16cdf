//! The code of the visual checks (read by `visual.rs`): `toHaveScreenshot` of the page or a
//! region, masking the regions the sentence ignores. Its first run writes the baseline.
//!
//! Main function: [`lines`].

use crate::writer::builtin::accessibility_code::region_locator;
use crate::writer::builtin::intent::{Decline, Intent};
use crate::writer::builtin::snapshot::Snapshot;

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
    use crate::writer::builtin::visual::shape;

    fn code(sentence: &str) -> Result<String, Decline> {
        let snap = Snapshot::parse(
            "- banner:\n  - heading \"Acme\" [level=1]\n- main:\n  - paragraph: \"12:04\"\n  - status \"Clock\"\n",
        );
        let intent = shape(&normalize(tokenize(sentence, &[]))).expect("a shape")?;
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
    fn a_mask_of_the_whole_page_is_declined() {
        assert!(code("the header looks as before, ignoring the page").is_err());
    }
}
