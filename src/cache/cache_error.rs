//! Errors of the cache: reading, validating, locking and writing cache files.
//!
//! Main type: [`CacheError`]. A malformed file is reported with its `file:line:col` and the
//! offending line; the file is never overwritten.

use std::io;
use std::path::{Path, PathBuf};

/// An error reading or writing the cache.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("cannot {action} {}", path.display())]
    Io {
        /// What was being done, e.g. `read`, `lock`, `replace`.
        action: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The file is not a valid cache file; it is left untouched.
    #[error("malformed cache file {}:{line}:{col}: {message}{}", path.display(), show_excerpt(*line, excerpt))]
    Malformed {
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        col: usize,
        message: String,
        /// The offending line of the file.
        excerpt: String,
    },
    #[error(
        "{} was written by a newer prettyplay (format {found}; this version reads format {supported})",
        path.display()
    )]
    NewerFormat {
        path: PathBuf,
        found: i64,
        /// The format this version reads.
        supported: u32,
    },
    /// Code over the per-step limit was offered for caching; nothing was written.
    #[error(
        "step code of {bytes} bytes is over the limit of {limit} bytes for one step; it was not \
         cached in {}",
        path.display()
    )]
    CodeTooLarge {
        path: PathBuf,
        bytes: usize,
        limit: usize,
    },
    /// The code holds the value of a secret: it is never written. Step code reads secrets as
    /// `vars.NAME`.
    #[error(
        "refused to write the code of {key} to `{}`: it holds the value of the secret ${{{name}}}; step code must read it as `vars.{name}`",
        path.display()
    )]
    SecretInCode {
        path: PathBuf,
        key: String,
        name: String,
    },
    /// The code builds strings from constants past what the secret check evaluates, so a secret
    /// could hide in it: it is never written.
    #[error(
        "refused to write the code of {key} to `{}`: it builds strings from constants past what the secret check evaluates (a string over 1 MiB, or expressions nested over 200 deep)",
        path.display()
    )]
    UncheckedCode { path: PathBuf, key: String },
    /// A caller bug: the key passed to [`Cache::put`](super::Cache::put) belongs to another
    /// scenario.
    #[error("step key is for scenario {key_scenario:?}, not {scenario:?}")]
    KeyMismatch {
        key_scenario: String,
        scenario: String,
    },
}

impl CacheError {
    /// A [`CacheError::Malformed`] for the cache file at `path` whose text is `text`, pointing at
    /// byte `offset`.
    pub(crate) fn malformed(path: &Path, text: &str, offset: usize, message: String) -> Self {
        let (line, col, excerpt) = locate(text, offset);
        Self::Malformed {
            path: path.to_owned(),
            line,
            col,
            message,
            excerpt,
        }
    }
}

fn show_excerpt(line: usize, excerpt: &str) -> String {
    if excerpt.trim().is_empty() {
        String::new()
    } else {
        format!("\n{line:>5} | {excerpt}")
    }
}

/// 1-based line and column (in characters) of byte `offset`, and the text of that line.
fn locate(text: &str, offset: usize) -> (usize, usize, String) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let col = before[line_start..].chars().count() + 1;
    let line_text = text[line_start..].lines().next().unwrap_or("");
    (line, col, line_text.to_owned())
}

/// For `map_err`: an [`CacheError::Io`] doing `action` on `path`.
pub(crate) fn io_error(
    action: &'static str,
    path: &Path,
) -> impl FnOnce(io::Error) -> CacheError + use<> {
    let path = path.to_owned();
    move |source| CacheError::Io {
        action,
        path,
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locate_counts_lines_and_characters() {
        let text = "a = 1\nbé = 'x'\n";
        assert_eq!(locate(text, 0), (1, 1, "a = 1".to_owned()));
        assert_eq!(
            locate(text, text.find('=').unwrap()),
            (1, 3, "a = 1".to_owned())
        );
        let second = text.rfind('=').unwrap();
        assert_eq!(locate(text, second), (2, 4, "bé = 'x'".to_owned()));
        assert_eq!(locate(text, 999), (3, 1, String::new()));
    }

    #[test]
    fn malformed_shows_the_offending_line() {
        let error = CacheError::malformed(
            Path::new("c/a.steps.toml"),
            "format = 1\nscenario = 3\n",
            22,
            "invalid type".to_owned(),
        );
        assert_eq!(
            error.to_string(),
            "malformed cache file c/a.steps.toml:2:12: invalid type\n    2 | scenario = 3"
        );
    }
}
