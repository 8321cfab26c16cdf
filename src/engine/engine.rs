//! Generation and healing: turning a sentence into proven step code, and telling rot from a real
//! product defect when cached code breaks.
//!
//! Main type: [`Engine`], one per test (it owns the test's [`Budgets`]). It talks to the LLM
//! through [`LlmProvider`], executes candidates through a [`StepExecutor`] (the runner's sandbox
//! and settle window) and reports through an [`EngineObserver`].

use std::time::Duration;

use crate::cache::{Cache, StepKey};
use crate::config::LlmSettings;
use crate::engine::budgets::{Budgets, Pool};
use crate::engine::prompts::{CLASSIFICATION_SYSTEM_PROMPT, GENERATION_SYSTEM_PROMPT};
use crate::engine::{EngineFailure, EngineFailureKind};
use crate::llm::{
    Category, Classification, ClassificationRequest, FailedAttempt, GenerationRequest, LlmError,
    LlmProvider, Usage, extract_code, parse_classification,
};
use crate::scenario::Scenario;
use crate::script::{FailureKind, StepFailure};

/// The page as the LLM sees it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageState {
    /// Playwright's AI-mode aria snapshot, cut to the configured budget with a marker.
    pub snapshot: String,
    pub screenshot: Option<Vec<u8>>,
}

/// What the engine needs from the runner to try code against the live page.
pub(crate) trait StepExecutor {
    /// Compiles `code` and checks that it defines `step(page)`, without running it.
    fn check(&self, code: &str) -> Result<(), StepFailure>;
    /// Executes `code` against the live page inside the step's settle window.
    fn execute(&self, code: &str) -> Result<(), StepFailure>;
    /// The current page state.
    fn page_state(&self, screenshot: bool, snapshot_budget: usize) -> PageState;
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
    fn healed(&self, explanation: &str, old_code: &str, new_code: &str);
    fn verdict(&self, verdict: &Classification);
    fn llm_call(&self, purpose: LlmPurpose, usage: Usage, elapsed: Duration);
    fn warning(&self, message: &str);
}

/// The step being worked on.
pub(crate) struct StepContext<'a> {
    pub scenario: &'a Scenario,
    pub key: StepKey,
    /// Sentences of the earlier steps of the test, in order.
    pub previous: Vec<String>,
}

/// One test's generation and healing engine.
pub(crate) struct Engine<'a> {
    provider: &'a dyn LlmProvider,
    llm: &'a LlmSettings,
    cache: &'a Cache,
    page_api: &'a str,
    budgets: Budgets,
    today: String,
}

/// The outcome of asking for a verdict.
enum Verdict {
    Parsed(Classification),
    Unparseable(String),
}

impl<'a> Engine<'a> {
    pub(crate) fn new(
        provider: &'a dyn LlmProvider,
        llm: &'a LlmSettings,
        cache: &'a Cache,
        page_api: &'a str,
        budgets: Budgets,
    ) -> Self {
        Self {
            provider,
            llm,
            cache,
            page_api,
            budgets,
            today: Cache::today(),
        }
    }

    /// Generates code for a step with none cached: asks, executes, and caches only what worked.
    pub(crate) fn generate(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
    ) -> Result<String, EngineFailure> {
        let code = self.attempts(step, exec, observer, Pool::Generation, None)?;
        self.cache
            .put(step.scenario, &step.key, &code, &self.today)
            .map_err(|err| cache_failure(&err))?;
        Ok(code)
    }

    /// Heals cached code that failed: classify; rot is regenerated within the healing budget and
    /// written back only after it executed; a product defect or an incurable step fails with its
    /// verdict. Healing never turns anything but rot green.
    pub(crate) fn heal(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        old_code: &str,
        failure: &StepFailure,
    ) -> Result<String, EngineFailure> {
        let verdict = match self.classify(step, exec, observer, old_code, &failure.message) {
            Ok(Verdict::Parsed(verdict)) => verdict,
            Ok(Verdict::Unparseable(reply)) => {
                return Err(EngineFailure::new(
                    EngineFailureKind::Incurable,
                    format!(
                        "{}\n\nthe step was not healed: the LLM's verdict could not be parsed: {reply}",
                        failure.message
                    ),
                    None,
                ));
            }
            Err(err) => {
                return Err(EngineFailure::new(
                    EngineFailureKind::LlmUnavailable,
                    format!(
                        "{}\n\nthe failure could not be classified for healing: {err}",
                        failure.message
                    ),
                    None,
                ));
            }
        };
        observer.healing_started(verdict.category);
        observer.verdict(&verdict);
        match verdict.category {
            Category::ProductDefect => Err(EngineFailure::new(
                EngineFailureKind::ProductDefect,
                format!(
                    "the application does not behave as the step expects: {}\n\n{}",
                    verdict.explanation, failure.message
                ),
                Some(verdict),
            )),
            Category::Incurable => Err(EngineFailure::new(
                EngineFailureKind::Incurable,
                format!(
                    "the step cannot be healed: {}\n\n{}",
                    verdict.explanation, failure.message
                ),
                Some(verdict),
            )),
            Category::Rot => {
                let previous = FailedAttempt {
                    code: old_code.to_owned(),
                    error: failure.message.clone(),
                };
                let code = self
                    .attempts(step, exec, observer, Pool::Healing, Some(previous))
                    .map_err(|mut failure| {
                        // Exhaustion or a failed check while healing: the verdict that started
                        // the heal is the one that counts; no extra LLM request.
                        if failure.verdict.is_none() {
                            failure.verdict = Some(verdict.clone());
                        }
                        failure
                    })?;
                self.cache
                    .put_healed(step.scenario, &step.key, &code, &self.today)
                    .map_err(|err| cache_failure(&err))?;
                observer.healed(&verdict.explanation, old_code, &code);
                Ok(code)
            }
        }
    }

    /// A verdict for a failure that is already decided (replay, `--no-heal`): an unavailable
    /// LLM is skipped quietly with a warning; the failure itself is never delayed or changed.
    pub(crate) fn verdict_for(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        code: &str,
        failure: &StepFailure,
    ) -> Option<Classification> {
        self.quiet_verdict(step, exec, observer, code, &failure.message)
    }

    /// Asks for a verdict on a failure that is decided already: reported when given; an
    /// unparseable reply or an unavailable LLM is a warning, never a different outcome.
    fn quiet_verdict(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        code: &str,
        error: &str,
    ) -> Option<Classification> {
        match self.classify(step, exec, observer, code, error) {
            Ok(Verdict::Parsed(verdict)) => {
                observer.verdict(&verdict);
                Some(verdict)
            }
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

    /// The generate loop, shared by generation and healing (which passes the failed cached code).
    fn attempts(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        pool: Pool,
        mut failed: Option<FailedAttempt>,
    ) -> Result<String, EngineFailure> {
        let mut last_failure: Option<StepFailure> = None;
        loop {
            let Some(attempt) = self.budgets.try_take(&step.key, pool) else {
                let candidate = failed.as_ref().map(|f| f.code.clone());
                let exhausted = self.exhausted(step, exec, observer, pool, failed, last_failure);
                return Err(match candidate {
                    Some(code) if !code.is_empty() => exhausted.with_candidate(code),
                    _ => exhausted,
                });
            };
            observer.generation_started(pool, attempt, self.budgets.limit(pool));
            let state = exec.page_state(self.llm.send_screenshots, self.llm.snapshot_budget);
            let request = GenerationRequest {
                system_prompt: GENERATION_SYSTEM_PROMPT.to_owned(),
                step: step.key.step.clone(),
                previous_steps: step.previous.clone(),
                page_snapshot: state.snapshot,
                screenshot: state.screenshot,
                page_api: self.page_api.to_owned(),
                user_instructions: Some(self.llm.generation_prompt.trim().to_owned())
                    .filter(|s| !s.is_empty()),
                failed: failed.clone(),
            };
            let reply = self.provider.generate_step_code(&request).map_err(|err| {
                EngineFailure::new(
                    EngineFailureKind::LlmUnavailable,
                    format!("step code could not be generated: {err}"),
                    None,
                )
            })?;
            observer.llm_call(LlmPurpose::Generation, reply.usage, reply.elapsed);
            let code = extract_code(&reply.text);
            let outcome = exec.check(&code).and_then(|()| exec.execute(&code));
            match outcome {
                Ok(()) => return Ok(code),
                Err(failure) if failure.kind == FailureKind::FailedCheck => {
                    // A check that ran and did not hold: never spend the budget on it. While
                    // healing, the verdict that started the heal counts; no extra request.
                    if pool == Pool::Healing {
                        return Err(EngineFailure::new(
                            EngineFailureKind::Incurable,
                            format!(
                                "a check in the regenerated code did not hold:\n\n{}",
                                failure.message
                            ),
                            None,
                        )
                        .with_candidate(code));
                    }
                    return Err(self
                        .failed_check(step, exec, observer, &code, &failure)
                        .with_candidate(code));
                }
                Err(failure) => {
                    failed = Some(FailedAttempt {
                        code,
                        error: failure.message.clone(),
                    });
                    last_failure = Some(failure);
                }
            }
        }
    }

    fn failed_check(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        code: &str,
        failure: &StepFailure,
    ) -> EngineFailure {
        let reason = format!(
            "a check in the generated code did not hold:\n\n{}",
            failure.message
        );
        let verdict = self.quiet_verdict(step, exec, observer, code, &failure.message);
        let kind = match &verdict {
            Some(v) if v.category == Category::ProductDefect => EngineFailureKind::ProductDefect,
            _ => EngineFailureKind::Incurable,
        };
        EngineFailure::new(kind, reason, verdict)
    }

    fn exhausted(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        pool: Pool,
        failed: Option<FailedAttempt>,
        last_failure: Option<StepFailure>,
    ) -> EngineFailure {
        let limit = self.budgets.limit(pool);
        let last = last_failure
            .as_ref()
            .map_or_else(|| "no attempt was made".to_owned(), |f| f.message.clone());
        let reason = format!(
            "the {} budget of {limit} attempt(s) for this step is spent; the last attempt failed:\n\n{last}",
            pool.name()
        );
        if pool == Pool::Healing {
            // The healer attaches the verdict it started from; no extra LLM request.
            return EngineFailure::new(EngineFailureKind::Incurable, reason, None);
        }
        let Some(failed) = failed else {
            return EngineFailure::new(EngineFailureKind::Incurable, reason, None);
        };
        let verdict = self.quiet_verdict(step, exec, observer, &failed.code, &failed.error);
        EngineFailure::new(EngineFailureKind::Incurable, reason, verdict)
    }

    fn classify(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        code: &str,
        error: &str,
    ) -> Result<Verdict, LlmError> {
        let state = exec.page_state(self.llm.send_screenshots, self.llm.snapshot_budget);
        let request = ClassificationRequest {
            system_prompt: CLASSIFICATION_SYSTEM_PROMPT.to_owned(),
            step: step.key.step.clone(),
            code: code.to_owned(),
            error: error.to_owned(),
            page_snapshot: state.snapshot,
            screenshot: state.screenshot,
        };
        let reply = self.provider.classify_failure(&request)?;
        observer.llm_call(LlmPurpose::Classification, reply.usage, reply.elapsed);
        Ok(match parse_classification(&reply.text) {
            Ok(verdict) => Verdict::Parsed(verdict),
            Err(unparsed) => Verdict::Unparseable(unparsed),
        })
    }
}

fn cache_failure(err: &crate::cache::CacheError) -> EngineFailure {
    EngineFailure::new(
        EngineFailureKind::CacheWrite,
        format!("the working code could not be written to the cache: {err}"),
        None,
    )
}
