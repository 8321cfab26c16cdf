//! What each call of step code can do to the test's pages, as the origin guard needs it
//! ([`Reach`]): read, navigate, act as a user does, run step code's own JavaScript in the page,
//! or send a request of its own. It is derived from the binding's table (`methods.rs`) and the
//! proof's list of reads, not kept as a list of its own.
//!
//! Main function: [`reach_of`]. The prelude runs a few expressions of its own through the calls
//! that otherwise run step code's (`allTextContents`, `waitForLoadState`): those read, and are
//! taken from the prelude's source so that they cannot drift apart.

use std::sync::OnceLock;

use serde_json::Value;

use crate::driver::Reach;
use crate::script::methods::Op;
use crate::script::proof_mode;

/// The prelude's source, where its own expressions are read from.
const PRELUDE: &str = include_str!("prelude.js");

/// What a call of `op` with `params` can do to the test's pages.
pub(crate) fn reach_of(op: Op, params: &Value) -> Reach {
    match op {
        Op::Goto | Op::Page("reload" | "goBack" | "goForward") => Reach::Navigate,
        Op::Fetch => Reach::Request,
        Op::Frame("evaluateExpression" | "evalOnSelectorAll")
        | Op::Element("evaluateExpression")
        | Op::FrameHandle(_) => {
            let expression = params.get("expression").and_then(Value::as_str);
            if expression.is_some_and(|e| prelude_expressions().contains(&e)) {
                Reach::Read
            } else {
                Reach::RunCode
            }
        }
        Op::WaitStart | Op::WaitFinish => Reach::Read,
        op if proof_mode::reads_only(op) => Reach::Read,
        _ => Reach::Act,
    }
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
        assert_eq!(reach_of(Op::Goto, &none), Reach::Navigate);
        assert_eq!(reach_of(Op::Page("reload"), &none), Reach::Navigate);
        assert_eq!(reach_of(Op::Fetch, &none), Reach::Request);
        assert_eq!(reach_of(Op::Frame("click"), &none), Reach::Act);
        assert_eq!(reach_of(Op::Frame("fill"), &none), Reach::Act);
        assert_eq!(reach_of(Op::Page("keyboardType"), &none), Reach::Act);
        assert_eq!(reach_of(Op::DialogAccept, &none), Reach::Act);
        assert_eq!(reach_of(Op::Frame("expect"), &none), Reach::Read);
        assert_eq!(reach_of(Op::Frame("textContent"), &none), Reach::Read);
        assert_eq!(reach_of(Op::WaitFinish, &none), Reach::Read);
        let code = json!({ "expression": "() => document.title" });
        assert_eq!(
            reach_of(Op::Frame("evaluateExpression"), &code),
            Reach::RunCode
        );
        assert_eq!(
            reach_of(Op::Element("evaluateExpression"), &code),
            Reach::RunCode
        );
        assert_eq!(
            reach_of(Op::FrameHandle("waitForFunction"), &code),
            Reach::RunCode
        );
        assert_eq!(
            reach_of(Op::Frame("evalOnSelectorAll"), &code),
            Reach::RunCode
        );
        let own = json!({ "expression": "document.readyState === 'complete'" });
        assert_eq!(
            reach_of(Op::FrameHandle("waitForFunction"), &own),
            Reach::Read
        );
        let own = json!({ "expression": "ee => ee.map(e => e.innerText)" });
        assert_eq!(reach_of(Op::Frame("evalOnSelectorAll"), &own), Reach::Read);
    }
}
