//! [`ScenarioError`], the error type of the whole scenario area (parsing, discovery, reading),
//! and how it is shown.
//!
//! A parse error displays like rustc: `file:line:col: message`, then the offending line with a
//! caret under the column (the shared [`Snippet`]), then an optional hint. Several errors are
//! folded into one flat [`ScenarioError::Multiple`] and shown one after the other.

use std::fmt;
use std::path::PathBuf;

use crate::snippet::Snippet;

/// An error while finding, reading or parsing scenario files.
///
/// [`ScenarioError::Parse`] displays like rustc: `file:line:col: message`, then the offending line
/// with a caret under the column, then an optional hint.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// A problem at a place in a `.steps` file.
    #[error("{file}:{line}:{col}: {message}\n{}", Snippet::new(*.line, *.col, .text, .hint.as_deref()))]
    Parse {
        /// The file as shown to users (relative to the project root where possible).
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column, counted in characters (Unicode scalar values).
        col: usize,
        /// The offending line, without its line ending.
        text: String,
        /// What is wrong, a lowercase fragment.
        message: String,
        /// How to fix it, where there is something useful to say.
        hint: Option<String>,
    },
    /// A problem between tests, possibly of different files (saved states), at a test's header.
    #[error("{file}:{line}: {message}\n  = hint: {hint}")]
    Between {
        file: String,
        line: usize,
        message: String,
        hint: String,
    },
    /// The file holds no step at all (it is empty, blank or only comments).
    #[error(
        "{file}: no tests in file\n  = hint: add a `test: NAME` line followed by step sentences, or delete the file"
    )]
    NoTests { file: String },
    /// A path given to discovery does not exist.
    #[error("scenario path `{}` does not exist", .path.display())]
    NotFound { path: PathBuf },
    /// A file or directory could not be read.
    #[error("cannot read `{}`", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Several errors, each displayed in turn; never nested, never fewer than two.
    #[error("{}", DisplayMany(.0))]
    Multiple(Vec<ScenarioError>),
}

impl ScenarioError {
    /// Folds a list of errors into one: `None` for no error, the error itself for one, and a flat
    /// [`ScenarioError::Multiple`] otherwise.
    pub(crate) fn combine(errors: Vec<ScenarioError>) -> Option<ScenarioError> {
        let mut flat = Vec::with_capacity(errors.len());
        for error in errors {
            match error {
                ScenarioError::Multiple(inner) => flat.extend(inner),
                other => flat.push(other),
            }
        }
        match flat.len() {
            0 => None,
            1 => flat.pop(),
            _ => Some(ScenarioError::Multiple(flat)),
        }
    }

    /// The first invalid byte of `file`, whose content `source` is not UTF-8, as a
    /// [`ScenarioError::Parse`] at its line and column.
    pub(super) fn invalid_utf8(
        file: &str,
        source: &[u8],
        error: std::str::Utf8Error,
    ) -> ScenarioError {
        let valid = &source[..error.valid_up_to()];
        let line_start = valid.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
        // The prefix up to the bad byte is valid UTF-8 by definition of `valid_up_to`.
        let col = String::from_utf8_lossy(&valid[line_start..])
            .chars()
            .count()
            + 1;
        let rest = &source[line_start..];
        let line_end = rest.iter().position(|b| *b == b'\n').unwrap_or(rest.len());
        let line_bytes = &rest[..line_end];
        let line_bytes = line_bytes.strip_suffix(b"\r").unwrap_or(line_bytes);
        let bad = source[error.valid_up_to()];
        ScenarioError::Parse {
            file: file.to_owned(),
            line,
            col,
            text: String::from_utf8_lossy(line_bytes).into_owned(),
            message: format!("invalid UTF-8 (byte 0x{bad:02x})"),
            hint: Some(
                "`.steps` files must be UTF-8; re-save the file with that encoding".to_owned(),
            ),
        }
    }
}

/// Displays [`ScenarioError::Multiple`]: a count, then each error after a blank line, with a
/// `caused by:` line per cause (the multiple error itself has no single source to show them).
struct DisplayMany<'a>(&'a [ScenarioError]);

impl fmt::Display for DisplayMany<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} errors in scenario files:", self.0.len())?;
        for error in self.0 {
            write!(f, "\n\n{error}")?;
            let mut source = std::error::Error::source(error);
            while let Some(cause) = source {
                write!(f, "\n  caused by: {cause}")?;
                source = cause.source();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A parse error at `line`:`col` of `text`.
    fn parse_error(line: usize, col: usize, text: &str, hint: Option<&str>) -> ScenarioError {
        ScenarioError::Parse {
            file: "scenarios/todo.steps".into(),
            line,
            col,
            text: text.into(),
            message: "something is wrong".into(),
            hint: hint.map(str::to_owned),
        }
    }

    #[test]
    fn parse_error_shows_location_line_caret_and_hint() {
        assert_eq!(
            parse_error(12, 3, "  oops", Some("fix it")).to_string(),
            "scenarios/todo.steps:12:3: something is wrong\n   \
             |\n\
             12 |   oops\n   \
             |   ^\n   \
             = hint: fix it"
        );
        assert_eq!(
            parse_error(1, 1, "", None).to_string(),
            "scenarios/todo.steps:1:1: something is wrong\n  |\n1 |\n  | ^"
        );
    }

    #[test]
    fn several_errors_are_counted_and_separated() {
        let shown = ScenarioError::Multiple(vec![
            parse_error(1, 1, "a", None),
            ScenarioError::NoTests {
                file: "b.steps".into(),
            },
        ])
        .to_string();
        assert_eq!(
            shown,
            "2 errors in scenario files:\n\n\
             scenarios/todo.steps:1:1: something is wrong\n  |\n1 | a\n  | ^\n\n\
             b.steps: no tests in file\n  \
             = hint: add a `test: NAME` line followed by step sentences, or delete the file"
        );
    }

    #[test]
    fn several_errors_show_their_causes() {
        let shown = ScenarioError::Multiple(vec![
            ScenarioError::Io {
                path: PathBuf::from("a.steps"),
                source: std::io::Error::other("it is a FIFO"),
            },
            ScenarioError::NotFound {
                path: PathBuf::from("b.steps"),
            },
        ])
        .to_string();
        assert_eq!(
            shown,
            "2 errors in scenario files:\n\n\
             cannot read `a.steps`\n  caused by: it is a FIFO\n\n\
             scenario path `b.steps` does not exist"
        );
    }

    #[test]
    fn invalid_utf8_points_at_the_first_bad_byte_of_its_line() {
        let source = b"ok\r\nab\xfe\xffcd\r\nnext\n".to_vec();
        let error = std::str::from_utf8(&source).expect_err("not utf-8");
        let e = ScenarioError::invalid_utf8("x.steps", &source, error);
        let ScenarioError::Parse {
            line,
            col,
            text,
            message,
            ..
        } = &e
        else {
            panic!("expected a parse error, got {e:?}");
        };
        assert_eq!((*line, *col), (2, 3));
        assert_eq!(text, "ab\u{fffd}\u{fffd}cd");
        assert_eq!(message, "invalid UTF-8 (byte 0xfe)");
    }

    #[test]
    fn combine_flattens() {
        let one = || ScenarioError::NotFound {
            path: PathBuf::from("a"),
        };
        assert!(ScenarioError::combine(Vec::new()).is_none());
        assert!(matches!(
            ScenarioError::combine(vec![one()]),
            Some(ScenarioError::NotFound { .. })
        ));
        let nested = ScenarioError::Multiple(vec![one(), one()]);
        match ScenarioError::combine(vec![nested, one()]) {
            Some(ScenarioError::Multiple(v)) => assert_eq!(v.len(), 3),
            other => panic!("{other:?}"),
        }
    }
}
