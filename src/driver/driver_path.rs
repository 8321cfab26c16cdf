//! Spares the driver search playwright-rs makes before it starts the driver.
//!
//! With `PLAYWRIGHT_NODE_EXE` and `PLAYWRIGHT_CLI_JS` both set, playwright-rs 0.20 still looks for
//! a driver directory first — `PLAYWRIGHT_DRIVER_PATH`, its bundled and cached copies, then
//! `npm root -g` and `npm root` — and only then lets the two overrides win. The two `npm` runs
//! cost about 0.5 s of every cold start on a 2-core machine (each starts Node.js and npm), for an
//! answer that is thrown away. A `PLAYWRIGHT_DRIVER_PATH` directory holding `node` and
//! `package/cli.js` ends the search at its first step. Ours holds links to the very driver the
//! overrides name, so whichever of the two playwright-rs took, it would run the same driver.
//!
//! Main functions: [`driver_path_for`] (whether to set one) and [`driver_path_dir`]; also
//! [`compile_cache_for`], the other variable that makes the driver start sooner.

use std::io;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use crate::driver::DriverPaths;

/// The `PLAYWRIGHT_DRIVER_PATH` to set for `driver`, read from `env`: none when the user set
/// one (theirs is kept), or when there is no cache directory (`$XDG_CACHE_HOME`, else
/// `$HOME/.cache`) to keep the links in, or it cannot be written (playwright-rs then searches
/// for the driver itself, as before: slower, never wrong).
pub(super) fn driver_path_for(
    env: &dyn Fn(&str) -> Option<String>,
    driver: &DriverPaths,
) -> Option<PathBuf> {
    if non_empty(env, "PLAYWRIGHT_DRIVER_PATH").is_some() {
        return None;
    }
    let cache = user_cache(env)?;
    match driver_path_dir(&cache, driver) {
        Ok(dir) => Some(dir),
        Err(err) => {
            tracing::debug!(
                "no PLAYWRIGHT_DRIVER_PATH under {} ({err}): playwright-rs searches for the \
                 driver itself",
                cache.display()
            );
            None
        }
    }
}

/// The `NODE_COMPILE_CACHE` to set for the driver, read from `env`: none when the user set one
/// or turned the cache off (`NODE_DISABLE_COMPILE_CACHE`), or when there is no cache directory.
///
/// Node.js 22.1 and later then keep the code they compile for playwright-core's bundles there
/// and load it on the next start instead of compiling again: the driver is ready about 0.2 s
/// sooner (docs/benchmarks.md). Node.js makes the directory, checks every entry against the
/// source it was made from (an entry of another version or a torn write is compiled again),
/// and skips the cache when it cannot write it. Earlier versions ignore the variable.
pub(super) fn compile_cache_for(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if non_empty(env, "NODE_COMPILE_CACHE").is_some()
        || non_empty(env, "NODE_DISABLE_COMPILE_CACHE").is_some()
    {
        return None;
    }
    Some(
        user_cache(env)?
            .join("prettyplay")
            .join("node-compile-cache"),
    )
}

/// The user's cache directory: `$XDG_CACHE_HOME`, else `$HOME/.cache`.
fn user_cache(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    non_empty(env, "XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| non_empty(env, "HOME").map(|home| Path::new(&home).join(".cache")))
}

fn non_empty(env: &dyn Fn(&str) -> Option<String>, name: &str) -> Option<String> {
    env(name).filter(|v| !v.is_empty())
}

/// The directory of links to `driver` under `cache` (the user's cache directory), made when
/// missing: `<cache>/prettyplay/driver-path/<key>/node` and `.../package/cli.js`, `<key>` naming
/// the driver's two paths. The links name the paths as the overrides do (made absolute, not
/// resolved), so they stay right as long as the overrides do. Concurrent runs make it at most
/// once each and agree on it; a directory that is not right (a link gone) is replaced.
pub(super) fn driver_path_dir(cache: &Path, driver: &DriverPaths) -> io::Result<PathBuf> {
    let node = std::path::absolute(&driver.node)?;
    let cli_js = std::path::absolute(&driver.cli_js)?;
    for path in [&node, &cli_js] {
        if !path.exists() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("{} does not exist", path.display()),
            ));
        }
    }
    let root = cache.join("prettyplay").join("driver-path");
    let dir = root.join(key(&node, &cli_js));
    if links_to(&dir, &node, &cli_js) {
        return Ok(dir);
    }
    std::fs::create_dir_all(&root)?;
    if dir.exists() {
        // Not right: moved aside (atomically) and removed, links only, never what they name.
        let aside = tempfile::Builder::new()
            .prefix(".broken-")
            .tempdir_in(&root)?;
        // Fails only when another run moved it first: either way it is out of the way.
        let _ = std::fs::rename(&dir, aside.path().join("dir"));
    }
    // Made whole under a name of its own, then renamed into place: a run never sees half of it.
    let staging = tempfile::Builder::new()
        .prefix(".staging-")
        .tempdir_in(&root)?;
    std::fs::create_dir(staging.path().join("package"))?;
    symlink(&node, staging.path().join("node"))?;
    symlink(&cli_js, staging.path().join("package").join("cli.js"))?;
    match std::fs::rename(staging.path(), &dir) {
        Ok(()) => {
            // Renamed away: there is nothing left for the guard to remove.
            let _ = staging.keep();
            Ok(dir)
        }
        // Another run made it first (renaming onto a non-empty directory fails).
        Err(_) if links_to(&dir, &node, &cli_js) => Ok(dir),
        Err(err) => Err(err),
    }
}

/// Whether `dir` holds the two links, to `node` and `cli_js`.
fn links_to(dir: &Path, node: &Path, cli_js: &Path) -> bool {
    let target = |link: PathBuf| std::fs::read_link(link).ok();
    target(dir.join("node")).as_deref() == Some(node)
        && target(dir.join("package").join("cli.js")).as_deref() == Some(cli_js)
}

/// A file name for the pair: FNV-1a of both paths, in hex (stable across builds, unlike std's
/// hasher).
fn key(node: &Path, cli_js: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let bytes = node
        .as_os_str()
        .as_bytes()
        .iter()
        .chain(&[0])
        .chain(cli_js.as_os_str().as_bytes());
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_env::env_of;

    #[test]
    fn a_broken_directory_is_replaced() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = driver(tmp.path(), "a");
        let cache = tmp.path().join("cache");
        let dir = driver_path_dir(&cache, &paths).unwrap();
        std::fs::remove_file(dir.join("package/cli.js")).unwrap();
        assert_eq!(driver_path_dir(&cache, &paths).unwrap(), dir);
        assert_eq!(
            std::fs::read_link(dir.join("package/cli.js")).unwrap(),
            paths.cli_js
        );
        assert!(paths.cli_js.exists(), "the driver itself is untouched");
        assert_eq!(names_in(&cache), [dir.file_name().unwrap().to_owned()]);
    }

    #[test]
    fn a_driver_path_of_the_users_own_is_kept_and_no_cache_means_none() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = driver(tmp.path(), "a");
        let cache = tmp.path().join("cache").display().to_string();
        let theirs = env_of(&[
            ("PLAYWRIGHT_DRIVER_PATH", "/opt/driver"),
            ("XDG_CACHE_HOME", &cache),
        ]);
        assert_eq!(driver_path_for(&theirs, &paths), None);
        let ours = env_of(&[("XDG_CACHE_HOME", &cache)]);
        let dir = driver_path_for(&ours, &paths).unwrap();
        assert!(dir.starts_with(&cache), "{}", dir.display());
        let nowhere = |_: &str| None;
        assert_eq!(driver_path_for(&nowhere, &paths), None);
        // A cache that cannot be written: none, and no error.
        let file = tmp.path().join("a-file");
        std::fs::write(&file, "").unwrap();
        let unwritable = env_of(&[("XDG_CACHE_HOME", &file.display().to_string())]);
        assert_eq!(driver_path_for(&unwritable, &paths), None);
    }

    #[test]
    fn the_compile_cache_goes_under_the_users_cache_unless_they_chose() {
        assert_eq!(
            compile_cache_for(&env_of(&[("HOME", "/home/u")])),
            Some(PathBuf::from(
                "/home/u/.cache/prettyplay/node-compile-cache"
            ))
        );
        assert_eq!(
            compile_cache_for(&env_of(&[("HOME", "/home/u"), ("XDG_CACHE_HOME", "/c")])),
            Some(PathBuf::from("/c/prettyplay/node-compile-cache"))
        );
        for theirs in [
            &[("HOME", "/home/u"), ("NODE_COMPILE_CACHE", "/theirs")][..],
            &[("HOME", "/home/u"), ("NODE_DISABLE_COMPILE_CACHE", "1")][..],
            &[("HOME", "")][..],
            &[][..],
        ] {
            assert_eq!(compile_cache_for(&env_of(theirs)), None, "{theirs:?}");
        }
    }

    /// What the driver-path directory under `cache` holds, by name.
    fn names_in(cache: &Path) -> Vec<std::ffi::OsString> {
        std::fs::read_dir(cache.join("prettyplay/driver-path"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect()
    }

    fn driver(dir: &Path, name: &str) -> DriverPaths {
        let base = dir.join(name);
        std::fs::create_dir_all(base.join("node_modules/playwright-core")).unwrap();
        std::fs::write(base.join("node"), "").unwrap();
        std::fs::write(base.join("node_modules/playwright-core/cli.js"), "").unwrap();
        DriverPaths {
            node: base.join("node"),
            cli_js: base.join("node_modules/playwright-core/cli.js"),
        }
    }

    #[test]
    fn the_directory_links_the_drivers_node_and_cli_js_where_playwright_rs_looks() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = driver(tmp.path(), "a");
        let cache = tmp.path().join("cache");
        let dir = driver_path_dir(&cache, &paths).unwrap();
        assert!(dir.starts_with(cache.join("prettyplay/driver-path")));
        assert_eq!(std::fs::read_link(dir.join("node")).unwrap(), paths.node);
        assert_eq!(
            std::fs::read_link(dir.join("package/cli.js")).unwrap(),
            paths.cli_js
        );
        // Made once; the next run finds it, and nothing is left staged.
        assert_eq!(driver_path_dir(&cache, &paths).unwrap(), dir);
        assert_eq!(names_in(&cache), [dir.file_name().unwrap().to_owned()]);
    }

    #[test]
    fn another_driver_gets_its_own_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = tmp.path().join("cache");
        let a = driver_path_dir(&cache, &driver(tmp.path(), "a")).unwrap();
        let b = driver_path_dir(&cache, &driver(tmp.path(), "b")).unwrap();
        assert_ne!(a, b);
    }

    #[test]
    fn concurrent_runs_agree_on_one_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = driver(tmp.path(), "a");
        let cache = tmp.path().join("cache");
        let made: Vec<PathBuf> = std::thread::scope(|scope| {
            let runs: Vec<_> = (0..8)
                .map(|_| scope.spawn(|| driver_path_dir(&cache, &paths).unwrap()))
                .collect();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        assert!(made.iter().all(|dir| *dir == made[0]), "{made:?}");
        assert_eq!(
            std::fs::read_dir(cache.join("prettyplay/driver-path"))
                .unwrap()
                .count(),
            1,
            "no staging directory is left behind"
        );
    }

    #[test]
    fn a_missing_driver_is_an_error_and_makes_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = DriverPaths {
            node: tmp.path().join("no-node"),
            cli_js: tmp.path().join("no-cli.js"),
        };
        assert!(driver_path_dir(&tmp.path().join("cache"), &paths).is_err());
        assert!(!tmp.path().join("cache").exists());
    }
}
