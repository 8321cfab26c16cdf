//! How the end of a test looks on the wire (`docs/reports.md`): the test an event is about, its
//! outcome, and a failure with its cause, verdict and screenshot; serializable mirrors that
//! borrow from the runner's types, as `wire.rs` does for the events that carry them.
//!
//! Main type: [`FailureWire`].

use base64::Engine as _;
use serde::Serialize;

use crate::llm::{Category, Classification, VerdictSource};
use crate::runner::{FailureCause, TestFailure, TestId, TestOutcome};
use crate::script::{FailureKind, VisualDiff};

/// The wire name of a step failure kind (`failed_check`, `timeout`, ...): the kind's own
/// report name.
pub(crate) fn failure_kind_name(kind: FailureKind) -> &'static str {
    kind.report_name()
}

/// A test: scenario file, name and the line of its `test:` header, and its browser project in
/// a run of several browsers (left out otherwise, so the events of a Chromium run are as
/// before).
#[derive(Serialize)]
pub(crate) struct TestIdWire<'a> {
    scenario: &'a str,
    name: &'a str,
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    project: Option<&'a str>,
}

impl<'a> From<&'a TestId> for TestIdWire<'a> {
    fn from(id: &'a TestId) -> Self {
        Self {
            scenario: &id.scenario,
            name: &id.name,
            line: id.line,
            project: id.project.as_deref(),
        }
    }
}

/// How a test ended: `"status"` is `passed`, `flaky` (passed on attempt `attempts` after
/// failing every attempt before), or `failed` with the failure's fields.
#[derive(Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub(crate) enum OutcomeWire<'a> {
    Passed,
    Flaky { attempts: u32 },
    Failed(Box<FailureWire<'a>>),
}

impl<'a> From<&'a TestOutcome> for OutcomeWire<'a> {
    fn from(outcome: &'a TestOutcome) -> Self {
        match outcome {
            TestOutcome::Passed => OutcomeWire::Passed,
            TestOutcome::Flaky { attempts } => OutcomeWire::Flaky {
                attempts: *attempts,
            },
            TestOutcome::Failed(failure) => OutcomeWire::Failed(Box::new(failure.as_ref().into())),
            // Written as a failure whose cause is `interrupted`, the shape readers know.
            TestOutcome::Interrupted(at) => OutcomeWire::Failed(Box::new(FailureWire {
                step: &at.step,
                step_index: at.step_index,
                line: at.line,
                cause: CauseWire::Interrupted,
                code: None,
                verdict: None,
                screenshot_png_base64: None,
                screenshot: None,
                visual: None,
                timed_out: None,
                written_before: Vec::new(),
            })),
        }
    }
}

/// A failed test: the step, its cause, its code, the verdict and the screenshot.
#[derive(Serialize)]
pub(crate) struct FailureWire<'a> {
    step: &'a str,
    step_index: usize,
    line: usize,
    cause: CauseWire<'a>,
    code: Option<&'a str>,
    verdict: Option<ClassificationWire<'a>>,
    /// Standard base64 of the PNG; the field is absent without a screenshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    screenshot_png_base64: Option<String>,
    /// The PNG by reference instead (a report blob): a path relative to the blob's directory.
    #[serde(skip_serializing_if = "Option::is_none")]
    screenshot: Option<String>,
    /// The images of a screenshot mismatch; absent unless the step failed on one.
    #[serde(skip_serializing_if = "Option::is_none")]
    visual: Option<VisualWire>,
    /// The call that ran out its timeout; absent unless the step's code failed on one.
    #[serde(skip_serializing_if = "Option::is_none")]
    timed_out: Option<TimedOutWire<'a>>,
    /// The code earlier steps were written with in the run, for an INCURABLE generated step;
    /// absent when there is none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    written_before: Vec<WrittenStepWire<'a>>,
}

/// The files of a screenshot mismatch: the committed baseline, and the expected, actual and
/// diff images written to the run's output directory.
#[derive(Serialize)]
pub(crate) struct VisualWire {
    baseline: String,
    expected: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    actual: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<String>,
}

impl From<&VisualDiff> for VisualWire {
    fn from(images: &VisualDiff) -> Self {
        let text = |path: &std::path::Path| path.display().to_string();
        Self {
            baseline: text(&images.baseline),
            expected: text(&images.expected),
            actual: images.actual.as_deref().map(text),
            diff: images.diff.as_deref().map(text),
        }
    }
}

/// An earlier step of the test and the code written for it in the run.
#[derive(Serialize)]
pub(crate) struct WrittenStepWire<'a> {
    step_index: usize,
    step: &'a str,
    code: &'a str,
}

/// The call of a failed step that ran out its timeout, and which timeout that was.
#[derive(Serialize)]
pub(crate) struct TimedOutWire<'a> {
    method: &'a str,
    waited_ms: u64,
    timeout_ms: u64,
    /// `browser`, `navigation` or `code` (the step code's own `timeout` option).
    setting: &'static str,
}

impl FailureWire<'_> {
    /// Names the screenshot by `path` instead of carrying it inline (report blobs).
    pub(crate) fn refer_screenshot(&mut self, path: String) {
        self.screenshot_png_base64 = None;
        self.screenshot = Some(path);
    }
}

impl<'a> From<&'a TestFailure> for FailureWire<'a> {
    fn from(failure: &'a TestFailure) -> Self {
        let TestFailure {
            step,
            step_index,
            line,
            cause,
            code,
            verdict,
            screenshot,
            timed_out,
            written_before,
        } = failure;
        Self {
            step,
            step_index: *step_index,
            line: *line,
            cause: cause.into(),
            code: code.as_deref(),
            verdict: verdict.as_ref().map(ClassificationWire::from),
            screenshot_png_base64: screenshot
                .as_ref()
                .map(|png| base64::engine::general_purpose::STANDARD.encode(png)),
            screenshot: None,
            visual: failure.visual().map(VisualWire::from),
            timed_out: timed_out.as_ref().map(|waited| TimedOutWire {
                method: &waited.method,
                waited_ms: u64::try_from(waited.call.as_millis()).unwrap_or(u64::MAX),
                timeout_ms: u64::try_from(waited.timeout.as_millis()).unwrap_or(u64::MAX),
                setting: waited.setting.as_str(),
            }),
            written_before: written_before
                .iter()
                .map(|written| WrittenStepWire {
                    step_index: written.step_index,
                    step: &written.step,
                    code: &written.code,
                })
                .collect(),
        }
    }
}

/// Why a test failed: `"type"` names the cause, its fields follow.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum CauseWire<'a> {
    Step {
        kind: &'static str,
        message: &'a str,
        code_line: Option<u32>,
    },
    CacheMiss,
    Infrastructure {
        message: &'a str,
    },
    Engine {
        kind: &'static str,
        /// The summary followed by the cause, as [`EngineFailure::message`] composes them.
        reason: String,
        verdict: Option<ClassificationWire<'a>>,
        /// The last generated code that failed, when the failure is about a candidate.
        #[serde(skip_serializing_if = "Option::is_none")]
        candidate: Option<&'a str>,
    },
    /// The saved state the test starts from has no passing setup test: the test did not run.
    SetupFailed {
        state: &'a str,
        /// `file › test` of the setup test; absent when no test of the run saves the state.
        setup: Option<String>,
        /// The setup test as a test object; absent when no test of the run saves the state.
        #[serde(skip_serializing_if = "Option::is_none")]
        setup_test: Option<TestIdWire<'a>>,
        /// Whether the setup failed for the browser's, the driver's or the LLM's reason.
        infrastructure: bool,
        message: String,
    },
    Interrupted,
}

impl<'a> From<&'a FailureCause> for CauseWire<'a> {
    fn from(cause: &'a FailureCause) -> Self {
        match cause {
            FailureCause::Step(failure) => CauseWire::Step {
                kind: failure_kind_name(failure.kind),
                message: &failure.message,
                code_line: failure.code_line,
            },
            FailureCause::CacheMiss => CauseWire::CacheMiss,
            FailureCause::Infrastructure(message) => CauseWire::Infrastructure { message },
            FailureCause::Engine(failure) => CauseWire::Engine {
                kind: failure.kind.as_str(),
                reason: failure.message(),
                verdict: failure.verdict.as_ref().map(ClassificationWire::from),
                candidate: failure.candidate.as_deref(),
            },
            FailureCause::SetupFailed(setup) => CauseWire::SetupFailed {
                state: &setup.state,
                setup: setup.setup.as_ref().map(ToString::to_string),
                setup_test: setup.setup.as_ref().map(TestIdWire::from),
                infrastructure: setup.infrastructure,
                message: setup.message(),
            },
        }
    }
}

/// The verdict on a failure, and what decided it: `source` is `evidence`, `llm`, or
/// `evidence+llm` (the evidence decided, and `llm_category` is what the LLM said; `agreed`
/// tells whether it said the same).
#[derive(Serialize)]
pub(crate) struct ClassificationWire<'a> {
    category: &'static str,
    explanation: &'a str,
    recommendation: &'a str,
    source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    llm_category: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    agreed: Option<bool>,
}

impl<'a> From<&'a Classification> for ClassificationWire<'a> {
    fn from(verdict: &'a Classification) -> Self {
        let llm = match verdict.source {
            VerdictSource::Evidence { llm } => llm,
            VerdictSource::Llm => None,
        };
        Self {
            category: verdict.category.as_str(),
            explanation: &verdict.explanation,
            recommendation: &verdict.recommendation,
            source: verdict.source.as_str(),
            llm_category: llm.map(Category::as_str),
            agreed: llm.map(|llm| llm == verdict.category),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::EngineFailureKind;

    /// `docs/reports.md` names every engine failure kind the wire writes, in the `engine` cause
    /// and in JUnit's failure `type`.
    #[test]
    fn the_reports_doc_names_every_engine_failure_kind() {
        let doc = include_str!("../../docs/reports.md");
        for kind in EngineFailureKind::ALL {
            let name = kind.as_str();
            assert!(
                doc.contains(&format!("\"{name}\"")),
                "no \"{name}\" in the cause"
            );
            assert!(
                doc.contains(&format!("`{name}`")),
                "no `{name}` in the JUnit types"
            );
        }
    }
}
