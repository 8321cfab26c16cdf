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
use crate::writer::builtin::{Decline, write_step_on};

/// The test's steps before the one being written: their sentences and the code each passed
/// with, in order. Background steps and an examples row's steps are included, because they
/// ran in the same browser context.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Context<'a> {
    sentences: &'a [String],
    code: &'a [String],
}

/// One earlier step of the test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EarlierStep<'a> {
    pub sentence: &'a str,
    /// The code the step passed with, when it is known (it always is once the step ran).
    pub code: Option<&'a str>,
}

impl<'a> Context<'a> {
    /// The context of a step whose test ran `sentences` before it, with `code` for them in the
    /// same order (shorter when some have none).
    pub(crate) fn new(sentences: &'a [String], code: &'a [String]) -> Self {
        Context { sentences, code }
    }

    /// The earlier steps, oldest first.
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "the built-in grammar does not read earlier steps yet"
        )
    )]
    pub(crate) fn steps(&self) -> impl Iterator<Item = EarlierStep<'a>> + 'a {
        let code = self.code;
        self.sentences
            .iter()
            .enumerate()
            .map(move |(i, sentence)| EarlierStep {
                sentence,
                code: code.get(i).map(String::as_str),
            })
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
}

impl Writer for BuiltinWriter<'_> {
    type Refusal = Decline;

    fn write(&self) -> Result<Draft, Decline> {
        // The built-in grammar does not read earlier steps yet; the context travels with the
        // request so that the writer, not the engine, decides what they mean.
        let _ = self.context;
        let started = Instant::now();
        let code = write_step_on(self.sentence, self.columns, self.page)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_context_pairs_each_earlier_sentence_with_its_code() {
        let sentences = ["open the app".to_owned(), "add a todo \"a\"".to_owned()];
        let code = ["await page.goto('/');".to_owned()];
        let steps: Vec<_> = Context::new(&sentences, &code).steps().collect();
        assert_eq!(
            steps,
            [
                EarlierStep {
                    sentence: "open the app",
                    code: Some("await page.goto('/');"),
                },
                EarlierStep {
                    sentence: "add a todo \"a\"",
                    code: None,
                },
            ]
        );
    }
}
