//! The engine's side of the mutation proof: what a sentence claims, which code is a check, and
//! what a proof means for code that passed. A check that still passes when the page
//! contradicts its sentence is never cached: generation feeds it back to its writer, healing
//! refuses it like a veto, and a heal must fail under every kind of mutation the cached check
//! failed under.
//!
//! Main type: [`Proven`], made by [`Engine::proof_of`]. The proof itself runs in the `step`
//! layer (`step/proof.rs`).

use crate::engine::checks::Checks;
use crate::engine::engine::{Engine, StepContext};
use crate::engine::reads_as_check;
use crate::engine::sentence::quoted_literals;
use crate::script::{FailureKind, StepFailure};
use crate::step::{Claims, Proof, StepExecutor, Unproven, recorded_kinds};

/// Words that make a sentence say something is absent.
const NEGATIONS: &[&str] = &[
    "not",
    "no",
    "never",
    "without",
    "hidden",
    "gone",
    "disappears",
    "disappeared",
    "removed",
    "absent",
    "nothing",
    "none",
    "empty",
    "isn't",
    "aren't",
    "doesn't",
    "don't",
    "cannot",
    "can't",
    "longer",
];

/// Playwright methods that act on the page: code that calls one is not run again for a proof.
/// The binding refuses them in a proof run too; this list only spares a run that would fail on
/// a check the action had already made untrue (`expect(button).toBeEnabled(); click()`).
const ACTIONS: &[&str] = &[
    "click",
    "dblclick",
    "tap",
    "fill",
    "press",
    "pressSequentially",
    "type",
    "check",
    "uncheck",
    "setChecked",
    "hover",
    "focus",
    "blur",
    "clear",
    "selectOption",
    "selectText",
    "dragTo",
    "dragAndDrop",
    "dispatchEvent",
    "setInputFiles",
    "goto",
    "reload",
    "goBack",
    "goForward",
    "evaluate",
    "evaluateAll",
    "evaluateHandle",
    "$eval",
    "$$eval",
    "waitForFunction",
    "setViewportSize",
    "bringToFront",
    "scrollIntoViewIfNeeded",
    "addScriptTag",
    "addStyleTag",
    "setContent",
    "waitForEvent",
    "accept",
    "dismiss",
    "down",
    "up",
    "move",
    "wheel",
    "insertText",
];

/// The first action `code` calls (`.click(`), if any, by its source text.
fn first_action(code: &str) -> Option<&'static str> {
    let mut first: Option<(usize, &'static str)> = None;
    for action in ACTIONS {
        let call = format!(".{action}(");
        if let Some(at) = code.find(&call)
            && first.is_none_or(|(earliest, _)| at < earliest)
        {
            first = Some((at, action));
        }
    }
    first.map(|(_, action)| action)
}

/// What a proof means for code that passed.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Proven {
    /// Cache it, recording this (`None`: the code checks nothing, so there was nothing to
    /// prove).
    Record(Option<String>),
    /// The check cannot fail: the failure says under which mutation it still passed.
    Vacuous(StepFailure),
    /// The proof could not finish; the page may not be as it was.
    Broken(StepFailure),
}

/// What `sentence` claims that a mutation can contradict.
pub(crate) fn claims_of(sentence: &str) -> Claims {
    let quoted: Vec<String> = quoted_literals(sentence)
        .into_iter()
        .filter(|q| {
            let placeholder = q.contains("${") || (q.starts_with('<') && q.ends_with('>'));
            !placeholder
        })
        .collect();
    let mut outside = sentence.to_owned();
    for q in &quoted {
        outside = outside.replace(q.as_str(), " ");
    }
    let words: Vec<String> = outside
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().replace('’', "'"))
        .collect();
    let numbers = words
        .iter()
        .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
        .cloned()
        .fold(Vec::new(), |mut all: Vec<String>, n| {
            if !all.contains(&n) {
                all.push(n);
            }
            all
        });
    let negative = words.iter().any(|w| NEGATIONS.contains(&w.as_str()))
        || words.iter().any(|w| w.ends_with("n't"));
    Claims {
        quoted,
        numbers,
        negative,
    }
}

/// Whether `code` checks anything: an assertion or a `throw` that always runs. Code that only
/// acts has no check to prove.
pub(super) fn checks_anything(code: &str) -> bool {
    match Checks::of(code) {
        Ok(checks) => !checks.assertions.is_empty() || checks.throws > 0,
        // Code the parser cannot read was refused before it ran; treat it as a check so it is
        // never cached unproven.
        Err(_) => true,
    }
}

/// The mutation kinds the cached check failed under that the healed check's proof lacks.
pub(super) fn lost_kinds(cached: Option<&str>, healed: Option<&str>) -> Vec<String> {
    let before = cached.map(recorded_kinds).unwrap_or_default();
    let after = healed.map(recorded_kinds).unwrap_or_default();
    before.into_iter().filter(|k| !after.contains(k)).collect()
}

/// The proof of cached `code` that just passed, as `prettyplay audit` reports it: `None` for
/// code that checks nothing, else the cache's record (`proven: ...`, `none: ...`) or
/// `vacuous: it still passes when ... (why)`.
pub(crate) fn audit_record(
    exec: &dyn StepExecutor,
    code: &str,
    sentence: &str,
    columns: &[String],
) -> Option<String> {
    let proof = proof_for(exec, code, sentence, columns)?;
    match &proof {
        Proof::Proven(_) | Proof::Unproven(_) => proof.record(),
        Proof::Vacuous { mutation, why } => Some(match mutation {
            Some(m) => format!("{VACUOUS}it still passes when {} ({why})", m.describe()),
            None => format!("{VACUOUS}{why}"),
        }),
        Proof::Broken(failure) => Some(format!(
            "none: the proof could not finish ({})",
            failure.message.lines().next().unwrap_or_default()
        )),
    }
}

/// The mutation proof of `code`, which just passed on the page for `sentence` (whose examples
/// table has `columns`): `None` when it checks nothing; unproven without running it again when
/// it acts (an action found in its source); vacuous, for a sentence that reads as a check, when
/// its execution sent a request that writes, caught or not.
fn proof_for(
    exec: &dyn StepExecutor,
    code: &str,
    sentence: &str,
    columns: &[String],
) -> Option<Proof> {
    if let Some(method) = exec.sent_write()
        && reads_as_check(sentence, columns)
    {
        return Some(Proof::Vacuous {
            mutation: None,
            why: format!(
                "it sends a {method} request, which can make true what it checks; a check only \
                 reads (GET or HEAD)"
            ),
        });
    }
    if !checks_anything(code) {
        return None;
    }
    if let Some(action) = first_action(code) {
        return Some(Proof::Unproven(Unproven::Acts(action.to_owned())));
    }
    Some(exec.prove(code, &claims_of(sentence)))
}

/// The start of an audit record of a check that cannot fail.
pub(crate) const VACUOUS: &str = "vacuous: ";

impl Engine<'_> {
    /// Runs the mutation proof of `code`, which just passed on the page, when it checks
    /// anything.
    pub(super) fn proof_of(
        &self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        code: &str,
    ) -> Proven {
        let Some(proof) = proof_for(exec, code, &step.key.step, step.columns) else {
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

    /// The proof the cache holds for the step's current code, if any.
    pub(super) fn cached_proof(&self, step: &StepContext<'_>) -> Option<String> {
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
        assert_eq!(written.proof.as_deref(), Some("proven: hidden"));
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
        assert_eq!(entry.proof.as_deref(), Some("proven: hidden"));
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
            ran.fixture.cached(1).unwrap().proof.as_deref(),
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
                cached_proof,
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
        assert_eq!(written.proof.as_deref(), Some("proven: hidden, removed"));
        let entry = kept.fixture.cached(1).unwrap();
        assert_eq!(entry.proof.as_deref(), Some("proven: hidden, removed"));
        assert!(entry.healed.is_some());
    }

    #[test]
    fn claims_are_the_quoted_texts_the_numbers_outside_them_and_negation() {
        let c = claims_of("the page says \"3 items left\" and the counter shows 2");
        assert_eq!(c.quoted, ["3 items left"]);
        assert_eq!(c.numbers, ["2"]);
        assert!(!c.negative);
        assert!(claims_of("'buy milk' is no longer listed").negative);
        assert!(claims_of("the list isn't shown").negative);
        assert!(claims_of("the error is hidden").negative);
        assert!(!claims_of("the 2nd todo is completed").negative);
        assert!(claims_of("the 2nd todo is completed").numbers.is_empty());
        assert_eq!(claims_of("the list has 3 items and 3 links").numbers, ["3"]);
    }

    #[test]
    fn the_first_action_a_code_calls_is_found() {
        assert_eq!(
            first_action("await expect(b).toBeEnabled(); await b.click(); await x.fill('a');"),
            Some("click")
        );
        assert_eq!(first_action("await page.goto('/');"), Some("goto"));
        assert_eq!(first_action("await expect(b).toBeVisible();"), None);
    }

    #[test]
    fn placeholders_are_not_claims() {
        let c = claims_of("the greeting says \"${NAME}\" to '<user>'");
        assert!(c.quoted.is_empty(), "{:?}", c.quoted);
    }

    #[test]
    fn code_that_only_acts_checks_nothing() {
        assert!(!checks_anything(
            "async function step(page) { await page.getByRole('button').click(); }"
        ));
        assert!(checks_anything(
            "async function step(page) { await expect(page.getByText('x')).toBeVisible(); }"
        ));
        assert!(checks_anything(
            "async function step(page) { if (!(await page.title())) throw new Error('no title'); }"
        ));
    }

    #[test]
    fn a_heal_loses_the_kinds_its_proof_lacks() {
        assert_eq!(
            lost_kinds(
                Some("proven: hidden, text-prefixed"),
                Some("proven: hidden")
            ),
            ["text-prefixed"]
        );
        assert!(lost_kinds(Some("proven: hidden"), Some("proven: removed, hidden")).is_empty());
        assert_eq!(
            lost_kinds(
                Some("proven: hidden"),
                Some("none: the step acts on the page (click)")
            ),
            ["hidden"]
        );
        assert!(lost_kinds(None, None).is_empty());
        assert!(lost_kinds(Some("none: no mutation contradicts what it checks"), None).is_empty());
    }
}
