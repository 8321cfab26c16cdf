//! [`Watchdog`]: a small process that stops one web server's process group when prettyplay
//! ends without stopping it (SIGKILL, an abort, a crash).
//!
//! The kernel's parent-death signal is not enough for this. It reaches only the server's shell,
//! not what the shell started: `cd app && npm start; echo done` forks, and the server outlives
//! its shell with the port still open. The watchdog holds the reading end of a pipe whose only
//! writing end prettyplay holds (the lifeline). However prettyplay ends, the kernel closes that
//! end, the watchdog reads end-of-file, and it sends the whole group SIGTERM, then SIGKILL after
//! the grace period. A pipe also sidesteps a pitfall of the parent-death signal, which fires
//! when the thread that spawned the child ends rather than the process.
//!
//! The watchdog runs in a process group of its own and ignores SIGINT, SIGTERM and SIGHUP, so
//! that what ends prettyplay does not end it too: a terminal's Ctrl-C reaches the whole
//! foreground group, and `timeout` signals its child's group. It is a POSIX shell script
//! because `sh` runs the server's command anyway, so it needs nothing more on the machine, no
//! hidden mode of prettyplay's own binary, and it works the same from unit tests.

use std::io::{self, PipeWriter};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Waits for end-of-file on stdin, then stops the process group `$1`: SIGTERM, and SIGKILL to
/// what is left after `$2` tenths of a second. A group that is already gone ends it at once.
const SCRIPT: &str = r#"trap '' INT TERM HUP
while read -r _; do :; done
kill -s TERM -- "-$1" 2>/dev/null || exit 0
waited=0
while [ "$waited" -lt "$2" ] && kill -s 0 -- "-$1" 2>/dev/null; do
  sleep 0.1
  waited=$((waited + 1))
done
kill -s KILL -- "-$1" 2>/dev/null
exit 0
"#;

/// The watchdog of one process group; see the module comment.
pub(crate) struct Watchdog {
    process: Child,
    /// The only writing end of the lifeline. It is never written to: its closing is the
    /// message.
    _lifeline: PipeWriter,
}

impl Watchdog {
    /// Starts a watchdog for the process group `group`, which gets `grace` between SIGTERM and
    /// SIGKILL.
    pub(crate) fn spawn(group: libc::pid_t, grace: Duration) -> io::Result<Watchdog> {
        // Both ends are close-on-exec, so no other child of prettyplay (the server itself, the
        // driver) inherits the writing end and keeps the lifeline open after prettyplay ends.
        // The reading end becomes the watchdog's stdin, which exec keeps open.
        let (reader, writer) = io::pipe()?;
        let tenths = grace.as_millis().div_ceil(100);
        let process = Command::new("sh")
            .arg("-c")
            .arg(SCRIPT)
            .arg("prettyplay-web-server-watchdog")
            .arg(group.to_string())
            .arg(tenths.to_string())
            .stdin(Stdio::from(reader))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()?;
        Ok(Watchdog {
            process,
            _lifeline: writer,
        })
    }

    /// Ends the watchdog without letting it act, once prettyplay has stopped the group itself:
    /// it is killed before the lifeline closes, so that it never signals a group id that the
    /// system may since have given to someone else.
    pub(crate) fn dismiss(mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }

    /// Closes the lifeline as prettyplay's death would, and waits for the watchdog to act.
    #[cfg(test)]
    fn cut(self) -> io::Result<std::process::ExitStatus> {
        let Watchdog {
            mut process,
            _lifeline,
        } = self;
        drop(_lifeline);
        process.wait()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;

    /// A process group of `sh -c command`, as the web servers are started.
    fn group(command: &str) -> Child {
        Command::new("sh")
            .arg("-c")
            .arg(command)
            .process_group(0)
            .spawn()
            .expect("spawn a group")
    }

    /// Reaps `child` when it exits, on a thread of its own.
    fn reap(mut child: Child) -> std::thread::JoinHandle<()> {
        std::thread::spawn(move || {
            let _ = child.wait();
        })
    }

    fn pid_of(child: &Child) -> libc::pid_t {
        libc::pid_t::try_from(child.id()).expect("a pid fits a pid_t")
    }

    /// Whether any process of `group` is left that is not a zombie. The shell of these tests is
    /// reaped by the test, and a zombie grandchild is reaped by whoever adopted it.
    fn group_running(group: libc::pid_t) -> bool {
        std::fs::read_dir("/proc")
            .expect("read /proc")
            .filter_map(Result::ok)
            .filter_map(|entry| std::fs::read_to_string(entry.path().join("stat")).ok())
            .any(|stat| {
                let Some((_, rest)) = stat.rsplit_once(')') else {
                    return false;
                };
                let fields: Vec<&str> = rest.split_whitespace().collect();
                // After the name: state, ppid, pgrp.
                fields.first() != Some(&"Z") && fields.get(2) == Some(&group.to_string().as_str())
            })
    }

    #[test]
    fn a_cut_lifeline_stops_the_whole_group_the_shell_forked() {
        // The shell forks a sleep and waits for it, as `cd app && server; echo done` does.
        let server = group("sleep 60 & sleep 60; wait");
        let group = pid_of(&server);
        let watchdog = Watchdog::spawn(group, Duration::from_secs(5)).expect("spawn a watchdog");
        // The shell starts both sleeps first.
        std::thread::sleep(Duration::from_millis(200));
        let started = Instant::now();
        // Whoever adopts the shell when prettyplay dies reaps it; a zombie would count as a
        // live member of the group and make the watchdog wait out the grace period.
        let reaper = reap(server);
        let status = watchdog.cut().expect("wait for the watchdog");
        assert!(status.success(), "{status}");
        let _ = reaper.join();
        assert!(!group_running(group), "the group outlived its watchdog");
        // SIGTERM ends sleep at once: the grace period was not waited out.
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn a_group_that_ignores_sigterm_gets_sigkill_after_the_grace_period() {
        let mut server = group("trap '' TERM; sleep 60 & sleep 60; wait");
        let group = pid_of(&server);
        // The shell sets its trap before it starts the sleeps, which inherit it.
        std::thread::sleep(Duration::from_millis(200));
        let watchdog =
            Watchdog::spawn(group, Duration::from_millis(300)).expect("spawn a watchdog");
        watchdog.cut().expect("wait for the watchdog");
        let _ = server.wait();
        // The orphaned sleeps are reaped by whoever adopts them, which may take a moment on a
        // busy machine: a bound, not a speed.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while group_running(group) && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(!group_running(group), "the group outlived its watchdog");
    }

    #[test]
    fn a_dismissed_watchdog_leaves_the_group_alone() {
        let mut server = group("sleep 60");
        let group = pid_of(&server);
        let watchdog = Watchdog::spawn(group, Duration::from_secs(5)).expect("spawn a watchdog");
        watchdog.dismiss();
        std::thread::sleep(Duration::from_millis(200));
        assert!(server.try_wait().expect("look at the group").is_none());
        server.kill().expect("kill the group");
        let _ = server.wait();
    }

    #[test]
    fn the_signals_that_end_prettyplay_do_not_end_its_watchdog() {
        let mut server = group("sleep 60");
        let group = pid_of(&server);
        let watchdog = Watchdog::spawn(group, Duration::from_secs(5)).expect("spawn a watchdog");
        let watchdog_pid = pid_of(&watchdog.process);
        // The shell sets its traps as it starts.
        std::thread::sleep(Duration::from_millis(200));
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: kill(2) takes plain integers; the process is this test's child.
            unsafe {
                libc::kill(watchdog_pid, signal);
            }
        }
        std::thread::sleep(Duration::from_millis(200));
        watchdog.cut().expect("wait for the watchdog");
        let _ = server.wait();
        assert!(!group_running(group), "the watchdog died with the signals");
    }
}
