//! The step-code API as step code names it (`locator.click`, `expect.toHaveText`), and the
//! browser calls of the binding's table (`methods.rs`) each of its methods makes. The prelude
//! maps one to the other; a test runs every method of the API through the prelude and fails
//! when a method's calls differ from its row here, or when a method has no row and makes a
//! call.
//!
//! A method's [`Kind`] is the strongest kind among its calls, so what the proof will not run
//! again (engine/proof.rs), what docs/step-api.md says each method does, and what a proof run
//! refuses all come from the one table in `methods.rs`.
//!
//! Main type: [`ApiMethod`]; the rows are [`API_METHODS`].

use crate::script::methods::{Kind, Method};

/// One method of the step-code API that makes browser calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ApiMethod {
    /// `object.method`, as docs/step-api.md lists it (`locator.click`).
    pub name: &'static str,
    /// Every call of the binding's table the method may make (`frame.click`).
    pub calls: &'static [&'static str],
}

const fn api(name: &'static str, calls: &'static [&'static str]) -> ApiMethod {
    ApiMethod { name, calls }
}

/// The API methods that make browser calls. Every other method of the API (locator factories,
/// value matchers, a response's fields, ...) makes none.
pub(crate) const API_METHODS: &[ApiMethod] = &[
    api("page.bringToFront", &["page.bringToFront"]),
    api("page.content", &["frame.content"]),
    api("page.evaluate", &["frame.evaluateExpression"]),
    api("page.goBack", &["page.goBack"]),
    api("page.goForward", &["page.goForward"]),
    api("page.goto", &["page.goto"]),
    api("page.off", &["page.unlisten"]),
    api("page.on", &["page.listen"]),
    api("page.once", &["page.listen"]),
    api("page.reload", &["page.reload"]),
    api("page.removeListener", &["page.unlisten"]),
    api("page.setViewportSize", &["page.setViewportSize"]),
    api("page.title", &["frame.title"]),
    api("page.url", &["page.url"]),
    api(
        "page.waitForEvent",
        &["page.waitForEvent", "waiter.finish", "waiter.done"],
    ),
    api("page.waitForFunction", &["frame.waitForFunction"]),
    api("page.waitForLoadState", &["frame.waitForFunction"]),
    api(
        "page.waitForPopup",
        &["page.waitForEvent", "waiter.finish", "waiter.done"],
    ),
    api(
        "page.waitForURL",
        &[
            "page.resolveUrl",
            "page.url",
            "frame.waitForTimeout",
            "frame.waitForFunction",
        ],
    ),
    api("locator.all", &["frame.queryCount"]),
    api("locator.allInnerTexts", &["frame.evalOnSelectorAll"]),
    api("locator.allTextContents", &["frame.evalOnSelectorAll"]),
    api("locator.ariaSnapshot", &["frame.ariaSnapshot"]),
    api("locator.blur", &["frame.blur"]),
    api("locator.boundingBox", &["element.boundingBox"]),
    api("locator.check", &["frame.check"]),
    api("locator.clear", &["frame.fill"]),
    api("locator.click", &["frame.click"]),
    api("locator.count", &["frame.queryCount"]),
    api("locator.dblclick", &["frame.dblclick"]),
    api("locator.dispatchEvent", &["frame.dispatchEvent"]),
    api("locator.dragTo", &["frame.dragAndDrop"]),
    api("locator.evaluate", &["element.evaluateExpression"]),
    api("locator.evaluateAll", &["frame.evalOnSelectorAll"]),
    api("locator.fill", &["frame.fill"]),
    api("locator.focus", &["frame.focus"]),
    api("locator.getAttribute", &["frame.getAttribute"]),
    api("locator.hover", &["frame.hover"]),
    api("locator.innerHTML", &["frame.innerHTML"]),
    api("locator.innerText", &["frame.innerText"]),
    api("locator.inputValue", &["frame.inputValue"]),
    api("locator.isChecked", &["frame.isChecked"]),
    api("locator.isDisabled", &["frame.isDisabled"]),
    api("locator.isEditable", &["frame.isEditable"]),
    api("locator.isEnabled", &["frame.isEnabled"]),
    api("locator.isHidden", &["frame.isHidden"]),
    api("locator.isVisible", &["frame.isVisible"]),
    api("locator.press", &["frame.press"]),
    api("locator.pressSequentially", &["frame.type"]),
    api(
        "locator.scrollIntoViewIfNeeded",
        &["element.scrollIntoViewIfNeeded"],
    ),
    api("locator.selectOption", &["frame.selectOption"]),
    api("locator.setChecked", &["frame.check", "frame.uncheck"]),
    api("locator.setInputFiles", &["frame.setInputFiles"]),
    api("locator.tap", &["frame.tap"]),
    api("locator.textContent", &["frame.textContent"]),
    api("locator.type", &["frame.type"]),
    api("locator.uncheck", &["frame.uncheck"]),
    api("locator.waitFor", &["frame.waitForSelector"]),
    api("keyboard.down", &["page.keyboardDown"]),
    api("keyboard.insertText", &["page.keyboardInsertText"]),
    api("keyboard.press", &["page.keyboardPress"]),
    api("keyboard.type", &["page.keyboardType"]),
    api("keyboard.up", &["page.keyboardUp"]),
    api("mouse.click", &["page.mouseClick"]),
    api("mouse.dblclick", &["page.mouseClick"]),
    api("mouse.down", &["page.mouseDown"]),
    api("mouse.move", &["page.mouseMove"]),
    api("mouse.up", &["page.mouseUp"]),
    api("mouse.wheel", &["page.mouseWheel"]),
    api("expect.toBeAttached", &["frame.expect"]),
    api("expect.toBeChecked", &["frame.expect"]),
    api("expect.toBeDisabled", &["frame.expect"]),
    api("expect.toBeEditable", &["frame.expect"]),
    api("expect.toBeEmpty", &["frame.expect"]),
    api("expect.toBeEnabled", &["frame.expect"]),
    api("expect.toBeFocused", &["frame.expect"]),
    api("expect.toBeHidden", &["frame.expect"]),
    api("expect.toBeInViewport", &["frame.expect"]),
    api("expect.toBeVisible", &["frame.expect"]),
    api("expect.toContainClass", &["frame.expect"]),
    api("expect.toContainText", &["frame.expect"]),
    api("expect.toHaveAccessibleDescription", &["frame.expect"]),
    api("expect.toHaveAccessibleErrorMessage", &["frame.expect"]),
    api("expect.toHaveAccessibleName", &["frame.expect"]),
    api("expect.toHaveAttribute", &["frame.expect"]),
    api("expect.toHaveCSS", &["frame.expect"]),
    api("expect.toHaveClass", &["frame.expect"]),
    api("expect.toHaveCount", &["frame.expect"]),
    api("expect.toHaveId", &["frame.expect"]),
    api("expect.toHaveJSProperty", &["frame.expect"]),
    api("expect.toHaveRole", &["frame.expect"]),
    api("expect.toHaveScreenshot", &["page.expectScreenshot"]),
    api(
        "expect.toHaveNoAccessibilityViolations",
        &["page.checkAccessibility"],
    ),
    api("expect.toHaveText", &["frame.expect"]),
    api("expect.toHaveTitle", &["frame.expect"]),
    api("expect.toHaveURL", &["page.resolveUrl", "frame.expect"]),
    api("expect.toHaveValue", &["frame.expect"]),
    api("expect.toHaveValues", &["frame.expect"]),
    api("expect.toMatchAriaSnapshot", &["frame.expect"]),
    // Between attempts of the block it retries, or of the function it polls.
    api("expect.toPass", &["frame.waitForTimeout"]),
    api("expect.poll", &["frame.waitForTimeout"]),
    api("dialog.accept", &["dialog.accept"]),
    api("dialog.dismiss", &["dialog.dismiss"]),
    api("browserContext.pages", &["context.pages"]),
    api("apiRequestContext.delete", &["request.fetch"]),
    api("apiRequestContext.fetch", &["request.fetch"]),
    api("apiRequestContext.get", &["request.fetch"]),
    api("apiRequestContext.head", &["request.fetch"]),
    api("apiRequestContext.patch", &["request.fetch"]),
    api("apiRequestContext.post", &["request.fetch"]),
    api("apiRequestContext.put", &["request.fetch"]),
];

impl ApiMethod {
    /// The method's name as code calls it on its object (`click` for `locator.click`).
    pub(crate) fn member(&self) -> &'static str {
        self.name
            .split_once('.')
            .map_or(self.name, |(_, member)| member)
    }

    /// The strongest kind among the method's calls (see [`Kind::ALL`]); `None` when a call is
    /// missing from the binding's table, which a test rules out.
    pub(crate) fn kind(&self) -> Option<Kind> {
        self.calls
            .iter()
            .map(|call| Method::of(call).map(|row| row.kind))
            .try_fold(Kind::Bookkeeping, |strongest, kind| {
                kind.map(|kind| strongest.max(kind))
            })
    }

    /// Whether a proof run refuses one of the method's calls (a request is refused by its HTTP
    /// method when it is sent, so it is not counted here).
    fn refused_in_proof(&self) -> bool {
        self.kind()
            .is_none_or(|kind| !kind.reads_only() && kind != Kind::Requests)
    }
}

/// Whether code that calls a method named `member` (`.click(...)`, on whatever object) makes a
/// call a proof run refuses. Names are matched without their object, as step code's source
/// shows them, so a name that acts on any object counts.
pub(crate) fn refused_in_proof(member: &str) -> bool {
    API_METHODS
        .iter()
        .any(|method| method.member() == member && method.refused_in_proof())
}

/// The API methods that wait until the page shows something and fail the step when it never
/// does: code that only waits still checks with them, so the proof and `prettyplay audit` treat
/// them as checks. `page.waitForLoadState` waits for the browser, not for anything a sentence
/// says, so it is none.
const WAITS_FOR_THE_PAGE: &[&str] = &["locator.waitFor", "page.waitForFunction"];

/// Whether code that calls a method named `member` (`.waitFor(...)`, on whatever object) waits
/// for the page as a check does ([`WAITS_FOR_THE_PAGE`]).
pub(crate) fn waits_for_the_page(member: &str) -> bool {
    WAITS_FOR_THE_PAGE
        .iter()
        .any(|name| name.split_once('.').is_some_and(|(_, m)| m == member))
}

/// Whether code that calls a method named `member` (`.fill(...)`, on whatever object) changes
/// the page ([`Kind::changes_the_page`]): the name of an API method that clicks, types, presses,
/// answers a dialog or navigates. Names are matched without their object, as in
/// [`refused_in_proof`].
pub(crate) fn changes_the_page(member: &str) -> bool {
    API_METHODS.iter().any(|method| {
        method.member() == member && method.kind().is_some_and(Kind::changes_the_page)
    })
}

/// The section of docs/step-api.md that says what each method does to the app: the API
/// methods of each kind, strongest first.
#[cfg(test)]
pub(crate) fn kinds_section() -> String {
    let mut section = String::from(
        "## What each method does to the app\n\n\
         Generated from the binding's table of calls (`src/script/methods.rs`), which the mutation\n\
         proof, `[optional]` steps and the evidence read too. A proof run makes only the calls that\n\
         read, wait or keep the binding's books (and a request only when it is a GET or HEAD): code\n\
         that calls anything else is cached with `proof = { none = { acts = \"<method>\" } }`. An\n\
         `[optional]` step waits for the target of its first call that interacts. A method that\n\
         makes several calls is of the strongest kind among them; the methods not listed make no\n\
         browser call.\n\n",
    );
    for kind in Kind::ALL.into_iter().rev() {
        let names: Vec<&str> = API_METHODS
            .iter()
            .filter(|method| method.kind() == Some(kind))
            .map(|method| method.name)
            .collect();
        if !names.is_empty() {
            section.push_str(&format!("- **{}**: {}\n", kind.name(), names.join(", ")));
        }
    }
    section
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_waits_that_check_are_methods_of_the_api() {
        for name in WAITS_FOR_THE_PAGE {
            let method = API_METHODS
                .iter()
                .find(|m| m.name == *name)
                .unwrap_or_else(|| panic!("{name} is no method of the API"));
            assert!(
                matches!(method.kind(), Some(Kind::Waits | Kind::RunsScript)),
                "{name}"
            );
        }
        assert!(waits_for_the_page("waitFor"));
        assert!(waits_for_the_page("waitForFunction"));
        assert!(!waits_for_the_page("waitForLoadState"));
        assert!(!waits_for_the_page("textContent"));
    }

    #[test]
    fn the_methods_that_change_the_page_come_from_the_table() {
        for member in [
            "click", "fill", "press", "goto", "reload", "check", "accept", "hover",
        ] {
            assert!(changes_the_page(member), "{member}");
        }
        for member in [
            "textContent",
            "waitFor",
            "waitForFunction",
            "evaluate",
            "get",
            "post",
            "toHaveText",
            "trim",
        ] {
            assert!(!changes_the_page(member), "{member}");
        }
    }

    #[test]
    fn every_call_is_in_the_binding_s_table() {
        for method in API_METHODS {
            for call in method.calls {
                assert!(Method::of(call).is_some(), "{}: {call}", method.name);
            }
        }
    }

    #[test]
    fn a_method_is_of_the_strongest_kind_among_its_calls() {
        let kind = |name: &str| {
            API_METHODS
                .iter()
                .find(|m| m.name == name)
                .and_then(ApiMethod::kind)
        };
        assert_eq!(kind("locator.click"), Some(Kind::Interacts));
        assert_eq!(kind("expect.toHaveURL"), Some(Kind::Reads));
        assert_eq!(kind("page.waitForURL"), Some(Kind::RunsScript));
        assert_eq!(kind("page.waitForEvent"), Some(Kind::AwaitsEvent));
        assert_eq!(kind("page.on"), Some(Kind::Bookkeeping));
        assert_eq!(kind("apiRequestContext.post"), Some(Kind::Requests));
    }

    #[test]
    fn what_a_proof_run_refuses_is_what_acts_runs_scripts_navigates_or_awaits_events() {
        for acting in [
            "click",
            "fill",
            "goto",
            "evaluate",
            "waitForFunction",
            "waitForEvent",
            "accept",
            "down",
            "scrollIntoViewIfNeeded",
            "setInputFiles",
            "allTextContents",
            "waitForURL",
        ] {
            assert!(refused_in_proof(acting), "{acting}");
        }
        for reading in [
            "textContent",
            "count",
            "toHaveText",
            "toHaveURL",
            "title",
            "url",
            "on",
            "waitFor",
            "post",
            "get",
            "getByRole",
            "first",
        ] {
            assert!(!refused_in_proof(reading), "{reading}");
        }
    }

    #[test]
    fn no_method_is_listed_twice() {
        let mut names: Vec<&str> = API_METHODS.iter().map(|m| m.name).collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count);
    }

    /// A host that answers every call plausibly and records the calls made after step code
    /// logs `@`, so a snippet's setup is left out.
    #[derive(Default)]
    struct Tracing {
        calls: std::cell::RefCell<Vec<String>>,
        marked: std::cell::Cell<bool>,
        urls: std::cell::Cell<u32>,
        event: std::cell::RefCell<String>,
    }

    impl crate::script::Host for Tracing {
        fn call(&self, _page: u32, method: &str, params: &str) -> String {
            if self.marked.get() {
                self.calls.borrow_mut().push(method.to_owned());
            }
            let params: serde_json::Value = serde_json::from_str(params).unwrap_or_default();
            let value = match method {
                "page.url" => {
                    self.urls.set(self.urls.get() + 1);
                    let path = if self.urls.get() == 1 { "start" } else { "x" };
                    json!(format!("http://127.0.0.1/{path}"))
                }
                "page.resolveUrl" => json!("http://127.0.0.1/x"),
                "context.pages" => json!([0]),
                "page.listen" => json!({ "listener": 1 }),
                "page.waitForEvent" => {
                    *self.event.borrow_mut() = params["event"].as_str().unwrap_or("").to_owned();
                    json!({ "waiter": 1 })
                }
                "waiter.finish" => match self.event.borrow().as_str() {
                    "popup" => json!({ "page": 1 }),
                    "download" => json!({ "url": "http://127.0.0.1/f", "suggestedFilename": "f" }),
                    _ => {
                        json!({ "page": 0, "id": 1, "type": "alert", "message": "m", "defaultValue": "" })
                    }
                },
                "request.fetch" => json!({
                    "status": 200, "statusText": "OK", "url": "http://127.0.0.1/x",
                    "headers": [], "text": "{}", "length": 2
                }),
                "page.goto" | "page.reload" | "page.goBack" | "page.goForward" => {
                    json!({ "status": 200, "url": "http://127.0.0.1/x" })
                }
                "frame.queryCount" => json!({ "value": 1 }),
                "frame.ariaSnapshot" => json!({ "snapshot": "" }),
                "frame.selectOption" => json!({ "values": [] }),
                "frame.evaluateExpression"
                | "element.evaluateExpression"
                | "frame.evalOnSelectorAll"
                | "frame.waitForFunction" => json!({ "value": { "v": "undefined" } }),
                _ => json!({}),
            };
            json!({ "value": value }).to_string()
        }

        fn push_log(&self, _level: &str, message: &str) {
            if message == "@" {
                self.marked.set(true);
            }
        }

        fn host_time(&self) -> std::time::Duration {
            std::time::Duration::ZERO
        }

        fn end_step(&self) -> Result<(), crate::script::StepFailure> {
            Ok(())
        }
    }

    /// The objects of the API listing, with code that makes one (`$`).
    const RECEIVERS: &[(&str, &str)] = &[
        ("page", "page"),
        ("locator", "page.locator('#a')"),
        ("frameLocator", "page.frameLocator('#f')"),
        ("keyboard", "page.keyboard"),
        ("mouse", "page.mouse"),
        ("dialog", "await page.waitForEvent('dialog')"),
        ("download", "await page.waitForEvent('download')"),
        ("browserContext", "page.context()"),
        ("response", "await page.goto('/x')"),
        ("apiRequestContext", "request"),
        ("apiResponse", "await request.get('/x')"),
        ("jsHandle", "await page.waitForFunction(() => 1)"),
    ];

    /// An argument for a parameter the listing names.
    fn argument(parameter: &str) -> &'static str {
        match parameter {
            "selector" | "selectorOrLocator" => "'#b'",
            "locator" | "target" => "page.locator('#b')",
            "url" | "urlOrRequest" => "'/x'",
            "key" => "'Enter'",
            "role" => "'button'",
            "index" | "x" | "y" | "deltaX" | "deltaY" | "count" | "precision" => "1",
            "pageFunction" | "fn" => "() => 1",
            "handler" => "() => {}",
            "event" => "'dialog'",
            "state" => "'load'",
            "viewportSize" => "{ width: 10, height: 10 }",
            "files" => "'f.txt'",
            "checked" => "true",
            "type" => "'click'",
            "constructor" => "Number",
            "options" | "optionsOrPredicate" | "eventInit" => "{}",
            "arg" => "undefined",
            _ => "'x'",
        }
    }

    /// Snippets for the methods whose call the listing's parameters do not make (`$` is the
    /// receiver): a listener to remove, a block to retry, both states of `setChecked`.
    const SNIPPETS: &[(&str, &str, &str)] = &[
        (
            "page.off",
            "const h = () => {}; page.on('dialog', h)",
            "page.off('dialog', h)",
        ),
        (
            "page.removeListener",
            "const h = () => {}; page.on('dialog', h)",
            "page.removeListener('dialog', h)",
        ),
        ("page.waitForURL", "", "await page.waitForURL('/x')"),
        (
            "locator.setChecked",
            "const $ = page.locator('#a')",
            "await $.setChecked(true)",
        ),
        (
            "locator.setChecked",
            "const $ = page.locator('#a')",
            "await $.setChecked(false)",
        ),
        (
            "expect.toPass",
            "let n = 0",
            "await expect(() => { if (n++ < 1) throw new Error('once'); }).toPass()",
        ),
        (
            "expect.toHaveTitle",
            "",
            "await expect(page).toHaveTitle('t')",
        ),
        ("expect.toHaveURL", "", "await expect(page).toHaveURL('/x')"),
        (
            "expect.toBeOK",
            "const $ = await request.get('/x')",
            "await expect($).toBeOK()",
        ),
        (
            "expect.poll",
            "let n = 0",
            "await expect.poll(() => n++).toBe(1)",
        ),
        ("expect.any", "", "expect.any(Number)"),
        (
            "expect.toHaveValues",
            "",
            "await expect(page.locator('#a')).toHaveValues(['x'])",
        ),
    ];

    /// The calls `setup` then `code` make, past the setup.
    fn calls_of(setup: &str, code: &str) -> (Vec<String>, Option<String>) {
        let host = std::rc::Rc::new(Tracing::default());
        let step = format!(
            "async function step(page) {{ {setup}; console.log('@'); try {{ {code}; }} catch (e) \
             {{ if (String(e).includes('not a function')) throw e; }} }}"
        );
        let sandbox = crate::script::Sandbox::new(crate::script::Limits::new(
            std::time::Duration::from_secs(5),
        ))
        .unwrap();
        let failure = sandbox.run_step(&step, &host).err().map(|f| f.message);
        let calls = host.calls.borrow().clone();
        (calls, failure)
    }

    #[test]
    fn every_api_method_makes_the_calls_its_row_lists() {
        let listing = crate::script::api_listing().unwrap();
        let mut missing = Vec::new();
        let mut wrong = Vec::new();
        let mut seen: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
        for line in listing.lines().filter(|l| !l.contains("(refused")) {
            let Some((object, rest)) = line.split_once('.') else {
                continue;
            };
            let member: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            let name = format!("{object}.{member}");
            let getter = !rest[member.len()..].starts_with('(');
            let parameters = rest[member.len()..]
                .strip_prefix('(')
                .and_then(|r| r.split_once(')'))
                .map_or("", |(p, _)| p);
            let receiver = if object == "expect" {
                let web = API_METHODS.iter().any(|m| m.name == name);
                Some(if web {
                    "expect(page.locator('#a'))"
                } else {
                    "expect('x')"
                })
            } else {
                RECEIVERS
                    .iter()
                    .find(|(o, _)| *o == object)
                    .map(|(_, r)| *r)
            };
            let Some(receiver) = receiver else {
                // `vars.NAME` and the hand-written lines of `expect`'s functions.
                continue;
            };
            let listed = API_METHODS.iter().find(|m| m.name == name);
            let snippets: Vec<(String, String)> = match SNIPPETS.iter().filter(|s| s.0 == name) {
                own if SNIPPETS.iter().any(|s| s.0 == name) => {
                    own.map(|s| (s.1.to_owned(), s.2.to_owned())).collect()
                }
                _ if getter => vec![(format!("const $ = {receiver}"), format!("$.{member}"))],
                _ => {
                    let args: Vec<&str> = parameters
                        .split(',')
                        .map(str::trim)
                        .filter(|p| !p.is_empty())
                        .map(argument)
                        .collect();
                    vec![(
                        format!("const $ = {receiver}"),
                        format!("await $.{member}({})", args.join(", ")),
                    )]
                }
            };
            for (setup, code) in snippets {
                let (calls, failure) = calls_of(&setup, &code);
                if let Some(failure) = failure {
                    missing.push(format!("{name}: `{code}` failed: {failure}"));
                }
                let allowed = listed.map_or(&[][..], |m| m.calls);
                if let Some(extra) = calls.iter().find(|c| !allowed.contains(&c.as_str())) {
                    wrong.push(format!(
                        "{name}: `{code}` calls {extra}, its row lists {allowed:?}"
                    ));
                }
                seen.entry(listed.map_or("", |m| m.name))
                    .or_default()
                    .extend(calls);
            }
        }
        for method in API_METHODS {
            let made = seen.get(method.name).cloned().unwrap_or_default();
            for call in method.calls {
                if !made.iter().any(|c| c == call) {
                    wrong.push(format!("{}: no snippet made {call}", method.name));
                }
            }
        }
        assert!(
            missing.is_empty() && wrong.is_empty(),
            "{missing:#?}\n{wrong:#?}"
        );
    }
}
