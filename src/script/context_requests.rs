//! Step code's HTTP requests sent by prettyplay itself, the way Playwright's
//! `APIRequestContext` of the test's browser context sends them (`fetch.ts`): with the
//! context's user agent and extra headers, the context's cookies for the URL, and the cookies
//! a response sets added back to the context, so requests and pages share one session.
//!
//! Sending them here rather than through the driver's `fetch` is what bounds a body: the driver
//! reads a whole response into memory before it hands any of it over, with no limit, while here
//! the body is read chunk by chunk into a [`CappedBody`] and the connection is dropped as soon
//! as the decoded bytes pass the cap.
//!
//! Main type: [`ContextRequests`] (the sender of one test's context); [`Hop`] is one request
//! with no redirect followed, [`Reply`] what it answered.

use std::sync::{Arc, OnceLock};

use playwright_rs::protocol::BrowserContext;
use playwright_rs::server::channel_owner::ChannelOwner;
use rustls_platform_verifier::BuilderVerifierExt;
use serde_json::{Value, json};

use crate::script::capped_body::{BodyError, CappedBody, Encoding};
use crate::script::set_cookie::{SetCookie, cookie_matches};

/// How many header lines a response may have, as in Node.js, whose HTTP client the driver uses.
const MAX_RESPONSE_HEADERS: usize = 2000;

/// Why a request got no usable answer. The display is the underlying cause, which is what
/// step code is shown.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RequestError {
    /// The HTTP client could not be set up.
    #[error("cannot set up the HTTP client: {0}")]
    Client(String),
    /// No response: the connection failed or the server answered with something not HTTP.
    #[error("{}", root_cause(.0))]
    Send(#[source] reqwest::Error),
    /// The body stopped short or was cut by the server.
    #[error("{}", root_cause(.0))]
    Read(#[source] reqwest::Error),
    /// The body is not valid in its encoding.
    #[error("{}: {}", .0, root_cause(.0))]
    Decode(#[source] BodyError),
}

/// reqwest's own message only repeats the URL; the innermost cause says what happened.
fn root_cause(error: &dyn std::error::Error) -> String {
    let mut root = error;
    while let Some(source) = root.source() {
        root = source;
    }
    root.to_string()
}

/// One request as it goes out: no redirect is followed, the caller checks each hop.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Hop {
    pub(crate) method: String,
    pub(crate) url: url::Url,
    /// Step code's headers, in its order; they override the context's.
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Option<Vec<u8>>,
}

/// What a hop answered: the status and headers, and the body still to be read.
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) status_text: String,
    /// Names in lower case (as the HTTP client keeps them), in the order they came.
    pub(crate) headers: Vec<(String, String)>,
    response: reqwest::Response,
}

/// A body as far as it was read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum BodyRead {
    Whole(Vec<u8>),
    /// Its decoded bytes passed the cap: the rest was never read.
    TooLong,
}

impl Reply {
    fn of(response: reqwest::Response) -> Reply {
        Reply {
            status: response.status().as_u16(),
            status_text: status_text(&response),
            headers: response
                .headers()
                .iter()
                .map(|(name, value)| (name.as_str().to_owned(), latin1(value.as_bytes())))
                .collect(),
            response,
        }
    }

    /// The first value of the header `name` (lower case).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Where a redirect points, decoded as UTF-8 as Playwright decodes it.
    pub(crate) fn location(&self) -> Option<String> {
        let value = self.response.headers().get(reqwest::header::LOCATION)?;
        Some(String::from_utf8_lossy(value.as_bytes()).into_owned())
    }

    /// Reads the body, decoded, keeping at most `cap` bytes; a longer one is [`BodyRead::TooLong`]
    /// and its connection is closed unread.
    pub(crate) async fn read_body(mut self, cap: usize) -> Result<BodyRead, RequestError> {
        let encoding = Encoding::of(self.header("content-encoding"));
        let mut body = CappedBody::new(encoding, cap);
        let outcome = loop {
            match self.response.chunk().await {
                Ok(Some(chunk)) => {
                    if let Err(err) = body.push(&chunk) {
                        break Err(err);
                    }
                }
                Ok(None) => break body.finish(),
                Err(err) => return Err(RequestError::Read(err)),
            }
        };
        match outcome {
            Ok(bytes) => Ok(BodyRead::Whole(bytes)),
            Err(BodyError::TooLong { .. }) => Ok(BodyRead::TooLong),
            Err(err) => Err(RequestError::Decode(err)),
        }
    }
}

/// The sender of one browser context's requests, with what of the context's options a request
/// takes (Playwright's `BrowserContextAPIRequestContext._defaultOptions`). prettyplay's
/// contexts set no HTTP credentials, client certificates or `ignoreHTTPSErrors`; their proxy
/// is the worker's `[browser] allowed_origins` proxy, whose check the caller makes on every
/// hop's URL instead.
pub(crate) struct ContextRequests {
    context: BrowserContext,
    client: reqwest::Client,
    user_agent: Option<String>,
    extra_headers: Vec<(String, String)>,
}

impl ContextRequests {
    /// The sender of `context`'s requests. The user agent is the context's, else its browser's
    /// default, as in Playwright.
    pub(crate) async fn of(context: BrowserContext) -> Result<ContextRequests, RequestError> {
        let client = client()?;
        let options = &context.initializer()["options"];
        let mut user_agent = options["userAgent"].as_str().map(str::to_owned);
        if user_agent.is_none()
            && let Some(browser) = context.browser()
        {
            let asked: Result<Value, _> = browser
                .channel()
                .send("defaultUserAgentForTest", json!({}))
                .await;
            match asked {
                Ok(reply) => user_agent = reply["userAgent"].as_str().map(str::to_owned),
                Err(err) => tracing::debug!("the browser's user agent is unknown: {err}"),
            }
        }
        let extra_headers = name_values(&options["extraHTTPHeaders"]);
        Ok(ContextRequests {
            context,
            client,
            user_agent,
            extra_headers,
        })
    }

    /// Sends `hop` with the context's headers and cookies, adds the cookies the response sets
    /// to the context, and returns the response with its body unread.
    pub(crate) async fn send(&self, hop: &Hop) -> Result<Reply, RequestError> {
        let mut headers = default_headers(self.user_agent.as_deref(), &self.extra_headers);
        for (name, value) in &hop.headers {
            set_header(&mut headers, name, value);
        }
        if hop.body.is_some() {
            // The client writes the length of the body it sends.
            headers.retain(|(name, _)| !name.eq_ignore_ascii_case("content-length"));
        }
        if !headers
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("cookie"))
            && let Some(cookie) = self.cookie_header(&hop.url).await
        {
            headers.push(("cookie".to_owned(), cookie));
        }
        let method = reqwest::Method::from_bytes(hop.method.as_bytes())
            .map_err(|err| RequestError::Client(err.to_string()))?;
        let mut request = self.client.request(method, hop.url.clone());
        for (name, value) in headers {
            request = request.header(name, value);
        }
        if let Some(body) = &hop.body {
            request = request.body(body.clone());
        }
        let response = request.send().await.map_err(RequestError::Send)?;
        let reply = Reply::of(response);
        self.keep_cookies(&hop.url, &reply).await;
        Ok(reply)
    }

    /// The context's cookies for `url` as a `Cookie` header, if it has any.
    async fn cookie_header(&self, url: &url::Url) -> Option<String> {
        let cookies = match self.context.cookies(Some(&[url.as_str()])).await {
            Ok(cookies) => cookies,
            Err(err) => {
                tracing::debug!("the context's cookies could not be read: {err}");
                return None;
            }
        };
        let pairs: Vec<String> = cookies
            .iter()
            .filter(|c| cookie_matches(url, &c.domain, &c.path, c.secure))
            .map(|c| format!("{}={}", c.name, c.value))
            .collect();
        (!pairs.is_empty()).then(|| pairs.join("; "))
    }

    /// Adds the cookies `reply` sets to the context. A cookie the browser refuses is left out
    /// and the others kept, as Playwright does.
    async fn keep_cookies(&self, url: &url::Url, reply: &Reply) {
        let now = jiff::Timestamp::now().as_millisecond() as f64 / 1000.0;
        let set = reply
            .headers
            .iter()
            .filter(|(name, _)| name == "set-cookie")
            .map(|(_, value)| value.as_str());
        let cookies: Vec<Value> = SetCookie::of_response(url, set, now)
            .iter()
            .map(SetCookie::to_value)
            .collect();
        if cookies.is_empty() {
            return;
        }
        let channel = self.context.channel();
        if channel
            .send_no_result("addCookies", json!({ "cookies": cookies }))
            .await
            .is_ok()
        {
            return;
        }
        for cookie in cookies {
            let added = channel
                .send_no_result("addCookies", json!({ "cookies": [cookie] }))
                .await;
            if let Err(err) = added {
                tracing::debug!("a cookie a response set was refused: {err}");
            }
        }
    }
}

/// The headers every request starts with, before step code's own (Playwright's `fetch`).
fn default_headers(user_agent: Option<&str>, extra: &[(String, String)]) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    if let Some(agent) = user_agent {
        headers.push(("user-agent".to_owned(), agent.to_owned()));
    }
    headers.push(("accept".to_owned(), "*/*".to_owned()));
    headers.push(("accept-encoding".to_owned(), "gzip,deflate,br".to_owned()));
    for (name, value) in extra {
        set_header(&mut headers, name, value);
    }
    headers
}

/// Sets a header, replacing one of the same name in any case (Playwright's `setHeader`).
pub(crate) fn set_header(headers: &mut Vec<(String, String)>, name: &str, value: &str) {
    match headers
        .iter_mut()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
    {
        Some(existing) => existing.1 = value.to_owned(),
        None => headers.push((name.to_owned(), value.to_owned())),
    }
}

/// The status line's own reason phrase, as Node.js reports it; the standard one when the
/// server wrote that.
fn status_text(response: &reqwest::Response) -> String {
    match response.extensions().get::<hyper::ext::ReasonPhrase>() {
        Some(reason) => latin1(reason.as_bytes()),
        None => response
            .status()
            .canonical_reason()
            .unwrap_or_default()
            .to_owned(),
    }
}

/// Header bytes as Node.js reads them: one character per byte.
fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

fn name_values(value: &Value) -> Vec<(String, String)> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| {
            Some((
                h["name"].as_str()?.to_owned(),
                h["value"].as_str()?.to_owned(),
            ))
        })
        .collect()
}

/// The one HTTP client of the process. It follows no redirect (each hop is checked first),
/// reads no proxy from the environment, decodes nothing itself (the body is decoded under the
/// cap) and keeps no idle connection, so that no connection outlives the test whose request
/// opened it.
fn client() -> Result<reqwest::Client, RequestError> {
    static CLIENT: OnceLock<Result<reqwest::Client, String>> = OnceLock::new();
    let built = CLIENT.get_or_init(|| {
        let crypto = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ClientConfig::builder_with_provider(crypto)
            .with_safe_default_protocol_versions()
            .and_then(|builder| builder.with_platform_verifier())
            .map_err(|e| format!("cannot set up TLS: {e}"))?
            .with_no_client_auth();
        reqwest::Client::builder()
            .tls_backend_preconfigured(tls)
            .http1_only()
            .http1_max_headers(MAX_RESPONSE_HEADERS)
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .pool_max_idle_per_host(0)
            .build()
            .map_err(|e| e.to_string())
    });
    built.clone().map_err(RequestError::Client)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_headers_override_the_contexts_in_any_case() {
        let extra = vec![("X-Team".to_owned(), "a".to_owned())];
        let mut headers = default_headers(Some("Agent/1"), &extra);
        set_header(&mut headers, "Accept", "application/json");
        set_header(&mut headers, "x-team", "b");
        assert_eq!(
            headers,
            [
                ("user-agent".to_owned(), "Agent/1".to_owned()),
                ("accept".to_owned(), "application/json".to_owned()),
                ("accept-encoding".to_owned(), "gzip,deflate,br".to_owned()),
                ("X-Team".to_owned(), "b".to_owned()),
            ]
        );
        assert_eq!(default_headers(None, &[])[0].0, "accept");
    }

    /// Serves `answer` (the raw HTTP bytes, then `tail` repeated until the client goes away)
    /// once on a port of 127.0.0.1, and returns its URL.
    async fn serve_once(answer: &'static [u8], tail: &'static [u8]) -> url::Url {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = url::Url::parse(&format!("http://{}/x", listener.local_addr().unwrap())).unwrap();
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = [0u8; 4096];
            let _ = socket.read(&mut request).await;
            if socket.write_all(answer).await.is_err() {
                return;
            }
            while !tail.is_empty() && socket.write_all(tail).await.is_ok() {}
        });
        url
    }

    async fn get(url: url::Url) -> Reply {
        Reply::of(client().unwrap().get(url).send().await.unwrap())
    }

    #[tokio::test]
    async fn a_redirect_is_returned_not_followed() {
        let url = serve_once(
            b"HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:9/elsewhere\r\nContent-Length: 0\r\n\r\n",
            b"",
        )
        .await;
        let reply = get(url).await;
        assert_eq!(reply.status, 302);
        assert_eq!(
            reply.location().as_deref(),
            Some("http://127.0.0.1:9/elsewhere")
        );
    }

    #[tokio::test]
    async fn an_endless_chunked_body_is_cut_at_the_cap() {
        let url = serve_once(
            b"HTTP/1.1 200 Fine Thanks\r\nTransfer-Encoding: chunked\r\n\r\n",
            b"10\r\n0123456789abcdef\r\n",
        )
        .await;
        let reply = get(url).await;
        assert_eq!(reply.status_text, "Fine Thanks");
        assert_eq!(reply.read_body(64 * 1024).await.unwrap(), BodyRead::TooLong);
    }

    #[tokio::test]
    async fn a_compressed_body_is_read_decoded_with_its_headers_as_sent() {
        let url = serve_once(
            b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 25\r\n\r\n\
              \x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xcb\x48\xcd\xc9\xc9\x07\x00\
              \x86\xa6\x10\x36\x05\x00\x00\x00",
            b"",
        )
        .await;
        let reply = get(url).await;
        assert_eq!(reply.header("content-encoding"), Some("gzip"));
        assert_eq!(reply.status_text, "OK");
        assert_eq!(
            reply.read_body(64 * 1024).await.unwrap(),
            BodyRead::Whole(b"hello".to_vec())
        );
    }

    #[test]
    fn header_bytes_read_as_latin1_and_options_as_name_value_pairs() {
        assert_eq!(latin1(b"caf\xe9"), "café");
        let pairs = name_values(&json!([{ "name": "a", "value": "1" }, { "name": "b" }]));
        assert_eq!(pairs, [("a".to_owned(), "1".to_owned())]);
        assert!(name_values(&Value::Null).is_empty());
    }
}
