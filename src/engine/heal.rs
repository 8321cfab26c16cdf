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
        Answer, Expected, Fixture, Observed, RecordingObserver, ScriptedExecutor, ScriptedLlm,
        code_reply, fails, passes, verdict_reply,
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

    /// The fixture with OLD cached for step 0.
    fn cached_fixture() -> Fixture {
        let fixture = Fixture::new();
        fixture.cache_code(0, OLD);
        fixture
    }

    #[test]
    fn rot_is_regenerated_executed_and_only_then_written_back() {
        let fixture = cached_fixture();
        let step = fixture.step(0);
        let llm = ScriptedLlm::new([
            verdict_reply(Category::Rot, "the button was renamed"),
            code_reply(NEW),
        ]);
        let exec = ScriptedExecutor::new([passes(NEW)]).probing(
            &fixture.cache,
            &fixture.scenario,
            step.key.clone(),
        );
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 3, 2);

        let healed = engine
            .heal(&step, &exec, &observer, OLD, &timeout())
            .unwrap();

        assert_eq!(healed, NEW);
        assert_eq!(
            exec.executed()[0].cached_then.as_deref(),
            Some(OLD),
            "the cache still held the old code while the new one ran"
        );
        let entry = fixture.cached(0).unwrap();
        assert_eq!(entry.code, format!("{NEW}\n"));
        assert_eq!(entry.created, "2026-11-30", "created is kept");
        assert!(entry.healed.is_some(), "healed is recorded");
        let received = llm.received();
        let classification = received[0].classification();
        assert_eq!(classification.code, OLD);
        assert_eq!(classification.error, timeout().message);
        assert_eq!(
            received[1].generation().failed,
            Some(FailedAttempt {
                code: OLD.to_owned(),
                error: timeout().message
            })
        );
        let seen = observer.seen();
        assert_eq!(seen[1], Observed::HealingStarted(Category::Rot));
        assert_eq!(seen[2], Observed::Verdict(Category::Rot));
        assert_eq!(
            seen[3],
            Observed::GenerationStarted {
                pool: Pool::Healing,
                attempt: 1,
                limit: 2
            }
        );
        assert_eq!(
            seen.last(),
            Some(&Observed::Healed {
                old_code: OLD.to_owned(),
                new_code: NEW.to_owned()
            })
        );
    }

    #[test]
    fn rot_whose_regenerated_code_keeps_failing_is_incurable_and_nothing_is_written() {
        let fixture = cached_fixture();
        let llm = ScriptedLlm::new([
            verdict_reply(Category::Rot, "the button was renamed"),
            code_reply(NEW),
            code_reply(NEWER),
        ]);
        let exec = ScriptedExecutor::new([
            fails(NEW, FailureKind::Timeout, "timeout of NEW"),
            fails(NEWER, FailureKind::Timeout, "timeout of NEWER"),
        ]);
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 3, 2);

        let failure = engine
            .heal(&fixture.step(0), &exec, &observer, OLD, &timeout())
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert!(
            failure
                .reason
                .starts_with("the healing budget of 2 attempt(s) for this step is spent"),
            "{}",
            failure.reason
        );
        assert_eq!(
            failure.verdict.map(|v| v.category),
            Some(Category::Rot),
            "the verdict that started the heal, with no second request"
        );
        assert_eq!(failure.candidate.as_deref(), Some(NEWER));
        assert_eq!(
            fixture.cached(0).unwrap().code,
            OLD,
            "the cache is untouched"
        );
        assert_eq!(
            llm.received()[2]
                .generation()
                .failed
                .as_ref()
                .map(|f| f.code.as_str()),
            Some(NEW)
        );
        assert!(
            !observer
                .seen()
                .iter()
                .any(|o| matches!(o, Observed::Healed { .. }))
        );
    }

    #[test]
    fn a_failed_check_in_regenerated_code_ends_the_heal_without_another_verdict() {
        let fixture = cached_fixture();
        let llm = ScriptedLlm::new([
            verdict_reply(Category::Rot, "the button was renamed"),
            code_reply(NEW),
        ]);
        let exec = ScriptedExecutor::new([fails(NEW, FailureKind::FailedCheck, "not held")]);
        let mut engine = fixture.engine(&llm, 3, 2);

        let failure = engine
            .heal(
                &fixture.step(0),
                &exec,
                &RecordingObserver::default(),
                OLD,
                &timeout(),
            )
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert!(
            failure
                .reason
                .starts_with("a check in the regenerated code did not hold")
        );
        assert_eq!(failure.verdict.map(|v| v.category), Some(Category::Rot));
        assert_eq!(failure.candidate.as_deref(), Some(NEW));
        assert_eq!(fixture.cached(0).unwrap().code, OLD);
    }

    #[test]
    fn a_product_defect_fails_with_its_verdict_and_nothing_is_regenerated() {
        let fixture = cached_fixture();
        let llm = ScriptedLlm::new([verdict_reply(
            Category::ProductDefect,
            "the add button does nothing",
        )]);
        let exec = ScriptedExecutor::new([]);
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 3, 2);

        let failure = engine
            .heal(&fixture.step(0), &exec, &observer, OLD, &timeout())
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::ProductDefect);
        assert!(failure.reason.contains("the add button does nothing"));
        assert!(failure.reason.contains(&timeout().message));
        assert_eq!(
            failure.verdict.map(|v| v.category),
            Some(Category::ProductDefect)
        );
        assert_eq!(fixture.cached(0).unwrap().code, OLD);
        assert!(observer.attempts().is_empty());
    }

    #[test]
    fn an_incurable_verdict_fails_with_it_and_nothing_is_regenerated() {
        let fixture = cached_fixture();
        let llm = ScriptedLlm::new([verdict_reply(Category::Incurable, "the page is gone")]);
        let exec = ScriptedExecutor::new([]);
        let mut engine = fixture.engine(&llm, 3, 2);

        let failure = engine
            .heal(
                &fixture.step(0),
                &exec,
                &RecordingObserver::default(),
                OLD,
                &timeout(),
            )
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert!(
            failure
                .reason
                .starts_with("the step cannot be healed: the page is gone")
        );
        assert_eq!(
            failure.verdict.map(|v| v.category),
            Some(Category::Incurable)
        );
        assert_eq!(fixture.cached(0).unwrap().code, OLD);
    }

    #[test]
    fn an_unparseable_verdict_never_heals() {
        let fixture = cached_fixture();
        let llm = ScriptedLlm::new([Expected::Classification(Answer::Text(
            "I think it is probably fine?".into(),
        ))]);
        let exec = ScriptedExecutor::new([]);
        let mut engine = fixture.engine(&llm, 3, 2);

        let failure = engine
            .heal(
                &fixture.step(0),
                &exec,
                &RecordingObserver::default(),
                OLD,
                &timeout(),
            )
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert!(
            failure
                .reason
                .contains("the step was not healed: the LLM's verdict could not be parsed"),
            "{}",
            failure.reason
        );
        assert_eq!(failure.verdict, None);
        assert_eq!(fixture.cached(0).unwrap().code, OLD);
    }

    #[test]
    fn the_llm_down_at_classification_is_infrastructure_and_nothing_changes() {
        let fixture = cached_fixture();
        let llm = ScriptedLlm::new([Expected::Classification(Answer::Unavailable)]);
        let exec = ScriptedExecutor::new([]);
        let mut engine = fixture.engine(&llm, 3, 2);

        let failure = engine
            .heal(
                &fixture.step(0),
                &exec,
                &RecordingObserver::default(),
                OLD,
                &timeout(),
            )
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::LlmUnavailable);
        assert!(failure.reason.starts_with(&timeout().message));
        assert!(
            failure
                .reason
                .contains("could not be classified for healing")
        );
        assert_eq!(fixture.cached(0).unwrap().code, OLD);
    }

    #[test]
    fn the_llm_down_at_regeneration_is_infrastructure_with_the_rot_verdict() {
        let fixture = cached_fixture();
        let llm = ScriptedLlm::new([
            verdict_reply(Category::Rot, "renamed"),
            Expected::Generation(Answer::Unavailable),
        ]);
        let exec = ScriptedExecutor::new([]);
        let mut engine = fixture.engine(&llm, 3, 2);

        let failure = engine
            .heal(
                &fixture.step(0),
                &exec,
                &RecordingObserver::default(),
                OLD,
                &timeout(),
            )
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::LlmUnavailable);
        assert_eq!(failure.verdict.map(|v| v.category), Some(Category::Rot));
        assert_eq!(fixture.cached(0).unwrap().code, OLD);
    }

    #[test]
    fn a_zero_healing_budget_reports_rot_without_regenerating() {
        let fixture = cached_fixture();
        let llm = ScriptedLlm::new([verdict_reply(Category::Rot, "renamed")]);
        let exec = ScriptedExecutor::new([]);
        let mut engine = fixture.engine(&llm, 3, 0);

        let failure = engine
            .heal(
                &fixture.step(0),
                &exec,
                &RecordingObserver::default(),
                OLD,
                &timeout(),
            )
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert!(
            failure
                .reason
                .starts_with("the healing budget of 0 attempt(s)")
        );
        assert_eq!(failure.verdict.map(|v| v.category), Some(Category::Rot));
        assert_eq!(failure.candidate.as_deref(), Some(OLD));
    }

    #[test]
    fn healing_and_generation_budgets_of_a_step_are_separate() {
        let fixture = cached_fixture();
        let llm = ScriptedLlm::new([
            code_reply(NEW),
            verdict_reply(Category::Rot, "renamed"),
            code_reply(NEWER),
        ]);
        let exec = ScriptedExecutor::new([passes(NEW), passes(NEWER)]);
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 1, 1);

        engine.generate(&fixture.step(0), &exec, &observer).unwrap();
        engine
            .heal(&fixture.step(0), &exec, &observer, NEW, &timeout())
            .unwrap();

        assert_eq!(
            observer.attempts(),
            [(Pool::Generation, 1), (Pool::Healing, 1)]
        );
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
            let fixture = cached_fixture();
            let llm = ScriptedLlm::new([reply.clone()]);
            let exec = ScriptedExecutor::new([]);
            let observer = RecordingObserver::default();
            let mut engine = fixture.engine(&llm, 3, 2);

            let verdict = engine.verdict_for(&fixture.step(0), &exec, &observer, OLD, &timeout());

            assert_eq!(verdict.map(|v| v.category), category, "{reply:?}");
            let warned = observer.warnings().len();
            assert_eq!(warned, usize::from(category.is_none()), "{reply:?}");
            assert_eq!(fixture.cached(0).unwrap().code, OLD);
        }
    }
}
