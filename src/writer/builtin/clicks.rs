//! What may follow the element of a click or a key press: how many times it is done (`three
//! times`, `twice`) and, for a click, the dialog it opens and how that is answered (`and dismiss
//! it`, `and answer "hello"`). Each is read into an [`Intent`] wrapping the action, so no word
//! of them is dropped.
//!
//! Main functions: [`times`] and [`dialog_clause`].

use crate::writer::builtin::intent::{Answer, Cause, Decline, DialogKind, Intent, Literal};
use crate::writer::builtin::phrases::literal;
use crate::writer::builtin::tokens::Tok;

/// The most repetitions a sentence may ask for: more is no step a person would do by hand.
const MOST_TIMES: usize = 20;

/// The number words a count may be written with, from one.
pub(crate) const NUMBERS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];

/// The count that ends `toks` (`twice`, `3 times`, `three times`), and the words before it;
/// `None` when they end with no count, and a decline when the count is not one it writes.
pub(crate) fn times(toks: &[Tok]) -> Option<Result<(usize, &[Tok]), Decline>> {
    let last = toks.last()?;
    let (count, before) = if last.is("once") {
        (1, &toks[..toks.len() - 1])
    } else if last.is("twice") {
        (2, &toks[..toks.len() - 1])
    } else if last.is("thrice") {
        (3, &toks[..toks.len() - 1])
    } else if (last.is("times") || last.is("time")) && toks.len() >= 2 {
        let Tok::Word(word, _) = &toks[toks.len() - 2] else {
            return None;
        };
        let count = NUMBERS
            .iter()
            .position(|n| n == word)
            .map(|at| at + 1)
            .or_else(|| word.parse::<usize>().ok())?;
        (count, &toks[..toks.len() - 2])
    } else {
        return None;
    };
    if count == 0 || count > MOST_TIMES {
        return Some(Err(Decline::new(format!(
            "the built-in generator repeats an action 1 to {MOST_TIMES} times, not {count}"
        ))));
    }
    Some(Ok((count, before)))
}

/// `action` done `count` times (once is the action itself).
pub(crate) fn repeat(count: usize, action: Intent) -> Intent {
    if count == 1 {
        action
    } else {
        Intent::Repeat {
            times: count,
            action: Box::new(action),
        }
    }
}

/// The words that may name the dialog a clause answers (`dismiss it`, `accept the alert`);
/// those that name its kind are read by [`kind_of`].
pub(crate) const DIALOG_NOUNS: &[&str] = &[
    "it",
    "the",
    "alert",
    "confirm",
    "confirmation",
    "dialog",
    "prompt",
    "popup",
    "pop-up",
    "box",
    "js",
    "javascript",
    "browser",
];

/// The words that say a dialog's message follows (`the alert says "Hi"`, `accept the confirm
/// saying "Sure?"`), and the connectors that may go before them.
pub(crate) const SAYS: &[&str] = &[
    "says", "say", "saying", "reads", "reading", "shows", "showing", "asks", "asking",
];
pub(crate) const SAYS_CONNECTORS: &[&str] = &["that", "which"];

/// A dialog clause as read: how the dialog is answered, the kind the sentence names and the
/// message it quotes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DialogClause {
    pub answer: Answer,
    pub kind: DialogKind,
    pub message: Option<Literal>,
}

/// The kind a dialog noun names; `None` for the words that name any dialog or none.
fn kind_of(word: &Tok) -> Option<DialogKind> {
    if word.is("alert") {
        Some(DialogKind::Alert)
    } else if word.is("confirm") || word.is("confirmation") {
        Some(DialogKind::Confirm)
    } else if word.is("prompt") {
        Some(DialogKind::Prompt)
    } else {
        None
    }
}

/// Whether `words` name a dialog (a kind, or `dialog`, `popup`), not only `it` or `the`.
fn names_a_dialog(words: &[Tok]) -> bool {
    words
        .iter()
        .any(|t| kind_of(t).is_some() || ["dialog", "popup", "pop-up"].iter().any(|w| t.is(w)))
}

/// `... and dismiss it`, `... and accept the alert`, `... and press OK`, `... and answer
/// "hello"`, `... and the alert says "Hi"`: the dialog clause after `and` at the end of a
/// click's words, and the words before it. `None` when the words have no such clause; a
/// decline when the clause has words it does not read.
pub(crate) fn dialog_clause(toks: &[Tok]) -> Option<Result<(DialogClause, &[Tok]), Decline>> {
    let and = toks.iter().rposition(|t| t.is("and"))?;
    let clause = &toks[and + 1..];
    let verb = clause.first()?;
    let rest = &clause[1..];
    let answer = if verb.is("accept") || verb.is("confirm") || verb.is("approve") {
        match rest.iter().rposition(|t| t.is("with")) {
            Some(with) => reply(&rest[with + 1..]).map(|answer| (answer, &rest[..with])),
            None => Ok((Answer::Accept, rest)),
        }
    } else if verb.is("close") && rest.is_empty() {
        // `click Save and Close` names one button; `and close it` closes a dialog.
        return None;
    } else if verb.is("dismiss") || verb.is("cancel") || verb.is("close") || verb.is("decline") {
        Ok((Answer::Dismiss, rest))
    } else if verb.is("answer") || verb.is("reply") {
        // `answer "hello"`, `answer the prompt with "hello"`: the last quote is the reply.
        let at = rest
            .iter()
            .rposition(|t| matches!(t, Tok::Lit(_)))
            .unwrap_or(rest.len());
        let with = rest[..at].iter().rposition(|t| t.is("with"));
        let object = &rest[..with.unwrap_or(at)];
        let between = with.map_or(&rest[at..at], |with| &rest[with + 1..at]);
        return Some(reply(&rest[at..]).and_then(|answer| {
            nothing_else(between)?;
            clause_of(answer, object, &toks[..and])
        }));
    } else if verb.is("press") || verb.is("click") || verb.is("hit") || verb.is("tap") {
        // `and press OK`: the dialog's own buttons, named as browsers label them.
        match rest {
            [button] if button.is("ok") || button.is("okay") => Ok((Answer::Accept, &rest[1..])),
            [button] if button.is("cancel") => Ok((Answer::Dismiss, &rest[1..])),
            _ => return None,
        }
    } else if clause.iter().any(|t| SAYS.iter().any(|w| t.is(w))) && names_a_dialog(clause) {
        // `and the alert says "Hi"`: an alert has one answer, OK; any other dialog needs the
        // sentence to say how it is answered.
        return Some(object(clause).and_then(|(kind, message)| {
            if kind != DialogKind::Alert {
                return Err(Decline::new(
                    "say how the dialog is answered (`and accept it`, `and dismiss it`); only \
                     an alert has one answer",
                ));
            }
            Ok((
                DialogClause {
                    answer: Answer::Accept,
                    kind,
                    message,
                },
                &toks[..and],
            ))
        }));
    } else {
        return None;
    };
    Some(answer.and_then(|(answer, object)| clause_of(answer, object, &toks[..and])))
}

/// The clause of `answer`, with the kind and message `words` (the answer's object) name.
fn clause_of<'t>(
    answer: Answer,
    words: &[Tok],
    before: &'t [Tok],
) -> Result<(DialogClause, &'t [Tok]), Decline> {
    let (kind, message) = object(words)?;
    if matches!(answer, Answer::Reply(_)) && matches!(kind, DialogKind::Alert | DialogKind::Confirm)
    {
        return Err(Decline::new(
            "only a prompt is answered with a text; an alert or a confirm is accepted or dismissed",
        ));
    }
    Ok((
        DialogClause {
            answer,
            kind,
            message,
        },
        before,
    ))
}

/// The kind of dialog `words` name and the message they quote (`the confirm saying "Sure?"`).
fn object(words: &[Tok]) -> Result<(DialogKind, Option<Literal>), Decline> {
    let (nouns, message) = match words.iter().position(|t| SAYS.iter().any(|w| t.is(w))) {
        Some(at) => {
            let said = &words[at + 1..];
            let [Tok::Lit(text)] = said else {
                return Err(Decline::new(
                    "write what the dialog says in quotes, and nothing after it",
                ));
            };
            let mut nouns = &words[..at];
            while nouns
                .last()
                .is_some_and(|t| SAYS_CONNECTORS.iter().any(|w| t.is(w)))
            {
                nouns = &nouns[..nouns.len() - 1];
            }
            (nouns, Some(Literal(text.clone())))
        }
        None => (words, None),
    };
    nothing_else(nouns)?;
    let mut kinds: Vec<DialogKind> = nouns.iter().filter_map(kind_of).collect();
    kinds.dedup();
    match kinds.as_slice() {
        [] => Ok((DialogKind::Any, message)),
        [one] => Ok((*one, message)),
        _ => Err(Decline::new(
            "a dialog is one kind: an alert, a confirm or a prompt",
        )),
    }
}

/// The reply a prompt is answered with: one quoted value and nothing after it.
fn reply(toks: &[Tok]) -> Result<Answer, Decline> {
    let Literal(text) = literal(toks)?;
    match toks {
        [_] => Ok(Answer::Reply(Literal(text))),
        [_, after @ ..] => nothing_else(after).map(|()| Answer::Reply(Literal(text))),
        [] => Err(Decline::new("write the prompt's answer in quotes")),
    }
}

/// Declines when a dialog clause's object has a word that does not name a dialog.
fn nothing_else(object: &[Tok]) -> Result<(), Decline> {
    let left: Vec<&str> = object
        .iter()
        .filter(|t| !DIALOG_NOUNS.iter().any(|w| t.is(w)))
        .map(|t| match t {
            Tok::Word(_, orig) => orig.as_str(),
            Tok::Lit(text) => text.as_str(),
        })
        .collect();
    if left.is_empty() {
        return Ok(());
    }
    Err(Decline::of(
        Cause::UnreadWords,
        format!(
            "the built-in generator answers a dialog (accept, dismiss, answer \"text\") and did \
             not read \"{}\" in that clause",
            left.join(" ")
        ),
    ))
}

#[cfg(test)]
mod tests {
    use crate::writer::builtin::intent::{Answer, Cause, DialogKind, Intent, Literal};
    use crate::writer::builtin::kinds::Kind;
    use crate::writer::builtin::shapes::parse;

    fn intent(sentence: &str) -> Intent {
        parse(sentence, &[]).unwrap_or_else(|why| panic!("{sentence:?}: {}", why.0))
    }

    #[test]
    fn counts_repeat_the_action() {
        for (sentence, times) in [
            ("click \"Add Element\" three times", 3),
            ("click \"Add Element\" twice", 2),
            ("click the \"Add Element\" button 5 times", 5),
            ("press Tab twice", 2),
        ] {
            let Intent::Repeat { times: read, .. } = intent(sentence) else {
                panic!("{sentence:?} is not repeated: {:?}", intent(sentence))
            };
            assert_eq!(read, times, "{sentence:?}");
        }
        assert!(matches!(
            intent("click \"Add Element\" once"),
            Intent::Click { .. }
        ));
        let why = parse("click \"Add Element\" 50 times", &[]).unwrap_err();
        assert!(why.0.contains("not 50"), "{}", why.0);
        assert!(parse("click \"Add Element\" 0 times", &[]).is_err());
    }

    #[test]
    fn an_ordinal_counts_among_the_elements_of_that_name() {
        let Intent::Click { target, .. } = intent("click the first Delete button") else {
            panic!()
        };
        assert_eq!(
            (target.name.as_deref(), target.kind, target.nth),
            (Some("Delete"), Some(Kind::Button), Some(0))
        );
        let Intent::Click { target, .. } = intent("click the first button") else {
            panic!()
        };
        assert_eq!((target.name, target.nth), (None, Some(0)));
    }

    #[test]
    fn dialog_clauses_say_how_the_dialog_is_answered() {
        for (sentence, answer) in [
            ("click \"JS Confirm\" and dismiss it", Answer::Dismiss),
            (
                "click \"JS Confirm\" and cancel the confirm",
                Answer::Dismiss,
            ),
            ("click \"JS Alert\" and accept the alert", Answer::Accept),
            ("click \"JS Confirm\" and press OK", Answer::Accept),
            ("click \"JS Confirm\" and press Cancel", Answer::Dismiss),
            (
                "click \"JS Prompt\" and answer \"hello\"",
                Answer::Reply(Literal("hello".into())),
            ),
            (
                "click \"JS Prompt\" and answer the prompt with \"hi\"",
                Answer::Reply(Literal("hi".into())),
            ),
            (
                "click \"JS Prompt\" and accept it with \"hi\"",
                Answer::Reply(Literal("hi".into())),
            ),
        ] {
            let Intent::Dialog {
                answer: read,
                action,
                ..
            } = intent(sentence)
            else {
                panic!("{sentence:?} answers no dialog: {:?}", intent(sentence))
            };
            assert_eq!(read, answer, "{sentence:?}");
            assert!(matches!(*action, Intent::Click { .. }), "{sentence:?}");
        }
        // A button named with `and` is no dialog clause.
        assert!(matches!(
            intent("click Save and Close"),
            Intent::Click { .. }
        ));
    }

    /// A word no part of the shape read makes it decline, naming the word, instead of doing
    /// less than the sentence says.
    #[test]
    fn words_left_unread_decline_naming_them() {
        for (sentence, word) in [
            (
                "click \"Add Element\" and frobnicate it",
                "and frobnicate it",
            ),
            ("click \"Add Element\" quickly", "quickly"),
            ("click \"JS Confirm\" and dismiss it twice", "twice"),
            ("click the \"Save\" tile", "tile"),
        ] {
            let why = parse(sentence, &[]).unwrap_err();
            assert_eq!(why.1, Cause::UnreadWords, "{sentence:?}: {}", why.0);
            assert!(why.0.contains(word), "{sentence:?}: {}", why.0);
        }
        assert!(parse("click \"JS Confirm\" twice and dismiss it", &[]).is_err());
        // A naming word says the quote is the name, and the noun before it the kind.
        let Intent::Click { target, .. } = intent("click the button labeled \"Save\"") else {
            panic!()
        };
        assert_eq!(
            (target.name.as_deref(), target.kind),
            (Some("Save"), Some(Kind::Button))
        );
    }

    /// The kind a clause names and the message it quotes are read, to be checked.
    #[test]
    fn dialog_clauses_name_the_kind_and_the_message() {
        let hi = || Some(Literal("Hi".into()));
        for (sentence, answer, kind, message) in [
            (
                "click \"Go\" and accept the alert",
                Answer::Accept,
                DialogKind::Alert,
                None,
            ),
            (
                "click \"Go\" and dismiss the confirm box",
                Answer::Dismiss,
                DialogKind::Confirm,
                None,
            ),
            (
                "click \"Go\" and dismiss it",
                Answer::Dismiss,
                DialogKind::Any,
                None,
            ),
            (
                "click \"Go\" and accept the dialog",
                Answer::Accept,
                DialogKind::Any,
                None,
            ),
            (
                "click \"Go\" and the alert says \"Hi\"",
                Answer::Accept,
                DialogKind::Alert,
                hi(),
            ),
            (
                "click \"Go\" and accept the confirm that says \"Hi\"",
                Answer::Accept,
                DialogKind::Confirm,
                hi(),
            ),
            (
                "click \"Go\" and answer the prompt saying \"Hi\" with \"Bob\"",
                Answer::Reply(Literal("Bob".into())),
                DialogKind::Prompt,
                hi(),
            ),
        ] {
            assert_eq!(
                intent(sentence),
                Intent::Dialog {
                    action: Box::new(intent("click \"Go\"")),
                    answer,
                    kind,
                    message,
                },
                "{sentence:?}"
            );
        }
    }

    #[test]
    fn dialog_clauses_that_cannot_be_checked_as_said_decline() {
        for (sentence, says) in [
            (
                "click \"Go\" and the confirm says \"Hi\"",
                "how the dialog is answered",
            ),
            (
                "click \"Go\" and accept the alert with \"x\"",
                "only a prompt",
            ),
            ("click \"Go\" and accept the alert or the prompt", "or"),
            ("click \"Go\" and the alert says \"Hi\" loudly", "in quotes"),
            ("click \"Go\" and the alert says", "in quotes"),
        ] {
            let why = parse(sentence, &[]).unwrap_err();
            assert!(why.0.contains(says), "{sentence:?}: {}", why.0);
        }
    }

    #[test]
    fn right_click_is_the_context_click() {
        assert!(matches!(
            intent("right-click the \"Box\" button"),
            Intent::ContextClick(_)
        ));
        assert!(matches!(
            intent("right click on \"Box\""),
            Intent::ContextClick(_)
        ));
    }
}
