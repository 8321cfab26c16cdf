//! The Rust half of the Playwright binding: the browser calls step code may make, executed on
//! the test's pages.
//!
//! Main type: [`StepHost`]. The JS prelude builds Playwright protocol parameters exactly as
//! Playwright's own client does; each call arrives here as `(page id, method, JSON params)`, is
//! checked against the table in `methods.rs`, has its parameters read into its op's struct
//! (`op_params.rs`) unless they pass through to the driver, runs on the tokio runtime (blocking
//! this test's thread, so `await` in step code just works) and answers `{"value": ...}` or
//! `{"error": ...}`, plus any events for the step's listeners. While a call runs, dialogs,
//! popups and downloads are routed (see `events.rs`).

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};
use tokio::task::JoinHandle;

use crate::driver::{OriginGuard, TestPage};
use crate::script::accessibility_settings::Accessibility;
use crate::script::call_reach::reach_of;
use crate::script::call_waits::{CallWaits, TimedCall};
use crate::script::console_log::ConsoleLog;
use crate::script::cut_text::cut_text;
use crate::script::driver_error::HostError;
use crate::script::events::Routing;
use crate::script::failure::RefusedCall;
use crate::script::frame_calls::{handle_value, on_element};
use crate::script::late_calls::LateCalls;
use crate::script::methods::{Kind, Method, Op};
use crate::script::mutation::{self, Mutation};
use crate::script::observe::{Call, Observation, ValueCheck, held_to_value, observe};
use crate::script::op_params::{self, event_kind, resolve_url, strip_nulls};
use crate::script::optional_target::OptionalTarget;
use crate::script::page_slot::PageSlot;
use crate::script::proof_mode::{self, ProofMode, Read};
use crate::script::proof_responses::ProofResponses;
use crate::script::snapshot_settings::Screenshots;
use crate::script::{FailureKind, Host, StepFailure};

/// The most bytes of one blocked request's log line (its URL may carry a whole page's text).
const MAX_BLOCKED_LINE_BYTES: usize = 2048;

/// How long a call that failed because something closed waits to learn whether the browser or
/// the driver went away.
const LOSS_GRACE: Duration = Duration::from_millis(500);

/// Whether a driver message says the page's renderer crashed.
fn is_renderer_crash(message: &str) -> bool {
    let lower = message.to_lowercase();
    lower.contains("target crashed") || lower.contains("page crashed")
}

/// A parked browser call, and whether a waiter took a dialog while it ran before it was parked.
type Parked = (JoinHandle<HostResult>, bool);

/// One test's connection from the sandbox to its browser pages.
pub(crate) struct StepHost {
    handle: tokio::runtime::Handle,
    pub(super) test_page: TestPage,
    accept_dialogs: bool,
    /// The context's pages: index 0 is the test's own page, then popups and tabs in order.
    pub(super) pages: RefCell<Vec<PageSlot>>,
    /// Dialogs, waiters and listeners of the current step.
    pub(super) routing: RefCell<Routing>,
    /// Browser calls parked while step code's listeners run, by id.
    parked: RefCell<Vec<Option<Parked>>>,
    /// Calls that returned early because the step claimed the dialog they opened; they finish
    /// once the step handles it.
    background: RefCell<Vec<JoinHandle<HostResult>>>,
    /// What the current proof's read requests answered, and the edit a mutated run applies.
    pub(super) responses: RefCell<ProofResponses>,
    /// Time spent inside browser calls, so the sandbox's runaway-code clock can exclude it.
    host_time: Cell<Duration>,
    /// Which calls the origin guard must hear return (see `late_calls.rs`).
    pub(super) late: LateCalls,
    /// `console.*` output of the test, bounded; taken step by step.
    log: RefCell<ConsoleLog>,
    /// How calls are treated (a proof run refuses acts), and the reads the current proof run
    /// made.
    pub(super) proof: Cell<ProofMode>,
    pub(super) reads: RefCell<Vec<Read>>,
    /// The last frame call of the current run that failed (set when its error comes back): the
    /// evidence a failure is judged by. Shared with the call's task, which may outlive a borrow.
    pub(super) failed_call: Arc<Mutex<Option<Call>>>,
    /// The value assertion that ended the last normal run, if one did: the evidence of a
    /// failure no browser call made.
    value_check: RefCell<Option<ValueCheck>>,
    /// The methods of the requests that write (not GET or HEAD) the current execution sent:
    /// the proof refuses a check whose code sent one, whether or not it ran again.
    pub(super) sent_writes: RefCell<Vec<String>>,
    /// Whether an `[optional]` step's first action waits for its target (`optional_target.rs`).
    pub(super) optional: OptionalTarget,
    /// The call of the current execution that came closest to its timeout.
    waits: CallWaits,
    /// The reads of the last normal run, which a heal's checks are compared by (`subject.rs`).
    pub(super) checks: RefCell<Vec<Read>>,
    /// The last plain read of elements (`textContent`, `count`, ...) of the current normal
    /// run: the subject of a value assertion that ends it.
    pub(super) last_read: RefCell<Option<Call>>,
    /// The selector of the failed check whose subject the last evidence marked in the page.
    pub(super) subject: RefCell<Option<String>>,
    /// The test's screenshot baselines, when the run compares screenshots.
    pub(super) screenshots: Option<Screenshots>,
    /// Where axe-core is and which of its rules the project accepts.
    pub(super) accessibility: Accessibility,
}

pub(super) type HostResult = Result<Value, HostError>;

/// How a call ended, as the prelude receives it.
pub(super) enum Outcome {
    Done(HostResult),
    /// Parked (see [`StepHost::act`]): the prelude runs the delivered listeners, then resumes.
    Parked(usize),
    /// A navigation `[browser] allowed_origins` forbids: a script error whose message (from
    /// the guard) the prelude shows as is, without the method's name before it.
    Blocked(String),
}

impl StepHost {
    pub(crate) fn new(handle: tokio::runtime::Handle, test_page: TestPage) -> Self {
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
            responses: RefCell::new(ProofResponses::default()),
            host_time: Cell::new(Duration::ZERO),
            late: LateCalls::default(),
            log: RefCell::new(ConsoleLog::default()),
            proof: Cell::new(ProofMode::Off),
            reads: RefCell::new(Vec::new()),
            failed_call: Arc::new(Mutex::new(None)),
            value_check: RefCell::new(None),
            sent_writes: RefCell::new(Vec::new()),
            optional: OptionalTarget::default(),
            waits: CallWaits::default(),
            checks: RefCell::new(Vec::new()),
            last_read: RefCell::new(None),
            subject: RefCell::new(None),
            screenshots: None,
            accessibility: Accessibility::default(),
        }
    }

    /// The host of a test whose accessibility checks use `accessibility`.
    pub(crate) fn with_accessibility(mut self, accessibility: Accessibility) -> Self {
        self.accessibility = accessibility;
        self
    }

    /// The host of a test whose `toHaveScreenshot` calls compare with `screenshots`.
    pub(crate) fn with_screenshots(mut self, screenshots: Screenshots) -> Self {
        self.screenshots = Some(screenshots);
        self
    }

    /// The test's screenshots, when the run compares them.
    pub(crate) fn screenshots(&self) -> Option<&Screenshots> {
        self.screenshots.as_ref()
    }

    /// Forgets how long the calls so far waited, before an execution whose calls are timed.
    pub(crate) fn reset_waits(&self) {
        self.waits.reset();
    }

    /// The call since [`reset_waits`](Self::reset_waits) that used the largest share of its
    /// timeout, if any call had one.
    pub(crate) fn tightest_call(&self) -> Option<TimedCall> {
        self.waits.tightest()
    }

    /// Arms the optional mode for the next execution (`Some(bound)`), or disarms it (see
    /// `optional_target.rs`).
    pub(crate) fn arm_optional(&self, bound: Option<Duration>) {
        self.optional.arm(bound);
    }

    /// Forgets the last call, before a run whose failure may be judged.
    pub(crate) fn forget_last_call(&self) {
        if let Ok(mut call) = self.failed_call.lock() {
            call.take();
        }
        self.value_check.borrow_mut().take();
        self.last_read.borrow_mut().take();
        self.sent_writes.borrow_mut().clear();
    }

    /// The method of the first request that writes which the executions since
    /// [`forget_last_call`](Self::forget_last_call) sent, if any.
    pub(crate) fn sent_write(&self) -> Option<String> {
        self.sent_writes.borrow().first().cloned()
    }

    /// The evidence about the last run's failure: its last call, read again now, and the
    /// test's page.
    pub(crate) fn observe_failure(&self) -> Observation {
        let slot = self.pages.borrow()[0].clone();
        let value_check = self.value_check.borrow().clone();
        let call = self.judged_call(value_check.is_some());
        let (page, frame) = (slot.page, slot.frame);
        // Evidence is best effort: a page that stops answering costs at most this long.
        let bounded = async {
            tokio::time::timeout(
                Duration::from_secs(6),
                observe(&page, &frame, call.as_ref()),
            )
            .await
        };
        let mut observation: Observation = self
            .run(bounded)
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        held_to_value(&mut observation, value_check.as_ref());
        *self.subject.borrow_mut() = observation
            .call
            .as_ref()
            .filter(|seen| seen.subject_marked)
            .and_then(|seen| seen.selector.clone());
        Observation {
            value_check,
            ..observation
        }
    }

    /// Sets how step code's calls are treated from now on (see [`ProofMode`]).
    pub(crate) fn set_proof_mode(&self, mode: ProofMode) {
        self.proof.set(mode);
    }

    /// A proof starts: its first run sends read requests and records their answers.
    pub(crate) fn begin_proof(&self) {
        self.responses.borrow_mut().start_recording();
    }

    /// The proof's next run starts: once a run recorded the answers, each run gets them again
    /// from the first one instead of sending the requests.
    pub(crate) fn replay_responses(&self) {
        self.responses.borrow_mut().start_replay();
    }

    /// The proof is over: requests are sent again.
    pub(crate) fn end_proof(&self) {
        self.responses.borrow_mut().stop_replay();
    }

    /// The reads recorded since the last call, in order.
    pub(crate) fn take_reads(&self) -> Vec<Read> {
        std::mem::take(&mut *self.reads.borrow_mut())
    }

    /// Applies a mutation to the test's own page; answers how many places it changed.
    pub(crate) fn mutate(&self, mutation: &Mutation) -> Result<u64, StepFailure> {
        if let Mutation::Response(edit) = mutation {
            return Ok(self.responses.borrow_mut().set(edit));
        }
        let frame = self.pages.borrow()[0].frame.clone();
        let result = self
            .run(async { mutation::apply(&frame, mutation).await })
            .and_then(|r| r);
        result.map_err(|err| StepFailure::new(err.kind, err.message))
    }

    /// How many changes of the test's own page made since the last restore the app has undone.
    pub(crate) fn undone_changes(&self) -> Result<u64, StepFailure> {
        let frame = self.pages.borrow()[0].frame.clone();
        let result = self
            .run(async { mutation::undone(&frame).await })
            .and_then(|r| r);
        result.map_err(|err| StepFailure::new(err.kind, err.message))
    }

    /// Whether `text` is anywhere in the test's own page (markup, values, title, URL).
    pub(crate) fn page_holds(&self, text: &str) -> Result<bool, StepFailure> {
        let frame = self.pages.borrow()[0].frame.clone();
        let result = self
            .run(async { mutation::shows(&frame, text).await })
            .and_then(|r| r);
        result.map_err(|err| StepFailure::new(err.kind, err.message))
    }

    /// Undoes every mutation of the test's own page; answers how many changes it undid.
    pub(crate) fn restore_page(&self) -> Result<u64, StepFailure> {
        let edited = self.responses.borrow_mut().restore();
        let frame = self.pages.borrow()[0].frame.clone();
        let result = self
            .run(async { mutation::restore(&frame).await })
            .and_then(|r| r);
        result
            .map(|undone| undone + edited)
            .map_err(|err| StepFailure::new(err.kind, err.message))
    }

    pub(crate) fn host_time(&self) -> Duration {
        self.host_time.get()
    }

    /// Records a `console.*` line, within the test's limits (see [`ConsoleLog`]).
    pub(crate) fn push_log(&self, level: &str, message: &str) {
        let mut log = self.log.borrow_mut();
        if let Some(line) = log.push(format!("console.{level}: {message}")) {
            tracing::info!(target: "prettyplay::step", "{line}");
        }
    }

    /// Takes the `console.*` lines logged since the last call (and one line counting those cut),
    /// then the requests `[browser] allowed_origins` blocked since then, each URL once.
    pub(crate) fn take_log(&self) -> Vec<String> {
        let mut lines = self.log.borrow_mut().take();
        if let Some(guard) = self.test_page.origins() {
            lines.extend(
                guard
                    .take_log()
                    .into_iter()
                    .map(|line| cut_text(line, MAX_BLOCKED_LINE_BYTES)),
            );
        }
        lines
    }

    /// The test's `[browser] allowed_origins` guard; `None` when every origin is allowed.
    pub(crate) fn origins(&self) -> Option<&OriginGuard> {
        self.test_page.origins()
    }

    /// The failure message of the first request, socket or connection the guard blocked since
    /// the last call.
    fn take_blocked(&self) -> Option<String> {
        self.test_page.origins()?.take_blocked()
    }

    /// Ends a step: its waiters and listeners die with its JavaScript context, and every dialog
    /// nobody handled is resolved, so nothing is left hanging for the next step. Anything the
    /// guard blocked after the step's last call fails the step.
    pub(crate) fn end_step(&self) -> Result<(), StepFailure> {
        let leftovers = self.routing.borrow_mut().end_step();
        for dialog in leftovers {
            self.test_page.events().requeue_dialog(dialog);
        }
        for (job, _) in self.parked.borrow_mut().drain(..).flatten() {
            self.background.borrow_mut().push(job);
        }
        let _ = self.run(async {});
        // Calls left running in the background end once their dialogs are resolved; their
        // outcome belongs to a step that is over.
        let jobs: Vec<_> = self.background.borrow_mut().drain(..).collect();
        for job in jobs {
            match self.run(async { tokio::time::timeout(Duration::from_secs(1), job).await }) {
                Ok(Ok(Ok(Err(err)))) => {
                    tracing::debug!("a call the step left behind failed: {}", err.message)
                }
                Ok(Err(_)) => tracing::debug!("a call the step left behind is still running"),
                Err(err) => tracing::debug!("a call the step left behind: {}", err.message),
                _ => {}
            }
        }
        match self.take_blocked() {
            Some(message) => Err(StepFailure::new(FailureKind::Blocked, message)),
            None => Ok(()),
        }
    }

    /// Runs one call from the prelude and answers with the JSON the prelude expects.
    pub(crate) fn call(&self, page_id: u32, method: &str, params: &str) -> String {
        let started = Instant::now();
        let mut reply = self.dispatch(page_id, method, params);
        self.host_time.set(self.host_time.get() + started.elapsed());
        let parked = match reply {
            Outcome::Parked(id) => Some(id),
            Outcome::Done(_) | Outcome::Blocked(_) => None,
        };
        self.late.returned(parked, self.test_page.origins());
        // A parked call has not ended yet: its wait is not known.
        if !matches!(reply, Outcome::Parked(_))
            && let Some(timed) = TimedCall::of(method, params, started.elapsed())
        {
            self.waits.record(timed);
        }
        // Anything the guard blocked while the call ran (a navigation by a link or a redirect, a
        // popup, a request or a socket the page opened) fails the call, whatever the call
        // itself answered.
        if !matches!(reply, Outcome::Parked(_))
            && let Some(message) = self.take_blocked()
        {
            reply = Outcome::Blocked(message);
        }
        let events = self.routing.borrow_mut().take_deliveries();
        match reply {
            Outcome::Parked(id) => json!({ "parked": id, "events": events }).to_string(),
            Outcome::Done(Ok(value)) => json!({ "value": value, "events": events }).to_string(),
            Outcome::Blocked(message) => json!({
                "error": { "kind": FailureKind::Blocked.as_str(), "message": message, "bare": true },
                "events": events,
            })
            .to_string(),
            Outcome::Done(Err(err)) => json!({
                "error": {
                    "kind": err.kind.as_str(),
                    // These messages start with their own label (APP UNREACHABLE, ...), which
                    // reads better than the method's name.
                    "bare": matches!(
                        err.kind,
                        FailureKind::Unreachable | FailureKind::Misconfigured | FailureKind::Absent
                    ),
                    "message": err.message,
                    "log": err.log,
                    "received": err.received,
                    "refused": err.kind.refused_call().map(RefusedCall::to_wire),
                },
                "events": events,
            })
            .to_string(),
        }
    }

    /// Runs a browser future to completion on this thread while routing the context's events;
    /// a driver or browser that goes away ends the wait (an `Err` saying so).
    pub(crate) fn run<T>(&self, work: impl Future<Output = T>) -> Result<T, HostError> {
        let page = &self.test_page;
        self.handle.block_on(async {
            let mut routing_budget = crate::script::events::DIALOG_DRAIN_PER_CALL;
            tokio::pin!(work);
            let out = loop {
                tokio::select! {
                    biased;
                    out = &mut work => break out,
                    reason = page.until_lost() => return Err(HostError::crash(reason)),
                    () = tokio::time::sleep(crate::script::events::ROUTE_INTERVAL) => {
                        self.route(&mut routing_budget).await;
                    }
                }
            };
            self.route(&mut routing_budget).await;
            Ok(out)
        })
    }

    /// Runs a browser action as a task of its own while routing events. When a dialog it opened
    /// goes to a `page.on` / `page.once` listener, the action is parked and the prelude runs the
    /// listener (whose calls run normally), then resumes it. When the step awaits the dialog
    /// with `page.waitForEvent('dialog')`, the action counts as done: the dialog blocks the page
    /// until the step handles it, and the rest of the action finishes in the background.
    ///
    /// Only a dialog a waiter takes while this call runs detaches it: one taken during an
    /// earlier call (which then finished on its own) must not cut a later call short.
    pub(super) fn act(&self, work: impl Future<Output = HostResult> + Send + 'static) -> Outcome {
        self.routing.borrow_mut().take_waiter_dialog();
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
                        let result = joined.unwrap_or_else(|err| {
                            Err(HostError::crash(format!("a browser call failed: {err}")))
                        });
                        return Step::Finished(match result {
                            Err(err) => Err(self.what_went_away(err).await),
                            ok => ok,
                        });
                    }
                    reason = self.test_page.until_lost() => {
                        job.abort();
                        return Step::Finished(Err(HostError::crash(reason)));
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
                // Kept with the call, so the listener's own calls are not detached by it.
                let took_dialog = self.routing.borrow_mut().take_waiter_dialog();
                let mut parked = self.parked.borrow_mut();
                parked.push(Some((job, took_dialog)));
                Outcome::Parked(parked.len() - 1)
            }
            Step::Detach => {
                self.background.borrow_mut().push(job);
                Outcome::Done(Ok(json!({})))
            }
        }
    }

    /// Tells apart what a failure that says something closed means. A renderer crash of the
    /// test's pages is the page's (`PageCrash`); a gone driver or browser is a crash (the
    /// disconnect may be told a moment after the call failed, so it is awaited briefly); else
    /// a page or frame detached while the browser lives (`Detached`, which the settle window
    /// may poll), unless the test's context was closed on purpose (its deadline).
    async fn what_went_away(&self, mut err: HostError) -> HostError {
        let page = &self.test_page;
        if page.events().page_crashed() || is_renderer_crash(&err.message) {
            err.kind = FailureKind::PageCrash;
            err.message = format!(
                "the page's renderer process exited while the step ran\n\n{}",
                err.message
            );
            err.received = None;
            return err;
        }
        if err.kind != FailureKind::Crash {
            return err;
        }
        if let Ok(reason) = tokio::time::timeout(LOSS_GRACE, page.until_lost()).await {
            err.message = format!("{reason}: {}", err.message);
            return err;
        }
        if !page.is_closing() {
            err.kind = FailureKind::Detached;
        }
        err
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
        let row = Method::of(method)
            .ok_or_else(|| HostError::script(format!("{method} is not available in step code")))?;
        let op = row.op;
        let mut params: Value = serde_json::from_str(params)
            .map_err(|err| HostError::script(format!("{method}: bad parameters: {err}")))?;
        strip_nulls(&mut params);
        // The guard hears of every call before it is sent: what it does to the pages decides
        // whose the requests that follow are.
        if let Some(guard) = self.test_page.origins() {
            self.late
                .called(guard.step_call(reach_of(row, &params), &mut params));
        }
        // A request decides in the proof itself whether it reads (GET) or acts (POST).
        if op == Op::Fetch {
            return Ok(Outcome::Done(self.fetch(page_id, &params)));
        }
        let mode = self.proof.get();
        if mode == ProofMode::Off && row.kind == Kind::Reads && proof_mode::is_recorded(op) {
            self.checks
                .borrow_mut()
                .push(Read::of(page_id, method, &params));
            self.heard_read(page_id, method, op, &params);
        }
        if mode != ProofMode::Off {
            if !row.kind.reads_only() && !proof_mode::reads_in_page(row.kind, &params) {
                return Err(proof_mode::refusal(RefusedCall::Page(row.name)));
            }
            if proof_mode::is_recorded(op) || row.kind == Kind::RunsScript {
                self.reads
                    .borrow_mut()
                    .push(Read::of(page_id, method, &params));
            } else if proof_mode::checks_the_whole_page(op) {
                // The check reads the page, but no element or text the read could name stands
                // for what it checks: its read names none, so no mutation claims to contradict it.
                self.reads
                    .borrow_mut()
                    .push(Read::of(page_id, method, &Value::Null));
            }
            if mode == ProofMode::Mutated {
                proof_mode::clamp_timeout(op, &mut params);
            }
        }
        let slot = self.slot(page_id)?;
        match op {
            Op::Frame(name) => Ok(self.frame_call(page_id, name, row, params, slot, mode)),
            Op::Page(name @ ("reload" | "goBack" | "goForward")) => {
                self.history(method, name, &params, slot)
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
            Op::InputFiles => self.set_input_files(params, slot),
            Op::ExpectScreenshot => Ok(self.expect_screenshot(params, slot)),
            Op::CheckAccessibility => Ok(self.check_accessibility(params, slot)),
            Op::Goto => self.goto(method, &params, slot),
            Op::Resume => {
                let op_params::Resume { id } = op_params::parse(method, &params)?;
                self.late.resumed(id);
                self.resume(id)
            }
            Op::Url => Ok(Outcome::Done(Ok(Value::String(slot.page.url())))),
            Op::Fetch => Ok(Outcome::Done(self.fetch(page_id, &params))),
            Op::ResolveUrl => {
                let op_params::ResolveUrl { url } = op_params::parse(method, &params)?;
                Ok(Outcome::Done(Ok(Value::String(resolve_url(
                    self.test_page.base_url(),
                    &url,
                )))))
            }
            Op::ContextPages => {
                self.run(async {})?;
                let pages = self.pages.borrow();
                Ok(Outcome::Done(Ok(json!(
                    (0..pages.len())
                        .filter(|&i| !pages[i].page.is_closed())
                        .collect::<Vec<_>>()
                ))))
            }
            Op::WaitStart => {
                let op_params::WaitStart { event } = op_params::parse(method, &params)?;
                let id = self
                    .routing
                    .borrow_mut()
                    .add_waiter(page_id, event_kind(&event)?);
                Ok(Outcome::Done(Ok(json!({ "waiter": id }))))
            }
            Op::WaitFinish => {
                let finish: op_params::WaitFinish = op_params::parse(method, &params)?;
                let total = finish.total.unwrap_or(finish.timeout);
                Ok(Outcome::Done(self.wait_for(
                    finish.waiter,
                    finish.timeout,
                    total,
                )))
            }
            Op::WaitDone => {
                let op_params::WaitDone { waiter } = op_params::parse(method, &params)?;
                self.routing.borrow_mut().cancel_waiter(waiter);
                Ok(Outcome::Done(Ok(Value::Null)))
            }
            Op::Listen => {
                let op_params::Listen { event, once } = op_params::parse(method, &params)?;
                let event = event_kind(&event)?;
                let id = self.routing.borrow_mut().add_listener(page_id, event, once);
                // Events that already happened are not replayed, as in Playwright; route now
                // so that a dialog already open reaches this listener.
                self.run(async {})?;
                Ok(Outcome::Done(Ok(json!({ "listener": id }))))
            }
            Op::Unlisten => {
                let op_params::Unlisten { listener } = op_params::parse(method, &params)?;
                self.routing.borrow_mut().remove_listener(listener);
                Ok(Outcome::Done(Ok(Value::Null)))
            }
            Op::DialogAccept | Op::DialogDismiss => {
                let dialog: op_params::Dialog = op_params::parse(method, &params)?;
                self.answer_dialog(dialog, op == Op::DialogAccept)
            }
        }
    }

    /// Continues the parked call `id`, once step code's listeners ran.
    fn resume(&self, id: usize) -> Result<Outcome, HostError> {
        let (job, took_dialog) = self
            .parked
            .borrow_mut()
            .get_mut(id)
            .and_then(Option::take)
            .ok_or_else(|| HostError::script(format!("no parked call {id}")))?;
        let mut routing = self.routing.borrow_mut();
        routing.take_waiter_dialog();
        if took_dialog {
            routing.note_waiter_dialog();
        }
        drop(routing);
        Ok(self.await_job(job))
    }

    /// Accepts (with its prompt text) or dismisses a dialog the step owns.
    fn answer_dialog(&self, dialog: op_params::Dialog, accept: bool) -> Result<Outcome, HostError> {
        let op_params::Dialog {
            dialog: id,
            prompt_text,
        } = dialog;
        let dialog = self.routing.borrow_mut().take_dialog(id).ok_or_else(|| {
            HostError::script("this dialog was already accepted or dismissed".to_owned())
        })?;
        let result = if accept {
            self.run(dialog.accept(prompt_text.as_deref()))?
        } else {
            self.run(dialog.dismiss())?
        };
        Ok(Outcome::Done(
            result
                .map(|()| Value::Null)
                .map_err(|err| HostError::from_playwright(err, false)),
        ))
    }

    /// A PNG screenshot of the test's page, for failure reports; `None` when it cannot be taken.
    pub(crate) fn screenshot(&self) -> Option<Vec<u8>> {
        let page = self.pages.borrow()[0].page.clone();
        self.run(async {
            tokio::time::timeout(Duration::from_secs(5), page.screenshot(None)).await
        })
        .ok()?
        .ok()?
        .ok()
    }
}

impl Host for StepHost {
    fn call(&self, page_id: u32, method: &str, params: &str) -> String {
        StepHost::call(self, page_id, method, params)
    }

    fn push_log(&self, level: &str, message: &str) {
        StepHost::push_log(self, level, message);
    }

    fn host_time(&self) -> Duration {
        StepHost::host_time(self)
    }

    fn ended_with(&self, check: Option<ValueCheck>) {
        // A proof run's failures are its own, never a step's evidence.
        if self.proof.get() == ProofMode::Off {
            *self.value_check.borrow_mut() = check;
        }
    }

    fn end_step(&self) -> Result<(), StepFailure> {
        StepHost::end_step(self)
    }

    fn holds_secret(&self, text: &str) -> bool {
        self.test_page
            .origins()
            .is_some_and(|guard| guard.holds_secret(text))
    }

    fn secret_read(&self) {
        if let Some(guard) = self.test_page.origins() {
            guard.secret_in_play();
        }
    }
}
