//! Crashes recover and nothing hangs: the Playwright driver, Chromium or a page's renderer is
//! killed (SIGKILL) while a test waits in a step, through the real binary. The test in flight
//! fails at once as what it is; the remaining tests get a new driver or browser and pass.
//!
//! The suites are [`crate::runner`]'s: one scenario of cached steps against a page served on
//! 127.0.0.1, its processes found by the mark in their environment.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

use crate::runner::{
    CONFIG, EVENTS, MARK_ENV, OPEN, Spec, assert_nothing_left, duration_of, marked_processes,
    names, reported, step_started, suite, unique_mark, wait_for,
};
use crate::support::{PHASE_LIMIT, Running, Test};

/// Waits a minute for a word that never comes: long past any "within seconds" below, and well
/// inside the test timeout, so that neither ends the step for it.
const STUCK_LONG: &str = "async function step(page) {\n  await expect(page.getByText('never')).toBeVisible({ timeout: 60000 });\n}";

/// A suite whose first test waits in [`STUCK_LONG`], then three tests that pass.
fn stuck_first(mark: &str) -> Test {
    let mut specs = vec![Spec::new(
        "stuck",
        &[("open the app", OPEN), ("the page says never", STUCK_LONG)],
    )];
    specs.extend((1..=3).map(|i| Spec::passing(format!("after {i}"))));
    suite(&specs)
        .args(&["replay", "--strict", "-j", "1", "--test-timeout", "120"])
        .args(&["--events", EVENTS])
        .env(MARK_ENV, mark)
}

/// The marked processes of the run and all their descendants (Chromium's zygote and
/// renderers are not dumpable, so their environment cannot be read), as (pid, command line).
fn run_processes(mark: &str) -> Vec<(u32, String)> {
    let mut found = marked_processes(mark);
    let all: Vec<(u32, u32, String)> = fs::read_dir("/proc")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|entry| {
                    let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
                    let stat = fs::read_to_string(entry.path().join("stat")).ok()?;
                    let (_, rest) = stat.rsplit_once(')')?;
                    let ppid: u32 = rest.split_whitespace().nth(1)?.parse().ok()?;
                    let cmdline = fs::read(entry.path().join("cmdline")).ok()?;
                    let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
                    Some((pid, ppid, cmdline))
                })
                .collect()
        })
        .unwrap_or_default();
    loop {
        let known: Vec<u32> = found.iter().map(|(pid, _)| *pid).collect();
        let more: Vec<(u32, String)> = all
            .iter()
            .filter(|(pid, ppid, _)| known.contains(ppid) && !known.contains(pid))
            .map(|(pid, _, cmd)| (*pid, cmd.clone()))
            .collect();
        if more.is_empty() {
            return found;
        }
        found.extend(more);
    }
}

/// The process of the run that `pick` chooses from the marked ones, once the first test has
/// started its stuck step (so the driver and a Chromium with a page are up). Also returns how
/// long the run took to get there: the test's time before the kill is at most that, however
/// slow the machine is.
fn process_to_kill(
    mut run: Running,
    mark: &str,
    pick: impl Fn(&str) -> bool,
) -> (Running, Vec<u32>, Duration) {
    // The caller spawned the run just before this call.
    let spawned = Instant::now();
    step_started(&mut run, "stuck", 2);
    let up = wait_for(PHASE_LIMIT, || {
        let processes = run_processes(mark);
        processes.iter().any(|(_, cmd)| cmd.contains("run-driver"))
            && processes
                .iter()
                .any(|(_, cmd)| cmd.contains("--type=renderer"))
    });
    if !up {
        let processes = run_processes(mark);
        let out = run.wait();
        out.fail(&format!(
            "no driver and renderer once the stuck step started: {processes:?}"
        ));
    }
    let chosen: Vec<u32> = run_processes(mark)
        .into_iter()
        .filter(|(_, cmd)| pick(cmd))
        .map(|(pid, _)| pid)
        .collect();
    assert!(
        !chosen.is_empty(),
        "nothing to kill among {:?}",
        run_processes(mark)
    );
    (run, chosen, spawned.elapsed())
}

fn kill(pid: u32) {
    let pid = libc::pid_t::try_from(pid).expect("a pid fits in pid_t");
    assert!(pid > 1, "bad pid {pid}");
    // SAFETY: kill(2) takes plain integers; the process is one of the run's own.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
    }
}

/// Chromium's main process: the browser, not one of its helpers.
fn is_browser(cmd: &str) -> bool {
    cmd.contains("--remote-debugging-pipe")
}

#[test]
fn a_dead_driver_fails_the_running_test_at_once_and_a_new_one_runs_the_rest() {
    let mark = unique_mark("driver-kill");
    let (run, driver, startup) = process_to_kill(stuck_first(&mark).spawn(), &mark, |cmd| {
        cmd.contains("run-driver")
    });
    for pid in driver {
        kill(pid);
    }
    let out = run
        .wait()
        .assert_exit(3)
        .stdout_line("3 passed, 1 failed")
        .output_contains("the Playwright driver")
        .output_contains("exited unexpectedly")
        .output_contains("1 of the failures came from the infrastructure");
    assert_eq!(reported(&out, "FAIL"), names(&["stuck"]));
    assert_eq!(
        reported(&out, "PASS"),
        names(&["after 1", "after 2", "after 3"])
    );
    // Killed once the test was in a step that waits 60 s: it ended with the driver, within
    // 30 s of the kill.
    let took = duration_of(&out, "FAIL", "stuck");
    assert!(
        took < 30.0 + startup.as_secs_f64(),
        "the test waited {took} s on a dead driver"
    );
    assert_nothing_left(&out, &mark);
}

#[test]
fn a_crashed_browser_fails_the_running_test_and_a_new_one_runs_the_rest() {
    let mark = unique_mark("browser-kill");
    let (run, browser, startup) = process_to_kill(stuck_first(&mark).spawn(), &mark, is_browser);
    for pid in browser {
        kill(pid);
    }
    let out = run
        .wait()
        .assert_exit(3)
        .stdout_line("3 passed, 1 failed")
        .output_contains("browser crashed")
        .output_contains("1 of the failures came from the infrastructure")
        .output_not_contains("could not open a browser page");
    eprintln!("{}\n{}", out.stdout(), out.stderr());
    assert_eq!(reported(&out, "FAIL"), names(&["stuck"]));
    let took = duration_of(&out, "FAIL", "stuck");
    assert!(
        took < 30.0 + startup.as_secs_f64(),
        "the test waited {took} s on a dead browser"
    );
    assert_nothing_left(&out, &mark);
}

#[test]
fn a_browser_that_cannot_be_relaunched_stops_the_run_with_one_message() {
    let mark = unique_mark("relaunch-fails");
    let test = stuck_first(&mark);
    // Starts Chromium once; every later launch fails.
    let wrapper = test.project_dir().join("chromium-once");
    fs::write(
        &wrapper,
        "#!/bin/sh\nif [ -e \"$0.used\" ]; then echo 'no more browsers' >&2; exit 1; fi\n\
         touch \"$0.used\"\nexec /usr/bin/chromium \"$@\"\n",
    )
    .expect("write the wrapper");
    fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).expect("make it executable");
    let test = test.config(&format!(
        "{CONFIG}executable = {:?}\n",
        wrapper.display().to_string()
    ));
    let (run, browser, _) = process_to_kill(test.spawn(), &mark, is_browser);
    for pid in browser {
        kill(pid);
    }
    let out = run
        .wait()
        .assert_exit(3)
        .output_contains("the run stopped: the browser could not be launched 2 times in a row")
        .output_count("the run stopped", 1);
    // The crashed test and the two whose launch failed; the last test never ran.
    assert_eq!(
        reported(&out, "FAIL"),
        names(&["stuck", "after 1", "after 2"])
    );
    out.stdout_line("0 passed, 3 failed")
        .output_contains("1 test(s) did not run");
}

#[test]
fn a_renderer_crash_fails_the_test_as_page_crashed_and_the_rest_pass() {
    let mark = unique_mark("renderer-kill");
    let (run, renderers, startup) = process_to_kill(stuck_first(&mark).spawn(), &mark, |cmd| {
        cmd.contains("--type=renderer")
    });
    for pid in renderers {
        kill(pid);
    }
    let out = run
        .wait()
        // The page's crash can be the app's own defect: a test failure, not infrastructure.
        .assert_exit(1)
        .stdout_line("3 passed, 1 failed")
        .output_contains("page crashed")
        .output_not_contains("came from the infrastructure");
    eprintln!("{}\n{}", out.stdout(), out.stderr());
    assert_eq!(reported(&out, "FAIL"), names(&["stuck"]));
    let took = duration_of(&out, "FAIL", "stuck");
    assert!(
        took < 30.0 + startup.as_secs_f64(),
        "the test waited {took} s on a crashed page"
    );
}

#[test]
fn ctrl_c_stops_a_test_stuck_in_a_step_at_once() {
    let mark = unique_mark("ctrl-c-stuck");
    let (run, _, startup) = process_to_kill(stuck_first(&mark).spawn(), &mark, |cmd| {
        cmd.contains("run-driver")
    });
    crate::runner::interrupt(run.pid());
    let signalled = std::time::Instant::now();
    let out = run.wait().assert_exit(130);
    let exited_after = signalled.elapsed();
    // Stopping closes what starting opened, so it takes no longer than the start did on this
    // machine now; the 15 s are the margin, well short of the step's 60 s wait.
    if exited_after > Duration::from_secs(15) + startup {
        out.fail(&format!("exited {exited_after:?} after Ctrl-C"));
    }
    assert_eq!(reported(&out, "INTERRUPTED"), names(&["stuck"]));
    assert!(reported(&out, "FAIL").is_empty(), "{}", out.stdout());
    let out = out
        .stdout_line("0 passed, 0 failed, 1 interrupted")
        .stdout_line("interrupted: 3 test(s) did not run");
    assert_nothing_left(&out, &mark);
}
