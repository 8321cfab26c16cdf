//! The guard of `[browser] allowed_origins` on one test's browser context. It sees every
//! request and WebSocket that the context's pages, popups included, open to other origins,
//! hears of the connections the worker's [`OutboundProxy`] refused, and decides what becomes
//! of each by the rule of `traffic_rule.rs`: loaded for the app, blocked quietly, or blocked
//! and failing the step that caused it.
//!
//! Main type: [`OriginGuard`]. It is a context route and a WebSocket route whose URL patterns
//! are regular expressions that the driver matches itself (`route_patterns.rs`), so a request
//! to an allowed origin never reaches prettyplay and only the others cost a round trip. The
//! route never sees `file:` URLs, because Chromium does not intercept them, so the binding
//! checks those with [`OriginGuard::check`] before `page.goto`. Chromium itself refuses the
//! renderer's own navigations to `file:` from other schemes. What routes cannot see (a
//! redirect's later hops, service workers) needs a connection, which the proxy refuses.
//!
//! [`OutboundProxy`]: crate::driver::outbound_proxy::OutboundProxy

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::Notify;

use playwright_rs::protocol::{
    BrowserContext, Frame, FulfillOptions, Request, Route, WebSocketRoute,
};
use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};

use crate::config::AllowedOrigins;
use crate::driver::app_loader::AppLoader;
use crate::driver::guard_log::{Culprit, GuardLog, OriginSeen};
use crate::driver::origin_blocked::OriginBlocked;
use crate::driver::route_patterns::{request_pattern, web_socket_pattern};
use crate::driver::sentinel::{Sentinel, Through};
use crate::driver::step_reach::{Reach, StepReach};
use crate::driver::step_timers::{StepTimers, TimersLeft};
use crate::driver::traffic::{Floor, Late, SettleAt, Settled, Traffic};
use crate::driver::traffic_rule::{Facts, Outcome, Source, classify, is_read_only};
use crate::driver::unheard::Unheard;
use crate::secrets::Secrets;

/// The error code a blocked request fails with in the page (`net::ERR_BLOCKED_BY_CLIENT`).
const ABORT_CODE: &str = "blockedbyclient";

/// The error code of a subresource that could not be loaded (`net::ERR_FAILED`).
const LOAD_FAILED_CODE: &str = "failed";

/// Runs in every frame before its own scripts: removes the WebRTC constructors, whose UDP
/// traffic no guard sees.
const NO_WEBRTC: &str = "(() => { for (const name of ['RTCPeerConnection', \
    'webkitRTCPeerConnection', 'RTCIceTransport', 'RTCSctpTransport', 'RTCDtlsTransport']) { \
    try { Object.defineProperty(globalThis, name, { value: undefined, writable: false, \
    configurable: false }); } catch (e) {} } })();";

/// How long a routed request waits at most for the guard to hear of the navigation that
/// loaded its frame's document (see [`OriginGuard::hear_document`]).
const DOCUMENT_HEARD_CAP: Duration = Duration::from_secs(1);

/// How long reading the test's violations waits at most for judgements under way: a judgement
/// waits at most [`DOCUMENT_HEARD_CAP`] for its document, and then decides at once.
const JUDGED_CAP: Duration = Duration::from_secs(2);

/// A plain request the worker's proxy read on a connection to a forbidden origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RequestTarget {
    /// `request` or `websocket`.
    pub(crate) kind: &'static str,
    pub(crate) url: String,
}

/// One test's guard: the allowed origins, the run's secrets, what step code put into the
/// pages, the requests under way and what the guard did.
pub(crate) struct OriginGuard {
    allowed: AllowedOrigins,
    secrets: Secrets,
    loader: Arc<AppLoader>,
    log: Mutex<GuardLog>,
    reach: Mutex<StepReach>,
    traffic: Traffic,
    /// What the driver announced that the handlers above have not heard of yet; `None` only
    /// in unit tests, which have no context.
    unheard: Option<Unheard>,
    /// The beacons through the pages' own network pipeline that end a settle's round trips.
    sentinel: Sentinel,
    /// The timers step code's scripts left in the pages.
    timers: StepTimers,
    /// Set once step code ran a script that may leave a timer: until then a settle asks the
    /// pages nothing about timers.
    ran_tracked: AtomicBool,
    /// Woken whenever the guard hears of a navigation request.
    documents_heard: Notify,
    /// Set when prettyplay starts to close (or let go of) the guard's context.
    context_closing: AtomicBool,
    /// Set once step code of this test was given a secret of the run (see
    /// [`OriginGuard::secret_in_play`]).
    secrets_in_play: AtomicBool,
}

/// What [`OriginGuard::install`] needs besides the context: the origins, the run's secrets,
/// the worker's loader of the app's subresources, and whether the context starts from a saved
/// state (cookies and storage another test left, which may hold what it typed).
pub(crate) struct GuardSetup<'a> {
    pub(crate) allowed: &'a AllowedOrigins,
    pub(crate) secrets: &'a Secrets,
    pub(crate) loader: &'a Arc<AppLoader>,
    pub(crate) saved_state: bool,
}

impl OriginGuard {
    pub(crate) fn new(setup: &GuardSetup<'_>) -> OriginGuard {
        OriginGuard {
            allowed: setup.allowed.clone(),
            secrets: setup.secrets.clone(),
            loader: Arc::clone(setup.loader),
            log: Mutex::default(),
            reach: Mutex::default(),
            traffic: Traffic::default(),
            unheard: None,
            sentinel: Sentinel::new(),
            timers: StepTimers::new(),
            ran_tracked: AtomicBool::new(false),
            documents_heard: Notify::new(),
            context_closing: AtomicBool::new(false),
            // A saved state may hold a secret an earlier test typed, which the app's pages can
            // read and send without step code of this test reading it.
            secrets_in_play: AtomicBool::new(setup.saved_state && !setup.secrets.is_empty()),
        }
    }

    /// Installs the guard on `context` before its first page opens. When every origin is allowed
    /// (`["*"]`) nothing is routed at all and it returns `None`.
    pub(crate) async fn install(
        context: &BrowserContext,
        setup: &GuardSetup<'_>,
    ) -> Result<Option<Arc<OriginGuard>>, playwright_rs::Error> {
        let allowed = setup.allowed;
        if allowed.is_any() {
            return Ok(None);
        }
        let mut guard = OriginGuard::new(setup);
        guard.unheard = Some(Unheard::new(context));
        let guard = Arc::new(guard);
        // Each call below is a round trip to the driver (eight in all), and none needs another's
        // answer but the pattern after its own route: asked together they cost about two round
        // trips, and all are in place before the first page opens.
        let handler = Arc::clone(&guard);
        let requests = async {
            // The client-side pattern matches everything the driver sends, and the driver is
            // then told to send only what `request_pattern` matches, because playwright-rs has
            // no regular-expression routes of its own.
            context
                .route("**", move |route| {
                    let guard = Arc::clone(&handler);
                    async move {
                        let handled = guard.on_route(route).await;
                        guard.unless_closing(handled)
                    }
                })
                .await?;
            context
                .channel()
                .send::<Value, Value>(
                    "setNetworkInterceptionPatterns",
                    json!({ "patterns": [
                        { "regexSource": request_pattern(allowed), "regexFlags": "" },
                        { "regexSource": guard.sentinel.pattern(), "regexFlags": "" },
                    ] }),
                )
                .await
        };
        // WebRTC sends UDP straight from the browser, past routes and the proxy alike, with
        // whatever the page puts in its offer: the pages get no peer connections at all. The
        // timers' bookkeeping goes in the same script, which costs no round trip of its own.
        let init_script = format!("{NO_WEBRTC}\n{}", guard.timers.init_script());
        let no_webrtc = context.add_init_script(&init_script);
        // WebSockets have routes of their own, prefiltered by the driver the same way.
        let sockets = Arc::clone(&guard);
        let web_sockets = async {
            context
                .route_web_socket("**", move |route| {
                    let guard = Arc::clone(&sockets);
                    async move {
                        let handled = guard.on_web_socket(route).await;
                        guard.unless_closing(handled)
                    }
                })
                .await?;
            context
                .channel()
                .send::<Value, Value>(
                    "setWebSocketInterceptionPatterns",
                    json!({ "patterns": [{ "regexSource": web_socket_pattern(allowed), "regexFlags": "" }] }),
                )
                .await
        };
        let (requests, no_webrtc, web_sockets, watched) = tokio::join!(
            requests,
            no_webrtc,
            web_sockets,
            guard.watch_requests(context)
        );
        requests?;
        no_webrtc?;
        web_sockets?;
        watched?;
        // Playwright calls a route only for the first URL of a redirect chain, so a frame that
        // a redirect takes to another origin is caught here, after the fact, and fails the test
        // like a blocked navigation.
        let watcher = Arc::clone(&guard);
        context
            .on_frame_navigated(move |frame| {
                watcher.on_navigated(&frame.url());
                watcher.reach().frame_navigated(frame.guid());
                watcher.documents_heard.notify_waiters();
                async { Ok(()) }
            })
            .await?;
        Ok(Some(guard))
    }

    /// Follows every request of the context until it is answered or fails (see
    /// [`OriginGuard::settle`]), and notes each navigation request to an allowed origin: the
    /// document it loads is the app's.
    async fn watch_requests(
        self: &Arc<Self>,
        context: &BrowserContext,
    ) -> playwright_rs::Result<()> {
        let watcher = Arc::clone(self);
        let requests = context.on_request(move |request: Request| {
            watcher.on_request(&request);
            async { Ok(()) }
        });
        // A request ends, for the guard, once its answer's headers arrive: it can no longer
        // redirect anywhere, and a stream may go on for the rest of the test.
        let watcher = Arc::clone(self);
        let responses = context.on_response(move |response| {
            if watcher.sentinel.number(response.url()).is_none()
                && let Some(id) = response
                    .initializer()
                    .get("request")
                    .and_then(|r| r.get("guid"))
                    .and_then(Value::as_str)
            {
                watcher.traffic.ended(id);
            }
            async { Ok(()) }
        });
        let watcher = Arc::clone(self);
        let failures = context.on_request_failed(move |request| {
            if watcher.sentinel.number(request.url()).is_none() {
                watcher.traffic.ended(request.guid());
            }
            async { Ok(()) }
        });
        // Each subscription is a round trip of its own; none needs another's answer.
        let (requests, responses, failures) = tokio::join!(requests, responses, failures);
        requests.and(responses).and(failures)
    }

    /// Follows a request the page made, and notes a navigation request: the document it loads
    /// to an allowed origin is the app's. The guard's own sentinel beacons are not followed.
    fn on_request(&self, request: &Request) {
        if self.sentinel.number(request.url()).is_some() {
            return;
        }
        if request.is_navigation_request() {
            if let Some(frame) = request.frame()
                && self.allowed.allows(request.url())
            {
                let mut reach = self.reach();
                reach.navigation_started(frame.guid(), request.url());
                // The frame's URL changes as the driver's messages are read, before any
                // handler runs, so a frame already at the URL has told of this navigation,
                // even when the handler of that news ran before this one.
                if same_document(&frame.url(), request.url()) {
                    reach.frame_navigated(frame.guid());
                }
            }
            self.hear(request.guid());
            self.documents_heard.notify_waiters();
        }
        self.traffic.started(request.guid());
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
        let culprit = self.reach().culprit();
        self.log().fail(
            OriginBlocked::Navigation {
                url: url.to_owned(),
            }
            .to_string(),
            culprit,
        );
    }

    /// Whether the test's pages may go to `url`.
    pub(crate) fn allows(&self, url: &str) -> bool {
        self.allowed.allows(url)
    }

    /// Returns the failure message of the test's first request that failed, or navigation that
    /// reached another origin, if it had one. Unlike [`OriginGuard::take_blocked`], it is kept
    /// for the whole test.
    pub(crate) fn first_violation(&self) -> Option<String> {
        self.log().first_violation()
    }

    /// Like [`OriginGuard::first_violation`], once the judgements under way are recorded (for
    /// at most [`JUDGED_CAP`]): what a test's end reads, when its pages may still have had a
    /// request on its way.
    pub(crate) async fn final_violation(&self) -> Option<String> {
        self.traffic.judged(JUDGED_CAP).await;
        self.first_violation()
    }

    /// Returns the step's failure as an error when step code may not navigate to `url`, and
    /// lists the refusal among the test's origins. A URL that does not parse is left to the
    /// driver, whose error explains it better.
    pub(crate) fn check(&self, url: &str) -> Result<(), OriginBlocked> {
        if url::Url::parse(url).is_err() || self.allowed.allows(url) {
            return Ok(());
        }
        self.log().list(url, "navigation", Outcome::Failed);
        Err(OriginBlocked::Navigation {
            url: url.to_owned(),
        })
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
        let mut log = self.log();
        // The guard is asked before the call is sent: the call is the current code's own.
        log.fail(refused.to_string(), Culprit::CurrentCode);
        log.list(url, "request", Outcome::Failed);
        Err(refused)
    }

    /// Takes the failure message of the first request, socket or connection that failed since
    /// the last call, if there was one.
    pub(crate) fn take_blocked(&self) -> Option<String> {
        self.log().take_failure()
    }

    /// Notes that an execution of step code starts: what failed before belongs to earlier
    /// code, and the requests it starts are its own.
    pub(crate) fn mark(&self) {
        self.log().mark();
        self.reach().mark();
        self.traffic.mark();
    }

    /// Notes that the code of `step` (1-based) starts running, or with `None` that the step
    /// ended: a failure while no step's code runs says which steps ran before it.
    pub(crate) fn code_runs(&self, step: Option<usize>) {
        self.log().code_runs(step);
    }

    /// Forgets what failed since the last [`OriginGuard::mark`] that only the code since then
    /// could have caused, and that this code ran JavaScript of its own: a failed candidate's
    /// blocks were its own failure. A block an earlier step's code caught and passed over
    /// stays, and so does one that arrived while the candidate ran but that earlier code's own
    /// JavaScript may have left behind (a timer), so that test still fails. The log keeps what
    /// it listed.
    pub(crate) fn forgive(&self) {
        self.log().forgive();
        self.reach().forgive();
    }

    /// Notes a call of step code before it is sent: what it can do to the pages (`reach`) and
    /// every string of its `params`. When what the call sets going may reach the network only
    /// a while after it (see [`StepReach::may_answer_late`]), a settle waits for that while.
    /// A script of step code's that may do more than read is rewritten to run inside the
    /// timers' tracking scope (see [`StepTimers::track`]), so that a settle waits for the
    /// timers it leaves.
    /// It returns whether the call is one whose consequences may come late: the binding then
    /// tells [`OriginGuard::call_returned`] when it returns.
    pub(crate) fn step_call(&self, reach: Reach, params: &mut Value) -> bool {
        // A call that holds a secret shows step code has one, however it came by it (the read
        // of a var that holds one is noted by the binding before).
        if self.holds_secret(&params.to_string()) {
            self.secret_in_play();
        }
        let late = {
            let mut step_reach = self.reach();
            step_reach.call(reach, params);
            step_reach.may_answer_late(reach, self.secrets_in_play(), |host| self.outside(host))
        };
        match late {
            Some(late) => self.traffic.acted(late),
            None if reach == Reach::Check => self.traffic.called(),
            None => {}
        }
        if reach == Reach::RunCode && self.timers.track(params) {
            self.ran_tracked.store(true, Ordering::SeqCst);
        }
        late.is_some()
    }

    /// Notes that a call [`OriginGuard::step_call`] called late returned: the floor counts
    /// from now, because an act that took long (a click waiting for its target, a starved
    /// renderer) may have set its consequences going only just before it returned.
    pub(crate) fn call_returned(&self) {
        self.traffic.returned();
    }

    /// Notes that step code of this test was given a secret of the run (a var whose value
    /// holds one, or code whose text does): from now on the app's requests may carry what step
    /// code typed, so the floors after its acts are kept to the test's end.
    pub(crate) fn secret_in_play(&self) {
        self.secrets_in_play.store(true, Ordering::SeqCst);
    }

    /// Notes the text of step code about to run: code that holds a secret of the run (in any
    /// form `Secrets::found_in_code` finds, or too much to look through) is given it.
    pub(crate) fn code_holds(&self, code: &str) {
        if !self.secrets.is_empty() && self.secrets.found_in_code(code).is_some() {
            self.secret_in_play();
        }
    }

    fn secrets_in_play(&self) -> bool {
        self.secrets_in_play.load(Ordering::SeqCst)
    }

    /// Whether `host` (`host:port`) is outside the allowed origins by either web scheme.
    fn outside(&self, host: &str) -> bool {
        !self.allowed.allows(&format!("http://{host}/"))
            && !self.allowed.allows(&format!("https://{host}/"))
    }

    /// The floors a settle asked `at` keeps (see [`SettleAt::floor`]).
    fn floor_at(&self, at: SettleAt) -> Floor {
        at.floor(self.guarded())
    }

    /// Whether a secret given to step code, a host outside it named or its JavaScript is in play.
    fn guarded(&self) -> bool {
        let reach = self.reach();
        self.secrets_in_play() || reach.left_code() || reach.named_outside(|h| self.outside(h))
    }

    /// Records a request the proxy refused on this context's port (`head`: its first bytes). It
    /// fails its step, unless the context is closing with nothing the floor guards in play: its
    /// routes are gone then, so what its pages send (an `unload` beacon) is judged as they would.
    pub(crate) fn refused_connection(
        &self,
        host: &str,
        port: u16,
        target: Option<&RequestTarget>,
        head: &str,
    ) {
        self.traffic.touched();
        if self.context_closing.load(Ordering::SeqCst) && !self.guarded() {
            let url = target.map_or_else(|| format!("http://{host}:{port}/"), |t| t.url.clone());
            let facts = self.facts(&url, None, false, self.holds_secret(head));
            self.record(&url, target.map_or("connection", |t| t.kind), &facts, false);
            return;
        }
        let culprit = self.reach().culprit();
        let mut log = self.log();
        match target {
            Some(target) => {
                log.fail(request_message(target.kind, &target.url), culprit);
                log.list(&target.url, target.kind, Outcome::Failed);
            }
            None => {
                let refused = OriginBlocked::Connection {
                    host: host.to_owned(),
                    port,
                };
                log.fail(refused.to_string(), culprit);
                log.list(&format!("{host}:{port}"), "connection", Outcome::Failed);
            }
        }
    }

    /// Takes the log lines of the requests to other origins since the last call. Each URL is
    /// listed once per test and outcome, up to 50, and one line counts the rest.
    pub(crate) fn take_log(&self) -> Vec<String> {
        self.log().take_lines()
    }

    /// Every origin outside the allowed ones that the test reached for, and what became of it.
    pub(crate) fn origins_seen(&self) -> Vec<OriginSeen> {
        self.log().origins_seen()
    }

    /// Waits until the timers step code left in the pages of `frames` (their main frames) fired
    /// or were cleared, for at most `timers_bound`, and then until nothing the pages started is
    /// still unseen (see [`Traffic::settle`]), with a sentinel beacon through each of `frames`
    /// as the barrier, for at most `cap`. Timers still pending at `timers_bound` fail the step
    /// that runs (or the test, at its end): the guard cannot judge what they send later.
    /// Where it is asked (`at`) decides the floors it keeps (see [`OriginGuard::floor_at`]).
    pub(crate) async fn settle(
        &self,
        frames: &[Frame],
        cap: Duration,
        timers_bound: Duration,
        at: SettleAt,
    ) -> Settled {
        let timers = if self.ran_tracked.load(Ordering::SeqCst) {
            self.timers.wait(frames, timers_bound).await
        } else {
            TimersLeft::None
        };
        // What a timer's callback set going may reach the network a moment later, as after
        // an act: the floor counts from now.
        if timers != TimersLeft::None {
            self.traffic.acted(Late::Code);
        }
        let settled = self.traffic_settle(frames, cap, self.floor_at(at)).await;
        let TimersLeft::Pending(count) = timers else {
            return settled;
        };
        let culprit = self.reach().culprit();
        let pending = OriginBlocked::TimersPending {
            count,
            secs: timers_bound.as_secs(),
        };
        self.log().fail(pending.to_string(), culprit);
        Settled::TimersPending(count)
    }

    /// The traffic half of [`OriginGuard::settle`].
    async fn traffic_settle(&self, frames: &[Frame], cap: Duration, floor: Floor) -> Settled {
        let round_trip = |left: Duration| async move {
            for frame in frames {
                let through = self.sentinel.through(frame, left).await;
                if through == Through::Lost {
                    tracing::debug!(target: "prettyplay::origins", "a sentinel beacon was not heard");
                }
            }
        };
        let unheard = || self.unheard.as_ref().map_or(0, Unheard::routes);
        self.traffic.settle(round_trip, unheard, cap, floor).await
    }

    /// Notes that a handler of the guard started on the object with protocol id `guid`.
    fn hear(&self, guid: &str) {
        if let Some(unheard) = &self.unheard {
            unheard.hear(guid);
        }
    }

    fn reach(&self) -> MutexGuard<'_, StepReach> {
        self.reach.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn log(&self) -> MutexGuard<'_, GuardLog> {
        // A panic while the lock was held leaves plain data behind, so the data is still used.
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether `text` holds a secret of the run.
    pub(crate) fn holds_secret(&self, text: &str) -> bool {
        !self.secrets.is_empty() && self.secrets.found_in(text).is_some()
    }

    /// Handles a WebSocket that the driver routed: unless its origin is allowed after all, it is
    /// closed before it connects, so nothing the page sends on it leaves.
    async fn on_web_socket(&self, route: WebSocketRoute) -> Result<(), playwright_rs::Error> {
        self.hear(route.guid());
        let url = route.url().to_owned();
        if self.allowed.allows(&url) {
            return route.connect_to_server().await;
        }
        self.traffic.touched();
        let facts = self.facts(&url, None, false, self.holds_secret(&url));
        self.record(&url, "websocket", &facts, false);
        tracing::info!(target: "prettyplay::origins", %url, "WebSocket blocked by [browser] allowed_origins");
        route
            .close(Some(
                playwright_rs::protocol::WebSocketRouteCloseOptions::default()
                    .code(1008)
                    .reason("blocked by [browser] allowed_origins"),
            ))
            .await
    }

    /// Says that prettyplay is closing the guard's context (or letting go of it): a route
    /// still being answered then has no page left to answer, nor the closing pages a route.
    pub(crate) fn context_closing(&self) {
        self.context_closing.store(true, Ordering::SeqCst);
    }

    /// `handled`, or nothing wrong when the context is closing: the driver then refuses every
    /// answer to a route ("Target page, context or browser has been closed"), and the request
    /// went nowhere, which is all the guard wants of it; playwright-rs would log the refusal as
    /// a warning on every run whose test ended while the app still loaded something.
    fn unless_closing(
        &self,
        handled: Result<(), playwright_rs::Error>,
    ) -> Result<(), playwright_rs::Error> {
        match handled {
            Err(err) if self.context_closing.load(Ordering::SeqCst) => {
                tracing::debug!(target: "prettyplay::origins", "a route answered as the context closed: {err}");
                Ok(())
            }
            handled => handled,
        }
    }

    /// Handles a request that the driver routed. The pattern is only a prefilter, so the
    /// request goes on when [`AllowedOrigins::allows`] its URL after all; otherwise the rule
    /// decides.
    async fn on_route(&self, route: Route) -> Result<(), playwright_rs::Error> {
        // The judgement counts before the route is heard of, so that a settle sees this
        // request as on its way or as being judged at every moment.
        let request = route.request();
        let url = request.url().to_owned();
        if let Some(n) = self.sentinel.number(&url) {
            self.hear(route.guid());
            self.sentinel.hear(n);
            return route
                .fulfill(FulfillOptions::builder().status(204).build())
                .await;
        }
        let judging = self.traffic.judging();
        self.hear(route.guid());
        if self.allowed.allows(&url) {
            tracing::debug!(target: "prettyplay::origins", %url, "routed, but allowed");
            drop(judging);
            return route.continue_(None).await;
        }
        let frame = request.frame();
        let headers = request.headers();
        let top_level = is_navigation(&request, &headers)
            && frame.as_ref().is_none_or(|f| f.parent_frame().is_none());
        let body = request.post_data_buffer();
        let secret = self.holds_secret(&url)
            || headers.values().any(|v| self.holds_secret(v))
            || body
                .as_ref()
                .is_some_and(|b| self.holds_secret(&String::from_utf8_lossy(b)));
        let read_only = is_read_only(request.resource_type(), request.method(), body.is_some());
        self.hear_document(frame.as_ref()).await;
        let mut facts = self.facts(&url, frame.as_ref(), read_only, secret);
        facts.top_level = top_level;
        let kind = request.resource_type();
        let outcome = self.record(&url, kind, &facts, top_level);
        drop(judging);
        if outcome == Outcome::Loaded
            && let Ok(parsed) = url::Url::parse(&url)
        {
            tracing::info!(target: "prettyplay::origins", %url, "the app's subresource loaded from another origin");
            return match self.loader.load(&parsed, &headers).await {
                Ok(response) => route.fulfill(response).await,
                Err(err) => {
                    tracing::warn!(target: "prettyplay::origins", %url, "could not load the app's {kind}: {err}");
                    route.abort(Some(LOAD_FAILED_CODE)).await
                }
            };
        }
        tracing::info!(target: "prettyplay::origins", %url, "blocked by [browser] allowed_origins");
        route.abort(Some(ABORT_CODE)).await
    }

    /// Waits until the guard has heard of the navigation request that asked for the document
    /// `frame` shows, so that what that document asks for while it loads is judged as the
    /// app's. The driver reports the navigation long before the document's first request, but
    /// playwright-rs hands each event to its handler on a task of its own, and on a busy
    /// machine the route's handler can run first; and in Firefox the document's first
    /// requests can reach the guard before the frame tells of its navigation, while its URL is
    /// still the old one. It waits only while a navigation request of the frame that the
    /// driver announced before this route was not heard yet (see [`Unheard`]), or was heard
    /// and the frame has not told of a navigation since: a document no such request loads
    /// (after `history.pushState`, say) is not waited for. [`DOCUMENT_HEARD_CAP`] bounds a
    /// wait for a navigation that never commits.
    async fn hear_document(&self, frame: Option<&Frame>) {
        let Some(frame) = frame else {
            return;
        };
        let deadline = tokio::time::Instant::now() + DOCUMENT_HEARD_CAP;
        loop {
            let heard = self.documents_heard.notified();
            let at = frame.url();
            let web = url::Url::parse(&at).is_ok_and(|u| matches!(u.scheme(), "http" | "https"));
            let on_its_way = self.reach().document_on_its_way(frame.guid());
            let unheard = self
                .unheard
                .as_ref()
                .is_none_or(|u| u.navigation_in(frame.guid()));
            if !on_its_way
                && (!web
                    || !self.allowed.allows(&at)
                    || self.reach().document_heard(frame.guid(), &at)
                    || !unheard)
            {
                return;
            }
            if tokio::time::timeout_at(deadline, heard).await.is_err() {
                return;
            }
        }
    }

    /// The facts of a page's request to `url` by `frame` (none for a service worker's or a
    /// socket's): all but whether it is a top-level navigation.
    fn facts(
        &self,
        url: &str,
        frame: Option<&Frame>,
        read_only: bool,
        carries_secret: bool,
    ) -> Facts {
        let parsed = url::Url::parse(url).ok();
        let reach = self.reach();
        let app_document_loading = frame.is_some_and(|frame| {
            let at = frame.url();
            at.starts_with("http")
                && self.allowed.allows(&at)
                && reach.app_document_loading(frame.guid(), &at)
        });
        Facts {
            source: Source::Page,
            top_level: false,
            read_only,
            carries_secret,
            step_ran_code: reach.ran_code(),
            host_named_by_step: parsed.as_ref().is_some_and(|u| reach.names_host_of(u)),
            carries_step_value: read_only
                && app_document_loading
                && parsed.as_ref().is_some_and(|u| reach.carries_value(u)),
            app_document_loading,
        }
    }

    /// Decides what becomes of a request to `url` of `kind` with `facts`, and records it: a
    /// failure fails the step, and every outcome is listed in the test's log.
    fn record(&self, url: &str, kind: &str, facts: &Facts, top_level: bool) -> Outcome {
        let class = classify(facts);
        let culprit = self.reach().culprit();
        let mut log = self.log();
        if class.outcome == Outcome::Failed {
            let message = if top_level {
                OriginBlocked::Navigation {
                    url: url.to_owned(),
                }
                .to_string()
            } else {
                request_message(kind, url)
            };
            log.fail(message, culprit);
        }
        log.list(url, kind, class.outcome);
        tracing::debug!(target: "prettyplay::origins", %url, class = class.name, rule = class.rule, "judged");
        class.outcome
    }
}

/// Whether `request`, with its `headers`, loads a document. Playwright's WebDriver BiDi layer
/// calls a request a navigation whenever Firefox ties it to a loading document, a beacon the
/// page sends while it loads among them, so the browser's own `Sec-Fetch-Mode` header, which
/// no page can set, overrules it when the browser sent one.
fn is_navigation(request: &Request, headers: &HashMap<String, String>) -> bool {
    request.is_navigation_request()
        && headers
            .get("sec-fetch-mode")
            .is_none_or(|mode| mode.eq_ignore_ascii_case("navigate"))
}

/// Whether `a` and `b` name the same document (they differ at most in the fragment).
fn same_document(a: &str, b: &str) -> bool {
    a.split('#').next() == b.split('#').next()
}

/// The message of a blocked request that is not a top-level navigation.
fn request_message(kind: &str, url: &str) -> String {
    OriginBlocked::Request {
        kind: kind.to_owned(),
        url: url.to_owned(),
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(secrets: Secrets) -> OriginGuard {
        guard_from(secrets, false)
    }

    fn guard_from(secrets: Secrets, saved_state: bool) -> OriginGuard {
        OriginGuard::new(&GuardSetup {
            allowed: &AllowedOrigins::Only {
                origins: vec!["http://127.0.0.1:8080".to_owned()],
                schemes: vec!["about".into(), "data".into(), "blob".into()],
            },
            secrets: &secrets,
            loader: &AppLoader::shared(),
            saved_state,
        })
    }

    #[test]
    fn gotos_off_the_origins_are_refused_with_the_message() {
        let guard = guard(Secrets::default());
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

    #[test]
    fn the_app_beacon_is_listed_and_what_step_code_could_cause_fails() {
        let guard = guard(Secrets::new([(
            "PW".to_owned(),
            "hunter2-secret".to_owned(),
        )]));
        // The app's beacon, with nothing of step code about it: listed, not failed.
        let beacon = "http://127.0.0.1:9/collect";
        let facts = guard.facts(beacon, None, false, false);
        assert_eq!(
            guard.record(beacon, "ping", &facts, false),
            Outcome::Blocked
        );
        assert_eq!(guard.take_blocked(), None);
        // A host step code typed into the page: failed.
        guard.step_call(Reach::Act, &mut json!({ "value": "http://127.0.0.1:7/x" }));
        let named = "http://127.0.0.1:7/x";
        let facts = guard.facts(named, None, false, false);
        assert_eq!(guard.record(named, "fetch", &facts, false), Outcome::Failed);
        assert_eq!(guard.take_blocked(), Some(request_message("fetch", named)));
        // A secret: failed, whoever sent it.
        let leaked = "http://127.0.0.1:9/collect?pw=hunter2-secret";
        assert!(guard.holds_secret(leaked));
        let facts = guard.facts(leaked, None, false, true);
        assert_eq!(guard.record(leaked, "ping", &facts, false), Outcome::Failed);
        // Once step code ran code of its own in a page, anything fails.
        guard.step_call(Reach::RunCode, &mut json!({ "expression": "() => 0" }));
        let facts = guard.facts(beacon, None, false, false);
        assert_eq!(guard.record(beacon, "ping", &facts, false), Outcome::Failed);
        let seen = guard.origins_seen();
        assert_eq!(
            seen.iter()
                .map(|s| (s.origin.as_str(), s.outcome))
                .collect::<Vec<_>>(),
            [
                ("http://127.0.0.1:7", Outcome::Failed),
                ("http://127.0.0.1:9", Outcome::Blocked),
                ("http://127.0.0.1:9", Outcome::Failed),
            ]
        );
    }

    #[test]
    fn an_acts_floor_at_a_tests_end_is_kept_only_while_something_it_guards_is_in_play() {
        let secret = || Secrets::new([("PW".to_owned(), "hunter2-secret".to_owned())]);
        let end = |guard: &OriginGuard| guard.floor_at(SettleAt::TestEnd);
        // The run has a secret, but no step code was given it, and step code typed and ran
        // nothing that the floor guards.
        let quiet = guard(secret());
        // The binding hears `page.goto('/login.html')` as written, then as resolved.
        quiet.step_call(Reach::Navigate, &mut json!({ "url": "/login.html" }));
        quiet.step_call(
            Reach::Navigate,
            &mut json!({ "url": "http://127.0.0.1:8080/login.html" }),
        );
        quiet.step_call(Reach::Act, &mut json!({ "value": "a public note" }));
        quiet.step_call(
            Reach::Act,
            &mut json!({ "value": "http://127.0.0.1:8080/own" }),
        );
        quiet.code_holds("async function step(page) { await page.fill('#a', 'x'); }");
        assert_eq!(end(&quiet), Floor::UnlessChecked);
        assert_eq!(quiet.floor_at(SettleAt::Step), Floor::Always);
        // Each thing the floor guards keeps it.
        let read = guard(secret());
        read.secret_in_play();
        let typed = guard(secret());
        typed.step_call(Reach::Act, &mut json!({ "value": "xhunter2-secretx" }));
        let written = guard(secret());
        written.code_holds(
            "async function step(page) { await page.fill('#pw', 'hunter2-' + 'secret'); }",
        );
        let outside = guard(Secrets::default());
        outside.step_call(Reach::Act, &mut json!({ "value": "http://127.0.0.1:7/x" }));
        // A context that starts from a saved state may hold a secret an earlier test typed.
        let saved = guard_from(secret(), true);
        // A failed candidate's JavaScript is forgiven its blame, not the listeners it left.
        let forgiven = guard(Secrets::default());
        forgiven.mark();
        forgiven.step_call(Reach::RunCode, &mut json!({ "expression": "() => 0" }));
        forgiven.forgive();
        let code = guard(Secrets::default());
        code.step_call(Reach::RunCode, &mut json!({ "expression": "() => 0" }));
        for (name, guard) in [
            ("a secret var read", &read),
            ("a secret typed", &typed),
            ("a secret in the code", &written),
            ("a host outside", &outside),
            ("a saved state", &saved),
            ("a failed candidate's JavaScript", &forgiven),
            ("step code's JavaScript", &code),
        ] {
            assert_eq!(end(guard), Floor::Always, "{name}");
        }
        // With no secret in the run, nothing holds one.
        let none = guard(Secrets::default());
        none.code_holds("async function step(page) { await page.fill('#pw', 'hunter2-secret'); }");
        assert_eq!(end(&none), Floor::UnlessChecked);
    }

    /// What the proxy hears once the context is closing is judged by who could have caused
    /// it: the app's own beacon is listed; one with a secret, one after step code ran its own
    /// JavaScript, or one to a host step code named fails, as routes would have decided.
    #[test]
    fn what_a_closing_context_sends_is_judged_as_routes_judge_a_page() {
        let target = |url: &str| RequestTarget {
            kind: "request",
            url: url.to_owned(),
        };
        let secret = || Secrets::new([("PW".to_owned(), "hunter2-secret".to_owned())]);
        let beacon = target("http://127.0.0.1:7/leak-beacon-unload");
        let app = guard(secret());
        app.context_closing();
        app.refused_connection("127.0.0.1", 7, Some(&beacon), "POST /leak HTTP/1.1\r\n");
        app.refused_connection("127.0.0.1", 7, None, "\x01\x02");
        assert_eq!(app.first_violation(), None);
        assert_eq!(app.take_log().len(), 2, "both are listed");
        let with_secret = guard(secret());
        with_secret.context_closing();
        let head = "POST /leak HTTP/1.1\r\n\r\npw=hunter2-secret";
        with_secret.refused_connection("127.0.0.1", 7, Some(&beacon), head);
        let code = guard(Secrets::default());
        code.step_call(Reach::RunCode, &mut json!({ "expression": "() => 0" }));
        code.context_closing();
        code.refused_connection("127.0.0.1", 7, Some(&beacon), "POST / HTTP/1.1\r\n");
        let typed = guard(secret());
        typed.step_call(Reach::Act, &mut json!({ "value": "xhunter2-secretx" }));
        typed.context_closing();
        typed.refused_connection("127.0.0.1", 7, Some(&beacon), "POST / HTTP/1.1\r\n");
        let named = guard(Secrets::default());
        named.step_call(Reach::Act, &mut json!({ "value": "http://127.0.0.1:7/x" }));
        named.context_closing();
        named.refused_connection("127.0.0.1", 7, None, "");
        for (name, guard) in [
            ("a secret", &with_secret),
            ("step code's JavaScript", &code),
            ("a named host", &named),
        ] {
            assert!(guard.first_violation().is_some(), "{name}");
        }
        // While the context lives, an unrouted request fails whoever sent it.
        let open = guard(Secrets::default());
        open.refused_connection("127.0.0.1", 7, Some(&beacon), "POST / HTTP/1.1\r\n");
        assert!(open.first_violation().is_some());
    }

    #[test]
    fn refused_connections_fail_and_a_later_candidate_is_forgiven() {
        let guard = guard(Secrets::default());
        guard.refused_connection("127.0.0.1", 9, None, "");
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
        guard.mark();
        guard.refused_connection("127.0.0.1", 8, None, "");
        guard.forgive();
        assert_eq!(guard.take_blocked(), None);
        assert!(guard.first_violation().is_some_and(|v| v.contains(":9")));
        assert_eq!(
            guard.take_log(),
            [
                "blocked by [browser] allowed_origins: connection 127.0.0.1:9",
                "blocked by [browser] allowed_origins: connection 127.0.0.1:8",
            ]
        );
    }
}
