//! `@playwright/test` at the driver's version and `@axe-core/playwright` (with axe-core) at the
//! version of prettyplay's axe-core, from the npm registry, as the exported package.json pins
//! them, for the tests that run an exported project with `npx playwright test`. They are
//! installed once per machine into the user cache (no browser: the exported config names the
//! Debian Chromium), atomically, so that parallel tests and processes share one copy.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The version the exported package.json pins: the driver's.
pub(crate) const PLAYWRIGHT_TEST_VERSION: &str = "1.64.0";

/// The version of `@axe-core/playwright` and axe-core the exported package.json pins.
pub(crate) const AXE_VERSION: &str = "4.14.1";

/// The `node_modules` holding `@playwright/test`, installing it on first use.
pub(crate) fn playwright_test_modules() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let cache = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache"));
        let dir = cache
            .join("prettyplay/test-deps")
            .join(format!(
                "playwright-test-{PLAYWRIGHT_TEST_VERSION}-axe-{AXE_VERSION}"
            ));
        let modules = dir.join("node_modules");
        let complete = |modules: &Path| {
            modules.join("@playwright/test/cli.js").is_file()
                && modules.join("@axe-core/playwright/package.json").is_file()
        };
        if complete(&modules) {
            return modules;
        }
        let staging = PathBuf::from(format!("{}.staging-{}", dir.display(), std::process::id()));
        fs::create_dir_all(&staging).unwrap();
        fs::write(staging.join("package.json"), "{ \"private\": true }\n").unwrap();
        let status = Command::new("npm")
            .args([
                "install",
                "--no-audit",
                "--no-fund",
                "--save-exact",
                &format!("@playwright/test@{PLAYWRIGHT_TEST_VERSION}"),
                &format!("@axe-core/playwright@{AXE_VERSION}"),
                &format!("axe-core@{AXE_VERSION}"),
            ])
            .current_dir(&staging)
            .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
            .status()
            .expect("run npm");
        assert!(
            status.success(),
            "npm install @playwright/test@{PLAYWRIGHT_TEST_VERSION} @axe-core/playwright@{AXE_VERSION} failed"
        );
        // Another process may have won the race: keep its copy.
        if fs::rename(&staging, &dir).is_err() {
            let _ = fs::remove_dir_all(&staging);
        }
        assert!(complete(&modules));
        modules
    })
}
