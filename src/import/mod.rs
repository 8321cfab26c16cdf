//! `prettyplay import`: Playwright planner plans and Gherkin files as `.steps` files.
//!
//! Main entry point: [`import_files`].

mod feature;
mod importer;
mod plan;
mod steps_writer;
mod unportable;

pub(crate) use importer::{ImportError, import_files};
