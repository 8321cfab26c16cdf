//! Typed parameters of the ops the binding executes itself, as `prelude.js` sends them (camelCase
//! fields; `null`s already stripped, so an absent optional field and a `null` one are alike).
//! A mismatch is a script error naming the method: `call.resume: bad parameters: missing field
//! `id``. Pass-through ops (frame, page and element methods) never come here: they send the raw
//! JSON on to the driver.
//!
//! The entry point is [`parse`]; each op has its struct ([`Goto`], [`History`], [`Resume`], ...).

use playwright_rs::{GotoOptions, WaitUntil};
use serde::Deserialize;
use serde_json::Value;

use crate::script::driver_error::HostError;
use crate::script::events::EventKind;
use crate::script::frame_calls::timeout_of;

/// `method`'s parameters as `T`.
pub(crate) fn parse<'a, T: Deserialize<'a>>(
    method: &str,
    params: &'a Value,
) -> Result<T, HostError> {
    T::deserialize(params)
        .map_err(|err| HostError::script(format!("{method}: bad parameters: {err}")))
}

/// `page.goto`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Goto {
    /// Absolute, or relative to the base URL.
    pub url: String,
    /// Milliseconds; absent: the driver's default.
    pub timeout: Option<f64>,
    /// `domcontentloaded`, `networkidle`, `commit`; `load` when absent or anything else.
    pub wait_until: Option<String>,
}

impl Goto {
    pub(crate) fn options(&self) -> GotoOptions {
        navigation_options(self.timeout, self.wait_until.as_deref())
    }
}

/// `page.reload`, `page.goBack` and `page.goForward`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct History {
    /// Milliseconds; absent: the driver's default.
    pub timeout: Option<f64>,
    /// As for [`Goto`].
    pub wait_until: Option<String>,
}

impl History {
    pub(crate) fn options(&self) -> GotoOptions {
        navigation_options(self.timeout, self.wait_until.as_deref())
    }
}

/// The driver's options for a navigation that may take `timeout` milliseconds and waits until
/// `wait_until`.
fn navigation_options(timeout: Option<f64>, wait_until: Option<&str>) -> GotoOptions {
    let mut options = GotoOptions::new();
    // 0 is Playwright's "no timeout", which the driver reads from a zero duration; a negative
    // number leaves the default.
    let timeout = timeout.and_then(|ms| {
        if ms == 0.0 {
            Some(std::time::Duration::ZERO)
        } else {
            timeout_of(ms)
        }
    });
    if let Some(timeout) = timeout {
        options = options.timeout(timeout);
    }
    options.wait_until(match wait_until {
        Some("domcontentloaded") => WaitUntil::DomContentLoaded,
        Some("networkidle") => WaitUntil::NetworkIdle,
        Some("commit") => WaitUntil::Commit,
        _ => WaitUntil::Load,
    })
}

/// `call.resume`: the parked call to continue.
#[derive(Debug, Deserialize)]
pub(crate) struct Resume {
    pub id: usize,
}

/// `page.resolveUrl`.
#[derive(Debug, Deserialize)]
pub(crate) struct ResolveUrl {
    pub url: String,
}

/// `page.waitForEvent`: the event to wait for.
#[derive(Debug, Deserialize)]
pub(crate) struct WaitStart {
    pub event: String,
}

/// `waiter.finish`.
#[derive(Debug, Deserialize)]
pub(crate) struct WaitFinish {
    pub waiter: usize,
    /// Milliseconds this part of the wait may take; 0 or absent: no limit.
    #[serde(default)]
    pub timeout: f64,
    /// The whole wait's timeout, for the message (a predicate loop waits in parts); absent:
    /// `timeout`.
    pub total: Option<f64>,
}

/// `waiter.done`.
#[derive(Debug, Deserialize)]
pub(crate) struct WaitDone {
    pub waiter: usize,
}

/// `page.listen`: `page.on` (`once: false`) or `page.once`.
#[derive(Debug, Deserialize)]
pub(crate) struct Listen {
    pub event: String,
    #[serde(default)]
    pub once: bool,
}

/// `page.unlisten`.
#[derive(Debug, Deserialize)]
pub(crate) struct Unlisten {
    pub listener: usize,
}

/// `dialog.accept` and `dialog.dismiss`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Dialog {
    pub dialog: usize,
    /// The text a `prompt` answers with (`dialog.accept` only).
    pub prompt_text: Option<String>,
}

/// An event step code may wait for or listen to, from its name.
pub(crate) fn event_kind(name: &str) -> Result<EventKind, HostError> {
    EventKind::from_name(name).ok_or_else(|| {
        HostError::script(format!(
            "page.waitForEvent/on: event {name:?} is not available in step code \
             (supported: \"dialog\", \"popup\", \"download\")"
        ))
    })
}

/// Playwright's `constructURLBasedOnBaseURL`: a relative URL is joined to the base URL.
pub(crate) fn resolve_url(base: Option<&str>, url: &str) -> String {
    match base.and_then(|b| url::Url::parse(b).ok()) {
        Some(base) => base
            .join(url)
            .map(|u| u.to_string())
            .unwrap_or_else(|_| url.to_owned()),
        None => url.to_owned(),
    }
}

/// Optional protocol fields must be absent, not `null`.
pub(crate) fn strip_nulls(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            map.values_mut().for_each(strip_nulls);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn urls_resolve_as_the_url_constructor_resolves_them() {
        let base = Some("http://127.0.0.1:4000/app/?lang=en");
        assert_eq!(resolve_url(base, ""), "http://127.0.0.1:4000/app/?lang=en");
        assert_eq!(
            resolve_url(base, "todos"),
            "http://127.0.0.1:4000/app/todos"
        );
        assert_eq!(resolve_url(base, "/"), "http://127.0.0.1:4000/");
        assert_eq!(resolve_url(None, "/"), "/");
    }
    use serde_json::json;

    use super::*;

    #[test]
    fn a_navigation_timeout_of_zero_is_no_timeout_and_any_other_is_bounded() {
        use std::time::Duration;
        let of = |ms: f64| navigation_options(Some(ms), None).timeout;
        assert_eq!(of(0.0), Some(Duration::ZERO));
        assert_eq!(of(1500.0), Some(Duration::from_millis(1500)));
        assert_eq!(of(1e300), Some(Duration::from_secs(86_400)));
        assert_eq!(of(-1.0), None);
        assert_eq!(navigation_options(None, None).timeout, None);
    }

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
    fn nulls_are_removed_from_params() {
        let mut v = json!({"a": null, "b": {"c": null, "d": 1}, "e": [{"f": null}]});
        strip_nulls(&mut v);
        assert_eq!(v, json!({"b": {"d": 1}, "e": [{}]}));
    }

    #[test]
    fn params_are_read_as_the_prelude_sends_them() {
        let params = json!({ "url": "/x", "timeout": 5000, "waitUntil": "commit" });
        let goto: Goto = parse("page.goto", &params).expect("goto");
        assert_eq!((goto.url.as_str(), goto.timeout), ("/x", Some(5000.0)));
        assert_eq!(goto.wait_until.as_deref(), Some("commit"));
        let params = json!({ "waiter": 2, "timeout": 0, "total": 3000 });
        let finish: WaitFinish = parse("waiter.finish", &params).expect("finish");
        assert_eq!(
            (finish.waiter, finish.timeout, finish.total),
            (2, 0.0, Some(3000.0))
        );
        let listen: Listen = parse("page.listen", &json!({ "event": "dialog" })).expect("listen");
        assert!(!listen.once);
        let params = json!({ "dialog": 0, "promptText": "yes" });
        let dialog: Dialog = parse("dialog.accept", &params).expect("dialog");
        assert_eq!(dialog.prompt_text.as_deref(), Some("yes"));
    }

    #[test]
    fn a_mismatch_names_the_method() {
        let err = parse::<Resume>("call.resume", &json!({})).expect_err("no id");
        assert_eq!(
            err.message,
            "call.resume: bad parameters: missing field `id`"
        );
        let err = parse::<WaitDone>("waiter.done", &json!({ "waiter": "x" })).expect_err("string");
        assert_eq!(
            err.message,
            "waiter.done: bad parameters: invalid type: string \"x\", expected usize"
        );
        let err = event_kind("request").expect_err("request");
        assert!(err.message.contains("event \"request\" is not available"));
    }
}
