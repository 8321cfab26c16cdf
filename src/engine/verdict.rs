//! Terminal failures decided by the engine, each carrying its verdict.
//!
//! Main type: [`EngineFailure`]. Its message starts with the primary reason and appends the
//! verdict as `category — explanation — recommendation`.

use std::fmt;

use crate::llm::Classification;

/// What kind of terminal failure the engine decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineFailureKind {
    /// The application's expected behaviour is broken: healing never turns this green.
    ProductDefect,
    /// Regeneration cannot help (or its budget is spent).
    Incurable,
    /// The LLM could not be reached where it was needed: an infrastructure failure.
    LlmUnavailable,
    /// Working code could not be written to the cache: an infrastructure failure.
    CacheWrite,
    /// Healed code passed but checks less than the cached code did: the heal veto refused it,
    /// whatever the verdict. The cache is untouched.
    HealVetoed,
    /// The browser or the driver went away while step code ran: never classified or
    /// regenerated, an infrastructure failure.
    BrowserCrash,
    /// The renderer of the test's page crashed while step code ran: never classified or
    /// regenerated, and the test's failure (it can be the app's defect), not the
    /// infrastructure's.
    PageCrash,
}

impl EngineFailureKind {
    pub fn label(self) -> &'static str {
        match self {
            EngineFailureKind::ProductDefect => "PRODUCT DEFECT",
            EngineFailureKind::Incurable => "INCURABLE",
            EngineFailureKind::LlmUnavailable => "LLM UNAVAILABLE",
            EngineFailureKind::CacheWrite => "CACHE WRITE FAILED",
            EngineFailureKind::HealVetoed => "HEAL VETOED",
            EngineFailureKind::BrowserCrash => "BROWSER CRASHED",
            EngineFailureKind::PageCrash => "PAGE CRASHED",
        }
    }

    /// Whether the failure is the infrastructure's rather than the test's.
    pub fn is_infrastructure(self) -> bool {
        matches!(
            self,
            EngineFailureKind::LlmUnavailable
                | EngineFailureKind::CacheWrite
                | EngineFailureKind::BrowserCrash
        )
    }
}

/// A failure decided by the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineFailure {
    pub kind: EngineFailureKind,
    /// The primary reason, e.g. the failed check or the exhausted pool and last failure.
    pub reason: String,
    pub verdict: Option<Classification>,
    /// The last generated code that failed, when the failure is about a candidate.
    pub candidate: Option<String>,
}

impl EngineFailure {
    pub(crate) fn new(
        kind: EngineFailureKind,
        reason: impl Into<String>,
        verdict: Option<Classification>,
    ) -> Self {
        Self {
            kind,
            reason: reason.into(),
            verdict,
            candidate: None,
        }
    }

    /// Names the generated code the failure is about.
    pub(crate) fn with_candidate(mut self, code: impl Into<String>) -> Self {
        self.candidate = Some(code.into());
        self
    }
}

impl fmt::Display for EngineFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason)?;
        if let Some(verdict) = &self.verdict {
            write!(f, "\n\nverdict: {verdict}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::Category;

    #[test]
    fn message_starts_with_the_reason_and_appends_the_verdict() {
        let failure = EngineFailure::new(
            EngineFailureKind::ProductDefect,
            "the counter shows 2 items left, expected 1",
            Some(Classification {
                category: Category::ProductDefect,
                explanation: "adding one todo adds two".into(),
                recommendation: "fix the add handler".into(),
            }),
        );
        assert_eq!(
            failure.to_string(),
            "the counter shows 2 items left, expected 1\n\nverdict: product_defect — adding one todo adds two — fix the add handler"
        );
    }
}
