//! [`FileContext`]: the `prettyplay.toml` being read, so that each section can check its values
//! and turn a refused one into a [`ConfigError::File`] that points at it (`file:line:col`, the
//! line, a caret under the value).

use std::fmt;
use std::ops::Range;
use std::path::Path;

use toml::Spanned;

use super::ConfigError;
use super::config_error::position;

/// The settings file being read: turns a refused value into a [`ConfigError::File`] that points
/// at it.
pub(super) struct FileContext<'a> {
    path: &'a Path,
    text: &'a str,
}

impl<'a> FileContext<'a> {
    /// The file at `path`, whose content is `text`.
    pub(super) fn new(path: &'a Path, text: &'a str) -> Self {
        FileContext { path, text }
    }
}

impl FileContext<'_> {
    /// An error at `span` (a byte range of the file), or at no position.
    pub(super) fn error(
        &self,
        span: Option<Range<usize>>,
        message: String,
        hint: Option<String>,
    ) -> ConfigError {
        ConfigError::File {
            path: self.path.to_path_buf(),
            at: span.map(|span| position(self.text, span.start)),
            message,
            hint,
        }
    }

    /// The 1-based line of a byte offset.
    pub(super) fn line(&self, offset: usize) -> usize {
        position(self.text, offset).0
    }

    /// What `check` makes of a number, or an error naming `key` and its accepted `form`, at the
    /// value.
    pub(super) fn checked<U: Copy + fmt::Display, T>(
        &self,
        key: &str,
        form: &str,
        value: Option<Spanned<U>>,
        check: impl Fn(U) -> Option<T>,
    ) -> Result<Option<T>, ConfigError> {
        let Some(value) = value else {
            return Ok(None);
        };
        match check(*value.get_ref()) {
            Some(checked) => Ok(Some(checked)),
            None => Err(self.error(
                Some(value.span()),
                format!("`{key}` must be {form}, got {}", value.get_ref()),
                None,
            )),
        }
    }

    /// What `parse` makes of a string, or an error naming `key` and its accepted `forms`, with
    /// the value quoted, at the value.
    pub(super) fn parsed<T>(
        &self,
        key: &str,
        forms: &str,
        value: Option<Spanned<String>>,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<Option<T>, ConfigError> {
        let Some(value) = value else {
            return Ok(None);
        };
        match parse(value.get_ref()) {
            Some(parsed) => Ok(Some(parsed)),
            None => Err(self.error(
                Some(value.span()),
                format!("`{key}` must be {forms}, got {:?}", value.get_ref()),
                None,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Deserialize)]
    struct Raw {
        n: Option<Spanned<i64>>,
        s: Option<Spanned<String>>,
    }

    #[test]
    fn refused_values_are_located_at_the_value_and_others_pass() {
        let text = "n = -1\ns =  \"x\"\n";
        let file = FileContext::new(Path::new("p.toml"), text);
        let positive = |n: i64| (n > 0).then_some(n);
        let raw: Raw = toml::from_str(text).expect("toml");
        let e = file
            .checked("n", "positive", raw.n, positive)
            .expect_err("refused");
        assert!(
            matches!(&e, ConfigError::File { at: Some((1, 5, line)), message, hint: None, .. }
                if line == "n = -1" && message == "`n` must be positive, got -1"),
            "{e:?}"
        );
        let e = file
            .parsed("s", "y", raw.s, |s| (s == "y").then_some(()))
            .expect_err("refused");
        assert!(
            matches!(&e, ConfigError::File { at: Some((2, 6, _)), message, .. }
                if message == "`s` must be y, got \"x\""),
            "{e:?}"
        );
        assert_eq!(file.line(8), 2);
        let raw: Raw = toml::from_str("n = 3").expect("toml");
        assert_eq!(
            file.checked("n", "positive", raw.n, positive).expect("ok"),
            Some(3)
        );
        assert_eq!(
            file.parsed("s", "y", raw.s, |_| Some(())).expect("ok"),
            None
        );
    }
}
