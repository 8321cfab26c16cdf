//! Stop signals through the real binary, sent to prettyplay's process alone, as `kill`,
//! `docker stop` and a CI runner send them: SIGTERM and SIGHUP stop a run as Ctrl-C does (the
//! partial summary, the reports, exit 143 and 129), during the web server's start too; a second
//! signal of another kind exits at once; and no signal, SIGKILL included, leaves anything of the
//! run behind.
//!
//! The `[web_server]` commands fork, so that the server is not the process that prettyplay
//! started: a shell runs it and waits ([`RUNS_AND_WAITS`]) or starts it in the background
//! ([`STARTS_IN_THE_BACKGROUND`]). The server is `web_server.rs`'s Node.js script. The test's
//! step waits for a word that never comes, and the signal is sent once that step has started.
//! Every run ends with its port free within [`PORT_FREED_WITHIN`] of its exit.

use std::net::{Ipv4Addr, SocketAddrV4, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use crate::runner::{
    EVENTS, MARK_ENV, OPEN, assert_nothing_left, marked_processes, step_started, unique_mark,
    wait_for,
};
use crate::support::{Output, PHASE_LIMIT, Running, Test, free_port, require_browser};

const SERVER: &str = include_str!("support/fixtures/web_server/server.js");
const SCENARIO: &str = "scenarios/app.steps";
/// Waits a minute for a word that never comes, well inside the test timeout.
const STUCK_LONG: &str = "async function step(page) {\n  await expect(page.getByText('never')).toBeVisible({ timeout: 60000 });\n}";

/// The shell starts the server as a child and waits for it (`; echo done` keeps it from
/// running the server in its own place), so the server is not the process prettyplay started.
const RUNS_AND_WAITS: &str = "cd demo && $NODE server.js $PORT; echo done";
/// The shell starts the server in the background and waits for it.
const STARTS_IN_THE_BACKGROUND: &str = "$NODE demo/server.js $PORT & wait";

/// How soon after prettyplay's exit the web server's port must be free again.
const PORT_FREED_WITHIN: Duration = Duration::from_secs(2);

/// A run whose `[web_server]` runs `command` on `port` and whose one test opens the app, then
/// waits in a step that never ends; it writes the list, JSON and JUnit reports.
fn run_serving(port: u16, command: &str, mark: &str) -> Running {
    require_browser();
    let command = command
        .replace("$PORT", &port.to_string())
        .replace("$NODE", "\"${PLAYWRIGHT_NODE_EXE:-node}\"");
    let config = format!(
        "[browser]\ntimeout = 3\n\n[web_server]\ncommand = '{command}'\n\
         url = \"http://127.0.0.1:{port}\"\n"
    );
    let mut run = Test::new()
        .config(&config)
        .write("demo/server.js", SERVER)
        .scenario(
            SCENARIO,
            "test: the app\n  open the app\n  the page says never\n",
        )
        .cached(SCENARIO, "the app", "open the app", 1, OPEN)
        .cached(SCENARIO, "the app", "the page says never", 1, STUCK_LONG)
        .env(MARK_ENV, mark)
        .args(&["replay", "--strict", "--test-timeout", "120"])
        .args(&[
            "--reporter",
            "list",
            "--reporter",
            "json",
            "--reporter",
            "junit",
        ])
        .args(&["--events", EVENTS])
        .spawn();
    // The app opened, so the server is up, and the test now waits in its second step.
    step_started(&mut run, "the app", 2);
    run
}

/// Sends `signal` to the process `pid` alone (not its group).
fn send(pid: u32, signal: libc::c_int) {
    let pid = libc::pid_t::try_from(pid).expect("a pid fits in pid_t");
    assert!(pid > 1, "bad pid {pid}");
    // SAFETY: kill(2) takes plain integers; the process is the test's own run, not yet reaped.
    let sent = unsafe { libc::kill(pid, signal) };
    assert_eq!(sent, 0, "kill({pid}, {signal}) failed");
}

/// Whether something accepts connections on `port` of 127.0.0.1.
fn answers(port: u16) -> bool {
    let addr = SocketAddrV4::new(Ipv4Addr::LOCALHOST, port);
    TcpStream::connect_timeout(&addr.into(), Duration::from_millis(200)).is_ok()
}

/// Fails the test unless `port` is free within [`PORT_FREED_WITHIN`] of now (the run's exit),
/// and unless every process of the run is gone.
fn assert_all_gone(out: &Output, port: u16, mark: &str) {
    let exited = Instant::now();
    while answers(port) {
        if exited.elapsed() > PORT_FREED_WITHIN {
            out.fail(&format!(
                "the web server still answers on port {port} {PORT_FREED_WITHIN:?} after the \
                 run exited"
            ));
        }
        thread::sleep(Duration::from_millis(20));
    }
    eprintln!(
        "port {port} free {:?} after the run exited",
        exited.elapsed()
    );
    assert_nothing_left(out, mark);
}

/// A run stopped by `signal` (130, 143 or 129): the test is reported as interrupted in the
/// summary and in the reports, whose files are complete.
fn assert_stopped_like_ctrl_c(out: Output, code: i32) -> Output {
    let out = out
        .assert_exit(code)
        .stdout_contains("0 passed, 0 failed, 1 interrupted")
        .stdout_contains("INTERRUPTED")
        .stdout_line("interrupted: 0 test(s) did not run");
    let junit = out.read("prettyplay-report/junit.xml");
    assert!(
        junit.contains("interrupted (Ctrl-C, SIGTERM or SIGHUP) before it finished"),
        "{junit}"
    );
    let events = out.read("prettyplay-report/events.jsonl");
    assert!(
        events
            .lines()
            .any(|line| line.contains("\"run_finished\"") && line.contains("\"interrupted\":true")),
        "{events}"
    );
    out
}

#[test]
fn sigterm_stops_the_run_like_ctrl_c_writes_the_reports_and_stops_a_forked_web_server() {
    let port = free_port();
    let mark = unique_mark("signals-term");
    let run = run_serving(port, RUNS_AND_WAITS, &mark);
    send(run.pid(), libc::SIGTERM);
    let out = assert_stopped_like_ctrl_c(run.wait(), 143)
        .stderr_contains("SIGTERM: stopping the running tests");
    assert_all_gone(&out, port, &mark);
}

#[test]
fn sighup_stops_the_run_like_ctrl_c_writes_the_reports_and_stops_a_backgrounded_web_server() {
    let port = free_port();
    let mark = unique_mark("signals-hup");
    let run = run_serving(port, STARTS_IN_THE_BACKGROUND, &mark);
    send(run.pid(), libc::SIGHUP);
    let out = assert_stopped_like_ctrl_c(run.wait(), 129)
        .stderr_contains("SIGHUP: stopping the running tests");
    assert_all_gone(&out, port, &mark);
}

#[test]
fn sigint_sent_to_prettyplay_alone_stops_the_run_and_a_forked_web_server() {
    let port = free_port();
    let mark = unique_mark("signals-int");
    let run = run_serving(port, RUNS_AND_WAITS, &mark);
    send(run.pid(), libc::SIGINT);
    let out = assert_stopped_like_ctrl_c(run.wait(), 130)
        .stderr_contains("press Ctrl-C again to stop at once");
    assert_all_gone(&out, port, &mark);
}

#[test]
fn sigkill_of_prettyplay_leaves_no_web_server_that_ran_and_waits() {
    let port = free_port();
    let mark = unique_mark("signals-kill-waits");
    let run = run_serving(port, RUNS_AND_WAITS, &mark);
    send(run.pid(), libc::SIGKILL);
    let out = run.wait().assert_killed_by(libc::SIGKILL);
    assert_all_gone(&out, port, &mark);
}

#[test]
fn sigkill_of_prettyplay_leaves_no_web_server_started_in_the_background() {
    let port = free_port();
    let mark = unique_mark("signals-kill-background");
    let run = run_serving(port, STARTS_IN_THE_BACKGROUND, &mark);
    send(run.pid(), libc::SIGKILL);
    let out = run.wait().assert_killed_by(libc::SIGKILL);
    assert_all_gone(&out, port, &mark);
}

#[test]
fn a_second_signal_of_another_kind_exits_at_once_with_its_code() {
    let port = free_port();
    let mark = unique_mark("signals-twice");
    // The server ignores SIGTERM, so the graceful stop that the first signal starts would wait
    // out the 5 s grace period.
    let mut run = run_serving(
        port,
        "cd demo && IGNORE_TERM=1 $NODE server.js $PORT; echo done",
        &mark,
    );
    send(run.pid(), libc::SIGTERM);
    // Sent once the first is handled, so that the run is stopping gracefully when it comes.
    run.stderr_match("SIGTERM: stopping the running tests", PHASE_LIMIT);
    send(run.pid(), libc::SIGHUP);
    let signalled = Instant::now();
    let out = run.wait().assert_exit(129);
    if signalled.elapsed() > Duration::from_secs(3) {
        out.fail(&format!(
            "exited {:?} after the second signal",
            signalled.elapsed()
        ));
    }
    assert_all_gone(&out, port, &mark);
}

#[test]
fn sigterm_while_the_web_server_starts_stops_its_group_and_exits_143() {
    require_browser();
    let port = free_port();
    let mark = unique_mark("signals-term-start");
    // The server listens only after two minutes: the run is still waiting for it.
    let command = format!(
        "cd demo && DELAY_MS=120000 \"${{PLAYWRIGHT_NODE_EXE:-node}}\" server.js {port}; echo done"
    );
    let config = format!(
        "[browser]\ntimeout = 3\n\n[web_server]\ncommand = '{command}'\n\
         url = \"http://127.0.0.1:{port}\"\ntimeout = 300\n"
    );
    let run = Test::new()
        .config(&config)
        .write("demo/server.js", SERVER)
        .scenario(SCENARIO, "test: the app\n  open the app\n")
        .cached(SCENARIO, "the app", "open the app", 1, OPEN)
        .env(MARK_ENV, &mark)
        .args(&["replay", "--strict"])
        .spawn();
    let started = wait_for(PHASE_LIMIT, || {
        marked_processes(&mark)
            .iter()
            .any(|(_, cmd)| cmd.contains("server.js"))
    });
    if !started {
        send(run.pid(), libc::SIGKILL);
        run.wait().fail("the web server never started");
    }
    send(run.pid(), libc::SIGTERM);
    let out = run
        .wait()
        .assert_exit(143)
        .stderr_contains("interrupted while starting the web servers");
    assert_nothing_left(&out, &mark);
}
