//! Screenshot baselines: the PNG files `toHaveScreenshot` compares the page with, committed
//! beside the scenario's cache file (`cache/scenarios/todo.steps-snapshots/`), one per test,
//! step, screenshot name and browser project.
//!
//! Main type: [`Baselines`] (one scenario's baseline directory), with [`BaselineName`] (which
//! file a screenshot of a step is).

use std::io;
use std::path::{Path, PathBuf};

use super::cache::write_atomic_bytes;
use super::cache_error::io_error;
use super::cache_lock::CacheLock;
use super::{Cache, CacheError};
use crate::regular_file::{MIB, read_regular_nofollow};

/// The largest baseline read: a full-page screenshot of a long page, far below a runaway file.
const MAX_BASELINE_BYTES: u64 = 64 * MIB;

/// What follows a scenario's file name in the name of its baseline directory.
pub(crate) const SNAPSHOTS_SUFFIX: &str = "-snapshots";

/// The baselines of one scenario: `<cache file>` with `.toml` replaced by `-snapshots/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Baselines {
    dir: PathBuf,
    /// The cache directory, whose lock every write takes.
    cache_dir: PathBuf,
}

/// Which baseline a screenshot is: its test, the step's 1-based index in the test, the name
/// step code gave it (if any) and the browser project it was taken in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BaselineName<'a> {
    pub test: &'a str,
    pub step: usize,
    pub name: Option<&'a str>,
    pub project: &'a str,
}

impl BaselineName<'_> {
    /// `add-a-todo-3-header-chromium.png`: every part slugged, so a name cannot leave the
    /// directory or clash with another part's separator.
    pub(crate) fn file_name(&self) -> String {
        let mut parts = vec![slug(self.test), self.step.to_string()];
        if let Some(name) = self.name {
            parts.push(slug(name.strip_suffix(".png").unwrap_or(name)));
        }
        parts.push(slug(self.project));
        format!("{}.png", parts.join("-"))
    }
}

impl Baselines {
    /// The baselines of the scenario `scenario_rel` (its path relative to the project).
    pub(crate) fn of(cache: &Cache, scenario_rel: &str) -> Self {
        let cache_file = cache.file_path(scenario_rel);
        let mut name = cache_file
            .file_name()
            .map(std::ffi::OsStr::to_os_string)
            .unwrap_or_default();
        let stem = Path::new(&name)
            .file_stem()
            .map(std::ffi::OsStr::to_os_string)
            .unwrap_or_default();
        name = stem;
        name.push(SNAPSHOTS_SUFFIX);
        Self {
            dir: cache_file.with_file_name(name),
            cache_dir: cache.dir().to_owned(),
        }
    }

    /// The directory of the baselines.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// The path of the baseline `name`.
    pub(crate) fn path(&self, name: &BaselineName<'_>) -> PathBuf {
        self.dir.join(name.file_name())
    }

    /// The baseline `name`, or `None` when it was never written. A symbolic link or a special
    /// file is an error: a committed baseline is a plain file.
    pub(crate) fn read(&self, name: &BaselineName<'_>) -> Result<Option<Vec<u8>>, CacheError> {
        let path = self.path(name);
        match read_regular_nofollow(&path, MAX_BASELINE_BYTES, "screenshot baselines") {
            Ok(png) => Ok(Some(png)),
            Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(err) => Err(io_error("read", &path)(err)),
        }
    }

    /// Writes the baseline `name` atomically (a reader never sees half an image), under the
    /// cache lock, because the write removes the temporary files a killed write left, and
    /// another worker's write in progress must not be one of them.
    pub(crate) fn write(&self, name: &BaselineName<'_>, png: &[u8]) -> Result<PathBuf, CacheError> {
        let path = self.path(name);
        let _lock = CacheLock::acquire(&self.cache_dir)?;
        write_atomic_bytes(&path, png)?;
        Ok(path)
    }
}

/// Lowercase ASCII letters and digits, every other run of characters one `-`, none at either
/// end: `Add a todo!` → `add-a-todo`. Non-ASCII letters are kept, lowercased.
pub(crate) fn slug(text: &str) -> String {
    let mut slug = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    while slug.ends_with('-') {
        slug.pop();
    }
    if slug.is_empty() {
        slug.push('_');
    }
    slug
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name<'a>(test: &'a str, step: usize, shot: Option<&'a str>, project: &'a str) -> String {
        BaselineName {
            test,
            step,
            name: shot,
            project,
        }
        .file_name()
    }

    #[test]
    fn baselines_are_named_per_test_step_name_and_project() {
        assert_eq!(
            name("Add a todo", 3, None, "chromium"),
            "add-a-todo-3-chromium.png"
        );
        assert_eq!(
            name("Add a todo", 3, Some("header.png"), "firefox"),
            "add-a-todo-3-header-firefox.png"
        );
        assert_ne!(
            name("t", 1, None, "chromium"),
            name("t", 1, None, "firefox")
        );
        assert_eq!(name("../../etc", 1, Some("../x"), "a/b"), "etc-1-x-a-b.png");
        assert_eq!(name("!!!", 2, None, "chromium"), "_-2-chromium.png");
    }

    #[test]
    fn baselines_live_beside_the_cache_file() {
        let baselines = Baselines::of(&Cache::new("/p/cache"), "scenarios/todo.steps");
        assert_eq!(
            baselines.dir(),
            Path::new("/p/cache/scenarios/todo.steps-snapshots")
        );
    }

    #[test]
    fn a_baseline_is_written_then_read_and_a_missing_one_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let baselines = Baselines::of(&Cache::new(dir.path().join("cache")), "a.steps");
        let shot = BaselineName {
            test: "t",
            step: 1,
            name: None,
            project: "chromium",
        };
        assert_eq!(baselines.read(&shot).unwrap(), None);
        let path = baselines.write(&shot, b"png").unwrap();
        assert_eq!(
            path,
            dir.path().join("cache/a.steps-snapshots/t-1-chromium.png")
        );
        assert_eq!(baselines.read(&shot).unwrap(), Some(b"png".to_vec()));
    }
}
