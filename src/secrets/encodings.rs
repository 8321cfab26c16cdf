//! The regular expression that finds a secret value in every form it can take on its way to a
//! sink: as it is; JSON- or JavaScript-escaped, once or more (`\"`, `\\`, `\u00e4`, `\n`);
//! HTML-escaped (`&quot;`, `&#39;`, `&amp;lt;`); percent-encoded, upper or lower case, once or
//! twice, with `+` or `%20` for a space; and with its whitespace changed, because page text and
//! aria snapshots join a value's lines with one space or none. Each character may take any of
//! its forms independently, so a value escaped one way and then encoded another is found too.
//! Letter case is kept: a secret such as `password` must not mask every "Password" label.
//!
//! Main functions: [`value_pattern`], [`prefix_pattern`] and, for values too long for a
//! pattern per character, [`literal_forms`].

use std::fmt::Write as _;

/// The forms a run of whitespace in a value can take in a sink: any whitespace, escaped line
/// breaks and tabs, their percent-encodings, `+`, HTML character references and `<br>`. None at
/// all is accepted too, because a page's text can join two lines with nothing between them.
const WHITESPACE_RUN: &str = concat!(
    r"(?:\s",
    r"|\\+[nrtfv]",
    r"|\\+(?i:u00(?:0[9abcd]|20|a0))",
    r"|%(?:25)?(?i:0[9ad]|20|c2%(?:25)?a0)",
    r"|\+",
    r"|&(?:amp;)*(?:#0*(?:9|10|13|32|160);|#[xX]0*(?i:9|a|d|20|a0);|(?i:nbsp);)",
    r"|(?i:<br\s*/?>)",
    r")*",
);

/// The pattern that matches `form` (a secret value, or one line of one) in any of the forms
/// this module describes. Leading and trailing whitespace of `form` is not part of the pattern.
pub(super) fn value_pattern(form: &str) -> String {
    let mut out = String::new();
    for piece in pieces(form.trim()) {
        match piece {
            Piece::Whitespace => out.push_str(WHITESPACE_RUN),
            Piece::Char(c) => push_char(&mut out, c),
        }
    }
    out
}

/// The pattern that matches the first `min_chars` or more characters of `form`, in any of its
/// forms, for a value that a sink cut short. `None` when `form` is not longer than `min_chars`.
pub(super) fn prefix_pattern(form: &str, min_chars: usize) -> Option<String> {
    let pieces = pieces(form.trim());
    if pieces.len() <= min_chars {
        return None;
    }
    let mut out = String::new();
    for piece in &pieces[..min_chars] {
        push_piece(&mut out, *piece);
    }
    // Each further character is optional, but only after the one before it: a(?:b(?:c)?)?.
    let rest = &pieces[min_chars..];
    for piece in rest {
        out.push_str("(?:");
        push_piece(&mut out, *piece);
    }
    for _ in rest {
        out.push_str(")?");
    }
    Some(out)
}

#[derive(Clone, Copy)]
enum Piece {
    /// One or more whitespace characters in a row.
    Whitespace,
    Char(char),
}

fn pieces(form: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    for c in form.chars() {
        if c.is_whitespace() {
            if !matches!(pieces.last(), Some(Piece::Whitespace)) {
                pieces.push(Piece::Whitespace);
            }
        } else {
            pieces.push(Piece::Char(c));
        }
    }
    pieces
}

fn push_piece(out: &mut String, piece: Piece) {
    match piece {
        Piece::Whitespace => out.push_str(WHITESPACE_RUN),
        Piece::Char(c) => push_char(out, c),
    }
}

/// The usual encodings of `form` as plain strings, for a value too long for
/// [`value_pattern`]: as it is, JSON-escaped, HTML-escaped, and percent-encoded with `+` and
/// with `%20` for a space.
pub(super) fn literal_forms(form: &str) -> Vec<String> {
    let form = form.trim();
    let json = serde_json::to_string(form).unwrap_or_default();
    let json = json
        .strip_prefix('"')
        .and_then(|j| j.strip_suffix('"'))
        .unwrap_or(form)
        .to_owned();
    let html = form
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;");
    let plus: String = url::form_urlencoded::byte_serialize(form.as_bytes()).collect();
    let percent = plus.replace('+', "%20");
    let mut forms = vec![form.to_owned(), json, html, plus, percent];
    forms.sort();
    forms.dedup();
    forms
}

/// Appends the alternatives of one non-whitespace character.
fn push_char(out: &mut String, c: char) {
    let mut alternatives: Vec<String> = Vec::new();
    let mut buf = [0; 4];
    // Percent-encoded, each UTF-8 byte, possibly encoded a second time (`%2522`).
    let mut percent = String::from("(?i:");
    for byte in c.encode_utf8(&mut buf).bytes() {
        let _ = write!(percent, "%(?:25)?{byte:02x}");
    }
    percent.push(')');
    alternatives.push(percent);
    // JSON and JavaScript escapes: \u00e4 (UTF-16 units), \xe4, \u{e4}.
    let mut units = [0u16; 2];
    let mut utf16 = String::from("(?i:");
    for unit in c.encode_utf16(&mut units) {
        let _ = write!(utf16, r"\\+u{unit:04x}");
    }
    utf16.push(')');
    alternatives.push(utf16);
    let code = u32::from(c);
    if code < 0x100 {
        alternatives.push(format!(r"(?i:\\+x{code:02x})"));
    }
    alternatives.push(format!(r"(?i:\\+u\{{0*{code:x}\}})"));
    // HTML character references, escaped again any number of times (`&amp;quot;`).
    alternatives.push(format!(r"&(?:amp;)*#0*{code};"));
    alternatives.push(format!(r"&(?:amp;)*#[xX]0*(?i:{code:x});"));
    match c {
        '&' => alternatives.push("&(?:amp;)+".to_owned()),
        '<' => alternatives.push("&(?:amp;)*lt;".to_owned()),
        '>' => alternatives.push("&(?:amp;)*gt;".to_owned()),
        '"' => alternatives.push("&(?:amp;)*quot;".to_owned()),
        '\'' => alternatives.push("&(?:amp;)*apos;".to_owned()),
        _ => {}
    }
    // The character as it is comes last: alternation prefers earlier branches, and `%` or `&`
    // alone must not win over the `%25` or `&amp;` that begins a longer form.
    let literal = regex::escape(c.encode_utf8(&mut buf));
    if c.is_ascii_punctuation() {
        // JSON and JavaScript put a backslash before quotes, backslashes and slashes, and
        // escaping twice doubles it; other punctuation may carry a needless one.
        alternatives.push(format!(r"\\*{literal}"));
    } else {
        alternatives.push(literal);
    }
    out.push_str("(?:");
    out.push_str(&alternatives.join("|"));
    out.push(')');
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex::Regex;

    fn finds(form: &str, text: &str) -> bool {
        Regex::new(&value_pattern(form)).unwrap().is_match(text)
    }

    #[test]
    fn a_value_is_found_in_each_encoding() {
        let value = "Ht<&>\"qz ä/1";
        for text in [
            "Ht<&>\"qz ä/1",
            r#"Ht<&>\"qz \u00e4\/1"#,
            r#"Ht<&>\\\"qz ä/1"#,
            "Ht&lt;&amp;&gt;&quot;qz &#228;/1",
            "Ht&amp;lt;&amp;amp;&amp;gt;&amp;quot;qz ä/1",
            "Ht%3C%26%3E%22qz%20%C3%A4%2F1",
            "Ht%3c%26%3e%22qz+%c3%a4%2f1",
            "Ht%253C%2526%253E%2522qz%2520%25C3%25A4%252F1",
            "Ht<&>\"qz\nä/1",
            "Ht<&>\"qzä/1",
        ] {
            assert!(finds(value, text), "not found in {text}");
        }
        assert!(!finds(value, "Ht<&>\"qz ö/1"));
    }

    #[test]
    fn a_prefix_needs_its_first_characters() {
        let pattern =
            Regex::new(&format!("^(?:{})$", prefix_pattern("hunter22", 4).unwrap())).unwrap();
        assert!(pattern.is_match("hunt"));
        assert!(pattern.is_match("hunter2"));
        assert!(!pattern.is_match("hun"));
        assert!(!pattern.is_match("hunx"));
        assert_eq!(prefix_pattern("abcd", 4), None);
    }
}
