//! Locating the pieces a run needs before anything starts: the Playwright driver (Node.js and
//! `playwright-core`'s `cli.js`, at the version playwright-rs speaks) and the browser's executable.
//!
//! Nothing here downloads anything: a missing piece is reported with the command that installs it.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::config::BrowserName;
use crate::driver::{DRIVER_VERSION, DriverError};

/// The command that installs the driver (and, as root with `--with-deps`, Node.js and npm).
const SETUP_HINT: &str = "run `prettyplay install` (it installs the pinned driver with npm; \
`prettyplay install --with-deps` as root also installs Chromium, Node.js and npm with apt-get)";

/// Where the driver lives: a Node.js executable and playwright-core's `cli.js`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DriverPaths {
    pub node: PathBuf,
    pub cli_js: PathBuf,
}

/// The directory `prettyplay install` installs the driver into:
/// `$PRETTYPLAY_DRIVER_DIR`, else `$XDG_CACHE_HOME/prettyplay/driver/<version>`, else
/// `$HOME/.cache/prettyplay/driver/<version>`.
pub(crate) fn default_driver_dir(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let non_empty = |name: &str| env(name).filter(|v| !v.is_empty());
    if let Some(dir) = non_empty("PRETTYPLAY_DRIVER_DIR") {
        return Some(PathBuf::from(dir));
    }
    let cache = non_empty("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| non_empty("HOME").map(|home| Path::new(&home).join(".cache")))?;
    Some(cache.join("prettyplay").join("driver").join(DRIVER_VERSION))
}

/// The Node.js that `prettyplay install` puts in the driver directory for `arch` when the
/// system's is older than the driver needs.
pub(crate) fn private_node_path(driver_dir: &Path, arch: &str) -> PathBuf {
    driver_dir
        .join("node/node_modules")
        .join(format!("node-linux-{arch}"))
        .join("bin/node")
}

/// `x64` or `arm64`: the machines the npm registry has a Linux Node.js build for.
pub(crate) fn node_arch() -> Option<&'static str> {
    match std::env::consts::ARCH {
        "x86_64" => Some("x64"),
        "aarch64" => Some("arm64"),
        _ => None,
    }
}

/// Finds the driver: `PLAYWRIGHT_NODE_EXE` / `PLAYWRIGHT_CLI_JS` when set, else the directory
/// `prettyplay install` installs into, with the Node.js it installed there (only when the
/// system's was too old) or else `node` from `PATH`.
pub(crate) fn find_driver(
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<DriverPaths, DriverError> {
    let non_empty = |name: &str| env(name).filter(|v| !v.is_empty());
    let cli_js = match non_empty("PLAYWRIGHT_CLI_JS") {
        Some(path) => {
            let path = PathBuf::from(path);
            if !path.is_file() {
                return Err(DriverError::Missing {
                    what: format!(
                        "the Playwright driver: PLAYWRIGHT_CLI_JS points to {}, which does not exist",
                        path.display()
                    ),
                    hint: SETUP_HINT.to_owned(),
                });
            }
            path
        }
        None => {
            let dir = default_driver_dir(env);
            let candidate = dir
                .as_ref()
                .map(|dir| dir.join("node_modules/playwright-core/cli.js"));
            match candidate {
                Some(path) if path.is_file() => path,
                _ => {
                    let looked = candidate
                        .map(|p| format!(" (looked for {})", p.display()))
                        .unwrap_or_default();
                    return Err(DriverError::Missing {
                        what: format!(
                            "the Playwright driver, playwright-core {DRIVER_VERSION}{looked}"
                        ),
                        hint: format!(
                            "{SETUP_HINT}, or set PLAYWRIGHT_CLI_JS and PLAYWRIGHT_NODE_EXE"
                        ),
                    });
                }
            }
        }
    };
    let node = match non_empty("PLAYWRIGHT_NODE_EXE") {
        Some(node) => {
            let path = PathBuf::from(&node);
            if path.components().count() > 1 && !path.is_file() {
                return Err(DriverError::Missing {
                    what: format!(
                        "Node.js: PLAYWRIGHT_NODE_EXE points to {node}, which does not exist"
                    ),
                    hint: SETUP_HINT.to_owned(),
                });
            }
            search_path(&node, env).unwrap_or(path)
        }
        None => private_node(env)
            .or_else(|| search_path("node", env))
            .ok_or_else(|| {
                DriverError::Missing {
            what: "Node.js (`node` is not on PATH); the Playwright driver runs on it".to_owned(),
            hint: "run `prettyplay install --with-deps driver` as root (apt-get install nodejs npm)"
                .to_owned(),
        }
            })?,
    };
    Ok(DriverPaths { node, cli_js })
}

/// The executables looked for on `PATH` for a browser without `[browser] executable`, in order,
/// with the Debian package that installs the first.
fn candidates(name: BrowserName) -> (&'static [&'static str], &'static str) {
    match name {
        BrowserName::Firefox => (&["firefox-esr", "firefox"], "firefox-esr"),
        _ => (
            &[
                "chromium",
                "chromium-browser",
                "google-chrome",
                "google-chrome-stable",
            ],
            "chromium",
        ),
    }
}

/// Returns the executable of the browser `name` to launch: `configured` (a path, or a bare name
/// looked up on `PATH`) when set, else the first of the browser's usual names on `PATH`.
/// `place` says where the configured executable was set (`` `--executable` ``), for the error
/// when it does not exist.
pub(crate) fn find_browser(
    name: BrowserName,
    configured: Option<&Path>,
    place: &dyn fmt::Display,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<PathBuf, DriverError> {
    let title = browser_title(name);
    let (names, package) = candidates(name);
    if let Some(path) = configured {
        if path.is_file() {
            return Ok(path.to_owned());
        }
        if let Some(found) = path.to_str().and_then(|name| search_path(name, env)) {
            return Ok(found);
        }
        return Err(DriverError::Missing {
            what: format!(
                "{title}: {place} is {}, which does not exist",
                path.display()
            ),
            hint: format!(
                "fix {place}, or leave it out to use `{}` from PATH",
                names[0]
            ),
        });
    }
    names
        .iter()
        .find_map(|name| search_path(name, env))
        .ok_or_else(|| DriverError::Missing {
            what: format!("{title} (none of {} is on PATH)", names.join(", ")),
            hint: format!(
                "run `prettyplay install --with-deps {}` as root (apt-get install {package})",
                name.as_str()
            ),
        })
}

/// The name of the browser `name` in messages.
pub(crate) fn browser_title(name: BrowserName) -> &'static str {
    match name {
        BrowserName::Chromium => "Chromium",
        BrowserName::Firefox => "Firefox",
        BrowserName::Webkit => "WebKit",
    }
}

/// The Node.js `prettyplay install` put in the driver directory, if it did.
fn private_node(env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let dir = default_driver_dir(env)?;
    node_arch()
        .map(|arch| private_node_path(&dir, arch))
        .filter(|path| path.is_file())
}

/// Resolves a bare command name against `PATH`; a name with a directory is returned if it exists.
fn search_path(name: &str, env: &dyn Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let candidate = Path::new(name);
    if candidate.components().count() > 1 {
        return candidate.is_file().then(|| candidate.to_owned());
    }
    let path = env("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|full| full.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_env::env_of;

    #[test]
    fn driver_dir_prefers_explicit_then_xdg_then_home() {
        let env = env_of(&[("PRETTYPLAY_DRIVER_DIR", "/d"), ("HOME", "/h")]);
        assert_eq!(default_driver_dir(&env), Some(PathBuf::from("/d")));
        let env = env_of(&[("XDG_CACHE_HOME", "/x"), ("HOME", "/h")]);
        assert_eq!(
            default_driver_dir(&env),
            Some(PathBuf::from("/x/prettyplay/driver").join(DRIVER_VERSION))
        );
        let env = env_of(&[("HOME", "/h")]);
        assert_eq!(
            default_driver_dir(&env),
            Some(PathBuf::from("/h/.cache/prettyplay/driver").join(DRIVER_VERSION))
        );
    }

    #[test]
    fn missing_driver_names_what_and_how() {
        let dir = tempfile::tempdir().unwrap();
        let env = env_of(&[("PRETTYPLAY_DRIVER_DIR", dir.path().to_str().unwrap())]);
        let err = find_driver(&env).unwrap_err();
        assert!(err.to_string().contains("playwright-core 1.64.0"), "{err}");
        assert!(
            err.hint().unwrap().contains("prettyplay install"),
            "{err:?}"
        );
    }

    #[test]
    fn driver_found_in_setup_dir_with_node_on_path() {
        let dir = tempfile::tempdir().unwrap();
        let cli = dir.path().join("node_modules/playwright-core/cli.js");
        std::fs::create_dir_all(cli.parent().unwrap()).unwrap();
        std::fs::write(&cli, "").unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(bin.join("node"), "").unwrap();
        let env = env_of(&[
            ("PRETTYPLAY_DRIVER_DIR", dir.path().to_str().unwrap()),
            ("PATH", bin.to_str().unwrap()),
        ]);
        let found = find_driver(&env).unwrap();
        assert_eq!(found.cli_js, cli);
        assert_eq!(found.node, bin.join("node"));
    }

    #[test]
    fn missing_chromium_names_install_command() {
        let env = env_of(&[("PATH", "/nonexistent")]);
        let err = find_browser(BrowserName::Chromium, None, &"", &env).unwrap_err();
        assert!(
            err.hint()
                .unwrap()
                .contains("prettyplay install --with-deps chromium"),
            "{err:?}"
        );
        let err = find_browser(
            BrowserName::Chromium,
            Some(Path::new("/no/such/chrome")),
            &"`--executable`",
            &env,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "missing Chromium: `--executable` is /no/such/chrome, which does not exist"
        );
        assert_eq!(
            err.hint().unwrap(),
            "fix `--executable`, or leave it out to use `chromium` from PATH"
        );
    }

    #[test]
    fn firefox_is_firefox_esr_then_firefox_and_a_missing_one_names_the_apt_package() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("firefox"), "").unwrap();
        let env = env_of(&[("PATH", dir.path().to_str().unwrap())]);
        let found = find_browser(BrowserName::Firefox, None, &"", &env).unwrap();
        assert_eq!(found, dir.path().join("firefox"));
        std::fs::write(dir.path().join("firefox-esr"), "").unwrap();
        let found = find_browser(BrowserName::Firefox, None, &"", &env).unwrap();
        assert_eq!(found, dir.path().join("firefox-esr"));
        let env = env_of(&[("PATH", "/nonexistent")]);
        let err = find_browser(BrowserName::Firefox, None, &"", &env).unwrap_err();
        assert_eq!(
            err.to_string(),
            "missing Firefox (none of firefox-esr, firefox is on PATH)"
        );
        assert_eq!(
            err.hint().unwrap(),
            "run `prettyplay install --with-deps firefox` as root (apt-get install firefox-esr)"
        );
    }
}
