//! [`OutputTail`]: the last bytes a web server wrote on stdout and stderr, kept to show when it
//! fails; and [`pump`], which reads one of its pipes into the tail and, with `-v`, streams it
//! line by line to a [`LineSink`].
//!
//! Whatever is shown is escaped by [`visible_text`], the escaping of every terminal line, so a
//! server cannot move the cursor, clear the screen or colour the terminal through prettyplay.

use std::collections::VecDeque;
use std::io::{ErrorKind, Read};
use std::sync::{Arc, Mutex, PoisonError};

use crate::visible::visible as visible_text;

/// The most bytes of a server's output kept (its last ones).
pub(crate) const KEPT_BYTES: usize = 16 * 1024;
/// The most lines of the kept output shown in an error (its last ones).
const SHOWN_LINES: usize = 40;
/// The longest line streamed; the rest of a longer line is cut.
const MAX_LINE_BYTES: usize = 4096;

/// Where `-v` streams the servers' output: one line at a time, already labelled and escaped.
pub(crate) type LineSink = Arc<dyn Fn(&str) + Send + Sync>;

/// The last [`KEPT_BYTES`] bytes of a server's output, stdout and stderr interleaved as read.
#[derive(Debug, Default)]
pub(crate) struct OutputTail {
    bytes: VecDeque<u8>,
    /// Whether older output was dropped to keep the bound.
    cut: bool,
}

impl OutputTail {
    /// Appends `chunk`, dropping the oldest bytes past [`KEPT_BYTES`].
    pub(crate) fn push(&mut self, chunk: &[u8]) {
        let chunk = if chunk.len() > KEPT_BYTES {
            self.cut = true;
            &chunk[chunk.len() - KEPT_BYTES..]
        } else {
            chunk
        };
        let over = (self.bytes.len() + chunk.len()).saturating_sub(KEPT_BYTES);
        if over > 0 {
            self.cut = true;
            self.bytes.drain(..over);
        }
        self.bytes.extend(chunk);
    }

    /// The last [`SHOWN_LINES`] lines, escaped, each indented as `    | line`; or a line saying
    /// there was no output.
    pub(crate) fn shown(&self) -> String {
        let (front, back) = self.bytes.as_slices();
        let text = String::from_utf8_lossy(&[front, back].concat()).into_owned();
        let lines: Vec<&str> = text.trim_end_matches(['\n', '\r']).split('\n').collect();
        if text.trim().is_empty() {
            return "\n  it printed nothing".to_owned();
        }
        let skipped = lines.len().saturating_sub(SHOWN_LINES);
        let mut shown = String::from("\n  its last output:");
        if skipped > 0 || self.cut {
            shown.push_str("\n    | ...");
        }
        for line in &lines[skipped..] {
            shown.push_str("\n    | ");
            shown.push_str(&visible_text(line.strip_suffix('\r').unwrap_or(line)));
        }
        shown
    }
}

/// Reads `pipe` until it closes, into `tail`, and each line to `sink` as `[label] line`.
pub(crate) fn pump(
    mut pipe: impl Read,
    tail: &Mutex<OutputTail>,
    sink: Option<&LineSink>,
    label: &str,
) {
    let mut buf = [0u8; 8192];
    let mut line = Vec::new();
    let emit = |line: &[u8]| {
        if let Some(sink) = sink {
            let text = String::from_utf8_lossy(line);
            let text = text.strip_suffix('\r').unwrap_or(&text);
            sink(&format!("[{label}] {}", visible_text(text)));
        }
    };
    loop {
        let n = match pipe.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(err) if err.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        tail.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(&buf[..n]);
        if sink.is_none() {
            continue;
        }
        for &byte in &buf[..n] {
            if byte == b'\n' {
                emit(&line);
                line.clear();
            } else if line.len() < MAX_LINE_BYTES {
                line.push(byte);
            }
        }
    }
    if !line.is_empty() {
        emit(&line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_the_last_bytes_and_shows_the_last_lines_escaped() {
        let mut tail = OutputTail::default();
        assert_eq!(tail.shown(), "\n  it printed nothing");
        tail.push(b"starting\n\x1b[31mred\x1b[0m\tok\r\n");
        assert_eq!(
            tail.shown(),
            "\n  its last output:\n    | starting\n    | \\x1b[31mred\\x1b[0m\tok"
        );
        let mut tail = OutputTail::default();
        for i in 0..100 {
            tail.push(format!("line {i}\n").as_bytes());
        }
        let shown = tail.shown();
        assert!(shown.starts_with("\n  its last output:\n    | ...\n    | line 60\n"));
        assert!(shown.ends_with("    | line 99"), "{shown}");
        let mut tail = OutputTail::default();
        tail.push(&vec![b'a'; KEPT_BYTES - 1]);
        tail.push(b"xyz");
        assert_eq!(tail.bytes.len(), KEPT_BYTES);
        assert_eq!(tail.bytes.back(), Some(&b'z'));
        tail.push(&vec![b'b'; 3 * KEPT_BYTES]);
        assert_eq!(tail.bytes.len(), KEPT_BYTES);
        assert!(tail.bytes.iter().all(|b| *b == b'b'));
    }

    #[test]
    fn pump_streams_labelled_escaped_lines_and_keeps_the_tail() {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&lines);
        let sink: LineSink = Arc::new(move |line: &str| seen.lock().unwrap().push(line.to_owned()));
        let tail = Mutex::new(OutputTail::default());
        pump(
            &b"one\r\ntwo\x07\nlast"[..],
            &tail,
            Some(&sink),
            "web_server",
        );
        assert_eq!(
            *lines.lock().unwrap(),
            [
                "[web_server] one",
                "[web_server] two\\x07",
                "[web_server] last"
            ]
        );
        assert!(tail.lock().unwrap().shown().ends_with("    | last"));
    }
}
