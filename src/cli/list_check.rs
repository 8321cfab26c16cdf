//! `prettyplay list --check`: every step of the selected tests that has no cached code and whose
//! sentence none of the built-in generator's shapes reads, found without a browser. Such a step
//! can only be written by an LLM; a step with cached code is not checked, because `run` replays
//! its code and never asks the generator. A sentence the shapes read may still be declined on
//! the page (an element it names is missing or ambiguous): only `explain` can tell that.
//!
//! Main type: [`CheckReport`]; the entry point is [`check`].

use std::collections::HashSet;
use std::io::Write;

use serde::Serialize;

use crate::cache::Cache;
use crate::cli::args::ListFormat;
use crate::cli::cached_steps::CachedSteps;
use crate::cli::select::SelectOptions;
use crate::config::Settings;
use crate::error::{EXIT_SUCCESS, EXIT_TEST_FAILED, Error};
use crate::report::{Visible, visible_json};
use crate::runner::{LastRun, test_steps};
use crate::scenario::Scenario;
use crate::writer::parse_sentence;

/// The version of the `list --check --format json` document.
const CHECK_VERSION: u32 = 1;

/// What `list --check` found: `{"version": 1, "unread": [...], "read": N, "checked": M,
/// "cached": K}` as JSON.
#[derive(Debug, Default, Serialize, PartialEq, Eq)]
struct CheckReport {
    version: u32,
    /// The sentences no shape reads, in file order.
    unread: Vec<Unread>,
    /// Sentences without cached code that a shape reads.
    read: usize,
    /// Sentences without cached code: `read` plus the unread ones.
    checked: usize,
    /// Sentences with cached code, not checked.
    cached: usize,
}

/// A step sentence none of the shapes reads.
#[derive(Debug, Serialize, PartialEq, Eq)]
struct Unread {
    /// The scenario file, relative to the project root.
    file: String,
    line: usize,
    sentence: String,
    /// Why the grammar declines it.
    why: String,
}

/// Checks the sentences of the selected tests, prints what it found to `out` and returns the
/// exit code: 1 when a step without cached code is unread, else 0.
pub(crate) fn check(
    settings: &Settings,
    scenarios: &[Scenario],
    select: &SelectOptions,
    format: ListFormat,
    mut out: impl Write,
) -> Result<u8, Error> {
    let last_run = LastRun::load(&settings.project_root);
    let mut cached = CachedSteps::new(Cache::new(&settings.cache_dir));
    let mut report = CheckReport {
        version: CHECK_VERSION,
        ..CheckReport::default()
    };
    // A line is one sentence: a background step or an examples table's step that several
    // tests run is checked once.
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    for at in select.select(scenarios, &last_run, settings.browser.project_labels())? {
        let (scenario, test) = at.of(scenarios);
        for (step, key) in test_steps(scenario, test) {
            if !seen.insert((at.scenario, step.line)) {
                continue;
            }
            if cached.has(scenarios, at.scenario, &key)? {
                report.cached += 1;
                continue;
            }
            report.checked += 1;
            let columns = if key.is_background() {
                &[]
            } else {
                test.columns()
            };
            match parse_sentence(&key.step, columns) {
                Ok(_) => report.read += 1,
                Err(decline) => report.unread.push(Unread {
                    file: scenario.rel_path.clone(),
                    line: step.line,
                    sentence: key.step.clone(),
                    why: decline.0,
                }),
            }
        }
    }
    report
        .unread
        .sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    match format {
        ListFormat::Json => {
            // Plain data of strings and numbers: serialising it cannot fail.
            let json = serde_json::to_string(&report).unwrap_or_default();
            writeln!(out, "{}", visible_json(&json)).map_err(Error::Output)?;
        }
        ListFormat::Text => write_text(&report, &mut out).map_err(Error::Output)?,
    }
    Ok(if report.unread.is_empty() {
        EXIT_SUCCESS
    } else {
        EXIT_TEST_FAILED
    })
}

/// `FILE:LINE: <sentence>: <why>` for each unread sentence, then the counts.
fn write_text(report: &CheckReport, out: &mut impl Write) -> std::io::Result<()> {
    for unread in &report.unread {
        // Sentences come from `.steps` files, which a pull request may change: see `visible`.
        let line = format!(
            "{}:{}: {}: {}",
            unread.file, unread.line, unread.sentence, unread.why
        );
        writeln!(out, "{}", Visible(line))?;
    }
    writeln!(
        out,
        "{} of {} sentence(s) without cached code read by the built-in generator; {} cached, \
         not checked",
        report.read, report.checked, report.cached
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_names_each_unread_sentence_and_counts_them() {
        let report = CheckReport {
            version: CHECK_VERSION,
            unread: vec![Unread {
                file: "scenarios/a.steps".into(),
                line: 3,
                sentence: "make it pretty".into(),
                why: "the sentence is none of the built-in shapes".into(),
            }],
            read: 2,
            checked: 3,
            cached: 1,
        };
        let mut out = Vec::new();
        write_text(&report, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "scenarios/a.steps:3: make it pretty: the sentence is none of the built-in shapes\n\
             2 of 3 sentence(s) without cached code read by the built-in generator; 1 cached, \
             not checked\n"
        );
    }
}
