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
use super::step_arguments::Below;
use super::{OpenDocString, ScenarioError, Step, Test};

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

    fn push(&mut self, sentence: String, line: usize, raw: &str, options: StepFlags) {
        self.step_texts.push(raw.to_owned());
        let count = self.occurrences.entry(sentence.clone()).or_insert(0);
        *count += 1;
        self.steps.push(Step {
            sentence,
            line,
            occurrence: *count,
            tries: options.tries,
            optional: options.optional,
            argument: None,
        });
    }
}

/// The valid options of one step line.
#[derive(Debug, Clone, Copy, Default)]
struct StepFlags {
    tries: Option<u32>,
    optional: bool,
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
    /// What the next lines may add to the last step (its data table or doc string).
    below: Below,
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
            below: Below::Nothing,
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
        if self.below.in_doc_string() {
            let step = last_step(
                &mut self.current,
                &mut self.background,
                self.seen_header,
                &mut self.orphans,
            );
            if let Err(error) = self.below.doc_line(self.file, number, raw, step) {
                self.errors.push(error);
            }
            return;
        }
        if let Some(open) = OpenDocString::open(number, raw) {
            if let Err(error) = self.below.open_doc_string(self.file, open) {
                self.errors.push(error);
            }
            return;
        }
        let line = Line::classify(raw);
        if !matches!(line, Line::Ignored | Line::Row { .. }) {
            self.below = Below::Nothing;
        }
        match line {
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
            None if self.below.takes_rows() => {
                let step = last_step(
                    &mut self.current,
                    &mut self.background,
                    self.seen_header,
                    &mut self.orphans,
                );
                let result = match step {
                    Some(step) => self.below.row(self.file, number, raw, step),
                    None => Ok(()),
                };
                if let Err(error) = result {
                    self.errors.push(error);
                }
            }
            None => self.error(
                number,
                col,
                raw,
                "table row outside a table".to_owned(),
                Some(
                    "rows go right below a step (its data table) or below an `examples:` line \
                     at the end of a test; a step sentence cannot start with `|`"
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
            let gherkin = found.gherkin;
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
            self.below = Below::Step;
            return;
        }
        if let Some(background) = self.background.as_mut()
            && !self.seen_header
        {
            background.push(sentence, number, raw, tries);
            self.below = Below::Step;
            return;
        }
        // No header yet: the step belongs to the file's implicit test, or is an error once a
        // header shows up.
        let orphans = self
            .orphans
            .get_or_insert_with(|| OpenTest::new("", number, col, raw, Vec::new()));
        orphans.push(sentence, number, raw, tries);
        self.below = Below::Step;
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

    /// Checks the options of the step at line `number`; returns the valid ones.
    fn options(&mut self, number: usize, raw: &str, options: &[StepOption<'_>]) -> StepFlags {
        let mut flags = StepFlags::default();
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
            if option.key == "optional" {
                if option.flag {
                    flags.optional = true;
                } else {
                    self.error(
                        number,
                        col_of(raw, option.value_start),
                        raw,
                        format!(
                            "step option `optional` takes no value, found `{}`",
                            option.value
                        ),
                        Some("write `[optional]` alone, without `=`".to_owned()),
                    );
                }
                continue;
            }
            match parse_tries(option.value) {
                Some(n) => flags.tries = Some(n),
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
        flags
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
        if let Some(error) = self.below.unclosed(self.file) {
            self.errors.push(error);
        }
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

/// The last step of the block being read: the open test's, the background's before the first
/// test, or that of the steps before any header.
fn last_step<'p>(
    current: &'p mut Option<OpenTest>,
    background: &'p mut Option<OpenTest>,
    seen_header: bool,
    orphans: &'p mut Option<OpenTest>,
) -> Option<&'p mut Step> {
    if let Some(test) = current.as_mut() {
        return test.steps.last_mut();
    }
    if let Some(block) = background.as_mut()
        && !seen_header
    {
        return block.steps.last_mut();
    }
    orphans.as_mut().and_then(|o| o.steps.last_mut())
}

/// The name of a header-less file's single test.
fn file_stem(display_path: &str) -> String {
    Path::new(display_path).file_stem().map_or_else(
        || display_path.to_owned(),
        |s| s.to_string_lossy().into_owned(),
    )
}

#[cfg(test)]
mod tests {
    //! Unit tests of `parse.rs`: the documented grammar, occurrences, options and every error.

    use super::*;

    fn ok(source: &str) -> Vec<Test> {
        match parse("scenarios/todo.steps", source.as_bytes()) {
            Ok(parsed) => parsed.tests,
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
                state: None,
                saves: None,
                example: None,
                steps: vec![
                    Step {
                        sentence: "open the app".into(),
                        line: 3,
                        occurrence: 1,
                        tries: None,
                        optional: false,
                        argument: None
                    },
                    Step {
                        sentence: "type \"buy milk\" into the new todo field and press Enter"
                            .into(),
                        line: 4,
                        occurrence: 1,
                        tries: None,
                        optional: false,
                        argument: None
                    },
                    Step {
                        sentence: "the list shows \"buy milk\"".into(),
                        line: 5,
                        occurrence: 1,
                        tries: Some(3),
                        optional: false,
                        argument: None
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
         = hint: known options: `tries`, `optional`"
        );
    }

    #[test]
    fn optional_is_a_flag_alone_or_with_other_options() {
        let tests = ok(
            "test: a\n  accept the cookie banner [optional]\n  close it [tries=3] [optional]\n  \
             see it\n",
        );
        let steps = &tests[0].steps;
        assert_eq!(
            sentences(&tests[0]),
            ["accept the cookie banner", "close it", "see it"]
        );
        assert!(steps[0].optional && steps[0].tries.is_none());
        assert!(steps[1].optional);
        assert_eq!(steps[1].tries, Some(3));
        assert!(!steps[2].optional);
    }

    #[test]
    fn optional_with_a_value_is_an_error_at_the_value() {
        let e = err("test: t\n  accept it [optional=yes]\n");
        assert_eq!(
            e.to_string(),
            "scenarios/todo.steps:2:23: step option `optional` takes no value, found `yes`\n  \
         |\n\
         2 |   accept it [optional=yes]\n  \
         |                       ^\n  \
         = hint: write `[optional]` alone, without `=`"
        );
        let e = err("test: t\n  accept it [optional=]\n");
        assert_eq!(at(&e).0, 2);
        let e = err("test: t\n  a [optional] [optional]\n");
        assert_eq!(at(&e), (2, 16, "step option `optional` is given twice"));
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
    fn variables_stay_in_the_sentence_and_a_malformed_one_is_an_error() {
        let tests = ok("test: a\n  type ${PASSWORD} into the field\n");
        assert_eq!(sentences(&tests[0]), ["type ${PASSWORD} into the field"]);
        let e = err("test: a\n  type ${pass word} here\n");
        assert_eq!(
            at(&e),
            (2, 8, "malformed variable: `${` must start `${NAME}`")
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
    fn header_options_name_a_saved_state_and_one_to_start_from() {
        let tests = ok("test: sign in [saves=admin] @auth\n  sign in\n\
         test: order [state=admin]\n  order\n\
         test: rows [state=admin]\n  add <x>\n  examples:\n    | x |\n    | 1 |\n    | 2 |\n");
        assert_eq!(tests[0].name, "sign in");
        assert_eq!(tests[0].tags, ["auth"]);
        assert_eq!(
            (tests[0].saves.as_deref(), tests[0].state.as_deref()),
            (Some("admin"), None)
        );
        assert_eq!(
            (tests[1].saves.as_deref(), tests[1].state.as_deref()),
            (None, Some("admin"))
        );
        // Every row of a table starts from the header's state.
        assert!(
            tests[2..]
                .iter()
                .all(|t| t.state.as_deref() == Some("admin"))
        );
    }

    #[test]
    fn header_option_errors_say_where_and_what_to_do() {
        let cases = [
            (
                "test: a [State=x]\n  x\n",
                1,
                9,
                "test option `State` must be written in lowercase",
            ),
            (
                "test: a [saves=]\n  x\n",
                1,
                16,
                "empty state name in `[saves=]`",
            ),
            (
                "test: cart @smoke[state=u]\n  x\n",
                1,
                18,
                "a test option in the middle of the header",
            ),
            (
                "test: cart [state=u] # note\n  x\n",
                1,
                12,
                "a test option in the middle of the header",
            ),
            (
                "test: cart [state=u].\n  x\n",
                1,
                12,
                "a test option in the middle of the header",
            ),
            (
                "test: cart [state:u]\n  x\n",
                1,
                12,
                "a test option in the middle of the header",
            ),
            (
                "test: a [saves=x] [saves=y]\n  x\n",
                1,
                19,
                "test option `saves` is given twice",
            ),
            (
                "test: a [saves=../x]\n  x\n",
                1,
                16,
                "invalid state name `../x`",
            ),
            (
                "test: a [saves=x] [state=x]\n  x\n",
                1,
                9,
                "a test cannot start from the state `x` it saves",
            ),
            (
                "test: a [saves=x]\n  add <v>\n  examples:\n    | v |\n    | 1 |\n",
                1,
                1,
                "a test with an `examples:` table cannot save state `x`",
            ),
        ];
        for (source, line, col, message) in cases {
            let error = err(source);
            assert_eq!(at(&error), (line, col, message), "{source}");
        }
        // Another key stays in the name, as before header options existed.
        let tests = ok("test: buy [item=milk]\n  x\ntest: b [tries=2]\n  x\n");
        assert_eq!(tests[0].name, "buy [item=milk]");
        assert_eq!(tests[1].name, "b [tries=2]");
    }

    #[test]
    fn clear_mistakes_are_errors_at_their_column_with_a_hint() {
        // A Gherkin file saved as `.steps`: one error says so, not one per line.
        let error = err("Feature: todos\n  Scenario: add\n    Given I open the app\n");
        assert_eq!(
            at(&error),
            (1, 1, "Gherkin keyword `Feature:` in a `.steps` file")
        );
        assert!(
            error.to_string().contains("rename the file to `.feature`"),
            "{error}"
        );
        let error = err("test add a todo\n  open the app\n");
        assert_eq!(at(&error), (1, 1, "test header without its colon"));
        let error = err("test: add\n  type \"milk into the field\n");
        assert_eq!(at(&error), (2, 8, "unclosed quote"));
        assert!(
            error.to_string().contains("= hint: close the quoted text"),
            "{error}"
        );
    }
}
