//! The origin guard's barrier through a page's own network pipeline: a beacon the page sends to
//! its own origin at a path no app uses, which the guard's route catches and answers itself, so
//! it never reaches the app's server.
//!
//! Main type: [`Sentinel`]. A round trip through the page's JavaScript (an evaluation) answers
//! when the page's code has run, but a request the page made before it may reach the browser's
//! network layer, and so the driver, later than the evaluation's answer: Firefox opens a
//! content process's requests in its parent process, Chromium in its network service, and
//! neither orders them with the answer of an evaluation. A beacon the page sends after that
//! code takes the same way as the page's own requests and beacons, so when the guard's route
//! hears it, what the page queued before it has, in practice, been announced too; the guard
//! then waits for what the driver announced (see `unheard.rs`).

use std::collections::HashSet;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use playwright_rs::protocol::Frame;
use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};
use tokio::sync::Notify;

/// The first segment of a sentinel's path.
const PATH: &str = "__prettyplay_settle__";

/// See the module documentation.
pub(crate) struct Sentinel {
    /// A random token of this guard, so that no page can guess a sentinel's URL in advance.
    token: String,
    /// The number of the last beacon sent.
    sent: AtomicU64,
    /// The numbers of the beacons the route heard.
    heard: Mutex<HashSet<u64>>,
    arrived: Notify,
}

/// How a page took a sentinel beacon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Through {
    /// The route heard the beacon.
    Heard,
    /// The page sent none (a page of no web origin, a closed page, a refused beacon): the
    /// evaluation's answer is the only barrier.
    NotSent,
    /// The beacon was sent but not heard within the time left.
    Lost,
}

impl Sentinel {
    pub(crate) fn new() -> Sentinel {
        // Each RandomState is seeded from the system's randomness.
        let token = format!(
            "{:016x}{:016x}",
            std::collections::hash_map::RandomState::new().hash_one(1u8),
            std::collections::hash_map::RandomState::new().hash_one(2u8)
        );
        Sentinel {
            token,
            sent: AtomicU64::new(0),
            heard: Mutex::default(),
            arrived: Notify::new(),
        }
    }

    /// The driver's pattern (a JavaScript regular expression) of the sentinel beacons, which
    /// the guard's route must see even on an allowed origin.
    pub(crate) fn pattern(&self) -> String {
        format!("^https?://[^/]+/{PATH}/{}/[0-9]+$", self.token)
    }

    /// The number of the sentinel beacon at `url`, when it is one of this guard's.
    pub(crate) fn number(&self, url: &str) -> Option<u64> {
        let parsed = url::Url::parse(url).ok()?;
        if parsed.query().is_some() {
            return None;
        }
        let mut segments = parsed.path_segments()?;
        let (Some(path), Some(token), Some(n), None) = (
            segments.next(),
            segments.next(),
            segments.next(),
            segments.next(),
        ) else {
            return None;
        };
        if path != PATH || token != self.token {
            return None;
        }
        n.parse().ok()
    }

    /// Notes that the route heard the beacon numbered `n`.
    pub(crate) fn hear(&self, n: u64) {
        self.heard().insert(n);
        self.arrived.notify_waiters();
    }

    /// Sends a beacon from `frame` to its own origin and waits, at most `left`, for the route
    /// to hear it.
    pub(crate) async fn through(&self, frame: &Frame, left: Duration) -> Through {
        let n = self.sent.fetch_add(1, Ordering::SeqCst) + 1;
        let asked = std::time::Instant::now();
        // The prototype's own function, called on `navigator`, so that a page's property
        // named `sendBeacon` is not what sends it.
        let expression = format!(
            "(() => {{ const o = location.origin; if (!/^https?:/.test(o)) return false; \
             try {{ return Navigator.prototype.sendBeacon.call(navigator, \
             o + '/{PATH}/{}/{n}'); }} catch (e) {{ return false; }} }})()",
            self.token
        );
        let call = frame.channel().send::<Value, Value>(
            "evaluateExpression",
            json!({ "expression": expression, "isFunction": false,
                    "arg": { "value": { "v": "undefined" }, "handles": [] } }),
        );
        let sent = match tokio::time::timeout(left, call).await {
            Ok(Ok(answer)) => answer.pointer("/value/b").and_then(Value::as_bool) == Some(true),
            // A page that closed or hangs answers with an error or not at all: either way its
            // requests are no longer the step's to wait for.
            _ => false,
        };
        let evaluated = asked.elapsed();
        if !sent {
            return Through::NotSent;
        }
        let wait = async {
            loop {
                let arrived = self.arrived.notified();
                if self.heard().contains(&n) {
                    return;
                }
                arrived.await;
            }
        };
        let through = match tokio::time::timeout(left, wait).await {
            Ok(()) => Through::Heard,
            Err(_) => Through::Lost,
        };
        // What a barrier costs, and how much of it is the page's answer and how much the
        // beacon's way through the network layer to the route.
        tracing::debug!(
            target: "prettyplay::sentinel",
            ?through,
            evaluated_us = evaluated.as_micros() as u64,
            total_us = asked.elapsed().as_micros() as u64,
            "a sentinel round trip"
        );
        through
    }

    fn heard(&self) -> MutexGuard<'_, HashSet<u64>> {
        // A panic while the lock was held leaves plain data behind, so the data is still used.
        self.heard.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_guards_beacons_are_sentinels() {
        let sentinel = Sentinel::new();
        let url = format!("http://127.0.0.1:8080/{PATH}/{}/7", sentinel.token);
        assert_eq!(sentinel.number(&url), Some(7));
        let other = Sentinel::new();
        assert_ne!(other.token, sentinel.token);
        assert_eq!(other.number(&url), None);
        assert_eq!(sentinel.number(&format!("{url}?x=1")), None);
        assert_eq!(sentinel.number(&format!("{url}/more")), None);
        assert_eq!(sentinel.number("http://127.0.0.1:8080/"), None);
        // The pattern is JavaScript's; this one has the same meaning in Rust's syntax.
        let pattern = regex::Regex::new(&sentinel.pattern()).unwrap();
        assert!(pattern.is_match(&url));
        assert!(!pattern.is_match(&format!("{url}?x=1")));
        assert!(!pattern.is_match(&format!("http://127.0.0.1:8080/{PATH}/{}/7", other.token)));
    }
}
