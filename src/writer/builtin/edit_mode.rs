//! Plan steps about editing a list item in place: "double-click the todo to enter edit mode",
//! "an edit textbox appears with 'x'", "change the text to 'y' and press Enter", "edit mode
//! is exited", "the todo is updated to 'y'". The item's editor is the one visible textbox
//! inside a list item, because an app that edits items in place shows that field only while
//! it edits (the other items' editors are hidden, and hidden elements have no role).
//!
//! Main functions: the readers [`to_edit`], [`in_edit_mode`], [`change_text`], [`updated`],
//! listed in the registry's `SHAPES` (`shapes.rs`), as `plan_readers.rs` makes them rows.

use crate::writer::builtin::discourse::Part;
use crate::writer::builtin::element_step::{Check, ElementStep, Op, Subject};
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::plan_steps::{Reading, Said, claim, references, sentence_of, words};
use crate::writer::builtin::tokens::{Tok, normalize};

/// The check of the editor of the item being edited.
fn editor(check: Check, not: bool) -> Part {
    Part::Step(ElementStep::claim(Subject::Editor, check, not))
}

/// An act on the editor of the item being edited.
fn on_editor(op: Op) -> Part {
    Part::Step(ElementStep::new(Subject::Editor, op))
}

/// `double-click on the todo to enter edit mode`, `double-click 'x' to edit it`: the action,
/// then the check that an item's editor has the focus, which is what the purpose says.
pub(crate) fn to_edit(said: &Said) -> Reading {
    let to = said.raw.iter().rposition(|t| t.is("to"))?;
    let purpose = words(&said.raw[to + 1..]);
    if !matches!(
        purpose.as_slice(),
        ["enter", "edit", "mode"] | ["edit"] | ["edit", "it"] | ["start", "editing"]
    ) || to == 0
    {
        return None;
    }
    let head = said.raw[..to].to_vec();
    let action = Said {
        toks: normalize(head.clone()),
        raw: head,
        discourse: said.discourse,
        state: said.state,
    };
    let action = match references(&action) {
        Some(Ok(parts)) => parts,
        Some(Err(decline)) => return Some(Err(decline)),
        None => vec![Part::Sentence(sentence_of(&action.raw))],
    };
    let mut parts = action;
    parts.push(editor(Check::Focused, false));
    Some(Ok(parts))
}

/// `the todo enters edit mode`, `an edit textbox appears with the current text 'x'`, `edit
/// textbox appears`, `the textbox is focused`, `edit mode is exited`.
pub(crate) fn in_edit_mode(said: &Said) -> Reading {
    let w = words(&said.toks);
    if let Some(at) = w.iter().position(|x| *x == "appears") {
        return editor_appears(said, &w, at);
    }
    match w.as_slice() {
        [
            "the",
            "todo" | "item" | "task",
            "enters" | "is",
            "edit",
            "mode",
        ]
        | ["the", "todo" | "item" | "task", "is", "in", "edit", "mode"] => {
            let item = match said.discourse.the_item() {
                Ok(item) => item,
                Err(decline) => return Some(Err(decline)),
            };
            claim(Subject::Editor, Check::Value(item), false)
        }
        ["the", "edit", "textbox" | "field", "is", "focused"]
        | ["the", "textbox", "is", "focused"] => claim(Subject::Editor, Check::Focused, false),
        [
            "edit",
            "mode",
            "is",
            "exited" | "cancelled" | "canceled" | "closed" | "left",
        ] => claim(Subject::Editor, Check::Count(0), false),
        _ => None,
    }
}

/// `an edit textbox appears`, `edit textbox appears with 'x'`, `... with the current text 'x'`.
fn editor_appears(said: &Said, w: &[&str], at: usize) -> Reading {
    let subject: Vec<&str> = w[..at]
        .iter()
        .copied()
        .filter(|x| !matches!(*x, "an" | "the"))
        .collect();
    if !matches!(
        subject.as_slice(),
        ["edit", "textbox" | "field" | "input" | "box"]
    ) {
        return None;
    }
    let visible = editor(Check::Visible, false);
    let value = match (&w[at + 1..], said.toks.last()) {
        ([], _) => return Some(Ok(vec![visible])),
        (
            ["with", "\""]
            | ["with", "the", "current", "text", "\""]
            | ["with", "the", "text", "\""],
            Some(Tok::Lit(value)),
        ) => value,
        _ => return None,
    };
    Some(Ok(vec![
        visible,
        editor(Check::Value(value.clone()), false),
    ]))
}

/// `change the text to 'y' and press Enter`, `change the text to 'y' but press Escape instead
/// of Enter`, `change the text to 'y' and click elsewhere`, `clear all the text and press
/// Enter`: the editor's new text, then the key or the blur.
pub(crate) fn change_text(said: &Said) -> Reading {
    let w = words(&said.toks);
    let (value, end) = match w.as_slice() {
        ["change", "the", "text", "to", "\"", end @ ..] => match &said.toks[4] {
            Tok::Lit(value) => (value.clone(), end),
            _ => return None,
        },
        ["clear", "all", "the", "text", end @ ..] | ["clear", "the", "text", end @ ..] => {
            (String::new(), end)
        }
        _ => return None,
    };
    let then = match end {
        [] => None,
        ["and", "press", "enter"] => Some(Op::Press("Enter")),
        ["and" | "but", "press", "escape"]
        | ["but", "press", "escape", "instead", "of", "enter"] => Some(Op::Press("Escape")),
        ["and", "click", "elsewhere"] | ["and", "blur", "the", "input" | "field"] => Some(Op::Blur),
        _ => return None,
    };
    let mut parts = vec![on_editor(Op::Fill(value))];
    parts.extend(then.map(on_editor));
    Some(Ok(parts))
}

/// `the todo is updated to 'y'`, `the todo text reverts to 'x'`, `the updated text is
/// displayed in the list`: the item with that exact text is in the list.
pub(crate) fn updated(said: &Said) -> Reading {
    let w = words(&said.toks);
    let item = match w.as_slice() {
        ["the", "todo" | "item" | "task", "is", "updated", "to", "\""]
        | [
            "the",
            "todo" | "item" | "task",
            "text",
            "is",
            "updated",
            "to",
            "\"",
        ]
        | [
            "the",
            "todo" | "item" | "task",
            "text",
            "reverts",
            "to",
            "\"",
        ]
        | ["the", "todo" | "item" | "task", "reverts", "to", "\""] => match said.toks.last() {
            Some(Tok::Lit(value)) => value.clone(),
            _ => return None,
        },
        [
            "the",
            "updated",
            "text",
            "is",
            "displayed" | "shown" | "visible",
            ..,
        ] => {
            if !matches!(&w[5..], [] | ["in", "the", "list"]) {
                return None;
            }
            match said.discourse.the_item() {
                Ok(item) => item,
                Err(decline) => return Some(Err(decline)),
            }
        }
        _ => return None,
    };
    if item.is_empty() {
        return Some(Err(Decline::new("the item's text is empty")));
    }
    claim(Subject::Item(item), Check::Visible, false)
}

/// `the changes are saved`, `changes are not saved`: after an item was edited in place, the
/// list shows the typed text and no longer the text before it, or the other way round.
pub(crate) fn changes_saved(said: &Said) -> Reading {
    // The words are normalized, so `are` reads as `is`.
    let saved = match words(&said.toks).as_slice() {
        [
            "the",
            "changes" | "change" | "edits" | "edit",
            "is",
            "saved" | "kept",
        ]
        | [
            "changes" | "change" | "edits" | "edit",
            "is",
            "saved" | "kept",
        ] => true,
        [
            "the",
            "changes" | "change" | "edits" | "edit",
            "is",
            "not",
            "saved" | "kept",
        ]
        | [
            "changes" | "change" | "edits" | "edit",
            "is",
            "not",
            "saved" | "kept",
        ] => false,
        _ => return None,
    };
    let Some((before, typed)) = said.discourse.edit() else {
        return Some(Err(Decline::new(
            "\"the changes\" are an edit of an item in place, and no earlier step of this test \
             changed an item's text",
        )));
    };
    let (shown, gone) = if saved {
        (typed, before)
    } else {
        (before, typed)
    };
    if shown.trim().is_empty() {
        return Some(Err(Decline::new(
            "the edit leaves the item's text empty, so no item can show it",
        )));
    }
    let mut parts = vec![Part::Step(ElementStep::claim(
        Subject::item(shown),
        Check::Visible,
        false,
    ))];
    if gone != shown && !gone.trim().is_empty() {
        parts.push(Part::Step(ElementStep::claim(
            Subject::item(gone),
            Check::Count(0),
            false,
        )));
    }
    Some(Ok(parts))
}

#[cfg(test)]
mod tests {
    use crate::script::PageState;
    use crate::writer::builtin::discourse::Discourse;
    use crate::writer::builtin::plan_readers::read_as_text;

    /// The discourse after adding "Buy milk" and double-clicking it.
    fn editing() -> Discourse {
        let field = "page.getByRole('textbox', { name: 'What needs to be done?' })";
        Discourse::of(
            &["add 'Buy milk'".to_owned()],
            &[format!(
                "async function step(page) {{\n  await {field}.fill('Buy milk');\n  await \
                 {field}.press('Enter');\n}}"
            )],
        )
    }

    fn read(sentence: &str) -> Vec<String> {
        read_as_text(&editing(), sentence, &PageState::default())
    }

    pub(crate) const EDITOR: &str = "page.getByRole('listitem').getByRole('textbox')";

    #[test]
    fn entering_edit_mode_is_checked_by_the_editor_having_the_focus() {
        assert_eq!(
            read("Double-click on the todo to enter edit mode"),
            [
                "Double-click on \"Buy milk\"".to_owned(),
                format!("await expect({EDITOR}).toBeFocused();")
            ]
        );
        assert_eq!(
            read("The todo enters edit mode"),
            [format!("await expect({EDITOR}).toHaveValue('Buy milk');")]
        );
        assert_eq!(
            read("An edit textbox appears with the current text 'Buy milk'"),
            [
                format!("await expect({EDITOR}).toBeVisible();"),
                format!("await expect({EDITOR}).toHaveValue('Buy milk');")
            ]
        );
        assert_eq!(
            read("Edit mode is exited"),
            [format!("await expect({EDITOR}).toHaveCount(0);")]
        );
    }

    #[test]
    fn changing_the_text_fills_the_editor_and_ends_as_it_says() {
        assert_eq!(
            read("Change the text to 'x' but press Escape instead of Enter"),
            [
                format!("await {EDITOR}.fill('x');"),
                format!("await {EDITOR}.press('Escape');")
            ]
        );
        assert_eq!(
            read("Clear all the text and press Enter"),
            [
                format!("await {EDITOR}.fill('');"),
                format!("await {EDITOR}.press('Enter');")
            ]
        );
        assert_eq!(
            read("Change the text to 'x' and click elsewhere")[1],
            format!("await {EDITOR}.blur();")
        );
        assert_eq!(read("Change the text to 'x' and sing"), ["NONE"]);
    }

    #[test]
    fn an_updated_item_is_looked_for_by_its_exact_text() {
        assert_eq!(
            read("The todo is updated to 'Buy organic milk'"),
            [
                "await expect(page.getByRole('listitem').filter({ has: page.getByText('Buy organic \
              milk', { exact: true }) })).toBeVisible();"
            ]
        );
    }
}

#[cfg(test)]
mod saved_tests {
    use crate::script::PageState;
    use crate::writer::builtin::discourse::Discourse;
    use crate::writer::builtin::plan_readers::read_as_text;

    /// The discourse after adding "a" and changing its text to "b" in its editor.
    fn edited() -> Discourse {
        let field = "page.getByRole('textbox', { name: 'What needs to be done?' })";
        let editor = super::tests::EDITOR;
        Discourse::of(
            &[
                "add 'a'".to_owned(),
                "double-click 'a'".to_owned(),
                "change the text to 'b' but press Escape".to_owned(),
            ],
            &[
                format!(
                    "async function step(page) {{\n  await {field}.fill('a');\n  await \
                     {field}.press('Enter');\n}}"
                ),
                "async function step(page) {\n  await page.getByRole('listitem').filter({ has: \
                 page.getByText('a', { exact: true }) }).dblclick();\n}"
                    .to_owned(),
                format!(
                    "async function step(page) {{\n  await {editor}.fill('b');\n  await \
                     {editor}.press('Escape');\n}}"
                ),
            ],
        )
    }

    fn read(discourse: &Discourse, sentence: &str) -> Vec<String> {
        read_as_text(discourse, sentence, &PageState::default())
    }

    #[test]
    fn saved_changes_show_the_typed_text_and_not_the_old_one_and_the_other_way_round() {
        let a = "page.getByRole('listitem').filter({ has: page.getByText('a', { exact: true }) })";
        let b = "page.getByRole('listitem').filter({ has: page.getByText('b', { exact: true }) })";
        assert_eq!(
            read(&edited(), "The changes are saved"),
            [
                format!("await expect({b}).toBeVisible();"),
                format!("await expect({a}).toHaveCount(0);")
            ]
        );
        assert_eq!(
            read(&edited(), "Changes are not saved"),
            [
                format!("await expect({a}).toBeVisible();"),
                format!("await expect({b}).toHaveCount(0);")
            ]
        );
        let none = Discourse::of(&[], &[]);
        assert!(read(&none, "The changes are saved")[0].starts_with("DECLINE"));
    }
}
