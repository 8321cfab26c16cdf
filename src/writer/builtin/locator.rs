//! A locator found on the page ([`Found`]) and the text helpers every locator is written with:
//! names compared with whitespace and case collapsed ([`norm`]), an element's own text
//! ([`own_text`]) and a JavaScript string literal ([`js_str`]). Element resolution
//! (`resolve.rs`) and rows and lists (`rows.rs`) both build on them.
//!
//! Main type: [`Found`].

use crate::writer::builtin::snapshot::{Node, is_field, names_its_text};

/// Where a target was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    /// A JavaScript locator expression.
    pub locator: String,
    /// The node it found.
    pub node: usize,
}

/// A JavaScript string literal of `text`, in single quotes.
pub(crate) fn js_str(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('\'');
    for c in text.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// The text Playwright's `getByText` sees on a node: its own text, or a button's or a link's
/// name.
pub(crate) fn own_text(node: &Node) -> Option<&str> {
    if is_field(&node.role) {
        return None;
    }
    node.text.as_deref().or(node
        .name
        .as_deref()
        .filter(|_| node.children.is_empty() && names_its_text(&node.role)))
}

/// `text` with its whitespace collapsed and lowercased, as names and texts are compared.
pub(crate) fn norm(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// `text` as an XPath 1.0 string literal, which has no escapes: quoted with the quote it does
/// not hold, or joined with `concat` when it holds both.
pub(crate) fn xpath_literal(text: &str) -> String {
    if !text.contains('"') {
        return format!("\"{text}\"");
    }
    if !text.contains('\'') {
        return format!("'{text}'");
    }
    let parts: Vec<String> = text.split('"').map(|part| format!("\"{part}\"")).collect();
    format!("concat({})", parts.join(", '\"', "))
}

#[cfg(test)]
mod tests {
    use super::xpath_literal;

    #[test]
    fn an_xpath_literal_holds_any_text() {
        assert_eq!(xpath_literal("Example 1"), "\"Example 1\"");
        assert_eq!(xpath_literal("It's gone!"), "\"It's gone!\"");
        assert_eq!(xpath_literal("Say \"hi\""), "'Say \"hi\"'");
        assert_eq!(
            xpath_literal("it's \"x\""),
            "concat(\"it's \", '\"', \"x\", '\"', \"\")"
        );
    }
}
