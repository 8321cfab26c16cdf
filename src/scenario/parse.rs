//! Parsing of one `.steps` file into its [`Test`]s (headers, tags, step sentences, step options,
//! occurrences), and [`ScenarioError`], the error type of the whole scenario area (parsing,
//! discovery, reading).
//!
//! The format is documented in `docs/steps-format.md`. Parsing never stops at the first problem:
//! every error in a file is collected so users can fix them all at once.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::snippet::Snippet;

use super::{Step, Test};

/// The keyword that starts a test header line.
const HEADER: &str = "test:";

/// Step options known to this version of the format, as written in `[key=value]`.
const KNOWN_OPTIONS: &[&str] = &["tries"];

/// An error while finding, reading or parsing scenario files.
///
/// [`ScenarioError::Parse`] displays like rustc: `file:line:col: message`, then the offending line
/// with a caret under the column, then an optional hint.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// A problem at a place in a `.steps` file.
    #[error("{file}:{line}:{col}: {message}\n{}", Snippet::new(*.line, *.col, .text, .hint.as_deref()))]
    Parse {
        /// The file as shown to users (relative to the project root where possible).
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column, counted in characters (Unicode scalar values).
        col: usize,
        /// The offending line, without its line ending.
        text: String,
        /// What is wrong, a lowercase fragment.
        message: String,
        /// How to fix it, where there is something useful to say.
        hint: Option<String>,
    },
    /// The file holds no step at all (it is empty, blank or only comments).
    #[error(
        "{file}: no tests in file\n  = hint: add a `test: NAME` line followed by step sentences, or delete the file"
    )]
    NoTests { file: String },
    /// A path given to discovery does not exist.
    #[error("scenario path `{}` does not exist", .path.display())]
    NotFound { path: PathBuf },
    /// A file or directory could not be read.
    #[error("cannot read `{}`", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// Several errors, each displayed in turn; never nested, never fewer than two.
    #[error("{}", DisplayMany(.0))]
    Multiple(Vec<ScenarioError>),
}

impl ScenarioError {
    /// Folds a list of errors into one: `None` for no error, the error itself for one, and a flat
    /// [`ScenarioError::Multiple`] otherwise.
    pub(crate) fn combine(errors: Vec<ScenarioError>) -> Option<ScenarioError> {
        let mut flat = Vec::with_capacity(errors.len());
        for error in errors {
            match error {
                ScenarioError::Multiple(inner) => flat.extend(inner),
                other => flat.push(other),
            }
        }
        match flat.len() {
            0 => None,
            1 => flat.pop(),
            _ => Some(ScenarioError::Multiple(flat)),
        }
    }
}

struct DisplayMany<'a>(&'a [ScenarioError]);

impl fmt::Display for DisplayMany<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} errors in scenario files:", self.0.len())?;
        for error in self.0 {
            write!(f, "\n\n{error}")?;
        }
        Ok(())
    }
}

/// Parses one `.steps` file.
///
/// `display_path` names the file in error messages and, for a file without any `test:` header,
/// gives the name of its single test (the file stem: `todo.steps` → `todo`). `source` is the raw
/// file content: UTF-8, with or without a byte-order mark, LF or CRLF line endings.
///
/// Returns every test in file order, or every error found in the file.
pub fn parse(display_path: &str, source: &[u8]) -> Result<Vec<Test>, ScenarioError> {
    let source = source.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(source);
    let text = std::str::from_utf8(source).map_err(|e| utf8_error(display_path, source, e))?;
    let mut parser = Parser::new(display_path);
    for (index, raw) in text.split('\n').enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        parser.line(index + 1, raw);
    }
    parser.finish()
}

/// Reports the first invalid byte of a file that is not UTF-8.
fn utf8_error(file: &str, source: &[u8], error: std::str::Utf8Error) -> ScenarioError {
    let valid = &source[..error.valid_up_to()];
    let line_start = valid.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
    // The prefix up to the bad byte is valid UTF-8 by definition of `valid_up_to`.
    let col = String::from_utf8_lossy(&valid[line_start..])
        .chars()
        .count()
        + 1;
    let rest = &source[line_start..];
    let line_end = rest.iter().position(|b| *b == b'\n').unwrap_or(rest.len());
    let line_bytes = &rest[..line_end];
    let line_bytes = line_bytes.strip_suffix(b"\r").unwrap_or(line_bytes);
    let bad = source[error.valid_up_to()];
    ScenarioError::Parse {
        file: file.to_owned(),
        line,
        col,
        text: String::from_utf8_lossy(line_bytes).into_owned(),
        message: format!("invalid UTF-8 (byte 0x{bad:02x})"),
        hint: Some("`.steps` files must be UTF-8; re-save the file with that encoding".to_owned()),
    }
}

/// A test being built, line by line.
struct OpenTest {
    name: String,
    line: usize,
    col: usize,
    text: String,
    tags: Vec<String>,
    steps: Vec<Step>,
    occurrences: HashMap<String, u32>,
    /// The header was erroneous (empty or duplicate name): keep parsing its steps for their own
    /// errors, but neither report it as empty nor return it.
    discarded: bool,
}

impl OpenTest {
    fn push(&mut self, sentence: String, line: usize, tries: Option<u32>) {
        let count = self.occurrences.entry(sentence.clone()).or_insert(0);
        *count += 1;
        self.steps.push(Step {
            sentence,
            line,
            occurrence: *count,
            tries,
        });
    }
}

struct Parser<'a> {
    file: &'a str,
    tests: Vec<Test>,
    errors: Vec<ScenarioError>,
    /// Name → header line of every test seen so far.
    names: HashMap<String, usize>,
    current: Option<OpenTest>,
    /// Steps before the first header: the whole test of a header-less file, an error otherwise.
    orphans: Option<OpenTest>,
}

impl<'a> Parser<'a> {
    fn new(file: &'a str) -> Self {
        Parser {
            file,
            tests: Vec::new(),
            errors: Vec::new(),
            names: HashMap::new(),
            current: None,
            orphans: None,
        }
    }

    fn error(
        &mut self,
        line: usize,
        col: usize,
        text: &str,
        message: String,
        hint: Option<String>,
    ) {
        self.errors.push(ScenarioError::Parse {
            file: self.file.to_owned(),
            line,
            col,
            text: text.to_owned(),
            message,
            hint,
        });
    }

    fn line(&mut self, number: usize, raw: &str) {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return;
        }
        let lead = raw.len() - raw.trim_start().len();
        if trimmed.starts_with(HEADER) {
            self.header(number, raw, lead);
        } else {
            self.step(number, raw);
        }
    }

    fn header(&mut self, number: usize, raw: &str, lead: usize) {
        if let Some(orphans) = self.orphans.take()
            && let Some(first) = orphans.steps.first()
        {
            self.error(
                first.line,
                orphans.col,
                &orphans.text,
                "step outside a test".to_owned(),
                Some(
                    "put a `test: NAME` line above it, or remove every `test:` line to make \
                     the whole file one test"
                        .to_owned(),
                ),
            );
        }
        self.close_current();

        let rest_start = lead + HEADER.len();
        let (name, tags) = split_tags(&raw[rest_start..]);
        let name_offset =
            rest_start + (raw.len() - rest_start - raw[rest_start..].trim_start().len());
        let name_col = col_of(raw, name_offset);
        let mut discarded = false;
        if name.is_empty() {
            discarded = true;
            self.error(
                number,
                name_col,
                raw,
                "empty test name".to_owned(),
                Some("write the name after `test:`, e.g. `test: add a todo`".to_owned()),
            );
        } else if let Some(first) = self.names.get(name).copied() {
            discarded = true;
            self.error(
                number,
                name_col,
                raw,
                format!("duplicate test name `{name}`"),
                Some(format!(
                    "the first `test: {name}` is at line {first}; test names must be unique \
                     within a file"
                )),
            );
        } else {
            self.names.insert(name.to_owned(), number);
        }
        self.current = Some(OpenTest {
            name: name.to_owned(),
            line: number,
            col: lead + 1,
            text: raw.to_owned(),
            tags,
            steps: Vec::new(),
            occurrences: HashMap::new(),
            discarded,
        });
    }

    fn step(&mut self, number: usize, raw: &str) {
        let (sentence_end, options) = split_options(raw);
        let sentence = raw[..sentence_end].trim();
        let mut tries = None;
        let mut seen: Vec<&str> = Vec::new();
        for option in &options {
            let bracket_col = col_of(raw, option.open);
            if !KNOWN_OPTIONS.contains(&option.key) {
                self.error(
                    number,
                    bracket_col,
                    raw,
                    format!("unknown step option `{}`", option.key),
                    Some(format!(
                        "known options: {}",
                        KNOWN_OPTIONS
                            .iter()
                            .map(|k| format!("`{k}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                );
                continue;
            }
            if seen.contains(&option.key) {
                self.error(
                    number,
                    bracket_col,
                    raw,
                    format!("step option `{}` is given twice", option.key),
                    Some("keep only one of them".to_owned()),
                );
                continue;
            }
            seen.push(option.key);
            // `tries` is the only known option so far.
            match parse_tries(option.value) {
                Some(n) => tries = Some(n),
                None => self.error(
                    number,
                    col_of(raw, option.value_start),
                    raw,
                    format!(
                        "invalid value `{}` for step option `{}`",
                        option.value, option.key
                    ),
                    Some(
                        "`tries` takes a whole number from 1 upwards, e.g. `[tries=3]`".to_owned(),
                    ),
                ),
            }
        }
        if sentence.is_empty() {
            let col = options.first().map_or(1, |o| col_of(raw, o.open));
            self.error(
                number,
                col,
                raw,
                "step options without a step sentence".to_owned(),
                Some("write the sentence before its options on the same line".to_owned()),
            );
            // The test is wrong already; do not also call it empty.
            if let Some(test) = self.current.as_mut() {
                test.discarded = true;
            }
            return;
        }
        let sentence = sentence.to_owned();
        if let Some(test) = self.current.as_mut() {
            test.push(sentence, number, tries);
            return;
        }
        // No header yet: the step belongs to the file's implicit test, or is an error once a
        // header shows up.
        let lead = raw.len() - raw.trim_start().len();
        let orphans = self.orphans.get_or_insert_with(|| OpenTest {
            name: String::new(),
            line: number,
            col: col_of(raw, lead),
            text: raw.to_owned(),
            tags: Vec::new(),
            steps: Vec::new(),
            occurrences: HashMap::new(),
            discarded: false,
        });
        orphans.push(sentence, number, tries);
    }

    /// Ends the open test: reports it if empty, keeps it otherwise.
    fn close_current(&mut self) {
        let Some(test) = self.current.take() else {
            return;
        };
        if test.discarded {
            return;
        }
        if test.steps.is_empty() {
            self.error(
                test.line,
                test.col,
                &test.text,
                format!("test `{}` has no steps", test.name),
                Some(format!(
                    "add step sentences on the lines below `test: {}`",
                    test.name
                )),
            );
            return;
        }
        self.tests.push(Test {
            name: test.name,
            line: test.line,
            tags: test.tags,
            steps: test.steps,
        });
    }

    fn finish(mut self) -> Result<Vec<Test>, ScenarioError> {
        self.close_current();
        if let Some(orphans) = self.orphans.take() {
            // No header anywhere (a header would have taken the orphans): one test named after
            // the file.
            self.tests.push(Test {
                name: file_stem(self.file),
                line: orphans.line,
                tags: Vec::new(),
                steps: orphans.steps,
            });
        }
        if let Some(error) = ScenarioError::combine(self.errors) {
            return Err(error);
        }
        if self.tests.is_empty() {
            return Err(ScenarioError::NoTests {
                file: self.file.to_owned(),
            });
        }
        Ok(self.tests)
    }
}

/// The name of a header-less file's single test.
fn file_stem(display_path: &str) -> String {
    Path::new(display_path).file_stem().map_or_else(
        || display_path.to_owned(),
        |s| s.to_string_lossy().into_owned(),
    )
}

/// 1-based character column of a byte offset in `line`.
fn col_of(line: &str, byte: usize) -> usize {
    line[..byte].chars().count() + 1
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

/// One `[key=value]` step option; offsets are bytes into the line.
struct StepOption<'a> {
    key: &'a str,
    value: &'a str,
    /// Offset of the `[`.
    open: usize,
    /// Offset of the value (of the `]` when the value is empty).
    value_start: usize,
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

/// `tries`: a whole number >= 1 written with digits only.
fn parse_tries(value: &str) -> Option<u32> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse::<u32>().ok().filter(|n| *n >= 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(source: &str) -> Vec<Test> {
        match parse("scenarios/todo.steps", source.as_bytes()) {
            Ok(tests) => tests,
            Err(e) => panic!("unexpected error:\n{e}"),
        }
    }

    fn err(source: &str) -> ScenarioError {
        match parse("scenarios/todo.steps", source.as_bytes()) {
            Ok(tests) => panic!("expected an error, got {tests:?}"),
            Err(e) => e,
        }
    }

    fn sentences(test: &Test) -> Vec<&str> {
        test.steps.iter().map(|s| s.sentence.as_str()).collect()
    }

    /// (line, col, message) of a single `Parse` error.
    fn at(error: &ScenarioError) -> (usize, usize, &str) {
        match error {
            ScenarioError::Parse {
                line, col, message, ..
            } => (*line, *col, message.as_str()),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn parses_the_documented_example() {
        let tests = ok("# a comment line\n\
             test: add a todo @smoke\n  \
               open the app\n  \
               type \"buy milk\" into the new todo field and press Enter\n  \
               the list shows \"buy milk\"        [tries=3]\n");
        assert_eq!(
            tests,
            vec![Test {
                name: "add a todo".into(),
                line: 2,
                tags: vec!["smoke".into()],
                steps: vec![
                    Step {
                        sentence: "open the app".into(),
                        line: 3,
                        occurrence: 1,
                        tries: None
                    },
                    Step {
                        sentence: "type \"buy milk\" into the new todo field and press Enter"
                            .into(),
                        line: 4,
                        occurrence: 1,
                        tries: None
                    },
                    Step {
                        sentence: "the list shows \"buy milk\"".into(),
                        line: 5,
                        occurrence: 1,
                        tries: Some(3)
                    },
                ],
            }]
        );
    }

    #[test]
    fn returns_all_tests_in_file_order() {
        let tests = ok("test: b\n  one\n\ntest: a\n  two\n  three\n");
        let names: Vec<_> = tests.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["b", "a"]);
        assert_eq!(sentences(&tests[1]), ["two", "three"]);
        assert_eq!(tests[1].line, 4);
    }

    #[test]
    fn tags_are_only_taken_from_the_end_of_the_header() {
        let tests = ok("test: a @b c @d @e\n  step\n");
        assert_eq!(tests[0].name, "a @b c");
        assert_eq!(tests[0].tags, ["d", "e"]);
    }

    #[test]
    fn a_lone_at_sign_is_not_a_tag_and_duplicate_tags_collapse() {
        let tests = ok("test: email me @ home @x @x\n  step\n");
        assert_eq!(tests[0].name, "email me @ home");
        assert_eq!(tests[0].tags, ["x"]);
    }

    #[test]
    fn blank_lines_comments_and_indentation_are_ignored() {
        let tests = ok("\n   # indented comment\n\ttest:   spaced name  \n\n\t  click #submit  \n");
        assert_eq!(tests[0].name, "spaced name");
        assert_eq!(sentences(&tests[0]), ["click #submit"]);
        assert_eq!(tests[0].steps[0].line, 5);
    }

    #[test]
    fn occurrences_count_identical_sentences_per_test() {
        let tests =
            ok("test: a\n  click ok\n  wait\n  click ok\n  click ok\ntest: b\n  click ok\n");
        let occ: Vec<_> = tests[0].steps.iter().map(|s| s.occurrence).collect();
        assert_eq!(occ, [1, 1, 2, 3]);
        assert_eq!(tests[1].steps[0].occurrence, 1);
    }

    #[test]
    fn options_are_stripped_and_several_are_allowed() {
        let tests = ok("test: a\n  see it [tries=2]\n  see it  [ tries = 7 ]  \n");
        assert_eq!(sentences(&tests[0]), ["see it", "see it"]);
        assert_eq!(tests[0].steps[0].tries, Some(2));
        assert_eq!(tests[0].steps[1].tries, Some(7));
        // Options count in occurrences by sentence only.
        assert_eq!(tests[0].steps[1].occurrence, 2);
    }

    #[test]
    fn brackets_that_are_not_options_stay_in_the_sentence() {
        let tests = ok(
            "test: a\n  the title reads [sic]\n  click [x=1] then save\n  shows \"[a=b]\"\n  see [sic] [tries=2]\n",
        );
        assert_eq!(
            sentences(&tests[0]),
            [
                "the title reads [sic]",
                "click [x=1] then save",
                "shows \"[a=b]\"",
                "see [sic]"
            ]
        );
        assert_eq!(tests[0].steps[3].tries, Some(2));
    }

    #[test]
    fn header_less_file_is_one_test_named_after_the_stem() {
        let tests = ok("# setup\n  open the app\n  click add\n");
        assert_eq!(tests.len(), 1);
        assert_eq!(tests[0].name, "todo");
        assert_eq!(tests[0].line, 2);
        assert!(tests[0].tags.is_empty());
        assert_eq!(sentences(&tests[0]), ["open the app", "click add"]);
    }

    #[test]
    fn crlf_line_endings_and_bom_are_accepted() {
        let tests = ok("\u{feff}test: a @t\r\n  open it [tries=2]\r\n  close it\r\n");
        assert_eq!(tests[0].name, "a");
        assert_eq!(tests[0].tags, ["t"]);
        assert_eq!(sentences(&tests[0]), ["open it", "close it"]);
        assert_eq!(tests[0].steps[0].tries, Some(2));
    }

    #[test]
    fn duplicate_test_name_displays_location_snippet_and_hint() {
        let e = err("test: x\n  one\n\ntest: x\n  two\n");
        assert_eq!(
            e.to_string(),
            "scenarios/todo.steps:4:7: duplicate test name `x`\n  \
             |\n\
             4 | test: x\n  \
             |       ^\n  \
             = hint: the first `test: x` is at line 1; test names must be unique within a file"
        );
    }

    #[test]
    fn unknown_option_displays_location_snippet_and_hint() {
        let e = err("test: a\n  see it [retries=3]\n");
        assert_eq!(
            e.to_string(),
            "scenarios/todo.steps:2:10: unknown step option `retries`\n  \
             |\n\
             2 |   see it [retries=3]\n  \
             |          ^\n  \
             = hint: known options: `tries`"
        );
    }

    #[test]
    fn malformed_tries_values_are_errors() {
        for (line, col) in [
            ("  a [tries=0]", 12),
            ("  a [tries=x]", 12),
            ("  a [tries=]", 12),
        ] {
            let e = err(&format!("test: t\n{line}\n"));
            let value = &line[11..line.len() - 1];
            assert_eq!(
                at(&e),
                (
                    2,
                    col,
                    format!("invalid value `{value}` for step option `tries`").as_str()
                ),
                "{line}"
            );
        }
        let e = err("test: t\n  a [tries=99999999999]\n");
        assert_eq!(
            at(&e).2,
            "invalid value `99999999999` for step option `tries`"
        );
        let e = err("test: t\n  a [tries=-1]\n");
        assert_eq!(at(&e).2, "invalid value `-1` for step option `tries`");
    }

    #[test]
    fn repeated_option_is_an_error() {
        let e = err("test: t\n  a [tries=1] [tries=2]\n");
        assert_eq!(at(&e), (2, 15, "step option `tries` is given twice"));
    }

    #[test]
    fn options_without_sentence_is_an_error() {
        let e = err("test: t\n  [tries=2]\n");
        assert_eq!(at(&e), (2, 3, "step options without a step sentence"));
    }

    #[test]
    fn empty_test_name_is_an_error() {
        let e = err("test:\n  a\n");
        assert_eq!(at(&e), (1, 6, "empty test name"));
        let e = err("test: @smoke\n  a\n");
        assert_eq!(at(&e), (1, 7, "empty test name"));
    }

    #[test]
    fn test_without_steps_is_an_error() {
        let e = err("test: a\n  one\ntest: empty\n# nothing\n");
        assert_eq!(at(&e), (3, 1, "test `empty` has no steps"));
        assert!(
            e.to_string()
                .ends_with("hint: add step sentences on the lines below `test: empty`")
        );
    }

    #[test]
    fn step_before_the_first_header_is_an_error() {
        let e = err("  stray step\n  another\ntest: a\n  one\n");
        assert_eq!(at(&e), (1, 3, "step outside a test"));
    }

    #[test]
    fn empty_or_comment_only_file_has_no_tests() {
        for source in ["", "\n\n", "# only a comment\n"] {
            let e = err(source);
            assert!(matches!(e, ScenarioError::NoTests { .. }), "{source:?}");
            assert_eq!(
                e.to_string(),
                "scenarios/todo.steps: no tests in file\n  \
                 = hint: add a `test: NAME` line followed by step sentences, or delete the file"
            );
        }
    }

    #[test]
    fn non_utf8_reports_the_line_and_column_of_the_first_bad_byte() {
        let source = b"test: a\n  caf\xc3\xa9 \xff here\n";
        let e = parse("x.steps", source).expect_err("not utf-8");
        assert_eq!(at(&e), (2, 8, "invalid UTF-8 (byte 0xff)"));
        assert!(e.to_string().contains("2 |   café \u{fffd} here\n"), "{e}");
    }

    #[test]
    fn every_error_in_a_file_is_reported() {
        let e = err("test: a\n  x [retries=1]\ntest: a\n  y\ntest: b\n");
        let ScenarioError::Multiple(errors) = &e else {
            panic!("expected several errors, got {e:?}");
        };
        let found: Vec<_> = errors.iter().map(at).collect();
        assert_eq!(
            found,
            [
                (2, 5, "unknown step option `retries`"),
                (3, 7, "duplicate test name `a`"),
                (5, 1, "test `b` has no steps"),
            ]
        );
        assert!(
            e.to_string()
                .starts_with("3 errors in scenario files:\n\nscenarios/todo.steps:2:5: ")
        );
    }

    #[test]
    fn caret_follows_tabs() {
        let e = err("test: a\n\tx [bad=1]\n");
        assert!(
            e.to_string().contains("2 | \tx [bad=1]\n  | \t  ^\n"),
            "{e}"
        );
    }

    #[test]
    fn combine_flattens() {
        let one = || ScenarioError::NotFound {
            path: PathBuf::from("a"),
        };
        assert!(ScenarioError::combine(Vec::new()).is_none());
        assert!(matches!(
            ScenarioError::combine(vec![one()]),
            Some(ScenarioError::NotFound { .. })
        ));
        let nested = ScenarioError::Multiple(vec![one(), one()]);
        match ScenarioError::combine(vec![nested, one()]) {
            Some(ScenarioError::Multiple(v)) => assert_eq!(v.len(), 3),
            other => panic!("{other:?}"),
        }
    }
}
