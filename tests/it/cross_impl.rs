//! The cross-implementation TodoMVC suite (`tests/fixtures/todomvc-suite`): sentences written
//! for the TodoMVC spec, whose cache the built-in generator proved on the Lit build. It replays
//! clean there, and a run with no LLM on another build (Vue) ends in what must hold whatever
//! healing does: every failure says why, the cache stays valid and changes only by heals, and
//! no step passes on a check that cannot fail. `scripts/cross-impl.sh` runs the same suite
//! against every build.

use std::collections::BTreeMap;
use std::fs;

use serde_json::Value;

use crate::support::{Test, assert_every_failure_says_why, proofs_as_text, repo_dir};

/// The suite, copied into the project at the same path; its `prettyplay.toml` makes its own
/// directory the project root, so its scenarios are `scenarios/*.steps` as its cache names them.
const SUITE: &str = "tests/fixtures/todomvc-suite";
const CONFIG: &str = "tests/fixtures/todomvc-suite/prettyplay.toml";

/// The build the committed cache was generated and proven on (`PROVEN_ON` in
/// `scripts/cross-impl.sh`).
const PROVEN_ON: &str = "tests/fixtures/todomvc/lit";

/// Another build, served for the run with no LLM.
const OTHER: &str = "tests/fixtures/todomvc/vue";

/// The suite's scenario files and the committed cache, by path under the suite.
fn suite_files(dir: &str) -> BTreeMap<String, String> {
    let root = repo_dir().join(SUITE).join(dir);
    let mut files = BTreeMap::new();
    for sub in fs::read_dir(&root).unwrap() {
        let path = sub.unwrap().path();
        let name = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
        files.insert(name, fs::read_to_string(&path).unwrap());
    }
    files
}

/// The number of tests of the suite: its `test:` lines.
fn suite_tests() -> usize {
    suite_files("scenarios")
        .values()
        .map(|text| {
            text.lines()
                .filter(|l| l.trim_start().starts_with("test:"))
                .count()
        })
        .sum()
}

/// A cache file's entries by identity (table, test, step, occurrence).
fn entries(text: &str) -> BTreeMap<String, toml::Table> {
    // A cache written since format 5 holds proof tables; the committed one their text.
    let doc: toml::Table = proofs_as_text(text).parse().unwrap();
    let mut out = BTreeMap::new();
    for table in ["background", "steps"] {
        for entry in doc
            .get(table)
            .and_then(toml::Value::as_array)
            .into_iter()
            .flatten()
        {
            let entry = entry.as_table().unwrap().clone();
            let key = format!(
                "{table} {} {} {}",
                entry
                    .get("test")
                    .map(ToString::to_string)
                    .unwrap_or_default(),
                entry["step"],
                entry["occurrence"]
            );
            out.insert(key, entry);
        }
    }
    out
}

fn suite_on(site: &str) -> Test {
    Test::new()
        .copy_from_repo(SUITE)
        .site_from_repo(site)
        // The default with no [llm]: the built-in generator alone.
        .env("PRETTYPLAY_GENERATE_BUILTIN", "first")
}

#[test]
fn the_committed_cache_replays_clean_on_the_build_it_was_proven_on() {
    suite_on(PROVEN_ON)
        .args(&["replay", "--strict", "--config", CONFIG])
        .run()
        .assert_exit(0)
        .stdout_line(&format!("{} passed, 0 failed", suite_tests()));
}

#[test]
fn a_run_with_no_llm_on_another_build_explains_every_failure_and_keeps_the_cache_valid() {
    let out = suite_on(OTHER)
        .args(&[
            "run",
            "--config",
            CONFIG,
            "--reporter",
            "json",
            "--output",
            "report",
        ])
        .run();
    assert!(
        matches!(out.status_code(), Some(0 | 1)),
        "tests pass or fail; nothing else went wrong:\n{}\n{}",
        out.stdout(),
        out.stderr()
    );
    let events: Vec<Value> = out.events("report/events.jsonl");
    let finished: Vec<&Value> = events
        .iter()
        .filter(|e| e["event"] == "test_finished")
        .collect();
    assert_eq!(finished.len(), suite_tests(), "every test ran");

    // Every failed test says why: a verdict, or a cause with its message.
    assert_every_failure_says_why("the Vue build", &events);

    // No step passed on a check that cannot fail.
    for step in events.iter().filter(|e| e["event"] == "step_passed") {
        let proof = step["proof"].as_str().unwrap_or_default();
        assert!(!proof.starts_with("vacuous"), "{step}");
    }
    let stats = &events.last().unwrap()["stats"];
    assert!(
        stats["checks_vacuous"].as_u64().unwrap_or(0) == 0,
        "{stats}"
    );

    // The cache is still valid: every file parses, holds the same entries, and an entry
    // changes only when a heal rewrote it (with its date and the built-in as its author: no
    // LLM here) and then records no vacuous proof.
    for (path, committed) in suite_files("cache/scenarios") {
        let written = out.read(&format!("{SUITE}/{path}"));
        let (before, after) = (entries(&committed), entries(&written));
        assert_eq!(
            before.keys().collect::<Vec<_>>(),
            after.keys().collect::<Vec<_>>(),
            "{path}"
        );
        for (key, entry) in &after {
            if entry == &before[key] {
                continue;
            }
            assert!(
                entry.contains_key("healed"),
                "{path}: {key} changed unhealed"
            );
            assert_eq!(entry["by"].as_str(), Some("builtin"), "{path}: {key}");
            let proof = entry.get("proof").and_then(toml::Value::as_str);
            assert!(!proof.unwrap_or_default().starts_with("vacuous"), "{key}");
        }
    }
    // Vue names its delete buttons "×" and its toggle-all "Toggle All Input", where Lit says
    // "Delete todo" and "Mark all as complete": the first is rot the built-in generator heals
    // with no LLM, the second a sentence it cannot write on Vue's page.
    let healed: Vec<&Value> = events.iter().filter(|e| e["event"] == "healed").collect();
    assert_eq!(healed.len(), 1, "{healed:?}");
    assert_eq!(healed[0]["sentence"], "delete \"walk the dog\"");
    assert_eq!(
        (&healed[0]["by"], &healed[0]["offline"]),
        (&Value::from("builtin"), &Value::from(true))
    );
    assert!(
        out.stdout().contains("(built-in, no LLM)"),
        "{}",
        out.stdout()
    );
    let editing = out.read(&format!("{SUITE}/cache/scenarios/editing.steps.toml"));
    assert!(
        editing.contains("await expect(item).toHaveCount(0);"),
        "{editing}"
    );
    let failed: Vec<&&Value> = finished
        .iter()
        .filter(|e| e["outcome"]["status"] == "failed")
        .collect();
    assert_eq!(failed.len(), 2, "{failed:?}");
    for (test, line) in failed.iter().zip([21, 28]) {
        let outcome = &test["outcome"];
        assert_eq!(outcome["line"], line, "{test}");
        let reason = outcome["cause"]["reason"].as_str().unwrap_or_default();
        assert!(
            reason.contains("healing this step needs [llm]")
                && reason.contains(&format!(
                    "`prettyplay explain scenarios/completing.steps:{line}`"
                )),
            "{reason}"
        );
        // Every failure names where its verdict came from.
        assert_eq!(outcome["verdict"]["source"], "evidence", "{test}");
    }
    assert_eq!(stats["passed"], 16, "{stats}");
    assert_eq!(stats["healed_steps"], 1, "{stats}");
    let list_out = out
        .again()
        .args(&["list", "--format", "json", "--config", CONFIG])
        .run()
        .assert_exit(0);
    let listed: Value = serde_json::from_str(list_out.stdout()).unwrap();
    for test in listed["tests"].as_array().unwrap() {
        for step in test["steps"].as_array().unwrap() {
            assert_eq!(step["cached"], true, "{test}");
        }
    }

    // What the heal wrote replays clean on Vue.
    list_out
        .again()
        .site_from_repo(OTHER)
        .args(&["replay", "--strict", "--config", CONFIG])
        .run()
        .assert_exit(1)
        .stdout_line("16 passed, 2 failed");
}
