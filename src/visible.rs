//! [`Visible`]: text from `.steps` files, pages, steps and the model made safe for a terminal.
//! Control characters (ESC, BEL, NUL, CR, the rest of C0 but newline and tab, DEL and C1) and
//! the invisible characters that reorder or break lines (bidirectional overrides, isolates and
//! marks such as U+202E, the line and paragraph separators) are shown as escapes, so that a name
//! cannot colour, retitle, clear or rewrite the terminal, or show a reviewer other text than the
//! file holds.
//!
//! [`visible`] is the one escaping function of every output path that reaches a terminal (the
//! reporters, `list`, `explain`, `init`, `cache prune`, warnings and the final error);
//! [`visible_json`] applies the same rule to JSON printed on stdout (`list --format json`),
//! as JSON escapes, so that the document still means the same.

use std::borrow::Cow;
use std::fmt;

/// Whether `c` must not reach a terminal as it is: see the module's comment.
pub(crate) fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// `text` with its unsafe characters (see [`is_unsafe`]) written as `\xNN` (ASCII) or `\u{NN}`.
pub(crate) fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !is_unsafe(c) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        }
    }
    Cow::Owned(out)
}

/// A JSON document with its unsafe characters written as `\uNNNN` escapes. The result is the same
/// JSON value: outside strings JSON has no such characters, and inside them an escape means the
/// character it names (serde_json already escapes C0 and leaves DEL, C1 and the rest raw).
pub(crate) fn visible_json(json: &str) -> Cow<'_, str> {
    if !json.chars().any(is_unsafe) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Displays `T` through [`visible`].
pub(crate) struct Visible<T>(pub T);

impl<T: fmt::Display> fmt::Display for Visible<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&visible(&self.0.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_as_escapes() {
        assert_eq!(
            visible("\u{1b}[31mred\u{7}\0\r\u{7f}\u{9b}"),
            "\\x1b[31mred\\x07\\x00\\x0d\\x7f\\u{9b}"
        );
        assert_eq!(visible("line\n\ttab é"), "line\n\ttab é");
        assert!(matches!(visible("plain"), Cow::Borrowed(_)));
        assert_eq!(Visible("a\u{7}").to_string(), "a\\x07");
    }

    #[test]
    fn bidirectional_overrides_and_line_separators_are_shown_as_escapes() {
        assert_eq!(
            visible("admin\u{202e}txt.exe\u{2066}\u{2028}"),
            "admin\\u{202e}txt.exe\\u{2066}\\u{2028}"
        );
        // Right-to-left text itself is no control.
        assert_eq!(visible("שלום"), "שלום");
    }

    #[test]
    fn json_keeps_its_value_with_the_unsafe_characters_escaped() {
        let value = serde_json::json!({"name": "a\u{1b}\u{7f}\u{9b}\u{202e}\r\nb"});
        let json = serde_json::to_string(&value).unwrap();
        let shown = visible_json(&json);
        assert!(!shown.chars().any(is_unsafe), "{shown}");
        assert_eq!(shown, "{\"name\":\"a\\u001b\\u007f\\u009b\\u202e\\r\\nb\"}");
        let back: serde_json::Value = serde_json::from_str(&shown).unwrap();
        assert_eq!(back, value);
    }
}
