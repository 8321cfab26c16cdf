//! `prettyplay import`: Playwright planner plans and Gherkin files as `.steps` files.
//!
//! Main entry point: [`import_files`].

mod feature;
mod importer;
mod plan;

pub use importer::{ImportError, Imported, import_files};
