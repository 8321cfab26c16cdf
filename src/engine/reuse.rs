//! Reuse: the proven code of a sentence serves every test that says it. A step without cached
//! code first tries the code another step of the suite proved for the same sentence, and cached
//! code that fails first tries the code another step healed, before the built-in generator or
//! an LLM is asked. Reused code is a candidate like any other: it must pass on this page and
//! pass the mutation proof, and a reused heal must pass the heal veto against this test's copy.
//!
//! Main type: [`Reuse`], one per run, shared by every test's engine. It knows the suite's
//! scenarios (where code is looked for, in the cache as it is on disk now) and holds one lock
//! per sentence, so that tests running in parallel generate or heal a sentence one at a time and
//! the second finds what the first stored. The rules are in `docs/engine.md` (Reuse).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::cache::{Author, Cache, CachedStep, StepKey};
use crate::engine::checks::{Checks, Value};
use crate::engine::engine::{Engine, EngineObserver, StepContext, Written};
use crate::engine::generate::evident_failure;
use crate::engine::proof::Proven;
use crate::engine::requests::placeholders_of;
use crate::engine::sentence::written_in;
use crate::engine::{EngineCause, EngineFailure, EngineFailureKind};
use crate::llm::{Category, Classification, VerdictSource};
use crate::scenario::{Scenario, Step};
use crate::script::{FailureKind, StepFailure};
use crate::step::StepExecutor;

/// The suite's proven code, offered across tests, and the per-sentence locks of one run.
pub(crate) struct Reuse<'a> {
    /// Every scenario of the suite, in path order: where code for a sentence is looked for after
    /// the step's own file.
    scenarios: &'a [Scenario],
    /// One lock per sentence, created on first use.
    turns: Mutex<HashMap<String, Arc<Mutex<()>>>>,
}

/// Code another step of the suite holds for the same sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Offer {
    /// The step whose cache entry holds it.
    pub from: String,
    pub code: String,
    /// When that entry was last healed, if ever.
    pub healed: Option<String>,
}

impl<'a> Reuse<'a> {
    /// Reuse over the suite's `scenarios` (in any order: offers sort them by path).
    pub(crate) fn new(scenarios: &'a [Scenario]) -> Self {
        Self {
            scenarios,
            turns: Mutex::new(HashMap::new()),
        }
    }

    /// The lock of `sentence`: whoever generates or heals it holds it, so that another test
    /// that needs the same sentence waits and then finds the stored code instead of asking an
    /// LLM again.
    pub(super) fn turn(&self, sentence: &str) -> Arc<Mutex<()>> {
        let mut turns = lock(&self.turns);
        Arc::clone(turns.entry(sentence.to_owned()).or_default())
    }

    /// The code other steps of the suite hold for the sentence of `step`, in the order they are
    /// offered: the step's own file first, then the other files in path order, each file's
    /// entries in file order. Only an entry of a step that still exists, says the same sentence
    /// with the same placeholders, and carries no doc string or data table is offered.
    pub(super) fn offers(&self, cache: &Cache, step: &StepContext<'_>) -> Vec<Offer> {
        let Some(wanted) = Shape::of_key(step.scenario, &step.key) else {
            return Vec::new();
        };
        let mut others: Vec<&Scenario> = self
            .scenarios
            .iter()
            .filter(|s| s.rel_path != step.scenario.rel_path)
            .collect();
        others.sort_by(|a, b| a.rel_path.cmp(&b.rel_path));
        let mut offers = Vec::new();
        for scenario in std::iter::once(step.scenario).chain(others) {
            // A file that cannot be read offers nothing; the run reports it where it matters.
            let Ok(Some(file)) = cache.load(&scenario.rel_path) else {
                continue;
            };
            for entry in &file.steps {
                let key = entry.key(&scenario.rel_path);
                if key == step.key || entry.step != step.key.step {
                    continue;
                }
                if Shape::of_key(scenario, &key).as_ref() == Some(&wanted) {
                    offers.push(offer(scenario, &key, entry));
                }
            }
        }
        offers
    }
}

/// What makes two steps' code interchangeable: the same sentence with the same placeholders
/// (the `${NAME}`s, and the `<column>`s that are columns of the test's examples table, which
/// the code reads as `vars.NAME`). A step with a doc string or a data table has no shape: its
/// code may have the argument's values written into it.
#[derive(Debug, PartialEq, Eq)]
struct Shape {
    sentence: String,
    placeholders: Vec<String>,
}

impl Shape {
    /// The shape of the step `key` names in `scenario`; `None` when the scenario no longer has
    /// it (a stale entry) or it carries an argument.
    fn of_key(scenario: &Scenario, key: &StepKey) -> Option<Shape> {
        let said = |steps: &[Step]| {
            steps
                .iter()
                .find(|s| s.sentence == key.step && s.occurrence == key.occurrence)
                .is_some_and(|s| s.argument.is_none())
        };
        let columns: &[String] = match &key.test {
            None => {
                if !said(&scenario.background) {
                    return None;
                }
                &[]
            }
            Some(name) => {
                let test = scenario
                    .tests
                    .iter()
                    .find(|t| t.identity() == name && said(&t.steps))?;
                test.columns()
            }
        };
        Some(Shape {
            sentence: key.step.clone(),
            placeholders: placeholders_of(&key.step, columns),
        })
    }
}

fn offer(scenario: &Scenario, key: &StepKey, entry: &CachedStep) -> Offer {
    Offer {
        from: format!("{} › {key}", scenario.rel_path),
        code: entry.code.clone(),
        healed: entry.healed.clone(),
    }
}

/// Why reused code may not serve a new step when its checks expect something the sentence does
/// not write: such a value came from the other test's page or earlier steps, and it could pass
/// here on a page that is wrong for this test. Hand-written checks (`throw`) and code that runs
/// scripts in the page hide what they expect, so they are not reused either.
pub(super) fn context_bound(code: &str, sentence: &str) -> Option<String> {
    let checks = match Checks::of(code) {
        Ok(checks) => checks,
        Err(error) => return Some(format!("its code cannot be read: {error}")),
    };
    if checks.throws > 0 || checks.page_scripts > 0 || checks.patches > 0 {
        return Some("it checks by hand or runs scripts in the page".to_owned());
    }
    let free = |value: &Value| written_in(value, sentence) || reads_a_variable(value);
    for assertion in &checks.assertions {
        let values = assertion
            .expected
            .iter()
            .chain(assertion.locator_texts.iter().map(|text| &text.value));
        for value in values {
            if !free(value) {
                return Some(format!(
                    "its check expects {}, which the sentence does not write",
                    value.shown()
                ));
            }
        }
    }
    None
}

/// Whether `value` is a placeholder's value (`vars.NAME`), which the sentence names.
fn reads_a_variable(value: &Value) -> bool {
    matches!(value, Value::Expression(text) if text.starts_with("vars."))
}

/// Locks `mutex`, also when a test panicked while holding it: the lock guards no data.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

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
    ) -> Result<Option<(String, Option<String>)>, EngineFailure> {
        let Some(reuse) = self.reuse else {
            return Ok(None);
        };
        let offers = reuse.offers(self.cache, step);
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
            .offers(self.cache, step)
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
            recommendation: "review the healed code, which was reused from another test"
                .to_owned(),
            source: VerdictSource::Evidence { llm: None },
        };
        let vetted = self.vet_healed(
            step,
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
    use super::*;
    use crate::engine::testing::{
        Fixture, Observed, RecordingObserver, ScriptedExecutor, ScriptedLlm, code_reply, fails,
        passes, verdict_reply,
    };

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
        assert_eq!((entry.code.trim(), entry.by.as_deref()), (OPEN, Some("reused")));
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
        assert_eq!(written.proof.as_deref(), Some("proven: hidden"));
        assert_eq!(
            cached(&fixture, 1, 1).unwrap().proof.as_deref(),
            Some("proven: hidden")
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
            fails(OPEN, FailureKind::Timeout, "page.goto: Timeout 5000ms exceeded."),
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
        assert_eq!(cached(&fixture, 0, 0).unwrap().code.trim(), OPEN, "untouched");
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
        let offers = reuse.offers(&fixture.cache, &step);
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
            let parsed = crate::scenario::parse(rel, b"test: elsewhere\n  open the app\n")
                .expect("parses");
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
                .offers(&fixture.cache, &step)
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
        let exec = ScriptedExecutor::new([]);
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
