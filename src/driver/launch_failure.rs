//! [`ExitedAtLaunch`]: what a browser launch that ended with the process's end comes down to,
//! read from the driver's error: the exit code or signal when the driver saw it, and the first
//! lines the process printed. The driver's own text also holds the whole command line (dozens of
//! Chromium flags) and its log, twice; a user needs neither to see that `/bin/true` is not a
//! browser.
//!
//! When the driver's error does not say how the process ended (it often reports the closed
//! pipe first), [`probe_version`] asks the executable for `--version`, which tells a browser
//! that failed to start from a program that is no browser at all.

use std::fmt;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Lines of the process's output kept at most.
const OUTPUT_LINES: usize = 5;
/// Characters of one output line kept at most.
const LINE_CHARS: usize = 200;
/// How long `--version` may take before the probe gives up on it.
const PROBE_LIMIT: Duration = Duration::from_secs(5);
/// Words of which a browser's `--version` names one.
const BROWSER_WORDS: [&str; 5] = ["chromium", "chrome", "firefox", "mozilla", "webkit"];

/// How a launched process ended before it became a browser the driver could talk to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ExitedAtLaunch {
    /// `code 0` or `signal SIGSEGV`; `None` when the driver did not see the end.
    pub(crate) exit: Option<String>,
    /// The first lines it wrote to stdout or stderr, without the driver's prefixes.
    pub(crate) output: Vec<String>,
    /// What `--version` printed (its first line, maybe empty), when it was asked.
    pub(crate) version: Option<String>,
}

impl ExitedAtLaunch {
    /// Reads the driver's launch error, or `None` when it does not say that the launched process
    /// ended or closed its pipe.
    pub(crate) fn read(error: &str) -> Option<ExitedAtLaunch> {
        let exit = error.lines().find_map(exit_of);
        let launched = error
            .lines()
            .any(|line| line.trim_start().starts_with("<launched>"));
        let closed = error.contains("Browser closed") || error.contains("has been closed");
        if exit.is_none() && !(launched && closed) {
            return None;
        }
        let mut output: Vec<String> = Vec::new();
        for line in error.lines().filter_map(output_of) {
            // The driver writes its log twice (browser output, then logs).
            if !output.iter().any(|kept| kept == &line) {
                output.push(line);
            }
            if output.len() == OUTPUT_LINES {
                break;
            }
        }
        Some(ExitedAtLaunch {
            exit,
            output,
            version: None,
        })
    }

    /// Whether the executable is not a browser at all: it exited with code 0 at launch, which a
    /// browser never does, or its `--version` names no browser.
    pub(crate) fn not_a_browser(&self) -> bool {
        match (&self.exit, &self.version) {
            (Some(exit), _) => exit == "code 0",
            (None, Some(version)) => {
                let version = version.to_lowercase();
                !BROWSER_WORDS.iter().any(|word| version.contains(word))
            }
            (None, None) => false,
        }
    }
}

impl fmt::Display for ExitedAtLaunch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.exit {
            Some(exit) => write!(f, "it exited with {exit} as soon as it started")?,
            None => write!(f, "it stopped as soon as it started")?,
        }
        match &self.version {
            Some(version) if version.is_empty() => write!(f, "; `--version` prints nothing")?,
            Some(version) => write!(f, "; `--version` prints {version:?}")?,
            None => {}
        }
        if self.output.is_empty() {
            return Ok(());
        }
        write!(f, "; it printed:")?;
        for line in &self.output {
            write!(f, "\n    {line}")?;
        }
        Ok(())
    }
}

/// The first line `executable --version` prints (empty when none), or `None` when it cannot
/// be run or takes more than [`PROBE_LIMIT`]. It blocks the calling thread for that long at
/// most, which only a failed launch pays.
pub(crate) fn probe_version(executable: &Path) -> Option<String> {
    let mut child = Command::new(executable)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < PROBE_LIMIT => {
                std::thread::sleep(Duration::from_millis(20));
            }
            _ => {
                // A probe that hangs is given up; its end does not matter.
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let mut printed = String::new();
    child.stdout.take()?.read_to_string(&mut printed).ok()?;
    let first = printed.lines().map(str::trim).find(|line| !line.is_empty());
    Some(first.unwrap_or("").chars().take(LINE_CHARS).collect())
}

/// `code N` or `signal S` from the driver's `<process did exit: exitCode=N, signal=S>` line.
fn exit_of(line: &str) -> Option<String> {
    let rest = line.split_once("<process did exit: ")?.1;
    let rest = rest.split_once('>').map_or(rest, |(inside, _)| inside);
    let mut code = None;
    let mut signal = None;
    for part in rest.split(',') {
        match part.trim().split_once('=') {
            Some(("exitCode", value)) if value != "null" => code = Some(value),
            Some(("signal", value)) if value != "null" => signal = Some(value),
            _ => {}
        }
    }
    match (code, signal) {
        (Some(code), _) => Some(format!("code {code}")),
        (None, Some(signal)) => Some(format!("signal {signal}")),
        (None, None) => Some("an unknown status".to_owned()),
    }
}

/// The text of a `[pid=N][out] text` or `[pid=N][err] text` line of the driver's log, cut to
/// [`LINE_CHARS`]; `None` for other lines and empty output.
fn output_of(line: &str) -> Option<String> {
    let (_, text) = line
        .split_once("][out]")
        .or_else(|| line.split_once("][err]"))?;
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if text.chars().count() > LINE_CHARS {
        let cut: String = text.chars().take(LINE_CHARS).collect();
        return Some(format!("{cut}…"));
    }
    Some(text.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of the driver's error for `--executable /bin/true`, with the flag list cut.
    const TRUE: &str = "Protocol error (BrowserType.launch): Browser.launch: Browser closed.
==================== Browser output: ====================
<launching> /bin/true --disable-field-trial-config --disable-background-networking --no-sandbox --user-data-dir=/tmp/x --remote-debugging-pipe about:blank
<launched> pid=4242
[pid=4242] <process did exit: exitCode=0, signal=null>
[pid=4242] starting temporary directories cleanup
=========================== logs ===========================
<launching> /bin/true --disable-field-trial-config --disable-background-networking --no-sandbox --user-data-dir=/tmp/x --remote-debugging-pipe about:blank
<launched> pid=4242
[pid=4242] <process did exit: exitCode=0, signal=null>
[pid=4242] starting temporary directories cleanup
============================================================";

    #[test]
    fn a_clean_exit_without_output_is_read() {
        let exited = ExitedAtLaunch::read(TRUE).expect("exited");
        assert_eq!(
            exited,
            ExitedAtLaunch {
                exit: Some("code 0".into()),
                output: vec![],
                version: None,
            }
        );
        assert!(exited.not_a_browser());
        assert_eq!(
            exited.to_string(),
            "it exited with code 0 as soon as it started"
        );
    }

    /// The driver often reports the closed pipe before the exit: then `--version` decides.
    #[test]
    fn a_closed_pipe_without_an_exit_asks_the_version() {
        let error = "Protocol error: Target page, context or browser has been closed\nBrowser \
                     logs:\n\n<launching> /bin/true --disable-gpu --no-sandbox\n<launched> \
                     pid=14256\n TargetClosedError: Target page, context or browser has been closed";
        let exited = ExitedAtLaunch::read(error).expect("closed");
        assert_eq!(exited.exit, None);
        assert!(!exited.not_a_browser(), "nothing says so yet");
        let dir = tempfile::tempdir().expect("tempdir");
        let silent = dir.path().join("silent");
        std::fs::write(&silent, "#!/bin/sh\nexit 0\n").expect("write");
        let executable = std::os::unix::fs::PermissionsExt::from_mode(0o755);
        std::fs::set_permissions(&silent, executable).expect("chmod");
        let probed = ExitedAtLaunch {
            version: probe_version(&silent),
            ..exited.clone()
        };
        assert_eq!(probed.version.as_deref(), Some(""));
        assert!(probed.not_a_browser());
        assert_eq!(
            probed.to_string(),
            "it stopped as soon as it started; `--version` prints nothing"
        );
        let coreutils = ExitedAtLaunch {
            version: probe_version(Path::new("/bin/true")),
            ..exited.clone()
        };
        assert!(coreutils.not_a_browser(), "{coreutils:?}");
        let chromium = ExitedAtLaunch {
            version: Some("Chromium 131.0.6778.85 built on Debian".into()),
            ..exited
        };
        assert!(!chromium.not_a_browser());
        assert_eq!(probe_version(Path::new("/nonexistent/browser")), None);
    }

    #[test]
    fn output_lines_are_kept_once_each_and_capped() {
        let mut error = String::from("Browser closed.\n");
        for _ in 0..2 {
            error.push_str("[pid=7][err] error while loading shared libraries: libnss3.so\n");
            for n in 0..8 {
                error.push_str(&format!("[pid=7][out] line {n}\n"));
            }
            error
                .push_str("[pid=7][out] \n[pid=7] <process did exit: exitCode=127, signal=null>\n");
        }
        let exited = ExitedAtLaunch::read(&error).expect("exited");
        assert_eq!(exited.exit.as_deref(), Some("code 127"));
        assert!(!exited.not_a_browser());
        assert_eq!(
            exited.output,
            [
                "error while loading shared libraries: libnss3.so",
                "line 0",
                "line 1",
                "line 2",
                "line 3"
            ]
        );
        assert_eq!(
            exited.to_string(),
            "it exited with code 127 as soon as it started; it printed:\n    error while \
             loading shared libraries: libnss3.so\n    line 0\n    line 1\n    line 2\n    \
             line 3"
        );
    }

    #[test]
    fn a_signal_is_named_and_other_errors_are_not_read() {
        let error = "[pid=1] <process did exit: exitCode=null, signal=SIGSEGV>";
        assert_eq!(
            ExitedAtLaunch::read(error).and_then(|e| e.exit),
            Some("signal SIGSEGV".to_owned())
        );
        assert_eq!(ExitedAtLaunch::read("Timeout 60000ms exceeded"), None);
    }
}
