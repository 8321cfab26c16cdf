//! Reports: the JUnit XML validated against our schema (`support/fixtures/reports/junit.xsd`)
//! with xmllint, the JSON lines event stream, the files a real run writes, GitHub annotations,
//! and the HTML report opened in headless Chromium by a second prettyplay run.
//!
//! xmllint comes with `./setup` (Debian package libxml2-utils); the browser tests need `./setup`
//! too. Without them these tests fail with a message saying so.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use prettyplay::cache::{Author, ProofRecord, Unproven};
use prettyplay::engine::{EngineFailure, EngineFailureKind, StepProof};
use prettyplay::llm::{Category, Classification, VerdictSource};
use prettyplay::report::{ReportOptions, ReporterKind, Verbosity, build_reporters};
use prettyplay::runner::{
    FailureCause, Healed, RunEvent, RunFinished, RunStarted, RunStats, StepFailed, StepPassed,
    StepSource, TestFailure, TestFinished, TestId, TestKind, TestOutcome,
};

use crate::support::{Output, Test, repo_dir};

const FIXTURES: &str = "tests/it/support/fixtures/reports";
const APP: &str = include_str!("support/fixtures/reports/app.html");
const REPORT_STEPS: &str = include_str!("support/fixtures/reports/report.steps");
const REPORT_CACHE: &str = include_str!("support/fixtures/reports/report.steps.toml");
const CHECK_STEPS: &str = include_str!("support/fixtures/reports/check-report.steps");
const CHECK_CACHE: &str = include_str!("support/fixtures/reports/check-report.steps.toml");

fn schema() -> PathBuf {
    repo_dir().join(FIXTURES).join("junit.xsd")
}

/// Validates `xml` against the JUnit schema with xmllint; the error of a failure is returned.
fn xmllint(xml: &Path) -> Result<(), String> {
    let output = match Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(schema())
        .arg(xml)
        .output()
    {
        Ok(output) => output,
        Err(err) if err.kind() == io::ErrorKind::NotFound => panic!(
            "xmllint is missing: the JUnit report tests validate reports with it.\n\
             Run ./setup (it installs libxml2-utils), or: apt-get install -y libxml2-utils"
        ),
        Err(err) => panic!("cannot run xmllint: {err}"),
    };
    if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

#[track_caller]
pub(crate) fn assert_valid_junit(xml: &Path) {
    if let Err(err) = xmllint(xml) {
        panic!(
            "{} does not validate against {}:\n{err}\n--- the report ---\n{}",
            xml.display(),
            schema().display(),
            fs::read_to_string(xml).unwrap_or_default()
        );
    }
}

fn id(scenario: &str, name: &str, line: usize) -> TestId {
    TestId {
        scenario: scenario.into(),
        name: name.into(),
        line,
        project: None,
    }
}

/// Text that breaks naive XML and HTML: markup, entities, a CDATA end, quotes, an ANSI colour
/// code and a control character.
const NASTY: &str = "<b>&amp; \"q\" 'a' ]]> \u{1b}[31mred\u{1b}[0m \u{7}bell ✓";

/// A run of a passing test, a healed test and a product defect, in two files, with nasty text.
fn events() -> Vec<RunEvent> {
    events_in(None)
}

/// [`events`] with every test in the browser project `project`.
fn events_in(project: Option<&str>) -> Vec<RunEvent> {
    let pass = id("scenarios/a.steps", "passes", 2).in_project(project);
    let healed = id("scenarios/a.steps", NASTY, 5).in_project(project);
    let defect = id("scenarios/b & c.steps", "log in", 1).in_project(project);
    let verdict = Classification {
        category: Category::ProductDefect,
        explanation: format!("expected \"Hello\", observed {NASTY}"),
        recommendation: "fix the greeting".into(),
        source: VerdictSource::Evidence {
            llm: Some(Category::Rot),
        },
    };
    let step = |test: &TestId, index, source| {
        let passed = StepPassed {
            sentence: format!("step {index} {NASTY}"),
            line: test.line + index,
            source,
            by: (source != StepSource::Cached).then_some(prettyplay::cache::Author::Llm),
            duration: Duration::from_millis(120),
            code: format!("async function step(page) {{ /* {NASTY} */ }}"),
            proof: Some(StepProof::Recorded(ProofRecord::None(
                Unproven::NotRepeatable(NASTY.into()),
            ))),
        };
        RunEvent::of_step(test.clone(), index, passed)
    };
    let finished = |test: &TestId, outcome, millis| {
        let finished = TestFinished {
            outcome,
            duration: Duration::from_millis(millis),
        };
        RunEvent::of_test(test.clone(), finished)
    };
    vec![
        RunEvent::of_run(RunStarted { tests: 3 }),
        RunEvent::of_test(pass.clone(), TestKind::Started),
        RunEvent::of_test(healed.clone(), TestKind::Started),
        step(&pass, 1, StepSource::Cached),
        finished(&pass, TestOutcome::Passed, 300),
        RunEvent::of_step(
            healed.clone(),
            1,
            Healed {
                sentence: format!("step 1 {NASTY}"),
                explanation: NASTY.into(),
                by: Author::Builtin,
                offline: true,
                old_code: format!("old {NASTY}"),
                new_code: format!("new {NASTY}"),
            },
        ),
        step(&healed, 1, StepSource::Healed),
        finished(&healed, TestOutcome::Passed, 900),
        RunEvent::of_test(defect.clone(), TestKind::Started),
        step(&defect, 1, StepSource::Generated),
        RunEvent::of_step(
            defect.clone(),
            2,
            StepFailed {
                sentence: format!("the greeting says {NASTY}"),
                line: 3,
                duration: Duration::from_millis(2000),
            },
        ),
        finished(
            &defect,
            TestOutcome::Failed(Box::new(TestFailure {
                step: format!("the greeting says {NASTY}"),
                step_index: 2,
                line: 3,
                cause: FailureCause::Engine(EngineFailure {
                    candidate: None,
                    kind: EngineFailureKind::ProductDefect,
                    summary: format!("expect(locator).toHaveText(expected) failed\n{NASTY}"),
                    cause: None,
                    verdict: Some(verdict.clone()),
                }),
                code: Some(format!("async function step(page) {{\n  // {NASTY}\n}}")),
                verdict: Some(verdict),
                screenshot: Some(vec![0x89, b'P', b'N', b'G']),
            })),
            2500,
        ),
        RunEvent::of_run(RunFinished {
            stats: RunStats {
                passed: 2,
                failed: 1,
                duration: Duration::from_millis(3700),
                cached_steps: 1,
                generated_steps: 1,
                healed_steps: 1,
                ..RunStats::default()
            },
        }),
    ]
}

/// Feeds [`events`] to the reporters of `kinds`, writing under `dir`.
fn write_reports(dir: &Path, kinds: Vec<ReporterKind>) -> String {
    write_reports_of(dir, kinds, &events())
}

/// Feeds `events` to the reporters of `kinds`, writing under `dir`.
fn write_reports_of(dir: &Path, kinds: Vec<ReporterKind>, events: &[RunEvent]) -> String {
    let options = ReportOptions {
        kinds,
        output_dir: dir.join("report"),
        events_file: Some(dir.join("events.jsonl")),
        ..ReportOptions::default()
    };
    let out = tempfile::NamedTempFile::new().expect("a temporary file");
    let stdout = out.reopen().expect("reopen the temporary file");
    let mut reporters = build_reporters(
        &options,
        Box::new(stdout),
        false,
        Verbosity::Normal,
        false,
        &|_| None,
    )
    .expect("build the reporters");
    for event in events {
        reporters.handle(event).expect("handle an event");
    }
    reporters.finish().expect("write the reports");
    fs::read_to_string(out.path()).expect("read the terminal output")
}

#[test]
fn junit_report_of_nasty_names_validates_against_the_schema() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    write_reports(dir.path(), vec![ReporterKind::Junit]);
    let xml = dir.path().join("report/junit.xml");
    assert_valid_junit(&xml);
    let text = fs::read_to_string(&xml).expect("read junit.xml");
    assert!(
        text.contains("<testsuite name=\"scenarios/b &amp; c.steps\" tests=\"1\" failures=\"1\"")
    );
    assert!(text.contains("type=\"product_defect\""));
    assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'));
}

#[test]
fn junit_report_of_two_browsers_validates_against_the_schema() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let firefox = events_in(Some("firefox"));
    let chromium = events_in(Some("chromium"));
    let mut events = vec![RunEvent::of_run(RunStarted { tests: 6 })];
    events.extend_from_slice(&firefox[1..firefox.len() - 1]);
    events.extend_from_slice(&chromium[1..]);
    write_reports_of(dir.path(), vec![ReporterKind::Junit], &events);
    let xml = dir.path().join("report/junit.xml");
    assert_valid_junit(&xml);
    let text = fs::read_to_string(&xml).expect("read junit.xml");
    assert!(text.contains(
        "<testsuite name=\"[firefox] scenarios/b &amp; c.steps\" tests=\"1\" failures=\"1\""
    ));
    assert_eq!(
        text.matches("<property name=\"browser\" value=\"chromium\"/>")
            .count(),
        3
    );
}

#[test]
fn the_junit_schema_rejects_what_ci_servers_would_not_read() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bad = dir.path().join("bad.xml");
    fs::write(
        &bad,
        "<testsuites name=\"prettyplay\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"1.0\">\
         <testsuite name=\"a.steps\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"1.0\">\
         <testcase classname=\"a.steps\" time=\"1.0\" file=\"a.steps\" line=\"1\"/>\
         </testsuite></testsuites>",
    )
    .expect("write bad.xml");
    let err = xmllint(&bad).expect_err("a testcase without a name must not validate");
    assert!(err.contains("'name' is required"), "{err}");
}

#[test]
fn the_events_file_has_a_versioned_object_per_event() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    write_reports(dir.path(), vec![ReporterKind::Json]);
    let stream = fs::read_to_string(dir.path().join("events.jsonl")).expect("read events.jsonl");
    let copy = fs::read_to_string(dir.path().join("report/events.jsonl")).expect("read the copy");
    assert_eq!(stream, copy);
    let objects: Vec<serde_json::Value> = stream
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON object per line"))
        .collect();
    assert_eq!(objects.len(), events().len());
    assert!(objects.iter().all(|o| o["version"] == 1));
    let names: Vec<&str> = objects
        .iter()
        .map(|o| o["event"].as_str().unwrap())
        .collect();
    assert_eq!(names.first(), Some(&"run_started"));
    assert_eq!(names.last(), Some(&"run_finished"));
    assert!(names.contains(&"healed") && names.contains(&"step_failed"));
    let failed = objects
        .iter()
        .find(|o| o["event"] == "test_finished" && o["outcome"]["status"] == "failed")
        .expect("a failed test");
    assert_eq!(failed["duration_ms"], 2500);
    assert_eq!(failed["outcome"]["cause"]["kind"], "product_defect");
    assert_eq!(failed["outcome"]["screenshot_png_base64"], "iVBORw==");
}

#[test]
fn html_report_of_nasty_names_is_one_escaped_self_contained_file() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let terminal = write_reports(dir.path(), vec![ReporterKind::Html]);
    assert!(terminal.contains("2 passed, 1 failed"), "{terminal}");
    let files: Vec<_> = fs::read_dir(dir.path().join("report"))
        .expect("list the report directory")
        .map(|e| e.expect("an entry").file_name())
        .collect();
    assert_eq!(files, ["index.html"]);
    let html = fs::read_to_string(dir.path().join("report/index.html")).expect("read index.html");
    assert!(!html.contains("<b>&amp;"), "unescaped markup");
    assert!(html.contains("&lt;b&gt;&amp;amp; \"q\" 'a' ]]&gt; red \u{FFFD}bell ✓"));
    assert_eq!(html.matches("<script").count(), 1);
    assert!(!html.contains("http://") && !html.contains("https://"));
}

// --- real runs -----------------------------------------------------------------------------

/// A project with [`REPORT_STEPS`] (one passing, one failing test), its cache and the app page.
pub(crate) fn report_project() -> Test {
    Test::new()
        .config("scenarios = \"scenarios\"\ncache_dir = \"cache\"\n\n[browser]\ntimeout = 3\n")
        .scenario("scenarios/report.steps", REPORT_STEPS)
        .cache("cache/scenarios/report.steps.toml", REPORT_CACHE)
        .page("index.html", APP)
}

fn replay_with(args: &[&str]) -> Output {
    let mut all = vec!["replay", "--strict"];
    all.extend_from_slice(args);
    report_project().args(&all).run()
}

#[test]
fn an_unknown_reporter_is_a_usage_error_naming_the_valid_ones() {
    Test::new()
        .scenario("scenarios/a.steps", "test: t\n  open the app\n")
        .args(&["replay", "--strict", "--reporter", "xml"])
        .run()
        .assert_exit(2)
        .output_contains(
            "unknown reporter \"xml\": expected one of list, dot, json, junit, html, blob",
        );
}

#[test]
fn a_run_writes_the_junit_json_and_html_reports_it_is_asked_for() {
    let out = replay_with(&[
        "--reporter",
        "junit",
        "--reporter",
        "html",
        "--reporter",
        "json",
        "--output",
        "report",
        "--events",
        "events.jsonl",
    ]);
    let out = assert_one_passed_one_failed(out);
    assert_valid_junit(&out.project_dir().join("report/junit.xml"));
    let junit = out.read("report/junit.xml");
    assert!(
        junit.contains("<testsuite name=\"scenarios/report.steps\" tests=\"2\" failures=\"1\""),
        "{junit}"
    );
    assert!(junit.contains("type=\"failed check\""), "{junit}");
    assert!(junit.contains("✓ 1. open the app (cached, "), "{junit}");
    let events = out.read("events.jsonl");
    assert_eq!(events, out.read("report/events.jsonl"));
    let objects: Vec<serde_json::Value> = events
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| out.fail(&format!("{e}: {l}"))))
        .collect();
    assert_eq!(
        objects.first().map(|o| &o["event"]),
        Some(&"run_started".into())
    );
    assert_eq!(
        objects.last().map(|o| &o["event"]),
        Some(&"run_finished".into())
    );
    let failed = objects
        .iter()
        .find(|o| o["outcome"]["status"] == "failed")
        .unwrap_or_else(|| out.fail("no failed test_finished event"));
    assert!(
        failed["outcome"]["screenshot_png_base64"].is_string(),
        "the failure has no screenshot: {failed}"
    );
    let html = out.read("report/index.html");
    assert!(
        html.contains("<img class=\"screenshot\""),
        "no screenshot in the HTML report"
    );
}

#[test]
fn a_run_says_where_its_reports_went_and_removes_those_an_earlier_run_left() {
    let first = replay_with(&[
        "--reporter",
        "html",
        "--reporter",
        "junit",
        "--output",
        "report",
    ]);
    let first = assert_one_passed_one_failed(first)
        .stdout_line("HTML report: report/index.html (open with `prettyplay show-report report`)")
        .stdout_line("JUnit report: report/junit.xml");
    let own = first.project_dir().join("report/notes.html");
    fs::write(&own, "<title>my notes</title>").expect("write the user's file");
    // A quiet run that writes only JUnit says so, and leaves no HTML report of the first run.
    let second = first
        .again()
        .page("index.html", APP)
        .args(&[
            "replay",
            "--strict",
            "-q",
            "--reporter",
            "junit",
            "--output",
            "report",
        ])
        .run()
        .assert_exit(1)
        .stdout_line("JUnit report: report/junit.xml")
        .output_not_contains("HTML report");
    if second.exists("report/index.html") {
        second.fail("the first run's index.html is still there");
    }
    assert_valid_junit(&second.project_dir().join("report/junit.xml"));
    assert_eq!(second.read("report/notes.html"), "<title>my notes</title>");
}

/// The run of [`REPORT_STEPS`] ended with one test passed and one failed.
fn assert_one_passed_one_failed(out: Output) -> Output {
    out.assert_exit(1)
        .stdout_line("1 passed, 1 failed")
        .stdout_contains("FAIL scenarios/report.steps › the heading says groceries (")
}

#[test]
fn github_actions_gets_an_error_annotation_on_the_failing_step() {
    report_project()
        .env("GITHUB_ACTIONS", "true")
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains(
            "::error file=scenarios/report.steps,line=8,title=scenarios/report.steps › the heading says groceries::step 2 (the heading says \"groceries\") failed: failed check%0A",
        )
        .stdout_line("1 passed, 1 failed");
}

#[test]
fn the_dot_reporter_prints_a_char_per_test_and_the_failure() {
    let out = replay_with(&["--reporter", "dot"]).assert_exit(1);
    let first = out.stdout().lines().next().unwrap_or_default().to_owned();
    let mut chars: Vec<char> = first.chars().collect();
    chars.sort_unstable();
    if chars != ['.', 'F'] {
        out.fail("the first line is not one `.` and one `F`");
    }
    out.stdout_contains("──── FAIL scenarios/report.steps › the heading says groceries")
        .stdout_line("1 passed, 1 failed")
        .output_not_contains("PASS scenarios/report.steps");
}

#[test]
fn the_html_report_shows_its_summary_screenshot_and_filter_in_chromium() {
    let report = replay_with(&["--reporter", "html", "--output", "report"]);
    let report = assert_one_passed_one_failed(report);
    let html = report.read("report/index.html");
    // A second run opens the report, served as a site, and checks it with cached step code.
    Test::new()
        .config("scenarios = \"scenarios\"\ncache_dir = \"cache\"\n\n[browser]\ntimeout = 5\n")
        .scenario("scenarios/check-report.steps", CHECK_STEPS)
        .cache("cache/scenarios/check-report.steps.toml", CHECK_CACHE)
        .page("index.html", &html)
        .args(&["replay", "--strict", "-v"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
}

#[test]
fn the_events_carry_each_tests_phases_after_its_teardown() {
    let out = Test::new()
        .page("index.html", "<title>app</title><h1>app</h1>")
        .scenario(
            "scenarios/a.steps",
            "test: navigates\n  open the app\n\ntest: stays\n  do nothing\n",
        )
        .cached(
            "scenarios/a.steps",
            "navigates",
            "open the app",
            1,
            "async function step(page) {\n  await page.goto('/');\n  await page.reload();\n}",
        )
        .cached(
            "scenarios/a.steps",
            "stays",
            "do nothing",
            1,
            "async function step(page) {}",
        )
        .args(&["replay", "--strict", "-j", "1", "--events", "events.jsonl"])
        .run()
        .assert_exit(0);
    let events: Vec<serde_json::Value> = out
        .read("events.jsonl")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON object per line"))
        .collect();
    let timings: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| e["event"] == "test_timing")
        .collect();
    assert_eq!(timings.len(), 2, "one per test: {timings:#?}");
    for timing in &timings {
        let name = &timing["test"]["name"];
        let at = |kind: &str| {
            events
                .iter()
                .position(|e| e["event"] == kind && e["test"]["name"] == *name)
                .unwrap()
        };
        let this = events.iter().position(|e| e == *timing).unwrap();
        assert!(
            at("step_passed") < this && this < at("test_finished"),
            "{name}"
        );
        assert_eq!(timing["attempt"], 1);
        let ms = |key: &str| {
            timing[key]
                .as_u64()
                .unwrap_or_else(|| panic!("{key}: {timing}"))
        };
        assert!(ms("navigation_ms") <= ms("steps_ms"), "{timing}");
        let _ = (ms("context_ms"), ms("teardown_ms"));
    }
    // The first test of the worker launched its browser; the second reused it.
    assert!(timings[0]["launch_ms"].is_u64(), "{}", timings[0]);
    assert!(timings[1].get("launch_ms").is_none(), "{}", timings[1]);
    // A goto and a reload take time; a test without navigations spends none there.
    let navigation = |i: usize| timings[i]["navigation_ms"].as_u64().unwrap();
    assert_eq!(
        (timings[0]["test"]["name"].as_str(), navigation(1)),
        (Some("navigates"), 0)
    );
    assert!(navigation(0) > 0, "{}", timings[0]);
}
