//! Dropdowns and search boxes named by what they choose: `set the category to Vegetables`,
//! `choose the Soup category and apply the filter`, `search for "peas"`, `the category dropdown
//! is set to "All"`. The value needs no quotes because it must be one of the dropdown's options
//! as the page lists them; a compound `... and click X` selects, then clicks. A message said
//! to appear (`the message "No results" appears`) is the page showing its text.
//!
//! Main function: [`read`] makes a sentence an `Intent::Choice`, which the registry
//! (`shapes.rs`) tries after the word shapes, and after any of them declined a sentence;
//! `choice_code.rs` finds the dropdown, search box or button on the page and writes the code.

use crate::writer::builtin::intent::{Choice, Decline, Intent, Literal, Then};
use crate::writer::builtin::shape::Parse;
use crate::writer::builtin::tokens::{Tok, find, verb};

/// The words that may name a search box after `in` (`in the search box`).
const SEARCH_BOX_WORDS: &[&str] = &[
    "the", "search", "box", "field", "bar", "input", "term", "textbox",
];

/// Verbs that start the second action of a compound step.
const THEN_VERBS: &[&str] = &["click", "press", "hit", "tap", "apply", "submit"];

/// What a sentence about a dropdown or a search box asks for, or `None` when it is neither.
/// A compound choice's second action (`and click Filter`) is read with `parse`.
pub(crate) fn read(t: &[Tok], parse: Parse) -> Option<Result<Intent, Decline>> {
    if let Some(rest) = verb(t, &[&["search", "for"], &["search"]]) {
        let value = text(rest);
        if value.is_empty() {
            return Some(Err(Decline::new("what to search for is missing")));
        }
        return Some(Ok(Intent::Choice(Choice::Search(value))));
    }
    // `type "beans" in the search box [and click X]`: the box that searches, among other
    // fields. Every word after `in` must name the box, so that a second action is never
    // dropped: it is written after the typing, or the sentence is not this shape.
    if let Some(rest) = verb(t, &[&["type"], &["enter"], &["input"], &["write"]])
        && let Some(at) = find(rest, &["in", "into", "inside"])
        && let [Tok::Lit(value)] = &rest[..at]
    {
        let (noun, then) = split_then(&rest[at + 1..]);
        if noun.iter().any(|w| w.is("search"))
            && noun
                .iter()
                .all(|w| SEARCH_BOX_WORDS.iter().any(|n| w.is(n)))
        {
            let then = match then.map(|then| then_action(then, parse)).transpose() {
                Ok(then) => then,
                Err(decline) => return Some(Err(decline)),
            };
            return Some(Ok(Intent::Choice(Choice::SearchField {
                value: value.clone(),
                then,
            })));
        }
    }
    if let [the, m, Tok::Lit(value), rest @ ..] = t
        && (the.is("the") || the.is("a"))
        && (m.is("message") || m.is("text") || m.is("notice") || m.is("error"))
        && (matches!(rest, [w] if w.is("appears") || w.is("appear"))
            || matches!(rest, [is, w] if is.is("is") && (w.is("shown") || w.is("displayed"))))
    {
        return Some(Ok(Intent::PageShows(Literal(value.clone()))));
    }
    if let Some(rest) = verb(t, &[&["set"], &["change"]]) {
        let (choice, then) = split_then(rest);
        let to = find(choice, &["to"])?;
        let noun: Vec<Tok> = choice[..to]
            .iter()
            .filter(|w| !w.is("back"))
            .cloned()
            .collect();
        return Some(pick(&noun, &choice[to + 1..], then, parse));
    }
    if let Some(rest) = verb(t, &[&["select"], &["choose"], &["pick"]]) {
        let (choice, then) = split_then(rest);
        if let Some(at) = find(choice, &["as", "in", "from", "for"]) {
            return Some(pick(&choice[at + 1..], &choice[..at], then, parse));
        }
        // `choose the Soup category`: the last word is the dropdown's noun.
        let words: Vec<Tok> = choice.iter().filter(|w| !w.is("the")).cloned().collect();
        if words.len() < 2 {
            return None;
        }
        let (value, noun) = words.split_at(words.len() - 1);
        return Some(pick(noun, value, then, parse));
    }
    let at = find(t, &["is"])?;
    let rest = &t[at + 1..];
    let value = match rest {
        [s, to, value @ ..] if s.is("set") && to.is("to") => value,
        _ => return None,
    };
    Some(Ok(Intent::Choice(Choice::Chosen {
        noun: t[..at].to_vec(),
        value: text(value),
    })))
}

/// `... and click X`: the choice, and the action after it.
fn split_then(rest: &[Tok]) -> (&[Tok], Option<&[Tok]>) {
    for (at, w) in rest.iter().enumerate() {
        if w.is("and")
            && rest
                .get(at + 1)
                .is_some_and(|v| THEN_VERBS.iter().any(|x| v.is(x)))
        {
            return (&rest[..at], Some(&rest[at + 1..]));
        }
    }
    (rest, None)
}

/// The words as written, one space between them.
pub(crate) fn text(toks: &[Tok]) -> String {
    toks.iter()
        .map(|t| match t {
            Tok::Word(_, orig) => orig.clone(),
            Tok::Lit(l) => l.clone(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `set the category to Soup (and apply the filter)`: the choice of `value` in the dropdown
/// `noun` names, and the action after it.
fn pick(
    noun: &[Tok],
    value: &[Tok],
    then: Option<&[Tok]>,
    parse: Parse,
) -> Result<Intent, Decline> {
    let value = text(value);
    if value.is_empty() {
        return Err(Decline::new("the option to choose is missing"));
    }
    let then = then.map(|then| then_action(then, parse)).transpose()?;
    Ok(Intent::Choice(Choice::Pick {
        noun: noun.to_vec(),
        value,
        then,
    }))
}

/// The second action of a compound step: `click X` as its own step would, or `apply the
/// filter` / `submit`: the one button whose name holds the words.
fn then_action(then: &[Tok], parse: Parse) -> Result<Then, Decline> {
    if then[0].is("apply") || then[0].is("submit") {
        let words: Vec<String> = then
            .iter()
            .skip(1)
            .filter(|w| !w.is("the") && !w.is("form"))
            .map(|w| text(std::slice::from_ref(w)))
            .map(|w| w.trim_end_matches('s').to_owned())
            .collect();
        return Ok(Then::Button {
            verb: text(&then[..1]),
            words,
            said: text(then),
        });
    }
    let sentence = then
        .iter()
        .map(|t| match t {
            Tok::Word(_, orig) => orig.clone(),
            Tok::Lit(l) => format!("\"{l}\""),
        })
        .collect::<Vec<_>>()
        .join(" ");
    Ok(Then::Act(Box::new(parse(&sentence, &[])?)))
}
