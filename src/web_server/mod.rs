//! The web servers of the app under test (`[web_server]`, Playwright Test's `webServer`): started
//! before the first test, each in a process group of its own, ready when its URL answers, and
//! stopped with its whole group after the run — also on Ctrl-C, SIGTERM, SIGHUP, a panic, and
//! by a watchdog when prettyplay is killed — and whether the app's server can be reached at all
//! ([`reach`]).
//!
//! Main type: [`WebServers`]. Documented in `docs/configuration.md` (`[web_server]`).

mod output_tail;
mod probe;
mod process;
mod reach;
mod watchdog;
mod web_server_error;
mod web_servers;

pub(crate) use output_tail::LineSink;
pub(crate) use process::kill_all_now;
pub(crate) use reach::{CONNECT_LIMIT, UNREACHABLE_HINT, Unreachable, reach};
pub(crate) use web_server_error::WebServerError;
pub(crate) use web_servers::WebServers;
