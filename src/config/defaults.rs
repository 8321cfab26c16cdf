//! The defaults of every settings key, in one place (mirrored in `docs/configuration.md`).
//!
//! A key without a constant here (`browser.base_url`, `browser.executable`, `llm.provider`,
//! `llm.model`, `llm.base_url`, `llm.api_key_env`, `run.workers`) has no value by default.

use std::time::Duration;

use super::{Isolation, Screen};

/// Name of the settings file looked up in the working directory and its ancestors.
pub(crate) const CONFIG_FILE: &str = "prettyplay.toml";
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
/// `browser.isolation`: a fresh context per test, in its worker's browser.
pub(super) const ISOLATION: Isolation = Isolation::Context;
/// `browser.allowed_origins`: no origin beyond the base URL's and these schemes, which are
/// always allowed (`file:` is not: only when listed).
pub(super) const IMPLICIT_SCHEMES: &[&str] = &["about", "data", "blob"];
/// `browser.connect_timeout`: how long connecting to a remote browser may take.
pub(super) const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// `polling.timeout`: off.
pub(super) const POLLING_TIMEOUT: Option<Duration> = None;
/// `polling.delay`.
pub(super) const POLLING_DELAY: Duration = Duration::from_millis(500);
/// `polling.optional_timeout`: how long an `[optional]` step waits for its target.
pub(super) const POLLING_OPTIONAL_TIMEOUT: Duration = Duration::from_secs(2);
/// `llm.timeout`, per attempt.
pub(super) const LLM_TIMEOUT: Duration = Duration::from_secs(60);
/// `llm.max_tokens`.
pub(super) const MAX_TOKENS: u32 = 2048;
/// `llm.temperature`.
pub(super) const TEMPERATURE: f64 = 0.0;
/// `llm.send_screenshots`.
pub(super) const SEND_SCREENSHOTS: bool = false;
/// `heal.veto`: on.
pub(super) const HEAL_VETO: bool = true;
/// `llm.generation_prompt`: no user instructions.
pub(super) const GENERATION_PROMPT: &str = "";
/// `llm.snapshot_budget`, in characters.
pub(super) const SNAPSHOT_BUDGET: usize = 20_000;
/// `budgets.generation`.
pub(super) const GENERATION_BUDGET: u32 = 3;
/// `budgets.healing`.
pub(super) const HEALING_BUDGET: u32 = 2;
/// `run.test_timeout`.
pub(super) const TEST_TIMEOUT: Duration = Duration::from_secs(60);
/// `run.workers`: unset, the runner uses half the CPUs (at least 1).
pub(super) const WORKERS: Option<usize> = None;
/// `web_server.timeout`: how long a web server may take to answer its URL.
pub(super) const WEB_SERVER_TIMEOUT: Duration = Duration::from_secs(60);
// `web_server.reuse_existing` has no constant: true, false when `CI` is set (see
// `web_server_settings.rs`); `web_server.cwd` is the project root.
/// `run.retries`: a failed test is not run again.
pub(super) const RETRIES: u32 = 0;
/// `run.fail_on_flaky`: a flaky test (failed, then passed on a retry) does not fail the run.
pub(super) const FAIL_ON_FLAKY: bool = false;
