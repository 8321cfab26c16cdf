//! Which tests `run`, `replay` and `list` take, from the command line: `FILE:LINE` paths,
//! `--grep`, `--grep-invert`, `--tag` expressions, `--last-failed` and `--shard`, made into a
//! [`Selection`]. Bad values (a regex, a tag expression, a line with no test) are usage errors.
//!
//! Main type: [`SelectOptions`]; [`split_locations`] takes the `FILE:LINE`s out of the paths.

use std::path::{Path, PathBuf};

use regex::Regex;

use crate::cli::args::SelectArgs;
#[cfg(doc)]
use crate::config::BrowserSettings;
use crate::error::Error;
use crate::runner::{
    FailedTest, LastRun, Location, Selection, Shard, TagExpr, TestRef, select_tests,
    unmatched_locations,
};
use crate::scenario::Scenario;

/// A `FILE:LINE` path, with the text it was given as.
pub(crate) type NamedLocation = (Location, String);

/// The selection flags of a command, checked.
pub(crate) struct SelectOptions {
    grep: Option<Regex>,
    grep_text: Option<String>,
    grep_invert: Option<Regex>,
    tags: Vec<TagExpr>,
    tag_texts: Vec<String>,
    pub last_failed: bool,
    pub shard: Option<Shard>,
    /// `FILE:LINE` paths.
    locations: Vec<NamedLocation>,
    /// Scenarios at the end of the list loaded only for their setup tests.
    pub setup_files: usize,
}

impl SelectOptions {
    pub(crate) fn new(args: &SelectArgs, locations: Vec<NamedLocation>) -> Result<Self, Error> {
        let regex = |flag: &str, pattern: &Option<String>| {
            pattern
                .as_deref()
                .map(|pattern| {
                    Regex::new(pattern).map_err(|err| {
                        Error::Usage(format!("invalid {flag} pattern {pattern:?}: {err}"))
                    })
                })
                .transpose()
        };
        let tags = args
            .tags
            .iter()
            .map(|text| text.parse::<TagExpr>())
            .collect::<Result<_, _>>()
            .map_err(|err| Error::Usage(err.to_string()))?;
        Ok(Self {
            grep: regex("--grep", &args.grep)?,
            grep_text: args.grep.clone(),
            grep_invert: regex("--grep-invert", &args.grep_invert)?,
            tags,
            tag_texts: args.tags.clone(),
            last_failed: args.last_failed,
            shard: args.shard,
            locations,
            setup_files: 0,
        })
    }

    /// The selected tests of `scenarios` in each of `projects` (see
    /// [`BrowserSettings::project_labels`]); `last_run` gives `--last-failed` its tests. A
    /// `FILE:LINE` at which no test is (its header, steps or an `examples:` row) is a usage
    /// error, whatever the other flags select.
    pub(crate) fn select(
        &self,
        scenarios: &[Scenario],
        last_run: &LastRun,
        projects: Vec<Option<String>>,
    ) -> Result<Vec<TestRef>, Error> {
        let locations: Vec<Location> = self.locations.iter().map(|(l, _)| l.clone()).collect();
        let unmatched = unmatched_locations(scenarios, &locations);
        if !unmatched.is_empty() {
            let lines: Vec<String> = self
                .locations
                .iter()
                .filter(|(l, _)| unmatched.contains(&l))
                .map(|(_, text)| {
                    format!(
                        "{text}: no test at this line: give the line of a `test:` header, one \
                         of its steps or an `examples:` row"
                    )
                })
                .collect();
            return Err(Error::Usage(lines.join("\n")));
        }
        let selection = Selection {
            locations,
            grep: self.grep.clone(),
            grep_invert: self.grep_invert.clone(),
            tags: self.tags.clone(),
            only: self.last_failed.then(|| last_run.failed_set()),
            shard: self.shard,
            setup_files: self.setup_files,
            projects,
        };
        Ok(select_tests(scenarios, &selection))
    }

    /// What `--last-failed` says before the run when its record names tests that no longer
    /// exist (see [`LastRun::vanished`]): `None` when there are none, or without the flag.
    /// `selected` is what runs, and `projects` the run's browser projects.
    pub(crate) fn vanished_note(
        &self,
        scenarios: &[Scenario],
        last_run: &LastRun,
        project_root: &Path,
        selected: &[TestRef],
        projects: &[Option<String>],
    ) -> Option<String> {
        if !self.last_failed {
            return None;
        }
        let vanished = last_run.vanished(scenarios, &|file| project_root.join(file).is_file());
        if vanished.is_empty() {
            return None;
        }
        let recorded = last_run.failed_set();
        let rerun = selected
            .iter()
            .filter(|at| {
                let (scenario, test) = at.of(scenarios);
                let project = projects.get(at.project).cloned().flatten();
                recorded.contains(&(project, scenario.rel_path.clone(), test.name.clone()))
            })
            .count();
        Some(vanished_note(&vanished, rerun))
    }

    /// Why nothing was selected, for a usage error.
    pub(crate) fn nothing_selected(&self) -> String {
        let mut filters = Vec::new();
        if let Some(pattern) = &self.grep_text {
            filters.push(format!("--grep {pattern:?}"));
        }
        if self.grep_invert.is_some() {
            filters.push("--grep-invert".to_owned());
        }
        for tag in &self.tag_texts {
            filters.push(format!("--tag {tag:?}"));
        }
        if !self.locations.is_empty() {
            filters.push("the FILE:LINE paths".to_owned());
        }
        match filters.len() {
            0 => "no tests to run: the scenario files declare none".to_owned(),
            _ => format!("no tests match {}", filters.join(" and ")),
        }
    }
}

/// How many vanished tests the note names before it gives the count of the others.
const NAMED_VANISHED: usize = 3;

/// The note of [`SelectOptions::vanished_note`]: the tests that are gone, the first few by
/// name, and how many recorded failures run instead (or that nothing does).
fn vanished_note(vanished: &[&FailedTest], rerun: usize) -> String {
    let mut names: Vec<String> = vanished
        .iter()
        .take(NAMED_VANISHED)
        .map(|failed| {
            let project = failed
                .project
                .as_deref()
                .map(|p| format!("[{p}] "))
                .unwrap_or_default();
            format!("{project}{} › {}", failed.scenario, failed.test)
        })
        .collect();
    if vanished.len() > NAMED_VANISHED {
        names.push(format!("and {} more", vanished.len() - NAMED_VANISHED));
    }
    let instead = match rerun {
        0 => "so nothing runs".to_owned(),
        1 => "running the 1 test that failed and still exists".to_owned(),
        n => format!("running the {n} tests that failed and still exist"),
    };
    format!(
        "--last-failed: {} test(s) that failed in the previous run no longer exist ({}); {instead}",
        vanished.len(),
        names.join(", ")
    )
}

/// Splits the command line's paths into scenario paths and `FILE:LINE` locations: a path that
/// does not exist but ends in `:N` after an existing file is a location (its file is loaded, and
/// of that file only the tests at the locations run).
pub(crate) fn split_locations(
    cwd: &Path,
    paths: &[PathBuf],
) -> Result<(Vec<PathBuf>, Vec<NamedLocation>), Error> {
    let mut files = Vec::new();
    let mut locations = Vec::new();
    for path in paths {
        let location = path
            .to_str()
            .filter(|_| !cwd.join(path).exists())
            .and_then(|text| text.rsplit_once(':'))
            .filter(|(file, line)| {
                !line.is_empty()
                    && line.bytes().all(|b| b.is_ascii_digit())
                    && cwd.join(file).is_file()
            });
        let Some((file, line)) = location else {
            if !files.contains(path) {
                files.push(path.clone());
            }
            continue;
        };
        let text = path.display().to_string();
        let line: usize = line
            .parse()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| Error::Usage(format!("{text}: line numbers start at 1")))?;
        let full = cwd.join(file);
        let canonical = std::fs::canonicalize(&full).unwrap_or_else(|_| full.clone());
        if !files.contains(&PathBuf::from(file)) {
            files.push(PathBuf::from(file));
        }
        locations.push((
            Location {
                file: canonical,
                line,
            },
            text,
        ));
    }
    Ok((files, locations))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_colon_line_is_a_location_only_after_an_existing_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.steps"), "test: t\n  s\n").unwrap();
        let paths = ["a.steps:2", "a.steps", "missing.steps:3", "a.steps:x"].map(PathBuf::from);
        let (files, locations) = split_locations(dir.path(), &paths).unwrap();
        assert_eq!(
            files,
            ["a.steps", "missing.steps:3", "a.steps:x"].map(PathBuf::from)
        );
        assert_eq!(locations.len(), 1);
        assert_eq!(locations[0].0.line, 2);
        assert_eq!(locations[0].1, "a.steps:2");
        let zero = split_locations(dir.path(), &[PathBuf::from("a.steps:0")]);
        assert!(matches!(zero, Err(Error::Usage(m)) if m.contains("start at 1")));
    }

    #[test]
    fn the_vanished_note_names_a_few_tests_and_what_runs_instead() {
        let failed = |scenario: &str, test: &str, project: Option<&str>| FailedTest {
            scenario: scenario.into(),
            test: test.into(),
            project: project.map(str::to_owned),
        };
        let one = [failed("scenarios/a.steps", "old name", None)];
        let many: Vec<FailedTest> = (1..=5)
            .map(|i| failed("scenarios/b.steps", &format!("t{i}"), Some("firefox")))
            .collect();
        let notes = [
            vanished_note(&one.iter().collect::<Vec<_>>(), 0),
            vanished_note(&one.iter().collect::<Vec<_>>(), 1),
            vanished_note(&many.iter().collect::<Vec<_>>(), 2),
        ];
        insta::assert_snapshot!(notes.join("\n"));
    }
}
