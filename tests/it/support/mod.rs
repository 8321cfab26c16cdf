//! The integration tests' harness: [`Test`], a fluent builder that lays out a temporary project,
//! serves its pages on a 127.0.0.1 port of its own, runs the real `prettyplay` binary and returns
//! an [`Output`] to assert on; [`fake_llm::FakeLlm`], a scripted LLM server; and
//! [`http::request`], a raw HTTP client for the servers prettyplay starts;
//! [`playwright_test`], `@playwright/test` from npm for running exported projects.

pub(crate) mod fake_llm;
pub(crate) mod http;
mod output;
pub(crate) mod playwright_test;
mod prerequisites;
pub(crate) mod recording_server;
pub(crate) mod static_server;
mod test;

pub(crate) use output::Output;
pub(crate) use prerequisites::{driver_cli_js, require_browser};
pub(crate) use test::{PHASE_LIMIT, Running, Test, repo_dir};
