//! `[web_server]` through the command line: a server started from the config before the first
//! test and stopped with its whole process group after the run, after Ctrl-C (during its start
//! and during a test) and after a second Ctrl-C; an answering URL reused (or refused with
//! `CI` set); a server that never answers or exits early failing the run with exit 3 and its
//! last output; `list` starting nothing; the server not inheriting what prettyplay sets for the
//! driver.
//!
//! The server is [`SERVER`], a Node.js script (Node.js is there wherever the browser tests run:
//! it runs the Playwright driver) on a 127.0.0.1 port of the test's own. Every process of a run
//! carries a mark in its environment ([`MARK_ENV`]), so that the tests can see what is left.

use std::net::TcpListener;
use std::thread;
use std::time::{Duration, Instant};

use crate::runner::{
    MARK_ENV, OPEN, STUCK, assert_nothing_left, interrupt, marked_processes, unique_mark, wait_for,
};
use crate::support::{PHASE_LIMIT, Running, Test, free_port, require_browser, static_server};

const SERVER: &str = include_str!("support/fixtures/web_server/server.js");
const SCENARIO: &str = "scenarios/app.steps";
/// Opens `/` and finds the heading [`SERVER`] serves.
const SEES_THE_APP: &str = "async function step(page) {\n  await page.goto('/');\n  await expect(page.getByRole('heading', { name: 'served by the web server' })).toBeVisible();\n}";

/// A project whose `[web_server]` runs `command` (`$PORT` is the port, `$NODE` Node.js) with
/// `url = http://127.0.0.1:PORT` and the extra `keys`, and whose one test runs `code`.
fn project(port: u16, command: &str, keys: &str, code: &str) -> Test {
    require_browser();
    let command = command
        .replace("$PORT", &port.to_string())
        .replace("$NODE", "\"${PLAYWRIGHT_NODE_EXE:-node}\"");
    let config = format!(
        "[browser]\ntimeout = 3\n\n[web_server]\ncommand = '{command}'\n\
         url = \"http://127.0.0.1:{port}\"\n{keys}"
    );
    Test::new()
        .config(&config)
        .write("server.js", SERVER)
        .scenario(SCENARIO, "test: the app\n  open the app\n")
        .cached(SCENARIO, "the app", "open the app", 1, code)
}

/// Waits (up to [`PHASE_LIMIT`]) until a process of the run carrying `mark` has `needle` in its
/// command line; interrupts the run and fails the test if none does.
fn wait_for_process(run: Running, mark: &str, needle: &str) -> Running {
    let found = wait_for(PHASE_LIMIT, || {
        marked_processes(mark)
            .iter()
            .any(|(_, cmd)| cmd.contains(needle))
    });
    if !found {
        interrupt(run.pid());
        interrupt(run.pid());
        run.wait().fail(&format!(
            "no process running {needle:?} within {PHASE_LIMIT:?}"
        ));
    }
    run
}

#[test]
fn a_web_server_from_the_config_serves_the_run_and_is_stopped_with_its_group() {
    let port = free_port();
    let mark = unique_mark("web-server-run");
    // The server starts a process of its own: stopping the group must stop it too.
    let out = project(port, "CHILD=1 exec $NODE server.js $PORT", "", SEES_THE_APP)
        .env(MARK_ENV, &mark)
        // No --base-url: the base URL is the server's.
        .args(&["replay", "--strict", "-v"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        // -v streams the server's output, labelled.
        .stderr_contains(&format!(
            "[web_server] listening on http://127.0.0.1:{port}"
        ))
        .stderr_contains("[web_server] GET /");
    assert_nothing_left(&out, &mark);
}

#[test]
fn the_web_server_does_not_inherit_what_prettyplay_sets_for_the_driver() {
    let port = free_port();
    let user_driver_path = std::env::var_os("PLAYWRIGHT_DRIVER_PATH");
    // `env -0` so that a value with a newline cannot fake a line.
    let out = project(
        port,
        "env -0 > server-env; exec $NODE server.js $PORT",
        "",
        SEES_THE_APP,
    )
    // One variable the user set themselves: it reaches the server as they set it.
    .env("PLAYWRIGHT_NO_SIGNAL_HANDLER", "users-own")
    .env_remove("NODE_COMPILE_CACHE")
    .env_remove("NODE_DISABLE_COMPILE_CACHE")
    .args(&["replay", "--strict"])
    .run()
    .assert_exit(0);
    let env = out.read("server-env");
    let vars: Vec<&str> = env.split('\0').collect();
    assert!(
        vars.contains(&"PLAYWRIGHT_NO_SIGNAL_HANDLER=users-own"),
        "the user's own value is kept: {vars:?}"
    );
    for name in ["NODE_COMPILE_CACHE", "PLAYWRIGHT_DRIVER_PATH"] {
        if name == "PLAYWRIGHT_DRIVER_PATH" && user_driver_path.is_some() {
            continue;
        }
        assert!(
            !vars.iter().any(|var| var.starts_with(&format!("{name}="))),
            "{name} was set for the driver only: {vars:?}"
        );
    }
}

#[test]
fn ctrl_c_while_the_web_server_starts_stops_its_group() {
    let port = free_port();
    let mark = unique_mark("web-server-ctrl-c-start");
    let run = project(
        port,
        "CHILD=1 DELAY_MS=120000 exec $NODE server.js $PORT",
        "timeout = 300\n",
        OPEN,
    )
    .env(MARK_ENV, &mark)
    .args(&["replay", "--strict"])
    .spawn();
    // Both the server and the process it starts are up.
    let run = wait_for_process(run, &mark, "setInterval");
    interrupt(run.pid());
    let out = run
        .wait()
        .assert_exit(130)
        .stderr_contains("interrupted while starting the web servers");
    assert_nothing_left(&out, &mark);
}

#[test]
fn a_second_ctrl_c_kills_a_web_server_that_ignores_sigterm_at_once() {
    let port = free_port();
    let mark = unique_mark("web-server-ctrl-c-twice");
    let run = project(
        port,
        "IGNORE_TERM=1 DELAY_MS=120000 exec $NODE server.js $PORT",
        "timeout = 300\n",
        OPEN,
    )
    .env(MARK_ENV, &mark)
    .args(&["replay", "--strict"])
    .spawn();
    let mut run = wait_for_process(run, &mark, "server.js");
    // The first Ctrl-C stops the server gracefully: it ignores SIGTERM, so prettyplay waits
    // out the grace period; the second kills it and exits at once. The second is sent once
    // the run has said it handled the first, because two signals sent before the first is
    // delivered merge into one.
    interrupt(run.pid());
    run.stderr_match("press Ctrl-C again", PHASE_LIMIT);
    interrupt(run.pid());
    let signalled = Instant::now();
    let out = run.wait().assert_exit(130);
    if signalled.elapsed() > Duration::from_secs(3) {
        out.fail(&format!(
            "exited {:?} after the second Ctrl-C",
            signalled.elapsed()
        ));
    }
    assert_nothing_left(&out, &mark);
}

#[test]
fn ctrl_c_during_a_test_stops_the_web_server_after_the_run() {
    let port = free_port();
    let mark = unique_mark("web-server-ctrl-c-run");
    let run = project(port, "CHILD=1 exec $NODE server.js $PORT", "", STUCK)
        .env(MARK_ENV, &mark)
        .args(&["replay", "--strict"])
        .spawn();
    let run = wait_for_process(run, &mark, "chromium");
    interrupt(run.pid());
    let out = run.wait().assert_exit(130);
    assert_nothing_left(&out, &mark);
}

#[test]
fn an_answering_url_is_reused_and_refused_when_ci_is_set() {
    require_browser();
    let site = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        site.path().join("index.html"),
        "<!doctype html><h1>served by the web server</h1>",
    )
    .expect("write the page");
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a port on 127.0.0.1");
    let port = listener
        .local_addr()
        .expect("the listener's address")
        .port();
    let dir = site.path().to_path_buf();
    thread::spawn(move || static_server::serve(dir, listener));
    // Were the command run, it would leave a file and fail.
    let command = "touch command-ran; exit 1";
    let out = project(port, command, "", SEES_THE_APP)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    assert!(!out.exists("command-ran"), "the command ran");
    let out = project(port, command, "", SEES_THE_APP)
        .env("CI", "true")
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(3)
        .stderr_contains(&format!(
            "error: http://127.0.0.1:{port} is already used: make sure nothing is running on \
             its port, or set `reuse_existing = true` under [web_server]"
        ));
    assert!(!out.exists("command-ran"), "the command ran");
}

#[test]
fn a_web_server_that_never_answers_fails_the_run_with_exit_3_and_its_last_output() {
    let port = free_port();
    let mark = unique_mark("web-server-never-ready");
    // It ignores SIGTERM (so does the sleep it runs): stopping it takes SIGKILL.
    let command = "trap \"\" TERM; echo booting; printf \"\\033[2Jcleared\\n\" >&2; sleep 120";
    let out = project(port, command, "timeout = 1\n", OPEN)
        .env(MARK_ENV, &mark)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(3)
        .stderr_contains(&format!(
            "error: web server `{command}` did not answer at http://127.0.0.1:{port} within 1 s\n  \
             its last output:\n"
        ))
        .stderr_contains("    | booting\n")
        // Control characters are shown escaped, never sent to the terminal.
        .stderr_contains("    | \\x1b[2Jcleared\n")
        .output_not_contains("\u{1b}")
        // Without -v the output is not streamed.
        .output_not_contains("[web_server] booting")
        .stderr_contains("hint: check that the command serves `url`")
        .output_not_contains("Running 1 test");
    assert_nothing_left(&out, &mark);
}

#[test]
fn a_web_server_that_exits_early_fails_the_run_with_exit_3_and_its_last_output() {
    let port = free_port();
    project(port, "echo \"port $PORT is taken\" >&2; exit 7", "", OPEN)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(3)
        .stderr_contains(&format!(
            "exited (exit status: 7) before http://127.0.0.1:{port} answered\n  its last \
             output:\n    | port {port} is taken"
        ))
        .output_not_contains("Running 1 test");
}

#[test]
fn list_starts_no_web_server() {
    let port = free_port();
    let out = project(port, "touch command-ran; sleep 30", "", OPEN)
        .args(&["list"])
        .run()
        .assert_exit(0)
        .stdout_contains("[cached ] open the app");
    assert!(
        !out.exists("command-ran"),
        "list ran the web server's command"
    );
}
