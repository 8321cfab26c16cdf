//! [`StepsWriter`]: the text of an imported `.steps` file as it is written, with the one rule
//! every line follows: a file for people to read never carries a control or invisible
//! character of its source raw (ESC, BEL, C1 controls, U+202E…; see `visible.rs`), so that
//! reading it cannot clear, retitle or reorder a terminal. Such a character is written as the
//! terminal shows it (`\x1b`, `\u{202e}`). In a comment that is all; in a test name, tag,
//! sentence, cell or doc string the escape becomes the text (`.steps` has no escape of its
//! own), so a comment above the line says so, and a reader can tell it from a backslash the
//! source held.
//!
//! Main type: [`StepsWriter`].

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::visible::{is_unsafe, visible};

/// The comment above a line whose content holds escaped control characters.
const NOTE: &str = "# The next line holds control characters of the source, written as escapes \
                    (`\\x1b`, `\\u{202e}`) that are now its text.";

/// The `.steps` text being written.
#[derive(Debug, Default)]
pub(super) struct StepsWriter {
    text: String,
    /// Whether content (not a comment) was written with escapes.
    escaped: bool,
}

impl StepsWriter {
    /// Writes `line` and a line break.
    pub(super) fn line(&mut self, line: &str) {
        self.text.push_str(line);
        self.text.push('\n');
    }

    /// Writes the comment `# {text}`, its control characters escaped.
    pub(super) fn comment(&mut self, text: &str) {
        let _ = writeln!(self.text, "# {}", visible(text));
    }

    /// Before a line of content: the note that it holds escapes, indented by `indent`, when
    /// one of `texts` (what the line and what belongs to it will show) holds a character to
    /// escape.
    pub(super) fn note<'t>(&mut self, indent: &str, texts: impl IntoIterator<Item = &'t str>) {
        if texts.into_iter().any(|t| t.chars().any(is_unsafe)) {
            self.escaped = true;
            let _ = writeln!(self.text, "{indent}{NOTE}");
        }
    }

    /// The text as written, with what was escaped in content.
    pub(super) fn finish(self) -> Converted {
        Converted {
            text: self.text,
            escaped: self.escaped,
        }
    }
}

/// Content as it is written: its control and invisible characters escaped.
pub(super) fn content(text: &str) -> Cow<'_, str> {
    visible(text)
}

/// A source converted to `.steps` text.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Converted {
    pub(super) text: String,
    /// Content holds control characters of the source written as escapes (each such line has
    /// a comment above it).
    pub(super) escaped: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_with_control_characters_gets_a_note_and_escapes() {
        let mut writer = StepsWriter::default();
        writer.comment("title \u{1b}[2J");
        writer.note("  ", ["open the app"]);
        writer.line(&format!("  {}", content("open the app")));
        writer.note("  ", ["type \u{1b}[2J", "a\u{202e}b"]);
        writer.line(&format!("  {}", content("type \u{1b}[2J")));
        let converted = writer.finish();
        assert!(converted.escaped);
        assert_eq!(
            converted.text,
            format!("# title \\x1b[2J\n  open the app\n  {NOTE}\n  type \\x1b[2J\n")
        );
        assert!(!converted.text.chars().any(is_unsafe));
    }
}
