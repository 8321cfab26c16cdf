//! [`Visible`]: text from pages, steps and the model made safe for a terminal. Control
//! characters (ESC, BEL, NUL, CR, the rest of C0 but newline and tab, DEL and C1) are shown as
//! `\x1b`-style escapes, so that page text cannot colour, retitle or rewrite the terminal.

use std::borrow::Cow;
use std::fmt;

/// `text` with its control characters but `\n` and `\t` written as `\xNN` (`\u{NN}` for C1).
pub(crate) fn visible(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !unsafe_char(c) {
            out.push(c);
        } else if (c as u32) < 0x80 {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
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
}
