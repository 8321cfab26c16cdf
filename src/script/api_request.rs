//! Step code's HTTP requests (`request.get(...)`, `page.request.post(...)`): Playwright's
//! `APIRequestContext` of the test's browser context, so requests carry the context's cookies
//! and the cookies they set reach its pages.
//!
//! These requests go past the context's routes and the worker's proxy, so everything
//! `[browser] allowed_origins` enforces for the pages is enforced here: each URL, and each
//! redirect's target, is checked before it is requested (redirects are followed here, one hop
//! at a time, for that reason). Bodies and headers are bounded both ways: a response body is
//! read as it arrives and refused once it passes [`MAX_RESPONSE_BODY`] (see
//! `context_requests.rs`). A proof run may mutate what a read request answered (see
//! [`ResponseEdit`]).
//!
//! Main type: [`Fetch`] (one request as step code asked for it); [`send`] runs it.

use std::time::Duration;

use base64::Engine as _;
use serde_json::{Value, json};

use crate::driver::OriginGuard;
use crate::script::FailureKind;
use crate::script::context_requests::{BodyRead, ContextRequests, Hop, set_header};
use crate::script::cut_text::cut_text;
use crate::script::driver_error::HostError;
use crate::script::frame_calls::{LONGEST_TIMEOUT, timeout_of};
use crate::script::http_method::HttpMethod;
use crate::script::mutation::{Mutation, ResponseEdit, TextEdit};
use crate::web_server::{CONNECT_LIMIT, UNREACHABLE_HINT, Unreachable, reach};

/// The most bytes of a request body step code may send.
pub(crate) const MAX_REQUEST_BODY: usize = 1024 * 1024;

/// The most bytes of a response body step code may read, decoded; a longer body's status
/// and headers are still readable, its text is not. The prelude's message names this number.
pub(crate) const MAX_RESPONSE_BODY: usize = 1024 * 1024;

/// The most bytes of headers, names and values together, one request may send, and the most
/// of a response's headers handed to step code (the rest are dropped, with a marker header).
const MAX_HEADER_BYTES: usize = 16 * 1024;

/// How many redirects a request follows unless it says otherwise (Playwright's default).
const DEFAULT_MAX_REDIRECTS: u64 = 20;

/// The statuses Playwright follows as redirects when they carry a `Location`.
const REDIRECTS: [u16; 5] = [301, 302, 303, 307, 308];

/// The body step code asked to send.
#[derive(Debug, Clone, PartialEq)]
enum Body {
    /// `data` as a string: sent as is.
    Raw(String),
    /// `data` as anything else: sent as JSON (with `content-type` JSON if the step set none).
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

    /// The request of one hop to `url`. The body and the headers that describe it go only
    /// while `with_body`; credentials step code set go to its first origin only (`cross`
    /// is set once a redirect left it), as Playwright drops `authorization` there.
    fn hop(&self, url: &url::Url, method: &str, with_body: bool, cross: bool) -> Hop {
        let mut headers: Vec<(String, String)> = self
            .headers
            .iter()
            .filter(|(name, _)| with_body || !name.to_ascii_lowercase().starts_with("content-"))
            .filter(|(name, _)| {
                !cross
                    || !(name.eq_ignore_ascii_case("authorization")
                        || name.eq_ignore_ascii_case("cookie"))
            })
            .cloned()
            .collect();
        // Playwright's `serializePostData`: the bytes, and a content type unless the step set
        // one.
        let body = self
            .body
            .as_ref()
            .filter(|_| with_body)
            .map(|body| match body {
                Body::Raw(raw) => ("application/octet-stream", raw.as_bytes().to_vec()),
                Body::Json(json) => ("application/json", json.as_bytes().to_vec()),
                Body::Form(fields) => (
                    "application/x-www-form-urlencoded",
                    url::form_urlencoded::Serializer::new(String::new())
                        .extend_pairs(fields)
                        .finish()
                        .into_bytes(),
                ),
            });
        if let Some((content_type, _)) = &body
            && !headers
                .iter()
                .any(|(name, _)| name.eq_ignore_ascii_case("content-type"))
        {
            set_header(&mut headers, "content-type", content_type);
        }
        Hop {
            method: method.to_owned(),
            url: url.clone(),
            headers,
            body: body.map(|(_, bytes)| bytes),
        }
    }
}

/// What a request answered, as step code receives it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Answer {
    pub(crate) url: String,
    pub(crate) status: u16,
    pub(crate) status_text: String,
    pub(crate) headers: Vec<(String, String)>,
    /// The body, decoded, or `None` when it is longer than step code may read
    /// ([`MAX_RESPONSE_BODY`]).
    pub(crate) body: Option<Vec<u8>>,
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

/// Sends `fetch` as the context's request context would, checking every hop against `guard`.
pub(crate) async fn send(
    requests: &ContextRequests,
    fetch: &Fetch,
    guard: Option<&OriginGuard>,
) -> Result<Answer, HostError> {
    let work = follow(requests, fetch, guard);
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
    requests: &ContextRequests,
    fetch: &Fetch,
    guard: Option<&OriginGuard>,
) -> Result<Answer, HostError> {
    let mut url = url::Url::parse(&fetch.url)
        .map_err(|err| HostError::script(format!("{}: {err}", fetch.url)))?;
    let mut method = fetch.method.as_str().to_owned();
    let mut with_body = true;
    let mut cross = false;
    let mut hops = 0;
    loop {
        allowed(url.as_str(), guard)?;
        let hop = fetch.hop(&url, &method, with_body, cross);
        let reply = match requests.send(&hop).await {
            Ok(reply) => reply,
            Err(err) => return Err(failed(url.as_str(), &method, err.to_string()).await),
        };
        let status = reply.status;
        if let (true, Some(location)) = (REDIRECTS.contains(&status), reply.location())
            && fetch.max_redirects > 0
        {
            // The redirect's body is never read: dropping the reply closes its connection.
            drop(reply);
            hops += 1;
            if hops > fetch.max_redirects {
                return Err(HostError::script(format!(
                    "Max redirect count exceeded ({} redirects from {})",
                    fetch.max_redirects, fetch.url
                )));
            }
            let next = url.join(&location).map_err(|err| {
                HostError::script(format!("a redirect to {location:?} is not a URL: {err}"))
            })?;
            cross |= next.origin() != url.origin();
            url = next;
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
        let status_text = reply.status_text.clone();
        let headers = reply.headers.clone();
        let body = match reply.read_body(MAX_RESPONSE_BODY).await {
            Ok(BodyRead::Whole(body)) => Some(body),
            Ok(BodyRead::TooLong) => None,
            Err(err) => return Err(failed_plain(url.as_str(), &method, err.to_string())),
        };
        return Ok(Answer {
            url: url.to_string(),
            status,
            status_text,
            headers: bounded_headers(headers),
            body,
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
    fn each_body_form_becomes_its_bytes_and_content_type_and_redirects_drop_them() {
        let hop = |fetch: &Fetch, method: &str, with_body: bool, cross: bool| {
            fetch.hop(
                &url::Url::parse(&fetch.url).unwrap(),
                method,
                with_body,
                cross,
            )
        };
        let header = |hop: &Hop, name: &str| {
            hop.headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let fetch =
            read(json!({ "url": "/api", "method": "POST", "jsonData": "{\"a\":1}" })).unwrap();
        let json_hop = hop(&fetch, "POST", true, false);
        assert_eq!(json_hop.body.as_deref(), Some(&b"{\"a\":1}"[..]));
        assert_eq!(
            header(&json_hop, "content-type").as_deref(),
            Some("application/json")
        );
        let redirected = hop(&fetch, "GET", false, false);
        assert_eq!(redirected.body, None);
        assert_eq!(redirected.method, "GET");
        assert!(redirected.headers.is_empty());
        let typed = read(json!({ "url": "/api", "method": "POST", "jsonData": "{}",
            "headers": [{ "name": "Content-Type", "value": "application/json" },
                        { "name": "Cookie", "value": "a=1" },
                        { "name": "Authorization", "value": "Bearer t" }] }))
        .unwrap();
        let names = |hop: Hop| -> Vec<String> { hop.headers.into_iter().map(|(n, _)| n).collect() };
        assert_eq!(
            names(hop(&typed, "POST", true, false)),
            ["Content-Type", "Cookie", "Authorization"]
        );
        assert_eq!(
            names(hop(&typed, "GET", false, false)),
            ["Cookie", "Authorization"]
        );
        // Credentials the step set stay with the origin it asked for.
        assert_eq!(names(hop(&typed, "GET", false, true)), Vec::<String>::new());
        let fetch = read(json!({ "url": "/api", "postData": "hé" })).unwrap();
        let raw = hop(&fetch, "POST", true, false);
        assert_eq!(raw.body.as_deref(), Some("hé".as_bytes()));
        assert_eq!(
            header(&raw, "content-type").as_deref(),
            Some("application/octet-stream")
        );
        let fetch = read(json!({ "url": "/api", "formData": [{ "name": "a b", "value": "1&2" }] }))
            .unwrap();
        let form = hop(&fetch, "POST", true, false);
        assert_eq!(form.body.as_deref(), Some(&b"a+b=1%262"[..]));
        assert_eq!(
            header(&form, "content-type").as_deref(),
            Some("application/x-www-form-urlencoded")
        );
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
