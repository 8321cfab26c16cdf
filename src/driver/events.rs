//! Record-only listeners on a test's browser context: new pages (popups, tabs), dialogs and
//! downloads are queued here as they happen; the script binding decides what becomes of them.
//! A page whose renderer crashed is recorded too.
//!
//! Main type: [`ContextEvents`]. Registering a dialog listener turns off Playwright's implicit
//! auto-dismiss, so every queued dialog must be resolved by someone: the step that claimed it,
//! or the binding's resolver of last resort.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use playwright_rs::protocol::{BrowserContext, Dialog, Download, Page};

/// What happened in a test's context since it opened.
#[derive(Default)]
pub struct ContextEvents {
    /// Pages opened in the context after the test's own page, in order.
    pages: Mutex<Vec<Page>>,
    /// Dialogs not yet taken by the binding, oldest first.
    dialogs: Mutex<VecDeque<Dialog>>,
    /// Downloads not yet taken by the binding, oldest first.
    downloads: Mutex<VecDeque<Download>>,
    /// A page of the context crashed (its renderer process died).
    /// (Shared with the pages' crash handlers alone, so that no page holds its context's queues.)
    crashed: Arc<AtomicBool>,
}

/// Locks a queue; a poisoned lock only means a listener panicked mid-push, and the queue is
/// still a valid list.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl ContextEvents {
    /// Registers the recorders on `context`.
    pub async fn attach(context: &BrowserContext) -> Result<Arc<Self>, playwright_rs::Error> {
        let events = Arc::new(Self::default());
        let recorder = Arc::clone(&events);
        context
            .on_page(move |page| {
                lock(&recorder.pages).push(page.clone());
                let crashed = Arc::clone(&recorder.crashed);
                async move { record_crashes(&page, crashed).await }
            })
            .await?;
        let recorder = Arc::clone(&events);
        context
            .on_dialog(move |dialog| {
                lock(&recorder.dialogs).push_back(dialog);
                async { Ok(()) }
            })
            .await?;
        let recorder = Arc::clone(&events);
        context
            .on_download(move |download| {
                lock(&recorder.downloads).push_back(download);
                async { Ok(()) }
            })
            .await?;
        Ok(events)
    }

    /// Records a crash of `page` (the context's first page; later ones are watched as they
    /// open).
    pub async fn watch_crashes(&self, page: &Page) -> Result<(), playwright_rs::Error> {
        record_crashes(page, Arc::clone(&self.crashed)).await
    }

    /// Whether a page of the context crashed.
    pub fn page_crashed(&self) -> bool {
        self.crashed.load(Ordering::SeqCst)
    }

    /// Pages opened after the first `known` ones.
    pub fn pages_after(&self, known: usize) -> Vec<Page> {
        lock(&self.pages).iter().skip(known).cloned().collect()
    }

    /// Takes the oldest queued dialog.
    pub fn next_dialog(&self) -> Option<Dialog> {
        lock(&self.dialogs).pop_front()
    }

    /// Puts a dialog back at the front of the queue (left for a later resolution).
    pub fn requeue_dialog(&self, dialog: Dialog) {
        lock(&self.dialogs).push_front(dialog);
    }

    /// Takes the oldest queued download.
    pub fn next_download(&self) -> Option<Download> {
        lock(&self.downloads).pop_front()
    }
}

/// Sets `crashed` when `page` crashes.
async fn record_crashes(page: &Page, crashed: Arc<AtomicBool>) -> Result<(), playwright_rs::Error> {
    page.on_crash(move || {
        crashed.store(true, Ordering::SeqCst);
        async { Ok(()) }
    })
    .await
}
