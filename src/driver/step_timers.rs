//! The timers, intervals, animation frames and idle callbacks that step code's own JavaScript
//! left in a page, so that the origin guard can wait for what they send before a step's code
//! is kept or a test ends, and can refuse code that leaves work behind for after the test.
//!
//! Main type: [`StepTimers`]. A settle sees only what a page sends while the test lives: a
//! `setTimeout(() => fetch(...), 2000)` that step code leaves behind would fire after the
//! context closed, so its request would never be judged while the code was cached as passing.
//! An init script (`step_timers.js`) wraps the page's timer functions before any of the page's
//! scripts run and notes, for every callback still to run, the wall-clock time at which its
//! chain began (a timer registered inside a timer's callback belongs to that callback's
//! chain). The guard notes the wall-clock windows during which step code's own JavaScript ran
//! (from the call's send to the next call of step code, or the settle). A settle then asks
//! each page how many callbacks rooted in those windows are still pending, counts them as
//! open, and waits while they are; when the settle's cap passes with some still pending, the
//! step fails and its code is not kept. So an app's own timers and polls, begun outside those
//! windows, never hold a step, and a step's timer is either seen to send or refused.
//!
//! What it does not follow: timers of other frames than the pages' main frames, of workers, a
//! timer function a step takes from another frame, and work a step leaves on an event listener
//! or a promise that resolves after its call returned. Those still send only while the guard's
//! routes watch, but a send after the test's last settle is not seen.

use std::hash::BuildHasher;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use playwright_rs::protocol::Frame;
use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};

/// The init script's source: a function of the query's name.
const SCRIPT: &str = include_str!("step_timers.js");

/// How far a window reaches before and after the times this process saw, because the page
/// reads the clock with less precision (Firefox rounds it to a millisecond or more).
const MARGIN_MS: f64 = 5.0;

/// What a page holds of step code's timers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Held {
    /// Callbacks rooted in step code's windows still to run.
    pub(crate) pending: usize,
    /// How long ago the latest such callback ran.
    pub(crate) fired_ago: Option<Duration>,
}

/// See the module documentation.
pub(crate) struct StepTimers {
    /// The name of the page's query, random per guard so that no page knows it in advance.
    name: String,
    /// The windows, in ms since the epoch; the last one's end is `None` while it is open.
    windows: Mutex<Vec<(f64, Option<f64>)>>,
}

impl StepTimers {
    pub(crate) fn new() -> StepTimers {
        // Each RandomState is seeded from the system's randomness.
        let name = format!(
            "__prettyplay_timers_{:016x}",
            std::collections::hash_map::RandomState::new().hash_one(3u8)
        );
        StepTimers {
            name,
            windows: Mutex::default(),
        }
    }

    /// The init script that records the timers of every frame.
    pub(crate) fn init_script(&self) -> String {
        format!("({})({});", SCRIPT.trim(), json!(self.name))
    }

    /// Notes that a call of step code is about to be sent: the window of the call before, if
    /// it ran step code's JavaScript, ends now, and a new one begins when this one does.
    pub(crate) fn call(&self, runs_code: bool) {
        let at = now_ms();
        let mut windows = self.windows();
        if let Some((_, end @ None)) = windows.last_mut() {
            *end = Some(at + MARGIN_MS);
        }
        if runs_code {
            windows.push((at - MARGIN_MS, None));
        }
    }

    /// Ends the open window, if any: a settle begins, so step code is not running.
    pub(crate) fn close(&self) {
        let at = now_ms();
        if let Some((_, end @ None)) = self.windows().last_mut() {
            *end = Some(at + MARGIN_MS);
        }
    }

    /// Whether step code ran JavaScript of its own in this test, so that pages are worth
    /// asking.
    pub(crate) fn any(&self) -> bool {
        !self.windows().is_empty()
    }

    /// Asks the page of `frame` what it holds of step code's timers, waiting at most `left`.
    /// A page that does not answer (closed, navigating, hung) holds nothing that can still
    /// send while the guard waits.
    pub(crate) async fn held(&self, frame: &Frame, left: Duration) -> Held {
        let windows: Vec<[f64; 2]> = self
            .windows()
            .iter()
            .map(|&(from, to)| [from, to.unwrap_or(f64::MAX)])
            .collect();
        let expression = format!(
            "(() => {{ const q = globalThis[{}]; return typeof q === 'function' ? q({}) : ''; }})()",
            json!(self.name),
            json!(windows)
        );
        let call = frame.channel().send::<Value, Value>(
            "evaluateExpression",
            json!({ "expression": expression, "isFunction": false,
                    "arg": { "value": { "v": "undefined" }, "handles": [] } }),
        );
        match tokio::time::timeout(left, call).await {
            Ok(Ok(answer)) => parse(answer.pointer("/value/s").and_then(Value::as_str)),
            _ => Held::default(),
        }
    }

    fn windows(&self) -> MutexGuard<'_, Vec<(f64, Option<f64>)>> {
        // A panic while the lock was held leaves plain data behind, so the data is still used.
        self.windows.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Reads the query's answer, `"<pending> <ms ago or -1>"`.
fn parse(answer: Option<&str>) -> Held {
    let mut parts = answer.unwrap_or_default().split(' ');
    let pending = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    let fired_ago = parts
        .next()
        .and_then(|a| a.parse::<f64>().ok())
        .filter(|a| *a >= 0.0)
        .map(|a| Duration::from_secs_f64(a / 1000.0));
    Held { pending, fired_ago }
}

/// The wall clock in ms since the epoch, the clock a page's `Date.now` reads.
fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pages_answer_is_read() {
        assert_eq!(
            parse(Some("2 15")),
            Held {
                pending: 2,
                fired_ago: Some(Duration::from_millis(15))
            }
        );
        assert_eq!(parse(Some("0 -1")), Held::default());
        assert_eq!(parse(None), Held::default());
    }

    #[test]
    fn a_window_runs_from_a_code_call_to_the_next_call_or_the_settle() {
        let timers = StepTimers::new();
        assert!(!timers.any());
        timers.call(false);
        assert!(!timers.any());
        timers.call(true);
        timers.call(false);
        timers.call(true);
        timers.close();
        let windows = timers.windows().clone();
        assert_eq!(windows.len(), 2);
        assert!(
            windows
                .iter()
                .all(|(from, to)| to.is_some_and(|to| to > *from))
        );
        assert!(windows[0].1 <= Some(windows[1].0 + 2.0 * MARGIN_MS));
    }

    #[test]
    fn the_query_is_named_per_guard() {
        let (a, b) = (StepTimers::new(), StepTimers::new());
        assert_ne!(a.name, b.name);
        assert!(a.init_script().contains(&a.name));
    }
}
