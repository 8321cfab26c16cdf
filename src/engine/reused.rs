//! Trying reused code: the engine's side of [`Reuse`](super::reuse::Reuse). An offer is run like
//! any candidate (compiled, executed inside the settle window, kept to the allowed origins, and
//! proven by the mutation proof); a reused heal must also pass the heal veto against this test's
//! copy. What failed leaves nothing behind but what its actions did to the page.
//!
//! Main functions: [`Engine::reuse_for_generation`] and [`Engine::reuse_for_heal`].

use crate::cache::{Author, ProofRecord};
use crate::engine::engine::{Engine, EngineObserver, StepContext, Written};
use crate::engine::generate::evident_failure;
use crate::engine::proof::Proven;
use crate::engine::reuse::{Offer, context_bound};
use crate::engine::{EngineCause, EngineFailure, EngineFailureKind};
use crate::llm::{Category, Classification, VerdictSource};
use crate::script::{FailureKind, StepFailure};
use crate::step::StepExecutor;

/// How a reused candidate went on this page.
enum Tried {
    /// It passed and its checks were proven; the proof to record.
    Passed(Proven),
    /// It failed in a way another candidate may do better: generation or healing goes on.
    Failed,
}

impl Engine<'_> {
    /// Tries the code another step proved for this sentence on this page, before anything is
    /// generated. `Ok(None)` when there is none to try or it failed here (then generation goes
    /// on as if it had not been tried); a crash, an unreachable or failing app, or a missing
    /// setting ends the step as it would end a generated candidate.
    pub(super) fn reuse_for_generation(
        &self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
    ) -> Result<Option<(String, Option<ProofRecord>)>, EngineFailure> {
        let Some(reuse) = self.reuse else {
            return Ok(None);
        };
        let offers = reuse.offers(self.cache, step.scenario, &step.key);
        let Some(offer) = offers
            .into_iter()
            .find(|offer| context_bound(&offer.code, &step.key.step).is_none())
        else {
            return Ok(None);
        };
        match self.try_reused(step, exec, observer, &offer)? {
            Tried::Passed(Proven::Record(proof)) => Ok(Some((offer.code, proof))),
            Tried::Passed(Proven::Vacuous(_)) | Tried::Failed => Ok(None),
            Tried::Passed(Proven::Broken(failure)) => Err(broken(failure, offer.code)),
        }
    }

    /// Tries the code another step healed for this sentence on this page, in place of this
    /// test's `old_code` that failed. `Ok(None)` when there is none or it did not pass here or
    /// the heal veto refused it (then healing goes on as if it had not been tried). It is
    /// written back like a heal, as rot the evidence shows: the same sentence's code was healed
    /// elsewhere, passes here, and checks everything this copy checked.
    pub(super) fn reuse_for_heal(
        &self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        old_code: &str,
        failure: &StepFailure,
    ) -> Result<Option<Written>, EngineFailure> {
        let Some(reuse) = self.reuse else {
            return Ok(None);
        };
        let mut offers: Vec<Offer> = reuse
            .offers(self.cache, step.scenario, &step.key)
            .into_iter()
            .filter(|offer| offer.healed.is_some() && offer.code.trim() != old_code.trim())
            .collect();
        // The most recent heal first; the sort is stable, so the offer order decides a tie.
        offers.sort_by(|a, b| b.healed.cmp(&a.healed));
        let Some(offer) = offers.into_iter().next() else {
            return Ok(None);
        };
        let proven = match self.try_reused(step, exec, observer, &offer)? {
            Tried::Passed(proven) => proven,
            Tried::Failed => return Ok(None),
        };
        let verdict = Classification {
            category: Category::Rot,
            explanation: format!(
                "the same sentence was healed in {}, and that code passes on this page and \
                 checks everything this test's code checked",
                offer.from
            ),
            recommendation: "review the healed code, which was reused from another test".to_owned(),
            source: VerdictSource::Evidence { llm: None },
        };
        let vetted = self.vet_healed(
            step,
            exec,
            observer,
            old_code,
            failure,
            &offer.code,
            proven,
            &verdict,
            Author::Reused,
        );
        match vetted {
            Ok(proof) => {
                observer.healing_started(Category::Rot);
                observer.verdict(&verdict);
                self.keep_heal(
                    step,
                    observer,
                    old_code,
                    offer.code,
                    &verdict,
                    Author::Reused,
                    proof,
                )
                .map(Some)
            }
            // The mutation proof could not finish: the page may not be as it was.
            Err(broken) if broken.kind == EngineFailureKind::Incurable => Err(broken),
            Err(vetoed) => {
                observer.warning(&format!(
                    "the code healed in {} was not reused: {}",
                    offer.from, vetoed.summary
                ));
                Ok(None)
            }
        }
    }

    /// Runs a reused `offer` like any candidate: compiled, executed inside the settle window,
    /// kept to the allowed origins, and (when it passed) proven. What a failed one was blocked
    /// from is forgiven, because the block is that candidate's failure, not the test's.
    fn try_reused(
        &self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        observer: &dyn EngineObserver,
        offer: &Offer,
    ) -> Result<Tried, EngineFailure> {
        let outcome = exec
            .check(&offer.code)
            .and_then(|()| exec.execute(&offer.code))
            .and_then(|()| exec.kept_to_origins());
        let failure = match outcome {
            Ok(()) => {
                observer.reuse_tried(&offer.from, None);
                return Ok(Tried::Passed(self.proof_of(step, exec, &offer.code)));
            }
            Err(failure) => failure,
        };
        observer.reuse_tried(&offer.from, Some(&failure.message));
        if failure.kind.speaks_for_itself() && failure.kind != FailureKind::Blocked {
            // The browser, the page or the app went away, or a setting is missing: no other
            // code can do better, so the step ends here as it would for a generated candidate.
            let evident = evident_failure(&failure, Some(offer.code.clone()));
            if let Some(verdict) = &evident.verdict {
                observer.verdict(verdict);
            }
            return Err(evident);
        }
        exec.forgive_blocked();
        Ok(Tried::Failed)
    }
}

/// The failure of a step whose reused code passed but whose mutation proof could not finish.
fn broken(failure: StepFailure, code: String) -> EngineFailure {
    EngineFailure::new(
        EngineFailureKind::Incurable,
        "the mutation proof of the reused code could not finish",
        None,
    )
    .with_cause(EngineCause::Step(failure))
    .with_candidate(code)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::cache::{CachedStep, StepKey};
    use crate::engine::reuse::Reuse;
    use crate::engine::testing::{
        Fixture, Observed, RecordingObserver, ScriptedExecutor, ScriptedLlm, code_reply, fails,
        passes, verdict_reply,
    };
    use crate::scenario::Scenario;

    /// Two tests with the same sentences, a test with an examples table and one whose
    /// `<item>` is no placeholder.
    const FILE: &str = "\
test: first
  open the app
  the counter says \"1 item left\"

test: second
  open the app
  the counter says \"1 item left\"

test: rows
  type <item>
  examples:
    | item |
    | milk |

test: literal
  type <item>
";

    const OPEN: &str = "async function step(page) {\n  await page.goto('/');\n}";
    const OTHER: &str = "async function step(page) {\n  await page.goto('/index.html');\n}";
    const CHECK: &str = "async function step(page) {\n  await expect(page.getByTestId('count')).toHaveText('1 item left');\n}";
    const HEALED: &str = "async function step(page) {\n  await expect(page.getByRole('status')).toHaveText('1 item left');\n}";

    fn from(test: &str, step: &str) -> String {
        format!("scenarios/todo.steps › {test:?} › {step:?} #1")
    }

    /// Stores `code` for step `index` of test `test` as an earlier run wrote it.
    fn store(fixture: &Fixture, test: usize, index: usize, code: &str, healed: bool) {
        fixture
            .cache
            .put_written(
                &fixture.scenario,
                &fixture.step_of(test, index).key,
                code,
                "2026-11-30",
                healed,
                Author::Llm,
                None,
            )
            .expect("the cache is writable");
    }

    fn cached(fixture: &Fixture, test: usize, index: usize) -> Option<CachedStep> {
        fixture
            .cache
            .load(&fixture.scenario.rel_path)
            .expect("a well-formed cache")
            .and_then(|file| file.get(&fixture.step_of(test, index).key).cloned())
    }

    #[test]
    fn reused_code_that_passes_is_cached_as_reused_and_no_llm_is_asked() {
        let fixture = Fixture::of(FILE);
        store(&fixture, 0, 0, OPEN, false);
        let scenarios = [fixture.scenario.clone()];
        let reuse = Reuse::new(&scenarios);
        // Strict: any LLM request panics.
        let llm = ScriptedLlm::new([]);
        let exec = ScriptedExecutor::new([passes(OPEN)]);
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 3, 2).with_reuse(&reuse);

        let written = engine
            .generate(&fixture.step_of(1, 0), &exec, &observer)
            .unwrap();

        assert_eq!((written.code.trim(), written.by), (OPEN, Author::Reused));
        let entry = cached(&fixture, 1, 0).expect("stored for the second test");
        assert_eq!(
            (entry.code.trim(), entry.by.as_deref()),
            (OPEN, Some("reused"))
        );
        assert_eq!(entry.healed, None);
        assert_eq!(
            observer.seen(),
            [Observed::ReuseTried {
                from: from("first", "open the app"),
                failure: None
            }]
        );
    }

    #[test]
    fn a_reused_check_is_proven_on_this_page_and_records_its_proof() {
        let fixture = Fixture::of(FILE);
        store(&fixture, 0, 1, CHECK, false);
        let scenarios = [fixture.scenario.clone()];
        let reuse = Reuse::new(&scenarios);
        let llm = ScriptedLlm::new([]);
        let exec = ScriptedExecutor::new([passes(CHECK)]);
        let mut engine = fixture.engine(&llm, 3, 2).with_reuse(&reuse);

        let written = engine
            .generate(&fixture.step_of(1, 1), &exec, &RecordingObserver::default())
            .unwrap();

        assert_eq!(written.by, Author::Reused);
        assert_eq!(
            written.proof.as_ref().map(ToString::to_string).as_deref(),
            Some("proven: hidden, text-changed, case-changed")
        );
        assert_eq!(
            cached(&fixture, 1, 1)
                .unwrap()
                .proof
                .as_ref()
                .map(ToString::to_string)
                .as_deref(),
            Some("proven: hidden, text-changed, case-changed")
        );
    }

    #[test]
    fn reused_code_that_fails_here_falls_back_to_generation_as_if_never_tried() {
        let fixture = Fixture::of(FILE);
        store(&fixture, 0, 0, OPEN, false);
        let scenarios = [fixture.scenario.clone()];
        let reuse = Reuse::new(&scenarios);
        let llm = ScriptedLlm::new([code_reply(OTHER)]);
        let exec = ScriptedExecutor::new([
            fails(
                OPEN,
                FailureKind::Timeout,
                "page.goto: Timeout 5000ms exceeded.",
            ),
            passes(OTHER),
        ]);
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 3, 2).with_reuse(&reuse);

        let written = engine
            .generate(&fixture.step_of(1, 0), &exec, &observer)
            .unwrap();

        assert_eq!((written.code.as_str(), written.by), (OTHER, Author::Llm));
        assert_eq!(cached(&fixture, 1, 0).unwrap().by.as_deref(), Some("llm"));
        // The request is the one a run without reuse sends: no failed attempt to improve on.
        assert_eq!(llm.received()[0].generation().failed, None);
        assert_eq!(
            observer.seen()[0],
            Observed::ReuseTried {
                from: from("first", "open the app"),
                failure: Some("page.goto: Timeout 5000ms exceeded.".to_owned())
            }
        );
        assert_eq!(
            cached(&fixture, 0, 0).unwrap().code.trim(),
            OPEN,
            "untouched"
        );
    }

    #[test]
    fn reused_code_that_takes_the_app_down_ends_the_step_without_generating() {
        let fixture = Fixture::of(FILE);
        store(&fixture, 0, 0, OPEN, false);
        let scenarios = [fixture.scenario.clone()];
        let reuse = Reuse::new(&scenarios);
        let llm = ScriptedLlm::new([]);
        let exec = ScriptedExecutor::new([fails(OPEN, FailureKind::Unreachable, "refused")]);
        let mut engine = fixture.engine(&llm, 3, 2).with_reuse(&reuse);

        let failure = engine
            .generate(&fixture.step_of(1, 0), &exec, &RecordingObserver::default())
            .unwrap_err();

        assert_eq!(failure.kind, EngineFailureKind::AppUnreachable);
        assert_eq!(cached(&fixture, 1, 0), None);
    }

    #[test]
    fn different_placeholders_are_never_reused() {
        let fixture = Fixture::of(FILE);
        let reads = "async function step(page) {\n  await page.keyboard.type(vars.item);\n}";
        let literal = "async function step(page) {\n  await page.keyboard.type('<item>');\n}";
        store(&fixture, 2, 0, reads, false);
        let scenarios = [fixture.scenario.clone()];
        let reuse = Reuse::new(&scenarios);
        let llm = ScriptedLlm::new([code_reply(literal)]);
        let exec = ScriptedExecutor::new([passes(literal)]);
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 3, 2).with_reuse(&reuse);

        let written = engine
            .generate(&fixture.step_of(3, 0), &exec, &observer)
            .unwrap();

        assert_eq!(written.by, Author::Llm);
        assert!(
            !observer
                .seen()
                .iter()
                .any(|o| matches!(o, Observed::ReuseTried { .. })),
            "nothing tried: {:?}",
            observer.seen()
        );
        // The other way round too: the literal sentence's code is no code for the placeholder.
        let step = fixture.step_of(2, 0);
        let offers = reuse.offers(&fixture.cache, step.scenario, &step.key);
        assert!(offers.is_empty(), "{offers:?}");
    }

    #[test]
    fn a_check_that_expects_what_the_sentence_does_not_write_is_not_reused() {
        let fixture = Fixture::of(FILE);
        let bound = "async function step(page) {\n  await expect(page.getByTestId('count')).toHaveText('2 items left');\n}";
        store(&fixture, 0, 1, bound, false);
        let scenarios = [fixture.scenario.clone()];
        let reuse = Reuse::new(&scenarios);
        let llm = ScriptedLlm::new([code_reply(CHECK)]);
        let exec = ScriptedExecutor::new([passes(CHECK)]);
        let mut engine = fixture.engine(&llm, 3, 2).with_reuse(&reuse);

        let written = engine
            .generate(&fixture.step_of(1, 1), &exec, &RecordingObserver::default())
            .unwrap();

        assert_eq!(written.by, Author::Llm);
        assert_eq!(
            context_bound(bound, "the counter says \"1 item left\"").as_deref(),
            Some("its check expects \"2 items left\", which the sentence does not write")
        );
        assert_eq!(
            context_bound(CHECK, "the counter says \"1 item left\""),
            None
        );
        let by_hand = "async function step(page) {\n  if (1) throw new Error('x');\n}";
        assert!(context_bound(by_hand, "anything").is_some());
    }

    #[test]
    fn the_own_file_comes_first_then_the_others_in_path_order() {
        let fixture = Fixture::of(FILE);
        let other = |rel: &str| {
            let parsed =
                crate::scenario::parse(rel, b"test: elsewhere\n  open the app\n").expect("parses");
            Scenario {
                path: fixture.scenario.path.with_file_name(rel),
                rel_path: rel.to_owned(),
                background: parsed.background,
                tests: parsed.tests,
            }
        };
        let (a, z) = (other("scenarios/a.steps"), other("scenarios/z.steps"));
        for scenario in [&z, &a] {
            let key = StepKey::of(scenario, &scenario.tests[0], &scenario.tests[0].steps[0]);
            fixture
                .cache
                .put(scenario, &key, OTHER, "2026-11-30")
                .unwrap();
        }
        let scenarios = [z.clone(), fixture.scenario.clone(), a.clone()];
        let reuse = Reuse::new(&scenarios);
        let step = fixture.step_of(1, 0);

        let froms = |reuse: &Reuse<'_>| -> Vec<String> {
            reuse
                .offers(&fixture.cache, step.scenario, &step.key)
                .into_iter()
                .map(|o| o.from)
                .collect()
        };
        assert_eq!(
            froms(&reuse),
            [
                "scenarios/a.steps › \"elsewhere\" › \"open the app\" #1",
                "scenarios/z.steps › \"elsewhere\" › \"open the app\" #1"
            ]
        );
        store(&fixture, 0, 0, OPEN, false);
        assert_eq!(froms(&reuse)[0], from("first", "open the app"));
        assert_eq!(froms(&reuse).len(), 3);
    }

    #[test]
    fn code_healed_in_another_test_heals_this_one_without_an_llm() {
        let fixture = Fixture::of(FILE);
        store(&fixture, 0, 1, HEALED, true);
        store(&fixture, 1, 1, CHECK, false);
        let scenarios = [fixture.scenario.clone()];
        let reuse = Reuse::new(&scenarios);
        let llm = ScriptedLlm::new([]);
        let exec = ScriptedExecutor::new([passes(HEALED)]);
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 3, 2).with_reuse(&reuse);
        let failure = StepFailure::new(
            FailureKind::Timeout,
            "expect(locator).toHaveText: Timeout 5000ms exceeded. waiting for getByTestId('count')",
        );

        let written = engine
            .heal(&fixture.step_of(1, 1), &exec, &observer, CHECK, &failure)
            .unwrap();

        assert_eq!((written.code.trim(), written.by), (HEALED, Author::Reused));
        let entry = cached(&fixture, 1, 1).unwrap();
        assert_eq!(entry.code.trim(), HEALED);
        assert_eq!(entry.by.as_deref(), Some("reused"));
        assert!(entry.healed.is_some(), "written back as a heal");
        let seen = observer.seen();
        assert_eq!(
            seen[0],
            Observed::ReuseTried {
                from: from("first", "the counter says \"1 item left\""),
                failure: None
            }
        );
        assert_eq!(
            seen[1..],
            [
                Observed::HealingStarted(Category::Rot),
                Observed::Verdict(Category::Rot),
                Observed::Healed {
                    old_code: CHECK.to_owned(),
                    new_code: written.code.clone()
                }
            ]
        );
    }

    #[test]
    fn with_the_evidence_undecided_and_no_llm_another_tests_heal_is_not_a_verdict() {
        let fixture = Fixture::of(FILE);
        store(&fixture, 0, 1, HEALED, true);
        store(&fixture, 1, 1, CHECK, false);
        let scenarios = [fixture.scenario.clone()];
        let reuse = Reuse::new(&scenarios);
        // Nothing may be executed: the offer is never tried.
        let exec = ScriptedExecutor::new([]);
        let observer = RecordingObserver::default();
        let mut engine = crate::engine::Engine::new(
            None,
            &fixture.llm,
            &fixture.cache,
            "",
            crate::engine::Budgets::new(crate::config::BudgetSettings {
                generation: 3,
                healing: 2,
            }),
            fixture.policy,
        )
        .with_reuse(&reuse);
        let failure = StepFailure::new(
            FailureKind::Timeout,
            "expect(locator).toHaveText: Timeout 5000ms exceeded. waiting for getByTestId('count')",
        );

        let decided = engine
            .heal(&fixture.step_of(1, 1), &exec, &observer, CHECK, &failure)
            .unwrap_err();

        assert_eq!(decided.kind, EngineFailureKind::Incurable);
        assert!(
            !observer
                .seen()
                .iter()
                .any(|o| matches!(o, Observed::ReuseTried { .. } | Observed::Healed { .. })),
            "{:?}",
            observer.seen()
        );
        assert_eq!(cached(&fixture, 1, 1).unwrap().code.trim(), CHECK);
    }

    #[test]
    fn a_shared_heal_the_veto_refuses_leaves_healing_to_the_llm() {
        let fixture = Fixture::of(FILE);
        // The healed code of the first test checks nothing: it may not replace a check.
        store(&fixture, 0, 1, OPEN, true);
        store(&fixture, 1, 1, CHECK, false);
        let scenarios = [fixture.scenario.clone()];
        let reuse = Reuse::new(&scenarios);
        let llm = ScriptedLlm::new([
            verdict_reply(Category::Rot, "the counter moved"),
            code_reply(HEALED),
        ]);
        let exec = ScriptedExecutor::new([passes(OPEN), passes(HEALED)]);
        let observer = RecordingObserver::default();
        let mut engine = fixture.engine(&llm, 3, 2).with_reuse(&reuse);
        let failure = StepFailure::new(FailureKind::Timeout, "locator timeout");

        let written = engine
            .heal(&fixture.step_of(1, 1), &exec, &observer, CHECK, &failure)
            .unwrap();

        assert_eq!(written.by, Author::Llm);
        assert!(
            observer.warnings()[0].starts_with("the code healed in scenarios/todo.steps"),
            "{:?}",
            observer.warnings()
        );
    }

    #[test]
    fn a_product_defect_is_never_healed_from_another_tests_code() {
        let fixture = Fixture::of(FILE);
        store(&fixture, 0, 1, HEALED, true);
        store(&fixture, 1, 1, CHECK, false);
        let scenarios = [fixture.scenario.clone()];
        let reuse = Reuse::new(&scenarios);
        // The evidence decides; the LLM is only heard. Nothing is executed.
        let llm = ScriptedLlm::new([verdict_reply(Category::ProductDefect, "off by one")]);
        let exec = ScriptedExecutor::new([]).observing(crate::script::Observation {
            value_check: Some(crate::script::ValueCheck {
                expected: "1 item left".into(),
                received: "2 items left".into(),
            }),
            ..crate::script::Observation::default()
        });
        let mut engine = fixture.engine(&llm, 3, 2).with_reuse(&reuse);
        let failure = StepFailure::new(
            FailureKind::FailedCheck,
            "expect(received).toBe(expected)\n\nExpected: \"1 item left\"\nReceived: \"2 items left\"",
        );

        let decided = engine
            .heal(
                &fixture.step_of(1, 1),
                &exec,
                &RecordingObserver::default(),
                CHECK,
                &failure,
            )
            .unwrap_err();

        assert_eq!(decided.kind, EngineFailureKind::ProductDefect);
        assert_eq!(cached(&fixture, 1, 1).unwrap().code.trim(), CHECK);

        // A failure that speaks for itself is not healed at all, from anywhere.
        let llm = ScriptedLlm::new([]);
        let mut engine = fixture.engine(&llm, 3, 2).with_reuse(&reuse);
        let app_error = StepFailure::new(FailureKind::AppError, "HTTP 500");
        let decided = engine
            .heal(
                &fixture.step_of(1, 1),
                &exec,
                &RecordingObserver::default(),
                CHECK,
                &app_error,
            )
            .unwrap_err();
        assert_eq!(decided.kind, EngineFailureKind::ProductDefect);
        assert_eq!(cached(&fixture, 1, 1).unwrap().code.trim(), CHECK);
    }

    #[test]
    fn one_lock_per_sentence() {
        let reuse = Reuse::new(&[]);
        assert!(Arc::ptr_eq(&reuse.turn("a"), &reuse.turn("a")));
        assert!(!Arc::ptr_eq(&reuse.turn("a"), &reuse.turn("b")));
    }
}
