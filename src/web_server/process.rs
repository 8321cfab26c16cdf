//! [`ServerProcess`]: one web server's command, run with `sh -c` as the leader of a process
//! group of its own, its output pumped into an [`OutputTail`]; stopped with its whole group:
//! SIGTERM, then SIGKILL after [`STOP_GRACE`]. Dropping it stops it, so a panic does too.
//!
//! Every live group is also listed in a process-wide registry, so that [`kill_all_now`] can
//! kill them from the signal handler before prettyplay exits at once (no destructor runs then),
//! and each has a [`Watchdog`] that stops it should prettyplay be killed (SIGKILL) or crash.

use std::ffi::OsString;
use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::WebServerError;
use super::output_tail::{LineSink, OutputTail, pump};
use super::watchdog::Watchdog;
use crate::config::WebServerSettings;

/// How long a stopped server's group has, after SIGTERM, before it is sent SIGKILL.
pub(crate) const STOP_GRACE: Duration = Duration::from_secs(5);
/// How often a stopping group is looked at.
const POLL: Duration = Duration::from_millis(20);
/// How long the output of a server that exited is waited for (its pipes may be held open by a
/// process it left behind).
const DRAIN: Duration = Duration::from_millis(500);

/// The process groups of the servers started and not yet stopped.
static GROUPS: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());

/// Sends SIGKILL to every web server's process group at once: for the second Ctrl-C, which
/// exits without running destructors.
pub(crate) fn kill_all_now() {
    let groups = GROUPS.lock().unwrap_or_else(PoisonError::into_inner);
    for &group in groups.iter() {
        signal_group(group, libc::SIGKILL);
    }
}

/// One started web server.
pub(crate) struct ServerProcess {
    child: Child,
    /// The process group: the child's pid (it leads a group of its own).
    group: libc::pid_t,
    output: Arc<Mutex<OutputTail>>,
    pumps: Vec<JoinHandle<()>>,
    /// Stops the group should prettyplay end without stopping it; `None` once it is stopped,
    /// or when the watchdog could not start.
    watchdog: Option<Watchdog>,
    stopped: bool,
}

impl ServerProcess {
    /// Runs `settings.command` with `sh -c` in `settings.cwd`, with `settings.env` added to the
    /// environment, stdin closed, stdout and stderr captured (and streamed to `sink`, labelled
    /// `label`). `restore` names variables prettyplay set for itself, each with the value it had
    /// before (`None`: unset): the command gets that value back (`settings.env` still wins).
    pub(crate) fn spawn(
        settings: &WebServerSettings,
        restore: &[(String, Option<OsString>)],
        sink: Option<LineSink>,
        label: &str,
    ) -> Result<Self, WebServerError> {
        if !settings.cwd.is_dir() {
            return Err(WebServerError::Cwd {
                command: settings.command.clone(),
                cwd: settings.cwd.clone(),
            });
        }
        let mut command = Command::new("sh");
        for (name, before) in restore {
            match before {
                Some(value) => command.env(name, value),
                None => command.env_remove(name),
            };
        }
        command
            .arg("-c")
            .arg(&settings.command)
            .current_dir(&settings.cwd)
            .envs(&settings.env)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        #[cfg(target_os = "linux")]
        // SAFETY: prctl(2) is async-signal-safe and touches no memory of the parent. It asks the
        // kernel to send SIGTERM to the shell should prettyplay die without stopping it
        // (SIGKILL); the server is spawned on the main thread, which lives as long as the run.
        // The rest of the group is the watchdog's: this only ends the shell sooner.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
                Ok(())
            });
        }
        // Registered before the spawn returns, under the lock: a Ctrl-C in between still finds
        // the group.
        let mut groups = GROUPS.lock().unwrap_or_else(PoisonError::into_inner);
        let mut child = command.spawn().map_err(|source| WebServerError::Spawn {
            command: settings.command.clone(),
            source,
        })?;
        let group = libc::pid_t::try_from(child.id()).map_err(|_| WebServerError::Spawn {
            command: settings.command.clone(),
            source: io::Error::other("the process id does not fit a pid_t"),
        })?;
        groups.push(group);
        drop(groups);
        // Without a watchdog the server still runs, and every exit but SIGKILL stops it.
        let watchdog = Watchdog::spawn(group, STOP_GRACE)
            .inspect_err(|err| {
                tracing::warn!(
                    "no watchdog for web server `{}`: killing prettyplay would leave it \
                     running: {err}",
                    settings.command
                );
            })
            .ok();

        let output = Arc::new(Mutex::new(OutputTail::default()));
        let mut pumps = Vec::new();
        let pipes: [Option<Box<dyn io::Read + Send>>; 2] = [
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn io::Read + Send>),
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn io::Read + Send>),
        ];
        for pipe in pipes.into_iter().flatten() {
            let output = Arc::clone(&output);
            let sink = sink.clone();
            let label = label.to_owned();
            pumps.push(thread::spawn(move || {
                pump(pipe, &output, sink.as_ref(), &label);
            }));
        }
        tracing::debug!(group, command = %settings.command, "web server started");
        Ok(ServerProcess {
            child,
            group,
            output,
            pumps,
            watchdog,
            stopped: false,
        })
    }

    /// How the command exited, if it has.
    pub(crate) fn exit_status(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// The last output, escaped and indented for an error; after an exit, what was still in
    /// its pipes is waited for a moment.
    pub(crate) fn last_output(&self) -> String {
        let started = Instant::now();
        while started.elapsed() < DRAIN && !self.pumps.iter().all(JoinHandle::is_finished) {
            thread::sleep(POLL);
        }
        self.output
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .shown()
    }

    /// Stops the whole process group: SIGTERM, then SIGKILL to what is left after
    /// [`STOP_GRACE`]. Answers how the command had exited if it did so before being stopped.
    pub(crate) fn stop(&mut self) -> Option<ExitStatus> {
        if self.stopped {
            return None;
        }
        self.stopped = true;
        let exited_before = self.exit_status();
        signal_group(self.group, libc::SIGTERM);
        let deadline = Instant::now() + STOP_GRACE;
        let mut killed = false;
        loop {
            // The leader is reaped as soon as it exits: a zombie would keep the group alive.
            let _ = self.child.try_wait();
            if !group_alive(self.group) {
                break;
            }
            let now = Instant::now();
            if !killed && now >= deadline {
                tracing::debug!(group = self.group, "web server ignored SIGTERM: SIGKILL");
                signal_group(self.group, libc::SIGKILL);
                killed = true;
            } else if killed && now >= deadline + STOP_GRACE {
                // Unkillable (stuck in the kernel): nothing more can be done.
                break;
            }
            thread::sleep(POLL);
        }
        let _ = self.child.try_wait();
        if let Some(watchdog) = self.watchdog.take() {
            watchdog.dismiss();
        }
        GROUPS
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|g| *g != self.group);
        exited_before
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}

/// Sends `signal` to every process of `group`; a group that is gone is fine.
fn signal_group(group: libc::pid_t, signal: libc::c_int) {
    // Never 0 or 1: kill(0) would hit prettyplay's own group, kill(-1) every process.
    if group > 1 {
        // SAFETY: kill(2) takes plain integers; a negative pid names the process group.
        unsafe {
            libc::kill(-group, signal);
        }
    }
}

/// Whether any process of `group` is left (zombies included).
fn group_alive(group: libc::pid_t) -> bool {
    if group <= 1 {
        return false;
    }
    // SAFETY: kill(2) with signal 0 only checks that the group exists.
    let found = unsafe { libc::kill(-group, 0) };
    found == 0 || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    fn settings(command: &str) -> WebServerSettings {
        WebServerSettings {
            command: command.to_owned(),
            url: "http://127.0.0.1:9".to_owned(),
            timeout: Duration::from_secs(1),
            reuse_existing: false,
            cwd: std::env::temp_dir(),
            env: BTreeMap::from([("GREETING".to_owned(), "hello".to_owned())]),
        }
    }

    #[test]
    fn a_panic_stops_the_whole_group() {
        // The shell and both sleeps are in the group; the shell waits for them.
        let server = ServerProcess::spawn(&settings("sleep 60 & sleep 60; wait"), &[], None, "t")
            .expect("spawn");
        let group = server.group;
        assert!(group_alive(group));
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
            let _server = server;
            panic!("a bug");
        }));
        assert!(unwound.is_err());
        assert!(!group_alive(group), "the group outlived the panic");
        assert!(!GROUPS.lock().unwrap().contains(&group));
    }

    #[test]
    fn its_output_and_exit_are_kept_and_stop_says_it_had_exited() {
        let mut server =
            ServerProcess::spawn(&settings("echo \"$GREETING\"; exit 3"), &[], None, "t")
                .expect("spawn");
        assert!(wait_until(|| server.exit_status().is_some()));
        assert_eq!(server.last_output(), "\n  its last output:\n    | hello");
        let status = server.stop().expect("it had exited");
        assert_eq!(status.code(), Some(3));
        assert_eq!(server.stop(), None, "stopped once");
    }

    fn wait_until(mut done: impl FnMut() -> bool) -> bool {
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(10) {
            if done() {
                return true;
            }
            thread::sleep(POLL);
        }
        false
    }
}
