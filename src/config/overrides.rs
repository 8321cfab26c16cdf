//! [`Overrides`]: the settings given on the command line, the top source of every key they
//! name. Filled by the CLI module (the only one that knows clap) and read by each section's
//! `from_overrides`.

use std::path::PathBuf;

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
    /// `--browser NAME`, once per engine: `browser.browsers`.
    pub browsers: Vec<String>,
    /// `browser.timeout`, in seconds.
    pub timeout: Option<f64>,
    /// `--slow-mo SECONDS`: `browser.slow_mo`.
    pub slow_mo: Option<f64>,
    /// `--screen VALUE`: `browser.screen`, in any of its forms (an empty value means Playwright's
    /// default viewport, overriding lower sources).
    pub screen: Option<String>,
    /// `--llm-provider NAME`: `llm.provider` (`openai` or `anthropic`).
    pub llm_provider: Option<String>,
    /// `--model NAME`: `llm.model`.
    pub llm_model: Option<String>,
    /// `--llm-base-url URL`: `llm.base_url`.
    pub llm_base_url: Option<String>,
    /// `-j/--workers N`: `run.workers`, 1 or more.
    pub workers: Option<usize>,
    /// `--test-timeout SECONDS`: `run.test_timeout`, more than 0.
    pub test_timeout: Option<f64>,
    /// `--retries N`: `run.retries`, 0 to 100.
    pub retries: Option<u32>,
    /// `--fail-on-flaky-tests`: `run.fail_on_flaky = true`. `false` leaves the other sources in
    /// charge.
    pub fail_on_flaky_tests: bool,
    /// `--no-heal-veto`: `heal.veto = false`. `false` leaves the other sources in charge.
    pub no_heal_veto: bool,
}
