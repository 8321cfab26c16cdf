//! [`OpenAiProvider`]: any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM,
//! llama.cpp server, LM Studio, OpenRouter), `POST {base_url}/chat/completions`.
//!
//! One system message and one user message; with a screenshot the user message is a text part
//! and an `image_url` part holding a PNG data URL. The key, when there is one, goes in
//! `Authorization: Bearer`; without one no `Authorization` header is sent (local servers).

use std::time::Instant;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use serde_json::{Value, json};
use tokio::runtime::Handle;

use super::build::ModelParams;
use super::http::{Transport, brief};
use super::{ApiKey, LlmError, LlmReply, Usage, WireFormat};

const PROVIDER: &str = "openai";

/// The OpenAI chat-completions wire format. Built by [`super::build_provider`].
#[derive(Debug)]
pub struct OpenAiProvider {
    transport: Transport,
    params: ModelParams,
    key: Option<ApiKey>,
}

impl OpenAiProvider {
    /// A provider posting to `endpoint` (`{base_url}/chat/completions`, already validated).
    pub(crate) fn new(
        endpoint: String,
        params: ModelParams,
        key: Option<ApiKey>,
        handle: Handle,
    ) -> Result<Self, LlmError> {
        let transport = Transport::new(PROVIDER, endpoint, params.timeout, key.clone(), handle)?;
        Ok(OpenAiProvider {
            transport,
            params,
            key,
        })
    }
}

impl WireFormat for OpenAiProvider {
    fn call(
        &self,
        system: &str,
        text: String,
        screenshot: Option<&[u8]>,
    ) -> Result<LlmReply, LlmError> {
        let started = Instant::now();
        let body = request_body(&self.params, system, text, screenshot);
        let mut headers = HeaderMap::new();
        if let Some(key) = &self.key {
            let mut value =
                HeaderValue::from_str(&format!("Bearer {}", key.expose())).map_err(|_| {
                    LlmError::Config("the API key holds characters a header cannot carry".into())
                })?;
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        let response = self.transport.post_json(headers, &body)?;
        let (text, usage) = read_response(&response).map_err(|reason| LlmError::BadResponse {
            provider: PROVIDER,
            reason: match &self.key {
                Some(key) => key.redact(&reason),
                None => reason,
            },
        })?;
        Ok(LlmReply {
            text,
            usage,
            elapsed: started.elapsed(),
        })
    }

    fn describe(&self) -> String {
        format!("{PROVIDER}:{}", self.params.model)
    }
}

/// The chat-completions request. An empty system prompt sends no system message.
fn request_body(
    params: &ModelParams,
    system: &str,
    text: String,
    screenshot: Option<&[u8]>,
) -> Value {
    let content = match screenshot {
        None => Value::String(text),
        Some(png) => json!([
            { "type": "text", "text": text },
            {
                "type": "image_url",
                "image_url": { "url": format!("data:image/png;base64,{}", STANDARD.encode(png)) },
            },
        ]),
    };
    let mut messages = Vec::new();
    if !system.is_empty() {
        messages.push(json!({ "role": "system", "content": system }));
    }
    messages.push(json!({ "role": "user", "content": content }));
    json!({
        "model": params.model,
        "messages": messages,
        "max_tokens": params.max_tokens,
        "temperature": params.temperature,
    })
}

/// The reply text (`choices[0].message.content`, a string or text parts) and the usage
/// (`usage.prompt_tokens` / `usage.completion_tokens`, 0 when absent).
fn read_response(json: &Value) -> Result<(String, Usage), String> {
    let choice = &json["choices"][0];
    let message = &choice["message"];
    let text = match &message["content"] {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|part| part["text"].as_str())
            .collect::<Vec<_>>()
            .join(""),
        _ => {
            return Err(match message["refusal"].as_str() {
                Some(refusal) => format!("the model refused: {refusal}"),
                None => format!("no text at `choices[0].message.content` in {}", brief(json)),
            });
        }
    };
    if choice["finish_reason"] == "length" {
        tracing::warn!(
            provider = PROVIDER,
            "the reply was cut at `llm.max_tokens`; raise it if code comes back incomplete"
        );
    }
    let usage = Usage {
        input_tokens: json["usage"]["prompt_tokens"].as_u64().unwrap_or(0),
        output_tokens: json["usage"]["completion_tokens"].as_u64().unwrap_or(0),
    };
    Ok((text, usage))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn params() -> ModelParams {
        ModelParams {
            model: "gpt-4o-mini".into(),
            max_tokens: 2048,
            temperature: 0.0,
            timeout: Duration::from_secs(60),
        }
    }

    #[test]
    fn request_without_a_screenshot_is_plain_text() {
        assert_eq!(
            request_body(&params(), "SYS", "STEP:\nx\n".into(), None),
            json!({
                "model": "gpt-4o-mini",
                "messages": [
                    { "role": "system", "content": "SYS" },
                    { "role": "user", "content": "STEP:\nx\n" },
                ],
                "max_tokens": 2048,
                "temperature": 0.0,
            })
        );
    }

    #[test]
    fn request_with_a_screenshot_has_an_image_part() {
        let body = request_body(&params(), "", "T".into(), Some(b"PNG"));
        assert_eq!(
            body["messages"],
            json!([{
                "role": "user",
                "content": [
                    { "type": "text", "text": "T" },
                    { "type": "image_url", "image_url": { "url": "data:image/png;base64,UE5H" } },
                ],
            }])
        );
    }

    #[test]
    fn response_text_and_usage() {
        let json = json!({
            "choices": [{ "message": { "role": "assistant", "content": "hi" }, "finish_reason": "stop" }],
            "usage": { "prompt_tokens": 12, "completion_tokens": 3 },
        });
        assert_eq!(
            read_response(&json),
            Ok((
                "hi".into(),
                Usage {
                    input_tokens: 12,
                    output_tokens: 3
                }
            ))
        );
        // Parts, and no usage at all.
        let json = json!({
            "choices": [{ "message": { "content": [{ "type": "text", "text": "a" }, { "type": "text", "text": "b" }] } }],
        });
        assert_eq!(read_response(&json), Ok(("ab".into(), Usage::default())));
    }

    #[test]
    fn response_without_text_is_an_error() {
        let e = read_response(&json!({ "choices": [] })).expect_err("no text");
        assert_eq!(
            e,
            "no text at `choices[0].message.content` in {\"choices\":[]}"
        );
        let refused = json!({ "choices": [{ "message": { "content": null, "refusal": "no" } }] });
        assert_eq!(read_response(&refused), Err("the model refused: no".into()));
        assert!(
            read_response(&json!("x".repeat(500)))
                .expect_err("x")
                .ends_with('…')
        );
    }
}
