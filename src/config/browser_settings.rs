//! `[browser]`: the browser each test drives.
//!
//! Main type: [`BrowserLayer`], what one source says of the section, read from the file
//! ([`RawBrowser`]), the environment ([`ENV_VARS`]) or the flags, and stacked and finished into
//! [`BrowserSettings`] by `settings.rs`. The keys of a remote browser (`connect`, `cdp`, ...)
//! are read in `remote_settings.rs`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use super::allowed_origins::{
    AllowedOrigins, ORIGINS_FORM, OriginEntry, check_entries, parse_entry, parse_env,
};
use super::defaults;
use super::file_context::FileContext;
use super::remote_settings::{RawRemote, RemoteLayer};
use super::screen::SCREEN_FORMS;
use super::section_layer::section_layer;
use super::value_forms::{
    BOOL_FORMS, EnvSetter, SECONDS_FORM, flag_value, parse_bool, parse_seconds, seconds,
};
use super::{BrowserSettings, ConfigError, Isolation, Overrides, Screen};
use crate::paths::normalize;

/// Accepted forms of `browser.isolation` (compared case-insensitively).
const ISOLATION_FORMS: &str = "one of context, reuse, browser";

section_layer! {
    /// What one source says of `[browser]`; `None` leaves the decision to lower sources. The
    /// executable is absolute, except a bare name which is looked up on `PATH`.
    BrowserLayer {
        base_url: String,
        executable: PathBuf,
        headless: bool,
        timeout: Duration,
        slow_mo: Duration,
        screen: Screen,
        accept_dialogs: bool,
        isolation: Isolation,
        allowed_origins: Vec<OriginEntry>,
    }
}

impl BrowserLayer {
    /// The gaps filled from the defaults, with the remote keys `remote` says; `project_dir` is
    /// the project root.
    pub(super) fn finish(self, remote: RemoteLayer, project_dir: PathBuf) -> BrowserSettings {
        let (remote, browsers) = remote.finish();
        let allowed_origins = AllowedOrigins::resolve(
            self.base_url.as_deref(),
            self.allowed_origins.as_deref().unwrap_or_default(),
        );
        BrowserSettings {
            allowed_origins,
            remote,
            name: browsers[0],
            browsers,
            base_url: self.base_url,
            executable: self.executable,
            headless: self.headless.unwrap_or(defaults::HEADLESS),
            timeout: self.timeout.unwrap_or(defaults::BROWSER_TIMEOUT),
            slow_mo: self.slow_mo.unwrap_or_default(),
            screen: self.screen.unwrap_or(defaults::SCREEN),
            accept_dialogs: self.accept_dialogs.unwrap_or(defaults::ACCEPT_DIALOGS),
            isolation: self.isolation.unwrap_or(defaults::ISOLATION),
            project_dir,
        }
    }

    /// `[browser]` of the settings file, checked, and its remote keys; relative paths are
    /// relative to `root`.
    pub(super) fn from_file(
        raw: RawBrowser,
        root: &Path,
        file: &FileContext<'_>,
    ) -> Result<(BrowserLayer, RemoteLayer), ConfigError> {
        let remote = RemoteLayer::from_file(
            RawRemote {
                connect: raw.connect,
                cdp: raw.cdp,
                connect_headers: raw.connect_headers,
                connect_timeout: raw.connect_timeout,
                name: raw.name,
                browsers: raw.browsers,
            },
            file,
        )?;
        let layer = BrowserLayer {
            base_url: raw.base_url,
            executable: raw.executable.map(|p| executable(root, &p)),
            headless: raw.headless,
            timeout: file.checked("browser.timeout", SECONDS_FORM, raw.timeout, seconds)?,
            slow_mo: file.checked("browser.slow_mo", SECONDS_FORM, raw.slow_mo, seconds)?,
            screen: file.parsed("browser.screen", SCREEN_FORMS, raw.screen, Screen::parse)?,
            accept_dialogs: raw.accept_dialogs,
            isolation: file.parsed(
                "browser.isolation",
                ISOLATION_FORMS,
                raw.isolation,
                parse_isolation,
            )?,
            allowed_origins: raw
                .allowed_origins
                .map(|list| allowed_origins(list, file))
                .transpose()?,
        };
        Ok((layer, remote))
    }

    /// `--base-url`, `--executable` (relative to `cwd`), `--headed`, `--timeout` and
    /// `--screen`.
    pub(super) fn from_overrides(
        cwd: &Path,
        overrides: &Overrides,
    ) -> Result<BrowserLayer, ConfigError> {
        let timeout = flag_value("timeout", SECONDS_FORM, overrides.timeout, seconds)?;
        let slow_mo = flag_value("slow-mo", SECONDS_FORM, overrides.slow_mo, seconds)?;
        let screen = flag_value(
            "screen",
            SCREEN_FORMS,
            overrides.screen.as_deref(),
            Screen::parse,
        )?;
        Ok(BrowserLayer {
            base_url: overrides.base_url.clone(),
            executable: overrides.executable.as_deref().map(|p| executable(cwd, p)),
            headless: overrides.headed.then_some(false),
            timeout,
            slow_mo,
            screen,
            ..BrowserLayer::default()
        })
    }
}
/// `[browser]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub(super) struct RawBrowser {
    base_url: Option<String>,
    executable: Option<PathBuf>,
    headless: Option<bool>,
    timeout: Option<Spanned<f64>>,
    slow_mo: Option<Spanned<f64>>,
    screen: Option<Spanned<String>>,
    accept_dialogs: Option<bool>,
    isolation: Option<Spanned<String>>,
    allowed_origins: Option<Spanned<Vec<Spanned<String>>>>,
    connect: Option<Spanned<String>>,
    cdp: Option<Spanned<String>>,
    connect_headers: Option<Spanned<std::collections::BTreeMap<String, String>>>,
    connect_timeout: Option<Spanned<f64>>,
    name: Option<Spanned<String>>,
    browsers: Option<Spanned<Vec<Spanned<String>>>>,
}

/// The environment variables of `[browser]`; a relative executable path is relative to the
/// project root.
pub(super) const ENV_VARS: &[(&str, EnvSetter<BrowserLayer>)] = &[
    ("PRETTYPLAY_BROWSER_BASE_URL", |layer, _, value| {
        layer.base_url = Some(value.to_owned());
        Ok(())
    }),
    ("PRETTYPLAY_BROWSER_EXECUTABLE", |layer, root, value| {
        layer.executable = Some(executable(root, Path::new(value)));
        Ok(())
    }),
    ("PRETTYPLAY_BROWSER_HEADLESS", |layer, _, value| {
        layer.headless = Some(parse_bool(value).ok_or(BOOL_FORMS)?);
        Ok(())
    }),
    ("PRETTYPLAY_BROWSER_TIMEOUT", |layer, _, value| {
        layer.timeout = Some(parse_seconds(value).ok_or(SECONDS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_BROWSER_SLOW_MO", |layer, _, value| {
        layer.slow_mo = Some(parse_seconds(value).ok_or(SECONDS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_BROWSER_SCREEN", |layer, _, value| {
        layer.screen = Some(Screen::parse(value).ok_or(SCREEN_FORMS)?);
        Ok(())
    }),
    ("PRETTYPLAY_BROWSER_ACCEPT_DIALOGS", |layer, _, value| {
        layer.accept_dialogs = Some(parse_bool(value).ok_or(BOOL_FORMS)?);
        Ok(())
    }),
    ("PRETTYPLAY_BROWSER_ISOLATION", |layer, _, value| {
        layer.isolation = Some(parse_isolation(value).ok_or(ISOLATION_FORMS)?);
        Ok(())
    }),
    ("PRETTYPLAY_BROWSER_ALLOWED_ORIGINS", |layer, _, value| {
        layer.allowed_origins = Some(parse_env(value).ok_or(ORIGINS_FORM)?);
        Ok(())
    }),
];

/// `browser.allowed_origins` of the file, each entry checked; a refused one is an error at the
/// entry that says what to write.
fn allowed_origins(
    list: Spanned<Vec<Spanned<String>>>,
    file: &FileContext<'_>,
) -> Result<Vec<OriginEntry>, ConfigError> {
    let span = list.span();
    let entries = list
        .into_inner()
        .into_iter()
        .map(|entry| {
            parse_entry(entry.get_ref()).map_err(|refused| {
                file.error(
                    Some(entry.span()),
                    format!(
                        "`browser.allowed_origins` entry {:?} {}",
                        entry.get_ref(),
                        refused.problem
                    ),
                    Some(refused.hint),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    check_entries(&entries).map_err(|refused| {
        file.error(
            Some(span),
            format!("`browser.allowed_origins` {}", refused.problem),
            Some(refused.hint),
        )
    })?;
    Ok(entries)
}

/// A browser executable: a bare name stays as is (looked up on `PATH`), a path is made absolute
/// against `base`.
fn executable(base: &Path, path: &Path) -> PathBuf {
    if path.components().count() > 1 || path.is_absolute() {
        normalize(&base.join(path))
    } else {
        path.to_path_buf()
    }
}

/// `context`, `reuse` or `browser`, in any case.
fn parse_isolation(value: &str) -> Option<Isolation> {
    match value.trim().to_ascii_lowercase().as_str() {
        "context" => Some(Isolation::Context),
        "reuse" => Some(Isolation::Reuse),
        "browser" => Some(Isolation::Browser),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_support::{
        CONFIG_FILE, env_of, no_env, project, resolve, resolve_err, resolve_with, screen_examples,
    };

    #[test]
    fn bare_executable_name_is_kept_for_path_lookup() {
        let dir = project("[browser]\nexecutable = \"chromium\"\n");
        let settings = resolve(dir.path(), &no_env);
        assert_eq!(settings.browser.executable, Some(PathBuf::from("chromium")));
    }

    #[test]
    fn cli_overrides_env() {
        let dir = tempfile::tempdir().expect("tempdir");
        let env = env_of(&[
            ("PRETTYPLAY_BROWSER_BASE_URL", "http://env"),
            ("PRETTYPLAY_BROWSER_HEADLESS", "true"),
            ("PRETTYPLAY_BROWSER_TIMEOUT", "9"),
            ("PRETTYPLAY_BROWSER_EXECUTABLE", "chromium"),
        ]);
        let overrides = Overrides {
            base_url: Some("http://cli".into()),
            headed: true,
            executable: Some(PathBuf::from("./bin/chrome")),
            timeout: Some(1.5),
            ..Overrides::default()
        };
        let settings = resolve_with(dir.path(), &env, overrides).expect("resolve");
        assert_eq!(settings.browser.base_url.as_deref(), Some("http://cli"));
        assert!(!settings.browser.headless);
        assert_eq!(settings.browser.timeout, Duration::from_millis(1500));
        assert_eq!(
            settings.browser.executable,
            Some(dir.path().join("bin/chrome"))
        );
    }

    #[test]
    fn not_headed_leaves_headless_to_lower_sources() {
        let dir = project("[browser]\nheadless = false\n");
        assert!(!resolve(dir.path(), &no_env).browser.headless);
    }

    #[test]
    fn bad_env_bool_names_the_variable_and_forms() {
        let dir = tempfile::tempdir().expect("tempdir");
        let env = env_of(&[("PRETTYPLAY_BROWSER_HEADLESS", "maybe")]);
        let e = resolve_err(dir.path(), &env);
        assert_eq!(
            e.to_string(),
            "environment variable `PRETTYPLAY_BROWSER_HEADLESS` has invalid value `maybe`: \
             expected one of true, false, 1, 0, yes, no"
        );
    }

    #[test]
    fn bad_env_duration_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        for value in ["-1", "NaN", "inf", "soon", "1e300"] {
            let env = env_of(&[("PRETTYPLAY_POLLING_DELAY", value)]);
            let e = resolve_err(dir.path(), &env);
            assert!(
                matches!(&e, ConfigError::Env { var, .. } if var == "PRETTYPLAY_POLLING_DELAY"),
                "{value}: {e}"
            );
        }
    }

    #[test]
    fn bad_file_duration_names_the_key() {
        let dir = project("[browser]\ntimeout = -1\n");
        let e = resolve_err(dir.path(), &no_env);
        let file = dir.path().join(CONFIG_FILE);
        assert_eq!(
            e.to_string(),
            format!(
                "{}:2:11: `browser.timeout` must be a number of seconds from 0 to 86400 (24 h), e.g. 2.5, got -1\n  \
                 |\n\
                 2 | timeout = -1\n  \
                 |           ^",
                file.display()
            )
        );
        let dir = project("[polling]\ndelay = nan\n");
        assert!(
            resolve_err(dir.path(), &no_env)
                .to_string()
                .contains("`polling.delay` must be")
        );
    }

    #[test]
    fn durations_above_24_hours_are_refused_wherever_they_come_from() {
        // 2^31 ms (about 24.9 days) and more made every browser action time out at once.
        let dir =
            project("[browser]\ntimeout = 86400\n[polling]\ntimeout = 86400\ndelay = 86400\n");
        let settings = resolve(dir.path(), &no_env);
        assert_eq!(settings.browser.timeout, Duration::from_secs(86_400));
        assert_eq!(settings.polling.delay, Duration::from_secs(86_400));
        for (toml, key, col) in [
            ("[browser]\ntimeout = 2147484\n", "browser.timeout", 11),
            ("[polling]\ntimeout = 86401\n", "polling.timeout", 11),
            ("[polling]\ndelay = 1e12\n", "polling.delay", 9),
        ] {
            let dir = project(toml);
            let shown = resolve_err(dir.path(), &no_env).to_string();
            let file = dir.path().join(CONFIG_FILE);
            assert!(
                shown.starts_with(&format!(
                    "{}:2:{col}: `{key}` must be a number of seconds from 0 to 86400 (24 h), \
                     e.g. 2.5, got ",
                    file.display()
                )),
                "{shown}"
            );
        }
        for var in [
            "PRETTYPLAY_BROWSER_TIMEOUT",
            "PRETTYPLAY_POLLING_TIMEOUT",
            "PRETTYPLAY_POLLING_DELAY",
        ] {
            let dir = tempfile::tempdir().expect("tempdir");
            let e = resolve_with(
                dir.path(),
                &env_of(&[(var, "2147484")]),
                Overrides::default(),
            )
            .expect_err("too long");
            assert_eq!(
                e.to_string(),
                format!(
                    "environment variable `{var}` has invalid value `2147484`: expected a number \
                     of seconds from 0 to 86400 (24 h), e.g. 2.5"
                )
            );
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let overrides = Overrides {
            timeout: Some(86_400.5),
            ..Overrides::default()
        };
        let e = resolve_with(dir.path(), &no_env, overrides).expect_err("too long");
        assert_eq!(
            e.to_string(),
            "invalid value `86400.5` for `--timeout`: expected a number of seconds from 0 to \
             86400 (24 h), e.g. 2.5"
        );
    }

    #[test]
    fn bad_timeout_flag_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let overrides = Overrides {
            timeout: Some(-2.0),
            ..Overrides::default()
        };
        let e = resolve_with(dir.path(), &no_env, overrides).expect_err("bad flag");
        assert_eq!(
            e.to_string(),
            "invalid value `-2` for `--timeout`: expected a number of seconds from 0 to 86400 (24 h), e.g. 2.5"
        );
    }

    /// `[browser] screen` from the file.
    fn file_screen(value: &str) -> Result<Screen, ConfigError> {
        let dir = project(&format!("[browser]\nscreen = {value:?}\n"));
        resolve_with(dir.path(), &no_env, Overrides::default()).map(|s| s.browser.screen)
    }

    #[test]
    fn screen_forms_are_read_from_file_env_and_flag() {
        let dir = tempfile::tempdir().expect("tempdir");
        for (value, expected) in screen_examples() {
            assert_eq!(file_screen(value).expect(value), expected, "file {value:?}");
            if !value.is_empty() {
                let env = env_of(&[("PRETTYPLAY_BROWSER_SCREEN", value)]);
                assert_eq!(
                    resolve(dir.path(), &env).browser.screen,
                    expected,
                    "env {value:?}"
                );
            }
            let overrides = Overrides {
                screen: Some(value.to_owned()),
                ..Overrides::default()
            };
            let settings = resolve_with(dir.path(), &no_env, overrides).expect(value);
            assert_eq!(settings.browser.screen, expected, "flag {value:?}");
        }
    }

    #[test]
    fn screen_precedence_and_empty_values() {
        let dir = project("[browser]\nscreen = \"800x600\"\n");
        // An empty variable is unset: the file's value stays.
        let env = env_of(&[("PRETTYPLAY_BROWSER_SCREEN", "")]);
        assert_eq!(
            resolve(dir.path(), &env).browser.screen,
            Screen::Size {
                width: 800,
                height: 600
            }
        );
        let env = env_of(&[("PRETTYPLAY_BROWSER_SCREEN", "Pixel 7")]);
        assert_eq!(
            resolve(dir.path(), &env).browser.screen,
            Screen::Device("Pixel 7".into())
        );
        // An empty flag is Playwright's default, over the variable and the file.
        let overrides = Overrides {
            screen: Some(String::new()),
            ..Overrides::default()
        };
        let settings = resolve_with(dir.path(), &env, overrides).expect("resolve");
        assert_eq!(settings.browser.screen, Screen::Default);
    }

    #[test]
    fn bad_file_screen_names_the_key_the_forms_and_the_position() {
        let dir = project("[browser]\nscreen = \"800x0\"\n");
        let e = resolve_err(dir.path(), &no_env);
        assert_eq!(
            e.to_string(),
            format!(
                "{}:2:10: `browser.screen` must be empty, WxH such as 1280x720, fullscreen, or a \
                 device name such as \"iPhone 13\", got \"800x0\"\n  \
                 |\n\
                 2 | screen = \"800x0\"\n  \
                 |          ^",
                dir.path().join(CONFIG_FILE).display()
            )
        );
        for value in [
            "0x600",
            "800 x 600",
            "800x600px",
            "800",
            "Fullscreen",
            "1.5x2",
        ] {
            let e = file_screen(value).expect_err(value);
            assert!(
                e.to_string()
                    .contains("`browser.screen` must be empty, WxH such as 1280x720"),
                "{value}: {e}"
            );
        }
        // Not a string at all: TOML's own type error, at the value.
        let dir = project("[browser]\nscreen = 800\n");
        assert!(matches!(
            resolve_err(dir.path(), &no_env),
            ConfigError::File {
                at: Some((2, 10, _)),
                ..
            }
        ));
    }

    #[test]
    fn bad_env_and_flag_screen_name_the_source_and_the_forms() {
        let dir = tempfile::tempdir().expect("tempdir");
        let env = env_of(&[("PRETTYPLAY_BROWSER_SCREEN", "1280x")]);
        assert_eq!(
            resolve_err(dir.path(), &env).to_string(),
            "environment variable `PRETTYPLAY_BROWSER_SCREEN` has invalid value `1280x`: \
             expected empty, WxH such as 1280x720, fullscreen, or a device name such as \
             \"iPhone 13\""
        );
        let overrides = Overrides {
            screen: Some("FullScreen".into()),
            ..Overrides::default()
        };
        let e = resolve_with(dir.path(), &no_env, overrides).expect_err("bad flag");
        assert_eq!(
            e.to_string(),
            "invalid value `FullScreen` for `--screen`: expected empty, WxH such as 1280x720, \
             fullscreen, or a device name such as \"iPhone 13\""
        );
    }

    #[test]
    fn accept_dialogs_defaults_to_true_and_is_read_from_file_and_env() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(resolve(dir.path(), &no_env).browser.accept_dialogs);
        let dir = project("[browser]\naccept_dialogs = false\n");
        assert!(!resolve(dir.path(), &no_env).browser.accept_dialogs);
        let env = env_of(&[("PRETTYPLAY_BROWSER_ACCEPT_DIALOGS", "YES")]);
        assert!(resolve(dir.path(), &env).browser.accept_dialogs);
        let env = env_of(&[("PRETTYPLAY_BROWSER_ACCEPT_DIALOGS", "0")]);
        let dir = project("[browser]\naccept_dialogs = true\n");
        assert!(!resolve(dir.path(), &env).browser.accept_dialogs);
        let env = env_of(&[("PRETTYPLAY_BROWSER_ACCEPT_DIALOGS", "sometimes")]);
        assert_eq!(
            resolve_err(dir.path(), &env).to_string(),
            "environment variable `PRETTYPLAY_BROWSER_ACCEPT_DIALOGS` has invalid value \
             `sometimes`: expected one of true, false, 1, 0, yes, no"
        );
        let dir = project("[browser]\naccept_dialogs = \"no\"\n");
        assert!(matches!(
            resolve_err(dir.path(), &no_env),
            ConfigError::File {
                at: Some((2, 18, _)),
                ..
            }
        ));
    }

    #[test]
    fn isolation_defaults_to_context_and_is_read_from_file_and_env() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(
            resolve(dir.path(), &no_env).browser.isolation,
            Isolation::Context
        );
        let dir = project("[browser]\nisolation = \"browser\"\n");
        assert_eq!(
            resolve(dir.path(), &no_env).browser.isolation,
            Isolation::Browser
        );
        let dir = project("[browser]\nisolation = \"reuse\"\n");
        assert_eq!(
            resolve(dir.path(), &no_env).browser.isolation,
            Isolation::Reuse
        );
        let env = env_of(&[("PRETTYPLAY_BROWSER_ISOLATION", "Reuse")]);
        assert_eq!(
            resolve(dir.path(), &env).browser.isolation,
            Isolation::Reuse
        );
        let dir = project("[browser]\nisolation = \"context\"\n");
        assert_eq!(
            resolve(dir.path(), &no_env).browser.isolation,
            Isolation::Context
        );
        // The variable wins over the file, in any case and with spaces around.
        let env = env_of(&[("PRETTYPLAY_BROWSER_ISOLATION", " Browser ")]);
        assert_eq!(
            resolve(dir.path(), &env).browser.isolation,
            Isolation::Browser
        );
        let dir = project("[browser]\nisolation = \"browser\"\n");
        let env = env_of(&[("PRETTYPLAY_BROWSER_ISOLATION", "CONTEXT")]);
        assert_eq!(
            resolve(dir.path(), &env).browser.isolation,
            Isolation::Context
        );
        // An empty variable is unset: the file's value stays.
        let env = env_of(&[("PRETTYPLAY_BROWSER_ISOLATION", "")]);
        assert_eq!(
            resolve(dir.path(), &env).browser.isolation,
            Isolation::Browser
        );
    }

    #[test]
    fn allowed_origins_default_to_the_base_url_and_read_file_and_env() {
        let implicit = || vec!["about".to_owned(), "data".to_owned(), "blob".to_owned()];
        let dir = project("[browser]\nbase_url = \"http://127.0.0.1:3000/app/\"\n");
        assert_eq!(
            resolve(dir.path(), &no_env).browser.allowed_origins,
            AllowedOrigins::Only {
                origins: vec!["http://127.0.0.1:3000".into()],
                schemes: implicit(),
            }
        );
        let dir = project(
            "[browser]\nbase_url = \"http://127.0.0.1:3000\"\n\
             allowed_origins = [\"http://127.0.0.1:4000\", \"file:\"]\n",
        );
        let mut with_file = implicit();
        with_file.push("file".into());
        assert_eq!(
            resolve(dir.path(), &no_env).browser.allowed_origins,
            AllowedOrigins::Only {
                origins: vec![
                    "http://127.0.0.1:3000".into(),
                    "http://127.0.0.1:4000".into()
                ],
                schemes: with_file,
            }
        );
        // The variable replaces the file's list; the base URL may come from the flag.
        let env = env_of(&[("PRETTYPLAY_BROWSER_ALLOWED_ORIGINS", "https://b.example, *")]);
        assert!(matches!(
            resolve_err(dir.path(), &env),
            ConfigError::Env { var, .. } if var == "PRETTYPLAY_BROWSER_ALLOWED_ORIGINS"
        ));
        let env = env_of(&[("PRETTYPLAY_BROWSER_ALLOWED_ORIGINS", " https://b.example ")]);
        let overrides = Overrides {
            base_url: Some("http://127.0.0.1:9".into()),
            ..Overrides::default()
        };
        let settings = resolve_with(dir.path(), &env, overrides).expect("resolve");
        assert_eq!(
            settings.browser.allowed_origins,
            AllowedOrigins::Only {
                origins: vec!["http://127.0.0.1:9".into(), "https://b.example".into()],
                schemes: implicit(),
            }
        );
        let env = env_of(&[("PRETTYPLAY_BROWSER_ALLOWED_ORIGINS", "*")]);
        assert!(resolve(dir.path(), &env).browser.allowed_origins.is_any());
        let dir = project("[browser]\nallowed_origins = [\"*\"]\n");
        assert!(
            resolve(dir.path(), &no_env)
                .browser
                .allowed_origins
                .is_any()
        );
    }

    #[test]
    fn a_bad_allowed_origin_names_the_key_the_entry_and_what_to_write() {
        let dir = project(
            "[browser]\nallowed_origins = [\"http://127.0.0.1:4000\", \"http://127.0.0.1:3000/app\"]\n",
        );
        assert_eq!(
            resolve_err(dir.path(), &no_env).to_string(),
            format!(
                "{}:2:45: `browser.allowed_origins` entry \"http://127.0.0.1:3000/app\" has a path\n  \
                 |\n\
                 2 | allowed_origins = [\"http://127.0.0.1:4000\", \"http://127.0.0.1:3000/app\"]\n  \
                 |                                             ^\n  \
                 = hint: write \"http://127.0.0.1:3000\": an origin is a scheme, a host and a port, \
                 nothing more",
                dir.path().join(CONFIG_FILE).display()
            )
        );
        let dir = project("[browser]\nallowed_origins = [\"localhost:3000\"]\n");
        let shown = resolve_err(dir.path(), &no_env).to_string();
        assert!(
            shown.contains("`browser.allowed_origins` entry \"localhost:3000\" is not an origin"),
            "{shown}"
        );
        assert!(
            shown.contains("such as \"http://127.0.0.1:3000\""),
            "{shown}"
        );
        let dir = project("[browser]\nallowed_origins = [\"*\", \"http://a\"]\n");
        let shown = resolve_err(dir.path(), &no_env).to_string();
        assert!(
            shown.contains("`browser.allowed_origins` lists \"*\" with other entries"),
            "{shown}"
        );
        // Not a list of strings: TOML's own type error, at the value.
        let dir = project("[browser]\nallowed_origins = \"http://a\"\n");
        assert!(matches!(
            resolve_err(dir.path(), &no_env),
            ConfigError::File {
                at: Some((2, 19, _)),
                ..
            }
        ));
        let tmp = tempfile::tempdir().expect("tempdir");
        let env = env_of(&[("PRETTYPLAY_BROWSER_ALLOWED_ORIGINS", "http://a/x")]);
        assert_eq!(
            resolve_err(tmp.path(), &env).to_string(),
            "environment variable `PRETTYPLAY_BROWSER_ALLOWED_ORIGINS` has invalid value \
             `http://a/x`: expected a comma-separated list of origins such as \
             http://127.0.0.1:3000 (scheme, host and optional port; no path), about:, data:, \
             blob: or file:, or * alone to allow every origin"
        );
    }

    #[test]
    fn bad_isolation_names_the_source_and_both_values() {
        let dir = project("[browser]\nisolation = \"process\"\n");
        assert_eq!(
            resolve_err(dir.path(), &no_env).to_string(),
            format!(
                "{}:2:13: `browser.isolation` must be one of context, reuse, browser, got \"process\"\n  \
                 |\n\
                 2 | isolation = \"process\"\n  \
                 |             ^",
                dir.path().join(CONFIG_FILE).display()
            )
        );
        let dir = project("[browser]\nisolation = \"\"\n");
        assert!(
            resolve_err(dir.path(), &no_env)
                .to_string()
                .contains("`browser.isolation` must be one of context, reuse, browser, got \"\""),
        );
        // Not a string at all: TOML's own type error, at the value.
        let dir = project("[browser]\nisolation = true\n");
        assert!(matches!(
            resolve_err(dir.path(), &no_env),
            ConfigError::File {
                at: Some((2, 13, _)),
                ..
            }
        ));
        let tmp = tempfile::tempdir().expect("tempdir");
        let env = env_of(&[("PRETTYPLAY_BROWSER_ISOLATION", "tab")]);
        assert_eq!(
            resolve_err(tmp.path(), &env).to_string(),
            "environment variable `PRETTYPLAY_BROWSER_ISOLATION` has invalid value `tab`: \
             expected one of context, reuse, browser"
        );
    }
}
