//! prettyplay's integration tests: one binary, a module per area.
//!
//! `cli` runs the binary without a browser; `e2e` runs it against pages served on 127.0.0.1 in a
//! real headless Chromium (installed by `./setup`); `screen` checks the screen modes there; `settle`
//! checks the settle window there;
//! `conformance` checks the step-code API (locators, actions, reads, the page, assertions)
//! against Playwright's documented behaviour there;
//! `conformance_events` checks dialogs, popups, frames, scrolling and downloads against
//! Playwright's documented behaviour there;
//! `llm` checks the LLM providers against a fake LLM server; `engine` checks generation, healing
//! and verdicts end to end (browser, binary and fake LLM);
//! `merge` runs a suite as three shards writing report blobs and merges them with
//! `merge-reports` into the reports of one run, and checks the blobs it refuses;
//! `reports` checks the JSON lines, JUnit (against its schema, with xmllint) and HTML reports, the
//! HTML one in Chromium;
//! `runner` checks sharding, workers, Ctrl-C, `--last-failed`, `-x`, `--tag`, the test timeout
//! and traces through the CLI there; `retries` checks `--retries` and flaky tests in every
//! reporter there; `select` checks `list` with the selection flags, tag expressions and
//! `FILE:LINE`;
//! `requests` measures what generation requests send on the demo (stable prefix, fresh part);
//! `waits` bounds LLM calls by the test timeout and stops calling a failing LLM; `hygiene` checks that the API key never shows or reaches the driver, and output hygiene;
//! `crashes` kills the driver, Chromium or a renderer mid-step and checks the run recovers;
//! `cross_impl` replays the cross-implementation TodoMVC suite on the build it was proven on and
//! runs it with no LLM on another;
//! `origins` checks that `[browser] allowed_origins` keeps the pages on the app's origins there
//! (`origins_app` with an app's own third-party traffic, `origins_end` with what the app does
//! just after a test's last act, `origins_close` with what it sends as a test's context closes);
//! `outages` checks that an app that is down or goes down, a missing base URL and an HTTP 500
//! page are said as what they are, with their exit codes, and never sent to the LLM;
//! `remote` runs through a real Playwright server (`connect`) and a Chromium's DevTools port
//! (`cdp`), and loses their connections mid-test;
//! `background` checks `background:` blocks and `examples:` tables end to end;
//! `browsers` runs browser projects in Chromium and Firefox (reports, `--last-failed`, shards,
//! code generated in one browser replayed in the other, a missing Firefox), and `firefox` runs
//! the step API's groups in Firefox;
//! `authoring` checks `explain FILE:LINE` (earlier steps run first, `try:` rewrites) and
//! `list --check`;
//! `reuse` checks that `isolation = "reuse"` leaks nothing from one test to the next;
//! `saved_state` checks saved logins (`[saves=NAME]`, `[state=NAME]`) end to end;
//! `gherkin` runs a Cucumber-style `.feature` suite (generate, replay, select, heal);
//! `export` runs an exported project with `npx playwright test` and compares its results with
//! `replay --strict`'s; `install` runs `prettyplay install` (a dry run on a bare PATH, and the driver from npm into
//! a clean HOME);
//! `optional` checks `[optional]` steps (clicked when their target shows, skipped when it does
//! not, with the same cached code; an optional check refused);
//! `cache_process` writes one cache from two processes at once; `architecture` checks the layering
//! of `src/` from its sources; `web_server` starts and stops `[web_server]`s through the CLI;
//! `signals` stops runs with SIGTERM, SIGHUP, SIGINT and SIGKILL and checks nothing is left;
//! `show` serves reports and traces with `show-report` and `show-trace` and requests them over
//! HTTP; `docs` runs every command block of README.md and docs/tutorial.md and compares the
//! outputs they show; `api_steps_builtin` runs HTTP sentences (`send POST ...`, `GET ... answers
//! N`, `the API ... lists "X"`) with no LLM against a JSON API; `bodies` feeds `request` 300 MB
//! bodies (chunked, compressed, with lying lengths) and bounds the run's peak memory;
//! `builtin_review` checks the built-in generator's placements (side by side, a moving element),
//! `go back` from a test's first page and a page of more elements than the structure lists;
//! `false_greens` and
//! `false_greens_demo` measure issue 41's false greens (a heal that moves a check, a likeness of a
//! quoted name clicked, checks that create or wait for their subject, the demo suite healed by a
//! lying model) and `proof_false_reds` the mutation proof's false reds (a focused editor, a checked
//! radio, a live counter, a GET sent per proof run), each test asserting what the issue asks for
//! and ignored while the bug is there (`scripts/false-greens.sh` runs them); `support` is the
//! shared harness.

#![expect(
    clippy::unwrap_used,
    clippy::print_stderr,
    reason = "a test harness: a panic is the test failing, and measured figures go to the log"
)]

mod accessibility;
mod aids;
mod api_steps;
mod api_steps_builtin;
mod architecture;
mod audit;
mod authoring;
mod background;
mod bodies;
mod browsers;
mod builtin;
mod builtin_back;
mod builtin_cells;
mod builtin_either;
mod builtin_review;
mod cache_process;
mod chromium_args;
mod cli;
mod conformance;
mod conformance_events;
mod crashes;
mod cross_impl;
mod docs;
mod e2e;
mod engine;
mod evidence;
mod export;
mod false_greens;
mod false_greens_demo;
mod false_greens_subject;
mod firefox;
mod gherkin;
mod hygiene;
mod import;
mod install;
mod llm;
mod margins;
mod merge;
mod natural;
mod optional;
mod origins;
mod origins_app;
mod origins_close;
mod origins_end;
mod outages;
mod own_plans;
mod plans;
mod proof_false_reds;
mod remote;
mod reports;
mod requests;
mod retries;
mod reuse;
mod reused_code;
mod runner;
mod saved_state;
mod screen;
mod screenshots;
mod select;
mod settle;
mod show;
mod signals;
mod support;
mod vars;
mod waits;
mod web_server;
