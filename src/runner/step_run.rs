//! How one step of a test ends, from what the cache holds for it: its cached code replayed,
//! generated, healed, or judged by the evidence or the engine, by run mode. A step that other
//! tests share (a background step, a step of an examples row) goes through its [`Slot`] when it
//! needs the engine, so that it is generated or healed once per run; [`SharedTurn::decide`] is
//! that decision.
//!
//! Main type: [`StepResult`]; the entry points are [`advance`] and [`shared_step`].

use std::time::Instant;

use crate::cache::Author;
use crate::engine::{
    Engine, EngineCause, EngineFailure, EngineFailureKind, EngineObserver, Judgement, StepContext,
    StepProof, audit_record, defect_classification, evident_failure, judge,
    likeness_classification,
};
use crate::llm::Classification;
use crate::runner::shared_steps::{Slot, lock};
use crate::runner::skip::{generation_skip, skip_or_fail};
use crate::runner::step_reporter::StepReporter;
use crate::runner::{FailureCause, Mode, StepSource, TestFailure};
use crate::script::{FailureKind, StepFailure};
use crate::step::{LiveExecutor, StepExecutor};

/// What the cache holds for a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Cached {
    Code(String),
    Missing,
}

/// How a step ended.
pub(crate) enum StepResult {
    Passed {
        source: StepSource,
        /// Who wrote generated or healed code.
        by: Option<Author>,
        code: String,
        /// How its checks were proven (see [`crate::runner::StepPassed`]).
        proof: Option<StepProof>,
    },
    Failed {
        failure: Box<TestFailure>,
    },
    /// An `[optional]` step whose target did not appear, and why (see `skip.rs`).
    Skipped(String),
}

/// Runs a step according to the run mode, from what the cache holds for it.
pub(crate) fn advance(
    cached: Cached,
    mode: Mode,
    engine: Option<&mut Engine<'_>>,
    context: &StepContext<'_>,
    exec: &LiveExecutor<'_>,
    observer: &StepReporter<'_>,
) -> StepResult {
    match cached {
        Cached::Code(code) => match exec.execute(&code) {
            Ok(()) => {
                // `audit` proves checks, and an optional step is an action that may be skipped.
                let audited = (mode == Mode::Audit && !observer.step.optional)
                    .then(|| audit_record(exec, &code, &context.key.step, context.columns));
                match audited.unwrap_or(Ok(None)) {
                    Ok(proof) => StepResult::Passed {
                        source: StepSource::Cached,
                        by: None,
                        proof,
                        code,
                    },
                    // A proof that could not restore the page leaves later steps a changed
                    // page: the step fails rather than pass on it.
                    Err(broken) => {
                        failed_step(observer, FailureCause::Step(broken), Some(code), None)
                    }
                }
            }
            Err(failure) => match skip_or_fail(failure, exec, context) {
                Ok(reason) => StepResult::Skipped(reason),
                Err(failure) => after_failure(code, failure, mode, engine, context, exec, observer),
            },
        },
        Cached::Missing => match (mode, engine) {
            (Mode::Run { .. }, Some(engine)) => generate(engine, context, exec, observer),
            _ => failed_step(observer, FailureCause::CacheMiss, None, None),
        },
    }
}

/// A failed step of the test `observer` reports for.
fn failed_step(
    observer: &StepReporter<'_>,
    cause: FailureCause,
    code: Option<String>,
    verdict: Option<Classification>,
) -> StepResult {
    let (step, index) = (observer.step, observer.index);
    let mut failure = TestFailure::at(step.sentence.clone(), index, step.line, cause);
    failure.code = code;
    failure.verdict = verdict;
    StepResult::Failed {
        failure: Box::new(failure),
    }
}

/// Generates code for a step without any.
fn generate(
    engine: &mut Engine<'_>,
    context: &StepContext<'_>,
    exec: &LiveExecutor<'_>,
    observer: &StepReporter<'_>,
) -> StepResult {
    match engine.generate(context, exec, observer) {
        Ok(generated) => StepResult::Passed {
            source: StepSource::Generated,
            by: Some(generated.by),
            code: generated.code,
            proof: generated.proof.map(StepProof::Recorded),
        },
        Err(decided) => {
            if let Some(reason) = generation_skip(observer.step.optional, context, &decided) {
                return StepResult::Skipped(reason);
            }
            let verdict = decided.verdict.clone();
            let shown = decided.candidate.clone();
            failed_step(observer, FailureCause::Engine(decided), shown, verdict)
        }
    }
}

/// Whether a failure of step code is decided by what it says, before any engine sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Evidence {
    /// The failure is reported as this cause, and no LLM is asked about it.
    Decides(FailureCause),
    /// The engine decides, when there is one (a crash too: the engine says so itself).
    Leaves(StepFailure),
}

impl Evidence {
    /// What `failure` decides on its own: an app that cannot be reached is the infrastructure's
    /// failure and a missing setting the configuration's, each reported as it is; an HTTP 5xx
    /// main document is the app's defect (PRODUCT DEFECT). No step code can fix any of them, so
    /// they are never healed or regenerated.
    fn of(failure: StepFailure) -> Evidence {
        match failure.kind {
            FailureKind::Unreachable | FailureKind::Misconfigured => {
                Evidence::Decides(FailureCause::Step(failure))
            }
            FailureKind::AppError
            | FailureKind::Blocked
            | FailureKind::VisualMismatch
            | FailureKind::AccessibilityViolation => {
                Evidence::Decides(FailureCause::Engine(evident_failure(&failure, None)))
            }
            _ => Evidence::Leaves(failure),
        }
    }

    /// The cause a failure that no engine will judge is reported as.
    fn cause_of(failure: StepFailure) -> FailureCause {
        match Evidence::of(failure) {
            Evidence::Decides(cause) => cause,
            Evidence::Leaves(failure) => FailureCause::Step(failure),
        }
    }
}

/// A step of `code` that failed for `cause`, with the verdict the cause carries (an HTTP 5xx's
/// product defect, from evidence) reported as the engine reports its own.
fn evident_step(observer: &StepReporter<'_>, cause: FailureCause, code: String) -> StepResult {
    let verdict = match &cause {
        FailureCause::Engine(decided) => decided.verdict.clone(),
        _ => None,
    };
    if let Some(verdict) = &verdict {
        observer.verdict(verdict);
    }
    failed_step(observer, cause, Some(code), verdict)
}

/// What follows a failure of cached `code`, by mode: a heal, a verdict, or the failure as it is.
/// A failure that decides itself ([`Evidence::of`]) is reported at once in every mode.
fn after_failure(
    code: String,
    failure: StepFailure,
    mode: Mode,
    engine: Option<&mut Engine<'_>>,
    context: &StepContext<'_>,
    exec: &LiveExecutor<'_>,
    observer: &StepReporter<'_>,
) -> StepResult {
    let failed = |cause: FailureCause, code: Option<String>, verdict: Option<Classification>| {
        failed_step(observer, cause, code, verdict)
    };
    let failure = match Evidence::of(failure) {
        Evidence::Decides(cause) => return evident_step(observer, cause, code),
        Evidence::Leaves(failure) => failure,
    };
    if !matches!(mode, Mode::Run { heal: true }) || engine.is_none() {
        // No heal: the evidence may still call the failure a product defect, which no LLM
        // can overrule.
        let judged = if failure.kind.speaks_for_itself() {
            Judgement::Undecided
        } else {
            judge(&context.key.step, &failure, &exec.observe())
        };
        if let Judgement::Defect(observed) = judged {
            let verdict = match engine {
                Some(engine) => {
                    engine.defect_verdict(context, exec, observer, &code, &failure, observed)
                }
                None => {
                    let verdict = defect_classification(observed, None);
                    observer.verdict(&verdict);
                    verdict
                }
            };
            let decided = EngineFailure::new(
                EngineFailureKind::ProductDefect,
                "the application does not behave as the step expects",
                Some(verdict.clone()),
            )
            .with_cause(EngineCause::Step(failure));
            return failed(FailureCause::Engine(decided), Some(code), Some(verdict));
        }
        // Only look-alikes of a vanished target are left: say which, as `run` does.
        if let Judgement::Likeness(why) = judged {
            let verdict = likeness_classification(why);
            observer.verdict(&verdict);
            let undecided = EngineFailure::new(
                EngineFailureKind::Incurable,
                "the step's target is gone and only elements that resemble it are left",
                Some(verdict.clone()),
            )
            .with_cause(EngineCause::Step(failure));
            return failed(FailureCause::Engine(undecided), Some(code), Some(verdict));
        }
    }
    match (mode, engine) {
        (Mode::Run { heal: true }, Some(engine)) => {
            match engine.heal(context, exec, observer, &code, &failure) {
                Ok(healed) => StepResult::Passed {
                    source: StepSource::Healed,
                    by: Some(healed.by),
                    code: healed.code,
                    proof: healed.proof.map(StepProof::Recorded),
                },
                Err(decided) => {
                    // Show the code the message is about: the last regenerated
                    // candidate when there was one, else the cached code. A vetoed heal
                    // keeps the cached code, which failed and stays in the cache; its
                    // refused candidate is the failure's own.
                    let verdict = decided.verdict.clone();
                    let shown = match decided.kind {
                        EngineFailureKind::HealVetoed => code,
                        _ => decided.candidate.clone().unwrap_or(code),
                    };
                    failed(FailureCause::Engine(decided), Some(shown), verdict)
                }
            }
        }
        (_, Some(engine)) => {
            let verdict = engine.verdict_for(context, exec, observer, &code, &failure);
            failed(FailureCause::Step(failure), Some(code), verdict)
        }
        (_, None) => failed(FailureCause::Step(failure), Some(code), None),
    }
}

/// The engine's part in one shared step.
pub(crate) struct Turn<'t, 'e> {
    pub heal: bool,
    pub engine: &'t mut Engine<'e>,
    pub context: &'t StepContext<'t>,
    pub exec: &'t LiveExecutor<'t>,
    pub observer: &'t StepReporter<'t>,
}

/// What a test does with a shared step after running the code it had first (the code proven
/// in this run, else the cached code), given what the step's slot says now.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SharedTurn {
    /// The code this test ran was proven in this run and still failed here. A step is healed
    /// once a run, so the failure stands.
    FailAsItIs { code: String, failure: StepFailure },
    /// Another test generated or healed the step meanwhile: run its code.
    RunProven(String),
    /// The engine gave up on the step for another test: this test fails the same way.
    FailLikeTheOther(Box<TestFailure>),
    /// Nobody decided yet and this test's code failed: heal it, or ask for a verdict.
    AfterFailure { code: String, failure: StepFailure },
    /// Nobody decided yet and there was no code: generate it.
    Generate,
}

impl SharedTurn {
    /// The decision when the slot holds `slot` and this test ran `tried` (its code and how it
    /// failed), or had no code at all (`None`).
    fn decide(slot: &Slot, tried: Option<(String, StepFailure)>) -> SharedTurn {
        match (slot, tried) {
            (Slot::Proven(proven), Some((code, failure))) if *proven == code => {
                SharedTurn::FailAsItIs { code, failure }
            }
            (Slot::Proven(proven), _) => SharedTurn::RunProven(proven.clone()),
            (Slot::Failed(failure), _) => SharedTurn::FailLikeTheOther(failure.clone()),
            (Slot::Undecided, Some((code, failure))) => SharedTurn::AfterFailure { code, failure },
            (Slot::Undecided, None) => SharedTurn::Generate,
        }
    }
}

/// Runs a step that other tests share (see `shared_steps.rs`). The code proven in this run,
/// else the cached code, runs without waiting. When there is none or it fails, this test takes
/// the slot's lock and uses what another test decided meanwhile, or else asks the engine and
/// records its decision for the others.
pub(crate) fn shared_step(
    slot: &std::sync::Mutex<Slot>,
    cached: Cached,
    turn: Turn<'_, '_>,
    deadline: Instant,
) -> StepResult {
    let proven = match &*lock(slot) {
        Slot::Proven(code) => Some(code.clone()),
        _ => None,
    };
    let first = proven.or(match cached {
        Cached::Code(code) => Some(code),
        Cached::Missing => None,
    });
    let mut tried = None;
    if let Some(code) = first {
        match turn.exec.execute(&code) {
            Ok(()) => {
                return StepResult::Passed {
                    source: StepSource::Cached,
                    by: None,
                    code,
                    proof: None,
                };
            }
            Err(failure) => match skip_or_fail(failure, turn.exec, turn.context) {
                // Absent from this test's page: skipped here, nothing decided for the others.
                Ok(reason) => return StepResult::Skipped(reason),
                Err(failure) => tried = Some((code, failure)),
            },
        }
    }
    let mut decided = lock(slot);
    let result = match SharedTurn::decide(&decided, tried) {
        SharedTurn::FailAsItIs { code, failure } => {
            return evident_step(turn.observer, Evidence::cause_of(failure), code);
        }
        SharedTurn::RunProven(code) => {
            return match turn.exec.execute(&code) {
                Ok(()) => StepResult::Passed {
                    source: StepSource::Cached,
                    by: None,
                    code,
                    proof: None,
                },
                Err(failed) => match skip_or_fail(failed, turn.exec, turn.context) {
                    Ok(reason) => StepResult::Skipped(reason),
                    Err(failed) => evident_step(turn.observer, Evidence::cause_of(failed), code),
                },
            };
        }
        SharedTurn::FailLikeTheOther(failure) => return StepResult::Failed { failure },
        SharedTurn::AfterFailure { code, failure } => after_failure(
            code,
            failure,
            Mode::Run { heal: turn.heal },
            Some(turn.engine),
            turn.context,
            turn.exec,
            turn.observer,
        ),
        SharedTurn::Generate => generate(turn.engine, turn.context, turn.exec, turn.observer),
    };
    match &result {
        StepResult::Passed {
            source: StepSource::Generated | StepSource::Healed,
            code,
            ..
        } => *decided = Slot::Proven(code.clone()),
        // Only what the engine decided is shared, not what this test's deadline cut short.
        StepResult::Failed { failure }
            if matches!(failure.cause, FailureCause::Engine(_)) && Instant::now() < deadline =>
        {
            *decided = Slot::Failed(failure.clone());
        }
        _ => {}
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::Category;

    fn failure(message: &str) -> StepFailure {
        StepFailure::new(crate::script::FailureKind::Script, message.to_owned())
    }

    #[test]
    fn proven_code_that_fails_again_fails_as_it_is() {
        let slot = Slot::Proven("proven()".into());
        assert_eq!(
            SharedTurn::decide(&slot, Some(("proven()".into(), failure("boom")))),
            SharedTurn::FailAsItIs {
                code: "proven()".into(),
                failure: failure("boom")
            }
        );
    }

    #[test]
    fn code_another_test_proved_meanwhile_runs_instead() {
        let slot = Slot::Proven("new()".into());
        assert_eq!(
            SharedTurn::decide(&slot, Some(("old()".into(), failure("boom")))),
            SharedTurn::RunProven("new()".into())
        );
        assert_eq!(
            SharedTurn::decide(&slot, None),
            SharedTurn::RunProven("new()".into())
        );
    }

    #[test]
    fn a_step_the_engine_gave_up_on_fails_every_test_the_same_way() {
        let given_up = Box::new(TestFailure::at(
            "open the app".into(),
            1,
            2,
            FailureCause::CacheMiss,
        ));
        let slot = Slot::Failed(given_up.clone());
        assert_eq!(
            SharedTurn::decide(&slot, Some(("old()".into(), failure("boom")))),
            SharedTurn::FailLikeTheOther(given_up.clone())
        );
        assert_eq!(
            SharedTurn::decide(&slot, None),
            SharedTurn::FailLikeTheOther(given_up)
        );
    }

    #[test]
    fn an_undecided_step_is_healed_after_its_code_failed_and_generated_without_code() {
        assert_eq!(
            SharedTurn::decide(&Slot::Undecided, Some(("old()".into(), failure("boom")))),
            SharedTurn::AfterFailure {
                code: "old()".into(),
                failure: failure("boom")
            }
        );
        assert_eq!(
            SharedTurn::decide(&Slot::Undecided, None),
            SharedTurn::Generate
        );
    }

    #[test]
    fn an_app_that_cannot_be_reached_or_a_missing_setting_is_reported_as_it_is() {
        for kind in [FailureKind::Unreachable, FailureKind::Misconfigured] {
            let failure = StepFailure::new(kind, "it says what it is");
            assert_eq!(
                Evidence::of(failure.clone()),
                Evidence::Decides(FailureCause::Step(failure)),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn an_http_5xx_main_document_is_a_product_defect_from_evidence() {
        let failure = StepFailure::new(
            FailureKind::AppError,
            "page.goto: the app answered HTTP 500 Internal Server Error for http://a/",
        );
        let Evidence::Decides(FailureCause::Engine(defect)) = Evidence::of(failure.clone()) else {
            panic!("decided as the engine's product defect");
        };
        assert_eq!(defect.kind, crate::engine::EngineFailureKind::ProductDefect);
        let verdict = defect.verdict.clone().expect("a verdict from evidence");
        assert_eq!(verdict.category, Category::ProductDefect);
        assert_eq!(
            verdict.source,
            crate::llm::VerdictSource::Evidence { llm: None }
        );
        assert_eq!(verdict.explanation, failure.message);
        assert!(
            defect.message().ends_with(&failure.message),
            "{}",
            defect.message()
        );
    }

    #[test]
    fn the_engine_decides_every_other_failure_crashes_included() {
        for kind in FailureKind::ALL.into_iter().filter(|kind| {
            !matches!(
                kind,
                FailureKind::Unreachable
                    | FailureKind::Misconfigured
                    | FailureKind::AppError
                    | FailureKind::Blocked
                    | FailureKind::VisualMismatch
                    | FailureKind::AccessibilityViolation
            )
        }) {
            let failure = StepFailure::new(kind, "the engine decides");
            assert_eq!(
                Evidence::of(failure.clone()),
                Evidence::Leaves(failure.clone()),
                "{kind:?}"
            );
            assert_eq!(
                Evidence::cause_of(failure.clone()),
                FailureCause::Step(failure)
            );
        }
    }
}
