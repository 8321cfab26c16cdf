//! [`OpenAi`]: any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM,
//! llama.cpp server, LM Studio, OpenRouter), `POST {base_url}/chat/completions`.
//!
//! One system message (the stable prefix of a run's requests, which OpenAI and most compatible
//! servers cache by themselves once it is long enough) and one user message; with a screenshot the user message is a text part
//! and an `image_url` part holding a PNG data URL. The key, when there is one, goes in
//! `Authorization: Bearer`; without one no `Authorization` header is sent (local servers).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use reqwest::header::{AUTHORIZATION, HeaderMap};
use serde_json::{Value, json};

use super::http::{brief, secret_header};
use super::model_params::ModelParams;
use super::{ApiKey, LlmError, ResponseError, Usage, WireFormat};

const PROVIDER: &str = "openai";

/// The OpenAI chat-completions wire format; a provider as [`HttpProvider`]`<OpenAi>`.
///
/// [`HttpProvider`]: super::provider::HttpProvider
#[derive(Debug)]
pub(crate) struct OpenAi {
    pub(crate) params: ModelParams,
    pub(crate) key: Option<ApiKey>,
}

impl WireFormat for OpenAi {
    fn headers(&self) -> Result<HeaderMap, LlmError> {
        let mut headers = HeaderMap::new();
        if let Some(key) = &self.key {
            headers.insert(
                AUTHORIZATION,
                secret_header(&format!("Bearer {}", key.expose()))?,
            );
        }
        Ok(headers)
    }

    /// The chat-completions request. An empty system prompt sends no system message.
    fn request_body(&self, system: &str, text: String, screenshot: Option<&[u8]>) -> Value {
        let params = &self.params;
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
    /// (`usage.prompt_tokens`, of which `usage.prompt_tokens_details.cached_tokens` came from the
    /// prompt cache, and `usage.completion_tokens`; 0 when absent).
    fn read_response(&self, json: &Value) -> Result<(String, Usage), ResponseError> {
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
                    Some(refusal) => ResponseError::Refused(refusal.to_owned()),
                    None => ResponseError::NoText {
                        place: "text at `choices[0].message.content`",
                        brief: brief(json),
                    },
                });
            }
        };
        if choice["finish_reason"] == "length" {
            tracing::warn!(
                provider = PROVIDER,
                "the reply was cut at `llm.max_tokens`; raise it if code comes back incomplete"
            );
        }
        let usage = &json["usage"];
        let input_tokens = usage["prompt_tokens"].as_u64().unwrap_or(0);
        let usage = Usage {
            input_tokens,
            // A subset of the prompt tokens; never more, whatever a server says.
            cached_input_tokens: usage["prompt_tokens_details"]["cached_tokens"]
                .as_u64()
                .unwrap_or(0)
                .min(input_tokens),
            output_tokens: usage["completion_tokens"].as_u64().unwrap_or(0),
        };
        Ok((text, usage))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn wire() -> OpenAi {
        OpenAi {
            params: ModelParams {
                model: "gpt-4o-mini".into(),
                max_tokens: 2048,
                temperature: 0.0,
                timeout: Duration::from_secs(60),
            },
            key: None,
        }
    }

    #[test]
    fn headers_carry_a_bearer_key_only_when_there_is_one() {
        assert!(wire().headers().expect("headers").is_empty());
        let keyed = OpenAi {
            key: Some(ApiKey::new("sk-1")),
            ..wire()
        };
        let headers = keyed.headers().expect("headers");
        assert_eq!(headers.len(), 1);
        assert_eq!(headers[AUTHORIZATION], "Bearer sk-1");
        assert!(headers[AUTHORIZATION].is_sensitive());
    }

    #[test]
    fn request_without_a_screenshot_is_plain_text() {
        assert_eq!(
            wire().request_body("SYS", "STEP:\nx\n".into(), None),
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
        let body = wire().request_body("", "T".into(), Some(b"PNG"));
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
            wire().read_response(&json),
            Ok((
                "hi".into(),
                Usage {
                    input_tokens: 12,
                    cached_input_tokens: 0,
                    output_tokens: 3
                }
            ))
        );
        // A server that used its prompt cache says how much of the prompt came from it.
        let json = json!({
            "choices": [{ "message": { "content": "hi" } }],
            "usage": { "prompt_tokens": 2500, "completion_tokens": 3, "prompt_tokens_details": { "cached_tokens": 2304 } },
        });
        assert_eq!(
            wire().read_response(&json).map(|(_, usage)| usage),
            Ok(Usage {
                input_tokens: 2500,
                cached_input_tokens: 2304,
                output_tokens: 3
            })
        );
        // Parts, and no usage at all.
        let json = json!({
            "choices": [{ "message": { "content": [{ "type": "text", "text": "a" }, { "type": "text", "text": "b" }] } }],
        });
        assert_eq!(
            wire().read_response(&json),
            Ok(("ab".into(), Usage::default()))
        );
    }

    #[test]
    fn response_without_text_is_an_error() {
        let e = wire()
            .read_response(&json!({ "choices": [] }))
            .expect_err("no text")
            .to_string();
        assert_eq!(
            e,
            "no text at `choices[0].message.content` in {\"choices\":[]}"
        );
        let refused = json!({ "choices": [{ "message": { "content": null, "refusal": "no" } }] });
        assert_eq!(
            wire().read_response(&refused).map_err(|e| e.to_string()),
            Err("the model refused: no".into())
        );
        assert!(
            wire()
                .read_response(&json!("x".repeat(500)))
                .expect_err("x")
                .to_string()
                .ends_with('…')
        );
    }
}
