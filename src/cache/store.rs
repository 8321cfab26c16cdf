//! The cache store: one TOML file per scenario, read strictly, written atomically under a lock.
//!
//! Main type: [`Cache`] (a cache directory: [`Cache::load`], [`Cache::put`]); a file's content is a
//! [`CacheFile`] of [`CachedStep`]s. The format is documented in `docs/cache-format.md`: the cache
//! is the users' property, so files are written by hand-rolled, stable formatting (step code as a
//! multi-line literal string), hand edits are honoured as they are, and a file that does not parse
//! is reported and never overwritten.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use super::StepKey;
use crate::scenario::Scenario;

/// The format version this prettyplay reads and writes.
pub(crate) const FORMAT: u32 = 1;

/// The lock file, directly in the cache directory. Safe to ignore (and to delete when no prettyplay
/// runs); users may add it to `.gitignore`.
pub(crate) const LOCK_FILE: &str = ".lock";

/// An error reading or writing the cache.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("cannot {action} {}", path.display())]
    Io {
        /// What was being done, e.g. `read`, `lock`, `replace`.
        action: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The file is not a valid cache file; it is left untouched.
    #[error("malformed cache file {}:{line}:{col}: {message}{}", path.display(), show_excerpt(*line, excerpt))]
    Malformed {
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        col: usize,
        message: String,
        /// The offending line of the file.
        excerpt: String,
    },
    #[error(
        "{} was written by a newer prettyplay (format {found}; this version reads format {FORMAT})",
        path.display()
    )]
    NewerFormat { path: PathBuf, found: i64 },
    /// A caller bug: the key passed to [`Cache::put`] belongs to another scenario.
    #[error("step key is for scenario {key_scenario:?}, not {scenario:?}")]
    KeyMismatch {
        key_scenario: String,
        scenario: String,
    },
}

fn show_excerpt(line: usize, excerpt: &str) -> String {
    if excerpt.trim().is_empty() {
        String::new()
    } else {
        format!("\n{line:>5} | {excerpt}")
    }
}

/// One cache entry: proven code for one step.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct CachedStep {
    pub test: String,
    pub step: String,
    /// The n-th time this exact sentence appears in the test, from 1.
    pub occurrence: u32,
    /// `YYYY-MM-DD` the code was stored (free text if hand-edited).
    pub created: String,
    /// `YYYY-MM-DD` the code was last healed (regenerated after the UI changed), if ever.
    #[serde(default)]
    pub healed: Option<String>,
    /// The step code, exactly as stored (hand edits included).
    pub code: String,
}

impl CachedStep {
    /// This entry's key, given the scenario of its file.
    pub fn key(&self, scenario: &str) -> StepKey {
        StepKey {
            scenario: scenario.to_owned(),
            test: self.test.clone(),
            step: self.step.clone(),
            occurrence: self.occurrence,
        }
    }

    fn is(&self, key: &StepKey) -> bool {
        self.test == key.test && self.step == key.step && self.occurrence == key.occurrence
    }
}

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
    steps: Vec<Spanned<CachedStep>>,
}

/// The content of one cache file: the entries of one scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CacheFile {
    pub format: u32,
    /// The scenario's path relative to the project root, `/`-separated.
    pub scenario: String,
    pub steps: Vec<CachedStep>,
}

impl CacheFile {
    /// An empty file for `scenario`.
    pub fn new(scenario: impl Into<String>) -> Self {
        Self {
            format: FORMAT,
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

    /// Parses the text of the cache file at `path`, which must be the cache of `scenario_rel`.
    pub(crate) fn parse(path: &Path, text: &str, scenario_rel: &str) -> Result<Self, CacheError> {
        let malformed = |span: Option<Range<usize>>, message: String| {
            let (line, col, excerpt) = locate(text, span.map_or(0, |span| span.start));
            CacheError::Malformed {
                path: path.to_owned(),
                line,
                col,
                message,
                excerpt,
            }
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
                    path: path.to_owned(),
                    found,
                });
            }
            if found < i64::from(FORMAT) {
                return Err(malformed(
                    Some(format.span()),
                    format!("unsupported format {found}, expected {FORMAT}"),
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
        let mut seen = HashSet::new();
        for entry in &raw.steps {
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
            steps: raw.steps.into_iter().map(Spanned::into_inner).collect(),
        })
    }

    /// The file's text, in the stable format documented in `docs/cache-format.md`.
    pub(crate) fn render(&self) -> String {
        let mut out = format!(
            "format = {}\nscenario = {}\n",
            self.format,
            basic_string(&self.scenario)
        );
        for entry in &self.steps {
            out.push_str("\n[[steps]]\n");
            out.push_str(&format!("test = {}\n", basic_string(&entry.test)));
            out.push_str(&format!("step = {}\n", basic_string(&entry.step)));
            out.push_str(&format!("occurrence = {}\n", entry.occurrence));
            out.push_str(&format!("created = {}\n", basic_string(&entry.created)));
            if let Some(healed) = &entry.healed {
                out.push_str(&format!("healed = {}\n", basic_string(healed)));
            }
            out.push_str(&format!("code = {}\n", multi_line_string(&entry.code)));
        }
        out
    }

    /// Inserts or replaces the code of `key`; replaced code gets `today` as its date. Returns
    /// whether anything changed.
    /// A healed entry keeps its `created` date and gets `healed = today`.
    pub(crate) fn upsert(&mut self, key: &StepKey, code: &str, today: &str, healed: bool) -> bool {
        match self.steps.iter_mut().find(|entry| entry.is(key)) {
            Some(entry) if entry.code == code => false,
            Some(entry) => {
                code.clone_into(&mut entry.code);
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
                    code: code.to_owned(),
                });
                true
            }
        }
    }

    /// Orders entries like `scenario` (test order, then step order); entries it no longer has go
    /// last, in their previous relative order.
    pub(crate) fn order_like(&mut self, scenario: &Scenario) {
        let index: HashMap<(&str, &str, u32), usize> = scenario
            .tests
            .iter()
            .flat_map(|test| {
                test.steps
                    .iter()
                    .map(move |step| (test.name.as_str(), step.sentence.as_str(), step.occurrence))
            })
            .enumerate()
            .map(|(i, key)| (key, i))
            .collect();
        // A stable sort keeps stale entries (usize::MAX) in their relative order.
        self.steps.sort_by_key(|entry| {
            index
                .get(&(entry.test.as_str(), entry.step.as_str(), entry.occurrence))
                .copied()
                .unwrap_or(usize::MAX)
        });
    }
}

/// 1-based line and column (in characters) of byte `offset`, and the text of that line.
fn locate(text: &str, offset: usize) -> (usize, usize, String) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let col = before[line_start..].chars().count() + 1;
    let line_text = text[line_start..].lines().next().unwrap_or("");
    (line, col, line_text.to_owned())
}

/// `s` as a TOML basic string: `"..."` with escapes.
fn basic_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => push_control_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `code` as a TOML multi-line string that reads back exactly as `code`: a literal `'''` string
/// when it can be, else a basic `"""` string with escapes. Both start with a newline (which TOML
/// trims) and keep real newlines; the closing delimiter follows the code's last character.
fn multi_line_string(code: &str) -> String {
    let literal = !code.contains("'''")
        && !code.ends_with('\'')
        && code
            .chars()
            .all(|c| c == '\n' || c == '\t' || !c.is_control());
    if literal {
        return format!("'''\n{code}'''");
    }
    let mut out = String::with_capacity(code.len() + 8);
    out.push_str("\"\"\"\n");
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            // Escaping every quote but the last of a run (and one right before the closing
            // delimiter) keeps `"""` out of the content.
            '"' if matches!(chars.peek(), Some('"') | None) => out.push_str("\\\""),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => push_control_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out.push_str("\"\"\"");
    out
}

fn push_control_escape(out: &mut String, c: char) {
    match c {
        '\r' => out.push_str("\\r"),
        '\u{8}' => out.push_str("\\b"),
        '\u{c}' => out.push_str("\\f"),
        '\n' => out.push_str("\\n"),
        '\t' => out.push_str("\\t"),
        c => out.push_str(&format!("\\u{:04X}", u32::from(c))),
    }
}

/// A cache directory: `<dir>/<scenario rel_path>.toml` per scenario, plus the lock file `.lock`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
}

impl Cache {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The cache file of a scenario, e.g. `scenarios/todo.steps` → `<dir>/scenarios/todo.steps.toml`.
    pub fn file_path(&self, scenario_rel: &str) -> PathBuf {
        let mut path = self.dir.clone();
        path.extend(scenario_rel.split('/').filter(|part| !part.is_empty()));
        let mut name = path
            .file_name()
            .map(std::ffi::OsStr::to_os_string)
            .unwrap_or_default();
        name.push(".toml");
        path.set_file_name(name);
        path
    }

    /// Reads the cache file of a scenario; `None` if it has none. Does not lock: files are only
    /// ever replaced whole.
    pub fn load(&self, scenario_rel: &str) -> Result<Option<CacheFile>, CacheError> {
        let path = self.file_path(scenario_rel);
        let text = match fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(CacheError::Io {
                    action: "read",
                    path,
                    source,
                });
            }
        };
        CacheFile::parse(&path, &text, scenario_rel).map(Some)
    }

    /// Stores `code` for `key`, a step of `scenario`: under the cache lock, re-reads the file,
    /// inserts or replaces the entry (replaced code gets `today`, `YYYY-MM-DD`), orders entries like
    /// the scenario and replaces the file atomically. Code is stored with a trailing newline. A
    /// malformed file is an error and is left untouched.
    pub fn put(
        &self,
        scenario: &Scenario,
        key: &StepKey,
        code: &str,
        today: &str,
    ) -> Result<(), CacheError> {
        self.store(scenario, key, code, today, false)
    }

    /// Like [`Cache::put`] for healed code: the entry keeps its `created` date and records
    /// `healed = today`.
    pub fn put_healed(
        &self,
        scenario: &Scenario,
        key: &StepKey,
        code: &str,
        today: &str,
    ) -> Result<(), CacheError> {
        self.store(scenario, key, code, today, true)
    }

    fn store(
        &self,
        scenario: &Scenario,
        key: &StepKey,
        code: &str,
        today: &str,
        healed: bool,
    ) -> Result<(), CacheError> {
        if key.scenario != scenario.rel_path {
            return Err(CacheError::KeyMismatch {
                key_scenario: key.scenario.clone(),
                scenario: scenario.rel_path.clone(),
            });
        }
        let code = if code.ends_with('\n') {
            code.to_owned()
        } else {
            format!("{code}\n")
        };
        let _lock = self.lock()?;
        let mut file = self
            .load(&scenario.rel_path)?
            .unwrap_or_else(|| CacheFile::new(scenario.rel_path.clone()));
        if !file.upsert(key, &code, today, healed) {
            return Ok(());
        }
        file.order_like(scenario);
        self.write(&file)
    }

    /// Today's local date as `YYYY-MM-DD` (UTC when the local time zone is unknown), for
    /// [`Cache::put`].
    pub fn today() -> String {
        jiff::ZonedDateTime::now().date().to_string()
    }

    /// Takes the exclusive cache lock (blocking) on `<dir>/.lock`, creating the directory and the
    /// lock file if missing; released when the guard drops. One lock for the whole cache: writes
    /// are short, and one lock also covers prune.
    pub(crate) fn lock(&self) -> Result<CacheLock, CacheError> {
        fs::create_dir_all(&self.dir).map_err(io_error("create directory", &self.dir))?;
        let path = self.dir.join(LOCK_FILE);
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(false)
            .open(&path)
            .map_err(io_error("open lock file", &path))?;
        file.lock().map_err(io_error("lock", &path))?;
        Ok(CacheLock { _file: file })
    }

    /// Replaces the cache file of `file.scenario` atomically: a temporary file in the same
    /// directory, written and fsynced, then renamed over it (and the directory fsynced). Callers
    /// hold the lock.
    pub(crate) fn write(&self, file: &CacheFile) -> Result<(), CacheError> {
        write_atomic(&self.file_path(&file.scenario), &file.render())
    }
}

/// Holds the cache lock until dropped (closing the file releases it).
#[derive(Debug)]
pub(crate) struct CacheLock {
    _file: File,
}

fn write_atomic(path: &Path, text: &str) -> Result<(), CacheError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(io_error("create directory", dir))?;
    // A hidden name, so neither prune nor users mistake a leftover of a crash for a cache file.
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(path.file_name().unwrap_or_default());
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        // Like any new file (the umask applies), not tempfile's owner-only default.
        use std::os::unix::fs::PermissionsExt as _;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder
        .tempfile_in(dir)
        .map_err(io_error("create a temporary file in", dir))?;
    tmp.write_all(text.as_bytes())
        .map_err(io_error("write", tmp.path()))?;
    tmp.as_file()
        .sync_all()
        .map_err(io_error("sync", tmp.path()))?;
    tmp.persist(path)
        .map_err(|error| io_error("replace", path)(error.error))?;
    #[cfg(unix)]
    File::open(dir)
        .and_then(|dir| dir.sync_all())
        .map_err(io_error("sync", dir))?;
    Ok(())
}

/// Deletes a cache file (prune), under the lock.
pub(crate) fn remove_file(path: &Path) -> Result<(), CacheError> {
    fs::remove_file(path).map_err(io_error("delete", path))
}

/// For `map_err`: an [`CacheError::Io`] doing `action` on `path`.
fn io_error(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> CacheError + use<> {
    let path = path.to_owned();
    move |source| CacheError::Io {
        action,
        path,
        source,
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use super::*;
    use crate::scenario::{Step, Test};

    fn scenario(rel: &str, tests: &[(&str, &[&str])]) -> Scenario {
        Scenario {
            path: PathBuf::from(format!("/project/{rel}")),
            rel_path: rel.to_owned(),
            tests: tests
                .iter()
                .map(|(name, steps)| Test {
                    name: (*name).to_owned(),
                    line: 1,
                    tags: vec![],
                    steps: steps
                        .iter()
                        .enumerate()
                        .map(|(i, sentence)| Step {
                            sentence: (*sentence).to_owned(),
                            line: i + 2,
                            occurrence: u32::try_from(
                                steps[..i].iter().filter(|s| *s == sentence).count() + 1,
                            )
                            .unwrap(),
                            tries: None,
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    fn key(scenario: &Scenario, test: usize, step: usize) -> StepKey {
        StepKey::of(
            scenario,
            &scenario.tests[test],
            &scenario.tests[test].steps[step],
        )
    }

    fn entry(test: &str, step: &str, occurrence: u32, code: &str) -> CachedStep {
        CachedStep {
            test: test.to_owned(),
            step: step.to_owned(),
            occurrence,
            created: "2026-11-30".to_owned(),
            healed: None,
            code: code.to_owned(),
        }
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
    fn healed_code_keeps_its_created_date_and_records_the_heal() {
        let dir = tempfile::tempdir().unwrap();
        let scenario = scenario("scenarios/a.steps", &[("t", &["s"])]);
        let cache = Cache::new(dir.path());
        let key = StepKey::of(&scenario, &scenario.tests[0], &scenario.tests[0].steps[0]);
        cache.put(&scenario, &key, "old()", "2026-01-01").unwrap();
        cache
            .put_healed(&scenario, &key, "new()", "2026-02-02")
            .unwrap();
        let text = std::fs::read_to_string(cache.file_path(&scenario.rel_path)).unwrap();
        assert!(
            text.contains("created = \"2026-01-01\"\nhealed = \"2026-02-02\"\n"),
            "{text}"
        );
        let file = cache.load(&scenario.rel_path).unwrap().unwrap();
        assert_eq!(file.steps[0].healed.as_deref(), Some("2026-02-02"));
        assert_eq!(file.steps[0].code, "new()\n");
        cache.put(&scenario, &key, "fresh()", "2026-03-03").unwrap();
        let file = cache.load(&scenario.rel_path).unwrap().unwrap();
        assert_eq!(file.steps[0].healed, None);
        assert_eq!(file.steps[0].created, "2026-03-03");
    }

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
    fn plain_code_is_a_literal_string_and_tricky_code_a_basic_one() {
        assert_eq!(
            multi_line_string("a 'b' \"c\" \\d\n"),
            "'''\na 'b' \"c\" \\d\n'''"
        );
        assert_eq!(multi_line_string("x = '''\n"), "\"\"\"\nx = '''\n\"\"\"");
        assert_eq!(
            multi_line_string("a\r\nb \\ \"\"\""),
            "\"\"\"\na\\r\nb \\\\ \\\"\\\"\\\"\"\"\""
        );
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

    #[test]
    fn file_path_mirrors_the_scenario_path() {
        let cache = Cache::new("/p/cache");
        assert_eq!(
            cache.file_path("scenarios/todo.steps"),
            PathBuf::from("/p/cache/scenarios/todo.steps.toml")
        );
        assert_eq!(
            cache.file_path("a.steps"),
            PathBuf::from("/p/cache/a.steps.toml")
        );
    }

    #[test]
    fn load_of_a_missing_file_is_none() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            Cache::new(dir.path().join("cache"))
                .load("scenarios/x.steps")
                .unwrap(),
            None
        );
    }

    #[test]
    fn put_then_load() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path().join("cache"));
        let s = scenario("scenarios/todo.steps", &[("add a todo", &["open the app"])]);
        let k = key(&s, 0, 0);
        cache
            .put(&s, &k, "await page.goto('/');", "2026-11-30")
            .unwrap();
        let file = cache.load("scenarios/todo.steps").unwrap().unwrap();
        let got = file.get(&k).unwrap();
        assert_eq!(got.code, "await page.goto('/');\n");
        assert_eq!(got.created, "2026-11-30");
        let mut other = k.clone();
        other.occurrence = 2;
        assert_eq!(file.get(&other), None);
    }

    #[test]
    fn replaced_code_gets_todays_date_and_unchanged_code_keeps_its_date() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let s = scenario("a.steps", &[("t", &["s"])]);
        let k = key(&s, 0, 0);
        cache.put(&s, &k, "one\n", "2026-01-01").unwrap();
        cache.put(&s, &k, "one\n", "2026-02-02").unwrap();
        assert_eq!(
            cache
                .load("a.steps")
                .unwrap()
                .unwrap()
                .get(&k)
                .unwrap()
                .created,
            "2026-01-01"
        );
        cache.put(&s, &k, "two\n", "2026-03-03").unwrap();
        let file = cache.load("a.steps").unwrap().unwrap();
        assert_eq!(
            file.steps,
            [CachedStep {
                created: "2026-03-03".into(),
                healed: None,
                ..entry("t", "s", 1, "two\n")
            }]
        );
    }

    #[test]
    fn entries_follow_scenario_order_and_stale_entries_are_kept_last() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let old = scenario("a.steps", &[("gone", &["x", "y"]), ("t2", &["b"])]);
        cache.put(&old, &key(&old, 0, 1), "y\n", "d").unwrap();
        cache.put(&old, &key(&old, 0, 0), "x\n", "d").unwrap();
        cache.put(&old, &key(&old, 1, 0), "b\n", "d").unwrap();
        let new = scenario("a.steps", &[("t1", &["a", "a"]), ("t2", &["b"])]);
        cache.put(&new, &key(&new, 0, 1), "a2\n", "d").unwrap();
        cache.put(&new, &key(&new, 0, 0), "a1\n", "d").unwrap();
        let order: Vec<_> = cache
            .load("a.steps")
            .unwrap()
            .unwrap()
            .steps
            .iter()
            .map(|e| format!("{}/{}/{}", e.test, e.step, e.occurrence))
            .collect();
        assert_eq!(
            order,
            ["t1/a/1", "t1/a/2", "t2/b/1", "gone/x/1", "gone/y/1"]
        );
    }

    #[test]
    fn hand_edited_code_is_honoured_as_is() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let text = "format = 1\nscenario = \"a.steps\"\n\n[[steps]]\ntest = \"t\"\nstep = \"s\"\n\
                    occurrence = 1\ncreated = \"yesterday-ish\"\ncode = \"  await page.reload()  \"\n";
        fs::write(cache.file_path("a.steps"), text).unwrap();
        let file = cache.load("a.steps").unwrap().unwrap();
        assert_eq!(file.steps[0].code, "  await page.reload()  ");
        assert_eq!(file.steps[0].created, "yesterday-ish");
        // Another put keeps the hand-edited entry as it is.
        let s = scenario("a.steps", &[("t", &["s", "u"])]);
        cache.put(&s, &key(&s, 0, 1), "u\n", "d").unwrap();
        assert_eq!(
            cache.load("a.steps").unwrap().unwrap().steps[0],
            file.steps[0]
        );
    }

    #[test]
    fn writes_leave_no_temporary_files() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path().join("cache"));
        let s = scenario("scenarios/deep/a.steps", &[("t", &["s", "u"])]);
        cache.put(&s, &key(&s, 0, 0), "s\n", "d").unwrap();
        cache.put(&s, &key(&s, 0, 1), "u\n", "d").unwrap();
        let mut files: Vec<String> = walkdir::WalkDir::new(cache.dir())
            .into_iter()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                e.path()
                    .strip_prefix(cache.dir())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        files.sort();
        assert_eq!(files, [".lock", "scenarios/deep/a.steps.toml"]);
    }

    #[cfg(unix)]
    #[test]
    fn written_files_are_not_owner_only() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let s = scenario("a.steps", &[("t", &["s"])]);
        cache.put(&s, &key(&s, 0, 0), "s\n", "d").unwrap();
        let mode = fs::metadata(cache.file_path("a.steps"))
            .unwrap()
            .permissions()
            .mode();
        assert_ne!(mode & 0o044, 0, "mode {mode:o}");
    }

    #[test]
    fn two_threads_writing_at_once_lose_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let names: Vec<String> = (0..50).map(|i| format!("step {i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let s = Arc::new(scenario("a.steps", &[("a", &names), ("b", &names)]));
        let threads: Vec<_> = (0..2)
            .map(|t| {
                let cache = Cache::new(dir.path().join("cache"));
                let s = Arc::clone(&s);
                std::thread::spawn(move || {
                    for i in 0..50 {
                        cache
                            .put(&s, &key(&s, t, i), &format!("code {t} {i}\n"), "d")
                            .unwrap();
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        let file = Cache::new(dir.path().join("cache"))
            .load("a.steps")
            .unwrap()
            .unwrap();
        assert_eq!(file.steps.len(), 100);
        for t in 0..2 {
            for i in 0..50 {
                assert_eq!(file.steps[t * 50 + i].code, format!("code {t} {i}\n"));
            }
        }
    }

    fn load_error(text: &str) -> CacheError {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        fs::create_dir_all(cache.file_path("s/a.steps").parent().unwrap()).unwrap();
        fs::write(cache.file_path("s/a.steps"), text).unwrap();
        cache.load("s/a.steps").unwrap_err()
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
        let error = load_error(&format!("{HEADER}\n[[steps]]\ntest = \"t\nstep = \"s\"\n"));
        let shown = error.to_string();
        assert!(shown.starts_with("malformed cache file "), "{shown}");
        assert!(shown.contains("a.steps.toml:5:"), "{shown}");
        assert!(shown.contains("    5 | test = \"t"), "{shown}");
    }

    #[test]
    fn unknown_and_missing_fields_are_malformed() {
        let unknown = load_error(&format!(
            "{HEADER}\n[[steps]]\ntest = \"t\"\nstep = \"s\"\noccurrence = 1\ncreated = \"d\"\ncode = \"c\"\nmodel = \"x\"\n"
        ));
        assert_eq!(position(&unknown).0, 10, "{unknown}");
        assert!(unknown.to_string().contains("model"), "{unknown}");
        let missing = load_error(&format!(
            "{HEADER}\n[[steps]]\ntest = \"t\"\nstep = \"s\"\noccurrence = 1\ncreated = \"d\"\n"
        ));
        assert!(missing.to_string().contains("code"), "{missing}");
        assert_eq!(position(&missing).0, 4, "{missing}");
        let top = load_error("scenario = \"s/a.steps\"\n");
        assert!(top.to_string().contains("format"), "{top}");
        let wrong_type = load_error("format = 1\nscenario = 3\n");
        assert_eq!(position(&wrong_type), (2, 12), "{wrong_type}");
    }

    #[test]
    fn format_is_checked() {
        let newer = load_error("format = 2\nscenario = \"s/a.steps\"\nfuture = true\n");
        assert!(
            matches!(newer, CacheError::NewerFormat { found: 2, .. }),
            "{newer}"
        );
        assert!(
            newer.to_string().contains("written by a newer prettyplay"),
            "{newer}"
        );
        let zero = load_error("scenario = \"s/a.steps\"\nformat = 0\n");
        assert_eq!(position(&zero), (2, 10), "{zero}");
    }

    #[test]
    fn inconsistent_files_are_malformed() {
        let other = load_error("format = 1\nscenario = \"s/b.steps\"\n");
        assert_eq!(position(&other), (2, 12), "{other}");
        let entry = "\n[[steps]]\ntest = \"t\"\nstep = \"s\"\noccurrence = 1\ncreated = \"d\"\ncode = \"c\"\n";
        let duplicate = load_error(&format!("{HEADER}{entry}{entry}"));
        assert!(
            duplicate.to_string().contains("duplicate entry"),
            "{duplicate}"
        );
        assert_eq!(position(&duplicate), (11, 1), "{duplicate}");
        let zero = load_error(&format!(
            "{HEADER}{}",
            entry.replace("occurrence = 1", "occurrence = 0")
        ));
        assert!(
            zero.to_string().contains("occurrence must be at least 1"),
            "{zero}"
        );
    }

    #[test]
    fn put_into_a_malformed_file_fails_and_leaves_it_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let text = "format = 1\nscenario = \"a.steps\"\n[[steps]]\nbroken";
        fs::write(cache.file_path("a.steps"), text).unwrap();
        let s = scenario("a.steps", &[("t", &["s"])]);
        let error = cache.put(&s, &key(&s, 0, 0), "x\n", "d").unwrap_err();
        assert!(
            matches!(error, CacheError::Malformed { line: 4, .. }),
            "{error}"
        );
        assert_eq!(
            fs::read_to_string(cache.file_path("a.steps")).unwrap(),
            text
        );
        fs::write(cache.file_path("a.steps"), "format = 7\n").unwrap();
        let error = cache.put(&s, &key(&s, 0, 0), "x\n", "d").unwrap_err();
        assert!(
            matches!(error, CacheError::NewerFormat { found: 7, .. }),
            "{error}"
        );
        assert_eq!(
            fs::read_to_string(cache.file_path("a.steps")).unwrap(),
            "format = 7\n"
        );
    }

    #[test]
    fn put_rejects_a_key_of_another_scenario() {
        let dir = tempfile::tempdir().unwrap();
        let a = scenario("a.steps", &[("t", &["s"])]);
        let b = scenario("b.steps", &[("t", &["s"])]);
        let error = Cache::new(dir.path())
            .put(&a, &key(&b, 0, 0), "x", "d")
            .unwrap_err();
        assert!(matches!(error, CacheError::KeyMismatch { .. }), "{error}");
    }

    #[test]
    fn today_is_a_date() {
        let today = Cache::today();
        assert_eq!(today.len(), 10, "{today}");
        assert!(today.parse::<jiff::civil::Date>().is_ok(), "{today}");
    }
}
