//! Doc strings, read as Cucumber reads them in `.feature` files and as `.steps` files write
//! them: a delimiter line (`"""` or ```` ``` ````, optionally followed by a media type such as
//! `"""json`), the content lines, and a line that starts with the same delimiter. Each content
//! line loses as much leading white space as the opening delimiter had (a line indented less
//! loses all of it), and an escaped delimiter (`\"\"\"`, or ```` \`\`\` ```` in a backtick
//! doc string) is the delimiter itself.
//!
//! Main types: [`DocString`] (the value) and [`OpenDocString`] (one being read, line by line).

use std::fmt;

/// The delimiters a doc string may use, each with its escaped form.
const DELIMITERS: &[(&str, &str)] = &[("\"\"\"", "\\\"\\\"\\\""), ("```", "\\`\\`\\`")];

/// A step's doc string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocString {
    /// The content: dedented, without its delimiter lines, escaped delimiters read.
    pub text: String,
    /// What follows the opening delimiter (`json` in `"""json`), if anything. It is not part of
    /// the content: Cucumber passes it beside it.
    pub media_type: Option<String>,
}

impl DocString {
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The doc string as lines of a file, each starting with `indent`: the delimiter (with the
    /// media type), the content with each delimiter escaped, the delimiter. The first delimiter
    /// with which the lines read back as this doc string is used (content holding an escaped
    /// delimiter as text would read back as the delimiter); `None` when neither does.
    pub(crate) fn written(&self, indent: &str) -> Option<String> {
        DELIMITERS.iter().find_map(|(delimiter, escaped)| {
            let media_type = self.media_type.as_deref().unwrap_or("");
            let mut lines = vec![format!("{indent}{delimiter}{media_type}")];
            for line in self.text.split('\n') {
                lines.push(if line.is_empty() {
                    String::new()
                } else {
                    format!("{indent}{}", line.replace(delimiter, escaped))
                });
            }
            lines.push(format!("{indent}{delimiter}"));
            (read_back(&lines).as_ref() == Some(self)).then(|| lines.join("\n") + "\n")
        })
    }
}

/// The doc string `lines` hold, when they are one delimiter line, content, and a closing line.
fn read_back(lines: &[String]) -> Option<DocString> {
    let (first, rest) = lines.split_first()?;
    let mut open = OpenDocString::open(1, first)?;
    for (i, line) in rest.iter().enumerate() {
        if let Fed::Closed { extra: None } = open.feed(line) {
            return (i + 1 == rest.len()).then(|| open.finish());
        }
    }
    None
}

impl From<&str> for DocString {
    fn from(text: &str) -> Self {
        DocString {
            text: text.to_owned(),
            media_type: None,
        }
    }
}

/// The content, as step code reads it.
impl fmt::Display for DocString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A doc string whose closing delimiter has not been read yet.
#[derive(Debug)]
pub(crate) struct OpenDocString {
    /// 1-based line of the opening delimiter.
    pub(crate) line: usize,
    /// 1-based column of the opening delimiter.
    pub(crate) col: usize,
    /// The text of the opening line, for errors.
    pub(crate) text: String,
    delimiter: &'static str,
    escaped: &'static str,
    media_type: Option<String>,
    lines: Vec<String>,
}

/// What a line did to an [`OpenDocString`].
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Fed {
    /// A content line.
    Content,
    /// The closing delimiter; `Some(byte offset)` of text after it on the line.
    Closed { extra: Option<usize> },
}

impl OpenDocString {
    /// The doc string that `raw`, line `line`, opens, if it is a delimiter line.
    pub(crate) fn open(line: usize, raw: &str) -> Option<OpenDocString> {
        let trimmed = raw.trim_start();
        let (delimiter, escaped) = DELIMITERS
            .iter()
            .find(|(d, _)| trimmed.starts_with(d))
            .copied()?;
        let lead = raw.len() - trimmed.len();
        let media_type = trimmed[delimiter.len()..].trim();
        Some(OpenDocString {
            line,
            col: raw[..lead].chars().count() + 1,
            text: raw.to_owned(),
            delimiter,
            escaped,
            media_type: (!media_type.is_empty()).then(|| media_type.to_owned()),
            lines: Vec::new(),
        })
    }

    /// The delimiter this doc string opened with.
    pub(crate) fn delimiter(&self) -> &'static str {
        self.delimiter
    }

    /// Reads the next line: content, or the closing delimiter.
    pub(crate) fn feed(&mut self, raw: &str) -> Fed {
        let trimmed = raw.trim_start();
        if let Some(rest) = trimmed.strip_prefix(self.delimiter) {
            let extra = (!rest.trim().is_empty())
                .then(|| raw.len() - rest.len() + (rest.len() - rest.trim_start().len()));
            return Fed::Closed { extra };
        }
        let indent = self.col - 1;
        let lead = raw.chars().take_while(|c| c.is_whitespace()).count();
        let content: String = if lead >= indent {
            raw.chars().skip(indent).collect()
        } else {
            trimmed.to_owned()
        };
        self.lines
            .push(content.replace(self.escaped, self.delimiter));
        Fed::Content
    }

    /// The doc string read.
    pub(crate) fn finish(self) -> DocString {
        DocString {
            text: self.lines.join("\n"),
            media_type: self.media_type,
        }
    }
}

/// Where `raw`, a content line of a doc string opened with `delimiter`, holds the delimiter
/// after other text (a byte offset): Cucumber reads it as text, but the `gherkin` crate ends the
/// doc string there.
pub(crate) fn delimiter_inside(raw: &str, delimiter: &str) -> Option<usize> {
    let trimmed = raw.trim_start();
    if trimmed.starts_with(delimiter) {
        return None;
    }
    raw.find(delimiter)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &[&str]) -> DocString {
        let mut open = OpenDocString::open(1, lines[0]).expect("a delimiter line");
        for (i, line) in lines[1..].iter().enumerate() {
            if let Fed::Closed { .. } = open.feed(line) {
                assert_eq!(i, lines.len() - 2, "closed early at {line:?}");
                return open.finish();
            }
        }
        panic!("not closed");
    }

    #[test]
    fn content_is_dedented_by_the_opening_delimiters_indentation() {
        let doc = read(&[
            "    \"\"\"",
            "    first",
            "      indented",
            "",
            "  less indented",
            "    \"\"\"",
        ]);
        assert_eq!(doc.text, "first\n  indented\n\nless indented");
        assert_eq!(doc.media_type, None);
    }

    #[test]
    fn a_media_type_is_kept_apart_and_escaped_delimiters_are_read() {
        let doc = read(&[
            "  ```json",
            "  {\"a\": \"\"\"}",
            "  \\`\\`\\`",
            "  \\\"\\\"\\\"",
            "  ```",
        ]);
        assert_eq!(doc.text, "{\"a\": \"\"\"}\n```\n\\\"\\\"\\\"");
        assert_eq!(doc.media_type.as_deref(), Some("json"));
        let doc = read(&["\"\"\"text/plain", "a \\\"\\\"\\\" b", "\"\"\""]);
        assert_eq!(doc.text, "a \"\"\" b");
        assert_eq!(doc.media_type.as_deref(), Some("text/plain"));
    }

    #[test]
    fn an_empty_doc_string_is_empty_and_text_after_the_close_is_found() {
        assert_eq!(read(&["\"\"\"", "\"\"\""]).text, "");
        let mut open = OpenDocString::open(3, "  \"\"\"").expect("opens");
        assert_eq!((open.line, open.col), (3, 3));
        assert_eq!(open.feed("  \"\"\" x"), Fed::Closed { extra: Some(6) });
        assert!(OpenDocString::open(1, "\"a\"").is_none());
    }

    #[test]
    fn a_doc_string_is_written_so_that_it_reads_back_the_same() {
        for (text, media_type, delimiter) in [
            ("first\n  indented\n\nlast  ", Some("json"), "\"\"\""),
            ("holds \"\"\" and ```", None, "\"\"\""),
            ("\"\"\"\n   ", None, "\"\"\""),
            ("holds \\\"\\\"\\\" literally", None, "```"),
            ("\\\"\\\"\"\"\"", None, "\"\"\""),
            ("", None, "\"\"\""),
        ] {
            let doc = DocString {
                text: text.to_owned(),
                media_type: media_type.map(str::to_owned),
            };
            let written = doc.written("    ").expect("writable");
            let lines: Vec<&str> = written.trim_end_matches('\n').split('\n').collect();
            assert!(
                lines[0].starts_with(&format!("    {delimiter}")),
                "{written}"
            );
            assert_eq!(read(&lines), doc, "{written}");
        }
        let both = DocString::from("\\\"\\\"\\\" and \\`\\`\\`");
        assert_eq!(both.written(""), None);
    }

    #[test]
    fn a_delimiter_after_text_on_a_content_line_is_found() {
        assert_eq!(delimiter_inside("  say \"\"\"hi\"\"\"", "\"\"\""), Some(6));
        assert_eq!(delimiter_inside("  \"\"\"", "\"\"\""), None);
        assert_eq!(delimiter_inside("  say \\\"\\\"\\\"", "\"\"\""), None);
    }
}
