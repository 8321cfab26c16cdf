//! The binding's side of the origin guard's settle: before a step's code is kept, before a
//! failed candidate's blocks are forgiven and at a test's end, the guard waits until the
//! timers step code left in the pages have fired and nothing the pages started is unseen.
//!
//! Main function: [`StepHost::origins_after_grace`]. The waits themselves are the guard's
//! (`driver/origins.rs`, `driver/step_timers.rs`, `driver/traffic.rs`).

use std::time::Duration;

use crate::driver::{OriginGuard, SettleAt, Settled};
use crate::script::binding::StepHost;

/// The longest the origin guard waits, before a step's code is cached or its test is
/// concluded, for what the step's last calls set going (a request, a redirect, a socket) to be
/// heard of, when the pages never fall quiet (they poll without pause, or hang). Such a request
/// is blocked whenever it comes; the wait decides whether it is counted against the right step.
const SETTLE_CAP: Duration = Duration::from_secs(2);

impl StepHost {
    /// The guard, once the timers step code left in the pages fired or were cleared (for at
    /// most `timers_bound`, the step's timeout: past it the guard records the step's failure)
    /// and nothing the pages started is still unseen: a round trip through every open page saw
    /// no request start or end and none of the step's is open (see `traffic.rs`), or
    /// [`SETTLE_CAP`] passed. Where it is asked (`at`) decides the floors the guard keeps.
    pub(crate) fn origins_after_grace(
        &self,
        timers_bound: Duration,
        at: SettleAt,
    ) -> Option<&OriginGuard> {
        let guard = self.test_page.origins()?;
        // A routing pass first, so that a popup the step opened is among the pages.
        let _ = self.run(async {});
        let frames: Vec<_> = self
            .pages
            .borrow()
            .iter()
            .filter(|slot| !slot.page.is_closed())
            .map(|slot| slot.frame.clone())
            .collect();
        match self.run(guard.settle(&frames, SETTLE_CAP, timers_bound, at)) {
            Ok(Settled::Capped) => {
                tracing::debug!(target: "prettyplay::origins", "the pages did not settle within {SETTLE_CAP:?}");
            }
            Ok(Settled::TimersPending(count)) => {
                tracing::info!(target: "prettyplay::origins", count, "step code's timers were still pending after {timers_bound:?}");
            }
            _ => {}
        }
        Some(guard)
    }
}
