//! The guard of `[browser] allowed_origins` on one test's browser context. It aborts the
//! requests and closes the WebSockets that the context's pages, popups included, open to other
//! origins, hears of the connections the worker's [`OutboundProxy`] refused, and records each
//! for the step that caused it: any of them fails that step.
//!
//! Main type: [`OriginGuard`]. It is a context route and a WebSocket route whose URL patterns
//! are regular expressions that the driver matches itself, so a request to an allowed origin
//! never reaches prettyplay and only blocked ones cost a round trip. The route never sees
//! `file:` URLs, because Chromium does not intercept them, so the binding checks those with
//! [`OriginGuard::check`] before `page.goto`. Chromium itself refuses the renderer's own
//! navigations to `file:` from other schemes. What routes cannot see (a redirect's later hops,
//! service workers) needs a connection, which the proxy refuses.
//!
//! [`OutboundProxy`]: crate::driver::outbound_proxy::OutboundProxy

use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use playwright_rs::protocol::{BrowserContext, Route, WebSocketRoute};
use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};

use crate::config::AllowedOrigins;

/// The most distinct blocked request URLs that one test lists in its log. Further ones are
/// only counted.
pub(crate) const MAX_LISTED: usize = 50;

/// The error code a blocked request fails with in the page (`net::ERR_BLOCKED_BY_CLIENT`).
const ABORT_CODE: &str = "blockedbyclient";

/// Runs in every frame before its own scripts: removes the WebRTC constructors, whose UDP
/// traffic no guard sees.
const NO_WEBRTC: &str = "(() => { for (const name of ['RTCPeerConnection', \
    'webkitRTCPeerConnection', 'RTCIceTransport', 'RTCSctpTransport', 'RTCDtlsTransport']) { \
    try { Object.defineProperty(globalThis, name, { value: undefined, writable: false, \
    configurable: false }); } catch (e) {} } })();";

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
}

/// The message of a blocked navigation, which fails its step.
pub(crate) fn blocked_message(url: &str) -> String {
    OriginBlocked::Navigation {
        url: url.to_owned(),
    }
    .to_string()
}

/// The message of a blocked request that is not a top-level navigation, which fails its step
/// too.
fn blocked_request_message(kind: &str, url: &str) -> String {
    OriginBlocked::Request {
        kind: kind.to_owned(),
        url: url.to_owned(),
    }
    .to_string()
}

/// A plain request the worker's proxy read on a connection to a forbidden origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RequestTarget {
    /// `request` or `websocket`.
    pub(crate) kind: &'static str,
    pub(crate) url: String,
}

/// One test's guard, with the allowed origins and what it has blocked so far.
pub(crate) struct OriginGuard {
    allowed: AllowedOrigins,
    blocked: Mutex<Blocked>,
    traffic: Mutex<Traffic>,
}

/// The context's requests that have started and not yet ended, so that a step is only judged
/// once what it set going has been routed, refused or answered.
struct Traffic {
    /// Requests (by protocol id) that started and did not finish or fail yet.
    open: HashSet<String>,
    /// Requests whose end was heard before their start: the driver's events arrive in order,
    /// but playwright-rs hands each to its handler on a task of its own.
    ended_early: HashSet<String>,
    /// When a request last started or ended.
    changed: Instant,
}

impl Traffic {
    fn new() -> Traffic {
        Traffic {
            open: HashSet::new(),
            ended_early: HashSet::new(),
            changed: Instant::now(),
        }
    }

    fn started(&mut self, id: &str) {
        if !self.ended_early.remove(id) {
            self.open.insert(id.to_owned());
        }
        self.changed = Instant::now();
    }

    fn ended(&mut self, id: &str) {
        if !self.open.remove(id) {
            self.ended_early.insert(id.to_owned());
        }
        self.changed = Instant::now();
    }
}

/// What the guard blocked and nobody has taken yet.
#[derive(Default)]
struct Blocked {
    /// The failure messages of everything blocked since the last take: requests, sockets and
    /// refused connections alike, because each one fails the step that caused it.
    step: Vec<String>,
    /// Log lines of blocked requests not yet taken, each URL once.
    lines: Vec<String>,
    /// Every URL listed so far in this test.
    listed: HashSet<String>,
    /// Blocked URLs past [`MAX_LISTED`], not listed, since the last take.
    unlisted: usize,
    /// How many of `violations` came before the code that runs now started (see
    /// [`OriginGuard::mark`]): only the later ones can be forgiven.
    mark: usize,
    /// The failure message of everything the test had blocked, and of every top-level
    /// navigation that reached another origin. Nothing takes them, because a test that had one
    /// does not pass, whatever its step code caught.
    violations: Vec<String>,
}

impl OriginGuard {
    /// Installs the guard on `context` before its first page opens. When every origin is allowed
    /// (`["*"]`) nothing is routed at all and it returns `None`.
    pub(crate) async fn install(
        context: &BrowserContext,
        allowed: &AllowedOrigins,
    ) -> Result<Option<Arc<OriginGuard>>, playwright_rs::Error> {
        if allowed.is_any() {
            return Ok(None);
        }
        let guard = Arc::new(OriginGuard {
            allowed: allowed.clone(),
            blocked: Mutex::default(),
            traffic: Mutex::new(Traffic::new()),
        });
        let handler = Arc::clone(&guard);
        // The client-side pattern matches everything the driver sends, and the driver is then
        // told to send only what `server_pattern` matches, because playwright-rs has no
        // regular-expression routes of its own.
        context
            .route("**", move |route| {
                let guard = Arc::clone(&handler);
                async move { guard.on_route(route).await }
            })
            .await?;
        context
            .channel()
            .send::<Value, Value>(
                "setNetworkInterceptionPatterns",
                json!({ "patterns": [{ "regexSource": server_pattern(allowed), "regexFlags": "" }] }),
            )
            .await?;
        // WebRTC sends UDP straight from the browser, past routes and the proxy alike, with
        // whatever the page puts in its offer: the pages get no peer connections at all.
        context.add_init_script(NO_WEBRTC).await?;
        // WebSockets have routes of their own, prefiltered by the driver the same way.
        let sockets = Arc::clone(&guard);
        context
            .route_web_socket("**", move |route| {
                let guard = Arc::clone(&sockets);
                async move { guard.on_web_socket(route).await }
            })
            .await?;
        context
            .channel()
            .send::<Value, Value>(
                "setWebSocketInterceptionPatterns",
                json!({ "patterns": [{ "regexSource": web_socket_pattern(allowed), "regexFlags": "" }] }),
            )
            .await?;
        // A redirect's later hops reach the proxy only after the step that started them may
        // have ended, so the guard follows every request until it ends (see `settle`).
        let watch = |ended: bool| {
            let watcher = Arc::clone(&guard);
            move |request: playwright_rs::protocol::Request| {
                let mut traffic = watcher.traffic();
                if ended {
                    traffic.ended(request.guid());
                } else {
                    traffic.started(request.guid());
                }
                async { Ok::<(), playwright_rs::Error>(()) }
            }
        };
        context.on_request(watch(false)).await?;
        context.on_request_finished(watch(true)).await?;
        context.on_request_failed(watch(true)).await?;
        // Playwright calls a route only for the first URL of a redirect chain, so a frame that
        // a redirect takes to another origin is caught here, after the fact, and fails the test
        // like a blocked navigation.
        let watcher = Arc::clone(&guard);
        context
            .on_frame_navigated(move |frame| {
                watcher.on_navigated(&frame.url());
                async { Ok(()) }
            })
            .await?;
        Ok(Some(guard))
    }

    /// Records that a frame of the test's pages navigated to `url`.
    fn on_navigated(&self, url: &str) {
        // Chromium's own error page for a blocked or failed navigation belongs to no origin.
        if url.starts_with("chrome-error:") || url::Url::parse(url).is_err() {
            return;
        }
        if self.allowed.allows(url) {
            return;
        }
        tracing::warn!(target: "prettyplay::origins", %url, "a navigation reached a disallowed origin");
        self.lock().fail(blocked_message(url));
    }

    /// Returns the failure message of the test's first blocked or disallowed navigation, if it
    /// had one. Unlike [`OriginGuard::take_blocked_navigation`], it is kept for the whole test.
    pub(crate) fn first_violation(&self) -> Option<String> {
        self.lock().violations.first().cloned()
    }

    /// Returns the step's failure as an error when the pages may not navigate to `url`. A URL
    /// that does not parse is left to the driver, whose error explains it better.
    pub(crate) fn check(&self, url: &str) -> Result<(), OriginBlocked> {
        if url::Url::parse(url).is_err() || self.allowed.allows(url) {
            Ok(())
        } else {
            Err(OriginBlocked::Navigation {
                url: url.to_owned(),
            })
        }
    }

    /// Refuses an HTTP request of step code (`request.get`, ...) to a URL the pages may not
    /// reach: the driver sends those itself, past routes and the proxy, so the binding asks
    /// here before each one, redirects included. A refusal fails the step and the test, as a
    /// blocked request of the page does, whatever the step's code catches.
    pub(crate) fn refuse_request(&self, url: &str) -> Result<(), OriginBlocked> {
        let parsed = url::Url::parse(url);
        let http = parsed
            .as_ref()
            .is_ok_and(|u| matches!(u.scheme(), "http" | "https"));
        if http && self.allowed.allows(url) {
            return Ok(());
        }
        let refused = OriginBlocked::Request {
            kind: "request".to_owned(),
            url: url.to_owned(),
        };
        let mut blocked = self.lock();
        blocked.fail(refused.to_string());
        blocked.list(url, "request");
        Err(refused)
    }

    /// Takes the failure message of the first request, socket or connection blocked since the
    /// last call, if there was one.
    pub(crate) fn take_blocked(&self) -> Option<String> {
        self.lock().step.drain(..).next()
    }

    /// Notes that step code starts running: what was blocked before belongs to earlier code.
    pub(crate) fn mark(&self) {
        let mut blocked = self.lock();
        blocked.mark = blocked.violations.len();
    }

    /// Forgets what the guard blocked since the last [`OriginGuard::mark`]: a failed
    /// candidate's blocks were its own failure. A block an earlier step's code caught and
    /// passed over stays, so its test still fails. The log keeps what it listed.
    pub(crate) fn forgive(&self) {
        let mut blocked = self.lock();
        blocked.step.clear();
        let mark = blocked.mark;
        blocked.violations.truncate(mark);
    }

    /// Records a request the worker's proxy refused while this guard's test ran, with its URL
    /// when it was plain HTTP.
    pub(crate) fn refused_connection(&self, host: &str, port: u16, target: Option<&RequestTarget>) {
        let mut blocked = self.lock();
        match target {
            Some(target) => {
                blocked.fail(blocked_request_message(target.kind, &target.url));
                blocked.list(&target.url, target.kind);
            }
            None => {
                let refused = OriginBlocked::Connection {
                    host: host.to_owned(),
                    port,
                };
                blocked.fail(refused.to_string());
                blocked.list(&format!("{host}:{port}"), "connection");
            }
        }
    }

    /// Takes the log lines of the requests blocked since the last call. Each URL is listed once
    /// per test, up to [`MAX_LISTED`], and one line counts the rest.
    pub(crate) fn take_log(&self) -> Vec<String> {
        let mut blocked = self.lock();
        let mut lines = std::mem::take(&mut blocked.lines);
        if blocked.unlisted > 0 {
            lines.push(format!(
                "… {} more blocked request(s) not listed (a test lists at most {MAX_LISTED} URLs)",
                blocked.unlisted
            ));
            blocked.unlisted = 0;
        }
        lines
    }

    /// Waits until no request of the context has started or ended for `quiet`, counted from
    /// the call at the earliest, and none is open; or until `cap` has passed, because a page
    /// that streams or polls never falls quiet. What a step's last call set going has then
    /// been routed, refused or answered, unless the driver took longer than `quiet` to report
    /// that it started.
    pub(crate) async fn settle(&self, quiet: Duration, cap: Duration) {
        let start = Instant::now();
        loop {
            let (open, changed) = {
                let traffic = self.traffic();
                (traffic.open.len(), traffic.changed)
            };
            let since = start.max(changed).elapsed();
            if (open == 0 && since >= quiet) || start.elapsed() >= cap {
                return;
            }
            let wait = if open == 0 { quiet - since } else { quiet / 4 };
            tokio::time::sleep(wait.min(cap.saturating_sub(start.elapsed()))).await;
        }
    }

    fn traffic(&self) -> std::sync::MutexGuard<'_, Traffic> {
        self.traffic.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Blocked> {
        // A panic while the lock was held leaves plain data behind, so the data is still used.
        self.blocked.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Handles a WebSocket that the driver routed: unless its origin is allowed after all, it is
    /// closed before it connects, so nothing the page sends on it leaves.
    async fn on_web_socket(&self, route: WebSocketRoute) -> Result<(), playwright_rs::Error> {
        let url = route.url().to_owned();
        if self.allowed.allows(&url) {
            return route.connect_to_server().await;
        }
        {
            let mut blocked = self.lock();
            blocked.fail(blocked_request_message("websocket", &url));
            blocked.list(&url, "websocket");
        }
        tracing::info!(target: "prettyplay::origins", %url, "WebSocket blocked by [browser] allowed_origins");
        route
            .close(Some(
                playwright_rs::protocol::WebSocketRouteCloseOptions::default()
                    .code(1008)
                    .reason("blocked by [browser] allowed_origins"),
            ))
            .await
    }

    /// Handles a request that the driver routed. The pattern is only a prefilter, so the request
    /// is aborted unless [`AllowedOrigins::allows`] its URL after all.
    async fn on_route(&self, route: Route) -> Result<(), playwright_rs::Error> {
        let request = route.request();
        let url = request.url().to_owned();
        if self.allowed.allows(&url) {
            tracing::debug!(target: "prettyplay::origins", %url, "routed, but allowed");
            return route.continue_(None).await;
        }
        let top_level = request.is_navigation_request()
            && request.frame().is_none_or(|f| f.parent_frame().is_none());
        self.record(&url, request.resource_type(), top_level);
        tracing::info!(target: "prettyplay::origins", %url, "blocked by [browser] allowed_origins");
        route.abort(Some(ABORT_CODE)).await
    }

    fn record(&self, url: &str, kind: &str, top_level: bool) {
        let mut blocked = self.lock();
        blocked.fail(if top_level {
            blocked_message(url)
        } else {
            blocked_request_message(kind, url)
        });
        blocked.list(url, kind);
    }
}

impl Blocked {
    /// Records `message` as the failure of the current step and of the test.
    fn fail(&mut self, message: String) {
        if !self.violations.contains(&message) {
            self.violations.push(message.clone());
        }
        self.step.push(message);
    }

    /// Lists `what` in the test's log, once, within [`MAX_LISTED`].
    fn list(&mut self, what: &str, kind: &str) {
        if self.listed.contains(what) {
            return;
        }
        if self.listed.len() >= MAX_LISTED {
            self.unlisted += 1;
            return;
        }
        self.listed.insert(what.to_owned());
        self.lines.push(format!(
            "blocked by [browser] allowed_origins: {kind} {what}"
        ));
    }
}

/// Returns the regular expression (in JavaScript syntax) that the driver matches request URLs
/// against. It matches every URL that does not start with an allowed origin or scheme. It may
/// match more than is blocked, because the route decides, but never less.
fn server_pattern(allowed: &AllowedOrigins) -> String {
    let AllowedOrigins::Only { origins, schemes } = allowed else {
        return "^$".to_owned();
    };
    let mut alternatives: Vec<String> = origins
        .iter()
        .map(|origin| format!("{}(?:[/?#]|$)", escape(origin)))
        .collect();
    alternatives.extend(schemes.iter().map(|scheme| format!("{}:", escape(scheme))));
    if alternatives.is_empty() {
        return "^".to_owned();
    }
    format!("^(?!{})", alternatives.join("|"))
}

/// The driver-side pattern of the WebSockets to route: those whose URL does not start with an
/// allowed origin written with `ws` or `wss`.
fn web_socket_pattern(allowed: &AllowedOrigins) -> String {
    let AllowedOrigins::Only { origins, .. } = allowed else {
        return "^$".to_owned();
    };
    let alternatives: Vec<String> = origins
        .iter()
        .filter_map(|origin| {
            let socket = if let Some(rest) = origin.strip_prefix("https://") {
                format!("wss://{rest}")
            } else {
                format!("ws://{}", origin.strip_prefix("http://")?)
            };
            Some(format!("{}(?:[/?#]|$)", escape(&socket)))
        })
        .collect();
    if alternatives.is_empty() {
        return "^".to_owned();
    }
    format!("^(?!{})", alternatives.join("|"))
}

/// Escapes the characters of `text` that are special in JavaScript regular expressions.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\^$.|?*+()[]{}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only(origins: &[&str]) -> AllowedOrigins {
        AllowedOrigins::Only {
            origins: origins.iter().map(|o| (*o).to_owned()).collect(),
            schemes: vec!["about".into(), "data".into(), "blob".into()],
        }
    }

    /// What the driver would route, with the regex crate standing in for JavaScript's (the
    /// pattern avoids every construct on which they differ, except the lookahead, which the
    /// check below emulates).
    fn routed(pattern: &str, url: &str) -> bool {
        let inner = pattern
            .strip_prefix("^(?!")
            .and_then(|p| p.strip_suffix(')'))
            .expect("a negative lookahead");
        let allowed = regex::Regex::new(&format!("^(?:{inner})")).expect("a regex");
        !allowed.is_match(url)
    }

    #[test]
    fn the_driver_routes_only_urls_off_the_allowed_origins() {
        let allowed = only(&["http://127.0.0.1:8080", "https://cdn.example.com"]);
        let pattern = server_pattern(&allowed);
        assert_eq!(
            pattern,
            r"^(?!http://127\.0\.0\.1:8080(?:[/?#]|$)|https://cdn\.example\.com(?:[/?#]|$)|about:|data:|blob:)"
        );
        for url in [
            "http://127.0.0.1:8080/",
            "http://127.0.0.1:8080/app.js?v=1",
            "https://cdn.example.com/lib.js",
            "data:image/png;base64,xx",
        ] {
            assert!(!routed(&pattern, url), "{url}");
        }
        for url in [
            "http://127.0.0.1:8081/",
            "http://127.0.0.1:80800/",
            "http://127.0.0.1:8080.evil.example/",
            "http://127.0.0.1:8080@evil.example/",
            "https://127.0.0.1:8080/",
            "https://cdn.example.com.evil/",
        ] {
            assert!(routed(&pattern, url), "{url}");
            assert!(!allowed.allows(url), "{url}");
        }
    }

    #[test]
    fn gotos_off_the_origins_are_refused_with_the_message() {
        let guard = OriginGuard {
            allowed: only(&["http://127.0.0.1:8080"]),
            blocked: Mutex::default(),
            traffic: Mutex::new(Traffic::new()),
        };
        assert_eq!(
            guard
                .check("file:///etc/hostname")
                .map_err(|b| b.to_string()),
            Err(
                "blocked by [browser] allowed_origins: file:///etc/hostname — add its origin to \
                 allow it"
                    .to_owned()
            )
        );
        assert!(guard.check("http://127.0.0.1:8081/").is_err());
        assert!(guard.check("http://127.0.0.1:8080/x").is_ok());
        assert!(guard.check("about:blank").is_ok());
        // A string that is not a URL passes, because the driver's own error reports it.
        assert!(guard.check("/relative").is_ok());
    }

    #[tokio::test]
    async fn settle_waits_for_open_requests_and_quiet_but_not_past_its_cap() {
        let guard = Arc::new(OriginGuard {
            allowed: only(&[]),
            blocked: Mutex::default(),
            traffic: Mutex::new(Traffic::new()),
        });
        let quiet = Duration::from_millis(40);
        let cap = Duration::from_millis(600);
        // Quiet from the start: it still waits `quiet`, counted from the call.
        let start = Instant::now();
        guard.settle(quiet, cap).await;
        assert!(start.elapsed() >= quiet);
        // An end heard before its start leaves nothing open.
        guard.traffic().ended("a");
        guard.traffic().started("a");
        assert!(guard.traffic().open.is_empty() && guard.traffic().ended_early.is_empty());
        // An open request holds it until it ends, and then `quiet` more.
        guard.traffic().started("b");
        let ender = Arc::clone(&guard);
        let end = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(150)).await;
            ender.traffic().ended("b");
            Instant::now()
        });
        guard.settle(quiet, cap).await;
        let settled = Instant::now();
        let ended = end.await.unwrap();
        assert!(
            settled >= ended + quiet,
            "it returned before the request ended"
        );
        // A request that never ends (a stream, a poll) holds it for `cap` only.
        guard.traffic().started("c");
        let start = Instant::now();
        guard.settle(quiet, cap).await;
        assert!(start.elapsed() >= cap);
    }

    #[test]
    fn blocked_requests_are_listed_once_and_bounded() {
        let guard = OriginGuard {
            allowed: only(&[]),
            blocked: Mutex::default(),
            traffic: Mutex::new(Traffic::new()),
        };
        guard.record("http://other/a.png", "image", false);
        guard.record("http://other/a.png", "image", false);
        guard.record("http://other/", "document", true);
        assert_eq!(
            guard.take_log(),
            [
                "blocked by [browser] allowed_origins: image http://other/a.png",
                "blocked by [browser] allowed_origins: document http://other/"
            ]
        );
        // Each blocked request fails the step, the first one named.
        assert_eq!(
            guard.take_blocked(),
            Some(blocked_request_message("image", "http://other/a.png"))
        );
        assert_eq!(guard.take_blocked(), None);
        assert_eq!(
            guard.first_violation(),
            Some(blocked_request_message("image", "http://other/a.png"))
        );
        // A later candidate's blocks are forgiven, never those of code that ran before it.
        guard.mark();
        guard.refused_connection("127.0.0.1", 8, None);
        guard.forgive();
        assert_eq!(
            guard.first_violation(),
            Some(blocked_request_message("image", "http://other/a.png"))
        );
        assert_eq!(guard.take_log().len(), 1);
        guard.refused_connection("127.0.0.1", 9, None);
        assert_eq!(
            guard.take_blocked(),
            Some(
                OriginBlocked::Connection {
                    host: "127.0.0.1".into(),
                    port: 9
                }
                .to_string()
            )
        );
        assert_eq!(
            guard.take_log(),
            ["blocked by [browser] allowed_origins: connection 127.0.0.1:9"]
        );
        // A URL is listed once per test, so a later step does not list it again.
        guard.record("http://other/a.png", "image", false);
        assert!(guard.take_log().is_empty());
        for i in 0..MAX_LISTED + 5 {
            guard.record(&format!("http://other/{i}"), "fetch", false);
        }
        let lines = guard.take_log();
        assert_eq!(lines.len(), MAX_LISTED - 4 + 1);
        assert_eq!(
            lines.last().map(String::as_str),
            Some("… 9 more blocked request(s) not listed (a test lists at most 50 URLs)")
        );
    }
}
