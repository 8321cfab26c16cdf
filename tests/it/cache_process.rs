//! The cache across processes: two prettyplay processes writing the same cache file at once lose
//! no entry.
//!
//! The test re-executes this test binary twice, filtered to [`writer_child`], which writes entries
//! only when `PRETTYPLAY_CACHE_WRITER=<project dir>:<test name>` is set.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use prettyplay::cache::{Cache, StepKey};
use prettyplay::scenario::{Scenario, Step, Test};

const WRITER_ENV: &str = "PRETTYPLAY_CACHE_WRITER";
const SCENARIO: &str = "scenarios/todo.steps";
const STEPS: usize = 50;

/// One scenario with tests `a` and `b`, of 50 steps each.
fn scenario(root: &Path) -> Scenario {
    let test = |name: &str| Test {
        name: name.to_owned(),
        line: 1,
        tags: vec![],
        example: None,
        saves: None,
        state: None,
        steps: (0..STEPS)
            .map(|i| Step {
                sentence: format!("step {i}"),
                line: i + 2,
                occurrence: 1,
                tries: None,
                optional: false,
                argument: None,
            })
            .collect(),
    };
    Scenario {
        path: root.join(SCENARIO),
        rel_path: SCENARIO.to_owned(),
        background: Vec::new(),
        tests: vec![test("a"), test("b")],
    }
}

/// Does nothing unless started by [`two_processes_writing_at_once_lose_nothing`]; then waits for
/// its go signal and writes every step of its test.
#[test]
fn writer_child() {
    let Ok(spec) = std::env::var(WRITER_ENV) else {
        return;
    };
    let (root, name) = spec
        .rsplit_once(':')
        .expect("PRETTYPLAY_CACHE_WRITER is <dir>:<test>");
    let root = PathBuf::from(root);
    let started = Instant::now();
    while !root.join("go").exists() {
        assert!(started.elapsed() < Duration::from_secs(30), "no go signal");
        std::thread::sleep(Duration::from_millis(1));
    }
    let cache = Cache::new(root.join("cache"));
    let scenario = scenario(&root);
    let test = scenario
        .tests
        .iter()
        .find(|test| test.name == name)
        .expect("test a or b");
    for step in &test.steps {
        let key = StepKey::of(&scenario, test, step);
        cache
            .put(
                &scenario,
                &key,
                &format!("// {name}: {}\n", step.sentence),
                "2026-11-30",
            )
            .unwrap();
    }
}

#[test]
fn two_processes_writing_at_once_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = ["a", "b"]
        .into_iter()
        .map(|name| {
            Command::new(&exe)
                .args(["--exact", "cache_process::writer_child", "--nocapture"])
                .env(WRITER_ENV, format!("{}:{name}", dir.path().display()))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    std::fs::write(dir.path().join("go"), "").unwrap();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "writer failed: {}\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }

    let file = Cache::new(dir.path().join("cache"))
        .load(SCENARIO)
        .unwrap()
        .expect("a cache file");
    let codes: Vec<&str> = file.steps.iter().map(|entry| entry.code.as_str()).collect();
    let expected: Vec<String> = ["a", "b"]
        .iter()
        .flat_map(|name| (0..STEPS).map(move |i| format!("// {name}: step {i}\n")))
        .collect();
    assert_eq!(codes, expected);
}
