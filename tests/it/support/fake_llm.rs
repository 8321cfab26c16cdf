//! [`FakeLlm`]: a scripted LLM server on a 127.0.0.1 port of its own, speaking both wire formats:
//! `POST /v1/chat/completions` answers in the OpenAI shape, `POST /v1/messages` in the Anthropic
//! shape. Point the `openai` provider at [`FakeLlm::base_url`] and the `anthropic` one at
//! [`FakeLlm::anthropic_base_url`].
//!
//! Replies are scripted per test: keyed replies ([`FakeLlm::on_contains`], matched against the
//! system prompt and the user text) are tried first, in the order they were added, then the queue
//! ([`FakeLlm::reply`] and its shorthands), first in first out. Every request is recorded
//! ([`FakeLlm::requests`]). The fake is strict: a request nothing was scripted for is answered
//! with a 500 and recorded as unexpected, and dropping a fake that saw one fails the test.
//!
//! HTTP/1.1 with `Content-Length` bodies, one thread per connection, `Connection: close`.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

/// Path of the OpenAI chat-completions endpoint.
const OPENAI_PATH: &str = "/v1/chat/completions";
/// Path of the Anthropic Messages endpoint.
const ANTHROPIC_PATH: &str = "/v1/messages";
/// The `Content-Type` of every reply but a status reply given another.
const JSON: &str = "application/json";

/// One scripted answer.
#[derive(Debug, Clone)]
pub(crate) struct Reply {
    kind: ReplyKind,
    delay: Duration,
}

#[derive(Debug, Clone)]
enum ReplyKind {
    /// A 200 in the wire format of the request's endpoint.
    Text {
        text: String,
        input_tokens: u64,
        /// The part of `input_tokens` reported as read from the prompt cache.
        cached_tokens: u64,
        output_tokens: u64,
    },
    /// Any status with a raw body.
    Status {
        code: u16,
        body: String,
        retry_after: Option<String>,
        /// The `Content-Type` sent (default `application/json`).
        content_type: Option<String>,
    },
    /// A 200 whose body is exactly this (not the wire format).
    Malformed(String),
}

impl Reply {
    /// A 200 carrying `text`, with usage 10 in / 5 out.
    pub(crate) fn text(text: impl Into<String>) -> Self {
        Reply::of(ReplyKind::Text {
            text: text.into(),
            input_tokens: 10,
            cached_tokens: 0,
            output_tokens: 5,
        })
    }

    /// A response with `code` and the raw `body`.
    pub(crate) fn status(code: u16, body: impl Into<String>) -> Self {
        Reply::of(ReplyKind::Status {
            code,
            body: body.into(),
            retry_after: None,
            content_type: None,
        })
    }

    /// A 200 whose body is `body` as is.
    pub(crate) fn malformed(body: impl Into<String>) -> Self {
        Reply::of(ReplyKind::Malformed(body.into()))
    }

    /// The usage reported with a text reply.
    pub(crate) fn usage(mut self, input: u64, output: u64) -> Self {
        if let ReplyKind::Text {
            input_tokens,
            output_tokens,
            ..
        } = &mut self.kind
        {
            *input_tokens = input;
            *output_tokens = output;
        }
        self
    }

    /// Reports `cached` of a text reply's input tokens as read from the prompt cache, the way
    /// each wire format says it (OpenAI: `prompt_tokens_details.cached_tokens`, part of
    /// `prompt_tokens`; Anthropic: `cache_read_input_tokens`, apart from `input_tokens`).
    pub(crate) fn cached(mut self, cached: u64) -> Self {
        if let ReplyKind::Text { cached_tokens, .. } = &mut self.kind {
            *cached_tokens = cached;
        }
        self
    }

    /// A `Retry-After` header on a status reply.
    pub(crate) fn retry_after(mut self, value: impl Into<String>) -> Self {
        if let ReplyKind::Status { retry_after, .. } = &mut self.kind {
            *retry_after = Some(value.into());
        }
        self
    }

    /// The `Content-Type` of a status reply, instead of `application/json`.
    pub(crate) fn content_type(mut self, value: impl Into<String>) -> Self {
        if let ReplyKind::Status { content_type, .. } = &mut self.kind {
            *content_type = Some(value.into());
        }
        self
    }

    /// Waits this long before answering.
    pub(crate) fn delayed(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    fn of(kind: ReplyKind) -> Self {
        Reply {
            kind,
            delay: Duration::ZERO,
        }
    }
}

/// The needle that routes a generation request for step `sentence` to a keyed reply: the step
/// as the user message states it, followed by the earlier steps.
pub(crate) fn generation_of(sentence: &str) -> String {
    format!("STEP:\n{sentence}\n\nPREVIOUS STEPS:")
}

/// The needle that routes a classification request for step `sentence` to a keyed reply: the
/// step, followed by its failing code.
pub(crate) fn classification_of(sentence: &str) -> String {
    format!("STEP:\n{sentence}\n\nCODE:")
}

impl From<&str> for Reply {
    fn from(text: &str) -> Self {
        Reply::text(text)
    }
}

impl From<String> for Reply {
    fn from(text: String) -> Self {
        Reply::text(text)
    }
}

/// A request the fake received.
#[derive(Debug, Clone)]
pub(crate) struct RecordedRequest {
    pub method: String,
    pub path: String,
    /// Names lowercased, in the order received.
    pub headers: Vec<(String, String)>,
    /// The body as JSON (`Null` when it is not JSON).
    pub body: Value,
}

impl RecordedRequest {
    /// The first header named `name` (case-insensitive).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the request came in on the Anthropic endpoint.
    pub(crate) fn is_anthropic(&self) -> bool {
        self.path == ANTHROPIC_PATH
    }

    /// The system prompt: the OpenAI system message, or Anthropic's `system`.
    pub(crate) fn system(&self) -> String {
        if self.is_anthropic() {
            return content_text(&self.body["system"]);
        }
        self.messages("system")
            .map(|m| content_text(&m["content"]))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The text of the user message(s): a string content, or its text parts joined.
    pub(crate) fn user_text(&self) -> String {
        self.messages("user")
            .map(|m| content_text(&m["content"]))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Whether a user message carries an image part (either wire format).
    pub(crate) fn has_image(&self) -> bool {
        self.messages("user").any(|m| {
            m["content"].as_array().is_some_and(|parts| {
                parts
                    .iter()
                    .any(|p| p["type"] == "image_url" || p["type"] == "image")
            })
        })
    }

    /// The base64 data of the first image part, whatever the wire format.
    pub(crate) fn image_base64(&self) -> Option<String> {
        self.messages("user")
            .filter_map(|m| m["content"].as_array())
            .flatten()
            .find_map(|p| match p["type"].as_str() {
                Some("image") => p["source"]["data"].as_str().map(str::to_owned),
                Some("image_url") => p["image_url"]["url"]
                    .as_str()
                    .and_then(|url| url.strip_prefix("data:image/png;base64,"))
                    .map(str::to_owned),
                _ => None,
            })
    }

    fn messages(&self, role: &'static str) -> impl Iterator<Item = &Value> {
        self.body["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(move |m| m["role"] == role)
    }
}

/// A string content, or the `text` of every part of a content list, joined.
fn content_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

#[derive(Debug, Default)]
struct Script {
    queue: VecDeque<Reply>,
    /// Needle, reply, and whether the entry answers every match (else it is used once).
    keyed: Vec<(String, Reply, bool)>,
    requests: Vec<RecordedRequest>,
    unexpected: Vec<RecordedRequest>,
}

/// The fake server; it stops when dropped.
pub(crate) struct FakeLlm {
    port: u16,
    script: Arc<Mutex<Script>>,
    stop: Arc<AtomicBool>,
}

impl FakeLlm {
    /// Starts a fake on a free 127.0.0.1 port.
    pub(crate) fn start() -> FakeLlm {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the fake LLM");
        let port = listener.local_addr().expect("local address").port();
        let script = Arc::new(Mutex::new(Script::default()));
        let stop = Arc::new(AtomicBool::new(false));
        let (accept_script, accept_stop) = (Arc::clone(&script), Arc::clone(&stop));
        thread::spawn(move || {
            for stream in listener.incoming() {
                if accept_stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let script = Arc::clone(&accept_script);
                thread::spawn(move || {
                    // A client that gives up (a timeout test) is not the fake's problem.
                    let _ = serve(&script, stream);
                });
            }
        });
        FakeLlm { port, script, stop }
    }

    /// The `openai` provider's base URL: `http://127.0.0.1:PORT/v1`.
    pub(crate) fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }

    /// The `anthropic` provider's base URL: `http://127.0.0.1:PORT`.
    pub(crate) fn anthropic_base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Queues a reply.
    pub(crate) fn reply(&self, reply: impl Into<Reply>) -> &Self {
        self.lock().queue.push_back(reply.into());
        self
    }

    /// Queues a 200 carrying `text`.
    pub(crate) fn reply_text(&self, text: &str) -> &Self {
        self.reply(Reply::text(text))
    }

    /// Queues a response with `code` and the raw `body`.
    pub(crate) fn reply_status(&self, code: u16, body: &str) -> &Self {
        self.reply(Reply::status(code, body))
    }

    /// Answers the next request whose system prompt or user text contains `needle` (once; entries
    /// are tried in the order they were added, before the queue).
    pub(crate) fn on_contains(&self, needle: &str, reply: impl Into<Reply>) -> &Self {
        self.lock()
            .keyed
            .push((needle.to_owned(), reply.into(), false));
        self
    }

    /// Answers every request whose system prompt or user text contains `needle`.
    pub(crate) fn always_on_contains(&self, needle: &str, reply: impl Into<Reply>) -> &Self {
        self.lock()
            .keyed
            .push((needle.to_owned(), reply.into(), true));
        self
    }

    /// Every request received, in order (unexpected ones included).
    pub(crate) fn requests(&self) -> Vec<RecordedRequest> {
        self.lock().requests.clone()
    }

    pub(crate) fn request_count(&self) -> usize {
        self.lock().requests.len()
    }

    /// Requests nothing was scripted for. Taking them keeps the fake from failing when dropped.
    pub(crate) fn take_unexpected(&self) -> Vec<RecordedRequest> {
        std::mem::take(&mut self.lock().unexpected)
    }

    /// Scripted replies not used yet (queued, and one-shot keyed).
    pub(crate) fn pending(&self) -> usize {
        let script = self.lock();
        script.queue.len() + script.keyed.iter().filter(|(_, _, always)| !always).count()
    }

    fn lock(&self) -> MutexGuard<'_, Script> {
        // A panic in a connection thread poisons nothing the fake cannot keep using.
        self.script
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Drop for FakeLlm {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        let unexpected = std::mem::take(&mut self.lock().unexpected);
        if !unexpected.is_empty() && !thread::panicking() {
            let summary: Vec<String> = unexpected
                .iter()
                .map(|r| format!("{} {}: {:?}", r.method, r.path, r.user_text()))
                .collect();
            panic!(
                "the fake LLM got {} unexpected request(s):\n{}",
                unexpected.len(),
                summary.join("\n")
            );
        }
    }
}

fn serve(script: &Mutex<Script>, mut stream: TcpStream) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line)? == 0 {
        return Ok(());
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_owned();
    let path = parts.next().unwrap_or_default().to_owned();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line.trim_end().is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    let length = headers
        .iter()
        .find(|(name, _)| name == "content-length")
        .and_then(|(_, value)| value.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let request = RecordedRequest {
        method,
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
    };

    let reply = {
        let mut script = script
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        script.requests.push(request.clone());
        let reply = if request.method == "POST"
            && (request.path == OPENAI_PATH || request.path == ANTHROPIC_PATH)
        {
            pick(&mut script, &request)
        } else {
            None
        };
        if reply.is_none() {
            script.unexpected.push(request.clone());
        }
        reply
    };
    let Some(reply) = reply else {
        let message = format!(
            "fake LLM: unexpected request {} {} (no reply scripted)",
            request.method, request.path
        );
        let body = json!({ "error": { "message": message } }).to_string();
        return respond(&mut stream, 500, &body, None, JSON);
    };
    thread::sleep(reply.delay);
    match reply.kind {
        ReplyKind::Text {
            text,
            input_tokens,
            cached_tokens,
            output_tokens,
        } => {
            let body = if request.is_anthropic() {
                json!({
                    "id": "msg_fake",
                    "type": "message",
                    "role": "assistant",
                    "model": request.body["model"],
                    "content": [{ "type": "text", "text": text }],
                    "stop_reason": "end_turn",
                    "usage": {
                        "input_tokens": input_tokens - cached_tokens,
                        "cache_creation_input_tokens": 0,
                        "cache_read_input_tokens": cached_tokens,
                        "output_tokens": output_tokens,
                    },
                })
            } else {
                json!({
                    "id": "chatcmpl-fake",
                    "object": "chat.completion",
                    "model": request.body["model"],
                    "choices": [{
                        "index": 0,
                        "message": { "role": "assistant", "content": text },
                        "finish_reason": "stop",
                    }],
                    "usage": {
                        "prompt_tokens": input_tokens,
                        "prompt_tokens_details": { "cached_tokens": cached_tokens },
                        "completion_tokens": output_tokens,
                        "total_tokens": input_tokens + output_tokens,
                    },
                })
            };
            respond(&mut stream, 200, &body.to_string(), None, JSON)
        }
        ReplyKind::Status {
            code,
            body,
            retry_after,
            content_type,
        } => respond(
            &mut stream,
            code,
            &body,
            retry_after.as_deref(),
            content_type.as_deref().unwrap_or(JSON),
        ),
        ReplyKind::Malformed(body) => respond(&mut stream, 200, &body, None, JSON),
    }
}

/// The reply for `request`: the first keyed entry it matches, else the head of the queue.
fn pick(script: &mut Script, request: &RecordedRequest) -> Option<Reply> {
    let haystack = format!("{}\n{}", request.system(), request.user_text());
    if let Some(i) = script
        .keyed
        .iter()
        .position(|(needle, _, _)| haystack.contains(needle.as_str()))
    {
        let (_, reply, always) = &script.keyed[i];
        let reply = reply.clone();
        if !always {
            script.keyed.remove(i);
        }
        return Some(reply);
    }
    script.queue.pop_front()
}

fn respond(
    stream: &mut TcpStream,
    code: u16,
    body: &str,
    retry_after: Option<&str>,
    content_type: &str,
) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {code} Fake\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Connection: close\r\n",
        body.len()
    );
    if let Some(retry_after) = retry_after {
        head.push_str(&format!("Retry-After: {retry_after}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body.as_bytes())?;
    stream.flush()
}
