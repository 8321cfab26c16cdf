//! Steps that several tests of one run share: the `background:` steps of a file (every test of
//! the file runs them) and the steps of a test with an `examples:` table (every row runs them).
//! Each has one cache entry, so it is generated once and healed once per run, however many
//! tests and workers reach it.
//!
//! Main type: [`SharedSteps`], one [`Slot`] per shared key, each behind a lock of its own. The
//! tests of a run load the cache once, at its start; a slot holds what the engine decided for its
//! key since then: the code it proved (generated or healed, and stored), or the failure it ended
//! in. A test that needs the engine for a shared step takes the slot's lock first and, when
//! another test decided already, uses that decision instead of asking the LLM again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::cache::StepKey;
use crate::runner::TestFailure;

/// What the engine decided for one shared step in this run.
#[derive(Debug, Clone, Default)]
pub(crate) enum Slot {
    /// Nothing yet: the cache's code (if any) is all there is.
    #[default]
    Undecided,
    /// Code the engine generated or healed in this run (and stored).
    Proven(String),
    /// The engine failed the step (generation or healing gave up, or a verdict): every other
    /// test that reaches it fails the same way, without asking the LLM again.
    Failed(Box<TestFailure>),
}

/// The shared steps of a run, by key.
#[derive(Debug, Default)]
pub(crate) struct SharedSteps {
    slots: Mutex<HashMap<StepKey, Arc<Mutex<Slot>>>>,
}

impl SharedSteps {
    /// The slot of `key`, created undecided on first use.
    pub(crate) fn slot(&self, key: &StepKey) -> Arc<Mutex<Slot>> {
        let mut slots = lock(&self.slots);
        Arc::clone(slots.entry(key.clone()).or_default())
    }
}

/// Locks `mutex`, also when a test panicked while holding it: a slot is always whole (it is only
/// ever replaced by one assignment), so its value stays good.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(step: &str) -> StepKey {
        StepKey {
            scenario: "a.steps".into(),
            test: None,
            step: step.into(),
            occurrence: 1,
        }
    }

    #[test]
    fn one_slot_per_key_shared_by_every_caller() {
        let shared = SharedSteps::default();
        let a = shared.slot(&key("open"));
        *lock(&a) = Slot::Proven("code".into());
        assert!(matches!(&*lock(&shared.slot(&key("open"))), Slot::Proven(c) if c == "code"));
        assert!(matches!(
            &*lock(&shared.slot(&key("other"))),
            Slot::Undecided
        ));
    }
}
