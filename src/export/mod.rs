//! `prettyplay export --playwright DIR`: the scenarios and their cached code as a Playwright
//! Test project, which `npx playwright test` runs with the results of `prettyplay replay
//! --strict`.
//!
//! Main entry point: [`export_playwright`].

mod project;
mod sandbox_check;
mod spec;
mod visible_code;

pub(crate) use project::{ExportError, ExportTarget, export_playwright};
