//! What every request of a provider carries, whatever its wire format.
//!
//! Main type: [`ModelParams`], made by [`build_provider`](crate::llm::build_provider) from the
//! `[llm]` settings.

use std::time::Duration;

/// What every request of a provider carries, whatever the wire format.
#[derive(Debug, Clone)]
pub(crate) struct ModelParams {
    pub(crate) model: String,
    pub(crate) max_tokens: u32,
    pub(crate) temperature: f64,
    /// Per attempt.
    pub(crate) timeout: Duration,
}
