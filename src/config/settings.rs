//! Resolution of [`Settings`] from defaults, `prettyplay.toml`, `PRETTYPLAY_*` environment
//! variables and CLI [`Overrides`], with precedence CLI > env > file > defaults; and
//! [`ConfigError`]s that name the source of a bad value.
//!
//! Every source is first turned into a [`Layer`] (all fields optional, paths already absolute);
//! layers are stacked and the remaining gaps filled from the [`defaults`](super::defaults). This
//! file reads the top level, `[browser]` and `[polling]`; `[llm]` and `[budgets]` are read in
//! `llm_settings.rs`, `[run]` in `run_settings.rs`. Keys, defaults and variables are documented
//! in `docs/configuration.md`.

use crate::paths::normalize;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use super::defaults;
use super::file_context::FileContext;
use super::llm_settings::{self, BudgetsLayer, LlmLayer, RawBudgets, RawLlm};
use super::run_settings::{self, RawRun, RunLayer};
use super::screen::SCREEN_FORMS;
use super::value_forms::{
    BOOL_FORMS, EnvSetter, SECONDS_FORM, flag_value, parse_bool, parse_seconds, seconds,
};
use super::{
    BrowserSettings, BudgetSettings, ConfigError, Isolation, LlmSettings, Overrides,
    PollingSettings, RunSettings, Screen,
};

/// Name of the settings file looked up in the working directory and its ancestors.
pub(crate) const CONFIG_FILE: &str = "prettyplay.toml";

/// Fully resolved settings of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Absolute: the directory of the settings file, or the working directory without one.
    pub project_root: PathBuf,
    /// The `prettyplay.toml` that was read, if any.
    pub config_file: Option<PathBuf>,
    /// Absolute: where scenarios are looked for by default (`scenarios`, default `scenarios`).
    pub scenarios: PathBuf,
    /// Absolute: the step cache directory (`cache_dir`, default `cache`).
    pub cache_dir: PathBuf,
    pub browser: BrowserSettings,
    pub polling: PollingSettings,
    /// `[llm]`: the provider that generates step code and classifies failures.
    pub llm: LlmSettings,
    /// `[budgets]`: LLM attempts per step.
    pub budgets: BudgetSettings,
    /// `[run]`: the per-test timeout and the number of parallel workers.
    pub run: RunSettings,
}

/// Accepted forms of `browser.isolation` (compared case-insensitively).
const ISOLATION_FORMS: &str = "one of context, browser";

/// What one source says; `None` leaves the decision to lower sources. Paths are absolute, except a
/// bare executable name which is looked up on `PATH`. A zero polling timeout is kept as
/// `Some(ZERO)` so it can switch off a timeout set by a lower source.
#[derive(Debug, Default)]
pub(super) struct Layer {
    scenarios: Option<PathBuf>,
    cache_dir: Option<PathBuf>,
    base_url: Option<String>,
    executable: Option<PathBuf>,
    headless: Option<bool>,
    browser_timeout: Option<Duration>,
    screen: Option<Screen>,
    accept_dialogs: Option<bool>,
    isolation: Option<Isolation>,
    polling_timeout: Option<Duration>,
    polling_delay: Option<Duration>,
    /// `[llm]`.
    pub(super) llm: LlmLayer,
    /// `[budgets]`.
    pub(super) budgets: BudgetsLayer,
    /// `[run]`.
    pub(super) run: RunLayer,
}

impl Layer {
    /// `self` where it says something, `lower` elsewhere.
    fn over(self, lower: Layer) -> Layer {
        Layer {
            scenarios: self.scenarios.or(lower.scenarios),
            cache_dir: self.cache_dir.or(lower.cache_dir),
            base_url: self.base_url.or(lower.base_url),
            executable: self.executable.or(lower.executable),
            headless: self.headless.or(lower.headless),
            browser_timeout: self.browser_timeout.or(lower.browser_timeout),
            screen: self.screen.or(lower.screen),
            accept_dialogs: self.accept_dialogs.or(lower.accept_dialogs),
            isolation: self.isolation.or(lower.isolation),
            polling_timeout: self.polling_timeout.or(lower.polling_timeout),
            polling_delay: self.polling_delay.or(lower.polling_delay),
            llm: self.llm.over(lower.llm),
            budgets: self.budgets.over(lower.budgets),
            run: self.run.over(lower.run),
        }
    }

    fn finish(self, project_root: PathBuf, config_file: Option<PathBuf>) -> Settings {
        Settings {
            scenarios: self
                .scenarios
                .unwrap_or_else(|| project_root.join(defaults::SCENARIOS)),
            cache_dir: self
                .cache_dir
                .unwrap_or_else(|| project_root.join(defaults::CACHE_DIR)),
            browser: BrowserSettings {
                base_url: self.base_url,
                executable: self.executable,
                headless: self.headless.unwrap_or(defaults::HEADLESS),
                timeout: self.browser_timeout.unwrap_or(defaults::BROWSER_TIMEOUT),
                screen: self.screen.unwrap_or(defaults::SCREEN),
                accept_dialogs: self.accept_dialogs.unwrap_or(defaults::ACCEPT_DIALOGS),
                isolation: self.isolation.unwrap_or(defaults::ISOLATION),
                project_dir: project_root.clone(),
            },
            polling: PollingSettings {
                timeout: self
                    .polling_timeout
                    .or(defaults::POLLING_TIMEOUT)
                    .filter(|t| !t.is_zero()),
                delay: self.polling_delay.unwrap_or(defaults::POLLING_DELAY),
            },
            llm: self.llm.finish(),
            budgets: self.budgets.finish(),
            run: self.run.finish(),
            project_root,
            config_file,
        }
    }
}

/// The environment variables of the top level, `[browser]` and `[polling]`:
/// `PRETTYPLAY_<KEY>` for top-level keys, `PRETTYPLAY_<SECTION>_<KEY>` for section keys. Relative
/// paths are relative to the project root. The other sections have tables of their own, read
/// after this one by [`env_layer`].
const ENV_VARS: &[(&str, EnvSetter<Layer>)] = &[
    ("PRETTYPLAY_SCENARIOS", |layer, root, value| {
        layer.scenarios = Some(normalize(&root.join(value)));
        Ok(())
    }),
    ("PRETTYPLAY_CACHE_DIR", |layer, root, value| {
        layer.cache_dir = Some(normalize(&root.join(value)));
        Ok(())
    }),
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
        layer.browser_timeout = Some(parse_seconds(value).ok_or(SECONDS_FORM)?);
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
    ("PRETTYPLAY_POLLING_TIMEOUT", |layer, _, value| {
        layer.polling_timeout = Some(parse_seconds(value).ok_or(SECONDS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_POLLING_DELAY", |layer, _, value| {
        layer.polling_delay = Some(parse_seconds(value).ok_or(SECONDS_FORM)?);
        Ok(())
    }),
];

/// `prettyplay.toml` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
struct RawFile {
    scenarios: Option<PathBuf>,
    cache_dir: Option<PathBuf>,
    browser: Option<RawBrowser>,
    polling: Option<RawPolling>,
    llm: Option<RawLlm>,
    budgets: Option<RawBudgets>,
    run: Option<RawRun>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
struct RawBrowser {
    base_url: Option<String>,
    executable: Option<PathBuf>,
    headless: Option<bool>,
    timeout: Option<Spanned<f64>>,
    screen: Option<Spanned<String>>,
    accept_dialogs: Option<bool>,
    isolation: Option<Spanned<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
struct RawPolling {
    timeout: Option<Spanned<f64>>,
    delay: Option<Spanned<f64>>,
}

impl Settings {
    /// Resolves the settings of a run started in `cwd` (absolute).
    ///
    /// The project root is the directory of `overrides.config` when given, else the nearest of
    /// `cwd` and its ancestors holding a `prettyplay.toml`, else `cwd` (and no file is read).
    /// `env` reads an environment variable; an empty value counts as unset.
    pub fn resolve(
        cwd: &Path,
        env: &dyn Fn(&str) -> Option<String>,
        overrides: &Overrides,
    ) -> Result<Settings, ConfigError> {
        let cwd = normalize(cwd);
        let config_file = match &overrides.config {
            Some(path) => {
                let path = normalize(&cwd.join(path));
                match std::fs::metadata(&path) {
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {
                        return Err(ConfigError::NotFound { path });
                    }
                    Err(source) => return Err(ConfigError::Read { path, source }),
                    Ok(_) => Some(path),
                }
            }
            None => cwd
                .ancestors()
                .map(|dir| dir.join(CONFIG_FILE))
                .find(|file| file.is_file()),
        };
        let project_root = config_file
            .as_deref()
            .and_then(Path::parent)
            .map_or_else(|| cwd.clone(), Path::to_path_buf);

        let file_layer = match &config_file {
            Some(path) => {
                tracing::debug!(config = %path.display(), "reading settings file");
                let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
                    path: path.clone(),
                    source,
                })?;
                file_layer(path, &project_root, &text)?
            }
            None => Layer::default(),
        };
        let env_layer = env_layer(&project_root, env)?;
        let cli_layer = cli_layer(&cwd, overrides)?;
        Ok(cli_layer
            .over(env_layer)
            .over(file_layer)
            .finish(project_root, config_file))
    }
}

fn file_layer(path: &Path, root: &Path, text: &str) -> Result<Layer, ConfigError> {
    let file = FileContext::new(path, text);
    let raw: RawFile =
        toml::from_str(text).map_err(|e| file.error(e.span(), e.message().to_owned(), None))?;
    let browser = raw.browser.unwrap_or_default();
    let polling = raw.polling.unwrap_or_default();
    Ok(Layer {
        scenarios: raw.scenarios.map(|p| normalize(&root.join(p))),
        cache_dir: raw.cache_dir.map(|p| normalize(&root.join(p))),
        base_url: browser.base_url,
        executable: browser.executable.map(|p| executable(root, &p)),
        headless: browser.headless,
        browser_timeout: file.checked("browser.timeout", SECONDS_FORM, browser.timeout, seconds)?,
        screen: file.parsed(
            "browser.screen",
            SCREEN_FORMS,
            browser.screen,
            Screen::parse,
        )?,
        accept_dialogs: browser.accept_dialogs,
        isolation: file.parsed(
            "browser.isolation",
            ISOLATION_FORMS,
            browser.isolation,
            parse_isolation,
        )?,
        polling_timeout: file.checked("polling.timeout", SECONDS_FORM, polling.timeout, seconds)?,
        polling_delay: file.checked("polling.delay", SECONDS_FORM, polling.delay, seconds)?,
        llm: LlmLayer::from_file(raw.llm.unwrap_or_default(), &file)?,
        budgets: BudgetsLayer::from_file(raw.budgets.unwrap_or_default(), &file)?,
        run: RunLayer::from_file(raw.run.unwrap_or_default(), &file)?,
    })
}

/// What the `PRETTYPLAY_*` variables say, section by section; an empty variable is unset.
fn env_layer(root: &Path, env: &dyn Fn(&str) -> Option<String>) -> Result<Layer, ConfigError> {
    let mut layer = Layer::default();
    read_env(&mut layer, ENV_VARS, root, env)?;
    read_env(&mut layer.llm, llm_settings::ENV_VARS, root, env)?;
    read_env(
        &mut layer.budgets,
        llm_settings::BUDGETS_ENV_VARS,
        root,
        env,
    )?;
    read_env(&mut layer.run, run_settings::ENV_VARS, root, env)?;
    Ok(layer)
}

/// Sets `layer` from the variables of one section's table, in table order; the first refused
/// value is the error (not echoed for [`llm_settings::SECRET_SHAPED_VARS`]).
fn read_env<L>(
    layer: &mut L,
    vars: &[(&'static str, EnvSetter<L>)],
    root: &Path,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<(), ConfigError> {
    for (var, set) in vars {
        let Some(value) = env(var).filter(|v| !v.is_empty()) else {
            continue;
        };
        set(layer, root, &value).map_err(|expected| ConfigError::Env {
            var: (*var).to_owned(),
            value: if llm_settings::SECRET_SHAPED_VARS.contains(var) {
                "[redacted]".to_owned()
            } else {
                value
            },
            expected,
        })?;
    }
    Ok(())
}

fn cli_layer(cwd: &Path, overrides: &Overrides) -> Result<Layer, ConfigError> {
    let browser_timeout = flag_value("timeout", SECONDS_FORM, overrides.timeout, seconds)?;
    let screen = flag_value(
        "screen",
        SCREEN_FORMS,
        overrides.screen.as_deref(),
        Screen::parse,
    )?;
    Ok(Layer {
        base_url: overrides.base_url.clone(),
        executable: overrides.executable.as_deref().map(|p| executable(cwd, p)),
        headless: overrides.headed.then_some(false),
        browser_timeout,
        screen,
        llm: LlmLayer::from_overrides(overrides)?,
        run: RunLayer::from_overrides(overrides)?,
        ..Layer::default()
    })
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

/// `context` or `browser`, in any case.
fn parse_isolation(value: &str) -> Option<Isolation> {
    match value.trim().to_ascii_lowercase().as_str() {
        "context" => Some(Isolation::Context),
        "browser" => Some(Isolation::Browser),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::config::test_support::{env_of, no_env, project, resolve, resolve_err};

    #[test]
    fn defaults_without_a_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let settings = resolve(dir.path(), &no_env);
        assert_eq!(
            settings,
            Settings {
                project_root: dir.path().to_path_buf(),
                config_file: None,
                scenarios: dir.path().join("scenarios"),
                cache_dir: dir.path().join("cache"),
                browser: BrowserSettings {
                    base_url: None,
                    executable: None,
                    headless: true,
                    timeout: Duration::from_secs(5),
                    screen: Screen::Default,
                    accept_dialogs: true,
                    project_dir: dir.path().to_path_buf(),
                    isolation: Isolation::Context,
                },
                polling: PollingSettings {
                    timeout: None,
                    delay: Duration::from_millis(500),
                },
                llm: LlmSettings {
                    provider: None,
                    model: None,
                    base_url: None,
                    api_key_env: None,
                    timeout: Duration::from_secs(60),
                    max_tokens: 2048,
                    temperature: 0.0,
                    send_screenshots: false,
                    generation_prompt: String::new(),
                    snapshot_budget: 20_000,
                },
                budgets: BudgetSettings {
                    generation: 3,
                    healing: 2,
                },
                run: RunSettings {
                    test_timeout: Duration::from_secs(60),
                    workers: None,
                },
            }
        );
        assert_eq!(settings.llm, LlmSettings::default());
        assert_eq!(settings.budgets, BudgetSettings::default());
        assert_eq!(settings.run, RunSettings::default());
    }

    #[test]
    fn file_values_are_read() {
        let dir = project(
            r#"
scenarios = "tests/ui"
cache_dir = "../shared-cache"

[browser]
base_url = "http://127.0.0.1:8080"
executable = "bin/chrome"
headless = false
timeout = 2.5
screen = "iPhone 13"
accept_dialogs = false
isolation = "browser"

[polling]
timeout = 3
delay = 0.25
"#,
        );
        let root = dir.path();
        let settings = resolve(root, &no_env);
        assert_eq!(settings.config_file, Some(root.join(CONFIG_FILE)));
        assert_eq!(settings.scenarios, root.join("tests/ui"));
        assert_eq!(
            settings.cache_dir,
            root.parent().expect("parent").join("shared-cache")
        );
        assert_eq!(
            settings.browser,
            BrowserSettings {
                base_url: Some("http://127.0.0.1:8080".into()),
                executable: Some(root.join("bin/chrome")),
                headless: false,
                timeout: Duration::from_millis(2500),
                screen: Screen::Device("iPhone 13".into()),
                accept_dialogs: false,
                project_dir: root.to_path_buf(),
                isolation: Isolation::Browser,
            }
        );
        assert_eq!(
            settings.polling,
            PollingSettings {
                timeout: Some(Duration::from_secs(3)),
                delay: Duration::from_millis(250),
            }
        );
    }

    #[test]
    fn bare_executable_name_is_kept_for_path_lookup() {
        let dir = project("[browser]\nexecutable = \"chromium\"\n");
        let settings = resolve(dir.path(), &no_env);
        assert_eq!(settings.browser.executable, Some(PathBuf::from("chromium")));
    }

    #[test]
    fn zero_polling_timeout_is_off() {
        let dir = project("[polling]\ntimeout = 0\n");
        assert_eq!(resolve(dir.path(), &no_env).polling.timeout, None);
    }

    #[test]
    fn env_overrides_file_and_zero_switches_polling_off() {
        let dir = project(
            "scenarios = \"from-file\"\n[browser]\nheadless = false\ntimeout = 1\n\
             base_url = \"http://file\"\n[polling]\ntimeout = 4\ndelay = 1\n",
        );
        let env = env_of(&[
            ("PRETTYPLAY_SCENARIOS", "from-env"),
            ("PRETTYPLAY_CACHE_DIR", "/abs/cache"),
            ("PRETTYPLAY_BROWSER_HEADLESS", "YES"),
            ("PRETTYPLAY_BROWSER_TIMEOUT", " 7 "),
            ("PRETTYPLAY_BROWSER_BASE_URL", ""),
            ("PRETTYPLAY_BROWSER_EXECUTABLE", "/opt/chrome"),
            ("PRETTYPLAY_POLLING_TIMEOUT", "0"),
            ("PRETTYPLAY_POLLING_DELAY", "0.1"),
        ]);
        let settings = resolve(dir.path(), &env);
        assert_eq!(settings.scenarios, dir.path().join("from-env"));
        assert_eq!(settings.cache_dir, PathBuf::from("/abs/cache"));
        assert!(settings.browser.headless);
        assert_eq!(settings.browser.timeout, Duration::from_secs(7));
        // Empty means unset: the file's value stays.
        assert_eq!(settings.browser.base_url.as_deref(), Some("http://file"));
        assert_eq!(
            settings.browser.executable,
            Some(PathBuf::from("/opt/chrome"))
        );
        assert_eq!(settings.polling.timeout, None);
        assert_eq!(settings.polling.delay, Duration::from_millis(100));
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
        let settings = Settings::resolve(dir.path(), &env, &overrides).expect("resolve");
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
    fn nearest_ancestor_with_a_file_is_the_project_root() {
        let dir = project("cache_dir = \"c\"\n");
        let cwd = dir.path().join("a/b");
        fs::create_dir_all(&cwd).expect("mkdir");
        let settings = resolve(&cwd, &no_env);
        assert_eq!(settings.project_root, dir.path());
        assert_eq!(settings.config_file, Some(dir.path().join(CONFIG_FILE)));
        assert_eq!(settings.cache_dir, dir.path().join("c"));
        assert_eq!(settings.scenarios, dir.path().join("scenarios"));
    }

    #[test]
    fn config_flag_picks_the_file_and_its_directory() {
        // The working directory is inside a project of its own: `--config` wins over it.
        let dir = project("scenarios = \"s\"\n");
        let root = dir.path();
        fs::create_dir_all(root.join("work")).expect("mkdir");
        fs::create_dir_all(root.join("conf")).expect("mkdir");
        fs::write(root.join("conf/pp.toml"), "scenarios = \"mine\"\n").expect("write");
        let overrides = Overrides {
            config: Some(PathBuf::from("../conf/./pp.toml")),
            ..Overrides::default()
        };
        let settings = Settings::resolve(&root.join("work"), &no_env, &overrides).expect("resolve");
        assert_eq!(settings.project_root, root.join("conf"));
        assert_eq!(settings.config_file, Some(root.join("conf/pp.toml")));
        assert_eq!(settings.scenarios, root.join("conf/mine"));
        assert_eq!(settings.cache_dir, root.join("conf/cache"));
    }

    #[test]
    fn missing_config_flag_file_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let overrides = Overrides {
            config: Some(PathBuf::from("nope.toml")),
            ..Overrides::default()
        };
        let e = Settings::resolve(dir.path(), &no_env, &overrides).expect_err("missing");
        assert_eq!(
            e.to_string(),
            format!(
                "config file `{}` does not exist",
                dir.path().join("nope.toml").display()
            )
        );
    }

    #[test]
    fn unknown_key_names_key_file_and_position() {
        let dir = project("scenarios = \"s\"\n\n[browser]\nheadles = true\n");
        let e = resolve_err(dir.path(), &no_env);
        let file = dir.path().join(CONFIG_FILE);
        let shown = e.to_string();
        assert!(
            shown.starts_with(&format!(
                "{}:4:1: unknown field `headles`, expected one of ",
                file.display()
            )),
            "{shown}"
        );
        assert!(
            shown.ends_with("\n  |\n4 | headles = true\n  | ^"),
            "{shown}"
        );
    }

    #[test]
    fn wrong_type_and_syntax_errors_point_at_the_value() {
        let dir = project("[browser]\nheadless = \"yes\"\n");
        let e = resolve_err(dir.path(), &no_env);
        assert!(
            matches!(
                &e,
                ConfigError::File {
                    at: Some((2, 12, _)),
                    ..
                }
            ),
            "{e}"
        );
        let dir = project("scenarios = \n");
        assert!(matches!(
            resolve_err(dir.path(), &no_env),
            ConfigError::File {
                at: Some((1, _, _)),
                ..
            }
        ));
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
                "{}:2:11: `browser.timeout` must be a number of seconds >= 0, e.g. 2.5, got -1\n  \
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
    fn bad_timeout_flag_is_an_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let overrides = Overrides {
            timeout: Some(-2.0),
            ..Overrides::default()
        };
        let e = Settings::resolve(dir.path(), &no_env, &overrides).expect_err("bad flag");
        assert_eq!(
            e.to_string(),
            "invalid value `-2` for `--timeout`: expected a number of seconds >= 0, e.g. 2.5"
        );
    }

    /// `[browser] screen` from the file.
    fn file_screen(value: &str) -> Result<Screen, ConfigError> {
        let dir = project(&format!("[browser]\nscreen = {value:?}\n"));
        Settings::resolve(dir.path(), &no_env, &Overrides::default()).map(|s| s.browser.screen)
    }

    #[test]
    fn screen_forms_are_read_from_file_env_and_flag() {
        let cases = [
            ("", Screen::Default),
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
            ("fullscreen", Screen::Fullscreen),
            ("iPhone 13", Screen::Device("iPhone 13".into())),
            ("Pixel 7", Screen::Device("Pixel 7".into())),
        ];
        let dir = tempfile::tempdir().expect("tempdir");
        for (value, expected) in cases {
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
            let settings = Settings::resolve(dir.path(), &no_env, &overrides).expect(value);
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
        let settings = Settings::resolve(dir.path(), &env, &overrides).expect("resolve");
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
        let e = Settings::resolve(dir.path(), &no_env, &overrides).expect_err("bad flag");
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
    fn bad_isolation_names_the_source_and_both_values() {
        let dir = project("[browser]\nisolation = \"process\"\n");
        assert_eq!(
            resolve_err(dir.path(), &no_env).to_string(),
            format!(
                "{}:2:13: `browser.isolation` must be one of context, browser, got \"process\"\n  \
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
                .contains("`browser.isolation` must be one of context, browser, got \"\""),
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
             expected one of context, browser"
        );
    }

    #[test]
    fn env_table_is_well_formed_and_documented() {
        fn names<L>(vars: &[(&'static str, EnvSetter<L>)]) -> Vec<&'static str> {
            vars.iter().map(|(var, _)| *var).collect()
        }
        let docs = include_str!("../../docs/configuration.md");
        let vars = [
            names(ENV_VARS),
            names(llm_settings::ENV_VARS),
            names(llm_settings::BUDGETS_ENV_VARS),
            names(run_settings::ENV_VARS),
        ];
        for var in vars.concat() {
            assert!(var.starts_with("PRETTYPLAY_"), "{var}");
            assert!(
                var.chars().all(|c| c.is_ascii_uppercase() || c == '_'),
                "{var}"
            );
            assert!(docs.contains(var), "{var} is not in docs/configuration.md");
        }
    }
}
