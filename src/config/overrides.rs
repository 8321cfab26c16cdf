//! [`Overrides`]: the settings given on the command line, the top source of every key they
//! name. Filled by the CLI module (the only one that knows clap) and read by each section's
//! `from_overrides`; [`flag_of`] names the flag of each key, for errors that blame it.

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
    /// `--a11y-accept RULE=REASON`, repeated: `accessibility.accept`.
    pub accept_violations: Vec<String>,
}

/// The flag of each dotted key that has one, as errors name it.
const FLAGS: &[(&str, &str)] = &[
    ("browser.base_url", "--base-url"),
    ("browser.executable", "--executable"),
    ("browser.headless", "--headed"),
    ("browser.timeout", "--timeout"),
    ("browser.slow_mo", "--slow-mo"),
    ("browser.screen", "--screen"),
    ("llm.provider", "--llm-provider"),
    ("llm.model", "--model"),
    ("llm.base_url", "--llm-base-url"),
    ("run.workers", "--workers"),
    ("run.test_timeout", "--test-timeout"),
    ("run.retries", "--retries"),
    ("run.fail_on_flaky", "--fail-on-flaky-tests"),
    ("heal.veto", "--no-heal-veto"),
    ("accessibility.accept", "--a11y-accept"),
];

/// The flag that sets the dotted `key` (`browser.executable`: `--executable`), if one does.
pub(super) fn flag_of(key: &str) -> Option<&'static str> {
    FLAGS
        .iter()
        .find(|(name, _)| *name == key)
        .map(|(_, flag)| *flag)
}
