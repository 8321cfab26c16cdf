//! One cache entry: the proven code of one step.
//!
//! Main type: [`CachedStep`], one `[[steps]]` (or `[[background]]`) table of a cache file, read
//! strictly (every key required but `healed`, `by` and `proof`, no other key allowed; a `[[background]]` table has
//! no `test`, which `cache_file.rs` checks).

use serde::{Deserialize, Deserializer};

use super::{ProofRecord, StepKey};

/// One cache entry: proven code for one step.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct CachedStep {
    /// The test's name; `None` for an entry of `[[background]]`.
    #[serde(default)]
    pub test: Option<String>,
    pub step: String,
    /// The n-th time this exact sentence appears in the test, from 1.
    pub occurrence: u32,
    /// `YYYY-MM-DD` the code was stored (free text if hand-edited).
    pub created: String,
    /// `YYYY-MM-DD` the code was last healed (regenerated after the UI changed), if ever.
    #[serde(default)]
    pub healed: Option<String>,
    /// Who wrote the code: `builtin` (the built-in generator), `llm`, or `reused` (another
    /// test's code for the same sentence); `None` in entries
    /// written before format 3 or by hand.
    #[serde(default)]
    pub by: Option<String>,
    /// How the code's checks were proven when it was written: a table since format 5, the
    /// record's text in format 4 (read by [`proof_field`]). `None` for code that checks nothing,
    /// and in older or hand-written entries.
    #[serde(default, deserialize_with = "proof_field")]
    pub proof: Option<ProofRecord>,
    /// The step code, exactly as stored (hand edits included).
    pub code: String,
}

/// Who wrote a cache entry's code, recorded as its `by`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Author {
    /// The built-in generator (`src/writer/builtin/`).
    Builtin,
    /// The configured LLM.
    Llm,
    /// Nobody in this step: the code was proven for the same sentence in another test, and
    /// passed again here.
    Reused,
}

impl Author {
    pub fn as_str(self) -> &'static str {
        match self {
            Author::Builtin => "builtin",
            Author::Llm => "llm",
            Author::Reused => "reused",
        }
    }
}

/// Reads `proof` in either form: the table format 5 writes (`{ proven = ["hidden"] }`), or the
/// text format 4 wrote (`"proven: hidden"`). A text that no prettyplay wrote is an error, so a
/// hand edit is never dropped in silence.
fn proof_field<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<ProofRecord>, D::Error> {
    let value = toml::Value::deserialize(deserializer)?;
    let record = match value {
        toml::Value::String(text) => ProofRecord::from_text(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "proof {text:?} is not a proof record: expected `proven: <mutation kinds>`, \
                 `none: <why>` or a table such as `{{ proven = [\"hidden\"] }}`"
            ))
        })?,
        table => table.try_into().map_err(serde::de::Error::custom)?,
    };
    Ok(Some(record))
}

impl CachedStep {
    /// This entry's key, given the scenario of its file.
    pub fn key(&self, scenario: &str) -> StepKey {
        StepKey {
            scenario: scenario.to_owned(),
            test: self.test.clone(),
            step: self.step.clone(),
            occurrence: self.occurrence,
        }
    }

    /// Whether this is the entry of `key` (whose scenario is not compared).
    pub(crate) fn is(&self, key: &StepKey) -> bool {
        self.test == key.test && self.step == key.step && self.occurrence == key.occurrence
    }
}

#[cfg(test)]
impl CachedStep {
    /// For tests: an entry stored on 2026-11-30 and never healed.
    pub(crate) fn stored_earlier(test: &str, step: &str, occurrence: u32, code: &str) -> Self {
        Self {
            test: Some(test.to_owned()),
            step: step.to_owned(),
            occurrence,
            created: "2026-11-30".to_owned(),
            healed: None,
            by: None,
            proof: None,
            code: code.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_and_is_ignore_nothing_but_the_scenario() {
        let entry = CachedStep {
            test: Some("t".into()),
            step: "s".into(),
            occurrence: 2,
            created: "d".into(),
            healed: None,
            by: None,
            proof: None,
            code: "c".into(),
        };
        let key = entry.key("a.steps");
        assert_eq!(key.to_string(), r#""t" › "s" #2"#);
        assert_eq!(key.scenario, "a.steps");
        assert!(entry.is(&key));
        assert!(entry.is(&StepKey {
            scenario: "other.steps".into(),
            ..key.clone()
        }));
        assert!(!entry.is(&StepKey {
            occurrence: 1,
            ..key.clone()
        }));
        assert!(!entry.is(&StepKey { test: None, ..key }));
    }
}
