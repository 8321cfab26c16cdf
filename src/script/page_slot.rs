//! [`PageSlot`]: one page of a test's browser context as step code addresses it — by its index
//! in the context's list of pages (0 is the test's own page, then popups and tabs in the order
//! they opened). The binding reads the list; event routing adds to it.

use playwright_rs::protocol::{Frame, Page};

/// One page of the test's context and its main frame.
#[derive(Clone)]
pub(crate) struct PageSlot {
    pub page: Page,
    pub frame: Frame,
}
