//! What the page shows about a failed step: the call that failed last (its selector, matcher and
//! expected values), how many elements that selector matches now, what it reads now, and the
//! page's visible text. The engine judges rot against product defect from this evidence before
//! any LLM is asked (`engine/evidence.rs`).
//!
//! Main types: [`Observation`] and [`ObservedCall`]; [`observe`] reads them from the page.

use std::time::Duration;

use playwright_rs::protocol::{Frame, Page};
use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};

use crate::script::driver_error::{HostError, received};
use crate::script::methods::{Kind, Method};
use crate::script::mutation::count;
use crate::script::proof_mode::expected_texts;
use crate::script::subject::mark;

/// The most visible text the evidence keeps: enough for any app's screen, never a flood.
const MAX_PAGE_TEXT_BYTES: usize = 256 * 1024;

/// How long each read of the evidence may take: a page blocked by a dialog never answers, and
/// evidence is best effort.
const READ_TIMEOUT: Duration = Duration::from_secs(3);

/// A browser call step code made, as it was sent.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Call {
    /// The page it was made on: 0 is the test's own page.
    pub page: u32,
    /// The protocol method: `frame.expect`, `frame.click`, ...
    pub method: String,
    pub params: Value,
    /// For a failed expectation: the last value the browser saw when it failed, as
    /// Playwright prints it.
    pub received: Option<String>,
}

/// The evidence about a failed step.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Observation {
    /// The last element or page call of the failed run, read again now.
    pub call: Option<ObservedCall>,
    /// The value assertion that ended the failed run, if one did.
    pub value_check: Option<ValueCheck>,
    /// The visible text of the test's page (`document.body.innerText`), cut to a bound.
    pub page_text: Option<String>,
    /// Whether the page finished loading a document of its own (not a browser error page or
    /// `about:blank`).
    pub loaded: bool,
}

/// A failed value assertion (`expect(await x.textContent()).toBe("1 item left")`): what it
/// expected and what it received, as the failure shows them (strings without quotes).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ValueCheck {
    pub expected: String,
    pub received: String,
}

/// The failed call, and what its selector finds now.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ObservedCall {
    /// The API's name: `expect`, `click`, `textContent`, ...
    pub method: String,
    /// The Playwright selector the call resolved, if it works on elements.
    pub selector: Option<String>,
    /// For `expect`: the matcher's expression (`to.have.text`, `to.be.checked`, ...).
    pub expression: Option<String>,
    /// For `expect`: `.not` was applied.
    pub negated: bool,
    /// For `expect`: the expected number (`toHaveCount`).
    pub expected_number: Option<f64>,
    /// For `expect`: the expected strings (regular expressions are left out).
    pub expected_texts: Vec<String>,
    /// How many elements the selector matches now (`None`: it has none, or the page did not
    /// answer).
    pub matches: Option<u64>,
    /// For `expect` on the test's page: what the matcher reads now, as its `Received:` line
    /// shows it (`"2 items left"`, `unchecked`, `3`, `<element(s) not found>`).
    pub received: Option<String>,
    /// For `expect`: what the matcher received when it failed (see [`Call::received`]).
    pub received_at_failure: Option<String>,
    /// The call's kind in the binding's table (`None` for a call not in it).
    pub kind: Option<Kind>,
    /// For a matcher of a state (`toBeChecked`, `toBeVisible`, `toBeEnabled`, ...): the state
    /// it expects, in the words the received value is read in (`checked`, `unchecked`,
    /// `indeterminate`, `visible`, `hidden`, `enabled`, `disabled`). `.not` is in `negated`.
    pub expected_state: Option<&'static str>,
    /// For a check on the test's page whose locator still resolved to elements: those
    /// elements were marked in the page as the check's subject (`subject.rs`), so that a heal
    /// can be held to the same nodes.
    pub subject_marked: bool,
    /// For a call whose selector matches nothing now: the names (or texts) of the elements the
    /// same selector finds when its names and texts match loosely (in any case, inside longer
    /// ones), at most [`MAX_SIMILAR`] of them. "Delete all" for a vanished "Delete".
    pub similar: Vec<String>,
}

impl ObservedCall {
    /// The call as sent, before anything is read from the page.
    pub(super) fn of(call: &Call) -> ObservedCall {
        let params = &call.params;
        let text = |key: &str| params.get(key).and_then(Value::as_str).map(str::to_owned);
        let expected_texts = expected_texts(params);
        ObservedCall {
            method: call
                .method
                .split_once('.')
                .map_or(call.method.as_str(), |(_, name)| name)
                .to_owned(),
            selector: text("selector"),
            expression: text("expression"),
            negated: params.get("isNot").and_then(Value::as_bool) == Some(true),
            expected_number: params.get("expectedNumber").and_then(Value::as_f64),
            expected_texts,
            matches: None,
            received: None,
            received_at_failure: call.received.clone(),
            kind: Method::of(&call.method).map(|row| row.kind),
            expected_state: params
                .get("expression")
                .and_then(Value::as_str)
                .and_then(|expression| expected_state(expression, params)),
            subject_marked: false,
            similar: Vec::new(),
        }
    }
}

/// The state a state matcher's parameters expect (see [`ObservedCall::expected_state`]).
fn expected_state(expression: &str, params: &Value) -> Option<&'static str> {
    match expression {
        // `toBeChecked({ checked, indeterminate })` sends its options as a serialized argument.
        "to.be.checked" => {
            let option = |name: &str| {
                params["expectedValue"]["value"]["o"]
                    .as_array()
                    .and_then(|fields| fields.iter().find(|field| field["k"] == name))
                    .map(|field| &field["v"])
            };
            // JavaScript's truthiness, as the prelude tests the option.
            let indeterminate = option("indeterminate").is_some_and(|v| {
                v["b"] == true
                    || v["n"].as_f64().is_some_and(|n| n != 0.0)
                    || v["s"].as_str().is_some_and(|s| !s.is_empty())
            });
            let unchecked = option("checked").is_some_and(|v| v["b"] == false);
            Some(match (indeterminate, unchecked) {
                (true, _) => "indeterminate",
                (false, true) => "unchecked",
                (false, false) => "checked",
            })
        }
        "to.be.visible" => Some("visible"),
        "to.be.hidden" => Some("hidden"),
        "to.be.enabled" => Some("enabled"),
        "to.be.disabled" => Some("disabled"),
        _ => None,
    }
}

/// Reads the evidence about `call` (the failed run's last call, if any) from the page.
pub(crate) async fn observe(page: &Page, frame: &Frame, call: Option<&Call>) -> Observation {
    let (page_text, loaded) = match tokio::time::timeout(READ_TIMEOUT, document(frame)).await {
        Ok(Some((text, loaded))) => (Some(text), loaded),
        _ => (None, false),
    };
    let mut observed = None;
    if let Some(call) = call {
        let mut seen = ObservedCall::of(call);
        // Only a call on the test's own page is read again: a popup may be gone, and reading
        // the opener instead would judge the wrong page.
        if let Some(selector) = &seen.selector
            && call.page == 0
        {
            seen.matches = tokio::time::timeout(READ_TIMEOUT, count(frame, selector))
                .await
                .ok()
                .and_then(Result::ok);
            if seen.matches == Some(0)
                && let Some(loose) = loosened(selector)
            {
                seen.similar = tokio::time::timeout(READ_TIMEOUT, names(frame, &loose))
                    .await
                    .ok()
                    .and_then(Result::ok)
                    .unwrap_or_default();
            }
            // A check's subject still on the page is marked as it is now, right after the
            // failure: a heal must read these very nodes. The subject is what an assertion on
            // elements read, or the plain read a value assertion checked.
            if seen.kind == Some(Kind::Reads) && seen.matches.is_some_and(|n| n > 0) {
                seen.subject_marked = tokio::time::timeout(READ_TIMEOUT, mark(frame, selector))
                    .await
                    .ok()
                    .and_then(Result::ok)
                    .is_some_and(|n| n > 0);
            }
        }
        if seen.method == "expect" && call.page == 0 && !page.is_closed() {
            seen.received = tokio::time::timeout(READ_TIMEOUT, received(page, frame, &call.params))
                .await
                .ok()
                .flatten();
        }
        observed = Some(seen);
    }
    Observation {
        call: observed,
        value_check: None,
        page_text,
        loaded,
    }
}

/// Gives the plain read a value assertion checked (the observed call, see
/// `StepHost::judged_call`) the value the assertion expected, as an assertion on elements
/// carries its expected texts: a heal's checks are held to that claim.
pub(crate) fn held_to_value(observation: &mut Observation, check: Option<&ValueCheck>) {
    if let (Some(check), Some(seen)) = (check, observation.call.as_mut())
        && seen.expected_texts.is_empty()
        && !check.expected.trim().is_empty()
    {
        seen.expected_texts.push(check.expected.clone());
    }
}

/// The most elements whose names the evidence lists as likenesses of a vanished target.
const MAX_SIMILAR: usize = 5;

/// `selector` with every exact name or text (`"Delete"s`) made loose (`"Delete"i`: any case,
/// inside a longer name); `None` when it has none.
fn loosened(selector: &str) -> Option<String> {
    let mut out = String::with_capacity(selector.len());
    let mut changed = false;
    let mut chars = selector.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c != '"' {
            continue;
        }
        let mut escaped = false;
        for c in chars.by_ref() {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                break;
            }
        }
        if chars.peek() == Some(&'s') {
            chars.next();
            out.push('i');
            changed = true;
        }
    }
    changed.then_some(out)
}

/// The page function that answers the names of the first elements it is given, as a person
/// reads them.
const NAMES_JS: &str = r#"(elements, max) => elements.slice(0, Number(max)).map((element) =>
  (element.getAttribute('aria-label') || element.innerText || element.value || element.textContent || '').trim().replace(/\s+/g, ' '))"#;

/// The names of the elements `selector` finds now.
async fn names(frame: &Frame, selector: &str) -> Result<Vec<String>, HostError> {
    let arg = json!({ "value": { "s": MAX_SIMILAR.to_string() }, "handles": [] });
    let reply: Value = frame
        .channel()
        .send(
            "evalOnSelectorAll",
            json!({ "selector": selector, "expression": NAMES_JS, "isFunction": true, "arg": arg }),
        )
        .await
        .map_err(|err| HostError::from_playwright(err, false))?;
    Ok(reply["value"]["a"]
        .as_array()
        .map(|all| {
            all.iter()
                .filter_map(|v| v["s"].as_str())
                .filter(|name| !name.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default())
}

/// The page function that answers the document's visible text (open shadow roots included,
/// where `innerText` stops), its ready state and its URL.
const VISIBLE_TEXT_JS: &str = r#"() => {
  const parts = [];
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        const text = child.textContent.trim();
        if (text) parts.push(text);
      } else if (child.nodeType === Node.ELEMENT_NODE) {
        if (['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT'].includes(child.tagName)) continue;
        if (child.checkVisibility && !child.checkVisibility()) continue;
        if (child.shadowRoot) walk(child.shadowRoot);
        walk(child);
      }
    }
  };
  if (document.body) walk(document.body);
  return JSON.stringify({ text: parts.join(String.fromCharCode(10)), ready: document.readyState, url: location.href });
}"#;

/// The page's visible text, and whether a document of its own loaded.
async fn document(frame: &Frame) -> Option<(String, bool)> {
    let expression = VISIBLE_TEXT_JS;
    let reply: Value = frame
        .channel()
        .send(
            "evaluateExpression",
            json!({ "expression": expression, "isFunction": true, "arg": { "value": { "v": "undefined" }, "handles": [] } }),
        )
        .await
        .ok()?;
    let parsed: Value = serde_json::from_str(reply["value"]["s"].as_str()?).ok()?;
    let mut text = parsed["text"].as_str().unwrap_or_default().to_owned();
    if text.len() > MAX_PAGE_TEXT_BYTES {
        let mut end = MAX_PAGE_TEXT_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    let url = parsed["url"].as_str().unwrap_or_default();
    let own = !(url.is_empty()
        || url == "about:blank"
        || url.starts_with("chrome-error:")
        || url.starts_with("about:neterror"));
    Some((text, own && parsed["ready"].as_str() != Some("loading")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_names_its_method_selector_matcher_and_expected_values() {
        let call = Call {
            page: 0,
            method: "frame.expect".into(),
            params: json!({
                "selector": "internal:testid=[data-testid=\"todo-count\"s]",
                "expression": "to.have.text",
                "isNot": false,
                "expectedText": [{ "string": "1 item left", "normalizeWhiteSpace": true }, { "regexSource": "x" }],
                "timeout": 5000
            }),
            received: None,
        };
        let seen = ObservedCall::of(&call);
        assert_eq!(seen.method, "expect");
        assert_eq!(
            seen.selector.as_deref(),
            Some("internal:testid=[data-testid=\"todo-count\"s]")
        );
        assert_eq!(seen.expression.as_deref(), Some("to.have.text"));
        assert!(!seen.negated);
        assert_eq!(seen.expected_texts, vec!["1 item left".to_owned()]);
        assert_eq!(seen.matches, None, "nothing is read before the page is");
    }

    #[test]
    fn exact_names_and_texts_are_loosened_and_nothing_else() {
        assert_eq!(
            loosened("internal:role=button[name=\"Delete\"s]").as_deref(),
            Some("internal:role=button[name=\"Delete\"i]")
        );
        assert_eq!(
            loosened("main >> internal:text=\"Say \\\"hi\\\"\"s").as_deref(),
            Some("main >> internal:text=\"Say \\\"hi\\\"\"i")
        );
        assert_eq!(loosened("internal:role=button[name=\"Delete\"i]"), None);
        assert_eq!(loosened("#delete"), None);
    }

    #[test]
    fn a_count_and_a_negation_are_kept() {
        let call = Call {
            page: 0,
            method: "frame.expect".into(),
            params: json!({ "selector": "li", "expression": "to.have.count", "isNot": true, "expectedNumber": 2.0 }),
            received: None,
        };
        let seen = ObservedCall::of(&call);
        assert!(seen.negated);
        assert_eq!(seen.expected_number, Some(2.0));
        assert!(seen.expected_texts.is_empty());
    }

    #[test]
    fn the_plain_read_a_value_assertion_checked_carries_the_expected_value() {
        let read = ObservedCall {
            method: "textContent".into(),
            selector: Some("li >> nth=0".into()),
            ..ObservedCall::default()
        };
        let check = ValueCheck {
            expected: "buy milk".into(),
            received: "walk the dog".into(),
        };
        let mut seen = Observation {
            call: Some(read.clone()),
            ..Observation::default()
        };
        held_to_value(&mut seen, Some(&check));
        assert_eq!(seen.call.expect("a call").expected_texts, ["buy milk"]);
        // An assertion's own expected texts stay as they are.
        let asserted = ObservedCall {
            expected_texts: vec!["2 items left".into()],
            ..read
        };
        let mut seen = Observation {
            call: Some(asserted),
            ..Observation::default()
        };
        held_to_value(&mut seen, Some(&check));
        assert_eq!(seen.call.expect("a call").expected_texts, ["2 items left"]);
    }
}
