//! Verdicts from evidence: before any LLM is asked, the engine decides what the failed check and
//! the page decide. A check whose subject is on the page but shows another number or state than
//! the step expects is a product defect; a locator that finds nothing on a page that loaded is
//! a rot candidate (healed only when code written for the sentence passes, keeps the checks and
//! passes the mutation proof); anything else is left to the LLM.
//!
//! Main function: [`judge`]. The rules are the table in `docs/engine.md` (Verdicts from
//! evidence), one unit test per row below.

use crate::engine::claims::claims_of;
use crate::llm::{Category, Classification, VerdictSource};
use crate::script::{FailureKind, Kind, Observation, ObservedCall, StepFailure, ValueCheck};
use crate::writer::{quoted_literals, words};

/// What the evidence decides about a failure of cached code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Judgement {
    /// The app does not do what the step expects: what was observed, against what.
    Defect(String),
    /// The step's locator finds nothing on a page that loaded: the UI may have changed.
    Rot(String),
    /// An action's target vanished, and only elements whose names merely resemble its name are
    /// left: the evidence does not decide (the element may be gone for good, a defect), and no
    /// likeness may stand in for it. Says which elements are left.
    Likeness(String),
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

/// Judges a failure of cached code for `sentence` from what the page shows (`seen`).
pub(crate) fn judge(sentence: &str, failure: &StepFailure, seen: &Observation) -> Judgement {
    if !matches!(
        failure.kind,
        FailureKind::FailedCheck | FailureKind::Timeout
    ) {
        return Judgement::Undecided;
    }
    let claimed = claimed_numbers(sentence);
    // A plain value check (`expect(await x.textContent()).toBe(...)`) made no failing browser
    // call: what it expected and received are the evidence.
    if failure.kind == FailureKind::FailedCheck
        && let Some(check) = &seen.value_check
    {
        return plain_near_miss(check, &claimed).map_or(Judgement::Undecided, Judgement::Defect);
    }
    let Some(call) = &seen.call else {
        return Judgement::Undecided;
    };
    // A call that reads the page is a failed check's subject, never an action's target.
    let check = call.kind == Some(Kind::Reads);
    if check && failure.kind == FailureKind::FailedCheck {
        if let Some(defect) = contradicted(sentence, call, &claimed) {
            return Judgement::Defect(defect);
        }
        let unresolved = call.matches == Some(0) || call.received.as_deref() == Some(NOT_FOUND);
        if unresolved
            && let Some(text) = &seen.page_text
            && let Some(defect) = near_miss_on_page(&visible_texts(sentence, call), text, &claimed)
        {
            return Judgement::Defect(defect);
        }
    }
    // Only an action's target that vanished is a rot candidate: a check whose subject
    // vanished may be the app's defect (it stopped rendering it), and code written afresh for
    // the sentence could find something else to check on the broken page.
    if !check && call.matches == Some(0) && seen.loaded {
        let selector = call.selector.as_deref().unwrap_or_default();
        if let Some(likeness) = only_likenesses(sentence, call) {
            return Judgement::Likeness(likeness);
        }
        return Judgement::Rot(format!(
            "the step's locator (`{selector}`) finds nothing on the page, which loaded"
        ));
    }
    Judgement::Undecided
}

/// When the elements a vanished target's locator finds loosely are all likenesses (none has
/// the name itself, case and whitespace aside): what the evidence says about them.
fn only_likenesses(sentence: &str, call: &ObservedCall) -> Option<String> {
    if call.similar.is_empty() {
        return None;
    }
    let norm = |t: &str| {
        t.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let mut names = quoted_literals(sentence);
    names.extend(selector_texts(call.selector.as_deref().unwrap_or_default()));
    let names: Vec<String> = names.iter().map(|n| norm(n)).collect();
    if call
        .similar
        .iter()
        .any(|found| names.contains(&norm(found)))
    {
        return None;
    }
    let selector = call.selector.as_deref().unwrap_or_default();
    let left: Vec<String> = call.similar.iter().map(|n| format!("\"{n}\"")).collect();
    Some(format!(
        "the step's locator (`{selector}`) finds nothing on the page, and the only elements \
         left with a like name are {}: a likeness is not the element the step names, so this \
         is no rot the evidence can heal",
        left.join(", ")
    ))
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

/// The verdict on a failure the evidence judged a [`Judgement::Likeness`] when the step is not
/// healed (`replay`): incurable as it is, naming the look-alikes that are left (`why`), as a
/// run with no LLM names them.
pub(crate) fn likeness_classification(why: String) -> Classification {
    Classification {
        category: Category::Incurable,
        explanation: format!(
            "the step's target is gone and the evidence does not tell a changed UI from a \
             product defect ({why})"
        ),
        recommendation: "if the element is gone for good, fix the application; if it was \
                         renamed on purpose, update the step's sentence to name it"
            .to_owned(),
        source: VerdictSource::Evidence { llm: None },
    }
}

/// The visible texts the step expects to read: the check's expected strings, the texts its
/// selector finds elements by (text, accessible name, label), and the texts the sentence
/// quotes.
fn visible_texts(sentence: &str, call: &ObservedCall) -> Vec<String> {
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

/// The numbers the sentence states, outside its quotes or inside them: only a number the
/// sentence states can be contradicted (a number the cached code hard-coded may simply have
/// changed, as a search's result count does).
fn claimed_numbers(sentence: &str) -> Vec<String> {
    // Only numbers written in digits: a number word ("one item") is a claim the proof
    // contradicts, but not one the evidence decides a defect on.
    let written = sentence.to_lowercase();
    let mut numbers: Vec<String> = claims_of(sentence)
        .numbers
        .iter()
        .filter(|n| written.contains(n.as_str()))
        .map(|n| n.trim_start_matches('0').to_owned())
        .collect();
    for quote in quoted_literals(sentence) {
        for (token, _) in tokens(&quote) {
            if let Token::Number(n) = token {
                numbers.push(n);
            }
        }
    }
    numbers
}

/// The quoted strings of a Playwright selector (`internal:text="1 item left"s`,
/// `internal:role=button[name="Clear completed"i]`), unescaped.
pub(super) fn selector_texts(selector: &str) -> Vec<String> {
    let mut texts = Vec::new();
    let mut chars = selector.char_indices();
    while let Some((at, c)) = chars.next() {
        if c != '"' {
            continue;
        }
        // Test ids, CSS attributes and placeholders are not text a person reads on the page.
        let before = &selector[..at];
        let textual = [
            "internal:text=",
            "internal:has-text=",
            "name=",
            "internal:label=",
            "text=",
        ]
        .iter()
        .any(|prefix| before.ends_with(prefix));
        let mut raw = String::from('"');
        let mut escaped = false;
        for (_, c) in chars.by_ref() {
            raw.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                break;
            }
        }
        if let Ok(text) = serde_json::from_str::<String>(&raw)
            && textual
        {
            texts.push(text);
        }
    }
    texts
}

/// The matchers whose received value is text a person reads: only these can show a near miss.
const TEXT_MATCHERS: &[&str] = &[
    "to.have.text",
    "to.contain.text",
    "to.have.text.array",
    "to.contain.text.array",
    "to.have.value",
    "to.have.values",
];

/// A check whose subject was found and read something that contradicts the step: a near miss
/// of an expected text with a number the sentence states, the other state, or another count
/// than the sentence says.
fn contradicted(sentence: &str, call: &ObservedCall, claimed: &[String]) -> Option<String> {
    let resolved = call.matches.is_some_and(|n| n > 0);
    let received = call.received.as_deref().filter(|r| *r != NOT_FOUND);
    let expression = call.expression.as_deref().unwrap_or_default();
    let (true, Some(received)) = (resolved, received) else {
        return None;
    };
    if let Some((_, words)) = STATES.iter().find(|(e, _)| *e == expression)
        && let Some(word) = call.expected_state
    {
        // The check expects a state ("checked", "unchecked" for `checked: false`, or not
        // "visible"); the subject must now be in the other state.
        let expected = if call.negated {
            format!("not {word}")
        } else {
            word.to_owned()
        };
        let other = words.iter().find(|w| **w != word).copied();
        let contradicts = if call.negated {
            received == word
        } else {
            words.contains(&word) && Some(received) == other
        };
        if contradicts {
            return Some(format!(
                "the check's subject is on the page and is {received} where the step expects \
                 {expected} ({})",
                call.matcher_named()
            ));
        }
        return None;
    }
    if expression == "to.have.count" && !call.negated {
        let wanted = call.expected_number.map(|n| format!("{n}"));
        if let (Some(wanted), Ok(found)) = (wanted, received.parse::<u64>())
            && found > 0
            && found.to_string() != wanted
            && claimed.contains(&wanted)
        {
            return Some(format!(
                "{found} elements match the check's locator where the step expects {wanted}"
            ));
        }
        return None;
    }
    if !TEXT_MATCHERS.contains(&expression) {
        return None;
    }
    // The value the failure itself recorded comes first; the page read again must agree.
    let at_failure = call.received_at_failure.as_deref().unwrap_or(received);
    let mut texts = call.expected_texts.clone();
    texts.extend(quoted_literals(sentence));
    texts.iter().find_map(|text| {
        let miss = near_miss_in(text, at_failure, claimed)?;
        near_miss_in(text, received, claimed)?;
        Some(format!(
            "the check's subject shows \"{miss}\" where the step expects \"{text}\" (the same \
             words, another number)"
        ))
    })
}

/// A plain value check whose expected and received values are near misses.
fn plain_near_miss(check: &ValueCheck, claimed: &[String]) -> Option<String> {
    let wanted = &check.expected;
    let miss = near_miss_in(wanted, &check.received, claimed)?;
    Some(format!(
        "the page shows \"{miss}\" where the step expects \"{wanted}\" (the same words, another \
         number)"
    ))
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

/// The expected text is not on the page, but a near miss of it is. A text of numbers alone
/// would find a near miss in any price or date, so it must hold a word too.
fn near_miss_on_page(expected: &[String], page_text: &str, claimed: &[String]) -> Option<String> {
    expected.iter().find_map(|text| {
        let has_word = tokens(text)
            .iter()
            .any(|(token, _)| matches!(token, Token::Word(_)));
        if !has_word {
            return None;
        }
        near_miss_in(text, page_text, claimed).map(|miss| {
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

/// The words (a plural `s` dropped) and numbers of a text, with each token's span, as near
/// misses compare them: the text's [`words`], a word that mixes digits and letters split into
/// its numbers and words (`3items`), numbers without leading zeros.
fn tokens(text: &str) -> Vec<(Token, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    for word in words(text) {
        // Pieces are cut from the text as written, so that their spans point into it.
        let (raw, from) = (&text[word.span.clone()], word.span.start);
        let mut at = 0;
        while at < raw.len() {
            let digit = raw[at..].starts_with(|c: char| c.is_ascii_digit());
            let end = raw[at..]
                .find(|c: char| c.is_ascii_digit() != digit)
                .map_or(raw.len(), |e| at + e);
            let piece = &raw[at..end];
            let token = if digit {
                Token::Number(piece.trim_start_matches('0').to_owned())
            } else {
                let lower = piece.to_lowercase().replace('’', "'");
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
    }
    out
}

/// A stretch of `text` that is a near miss of `expected` (the same words in the same order,
/// numbers where `expected` has them, at least one of them another number), when `text`
/// nowhere holds `expected` itself. `expected` must hold a number the sentence states
/// (`claimed`).
fn near_miss_in(expected: &str, text: &str, claimed: &[String]) -> Option<String> {
    let wanted: Vec<Token> = tokens(expected).into_iter().map(|(t, _)| t).collect();
    if !wanted
        .iter()
        .any(|t| matches!(t, Token::Number(n) if claimed.contains(n)))
    {
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
            // The page's text nodes are joined by line breaks: quote the span on one line.
            miss = Some(text[span].split_whitespace().collect::<Vec<_>>().join(" "));
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

    /// A failed `frame.expect` call, as the script layer records it: a read, and the state a
    /// state matcher expects by default.
    fn expect(expression: &str, matches: u64, received: &str) -> ObservedCall {
        ObservedCall {
            method: "expect".into(),
            selector: Some("internal:testid=[data-testid=\"todo-count\"s]".into()),
            expression: Some(expression.into()),
            matches: Some(matches),
            received: Some(received.into()),
            kind: Some(Kind::Reads),
            expected_state: match expression {
                "to.be.checked" => Some("checked"),
                "to.be.visible" => Some("visible"),
                "to.be.hidden" => Some("hidden"),
                _ => None,
            },
            ..ObservedCall::default()
        }
    }

    fn seen(call: ObservedCall, page_text: &str) -> Observation {
        Observation {
            call: Some(call),
            value_check: None,
            page_text: Some(page_text.into()),
            loaded: true,
        }
    }

    /// A state matcher's failure: the expected state is in the call, not the message.
    fn state_failed() -> StepFailure {
        StepFailure::new(
            FailureKind::FailedCheck,
            "expect(locator).toBeChecked() failed",
        )
    }

    fn one() -> Vec<String> {
        vec!["1".to_owned()]
    }

    #[test]
    fn near_misses_are_the_same_words_with_another_number() {
        assert_eq!(
            near_miss_in("1 item left", "2 items left!", &one()),
            Some("2 items left".into())
        );
        assert_eq!(
            near_miss_in("1 item left", "12 items left", &one()),
            Some("12 items left".into())
        );
        assert_eq!(
            near_miss_in("1 item left", "1 item left", &one()),
            None,
            "the same text"
        );
        assert_eq!(
            near_miss_in("1 item left", "1 items left", &one()),
            None,
            "the same number"
        );
        assert_eq!(
            near_miss_in("buy milk", "buy milk 2", &one()),
            None,
            "no number expected"
        );
        assert_eq!(
            near_miss_in("1 item left", "2 things left", &one()),
            None,
            "other words"
        );
        assert_eq!(
            near_miss_in("1 item left", "2 items left and 1 item left", &one()),
            None,
            "the expected text is on the page too"
        );
        assert_eq!(
            near_miss_in("Total: 3", "total 03", &["3".to_owned()]),
            None,
            "leading zeros"
        );
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
            &state_failed(),
            &seen(call, "buy milk"),
        );
        assert_eq!(
            judged,
            Judgement::Defect(
                "the check's subject is on the page and is unchecked where the step expects \
                 checked (toBeChecked)"
                    .into()
            )
        );
        let mut gone = expect("to.be.visible", 1, "visible");
        gone.negated = true;
        let judged = judge(
            "the todo 'buy milk' is not shown",
            &state_failed(),
            &seen(gone, "buy milk"),
        );
        assert!(matches!(&judged, Judgement::Defect(d) if d.contains("not.toBeVisible")));
        // `toBeChecked({ checked: false })` expects unchecked: unchecked now is no defect.
        let mut call = expect("to.be.checked", 1, "unchecked");
        call.expected_state = Some("unchecked");
        assert_eq!(
            judge("x", &state_failed(), &seen(call, "")),
            Judgement::Undecided
        );
        // A spinner that hid after the timeout is in the expected state now: no defect.
        let spinner = expect("to.be.hidden", 1, "hidden");
        assert_eq!(
            judge("the spinner is gone", &state_failed(), &seen(spinner, "")),
            Judgement::Undecided
        );
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
            kind: Some(Kind::Reads),
            ..ObservedCall::default()
        };
        let failure = StepFailure::new(
            FailureKind::FailedCheck,
            "expect(received).toBe(expected)\n\nExpected: \"1 item left\"\nReceived: \"2 items left\"",
        );
        let check = ValueCheck {
            expected: "1 item left".into(),
            received: "2 items left".into(),
        };
        let seen = Observation {
            value_check: Some(check),
            ..seen(call, "")
        };
        let judged = judge("the counter shows 1 item left", &failure, &seen);
        assert!(matches!(&judged, Judgement::Defect(d) if d.contains("\"2 items left\"")));
    }

    #[test]
    fn row_5_an_expected_text_missing_with_a_near_miss_on_the_page_is_a_defect() {
        let call = ObservedCall {
            method: "expect".into(),
            kind: Some(Kind::Reads),
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
            kind: Some(Kind::Interacts),
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
    fn row_6_a_vanished_target_with_only_likenesses_left_is_undecided_with_the_candidates() {
        let call = ObservedCall {
            method: "click".into(),
            kind: Some(Kind::Interacts),
            selector: Some("internal:role=button[name=\"Delete\"s]".into()),
            matches: Some(0),
            similar: vec!["Delete all".into()],
            ..ObservedCall::default()
        };
        let timeout = StepFailure::new(FailureKind::Timeout, "locator.click: Timeout 5000ms");
        let judged = judge(
            "click the \"Delete\" button",
            &timeout,
            &seen(call.clone(), "Delete all"),
        );
        assert!(
            matches!(&judged, Judgement::Likeness(why) if why.contains("\"Delete all\"")),
            "{judged:?}"
        );
        // An element with the name itself (in another case) is the target renamed: rot.
        let renamed = ObservedCall {
            similar: vec!["Delete all".into(), "DELETE".into()],
            ..call
        };
        let judged = judge(
            "click the \"Delete\" button",
            &timeout,
            &seen(renamed, "DELETE"),
        );
        assert!(matches!(judged, Judgement::Rot(_)), "{judged:?}");
    }

    #[test]
    fn row_6_a_check_whose_subject_vanished_is_no_rot_candidate() {
        // The app may have stopped rendering it; code written afresh could check another thing.
        let call = ObservedCall {
            method: "expect".into(),
            kind: Some(Kind::Reads),
            selector: Some(".toast-success".into()),
            expression: Some("to.be.visible".into()),
            matches: Some(0),
            received: Some(NOT_FOUND.into()),
            ..ObservedCall::default()
        };
        assert_eq!(
            judge(
                "the message is shown",
                &check_failed(),
                &seen(call, "Cookies")
            ),
            Judgement::Undecided
        );
    }

    #[test]
    fn numbers_the_sentence_does_not_state_and_non_text_matchers_decide_nothing() {
        let mut results = expect("to.have.text", 1, "\"241 results\"");
        results.expected_texts = vec!["237 results".into()];
        assert_eq!(
            judge(
                "the search shows the results",
                &check_failed(),
                &seen(results, "241 results")
            ),
            Judgement::Undecided
        );
        let mut css = expect("to.have.css", 1, "\"14px\"");
        css.expected_texts = vec!["16px".into()];
        assert_eq!(
            judge("the title is 16px", &check_failed(), &seen(css, "")),
            Judgement::Undecided
        );
        // A text of numbers alone is not searched for on the page.
        let count = ObservedCall {
            method: "expect".into(),
            kind: Some(Kind::Reads),
            selector: Some("internal:testid=[data-testid=\"cart-count\"s]".into()),
            expression: Some("to.have.text".into()),
            expected_texts: vec!["3".into()],
            matches: Some(0),
            received: Some(NOT_FOUND.into()),
            ..ObservedCall::default()
        };
        assert_eq!(
            judge(
                "the cart holds 3",
                &check_failed(),
                &seen(count, "Total 12 EUR, 2024")
            ),
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
        assert!(
            selector_texts("internal:testid=[data-testid=\"step-2\"s]").is_empty(),
            "a test id is not text on the page"
        );
    }
}
