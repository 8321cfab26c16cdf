//! The line grammar of `.steps` files: what one line is (blank or comment, a `test:` header with
//! its name and `@tags`, a `background:` or `examples:` keyword, an `| a | b |` table row, or a
//! step sentence with its trailing `[key=value]` options and `[flag]`s), and where its parts
//! stand, for error columns.
//!
//! Main type: [`Line`] ([`HeaderLine`], [`StepLine`], [`StepOption`]). This file only recognises
//! the shapes; whether a name is unique, an option known or its value valid is decided (and
//! reported) by `parse.rs` and `examples.rs`. The format is documented in `docs/steps-format.md`.

/// The keyword that starts a test header line.
const HEADER: &str = "test:";

/// The keyword line of a file's background block.
const BACKGROUND: &str = "background:";

/// The keyword line of a test's examples table.
const EXAMPLES: &str = "examples:";

/// Step options known to this version of the format, as written in `[key=value]` or, for a
/// [`KNOWN_FLAGS`] entry, as a bare `[key]`.
pub(super) const KNOWN_OPTIONS: &[&str] = &["tries", "optional"];

/// Step options written as a bare `[key]`, without a value. Only these keys make a bracket
/// without `=` an option: any other (`[sic]`) stays in the sentence.
pub(super) const KNOWN_FLAGS: &[&str] = &["optional"];

/// Test header options known to this version of the format: `[saves=NAME]` (a setup test
/// whose storage state is saved) and `[state=NAME]` (a test that starts from it).
pub(super) const KNOWN_HEADER_OPTIONS: &[&str] = &["saves", "state"];

/// What one line of a `.steps` file is, given without its line ending.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Line<'a> {
    /// Blank, or a `#` comment.
    Ignored,
    /// `test: NAME @tag…`.
    Header(HeaderLine<'a>),
    /// `background:` (`col` of the keyword; `extra` the column of text after it, an error).
    Background { col: usize, extra: Option<usize> },
    /// `examples:` (`col` of the keyword; `extra` the column of text after it, an error).
    Examples { col: usize, extra: Option<usize> },
    /// A line starting with `|`: a row of an examples table, split by `examples.rs`.
    Row { col: usize },
    /// A step sentence and its options.
    Step(StepLine<'a>),
}

/// A `test:` header line.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct HeaderLine<'a> {
    /// 1-based column of `test:`.
    pub(super) col: usize,
    /// The name, trimmed, without its tags; may be empty.
    pub(super) name: &'a str,
    /// 1-based character column where the name starts (or would start).
    pub(super) name_col: usize,
    /// The trailing `@tags`, without the `@`, in line order, each once.
    pub(super) tags: Vec<String>,
    /// The trailing `[key=value]` options (before, after or among the tags), in line order;
    /// offsets are bytes into the line.
    pub(super) options: Vec<StepOption<'a>>,
}

/// A step line.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct StepLine<'a> {
    /// 1-based character column of the first non-blank character.
    pub(super) col: usize,
    /// The sentence, trimmed, without its options; may be empty.
    pub(super) sentence: &'a str,
    /// The `[key=value]` options at the end of the line, in line order.
    pub(super) options: Vec<StepOption<'a>>,
}

impl<'a> Line<'a> {
    /// Recognises `raw`, one line without its line ending.
    pub(super) fn classify(raw: &'a str) -> Line<'a> {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return Line::Ignored;
        }
        let lead = raw.len() - raw.trim_start().len();
        for (keyword, is_background) in [(BACKGROUND, true), (EXAMPLES, false)] {
            if let Some(rest) = trimmed.strip_prefix(keyword) {
                let col = col_of(raw, lead);
                let after = lead + keyword.len();
                let extra = (!rest.trim().is_empty())
                    .then(|| col_of(raw, after + (rest.len() - rest.trim_start().len())));
                return if is_background {
                    Line::Background { col, extra }
                } else {
                    Line::Examples { col, extra }
                };
            }
        }
        if trimmed.starts_with('|') {
            return Line::Row {
                col: col_of(raw, lead),
            };
        }
        if trimmed.starts_with(HEADER) {
            let rest_start = lead + HEADER.len();
            let rest = &raw[rest_start..];
            let (name, tags, mut options) = split_header_tail(rest);
            for option in &mut options {
                option.open += rest_start;
                option.value_start += rest_start;
            }
            let name_offset = rest_start + (rest.len() - rest.trim_start().len());
            Line::Header(HeaderLine {
                col: lead + 1,
                name,
                name_col: col_of(raw, name_offset),
                tags,
                options,
            })
        } else {
            let (sentence_end, options) = split_options(raw);
            Line::Step(StepLine {
                col: col_of(raw, lead),
                sentence: raw[..sentence_end].trim(),
                options,
            })
        }
    }
}

/// One `[key=value]` step option; offsets are bytes into the line.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct StepOption<'a> {
    pub(super) key: &'a str,
    /// The value, trimmed; may be empty.
    pub(super) value: &'a str,
    /// Offset of the `[`.
    pub(super) open: usize,
    /// Offset of the value (of the `]` when the value is empty).
    pub(super) value_start: usize,
    /// Written as a bare `[key]` (a [`KNOWN_FLAGS`] entry), without `=`.
    pub(super) flag: bool,
}

/// 1-based character column of a byte offset in `line`.
pub(super) fn col_of(line: &str, byte: usize) -> usize {
    line[..byte].chars().count() + 1
}

/// `tries`: a whole number >= 1 written with digits only.
pub(super) fn parse_tries(value: &str) -> Option<u32> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse::<u32>().ok().filter(|n| *n >= 1)
}

/// Splits a header's text after `test:` into the name, its trailing `@tags` and its trailing
/// `[key=value]` options, which may come in any order (`test: sign in [saves=admin] @smoke`).
fn split_header_tail(rest: &str) -> (&str, Vec<String>, Vec<StepOption<'_>>) {
    let mut end = rest.trim_end().len();
    let mut tags = Vec::new();
    let mut options = Vec::new();
    loop {
        let (name, mut more_tags) = split_tags(&rest[..end]);
        let name_end = name.as_ptr() as usize - rest.as_ptr() as usize + name.len();
        // Only the header's own keys are options: another trailing `[key=value]` is part of
        // the name, as it was before header options existed (`test: buy [item=milk]`).
        let (_, found) = split_options(&rest[..name_end]);
        let mut more_options: Vec<StepOption<'_>> = found
            .into_iter()
            .rev()
            .take_while(|o| is_header_key(o.key))
            .collect();
        more_options.reverse();
        let option_end = more_options
            .first()
            .map_or(name_end, |o| rest[..o.open].trim_end().len());
        if more_tags.is_empty() && more_options.is_empty() {
            end = name_end;
            break;
        }
        // Found from the end backwards: earlier groups go in front.
        more_tags.append(&mut tags);
        tags = more_tags;
        more_options.append(&mut options);
        options = more_options;
        end = option_end;
    }
    let mut unique: Vec<String> = Vec::new();
    for tag in tags {
        if !unique.contains(&tag) {
            unique.push(tag);
        }
    }
    (rest[..end].trim(), unique, options)
}

/// A key of [`KNOWN_HEADER_OPTIONS`], in any case (`[State=x]` is an error, not a name).
pub(super) fn is_header_key(key: &str) -> bool {
    KNOWN_HEADER_OPTIONS
        .iter()
        .any(|known| known.eq_ignore_ascii_case(key))
}

/// The byte offset in a header line of the first thing that looks like a header option
/// (`[state`, `[saves`, any case) but is not one of the header's `options` (in the name, glued to
/// a tag, or followed by more text): it must not silently become part of the name or a tag.
pub(super) fn stray_header_option(raw: &str, options: &[StepOption<'_>]) -> Option<usize> {
    let lower = raw.to_ascii_lowercase();
    KNOWN_HEADER_OPTIONS
        .iter()
        .flat_map(|key| {
            let needle = format!("[{key}");
            lower
                .match_indices(&needle)
                .map(|(at, _)| at)
                .collect::<Vec<_>>()
        })
        .filter(|at| options.iter().all(|o| o.open != *at))
        .min()
}

/// Splits a header's text after `test:` into the name and its trailing `@tags`.
fn split_tags(rest: &str) -> (&str, Vec<String>) {
    let mut end = rest.trim_end().len();
    let mut tags = Vec::new();
    loop {
        let head = &rest[..end];
        let start = head
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_whitespace())
            .map_or(0, |(i, c)| i + c.len_utf8());
        let token = &head[start..];
        match token.strip_prefix('@') {
            Some(tag) if !tag.is_empty() => {
                if !tags.iter().any(|t| t == tag) {
                    tags.push(tag.to_owned());
                }
                end = head[..start].trim_end().len();
            }
            _ => break,
        }
    }
    tags.reverse();
    (rest[..end].trim(), tags)
}

/// Finds the `[key=value]` options at the end of a step line. Returns the byte offset where the
/// sentence ends and the options in line order. A trailing bracket of another shape (`[sic]`)
/// ends the search and stays in the sentence.
fn split_options(line: &str) -> (usize, Vec<StepOption<'_>>) {
    let mut end = line.trim_end().len();
    let mut options = Vec::new();
    loop {
        let head = &line[..end];
        let Some(inner_end) = head.strip_suffix(']').map(str::len) else {
            break;
        };
        let Some(open) = head.rfind('[') else {
            break;
        };
        let inner = &head[open + 1..inner_end];
        let Some(eq) = inner.find('=') else {
            if KNOWN_FLAGS.contains(&inner.trim()) {
                options.push(StepOption {
                    key: inner.trim(),
                    value: "",
                    open,
                    value_start: inner_end,
                    flag: true,
                });
                end = head[..open].trim_end().len();
                continue;
            }
            break;
        };
        let (key, value) = (inner[..eq].trim(), &inner[eq + 1..]);
        if inner.contains(']') || !is_option_key(key) {
            break;
        }
        let value_start = open + 1 + eq + 1 + (value.len() - value.trim_start().len());
        options.push(StepOption {
            key,
            value: value.trim(),
            open,
            value_start,
            flag: false,
        });
        end = head[..open].trim_end().len();
    }
    options.reverse();
    (end, options)
}

/// An option key: an ASCII letter, then ASCII letters, digits, `_` or `-`.
fn is_option_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_and_comment_lines_are_ignored() {
        for raw in ["", "   ", "\t", "# note", "   # indented note"] {
            assert_eq!(Line::classify(raw), Line::Ignored, "{raw:?}");
        }
    }

    #[test]
    fn keywords_and_rows_are_recognised_with_their_columns() {
        assert_eq!(
            Line::classify("background:"),
            Line::Background {
                col: 1,
                extra: None
            }
        );
        assert_eq!(
            Line::classify("  examples:  "),
            Line::Examples {
                col: 3,
                extra: None
            }
        );
        assert_eq!(
            Line::classify("examples: x"),
            Line::Examples {
                col: 1,
                extra: Some(11)
            }
        );
        assert_eq!(Line::classify("  | a | b |"), Line::Row { col: 3 });
        // Only at the start of the line.
        assert!(matches!(
            Line::classify("see the background:"),
            Line::Step(_)
        ));
    }

    #[test]
    fn a_header_gives_its_name_tags_and_columns() {
        assert_eq!(
            Line::classify("  test:  add a todo @smoke @ci"),
            Line::Header(HeaderLine {
                col: 3,
                name: "add a todo",
                name_col: 10,
                tags: vec!["smoke".into(), "ci".into()],
                options: Vec::new(),
            })
        );
        assert_eq!(
            Line::classify("test:"),
            Line::Header(HeaderLine {
                col: 1,
                name: "",
                name_col: 6,
                tags: Vec::new(),
                options: Vec::new(),
            })
        );
    }

    #[test]
    fn header_options_and_tags_come_in_any_order_at_the_end() {
        let raw = "test: sign in [sic] @a [saves = admin] @b [state=base]";
        let Line::Header(header) = Line::classify(raw) else {
            panic!("a header");
        };
        assert_eq!(header.name, "sign in [sic]");
        assert_eq!(header.tags, ["a", "b"]);
        let options: Vec<_> = header.options.iter().map(|o| (o.key, o.value)).collect();
        assert_eq!(options, [("saves", "admin"), ("state", "base")]);
        // Offsets are into the whole line.
        assert_eq!(&raw[header.options[0].open..][..1], "[");
        assert_eq!(&raw[header.options[0].value_start..][..5], "admin");
        // A bracket in the middle of the name is the name's, and so is a trailing one of
        // another key.
        let Line::Header(header) = Line::classify("test: a [x=1] b @t") else {
            panic!("a header");
        };
        assert_eq!((header.name, header.options.len()), ("a [x=1] b", 0));
        let Line::Header(header) = Line::classify("test: buy [item=milk] [state=u]") else {
            panic!("a header");
        };
        assert_eq!((header.name, header.options.len()), ("buy [item=milk]", 1));
        assert_eq!(
            stray_header_option("test: cart @smoke[State=user]", &[]),
            Some(17)
        );
        assert_eq!(stray_header_option("test: buy [item=milk]", &[]), None);
        let raw = "test: a [state=u]";
        let Line::Header(header) = Line::classify(raw) else {
            panic!("a header");
        };
        assert_eq!(stray_header_option(raw, &header.options), None);
    }

    #[test]
    fn a_step_gives_its_sentence_options_and_offsets() {
        let raw = "  café [tries = 3 ]";
        assert_eq!(
            Line::classify(raw),
            Line::Step(StepLine {
                col: 3,
                sentence: "café",
                options: vec![StepOption {
                    key: "tries",
                    value: "3",
                    open: 8,
                    value_start: 17,
                    flag: false,
                }],
            })
        );
        assert_eq!(col_of(raw, 8), 8);
        // A bracket of another shape ends the options and stays in the sentence.
        let Line::Step(StepLine {
            sentence, options, ..
        }) = Line::classify("see [sic] [a=1] [b=]")
        else {
            panic!("expected a step");
        };
        assert_eq!(sentence, "see [sic]");
        let keys: Vec<_> = options.iter().map(|o| (o.key, o.value)).collect();
        assert_eq!(keys, [("a", "1"), ("b", "")]);
    }

    #[test]
    fn a_bare_optional_is_a_flag_alone_or_among_other_options() {
        let raw = "accept the cookie banner [optional]";
        let Line::Step(step) = Line::classify(raw) else {
            panic!("expected a step");
        };
        assert_eq!(step.sentence, "accept the cookie banner");
        assert_eq!(
            step.options,
            [StepOption {
                key: "optional",
                value: "",
                open: 25,
                value_start: 34,
                flag: true,
            }]
        );
        let Line::Step(step) = Line::classify("close it [tries=3] [ optional ] [optional=x]")
        else {
            panic!("expected a step");
        };
        assert_eq!(step.sentence, "close it");
        let options: Vec<_> = step
            .options
            .iter()
            .map(|o| (o.key, o.value, o.flag))
            .collect();
        assert_eq!(
            options,
            [
                ("tries", "3", false),
                ("optional", "", true),
                ("optional", "x", false)
            ]
        );
        // Another bare bracket is the sentence's, and ends the options.
        let Line::Step(step) = Line::classify("see [sic] [optional]") else {
            panic!("expected a step");
        };
        assert_eq!((step.sentence, step.options.len()), ("see [sic]", 1));
        let Line::Step(step) = Line::classify("see [optional] [sic]") else {
            panic!("expected a step");
        };
        assert_eq!(
            (step.sentence, step.options.len()),
            ("see [optional] [sic]", 0)
        );
    }

    #[test]
    fn option_keys_and_tries_values_have_one_shape() {
        for key in ["tries", "a", "max-wait", "x_1"] {
            assert!(is_option_key(key), "{key}");
        }
        for key in ["", "1x", "-a", "a b", "é"] {
            assert!(!is_option_key(key), "{key}");
        }
        assert_eq!(parse_tries("1"), Some(1));
        assert_eq!(parse_tries("007"), Some(7));
        for value in ["", "0", "+1", "-1", "1.0", "x", "99999999999"] {
            assert_eq!(parse_tries(value), None, "{value}");
        }
    }
}
