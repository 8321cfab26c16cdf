//! Elements a page leaves without an accessible name, found by what a person sees of them: a
//! checkbox or radio button named by the text beside it (`<input type="checkbox"> checkbox 1`),
//! the number field (the one `<input type="number">`), the page's main heading (its one heading
//! of the highest level), the value a label such as "Result:" stands over, and the one area with
//! a context menu of its own (`right-click the box`). Resolution
//! (`resolve.rs`) turns to them only when no element has the name the sentence gives.
//!
//! Main functions: [`beside_text`], [`by_what_it_is`], [`labelled_value`] and
//! [`context_menu_area`].

use crate::writer::builtin::intent::Target;
use crate::writer::builtin::kinds::Kind;
use crate::writer::builtin::locator::{Found, js_str, norm, xpath_literal};
use crate::writer::builtin::snapshot::Snapshot;

/// The words that name a page's main heading: `the main heading`, `the page heading`.
const MAIN_HEADING: &[&str] = &["main", "page", "top", "primary"];

/// The words that name a field by its type: `the number field`.
const NUMBER_FIELD: &[&str] = &["number", "numeric"];

/// The element of `roles` (checkable ones: the caller's to say) with no name of its own that
/// the text `target` names stands right after: `check checkbox 1` on `<input type="checkbox">
/// checkbox 1`. The locator finds it by that text, as the page shows it, so it cannot find a
/// box beside another text.
pub(crate) fn beside_text(snap: &Snapshot, target: &Target, roles: &[&str]) -> Option<Found> {
    let name = target.name.as_deref()?;
    if target.scope.is_some()
        || target.nth.is_some()
        || roles.is_empty()
        || !matches!(target.kind, None | Some(Kind::Checkbox) | Some(Kind::Radio))
    {
        return None;
    }
    let found: Vec<(usize, String)> = (0..snap.nodes.len())
        .filter(|&i| roles.contains(&snap.nodes[i].role.as_str()) && snap.nodes[i].name.is_none())
        .filter_map(|i| {
            let parent = snap.nodes[i].parent?;
            let siblings = &snap.nodes[parent].children;
            let next = siblings.get(siblings.iter().position(|&s| s == i)? + 1)?;
            let text = snap.text_of(*next);
            (norm(&text) == norm(name)).then_some((i, text))
        })
        .collect();
    let [(node, text)] = found.as_slice() else {
        return None;
    };
    snap.notice(*node);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let beside = format!(
        "//*[following-sibling::node()[normalize-space()][1][normalize-space()={}]]",
        xpath_literal(&text)
    );
    Some(Found {
        locator: format!(
            "page.getByRole({}).and(page.locator({}))",
            js_str(&snap.nodes[*node].role),
            js_str(&format!("xpath={beside}"))
        ),
        node: *node,
    })
}

/// An element named by what it is rather than by a name: `the number field` (the page's one
/// number input) and `the main heading` / `the page heading` (the page's one heading of the
/// highest level it has). `None` when the words say something else, or the page has none or
/// several such.
pub(crate) fn by_what_it_is(snap: &Snapshot, target: &Target) -> Option<Found> {
    let name = norm(target.name.as_deref()?);
    if target.quoted || target.scope.is_some() || target.nth.is_some() {
        return None;
    }
    match target.kind {
        Some(Kind::Field) if NUMBER_FIELD.contains(&name.as_str()) => {
            let [one] = snap.with_roles(&["spinbutton"])[..] else {
                return None;
            };
            snap.notice(one);
            let locator = match snap.nodes[one].name.as_deref() {
                Some(name) => format!(
                    "page.getByRole('spinbutton', {{ name: {}, exact: true }})",
                    js_str(name)
                ),
                None => "page.getByRole('spinbutton')".to_owned(),
            };
            Some(Found { locator, node: one })
        }
        Some(Kind::Heading) if MAIN_HEADING.contains(&name.as_str()) => {
            let headings: Vec<(usize, u32)> = snap
                .with_roles(&["heading"])
                .into_iter()
                .filter_map(|i| Some((i, level(snap, i)?)))
                .collect();
            let top = headings.iter().map(|&(_, level)| level).min()?;
            let [(one, _)] = headings
                .iter()
                .filter(|&&(_, level)| level == top)
                .copied()
                .collect::<Vec<_>>()[..]
            else {
                return None;
            };
            snap.notice(one);
            Some(Found {
                locator: format!("page.getByRole('heading', {{ level: {top} }})"),
                node: one,
            })
        }
        _ => None,
    }
}

/// The nouns that may name an element by its shape alone (`right-click the box`).
const AREA_NOUNS: &[&str] = &[
    "box",
    "area",
    "region",
    "spot",
    "zone",
    "square",
    "rectangle",
];

/// `right-click the box`: the page's one visible element with a context-menu handler of its
/// own, when the sentence names no element but by such a noun.
pub(crate) fn context_menu_area(snap: &Snapshot, target: &Target) -> Option<Found> {
    let noun = target.phrase.split_whitespace().last()?.to_lowercase();
    if target.name.is_some() || target.nth.is_some() || !AREA_NOUNS.contains(&noun.as_str()) {
        return None;
    }
    let areas: Vec<&String> = snap
        .structure
        .hints
        .iter()
        .filter(|h| h.contextmenu && h.visible)
        .filter_map(|h| h.locator.as_ref())
        .collect();
    let [one] = areas.as_slice() else {
        return None;
    };
    Some(Found {
        locator: (*one).clone(),
        node: usize::MAX,
    })
}

/// A heading's level, from its `[level=N]` attribute.
fn level(snap: &Snapshot, node: usize) -> Option<u32> {
    snap.nodes[node]
        .attrs
        .iter()
        .find_map(|attr| attr.strip_prefix("level=")?.parse().ok())
}

/// `the result says "T"` where the page shows a label "Result:" (a heading or a line of text
/// ending in a colon) over the result: the element right after the label, which holds the
/// value the label names. `None` when what was found is no such label.
pub(crate) fn labelled_value(snap: &Snapshot, found: &Found, target: &Target) -> Option<String> {
    let name = target.name.as_deref()?;
    let node = snap.nodes.get(found.node)?;
    if target.quoted || !matches!(node.role.as_str(), "heading" | "paragraph" | "text") {
        return None;
    }
    let shown = node.name.as_deref().or(node.text.as_deref())?;
    let label = shown.trim().strip_suffix(':')?;
    (norm(label) == norm(name)).then(|| {
        format!(
            "{}.locator({})",
            found.locator,
            js_str("xpath=following-sibling::*[1]")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::phrases::target;
    use crate::writer::builtin::tokens::{normalize, tokenize};

    const CHECKABLE: &[&str] = &["checkbox", "radio"];

    fn target_of(phrase: &str) -> Target {
        target(&normalize(tokenize(phrase, &[]))).unwrap()
    }

    const BOXES: &str = "- heading \"Checkboxes\" [level=3]\n- generic:\n  - checkbox\n  - text: checkbox 1\n  - checkbox [checked]\n  - text: checkbox 2\n";

    #[test]
    fn a_checkbox_is_named_by_the_text_after_it() {
        let snap = Snapshot::parse(BOXES);
        let found = beside_text(&snap, &target_of("checkbox 2"), CHECKABLE).unwrap();
        assert_eq!(
            found.locator,
            "page.getByRole('checkbox').and(page.locator('xpath=//*[following-sibling::node()[normalize-space()][1][normalize-space()=\"checkbox 2\"]]'))"
        );
        assert_eq!(snap.nodes[found.node].role, "checkbox");
        assert!(beside_text(&snap, &target_of("checkbox 3"), CHECKABLE).is_none());
        // A box with a name of its own is named by it, not by the text after it.
        let named = Snapshot::parse("- checkbox \"Agree\"\n- text: checkbox 1\n");
        assert!(beside_text(&named, &target_of("checkbox 1"), CHECKABLE).is_none());
    }

    #[test]
    fn the_number_field_is_the_one_number_input() {
        let snap = Snapshot::parse("- paragraph: Number\n- spinbutton\n- textbox \"Name\"\n");
        let found = by_what_it_is(&snap, &target_of("the number field")).unwrap();
        assert_eq!(found.locator, "page.getByRole('spinbutton')");
        let two = Snapshot::parse("- spinbutton \"Age\"\n- spinbutton \"Height\"\n");
        assert!(by_what_it_is(&two, &target_of("the number field")).is_none());
        assert!(by_what_it_is(&snap, &target_of("the name field")).is_none());
    }

    #[test]
    fn the_main_heading_is_the_one_of_the_highest_level() {
        let home = Snapshot::parse(
            "- heading \"Welcome\" [level=1]\n- heading \"Examples\" [level=2]\n- heading \"More\" [level=2]\n",
        );
        for phrase in ["the main heading", "the page heading"] {
            let found = by_what_it_is(&home, &target_of(phrase)).unwrap();
            assert_eq!(found.locator, "page.getByRole('heading', { level: 1 })");
        }
        let page = Snapshot::parse("- heading \"Checkboxes\" [level=3]\n");
        let found = by_what_it_is(&page, &target_of("the page heading")).unwrap();
        assert_eq!(found.locator, "page.getByRole('heading', { level: 3 })");
        // Two headings of the highest level: neither is the main one.
        let two = Snapshot::parse("- heading \"A\" [level=2]\n- heading \"B\" [level=2]\n");
        assert!(by_what_it_is(&two, &target_of("the main heading")).is_none());
    }

    #[test]
    fn the_box_of_a_right_click_is_the_one_area_with_a_context_menu() {
        let structure = r##"[{"role":"generic","tag":"div","words":["hot","spot"],"locator":"page.locator('#hot-spot')","text":"","visible":true,"contextmenu":true},{"role":"generic","tag":"div","words":["box"],"locator":"page.locator('div.box')","text":"","visible":true}]"##;
        let snap = Snapshot::read("- heading \"Context Menu\" [level=3]\n", structure);
        let found = context_menu_area(&snap, &target_of("the box")).unwrap();
        assert_eq!(found.locator, "page.locator('#hot-spot')");
        assert!(context_menu_area(&snap, &target_of("the \"Save\" button")).is_none());
        let none = Snapshot::read("- heading \"Context Menu\" [level=3]\n", "[]");
        assert!(context_menu_area(&none, &target_of("the box")).is_none());
    }

    #[test]
    fn a_label_with_a_colon_stands_for_the_element_after_it() {
        let snap = Snapshot::parse("- heading \"Result:\" [level=4]\n- paragraph: done\n");
        let found = Found {
            locator: "page.getByRole('heading', { name: 'Result:' })".to_owned(),
            node: 0,
        };
        assert_eq!(
            labelled_value(&snap, &found, &target_of("the result")).as_deref(),
            Some(
                "page.getByRole('heading', { name: 'Result:' }).locator('xpath=following-sibling::*[1]')"
            )
        );
        // A heading without the colon is the element itself; so is a quoted name.
        let plain = Snapshot::parse("- heading \"Result\" [level=4]\n");
        assert!(labelled_value(&plain, &found, &target_of("the result")).is_none());
        assert!(labelled_value(&snap, &found, &target_of("the \"Result:\" heading")).is_none());
    }
}
