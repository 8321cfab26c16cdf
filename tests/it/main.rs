//! prettyplay's integration tests: one binary, a module per area.
//!
//! `cli` runs the binary without a browser; `e2e` runs it against pages served on 127.0.0.1 in a
//! real headless Chromium (installed by `./setup`); `screen` checks the screen modes there; `settle`
//! checks the settle window there;
//! `cache_process` writes one cache from two processes at once; `support` is the shared harness.

mod cache_process;
mod cli;
mod e2e;
mod screen;
mod settle;
mod support;
