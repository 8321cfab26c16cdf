//! Settings: `prettyplay.toml`, `PRETTYPLAY_<SECTION>_<KEY>` environment overrides and CLI
//! overrides, resolved with precedence CLI > env > file > defaults.
//!
//! Main type: [`Settings`]. Keys and defaults are documented in `docs/configuration.md`.

mod accessibility_settings;
mod allowed_origins;
mod browser_settings;
mod config_error;
mod defaults;
mod file_context;
mod generate_settings;
mod heal_settings;
mod llm_settings;
mod overrides;
mod polling_settings;
mod remote_settings;
mod run_settings;
mod screen;
mod section_layer;
mod settings;
mod sources;
#[cfg(test)]
mod test_support;
mod toml_errors;
mod value_forms;
mod vars;
mod web_server_settings;

pub(crate) use allowed_origins::AllowedOrigins;
pub(crate) use config_error::ConfigError;
pub(crate) use generate_settings::{BuiltinOrder, GenerateSettings};
pub use overrides::Overrides;
#[cfg(test)]
pub(crate) use remote_settings::ConnectHeaders;
pub(crate) use remote_settings::{BrowserName, RemoteBrowser, RemoteProtocol};
pub(crate) use screen::Screen;
pub use settings::Settings;
pub use sources::{Place, Source, Sources};
#[cfg(test)]
pub(crate) use vars::VarSettings;
pub(crate) use vars::Vars;
pub(crate) use web_server_settings::WebServerSettings;

use std::path::PathBuf;
use std::time::Duration;

/// `[browser]` settings.
#[derive(Debug, Clone, PartialEq)]
pub struct BrowserSettings {
    /// Base URL applied to every context, so step code may `page.goto('/')`.
    pub base_url: Option<String>,
    /// Chromium executable; `None` means look up `chromium` / `google-chrome` on PATH.
    pub executable: Option<PathBuf>,
    pub headless: bool,
    /// Default timeout for actions and expectations (default 5 s).
    pub timeout: Duration,
    /// Pause the driver makes before every browser operation, to watch a run (default none).
    pub slow_mo: Duration,
    /// What screen each test's page emulates (default: Playwright's 1280x720 viewport).
    pub screen: Screen,
    /// Whether a dialog (alert, confirm, prompt, beforeunload) that step code does not handle
    /// is accepted (`true`, the default) or dismissed.
    pub accept_dialogs: bool,
    /// The project root: the only place step code may take files from (`setInputFiles`).
    pub project_dir: PathBuf,
    /// What each test gets of its own: a browser context (the default) or a browser process.
    pub isolation: Isolation,
    /// What the test's pages may navigate to and load: the base URL's origin, `about:`,
    /// `data:`, `blob:` and the listed origins (default), or everything (`["*"]`).
    pub allowed_origins: AllowedOrigins,
    /// `connect` or `cdp`: a browser that runs elsewhere; `None` (default): a local Chromium.
    pub remote: Option<RemoteBrowser>,
    /// The engine of this run or project: Chromium (the default), a local Firefox, or any
    /// engine over `connect`.
    pub name: BrowserName,
    /// Every engine the run's tests run in, in order (`browsers`, several `--browser`); the
    /// first is `name`. A run of more than one is a run of browser projects.
    pub browsers: Vec<BrowserName>,
}

impl BrowserSettings {
    /// The labels of the run's browser projects, as test names carry them (`[firefox] ...`):
    /// one per browser in a run of several, none in a run of one browser, whose names stay
    /// those of the scenario files whichever browser it is.
    pub fn project_labels(&self) -> Vec<Option<String>> {
        match self.browsers.as_slice() {
            [_] => vec![None],
            browsers => browsers
                .iter()
                .map(|name| Some(name.as_str().to_owned()))
                .collect(),
        }
    }

    /// The settings of the project `index` of [`Self::project_labels`]: the same settings
    /// with that browser.
    pub fn for_project(&self, index: usize) -> BrowserSettings {
        BrowserSettings {
            name: self.browsers[index],
            ..self.clone()
        }
    }
}

/// `[polling]` settings: the settle window.
#[derive(Debug, Clone, PartialEq)]
pub struct PollingSettings {
    /// Settle window per step execution; `None` (default) or zero keeps polling off.
    pub timeout: Option<Duration>,
    /// Pause between re-executions (default 0.5 s).
    pub delay: Duration,
    /// How long an `[optional]` step waits for the target of its first action before it is
    /// skipped (default 2 s).
    pub optional_timeout: Duration,
}

/// Which wire format the LLM speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProviderKind {
    /// Any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp server,
    /// LM Studio, OpenRouter).
    OpenAi,
    /// Anthropic's Messages API.
    Anthropic,
}

/// `[llm]` settings.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmSettings {
    /// `None` when no provider is configured: `run` then cannot generate or heal.
    pub provider: Option<ProviderKind>,
    pub model: Option<String>,
    /// Endpoint base, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`.
    pub base_url: Option<String>,
    /// Name of the environment variable holding the API key (never the key itself).
    pub api_key_env: Option<String>,
    pub timeout: Duration,
    pub max_tokens: u32,
    pub temperature: f64,
    pub send_screenshots: bool,
    /// User instructions for generation (never for classification, never in step identity).
    pub generation_prompt: String,
    /// Characters of page snapshot sent at most; longer snapshots are cut with a marker.
    pub snapshot_budget: usize,
}

/// `[budgets]`: LLM attempts per step, owned by each test's runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetSettings {
    pub generation: u32,
    pub healing: u32,
}

/// `[browser] isolation`: what each test gets of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Isolation {
    /// A fresh browser context in its worker's browser process (default).
    #[default]
    Context,
    /// One context per worker, reset by the driver between tests (Playwright's context reuse).
    Reuse,
    /// A browser process of its own.
    Browser,
}

/// `[accessibility]` settings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AccessibilitySettings {
    /// The axe-core rules whose violations do not fail an accessibility check, in the order
    /// written.
    pub accept: Vec<AcceptedViolation>,
}

/// One accepted axe-core rule and why the team accepts its violations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AcceptedViolation {
    /// The rule id (`color-contrast`).
    pub rule: String,
    /// Why its violations are accepted (`brand colours, JIRA-123`).
    pub reason: String,
}

/// `[heal]` settings.
#[derive(Debug, Clone, PartialEq)]
pub struct HealSettings {
    /// The mechanical heal veto (default on): a healed candidate that checks less than the
    /// cached code is refused, whatever the LLM's verdict.
    pub veto: bool,
}

/// `[run]` settings.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSettings {
    /// A test running longer fails with a timeout naming the step (default 60 s).
    pub test_timeout: Duration,
    /// Parallel workers; `None`: half the CPUs, at least 1 (`-j` overrides).
    pub workers: Option<usize>,
    /// Times a failed test runs again from scratch (default 0; `--retries` overrides).
    pub retries: u32,
    /// A flaky test (failed, then passed on a retry) fails the run (exit 1).
    pub fail_on_flaky: bool,
}
