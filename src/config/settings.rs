//! Resolution of [`Settings`] from defaults, `prettyplay.toml`, `PRETTYPLAY_*` environment
//! variables and CLI [`Overrides`], with precedence CLI > env > file > defaults; and
//! [`ConfigError`]s that name the source of a bad value.
//!
//! Every source is first turned into a [`Layer`] (all fields optional, paths already absolute);
//! layers are stacked and the remaining gaps filled from the [`defaults`](super::defaults). This
//! file reads the top level and stacks the sections, each read in a file of its own:
//! `[browser]` and `[polling]` in `browser_settings.rs`, `[llm]` and `[budgets]` in
//! `llm_settings.rs`, `[run]` in `run_settings.rs`. Keys, defaults and variables are documented
//! in `docs/configuration.md`.

use crate::paths::normalize;
use crate::regular_file::{MIB, read_regular_to_string};
use std::io;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::accessibility_settings::{self, AccessibilityLayer, RawAccessibility};
use super::browser_settings::{self, BrowserLayer, RawBrowser};
use super::defaults::{self, CONFIG_FILE};
use super::file_context::FileContext;
use super::generate_settings::{self, GenerateLayer, RawGenerate};
use super::heal_settings::{self, HealLayer, RawHeal};
use super::llm_settings::{self, BudgetsLayer, LlmLayer, RawBudgets, RawLlm};
use super::polling_settings::{self, PollingLayer, RawPolling};
use super::remote_settings::{self, RemoteLayer};
use super::run_settings::{self, RawRun, RunLayer};
use super::sources::Sources;
use super::toml_errors;
use super::value_forms::EnvSetter;
use super::vars::{RawVars, VarSettings};
use super::web_server_settings::{self, FileWebServer, RawWebServers, WebServerLayer};
use super::{
    BrowserSettings, BudgetSettings, ConfigError, HealSettings, LlmSettings, Overrides,
    PollingSettings, RunSettings, WebServerSettings,
};

/// The largest settings file read; a bigger one, or one that is not a regular file, is an error.
pub(crate) const MAX_CONFIG_BYTES: u64 = MIB;

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
    /// `[heal]`: the heal veto.
    pub heal: HealSettings,
    /// `[accessibility]`: the axe-core rules whose violations are accepted.
    pub accessibility: crate::config::AccessibilitySettings,
    /// `[generate]`: the built-in generator's place.
    pub generate: crate::config::GenerateSettings,
    /// `[vars]`: public variable values and the names of secrets.
    pub vars: VarSettings,
    /// `[web_server]` / `[[web_server]]`: started before the first test, in order.
    pub web_servers: Vec<WebServerSettings>,
    /// Which source gave each setting, for errors that say where to change it.
    pub sources: Sources,
}

/// What one source says; `None` leaves the decision to lower sources. Paths are absolute.
#[derive(Debug, Default)]
struct Layer {
    scenarios: Option<PathBuf>,
    cache_dir: Option<PathBuf>,
    /// `[browser]`.
    browser: BrowserLayer,
    /// The remote keys of `[browser]` (`connect`, `cdp`, ...).
    remote: RemoteLayer,
    /// `[polling]`.
    polling: PollingLayer,
    /// `[llm]`.
    llm: LlmLayer,
    /// `[budgets]`.
    budgets: BudgetsLayer,
    /// `[run]`.
    run: RunLayer,
    /// `[heal]`.
    heal: HealLayer,
    /// `[accessibility]`.
    accessibility: AccessibilityLayer,
    /// `[generate]`.
    generate: GenerateLayer,
    /// `[vars]`: only the file has it.
    vars: Option<VarSettings>,
    /// `[web_server]` servers: only the file has them.
    web_servers: Option<Vec<FileWebServer>>,
    /// What the environment says of every web server.
    web_server: WebServerLayer,
}

impl Layer {
    /// `self` where it says something, `lower` elsewhere.
    fn over(self, lower: Layer) -> Layer {
        Layer {
            scenarios: self.scenarios.or(lower.scenarios),
            cache_dir: self.cache_dir.or(lower.cache_dir),
            browser: self.browser.over(lower.browser),
            remote: self.remote.over(lower.remote),
            polling: self.polling.over(lower.polling),
            llm: self.llm.over(lower.llm),
            budgets: self.budgets.over(lower.budgets),
            run: self.run.over(lower.run),
            heal: self.heal.over(lower.heal),
            accessibility: self.accessibility.over(lower.accessibility),
            generate: self.generate.over(lower.generate),
            vars: self.vars.or(lower.vars),
            web_servers: self.web_servers.or(lower.web_servers),
            web_server: self.web_server.over(lower.web_server),
        }
    }

    /// The gaps filled from the defaults; relative defaults are relative to `project_root`.
    /// The dotted names of the keys this source says something of (`browser.executable`), for
    /// [`Sources`]. The remote keys are left out because their layer's fields are not keys.
    fn said(&self) -> Vec<String> {
        let top = [
            ("scenarios", self.scenarios.is_some()),
            ("cache_dir", self.cache_dir.is_some()),
        ];
        let sections = [
            ("browser", self.browser.said()),
            ("polling", self.polling.said()),
            ("llm", self.llm.said()),
            ("budgets", self.budgets.said()),
            ("run", self.run.said()),
            ("heal", self.heal.said()),
            ("accessibility", self.accessibility.said()),
            ("generate", self.generate.said()),
            ("web_server", self.web_server.said()),
        ];
        let top = top
            .into_iter()
            .filter(|(_, said)| *said)
            .map(|(key, _)| key.to_owned());
        let sections = sections.into_iter().flat_map(|(section, keys)| {
            keys.into_iter().map(move |key| format!("{section}.{key}"))
        });
        top.chain(sections).collect()
    }

    /// The gaps filled from the defaults, with the `sources` of the keys that are not.
    fn finish(
        self,
        project_root: PathBuf,
        config_file: Option<PathBuf>,
        sources: Sources,
    ) -> Settings {
        let web_servers: Vec<WebServerSettings> = (self.web_servers.unwrap_or_default())
            .into_iter()
            .map(|server| server.finish(&self.web_server))
            .collect();
        let mut browser = self.browser.finish(self.remote, project_root.clone());
        // Unlike Playwright: the first server's URL is the base URL when none is set.
        if browser.base_url.is_none() {
            browser.base_url = web_servers.first().map(|server| server.url.clone());
        }
        // The app's servers are the app's origins.
        for server in &web_servers {
            browser.allowed_origins.allow_origin_of(&server.url);
        }
        Settings {
            scenarios: self
                .scenarios
                .unwrap_or_else(|| project_root.join(defaults::SCENARIOS)),
            cache_dir: self
                .cache_dir
                .unwrap_or_else(|| project_root.join(defaults::CACHE_DIR)),
            browser,
            polling: self.polling.finish(),
            llm: self.llm.finish(),
            budgets: self.budgets.finish(),
            run: self.run.finish(),
            heal: self.heal.finish(),
            accessibility: self.accessibility.finish(),
            generate: self.generate.finish(),
            vars: self.vars.unwrap_or_default(),
            web_servers,
            project_root,
            config_file,
            sources,
        }
    }
}

/// The environment variables of the top level: `PRETTYPLAY_<KEY>`, where each section's table
/// has `PRETTYPLAY_<SECTION>_<KEY>`. Relative paths are relative to the project root. The
/// section tables are read after this one, by [`env_layer`].
const ENV_VARS: &[(&str, EnvSetter<Layer>)] = &[
    ("PRETTYPLAY_SCENARIOS", |layer, root, value| {
        layer.scenarios = Some(normalize(&root.join(value)));
        Ok(())
    }),
    ("PRETTYPLAY_CACHE_DIR", |layer, root, value| {
        layer.cache_dir = Some(normalize(&root.join(value)));
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
    heal: Option<RawHeal>,
    accessibility: Option<RawAccessibility>,
    generate: Option<RawGenerate>,
    vars: Option<RawVars>,
    web_server: Option<RawWebServers>,
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
                let text = read_regular_to_string(path, MAX_CONFIG_BYTES, "settings files")
                    .map_err(|source| ConfigError::Read {
                        path: path.clone(),
                        source,
                    })?;
                file_layer(path, &project_root, &text)?
            }
            None => Layer::default(),
        };
        let env_layer = env_layer(&project_root, env)?;
        let cli_layer = cli_layer(&cwd, overrides)?;
        let sources = Sources::new(
            (file_layer.said(), config_file.as_deref()),
            env_layer.said(),
            cli_layer.said(),
        );
        let settings =
            cli_layer
                .over(env_layer)
                .over(file_layer)
                .finish(project_root, config_file, sources);
        remote_settings::check(&settings.browser)?;
        Ok(settings)
    }
}

fn file_layer(path: &Path, root: &Path, text: &str) -> Result<Layer, ConfigError> {
    let file = FileContext::new(path, text);
    let raw: RawFile = toml::from_str(text).map_err(|e| {
        let explained = toml_errors::explain(text, e.span().as_ref(), e.message());
        file.error(e.span(), explained.message, explained.hint)
    })?;
    let (browser, remote) = BrowserLayer::from_file(raw.browser.unwrap_or_default(), root, &file)?;
    Ok(Layer {
        scenarios: raw.scenarios.map(|p| normalize(&root.join(p))),
        cache_dir: raw.cache_dir.map(|p| normalize(&root.join(p))),
        browser,
        remote,
        polling: PollingLayer::from_file(raw.polling.unwrap_or_default(), &file)?,
        llm: LlmLayer::from_file(raw.llm.unwrap_or_default(), &file)?,
        budgets: BudgetsLayer::from_file(raw.budgets.unwrap_or_default(), &file)?,
        run: RunLayer::from_file(raw.run.unwrap_or_default(), &file)?,
        heal: HealLayer::from_file(raw.heal.unwrap_or_default()),
        accessibility: AccessibilityLayer::from_file(raw.accessibility.unwrap_or_default(), &file)?,
        generate: GenerateLayer::from_file(raw.generate.unwrap_or_default()),
        vars: Some(VarSettings::from_file(raw.vars.unwrap_or_default(), &file)?),
        web_servers: Some(FileWebServer::from_file(
            raw.web_server.unwrap_or_default(),
            root,
            &file,
        )?),
        web_server: WebServerLayer::default(),
    })
}

/// What the `PRETTYPLAY_*` variables say, section by section; an empty variable is unset.
fn env_layer(root: &Path, env: &dyn Fn(&str) -> Option<String>) -> Result<Layer, ConfigError> {
    let mut layer = Layer::default();
    read_env(&mut layer, ENV_VARS, root, env)?;
    read_env(&mut layer.browser, browser_settings::ENV_VARS, root, env)?;
    read_env(&mut layer.remote, remote_settings::ENV_VARS, root, env)?;
    read_env(
        &mut layer.polling,
        polling_settings::POLLING_ENV_VARS,
        root,
        env,
    )?;
    read_env(&mut layer.llm, llm_settings::ENV_VARS, root, env)?;
    read_env(
        &mut layer.budgets,
        llm_settings::BUDGETS_ENV_VARS,
        root,
        env,
    )?;
    read_env(&mut layer.run, run_settings::ENV_VARS, root, env)?;
    read_env(&mut layer.heal, heal_settings::ENV_VARS, root, env)?;
    read_env(
        &mut layer.accessibility,
        accessibility_settings::ENV_VARS,
        root,
        env,
    )?;
    read_env(&mut layer.generate, generate_settings::ENV_VARS, root, env)?;
    read_env(
        &mut layer.web_server,
        web_server_settings::ENV_VARS,
        root,
        env,
    )?;
    read_env(
        &mut layer.web_server,
        web_server_settings::CI_ENV_VARS,
        root,
        env,
    )?;
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
            value: if llm_settings::SECRET_SHAPED_VARS.contains(var)
                || remote_settings::SECRET_SHAPED_VARS.contains(var)
            {
                "[redacted]".to_owned()
            } else {
                value
            },
            expected,
        })?;
    }
    Ok(())
}

/// What the flags say; relative paths are relative to `cwd`.
fn cli_layer(cwd: &Path, overrides: &Overrides) -> Result<Layer, ConfigError> {
    Ok(Layer {
        browser: BrowserLayer::from_overrides(cwd, overrides)?,
        remote: RemoteLayer::from_overrides(&overrides.browsers)?,
        llm: LlmLayer::from_overrides(overrides)?,
        run: RunLayer::from_overrides(overrides)?,
        heal: HealLayer::from_overrides(overrides),
        accessibility: AccessibilityLayer::from_overrides(overrides)?,
        ..Layer::default()
    })
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::time::Duration;

    use super::*;
    use crate::config::Source;
    use crate::config::test_support::{
        env_of, no_env, project, resolve, resolve_err, resolve_with,
    };
    use crate::config::{AllowedOrigins, BrowserName, Isolation, Screen};

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
                    slow_mo: Duration::ZERO,
                    screen: Screen::Default,
                    accept_dialogs: true,
                    project_dir: dir.path().to_path_buf(),
                    isolation: Isolation::Context,
                    remote: None,
                    name: BrowserName::Chromium,
                    browsers: vec![BrowserName::Chromium],
                    allowed_origins: AllowedOrigins::Only {
                        origins: vec![],
                        schemes: vec!["about".into(), "data".into(), "blob".into()],
                    },
                },
                polling: PollingSettings {
                    timeout: None,
                    delay: Duration::from_millis(500),
                    optional_timeout: Duration::from_secs(2),
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
                    retries: 0,
                    fail_on_flaky: false,
                },
                heal: HealSettings { veto: true },
                accessibility: crate::config::AccessibilitySettings::default(),
                generate: crate::config::GenerateSettings::default(),
                vars: crate::config::VarSettings::default(),
                web_servers: Vec::new(),
                sources: Sources::default(),
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
slow_mo = 0.25
screen = "iPhone 13"
accept_dialogs = false
isolation = "browser"
allowed_origins = ["https://cdn.example.com", "file:"]

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
                slow_mo: Duration::from_millis(250),
                screen: Screen::Device("iPhone 13".into()),
                accept_dialogs: false,
                project_dir: root.to_path_buf(),
                isolation: Isolation::Browser,
                remote: None,
                name: BrowserName::Chromium,
                browsers: vec![BrowserName::Chromium],
                allowed_origins: AllowedOrigins::Only {
                    origins: vec![
                        "http://127.0.0.1:8080".into(),
                        "https://cdn.example.com".into()
                    ],
                    schemes: vec!["about".into(), "data".into(), "blob".into(), "file".into()],
                },
            }
        );
        assert_eq!(
            settings.polling,
            PollingSettings {
                timeout: Some(Duration::from_secs(3)),
                delay: Duration::from_millis(250),
                optional_timeout: Duration::from_secs(2),
            }
        );
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

    /// What resolving with `--config` naming `path` fails with, within 10 s (a read that never
    /// ends fails the test instead of hanging it).
    fn config_read_error(cwd: &Path, path: &Path) -> String {
        let (cwd, path) = (cwd.to_path_buf(), path.to_path_buf());
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let overrides = Overrides {
                config: Some(path),
                ..Overrides::default()
            };
            // The receiver gave up only if the test already failed.
            tx.send(Settings::resolve(&cwd, &no_env, &overrides)).ok();
        });
        let e = rx
            .recv_timeout(Duration::from_secs(10))
            .expect("resolve returned within 10 s")
            .expect_err("refused");
        let ConfigError::Read { source, .. } = &e else {
            panic!("expected a read error, got {e:?}");
        };
        format!("{e}: {source}")
    }

    #[cfg(unix)]
    #[test]
    fn a_config_file_that_is_a_device_or_a_fifo_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let link = dir.path().join("zero.toml");
        std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
        assert_eq!(
            config_read_error(dir.path(), &link),
            format!(
                "cannot read `{}`: it is a character device, not a regular file: settings files \
                 must be regular files (or symbolic links to them)",
                link.display()
            )
        );
        let fifo = dir.path().join("pipe.toml");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("run mkfifo");
        assert!(status.success());
        let shown = config_read_error(dir.path(), &fifo);
        assert!(shown.contains("it is a FIFO (named pipe)"), "{shown}");
    }

    #[test]
    fn a_config_file_over_1_mib_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        let big = dir.path().join("big.toml");
        fs::File::create(&big)
            .and_then(|f| f.set_len(MAX_CONFIG_BYTES + 1))
            .expect("create");
        let shown = config_read_error(dir.path(), &big);
        assert!(
            shown.contains(
                "it is 1048577 bytes, over the limit of 1048576 bytes (1 MiB) for settings files"
            ),
            "{shown}"
        );
    }

    #[test]
    fn unknown_key_names_key_file_and_position() {
        let dir = project("scenarios = \"s\"\n\n[browser]\nheadles = true\n");
        let e = resolve_err(dir.path(), &no_env);
        let file = dir.path().join(CONFIG_FILE);
        let shown = e.to_string();
        assert_eq!(
            shown,
            format!(
                "{}:4:1: unknown key `headles`\n  |\n4 | headles = true\n  | ^\n  = hint: did \
                 you mean `headless`?",
                file.display()
            )
        );
    }

    #[test]
    fn sources_name_the_flag_the_variable_or_the_file_of_each_key() {
        let dir = project(
            "scenarios = \"s\"\n[browser]\nexecutable = \"bin/chrome\"\ntimeout = 2\n\
             [llm]\nbase_url = \"http://file\"\n",
        );
        let env = env_of(&[
            ("PRETTYPLAY_BROWSER_TIMEOUT", "3"),
            ("PRETTYPLAY_LLM_MODEL", "m"),
        ]);
        let overrides = Overrides {
            executable: Some(PathBuf::from("/opt/chrome")),
            headed: true,
            ..Overrides::default()
        };
        let sources = resolve_with(dir.path(), &env, overrides)
            .expect("settings")
            .sources;
        let file = Source::File(dir.path().join(CONFIG_FILE));
        for (key, source) in [
            ("browser.executable", Some(Source::Flag("--executable"))),
            ("browser.headless", Some(Source::Flag("--headed"))),
            (
                "browser.timeout",
                Some(Source::Env("PRETTYPLAY_BROWSER_TIMEOUT".into())),
            ),
            (
                "llm.model",
                Some(Source::Env("PRETTYPLAY_LLM_MODEL".into())),
            ),
            ("llm.base_url", Some(file.clone())),
            ("scenarios", Some(file)),
            ("browser.screen", None),
        ] {
            assert_eq!(sources.of(key), source.as_ref(), "{key}");
        }
    }

    /// Every key a flag can set has its flag in the table errors name it from.
    #[test]
    fn every_key_the_flags_set_has_a_flag_to_name() {
        let overrides = Overrides {
            config: None,
            base_url: Some("http://x".into()),
            headed: true,
            executable: Some(PathBuf::from("chromium")),
            browsers: vec![],
            timeout: Some(1.0),
            slow_mo: Some(1.0),
            screen: Some("1x1".into()),
            llm_provider: Some("openai".into()),
            llm_model: Some("m".into()),
            llm_base_url: Some("http://x".into()),
            workers: Some(1),
            test_timeout: Some(1.0),
            retries: Some(1),
            fail_on_flaky_tests: true,
            no_heal_veto: true,
            accept_violations: vec!["label=legacy form".into()],
        };
        let said = cli_layer(Path::new("/"), &overrides).expect("flags").said();
        assert_eq!(said.len(), 15, "{said:?}");
        for key in said {
            assert!(
                super::super::overrides::flag_of(&key).is_some(),
                "{key} has no flag"
            );
        }
    }

    /// Whole errors for a mistyped section and key and for values of the wrong type, as the
    /// user reads them.
    #[test]
    fn mistakes_in_the_file_are_explained_in_its_own_words() {
        let mut shown = String::new();
        for toml in [
            "[brwoser]\nheadless = true\n",
            "[browser]\ntimout = 5\n",
            "[browser]\ntimeout = \"5s\"\n",
            "[browser]\nheadless = \"yes\"\n",
            "[run]\nworkers = 2.5\n",
            "[run]\nparallel = 4\n",
            "[generate]\nbuiltin = \"fist\"\n",
        ] {
            let dir = project(toml);
            let error = resolve_err(dir.path(), &no_env).to_string();
            let error = error.replace(&dir.path().display().to_string(), "[project]");
            shown.push_str(&format!("{toml}---\n{error}\n\n"));
        }
        insta::assert_snapshot!(shown);
    }

    #[test]
    fn a_syntax_error_never_quotes_a_key_in_the_base_url_or_a_secret_key() {
        for toml in [
            "[llm]\nbase_url = \"http://127.0.0.1:1/v1?key=SECRET-123\n",
            "[llm]\napi_key = \"SECRET-123\"\n",
        ] {
            let shown = resolve_err(project(toml).path(), &no_env).to_string();
            assert!(!shown.contains("SECRET-123"), "{shown}");
            assert!(shown.contains("[redacted]"), "{shown}");
        }
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
    fn env_table_is_well_formed_and_documented() {
        fn names<L>(vars: &[(&'static str, EnvSetter<L>)]) -> Vec<&'static str> {
            vars.iter().map(|(var, _)| *var).collect()
        }
        let docs = include_str!("../../docs/configuration.md");
        let vars = [
            names(ENV_VARS),
            names(browser_settings::ENV_VARS),
            names(remote_settings::ENV_VARS),
            names(polling_settings::POLLING_ENV_VARS),
            names(llm_settings::ENV_VARS),
            names(llm_settings::BUDGETS_ENV_VARS),
            names(run_settings::ENV_VARS),
            names(heal_settings::ENV_VARS),
            names(accessibility_settings::ENV_VARS),
            names(generate_settings::ENV_VARS),
            names(web_server_settings::ENV_VARS),
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
