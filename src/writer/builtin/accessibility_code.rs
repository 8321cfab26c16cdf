//! The code of the accessibility checks (read by `accessibility.rs`): axe-core's
//! `toHaveNoAccessibilityViolations` on the page or on a region, with the impact floor the
//! sentence names. Also the locator of a sentence's [`Region`], which the visual checks'
//! code (`visual_code.rs`) shares.
//!
//! Main functions: [`lines`] and [`region_locator`].

use crate::writer::builtin::intent::{Decline, Intent, Region};
use crate::writer::builtin::locator::js_str;
use crate::writer::builtin::resolve::checked_element;
use crate::writer::builtin::snapshot::Snapshot;

/// A locator of `region` on the page, or `None` for the page itself.
pub(super) fn region_locator(snap: &Snapshot, region: &Region) -> Result<Option<String>, Decline> {
    match region {
        Region::Page => Ok(None),
        Region::Landmark(css) => Ok(Some(format!("page.locator({})", js_str(css)))),
        Region::Element(target) => checked_element(snap, target, &[]).map(|f| Some(f.locator)),
    }
}

/// The code of an accessibility intent.
pub(super) fn lines(snap: &Snapshot, intent: &Intent) -> Result<Vec<String>, Decline> {
    let Intent::Accessible { scope, impact } = intent else {
        return Err(Decline::new("the sentence is no accessibility check"));
    };
    let subject = region_locator(snap, scope)?.unwrap_or_else(|| "page".to_owned());
    let options = impact.map_or_else(String::new, |i| format!("{{ impact: {} }}", js_str(i)));
    Ok(vec![format!(
        "await expect({subject}).toHaveNoAccessibilityViolations({options});"
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::accessibility::shape;
    use crate::writer::builtin::tokens::{normalize, tokenize};

    fn code(sentence: &str) -> String {
        let snap =
            Snapshot::parse("- main:\n  - heading \"Sign up\" [level=1]\n  - dialog \"Terms\"\n");
        let intent = shape(&normalize(tokenize(sentence, &[])))
            .expect("a shape")
            .expect("read");
        lines(&snap, &intent).expect("code").join("\n")
    }

    #[test]
    fn the_page_a_landmark_or_an_element_with_an_impact_floor() {
        assert_eq!(
            code("the page has no accessibility violations"),
            "await expect(page).toHaveNoAccessibilityViolations();"
        );
        assert_eq!(
            code("The whole page has no serious accessibility issues"),
            "await expect(page).toHaveNoAccessibilityViolations({ impact: 'serious' });"
        );
        assert_eq!(
            code("the form has no accessibility violations"),
            "await expect(page.locator('form')).toHaveNoAccessibilityViolations();"
        );
        assert_eq!(
            code("the \"Terms\" dialog has no critical accessibility violations"),
            "await expect(page.getByRole('dialog', { name: 'Terms', exact: true })).toHaveNoAccessibilityViolations({ impact: 'critical' });"
        );
    }
}
