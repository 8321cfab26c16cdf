//! The page's loading indicator in a sentence: `the loading bar appears`, `the spinner is
//! gone`, `wait until the loading indicator is gone`, `"Hello World!" appears after loading`.
//! The sentence only says that it means the indicator; which element that is, is the page's own
//! fact (`loading_code.rs`), and a page that shows none declines.
//!
//! Main type: [`Loading`], the shape.

use crate::writer::builtin::intent::{Decline, Intent, Literal};
use crate::writer::builtin::shape::{Example, Sentence, Shape};
use crate::writer::builtin::tokens::Tok;

/// The words that name an indicator: one of [`SAYS_LOADING`], with any of [`INDICATOR_NOUNS`].
const SAYS_LOADING: &[&str] = &["loading", "loader", "spinner", "progress"];

/// The nouns an indicator's name may add (`the loading bar`, `the progress indicator`).
const INDICATOR_NOUNS: &[&str] = &[
    "bar",
    "indicator",
    "icon",
    "animation",
    "message",
    "spinner",
    "wheel",
    "screen",
    "overlay",
];

/// Whether `words` name a loading indicator (`the loading bar`, `the spinner`).
fn names_indicator(words: &[Tok]) -> bool {
    let own: Vec<&Tok> = words.iter().filter(|w| !w.is("the")).collect();
    !own.is_empty()
        && own.iter().any(|w| SAYS_LOADING.iter().any(|s| w.is(s)))
        && own
            .iter()
            .all(|w| SAYS_LOADING.iter().chain(INDICATOR_NOUNS).any(|s| w.is(s)))
}

/// Whether every word of `toks` is the word at the same place in `words`.
fn are(toks: &[Tok], words: &[&str]) -> bool {
    toks.len() == words.len() && toks.iter().zip(words).all(|(t, w)| t.is(w))
}

/// What the words after an indicator say of it: `Some(true)` that it is shown, `Some(false)`
/// that it is gone, `None` neither.
fn predicate(said: &[Tok]) -> Option<bool> {
    let said = match said {
        [to, rest @ ..] if to.is("to") => rest,
        _ => said,
    };
    const SHOWN: &[&[&str]] = &[
        &["appears"],
        &["appear"],
        &["shows", "up"],
        &["show", "up"],
        &["is", "shown"],
        &["is", "visible"],
        &["is", "displayed"],
        &["be", "shown"],
        &["be", "visible"],
        &["be", "displayed"],
    ];
    const GONE: &[&[&str]] = &[
        &["is", "hidden"],
        &["is", "gone"],
        &["is", "not", "shown"],
        &["is", "not", "visible"],
        &["is", "not", "displayed"],
        &["is", "no", "longer", "shown"],
        &["is", "no", "longer", "visible"],
        &["is", "no", "longer", "displayed"],
        &["be", "hidden"],
        &["be", "gone"],
    ];
    if SHOWN.iter().any(|form| are(said, form)) {
        Some(true)
    } else if GONE.iter().any(|form| are(said, form)) {
        Some(false)
    } else {
        None
    }
}

/// Whether the words after `loading` alone say it is over (`loading finishes`, `loading is
/// done`, `for loading to finish`).
fn is_over(said: &[Tok]) -> bool {
    const OVER: &[&[&str]] = &[
        &["finishes"],
        &["finish"],
        &["completes"],
        &["complete"],
        &["ends"],
        &["is", "done"],
        &["is", "finished"],
        &["is", "complete"],
        &["is", "completed"],
        &["is", "over"],
        &["has", "finished"],
        &["be", "done"],
        &["be", "finished"],
        &["be", "complete"],
    ];
    let said = match said {
        [to, rest @ ..] if to.is("to") => rest,
        _ => said,
    };
    OVER.iter().any(|form| are(said, form))
}

/// `"X" appears after loading`, `"X" is shown once loading is done`: the quoted text, when the
/// words are that.
fn after_loading(toks: &[Tok]) -> Option<Literal> {
    let [Tok::Lit(text), rest @ ..] = toks else {
        return None;
    };
    let at = rest.iter().position(|w| w.is("after") || w.is("once"))?;
    let (said, after) = (&rest[..at], &rest[at + 1..]);
    let [loading, over @ ..] = after else {
        return None;
    };
    let shown = predicate(said) == Some(true);
    (shown && loading.is("loading") && (over.is_empty() || is_over(over)))
        .then(|| Literal(text.clone()))
}

/// Reads the words of a sentence about the loading indicator.
pub(crate) fn read(toks: &[Tok]) -> Option<Result<Intent, Decline>> {
    if let Some(text) = after_loading(toks) {
        return Some(Ok(Intent::AfterLoading(text)));
    }
    if let [loading, said @ ..] = toks
        && loading.is("loading")
        && is_over(said)
    {
        return Some(Ok(Intent::Loading { shown: false }));
    }
    (1..toks.len()).find_map(|at| {
        let (subject, said) = toks.split_at(at);
        if !names_indicator(subject) {
            return None;
        }
        predicate(said).map(|shown| Ok(Intent::Loading { shown }))
    })
}

/// The shape of the sentences about the page's loading indicator.
pub(crate) struct Loading;

impl Shape for Loading {
    fn name(&self) -> &'static str {
        "loading indicator"
    }
    fn examples(&self) -> &'static [Example] {
        EXAMPLES
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        read(s.toks)
    }
}

/// A page loading its content under a progress bar.
const LOADING_PAGE: &str = r#"- heading "Dynamically Loaded Page Elements" [level=3]
- progressbar "Loading"
- heading "Hello World!" [level=4]
"#;

const EXAMPLES: &[Example] = &[
    Example {
        sentence: "the loading bar disappears",
        page: LOADING_PAGE,
        code: "await expect(page.getByRole('progressbar')).toBeHidden();",
    },
    Example {
        sentence: "the loading indicator appears",
        page: LOADING_PAGE,
        code: "await expect(page.getByRole('progressbar')).toBeVisible();",
    },
    Example {
        sentence: "\"Hello World!\" appears after loading",
        page: LOADING_PAGE,
        code: "await expect(page.getByText('Hello World!', { exact: true })).toBeVisible();\nawait expect(page.getByRole('progressbar')).toBeHidden();",
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::tokens::{normalize, tokenize};

    fn intent(sentence: &str) -> Option<Result<Intent, Decline>> {
        read(&normalize(tokenize(sentence, &[])))
    }

    #[test]
    fn an_indicator_is_shown_or_gone() {
        for (sentence, shown) in [
            ("the loading bar appears", true),
            ("the spinner is visible", true),
            ("the progress bar is shown", true),
            ("the loading bar disappears", false),
            ("the loading indicator is gone", false),
            ("the spinner goes away", false),
            ("the loader is no longer visible", false),
            ("loading is done", false),
            ("loading finishes", false),
        ] {
            assert_eq!(
                intent(sentence),
                Some(Ok(Intent::Loading { shown })),
                "{sentence:?}"
            );
        }
        assert_eq!(
            intent("\"Hello World!\" appears after loading"),
            Some(Ok(Intent::AfterLoading(Literal("Hello World!".into()))))
        );
        for other in [
            "the loading bar is red",
            "the save bar appears",
            "the \"Loading\" button is shown",
            "\"Hello\" appears after saving",
        ] {
            assert_eq!(intent(other), None, "{other:?}");
        }
    }
}
