//! Verdicts from evidence: before any LLM is asked, the engine decides what the failed check and
//! the page decide. A check whose subject is on the page but shows another number or state than
//! the step expects is a product defect; a locator that finds nothing on a page that loaded is
//! a rot candidate (healed only when code written for the sentence passes, keeps the checks and
//! passes the mutation proof); anything else is left to the LLM.
//!
//! Main function: [`judge`]. The rules are the table in `docs/engine.md` (Verdicts from
//! evidence), one unit test per row below.

use crate::engine::proof::claims_of;
use crate::engine::sentence::quoted_literals;
use crate::llm::{Category, Classification, VerdictSource};
use crate::script::{FailureKind, Observation, ObservedCall, StepFailure};

/// What the evidence decides about a failure of cached code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Judgement {
    /// The app does not do what the step expects: what was observed, against what.
    Defect(String),
    /// The step's locator finds nothing on a page that loaded: the UI may have changed.
    Rot(String),
    /// The evidence does not decide.
    Undecided,
}

/// The `Received:` line of a check whose subject was not found.
const NOT_FOUND: &str = "<element(s) not found>";

/// The matchers that check a state, with the words `Received:` shows for it.
const STATES: &[(&str, [&str; 2])] = &[
    ("to.be.checked", ["checked", "unchecked"]),
    ("to.be.enabled", ["enabled", "disabled"]),
    ("to.be.disabled", ["enabled", "disabled"]),
    ("to.be.visible", ["visible", "hidden"]),
    ("to.be.hidden", ["visible", "hidden"]),
];

/// Calls that only read the page: a failed check's subject, never an action's target.
const READS: &[&str] = &[
    "expect",
    "textContent",
    "innerText",
    "innerHTML",
    "inputValue",
    "getAttribute",
    "isVisible",
    "isHidden",
    "isEnabled",
    "isDisabled",
    "isChecked",
    "isEditable",
    "queryCount",
];

/// Judges a failure of cached code for `sentence` from what the page shows (`seen`).
pub(crate) fn judge(sentence: &str, failure: &StepFailure, seen: &Observation) -> Judgement {
    if !matches!(
        failure.kind,
        FailureKind::FailedCheck | FailureKind::Timeout
    ) {
        return Judgement::Undecided;
    }
    let Some(call) = &seen.call else {
        return Judgement::Undecided;
    };
    let check = failure.kind == FailureKind::FailedCheck && READS.contains(&call.method.as_str());
    let expected = expected_texts(sentence, call);
    if check && let Some(defect) = contradicted(sentence, failure, call, &expected) {
        return Judgement::Defect(defect);
    }
    let unresolved = call.matches == Some(0) || call.received.as_deref() == Some(NOT_FOUND);
    if check
        && unresolved
        && let Some(text) = &seen.page_text
        && let Some(defect) = near_miss_on_page(&expected, text)
    {
        return Judgement::Defect(defect);
    }
    if call.matches == Some(0) && seen.loaded {
        let selector = call.selector.as_deref().unwrap_or_default();
        return Judgement::Rot(format!(
            "the step's locator (`{selector}`) finds nothing on the page, which loaded"
        ));
    }
    Judgement::Undecided
}

/// The verdict on a failure the evidence calls a product defect (`observed` says what the
/// page showed against what the step expects), with the LLM's verdict when it was heard too.
pub(crate) fn defect_classification(
    observed: String,
    heard: Option<Classification>,
) -> Classification {
    let recommendation = match &heard {
        Some(llm) if llm.category == Category::ProductDefect => llm.recommendation.clone(),
        _ => "fix the application; if it changed on purpose, update the step's sentence (its \
              code is then written anew)"
            .to_owned(),
    };
    Classification {
        category: Category::ProductDefect,
        explanation: observed,
        recommendation,
        source: VerdictSource::Evidence {
            llm: heard.map(|llm| llm.category),
        },
    }
}

/// What the step expects to read: the check's expected strings, the texts inside its
/// selector, and the texts the sentence quotes.
fn expected_texts(sentence: &str, call: &ObservedCall) -> Vec<String> {
    let mut texts = call.expected_texts.clone();
    if let Some(selector) = &call.selector {
        texts.extend(selector_texts(selector));
    }
    texts.extend(quoted_literals(sentence));
    let mut unique: Vec<String> = Vec::new();
    for text in texts {
        if !text.trim().is_empty() && !unique.contains(&text) {
            unique.push(text);
        }
    }
    unique
}

/// The quoted strings of a Playwright selector (`internal:text="1 item left"s`,
/// `internal:role=button[name="Clear completed"i]`), unescaped.
fn selector_texts(selector: &str) -> Vec<String> {
    let mut texts = Vec::new();
    let mut chars = selector.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut raw = String::from('"');
        let mut escaped = false;
        for c in chars.by_ref() {
            raw.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                break;
            }
        }
        if let Ok(text) = serde_json::from_str::<String>(&raw) {
            texts.push(text);
        }
    }
    texts
}

/// A check whose subject was found and read something that contradicts the step: a near miss
/// of an expected text, the other state, or another count than the sentence says.
fn contradicted(
    sentence: &str,
    failure: &StepFailure,
    call: &ObservedCall,
    expected: &[String],
) -> Option<String> {
    let resolved = call.matches.is_some_and(|n| n > 0);
    let received = call.received.as_deref().filter(|r| *r != NOT_FOUND);
    let expression = call.expression.as_deref().unwrap_or_default();
    if resolved && let Some(received) = received {
        if let Some((_, words)) = STATES.iter().find(|(e, _)| *e == expression)
            && words.contains(&received)
        {
            return Some(format!(
                "the check's subject is on the page and is {received}, which the step does not \
                 expect ({})",
                call.matcher_named()
            ));
        }
        if expression == "to.have.count" && !call.negated {
            let claims = claims_of(sentence);
            let wanted = call.expected_number.map(|n| format!("{n}"));
            if let (Some(wanted), Ok(found)) = (wanted, received.parse::<u64>())
                && found > 0
                && found.to_string() != wanted
                && claims.numbers.contains(&wanted)
            {
                return Some(format!(
                    "{found} elements match the check's locator where the step expects \
                     {wanted}"
                ));
            }
        }
        for text in expected {
            if let Some(miss) = near_miss_in(text, received) {
                return Some(format!(
                    "the check's subject shows \"{miss}\" where the step expects \"{text}\" \
                     (the same words, another number)"
                ));
            }
        }
    }
    // A plain value check (`expect(await x.textContent()).toBe(...)`): its own Expected and
    // Received lines, when what was read came from the page.
    if call.method != "expect" && resolved {
        let line = |label: &str| {
            failure
                .message
                .lines()
                .find_map(|l| l.trim_start().strip_prefix(label))
                .map(|v| v.trim().trim_matches('"').to_owned())
        };
        if let (Some(wanted), Some(got)) = (line("Expected:"), line("Received:"))
            && let Some(miss) = near_miss_in(&wanted, &got)
        {
            return Some(format!(
                "the page shows \"{miss}\" where the step expects \"{wanted}\" (the same words, \
                 another number)"
            ));
        }
    }
    None
}

impl ObservedCall {
    /// The matcher as step code names it (`toBeChecked`), from its protocol expression.
    fn matcher_named(&self) -> String {
        let expression = self.expression.as_deref().unwrap_or_default();
        let mut name = String::new();
        for (i, part) in expression.split('.').enumerate() {
            let mut chars = part.chars();
            match (i, chars.next()) {
                (0, Some(first)) => name.push(first),
                (_, Some(first)) => name.push(first.to_ascii_uppercase()),
                _ => {}
            }
            name.extend(chars);
        }
        if self.negated {
            format!("not.{name}")
        } else {
            name
        }
    }
}

/// The expected text is not on the page, but a near miss of it is.
fn near_miss_on_page(expected: &[String], page_text: &str) -> Option<String> {
    expected.iter().find_map(|text| {
        near_miss_in(text, page_text).map(|miss| {
            format!(
                "the page shows \"{miss}\" where the step expects \"{text}\", which is not on \
                 the page (the same words, another number)"
            )
        })
    })
}

/// A word or a number of a text, as near misses compare them.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Number(String),
}

/// The words (lower case, a plural `s` dropped) and numbers of a text, with each token's
/// span; punctuation and spacing do not count.
fn tokens(text: &str) -> Vec<(Token, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let mut start = None;
    let flush = |out: &mut Vec<(Token, std::ops::Range<usize>)>, from: usize, to: usize| {
        let raw = &text[from..to];
        let mut at = 0;
        // Split `3items` into a number and a word.
        while at < raw.len() {
            let digit = raw[at..].starts_with(|c: char| c.is_ascii_digit());
            let end = raw[at..]
                .find(|c: char| c.is_ascii_digit() != digit)
                .map_or(raw.len(), |e| at + e);
            let piece = &raw[at..end];
            let token = if digit {
                Token::Number(piece.trim_start_matches('0').to_owned())
            } else {
                let lower = piece.to_lowercase();
                let singular = match lower.strip_suffix('s') {
                    Some(stem) if stem.chars().count() >= 3 && !stem.ends_with('s') => {
                        stem.to_owned()
                    }
                    _ => lower,
                };
                Token::Word(singular)
            };
            out.push((token, from + at..from + end));
            at = end;
        }
    };
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() {
            start.get_or_insert(i);
        } else if let Some(from) = start.take() {
            flush(&mut out, from, i);
        }
    }
    if let Some(from) = start {
        flush(&mut out, from, text.len());
    }
    out
}

/// A stretch of `text` that is a near miss of `expected` (the same words in the same order,
/// numbers where `expected` has them, at least one of them another number), when `text`
/// nowhere holds `expected` itself. `expected` must hold a number.
fn near_miss_in(expected: &str, text: &str) -> Option<String> {
    let wanted: Vec<Token> = tokens(expected).into_iter().map(|(t, _)| t).collect();
    if !wanted.iter().any(|t| matches!(t, Token::Number(_))) {
        return None;
    }
    let found = tokens(text);
    if found.len() < wanted.len() {
        return None;
    }
    let mut miss = None;
    for window in found.windows(wanted.len()) {
        let same_shape = window
            .iter()
            .zip(&wanted)
            .all(|((got, _), want)| match (got, want) {
                (Token::Word(a), Token::Word(b)) => a == b,
                (Token::Number(_), Token::Number(_)) => true,
                _ => false,
            });
        if !same_shape {
            continue;
        }
        if window
            .iter()
            .zip(&wanted)
            .all(|((got, _), want)| got == want)
        {
            // The expected text is there after all: whatever failed, it is not this.
            return None;
        }
        if miss.is_none() {
            let span = window[0].1.start..window[window.len() - 1].1.end;
            miss = Some(text[span].to_owned());
        }
    }
    miss
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_failed() -> StepFailure {
        StepFailure::new(
            FailureKind::FailedCheck,
            "expect(locator).toHaveText failed",
        )
    }

    fn expect(expression: &str, matches: u64, received: &str) -> ObservedCall {
        ObservedCall {
            method: "expect".into(),
            selector: Some("internal:testid=[data-testid=\"todo-count\"s]".into()),
            expression: Some(expression.into()),
            matches: Some(matches),
            received: Some(received.into()),
            ..ObservedCall::default()
        }
    }

    fn seen(call: ObservedCall, page_text: &str) -> Observation {
        Observation {
            call: Some(call),
            page_text: Some(page_text.into()),
            loaded: true,
        }
    }

    #[test]
    fn near_misses_are_the_same_words_with_another_number() {
        assert_eq!(
            near_miss_in("1 item left", "2 items left!"),
            Some("2 items left".into())
        );
        assert_eq!(
            near_miss_in("1 item left", "12 items left"),
            Some("12 items left".into())
        );
        assert_eq!(
            near_miss_in("1 item left", "1 item left"),
            None,
            "the same text"
        );
        assert_eq!(
            near_miss_in("1 item left", "1 items left"),
            None,
            "the same number"
        );
        assert_eq!(
            near_miss_in("buy milk", "buy milk 2"),
            None,
            "no number expected"
        );
        assert_eq!(
            near_miss_in("1 item left", "2 things left"),
            None,
            "other words"
        );
        assert_eq!(
            near_miss_in("1 item left", "2 items left and 1 item left"),
            None,
            "the expected text is on the page too"
        );
        assert_eq!(near_miss_in("Total: 3", "total 03"), None, "leading zeros");
    }

    #[test]
    fn row_1_a_resolved_subject_reading_a_near_miss_is_a_defect() {
        let mut call = expect("to.have.text", 1, "\"2 items left\"");
        call.expected_texts = vec!["1 item left".into()];
        let judged = judge(
            "the counter shows 1 item left",
            &check_failed(),
            &seen(call, "2 items left"),
        );
        assert_eq!(
            judged,
            Judgement::Defect(
                "the check's subject shows \"2 items left\" where the step expects \"1 item \
                 left\" (the same words, another number)"
                    .into()
            )
        );
    }

    #[test]
    fn row_1_the_sentence_quote_counts_as_expected_too() {
        // The cached check reads the counter loosely; the sentence quotes the text.
        let call = expect("to.contain.text", 1, "\"3 items left\"");
        let judged = judge(
            "the footer says '2 items left'",
            &check_failed(),
            &seen(call, "3 items left"),
        );
        assert!(matches!(judged, Judgement::Defect(_)), "{judged:?}");
    }

    #[test]
    fn row_2_a_resolved_subject_in_the_other_state_is_a_defect() {
        let call = expect("to.be.checked", 1, "unchecked");
        let judged = judge(
            "the todo 'buy milk' is completed",
            &check_failed(),
            &seen(call, "buy milk"),
        );
        assert_eq!(
            judged,
            Judgement::Defect(
                "the check's subject is on the page and is unchecked, which the step does not \
                 expect (toBeChecked)"
                    .into()
            )
        );
        let mut gone = expect("to.be.visible", 1, "visible");
        gone.negated = true;
        let judged = judge(
            "the todo 'buy milk' is not shown",
            &check_failed(),
            &seen(gone, "buy milk"),
        );
        assert!(matches!(&judged, Judgement::Defect(d) if d.contains("not.toBeVisible")));
    }

    #[test]
    fn row_3_another_count_than_the_sentence_says_is_a_defect() {
        let mut call = expect("to.have.count", 3, "3");
        call.expected_number = Some(2.0);
        let judged = judge(
            "there are 2 todos",
            &check_failed(),
            &seen(call.clone(), ""),
        );
        assert_eq!(
            judged,
            Judgement::Defect(
                "3 elements match the check's locator where the step expects 2".into()
            )
        );
        // A count the sentence does not say is the code's own: the LLM decides.
        let judged = judge(
            "the list has the new todo",
            &check_failed(),
            &seen(call, ""),
        );
        assert_eq!(judged, Judgement::Undecided);
    }

    #[test]
    fn row_4_a_plain_value_check_reading_a_near_miss_is_a_defect() {
        let call = ObservedCall {
            method: "textContent".into(),
            selector: Some(".todo-count".into()),
            matches: Some(1),
            ..ObservedCall::default()
        };
        let failure = StepFailure::new(
            FailureKind::FailedCheck,
            "expect(received).toBe(expected)\n\nExpected: \"1 item left\"\nReceived: \"2 items left\"",
        );
        let judged = judge("the counter shows 1 item left", &failure, &seen(call, ""));
        assert!(matches!(&judged, Judgement::Defect(d) if d.contains("\"2 items left\"")));
    }

    #[test]
    fn row_5_an_expected_text_missing_with_a_near_miss_on_the_page_is_a_defect() {
        let call = ObservedCall {
            method: "expect".into(),
            selector: Some("internal:text=\"1 item left\"s".into()),
            expression: Some("to.be.visible".into()),
            matches: Some(0),
            received: Some(NOT_FOUND.into()),
            ..ObservedCall::default()
        };
        let judged = judge(
            "the counter shows 1 item left",
            &check_failed(),
            &seen(call, "todos\nbuy milk\n2 items left!\nAll Active Completed"),
        );
        assert_eq!(
            judged,
            Judgement::Defect(
                "the page shows \"2 items left\" where the step expects \"1 item left\", which \
                 is not on the page (the same words, another number)"
                    .into()
            )
        );
    }

    #[test]
    fn row_6_a_locator_that_finds_nothing_on_a_loaded_page_is_a_rot_candidate() {
        let call = ObservedCall {
            method: "click".into(),
            selector: Some("#clear".into()),
            matches: Some(0),
            ..ObservedCall::default()
        };
        let timeout = StepFailure::new(FailureKind::Timeout, "locator.click: Timeout 5000ms");
        let judged = judge(
            "clear the completed todos",
            &timeout,
            &seen(call.clone(), "Clear completed"),
        );
        assert_eq!(
            judged,
            Judgement::Rot(
                "the step's locator (`#clear`) finds nothing on the page, which loaded".into()
            )
        );
        // A page that did not load decides nothing.
        let mut unloaded = seen(call, "");
        unloaded.loaded = false;
        assert_eq!(
            judge("clear the completed todos", &timeout, &unloaded),
            Judgement::Undecided
        );
    }

    #[test]
    fn row_7_anything_else_is_undecided() {
        // Another text without a number: the same element or another one? The LLM decides.
        let mut call = expect("to.have.text", 1, "\"Buy bread\"");
        call.expected_texts = vec!["Buy milk".into()];
        assert_eq!(
            judge(
                "the first todo is 'Buy milk'",
                &check_failed(),
                &seen(call, "Buy bread")
            ),
            Judgement::Undecided
        );
        // A script error, a strict-mode violation or no call at all decide nothing.
        let script = StepFailure::new(FailureKind::Script, "TypeError: x is undefined");
        let call = expect("to.be.checked", 1, "unchecked");
        assert_eq!(
            judge("x", &script, &seen(call.clone(), "")),
            Judgement::Undecided
        );
        let strict = StepFailure::new(FailureKind::StrictMode, "strict mode violation");
        assert_eq!(judge("x", &strict, &seen(call, "")), Judgement::Undecided);
        assert_eq!(
            judge("x", &check_failed(), &Observation::default()),
            Judgement::Undecided
        );
    }

    #[test]
    fn selector_texts_are_unescaped() {
        assert_eq!(
            selector_texts(
                "internal:role=button[name=\"Clear \\\"done\\\"\"i] >> internal:text=\"1 item left\"s"
            ),
            vec!["Clear \"done\"".to_owned(), "1 item left".to_owned()]
        );
    }
}
