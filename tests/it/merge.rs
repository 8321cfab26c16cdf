//! `--reporter blob` and `prettyplay merge-reports`: one suite with passing and failing tests
//! run as three shards writing blobs (real binary, real headless Chromium, a page on
//! 127.0.0.1), merged into one HTML and one JUnit report whose tests equal those of the same
//! suite run unsharded; and the blobs merge-reports refuses (the same test twice, another
//! format version, a file that is no blob, a cut line, no blobs, attachments that are links out
//! of the blob's directory, FIFOs or too big), each with exit 2.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::sync::OnceLock;
use std::thread;

use crate::reports::assert_valid_junit;
use crate::runner::{BROKEN, OPEN, Spec, suite};
use crate::support::{Output, Test};

/// Four passing tests and two failing ones (their failed step leaves a screenshot).
fn specs() -> Vec<Spec> {
    let mut specs: Vec<Spec> = (1..=4)
        .map(|i| Spec::passing(format!("pass {i}")))
        .collect();
    for i in 1..=2 {
        specs.push(Spec::new(
            format!("fail {i}"),
            &[("open the app", OPEN), ("the page says never", BROKEN)],
        ));
    }
    specs
}

/// The three shard runs (`--shard K/3 --reporter blob`) and the unsharded run (JUnit), made
/// once for every test of this file.
struct Runs {
    shards: Vec<Output>,
    whole: Output,
}

fn runs() -> &'static Runs {
    static RUNS: OnceLock<Runs> = OnceLock::new();
    RUNS.get_or_init(|| {
        let run = |args: &[&str]| {
            suite(&specs())
                .args(&["replay", "--strict", "-j", "1"])
                .args(args)
                .run()
        };
        thread::scope(|scope| {
            let shards: Vec<_> = (1..=3)
                .map(|k| {
                    scope.spawn(move || run(&["--shard", &format!("{k}/3"), "--reporter", "blob"]))
                })
                .collect();
            let whole = scope.spawn(|| run(&["--reporter", "junit", "--reporter", "html"]));
            Runs {
                shards: shards
                    .into_iter()
                    .map(|s| s.join().expect("a shard's run panicked"))
                    .collect(),
                whole: whole.join().expect("the unsharded run panicked"),
            }
        })
    })
}

/// Copies the directory `from` to `to`, recursively.
pub(crate) fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A project without `prettyplay.toml` holding the blob directory of each shard in `shards`
/// (1-based) under `blobs/shard-K/`, as a CI merge job downloads the artifacts.
fn merge_project(shards: &[usize]) -> Test {
    let test = Test::new().no_config();
    for &k in shards {
        let out = &runs().shards[k - 1];
        copy_dir(
            &out.project_dir().join("prettyplay-report/blob"),
            &test.project_dir().join(format!("blobs/shard-{k}")),
        );
    }
    test
}

/// Each testcase of a JUnit report: its name, and `failed` or `passed`.
fn testcases(xml: &str) -> BTreeMap<String, &'static str> {
    xml.split("<testcase ")
        .skip(1)
        .map(|case| {
            let name = case
                .split_once(" name=\"")
                .and_then(|(_, rest)| rest.split_once('"'))
                .map(|(name, _)| name.to_owned())
                .unwrap_or_default();
            let body = case.split("</testcase>").next().unwrap_or_default();
            let status = if body.contains("<failure") {
                "failed"
            } else {
                "passed"
            };
            (name, status)
        })
        .collect()
}

#[test]
fn three_shard_blobs_merge_into_the_reports_of_the_unsharded_run() {
    let runs = runs();
    for (k, shard) in runs.shards.iter().enumerate() {
        let blob = format!("prettyplay-report/blob/report-{}-of-3.jsonl", k + 1);
        assert!(shard.exists(&blob), "shard {} wrote no {blob}", k + 1);
        let header = shard.read(&blob);
        let header: serde_json::Value =
            serde_json::from_str(header.lines().next().unwrap()).unwrap();
        assert_eq!(header["format"], "prettyplay-blob");
        assert_eq!(header["shard"], format!("{}/3", k + 1));
    }
    let whole = &runs.whole;
    assert_eq!(whole.status_code(), Some(1), "{}", whole.stdout());
    let out = merge_project(&[1, 2, 3])
        .args(&[
            "merge-reports",
            "blobs",
            "--reporter",
            "html",
            "--reporter",
            "junit",
            "--output-dir",
            "merged",
        ])
        .run()
        .assert_exit(1)
        .stdout_line("Running 6 tests")
        .stdout_line("4 passed, 2 failed");

    let merged_junit = out.project_dir().join("merged/junit.xml");
    assert_valid_junit(&merged_junit);
    let merged = testcases(&out.read("merged/junit.xml"));
    let single = testcases(&whole.read("prettyplay-report/junit.xml"));
    assert_eq!(merged.len(), 6, "{merged:?}");
    assert_eq!(merged, single, "the merged test set is the unsharded run's");

    let html = out.read("merged/index.html");
    assert_eq!(
        html.matches("<img class=\"screenshot\"").count(),
        2,
        "a screenshot per failed test, read from the blobs' files"
    );
    // The merged HTML lists the tests by file and line, as the unsharded one.
    let order = |html: &str| -> Vec<usize> {
        ["pass 1", "pass 2", "pass 3", "pass 4", "fail 1", "fail 2"]
            .iter()
            .map(|name| html.find(&format!(">{name}<")).unwrap_or(usize::MAX))
            .collect()
    };
    let merged_order = order(&html);
    assert!(
        merged_order.windows(2).all(|w| w[0] < w[1]),
        "{merged_order:?}"
    );
}

#[test]
fn the_same_test_in_two_blobs_is_refused_with_exit_2() {
    let test = merge_project(&[1]);
    copy_dir(
        &test.project_dir().join("blobs/shard-1"),
        &test.project_dir().join("blobs/again"),
    );
    test.args(&["merge-reports", "blobs", "--reporter", "junit"])
        .run()
        .assert_exit(2)
        .output_contains("is in two blobs")
        .output_contains("report-1-of-3.jsonl:")
        .output_not_contains("passed, ");
}

#[test]
fn a_blob_of_another_format_version_is_refused_with_exit_2() {
    let test = merge_project(&[1, 2]);
    let path = test.project_dir().join("blobs/shard-2/report-2-of-3.jsonl");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replacen("\"version\":1,", "\"version\":99,", 1)).unwrap();
    test.args(&["merge-reports", "blobs"])
        .run()
        .assert_exit(2)
        .output_contains("report-2-of-3.jsonl:1: a report blob of format version 99");
}

#[test]
fn a_shard_without_its_blob_is_warned_about_and_the_others_merge() {
    // Shard 1/3 has tests 1 and 4 of the suite: `pass 1` and `pass 4`.
    merge_project(&[1])
        .args(&["merge-reports", "blobs"])
        .run()
        .assert_exit(0)
        .stdout_line("2 passed, 0 failed")
        .stderr_contains("WARNING: no blob of shard 2/3: its tests are not in the merged report")
        .stderr_contains("WARNING: no blob of shard 3/3");
}

/// Refusals that need no shard run: no blobs, an events file, a cut last line.
#[test]
fn no_blobs_an_events_file_and_a_truncated_blob_are_refused_with_exit_2() {
    let empty = Test::new().no_config();
    fs::create_dir_all(empty.project_dir().join("blobs")).unwrap();
    empty
        .args(&["merge-reports", "blobs"])
        .run()
        .assert_exit(2)
        .output_contains("no report blobs (*.jsonl) in ");

    Test::new()
        .no_config()
        .write(
            "blobs/events.jsonl",
            "{\"version\":1,\"event\":\"run_started\",\"tests\":1}\n",
        )
        .args(&["merge-reports", "blobs"])
        .run()
        .assert_exit(2)
        .output_contains("events.jsonl:1: not a prettyplay report blob");

    let header = "{\"format\":\"prettyplay-blob\",\"version\":1,\"prettyplay\":\"0.1.0\",\
        \"events_version\":1,\"shard\":\"1/2\",\"started_at\":\"2026-01-01T00:00:00Z\",\
        \"paths\":\"project\",\"setups\":[]}\n";
    Test::new()
        .no_config()
        .write(
            "blobs/report-1-of-2.jsonl",
            &format!("{header}{{\"version\":1,\"event\":\"run_started\",\"tests\":1}}\n{{\"version\":1,\"event\":\"test_sta"),
        )
        .args(&["merge-reports", "blobs"])
        .run()
        .assert_exit(2)
        .output_contains("report-1-of-2.jsonl:3: the blob is truncated");
}

/// A step whose failure message shows the secret it looks for.
const SECRET_CHECK: &str = "async function step(page) {\n  await expect(page.getByText(vars.PASSWORD)).toBeVisible({ timeout: 200 });\n}";

#[test]
fn a_blob_holds_the_events_files_lines_masked_the_same_with_the_screenshot_beside_it() {
    let out = suite(&[Spec::new(
        "secret",
        &[
            ("open the app", OPEN),
            ("the page says ${PASSWORD}", SECRET_CHECK),
        ],
    )])
    .env("PASSWORD", "hunter22")
    .args(&[
        "replay",
        "--strict",
        "--reporter",
        "blob",
        "--events",
        "events.jsonl",
    ])
    .run()
    .assert_exit(1);
    let blob = out.read("prettyplay-report/blob/report.jsonl");
    let events = out.read("events.jsonl");
    assert!(!blob.contains("hunter22"), "{blob}");
    assert!(blob.contains("getByText('***')"), "{blob}");
    let strip = |line: &str| {
        let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Some(outcome) = value.get_mut("outcome").and_then(|o| o.as_object_mut()) {
            outcome.remove("screenshot");
            outcome.remove("screenshot_png_base64");
        }
        value
    };
    let blob_lines: Vec<_> = blob.lines().skip(1).map(strip).collect();
    let event_lines: Vec<_> = events.lines().map(strip).collect();
    assert_eq!(blob_lines, event_lines);
    assert!(
        blob.contains("\"screenshot\":\"report/screenshots/1.png\""),
        "{blob}"
    );
    assert!(out.exists("prettyplay-report/blob/report/screenshots/1.png"));
}

/// The test of [`handmade_blob`], as the wire writes a test.
const TEST_ID: &str = r#"{"scenario":"scenarios/a.steps","name":"a","line":1}"#;

/// A project without `prettyplay.toml` holding `blobs/report.jsonl`, a blob written by hand of
/// one failed test whose screenshot is `report/screenshots/1.png` and whose trace is
/// `report/traces/a.zip` (written as regular files, for a test to replace), so that the
/// attachments can be tampered with without a browser run.
fn handmade_blob() -> Test {
    let header = "{\"format\":\"prettyplay-blob\",\"version\":1,\"prettyplay\":\"0.1.0\",\
        \"events_version\":1,\"shard\":null,\"started_at\":\"2026-01-01T00:00:00Z\",\
        \"paths\":\"project\",\"setups\":[]}";
    let failure = "{\"status\":\"failed\",\"step\":\"the page says hi\",\"step_index\":1,\
        \"line\":2,\"cause\":{\"type\":\"step\",\"kind\":\"failed_check\",\"message\":\"no hi\",\
        \"code_line\":null},\"code\":null,\"verdict\":null,\
        \"screenshot\":\"report/screenshots/1.png\"}";
    let stats = "{\"passed\":0,\"failed\":1,\"flaky\":0,\"infrastructure_failures\":0,\
        \"not_run\":0,\"interrupted\":false,\"duration_ms\":5,\"cached_steps\":0,\
        \"generated_steps\":0,\"healed_steps\":0,\"llm_requests\":0,\"tokens_in\":0,\
        \"tokens_in_cached\":0,\"tokens_out\":0,\"llm_wait_ms\":0}";
    let lines = [
        header.to_owned(),
        r#"{"version":1,"event":"run_started","tests":1}"#.to_owned(),
        format!(r#"{{"version":1,"event":"test_started","test":{TEST_ID}}}"#),
        format!(
            r#"{{"version":1,"event":"trace_written","test":{TEST_ID},"path":"report/traces/a.zip"}}"#
        ),
        format!(
            r#"{{"version":1,"event":"test_finished","test":{TEST_ID},"outcome":{failure},"duration_ms":5}}"#
        ),
        format!(r#"{{"version":1,"event":"run_finished","stats":{stats}}}"#),
    ];
    Test::new()
        .no_config()
        .write("blobs/report.jsonl", &(lines.join("\n") + "\n"))
        .write("blobs/report/screenshots/1.png", "PNG of the page")
        .write("blobs/report/traces/a.zip", "zip of the trace")
        // A file of the merging job's machine that a blob must not publish.
        .write("outside/secret.txt", "the CI machine's secret")
}

/// The blob's line that names the trace, and the one that names the screenshot.
const TRACE_LINE: &str = "report.jsonl:4:";
const SCREENSHOT_LINE: &str = "report.jsonl:5:";

/// Replaces `path` (relative to the project) with a symbolic link to `target`.
fn link(test: &Test, path: &str, target: &Path) {
    let path = test.project_dir().join(path);
    fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink(target, path).unwrap();
}

/// `merge-reports blobs` with the HTML, JSON and JUnit reports, into `merged/`.
fn merge(test: Test) -> Output {
    test.args(&[
        "merge-reports",
        "blobs",
        "--reporter",
        "html",
        "--reporter",
        "json",
        "--reporter",
        "junit",
        "--output-dir",
        "merged",
    ])
    .run()
}

/// Nothing of the file outside the blobs is in what the merge wrote, if it wrote anything.
fn assert_nothing_published(out: &Output) {
    let secret = "the CI machine's secret";
    let encoded = base64_of(secret.as_bytes());
    let merged = out.project_dir().join("merged");
    if !merged.exists() {
        return;
    }
    for entry in walkdir::WalkDir::new(merged) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let bytes = fs::read(entry.path()).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            assert!(
                !text.contains(secret) && !text.contains(&encoded),
                "{} holds the outside file",
                entry.path().display()
            );
        }
    }
}

/// Standard base64, for the screenshot the HTML report would embed.
fn base64_of(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

#[test]
fn a_handmade_blob_merges_with_its_screenshot_and_trace() {
    let out = merge(handmade_blob())
        .assert_exit(1)
        .stdout_line("0 passed, 1 failed");
    assert!(
        out.read("merged/index.html")
            .contains(&base64_of(b"PNG of the page"))
    );
    assert_eq!(out.read("merged/traces/a.zip"), "zip of the trace");
}

#[test]
fn a_blob_screenshot_linked_to_dev_zero_is_refused_without_reading_it() {
    let test = handmade_blob();
    link(
        &test,
        "blobs/report/screenshots/1.png",
        Path::new("/dev/zero"),
    );
    let out = merge(test)
        .assert_exit(2)
        .output_contains(SCREENSHOT_LINE)
        .output_contains("report/screenshots/1.png is a symbolic link that leads outside the blob's directory (to /dev/zero)");
    assert!(!out.exists("merged/index.html"));
}

#[test]
fn blob_attachments_linked_outside_the_blob_directory_are_neither_copied_nor_embedded() {
    let screenshot = handmade_blob();
    let secret = screenshot.project_dir().join("outside/secret.txt");
    link(&screenshot, "blobs/report/screenshots/1.png", &secret);
    let out = merge(screenshot)
        .assert_exit(2)
        .output_contains(SCREENSHOT_LINE)
        .output_contains("leads outside the blob's directory");
    assert_nothing_published(&out);

    let trace = handmade_blob();
    let secret = trace.project_dir().join("outside/secret.txt");
    link(&trace, "blobs/report/traces/a.zip", &secret);
    let out = merge(trace)
        .assert_exit(2)
        .output_contains(TRACE_LINE)
        .output_contains("report/traces/a.zip is a symbolic link that leads outside");
    assert_nothing_published(&out);

    // A linked directory on the way is followed to where it leads, and refused the same.
    let directory = handmade_blob();
    let project = directory.project_dir();
    fs::remove_dir_all(project.join("blobs/report/traces")).unwrap();
    fs::write(project.join("outside/a.zip"), "the CI machine's secret").unwrap();
    std::os::unix::fs::symlink(project.join("outside"), project.join("blobs/report/traces"))
        .unwrap();
    let out = merge(directory)
        .assert_exit(2)
        .output_contains(TRACE_LINE)
        .output_contains("leads outside the blob's directory");
    assert_nothing_published(&out);
}

#[test]
fn a_blob_trace_that_is_a_fifo_is_refused_without_blocking() {
    let test = handmade_blob();
    let trace = test.project_dir().join("blobs/report/traces/a.zip");
    fs::remove_file(&trace).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&trace)
        .status()
        .unwrap();
    assert!(made.success());
    merge(test)
        .assert_exit(2)
        .output_contains(&format!(
            "{TRACE_LINE} cannot copy the trace {}",
            fs::canonicalize(&trace).unwrap().display()
        ))
        .output_contains("it is a FIFO (named pipe), not a regular file: traces in report blobs must be regular files");
}

#[test]
fn oversized_blob_attachments_are_refused_before_they_are_read() {
    // Sparse files: their size is what counts, and they take no disk.
    let screenshot = handmade_blob();
    let file = fs::File::create(
        screenshot
            .project_dir()
            .join("blobs/report/screenshots/1.png"),
    )
    .unwrap();
    file.set_len(64 * 1024 * 1024 + 1).unwrap();
    merge(screenshot)
        .assert_exit(2)
        .output_contains(SCREENSHOT_LINE)
        .output_contains("it is 67108865 bytes, over the limit of 67108864 bytes (64 MiB) for screenshots in report blobs");

    let trace = handmade_blob();
    let file = fs::File::create(trace.project_dir().join("blobs/report/traces/a.zip")).unwrap();
    file.set_len(1024 * 1024 * 1024 + 1).unwrap();
    let out = merge(trace)
        .assert_exit(2)
        .output_contains(TRACE_LINE)
        .output_contains(
            "over the limit of 1073741824 bytes (1024 MiB) for traces in report blobs",
        );
    assert!(!out.exists("merged/traces/a.zip"));
}

#[test]
fn a_blob_that_is_a_link_or_a_fifo_in_the_blob_directory_is_refused_by_name() {
    // A second blob, outside the artifact, that a link in it leads to.
    let test = handmade_blob();
    let project = test.project_dir();
    fs::copy(
        project.join("blobs/report.jsonl"),
        project.join("outside/other.jsonl"),
    )
    .unwrap();
    std::os::unix::fs::symlink(
        project.join("outside/other.jsonl"),
        project.join("blobs/other.jsonl"),
    )
    .unwrap();
    let out = merge(test)
        .assert_exit(2)
        .output_contains("cannot read ")
        .output_contains("blobs/other.jsonl\n  caused by: it is a symbolic link, not a regular file: report blobs must be regular files, not links to them");
    assert!(!out.exists("merged/index.html"));

    // A FIFO is refused without blocking, found in the directory or named.
    let test = handmade_blob();
    let fifo = test.project_dir().join("blobs/pipe.jsonl");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let out = merge(test)
        .assert_exit(2)
        .output_contains("blobs/pipe.jsonl\n  caused by: it is a FIFO (named pipe), not a regular file: report blobs must be regular files");
    assert!(!out.exists("merged/index.html"));
    out.again()
        .args(&["merge-reports", "blobs/pipe.jsonl"])
        .run()
        .assert_exit(2)
        .output_contains(
            "blobs/pipe.jsonl\n  caused by: it is a FIFO (named pipe), not a regular file",
        );
}

#[test]
fn a_blob_that_names_one_screenshot_many_times_is_refused_past_the_merges_bound() {
    // 17 failed tests, each naming the same 64 MiB screenshot (sparse, so it takes no disk):
    // 1088 MiB in all, over the 1024 MiB a merge holds, from a blob of a few kilobytes.
    let header = "{\"format\":\"prettyplay-blob\",\"version\":1,\"prettyplay\":\"0.1.0\",\
        \"events_version\":1,\"shard\":null,\"started_at\":\"2026-01-01T00:00:00Z\",\
        \"paths\":\"project\",\"setups\":[]}";
    let failure = "{\"status\":\"failed\",\"step\":\"s\",\"step_index\":1,\"line\":2,\
        \"cause\":{\"type\":\"step\",\"kind\":\"failed_check\",\"message\":\"no\",\
        \"code_line\":null},\"code\":null,\"verdict\":null,\
        \"screenshot\":\"report/screenshots/1.png\"}";
    let mut lines = vec![
        header.to_owned(),
        r#"{"version":1,"event":"run_started","tests":17}"#.to_owned(),
    ];
    for n in 1..=17 {
        let test = format!(r#"{{"scenario":"scenarios/a.steps","name":"t{n}","line":{n}}}"#);
        lines.push(format!(
            r#"{{"version":1,"event":"test_started","test":{test}}}"#
        ));
        lines.push(format!(
            r#"{{"version":1,"event":"test_finished","test":{test},"outcome":{failure},"duration_ms":5}}"#
        ));
    }
    let test = Test::new()
        .no_config()
        .write("blobs/report.jsonl", &(lines.join("\n") + "\n"));
    let screenshots = test.project_dir().join("blobs/report/screenshots");
    fs::create_dir_all(&screenshots).unwrap();
    let png = fs::File::create(screenshots.join("1.png")).unwrap();
    png.set_len(64 * 1024 * 1024).unwrap();
    // The 17th test's `test_finished` is line 2 + 2 * 17.
    let out = merge(test)
        .assert_exit(2)
        .output_contains("report.jsonl:36: the screenshots the blobs name add up to more than 1024 MiB, the most merge-reports holds");
    assert!(!out.exists("merged/index.html"));
}
