//! The content of one cache file, and its TOML format: strict parsing and stable writing.
//!
//! Main type: [`CacheFile`], the entries ([`CachedStep`]s) of one scenario: its `[[background]]`
//! steps and its tests' `[[steps]]`. The format is documented in `docs/cache-format.md`: the cache
//! is the users' property, so hand edits are honoured as they are, a file that does not parse is
//! reported (with `line:col`) and never overwritten, and writes keep the comments and layout of
//! the file they replace while new entries get the stable layout (step code as a multi-line
//! literal string).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::{CacheError, CachedStep, ProofRecord, StepKey};
use crate::scenario::Scenario;

/// The newest format version this prettyplay reads and writes: an entry's `proof` is a table.
pub(crate) const FORMAT: u32 = 5;

/// The format that adds who wrote an entry (`by`).
pub(crate) const FORMAT_WITH_AUTHOR: u32 = 3;

/// The format that adds `[[background]]` entries.
pub(crate) const FORMAT_WITH_BACKGROUND: u32 = 2;

/// The format of a file without `[[background]]` entries: format 2 only adds them, so a file
/// without any is written as format 1, readable by every prettyplay.
pub(crate) const FORMAT_WITHOUT_BACKGROUND: u32 = 1;

/// A file's `format` alone, whatever else it holds.
#[derive(Deserialize)]
struct Probe {
    format: Option<Spanned<toml::Value>>,
}

/// A file as written, with the spans errors point at.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
struct Raw {
    format: u32,
    scenario: Spanned<String>,
    #[serde(default)]
    background: Vec<Spanned<CachedStep>>,
    #[serde(default)]
    steps: Vec<Spanned<CachedStep>>,
}

/// The content of one cache file: the entries of one scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheFile {
    /// The format the file was read with (written: see [`CacheFile::written_format`]).
    pub format: u32,
    /// The scenario's path relative to the project root, `/`-separated.
    pub scenario: String,
    /// Every entry: those of `[[background]]` (`test` is `None`) and of `[[steps]]`.
    pub steps: Vec<CachedStep>,
}

impl CacheFile {
    /// An empty file for `scenario`.
    pub fn new(scenario: impl Into<String>) -> Self {
        Self {
            format: FORMAT_WITHOUT_BACKGROUND,
            scenario: scenario.into(),
            steps: Vec::new(),
        }
    }

    /// The entry for `key`, if any.
    pub fn get(&self, key: &StepKey) -> Option<&CachedStep> {
        if key.scenario != self.scenario {
            return None;
        }
        self.steps.iter().find(|entry| entry.is(key))
    }

    /// The `format` this file is written with: 5 when an entry records its proof (written as a
    /// table, whatever form it was read in), 3 when an entry records who wrote it (`by`), 2
    /// when it has `[[background]]` entries, else the format it was read with (a file is never
    /// written with an older format than it had).
    pub(crate) fn written_format(&self) -> u32 {
        let needed = if self.steps.iter().any(|entry| entry.proof.is_some()) {
            FORMAT
        } else if self.steps.iter().any(|entry| entry.by.is_some()) {
            FORMAT_WITH_AUTHOR
        } else if self.steps.iter().any(|entry| entry.test.is_none()) {
            FORMAT_WITH_BACKGROUND
        } else {
            FORMAT_WITHOUT_BACKGROUND
        };
        needed.max(self.format)
    }

    /// Parses the text of the cache file at `path`, which must be the cache of `scenario_rel`.
    pub(crate) fn parse(path: &Path, text: &str, scenario_rel: &str) -> Result<Self, CacheError> {
        let malformed = |span: Option<std::ops::Range<usize>>, message: String| {
            CacheError::malformed(path, text, span.map_or(0, |span| span.start), message)
        };
        let toml_error =
            |error: toml::de::Error| malformed(error.span(), error.message().to_owned());

        // First only the version, so a newer file is reported as such rather than by the fields
        // this version does not know.
        let probe: Probe = toml::from_str(text).map_err(toml_error)?;
        if let Some(format) = &probe.format
            && let Some(found) = format.get_ref().as_integer()
        {
            if found > i64::from(FORMAT) {
                return Err(CacheError::NewerFormat {
                    supported: FORMAT,
                    path: path.to_owned(),
                    found,
                });
            }
            if found < i64::from(FORMAT_WITHOUT_BACKGROUND) {
                return Err(malformed(
                    Some(format.span()),
                    format!(
                        "unsupported format {found}, expected {FORMAT_WITHOUT_BACKGROUND} or \
                         {FORMAT}"
                    ),
                ));
            }
        }

        let raw: Raw = toml::from_str(text).map_err(toml_error)?;
        if raw.scenario.get_ref() != scenario_rel {
            return Err(malformed(
                Some(raw.scenario.span()),
                format!(
                    "scenario is {:?} but this is the cache file of {scenario_rel:?}",
                    raw.scenario.get_ref()
                ),
            ));
        }
        for entry in &raw.steps {
            if entry.get_ref().test.is_none() {
                return Err(malformed(
                    Some(entry.span()),
                    "missing field `test`".to_owned(),
                ));
            }
        }
        for entry in &raw.background {
            if entry.get_ref().test.is_some() {
                return Err(malformed(
                    Some(entry.span()),
                    "a `[[background]]` entry has no `test`: its step belongs to every test of \
                     the file"
                        .to_owned(),
                ));
            }
        }
        let mut seen = HashSet::new();
        for entry in raw.background.iter().chain(&raw.steps) {
            let step = entry.get_ref();
            if step.occurrence == 0 {
                return Err(malformed(
                    Some(entry.span()),
                    "occurrence must be at least 1".to_owned(),
                ));
            }
            if !seen.insert((&step.test, &step.step, step.occurrence)) {
                let key = step.key(scenario_rel);
                return Err(malformed(
                    Some(entry.span()),
                    format!("duplicate entry for {key}"),
                ));
            }
        }
        Ok(Self {
            format: raw.format,
            scenario: raw.scenario.into_inner(),
            steps: raw
                .background
                .into_iter()
                .chain(raw.steps)
                .map(Spanned::into_inner)
                .collect(),
        })
    }

    /// Inserts or replaces the code of `key`; replaced code gets `today` as its date. Returns
    /// whether anything changed.
    /// A healed entry keeps its `created` date and gets `healed = today`.
    /// `by` is who wrote the code (`None` leaves the entry's unsaid).
    pub(crate) fn upsert(
        &mut self,
        key: &StepKey,
        code: &str,
        today: &str,
        healed: bool,
        by: Option<&str>,
    ) -> bool {
        if key.is_background() {
            self.format = self.format.max(FORMAT_WITH_BACKGROUND);
        }
        if by.is_some() {
            self.format = self.format.max(FORMAT_WITH_AUTHOR);
        }
        match self.steps.iter_mut().find(|entry| entry.is(key)) {
            Some(entry) if entry.code == code => false,
            Some(entry) => {
                code.clone_into(&mut entry.code);
                entry.by = by.map(str::to_owned);
                if healed {
                    entry.healed = Some(today.to_owned());
                } else {
                    today.clone_into(&mut entry.created);
                    entry.healed = None;
                }
                true
            }
            None => {
                self.steps.push(CachedStep {
                    test: key.test.clone(),
                    step: key.step.clone(),
                    occurrence: key.occurrence,
                    created: today.to_owned(),
                    healed: healed.then(|| today.to_owned()),
                    by: by.map(str::to_owned),
                    proof: None,
                    code: code.to_owned(),
                });
                true
            }
        }
    }

    /// Puts back `previous` as the entry of `key` (or removes the entry when there was none),
    /// but only while the entry still holds `written`: code someone wrote since is left alone.
    /// Returns whether anything changed.
    pub(crate) fn restore(
        &mut self,
        key: &StepKey,
        written: &str,
        previous: Option<&CachedStep>,
    ) -> bool {
        let Some(at) = self.steps.iter().position(|entry| entry.is(key)) else {
            return false;
        };
        if self.steps[at].code.trim_end() != written.trim_end() {
            return false;
        }
        match previous {
            Some(previous) => self.steps[at] = previous.clone(),
            None => {
                self.steps.remove(at);
            }
        }
        true
    }

    /// Records how the code of `key` was proven (`None`: it was not, or checks nothing);
    /// returns whether anything changed. New code without a proof loses the old code's.
    pub(crate) fn set_proof(&mut self, key: &StepKey, proof: Option<&ProofRecord>) -> bool {
        let Some(entry) = self.steps.iter_mut().find(|entry| entry.is(key)) else {
            return false;
        };
        if entry.proof.as_ref() == proof {
            return false;
        }
        entry.proof = proof.cloned();
        if proof.is_some() {
            self.format = self.format.max(FORMAT);
        }
        true
    }

    /// Orders entries like `scenario` (the background, then test order, then step order);
    /// entries it no longer has go last, in their previous relative order.
    pub(crate) fn order_like(&mut self, scenario: &Scenario) {
        let index: HashMap<StepKey, usize> = StepKey::all_of(scenario)
            .enumerate()
            .map(|(i, key)| (key, i))
            .collect();
        // A stable sort keeps stale entries (usize::MAX) in their relative order.
        self.steps.sort_by_key(|entry| {
            index
                .get(&entry.key(&scenario.rel_path))
                .copied()
                .unwrap_or(usize::MAX)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::toml_string::multi_line_string;

    fn entry(test: &str, step: &str, occurrence: u32, code: &str) -> CachedStep {
        CachedStep::stored_earlier(test, step, occurrence, code)
    }

    const TRICKY: &[&str] = &[
        "",
        "\n",
        "\n\nstarts with blank lines\n",
        "async function step(page) {\n  await page.goto('/');\n}\n",
        "no trailing newline",
        "ends with a quote '",
        "ends with two quotes ''",
        "ends with a double quote \"",
        "ends with \"\"",
        "contains ''' three quotes\n",
        "contains '''' four quotes and \"\"\" three doubles\n",
        "\"\"\"\"\"",
        "'''",
        "backslashes \\ \\\\ \\n \\u0041 and a line continuation \\\nnext\n",
        "ends with a backslash \\",
        "tabs\tand\ttrailing spaces   \n   \n",
        "crlf line\r\nendings\r\n",
        "a bare \r carriage return",
        "unicode: café, 日本語, emoji 🎉, rtl עברית, combining e\u{301}\n",
        "control chars \u{0} \u{1b} \u{7f} \u{85} \u{8} \u{c}\n",
        "`template ${literal}` and \"strings\" with 'quotes'\n",
        "# looks like a comment\n[[steps]]\ntest = \"not a table\"\n",
    ];

    #[test]
    fn tricky_code_round_trips_exactly() {
        for code in TRICKY {
            let mut file = CacheFile::new("scenarios/todo.steps");
            file.steps.push(entry(
                "te\"st\\ \t\n é",
                "type \"buy milk\" and press Enter",
                1,
                code,
            ));
            file.steps.push(entry("second", "step", 2, code));
            let text = file.render();
            let parsed = CacheFile::parse(Path::new("x.toml"), &text, "scenarios/todo.steps")
                .unwrap_or_else(|error| panic!("{code:?} does not parse: {error}\n{text}"));
            assert_eq!(parsed, file, "{code:?} does not round trip:\n{text}");
            let rendered = multi_line_string(code);
            assert!(text.contains(&format!("code = {rendered}\n")), "{text}");
            if rendered.starts_with("\"\"\"") {
                let unescaped = rendered.replace("\\\\", "");
                assert!(
                    !unescaped.contains("\\n"),
                    "newlines are never escaped in code: {rendered}"
                );
            }
        }
    }

    #[test]
    fn tricky_code_written_over_a_hand_edited_file_round_trips_exactly() {
        let path = Path::new("x.toml");
        let text = "# hand-edited\nformat = 1\nscenario = \"a.steps\"\n\n[[steps]]\ntest = \"t\"\nstep = \"s\"\noccurrence = 1\ncreated = \"d\" # kept\ncode = \"x\"\n";
        let key = StepKey {
            scenario: "a.steps".into(),
            test: Some("t".into()),
            step: "s".into(),
            occurrence: 1,
        };
        for code in TRICKY {
            let mut file = CacheFile::parse(path, text, "a.steps").unwrap();
            file.upsert(&key, code, "2026-02-02", true, None);
            file.steps.push(entry("t", "new", 1, code));
            let out = file.render_over(path, text).unwrap();
            let parsed = CacheFile::parse(path, &out, "a.steps")
                .unwrap_or_else(|error| panic!("{code:?} does not parse: {error}\n{out}"));
            assert_eq!(parsed, file, "{code:?} does not round trip:\n{out}");
            let spelled = format!("code = {}\n", multi_line_string(code));
            assert_eq!(
                out.matches(&spelled).count(),
                2,
                "{code:?} is not spelled as documented:\n{out}"
            );
            assert!(out.starts_with("# hand-edited\n"), "{out}");
            assert!(
                out.contains("created = \"d\" # kept\nhealed = \"2026-02-02\"\n"),
                "{out}"
            );
        }
    }

    #[test]
    fn output_is_stable_text() {
        let mut file = CacheFile::new("scenarios/todo.steps");
        file.steps.push(entry(
            "add a todo",
            "type \"buy milk\" into the new todo field and press Enter",
            1,
            "async function step(page) {\n  await page.fill('#new', \"buy milk\");\n}\n",
        ));
        file.steps
            .push(entry("add a todo", "press Enter", 2, "it's '''\n"));
        let expected = r#"format = 1
scenario = "scenarios/todo.steps"

[[steps]]
test = "add a todo"
step = "type \"buy milk\" into the new todo field and press Enter"
occurrence = 1
created = "2026-11-30"
code = '''
async function step(page) {
  await page.fill('#new', "buy milk");
}
'''

[[steps]]
test = "add a todo"
step = "press Enter"
occurrence = 2
created = "2026-11-30"
code = """
it's '''
"""
"#;
        assert_eq!(file.render(), expected);
    }

    fn parse_error(text: &str) -> CacheError {
        CacheFile::parse(Path::new("cache/s/a.steps.toml"), text, "s/a.steps").unwrap_err()
    }

    fn position(error: &CacheError) -> (usize, usize) {
        match error {
            CacheError::Malformed { line, col, .. } => (*line, *col),
            other => panic!("not malformed: {other}"),
        }
    }

    const HEADER: &str = "format = 1\nscenario = \"s/a.steps\"\n";

    #[test]
    fn bad_toml_names_the_file_and_position() {
        let error = parse_error(&format!("{HEADER}\n[[steps]]\ntest = \"t\nstep = \"s\"\n"));
        let shown = error.to_string();
        assert!(shown.starts_with("malformed cache file "), "{shown}");
        assert!(shown.contains("a.steps.toml:5:"), "{shown}");
        assert!(shown.contains("    5 | test = \"t"), "{shown}");
    }

    #[test]
    fn unknown_and_missing_fields_are_malformed() {
        let unknown = parse_error(&format!(
            "{HEADER}\n[[steps]]\ntest = \"t\"\nstep = \"s\"\noccurrence = 1\ncreated = \"d\"\ncode = \"c\"\nmodel = \"x\"\n"
        ));
        assert_eq!(position(&unknown).0, 10, "{unknown}");
        assert!(unknown.to_string().contains("model"), "{unknown}");
        let missing = parse_error(&format!(
            "{HEADER}\n[[steps]]\ntest = \"t\"\nstep = \"s\"\noccurrence = 1\ncreated = \"d\"\n"
        ));
        assert!(missing.to_string().contains("code"), "{missing}");
        assert_eq!(position(&missing).0, 4, "{missing}");
        let top = parse_error("scenario = \"s/a.steps\"\n");
        assert!(top.to_string().contains("format"), "{top}");
        let wrong_type = parse_error("format = 1\nscenario = 3\n");
        assert_eq!(position(&wrong_type), (2, 12), "{wrong_type}");
    }

    #[test]
    fn format_is_checked() {
        let newer = parse_error("format = 6\nscenario = \"s/a.steps\"\nfuture = true\n");
        assert!(
            matches!(newer, CacheError::NewerFormat { found: 6, .. }),
            "{newer}"
        );
        assert!(
            newer.to_string().contains("written by a newer prettyplay"),
            "{newer}"
        );
        let zero = parse_error("scenario = \"s/a.steps\"\nformat = 0\n");
        assert_eq!(position(&zero), (2, 10), "{zero}");
    }

    #[test]
    fn inconsistent_files_are_malformed() {
        let other = parse_error("format = 1\nscenario = \"s/b.steps\"\n");
        assert_eq!(position(&other), (2, 12), "{other}");
        let entry = "\n[[steps]]\ntest = \"t\"\nstep = \"s\"\noccurrence = 1\ncreated = \"d\"\ncode = \"c\"\n";
        let duplicate = parse_error(&format!("{HEADER}{entry}{entry}"));
        assert!(
            duplicate.to_string().contains("duplicate entry"),
            "{duplicate}"
        );
        assert_eq!(position(&duplicate), (11, 1), "{duplicate}");
        let zero = parse_error(&format!(
            "{HEADER}{}",
            entry.replace("occurrence = 1", "occurrence = 0")
        ));
        assert!(
            zero.to_string().contains("occurrence must be at least 1"),
            "{zero}"
        );
    }

    #[test]
    fn background_entries_have_no_test_and_format_1_is_still_read() {
        let bg = "\n[[background]]\nstep = \"s\"\noccurrence = 1\ncreated = \"d\"\ncode = \"c\"\n";
        let step = "\n[[steps]]\ntest = \"t\"\nstep = \"s\"\noccurrence = 1\ncreated = \"d\"\ncode = \"c\"\n";
        let two = "format = 2\nscenario = \"s/a.steps\"\n";
        let text = format!("{two}{step}{bg}");
        let file = CacheFile::parse(Path::new("x.toml"), &text, "s/a.steps").unwrap();
        // The background's entry is another key than the test's step of the same sentence.
        assert_eq!(file.steps.len(), 2);
        assert_eq!(file.steps[0].test, None);
        assert_eq!(file.written_format(), 2);
        let text = format!("{HEADER}{step}");
        let one = CacheFile::parse(Path::new("x.toml"), &text, "s/a.steps").unwrap();
        assert_eq!((one.format, one.written_format()), (1, 1));
        let with_test = parse_error(&format!(
            "{two}{}",
            bg.replace("step =", "test = \"t\"\nstep =")
        ));
        assert!(
            with_test.to_string().contains("has no `test`"),
            "{with_test}"
        );
        assert_eq!(position(&with_test).0, 4, "{with_test}");
        let without_test = parse_error(&format!("{two}{}", step.replace("test = \"t\"\n", "")));
        assert!(
            without_test.to_string().contains("missing field `test`"),
            "{without_test}"
        );
        let twice = parse_error(&format!("{two}{bg}{bg}"));
        assert!(
            twice
                .to_string()
                .contains("duplicate entry for background › \"s\" #1"),
            "{twice}"
        );
    }
}
