//! The values that must never reach a sink: what comes from `.env` or the environment, and the
//! `[vars]` names listed in `secret`. Every sink applies them at its boundary: the LLM request
//! builder writes `${NAME}` in place of a value, the event stream (terminal, `--events`, JUnit,
//! HTML, `last-run.json`) and the log write `***`, and the cache refuses code that holds one.
//!
//! Main type: [`Secrets`]. Values shorter than [`MIN_SECRET_CHARS`] are refused when variables
//! are resolved: a one-letter "secret" would mask every such letter of every report.

use std::borrow::Cow;
use std::fmt;

/// The fewest characters a secret value may have to be masked meaningfully.
pub(crate) const MIN_SECRET_CHARS: usize = 4;

/// What a secret value becomes in terminal output, reports and logs.
pub(crate) const MASK: &str = "***";

/// The secret values of a run, with their variable names.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secrets {
    /// `(name, value)`, longest value first, so a value that contains another is replaced
    /// whole.
    entries: Vec<(String, String)>,
}

impl Secrets {
    /// The secrets `entries` name, as `(name, value)`. Empty values are ignored.
    pub fn new(entries: impl IntoIterator<Item = (String, String)>) -> Self {
        let mut entries: Vec<(String, String)> = entries
            .into_iter()
            .filter(|(_, value)| !value.is_empty())
            .collect();
        entries.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
        entries.dedup();
        Self { entries }
    }

    /// These secrets and `more`, as `(name, value)`.
    pub fn with(&self, more: impl IntoIterator<Item = (String, String)>) -> Self {
        Secrets::new(self.entries.iter().cloned().chain(more))
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// `text` with every secret value replaced by `***`.
    pub fn mask<'a>(&self, text: &'a str) -> Cow<'a, str> {
        self.replace(text, |_| MASK.to_owned())
    }

    /// `text` with every secret value replaced by `${NAME}`: what the LLM may see.
    pub fn placeholders<'a>(&self, text: &'a str) -> Cow<'a, str> {
        self.replace(text, |name| format!("${{{name}}}"))
    }

    /// [`Secrets::mask`] into an owned string, in place.
    pub fn mask_in_place(&self, text: &mut String) {
        if let Cow::Owned(masked) = self.mask(text) {
            *text = masked;
        }
    }

    /// [`Secrets::placeholders`] into an owned string, in place.
    pub fn placeholders_in_place(&self, text: &mut String) {
        if let Cow::Owned(replaced) = self.placeholders(text) {
            *text = replaced;
        }
    }

    /// The name of the first secret whose value `text` holds, if any.
    pub fn found_in(&self, text: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(_, value)| text.contains(value.as_str()))
            .map(|(name, _)| name.as_str())
    }

    fn replace<'a>(&self, text: &'a str, with: impl Fn(&str) -> String) -> Cow<'a, str> {
        if self.found_in(text).is_none() {
            return Cow::Borrowed(text);
        }
        let mut out = text.to_owned();
        for (name, value) in &self.entries {
            if out.contains(value.as_str()) {
                out = out.replace(value.as_str(), &with(name));
            }
        }
        Cow::Owned(out)
    }
}

/// Names only: a secret's value never reaches a debug print.
impl fmt::Debug for Secrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|(name, _)| format!("{name}=***")))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets() -> Secrets {
        Secrets::new([
            ("PASSWORD".to_owned(), "hunter22".to_owned()),
            ("TOKEN".to_owned(), "hunter22-long".to_owned()),
            ("EMPTY".to_owned(), String::new()),
        ])
    }

    #[test]
    fn values_are_masked_longest_first() {
        let s = secrets();
        assert_eq!(s.mask("a hunter22-long b hunter22 c"), "a *** b *** c");
        assert_eq!(
            s.placeholders("a hunter22-long b hunter22 c"),
            "a ${TOKEN} b ${PASSWORD} c"
        );
        assert!(matches!(s.mask("nothing here"), Cow::Borrowed(_)));
        assert_eq!(s.found_in("x hunter22"), Some("PASSWORD"));
        assert_eq!(s.found_in("x"), None);
    }

    #[test]
    fn debug_shows_names_only() {
        let shown = format!("{:?}", secrets());
        assert!(!shown.contains("hunter"), "{shown}");
        assert!(shown.contains("PASSWORD=***"), "{shown}");
    }
}
