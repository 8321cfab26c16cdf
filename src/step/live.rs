//! The live executor: one test's JavaScript sandbox and browser host, and each step's settle
//! window around them.
//!
//! Main types: [`LivePage`] (what a test owns: sandbox and host for its page) and
//! [`LiveExecutor`] (one step's view of it: the settle window and where retries are told).

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::driver::{OriginGuard, OriginSeen, SettleAt, TestPage};
use crate::scenario::StepArgument;
use crate::script::{
    Accessibility, FailureKind, Limits, Mutation, Observation, PageState, ProofMode, Read, Sandbox,
    Screenshots, StepFailure, StepHost, SubjectRead, TimedCall,
};
use crate::step::mutations::Claims;
use crate::step::proof::{Proof, ProofPage, prove};
use crate::step::waited::Waited;
use crate::step::{SettleWindow, StepExecutor, SystemClock, settle};

/// One test's sandbox and the host that connects it to the test's page.
pub(crate) struct LivePage {
    sandbox: Sandbox,
    host: Rc<StepHost>,
    limits: Limits,
    /// When the last execution of step code that passed ended (when the page opened, before
    /// the first).
    idle_since: Cell<Instant>,
    /// The call of the last execution that came closest to its timeout.
    last_wait: RefCell<Option<Waited>>,
    /// The call of the current proof's runs on the unmutated page that came closest to its
    /// timeout.
    proof_wait: RefCell<Option<TimedCall>>,
    /// The 1-based index of the step that began last.
    step: Cell<usize>,
}

impl LivePage {
    /// Starts a sandbox with `limits` for `page`, whose step code reads `vars`; browser calls
    /// run on `handle`.
    pub(crate) fn open(
        limits: Limits,
        handle: tokio::runtime::Handle,
        page: TestPage,
        vars: BTreeMap<String, String>,
        screenshots: Option<Screenshots>,
        accessibility: Accessibility,
    ) -> Result<Self, StepFailure> {
        let host = StepHost::new(handle, page).with_accessibility(accessibility);
        let host = match screenshots {
            Some(screenshots) => host.with_screenshots(screenshots),
            None => host,
        };
        Ok(Self {
            sandbox: Sandbox::new(limits)?.with_vars(vars),
            host: Rc::new(host),
            limits,
            idle_since: Cell::new(Instant::now()),
            last_wait: RefCell::new(None),
            proof_wait: RefCell::new(None),
            step: Cell::new(0),
        })
    }

    /// The step at 1-based `index` starts: its screenshots are named after it.
    pub(crate) fn begin_step(&self, index: usize) {
        self.step.set(index);
        if let Some(screenshots) = self.host.screenshots() {
            screenshots.begin_step(index);
        }
    }

    /// The step that began last ended: the guard hears that no step's code runs until the
    /// next one's does.
    pub(crate) fn end_step(&self) {
        if let Some(guard) = self.host.origins() {
            guard.code_runs(None);
        }
    }

    /// The call of the last execution (of any step) that came closest to its timeout: the
    /// margin of code that passed, or the call that ran out its timeout.
    pub(crate) fn last_wait(&self) -> Option<Waited> {
        self.last_wait.borrow().clone()
    }

    /// One step's executor: code runs inside `window`, and every repetition is told to
    /// `on_retry` (the number of the execution about to run, and the failure that caused it).
    pub(crate) fn executor<'a>(
        &'a self,
        window: SettleWindow,
        on_retry: &'a dyn Fn(u32, &StepFailure),
    ) -> LiveExecutor<'a> {
        LiveExecutor {
            page: self,
            window,
            on_retry,
            argument: None,
            optional: None,
        }
    }

    /// The `console.*` lines step code logged since the last call.
    pub(crate) fn take_log(&self) -> Vec<String> {
        self.host.take_log()
    }

    /// The first request, socket or connection `[browser] allowed_origins` blocked in the test,
    /// after a wait for the timers step code left and for what the page has in flight.
    pub(crate) fn violation(&self) -> Option<String> {
        self.host
            .origins_after_grace(self.limits.action_timeout, SettleAt::TestEnd)?
            .first_violation()
    }

    /// A PNG screenshot of the test's page, for failure reports.
    pub(crate) fn screenshot(&self) -> Option<Vec<u8>> {
        self.host.screenshot()
    }

    /// The origins outside `[browser] allowed_origins` the test reached for so far, and what
    /// became of their requests.
    pub(crate) fn origins_seen(&self) -> Vec<OriginSeen> {
        self.host
            .origins()
            .map(OriginGuard::origins_seen)
            .unwrap_or_default()
    }
}

/// One step's executor over a [`LivePage`].
pub(crate) struct LiveExecutor<'a> {
    page: &'a LivePage,
    window: SettleWindow,
    on_retry: &'a dyn Fn(u32, &StepFailure),
    /// The step's Gherkin doc string or data table, if it has one.
    argument: Option<&'a StepArgument>,
    /// For an `[optional]` step: how long the target of its first action may take to appear
    /// before the execution fails as [`FailureKind::Absent`].
    optional: Option<Duration>,
}

impl<'a> LiveExecutor<'a> {
    /// The executor of a step whose code reads `argument` (`vars.docString`, `vars.dataTable`).
    pub(crate) fn with_argument(mut self, argument: Option<&'a StepArgument>) -> Self {
        self.argument = argument;
        self
    }

    /// The executor of an `[optional]` step, whose first action waits at most `bound` for its
    /// target (`None` for any other step).
    pub(crate) fn with_optional(mut self, bound: Option<Duration>) -> Self {
        self.optional = bound;
        self
    }
}

impl StepExecutor for LiveExecutor<'_> {
    fn check(&self, code: &str) -> Result<(), StepFailure> {
        self.page.sandbox.check(code)
    }

    fn execute(&self, code: &str) -> Result<(), StepFailure> {
        self.page.host.forget_last_call();
        if let Some(guard) = self.page.host.origins() {
            guard.mark();
            guard.code_runs(Some(self.page.step.get()));
            guard.code_holds(code);
        }
        // The time the page was left to itself before this code ran (its code being written).
        let mut before = Some(self.page.idle_since.get().elapsed());
        let mut timed_before = None;
        let outcome = settle(
            &self.window,
            &SystemClock,
            || {
                // Armed for each execution, because its first action spends the mode.
                self.page.host.arm_optional(self.optional);
                self.page.host.reset_waits();
                timed_before = before.take();
                self.page.host.forget_checks();
                if let Some(screenshots) = self.page.host.screenshots() {
                    screenshots.begin_execution();
                }
                let outcome = self
                    .page
                    .sandbox
                    .run_step_with(code, &self.page.host, self.argument);
                self.page.host.arm_optional(None);
                outcome
            },
            |attempt, failure| (self.on_retry)(attempt, failure),
        );
        let waited = self
            .page
            .host
            .tightest_call()
            .map(|call| Waited::new(call, timed_before, &self.page.limits));
        self.page.last_wait.replace(waited);
        // A screenshot mismatch carries its images to the reports.
        let outcome = outcome.map_err(|mut failure| {
            if failure.kind == FailureKind::VisualMismatch {
                failure.visual = self
                    .page
                    .host
                    .screenshots()
                    .and_then(Screenshots::take_diff)
                    .map(Box::new);
            }
            failure
        });
        // A replay runs each step right after the last one that passed: the time a failed
        // candidate took is overhead a replay does not have, so it counts as time before.
        if outcome.is_ok() {
            self.page.idle_since.set(Instant::now());
        }
        outcome
    }

    fn page_state(&self, screenshot: bool, snapshot_budget: usize) -> PageState {
        self.page.host.page_state(screenshot, snapshot_budget)
    }

    fn prove(&self, code: &str, claims: &Claims) -> Proof {
        if let Some(guard) = self.page.host.origins() {
            guard.code_holds(code);
        }
        self.page.host.begin_proof();
        self.page.proof_wait.replace(None);
        let proof = prove(self, code, claims);
        self.page.host.end_proof();
        // The proof's runs on the unmutated page keep the code's own timeouts, as a replay
        // does: when one of them waited longer than the step's execution, it is the margin.
        if let Some(call) = self.page.proof_wait.take() {
            let waited = Waited::in_proof(call, &self.page.limits);
            let mut last = self.page.last_wait.borrow_mut();
            if last
                .as_ref()
                .is_none_or(|kept| waited.per_mille() > kept.per_mille())
            {
                *last = Some(waited);
            }
        }
        proof
    }

    fn observe(&self) -> Observation {
        self.page.host.observe_failure()
    }

    fn forgive_blocked(&self) {
        if let Some(guard) = self
            .page
            .host
            .origins_after_grace(self.page.limits.action_timeout, SettleAt::Step)
        {
            guard.forgive();
        }
    }

    fn kept_to_origins(&self) -> Result<(), StepFailure> {
        let blocked = self
            .page
            .host
            .origins_after_grace(self.page.limits.action_timeout, SettleAt::Step);
        match blocked.and_then(|guard| guard.take_blocked()) {
            Some(message) => Err(StepFailure::new(FailureKind::Blocked, message)),
            None => Ok(()),
        }
    }

    fn allows_url(&self, url: &str) -> bool {
        self.page
            .host
            .origins()
            .is_none_or(|guard| guard.allows(url))
    }

    fn optional_bound(&self) -> Option<Duration> {
        self.optional
    }

    fn appear_bound(&self) -> Duration {
        self.optional.unwrap_or(self.page.limits.action_timeout)
    }

    fn sent_write(&self) -> Option<String> {
        self.page.host.sent_write()
    }

    fn subject_reads(&self) -> Option<Vec<SubjectRead>> {
        self.page.host.subject_reads()
    }
}

/// Proof runs execute once, outside the settle window: the page does not change while a
/// mutation is on it, so a check that does not hold at once never will.
impl ProofPage for LiveExecutor<'_> {
    fn run(&self, code: &str, mutated: bool) -> (Result<(), StepFailure>, Vec<Read>) {
        let host = &self.page.host;
        host.take_reads();
        if let Some(screenshots) = host.screenshots() {
            screenshots.begin_execution();
        }
        host.set_proof_mode(if mutated {
            ProofMode::Mutated
        } else {
            ProofMode::Record
        });
        // A mutated run's timeouts are cut and it is meant to fail: only the unmutated runs
        // tell how long the code waits.
        host.reset_waits();
        let outcome = self.page.sandbox.run_step_with(code, host, self.argument);
        host.set_proof_mode(ProofMode::Off);
        if !mutated && let Some(call) = host.tightest_call() {
            let mut kept = self.page.proof_wait.borrow_mut();
            if kept
                .as_ref()
                .is_none_or(|kept| call.per_mille() > kept.per_mille())
            {
                *kept = Some(call);
            }
        }
        // The first run sent the code's read requests; every later run of the proof is answered
        // from them, so the app sees each once.
        host.replay_responses();
        (outcome, host.take_reads())
    }

    fn mutate(&self, mutation: &Mutation) -> Result<u64, StepFailure> {
        self.page.host.mutate(mutation)
    }

    fn holds(&self, text: &str) -> Result<bool, StepFailure> {
        self.page.host.page_holds(text)
    }

    fn undone(&self) -> Result<u64, StepFailure> {
        self.page.host.undone_changes()
    }

    fn restore(&self) -> Result<u64, StepFailure> {
        self.page.host.restore_page()
    }
}
