//! [`HttpProvider`]: an [`LlmProvider`] over HTTP, made of a [`Transport`] (timing, posting,
//! retries, redaction) and a [`WireFormat`] (headers, request body, reading the reply).
//!
//! Every wire format becomes a provider the same way, so requests are rendered alike for all of
//! them: the generation or classification message is the user message; the system part (for
//! generation the system prompt and the PAGE API, a stable prefix) and the screenshot go where
//! the wire format puts them.

use super::http::Transport;
use super::{
    ClassificationRequest, GenerationRequest, LlmError, LlmProvider, LlmReply, WireFormat,
    render_classification_message, render_generation_message, render_generation_system,
};

/// A provider posting `W`'s requests through a transport. Built by [`super::build_provider`].
#[derive(Debug)]
pub(crate) struct HttpProvider<W> {
    transport: Transport,
    wire: W,
    /// `provider:model`, for reports.
    description: String,
}

impl<W: WireFormat> HttpProvider<W> {
    pub(crate) fn new(transport: Transport, model: &str, wire: W) -> Self {
        let description = format!("{}:{model}", transport.provider());
        HttpProvider {
            transport,
            wire,
            description,
        }
    }
}

impl<W: WireFormat> LlmProvider for HttpProvider<W> {
    fn generate_step_code(&self, request: &GenerationRequest) -> Result<LlmReply, LlmError> {
        self.transport.call(
            &self.wire,
            &render_generation_system(request),
            render_generation_message(request),
            request.screenshot.as_deref(),
            request.deadline,
        )
    }

    fn classify_failure(&self, request: &ClassificationRequest) -> Result<LlmReply, LlmError> {
        self.transport.call(
            &self.wire,
            &request.system_prompt,
            render_classification_message(request),
            request.screenshot.as_deref(),
            request.deadline,
        )
    }

    fn describe(&self) -> String {
        self.description.clone()
    }
}
