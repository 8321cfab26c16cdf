//! The JavaScript of the values an HTTP sentence writes (for `http_code.rs`, and for `http.rs`,
//! which checks a sentence's values with it): texts whose `${NAME}` placeholders read `vars`, URLs
//! whose placeholders are encoded as one component each, and JSON bodies as object literals in the
//! order written. Every text is escaped for the literal it is in, so no sentence can write code of
//! its own into a step.
//!
//! Main functions: [`template_js`], [`url_js`] and [`json_js`].

use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::locator::js_str;

/// One piece of a text with placeholders.
enum Piece<'s> {
    Text(&'s str),
    /// A placeholder's variable name.
    Var(&'s str),
}

/// `text` cut into literal text and `${NAME}` placeholders. A `${` that does not close, or whose
/// name is no variable name, is declined: it can only be a mistake.
fn pieces<'s>(text: &'s str) -> Result<Vec<Piece<'s>>, Decline> {
    let mut pieces = Vec::new();
    let mut rest = text;
    let mut start = 0;
    let mut at = 0;
    while at < rest.len() {
        let tail = &rest[at..];
        let var = if tail.starts_with("${") {
            let end = tail.find('}').ok_or_else(|| {
                Decline::new(format!("`${{` in `{text}` does not close with `}}`"))
            })?;
            let name = &tail[2..end];
            if !is_identifier(name) {
                return Err(Decline::new(format!(
                    "`${{{name}}}` is not a variable: a name is letters, digits and `_`"
                )));
            }
            Some((name, end + 1))
        } else {
            None
        };
        match var {
            Some((name, len)) => {
                if start < at {
                    pieces.push(Piece::Text(&rest[start..at]));
                }
                pieces.push(Piece::Var(name));
                rest = &rest[at + len..];
                start = 0;
                at = 0;
            }
            None => at += tail.chars().next().map_or(1, char::len_utf8),
        }
    }
    if start < rest.len() {
        pieces.push(Piece::Text(&rest[start..]));
    }
    Ok(pieces)
}

pub(crate) fn is_identifier(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The JavaScript of a text with placeholders: a string literal, `vars.NAME`, or a template
/// literal whose placeholders read `vars` (each through `encodeURIComponent` when `encode`).
pub(super) fn template_js(text: &str, encode: bool) -> Result<String, Decline> {
    let pieces = pieces(text)?;
    let var = |name: &str| {
        if encode {
            format!("encodeURIComponent(vars.{name})")
        } else {
            format!("vars.{name}")
        }
    };
    Ok(match pieces.as_slice() {
        [] => "''".to_owned(),
        [Piece::Text(text)] => js_str(text),
        [Piece::Var(name)] if !encode => var(name),
        _ => {
            let mut out = String::from("`");
            for piece in &pieces {
                match piece {
                    Piece::Text(text) => {
                        for c in text.chars() {
                            match c {
                                '\\' => out.push_str("\\\\"),
                                '`' => out.push_str("\\`"),
                                '$' => out.push_str("\\$"),
                                '\r' => out.push_str("\\r"),
                                '\n' => out.push_str("\\n"),
                                c => out.push(c),
                            }
                        }
                    }
                    Piece::Var(name) => out.push_str(&format!("${{{}}}", var(name))),
                }
            }
            out.push('`');
            out
        }
    })
}

/// The URL's JavaScript: placeholders in the path and query are encoded as one URL component
/// each; a placeholder in the scheme or host is declined, since encoding would break it.
pub(super) fn url_js(url: &str) -> Result<String, Decline> {
    let host_end = match url.find("://") {
        Some(at) => url[at + 3..]
            .find('/')
            .map_or(url.len(), |end| at + 3 + end),
        None => 0,
    };
    if pieces(&url[..host_end])?
        .iter()
        .any(|p| matches!(p, Piece::Var(_)))
    {
        return Err(Decline::new(format!(
            "a variable in the host of `{url}`: write the host, or a path relative to the base \
             URL (`/api/...`)"
        )));
    }
    template_js(url, true)
}

/// The JavaScript object or array literal of `json` (valid JSON), its keys and values in the
/// order written and its numbers as written; string values go through [`template_js`], so their
/// placeholders read `vars`.
pub(super) fn json_js(json: &str) -> Result<String, Decline> {
    let mut lexer = Lexer { text: json, at: 0 };
    let out = lexer.value()?;
    Ok(out)
}

/// Reads JSON text that serde_json has already validated.
struct Lexer<'s> {
    text: &'s str,
    at: usize,
}

impl Lexer<'_> {
    fn skip_space(&mut self) {
        let rest = &self.text[self.at..];
        self.at += rest.len() - rest.trim_start_matches([' ', '\t', '\n', '\r']).len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.text[self.at..].chars().next()
    }

    fn bump(&mut self) {
        self.at += 1;
    }

    /// A JSON string token, decoded.
    fn string(&mut self) -> Result<String, Decline> {
        let start = self.at;
        self.bump();
        let bytes = self.text.as_bytes();
        while bytes[self.at] != b'"' {
            self.at += if bytes[self.at] == b'\\' { 2 } else { 1 };
        }
        self.bump();
        serde_json::from_str(&self.text[start..self.at])
            .map_err(|e| Decline::new(format!("the body is not valid JSON: {e}")))
    }

    fn value(&mut self) -> Result<String, Decline> {
        match self.peek() {
            Some('{') => {
                self.bump();
                let mut members = Vec::new();
                while self.peek() != Some('}') {
                    let key = self.string()?;
                    self.peek();
                    self.bump(); // `:`
                    let value = self.value()?;
                    members.push(format!("{}: {value}", key_js(&key)));
                    if self.peek() == Some(',') {
                        self.bump();
                    }
                }
                self.bump();
                Ok(if members.is_empty() {
                    "{}".to_owned()
                } else {
                    format!("{{ {} }}", members.join(", "))
                })
            }
            Some('[') => {
                self.bump();
                let mut items = Vec::new();
                while self.peek() != Some(']') {
                    items.push(self.value()?);
                    if self.peek() == Some(',') {
                        self.bump();
                    }
                }
                self.bump();
                Ok(format!("[{}]", items.join(", ")))
            }
            Some('"') => template_js(&self.string()?, false),
            _ => {
                let rest = &self.text[self.at..];
                let len = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c)))
                    .unwrap_or(rest.len());
                let token = &rest[..len];
                self.at += len;
                number_or_word(token)
            }
        }
    }
}

/// A JSON number, `true`, `false` or `null` as JavaScript writes it. An integer beyond 2^53
/// would be sent rounded, so it is declined.
fn number_or_word(token: &str) -> Result<String, Decline> {
    const SAFE: u64 = (1 << 53) - 1;
    let digits = token.trim_start_matches('-');
    if digits.chars().all(|c| c.is_ascii_digit())
        && !digits.is_empty()
        && digits.parse::<u64>().ok().is_none_or(|n| n > SAFE)
    {
        return Err(Decline::new(format!(
            "the number {token} is larger than JavaScript holds exactly (2^53); write it as a \
             string (\"{token}\")"
        )));
    }
    Ok(token.to_owned())
}

/// An object key as JavaScript writes it: bare when it is an identifier, else quoted; `__proto__`
/// is computed, since a literal `__proto__:` would set the prototype instead of a key.
fn key_js(key: &str) -> String {
    if key == "__proto__" {
        return format!("[{}]", js_str(key));
    }
    let bare = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if bare { key.to_owned() } else { js_str(key) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_template_literal_escapes_what_would_end_it_or_start_a_substitution() {
        assert_eq!(
            template_js("`${A}` $ \\ \r", true).unwrap(),
            "`\\`${encodeURIComponent(vars.A)}\\` \\$ \\\\ \\r`"
        );
        assert_eq!(template_js("${A}", false).unwrap(), "vars.A");
        assert_eq!(
            template_js("${A}", true).unwrap(),
            "`${encodeURIComponent(vars.A)}`"
        );
        assert_eq!(template_js("it's", false).unwrap(), "'it\\'s'");
        assert_eq!(template_js("", false).unwrap(), "''");
        for bad in ["${A", "${}", "${1A}", "${a-b}", "${a}${b)}"] {
            assert!(template_js(bad, false).is_err(), "{bad}");
        }
    }

    #[test]
    fn keys_are_bare_quoted_or_computed() {
        assert_eq!(key_js("title"), "title");
        assert_eq!(key_js("$x_1"), "$x_1");
        assert_eq!(key_js("content-type"), "'content-type'");
        assert_eq!(key_js("1a"), "'1a'");
        assert_eq!(key_js("__proto__"), "['__proto__']");
        assert_eq!(key_js("it's"), "'it\\'s'");
    }

    #[test]
    fn numbers_are_written_as_in_the_sentence_while_javascript_holds_them() {
        assert_eq!(number_or_word("-12").unwrap(), "-12");
        assert_eq!(number_or_word("1.50").unwrap(), "1.50");
        assert_eq!(number_or_word("2E-3").unwrap(), "2E-3");
        assert_eq!(number_or_word("null").unwrap(), "null");
        assert_eq!(
            number_or_word("9007199254740991").unwrap(),
            "9007199254740991"
        );
        assert!(number_or_word("-9007199254740992").is_err());
        assert!(number_or_word("123456789012345678901234567890").is_err());
    }
}
