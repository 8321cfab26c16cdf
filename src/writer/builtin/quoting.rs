//! Items of a test (the todos it added) written back as quoted text: in a sentence the
//! tokenizer reads again, and in a message.
//!
//! Main function: [`quoted`].

/// `item` in quotes the tokenizer reads back whole: the first kind it does not hold.
pub(crate) fn quoted(item: &str) -> Option<String> {
    [('"', '"'), ('\'', '\''), ('\u{201c}', '\u{201d}')]
        .iter()
        .find(|(open, close)| !item.contains(*open) && !item.contains(*close))
        .map(|(open, close)| format!("{open}{item}{close}"))
}

/// `"a", "b" and "c"`.
pub(super) fn quoted_list(items: &[String]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|item| quoted(item).unwrap_or_default())
        .collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The items as a message lists them.
pub(super) fn listed(items: &[String]) -> String {
    if items.is_empty() {
        return "none".to_owned();
    }
    items
        .iter()
        .map(|item| format!("\"{item}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A JavaScript string literal's text, its escapes undone.
pub(crate) fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}
