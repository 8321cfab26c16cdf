//! Healing: cached code failed; the LLM classifies the failure, and only rot is regenerated,
//! executed and written back. A product defect or an incurable step fails with its verdict.
//!
//! Main function: [`Engine::heal`]. The decisions are documented in `docs/engine.md` (Healing)
//! and unit-tested below with strict fakes.

use crate::cache::{Author, ProofRecord};
use crate::engine::budgets::Pool;
use crate::engine::builtin_step::{BuiltinOutcome, tried};
use crate::engine::continuity::moved_subject;
use crate::engine::engine::{
    Engine, EngineObserver, Parsing, StepContext, Verdict, Written, cache_failure,
};
use crate::engine::evidence::{Judgement, defect_classification, judge};
use crate::engine::generate::{Before, evident_failure};
use crate::engine::proof::Proven;
use crate::engine::reuse::lock;
use crate::engine::veto::{Spec, received_texts, review};
use crate::engine::{EngineCause, EngineFailure, EngineFailureKind};
use crate::llm::{BuiltinTried, Category, Classification, FailedAttempt, VerdictSource};
use crate::script::{FailureKind, StepFailure};
use crate::step::StepExecutor;

/// What the built-in generator's turn in a heal came to.
#[derive(Debug)]
enum BuiltinTurn {
    /// It had no turn: it is off, or it already had one on the rot the evidence found.
    NotTried,
    /// Its code passed, and the veto and the mutation proof accepted it.
    Vetted(String, Option<ProofRecord>),
    /// Its code passed, but the veto or the mutation proof refused it.
    Vetoed(EngineFailure),
    /// Its code took the browser or the page down: no other code can run there.
    Crashed(EngineFailure),
    /// It wrote no code that passed, for this reason; the second field is what the LLM is
    /// told of it.
    NoCode(String, Option<BuiltinTried>),
}

/// The built-in generator's turn on the rot the evidence found, before an LLM classifies the
/// failure.
#[derive(Debug)]
enum EvidenceTurn {
    /// It had none: it is off, or the evidence found no rot.
    None,
    /// It had one and wrote no code that passed; what the LLM is told of it, because the
    /// heal's requests carry it as first generation's do.
    Tried(Option<BuiltinTried>),
}

/// What a heal without an LLM's verdict came to.
#[derive(Debug)]
enum Offline {
    /// The heal is over: its code was kept, or it failed.
    Done(Result<Written, EngineFailure>),
    /// It goes on through the LLM's verdict, after this turn of the built-in generator.
    Continue(EvidenceTurn),
}

/// How a heal goes on after the built-in generator's turn.
#[derive(Debug)]
enum AfterBuiltin {
    /// Write back the built-in generator's code.
    Keep(String, Option<ProofRecord>),
    /// The heal fails with this failure.
    Fail(EngineFailure),
    /// No code heals the step without an LLM, which may not write code: why the built-in
    /// generator had none (`None`: it had no turn).
    NoHeal(Option<String>),
    /// An LLM writes the code, told what the built-in generator tried when it wrote none
    /// that passed.
    AskLlm(Option<BuiltinTried>),
}

/// The decision after the built-in generator's `turn`, when an LLM may (`llm_writes`) or may
/// not write code: code that passed and was accepted is kept; a crash ends the heal; code the
/// veto refused ends it only when no LLM may write code that keeps the checks.
fn after_builtin(turn: BuiltinTurn, llm_writes: bool) -> AfterBuiltin {
    match (turn, llm_writes) {
        (BuiltinTurn::Vetted(code, proof), _) => AfterBuiltin::Keep(code, proof),
        (BuiltinTurn::Crashed(crash), _) => AfterBuiltin::Fail(crash),
        (BuiltinTurn::Vetoed(vetoed), false) => AfterBuiltin::Fail(vetoed),
        (BuiltinTurn::NoCode(why, _), false) => AfterBuiltin::NoHeal(Some(why)),
        (BuiltinTurn::NotTried, false) => AfterBuiltin::NoHeal(None),
        (BuiltinTurn::NoCode(_, tried), true) => AfterBuiltin::AskLlm(tried),
        (BuiltinTurn::Vetoed(_) | BuiltinTurn::NotTried, true) => AfterBuiltin::AskLlm(None),
    }
}

impl Engine<'_> {
    /// Heals cached code that failed, as a pipeline: the evidence judges first (what it
    /// decides, no LLM can overrule), then code is sought from another test's heal of the same
    /// sentence, the built-in generator and the LLM in turn, and each candidate is vetted (the
    /// heal veto and the mutation proof) before it is kept. Only rot is healed, within the
    /// healing budget; a product defect or an incurable step fails with its verdict, a crash
    /// is never classified, and a heal never weakens a check.
    pub(crate) fn heal(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        old_code: &str,
        failure: &StepFailure,
    ) -> Result<Written, EngineFailure> {
        if failure.kind.speaks_for_itself() {
            return Err(evident_failure(failure, None));
        }
        let seen = exec.observe();
        self.failed_call = seen.call.clone();
        let judged = judge(&step.key.step, failure, &seen);
        if let Judgement::Defect(observed) = judged {
            let verdict = self.defect_verdict(step, exec, observer, old_code, failure, observed);
            return Err(product_defect(failure, verdict));
        }
        // Another test that heals the same sentence waits, and then tries what this one stored
        // instead of asking again. A product defect is decided before that.
        let turn = self.reuse.map(|reuse| reuse.turn(&step.key.step));
        let _held = turn.as_deref().map(lock);
        // Another test's heal stands in for a classification only where one could be made:
        // with the evidence undecided and no LLM to classify, a failing check stays red.
        let reusable = self.provider.is_some() || matches!(judged, Judgement::Rot(_));
        if reusable
            && let Some(healed) = self.reuse_for_heal(step, exec, observer, old_code, failure)?
        {
            return Ok(healed);
        }
        let earlier = match &judged {
            Judgement::Rot(why) => {
                match self.offline_heal(step, exec, observer, old_code, failure, why) {
                    Offline::Done(healed) => return healed,
                    Offline::Continue(turn) => turn,
                }
            }
            Judgement::Defect(_) | Judgement::Undecided | Judgement::Likeness(_) => {
                EvidenceTurn::None
            }
        };
        let found = match &judged {
            Judgement::Likeness(why) => Some(why.as_str()),
            _ => None,
        };
        let verdict = self.llm_verdict(step, exec, observer, old_code, failure, found)?;
        match verdict.category {
            // The summary leaves the verdict's explanation out because reporters show the verdict
            // on its own.
            Category::ProductDefect => Err(product_defect(failure, verdict)),
            Category::Incurable => Err(EngineFailure::new(
                EngineFailureKind::Incurable,
                "the step cannot be healed",
                Some(verdict),
            )
            .with_cause(EngineCause::Step(failure.clone()))),
            Category::Rot => {
                self.rot_heal(step, exec, observer, old_code, failure, &verdict, earlier)
            }
        }
    }

    /// The LLM's verdict on a failure the evidence did not decide, told to the observer.
    fn llm_verdict(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        old_code: &str,
        failure: &StepFailure,
        found: Option<&str>,
    ) -> Result<Classification, EngineFailure> {
        if self.provider.is_none() {
            return Err(self.needs_llm(step, failure, found));
        }
        let classified = self.classify(
            step,
            exec,
            observer,
            old_code,
            &failure.message,
            Parsing::Strict,
        );
        let verdict = match classified {
            Ok(Verdict::Parsed(verdict)) => verdict,
            Ok(Verdict::Unparseable(reply)) => {
                return Err(EngineFailure::new(
                    EngineFailureKind::Incurable,
                    "the step was not healed because the LLM's verdict could not be parsed",
                    None,
                )
                .with_cause(EngineCause::Unparsed {
                    reply,
                    failure: failure.clone(),
                }));
            }
            Err(error) => {
                return Err(EngineFailure::new(
                    EngineFailureKind::LlmUnavailable,
                    "the failure could not be classified for healing",
                    None,
                )
                .with_cause(EngineCause::Unclassified {
                    error,
                    failure: failure.clone(),
                }));
            }
        };
        observer.healing_started(verdict.category);
        observer.verdict(&verdict);
        Ok(verdict)
    }

    /// Heals what the LLM called rot: the built-in generator goes first (unless it already
    /// had its turn on the evidence's rot, `earlier`), under the same veto; its code is kept
    /// only when it passed and checks at least what the cached code checked. Then the LLM
    /// writes code within the healing budget, vetted the same way, told what the built-in
    /// generator tried in either turn.
    #[expect(clippy::too_many_arguments, reason = "the heal's parts, each named")]
    fn rot_heal(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        old_code: &str,
        failure: &StepFailure,
        verdict: &Classification,
        earlier: EvidenceTurn,
    ) -> Result<Written, EngineFailure> {
        // A turn on the evidence's rot went to the LLM only because one may write code, so
        // the LLM writes now, told what that turn tried.
        let next = match earlier {
            EvidenceTurn::Tried(told) => AfterBuiltin::AskLlm(told),
            EvidenceTurn::None if self.builtin.uses_builtin() => after_builtin(
                self.builtin_turn(step, exec, observer, old_code, failure, verdict, false),
                self.builtin.uses_llm(),
            ),
            EvidenceTurn::None => after_builtin(BuiltinTurn::NotTried, self.builtin.uses_llm()),
        };
        match next {
            AfterBuiltin::Keep(code, proof) => self.keep_heal(
                step,
                observer,
                old_code,
                code,
                verdict,
                Author::Builtin,
                proof,
            ),
            AfterBuiltin::Fail(failure) => Err(failure),
            AfterBuiltin::NoHeal(_) => Err(EngineFailure::new(
                EngineFailureKind::Incurable,
                "the built-in generator could not heal this step and [generate] builtin = \
                 \"only\" lets no LLM write code",
                Some(verdict.clone()),
            )
            .with_cause(EngineCause::Step(failure.clone()))),
            AfterBuiltin::AskLlm(builtin) => {
                let previous = FailedAttempt {
                    code: old_code.to_owned(),
                    error: failure.message.clone(),
                };
                let (code, proven) = self
                    .attempts(
                        step,
                        exec,
                        observer,
                        Pool::Healing,
                        Before {
                            failed: Some(previous),
                            builtin,
                            ..Before::default()
                        },
                    )
                    .map_err(|failure| with_heal_verdict(failure, verdict))?;
                let proof = self.vet_healed(
                    step,
                    exec,
                    observer,
                    old_code,
                    failure,
                    &code,
                    proven,
                    verdict,
                    Author::Llm,
                )?;
                self.keep_heal(step, observer, old_code, code, verdict, Author::Llm, proof)
            }
        }
    }

    /// The built-in generator's turn: code for the sentence on the page as it is, tried and,
    /// when it passed, vetted like any heal. `announce` tells the observer the heal started
    /// (with `verdict`) once there is code to vet, for a heal no LLM classified.
    #[expect(clippy::too_many_arguments, reason = "the heal's parts, each named")]
    fn builtin_turn(
        &self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        old_code: &str,
        failure: &StepFailure,
        verdict: &Classification,
        announce: bool,
    ) -> BuiltinTurn {
        let outcome = self.builtin_attempt(step, exec);
        let told = tried(&outcome);
        match outcome {
            BuiltinOutcome::Passed(code, proof) => {
                if announce {
                    observer.healing_started(Category::Rot);
                    observer.verdict(verdict);
                }
                match self.vet_healed(
                    step,
                    exec,
                    observer,
                    old_code,
                    failure,
                    &code,
                    Proven::Record(proof),
                    verdict,
                    Author::Builtin,
                ) {
                    Ok(proof) => BuiltinTurn::Vetted(code, proof),
                    Err(vetoed) => BuiltinTurn::Vetoed(vetoed),
                }
            }
            BuiltinOutcome::Failed(code, crash)
                if crash.kind.speaks_for_itself()
                    && !(crash.kind == FailureKind::Blocked && self.llm_writes()) =>
            {
                BuiltinTurn::Crashed(evident_failure(&crash, Some(code)))
            }
            BuiltinOutcome::Failed(_, blocked) if blocked.kind == FailureKind::Blocked => {
                // The LLM heals next: what the guard blocked was this candidate's failure.
                exec.forgive_blocked();
                BuiltinTurn::NoCode(
                    format!(
                        "the code the built-in generator wrote for the sentence was blocked: {}",
                        blocked.message.lines().next().unwrap_or_default()
                    ),
                    told,
                )
            }
            BuiltinOutcome::Failed(_, failed) => BuiltinTurn::NoCode(
                format!(
                    "the code the built-in generator wrote for the sentence failed: {}",
                    failed.message.lines().next().unwrap_or_default()
                ),
                told,
            ),
            BuiltinOutcome::Vacuous(_, vacuous) => BuiltinTurn::NoCode(
                format!(
                    "a check in the code the built-in generator wrote for the sentence cannot \
                     fail: {}",
                    vacuous.message.lines().next().unwrap_or_default()
                ),
                told,
            ),
            BuiltinOutcome::Declined(decline) => BuiltinTurn::NoCode(
                format!(
                    "the built-in generator cannot write this sentence: {}",
                    decline.0
                ),
                told,
            ),
        }
    }

    /// The verdict on a failure the evidence calls a product defect. When an LLM is
    /// configured it is heard too, and its category is recorded beside the evidence's; a
    /// different one is a disagreement, never a different outcome.
    pub(crate) fn defect_verdict(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        code: &str,
        failure: &StepFailure,
        observed: String,
    ) -> Classification {
        let heard = self.hear(step, exec, observer, code, &failure.message);
        let verdict = defect_classification(observed, heard);
        observer.verdict(&verdict);
        verdict
    }

    /// Heals a rot candidate without an LLM: the built-in generator writes code for the
    /// sentence on the page as it is, and it is kept only when it passed, keeps the cached
    /// checks (the veto) and passes the mutation proof. The heal goes on through the LLM's
    /// verdict when the built-in generator is off, or could not write such code and an LLM may
    /// still try.
    fn offline_heal(
        &mut self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        old_code: &str,
        failure: &StepFailure,
        why: &str,
    ) -> Offline {
        if !self.builtin.uses_builtin() {
            return Offline::Continue(EvidenceTurn::None);
        }
        let verdict = Classification {
            category: Category::Rot,
            explanation: why.to_owned(),
            recommendation: "review the healed code the built-in generator wrote".to_owned(),
            source: VerdictSource::Evidence { llm: None },
        };
        let turn = self.builtin_turn(step, exec, observer, old_code, failure, &verdict, true);
        match after_builtin(turn, self.llm_writes()) {
            AfterBuiltin::Keep(code, proof) => Offline::Done(self.keep_heal(
                step,
                observer,
                old_code,
                code,
                &verdict,
                Author::Builtin,
                proof,
            )),
            AfterBuiltin::Fail(failure) => Offline::Done(Err(failure)),
            AfterBuiltin::NoHeal(refused) => {
                let refused = refused.unwrap_or_else(|| "the built-in generator is off".into());
                let verdict = Classification {
                    recommendation: needs_llm_recommendation(step),
                    ..verdict
                };
                Offline::Done(Err(EngineFailure::new(
                    EngineFailureKind::Incurable,
                    format!(
                        "{why}, and {refused}; healing this step needs [llm] or a rewritten \
                         sentence (try `prettyplay explain {}:{}`)",
                        step.scenario.rel_path, step.line
                    ),
                    Some(verdict),
                )
                .with_cause(EngineCause::Step(failure.clone()))))
            }
            // The heal goes on through the LLM's verdict, which does not try the built-in
            // generator again; the LLM's requests say what it tried here.
            AfterBuiltin::AskLlm(told) => Offline::Continue(EvidenceTurn::Tried(told)),
        }
    }

    /// The failure of a step whose cached code failed where the evidence decides nothing and
    /// no LLM is configured to classify it.
    fn needs_llm(
        &self,
        step: &StepContext<'_>,
        failure: &StepFailure,
        found: Option<&str>,
    ) -> EngineFailure {
        let found = found.map(|why| format!(" ({why})")).unwrap_or_default();
        EngineFailure::new(
            EngineFailureKind::Incurable,
            format!(
                "the cached code failed and the evidence does not tell a changed UI from a \
                 product defect{found}; healing this step needs [llm] or a rewritten sentence \
                 (try `prettyplay explain {}:{}`)",
                step.scenario.rel_path, step.line
            ),
            Some(Classification {
                category: Category::Incurable,
                explanation: "the evidence does not tell a changed UI from a product defect, and \
                              no LLM is configured to classify the failure"
                    .to_owned(),
                recommendation: needs_llm_recommendation(step),
                source: VerdictSource::Evidence { llm: None },
            }),
        )
        .with_cause(EngineCause::Step(failure.clone()))
    }

    /// Writes back healed `code` that passed, the veto accepted and the mutation proof
    /// proved (`proof`), written `by`, and says so.
    #[expect(clippy::too_many_arguments, reason = "the heal's parts, each named")]
    pub(super) fn keep_heal(
        &self,
        step: &StepContext<'_>,
        observer: &dyn EngineObserver,
        old_code: &str,
        code: String,
        verdict: &Classification,
        by: Author,
        proof: Option<ProofRecord>,
    ) -> Result<Written, EngineFailure> {
        self.cache
            .put_written(
                step.scenario,
                &step.key,
                &code,
                &self.today,
                true,
                by,
                proof.as_ref(),
            )
            .map_err(|err| cache_failure(&err))?;
        let offline = verdict.source == (VerdictSource::Evidence { llm: None });
        observer.healed(&verdict.explanation, by, offline, old_code, &code);
        Ok(Written::new(code, by, proof))
    }

    /// Reviews healed code that passed: the static veto first, then its dynamic twin (a healed
    /// check must not be vacuous, and must fail under every kind of mutation the cached check
    /// failed under). Answers the proof to record.
    #[expect(clippy::too_many_arguments, reason = "the heal's parts, each named")]
    pub(super) fn vet_healed(
        &self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        old_code: &str,
        failure: &StepFailure,
        code: &str,
        proven: Proven,
        verdict: &Classification,
        by: Author,
    ) -> Result<Option<ProofRecord>, EngineFailure> {
        self.vet(step, observer, old_code, failure, code, verdict, by)?;
        let moved = moved_subject(
            &step.key.step,
            failure,
            self.failed_call.as_ref(),
            exec.subject_reads().as_deref(),
            by,
        );
        const LESS: &str =
            "the healed code passed, but its check cannot fail as the cached one could";
        let (refusal, summary) = match (moved, proven) {
            (Some(moved), _) => (
                moved,
                "the healed code passed, but its check reads other elements than the failed one",
            ),
            (None, Proven::Record(proof)) => {
                let lost = self.lost_under(step, proof.as_ref());
                if lost.is_empty() {
                    return Ok(proof);
                }
                let lost: Vec<&str> = lost.iter().map(|kind| kind.as_str()).collect();
                let refusal = format!(
                    "the healed check no longer fails under mutations the cached check failed \
                     under ({}): it checks less than the cached code",
                    lost.join(", ")
                );
                (refusal, LESS)
            }
            (None, Proven::Vacuous(vacuous)) => (vacuous.message, LESS),
            (None, Proven::Broken(broken)) => {
                return Err(EngineFailure::new(
                    EngineFailureKind::Incurable,
                    "the mutation proof of the healed code could not finish",
                    Some(verdict.clone()),
                )
                .with_cause(EngineCause::Step(broken))
                .with_candidate(code));
            }
        };
        Err(EngineFailure::new(
            EngineFailureKind::HealVetoed,
            summary,
            Some(verdict.clone()),
        )
        .with_cause(EngineCause::Vetoed {
            veto: refusal,
            by,
            failure: failure.message.clone(),
            diff: diff(old_code, code),
        })
        .with_candidate(code))
    }

    /// Applies the heal veto to code that passed. The code is refused unless it checks at least
    /// what `old_code` checked. With the veto off (`heal.veto = false`) a weakened heal goes through with a
    /// warning. `by` wrote `code`.
    #[expect(clippy::too_many_arguments, reason = "the heal's parts, each named")]
    fn vet(
        &self,
        step: &StepContext<'_>,
        observer: &dyn EngineObserver,
        old_code: &str,
        failure: &StepFailure,
        code: &str,
        verdict: &Classification,
        by: Author,
    ) -> Result<(), EngineFailure> {
        let received = received_texts(&failure.message);
        let spec = Spec {
            sentence: &step.key.step,
            received: &received,
            expect_timeout_ms: self.policy.expect_timeout.as_secs_f64() * 1000.0,
        };
        let Err(veto) = review(old_code, code, &spec) else {
            return Ok(());
        };
        if !self.policy.veto {
            observer.warning(&format!(
                "the heal veto is off (heal.veto = false): this heal was written back although {veto}"
            ));
            return Ok(());
        }
        Err(EngineFailure::new(
            EngineFailureKind::HealVetoed,
            "the healed code passed, but the heal veto refused it",
            Some(verdict.clone()),
        )
        .with_cause(EngineCause::Vetoed {
            veto: veto.to_string(),
            by,
            failure: failure.message.clone(),
            diff: diff(old_code, code),
        })
        .with_candidate(code))
    }
}

/// The cached and the healed code as a unified diff, for the message of a vetoed heal.
fn diff(old_code: &str, new_code: &str) -> String {
    let lines = |code: &str| format!("{}\n", code.trim_end_matches('\n'));
    let (old_code, new_code) = (lines(old_code), lines(new_code));
    similar::TextDiff::from_lines(&old_code, &new_code)
        .unified_diff()
        .context_radius(3)
        .header("cached", "healed")
        .to_string()
}

/// The failure of a step whose app does not behave as the step expects, with the verdict that
/// says so. The summary leaves the verdict's explanation out because reporters show the verdict
/// on its own.
fn product_defect(failure: &StepFailure, verdict: Classification) -> EngineFailure {
    EngineFailure::new(
        EngineFailureKind::ProductDefect,
        "the application does not behave as the step expects",
        Some(verdict),
    )
    .with_cause(EngineCause::Step(failure.clone()))
}

/// A failure of the LLM's heal attempts: when the budget ran out, or a failed check got no
/// verdict of its own, the verdict that started the heal is the one that counts.
fn with_heal_verdict(mut failure: EngineFailure, verdict: &Classification) -> EngineFailure {
    let evident = matches!(
        failure.kind,
        EngineFailureKind::BrowserCrash
            | EngineFailureKind::PageCrash
            | EngineFailureKind::AppUnreachable
            | EngineFailureKind::Misconfigured
            | EngineFailureKind::Blocked
    );
    if failure.verdict.is_none() && !evident {
        failure.verdict = Some(verdict.clone());
    }
    failure
}

/// What to do about a step only an LLM (or a person) can heal.
fn needs_llm_recommendation(step: &StepContext<'_>) -> String {
    format!(
        "configure [llm], or rewrite the sentence (`prettyplay explain {}:{}` shows the code the \
         built-in generator writes for it on this page)",
        step.scenario.rel_path, step.line
    )
}

#[cfg(test)]
mod tests {
    use crate::cache::Author;
    use crate::engine::EngineFailure;
    use crate::engine::testing::{
        Answer, Execution, Expected, Fixture, Observed, Ran, code_reply, fails, passes, run_engine,
        verdict_reply,
    };
    use crate::engine::testing::{RecordingObserver, ScriptedExecutor, ScriptedLlm};
    use crate::engine::{EngineCause, EngineFailureKind, Pool, Written};
    use crate::llm::{Category, FailedAttempt, LlmError};
    use crate::script::FailureKind;
    use crate::script::StepFailure;
    use crate::script::{Kind, Observation, ObservedCall, Place, Read, SubjectRead};

    const OLD: &str = "async function step(page) {\n  await page.getByRole('button', { name: 'Add' }).click();\n}\n";
    const NEW: &str = "async function step(page) {\n  await page.getByRole('button', { name: 'Add todo' }).click();\n}";
    const NEWER: &str =
        "async function step(page) {\n  await page.getByText('Add todo').click();\n}";

    fn timeout() -> StepFailure {
        StepFailure::new(
            FailureKind::Timeout,
            "locator.click: Timeout 5000ms exceeded.\nCall log:\n  - waiting for getByRole('button', { name: 'Add' })",
        )
    }

    /// Heals OLD, cached for the first step, after it failed with [`timeout`].
    fn heal(
        healing: u32,
        script: impl IntoIterator<Item = Expected>,
        executions: impl IntoIterator<Item = Execution>,
    ) -> Ran<Written> {
        let fixture = Fixture::new();
        fixture.cache_code(0, OLD);
        run_engine(
            fixture,
            0,
            (3, healing),
            script,
            executions,
            |engine, step, exec, observer| engine.heal(step, exec, observer, OLD, &timeout()),
        )
    }

    /// The failure of a heal that must not have touched the cache.
    fn failed_untouched(ran: &Ran<Written>) -> &crate::engine::EngineFailure {
        assert_eq!(
            ran.fixture.cached(0).unwrap().code,
            OLD,
            "the cache is untouched"
        );
        assert!(
            !ran.seen
                .iter()
                .any(|o| matches!(o, Observed::Healed { .. }))
        );
        ran.failure()
    }

    fn category(failure: &crate::engine::EngineFailure) -> Option<Category> {
        failure.verdict.as_ref().map(|v| v.category)
    }

    /// An incurable heal that kept the rot verdict it started from (no second request) and
    /// shows `candidate`.
    fn assert_incurable_rot(ran: &Ran<Written>, summary_starts: &str, candidate: &str) {
        let failure = failed_untouched(ran);
        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert!(
            failure.summary.starts_with(summary_starts),
            "{}",
            failure.summary
        );
        assert_eq!(category(failure), Some(Category::Rot));
        assert_eq!(failure.candidate.as_deref(), Some(candidate));
    }

    #[test]
    fn rot_is_regenerated_executed_and_only_then_written_back() {
        let ran = heal(
            2,
            [
                verdict_reply(Category::Rot, "the button was renamed"),
                code_reply(NEW),
            ],
            [passes(NEW)],
        );

        assert_eq!(ran.code(), Ok(NEW));
        assert_eq!(
            ran.executed[0].cached_then.as_deref(),
            Some(OLD),
            "the cache still held the old code while the new one ran"
        );
        let entry = ran.fixture.cached(0).unwrap();
        assert_eq!(entry.code, format!("{NEW}\n"));
        assert_eq!(entry.created, "2026-11-30", "created is kept");
        assert!(entry.healed.is_some(), "healed is recorded");
        let classification = ran.received[0].classification();
        assert_eq!(classification.code, OLD);
        assert_eq!(classification.error, timeout().message);
        assert_eq!(
            ran.received[1].generation().failed,
            Some(FailedAttempt {
                code: OLD.to_owned(),
                error: timeout().message
            })
        );
        assert_eq!(ran.seen[1], Observed::HealingStarted(Category::Rot));
        assert_eq!(ran.seen[2], Observed::Verdict(Category::Rot));
        assert_eq!(
            ran.seen[3],
            Observed::GenerationStarted {
                pool: Pool::Healing,
                attempt: 1,
                limit: 2
            }
        );
        assert_eq!(
            ran.seen.last(),
            Some(&Observed::Healed {
                old_code: OLD.to_owned(),
                new_code: NEW.to_owned()
            })
        );
    }

    #[test]
    fn regenerated_code_over_64_kib_never_runs_or_replaces_the_cached_code() {
        let huge = format!("{NEW}\n//{}", "z".repeat(crate::cache::MAX_STEP_CODE_BYTES));
        let ran = heal(
            2,
            [
                verdict_reply(Category::Rot, "the button was renamed"),
                code_reply(&huge),
                code_reply(NEW),
            ],
            [passes(NEW)],
        );

        assert_eq!(ran.code(), Ok(NEW));
        assert_eq!(ran.executed.len(), 1, "the huge candidate never ran");
        assert_eq!(ran.fixture.cached(0).unwrap().code, format!("{NEW}\n"));
        let failed = ran.received[2].generation().failed.clone().unwrap();
        assert!(
            failed.error.contains("over the limit of 65536 bytes"),
            "{}",
            failed.error
        );
    }

    #[test]
    fn rot_whose_regenerated_code_keeps_failing_is_incurable_and_nothing_is_written() {
        let ran = heal(
            2,
            [
                verdict_reply(Category::Rot, "the button was renamed"),
                code_reply(NEW),
                code_reply(NEWER),
            ],
            [
                fails(NEW, FailureKind::Timeout, "timeout of NEW"),
                fails(NEWER, FailureKind::Timeout, "timeout of NEWER"),
            ],
        );

        assert_incurable_rot(
            &ran,
            "the healing budget of 2 attempt(s) for this step is spent",
            NEWER,
        );
        let fed_back = ran.received[2].generation().failed.clone().unwrap();
        assert_eq!(fed_back.code, NEW);
    }

    #[test]
    fn a_failed_check_in_regenerated_code_is_classified_once() {
        // product_defect: the regenerated check found the defect the cached code found.
        let ran = heal(
            2,
            [
                verdict_reply(Category::Rot, "the button was renamed"),
                code_reply(NEW),
                verdict_reply(Category::ProductDefect, "the counter is off by one"),
            ],
            [fails(NEW, FailureKind::FailedCheck, "not held")],
        );
        let failure = failed_untouched(&ran);
        assert_eq!(failure.kind, EngineFailureKind::ProductDefect);
        assert_eq!(
            failure.summary,
            "a check in the regenerated code did not hold"
        );
        assert!(matches!(
            failure.cause.as_deref(),
            Some(EngineCause::Step(step)) if step.kind == FailureKind::FailedCheck
        ));
        assert_eq!(category(failure), Some(Category::ProductDefect));
        assert_eq!(failure.candidate.as_deref(), Some(NEW));
        assert_eq!(ran.received[2].classification().code, NEW);

        // Any other verdict: incurable, with that verdict.
        let ran = heal(
            2,
            [
                verdict_reply(Category::Rot, "the button was renamed"),
                code_reply(NEW),
                verdict_reply(Category::Incurable, "the sentence is ambiguous"),
            ],
            [fails(NEW, FailureKind::FailedCheck, "not held")],
        );
        let failure = failed_untouched(&ran);
        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert_eq!(category(failure), Some(Category::Incurable));

        // No verdict (the LLM went down): incurable, with the rot verdict that started the heal.
        let ran = heal(
            2,
            [
                verdict_reply(Category::Rot, "the button was renamed"),
                code_reply(NEW),
                Expected::Classification(Answer::Unavailable),
            ],
            [fails(NEW, FailureKind::FailedCheck, "not held")],
        );
        assert_incurable_rot(&ran, "a check in the regenerated code did not hold", NEW);
        assert_eq!(ran.warnings().len(), 1);
    }

    /// Cached code that checks the counter, for the veto tests.
    const CHECKING: &str = "async function step(page) {\n  await expect(page.getByTestId('count')).toHaveText('1 item left');\n}\n";

    /// Heals [`CHECKING`] (failed with [`timeout`]) for the step "the counter says "1 item
    /// left"" into `healed`, which passes.
    fn heal_check(veto: bool, healed: &str) -> Ran<Written> {
        let mut fixture = Fixture::new();
        fixture.policy.veto = veto;
        fixture.cache_code(1, CHECKING);
        run_engine(
            fixture,
            1,
            (3, 2),
            [
                verdict_reply(Category::Rot, "the counter moved"),
                code_reply(healed),
            ],
            [passes(healed)],
            |engine, step, exec, observer| engine.heal(step, exec, observer, CHECKING, &timeout()),
        )
    }

    #[test]
    fn a_heal_that_weakens_a_check_is_vetoed_whatever_the_verdict() {
        for healed in [
            // The check removed, its expected text changed to what the page shows, or swallowed.
            "async function step(page) {\n  await page.getByTestId('count').isVisible();\n}",
            "async function step(page) {\n  await expect(page.getByTestId('count')).toHaveText('2 items left');\n}",
            "async function step(page) {\n  try {\n    await expect(page.getByTestId('count')).toHaveText('1 item left');\n  } catch {}\n}",
        ] {
            let ran = heal_check(true, healed);
            let failure = ran.failure();
            assert_eq!(failure.kind, EngineFailureKind::HealVetoed, "{healed}");
            assert!(!failure.kind.is_infrastructure());
            assert_eq!(
                failure.summary,
                "the healed code passed, but the heal veto refused it"
            );
            let Some(EngineCause::Vetoed { by, diff, .. }) = failure.cause.as_deref() else {
                panic!("a veto as the cause: {failure:?}");
            };
            assert_eq!(*by, Author::Llm);
            assert!(diff.contains("--- cached"), "the diff: {diff}");
            assert!(diff.contains("+++ healed"));
            assert_eq!(
                category(failure),
                Some(Category::Rot),
                "the verdict is shown"
            );
            assert_eq!(failure.candidate.as_deref(), Some(healed));
            assert_eq!(
                ran.fixture.cached(1).unwrap().code,
                CHECKING,
                "the cache is untouched"
            );
            assert!(
                !ran.seen
                    .iter()
                    .any(|o| matches!(o, Observed::Healed { .. }))
            );
        }
    }

    /// Heals [`CHECKING`], whose subject the evidence found and marked on the page, into
    /// `healed`, whose check the page places at `place` against that subject.
    fn heal_marked_check(healed: &str, place: Place) -> (Result<Written, EngineFailure>, String) {
        let fixture = Fixture::new();
        fixture.cache_code(1, CHECKING);
        let llm = ScriptedLlm::new([
            verdict_reply(Category::Rot, "the counter moved"),
            code_reply(healed),
        ]);
        let count = "internal:testid=[data-testid=\"count\"s]";
        let failed = ObservedCall {
            method: "expect".into(),
            selector: Some(count.into()),
            expression: Some("to.have.text".into()),
            expected_texts: vec!["1 item left".into()],
            matches: Some(1),
            received: Some("\"2 items left\"".into()),
            kind: Some(Kind::Reads),
            subject_marked: true,
            ..ObservedCall::default()
        };
        let read = Read {
            method: "expect".into(),
            selector: Some(".todo-count".into()),
            expression: Some("to.have.text".into()),
            negated: false,
            number: None,
            page: 0,
            loose: false,
            texts: vec!["1 item left".into()],
        };
        let exec = ScriptedExecutor::new([passes(healed)])
            .observing(Observation {
                call: Some(failed),
                loaded: true,
                ..Observation::default()
            })
            .placing(vec![SubjectRead {
                read,
                place,
                position: None,
                containers: Vec::new(),
            }]);
        let mut engine = fixture.engine(&llm, 3, 2);
        let result = engine.heal(
            &fixture.step(1),
            &exec,
            &RecordingObserver::default(),
            CHECKING,
            &timeout(),
        );
        (result, fixture.cached(1).unwrap().code)
    }

    #[test]
    fn a_heal_that_moves_a_check_off_its_subject_on_the_page_is_vetoed() {
        let healed = "async function step(page) {\n  await expect(page.locator('.todo-count')).toHaveText('1 item left');\n}";
        let (result, cached) = heal_marked_check(healed, Place::Other);
        let failure = result.unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::HealVetoed);
        let Some(EngineCause::Vetoed { veto, .. }) = failure.cause.as_deref() else {
            panic!("a veto as the cause: {failure:?}");
        };
        assert!(veto.contains("still on the page"), "{veto}");
        assert_eq!(cached, CHECKING, "the cache is untouched");
        // The same code reading the marked node itself is a heal of the locator.
        let (result, _) = heal_marked_check(healed, Place::Same);
        assert_eq!(result.map(|w| w.code).as_deref(), Ok(healed));
    }

    #[test]
    fn a_heal_that_keeps_the_checks_passes_the_veto() {
        let healed = "async function step(page) {\n  await expect(page.locator('.todo-count')).toHaveText('1 item left');\n}";
        let ran = heal_check(true, healed);
        assert_eq!(ran.code(), Ok(healed));
        assert_eq!(ran.fixture.cached(1).unwrap().code, format!("{healed}\n"));
    }

    #[test]
    fn with_the_veto_off_a_weakened_heal_goes_through_with_a_warning() {
        let healed =
            "async function step(page) {\n  await page.getByTestId('count').isVisible();\n}";
        let ran = heal_check(false, healed);
        assert_eq!(ran.code(), Ok(healed));
        let warnings = ran.warnings();
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].starts_with("the heal veto is off"),
            "{}",
            warnings[0]
        );
        assert!(warnings[0].contains("fewer assertions"), "{}", warnings[0]);
    }

    #[test]
    fn a_crash_is_never_classified_or_regenerated() {
        let crash = StepFailure::new(
            FailureKind::Crash,
            "Target page, context or browser has been closed",
        );
        let fixture = Fixture::new();
        fixture.cache_code(0, OLD);
        let ran = run_engine(
            fixture,
            0,
            (3, 2),
            [],
            [],
            |engine, step, exec, observer| engine.heal(step, exec, observer, OLD, &crash),
        );
        let failure = failed_untouched(&ran);
        assert_eq!(failure.kind, EngineFailureKind::BrowserCrash);
        assert!(failure.kind.is_infrastructure());
        assert_eq!(
            failure.cause.as_deref(),
            Some(&EngineCause::Step(crash.clone()))
        );
        assert_eq!(failure.verdict, None);

        // Nor does a crash get a quiet verdict.
        let fixture = Fixture::new();
        let ran = run_engine(
            fixture,
            0,
            (3, 2),
            [],
            [],
            |engine, step, exec, observer| Ok(engine.verdict_for(step, exec, observer, OLD, &crash)),
        );
        assert_eq!(ran.result.as_ref().ok(), Some(&None));
        assert!(ran.warnings().is_empty());
    }

    #[test]
    fn a_page_crash_is_never_classified_or_regenerated_and_is_the_tests_failure() {
        let crash = StepFailure::new(FailureKind::PageCrash, "page crashed: Target crashed");
        let fixture = Fixture::new();
        fixture.cache_code(0, OLD);
        let ran = run_engine(
            fixture,
            0,
            (3, 2),
            [],
            [],
            |engine, step, exec, observer| engine.heal(step, exec, observer, OLD, &crash),
        );
        let failure = failed_untouched(&ran);
        assert_eq!(failure.kind, EngineFailureKind::PageCrash);
        assert!(!failure.kind.is_infrastructure());
        assert_eq!(
            failure.cause.as_deref(),
            Some(&EngineCause::Step(crash.clone()))
        );
        // A candidate that crashes the page ends the heal the same way, with no verdict.
        let ran = heal(
            2,
            [verdict_reply(Category::Rot, "renamed"), code_reply(NEW)],
            [fails(NEW, FailureKind::PageCrash, "Target crashed")],
        );
        let failure = failed_untouched(&ran);
        assert_eq!(failure.kind, EngineFailureKind::PageCrash);
        assert_eq!(failure.verdict, None);
        assert_eq!(failure.candidate.as_deref(), Some(NEW));
    }

    #[test]
    fn a_regenerated_candidate_that_crashes_the_browser_ends_the_heal_as_infrastructure() {
        let ran = heal(
            2,
            [verdict_reply(Category::Rot, "renamed"), code_reply(NEW)],
            [fails(NEW, FailureKind::Crash, "Browser has been closed")],
        );
        let failure = failed_untouched(&ran);
        assert_eq!(failure.kind, EngineFailureKind::BrowserCrash);
        assert_eq!(
            failure.verdict, None,
            "a crash carries no verdict, not even the rot one"
        );
        assert_eq!(failure.candidate.as_deref(), Some(NEW));
    }

    #[test]
    fn a_verdict_that_only_mentions_rot_never_heals() {
        for reply in [
            "I think this is rot | renamed",
            "**rot** | renamed",
            "The category: rot",
        ] {
            let ran = heal(
                2,
                [Expected::Classification(Answer::Text(reply.into()))],
                [],
            );
            let failure = failed_untouched(&ran);
            assert_eq!(failure.kind, EngineFailureKind::Incurable, "{reply}");
            assert!(
                matches!(failure.cause.as_deref(), Some(EngineCause::Unparsed { .. })),
                "{reply}"
            );
        }
    }

    #[test]
    fn a_product_defect_or_an_incurable_step_fails_with_its_verdict_and_nothing_is_regenerated() {
        for (verdict, kind, summary) in [
            (
                Category::ProductDefect,
                EngineFailureKind::ProductDefect,
                "the application does not behave as the step expects",
            ),
            (
                Category::Incurable,
                EngineFailureKind::Incurable,
                "the step cannot be healed",
            ),
        ] {
            let ran = heal(2, [verdict_reply(verdict, "it is broken")], []);

            let failure = failed_untouched(&ran);
            assert_eq!(failure.kind, kind);
            assert_eq!(failure.summary, summary);
            assert_eq!(
                failure.cause.as_deref(),
                Some(&EngineCause::Step(timeout()))
            );
            assert_eq!(category(failure), Some(verdict));
            assert_eq!(
                failure.verdict.as_ref().map(|v| v.explanation.as_str()),
                Some("it is broken")
            );
            assert!(ran.attempts().is_empty());
        }
    }

    #[test]
    fn an_unparseable_verdict_never_heals() {
        let reply = Expected::Classification(Answer::Text("I think it is probably fine?".into()));
        let ran = heal(2, [reply], []);

        let failure = failed_untouched(&ran);
        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert_eq!(
            failure.summary,
            "the step was not healed because the LLM's verdict could not be parsed"
        );
        let Some(EngineCause::Unparsed {
            reply,
            failure: step,
        }) = failure.cause.as_deref()
        else {
            panic!("an unparsed reply as the cause: {failure:?}");
        };
        assert_eq!(reply, "I think it is probably fine?");
        assert_eq!(step, &timeout());
        assert_eq!(failure.verdict, None);
    }

    #[test]
    fn the_llm_down_at_classification_is_infrastructure_and_nothing_changes() {
        let ran = heal(2, [Expected::Classification(Answer::Unavailable)], []);

        let failure = failed_untouched(&ran);
        assert_eq!(failure.kind, EngineFailureKind::LlmUnavailable);
        assert_eq!(
            failure.summary,
            "the failure could not be classified for healing"
        );
        assert!(matches!(
            failure.cause.as_deref(),
            Some(EngineCause::Unclassified { error: LlmError::Unavailable { .. }, failure })
                if *failure == timeout()
        ));
    }

    #[test]
    fn the_llm_down_at_regeneration_is_infrastructure_with_the_rot_verdict() {
        let ran = heal(
            2,
            [
                verdict_reply(Category::Rot, "renamed"),
                Expected::Generation(Answer::Unavailable),
            ],
            [],
        );

        let failure = failed_untouched(&ran);
        assert_eq!(failure.kind, EngineFailureKind::LlmUnavailable);
        assert_eq!(category(failure), Some(Category::Rot));
    }

    #[test]
    fn a_zero_healing_budget_reports_rot_without_regenerating() {
        let ran = heal(0, [verdict_reply(Category::Rot, "renamed")], []);

        assert_incurable_rot(&ran, "the healing budget of 0 attempt(s)", OLD);
    }

    #[test]
    fn healing_and_generation_budgets_of_a_step_are_separate() {
        let ran = run_engine(
            Fixture::new(),
            0,
            (1, 1),
            [
                code_reply(NEW),
                verdict_reply(Category::Rot, "renamed"),
                code_reply(NEWER),
            ],
            [passes(NEW), passes(NEWER)],
            |engine, step, exec, observer| {
                engine.generate(step, exec, observer)?;
                engine.heal(step, exec, observer, NEW, &timeout())
            },
        );

        assert_eq!(ran.code(), Ok(NEWER));
        assert_eq!(ran.attempts(), [(Pool::Generation, 1), (Pool::Healing, 1)]);
    }

    #[test]
    fn a_quiet_verdict_is_reported_or_skipped_with_a_warning_never_changing_the_failure() {
        for (reply, category) in [
            (
                verdict_reply(Category::ProductDefect, "off by one"),
                Some(Category::ProductDefect),
            ),
            (Expected::Classification(Answer::Text("hmm".into())), None),
            (Expected::Classification(Answer::Unavailable), None),
        ] {
            let fixture = Fixture::new();
            fixture.cache_code(0, OLD);
            let ran = run_engine(
                fixture,
                0,
                (3, 2),
                [reply.clone()],
                [],
                |engine, step, exec, observer| {
                    Ok(engine.verdict_for(step, exec, observer, OLD, &timeout()))
                },
            );

            let verdict = ran.result.as_ref().unwrap();
            assert_eq!(verdict.as_ref().map(|v| v.category), category, "{reply:?}");
            assert_eq!(
                ran.warnings().len(),
                usize::from(category.is_none()),
                "{reply:?}"
            );
            assert_eq!(ran.fixture.cached(0).unwrap().code, OLD);
        }
    }

    mod after_builtin {
        use super::super::{AfterBuiltin, BuiltinTurn, after_builtin};
        use crate::cache::{MutationKind, ProofRecord};
        use crate::engine::{EngineFailure, EngineFailureKind};

        fn failure(kind: EngineFailureKind) -> EngineFailure {
            EngineFailure::new(kind, "no", None)
        }

        fn vetted() -> BuiltinTurn {
            BuiltinTurn::Vetted(
                "code".into(),
                Some(ProofRecord::Proven(vec![MutationKind::Hidden])),
            )
        }

        #[test]
        fn code_that_passed_and_was_accepted_is_kept_whoever_may_write() {
            for llm_writes in [false, true] {
                let kept = after_builtin(vetted(), llm_writes);
                assert!(
                    matches!(&kept, AfterBuiltin::Keep(code, Some(_)) if code == "code"),
                    "{kept:?}"
                );
            }
        }

        #[test]
        fn a_crash_ends_the_heal_whoever_may_write() {
            for llm_writes in [false, true] {
                let crashed = BuiltinTurn::Crashed(failure(EngineFailureKind::BrowserCrash));
                let ended = after_builtin(crashed, llm_writes);
                assert!(
                    matches!(&ended, AfterBuiltin::Fail(f) if f.kind == EngineFailureKind::BrowserCrash),
                    "{ended:?}"
                );
            }
        }

        #[test]
        fn vetoed_code_ends_the_heal_when_no_llm_may_write() {
            let vetoed = BuiltinTurn::Vetoed(failure(EngineFailureKind::HealVetoed));
            let ended = after_builtin(vetoed, false);
            assert!(
                matches!(&ended, AfterBuiltin::Fail(f) if f.kind == EngineFailureKind::HealVetoed),
                "{ended:?}"
            );
        }

        #[test]
        fn vetoed_code_leaves_the_llm_to_write_code_that_keeps_the_checks() {
            let vetoed = BuiltinTurn::Vetoed(failure(EngineFailureKind::HealVetoed));
            assert!(matches!(
                after_builtin(vetoed, true),
                AfterBuiltin::AskLlm(None)
            ));
        }

        #[test]
        fn no_code_and_no_llm_is_no_heal_with_the_reason() {
            let ended = after_builtin(BuiltinTurn::NoCode("it declined".into(), None), false);
            assert!(
                matches!(&ended, AfterBuiltin::NoHeal(Some(why)) if why == "it declined"),
                "{ended:?}"
            );
        }

        #[test]
        fn no_turn_and_no_llm_is_no_heal_without_a_reason() {
            let ended = after_builtin(BuiltinTurn::NotTried, false);
            assert!(matches!(ended, AfterBuiltin::NoHeal(None)), "{ended:?}");
        }

        #[test]
        fn no_code_or_no_turn_leaves_the_llm_to_write_code() {
            for turn in [
                BuiltinTurn::NoCode("it declined".into(), None),
                BuiltinTurn::NotTried,
            ] {
                assert!(matches!(after_builtin(turn, true), AfterBuiltin::AskLlm(_)));
            }
        }

        #[test]
        fn no_code_hands_what_the_built_in_generator_tried_to_the_llm() {
            let tried = crate::llm::BuiltinTried::Declined {
                reason: "it reads no field".into(),
            };
            let turn = BuiltinTurn::NoCode("it declined".into(), Some(tried.clone()));
            assert!(
                matches!(after_builtin(turn, true), AfterBuiltin::AskLlm(Some(t)) if t == tried)
            );
        }
    }
}
