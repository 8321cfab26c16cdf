//! A cache file's TOML document, edited in place so that hand edits survive prettyplay's writes.
//!
//! Main type: [`CacheDocument`], a [`toml_edit`] document brought in line with a [`CacheFile`]:
//! only the values that differ are replaced, entries are added, removed and reordered as whole
//! tables, and everything else (comments, blank lines, string forms, key order) is kept as the
//! user wrote it. New values are spelled in the stable format of `docs/cache-format.md`, so a file
//! written from scratch is exactly that format.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use toml_edit::{ArrayOfTables, DocumentMut, Item, Key, RawString, Table, Value};

use super::toml_string::{basic_string, multi_line_string};
use super::{CacheError, CacheFile, CachedStep, ProofRecord};

/// The TOML document of one cache file.
#[derive(Debug, Clone, Default)]
pub(crate) struct CacheDocument {
    doc: DocumentMut,
}

/// The key of `[[steps]]` tables, in the root table.
const STEPS: &str = "steps";

/// The key of `[[background]]` tables, in the root table.
const BACKGROUND: &str = "background";

impl CacheDocument {
    /// An empty document, for a file that does not exist yet.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// The document of the cache file at `path`, whose text is `text`. Callers have checked it
    /// with [`CacheFile::parse`] first; a TOML error is reported like there all the same.
    pub(crate) fn parse(path: &Path, text: &str) -> Result<Self, CacheError> {
        match text.parse::<DocumentMut>() {
            Ok(doc) => Ok(Self { doc }),
            Err(error) => Err(CacheError::malformed(
                path,
                text,
                error.span().map_or(0, |span| span.start),
                error.message().to_owned(),
            )),
        }
    }

    /// Brings the document in line with `file`: its `format` and `scenario`, and its entries in
    /// `file`'s order. An entry already in the document keeps its table (comments, layout, string
    /// forms) and gets only the values that changed; a new entry is a new table in the stable
    /// layout; an entry `file` lacks is removed with the comments above it.
    pub(crate) fn update(&mut self, file: &CacheFile) {
        let root = self.doc.as_table_mut();
        sync_fields(
            root,
            &[
                ("format", Wanted::Integer(file.written_format())),
                ("scenario", Wanted::Basic(&file.scenario)),
            ],
        );
        let (background, steps): (Vec<&CachedStep>, Vec<&CachedStep>) =
            file.steps.iter().partition(|entry| entry.test.is_none());
        // `[[background]]` tables come before the `[[steps]]` ones, as they run first.
        sync_tables(root, BACKGROUND, &background, 1);
        sync_tables(root, STEPS, &steps, background.len() + 1);
    }
}

/// Writing a cache file is writing its document.
impl CacheFile {
    /// The file's text, written from scratch in the stable format documented in
    /// `docs/cache-format.md`.
    pub(crate) fn render(&self) -> String {
        let mut doc = CacheDocument::new();
        doc.update(self);
        doc.to_string()
    }

    /// The file's text written over `previous`, the text of the cache file at `path` (which
    /// [`CacheFile::parse`] accepted): the user's comments and layout are kept, see
    /// [`CacheDocument::update`].
    pub(crate) fn render_over(&self, path: &Path, previous: &str) -> Result<String, CacheError> {
        let mut doc = CacheDocument::parse(path, previous)?;
        doc.update(self);
        Ok(doc.to_string())
    }
}

impl fmt::Display for CacheDocument {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.doc.fmt(f)
    }
}

/// The value a key must have, and how a new value is spelled.
#[derive(Debug, Clone, Copy)]
enum Wanted<'a> {
    Integer(u32),
    /// A string, spelled as a basic string.
    Basic(&'a str),
    /// Step code, spelled as a multi-line string.
    Code(&'a str),
    /// A proof record, spelled as an inline table.
    Proof(&'a ProofRecord),
    /// The key must not be there.
    Absent,
}

impl Wanted<'_> {
    /// Whether `value` already is the wanted value (in whatever TOML form).
    fn holds(self, value: &Value) -> bool {
        match self {
            Self::Integer(n) => value.as_integer() == Some(i64::from(n)),
            Self::Basic(s) | Self::Code(s) => value.as_str() == Some(s),
            // A record in format 4's text does not hold it: the file is written with the table.
            Self::Proof(record) => record_in(value).as_ref() == Some(record),
            Self::Absent => false,
        }
    }

    /// The wanted value, spelled in the stable format; `None` for [`Wanted::Absent`].
    fn value(self) -> Option<Value> {
        match self {
            Self::Integer(n) => Some(Value::from(i64::from(n))),
            Self::Basic(s) => Some(string_value(&basic_string(s), s)),
            Self::Code(s) => Some(string_value(&multi_line_string(s), s)),
            Self::Proof(record) => Some(proof_value(record)),
            Self::Absent => None,
        }
    }
}

/// The keys of an entry's table in schema order, with their wanted values (a `[[background]]`
/// table has no `test`).
fn entry_fields(entry: &CachedStep) -> [(&'static str, Wanted<'_>); 8] {
    [
        (
            "test",
            entry.test.as_deref().map_or(Wanted::Absent, Wanted::Basic),
        ),
        ("step", Wanted::Basic(&entry.step)),
        ("occurrence", Wanted::Integer(entry.occurrence)),
        ("created", Wanted::Basic(&entry.created)),
        (
            "healed",
            entry
                .healed
                .as_deref()
                .map_or(Wanted::Absent, Wanted::Basic),
        ),
        (
            "by",
            entry.by.as_deref().map_or(Wanted::Absent, Wanted::Basic),
        ),
        (
            "proof",
            entry.proof.as_ref().map_or(Wanted::Absent, Wanted::Proof),
        ),
        ("code", Wanted::Code(&entry.code)),
    ]
}

/// The proof record a `proof` value holds as a table; `None` for the text form.
fn record_in(value: &Value) -> Option<ProofRecord> {
    #[derive(serde::Deserialize)]
    struct Field {
        proof: ProofRecord,
    }
    let bare = value.clone().decorated("", "");
    toml::from_str::<Field>(&format!("proof = {bare}"))
        .ok()
        .map(|field| field.proof)
}

/// A proof record as an inline table (`{ proven = ["hidden", "removed"] }`), spelled by its serde
/// form so that it reads back as the same record.
fn proof_value(record: &ProofRecord) -> Value {
    let spelled = toml::Value::try_from(record).map(|value| inline(&value));
    match spelled.map(|text| text.parse::<Value>()) {
        Ok(Ok(value)) => value,
        // The record's serde form is strings, arrays and tables: this does not happen, and its
        // text is still a record a reader understands.
        _ => string_value(&basic_string(&record.to_string()), &record.to_string()),
    }
}

/// A TOML value on one line: tables inline, strings as basic strings.
fn inline(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => basic_string(s),
        toml::Value::Array(items) => format!(
            "[{}]",
            items.iter().map(inline).collect::<Vec<_>>().join(", ")
        ),
        toml::Value::Table(table) => {
            let pairs: Vec<String> = table
                .iter()
                .map(|(key, value)| format!("{} = {}", Key::new(key).display_repr(), inline(value)))
                .collect();
            format!("{{ {} }}", pairs.join(", "))
        }
        other => other.to_string(),
    }
}

/// A string value holding `decoded`, spelled `repr`. toml_edit's own spelling differs from the
/// documented one (code without a newline after `'''`, raw C1 control characters, other quote
/// escapes), so the value is read from ours. Should ours ever not read back as `decoded`,
/// toml_edit's spelling is used instead: what the file holds matters more than how it looks.
fn string_value(repr: &str, decoded: &str) -> Value {
    match repr.parse::<Value>() {
        Ok(value) if value.as_str() == Some(decoded) => value,
        _ => Value::from(decoded),
    }
}

/// Gives `table` the wanted values of `fields` (in schema order): a value that differs is
/// replaced (keeping its decor: an inline comment stays), a missing key is inserted after the
/// schema keys before it, an [`Wanted::Absent`] key is removed.
fn sync_fields(table: &mut Table, fields: &[(&str, Wanted<'_>)]) {
    for (i, &(key, wanted)) in fields.iter().enumerate() {
        let Some(mut value) = wanted.value() else {
            remove_keeping_comments(table, key);
            continue;
        };
        match table.get_mut(key) {
            Some(Item::Value(current)) if wanted.holds(current) => {}
            Some(item) => {
                if let Some(current) = item.as_value() {
                    *value.decor_mut() = current.decor().clone();
                }
                *item = Item::Value(value);
            }
            None => insert_after(table, &fields[..i], key, value),
        }
    }
}

/// Inserts `key = value` into `table` right after the last of the `earlier` keys it has (first if
/// it has none), indented like that key; the keys that followed move after it, with their
/// comments.
fn insert_after(table: &mut Table, earlier: &[(&str, Wanted<'_>)], key: &str, value: Value) {
    let after = table
        .iter()
        .enumerate()
        .filter(|(_, (name, _))| earlier.iter().any(|(earlier, _)| earlier == name))
        .map(|(i, _)| i + 1)
        .last()
        .unwrap_or(0);
    let later: Vec<String> = table
        .iter()
        .skip(after)
        .map(|(name, _)| name.to_owned())
        .collect();
    // Indented like the key before it, when that one is indented.
    let indent = after
        .checked_sub(1)
        .and_then(|before| table.iter().nth(before))
        .and_then(|(name, _)| table.key(name))
        .and_then(|name| name.leaf_decor().prefix())
        .and_then(RawString::as_str)
        .filter(|prefix| prefix.chars().all(|c| c == ' ' || c == '\t'))
        .map(str::to_owned);
    let moved: Vec<(Key, Item)> = later
        .iter()
        .filter_map(|name| table.remove_entry(name))
        .collect();
    let mut new_key = Key::new(key);
    if let Some(indent) = indent {
        new_key.leaf_decor_mut().set_prefix(indent);
    }
    table.insert_formatted(&new_key, Item::Value(value));
    for (name, item) in moved {
        table.insert_formatted(&name, item);
    }
}

/// Removes `key` from `table`; comment lines above it move to the key that followed it, if any.
fn remove_keeping_comments(table: &mut Table, key: &str) {
    let Some(index) = table.iter().position(|(name, _)| name == key) else {
        return;
    };
    let Some((removed, _)) = table.remove_entry(key) else {
        return;
    };
    let Some(comments) = removed
        .leaf_decor()
        .prefix()
        .and_then(RawString::as_str)
        .filter(|prefix| prefix.contains('#'))
        // The whole lines above the key, not the key's own indentation.
        .and_then(|prefix| prefix.get(..=prefix.rfind('\n')?))
    else {
        return;
    };
    let Some(next) = table.iter().nth(index).map(|(name, _)| name.to_owned()) else {
        return;
    };
    if let Some(mut next) = table.key_mut(&next) {
        let decor = next.leaf_decor_mut();
        let rest = decor
            .prefix()
            .and_then(RawString::as_str)
            .unwrap_or("")
            .to_owned();
        decor.set_prefix(format!("{comments}{rest}"));
    }
}

/// Makes the `[[name]]` tables of `root` (`steps` or `background`) those of `entries`, in that
/// order, positioned from `first` on. A table is matched to its entry by key (test, step,
/// occurrence), which the file's validation made unique. Entries written as an inline array
/// (`steps = [{ ... }]`) become tables.
fn sync_tables(root: &mut Table, name: &str, entries: &[&CachedStep], first: usize) {
    if entries.is_empty() {
        if root.get(name).is_some_and(Item::is_array_of_tables) {
            root.remove(name);
        }
        return;
    }
    let mut previous: HashMap<(Option<String>, String, i64), Table> = HashMap::new();
    let mut tables_key = Key::new(name);
    if let Some((key, item)) = root.remove_entry(name) {
        if item.is_array_of_tables() {
            // The key as written (`[[ steps ]]`), for the headers.
            tables_key = key;
        }
        if let Ok(tables) = item.into_array_of_tables() {
            for table in tables {
                if let Some(entry_key) = table_key(&table) {
                    previous.insert(entry_key, table);
                }
            }
        }
    }
    let mut tables = ArrayOfTables::new();
    for (i, entry) in entries.iter().enumerate() {
        let entry_key = (
            entry.test.clone(),
            entry.step.clone(),
            i64::from(entry.occurrence),
        );
        let mut table = previous.remove(&entry_key).unwrap_or_default();
        sync_fields(&mut table, &entry_fields(entry));
        // Tables are written in the order of their positions, not of the array.
        table.set_position(Some(isize::try_from(first + i).unwrap_or(isize::MAX)));
        tables.push(table);
    }
    root.insert_formatted(&tables_key, Item::ArrayOfTables(tables));
}

/// The key of the entry a `[[steps]]` or `[[background]]` table holds.
fn table_key(table: &Table) -> Option<(Option<String>, String, i64)> {
    let test = match table.get("test") {
        Some(test) => Some(test.as_str()?.to_owned()),
        None => None,
    };
    Some((
        test,
        table.get("step")?.as_str()?.to_owned(),
        table.get("occurrence")?.as_integer()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::StepKey;

    fn key(test: &str, step: &str) -> StepKey {
        StepKey {
            scenario: "a.steps".into(),
            test: Some(test.into()),
            step: step.into(),
            occurrence: 1,
        }
    }

    /// `text` after `change`, written over itself; checks that it reads back as the changed file.
    fn edited(text: &str, change: impl FnOnce(&mut CacheFile)) -> String {
        let path = Path::new("cache/a.steps.toml");
        let mut file = CacheFile::parse(path, text, "a.steps").unwrap();
        change(&mut file);
        let out = file.render_over(path, text).unwrap();
        let reread = CacheFile::parse(path, &out, "a.steps")
            .unwrap_or_else(|error| panic!("{error}\n{out}"));
        assert_eq!(reread, file, "{out}");
        out
    }

    /// Moves the last entry to `index`, as `order_like` does for a step in the middle.
    fn move_last_to(file: &mut CacheFile, index: usize) {
        if let Some(entry) = file.steps.pop() {
            file.steps.insert(index, entry);
        }
    }

    /// A file header comment, comments above entries, inline comments, extra blank lines, an
    /// indented entry, a literal-string test name and a basic-string code.
    const HAND_EDITED: &str = r#"# The cache of a.steps.
# Reviewed by hand.

format = 1
scenario = "a.steps"   # where it lives


# The first step: keep it simple.
[[steps]]
test = "t"
step = "s" # the sentence
occurrence = 1
created = "2026-01-01"
code = '''
one
'''



[[steps]]   # second
  test = 't'
  step = "u"
  occurrence = 1
  created = "2026-01-01" # first run
  # hand-tuned, don't regenerate
  code = "two\n"
# the end
"#;

    const NEW_ENTRY: &str = r#"
[[steps]]
test = "t"
step = "v"
occurrence = 1
created = "2026-02-02"
code = '''
three
'''
"#;

    /// The end of the indented entry of [`HAND_EDITED`].
    const SECOND_END: &str = "  created = \"2026-01-01\" # first run\n  # hand-tuned, don't regenerate\n  code = \"two\\n\"\n";

    #[test]
    fn an_unchanged_file_is_written_back_byte_for_byte() {
        assert_eq!(edited(HAND_EDITED, |_| {}), HAND_EDITED);
        for shipped in [
            include_str!("../../cache/scenarios/todo.steps.toml"),
            include_str!("../../cache/scenarios/login.steps.toml"),
        ] {
            let path = Path::new("x.toml");
            let doc: DocumentMut = shipped.parse().unwrap();
            let scenario = doc["scenario"].as_str().unwrap();
            let file = CacheFile::parse(path, shipped, scenario).unwrap();
            assert_eq!(file.render_over(path, shipped).unwrap(), shipped);
            assert_eq!(
                file.render(),
                shipped,
                "the shipped cache is in the stable format"
            );
        }
    }

    #[test]
    fn adding_then_healing_another_entry_keeps_every_comment_and_blank_line() {
        let added = edited(HAND_EDITED, |file| {
            assert!(file.upsert(&key("t", "v"), "three\n", "2026-02-02", false, None));
            move_last_to(file, 1);
        });
        let after_first = "code = '''\none\n'''\n";
        let expected = HAND_EDITED.replacen(after_first, &format!("{after_first}{NEW_ENTRY}"), 1);
        assert_eq!(added, expected);

        let healed = edited(&added, |file| {
            assert!(file.upsert(&key("t", "u"), "TWO\n", "2026-03-03", true, None));
        });
        let expected = expected.replacen(
            SECOND_END,
            "  created = \"2026-01-01\" # first run\n  healed = \"2026-03-03\"\n  # hand-tuned, don't regenerate\n  code = '''\nTWO\n'''\n",
            1,
        );
        assert_eq!(healed, expected);
    }

    #[test]
    fn an_entry_added_last_goes_before_the_comment_that_ends_the_file() {
        let added = edited(HAND_EDITED, |file| {
            file.upsert(&key("t", "v"), "three\n", "2026-02-02", false, None);
        });
        let body = HAND_EDITED.strip_suffix("# the end\n").unwrap();
        assert_eq!(added, format!("{body}{NEW_ENTRY}# the end\n"));
    }

    #[test]
    fn regenerated_code_replaces_values_but_keeps_their_comments() {
        let healed = edited(HAND_EDITED, |file| {
            file.upsert(&key("t", "u"), "healed\n", "2026-02-02", true, None);
        });
        let healed = healed.replacen("  healed =", "  # healed once\n  healed =", 1);
        let fresh = edited(&healed, |file| {
            file.upsert(&key("t", "u"), "fresh\n", "2026-03-03", false, None);
        });
        let expected = HAND_EDITED.replacen(
            SECOND_END,
            "  created = \"2026-03-03\" # first run\n  # healed once\n  # hand-tuned, don't regenerate\n  code = '''\nfresh\n'''\n",
            1,
        );
        assert_eq!(fresh, expected);
    }

    #[test]
    fn removing_and_reordering_entries_takes_their_comments_along() {
        let removed = edited(HAND_EDITED, |file| {
            file.steps.remove(0);
        });
        let header = "# where it lives\n";
        let first = HAND_EDITED.find(header).unwrap() + header.len();
        // The first entry goes with the blank lines and comment above it.
        let second = HAND_EDITED.find("\n\n\n[[steps]]   # second").unwrap();
        let expected = format!("{}{}", &HAND_EDITED[..first], &HAND_EDITED[second..]);
        assert_eq!(removed, expected);

        let swapped = edited(HAND_EDITED, |file| file.steps.swap(0, 1));
        for line in HAND_EDITED.lines() {
            assert!(swapped.contains(line), "{line:?} is lost:\n{swapped}");
        }
        let second = swapped.find("[[steps]]   # second").unwrap();
        assert!(
            second < swapped.find("# The first step").unwrap(),
            "{swapped}"
        );
        assert!(second < swapped.find("one\n").unwrap(), "{swapped}");
    }

    #[test]
    fn entries_in_an_inline_array_become_tables() {
        let text = "format = 1\nscenario = \"a.steps\"\nsteps = [\n  { test = \"t\", step = \"s\", occurrence = 1, created = \"d\", code = \"x\" },\n]\n";
        let added = edited(text, |file| {
            file.upsert(&key("t", "v"), "three\n", "2026-02-02", false, None);
        });
        assert!(
            added.starts_with("format = 1\nscenario = \"a.steps\"\n"),
            "{added}"
        );
        assert!(added.ends_with(NEW_ENTRY), "{added}");
        assert!(!added.contains("steps = ["), "{added}");
    }

    #[test]
    fn a_new_file_is_in_the_stable_format() {
        let mut file = CacheFile::new("a.steps");
        file.upsert(&key("t", "v"), "three\n", "2026-02-02", false, None);
        assert_eq!(
            file.render(),
            format!("format = 1\nscenario = \"a.steps\"\n{NEW_ENTRY}")
        );
        assert_eq!(
            CacheFile::new("a.steps").render(),
            "format = 1\nscenario = \"a.steps\"\n"
        );
    }

    fn background(step: &str) -> StepKey {
        StepKey {
            test: None,
            ..key("", step)
        }
    }

    #[test]
    fn background_entries_are_background_tables_first_in_a_format_2_file() {
        let added = edited(HAND_EDITED, |file| {
            file.upsert(
                &background("open the app"),
                "bg\n",
                "2026-02-02",
                false,
                None,
            );
            move_last_to(file, 0);
        });
        let table = "[[background]]\nstep = \"open the app\"\noccurrence = 1\ncreated = \"2026-02-02\"\ncode = '''\nbg\n'''\n";
        let expected = HAND_EDITED
            .replacen("format = 1", "format = 2", 1)
            .replacen(
                "\n\n# The first step",
                &format!("\n{table}\n\n# The first step"),
                1,
            );
        assert_eq!(added, expected);
        // Healing it changes only its values; removing it leaves the format at 2.
        let healed = edited(&added, |file| {
            file.upsert(
                &background("open the app"),
                "BG\n",
                "2026-03-03",
                true,
                None,
            );
        });
        assert!(
            healed.contains(
                "created = \"2026-02-02\"\nhealed = \"2026-03-03\"\ncode = '''\nBG\n'''\n"
            ),
            "{healed}"
        );
        let removed = edited(&healed, |file| {
            file.steps.retain(|entry| entry.test.is_some());
        });
        assert!(!removed.contains("[[background]]"), "{removed}");
        assert!(removed.contains("format = 2"), "{removed}");
        // A new file without a background is format 1; with one, format 2.
        let mut file = CacheFile::new("a.steps");
        file.upsert(&key("t", "v"), "three\n", "2026-02-02", false, None);
        file.upsert(&background("open"), "bg\n", "2026-02-02", false, None);
        assert_eq!(
            file.render(),
            format!(
                "format = 2\nscenario = \"a.steps\"\n\n[[background]]\nstep = \"open\"\noccurrence = 1\ncreated = \"2026-02-02\"\ncode = '''\nbg\n'''\n{NEW_ENTRY}"
            )
        );
    }

    /// Caches the previous format wrote, with every kind of proof text it wrote.
    const FORMAT_4: [&str; 4] = [
        include_str!("../../tests/fixtures/todomvc-suite/cache/scenarios/adding.steps.toml"),
        include_str!("../../tests/fixtures/todomvc-suite/cache/scenarios/completing.steps.toml"),
        include_str!("../../tests/fixtures/todomvc-suite/cache/scenarios/editing.steps.toml"),
        include_str!("../../tests/fixtures/todomvc-suite/cache/scenarios/filters.steps.toml"),
    ];

    #[test]
    fn a_format_4_cache_loads_whole_and_is_written_with_proof_tables_as_format_5() {
        let path = Path::new("x.toml");
        for old in FORMAT_4 {
            let doc: DocumentMut = old.parse().unwrap();
            let scenario = doc["scenario"].as_str().unwrap();
            let file = CacheFile::parse(path, old, scenario).unwrap();
            let entries =
                old.matches("\n[[steps]]").count() + old.matches("\n[[background]]").count();
            assert_eq!(file.steps.len(), entries, "every entry is kept");
            let texts = old.lines().filter(|l| l.starts_with("proof = \"")).count();
            let records = file.steps.iter().filter(|e| e.proof.is_some()).count();
            assert_eq!(records, texts, "every proof is read");
            let written = file.render_over(path, old).unwrap();
            assert!(written.starts_with("format = 5\n"), "{written}");
            assert!(!written.contains("proof = \""), "{written}");
            assert_eq!(
                CacheFile::parse(path, &written, scenario).unwrap().steps,
                file.steps
            );
        }
    }

    #[test]
    fn proofs_are_written_as_tables_and_read_back() {
        use crate::cache::{MutationKind, ProofRecord, Unproven};
        let records = [
            (
                ProofRecord::Proven(vec![MutationKind::Hidden, MutationKind::TextPrefixed]),
                r#"proof = { proven = ["hidden", "text-prefixed"] }"#,
            ),
            (
                ProofRecord::None(Unproven::Acts("click".into())),
                r#"proof = { none = { acts = "click" } }"#,
            ),
            (
                ProofRecord::None(Unproven::Sends("POST".into())),
                r#"proof = { none = { sends = "POST" } }"#,
            ),
            (
                ProofRecord::None(Unproven::NoMutation),
                r#"proof = { none = "no_mutation" }"#,
            ),
            (
                ProofRecord::None(Unproven::NotRepeatable("a \"quoted\" why".into())),
                r#"proof = { none = { not_repeatable = "a \"quoted\" why" } }"#,
            ),
        ];
        for (record, line) in records {
            let mut file = CacheFile::new("a.steps");
            file.upsert(&key("t", "s"), "code\n", "2026-01-01", false, Some("llm"));
            file.set_proof(&key("t", "s"), Some(&record));
            let text = file.render();
            assert!(text.starts_with("format = 5\n"), "{text}");
            assert!(
                text.contains(&format!("\nby = \"llm\"\n{line}\ncode = ")),
                "{text}"
            );
            let read = CacheFile::parse(Path::new("a.toml"), &text, "a.steps").unwrap();
            assert_eq!(read.steps[0].proof.as_ref(), Some(&record));
            // Written again, a table that holds the record is left as it is.
            assert_eq!(read.render_over(Path::new("a.toml"), &text).unwrap(), text);
        }
    }

    #[test]
    fn a_proof_text_no_prettyplay_wrote_is_an_error_at_its_line() {
        let text = "format = 4\nscenario = \"a.steps\"\n\n[[steps]]\ntest = \"t\"\nstep = \"s\"\noccurrence = 1\ncreated = \"d\"\nproof = \"proven: glowing\"\ncode = \"c\"\n";
        let error = CacheFile::parse(Path::new("a.toml"), text, "a.steps").unwrap_err();
        let shown = error.to_string();
        assert!(shown.contains("not a proof record"), "{shown}");
        assert!(shown.contains("a.toml:9:"), "{shown}");
    }
}
