//! Turning the driver's errors into what step code sees: a failure kind and a message that
//! reads like Playwright's (locators in JavaScript syntax, no driver stack, the received value of
//! a failed expectation).
//!
//! Main type: [`HostError`].

use std::sync::LazyLock;
use std::time::Duration;

use serde_json::Value;

use crate::script::FailureKind;
use crate::script::cut_text::{MAX_MESSAGE_BYTES, cut_text};
use playwright_rs::protocol::{Frame, Page};
use playwright_rs::server::channel_owner::ChannelOwner;

/// A failed browser call, as the JS prelude receives it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HostError {
    pub kind: FailureKind,
    pub message: String,
    /// Playwright's call log, line by line.
    pub log: Vec<String>,
    /// For failed expectations: the last value the browser saw.
    pub received: Option<String>,
}

impl HostError {
    pub(crate) fn script(message: String) -> Self {
        Self {
            kind: FailureKind::Script,
            message,
            log: Vec::new(),
            received: None,
        }
    }

    pub(crate) fn crash(message: String) -> Self {
        Self {
            kind: FailureKind::Crash,
            message,
            log: Vec::new(),
            received: None,
        }
    }

    pub(crate) fn from_playwright(err: playwright_rs::Error, expect: bool) -> Self {
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
            || lower.contains("frame was detached")
        {
            // The binding tells a gone browser from a page or frame that closed (see
            // `StepHost::what_went_away`).
            FailureKind::Crash
        } else if lower.contains("execution context was destroyed") {
            // A navigation raced the call: transient page state.
            FailureKind::Detached
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
                .map(|value| cut_text(value.to_owned(), MAX_MESSAGE_BYTES))
        });
        // Bounded at the source: the step's failure message is cut again once assembled.
        let log = log
            .into_iter()
            .map(|line| cut_text(line, MAX_MESSAGE_BYTES))
            .collect();
        Self {
            kind,
            message: cut_text(message, MAX_MESSAGE_BYTES),
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
        // Playwright's JavaScript locators print strings in single quotes.
        other if other.len() >= 2 && other.starts_with('"') && other.ends_with('"') => {
            let inner = &other[1..other.len() - 1];
            let unescaped = inner.replace("\\\"", "\"");
            format!("'{}'", unescaped.replace('\'', "\\'"))
        }
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

/// How long reading a received value may take: a page blocked by an open dialog never answers.
const RECEIVED_TIMEOUT: Duration = Duration::from_secs(5);

/// What the page shows now, for the `Received:` line of a failed expectation. The driver keeps
/// this in its error details, which do not reach us, so it is read again (no waiting; none when
/// the page does not answer within [`RECEIVED_TIMEOUT`]).
pub(crate) async fn received(page: &Page, frame: &Frame, params: &Value) -> Option<String> {
    tokio::time::timeout(RECEIVED_TIMEOUT, read_received(page, frame, params))
        .await
        .ok()
        .flatten()
}

async fn read_received(page: &Page, frame: &Frame, params: &Value) -> Option<String> {
    let quote = |s: &str| Value::String(s.to_owned()).to_string();
    let expression = params["expression"].as_str()?;
    match expression {
        "to.have.title" => return frame.title().await.ok().map(|t| quote(&t)),
        "to.have.url" => return Some(quote(&page.url())),
        _ => {}
    }
    let selector = params["selector"].as_str()?;
    // `Page::locator` rather than `Frame::locator`: the latter panics once the page is closed
    // (the test-timeout watchdog closes it mid-expect); this read must simply find nothing.
    if page.is_closed() {
        return None;
    }
    let locator = page.locator(selector);
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
                Some(display(&Value::from(texts)))
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
        "to.have.class" | "to.contain.class" => locator
            .get_attribute("class")
            .await
            .ok()
            .map(|c| quote(c.as_deref().unwrap_or_default())),
        "to.have.class.array" | "to.contain.class.array" => read_all(
            frame,
            selector,
            "ee => ee.map(e => e.classList.toString())",
            Value::Null,
        )
        .await
        .map(|v| display(&v)),
        "to.be.visible" | "to.be.hidden" => {
            state(locator.is_visible().await.ok()?, "visible", "hidden")
        }
        "to.be.checked" => state(locator.is_checked().await.ok()?, "checked", "unchecked"),
        "to.be.enabled" | "to.be.disabled" => {
            state(locator.is_enabled().await.ok()?, "enabled", "disabled")
        }
        "to.have.css" => {
            let name = params["expressionArg"].as_str()?;
            let pseudo = params["pseudo"].as_str();
            let css = "(e, [name, pseudo]) => getComputedStyle(e, pseudo ? '::' + pseudo : undefined).getPropertyValue(name)";
            read_first(frame, selector, css, Value::from(vec![Some(name), pseudo]))
                .await
                .map(|v| display(&v))
        }
        "to.have.id" => read_first(frame, selector, "e => e.id", Value::Null)
            .await
            .map(|v| display(&v)),
        "to.have.property" => {
            let name = params["expressionArg"].as_str()?;
            let property = "(e, name) => { let t = e; const ps = name.split('.'); \
                for (let i = 0; i < ps.length - 1; i++) { \
                  if (typeof t !== 'object' || t === null || !(ps[i] in t)) return undefined; t = t[ps[i]]; } \
                return t[ps[ps.length - 1]]; }";
            read_first(frame, selector, property, Value::from(name))
                .await
                .map(|v| display(&v))
        }
        "to.have.values" => {
            let values = "e => { if (e.nodeName === 'LABEL' && e.control) e = e.control; \
                return e.selectedOptions ? [...e.selectedOptions].map(o => o.value) : null; }";
            read_first(frame, selector, values, Value::Null)
                .await
                .map(|v| display(&v))
        }
        "to.have.accessible.description" => {
            let description = "e => { const ids = (e.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean); \
                if (ids.length) return ids.map(id => { const d = document.getElementById(id); \
                  return d ? d.textContent : ''; }).join(' ').replace(/\\s+/g, ' ').trim(); \
                return e.getAttribute('aria-description') || e.title || ''; }";
            read_first(frame, selector, description, Value::Null)
                .await
                .map(|v| display(&v))
        }
        "to.have.accessible.name" | "to.have.role" => {
            let snapshot = aria_snapshot(frame, selector).await?;
            let (role, name) = aria_role_and_name(&snapshot)?;
            Some(quote(if expression == "to.have.role" {
                &role
            } else {
                &name
            }))
        }
        "to.match.aria" => aria_snapshot(frame, selector).await,
        _ => None,
    }
}

/// Runs `expression` (a function of the elements and `arg`) over the selector's matches and
/// answers its result as plain JSON.
async fn read_all(frame: &Frame, selector: &str, expression: &str, arg: Value) -> Option<Value> {
    let reply: Value = frame
        .channel()
        .send(
            "evalOnSelectorAll",
            serde_json::json!({
                "selector": selector,
                "expression": expression,
                "isFunction": true,
                "arg": { "value": serialized(&arg), "handles": [] },
            }),
        )
        .await
        .ok()?;
    Some(plain(&reply["value"]))
}

/// [`read_all`] on the first match, as the driver's `expect` reads it.
async fn read_first(frame: &Frame, selector: &str, expression: &str, arg: Value) -> Option<Value> {
    let over_first = format!("(ee, arg) => ee.length ? ({expression})(ee[0], arg) : null");
    read_all(frame, selector, &over_first, arg).await
}

async fn aria_snapshot(frame: &Frame, selector: &str) -> Option<String> {
    let reply: Value = frame
        .channel()
        .send(
            "ariaSnapshot",
            serde_json::json!({ "selector": selector, "timeout": 1000.0 }),
        )
        .await
        .ok()?;
    reply["snapshot"].as_str().map(str::to_owned)
}

/// The role and accessible name of the node an aria snapshot starts with
/// (`- button "Save" [disabled]` → `("button", "Save")`).
fn aria_role_and_name(snapshot: &str) -> Option<(String, String)> {
    static NODE: LazyLock<Option<regex::Regex>> =
        LazyLock::new(|| regex::Regex::new(r#"^- ([a-zA-Z]+)(?: ("(?:[^"\\]|\\.)*"))?"#).ok());
    let caps = NODE.as_ref()?.captures(snapshot.lines().next()?)?;
    let name = caps
        .get(2)
        .and_then(|m| serde_json::from_str::<String>(m.as_str()).ok())
        .unwrap_or_default();
    Some((caps[1].to_owned(), name))
}

/// Plain JSON as a Playwright `SerializedValue`, for arguments of [`read_all`].
fn serialized(value: &Value) -> Value {
    use serde_json::json;
    match value {
        Value::Null => json!({ "v": "null" }),
        Value::Bool(b) => json!({ "b": b }),
        Value::Number(n) => json!({ "n": n }),
        Value::String(s) => json!({ "s": s }),
        Value::Array(items) => json!({ "a": items.iter().map(serialized).collect::<Vec<_>>() }),
        Value::Object(map) => json!({
            "o": map.iter().map(|(k, v)| json!({ "k": k, "v": serialized(v) })).collect::<Vec<_>>()
        }),
    }
}

/// A Playwright `SerializedValue` as plain JSON; values JSON lacks (`undefined`, `NaN`, dates,
/// regular expressions) become strings as Playwright Test prints them.
fn plain(value: &Value) -> Value {
    if let Some(n) = value.get("n") {
        return n.clone();
    }
    if let Some(b) = value.get("b") {
        return b.clone();
    }
    if let Some(s) = value.get("s") {
        return s.clone();
    }
    if let Some(special) = value.get("v").and_then(Value::as_str) {
        return match special {
            "null" => Value::Null,
            other => Value::String(format!("\u{0}{other}")),
        };
    }
    if let Some(items) = value.get("a").and_then(Value::as_array) {
        return Value::Array(items.iter().map(plain).collect());
    }
    if let Some(entries) = value.get("o").and_then(Value::as_array) {
        return Value::Object(
            entries
                .iter()
                .filter_map(|e| Some((e.get("k")?.as_str()?.to_owned(), plain(e.get("v")?))))
                .collect(),
        );
    }
    if let Some(date) = value.get("d").and_then(Value::as_str) {
        return Value::String(format!("\u{0}{date}"));
    }
    if let Some(re) = value.get("r") {
        let pattern = re["p"].as_str().unwrap_or_default();
        let flags = re["f"].as_str().unwrap_or_default();
        return Value::String(format!("\u{0}/{pattern}/{flags}"));
    }
    Value::String("\u{0}undefined".to_owned())
}

/// Plain JSON the way Playwright Test prints values: `"text"`, `[1, "a"]`, `{"a": 1}`; strings
/// marked by [`plain`] as bare (`undefined`, `NaN`, regular expressions) without quotes.
pub(crate) fn display(value: &Value) -> String {
    match value {
        Value::String(s) => match s.strip_prefix('\u{0}') {
            Some(bare) => bare.to_owned(),
            None => value.to_string(),
        },
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(display).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(map) if map.is_empty() => "{}".to_owned(),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), display(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let detached = HostError::from_playwright(
            playwright_rs::Error::ProtocolError(
                "Execution context was destroyed, most likely because of a navigation".to_owned(),
            ),
            false,
        );
        assert_eq!(detached.kind, FailureKind::Detached);
        assert!(detached.kind.is_pollable());
        let frame = HostError::from_playwright(
            playwright_rs::Error::ProtocolError("Frame was detached".to_owned()),
            false,
        );
        assert_eq!(frame.kind, FailureKind::Crash, "decided by the binding");
    }

    #[test]
    fn python_locators_read_as_javascript() {
        assert_eq!(
            python_locators_to_js(
                r#"strict mode violation: get_by_role("button", name="Save", exact=True) resolved to 2 elements:
    1) <button>Save</button> aka get_by_role("button", name="Save").first
    2) <button>Save</button> aka locator("ul").get_by_text("a, b").nth(1)"#
            ),
            r#"strict mode violation: getByRole('button', { name: 'Save', exact: true }) resolved to 2 elements:
    1) <button>Save</button> aka getByRole('button', { name: 'Save' }).first()
    2) <button>Save</button> aka locator('ul').getByText('a, b').nth(1)"#
        );
    }

    #[test]
    fn serialized_values_read_and_print_like_playwright_test() {
        let value = serde_json::json!({ "o": [
            { "k": "a", "v": { "n": 1 } },
            { "k": "b", "v": { "a": [{ "s": "x" }, { "v": "undefined" }, { "b": true }] } },
            { "k": "c", "v": { "r": { "p": "x+", "f": "i" } } },
            { "k": "d", "v": { "v": "null" } },
        ] });
        assert_eq!(
            display(&plain(&value)),
            r#"{"a": 1, "b": ["x", undefined, true], "c": /x+/i, "d": null}"#
        );
        assert_eq!(display(&plain(&serde_json::json!({ "v": "NaN" }))), "NaN");
    }

    #[test]
    fn aria_snapshots_give_role_and_name() {
        assert_eq!(
            aria_role_and_name("- button \"Save \\\"it\\\"\" [disabled]\n- text: x"),
            Some(("button".to_owned(), "Save \"it\"".to_owned()))
        );
        assert_eq!(
            aria_role_and_name("- paragraph: hello"),
            Some(("paragraph".to_owned(), String::new()))
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
}
