//! Source excerpts for error messages (scenario files, `prettyplay.toml`).

use std::fmt;

/// The rustc-like source excerpt under a `file:line:col: message` error: the line, a caret
/// under the column, and an optional hint.
pub(crate) struct Snippet<'a> {
    line: usize,
    col: usize,
    text: &'a str,
    hint: Option<&'a str>,
}

impl<'a> Snippet<'a> {
    pub(crate) fn new(line: usize, col: usize, text: &'a str, hint: Option<&'a str>) -> Self {
        Snippet {
            line,
            col,
            text,
            hint,
        }
    }
}

impl fmt::Display for Snippet<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let number = self.line.to_string();
        let pad = " ".repeat(number.len());
        writeln!(f, "{pad} |")?;
        if self.text.is_empty() {
            writeln!(f, "{number} |")?;
        } else {
            writeln!(f, "{number} | {}", self.text)?;
        }
        // Keep tabs as tabs so the caret lines up with the text above it.
        let mut chars = self.text.chars();
        let indent: String = (1..self.col)
            .map(|_| match chars.next() {
                Some('\t') => '\t',
                _ => ' ',
            })
            .collect();
        write!(f, "{pad} | {indent}^")?;
        if let Some(hint) = self.hint {
            write!(f, "\n{pad} = hint: {hint}")?;
        }
        Ok(())
    }
}
