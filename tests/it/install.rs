//! `prettyplay install` through the binary: what it would install on a machine with nothing
//! (`--dry-run`, with fake `node` and `npm` on PATH, so nothing is installed), and the real
//! install of the pinned driver from the npm registry into a clean HOME, after which a fresh
//! project replays with it. apt-get never runs here: CI machines get their packages from
//! `./setup`, and the apt decisions are unit-tested with a scripted machine (src/install).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::support::Test;

fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// An executable shell script at `path`.
fn script(path: &Path, body: &str) {
    fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn a_dry_run_on_a_bare_machine_says_what_it_would_install() {
    let test = Test::new();
    let root = test.project_dir().parent().unwrap().to_owned();
    let (home, bin) = (root.join("home"), root.join("bin"));
    fs::create_dir_all(&home).unwrap();
    fs::create_dir_all(&bin).unwrap();
    // Debian 12's Node.js: too old for the driver.
    script(&bin.join("node"), "echo 18.19.0");
    script(&bin.join("npm"), "exit 0");
    let driver_dir = home.join(".cache/prettyplay/driver/1.64.0");
    let out = test
        .env("HOME", home.to_str().unwrap())
        .env("PATH", bin.to_str().unwrap())
        .env_remove("PRETTYPLAY_DRIVER_DIR")
        .env_remove("XDG_CACHE_HOME")
        .args(&["install", "--with-deps", "--dry-run", "chromium"])
        .run();
    let driver = format!(
        "would run  (cd {} && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit \
         --no-fund --save-exact playwright-core@1.64.0)",
        driver_dir.display()
    );
    let node = format!(
        "would run  npm install --prefix {}/node --no-audit --no-fund --no-save node-linux-",
        driver_dir.display()
    );
    let out = out.stdout_contains(&node).stdout_contains(&driver);
    if is_root() {
        out.assert_exit(0).stdout_contains(
            "would run  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium",
        );
    } else {
        out.assert_exit(3)
            .stdout_contains("missing    chromium")
            .stderr_contains("sudo prettyplay install --with-deps chromium");
    }
    assert!(!driver_dir.exists(), "a dry run installs nothing");
}

#[test]
fn a_missing_browser_without_deps_fails_naming_the_command() {
    let test = Test::new();
    let root = test.project_dir().parent().unwrap().to_owned();
    let bin = root.join("bin");
    fs::create_dir_all(&bin).unwrap();
    script(&bin.join("node"), "echo 20.20.2");
    script(&bin.join("npm"), "exit 0");
    test.env("PATH", bin.to_str().unwrap())
        .args(&["install", "--dry-run", "firefox"])
        .run()
        .assert_exit(3)
        .stdout_contains("missing    firefox-esr (no browser is downloaded: it comes from apt)")
        .stderr_contains("prettyplay install --with-deps firefox");
}

/// The real thing: npm installs playwright-core into a clean HOME (npm's own cache is the
/// user's, so a machine that installed it once does not download it again), a second install
/// finds it, and a project made by `prettyplay init` replays with that driver.
#[test]
fn the_driver_installs_into_a_clean_home_once_and_a_fresh_project_replays_with_it() {
    crate::support::require_browser();
    let test = Test::new().no_config();
    let root = test.project_dir().parent().unwrap().to_owned();
    let home = root.join("home");
    fs::create_dir_all(&home).unwrap();
    let npm_cache = std::env::var("npm_config_cache")
        .unwrap_or_else(|_| format!("{}/.npm", std::env::var("HOME").unwrap_or_default()));
    let env = |test: Test| {
        test.env("HOME", home.to_str().unwrap())
            .env("npm_config_cache", &npm_cache)
            .env_remove("PRETTYPLAY_DRIVER_DIR")
            .env_remove("XDG_CACHE_HOME")
            .env_remove("PLAYWRIGHT_CLI_JS")
            .env_remove("PLAYWRIGHT_DRIVER_PATH")
    };
    let driver_dir = home.join(".cache/prettyplay/driver/1.64.0");
    let out = env(test)
        .args(&["install", "driver"])
        .run()
        .assert_exit(0)
        .stdout_contains("installing the Playwright driver, playwright-core@1.64.0 (npm)")
        .stdout_contains(&format!(
            "installed  the Playwright driver: {}",
            driver_dir.display()
        ))
        .stdout_contains(&format!(
            "installed  axe-core: {}",
            driver_dir.join("axe").display()
        ));
    assert!(
        driver_dir
            .join("node_modules/playwright-core/cli.js")
            .is_file()
    );
    let staged: Vec<_> = fs::read_dir(&driver_dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".staging"))
        .collect();
    assert!(staged.is_empty(), "the staging directory is removed");
    let out = env(out.again())
        .args(&["install", "driver"])
        .run()
        .assert_exit(0)
        .stdout_contains(&format!(
            "found      the Playwright driver (playwright-core 1.64.0): {}",
            driver_dir.display()
        ))
        .stdout_contains(&format!(
            "found      axe-core 4.14.1: {}",
            driver_dir.join("axe").display()
        ))
        .output_not_contains("installing");
    let out = env(out.again()).args(&["init"]).run().assert_exit(0);
    env(out.again())
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_contains("1 passed, 0 failed");
}
