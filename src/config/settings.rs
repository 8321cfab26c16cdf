//! Resolution of [`Settings`] from defaults, `prettyplay.toml`, `PRETTYPLAY_*` environment
//! variables and CLI [`Overrides`], with precedence CLI > env > file > defaults; and
//! [`ConfigError`].
//!
//! Every source is first turned into a [`Layer`] (all fields optional, paths already absolute);
//! layers are stacked and the remaining gaps filled from the defaults below. Keys, defaults and
//! variables are documented in `docs/configuration.md`.

use std::fmt;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use super::screen::SCREEN_FORMS;
use super::{BrowserSettings, BudgetSettings, LlmSettings, PollingSettings, ProviderKind, Screen};

/// Name of the settings file looked up in the working directory and its ancestors.
pub(crate) const CONFIG_FILE: &str = "prettyplay.toml";

/// The defaults, in one place (mirrored in `docs/configuration.md`).
mod defaults {
    use std::time::Duration;

    use super::Screen;

    /// `scenarios`, relative to the project root.
    pub(super) const SCENARIOS: &str = "scenarios";
    /// `cache_dir`, relative to the project root.
    pub(super) const CACHE_DIR: &str = "cache";
    /// `browser.headless`.
    pub(super) const HEADLESS: bool = true;
    /// `browser.timeout`.
    pub(super) const BROWSER_TIMEOUT: Duration = Duration::from_secs(5);
    /// `browser.screen`: Playwright's default viewport.
    pub(super) const SCREEN: Screen = Screen::Default;
    /// `browser.accept_dialogs`.
    pub(super) const ACCEPT_DIALOGS: bool = true;
    /// `polling.timeout`: off.
    pub(super) const POLLING_TIMEOUT: Option<Duration> = None;
    /// `polling.delay`.
    pub(super) const POLLING_DELAY: Duration = Duration::from_millis(500);
    /// `llm.timeout`, per attempt.
    pub(super) const LLM_TIMEOUT: Duration = Duration::from_secs(60);
    /// `llm.max_tokens`.
    pub(super) const MAX_TOKENS: u32 = 2048;
    /// `llm.temperature`.
    pub(super) const TEMPERATURE: f64 = 0.0;
    /// `llm.send_screenshots`.
    pub(super) const SEND_SCREENSHOTS: bool = false;
    /// `llm.generation_prompt`: no user instructions.
    pub(super) const GENERATION_PROMPT: &str = "";
    /// `llm.snapshot_budget`, in characters.
    pub(super) const SNAPSHOT_BUDGET: usize = 20_000;
    /// `budgets.generation`.
    pub(super) const GENERATION_BUDGET: u32 = 3;
    /// `budgets.healing`.
    pub(super) const HEALING_BUDGET: u32 = 2;
}

/// The defaults of `[llm]`: no provider (`provider`, `model`, `base_url` and `api_key_env` unset;
/// a provider fills in its own base URL and key variable).
impl Default for LlmSettings {
    fn default() -> Self {
        LlmSettings {
            provider: None,
            model: None,
            base_url: None,
            api_key_env: None,
            timeout: defaults::LLM_TIMEOUT,
            max_tokens: defaults::MAX_TOKENS,
            temperature: defaults::TEMPERATURE,
            send_screenshots: defaults::SEND_SCREENSHOTS,
            generation_prompt: defaults::GENERATION_PROMPT.to_owned(),
            snapshot_budget: defaults::SNAPSHOT_BUDGET,
        }
    }
}

/// The defaults of `[budgets]`.
impl Default for BudgetSettings {
    fn default() -> Self {
        BudgetSettings {
            generation: defaults::GENERATION_BUDGET,
            healing: defaults::HEALING_BUDGET,
        }
    }
}

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
}

/// Settings given on the command line; filled by the CLI module (the only one that knows clap).
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    /// `--config PATH`: read this file (relative to the working directory); its directory is the
    /// project root.
    pub config: Option<PathBuf>,
    pub base_url: Option<String>,
    /// `--headed`: `headless = false`. `false` leaves the other sources in charge.
    pub headed: bool,
    /// Relative to the working directory when it has a directory part; a bare name is looked up on
    /// `PATH`.
    pub executable: Option<PathBuf>,
    /// `browser.timeout`, in seconds.
    pub timeout: Option<f64>,
    /// `--screen VALUE`: `browser.screen`, in any of its forms (an empty value means Playwright's
    /// default viewport, overriding lower sources).
    pub screen: Option<String>,
    /// `--llm-provider NAME`: `llm.provider` (`openai` or `anthropic`).
    pub llm_provider: Option<String>,
    /// `--model NAME`: `llm.model`.
    pub llm_model: Option<String>,
    /// `--llm-base-url URL`: `llm.base_url`.
    pub llm_base_url: Option<String>,
}

/// An error while finding, reading or validating settings.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// `--config PATH` names nothing.
    #[error("config file `{}` does not exist", .path.display())]
    NotFound { path: PathBuf },
    /// The settings file exists but cannot be read (or is not UTF-8).
    #[error("cannot read `{}`", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The settings file is not valid TOML, has an unknown key or a wrongly typed or out-of-range
    /// value. Displayed as `file:line:col: message`, the offending
    /// line, and an optional hint.
    #[error("{}", Located::new(.path, .at.as_ref(), .message, .hint.as_deref()))]
    File {
        path: PathBuf,
        /// 1-based line and character column, and the line's text, where known.
        at: Option<(usize, usize, String)>,
        message: String,
        hint: Option<String>,
    },
    /// A `PRETTYPLAY_*` variable holds a value of the wrong form.
    #[error("environment variable `{var}` has invalid value `{value}`: expected {expected}")]
    Env {
        var: String,
        value: String,
        expected: &'static str,
    },
    /// A command-line override holds a value of the wrong form.
    #[error("invalid value `{value}` for `--{flag}`: expected {expected}")]
    Flag {
        flag: &'static str,
        value: String,
        expected: &'static str,
    },
}

/// Accepted forms of a boolean environment variable (compared case-insensitively).
const BOOL_FORMS: &str = "one of true, false, 1, 0, yes, no";
/// Accepted form of a duration anywhere.
const SECONDS_FORM: &str = "a number of seconds >= 0, e.g. 2.5";
/// Accepted form of `llm.timeout`.
const POSITIVE_SECONDS_FORM: &str = "a number of seconds > 0, e.g. 60";
/// Accepted forms of `llm.provider` (compared case-insensitively).
const PROVIDER_FORMS: &str = "one of openai, anthropic";
/// Accepted form of `llm.max_tokens`.
const MAX_TOKENS_FORM: &str = "a whole number from 1 to 4294967295";
/// Accepted form of `llm.temperature`.
const TEMPERATURE_FORM: &str = "a number from 0 to 2, e.g. 0.2";
/// Accepted form of counts: `llm.snapshot_budget`, `budgets.*`.
const COUNT_FORM: &str = "a whole number >= 0";
/// Accepted form of `llm.api_key_env`. The value is never echoed: it might be the key itself.
const KEY_ENV_FORM: &str = "the name of an environment variable (letters, digits and _, not \
                            starting with a digit), not the key itself";

/// What one source says; `None` leaves the decision to lower sources. Paths are absolute, except a
/// bare executable name which is looked up on `PATH`. A zero polling timeout is kept as
/// `Some(ZERO)` so it can switch off a timeout set by a lower source.
#[derive(Debug, Default)]
struct Layer {
    scenarios: Option<PathBuf>,
    cache_dir: Option<PathBuf>,
    base_url: Option<String>,
    executable: Option<PathBuf>,
    headless: Option<bool>,
    browser_timeout: Option<Duration>,
    screen: Option<Screen>,
    accept_dialogs: Option<bool>,
    polling_timeout: Option<Duration>,
    polling_delay: Option<Duration>,
    llm_provider: Option<ProviderKind>,
    llm_model: Option<String>,
    llm_base_url: Option<String>,
    llm_api_key_env: Option<String>,
    llm_timeout: Option<Duration>,
    llm_max_tokens: Option<u32>,
    llm_temperature: Option<f64>,
    llm_send_screenshots: Option<bool>,
    llm_generation_prompt: Option<String>,
    llm_snapshot_budget: Option<usize>,
    generation_budget: Option<u32>,
    healing_budget: Option<u32>,
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
            polling_timeout: self.polling_timeout.or(lower.polling_timeout),
            polling_delay: self.polling_delay.or(lower.polling_delay),
            llm_provider: self.llm_provider.or(lower.llm_provider),
            llm_model: self.llm_model.or(lower.llm_model),
            llm_base_url: self.llm_base_url.or(lower.llm_base_url),
            llm_api_key_env: self.llm_api_key_env.or(lower.llm_api_key_env),
            llm_timeout: self.llm_timeout.or(lower.llm_timeout),
            llm_max_tokens: self.llm_max_tokens.or(lower.llm_max_tokens),
            llm_temperature: self.llm_temperature.or(lower.llm_temperature),
            llm_send_screenshots: self.llm_send_screenshots.or(lower.llm_send_screenshots),
            llm_generation_prompt: self.llm_generation_prompt.or(lower.llm_generation_prompt),
            llm_snapshot_budget: self.llm_snapshot_budget.or(lower.llm_snapshot_budget),
            generation_budget: self.generation_budget.or(lower.generation_budget),
            healing_budget: self.healing_budget.or(lower.healing_budget),
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
                project_dir: project_root.clone(),
            },
            polling: PollingSettings {
                timeout: self
                    .polling_timeout
                    .or(defaults::POLLING_TIMEOUT)
                    .filter(|t| !t.is_zero()),
                delay: self.polling_delay.unwrap_or(defaults::POLLING_DELAY),
            },
            llm: LlmSettings {
                provider: self.llm_provider,
                model: self.llm_model,
                base_url: self.llm_base_url,
                api_key_env: self.llm_api_key_env,
                timeout: self.llm_timeout.unwrap_or(defaults::LLM_TIMEOUT),
                max_tokens: self.llm_max_tokens.unwrap_or(defaults::MAX_TOKENS),
                temperature: self.llm_temperature.unwrap_or(defaults::TEMPERATURE),
                send_screenshots: self
                    .llm_send_screenshots
                    .unwrap_or(defaults::SEND_SCREENSHOTS),
                generation_prompt: self
                    .llm_generation_prompt
                    .unwrap_or_else(|| defaults::GENERATION_PROMPT.to_owned()),
                snapshot_budget: self
                    .llm_snapshot_budget
                    .unwrap_or(defaults::SNAPSHOT_BUDGET),
            },
            budgets: BudgetSettings {
                generation: self
                    .generation_budget
                    .unwrap_or(defaults::GENERATION_BUDGET),
                healing: self.healing_budget.unwrap_or(defaults::HEALING_BUDGET),
            },
            project_root,
            config_file,
        }
    }
}

/// Sets one key of a layer from an environment value; `Err` holds the accepted forms.
type EnvSetter = fn(&mut Layer, &Path, &str) -> Result<(), &'static str>;

/// Every environment variable: `PRETTYPLAY_<KEY>` for top-level keys,
/// `PRETTYPLAY_<SECTION>_<KEY>` for section keys. Relative paths are relative to the project root.
const ENV_VARS: &[(&str, EnvSetter)] = &[
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
    ("PRETTYPLAY_POLLING_TIMEOUT", |layer, _, value| {
        layer.polling_timeout = Some(parse_seconds(value).ok_or(SECONDS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_POLLING_DELAY", |layer, _, value| {
        layer.polling_delay = Some(parse_seconds(value).ok_or(SECONDS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_LLM_PROVIDER", |layer, _, value| {
        layer.llm_provider = Some(parse_provider(value).ok_or(PROVIDER_FORMS)?);
        Ok(())
    }),
    ("PRETTYPLAY_LLM_MODEL", |layer, _, value| {
        layer.llm_model = Some(value.trim().to_owned());
        Ok(())
    }),
    ("PRETTYPLAY_LLM_BASE_URL", |layer, _, value| {
        layer.llm_base_url = Some(value.trim().to_owned());
        Ok(())
    }),
    ("PRETTYPLAY_LLM_API_KEY_ENV", |layer, _, value| {
        let name = value.trim();
        layer.llm_api_key_env = Some(
            is_env_name(name)
                .then(|| name.to_owned())
                .ok_or(KEY_ENV_FORM)?,
        );
        Ok(())
    }),
    ("PRETTYPLAY_LLM_TIMEOUT", |layer, _, value| {
        let timeout = parse_seconds(value).filter(|t| !t.is_zero());
        layer.llm_timeout = Some(timeout.ok_or(POSITIVE_SECONDS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_LLM_MAX_TOKENS", |layer, _, value| {
        let max_tokens = value.trim().parse().ok().filter(|n| *n >= 1);
        layer.llm_max_tokens = Some(max_tokens.ok_or(MAX_TOKENS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_LLM_TEMPERATURE", |layer, _, value| {
        let temperature = value.trim().parse().ok().and_then(temperature);
        layer.llm_temperature = Some(temperature.ok_or(TEMPERATURE_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_LLM_SEND_SCREENSHOTS", |layer, _, value| {
        layer.llm_send_screenshots = Some(parse_bool(value).ok_or(BOOL_FORMS)?);
        Ok(())
    }),
    // Taken as is: instructions may start or end with blank lines on purpose.
    ("PRETTYPLAY_LLM_GENERATION_PROMPT", |layer, _, value| {
        layer.llm_generation_prompt = Some(value.to_owned());
        Ok(())
    }),
    ("PRETTYPLAY_LLM_SNAPSHOT_BUDGET", |layer, _, value| {
        layer.llm_snapshot_budget = Some(value.trim().parse().map_err(|_| COUNT_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_BUDGETS_GENERATION", |layer, _, value| {
        layer.generation_budget = Some(value.trim().parse().map_err(|_| COUNT_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_BUDGETS_HEALING", |layer, _, value| {
        layer.healing_budget = Some(value.trim().parse().map_err(|_| COUNT_FORM)?);
        Ok(())
    }),
];

/// Environment variables whose invalid value is not echoed in errors.
const SECRET_SHAPED_VARS: &[&str] = &["PRETTYPLAY_LLM_API_KEY_ENV"];

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
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
struct RawPolling {
    timeout: Option<Spanned<f64>>,
    delay: Option<Spanned<f64>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
struct RawLlm {
    provider: Option<Spanned<String>>,
    model: Option<String>,
    base_url: Option<String>,
    api_key_env: Option<Spanned<String>>,
    timeout: Option<Spanned<f64>>,
    max_tokens: Option<Spanned<i64>>,
    temperature: Option<Spanned<f64>>,
    send_screenshots: Option<bool>,
    generation_prompt: Option<String>,
    snapshot_budget: Option<Spanned<i64>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
struct RawBudgets {
    generation: Option<Spanned<i64>>,
    healing: Option<Spanned<i64>>,
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
    let error = |span: Option<std::ops::Range<usize>>, message: String, hint: Option<String>| {
        ConfigError::File {
            path: path.to_path_buf(),
            at: span.map(|span| position(text, span.start)),
            message,
            hint,
        }
    };
    let raw: RawFile =
        toml::from_str(text).map_err(|e| error(e.span(), e.message().to_owned(), None))?;
    let seconds = |key: &str, value: Option<Spanned<f64>>| match value {
        None => Ok(None),
        Some(value) => match seconds(*value.get_ref()) {
            Some(duration) => Ok(Some(duration)),
            None => Err(error(
                Some(value.span()),
                format!("`{key}` must be {SECONDS_FORM}, got {}", value.get_ref()),
                None,
            )),
        },
    };
    let invalid = |key: &str, form: &str, span: std::ops::Range<usize>, got: String| {
        error(
            Some(span),
            format!("`{key}` must be {form}, got {got}"),
            None,
        )
    };
    let browser = raw.browser.unwrap_or_default();
    let polling = raw.polling.unwrap_or_default();
    let llm = raw.llm.unwrap_or_default();
    let budgets = raw.budgets.unwrap_or_default();
    let llm_provider = match llm.provider {
        None => None,
        Some(value) => Some(parse_provider(value.get_ref()).ok_or_else(|| {
            error(
                Some(value.span()),
                format!(
                    "`llm.provider` must be {PROVIDER_FORMS}, got {:?}",
                    value.get_ref()
                ),
                None,
            )
        })?),
    };
    let llm_api_key_env = match llm.api_key_env {
        None => None,
        Some(value) if is_env_name(value.get_ref().trim()) => {
            Some(value.get_ref().trim().to_owned())
        }
        // Neither the value nor its line is shown: it may be the key itself.
        Some(value) => {
            return Err(error(
                None,
                format!(
                    "line {}: `llm.api_key_env` must be {KEY_ENV_FORM}",
                    position(text, value.span().start).0
                ),
                Some("set the key in that environment variable, never in this file".into()),
            ));
        }
    };
    let llm_timeout =
        checked(llm.timeout, |t| self::seconds(t).filter(|t| !t.is_zero())).map_err(|v| {
            invalid(
                "llm.timeout",
                POSITIVE_SECONDS_FORM,
                v.span(),
                v.get_ref().to_string(),
            )
        })?;
    let llm_temperature = checked(llm.temperature, temperature).map_err(|v| {
        invalid(
            "llm.temperature",
            TEMPERATURE_FORM,
            v.span(),
            v.get_ref().to_string(),
        )
    })?;
    let llm_max_tokens = checked(llm.max_tokens, |n| {
        u32::try_from(n).ok().filter(|n| *n >= 1)
    })
    .map_err(|v| {
        invalid(
            "llm.max_tokens",
            MAX_TOKENS_FORM,
            v.span(),
            v.get_ref().to_string(),
        )
    })?;
    let llm_snapshot_budget =
        checked(llm.snapshot_budget, |n| usize::try_from(n).ok()).map_err(|v| {
            invalid(
                "llm.snapshot_budget",
                COUNT_FORM,
                v.span(),
                v.get_ref().to_string(),
            )
        })?;
    let generation_budget =
        checked(budgets.generation, |n| u32::try_from(n).ok()).map_err(|v| {
            invalid(
                "budgets.generation",
                COUNT_FORM,
                v.span(),
                v.get_ref().to_string(),
            )
        })?;
    let healing_budget = checked(budgets.healing, |n| u32::try_from(n).ok()).map_err(|v| {
        invalid(
            "budgets.healing",
            COUNT_FORM,
            v.span(),
            v.get_ref().to_string(),
        )
    })?;
    let screen = match browser.screen {
        None => None,
        Some(value) => Some(Screen::parse(value.get_ref()).ok_or_else(|| {
            error(
                Some(value.span()),
                format!(
                    "`browser.screen` must be {SCREEN_FORMS}, got {:?}",
                    value.get_ref()
                ),
                None,
            )
        })?),
    };
    Ok(Layer {
        scenarios: raw.scenarios.map(|p| normalize(&root.join(p))),
        cache_dir: raw.cache_dir.map(|p| normalize(&root.join(p))),
        base_url: browser.base_url,
        executable: browser.executable.map(|p| executable(root, &p)),
        headless: browser.headless,
        browser_timeout: seconds("browser.timeout", browser.timeout)?,
        screen,
        accept_dialogs: browser.accept_dialogs,
        polling_timeout: seconds("polling.timeout", polling.timeout)?,
        polling_delay: seconds("polling.delay", polling.delay)?,
        llm_provider,
        llm_model: llm.model,
        llm_base_url: llm.base_url,
        llm_api_key_env,
        llm_timeout,
        llm_max_tokens,
        llm_temperature,
        llm_send_screenshots: llm.send_screenshots,
        llm_generation_prompt: llm.generation_prompt,
        llm_snapshot_budget,
        generation_budget,
        healing_budget,
    })
}

/// What `check` makes of a file value, or the value back (with its span) when it refuses it.
fn checked<U: Copy, T>(
    value: Option<Spanned<U>>,
    check: impl Fn(U) -> Option<T>,
) -> Result<Option<T>, Spanned<U>> {
    match value {
        None => Ok(None),
        Some(value) => check(*value.get_ref()).map(Some).ok_or(value),
    }
}

fn env_layer(root: &Path, env: &dyn Fn(&str) -> Option<String>) -> Result<Layer, ConfigError> {
    let mut layer = Layer::default();
    for (var, set) in ENV_VARS {
        let Some(value) = env(var).filter(|v| !v.is_empty()) else {
            continue;
        };
        set(&mut layer, root, &value).map_err(|expected| ConfigError::Env {
            var: (*var).to_owned(),
            value: if SECRET_SHAPED_VARS.contains(var) {
                "[redacted]".to_owned()
            } else {
                value
            },
            expected,
        })?;
    }
    Ok(layer)
}

fn cli_layer(cwd: &Path, overrides: &Overrides) -> Result<Layer, ConfigError> {
    let browser_timeout = match overrides.timeout {
        None => None,
        Some(value) => Some(seconds(value).ok_or_else(|| ConfigError::Flag {
            flag: "timeout",
            value: value.to_string(),
            expected: SECONDS_FORM,
        })?),
    };
    let screen = match &overrides.screen {
        None => None,
        Some(value) => Some(Screen::parse(value).ok_or_else(|| ConfigError::Flag {
            flag: "screen",
            value: value.clone(),
            expected: SCREEN_FORMS,
        })?),
    };
    let llm_provider = match &overrides.llm_provider {
        None => None,
        Some(value) => Some(parse_provider(value).ok_or_else(|| ConfigError::Flag {
            flag: "llm-provider",
            value: value.clone(),
            expected: PROVIDER_FORMS,
        })?),
    };
    Ok(Layer {
        base_url: overrides.base_url.clone(),
        executable: overrides.executable.as_deref().map(|p| executable(cwd, p)),
        headless: overrides.headed.then_some(false),
        browser_timeout,
        screen,
        llm_provider,
        llm_model: overrides.llm_model.clone(),
        llm_base_url: overrides.llm_base_url.clone(),
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

fn parse_bool(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" => Some(true),
        "false" | "0" | "no" => Some(false),
        _ => None,
    }
}

/// `openai` or `anthropic`, in any case.
fn parse_provider(value: &str) -> Option<ProviderKind> {
    match value.trim().to_ascii_lowercase().as_str() {
        "openai" => Some(ProviderKind::OpenAi),
        "anthropic" => Some(ProviderKind::Anthropic),
        _ => None,
    }
}

/// A temperature both wire formats could accept: finite, from 0 to 2 (Anthropic's range, 0 to
/// 1, is checked when its provider is built).
fn temperature(value: f64) -> Option<f64> {
    (value.is_finite() && (0.0..=2.0).contains(&value)).then_some(value)
}

/// Whether `name` has the usual form of an environment variable's name. Most API keys do not
/// (they hold `-`), so a key pasted in place of its variable's name is refused, unechoed.
fn is_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn parse_seconds(value: &str) -> Option<Duration> {
    value.trim().parse::<f64>().ok().and_then(seconds)
}

/// A finite, non-negative number of seconds that fits a [`Duration`].
fn seconds(value: f64) -> Option<Duration> {
    if value.is_finite() && value >= 0.0 {
        Duration::try_from_secs_f64(value).ok()
    } else {
        None
    }
}

/// 1-based line and character column of a byte offset, and that line's text.
fn position(text: &str, offset: usize) -> (usize, usize, String) {
    let offset = offset.min(text.len());
    // Back off to a char boundary so slicing cannot panic on a span inside a character.
    let offset = (0..=offset)
        .rev()
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(0);
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count() + 1;
    let col = before[line_start..].chars().count() + 1;
    let rest = &text[line_start..];
    let line_text = rest.split('\n').next().unwrap_or("");
    let line_text = line_text.strip_suffix('\r').unwrap_or(line_text);
    (line, col, line_text.to_owned())
}

/// Renders [`ConfigError::File`]: `file:line:col: message`, the line with a caret, the hint.
struct Located<'a> {
    path: &'a Path,
    at: Option<&'a (usize, usize, String)>,
    message: &'a str,
    hint: Option<&'a str>,
}

impl<'a> Located<'a> {
    fn new(
        path: &'a Path,
        at: Option<&'a (usize, usize, String)>,
        message: &'a str,
        hint: Option<&'a str>,
    ) -> Self {
        Located {
            path,
            at,
            message,
            hint,
        }
    }
}

impl fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        let Some((line, col, text)) = self.at else {
            write!(f, "{path}: {}", self.message)?;
            if let Some(hint) = self.hint {
                write!(f, "\n  = hint: {hint}")?;
            }
            return Ok(());
        };
        let number = line.to_string();
        let pad = " ".repeat(number.len());
        writeln!(f, "{path}:{line}:{col}: {}", self.message)?;
        writeln!(f, "{pad} |")?;
        if text.is_empty() {
            writeln!(f, "{number} |")?;
        } else {
            writeln!(f, "{number} | {text}")?;
        }
        let mut chars = text.chars();
        let indent: String = (1..*col)
            .map(|_| match chars.next() {
                Some('\t') => '\t',
                _ => ' ',
            })
            .collect();
        write!(f, "{pad} | {indent}^")?;
        if let Some(hint) = self.hint {
            write!(f, "\n{pad} = hint: {hint}")?;
        }
        Ok(())
    }
}

/// Removes `.` components and resolves `..` lexically (symlinks are not consulted), so that the
/// project root and scenario paths compare as written.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else if !matches!(
                    out.components().next_back(),
                    Some(Component::RootDir | Component::Prefix(_))
                ) {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::fs;

    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |key| map.get(key).cloned()
    }

    fn project(toml: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        fs::write(dir.path().join(CONFIG_FILE), toml).expect("write config");
        dir
    }

    fn resolve(cwd: &Path, env: &dyn Fn(&str) -> Option<String>) -> Settings {
        match Settings::resolve(cwd, env, &Overrides::default()) {
            Ok(settings) => settings,
            Err(e) => panic!("unexpected error:\n{e}"),
        }
    }

    fn resolve_err(cwd: &Path, env: &dyn Fn(&str) -> Option<String>) -> ConfigError {
        Settings::resolve(cwd, env, &Overrides::default()).expect_err("expected an error")
    }

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
            }
        );
        assert_eq!(settings.llm, LlmSettings::default());
        assert_eq!(settings.budgets, BudgetSettings::default());
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
    fn llm_and_budgets_are_read_from_the_file() {
        let dir = project(
            r#"
[llm]
provider = "anthropic"
model = "claude-sonnet-4-5"
base_url = "http://127.0.0.1:9999"
api_key_env = "MY_KEY"
timeout = 12.5
max_tokens = 512
temperature = 0.7
send_screenshots = true
generation_prompt = """
Prefer getByRole.
"""
snapshot_budget = 0

[budgets]
generation = 0
healing = 5
"#,
        );
        let settings = resolve(dir.path(), &no_env);
        assert_eq!(
            settings.llm,
            LlmSettings {
                provider: Some(ProviderKind::Anthropic),
                model: Some("claude-sonnet-4-5".into()),
                base_url: Some("http://127.0.0.1:9999".into()),
                api_key_env: Some("MY_KEY".into()),
                timeout: Duration::from_millis(12_500),
                max_tokens: 512,
                temperature: 0.7,
                send_screenshots: true,
                generation_prompt: "Prefer getByRole.\n".into(),
                snapshot_budget: 0,
            }
        );
        assert_eq!(
            settings.budgets,
            BudgetSettings {
                generation: 0,
                healing: 5
            }
        );
        // Integers are accepted where numbers are expected.
        let dir = project("[llm]\ntimeout = 5\ntemperature = 1\nprovider = \"OpenAI\"\n");
        let llm = resolve(dir.path(), &no_env).llm;
        assert_eq!(llm.timeout, Duration::from_secs(5));
        assert_eq!(llm.temperature, 1.0);
        assert_eq!(llm.provider, Some(ProviderKind::OpenAi));
    }

    #[test]
    fn llm_precedence_is_flag_then_env_then_file() {
        let dir = project(
            "[llm]\nprovider = \"anthropic\"\nmodel = \"file\"\nbase_url = \"http://file\"\n\
             max_tokens = 10\n[budgets]\nhealing = 1\n",
        );
        let env = env_of(&[
            ("PRETTYPLAY_LLM_PROVIDER", "openai"),
            ("PRETTYPLAY_LLM_MODEL", " env "),
            ("PRETTYPLAY_LLM_BASE_URL", "http://env"),
            ("PRETTYPLAY_LLM_API_KEY_ENV", "OTHER_KEY"),
            ("PRETTYPLAY_LLM_TIMEOUT", "2"),
            ("PRETTYPLAY_LLM_MAX_TOKENS", "20"),
            ("PRETTYPLAY_LLM_TEMPERATURE", "0.3"),
            ("PRETTYPLAY_LLM_SEND_SCREENSHOTS", "yes"),
            ("PRETTYPLAY_LLM_GENERATION_PROMPT", "  Be brief.\n"),
            ("PRETTYPLAY_LLM_SNAPSHOT_BUDGET", "100"),
            ("PRETTYPLAY_BUDGETS_GENERATION", "7"),
            ("PRETTYPLAY_BUDGETS_HEALING", ""),
        ]);
        let settings = resolve(dir.path(), &env);
        assert_eq!(
            settings.llm,
            LlmSettings {
                provider: Some(ProviderKind::OpenAi),
                model: Some("env".into()),
                base_url: Some("http://env".into()),
                api_key_env: Some("OTHER_KEY".into()),
                timeout: Duration::from_secs(2),
                max_tokens: 20,
                temperature: 0.3,
                send_screenshots: true,
                generation_prompt: "  Be brief.\n".into(),
                snapshot_budget: 100,
            }
        );
        // An empty variable is unset: the file's value stays.
        assert_eq!(
            settings.budgets,
            BudgetSettings {
                generation: 7,
                healing: 1
            }
        );
        let overrides = Overrides {
            llm_provider: Some("Anthropic".into()),
            llm_model: Some("flag".into()),
            llm_base_url: Some("http://flag".into()),
            ..Overrides::default()
        };
        let llm = Settings::resolve(dir.path(), &env, &overrides)
            .expect("resolve")
            .llm;
        assert_eq!(llm.provider, Some(ProviderKind::Anthropic));
        assert_eq!(llm.model.as_deref(), Some("flag"));
        assert_eq!(llm.base_url.as_deref(), Some("http://flag"));
        assert_eq!(llm.max_tokens, 20);
    }

    #[test]
    fn bad_llm_values_in_the_file_point_at_the_value() {
        for (toml, message) in [
            (
                "[llm]\nprovider = \"ollama\"\n",
                "`llm.provider` must be one of openai, anthropic, got \"ollama\"",
            ),
            (
                "[llm]\ntimeout = 0\n",
                "`llm.timeout` must be a number of seconds > 0, e.g. 60, got 0",
            ),
            (
                "[llm]\nmax_tokens = 0\n",
                "`llm.max_tokens` must be a whole number from 1 to 4294967295, got 0",
            ),
            (
                "[llm]\ntemperature = 2.5\n",
                "`llm.temperature` must be a number from 0 to 2, e.g. 0.2, got 2.5",
            ),
            (
                "[llm]\nsnapshot_budget = -1\n",
                "`llm.snapshot_budget` must be a whole number >= 0, got -1",
            ),
            (
                "[budgets]\nhealing = -2\n",
                "`budgets.healing` must be a whole number >= 0, got -2",
            ),
            (
                "[budgets]\ngeneration = 5000000000\n",
                "`budgets.generation` must be a whole number >= 0, got 5000000000",
            ),
        ] {
            let dir = project(toml);
            let shown = resolve_err(dir.path(), &no_env).to_string();
            let file = dir.path().join(CONFIG_FILE);
            assert!(
                shown.starts_with(&format!("{}:2:", file.display())),
                "{shown}"
            );
            assert!(shown.contains(message), "{shown}");
        }
        let dir = project("[llm]\nmodle = \"x\"\n");
        let shown = resolve_err(dir.path(), &no_env).to_string();
        assert!(shown.contains("unknown field `modle`"), "{shown}");
        let dir = project("[budgets]\nmax = 1\n");
        let shown = resolve_err(dir.path(), &no_env).to_string();
        assert!(shown.contains("unknown field `max`"), "{shown}");
    }

    #[test]
    fn a_key_in_place_of_its_variable_name_is_never_echoed() {
        let key = "sk-proj-abc123";
        let dir = project(&format!(
            "[llm]\nprovider = \"openai\"\napi_key_env = \"{key}\"\n"
        ));
        let shown = resolve_err(dir.path(), &no_env).to_string();
        assert_eq!(
            shown,
            format!(
                "{}: line 3: `llm.api_key_env` must be the name of an environment variable \
                 (letters, digits and _, not starting with a digit), not the key itself\n  \
                 = hint: set the key in that environment variable, never in this file",
                dir.path().join(CONFIG_FILE).display()
            )
        );
        let tmp = tempfile::tempdir().expect("tempdir");
        let env = env_of(&[("PRETTYPLAY_LLM_API_KEY_ENV", key)]);
        let shown = resolve_err(tmp.path(), &env).to_string();
        assert!(!shown.contains(key), "{shown}");
        assert!(shown.contains("`[redacted]`"), "{shown}");
    }

    #[test]
    fn bad_llm_env_and_flag_values_name_the_source() {
        let dir = tempfile::tempdir().expect("tempdir");
        for (var, value, expected) in [
            (
                "PRETTYPLAY_LLM_PROVIDER",
                "gemini",
                "one of openai, anthropic",
            ),
            (
                "PRETTYPLAY_LLM_TIMEOUT",
                "0",
                "a number of seconds > 0, e.g. 60",
            ),
            (
                "PRETTYPLAY_LLM_MAX_TOKENS",
                "lots",
                "a whole number from 1 to 4294967295",
            ),
            (
                "PRETTYPLAY_LLM_TEMPERATURE",
                "-1",
                "a number from 0 to 2, e.g. 0.2",
            ),
            (
                "PRETTYPLAY_LLM_TEMPERATURE",
                "NaN",
                "a number from 0 to 2, e.g. 0.2",
            ),
            ("PRETTYPLAY_LLM_SEND_SCREENSHOTS", "sure", BOOL_FORMS),
            (
                "PRETTYPLAY_LLM_SNAPSHOT_BUDGET",
                "-5",
                "a whole number >= 0",
            ),
            (
                "PRETTYPLAY_BUDGETS_GENERATION",
                "1.5",
                "a whole number >= 0",
            ),
            ("PRETTYPLAY_BUDGETS_HEALING", "x", "a whole number >= 0"),
        ] {
            let env = env_of(&[(var, value)]);
            assert_eq!(
                resolve_err(dir.path(), &env).to_string(),
                format!(
                    "environment variable `{var}` has invalid value `{value}`: expected {expected}"
                )
            );
        }
        let overrides = Overrides {
            llm_provider: Some("azure".into()),
            ..Overrides::default()
        };
        let e = Settings::resolve(dir.path(), &no_env, &overrides).expect_err("bad flag");
        assert_eq!(
            e.to_string(),
            "invalid value `azure` for `--llm-provider`: expected one of openai, anthropic"
        );
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
    fn env_table_is_well_formed_and_documented() {
        let docs = include_str!("../../docs/configuration.md");
        for (var, _) in ENV_VARS {
            assert!(var.starts_with("PRETTYPLAY_"), "{var}");
            assert!(
                var.chars().all(|c| c.is_ascii_uppercase() || c == '_'),
                "{var}"
            );
            assert!(docs.contains(var), "{var} is not in docs/configuration.md");
        }
    }
}
