//! The code of a choice (`choices.rs` reads it): the dropdown the sentence's noun names and the
//! option it offers, the page's one search box, or the one button a second action names, found
//! on the page, and the statements that choose, fill, click or check them.
//!
//! Main function: [`code`], for `codegen.rs`.

use crate::writer::builtin::choices::text;
use crate::writer::builtin::intent::{Choice, Decline, Then};
use crate::writer::builtin::locator::{js_str, norm};
use crate::writer::builtin::resolve::has_words;
use crate::writer::builtin::shape::Render;
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::builtin::tokens::Tok;

/// Nouns that say what kind of control a dropdown is, not what it chooses.
const CONTROL_WORDS: &[&str] = &[
    "dropdown",
    "drop-down",
    "list",
    "menu",
    "select",
    "selector",
    "box",
    "field",
    "picker",
    "filter",
    "the",
    "a",
];

/// The statements of `choice` on the page `snap` shows; the action after it is written with
/// `render`.
pub(crate) fn code(
    choice: &Choice,
    snap: &Snapshot,
    render: Render,
) -> Result<Vec<String>, Decline> {
    match choice {
        Choice::Search(value) => Ok(vec![
            format!("const field = {};", search_field(snap)?),
            format!("await field.fill({});", js_str(value)),
            "await field.press('Enter');".to_owned(),
        ]),
        Choice::SearchField { value, then } => {
            let mut lines = vec![format!(
                "await {}.fill({});",
                search_field(snap)?,
                js_str(value)
            )];
            lines.extend(then_code(then.as_ref(), snap, render)?);
            Ok(lines)
        }
        Choice::Pick { noun, value, then } => {
            let (locator, option) = dropdown(snap, noun, value)?;
            let mut lines = vec![format!(
                "await {locator}.selectOption({});",
                js_str(&option)
            )];
            lines.extend(then_code(then.as_ref(), snap, render)?);
            Ok(lines)
        }
        Choice::Chosen { noun, value } => {
            let (locator, option) = dropdown(snap, noun, value)?;
            Ok(vec![format!(
                "await expect({locator}.locator('option:checked')).toHaveText({});",
                js_str(&option)
            )])
        }
    }
}

/// The statements of the action after a choice, if there is one.
fn then_code(then: Option<&Then>, snap: &Snapshot, render: Render) -> Result<Vec<String>, Decline> {
    match then {
        None => Ok(Vec::new()),
        Some(Then::Button { verb, words, said }) => Ok(vec![button(snap, verb, words, said)?]),
        Some(Then::Act(intent)) => render(intent, snap),
    }
}

/// The dropdown `noun` names and its option `value` (as the page writes it).
fn dropdown(snap: &Snapshot, noun: &[Tok], value: &str) -> Result<(String, String), Decline> {
    let words: Vec<String> = noun
        .iter()
        .filter(|w| !CONTROL_WORDS.iter().any(|c| w.is(c)))
        .map(|w| text(std::slice::from_ref(w)))
        .collect();
    let mut found = Vec::new();
    for (at, node) in snap.nodes.iter().enumerate() {
        if !matches!(node.role.as_str(), "combobox" | "listbox") {
            continue;
        }
        let Some(name) = node.name.as_deref() else {
            continue;
        };
        if !words.iter().all(|w| has_words(name, w)) {
            continue;
        }
        let option = node.children.iter().find_map(|&c| {
            let child = &snap.nodes[c];
            match &child.name {
                Some(n) if child.role == "option" && norm(n) == norm(value) => Some(n.clone()),
                _ => None,
            }
        });
        if let Some(option) = option {
            found.push((at, name.to_owned(), option));
        }
    }
    match found.as_slice() {
        [(at, name, option)] => {
            snap.notice(*at);
            let role = &snap.nodes[*at].role;
            Ok((
                format!(
                    "page.getByRole({}, {{ name: {}, exact: true }})",
                    js_str(role),
                    js_str(name)
                ),
                option.clone(),
            ))
        }
        [] => Err(Decline::new(format!(
            "no dropdown named \"{}\" offers \"{value}\"",
            words.join(" ")
        ))),
        _ => Err(Decline::new(format!(
            "several dropdowns named \"{}\" offer \"{value}\"",
            words.join(" ")
        ))),
    }
}

/// The click on the one button whose name holds `words` (each maybe plural), or `verb` when
/// no word follows it.
fn button(snap: &Snapshot, verb: &str, words: &[String], said: &str) -> Result<String, Decline> {
    let buttons: Vec<usize> = (0..snap.nodes.len())
        .filter(|&i| snap.nodes[i].role == "button")
        .filter(|&i| {
            snap.nodes[i].name.as_deref().is_some_and(|n| {
                if words.is_empty() {
                    has_words(n, verb)
                } else {
                    words
                        .iter()
                        .all(|w| has_words(n, w) || has_words(n, &format!("{w}s")))
                }
            })
        })
        .collect();
    let [button] = buttons.as_slice() else {
        return Err(Decline::new(format!(
            "{} buttons could be meant by \"{said}\"",
            buttons.len(),
        )));
    };
    snap.notice(*button);
    let name = snap.nodes[*button].name.clone().unwrap_or_default();
    Ok(format!(
        "await page.getByRole('button', {{ name: {}, exact: true }}).click();",
        js_str(&name)
    ))
}

/// The one search box of the page: a searchbox, or a field whose name or placeholder says
/// `search`.
fn search_field(snap: &Snapshot) -> Result<String, Decline> {
    let fields: Vec<usize> = (0..snap.nodes.len())
        .filter(|&i| {
            let n = &snap.nodes[i];
            n.role == "searchbox"
                || matches!(n.role.as_str(), "textbox" | "combobox")
                    && [n.name.as_deref(), n.placeholder.as_deref()]
                        .into_iter()
                        .flatten()
                        .any(|s| has_words(s, "search"))
        })
        .collect();
    let [field] = fields.as_slice() else {
        return Err(Decline::new(format!(
            "{} search boxes on the page",
            fields.len()
        )));
    };
    snap.notice(*field);
    let node = &snap.nodes[*field];
    let Some(name) = node.name.as_deref() else {
        return Err(Decline::new("the search box has no name to find it by"));
    };
    Ok(format!(
        "page.getByRole({}, {{ name: {}, exact: true }})",
        js_str(&node.role),
        js_str(name)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::choices::read;
    use crate::writer::builtin::tokens::{normalize, tokenize};

    const FORM: &str = "- complementary:\n  - generic:\n    - combobox \"Choose a category:\":\n      - option \"All\" [selected]\n      - option \"Vegetables\"\n      - option \"Soup\"\n    - textbox \"Enter search term:\":\n      - /placeholder: e.g. beans\n    - button \"Filter results\"\n";

    fn written(sentence: &str) -> Result<Vec<String>, String> {
        let toks = normalize(tokenize(sentence, &[]));
        let snap = Snapshot::parse(FORM);
        match read(&toks, crate::writer::builtin::shapes::parse) {
            None => Err("not a choice".to_owned()),
            Some(read) => read
                .and_then(|intent| crate::writer::builtin::codegen::lines_for(&intent, &snap))
                .map_err(|d| d.0),
        }
    }

    const SELECT: &str = "await page.getByRole('combobox', { name: 'Choose a category:', exact: true }).selectOption('Vegetables');";
    const CLICK: &str =
        "await page.getByRole('button', { name: 'Filter results', exact: true }).click();";

    #[test]
    fn typing_in_the_search_box_writes_the_action_after_it_or_is_not_this_shape() {
        const FILL: &str = "await page.getByRole('textbox', { name: 'Enter search term:', exact: true }).fill('pizza');";
        assert_eq!(
            written("type \"pizza\" into the search field"),
            Ok(vec![FILL.to_owned()])
        );
        // The click after the typing is written, never dropped.
        assert_eq!(
            written("type \"pizza\" into the search field and click \"Filter results\""),
            Ok(vec![FILL.to_owned(), CLICK.to_owned()])
        );
        // Words after the box that are no second action leave the sentence to other shapes.
        assert_eq!(
            written("type \"pizza\" into the search field twice"),
            Err("not a choice".to_owned())
        );
    }

    #[test]
    fn an_option_is_chosen_by_its_text_in_the_dropdown_the_noun_names() {
        for sentence in [
            "set the category to Vegetables",
            "select Vegetables as the category",
            "choose vegetables in the category dropdown",
            "pick \"Vegetables\" from the category list",
            "choose the Vegetables category",
            "then set the category back to Vegetables",
        ] {
            assert_eq!(written(sentence), Ok(vec![SELECT.to_owned()]), "{sentence}");
        }
        assert!(written("set the category to Fruit").is_err());
        assert!(written("set the colour to Vegetables").is_err());
    }

    #[test]
    fn a_compound_step_chooses_then_clicks() {
        let both = Ok(vec![SELECT.to_owned(), CLICK.to_owned()]);
        assert_eq!(
            written("choose the Vegetables category and apply the filter"),
            both
        );
        // `click X` is written as its own step would be.
        assert_eq!(
            written("set the category to Vegetables and click Filter results"),
            Ok(vec![
                SELECT.to_owned(),
                "await page.getByRole('button', { name: 'Filter results' }).click();".to_owned()
            ])
        );
    }

    #[test]
    fn a_search_fills_the_search_box_and_submits() {
        assert_eq!(
            written("search for \"PEAS\""),
            Ok(vec![
                "const field = page.getByRole('textbox', { name: 'Enter search term:', exact: true });".to_owned(),
                "await field.fill('PEAS');".to_owned(),
                "await field.press('Enter');".to_owned(),
            ])
        );
    }

    #[test]
    fn the_chosen_option_is_checked_by_its_text() {
        assert_eq!(
            written("the category dropdown is set to \"All\""),
            Ok(vec!["await expect(page.getByRole('combobox', { name: 'Choose a category:', exact: true }).locator('option:checked')).toHaveText('All');".to_owned()])
        );
    }
}
