//! What the driver has already announced to this process about one test's context that the
//! guard's handlers have not heard of yet: routed requests and sockets whose handler has not
//! started, and navigation requests whose listener has not run.
//!
//! Main type: [`Unheard`]. playwright-rs reads the driver's messages in order on one loop: it
//! registers each new protocol object (`__create__`) on that loop before it reads the next
//! message, but it hands each event (`route`, `request`) to its handler on a task of its own,
//! which may run much later on a busy machine. So the objects registered on the connection are
//! an ordered fact, and the handlers that ran are not. Once the answer to a call has been read,
//! every `Route` the driver created before answering is registered; the difference between
//! those and the ones the guard heard of is exactly what is still on its way to the guard.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use playwright_rs::protocol::BrowserContext;
use playwright_rs::server::channel_owner::ChannelOwner;
use playwright_rs::server::connection::ConnectionLike;
use serde_json::Value;

/// The protocol types of what the guard's routes handle.
const ROUTE_TYPES: [&str; 2] = ["Route", "WebSocketRoute"];

/// How many parents up from a route its context can be (route, request, page or frame,
/// context).
const MAX_DEPTH: usize = 6;

/// See the module documentation.
pub(crate) struct Unheard {
    connection: Arc<dyn ConnectionLike>,
    context: String,
    /// The protocol ids of the routes and navigation requests whose handler started.
    heard: Mutex<HashSet<String>>,
}

impl Unheard {
    pub(crate) fn new(context: &BrowserContext) -> Unheard {
        Unheard {
            connection: context.connection(),
            context: context.guid().to_owned(),
            heard: Mutex::default(),
        }
    }

    /// Notes that a handler of the guard started on the object with protocol id `guid`.
    pub(crate) fn hear(&self, guid: &str) {
        self.heard().insert(guid.to_owned());
    }

    /// How many routes of this context the driver has announced whose handler has not started.
    pub(crate) fn routes(&self) -> usize {
        let objects = self.connection.all_objects_sync();
        let heard = self.heard();
        objects
            .iter()
            .filter(|o| ROUTE_TYPES.contains(&o.type_name()))
            .filter(|o| !heard.contains(o.guid()))
            .filter(|o| self.is_ours(o.as_ref()))
            .count()
    }

    /// Whether the driver has announced a navigation request of the frame with protocol id
    /// `frame` whose listener has not run yet.
    pub(crate) fn navigation_in(&self, frame: &str) -> bool {
        let objects = self.connection.all_objects_sync();
        let heard = self.heard();
        objects.iter().any(|o| {
            let init = o.initializer();
            o.type_name() == "Request"
                && init.get("isNavigationRequest").and_then(Value::as_bool) == Some(true)
                && init
                    .get("frame")
                    .and_then(|f| f.get("guid"))
                    .and_then(Value::as_str)
                    == Some(frame)
                && !heard.contains(o.guid())
        })
    }

    /// Whether `object` belongs to this guard's context.
    fn is_ours(&self, object: &dyn ChannelOwner) -> bool {
        let mut parent = object.parent();
        for _ in 0..MAX_DEPTH {
            match parent {
                Some(p) if p.guid() == self.context => return true,
                Some(p) => parent = p.parent(),
                None => return false,
            }
        }
        false
    }

    fn heard(&self) -> MutexGuard<'_, HashSet<String>> {
        // A panic while the lock was held leaves plain data behind, so the data is still used.
        self.heard.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
