//! Where the `gherkin` crate reads a `.feature` file's text otherwise than Cucumber does, the
//! text is read here, so that a doc string and a table cell mean in prettyplay what they mean
//! in Cucumber:
//!
//! - a doc string's content is dedented by its opening delimiter's indentation (the crate
//!   removes the smallest indentation of its lines), its media type (`"""json`) is not part of
//!   it, and `\"\"\"` is `"""` (the crate keeps all three as written): [`doc_string_after`];
//! - a backslash before any character but `n`, `|` and `\` in a table cell is a backslash (the
//!   crate refuses the file): [`with_cell_backslashes_escaped`];
//! - a doc string line that holds its delimiter after other text ends the doc string in the
//!   crate (Cucumber reads it as text): it is an error that says to escape it, found by
//!   [`delimiter_after_text`].
//!
//! Main functions: the three above.

use super::doc_string::{DocString, Fed, OpenDocString, delimiter_inside};

/// `text` with each backslash in a table row (a line starting with `|`, outside doc strings)
/// that does not start one of Gherkin's cell escapes `\n`, `\|` and `\\` doubled, so that the
/// crate reads it as the backslash Cucumber reads. Lines keep their number.
pub(super) fn with_cell_backslashes_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut open: Option<OpenDocString> = None;
    for (index, line) in text.split('\n').enumerate() {
        if index > 0 {
            out.push('\n');
        }
        if let Some(doc) = open.as_mut() {
            if let Fed::Closed { .. } = doc.feed(line) {
                open = None;
            }
            out.push_str(line);
            continue;
        }
        open = OpenDocString::open(index + 1, line);
        if !line.trim_start().starts_with('|') {
            out.push_str(line);
            continue;
        }
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            out.push(c);
            if c != '\\' {
                continue;
            }
            match chars.peek() {
                Some('n' | '|' | '\\') => out.extend(chars.next()),
                _ => out.push('\\'),
            }
        }
    }
    out
}

/// The first place where a doc string line holds its delimiter after other text, as
/// `(line, byte offset)`, with doc strings found as Cucumber finds them (a line starting with a
/// delimiter opens one).
pub(super) fn delimiter_after_text(lines: &[&str]) -> Option<(usize, usize)> {
    let mut open: Option<OpenDocString> = None;
    for (index, line) in lines.iter().enumerate() {
        match open.as_mut() {
            Some(doc) => {
                if let Some(at) = delimiter_inside(line, doc.delimiter()) {
                    return Some((index + 1, at));
                }
                if let Fed::Closed { .. } = doc.feed(line) {
                    open = None;
                }
            }
            None => open = OpenDocString::open(index + 1, line),
        }
    }
    None
}

/// The doc string that follows the step at `step_line` (1-based), with blank lines and
/// comments between them, read as Cucumber reads it; with the lines of its opening and closing
/// delimiters.
pub(super) fn doc_string_after(
    lines: &[&str],
    step_line: usize,
) -> Option<(DocString, usize, usize)> {
    let mut index = step_line;
    while let Some(line) = lines.get(index) {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            index += 1;
            continue;
        }
        break;
    }
    let mut open = OpenDocString::open(index + 1, lines.get(index)?)?;
    for (offset, line) in lines[index + 1..].iter().enumerate() {
        if let Fed::Closed { .. } = open.feed(line) {
            return Some((open.finish(), index + 1, index + 2 + offset));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_backslashes_in_cells_are_doubled_and_escapes_kept() {
        let text = "Given x\n  | a\\b | \\| | \\\\ | \\n | c\\ |\n  \"\"\"\n  | d\\e |\n  \"\"\"\n";
        assert_eq!(
            with_cell_backslashes_escaped(text),
            "Given x\n  | a\\\\b | \\| | \\\\ | \\n | c\\\\ |\n  \"\"\"\n  | d\\e |\n  \"\"\"\n"
        );
    }

    #[test]
    fn a_delimiter_after_text_inside_a_doc_string_is_found() {
        let lines = [
            "Given x",
            "  \"\"\"",
            "  say \"\"\"hi",
            "  \"\"\"",
            "And y \"\"\"",
        ];
        assert_eq!(delimiter_after_text(&lines), Some((3, 6)));
        assert_eq!(delimiter_after_text(&lines[..2]), None);
    }

    #[test]
    fn the_doc_string_after_a_step_skips_blank_lines_and_comments() {
        let lines = [
            "Given x",
            "",
            "  # note",
            "    ```md",
            "    # a",
            "      b",
            "    ```",
            "Then",
        ];
        let (doc, open, close) = doc_string_after(&lines, 1).expect("a doc string");
        assert_eq!(open, 4);
        assert_eq!(doc.text, "# a\n  b");
        assert_eq!(doc.media_type.as_deref(), Some("md"));
        assert_eq!(close, 7);
        assert!(doc_string_after(&lines, 8).is_none());
    }
}
