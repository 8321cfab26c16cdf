//! What each call of step code can do to the test's pages, as the origin guard needs it
//! ([`Reach`]): read, navigate, act as a user does, run step code's own JavaScript in the page
//! (telling a script that only reads, by `page_reads.rs`, from one that may do more), or send a
//! request of its own. It is derived from the kind of each row of the binding's table
//! (`methods.rs`), not kept as a list of its own.
//!
//! Main function: [`reach_of`]. The prelude runs a few expressions of its own through the calls
//! that otherwise run step code's (`allTextContents`, `waitForLoadState`): those read, and are
//! taken from the prelude's source so that they cannot drift apart.

use std::sync::OnceLock;

use serde_json::Value;

use crate::driver::Reach;
use crate::script::methods::{Kind, Method, Op};
use crate::script::page_reads::only_reads;

/// The prelude's source, where its own expressions are read from.
const PRELUDE: &str = include_str!("prelude.js");

/// What a call of the table's row `method` with `params` can do to the test's pages.
pub(crate) fn reach_of(method: Method, params: &Value) -> Reach {
    match method.kind {
        Kind::Bookkeeping | Kind::Waits | Kind::AwaitsEvent => Reach::Read,
        Kind::Reads if asserts(method.op) => Reach::Check,
        Kind::Reads => Reach::Read,
        Kind::Requests => Reach::Request,
        Kind::Navigates => Reach::Navigate,
        Kind::Acts | Kind::Interacts => Reach::Act,
        Kind::RunsScript => {
            let expression = params.get("expression").and_then(Value::as_str);
            if expression.is_some_and(|e| prelude_expressions().contains(&e)) {
                Reach::Read
            } else if expression.is_some_and(only_reads) {
                Reach::ReadCode
            } else {
                Reach::RunCode
            }
        }
    }
}

/// Whether a call of `op` is an assertion: it fails the step unless the page is as it claims.
/// A read that only returns a value (`url`, `textContent`, `isVisible`) verifies nothing.
fn asserts(op: Op) -> bool {
    matches!(
        op,
        Op::Frame("expect") | Op::ExpectScreenshot | Op::CheckAccessibility
    )
}

/// The expressions the prelude itself evaluates in the page: `ALL_TEXT_CONTENTS`,
/// `ALL_INNER_TEXTS` and each of `LOAD_STATES`.
fn prelude_expressions() -> &'static [&'static str] {
    static FOUND: OnceLock<Vec<&'static str>> = OnceLock::new();
    FOUND.get_or_init(|| {
        let mut found = Vec::new();
        for name in ["ALL_TEXT_CONTENTS", "ALL_INNER_TEXTS"] {
            if let Some(value) = constant(&format!("const {name} = ")) {
                found.push(value);
            }
        }
        if let Some(start) = PRELUDE.find("const LOAD_STATES = {") {
            let block = &PRELUDE[start..];
            for key in ["load: ", "domcontentloaded: ", "networkidle: "] {
                if let Some(at) = block.find(key) {
                    found.extend(literal(&block[at + key.len()..]));
                }
            }
        }
        found
    })
}

/// The string literal that follows `declaration` in the prelude.
fn constant(declaration: &str) -> Option<&'static str> {
    let at = PRELUDE.find(declaration)?;
    literal(&PRELUDE[at + declaration.len()..])
}

/// The JavaScript string literal (quoted with `'`, `"` or a backtick without `${`) that `text`
/// starts with, without its quotes.
fn literal(text: &'static str) -> Option<&'static str> {
    let quote = text.chars().next().filter(|c| "'\"`".contains(*c))?;
    let body = &text[1..];
    let end = body.find(quote)?;
    let value = &body[..end];
    (!value.contains("${") && !value.contains('\\')).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn row(method: &str) -> Method {
        Method::of(method).unwrap()
    }

    #[test]
    fn the_preludes_own_expressions_are_found() {
        let found = prelude_expressions();
        assert_eq!(found.len(), 5, "{found:?}");
        assert!(found.contains(&"ee => ee.map(e => e.textContent || '')"));
        assert!(found.contains(&"document.readyState === 'complete'"));
        assert!(
            found
                .iter()
                .any(|e| e.contains("getEntriesByType('resource')"))
        );
    }

    #[test]
    fn each_call_has_its_reach() {
        let none = json!({});
        assert_eq!(reach_of(row("page.goto"), &none), Reach::Navigate);
        assert_eq!(reach_of(row("page.reload"), &none), Reach::Navigate);
        assert_eq!(reach_of(row("request.fetch"), &none), Reach::Request);
        assert_eq!(reach_of(row("frame.click"), &none), Reach::Act);
        assert_eq!(reach_of(row("frame.fill"), &none), Reach::Act);
        assert_eq!(reach_of(row("page.keyboardType"), &none), Reach::Act);
        assert_eq!(reach_of(row("dialog.accept"), &none), Reach::Act);
        assert_eq!(reach_of(row("frame.expect"), &none), Reach::Check);
        assert_eq!(reach_of(row("frame.textContent"), &none), Reach::Read);
        assert_eq!(reach_of(row("page.url"), &none), Reach::Read);
        assert_eq!(reach_of(row("waiter.finish"), &none), Reach::Read);
        // A script that may do more than read runs code; one that only reads is told apart.
        let code = json!({ "expression": "() => { setTimeout(() => fetch('/x'), 60); }" });
        let reads = json!({ "expression": "() => document.title" });
        for method in [
            "frame.evaluateExpression",
            "element.evaluateExpression",
            "frame.waitForFunction",
            "frame.evalOnSelectorAll",
        ] {
            assert_eq!(reach_of(row(method), &code), Reach::RunCode, "{method}");
            assert_eq!(reach_of(row(method), &reads), Reach::ReadCode, "{method}");
        }
        let own = json!({ "expression": "document.readyState === 'complete'" });
        assert_eq!(reach_of(row("frame.waitForFunction"), &own), Reach::Read);
        let own = json!({ "expression": "ee => ee.map(e => e.innerText)" });
        assert_eq!(reach_of(row("frame.evalOnSelectorAll"), &own), Reach::Read);
    }
}
