//! The cache directory: loading cache files, and storing step code atomically under the lock.
//!
//! Main type: [`Cache`] ([`Cache::load`], [`Cache::put`], [`Cache::put_healed`]): one TOML file per
//! scenario under the cache directory. Every write re-reads the file under the [`CacheLock`], and
//! replaces it whole (temporary file, fsync, rename), so concurrent runs lose nothing and readers
//! never see half a file. The user's comments and layout in the file are kept. A malformed file
//! is reported and never overwritten.

use std::fs::{self, File};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use super::cache_error::io_error;
use super::cache_lock::CacheLock;
use super::{Author, CacheError, CacheFile, CachedStep, ProofRecord, StepKey};
use crate::regular_file::{MIB, read_regular_to_string};
use crate::scenario::Scenario;
use crate::secrets::{CodeSecret, Secrets};

/// The largest cache file read: thousands of steps' code, far below a runaway read. A bigger
/// file (or one that is not a regular file) is an error, and is never overwritten.
pub(crate) const MAX_CACHE_FILE_BYTES: u64 = 10 * MIB;

/// The most bytes of code cached for one step: far above any real step, far below a runaway
/// reply. [`Cache::put`] refuses more (the engine never offers it).
pub(crate) const MAX_STEP_CODE_BYTES: usize = 64 * 1024;

/// A cache directory: `<dir>/<scenario rel_path>.toml` per scenario, plus the lock file `.lock`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
    /// Values no cache file may hold: code that contains one is refused.
    secrets: Secrets,
}

impl Cache {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            secrets: Secrets::default(),
        }
    }

    /// The cache, refusing to write code that holds any of `secrets`.
    pub fn with_secrets(mut self, secrets: Secrets) -> Self {
        self.secrets = secrets;
        self
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
        Ok(self.read(scenario_rel)?.map(|(_, file)| file))
    }

    /// Like [`Cache::load`], with the text the file was read from (for [`Cache::write`]).
    pub(crate) fn read(
        &self,
        scenario_rel: &str,
    ) -> Result<Option<(String, CacheFile)>, CacheError> {
        let path = self.file_path(scenario_rel);
        let text = match read_regular_to_string(&path, MAX_CACHE_FILE_BYTES, "cache files") {
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
        let file = CacheFile::parse(&path, &text, scenario_rel)?;
        Ok(Some((text, file)))
    }

    /// Stores `code` for `key`, a step of `scenario`: under the cache lock, re-reads the file,
    /// inserts or replaces the entry (replaced code gets `today`, `YYYY-MM-DD`), orders entries like
    /// the scenario and replaces the file atomically. Code is stored with a trailing newline. A
    /// malformed file is an error and is left untouched; so is code over [`MAX_STEP_CODE_BYTES`],
    /// which is never written.
    pub fn put(
        &self,
        scenario: &Scenario,
        key: &StepKey,
        code: &str,
        today: &str,
    ) -> Result<(), CacheError> {
        self.store(scenario, key, code, today, false, None, None)
    }

    /// Stores code the engine wrote (`by`), healed or not, with how its checks were proven
    /// (`proof`; `None` for code that checks nothing).
    #[expect(clippy::too_many_arguments, reason = "an entry's parts, each named")]
    pub(crate) fn put_written(
        &self,
        scenario: &Scenario,
        key: &StepKey,
        code: &str,
        today: &str,
        healed: bool,
        by: Author,
        proof: Option<&ProofRecord>,
    ) -> Result<(), CacheError> {
        self.store(scenario, key, code, today, healed, Some(by), proof)
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
        self.store(scenario, key, code, today, true, None, None)
    }

    #[expect(clippy::too_many_arguments, reason = "an entry's parts, each named")]
    fn store(
        &self,
        scenario: &Scenario,
        key: &StepKey,
        code: &str,
        today: &str,
        healed: bool,
        by: Option<Author>,
        proof: Option<&ProofRecord>,
    ) -> Result<(), CacheError> {
        if key.scenario != scenario.rel_path {
            return Err(CacheError::KeyMismatch {
                key_scenario: key.scenario.clone(),
                scenario: scenario.rel_path.clone(),
            });
        }
        if code.len() > MAX_STEP_CODE_BYTES {
            return Err(CacheError::CodeTooLarge {
                path: self.file_path(&scenario.rel_path),
                bytes: code.len(),
                limit: MAX_STEP_CODE_BYTES,
            });
        }
        match self.secrets.found_in_code(code) {
            Some(CodeSecret::Holds(name)) => {
                return Err(CacheError::SecretInCode {
                    path: self.file_path(&scenario.rel_path),
                    key: key.to_string(),
                    name: name.to_owned(),
                });
            }
            Some(CodeSecret::Unchecked) => {
                return Err(CacheError::UncheckedCode {
                    path: self.file_path(&scenario.rel_path),
                    key: key.to_string(),
                });
            }
            None => {}
        }
        let code = if code.ends_with('\n') {
            code.to_owned()
        } else {
            format!("{code}\n")
        };
        let _lock = self.lock()?;
        let (previous, mut file) = match self.read(&scenario.rel_path)? {
            Some((text, file)) => (Some(text), file),
            None => (None, CacheFile::new(scenario.rel_path.clone())),
        };
        let changed = file.upsert(key, &code, today, healed, by.map(Author::as_str));
        let proven = by.is_some() && file.set_proof(key, proof);
        if !changed && !proven {
            return Ok(());
        }
        file.order_like(scenario);
        self.write(&file, previous.as_deref())
    }

    /// Undoes a write of `written` as the code of `key`: the entry becomes `previous` again, or
    /// goes when there was none. An entry that holds other code by now is left as it is.
    /// Returns whether the file changed.
    pub(crate) fn revert(
        &self,
        scenario: &Scenario,
        key: &StepKey,
        written: &str,
        previous: Option<&CachedStep>,
    ) -> Result<bool, CacheError> {
        let _lock = self.lock()?;
        let Some((text, mut file)) = self.read(&scenario.rel_path)? else {
            return Ok(false);
        };
        if !file.restore(key, written, previous) {
            return Ok(false);
        }
        file.order_like(scenario);
        self.write(&file, Some(&text))?;
        Ok(true)
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
        CacheLock::acquire(&self.dir)
    }

    /// Replaces the cache file of `file.scenario` atomically: a temporary file in the same
    /// directory, written and fsynced, then renamed over it (and the directory fsynced).
    /// `previous` is the file's text as read under the lock (`None` when there was no file): its
    /// comments and layout are kept. Callers hold the lock.
    pub(crate) fn write(&self, file: &CacheFile, previous: Option<&str>) -> Result<(), CacheError> {
        let path = self.file_path(&file.scenario);
        let text = match previous {
            Some(previous) => file.render_over(&path, previous)?,
            None => file.render(),
        };
        write_atomic(&path, &text)
    }
}

fn write_atomic(path: &Path, text: &str) -> Result<(), CacheError> {
    write_atomic_bytes(path, text.as_bytes())
}

/// Replaces `path` with `bytes` atomically: a temporary file in the same directory, written and
/// fsynced, then renamed over it (and the directory fsynced).
pub(super) fn write_atomic_bytes(path: &Path, bytes: &[u8]) -> Result<(), CacheError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(io_error("create directory", dir))?;
    remove_stale_temporaries(dir)?;
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
    tmp.write_all(bytes)
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

/// Deletes the temporary files [`write_atomic`] left in `dir` when it was killed mid-write
/// (`.<name>.toml.<random>.tmp`, or a baseline's `.<name>.png.<random>.tmp`). Every write holds the lock, so under it any such file is stale.
fn remove_stale_temporaries(dir: &Path) -> Result<(), CacheError> {
    let entries = fs::read_dir(dir).map_err(io_error("list", dir))?;
    for entry in entries {
        let entry = entry.map_err(io_error("list", dir))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let is_temporary = name.starts_with('.')
            && name.ends_with(".tmp")
            && (name.contains(".toml.") || name.contains(".png."))
            && entry.file_type().is_ok_and(|kind| kind.is_file());
        if is_temporary {
            tracing::debug!(file = %entry.path().display(), "removing a stale temporary cache file");
            match fs::remove_file(entry.path()) {
                Ok(()) => {}
                // Gone already: nothing to do.
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(source) => return Err(io_error("delete", &entry.path())(source)),
            }
        }
    }
    Ok(())
}

/// Deletes a cache file (prune), under the lock.
pub(crate) fn remove_file(path: &Path) -> Result<(), CacheError> {
    fs::remove_file(path).map_err(io_error("delete", path))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use super::*;
    use crate::cache::CachedStep;
    use crate::scenario::{Step, Test};

    fn scenario(rel: &str, tests: &[(&str, &[&str])]) -> Scenario {
        Scenario {
            path: PathBuf::from(format!("/project/{rel}")),
            rel_path: rel.to_owned(),
            background: Vec::new(),
            tests: tests
                .iter()
                .map(|(name, steps)| Test {
                    name: (*name).to_owned(),
                    line: 1,
                    tags: vec![],
                    state: None,
                    saves: None,
                    example: None,
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
                            optional: false,
                            argument: None,
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
        CachedStep::stored_earlier(test, step, occurrence, code)
    }

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
    fn who_wrote_the_code_is_recorded_as_by_in_a_format_3_file() {
        let dir = tempfile::tempdir().unwrap();
        let scenario = scenario("scenarios/a.steps", &[("t", &["s", "u"])]);
        let cache = Cache::new(dir.path());
        let test = &scenario.tests[0];
        let (s, u) = (
            StepKey::of(&scenario, test, &test.steps[0]),
            StepKey::of(&scenario, test, &test.steps[1]),
        );
        cache.put(&scenario, &s, "old()", "2026-01-01").unwrap();
        let text = std::fs::read_to_string(cache.file_path(&scenario.rel_path)).unwrap();
        assert!(text.starts_with("format = 1\n"), "{text}");
        assert!(!text.contains("by ="), "{text}");
        cache
            .put_written(
                &scenario,
                &u,
                "u()",
                "2026-01-02",
                false,
                Author::Builtin,
                None,
            )
            .unwrap();
        cache
            .put_written(
                &scenario,
                &s,
                "new()",
                "2026-02-02",
                true,
                Author::Llm,
                None,
            )
            .unwrap();
        let text = std::fs::read_to_string(cache.file_path(&scenario.rel_path)).unwrap();
        assert!(text.starts_with("format = 3\n"), "{text}");
        assert!(
            text.contains("created = \"2026-01-01\"\nhealed = \"2026-02-02\"\nby = \"llm\"\ncode"),
            "{text}"
        );
        assert!(text.contains("by = \"builtin\"\ncode = '''\nu()"), "{text}");
        let file = cache.load(&scenario.rel_path).unwrap().unwrap();
        assert_eq!(file.steps[1].by.as_deref(), Some("builtin"));
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
            .map(|e| {
                format!(
                    "{}/{}/{}",
                    e.test.as_deref().unwrap_or("-"),
                    e.step,
                    e.occurrence
                )
            })
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
    fn put_and_put_healed_keep_the_comments_of_a_hand_edited_file() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let text = "# Checked by hand.\nformat = 1\nscenario = \"a.steps\"\n\n\n# Opens the app.\n[[steps]]\ntest = \"t\"\nstep = \"s\" # first\noccurrence = 1\ncreated = \"2026-01-01\"\ncode = '''\ns()\n'''\n\n# Keep this one.\n[[steps]]\ntest = \"t\"\nstep = \"w\"\noccurrence = 1\ncreated = \"2026-01-01\"\ncode = '''\nw()\n'''\n";
        fs::write(cache.file_path("a.steps"), text).unwrap();
        let s = scenario("a.steps", &[("t", &["s", "u", "w"])]);
        cache.put(&s, &key(&s, 0, 1), "u()", "2026-02-02").unwrap();
        let new_entry = "\n[[steps]]\ntest = \"t\"\nstep = \"u\"\noccurrence = 1\ncreated = \"2026-02-02\"\ncode = '''\nu()\n'''\n";
        let expected = text.replacen("s()\n'''\n", &format!("s()\n'''\n{new_entry}"), 1);
        let read = || fs::read_to_string(cache.file_path("a.steps")).unwrap();
        assert_eq!(read(), expected);
        cache
            .put_healed(&s, &key(&s, 0, 2), "w2()", "2026-03-03")
            .unwrap();
        let expected = expected.replacen(
            "created = \"2026-01-01\"\ncode = '''\nw()\n'''\n",
            "created = \"2026-01-01\"\nhealed = \"2026-03-03\"\ncode = '''\nw2()\n'''\n",
            1,
        );
        assert_eq!(read(), expected);
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
    fn stale_temporary_files_are_removed_by_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let sub = dir.path().join("s");
        fs::create_dir_all(&sub).unwrap();
        // Left by writes killed mid-way: of this file, and of another file of the directory.
        let own = sub.join(".a.steps.toml.Xy12Ab.tmp");
        let other = sub.join(".b.steps.toml.Qw34Er.tmp");
        let unrelated = sub.join(".notes.tmp");
        for path in [&own, &other, &unrelated] {
            fs::write(path, "format = 1\nscenario = \"half").unwrap();
        }
        let s = scenario("s/a.steps", &[("t", &["s"])]);
        cache.put(&s, &key(&s, 0, 0), "x\n", "d").unwrap();
        assert!(!own.exists(), "the file's own leftover is gone");
        assert!(!other.exists(), "under the lock every leftover is stale");
        assert!(
            unrelated.exists(),
            "files that are not cache temporaries stay"
        );
        assert_eq!(cache.load("s/a.steps").unwrap().unwrap().steps.len(), 1);
    }

    #[test]
    fn code_over_64_kib_is_refused_and_never_written() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let s = scenario("a.steps", &[("t", &["s"])]);
        let huge = "x".repeat(MAX_STEP_CODE_BYTES + 1);
        let error = cache.put(&s, &key(&s, 0, 0), &huge, "d").unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "step code of 65537 bytes is over the limit of 65536 bytes for one step; it was \
                 not cached in {}",
                cache.file_path("a.steps").display()
            )
        );
        assert!(!cache.file_path("a.steps").exists());
        let error = cache
            .put_healed(&s, &key(&s, 0, 0), &huge, "d")
            .unwrap_err();
        assert!(matches!(error, CacheError::CodeTooLarge { .. }), "{error}");
        // At the limit it is cached.
        let most = "x".repeat(MAX_STEP_CODE_BYTES);
        cache.put(&s, &key(&s, 0, 0), &most, "d").unwrap();
        assert!(cache.file_path("a.steps").exists());
    }

    #[test]
    fn cache_files_over_10_mib_or_not_regular_are_errors_and_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path());
        let path = cache.file_path("a.steps");
        File::create(&path)
            .and_then(|f| f.set_len(MAX_CACHE_FILE_BYTES + 1))
            .unwrap();
        let error = cache.load("a.steps").unwrap_err();
        let CacheError::Io { source, .. } = &error else {
            panic!("{error:?}");
        };
        assert_eq!(
            format!("{error}: {source}"),
            format!(
                "cannot read {}: it is 10485761 bytes, over the limit of 10485760 bytes (10 MiB) \
                 for cache files: make it smaller or split it",
                path.display()
            )
        );
        let s = scenario("a.steps", &[("t", &["s"])]);
        cache.put(&s, &key(&s, 0, 0), "x\n", "d").unwrap_err();
        assert_eq!(fs::metadata(&path).unwrap().len(), MAX_CACHE_FILE_BYTES + 1);
        #[cfg(unix)]
        {
            fs::remove_file(&path).unwrap();
            std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
            let (tx, rx) = std::sync::mpsc::channel();
            let (c, s2) = (cache.clone(), s.clone());
            std::thread::spawn(move || {
                let loaded = c.load("a.steps").map(|_| ());
                let put = c.put(&s2, &key(&s2, 0, 0), "x\n", "d");
                // The receiver gave up only if the test already failed.
                tx.send((loaded, put)).ok();
            });
            let (loaded, put) = rx
                .recv_timeout(std::time::Duration::from_secs(10))
                .expect("returned within 10 s");
            let error = loaded.unwrap_err();
            let CacheError::Io { source, .. } = &error else {
                panic!("{error:?}");
            };
            assert!(
                source.to_string().starts_with("it is a character device"),
                "{source}"
            );
            put.unwrap_err();
            assert!(
                fs::symlink_metadata(&path)
                    .unwrap()
                    .file_type()
                    .is_symlink()
            );
        }
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
