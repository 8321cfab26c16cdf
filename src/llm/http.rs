//! [`Transport`]: the HTTP side shared by both providers — one chat call to one endpoint: timing,
//! the JSON POST with the bounded transport retry, and redaction. A [`WireFormat`] supplies only
//! the headers, the request body and the reading of the reply.
//!
//! A call makes at most [`ATTEMPTS`] attempts. Connection errors, timeouts, 429 and 5xx are
//! retried after an exponential backoff (0.5 s, then 1 s), or after the `Retry-After` seconds a
//! 429 or 503 asks for (capped at [`MAX_WAIT`]). Any other status is final at once, and so is an
//! answer from something that is not an LLM (an HTML page, a 404 or 501 outside the wire
//! format, a success that is not JSON: see `answer.rs`), which is [`LlmError::NotAnLlm`]. A
//! request's deadline (the test's) bounds the whole call: each attempt gets at most the time
//! left before it, and a wait that would cross it is never slept: the call gives up at once.
//! Whatever is left after the last attempt is [`LlmError::Unavailable`], which the engine never
//! retries; a success over [`MAX_REPLY_BYTES`] is [`LlmError::BadResponse`].
//! The API key is scrubbed from every reason and from the reply text.
//!
//! [`Transport::call`] blocks: it runs the request with `Handle::block_on`, so it must be
//! called from a plain thread (a test's thread), never from inside the runtime, and the handle
//! must belong to a multi-thread runtime with IO and time enabled.

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderValue, RETRY_AFTER};
use rustls_platform_verifier::BuilderVerifierExt;
use serde_json::Value;
use tokio::runtime::Handle;

use super::answer::{Answer, QUOTE, quote};
use super::{ApiKey, LlmError, LlmReply, WireFormat};

/// Attempts per call, the first included.
const ATTEMPTS: u32 = 3;
/// Backoff before the second attempt; doubled before each later one.
const BACKOFF: Duration = Duration::from_millis(500);
/// The longest wait between attempts a `Retry-After` can ask for.
const MAX_WAIT: Duration = Duration::from_secs(30);
/// The most bytes of a response body read: far above any step code or verdict, far below a
/// runaway reply. A success with a longer body is [`LlmError::BadResponse`]; the body is not
/// read past the limit.
pub(crate) const MAX_REPLY_BYTES: usize = 1024 * 1024;

/// One endpoint of one provider, and the client that reaches it.
#[derive(Debug)]
pub(crate) struct Transport {
    client: reqwest::Client,
    handle: Handle,
    provider: &'static str,
    /// The full URL posted to.
    endpoint: String,
    timeout: Duration,
    /// Scrubbed from every error reason.
    key: Option<ApiKey>,
    /// What a reply of the wire format is, for an answer that is not one: `an OpenAI-compatible
    /// chat completion`.
    expected: &'static str,
    /// Where the endpoint's base URL was set (`` `--llm-base-url` ``), for the same answer.
    check: String,
}

/// What a transport expects at its endpoint, for the error when something else answers.
#[derive(Debug, Clone)]
pub(crate) struct Expects {
    /// A reply of the wire format, as the error names it: `an Anthropic Messages reply`.
    pub(crate) reply: &'static str,
    /// Where the base URL was set: `` `[llm] base_url` in /p/prettyplay.toml ``.
    pub(crate) check: String,
}

/// How one attempt went wrong.
enum Failure {
    /// Worth another attempt; `wait` is what a `Retry-After` asked for.
    Transient {
        reason: String,
        wait: Option<Duration>,
    },
    /// Not worth another attempt.
    Final(String),
    /// A success over [`MAX_REPLY_BYTES`].
    Malformed(String),
    /// Something that is not an LLM answered, as [`Answer::NotAnLlm`] says.
    NotAnLlm(String),
}

impl Transport {
    /// A transport posting to `endpoint` (already validated as an http(s) URL), each attempt
    /// bounded by `timeout`. `expects` names a reply of the wire format and where the base URL
    /// was set, for an answer from something that is not an LLM.
    pub(crate) fn new(
        provider: &'static str,
        endpoint: String,
        timeout: Duration,
        key: Option<ApiKey>,
        expects: Expects,
        handle: Handle,
    ) -> Result<Self, LlmError> {
        let crypto = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ClientConfig::builder_with_provider(crypto)
            .with_safe_default_protocol_versions()
            .and_then(|builder| builder.with_platform_verifier())
            .map_err(|e| LlmError::Config(format!("cannot set up TLS for the LLM: {e}")))?
            .with_no_client_auth();
        // Building the client inside the runtime's context keeps any background task it might
        // spawn on that runtime.
        let _context = handle.enter();
        let client = reqwest::Client::builder()
            .user_agent(concat!("prettyplay/", env!("CARGO_PKG_VERSION")))
            .tls_backend_preconfigured(tls)
            .timeout(timeout)
            .build()
            .map_err(|e| LlmError::Config(format!("cannot set up the HTTP client: {e}")))?;
        Ok(Transport {
            client,
            handle,
            provider,
            endpoint,
            timeout,
            key,
            expected: expects.reply,
            check: expects.check,
        })
    }

    /// The provider's name, as in settings.
    pub(crate) fn provider(&self) -> &'static str {
        self.provider
    }

    /// One chat call in `wire`'s format: its request posted with its headers, its reader applied
    /// to the response, the time spent measured. Blocks the calling thread (see the module
    /// comment). Nothing is posted past `deadline`.
    pub(crate) fn call(
        &self,
        wire: &dyn WireFormat,
        system: &str,
        text: String,
        screenshot: Option<&[u8]>,
        deadline: Option<Instant>,
    ) -> Result<LlmReply, LlmError> {
        let started = Instant::now();
        let body = wire.request_body(system, text, screenshot);
        let headers = wire.headers()?;
        let response = self
            .handle
            .block_on(self.post_with_retry(headers, &body, deadline))?;
        let (text, usage) =
            wire.read_response(&response)
                .map_err(|reason| LlmError::BadResponse {
                    provider: self.provider,
                    reason: self.scrub(&reason.to_string()),
                })?;
        // A reply that quotes the key (prompted to, or echoing it) never reaches step code, a
        // verdict, the cache or a report.
        let text = match &self.key {
            Some(key) => key.redact_reply(&text),
            None => text,
        };
        Ok(LlmReply {
            text,
            usage,
            elapsed: started.elapsed(),
        })
    }

    async fn post_with_retry(
        &self,
        headers: HeaderMap,
        body: &Value,
        deadline: Option<Instant>,
    ) -> Result<Value, LlmError> {
        let mut attempt = 1;
        loop {
            let Some(timeout) = attempt_timeout(self.timeout, Instant::now(), deadline) else {
                return Err(self.unavailable(
                    "the test timeout had passed before the call; the LLM was not asked",
                ));
            };
            let failure = match self.attempt(&headers, body, timeout).await {
                Ok(value) => return Ok(value),
                Err(failure) => failure,
            };
            match failure {
                Failure::Malformed(reason) => {
                    return Err(LlmError::BadResponse {
                        provider: self.provider,
                        reason: self.scrub(&reason),
                    });
                }
                Failure::Final(reason) => return Err(self.unavailable(&reason)),
                Failure::NotAnLlm(what) => {
                    return Err(LlmError::NotAnLlm {
                        provider: self.provider,
                        endpoint: self.endpoint.clone(),
                        what: self.scrub(&what),
                        expected: self.expected,
                        check: self.check.clone(),
                    });
                }
                Failure::Transient { reason, wait } => {
                    let wait = match retry_wait(attempt, wait, Instant::now(), deadline) {
                        Ok(wait) => wait,
                        Err(gave_up) => {
                            return Err(self.unavailable(&format!("{reason} ({gave_up})")));
                        }
                    };
                    tracing::warn!(
                        provider = self.provider,
                        attempt,
                        wait_s = wait.as_secs_f64(),
                        reason = %self.scrub(&reason),
                        "LLM call failed; retrying"
                    );
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
            }
        }
    }

    /// One attempt, given `timeout` in all (`llm.timeout`, or less when the deadline is near).
    async fn attempt(
        &self,
        headers: &HeaderMap,
        body: &Value,
        timeout: Duration,
    ) -> Result<Value, Failure> {
        let started = Instant::now();
        let response = self
            .client
            .post(&self.endpoint)
            .headers(headers.clone())
            .timeout(timeout)
            .json(body)
            .send()
            .await
            .map_err(|e| self.transport_failure(&e, timeout))?;
        let status = response.status();
        let wait = retry_after(status, response.headers());
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|kind| kind.to_str().ok())
            .map(str::to_owned);
        let (bytes, complete) = read_capped(response, MAX_REPLY_BYTES)
            .await
            .map_err(|e| self.transport_failure(&e, timeout))?;
        tracing::debug!(
            provider = self.provider,
            status = status.as_u16(),
            bytes = bytes.len(),
            complete,
            elapsed_ms = started.elapsed().as_millis(),
            "LLM response"
        );
        if status.is_success() && !complete {
            return Err(Failure::Malformed(format!(
                "the reply is over the limit of {MAX_REPLY_BYTES} bytes (1 MiB) and was not \
                 used (it was not read further); ask for less, or check the endpoint: {}",
                quote(&String::from_utf8_lossy(&bytes[..bytes.len().min(QUOTE)]))
            )));
        }
        match Answer::of(status, content_type.as_deref(), &bytes) {
            Answer::Json(json) => Ok(json),
            Answer::Transient(reason) => Err(Failure::Transient { reason, wait }),
            Answer::Refused(reason) => Err(Failure::Final(reason)),
            Answer::Garbled(reason) => Err(Failure::Malformed(reason)),
            Answer::NotAnLlm(what) => Err(Failure::NotAnLlm(what)),
        }
    }

    fn transport_failure(&self, error: &reqwest::Error, timeout: Duration) -> Failure {
        let reason = if error.is_timeout() && timeout < self.timeout {
            format!(
                "no answer within {:.1} s, the time left before the test timeout",
                timeout.as_secs_f64()
            )
        } else if error.is_timeout() {
            format!("no answer within {} s", self.timeout.as_secs_f64())
        } else {
            // reqwest's own message only repeats the URL; the root cause says what happened.
            let mut root: &dyn std::error::Error = error;
            while let Some(source) = root.source() {
                root = source;
            }
            if error.is_connect() {
                format!("cannot connect: {root}")
            } else {
                format!("request failed: {root}")
            }
        };
        Failure::Transient { reason, wait: None }
    }

    fn unavailable(&self, reason: &str) -> LlmError {
        LlmError::Unavailable {
            provider: self.provider,
            endpoint: self.endpoint.clone(),
            reason: self.scrub(reason),
        }
    }

    fn scrub(&self, text: &str) -> String {
        match &self.key {
            Some(key) => key.redact(text),
            None => text.to_owned(),
        }
    }
}

/// The body of `response`, read chunk by chunk up to `cap` bytes, and whether that is all of it
/// (`false`: it is longer, and the rest was never read).
async fn read_capped(
    mut response: reqwest::Response,
    cap: usize,
) -> Result<(Vec<u8>, bool), reqwest::Error> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if !push_capped(&mut body, &chunk, cap) {
            return Ok((body, false));
        }
    }
    Ok((body, true))
}

/// Appends `chunk` to `body` up to `cap` bytes in all; `false` when part of it did not fit.
fn push_capped(body: &mut Vec<u8>, chunk: &[u8], cap: usize) -> bool {
    let room = cap.saturating_sub(body.len());
    if chunk.len() > room {
        body.extend_from_slice(&chunk[..room]);
        return false;
    }
    body.extend_from_slice(chunk);
    true
}

/// The wait before attempt `attempt + 1` when the server did not ask for one.
fn backoff(attempt: u32) -> Duration {
    BACKOFF * 2u32.saturating_pow(attempt.saturating_sub(1))
}

/// The time attempt may take: `limit`, or what is left before `deadline` when that is less;
/// `None` when the deadline has passed.
fn attempt_timeout(limit: Duration, now: Instant, deadline: Option<Instant>) -> Option<Duration> {
    match deadline {
        None => Some(limit),
        Some(deadline) => {
            let left = deadline.saturating_duration_since(now);
            (!left.is_zero()).then(|| limit.min(left))
        }
    }
}

/// Why a transient failure is not tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
enum GaveUp {
    /// Every attempt was made.
    #[error("gave up after {0} attempts")]
    Spent(u32),
    /// The wait before the next attempt would end at or past the test's deadline.
    #[error(
        "gave up after {attempt} {}: a retry in {:.1} s would wait past the test timeout",
        if *.attempt == 1 { "attempt" } else { "attempts" },
        .wait.as_secs_f64()
    )]
    PastDeadline { attempt: u32, wait: Duration },
}

/// The wait before attempt `attempt + 1` after a transient failure (`asked`: what a
/// `Retry-After` asked for), or why there is none: the attempts are spent, or the wait would
/// end at or past `deadline` (then the call gives up now rather than sleep into the test
/// timeout).
fn retry_wait(
    attempt: u32,
    asked: Option<Duration>,
    now: Instant,
    deadline: Option<Instant>,
) -> Result<Duration, GaveUp> {
    if attempt >= ATTEMPTS {
        return Err(GaveUp::Spent(attempt));
    }
    let wait = asked.map_or_else(|| backoff(attempt), |w| w.min(MAX_WAIT));
    if deadline.is_some_and(|deadline| now + wait >= deadline) {
        return Err(GaveUp::PastDeadline { attempt, wait });
    }
    Ok(wait)
}

/// `Retry-After` in seconds on a 429 or 503 (the HTTP-date form is ignored: backoff applies).
fn retry_after(status: StatusCode, headers: &HeaderMap) -> Option<Duration> {
    if status != StatusCode::TOO_MANY_REQUESTS && status != StatusCode::SERVICE_UNAVAILABLE {
        return None;
    }
    let seconds: f64 = headers
        .get(RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    (seconds.is_finite() && seconds >= 0.0)
        .then(|| Duration::try_from_secs_f64(seconds.min(MAX_WAIT.as_secs_f64())).ok())
        .flatten()
}

/// A header value that holds a secret (an API key): marked sensitive so it is never logged.
pub(crate) fn secret_header(value: &str) -> Result<HeaderValue, LlmError> {
    let mut value = HeaderValue::from_str(value).map_err(|_| {
        LlmError::Config("the API key holds characters a header cannot carry".into())
    })?;
    value.set_sensitive(true);
    Ok(value)
}

/// A JSON body in at most 200 characters, for an error about its shape.
pub(crate) fn brief(json: &Value) -> String {
    let text = json.to_string();
    if text.chars().count() > 200 {
        let cut: String = text.chars().take(200).collect();
        format!("{cut}…")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(retry_after: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            RETRY_AFTER,
            HeaderValue::from_str(retry_after).expect("value"),
        );
        headers
    }

    #[test]
    fn bodies_are_read_up_to_the_cap_and_no_further() {
        let mut body = Vec::new();
        assert!(push_capped(&mut body, b"abc", 5));
        assert!(push_capped(&mut body, b"de", 5), "exactly the cap fits");
        assert_eq!(body, b"abcde");
        assert!(!push_capped(&mut body, b"f", 5));
        assert_eq!(body, b"abcde", "nothing past the cap is kept");
        let mut body = Vec::new();
        assert!(!push_capped(
            &mut body,
            &[b'x'; 2 * MAX_REPLY_BYTES],
            MAX_REPLY_BYTES
        ));
        assert_eq!(body.len(), MAX_REPLY_BYTES);
    }

    #[test]
    fn backoff_doubles_from_half_a_second() {
        assert_eq!(backoff(1), Duration::from_millis(500));
        assert_eq!(backoff(2), Duration::from_secs(1));
        assert_eq!(backoff(3), Duration::from_secs(2));
        // Never overflows.
        let _ = backoff(u32::MAX);
    }

    #[test]
    fn a_wait_past_the_deadline_gives_up_at_once() {
        let now = Instant::now();
        let deadline = Some(now + Duration::from_secs(5));
        // What a `Retry-After: 3600` becomes: capped, and still past a 5 s deadline.
        assert_eq!(
            retry_wait(1, Some(MAX_WAIT), now, deadline).map_err(|e| e.to_string()),
            Err(
                "gave up after 1 attempt: a retry in 30.0 s would wait past the test timeout"
                    .to_owned()
            )
        );
        assert_eq!(
            retry_wait(2, None, now + Duration::from_millis(4500), deadline)
                .map_err(|e| e.to_string()),
            Err(
                "gave up after 2 attempts: a retry in 1.0 s would wait past the test timeout"
                    .to_owned()
            )
        );
        // Within the deadline, or without one, the wait is what it always was.
        assert_eq!(
            retry_wait(1, Some(Duration::from_secs(2)), now, deadline),
            Ok(Duration::from_secs(2))
        );
        assert_eq!(retry_wait(1, Some(MAX_WAIT), now, None), Ok(MAX_WAIT));
        assert_eq!(
            retry_wait(2, None, now, deadline),
            Ok(Duration::from_secs(1))
        );
        assert_eq!(
            retry_wait(ATTEMPTS, None, now, None).map_err(|e| e.to_string()),
            Err("gave up after 3 attempts".to_owned())
        );
    }

    #[test]
    fn an_attempt_gets_at_most_the_time_left_before_the_deadline() {
        let now = Instant::now();
        let limit = Duration::from_secs(20);
        assert_eq!(attempt_timeout(limit, now, None), Some(limit));
        assert_eq!(
            attempt_timeout(limit, now, Some(now + Duration::from_secs(5))),
            Some(Duration::from_secs(5))
        );
        assert_eq!(
            attempt_timeout(limit, now, Some(now + Duration::from_secs(60))),
            Some(limit)
        );
        assert_eq!(attempt_timeout(limit, now, Some(now)), None);
        assert_eq!(
            attempt_timeout(limit, now + Duration::from_secs(1), Some(now)),
            None
        );
    }

    #[test]
    fn retry_after_is_read_on_429_and_503_only_and_capped() {
        let too_many = StatusCode::TOO_MANY_REQUESTS;
        assert_eq!(
            retry_after(too_many, &headers("2")),
            Some(Duration::from_secs(2))
        );
        assert_eq!(
            retry_after(StatusCode::SERVICE_UNAVAILABLE, &headers(" 1.5 ")),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(retry_after(too_many, &headers("3600")), Some(MAX_WAIT));
        assert_eq!(
            retry_after(StatusCode::INTERNAL_SERVER_ERROR, &headers("2")),
            None
        );
        for bad in ["-1", "soon", "Wed, 21 Oct 2015 07:28:00 GMT", "NaN", "inf"] {
            assert_eq!(retry_after(too_many, &headers(bad)), None, "{bad}");
        }
        assert_eq!(retry_after(too_many, &HeaderMap::new()), None);
    }

    #[test]
    fn an_endpoint_that_is_no_llm_is_one_line() {
        let error = LlmError::NotAnLlm {
            provider: "openai",
            endpoint: "http://127.0.0.1:8000/v1/chat/completions".into(),
            what: "HTTP 501 Not Implemented with an HTML page (text/html)".into(),
            expected: "an OpenAI-compatible chat completion",
            check: "`[llm] base_url` in /home/me/app/prettyplay.toml".into(),
        };
        insta::assert_snapshot!(error.to_string());
    }

    #[test]
    fn a_client_builds_outside_the_runtime() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let transport = Transport::new(
            "openai",
            "https://api.openai.com/v1/chat/completions".into(),
            Duration::from_secs(1),
            Some(ApiKey::new("sk-hidden")),
            Expects {
                reply: "an OpenAI-compatible chat completion",
                check: "`--llm-base-url`".into(),
            },
            runtime.handle().clone(),
        )
        .expect("transport");
        assert!(!format!("{transport:?}").contains("sk-hidden"));
        assert_eq!(
            transport.unavailable("refused sk-hidden").to_string(),
            "the LLM is unavailable (openai at https://api.openai.com/v1/chat/completions): \
             refused [redacted]"
        );
    }
}
