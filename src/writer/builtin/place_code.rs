//! The code of a placement check (`placement.rs`): both elements are shown, and their boxes
//! stand as the sentence says. Playwright Test has no matcher for where an element is drawn,
//! so the boxes are read and compared with plain number matchers, after web-first checks that
//! both are visible (a box is only read from an element that is drawn).
//!
//! Main function: [`placed`].

use crate::writer::builtin::check_code::ANY;
use crate::writer::builtin::intent::{Decline, Relation, Target};
use crate::writer::builtin::kinds::Kind;
use crate::writer::builtin::locator::{norm, own_text};
use crate::writer::builtin::resolve::{checked_element, delete_sign_button};
use crate::writer::builtin::rows::row_holding;
use crate::writer::builtin::snapshot::Snapshot;

/// `subject` is drawn as `relation` says against `of`.
pub(super) fn placed(
    snap: &Snapshot,
    subject: &Target,
    relation: Relation,
    of: &Target,
) -> Result<Vec<String>, Decline> {
    let side = matches!(relation, Relation::RightSide | Relation::LeftSide);
    let item = match (&of.name, of.quoted, of.kind) {
        (Some(text), true, None | Some(Kind::Item)) if side => item_row(snap, text),
        _ => None,
    };
    let (subject, reference) = match item {
        // `a delete button appears on the right side of "buy milk"`: a side of the item that
        // shows the text, and the element is the one in that item.
        Some(row) => (in_item(snap, subject, of.name.as_deref())?, row),
        None => (
            checked_element(snap, subject, ANY)?.locator,
            checked_element(snap, of, ANY)?.locator,
        ),
    };
    let comparison = match relation {
        Relation::RightSide => {
            "expect(box.x + box.width / 2).toBeGreaterThan(of.x + of.width / 2);"
        }
        Relation::LeftSide => "expect(box.x + box.width / 2).toBeLessThan(of.x + of.width / 2);",
        Relation::RightOf => "expect(box.x).toBeGreaterThanOrEqual(of.x + of.width);",
        Relation::LeftOf => "expect(box.x + box.width).toBeLessThanOrEqual(of.x);",
        Relation::Above => "expect(box.y + box.height).toBeLessThanOrEqual(of.y);",
        Relation::Below => "expect(box.y).toBeGreaterThanOrEqual(of.y + of.height);",
    };
    Ok(vec![
        format!("const subject = {subject};"),
        format!("const reference = {reference};"),
        "await expect(subject).toBeVisible();".to_owned(),
        "await expect(reference).toBeVisible();".to_owned(),
        "const box = await subject.boundingBox();".to_owned(),
        "const of = await reference.boundingBox();".to_owned(),
        comparison.to_owned(),
    ])
}

/// The element `subject` names inside the item holding `text`. A delete button that no button
/// of the item is named after the sentence's word is found by its sign (`×`).
fn in_item(snap: &Snapshot, subject: &Target, text: Option<&str>) -> Result<String, Decline> {
    let scoped = Target {
        scope: subject.scope.clone().or(text.map(str::to_owned)),
        ..subject.clone()
    };
    let decline = match checked_element(snap, &scoped, ANY) {
        Ok(found) => return Ok(found.locator),
        Err(decline) => decline,
    };
    delete_sign_button(snap, &scoped)
        .map(|found| found.locator)
        .ok_or(decline)
}

/// The roles of controls: a text of one of them is the control's name, not an item's text.
const CONTROLS: &[&str] = &[
    "button",
    "link",
    "checkbox",
    "radio",
    "switch",
    "tab",
    "menuitem",
    "option",
    "textbox",
    "searchbox",
    "combobox",
    "spinbutton",
    "slider",
];

/// The locator of the one list item or row whose own text (a label, a cell) is `text`: a side
/// of it is a side of the item. A control's name is no item's text, so `on the right side of
/// "Edit"` places against the Edit button, not the row it is in.
fn item_row(snap: &Snapshot, text: &str) -> Option<String> {
    let (row, node) = row_holding(snap, text).ok()?;
    let wanted = norm(text);
    let a_control = snap.descendants(node).into_iter().any(|d| {
        CONTROLS.contains(&snap.nodes[d].role.as_str())
            && own_text(&snap.nodes[d]).is_some_and(|t| norm(t) == wanted)
    });
    (!a_control).then_some(row)
}

#[cfg(test)]
mod tests {
    use crate::writer::builtin::shapes::write;
    use crate::writer::builtin::snapshot::Snapshot;

    fn written(sentence: &str, page: &str) -> Result<Vec<String>, String> {
        write(sentence, &[], &Snapshot::parse(page))
            .map(|w| w.lines)
            .map_err(|d| d.0)
    }

    /// The item's delete button named `×` is the delete button the sentence places, and the
    /// item is what it is placed against.
    #[test]
    fn a_delete_button_in_an_item_is_found_by_the_names_delete_buttons_go_by() {
        const HOVERED: &str = "- list:\n  - listitem:\n    - checkbox\n    - generic: buy milk\n    - button \"×\"\n  - listitem:\n    - checkbox\n    - generic: walk the dog\n";
        let lines = written(
            r#"a delete button appears on the right side of "buy milk""#,
            HOVERED,
        )
        .unwrap();
        assert!(
            lines[0].ends_with(".getByRole('button', { name: '×', exact: true });"),
            "{lines:?}"
        );
        assert!(
            lines[0].contains("page.getByText('buy milk', { exact: true })"),
            "{lines:?}"
        );
        assert_eq!(
            lines.last().unwrap(),
            "expect(box.x + box.width / 2).toBeGreaterThan(of.x + of.width / 2);"
        );
        // The other item shows no delete button: nothing is placed, so the step declines.
        assert!(
            written(
                r#"a delete button appears on the right side of "walk the dog""#,
                HOVERED
            )
            .is_err()
        );
    }

    /// A quoted name of a control in a row is that control, not the row: the button is placed
    /// against the Edit button itself.
    #[test]
    fn a_control_named_in_quotes_is_the_control_not_its_row() {
        const ROW: &str = "- list:\n  - listitem:\n    - generic: buy milk\n    - button \"Delete\"\n    - button \"Edit\"\n";
        let lines = written(r#"the "Delete" button is on the right side of "Edit""#, ROW).unwrap();
        assert_eq!(
            lines[1],
            "const reference = page.getByRole('button', { name: 'Edit', exact: true });"
        );
    }

    /// Each relation compares the boxes' edges or centres as its words say.
    #[test]
    fn each_relation_compares_the_boxes_as_it_says() {
        const FORM: &str = "- textbox \"Name\"\n- button \"Save\"\n";
        for (relation, expected) in [
            (
                "to the right of",
                "expect(box.x).toBeGreaterThanOrEqual(of.x + of.width);",
            ),
            (
                "to the left of",
                "expect(box.x + box.width).toBeLessThanOrEqual(of.x);",
            ),
            (
                "above",
                "expect(box.y + box.height).toBeLessThanOrEqual(of.y);",
            ),
            (
                "below",
                "expect(box.y).toBeGreaterThanOrEqual(of.y + of.height);",
            ),
            (
                "on the left side of",
                "expect(box.x + box.width / 2).toBeLessThan(of.x + of.width / 2);",
            ),
        ] {
            let sentence = format!(r#"the "Save" button is {relation} the "Name" field"#);
            let lines = written(&sentence, FORM).unwrap();
            assert_eq!(lines.last().unwrap(), expected, "{sentence}");
            assert_eq!(
                lines[0],
                "const subject = page.getByRole('button', { name: 'Save', exact: true });"
            );
        }
    }
}
