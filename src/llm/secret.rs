//! [`ApiKey`]: an API key that cannot leak through logs, errors or reports.
//!
//! Its `Debug` and `Display` print `[redacted]`; the key itself is only read by the providers when
//! they build a request's headers, and [`ApiKey::redact`] scrubs it from text a provider echoes back
//! (error bodies sometimes quote the key they refused), and [`ApiKey::redact_reply`] scrubs it
//! from reply text (step code, verdicts) before anything is printed, cached or written.

use std::fmt;

/// What `Debug` and `Display` print instead of a key.
const REDACTED: &str = "[redacted]";

/// Keys shorter than this are not searched for in reply text: a short key (a local server's
/// `x`) would mangle ordinary words.
const MIN_SEARCHED: usize = 8;

/// An API key read from the environment variable named by `llm.api_key_env`.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct ApiKey(String);

impl ApiKey {
    /// Wraps a key; surrounding whitespace (a stray newline in a `.env` file) is dropped.
    pub(crate) fn new(key: impl Into<String>) -> Self {
        ApiKey(key.into().trim().to_owned())
    }

    /// The key itself, for a request header. Never log or format the result.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }

    /// `text` with every occurrence of the key replaced by `[redacted]`.
    pub(crate) fn redact(&self, text: &str) -> String {
        if self.0.is_empty() {
            text.to_owned()
        } else {
            text.replace(&self.0, REDACTED)
        }
    }

    /// `text` a model wrote (step code, a verdict) with every occurrence of the key replaced by
    /// `[redacted]`; keys shorter than 8 characters are left alone (see [`MIN_SEARCHED`]).
    pub(crate) fn redact_reply(&self, text: &str) -> String {
        if self.0.chars().count() < MIN_SEARCHED {
            text.to_owned()
        } else {
            self.redact(text)
        }
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({REDACTED})")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_display_never_show_the_key() {
        let key = ApiKey::new("sk-very-secret");
        assert_eq!(format!("{key}"), "[redacted]");
        assert_eq!(format!("{key:?}"), "ApiKey([redacted])");
        assert_eq!(format!("{:?}", Some(&key)), "Some(ApiKey([redacted]))");
        assert_eq!(key.expose(), "sk-very-secret");
    }

    #[test]
    fn new_trims_whitespace() {
        assert_eq!(ApiKey::new("  sk-1\n").expose(), "sk-1");
    }

    #[test]
    fn redact_scrubs_every_occurrence() {
        let key = ApiKey::new("sk-1");
        assert_eq!(
            key.redact("bad key sk-1 (sk-1)"),
            "bad key [redacted] ([redacted])"
        );
        assert_eq!(ApiKey::new("").redact("nothing"), "nothing");
    }

    #[test]
    fn redact_reply_scrubs_keys_of_8_characters_or_more_only() {
        let key = ApiKey::new("sk-12345");
        assert_eq!(
            key.redact_reply("const k = 'sk-12345'; // sk-12345"),
            "const k = '[redacted]'; // [redacted]"
        );
        assert_eq!(ApiKey::new("x").redact_reply("text"), "text");
        assert_eq!(ApiKey::new("sk-1234").redact_reply("sk-1234"), "sk-1234");
    }
}
