//! Escaping text for XML and HTML: the five special characters, ANSI colour codes removed, and
//! characters XML 1.0 forbids replaced, so a step name or an error message can never change the
//! structure of a report.
//!
//! Main function: [`escape`].

/// `text` as element content (XML and HTML): `&`, `<` and `>` escaped.
pub(crate) fn escape(text: &str) -> String {
    let text = console::strip_ansi_codes(text);
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if is_forbidden(c) => out.push('\u{FFFD}'),
            // The rest of what a terminal would act on (DEL, C1 controls, bidirectional
            // overrides, line separators) as a character reference: the same character to an
            // XML or HTML reader, never a raw one in the file.
            c if crate::visible::is_unsafe(c) => out.push_str(&format!("&#x{:x};", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

/// `text` as a quoted attribute value: also quotes escaped, and line breaks and tabs as
/// character references so that they survive attribute normalisation.
pub(crate) fn escape_attr(text: &str) -> String {
    escape(text)
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
        .replace('\t', "&#9;")
}

/// Characters that XML 1.0 does not allow in a document (control characters, U+FFFE, U+FFFF).
fn is_forbidden(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_strips_colours_and_replaces_forbidden_characters() {
        assert_eq!(
            escape("<b a=\"1\">&</b>\u{1b}[31mred\u{1b}[0m\u{7}"),
            "&lt;b a=\"1\"&gt;&amp;&lt;/b&gt;red\u{FFFD}"
        );
        assert_eq!(escape_attr("a\nb\t\"c'"), "a&#10;b&#9;&quot;c&#39;");
        assert_eq!(
            escape("a\u{85}\u{202e}b\u{7f}c\u{2028}"),
            "a&#x85;&#x202e;b&#x7f;c&#x2028;"
        );
    }
}
