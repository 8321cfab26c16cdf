//! The Rust half of the Playwright binding: the table of browser calls step code may make, and
//! their execution on the test's pages.
//!
//! Main type: [`StepHost`]. The JS prelude builds Playwright protocol parameters exactly as
//! Playwright's own client does; each call arrives here as `(page id, method, JSON params)`,
//! is checked against [`METHODS`], runs on the tokio runtime (blocking this test's thread, so
//! `await` in step code just works) and answers `{"value": ...}` or `{"error": ...}`, plus any
//! events for the step's listeners. While a call runs, dialogs, popups and downloads are routed
//! (see `events.rs`).

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::time::{Duration, Instant};

use playwright_rs::protocol::Frame;
use playwright_rs::server::channel_owner::ChannelOwner;
use playwright_rs::server::connection::ConnectionLike;
use playwright_rs::{GotoOptions, WaitUntil};
use serde_json::{Value, json};
use tokio::task::JoinHandle;

use crate::driver::TestPage;
use crate::script::FailureKind;
use crate::script::driver_error::{HostError, received};
use crate::script::events::{EventKind, Routing};
use crate::script::input_files::input_files;
use crate::script::page_slot::PageSlot;

/// How a table entry is executed.
#[derive(Debug, Clone, Copy)]
enum Op {
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

/// Every browser call step code can make. Adding a Playwright method to the binding is one
/// line here plus its JS shape in `prelude.js`.
const METHODS: &[(&str, Op)] = &[
    ("frame.click", Op::Frame("click")),
    ("frame.dblclick", Op::Frame("dblclick")),
    ("frame.tap", Op::Frame("tap")),
    ("frame.fill", Op::Frame("fill")),
    ("frame.press", Op::Frame("press")),
    ("frame.type", Op::Frame("type")),
    ("frame.check", Op::Frame("check")),
    ("frame.uncheck", Op::Frame("uncheck")),
    ("frame.hover", Op::Frame("hover")),
    ("frame.focus", Op::Frame("focus")),
    ("frame.blur", Op::Frame("blur")),
    ("frame.selectOption", Op::Frame("selectOption")),
    ("frame.dragAndDrop", Op::Frame("dragAndDrop")),
    ("frame.dispatchEvent", Op::Frame("dispatchEvent")),
    ("frame.setInputFiles", Op::InputFiles),
    ("frame.waitForSelector", Op::Frame("waitForSelector")),
    ("frame.queryCount", Op::Frame("queryCount")),
    ("frame.textContent", Op::Frame("textContent")),
    ("frame.innerText", Op::Frame("innerText")),
    ("frame.innerHTML", Op::Frame("innerHTML")),
    ("frame.inputValue", Op::Frame("inputValue")),
    ("frame.getAttribute", Op::Frame("getAttribute")),
    ("frame.isVisible", Op::Frame("isVisible")),
    ("frame.isHidden", Op::Frame("isHidden")),
    ("frame.isEnabled", Op::Frame("isEnabled")),
    ("frame.isDisabled", Op::Frame("isDisabled")),
    ("frame.isEditable", Op::Frame("isEditable")),
    ("frame.isChecked", Op::Frame("isChecked")),
    ("frame.ariaSnapshot", Op::Frame("ariaSnapshot")),
    ("frame.evalOnSelectorAll", Op::Frame("evalOnSelectorAll")),
    ("frame.evaluateExpression", Op::Frame("evaluateExpression")),
    ("frame.waitForFunction", Op::FrameHandle("waitForFunction")),
    ("frame.waitForTimeout", Op::Frame("waitForTimeout")),
    ("frame.content", Op::Frame("content")),
    ("frame.title", Op::Frame("title")),
    ("frame.expect", Op::Frame("expect")),
    (
        "element.scrollIntoViewIfNeeded",
        Op::Element("scrollIntoViewIfNeeded"),
    ),
    ("element.boundingBox", Op::Element("boundingBox")),
    (
        "element.evaluateExpression",
        Op::Element("evaluateExpression"),
    ),
    ("page.goto", Op::Goto),
    ("page.reload", Op::Page("reload")),
    ("page.goBack", Op::Page("goBack")),
    ("page.goForward", Op::Page("goForward")),
    ("page.keyboardPress", Op::Page("keyboardPress")),
    ("page.keyboardType", Op::Page("keyboardType")),
    ("page.keyboardDown", Op::Page("keyboardDown")),
    ("page.keyboardUp", Op::Page("keyboardUp")),
    ("page.keyboardInsertText", Op::Page("keyboardInsertText")),
    ("page.mouseMove", Op::Page("mouseMove")),
    ("page.mouseDown", Op::Page("mouseDown")),
    ("page.mouseUp", Op::Page("mouseUp")),
    ("page.mouseClick", Op::Page("mouseClick")),
    ("page.mouseWheel", Op::Page("mouseWheel")),
    ("page.setViewportSize", Op::Page("setViewportSize")),
    ("page.bringToFront", Op::Page("bringToFront")),
    ("page.url", Op::Url),
    ("page.resolveUrl", Op::ResolveUrl),
    ("page.waitForEvent", Op::WaitStart),
    ("page.listen", Op::Listen),
    ("page.unlisten", Op::Unlisten),
    ("context.pages", Op::ContextPages),
    ("waiter.finish", Op::WaitFinish),
    ("waiter.done", Op::WaitDone),
    ("call.resume", Op::Resume),
    ("dialog.accept", Op::DialogAccept),
    ("dialog.dismiss", Op::DialogDismiss),
];

/// One test's connection from the sandbox to its browser pages.
pub struct StepHost {
    handle: tokio::runtime::Handle,
    test_page: TestPage,
    accept_dialogs: bool,
    /// The context's pages: index 0 is the test's own page, then popups and tabs in order.
    pages: RefCell<Vec<PageSlot>>,
    /// Dialogs, waiters and listeners of the current step.
    routing: RefCell<Routing>,
    /// Browser calls parked while step code's listeners run, by id.
    parked: RefCell<Vec<Option<JoinHandle<HostResult>>>>,
    /// Calls that returned early because the step claimed the dialog they opened; they finish
    /// once the step handles it.
    background: RefCell<Vec<JoinHandle<HostResult>>>,
    /// Time spent inside browser calls, so the sandbox's runaway-code clock can exclude it.
    host_time: Cell<Duration>,
    /// `console.*` output of the current step.
    log: RefCell<Vec<String>>,
}

type HostResult = Result<Value, HostError>;

/// How a call ended, as the prelude receives it.
enum Outcome {
    Done(HostResult),
    /// Parked (see [`StepHost::act`]): the prelude runs the delivered listeners, then resumes.
    Parked(usize),
}

impl StepHost {
    pub fn new(handle: tokio::runtime::Handle, test_page: TestPage) -> Self {
        let accept_dialogs = test_page.accept_dialogs();
        let first = PageSlot {
            page: test_page.page().clone(),
            frame: test_page.main_frame().clone(),
        };
        Self {
            handle,
            test_page,
            accept_dialogs,
            pages: RefCell::new(vec![first]),
            routing: RefCell::new(Routing::default()),
            parked: RefCell::new(Vec::new()),
            background: RefCell::new(Vec::new()),
            host_time: Cell::new(Duration::ZERO),
            log: RefCell::new(Vec::new()),
        }
    }

    pub fn page(&self) -> &TestPage {
        &self.test_page
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

    /// Ends a step: its waiters and listeners die with its JavaScript context, and every dialog
    /// nobody handled is resolved, so nothing is left hanging for the next step.
    pub fn end_step(&self) {
        let leftovers = self.routing.borrow_mut().end_step();
        for dialog in leftovers {
            self.test_page.events().requeue_dialog(dialog);
        }
        for job in self.parked.borrow_mut().drain(..).flatten() {
            self.background.borrow_mut().push(job);
        }
        self.run(async {});
        // Calls left running in the background end once their dialogs are resolved; their
        // outcome belongs to a step that is over.
        let jobs: Vec<_> = self.background.borrow_mut().drain(..).collect();
        for job in jobs {
            match self.run(async { tokio::time::timeout(Duration::from_secs(1), job).await }) {
                Ok(Ok(Err(err))) => {
                    tracing::debug!("a call the step left behind failed: {}", err.message)
                }
                Err(_) => tracing::debug!("a call the step left behind is still running"),
                _ => {}
            }
        }
    }

    /// Runs one call from the prelude and answers with the JSON the prelude expects.
    pub(crate) fn call(&self, page_id: u32, method: &str, params: &str) -> String {
        let started = Instant::now();
        let reply = self.dispatch(page_id, method, params);
        self.host_time.set(self.host_time.get() + started.elapsed());
        let events = self.routing.borrow_mut().take_deliveries();
        match reply {
            Outcome::Parked(id) => json!({ "parked": id, "events": events }).to_string(),
            Outcome::Done(Ok(value)) => json!({ "value": value, "events": events }).to_string(),
            Outcome::Done(Err(err)) => json!({
                "error": {
                    "kind": err.kind.as_str(),
                    "message": err.message,
                    "log": err.log,
                    "received": err.received,
                },
                "events": events,
            })
            .to_string(),
        }
    }

    /// Runs a browser future to completion on this thread while routing the context's events.
    pub(crate) fn run<T>(&self, work: impl Future<Output = T>) -> T {
        self.handle.block_on(async {
            let mut routing_budget = crate::script::events::DIALOG_DRAIN_PER_CALL;
            tokio::pin!(work);
            let out = loop {
                tokio::select! {
                    biased;
                    out = &mut work => break out,
                    () = tokio::time::sleep(crate::script::events::ROUTE_INTERVAL) => {
                        self.route(&mut routing_budget).await;
                    }
                }
            };
            self.route(&mut routing_budget).await;
            out
        })
    }

    /// Runs a browser action as a task of its own while routing events. When a dialog it opened
    /// goes to a `page.on` / `page.once` listener, the action is parked and the prelude runs the
    /// listener (whose calls run normally), then resumes it. When the step awaits the dialog
    /// with `page.waitForEvent('dialog')`, the action counts as done: the dialog blocks the page
    /// until the step handles it, and the rest of the action finishes in the background.
    fn act(&self, work: impl Future<Output = HostResult> + Send + 'static) -> Outcome {
        let job = self.handle.spawn(work);
        self.await_job(job)
    }

    fn await_job(&self, mut job: JoinHandle<HostResult>) -> Outcome {
        enum Step {
            Finished(HostResult),
            Park,
            Detach,
        }
        let step = self.handle.block_on(async {
            let mut budget = crate::script::events::DIALOG_DRAIN_PER_CALL;
            loop {
                tokio::select! {
                    biased;
                    joined = &mut job => {
                        // One last pass, so events of a short call reach listeners with its reply.
                        self.route(&mut budget).await;
                        return Step::Finished(joined.unwrap_or_else(|err| {
                            Err(HostError::crash(format!("a browser call failed: {err}")))
                        }));
                    }
                    () = tokio::time::sleep(crate::script::events::ROUTE_INTERVAL) => {
                        self.route(&mut budget).await;
                        let mut routing = self.routing.borrow_mut();
                        if routing.has_deliveries() {
                            return Step::Park;
                        }
                        if routing.take_waiter_dialog() {
                            return Step::Detach;
                        }
                    }
                }
            }
        });
        match step {
            Step::Finished(result) => Outcome::Done(result),
            Step::Park => {
                let mut parked = self.parked.borrow_mut();
                parked.push(Some(job));
                Outcome::Parked(parked.len() - 1)
            }
            Step::Detach => {
                self.background.borrow_mut().push(job);
                Outcome::Done(Ok(json!({})))
            }
        }
    }

    async fn route(&self, budget: &mut usize) {
        crate::script::events::route(
            self.test_page.events(),
            &self.pages,
            &self.routing,
            self.accept_dialogs,
            budget,
        )
        .await;
    }

    fn slot(&self, page_id: u32) -> Result<PageSlot, HostError> {
        self.pages
            .borrow()
            .get(page_id as usize)
            .cloned()
            .ok_or_else(|| HostError::script(format!("no page with id {page_id}")))
    }

    fn dispatch(&self, page_id: u32, method: &str, params: &str) -> Outcome {
        match self.dispatch_op(page_id, method, params) {
            Ok(outcome) => outcome,
            Err(err) => Outcome::Done(Err(err)),
        }
    }

    fn dispatch_op(&self, page_id: u32, method: &str, params: &str) -> Result<Outcome, HostError> {
        let op = METHODS
            .iter()
            .find(|(name, _)| *name == method)
            .map(|(_, op)| *op)
            .ok_or_else(|| HostError::script(format!("{method} is not available in step code")))?;
        let mut params: Value = serde_json::from_str(params)
            .map_err(|err| HostError::script(format!("{method}: bad parameters: {err}")))?;
        strip_nulls(&mut params);
        let slot = self.slot(page_id)?;
        match op {
            Op::Frame(name) => {
                let expect = name == "expect";
                let PageSlot { page, frame } = slot;
                let limit = overrun_limit(&params);
                Ok(self.act(async move {
                    let call = frame.channel().send::<Value, Value>(name, params.clone());
                    let Ok(reply) = tokio::time::timeout(limit, call).await else {
                        return Err(overran(&params, expect));
                    };
                    match reply {
                        Ok(v) => Ok(if v.is_null() { json!({}) } else { v }),
                        Err(err) => {
                            let mut err = HostError::from_playwright(err, expect);
                            if expect
                                && err.kind == FailureKind::FailedCheck
                                && err.received.is_none()
                            {
                                // The page may be blocked (an open dialog the step owns): the
                                // Received line is best effort, never a hang.
                                err.received = tokio::time::timeout(
                                    Duration::from_secs(3),
                                    received(&page, &frame, &params),
                                )
                                .await
                                .ok()
                                .flatten();
                            }
                            Err(err)
                        }
                    }
                }))
            }
            Op::Page(name) => {
                let page = slot.page;
                Ok(self.act(async move {
                    page.channel()
                        .send::<Value, Value>(name, params)
                        .await
                        .map(|_| Value::Null)
                        .map_err(|err| HostError::from_playwright(err, false))
                }))
            }
            Op::Element(name) => {
                let frame = slot.frame;
                Ok(self.act(async move { on_element(&frame, name, params).await }))
            }
            Op::FrameHandle(name) => {
                let frame = slot.frame;
                Ok(self.act(async move { handle_value(&frame, name, params).await }))
            }
            Op::InputFiles => {
                let files = params.as_object_mut().and_then(|p| p.remove("files"));
                let files = files.as_ref().and_then(Value::as_array);
                let resolved = input_files(
                    self.test_page.project_dir(),
                    files.map_or(&[][..], Vec::as_slice),
                )?;
                if let (Some(params), Value::Object(resolved)) = (params.as_object_mut(), resolved)
                {
                    params.extend(resolved);
                }
                let frame = slot.frame;
                Ok(self.act(async move {
                    frame
                        .channel()
                        .send::<Value, Value>("setInputFiles", params)
                        .await
                        .map(|_| json!({}))
                        .map_err(|err| HostError::from_playwright(err, false))
                }))
            }
            Op::Goto => {
                let url = params["url"].as_str().unwrap_or_default().to_owned();
                let url = resolve_url(self.test_page.base_url(), &url);
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
                let page = slot.page;
                Ok(self.act(async move {
                    let response = page
                        .goto(&url, options)
                        .await
                        .map_err(|err| HostError::from_playwright(err, false))?;
                    Ok(response.map_or(
                        Value::Null,
                        |r| json!({ "status": r.status(), "url": r.url() }),
                    ))
                }))
            }
            Op::Resume => {
                let id = params["id"].as_u64().unwrap_or(u64::MAX) as usize;
                let job = self
                    .parked
                    .borrow_mut()
                    .get_mut(id)
                    .and_then(Option::take)
                    .ok_or_else(|| HostError::script(format!("no parked call {id}")))?;
                Ok(self.await_job(job))
            }
            Op::Url => Ok(Outcome::Done(Ok(Value::String(slot.page.url())))),
            Op::ResolveUrl => {
                let url = params["url"].as_str().unwrap_or_default();
                Ok(Outcome::Done(Ok(Value::String(resolve_url(
                    self.test_page.base_url(),
                    url,
                )))))
            }
            Op::ContextPages => {
                self.run(async {});
                let pages = self.pages.borrow();
                Ok(Outcome::Done(Ok(json!(
                    (0..pages.len())
                        .filter(|&i| !pages[i].page.is_closed())
                        .collect::<Vec<_>>()
                ))))
            }
            Op::WaitStart => {
                let event = event_kind(&params)?;
                let id = self.routing.borrow_mut().add_waiter(page_id, event);
                Ok(Outcome::Done(Ok(json!({ "waiter": id }))))
            }
            Op::WaitFinish => {
                let id = params["waiter"].as_u64().unwrap_or(u64::MAX) as usize;
                let timeout = params["timeout"].as_f64().unwrap_or(0.0);
                // The whole wait's timeout, for the message (a predicate loop waits in parts).
                let total = params["total"].as_f64().unwrap_or(timeout);
                Ok(Outcome::Done(self.wait_for(id, timeout, total)))
            }
            Op::WaitDone => {
                let id = params["waiter"].as_u64().unwrap_or(u64::MAX) as usize;
                self.routing.borrow_mut().cancel_waiter(id);
                Ok(Outcome::Done(Ok(Value::Null)))
            }
            Op::Listen => {
                let event = event_kind(&params)?;
                let once = params["once"].as_bool().unwrap_or(false);
                let id = self.routing.borrow_mut().add_listener(page_id, event, once);
                // Events that already happened are not replayed, as in Playwright; route now
                // so that a dialog already open reaches this listener.
                self.run(async {});
                Ok(Outcome::Done(Ok(json!({ "listener": id }))))
            }
            Op::Unlisten => {
                let id = params["listener"].as_u64().unwrap_or(u64::MAX) as usize;
                self.routing.borrow_mut().remove_listener(id);
                Ok(Outcome::Done(Ok(Value::Null)))
            }
            Op::DialogAccept | Op::DialogDismiss => {
                let id = params["dialog"].as_u64().unwrap_or(u64::MAX) as usize;
                let dialog = self.routing.borrow_mut().take_dialog(id).ok_or_else(|| {
                    HostError::script("this dialog was already accepted or dismissed".to_owned())
                })?;
                let prompt = params["promptText"].as_str().map(str::to_owned);
                let result = if matches!(op, Op::DialogAccept) {
                    self.run(dialog.accept(prompt.as_deref()))
                } else {
                    self.run(dialog.dismiss())
                };
                Ok(Outcome::Done(
                    result
                        .map(|()| Value::Null)
                        .map_err(|err| HostError::from_playwright(err, false)),
                ))
            }
        }
    }

    /// The test's page as the LLM sees it: Playwright's AI-mode aria snapshot of the page step
    /// code last worked on (cut to `budget` characters with a marker) and, when asked, a PNG
    /// screenshot. Failures to capture are reported inside the snapshot text, never raised.
    pub fn page_state(&self, screenshot: bool, budget: usize) -> crate::engine::PageState {
        let slot = self.pages.borrow()[0].clone();
        let snapshot = self.run(async {
            slot.frame
                .channel()
                .send::<Value, Value>("ariaSnapshot", json!({ "mode": "ai", "timeout": 5000.0 }))
                .await
        });
        let snapshot = match snapshot {
            Ok(value) => value["snapshot"].as_str().unwrap_or_default().to_owned(),
            Err(err) => format!(
                "(no snapshot: {})",
                HostError::from_playwright(err, false).message
            ),
        };
        let screenshot = if screenshot {
            match self.run(slot.page.screenshot(None)) {
                Ok(bytes) => Some(bytes),
                Err(err) => {
                    tracing::warn!("could not take a screenshot for the LLM: {err}");
                    None
                }
            }
        } else {
            None
        };
        crate::engine::PageState {
            snapshot: truncate_snapshot(snapshot, budget),
            screenshot,
        }
    }

    /// A PNG screenshot of the test's page, for failure reports; `None` when it cannot be taken.
    pub fn screenshot(&self) -> Option<Vec<u8>> {
        let page = self.pages.borrow()[0].page.clone();
        self.run(async {
            tokio::time::timeout(Duration::from_secs(5), page.screenshot(None)).await
        })
        .ok()?
        .ok()
    }

    /// Blocks until waiter `id` got its event, or `timeout_ms` (0: no limit) passes.
    fn wait_for(&self, id: usize, timeout_ms: f64, total_ms: f64) -> Result<Value, HostError> {
        let deadline = (timeout_ms > 0.0)
            .then(|| Instant::now() + Duration::from_secs_f64(timeout_ms / 1000.0));
        let event = self
            .routing
            .borrow()
            .waiter_event(id)
            .ok_or_else(|| HostError::script(format!("no event waiter {id}")))?;
        self.run(async {
            loop {
                if let Some(result) = self.routing.borrow_mut().finish_waiter(id) {
                    return Ok(result);
                }
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    self.routing.borrow_mut().cancel_waiter(id);
                    return Err(HostError {
                        kind: FailureKind::Timeout,
                        message: format!(
                            "Timeout {total_ms}ms exceeded while waiting for event \"{}\"",
                            event.name()
                        ),
                        log: Vec::new(),
                        received: None,
                    });
                }
                tokio::time::sleep(crate::script::events::ROUTE_INTERVAL).await;
            }
        })
    }
}

/// How long a frame call may take before it counts as hung: its own `timeout` plus a grace
/// period (the driver's own timeout does not fire everywhere: an `expect` while a dialog blocks
/// the page never answers). Calls without a timeout get a day.
fn overrun_limit(params: &Value) -> Duration {
    match params["timeout"].as_f64() {
        Some(ms) if ms > 0.0 => Duration::from_secs_f64(ms / 1000.0) + OVERRUN_GRACE,
        _ => Duration::from_secs(24 * 60 * 60),
    }
}

/// The grace period a call gets past its own timeout (see [`overrun_limit`]).
const OVERRUN_GRACE: Duration = Duration::from_secs(5);

/// The error of a call that overran its timeout: as the driver would have reported it.
fn overran(params: &Value, expect: bool) -> HostError {
    let ms = params["timeout"].as_f64().unwrap_or_default();
    HostError {
        kind: if expect {
            FailureKind::FailedCheck
        } else {
            FailureKind::Timeout
        },
        message: format!("Timeout {ms}ms exceeded."),
        log: Vec::new(),
        received: None,
    }
}

/// Playwright's `Locator._withElement`: waits for the selector's element to be attached, calls
/// `method` on its handle with the time left, and disposes of the handle.
async fn on_element(frame: &Frame, method: &str, mut params: Value) -> HostResult {
    let started = Instant::now();
    let Some(fields) = params.as_object_mut() else {
        return Err(HostError::script(format!("{method}: bad parameters")));
    };
    let selector = fields.remove("selector").unwrap_or_default();
    let timeout = fields.get("timeout").and_then(Value::as_f64);
    let mut wait = json!({ "selector": selector, "strict": true, "state": "attached" });
    if let Some(timeout) = timeout {
        wait["timeout"] = json!(timeout);
        let left = timeout - started.elapsed().as_secs_f64() * 1000.0;
        if timeout > 0.0 {
            fields.insert("timeout".to_owned(), json!(left.max(1.0)));
        }
    }
    let found: Value = frame
        .channel()
        .send("waitForSelector", wait)
        .await
        .map_err(|err| HostError::from_playwright(err, false))?;
    let Some(guid) = found["element"]["guid"].as_str() else {
        return Err(HostError::script(format!(
            "could not resolve {selector} to a DOM element"
        )));
    };
    let connection = frame.connection();
    let result = connection.send_message(guid, method, params).await;
    dispose(connection.as_ref(), guid).await;
    result
        .map(|v| if v.is_null() { json!({}) } else { v })
        .map_err(|err| HostError::from_playwright(err, false))
}

/// Calls a frame method that answers a JS handle and answers the handle's value
/// (`{ "value": SerializedValue }`), disposing of the handle.
async fn handle_value(frame: &Frame, method: &str, params: Value) -> HostResult {
    let reply: Value = frame
        .channel()
        .send(method, params)
        .await
        .map_err(|err| HostError::from_playwright(err, false))?;
    let Some(guid) = reply["handle"]["guid"].as_str() else {
        return Ok(json!({}));
    };
    let connection = frame.connection();
    let value = connection.send_message(guid, "jsonValue", json!({})).await;
    dispose(connection.as_ref(), guid).await;
    value.map_err(|err| HostError::from_playwright(err, false))
}

async fn dispose(connection: &dyn ConnectionLike, guid: &str) {
    if let Err(err) = connection.send_message(guid, "dispose", json!({})).await {
        tracing::debug!("disposing of {guid}: {err}");
    }
}

fn event_kind(params: &Value) -> Result<EventKind, HostError> {
    let name = params["event"].as_str().unwrap_or_default();
    EventKind::from_name(name).ok_or_else(|| {
        HostError::script(format!(
            "page.waitForEvent/on: event {name:?} is not available in step code \
             (supported: \"dialog\", \"popup\", \"download\")"
        ))
    })
}

/// Cuts a snapshot to `budget` characters (on a line boundary when possible) with a marker
/// saying how much was left out.
fn truncate_snapshot(snapshot: String, budget: usize) -> String {
    let total = snapshot.chars().count();
    if total <= budget {
        return snapshot;
    }
    let mut cut: String = snapshot.chars().take(budget).collect();
    let ends_a_line = snapshot[cut.len()..].starts_with('\n');
    if !ends_a_line && let Some(newline) = cut.rfind('\n') {
        cut.truncate(newline);
    }
    let kept = cut.chars().count();
    format!(
        "{cut}\n[... snapshot truncated: {} of {total} characters left out ...]",
        total - kept
    )
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
    fn snapshots_are_cut_on_a_line_with_a_marker() {
        assert_eq!(truncate_snapshot("short".into(), 10), "short");
        let cut = truncate_snapshot("- a\n- b\n- c\n".into(), 7);
        assert_eq!(
            cut,
            "- a\n- b\n[... snapshot truncated: 5 of 12 characters left out ...]"
        );
    }

    #[test]
    fn nulls_are_removed_from_params() {
        let mut v = json!({"a": null, "b": {"c": null, "d": 1}, "e": [{"f": null}]});
        strip_nulls(&mut v);
        assert_eq!(v, json!({"b": {"d": 1}, "e": [{}]}));
    }
}
