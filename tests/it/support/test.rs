//! [`Test`]: one run of the real `prettyplay` binary in a temporary project of its own.
//!
//! ```ignore
//! Test::new()
//!     .config("[browser]\ntimeout = 2\n")
//!     .scenario("scenarios/todo.steps", "test: t\n  open the app\n")
//!     .cached("scenarios/todo.steps", "t", "open the app", 1, "async function step(page) {}")
//!     .page("index.html", "<h1>todos</h1>")
//!     .args(&["replay", "--strict"])
//!     .run()
//!     .assert_exit(0)
//!     .stdout_contains("1 passed, 0 failed");
//! ```
//!
//! The temporary directory holds `project/` (the working directory of the run, with a
//! `prettyplay.toml`) and `site/` (the pages). When a test has pages, `run` checks that the browser
//! is installed, serves `site/` on its own 127.0.0.1 port and appends `--base-url` to the arguments.
//! `spawn` starts the run the same way and returns a [`Running`] to signal (`pid`), watch
//! (`stdout_match`, `stderr_match`, `event`), interrupt and `wait` for. Every wait of the
//! harness is bounded by the run's progress, not by its total time: see [`PHASE_LIMIT`].

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs;
use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use tempfile::TempDir;

use super::output::Output;
use super::prerequisites::require_browser;
use super::static_server;

/// The `prettyplay.toml` of a project whose test did not call [`Test::config`].
const DEFAULT_CONFIG: &str = "\
# Written by the test harness (tests/it/support).
scenarios = \"scenarios\"
cache_dir = \"cache\"
";

/// The `created` date of entries written by [`Test::cached`].
const CREATED: &str = "2026-11-30";

/// Set (non-empty) to keep every test's temporary directory for inspection.
pub(super) const KEEP_ENV: &str = "PRETTYPLAY_IT_KEEP";

/// The commands without browser flags, to which a test with pages passes no `--base-url`.
const NO_BROWSER_FLAGS: &[&str] = &[
    "list",
    "cache",
    "init",
    "import",
    "api",
    "install",
    "merge-reports",
    "show-report",
    "show-trace",
];

/// How long the harness waits on a run that shows no progress before it kills the run and fails
/// the test. The clock starts when the awaited phase starts (the call to wait, the signal sent)
/// and starts again whenever the run writes more, so a slow run that keeps going is never
/// killed. The bound is sized for a machine ten times slower than a quiet one, and a passing
/// test never waits it out.
pub(crate) const PHASE_LIMIT: Duration = Duration::from_secs(300);

/// A builder for one run of `prettyplay`; see the module documentation.
#[must_use = "a Test does nothing until .run()"]
pub(crate) struct Test {
    dir: TempDir,
    args: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    /// Variables unset for the run, after `env`.
    env_removed: Vec<OsString>,
    /// Cache entries from [`Test::cached`], by scenario, in call order; written by `run`.
    cached: BTreeMap<String, Vec<String>>,
    serve: bool,
    /// Set by [`Test::base_path`]: what follows the served site's origin in `--base-url`.
    base_path: String,
    /// Set by [`Test::stdout_head`]: the number of lines read before stdout is closed.
    stdout_head: Option<usize>,
}

impl Test {
    /// A fresh project with the default `prettyplay.toml` (`scenarios = "scenarios"`,
    /// `cache_dir = "cache"`).
    pub(crate) fn new() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("prettyplay-it-")
            .disable_cleanup(std::env::var_os(KEEP_ENV).is_some_and(|v| !v.is_empty()))
            .tempdir()
            .expect("create a temporary directory");
        fs::create_dir_all(dir.path().join("project")).expect("create the project directory");
        fs::create_dir_all(dir.path().join("site")).expect("create the site directory");
        let test = Self {
            dir,
            args: Vec::new(),
            env: Vec::new(),
            env_removed: Vec::new(),
            cached: BTreeMap::new(),
            serve: false,
            base_path: String::new(),
            stdout_head: None,
        };
        test.write("prettyplay.toml", DEFAULT_CONFIG)
    }

    /// Another run in the temporary directory of an earlier one (its project, reports and
    /// all), from [`super::Output::again`].
    pub(super) fn in_dir(dir: TempDir) -> Self {
        Self {
            dir,
            args: Vec::new(),
            env: Vec::new(),
            env_removed: Vec::new(),
            cached: BTreeMap::new(),
            serve: false,
            base_path: String::new(),
            stdout_head: None,
        }
    }

    /// The project directory: the working directory of the run.
    pub(crate) fn project_dir(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    /// Replaces `prettyplay.toml` with `content`.
    pub(crate) fn config(self, content: &str) -> Self {
        self.write("prettyplay.toml", content)
    }

    /// Removes `prettyplay.toml`: the working directory is then the project root.
    pub(crate) fn no_config(self) -> Self {
        fs::remove_file(self.project_dir().join("prettyplay.toml"))
            .expect("remove prettyplay.toml");
        self
    }

    /// Writes a scenario file, `path` relative to the project.
    pub(crate) fn scenario(self, path: &str, content: &str) -> Self {
        self.write(path, content)
    }

    /// Writes a whole cache file, `path` relative to the project (e.g. `cache/scenarios/x.steps.toml`).
    pub(crate) fn cache(self, path: &str, content: &str) -> Self {
        self.write(path, content)
    }

    /// Adds one entry to the cache file of `scenario` (under `cache/`), written by `run` in call
    /// order.
    pub(crate) fn cached(
        mut self,
        scenario: &str,
        test: &str,
        step: &str,
        occurrence: u32,
        code: &str,
    ) -> Self {
        let header = format!(
            "[[steps]]\ntest = {}\nstep = {}\noccurrence = {occurrence}\n",
            toml_string(test),
            toml_string(step),
        );
        self.push_entry(scenario, &header, code);
        self
    }

    /// Adds one `[[background]]` entry to the cache file of `scenario` (which is then format 2).
    pub(crate) fn cached_background(
        mut self,
        scenario: &str,
        step: &str,
        occurrence: u32,
        code: &str,
    ) -> Self {
        let header = format!(
            "[[background]]\nstep = {}\noccurrence = {occurrence}\n",
            toml_string(step),
        );
        self.push_entry(scenario, &header, code);
        self
    }

    /// Adds an entry of `header` lines (its table and identity), its date and `code` to the
    /// cache file of `scenario`.
    fn push_entry(&mut self, scenario: &str, header: &str, code: &str) {
        assert!(
            !code.contains("'''"),
            "step code for the harness must not contain '''"
        );
        let code = if code.ends_with('\n') {
            code.to_owned()
        } else {
            format!("{code}\n")
        };
        let entry = format!("{header}created = \"{CREATED}\"\ncode = '''\n{code}'''\n");
        self.cached
            .entry(scenario.to_owned())
            .or_default()
            .push(entry);
    }

    /// Writes any file, `path` relative to the project.
    pub(crate) fn write(self, path: &str, content: &str) -> Self {
        write_file(&self.project_dir().join(path), content.as_bytes());
        self
    }

    /// Copies a file or directory of this repository (e.g. `scenarios`) into the project.
    pub(crate) fn copy_from_repo(self, path: &str) -> Self {
        copy_tree(&repo_dir().join(path), &self.project_dir().join(path));
        self
    }

    /// Adds a page (or any file) to the site served for this test, `path` relative to the site root.
    pub(crate) fn page(mut self, path: &str, content: &str) -> Self {
        write_file(&self.dir.path().join("site").join(path), content.as_bytes());
        self.serve = true;
        self
    }

    /// Adds every file of the demo app (`demo/`) to the site served for this test.
    pub(crate) fn demo_pages(mut self) -> Self {
        copy_tree(&repo_dir().join("demo"), &self.dir.path().join("site"));
        self.serve = true;
        self
    }

    /// Serves a directory of this repository (e.g. a TodoMVC build under `tests/fixtures`) as
    /// the test's site.
    pub(crate) fn site_from_repo(mut self, path: &str) -> Self {
        copy_tree(&repo_dir().join(path), &self.dir.path().join("site"));
        self.serve = true;
        self
    }

    /// Serves the site as usual, but passes `--base-url http://ADDR/{path}`: a base URL with a
    /// path (and query), as an app served under a sub-path has.
    pub(crate) fn base_path(mut self, path: &str) -> Self {
        self.base_path = path.to_owned();
        self
    }

    /// Arguments of the run (`--base-url` is appended when the test has pages).
    pub(crate) fn args(mut self, args: &[&str]) -> Self {
        self.args.extend(args.iter().map(OsString::from));
        self
    }

    /// Closes the run's stdout once its first `lines` lines are read, as `prettyplay ... | head
    /// -n LINES` does. The output keeps those lines only.
    pub(crate) fn stdout_head(mut self, lines: usize) -> Self {
        self.stdout_head = Some(lines);
        self
    }

    /// An environment variable of the run.
    pub(crate) fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// An environment variable the harness sets (`NO_COLOR`) or passes on, unset for the run.
    pub(crate) fn env_remove(mut self, key: &str) -> Self {
        self.env_removed.push(key.into());
        self
    }

    /// Runs `prettyplay` with the project as working directory, `NO_COLOR=1`, `CI` and
    /// `PRETTYPLAY_*` settings unset, no stdin.
    pub(crate) fn run(self) -> Output {
        self.spawn().wait()
    }

    /// Starts `prettyplay` as [`Test::run`] does and returns at once, for tests that signal the
    /// running process ([`Running::pid`]) before waiting for it.
    pub(crate) fn spawn(self) -> Running {
        for (scenario, entries) in &self.cached {
            let format = if entries.iter().any(|e| e.starts_with("[[background]]")) {
                2
            } else {
                1
            };
            let mut file = format!("format = {format}\nscenario = {}\n", toml_string(scenario));
            for entry in entries {
                file.push('\n');
                file.push_str(entry);
            }
            write_file(
                &self
                    .project_dir()
                    .join("cache")
                    .join(format!("{scenario}.toml")),
                file.as_bytes(),
            );
        }

        let mut args = self.args.clone();
        if self.serve {
            require_browser();
            let listener = TcpListener::bind("127.0.0.1:0").expect("bind a port on 127.0.0.1");
            let addr = listener.local_addr().expect("the listener's address");
            let site = self.dir.path().join("site");
            thread::spawn(move || static_server::serve(site, listener));
            // Only the commands that open pages take browser flags; the others refuse them.
            let command = args.first().and_then(|a| a.to_str()).unwrap_or_default();
            if !NO_BROWSER_FLAGS.contains(&command) {
                args.extend([
                    "--base-url".into(),
                    if self.base_path.is_empty() {
                        format!("http://{addr}")
                    } else {
                        format!("http://{addr}/{}", self.base_path)
                    }
                    .into(),
                ]);
            }
        }

        let mut command = Command::new(env!("CARGO_BIN_EXE_prettyplay"));
        const TEST_BROWSER_ENV: &str = "PRETTYPLAY_TEST_BROWSER";
        command
            .args(&args)
            .current_dir(self.project_dir())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("NO_COLOR", "1")
            .env_remove("CI")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("FORCE_COLOR");
        for (key, _) in std::env::vars_os() {
            let settings = key
                .to_str()
                .is_some_and(|k| k.starts_with("PRETTYPLAY_") && k != "PRETTYPLAY_DRIVER_DIR");
            if settings {
                command.env_remove(&key);
            }
        }
        // The tests written before the built-in generator script the LLM for every new step:
        // it is off unless a test turns it on (`.env("PRETTYPLAY_GENERATE_BUILTIN", "first")`).
        command.env("PRETTYPLAY_GENERATE_BUILTIN", "off");
        // `PRETTYPLAY_TEST_BROWSER=firefox cargo test` runs the tests in another browser, for
        // the measurements of docs/benchmarks.md; a test's own choice wins.
        if let Some(browser) = std::env::var_os(TEST_BROWSER_ENV).filter(|b| !b.is_empty()) {
            command.env("PRETTYPLAY_BROWSER_NAME", browser);
        }
        command.envs(self.env.iter().map(|(k, v)| (k, v)));
        for key in &self.env_removed {
            command.env_remove(key);
        }
        // Its own process group, so that a run that hangs is killed with its driver and browser.
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        // A test binary started under `nohup` or by a supervisor may ignore SIGHUP or SIGTERM,
        // and prettyplay leaves a signal it inherits ignored as it is. The runs start with both
        // at their defaults, as from a terminal, so that the tests of those signals hold
        // wherever the tests run.
        // SAFETY: signal(2) is async-signal-safe and touches no memory of the parent.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, || {
                libc::signal(libc::SIGHUP, libc::SIG_DFL);
                libc::signal(libc::SIGTERM, libc::SIG_DFL);
                Ok(())
            });
        }

        let description = format!(
            "prettyplay {}",
            args.iter()
                .map(|a| a.to_string_lossy())
                .collect::<Vec<_>>()
                .join(" ")
        );
        let mut child = command.spawn().expect("start the prettyplay binary");
        let stdout_so_far = Arc::new(Mutex::new(Vec::new()));
        let stderr_so_far = Arc::new(Mutex::new(Vec::new()));
        let stdout = read_in_background(
            child.stdout.take().expect("piped stdout"),
            Arc::clone(&stdout_so_far),
            self.stdout_head,
        );
        let stderr = read_in_background(
            child.stderr.take().expect("piped stderr"),
            Arc::clone(&stderr_so_far),
            None,
        );
        Running {
            child,
            description,
            stdout,
            stdout_so_far,
            stderr,
            stderr_so_far,
            dir: self.dir,
        }
    }
}

/// A `prettyplay` process started by [`Test::spawn`].
#[must_use = "a Running is waited for with .wait()"]
pub(crate) struct Running {
    child: Child,
    description: String,
    stdout: thread::JoinHandle<String>,
    /// What the run has printed on stdout so far.
    stdout_so_far: Arc<Mutex<Vec<u8>>>,
    stderr: thread::JoinHandle<String>,
    /// What the run has printed on stderr so far.
    stderr_so_far: Arc<Mutex<Vec<u8>>>,
    dir: TempDir,
}

/// What one look at a run found: how much it had written (its progress) and, once it is
/// there, the awaited thing.
struct Look<T> {
    written: usize,
    found: Option<T>,
}

impl Running {
    /// The process id of the run, which is also its process group id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The project directory: the working directory of the run.
    pub(crate) fn project_dir(&self) -> PathBuf {
        self.dir.path().join("project")
    }

    /// Waits until what the run printed on stdout matches `pattern` and returns the match.
    /// It fails the test (killing the run's group) if the run exits without printing it, or
    /// prints nothing more for `limit`.
    pub(crate) fn stdout_match(&mut self, pattern: &str, limit: Duration) -> String {
        let pattern = regex::Regex::new(pattern).expect("a valid pattern");
        self.await_output(&format!("stdout matching {pattern}"), limit, |run| {
            let so_far = text_of(&run.stdout_so_far);
            Look {
                written: so_far.len(),
                found: pattern.find(&so_far).map(|m| m.as_str().to_owned()),
            }
        })
    }

    /// Waits until what the run printed on stderr matches `pattern` and returns the match, as
    /// [`Running::stdout_match`] does for stdout.
    pub(crate) fn stderr_match(&mut self, pattern: &str, limit: Duration) -> String {
        let pattern = regex::Regex::new(pattern).expect("a valid pattern");
        self.await_output(&format!("stderr matching {pattern}"), limit, |run| {
            let so_far = text_of(&run.stderr_so_far);
            Look {
                written: so_far.len(),
                found: pattern.find(&so_far).map(|m| m.as_str().to_owned()),
            }
        })
    }

    /// Waits until the run's `--events` file (`path`, relative to the project) holds an event
    /// for which `wanted` is true, and returns that event. The clock starts again with every
    /// line the run adds, so `limit` bounds the wait for one event, not the run. It fails the
    /// test (killing the run's group) if the run exits first or writes no event for `limit`.
    pub(crate) fn event(
        &mut self,
        path: &str,
        awaited: &str,
        limit: Duration,
        wanted: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let file = self.project_dir().join(path);
        self.await_output(&format!("an event in {path}: {awaited}"), limit, |_| {
            let text = fs::read_to_string(&file).unwrap_or_default();
            // A line the run is still writing has no newline yet, and is read on the next look.
            let found = text
                .split_inclusive('\n')
                .filter(|line| line.ends_with('\n'))
                .filter_map(|line| serde_json::from_str(line).ok())
                .find(|event| wanted(event));
            Look {
                written: text.len(),
                found,
            }
        })
    }

    /// Looks at the run with `look` until it finds what is awaited. The clock starts at the
    /// call and again whenever the run has written more, because a run that progresses slowly
    /// is not stuck. A run that exits, or makes no progress for `limit`, fails the test.
    fn await_output<T>(
        &mut self,
        awaited: &str,
        limit: Duration,
        mut look: impl FnMut(&Self) -> Look<T>,
    ) -> T {
        let mut written = 0;
        let mut phase_started = Instant::now();
        loop {
            let now = look(self);
            if let Some(found) = now.found {
                return found;
            }
            if now.written != written {
                written = now.written;
                phase_started = Instant::now();
            }
            if let Some(status) = self.child.try_wait().expect("look at prettyplay") {
                // What the run wrote just before it exited may still be in the pipes.
                self.drain_pipes(limit);
                if let Some(found) = look(self).found {
                    return found;
                }
                self.fail_running(&format!("exited ({status}) without {awaited}"));
            }
            if phase_started.elapsed() > limit {
                // Alive (not reaped), so its group id still names its group.
                kill_group(self.child.id());
                let _ = self.child.wait();
                self.fail_running(&format!(
                    "made no progress towards {awaited} for {limit:?} and was killed"
                ));
            }
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits (at most `limit`) until both pipes of an exited run are read to their end.
    fn drain_pipes(&self, limit: Duration) {
        let started = Instant::now();
        while !(self.stdout.is_finished() && self.stderr.is_finished()) && started.elapsed() < limit
        {
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Fails the test with `message`, the command and what the run printed so far.
    fn fail_running(&self, message: &str) -> ! {
        panic!(
            "`{}` {message}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.description,
            text_of(&self.stdout_so_far),
            text_of(&self.stderr_so_far),
        );
    }

    /// Sends SIGINT to the run's process group, as Ctrl-C in its terminal does, and waits for
    /// it to exit. The harness's clock for the exit starts at the signal.
    pub(crate) fn interrupt_and_wait(mut self) -> Output {
        if self.child.try_wait().expect("look at prettyplay").is_none() {
            // Alive (not reaped), so its group id still names its group.
            signal_group(self.child.id(), libc::SIGINT);
        }
        self.wait()
    }

    /// Waits for the run to exit. The harness kills the run and fails the test when it prints
    /// nothing for [`PHASE_LIMIT`], counted from this call and again from its latest output.
    pub(crate) fn wait(mut self) -> Output {
        let mut written = 0;
        let mut phase_started = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait for prettyplay") {
                break status;
            }
            let now = len_of(&self.stdout_so_far) + len_of(&self.stderr_so_far);
            if now != written {
                written = now;
                phase_started = Instant::now();
            }
            if phase_started.elapsed() > PHASE_LIMIT {
                // The run is alive (not yet reaped), so its group id still names its group.
                kill_group(self.child.id());
                let _ = self.child.kill();
                let _ = self.child.wait();
                let Running {
                    description,
                    stdout,
                    stderr,
                    ..
                } = self;
                panic!(
                    "`{description}` printed nothing for {PHASE_LIMIT:?} and was killed\n--- stdout ---\n{}\n--- stderr ---\n{}",
                    stdout.join().unwrap_or_default(),
                    stderr.join().unwrap_or_default(),
                );
            }
            thread::sleep(Duration::from_millis(20));
        };
        let Running {
            description,
            stdout,
            stderr,
            dir,
            ..
        } = self;
        // No group kill once the run is reaped: its process group id may already name an
        // unrelated group. (The driver runs in a group of its own and exits with the run.)
        Output::new(
            description,
            status,
            stdout.join().expect("read stdout"),
            stderr.join().expect("read stderr"),
            dir,
        )
    }
}

/// How many bytes an output buffer holds so far.
fn len_of(buffer: &Mutex<Vec<u8>>) -> usize {
    buffer.lock().expect("an output buffer").len()
}

/// The text of an output buffer so far.
fn text_of(buffer: &Mutex<Vec<u8>>) -> String {
    String::from_utf8_lossy(&buffer.lock().expect("an output buffer")).into_owned()
}

/// The repository root (where `demo/`, `scenarios/` and `cache/` live).
pub(crate) fn repo_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Kills what is left of the process group `pgid`: a run's own group (see `process_group(0)`),
/// whose leader is the run itself.
fn kill_group(pgid: u32) {
    signal_group(pgid, libc::SIGKILL);
}

/// Sends `signal` to the process group `pgid`, a run's own (see `process_group(0)`).
fn signal_group(pgid: u32, signal: libc::c_int) {
    let Ok(pgid) = libc::pid_t::try_from(pgid) else {
        return;
    };
    // Never 0 or 1: kill(0) would hit the test's own group, kill(-1) every process.
    if pgid > 1 {
        // SAFETY: kill(2) takes plain integers; a negative pid names the process group. A group
        // that no longer exists is an ESRCH error, which is fine to ignore.
        unsafe {
            libc::kill(-pgid, signal);
        }
    }
}

/// Reads `pipe` into `so_far` as the output comes, and returns all of it when the thread ends.
/// With `head`, the thread keeps the first `head` lines only and then drops the pipe, which
/// closes it for the writer.
fn read_in_background(
    pipe: impl Read + Send + 'static,
    so_far: Arc<Mutex<Vec<u8>>>,
    head: Option<usize>,
) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        if head == Some(0) {
            // Returning drops the pipe before the writer has written anything.
            return String::new();
        }
        let mut pipe = pipe;
        let mut buf = [0u8; 8192];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let mut bytes = so_far.lock().expect("the output buffer");
                    bytes.extend_from_slice(&buf[..n]);
                    if let Some(end) = head.and_then(|lines| end_of_lines(&bytes, lines)) {
                        bytes.truncate(end);
                        break;
                    }
                }
            }
        }
        drop(pipe);
        let bytes = so_far.lock().expect("the output buffer");
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Returns the length of the first `lines` lines of `bytes` (at least one line), or `None`
/// while it has fewer.
fn end_of_lines(bytes: &[u8], lines: usize) -> Option<usize> {
    bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(lines.saturating_sub(1))
        .map(|(at, _)| at + 1)
}

fn write_file(path: &Path, content: &[u8]) {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).unwrap_or_else(|e| panic!("create {}: {e}", parent.display()));
    }
    fs::write(path, content).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
}

/// Copies a file, or a directory tree without its hidden files (a stale cache lock, editor
/// files), to `to`.
pub(crate) fn copy_tree(from: &Path, to: &Path) {
    if from.is_file() {
        write_file(
            to,
            &fs::read(from).unwrap_or_else(|e| panic!("read {}: {e}", from.display())),
        );
        return;
    }
    for entry in fs::read_dir(from).unwrap_or_else(|e| panic!("read {}: {e}", from.display())) {
        let entry = entry.expect("a directory entry");
        let name = entry.file_name();
        // Skip a stale cache lock or editor files.
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        copy_tree(&entry.path(), &to.join(name));
    }
}

/// A port of 127.0.0.1 that was free a moment ago.
pub(crate) fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a port on 127.0.0.1");
    listener
        .local_addr()
        .expect("the listener's address")
        .port()
}

/// `text` as a TOML basic string.
fn toml_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
