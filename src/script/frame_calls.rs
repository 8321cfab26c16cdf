//! The browser calls of pass-through ops that take more than one protocol message: a method on
//! the element a selector resolves to, a method that answers a JS handle, and the overrun guard
//! of frame calls whose driver timeout may never fire.
//!
//! Main functions: [`on_element`], [`handle_value`], [`overrun_limit`] / [`overran`].

use std::time::{Duration, Instant};

use playwright_rs::protocol::Frame;
use playwright_rs::server::channel_owner::ChannelOwner;
use playwright_rs::server::connection::ConnectionLike;
use serde_json::{Value, json};

use crate::script::FailureKind;
use crate::script::driver_error::HostError;

/// The longest any timeout step code gives is taken to be: a day, past any test's deadline.
pub(crate) const LONGEST_TIMEOUT: Duration = Duration::from_secs(24 * 60 * 60);

/// The duration of a Playwright `timeout` option of `ms` milliseconds: `None` for 0 (no
/// timeout), a negative number or NaN; at most [`LONGEST_TIMEOUT`], so that no number step code
/// passes can overflow a clock.
pub(crate) fn timeout_of(ms: f64) -> Option<Duration> {
    (ms > 0.0).then(|| {
        Duration::try_from_secs_f64(ms / 1000.0)
            .unwrap_or(LONGEST_TIMEOUT)
            .min(LONGEST_TIMEOUT)
    })
}

/// The grace period a call gets past its own timeout (see [`overrun_limit`]).
const OVERRUN_GRACE: Duration = Duration::from_secs(5);

/// How long a frame call may take before it counts as hung: its own `timeout` plus a grace
/// period (the driver's own timeout does not fire everywhere: an `expect` while a dialog blocks
/// the page never answers). Calls without a timeout get a day.
pub(crate) fn overrun_limit(params: &Value) -> Duration {
    match params["timeout"].as_f64().and_then(timeout_of) {
        Some(timeout) => timeout + OVERRUN_GRACE,
        None => LONGEST_TIMEOUT,
    }
}

/// The error of a call that overran its timeout: as the driver would have reported it.
pub(crate) fn overran(params: &Value, expect: bool) -> HostError {
    let ms = params["timeout"].as_f64().unwrap_or_default();
    HostError {
        kind: if expect {
            FailureKind::FailedCheck
        } else {
            FailureKind::Timeout
        },
        message: format!("Timeout {ms}ms exceeded."),
        log: Vec::new(),
        received: None,
    }
}

/// Playwright's `Locator._withElement`: waits for the selector's element to be attached, calls
/// `method` on its handle with the time left, and disposes of the handle.
pub(crate) async fn on_element(
    frame: &Frame,
    method: &str,
    mut params: Value,
) -> Result<Value, HostError> {
    let started = Instant::now();
    let Some(fields) = params.as_object_mut() else {
        return Err(HostError::script(format!("{method}: bad parameters")));
    };
    let selector = fields.remove("selector").unwrap_or_default();
    let timeout = fields.get("timeout").and_then(Value::as_f64);
    let mut wait = json!({ "selector": selector, "strict": true, "state": "attached" });
    if let Some(timeout) = timeout {
        wait["timeout"] = json!(timeout);
        let left = timeout - started.elapsed().as_secs_f64() * 1000.0;
        if timeout > 0.0 {
            fields.insert("timeout".to_owned(), json!(left.max(1.0)));
        }
    }
    let found: Value = frame
        .channel()
        .send("waitForSelector", wait)
        .await
        .map_err(|err| HostError::from_playwright(err, false))?;
    let Some(guid) = found["element"]["guid"].as_str() else {
        return Err(HostError::script(format!(
            "could not resolve {selector} to a DOM element"
        )));
    };
    let connection = frame.connection();
    let result = connection.send_message(guid, method, params).await;
    dispose(connection.as_ref(), guid).await;
    result
        .map(|v| if v.is_null() { json!({}) } else { v })
        .map_err(|err| HostError::from_playwright(err, false))
}

/// Calls a frame method that answers a JS handle and answers the handle's value
/// (`{ "value": SerializedValue }`), disposing of the handle.
pub(crate) async fn handle_value(
    frame: &Frame,
    method: &str,
    params: Value,
) -> Result<Value, HostError> {
    let reply: Value = frame
        .channel()
        .send(method, params)
        .await
        .map_err(|err| HostError::from_playwright(err, false))?;
    let Some(guid) = reply["handle"]["guid"].as_str() else {
        return Ok(json!({}));
    };
    let connection = frame.connection();
    let value = connection.send_message(guid, "jsonValue", json!({})).await;
    dispose(connection.as_ref(), guid).await;
    value.map_err(|err| HostError::from_playwright(err, false))
}

async fn dispose(connection: &dyn ConnectionLike, guid: &str) {
    if let Err(err) = connection.send_message(guid, "dispose", json!({})).await {
        tracing::debug!("disposing of {guid}: {err}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_overrun_past_their_timeout_plus_grace() {
        assert_eq!(
            overrun_limit(&json!({ "timeout": 1000.0 })),
            Duration::from_secs(6)
        );
        assert_eq!(
            overrun_limit(&json!({ "timeout": 0 })),
            Duration::from_secs(86_400)
        );
        assert_eq!(overrun_limit(&json!({})), Duration::from_secs(86_400));
        let err = overran(&json!({ "timeout": 500 }), true);
        assert_eq!(
            (err.kind, err.message.as_str()),
            (FailureKind::FailedCheck, "Timeout 500ms exceeded.")
        );
        assert_eq!(overran(&json!({}), false).kind, FailureKind::Timeout);
    }

    #[test]
    fn any_number_is_a_timeout_that_cannot_overflow() {
        assert_eq!(timeout_of(1500.0), Some(Duration::from_millis(1500)));
        for none in [0.0, -1.0, f64::NAN, f64::NEG_INFINITY] {
            assert_eq!(timeout_of(none), None, "{none}");
        }
        for huge in [1e300, f64::INFINITY, f64::MAX] {
            assert_eq!(timeout_of(huge), Some(LONGEST_TIMEOUT), "{huge}");
        }
        assert_eq!(
            overrun_limit(&json!({ "timeout": 1e300 })),
            LONGEST_TIMEOUT + OVERRUN_GRACE
        );
    }
}
