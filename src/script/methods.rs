//! The table of browser calls step code may make: each prelude method name and the [`Op`] that
//! executes it. Adding a Playwright method to the binding is one name here plus its JS shape in
//! `prelude.js`.
//!
//! Main type: [`Op`]; the lookup is [`Op::of`].

/// How a table entry is executed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    /// A protocol method on the page's main frame, params passed through.
    Frame(&'static str),
    /// A protocol method on the page, params passed through.
    Page(&'static str),
    /// A protocol method on the element a selector resolves to (Playwright's
    /// `Locator._withElement`): waits for it to be attached, calls, disposes of the handle.
    Element(&'static str),
    /// A frame method that answers a JS handle (`waitForFunction`): answers the handle's value.
    FrameHandle(&'static str),
    /// `setInputFiles` with step code's paths checked to lie inside the project directory.
    InputFiles,
    /// Navigation with the base URL applied; answers the response's status and URL.
    Goto,
    /// The page's current URL.
    Url,
    /// A URL resolved against the base URL (for `toHaveURL`).
    ResolveUrl,
    /// Ids of the context's open pages.
    ContextPages,
    /// Starts waiting for an event (`page.waitForEvent`); answers a waiter id.
    WaitStart,
    /// Blocks until a waiter's event happened (awaiting the `waitForEvent` thenable).
    WaitFinish,
    /// An HTTP request of step code (`request.get`, ...) through the context's request
    /// context, confined to `[browser] allowed_origins`.
    Fetch,
    /// Ends a waiter (its event was taken, or waiting failed).
    WaitDone,
    /// Registers (`page.on` / `page.once`) or removes (`page.off`) a listener.
    Listen,
    Unlisten,
    /// Continues a browser call that was parked so step code's listeners could run.
    Resume,
    /// Resolves a dialog the step owns.
    DialogAccept,
    DialogDismiss,
}

/// `frame.<name>`: passed through to the page's main frame as [`Op::Frame`].
const FRAME_METHODS: &[&str] = &[
    "click",
    "dblclick",
    "tap",
    "fill",
    "press",
    "type",
    "check",
    "uncheck",
    "hover",
    "focus",
    "blur",
    "selectOption",
    "dragAndDrop",
    "dispatchEvent",
    "waitForSelector",
    "queryCount",
    "textContent",
    "innerText",
    "innerHTML",
    "inputValue",
    "getAttribute",
    "isVisible",
    "isHidden",
    "isEnabled",
    "isDisabled",
    "isEditable",
    "isChecked",
    "ariaSnapshot",
    "evalOnSelectorAll",
    "evaluateExpression",
    "waitForTimeout",
    "content",
    "title",
    "expect",
];

/// `page.<name>`: passed through to the page as [`Op::Page`].
const PAGE_METHODS: &[&str] = &[
    "reload",
    "goBack",
    "goForward",
    "keyboardPress",
    "keyboardType",
    "keyboardDown",
    "keyboardUp",
    "keyboardInsertText",
    "mouseMove",
    "mouseDown",
    "mouseUp",
    "mouseClick",
    "mouseWheel",
    "setViewportSize",
    "bringToFront",
];

/// `element.<name>`: called on the selector's element as [`Op::Element`].
const ELEMENT_METHODS: &[&str] = &[
    "scrollIntoViewIfNeeded",
    "boundingBox",
    "evaluateExpression",
];

/// The methods the binding executes itself.
const OWN_METHODS: &[(&str, Op)] = &[
    ("frame.setInputFiles", Op::InputFiles),
    ("frame.waitForFunction", Op::FrameHandle("waitForFunction")),
    ("page.goto", Op::Goto),
    ("page.url", Op::Url),
    ("page.resolveUrl", Op::ResolveUrl),
    ("page.waitForEvent", Op::WaitStart),
    ("page.listen", Op::Listen),
    ("page.unlisten", Op::Unlisten),
    ("context.pages", Op::ContextPages),
    ("request.fetch", Op::Fetch),
    ("waiter.finish", Op::WaitFinish),
    ("waiter.done", Op::WaitDone),
    ("call.resume", Op::Resume),
    ("dialog.accept", Op::DialogAccept),
    ("dialog.dismiss", Op::DialogDismiss),
];

impl Op {
    /// The op of a prelude method, or `None` when step code may not make that call.
    pub(crate) fn of(method: &str) -> Option<Op> {
        if let Some(&(_, op)) = OWN_METHODS.iter().find(|(name, _)| *name == method) {
            return Some(op);
        }
        let (target, name) = method.split_once('.')?;
        let (names, op): (_, fn(&'static str) -> Op) = match target {
            "frame" => (FRAME_METHODS, Op::Frame),
            "page" => (PAGE_METHODS, Op::Page),
            "element" => (ELEMENT_METHODS, Op::Element),
            _ => return None,
        };
        names
            .iter()
            .find(|known| **known == name)
            .map(|&name| op(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_map_to_their_ops() {
        for (method, op) in [
            ("frame.click", Op::Frame("click")),
            ("frame.expect", Op::Frame("expect")),
            ("page.reload", Op::Page("reload")),
            ("element.boundingBox", Op::Element("boundingBox")),
            ("frame.setInputFiles", Op::InputFiles),
            ("frame.waitForFunction", Op::FrameHandle("waitForFunction")),
            ("page.goto", Op::Goto),
            ("call.resume", Op::Resume),
            ("request.fetch", Op::Fetch),
        ] {
            assert_eq!(Op::of(method), Some(op), "{method}");
        }
    }

    #[test]
    fn other_methods_are_not_available() {
        let others = [
            "frame.evaluate",
            "page.close",
            "element.click",
            "browser.close",
        ];
        let malformed = ["click", "frame.", ""];
        let available: Vec<&str> = others
            .into_iter()
            .chain(malformed)
            .filter(|method| Op::of(method).is_some())
            .collect();
        assert!(available.is_empty(), "{available:?}");
    }

    #[test]
    fn no_method_is_listed_twice() {
        let mut all: Vec<String> = OWN_METHODS.iter().map(|(m, _)| m.to_string()).collect();
        for (target, names) in [
            ("frame", FRAME_METHODS),
            ("page", PAGE_METHODS),
            ("element", ELEMENT_METHODS),
        ] {
            all.extend(names.iter().map(|name| format!("{target}.{name}")));
        }
        let count = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), count);
    }
}
