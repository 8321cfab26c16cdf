//! Parsing of one `.steps` file into its `background:` steps and its [`Test`]s: the lines that
//! [`Line`] recognises are gathered into a background and tests, with step occurrences counted,
//! and checked (unique and non-empty names, known step options with valid values, no empty test
//! or background); a test's `examples:` table is checked and expanded by `examples.rs`.
//!
//! Main types: [`Parsed`], and the private `Parser` behind [`parse`]. The format is documented in
//! `docs/steps-format.md`. Parsing never stops at the first problem: every error in a file is
//! collected so users can fix them all at once.

use std::collections::HashMap;
use std::path::Path;

use super::examples::{Owner, Table};
use super::line::{
    HeaderLine, KNOWN_OPTIONS, Line, StepLine, StepOption, col_of, parse_tries, stray_header_option,
};
use super::mistakes::mistake;
use super::{ScenarioError, Step, Test};

/// What one `.steps` file declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    /// The steps of its `background:` block (empty without one).
    pub background: Vec<Step>,
    /// Its tests in file order, a test with an examples table expanded into one per row.
    pub tests: Vec<Test>,
}

/// Parses one `.steps` file.
///
/// `display_path` names the file in error messages and, for a file without any `test:` header,
/// gives the name of its single test (the file stem: `todo.steps` → `todo`). `source` is the raw
/// file content: UTF-8, with or without a byte-order mark, LF or CRLF line endings.
///
/// Returns the background and every test in file order, or every error found in the file.
pub fn parse(display_path: &str, source: &[u8]) -> Result<Parsed, ScenarioError> {
    let source = source.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(source);
    let text = std::str::from_utf8(source)
        .map_err(|e| ScenarioError::invalid_utf8(display_path, source, e))?;
    let mut parser = Parser::new(display_path);
    for (index, raw) in text.split('\n').enumerate() {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        parser.line(index + 1, raw);
    }
    parser.finish()
}

/// A test being built, line by line.
struct OpenTest {
    name: String,
    line: usize,
    col: usize,
    text: String,
    tags: Vec<String>,
    steps: Vec<Step>,
    /// The raw line of each step, for errors `examples.rs` finds in sentences.
    step_texts: Vec<String>,
    occurrences: HashMap<String, u32>,
    /// The test's `examples:` table, once its keyword was seen.
    table: Option<Table>,
    /// `[saves=NAME]` and `[state=NAME]` of the header.
    saves: Option<String>,
    state: Option<String>,
    /// The header was erroneous (empty or duplicate name): keep parsing its steps for their own
    /// errors, but neither report it as empty nor return it.
    discarded: bool,
}

impl OpenTest {
    fn new(name: &str, line: usize, col: usize, raw: &str, tags: Vec<String>) -> Self {
        OpenTest {
            name: name.to_owned(),
            line,
            col,
            text: raw.to_owned(),
            tags,
            steps: Vec::new(),
            step_texts: Vec::new(),
            occurrences: HashMap::new(),
            table: None,
            saves: None,
            state: None,
            discarded: false,
        }
    }

    fn push(&mut self, sentence: String, line: usize, raw: &str, tries: Option<u32>) {
        self.step_texts.push(raw.to_owned());
        let count = self.occurrences.entry(sentence.clone()).or_insert(0);
        *count += 1;
        self.steps.push(Step {
            sentence,
            line,
            occurrence: *count,
            tries,
            argument: None,
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
    /// The `background:` block, while its steps are read and once the first test closed it.
    background: Option<OpenTest>,
    /// Whether a `test:` header was seen (a `background:` after one is an error).
    seen_header: bool,
    /// Whether a Gherkin keyword line was reported (it is reported once a file).
    gherkin_seen: bool,
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
            background: None,
            seen_header: false,
            gherkin_seen: false,
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
        match Line::classify(raw) {
            Line::Ignored => {}
            Line::Header(header) => self.header(number, raw, header),
            Line::Background { col, extra } => self.background(number, raw, col, extra),
            Line::Examples { col, extra } => self.examples(number, raw, col, extra),
            Line::Row { col } => self.row(number, raw, col),
            Line::Step(step) => self.step(number, raw, &step),
        }
    }

    /// Text after a `background:` or `examples:` keyword is an error.
    fn extra_text(&mut self, number: usize, raw: &str, extra: Option<usize>, keyword: &str) {
        if let Some(col) = extra {
            self.error(
                number,
                col,
                raw,
                format!("unexpected text after `{keyword}`"),
                Some(format!(
                    "`{keyword}` stands alone on its line; what follows goes on the next lines"
                )),
            );
        }
    }

    fn background(&mut self, number: usize, raw: &str, col: usize, extra: Option<usize>) {
        self.extra_text(number, raw, extra, "background:");
        if let Some(first) = &self.background {
            let first = first.line;
            self.error(
                number,
                col,
                raw,
                "a file has one `background:`".to_owned(),
                Some(format!(
                    "the first `background:` is at line {first}; put all its steps there"
                )),
            );
            return;
        }
        if self.seen_header || self.orphans.is_some() {
            self.error(
                number,
                col,
                raw,
                "`background:` must come before the first test".to_owned(),
                Some(
                    "move the block to the top of the file: its steps run before every test"
                        .to_owned(),
                ),
            );
            return;
        }
        self.background = Some(OpenTest::new("", number, col, raw, Vec::new()));
    }

    fn examples(&mut self, number: usize, raw: &str, col: usize, extra: Option<usize>) {
        self.extra_text(number, raw, extra, "examples:");
        let Some(test) = self.current.as_mut() else {
            self.error(
                number,
                col,
                raw,
                "`examples:` outside a test".to_owned(),
                Some("an examples table ends a test: put it after the test's steps".to_owned()),
            );
            return;
        };
        if let Some(first) = &test.table {
            let first = first.line();
            self.error(
                number,
                col,
                raw,
                "a test has one `examples:` table".to_owned(),
                Some(format!(
                    "the first is at line {first}; add rows to it, or write another test"
                )),
            );
            return;
        }
        test.table = Some(Table::new(number, col, raw));
    }

    fn row(&mut self, number: usize, raw: &str, col: usize) {
        let file = self.file;
        match self.current.as_mut().and_then(|test| test.table.as_mut()) {
            Some(table) => {
                if let Err(error) = table.row(file, number, raw) {
                    self.errors.push(error);
                    if let Some(test) = self.current.as_mut() {
                        test.discarded = true;
                    }
                }
            }
            None => self.error(
                number,
                col,
                raw,
                "table row outside an `examples:` table".to_owned(),
                Some(
                    "rows follow an `examples:` line at the end of a test; a step sentence \
                     cannot start with `|`"
                        .to_owned(),
                ),
            ),
        }
    }

    fn header(&mut self, number: usize, raw: &str, header: HeaderLine<'_>) {
        let HeaderLine {
            col,
            name,
            name_col,
            tags,
            options,
        } = header;
        let (saves, state) = self.header_options(number, raw, &options);
        if let Some(offset) = stray_header_option(raw, &options) {
            self.error(
                number,
                col_of(raw, offset),
                raw,
                "a test option in the middle of the header".to_owned(),
                Some(
                    "`[saves=…]` and `[state=…]` go at the end of the header, after the name \
                     and apart from it (tags may come before or after them): \
                     `test: cart [state=user] @smoke`"
                        .to_owned(),
                ),
            );
        }
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
        self.seen_header = true;

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
        let mut test = OpenTest::new(name, number, col, raw, tags);
        test.discarded = discarded;
        test.saves = saves;
        test.state = state;
        self.current = Some(test);
    }

    fn step(&mut self, number: usize, raw: &str, step: &StepLine<'_>) {
        if let Some(found) = mistake(raw) {
            let gherkin = found.message.starts_with("Gherkin");
            // One Gherkin keyword says what the file is; the rest of its lines would repeat it.
            if !(gherkin && self.gherkin_seen) {
                self.error(
                    number,
                    col_of(raw, found.at),
                    raw,
                    found.message,
                    Some(found.hint),
                );
            }
            self.gherkin_seen |= gherkin;
            if let Some(test) = self.current.as_mut() {
                test.discarded = true;
            }
            return;
        }
        let StepLine {
            col,
            sentence,
            ref options,
        } = *step;
        let tries = self.options(number, raw, options);
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
        if let Some(at) = super::malformed_variable(sentence) {
            // `sentence` is a slice of `raw`.
            let offset = sentence.as_ptr() as usize - raw.as_ptr() as usize + at;
            self.error(
                number,
                col_of(raw, offset),
                raw,
                "malformed variable: `${` must start `${NAME}`".to_owned(),
                Some(
                    "a variable is `${NAME}`, NAME made of ASCII letters, digits and `_`, \
                     e.g. `type ${PASSWORD} into the password field`"
                        .to_owned(),
                ),
            );
        }
        let sentence = sentence.to_owned();
        if let Some(test) = self.current.as_mut() {
            if test.table.is_some() {
                test.discarded = true;
                self.error(
                    number,
                    col,
                    raw,
                    "step after the examples table".to_owned(),
                    Some(
                        "the `examples:` table ends its test: move the step above `examples:`"
                            .to_owned(),
                    ),
                );
                return;
            }
            test.push(sentence, number, raw, tries);
            return;
        }
        if let Some(background) = self.background.as_mut()
            && !self.seen_header
        {
            background.push(sentence, number, raw, tries);
            return;
        }
        // No header yet: the step belongs to the file's implicit test, or is an error once a
        // header shows up.
        let orphans = self
            .orphans
            .get_or_insert_with(|| OpenTest::new("", number, col, raw, Vec::new()));
        orphans.push(sentence, number, raw, tries);
    }

    /// Checks the options of the test header at line `number`; returns its `saves` and
    /// `state`, where valid.
    fn header_options(
        &mut self,
        number: usize,
        raw: &str,
        options: &[StepOption<'_>],
    ) -> (Option<String>, Option<String>) {
        let (mut saves, mut state) = (None, None);
        for option in options {
            let bracket_col = col_of(raw, option.open);
            let slot = match option.key {
                "saves" => &mut saves,
                "state" => &mut state,
                key => {
                    // Only `saves` and `state` in another case reach here (line.rs).
                    self.error(
                        number,
                        bracket_col,
                        raw,
                        format!("test option `{key}` must be written in lowercase"),
                        Some(format!("write `[{}=…]`", key.to_ascii_lowercase())),
                    );
                    continue;
                }
            };
            if slot.is_some() {
                self.error(
                    number,
                    bracket_col,
                    raw,
                    format!("test option `{}` is given twice", option.key),
                    Some("keep only one of them".to_owned()),
                );
                continue;
            }
            if option.value.is_empty() {
                self.error(
                    number,
                    col_of(raw, option.value_start),
                    raw,
                    format!("empty state name in `[{}=]`", option.key),
                    Some("name the state, e.g. `[saves=admin]`".to_owned()),
                );
                continue;
            }
            if !super::is_state_name(option.value) {
                self.error(
                    number,
                    col_of(raw, option.value_start),
                    raw,
                    format!("invalid state name `{}`", option.value),
                    Some(
                        "a state name is 1 to 64 ASCII letters, digits, `_`, `-` or `.`, \
                         starting with a letter or digit, e.g. `[saves=admin]`"
                            .to_owned(),
                    ),
                );
                continue;
            }
            *slot = Some(option.value.to_owned());
        }
        if let (Some(saved), Some(used)) = (&saves, &state)
            && saved == used
        {
            let col = options.first().map_or(1, |o| col_of(raw, o.open));
            self.error(
                number,
                col,
                raw,
                format!("a test cannot start from the state `{saved}` it saves"),
                Some("remove the `[state=…]` or save under another name".to_owned()),
            );
            state = None;
        }
        (saves, state)
    }

    /// Checks the options of the step at line `number`; returns its `tries`, if valid.
    fn options(&mut self, number: usize, raw: &str, options: &[StepOption<'_>]) -> Option<u32> {
        let mut tries = None;
        let mut seen: Vec<&str> = Vec::new();
        for option in options {
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
        tries
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
        let Some(table) = test.table else {
            self.tests.push(Test {
                name: test.name,
                line: test.line,
                tags: test.tags,
                steps: test.steps,
                example: None,
                saves: test.saves,
                state: test.state,
            });
            return;
        };
        if let Some(saved) = &test.saves {
            self.error(
                test.line,
                test.col,
                &test.text,
                format!("a test with an `examples:` table cannot save state `{saved}`"),
                Some(
                    "every row would save the same state: move the `[saves=…]` to a test \
                     of its own"
                        .to_owned(),
                ),
            );
            return;
        }
        let owner = Owner {
            file: self.file,
            name: &test.name,
            line: test.line,
            tags: &test.tags,
            state: test.state.as_deref(),
            steps: &test.steps,
            step_texts: &test.step_texts,
        };
        match table.expand(&owner) {
            Ok(rows) => {
                for row in rows {
                    self.push_row(row);
                }
            }
            Err(errors) => self.errors.extend(errors),
        }
    }

    /// Adds a test of an examples row, unless its name is another test's (two equal rows).
    fn push_row(&mut self, row: Test) {
        let line = row.example.as_ref().map_or(row.line, |e| e.line);
        if let Some(first) = self.tests.iter().find(|t| t.name == row.name) {
            let first = first.example.as_ref().map_or(first.line, |e| e.line);
            let text = row.example.as_ref().map(|e| e.values.join(" | "));
            self.error(
                line,
                1,
                &format!("| {} |", text.unwrap_or_default()),
                format!("duplicate test name `{}`", row.name),
                Some(format!(
                    "line {first} gives the same name; rows of an examples table must differ"
                )),
            );
            return;
        }
        self.tests.push(row);
    }

    fn finish(mut self) -> Result<Parsed, ScenarioError> {
        self.close_current();
        let background = self.background.take();
        if let Some(block) = &background
            && block.steps.is_empty()
        {
            self.error(
                block.line,
                block.col,
                &block.text.clone(),
                "`background:` has no steps".to_owned(),
                Some(
                    "add step sentences on the lines below `background:`, or remove it".to_owned(),
                ),
            );
        } else if let Some(block) = &background
            && !self.seen_header
        {
            self.error(
                block.line,
                block.col,
                &block.text.clone(),
                "`background:` without tests".to_owned(),
                Some(
                    "its steps run before every test: add `test: NAME` headers after them"
                        .to_owned(),
                ),
            );
        }
        if let Some(orphans) = self.orphans.take() {
            // No header anywhere (a header would have taken the orphans): one test named after
            // the file.
            self.tests.push(Test {
                name: file_stem(self.file),
                line: orphans.line,
                tags: Vec::new(),
                steps: orphans.steps,
                example: None,
                saves: None,
                state: None,
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
        Ok(Parsed {
            background: background.map(|b| b.steps).unwrap_or_default(),
            tests: self.tests,
        })
    }
}

/// The name of a header-less file's single test.
fn file_stem(display_path: &str) -> String {
    Path::new(display_path).file_stem().map_or_else(
        || display_path.to_owned(),
        |s| s.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
