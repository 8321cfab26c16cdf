//! The code of a placement check (`placement.rs`): both elements are shown, and their boxes
//! stand as the sentence says. Playwright Test has no matcher for where an element is drawn,
//! so the boxes are read and compared with plain number matchers, after web-first checks that
//! both are visible (a box is only read from an element that is drawn). An element beside
//! another (`to the right of`, `on the left side of`) shares some of its height, and one above
//! or below another some of its width, because that is what a reader of the sentence sees:
//! a button far down the page is not "to the right of" a field at its top.
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
    let mut lines = vec![
        format!("const subject = {subject};"),
        format!("const reference = {reference};"),
        "await expect(subject).toBeVisible();".to_owned(),
        "await expect(reference).toBeVisible();".to_owned(),
    ];
    lines.extend(comparison(relation));
    Ok(lines)
}

/// How a relation compares two boxes: the edge or centre of the element's box (`box`) that is
/// compared with one of the other's (`of`), the matcher, the rule in words for the failure,
/// and the axis along which the boxes must overlap.
struct Rule {
    measure: &'static str,
    matcher: &'static str,
    bound: &'static str,
    says: &'static str,
    across: Axis,
}

/// The axis across the relation's own: an element to the right of another is beside it only
/// when their boxes share some height, so an element far below and right of it is not.
#[derive(Clone, Copy)]
enum Axis {
    Vertical,
    Horizontal,
}

fn rule(relation: Relation) -> Rule {
    let rule = |measure, matcher, bound, says, across| Rule {
        measure,
        matcher,
        bound,
        says,
        across,
    };
    match relation {
        Relation::RightSide => rule(
            "box.x + box.width / 2",
            "toBeGreaterThan",
            "of.x + of.width / 2",
            "its centre is right of the other's centre",
            Axis::Vertical,
        ),
        Relation::LeftSide => rule(
            "box.x + box.width / 2",
            "toBeLessThan",
            "of.x + of.width / 2",
            "its centre is left of the other's centre",
            Axis::Vertical,
        ),
        Relation::RightOf => rule(
            "box.x",
            "toBeGreaterThanOrEqual",
            "of.x + of.width",
            "it starts where the other ends or further right",
            Axis::Vertical,
        ),
        Relation::LeftOf => rule(
            "box.x + box.width",
            "toBeLessThanOrEqual",
            "of.x",
            "it ends where the other starts or further left",
            Axis::Vertical,
        ),
        Relation::Above => rule(
            "box.y + box.height",
            "toBeLessThanOrEqual",
            "of.y",
            "it ends where the other starts or higher",
            Axis::Horizontal,
        ),
        Relation::Below => rule(
            "box.y",
            "toBeGreaterThanOrEqual",
            "of.y + of.height",
            "it starts where the other ends or lower",
            Axis::Horizontal,
        ),
    }
}

/// The comparison of both boxes, retried until it holds or the step's timeout passes
/// (`toPass`), since an element still moving into place (a CSS transition) is drawn where it
/// ends only a moment after it is visible. Each failure says what was measured.
fn comparison(relation: Relation) -> Vec<String> {
    let rule = rule(relation);
    let overlap = match rule.across {
        Axis::Vertical => (
            "Math.min(box.y + box.height, of.y + of.height) - Math.max(box.y, of.y)",
            "they share some height",
        ),
        Axis::Horizontal => (
            "Math.min(box.x + box.width, of.x + of.width) - Math.max(box.x, of.x)",
            "they share some width",
        ),
    };
    [
        "await expect(async () => {",
        "  const box = await subject.boundingBox();",
        "  const of = await reference.boundingBox();",
        "  expect(box && of, 'both elements are drawn').toBeTruthy();",
        MEASURED,
    ]
    .into_iter()
    .map(str::to_owned)
    .chain([
        format!(
            "  expect({}, `{} (${{measured}})`).{}({});",
            rule.measure, rule.says, rule.matcher, rule.bound
        ),
        format!(
            "  expect({}, `{} (${{measured}})`).toBeGreaterThan(0);",
            overlap.0, overlap.1
        ),
        "}).toPass();".to_owned(),
    ])
    .collect()
}

/// The boxes as the failure of a placement states them.
const MEASURED: &str = "  const measured = `measured: the element at x ${box.x} to ${box.x + box.width}, y ${box.y} to ${box.y + box.height}; the other at x ${of.x} to ${of.x + of.width}, y ${of.y} to ${of.y + of.height}`;";

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
        assert!(
            lines.iter().any(|line| line.starts_with(
                "  expect(box.x + box.width / 2, `its centre is right of the other's centre"
            ) && line.ends_with(".toBeGreaterThan(of.x + of.width / 2);")),
            "{lines:?}"
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

    /// Each relation compares the boxes' edges or centres as its words say, and asks that the
    /// boxes overlap across that direction; the comparison is retried (`toPass`) and its
    /// failure says what it measured.
    #[test]
    fn each_relation_compares_the_boxes_as_it_says_and_overlaps_across_it() {
        const FORM: &str = "- textbox \"Name\"\n- button \"Save\"\n";
        const SHARE_HEIGHT: &str = "  expect(Math.min(box.y + box.height, of.y + of.height) - Math.max(box.y, of.y), `they share some height (${measured})`).toBeGreaterThan(0);";
        const SHARE_WIDTH: &str = "  expect(Math.min(box.x + box.width, of.x + of.width) - Math.max(box.x, of.x), `they share some width (${measured})`).toBeGreaterThan(0);";
        for (relation, expected, across) in [
            (
                "to the right of",
                "  expect(box.x, `it starts where the other ends or further right (${measured})`).toBeGreaterThanOrEqual(of.x + of.width);",
                SHARE_HEIGHT,
            ),
            (
                "to the left of",
                "  expect(box.x + box.width, `it ends where the other starts or further left (${measured})`).toBeLessThanOrEqual(of.x);",
                SHARE_HEIGHT,
            ),
            (
                "above",
                "  expect(box.y + box.height, `it ends where the other starts or higher (${measured})`).toBeLessThanOrEqual(of.y);",
                SHARE_WIDTH,
            ),
            (
                "below",
                "  expect(box.y, `it starts where the other ends or lower (${measured})`).toBeGreaterThanOrEqual(of.y + of.height);",
                SHARE_WIDTH,
            ),
            (
                "on the left side of",
                "  expect(box.x + box.width / 2, `its centre is left of the other's centre (${measured})`).toBeLessThan(of.x + of.width / 2);",
                SHARE_HEIGHT,
            ),
        ] {
            let sentence = format!(r#"the "Save" button is {relation} the "Name" field"#);
            let lines = written(&sentence, FORM).unwrap();
            assert_eq!(
                lines[0],
                "const subject = page.getByRole('button', { name: 'Save', exact: true });"
            );
            assert_eq!(lines[4], "await expect(async () => {", "{sentence}");
            assert_eq!(
                lines[7],
                "  expect(box && of, 'both elements are drawn').toBeTruthy();"
            );
            assert!(
                lines[8].starts_with("  const measured = `measured: "),
                "{lines:?}"
            );
            assert_eq!(lines[9], expected, "{sentence}");
            assert_eq!(lines[10], across, "{sentence}");
            assert_eq!(lines[11], "}).toPass();", "{sentence}");
            assert_eq!(lines.len(), 12, "{lines:?}");
        }
    }
}
