//! What the sandbox needs from the browser side: the host that step code's browser calls cross
//! into.
//!
//! Main type: [`Host`]. The real host is [`StepHost`](crate::script::StepHost) (the Playwright
//! binding over the test's pages); tests of the prelude use a recording one, without a browser.

use std::time::Duration;

use crate::script::StepFailure;
use crate::script::observe::ValueCheck;

/// The browser side of the binding, as the sandbox calls it.
pub(crate) trait Host {
    /// Runs one call from the prelude: `method` (e.g. `frame.click`) with JSON `params` on page
    /// `page_id`; answers the JSON the prelude expects (`{"value": ...}` or `{"error": ...}`,
    /// plus `events`).
    fn call(&self, page_id: u32, method: &str, params: &str) -> String;
    /// Records a `console.*` line of step code.
    fn push_log(&self, level: &str, message: &str);
    /// Time spent inside browser calls so far, which the runaway-code clock excludes.
    fn host_time(&self) -> Duration;
    /// Says how step code's run ended: `Some` when a failed value assertion
    /// (`expect(value).toBe(...)`) ended it, with what it compared. The evidence of such a
    /// failure is these values, since no browser call failed.
    fn ended_with(&self, _check: Option<ValueCheck>) {}
    /// Ends a step: whatever the step left behind (waiters, listeners, dialogs) is resolved.
    /// `Err` when something that happened after the step's last call fails it (a navigation
    /// `[browser] allowed_origins` blocked).
    fn end_step(&self) -> Result<(), StepFailure>;
    /// Whether `text` (a var's value, a doc string) holds a secret of the run: step code that
    /// reads it is given a secret.
    fn holds_secret(&self, _text: &str) -> bool {
        false
    }
    /// Says that step code read a var whose value holds a secret of the run.
    fn secret_read(&self) {}
}
