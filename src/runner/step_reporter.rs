//! What one step of a test tells the reporters while it runs: its `console.*` output, its settle
//! retries, and everything the engine does for it (generation, healing, reuse, verdicts, LLM
//! calls, warnings), each as a [`RunEvent`] of the step or of its test.
//!
//! Main type: [`StepReporter`], the engine's [`EngineObserver`] for the step.

use std::sync::mpsc::Sender;
use std::time::Duration;

use crate::cache::Author;
use crate::engine::{EngineObserver, LlmPurpose, Pool};
use crate::llm::{Category, Classification, Usage};
use crate::runner::{
    GenerationStarted, Healed, HealingStarted, LlmCall, ReuseTried, RunEvent, SettleRetry,
    StepKind, StepLog, StepVerdict, TestId, TestKind, Warning,
};
use crate::scenario::Step;
use crate::script::StepFailure;
use crate::step::LivePage;

/// Sends one step's events to the runner.
pub(crate) struct StepReporter<'a> {
    pub test: &'a TestId,
    /// 1-based index of the step in its test, its file's background included.
    pub index: usize,
    pub step: &'a Step,
    pub live: &'a LivePage,
    pub events: &'a Sender<RunEvent>,
}

impl StepReporter<'_> {
    /// Sends an event of the step.
    pub(crate) fn send(&self, kind: impl Into<StepKind>) {
        self.send_event(RunEvent::of_step(self.test.clone(), self.index, kind));
    }

    /// Sends an event of the step's test.
    fn send_test(&self, kind: impl Into<TestKind>) {
        self.send_event(RunEvent::of_test(self.test.clone(), kind));
    }

    fn send_event(&self, event: RunEvent) {
        // A closed receiver means the run is being torn down; nothing left to tell.
        let _ = self.events.send(event);
    }

    /// Sends what the step's code logged since the last time.
    pub(crate) fn send_log(&self) {
        for line in self.live.take_log() {
            self.send(StepLog { line });
        }
    }

    /// Says that the settle window runs the code again (execution `attempt`) after `failure`.
    pub(crate) fn send_retry(&self, attempt: u32, failure: &StepFailure) {
        self.send_log();
        self.send(SettleRetry {
            attempt,
            failure: failure.message.clone(),
        });
    }
}

impl EngineObserver for StepReporter<'_> {
    fn generation_started(&self, pool: Pool, attempt: u32, limit: u32) {
        self.send_log();
        self.send(GenerationStarted {
            pool,
            attempt,
            limit,
        });
    }

    fn healing_started(&self, category: Category) {
        self.send(HealingStarted { category });
    }

    fn healed(&self, explanation: &str, by: Author, offline: bool, old_code: &str, new_code: &str) {
        self.send(Healed {
            sentence: self.step.sentence.clone(),
            explanation: explanation.to_owned(),
            by,
            offline,
            old_code: old_code.to_owned(),
            new_code: new_code.to_owned(),
        });
    }

    fn reuse_tried(&self, from: &str, failure: Option<&str>) {
        self.send_log();
        self.send(ReuseTried {
            from: from.to_owned(),
            failure: failure.map(str::to_owned),
        });
    }

    fn verdict(&self, verdict: &Classification) {
        tracing::info!(
            target: "prettyplay::verdict",
            test = %self.test,
            step = self.index,
            category = verdict.category.as_str(),
            explanation = %verdict.explanation,
            recommendation = %verdict.recommendation,
            "step_verdict"
        );
        self.send(StepVerdict {
            verdict: verdict.clone(),
        });
    }

    fn llm_call(&self, purpose: LlmPurpose, usage: Usage, elapsed: Duration) {
        self.send_test(LlmCall {
            purpose,
            usage,
            elapsed,
        });
    }

    fn warning(&self, message: &str) {
        // The reporters show the warning and the log keeps only a debug record, so that users
        // see it once.
        tracing::debug!(target: "prettyplay::engine", test = %self.test, "{message}");
        self.send_test(Warning {
            message: message.to_owned(),
        });
    }
}
