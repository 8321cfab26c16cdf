//! Rewrites of a declined sentence that the built-in generator reads on the same page, for
//! `prettyplay explain`. A sentence that names an element the page has twice gets the row each
//! one is in (`click the "Delete" button of "buy milk"`); one that names no element on the page
//! gets the elements whose names share its words or are spelt nearly like it, with the same
//! action. Every rewrite is tried with [`write_step`] on the same snapshot and kept only when it
//! is read, so a rewrite never declines itself.
//!
//! Main function: [`rewrite_candidates`]. They are only read here: `explain` offers one after
//! it passed (and, for a check, was proven) on the page.

use crate::writer::builtin::intent::{Intent, Literal, State, Target};
use crate::writer::builtin::kinds::{FIELD_ROLES, Kind};
use crate::writer::builtin::resolve::{CHECKABLE, CLICKABLE};
use crate::writer::builtin::shapes::parse;
use crate::writer::builtin::snapshot::{Snapshot, is_field};
use crate::writer::builtin::write_step;

/// The most rewrites offered for one sentence.
const MAX_REWRITES: usize = 3;

/// Up to three sentences like `sentence` that [`write_step`] turns into code on the page of
/// `snapshot`, best first; none when the sentence is read already, is none of the shapes, or
/// asks for something no element stands in for (a URL, a title, the page's text).
#[cfg(test)]
fn rewrites(sentence: &str, columns: &[String], snapshot: &str, structure: &str) -> Vec<String> {
    rewrite_candidates(sentence, columns, snapshot, structure, MAX_REWRITES)
}

/// [`rewrites`], up to `limit` of them: the candidates a caller tries on the page before it
/// offers any.
pub(crate) fn rewrite_candidates(
    sentence: &str,
    columns: &[String],
    snapshot: &str,
    structure: &str,
    limit: usize,
) -> Vec<String> {
    let Ok(intent) = parse(sentence, columns) else {
        return Vec::new();
    };
    if write_step(sentence, columns, snapshot, structure).is_ok() {
        return Vec::new();
    }
    let Some((target, defaults)) = target_of(&intent) else {
        return Vec::new();
    };
    let snap = Snapshot::read(snapshot, structure);
    let roles: &[&str] = match target.kind {
        Some(kind) => kind.roles(),
        None => defaults,
    };
    let mut kept: Vec<String> = Vec::new();
    for node in candidates(&snap, target, roles) {
        let Some(phrase) = phrase_for(&snap, node, roles) else {
            continue;
        };
        let Some(rewrite) = sentence_for(&intent, &phrase, columns) else {
            continue;
        };
        if rewrite != sentence
            && !kept.contains(&rewrite)
            && write_step(&rewrite, columns, snapshot, structure).is_ok()
        {
            kept.push(rewrite);
            if kept.len() >= limit {
                break;
            }
        }
    }
    kept
}

/// The element the intent acts on or checks, and the roles it is looked for among when the
/// sentence names no kind (those code generation uses).
fn target_of(intent: &Intent) -> Option<(&Target, &'static [&'static str])> {
    const ANY: &[&str] = &[
        "button",
        "link",
        "tab",
        "checkbox",
        "radio",
        "textbox",
        "searchbox",
        "combobox",
        "spinbutton",
        "heading",
        "menuitem",
        "option",
        "switch",
        "img",
        "status",
        "alert",
        "dialog",
    ];
    Some(match intent {
        Intent::Click { target, .. } => (target, CLICKABLE),
        Intent::Fill { target, .. }
        | Intent::Clear(target)
        | Intent::Press {
            target: Some(target),
            ..
        } => (target, FIELD_ROLES),
        Intent::Check { target, .. } => (target, CHECKABLE),
        Intent::Select { target, .. } => (target, Kind::Dropdown.roles()),
        Intent::Show(target) => (target, Kind::Filter.roles()),
        Intent::Hover(target)
        | Intent::Visible { target, .. }
        | Intent::HasValue { target, .. }
        | Intent::HasText { target, .. }
        | Intent::State { target, .. } => (target, ANY),
        _ => return None,
    })
}

/// The nodes of `roles` a rewrite may name instead of `target`, best first: those with the
/// target's very name (when it is ambiguous they differ by their row), then those whose names
/// share its words or are spelt nearly like it. A target without a name (`the field`) may be
/// any named node of its roles; when nothing is near, a page with at most three such nodes
/// offers them all.
fn candidates(snap: &Snapshot, target: &Target, roles: &[&str]) -> Vec<usize> {
    let named: Vec<usize> = snap
        .with_roles(roles)
        .into_iter()
        .filter(|&i| name_of(snap, i).is_some())
        .collect();
    let Some(wanted) = target.name.as_deref() else {
        return named;
    };
    let mut scored: Vec<(Closeness, usize)> = named
        .iter()
        .filter_map(|&i| {
            let name = name_of(snap, i)?;
            Closeness::of(wanted, name).map(|closeness| (closeness, i))
        })
        .collect();
    scored.sort_by_key(|&(closeness, i)| (closeness, i));
    if scored.is_empty() && named.len() <= MAX_REWRITES {
        return named;
    }
    scored.into_iter().map(|(_, i)| i).collect()
}

/// The name a node is known by: its accessible name, else its own text (a status line), never
/// a field's value.
fn name_of(snap: &Snapshot, node: usize) -> Option<&str> {
    let node = &snap.nodes[node];
    node.name
        .as_deref()
        .or(node.text.as_deref().filter(|_| !is_field(&node.role)))
        .filter(|name| !name.trim().is_empty())
}

/// How near a node's name is to the name a sentence wrote; smaller is nearer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Closeness {
    /// The same name, in any case and spacing.
    Same,
    /// Shares words with it: more shared words sort first (the field holds their count,
    /// negated).
    SharedWords(i64),
    /// Spelt within a third of its length of it (edits, from 1).
    Spelt(usize),
}

impl Closeness {
    fn of(wanted: &str, name: &str) -> Option<Closeness> {
        let (a, b) = (normal(wanted), normal(name));
        if a == b {
            return Some(Closeness::Same);
        }
        let theirs = words(&b);
        let shared = words(&a)
            .into_iter()
            .filter(|word| theirs.contains(word))
            .count();
        if shared > 0 {
            return Some(Closeness::SharedWords(-(shared as i64)));
        }
        let edits = edit_distance(&a, &b);
        let longest = a.chars().count().max(b.chars().count());
        (edits * 3 <= longest).then_some(Closeness::Spelt(edits))
    }
}

fn normal(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The words of a name that say something: articles and such small words do not count as
/// shared.
fn words(text: &str) -> Vec<&str> {
    const SMALL: &[&str] = &["the", "a", "an", "of", "to", "in", "on", "and", "or", "for"];
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty() && !SMALL.contains(word))
        .collect()
}

/// Levenshtein's distance between two texts, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

/// The words that name `node`: `the "NAME" NOUN`, and `of "ROW TEXT"` when another node of
/// `roles` has the same name and the row or list item holding this one tells them apart.
fn phrase_for(snap: &Snapshot, node: usize, roles: &[&str]) -> Option<String> {
    let name = name_of(snap, node)?;
    let noun = noun_of(&snap.nodes[node].role)?;
    let mut phrase = format!("the {} {noun}", quoted(name)?);
    let twins = snap
        .with_roles(roles)
        .into_iter()
        .filter(|&other| other != node && name_of(snap, other).map(normal) == Some(normal(name)))
        .count();
    if twins > 0 {
        let row = row_text(snap, node, name)?;
        phrase.push_str(&format!(" of {}", quoted(&row)?));
    }
    Some(phrase)
}

/// The noun a sentence names a role's elements with (see `kinds.rs`).
fn noun_of(role: &str) -> Option<&'static str> {
    Some(match role {
        "button" => "button",
        "link" => "link",
        "tab" => "tab",
        "checkbox" => "checkbox",
        "radio" => "radio button",
        "textbox" | "searchbox" | "spinbutton" => "field",
        "combobox" | "listbox" => "dropdown",
        "heading" => "heading",
        "menuitem" | "menuitemcheckbox" | "menuitemradio" => "menu item",
        "option" => "option",
        "switch" => "switch",
        "img" => "image",
        "status" => "status",
        "alert" => "alert",
        "dialog" => "dialog",
        "row" => "row",
        "listitem" => "item",
        _ => return None,
    })
}

/// A text of the list item or row holding `node` that no other list item or row holds: what
/// `of "ROW TEXT"` names it by. The texts tried are those of the row's other elements, in page
/// order, so the row's own words come before its buttons'.
fn row_text(snap: &Snapshot, node: usize, name: &str) -> Option<String> {
    let mut holder = snap.nodes[node].parent;
    while let Some(at) = holder {
        if matches!(snap.nodes[at].role.as_str(), "listitem" | "row") {
            break;
        }
        holder = snap.nodes[at].parent;
    }
    let holder = holder?;
    let holders = snap.with_roles(&["listitem", "row"]);
    let texts: Vec<String> = holders.iter().map(|&h| normal(&snap.text_of(h))).collect();
    snap.descendants(holder)
        .into_iter()
        .filter(|&i| i != node)
        .filter_map(|i| {
            let n = &snap.nodes[i];
            n.text.as_deref().or(n.name.as_deref())
        })
        .map(str::trim)
        .filter(|text| !text.is_empty() && normal(text) != normal(name))
        .find(|text| {
            let text = normal(text);
            texts.iter().filter(|held| held.contains(&text)).count() == 1
        })
        .map(str::to_owned)
}

/// `text` in the quotes a sentence writes it in: `"..."`, or `“...”` when it holds a `"`.
fn quoted(text: &str) -> Option<String> {
    if !text.contains('"') {
        Some(format!("\"{text}\""))
    } else if !text.contains('”') {
        Some(format!("“{text}”"))
    } else {
        None
    }
}

/// A value as the sentence wrote it: a `${NAME}` or a `<column>` bare, other text quoted.
fn value_of(value: &Literal, columns: &[String]) -> Option<String> {
    let text = &value.0;
    let placeholder = (text.starts_with("${") && text.ends_with('}'))
        || text
            .strip_prefix('<')
            .and_then(|rest| rest.strip_suffix('>'))
            .is_some_and(|column| columns.iter().any(|c| c == column));
    if placeholder {
        Some(text.clone())
    } else {
        quoted(text)
    }
}

/// The sentence of `intent` with its element named by `phrase` instead.
fn sentence_for(intent: &Intent, phrase: &str, columns: &[String]) -> Option<String> {
    let value = |literal: &Literal| value_of(literal, columns);
    Some(match intent {
        Intent::Click { double: false, .. } => format!("click {phrase}"),
        Intent::Click { double: true, .. } => format!("double-click {phrase}"),
        Intent::Fill {
            value: typed,
            then_press,
            ..
        } => {
            let press = then_press
                .as_deref()
                .map(|key| format!(" and press {key}"))
                .unwrap_or_default();
            format!("type {} into {phrase}{press}", value(typed)?)
        }
        Intent::Clear(_) => format!("clear {phrase}"),
        Intent::Check { on: true, .. } => format!("check {phrase}"),
        Intent::Check { on: false, .. } => format!("uncheck {phrase}"),
        Intent::Select { value: chosen, .. } => {
            format!("select {} from {phrase}", value(chosen)?)
        }
        Intent::Press { key, .. } => format!("press {key} in {phrase}"),
        Intent::Hover(_) => format!("hover over {phrase}"),
        Intent::Show(_) => format!("show {phrase}"),
        Intent::Visible { shown: true, .. } => format!("{phrase} is shown"),
        Intent::Visible { shown: false, .. } => format!("{phrase} is not shown"),
        Intent::HasValue { value: held, .. } if held.0.is_empty() => format!("{phrase} is empty"),
        Intent::HasValue { value: held, .. } => format!("{phrase} has value {}", value(held)?),
        Intent::HasText {
            value: text, exact, ..
        } => {
            let verb = if *exact { "says" } else { "shows" };
            format!("{phrase} {verb} {}", value(text)?)
        }
        Intent::State { state, .. } => {
            let state = match state {
                State::Checked => "checked",
                State::Unchecked => "unchecked",
                State::Enabled => "enabled",
                State::Disabled => "disabled",
            };
            format!("{phrase} is {state}")
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::snapshot::fixtures::{LOGIN, TODOS};

    /// Two rows, each with a Delete button, and an Add button.
    const ROWS: &str = "- list:\n  - listitem:\n    - text: buy milk\n    - button \"Delete\"\n  \
        - listitem:\n    - text: walk the dog\n    - button \"Delete\"\n- button \"Add todo\"\n";

    fn assert_all_read(rewrites: &[String], snapshot: &str) {
        for rewrite in rewrites {
            assert!(
                write_step(rewrite, &[], snapshot, "").is_ok(),
                "`{rewrite}` declines"
            );
        }
    }

    #[test]
    fn an_ambiguous_button_is_named_by_the_row_it_is_in() {
        let found = rewrites("click Delete", &[], ROWS, "");
        assert_eq!(
            found,
            [
                "click the \"Delete\" button of \"buy milk\"",
                "click the \"Delete\" button of \"walk the dog\"",
            ]
        );
        assert_all_read(&found, ROWS);
    }

    #[test]
    fn a_name_the_page_lacks_becomes_the_names_that_share_its_words() {
        let found = rewrites("click the \"Add item\" button", &[], ROWS, "");
        assert_eq!(found, ["click the \"Add todo\" button"]);
        assert_all_read(&found, ROWS);
    }

    #[test]
    fn a_misspelt_name_becomes_the_name_spelt_nearly_like_it() {
        let found = rewrites("type \"alice\" into the \"Usrname\" field", &[], LOGIN, "");
        assert_eq!(found, ["type \"alice\" into the \"Username\" field"]);
        assert_all_read(&found, LOGIN);
    }

    #[test]
    fn the_action_and_its_value_are_kept() {
        let page =
            "- textbox \"First name\"\n- textbox \"Last name\"\n- checkbox \"Remember me\"\n";
        let found = rewrites(
            "type ${NAME} into the name field and press Enter",
            &[],
            page,
            "",
        );
        assert_eq!(
            found,
            [
                "type ${NAME} into the \"First name\" field and press Enter",
                "type ${NAME} into the \"Last name\" field and press Enter",
            ]
        );
        assert_all_read(&found, page);
        let columns = ["who".to_owned()];
        let found = rewrites("type <who> into the nam field", &columns, page, "");
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("type <who> into"), "{found:?}");
        for rewrite in &found {
            assert!(write_step(rewrite, &columns, page, "").is_ok(), "{rewrite}");
        }
        let found = rewrites("tick \"Remembr me\"", &[], page, "");
        assert_eq!(found, ["check the \"Remember me\" checkbox"]);
    }

    #[test]
    fn at_most_three_are_offered_and_each_is_read() {
        let page = "- button \"Save\"\n- button \"Save draft\"\n- button \"Save copy\"\n\
            - button \"Save all\"\n- button \"Save as\"\n";
        let found = rewrites("click the save file button", &[], page, "");
        assert_eq!(found.len(), 3, "{found:?}");
        assert_all_read(&found, page);
    }

    #[test]
    fn nothing_is_offered_for_a_read_sentence_or_none_of_the_shapes() {
        assert!(rewrites("click the \"Active\" link", &[], TODOS, "").is_empty());
        assert!(rewrites("make the app faster", &[], TODOS, "").is_empty());
        assert!(rewrites("the title is \"Nope\"", &[], TODOS, "").is_empty());
    }

    #[test]
    fn nothing_far_from_the_name_is_offered_on_a_busy_page() {
        let page = "- button \"One\"\n- button \"Two\"\n- button \"Three\"\n- button \"Four\"\n";
        assert!(rewrites("click \"Sign up\"", &[], page, "").is_empty());
        // With few elements of the kind, those there are offered.
        let found = rewrites(
            "click the \"Sign up\" button",
            &[],
            "- button \"Register\"\n",
            "",
        );
        assert_eq!(found, ["click the \"Register\" button"]);
    }

    #[test]
    fn closeness_orders_same_names_then_shared_words_then_spelling() {
        assert_eq!(Closeness::of("Delete", "delete"), Some(Closeness::Same));
        assert_eq!(
            Closeness::of("new todo", "New todo item"),
            Some(Closeness::SharedWords(-2))
        );
        assert_eq!(
            Closeness::of("Pasword", "Password"),
            Some(Closeness::Spelt(1))
        );
        assert_eq!(Closeness::of("Sign up", "Log in"), None);
        assert!(Closeness::Same < Closeness::SharedWords(-2));
        assert!(Closeness::SharedWords(-2) < Closeness::SharedWords(-1));
        assert!(Closeness::SharedWords(-1) < Closeness::Spelt(1));
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn a_name_with_double_quotes_is_written_in_curly_quotes() {
        assert_eq!(quoted("say \"hi\"").as_deref(), Some("“say \"hi\"”"));
        assert_eq!(quoted("plain").as_deref(), Some("\"plain\""));
    }
}
