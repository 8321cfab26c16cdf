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
