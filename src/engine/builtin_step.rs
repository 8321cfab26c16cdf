//! The built-in generator's turn in generation and healing: it writes code for the sentence on
//! the page as it is now (the full aria snapshot), and the code is tried like any candidate —
//! compiled, then executed inside the step's settle window. When it cannot write the code, or
//! its code fails, the reason goes into the failure or is handed to the LLM.
//!
//! Main type: [`BuiltinOutcome`], from [`Engine::builtin_attempt`].

use std::time::{Duration, Instant};

use crate::cache::ProofRecord;
use crate::config::BuiltinOrder;
use crate::engine::engine::{Engine, StepContext};
use crate::engine::proof::Proven;
use crate::engine::{EngineCause, EngineFailure, EngineFailureKind};
use crate::llm::{BuiltinTried, FailedAttempt};
use crate::script::{FailureKind, StepFailure};
use crate::step::StepExecutor;
use crate::writer::{BuiltinWriter, Context, Decline, Writer};

/// How often the page is read again while what the sentence names has not appeared.
const REREAD: Duration = Duration::from_millis(250);

/// How the built-in generator's turn went.
pub(super) enum BuiltinOutcome {
    /// Its code ran to its end on the page and its checks (if any) passed the mutation proof,
    /// recorded as the second field.
    Passed(String, Option<ProofRecord>),
    /// It wrote nothing, and says why.
    Declined(Decline),
    /// Its code failed on the page (the guard's block included).
    Failed(String, StepFailure),
    /// Its code passed, but a check in it passed on a page that contradicts the sentence too.
    Vacuous(String, StepFailure),
}

impl Engine<'_> {
    /// Whether an LLM may write code for this engine's steps.
    pub(crate) fn llm_writes(&self) -> bool {
        self.provider.is_some() && self.builtin.uses_llm()
    }

    /// The built-in generator writes code for the step and it is tried on the live page.
    pub(super) fn builtin_attempt(
        &self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
    ) -> BuiltinOutcome {
        // What the sentence names may appear a moment after the page did (a banner shown
        // after a delay, an app its scripts render after the page loads): the page is read
        // again until it shows or the step's bound passes.
        let started = Instant::now();
        let code = loop {
            let state = exec.page_state(false, usize::MAX);
            let allows = |url: &str| exec.allows_url(url);
            let writer = BuiltinWriter {
                sentence: &step.key.step,
                columns: step.columns,
                page: &state,
                context: Context::new(&step.previous, &step.previous_code),
                allows: &allows,
            };
            match writer.write() {
                Ok(draft) => break draft.code,
                Err(decline) if decline.is_missing() && started.elapsed() < exec.appear_bound() => {
                    std::thread::sleep(REREAD);
                }
                Err(decline) => return BuiltinOutcome::Declined(decline),
            }
        };
        if let Err(failure) = exec
            .check(&code)
            .and_then(|()| exec.execute(&code))
            .and_then(|()| exec.kept_to_origins())
        {
            return BuiltinOutcome::Failed(code, failure);
        }
        match self.proof_of(step, exec, &code) {
            Proven::Record(proof) => BuiltinOutcome::Passed(code, proof),
            Proven::Vacuous(failure) => BuiltinOutcome::Vacuous(code, failure),
            Proven::Broken(failure) => BuiltinOutcome::Failed(code, failure),
        }
    }

    /// The failure of a step the built-in generator could not do when no LLM may write code.
    pub(super) fn builtin_failure(&self, outcome: BuiltinOutcome) -> EngineFailure {
        let no_llm = if self.provider.is_none() {
            "no LLM configured".to_owned()
        } else {
            format!(
                "[generate] builtin = \"{}\" lets no LLM write code",
                BuiltinOrder::Only.as_str()
            )
        };
        match outcome {
            BuiltinOutcome::Declined(decline) => EngineFailure::new(
                EngineFailureKind::Incurable,
                format!("{no_llm} and the built-in generator cannot write this step"),
                None,
            )
            .with_cause(EngineCause::Declined {
                missing: decline.is_missing(),
                why: decline.0,
            }),
            BuiltinOutcome::Failed(code, failure) => {
                let what = if failure.kind == FailureKind::FailedCheck {
                    "a check in the code the built-in generator wrote did not hold"
                } else {
                    "the code the built-in generator wrote failed"
                };
                EngineFailure::new(
                    EngineFailureKind::Incurable,
                    format!("{what} ({no_llm} to write other code)"),
                    None,
                )
                .with_cause(EngineCause::Step(failure))
                .with_candidate(code)
            }
            BuiltinOutcome::Vacuous(code, failure) => EngineFailure::new(
                EngineFailureKind::Incurable,
                format!(
                    "a check in the code the built-in generator wrote cannot fail: it also \
                     passes on a page that contradicts the sentence ({no_llm} to write other code)"
                ),
                None,
            )
            .with_cause(EngineCause::Step(failure))
            .with_candidate(code),
            BuiltinOutcome::Passed(code, _) => EngineFailure::new(
                EngineFailureKind::Incurable,
                "the built-in generator's code passed but was not kept",
                None,
            )
            .with_candidate(code),
        }
    }
}

/// What the LLM is told of the built-in generator's failed code: the attempt to improve on.
pub(super) fn handed_over(outcome: &BuiltinOutcome) -> Option<FailedAttempt> {
    match outcome {
        BuiltinOutcome::Failed(code, failure) | BuiltinOutcome::Vacuous(code, failure) => {
            Some(FailedAttempt {
                code: code.clone(),
                error: failure.message.clone(),
            })
        }
        BuiltinOutcome::Passed(..) | BuiltinOutcome::Declined(_) => None,
    }
}

/// What the LLM is told the built-in generator tried and why it did not serve, in every
/// request for the step's code: declined with its reason, failed, vacuous or blocked with its
/// code and error.
pub(super) fn tried(outcome: &BuiltinOutcome) -> Option<BuiltinTried> {
    let attempt = |code: &String, failure: &StepFailure| FailedAttempt {
        code: code.clone(),
        error: failure.message.clone(),
    };
    Some(match outcome {
        BuiltinOutcome::Passed(..) => return None,
        BuiltinOutcome::Declined(decline) => BuiltinTried::Declined {
            reason: decline.0.clone(),
        },
        BuiltinOutcome::Failed(code, failure) if failure.kind == FailureKind::Blocked => {
            BuiltinTried::Blocked(attempt(code, failure))
        }
        BuiltinOutcome::Failed(code, failure) => BuiltinTried::Failed(attempt(code, failure)),
        BuiltinOutcome::Vacuous(code, failure) => BuiltinTried::Vacuous(attempt(code, failure)),
    })
}

/// How the built-in generator's code failed on the page, if it ran and failed (or its check
/// was vacuous): the attempt loop starts from it.
pub(super) fn failed_on_page(outcome: BuiltinOutcome) -> Option<StepFailure> {
    match outcome {
        BuiltinOutcome::Failed(_, failure) | BuiltinOutcome::Vacuous(_, failure) => Some(failure),
        BuiltinOutcome::Passed(..) | BuiltinOutcome::Declined(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::cache::{Author, CachedStep, StepKey};
    use crate::config::{BudgetSettings, BuiltinOrder};
    use crate::engine::testing::{
        Execution, Expected, Fixture, Observed, RecordingObserver, ScriptedExecutor, ScriptedLlm,
        code_reply, fails, passes, verdict_reply,
    };
    use crate::engine::{Budgets, Engine, EngineCause, EngineFailureKind};
    use crate::llm::{
        BuiltinTried, Category, FailedAttempt, VerdictSource, render_generation_message,
    };
    use crate::script::{FailureKind, Kind, Mutation, Observation, ObservedCall, StepFailure};
    use crate::step::Proof;

    /// What the built-in generator writes for the sentence below on the fake page.
    const BUILTIN: &str = "async function step(page) {\n  await page.getByRole('textbox', { name: 'What needs to be done?', exact: true }).fill('buy milk');\n}";
    const SENTENCE: &str = "type \"buy milk\" into the \"What needs to be done?\" field";
    const LLM: &str =
        "async function step(page) {\n  await page.getByRole('textbox').fill('buy milk');\n}";
    /// Why the built-in generator declines the fixture's own first sentence on the fake page.
    const DECLINED: &str = "no element on the page is \"new todo field\"";
    /// A check sentence, and what the built-in generator writes for it on the fake page.
    const CHECK: &str = "the \"Todos\" heading is visible";
    const BUILTIN_CHECK: &str = "async function step(page) {\n  await expect(page.getByRole('heading', { name: 'Todos', exact: true })).toBeVisible();\n}";
    const LLM_CHECK: &str = "async function step(page) {\n  await expect(page.getByRole('heading', { name: 'Todos', exact: true })).toHaveCount(1);\n}";

    /// A proof under which the check still passed.
    fn vacuous() -> Proof {
        Proof::Vacuous {
            mutation: Some(Mutation::Hide("#scripted".into())),
            why: "a substring match".into(),
        }
    }

    #[test]
    fn built_in_code_that_passed_is_cached_by_builtin_and_the_llm_is_never_asked() {
        let fixture = Fixture::new();
        let mut step = fixture.step(0);
        step.key.step = SENTENCE.to_owned();
        let llm = ScriptedLlm::new([]);
        let exec = ScriptedExecutor::new([passes(BUILTIN)]);
        let mut engine = fixture.engine(&llm, 3, 2).with_builtin(BuiltinOrder::First);
        let code = engine
            .generate(&step, &exec, &RecordingObserver::default())
            .unwrap();
        assert_eq!((code.code.as_str(), code.by), (BUILTIN, Author::Builtin));
        let file = fixture
            .cache
            .load(&fixture.scenario.rel_path)
            .unwrap()
            .unwrap();
        assert_eq!(file.steps[0].by.as_deref(), Some("builtin"));
    }

    #[test]
    fn a_declined_step_goes_to_the_llm_and_is_cached_by_llm() {
        let fixture = Fixture::new();
        let llm = ScriptedLlm::new([code_reply(LLM)]);
        let exec = ScriptedExecutor::new([passes(LLM)]);
        let mut engine = fixture.engine(&llm, 3, 2).with_builtin(BuiltinOrder::First);
        engine
            .generate(&fixture.step(0), &exec, &RecordingObserver::default())
            .unwrap();
        assert_eq!(fixture.cached(0).unwrap().by.as_deref(), Some("llm"));
        let request = llm.received()[0].generation().clone();
        assert_eq!(request.failed, None);
        assert_eq!(
            request.builtin,
            Some(BuiltinTried::Declined {
                reason: DECLINED.to_owned()
            })
        );
        let message = render_generation_message(&request);
        assert!(
            message.ends_with(&format!(
                "\n\nBUILT-IN GENERATOR:\nThe built-in generator was tried first and declined \
                 to write this step: {DECLINED}\n"
            )),
            "{message}"
        );
    }

    #[test]
    fn built_in_code_that_failed_is_handed_to_the_llm() {
        let fixture = Fixture::new();
        let mut step = fixture.step(0);
        step.key.step = SENTENCE.to_owned();
        let llm = ScriptedLlm::new([code_reply(LLM)]);
        let exec = ScriptedExecutor::new([
            fails(BUILTIN, FailureKind::Timeout, "locator.fill: Timeout"),
            passes(LLM),
        ]);
        let mut engine = fixture.engine(&llm, 3, 2).with_builtin(BuiltinOrder::First);
        engine
            .generate(&step, &exec, &RecordingObserver::default())
            .unwrap();
        let failed = llm.received()[0].generation().failed.clone().unwrap();
        assert_eq!(
            (failed.code.as_str(), failed.error.as_str()),
            (BUILTIN, "locator.fill: Timeout")
        );
        assert_eq!(
            llm.received()[0].generation().builtin,
            Some(BuiltinTried::Failed(failed))
        );
    }

    #[test]
    fn every_request_for_the_step_says_what_the_built_in_generator_tried() {
        let fixture = Fixture::new();
        let mut step = fixture.step(0);
        step.key.step = SENTENCE.to_owned();
        const OTHER: &str = "async function step(page) {\n  await page.getByRole('textbox').first().fill('buy milk');\n}";
        let llm = ScriptedLlm::new([code_reply(OTHER), code_reply(LLM)]);
        let exec = ScriptedExecutor::new([
            fails(BUILTIN, FailureKind::Timeout, "locator.fill: Timeout"),
            fails(OTHER, FailureKind::Timeout, "other: Timeout"),
            passes(LLM),
        ]);
        let mut engine = fixture.engine(&llm, 3, 2).with_builtin(BuiltinOrder::First);
        engine
            .generate(&step, &exec, &RecordingObserver::default())
            .unwrap();
        let tried = Some(BuiltinTried::Failed(FailedAttempt {
            code: BUILTIN.to_owned(),
            error: "locator.fill: Timeout".to_owned(),
        }));
        let second = llm.received()[1].generation().clone();
        assert_eq!(second.builtin, tried);
        assert_eq!(second.failed.as_ref().map(|f| f.code.as_str()), Some(OTHER));
        // The second request's CODE is the LLM's: the built-in generator's code is shown in
        // its own section.
        let message = render_generation_message(&second);
        assert!(
            message.contains(&format!(
                "BUILT-IN GENERATOR:\nThe built-in generator was tried first; its code failed on \
                 the page:\nlocator.fill: Timeout\nIts code:\n{BUILTIN}\n\nCODE:\n{OTHER}"
            )),
            "{message}"
        );
    }

    #[test]
    fn a_vacuous_built_in_check_goes_to_the_llm_as_vacuous() {
        let fixture = Fixture::new();
        let mut step = fixture.step(1);
        step.key.step = CHECK.to_owned();
        let llm = ScriptedLlm::new([code_reply(LLM_CHECK)]);
        let exec =
            ScriptedExecutor::new([passes(BUILTIN_CHECK), passes(LLM_CHECK)]).proving([vacuous()]);
        let mut engine = fixture.engine(&llm, 3, 2).with_builtin(BuiltinOrder::First);
        let written = engine
            .generate(&step, &exec, &RecordingObserver::default())
            .unwrap();
        assert_eq!(
            (written.code.as_str(), written.by),
            (LLM_CHECK, Author::Llm)
        );
        let request = llm.received()[0].generation().clone();
        let Some(BuiltinTried::Vacuous(attempt)) = &request.builtin else {
            panic!("{:?}", request.builtin);
        };
        assert_eq!(attempt.code, BUILTIN_CHECK);
        assert!(
            attempt.error.contains("a substring match"),
            "{}",
            attempt.error
        );
        assert_eq!(request.failed.as_ref(), Some(attempt));
        let message = render_generation_message(&request);
        assert!(
            message.contains(
                "BUILT-IN GENERATOR:\nThe built-in generator was tried first; its code passed, \
                 but its check cannot fail"
            ) && message.contains("Its code is CODE below.\n\nCODE:\n"),
            "{message}"
        );
    }

    #[test]
    fn without_an_llm_a_vacuous_built_in_check_fails_saying_it_cannot_fail() {
        let fixture = Fixture::new();
        let mut step = fixture.step(1);
        step.key.step = CHECK.to_owned();
        let exec = ScriptedExecutor::new([passes(BUILTIN_CHECK)]).proving([vacuous()]);
        let failure = offline(&fixture)
            .generate(&step, &exec, &RecordingObserver::default())
            .unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert_eq!(
            failure.summary,
            "a check in the code the built-in generator wrote cannot fail: it also passes on a \
             page that contradicts the sentence (no LLM configured to write other code)"
        );
        assert!(
            failure.message().contains("a substring match"),
            "{}",
            failure.message()
        );
        assert_eq!(failure.candidate.as_deref(), Some(BUILTIN_CHECK));
        assert!(cached(&fixture, &step.key).is_none());
    }

    #[test]
    fn without_an_llm_failed_built_in_code_fails_with_the_code_and_its_error() {
        let fixture = Fixture::new();
        let mut step = fixture.step(0);
        step.key.step = SENTENCE.to_owned();
        let exec = ScriptedExecutor::new([fails(
            BUILTIN,
            FailureKind::Timeout,
            "locator.fill: Timeout",
        )]);
        let failure = offline(&fixture)
            .generate(&step, &exec, &RecordingObserver::default())
            .unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert_eq!(
            failure.message(),
            "the code the built-in generator wrote failed (no LLM configured to write other \
             code):\n\nlocator.fill: Timeout"
        );
        assert_eq!(failure.candidate.as_deref(), Some(BUILTIN));
        assert!(cached(&fixture, &step.key).is_none());
    }

    #[test]
    fn a_blocked_built_in_candidate_goes_to_the_llm_with_its_error() {
        let fixture = Fixture::new();
        let mut step = fixture.step(0);
        step.key.step = SENTENCE.to_owned();
        let llm = ScriptedLlm::new([code_reply(LLM)]);
        let exec = ScriptedExecutor::new([
            fails(
                BUILTIN,
                FailureKind::Blocked,
                "blocked a request to https://todomvc.com/",
            ),
            passes(LLM),
        ]);
        let mut engine = fixture.engine(&llm, 3, 2).with_builtin(BuiltinOrder::First);
        let written = engine
            .generate(&step, &exec, &RecordingObserver::default())
            .unwrap();
        assert_eq!((written.code.as_str(), written.by), (LLM, Author::Llm));
        let failed = llm.received()[0].generation().failed.clone().unwrap();
        assert_eq!(
            (failed.code.as_str(), failed.error.as_str()),
            (BUILTIN, "blocked a request to https://todomvc.com/")
        );
        let request = llm.received()[0].generation().clone();
        assert_eq!(request.builtin, Some(BuiltinTried::Blocked(failed)));
        let message = render_generation_message(&request);
        assert!(
            message.contains(
                "BUILT-IN GENERATOR:\nThe built-in generator was tried first; its code reached \
                 for an origin outside [browser] allowed_origins and the guard blocked it. Keep \
                 to the app's origins:\nblocked a request to https://todomvc.com/\nIts code is \
                 CODE below.\n\nCODE:\n"
            ),
            "{message}"
        );
        assert_eq!(
            cached(&fixture, &step.key).unwrap().by.as_deref(),
            Some("llm")
        );
    }

    #[test]
    fn a_blocked_built_in_candidate_with_no_budget_left_fails_blocked_with_its_code() {
        let fixture = Fixture::new();
        let mut step = fixture.step(0);
        step.key.step = SENTENCE.to_owned();
        let llm = ScriptedLlm::new([]);
        let exec = ScriptedExecutor::new([fails(
            BUILTIN,
            FailureKind::Blocked,
            "blocked a request to https://todomvc.com/",
        )]);
        let mut engine = fixture.engine(&llm, 0, 2).with_builtin(BuiltinOrder::First);
        let failure = engine
            .generate(&step, &exec, &RecordingObserver::default())
            .unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::Blocked);
        assert_eq!(failure.candidate.as_deref(), Some(BUILTIN));
        assert!(llm.received().is_empty());
    }

    #[test]
    fn without_an_llm_a_blocked_built_in_candidate_fails_blocked_with_its_code() {
        let fixture = Fixture::new();
        let mut step = fixture.step(0);
        step.key.step = SENTENCE.to_owned();
        let exec = ScriptedExecutor::new([fails(
            BUILTIN,
            FailureKind::Blocked,
            "blocked a request to https://todomvc.com/",
        )]);
        let failure = offline(&fixture)
            .generate(&step, &exec, &RecordingObserver::default())
            .unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::Blocked);
        assert_eq!(failure.candidate.as_deref(), Some(BUILTIN));
        assert!(cached(&fixture, &step.key).is_none());
    }

    #[test]
    fn a_blocked_built_in_heal_goes_to_the_llm() {
        let healed = heal_builtin_first(
            SENTENCE,
            OLD,
            [
                verdict_reply(Category::Rot, "the field was renamed"),
                code_reply(LLM),
            ],
            [
                fails(
                    BUILTIN,
                    FailureKind::Blocked,
                    "blocked a request to https://todomvc.com/",
                ),
                passes(LLM),
            ],
        );
        assert_eq!(
            healed.result.as_ref().map(|w| (w.code.as_str(), w.by)),
            Ok((LLM, Author::Llm))
        );
        assert_eq!(healed.entry.unwrap().by.as_deref(), Some("llm"));
    }

    #[test]
    fn without_an_llm_a_declined_step_fails_and_points_at_the_shapes() {
        let fixture = Fixture::new();
        let exec = ScriptedExecutor::new([]);
        let mut engine = Engine::new(
            None,
            &fixture.llm,
            &fixture.cache,
            "",
            Budgets::new(BudgetSettings {
                generation: 3,
                healing: 2,
            }),
            fixture.policy,
        )
        .with_builtin(BuiltinOrder::First);
        let failure = engine
            .generate(&fixture.step(1), &exec, &RecordingObserver::default())
            .unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert_eq!(
            failure.summary,
            "no LLM configured and the built-in generator cannot write this step"
        );
        assert!(
            matches!(failure.cause.as_deref(), Some(EngineCause::Declined { .. })),
            "{:?}",
            failure.cause
        );
        assert!(
            failure.message().ends_with("docs/builtin.md"),
            "{}",
            failure.message()
        );
        assert!(fixture.cached(1).is_none());
    }

    #[test]
    fn only_never_asks_the_llm_for_code() {
        let fixture = Fixture::new();
        let llm = ScriptedLlm::new([]);
        let exec = ScriptedExecutor::new([]);
        let mut engine = fixture.engine(&llm, 3, 2).with_builtin(BuiltinOrder::Only);
        let failure = engine
            .generate(&fixture.step(0), &exec, &RecordingObserver::default())
            .unwrap_err();
        assert!(
            failure
                .summary
                .starts_with("[generate] builtin = \"only\" lets no LLM write code"),
            "{}",
            failure.summary
        );
    }

    /// Cached code of [`SENTENCE`] that the UI outgrew: the field was renamed.
    const OLD: &str = "async function step(page) {\n  await page.getByRole('textbox', { name: 'New todo' }).fill('buy milk');\n}";
    /// The same, with a check the built-in generator's code does not make.
    const OLD_CHECKING: &str = "async function step(page) {\n  await page.getByRole('textbox', { name: 'New todo' }).fill('buy milk');\n  await expect(page.getByRole('textbox', { name: 'New todo' })).toHaveValue('buy milk');\n}";
    const LLM_CHECKING: &str = "async function step(page) {\n  await page.getByRole('textbox').fill('buy milk');\n  await expect(page.getByRole('textbox')).toHaveValue('buy milk');\n}";

    fn old_failure() -> StepFailure {
        StepFailure::new(
            FailureKind::Timeout,
            "locator.fill: Timeout 5000ms exceeded.\nCall log:\n  - waiting for getByRole('textbox', { name: 'New todo' })",
        )
    }

    /// What one heal with the built-in generator first did.
    struct Healed {
        result: Result<crate::engine::Written, crate::engine::EngineFailure>,
        entry: Option<CachedStep>,
        received: Vec<crate::engine::testing::Received>,
        seen: Vec<Observed>,
    }

    /// Heals `old` (cached for the fixture's first step, worded `sentence`, after it failed
    /// with [`old_failure`]) with `[generate] builtin = "first"`, the LLM answering `script`
    /// and the page `executions`.
    fn heal_builtin_first(
        sentence: &str,
        old: &str,
        script: impl IntoIterator<Item = Expected>,
        executions: impl IntoIterator<Item = Execution>,
    ) -> Healed {
        heal_builtin(BuiltinOrder::First, sentence, old, script, executions)
    }

    /// [`heal_builtin_first`] with `[generate] builtin = order`.
    fn heal_builtin(
        order: BuiltinOrder,
        sentence: &str,
        old: &str,
        script: impl IntoIterator<Item = Expected>,
        executions: impl IntoIterator<Item = Execution>,
    ) -> Healed {
        let fixture = Fixture::new();
        let mut step = fixture.step(0);
        step.key.step = sentence.to_owned();
        fixture
            .cache
            .put(&fixture.scenario, &step.key, old, "2026-11-30")
            .unwrap();
        let llm = ScriptedLlm::new(script);
        let observer = RecordingObserver::default();
        let result = {
            let exec = ScriptedExecutor::new(executions);
            let mut engine = fixture.engine(&llm, 3, 2).with_builtin(order);
            engine.heal(&step, &exec, &observer, old, &old_failure())
        };
        let entry = cached(&fixture, &step.key);
        Healed {
            result,
            entry,
            received: llm.received(),
            seen: observer.seen(),
        }
    }

    fn cached(fixture: &Fixture, key: &StepKey) -> Option<CachedStep> {
        fixture
            .cache
            .load(&fixture.scenario.rel_path)
            .unwrap()
            .and_then(|file| file.get(key).cloned())
    }

    #[test]
    fn after_a_rot_verdict_built_in_code_that_passes_the_veto_is_the_heal() {
        let healed = heal_builtin_first(
            SENTENCE,
            OLD,
            [verdict_reply(Category::Rot, "the field was renamed")],
            [passes(BUILTIN)],
        );
        assert_eq!(
            healed.result.as_ref().map(|w| (w.code.as_str(), w.by)),
            Ok((BUILTIN, Author::Builtin))
        );
        assert_eq!(healed.received.len(), 1, "the LLM only classified");
        healed.received[0].classification();
        let entry = healed.entry.unwrap();
        assert_eq!(entry.code, format!("{BUILTIN}\n"));
        assert_eq!(entry.by.as_deref(), Some("builtin"));
        assert!(entry.healed.is_some(), "healed is recorded");
        assert_eq!(
            healed.seen.last(),
            Some(&Observed::Healed {
                old_code: OLD.to_owned(),
                new_code: BUILTIN.to_owned()
            })
        );
    }

    #[test]
    fn built_in_code_that_would_drop_a_check_is_vetoed_and_the_llm_heals() {
        let healed = heal_builtin_first(
            SENTENCE,
            OLD_CHECKING,
            [
                verdict_reply(Category::Rot, "the field was renamed"),
                code_reply(LLM_CHECKING),
            ],
            // The built-in generator's code passed, but checks nothing: vetoed.
            [passes(BUILTIN), passes(LLM_CHECKING)],
        );
        assert_eq!(
            healed.result.as_ref().map(|w| (w.code.as_str(), w.by)),
            Ok((LLM_CHECKING, Author::Llm))
        );
        // The LLM improves on the cached code and its failure, not on the vetoed candidate.
        assert_eq!(
            healed.received[1].generation().failed,
            Some(FailedAttempt {
                code: OLD_CHECKING.to_owned(),
                error: old_failure().message,
            })
        );
        let entry = healed.entry.unwrap();
        assert_eq!(entry.code, format!("{LLM_CHECKING}\n"));
        assert_eq!(entry.by.as_deref(), Some("llm"));
        assert!(
            !healed
                .seen
                .iter()
                .any(|o| matches!(o, Observed::Warning(_))),
            "a vetoed built-in candidate is no warning: {:?}",
            healed.seen
        );
    }

    #[test]
    fn with_builtin_only_a_vetoed_heal_names_the_built_in_generator_as_its_writer() {
        let healed = heal_builtin(
            BuiltinOrder::Only,
            SENTENCE,
            OLD_CHECKING,
            [verdict_reply(Category::Rot, "the field was renamed")],
            [passes(BUILTIN)],
        );
        let failure = healed.result.unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::HealVetoed);
        assert!(
            matches!(
                failure.cause.as_deref(),
                Some(EngineCause::Vetoed {
                    by: Author::Builtin,
                    ..
                })
            ),
            "{:?}",
            failure.cause
        );
        assert!(
            failure
                .message()
                .contains("yet the new code the built-in generator wrote checks less"),
            "{}",
            failure.message()
        );
        assert_eq!(healed.received.len(), 1, "only the verdict is asked for");
        assert_eq!(healed.entry.unwrap().code, format!("{OLD_CHECKING}\n"));
    }

    #[test]
    fn when_the_built_in_generator_declines_or_fails_the_llm_heals() {
        // Declined: the fixture's own sentence names no field of the page.
        let declined = Fixture::new().step(0).key.step;
        let healed = heal_builtin_first(
            &declined,
            OLD,
            [
                verdict_reply(Category::Rot, "the field was renamed"),
                code_reply(LLM),
            ],
            [passes(LLM)],
        );
        assert_eq!(
            healed.result.as_ref().map(|w| (w.code.as_str(), w.by)),
            Ok((LLM, Author::Llm))
        );
        assert_eq!(healed.entry.unwrap().by.as_deref(), Some("llm"));
        assert_eq!(
            healed.received[1]
                .generation()
                .failed
                .as_ref()
                .map(|f| f.code.as_str()),
            Some(OLD)
        );
        // The LLM is told why the built-in generator wrote nothing.
        assert_eq!(
            healed.received[1].generation().builtin,
            Some(BuiltinTried::Declined {
                reason: DECLINED.to_owned()
            })
        );

        // Failed on the page: the LLM heals from the cached code, told how the built-in
        // generator's code failed.
        let healed = heal_builtin_first(
            SENTENCE,
            OLD,
            [
                verdict_reply(Category::Rot, "the field was renamed"),
                code_reply(LLM),
            ],
            [
                fails(BUILTIN, FailureKind::Timeout, "locator.fill: Timeout"),
                passes(LLM),
            ],
        );
        assert_eq!(
            healed.result.as_ref().map(|w| (w.code.as_str(), w.by)),
            Ok((LLM, Author::Llm))
        );
        assert_eq!(
            healed.received[1].generation().builtin,
            Some(BuiltinTried::Failed(FailedAttempt {
                code: BUILTIN.to_owned(),
                error: "locator.fill: Timeout".to_owned(),
            }))
        );
        assert_eq!(healed.entry.unwrap().by.as_deref(), Some("llm"));
    }

    #[test]
    fn a_cached_step_is_never_healed_by_the_built_in_generator_before_a_rot_verdict() {
        let healed = heal_builtin_first(
            SENTENCE,
            OLD,
            [verdict_reply(Category::ProductDefect, "the field is gone")],
            [],
        );
        assert_eq!(
            healed.result.unwrap_err().kind,
            EngineFailureKind::ProductDefect
        );
        assert_eq!(healed.entry.unwrap().code, format!("{OLD}\n"), "untouched");
    }

    #[test]
    fn built_in_code_that_crashes_the_browser_ends_the_heal_as_infrastructure() {
        let healed = heal_builtin_first(
            SENTENCE,
            OLD,
            [verdict_reply(Category::Rot, "the field was renamed")],
            [fails(
                BUILTIN,
                FailureKind::Crash,
                "Browser has been closed",
            )],
        );
        let failure = healed.result.unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::BrowserCrash);
        assert_eq!(failure.candidate.as_deref(), Some(BUILTIN));
        assert_eq!(healed.received.len(), 1, "no LLM code is asked for");
        assert_eq!(healed.entry.unwrap().code, format!("{OLD}\n"), "untouched");
    }

    /// The evidence of a locator that finds nothing on a page that loaded.
    fn nothing_found() -> Observation {
        Observation {
            call: Some(ObservedCall {
                method: "fill".into(),
                kind: Some(Kind::Interacts),
                selector: Some("internal:role=textbox[name=\"New todo\"i]".into()),
                matches: Some(0),
                ..ObservedCall::default()
            }),
            value_check: None,
            page_text: Some("Todos".into()),
            loaded: true,
        }
    }

    /// The evidence of a counter that shows another number than the step expects.
    fn counter_off_by_one() -> Observation {
        Observation {
            call: Some(ObservedCall {
                method: "expect".into(),
                kind: Some(Kind::Reads),
                selector: Some("internal:testid=[data-testid=\"todo-count\"s]".into()),
                expression: Some("to.have.text".into()),
                expected_texts: vec!["1 item left".into()],
                matches: Some(1),
                received: Some("\"2 items left\"".into()),
                ..ObservedCall::default()
            }),
            value_check: None,
            page_text: Some("2 items left".into()),
            loaded: true,
        }
    }

    const COUNTER: &str = "async function step(page) {\n  await expect(page.getByTestId('todo-count')).toHaveText('1 item left');\n}";

    fn counter_failure() -> StepFailure {
        StepFailure::new(
            FailureKind::FailedCheck,
            "expect(locator).toHaveText(expected) failed\n\nExpected: \"1 item left\"\nReceived: \"2 items left\"",
        )
    }

    /// An engine with no LLM and the built-in generator first.
    fn offline<'a>(fixture: &'a Fixture) -> Engine<'a> {
        Engine::new(
            None,
            &fixture.llm,
            &fixture.cache,
            "",
            Budgets::new(BudgetSettings {
                generation: 3,
                healing: 2,
            }),
            fixture.policy,
        )
        .with_builtin(BuiltinOrder::First)
    }

    #[test]
    fn without_an_llm_a_rot_candidate_is_healed_by_the_built_in_generator() {
        let fixture = Fixture::new();
        let mut step = fixture.step(0);
        step.key.step = SENTENCE.to_owned();
        fixture
            .cache
            .put(&fixture.scenario, &step.key, OLD, "2026-11-30")
            .unwrap();
        let observer = RecordingObserver::default();
        let exec = ScriptedExecutor::new([passes(BUILTIN)]).observing(nothing_found());
        let written = offline(&fixture)
            .heal(&step, &exec, &observer, OLD, &old_failure())
            .unwrap();
        assert_eq!(
            (written.code.as_str(), written.by),
            (BUILTIN, Author::Builtin)
        );
        let entry = cached(&fixture, &step.key).unwrap();
        assert_eq!(entry.code, format!("{BUILTIN}\n"));
        assert_eq!(entry.by.as_deref(), Some("builtin"));
        assert!(entry.healed.is_some(), "the heal is dated");
        assert_eq!(
            observer.seen()[..2],
            [
                Observed::HealingStarted(Category::Rot),
                Observed::Verdict(Category::Rot)
            ]
        );
    }

    #[test]
    fn a_rot_candidate_the_built_in_generator_heals_costs_no_llm_request() {
        let fixture = Fixture::new();
        let mut step = fixture.step(0);
        step.key.step = SENTENCE.to_owned();
        let llm = ScriptedLlm::new([]);
        let exec = ScriptedExecutor::new([passes(BUILTIN)]).observing(nothing_found());
        let mut engine = fixture.engine(&llm, 3, 2).with_builtin(BuiltinOrder::First);
        let written = engine
            .heal(
                &step,
                &exec,
                &RecordingObserver::default(),
                OLD,
                &old_failure(),
            )
            .unwrap();
        assert_eq!(written.by, Author::Builtin);
        assert!(llm.received().is_empty(), "the LLM was not asked");
    }

    #[test]
    fn a_rot_candidate_the_built_in_generator_cannot_heal_reaches_the_llm_with_what_it_tried() {
        let fixture = Fixture::new();
        let mut step = fixture.step(0);
        step.key.step = SENTENCE.to_owned();
        let llm = ScriptedLlm::new([
            verdict_reply(Category::Rot, "the field was renamed"),
            code_reply(LLM),
        ]);
        let exec = ScriptedExecutor::new([
            fails(BUILTIN, FailureKind::Timeout, "locator.fill: Timeout"),
            passes(LLM),
        ])
        .observing(nothing_found());
        let mut engine = fixture.engine(&llm, 3, 2).with_builtin(BuiltinOrder::First);
        let written = engine
            .heal(
                &step,
                &exec,
                &RecordingObserver::default(),
                OLD,
                &old_failure(),
            )
            .unwrap();
        assert_eq!((written.code.as_str(), written.by), (LLM, Author::Llm));
        let received = llm.received();
        assert_eq!(received.len(), 2, "a verdict, then the code");
        // The built-in generator had its one turn on the evidence's rot, and the LLM's request
        // for the heal says what it tried, as a first generation's does.
        let request = received[1].generation();
        assert_eq!(
            request.builtin,
            Some(BuiltinTried::Failed(FailedAttempt {
                code: BUILTIN.to_owned(),
                error: "locator.fill: Timeout".to_owned(),
            }))
        );
        assert_eq!(request.failed.as_ref().map(|f| f.code.as_str()), Some(OLD));
    }

    #[test]
    fn without_an_llm_a_rot_candidate_the_built_in_generator_cannot_heal_names_explain() {
        let fixture = Fixture::new();
        let mut step = fixture.step(0);
        step.key.step = SENTENCE.to_owned();
        let exec = ScriptedExecutor::new([fails(
            BUILTIN,
            FailureKind::Timeout,
            "locator.fill: Timeout",
        )])
        .observing(nothing_found());
        let failure = offline(&fixture)
            .heal(
                &step,
                &exec,
                &RecordingObserver::default(),
                OLD,
                &old_failure(),
            )
            .unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert!(
            failure.summary.contains("finds nothing on the page")
                && failure.summary.contains("the code the built-in generator wrote for the sentence failed: locator.fill: Timeout")
                && failure.summary.contains("healing this step needs [llm]")
                && failure.summary.contains(&format!("prettyplay explain {}:{}", fixture.scenario.rel_path, step.line)),
            "{}",
            failure.summary
        );
        assert!(cached(&fixture, &step.key).is_none(), "nothing is written");
        let verdict = failure.verdict.expect("the evidence's verdict");
        assert_eq!(
            (verdict.category, verdict.source),
            (Category::Rot, VerdictSource::Evidence { llm: None })
        );
    }

    #[test]
    fn without_an_llm_an_undecided_failure_says_healing_needs_one() {
        let fixture = Fixture::new();
        let step = fixture.step(1);
        let failure = offline(&fixture)
            .heal(
                &step,
                &ScriptedExecutor::new([]),
                &RecordingObserver::default(),
                COUNTER,
                &StepFailure::new(FailureKind::Script, "TypeError: x is not a function"),
            )
            .unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::Incurable);
        assert_eq!(
            failure.summary,
            format!(
                "the cached code failed and the evidence does not tell a changed UI from a \
                 product defect; healing this step needs [llm] or a rewritten sentence (try \
                 `prettyplay explain {}:{}`)",
                fixture.scenario.rel_path, step.line
            )
        );
        let verdict = failure.verdict.expect("an evidence verdict");
        assert_eq!(verdict.category, Category::Incurable);
        assert_eq!(verdict.source, VerdictSource::Evidence { llm: None });
        assert!(verdict.recommendation.contains("configure [llm]"));
    }

    #[test]
    fn without_an_llm_a_near_miss_is_a_product_defect_from_evidence() {
        let fixture = Fixture::new();
        let step = fixture.step(1);
        let exec = ScriptedExecutor::new([]).observing(counter_off_by_one());
        let failure = offline(&fixture)
            .heal(
                &step,
                &exec,
                &RecordingObserver::default(),
                COUNTER,
                &counter_failure(),
            )
            .unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::ProductDefect);
        let verdict = failure.verdict.unwrap();
        assert_eq!(verdict.category, Category::ProductDefect);
        assert_eq!(verdict.source, VerdictSource::Evidence { llm: None });
        assert!(
            verdict.explanation.contains("\"2 items left\""),
            "{}",
            verdict.explanation
        );
    }

    #[test]
    fn an_llm_that_says_rot_cannot_overrule_a_defect_the_evidence_shows() {
        let fixture = Fixture::new();
        let step = fixture.step(1);
        let llm = ScriptedLlm::new([verdict_reply(Category::Rot, "the counter was restyled")]);
        let exec = ScriptedExecutor::new([]).observing(counter_off_by_one());
        let observer = RecordingObserver::default();
        let failure = fixture
            .engine(&llm, 3, 2)
            .with_builtin(BuiltinOrder::First)
            .heal(&step, &exec, &observer, COUNTER, &counter_failure())
            .unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::ProductDefect);
        let verdict = failure.verdict.unwrap();
        assert_eq!(
            verdict.source,
            VerdictSource::Evidence {
                llm: Some(Category::Rot)
            }
        );
        assert!(verdict.source.disagrees_with(verdict.category));
        assert_eq!(llm.received().len(), 1, "one classification, no code");
        llm.received()[0].classification();
        assert!(cached(&fixture, &step.key).is_none());
        assert!(
            !observer
                .seen()
                .contains(&Observed::HealingStarted(Category::Rot))
        );
    }
}
