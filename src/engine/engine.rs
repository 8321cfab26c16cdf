//! The engine of one test: what it needs (the LLM port, settings, the cache, the budgets), what
//! it reports, and the verdict requests that generation and healing share.
//!
//! Main type: [`Engine`], one per test (it owns the test's [`Budgets`]). It talks to the LLM
//! through [`LlmProvider`], tries candidates through a [`StepExecutor`] (the `step` layer:
//! sandbox and settle window) and reports through an [`EngineObserver`]. Generation is in
//! `generate.rs`, healing in `heal.rs`.

use std::time::{Duration, Instant};

use crate::cache::{Author, Cache, CacheError, ProofRecord, StepKey};
use crate::config::{BuiltinOrder, LlmSettings};
use crate::engine::budgets::{Budgets, Pool};
use crate::engine::{EngineCause, EngineFailure, EngineFailureKind, Reuse};
use crate::llm::{
    Category, Classification, LlmError, LlmProvider, Usage, parse_classification,
    parse_classification_strict,
};
use crate::scenario::Scenario;
use crate::script::{ObservedCall, StepFailure};
use crate::secrets::Secrets;
use crate::step::StepExecutor;

/// Code the engine wrote for a step: it passed on the live page and is cached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Written {
    pub code: String,
    /// Who wrote it: the built-in generator or the LLM.
    pub by: Author,
    /// How its checks were proven, as the cache entry records it (`None`: it checks nothing).
    pub proof: Option<ProofRecord>,
}

impl Written {
    pub(super) fn new(code: String, by: Author, proof: Option<ProofRecord>) -> Self {
        Written { code, by, proof }
    }
}

/// What an LLM call was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LlmPurpose {
    Generation,
    Classification,
}

/// Where the engine reports what it does.
pub(crate) trait EngineObserver {
    fn generation_started(&self, pool: Pool, attempt: u32, limit: u32);
    fn healing_started(&self, category: Category);
    /// Healed code was written back: why it was rot, who wrote it, and whether no LLM was
    /// asked anything for it.
    fn healed(&self, explanation: &str, by: Author, offline: bool, old_code: &str, new_code: &str);
    fn verdict(&self, verdict: &Classification);
    /// Code another step holds for the same sentence (`from`) was tried on this page; `failure`
    /// is why it did not pass, `None` when it passed.
    fn reuse_tried(&self, from: &str, failure: Option<&str>);
    fn llm_call(&self, purpose: LlmPurpose, usage: Usage, elapsed: Duration);
    fn warning(&self, message: &str);
}

/// The step being worked on.
pub(crate) struct StepContext<'a> {
    pub scenario: &'a Scenario,
    pub key: StepKey,
    /// The step's line in its `.steps` file, for messages that point at it.
    pub line: usize,
    /// Sentences of the earlier steps of the test, in order.
    pub previous: Vec<String>,
    /// The code each earlier step passed with, in the order of `previous` (generation requests
    /// carry the most recent within a cap, so the model reuses their locators).
    pub previous_code: Vec<String>,
    /// The columns of the test's examples table (none without one): `<column>` in a sentence
    /// is a placeholder only for these.
    pub columns: &'a [String],
}

/// What guards healing (`[heal]` and the expect timeout the veto measures raised timeouts
/// against).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct HealPolicy {
    /// The mechanical heal veto (`heal.veto`); off lets weakened heals through with a warning.
    pub veto: bool,
    /// The configured timeout of actions and expectations.
    pub expect_timeout: Duration,
}

/// One test's generation and healing engine.
pub(crate) struct Engine<'a> {
    /// `None` when no LLM is configured: the built-in generator writes code alone, and nothing
    /// is classified.
    pub(super) provider: Option<&'a dyn LlmProvider>,
    /// `[generate] builtin`: the built-in generator's place before the LLM.
    pub(super) builtin: BuiltinOrder,
    pub(super) llm: &'a LlmSettings,
    pub(super) cache: &'a Cache,
    pub(super) page_api: &'a str,
    pub(super) budgets: Budgets,
    pub(super) policy: HealPolicy,
    /// `YYYY-MM-DD`, recorded in cache entries written by this engine.
    pub(super) today: String,
    /// The test's deadline, carried by every LLM request: a call gives up by then.
    pub(super) deadline: Option<Instant>,
    /// Values no request may carry: `requests.rs` writes each as `${NAME}`.
    pub(super) secrets: Secrets,
    /// The run's reuse of proven code across tests (`[generate] reuse`); `None` when off.
    pub(super) reuse: Option<&'a Reuse<'a>>,
    /// The failed call of the cached code being healed, as the evidence read it: a heal is
    /// held to its subject (`continuity.rs`).
    pub(super) failed_call: Option<ObservedCall>,
}

/// How a verdict reply is read: strictly for a decision that writes (a heal), leniently for a
/// verdict that only explains a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Parsing {
    Strict,
    Lenient,
}

/// The outcome of asking for a verdict.
pub(super) enum Verdict {
    Parsed(Classification),
    Unparseable(String),
}

impl<'a> Engine<'a> {
    pub(crate) fn new(
        provider: Option<&'a dyn LlmProvider>,
        llm: &'a LlmSettings,
        cache: &'a Cache,
        page_api: &'a str,
        budgets: Budgets,
        policy: HealPolicy,
    ) -> Self {
        Self {
            provider,
            builtin: BuiltinOrder::Off,
            llm,
            cache,
            page_api,
            budgets,
            policy,
            today: Cache::today(),
            deadline: None,
            secrets: Secrets::default(),
            reuse: None,
            failed_call: None,
        }
    }

    /// Lets this engine try code other tests proved for the same sentence first.
    pub(crate) fn with_reuse(mut self, reuse: &'a Reuse<'a>) -> Self {
        self.reuse = Some(reuse);
        self
    }

    /// Where the built-in generator comes in (`[generate] builtin`; off unless set).
    pub(crate) fn with_builtin(mut self, builtin: BuiltinOrder) -> Self {
        self.builtin = builtin;
        self
    }

    /// The secret values this engine's requests must never carry.
    pub(crate) fn with_secrets(mut self, secrets: Secrets) -> Self {
        self.secrets = secrets;
        self
    }

    /// Bounds every LLM call of this engine by the test's deadline.
    pub(crate) fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// A verdict for a failure that is already decided (replay, `--no-heal`): an unavailable
    /// LLM is skipped quietly with a warning; the failure itself is never delayed or changed.
    /// A failure that speaks for itself gets none: a crash leaves no page to judge, and an app
    /// that cannot be reached or answered an HTTP 5xx, or a missing setting, says what it is.
    pub(crate) fn verdict_for(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        code: &str,
        failure: &StepFailure,
    ) -> Option<Classification> {
        if failure.kind.speaks_for_itself() {
            return None;
        }
        self.quiet_verdict(step, exec, observer, code, &failure.message)
    }

    /// Asks for a verdict on a failure that is decided already: reported when given; an
    /// unparseable reply or an unavailable LLM is a warning, never a different outcome.
    pub(super) fn quiet_verdict(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        code: &str,
        error: &str,
    ) -> Option<Classification> {
        let verdict = self.hear(step, exec, observer, code, error)?;
        observer.verdict(&verdict);
        Some(verdict)
    }

    /// The LLM's lenient verdict on a failure, unreported: none without an LLM, and a warning
    /// instead of a verdict when its reply cannot be parsed or it cannot be reached.
    pub(super) fn hear(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        code: &str,
        error: &str,
    ) -> Option<Classification> {
        // No LLM configured: no verdict, and nothing to warn about.
        self.provider?;
        match self.classify(step, exec, observer, code, error, Parsing::Lenient) {
            Ok(Verdict::Parsed(verdict)) => Some(verdict),
            Ok(Verdict::Unparseable(reply)) => {
                observer.warning(&format!("the LLM's verdict could not be parsed: {reply}"));
                None
            }
            Err(err) => {
                observer.warning(&format!("no verdict for this failure: {err}"));
                None
            }
        }
    }

    /// Asks the LLM to classify a failure of `code`, with the page as it is now.
    pub(super) fn classify(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        code: &str,
        error: &str,
        parsing: Parsing,
    ) -> Result<Verdict, LlmError> {
        let Some(provider) = self.provider else {
            return Err(LlmError::Config("no LLM is configured".to_owned()));
        };
        let request = self.classification_request(step, exec, code, error);
        let reply = provider.classify_failure(&request)?;
        observer.llm_call(LlmPurpose::Classification, reply.usage, reply.elapsed);
        let parsed = match parsing {
            Parsing::Strict => parse_classification_strict(&reply.text),
            Parsing::Lenient => parse_classification(&reply.text),
        };
        Ok(match parsed {
            Ok(verdict) => Verdict::Parsed(verdict),
            Err(unparsed) => Verdict::Unparseable(unparsed.reply),
        })
    }
}

/// The failure of a step whose working code could not be stored.
pub(super) fn cache_failure(err: &CacheError) -> EngineFailure {
    // Code that holds a secret is the code's fault, not the infrastructure's: the test fails.
    let kind = match err {
        CacheError::SecretInCode { .. } | CacheError::UncheckedCode { .. } => {
            EngineFailureKind::Incurable
        }
        _ => EngineFailureKind::CacheWrite,
    };
    EngineFailure::new(
        kind,
        "the working code could not be written to the cache",
        None,
    )
    .with_cause(EngineCause::Cache(err.to_string()))
}
