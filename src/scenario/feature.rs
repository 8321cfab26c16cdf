//! Gherkin `.feature` files, read with the `gherkin` crate (the parser of cucumber-rs) and mapped
//! onto the scenario model: the Feature's `Background` is the file's background, every
//! `Scenario`/`Example` is a test, a `Scenario Outline` with `Examples` is one test per row (as an
//! `examples:` table), tags of the Feature, Rule, Scenario and Examples are the test's tags, and
//! a step's keyword (Given/When/Then/And/But/`*`) is not part of its sentence. A `Rule`'s own
//! `Background` runs at the start of each of its scenarios, as part of the test.
//!
//! Main entry point: [`parse_feature`]. The mapping is documented in `docs/gherkin.md`.

use std::collections::HashMap;

use gherkin::{Feature, GherkinEnv};

use super::doc_string::delimiter_inside;
use super::examples::row_name;
use super::feature_text::{delimiter_after_text, doc_string_after, with_cell_backslashes_escaped};
use super::{DocString, Example, Parsed, ScenarioError, Step, StepArgument, Test};

/// Parses one `.feature` file (UTF-8, with or without a byte-order mark, LF or CRLF).
///
/// `display_path` names the file in errors. Returns the background and the tests in file order,
/// or every error found after the file parsed as Gherkin (a syntax error stops at the first).
pub(crate) fn parse_feature(display_path: &str, source: &[u8]) -> Result<Parsed, ScenarioError> {
    read_feature(display_path, source, Rows::Filled)
}

/// [`parse_feature`], with the doc strings and data tables of an outline's rows as written
/// (`<column>` not filled with the row's values), for writing the file in another format that
/// fills them itself.
pub(crate) fn parse_feature_as_written(
    display_path: &str,
    source: &[u8],
) -> Result<Parsed, ScenarioError> {
    read_feature(display_path, source, Rows::AsWritten)
}

/// What an outline's rows hold in their steps' doc strings and data tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rows {
    /// The row's values in place of `<column>`, as Cucumber passes them.
    Filled,
    /// The outline's text.
    AsWritten,
}

fn read_feature(display_path: &str, source: &[u8], rows: Rows) -> Result<Parsed, ScenarioError> {
    let source = source.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(source);
    let text = std::str::from_utf8(source)
        .map_err(|e| ScenarioError::invalid_utf8(display_path, source, e))?;
    let text = text.replace("\r\n", "\n");
    let lines: Vec<&str> = text.split('\n').collect();
    let reader = Reader {
        file: display_path,
        lines: &lines,
        rows,
    };
    if let Some(error) = reader.language_error() {
        return Err(error);
    }
    let feature = match Feature::parse(with_cell_backslashes_escaped(&text), GherkinEnv::default())
    {
        Ok(feature) => feature,
        Err(error) => return Err(reader.syntax_error(&error.to_string())),
    };
    reader.map(&feature)
}

/// The file being mapped: its name and lines, for errors.
struct Reader<'a> {
    file: &'a str,
    lines: &'a [&'a str],
    rows: Rows,
}

/// A test being mapped, before its examples are expanded.
struct Outline<'f> {
    scenario: &'f gherkin::Scenario,
    tags: Vec<String>,
    steps: Vec<Step>,
}

impl Reader<'_> {
    fn text(&self, line: usize) -> &str {
        self.lines.get(line.wrapping_sub(1)).copied().unwrap_or("")
    }

    /// The column of the first non-blank character of `line`.
    fn lead_col(&self, line: usize) -> usize {
        let text = self.text(line);
        text.chars().take_while(|c| c.is_whitespace()).count() + 1
    }

    fn error(&self, line: usize, col: usize, message: String, hint: &str) -> ScenarioError {
        ScenarioError::Parse {
            file: self.file.to_owned(),
            line,
            col,
            text: self.text(line).to_owned(),
            message,
            hint: Some(hint.to_owned()),
        }
    }

    /// An unknown `# language:` is an error at its value (the parser would only say that the
    /// next line is not a keyword of no language).
    fn language_error(&self) -> Option<ScenarioError> {
        for (index, line) in self.lines.iter().enumerate() {
            let trimmed = line.trim();
            if trimmed.is_empty() {
                continue;
            }
            let directive = trimmed
                .strip_prefix('#')
                .map(str::trim_start)
                .and_then(|rest| rest.strip_prefix("language"))
                .map(str::trim_start)
                .and_then(|rest| rest.strip_prefix(':'));
            let Some(language) = directive.map(str::trim) else {
                if trimmed.starts_with('#') {
                    continue;
                }
                return None;
            };
            if gherkin::is_language_supported(language) {
                return None;
            }
            let col = line
                .find(language)
                .map_or(1, |at| line[..at].chars().count() + 1);
            return Some(self.error(
                index + 1,
                col,
                format!("unknown Gherkin language `{language}`"),
                "write a language code Gherkin ships, such as `en`, `fr`, `de`, `es`, `pt` or \
                 `en-pirate`, or remove the line for English",
            ));
        }
        None
    }

    /// The parser's error, whose only public form is its text `Error at LINE:COL: {...}`, at
    /// its line and column; a table with rows of different lengths is named as such.
    fn syntax_error(&self, shown: &str) -> ScenarioError {
        if let Some((line, at)) = delimiter_after_text(self.lines) {
            return self.delimiter_error(line, at);
        }
        if let Some(error) = self.ragged_table() {
            return error;
        }
        let (mut line, mut col) = error_position(shown).unwrap_or((1, 1));
        // The parser often fails only at the end of the file or of a block, after it read a line
        // it could not place as part of a description: the last line with text before that
        // point is the one to look at.
        let blank = |line: usize| {
            let text = self.text(line).trim();
            text.is_empty() || text.starts_with('#')
        };
        if blank(line)
            && let Some(before) = (1..line).rev().find(|l| !blank(*l))
        {
            line = before;
            col = self.lead_col(before);
        }
        let expected = expected_keywords(shown);
        let hint = if expected.is_empty() {
            "a feature file is `Feature:`, then `Background:`, `Rule:`, `Scenario:` or \
             `Scenario Outline:` blocks of Given/When/Then/And/But/`*` steps (see docs/gherkin.md)"
                .to_owned()
        } else {
            format!(
                "expected {} here (see docs/gherkin.md)",
                expected
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        // A column past the end of the line (the parser points after it) is shown at its end.
        let col = col.min(self.text(line).chars().count() + 1).max(1);
        self.error(line, col, "not valid Gherkin".to_owned(), &hint)
    }

    /// A doc string line that holds the delimiter after other text, at the delimiter.
    fn delimiter_error(&self, line: usize, at: usize) -> ScenarioError {
        let text = self.text(line);
        let delimiter = &text[at..(at + 3).min(text.len())];
        let escaped: String = delimiter.chars().flat_map(|c| ['\\', c]).collect();
        self.error(
            line,
            text[..at].chars().count() + 1,
            format!("`{delimiter}` inside a doc string"),
            &format!(
                "write it as `{escaped}` (Cucumber reads that as `{delimiter}` too); only a \
                 line that starts with `{delimiter}` ends the doc string"
            ),
        )
    }

    /// The doc string of the step at `line`, read as Cucumber reads it; `crate_text` is the
    /// crate's reading, whose line count says where the crate ended it.
    fn doc_string(&self, line: usize, crate_text: &str) -> Result<DocString, ScenarioError> {
        let Some((doc, open, close)) = doc_string_after(self.lines, line) else {
            // The crate found a doc string where Cucumber's rules find none; its text is all
            // there is.
            return Ok(DocString::from(crate_text));
        };
        let crate_close = open + crate_text.matches('\n').count();
        if crate_close != close
            && let Some(at) =
                delimiter_inside(self.text(crate_close), &self.text(open).trim_start()[..3])
        {
            return Err(self.delimiter_error(crate_close, at));
        }
        Ok(doc)
    }

    /// The first row of a data table or examples table whose cell count differs from its
    /// table's first row.
    fn ragged_table(&self) -> Option<ScenarioError> {
        let mut width: Option<usize> = None;
        for (index, line) in self.lines.iter().enumerate() {
            let trimmed = line.trim();
            if !trimmed.starts_with('|') {
                width = None;
                continue;
            }
            let cells = table_cells(trimmed);
            match width {
                None => width = Some(cells),
                Some(first) if first != cells => {
                    return Some(self.error(
                        index + 1,
                        self.lead_col(index + 1),
                        format!(
                            "table row has {cells} cell(s) but the table's first row has {first}"
                        ),
                        "every row of a table has as many cells as its first row; a `|` inside \
                         a cell is `\\|`",
                    ));
                }
                Some(_) => {}
            }
        }
        None
    }

    fn map(&self, feature: &Feature) -> Result<Parsed, ScenarioError> {
        let mut errors = Vec::new();
        let background = feature
            .background
            .as_ref()
            .map(|b| self.steps(&b.steps, &mut HashMap::new(), &mut errors))
            .unwrap_or_default();
        let mut outlines = Vec::new();
        for scenario in &feature.scenarios {
            outlines.push(self.outline(scenario, &feature.tags, &[], &mut errors));
        }
        for rule in &feature.rules {
            let tags: Vec<String> = feature.tags.iter().chain(&rule.tags).cloned().collect();
            let rule_background: &[gherkin::Step] =
                rule.background.as_ref().map_or(&[], |b| b.steps.as_slice());
            for scenario in &rule.scenarios {
                outlines.push(self.outline(scenario, &tags, rule_background, &mut errors));
            }
        }
        let mut tests: Vec<Test> = Vec::new();
        let mut names: HashMap<String, usize> = HashMap::new();
        for outline in outlines {
            let line = outline.scenario.position.line;
            let name = outline.scenario.name.trim().to_owned();
            let name_col = self.name_col(line);
            if name.is_empty() {
                errors.push(self.error(
                    line,
                    name_col,
                    "empty scenario name".to_owned(),
                    "write the name after the keyword, e.g. `Scenario: add a todo`",
                ));
                continue;
            }
            if let Some(first) = names.get(&name) {
                errors.push(self.error(
                    line,
                    name_col,
                    format!("duplicate scenario name `{name}`"),
                    &format!(
                        "the first `{name}` is at line {first}; prettyplay identifies a test by \
                         its file and name, so names must be unique within a file (rules \
                         included)"
                    ),
                ));
                continue;
            }
            names.insert(name.clone(), line);
            if outline.steps.is_empty() {
                errors.push(self.error(
                    line,
                    self.lead_col(line),
                    format!("scenario `{name}` has no steps"),
                    "add Given/When/Then steps on the lines below it",
                ));
                continue;
            }
            if outline.scenario.examples.is_empty() {
                tests.push(Test {
                    name,
                    line,
                    tags: outline.tags,
                    steps: outline.steps,
                    example: None,
                    saves: None,
                    state: None,
                });
                continue;
            }
            match self.expand(&name, &outline) {
                Ok(rows) => tests.extend(rows),
                Err(mut found) => errors.append(&mut found),
            }
        }
        if let Some(error) = ScenarioError::combine(errors) {
            return Err(error);
        }
        if tests.is_empty() {
            return Err(ScenarioError::NoTests {
                file: self.file.to_owned(),
            });
        }
        Ok(Parsed { background, tests })
    }

    /// The column where a keyword line's name starts (after `Keyword:`).
    fn name_col(&self, line: usize) -> usize {
        let text = self.text(line);
        match text.find(':') {
            Some(at) => {
                let after = &text[at + 1..];
                text[..at + 1].chars().count()
                    + 1
                    + after.chars().take_while(|c| c.is_whitespace()).count()
            }
            None => self.lead_col(line),
        }
    }

    fn outline<'f>(
        &self,
        scenario: &'f gherkin::Scenario,
        inherited: &[String],
        rule_background: &[gherkin::Step],
        errors: &mut Vec<ScenarioError>,
    ) -> Outline<'f> {
        let mut tags: Vec<String> = Vec::new();
        for tag in inherited.iter().chain(&scenario.tags) {
            if !tags.contains(tag) {
                tags.push(tag.clone());
            }
        }
        let mut occurrences = HashMap::new();
        let mut steps = self.steps(rule_background, &mut occurrences, errors);
        steps.extend(self.steps(&scenario.steps, &mut occurrences, errors));
        Outline {
            scenario,
            tags,
            steps,
        }
    }

    fn steps(
        &self,
        steps: &[gherkin::Step],
        occurrences: &mut HashMap<String, u32>,
        errors: &mut Vec<ScenarioError>,
    ) -> Vec<Step> {
        let mut out = Vec::with_capacity(steps.len());
        for step in steps {
            let line = step.position.line;
            let sentence = step.value.trim().to_owned();
            if let Some(at) = super::malformed_variable(&sentence) {
                let text = self.text(line);
                let col = text
                    .find(&sentence)
                    .map_or(1, |start| text[..start + at].chars().count() + 1);
                errors.push(self.error(
                    line,
                    col,
                    "malformed variable: `${` must start `${NAME}`".to_owned(),
                    "a variable is `${NAME}`, NAME made of ASCII letters, digits and `_`",
                ));
            }
            let argument = match (&step.docstring, &step.table) {
                (Some(text), _) => match self.doc_string(line, text) {
                    Ok(doc) => Some(StepArgument::DocString(doc)),
                    Err(error) => {
                        errors.push(error);
                        None
                    }
                },
                (None, Some(table)) => Some(StepArgument::DataTable(table.rows.clone())),
                (None, None) => None,
            };
            let count = occurrences.entry(sentence.clone()).or_insert(0);
            *count += 1;
            out.push(Step {
                sentence,
                line,
                occurrence: *count,
                tries: None,
                optional: false,
                argument,
            });
        }
        out
    }

    /// One test per row of the scenario's `Examples` tables, named as rows of an `examples:`
    /// table are.
    fn expand(&self, name: &str, outline: &Outline<'_>) -> Result<Vec<Test>, Vec<ScenarioError>> {
        let mut errors = Vec::new();
        let mut tests = Vec::new();
        let mut index = 0;
        for examples in &outline.scenario.examples {
            let at = examples.position.line;
            let Some(table) = examples.table.as_ref().filter(|t| !t.rows.is_empty()) else {
                errors.push(self.error(
                    at,
                    self.lead_col(at),
                    "`Examples:` without a table".to_owned(),
                    "add a header row naming the columns, then one row per test: `| user |`",
                ));
                continue;
            };
            let header_line = table.position.line;
            let columns = &table.rows[0];
            for (i, column) in columns.iter().enumerate() {
                if !super::is_var_name(column) {
                    errors.push(self.error(
                        header_line,
                        self.lead_col(header_line),
                        format!("invalid column name `{column}`"),
                        "a column is named like a variable (ASCII letters, digits and `_`, not \
                         starting with a digit), because step code reads it as `vars.NAME`: \
                         `first name` becomes `first_name`",
                    ));
                } else if columns[..i].contains(column) {
                    errors.push(self.error(
                        header_line,
                        self.lead_col(header_line),
                        format!("duplicate column `{column}`"),
                        "column names must be unique within a table",
                    ));
                }
            }
            if table.rows.len() < 2 {
                errors.push(self.error(
                    header_line,
                    self.lead_col(header_line),
                    "examples table has no rows".to_owned(),
                    "add one row of values per line below the header",
                ));
            }
            for step in &outline.steps {
                for (column, offset) in super::columns(&step.sentence) {
                    if columns.iter().any(|c| c == column) {
                        continue;
                    }
                    let text = self.text(step.line);
                    let col = text
                        .find(&step.sentence)
                        .map_or(1, |start| text[..start + offset].chars().count() + 1);
                    errors.push(self.error(
                        step.line,
                        col,
                        format!("`<{column}>` is not a column of the examples table"),
                        &format!(
                            "the columns of the table at line {header_line} are {}",
                            columns
                                .iter()
                                .map(|c| format!("`{c}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                }
            }
            let mut tags = outline.tags.clone();
            for tag in &examples.tags {
                if !tags.contains(tag) {
                    tags.push(tag.clone());
                }
            }
            for (offset, values) in table.rows.iter().enumerate().skip(1) {
                index += 1;
                let steps = outline
                    .steps
                    .iter()
                    .map(|step| Step {
                        argument: step.argument.as_ref().map(|argument| match self.rows {
                            Rows::Filled => argument.filled(columns, values),
                            Rows::AsWritten => argument.clone(),
                        }),
                        ..step.clone()
                    })
                    .collect();
                tests.push(Test {
                    name: row_name(name, columns, values, index),
                    line: outline.scenario.position.line,
                    tags: tags.clone(),
                    steps,
                    example: Some(Example {
                        template: name.to_owned(),
                        columns: columns.clone(),
                        values: values.clone(),
                        line: header_line + offset,
                    }),
                    saves: None,
                    state: None,
                });
            }
        }
        if errors.is_empty() {
            Ok(tests)
        } else {
            Err(errors)
        }
    }
}

/// `(line, col)` of the parser's `Error at LINE:COL: ...`.
fn error_position(shown: &str) -> Option<(usize, usize)> {
    let rest = shown.strip_prefix("Error at ")?;
    let (position, _) = rest.split_once(": ")?;
    let (line, col) = position.split_once(':')?;
    Some((line.parse().ok()?, col.parse().ok()?))
}

/// The keywords among the tokens the parser expected (its text lists them quoted), sorted.
fn expected_keywords(shown: &str) -> Vec<String> {
    let Some((_, set)) = shown.split_once(": ") else {
        return Vec::new();
    };
    let mut keywords: Vec<String> = set
        .split(", ")
        .map(|token| token.trim_matches(|c| matches!(c, '{' | '}' | '"' | '\\')))
        .filter(|token| token.chars().next().is_some_and(char::is_alphabetic) || *token == "*")
        .filter(|token| !token.contains(' ') || token.starts_with("Scenario"))
        .map(str::to_owned)
        .collect();
    keywords.sort();
    keywords.dedup();
    keywords.truncate(12);
    keywords
}

/// The number of cells of a table row `| a | b |` (`\|` is part of a cell).
fn table_cells(row: &str) -> usize {
    let mut pipes: usize = 0;
    let mut escaped = false;
    for c in row.chars() {
        match c {
            '\\' if !escaped => {
                escaped = true;
                continue;
            }
            '|' if !escaped => pipes += 1,
            _ => {}
        }
        escaped = false;
    }
    pipes.saturating_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(source: &str) -> Parsed {
        parse_feature("features/todo.feature", source.as_bytes())
            .unwrap_or_else(|e| panic!("parses:\n{e}"))
    }

    fn error(source: &str) -> String {
        parse_feature("features/todo.feature", source.as_bytes())
            .expect_err("an error")
            .to_string()
    }

    fn sentences(steps: &[Step]) -> Vec<(&str, usize, u32)> {
        steps
            .iter()
            .map(|s| (s.sentence.as_str(), s.line, s.occurrence))
            .collect()
    }

    const TODOS: &str = "\
# A comment before the feature.
@todo
Feature: todos
  The description of the feature is ignored,
  over several lines.

  Background:
    Given I open the app

  @smoke
  Scenario: add one
    When I type \"buy milk\" into the new todo field and press Enter
    # A comment between steps.
    Then the list shows \"buy milk\"
    And the counter shows 1 item left
    But the list does not show \"eggs\"
    * the counter shows 1 item left

  Scenario Outline: add <item>
    When I add a todo <item>
    Then the list shows <item>

    @fast
    Examples: short
      | item |
      | milk |
      | eggs |

    Examples:
      | item  |
      | bread |

  Scenario: import a list
    Given the todos
      | title    | done  |
      | buy milk | false |
    When I paste
      \"\"\"
      first line
        indented line
      \"\"\"
    Then the list shows 2 items
";

    #[test]
    fn a_feature_maps_onto_background_tests_rows_and_tags() {
        let parsed = parsed(TODOS);
        assert_eq!(sentences(&parsed.background), [("I open the app", 8, 1)]);
        let names: Vec<_> = parsed
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.line, t.tags.clone()))
            .collect();
        assert_eq!(
            names,
            [
                ("add one", 11, vec!["todo".to_owned(), "smoke".to_owned()]),
                (
                    "add <item> [item=milk]",
                    19,
                    vec!["todo".to_owned(), "fast".to_owned()]
                ),
                (
                    "add <item> [item=eggs]",
                    19,
                    vec!["todo".to_owned(), "fast".to_owned()]
                ),
                ("add <item> [item=bread]", 19, vec!["todo".to_owned()]),
                ("import a list", 33, vec!["todo".to_owned()]),
            ]
        );
        // The keyword is not part of the sentence, and a repeated sentence counts its occurrences.
        assert_eq!(
            sentences(&parsed.tests[0].steps),
            [
                (
                    "I type \"buy milk\" into the new todo field and press Enter",
                    12,
                    1
                ),
                ("the list shows \"buy milk\"", 14, 1),
                ("the counter shows 1 item left", 15, 1),
                ("the list does not show \"eggs\"", 16, 1),
                ("the counter shows 1 item left", 17, 2),
            ]
        );
        // Outline rows: the sentence as written is the identity; the row is the example.
        let row = &parsed.tests[1];
        assert_eq!(row.steps[0].sentence, "I add a todo <item>");
        let example = row.example.as_ref().expect("a row");
        assert_eq!(
            (
                example.template.as_str(),
                example.columns.as_slice(),
                example.values.as_slice(),
                example.line
            ),
            (
                "add <item>",
                &["item".to_owned()][..],
                &["milk".to_owned()][..],
                26
            )
        );
        assert_eq!(parsed.tests[2].example.as_ref().map(|e| e.line), Some(27));
        assert_eq!(parsed.tests[3].example.as_ref().map(|e| e.line), Some(31));
        // Data tables and doc strings are the steps' arguments.
        let import = &parsed.tests[4];
        assert_eq!(
            import.steps[0].argument,
            Some(StepArgument::DataTable(vec![
                vec!["title".to_owned(), "done".to_owned()],
                vec!["buy milk".to_owned(), "false".to_owned()],
            ]))
        );
        assert_eq!(
            import.steps[1].argument,
            Some(StepArgument::DocString(DocString::from(
                "first line\n  indented line"
            )))
        );
        assert_eq!(import.steps[2].argument, None);
    }

    #[test]
    fn rules_bring_their_tags_and_background_into_their_scenarios() {
        let parsed = parsed(
            "Feature: accounts\n\
         \n\
         Scenario: sign up\n\
         \x20 Given I open the sign-up page\n\
         \n\
         @admin\n\
         Rule: admins\n\
         \x20 Background:\n\
         \x20   Given I sign in as admin\n\
         \n\
         \x20 Example: ban a user\n\
         \x20   When I ban \"bob\"\n\
         \x20   Then \"bob\" is banned\n",
        );
        assert!(parsed.background.is_empty());
        let ban = &parsed.tests[1];
        assert_eq!(
            (ban.name.as_str(), ban.tags.as_slice()),
            ("ban a user", &["admin".to_owned()][..])
        );
        assert_eq!(
            sentences(&ban.steps),
            [
                ("I sign in as admin", 9, 1),
                ("I ban \"bob\"", 12, 1),
                ("\"bob\" is banned", 13, 1)
            ]
        );
    }

    #[test]
    fn a_language_directive_switches_the_keywords() {
        let parsed = parsed(
            "# language: fr\n\
         Fonctionnalité: tâches\n\
         \x20 Scénario: ajouter\n\
         \x20   Soit j'ouvre l'application\n\
         \x20   Quand j'ajoute \"lait\"\n\
         \x20   Alors la liste affiche \"lait\"\n",
        );
        assert_eq!(
            sentences(&parsed.tests[0].steps),
            [
                ("j'ouvre l'application", 4, 1),
                ("j'ajoute \"lait\"", 5, 1),
                ("la liste affiche \"lait\"", 6, 1)
            ]
        );
        let shown = error("# language: xx-nowhere\nFeature: a\n");
        assert!(
            shown.starts_with("features/todo.feature:1:13: unknown Gherkin language `xx-nowhere`"),
            "{shown}"
        );
    }

    #[test]
    fn crlf_and_a_byte_order_mark_are_read() {
        let parsed = parse_feature(
            "a.feature",
            b"\xEF\xBB\xBFFeature: a\r\n  Scenario: b\r\n    Given c\r\n",
        )
        .expect("parses");
        assert_eq!(sentences(&parsed.tests[0].steps), [("c", 3, 1)]);
    }

    #[test]
    fn a_syntax_error_points_at_its_line_and_column() {
        let shown = error("Feature: a\n  Scenario: b\n    Given c\n    Whenever d\n");
        assert!(shown.starts_with("features/todo.feature:4:"), "{shown}");
        assert!(shown.contains("not valid Gherkin"), "{shown}");
        assert!(shown.contains("4 |     Whenever d"), "{shown}");
        assert!(shown.contains("= hint: "), "{shown}");
    }

    #[test]
    fn mapping_errors_name_their_place_and_all_are_reported() {
        let shown = error(
            "Feature: a\n\
         \x20 Scenario: same\n\
         \x20   Given x\n\
         \x20 Scenario: same\n\
         \x20   Given y\n\
         \x20 Scenario: empty\n\
         \x20 Scenario Outline: o\n\
         \x20   Given <nope> and <item>\n\
         \x20   Examples:\n\
         \x20     | item | first name |\n\
         \x20     | a    | b          |\n",
        );
        assert!(shown.starts_with("4 errors in scenario files:"), "{shown}");
        assert!(
            shown.contains("features/todo.feature:4:13: duplicate scenario name `same`"),
            "{shown}"
        );
        assert!(
            shown.contains("features/todo.feature:6:3: scenario `empty` has no steps"),
            "{shown}"
        );
        assert!(
            shown.contains("features/todo.feature:10:7: invalid column name `first name`"),
            "{shown}"
        );
        assert!(
            shown.contains(
                "features/todo.feature:8:11: `<nope>` is not a column of the examples table"
            ),
            "{shown}"
        );
    }

    #[test]
    fn a_ragged_table_is_named_at_its_row() {
        let shown = error("Feature: a\n  Scenario: b\n    Given c\n      | x | y |\n      | 1 |\n");
        assert!(
            shown.starts_with(
                "features/todo.feature:5:7: table row has 1 cell(s) but the table's first row has 2"
            ),
            "{shown}"
        );
    }

    #[test]
    fn a_feature_without_scenarios_has_no_tests() {
        let e = parse_feature("a.feature", b"Feature: nothing yet\n").expect_err("no tests");
        assert!(matches!(e, ScenarioError::NoTests { .. }), "{e:?}");
    }

    #[test]
    fn outline_rows_fill_their_values_into_doc_strings_and_tables() {
        let parsed = parsed(
            "Feature: a\n\
         \x20 Scenario Outline: b\n\
         \x20   Given the items\n\
         \x20     | <item> | 2 |\n\
         \x20   Examples:\n\
         \x20     | item |\n\
         \x20     | milk |\n",
        );
        assert_eq!(
            parsed.tests[0].steps[0].argument,
            Some(StepArgument::DataTable(vec![vec![
                "milk".to_owned(),
                "2".to_owned()
            ]]))
        );
    }

    #[test]
    fn doc_strings_and_cells_read_as_cucumber_reads_them() {
        let parsed = parsed(
            r#"Feature: a
  Scenario: b
    Given the payload
        """application/json
          {"a": \"\"\"}
        plain
       less indented
        """
    And the cells
      | a\|b | c\\d | e\nf | g\h |
    And the markdown
      ```md
      # a heading, not a comment
      \`\`\`
      ```
"#,
        );
        let steps = &parsed.tests[0].steps;
        assert_eq!(
            steps[0].argument,
            Some(StepArgument::DocString(DocString {
                text: "  {\"a\": \"\"\"}\nplain\nless indented".to_owned(),
                media_type: Some("application/json".to_owned()),
            }))
        );
        assert_eq!(
            steps[1].argument,
            Some(StepArgument::DataTable(vec![vec![
                "a|b".to_owned(),
                "c\\d".to_owned(),
                "e\nf".to_owned(),
                "g\\h".to_owned(),
            ]]))
        );
        assert_eq!(
            steps[2].argument,
            Some(StepArgument::DocString(DocString {
                text: "# a heading, not a comment\n```".to_owned(),
                media_type: Some("md".to_owned()),
            }))
        );
    }

    #[test]
    fn a_delimiter_after_text_in_a_doc_string_is_named_with_its_escape() {
        let shown = error(
            "Feature: a\n  Scenario: b\n    Given x\n      \"\"\"\n      say \"\"\"hi\n      \"\"\"\n",
        );
        assert!(
            shown.starts_with("features/todo.feature:5:11: `\"\"\"` inside a doc string"),
            "{shown}"
        );
        assert!(shown.contains("write it as `\\\"\\\"\\\"`"), "{shown}");
    }
}
