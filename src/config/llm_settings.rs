//! `[llm]` and `[budgets]`: the provider that writes step code and classifies failures, and the
//! LLM attempts each step may spend.
//!
//! Main types: [`LlmLayer`] and [`BudgetsLayer`], what one source says of these sections, read
//! from the file ([`RawLlm`], [`RawBudgets`]), the environment ([`ENV_VARS`],
//! [`BUDGETS_ENV_VARS`]) or the flags, and
//! stacked and finished into [`LlmSettings`] and [`BudgetSettings`] by `settings.rs`.

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
use super::{BudgetSettings, ConfigError, LlmSettings, Overrides, ProviderKind};

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

/// The defaults of `[llm]`: no provider (`provider`, `model`, `base_url` and `api_key_env` unset;
/// a provider fills in its own base URL and key variable).
impl Default for LlmSettings {
    fn default() -> Self {
        LlmLayer::default().finish()
    }
}

/// The defaults of `[budgets]`.
impl Default for BudgetSettings {
    fn default() -> Self {
        BudgetsLayer::default().finish()
    }
}

/// `[llm]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub(super) struct RawLlm {
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

/// `[budgets]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub(super) struct RawBudgets {
    generation: Option<Spanned<i64>>,
    healing: Option<Spanned<i64>>,
}

section_layer! {
    /// What one source says of `[llm]`; `None` leaves the decision to lower sources.
    LlmLayer {
        provider: ProviderKind,
        model: String,
        base_url: String,
        api_key_env: String,
        timeout: Duration,
        max_tokens: u32,
        temperature: f64,
        send_screenshots: bool,
        generation_prompt: String,
        snapshot_budget: usize,
    }
}

impl LlmLayer {
    /// The gaps filled from the defaults.
    pub(super) fn finish(self) -> LlmSettings {
        LlmSettings {
            provider: self.provider,
            model: self.model,
            base_url: self.base_url,
            api_key_env: self.api_key_env,
            timeout: self.timeout.unwrap_or(defaults::LLM_TIMEOUT),
            max_tokens: self.max_tokens.unwrap_or(defaults::MAX_TOKENS),
            temperature: self.temperature.unwrap_or(defaults::TEMPERATURE),
            send_screenshots: self.send_screenshots.unwrap_or(defaults::SEND_SCREENSHOTS),
            generation_prompt: self
                .generation_prompt
                .unwrap_or_else(|| defaults::GENERATION_PROMPT.to_owned()),
            snapshot_budget: self.snapshot_budget.unwrap_or(defaults::SNAPSHOT_BUDGET),
        }
    }

    /// `[llm]` of the settings file, checked.
    pub(super) fn from_file(raw: RawLlm, file: &FileContext<'_>) -> Result<LlmLayer, ConfigError> {
        let api_key_env = match raw.api_key_env {
            None => None,
            Some(value) if is_env_name(value.get_ref().trim()) => {
                Some(value.get_ref().trim().to_owned())
            }
            // Neither the value nor its line is shown: it may be the key itself.
            Some(value) => {
                return Err(file.error(
                    None,
                    format!(
                        "line {}: `llm.api_key_env` must be {KEY_ENV_FORM}",
                        file.line(value.span().start)
                    ),
                    Some("set the key in that environment variable, never in this file".into()),
                ));
            }
        };
        Ok(LlmLayer {
            provider: file.parsed("llm.provider", PROVIDER_FORMS, raw.provider, parse_provider)?,
            model: raw.model,
            base_url: raw.base_url,
            api_key_env,
            timeout: file.checked(
                "llm.timeout",
                POSITIVE_SECONDS_FORM,
                raw.timeout,
                positive_seconds,
            )?,
            max_tokens: file.checked("llm.max_tokens", MAX_TOKENS_FORM, raw.max_tokens, |n| {
                u32::try_from(n).ok().filter(|n| *n >= 1)
            })?,
            temperature: file.checked(
                "llm.temperature",
                TEMPERATURE_FORM,
                raw.temperature,
                temperature,
            )?,
            send_screenshots: raw.send_screenshots,
            generation_prompt: raw.generation_prompt,
            snapshot_budget: file.checked(
                "llm.snapshot_budget",
                COUNT_FORM,
                raw.snapshot_budget,
                |n| usize::try_from(n).ok(),
            )?,
        })
    }

    /// `--llm-provider`, `--model` and `--llm-base-url`.
    pub(super) fn from_overrides(overrides: &Overrides) -> Result<LlmLayer, ConfigError> {
        Ok(LlmLayer {
            provider: flag_value(
                "llm-provider",
                PROVIDER_FORMS,
                overrides.llm_provider.as_deref(),
                parse_provider,
            )?,
            model: overrides.llm_model.clone(),
            base_url: overrides.llm_base_url.clone(),
            ..LlmLayer::default()
        })
    }
}

section_layer! {
    /// What one source says of `[budgets]`; `None` leaves the decision to lower sources.
    BudgetsLayer {
        generation: u32,
        healing: u32,
    }
}

impl BudgetsLayer {
    /// The gaps filled from the defaults.
    pub(super) fn finish(self) -> BudgetSettings {
        BudgetSettings {
            generation: self.generation.unwrap_or(defaults::GENERATION_BUDGET),
            healing: self.healing.unwrap_or(defaults::HEALING_BUDGET),
        }
    }

    /// `[budgets]` of the settings file, checked.
    pub(super) fn from_file(
        raw: RawBudgets,
        file: &FileContext<'_>,
    ) -> Result<BudgetsLayer, ConfigError> {
        let count = |n: i64| u32::try_from(n).ok();
        Ok(BudgetsLayer {
            generation: file.checked("budgets.generation", COUNT_FORM, raw.generation, count)?,
            healing: file.checked("budgets.healing", COUNT_FORM, raw.healing, count)?,
        })
    }
}

/// The environment variables of `[llm]`.
pub(super) const ENV_VARS: &[(&str, EnvSetter<LlmLayer>)] = &[
    ("PRETTYPLAY_LLM_PROVIDER", |layer, _, value| {
        layer.provider = Some(parse_provider(value).ok_or(PROVIDER_FORMS)?);
        Ok(())
    }),
    ("PRETTYPLAY_LLM_MODEL", |layer, _, value| {
        layer.model = Some(value.trim().to_owned());
        Ok(())
    }),
    ("PRETTYPLAY_LLM_BASE_URL", |layer, _, value| {
        layer.base_url = Some(value.trim().to_owned());
        Ok(())
    }),
    ("PRETTYPLAY_LLM_API_KEY_ENV", |layer, _, value| {
        let name = value.trim();
        layer.api_key_env = Some(
            is_env_name(name)
                .then(|| name.to_owned())
                .ok_or(KEY_ENV_FORM)?,
        );
        Ok(())
    }),
    ("PRETTYPLAY_LLM_TIMEOUT", |layer, _, value| {
        let timeout = parse_seconds(value).filter(|t| !t.is_zero());
        layer.timeout = Some(timeout.ok_or(POSITIVE_SECONDS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_LLM_MAX_TOKENS", |layer, _, value| {
        let max_tokens = value.trim().parse().ok().filter(|n| *n >= 1);
        layer.max_tokens = Some(max_tokens.ok_or(MAX_TOKENS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_LLM_TEMPERATURE", |layer, _, value| {
        let temperature = value.trim().parse().ok().and_then(temperature);
        layer.temperature = Some(temperature.ok_or(TEMPERATURE_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_LLM_SEND_SCREENSHOTS", |layer, _, value| {
        layer.send_screenshots = Some(parse_bool(value).ok_or(BOOL_FORMS)?);
        Ok(())
    }),
    // Taken as is: instructions may start or end with blank lines on purpose.
    ("PRETTYPLAY_LLM_GENERATION_PROMPT", |layer, _, value| {
        layer.generation_prompt = Some(value.to_owned());
        Ok(())
    }),
    ("PRETTYPLAY_LLM_SNAPSHOT_BUDGET", |layer, _, value| {
        layer.snapshot_budget = Some(value.trim().parse().map_err(|_| COUNT_FORM)?);
        Ok(())
    }),
];

/// The environment variables of `[budgets]`.
pub(super) const BUDGETS_ENV_VARS: &[(&str, EnvSetter<BudgetsLayer>)] = &[
    ("PRETTYPLAY_BUDGETS_GENERATION", |layer, _, value| {
        layer.generation = Some(value.trim().parse().map_err(|_| COUNT_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_BUDGETS_HEALING", |layer, _, value| {
        layer.healing = Some(value.trim().parse().map_err(|_| COUNT_FORM)?);
        Ok(())
    }),
];

/// Environment variables whose invalid value is not echoed in errors.
pub(super) const SECRET_SHAPED_VARS: &[&str] = &["PRETTYPLAY_LLM_API_KEY_ENV"];

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_support::{
        CONFIG_FILE, assert_capped_at_a_day, assert_env_refused, env_of, no_env, project, resolve,
        resolve_err, resolve_with,
    };

    /// Every `[llm]` key set, as the file writes it.
    const LLM_FILE: &str = r#"
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
"#;

    /// The same values as environment variables: spaces around the model are trimmed, the
    /// prompt is taken as is.
    const LLM_ENV: &[(&str, &str)] = &[
        ("PRETTYPLAY_LLM_PROVIDER", "Anthropic"),
        ("PRETTYPLAY_LLM_MODEL", " claude-sonnet-4-5 "),
        ("PRETTYPLAY_LLM_BASE_URL", "http://127.0.0.1:9999"),
        ("PRETTYPLAY_LLM_API_KEY_ENV", "MY_KEY"),
        ("PRETTYPLAY_LLM_TIMEOUT", "12.5"),
        ("PRETTYPLAY_LLM_MAX_TOKENS", "512"),
        ("PRETTYPLAY_LLM_TEMPERATURE", "0.7"),
        ("PRETTYPLAY_LLM_SEND_SCREENSHOTS", "yes"),
        ("PRETTYPLAY_LLM_GENERATION_PROMPT", "  Prefer getByRole.\n"),
        ("PRETTYPLAY_LLM_SNAPSHOT_BUDGET", "0"),
    ];

    /// What [`LLM_FILE`] and [`LLM_ENV`] each say.
    fn llm_sample() -> LlmSettings {
        LlmSettings {
            provider: Some(ProviderKind::Anthropic),
            model: Some("claude-sonnet-4-5".into()),
            base_url: Some("http://127.0.0.1:9999".into()),
            api_key_env: Some("MY_KEY".into()),
            timeout: Duration::from_millis(12_500),
            max_tokens: 512,
            temperature: 0.7,
            send_screenshots: true,
            generation_prompt: "  Prefer getByRole.\n".into(),
            snapshot_budget: 0,
        }
    }

    #[test]
    fn llm_timeout_above_24_hours_is_refused() {
        assert_capped_at_a_day("llm", "timeout", "PRETTYPLAY_LLM_TIMEOUT", |s| {
            s.llm.timeout
        });
    }

    #[test]
    fn llm_and_budgets_are_read_from_the_file() {
        let dir = project(&format!(
            "{LLM_FILE}\n[budgets]\ngeneration = 0\nhealing = 5\n"
        ));
        let settings = resolve(dir.path(), &no_env);
        assert_eq!(settings.llm, llm_sample());
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
            "[llm]\nprovider = \"openai\"\nmodel = \"file\"\nbase_url = \"http://file\"\n\
             max_tokens = 10\nsnapshot_budget = 5\ngeneration_prompt = \"file\"\n\
             [budgets]\nhealing = 1\n",
        );
        let budgets_env = [
            ("PRETTYPLAY_BUDGETS_GENERATION", "7"),
            ("PRETTYPLAY_BUDGETS_HEALING", ""),
        ];
        let env = env_of(&[LLM_ENV, &budgets_env].concat());
        let settings = resolve(dir.path(), &env);
        assert_eq!(settings.llm, llm_sample());
        // An empty variable is unset: the file's value stays.
        assert_eq!(
            settings.budgets,
            BudgetSettings {
                generation: 7,
                healing: 1
            }
        );
        let overrides = Overrides {
            llm_provider: Some("OpenAI".into()),
            llm_model: Some("flag".into()),
            llm_base_url: Some("http://flag".into()),
            ..Overrides::default()
        };
        let llm = resolve_with(dir.path(), &env, overrides)
            .expect("resolve")
            .llm;
        assert_eq!(llm.provider, Some(ProviderKind::OpenAi));
        assert_eq!(llm.model.as_deref(), Some("flag"));
        assert_eq!(llm.base_url.as_deref(), Some("http://flag"));
        assert_eq!(llm.max_tokens, 512);
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
                "`llm.timeout` must be a number of seconds > 0, at most 86400 (24 h), e.g. 60, got 0",
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
        assert!(shown.contains("unknown key `modle`"), "{shown}");
        assert!(shown.contains("did you mean `model`?"), "{shown}");
        let dir = project("[budgets]\nmax = 1\n");
        let shown = resolve_err(dir.path(), &no_env).to_string();
        assert!(shown.contains("unknown key `max`"), "{shown}");
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
        assert_env_refused(&[
            (
                "PRETTYPLAY_LLM_PROVIDER",
                "gemini",
                "one of openai, anthropic",
            ),
            (
                "PRETTYPLAY_LLM_TIMEOUT",
                "0",
                "a number of seconds > 0, at most 86400 (24 h), e.g. 60",
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
        ]);
        let dir = tempfile::tempdir().expect("tempdir");
        let overrides = Overrides {
            llm_provider: Some("azure".into()),
            ..Overrides::default()
        };
        let e = resolve_with(dir.path(), &no_env, overrides).expect_err("bad flag");
        assert_eq!(
            e.to_string(),
            "invalid value `azure` for `--llm-provider`: expected one of openai, anthropic"
        );
    }
}
