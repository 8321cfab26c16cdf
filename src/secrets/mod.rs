//! The values that must never reach a sink, and every form in which a sink can meet one.
//!
//! Main type: [`Secrets`]. [`encodings`] writes the pattern that finds a value however it was
//! escaped or encoded on its way to a sink; [`constant_strings`] finds the strings step code
//! builds from constants, so that a value spelled in pieces is found too.

mod constant_strings;
mod encodings;
mod folder_calls;
mod js_methods;
mod js_names;
mod js_operators;
mod js_value;
#[expect(
    clippy::module_inception,
    reason = "one main type per file, named after it"
)]
mod secrets;

pub(crate) use constant_strings::constant_strings;
pub(crate) use secrets::MIN_SECRET_CHARS;
pub(crate) use secrets::{CodeSecret, Secrets};
