//! [`build_provider`]: from `[llm]` settings and the environment to a ready provider, with every
//! setting problem reported as [`LlmError::Config`] before the first call.

use tokio::runtime::Handle;
use url::Url;

use super::anthropic::Anthropic;
use super::http::{Expects, Transport};
use super::model_params::ModelParams;
use super::openai::OpenAi;
use super::provider::HttpProvider;
use super::{ApiKey, LlmError, LlmProvider};
use crate::config::{LlmSettings, ProviderKind, Sources};

/// `llm.base_url` of the `openai` provider when unset: the `/v1` root.
pub(crate) const OPENAI_BASE_URL: &str = "https://api.openai.com/v1";
/// `llm.base_url` of the `anthropic` provider when unset.
pub(crate) const ANTHROPIC_BASE_URL: &str = "https://api.anthropic.com";
/// `llm.api_key_env` of the `openai` provider when unset.
pub(crate) const OPENAI_API_KEY_ENV: &str = "OPENAI_API_KEY";
/// `llm.api_key_env` of the `anthropic` provider when unset.
pub(crate) const ANTHROPIC_API_KEY_ENV: &str = "ANTHROPIC_API_KEY";

/// The provider `settings` describe, or `Ok(None)` when `provider` is unset (then `run` can
/// neither generate nor heal).
///
/// The API key is read through `env` from the variable `api_key_env` names (default
/// `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`); an empty value counts as unset. The `openai` provider
/// works without a key (local servers need none: no `Authorization` header is sent); the
/// `anthropic` provider does not. `handle` runs the HTTP requests: it must belong to a
/// multi-thread runtime with IO and time enabled, and the provider's methods, which block on it,
/// must be called from plain threads, never from inside that runtime. `sources` says where the
/// base URL was set, for the error when something that is not an LLM answers there.
pub fn build_provider(
    settings: &LlmSettings,
    sources: &Sources,
    env: &dyn Fn(&str) -> Option<String>,
    handle: Handle,
) -> Result<Option<Box<dyn LlmProvider>>, LlmError> {
    let Some(kind) = settings.provider else {
        return Ok(None);
    };
    let name = provider_name(kind);
    let model = settings
        .model
        .as_deref()
        .map(str::trim)
        .filter(|model| !model.is_empty())
        .ok_or_else(|| {
            LlmError::Config(format!(
                "no model is set for the {name} provider: set `model` in `[llm]`, \
                 PRETTYPLAY_LLM_MODEL or --model"
            ))
        })?;
    let (default_base, default_key_env) = match kind {
        ProviderKind::OpenAi => (OPENAI_BASE_URL, OPENAI_API_KEY_ENV),
        ProviderKind::Anthropic => (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY_ENV),
    };
    let base = settings
        .base_url
        .as_deref()
        .map(str::trim)
        .filter(|url| !url.is_empty())
        .unwrap_or(default_base);
    let key_env = settings
        .api_key_env
        .as_deref()
        .map(str::trim)
        .filter(|var| !var.is_empty())
        .unwrap_or(default_key_env);
    let key = env(key_env)
        .map(ApiKey::new)
        .filter(|key| !key.expose().is_empty());
    let params = ModelParams {
        model: model.to_owned(),
        max_tokens: settings.max_tokens,
        temperature: settings.temperature,
        timeout: settings.timeout,
    };
    if params.timeout.is_zero() {
        return Err(LlmError::Config(
            "`llm.timeout` must be more than 0 seconds".into(),
        ));
    }
    let check = sources.place("llm.base_url").to_string();
    let target = Target {
        name,
        base,
        key_env,
        check,
        handle,
    };
    let provider = match kind {
        ProviderKind::OpenAi => openai(target, model, params, key)?,
        ProviderKind::Anthropic => anthropic(target, model, params, key)?,
    };
    tracing::debug!(provider = %provider.describe(), "LLM provider ready");
    Ok(Some(provider))
}

/// Where a provider sends its requests, and what it needs to say where they went.
struct Target<'a> {
    /// The provider's name, as in settings.
    name: &'static str,
    base: &'a str,
    /// The variable the key was read from.
    key_env: &'a str,
    /// Where the base URL was set.
    check: String,
    handle: Handle,
}

/// The `openai` provider, which sends no `Authorization` header without a key.
fn openai(
    target: Target<'_>,
    model: &str,
    params: ModelParams,
    key: Option<ApiKey>,
) -> Result<Box<dyn LlmProvider>, LlmError> {
    if key.is_none() {
        tracing::debug!(
            variable = target.key_env,
            "no API key for the openai provider; sending no Authorization header"
        );
    }
    let endpoint = endpoint(target.base, "chat/completions")?;
    let expects = Expects {
        reply: "an OpenAI-compatible chat completion",
        check: target.check,
    };
    let transport = Transport::new(
        target.name,
        endpoint,
        params.timeout,
        key.clone(),
        expects,
        target.handle,
    )?;
    Ok(Box::new(HttpProvider::new(
        transport,
        model,
        OpenAi { params, key },
    )))
}

/// The `anthropic` provider, which needs a key and a temperature of at most 1.
fn anthropic(
    target: Target<'_>,
    model: &str,
    params: ModelParams,
    key: Option<ApiKey>,
) -> Result<Box<dyn LlmProvider>, LlmError> {
    let key = key.ok_or_else(|| {
        LlmError::Config(format!(
            "the anthropic provider needs an API key: environment variable `{}` is not set",
            target.key_env
        ))
    })?;
    if params.temperature > 1.0 {
        return Err(LlmError::Config(format!(
            "`llm.temperature` must be between 0 and 1 for the anthropic provider, got {}",
            params.temperature
        )));
    }
    let endpoint = endpoint(target.base, "v1/messages")?;
    let expects = Expects {
        reply: "an Anthropic Messages reply",
        check: target.check,
    };
    let transport = Transport::new(
        target.name,
        endpoint,
        params.timeout,
        Some(key.clone()),
        expects,
        target.handle,
    )?;
    Ok(Box::new(HttpProvider::new(
        transport,
        model,
        Anthropic { params, key },
    )))
}

/// Every environment variable that may hold an LLM API key: both default names and the one
/// `llm.api_key_env` names. `run` reads them once and removes them from the process environment
/// before the driver starts, so that neither Node nor Chromium inherit a key.
pub(crate) fn key_variables(settings: &LlmSettings) -> Vec<String> {
    let mut names = vec![
        OPENAI_API_KEY_ENV.to_owned(),
        ANTHROPIC_API_KEY_ENV.to_owned(),
    ];
    if let Some(name) = settings
        .api_key_env
        .as_deref()
        .map(str::trim)
        .filter(|name| !name.is_empty() && !names.iter().any(|n| n == name))
    {
        names.push(name.to_owned());
    }
    names
}

/// The provider's name in settings, messages and [`LlmProvider::describe`].
pub(crate) fn provider_name(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::OpenAi => "openai",
        ProviderKind::Anthropic => "anthropic",
    }
}

/// `{base}/{path}`, once `base` is checked to be an http(s) URL without credentials, query or
/// fragment.
fn endpoint(base: &str, path: &str) -> Result<String, LlmError> {
    let url = Url::parse(base);
    let shown = shown_url(base, url.as_ref().ok());
    let bad = |why: &str| LlmError::Config(format!("`llm.base_url` `{shown}` {why}"));
    let url = url.map_err(|e| bad(&format!("is not a URL: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(bad("must be an http:// or https:// URL"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad(
            "must not hold credentials; put the key in the variable `llm.api_key_env` names",
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(bad("must not have a query or a fragment"));
    }
    Ok(format!("{}/{path}", base.trim_end_matches('/')))
}

/// `base` as an error may show it: no credentials, every query value and the fragment replaced by
/// `[redacted]` (a key put in `?key=...` is never echoed). `url` is `base` parsed, when it parses;
/// otherwise everything from the first `?` or `#` is redacted.
fn shown_url(base: &str, url: Option<&Url>) -> String {
    const REDACTED: &str = "[redacted]";
    let Some(url) = url else {
        return match base.find(['?', '#']) {
            Some(at) => format!("{}{}{REDACTED}", &base[..at], &base[at..=at]),
            None => base.to_owned(),
        };
    };
    let mut url = url.clone();
    let _ = url.set_username("");
    let _ = url.set_password(None);
    let redacted: Option<Vec<String>> = url.query().map(|query| {
        query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((name, _)) => format!("{name}={REDACTED}"),
                None => pair.to_owned(),
            })
            .collect()
    });
    url.set_query(redacted.map(|pairs| pairs.join("&")).as_deref());
    if url.fragment().is_some() {
        url.set_fragment(Some(REDACTED));
    }
    url.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_env::env_of;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime")
    }

    fn settings(provider: Option<ProviderKind>, model: Option<&str>) -> LlmSettings {
        LlmSettings {
            provider,
            model: model.map(str::to_owned),
            ..LlmSettings::default()
        }
    }

    fn build(
        settings: &LlmSettings,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<String, String> {
        let runtime = runtime();
        match build_provider(settings, &Sources::default(), env, runtime.handle().clone()) {
            Ok(Some(provider)) => Ok(provider.describe()),
            Ok(None) => Ok("none".into()),
            Err(e) => Err(e.to_string()),
        }
    }

    #[test]
    fn key_variables_are_the_defaults_and_the_configured_one() {
        let mut llm = settings(None, None);
        assert_eq!(key_variables(&llm), ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"]);
        llm.api_key_env = Some(" MY_KEY ".into());
        assert_eq!(
            key_variables(&llm),
            ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "MY_KEY"]
        );
        llm.api_key_env = Some("OPENAI_API_KEY".into());
        assert_eq!(key_variables(&llm).len(), 2);
    }

    #[test]
    fn no_provider_is_none() {
        assert_eq!(
            build(&settings(None, Some("m")), &env_of(&[])),
            Ok("none".into())
        );
    }

    #[test]
    fn providers_are_described_by_kind_and_model() {
        let openai = settings(Some(ProviderKind::OpenAi), Some(" gpt-4o-mini "));
        assert_eq!(
            build(&openai, &env_of(&[])),
            Ok("openai:gpt-4o-mini".into())
        );
        let anthropic = settings(Some(ProviderKind::Anthropic), Some("claude-sonnet-4-5"));
        let env = env_of(&[("ANTHROPIC_API_KEY", "sk-ant")]);
        assert_eq!(
            build(&anthropic, &env),
            Ok("anthropic:claude-sonnet-4-5".into())
        );
    }

    #[test]
    fn a_missing_model_is_a_config_error() {
        for model in [None, Some(""), Some("  ")] {
            let e = build(&settings(Some(ProviderKind::OpenAi), model), &env_of(&[]))
                .expect_err("no model");
            assert_eq!(
                e,
                "no model is set for the openai provider: set `model` in `[llm]`, \
                 PRETTYPLAY_LLM_MODEL or --model"
            );
        }
    }

    #[test]
    fn anthropic_without_a_key_names_the_variable() {
        let mut llm = settings(Some(ProviderKind::Anthropic), Some("claude"));
        let e = build(&llm, &env_of(&[("ANTHROPIC_API_KEY", "")])).expect_err("no key");
        assert_eq!(
            e,
            "the anthropic provider needs an API key: environment variable `ANTHROPIC_API_KEY` \
             is not set"
        );
        llm.api_key_env = Some("MY_KEY".into());
        let e = build(&llm, &env_of(&[("ANTHROPIC_API_KEY", "sk")])).expect_err("no key");
        assert!(e.contains("`MY_KEY` is not set"), "{e}");
        assert!(build(&llm, &env_of(&[("MY_KEY", "sk")])).is_ok());
    }

    #[test]
    fn anthropic_temperature_above_one_is_refused() {
        let llm = LlmSettings {
            temperature: 1.5,
            ..settings(Some(ProviderKind::Anthropic), Some("claude"))
        };
        let e = build(&llm, &env_of(&[("ANTHROPIC_API_KEY", "sk")])).expect_err("temperature");
        assert!(e.contains("between 0 and 1"), "{e}");
    }

    #[test]
    fn zero_timeout_is_refused() {
        let llm = LlmSettings {
            timeout: std::time::Duration::ZERO,
            ..settings(Some(ProviderKind::OpenAi), Some("m"))
        };
        assert!(build(&llm, &env_of(&[])).is_err());
    }

    #[test]
    fn query_values_and_fragments_of_a_base_url_are_never_echoed() {
        for (base, shown) in [
            (
                "http://127.0.0.1:1/v1?key=SECRET",
                "`http://127.0.0.1:1/v1?key=[redacted]`",
            ),
            (
                "https://u:SECRET@host/v1?a=SECRET&flag&b=SECRET#SECRET",
                "`https://host/v1?a=[redacted]&flag&b=[redacted]#[redacted]`",
            ),
            ("ftp://host/v1?key=SECRET", "`ftp://host/v1?key=[redacted]`"),
            ("not a url?key=SECRET", "`not a url?[redacted]`"),
        ] {
            let e = endpoint(base, "x").expect_err(base).to_string();
            assert!(e.contains(shown), "{e}");
            assert!(!e.contains("SECRET"), "{e}");
        }
        let llm = LlmSettings {
            base_url: Some("http://127.0.0.1:1/v1?key=SECRET".into()),
            ..settings(Some(ProviderKind::OpenAi), Some("m"))
        };
        let e = build(&llm, &env_of(&[])).expect_err("a query");
        assert_eq!(
            e,
            "`llm.base_url` `http://127.0.0.1:1/v1?key=[redacted]` must not have a query or a \
             fragment"
        );
    }

    #[test]
    fn endpoints_join_the_base_and_the_path() {
        assert_eq!(
            endpoint("https://api.openai.com/v1", "chat/completions").expect("url"),
            "https://api.openai.com/v1/chat/completions"
        );
        assert_eq!(
            endpoint("http://127.0.0.1:11434/v1/", "chat/completions").expect("url"),
            "http://127.0.0.1:11434/v1/chat/completions"
        );
        assert_eq!(
            endpoint("https://api.anthropic.com", "v1/messages").expect("url"),
            "https://api.anthropic.com/v1/messages"
        );
    }

    #[test]
    fn bad_base_urls_are_config_errors() {
        for (base, why) in [
            ("localhost:11434", "must be an http:// or https:// URL"),
            ("ftp://host/v1", "must be an http:// or https:// URL"),
            ("not a url", "is not a URL"),
            ("https://user:pw@host/v1", "must not hold credentials"),
            ("https://host/v1?key=1", "must not have a query"),
        ] {
            let e = endpoint(base, "x").expect_err(base).to_string();
            assert!(e.starts_with("`llm.base_url` `"), "{e}");
            assert!(e.contains(why), "{e}");
            assert!(!e.contains("pw"), "{e}");
        }
        let llm = LlmSettings {
            base_url: Some("ftp://x".into()),
            ..settings(Some(ProviderKind::OpenAi), Some("m"))
        };
        assert!(build(&llm, &env_of(&[])).is_err());
    }
}
