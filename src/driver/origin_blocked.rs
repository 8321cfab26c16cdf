//! What the origin guard refused, as the failure of the step that tried it says it.
//!
//! Main type: [`OriginBlocked`].

/// What `[browser] allowed_origins` refused, as the failure of the step that tried it says.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum OriginBlocked {
    /// A top-level navigation.
    #[error("blocked by [browser] allowed_origins: {url} — add its origin to allow it")]
    Navigation { url: String },
    /// A request that is not a top-level navigation; `kind` is its resource type (fetch,
    /// websocket, image, ...) or `request` for step code's own.
    #[error("blocked by [browser] allowed_origins: {kind} {url} — add its origin to allow it")]
    Request { kind: String, url: String },
    /// A connection the proxy refused, which carries no URL.
    #[error(
        "blocked by [browser] allowed_origins: a connection to {host}:{port} (a redirect, a \
         WebSocket or another request that routing does not see) — add its origin to allow it"
    )]
    Connection { host: String, port: u16 },
    /// Timers step code set in a page that had neither fired nor been cleared when the step's
    /// timeout passed: what they send later cannot be judged as the step's.
    #[error(
        "blocked by [browser] allowed_origins: step code left {count} timer(s) pending in the \
         page (setTimeout, setInterval, requestAnimationFrame or requestIdleCallback) that had \
         not fired {secs} s later, so what they send cannot be checked — clear them before the \
         step's code returns"
    )]
    TimersPending { count: u64, secs: u64 },
}
