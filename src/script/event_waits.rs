//! `page.waitForEvent`'s wait: step code blocks until the event came, its timeout passed, or
//! the test's deadline closed its context.
//!
//! Main function: [`StepHost::wait_for`].

use std::time::Instant;

use serde_json::Value;

use crate::script::FailureKind;
use crate::script::binding::StepHost;
use crate::script::driver_error::HostError;
use crate::script::frame_calls::timeout_of;

impl StepHost {
    /// Blocks until waiter `id` got its event, or `timeout_ms` (0: no limit) passes.
    pub(super) fn wait_for(
        &self,
        id: usize,
        timeout_ms: f64,
        total_ms: f64,
    ) -> Result<Value, HostError> {
        let deadline = timeout_of(timeout_ms).map(|timeout| Instant::now() + timeout);
        let event = self
            .routing
            .borrow()
            .waiter_event(id)
            .ok_or_else(|| HostError::script(format!("no event waiter {id}")))?;
        self.run(async {
            loop {
                if let Some(result) = self.routing.borrow_mut().finish_waiter(id) {
                    return Ok(result);
                }
                // The test's deadline closes its context, which no event of the page tells a
                // waiter: without this, a wait with no timeout of its own would never end.
                let ended = if self.test_page.is_closing() {
                    Some("the test's context closed while waiting for event".to_owned())
                } else if deadline.is_some_and(|d| Instant::now() >= d) {
                    Some(format!(
                        "Timeout {total_ms}ms exceeded while waiting for event"
                    ))
                } else {
                    None
                };
                if let Some(why) = ended {
                    self.routing.borrow_mut().cancel_waiter(id);
                    return Err(HostError {
                        kind: FailureKind::Timeout,
                        message: format!("{why} \"{}\"", event.name()),
                        log: Vec::new(),
                        received: None,
                    });
                }
                tokio::time::sleep(crate::script::events::ROUTE_INTERVAL).await;
            }
        })?
    }
}
