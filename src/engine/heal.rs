//! Healing: cached code failed; the LLM classifies the failure, and only rot is regenerated,
//! executed and written back. A product defect or an incurable step fails with its verdict.
//!
//! Main function: [`Engine::heal`]. The decisions are documented in `docs/engine.md` (Healing)
//! and unit-tested below with strict fakes.

use crate::engine::budgets::Pool;
use crate::engine::engine::{Engine, EngineObserver, StepContext, Verdict, cache_failure};
use crate::engine::{EngineFailure, EngineFailureKind};
use crate::llm::{Category, FailedAttempt};
use crate::script::StepFailure;
use crate::step::StepExecutor;

impl Engine<'_> {
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
}

#[cfg(test)]
mod tests {
    use crate::engine::testing::{
        Answer, Execution, Expected, Fixture, Observed, Ran, code_reply, fails, passes, run_engine,
        verdict_reply,
    };
    use crate::engine::{EngineFailureKind, Pool};
    use crate::llm::{Category, FailedAttempt};
    use crate::script::{FailureKind, StepFailure};

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
    ) -> Ran<String> {
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
    fn failed_untouched(ran: &Ran<String>) -> &crate::engine::EngineFailure {
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
    fn assert_incurable_rot(ran: &Ran<String>, reason_starts: &str, candidate: &str) {
        let failure = failed_untouched(ran);
        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert!(
            failure.reason.starts_with(reason_starts),
            "{}",
            failure.reason
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

        assert_eq!(ran.result.as_deref(), Ok(NEW));
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
    fn a_failed_check_in_regenerated_code_ends_the_heal_without_another_verdict() {
        let ran = heal(
            2,
            [
                verdict_reply(Category::Rot, "the button was renamed"),
                code_reply(NEW),
            ],
            [fails(NEW, FailureKind::FailedCheck, "not held")],
        );

        assert_incurable_rot(&ran, "a check in the regenerated code did not hold", NEW);
    }

    #[test]
    fn a_product_defect_or_an_incurable_step_fails_with_its_verdict_and_nothing_is_regenerated() {
        for (verdict, kind, starts) in [
            (
                Category::ProductDefect,
                EngineFailureKind::ProductDefect,
                "the application does not behave as the step expects: it is broken",
            ),
            (
                Category::Incurable,
                EngineFailureKind::Incurable,
                "the step cannot be healed: it is broken",
            ),
        ] {
            let ran = heal(2, [verdict_reply(verdict, "it is broken")], []);

            let failure = failed_untouched(&ran);
            assert_eq!(failure.kind, kind);
            assert!(failure.reason.starts_with(starts), "{}", failure.reason);
            assert!(failure.reason.ends_with(&timeout().message));
            assert_eq!(category(failure), Some(verdict));
            assert!(ran.attempts().is_empty());
        }
    }

    #[test]
    fn an_unparseable_verdict_never_heals() {
        let reply = Expected::Classification(Answer::Text("I think it is probably fine?".into()));
        let ran = heal(2, [reply], []);

        let failure = failed_untouched(&ran);
        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert!(
            failure
                .reason
                .contains("the step was not healed: the LLM's verdict could not be parsed"),
            "{}",
            failure.reason
        );
        assert_eq!(failure.verdict, None);
    }

    #[test]
    fn the_llm_down_at_classification_is_infrastructure_and_nothing_changes() {
        let ran = heal(2, [Expected::Classification(Answer::Unavailable)], []);

        let failure = failed_untouched(&ran);
        assert_eq!(failure.kind, EngineFailureKind::LlmUnavailable);
        assert!(failure.reason.starts_with(&timeout().message));
        assert!(
            failure
                .reason
                .contains("could not be classified for healing")
        );
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

        assert_eq!(ran.result.as_deref(), Ok(NEWER));
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
}
