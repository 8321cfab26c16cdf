//! The web servers of the app under test (`[web_server]`, Playwright Test's `webServer`): started
//! before the first test, each in a process group of its own, ready when its URL answers, and
//! stopped with its whole group after the run — also on Ctrl-C and on a panic.
//!
//! Main type: [`WebServers`]. Documented in `docs/configuration.md` (`[web_server]`).

mod output_tail;
mod probe;
mod process;
mod web_server_error;
mod web_servers;

pub(crate) use output_tail::LineSink;
pub(crate) use process::kill_all_now;
pub(crate) use web_server_error::WebServerError;
pub(crate) use web_servers::WebServers;
