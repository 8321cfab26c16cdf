//! Plan steps about the exact text typed and kept, spaces included: "type '  x  ' and press
//! Enter", "double-click to edit and change text to '  y  '", "the edit textbox shows the text
//! with spaces", "press Enter to save", "the todo is saved as 'y' without leading or trailing
//! whitespace". Playwright's text matchers collapse whitespace when they compare strings, so
//! the kept text is compared with an anchored regular expression, which reads the text as the
//! element holds it.
//!
//! Main functions: the readers, which `plan_readers.rs` lists in the order they are tried.

use crate::writer::builtin::discourse::{Part, quoted};
use crate::writer::builtin::element_step::{Check, ElementStep, Op, Subject};
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::plan_steps::{Reading, Said, claim, words};
use crate::writer::builtin::tokens::Tok;

/// `type 'x' and press Enter`: the text into the page's field for new items, then the key.
pub(crate) fn type_and_press(said: &Said) -> Reading {
    let [verb, Tok::Lit(text), and, press, key] = said.toks.as_slice() else {
        return None;
    };
    if !verb.is("type") || !and.is("and") || !press.is("press") || !key.is("enter") {
        return None;
    }
    Some(Ok(vec![
        Part::Sentence(format!("type {} into the input field", quoted(text)?)),
        Part::Sentence("press Enter".to_owned()),
    ]))
}

/// `double-click to edit and change text to 'y'`: the item the test refers to is opened for
/// editing and its editor filled.
pub(crate) fn edit_and_change(said: &Said) -> Reading {
    let w = words(&said.toks);
    let value = match (w.as_slice(), said.toks.last()) {
        (
            [
                "double-click",
                "to",
                "edit",
                "and",
                "change",
                "text",
                "to",
                "\"",
            ]
            | [
                "double-click",
                "to",
                "edit",
                "and",
                "change",
                "the",
                "text",
                "to",
                "\"",
            ]
            | [
                "double-click",
                "to",
                "edit",
                "it",
                "and",
                "change",
                "the",
                "text",
                "to",
                "\"",
            ],
            Some(Tok::Lit(value)),
        ) => value,
        _ => return None,
    };
    let item = match said.discourse.the_item() {
        Ok(item) => item,
        Err(decline) => return Some(Err(decline)),
    };
    Some(Ok(vec![
        Part::Sentence(format!("double-click on {}", quoted(&item)?)),
        Part::Step(ElementStep::claim(Subject::Editor, Check::Focused, false)),
        Part::Step(ElementStep::new(Subject::Editor, Op::Fill(value.clone()))),
    ]))
}

/// `edit textbox shows the text with spaces`, `the edit field shows the text`: the editor
/// holds exactly the text the last edit typed, spaces and all.
pub(crate) fn editor_shows(said: &Said) -> Reading {
    let w = words(&said.toks);
    let w: &[&str] = match w.as_slice() {
        ["the" | "an", rest @ ..] => rest,
        all => all,
    };
    let tail = match w {
        [
            "edit",
            "textbox" | "field" | "input" | "box",
            "shows" | "has" | "contains",
            "the",
            "text",
            tail @ ..,
        ] => tail,
        _ => return None,
    };
    let with_spaces = match tail {
        [] => false,
        ["with", "spaces" | "whitespace"]
        | ["with", "the", "spaces"]
        | [
            "with",
            "leading",
            "and",
            "trailing",
            "spaces" | "whitespace",
        ] => true,
        _ => return None,
    };
    let Some((_, typed)) = said.discourse.edit() else {
        return Some(Err(Decline::new(
            "\"the text\" is the text typed into an item's editor, and no earlier step of this \
             test changed an item's text",
        )));
    };
    if with_spaces && typed.trim() == typed {
        return Some(Err(Decline::new(format!(
            "the sentence says the text has spaces around it, and the text typed ({}) has none",
            quoted(typed).unwrap_or_default()
        ))));
    }
    claim(Subject::Editor, Check::Value(typed.to_owned()), false)
}

/// `press Enter to save`: the key in the item's editor, which then closes, and the list shows
/// the edit.
pub(crate) fn press_to_save(said: &Said) -> Reading {
    if !matches!(
        words(&said.toks).as_slice(),
        ["press", "enter", "to", "save"]
            | ["press", "enter", "to", "save", "it"]
            | ["press", "enter", "to", "save", "the", "changes" | "edit"]
    ) {
        return None;
    }
    let Some((before, typed)) = said.discourse.edit() else {
        return Some(Err(Decline::new(
            "\"to save\": no earlier step of this test changed an item's text",
        )));
    };
    // "to save" is a claim too: an Enter that cancelled the edit also closes the editor, so
    // the list must show the edit (or, for an edit to nothing, no longer the item's old text).
    let saved = match typed.trim() {
        "" => ElementStep::claim(Subject::item(before), Check::Count(0), false),
        kept => ElementStep::claim(Subject::item(kept), Check::Visible, false),
    };
    Some(Ok(vec![
        Part::Step(ElementStep::new(Subject::Editor, Op::Press("Enter"))),
        Part::Step(ElementStep::claim(Subject::Editor, Check::Count(0), false)),
        Part::Step(saved),
    ]))
}

/// `the todo is added as 'x' without leading or trailing whitespace`, `the todo is saved as
/// 'x'`: a list item's text is exactly `x`, with no space around it.
pub(crate) fn kept_as(said: &Said) -> Reading {
    let toks = said.toks.as_slice();
    let at = toks.iter().position(|t| matches!(t, Tok::Lit(_)))?;
    let Tok::Lit(text) = &toks[at] else {
        return None;
    };
    let head = words(&toks[..at]);
    if !matches!(
        head.as_slice(),
        [
            "the",
            "todo" | "item" | "task",
            "is",
            "added" | "saved" | "stored" | "kept",
            "as"
        ]
    ) {
        return None;
    }
    if !matches!(
        words(&toks[at + 1..]).as_slice(),
        [] | [
            "without",
            "leading",
            "or" | "and",
            "trailing",
            "whitespace" | "spaces"
        ] | ["without", "surrounding", "whitespace" | "spaces"]
    ) {
        return None;
    }
    if text.trim() != text || text.is_empty() {
        return Some(Err(Decline::new(
            "the text an item is kept as must have no space around it",
        )));
    }
    claim(
        Subject::ItemText(text.clone()),
        Check::ExactText(text.clone()),
        false,
    )
}

#[cfg(test)]
mod tests {
    use crate::script::PageState;
    use crate::writer::builtin::discourse::Discourse;
    use crate::writer::builtin::element_code::locator;
    use crate::writer::builtin::element_step::Subject;
    use crate::writer::builtin::plan_readers::read_as_text;

    const EDITOR: &str = "page.getByRole('listitem').getByRole('textbox')";

    /// The list item whose text is exactly `item`.
    fn item_locator(item: &str) -> String {
        locator(&Subject::item(item))
    }

    fn read(discourse: &Discourse, sentence: &str) -> Vec<String> {
        read_as_text(discourse, sentence, &PageState::default())
    }

    /// The discourse after adding "a" and typing `typed` into its editor.
    fn edited(typed: &str) -> Discourse {
        let field = "page.getByRole('textbox', { name: 'What needs to be done?' })";
        Discourse::of(
            &["add 'a'".to_owned(), "change it".to_owned()],
            &[
                format!(
                    "async function step(page) {{\n  await {field}.fill('a');\n  await \
                     {field}.press('Enter');\n}}"
                ),
                format!("async function step(page) {{\n  await {EDITOR}.fill('{typed}');\n}}"),
            ],
        )
    }

    #[test]
    fn typed_spaces_are_kept_and_the_kept_text_is_compared_whole() {
        let none = Discourse::default();
        assert_eq!(
            read(&none, "Type '  x  ' and press Enter"),
            ["type \"  x  \" into the input field", "press Enter"]
        );
        assert_eq!(
            read(
                &none,
                "The todo is added as 'a.b' without leading or trailing whitespace"
            ),
            [
                "await expect(page.getByRole('listitem').getByText('a.b', { exact: true \
              })).toHaveText(/^a\\.b$/);"
            ]
        );
        assert!(read(&none, "The todo is saved as ' a '")[0].starts_with("DECLINE"));
        // A word the reader cannot account for leaves the sentence to others.
        assert!(!read(&none, "The todo is saved as 'a' with a flourish")[0].starts_with("await"));
    }

    #[test]
    fn the_editor_shows_exactly_what_was_typed_and_enter_saves_it() {
        let spaced = edited("  b  ");
        assert_eq!(
            read(&spaced, "Edit textbox shows the text with spaces"),
            [format!("await expect({EDITOR}).toHaveValue('  b  ');")]
        );
        let plain = edited("b");
        assert!(read(&plain, "Edit textbox shows the text with spaces")[0].starts_with("DECLINE"));
        assert_eq!(
            read(&spaced, "Press Enter to save"),
            [
                format!("await {EDITOR}.press('Enter');"),
                format!("await expect({EDITOR}).toHaveCount(0);"),
                format!("await expect({}).toBeVisible();", item_locator("b"))
            ]
        );
        assert!(read(&Discourse::default(), "Press Enter to save")[0].starts_with("DECLINE"));
        let added = edited("b");
        let parts = read(&added, "Double-click to edit and change text to '  c  '");
        assert_eq!(
            parts,
            [
                "double-click on \"b\"".to_owned(),
                format!("await expect({EDITOR}).toBeFocused();"),
                format!("await {EDITOR}.fill('  c  ');")
            ]
        );
    }
}
