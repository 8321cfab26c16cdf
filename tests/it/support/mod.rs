//! The integration tests' harness: [`Test`], a fluent builder that lays out a temporary project,
//! serves its pages on a 127.0.0.1 port of its own, runs the real `prettyplay` binary and returns
//! an [`Output`] to assert on; [`fake_llm::FakeLlm`], a scripted LLM server; and
//! [`http::request`], a raw HTTP client for the servers prettyplay starts;
//! [`playwright_test`], `@playwright/test` from npm for running exported projects; [`walk`], a
//! Markdown document's command blocks run as a shell session.

mod cache_proofs;
pub(crate) mod fake_llm;
pub(crate) mod http;
mod output;
pub(crate) mod playwright_test;
mod prerequisites;
pub(crate) mod recording_server;
pub(crate) mod static_server;
mod test;
pub(crate) mod walk;

pub(crate) use cache_proofs::proofs_as_text;
pub(crate) use output::Output;
pub(crate) use prerequisites::{driver_cli_js, require_browser, require_firefox};
pub(crate) use test::{PHASE_LIMIT, Running, Test, copy_tree, free_port, repo_dir};

/// Fails unless every failed test among `events` says why: a verdict, or a cause with its type
/// and a message. `what` names the run in the message.
pub(crate) fn assert_every_failure_says_why(what: &str, events: &[serde_json::Value]) {
    for test in events
        .iter()
        .filter(|e| e["event"] == "test_finished" && e["outcome"]["status"] == "failed")
    {
        let outcome = &test["outcome"];
        let cause = &outcome["cause"];
        let said = [&cause["message"], &cause["reason"]]
            .iter()
            .any(|text| text.as_str().is_some_and(|t| !t.trim().is_empty()));
        assert!(
            outcome["verdict"].is_object() || (cause["type"].is_string() && said),
            "{what}: a failure with neither a verdict nor a cause: {test}"
        );
    }
}
