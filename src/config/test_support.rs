//! Helpers shared by the settings tests: an environment from pairs, a project directory holding a
//! `prettyplay.toml`, and resolution with or without flags, that panics or expects an error.
//!
//! The section files' tests resolve through here, so that only `settings.rs` and this file name
//! [`Settings`].

use std::fs;
use std::path::Path;
use std::time::Duration;

pub(super) use super::defaults::CONFIG_FILE;
use super::{ConfigError, Overrides, Screen, Settings};

/// An environment with nothing set.
pub(super) fn no_env(_: &str) -> Option<String> {
    None
}

pub(super) use crate::test_env::env_of;

/// A temporary project root whose `prettyplay.toml` is `toml`.
pub(super) fn project(toml: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    fs::write(dir.path().join(CONFIG_FILE), toml).expect("write config");
    dir
}

/// The settings of `cwd` and `env` without flags; panics with the error shown.
pub(super) fn resolve(cwd: &Path, env: &dyn Fn(&str) -> Option<String>) -> Settings {
    match Settings::resolve(cwd, env, &Overrides::default()) {
        Ok(settings) => settings,
        Err(e) => panic!("unexpected error:\n{e}"),
    }
}

/// The error of resolving `cwd` and `env` without flags.
pub(super) fn resolve_err(cwd: &Path, env: &dyn Fn(&str) -> Option<String>) -> ConfigError {
    Settings::resolve(cwd, env, &Overrides::default()).expect_err("expected an error")
}

/// Asserts that each `(variable, value, expected forms)` alone in the environment is refused
/// with the message naming all three.
pub(super) fn assert_env_refused(cases: &[(&str, &str, &str)]) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (var, value, expected) in cases {
        let env = env_of(&[(var, value)]);
        assert_eq!(
            resolve_err(dir.path(), &env).to_string(),
            format!(
                "environment variable `{var}` has invalid value `{value}`: expected {expected}"
            )
        );
    }
}

/// The settings of `cwd` and `env` with the flags of `overrides`.
pub(super) fn resolve_with(
    cwd: &Path,
    env: &dyn Fn(&str) -> Option<String>,
    overrides: Overrides,
) -> Result<Settings, ConfigError> {
    Settings::resolve(cwd, env, &overrides)
}

/// A value of `[browser] screen` in each accepted form (with spaces around, sizes in either
/// case of `x`, device names with punctuation), and what it means.
pub(super) fn screen_examples() -> Vec<(&'static str, Screen)> {
    vec![
        ("", Screen::Default),
        ("   ", Screen::Default),
        (
            "1280x720",
            Screen::Size {
                width: 1280,
                height: 720,
            },
        ),
        (
            "800X600",
            Screen::Size {
                width: 800,
                height: 600,
            },
        ),
        (
            " 390x844 ",
            Screen::Size {
                width: 390,
                height: 844,
            },
        ),
        ("fullscreen", Screen::Fullscreen),
        ("iPhone 13", Screen::Device("iPhone 13".into())),
        ("Pixel 7", Screen::Device("Pixel 7".into())),
        (
            "Desktop Chrome HiDPI",
            Screen::Device("Desktop Chrome HiDPI".into()),
        ),
        (
            "iPad (gen 7) landscape",
            Screen::Device("iPad (gen 7) landscape".into()),
        ),
    ]
}

/// `[section] key`, a positive duration, takes up to 24 h and refuses more: in the file (an error
/// at the value's line and column) and in the environment variable `var`.
pub(super) fn assert_capped_at_a_day(
    section: &str,
    key: &str,
    var: &str,
    read: fn(&Settings) -> Duration,
) {
    let form = "a number of seconds > 0, at most 86400 (24 h), e.g. 60";
    let dir = project(&format!("[{section}]\n{key} = 86400\n"));
    assert_eq!(
        read(&resolve(dir.path(), &no_env)),
        Duration::from_secs(86_400)
    );
    let dir = project(&format!("[{section}]\n{key} = 2147484\n"));
    let shown = resolve_err(dir.path(), &no_env).to_string();
    let expected = format!(
        "{}:2:{}: `{section}.{key}` must be {form}, got 2147484",
        dir.path().join(CONFIG_FILE).display(),
        key.len() + 4
    );
    assert!(
        shown.starts_with(&expected),
        "{shown}\nexpected: {expected}"
    );
    assert_env_refused(&[(var, "86400.5", form)]);
}
