//! The Rust half of the Playwright binding: the table of browser calls step code may make, and
//! their execution on the test's page.
//!
//! Main type: [`StepHost`]. The JS prelude builds Playwright protocol parameters exactly as
//! Playwright's own client does; each call arrives here as `(page id, method, JSON params)`,
//! is checked against [`METHODS`], runs on the tokio runtime (blocking this test's thread, so
//! `await` in step code just works) and answers `{"value": ...}` or `{"error": ...}`.

use std::cell::{Cell, RefCell};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

use playwright_rs::server::channel_owner::ChannelOwner;
use playwright_rs::{GotoOptions, WaitUntil};
use serde_json::{Value, json};

use crate::driver::TestPage;
use crate::script::FailureKind;

/// How a table entry is executed.
#[derive(Debug, Clone, Copy)]
enum Op {
    /// A protocol method on the page's main frame, params passed through.
    Frame(&'static str),
    /// A protocol method on the page, params passed through.
    Page(&'static str),
    /// Navigation with the base URL applied; answers the response's status and URL.
    Goto,
    /// The page's current URL.
    Url,
    /// A URL resolved against the base URL (for `toHaveURL`).
    ResolveUrl,
}

/// Every browser call step code can make. Adding a Playwright method to the binding is one
/// line here plus its JS shape in `prelude.js`.
const METHODS: &[(&str, Op)] = &[
    ("frame.click", Op::Frame("click")),
    ("frame.dblclick", Op::Frame("dblclick")),
    ("frame.fill", Op::Frame("fill")),
    ("frame.press", Op::Frame("press")),
    ("frame.check", Op::Frame("check")),
    ("frame.uncheck", Op::Frame("uncheck")),
    ("frame.hover", Op::Frame("hover")),
    ("frame.selectOption", Op::Frame("selectOption")),
    ("frame.queryCount", Op::Frame("queryCount")),
    ("frame.textContent", Op::Frame("textContent")),
    ("frame.innerText", Op::Frame("innerText")),
    ("frame.inputValue", Op::Frame("inputValue")),
    ("frame.isVisible", Op::Frame("isVisible")),
    ("frame.isChecked", Op::Frame("isChecked")),
    ("frame.title", Op::Frame("title")),
    ("frame.expect", Op::Frame("expect")),
    ("page.goto", Op::Goto),
    ("page.reload", Op::Page("reload")),
    ("page.goBack", Op::Page("goBack")),
    ("page.goForward", Op::Page("goForward")),
    ("page.keyboardPress", Op::Page("keyboardPress")),
    ("page.keyboardType", Op::Page("keyboardType")),
    ("page.url", Op::Url),
    ("page.resolveUrl", Op::ResolveUrl),
];

/// A failed browser call, as the JS prelude receives it.
#[derive(Debug, Clone, PartialEq)]
struct HostError {
    kind: FailureKind,
    message: String,
    /// Playwright's call log, line by line.
    log: Vec<String>,
    /// For failed expectations: the last value the browser saw.
    received: Option<String>,
}

/// One test's connection from the sandbox to its browser page.
pub struct StepHost {
    handle: tokio::runtime::Handle,
    page: TestPage,
    /// Time spent inside browser calls, so the sandbox's runaway-code clock can exclude it.
    host_time: Cell<Duration>,
    /// `console.*` output of the current step.
    log: RefCell<Vec<String>>,
}

impl StepHost {
    pub fn new(handle: tokio::runtime::Handle, page: TestPage) -> Self {
        Self {
            handle,
            page,
            host_time: Cell::new(Duration::ZERO),
            log: RefCell::new(Vec::new()),
        }
    }

    pub fn page(&self) -> &TestPage {
        &self.page
    }

    pub(crate) fn host_time(&self) -> Duration {
        self.host_time.get()
    }

    pub(crate) fn push_log(&self, level: &str, message: &str) {
        tracing::info!(target: "prettyplay::step", "console.{level}: {message}");
        self.log
            .borrow_mut()
            .push(format!("console.{level}: {message}"));
    }

    /// Takes the `console.*` lines logged since the last call.
    pub fn take_log(&self) -> Vec<String> {
        std::mem::take(&mut *self.log.borrow_mut())
    }

    /// Runs one call from the prelude and answers with the JSON the prelude expects.
    pub(crate) fn call(&self, page_id: u32, method: &str, params: &str) -> String {
        let started = Instant::now();
        let reply = self.dispatch(page_id, method, params);
        self.host_time.set(self.host_time.get() + started.elapsed());
        match reply {
            Ok(value) => json!({ "value": value }).to_string(),
            Err(err) => json!({
                "error": {
                    "kind": err.kind.as_str(),
                    "message": err.message,
                    "log": err.log,
                    "received": err.received,
                }
            })
            .to_string(),
        }
    }

    fn dispatch(&self, page_id: u32, method: &str, params: &str) -> Result<Value, HostError> {
        let op = METHODS
            .iter()
            .find(|(name, _)| *name == method)
            .map(|(_, op)| *op)
            .ok_or_else(|| HostError::script(format!("{method} is not available in step code")))?;
        if page_id != 0 {
            return Err(HostError::script(format!("no page with id {page_id}")));
        }
        let mut params: Value = serde_json::from_str(params)
            .map_err(|err| HostError::script(format!("{method}: bad parameters: {err}")))?;
        strip_nulls(&mut params);
        let page = &self.page;
        match op {
            Op::Frame(name) => {
                let expect = name == "expect";
                let frame = page.main_frame();
                self.handle.block_on(async {
                    match frame
                        .channel()
                        .send::<Value, Value>(name, params.clone())
                        .await
                    {
                        Ok(v) => Ok(if v.is_null() { json!({}) } else { v }),
                        Err(err) => {
                            let mut err = HostError::from_playwright(err, expect);
                            if expect
                                && err.kind == FailureKind::FailedCheck
                                && err.received.is_none()
                            {
                                err.received = received(page, &params).await;
                            }
                            Err(err)
                        }
                    }
                })
            }
            Op::Page(name) => self
                .handle
                .block_on(page.page().channel().send::<Value, Value>(name, params))
                .map(|_| Value::Null)
                .map_err(|err| HostError::from_playwright(err, false)),
            Op::Goto => {
                let url = params["url"].as_str().unwrap_or_default().to_owned();
                let url = resolve_url(page.base_url(), &url);
                let mut options = GotoOptions::new();
                if let Some(timeout) = params["timeout"].as_f64() {
                    options = options.timeout(Duration::from_secs_f64(timeout / 1000.0));
                }
                options = options.wait_until(match params["waitUntil"].as_str() {
                    Some("domcontentloaded") => WaitUntil::DomContentLoaded,
                    Some("networkidle") => WaitUntil::NetworkIdle,
                    Some("commit") => WaitUntil::Commit,
                    _ => WaitUntil::Load,
                });
                let response = self
                    .handle
                    .block_on(page.page().goto(&url, options))
                    .map_err(|err| HostError::from_playwright(err, false))?;
                Ok(response.map_or(
                    Value::Null,
                    |r| json!({ "status": r.status(), "url": r.url() }),
                ))
            }
            Op::Url => Ok(Value::String(page.page().url())),
            Op::ResolveUrl => {
                let url = params["url"].as_str().unwrap_or_default();
                Ok(Value::String(resolve_url(page.base_url(), url)))
            }
        }
    }
}

/// What the page shows now, for the `Received:` line of a failed expectation. The driver keeps
/// this in its error details, which do not reach us, so it is read again (no waiting).
async fn received(page: &TestPage, params: &Value) -> Option<String> {
    let quote = |s: &str| Value::String(s.to_owned()).to_string();
    let expression = params["expression"].as_str()?;
    match expression {
        "to.have.title" => return page.main_frame().title().await.ok().map(|t| quote(&t)),
        "to.have.url" => return Some(quote(&page.page().url())),
        _ => {}
    }
    let locator = page.main_frame().locator(params["selector"].as_str()?);
    let count = locator.count().await.ok()?;
    if expression == "to.have.count" {
        return Some(count.to_string());
    }
    let array = expression.ends_with(".array");
    if count == 0 && !array {
        return Some("<element(s) not found>".to_owned());
    }
    let state = |yes: bool, on: &str, off: &str| Some(if yes { on } else { off }.to_owned());
    match expression {
        "to.have.text" | "to.have.text.array" | "to.contain.text.array" => {
            let texts = if params["useInnerText"].as_bool() == Some(true) {
                locator.all_inner_texts().await.ok()?
            } else {
                locator.all_text_contents().await.ok()?
            };
            if array {
                serde_json::to_string(&texts).ok()
            } else {
                texts.first().map(|t| quote(t))
            }
        }
        "to.have.value" => locator.input_value(None).await.ok().map(|v| quote(&v)),
        "to.have.attribute.value" | "to.have.attribute" => {
            let name = params["expressionArg"].as_str()?;
            let value = locator.get_attribute(name).await.ok()?;
            if expression == "to.have.attribute" {
                state(
                    value.is_some(),
                    "attribute present",
                    "attribute not present",
                )
            } else {
                Some(value.map_or_else(|| "null".to_owned(), |v| quote(&v)))
            }
        }
        "to.have.class" => locator
            .get_attribute("class")
            .await
            .ok()
            .map(|c| quote(c.as_deref().unwrap_or_default())),
        "to.be.visible" | "to.be.hidden" => {
            state(locator.is_visible().await.ok()?, "visible", "hidden")
        }
        "to.be.checked" => state(locator.is_checked().await.ok()?, "checked", "unchecked"),
        "to.be.enabled" | "to.be.disabled" => {
            state(locator.is_enabled().await.ok()?, "enabled", "disabled")
        }
        _ => None,
    }
}

/// Playwright's `constructURLBasedOnBaseURL`: a relative URL is joined to the base URL.
fn resolve_url(base: Option<&str>, url: &str) -> String {
    match base.and_then(|b| url::Url::parse(b).ok()) {
        Some(base) => base
            .join(url)
            .map(|u| u.to_string())
            .unwrap_or_else(|_| url.to_owned()),
        None => url.to_owned(),
    }
}

/// Optional protocol fields must be absent, not `null`.
fn strip_nulls(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(strip_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

impl HostError {
    fn script(message: String) -> Self {
        Self {
            kind: FailureKind::Script,
            message,
            log: Vec::new(),
            received: None,
        }
    }

    fn from_playwright(err: playwright_rs::Error, expect: bool) -> Self {
        use playwright_rs::Error as E;
        tracing::debug!("playwright error: {err:?}");
        let (kind, text) = match err {
            E::Timeout(text) => (FailureKind::Timeout, without_stack(&text)),
            E::ProtocolError(text) => (FailureKind::Script, without_stack(&text)),
            E::AssertionFailed(text) | E::AssertionTimeout(text) => {
                (FailureKind::FailedCheck, text)
            }
            E::ChannelClosed => (
                FailureKind::Crash,
                "the browser connection closed".to_owned(),
            ),
            E::TargetClosed { .. }
            | E::TransportError(_)
            | E::ConnectionFailed(_)
            | E::ServerError(_)
            | E::ServerNotFound
            | E::LaunchFailed(_) => (FailureKind::Crash, err.to_string()),
            E::InvalidArgument(text) => (FailureKind::Script, text),
            other => (FailureKind::Script, other.to_string()),
        };
        let (message, log) = split_call_log(&python_locators_to_js(&strip_stack(&text)));
        let lower = message.to_lowercase();
        let kind = if lower.contains("strict mode violation") {
            FailureKind::StrictMode
        } else if lower.contains("target page, context or browser has been closed")
            || lower.contains("browser has been closed")
            || lower.contains("target closed")
        {
            FailureKind::Crash
        } else if kind == FailureKind::Script && is_element_state(&lower) {
            FailureKind::Timeout
        } else if expect && kind == FailureKind::Timeout {
            FailureKind::FailedCheck
        } else {
            kind
        };
        let received = log.iter().rev().find_map(|line| {
            line.trim_start_matches(['-', ' '])
                .strip_prefix("unexpected value ")
                .map(str::to_owned)
        });
        Self {
            kind,
            message,
            log,
            received,
        }
    }
}

/// Element-state and navigation races: transient page state, polled like a timeout.
fn is_element_state(lower: &str) -> bool {
    [
        "element is not attached",
        "element is not visible",
        "element is not enabled",
        "element is outside of the viewport",
        "element is not stable",
        "execution context was destroyed",
        "frame was detached",
        "navigation interrupted",
    ]
    .iter()
    .any(|needle| lower.contains(needle))
}

/// playwright-rs appends the driver's stack after ` \n `, and the driver prefixes `Error: `.
fn without_stack(text: &str) -> String {
    let message = text.split_once(" \n ").map_or(text, |(message, _)| message);
    message.trim_start_matches("Error: ").to_owned()
}

/// The driver formats locators in the SDK language playwright-rs announces (Python); step code
/// is JavaScript, so messages show locators the JavaScript way:
/// `get_by_role("button", name="Save").first` → `getByRole("button", { name: "Save" }).first()`.
fn python_locators_to_js(text: &str) -> String {
    static CALL: LazyLock<Option<regex::Regex>> = LazyLock::new(|| {
        regex::Regex::new(r#"\b(get_by_[a-z_]+|locator|frame_locator|filter|nth)\(((?:"(?:[^"\\]|\\.)*"|[^()"])*)\)"#).ok()
    });
    static PROPERTY: LazyLock<Option<regex::Regex>> =
        LazyLock::new(|| regex::Regex::new(r"\.(first|last|content_frame)\b(\()?").ok());
    let (Some(call), Some(property)) = (&*CALL, &*PROPERTY) else {
        return text.to_owned();
    };
    let text = call.replace_all(text, |caps: &regex::Captures<'_>| {
        let name = snake_to_camel(&caps[1]);
        let args = split_args(&caps[2]);
        let (positional, keyword): (Vec<&str>, Vec<&str>) = args
            .iter()
            .map(|a| a.trim())
            .partition(|a| !is_keyword_arg(a));
        let mut out: Vec<String> = positional.iter().map(|a| py_value(a)).collect();
        if !keyword.is_empty() {
            let pairs: Vec<String> = keyword
                .iter()
                .filter_map(|a| a.split_once('='))
                .map(|(k, v)| format!("{}: {}", snake_to_camel(k.trim()), py_value(v.trim())))
                .collect();
            out.push(format!("{{ {} }}", pairs.join(", ")));
        }
        format!("{name}({})", out.join(", "))
    });
    property
        .replace_all(&text, |caps: &regex::Captures<'_>| {
            let name = snake_to_camel(&caps[1]);
            if caps.get(2).is_some() {
                format!(".{name}(")
            } else {
                format!(".{name}()")
            }
        })
        .into_owned()
}

fn is_keyword_arg(arg: &str) -> bool {
    arg.split_once('=').is_some_and(|(k, _)| {
        !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

fn py_value(value: &str) -> String {
    match value {
        "True" => "true".to_owned(),
        "False" => "false".to_owned(),
        "None" => "null".to_owned(),
        other => other.to_owned(),
    }
}

/// Splits a Python argument list on top-level commas (not inside strings).
fn split_args(args: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut in_string = false;
    let mut escaped = false;
    for c in args.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            ',' if !in_string => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        parts.push(current);
    }
    parts
}

fn snake_to_camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Removes driver stack lines from a message.
fn strip_stack(text: &str) -> String {
    let text = strip_ansi(text);
    let mut kept: Vec<&str> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("at ")
            && (trimmed.contains(".js:") || trimmed.contains("<anonymous>"))
        {
            continue;
        }
        kept.push(line);
    }
    let joined = kept.join("\n");
    joined
        .trim_end()
        .trim_end_matches(" (selector: '')")
        .to_owned()
}

/// Removes terminal colour codes from the driver's call log.
fn strip_ansi(text: &str) -> String {
    static ANSI: LazyLock<Option<regex::Regex>> =
        LazyLock::new(|| regex::Regex::new(r"\x1b\[[0-9;]*m").ok());
    match &*ANSI {
        Some(re) => re.replace_all(text, "").into_owned(),
        None => text.to_owned(),
    }
}

/// Splits Playwright's `Call log:` section off a message.
fn split_call_log(text: &str) -> (String, Vec<String>) {
    match text.split_once("Call log:") {
        Some((head, log)) => (
            head.trim_end().to_owned(),
            log.lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| l.trim_end().to_owned())
                .collect(),
        ),
        None => (text.trim_end().to_owned(), Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_url_joins_relative_urls() {
        assert_eq!(
            resolve_url(Some("http://127.0.0.1:8080/app/"), "/login"),
            "http://127.0.0.1:8080/login"
        );
        assert_eq!(
            resolve_url(Some("http://127.0.0.1:8080/app/"), "todo"),
            "http://127.0.0.1:8080/app/todo"
        );
        assert_eq!(resolve_url(Some("http://a/"), "http://b/x"), "http://b/x");
        assert_eq!(resolve_url(None, "/x"), "/x");
    }

    #[test]
    fn call_log_is_split_and_received_found() {
        let err = HostError::from_playwright(
            playwright_rs::Error::AssertionTimeout(
                "Expect failed\nCall log:\n\u{1b}[2m  - waiting for getByText('a')\u{1b}[22m\n\u{1b}[2m      - unexpected value \"b\"\u{1b}[22m\n".to_owned(),
            ),
            true,
        );
        assert_eq!(err.kind, FailureKind::FailedCheck);
        assert_eq!(err.message, "Expect failed");
        assert_eq!(err.received.as_deref(), Some("\"b\""));
        assert_eq!(err.log.len(), 2);
    }

    #[test]
    fn strict_mode_and_crash_are_recognised() {
        let strict = HostError::from_playwright(
            playwright_rs::Error::ProtocolError(
                "strict mode violation: getByRole('button') resolved to 2 elements".to_owned(),
            ),
            false,
        );
        assert_eq!(strict.kind, FailureKind::StrictMode);
        let crash = HostError::from_playwright(
            playwright_rs::Error::ProtocolError(
                "Target page, context or browser has been closed".to_owned(),
            ),
            false,
        );
        assert_eq!(crash.kind, FailureKind::Crash);
        let timeout = HostError::from_playwright(
            playwright_rs::Error::Timeout("Timeout 100ms exceeded.".to_owned()),
            false,
        );
        assert_eq!(timeout.kind, FailureKind::Timeout);
    }

    #[test]
    fn python_locators_read_as_javascript() {
        assert_eq!(
            python_locators_to_js(
                r#"strict mode violation: get_by_role("button", name="Save", exact=True) resolved to 2 elements:
    1) <button>Save</button> aka get_by_role("button", name="Save").first
    2) <button>Save</button> aka locator("ul").get_by_text("a, b").nth(1)"#
            ),
            r#"strict mode violation: getByRole("button", { name: "Save", exact: true }) resolved to 2 elements:
    1) <button>Save</button> aka getByRole("button", { name: "Save" }).first()
    2) <button>Save</button> aka locator("ul").getByText("a, b").nth(1)"#
        );
    }

    #[test]
    fn driver_stack_is_dropped() {
        assert_eq!(
            without_stack(
                "Error: strict mode violation: x \n Error: strict mode violation: x\n at y"
            ),
            "strict mode violation: x"
        );
    }

    #[test]
    fn nulls_are_removed_from_params() {
        let mut v = json!({"a": null, "b": {"c": null, "d": 1}, "e": [{"f": null}]});
        strip_nulls(&mut v);
        assert_eq!(v, json!({"b": {"d": 1}, "e": [{}]}));
    }
}
