//! [`Anthropic`]: Anthropic's Messages API, `POST {base_url}/v1/messages` with
//! `anthropic-version: 2023-06-01` and the key in `x-api-key`.
//!
//! The system part goes in `system` as one text block marked `cache_control: ephemeral`, so
//! Anthropic caches that stable prefix (the system prompt and the PAGE API) across a run's
//! requests; the user message is a list of content blocks: the screenshot first when there is
//! one (a base64 PNG `image` block, where Anthropic advises images to go), then the text.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::{Value, json};

use super::http::{brief, secret_header};
use super::model_params::ModelParams;
use super::{ApiKey, LlmError, ResponseError, Usage, WireFormat};

const PROVIDER: &str = "anthropic";
/// The Messages API version this wire format follows.
const API_VERSION: &str = "2023-06-01";

/// The Anthropic Messages wire format; a provider as [`HttpProvider`]`<Anthropic>`.
///
/// [`HttpProvider`]: super::provider::HttpProvider
#[derive(Debug)]
pub(crate) struct Anthropic {
    pub(crate) params: ModelParams,
    pub(crate) key: ApiKey,
}

impl WireFormat for Anthropic {
    fn headers(&self) -> Result<HeaderMap, LlmError> {
        let mut headers = HeaderMap::new();
        headers.insert(
            HeaderName::from_static("x-api-key"),
            secret_header(self.key.expose())?,
        );
        headers.insert(
            HeaderName::from_static("anthropic-version"),
            HeaderValue::from_static(API_VERSION),
        );
        Ok(headers)
    }

    /// The Messages request. An empty system part sends no `system`.
    fn request_body(&self, system: &str, text: String, screenshot: Option<&[u8]>) -> Value {
        let params = &self.params;
        let mut content = Vec::new();
        if let Some(png) = screenshot {
            content.push(json!({
                "type": "image",
                "source": { "type": "base64", "media_type": "image/png", "data": STANDARD.encode(png) },
            }));
        }
        content.push(json!({ "type": "text", "text": text }));
        let mut body = json!({
            "model": params.model,
            "max_tokens": params.max_tokens,
            "temperature": params.temperature,
            "messages": [{ "role": "user", "content": content }],
        });
        if !system.is_empty() {
            body["system"] = json!([{
                "type": "text",
                "text": system,
                "cache_control": { "type": "ephemeral" },
            }]);
        }
        body
    }

    /// The reply text (every `text` block of `content`, joined) and the usage, 0 where absent:
    /// the input is `usage.input_tokens` plus the prompt-cache figures Anthropic reports apart
    /// from it, `cache_read_input_tokens` (which are the cached part) and
    /// `cache_creation_input_tokens` (written to the cache by this request, so fresh).
    fn read_response(&self, json: &Value) -> Result<(String, Usage), ResponseError> {
        let no_text = |place| ResponseError::NoText {
            place,
            brief: brief(json),
        };
        let Some(blocks) = json["content"].as_array() else {
            return Err(no_text("`content` list"));
        };
        let texts: Vec<&str> = blocks
            .iter()
            .filter(|block| block["type"] == "text")
            .filter_map(|block| block["text"].as_str())
            .collect();
        if texts.is_empty() {
            return Err(no_text("text block in `content`"));
        }
        if json["stop_reason"] == "max_tokens" {
            tracing::warn!(
                provider = PROVIDER,
                "the reply was cut at `llm.max_tokens`; raise it if code comes back incomplete"
            );
        }
        let count = |name: &str| json["usage"][name].as_u64().unwrap_or(0);
        let cached = count("cache_read_input_tokens");
        let usage = Usage {
            input_tokens: count("input_tokens") + count("cache_creation_input_tokens") + cached,
            cached_input_tokens: cached,
            output_tokens: count("output_tokens"),
        };
        Ok((texts.join(""), usage))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn wire() -> Anthropic {
        Anthropic {
            params: ModelParams {
                model: "claude-sonnet-4-5".into(),
                max_tokens: 1000,
                temperature: 0.5,
                timeout: Duration::from_secs(60),
            },
            key: ApiKey::new("sk-ant"),
        }
    }

    #[test]
    fn headers_carry_the_key_and_the_version() {
        let headers = wire().headers().expect("headers");
        assert_eq!(headers.len(), 2);
        assert_eq!(headers["x-api-key"], "sk-ant");
        assert!(headers["x-api-key"].is_sensitive());
        assert_eq!(headers["anthropic-version"], "2023-06-01");
    }

    #[test]
    fn request_has_system_and_text() {
        assert_eq!(
            wire().request_body("SYS", "STEP:\nx\n".into(), None),
            json!({
                "model": "claude-sonnet-4-5",
                "max_tokens": 1000,
                "temperature": 0.5,
                "system": [{ "type": "text", "text": "SYS", "cache_control": { "type": "ephemeral" } }],
                "messages": [{ "role": "user", "content": [{ "type": "text", "text": "STEP:\nx\n" }] }],
            })
        );
        assert!(
            wire()
                .request_body("", "x".into(), None)
                .get("system")
                .is_none()
        );
    }

    #[test]
    fn request_with_a_screenshot_puts_the_image_first() {
        let body = wire().request_body("SYS", "T".into(), Some(b"PNG"));
        assert_eq!(
            body["messages"][0]["content"],
            json!([
                { "type": "image", "source": { "type": "base64", "media_type": "image/png", "data": "UE5H" } },
                { "type": "text", "text": "T" },
            ])
        );
    }

    #[test]
    fn response_text_and_usage() {
        let json = json!({
            "type": "message",
            "content": [
                { "type": "thinking", "thinking": "hmm" },
                { "type": "text", "text": "a" },
                { "type": "text", "text": "b" },
            ],
            "stop_reason": "end_turn",
            "usage": { "input_tokens": 40, "output_tokens": 2 },
        });
        assert_eq!(
            wire().read_response(&json),
            Ok((
                "ab".into(),
                Usage {
                    input_tokens: 40,
                    cached_input_tokens: 0,
                    output_tokens: 2
                }
            ))
        );
    }

    #[test]
    fn prompt_cache_reads_and_writes_count_as_input_and_reads_as_cached() {
        let json = json!({
            "content": [{ "type": "text", "text": "a" }],
            "usage": {
                "input_tokens": 300,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 2200,
                "output_tokens": 50,
            },
        });
        assert_eq!(
            wire().read_response(&json).map(|(_, usage)| usage),
            Ok(Usage {
                input_tokens: 2500,
                cached_input_tokens: 2200,
                output_tokens: 50
            })
        );
        // The first request of a run writes the prefix to the cache: all of it is fresh.
        let json = json!({
            "content": [{ "type": "text", "text": "a" }],
            "usage": { "input_tokens": 300, "cache_creation_input_tokens": 2200, "output_tokens": 50 },
        });
        assert_eq!(
            wire().read_response(&json).map(|(_, usage)| usage),
            Ok(Usage {
                input_tokens: 2500,
                cached_input_tokens: 0,
                output_tokens: 50
            })
        );
    }

    #[test]
    fn response_without_text_is_an_error() {
        let error = |json| wire().read_response(&json).map_err(|e| e.to_string());
        assert_eq!(
            error(json!({ "type": "message" })),
            Err("no `content` list in {\"type\":\"message\"}".into())
        );
        assert_eq!(
            error(json!({ "content": [] })),
            Err("no text block in `content` in {\"content\":[]}".into())
        );
    }
}
