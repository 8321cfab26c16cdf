//! Which sentences are checks: one that reads the page as a whole ([`reads_as_check`]), and the
//! first clause of a sentence that is one ([`check_clause`]), which an optional step may not
//! have and the mutation proof looks for.
//!
//! Main functions: [`reads_as_check`] and [`check_clause`].

use crate::writer::builtin::compound::split;
use crate::writer::builtin::forms::is_check;
use crate::writer::builtin::shapes::parse;
use crate::writer::builtin::tokens::{said_as_check, tokenize};

/// Whether `sentence` reads as a check: one of the built-in shapes that only reads the page
/// (`the banner is shown`, `the title is "x"`). A sentence no shape reads is not called a check:
/// nothing says it is one. `columns` are the examples table's columns.
pub(crate) fn reads_as_check(sentence: &str, columns: &[String]) -> bool {
    parse(sentence, columns).is_ok_and(|intent| is_check(&intent))
}

/// The first part of `sentence` that is a check, when any is: the whole sentence when it reads
/// as a check or is said as one (`expect the payment to be visible`), else the first of its
/// clauses (cut as compound sentences are, at commas, `and` and `then`) that does. A clause
/// that states a condition (`if the banner is shown`) is no check. `columns` are the examples
/// table's columns.
pub(crate) fn check_clause(sentence: &str, columns: &[String]) -> Option<String> {
    const CONDITIONS: &[&str] = &[
        "if", "when", "whenever", "unless", "once", "while", "whether",
    ];
    let is_check = |part: &str| {
        let toks = tokenize(part, columns);
        let condition = toks
            .first()
            .is_some_and(|t| CONDITIONS.iter().any(|w| t.is(w)));
        !condition && (said_as_check(toks) || reads_as_check(part, columns))
    };
    std::iter::once(sentence.trim().to_owned())
        .chain(split(sentence))
        .find(|part| is_check(part))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_read_as_checks_and_actions_and_unread_sentences_do_not() {
        for sentence in [
            "the \"Accept\" button is shown",
            "the page shows \"Welcome\"",
            "the title is \"Shop\"",
            "\"No\" is checked and \"Yes\" is unchecked",
        ] {
            assert!(reads_as_check(sentence, &[]), "{sentence}");
        }
        for sentence in [
            "click \"Accept\"",
            "accept the cookie banner",
            "type \"x\" into the \"Name\" field",
            "",
        ] {
            assert!(!reads_as_check(sentence, &[]), "{sentence}");
        }
    }

    #[test]
    fn a_check_clause_is_found_in_any_part_of_a_sentence() {
        for (sentence, clause) in [
            ("the page says \"Paid\"", "the page says \"Paid\""),
            (
                "click \"Show payment\" and the page says \"Paid\"",
                "the page says \"Paid\"",
            ),
            (
                "click \"Show payment\", then the payment is shown",
                "the payment is shown",
            ),
            (
                "expect the payment to be visible",
                "expect the payment to be visible",
            ),
            (
                "please verify that the total is right",
                "please verify that the total is right",
            ),
            (
                "open the menu and check that \"Log out\" is there",
                "check that \"Log out\" is there",
            ),
        ] {
            assert_eq!(
                check_clause(sentence, &[]).as_deref(),
                Some(clause),
                "{sentence}"
            );
        }
        for sentence in [
            "click \"Accept\"",
            "accept the cookie banner",
            "click \"Save and continue\"",
            "check \"buy milk\" and \"walk the dog\"",
            "dismiss the banner if there is one",
            "type \"x\" into the \"Name\" field and press Enter",
        ] {
            assert_eq!(check_clause(sentence, &[]), None, "{sentence}");
        }
    }
}
