//! Test selection: `--grep`, `--tag`, `--last-failed` and `--shard K/N`, applied in that order
//! to the tests of the discovered scenarios.
//!
//! Main types: [`Selection`] and [`Shard`]; the entry point is [`select_tests`].

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use regex::Regex;

use crate::scenario::Scenario;

/// A selected test: indexes into the scenario list and its tests.
pub type Selected = (usize, usize);

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

/// What to run, from the command line.
#[derive(Debug, Default)]
pub struct Selection {
    /// A regex searched in `file › test`.
    pub grep: Option<Regex>,
    /// Tests with at least one of these tags (without `@`).
    pub tags: Vec<String>,
    /// Only these `(scenario, test)` pairs (`--last-failed`).
    pub only: Option<HashSet<(String, String)>>,
    pub shard: Option<Shard>,
}

/// The tests `selection` picks, in scenario order. A shard takes every N-th test of the whole
/// selection (test K, K+N, K+2N, ... counting from 1), so shards are balanced by test count,
/// disjoint, together complete, and the same on every machine for the same scenario files.
pub fn select_tests(scenarios: &[Scenario], selection: &Selection) -> Vec<Selected> {
    let picked =
        scenarios.iter().enumerate().flat_map(|(si, scenario)| {
            scenario
                .tests
                .iter()
                .enumerate()
                .filter(move |(_, test)| {
                    selection.grep.as_ref().is_none_or(|re| {
                        re.is_match(&format!("{} › {}", scenario.rel_path, test.name))
                    }) && (selection.tags.is_empty()
                        || test.tags.iter().any(|t| {
                            selection
                                .tags
                                .iter()
                                .any(|wanted| wanted.trim_start_matches('@') == t)
                        }))
                        && selection.only.as_ref().is_none_or(|only| {
                            only.contains(&(scenario.rel_path.clone(), test.name.clone()))
                        })
                })
                .map(move |(ti, _)| (si, ti))
        });
    match selection.shard {
        Some(shard) => picked
            .enumerate()
            .filter(|(i, _)| i % shard.total == shard.index - 1)
            .map(|(_, selected)| selected)
            .collect(),
        None => picked.collect(),
    }
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
                    example: None,
                    steps: vec![Step {
                        sentence: "s".into(),
                        line: 2,
                        occurrence: 1,
                        tries: None,
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
                tags: vec!["@smoke".into()],
                ..Selection::default()
            },
        );
        assert_eq!(tagged, vec![(0, 0), (1, 0)]);
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
                only: Some(HashSet::from([("c.steps".to_owned(), "seven".to_owned())])),
                ..Selection::default()
            },
        );
        assert_eq!(only, vec![(2, 1)]);
    }

    #[test]
    fn shard_syntax() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, total: 4 }));
        for bad in ["0/4", "5/4", "2", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
