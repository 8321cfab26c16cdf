//! `wait until "Hello World!" appears`, `wait for "It's gone!"`, `wait for the spinner to go
//! away`: a wait for a state of the page, written as the check of that state, which Playwright
//! retries until it holds or the step's timeout ends (so the wait is bounded by it and fails
//! when the state never comes).
//!
//! Main type: [`Wait`].

use crate::writer::builtin::forms::is_check;
use crate::writer::builtin::intent::{Decline, Intent, Literal};
use crate::writer::builtin::shape::{Example, Sentence, Shape};
use crate::writer::builtin::shape_examples as ex;
use crate::writer::builtin::tokens::{Tok, verb};

/// The words that start a wait.
const WAIT: &[&[&str]] = &[&["wait", "until"], &["wait", "till"], &["wait", "for"]];

/// The shape of a wait for a state: the check of the state after `wait until / for / till`.
pub(crate) struct Wait;

impl Shape for Wait {
    fn name(&self) -> &'static str {
        "wait until"
    }
    fn examples(&self) -> &'static [Example] {
        ex::WAIT
    }
    /// The check after the wait's words is the reading, and the wait is its retries.
    fn accountable<'t>(&self, toks: &'t [Tok]) -> &'t [Tok] {
        verb(toks, WAIT).unwrap_or(toks)
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        let rest = verb(s.toks, WAIT)?;
        // A text that is to appear is often not on the page yet: the page must come to show
        // it, wherever it appears.
        if let Some(text) = text_appearing(rest) {
            return Some(Ok(Intent::PageShows(text)));
        }
        let check = as_check(rest);
        Some(match (s.words)(&check) {
            Some(Ok(intent)) if is_check(&intent) => Ok(intent),
            Some(Err(decline)) => Err(decline),
            _ => Err(Decline::new(
                "the built-in generator waits for a state it can check: `wait until \"Saved\" \
                 appears`, `wait for the \"Next\" button to be enabled`",
            )),
        })
    }
}

/// `"It's back!" appears`, `"Saved" shows up`: the page comes to show the text, wherever it
/// appears. The list's items read the same words first (`"buy milk" appears` on a page of one
/// list is that list's item); this shape rescues the sentence when that reading declines, as
/// on a page with no list, where the text is often not shown yet when the step starts.
pub(crate) struct TextAppears;

impl Shape for TextAppears {
    fn name(&self) -> &'static str {
        "a text appears"
    }
    fn examples(&self) -> &'static [Example] {
        ex::TEXT_APPEARS
    }
    fn rescues(&self) -> bool {
        true
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        if s.toks.len() < 2 {
            return None;
        }
        text_appearing(s.toks).map(|text| Ok(Intent::PageShows(text)))
    }
}

/// The quoted text a wait's words say is to appear: `"X"`, `"X" appears`, `"X" shows up`, `"X"
/// to appear`, `"X" to be shown / displayed / visible`.
fn text_appearing(rest: &[Tok]) -> Option<Literal> {
    let [Tok::Lit(text), said @ ..] = rest else {
        return None;
    };
    let shown = |w: &Tok| w.is("shown") || w.is("displayed") || w.is("visible");
    let appears = match said {
        [] => true,
        [appear] => appear.is("appears") || appear.is("appear"),
        [first, second] => {
            (first.is("shows") && second.is("up"))
                || (first.is("to") && (second.is("appear") || second.is("show")))
        }
        [to, be, state] => to.is("to") && be.is("be") && shown(state),
        _ => false,
    };
    appears.then(|| Literal(text.clone()))
}

/// The words of the check a wait's words say: `X appears` and `X` alone are `X is shown`, `X
/// to be Y` is `X is Y`, `X to disappear` (normalized to `to is hidden`) is `X is hidden`.
fn as_check(rest: &[Tok]) -> Vec<Tok> {
    let word = |w: &str| Tok::Word(w.to_owned(), w.to_owned());
    let shown = [word("is"), word("shown")];
    if let Some(to) = rest.iter().position(|t| t.is("to")).filter(|&at| at > 0) {
        let (subject, predicate) = (&rest[..to], &rest[to + 1..]);
        let mut check: Vec<Tok> = subject.to_vec();
        match predicate {
            [be, state @ ..] if be.is("be") => {
                check.push(word("is"));
                check.extend_from_slice(state);
            }
            [is, ..] if is.is("is") => check.extend_from_slice(predicate),
            [appear] if appear.is("appear") || appear.is("show") || appear.is("load") => {
                check.extend(shown.clone());
            }
            [show, up] if show.is("show") && up.is("up") => check.extend(shown.clone()),
            _ => return rest.to_vec(),
        }
        return check;
    }
    match rest {
        [subject @ .., last] if last.is("appears") || last.is("appear") => {
            let mut check = subject.to_vec();
            check.extend(shown);
            check
        }
        [subject @ .., shows, up] if shows.is("shows") && up.is("up") => {
            let mut check = subject.to_vec();
            check.extend(shown);
            check
        }
        [Tok::Lit(_)] => {
            let mut check = rest.to_vec();
            check.extend(shown);
            check
        }
        _ => rest.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use crate::writer::builtin::intent::{Intent, Literal};
    use crate::writer::builtin::shapes::parse;

    #[test]
    fn a_wait_is_the_check_of_the_state_it_waits_for() {
        for sentence in [
            "wait until \"Hello\" appears",
            "wait for \"Hello\"",
            "wait for \"Hello\" to be displayed",
            "wait for \"Hello\" to appear",
            "wait till \"Hello\" shows up",
        ] {
            assert_eq!(
                parse(sentence, &[]),
                Ok(Intent::PageShows(Literal("Hello".into()))),
                "{sentence:?}"
            );
        }
        assert!(matches!(
            parse("wait until \"Hello\" disappears", &[]),
            Ok(Intent::Visible { shown: false, .. })
        ));
        assert!(matches!(
            parse("wait for the \"Next\" button to be enabled", &[]),
            Ok(Intent::State { .. })
        ));
        assert!(parse("wait until the page is ready to go", &[]).is_err());
        // "while" waits for the opposite of the state it names; read as "until" it would pass
        // at once while the loader is still up.
        for sentence in ["wait while \"Loading\" is shown", "wait while \"Loading\""] {
            assert!(parse(sentence, &[]).is_err(), "{sentence:?}");
        }
    }
}
