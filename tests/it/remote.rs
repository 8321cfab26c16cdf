//! Remote browsers end to end: `[browser] connect` to a real Playwright browser server
//! (`chromium.launchServer` from the pinned driver, `support/fixtures/remote/server.js`) and
//! `[browser] cdp` to a real Chromium started with `--remote-debugging-port`, both on
//! 127.0.0.1. The demo suite runs through each at `-j 2` with no local Chromium to launch; a
//! killed server fails the running test as infrastructure (exit 3) at once; a cut connection
//! is made again for the next tests; the origin allowlist holds over `connect`.
//!
//! Every server is a [`Remote`]: its processes carry a mark in their environment and are
//! killed, and checked gone, when it is dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use crate::e2e::shipped_config_without_web_server;
use crate::runner::{
    EVENTS, MARK_ENV, OPEN, Spec, assert_nothing_left, duration_of, marked_processes, names,
    reported, step_started, suite, unique_mark, wait_for,
};
use crate::support::recording_server::RecordingServer;
use crate::support::{
    Output, PHASE_LIMIT, Running, Test, driver_cli_js, repo_dir, require_browser, require_firefox,
};

/// Where the tests' Chromium is (the one the Debian package installs, as `./setup` does).
const CHROMIUM: &str = "/usr/bin/chromium";

/// Waits a minute for a word that never comes: long past any "within seconds" below.
const STUCK_LONG: &str = "async function step(page) {\n  await expect(page.getByText('never')).toBeVisible({ timeout: 60000 });\n}";

/// A browser server of the test's own: a Node.js `launchServer` or a Chromium with a DevTools
/// port, in a process group of its own, its processes marked with `MARK_ENV=mark`.
struct Remote {
    child: Child,
    mark: String,
    /// `ws://127.0.0.1:PORT/GUID` or `http://127.0.0.1:PORT`.
    endpoint: String,
    _profile: Option<tempfile::TempDir>,
}

impl Remote {
    /// A Playwright browser server of Chromium: `server.js` run by the driver's Node.js.
    fn playwright_server() -> Remote {
        Remote::playwright_server_of("chromium")
    }

    /// A Playwright browser server of `browser` (`chromium` or `firefox`).
    fn playwright_server_of(browser: &str) -> Remote {
        require_browser();
        let mark = format!("server-{}", unique_mark("remote"));
        let node = std::env::var_os("PLAYWRIGHT_NODE_EXE")
            .filter(|n| !n.is_empty())
            .map_or_else(|| PathBuf::from("node"), PathBuf::from);
        let script = repo_dir().join("tests/it/support/fixtures/remote/server.js");
        let mut command = Command::new(node);
        command
            .arg(script)
            .env("PLAYWRIGHT_CLI_JS", driver_cli_js())
            .env("CHROMIUM", CHROMIUM)
            .env("BROWSER", browser)
            .env(MARK_ENV, &mark);
        let mut child = spawn(command);
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(PHASE_LIMIT).unwrap_or_default();
        let mut remote = Remote {
            child,
            mark,
            endpoint: line.trim().to_owned(),
            _profile: None,
        };
        if !remote.endpoint.starts_with("ws://127.0.0.1:") {
            let stderr = remote.stop_and_read_stderr();
            panic!("the Playwright server printed no endpoint: {line:?}\n{stderr}");
        }
        remote
    }

    /// A headless Chromium with a DevTools port on 127.0.0.1, read from `DevToolsActivePort`.
    fn chromium_with_devtools_port() -> Remote {
        require_browser();
        let mark = format!("cdp-{}", unique_mark("remote"));
        let profile = tempfile::tempdir().expect("a profile directory");
        let mut command = Command::new(CHROMIUM);
        command
            .args([
                "--headless",
                "--remote-debugging-port=0",
                "--remote-debugging-address=127.0.0.1",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
                "--disable-gpu",
                "about:blank",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .env(MARK_ENV, &mark);
        if running_as_root() {
            command.arg("--no-sandbox");
        }
        let child = spawn(command);
        let port_file = profile.path().join("DevToolsActivePort");
        let mut port = None;
        wait_for(PHASE_LIMIT, || {
            port = std::fs::read_to_string(&port_file)
                .ok()
                .and_then(|text| text.lines().next()?.trim().parse::<u16>().ok());
            port.is_some()
        });
        let mut remote = Remote {
            child,
            mark,
            endpoint: String::new(),
            _profile: Some(profile),
        };
        match port {
            Some(port) => remote.endpoint = format!("http://127.0.0.1:{port}"),
            None => {
                let stderr = remote.stop_and_read_stderr();
                panic!("Chromium wrote no DevToolsActivePort within {PHASE_LIMIT:?}\n{stderr}");
            }
        }
        remote
    }

    /// The endpoint's port.
    fn port(&self) -> u16 {
        let rest = self.endpoint.rsplit_once(':').expect("a port").1;
        rest.split('/')
            .next()
            .expect("digits")
            .parse()
            .expect("a port")
    }

    /// Kills the server's process group and every process it marked (a `launchServer`'s
    /// Chromium runs in a group of its own).
    fn kill(&mut self) {
        let pgid = libc::pid_t::try_from(self.child.id()).expect("a pid fits");
        if pgid > 1 && self.child.try_wait().ok().flatten().is_none() {
            // SAFETY: kill(2) takes plain integers; the group is the server's own.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
        let _ = self.child.wait();
        for (pid, _) in marked_processes(&self.mark) {
            if let Ok(pid) = libc::pid_t::try_from(pid)
                && pid > 1
            {
                // SAFETY: as above; the process carries this server's mark.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
    }

    fn stop_and_read_stderr(&mut self) -> String {
        self.kill();
        let mut stderr = String::new();
        if let Some(mut pipe) = self.child.stderr.take() {
            let _ = pipe.read_to_string(&mut stderr);
        }
        stderr
    }

    /// Stops the server and fails the test unless all its processes are gone within
    /// [`PHASE_LIMIT`].
    fn stop(mut self) {
        self.kill();
        let gone = wait_for(PHASE_LIMIT, || marked_processes(&self.mark).is_empty());
        assert!(
            gone,
            "the server's processes outlived it: {:?}",
            marked_processes(&self.mark)
        );
    }
}

impl Drop for Remote {
    fn drop(&mut self) {
        self.kill();
    }
}

fn spawn(mut command: Command) -> Child {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    command.spawn().expect("start the browser server")
}

fn running_as_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|meta| meta.uid() == 0)
}

/// The processes descending from `roots` (Chromium's renderers cannot be found by their
/// environment: they are not dumpable).
fn descendants(roots: &[u32]) -> Vec<String> {
    let all: Vec<(u32, u32, String)> = std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|entry| {
                    let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
                    let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
                    let ppid: u32 = stat
                        .rsplit_once(')')?
                        .1
                        .split_whitespace()
                        .nth(1)?
                        .parse()
                        .ok()?;
                    let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
                    Some((
                        pid,
                        ppid,
                        String::from_utf8_lossy(&cmdline).replace('\0', " "),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let mut known: Vec<u32> = roots.to_vec();
    let mut found = Vec::new();
    loop {
        let more: Vec<&(u32, u32, String)> = all
            .iter()
            .filter(|(pid, ppid, _)| known.contains(ppid) && !known.contains(pid))
            .collect();
        if more.is_empty() {
            return found;
        }
        for (pid, _, cmd) in more {
            known.push(*pid);
            found.push(cmd.clone());
        }
    }
}

/// Waits until the run's first test has started its stuck step, and the server's Chromium
/// renders its page. Returns how long that took: the test's time before anything is done to
/// it is at most that, however slow the machine is.
fn wait_for_a_page(remote: &Remote, run: &mut Running) -> Duration {
    // The caller spawned the run just before this call.
    let spawned = Instant::now();
    step_started(run, "stuck", 2);
    let up = wait_for(PHASE_LIMIT, || {
        let roots: Vec<u32> = marked_processes(&remote.mark)
            .iter()
            .map(|(p, _)| *p)
            .collect();
        descendants(&roots)
            .iter()
            .any(|cmd| cmd.contains("--type=renderer"))
    });
    assert!(
        up,
        "the server's Chromium rendered no page once the stuck step started"
    );
    spawned.elapsed()
}

/// The demo suite (the repository's scenarios and cache against `demo/`) with `browser`
/// appended to `[browser]`, and no local Chromium: its executable does not exist.
fn demo_suite(browser: &str) -> Test {
    demo_project(browser).args(&["replay", "--strict", "-j", "2", "-v"])
}

/// [`demo_suite`] without its command line.
fn demo_project(browser: &str) -> Test {
    let mut config: toml_edit::DocumentMut = shipped_config_without_web_server()
        .parse()
        .expect("the shipped config parses");
    let extra: toml_edit::DocumentMut = format!("[browser]\n{browser}").parse().expect("toml");
    let section = config["browser"].as_table_mut().expect("a [browser] table");
    for (key, value) in extra["browser"].as_table().expect("table").iter() {
        section.insert(key, value.clone());
    }
    section.insert("executable", toml_edit::value("/nonexistent/chromium"));
    Test::new()
        .config(&config.to_string())
        .copy_from_repo("scenarios")
        .copy_from_repo("cache")
        .demo_pages()
        .env("DEMO_PASSWORD", "secret")
}

/// The path of a `launchServer` endpoint (its token); nothing may show it.
fn endpoint_path(endpoint: &str) -> &str {
    endpoint.rsplit_once('/').expect("a path").1
}

fn assert_demo_passed(out: Output) -> Output {
    out.assert_exit(0)
        .stdout_contains("PASS scenarios/todo.steps › add a todo (")
        .stdout_contains("PASS scenarios/login.steps › sign in (")
        .stdout_line("5 passed, 0 failed")
}

#[test]
fn the_demo_suite_passes_through_a_playwright_server_at_two_workers() {
    let server = Remote::playwright_server();
    let mark = unique_mark("remote-connect");
    let out = demo_suite(&format!(
        "connect = \"{}\"\nconnect_headers = {{ Authorization = \"Bearer sesame-token\" }}\n",
        server.endpoint
    ))
    .env(MARK_ENV, &mark)
    .run();
    let out = assert_demo_passed(out)
        .output_not_contains("sesame-token")
        .output_not_contains(endpoint_path(&server.endpoint));
    assert_nothing_left(&out, &mark);
    server.stop();
}

#[test]
fn the_demo_suite_passes_through_a_playwright_server_of_firefox() {
    require_firefox();
    let server = Remote::playwright_server_of("firefox");
    let mark = unique_mark("remote-firefox");
    // The test that double-clicks is left out: Firefox over BiDi gets two single clicks. One
    // worker: two connections to one Firefox that open pages at once make Firefox's BiDi fail
    // now and then (docs/configuration.md, Firefox).
    let out = demo_project(&format!(
        "connect = \"{}\"\nname = \"firefox\"\n",
        server.endpoint
    ))
    .args(&[
        "replay",
        "--strict",
        "-j",
        "1",
        "-v",
        "--grep-invert",
        "edit, delete",
    ])
    .env(MARK_ENV, &mark)
    .run()
    .assert_exit(0)
    .stdout_contains("PASS scenarios/todo.steps › add a todo (")
    .stdout_contains("PASS scenarios/login.steps › sign in (")
    .stdout_line("4 passed, 0 failed");
    assert_nothing_left(&out, &mark);
    server.stop();
}

#[test]
fn the_demo_suite_passes_over_cdp_at_two_workers() {
    let chromium = Remote::chromium_with_devtools_port();
    let mark = unique_mark("remote-cdp");
    let out = demo_suite(&format!("cdp = \"{}\"\n", chromium.endpoint))
        .env(MARK_ENV, &mark)
        .run();
    let out = assert_demo_passed(out);
    assert_nothing_left(&out, &mark);
    chromium.stop();
}

/// A suite whose first test waits in [`STUCK_LONG`], then three tests that pass, reaching the
/// browser at `connect`.
fn stuck_first(connect: &str, mark: &str) -> Test {
    let mut specs = vec![Spec::new(
        "stuck",
        &[("open the app", OPEN), ("the page says never", STUCK_LONG)],
    )];
    specs.extend((1..=3).map(|i| Spec::passing(format!("after {i}"))));
    suite(&specs)
        .config(&format!(
            "[browser]\ntimeout = 3\nexecutable = \"/nonexistent/chromium\"\nconnect = \"{connect}\"\n"
        ))
        .args(&["replay", "--strict", "-j", "1", "--test-timeout", "120"])
        .args(&["--events", EVENTS])
        .env(MARK_ENV, mark)
}

#[test]
fn a_killed_server_fails_the_running_test_at_once_with_exit_3_and_the_run_ends() {
    let mut server = Remote::playwright_server();
    let mark = unique_mark("remote-kill");
    let mut run = stuck_first(&server.endpoint, &mark).spawn();
    let startup = wait_for_a_page(&server, &mut run);
    server.kill();
    let port = server.port();
    let out = run
        .wait()
        .assert_exit(3)
        .output_contains(&format!(
            "lost the connection to the Playwright server at ws://127.0.0.1:{port}/…"
        ))
        .output_contains(&format!(
            "could not connect to the browser at ws://127.0.0.1:{port}/… (connect)"
        ))
        .output_not_contains(endpoint_path(&server.endpoint));
    assert_eq!(
        reported(&out, "FAIL").first().map(String::as_str),
        Some("stuck")
    );
    // Killed once the test was in a step that waits 60 s: it ended with the connection, within
    // 30 s of the kill.
    let took = duration_of(&out, "FAIL", "stuck");
    assert!(
        took < 30.0 + startup.as_secs_f64(),
        "the test waited {took} s on a dead server"
    );
    assert_nothing_left(&out, &mark);
    server.stop();
}

/// A TCP relay on 127.0.0.1 to `port` whose open connections can be cut (both ends shut
/// down) while it keeps accepting new ones.
struct Relay {
    port: u16,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Relay {
    fn to(upstream: u16) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the relay");
        let port = listener.local_addr().expect("its address").port();
        let open = Arc::new(Mutex::new(Vec::new()));
        let streams = Arc::clone(&open);
        thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
                    continue;
                };
                let mut kept = streams.lock().expect("the relay's list");
                for stream in [&client, &server] {
                    kept.push(stream.try_clone().expect("clone a stream"));
                }
                pipe(
                    client.try_clone().expect("clone"),
                    server.try_clone().expect("clone"),
                );
                pipe(server, client);
            }
        });
        Relay { port, open }
    }

    /// Cuts every connection open now.
    fn cut(&self) {
        for stream in self.open.lock().expect("the relay's list").drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

/// Copies `from` to `to` on a thread of its own until either end closes.
fn pipe(mut from: TcpStream, mut to: TcpStream) {
    thread::spawn(move || {
        let mut buf = [0u8; 16 * 1024];
        while let Ok(n) = from.read(&mut buf) {
            if n == 0 || to.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Both);
    });
}

#[test]
fn a_lost_connection_fails_the_running_test_and_the_next_tests_connect_again() {
    let server = Remote::playwright_server();
    let relay = Relay::to(server.port());
    let through_relay = format!(
        "ws://127.0.0.1:{}/{}",
        relay.port,
        endpoint_path(&server.endpoint)
    );
    let mark = unique_mark("remote-cut");
    let mut run = stuck_first(&through_relay, &mark).spawn();
    let startup = wait_for_a_page(&server, &mut run);
    relay.cut();
    let out = run
        .wait()
        .assert_exit(3)
        .stdout_line("3 passed, 1 failed")
        .output_contains(&format!(
            "lost the connection to the Playwright server at ws://127.0.0.1:{}/…",
            relay.port
        ))
        .output_contains("1 of the failures came from the infrastructure");
    assert_eq!(reported(&out, "FAIL"), names(&["stuck"]));
    assert_eq!(
        reported(&out, "PASS"),
        names(&["after 1", "after 2", "after 3"])
    );
    let took = duration_of(&out, "FAIL", "stuck");
    assert!(
        took < 30.0 + startup.as_secs_f64(),
        "the test waited {took} s on a lost connection"
    );
    assert_nothing_left(&out, &mark);
    server.stop();
}

#[test]
fn an_off_origin_navigation_is_blocked_through_a_playwright_server() {
    let server = Remote::playwright_server();
    let other = RecordingServer::start();
    let url = other.origin().to_owned();
    let scenario = "scenarios/origins.steps";
    let out = Test::new()
        .config(&format!(
            "[browser]\ntimeout = 10\nexecutable = \"/nonexistent/chromium\"\nconnect = \"{}\"\n",
            server.endpoint
        ))
        .page(
            "index.html",
            "<!doctype html><title>app</title><h1>app</h1>",
        )
        .scenario(scenario, "test: stay\n  go\n\ntest: leave\n  go\n")
        .cached(scenario, "stay", "go", 1, OPEN)
        .cached(
            scenario,
            "leave",
            "go",
            1,
            &format!("async function step(page) {{\n  await page.goto('{url}/goto');\n}}"),
        )
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("PASS scenarios/origins.steps › stay (")
        .stdout_contains("FAIL scenarios/origins.steps › leave (")
        .stdout_line(&format!(
            "    blocked by [browser] allowed_origins: {url}/goto — add its origin to allow it"
        ))
        .stdout_line("1 passed, 1 failed");
    let seen = other.requests();
    if !seen.is_empty() {
        out.fail(&format!("the other origin received {seen:?}"));
    }
    server.stop();
}

#[test]
fn webkit_needs_connect() {
    Test::new()
        .config("[browser]\nname = \"webkit\"\n")
        .scenario("scenarios/a.steps", "test: t\n  go\n")
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(2)
        .stderr_contains(
            "`browser.name` is \"webkit\", but prettyplay launches only Chromium and Firefox itself",
        );
}
