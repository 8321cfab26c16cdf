//! Reporters: they consume the runner's [`crate::runner::RunEvent`] stream and decide what to
//! show. Terminal output only for now; JSON, JUnit and HTML reporters read the same stream.
//!
//! Main type: [`TerminalReporter`].

mod terminal;

pub use terminal::{TerminalReporter, Verbosity};
