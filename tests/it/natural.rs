//! The natural-sentence suites (`tests/fixtures/natural/`): sentences a QA engineer wrote for
//! five apps others built (TodoMVC's React, Vue and jQuery builds, MDN's validation form and
//! its Can Store), not shaped to the built-in generator. Each runs once with an empty cache and
//! no LLM against its app served on 127.0.0.1. What must hold whatever the generator reads:
//! every step it wrote code for passed on the live page and was cached, every check it cached
//! carries its mutation proof, and every failure says why. How much it reads is a floor per app
//! (the steps the first run passed, by the built-in generator or reused, at the commit that
//! set it), so a change that reads less fails
//! here; `scripts/natural_suites.py` measures the share of each suite it proves.

use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::support::{Test, assert_every_failure_says_why, proofs_as_text};

/// Each suite, the app it is for, and the least number of steps its first run must pass.
const SUITES: &[(&str, &str, usize)] = &[
    ("todomvc-react", "tests/fixtures/todomvc/react", 65),
    ("todomvc-vue", "tests/fixtures/todomvc/vue", 42),
    ("todomvc-jquery", "tests/fixtures/todomvc/jquery", 39),
    ("form-validation", "tests/fixtures/apps/form-validation", 40),
    ("can-store", "tests/fixtures/apps/can-store", 37),
];

fn run_suite(name: &str, app: &str, floor: usize) {
    let suite = format!("tests/fixtures/natural/{name}");
    let config = format!("{suite}/prettyplay.toml");
    let out = Test::new()
        .copy_from_repo(&suite)
        .site_from_repo(app)
        .env("PRETTYPLAY_GENERATE_BUILTIN", "first")
        .args(&[
            "run",
            "--config",
            &config,
            "--reporter",
            "json",
            "--output",
            "report",
        ])
        .run();
    assert!(
        matches!(out.status_code(), Some(0 | 1)),
        "{name}: tests pass or fail; nothing else went wrong:\n{}\n{}",
        out.stdout(),
        out.stderr()
    );
    let events: Vec<Value> = out.events("report/events.jsonl");
    let passed: Vec<&Value> = events
        .iter()
        .filter(|e| e["event"] == "step_passed" && (e["by"] == "builtin" || e["by"] == "reused"))
        .collect();
    eprintln!(
        "{name}: {} steps passed by the built-in generator",
        passed.len()
    );
    assert!(
        passed.len() >= floor,
        "{name}: {} steps passed, fewer than the {floor} the generator read before",
        passed.len()
    );
    assert_every_failure_says_why(name, &events);
    // Every cached step is one that passed, and every cached check carries its proof.
    let cached = proofs_as_text(&texts_under(&out.project_dir().join(&suite).join("cache")));
    let entries = cached.matches("\ncode = '''").count();
    assert!(
        entries >= passed.len(),
        "{name}: {entries} entries for {} passed steps",
        passed.len()
    );
    for entry in cached.split("\n[[").filter(|e| e.contains("expect(")) {
        assert!(
            entry.contains("\nproof = \""),
            "{name}: a cached check without its proof:\n{entry}"
        );
        assert!(
            !entry.contains("proof = \"vacuous"),
            "{name}: a check that cannot fail was cached:\n{entry}"
        );
    }
}

#[test]
fn todomvc_react() {
    let (name, app, floor) = SUITES[0];
    run_suite(name, app, floor);
}

#[test]
fn todomvc_vue() {
    let (name, app, floor) = SUITES[1];
    run_suite(name, app, floor);
}

#[test]
fn todomvc_jquery() {
    let (name, app, floor) = SUITES[2];
    run_suite(name, app, floor);
}

#[test]
fn form_validation() {
    let (name, app, floor) = SUITES[3];
    run_suite(name, app, floor);
}

#[test]
fn can_store() {
    let (name, app, floor) = SUITES[4];
    run_suite(name, app, floor);
}

/// The text of every file under `dir`, one after another.
fn texts_under(dir: &Path) -> String {
    let mut out = String::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.push_str(&texts_under(&path));
        } else {
            out.push_str(&fs::read_to_string(&path).unwrap());
        }
    }
    out
}
