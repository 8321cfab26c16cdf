//! The table of browser calls step code may make: each prelude method name, the [`Op`] that
//! executes it and the [`Kind`] of call it is. Adding a Playwright method to the binding is one
//! row here plus its JS shape in `prelude.js`; which API methods make which calls is
//! `api_methods.rs`.
//!
//! Every reader of "which calls act, read, navigate or wait" derives from this table: the proof
//! mode (`proof_mode.rs`), the `[optional]` target wait (`optional_target.rs`), the engine's
//! proof and evidence (through [`Method`] and `api_methods.rs`) and docs/step-api.md.
//!
//! Main types: [`Method`] (a row), [`Op`] and [`Kind`]; the lookup is [`Method::of`].

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
    /// Compares the page or an element with its screenshot baseline (`Page.expectScreenshot`),
    /// writing the baseline as the run allows (`screenshots.rs`).
    ExpectScreenshot,
    /// Runs axe-core on the page or a locator's elements (`accessibility.rs`).
    CheckAccessibility,
    /// Resolves a dialog the step owns.
    DialogAccept,
    DialogDismiss,
}

/// What a call does to the app, which decides who may make it: a proof run lets only
/// [`Kind::reads_only`] calls through, and an `[optional]` step's first
/// [`Kind::Interacts`] call waits for its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Kind {
    /// The binding's own bookkeeping: listeners, waiters, parked calls, the list of open pages,
    /// URLs resolved against the base URL. It changes nothing the app sees.
    Bookkeeping,
    /// Waits for time to pass or for an element's state, and changes nothing.
    Waits,
    /// Reads the page (assertions included, which wait for their condition).
    Reads,
    /// An HTTP request of step code: it reads or writes by its HTTP method.
    Requests,
    /// Waits for an event (a popup, a download, a dialog) that something else has to cause.
    AwaitsEvent,
    /// Runs JavaScript in the page, which may change anything.
    RunsScript,
    /// Changes the page otherwise: keys, the mouse, a dialog's answer, the viewport, a synthetic
    /// event, files, scrolling.
    Acts,
    /// Acts on the element a selector names the way a user does (a click, typing, a choice):
    /// the element must be there first.
    Interacts,
    /// Loads a document.
    Navigates,
}

impl Kind {
    /// Every kind, weakest first: an API method that makes several calls is of the strongest
    /// kind among them.
    #[cfg(test)]
    pub(crate) const ALL: [Kind; 9] = [
        Kind::Bookkeeping,
        Kind::Waits,
        Kind::Reads,
        Kind::Requests,
        Kind::AwaitsEvent,
        Kind::RunsScript,
        Kind::Acts,
        Kind::Interacts,
        Kind::Navigates,
    ];

    /// Whether running the call again, under a mutation of the page, leaves the app as it is.
    /// A request is not: it is judged by its HTTP method where it is sent.
    pub(crate) fn reads_only(self) -> bool {
        match self {
            Kind::Bookkeeping | Kind::Waits | Kind::Reads => true,
            Kind::Requests
            | Kind::AwaitsEvent
            | Kind::RunsScript
            | Kind::Acts
            | Kind::Interacts
            | Kind::Navigates => false,
        }
    }

    /// Whether the call changes the page the way a user or a new document would: a click,
    /// typing, a key, the mouse, a dialog's answer, a navigation. A check's code makes none of
    /// these before it asserts, because each can make true what the check then reads.
    pub(crate) fn changes_the_page(self) -> bool {
        match self {
            Kind::Acts | Kind::Interacts | Kind::Navigates => true,
            Kind::Bookkeeping
            | Kind::Waits
            | Kind::Reads
            | Kind::Requests
            | Kind::AwaitsEvent
            | Kind::RunsScript => false,
        }
    }

    /// The kind's name in docs/step-api.md.
    #[cfg(test)]
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Bookkeeping => "bookkeeping",
            Kind::Waits => "waits",
            Kind::Reads => "reads",
            Kind::Requests => "requests",
            Kind::AwaitsEvent => "awaits an event",
            Kind::RunsScript => "runs a page script",
            Kind::Acts => "acts",
            Kind::Interacts => "interacts",
            Kind::Navigates => "navigates",
        }
    }
}

/// One row of the table: a call step code's prelude may make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Method {
    /// The call's name without its target (`click` for `frame.click`, `goto` for `page.goto`),
    /// as messages name it.
    pub name: &'static str,
    pub op: Op,
    pub kind: Kind,
}

/// `frame.<name>`: passed through to the page's main frame as [`Op::Frame`].
const FRAME_METHODS: &[(&str, Kind)] = &[
    ("click", Kind::Interacts),
    ("dblclick", Kind::Interacts),
    ("tap", Kind::Interacts),
    ("fill", Kind::Interacts),
    ("press", Kind::Interacts),
    ("type", Kind::Interacts),
    ("check", Kind::Interacts),
    ("uncheck", Kind::Interacts),
    ("hover", Kind::Interacts),
    ("focus", Kind::Interacts),
    ("selectOption", Kind::Interacts),
    ("dragAndDrop", Kind::Interacts),
    // Neither needs the element to be visible (a synthetic event, a lost focus), so an
    // `[optional]` step does not wait for their target.
    ("blur", Kind::Acts),
    ("dispatchEvent", Kind::Acts),
    ("waitForSelector", Kind::Waits),
    ("queryCount", Kind::Reads),
    ("textContent", Kind::Reads),
    ("innerText", Kind::Reads),
    ("innerHTML", Kind::Reads),
    ("inputValue", Kind::Reads),
    ("getAttribute", Kind::Reads),
    ("isVisible", Kind::Reads),
    ("isHidden", Kind::Reads),
    ("isEnabled", Kind::Reads),
    ("isDisabled", Kind::Reads),
    ("isEditable", Kind::Reads),
    ("isChecked", Kind::Reads),
    ("ariaSnapshot", Kind::Reads),
    ("evalOnSelectorAll", Kind::RunsScript),
    ("evaluateExpression", Kind::RunsScript),
    ("waitForTimeout", Kind::Waits),
    ("content", Kind::Reads),
    ("title", Kind::Reads),
    ("expect", Kind::Reads),
];

/// `page.<name>`: passed through to the page as [`Op::Page`].
const PAGE_METHODS: &[(&str, Kind)] = &[
    ("reload", Kind::Navigates),
    ("goBack", Kind::Navigates),
    ("goForward", Kind::Navigates),
    ("keyboardPress", Kind::Acts),
    ("keyboardType", Kind::Acts),
    ("keyboardDown", Kind::Acts),
    ("keyboardUp", Kind::Acts),
    ("keyboardInsertText", Kind::Acts),
    ("mouseMove", Kind::Acts),
    ("mouseDown", Kind::Acts),
    ("mouseUp", Kind::Acts),
    ("mouseClick", Kind::Acts),
    ("mouseWheel", Kind::Acts),
    ("setViewportSize", Kind::Acts),
    ("bringToFront", Kind::Acts),
];

/// `element.<name>`: called on the selector's element as [`Op::Element`].
const ELEMENT_METHODS: &[(&str, Kind)] = &[
    ("scrollIntoViewIfNeeded", Kind::Acts),
    ("boundingBox", Kind::Reads),
    ("evaluateExpression", Kind::RunsScript),
];

/// The methods the binding executes itself.
const OWN_METHODS: &[(&str, Op, Kind)] = &[
    ("frame.setInputFiles", Op::InputFiles, Kind::Acts),
    (
        "frame.waitForFunction",
        Op::FrameHandle("waitForFunction"),
        Kind::RunsScript,
    ),
    ("page.goto", Op::Goto, Kind::Navigates),
    ("page.url", Op::Url, Kind::Reads),
    ("page.expectScreenshot", Op::ExpectScreenshot, Kind::Reads),
    (
        "page.checkAccessibility",
        Op::CheckAccessibility,
        Kind::Reads,
    ),
    ("page.resolveUrl", Op::ResolveUrl, Kind::Bookkeeping),
    ("page.waitForEvent", Op::WaitStart, Kind::AwaitsEvent),
    ("page.listen", Op::Listen, Kind::Bookkeeping),
    ("page.unlisten", Op::Unlisten, Kind::Bookkeeping),
    ("context.pages", Op::ContextPages, Kind::Bookkeeping),
    ("request.fetch", Op::Fetch, Kind::Requests),
    ("waiter.finish", Op::WaitFinish, Kind::AwaitsEvent),
    ("waiter.done", Op::WaitDone, Kind::Bookkeeping),
    ("call.resume", Op::Resume, Kind::Bookkeeping),
    ("dialog.accept", Op::DialogAccept, Kind::Acts),
    ("dialog.dismiss", Op::DialogDismiss, Kind::Acts),
];

/// A target whose methods are passed through: its rows, and how each is executed.
struct Target {
    name: &'static str,
    rows: &'static [(&'static str, Kind)],
    op: fn(&'static str) -> Op,
}

const PASSED_THROUGH: [Target; 3] = [
    Target {
        name: "frame",
        rows: FRAME_METHODS,
        op: Op::Frame,
    },
    Target {
        name: "page",
        rows: PAGE_METHODS,
        op: Op::Page,
    },
    Target {
        name: "element",
        rows: ELEMENT_METHODS,
        op: Op::Element,
    },
];

impl Method {
    /// The row of a prelude method (`frame.click`), or `None` when step code may not make
    /// that call.
    pub(crate) fn of(method: &str) -> Option<Method> {
        if let Some(&(full, op, kind)) = OWN_METHODS.iter().find(|(name, ..)| *name == method) {
            return Some(Method {
                name: without_target(full),
                op,
                kind,
            });
        }
        let (target, name) = method.split_once('.')?;
        let target = PASSED_THROUGH.iter().find(|t| t.name == target)?;
        target
            .rows
            .iter()
            .find(|(known, _)| *known == name)
            .map(|&(name, kind)| Method {
                name,
                op: (target.op)(name),
                kind,
            })
    }

    /// Every row, with the prelude's name of its method (`frame.click`).
    pub(crate) fn all() -> impl Iterator<Item = (String, Method)> {
        let own = OWN_METHODS.iter().map(|&(full, op, kind)| {
            let name = without_target(full);
            (full.to_owned(), Method { name, op, kind })
        });
        let passed = PASSED_THROUGH.into_iter().flat_map(|target| {
            target.rows.iter().map(move |&(name, kind)| {
                let row = Method {
                    name,
                    op: (target.op)(name),
                    kind,
                };
                (format!("{}.{name}", target.name), row)
            })
        });
        own.chain(passed)
    }
}

/// `goto` for `page.goto`.
fn without_target(method: &'static str) -> &'static str {
    method.split_once('.').map_or(method, |(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(method: &str) -> Option<Op> {
        Method::of(method).map(|row| row.op)
    }

    #[test]
    fn methods_map_to_their_ops() {
        for (method, expected) in [
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
            assert_eq!(op(method), Some(expected), "{method}");
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
            .filter(|method| Method::of(method).is_some())
            .collect();
        assert!(available.is_empty(), "{available:?}");
    }

    #[test]
    fn no_method_is_listed_twice() {
        let mut all: Vec<String> = Method::all().map(|(name, _)| name).collect();
        let count = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), count);
    }

    #[test]
    fn a_row_names_its_method_without_the_target() {
        let goto = Method::of("page.goto").unwrap();
        assert_eq!((goto.name, goto.kind), ("goto", Kind::Navigates));
        let click = Method::of("frame.click").unwrap();
        assert_eq!((click.name, click.kind), ("click", Kind::Interacts));
    }

    #[test]
    fn only_bookkeeping_waits_and_reads_leave_the_app_as_it_is() {
        let reading: Vec<Kind> = Kind::ALL.into_iter().filter(|k| k.reads_only()).collect();
        assert_eq!(reading, [Kind::Bookkeeping, Kind::Waits, Kind::Reads]);
        let changing: Vec<Kind> = Kind::ALL
            .into_iter()
            .filter(|k| k.changes_the_page())
            .collect();
        assert_eq!(changing, [Kind::Acts, Kind::Interacts, Kind::Navigates]);
        let mut sorted = Kind::ALL;
        sorted.sort();
        assert_eq!(sorted, Kind::ALL, "ALL is in the order kinds compare");
    }
}
