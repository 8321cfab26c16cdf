//! Finding `.steps` and `.feature` files on disk ([`discover`]) and loading them into [`Scenario`]s ([`load`]).
//!
//! Directories are walked recursively; hidden entries, `target/` and `node_modules/` are skipped
//! unless named explicitly. Results are sorted and free of duplicates so runs are deterministic.

use crate::paths::normalize;
use crate::regular_file::{MIB, read_regular};
use std::collections::BTreeSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use walkdir::{DirEntry, WalkDir};

use super::{Scenario, ScenarioError, parse, parse_feature};

/// Extensions of scenario files found in directories: prettyplay's own and Gherkin's.
const EXTENSIONS: [&str; 2] = ["steps", FEATURE_EXTENSION];

/// The extension of Gherkin files, which are read as Gherkin wherever they come from.
const FEATURE_EXTENSION: &str = "feature";

/// The largest `.steps` file read: far above any hand-written scenario, far below a runaway read.
pub(crate) const MAX_SCENARIO_BYTES: u64 = 10 * MIB;

/// Directory names never walked into (besides hidden ones), unless given explicitly.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];

/// Lists the scenario files (`*.steps`, `*.feature`) named by `paths`, sorted, each once.
///
/// Each path is a file or a directory; the caller makes them absolute. A file named explicitly is
/// used whatever its extension or name. A directory is walked recursively for `*.steps` and
/// `*.feature` files,
/// skipping entries whose name starts with `.` and directories named `target` or `node_modules`;
/// a directory given explicitly is walked even if its own name is hidden. Symbolic links to
/// directories below a given directory are not followed. Paths are normalised lexically (`.` and
/// `..` removed), which is also how duplicates are recognised.
///
/// A directory without scenario files yields an empty list; a path that does not exist is an
/// error. All missing or unreadable paths are reported together.
pub(crate) fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ScenarioError> {
    let mut found = BTreeSet::new();
    let mut errors = Vec::new();
    for path in paths {
        let path = normalize(path);
        match fs::metadata(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                errors.push(ScenarioError::NotFound { path });
            }
            Err(source) => errors.push(ScenarioError::Io { path, source }),
            Ok(meta) if meta.is_dir() => walk(&path, &mut found, &mut errors),
            Ok(_) => {
                found.insert(path);
            }
        }
    }
    match ScenarioError::combine(errors) {
        Some(error) => Err(error),
        None => Ok(found.into_iter().collect()),
    }
}

fn walk(dir: &Path, found: &mut BTreeSet<PathBuf>, errors: &mut Vec<ScenarioError>) {
    let entries = WalkDir::new(dir)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_skipped(e));
    for entry in entries {
        match entry {
            Ok(entry) => {
                let kind = entry.file_type();
                let is_steps = entry
                    .path()
                    .extension()
                    .is_some_and(|ext| EXTENSIONS.iter().any(|known| ext == *known));
                // Anything but a directory is taken as a file: reading it reports a dangling
                // symlink, a FIFO or a device by name, as for a file named explicitly, instead
                // of skipping it in silence.
                if is_steps && !kind.is_dir() {
                    found.insert(normalize(entry.path()));
                }
            }
            Err(error) => {
                let path = error.path().unwrap_or(dir).to_path_buf();
                errors.push(ScenarioError::Io {
                    path,
                    source: io::Error::from(error),
                });
            }
        }
    }
}

/// Hidden entries, and directories such as `target/` that hold build output or dependencies.
fn is_skipped(entry: &DirEntry) -> bool {
    let name = entry.file_name().to_string_lossy();
    name.starts_with('.') || (entry.file_type().is_dir() && SKIPPED_DIRS.contains(&name.as_ref()))
}

/// Discovers, reads and parses the scenario files named by `paths` (see [`discover`]).
///
/// Each [`Scenario::rel_path`] is the file's path relative to `project_root`, `/`-separated. A
/// file outside the project root keeps its full (normalised, absolute) path, `/`-separated, as
/// `rel_path`: that path is then its identity in the cache, so moving it changes its identity.
/// Non-UTF-8 file names are converted lossily.
///
/// Only regular files (or symbolic links to them) are read, up to [`MAX_SCENARIO_BYTES`]: a
/// device, a FIFO or a bigger file is a [`ScenarioError::Io`] saying so, before anything is read.
///
/// Every read and parse error of every file is returned at once (as
/// [`ScenarioError::Multiple`] when there are several).
pub(crate) fn load(project_root: &Path, paths: &[PathBuf]) -> Result<Vec<Scenario>, ScenarioError> {
    let root = normalize(project_root);
    let mut scenarios = Vec::new();
    let mut errors = Vec::new();
    for path in discover(paths)? {
        let rel_path = rel_path(&root, &path);
        let bytes = match read_regular(&path, MAX_SCENARIO_BYTES, "`.steps` files") {
            Ok(bytes) => bytes,
            Err(source) => {
                errors.push(ScenarioError::Io { path, source });
                continue;
            }
        };
        let parsed = if is_feature(&path) {
            parse_feature(&rel_path, &bytes)
        } else {
            parse(&rel_path, &bytes)
        };
        match parsed {
            Ok(parsed) => scenarios.push(Scenario {
                path,
                rel_path,
                background: parsed.background,
                tests: parsed.tests,
            }),
            Err(error) => errors.push(error),
        }
    }
    match ScenarioError::combine(errors) {
        Some(error) => Err(error),
        None => Ok(scenarios),
    }
}

/// Whether `path` is a Gherkin file (`*.feature`); any other file is read as `.steps`.
pub(crate) fn is_feature(path: &Path) -> bool {
    path.extension().is_some_and(|ext| ext == FEATURE_EXTENSION)
}

/// `path` relative to `root` with `/` separators, or all of `path` with `/` separators when it is
/// not inside `root`.
fn rel_path(root: &Path, path: &Path) -> String {
    match path.strip_prefix(root) {
        Ok(rel) if rel.components().next().is_some() => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        _ => {
            let full = path.to_string_lossy();
            if std::path::MAIN_SEPARATOR == '/' {
                full.into_owned()
            } else {
                full.replace(std::path::MAIN_SEPARATOR, "/")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(root: &Path, rel: &str, content: &str) -> PathBuf {
        let path = root.join(rel);
        fs::create_dir_all(path.parent().expect("has a parent")).expect("create dirs");
        fs::write(&path, content).expect("write file");
        path
    }

    fn rels(root: &Path, found: &[PathBuf]) -> Vec<String> {
        found.iter().map(|p| rel_path(root, p)).collect()
    }

    #[test]
    fn walks_directories_sorted_skipping_hidden_target_and_node_modules() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for rel in [
            "scenarios/b.steps",
            "scenarios/a.steps",
            "scenarios/sub/c.steps",
            "scenarios/notes.txt",
            "scenarios/.hidden/h.steps",
            "scenarios/.h.steps",
            "scenarios/target/t.steps",
            "scenarios/node_modules/n.steps",
            "scenarios/sub/target.steps",
        ] {
            touch(root, rel, "x\n");
        }
        let found = discover(&[root.join("scenarios")]).expect("discover");
        assert_eq!(
            rels(root, &found),
            [
                "scenarios/a.steps",
                "scenarios/b.steps",
                "scenarios/sub/c.steps",
                "scenarios/sub/target.steps"
            ]
        );
    }

    #[test]
    fn explicit_paths_are_honoured_even_hidden_or_without_extension() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        touch(root, ".hidden/h.steps", "x\n");
        touch(root, "target/t.steps", "x\n");
        touch(root, "plain.txt", "x\n");
        let found = discover(&[
            root.join("plain.txt"),
            root.join(".hidden"),
            root.join("target"),
        ])
        .expect("discover");
        assert_eq!(
            rels(root, &found),
            [".hidden/h.steps", "plain.txt", "target/t.steps"]
        );
    }

    #[test]
    fn a_file_named_twice_counts_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        let file = touch(root, "s/a.steps", "x\n");
        let found = discover(&[root.join("s"), file.clone(), root.join("s/./../s/a.steps")])
            .expect("discover");
        assert_eq!(found, [file]);
    }

    #[test]
    fn missing_paths_are_errors_naming_them() {
        let dir = tempfile::tempdir().expect("tempdir");
        let missing = dir.path().join("nope.steps");
        let e = discover(std::slice::from_ref(&missing)).expect_err("missing");
        assert_eq!(
            e.to_string(),
            format!("scenario path `{}` does not exist", missing.display())
        );
        let e = discover(&[missing.clone(), dir.path().join("gone")]).expect_err("missing");
        assert!(
            matches!(e, ScenarioError::Multiple(ref v) if v.len() == 2),
            "{e:?}"
        );
    }

    #[test]
    fn empty_directory_finds_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(
            discover(&[dir.path().to_path_buf()])
                .expect("discover")
                .is_empty()
        );
    }

    #[test]
    fn load_parses_files_with_relative_paths() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        touch(root, "scenarios/todo.steps", "  open the app\n");
        touch(root, "scenarios/sub/x.steps", "test: one\n  a\n");
        let scenarios = load(root, &[root.join("scenarios")]).expect("load");
        let names: Vec<_> = scenarios
            .iter()
            .map(|s| (s.rel_path.as_str(), s.tests[0].name.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("scenarios/sub/x.steps", "one"),
                ("scenarios/todo.steps", "todo")
            ]
        );
        assert_eq!(scenarios[1].path, root.join("scenarios/todo.steps"));
    }

    #[test]
    fn load_keeps_the_full_path_of_files_outside_the_root() {
        let outside = tempfile::tempdir().expect("tempdir");
        let project = tempfile::tempdir().expect("tempdir");
        let file = touch(outside.path(), "far.steps", "  step\n");
        let scenarios = load(project.path(), std::slice::from_ref(&file)).expect("load");
        assert_eq!(
            scenarios[0].rel_path,
            file.to_string_lossy().replace('\\', "/")
        );
    }

    #[test]
    fn load_reports_errors_of_every_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        touch(root, "s/a.steps", "test: a\n");
        touch(
            root,
            "s/b.steps",
            "test: b\n  x [retries=2]\ntest: b\n  y\n",
        );
        touch(root, "s/c.steps", "  fine\n");
        let e = load(root, &[root.join("s")]).expect_err("errors");
        let ScenarioError::Multiple(errors) = &e else {
            panic!("expected several errors, got {e:?}");
        };
        let files: Vec<_> = errors
            .iter()
            .map(|e| match e {
                ScenarioError::Parse { file, line, .. } => format!("{file}:{line}"),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(files, ["s/a.steps:1", "s/b.steps:2", "s/b.steps:3"]);
        assert!(
            e.to_string()
                .starts_with("3 errors in scenario files:\n\ns/a.steps:1:1: ")
        );
    }

    /// `load` run in a thread, so that a read that never ends fails the test instead of hanging.
    fn load_within_30s(root: &Path, path: &Path) -> Result<Vec<Scenario>, ScenarioError> {
        let (root, path) = (root.to_path_buf(), path.to_path_buf());
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(load(&root, &[path])));
        rx.recv_timeout(std::time::Duration::from_secs(30))
            .expect("load returned within 30 s")
    }

    /// The error shown for `path`, with its cause.
    fn read_error(root: &Path, path: &Path) -> String {
        let e = load_within_30s(root, path).expect_err("refused");
        let ScenarioError::Io {
            path: named,
            source,
        } = &e
        else {
            panic!("expected a read error, got {e:?}");
        };
        assert_eq!(named, path);
        format!("{e}: {source}")
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_to_dev_zero_is_refused_without_reading() {
        let dir = tempfile::tempdir().expect("tempdir");
        let link = dir.path().join("zero.steps");
        std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
        assert_eq!(
            read_error(dir.path(), &link),
            format!(
                "cannot read `{}`: it is a character device, not a regular file: `.steps` files \
                 must be regular files (or symbolic links to them)",
                link.display()
            )
        );
        // Found by walking a directory too.
        let e = load_within_30s(dir.path(), dir.path()).expect_err("refused");
        assert!(matches!(e, ScenarioError::Io { .. }), "{e:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("pipe.steps");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("run mkfifo");
        assert!(status.success());
        let shown = read_error(dir.path(), &fifo);
        assert!(
            shown.contains("it is a FIFO (named pipe), not a regular file"),
            "{shown}"
        );
    }

    #[test]
    fn a_file_over_10_mib_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let big = dir.path().join("big.steps");
        let file = fs::File::create(&big).expect("create");
        file.set_len(11 * 1024 * 1024).expect("grow");
        assert_eq!(
            read_error(dir.path(), &big),
            format!(
                "cannot read `{}`: it is 11534336 bytes, over the limit of 10485760 bytes \
                 (10 MiB) for `.steps` files: make it smaller or split it",
                big.display()
            )
        );
        // A file of exactly the limit is read (parsing 10 MiB is slow in a debug build: read only).
        file.set_len(MAX_SCENARIO_BYTES).expect("shrink");
        let bytes = read_regular(&big, MAX_SCENARIO_BYTES, "`.steps` files").expect("read");
        assert_eq!(bytes.len() as u64, MAX_SCENARIO_BYTES);
    }

    #[test]
    fn normalize_is_lexical() {
        assert_eq!(normalize(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert_eq!(normalize(Path::new("/../a")), PathBuf::from("/a"));
        assert_eq!(normalize(Path::new("../a/..")), PathBuf::from(".."));
    }
}
