//! What an end-to-end test needs on the machine: Chromium and the pinned Playwright driver.
//!
//! Main function: [`require_browser`]. A missing piece fails the test with a message naming
//! `./setup`; browser tests are never skipped silently.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The playwright-core version `./setup` installs and prettyplay drives.
const DRIVER_VERSION: &str = "1.64.0";

/// The oldest Node.js major version that playwright-core 1.64 runs on.
const NODE_MIN_MAJOR: u32 = 20;

/// Panics, naming `./setup`, unless Chromium, Node.js and the Playwright driver can be found the
/// way `prettyplay` finds them.
pub(crate) fn require_browser() {
    let mut missing = Vec::new();
    if find_on_path("chromium").is_none() && !Path::new("/usr/bin/chromium").is_file() {
        missing.push("Chromium (`chromium` on PATH or /usr/bin/chromium)".to_owned());
    }
    let node = env::var_os("PLAYWRIGHT_NODE_EXE")
        .filter(|n| !n.is_empty())
        .map(PathBuf::from)
        .or_else(|| find_on_path("node"));
    match node.filter(|n| n.is_file()) {
        None => missing.push("Node.js (`node` on PATH or PLAYWRIGHT_NODE_EXE)".to_owned()),
        Some(node) => match node_major(&node) {
            Some(major) if major >= NODE_MIN_MAJOR => {}
            found => missing.push(format!(
                "Node.js >= {NODE_MIN_MAJOR} for playwright-core {DRIVER_VERSION} ({} is {})",
                node.display(),
                found.map_or("not runnable".to_owned(), |m| format!("version {m}")),
            )),
        },
    }
    let cli_js = driver_cli_js();
    if !cli_js.is_file() {
        missing.push(format!("the Playwright driver ({})", cli_js.display()));
    }
    assert!(
        missing.is_empty(),
        "end-to-end tests need a browser, and this machine lacks {}.\n\
         Run ./setup (its `prettyplay install --with-deps` installs Chromium, Node.js and \
         playwright-core@{DRIVER_VERSION}), then rerun the tests.",
        missing.join(", "),
    );
}

/// Panics, naming `./setup test`, unless [`require_browser`]'s pieces and Firefox
/// (`firefox-esr` or `firefox` on PATH) can be found.
pub(crate) fn require_firefox() {
    require_browser();
    assert!(
        find_on_path("firefox-esr").is_some() || find_on_path("firefox").is_some(),
        "the Firefox tests need Firefox, and this machine lacks it (`firefox-esr` or `firefox` \
         on PATH).\nRun ./setup test (it installs Debian's firefox-esr as root), or \
         `sudo apt-get install -y firefox-esr`, then rerun the tests."
    );
}

/// `PLAYWRIGHT_CLI_JS`, else `cli.js` under the driver directory `./setup` installs into:
/// `${PRETTYPLAY_DRIVER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/prettyplay/driver/1.64.0}`.
pub(crate) fn driver_cli_js() -> PathBuf {
    if let Some(cli) = env::var_os("PLAYWRIGHT_CLI_JS").filter(|c| !c.is_empty()) {
        return PathBuf::from(cli);
    }
    let dir = env::var_os("PRETTYPLAY_DRIVER_DIR")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let cache = env::var_os("XDG_CACHE_HOME")
                .filter(|d| !d.is_empty())
                .map(PathBuf::from)
                .unwrap_or_else(|| {
                    PathBuf::from(env::var_os("HOME").unwrap_or_default()).join(".cache")
                });
            cache.join("prettyplay").join("driver").join(DRIVER_VERSION)
        });
    dir.join("node_modules")
        .join("playwright-core")
        .join("cli.js")
}

/// The major version of a Node.js executable, or `None` when it does not run.
fn node_major(node: &Path) -> Option<u32> {
    let output = Command::new(node)
        .args(["-p", "process.versions.node"])
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let version = String::from_utf8(output.stdout).ok()?;
    version.trim().split('.').next()?.parse().ok()
}

fn find_on_path(name: &str) -> Option<PathBuf> {
    env::split_paths(&env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}
