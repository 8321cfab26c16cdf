//! [`Answer`]: what one HTTP response of the LLM endpoint is, decided from its status, content
//! type and body by one pure function, [`Answer::of`].
//!
//! The decision matters because a retry only helps an LLM that is there: a URL that reaches a
//! web server instead (an HTML page, a 404 or 501 without an error in the wire format, a 200
//! whose body is not JSON) is a setting to fix, so it is said at once in one line instead of
//! being retried three times with the page quoted.

use reqwest::StatusCode;
use serde_json::Value;

/// Characters of a response body quoted in an error at most.
pub(super) const QUOTE: usize = 300;

/// What one response is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Answer {
    /// A success in JSON, for the wire format to read.
    Json(Value),
    /// A failure worth another attempt: a rate limit, or a server or gateway error.
    Transient(String),
    /// The LLM refused the request in its own format (a bad key, an unknown model): retrying
    /// would get the same answer.
    Refused(String),
    /// A success whose content type says JSON and whose body is not: the LLM's reply came
    /// garbled or cut.
    Garbled(String),
    /// Something that is not an LLM answered: what it answered, such as `HTTP 501 Not
    /// Implemented with an HTML page (text/html)`.
    NotAnLlm(String),
}

impl Answer {
    /// Decides what a response with `status`, `content_type` and `body` is.
    pub(super) fn of(status: StatusCode, content_type: Option<&str>, body: &[u8]) -> Answer {
        let json = serde_json::from_slice::<Value>(body).ok();
        let html = is_html(content_type, body);
        let shape = || body_shape(content_type, body, html);
        if status.is_success() {
            return match json {
                Some(json) if !html => Answer::Json(json),
                // An endpoint that says JSON and sends broken JSON is an LLM (or its proxy)
                // that garbled or cut its reply, not a web server at the wrong URL; markup is
                // a web page whatever its header says.
                None if !html && declares_json(content_type) && !looks_like_markup(body) => {
                    Answer::Garbled(format!(
                        "the reply says it is JSON and is not: {}",
                        quote(&String::from_utf8_lossy(body))
                    ))
                }
                _ => Answer::NotAnLlm(format!("HTTP {status} with {}", shape())),
            };
        }
        // Every server error but 501 may pass: the CDNs and proxies in front of the hosted LLMs
        // answer their own timeouts and restarts (500, 502-504, Cloudflare's 520-524) with an
        // HTML page, so a page is no sign that the URL is wrong. 501 is a web server saying it
        // has no such method.
        let server_error = status.is_server_error() && status != StatusCode::NOT_IMPLEMENTED;
        if status == StatusCode::TOO_MANY_REQUESTS || server_error {
            // The page says nothing worth quoting.
            let reason = if html {
                format!("HTTP {status} with {}", shape())
            } else {
                status_reason(status, body)
            };
            return Answer::Transient(reason);
        }
        let unknown_path = matches!(
            status,
            StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED | StatusCode::NOT_IMPLEMENTED
        );
        let auth = matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN);
        if html && auth {
            // A login page in front of the endpoint refused the key, which is no sign that the
            // URL is wrong.
            return Answer::Refused(format!("HTTP {status} with {}", shape()));
        }
        if html || (unknown_path && json.is_none()) {
            return Answer::NotAnLlm(format!("HTTP {status} with {}", shape()));
        }
        Answer::Refused(status_reason(status, body))
    }
}

/// Whether the body is empty or starts with `<`.
fn looks_like_markup(body: &[u8]) -> bool {
    let text = String::from_utf8_lossy(body);
    let text = text.trim_start();
    text.is_empty() || text.starts_with('<')
}

/// Whether the content type is JSON (`application/json`, `application/problem+json`...).
fn declares_json(content_type: Option<&str>) -> bool {
    content_type.is_some_and(|kind| {
        let kind = kind.to_ascii_lowercase();
        let essence = kind.split(';').next().unwrap_or_default().trim();
        essence == "application/json" || essence.ends_with("+json")
    })
}

/// Whether the body is an HTML page, by its content type or, without one, by its first
/// character.
fn is_html(content_type: Option<&str>, body: &[u8]) -> bool {
    match content_type {
        Some(kind) => {
            let kind = kind.to_ascii_lowercase();
            kind.starts_with("text/html") || kind.starts_with("application/xhtml")
        }
        None => String::from_utf8_lossy(body).trim_start().starts_with('<'),
    }
}

/// What a body that is not the wire format is, in a few words: `an HTML page (text/html)`,
/// `an empty body`, or `a body that is not JSON (text/plain): <the body, cut>`.
fn body_shape(content_type: Option<&str>, body: &[u8], html: bool) -> String {
    let kind = content_type
        .map(|kind| kind.split(';').next().unwrap_or(kind).trim().to_owned())
        .filter(|kind| !kind.is_empty());
    if html {
        return match kind {
            Some(kind) => format!("an HTML page ({kind})"),
            None => "an HTML page".to_owned(),
        };
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return "an empty body".to_owned();
    }
    let quoted = quote(&String::from_utf8_lossy(body));
    match kind {
        Some(kind) => format!("a body that is not JSON ({kind}): {quoted}"),
        None => format!("a body that is not JSON: {quoted}"),
    }
}

/// `HTTP 401 Unauthorized: <the body's error message>`. Both wire formats put the message at
/// `error.message`; other bodies are quoted as they are.
pub(super) fn status_reason(status: StatusCode, body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let message = serde_json::from_slice::<Value>(body)
        .ok()
        .and_then(|json| match &json["error"] {
            Value::String(message) => Some(message.clone()),
            error => error["message"].as_str().map(str::to_owned),
        })
        .unwrap_or_else(|| text.trim().to_owned());
    if message.is_empty() {
        format!("HTTP {status}")
    } else {
        format!("HTTP {status}: {}", quote(&message))
    }
}

/// The first [`QUOTE`] characters of `text`, whitespace collapsed, with `…` when cut.
pub(super) fn quote(text: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() > QUOTE {
        let cut: String = collapsed.chars().take(QUOTE).collect();
        format!("{cut}…")
    } else {
        collapsed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HTML: Option<&str> = Some("text/html; charset=utf-8");
    const JSON: Option<&str> = Some("application/json");

    fn status(code: u16) -> StatusCode {
        StatusCode::from_u16(code).expect("status")
    }

    fn of(code: u16, content_type: Option<&str>, body: &str) -> Answer {
        Answer::of(status(code), content_type, body.as_bytes())
    }

    #[test]
    fn a_json_success_is_for_the_wire_format() {
        assert_eq!(
            of(200, JSON, r#"{"choices":[]}"#),
            Answer::Json(serde_json::json!({"choices": []}))
        );
    }

    #[test]
    fn a_web_page_is_not_an_llm_whatever_its_status() {
        let page = "<!doctype html><html><body><h1>Unsupported method ('POST')</h1></body></html>";
        assert_eq!(
            of(501, HTML, page),
            Answer::NotAnLlm("HTTP 501 Not Implemented with an HTML page (text/html)".into())
        );
        assert_eq!(
            of(200, HTML, page),
            Answer::NotAnLlm("HTTP 200 OK with an HTML page (text/html)".into())
        );
        assert_eq!(
            of(404, HTML, page),
            Answer::NotAnLlm("HTTP 404 Not Found with an HTML page (text/html)".into())
        );
    }

    #[test]
    fn a_server_error_page_may_pass_and_a_login_page_is_a_refusal() {
        let page = "<!doctype html><html><body><h1>A timeout occurred</h1></body></html>";
        assert_eq!(
            of(500, None, page),
            Answer::Transient("HTTP 500 Internal Server Error with an HTML page".into())
        );
        assert_eq!(
            of(524, HTML, page),
            Answer::Transient(
                "HTTP 524 <unknown status code> with an HTML page (text/html)".into()
            )
        );
        assert_eq!(
            of(401, HTML, page),
            Answer::Refused("HTTP 401 Unauthorized with an HTML page (text/html)".into())
        );
        assert_eq!(
            of(403, HTML, page),
            Answer::Refused("HTTP 403 Forbidden with an HTML page (text/html)".into())
        );
    }

    #[test]
    fn an_unknown_path_without_an_error_in_json_is_not_an_llm() {
        assert_eq!(
            of(404, None, ""),
            Answer::NotAnLlm("HTTP 404 Not Found with an empty body".into())
        );
        assert_eq!(
            of(405, Some("text/plain"), "Method Not Allowed"),
            Answer::NotAnLlm(
                "HTTP 405 Method Not Allowed with a body that is not JSON (text/plain): Method \
                 Not Allowed"
                    .into()
            )
        );
        // Ollama's answer for a model it does not have is the LLM's own refusal.
        assert_eq!(
            of(404, JSON, r#"{"error":"model 'x' not found"}"#),
            Answer::Refused("HTTP 404 Not Found: model 'x' not found".into())
        );
    }

    #[test]
    fn a_success_that_is_not_json_is_not_an_llm() {
        assert_eq!(
            of(200, Some("text/plain"), "hello"),
            Answer::NotAnLlm("HTTP 200 OK with a body that is not JSON (text/plain): hello".into())
        );
        assert_eq!(
            of(200, JSON, ""),
            Answer::NotAnLlm("HTTP 200 OK with an empty body".into())
        );
    }

    #[test]
    fn a_success_that_says_json_and_is_not_is_a_garbled_reply() {
        match of(
            200,
            Some("application/json; charset=utf-8"),
            "this is not json",
        ) {
            Answer::Garbled(reason) => assert!(reason.contains("this is not json"), "{reason}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn rate_limits_and_server_errors_stay_transient() {
        assert_eq!(
            of(429, JSON, r#"{"error":{"message":"slow down"}}"#),
            Answer::Transient("HTTP 429 Too Many Requests: slow down".into())
        );
        assert_eq!(
            of(500, JSON, r#"{"error":{"message":"boom"}}"#),
            Answer::Transient("HTTP 500 Internal Server Error: boom".into())
        );
        assert_eq!(
            of(
                529,
                JSON,
                r#"{"type":"error","error":{"message":"Overloaded"}}"#
            ),
            Answer::Transient("HTTP 529 <unknown status code>: Overloaded".into())
        );
        // A gateway's own page while the LLM behind it restarts.
        assert_eq!(
            of(502, HTML, "<html>bad\n gateway</html>"),
            Answer::Transient("HTTP 502 Bad Gateway with an HTML page (text/html)".into())
        );
        assert_eq!(
            of(503, None, ""),
            Answer::Transient("HTTP 503 Service Unavailable".into())
        );
    }

    #[test]
    fn other_client_errors_are_the_llms_refusal() {
        assert_eq!(
            of(
                401,
                JSON,
                r#"{"error":{"message":"Incorrect API key provided"}}"#
            ),
            Answer::Refused("HTTP 401 Unauthorized: Incorrect API key provided".into())
        );
        assert_eq!(
            of(400, Some("text/plain"), "bad request body"),
            Answer::Refused("HTTP 400 Bad Request: bad request body".into())
        );
    }

    #[test]
    fn status_reason_prefers_the_error_message() {
        let openai =
            br#"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}"#;
        assert_eq!(
            status_reason(StatusCode::UNAUTHORIZED, openai),
            "HTTP 401 Unauthorized: Incorrect API key provided"
        );
        // Ollama and some proxies put a plain string at `error`.
        assert_eq!(
            status_reason(StatusCode::NOT_FOUND, br#"{"error":"model 'x' not found"}"#),
            "HTTP 404 Not Found: model 'x' not found"
        );
        assert_eq!(
            status_reason(StatusCode::BAD_GATEWAY, b"  <html>bad\n gateway</html> "),
            "HTTP 502 Bad Gateway: <html>bad gateway</html>"
        );
        assert_eq!(
            status_reason(StatusCode::BAD_GATEWAY, b""),
            "HTTP 502 Bad Gateway"
        );
    }

    #[test]
    fn quote_cuts_long_text_on_a_char_boundary() {
        let long = "é".repeat(QUOTE + 10);
        let quoted = quote(&long);
        assert_eq!(quoted.chars().count(), QUOTE + 1);
        assert!(quoted.ends_with('…'));
        assert_eq!(quote("a\n\tb"), "a b");
    }
}
