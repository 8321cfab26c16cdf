//! Step code's HTTP requests (`request.get(...)`, `page.request.post(...)`): Playwright's
//! `APIRequestContext` of the test's browser context, so requests carry the context's cookies
//! and the cookies they set reach its pages.
//!
//! The driver sends these requests itself, past the context's routes and the worker's proxy,
//! so everything `[browser] allowed_origins` enforces for the pages is enforced here: each URL,
//! and each redirect's target, is checked before it is requested (redirects are followed here,
//! one hop at a time, for that reason). Bodies and headers are bounded both ways, and a proof
//! run may mutate what a read request answered (see [`ResponseEdit`]).
//!
//! Main type: [`Fetch`] (one request as step code asked for it); [`send`] runs it.

use std::time::Duration;

use base64::Engine as _;
use playwright_rs::protocol::APIRequestContext;
use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};

use crate::driver::OriginGuard;
use crate::script::FailureKind;
use crate::script::cut_text::cut_text;
use crate::script::driver_error::HostError;
use crate::script::frame_calls::{LONGEST_TIMEOUT, timeout_of};
use crate::script::http_method::HttpMethod;
use crate::script::mutation::{Mutation, ResponseEdit, TextEdit};
use crate::web_server::{CONNECT_LIMIT, UNREACHABLE_HINT, Unreachable, reach};

/// The most bytes of a request body step code may send.
pub(crate) const MAX_REQUEST_BODY: usize = 1024 * 1024;

/// The most bytes of a response body step code may read; a longer body's status and headers
/// are still readable, its text is not.
pub(crate) const MAX_RESPONSE_BODY: usize = 1024 * 1024;

/// The most bytes of headers, names and values together, one request may send, and the most
/// of a response's headers handed to step code (the rest are dropped, with a marker header).
const MAX_HEADER_BYTES: usize = 16 * 1024;

/// How many redirects a request follows unless it says otherwise (Playwright's default).
const DEFAULT_MAX_REDIRECTS: u64 = 20;

/// The body step code asked to send.
#[derive(Debug, Clone, PartialEq)]
enum Body {
    /// `data` as a string: sent as is.
    Raw(String),
    /// `data` as anything else: sent as JSON (the driver sets `content-type` if the step did
    /// not).
    Json(String),
    /// `form`: sent as `application/x-www-form-urlencoded`.
    Form(Vec<(String, String)>),
}

/// One request as step code asked for it, read from the prelude's parameters.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fetch {
    /// The URL resolved against the base URL, query parameters appended.
    pub(crate) url: String,
    pub(crate) method: HttpMethod,
    headers: Vec<(String, String)>,
    body: Option<Body>,
    timeout: Duration,
    max_redirects: u64,
    fail_on_status: bool,
}

impl Fetch {
    /// Reads the prelude's parameters; `base` is the test's base URL. `timeout_ms` of 0 means
    /// no timeout, as everywhere in Playwright.
    pub(crate) fn read(params: &Value, base: Option<&str>) -> Result<Fetch, HostError> {
        let text = |key: &str| params.get(key).and_then(Value::as_str);
        let asked =
            text("url").ok_or_else(|| HostError::script("a request needs a url".to_owned()))?;
        let url = resolve(base, asked)?;
        let url = with_query(url, params.get("params"))?;
        let asked_method = text("method").unwrap_or("GET");
        let method = HttpMethod::new(asked_method).ok_or_else(|| {
            HostError::script(format!(
                "{:?} is not an HTTP method",
                asked_method.to_ascii_uppercase()
            ))
        })?;
        // CONNECT opens a tunnel and TRACE echoes the request back, credentials included:
        // neither is a call to an app's API.
        if matches!(method.as_str(), "CONNECT" | "TRACE") {
            return Err(HostError::script(format!(
                "step code may not send {method} requests"
            )));
        }
        let headers = pairs(params.get("headers"), "headers")?;
        let header_bytes: usize = headers.iter().map(|(n, v)| n.len() + v.len()).sum();
        if header_bytes > MAX_HEADER_BYTES {
            return Err(HostError::script(format!(
                "the request's headers are {header_bytes} bytes; step code may send at most \
                 {MAX_HEADER_BYTES}"
            )));
        }
        let body = match (text("postData"), text("jsonData"), params.get("formData")) {
            (Some(raw), None, None) => Some(Body::Raw(raw.to_owned())),
            (None, Some(json), None) => Some(Body::Json(json.to_owned())),
            (None, None, Some(form)) => Some(Body::Form(pairs(Some(form), "form")?)),
            (None, None, None) => None,
            _ => {
                return Err(HostError::script(
                    "only one of data and form may be given".to_owned(),
                ));
            }
        };
        let size = match &body {
            Some(Body::Raw(s) | Body::Json(s)) => s.len(),
            Some(Body::Form(fields)) => fields.iter().map(|(n, v)| n.len() + v.len() + 2).sum(),
            None => 0,
        };
        if size > MAX_REQUEST_BODY {
            return Err(HostError::script(format!(
                "the request's body is {size} bytes; step code may send at most \
                 {MAX_REQUEST_BODY}"
            )));
        }
        let timeout_ms = number(params, "timeout")?.unwrap_or(0.0);
        // Playwright's 0 means "no timeout"; the test's own deadline still ends the test.
        let timeout = timeout_of(timeout_ms).unwrap_or(LONGEST_TIMEOUT);
        let max_redirects = match number(params, "maxRedirects")? {
            None => DEFAULT_MAX_REDIRECTS,
            Some(n) if n.fract() == 0.0 => n as u64,
            Some(n) => {
                return Err(HostError::script(format!(
                    "maxRedirects must be a whole number of redirects, not {n}"
                )));
            }
        };
        Ok(Fetch {
            url,
            method,
            headers,
            body,
            timeout,
            max_redirects,
            fail_on_status: params.get("failOnStatusCode").and_then(Value::as_bool) == Some(true),
        })
    }

    /// The protocol parameters of one hop to `url`. Redirects are never left to the driver.
    fn params(&self, url: &str, method: &str, with_body: bool) -> Value {
        let mut params = json!({
            "url": url,
            "method": method,
            "maxRedirects": 0,
            // A redirect that drops the body drops the headers that describe it.
            "headers": self
                .headers
                .iter()
                .filter(|(name, _)| with_body || !name.to_ascii_lowercase().starts_with("content-"))
                .map(|(name, value)| json!({ "name": name, "value": value }))
                .collect::<Vec<_>>(),
        });
        match self.body.as_ref().filter(|_| with_body) {
            Some(Body::Raw(raw)) => {
                params["postData"] =
                    json!(base64::engine::general_purpose::STANDARD.encode(raw.as_bytes()));
            }
            Some(Body::Json(json)) => params["jsonData"] = json!(json),
            Some(Body::Form(fields)) => {
                params["formData"] = fields
                    .iter()
                    .map(|(name, value)| json!({ "name": name, "value": value }))
                    .collect();
            }
            None => {}
        }
        params
    }
}

/// What a request answered, as step code receives it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Answer {
    pub(crate) url: String,
    pub(crate) status: u16,
    pub(crate) status_text: String,
    pub(crate) headers: Vec<(String, String)>,
    /// The body, or `None` when it is longer than step code may read.
    pub(crate) body: Option<Vec<u8>>,
    /// The body's length in bytes.
    pub(crate) length: usize,
}

impl Answer {
    /// The value the prelude's `APIResponse` is built from.
    pub(crate) fn to_value(&self, fail_on_status: bool) -> Result<Value, HostError> {
        let text = self
            .body
            .as_ref()
            .map(|b| String::from_utf8_lossy(b).into_owned());
        if fail_on_status && !(200..400).contains(&self.status) {
            let mut message = format!("{} {}", self.status, self.status_text);
            if let Some(text) = &text {
                message.push_str("\nResponse text:\n");
                message.push_str(&cut_text(text.clone(), 1000));
            }
            return Err(HostError::script(message));
        }
        let binary = self
            .body
            .as_ref()
            .filter(|b| std::str::from_utf8(b).is_err())
            .map(|b| base64::engine::general_purpose::STANDARD.encode(b));
        Ok(json!({
            "url": self.url,
            "status": self.status,
            "statusText": self.status_text,
            "headers": self
                .headers
                .iter()
                .map(|(name, value)| json!({ "name": name, "value": value }))
                .collect::<Vec<_>>(),
            "text": text,
            "binary": binary,
            "length": self.length,
        }))
    }

    /// Applies a proof's edit; answers how many places it changed.
    pub(crate) fn edit(&mut self, edit: &ResponseEdit) -> u64 {
        match edit {
            ResponseEdit::Status { from, to } => {
                if self.status != *from {
                    return 0;
                }
                self.status = *to;
                self.status_text = String::new();
                1
            }
            ResponseEdit::Text { needle, edit } => {
                let Some(body) = &self.body else {
                    return 0;
                };
                let Ok(text) = std::str::from_utf8(body) else {
                    return 0;
                };
                let (edited, count) = edit_body(text, needle, edit);
                if count > 0 {
                    self.length = edited.len();
                    self.body = Some(edited.into_bytes());
                }
                count
            }
        }
    }
}

/// `text` with every occurrence of `needle` changed by `edit`, in JSON string values when the
/// text is JSON (keys and the structure stay), else anywhere; and how many it changed.
fn edit_body(text: &str, needle: &str, edit: &TextEdit) -> (String, u64) {
    if needle.is_empty() {
        return (text.to_owned(), 0);
    }
    let miss = Mutation::near_miss(needle, edit);
    if let Ok(mut json) = serde_json::from_str::<Value>(text) {
        let mut count = 0;
        edit_strings(&mut json, needle, &miss, &mut count);
        return (json.to_string(), count);
    }
    let count = text.matches(needle).count() as u64;
    (text.replace(needle, &miss), count)
}

fn edit_strings(value: &mut Value, needle: &str, miss: &str, count: &mut u64) {
    match value {
        Value::String(s) if s.contains(needle) => {
            *count += s.matches(needle).count() as u64;
            *s = s.replace(needle, miss);
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|v| edit_strings(v, needle, miss, count)),
        Value::Object(map) => map
            .values_mut()
            .for_each(|v| edit_strings(v, needle, miss, count)),
        _ => {}
    }
}

/// Sends `fetch` through the context's request context, checking every hop against `guard`.
pub(crate) async fn send(
    context: &APIRequestContext,
    fetch: &Fetch,
    guard: Option<&OriginGuard>,
) -> Result<Answer, HostError> {
    let work = follow(context, fetch, guard);
    match tokio::time::timeout(fetch.timeout, work).await {
        Ok(answer) => answer,
        Err(_) => Err(HostError {
            kind: FailureKind::Timeout,
            message: format!(
                "Timeout {}ms exceeded.\nCall log:\n  - → {} {}",
                fetch.timeout.as_millis(),
                fetch.method,
                fetch.url
            ),
            log: Vec::new(),
            received: None,
        }),
    }
}

async fn follow(
    context: &APIRequestContext,
    fetch: &Fetch,
    guard: Option<&OriginGuard>,
) -> Result<Answer, HostError> {
    let mut url = fetch.url.clone();
    let mut method = fetch.method.as_str().to_owned();
    let mut with_body = true;
    let mut hops = 0;
    loop {
        allowed(&url, guard)?;
        let params = fetch.params(&url, &method, with_body);
        let reply: Value = match context.channel().send("fetch", params).await {
            Ok(reply) => reply,
            Err(err) => return Err(failed(&url, &method, err.to_string()).await),
        };
        let response = &reply["response"];
        let uid = response["fetchUid"].as_str().unwrap_or_default().to_owned();
        let status = response["status"].as_u64().unwrap_or(0) as u16;
        let headers = header_pairs(&response["headers"]);
        let location = headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("location"))
            .map(|(_, value)| value.clone());
        if let (true, Some(location)) = ((300..400).contains(&status), location)
            && fetch.max_redirects > 0
        {
            dispose(context, &uid).await;
            hops += 1;
            if hops > fetch.max_redirects {
                return Err(HostError::script(format!(
                    "Max redirect count exceeded ({} redirects from {})",
                    fetch.max_redirects, fetch.url
                )));
            }
            url = url::Url::parse(&url)
                .and_then(|u| u.join(&location))
                .map(|u| u.to_string())
                .map_err(|err| {
                    HostError::script(format!("a redirect to {location:?} is not a URL: {err}"))
                })?;
            // As browsers do: 303 turns any method but HEAD into GET, 301 and 302 turn POST
            // into GET; only 307 and 308 resend the body.
            if (status == 303 && method != "HEAD")
                || (matches!(status, 301 | 302) && method == "POST")
            {
                method = "GET".to_owned();
                with_body = false;
            }
            continue;
        }
        // A body the headers say is too long is not fetched from the driver at all.
        let declared = headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, value)| value.trim().parse::<usize>().ok())
            .filter(|&length| length > MAX_RESPONSE_BODY);
        let body = match declared {
            Some(_) => Ok(Vec::new()),
            None => read_body(context, &uid).await,
        };
        dispose(context, &uid).await;
        let body = body.map_err(|err| failed_plain(&url, &method, err.to_string()))?;
        let length = declared.unwrap_or(body.len());
        return Ok(Answer {
            url: response["url"].as_str().unwrap_or(&url).to_owned(),
            status,
            status_text: response["statusText"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            headers: bounded_headers(headers),
            body: (length <= MAX_RESPONSE_BODY).then_some(body),
            length,
        });
    }
}

/// Refuses a URL step code may not request: any scheme but `http:` and `https:` (step code
/// has no filesystem), and an origin `[browser] allowed_origins` does not allow.
fn allowed(url: &str, guard: Option<&OriginGuard>) -> Result<(), HostError> {
    let blocked = |message: String| HostError {
        kind: FailureKind::Blocked,
        message,
        log: Vec::new(),
        received: None,
    };
    match guard {
        Some(guard) => guard
            .refuse_request(url)
            .map_err(|refused| blocked(refused.to_string())),
        None => {
            let http = url::Url::parse(url).is_ok_and(|u| matches!(u.scheme(), "http" | "https"));
            if http {
                Ok(())
            } else {
                Err(HostError::script(format!(
                    "{url}: step code may request http: and https: URLs only"
                )))
            }
        }
    }
}

async fn read_body(context: &APIRequestContext, uid: &str) -> Result<Vec<u8>, BodyError> {
    let reply: Value = context
        .channel()
        .send("fetchResponseBody", json!({ "fetchUid": uid }))
        .await?;
    match reply["binary"].as_str() {
        Some(encoded) => Ok(base64::engine::general_purpose::STANDARD.decode(encoded)?),
        None => Ok(Vec::new()),
    }
}

/// Why a response's body could not be read. Step code sees the text, so the cause is part of
/// it.
#[derive(Debug, thiserror::Error)]
enum BodyError {
    #[error(transparent)]
    Driver(#[from] playwright_rs::Error),
    #[error("the response body could not be read: {0}")]
    Undecodable(#[from] base64::DecodeError),
}

async fn dispose(context: &APIRequestContext, uid: &str) {
    if uid.is_empty() {
        return;
    }
    let sent = context
        .channel()
        .send_no_result("disposeAPIResponse", json!({ "fetchUid": uid }))
        .await;
    if let Err(err) = sent {
        tracing::debug!("an API response was not disposed of: {err}");
    }
}

/// What a request that got no response says: the app could not be reached when a direct
/// connection to its origin fails too, else the driver's error.
async fn failed(url: &str, method: &str, message: String) -> HostError {
    if let Err(Unreachable(what)) = reach(url, CONNECT_LIMIT).await {
        return HostError {
            kind: FailureKind::Unreachable,
            message: format!("APP UNREACHABLE: {method} {url} — {what}; {UNREACHABLE_HINT}"),
            log: Vec::new(),
            received: None,
        };
    }
    failed_plain(url, method, message)
}

fn failed_plain(url: &str, method: &str, message: String) -> HostError {
    HostError::script(format!(
        "{}\nCall log:\n  - → {method} {url}",
        message.lines().next().unwrap_or_default()
    ))
}

fn header_pairs(headers: &Value) -> Vec<(String, String)> {
    headers
        .as_array()
        .map(|all| {
            all.iter()
                .filter_map(|h| {
                    Some((
                        h["name"].as_str()?.to_owned(),
                        h["value"].as_str()?.to_owned(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The response's headers within [`MAX_HEADER_BYTES`]; one header says how many were left out.
fn bounded_headers(headers: Vec<(String, String)>) -> Vec<(String, String)> {
    let mut kept = Vec::new();
    let mut bytes = 0;
    let total = headers.len();
    for (name, value) in headers {
        bytes += name.len() + value.len();
        if bytes > MAX_HEADER_BYTES {
            break;
        }
        kept.push((name, value));
    }
    if kept.len() < total {
        let cut = total - kept.len();
        kept.push((
            "x-prettyplay-headers-cut".to_owned(),
            format!("{cut} header(s) past {MAX_HEADER_BYTES} bytes were left out"),
        ));
    }
    kept
}

/// Reads name/value pairs given as an array of `{ name, value }` (the prelude's form).
fn pairs(value: Option<&Value>, what: &str) -> Result<Vec<(String, String)>, HostError> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let items = value
        .as_array()
        .ok_or_else(|| HostError::script(format!("{what} must be an object of strings")))?;
    items
        .iter()
        .map(
            |item| match (item["name"].as_str(), item["value"].as_str()) {
                (Some(name), Some(value)) => Ok((name.to_owned(), value.to_owned())),
                _ => Err(HostError::script(format!(
                    "{what} must be an object of strings"
                ))),
            },
        )
        .collect()
}

/// The URL step code asked for, resolved against the base URL. A relative URL needs one.
fn resolve(base: Option<&str>, url: &str) -> Result<String, HostError> {
    if let Ok(absolute) = url::Url::parse(url) {
        return Ok(absolute.to_string());
    }
    let base = base.ok_or_else(|| HostError {
        kind: FailureKind::Misconfigured,
        message: format!(
            "CONFIGURATION ERROR: the request's URL {url:?} is relative and no base URL is set: \
             set [browser] base_url in prettyplay.toml (or --base-url), or write an absolute URL"
        ),
        log: Vec::new(),
        received: None,
    })?;
    url::Url::parse(base)
        .and_then(|b| b.join(url))
        .map(|u| u.to_string())
        .map_err(|err| HostError::script(format!("{url:?} is not a URL: {err}")))
}

/// Appends `params` (an array of `{ name, value }`, or an encoded query string) to the URL.
fn with_query(url: String, params: Option<&Value>) -> Result<String, HostError> {
    let Some(params) = params else {
        return Ok(url);
    };
    let mut parsed =
        url::Url::parse(&url).map_err(|err| HostError::script(format!("{url}: {err}")))?;
    match params {
        Value::String(encoded) => {
            let encoded = encoded.trim_start_matches('?');
            let query = match parsed.query() {
                Some(q) if !q.is_empty() => format!("{q}&{encoded}"),
                _ => encoded.to_owned(),
            };
            parsed.set_query(Some(&query));
        }
        other => {
            let fields = pairs(Some(other), "params")?;
            let mut query = parsed.query_pairs_mut();
            for (name, value) in &fields {
                query.append_pair(name, value);
            }
        }
    }
    Ok(parsed.to_string())
}

/// The option `key` of the request as a number of at least 0, when given.
fn number(params: &Value, key: &str) -> Result<Option<f64>, HostError> {
    match params.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => match value.as_f64() {
            Some(n) if n >= 0.0 => Ok(Some(n)),
            _ => Err(HostError::script(format!(
                "{key} must be a number of at least 0, not {value}"
            ))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(params: Value) -> Result<Fetch, HostError> {
        Fetch::read(&params, Some("http://127.0.0.1:4000/app/"))
    }

    #[test]
    fn urls_resolve_against_the_base_url_with_their_query() {
        let fetch =
            read(json!({ "url": "/api/todos", "params": [{ "name": "q", "value": "a b" }] }))
                .unwrap();
        assert_eq!(fetch.url, "http://127.0.0.1:4000/api/todos?q=a+b");
        assert_eq!(fetch.method.as_str(), "GET");
        let fetch = read(json!({ "url": "todos?x=1", "params": "y=2", "method": "post" })).unwrap();
        assert_eq!(fetch.url, "http://127.0.0.1:4000/app/todos?x=1&y=2");
        assert_eq!(fetch.method.as_str(), "POST");
        let fetch = read(json!({ "url": "https://api.example.com/v1" })).unwrap();
        assert_eq!(fetch.url, "https://api.example.com/v1");
    }

    #[test]
    fn a_relative_url_without_a_base_url_is_a_configuration_error() {
        let err = Fetch::read(&json!({ "url": "/api" }), None).unwrap_err();
        assert_eq!(err.kind, FailureKind::Misconfigured);
        assert!(err.message.contains("base_url"), "{}", err.message);
    }

    #[test]
    fn timeouts_redirect_limits_and_methods_are_checked() {
        assert_eq!(
            read(json!({ "url": "/", "timeout": 1e300 }))
                .unwrap()
                .timeout,
            LONGEST_TIMEOUT
        );
        assert_eq!(
            read(json!({ "url": "/", "timeout": 250 })).unwrap().timeout,
            Duration::from_millis(250)
        );
        assert_eq!(
            read(json!({ "url": "/", "maxRedirects": 0 }))
                .unwrap()
                .max_redirects,
            0
        );
        for (key, bad) in [
            ("timeout", json!(-5)),
            ("timeout", json!("soon")),
            ("maxRedirects", json!(-1)),
            ("maxRedirects", json!(1.5)),
        ] {
            let err = read(json!({ "url": "/", key: bad })).unwrap_err();
            assert!(err.message.starts_with(key), "{key} {bad}: {}", err.message);
        }
        for method in ["CONNECT", "trace"] {
            let err = read(json!({ "url": "/", "method": method })).unwrap_err();
            assert!(err.message.contains("may not send"), "{}", err.message);
        }
    }

    #[test]
    fn bodies_and_headers_are_bounded() {
        let big = "x".repeat(MAX_REQUEST_BODY + 1);
        let err = read(json!({ "url": "/", "postData": big })).unwrap_err();
        assert!(err.message.contains("at most 1048576"), "{}", err.message);
        let err = read(json!({ "url": "/", "jsonData": format!("{:?}", big) })).unwrap_err();
        assert!(err.message.contains("body"), "{}", err.message);
        let header = json!([{ "name": "x", "value": "y".repeat(MAX_HEADER_BYTES) }]);
        let err = read(json!({ "url": "/", "headers": header })).unwrap_err();
        assert!(err.message.contains("headers"), "{}", err.message);
        let err = read(json!({ "url": "/", "jsonData": "1", "postData": "x" })).unwrap_err();
        assert!(err.message.contains("only one"), "{}", err.message);
        let err = read(json!({ "url": "/", "method": "GET /x" })).unwrap_err();
        assert!(
            err.message.contains("not an HTTP method"),
            "{}",
            err.message
        );
    }

    #[test]
    fn each_body_form_becomes_its_protocol_field_and_redirects_stay_with_the_binding() {
        let fetch =
            read(json!({ "url": "/api", "method": "POST", "jsonData": "{\"a\":1}" })).unwrap();
        let params = fetch.params(&fetch.url, "POST", true);
        assert_eq!(params["jsonData"], "{\"a\":1}");
        assert_eq!(params["maxRedirects"], 0);
        assert!(
            fetch
                .params(&fetch.url, "GET", false)
                .get("jsonData")
                .is_none()
        );
        let typed = read(json!({ "url": "/api", "method": "POST", "jsonData": "{}",
            "headers": [{ "name": "Content-Type", "value": "application/json" },
                        { "name": "Cookie", "value": "a=1" }] }))
        .unwrap();
        let names = |params: Value| -> Vec<String> {
            params["headers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["name"].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(
            names(typed.params(&typed.url, "POST", true)),
            ["Content-Type", "Cookie"]
        );
        assert_eq!(names(typed.params(&typed.url, "GET", false)), ["Cookie"]);
        let fetch = read(json!({ "url": "/api", "postData": "hé" })).unwrap();
        let params = fetch.params(&fetch.url, "POST", true);
        assert_eq!(
            params["postData"],
            base64::engine::general_purpose::STANDARD.encode("hé")
        );
        let fetch =
            read(json!({ "url": "/api", "formData": [{ "name": "a", "value": "1" }] })).unwrap();
        let params = fetch.params(&fetch.url, "POST", true);
        assert_eq!(params["formData"], json!([{ "name": "a", "value": "1" }]));
    }

    #[test]
    fn only_http_urls_are_requested_even_when_every_origin_is_allowed() {
        for url in [
            "file:///etc/passwd",
            "data:text/plain,x",
            "ftp://example.com/",
        ] {
            let err = allowed(url, None).unwrap_err();
            assert!(
                err.message.contains("http: and https:"),
                "{url}: {}",
                err.message
            );
        }
        assert!(allowed("https://example.com/", None).is_ok());
    }

    fn answer(body: &str, status: u16) -> Answer {
        Answer {
            url: "http://127.0.0.1/api".into(),
            status,
            status_text: "OK".into(),
            headers: vec![],
            body: Some(body.as_bytes().to_vec()),
            length: body.len(),
        }
    }

    #[test]
    fn a_text_edit_changes_json_string_values_only() {
        let mut a = answer(r#"[{"milk":"milk","n":1},{"title":"oat milk"}]"#, 200);
        let edit = ResponseEdit::Text {
            needle: "milk".into(),
            edit: TextEdit::Prefix("x".into()),
        };
        assert_eq!(a.edit(&edit), 2);
        let text = String::from_utf8(a.body.clone().unwrap()).unwrap();
        assert_eq!(text, r#"[{"milk":"xmilk","n":1},{"title":"oat xmilk"}]"#);
        let mut plain = answer("milk and milk", 200);
        assert_eq!(plain.edit(&edit), 2);
        assert_eq!(plain.body.unwrap(), b"xmilk and xmilk");
        let mut none = answer("[]", 200);
        assert_eq!(none.edit(&edit), 0);
    }

    #[test]
    fn a_status_edit_keeps_the_class() {
        assert_eq!(ResponseEdit::other_status(200), 201);
        assert_eq!(ResponseEdit::other_status(201), 200);
        assert_eq!(ResponseEdit::other_status(404), 403);
        let mut a = answer("", 200);
        assert_eq!(a.edit(&ResponseEdit::Status { from: 404, to: 403 }), 0);
        assert_eq!(a.edit(&ResponseEdit::Status { from: 200, to: 201 }), 1);
        assert_eq!(a.status, 201);
    }

    #[test]
    fn a_failing_status_fails_the_call_when_asked_with_the_text_cut() {
        let a = answer(&"e".repeat(5000), 500);
        let err = a.to_value(true).unwrap_err();
        assert!(
            err.message.starts_with("500 OK\nResponse text:\n"),
            "{}",
            err.message
        );
        assert!(err.message.len() < 1200);
        assert!(a.to_value(false).is_ok());
        let value = answer("ok", 302).to_value(true).unwrap();
        assert_eq!(value["text"], "ok");
        assert!(value["binary"].is_null());
    }

    #[test]
    fn long_header_lists_are_cut_with_a_marker() {
        let many: Vec<(String, String)> = (0..100)
            .map(|i| (format!("h{i}"), "v".repeat(400)))
            .collect();
        let kept = bounded_headers(many);
        assert!(kept.len() < 100);
        assert_eq!(kept.last().unwrap().0, "x-prettyplay-headers-cut");
    }
}
