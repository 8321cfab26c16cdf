//! Pruning: removing cache entries and files whose step, test or scenario no longer exists.
//!
//! Main function: [`prune`], which returns one [`Removal`] per removed file or entry. Every file is
//! read and checked before anything is touched, so a malformed file stops the prune with nothing
//! changed.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use super::StepKey;
use super::baselines::{SNAPSHOTS_SUFFIX, slug};
use super::cache::remove_file;
use super::cache_error::io_error;
use super::{Cache, CacheError, CacheFile};
use crate::scenario::Scenario;

/// One thing [`prune`] removed (or, in a dry run, would remove).
///
/// Displays as one line, `removed cache/scenarios/old.steps.toml (scenario gone)` or
/// `removed "add a todo" › "open the app" #1 from cache/scenarios/todo.steps.toml (step gone)`;
/// the alternate form (`{:#}`) says `would remove` instead, for dry runs.
#[derive(Debug, Clone, PartialEq, Eq)]
#[expect(
    clippy::enum_variant_names,
    reason = "each variant names what is gone, which is why the entry is removed"
)]
pub(crate) enum Removal {
    /// A whole cache file: its scenario is gone.
    ScenarioGone {
        /// The cache file, relative to the project root when it is inside it.
        file: PathBuf,
        scenario: String,
    },
    /// An entry whose test is gone.
    TestGone { file: PathBuf, key: StepKey },
    /// An entry whose test exists but no longer has this step (sentence and occurrence), or a
    /// `background:` step the file's background no longer has.
    StepGone { file: PathBuf, key: StepKey },
    /// A screenshot baseline that no step of its scenario can have taken: its test or step is
    /// gone, or the whole scenario is.
    BaselineGone { file: PathBuf },
}

impl fmt::Display for Removal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = if f.alternate() {
            "would remove"
        } else {
            "removed"
        };
        match self {
            Self::ScenarioGone { file, .. } => {
                write!(f, "{verb} {} (scenario gone)", file.display())
            }
            Self::TestGone { file, key } => {
                write!(f, "{verb} {key} from {} (test gone)", file.display())
            }
            Self::StepGone { file, key } => {
                write!(f, "{verb} {key} from {} (step gone)", file.display())
            }
            Self::BaselineGone { file } => {
                write!(
                    f,
                    "{verb} {} (screenshot baseline of a gone step)",
                    file.display()
                )
            }
        }
    }
}

impl Removal {
    /// What is stale, without a verb: `"add a todo" › "open the app" #1 in
    /// cache/scenarios/todo.steps.toml (step gone)`.
    pub(crate) fn what(&self) -> String {
        match self {
            Self::ScenarioGone { file, .. } => format!("{} (scenario gone)", file.display()),
            Self::TestGone { file, key } => format!("{key} in {} (test gone)", file.display()),
            Self::StepGone { file, key } => format!("{key} in {} (step gone)", file.display()),
            Self::BaselineGone { file } => {
                format!("{} (screenshot baseline of a gone step)", file.display())
            }
        }
    }
}

/// What to do with one cache file.
enum Plan {
    Delete,
    /// The file with fewer entries, and the text it was read from.
    Rewrite(CacheFile, String),
}

/// Removes cache entries whose step (test, sentence and occurrence) no longer exists in its
/// scenario, and cache files whose scenario is gone; a file left without entries is deleted too.
///
/// `scenarios` are all the scenarios of the project. A cache file's scenario is gone when it is not
/// among them and no file exists at its path under `project_root` (a scenario that exists but was
/// not passed is left alone). With `dry_run`, nothing is touched and the same list is returned.
/// Works under the cache lock; rewrites are atomic. A malformed cache file is an error, and then
/// nothing at all is removed.
pub(crate) fn prune(
    cache: &Cache,
    project_root: &Path,
    scenarios: &[Scenario],
    dry_run: bool,
) -> Result<Vec<Removal>, CacheError> {
    if !cache.dir().is_dir() {
        return Ok(Vec::new());
    }
    let _lock = if dry_run { None } else { Some(cache.lock()?) };
    let by_rel: HashMap<&str, &Scenario> =
        scenarios.iter().map(|s| (s.rel_path.as_str(), s)).collect();

    let mut removals = Vec::new();
    let mut plans = Vec::new();
    for (path, rel) in cache_files(cache.dir())? {
        let Some((text, mut file)) = cache.read(&rel)? else {
            continue;
        };
        let shown = path.strip_prefix(project_root).unwrap_or(&path).to_owned();
        let Some(scenario) = by_rel.get(rel.as_str()) else {
            if !project_root.join(&rel).exists() {
                removals.push(Removal::ScenarioGone {
                    file: shown,
                    scenario: rel,
                });
                plans.push((path, Plan::Delete));
            }
            continue;
        };
        let tests: HashSet<&str> = scenario.tests.iter().map(|test| test.identity()).collect();
        let keys: HashSet<StepKey> = StepKey::all_of(scenario).collect();
        let before = file.steps.len();
        file.steps.retain(|entry| {
            let key = entry.key(&rel);
            if keys.contains(&key) {
                return true;
            }
            // A background step is gone when the file's background no longer has it.
            removals.push(
                if entry
                    .test
                    .as_deref()
                    .is_none_or(|test| tests.contains(test))
                {
                    Removal::StepGone {
                        file: shown.clone(),
                        key,
                    }
                } else {
                    Removal::TestGone {
                        file: shown.clone(),
                        key,
                    }
                },
            );
            false
        });
        if file.steps.is_empty() && before > 0 {
            plans.push((path, Plan::Delete));
        } else if file.steps.len() < before {
            plans.push((path, Plan::Rewrite(file, text)));
        }
    }
    for path in orphaned_baselines(cache.dir(), project_root, &by_rel)? {
        let shown = path.strip_prefix(project_root).unwrap_or(&path).to_owned();
        removals.push(Removal::BaselineGone { file: shown });
        plans.push((path, Plan::Delete));
    }

    if !dry_run {
        for (path, plan) in plans {
            match plan {
                Plan::Delete => remove_file(&path)?,
                Plan::Rewrite(file, text) => cache.write(&file, Some(&text))?,
            }
        }
    }
    Ok(removals)
}

/// The screenshot baselines under the cache directory `dir` that no step can have taken: those
/// of a scenario that is gone (as for its cache file), and those of a scenario that exists
/// whose name does not begin with one of its tests and one of that test's step indices
/// (`<test>-<step>-`, [`BaselineName`](super::BaselineName)). The test is a name the baseline
/// only begins with, so a baseline that two readings fit is kept, never removed by mistake.
fn orphaned_baselines(
    dir: &Path,
    project_root: &Path,
    by_rel: &HashMap<&str, &Scenario>,
) -> Result<Vec<PathBuf>, CacheError> {
    let mut orphans = Vec::new();
    for (baselines, rel) in baseline_dirs(dir)? {
        let prefixes: Option<Vec<String>> = match by_rel.get(rel.as_str()) {
            Some(scenario) => Some(
                scenario
                    .tests
                    .iter()
                    .flat_map(|test| {
                        let name = slug(&test.name);
                        let steps = scenario.background.len() + test.steps.len();
                        (1..=steps).map(move |step| format!("{name}-{step}-"))
                    })
                    .collect(),
            ),
            None if project_root.join(&rel).exists() => continue,
            None => None,
        };
        let entries = std::fs::read_dir(&baselines).map_err(io_error("list", &baselines))?;
        let mut files = Vec::new();
        for entry in entries {
            let entry = entry.map_err(io_error("list", &baselines))?;
            let path = entry.path();
            let is_png = path.extension() == Some(std::ffi::OsStr::new("png"));
            if !is_png || !entry.file_type().is_ok_and(|kind| kind.is_file()) {
                continue;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            let live = prefixes
                .as_ref()
                .is_some_and(|prefixes| prefixes.iter().any(|p| name.starts_with(p.as_str())));
            if !live {
                files.push(path);
            }
        }
        files.sort();
        orphans.extend(files);
    }
    Ok(orphans)
}

/// A failed step of a walk of `dir`, as the cache's error.
fn walk_error(dir: &Path, error: walkdir::Error) -> CacheError {
    let path = error.path().unwrap_or(dir).to_owned();
    let source = error
        .into_io_error()
        .unwrap_or_else(|| std::io::Error::other("filesystem loop"));
    CacheError::Io {
        action: "walk",
        path,
        source,
    }
}

/// `path` relative to `dir`, joined with `/`, or `None` outside `dir` or for a non-UTF-8 name.
fn relative_path(dir: &Path, path: &Path) -> Option<String> {
    let parts: Option<Vec<&str>> = path
        .strip_prefix(dir)
        .ok()?
        .components()
        .map(|part| part.as_os_str().to_str())
        .collect();
    parts.map(|parts| parts.join("/"))
}

/// The baseline directories under `dir` (`<scenario file>-snapshots`), sorted, with their
/// scenario's relative path.
fn baseline_dirs(dir: &Path) -> Result<Vec<(PathBuf, String)>, CacheError> {
    let mut dirs = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(|error| walk_error(dir, error))?;
        if !entry.file_type().is_dir() {
            continue;
        }
        let Some(rel) = relative_path(dir, entry.path())
            .and_then(|rel| rel.strip_suffix(SNAPSHOTS_SUFFIX).map(str::to_owned))
            .filter(|rel| !rel.is_empty())
        else {
            continue;
        };
        dirs.push((entry.path().to_owned(), rel));
    }
    Ok(dirs)
}

/// The cache files under `dir`, sorted, with their scenario's relative path: every `*.toml` file,
/// skipping hidden names (the lock file, temporary files) and non-UTF-8 paths.
fn cache_files(dir: &Path) -> Result<Vec<(PathBuf, String)>, CacheError> {
    let hidden = |entry: &walkdir::DirEntry| {
        entry.depth() > 0 && entry.file_name().to_string_lossy().starts_with('.')
    };
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| !hidden(entry))
    {
        let entry = entry.map_err(|error| walk_error(dir, error))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let Some(rel) = relative_path(dir, entry.path()) else {
            tracing::warn!(path = %entry.path().display(), "skipping a cache file with a non-UTF-8 name");
            continue;
        };
        if let Some(rel) = rel.strip_suffix(".toml").filter(|rel| !rel.is_empty()) {
            files.push((entry.into_path(), rel.to_owned()));
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::cache::Baselines;
    use crate::scenario::{Step, Test};

    fn scenario(root: &Path, rel: &str, tests: &[(&str, &[&str])]) -> Scenario {
        Scenario {
            path: root.join(rel),
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
                        .map(|sentence| Step {
                            sentence: (*sentence).to_owned(),
                            line: 2,
                            occurrence: 1,
                            tries: None,
                            optional: false,
                            argument: None,
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    fn put_all(cache: &Cache, scenario: &Scenario) {
        for test in &scenario.tests {
            for step in &test.steps {
                let key = StepKey::of(scenario, test, step);
                cache
                    .put(scenario, &key, &format!("// {key}\n"), "2026-11-30")
                    .unwrap();
            }
        }
    }

    /// Every file under `dir` with its content.
    fn snapshot(dir: &Path) -> Vec<(PathBuf, String)> {
        walkdir::WalkDir::new(dir)
            .sort_by_file_name()
            .into_iter()
            .map(|entry| entry.unwrap())
            .filter(|entry| entry.file_type().is_file())
            .map(|entry| {
                (
                    entry.path().to_owned(),
                    fs::read_to_string(entry.path()).unwrap(),
                )
            })
            .collect()
    }

    struct Project {
        _dir: tempfile::TempDir,
        root: PathBuf,
        cache: Cache,
    }

    /// A project with cache files for `scenarios/todo.steps` (tests "add", "remove") and
    /// `scenarios/old.steps`, whose file is deleted.
    fn project() -> (Project, Scenario) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_owned();
        let cache = Cache::new(root.join("cache"));
        let todo = scenario(
            &root,
            "scenarios/todo.steps",
            &[("add", &["open", "type"]), ("remove", &["open"])],
        );
        let old = scenario(&root, "scenarios/old.steps", &[("t", &["s"])]);
        put_all(&cache, &todo);
        put_all(&cache, &old);
        (
            Project {
                _dir: dir,
                root,
                cache,
            },
            todo,
        )
    }

    #[test]
    fn removes_the_baselines_of_gone_steps_tests_and_scenarios() {
        let (p, todo) = project();
        let write = |rel: &str, name: &str| {
            let path = Baselines::of(&p.cache, rel).dir().join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, "png").unwrap();
            path
        };
        let kept = [
            write("scenarios/todo.steps", "add-1-chromium.png"),
            write("scenarios/todo.steps", "add-1-header-firefox.png"),
            write("scenarios/todo.steps", "remove-1-2-chromium.png"),
        ];
        let gone = [
            // "add" has two steps, and "renamed" is no test.
            write("scenarios/todo.steps", "add-3-chromium.png"),
            write("scenarios/todo.steps", "renamed-1-chromium.png"),
            write("scenarios/old.steps", "t-1-chromium.png"),
        ];
        // A scenario that exists but was not passed keeps its baselines.
        fs::create_dir_all(p.root.join("scenarios")).unwrap();
        fs::write(p.root.join("scenarios/other.steps"), "test: x\n  y\n").unwrap();
        let other = write("scenarios/other.steps", "gone-1-chromium.png");
        let dry = prune(&p.cache, &p.root, std::slice::from_ref(&todo), true).unwrap();
        assert!(
            gone.iter().chain(&kept).all(|path| path.exists()),
            "a dry run removes nothing"
        );
        let removals = prune(&p.cache, &p.root, &[todo], false).unwrap();
        assert_eq!(dry, removals);
        let lines: Vec<String> = removals
            .iter()
            .filter(|r| matches!(r, Removal::BaselineGone { .. }))
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            lines,
            [
                "removed cache/scenarios/old.steps-snapshots/t-1-chromium.png (screenshot baseline of a gone step)",
                "removed cache/scenarios/todo.steps-snapshots/add-3-chromium.png (screenshot baseline of a gone step)",
                "removed cache/scenarios/todo.steps-snapshots/renamed-1-chromium.png (screenshot baseline of a gone step)",
            ]
        );
        assert!(gone.iter().all(|path| !path.exists()));
        assert!(kept.iter().all(|path| path.exists()));
        assert!(other.exists());
    }

    #[test]
    fn removes_gone_entries_and_files() {
        let (p, mut todo) = project();
        todo.tests.remove(1);
        todo.tests[0].steps.remove(1);
        let removals = prune(&p.cache, &p.root, &[todo.clone()], false).unwrap();
        let lines: Vec<String> = removals.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "removed cache/scenarios/old.steps.toml (scenario gone)",
                r#"removed "add" › "type" #1 from cache/scenarios/todo.steps.toml (step gone)"#,
                r#"removed "remove" › "open" #1 from cache/scenarios/todo.steps.toml (test gone)"#,
            ]
        );
        assert!(!p.cache.file_path("scenarios/old.steps").exists());
        let file = p.cache.load("scenarios/todo.steps").unwrap().unwrap();
        let keys: Vec<String> = file
            .steps
            .iter()
            .map(|entry| entry.key(&file.scenario).to_string())
            .collect();
        assert_eq!(keys, [r#""add" › "open" #1"#]);
        assert_eq!(prune(&p.cache, &p.root, &[todo], false).unwrap(), []);
    }

    #[test]
    fn removing_an_entry_keeps_the_comments_of_the_others() {
        let (p, mut todo) = project();
        let path = p.cache.file_path("scenarios/todo.steps");
        let text = fs::read_to_string(&path).unwrap();
        let commented = format!(
            "# Reviewed.\n{}",
            text.replace("\n[[steps]]\n", "\n# An entry.\n[[steps]] # header\n")
        )
        .replacen("created = ", "created =  ", 1);
        fs::write(&path, &commented).unwrap();
        todo.tests[0].steps.remove(1);
        let removals = prune(&p.cache, &p.root, &[todo], false).unwrap();
        assert_eq!(removals.len(), 2, "{removals:?}");
        let gone = commented
            .find("\n# An entry.\n[[steps]] # header\ntest = \"add\"\nstep = \"type\"")
            .unwrap();
        let next = commented[gone + 1..].find("\n# An entry.").unwrap() + gone + 1;
        let expected = format!("{}{}", &commented[..gone], &commented[next..]);
        assert_eq!(fs::read_to_string(&path).unwrap(), expected);
    }

    #[test]
    fn dry_run_touches_nothing_and_reports_the_same() {
        let (p, mut todo) = project();
        todo.tests.remove(1);
        let before = snapshot(&p.root);
        let dry = prune(&p.cache, &p.root, std::slice::from_ref(&todo), true).unwrap();
        assert_eq!(snapshot(&p.root), before);
        assert_eq!(dry.len(), 2);
        assert_eq!(
            format!("{:#}", dry[0]),
            "would remove cache/scenarios/old.steps.toml (scenario gone)"
        );
        assert_eq!(prune(&p.cache, &p.root, &[todo], false).unwrap(), dry);
    }

    #[test]
    fn a_scenario_on_disk_but_not_listed_is_kept() {
        let (p, todo) = project();
        fs::create_dir_all(p.root.join("scenarios")).unwrap();
        fs::write(p.root.join("scenarios/old.steps"), "t\n  s\n").unwrap();
        assert_eq!(prune(&p.cache, &p.root, &[todo], false).unwrap(), []);
        assert!(p.cache.file_path("scenarios/old.steps").exists());
    }

    #[test]
    fn a_file_left_empty_is_deleted() {
        let (p, mut todo) = project();
        todo.tests.clear();
        let removals = prune(&p.cache, &p.root, &[todo], false).unwrap();
        assert_eq!(removals.len(), 4);
        assert!(!p.cache.file_path("scenarios/todo.steps").exists());
    }

    #[test]
    fn a_malformed_file_stops_the_prune_with_nothing_touched() {
        let (p, _) = project();
        fs::write(
            p.cache.dir().join("broken.toml"),
            "format = 1\nscenario = [\n",
        )
        .unwrap();
        let before = snapshot(&p.root);
        let error = prune(&p.cache, &p.root, &[], false).unwrap_err();
        assert!(error.to_string().contains("broken.toml:2:"), "{error}");
        assert_eq!(snapshot(&p.root), before);
    }

    #[test]
    fn hidden_and_other_files_are_ignored() {
        let (p, todo) = project();
        fs::write(p.cache.dir().join(".a.steps.toml.x1.tmp"), "junk").unwrap();
        fs::write(p.cache.dir().join("README.md"), "notes").unwrap();
        fs::create_dir_all(p.cache.dir().join(".git")).unwrap();
        fs::write(p.cache.dir().join(".git/x.toml"), "junk").unwrap();
        fs::remove_file(p.cache.file_path("scenarios/old.steps")).unwrap();
        assert_eq!(prune(&p.cache, &p.root, &[todo], false).unwrap(), []);
    }

    #[test]
    fn a_missing_cache_dir_is_not_created() {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path().join("cache"));
        assert_eq!(prune(&cache, dir.path(), &[], false).unwrap(), []);
        assert!(!cache.dir().exists());
    }
}
