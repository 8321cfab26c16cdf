//! The record of the previous run's failures, for `--last-failed`: `.prettyplay/last-run.json`
//! under the project root (a sibling of the cache, not in it; safe to ignore in git).
//!
//! Main type: [`LastRun`].

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Failed tests of a run, by scenario path and test name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LastRun {
    pub version: u32,
    pub failed: Vec<FailedTest>,
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
        assert_eq!(LastRun::load(dir.path()).failed[0].project, None);
    }
}
