//! Where an element is drawn in relation to another: `a delete button appears on the right side
//! of "buy milk"`, `the logo is above the "Sign in" heading`, `"Total" is to the left of "42"`.
//! Each is a check of both elements' boxes (`place_code.rs` writes it).
//!
//! Main function: [`shape`].

use crate::writer::builtin::intent::{Decline, Intent, Relation};
use crate::writer::builtin::phrases::target;
use crate::writer::builtin::tokens::{Tok, find, starts};

/// The verbs that say where an element is, with the participles that may follow them (`is
/// shown on the left side of`).
pub(crate) const PLACING: &[&str] = &["appears", "appear", "is", "are", "sits", "stands"];
pub(crate) const PARTICIPLES: &[&str] = &[
    "shown",
    "displayed",
    "visible",
    "located",
    "positioned",
    "placed",
    "drawn",
    "rendered",
];

/// The words that start a relative clause.
const RELATIVE: &[&str] = &["that", "which", "who", "where"];

/// The relation words that follow the verb, each with the relation it names; the element it
/// is placed against follows them.
pub(crate) const RELATIONS: &[(&[&str], Relation)] = &[
    (&["on", "the", "right", "side", "of"], Relation::RightSide),
    (
        &["on", "the", "right-hand", "side", "of"],
        Relation::RightSide,
    ),
    (
        &["on", "the", "right", "hand", "side", "of"],
        Relation::RightSide,
    ),
    (&["at", "the", "right", "side", "of"], Relation::RightSide),
    (&["on", "the", "left", "side", "of"], Relation::LeftSide),
    (
        &["on", "the", "left-hand", "side", "of"],
        Relation::LeftSide,
    ),
    (
        &["on", "the", "left", "hand", "side", "of"],
        Relation::LeftSide,
    ),
    (&["at", "the", "left", "side", "of"], Relation::LeftSide),
    (&["to", "the", "right", "of"], Relation::RightOf),
    (&["right", "of"], Relation::RightOf),
    (&["to", "the", "left", "of"], Relation::LeftOf),
    (&["left", "of"], Relation::LeftOf),
    (&["above"], Relation::Above),
    (&["below"], Relation::Below),
];

/// `X appears / is (shown) on the right side of Y`, `X is to the left of Y`, `X is above Y`.
/// `None` when the sentence names no such relation after its verb; a negated placement
/// declines, since "not to the right of" says where the element is not and the boxes would
/// have to be read every other way.
pub(crate) fn shape(toks: &[Tok]) -> Option<Result<Intent, Decline>> {
    let verb = find(toks, PLACING)?;
    // `click the button that is to the left of "Save"`: the placing verb is in a clause about
    // the element an action names, which the action's shapes read.
    if toks[..verb]
        .iter()
        .any(|t| RELATIVE.iter().any(|w| t.is(w)))
    {
        return None;
    }
    let mut rest = &toks[verb + 1..];
    let negated = rest.first().is_some_and(|t| t.is("not"));
    if negated {
        rest = &rest[1..];
    }
    if rest
        .first()
        .is_some_and(|t| PARTICIPLES.iter().any(|w| t.is(w)))
    {
        rest = &rest[1..];
    }
    let (length, relation) = RELATIONS
        .iter()
        .filter_map(|(words, relation)| starts(rest, words).map(|n| (n, *relation)))
        .max_by_key(|(n, _)| *n)?;
    if negated {
        return Some(Err(Decline::new(
            "a placement is read only as where an element is, not where it is not",
        )));
    }
    let (subject, of) = (&toks[..verb], &rest[length..]);
    if subject.is_empty() || of.is_empty() {
        return None;
    }
    Some(target(subject).and_then(|subject| {
        Ok(Intent::Placed {
            subject,
            relation,
            of: target(of)?,
        })
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::tokens::{normalize, tokenize};

    fn read(sentence: &str) -> Option<Result<Intent, Decline>> {
        shape(&normalize(tokenize(sentence, &[])))
    }

    fn relation(sentence: &str) -> Relation {
        match read(sentence) {
            Some(Ok(Intent::Placed { relation, .. })) => relation,
            other => panic!("{sentence}: {other:?}"),
        }
    }

    #[test]
    fn each_relation_is_read_with_its_words() {
        for (sentence, expected) in [
            (
                r#"a delete button appears on the right side of "buy milk""#,
                Relation::RightSide,
            ),
            (
                r#"the "Save" button is shown on the left-hand side of the form"#,
                Relation::LeftSide,
            ),
            (r#""Total" is to the left of "42""#, Relation::LeftOf),
            (r#""42" is right of "Total""#, Relation::RightOf),
            (
                r#"the logo is above the "Sign in" heading"#,
                Relation::Above,
            ),
            (r#"the footer is displayed below the list"#, Relation::Below),
        ] {
            assert_eq!(relation(sentence), expected, "{sentence}");
        }
    }

    #[test]
    fn both_elements_are_read_as_targets() {
        let Some(Ok(Intent::Placed { subject, of, .. })) =
            read(r#"a delete button appears on the right side of "buy milk""#)
        else {
            panic!("not read");
        };
        assert_eq!(subject.name.as_deref(), Some("delete"));
        assert_eq!(of.name.as_deref(), Some("buy milk"));
        assert!(of.quoted);
    }

    #[test]
    fn a_negated_placement_declines_and_other_sentences_are_not_read() {
        assert!(matches!(
            read(r#""Total" is not to the left of "42""#),
            Some(Err(_))
        ));
        // No relation after the verb, or nothing placed or placed against.
        assert!(read(r#""buy milk" is shown"#).is_none());
        assert!(read(r#"the button is on the page"#).is_none());
        assert!(read(r#"is to the left of "42""#).is_none());
        assert!(read(r#"click the button to the left of "Save""#).is_none());
        assert!(read(r#"click the button that is to the left of "Save""#).is_none());
    }
}
