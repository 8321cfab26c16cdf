//! Routing the context's events to step code: dialogs, popups and downloads go to the step's
//! waiters (`page.waitForEvent`) and listeners (`page.on` / `page.once`); dialogs nobody claims
//! are resolved by the resolver of last resort (accepted or dismissed per
//! `[browser] accept_dialogs`), a bounded number per browser call, so a page that raises a new
//! dialog for every resolution cannot hang a step.
//!
//! Main type: [`Routing`]; the routing pass is [`route`].

use std::cell::RefCell;
use std::collections::VecDeque;
use std::time::Duration;

use playwright_rs::protocol::{Dialog, Download};
use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};

use crate::driver::ContextEvents;
use crate::script::page_slot::PageSlot;

/// How often events are routed while a browser call runs.
pub(crate) const ROUTE_INTERVAL: Duration = Duration::from_millis(20);

/// How many unclaimed dialogs one browser call resolves at most; the rest wait for the next call.
pub(crate) const DIALOG_DRAIN_PER_CALL: usize = 20;

/// The events step code can wait for or listen to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EventKind {
    Dialog,
    Popup,
    Download,
}

impl EventKind {
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "dialog" => EventKind::Dialog,
            "popup" => EventKind::Popup,
            "download" => EventKind::Download,
            _ => return None,
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            EventKind::Dialog => "dialog",
            EventKind::Popup => "popup",
            EventKind::Download => "download",
        }
    }
}

struct Waiter {
    page_id: u32,
    event: EventKind,
    /// Events as step code receives them, in the order they happened, not yet taken.
    results: VecDeque<Value>,
    active: bool,
}

struct Listener {
    page_id: u32,
    event: EventKind,
    once: bool,
    active: bool,
}

/// The current step's claims on events, and the dialogs it owns.
#[derive(Default)]
pub(crate) struct Routing {
    waiters: Vec<Waiter>,
    listeners: Vec<Listener>,
    /// Dialogs handed to step code, by id; `None` once accepted or dismissed.
    dialogs: Vec<Option<Dialog>>,
    /// Downloads handed to step code, by id.
    downloads: Vec<Download>,
    /// Events for JS listeners, sent with the next reply.
    deliveries: Vec<Value>,
    /// A waiter took a dialog since the last look (see `StepHost::act`).
    waiter_took_dialog: bool,
}

impl Routing {
    pub(crate) fn add_waiter(&mut self, page_id: u32, event: EventKind) -> usize {
        self.waiters.push(Waiter {
            page_id,
            event,
            results: VecDeque::new(),
            active: true,
        });
        self.waiters.len() - 1
    }

    pub(crate) fn waiter_event(&self, id: usize) -> Option<EventKind> {
        self.waiters.get(id).map(|w| w.event)
    }

    /// The oldest event the waiter saw and step code has not taken yet. The waiter keeps
    /// waiting (a predicate may reject this one) until [`Routing::cancel_waiter`].
    pub(crate) fn finish_waiter(&mut self, id: usize) -> Option<Value> {
        self.waiters.get_mut(id)?.results.pop_front()
    }

    pub(crate) fn cancel_waiter(&mut self, id: usize) {
        if let Some(waiter) = self.waiters.get_mut(id) {
            waiter.active = false;
        }
    }

    pub(crate) fn add_listener(&mut self, page_id: u32, event: EventKind, once: bool) -> usize {
        self.listeners.push(Listener {
            page_id,
            event,
            once,
            active: true,
        });
        self.listeners.len() - 1
    }

    pub(crate) fn remove_listener(&mut self, id: usize) {
        if let Some(listener) = self.listeners.get_mut(id) {
            listener.active = false;
        }
    }

    pub(crate) fn take_dialog(&mut self, id: usize) -> Option<Dialog> {
        self.dialogs.get_mut(id)?.take()
    }

    pub(crate) fn has_deliveries(&self) -> bool {
        !self.deliveries.is_empty()
    }

    pub(crate) fn take_waiter_dialog(&mut self) -> bool {
        std::mem::take(&mut self.waiter_took_dialog)
    }

    /// Marks that a waiter took a dialog during the call about to be resumed.
    pub(crate) fn note_waiter_dialog(&mut self) {
        self.waiter_took_dialog = true;
    }

    pub(crate) fn take_deliveries(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.deliveries)
    }

    /// The step's JavaScript context is gone: so are its waiters and listeners. Dialogs it
    /// owned but left open go back to the resolver.
    pub(crate) fn end_step(&mut self) -> Vec<Dialog> {
        self.waiters.clear();
        self.listeners.clear();
        self.deliveries.clear();
        self.downloads.clear();
        self.waiter_took_dialog = false;
        self.dialogs.drain(..).flatten().collect()
    }

    /// Hands an event to every active waiter and listener for it on `page_id`, as Playwright
    /// does; answers whether anyone took it.
    fn claim(&mut self, page_id: u32, event: EventKind, payload: impl Fn() -> Value) -> bool {
        let mut claimed = false;
        for waiter in self
            .waiters
            .iter_mut()
            .filter(|w| w.active && w.page_id == page_id && w.event == event)
        {
            waiter.results.push_back(payload());
            claimed = true;
            if event == EventKind::Dialog {
                self.waiter_took_dialog = true;
            }
        }
        for (id, listener) in self.listeners.iter_mut().enumerate() {
            if listener.active && listener.page_id == page_id && listener.event == event {
                self.deliveries
                    .push(json!({ "listener": id, "value": payload() }));
                if listener.once {
                    listener.active = false;
                }
                claimed = true;
            }
        }
        claimed
    }
}

/// One routing pass: new pages, dialogs and downloads since the last pass.
pub(crate) async fn route(
    events: &ContextEvents,
    pages: &RefCell<Vec<PageSlot>>,
    routing: &RefCell<Routing>,
    accept_dialogs: bool,
    budget: &mut usize,
) {
    route_pages(events, pages, routing).await;
    while let Some(dialog) = events.next_dialog() {
        let page_id = page_id_of(pages, dialog.page().as_ref().map(|p| p.guid()));
        let claimed = {
            let mut routing = routing.borrow_mut();
            let id = routing.dialogs.len();
            let payload = || {
                json!({
                    "id": id,
                    "type": dialog.type_(),
                    "message": dialog.message(),
                    "defaultValue": dialog.default_value(),
                    "page": page_id,
                })
            };
            let claimed = routing.claim(page_id, EventKind::Dialog, payload);
            if claimed {
                routing.dialogs.push(Some(dialog.clone()));
            }
            claimed
        };
        if claimed {
            continue;
        }
        if *budget == 0 {
            events.requeue_dialog(dialog);
            break;
        }
        *budget -= 1;
        let resolved = if accept_dialogs {
            dialog.accept(None).await
        } else {
            dialog.dismiss().await
        };
        if let Err(err) = resolved {
            tracing::debug!("resolving an unclaimed dialog: {err}");
        }
    }
    while let Some(download) = events.next_download() {
        let page_id = page_id_of(pages, Some(download.page().guid()));
        let mut routing = routing.borrow_mut();
        let id = routing.downloads.len();
        let payload = || {
            json!({
                "id": id,
                "url": download.url(),
                "suggestedFilename": download.suggested_filename(),
            })
        };
        if routing.claim(page_id, EventKind::Download, payload) {
            routing.downloads.push(download);
        }
    }
}

/// Adds pages the context opened since the last pass; a popup is claimed for its opener.
async fn route_pages(
    events: &ContextEvents,
    pages: &RefCell<Vec<PageSlot>>,
    routing: &RefCell<Routing>,
) {
    // The context's recorder never saw the test's own page; every recorded page is new unless
    // it is already a slot.
    let recorded = events.pages_after(0);
    for page in recorded {
        if pages
            .borrow()
            .iter()
            .any(|slot| slot.page.guid() == page.guid())
        {
            continue;
        }
        let Ok(frame) = page.main_frame().await else {
            continue;
        };
        let opener = match page.opener().await {
            Ok(Some(opener)) => Some(opener.guid().to_owned()),
            _ => None,
        };
        let id = {
            let mut pages = pages.borrow_mut();
            pages.push(PageSlot { page, frame });
            pages.len() - 1
        };
        if let Some(opener) = opener {
            let opener_id = page_id_of(pages, Some(&opener));
            routing
                .borrow_mut()
                .claim(opener_id, EventKind::Popup, || json!({ "page": id }));
        }
    }
}

/// The slot index of the page with `guid`, else the test's own page.
fn page_id_of(pages: &RefCell<Vec<PageSlot>>, guid: Option<&str>) -> u32 {
    let pages = pages.borrow();
    guid.and_then(|guid| pages.iter().position(|slot| slot.page.guid() == guid))
        .unwrap_or(0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_waiter_and_listener_gets_every_event() {
        let mut routing = Routing::default();
        let listener = routing.add_listener(0, EventKind::Popup, false);
        let first = routing.add_waiter(0, EventKind::Popup);
        let second = routing.add_waiter(0, EventKind::Popup);
        assert!(routing.claim(0, EventKind::Popup, || json!({ "page": 1 })));
        assert!(routing.claim(0, EventKind::Popup, || json!({ "page": 2 })));
        assert_eq!(routing.finish_waiter(first), Some(json!({ "page": 1 })));
        assert_eq!(routing.finish_waiter(first), Some(json!({ "page": 2 })));
        assert_eq!(routing.finish_waiter(first), None);
        assert_eq!(routing.finish_waiter(second), Some(json!({ "page": 1 })));
        assert_eq!(
            routing.take_deliveries(),
            vec![
                json!({ "listener": listener, "value": { "page": 1 } }),
                json!({ "listener": listener, "value": { "page": 2 } }),
            ]
        );
        routing.cancel_waiter(second);
        routing.cancel_waiter(first);
        assert!(routing.claim(0, EventKind::Popup, || json!({ "page": 3 })));
        assert_eq!(routing.finish_waiter(second), Some(json!({ "page": 2 })));
        assert_eq!(routing.finish_waiter(second), None);
    }

    #[test]
    fn once_listeners_fire_once_and_other_pages_are_not_claimed() {
        let mut routing = Routing::default();
        routing.add_listener(0, EventKind::Dialog, true);
        assert!(!routing.claim(1, EventKind::Dialog, || json!({})));
        assert!(routing.claim(0, EventKind::Dialog, || json!({})));
        assert!(!routing.claim(0, EventKind::Dialog, || json!({})));
    }

    #[test]
    fn end_step_forgets_claims() {
        let mut routing = Routing::default();
        routing.add_waiter(0, EventKind::Dialog);
        routing.add_listener(0, EventKind::Dialog, false);
        routing.end_step();
        assert!(!routing.claim(0, EventKind::Dialog, || json!({})));
    }

    #[test]
    fn event_names_round_trip() {
        for kind in [EventKind::Dialog, EventKind::Popup, EventKind::Download] {
            assert_eq!(EventKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(EventKind::from_name("request"), None);
    }
}
