//! The LLM providers against the fake LLM server (no browser): both wire formats, what is sent,
//! the bounded transport retry, timeouts, bad bodies, and the API key never showing.
//!
//! Providers block on a tokio runtime's handle, so each test owns a runtime and calls them from
//! the test's own thread, outside the runtime.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use base64::Engine as _;
use prettyplay::config::{LlmSettings, Overrides, ProviderKind, Settings, Sources};
use prettyplay::llm::{
    ClassificationRequest, FailedAttempt, GenerationRequest, LlmError, LlmProvider, PageFacts,
    PreviousCode, Usage, build_provider,
};
use tokio::runtime::Runtime;

use crate::support::fake_llm::{FakeLlm, Reply};

const KEY: &str = "sk-test-0123456789-secret";

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    move |key| map.get(key).cloned()
}

fn settings(kind: ProviderKind, llm: &FakeLlm) -> LlmSettings {
    LlmSettings {
        provider: Some(kind),
        model: Some("fake-model".into()),
        base_url: Some(match kind {
            ProviderKind::OpenAi => llm.base_url(),
            ProviderKind::Anthropic => llm.anthropic_base_url(),
        }),
        timeout: Duration::from_secs(10),
        ..LlmSettings::default()
    }
}

fn provider(
    settings: &LlmSettings,
    env: &dyn Fn(&str) -> Option<String>,
    runtime: &Runtime,
) -> Box<dyn LlmProvider> {
    build_provider(settings, &Sources::default(), env, runtime.handle().clone())
        .expect("provider")
        .expect("a provider is configured")
}

fn openai(llm: &FakeLlm, runtime: &Runtime) -> Box<dyn LlmProvider> {
    provider(&settings(ProviderKind::OpenAi, llm), &env_of(&[]), runtime)
}

fn generation(step: &str) -> GenerationRequest {
    GenerationRequest {
        system_prompt: "You write Playwright step code.".into(),
        page_api: "page.goto(url)".into(),
        step: step.into(),
        variables: Vec::new(),
        step_argument: None,
        previous_steps: vec!["open the app".into()],
        previous_code: vec![PreviousCode {
            number: 1,
            sentence: "open the app".into(),
            code: "await page.goto('/');".into(),
        }],
        previous_code_left_out: 0,
        page: PageFacts {
            url: "http://127.0.0.1:4000/".into(),
            title: "Todos".into(),
            base_url: Some("http://127.0.0.1:4000".into()),
        },
        page_snapshot: "- textbox \"What needs to be done?\"".into(),
        screenshot: None,
        user_instructions: Some("Prefer roles.".into()),
        healing: None,
        builtin: None,
        failed: None,
        deadline: None,
    }
}

fn classification() -> ClassificationRequest {
    ClassificationRequest {
        system_prompt: "You classify failures.".into(),
        step: "the list shows 2 items".into(),
        code: "await expect(list).toHaveCount(2);".into(),
        error: "expected 2, received 3".into(),
        page_snapshot: "- list".into(),
        screenshot: None,
        deadline: None,
    }
}

fn unavailable_reason(error: LlmError) -> String {
    match error {
        LlmError::Unavailable { reason, .. } => reason,
        other => panic!("expected Unavailable, got {other:?}"),
    }
}

#[test]
fn openai_round_trips_text_usage_and_settings() {
    let llm = FakeLlm::start();
    llm.reply(Reply::text("```js\nawait page.goto('/');\n```").usage(321, 45));
    let runtime = runtime();
    let llm_settings = LlmSettings {
        max_tokens: 777,
        temperature: 0.25,
        ..settings(ProviderKind::OpenAi, &llm)
    };
    let provider = provider(&llm_settings, &env_of(&[]), &runtime);
    assert_eq!(provider.describe(), "openai:fake-model");

    let reply = provider
        .generate_step_code(&generation("add a todo"))
        .expect("reply");
    assert_eq!(reply.text, "```js\nawait page.goto('/');\n```");
    assert_eq!(
        reply.usage,
        Usage {
            input_tokens: 321,
            cached_input_tokens: 0,
            output_tokens: 45
        }
    );

    let requests = llm.requests();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(request.body["model"], "fake-model");
    assert_eq!(request.body["max_tokens"], 777);
    assert_eq!(request.body["temperature"], 0.25);
    // The system prompt and the PAGE API are the system message: a prefix every request of a
    // run shares, which the server can cache.
    assert_eq!(
        request.body["messages"][0],
        serde_json::json!({
            "role": "system",
            "content": "You write Playwright step code.\n\nPAGE API:\npage.goto(url)\n",
        })
    );
    assert_eq!(
        request.user_text(),
        "STEP:\nadd a todo\n\nPREVIOUS STEPS:\n1. open the app\n\n\
         PREVIOUS CODE:\n// 1. open the app\nawait page.goto('/');\n\n\
         PAGE:\nURL: http://127.0.0.1:4000/\nTitle: Todos\n\
         Base URL: http://127.0.0.1:4000 (relative URLs resolve against it as the URL constructor does: page.goto('') opens it exactly, page.goto('path') a path under it, page.goto('/path') a path from the host's root)\n\n\
         PAGE SNAPSHOT:\n- textbox \"What needs to be done?\"\n\n\
         USER INSTRUCTIONS:\nPrefer roles.\n"
    );
    assert!(!request.has_image());
    // No key in the environment: no Authorization header (local servers need none).
    assert_eq!(request.header("authorization"), None);
    assert_eq!(
        request.header("content-type"),
        Some("application/json"),
        "{:?}",
        request.headers
    );
}

#[test]
fn anthropic_round_trips_text_usage_and_headers() {
    let llm = FakeLlm::start();
    llm.reply(Reply::text("rot | renamed | regenerate").usage(1000, 12));
    let runtime = runtime();
    let provider = provider(
        &settings(ProviderKind::Anthropic, &llm),
        &env_of(&[("ANTHROPIC_API_KEY", KEY)]),
        &runtime,
    );
    assert_eq!(provider.describe(), "anthropic:fake-model");

    let reply = provider.classify_failure(&classification()).expect("reply");
    assert_eq!(reply.text, "rot | renamed | regenerate");
    assert_eq!(
        reply.usage,
        Usage {
            input_tokens: 1000,
            cached_input_tokens: 0,
            output_tokens: 12
        }
    );

    let request = &llm.requests()[0];
    assert_eq!(request.path, "/v1/messages");
    assert_eq!(request.header("x-api-key"), Some(KEY));
    assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(request.header("authorization"), None);
    assert_eq!(request.body["model"], "fake-model");
    assert_eq!(request.body["max_tokens"], 2048);
    assert_eq!(request.body["temperature"], 0.0);
    // `system` is one text block marked for Anthropic's prompt cache.
    assert_eq!(
        request.body["system"],
        serde_json::json!([{
            "type": "text",
            "text": "You classify failures.",
            "cache_control": { "type": "ephemeral" },
        }])
    );
    assert_eq!(
        request.user_text(),
        "STEP:\nthe list shows 2 items\n\nCODE:\nawait expect(list).toHaveCount(2);\n\n\
         ERROR:\nexpected 2, received 3\n\nPAGE SNAPSHOT:\n- list\n"
    );
}

/// Both wire formats report prompt-cache hits their own way; the usage says the same.
#[test]
fn cached_input_tokens_are_read_from_either_wire_format() {
    let runtime = runtime();
    for kind in [ProviderKind::OpenAi, ProviderKind::Anthropic] {
        let llm = FakeLlm::start();
        llm.reply(
            Reply::text("await page.reload();")
                .usage(2500, 30)
                .cached(2200),
        );
        let provider = provider(
            &settings(kind, &llm),
            &env_of(&[("ANTHROPIC_API_KEY", KEY)]),
            &runtime,
        );
        let reply = provider
            .generate_step_code(&generation("reload"))
            .expect("reply");
        assert_eq!(
            reply.usage,
            Usage {
                input_tokens: 2500,
                cached_input_tokens: 2200,
                output_tokens: 30
            },
            "{kind:?}"
        );
    }
}

#[test]
fn screenshots_are_sent_as_image_parts() {
    let png = vec![0x89, b'P', b'N', b'G', 0, 1, 2, 3];
    let encoded = base64::engine::general_purpose::STANDARD.encode(&png);
    let runtime = runtime();
    for kind in [ProviderKind::OpenAi, ProviderKind::Anthropic] {
        let llm = FakeLlm::start();
        llm.reply_text("await page.reload();");
        llm.reply_text("incurable | x | y");
        let provider = provider(
            &settings(kind, &llm),
            &env_of(&[("ANTHROPIC_API_KEY", KEY)]),
            &runtime,
        );
        let request = GenerationRequest {
            screenshot: Some(png.clone()),
            ..generation("reload")
        };
        provider.generate_step_code(&request).expect("generation");
        let request = ClassificationRequest {
            screenshot: Some(png.clone()),
            ..classification()
        };
        provider.classify_failure(&request).expect("classification");
        for request in llm.requests() {
            assert!(request.has_image(), "{kind:?}: {:?}", request.body);
            assert_eq!(request.image_base64().as_deref(), Some(encoded.as_str()));
            assert!(
                request.user_text().contains("\nSCREENSHOT: attached\n"),
                "{}",
                request.user_text()
            );
        }
    }
}

#[test]
fn regeneration_sends_the_failed_code_and_error() {
    let llm = FakeLlm::start();
    llm.on_contains("STEP:\nadd a todo", "first")
        .on_contains("ERROR:\nTimeout", "second");
    let runtime = runtime();
    let provider = openai(&llm, &runtime);
    let first = provider
        .generate_step_code(&generation("add a todo"))
        .expect("first");
    assert_eq!(first.text, "first");
    let retry = GenerationRequest {
        failed: Some(FailedAttempt {
            code: "await page.click('#add');".into(),
            error: "Timeout 5000ms exceeded".into(),
        }),
        ..generation("add an item")
    };
    assert_eq!(
        provider.generate_step_code(&retry).expect("second").text,
        "second"
    );
    assert!(
        llm.requests()[1]
            .user_text()
            .ends_with("CODE:\nawait page.click('#add');\n\nERROR:\nTimeout 5000ms exceeded\n")
    );
    assert_eq!(llm.pending(), 0);
}

#[test]
fn a_server_error_is_retried_then_succeeds() {
    let llm = FakeLlm::start();
    llm.reply_status(500, r#"{"error":{"message":"boom"}}"#)
        .reply_text("ok");
    let runtime = runtime();
    let reply = openai(&llm, &runtime)
        .generate_step_code(&generation("x"))
        .expect("success after a retry");
    assert_eq!(reply.text, "ok");
    assert_eq!(llm.request_count(), 2);
}

#[test]
fn retry_after_is_honoured() {
    let llm = FakeLlm::start();
    llm.reply(Reply::status(429, r#"{"error":{"message":"slow down"}}"#).retry_after("1"))
        .reply_text("ok");
    let runtime = runtime();
    let provider = openai(&llm, &runtime);
    let started = Instant::now();
    let reply = provider
        .generate_step_code(&generation("x"))
        .expect("success");
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(reply.text, "ok");
    assert!(reply.elapsed >= Duration::from_millis(950));
    assert_eq!(llm.request_count(), 2);
}

#[test]
fn persistent_server_errors_are_unavailable_after_three_attempts() {
    let llm = FakeLlm::start();
    for _ in 0..3 {
        llm.reply_status(503, r#"{"error":{"message":"overloaded"}}"#);
    }
    let runtime = runtime();
    let error = openai(&llm, &runtime)
        .generate_step_code(&generation("x"))
        .expect_err("unavailable");
    assert_eq!(
        error.to_string(),
        format!(
            "the LLM is unavailable (openai at {}/chat/completions): HTTP 503 Service \
             Unavailable: overloaded (gave up after 3 attempts)",
            llm.base_url()
        )
    );
    // Exactly three: a fourth would have been unexpected (and failed the test on drop).
    assert_eq!(llm.request_count(), 3);
}

#[test]
fn client_errors_are_not_retried() {
    let runtime = runtime();
    for (code, body, shown) in [
        (
            401,
            r#"{"error":{"message":"invalid x-api-key","type":"authentication_error"}}"#,
            "HTTP 401 Unauthorized: invalid x-api-key",
        ),
        (
            400,
            "bad request body",
            "HTTP 400 Bad Request: bad request body",
        ),
    ] {
        let llm = FakeLlm::start();
        llm.reply_status(code, body);
        let provider = provider(
            &settings(ProviderKind::Anthropic, &llm),
            &env_of(&[("ANTHROPIC_API_KEY", KEY)]),
            &runtime,
        );
        let error = provider
            .classify_failure(&classification())
            .expect_err("client error");
        assert_eq!(unavailable_reason(error), shown);
        // One request: a retry would be a second (and no time bound, which a loaded machine
        // could break).
        assert_eq!(llm.request_count(), 1);
    }
}

/// A base URL that reaches a web server instead of an LLM is said at once, in one line that
/// names the answer and the setting, and never retried: a 501 HTML page (Python's
/// `http.server`), a 404 without an error in the wire format, a success that is not JSON.
#[test]
fn a_web_server_at_the_base_url_is_said_in_one_line_and_not_retried() {
    let runtime = runtime();
    let page = format!(
        "<!DOCTYPE HTML>\n<html><body>{}</body></html>\n",
        "<p>x</p>\n".repeat(200)
    );
    for (kind, reply, answered) in [
        (
            ProviderKind::OpenAi,
            Reply::status(501, page.clone()).content_type("text/html;charset=utf-8"),
            "HTTP 501 Not Implemented with an HTML page (text/html), not an OpenAI-compatible \
             chat completion",
        ),
        (
            ProviderKind::Anthropic,
            Reply::status(404, ""),
            "HTTP 404 Not Found with an empty body, not an Anthropic Messages reply",
        ),
        (
            ProviderKind::OpenAi,
            Reply::malformed("<html>hello</html>"),
            "HTTP 200 OK with a body that is not JSON (application/json): <html>hello</html>, \
             not an OpenAI-compatible chat completion",
        ),
    ] {
        let llm = FakeLlm::start();
        llm.reply(reply);
        let llm_settings = settings(kind, &llm);
        let overrides = Overrides {
            llm_base_url: llm_settings.base_url.clone(),
            ..Overrides::default()
        };
        let dir = tempfile::tempdir().expect("tempdir");
        let sources = Settings::resolve(dir.path(), &|_| None, &overrides)
            .expect("settings")
            .sources;
        let provider = build_provider(
            &llm_settings,
            &sources,
            &env_of(&[("ANTHROPIC_API_KEY", KEY)]),
            runtime.handle().clone(),
        )
        .expect("provider")
        .expect("configured");
        let error = provider
            .generate_step_code(&generation("x"))
            .expect_err("not an LLM");
        assert!(matches!(error, LlmError::NotAnLlm { .. }), "{error:?}");
        let endpoint = match kind {
            ProviderKind::OpenAi => format!("{}/chat/completions", llm.base_url()),
            ProviderKind::Anthropic => format!("{}/v1/messages", llm.anthropic_base_url()),
        };
        assert_eq!(
            error.to_string(),
            format!("{endpoint} answered {answered}: check `--llm-base-url`")
        );
        assert_eq!(llm.request_count(), 1, "not retried");
    }
}

#[test]
fn a_slow_provider_times_out_as_unavailable() {
    let llm = FakeLlm::start();
    for _ in 0..3 {
        llm.reply(Reply::text("too late").delayed(Duration::from_millis(1500)));
    }
    let runtime = runtime();
    let llm_settings = LlmSettings {
        timeout: Duration::from_millis(300),
        ..settings(ProviderKind::OpenAi, &llm)
    };
    let error = provider(&llm_settings, &env_of(&[]), &runtime)
        .generate_step_code(&generation("x"))
        .expect_err("timeout");
    assert_eq!(
        unavailable_reason(error),
        "no answer within 0.3 s (gave up after 3 attempts)"
    );
    assert_eq!(llm.request_count(), 3);
}

#[test]
fn a_reply_over_1_mib_is_a_bad_response_and_not_retried() {
    let runtime = runtime();
    for kind in [ProviderKind::OpenAi, ProviderKind::Anthropic] {
        let llm = FakeLlm::start();
        llm.reply(Reply::text(format!(
            "async function step(page) {{}}\n//{}",
            "x".repeat(2 * 1024 * 1024)
        )));
        let provider = provider(
            &settings(kind, &llm),
            &env_of(&[("ANTHROPIC_API_KEY", KEY)]),
            &runtime,
        );
        match provider.generate_step_code(&generation("x")) {
            Err(LlmError::BadResponse { reason, .. }) => {
                assert!(
                    reason.starts_with(
                        "the reply is over the limit of 1048576 bytes (1 MiB) and was not used"
                    ),
                    "{kind:?}: {reason}"
                );
                assert!(reason.len() < 1000, "the reason quotes little: {reason}");
            }
            other => panic!("{kind:?}: expected BadResponse, got {other:?}"),
        }
        assert_eq!(llm.request_count(), 1, "not retried");
    }
}

#[test]
fn garbage_bodies_are_bad_responses() {
    let runtime = runtime();
    for (kind, body, shown) in [
        (
            ProviderKind::OpenAi,
            r#"{"object":"list","data":[]}"#,
            "no text at `choices[0].message.content`",
        ),
        (
            ProviderKind::Anthropic,
            r#"{"choices":[{"message":{"content":"wrong format"}}]}"#,
            "no `content` list",
        ),
    ] {
        let llm = FakeLlm::start();
        llm.reply(Reply::malformed(body));
        let provider = provider(
            &settings(kind, &llm),
            &env_of(&[("ANTHROPIC_API_KEY", KEY)]),
            &runtime,
        );
        match provider.generate_step_code(&generation("x")) {
            Err(LlmError::BadResponse { reason, .. }) => {
                assert!(reason.starts_with(shown), "{kind:?}: {reason}");
            }
            other => panic!("{kind:?}: expected BadResponse, got {other:?}"),
        }
        // Not retried.
        assert_eq!(llm.request_count(), 1);
    }
}

#[test]
fn the_api_key_is_sent_and_never_shown() {
    let runtime = runtime();
    for kind in [ProviderKind::OpenAi, ProviderKind::Anthropic] {
        let llm = FakeLlm::start();
        // Providers do quote the refused key back.
        let echo = format!(r#"{{"error":{{"message":"Incorrect API key provided: {KEY}"}}}}"#);
        llm.reply_status(401, &echo);
        llm.reply(Reply::malformed(format!(r#"{{"echo":"{KEY}"}}"#)));
        let llm_settings = LlmSettings {
            api_key_env: Some("MY_LLM_KEY".into()),
            ..settings(kind, &llm)
        };
        let env = env_of(&[("MY_LLM_KEY", KEY)]);
        let provider = provider(&llm_settings, &env, &runtime);

        let refused = provider
            .generate_step_code(&generation("x"))
            .expect_err("refused");
        let bad = provider
            .generate_step_code(&generation("x"))
            .expect_err("bad body");
        for error in [&refused, &bad] {
            let shown = format!("{error} {error:?}");
            assert!(!shown.contains(KEY), "{kind:?}: {shown}");
            assert!(shown.contains("[redacted]"), "{kind:?}: {shown}");
        }

        let requests = llm.requests();
        match kind {
            ProviderKind::OpenAi => {
                let expected = format!("Bearer {KEY}");
                assert_eq!(requests[0].header("authorization"), Some(expected.as_str()));
            }
            ProviderKind::Anthropic => assert_eq!(requests[0].header("x-api-key"), Some(KEY)),
        }
    }
}

#[test]
fn an_unreachable_server_is_unavailable() {
    // A port nothing listens on any more.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("free port")
        .port();
    let runtime = runtime();
    let llm_settings = LlmSettings {
        provider: Some(ProviderKind::OpenAi),
        model: Some("m".into()),
        base_url: Some(format!("http://127.0.0.1:{port}/v1")),
        ..LlmSettings::default()
    };
    let error = provider(&llm_settings, &env_of(&[]), &runtime)
        .generate_step_code(&generation("x"))
        .expect_err("unreachable");
    let reason = unavailable_reason(error);
    assert!(reason.starts_with("cannot connect: "), "{reason}");
    assert!(reason.ends_with("(gave up after 3 attempts)"), "{reason}");
}

#[test]
fn settings_from_the_environment_reach_the_provider() {
    let llm = FakeLlm::start();
    llm.reply_text("await page.goto('/');");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("prettyplay.toml"),
        "[llm]\nprovider = \"anthropic\"\nmodel = \"from-file\"\nmax_tokens = 100\n",
    )
    .expect("write settings");
    let base_url = llm.base_url();
    let env = env_of(&[
        ("PRETTYPLAY_LLM_PROVIDER", "openai"),
        ("PRETTYPLAY_LLM_BASE_URL", &base_url),
        ("PRETTYPLAY_LLM_TEMPERATURE", "0.5"),
        ("PRETTYPLAY_LLM_API_KEY_ENV", "LOCAL_KEY"),
        ("LOCAL_KEY", KEY),
    ]);
    let overrides = Overrides {
        llm_model: Some("from-flag".into()),
        ..Overrides::default()
    };
    let settings = Settings::resolve(dir.path(), &env, &overrides).expect("settings");
    let runtime = runtime();
    let provider = provider(&settings.llm, &env, &runtime);
    assert_eq!(provider.describe(), "openai:from-flag");
    provider
        .generate_step_code(&generation("x"))
        .expect("reply");
    let request = &llm.requests()[0];
    assert_eq!(request.body["max_tokens"], 100);
    assert_eq!(request.body["temperature"], 0.5);
    let expected = format!("Bearer {KEY}");
    assert_eq!(request.header("authorization"), Some(expected.as_str()));
}

#[test]
fn the_fake_records_unexpected_requests() {
    let llm = FakeLlm::start();
    llm.always_on_contains("classify", "rot | a | b");
    let runtime = runtime();
    let provider = openai(&llm, &runtime);
    let request = ClassificationRequest {
        system_prompt: "Please classify.".into(),
        ..classification()
    };
    for _ in 0..2 {
        assert_eq!(
            provider.classify_failure(&request).expect("keyed").text,
            "rot | a | b"
        );
    }
    // Nothing scripted for generation: a 500, three times, all recorded as unexpected.
    let error = provider
        .generate_step_code(&generation("x"))
        .expect_err("unexpected");
    assert!(
        unavailable_reason(error)
            .contains("fake LLM: unexpected request POST /v1/chat/completions")
    );
    let unexpected = llm.take_unexpected();
    assert_eq!(unexpected.len(), 3);
    assert!(unexpected[0].user_text().starts_with("STEP:\nx\n"));
    assert_eq!(llm.request_count(), 5);
}
