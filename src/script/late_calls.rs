//! Which calls of step code the origin guard must hear return: a call whose consequences may
//! come late (an act, step code's own JavaScript) starts the guard's floor when it is sent, and
//! the floor starts again when it returns, since a long call may set its consequences going
//! only at its end.
//!
//! Main type: [`LateCalls`].

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use crate::driver::OriginGuard;

/// See the module documentation.
#[derive(Default)]
pub(super) struct LateCalls {
    /// Whether the call being dispatched is late.
    current: Cell<bool>,
    /// The ids of the parked calls that are late: they return when resumed.
    parked: RefCell<HashSet<usize>>,
}

impl LateCalls {
    /// Notes whether the call being dispatched is late.
    pub(super) fn called(&self, late: bool) {
        self.current.set(late);
    }

    /// Notes that the call being dispatched resumes the parked call `id`.
    pub(super) fn resumed(&self, id: usize) {
        self.current.set(self.parked.borrow_mut().remove(&id));
    }

    /// Whether the call being dispatched was late and returned, as `guard` is told: it was
    /// answered, or it was parked with id `parked` (a late call that was parked returns when it
    /// is resumed).
    pub(super) fn returned(&self, parked: Option<usize>, guard: Option<&OriginGuard>) -> bool {
        let late = self.current.replace(false);
        let returned = match parked {
            Some(id) => {
                if late {
                    self.parked.borrow_mut().insert(id);
                }
                false
            }
            None => late,
        };
        if let Some(guard) = guard.filter(|_| returned) {
            guard.call_returned();
        }
        returned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_call_returns_when_it_is_answered_or_when_its_parked_call_is_resumed() {
        let calls = LateCalls::default();
        calls.called(true);
        assert!(calls.returned(None, None));
        // A read after it is not late.
        calls.called(false);
        assert!(!calls.returned(None, None));
        // A parked act returns only when it is resumed; another parked call's resume does not
        // count for it.
        calls.called(true);
        assert!(!calls.returned(Some(3), None));
        calls.resumed(2);
        assert!(!calls.returned(None, None));
        calls.resumed(3);
        assert!(calls.returned(None, None));
        calls.resumed(3);
        assert!(!calls.returned(None, None));
    }
}
