//! Terminal failures decided by the engine, each carrying its cause and its verdict.
//!
//! Main type: [`EngineFailure`]. It holds a short summary of what the engine decided and, as
//! data, the [`EngineCause`] the decision rests on. [`EngineFailure::message`] composes the two
//! (summary first, then the cause), and `Display` appends the verdict as
//! `category — explanation — recommendation`.

use std::fmt;

use crate::cache::Author;
use crate::llm::{Classification, LlmError};
use crate::script::StepFailure;
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
    /// A navigation of the code could not reach the app's server: never classified or
    /// regenerated, an infrastructure failure.
    AppUnreachable,
    /// The code cannot work with the run's settings (a relative `page.goto` without a base
    /// URL): never classified or regenerated, a configuration error (exit 2).
    Misconfigured,
    /// The step's pages reached for an origin outside `[browser] allowed_origins` and the guard
    /// refused it: never classified or regenerated, and nothing the step wrote is kept. The
    /// test's failure.
    Blocked,
}

impl EngineFailureKind {
    /// Every kind.
    pub const ALL: [EngineFailureKind; 10] = [
        EngineFailureKind::ProductDefect,
        EngineFailureKind::Incurable,
        EngineFailureKind::LlmUnavailable,
        EngineFailureKind::CacheWrite,
        EngineFailureKind::HealVetoed,
        EngineFailureKind::BrowserCrash,
        EngineFailureKind::PageCrash,
        EngineFailureKind::AppUnreachable,
        EngineFailureKind::Misconfigured,
        EngineFailureKind::Blocked,
    ];

    /// The kind's wire name (reports, `docs/reports.md`) and its label, side by side so that
    /// they cannot drift apart.
    fn names(self) -> (&'static str, &'static str) {
        match self {
            EngineFailureKind::ProductDefect => ("product_defect", "PRODUCT DEFECT"),
            EngineFailureKind::Incurable => ("incurable", "INCURABLE"),
            EngineFailureKind::LlmUnavailable => ("llm_unavailable", "LLM UNAVAILABLE"),
            EngineFailureKind::CacheWrite => ("cache_write", "CACHE WRITE FAILED"),
            EngineFailureKind::HealVetoed => ("heal_vetoed", "HEAL VETOED"),
            EngineFailureKind::BrowserCrash => ("browser_crash", "BROWSER CRASHED"),
            EngineFailureKind::PageCrash => ("page_crash", "PAGE CRASHED"),
            EngineFailureKind::AppUnreachable => ("app_unreachable", "APP UNREACHABLE"),
            EngineFailureKind::Misconfigured => ("misconfigured", "CONFIGURATION ERROR"),
            EngineFailureKind::Blocked => ("blocked", "BLOCKED BY allowed_origins"),
        }
    }

    /// The wire name reports write: `product_defect`, `heal_vetoed`, ...
    pub fn as_str(self) -> &'static str {
        self.names().0
    }

    /// The kind whose wire name is `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == name)
    }

    /// The loud label the terminal shows: `PRODUCT DEFECT`, `HEAL VETOED`, ...
    pub fn label(self) -> &'static str {
        self.names().1
    }

    /// Whether the failure is the infrastructure's rather than the test's.
    pub fn is_infrastructure(self) -> bool {
        matches!(
            self,
            EngineFailureKind::LlmUnavailable
                | EngineFailureKind::CacheWrite
                | EngineFailureKind::BrowserCrash
                | EngineFailureKind::AppUnreachable
        )
    }
}

/// Where the sentences the built-in generator understands are listed, for the messages of
/// declined steps.
const SHAPES_DOC: &str = "docs/builtin.md";

/// What an engine failure rests on. The reporters show it after the failure's summary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineCause {
    /// The step code failed on the page: a check that did not hold, a crash, or the last of the
    /// failed attempts.
    Step(StepFailure),
    /// The LLM could not be asked for code.
    Llm(LlmError),
    /// The LLM could not classify the step failure that healing started from.
    Unclassified {
        error: LlmError,
        failure: StepFailure,
    },
    /// The LLM's verdict on the step failure could not be parsed. `reply` is the cut reply.
    Unparsed { reply: String, failure: StepFailure },
    /// The built-in generator declined the sentence, for this reason; `missing` when the only
    /// reason is that the element the sentence names is not on the page.
    Declined { why: String, missing: bool },
    /// The cache refused the code. Only the message is kept because a `CacheError` can hold an
    /// `io::Error`, which cannot be cloned.
    Cache(String),
    /// The heal veto refused healed code that passed because it checks less than the cached
    /// code did.
    Vetoed {
        /// What the healed code does to the checks, with the old and new assertions.
        veto: String,
        /// Who wrote the healed code.
        by: Author,
        /// How the cached code failed before the heal.
        failure: String,
        /// The cached and the healed code as a unified diff.
        diff: String,
    },
}

impl EngineCause {
    /// Applies `edit` to every text of the cause that can hold a value from the test, so that
    /// secrets can be masked before the cause is reported.
    fn edit_texts(&mut self, edit: &impl Fn(&mut String)) {
        let llm = |error: &mut LlmError| match error {
            LlmError::Unavailable {
                endpoint, reason, ..
            } => {
                edit(endpoint);
                edit(reason);
            }
            LlmError::NotAnLlm { endpoint, what, .. } => {
                edit(endpoint);
                edit(what);
            }
            LlmError::BadResponse { reason, .. } => edit(reason),
            LlmError::Config(message) => edit(message),
        };
        match self {
            EngineCause::Step(failure) => edit(&mut failure.message),
            EngineCause::Llm(error) => llm(error),
            EngineCause::Unclassified { error, failure } => {
                llm(error);
                edit(&mut failure.message);
            }
            EngineCause::Unparsed { reply, failure } => {
                edit(reply);
                edit(&mut failure.message);
            }
            EngineCause::Declined { why: text, .. } | EngineCause::Cache(text) => edit(text),
            EngineCause::Vetoed {
                veto,
                failure,
                diff,
                ..
            } => {
                edit(veto);
                edit(failure);
                edit(diff);
            }
        }
    }
}

/// A failure decided by the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineFailure {
    pub kind: EngineFailureKind,
    /// What the engine decided, as a short fragment: "a check in the generated code did not
    /// hold". A failure read back from a report holds the whole composed message here.
    pub summary: String,
    /// What the decision rests on, when there is more to say than the summary. It is boxed
    /// because the engine returns failures in `Err` and most of them have no cause.
    pub cause: Option<Box<EngineCause>>,
    pub verdict: Option<Classification>,
    /// The last generated code that failed, when the failure is about a candidate.
    pub candidate: Option<String>,
}

impl EngineFailure {
    pub(crate) fn new(
        kind: EngineFailureKind,
        summary: impl Into<String>,
        verdict: Option<Classification>,
    ) -> Self {
        Self {
            kind,
            summary: summary.into(),
            cause: None,
            verdict,
            candidate: None,
        }
    }

    /// Records what the failure rests on.
    pub(crate) fn with_cause(mut self, cause: EngineCause) -> Self {
        self.cause = Some(Box::new(cause));
        self
    }

    /// Names the generated code the failure is about.
    pub(crate) fn with_candidate(mut self, code: impl Into<String>) -> Self {
        self.candidate = Some(code.into());
        self
    }

    /// The summary followed by the cause, without the verdict (which reporters show on its
    /// own). A one-line cause follows the summary after a colon; a step's message, which can
    /// span many lines, follows a blank line.
    pub fn message(&self) -> String {
        let summary = &self.summary;
        let Some(cause) = &self.cause else {
            return summary.clone();
        };
        match cause.as_ref() {
            EngineCause::Step(failure) => format!("{summary}:\n\n{}", failure.message),
            EngineCause::Llm(error) => format!("{summary}: {error}"),
            EngineCause::Unclassified { error, failure } => {
                format!("{summary}: {error}\n\n{}", failure.message)
            }
            EngineCause::Unparsed { reply, failure } => {
                format!("{summary}: {reply}\n\n{}", failure.message)
            }
            EngineCause::Declined { why, .. } => format!(
                "{summary}: {why}\n\nthe sentences it understands are listed in {SHAPES_DOC}"
            ),
            EngineCause::Cache(error) => format!("{summary}: {error}"),
            EngineCause::Vetoed {
                veto,
                by,
                failure,
                diff,
            } => {
                let writer = match by {
                    Author::Llm => "its new code",
                    Author::Builtin => "the new code the built-in generator wrote",
                    Author::Reused => "the code reused from another test",
                };
                format!(
                    "{summary}: {veto}\n\n\
                     The failure was called rot, yet {writer} checks less than the cached \
                     code: a heal may change how elements are found, never what is expected. The \
                     cache is untouched; if the application changed on purpose, update the step \
                     sentence or the cached code.\n\n\
                     the cached code failed:\n{failure}\n\n{diff}"
                )
            }
        }
    }

    /// Applies `edit` to the summary and the cause, so that secrets can be masked before the
    /// failure is reported. The verdict and the candidate are plain fields that callers edit
    /// themselves.
    pub(crate) fn edit_texts(&mut self, edit: impl Fn(&mut String)) {
        edit(&mut self.summary);
        if let Some(cause) = self.cause.as_mut() {
            cause.edit_texts(&edit);
        }
    }
}

impl fmt::Display for EngineFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message())?;
        if let Some(verdict) = &self.verdict {
            write!(f, "\n\nverdict: {verdict}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_engine_failure_kind_round_trips_through_its_name_and_has_a_label() {
        let mut names = std::collections::BTreeSet::new();
        for kind in EngineFailureKind::ALL {
            assert_eq!(EngineFailureKind::from_name(kind.as_str()), Some(kind));
            assert!(names.insert(kind.as_str()), "{kind:?} shares its name");
            assert!(!kind.label().is_empty());
        }
        assert_eq!(EngineFailureKind::from_name("healed"), None);
    }
    use crate::llm::Category;
    use crate::script::FailureKind;

    fn failed_check() -> StepFailure {
        StepFailure::new(
            FailureKind::FailedCheck,
            "expect(locator).toHaveText(expected) failed\nReceived: \"2 items left\"",
        )
    }

    #[test]
    fn message_starts_with_the_reason_and_appends_the_verdict() {
        let failure = EngineFailure::new(
            EngineFailureKind::ProductDefect,
            "the counter shows 2 items left, expected 1",
            Some(Classification {
                category: Category::ProductDefect,
                explanation: "adding one todo adds two".into(),
                recommendation: "fix the add handler".into(),
                source: crate::llm::VerdictSource::Llm,
            }),
        );
        assert_eq!(
            failure.to_string(),
            "the counter shows 2 items left, expected 1\n\nverdict: product_defect (from the LLM) — adding one todo adds two — fix the add handler"
        );
    }

    #[test]
    fn a_step_failure_follows_the_summary_after_a_blank_line() {
        let failure = EngineFailure::new(
            EngineFailureKind::Incurable,
            "a check in the generated code did not hold",
            None,
        )
        .with_cause(EngineCause::Step(failed_check()));
        assert_eq!(
            failure.message(),
            "a check in the generated code did not hold:\n\n\
             expect(locator).toHaveText(expected) failed\nReceived: \"2 items left\""
        );
        assert_eq!(
            failure.to_string(),
            failure.message(),
            "no verdict to append"
        );
    }

    #[test]
    fn a_one_line_error_follows_the_summary_on_its_line_and_the_step_failure_comes_last() {
        let error = LlmError::Config("no model is set".into());
        let generated = EngineFailure::new(
            EngineFailureKind::LlmUnavailable,
            "step code could not be generated",
            None,
        )
        .with_cause(EngineCause::Llm(error.clone()));
        assert_eq!(
            generated.message(),
            "step code could not be generated: no model is set"
        );
        let unclassified = EngineFailure::new(
            EngineFailureKind::LlmUnavailable,
            "the failure could not be classified for healing",
            None,
        )
        .with_cause(EngineCause::Unclassified {
            error,
            failure: failed_check(),
        });
        assert_eq!(
            unclassified.message(),
            "the failure could not be classified for healing: no model is set\n\n\
             expect(locator).toHaveText(expected) failed\nReceived: \"2 items left\""
        );
    }

    #[test]
    fn editing_the_texts_reaches_the_summary_and_every_text_of_the_cause() {
        let mut failure = EngineFailure::new(EngineFailureKind::Incurable, "s3cret summary", None)
            .with_cause(EngineCause::Unparsed {
                reply: "s3cret reply".into(),
                failure: StepFailure::new(FailureKind::FailedCheck, "s3cret message"),
            });
        failure.edit_texts(|text| *text = text.replace("s3cret", "***"));
        assert_eq!(failure.message(), "*** summary: *** reply\n\n*** message");
    }
}
