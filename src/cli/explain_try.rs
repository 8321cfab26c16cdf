//! The `try:` rewrites of `explain`: a rewrite of a declined sentence is offered only after the
//! built-in generator read it on the page and its code passed there, and, for a check, after the
//! mutation proof saw it fail on a page that contradicts it. A check runs on the page the step
//! is explained on (it only reads, and the proof restores what it changes); an action runs on a
//! fresh page reached the same way, because it would change the page the other rewrites are
//! tried on. The rewrites read but not offered are kept with why, to be listed instead.
//!
//! Main function: [`try_rewrites`]; what it returns is a [`Rewrites`].

use crate::cache::ProofRecord;
use crate::config::Settings;
use crate::engine::{StepProof, audit_record};
use crate::scenario::StepArgument;
use crate::script::{PageState, StepFailure};
use crate::step::{LivePage, SettleWindow, StepExecutor};
use crate::writer::{explain as explain_sentence, reads_as_check, rewrite_candidates};

/// How many rewrites the built-in generator reads are tried on the page.
const TRIED: usize = 4;

/// The most rewrites offered.
const OFFERED: usize = 3;

/// Runs the code of an action rewrite on a fresh page that the explained step's test reaches
/// the same way, and says why it could not run when it did not pass.
pub(super) type Trial<'a> = &'a dyn Fn(&str) -> Result<(), String>;

/// The rewrites of a declined sentence: those offered, and those read but not offered.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct Rewrites {
    /// Read, passed and (for a check) proven on the page: the `try:` lines.
    pub offered: Vec<String>,
    /// Read on the page, but not offered: each with why.
    pub seen: Vec<Seen>,
}

/// A rewrite that was read but not offered, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Seen {
    pub sentence: String,
    pub why: String,
}

/// Tries the rewrites of `sentence` that the built-in generator reads on the page of `state`
/// (that of `live`), and keeps those that pass there and are proven.
pub(super) fn try_rewrites(
    live: &LivePage,
    settings: &Settings,
    sentence: &str,
    columns: &[String],
    argument: Option<&StepArgument>,
    state: &PageState,
    trial: Trial<'_>,
) -> Rewrites {
    let mut rewrites = Rewrites::default();
    let candidates =
        rewrite_candidates(sentence, columns, &state.snapshot, &state.structure, TRIED);
    for candidate in candidates {
        if rewrites.offered.len() == OFFERED {
            break;
        }
        let tried = explain_sentence(&candidate, columns, &state.snapshot, &state.structure)
            .code
            .map_err(|why| format!("the built-in generator declines it: {why}"))
            .and_then(|code| {
                if reads_as_check(&candidate, columns) {
                    prove_check(live, settings, &candidate, columns, argument, &code)
                } else {
                    trial(&code).map_err(|why| {
                        format!("its code failed on a fresh page the test reaches: {why}")
                    })
                }
            });
        match tried {
            Ok(()) => rewrites.offered.push(candidate),
            Err(why) => rewrites.seen.push(Seen {
                sentence: candidate,
                why,
            }),
        }
    }
    rewrites
}

/// Runs the code of a check rewrite on `live`'s page and proves it: `Ok` only when it passed,
/// kept to the allowed origins, and a mutation that contradicts it made it fail.
fn prove_check(
    live: &LivePage,
    settings: &Settings,
    sentence: &str,
    columns: &[String],
    argument: Option<&StepArgument>,
    code: &str,
) -> Result<(), String> {
    let no_retry = |_: u32, _: &StepFailure| {};
    let exec = live
        .executor(SettleWindow::new(&settings.polling, None), &no_retry)
        .with_argument(argument);
    // Like any rewrite's trial (`run_trial`), a check that reached an origin it may not is
    // never offered.
    exec.check(code)
        .and_then(|()| exec.execute(code))
        .and_then(|()| exec.kept_to_origins())
        .map_err(|failure| format!("its check does not hold here: {}", first_line(&failure)))?;
    match audit_record(&exec, code, sentence, columns) {
        Ok(Some(StepProof::Recorded(ProofRecord::Proven(_)))) => Ok(()),
        Ok(Some(StepProof::Recorded(ProofRecord::None(why)))) => Err(format!(
            "its check passes, but no change to the page could prove it: {why}"
        )),
        Ok(Some(StepProof::Vacuous(why))) => Err(format!("its check cannot fail: {why}")),
        Ok(None) => Err("its code checks nothing".to_owned()),
        Err(failure) => Err(format!(
            "its proof could not finish or restore the page: {}",
            first_line(&failure)
        )),
    }
}

/// The first line of a failure's message: the rest is the call log.
pub(super) fn first_line(failure: &StepFailure) -> &str {
    failure.message.lines().next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::FailureKind;

    #[test]
    fn a_failure_is_told_by_its_first_line() {
        let failure = StepFailure::new(
            FailureKind::FailedCheck,
            "expect(locator).toHaveText(expected) failed\n\nCall log:\n  - waiting",
        );
        assert_eq!(
            first_line(&failure),
            "expect(locator).toHaveText(expected) failed"
        );
    }
}
