//! The code one attempt of a test wrote to the cache, kept until the attempt's browser context
//! is closed, so that all of it can be taken back when `[browser] allowed_origins` blocked
//! anything in the test, however late: a timer that step code left in a page may fire during a
//! later step or at the test's end, long after the code that set it passed and was written.
//!
//! Main type: [`WrittenCode`]. The test's steps add to it as they write (`test_run.rs`); the
//! runner takes it back once the context is closed and nothing can be blocked any more
//! (`runner.rs`).

use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::cache::{Cache, CacheFile, StepKey};
use crate::scenario::Scenario;

/// See the module documentation.
#[derive(Default)]
pub(crate) struct WrittenCode {
    steps: Mutex<Vec<(StepKey, String)>>,
}

impl WrittenCode {
    /// Notes that the attempt wrote `code` as the code of `key`.
    pub(crate) fn push(&self, key: StepKey, code: String) {
        self.lock().push((key, code));
    }

    /// Takes back everything the attempt wrote to `cache`: each entry becomes what `cached`
    /// (the scenario's cache file when the run started) held, or goes. An entry that holds
    /// other code by now is left as it is. Returns how many entries changed.
    pub(crate) fn take_back(
        &self,
        cache: &Cache,
        scenario: &Scenario,
        cached: Option<&CacheFile>,
    ) -> usize {
        let steps = std::mem::take(&mut *self.lock());
        let mut undone = 0;
        for (key, code) in &steps {
            let previous = cached.and_then(|file| file.get(key));
            match cache.revert(scenario, key, code, previous) {
                Ok(true) => undone += 1,
                Ok(false) => {}
                Err(err) => tracing::warn!("could not take back the code of `{}`: {err}", key.step),
            }
        }
        undone
    }

    fn lock(&self) -> MutexGuard<'_, Vec<(StepKey, String)>> {
        // A panic while the lock was held leaves plain data behind, so the data is still used.
        self.steps.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn scenario() -> Scenario {
        let rel = "scenarios/a.steps";
        let parsed = crate::scenario::parse(rel, b"test: t\n  open the app\n  add a todo\n")
            .expect("parses");
        Scenario {
            path: PathBuf::from(format!("/project/{rel}")),
            rel_path: rel.to_owned(),
            background: parsed.background,
            tests: parsed.tests,
        }
    }

    #[test]
    fn every_entry_becomes_what_the_cache_held_before_or_goes() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let scenario = scenario();
        let test = &scenario.tests[0];
        let (open, add) = (
            StepKey::of(&scenario, test, &test.steps[0]),
            StepKey::of(&scenario, test, &test.steps[1]),
        );
        cache
            .put(&scenario, &open, "before()", "2026-01-01")
            .unwrap();
        let before = cache.load(&scenario.rel_path).unwrap().unwrap();
        let written = WrittenCode::default();
        cache
            .put(&scenario, &open, "healed()", "2026-02-02")
            .unwrap();
        written.push(open.clone(), "healed()".to_owned());
        cache.put(&scenario, &add, "fresh()", "2026-02-02").unwrap();
        written.push(add.clone(), "fresh()".to_owned());
        assert_eq!(written.take_back(&cache, &scenario, Some(&before)), 2);
        let after = cache.load(&scenario.rel_path).unwrap().unwrap();
        assert_eq!(
            after.get(&open).map(|e| e.code.as_str()),
            Some("before()\n")
        );
        assert!(after.get(&add).is_none());
        // Taken back once: nothing is left to take back.
        assert_eq!(written.take_back(&cache, &scenario, Some(&before)), 0);
    }
}
