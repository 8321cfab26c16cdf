//! Test selection: `file:line` locations, `--grep`, `--grep-invert`, `--tag` expressions,
//! `--last-failed` and `--shard K/N`, applied in that order to the tests of the discovered
//! scenarios.
//!
//! Main types: [`Selection`], [`Location`] and [`Shard`]; the entry point is [`select_tests`].

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use regex::Regex;

use crate::runner::TagExpr;
use crate::scenario::{Scenario, Test};

/// A test of a run, by its place: the browser project it runs in (an index into the run's
/// projects, 0 in a run of one browser), the index of its scenario in the run's list, and its
/// index among the scenario's tests. Places order by project first, as the matrix runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct TestRef {
    pub project: usize,
    pub scenario: usize,
    pub test: usize,
}

impl TestRef {
    pub(crate) fn new(scenario: usize, test: usize) -> Self {
        TestRef {
            project: 0,
            scenario,
            test,
        }
    }

    /// The same test in the project `project`.
    pub(crate) fn in_project(self, project: usize) -> Self {
        TestRef { project, ..self }
    }

    /// The scenario and the test this refers to in `scenarios`.
    pub(crate) fn of<'s>(&self, scenarios: &'s [Scenario]) -> (&'s Scenario, &'s Test) {
        let scenario = &scenarios[self.scenario];
        (scenario, &scenario.tests[self.test])
    }
}

/// Unit tests compare places with `(scenario, test)` pairs.
#[cfg(test)]
impl PartialEq<(usize, usize)> for TestRef {
    fn eq(&self, other: &(usize, usize)) -> bool {
        (self.scenario, self.test) == *other
    }
}

/// One part of a sharded run: `index` of `total`, from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub total: usize,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || format!("invalid shard {text:?}: expected K/N with 1 <= K <= N, e.g. 2/4");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let total: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || total == 0 || index > total {
            return Err(bad());
        }
        Ok(Shard { index, total })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.total)
    }
}

/// `FILE:LINE` on the command line: the test whose header, steps or `examples:` row is at that
/// line of that scenario file (a row selects that row's test only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Location {
    /// The scenario file, canonical (as [`std::fs::canonicalize`] gives it).
    pub file: PathBuf,
    /// 1-based.
    pub line: usize,
}

impl Location {
    /// Whether `test`, of the scenario file at the canonical path `file`, spans the line.
    pub(crate) fn selects(&self, file: &Path, test: &Test) -> bool {
        if self.file != file {
            return false;
        }
        if let Some(example) = &test.example
            && example.line == self.line
        {
            return true;
        }
        let last = test.steps.last().map_or(test.line, |s| s.line);
        (test.line..=last).contains(&self.line)
    }
}

/// What to run, from the command line.
#[derive(Debug, Default)]
pub(crate) struct Selection {
    /// Of a scenario file these name, only the tests at one of them; other files are not
    /// restricted.
    pub locations: Vec<Location>,
    /// A regex searched in `file › test`.
    pub grep: Option<Regex>,
    /// A regex that must not be found in `file › test` (`--grep-invert`).
    pub grep_invert: Option<Regex>,
    /// Tests that match at least one of these expressions.
    pub tags: Vec<TagExpr>,
    /// Only these `(project, scenario, test)` (`--last-failed`).
    pub only: Option<HashSet<(Option<String>, String, String)>>,
    /// The browser projects each test runs in, by label (`firefox`); empty or `[None]` is a run
    /// of the default Chromium alone, whose tests have no label.
    pub projects: Vec<Option<String>>,
    pub shard: Option<Shard>,
    /// How many scenarios, at the end of the list, were loaded only for the setup tests
    /// (`[saves=NAME]`) that tests of the others need: no other test of theirs is selected.
    pub setup_files: usize,
}

/// The tests `selection` picks, in scenario order, after the setup tests they need (which are
/// selected whatever the filters say). A shard takes every N-th test of the whole
/// selection (test K, K+N, K+2N, ... counting from 1), so shards are balanced by test count,
/// disjoint, together complete, and the same on every machine for the same scenario files; each
/// shard runs the setups its own tests need.
pub(crate) fn select_tests(scenarios: &[Scenario], selection: &Selection) -> Vec<TestRef> {
    let named = scenarios.len().saturating_sub(selection.setup_files);
    let projects: &[Option<String>] = match selection.projects.as_slice() {
        [] => &[None],
        projects => projects,
    };
    // The matrix runs project by project, as Playwright's does, and a test's name in a
    // project carries the project's label, so `--grep firefox` picks that project's tests.
    let picked = projects.iter().enumerate().flat_map(|(pi, project)| {
        scenarios[..named]
            .iter()
            .enumerate()
            .flat_map(move |(si, scenario)| {
                let file = canonical(&scenario.path);
                scenario
                    .tests
                    .iter()
                    .enumerate()
                    .filter(move |(_, test)| {
                        let path = format!("{} › {}", scenario.rel_path, test.name);
                        let name = match project {
                            Some(label) => format!("[{label}] {path}"),
                            None => path,
                        };
                        at_locations(&selection.locations, &file, test)
                            && selection.grep.as_ref().is_none_or(|re| re.is_match(&name))
                            && selection
                                .grep_invert
                                .as_ref()
                                .is_none_or(|re| !re.is_match(&name))
                            && (selection.tags.is_empty()
                                || selection.tags.iter().any(|expr| expr.matches(&test.tags)))
                            && selection.only.as_ref().is_none_or(|only| {
                                only.contains(&(
                                    project.clone(),
                                    scenario.rel_path.clone(),
                                    test.name.clone(),
                                ))
                            })
                    })
                    .map(move |(ti, _)| TestRef::new(si, ti).in_project(pi))
            })
    });
    let picked: Vec<TestRef> = match selection.shard {
        Some(shard) => picked
            .enumerate()
            .filter(|(i, _)| i % shard.total == shard.index - 1)
            .map(|(_, selected)| selected)
            .collect(),
        None => picked.collect(),
    };
    // Each project runs the setups its own tests need.
    (0..projects.len())
        .flat_map(|pi| {
            let of_project = picked
                .iter()
                .copied()
                .filter(|at| at.project == pi)
                .collect();
            with_setups(scenarios, of_project)
                .into_iter()
                .map(move |at| at.in_project(pi))
        })
        .collect()
}

/// `selected` with, in front, every setup test its tests need (and the setups those need), in
/// scenario order; a setup that was selected anyway stays where it was.
pub(crate) fn with_setups(scenarios: &[Scenario], selected: Vec<TestRef>) -> Vec<TestRef> {
    let savers: HashMap<&str, TestRef> = all_tests(scenarios)
        .filter_map(|(at, test)| test.saves.as_deref().map(|name| (name, at)))
        .collect();
    let mut needed: Vec<TestRef> = Vec::new();
    let mut wanted: Vec<&str> = selected
        .iter()
        .filter_map(|at| at.of(scenarios).1.state.as_deref())
        .collect();
    while let Some(state) = wanted.pop() {
        let Some(&setup) = savers.get(state) else {
            continue;
        };
        if selected
            .iter()
            .any(|at| (at.scenario, at.test) == (setup.scenario, setup.test))
            || needed.contains(&setup)
        {
            continue;
        }
        needed.push(setup);
        if let Some(next) = setup.of(scenarios).1.state.as_deref() {
            wanted.push(next);
        }
    }
    needed.sort_unstable();
    needed.extend(selected);
    needed
}

fn all_tests(scenarios: &[Scenario]) -> impl Iterator<Item = (TestRef, &Test)> {
    scenarios.iter().enumerate().flat_map(|(si, scenario)| {
        scenario
            .tests
            .iter()
            .enumerate()
            .map(move |(ti, test)| (TestRef::new(si, ti), test))
    })
}

/// Whether `test` of the scenario file `file` (canonical) is at one of `locations`, or none of
/// them names that file: a location narrows its own file only, as in Playwright Test.
fn at_locations(locations: &[Location], file: &Path, test: &Test) -> bool {
    let mut of_file = locations.iter().filter(|l| l.file == file).peekable();
    of_file.peek().is_none() || of_file.any(|l| l.selects(file, test))
}

/// The locations no test of `scenarios` spans (whatever the other filters say).
pub(crate) fn unmatched_locations<'l>(
    scenarios: &[Scenario],
    locations: &'l [Location],
) -> Vec<&'l Location> {
    let files: Vec<PathBuf> = scenarios.iter().map(|s| canonical(&s.path)).collect();
    locations
        .iter()
        .filter(|location| {
            !scenarios.iter().zip(&files).any(|(scenario, file)| {
                scenario
                    .tests
                    .iter()
                    .any(|test| location.selects(file, test))
            })
        })
        .collect()
}

/// `path` canonical, or as it is when it cannot be (it was read a moment ago).
fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{Step, Test};
    use std::path::PathBuf;

    fn scenario(rel: &str, tests: &[(&str, &[&str])]) -> Scenario {
        Scenario {
            path: PathBuf::from(rel),
            rel_path: rel.to_owned(),
            background: Vec::new(),
            tests: tests
                .iter()
                .map(|(name, tags)| Test {
                    name: (*name).to_owned(),
                    line: 1,
                    tags: tags.iter().map(|t| (*t).to_owned()).collect(),
                    state: None,
                    saves: None,
                    example: None,
                    steps: vec![Step {
                        sentence: "s".into(),
                        line: 2,
                        occurrence: 1,
                        tries: None,
                        optional: false,
                        argument: None,
                    }],
                })
                .collect(),
        }
    }

    fn suite() -> Vec<Scenario> {
        vec![
            scenario(
                "a.steps",
                &[("one", &["smoke"]), ("two", &[]), ("three", &["slow"])],
            ),
            scenario("b.steps", &[("four", &["smoke", "slow"]), ("five", &[])]),
            scenario("c.steps", &[("six", &[]), ("seven", &[])]),
        ]
    }

    #[test]
    fn shards_are_disjoint_complete_balanced_and_stable() {
        let scenarios = suite();
        let all = select_tests(&scenarios, &Selection::default());
        for total in 1..=8 {
            let mut union = Vec::new();
            let mut sizes = Vec::new();
            for index in 1..=total {
                let selection = Selection {
                    shard: Some(Shard { index, total }),
                    ..Selection::default()
                };
                let shard = select_tests(&scenarios, &selection);
                assert_eq!(shard, select_tests(&scenarios, &selection), "stable");
                sizes.push(shard.len());
                union.extend(shard);
            }
            union.sort_unstable();
            let mut expected = all.clone();
            expected.sort_unstable();
            assert_eq!(
                union, expected,
                "every test in exactly one of {total} shards"
            );
            let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
            assert!(max - min <= 1, "balanced: {sizes:?}");
        }
    }

    #[test]
    fn tags_grep_and_only_filter() {
        let scenarios = suite();
        let tagged = select_tests(
            &scenarios,
            &Selection {
                tags: vec!["@smoke".parse().unwrap()],
                ..Selection::default()
            },
        );
        assert_eq!(tagged, vec![(0, 0), (1, 0)]);
        // Repeated `--tag`s: any of them matches; one expression can ask for more.
        let expressions = |list: &[&str]| Selection {
            tags: list.iter().map(|e| e.parse().unwrap()).collect(),
            ..Selection::default()
        };
        assert_eq!(
            select_tests(&scenarios, &expressions(&["smoke", "slow"])),
            vec![(0, 0), (0, 2), (1, 0)]
        );
        assert_eq!(
            select_tests(&scenarios, &expressions(&["smoke and not slow"])),
            vec![(0, 0)]
        );
        let inverted = select_tests(
            &scenarios,
            &Selection {
                grep_invert: Some(Regex::new("a.steps|seven").unwrap()),
                ..Selection::default()
            },
        );
        assert_eq!(inverted, vec![(1, 0), (1, 1), (2, 0)]);
        let grep = select_tests(
            &scenarios,
            &Selection {
                grep: Some(Regex::new("b.steps › f").unwrap()),
                ..Selection::default()
            },
        );
        assert_eq!(grep, vec![(1, 0), (1, 1)]);
        let only = select_tests(
            &scenarios,
            &Selection {
                only: Some(HashSet::from([(
                    None,
                    "c.steps".to_owned(),
                    "seven".to_owned(),
                )])),
                ..Selection::default()
            },
        );
        assert_eq!(only, vec![(2, 1)]);
    }

    #[test]
    fn projects_repeat_the_selection_per_browser_and_shards_split_the_matrix() {
        let scenarios = vec![
            scenario("a.steps", &[("one", &[]), ("two", &[])]),
            scenario("b.steps", &[("three", &[])]),
        ];
        let projects = vec![Some("chromium".to_owned()), Some("firefox".to_owned())];
        let all = select_tests(
            &scenarios,
            &Selection {
                projects: projects.clone(),
                ..Selection::default()
            },
        );
        let places: Vec<(usize, usize, usize)> = all
            .iter()
            .map(|at| (at.project, at.scenario, at.test))
            .collect();
        assert_eq!(
            places,
            vec![
                (0, 0, 0),
                (0, 0, 1),
                (0, 1, 0),
                (1, 0, 0),
                (1, 0, 1),
                (1, 1, 0)
            ]
        );
        let grep = select_tests(
            &scenarios,
            &Selection {
                projects: projects.clone(),
                grep: Some(Regex::new(r"^\[firefox\] a\.steps").unwrap()),
                ..Selection::default()
            },
        );
        assert_eq!(grep.len(), 2);
        assert!(grep.iter().all(|at| at.project == 1 && at.scenario == 0));
        let only = select_tests(
            &scenarios,
            &Selection {
                projects: projects.clone(),
                only: Some(HashSet::from([(
                    Some("firefox".to_owned()),
                    "a.steps".to_owned(),
                    "two".to_owned(),
                )])),
                ..Selection::default()
            },
        );
        assert_eq!(only.len(), 1);
        assert_eq!((only[0].project, only[0].scenario, only[0].test), (1, 0, 1));
        let mut union = Vec::new();
        for index in 1..=4 {
            let shard = select_tests(
                &scenarios,
                &Selection {
                    projects: projects.clone(),
                    shard: Some(Shard { index, total: 4 }),
                    ..Selection::default()
                },
            );
            assert!(shard.len() <= 2, "balanced over the matrix: {shard:?}");
            union.extend(shard);
        }
        union.sort();
        assert_eq!(union, all);
    }

    #[test]
    fn a_location_selects_the_test_whose_header_or_steps_span_its_line() {
        let test = |line: usize, steps: &[usize]| Test {
            name: "t".into(),
            line,
            tags: Vec::new(),
            state: None,
            saves: None,
            example: None,
            steps: steps
                .iter()
                .map(|&line| Step {
                    sentence: "s".into(),
                    line,
                    occurrence: 1,
                    tries: None,
                    optional: false,
                    argument: None,
                })
                .collect(),
        };
        let at = |line| Location {
            file: PathBuf::from("/p/a.steps"),
            line,
        };
        let file = Path::new("/p/a.steps");
        let t = test(3, &[4, 6]);
        assert!(!at(2).selects(file, &t));
        assert!([3, 4, 5, 6].iter().all(|&l| at(l).selects(file, &t)));
        assert!(!at(7).selects(file, &t));
        assert!(!at(4).selects(Path::new("/p/b.steps"), &t));
    }

    #[test]
    fn shard_syntax() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, total: 4 }));
        for bad in ["0/4", "5/4", "2", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
