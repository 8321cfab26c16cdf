//! The words of a sentence as the built-in grammar reads them: the sentence's [`Tok`]ens (from
//! `writer/sentence.rs`, the one tokenizer) with politeness, fillers and `should` forms
//! normalized away, and the small matchers the shapes of the registry (`shapes.rs`) are written
//! with.
//!
//! Main function: [`normalize`].

pub(crate) use crate::writer::{Tok, tokenize};

/// The verbs that say a sentence is a check (`Verify that X`, `Ensure X`, `expect X to be
/// shown`); `check` says so only before `that`, since `check "x"` ticks a box.
const CHECK_VERBS: &[&str] = &[
    "verify", "ensure", "confirm", "assert", "expect", "validate",
];

/// Drops the politeness and fillers that may start a sentence.
fn drop_leading(toks: &mut Vec<Tok>) {
    const LEADING: &[&str] = &[
        "please", "then", "and", "now", "next", "finally", "first", "i", "we", "you", "user",
        "also", "lastly",
    ];
    while toks
        .first()
        .is_some_and(|t| LEADING.iter().any(|w| t.is(w)))
        || (toks.len() > 1 && toks[0].is("the") && toks[1].is("user"))
    {
        let n = if toks[0].is("the") { 2 } else { 1 };
        toks.drain(..n);
    }
}

/// Drops the check verbs that start `toks` ([`CHECK_VERBS`], `check that`), and says whether
/// there was one: the sentence is a check, said as one.
fn drop_check_verbs(toks: &mut Vec<Tok>) -> bool {
    let mut said = false;
    while toks
        .first()
        .is_some_and(|t| CHECK_VERBS.iter().any(|w| t.is(w)))
        || (toks.len() > 1 && toks[0].is("check") && toks[1].is("that"))
    {
        said = true;
        toks.remove(0);
        if toks.first().is_some_and(|t| t.is("that")) {
            toks.remove(0);
        }
    }
    said
}

/// Whether `toks` start with a verb that says they are a check (`expect the payment to be
/// visible`, `verify that ...`), politeness aside, whatever follows.
pub(crate) fn said_as_check(mut toks: Vec<Tok>) -> bool {
    drop_leading(&mut toks);
    drop_check_verbs(&mut toks)
}

/// Drops politeness and fillers, and reads `should` forms as the plain ones.
pub(crate) fn normalize(toks: Vec<Tok>) -> Vec<Tok> {
    let mut toks: Vec<Tok> = toks;
    drop_leading(&mut toks);
    // `Verify that X`, `Check that X`, `Ensure X`: a check, said as one.
    drop_check_verbs(&mut toks);
    while toks.last().is_some_and(|t| t.is("please")) {
        toks.pop();
    }
    // `should still be`, `is now shown`, `is not completed anymore`: words of time say nothing
    // a check can test.
    let toks: Vec<Tok> = toks
        .into_iter()
        .enumerate()
        .filter(|(at, t)| {
            *at == 0
                || !["still", "currently", "now", "again", "anymore"]
                    .iter()
                    .any(|w| t.is(w))
        })
        .map(|(_, t)| t)
        .collect();
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        let next = toks.get(i + 1);
        let word = |w: &str| Tok::Word(w.to_owned(), w.to_owned());
        if t.is("should") || t.is("must") || t.is("will") {
            match next {
                Some(n) if n.is("be") => {
                    out.push(word("is"));
                    i += 2;
                }
                Some(n) if n.is("not") && toks.get(i + 2).is_some_and(|b| b.is("be")) => {
                    out.push(word("is"));
                    out.push(word("not"));
                    i += 3;
                }
                Some(Tok::Word(w, _)) => {
                    let third = match w.as_str() {
                        "have" => "has",
                        "show" => "shows",
                        "contain" => "contains",
                        "display" => "displays",
                        "say" => "says",
                        "read" => "reads",
                        "see" => "see",
                        _ => w.as_str(),
                    };
                    out.push(word(third));
                    i += 2;
                }
                _ => i += 1,
            }
            continue;
        }
        if (t.is("still") || t.is("now") || t.is("currently")) && !out.is_empty() {
            i += 1;
            continue;
        }
        if t.is("are") {
            out.push(word("is"));
        } else if [
            "disappears",
            "disappear",
            "disappeared",
            "vanishes",
            "vanish",
        ]
        .iter()
        .any(|w| t.is(w))
        {
            // `the "Clear completed" button disappears`: it is hidden.
            out.push(word("is"));
            out.push(word("hidden"));
        } else if (t.is("goes") || t.is("go")) && next.is_some_and(|n| n.is("away")) {
            out.push(word("is"));
            out.push(word("hidden"));
            i += 1;
        } else if t.is("isn't") || t.is("aren't") {
            out.push(word("is"));
            out.push(word("not"));
        } else if t.is("doesn't") || t.is("don't") || t.is("doesn’t") || t.is("don’t") {
            out.push(word("not"));
        } else if (t.is("does") || t.is("do")) && next.is_some_and(|n| n.is("not")) {
            // `does not show`: the verb is in its plain form after `not`.
            i += 1;
            continue;
        } else {
            out.push(t.clone());
        }
        i += 1;
    }
    out
}

pub(crate) fn words_are(toks: &[Tok], words: &[&str]) -> bool {
    toks.len() == words.len() && toks.iter().zip(words).all(|(t, w)| t.is(w))
}

pub(crate) fn starts(toks: &[Tok], words: &[&str]) -> Option<usize> {
    (toks.len() >= words.len() && toks.iter().zip(words).all(|(t, w)| t.is(w)))
        .then_some(words.len())
}

/// The first verb form of `forms` the tokens start with, and the rest.
pub(crate) fn verb<'t>(toks: &'t [Tok], forms: &[&[&str]]) -> Option<&'t [Tok]> {
    forms
        .iter()
        .filter_map(|form| starts(toks, form))
        .max()
        .map(|n| &toks[n..])
}

/// The position of the first of `words` in `toks`.
pub(crate) fn find(toks: &[Tok], words: &[&str]) -> Option<usize> {
    toks.iter().position(|t| words.iter().any(|w| t.is(w)))
}

pub(crate) fn skip<'t>(toks: &'t [Tok], words: &[&str]) -> &'t [Tok] {
    match toks.first() {
        Some(first) if words.iter().any(|w| first.is(w)) => &toks[1..],
        _ => toks,
    }
}
