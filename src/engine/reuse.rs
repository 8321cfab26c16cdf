//! Reuse: the proven code of a sentence serves every test that says it. A step without cached
//! code first tries the code another step of the suite proved for the same sentence, and cached
//! code that fails first tries the code another step healed, before the built-in generator or
//! an LLM is asked. Reused code is a candidate like any other: it must pass on this page and
//! pass the mutation proof, and a reused heal must pass the heal veto against this test's copy.
//!
//! Main type: [`Reuse`], one per run, shared by every test's engine. It knows the suite's
//! scenarios (where code is looked for, in the cache as it is on disk now) and holds one lock
//! per sentence, so that tests running in parallel generate or heal a sentence one at a time and
//! the second finds what the first stored. Trying an offer on the page is in `reused.rs`. The
//! rules are in `docs/engine.md` (Reuse).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::cache::{Cache, CachedStep, StepKey};
use crate::engine::checks::{Checks, Value};
use crate::engine::sentence::written_in;
use crate::scenario::{Scenario, Step};
use crate::writer::placeholders_of;

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

    /// The code other steps of the suite hold for the sentence of `wanted` (a step of `own`), in
    /// the order they are
    /// offered: the step's own file first, then the other files in path order, each file's
    /// entries in file order. Only an entry of a step that still exists, says the same sentence
    /// with the same placeholders, and carries no doc string or data table is offered.
    pub(super) fn offers(&self, cache: &Cache, own: &Scenario, wanted: &StepKey) -> Vec<Offer> {
        let Some(shape) = Shape::of_key(own, wanted) else {
            return Vec::new();
        };
        let mut others: Vec<&Scenario> = self
            .scenarios
            .iter()
            .filter(|s| s.rel_path != own.rel_path)
            .collect();
        others.sort_by(|a, b| a.rel_path.cmp(&b.rel_path));
        let mut offers = Vec::new();
        for scenario in std::iter::once(own).chain(others) {
            // A file that cannot be read offers nothing; the run reports it where it matters.
            let Ok(Some(file)) = cache.load(&scenario.rel_path) else {
                continue;
            };
            for entry in &file.steps {
                let key = entry.key(&scenario.rel_path);
                if key == *wanted || entry.step != wanted.step {
                    continue;
                }
                if Shape::of_key(scenario, &key).as_ref() == Some(&shape) {
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
