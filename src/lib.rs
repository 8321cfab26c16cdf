//! prettyplay: a test runner for web UIs whose steps are plain sentences.
//!
//! The layout follows the flow of a run:
//! `scenario` (parse, discover) → `runner` (tests, steps, events) → `engine` (generation and
//! healing: which code a step runs) → `step` (executing code on the live page inside its settle
//! window) → `script` (the JS sandbox and its Playwright binding) → `driver` (the browser) →
//! `cache` (proven step code, users' property); the runner's events go to `report`.
//! `writer` writes step code for the engine: the built-in generator, and a model through `llm`,
//! behind one port. `llm` also asks a model for failure verdicts. `config` resolves settings;
//! `cli` is the only place that knows about clap.

pub mod cache;
mod causes;
pub mod cli;
pub mod config;
mod driver;
pub mod engine;
mod error;
mod export;
mod import;
mod install;
pub mod llm;
mod paths;
mod regular_file;
pub mod report;
pub mod runner;
pub mod scenario;
mod script;
mod secrets;
mod snippet;
mod step;
mod stop_signal;
#[cfg(test)]
mod test_env;
mod visible;
mod web_server;
mod writer;
