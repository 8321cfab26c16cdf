//! Which steps of the selected tests have cached code, found from the cache files alone, without
//! a browser. `list` marks each step with it, `list --check` checks only the steps without code,
//! and `replay --strict` refuses to start while a step lacks code, so that it names every such
//! step at once instead of failing the tests one by one.
//!
//! Main type: [`CachedSteps`]; [`check_all_cached`] is the check of `replay --strict`.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use crate::cache::{Cache, CacheFile, StepKey};
use crate::error::Error;
use crate::runner::{TestRef, test_steps};
use crate::scenario::Scenario;

/// The cache files of a run's scenarios, each read the first time a step of it is asked about.
pub(crate) struct CachedSteps {
    cache: Cache,
    /// By index into the run's scenarios; `None` for a scenario that has no cache file.
    files: HashMap<usize, Option<CacheFile>>,
}

impl CachedSteps {
    pub(crate) fn new(cache: Cache) -> Self {
        Self {
            cache,
            files: HashMap::new(),
        }
    }

    /// Whether `key`, a step of `scenarios[scenario]`, has cached code. A malformed cache file is
    /// an error, as it is when a run loads it.
    pub(crate) fn has(
        &mut self,
        scenarios: &[Scenario],
        scenario: usize,
        key: &StepKey,
    ) -> Result<bool, Error> {
        let file = match self.files.entry(scenario) {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => entry.insert(self.cache.load(&scenarios[scenario].rel_path)?),
        };
        Ok(file.as_ref().is_some_and(|file| file.get(key).is_some()))
    }
}

/// A step that strict replay would reach without cached code.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct MissingStep {
    /// The scenario file, relative to the project root.
    pub file: String,
    pub line: usize,
    /// The sentence as written.
    pub sentence: String,
}

impl std::fmt::Display for MissingStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: {}: no cached code",
            self.file, self.line, self.sentence
        )
    }
}

/// The steps of the `selected` tests that have no cached code, in file and line order. The
/// selection already holds the setup tests its tests need, and each test's steps start with its
/// file's background. A step counts once however many tests run it (a background step, the
/// steps of an examples table) and however many browser projects do, because the projects share
/// one cache.
pub(crate) fn missing_steps(
    cached: &mut CachedSteps,
    scenarios: &[Scenario],
    selected: &[TestRef],
) -> Result<Vec<MissingStep>, Error> {
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    let mut missing = Vec::new();
    for at in selected {
        let (scenario, test) = at.of(scenarios);
        for (step, key) in test_steps(scenario, test) {
            if seen.insert((at.scenario, step.line)) && !cached.has(scenarios, at.scenario, &key)? {
                missing.push(MissingStep {
                    file: scenario.rel_path.clone(),
                    line: step.line,
                    sentence: key.step,
                });
            }
        }
    }
    missing.sort();
    Ok(missing)
}

/// Fails with every step of the `selected` tests that has no cached code, so that
/// `replay --strict` says them all before it starts a browser or a web server.
pub(crate) fn check_all_cached(
    cache: Cache,
    scenarios: &[Scenario],
    selected: &[TestRef],
) -> Result<(), Error> {
    let missing = missing_steps(&mut CachedSteps::new(cache), scenarios, selected)?;
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Error::NotCached(
            missing.iter().map(ToString::to_string).collect(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::TestRef;

    fn load(dir: &std::path::Path, text: &str) -> Vec<Scenario> {
        std::fs::create_dir_all(dir.join("scenarios")).unwrap();
        std::fs::write(dir.join("scenarios/a.steps"), text).unwrap();
        crate::scenario::load(dir, &[dir.join("scenarios")]).unwrap()
    }

    fn cache_entry(test: &str, step: &str) -> String {
        format!(
            "[[steps]]\ntest = {test:?}\nstep = {step:?}\noccurrence = 1\n\
             created = \"2026-01-01\"\ncode = \"async function step(page) {{}}\"\n\n"
        )
    }

    #[test]
    fn every_uncached_step_counts_once_whatever_shares_it() {
        let dir = tempfile::tempdir().unwrap();
        let scenarios = load(
            dir.path(),
            "background:\n  open the app\n\ntest: one\n  add a todo\n  the list has 1 item\n\n\
             test: two\n  add a todo\n",
        );
        let cache = format!(
            "format = 3\nscenario = \"scenarios/a.steps\"\n\n{}{}",
            cache_entry("one", "add a todo"),
            cache_entry("two", "add a todo")
        );
        std::fs::create_dir_all(dir.path().join("cache/scenarios")).unwrap();
        std::fs::write(dir.path().join("cache/scenarios/a.steps.toml"), cache).unwrap();
        // Both tests in two browser projects: the background is said once, and so is the
        // second step of `one`.
        let selected: Vec<TestRef> = (0..2)
            .flat_map(|project| (0..2).map(move |test| TestRef::new(0, test).in_project(project)))
            .collect();
        let cache = Cache::new(dir.path().join("cache"));
        let missing = missing_steps(&mut CachedSteps::new(cache), &scenarios, &selected).unwrap();
        let shown: Vec<String> = missing.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "scenarios/a.steps:2: open the app: no cached code",
                "scenarios/a.steps:6: the list has 1 item: no cached code",
            ]
        );
    }
}
