//! The signals that stop a run: SIGINT (Ctrl-C), SIGTERM (what `kill`, `timeout`, `docker stop`
//! and a cancelled CI job send) and SIGHUP (a closed terminal or SSH session). The first one
//! stops the run gracefully and a second one, of any kind, exits at once; either way prettyplay
//! exits with 128 + the signal's number, as shells report a process that a signal ended.
//!
//! Main type: [`StopSignal`]. [`install`] hands each signal to a callback on a thread of its
//! own, because a signal handler may do almost nothing itself: it records the first signal and
//! writes one byte to a pipe that the thread reads.

use std::io::{self, Read};
use std::os::fd::IntoRawFd;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicI32, Ordering};

/// A signal that stops a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum StopSignal {
    /// SIGINT: Ctrl-C in a terminal.
    Interrupt,
    /// SIGTERM: `kill`, `timeout`, `docker stop`, a cancelled CI job.
    Terminate,
    /// SIGHUP: the terminal or SSH session closed.
    HangUp,
}

/// What prettyplay does on a stop signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reaction {
    /// Stop the run gracefully: no new test starts, the running ones are stopped, and the
    /// partial summary and the reports are written.
    Stop,
    /// Exit at once, because the user (or a supervisor) asked again.
    ExitNow,
}

impl StopSignal {
    const ALL: [StopSignal; 3] = [
        StopSignal::Interrupt,
        StopSignal::Terminate,
        StopSignal::HangUp,
    ];

    fn number(self) -> libc::c_int {
        match self {
            StopSignal::Interrupt => libc::SIGINT,
            StopSignal::Terminate => libc::SIGTERM,
            StopSignal::HangUp => libc::SIGHUP,
        }
    }

    fn of_number(number: libc::c_int) -> Option<StopSignal> {
        StopSignal::ALL.into_iter().find(|s| s.number() == number)
    }

    fn of_exit_code(code: u8) -> Option<StopSignal> {
        StopSignal::ALL.into_iter().find(|s| s.exit_code() == code)
    }

    /// The exit code of a run this signal stopped: 128 + its number, as shells report it
    /// (documented in `docs/exit-codes.md`).
    pub(crate) fn exit_code(self) -> u8 {
        match self {
            StopSignal::Interrupt => 130,
            StopSignal::Terminate => 143,
            StopSignal::HangUp => 129,
        }
    }

    /// The signal's name, as `kill -l` spells it with the `SIG` prefix.
    pub(crate) fn name(self) -> &'static str {
        match self {
            StopSignal::Interrupt => "SIGINT",
            StopSignal::Terminate => "SIGTERM",
            StopSignal::HangUp => "SIGHUP",
        }
    }

    /// Whether prettyplay handles this signal. SIGINT is always handled, as it always was.
    /// SIGTERM and SIGHUP are left alone when they were ignored at start, because that is how
    /// `nohup` (and a supervisor that means it) asks a program to outlive its terminal.
    fn handled(self, ignored_at_start: bool) -> bool {
        match self {
            StopSignal::Interrupt => true,
            StopSignal::Terminate | StopSignal::HangUp => !ignored_at_start,
        }
    }
}

impl Reaction {
    /// The reaction to a stop signal that `earlier` stop signals came before.
    fn after(earlier: usize) -> Reaction {
        match earlier {
            0 => Reaction::Stop,
            _ => Reaction::ExitNow,
        }
    }
}

/// The number of the first stop signal received, or 0.
static FIRST: AtomicI32 = AtomicI32::new(0);
/// The writing end of the pipe that wakes the thread of [`install`], or -1 before it.
static WAKE: AtomicI32 = AtomicI32::new(-1);

/// The first stop signal this process received, if any.
pub(crate) fn received() -> Option<StopSignal> {
    StopSignal::of_number(FIRST.load(Ordering::SeqCst))
}

/// The exit code of a run that was interrupted: 128 + the number of the first stop signal, or
/// 130 (Ctrl-C's) when none was recorded.
pub(crate) fn interrupted_exit_code() -> u8 {
    received().map_or(StopSignal::Interrupt.exit_code(), StopSignal::exit_code)
}

/// Handles the stop signals from now on: `react` is called on a thread of its own with each
/// signal and what to do about it (see [`Reaction::after`]). Call it once per process.
pub(crate) fn install(
    mut react: impl FnMut(StopSignal, Reaction) + Send + 'static,
) -> io::Result<()> {
    let (mut reader, writer) = UnixStream::pair()?;
    // A handler must never block: with the pipe full, the byte is dropped instead.
    writer.set_nonblocking(true)?;
    // The writing end stays open for the life of the process, since a signal may come at any
    // time.
    let fd = writer.into_raw_fd();
    if WAKE
        .compare_exchange(-1, fd, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        // SAFETY: `fd` was just taken from the stream and nothing else refers to it.
        unsafe {
            libc::close(fd);
        }
        return Err(io::Error::other("the stop signals are already handled"));
    }
    std::thread::Builder::new()
        .name("stop-signals".to_owned())
        .spawn(move || {
            let mut earlier = 0;
            let mut byte = [0_u8];
            while reader.read_exact(&mut byte).is_ok() {
                if let Some(signal) = StopSignal::of_exit_code(byte[0]) {
                    react(signal, Reaction::after(earlier));
                    earlier += 1;
                }
            }
        })?;
    for signal in StopSignal::ALL {
        if !signal.handled(ignored(signal.number())) {
            tracing::debug!("{} was ignored at start and stays ignored", signal.name());
            continue;
        }
        // SAFETY: the action does only what a signal handler may: atomic operations and
        // write(2). The registry saves and restores errno around it.
        unsafe { signal_hook_registry::register(signal.number(), move || on_signal(signal)) }?;
    }
    Ok(())
}

/// The signal handler: records the first signal and wakes the thread of [`install`].
fn on_signal(signal: StopSignal) {
    let _ = FIRST.compare_exchange(0, signal.number(), Ordering::SeqCst, Ordering::SeqCst);
    let fd = WAKE.load(Ordering::SeqCst);
    if fd >= 0 {
        let byte = signal.exit_code();
        // SAFETY: write(2) is async-signal-safe, `byte` lives through the call, and `fd` is the
        // pipe's writing end, open for the life of the process.
        unsafe {
            libc::write(fd, (&raw const byte).cast(), 1);
        }
    }
}

/// Whether `number` is ignored (SIG_IGN) in this process.
fn ignored(number: libc::c_int) -> bool {
    // SAFETY: sigaction(2) with a null new action only reads the current one into `current`,
    // which is a plain C struct for which all zeroes is a valid value.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(number, std::ptr::null(), &raw mut current) == 0
            && current.sa_sigaction == libc::SIG_IGN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_signal_exits_with_128_plus_its_number() {
        for signal in StopSignal::ALL {
            assert_eq!(
                i32::from(signal.exit_code()),
                128 + signal.number(),
                "{signal:?}"
            );
            assert_eq!(StopSignal::of_exit_code(signal.exit_code()), Some(signal));
            assert_eq!(StopSignal::of_number(signal.number()), Some(signal));
        }
        assert_eq!(StopSignal::Interrupt.exit_code(), 130);
        assert_eq!(StopSignal::Terminate.exit_code(), 143);
        assert_eq!(StopSignal::HangUp.exit_code(), 129);
    }

    #[test]
    fn the_first_signal_stops_the_run_and_any_later_one_exits_at_once() {
        assert_eq!(Reaction::after(0), Reaction::Stop);
        assert_eq!(Reaction::after(1), Reaction::ExitNow);
        assert_eq!(Reaction::after(7), Reaction::ExitNow);
    }

    #[test]
    fn ctrl_c_is_always_handled() {
        assert!(StopSignal::Interrupt.handled(false));
        assert!(StopSignal::Interrupt.handled(true));
    }

    #[test]
    fn sigterm_and_sighup_are_handled_unless_ignored_at_start() {
        for signal in [StopSignal::Terminate, StopSignal::HangUp] {
            assert!(signal.handled(false), "{signal:?}");
            assert!(!signal.handled(true), "{signal:?}: nohup");
        }
    }

    #[test]
    fn no_signal_received_reads_as_ctrl_c() {
        // The unit tests send no stop signal to their own process.
        assert_eq!(received(), None);
        assert_eq!(interrupted_exit_code(), 130);
    }
}
