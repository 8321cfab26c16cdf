//! `prettyplay list`: the selected tests (the selection flags of `run`), their steps and whether
//! each step is cached, as text or as one JSON document (`--format json`, `docs/reports.md`).
//!
//! Main entry point: [`list`].

use std::io::Write;

use serde::Serialize;

use crate::cache::{Cache, StepKey};
use crate::cli::args::ListFormat;
use crate::cli::cached_steps::CachedSteps;
use crate::cli::select::SelectOptions;
use crate::config::Settings;
use crate::error::Error;
use crate::report::{Visible, visible_json};
use crate::runner::LastRun;
use crate::scenario::Scenario;

/// The version of the `list --format json` document.
const LIST_VERSION: u32 = 1;

/// `list --format json`: `{"version": 1, "tests": [...]}`.
#[derive(Serialize)]
struct ListWire<'a> {
    version: u32,
    tests: Vec<TestWire<'a>>,
}

#[derive(Serialize)]
struct TestWire<'a> {
    /// The browser project of a run of several browsers (`[browser] browsers`); absent in a run
    /// of one.
    #[serde(skip_serializing_if = "Option::is_none")]
    project: Option<String>,
    /// The scenario file, relative to the project root.
    file: &'a str,
    name: &'a str,
    /// The line of the `test:` header.
    line: usize,
    /// Without `@`.
    tags: &'a [String],
    /// `[saves=NAME]`: the state this setup test saves.
    #[serde(skip_serializing_if = "Option::is_none")]
    saves: Option<&'a str>,
    /// `[state=NAME]`: the state the test starts from.
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<&'a str>,
    steps: Vec<StepWire<'a>>,
}

#[derive(Serialize)]
struct StepWire<'a> {
    sentence: &'a str,
    line: usize,
    cached: bool,
    /// A step of the file's `background:` block (run first; present only when true).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    background: bool,
    /// Its cache identity: a step shared by several tests (background, example rows) counts
    /// once among the missing.
    #[serde(skip)]
    key: StepKey,
}

pub(crate) fn list(
    settings: &Settings,
    scenarios: &[Scenario],
    select: &SelectOptions,
    format: ListFormat,
    mut out: impl Write,
) -> Result<(), Error> {
    let last_run = LastRun::load(&settings.project_root);
    let mut cached = CachedSteps::new(Cache::new(&settings.cache_dir));
    let mut tests = Vec::new();
    let labels = settings.browser.project_labels();
    for at in select.select(scenarios, &last_run, labels.clone())? {
        let (scenario, test) = at.of(scenarios);
        // The background's steps first, as they run.
        let background = scenario
            .background
            .iter()
            .map(|step| (true, step, StepKey::background(scenario, step)));
        let own = test
            .steps
            .iter()
            .map(|step| (false, step, StepKey::of(scenario, test, step)));
        let mut steps = Vec::new();
        for (background, step, key) in background.chain(own) {
            steps.push(StepWire {
                sentence: &step.sentence,
                line: step.line,
                cached: cached.has(scenarios, at.scenario, &key)?,
                background,
                key,
            });
        }
        tests.push(TestWire {
            project: labels.get(at.project).cloned().flatten(),
            file: &scenario.rel_path,
            name: &test.name,
            line: test.line,
            tags: &test.tags,
            saves: test.saves.as_deref(),
            state: test.state.as_deref(),
            steps,
        });
    }
    match format {
        ListFormat::Json => {
            let document = ListWire {
                version: LIST_VERSION,
                tests,
            };
            // Plain data of strings and numbers: serialising it cannot fail.
            let json = serde_json::to_string(&document).unwrap_or_default();
            writeln!(out, "{}", visible_json(&json)).map_err(Error::Output)
        }
        ListFormat::Text => write_text(&tests, out).map_err(Error::Output),
    }
}

fn write_text(tests: &[TestWire<'_>], mut out: impl Write) -> std::io::Result<()> {
    let mut missing = std::collections::HashSet::new();
    for test in tests {
        let tags: String = test.tags.iter().map(|t| format!(" @{t}")).collect();
        let states: String = [("state", test.state), ("saves", test.saves)]
            .into_iter()
            .filter_map(|(key, name)| Some(format!(" [{key}={}]", name?)))
            .collect();
        // Names come from `.steps` files, which a pull request may change: see `visible`.
        let project = test
            .project
            .as_deref()
            .map(|p| format!("[{p}] "))
            .unwrap_or_default();
        let line = format!("{project}{} › {}{states}{tags}", test.file, test.name);
        writeln!(out, "{}", Visible(line))?;
        for step in &test.steps {
            if !step.cached {
                missing.insert(&step.key);
            }
            let mark = if step.cached { "cached " } else { "missing" };
            let prefix = if step.background { "background: " } else { "" };
            writeln!(out, "  [{mark}] {prefix}{}", Visible(step.sentence))?;
        }
    }
    writeln!(
        out,
        "{} test(s), {} step(s) without cached code",
        tests.len(),
        missing.len()
    )
}
