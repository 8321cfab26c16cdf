//! How run events look on the wire (the JSON lines stream, `docs/reports.md`): serde helpers
//! for the types of other modules that [`crate::runner::RunEvent`] carries, named in its
//! `#[serde(serialize_with = "...")]` attributes so that those modules need no serde.
//!
//! Durations are whole milliseconds, enums are snake_case strings, screenshots are base64.

use std::time::Duration;

use base64::Engine as _;
use serde::{Serialize, Serializer};

use crate::engine::{EngineFailure, EngineFailureKind, LlmPurpose, Pool};
use crate::llm::{Category, Classification, Usage};
use crate::script::{FailureKind, StepFailure};

/// The version of the JSON lines format; every object carries it as `"version"`.
pub const EVENTS_VERSION: u32 = 1;

/// A duration as whole milliseconds (saturating at `u64::MAX`).
pub(crate) fn millis<S: Serializer>(duration: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(u64::try_from(duration.as_millis()).unwrap_or(u64::MAX))
}

pub(crate) fn pool<S: Serializer>(pool: &Pool, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(pool.name())
}

pub(crate) fn category<S: Serializer>(category: &Category, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(category.as_str())
}

pub(crate) fn llm_purpose<S: Serializer>(purpose: &LlmPurpose, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match purpose {
        LlmPurpose::Generation => "generation",
        LlmPurpose::Classification => "classification",
    })
}

/// The wire name of a step failure kind (`failed_check`, `timeout`, ...).
pub(crate) fn failure_kind_name(kind: FailureKind) -> &'static str {
    match kind {
        FailureKind::FailedCheck => "failed_check",
        FailureKind::Timeout => "timeout",
        FailureKind::StrictMode => "strict_mode",
        FailureKind::Script => "script",
        FailureKind::Crash => "crash",
    }
}

/// The wire name of an engine failure kind (`product_defect`, ...).
pub(crate) fn engine_kind_name(kind: EngineFailureKind) -> &'static str {
    match kind {
        EngineFailureKind::ProductDefect => "product_defect",
        EngineFailureKind::Incurable => "incurable",
        EngineFailureKind::LlmUnavailable => "llm_unavailable",
        EngineFailureKind::CacheWrite => "cache_write",
    }
}

#[derive(Serialize)]
struct UsageWire {
    input_tokens: u64,
    output_tokens: u64,
}

pub(crate) fn usage<S: Serializer>(usage: &Usage, s: S) -> Result<S::Ok, S::Error> {
    UsageWire {
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
    }
    .serialize(s)
}

#[derive(Serialize)]
struct ClassificationWire<'a> {
    category: &'static str,
    explanation: &'a str,
    recommendation: &'a str,
}

impl<'a> From<&'a Classification> for ClassificationWire<'a> {
    fn from(verdict: &'a Classification) -> Self {
        Self {
            category: verdict.category.as_str(),
            explanation: &verdict.explanation,
            recommendation: &verdict.recommendation,
        }
    }
}

pub(crate) fn classification<S: Serializer>(
    verdict: &Classification,
    s: S,
) -> Result<S::Ok, S::Error> {
    ClassificationWire::from(verdict).serialize(s)
}

pub(crate) fn option_classification<S: Serializer>(
    verdict: &Option<Classification>,
    s: S,
) -> Result<S::Ok, S::Error> {
    verdict.as_ref().map(ClassificationWire::from).serialize(s)
}

/// Bytes as standard base64 (a PNG screenshot).
pub(crate) fn option_base64<S: Serializer>(
    bytes: &Option<Vec<u8>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    bytes
        .as_ref()
        .map(|b| base64::engine::general_purpose::STANDARD.encode(b))
        .serialize(s)
}

/// The fields of a `"type": "step"` failure cause.
#[derive(Serialize)]
struct StepFailureWire<'a> {
    kind: &'static str,
    message: &'a str,
    code_line: Option<u32>,
}

pub(crate) fn step_failure<S: Serializer>(failure: &StepFailure, s: S) -> Result<S::Ok, S::Error> {
    StepFailureWire {
        kind: failure_kind_name(failure.kind),
        message: &failure.message,
        code_line: failure.code_line,
    }
    .serialize(s)
}

/// The fields of a `"type": "infrastructure"` failure cause.
#[derive(Serialize)]
struct InfrastructureWire<'a> {
    message: &'a str,
}

pub(crate) fn infrastructure<S: Serializer>(message: &str, s: S) -> Result<S::Ok, S::Error> {
    InfrastructureWire { message }.serialize(s)
}

/// The fields of a `"type": "engine"` failure cause.
#[derive(Serialize)]
struct EngineFailureWire<'a> {
    kind: &'static str,
    reason: &'a str,
    verdict: Option<ClassificationWire<'a>>,
}

pub(crate) fn engine_failure<S: Serializer>(
    failure: &EngineFailure,
    s: S,
) -> Result<S::Ok, S::Error> {
    EngineFailureWire {
        kind: engine_kind_name(failure.kind),
        reason: &failure.reason,
        verdict: failure.verdict.as_ref().map(ClassificationWire::from),
    }
    .serialize(s)
}
