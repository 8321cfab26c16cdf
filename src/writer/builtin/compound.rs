//! Sentences that are several steps in one: `hover over "buy milk" and click its delete
//! button`, `double-click "buy milk", clear it, type "oat milk" and press Enter`, `complete "a"
//! and "b"`, `"No" is checked and "Yes" is unchecked`. They are tried only when the whole
//! sentence is no shape the generator can write. The sentence is cut at commas, semicolons,
//! `and` and `then` outside quotes; every clause must then be a shape of its own, and their
//! code runs in order in one step, so the step passes only when every clause holds.
//!
//! Pronouns are read from the clause before: `its X` is the X in the row or item that clause
//! named; `it` is that element after a hover, check or mark, and the element that has the
//! focus after a click, a double-click, typing or clearing (a double-click usually opens an
//! editor, and the keyboard goes where the focus is).
//!
//! This file only reads; `compound_code.rs` writes the clauses' code.
//!
//! Main function: [`read`] makes a sentence an `Intent::Clauses`.

use crate::writer::builtin::intent::{Clause as Said, ClauseAct, Decline, Intent, Literal};
use crate::writer::builtin::phrases::key_name;
use crate::writer::builtin::shape::Parse;
use crate::writer::builtin::tokens::{Tok, normalize, tokenize};

/// Verbs after which the element that matters is the one with the focus.
const FOCUSING: &[&str] = &[
    "click",
    "double-click",
    "doubleclick",
    "dblclick",
    "double",
    "tap",
    "type",
    "enter",
    "write",
    "input",
    "fill",
    "clear",
    "empty",
    "press",
    "hit",
    "focus",
];

/// Verbs that put text into the element with the focus when no field is named.
const TYPING: &[&str] = &["type", "enter", "write", "input", "fill"];

/// `sentence` read as clauses, each read with `parse`, or `None` when it has fewer than two
/// clauses or one of them is no shape (the caller's reason for the whole sentence then
/// stands).
pub(crate) fn read(
    sentence: &str,
    columns: &[String],
    parse: Parse,
) -> Option<Result<Intent, Decline>> {
    let parts = split(sentence);
    if parts.len() < 2 {
        return None;
    }
    let mut clauses = Vec::new();
    let mut before: Option<Clause> = None;
    for part in parts {
        let clause = Clause::read(&part, before.as_ref(), columns)?;
        let act = match &clause.focused {
            Some(focused) => focused.clone(),
            None => ClauseAct::Intent(parse(&clause.text, columns).ok()?),
        };
        clauses.push(Said {
            said: part.trim().to_owned(),
            act,
        });
        before = Some(clause);
    }
    Some(Ok(Intent::Clauses(clauses)))
}

/// One clause, as the grammar will read it.
struct Clause {
    /// The clause with its pronouns replaced and the verb it shares filled in.
    text: String,
    /// The clause's first word (its verb), lowercased.
    verb: String,
    /// The one quoted text the clause names, if it names exactly one.
    name: Option<String>,
    /// The prefix before the clause's first quote, for a next clause that is only values.
    prefix: String,
    /// What a clause that acts on the focused element does.
    focused: Option<ClauseAct>,
}

impl Clause {
    fn read(part: &str, before: Option<&Clause>, columns: &[String]) -> Option<Clause> {
        let mut text = part.trim().to_owned();
        let toks = normalize(tokenize(&text, columns));
        if toks.is_empty() {
            return None;
        }
        // `complete "a" and "b"`: a clause of values only shares the verb of the one before.
        if toks.iter().all(|t| matches!(t, Tok::Lit(_))) {
            let before = before.filter(|b| !b.prefix.trim().is_empty())?;
            text = format!("{}{text}", before.prefix);
        }
        // `fill the username with "a" and the password with "b"`: a clause `X with V` shares
        // the fill before it.
        if before.is_some_and(|b| b.verb == "fill")
            && !toks[0].is("fill")
            && matches!(toks.as_slice(), [_, .., with, Tok::Lit(_)] if with.is("with"))
        {
            text = format!("fill {text}");
        }
        let toks = normalize(tokenize(&text, columns));
        let words = |w: &str| toks.iter().any(|t| t.is(w));
        let focus_before = before.is_some_and(|b| FOCUSING.contains(&b.verb.as_str()));
        let named_before = before.and_then(|b| b.name.clone());
        let mut focused = None;
        if words("its") {
            // `click its delete button`: the button in the row the clause before named.
            let name = named_before.clone()?;
            text = format!("{} in {}", replace_word(&text, "its", "the"), quote(&name));
        } else if words("it") || words("them") {
            if focus_before {
                focused = Some(on_focused(&toks)?);
            } else {
                let name = named_before.clone()?;
                text = replace_word(
                    &replace_word(&text, "it", &quote(&name)),
                    "them",
                    &quote(&name),
                );
            }
        } else if focus_before && is_bare_typing(&toks) {
            focused = Some(on_focused(&toks)?);
        }
        let toks = normalize(tokenize(&text, columns));
        let verb = match toks.first() {
            Some(Tok::Word(w, _)) => w.clone(),
            _ => String::new(),
        };
        let literals: Vec<&String> = toks
            .iter()
            .filter_map(|t| match t {
                Tok::Lit(l) => Some(l),
                Tok::Word(..) => None,
            })
            .collect();
        let name = match literals.as_slice() {
            [one] => Some((*one).clone()),
            _ => None,
        };
        let prefix = match text.find(['"', '“', '\'']) {
            Some(at) => text[..at].to_owned(),
            None => String::new(),
        };
        Some(Clause {
            text,
            verb,
            name,
            prefix,
            focused,
        })
    }
}

/// `type "x"` with no field named (`instead` and `it` aside).
fn is_bare_typing(toks: &[Tok]) -> bool {
    let Some(Tok::Word(verb, _)) = toks.first() else {
        return false;
    };
    TYPING.contains(&verb.as_str())
        && toks[1..].iter().all(|t| {
            matches!(t, Tok::Lit(_)) || t.is("instead") || t.is("it") || t.is("in") || t.is("into")
        })
        && toks.iter().filter(|t| matches!(t, Tok::Lit(_))).count() == 1
}

/// The code of a clause that acts on the element with the focus: clear it, type into it, or
/// press a key in it. `None` for any other clause.
fn on_focused(toks: &[Tok]) -> Option<ClauseAct> {
    let Some(Tok::Word(verb, _)) = toks.first() else {
        return None;
    };
    let rest: Vec<Tok> = toks[1..]
        .iter()
        .filter(|t| {
            !["it", "instead", "in", "into", "on"]
                .iter()
                .any(|w| t.is(w))
        })
        .cloned()
        .collect();
    match verb.as_str() {
        "clear" | "empty" if rest.iter().all(|t| t.is("the") || t.is("field")) => {
            Some(ClauseAct::ClearFocused)
        }
        v if TYPING.contains(&v) => match rest.as_slice() {
            [Tok::Lit(value)] => Some(ClauseAct::FillFocused(Literal(value.clone()))),
            _ => None,
        },
        // `double-click "T" and change it to "U"`: the editor the double-click opened.
        "change" | "set" | "update" | "edit" => match rest.as_slice() {
            [to, Tok::Lit(value)] if to.is("to") => {
                Some(ClauseAct::FillFocused(Literal(value.clone())))
            }
            _ => None,
        },
        "press" | "hit" => key_name(&rest).map(ClauseAct::PressFocused),
        _ => None,
    }
}

/// `text` with the word `word` (outside quotes, any case) replaced by `with`.
fn replace_word(text: &str, word: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quote: Option<char> = None;
    let mut current = String::new();
    let flush = |current: &mut String, out: &mut String| {
        if current.eq_ignore_ascii_case(word) {
            out.push_str(with);
        } else {
            out.push_str(current);
        }
        current.clear();
    };
    for c in text.chars() {
        match quote {
            Some(close) => {
                out.push(c);
                if c == close {
                    quote = None;
                }
            }
            None if c == '"' || c == '“' => {
                flush(&mut current, &mut out);
                quote = Some(if c == '“' { '”' } else { '"' });
                out.push(c);
            }
            None if c.is_alphanumeric() || c == '-' || c == '\'' => current.push(c),
            None => {
                flush(&mut current, &mut out);
                out.push(c);
            }
        }
    }
    flush(&mut current, &mut out);
    out
}

/// `text` in double quotes, for a sentence (the tokenizer reads it back as one literal).
fn quote(text: &str) -> String {
    if text.contains('"') {
        format!("“{text}”")
    } else {
        format!("\"{text}\"")
    }
}

/// The clauses of `sentence`: cut at `,` and `;`, and at the words `and` and `then`, outside
/// quotes. Empty clauses are dropped.
pub(super) fn split(sentence: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let end_word = |word: &mut String, current: &mut String, parts: &mut Vec<String>| {
        let lower = word.to_lowercase();
        if lower == "and" || lower == "then" {
            parts.push(std::mem::take(current));
        } else {
            current.push_str(word);
        }
        word.clear();
    };
    for (at, c) in sentence.char_indices() {
        if let Some(close) = quote {
            current.push(c);
            if c == close {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '“' => {
                end_word(&mut word, &mut current, &mut parts);
                quote = Some(if c == '“' { '”' } else { '"' });
                current.push(c);
            }
            // A single quote opens a literal only at the start of a word, as in the tokenizer.
            '\'' if word.is_empty() && sentence[at + 1..].contains('\'') => {
                quote = Some('\'');
                current.push(c);
            }
            ',' | ';' => {
                end_word(&mut word, &mut current, &mut parts);
                parts.push(std::mem::take(&mut current));
            }
            c if c.is_whitespace() => {
                end_word(&mut word, &mut current, &mut parts);
                current.push(c);
            }
            c => word.push(c),
        }
    }
    end_word(&mut word, &mut current, &mut parts);
    parts.push(current);
    parts
        .into_iter()
        .map(|p| p.trim().to_owned())
        .filter(|p| !p.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::snapshot::Snapshot;
    use crate::writer::builtin::snapshot::fixtures::TODOS;

    fn write(sentence: &str) -> Result<String, String> {
        let snap = Snapshot::read(TODOS, "");
        match read(sentence, &[], crate::writer::builtin::shapes::parse) {
            Some(result) => result
                .and_then(|intent| crate::writer::builtin::codegen::lines_for(&intent, &snap))
                .map(crate::writer::builtin::codegen::step_function)
                .map_err(|d| d.0),
            None => Err("not clauses".to_owned()),
        }
    }

    fn lines(sentence: &str) -> Vec<String> {
        let code = write(sentence).unwrap_or_else(|why| panic!("{sentence}: {why}"));
        crate::writer::builtin::codegen::statements(&code)
    }

    #[test]
    fn clauses_are_cut_at_commas_and_and_then_outside_quotes() {
        assert_eq!(
            split("double-click \"a, b and c\", clear it, type \"x\" and then press Enter"),
            [
                "double-click \"a, b and c\"",
                "clear it",
                "type \"x\"",
                "press Enter"
            ]
        );
        assert_eq!(
            split("click 'Rock and roll' then wait"),
            ["click 'Rock and roll'", "wait"]
        );
        assert_eq!(split("it's done and gone"), ["it's done", "gone"]);
        assert_eq!(split("click Save"), ["click Save"]);
    }

    #[test]
    fn a_double_click_then_typing_acts_on_the_focused_editor() {
        assert_eq!(
            lines("double-click on \"buy milk\", clear it, type \"buy oat milk\" and press Enter"),
            [
                "await page.getByText('buy milk', { exact: true }).dblclick();",
                "await page.locator(':focus').clear();",
                "await page.locator(':focus').fill('buy oat milk');",
                "await page.keyboard.press('Enter');",
            ]
        );
        assert_eq!(
            lines("double-click \"buy milk\" and change it to \"bread\", then press Enter"),
            [
                "await page.getByText('buy milk', { exact: true }).dblclick();",
                "await page.locator(':focus').fill('bread');",
                "await page.keyboard.press('Enter');",
            ]
        );
        assert_eq!(
            lines("double-click \"buy milk\" and type \"bread\" instead, then press Escape in it"),
            [
                "await page.getByText('buy milk', { exact: true }).dblclick();",
                "await page.locator(':focus').fill('bread');",
                "await page.locator(':focus').press('Escape');",
            ]
        );
    }

    #[test]
    fn its_names_the_element_in_the_row_the_clause_before_named() {
        let code = lines("hover over \"walk the dog\" and click its delete button");
        assert_eq!(code.len(), 2, "{code:?}");
        assert!(code[0].ends_with(".hover();"), "{code:?}");
        assert!(
            code[1].contains("walk the dog") && code[1].contains("'button', { name: 'Delete'"),
            "{code:?}"
        );
    }

    #[test]
    fn a_clause_of_values_shares_the_verb_before_it() {
        let code = lines("check \"buy milk\" and \"walk the dog\"");
        assert_eq!(code.len(), 2, "{code:?}");
        assert!(
            code[0].contains("'buy milk'") && code[0].ends_with(".check();"),
            "{code:?}"
        );
        assert!(
            code[1].contains("'walk the dog'") && code[1].ends_with(".check();"),
            "{code:?}"
        );
    }

    #[test]
    fn checks_in_one_sentence_must_all_hold() {
        let code = lines("\"buy milk\" is unchecked and \"walk the dog\" is checked");
        assert_eq!(code.len(), 2, "{code:?}");
        assert!(code[0].contains("not.toBeChecked()"), "{code:?}");
        assert!(
            code[1].contains("toBeChecked()") && !code[1].contains("not."),
            "{code:?}"
        );
    }

    #[test]
    fn a_clause_the_page_cannot_satisfy_declines_with_its_reason() {
        let why = write("click \"Active\" and click \"Nowhere\"").unwrap_err();
        assert!(
            why.starts_with("in \"click \\\"Nowhere\\\"\": ") || why.contains("Nowhere"),
            "{why}"
        );
        // A clause that is no shape, or a pronoun with nothing before it, is not read as clauses.
        assert_eq!(
            write("click \"Active\" and make it faster"),
            Err("not clauses".into())
        );
        assert_eq!(
            write("it is shown and \"Active\" is shown"),
            Err("not clauses".into())
        );
        assert_eq!(write("\"a\" and \"b\""), Err("not clauses".into()));
    }
}
