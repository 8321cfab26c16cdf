//! Tracks whether the driver and a browser are still there. playwright-rs leaves a call waiting
//! forever when the driver process dies, because it never fails the pending replies, so
//! prettyplay watches the driver process itself and races every browser call against its death.
//!
//! Main types: [`Lifeline`], the receiving side that every test's page holds a clone of, and
//! [`LifelineCut`], the side that reports the loss once, as a [`Loss`] that says what went
//! away. [`watch_driver`] polls the driver process that prettyplay just started.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

/// How often the driver process is checked. A dead driver fails the calls that wait on it
/// within this interval.
const POLL_INTERVAL: Duration = Duration::from_millis(100);

/// What a lifeline watches, which decides who recovers from its loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Watched {
    /// The Playwright driver process. The runtime starts another one before the next launch,
    /// and says so then.
    Driver,
    /// A browser, the connection to it, or its reused context. The runner launches another
    /// browser for the next test.
    Browser,
}

/// Why something a test depends on went away: what it was, and the reason people read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub(crate) struct Loss {
    pub(crate) watched: Watched,
    pub(crate) reason: String,
}

impl Loss {
    /// The loss of a browser (or its connection or context), for `reason`.
    pub(crate) fn of_browser(reason: impl Into<String>) -> Loss {
        Loss {
            watched: Watched::Browser,
            reason: reason.into(),
        }
    }
}

/// Tells whether something (the driver, a browser) went away, and why.
#[derive(Clone, Debug)]
pub(crate) struct Lifeline {
    gone: watch::Receiver<Option<Arc<str>>>,
    watched: Watched,
}

/// Cuts a [`Lifeline`]. Every holder sees the first reason given.
#[derive(Clone, Debug)]
pub(crate) struct LifelineCut {
    gone: Arc<watch::Sender<Option<Arc<str>>>>,
}

impl Lifeline {
    /// Returns a lifeline of a browser (or of its connection or context) and the handle that
    /// cuts it.
    pub(crate) fn new() -> (Lifeline, LifelineCut) {
        Lifeline::watching(Watched::Browser)
    }

    /// Returns a lifeline of `watched` and the handle that cuts it.
    pub(crate) fn watching(watched: Watched) -> (Lifeline, LifelineCut) {
        let (tx, rx) = watch::channel(None);
        (
            Lifeline { gone: rx, watched },
            LifelineCut { gone: Arc::new(tx) },
        )
    }

    /// Returns why it went away, or `None` while it is there.
    pub(crate) fn lost(&self) -> Option<String> {
        self.gone.borrow().as_deref().map(str::to_owned)
    }

    /// Returns what went away and why, or `None` while it is there.
    pub(crate) fn loss(&self) -> Option<Loss> {
        self.lost().map(|reason| Loss {
            watched: self.watched,
            reason,
        })
    }

    /// Resolves with what went away and why, and never while it is there.
    pub(crate) async fn until_loss(&self) -> Loss {
        Loss {
            watched: self.watched,
            reason: self.until_lost().await,
        }
    }

    /// Resolves with the reason when it goes away, and never while it is there.
    pub(crate) async fn until_lost(&self) -> String {
        let mut gone = self.gone.clone();
        let cut = gone
            .wait_for(Option::is_some)
            .await
            .ok()
            .and_then(|reason| reason.as_deref().map(str::to_owned));
        match cut {
            Some(reason) => reason,
            // The cutting side was dropped without a cut, so it will never be cut.
            None => std::future::pending().await,
        }
    }
}

impl LifelineCut {
    /// Returns whether nobody holds the lifeline any more, which means that what it watches was
    /// dropped on purpose.
    pub(crate) fn is_unheld(&self) -> bool {
        self.gone.is_closed()
    }

    /// Cuts the lifeline with `reason`. Later cuts keep the first reason.
    pub(crate) fn cut(&self, reason: &str) {
        self.gone.send_if_modified(|gone| {
            if gone.is_some() {
                return false;
            }
            *gone = Some(Arc::from(reason));
            true
        });
    }
}

/// One process. Its start time tells it apart from a later process that reuses its pid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ProcessId {
    pid: u32,
    start_time: u64,
}

/// Reads the state, start time and parent of a process from `/proc/PID/stat`, or returns
/// `None` when the process is gone.
fn stat_of(pid: u32) -> Option<(char, u64, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may hold spaces, so the fields start after the
    // last `)`.
    let (_, rest) = stat.rsplit_once(')')?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Counted from 0 after the name, the fields are state (the 3rd field of stat), ppid (the
    // 4th) and starttime (the 22nd).
    let state = fields.first()?.chars().next()?;
    let ppid = fields.get(1)?.parse().ok()?;
    let start_time = fields.get(19)?.parse().ok()?;
    Some((state, start_time, ppid))
}

impl ProcessId {
    /// Returns whether the process still runs. A process that is gone, a zombie, or another
    /// process that took its pid does not count.
    pub(crate) fn is_alive(self) -> bool {
        stat_of(self.pid).is_some_and(|(state, start_time, _)| {
            !matches!(state, 'Z' | 'X' | 'x') && start_time == self.start_time
        })
    }
}

/// Returns the live child processes of prettyplay whose command line contains `needle`, newest
/// last.
pub(crate) fn children_running(needle: &str) -> Vec<ProcessId> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found: Vec<ProcessId> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let (state, start_time, ppid) = stat_of(pid)?;
            if ppid != me || matches!(state, 'Z' | 'X' | 'x') {
                return None;
            }
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            String::from_utf8_lossy(&cmdline)
                .contains(needle)
                .then_some(ProcessId { pid, start_time })
        })
        .collect();
    found.sort_by_key(|p| p.start_time);
    found
}

/// Watches the driver process `driver` on `handle`. The returned lifeline is cut within
/// [`POLL_INTERVAL`] of the driver's exit, and the watch ends with the cut.
pub(crate) fn watch_driver(driver: ProcessId, handle: &tokio::runtime::Handle) -> Lifeline {
    let (lifeline, cut) = Lifeline::watching(Watched::Driver);
    handle.spawn(async move {
        loop {
            tokio::time::sleep(POLL_INTERVAL).await;
            if !driver.is_alive() {
                cut.cut(&format!(
                    "the Playwright driver (pid {}) exited unexpectedly",
                    driver.pid
                ));
                return;
            }
            if cut.is_unheld() {
                // Nobody holds the lifeline any more: the driver was shut down on purpose.
                return;
            }
        }
    });
    lifeline
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_first_cut_is_what_every_holder_sees() {
        let (lifeline, cut) = Lifeline::new();
        let holder = lifeline.clone();
        assert_eq!(lifeline.lost(), None);
        let waiting = tokio::spawn(async move { holder.until_lost().await });
        cut.cut("the driver exited");
        cut.cut("something later");
        assert_eq!(waiting.await.expect("joined"), "the driver exited");
        assert_eq!(lifeline.lost().as_deref(), Some("the driver exited"));
    }

    #[tokio::test]
    async fn a_loss_says_what_went_away_so_that_nobody_reads_the_reason() {
        let (driver, cut) = Lifeline::watching(Watched::Driver);
        assert_eq!(driver.loss(), None);
        cut.cut("the driver exited");
        let loss = driver.loss().expect("cut");
        assert_eq!(loss.watched, Watched::Driver);
        assert_eq!(loss.to_string(), "the driver exited");
        assert_eq!(driver.until_loss().await, loss);
        let (browser, cut) = Lifeline::new();
        cut.cut("Chromium exited");
        assert_eq!(browser.loss(), Some(Loss::of_browser("Chromium exited")));
    }

    #[tokio::test]
    async fn a_lifeline_nobody_can_cut_never_resolves() {
        let (lifeline, cut) = Lifeline::new();
        drop(cut);
        let waited = tokio::time::timeout(Duration::from_millis(50), lifeline.until_lost()).await;
        assert!(waited.is_err(), "resolved without a cut");
    }

    #[test]
    fn a_child_process_is_found_and_its_exit_seen() {
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("start sleep");
        // The kernel lets `spawn` return before the new program's arguments are visible in
        // `/proc/PID/cmdline` (close-on-exec fds close before the arguments are set up), so
        // the child may take a moment to show up: look for it the way the runtime does, by polling.
        let started = std::time::Instant::now();
        let process = loop {
            let found = children_running("sleep");
            if let Some(process) = found.iter().copied().find(|p| p.pid == child.id()) {
                break process;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the child is never listed"
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        assert!(process.is_alive());
        child.kill().expect("kill the child");
        // Not reaped yet: a zombie is not alive.
        std::thread::sleep(Duration::from_millis(200));
        assert!(!process.is_alive(), "a killed child still counts as alive");
        child.wait().expect("reap the child");
        assert!(!process.is_alive(), "a reaped child still counts as alive");
    }
}
