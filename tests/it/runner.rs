//! The runner through the command line: sharding, parallel workers, Ctrl-C, `--last-failed`,
//! `-x`/`--max-failures`, `--tag`, the test timeout, traces and exit codes. The real binary
//! replays cached code in a real headless Chromium against a page served on 127.0.0.1.
//!
//! Every suite is one scenario file, [`SCENARIO`], built by [`suite`] from [`Spec`]s whose steps
//! are all cached. The page ([`PAGE`]) shows a heading at once and the word "done" a second later.

use std::collections::BTreeSet;
use std::fs;
use std::thread;
use std::time::{Duration, Instant};

use crate::support::{Output, PHASE_LIMIT, Running, Test};

pub(crate) const SCENARIO: &str = "scenarios/suite.steps";
pub(crate) const CACHE: &str = "cache/scenarios/suite.steps.toml";
const PAGE: &str = include_str!("support/fixtures/runner/index.html");
/// Short action timeouts, so that a broken step fails fast.
pub(crate) const CONFIG: &str = "[browser]\ntimeout = 3\n";

pub(crate) const OPEN: &str = "async function step(page) {\n  await page.goto('/');\n}";
/// Passes about a second after the page opened (10 s of margin on a loaded machine).
pub(crate) const DONE: &str = "async function step(page) {\n  await expect(page.getByText('done')).toBeVisible({ timeout: 10000 });\n}";
/// Fails after 200 ms: the page never says "never".
pub(crate) const BROKEN: &str = "async function step(page) {\n  await expect(page.getByText('never')).toBeVisible({ timeout: 200 });\n}";
/// Waits 30 s for a word that never comes.
pub(crate) const STUCK: &str = "async function step(page) {\n  await expect(page.getByText('never')).toBeVisible({ timeout: 30000 });\n}";

/// The environment variable that marks the processes of one run (see [`marked_processes`]).
pub(crate) const MARK_ENV: &str = "RUNNER_IT_MARK";

/// The `--events` file of the runs that a test watches while they go (see [`step_started`]).
pub(crate) const EVENTS: &str = "events.jsonl";

/// One test of a suite: its name, its header's tags (`@a @b`), and its steps with their code.
pub(crate) struct Spec {
    name: String,
    tags: &'static str,
    steps: Vec<(&'static str, &'static str)>,
}

impl Spec {
    pub(crate) fn new(name: impl Into<String>, steps: &[(&'static str, &'static str)]) -> Self {
        Self {
            name: name.into(),
            tags: "",
            steps: steps.to_vec(),
        }
    }

    /// Opens the page.
    pub(crate) fn passing(name: impl Into<String>) -> Self {
        Self::new(name, &[("open the app", OPEN)])
    }

    /// Opens the page, then fails its second step.
    fn failing(name: impl Into<String>) -> Self {
        Self::new(
            name,
            &[("open the app", OPEN), ("the page says never", BROKEN)],
        )
    }

    fn tagged(mut self, tags: &'static str) -> Self {
        self.tags = tags;
        self
    }
}

/// `count` passing tests named `t01`, `t02`, ...
pub(crate) fn passing(count: usize) -> Vec<Spec> {
    (1..=count)
        .map(|i| Spec::passing(format!("t{i:02}")))
        .collect()
}

/// A project with [`CONFIG`], [`PAGE`] served as `/` and `specs` in [`SCENARIO`], all cached.
pub(crate) fn suite(specs: &[Spec]) -> Test {
    let mut test = Test::new().config(CONFIG).page("index.html", PAGE);
    let mut scenario = String::new();
    for spec in specs {
        scenario.push_str(&format!("test: {} {}\n", spec.name, spec.tags));
        for (sentence, code) in &spec.steps {
            scenario.push_str(&format!("  {sentence}\n"));
            test = test.cached(SCENARIO, &spec.name, sentence, 1, code);
        }
        scenario.push('\n');
    }
    test.scenario(SCENARIO, &scenario)
}

/// The names of the tests with a `PASS` (or `FAIL`, ...) line in the list report, in order.
pub(crate) fn reported(out: &Output, verdict: &str) -> Vec<String> {
    let prefix = format!("{verdict} {SCENARIO} › ");
    out.stdout()
        .lines()
        .filter_map(|line| line.strip_prefix(&prefix))
        .map(|rest| {
            rest.rsplit_once(" (")
                .map_or(rest, |(name, _)| name)
                .to_owned()
        })
        .collect()
}

/// The duration the list report gives a test, in seconds: `FAIL ... › name (2.13s)`.
pub(crate) fn duration_of(out: &Output, verdict: &str, name: &str) -> f64 {
    let line = out.line_with(&format!("{verdict} {SCENARIO} › {name} ("));
    line.rsplit_once(" (")
        .and_then(|(_, rest)| rest.strip_suffix("s)"))
        .and_then(|secs| secs.parse().ok())
        .unwrap_or_else(|| out.fail(&format!("no duration in {line:?}")))
}

pub(crate) fn names(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| (*n).to_owned()).collect()
}

#[test]
fn shards_split_the_suite_disjointly_completely_and_stably() {
    let specs = passing(7);
    let all: BTreeSet<String> = specs.iter().map(|s| s.name.clone()).collect();
    let run_shard = |shard: &str| {
        let out = suite(&specs)
            .args(&["replay", "--strict", "-j", "2", "--reporter", "list"])
            .args(&["--shard", shard])
            .run()
            .assert_exit(0);
        let ran = reported(&out, "PASS");
        out.stdout_line(&format!("{} passed, 0 failed", ran.len()));
        ran
    };
    for total in 1..=4 {
        // The shards of one split run at once, as on a CI matrix.
        let shards: Vec<Vec<String>> = thread::scope(|scope| {
            let runs: Vec<_> = (1..=total)
                .map(|index| scope.spawn(move || run_shard(&format!("{index}/{total}"))))
                .collect();
            runs.into_iter()
                .map(|run| run.join().expect("a shard's run panicked"))
                .collect()
        });
        let mut union = BTreeSet::new();
        for (index, shard) in shards.iter().enumerate() {
            for name in shard {
                assert!(
                    union.insert(name.clone()),
                    "{name} ran in two of {total} shards (again in shard {}): {shards:?}",
                    index + 1
                );
            }
        }
        assert_eq!(union, all, "{total} shards together: {shards:?}");
        let sizes: Vec<usize> = shards.iter().map(Vec::len).collect();
        let (min, max) = (sizes.iter().min(), sizes.iter().max());
        assert!(
            max.zip(min).is_some_and(|(max, min)| max - min <= 1),
            "{total} shards are unbalanced: {shards:?}"
        );
        if total == 3 {
            for (index, shard) in shards.iter().enumerate() {
                let again = run_shard(&format!("{}/3", index + 1));
                let (first, second): (BTreeSet<_>, BTreeSet<_>) =
                    (shard.iter().collect(), again.iter().collect());
                assert_eq!(first, second, "shard {}/3 changed between runs", index + 1);
            }
        }
    }
}

#[test]
fn two_workers_report_every_test_exactly_once() {
    let specs = passing(20);
    let out = suite(&specs)
        .args(&["replay", "--strict", "-j", "2"])
        .run()
        .assert_exit(0)
        .stdout_line("20 passed, 0 failed");
    let ran = reported(&out, "PASS");
    assert_eq!(ran.len(), 20, "PASS lines: {ran:?}");
    let distinct: BTreeSet<&String> = ran.iter().collect();
    let expected: BTreeSet<&String> = specs.iter().map(|s| &s.name).collect();
    assert_eq!(distinct, expected);
}

#[test]
fn a_browser_per_test_reports_every_test_exactly_once() {
    let specs = passing(4);
    let out = suite(&specs)
        .config(&format!("{CONFIG}isolation = \"browser\"\n"))
        .args(&["replay", "--strict", "-j", "2"])
        .run()
        .assert_exit(0)
        .stdout_line("4 passed, 0 failed");
    let mut ran = reported(&out, "PASS");
    ran.sort();
    assert_eq!(ran, names(&["t01", "t02", "t03", "t04"]));
}

/// Ten tests of about two seconds each: every one opens the page and waits for "done", twice.
fn slow_suite(mark: &str) -> Test {
    let specs: Vec<Spec> = (1..=10)
        .map(|i| {
            Spec::new(
                format!("slow {i:02}"),
                &[
                    ("open the app", OPEN),
                    ("the page says done", DONE),
                    ("open the app again", OPEN),
                    ("the page says done again", DONE),
                ],
            )
        })
        .collect();
    suite(&specs)
        .args(&["replay", "--strict", "-j", "1", "--events", EVENTS])
        .env(MARK_ENV, mark)
}

/// A value for [`MARK_ENV`] that no other run has.
pub(crate) fn unique_mark(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{name}-{}-{nanos}", std::process::id())
}

/// The live processes (pid and command line) whose environment carries `MARK_ENV=mark`: the run,
/// its Playwright driver and the Chromium processes the driver launched. Zombies have no
/// readable environment, so they do not count.
pub(crate) fn marked_processes(mark: &str) -> Vec<(u32, String)> {
    let needle = format!("{MARK_ENV}={mark}");
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let environ = fs::read(entry.path().join("environ")).ok()?;
            environ
                .split(|b| *b == 0)
                .any(|var| var == needle.as_bytes())
                .then(|| {
                    let cmdline = fs::read(entry.path().join("cmdline")).unwrap_or_default();
                    let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
                    (pid, cmdline)
                })
        })
        .collect()
}

/// Fails the test unless every process carrying `mark` is gone within [`PHASE_LIMIT`] of the
/// run's exit. Chromium can take many seconds to shut down on a loaded machine, so the bound is
/// generous; a run that leaves nothing behind returns at once.
pub(crate) fn assert_nothing_left(out: &Output, mark: &str) {
    let gone = wait_for(PHASE_LIMIT, || marked_processes(mark).is_empty());
    if !gone {
        out.fail(&format!(
            "processes of the run still alive {PHASE_LIMIT:?} after it exited: {:?}",
            marked_processes(mark)
        ));
    }
}

/// Waits until the run (started with `--events` [`EVENTS`]) starts step `index` of `test`.
/// The clock starts again with each event the run writes, so a slow machine only makes the
/// wait longer, and a run that stops writing events fails the test after [`PHASE_LIMIT`].
pub(crate) fn step_started(run: &mut Running, test: &str, index: u64) {
    run.event(
        EVENTS,
        &format!("step {index} of {test:?} started"),
        PHASE_LIMIT,
        |event| {
            event["event"] == "step_started"
                && event["test"]["name"] == test
                && event["index"] == index
        },
    );
}

/// Waits until `done` says yes, for at most `limit`; answers whether it did.
pub(crate) fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    while started.elapsed() < limit {
        if done() {
            return true;
        }
        thread::sleep(Duration::from_millis(100));
    }
    done()
}

/// Sends SIGINT to the process group `pgid`, as Ctrl-C in a terminal does.
pub(crate) fn interrupt(pgid: u32) {
    let pgid = libc::pid_t::try_from(pgid).expect("a pid fits in pid_t");
    // Never 0 or 1: kill(0) would hit the test's own group, kill(-1) every process.
    assert!(pgid > 1, "bad process group {pgid}");
    // SAFETY: kill(2) takes plain integers; the group is the run's own (see `Test::spawn`).
    let sent = unsafe { libc::kill(-pgid, libc::SIGINT) };
    assert_eq!(sent, 0, "kill(-{pgid}, SIGINT) failed");
}

/// Starts the slow suite and waits until its first test is under way (it has started its second
/// step, so its Chromium is up); returns the run, the cache file's bytes, the mark, and how long
/// the run took to get there (a measure of how slow the machine is now).
fn slow_run_under_way(name: &str) -> (Running, Vec<u8>, String, Duration) {
    let mark = unique_mark(name);
    let test = slow_suite(&mark);
    let cache_path = test.project_dir().join(CACHE);
    let spawned = Instant::now();
    let mut run = test.spawn();
    let cache = fs::read(&cache_path).expect("the cache file is written before the run starts");
    step_started(&mut run, "slow 01", 2);
    let startup = spawned.elapsed();
    let browser_up = wait_for(PHASE_LIMIT, || {
        let processes = marked_processes(&mark);
        processes.iter().any(|(_, cmd)| cmd.contains("run-driver"))
            && processes.iter().any(|(_, cmd)| cmd.contains("chromium"))
    });
    let processes = marked_processes(&mark);
    if !browser_up {
        interrupt(run.pid());
        interrupt(run.pid());
        let out = run.wait();
        out.fail(&format!(
            "no Playwright driver and Chromium carrying the mark once a test ran: {processes:?}"
        ));
    }
    (run, cache, mark, startup)
}

#[test]
fn ctrl_c_stops_scheduling_reports_what_ran_and_leaves_no_browser() {
    let (run, cache, mark, startup) = slow_run_under_way("ctrl-c-once");
    let pid = run.pid();
    interrupt(pid);
    let signalled = Instant::now();
    let out = run.wait();
    let exited_after = signalled.elapsed();
    let gone = wait_for(PHASE_LIMIT, || marked_processes(&mark).is_empty());
    let left = marked_processes(&mark);
    let out = out.assert_exit(130);
    // Stopping closes what starting opened, so it takes no longer than the start did on this
    // machine now; the 10 s are the margin.
    if exited_after > Duration::from_secs(10) + startup {
        out.fail(&format!("exited {exited_after:?} after Ctrl-C"));
    }
    let (passed, failed) = (reported(&out, "PASS"), reported(&out, "FAIL"));
    let interrupted = reported(&out, "INTERRUPTED");
    let not_run = 10 - passed.len() - failed.len() - interrupted.len();
    assert!(not_run >= 1, "every test ran despite Ctrl-C");
    // The test Ctrl-C stopped between its steps is interrupted, not failed.
    assert!(
        failed.is_empty(),
        "tests counted as failed after Ctrl-C: {failed:?}"
    );
    let totals = if interrupted.is_empty() {
        format!("{} passed, 0 failed", passed.len())
    } else {
        format!(
            "{} passed, 0 failed, {} interrupted",
            passed.len(),
            interrupted.len()
        )
    };
    let out = out
        .stdout_line(&totals)
        .stdout_line(&format!("interrupted: {not_run} test(s) did not run"))
        // A test stopped by Ctrl-C is neither the infrastructure's fault nor a failure to rerun.
        .output_not_contains("came from the infrastructure");
    if !gone {
        out.fail(&format!(
            "processes of the run still alive {PHASE_LIMIT:?} after it exited: {left:?}"
        ));
    }
    assert!(
        fs::read(out.project_dir().join(CACHE)).is_ok_and(|now| now == cache),
        "the cache file changed"
    );
}

#[test]
fn a_second_ctrl_c_exits_at_once_and_leaves_no_browser() {
    let (mut run, cache, mark, _) = slow_run_under_way("ctrl-c-twice");
    let pid = run.pid();
    interrupt(pid);
    // The second Ctrl-C must reach a run that has handled the first: two signals sent before
    // the first is delivered merge into one.
    run.stderr_match("press Ctrl-C again", PHASE_LIMIT);
    interrupt(pid);
    let signalled = Instant::now();
    let out = run.wait();
    let exited_after = signalled.elapsed();
    let gone = wait_for(PHASE_LIMIT, || marked_processes(&mark).is_empty());
    let left = marked_processes(&mark);
    let out = out.assert_exit(130);
    if exited_after > Duration::from_secs(2) {
        out.fail(&format!("exited {exited_after:?} after the second Ctrl-C"));
    }
    if !gone {
        out.fail(&format!(
            "processes of the run still alive {PHASE_LIMIT:?} after it exited: {left:?}"
        ));
    }
    assert!(
        fs::read(out.project_dir().join(CACHE)).is_ok_and(|now| now == cache),
        "the cache file changed"
    );
}

/// `--last-failed` says when its record names tests that no longer exist, and what it runs
/// instead: the recorded failures that still exist, or nothing. The run records how long each
/// test took, for the next run's ETA.
#[test]
fn last_failed_says_which_recorded_failures_no_longer_exist_and_what_runs() {
    const LAST_RUN: &str = ".prettyplay/last-run.json";
    let record = |names: &[&str]| {
        let failed: Vec<serde_json::Value> = names
            .iter()
            .map(|name| serde_json::json!({"scenario": SCENARIO, "test": name}))
            .collect();
        serde_json::json!({"version": 1, "failed": failed}).to_string()
    };
    let specs = [Spec::passing("kept"), Spec::passing("other")];
    let out = suite(&specs)
        .write(LAST_RUN, &record(&["kept", "renamed"]))
        .args(&["replay", "--strict", "-j", "1", "--last-failed"])
        .run()
        .assert_exit(0)
        .stderr_contains(&format!(
            "note: --last-failed: 1 test(s) that failed in the previous run no longer exist \
             ({SCENARIO} › renamed); running the 1 test that failed and still exists"
        ))
        .stdout_line("1 passed, 0 failed");
    assert_eq!(reported(&out, "PASS"), names(&["kept"]));
    let written: serde_json::Value = serde_json::from_str(&out.read(LAST_RUN)).unwrap();
    assert_eq!(written["durations"][0]["test"], "kept", "{written}");
    assert!(
        written["durations"][0]["ms"].as_u64().is_some(),
        "{written}"
    );

    suite(&specs)
        .write(LAST_RUN, &record(&["renamed", "gone"]))
        .args(&["replay", "--strict", "-j", "1", "--last-failed"])
        .run()
        .assert_exit(2)
        .stderr_contains(&format!(
            "error: --last-failed: 2 test(s) that failed in the previous run no longer exist \
             ({SCENARIO} › renamed, {SCENARIO} › gone); so nothing runs; run without \
             --last-failed to run the tests as they are now"
        ))
        .output_not_contains("Running ");
}

#[test]
fn last_failed_reruns_the_failures_until_none_is_left() {
    const LAST_RUN: &str = ".prettyplay/last-run.json";
    let broken = [
        Spec::passing("first"),
        Spec::failing("flaky"),
        Spec::passing("last"),
    ];
    let fixed = [
        Spec::passing("first"),
        Spec::new(
            "flaky",
            &[("open the app", OPEN), ("the page says never", DONE)],
        ),
        Spec::passing("last"),
    ];
    let all = suite(&broken)
        .args(&["replay", "--strict", "-j", "1"])
        .run()
        .assert_exit(1)
        .stdout_line("2 passed, 1 failed");
    assert_eq!(reported(&all, "FAIL"), names(&["flaky"]));

    let again = suite(&broken)
        .write(LAST_RUN, &all.read(LAST_RUN))
        .args(&["replay", "--strict", "-j", "1", "--last-failed"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 1 failed");
    assert_eq!(reported(&again, "FAIL"), names(&["flaky"]));
    assert!(reported(&again, "PASS").is_empty(), "{}", again.stdout());

    let healed = suite(&fixed)
        .write(LAST_RUN, &again.read(LAST_RUN))
        .args(&["replay", "--strict", "-j", "1", "--last-failed"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    assert_eq!(reported(&healed, "PASS"), names(&["flaky"]));

    let nothing = suite(&fixed)
        .write(LAST_RUN, &healed.read(LAST_RUN))
        .args(&["replay", "--strict", "-j", "1", "--last-failed"])
        .run()
        .assert_exit(0)
        .output_contains("nothing to run");
    assert!(
        reported(&nothing, "PASS").is_empty() && reported(&nothing, "FAIL").is_empty(),
        "{}",
        nothing.stdout()
    );
}

#[test]
fn exit_first_and_max_failures_stop_scheduling() {
    let specs: Vec<Spec> = (1..=5).map(|i| Spec::failing(format!("f{i}"))).collect();
    let first = suite(&specs)
        .args(&["replay", "--strict", "-j", "1", "-x"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 1 failed")
        .stdout_line("4 test(s) did not run");
    assert_eq!(reported(&first, "FAIL"), names(&["f1"]));

    let two = suite(&specs)
        .args(&["replay", "--strict", "-j", "1", "--max-failures", "2"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 2 failed")
        .stdout_line("3 test(s) did not run");
    assert_eq!(reported(&two, "FAIL"), names(&["f1", "f2"]));
}

#[test]
fn tag_selects_the_tagged_tests_only() {
    let specs = [
        Spec::passing("tagged one").tagged("@smoke"),
        Spec::passing("untagged"),
        Spec::passing("other tag").tagged("@slow"),
        Spec::passing("tagged two").tagged("@slow @smoke"),
    ];
    let out = suite(&specs)
        .args(&["replay", "--strict", "-j", "1", "--tag", "smoke"])
        .run()
        .assert_exit(0)
        .stdout_line("2 passed, 0 failed")
        .output_not_contains("untagged")
        .output_not_contains("other tag");
    assert_eq!(reported(&out, "PASS"), names(&["tagged one", "tagged two"]));
}

#[test]
fn a_test_past_its_timeout_fails_naming_it_and_the_step_and_the_next_test_runs() {
    let specs = [
        Spec::new(
            "stuck",
            &[("open the app", OPEN), ("wait for the word never", STUCK)],
        ),
        Spec::passing("after"),
    ];
    let out = suite(&specs)
        // 4 s: opening the page fits in it on a loaded machine too, so the timeout always
        // strikes during the stuck step.
        .config(&format!("{CONFIG}\n[run]\ntest_timeout = 4\n"))
        .args(&["replay", "--strict", "-j", "1"])
        .run()
        .assert_exit(1)
        .stdout_line("1 passed, 1 failed")
        .output_matches(r"(?i)test timeout[^\n]*\b4(\.0+)?\s?s")
        .output_contains("wait for the word never");
    assert_eq!(reported(&out, "FAIL"), names(&["stuck"]));
    assert_eq!(reported(&out, "PASS"), names(&["after"]));
    // Four seconds and the time to close its page; well short of the step's own 30 s (the upper
    // bound leaves room for a loaded machine).
    let took = duration_of(&out, "FAIL", "stuck");
    if !(3.9..=20.0).contains(&took) {
        out.fail(&format!("the timed-out test took {took}s, not 4 to 20 s"));
    }
    // Closing the page under a failing expectation must not panic a runtime thread (the panic
    // and its backtrace reach the user's terminal).
    out.output_not_contains("panicked");
}

/// The trace zips under `report/traces/`, by file name; each checked to be a zip.
fn traces(out: &Output) -> Vec<String> {
    let dir = out.project_dir().join("report").join("traces");
    let Ok(entries) = fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|entry| {
            let bytes = fs::read(entry.path()).unwrap_or_default();
            let name = entry.file_name().to_string_lossy().into_owned();
            if !bytes.starts_with(b"PK") {
                out.fail(&format!("trace {name} is not a zip"));
            }
            name
        })
        .collect();
    names.sort();
    names
}

#[test]
fn traces_are_zips_per_test_and_retain_on_failure_keeps_the_failures_only() {
    let specs = [Spec::passing("fine"), Spec::failing("broken")];
    let on = suite(&specs)
        .args(&["replay", "--strict", "-j", "1"])
        .args(&["--trace", "on", "--output", "report"])
        .run()
        .assert_exit(1)
        .stdout_line("1 passed, 1 failed")
        .stdout_line("Traces: 2 in report/traces/ (open one with `prettyplay show-trace FILE`)");
    let all = traces(&on);
    assert_eq!(all.len(), 2, "one trace per test: {all:?}");
    assert!(
        all.iter().any(|n| n.contains("fine")) && all.iter().any(|n| n.contains("broken")),
        "{all:?}"
    );

    let retained = suite(&specs)
        .args(&["replay", "--strict", "-j", "1"])
        .args(&["--trace", "retain-on-failure", "--output", "report"])
        .run()
        .assert_exit(1)
        .stdout_line("1 passed, 1 failed");
    let kept = traces(&retained);
    assert!(
        kept.len() == 1 && kept[0].contains("broken"),
        "only the failing test's trace: {kept:?}"
    );
    // Said at the end of the run with the command that opens it (the name needs no quotes).
    let trace = format!("report/traces/{}", kept[0]);
    retained.stdout_line(&format!(
        "Trace: {trace} (open with `prettyplay show-trace {trace}`)"
    ));
}

#[test]
fn exit_code_is_0_when_all_pass_and_1_when_one_fails() {
    suite(&passing(2))
        .args(&["replay", "--strict", "-j", "2"])
        .run()
        .assert_exit(0)
        .stdout_line("2 passed, 0 failed");
    suite(&[Spec::passing("fine"), Spec::failing("broken")])
        .args(&["replay", "--strict", "-j", "2"])
        .run()
        .assert_exit(1)
        .stdout_line("1 passed, 1 failed");
}

#[test]
fn debug_announces_each_step_before_it_runs_with_one_worker_and_slow_motion() {
    let test = suite(&passing(2)).args(&["replay", "--strict", "--debug"]);
    // --debug shows the browser; this machine has no display, so the wrapper keeps Chromium
    // headless underneath (the flag still reaches Chromium without Playwright's --headless).
    let wrapper = test.project_dir().join("chromium-headless");
    fs::write(
        &wrapper,
        "#!/bin/sh\nexec /usr/bin/chromium --headless \"$@\"\n",
    )
    .expect("write the wrapper");
    let executable = <fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755);
    fs::set_permissions(&wrapper, executable).expect("make it executable");
    let out = test
        .config(&format!(
            "{CONFIG}executable = {:?}\n",
            wrapper.display().to_string()
        ))
        .run()
        .assert_exit(0)
        .stdout_line("2 passed, 0 failed")
        .stderr_contains(&format!(
            "▶ {SCENARIO} › t01 › step 1: open the app (line 2)"
        ))
        .stderr_contains(&format!(
            "▶ {SCENARIO} › t02 › step 1: open the app (line 5)"
        ));
    // Verbose: every step is shown when it ends.
    let out = out.stdout_contains("✓ 1. open the app");
    // One worker: t01 finishes before t02 starts.
    let stderr = out.stderr();
    let first = stderr.find("› t01 ›").expect("t01 announced");
    let second = stderr.find("› t02 ›").expect("t02 announced");
    assert!(first < second, "{stderr}");
    let stdout = out.stdout();
    let t01_done = stdout
        .find("PASS scenarios/suite.steps › t01")
        .expect("t01 passed");
    let t02_done = stdout
        .find("PASS scenarios/suite.steps › t02")
        .expect("t02 passed");
    assert!(t01_done < t02_done, "{stdout}");
    // Slow motion: the driver waits 0.5 s before the goto, so no test can take less.
    for name in ["t01", "t02"] {
        let took = duration_of(&out, "PASS", name);
        assert!(
            took >= 0.5,
            "{name} took {took} s despite --debug's slow motion"
        );
    }
}
