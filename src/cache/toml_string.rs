//! How prettyplay spells strings in cache files: the stable quoting of `docs/cache-format.md`.
//!
//! Main functions: [`basic_string`] (`"..."` with escapes, for every string but code) and
//! [`multi_line_string`] (step code: a `'''` literal string when it can be, else a `"""` basic
//! one). Both return TOML that reads back exactly as the string given.

/// `s` as a TOML basic string: `"..."` with escapes.
pub(crate) fn basic_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => push_control_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `code` as a TOML multi-line string that reads back exactly as `code`: a literal `'''` string
/// when it can be, else a basic `"""` string with escapes. Both start with a newline (which TOML
/// trims) and keep real newlines; the closing delimiter follows the code's last character.
pub(crate) fn multi_line_string(code: &str) -> String {
    let literal = !code.contains("'''")
        && !code.ends_with('\'')
        && code
            .chars()
            .all(|c| c == '\n' || c == '\t' || !c.is_control());
    if literal {
        return format!("'''\n{code}'''");
    }
    let mut out = String::with_capacity(code.len() + 8);
    out.push_str("\"\"\"\n");
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            // Escaping every quote but the last of a run (and one right before the closing
            // delimiter) keeps `"""` out of the content.
            '"' if matches!(chars.peek(), Some('"') | None) => out.push_str("\\\""),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => push_control_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out.push_str("\"\"\"");
    out
}

fn push_control_escape(out: &mut String, c: char) {
    match c {
        '\r' => out.push_str("\\r"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        c => out.push_str(&format!("\\u{:04X}", u32::from(c))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_code_is_a_literal_string_and_tricky_code_a_basic_one() {
        assert_eq!(
            multi_line_string("a 'b' \"c\" \\d\n"),
            "'''\na 'b' \"c\" \\d\n'''"
        );
        assert_eq!(multi_line_string("x = '''\n"), "\"\"\"\nx = '''\n\"\"\"");
        assert_eq!(
            multi_line_string("a\r\nb \\ \"\"\""),
            "\"\"\"\na\\r\nb \\\\ \\\"\\\"\\\"\"\"\""
        );
    }

    #[test]
    fn basic_strings_escape_quotes_backslashes_and_controls() {
        assert_eq!(basic_string("plain"), "\"plain\"");
        assert_eq!(
            basic_string("a \"b\" \\ \n\t\r\u{0}\u{85} é"),
            "\"a \\\"b\\\" \\\\ \\n\\t\\r\\u0000\\u0085 é\""
        );
    }
}
