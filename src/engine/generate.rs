//! Generation: asking the LLM for a step's code, trying each candidate on the live page, and
//! keeping only code that worked. The same attempt loop regenerates rot while healing.
//!
//! Main function: [`Engine::generate`]; the loop is [`Engine::attempts`]. The decisions are
//! documented in `docs/engine.md` (Generation) and unit-tested below with strict fakes.

use crate::cache::{Author, MAX_STEP_CODE_BYTES, ProofRecord};
use crate::engine::budgets::Pool;
use crate::engine::builtin_step::{BuiltinOutcome, failed_on_page, handed_over, tried};
use crate::engine::engine::{
    Engine, EngineObserver, LlmPurpose, StepContext, Written, cache_failure,
};
use crate::engine::evidence::defect_classification;
use crate::engine::proof::Proven;
use crate::engine::reuse::lock;
use crate::engine::{EngineCause, EngineFailure, EngineFailureKind};
use crate::llm::{
    BuiltinTried, Category, Classification, FailedAttempt, GenerationRequest, LlmProvider,
    VerdictSource,
};
use crate::script::{FailureKind, StepFailure};
use crate::step::StepExecutor;
use crate::writer::{LlmWriter, Writer};

/// The failure of a step whose browser or driver went away. It is an infrastructure failure,
/// and it is never classified, because a crash says nothing about the product.
pub(super) fn crashed(failure: &StepFailure, candidate: Option<String>) -> EngineFailure {
    let crash = if failure.kind == FailureKind::PageCrash {
        EngineFailure::new(
            EngineFailureKind::PageCrash,
            "the page crashed while the step ran (it can be the app's own defect); the step was \
             not classified or regenerated",
            None,
        )
    } else {
        EngineFailure::new(
            EngineFailureKind::BrowserCrash,
            "the browser or the driver went away while the step ran; the step was not classified \
             or regenerated",
            None,
        )
    }
    .with_cause(EngineCause::Step(failure.clone()));
    match candidate {
        Some(code) => crash.with_candidate(code),
        None => crash,
    }
}

/// The failure of a step whose code failed in a way that decides it on its own evidence
/// ([`FailureKind::speaks_for_itself`]): a crash, an app that cannot be reached, a main
/// document the app's server answered with an HTTP 5xx, or a missing setting. Nothing is
/// classified or regenerated, because no other code can do better. The HTTP 5xx carries its
/// product-defect verdict, from evidence.
pub(crate) fn evident_failure(failure: &StepFailure, candidate: Option<String>) -> EngineFailure {
    let (kind, summary) = match failure.kind {
        FailureKind::Unreachable => (
            EngineFailureKind::AppUnreachable,
            "the app could not be reached while the step ran; the step was not classified or \
             regenerated",
        ),
        FailureKind::AppError => (
            EngineFailureKind::ProductDefect,
            "the app's server answered the page with an error, which is the app's defect; the \
             step was not classified or regenerated",
        ),
        FailureKind::Misconfigured => (
            EngineFailureKind::Misconfigured,
            "the step cannot work with the run's settings; the step was not classified or \
             regenerated",
        ),
        FailureKind::VisualMismatch => (
            EngineFailureKind::ProductDefect,
            "a screenshot did not match its committed baseline, which is evidence of a change in \
             the product's look; the step was not classified or regenerated",
        ),
        FailureKind::AccessibilityViolation => (
            EngineFailureKind::ProductDefect,
            "axe-core found accessibility violations on the page, which is evidence of the \
             product's defect; the step was not classified or regenerated",
        ),
        FailureKind::Blocked => (
            EngineFailureKind::Blocked,
            "the guard refused what the step reached for; the step was not classified or \
             regenerated, and its code is not cached",
        ),
        _ => return crashed(failure, candidate),
    };
    let verdict = match failure.kind {
        FailureKind::AppError
        | FailureKind::VisualMismatch
        | FailureKind::AccessibilityViolation => {
            Some(defect_classification(failure.message.clone(), None))
        }
        FailureKind::Blocked => Some(blocked_classification()),
        _ => None,
    };
    let evident =
        EngineFailure::new(kind, summary, verdict).with_cause(EngineCause::Step(failure.clone()));
    match candidate {
        Some(code) => evident.with_candidate(code),
        None => evident,
    }
}

/// The failure of an `[optional]` step whose candidate `code` did not find its target: the
/// runner reports the step as skipped, and nothing is cached.
fn absent_target(failure: StepFailure, code: String) -> EngineFailure {
    EngineFailure::new(
        EngineFailureKind::Incurable,
        "the optional step's target did not appear",
        None,
    )
    .with_cause(EngineCause::Step(failure))
    .with_candidate(code)
}

/// The verdict of a step that reached for a forbidden origin: incurable, from evidence, because
/// no regenerated code is trusted to do better and the guard's record is the whole story.
fn blocked_classification() -> Classification {
    Classification {
        category: Category::Incurable,
        explanation: "the step's pages reached for an origin outside [browser] allowed_origins"
            .to_owned(),
        recommendation: "if the app needs that origin, add it to [browser] allowed_origins; if \
                         the step's code or the page sent data there, treat it as a leak and \
                         remove it"
            .to_owned(),
        source: VerdictSource::Evidence { llm: None },
    }
}

/// Where the attempt loop starts: the candidate tried before it and how it failed on the page
/// (a blocked one is forgiven only once the next candidate arrives), and what the built-in
/// generator tried for the step, which every request of the loop carries.
#[derive(Debug, Default)]
pub(super) struct Before {
    pub(super) failed: Option<FailedAttempt>,
    pub(super) last_failure: Option<StepFailure>,
    pub(super) builtin: Option<BuiltinTried>,
}

/// `failure`, once its verdict (when it has one) is reported.
fn told(observer: &dyn EngineObserver, failure: EngineFailure) -> EngineFailure {
    if let Some(verdict) = &failure.verdict {
        observer.verdict(verdict);
    }
    failure
}

/// Code over [`MAX_STEP_CODE_BYTES`] is a failed attempt that never runs (it could never be
/// cached), fed back to the next attempt like code that does not compile.
fn within_limit(code: &str) -> Result<(), StepFailure> {
    if code.len() <= MAX_STEP_CODE_BYTES {
        return Ok(());
    }
    Err(StepFailure::new(
        FailureKind::Script,
        format!(
            "the step code is {} bytes, over the limit of {MAX_STEP_CODE_BYTES} bytes for one \
             step; it was not run. Write short code that does only what the sentence says",
            code.len()
        ),
    ))
}

impl Engine<'_> {
    /// Generates code for a step with none cached: asks, executes, and caches only what worked.
    pub(crate) fn generate(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
    ) -> Result<Written, EngineFailure> {
        // Another test that generates the same sentence waits, and then reuses what this one
        // stored instead of asking again.
        let turn = self.reuse.map(|reuse| reuse.turn(&step.key.step));
        let _held = turn.as_deref().map(lock);
        if let Some((code, proof)) = self.reuse_for_generation(step, exec, observer)? {
            return self.keep(step, code, Author::Reused, proof);
        }
        let mut before = Before::default();
        if self.builtin.uses_builtin() {
            let outcome = self.builtin_attempt(step, exec);
            match outcome {
                BuiltinOutcome::Passed(code, proof) => {
                    return self.keep(step, code, Author::Builtin, proof);
                }
                // A built-in candidate the guard blocked falls through to the LLM like any
                // failed one, because the LLM's code may keep to the app's origins.
                BuiltinOutcome::Failed(code, failure)
                    if failure.kind.speaks_for_itself()
                        && !(failure.kind == FailureKind::Blocked && self.llm_writes()) =>
                {
                    return Err(told(observer, evident_failure(&failure, Some(code))));
                }
                BuiltinOutcome::Failed(code, failure) if failure.kind == FailureKind::Absent => {
                    return Err(absent_target(failure, code));
                }
                outcome if !self.llm_writes() => return Err(self.builtin_failure(outcome)),
                outcome => {
                    before = Before {
                        failed: handed_over(&outcome),
                        builtin: tried(&outcome),
                        last_failure: failed_on_page(outcome),
                    };
                }
            }
        }
        let (code, proof) = self.attempts(step, exec, observer, Pool::Generation, before)?;
        // Generation feeds vacuous candidates back, so only a record arrives here; anything
        // else is refused rather than cached.
        let proof = match proof {
            Proven::Record(proof) => proof,
            Proven::Vacuous(failure) | Proven::Broken(failure) => {
                return Err(EngineFailure::new(
                    EngineFailureKind::Incurable,
                    "the generated check cannot fail",
                    None,
                )
                .with_cause(EngineCause::Step(failure))
                .with_candidate(code));
            }
        };
        self.keep(step, code, Author::Llm, proof)
    }

    /// Caches generated `code` that passed, written `by`, with its `proof`.
    fn keep(
        &self,
        step: &StepContext<'_>,
        code: String,
        by: Author,
        proof: Option<ProofRecord>,
    ) -> Result<Written, EngineFailure> {
        self.cache
            .put_written(
                step.scenario,
                &step.key,
                &code,
                &self.today,
                false,
                by,
                proof.as_ref(),
            )
            .map_err(|err| cache_failure(&err))?;
        Ok(Written::new(code, by, proof))
    }

    /// The attempt loop, shared by generation and healing (which passes the failed cached
    /// code); `before` is the candidate before the loop and how it failed on the page, if one
    /// did. Each attempt takes one from `pool`'s budget, asks for code and tries it. A check
    /// that ran and did not hold stops the loop at once; other failures are fed back to the next
    /// attempt. Code that passed is proven: while generating, a vacuous check is fed back like a
    /// failure; while healing, the healer decides (it refuses it like a veto).
    pub(super) fn attempts(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        pool: Pool,
        before: Before,
    ) -> Result<(String, Proven), EngineFailure> {
        let Before {
            mut failed,
            mut last_failure,
            builtin,
        } = before;
        // While healing, every request names the cached code whose checks must be kept.
        let healing = (pool == Pool::Healing)
            .then(|| failed.as_ref().map(|f| f.code.clone()))
            .flatten();
        loop {
            let Some(attempt) = self.budgets.try_take(&step.key, pool) else {
                return Err(self.out_of_budget(step, exec, observer, pool, failed, last_failure));
            };
            observer.generation_started(pool, attempt, self.budgets.limit(pool));
            let provider = self.provider.ok_or_else(no_llm)?;
            let request = self.generation_request(
                step,
                exec,
                healing.as_deref(),
                builtin.as_ref(),
                failed.clone(),
            );
            let code = draft(provider, &request, observer)?;
            // What the guard blocked was the last candidate's failure: forgotten now, as late as
            // possible, so that what it set going after it failed still counts against it.
            if last_failure
                .as_ref()
                .is_some_and(|f| f.kind == FailureKind::Blocked)
            {
                exec.forgive_blocked();
            }
            let outcome = within_limit(&code)
                .and_then(|()| exec.check(&code))
                .and_then(|()| exec.execute(&code))
                .and_then(|()| exec.kept_to_origins());
            let outcome = outcome.map(|()| self.proof_of(step, exec, &code));
            match outcome {
                Ok(Proven::Broken(failure)) => {
                    return Err(EngineFailure::new(
                        EngineFailureKind::Incurable,
                        "the mutation proof of the code that passed could not finish",
                        None,
                    )
                    .with_cause(EngineCause::Step(failure))
                    .with_candidate(code));
                }
                Ok(Proven::Vacuous(failure)) if pool == Pool::Generation => {
                    failed = Some(FailedAttempt {
                        code,
                        error: failure.message.clone(),
                    });
                    last_failure = Some(failure);
                }
                Ok(proven) => return Ok((code, proven)),
                Err(failure)
                    if failure.kind.speaks_for_itself() && failure.kind != FailureKind::Blocked =>
                {
                    // The browser or the page went away, the app cannot be reached or failed,
                    // or a setting is missing: another candidate would fail the same way, and
                    // the failure says what it is without a verdict. A candidate the guard
                    // blocked is fed back like broken code instead: the next one may keep to
                    // the app's origins, and whatever it reaches for is blocked all the same.
                    return Err(told(observer, evident_failure(&failure, Some(code))));
                }
                Err(failure) if failure.kind == FailureKind::Absent && pool == Pool::Generation => {
                    // An optional step's target is not on the page: the step is skipped, and
                    // another candidate would only spend the budget waiting for it again.
                    // While healing, the target of the cached code was there, so a candidate
                    // that misses it is fed back like any failed one.
                    return Err(absent_target(failure, code));
                }
                Err(failure) if failure.kind == FailureKind::FailedCheck => {
                    // A check ran and did not hold. Another candidate must not be tried on it,
                    // because retrying until a check passes would hide a defect; one verdict
                    // decides between a product defect and an incurable step, in healing too.
                    return Err(self
                        .failed_check(step, exec, observer, pool, &code, &failure)
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

    /// The failure of a step whose budget ran out: the guard's record when the last candidate
    /// reached for a forbidden origin (the model that wrote it is not asked about it), otherwise
    /// the verdict on what the candidates did, with the last candidate attached.
    fn out_of_budget(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        pool: Pool,
        failed: Option<FailedAttempt>,
        last_failure: Option<StepFailure>,
    ) -> EngineFailure {
        let candidate = failed.as_ref().map(|f| f.code.clone());
        if let Some(blocked) = last_failure
            .as_ref()
            .filter(|f| f.kind == FailureKind::Blocked)
        {
            return told(observer, evident_failure(blocked, candidate));
        }
        let exhausted = self.exhausted(step, exec, observer, pool, failed, last_failure);
        match candidate {
            Some(code) if !code.is_empty() => exhausted.with_candidate(code),
            _ => exhausted,
        }
    }

    /// Decides a generated (or regenerated) check that did not hold. One verdict decides
    /// between a product defect and an incurable step.
    fn failed_check(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        pool: Pool,
        code: &str,
        failure: &StepFailure,
    ) -> EngineFailure {
        let which = match pool {
            Pool::Generation => "generated",
            Pool::Healing => "regenerated",
        };
        let summary = format!("a check in the {which} code did not hold");
        let verdict = self.quiet_verdict(step, exec, observer, code, &failure.message);
        let kind = match &verdict {
            Some(v) if v.category == Category::ProductDefect => EngineFailureKind::ProductDefect,
            _ => EngineFailureKind::Incurable,
        };
        EngineFailure::new(kind, summary, verdict).with_cause(EngineCause::Step(failure.clone()))
    }

    /// Fails a step whose pool's budget is spent as incurable. While generating, it asks for a
    /// verdict on the last failure; healing attaches the verdict it started from instead.
    fn exhausted(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        pool: Pool,
        failed: Option<FailedAttempt>,
        last_failure: Option<StepFailure>,
    ) -> EngineFailure {
        let spent = format!(
            "the {} budget of {} attempt(s) for this step is spent",
            pool.name(),
            self.budgets.limit(pool)
        );
        let incurable = |verdict| match last_failure {
            Some(last) => EngineFailure::new(
                EngineFailureKind::Incurable,
                format!("{spent}; the last attempt failed"),
                verdict,
            )
            .with_cause(EngineCause::Step(last)),
            None => EngineFailure::new(
                EngineFailureKind::Incurable,
                format!("{spent}; no attempt was made"),
                verdict,
            ),
        };
        if pool == Pool::Healing {
            // The healer attaches the verdict it started from, so no extra LLM request is made.
            return incurable(None);
        }
        let Some(failed) = failed else {
            return incurable(None);
        };
        let verdict = self.quiet_verdict(step, exec, observer, &failed.code, &failed.error);
        incurable(verdict)
    }
}

/// The failure of a step that needs the LLM when none is configured.
fn no_llm() -> EngineFailure {
    EngineFailure::new(
        EngineFailureKind::Incurable,
        "no LLM is configured to write this step's code",
        None,
    )
}

/// One candidate `provider` writes for `request`, its cost told to `observer`.
fn draft(
    provider: &dyn LlmProvider,
    request: &GenerationRequest,
    observer: &dyn EngineObserver,
) -> Result<String, EngineFailure> {
    let writer = LlmWriter { provider, request };
    let draft = writer.write().map_err(|err| {
        EngineFailure::new(
            EngineFailureKind::LlmUnavailable,
            "step code could not be generated",
            None,
        )
        .with_cause(EngineCause::Llm(err))
    })?;
    observer.llm_call(LlmPurpose::Generation, draft.usage, draft.elapsed);
    Ok(draft.code)
}

#[cfg(test)]
mod tests {
    use crate::cache::Author;
    use crate::engine::testing::{
        Answer, Expected, Fixture, Observed, RecordingObserver, ScriptedExecutor, ScriptedLlm,
        code_reply, fails, passes, verdict_reply,
    };
    use crate::engine::{EngineCause, EngineFailureKind, LlmPurpose, Pool};
    use crate::llm::{Category, FailedAttempt, LlmError};
    use crate::script::FailureKind;

    const A: &str =
        "async function step(page) {\n  await page.getByRole('textbox').fill('buy milk');\n}";
    const B: &str = "async function step(page) {\n  await page.getByPlaceholder('What needs to be done?').fill('buy milk');\n}";
    const C: &str =
        "async function step(page) {\n  await page.getByLabel('New todo').fill('buy milk');\n}";
    /// Code for the fixture's check step (step 1): it reads and asserts, as a check must.
    const COUNTER: &str = "async function step(page) {\n  await expect(page.getByTestId('todo-count')).toHaveText('1 item left');\n}";

    #[test]
    fn generated_code_that_works_first_time_is_cached_after_it_ran() {
        let fixture = Fixture::new();
        let step = fixture.step(0);
        let llm = ScriptedLlm::new([code_reply(A)]);
        let exec = ScriptedExecutor::new([passes(A)]).probing(
            &fixture.cache,
            &fixture.scenario,
            step.key.clone(),
        );
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 3, 2);

        let code = engine.generate(&step, &exec, &observer).unwrap();

        assert_eq!((code.code.as_str(), code.by), (A, Author::Llm));
        assert_eq!(
            exec.executed()[0].cached_then,
            None,
            "nothing cached before it ran"
        );
        assert_eq!(fixture.cached(0).unwrap().code, format!("{A}\n"));
        assert_eq!(
            observer.seen(),
            [
                Observed::GenerationStarted {
                    pool: Pool::Generation,
                    attempt: 1,
                    limit: 3
                },
                Observed::LlmCall(LlmPurpose::Generation),
            ]
        );
        let received = llm.received();
        let request = received[0].generation();
        assert_eq!(request.step, step.key.step);
        assert!(request.previous_steps.is_empty());
        assert!(request.page_snapshot.contains("What needs to be done?"));
        assert!(request.page_api.contains("locator.click"));
        assert_eq!(request.failed, None);
        assert_eq!(request.screenshot, None, "screenshots are off by default");
    }

    #[test]
    fn the_next_step_gets_the_earlier_sentences() {
        let fixture = Fixture::new();
        let llm = ScriptedLlm::new([code_reply(COUNTER)]);
        let exec = ScriptedExecutor::new([passes(COUNTER)]);
        let mut engine = fixture.engine(&llm, 3, 2);
        engine
            .generate(&fixture.step(1), &exec, &RecordingObserver::default())
            .unwrap();
        assert_eq!(
            llm.received()[0].generation().previous_steps,
            [fixture.step(0).key.step]
        );
    }

    #[test]
    fn failed_attempts_are_fed_back_until_one_works() {
        let fixture = Fixture::new();
        let llm = ScriptedLlm::new([code_reply(A), code_reply(B), code_reply(C)]);
        let exec = ScriptedExecutor::new([
            fails(
                A,
                FailureKind::Timeout,
                "locator.fill: Timeout 5000ms exceeded.",
            ),
            fails(
                B,
                FailureKind::StrictMode,
                "strict mode violation: 2 elements",
            ),
            passes(C),
        ]);
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 3, 2);

        let code = engine.generate(&fixture.step(0), &exec, &observer).unwrap();

        assert_eq!((code.code.as_str(), code.by), (C, Author::Llm));
        assert_eq!(fixture.cached(0).unwrap().code, format!("{C}\n"));
        assert_eq!(
            observer.attempts(),
            [
                (Pool::Generation, 1),
                (Pool::Generation, 2),
                (Pool::Generation, 3)
            ]
        );
        let received = llm.received();
        assert_eq!(
            received[1].generation().failed,
            Some(FailedAttempt {
                code: A.to_owned(),
                error: "locator.fill: Timeout 5000ms exceeded.".to_owned()
            })
        );
        assert_eq!(
            received[2]
                .generation()
                .failed
                .as_ref()
                .map(|f| f.code.as_str()),
            Some(B)
        );
    }

    #[test]
    fn a_candidate_that_does_not_compile_is_a_failed_attempt_and_never_runs() {
        let fixture = Fixture::new();
        let broken = "async function step(page) {";
        let llm = ScriptedLlm::new([code_reply(broken), code_reply(A)]);
        let exec = ScriptedExecutor::new([passes(A)]);
        let mut engine = fixture.engine(&llm, 3, 2);

        let code = engine
            .generate(&fixture.step(0), &exec, &RecordingObserver::default())
            .unwrap();

        assert_eq!((code.code.as_str(), code.by), (A, Author::Llm));
        let executed = exec.executed();
        assert_eq!(executed.len(), 1, "the broken candidate never ran");
        assert_eq!(executed[0].code, A);
        let received = llm.received();
        let failed = received[1].generation().failed.clone().unwrap();
        assert_eq!(failed.code, broken);
        assert!(failed.error.starts_with("SyntaxError"), "{}", failed.error);
    }

    #[test]
    fn code_over_64_kib_is_a_failed_attempt_never_run_or_cached() {
        let fixture = Fixture::new();
        let huge = format!(
            "async function step(page) {{\n  // {}\n}}",
            "x".repeat(crate::cache::MAX_STEP_CODE_BYTES)
        );
        let llm = ScriptedLlm::new([code_reply(&huge), code_reply(A)]);
        let exec = ScriptedExecutor::new([passes(A)]);
        let mut engine = fixture.engine(&llm, 3, 2);

        let code = engine
            .generate(&fixture.step(0), &exec, &RecordingObserver::default())
            .unwrap();

        assert_eq!((code.code.as_str(), code.by), (A, Author::Llm));
        assert_eq!(exec.executed().len(), 1, "the huge candidate never ran");
        assert_eq!(fixture.cached(0).unwrap().code, format!("{A}\n"));
        let received = llm.received();
        let failed = received[1].generation().failed.clone().unwrap();
        assert_eq!(failed.code, huge);
        assert!(
            failed
                .error
                .contains("over the limit of 65536 bytes for one step; it was not run"),
            "{}",
            failed.error
        );
    }

    #[test]
    fn code_over_64_kib_that_exhausts_the_budget_is_never_cached() {
        let fixture = Fixture::new();
        let huge = format!("async function step(page) {{}}\n//{}", "y".repeat(70_000));
        let llm = ScriptedLlm::new([
            code_reply(&huge),
            verdict_reply(Category::Incurable, "the model writes too much"),
        ]);
        let exec = ScriptedExecutor::new([]);
        let mut engine = fixture.engine(&llm, 1, 2);

        let failure = engine
            .generate(&fixture.step(0), &exec, &RecordingObserver::default())
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert!(fixture.cached(0).is_none(), "nothing cached");
        assert!(
            !fixture.cache.file_path(&fixture.scenario.rel_path).exists(),
            "no cache file written"
        );
    }

    #[test]
    fn an_exhausted_budget_is_incurable_with_one_verdict_on_the_last_attempt() {
        let fixture = Fixture::new();
        let llm = ScriptedLlm::new([
            code_reply(A),
            code_reply(B),
            verdict_reply(Category::Incurable, "the page has no todo field"),
        ]);
        let exec = ScriptedExecutor::new([
            fails(A, FailureKind::Timeout, "timeout of A"),
            fails(B, FailureKind::Timeout, "timeout of B"),
        ]);
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 2, 2);

        let failure = engine
            .generate(&fixture.step(0), &exec, &observer)
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert_eq!(
            failure.summary,
            "the generation budget of 2 attempt(s) for this step is spent; the last attempt failed"
        );
        assert!(
            matches!(failure.cause.as_deref(), Some(EngineCause::Step(last)) if last.message == "timeout of B"),
            "{:?}",
            failure.cause
        );
        assert_eq!(failure.verdict.unwrap().category, Category::Incurable);
        assert_eq!(failure.candidate.as_deref(), Some(B));
        assert_eq!(fixture.cached(0), None, "nothing that failed is cached");
        let received = llm.received();
        let classification = received[2].classification();
        assert_eq!(classification.code, B);
        assert_eq!(classification.error, "timeout of B");
        assert_eq!(
            observer.seen().last(),
            Some(&Observed::Verdict(Category::Incurable))
        );
    }

    #[test]
    fn an_exhausted_budget_with_the_llm_down_at_the_verdict_is_still_incurable() {
        let fixture = Fixture::new();
        let llm = ScriptedLlm::new([code_reply(A), Expected::Classification(Answer::Unavailable)]);
        let exec = ScriptedExecutor::new([fails(A, FailureKind::Timeout, "timeout of A")]);
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 1, 2);

        let failure = engine
            .generate(&fixture.step(0), &exec, &observer)
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert_eq!(failure.verdict, None);
        let warnings = observer.warnings();
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].starts_with("no verdict for this failure: the LLM is unavailable"));
    }

    #[test]
    fn a_zero_budget_fails_without_asking_the_llm() {
        let fixture = Fixture::new();
        let llm = ScriptedLlm::new([]);
        let exec = ScriptedExecutor::new([]);
        let mut engine = fixture.engine(&llm, 0, 2);

        let failure = engine
            .generate(&fixture.step(0), &exec, &RecordingObserver::default())
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert_eq!(
            failure.summary,
            "the generation budget of 0 attempt(s) for this step is spent; no attempt was made"
        );
        assert_eq!(failure.cause, None);
        assert_eq!((failure.verdict, failure.candidate), (None, None));
    }

    #[test]
    fn a_failed_check_stops_generation_and_one_verdict_decides_a_product_defect() {
        let fixture = Fixture::new();
        let llm = ScriptedLlm::new([
            code_reply(A),
            verdict_reply(Category::ProductDefect, "the counter is off by one"),
        ]);
        let exec = ScriptedExecutor::new([fails(
            A,
            FailureKind::FailedCheck,
            "expect(locator).toHaveText(expected) failed\nExpected: \"1 item left\"\nReceived: \"2 items left\"",
        )]);
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 3, 2);

        let failure = engine
            .generate(&fixture.step(1), &exec, &observer)
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::ProductDefect);
        assert_eq!(
            failure.summary,
            "a check in the generated code did not hold"
        );
        let Some(EngineCause::Step(check)) = failure.cause.as_deref() else {
            panic!("the failed check as the cause: {failure:?}");
        };
        assert_eq!(check.kind, FailureKind::FailedCheck);
        assert!(check.message.contains("Received: \"2 items left\""));
        assert_eq!(failure.verdict.unwrap().category, Category::ProductDefect);
        assert_eq!(failure.candidate.as_deref(), Some(A));
        assert_eq!(
            observer.attempts(),
            [(Pool::Generation, 1)],
            "no budget spent on it"
        );
        assert_eq!(fixture.cached(1), None);
    }

    #[test]
    fn a_failed_check_with_any_other_verdict_is_incurable() {
        for (reply, warned) in [
            (verdict_reply(Category::Rot, "the UI changed"), false),
            (verdict_reply(Category::Incurable, "ambiguous"), false),
            (
                Expected::Classification(Answer::Text("no idea".into())),
                true,
            ),
            (Expected::Classification(Answer::Unavailable), true),
        ] {
            let fixture = Fixture::new();
            let llm = ScriptedLlm::new([code_reply(A), reply.clone()]);
            let exec = ScriptedExecutor::new([fails(A, FailureKind::FailedCheck, "not held")]);
            let observer = RecordingObserver::default();
            let mut engine = fixture.engine(&llm, 3, 2);

            let failure = engine
                .generate(&fixture.step(1), &exec, &observer)
                .unwrap_err();

            assert_eq!(failure.kind, EngineFailureKind::Incurable, "{reply:?}");
            assert_eq!(failure.verdict.is_none(), warned, "{reply:?}");
            assert_eq!(observer.warnings().len(), usize::from(warned), "{reply:?}");
            assert_eq!(fixture.cached(1), None);
        }
    }

    #[test]
    fn the_llm_down_at_generation_is_an_infrastructure_failure() {
        let fixture = Fixture::new();
        let llm = ScriptedLlm::new([Expected::Generation(Answer::Unavailable)]);
        let exec = ScriptedExecutor::new([]);
        let mut engine = fixture.engine(&llm, 3, 2);

        let failure = engine
            .generate(&fixture.step(0), &exec, &RecordingObserver::default())
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::LlmUnavailable);
        assert!(failure.kind.is_infrastructure());
        assert_eq!(failure.summary, "step code could not be generated");
        assert!(
            matches!(
                failure.cause.as_deref(),
                Some(EngineCause::Llm(LlmError::Unavailable { .. }))
            ),
            "{:?}",
            failure.cause
        );
        assert_eq!(fixture.cached(0), None);
    }

    #[test]
    fn a_candidate_the_app_down_or_failing_or_a_missing_setting_stops_ends_generation_at_once() {
        for (kind, expected) in [
            (FailureKind::Unreachable, EngineFailureKind::AppUnreachable),
            (FailureKind::AppError, EngineFailureKind::ProductDefect),
            (
                FailureKind::VisualMismatch,
                EngineFailureKind::ProductDefect,
            ),
            (
                FailureKind::AccessibilityViolation,
                EngineFailureKind::ProductDefect,
            ),
            (FailureKind::Misconfigured, EngineFailureKind::Misconfigured),
        ] {
            let fixture = Fixture::new();
            // One generation and nothing else: the strict fake fails on a verdict request or a
            // second candidate.
            let llm = ScriptedLlm::new([code_reply(A)]);
            let exec = ScriptedExecutor::new([fails(A, kind, "it failed")]);
            let observer = RecordingObserver::default();
            let mut engine = fixture.engine(&llm, 3, 2);

            let failure = engine
                .generate(&fixture.step(1), &exec, &observer)
                .unwrap_err();

            assert_eq!(failure.kind, expected, "{kind:?}");
            assert_eq!(
                failure.kind.is_infrastructure(),
                kind == FailureKind::Unreachable,
                "{kind:?}"
            );
            // Only the HTTP 5xx, the screenshot mismatch and axe violations are verdicts, product defects from
            // evidence.
            assert_eq!(
                failure.verdict.as_ref().map(|v| (v.category, v.source)),
                matches!(
                    kind,
                    FailureKind::AppError
                        | FailureKind::VisualMismatch
                        | FailureKind::AccessibilityViolation
                )
                .then_some((
                    Category::ProductDefect,
                    crate::llm::VerdictSource::Evidence { llm: None }
                )),
                "{kind:?}"
            );
            let Some(EngineCause::Step(cause)) = failure.cause.as_deref() else {
                panic!("the step failure as the cause: {failure:?}");
            };
            assert_eq!(cause.kind, kind);
            assert_eq!(failure.candidate.as_deref(), Some(A));
            assert_eq!(observer.attempts(), [(Pool::Generation, 1)], "{kind:?}");
            assert_eq!(fixture.cached(1), None);
        }
    }

    #[test]
    fn each_step_of_a_test_has_its_own_generation_budget() {
        let fixture = Fixture::new();
        let llm = ScriptedLlm::new([
            code_reply(A),
            verdict_reply(Category::Incurable, "no field"),
            code_reply(COUNTER),
        ]);
        let exec =
            ScriptedExecutor::new([fails(A, FailureKind::Timeout, "timeout"), passes(COUNTER)]);
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 1, 2);

        let first = engine.generate(&fixture.step(0), &exec, &observer);
        let second = engine.generate(&fixture.step(1), &exec, &observer);

        assert_eq!(first.unwrap_err().kind, EngineFailureKind::Incurable);
        assert_eq!(second.unwrap().code, COUNTER);
        assert_eq!(
            observer.attempts(),
            [(Pool::Generation, 1), (Pool::Generation, 1)]
        );
    }

    #[test]
    fn screenshots_go_with_requests_only_when_configured() {
        let mut fixture = Fixture::new();
        fixture.llm.send_screenshots = true;
        let llm = ScriptedLlm::new([code_reply(A)]);
        let exec = ScriptedExecutor::new([passes(A)]);
        let mut engine = fixture.engine(&llm, 3, 2);
        engine
            .generate(&fixture.step(0), &exec, &RecordingObserver::default())
            .unwrap();
        assert!(llm.received()[0].generation().screenshot.is_some());
        assert_eq!(exec.page_states(), 1);
    }
}
