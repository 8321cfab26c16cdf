//! Which failures of an `[optional]` step skip it instead of failing it: its target did not
//! appear within `[polling] optional_timeout` ([`FailureKind::Absent`], which only an optional
//! step's execution can end with), or, while its code is generated, no element for it was found
//! on the page. Every other failure of an optional step is an ordinary one.
//!
//! Main functions: [`absent_reason`] and [`generation_skip`].

use crate::engine::{EngineCause, EngineFailure, StepContext};
use crate::script::{FailureKind, StepFailure};
use crate::step::StepExecutor;
use crate::writer::{parse_sentence, write_step};

/// Why the step is skipped, when `failure` says its target did not appear.
pub(super) fn absent_reason(failure: &StepFailure) -> Option<String> {
    (failure.kind == FailureKind::Absent).then(|| failure.message.clone())
}

/// Whether a step whose code's target did not appear is skipped (`Ok`, with why) or fails
/// (`Err`): it fails when the built-in generator finds the element the sentence names on the
/// page now, since then the code's locator no longer reaches it (rot, healed like any other),
/// and a banner that is there must not be skipped as absent.
pub(super) fn skip_or_fail(
    failure: StepFailure,
    exec: &dyn StepExecutor,
    context: &StepContext<'_>,
) -> Result<String, StepFailure> {
    let Some(reason) = absent_reason(&failure) else {
        return Err(failure);
    };
    let state = exec.page_state(false, usize::MAX);
    match write_step(
        &context.key.step,
        context.columns,
        &state.snapshot,
        &state.structure,
    ) {
        Ok(_) => Err(StepFailure::new(
            FailureKind::Timeout,
            format!(
                "{reason}, but the element the sentence names is on the page: the step's code \
                 no longer finds it"
            ),
        )),
        Err(_) => Ok(reason),
    }
}

/// Why an optional step whose code could not be generated is skipped: a candidate's target did
/// not appear, or the built-in generator read the sentence and no element on the page is the one
/// it names. Any other decline (a sentence it cannot read, a name several elements fit) is not
/// about a missing target, and fails as usual.
pub(super) fn generation_skip(
    optional: bool,
    context: &StepContext<'_>,
    decided: &EngineFailure,
) -> Option<String> {
    if !optional {
        return None;
    }
    match decided.cause.as_deref()? {
        EngineCause::Step(failure) => absent_reason(failure),
        EngineCause::Declined { why, missing } => (*missing
            && parse_sentence(&context.key.step, context.columns).is_ok())
        .then(|| why.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_absent_target_skips() {
        for kind in FailureKind::ALL {
            let failure = StepFailure::new(kind, "\"Accept\" did not appear within 2s");
            assert_eq!(
                absent_reason(&failure).is_some(),
                kind == FailureKind::Absent,
                "{kind:?}"
            );
        }
    }
}
