//! `[run]`: how long a test may run, how many tests run at once, how often a failed test runs
//! again and whether a flaky test fails the run.
//!
//! Main type: [`RunLayer`], what one source says of `[run]`: the file ([`RawRun`]), the
//! environment ([`ENV_VARS`]) or the flags (`--test-timeout`, `-j/--workers`, `--retries`,
//! `--fail-on-flaky-tests`); stacked and finished into [`RunSettings`] by `settings.rs`.

use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use super::defaults;
use super::file_context::FileContext;
use super::section_layer::section_layer;
use super::value_forms::{
    BOOL_FORMS, EnvSetter, POSITIVE_SECONDS_FORM, flag_value, parse_bool, parse_seconds,
    positive_seconds,
};
use super::{ConfigError, Overrides, RunSettings};

/// Accepted form of `run.workers`.
const WORKERS_FORM: &str = "a whole number >= 1";
/// Accepted form of `run.retries`.
const RETRIES_FORM: &str = "a whole number from 0 to 100";
/// The most retries a test may have.
const MAX_RETRIES: u32 = 100;

/// The defaults of `[run]`: 60 s per test, as many workers as CPUs.
impl Default for RunSettings {
    fn default() -> Self {
        RunLayer::default().finish()
    }
}

/// `[run]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub(super) struct RawRun {
    test_timeout: Option<Spanned<f64>>,
    workers: Option<Spanned<i64>>,
    retries: Option<Spanned<i64>>,
    fail_on_flaky: Option<bool>,
}

section_layer! {
    /// What one source says of `[run]`; `None` leaves the decision to lower sources.
    RunLayer {
        test_timeout: Duration,
        workers: usize,
        retries: u32,
        fail_on_flaky: bool,
    }
}

impl RunLayer {
    /// The gaps filled from the defaults.
    pub(super) fn finish(self) -> RunSettings {
        RunSettings {
            test_timeout: self.test_timeout.unwrap_or(defaults::TEST_TIMEOUT),
            workers: self.workers.or(defaults::WORKERS),
            retries: self.retries.unwrap_or(defaults::RETRIES),
            fail_on_flaky: self.fail_on_flaky.unwrap_or(defaults::FAIL_ON_FLAKY),
        }
    }

    /// `[run]` of the settings file, checked.
    pub(super) fn from_file(raw: RawRun, file: &FileContext<'_>) -> Result<RunLayer, ConfigError> {
        Ok(RunLayer {
            test_timeout: file.checked(
                "run.test_timeout",
                POSITIVE_SECONDS_FORM,
                raw.test_timeout,
                positive_seconds,
            )?,
            workers: file.checked("run.workers", WORKERS_FORM, raw.workers, |n| {
                usize::try_from(n).ok().and_then(workers)
            })?,
            retries: file.checked("run.retries", RETRIES_FORM, raw.retries, |n| {
                u32::try_from(n).ok().and_then(retries)
            })?,
            fail_on_flaky: raw.fail_on_flaky,
        })
    }

    /// `--test-timeout` and `-j/--workers`.
    pub(super) fn from_overrides(overrides: &Overrides) -> Result<RunLayer, ConfigError> {
        Ok(RunLayer {
            test_timeout: flag_value(
                "test-timeout",
                POSITIVE_SECONDS_FORM,
                overrides.test_timeout,
                positive_seconds,
            )?,
            workers: flag_value("workers", WORKERS_FORM, overrides.workers, workers)?,
            retries: flag_value("retries", RETRIES_FORM, overrides.retries, retries)?,
            fail_on_flaky: overrides.fail_on_flaky_tests.then_some(true),
        })
    }
}

/// The environment variables of `[run]`.
pub(super) const ENV_VARS: &[(&str, EnvSetter<RunLayer>)] = &[
    ("PRETTYPLAY_RUN_TEST_TIMEOUT", |layer, _, value| {
        let timeout = parse_seconds(value).filter(|t| !t.is_zero());
        layer.test_timeout = Some(timeout.ok_or(POSITIVE_SECONDS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_RUN_WORKERS", |layer, _, value| {
        let count = value.trim().parse().ok().and_then(workers);
        layer.workers = Some(count.ok_or(WORKERS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_RUN_RETRIES", |layer, _, value| {
        let count = value.trim().parse().ok().and_then(retries);
        layer.retries = Some(count.ok_or(RETRIES_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_RUN_FAIL_ON_FLAKY", |layer, _, value| {
        layer.fail_on_flaky = Some(parse_bool(value).ok_or(BOOL_FORMS)?);
        Ok(())
    }),
];

/// A number of workers: 1 or more.
fn workers(count: usize) -> Option<usize> {
    (count >= 1).then_some(count)
}

/// A number of retries: 0 to [`MAX_RETRIES`].
fn retries(count: u32) -> Option<u32> {
    (count <= MAX_RETRIES).then_some(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_support::{
        CONFIG_FILE, assert_capped_at_a_day, assert_env_refused, env_of, no_env, project, resolve,
        resolve_err, resolve_with,
    };

    #[test]
    fn run_test_timeout_above_24_hours_is_refused() {
        assert_capped_at_a_day("run", "test_timeout", "PRETTYPLAY_RUN_TEST_TIMEOUT", |s| {
            s.run.test_timeout
        });
        let overrides = Overrides {
            test_timeout: Some(1e9),
            ..Overrides::default()
        };
        let dir = tempfile::tempdir().expect("tempdir");
        let e = resolve_with(dir.path(), &no_env, overrides).expect_err("too long");
        assert_eq!(
            e.to_string(),
            "invalid value `1000000000` for `--test-timeout`: expected a number of seconds > 0, at most 86400 (24 h), e.g. 60"
        );
    }

    #[test]
    fn run_defaults_to_sixty_seconds_and_no_worker_count() {
        let dir = tempfile::tempdir().expect("tempdir");
        let run = resolve(dir.path(), &no_env).run;
        assert_eq!(
            run,
            RunSettings {
                test_timeout: Duration::from_secs(60),
                workers: None,
                retries: 0,
                fail_on_flaky: false,
            }
        );
        assert_eq!(run, RunSettings::default());
        // An empty `[run]` section changes nothing.
        let dir = project("[run]\n");
        assert_eq!(resolve(dir.path(), &no_env).run, RunSettings::default());
    }

    #[test]
    fn run_is_read_from_the_file() {
        let dir = project("[run]\ntest_timeout = 12.5\nworkers = 3\n");
        assert_eq!(
            resolve(dir.path(), &no_env).run,
            RunSettings {
                test_timeout: Duration::from_millis(12_500),
                workers: Some(3),
                ..RunSettings::default()
            }
        );
        // An integer is accepted where a number of seconds is expected.
        let dir = project("[run]\ntest_timeout = 90\n");
        let run = resolve(dir.path(), &no_env).run;
        assert_eq!(run.test_timeout, Duration::from_secs(90));
        assert_eq!(run.workers, None);
    }

    #[test]
    fn run_precedence_is_flag_then_env_then_file() {
        let dir = project("[run]\ntest_timeout = 10\nworkers = 2\n");
        let env = env_of(&[
            ("PRETTYPLAY_RUN_TEST_TIMEOUT", " 20.5 "),
            ("PRETTYPLAY_RUN_WORKERS", "4"),
        ]);
        assert_eq!(
            resolve(dir.path(), &env).run,
            RunSettings {
                test_timeout: Duration::from_millis(20_500),
                workers: Some(4),
                ..RunSettings::default()
            }
        );
        // An empty variable is unset: the file's value stays.
        let empty = env_of(&[
            ("PRETTYPLAY_RUN_TEST_TIMEOUT", ""),
            ("PRETTYPLAY_RUN_WORKERS", ""),
        ]);
        assert_eq!(
            resolve(dir.path(), &empty).run,
            RunSettings {
                test_timeout: Duration::from_secs(10),
                workers: Some(2),
                ..RunSettings::default()
            }
        );
        let flags = Overrides {
            test_timeout: Some(0.5),
            workers: Some(1),
            ..Overrides::default()
        };
        assert_eq!(
            resolve_with(dir.path(), &env, flags).expect("resolve").run,
            RunSettings {
                test_timeout: Duration::from_millis(500),
                workers: Some(1),
                ..RunSettings::default()
            }
        );
        // One flag leaves the other key to the lower sources.
        let flags = Overrides {
            workers: Some(8),
            ..Overrides::default()
        };
        assert_eq!(
            resolve_with(dir.path(), &env, flags).expect("resolve").run,
            RunSettings {
                test_timeout: Duration::from_millis(20_500),
                workers: Some(8),
                ..RunSettings::default()
            }
        );
    }

    #[test]
    fn retries_and_fail_on_flaky_come_from_the_flag_then_env_then_file() {
        let dir = project("[run]\nretries = 2\nfail_on_flaky = false\n");
        let run = resolve(dir.path(), &no_env).run;
        assert_eq!((run.retries, run.fail_on_flaky), (2, false));
        let env = env_of(&[
            ("PRETTYPLAY_RUN_RETRIES", "3"),
            ("PRETTYPLAY_RUN_FAIL_ON_FLAKY", "yes"),
        ]);
        let run = resolve(dir.path(), &env).run;
        assert_eq!((run.retries, run.fail_on_flaky), (3, true));
        let flags = Overrides {
            retries: Some(0),
            fail_on_flaky_tests: true,
            ..Overrides::default()
        };
        let run = resolve_with(dir.path(), &no_env, flags)
            .expect("resolve")
            .run;
        assert_eq!((run.retries, run.fail_on_flaky), (0, true));
        let flags = Overrides {
            retries: Some(101),
            ..Overrides::default()
        };
        let e = resolve_with(dir.path(), &no_env, flags).expect_err("too many");
        assert_eq!(
            e.to_string(),
            "invalid value `101` for `--retries`: expected a whole number from 0 to 100"
        );
        let dir = project("[run]\nretries = -1\n");
        assert!(
            resolve_err(dir.path(), &no_env)
                .to_string()
                .contains("run.retries")
        );
    }

    #[test]
    fn bad_run_values_in_the_file_point_at_the_value() {
        for (toml, message, col) in [
            (
                "[run]\ntest_timeout = 0\n",
                "`run.test_timeout` must be a number of seconds > 0, at most 86400 (24 h), e.g. 60, got 0",
                16,
            ),
            (
                "[run]\ntest_timeout = -3\n",
                "`run.test_timeout` must be a number of seconds > 0, at most 86400 (24 h), e.g. 60, got -3",
                16,
            ),
            (
                "[run]\ntest_timeout = nan\n",
                "`run.test_timeout` must be a number of seconds > 0, at most 86400 (24 h), e.g. 60, got NaN",
                16,
            ),
            (
                "[run]\nworkers = 0\n",
                "`run.workers` must be a whole number >= 1, got 0",
                11,
            ),
            (
                "[run]\nworkers = -2\n",
                "`run.workers` must be a whole number >= 1, got -2",
                11,
            ),
        ] {
            let dir = project(toml);
            let shown = resolve_err(dir.path(), &no_env).to_string();
            let file = dir.path().join(CONFIG_FILE);
            assert!(
                shown.starts_with(&format!("{}:2:{col}: {message}\n", file.display())),
                "{shown}"
            );
        }
        // Not a whole number, not a number, an unknown key: TOML's own errors, at the value.
        for toml in [
            "[run]\nworkers = 2.5\n",
            "[run]\nworkers = \"4\"\n",
            "[run]\ntest_timeout = \"60s\"\n",
        ] {
            let dir = project(toml);
            let e = resolve_err(dir.path(), &no_env);
            assert!(
                matches!(
                    &e,
                    ConfigError::File {
                        at: Some((2, _, _)),
                        ..
                    }
                ),
                "{toml}: {e}"
            );
        }
        let dir = project("[run]\njobs = 4\n");
        let shown = resolve_err(dir.path(), &no_env).to_string();
        assert!(shown.contains("unknown key `jobs`"), "{shown}");
        assert!(
            shown.contains("expected one of `test_timeout`, `workers`, `retries`, `fail_on_flaky`"),
            "{shown}"
        );
    }

    #[test]
    fn bad_run_env_and_flag_values_name_the_source() {
        assert_env_refused(&[
            (
                "PRETTYPLAY_RUN_TEST_TIMEOUT",
                "0",
                "a number of seconds > 0, at most 86400 (24 h), e.g. 60",
            ),
            (
                "PRETTYPLAY_RUN_TEST_TIMEOUT",
                "1m",
                "a number of seconds > 0, at most 86400 (24 h), e.g. 60",
            ),
            (
                "PRETTYPLAY_RUN_TEST_TIMEOUT",
                "inf",
                "a number of seconds > 0, at most 86400 (24 h), e.g. 60",
            ),
            ("PRETTYPLAY_RUN_WORKERS", "0", "a whole number >= 1"),
            ("PRETTYPLAY_RUN_WORKERS", "-1", "a whole number >= 1"),
            ("PRETTYPLAY_RUN_WORKERS", "two", "a whole number >= 1"),
            ("PRETTYPLAY_RUN_WORKERS", "1.5", "a whole number >= 1"),
        ]);
        let dir = tempfile::tempdir().expect("tempdir");
        for (flags, shown) in [
            (
                Overrides {
                    test_timeout: Some(0.0),
                    ..Overrides::default()
                },
                "invalid value `0` for `--test-timeout`: expected a number of seconds > 0, at most 86400 (24 h), e.g. 60",
            ),
            (
                Overrides {
                    test_timeout: Some(-1.5),
                    ..Overrides::default()
                },
                "invalid value `-1.5` for `--test-timeout`: expected a number of seconds > 0, \
                 at most 86400 (24 h), e.g. 60",
            ),
            (
                Overrides {
                    workers: Some(0),
                    ..Overrides::default()
                },
                "invalid value `0` for `--workers`: expected a whole number >= 1",
            ),
        ] {
            let e = resolve_with(dir.path(), &no_env, flags).expect_err("bad flag");
            assert_eq!(e.to_string(), shown);
        }
    }
}
