//! Listeners that only record what happens in a test's browser context. They queue new pages
//! (popups, tabs), dialogs and downloads as they happen, and the script binding decides what
//! becomes of them. They also record a page whose renderer crashed and, with `isolation =
//! "reuse"`, the origins that the context's frames loaded documents from.
//!
//! Main type: [`ContextEvents`]. Registering a dialog listener turns off Playwright's implicit
//! auto-dismiss, so someone must resolve every queued dialog: either the step that claimed it
//! or the binding's resolver of last resort.

use std::collections::{BTreeSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use playwright_rs::protocol::{BrowserContext, Dialog, Download, Page};

/// What happened in a test's context since it opened.
#[derive(Default)]
pub(crate) struct ContextEvents {
    /// Pages opened in the context after the test's own page, in order.
    pages: Mutex<Vec<Page>>,
    /// Dialogs not yet taken by the binding, oldest first.
    dialogs: Mutex<VecDeque<Dialog>>,
    /// Downloads not yet taken by the binding, oldest first.
    downloads: Mutex<VecDeque<Download>>,
    /// The origins its frames loaded documents from, when tracked ([`ContextEvents::track_origins`]).
    origins: Arc<Mutex<BTreeSet<String>>>,
    /// Set when a page of the context crashed because its renderer process died. Only the
    /// pages' crash handlers share it, so that no page holds its context's queues.
    crashed: Arc<AtomicBool>,
}

/// Locks a queue. A poisoned lock only means that a listener panicked in the middle of a push,
/// and the queue is still a valid list, so the poison is ignored.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl ContextEvents {
    /// Registers the recorders on `context`.
    pub(crate) async fn attach(
        context: &BrowserContext,
    ) -> Result<Arc<Self>, playwright_rs::Error> {
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

    /// Records the origin of every document a frame of `context` loads, because `isolation =
    /// "reuse"` clears the storage of each before the next test. The driver sends frame
    /// navigations anyway, so this adds no protocol traffic.
    pub(crate) async fn track_origins(
        &self,
        context: &BrowserContext,
    ) -> Result<(), playwright_rs::Error> {
        let origins = Arc::clone(&self.origins);
        context
            .on_frame_navigated(move |frame| {
                if let Some(origin) = origin_of(&frame.url()) {
                    lock(&origins).insert(origin);
                }
                async { Ok(()) }
            })
            .await
    }

    /// Returns the origins recorded by [`ContextEvents::track_origins`], in order.
    pub(crate) fn visited_origins(&self) -> Vec<String> {
        lock(&self.origins).iter().cloned().collect()
    }

    /// Records a crash of `page`, the context's first page. Later pages are watched as they
    /// open.
    pub(crate) async fn watch_crashes(&self, page: &Page) -> Result<(), playwright_rs::Error> {
        record_crashes(page, Arc::clone(&self.crashed)).await
    }

    /// Returns whether a page of the context crashed.
    pub(crate) fn page_crashed(&self) -> bool {
        self.crashed.load(Ordering::SeqCst)
    }

    /// Returns the pages opened after the first `known` ones.
    pub(crate) fn pages_after(&self, known: usize) -> Vec<Page> {
        lock(&self.pages).iter().skip(known).cloned().collect()
    }

    /// Takes the oldest queued dialog.
    pub(crate) fn next_dialog(&self) -> Option<Dialog> {
        lock(&self.dialogs).pop_front()
    }

    /// Puts a dialog back at the front of the queue, so that a later step or the resolver of
    /// last resort can resolve it.
    pub(crate) fn requeue_dialog(&self, dialog: Dialog) {
        lock(&self.dialogs).push_front(dialog);
    }

    /// Takes the oldest queued download.
    pub(crate) fn next_download(&self) -> Option<Download> {
        lock(&self.downloads).pop_front()
    }
}

/// Returns the origin of `url` (`http://127.0.0.1:3000`), or `None` for URLs without one of
/// their own (`about:blank`, `data:`).
fn origin_of(url: &str) -> Option<String> {
    let origin = url::Url::parse(url).ok()?.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

/// Sets `crashed` when `page` crashes.
async fn record_crashes(page: &Page, crashed: Arc<AtomicBool>) -> Result<(), playwright_rs::Error> {
    page.on_crash(move || {
        crashed.store(true, Ordering::SeqCst);
        async { Ok(()) }
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_urls_of_an_origin_of_their_own_count() {
        assert_eq!(
            origin_of("http://127.0.0.1:3000/a/b?c#d").as_deref(),
            Some("http://127.0.0.1:3000")
        );
        assert_eq!(
            origin_of("https://example.com/").as_deref(),
            Some("https://example.com")
        );
        assert_eq!(origin_of("about:blank"), None);
        assert_eq!(origin_of("data:text/html,hi"), None);
        assert_eq!(origin_of(""), None);
    }
}
