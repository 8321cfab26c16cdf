//! Running step code for the mutation proof: only calls that read the page are allowed, each
//! read is recorded (what it read and how), and timeouts are cut so that a check that does
//! not hold fails at once.
//!
//! Main types: [`ProofMode`] (how a proof run treats calls) and [`Read`] (one recorded read).
//! The proof itself is in `step/proof.rs`; this module only decides, call by call, what the
//! host lets through.

use serde_json::{Value, json};

use crate::script::FailureKind;
use crate::script::driver_error::HostError;
use crate::script::failure::RefusedCall;
use crate::script::methods::{Kind, Op};
use crate::script::page_reads::only_reads;

/// How the host treats step code's calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum ProofMode {
    /// A normal step: every call runs as asked.
    #[default]
    Off,
    /// A proof run on the page as it is: reads run with their own timeouts and are recorded;
    /// anything that acts is refused.
    Record,
    /// A proof run on a mutated page: as `Record`, and web-first assertions get a 1 ms timeout
    /// (Playwright evaluates an assertion once before its timeout counts, so the one check
    /// that matters still runs whatever the machine's speed), other reads at most
    /// [`MUTATED_READ_TIMEOUT_MS`].
    Mutated,
}

/// The longest a read other than an assertion may wait on a mutated page. Such a read waits
/// for its element; on a mutated page the element may be gone for good.
pub(crate) const MUTATED_READ_TIMEOUT_MS: f64 = 1000.0;

/// One read step code made, as the browser call carried it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Read {
    /// The protocol method: `expect`, `textContent`, `queryCount`, `title`, `url`, ...
    pub method: String,
    /// The Playwright selector the read resolved, if it reads elements.
    pub selector: Option<String>,
    /// For `expect`: the matcher's expression (`to.have.text`, `to.be.visible`, ...); for a
    /// wait for elements, the expression of the state it waits for.
    pub expression: Option<String>,
    /// For `expect`: `.not` was applied; for a wait for elements, it waits for them to be
    /// hidden or detached.
    pub negated: bool,
    /// For `expect`: the expected number (`toHaveCount`), if any.
    pub number: Option<f64>,
    /// For `expect`: an expected text matches a part of the element's text (`toContainText`,
    /// which the protocol calls `to.have.text` too), or matches in any case.
    pub loose: bool,
    /// The page it was made on: 0 is the test's own page.
    pub page: u32,
    /// For `expect`: the expected strings (regular expressions are left out).
    pub texts: Vec<String>,
}

impl Read {
    /// The read a call makes, from its method (`frame.expect`) and parameters.
    pub(crate) fn of(page: u32, method: &str, params: &Value) -> Read {
        let name = method.split_once('.').map_or(method, |(_, name)| name);
        let text = |key: &str| params.get(key).and_then(Value::as_str).map(str::to_owned);
        // A wait for elements (`locator.waitFor()`) checks what its state says, as the
        // assertion of that state would: `visible` (the default) or `attached`, or their
        // negations `hidden` and `detached`.
        let waited = (name == "waitForSelector").then(|| {
            match params.get("state").and_then(Value::as_str) {
                Some("attached") => ("to.be.attached", false),
                Some("detached") => ("to.be.attached", true),
                Some("hidden") => ("to.be.visible", true),
                _ => ("to.be.visible", false),
            }
        });
        Read {
            method: name.to_owned(),
            selector: text("selector"),
            expression: waited
                .map(|(expression, _)| expression.to_owned())
                .or_else(|| text("expression")),
            negated: waited.map_or_else(
                || params.get("isNot").and_then(Value::as_bool) == Some(true),
                |(_, negated)| negated,
            ),
            number: params.get("expectedNumber").and_then(Value::as_f64),
            loose: params
                .get("expectedText")
                .and_then(Value::as_array)
                .is_some_and(|texts| {
                    texts.iter().any(|t| {
                        t.get("matchSubstring").and_then(Value::as_bool) == Some(true)
                            || t.get("ignoreCase").and_then(Value::as_bool) == Some(true)
                    })
                }),
            page,
            texts: expected_texts(params),
        }
    }
}

impl Read {
    /// The read of a request's response (`request.get`), with its status.
    pub(crate) fn of_response(page: u32, status: u16) -> Read {
        Read {
            method: "response".to_owned(),
            selector: None,
            expression: None,
            negated: false,
            number: Some(f64::from(status)),
            loose: false,
            page,
            texts: Vec::new(),
        }
    }
}

/// The expected strings of an `expect` call's parameters (regular expressions are left out).
pub(crate) fn expected_texts(params: &Value) -> Vec<String> {
    params
        .get("expectedText")
        .and_then(Value::as_array)
        .map(|all| {
            all.iter()
                .filter_map(|e| e.get("string").and_then(Value::as_str))
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// Whether a call that runs a script in the page (`kind`) runs one that only reads
/// ([`only_reads`]): a proof run lets it through and records it as a read.
pub(crate) fn reads_in_page(kind: Kind, params: &Value) -> bool {
    kind == Kind::RunsScript
        && params
            .get("expression")
            .and_then(Value::as_str)
            .is_some_and(only_reads)
}

/// Whether a call is a read worth recording (the binding's bookkeeping is not).
pub(crate) fn is_recorded(op: Op) -> bool {
    matches!(op, Op::Frame(_) | Op::Element(_) | Op::Url)
}

/// Whether a call checks the page's look or accessibility as a whole (`toHaveScreenshot`,
/// `toHaveNoAccessibilityViolations`): it reads the page, so a proof is not vacuous for want of
/// reads, yet no text or element mutation is evidence that the check can fail, so the proof
/// tries none for it and says so (unproven, not proven).
pub(crate) fn checks_the_whole_page(op: Op) -> bool {
    matches!(op, Op::CheckAccessibility | Op::ExpectScreenshot)
}

/// The error of a call a proof run refuses: running it again under a mutation would change
/// the app.
pub(crate) fn refusal(call: RefusedCall) -> HostError {
    let message = match call {
        RefusedCall::Page(name) => {
            format!("{name} acts on the page; the mutation proof only runs code that reads")
        }
        RefusedCall::Request(method) => format!(
            "a {method} request may change the app; the mutation proof only sends GET and HEAD \
             requests"
        ),
    };
    HostError {
        kind: FailureKind::Refused { call },
        message,
        log: Vec::new(),
        received: None,
    }
}

/// Cuts the timeout of a call on a mutated page (see [`ProofMode::Mutated`]). A timeout of 0
/// means "no limit" to Playwright, so it is cut too.
pub(crate) fn clamp_timeout(op: Op, params: &mut Value) {
    let limit = match op {
        Op::Frame("expect") => 1.0,
        Op::Frame(_) | Op::Element(_) | Op::FrameHandle("waitForFunction") => {
            MUTATED_READ_TIMEOUT_MS
        }
        _ => return,
    };
    let Some(fields) = params.as_object_mut() else {
        return;
    };
    let always = matches!(op, Op::Frame("expect" | "waitForTimeout"));
    if !always && !fields.contains_key("timeout") {
        return;
    }
    let current = fields.get("timeout").and_then(Value::as_f64).unwrap_or(0.0);
    if current <= 0.0 || current > limit {
        fields.insert("timeout".to_owned(), json!(limit));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::methods::Method;

    fn lets_through(method: &str) -> bool {
        Method::of(method).unwrap().kind.reads_only()
    }

    #[test]
    fn reads_run_and_acts_are_refused() {
        for method in [
            "frame.expect",
            "frame.textContent",
            "frame.queryCount",
            "frame.isChecked",
            "frame.title",
            "page.url",
            "element.boundingBox",
        ] {
            assert!(lets_through(method), "{method}");
        }
        for method in [
            "frame.click",
            "frame.fill",
            "frame.press",
            "frame.dispatchEvent",
            "frame.evaluateExpression",
            "frame.evalOnSelectorAll",
            "frame.waitForFunction",
            "frame.setInputFiles",
            "page.goto",
            "page.reload",
            "page.keyboardPress",
            "page.mouseClick",
            "element.scrollIntoViewIfNeeded",
            "element.evaluateExpression",
            "dialog.accept",
            "page.waitForEvent",
        ] {
            assert!(!lets_through(method), "{method}");
        }
    }

    #[test]
    fn a_read_records_its_selector_matcher_and_negation() {
        let read = Read::of(
            0,
            "frame.expect",
            &json!({ "selector": "internal:testid=[data-testid=\"count\"s]", "expression": "to.have.count", "isNot": true, "expectedNumber": 3, "timeout": 5000 }),
        );
        assert_eq!(read.method, "expect");
        assert_eq!(
            read.selector.as_deref(),
            Some("internal:testid=[data-testid=\"count\"s]")
        );
        assert_eq!(read.expression.as_deref(), Some("to.have.count"));
        assert!(read.negated);
        assert_eq!(read.number, Some(3.0));
        let wait = Read::of(
            0,
            "frame.waitForSelector",
            &json!({ "selector": "internal:text=\"2 items left\"i", "strict": true, "timeout": 5000 }),
        );
        assert_eq!(
            (wait.expression.as_deref(), wait.negated),
            (Some("to.be.visible"), false)
        );
        for (state, expression, negated) in [
            ("visible", "to.be.visible", false),
            ("hidden", "to.be.visible", true),
            ("attached", "to.be.attached", false),
            ("detached", "to.be.attached", true),
        ] {
            let wait = Read::of(
                0,
                "frame.waitForSelector",
                &json!({ "selector": "p", "state": state }),
            );
            assert_eq!(
                (wait.expression.as_deref(), wait.negated),
                (Some(expression), negated),
                "{state}"
            );
        }
        let title = Read::of(0, "frame.title", &json!({}));
        assert_eq!((title.method.as_str(), title.selector), ("title", None));
    }

    #[test]
    fn assertions_get_one_millisecond_and_other_reads_a_second() {
        let mut expect = json!({ "selector": "p", "timeout": 5000 });
        clamp_timeout(Op::Frame("expect"), &mut expect);
        assert_eq!(expect["timeout"], json!(1.0));
        let mut unlimited = json!({ "selector": "p", "timeout": 0 });
        clamp_timeout(Op::Frame("textContent"), &mut unlimited);
        assert_eq!(unlimited["timeout"], json!(1000.0));
        let mut short = json!({ "selector": "p", "timeout": 200 });
        clamp_timeout(Op::Frame("textContent"), &mut short);
        assert_eq!(short["timeout"], json!(200));
        let mut sleep = json!({ "timeout": 60000 });
        clamp_timeout(Op::Frame("waitForTimeout"), &mut sleep);
        assert_eq!(sleep["timeout"], json!(1000.0));
        let mut no_timeout = json!({ "selector": "p" });
        clamp_timeout(Op::Frame("isVisible"), &mut no_timeout);
        assert_eq!(no_timeout, json!({ "selector": "p" }));
    }
}
