//! The engine's side of the mutation proof: which code is a check, and what a proof means for
//! code that passed (what a sentence claims is `claims.rs`). A check that still passes when the
//! page contradicts its sentence is never cached: generation feeds it back to its writer,
//! healing refuses it like a veto, and a heal must fail under every kind of mutation the cached
//! check failed under.
//!
//! Main type: [`Proven`], made by [`Engine::proof_of`]. The proof itself runs in the `step`
//! layer (`step/proof.rs`).

use std::fmt;

use crate::cache::{MutationKind, ProofRecord, Unproven};
use crate::engine::checks::Checks;
use crate::engine::claims::{ClaimSet, claims_of};
use crate::engine::engine::{Engine, StepContext};
use crate::engine::not_a_read::NotARead;
use crate::script::{FailureKind, READING_SCRIPTS, StepFailure, refused_in_proof};
use crate::step::{Proof, StepExecutor};
use crate::writer::{check_clause, reads_as_check};

/// The first method `checks`'s code calls that a proof run would refuse (`click`), by the
/// binding's table of calls. Such code is not run again for a proof: the binding would refuse
/// the call anyway, and the run could fail first on a check the action had already made untrue
/// (`expect(button).toBeEnabled(); click()`).
fn first_action(checks: &Checks) -> Option<&str> {
    checks
        .calls
        .iter()
        .map(String::as_str)
        // A page script that only reads runs in a proof run like any read.
        .filter(|name| checks.opaque_scripts > 0 || !READING_SCRIPTS.contains(name))
        .find(|name| refused_in_proof(name))
}

/// What a proof means for code that passed.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Proven {
    /// Cache it, recording this (`None`: the code checks nothing, so there was nothing to
    /// prove).
    Record(Option<ProofRecord>),
    /// The check cannot fail: the failure says under which mutation it still passed.
    Vacuous(StepFailure),
    /// The proof could not finish; the page may not be as it was.
    Broken(StepFailure),
}

/// Whether code that reads as `checks` checks anything: an assertion or a `throw` that always
/// runs, or, for a check sentence (`is_check`), a wait for the page. Code that only acts has no
/// check to prove, and a wait in an action's code only waits for the page to be ready.
fn checks_anything(checks: &Checks, is_check: bool) -> bool {
    !checks.assertions.is_empty() || checks.throws > 0 || (is_check && !checks.waits.is_empty())
}

/// The mutation kinds the cached check failed under that the healed check's proof lacks.
pub(super) fn lost_kinds(
    cached: Option<&ProofRecord>,
    healed: Option<&ProofRecord>,
) -> Vec<MutationKind> {
    ProofRecord::lost(cached, healed)
}

/// What a run says about the proof of a passed step's checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepProof {
    /// The record its cache entry holds (or the one a generation or heal wrote, or `prettyplay
    /// audit` made).
    Recorded(ProofRecord),
    /// `prettyplay audit` only: the check still passes on a page that contradicts its
    /// sentence, and this says how (`it still passes when ... (a substring match)`).
    Vacuous(String),
}

impl fmt::Display for StepProof {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepProof::Recorded(record) => record.fmt(f),
            StepProof::Vacuous(why) => write!(f, "{VACUOUS}{why}"),
        }
    }
}

impl StepProof {
    /// The proof as [`Display`](fmt::Display) writes it, read back (a report merged from a
    /// blob keeps only the text); `None` for any other text.
    pub(crate) fn from_text(text: &str) -> Option<StepProof> {
        match text.strip_prefix(VACUOUS) {
            Some(why) => Some(StepProof::Vacuous(why.to_owned())),
            None => ProofRecord::from_text(text).map(StepProof::Recorded),
        }
    }
}

/// The proof of cached `code` that just passed, as `prettyplay audit` reports it: `None` for
/// code that checks nothing, else the cache's record (`proven: ...`, `none: ...`) or that it
/// is vacuous (`vacuous: it still passes when ... (why)`). `Err` when the proof could not
/// finish or restore the page: the step fails.
pub(crate) fn audit_record(
    exec: &dyn StepExecutor,
    code: &str,
    sentence: &str,
    columns: &[String],
) -> Result<Option<StepProof>, StepFailure> {
    let Some(proof) = proof_for(exec, code, sentence, columns, Reading::Judged) else {
        return Ok(None);
    };
    Ok(match &proof {
        Proof::Proven(_) | Proof::Unproven(_) => proof.record().map(StepProof::Recorded),
        Proof::Vacuous { mutation, why } => Some(StepProof::Vacuous(match mutation {
            Some(m) => format!("it still passes when {} ({why})", m.describe()),
            None => why.clone(),
        })),
        Proof::Broken(failure) => return Err(failure.clone()),
    })
}

/// Whether a proof judges that a check sentence's code reads ([`NotARead`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    Judged,
    /// A heal the user lets through with the heal veto off (`heal.veto = false`), which covers
    /// these static rules as it covers the veto's.
    LetThrough,
}

/// The mutation proof of `code`, which just passed on the page for `sentence` (whose examples
/// table has `columns`): `None` when it checks nothing; unproven without running it again when
/// it acts (an action found in its source); vacuous, for a sentence that reads as a check, when
/// its execution sent a request that writes, caught or not, or (when `reading` is judged) when
/// its code is no check ([`NotARead`]: it acts before it checks, computes its answer, declares
/// its own `page` or asserts nothing).
fn proof_for(
    exec: &dyn StepExecutor,
    code: &str,
    sentence: &str,
    columns: &[String],
    reading: Reading,
) -> Option<Proof> {
    let is_check = is_check_sentence(sentence, columns);
    if let Some(method) = exec.sent_write()
        && is_check
    {
        return Some(Proof::Vacuous {
            mutation: None,
            why: format!(
                "it sends a {method} request, which can make true what it checks; a check only \
                 reads (GET or HEAD)"
            ),
        });
    }
    // Code the parser cannot read was refused before it ran; it is proven like any other, so
    // it is never cached unproven.
    let checks = Checks::of(code).ok();
    if reading == Reading::Judged
        && is_check
        && let Some(why) = checks.as_ref().and_then(NotARead::of)
    {
        return Some(Proof::Vacuous {
            mutation: None,
            why: why.to_string(),
        });
    }
    if checks
        .as_ref()
        .is_some_and(|checks| !checks_anything(checks, is_check))
    {
        return None;
    }
    if let Some(action) = checks.as_ref().and_then(first_action) {
        return Some(Proof::Unproven(Unproven::Acts(action.to_owned())));
    }
    Some(exec.prove(code, &claims_of(sentence)))
}

/// Whether `sentence` is a check as a whole, as it is classified before any code is written
/// for it ([`check_clause`]): the built-in grammar reads it as one, or it is said as one
/// (`expect the payment to be visible`, `verify that ...`). A compound sentence whose check is
/// one clause of several may act in its other clauses.
fn is_check_sentence(sentence: &str, columns: &[String]) -> bool {
    check_clause(sentence, columns).is_some_and(|clause| clause == sentence.trim())
}

/// The start of an audit record of a check that cannot fail.
const VACUOUS: &str = "vacuous: ";

impl Engine<'_> {
    /// Runs the mutation proof of `code`, which just passed on the page, when it checks
    /// anything.
    pub(super) fn proof_of(
        &self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        code: &str,
    ) -> Proven {
        // A step with cached code is being healed (generation starts from none).
        let reading = if self.policy.veto || self.cached_code(step).is_none() {
            Reading::Judged
        } else {
            Reading::LetThrough
        };
        let Some(proof) = proof_for(exec, code, &step.key.step, step.columns, reading) else {
            return Proven::Record(None);
        };
        match proof {
            Proof::Proven(_) | Proof::Unproven(_) => Proven::Record(proof.record()),
            Proof::Vacuous { .. } => Proven::Vacuous(StepFailure::new(
                FailureKind::Script,
                proof.vacuous_message().unwrap_or_default(),
            )),
            Proof::Broken(failure) => Proven::Broken(failure),
        }
    }

    /// The code the cache holds for the step, if any.
    fn cached_code(&self, step: &StepContext<'_>) -> Option<String> {
        let file = self.cache.load(&step.scenario.rel_path).ok().flatten()?;
        file.get(&step.key).map(|entry| entry.code.clone())
    }

    /// The mutation kinds a healed check's proof (`healed`) lacks: those the cached check
    /// failed under, or, when the cache records no proof of a check (none at all, or one that
    /// tried nothing), everything the sentence claims ([`ClaimSet::floor`]).
    pub(super) fn lost_under(
        &self,
        step: &StepContext<'_>,
        healed: Option<&ProofRecord>,
    ) -> Vec<MutationKind> {
        let cached = self.cached_proof(step);
        if let Some(record @ ProofRecord::Proven(_)) = &cached {
            return lost_kinds(Some(record), healed);
        }
        // The floor is part of the heal veto: with the veto off (`heal.veto = false`) only what
        // the cache recorded is compared.
        if !self.policy.veto || !reads_as_check(&step.key.step, step.columns) {
            return lost_kinds(cached.as_ref(), healed);
        }
        let after = healed.map_or(&[][..], ProofRecord::kinds);
        ClaimSet::of(&step.key.step)
            .floor()
            .into_iter()
            .filter(|kind| !after.contains(kind))
            .collect()
    }

    /// The proof the cache holds for the step's current code, if any.
    pub(super) fn cached_proof(&self, step: &StepContext<'_>) -> Option<ProofRecord> {
        let file = self.cache.load(&step.scenario.rel_path).ok().flatten()?;
        file.get(&step.key)?.proof.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cache::Author;
    use crate::engine::testing::{Fixture, code_reply, passes, run_engine_proving, verdict_reply};
    use crate::engine::{EngineCause, EngineFailureKind};
    use crate::llm::Category;
    use crate::script::Mutation;

    /// A check of step 1 ("the counter says "1 item left"") that passes on "11 item left".
    const LOOSE: &str = "async function step(page) {\n  await expect(page.getByText('1 item left')).toBeVisible();\n}";
    const EXACT: &str = "async function step(page) {\n  await expect(page.getByText('1 item left', { exact: true })).toBeVisible();\n}";
    /// A heal of [`EXACT`] the static veto accepts (a selector change); the proof decides.
    const SCOPED: &str = "async function step(page) {\n  await expect(page.locator('.todo-count').getByText('1 item left', { exact: true })).toBeVisible();\n}";

    fn read(code: &str) -> Checks {
        Checks::of(code).unwrap()
    }

    fn record(text: &str) -> ProofRecord {
        ProofRecord::from_text(text).unwrap()
    }

    fn lost(cached: Option<&str>, healed: Option<&str>) -> Vec<&'static str> {
        let (cached, healed) = (cached.map(record), healed.map(record));
        lost_kinds(cached.as_ref(), healed.as_ref())
            .into_iter()
            .map(MutationKind::as_str)
            .collect()
    }

    fn vacuous() -> Proof {
        Proof::Vacuous {
            mutation: Some(Mutation::Text {
                needle: "1 item left".into(),
                edit: crate::script::TextEdit::Prefix("1".into()),
                scope: None,
                whole: false,
            }),
            why: "a substring match".into(),
        }
    }

    fn proven(kinds: &[Mutation]) -> Proof {
        Proof::Proven(kinds.to_vec())
    }

    #[test]
    fn a_generated_check_that_cannot_fail_goes_back_to_the_writer_and_is_never_cached() {
        let ran = run_engine_proving(
            Fixture::new(),
            1,
            (3, 2),
            [code_reply(LOOSE), code_reply(EXACT)],
            [passes(LOOSE), passes(EXACT)],
            [vacuous(), proven(&[Mutation::Hide("x".into())])],
            |engine, step, exec, observer| engine.generate(step, exec, observer),
        );
        let written = ran.result.as_ref().expect("the exact check is kept");
        assert_eq!((written.code.as_str(), written.by), (EXACT, Author::Llm));
        assert_eq!(
            written.proof.as_ref().map(ToString::to_string).as_deref(),
            Some("proven: hidden")
        );
        let failed = ran.received[1].generation().failed.clone().unwrap();
        assert_eq!(failed.code, LOOSE);
        assert!(
            failed.error.contains(
                "still passes when the page reads \"11 item left\" instead of \"1 item left\" (a substring match)"
            ),
            "{}",
            failed.error
        );
        let entry = ran.fixture.cached(1).unwrap();
        assert_eq!(entry.code, format!("{EXACT}\n"));
        assert_eq!(
            entry.proof.as_ref().map(ToString::to_string).as_deref(),
            Some("proven: hidden")
        );
    }

    #[test]
    fn code_that_acts_is_cached_with_a_proof_of_none_that_says_why() {
        let ran = run_engine_proving(
            Fixture::new(),
            1,
            (3, 2),
            [code_reply(LOOSE)],
            [passes(LOOSE)],
            [Proof::Unproven(Unproven::Acts("click".into()))],
            |engine, step, exec, observer| engine.generate(step, exec, observer),
        );
        assert!(ran.result.is_ok());
        assert_eq!(
            ran.fixture
                .cached(1)
                .unwrap()
                .proof
                .as_ref()
                .map(ToString::to_string)
                .as_deref(),
            Some("none: the step acts on the page (click)")
        );
    }

    fn healed(
        cached_proof: Option<&str>,
        proofs: Vec<Proof>,
    ) -> crate::engine::testing::Ran<crate::engine::Written> {
        let fixture = Fixture::new();
        let key = fixture.step(1).key;
        fixture
            .cache
            .put_written(
                &fixture.scenario,
                &key,
                EXACT,
                "2026-11-30",
                false,
                Author::Llm,
                cached_proof.map(record).as_ref(),
            )
            .unwrap();
        let failure = StepFailure::new(
            FailureKind::FailedCheck,
            "expect(locator).toBeVisible() failed",
        );
        run_engine_proving(
            fixture,
            1,
            (3, 2),
            [
                verdict_reply(Category::Rot, "the counter moved"),
                code_reply(SCOPED),
            ],
            [passes(SCOPED)],
            proofs,
            move |engine, step, exec, observer| engine.heal(step, exec, observer, EXACT, &failure),
        )
    }

    #[test]
    fn a_heal_whose_check_cannot_fail_is_vetoed_naming_the_mutation() {
        let ran = healed(Some("proven: hidden"), vec![vacuous()]);
        let failure = ran.result.as_ref().unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::HealVetoed);
        let Some(EngineCause::Vetoed { veto, .. }) = failure.cause.as_deref() else {
            panic!("{failure:?}")
        };
        assert!(veto.contains("reads \"11 item left\""), "{veto}");
        assert_eq!(
            ran.fixture.cached(1).unwrap().code,
            format!("{EXACT}\n"),
            "the cache is untouched"
        );
    }

    #[test]
    fn a_heal_must_fail_under_every_kind_of_mutation_the_cached_check_failed_under() {
        let ran = healed(
            Some("proven: hidden, text-prefixed"),
            vec![proven(&[Mutation::Hide("x".into())])],
        );
        let failure = ran.result.as_ref().unwrap_err();
        assert_eq!(failure.kind, EngineFailureKind::HealVetoed);
        let Some(EngineCause::Vetoed { veto, .. }) = failure.cause.as_deref() else {
            panic!("{failure:?}")
        };
        assert!(veto.contains("(text-prefixed)"), "{veto}");
        assert_eq!(ran.fixture.cached(1).unwrap().code, format!("{EXACT}\n"));

        let kept = healed(
            Some("proven: hidden"),
            vec![proven(&[
                Mutation::Hide("x".into()),
                Mutation::Remove("y".into()),
            ])],
        );
        let written = kept
            .result
            .as_ref()
            .expect("a heal as strong as the cache is kept");
        assert_eq!(
            written.proof.as_ref().map(ToString::to_string).as_deref(),
            Some("proven: hidden, removed")
        );
        let entry = kept.fixture.cached(1).unwrap();
        assert_eq!(
            entry.proof.as_ref().map(ToString::to_string).as_deref(),
            Some("proven: hidden, removed")
        );
        assert!(entry.healed.is_some());
    }

    #[test]
    fn the_first_action_a_code_calls_is_found() {
        assert_eq!(
            first_action(&read(
                "async function step(page) { await expect(b).toBeEnabled(); await b.click(); \
                 await x.fill('a'); }"
            )),
            Some("click")
        );
        assert_eq!(
            first_action(&read("async function step(page) { await page.goto('/'); }")),
            Some("goto")
        );
        assert_eq!(
            first_action(&read(
                "async function step(page) { await expect(b).toBeVisible(); }"
            )),
            None
        );
    }

    #[test]
    fn a_page_script_is_an_action_unless_every_page_script_of_the_code_only_reads() {
        let reading = [
            "expect(await page.evaluate(() => document.title)).toBe('Todos');",
            "await page.waitForFunction(\"document.querySelector('.count').textContent === '2'\");",
            "expect(await page.$eval('.count', (el) => el.textContent.trim())).toBe('2');",
            "expect(await page.locator('li').evaluateAll((els) => els.length)).toBe(2);",
        ];
        for body in reading {
            let code = format!("async function step(page) {{ {body} }}");
            assert_eq!(first_action(&read(&code)), None, "{body}");
        }
        let acting = [
            (
                "await page.evaluate(() => localStorage.setItem('k', 'v')); await expect(x).toBeVisible();",
                "evaluate",
            ),
            (
                "const f = () => document.title; expect(await page.evaluate(f)).toBe('Todos');",
                "evaluate",
            ),
            (
                "expect(await page.evaluate(() => document.title)).toBe('T'); await page.evaluate(() => fetch('/x'));",
                "evaluate",
            ),
        ];
        for (body, action) in acting {
            let code = format!("async function step(page) {{ {body} }}");
            assert_eq!(first_action(&read(&code)), Some(action), "{body}");
        }
    }

    #[test]
    fn code_that_only_acts_checks_nothing() {
        assert!(!checks_anything(
            &read("async function step(page) { await page.getByRole('button').click(); }"),
            true
        ));
        assert!(checks_anything(
            &read("async function step(page) { await expect(page.getByText('x')).toBeVisible(); }"),
            false
        ));
        assert!(checks_anything(
            &read(
                "async function step(page) { if (!(await page.title())) throw new Error('no title'); }"
            ),
            false
        ));
    }

    #[test]
    fn a_wait_checks_for_a_check_sentence_only() {
        let wait = read("async function step(page) { await page.getByText('x').waitFor(); }");
        assert!(checks_anything(&wait, true));
        assert!(
            !checks_anything(&wait, false),
            "an action's wait only waits for the page to be ready"
        );
    }

    #[test]
    fn a_sentence_is_a_check_as_a_whole_or_said_as_one() {
        for sentence in [
            "the counter says \"2 items left\"",
            "Verify the counter shows \"1 item left\"",
            "expect the payment to be visible",
            "expect the receipt to mention \"Paid\"",
        ] {
            assert!(is_check_sentence(sentence, &[]), "{sentence}");
        }
        // Said as a check, though no built-in check shape reads it: the model writes its code,
        // and the rules of a check hold for it all the same.
        assert!(!reads_as_check(
            "expect the receipt to mention \"Paid\"",
            &[]
        ));
        for sentence in [
            "click \"Show payment\" and the page says \"Paid\"",
            "add a todo \"buy milk\"",
            "wait for the list",
        ] {
            assert!(!is_check_sentence(sentence, &[]), "{sentence}");
        }
    }

    #[test]
    fn a_heal_loses_the_kinds_its_proof_lacks() {
        assert_eq!(
            lost(
                Some("proven: hidden, text-prefixed"),
                Some("proven: hidden")
            ),
            ["text-prefixed"]
        );
        assert!(lost(Some("proven: hidden"), Some("proven: removed, hidden")).is_empty());
        assert_eq!(
            lost(
                Some("proven: hidden"),
                Some("none: the step acts on the page (click)")
            ),
            ["hidden"]
        );
        assert!(lost(None, None).is_empty());
        assert!(lost(Some("none: no mutation contradicts what it checks"), None).is_empty());
    }
}
