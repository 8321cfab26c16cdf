//! The record of the previous runs: the failures, for `--last-failed`, and how long each test
//! took, for the progress bar's ETA. It is `.prettyplay/last-run.json` under the project root (a
//! sibling of the cache, not in it; safe to ignore in git).
//!
//! Main type: [`LastRun`].

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::runner::{FailureCause, OriginOutcome, OriginSeen, TestId, TestOutcome};
use crate::scenario::Scenario;

/// Failed tests of a run, by scenario path and test name, and the durations of the tests that
/// ran lately.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LastRun {
    pub version: u32,
    pub failed: Vec<FailedTest>,
    /// How long each test took the last time it passed or failed. A record written before
    /// durations were recorded has none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub durations: Vec<TestDuration>,
    /// The origins outside `[browser] allowed_origins` that the run's tests reached for, by
    /// origin and outcome (`prettyplay origins` lists them). Only the last run's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub origins: Vec<OriginRecord>,
}

/// An origin outside `[browser] allowed_origins` that a run's tests reached for, and what
/// became of their requests there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct OriginRecord {
    pub origin: String,
    pub outcome: OriginOutcome,
    pub kinds: Vec<String>,
    pub requests: u32,
    /// How many test attempts reached for it.
    pub tests: u32,
    /// The first URL of them, masked.
    pub url: String,
}

impl LastRun {
    /// Adds what one test attempt reached for to the run's record.
    pub(crate) fn note_origins(&mut self, seen: &[OriginSeen]) {
        for one in seen {
            let found = self
                .origins
                .iter_mut()
                .find(|r| r.origin == one.origin && r.outcome == one.outcome);
            match found {
                Some(record) => {
                    record.requests += one.requests;
                    record.tests += 1;
                    for kind in &one.kinds {
                        if !record.kinds.contains(kind) {
                            record.kinds.push(kind.clone());
                        }
                    }
                }
                None => self.origins.push(OriginRecord {
                    origin: one.origin.clone(),
                    outcome: one.outcome,
                    kinds: one.kinds.clone(),
                    requests: one.requests,
                    tests: 1,
                    url: one.url.clone(),
                }),
            }
        }
        self.origins
            .sort_by(|a, b| (&a.origin, a.outcome.as_str()).cmp(&(&b.origin, b.outcome.as_str())));
    }
}

/// How long a test took, every retry included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TestDuration {
    pub scenario: String,
    pub test: String,
    /// The browser project it ran in; absent in a run of the default Chromium alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    pub ms: u64,
}

impl TestDuration {
    pub(crate) fn new(test: &TestId, duration: Duration) -> Self {
        Self {
            scenario: test.scenario.clone(),
            test: test.name.clone(),
            project: test.project.clone(),
            ms: u64::try_from(duration.as_millis()).unwrap_or(u64::MAX),
        }
    }

    /// The duration to record of a test that finished as `outcome` after `duration`: none for a
    /// test that was interrupted, or that did not run because its setup failed, since neither
    /// says how long the test takes.
    pub(crate) fn of_finished(
        test: &TestId,
        outcome: &TestOutcome,
        duration: Duration,
    ) -> Option<Self> {
        match outcome {
            TestOutcome::Interrupted(_) => None,
            TestOutcome::Failed(failure)
                if matches!(failure.cause, FailureCause::SetupFailed(_)) =>
            {
                None
            }
            TestOutcome::Passed | TestOutcome::Flaky { .. } | TestOutcome::Failed(_) => {
                Some(Self::new(test, duration))
            }
        }
    }

    fn id(&self) -> (Option<&str>, &str, &str) {
        (self.project.as_deref(), &self.scenario, &self.test)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub(crate) struct FailedTest {
    pub scenario: String,
    pub test: String,
    /// The browser project it failed in; absent in a run of the default Chromium alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
}

impl LastRun {
    pub(crate) fn path(project_root: &Path) -> PathBuf {
        project_root.join(".prettyplay").join("last-run.json")
    }

    /// The previous record; a missing or unreadable file is an empty record (with a warning for
    /// an unreadable one: it is prettyplay's own state, never the user's data).
    pub(crate) fn load(project_root: &Path) -> LastRun {
        let path = Self::path(project_root);
        match std::fs::read_to_string(&path) {
            Ok(text) => serde_json::from_str(&text).unwrap_or_else(|err| {
                tracing::warn!("ignoring {}: {err}", path.display());
                LastRun::default()
            }),
            Err(_) => LastRun::default(),
        }
    }

    /// The failed tests as `(project, scenario, test)`.
    pub(crate) fn failed_set(&self) -> HashSet<(Option<String>, String, String)> {
        self.failed
            .iter()
            .map(|f| (f.project.clone(), f.scenario.clone(), f.test.clone()))
            .collect()
    }

    /// How long `test` took the last time it ran, when that was recorded.
    pub(crate) fn duration_of(&self, test: &TestId) -> Option<Duration> {
        let id = (
            test.project.as_deref(),
            test.scenario.as_str(),
            test.name.as_str(),
        );
        self.durations
            .iter()
            .find(|d| d.id() == id)
            .map(|d| Duration::from_millis(d.ms))
    }

    /// The durations of `previous` with those of this run's tests, `now`, in their place: a
    /// test that did not run this time keeps its older duration.
    pub(crate) fn merged_durations(
        previous: &LastRun,
        now: Vec<TestDuration>,
    ) -> Vec<TestDuration> {
        let mut merged: Vec<TestDuration> = previous
            .durations
            .iter()
            .filter(|old| now.iter().all(|new| new.id() != old.id()))
            .cloned()
            .collect();
        merged.extend(now);
        merged
    }

    /// The recorded failures that name a test that no longer exists: its scenario file is gone
    /// (`exists` says whether a file, relative to the project root, is there), or the file is
    /// one of `scenarios` and has no test of that name. A file that exists but is not among
    /// `scenarios` is outside this run, not gone.
    pub(crate) fn vanished<'r>(
        &'r self,
        scenarios: &[Scenario],
        exists: &dyn Fn(&str) -> bool,
    ) -> Vec<&'r FailedTest> {
        self.failed
            .iter()
            .filter(
                |failed| match scenarios.iter().find(|s| s.rel_path == failed.scenario) {
                    Some(scenario) => scenario.tests.iter().all(|t| t.name != failed.test),
                    None => !exists(&failed.scenario),
                },
            )
            .collect()
    }

    /// Writes the record atomically.
    pub(crate) fn save(&self, project_root: &Path) -> std::io::Result<()> {
        let path = Self::path(project_root);
        let dir = path.parent().unwrap_or(project_root);
        std::fs::create_dir_all(dir)?;
        let mut file = tempfile::NamedTempFile::new_in(dir)?;
        let json = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        std::io::Write::write_all(&mut file, json.as_bytes())?;
        file.persist(&path).map_err(|err| err.error)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_missing_file() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(LastRun::load(dir.path()), LastRun::default());
        let run = LastRun {
            version: 1,
            failed: vec![
                FailedTest {
                    scenario: "a.steps".into(),
                    test: "t".into(),
                    project: None,
                },
                FailedTest {
                    scenario: "a.steps".into(),
                    test: "u".into(),
                    project: Some("firefox".into()),
                },
            ],
            durations: vec![TestDuration {
                scenario: "a.steps".into(),
                test: "t".into(),
                project: None,
                ms: 1500,
            }],
            origins: Vec::new(),
        };
        run.save(dir.path()).unwrap();
        assert_eq!(LastRun::load(dir.path()), run);
        let failed = run.failed_set();
        assert!(failed.contains(&(None, "a.steps".to_owned(), "t".to_owned())));
        assert!(failed.contains(&(Some("firefox".into()), "a.steps".to_owned(), "u".to_owned())));
        assert!(!failed.contains(&(None, "a.steps".to_owned(), "u".to_owned())));
    }

    #[test]
    fn a_record_written_before_projects_reads_as_failures_without_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = LastRun::path(dir.path());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            &path,
            r#"{"version":1,"failed":[{"scenario":"a.steps","test":"t"}]}"#,
        )
        .unwrap();
        let old = LastRun::load(dir.path());
        assert_eq!(old.failed[0].project, None);
        assert!(old.durations.is_empty());
    }

    fn id(name: &str, project: Option<&str>) -> TestId {
        TestId {
            scenario: "a.steps".into(),
            name: name.into(),
            line: 1,
            project: project.map(str::to_owned),
        }
    }

    #[test]
    fn durations_of_this_run_replace_older_ones_and_the_rest_stay() {
        let ms = Duration::from_millis;
        let previous = LastRun {
            version: 1,
            failed: Vec::new(),
            durations: vec![
                TestDuration::new(&id("t", None), ms(1000)),
                TestDuration::new(&id("u", None), ms(2000)),
                TestDuration::new(&id("t", Some("firefox")), ms(3000)),
            ],
            origins: Vec::new(),
        };
        let now = vec![TestDuration::new(&id("t", None), ms(1200))];
        let record = LastRun {
            durations: LastRun::merged_durations(&previous, now),
            ..LastRun::default()
        };
        assert_eq!(record.duration_of(&id("t", None)), Some(ms(1200)));
        assert_eq!(record.duration_of(&id("u", None)), Some(ms(2000)));
        assert_eq!(
            record.duration_of(&id("t", Some("firefox"))),
            Some(ms(3000))
        );
        assert_eq!(record.duration_of(&id("v", None)), None);
        assert_eq!(record.durations.len(), 3);
    }

    #[test]
    fn a_failure_vanishes_with_its_test_or_its_file_but_not_with_a_file_outside_the_run() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.steps"), "test: kept\n  open the app\n").unwrap();
        let scenarios = crate::scenario::load(dir.path(), &[dir.path().join("a.steps")]).unwrap();
        let failed = |scenario: &str, test: &str| FailedTest {
            scenario: scenario.into(),
            test: test.into(),
            project: None,
        };
        let record = LastRun {
            version: 1,
            failed: vec![
                failed("a.steps", "kept"),
                failed("a.steps", "renamed"),
                failed("gone.steps", "t"),
                failed("other.steps", "t"),
            ],
            durations: Vec::new(),
            origins: Vec::new(),
        };
        let vanished = record.vanished(&scenarios, &|file| file == "other.steps");
        assert_eq!(
            vanished,
            [&failed("a.steps", "renamed"), &failed("gone.steps", "t")]
        );
    }

    #[test]
    fn origins_add_up_by_origin_and_outcome() {
        let seen = |origin: &str, outcome, kind: &str, requests| OriginSeen {
            origin: origin.into(),
            outcome,
            kinds: vec![kind.into()],
            requests,
            url: format!("{origin}/{kind}"),
        };
        let mut record = LastRun::default();
        record.note_origins(&[
            seen("http://cdn", OriginOutcome::Loaded, "font", 2),
            seen("http://stats", OriginOutcome::Blocked, "ping", 1),
        ]);
        record.note_origins(&[seen("http://cdn", OriginOutcome::Loaded, "script", 1)]);
        let cdn = &record.origins[0];
        assert_eq!(
            (cdn.origin.as_str(), cdn.requests, cdn.tests),
            ("http://cdn", 3, 2)
        );
        assert_eq!(cdn.kinds, ["font", "script"]);
        assert_eq!(cdn.url, "http://cdn/font");
        assert_eq!(record.origins[1].origin, "http://stats");
    }
}
