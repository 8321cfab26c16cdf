//! [`ConfigError`]: what went wrong while finding, reading or validating settings, and where.
//!
//! A bad value in the settings file is shown as `file:line:col: message`, the offending line with
//! a caret under the value, and an optional hint ([`Located`]).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::snippet::Snippet;

/// An error while finding, reading or validating settings.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// `--config PATH` names nothing.
    #[error("config file `{}` does not exist", .path.display())]
    NotFound { path: PathBuf },
    /// The settings file exists but cannot be read (or is not UTF-8).
    #[error("cannot read `{}`", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The settings file is not valid TOML, has an unknown key or a wrongly typed or out-of-range
    /// value. Displayed as `file:line:col: message`, the offending
    /// line, and an optional hint.
    #[error("{}", Located::new(.path, .at.as_ref(), .message, .hint.as_deref()))]
    File {
        path: PathBuf,
        /// 1-based line and character column, and the line's text, where known.
        at: Option<(usize, usize, String)>,
        message: String,
        hint: Option<String>,
    },
    /// A `PRETTYPLAY_*` variable holds a value of the wrong form.
    #[error("environment variable `{var}` has invalid value `{value}`: expected {expected}")]
    Env {
        var: String,
        value: String,
        expected: &'static str,
    },
    /// A command-line override holds a value of the wrong form.
    #[error("invalid value `{value}` for `--{flag}`: expected {expected}")]
    Flag {
        flag: &'static str,
        value: String,
        expected: &'static str,
    },
    /// A scenario variable's value cannot be used (a secret too short to mask).
    #[error("{message}\n  = hint: {hint}")]
    Vars { message: String, hint: String },
    /// `[browser]` settings that cannot go together, whichever sources they come from.
    #[error("{message}\n  = hint: {hint}")]
    Browser { message: String, hint: String },
}

/// 1-based line and character column of a byte offset, and that line's text.
pub(super) fn position(text: &str, offset: usize) -> (usize, usize, String) {
    let offset = offset.min(text.len());
    // Back off to a char boundary so slicing cannot panic on a span inside a character.
    let offset = (0..=offset)
        .rev()
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(0);
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let col = before[line_start..].chars().count() + 1;
    let rest = &text[line_start..];
    let line_text = rest.split('\n').next().unwrap_or("");
    let line_text = line_text.strip_suffix('\r').unwrap_or(line_text);
    (line, col, quotable(line_text))
}

/// Names of keys whose values are secrets: an error never quotes them.
const SECRET_WORDS: [&str; 6] = ["key", "token", "secret", "password", "header", "auth"];

/// A line of the settings file as an error may quote it: the value of a key whose name says it
/// holds a secret (`api_key = ...`, even as a typo of an unknown key) and the values of URL
/// query parameters (`?key=...`) read `[redacted]`.
fn quotable(line: &str) -> String {
    if let Some((key, _)) = line.split_once('=')
        && names_a_secret(key.trim().trim_matches(['"', '\'']))
    {
        return format!("{key}= [redacted]");
    }
    let Some(query_at) = line.find('?') else {
        return line.to_owned();
    };
    let (head, query) = line.split_at(query_at + 1);
    let end = query
        .find(|c: char| c == '"' || c == '\'' || c == '#' || c.is_whitespace())
        .unwrap_or(query.len());
    let (params, tail) = query.split_at(end);
    let params: Vec<String> = params
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) => format!("{name}=[redacted]"),
            None => pair.to_owned(),
        })
        .collect();
    format!("{head}{}{tail}", params.join("&"))
}

/// Whether a key's name says it holds a secret (`api_key`, `connect_headers`, `auth_token`).
pub(super) fn names_a_secret(key: &str) -> bool {
    let name = key.to_lowercase();
    SECRET_WORDS.iter().any(|word| name.contains(word))
}

/// Renders [`ConfigError::File`]: `file:line:col: message`, the line with a caret, the hint.
struct Located<'a> {
    path: &'a Path,
    at: Option<&'a (usize, usize, String)>,
    message: &'a str,
    hint: Option<&'a str>,
}

impl<'a> Located<'a> {
    fn new(
        path: &'a Path,
        at: Option<&'a (usize, usize, String)>,
        message: &'a str,
        hint: Option<&'a str>,
    ) -> Self {
        Located {
            path,
            at,
            message,
            hint,
        }
    }
}

impl fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        let Some((line, col, text)) = self.at else {
            write!(f, "{path}: {}", self.message)?;
            if let Some(hint) = self.hint {
                write!(f, "\n  = hint: {hint}")?;
            }
            return Ok(());
        };
        write!(
            f,
            "{path}:{line}:{col}: {}\n{}",
            self.message,
            Snippet::new(*line, *col, text, self.hint)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_lines_never_show_a_secret() {
        for (line, shown) in [
            (
                "base_url = \"http://h/v1?key=SECRET&x=1\"",
                "base_url = \"http://h/v1?key=[redacted]&x=[redacted]\"",
            ),
            (
                "base_url = \"http://h/v1?key=SECRET",
                "base_url = \"http://h/v1?key=[redacted]",
            ),
            ("api_key = \"sk-SECRET\"", "api_key = [redacted]"),
            ("\"auth_token\" = 'SECRET'", "\"auth_token\" = [redacted]"),
            ("timeout = 5", "timeout = 5"),
            ("base_url = \"http://h/v1\"", "base_url = \"http://h/v1\""),
        ] {
            assert_eq!(quotable(line), shown, "{line}");
            assert_eq!(position(line, 3).2, shown, "{line}");
        }
    }
}
