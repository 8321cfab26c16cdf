//! The writer port: the one way the engine asks for a step's code. Two writers answer it, the
//! built-in generator (offline, from the sentence and the page's snapshot) and an LLM (sent the
//! request the engine composed). Each returns a [`Draft`] of code or its reason for writing none; what
//! is done with the draft (trying it, proving it, caching it, handing over to the other writer)
//! is the engine's decision, never the writer's.
//!
//! Main types: [`Writer`] (with [`BuiltinWriter`] and [`LlmWriter`]), [`Draft`], [`Context`].

use std::time::{Duration, Instant};

use crate::llm::{GenerationRequest, LlmError, LlmProvider, Usage, extract_code};
use crate::script::PageState;
use crate::writer::builtin::{Decline, write_step_in_test};

/// The test's steps before the one being written: their sentences and the code each passed
/// with, in order. Background steps and an examples row's steps are included, because they
/// ran in the same browser context.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Context<'a> {
    sentences: &'a [String],
    code: &'a [String],
}

impl<'a> Context<'a> {
    /// The context of a step whose test ran `sentences` before it, with `code` for them in the
    /// same order (shorter when some have none).
    pub(crate) fn new(sentences: &'a [String], code: &'a [String]) -> Self {
        Context { sentences, code }
    }

    /// The earlier steps' sentences, background first.
    pub(crate) fn sentences(&self) -> &'a [String] {
        self.sentences
    }

    /// The code the earlier steps passed with, in the same order as their sentences.
    pub(crate) fn code(&self) -> &'a [String] {
        self.code
    }
}

/// A writer of step code: asked once, it returns a draft or its reason for writing none.
pub(crate) trait Writer {
    /// Why this writer wrote no code.
    type Refusal;

    /// Asks the writer for the step's code.
    fn write(&self) -> Result<Draft, Self::Refusal>;
}

/// Code a writer wrote, not yet tried.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Draft {
    pub code: String,
    /// What writing it cost: tokens for an LLM, none for the built-in generator.
    pub usage: Usage,
    pub elapsed: Duration,
}

/// The built-in generator, reading the sentence on the page as it is now (its full aria
/// snapshot and structure) with the test's earlier steps. It declines what it cannot write
/// code for that does all the sentence says.
pub(crate) struct BuiltinWriter<'a> {
    pub sentence: &'a str,
    pub columns: &'a [String],
    pub page: &'a PageState,
    pub context: Context<'a>,
    /// Whether the run's pages may go to a URL: a navigation never picks a link they may not.
    pub allows: &'a dyn Fn(&str) -> bool,
}

impl Writer for BuiltinWriter<'_> {
    type Refusal = Decline;

    fn write(&self) -> Result<Draft, Decline> {
        // The built-in grammar does not read earlier steps yet; the context travels with the
        // request so that the writer, not the engine, decides what they mean.
        let started = Instant::now();
        let code = write_step_in_test(
            self.sentence,
            self.columns,
            self.page,
            self.allows,
            self.context.sentences(),
            self.context.code(),
        )?;
        Ok(Draft {
            code,
            usage: Usage::default(),
            elapsed: started.elapsed(),
        })
    }
}

/// An LLM, sent the request the engine composed from the step, the page and the prompts. It
/// fails when the model cannot be reached or gives no usable reply.
pub(crate) struct LlmWriter<'a> {
    pub provider: &'a dyn LlmProvider,
    pub request: &'a GenerationRequest,
}

impl Writer for LlmWriter<'_> {
    type Refusal = LlmError;

    fn write(&self) -> Result<Draft, LlmError> {
        let reply = self.provider.generate_step_code(self.request)?;
        Ok(Draft {
            code: extract_code(&reply.text),
            usage: reply.usage,
            elapsed: reply.elapsed,
        })
    }
}
