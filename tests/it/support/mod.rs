//! The integration tests' harness: [`Test`], a fluent builder that lays out a temporary project,
//! serves its pages on a 127.0.0.1 port of its own, runs the real `prettyplay` binary and returns
//! an [`Output`] to assert on; and [`fake_llm::FakeLlm`], a scripted LLM server.

pub(crate) mod fake_llm;
mod output;
mod prerequisites;
pub(crate) mod recording_server;
pub(crate) mod static_server;
mod test;

pub(crate) use output::Output;
pub(crate) use prerequisites::{driver_cli_js, require_browser};
pub(crate) use test::{Running, Test, repo_dir};
