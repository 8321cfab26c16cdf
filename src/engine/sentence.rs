//! For the heal veto: whether a sentence writes an expected value (the sentence is the spec: a
//! healed value it writes may replace a cached one it does not). The sentence itself is read by
//! [`crate::writer::words`] and [`crate::writer::quoted_literals`].
//!
//! Main function: [`expected_change`].

use crate::engine::checks::Value;
use crate::writer::quoted_literals;

/// How the expected values changed, or `None` when they did not (or changed to values the
/// sentence writes: the sentence is the spec, the cached code may have been wrong).
pub(crate) fn expected_change(old: &[Value], new: &[Value], sentence: &str) -> Option<String> {
    if old.len() != new.len() {
        return Some(format!(
            "the assertion's expected values changed from ({}) to ({})",
            shown_all(old),
            shown_all(new)
        ));
    }
    for (o, n) in old.iter().zip(new) {
        if o == n {
            continue;
        }
        if let (Value::Str(_), Value::Regex { .. }) = (o, n) {
            return Some(format!(
                "the expected text {} became the pattern {}, which matches more",
                o.shown(),
                n.shown()
            ));
        }
        // The cached value already said what the sentence says: nothing may change it.
        if written_in(o, sentence) {
            return Some(format!(
                "the expected value changed from {} to {}, although the step sentence says {}",
                o.shown(),
                n.shown(),
                o.shown()
            ));
        }
        if let (Value::Str(_), Value::Regex { .. }) = (o, n) {
            return Some(format!(
                "the expected text {} became the pattern {}, which matches more",
                o.shown(),
                n.shown()
            ));
        }
        if quoted_in(n, sentence) {
            continue;
        }
        return Some(format!(
            "the expected value changed from {} to {}, which the step sentence does not quote",
            o.shown(),
            n.shown()
        ));
    }
    None
}

fn shown_all(values: &[Value]) -> String {
    values
        .iter()
        .map(Value::shown)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the sentence quotes `value`: a string as one of its quoted literals (whitespace
/// aside), a number written as a whole word, a list when each item is quoted. A pattern or a
/// computed value is never quoted.
pub(crate) fn quoted_in(value: &Value, sentence: &str) -> bool {
    let norm = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    match value {
        Value::Str(s) => {
            let s = norm(s);
            !s.is_empty() && quoted_literals(sentence).iter().any(|q| norm(q) == s)
        }
        Value::Number(n) => contains_words(sentence, &n.to_string()),
        Value::List(items) => items.iter().all(|item| quoted_in(item, sentence)),
        Value::Regex { .. } | Value::Expression(_) => false,
    }
}

/// Whether the sentence writes `value`: a string as one of its quoted literals or as a run of
/// whole words, a number as a whole word, a list when each item is written.
pub(crate) fn written_in(value: &Value, sentence: &str) -> bool {
    match value {
        Value::Str(s) => {
            let s = s.trim();
            !s.is_empty()
                && (quoted_literals(sentence).iter().any(|q| q == s) || contains_words(sentence, s))
        }
        Value::Number(n) => contains_words(sentence, &n.to_string()),
        Value::List(items) => items.iter().all(|item| written_in(item, sentence)),
        Value::Regex { .. } | Value::Expression(_) => false,
    }
}

/// Whether `needle` occurs in `text` on word boundaries (case-insensitive).
fn contains_words(text: &str, needle: &str) -> bool {
    let (text, needle) = (text.to_lowercase(), needle.to_lowercase());
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(&needle).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + needle.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_is_found_on_word_boundaries() {
        assert!(contains_words("the list shows 3 todos", "3"));
        assert!(!contains_words("the list shows 30 todos", "3"));
    }

    #[test]
    fn a_value_may_change_only_to_one_the_sentence_writes_and_from_one_it_does_not() {
        let text = |s: &str| vec![Value::Str(s.to_owned())];
        let sentence = "the counter says \"1 item left\"";
        assert_eq!(
            expected_change(&text("1 items left"), &text("1 item left"), sentence),
            None
        );
        assert!(expected_change(&text("1 item left"), &text("2 items left"), sentence).is_some());
        assert!(expected_change(&text("x"), &text("y"), sentence).is_some());
        let pattern = vec![Value::Regex {
            pattern: "item".into(),
            flags: String::new(),
        }];
        assert!(
            expected_change(&text("1 items left"), &pattern, sentence)
                .is_some_and(|why| why.contains("became the pattern"))
        );
    }
}
