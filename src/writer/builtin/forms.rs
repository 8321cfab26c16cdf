//! The shapes of form tests: a field's validity (`the age field is invalid`), a field's
//! suggestions (`the fruit field suggests Banana, Cherry and Apple`), a field cleared and typed
//! into again (`clear the age field and type "12"`), a value changed (`change the age to 121`), a click
//! described further (`click Submit without filling anything in`), and two checks in one
//! sentence (`"No" is checked and "Yes" is unchecked`).
//!
//! Main functions: the readers of the form shapes, which the registry (`shapes.rs`) lists first;
//! `form_code.rs` writes the code of the intents they read.

use crate::writer::builtin::intent::{Decline, Intent, Literal};
use crate::writer::builtin::kinds::Kind;
use crate::writer::builtin::phrases::{literal, target};
use crate::writer::builtin::tokens::{Tok, find, verb};

/// A reader of one shape of a sentence's words: the registry's walk of its word shapes, which
/// the halves of two checks are read with. It is passed in because the registry lists the form
/// shapes.
pub(super) type ReadShape = fn(&[Tok]) -> Option<Result<Intent, Decline>>;

/// `clear the age field and type "12"`.
pub(super) fn clear_and_type(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let rest = verb(t, &[&["clear"], &["empty"]])?;
    let and = find(rest, &["and"])?;
    let value = verb(&rest[and + 1..], &[&["type"], &["enter"], &["write"]])?;
    Some(retype(&rest[..and], value))
}

/// `change the age to 121`, `set the age to "12"` (the field named without quotes).
pub(super) fn change_to(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let rest = verb(t, &[&["change"], &["set"], &["update"]])?;
    let to = find(rest, &["to"])?;
    if rest[..to].iter().any(|w| matches!(w, Tok::Lit(_))) {
        return None;
    }
    Some(change(&rest[..to], &rest[to + 1..]))
}

/// `click Submit without filling anything in`: what follows `without` says what the user
/// leaves undone, which is no action of the step.
pub(super) fn click_without(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let rest = verb(t, &[&["click"], &["tap"], &["press"], &["hit"]])?;
    let without = find(rest, &["without"]).filter(|&at| at > 0)?;
    Some(target(&rest[..without]).map(|target| Intent::Click {
        target,
        double: false,
    }))
}

/// `the form asks "Q" with the options A and B`.
pub(super) fn asks_with(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let at = find(t, &["asks"])?;
    let with = find(&t[at..], &["with"])?;
    Some(asks(&t[at + 1..at + with], &t[at + with + 1..]))
}

/// `the fruit field suggests A, B and C`.
pub(super) fn suggests_values(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let at = find(t, &["suggests", "offers", "proposes"])?;
    Some(suggests(&t[..at], &t[at + 1..]))
}

/// `the URL has no query string`, `the address has no "fruit=" in it`, `the URL does not
/// contain "x"`.
pub(super) fn url_lacks(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let rest = verb(
        t,
        &[
            &["the", "url"],
            &["the", "page", "url"],
            &["the", "address", "bar"],
            &["the", "address"],
            &["url"],
        ],
    )?;
    let rest = match rest {
        [h, n, rest @ ..] if h.is("has") && n.is("no") => rest,
        // `does not contain` is `not contain` once the tokens are normalized.
        [d, n, c, rest @ ..]
            if d.is("does")
                && n.is("not")
                && (c.is("contain") || c.is("include") || c.is("have")) =>
        {
            rest
        }
        [n, c, rest @ ..]
            if n.is("not")
                && ["contain", "contains", "include", "includes", "have", "has"]
                    .iter()
                    .any(|w| c.is(w)) =>
        {
            rest
        }
        _ => return None,
    };
    if let [q, s] = rest
        && q.is("query")
        && (s.is("string") || s.is("parameters"))
    {
        return Some(Ok(Intent::NoQuery));
    }
    Some(literal(rest).and_then(|value| {
        if value.0.contains("${") || value.0.starts_with('<') || value.0.trim().is_empty() {
            return Err(Decline::new(
                "the text the URL must not hold is written in the sentence",
            ));
        }
        Ok(Intent::UrlLacks(value))
    }))
}

/// `the form asks "Q" with the options Yes and No`.
fn asks(question: &[Tok], options: &[Tok]) -> Result<Intent, Decline> {
    let question = literal(question)?;
    let quoted = options.iter().any(|w| matches!(w, Tok::Lit(_)));
    let options: Vec<Literal> = options
        .iter()
        .filter_map(|w| match w {
            Tok::Lit(l) => Some(Literal(l.clone())),
            Tok::Word(w, orig)
                if !quoted
                    && !["and", "or", "the", "options", "answers", "choices"]
                        .contains(&w.as_str()) =>
            {
                Some(Literal(orig.clone()))
            }
            Tok::Word(..) => None,
        })
        .collect();
    if options.len() < 2 {
        return Err(Decline::new("write the answers the question offers"));
    }
    Ok(Intent::Asks { question, options })
}

/// `X is valid`, `X is (still) flagged as invalid`, `X is not valid`.
pub(super) fn validity(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let at = find(t, &["is"])?;
    const FILLERS: &[&str] = &[
        "flagged",
        "marked",
        "shown",
        "considered",
        "reported",
        "as",
        "still",
        "again",
        "now",
    ];
    let rest: Vec<&Tok> = t[at + 1..]
        .iter()
        .filter(|w| !FILLERS.iter().any(|f| w.is(f)))
        .collect();
    let valid = match rest.as_slice() {
        [w] if w.is("valid") => true,
        [w] if w.is("invalid") => false,
        [n, w] if n.is("not") && w.is("valid") => false,
        [n, w] if n.is("not") && w.is("invalid") => true,
        _ => return None,
    };
    Some(target(&t[..at]).map(|target| Intent::Validity { target, valid }))
}

/// `clear X and type V`.
fn retype(what: &[Tok], value: &[Tok]) -> Result<Intent, Decline> {
    let value = value_of(value)?;
    // `it` would be the field of an earlier step, which a step's code cannot know: the focus
    // is no sign of it, since a check's mutation proof takes the focus away.
    if let [w] = what
        && w.is("it")
    {
        return Err(Decline::new(
            "`it` names the element of an earlier step: name the field (`clear the age field and \
             type \"12\"`)",
        ));
    }
    let mut target = target(what)?;
    target.kind = target.kind.or(Some(Kind::Field));
    Ok(Intent::Retype { value, target })
}

/// `change the age to 121`: the field's value is replaced.
fn change(what: &[Tok], value: &[Tok]) -> Result<Intent, Decline> {
    let value = value_of(value)?;
    let mut target = target(what)?;
    target.kind = target.kind.or(Some(Kind::Field));
    Ok(Intent::Fill {
        value,
        target,
        then_press: None,
        keys: false,
    })
}

/// A typed value: one quoted literal, or a number as written.
fn value_of(toks: &[Tok]) -> Result<Literal, Decline> {
    match toks {
        [Tok::Word(w, orig)] if w.parse::<f64>().is_ok() => Ok(Literal(orig.clone())),
        _ => literal(toks),
    }
}

/// `the fruit field suggests Banana, Cherry and Apple`: the field's list offers exactly these.
fn suggests(subject: &[Tok], rest: &[Tok]) -> Result<Intent, Decline> {
    let mut target = target(subject)?;
    target.kind = target.kind.or(Some(Kind::Field));
    let quoted = rest.iter().any(|w| matches!(w, Tok::Lit(_)));
    let values: Vec<Literal> = rest
        .iter()
        .filter_map(|w| match w {
            Tok::Lit(l) => Some(Literal(l.clone())),
            // Unquoted, each word is one suggestion (commas are gone by now).
            Tok::Word(w, orig)
                if !quoted && !["and", "or", "the", "options"].contains(&w.as_str()) =>
            {
                Some(Literal(orig.clone()))
            }
            Tok::Word(..) => None,
        })
        .collect();
    if values.is_empty() {
        return Err(Decline::new("write the suggestions the field offers"));
    }
    Ok(Intent::Suggests { target, values })
}

/// `A and B`, where A and B are both checks: both are checked, in order.
pub(super) fn two_checks(t: &[Tok], shape: ReadShape) -> Option<Intent> {
    t.iter().enumerate().skip(1).find_map(|(at, w)| {
        if !w.is("and") || at + 1 >= t.len() {
            return None;
        }
        let left = shape(&t[..at])?.ok()?;
        let right = shape(&t[at + 1..])?.ok()?;
        (is_check(&left) && is_check(&right)).then(|| Intent::Both(vec![left, right]))
    })
}

/// Whether an intent only reads the page ([`Intent::reading`]).
pub(super) fn is_check(intent: &Intent) -> bool {
    intent.reading().is_check()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::shapes::parse;

    fn intent(sentence: &str) -> Intent {
        parse(sentence, &[]).unwrap_or_else(|why| panic!("{sentence:?}: {}", why.0))
    }

    #[test]
    fn validity_reads_flags_and_negations() {
        for (sentence, want) in [
            ("the age field is invalid", false),
            ("the age field is flagged as invalid", false),
            ("the age is still invalid", false),
            ("the age field is valid", true),
            ("the age field is not valid", false),
            ("the e-mail field should be valid again", true),
        ] {
            let Intent::Validity { valid, .. } = intent(sentence) else {
                panic!("{sentence}: {:?}", intent(sentence))
            };
            assert_eq!(valid, want, "{sentence}");
        }
    }

    #[test]
    fn two_checks_in_one_sentence() {
        let Intent::Both(parts) = intent("\"No\" is checked and \"Yes\" is unchecked") else {
            panic!()
        };
        assert_eq!(parts.len(), 2);
        assert!(parts.iter().all(is_check));
        // An action and a check are not two checks.
        assert!(!matches!(
            parse("click \"Add\" and \"Yes\" is checked", &[]),
            Ok(Intent::Both(_))
        ));
    }

    #[test]
    fn actions_of_forms() {
        assert!(matches!(
            intent("clear the age field and type \"12\""),
            Intent::Retype { .. }
        ));
        assert!(parse("clear it and type \"apple\"", &[]).is_err());
        let Intent::Fill { value, target, .. } = intent("change the age to 121") else {
            panic!()
        };
        assert_eq!(
            (value.0.as_str(), target.name.as_deref()),
            ("121", Some("age"))
        );
        let Intent::Click { target, .. } = intent("click Submit without filling anything in")
        else {
            panic!()
        };
        assert_eq!(target.name.as_deref(), Some("Submit"));
        let Intent::Suggests { values, .. } =
            intent("the favorite fruit field suggests Banana, Cherry and Apple")
        else {
            panic!()
        };
        assert_eq!(values.len(), 3);
    }
}
