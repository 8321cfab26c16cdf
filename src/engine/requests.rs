//! What the model is given: the generation and classification requests of a step, built from
//! the step's context, the page as it is now and the settings. The layout they are rendered in
//! (a stable system part, a user message of what varies) is `src/llm/message.rs`'s and is
//! documented in `docs/llm.md`.
//!
//! Main functions: [`Engine::generation_request`] and [`Engine::classification_request`]; the
//! cap on the earlier steps' code is [`previous_code`].

use crate::engine::engine::{Engine, StepContext};
use crate::engine::prompts::{CLASSIFICATION_SYSTEM_PROMPT, GENERATION_SYSTEM_PROMPT};
use crate::llm::{
    BuiltinTried, ClassificationRequest, FailedAttempt, GenerationRequest, PageFacts, PreviousCode,
};
use crate::scenario::StepArgument;
use crate::step::StepExecutor;
use crate::writer::placeholders_of;

/// How many characters of earlier steps' code a generation request carries at most. The most
/// recent steps are kept whole; older ones are left out, and the request says how many.
pub(super) const PREVIOUS_CODE_BUDGET: usize = 3_000;

impl Engine<'_> {
    /// The request for the code of `step`, with the page as it is now. `healing` is the cached
    /// code being healed (its checks must be kept); `builtin` what the built-in generator tried
    /// for the step; `failed` the attempt that failed last.
    pub(super) fn generation_request(
        &self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        healing: Option<&str>,
        builtin: Option<&BuiltinTried>,
        failed: Option<FailedAttempt>,
    ) -> GenerationRequest {
        let state = exec.page_state(self.llm.send_screenshots, self.llm.snapshot_budget);
        let (previous_code, previous_code_left_out) = previous_code(step, PREVIOUS_CODE_BUDGET);
        let mut request = GenerationRequest {
            system_prompt: GENERATION_SYSTEM_PROMPT.to_owned(),
            page_api: self.page_api.to_owned(),
            step: step.key.step.clone(),
            variables: placeholders_of(&step.key.step, step.columns),
            step_argument: step_argument(step),
            previous_steps: step.previous.clone(),
            previous_code,
            previous_code_left_out,
            page: PageFacts {
                url: state.url,
                title: state.title,
                base_url: state.base_url,
            },
            page_snapshot: state.snapshot,
            screenshot: state.screenshot,
            user_instructions: Some(self.llm.generation_prompt.trim().to_owned())
                .filter(|s| !s.is_empty()),
            healing: healing.map(str::to_owned),
            builtin: builtin.cloned(),
            failed,
            deadline: self.deadline,
        };
        self.hide_secrets_in_generation(&mut request);
        request
    }

    /// The request for a verdict on a failure of `code`, with the page as it is now. Never the
    /// user instructions.
    pub(super) fn classification_request(
        &self,
        step: &StepContext<'_>,
        exec: &dyn StepExecutor,
        code: &str,
        error: &str,
    ) -> ClassificationRequest {
        let state = exec.page_state(self.llm.send_screenshots, self.llm.snapshot_budget);
        let mut request = ClassificationRequest {
            system_prompt: CLASSIFICATION_SYSTEM_PROMPT.to_owned(),
            step: step.key.step.clone(),
            code: code.to_owned(),
            error: error.to_owned(),
            page_snapshot: state.snapshot,
            screenshot: state.screenshot,
            deadline: self.deadline,
        };
        let secrets = &self.secrets;
        for text in [
            &mut request.step,
            &mut request.code,
            &mut request.error,
            &mut request.page_snapshot,
        ] {
            secrets.placeholders_in_place(text);
        }
        request
    }

    /// Every text of a generation request with each secret value written `${NAME}`: the page
    /// (snapshot, URL, title), the earlier steps and their code, the code and error of a failed
    /// attempt. This is the one place generation requests are built, so nothing else can send a
    /// secret to the LLM (a screenshot is an image: see `docs/llm.md`).
    fn hide_secrets_in_generation(&self, request: &mut GenerationRequest) {
        let secrets = &self.secrets;
        if secrets.is_empty() {
            return;
        }
        let mut texts: Vec<&mut String> = vec![
            &mut request.step,
            &mut request.page.url,
            &mut request.page.title,
            &mut request.page_snapshot,
        ];
        texts.extend(request.previous_steps.iter_mut());
        for code in &mut request.previous_code {
            texts.push(&mut code.sentence);
            texts.push(&mut code.code);
        }
        if let Some(healing) = request.healing.as_mut() {
            texts.push(healing);
        }
        if let Some(argument) = request.step_argument.as_mut() {
            texts.push(argument);
        }
        if let Some(failed) = request.failed.as_mut() {
            texts.push(&mut failed.code);
            texts.push(&mut failed.error);
        }
        match request.builtin.as_mut() {
            Some(BuiltinTried::Declined { reason }) => texts.push(reason),
            Some(
                BuiltinTried::Failed(attempt)
                | BuiltinTried::Vacuous(attempt)
                | BuiltinTried::Blocked(attempt),
            ) => {
                texts.push(&mut attempt.code);
                texts.push(&mut attempt.error);
            }
            None => {}
        }
        for text in texts {
            secrets.placeholders_in_place(text);
        }
    }
}

/// How the step's Gherkin doc string or data table reaches its code, with its content (the first
/// row's, for an outline whose rows fill it), for the STEP ARGUMENT section.
fn step_argument(step: &StepContext<'_>) -> Option<String> {
    let key = &step.key;
    let steps = match &key.test {
        None => step.scenario.background.as_slice(),
        Some(name) => step
            .scenario
            .tests
            .iter()
            .find(|t| t.identity() == name)?
            .steps
            .as_slice(),
    };
    let argument = steps
        .iter()
        .find(|s| s.sentence == key.step && s.occurrence == key.occurrence)?
        .argument
        .as_ref()?;
    Some(match argument {
        StepArgument::DocString(text) => format!(
            "The step has a doc string; step code reads it as vars.docString (a string),              e.g.:\n{text}"
        ),
        StepArgument::DataTable(rows) => format!(
            "The step has a data table; step code reads it as vars.dataTable (an array of rows,              each an array of cell strings, the first row included), e.g.:\n{}",
            serde_json::to_string(rows).unwrap_or_default()
        ),
    })
}

/// The code of the earlier steps, most recent first kept, whole steps only, while their code
/// fits in `budget` characters; in test order, with how many (the oldest) were left out.
fn previous_code(step: &StepContext<'_>, budget: usize) -> (Vec<PreviousCode>, usize) {
    let mut kept = Vec::new();
    let mut used = 0;
    for (index, (sentence, code)) in step
        .previous
        .iter()
        .zip(&step.previous_code)
        .enumerate()
        .rev()
    {
        let size = code.trim_end().chars().count();
        if used + size > budget {
            break;
        }
        used += size;
        kept.push(PreviousCode {
            number: index + 1,
            sentence: sentence.clone(),
            code: code.clone(),
        });
    }
    kept.reverse();
    let left_out = step.previous.len() - kept.len();
    (kept, left_out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::{
        Fixture, RecordingObserver, ScriptedExecutor, ScriptedLlm, code_reply, fails, passed_code,
        passes, run_engine, verdict_reply,
    };
    use crate::llm::{Category, render_generation_message, render_generation_system};
    use crate::script::{FailureKind, StepFailure};

    const OLD: &str = "async function step(page) {\n  await page.getByRole('button', { name: 'Add' }).click();\n  await expect(page.getByText('1 item left')).toBeVisible();\n}\n";
    const NEW: &str = "async function step(page) {\n  await page.getByRole('button', { name: 'Add todo' }).click();\n  await expect(page.getByText('1 item left')).toBeVisible();\n}";
    const NEWER: &str = "async function step(page) {\n  await page.getByText('Add todo').click();\n  await expect(page.getByText('1 item left')).toBeVisible();\n}";

    #[test]
    fn requests_name_the_variables_and_never_carry_a_secret_value() {
        let fixture = Fixture::new();
        let secret = "s3cr3t-Zebra-4711";
        let bad = "async function step(page) {\n  // first try\n}";
        let llm = ScriptedLlm::new([code_reply(bad), code_reply(OLD)]);
        let exec = ScriptedExecutor::new([
            fails(
                bad,
                FailureKind::Script,
                &format!("TypeError: cannot read {secret}"),
            ),
            passes(OLD),
        ]);
        let mut engine = fixture
            .engine(&llm, 3, 2)
            .with_secrets(crate::secrets::Secrets::new([(
                "PASSWORD".to_owned(),
                secret.to_owned(),
            )]));
        let mut step = fixture.step(0);
        step.key.step = "type ${PASSWORD} into the password field".to_owned();
        engine
            .generate(&step, &exec, &RecordingObserver::default())
            .unwrap();
        let received = llm.received();
        let first = render_generation_message(received[0].generation());
        assert!(
            first.contains("VARIABLES:\n${PASSWORD}: read it as vars.PASSWORD\n"),
            "{first}"
        );
        let retry = render_generation_message(received[1].generation());
        assert!(retry.contains("cannot read ${PASSWORD}"), "{retry}");
        assert!(!retry.contains(secret), "{retry}");
    }

    #[test]
    fn a_generation_request_carries_the_page_the_earlier_code_and_a_stable_system_part() {
        let fixture = Fixture::new();
        // Step 1 is a check: its code reads and asserts, and clicks nothing.
        let check = "async function step(page) {\n  await expect(page.getByText('1 item left')).toBeVisible();\n}";
        let llm = ScriptedLlm::new([code_reply(OLD), code_reply(check)]);
        let exec = ScriptedExecutor::new([passes(OLD), passes(check)]);
        let mut engine = fixture.engine(&llm, 3, 2);
        let observer = RecordingObserver::default();
        engine.generate(&fixture.step(0), &exec, &observer).unwrap();
        engine.generate(&fixture.step(1), &exec, &observer).unwrap();

        let received = llm.received();
        let (first, second) = (received[0].generation(), received[1].generation());
        assert_eq!(
            first.page,
            PageFacts {
                url: "http://127.0.0.1:4000/".into(),
                title: "Todos".into(),
                base_url: Some("http://127.0.0.1:4000".into()),
            }
        );
        assert_eq!(
            (first.previous_code.as_slice(), first.previous_code_left_out),
            (&[][..], 0)
        );
        assert_eq!(
            second.previous_code,
            [PreviousCode {
                number: 1,
                sentence: fixture.step(0).key.step,
                code: passed_code(1),
            }]
        );
        assert_eq!((first.healing.as_deref(), &first.failed), (None, &None));
        assert_eq!(
            render_generation_system(first),
            render_generation_system(second),
            "the system part is the same bytes for every step"
        );
        assert!(render_generation_system(first).contains("locator.click(options)"));
        assert!(!render_generation_message(second).contains("locator.click(options)"));
    }

    #[test]
    fn every_healing_request_names_the_cached_code_to_keep_the_checks_of() {
        let fixture = Fixture::new();
        fixture.cache_code(0, OLD);
        let timeout = StepFailure::new(
            FailureKind::Timeout,
            "locator.click: Timeout 5000ms exceeded.",
        );
        let ran = run_engine(
            fixture,
            0,
            (3, 2),
            [
                verdict_reply(Category::Rot, "the button was renamed"),
                code_reply(NEW),
                code_reply(NEWER),
            ],
            [
                fails(NEW, FailureKind::Timeout, "timeout of NEW"),
                passes(NEWER),
            ],
            |engine, step, exec, observer| engine.heal(step, exec, observer, OLD, &timeout),
        );
        assert_eq!(ran.code().ok(), Some(NEWER));
        for (attempt, request) in ran.received[1..].iter().enumerate() {
            assert_eq!(
                request.generation().healing.as_deref(),
                Some(OLD),
                "attempt {attempt}"
            );
        }
        let second = render_generation_message(ran.received[2].generation());
        assert!(second.contains("Keep every check of it"), "{second}");
        assert!(
            second.contains(&format!("CACHED CODE:\n{}", OLD.trim_end())),
            "{second}"
        );
        assert!(second.contains(&format!("CODE:\n{NEW}")), "{second}");
    }

    /// A context with `n` earlier steps, step `i` having `size` characters of code.
    fn with_previous(fixture: &Fixture, sizes: &[usize]) -> Vec<(String, String)> {
        let mut step = fixture.step(0);
        step.previous = (1..=sizes.len()).map(|i| format!("step {i}")).collect();
        step.previous_code = sizes.iter().map(|&n| "x".repeat(n)).collect();
        let (kept, left_out) = previous_code(&step, 100);
        assert_eq!(left_out, sizes.len() - kept.len());
        kept.into_iter()
            .map(|c| (format!("{}. {}", c.number, c.sentence), c.code))
            .collect()
    }

    #[test]
    fn previous_code_keeps_the_most_recent_steps_whole_within_the_budget() {
        let fixture = Fixture::new();
        assert_eq!(with_previous(&fixture, &[]), []);
        let all = with_previous(&fixture, &[30, 30, 40]);
        assert_eq!(
            all.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>(),
            ["1. step 1", "2. step 2", "3. step 3"],
            "exactly the budget: everything, in order"
        );
        let cut = with_previous(&fixture, &[30, 30, 41]);
        assert_eq!(
            cut.iter().map(|(s, _)| s.as_str()).collect::<Vec<_>>(),
            ["2. step 2", "3. step 3"],
            "the oldest goes first"
        );
        assert_eq!(cut[1].1.len(), 41, "kept steps are whole");
        assert_eq!(
            with_previous(&fixture, &[10, 101]),
            [],
            "a most recent step over the budget alone: nothing older is sent in its place"
        );
    }
}
