//! The `console.*` output step code logs during one test, bounded: each line is cut at
//! [`MAX_MESSAGE_BYTES`], and the test keeps at most [`MAX_LINES`] lines and [`MAX_BYTES`] bytes
//! in all; what a step logs past that is dropped and counted in one `… N more lines cut` line at
//! the end of that step's output.
//!
//! Main type: [`ConsoleLog`].

use crate::script::cut_text::{MAX_MESSAGE_BYTES, cut_text};

/// The most console lines kept for one test.
pub(crate) const MAX_LINES: usize = 1000;
/// The most bytes of console lines kept for one test.
pub(crate) const MAX_BYTES: usize = 256 * 1024;

/// One test's console output: lines not yet taken, and what the test has kept so far.
#[derive(Debug, Default)]
pub(crate) struct ConsoleLog {
    /// Lines logged since the last [`ConsoleLog::take`].
    pending: Vec<String>,
    /// Lines and bytes kept over the whole test.
    kept_lines: usize,
    kept_bytes: usize,
    /// Lines dropped since the last [`ConsoleLog::take`].
    cut: usize,
}

impl ConsoleLog {
    /// Records `line` (cut to [`MAX_MESSAGE_BYTES`]) if the test's limits allow it; `None` when it
    /// was dropped, else the line as kept.
    pub(crate) fn push(&mut self, line: String) -> Option<&str> {
        let line = cut_text(line, MAX_MESSAGE_BYTES);
        if self.kept_lines >= MAX_LINES || self.kept_bytes + line.len() > MAX_BYTES {
            self.cut += 1;
            return None;
        }
        self.kept_lines += 1;
        self.kept_bytes += line.len();
        self.pending.push(line);
        self.pending.last().map(String::as_str)
    }

    /// The lines logged since the last call, then `… N more lines cut` if any were dropped.
    pub(crate) fn take(&mut self) -> Vec<String> {
        let mut lines = std::mem::take(&mut self.pending);
        if self.cut > 0 {
            let noun = if self.cut == 1 { "line" } else { "lines" };
            lines.push(format!(
                "… {} more console {noun} cut (a test keeps at most {MAX_LINES} lines, {} KiB)",
                self.cut,
                MAX_BYTES / 1024
            ));
            self.cut = 0;
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_taken_in_order_once() {
        let mut log = ConsoleLog::default();
        assert_eq!(log.push("a".to_owned()), Some("a"));
        log.push("b".to_owned());
        assert_eq!(log.take(), ["a", "b"]);
        assert!(log.take().is_empty());
    }

    #[test]
    fn a_long_line_is_cut() {
        let mut log = ConsoleLog::default();
        let kept = log
            .push("x".repeat(MAX_MESSAGE_BYTES + 5))
            .map(str::to_owned);
        assert_eq!(
            kept,
            Some(format!("{}… 5 bytes cut", "x".repeat(MAX_MESSAGE_BYTES)))
        );
    }

    #[test]
    fn a_test_keeps_at_most_1000_lines_then_counts_the_rest() {
        let mut log = ConsoleLog::default();
        for i in 0..1500 {
            log.push(format!("line {i}"));
        }
        let lines = log.take();
        assert_eq!(lines.len(), MAX_LINES + 1);
        assert_eq!(lines[999], "line 999");
        assert_eq!(
            lines[1000],
            "… 500 more console lines cut (a test keeps at most 1000 lines, 256 KiB)"
        );
        // The limit is the test's: a later step's lines are cut too, and counted afresh.
        log.push("later".to_owned());
        assert_eq!(
            log.take(),
            ["… 1 more console line cut (a test keeps at most 1000 lines, 256 KiB)"]
        );
    }

    #[test]
    fn a_test_keeps_at_most_256_kib() {
        let mut log = ConsoleLog::default();
        for _ in 0..20 {
            log.push("y".repeat(MAX_MESSAGE_BYTES));
        }
        let lines = log.take();
        // 16 lines of 16 KiB fill 256 KiB exactly.
        assert_eq!(lines.len(), 17);
        assert_eq!(
            lines[16],
            "… 4 more console lines cut (a test keeps at most 1000 lines, 256 KiB)"
        );
    }
}
