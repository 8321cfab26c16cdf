//! Strict scripted fakes of the engine's ports, so every engine decision is unit-tested without a
//! browser or an LLM server.
//!
//! Main types: [`ScriptedLlm`] (an [`LlmProvider`] that answers from a script), [`ScriptedExecutor`]
//! (a [`StepExecutor`] whose executions answer from a script), [`RecordingObserver`] and
//! [`Fixture`] (a scenario, its cache in a temp dir and an engine over them). Both fakes are
//! strict, like `tests/it/support/fake_llm.rs` over HTTP: a call the script does not expect
//! panics with what was expected, and a script not used up panics when the fake is dropped.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

use crate::cache::{Cache, CachedStep, StepKey};
use crate::config::{BudgetSettings, LlmSettings};
use crate::engine::{
    Budgets, Engine, EngineFailure, EngineObserver, HealPolicy, LlmPurpose, Pool, StepContext,
    Written,
};
use crate::llm::{
    Category, Classification, ClassificationRequest, GenerationRequest, LlmError, LlmProvider,
    LlmReply, Usage,
};
use crate::scenario::Scenario;
use crate::script::{
    FailureKind, Limits, Mutation, Observation, PageState, Sandbox, StepFailure, SubjectRead,
};
use crate::step::{Claims, Proof, StepExecutor};

/// What the scripted LLM answers.
#[derive(Debug, Clone)]
pub(super) enum Answer {
    /// A reply with this text.
    Text(String),
    /// The provider is unreachable.
    Unavailable,
}

/// One call the scripted LLM expects.
#[derive(Debug, Clone)]
pub(super) enum Expected {
    Generation(Answer),
    Classification(Answer),
}

/// A request the scripted LLM received.
#[derive(Debug, Clone)]
pub(super) enum Received {
    Generation(Box<GenerationRequest>),
    Classification(ClassificationRequest),
}

impl Received {
    pub(super) fn generation(&self) -> &GenerationRequest {
        match self {
            Received::Generation(request) => request,
            Received::Classification(_) => panic!("expected a generation request, got {self:?}"),
        }
    }

    pub(super) fn classification(&self) -> &ClassificationRequest {
        match self {
            Received::Classification(request) => request,
            Received::Generation(_) => panic!("expected a classification request, got {self:?}"),
        }
    }
}

/// An LLM that answers from a script, in order; strict.
#[derive(Debug, Default)]
pub(super) struct ScriptedLlm {
    script: Mutex<VecDeque<Expected>>,
    received: Mutex<Vec<Received>>,
}

impl ScriptedLlm {
    pub(super) fn new(script: impl IntoIterator<Item = Expected>) -> Self {
        Self {
            script: Mutex::new(script.into_iter().collect()),
            received: Mutex::new(Vec::new()),
        }
    }

    /// The requests received so far, in order.
    pub(super) fn received(&self) -> Vec<Received> {
        self.received.lock().expect("not poisoned").clone()
    }

    fn answer(&self, purpose: &str, request: Received) -> Result<LlmReply, LlmError> {
        let next = self.script.lock().expect("not poisoned").pop_front();
        let answer = match (&request, next) {
            (Received::Generation(_), Some(Expected::Generation(answer)))
            | (Received::Classification(_), Some(Expected::Classification(answer))) => answer,
            (_, next) => panic!(
                "scripted LLM: unexpected {purpose} request (expected: {next:?}); request: {request:#?}"
            ),
        };
        self.received.lock().expect("not poisoned").push(request);
        match answer {
            Answer::Text(text) => Ok(LlmReply {
                text,
                usage: Usage {
                    input_tokens: 10,
                    cached_input_tokens: 0,
                    output_tokens: 5,
                },
                elapsed: Duration::from_millis(7),
            }),
            Answer::Unavailable => Err(LlmError::Unavailable {
                provider: "scripted",
                endpoint: "http://127.0.0.1:9".to_owned(),
                reason: "connection refused".to_owned(),
            }),
        }
    }
}

impl LlmProvider for ScriptedLlm {
    fn generate_step_code(&self, request: &GenerationRequest) -> Result<LlmReply, LlmError> {
        self.answer(
            "generation",
            Received::Generation(Box::new(request.clone())),
        )
    }

    fn classify_failure(&self, request: &ClassificationRequest) -> Result<LlmReply, LlmError> {
        self.answer("classification", Received::Classification(request.clone()))
    }

    fn describe(&self) -> String {
        "scripted".to_owned()
    }
}

impl Drop for ScriptedLlm {
    fn drop(&mut self) {
        let left = self.script.get_mut().map(|s| s.len()).unwrap_or_default();
        if left > 0 && !std::thread::panicking() {
            panic!(
                "scripted LLM: {left} expected call(s) never came: {:?}",
                self.script.get_mut().map(|s| s.clone()).unwrap_or_default()
            );
        }
    }
}

/// A generation reply holding `code` in a fenced block, as models answer.
pub(super) fn code_reply(code: &str) -> Expected {
    Expected::Generation(Answer::Text(format!(
        "Here is the step:\n```js\n{code}\n```\n"
    )))
}

/// A classification reply in the verdict format.
pub(super) fn verdict_reply(category: Category, explanation: &str) -> Expected {
    Expected::Classification(Answer::Text(format!(
        "{} | {explanation} | do something about it",
        category.as_str()
    )))
}

/// One execution the scripted executor expects: of exactly `code`, with `result`.
#[derive(Debug, Clone)]
pub(super) struct Execution {
    pub code: String,
    pub result: Result<(), StepFailure>,
}

/// An execution the scripted executor saw, with the cache entry of the step at that moment.
#[derive(Debug, Clone)]
pub(super) struct Executed {
    pub code: String,
    pub cached_then: Option<String>,
}

/// A step executor whose executions answer from a script, in order; strict. `check` is the real
/// sandbox's compile check (no browser involved), so a candidate that does not compile never
/// reaches `execute`, exactly as on the live page.
pub(super) struct ScriptedExecutor<'a> {
    script: RefCell<VecDeque<Execution>>,
    executed: RefCell<Vec<Executed>>,
    sandbox: Sandbox,
    /// Where to look up the step's cache entry at each execution.
    probe: Option<(&'a Cache, &'a Scenario, StepKey)>,
    page_states: RefCell<u32>,
    /// Proofs to answer in order; once they run out, every check is proven by hiding it.
    proofs: RefCell<VecDeque<Proof>>,
    /// The evidence every failure is judged by: by default none, which decides nothing.
    observation: Observation,
    /// The element reads of every passing execution, placed against the marked subject
    /// (`None`: nothing was marked).
    subject_reads: Option<Vec<SubjectRead>>,
}

impl<'a> ScriptedExecutor<'a> {
    pub(super) fn new(script: impl IntoIterator<Item = Execution>) -> Self {
        Self {
            script: RefCell::new(script.into_iter().collect()),
            executed: RefCell::new(Vec::new()),
            sandbox: Sandbox::new(Limits::new(Duration::from_secs(1)))
                .expect("a QuickJS runtime starts"),
            probe: None,
            page_states: RefCell::new(0),
            proofs: RefCell::new(VecDeque::new()),
            observation: Observation::default(),
            subject_reads: None,
        }
    }

    /// Answers `reads` as where every passing execution's reads are against the subject.
    pub(super) fn placing(mut self, reads: Vec<SubjectRead>) -> Self {
        self.subject_reads = Some(reads);
        self
    }

    /// Answers `observation` as the evidence about every failure.
    pub(super) fn observing(mut self, observation: Observation) -> Self {
        self.observation = observation;
        self
    }

    /// Answers these proofs, in order, before the default one.
    pub(super) fn proving(self, proofs: impl IntoIterator<Item = Proof>) -> Self {
        self.proofs.borrow_mut().extend(proofs);
        self
    }

    /// Records, at each execution, what the cache holds for `key`.
    pub(super) fn probing(
        mut self,
        cache: &'a Cache,
        scenario: &'a Scenario,
        key: StepKey,
    ) -> Self {
        self.probe = Some((cache, scenario, key));
        self
    }

    pub(super) fn executed(&self) -> Vec<Executed> {
        self.executed.borrow().clone()
    }

    /// How many times the page state was asked for.
    pub(super) fn page_states(&self) -> u32 {
        *self.page_states.borrow()
    }
}

impl StepExecutor for ScriptedExecutor<'_> {
    fn check(&self, code: &str) -> Result<(), StepFailure> {
        self.sandbox.check(code)
    }

    fn execute(&self, code: &str) -> Result<(), StepFailure> {
        let Some(next) = self.script.borrow_mut().pop_front() else {
            panic!("scripted executor: unexpected execution of:\n{code}");
        };
        assert_eq!(
            next.code.trim(),
            code.trim(),
            "scripted executor: executed other code than expected"
        );
        let cached_then = self.probe.as_ref().and_then(|(cache, scenario, key)| {
            cached_code(cache, scenario, key).map(|entry| entry.code)
        });
        self.executed.borrow_mut().push(Executed {
            code: code.to_owned(),
            cached_then,
        });
        next.result
    }

    fn page_state(&self, screenshot: bool, _snapshot_budget: usize) -> PageState {
        *self.page_states.borrow_mut() += 1;
        PageState {
            url: "http://127.0.0.1:4000/".to_owned(),
            title: "Todos".to_owned(),
            base_url: Some("http://127.0.0.1:4000".to_owned()),
            snapshot: "- heading \"Todos\" [level=1]\n- textbox \"What needs to be done?\""
                .to_owned(),
            screenshot: screenshot.then(|| vec![0x89, b'P', b'N', b'G']),
            ..PageState::default()
        }
    }

    fn prove(&self, _code: &str, claims: &Claims) -> Proof {
        self.proofs
            .borrow_mut()
            .pop_front()
            .unwrap_or_else(|| Proof::Proven(proven_by_default(claims)))
    }

    fn observe(&self) -> Observation {
        self.observation.clone()
    }

    fn subject_reads(&self) -> Option<Vec<SubjectRead>> {
        self.subject_reads.clone()
    }
}

/// The mutations an honest check of a sentence with `claims` fails under, as a scripted proof
/// that is not told otherwise answers: its element hidden, a changed character and the case of
/// each quoted text, its position and its "only" set.
fn proven_by_default(claims: &Claims) -> Vec<Mutation> {
    let scripted = "#scripted".to_owned();
    let mut mutations = vec![Mutation::Hide(scripted.clone())];
    if claims.negative {
        return mutations;
    }
    for quoted in &claims.quoted {
        mutations.push(Mutation::Text {
            needle: quoted.clone(),
            edit: crate::script::TextEdit::Replace { at: 0, with: 'x' },
            scope: None,
            whole: false,
        });
        if claims.case_sensitive {
            mutations.push(Mutation::Text {
                needle: quoted.clone(),
                edit: crate::script::TextEdit::Case,
                scope: None,
                whole: false,
            });
        }
    }
    if claims.positional {
        mutations.push(Mutation::Reorder(scripted.clone()));
    }
    if claims.only {
        mutations.push(Mutation::AddSibling(scripted));
    }
    mutations
}

impl Drop for ScriptedExecutor<'_> {
    fn drop(&mut self) {
        let left = self.script.get_mut();
        if !left.is_empty() && !std::thread::panicking() {
            panic!(
                "scripted executor: {} expected execution(s) never came: {left:?}",
                left.len()
            );
        }
    }
}

/// An execution that passes.
pub(super) fn passes(code: &str) -> Execution {
    Execution {
        code: code.to_owned(),
        result: Ok(()),
    }
}

/// An execution that fails with `kind` and `message`.
pub(super) fn fails(code: &str, kind: FailureKind, message: &str) -> Execution {
    Execution {
        code: code.to_owned(),
        result: Err(StepFailure::new(kind, message)),
    }
}

/// What the engine reported, in order.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Observed {
    GenerationStarted {
        pool: Pool,
        attempt: u32,
        limit: u32,
    },
    HealingStarted(Category),
    Healed {
        old_code: String,
        new_code: String,
    },
    Verdict(Category),
    /// Reused code from `from` was tried; it failed with this message, or passed.
    ReuseTried {
        from: String,
        failure: Option<String>,
    },
    LlmCall(LlmPurpose),
    Warning(String),
}

/// An [`EngineObserver`] that records what it is told.
#[derive(Debug, Default)]
pub(super) struct RecordingObserver {
    seen: RefCell<Vec<Observed>>,
}

impl RecordingObserver {
    pub(super) fn seen(&self) -> Vec<Observed> {
        self.seen.borrow().clone()
    }

    pub(super) fn warnings(&self) -> Vec<String> {
        self.seen()
            .into_iter()
            .filter_map(|o| match o {
                Observed::Warning(message) => Some(message),
                _ => None,
            })
            .collect()
    }

    /// The (pool, attempt) of every generation attempt, in order.
    pub(super) fn attempts(&self) -> Vec<(Pool, u32)> {
        self.seen()
            .into_iter()
            .filter_map(|o| match o {
                Observed::GenerationStarted { pool, attempt, .. } => Some((pool, attempt)),
                _ => None,
            })
            .collect()
    }

    fn push(&self, observed: Observed) {
        self.seen.borrow_mut().push(observed);
    }
}

impl EngineObserver for RecordingObserver {
    fn generation_started(&self, pool: Pool, attempt: u32, limit: u32) {
        self.push(Observed::GenerationStarted {
            pool,
            attempt,
            limit,
        });
    }

    fn healing_started(&self, category: Category) {
        self.push(Observed::HealingStarted(category));
    }

    fn healed(
        &self,
        _explanation: &str,
        _by: crate::cache::Author,
        _offline: bool,
        old_code: &str,
        new_code: &str,
    ) {
        self.push(Observed::Healed {
            old_code: old_code.to_owned(),
            new_code: new_code.to_owned(),
        });
    }

    fn verdict(&self, verdict: &Classification) {
        self.push(Observed::Verdict(verdict.category));
    }

    fn reuse_tried(&self, from: &str, failure: Option<&str>) {
        self.push(Observed::ReuseTried {
            from: from.to_owned(),
            failure: failure.map(str::to_owned),
        });
    }

    fn llm_call(&self, purpose: LlmPurpose, _usage: Usage, _elapsed: Duration) {
        self.push(Observed::LlmCall(purpose));
    }

    fn warning(&self, message: &str) {
        self.push(Observed::Warning(message.to_owned()));
    }
}

/// The scenario every engine unit test works on: one test of two steps, its cache in a temp dir.
pub(super) struct Fixture {
    pub scenario: Scenario,
    pub cache: Cache,
    pub llm: LlmSettings,
    /// The heal veto on, with a 5 s expect timeout, unless a test changes it.
    pub policy: HealPolicy,
    _dir: tempfile::TempDir,
}

/// The fixture's scenario file.
const SCENARIO: &str = "\
test: add a todo
  type \"buy milk\" into the new todo field and press Enter
  the counter says \"1 item left\"
";

/// The code the fixture's step `number` (from 1) passed with, as its context tells the engine.
pub(super) fn passed_code(number: usize) -> String {
    format!("async function step(page) {{\n  // step {number}\n}}")
}

impl Fixture {
    pub(super) fn new() -> Self {
        Self::of(SCENARIO)
    }

    /// A fixture whose scenario file `scenarios/todo.steps` reads `source`.
    pub(super) fn of(source: &str) -> Self {
        let dir = tempfile::tempdir().expect("a temp dir");
        let parsed = crate::scenario::parse("scenarios/todo.steps", source.as_bytes())
            .expect("the fixture scenario parses");
        Self {
            scenario: Scenario {
                path: dir.path().join("scenarios/todo.steps"),
                rel_path: "scenarios/todo.steps".to_owned(),
                background: parsed.background,
                tests: parsed.tests,
            },
            cache: Cache::new(dir.path().join("cache")),
            llm: LlmSettings::default(),
            policy: HealPolicy {
                veto: true,
                expect_timeout: Duration::from_secs(5),
            },
            _dir: dir,
        }
    }

    /// The context of step `index` (from 0) of the fixture's test.
    pub(super) fn step(&self, index: usize) -> StepContext<'_> {
        self.step_of(0, index)
    }

    /// The context of step `index` (from 0) of test `test` (from 0) of the fixture's scenario.
    pub(super) fn step_of(&self, test: usize, index: usize) -> StepContext<'_> {
        let test = &self.scenario.tests[test];
        StepContext {
            scenario: &self.scenario,
            key: StepKey::of(&self.scenario, test, &test.steps[index]),
            line: test.steps[index].line,
            columns: test.columns(),
            previous: test.steps[..index]
                .iter()
                .map(|s| s.sentence.clone())
                .collect(),
            previous_code: (1..=index).map(passed_code).collect(),
        }
    }

    /// An engine over the fixture with `generation` / `healing` attempts per step.
    pub(super) fn engine<'a>(
        &'a self,
        llm: &'a ScriptedLlm,
        generation: u32,
        healing: u32,
    ) -> Engine<'a> {
        Engine::new(
            Some(llm),
            &self.llm,
            &self.cache,
            "page.goto(url, options)\nlocator.click(options)",
            Budgets::new(BudgetSettings {
                generation,
                healing,
            }),
            self.policy,
        )
    }

    /// Stores `code` for step `index` as if an earlier run had cached it.
    pub(super) fn cache_code(&self, index: usize, code: &str) {
        self.cache
            .put(&self.scenario, &self.step(index).key, code, "2026-11-30")
            .expect("the cache is writable");
    }

    /// What the cache holds for step `index`.
    pub(super) fn cached(&self, index: usize) -> Option<CachedStep> {
        cached_code(&self.cache, &self.scenario, &self.step(index).key)
    }
}

fn cached_code(cache: &Cache, scenario: &Scenario, key: &StepKey) -> Option<CachedStep> {
    cache
        .load(&scenario.rel_path)
        .expect("the cache file is well-formed")
        .and_then(|file| file.get(key).cloned())
}

/// What one engine call did, with everything its fakes saw.
pub(super) struct Ran<T> {
    pub result: Result<T, EngineFailure>,
    pub fixture: Fixture,
    pub received: Vec<Received>,
    pub seen: Vec<Observed>,
    pub executed: Vec<Executed>,
}

impl Ran<Written> {
    /// The code the call wrote, or the failure it ended with.
    pub(super) fn code(&self) -> Result<&str, &EngineFailure> {
        self.result.as_ref().map(|written| written.code.as_str())
    }
}

impl<T> Ran<T> {
    /// The failure the call ended with; panics when it succeeded.
    pub(super) fn failure(&self) -> &EngineFailure {
        match &self.result {
            Err(failure) => failure,
            Ok(_) => panic!("the engine call succeeded; a failure was expected"),
        }
    }

    pub(super) fn warnings(&self) -> Vec<&str> {
        self.seen
            .iter()
            .filter_map(|o| match o {
                Observed::Warning(message) => Some(message.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The (pool, attempt) of every generation attempt, in order.
    pub(super) fn attempts(&self) -> Vec<(Pool, u32)> {
        self.seen
            .iter()
            .filter_map(|o| match o {
                Observed::GenerationStarted { pool, attempt, .. } => Some((*pool, *attempt)),
                _ => None,
            })
            .collect()
    }
}

/// Runs `call` on step `index` of `fixture` with an engine of `budgets` (generation, healing),
/// an LLM answering `script` and an executor expecting `executions` (each of which records what
/// the cache held for the step when it ran). Both fakes must be used up.
pub(super) fn run_engine<T>(
    fixture: Fixture,
    index: usize,
    budgets: (u32, u32),
    script: impl IntoIterator<Item = Expected>,
    executions: impl IntoIterator<Item = Execution>,
    call: impl FnOnce(
        &mut Engine<'_>,
        &StepContext<'_>,
        &ScriptedExecutor<'_>,
        &RecordingObserver,
    ) -> Result<T, EngineFailure>,
) -> Ran<T> {
    run_engine_proving(fixture, index, budgets, script, executions, [], call)
}

/// [`run_engine`] with the executor answering `proofs` first.
pub(super) fn run_engine_proving<T>(
    fixture: Fixture,
    index: usize,
    budgets: (u32, u32),
    script: impl IntoIterator<Item = Expected>,
    executions: impl IntoIterator<Item = Execution>,
    proofs: impl IntoIterator<Item = Proof>,
    call: impl FnOnce(
        &mut Engine<'_>,
        &StepContext<'_>,
        &ScriptedExecutor<'_>,
        &RecordingObserver,
    ) -> Result<T, EngineFailure>,
) -> Ran<T> {
    let llm = ScriptedLlm::new(script);
    let observer = RecordingObserver::default();
    let (result, executed) = {
        let step = fixture.step(index);
        let exec = ScriptedExecutor::new(executions)
            .probing(&fixture.cache, &fixture.scenario, step.key.clone())
            .proving(proofs);
        let mut engine = fixture.engine(&llm, budgets.0, budgets.1);
        let result = call(&mut engine, &step, &exec, &observer);
        (result, exec.executed())
    };
    let received = llm.received();
    Ran {
        result,
        fixture,
        received,
        seen: observer.seen(),
        executed,
    }
}
