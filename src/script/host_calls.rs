//! The binding's calls that go to the browser and wait for its answer: a frame call (with an
//! `[optional]` step's wait for its target first, and the failure kept as evidence), the
//! navigations (`goto`, `reload`, `goBack`, `goForward`) and file uploads, and the bookkeeping
//! of which elements a check read. The dispatch of every call is `binding.rs`.
//!
//! Main functions: [`StepHost::frame_call`], [`StepHost::goto`].

use std::sync::Arc;
use std::time::Duration;

use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};

use crate::driver::Reach;
use crate::script::FailureKind;
use crate::script::binding::{Outcome, StepHost};
use crate::script::driver_error::{HostError, received};
use crate::script::frame_calls::{overran, overrun_limit};
use crate::script::input_files::input_files;
use crate::script::methods::{Method, Op};
use crate::script::navigation;
use crate::script::observe::Call;
use crate::script::op_params::{self, resolve_url};
use crate::script::page_slot::PageSlot;
use crate::script::proof_mode::ProofMode;
use crate::script::proof_mode::Read;
use crate::script::subject::{Place, SubjectRead, place_of};

impl StepHost {
    /// A call passed through to a page's main frame: an `[optional]` step's first action
    /// waits for its target first, and a failure in a normal run is kept as the evidence of
    /// the step's failure, with what a failed expectation received.
    pub(super) fn frame_call(
        &self,
        page_id: u32,
        name: &'static str,
        row: Method,
        params: Value,
        slot: PageSlot,
        mode: ProofMode,
    ) -> Outcome {
        let expect = name == "expect";
        let PageSlot { page, frame } = slot;
        let limit = overrun_limit(&params);
        let target = self.optional.before(row, &params);
        // Only a normal run's failures are evidence; a proof run's are its own.
        let evidence = (mode == ProofMode::Off).then(|| Arc::clone(&self.failed_call));
        let keep = move |received: Option<String>, params: &Value| {
            if let Some(slot) = &evidence
                && let Ok(mut slot) = slot.lock()
            {
                *slot = Some(Call {
                    page: page_id,
                    method: format!("frame.{name}"),
                    params: params.clone(),
                    received,
                });
            }
        };
        self.act(async move {
            if let Some(target) = target
                && let Err(absent) = target.run(&frame).await
            {
                // The call its target never appeared for is the evidence, should the runner
                // find that target on the page after all (a rotted locator).
                keep(None, &params);
                return Err(absent);
            }
            let call = frame.channel().send::<Value, Value>(name, params.clone());
            let Ok(reply) = tokio::time::timeout(limit, call).await else {
                return Err(overran(&params, expect));
            };
            match reply {
                Ok(v) => Ok(if v.is_null() { json!({}) } else { v }),
                Err(err) => {
                    let mut err = HostError::from_playwright(err, expect);
                    if expect && err.kind == FailureKind::FailedCheck && err.received.is_none() {
                        // The page may be blocked (an open dialog the step owns): the Received
                        // line is best effort, never a hang.
                        err.received = tokio::time::timeout(
                            Duration::from_secs(3),
                            received(&page, &frame, &params),
                        )
                        .await
                        .ok()
                        .flatten();
                    }
                    keep(err.received.clone(), &params);
                    Err(err)
                }
            }
        })
    }

    /// `page.reload`, `page.goBack`, `page.goForward` (`name`), timed as navigations.
    pub(super) fn history(
        &self,
        method: &str,
        name: &'static str,
        params: &Value,
        slot: PageSlot,
    ) -> Result<Outcome, HostError> {
        let history: op_params::History = op_params::parse(method, params)?;
        let options = history.options();
        let page = slot.page;
        let (method, target) = (method.to_owned(), page.url());
        let clock = self.test_page.navigation().clone();
        Ok(self.act(clock.time(async move {
            let navigated = match name {
                "reload" => page.reload(options).await,
                "goBack" => page.go_back(options).await,
                _ => page.go_forward(options).await,
            };
            match navigated {
                Ok(response) => navigation::answered(response.as_ref()),
                Err(err) => {
                    let err = HostError::from_playwright(err, false);
                    Err(navigation::failed(err, &method, &target).await)
                }
            }
        })))
    }

    /// `page.goto` with the base URL applied, refused before it leaves when its URL is one
    /// `[browser] allowed_origins` blocks.
    pub(super) fn goto(
        &self,
        method: &str,
        params: &Value,
        slot: PageSlot,
    ) -> Result<Outcome, HostError> {
        let goto: op_params::Goto = op_params::parse(method, params)?;
        let base_url = self.test_page.base_url();
        // The guard below would call a relative URL a blocked origin: the missing base URL is
        // what to say.
        if let Some(err) = navigation::needs_base_url(base_url, &goto.url) {
            return Err(err);
        }
        let url = resolve_url(base_url, &goto.url);
        if let Some(guard) = self.test_page.origins() {
            // `file:` URLs never reach the guard's route: check every URL here.
            if let Err(blocked) = guard.check(&url) {
                return Ok(Outcome::Blocked(blocked.to_string()));
            }
            // What step code chose of the URL, beyond the app's origin, is its own.
            self.late
                .called(guard.step_call(Reach::Navigate, &mut json!({ "url": url })));
        }
        let options = goto.options();
        let page = slot.page;
        let clock = self.test_page.navigation().clone();
        Ok(self.act(clock.time(async move {
            match page.goto(&url, options).await {
                Ok(response) => navigation::answered(response.as_ref()),
                Err(err) => {
                    let err = HostError::from_playwright(err, false);
                    Err(navigation::failed(err, "page.goto", &url).await)
                }
            }
        })))
    }

    /// `locator.setInputFiles` with step code's paths resolved inside the project directory.
    pub(super) fn set_input_files(
        &self,
        mut params: Value,
        slot: PageSlot,
    ) -> Result<Outcome, HostError> {
        let files = params.as_object_mut().and_then(|p| p.remove("files"));
        let files = files.as_ref().and_then(Value::as_array);
        let resolved = input_files(
            self.test_page.project_dir(),
            files.map_or(&[][..], Vec::as_slice),
        )?;
        if let (Some(params), Value::Object(resolved)) = (params.as_object_mut(), resolved) {
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
}

impl StepHost {
    /// Forgets the reads of the last run, before a run whose checks may be compared.
    pub(crate) fn forget_checks(&self) {
        self.checks.borrow_mut().clear();
        self.last_read.borrow_mut().take();
    }

    /// The element reads the last normal run made on the test's page, each with where its
    /// elements are now against the subject the last evidence marked (all unknown when it
    /// marked none) and where the first of them stands among its like siblings.
    pub(crate) fn subject_reads(&self) -> Option<Vec<SubjectRead>> {
        let subject = self.subject.borrow().clone();
        let reads: Vec<Read> = self.checks.borrow().clone();
        let frame = self.pages.borrow()[0].frame.clone();
        let placed = self.run(async {
            let mut placed = Vec::with_capacity(reads.len());
            for read in reads {
                let (place, position, containers) = match (&read.selector, read.page) {
                    (Some(selector), 0) => place_of(&frame, selector, subject.as_deref()).await,
                    _ => (Place::Unknown, None, Vec::new()),
                };
                placed.push(SubjectRead {
                    read,
                    place,
                    position,
                    containers,
                });
            }
            placed
        });
        Some(placed.unwrap_or_default())
    }
}

impl StepHost {
    /// Keeps a plain read of elements a normal run made (`textContent`, `inputValue`,
    /// `isChecked`, `count`, ...; not an assertion, which is its own subject) as the subject of
    /// a value assertion that may end the run: `expect(await loc.textContent()).toBe(...)`.
    pub(super) fn heard_read(&self, page_id: u32, method: &str, op: Op, params: &Value) {
        if op == Op::Frame("expect") || params.get("selector").is_none() {
            return;
        }
        *self.last_read.borrow_mut() = Some(Call {
            page: page_id,
            method: method.to_owned(),
            params: params.clone(),
            received: None,
        });
    }

    /// The call a failure is judged by. A run that a value assertion ended (`by_value`) made no
    /// failing browser call: the last plain read of elements before it is what the assertion
    /// most likely checks, so it is the failed check's subject. Otherwise it is the last call
    /// that failed.
    pub(super) fn judged_call(&self, by_value: bool) -> Option<Call> {
        let read = by_value.then(|| self.last_read.borrow().clone()).flatten();
        read.or_else(|| self.failed_call.lock().ok().and_then(|call| call.clone()))
    }
}
