//! LLM access: the narrow [`LlmProvider`] port the engine talks to, its requests and replies,
//! and the real providers over HTTP: one transport (`http.rs`: timing, retries, redaction) and a
//! [`WireFormat`] per API (OpenAI-compatible chat completions, Anthropic Messages) that supplies
//! only headers, request body and reply parsing; and the run's [`Breaker`], which stops calling
//! an LLM that failed several times in a row.
//!
//! Main types: [`LlmProvider`], [`GenerationRequest`], [`ClassificationRequest`],
//! [`Classification`], [`LlmError`]. Keys live in [`ApiKey`], whose Debug/Display redact them.

mod answer;
mod anthropic;
mod breaker;
mod build;
mod http;
mod message;
mod model_params;
mod openai;
mod provider;
mod reply;
mod secret;

pub(crate) use breaker::{BREAKER_LIMIT, Breaker};
pub use build::build_provider;
pub(crate) use build::key_variables;
pub(crate) use message::{
    render_classification_message, render_generation_message, render_generation_system,
};
pub(crate) use reply::{extract_code, parse_classification, parse_classification_strict};
pub(crate) use secret::ApiKey;

use std::fmt;
use std::time::{Duration, Instant};

use reqwest::header::HeaderMap;
use serde_json::Value;

/// A request for step code. The system prompt and the PAGE API are the same for every
/// generation request of a run and travel together as the system part (a stable prefix a server
/// can cache, see [`render_generation_system`]); everything else is the user message
/// ([`render_generation_message`]).
#[derive(Debug, Clone, PartialEq)]
pub struct GenerationRequest {
    pub system_prompt: String,
    /// PAGE API: the generated listing of the step-code API, at the end of the system part.
    pub page_api: String,
    /// STEP: the sentence to implement.
    pub step: String,
    /// VARIABLES: the placeholders of the sentence as written (`${NAME}`, `<column>`), each
    /// read by step code as `vars.NAME`; the section is left out when there are none.
    pub variables: Vec<String>,
    /// STEP ARGUMENT: a Gherkin step's doc string or data table, as step code reads it
    /// (`vars.docString`, `vars.dataTable`); the section is left out for other steps.
    pub step_argument: Option<String>,
    /// PREVIOUS STEPS: sentences of the earlier steps of the test, in order.
    pub previous_steps: Vec<String>,
    /// PREVIOUS CODE: the code that passed for the most recent earlier steps, in order, within
    /// a size cap.
    pub previous_code: Vec<PreviousCode>,
    /// How many earlier steps' code the cap left out (the oldest ones).
    pub previous_code_left_out: usize,
    /// PAGE: the page's URL and title, and the base URL relative `page.goto` resolves against.
    pub page: PageFacts,
    /// PAGE SNAPSHOT: Playwright's AI-mode aria snapshot, without ref markers, already
    /// truncated to its budget.
    pub page_snapshot: String,
    /// SCREENSHOT: a PNG of the page, when `send_screenshots` is on.
    pub screenshot: Option<Vec<u8>>,
    /// USER INSTRUCTIONS: `generation_prompt`, only when non-empty.
    pub user_instructions: Option<String>,
    /// HEALING: the cached code being healed, whose checks the new code must keep.
    pub healing: Option<String>,
    /// BUILT-IN GENERATOR: what the built-in generator tried for this step before the LLM was
    /// asked, and why it did not serve; the section is left out when it was not tried.
    pub builtin: Option<BuiltinTried>,
    /// CODE and ERROR of the failed previous attempt (regeneration and retries).
    pub failed: Option<FailedAttempt>,
    /// The test's deadline: the call gives up by then (never sent).
    pub deadline: Option<Instant>,
}

/// What the built-in generator tried for a step and why it did not serve, so that the LLM
/// starts from its reason instead of repeating its attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuiltinTried {
    /// It wrote no code, for this reason (which names what it read of the sentence).
    Declined { reason: String },
    /// Its code ran and failed on the page.
    Failed(FailedAttempt),
    /// Its code passed, but a check in it passed on a page that contradicts the sentence too;
    /// the error says under which change.
    Vacuous(FailedAttempt),
    /// The guard blocked what its code reached for: an origin outside `allowed_origins`.
    Blocked(FailedAttempt),
}

impl BuiltinTried {
    /// The code the built-in generator wrote, when it wrote any.
    pub fn code(&self) -> Option<&str> {
        match self {
            BuiltinTried::Declined { .. } => None,
            BuiltinTried::Failed(attempt)
            | BuiltinTried::Vacuous(attempt)
            | BuiltinTried::Blocked(attempt) => Some(&attempt.code),
        }
    }
}

/// The code that passed for an earlier step of the test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviousCode {
    /// The step's number in the test, from 1.
    pub number: usize,
    pub sentence: String,
    pub code: String,
}

/// Where the page is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageFacts {
    pub url: String,
    pub title: String,
    /// `[browser] base_url`, when configured.
    pub base_url: Option<String>,
}

/// Code that failed, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedAttempt {
    pub code: String,
    pub error: String,
}

/// A request to classify a failure. Never carries the user instructions.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassificationRequest {
    pub system_prompt: String,
    pub step: String,
    pub code: String,
    pub error: String,
    pub page_snapshot: String,
    pub screenshot: Option<Vec<u8>>,
    /// The test's deadline: the call gives up by then (never sent).
    pub deadline: Option<Instant>,
}

/// Token usage of one call, as the provider reported it (0 when it did not).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Every input token of the request, cached ones included.
    pub input_tokens: u64,
    /// The part of `input_tokens` the server read from its prompt cache (0 when it said
    /// nothing); the rest was processed fresh.
    pub cached_input_tokens: u64,
    pub output_tokens: u64,
}

/// A provider's reply: the raw text, usage and time spent waiting.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmReply {
    pub text: String,
    pub usage: Usage,
    pub elapsed: Duration,
}

/// The classification categories.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// The UI changed; the step can be regenerated for the same intent.
    Rot,
    /// The step works as written but the application's expected behaviour is broken.
    ProductDefect,
    /// The sentence no longer matches reality, the intent is ambiguous, or regeneration cannot help.
    Incurable,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Rot => "rot",
            Category::ProductDefect => "product_defect",
            Category::Incurable => "incurable",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A verdict: category, explanation, recommendation, and what decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    pub category: Category,
    pub explanation: String,
    pub recommendation: String,
    pub source: VerdictSource,
}

/// What decided a verdict: the evidence the engine holds (the page and the failed check), or
/// the LLM's word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VerdictSource {
    /// The LLM classified the failure; the evidence decided nothing.
    #[default]
    Llm,
    /// The evidence decided. `llm` is the category the LLM gave when it was asked too (its
    /// word never overrides the evidence; a different category is a disagreement).
    Evidence { llm: Option<Category> },
}

impl VerdictSource {
    /// The wire name: `llm`, `evidence`, or `evidence+llm` when both were heard.
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictSource::Llm => "llm",
            VerdictSource::Evidence { llm: None } => "evidence",
            VerdictSource::Evidence { llm: Some(_) } => "evidence+llm",
        }
    }

    /// Whether the LLM, when both were heard, gave another category than `category`.
    pub fn disagrees_with(self, category: Category) -> bool {
        matches!(self, VerdictSource::Evidence { llm: Some(llm) } if llm != category)
    }

    /// For reports: "from evidence", "from evidence; the LLM agreed", "from evidence; the LLM
    /// said rot and was overruled", "from the LLM".
    pub fn describe(self, category: Category) -> String {
        match self {
            VerdictSource::Llm => "from the LLM".to_owned(),
            VerdictSource::Evidence { llm: None } => "from evidence".to_owned(),
            VerdictSource::Evidence { llm: Some(llm) } if llm == category => {
                "from evidence; the LLM agreed".to_owned()
            }
            VerdictSource::Evidence { llm: Some(llm) } => {
                format!("from evidence; the LLM said {llm} and was overruled")
            }
        }
    }
}

impl fmt::Display for Classification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}) — {} — {}",
            self.category,
            self.source.describe(self.category),
            self.explanation,
            self.recommendation
        )
    }
}

/// Why an LLM call produced nothing usable. It is `Clone` and `Eq` because an engine failure
/// carries it as its cause into the run's events.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    /// The provider could not be reached or kept failing after the bounded transport retry,
    /// the test's deadline cut the call, or the run's breaker is open after consecutive
    /// failures. The engine never retries an unavailable call.
    #[error("the LLM is unavailable ({provider} at {endpoint}): {reason}")]
    Unavailable {
        provider: &'static str,
        endpoint: String,
        reason: String,
    },
    /// Something that is not an LLM answered at the endpoint (a web page, a 404 or 501
    /// outside the wire format, a success that is not JSON): a setting to fix, never retried.
    /// `what` is what it answered, `expected` a reply of the wire format, and `check` where the
    /// base URL was set.
    #[error("{endpoint} answered {what}, not {expected}: check {check}")]
    NotAnLlm {
        provider: &'static str,
        endpoint: String,
        what: String,
        expected: &'static str,
        check: String,
    },
    /// The provider answered, but not in its wire format.
    #[error("the LLM answered in an unexpected format ({provider}): {reason}")]
    BadResponse {
        provider: &'static str,
        reason: String,
    },
    /// Settings that make a provider impossible (no model, missing key variable, bad URL).
    #[error("{0}")]
    Config(String),
}

/// The port the engine talks to. Implementations block the calling (test) thread: the real
/// providers run their HTTP request with `tokio::runtime::Handle::block_on`, so they are called
/// from plain std threads, never from inside the runtime. [`build_provider`] makes one from
/// settings.
pub trait LlmProvider: Send + Sync {
    /// Asks for step code; the reply text is raw (the engine extracts the code block).
    fn generate_step_code(&self, request: &GenerationRequest) -> Result<LlmReply, LlmError>;
    /// Asks for a verdict; the reply text is raw (the engine parses it leniently).
    fn classify_failure(&self, request: &ClassificationRequest) -> Result<LlmReply, LlmError>;
    /// A short name for reports: `openai:gpt-4o-mini`.
    fn describe(&self) -> String;
}

/// What a wire format provides for one chat call with a system part, a user message and an
/// optional screenshot: its headers, its request body and the reading of its reply. The
/// transport does the rest (timing, retries, redaction); an [`provider::HttpProvider`] puts the
/// two together. The system part is the stable prefix of a run's requests: a wire format marks
/// it for prompt caching where its API asks for that.
pub(crate) trait WireFormat: Send + Sync {
    /// The headers of every request (the API key, a version).
    fn headers(&self) -> Result<HeaderMap, LlmError>;
    fn request_body(&self, system: &str, text: String, screenshot: Option<&[u8]>) -> Value;
    /// The reply text and usage of a successful response, or why it is not in this format.
    fn read_response(&self, response: &Value) -> Result<(String, Usage), ResponseError>;
}

/// Why a successful response is no reply in its wire format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ResponseError {
    /// The text is not where the format puts it. `brief` is the response, cut short.
    #[error("no {place} in {brief}")]
    NoText { place: &'static str, brief: String },
    /// The model declined to answer, saying this.
    #[error("the model refused: {0}")]
    Refused(String),
}
