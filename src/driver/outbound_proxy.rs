//! The network-level half of `[browser] allowed_origins`: a SOCKS5 proxy on 127.0.0.1 that
//! every browser context of a local worker connects through (but for the allowed origins' own
//! hosts and ports in Chromium, below), which opens a connection only to a host and port that
//! an allowed origin names and refuses every other one.
//!
//! Main type: [`OutboundProxy`]. Playwright's routes see requests before they leave, but not
//! every channel: a redirect's later hops, WebSockets, service workers and whatever the page
//! finds that routing does not cover all go out on their own. Every one of them still needs a
//! connection, and the context's proxy is the only way a connection to anywhere but an allowed
//! origin's own host and port leaves, loopback included (the bypass list says `<-loopback>`). SOCKS5 carries no URL, so the proxy decides by host and
//! port: any scheme of an allowed origin's host and port is let through.
//!
//! A connection to anywhere else never leaves the proxy: it is accepted, and whatever the
//! browser then sends on it is read and dropped. Only a connection that sends something is a
//! request, reported to the [`OriginGuard`] of the test whose context connected (each context
//! has a port of its own), which fails the step that made it; an idle
//! one is Chromium preconnecting to a link's host, which sends nothing anywhere. A plain HTTP
//! request is named by its URL. A TLS handshake is dropped unreported, because Chromium's own
//! services connect through the same proxy and TLS does not say who asked.
//!
//! For a connection to an allowed origin's own host and port the proxy decides nothing: it
//! connects and copies the bytes both ways without reading them, because what is sent to an
//! allowed origin is allowed whatever it carries. So a Chromium context skips the proxy for
//! exactly those hosts and ports ([`bypass_list`]), which spares each of the app's connections
//! a SOCKS handshake and a second socket; every other connection still goes through it.
//! Firefox keeps every connection on the proxy, because its per-context bypass list is not
//! known to match a host and port exactly.

use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use playwright_rs::protocol::ProxySettings;

use crate::config::{AllowedOrigins, BrowserName};
use crate::driver::OriginGuard;
use crate::driver::origins::RequestTarget;

/// How long a client may take to say where it wants to go, and how long the proxy waits for
/// the app's server to accept the connection.
const HANDSHAKE_LIMIT: Duration = Duration::from_secs(10);

/// How long a forbidden connection may stay idle before the proxy closes it unreported: longer
/// than the browser keeps a preconnected socket unused.
const IDLE_LIMIT: Duration = Duration::from_secs(60);

/// The first byte of a TLS record that starts a handshake.
const TLS_HANDSHAKE: u8 = 0x16;

/// SOCKS5 reply codes (RFC 1928, section 6).
const SUCCEEDED: u8 = 0x00;
const GENERAL_FAILURE: u8 = 0x01;
const HOST_UNREACHABLE: u8 = 0x04;
const CONNECTION_REFUSED: u8 = 0x05;
const COMMAND_NOT_SUPPORTED: u8 = 0x07;
const ADDRESS_NOT_SUPPORTED: u8 = 0x08;

/// One worker's proxy: a port of its own for each browser context the worker opens.
pub(crate) struct OutboundProxy {
    allowed: Arc<AllowedOrigins>,
    /// What every context's proxy setting lets skip the proxy (see [`bypass_list`]).
    bypass: Option<String>,
    /// The one port of a worker that keeps one context for all its tests (`isolation =
    /// "reuse"`): the context's proxy is fixed when the context is made.
    shared: Option<Arc<ProxyPort>>,
    /// The ports of the worker's latest contexts, newest last (see [`KEPT_PORTS`]).
    recent: Mutex<VecDeque<Arc<ProxyPort>>>,
}

/// How many of a worker's latest contexts keep their port open. A context's page can still
/// send (a `keepalive` fetch or a beacon from its `unload` handler) while the context closes,
/// and that connection may arrive after the next test began: its own port, still open, refuses
/// it and blames no later test. A context closed this many tests ago has nothing left to send,
/// and a port closed by then refuses at the socket, which fails the browser's request too.
const KEPT_PORTS: usize = 8;

impl OutboundProxy {
    /// A proxy that lets through only what `allowed` allows, on free ports of 127.0.0.1: one
    /// for all of the worker's tests when `one_context` (the worker reuses its context), else
    /// one per context ([`OutboundProxy::port`]). The contexts of `browser` skip it for the
    /// allowed origins' own hosts and ports when it is Chromium (see [`bypass_list`]).
    pub(crate) async fn start(
        allowed: AllowedOrigins,
        one_context: bool,
        browser: BrowserName,
    ) -> std::io::Result<OutboundProxy> {
        let bypass = match browser {
            BrowserName::Chromium => bypass_list(&allowed),
            BrowserName::Firefox | BrowserName::Webkit => None,
        };
        let allowed = Arc::new(allowed);
        let shared = if one_context {
            Some(Arc::new(ProxyPort::open(Arc::clone(&allowed)).await?))
        } else {
            None
        };
        Ok(OutboundProxy {
            allowed,
            bypass,
            shared,
            recent: Mutex::default(),
        })
    }

    /// The port the next context connects through. Whatever arrives on a port is blamed on the
    /// guard attached to that port only, so a request a closing context sends late is never
    /// taken for the next test's.
    pub(crate) async fn port(&self) -> std::io::Result<Arc<ProxyPort>> {
        if let Some(shared) = &self.shared {
            return Ok(Arc::clone(shared));
        }
        let port = Arc::new(ProxyPort::open(Arc::clone(&self.allowed)).await?);
        let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
        recent.push_back(Arc::clone(&port));
        while recent.len() > KEPT_PORTS {
            recent.pop_front();
        }
        Ok(port)
    }

    /// The proxy setting of a context that connects through `port`.
    pub(crate) fn settings(&self, port: &ProxyPort) -> ProxySettings {
        let settings = ProxySettings::new(port.server());
        match &self.bypass {
            Some(bypass) => settings.bypass(bypass.clone()),
            None => settings,
        }
    }
}

/// The bypass list of a Chromium context's proxy: `<-loopback>`, then the host and port of
/// each allowed origin that Chromium can name exactly, comma-separated; `None` when every
/// origin is allowed (no proxy is started then).
///
/// Chromium lets loopback skip any proxy unless a rule says `<-loopback>`, and lets a later
/// rule overrule an earlier one: loopback goes through the proxy, and only these hosts and
/// ports skip it. Playwright adds `<-loopback>` itself only when the list names no loopback
/// host and `PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK` is unset in the driver's
/// environment, which is the user's; so the list carries it itself, and Playwright then passes
/// it as it is. The list holds no scheme, because the proxy lets every scheme through on an
/// allowed host and port, so a connection that skips it could have gone through it.
fn bypass_list(allowed: &AllowedOrigins) -> Option<String> {
    if allowed.is_any() {
        return None;
    }
    let sockets = allowed.sockets();
    let rules = sockets
        .iter()
        .filter_map(|(host, port)| bypass_rule(host, *port));
    Some(
        std::iter::once(LOOPBACK_THROUGH_PROXY.to_owned())
            .chain(rules)
            .collect::<Vec<_>>()
            .join(","),
    )
}

/// The rule of Chromium's bypass list that sends loopback through the proxy.
const LOOPBACK_THROUGH_PROXY: &str = "<-loopback>";

/// The rule of Chromium's bypass list that matches `host` and `port` and nothing else, when
/// there is one. Chromium reads an IP address with port 0 as the address on every port, and
/// `*` and `?` in a host name as wildcards, so port 0 and any host that is neither an IP
/// address nor a plain host name get no rule: those keep going through the proxy, which
/// decides as it always did.
fn bypass_rule(host: &str, port: u16) -> Option<String> {
    if port == 0 {
        return None;
    }
    let exact = match host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => v6.parse::<Ipv6Addr>().is_ok(),
        None => host.parse::<Ipv4Addr>().is_ok() || is_plain_host_name(host),
    };
    exact.then(|| format!("{host}:{port}"))
}

/// Whether `host` is dot-separated labels of ASCII letters, digits, `-` and `_`, which
/// Chromium's bypass list compares letter for letter. A leading dot would make it a domain
/// and all its subdomains.
fn is_plain_host_name(host: &str) -> bool {
    !host.is_empty()
        && host
            .strip_suffix('.')
            .unwrap_or(host)
            .split('.')
            .all(|label| {
                !label.is_empty()
                    && label
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            })
}

/// One port of the proxy: where it listens, and the guard of the test whose context connects
/// through it.
pub(crate) struct ProxyPort {
    address: SocketAddr,
    /// The guard told of every refused connection; none once its test has ended.
    current: Arc<Mutex<Weak<OriginGuard>>>,
    accept: tokio::task::JoinHandle<()>,
}

impl ProxyPort {
    async fn open(allowed: Arc<AllowedOrigins>) -> std::io::Result<ProxyPort> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let address = listener.local_addr()?;
        let current: Arc<Mutex<Weak<OriginGuard>>> = Arc::default();
        let reporting = Arc::clone(&current);
        let accept = tokio::spawn(async move {
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    continue;
                };
                let allowed = Arc::clone(&allowed);
                let current = Arc::clone(&reporting);
                tokio::spawn(async move {
                    if let Err(err) = serve(client, &allowed, &current).await {
                        tracing::debug!(target: "prettyplay::origins", "proxy connection: {err}");
                    }
                });
            }
        });
        Ok(ProxyPort {
            address,
            current,
            accept,
        })
    }

    /// The port's address as a browser context's proxy server setting.
    fn server(&self) -> String {
        format!("socks5://{}", self.address)
    }

    /// Makes `guard` the one told of refused connections from now on.
    pub(crate) fn attach(&self, guard: &Arc<OriginGuard>) {
        *self.current.lock().unwrap_or_else(PoisonError::into_inner) = Arc::downgrade(guard);
    }
}

impl Drop for ProxyPort {
    fn drop(&mut self) {
        // Connections already open end with their browser context; no new one is accepted.
        self.accept.abort();
    }
}

/// Where a client asked to connect to.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Destination {
    /// As a URL writes it: a name, an IPv4 address, or an IPv6 address in brackets.
    host: String,
    port: u16,
}

/// One client connection: the SOCKS5 greeting, the request, the decision, then the bytes both
/// ways until either side closes.
async fn serve(
    mut client: TcpStream,
    allowed: &AllowedOrigins,
    current: &Mutex<Weak<OriginGuard>>,
) -> std::io::Result<()> {
    let asked = tokio::time::timeout(HANDSHAKE_LIMIT, handshake(&mut client)).await;
    let destination = match asked {
        Ok(Ok(Ok(destination))) => destination,
        Ok(Ok(Err(code))) => return reply(&mut client, code).await,
        Ok(Err(err)) => return Err(err),
        Err(_) => return Ok(()),
    };
    if !allowed.allows_socket(&destination.host, destination.port) {
        return swallow(client, &destination, current).await;
    }
    let connect = TcpStream::connect((destination.host.trim_matches(['[', ']']), destination.port));
    let mut server = match tokio::time::timeout(HANDSHAKE_LIMIT, connect).await {
        Ok(Ok(server)) => server,
        Ok(Err(err)) if err.kind() == std::io::ErrorKind::ConnectionRefused => {
            return reply(&mut client, CONNECTION_REFUSED).await;
        }
        Ok(Err(_)) | Err(_) => return reply(&mut client, HOST_UNREACHABLE).await,
    };
    tracing::debug!(
        target: "prettyplay::origins",
        host = %destination.host,
        port = destination.port,
        "proxied a connection to an allowed origin"
    );
    reply(&mut client, SUCCEEDED).await?;
    tokio::io::copy_bidirectional(&mut client, &mut server).await?;
    Ok(())
}

/// Accepts a connection to a forbidden destination without opening it, and reads what the
/// browser sends on it: the first bytes are the request, which is reported and dropped. A
/// connection that sends nothing before it closes (a preconnect) is no request.
async fn swallow(
    mut client: TcpStream,
    destination: &Destination,
    current: &Mutex<Weak<OriginGuard>>,
) -> std::io::Result<()> {
    reply(&mut client, SUCCEEDED).await?;
    let mut first = vec![0u8; 8 * 1024];
    let read = tokio::time::timeout(IDLE_LIMIT, client.read(&mut first)).await;
    let n = match read {
        Ok(Ok(n)) if n > 0 => n,
        _ => return Ok(()),
    };
    let guard = current
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .upgrade();
    // A TLS handshake names no request, and Chromium's own services (autofill, for one) send
    // theirs through the context's proxy too, so only what a page can be blamed for is
    // reported: nothing leaves either way. Once the context's test has ended, what its page
    // sent as it closed fails no test.
    let refused = match guard {
        _ if first[0] == TLS_HANDSHAKE => "a TLS connection",
        None => "a request after its test ended",
        Some(guard) => {
            let target = request_target(&first[..n], destination);
            let head = String::from_utf8_lossy(&first[..n]);
            guard.refused_connection(&destination.host, destination.port, target.as_ref(), &head);
            "a request"
        }
    };
    tracing::info!(
        target: "prettyplay::origins",
        host = %destination.host,
        port = destination.port,
        refused,
        "refused by [browser] allowed_origins"
    );
    // Dropping the connection ends the browser's request with an empty response.
    Ok(())
}

/// The URL and kind of the plain HTTP request that `bytes` begin, if they begin one: the
/// request line's target, made absolute with the destination. TLS and other protocols carry
/// nothing readable.
fn request_target(bytes: &[u8], destination: &Destination) -> Option<RequestTarget> {
    let text = String::from_utf8_lossy(bytes);
    let line = text.lines().next()?;
    let mut parts = line.split(' ');
    let method = parts.next()?;
    let target = parts.next()?;
    let version = parts.next()?;
    if !version.starts_with("HTTP/")
        || method.is_empty()
        || !method.bytes().all(|b| b.is_ascii_uppercase())
    {
        return None;
    }
    let upgrade = text.lines().take_while(|l| !l.is_empty()).any(|header| {
        let lower = header.to_ascii_lowercase();
        lower.starts_with("upgrade:") && lower.contains("websocket")
    });
    let scheme = if upgrade { "ws" } else { "http" };
    let url = if target.starts_with('/') {
        format!(
            "{scheme}://{}:{}{target}",
            destination.host, destination.port
        )
    } else {
        target.to_owned()
    };
    Some(RequestTarget {
        kind: if upgrade { "websocket" } else { "request" },
        url,
    })
}

/// Reads the greeting and the request. The outer error is the connection's; the inner one a
/// reply code for a request the proxy does not serve.
async fn handshake(client: &mut TcpStream) -> std::io::Result<Result<Destination, u8>> {
    let mut head = [0u8; 2];
    client.read_exact(&mut head).await?;
    let [version, methods] = head;
    let mut offered = vec![0u8; usize::from(methods)];
    client.read_exact(&mut offered).await?;
    if version != 5 || !offered.contains(&0) {
        // No acceptable method: the client closes.
        client.write_all(&[5, 0xff]).await?;
        return Err(std::io::Error::other(
            "not a SOCKS5 client without authentication",
        ));
    }
    client.write_all(&[5, 0]).await?;
    let mut request = [0u8; 4];
    client.read_exact(&mut request).await?;
    let [_, command, _, address_type] = request;
    let host = match address_type {
        1 => {
            let mut octets = [0u8; 4];
            client.read_exact(&mut octets).await?;
            Ipv4Addr::from(octets).to_string()
        }
        3 => {
            let mut len = [0u8; 1];
            client.read_exact(&mut len).await?;
            let mut name = vec![0u8; usize::from(len[0])];
            client.read_exact(&mut name).await?;
            String::from_utf8_lossy(&name).to_ascii_lowercase()
        }
        4 => {
            let mut octets = [0u8; 16];
            client.read_exact(&mut octets).await?;
            format!("[{}]", Ipv6Addr::from(octets))
        }
        _ => return Ok(Err(ADDRESS_NOT_SUPPORTED)),
    };
    let mut port = [0u8; 2];
    client.read_exact(&mut port).await?;
    if command != 1 {
        // Only CONNECT: BIND and UDP ASSOCIATE would open channels the guard cannot see.
        return Ok(Err(COMMAND_NOT_SUPPORTED));
    }
    Ok(Ok(Destination {
        host: canonical_host(host),
        port: u16::from_be_bytes(port),
    }))
}

/// `host` as a URL serializes it, so it compares equal to an allowed origin's host: IPv4
/// addresses written as names are parsed, and an IPv6 address keeps its brackets.
fn canonical_host(host: String) -> String {
    match host.parse::<IpAddr>() {
        Ok(IpAddr::V4(v4)) => v4.to_string(),
        Ok(IpAddr::V6(v6)) => format!("[{v6}]"),
        Err(_) => host,
    }
}

async fn reply(client: &mut TcpStream, code: u8) -> std::io::Result<()> {
    let code = if code == SUCCEEDED || code <= ADDRESS_NOT_SUPPORTED {
        code
    } else {
        GENERAL_FAILURE
    };
    client.write_all(&[5, code, 0, 1, 0, 0, 0, 0, 0, 0]).await?;
    client.flush().await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only(origins: &[&str]) -> AllowedOrigins {
        AllowedOrigins::Only {
            origins: origins.iter().map(|o| (*o).to_owned()).collect(),
            schemes: vec!["about".into()],
        }
    }

    /// Asks `proxy` to connect to `host`:`port` by name and returns its reply code.
    async fn ask(proxy: SocketAddr, host: &str, port: u16) -> (u8, TcpStream) {
        let mut client = TcpStream::connect(proxy).await.unwrap();
        client.write_all(&[5, 1, 0]).await.unwrap();
        let mut chosen = [0u8; 2];
        client.read_exact(&mut chosen).await.unwrap();
        assert_eq!(chosen, [5, 0]);
        let mut request = vec![5, 1, 0, 3, u8::try_from(host.len()).unwrap()];
        request.extend_from_slice(host.as_bytes());
        request.extend_from_slice(&port.to_be_bytes());
        client.write_all(&request).await.unwrap();
        let mut answer = [0u8; 10];
        client.read_exact(&mut answer).await.unwrap();
        (answer[1], client)
    }

    #[tokio::test]
    async fn an_allowed_host_and_port_is_connected_and_any_other_refused() {
        let app = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.unwrap();
        let app_port = app.local_addr().unwrap().port();
        let other = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.unwrap();
        let other_port = other.local_addr().unwrap().port();
        let allowed = only(&[&format!("http://127.0.0.1:{app_port}")]);
        let proxy = OutboundProxy::start(allowed, false, BrowserName::Chromium)
            .await
            .unwrap();
        let port = proxy.port().await.unwrap();
        let (code, mut client) = ask(port.address, "127.0.0.1", app_port).await;
        assert_eq!(code, SUCCEEDED);
        let (mut accepted, _) = app.accept().await.unwrap();
        client.write_all(b"ping").await.unwrap();
        let mut got = [0u8; 4];
        accepted.read_exact(&mut got).await.unwrap();
        assert_eq!(&got, b"ping");
        // A forbidden destination is accepted, and what is sent there goes nowhere.
        let (code, mut forbidden) = ask(port.address, "127.0.0.1", other_port).await;
        assert_eq!(code, SUCCEEDED);
        forbidden
            .write_all(b"GET /?d=1 HTTP/1.1\r\n\r\n")
            .await
            .unwrap();
        let mut rest = Vec::new();
        forbidden.read_to_end(&mut rest).await.unwrap();
        assert!(rest.is_empty(), "the proxy answered for the forbidden host");
        let (_, mut by_name) = ask(port.address, "localhost", app_port).await;
        by_name.write_all(b"GET / HTTP/1.1\r\n\r\n").await.unwrap();
        by_name.read_to_end(&mut rest).await.unwrap();
        assert!(rest.is_empty(), "another host name is another origin");
        // Nothing ever reached the other listener.
        let nothing = tokio::time::timeout(Duration::from_millis(200), other.accept()).await;
        assert!(
            nothing.is_err(),
            "the refused connection reached its listener"
        );
    }

    fn guard_of(allowed: &AllowedOrigins) -> Arc<OriginGuard> {
        Arc::new(OriginGuard::new(&crate::driver::origins::GuardSetup {
            allowed,
            secrets: &crate::secrets::Secrets::default(),
            loader: &crate::driver::app_loader::AppLoader::shared(),
            saved_state: false,
        }))
    }

    /// Sends a plain HTTP request for `path` through `port` to the forbidden `other_port`, and
    /// returns once the proxy has dropped it (after it told the port's guard, if any).
    async fn send_forbidden(port: &ProxyPort, other_port: u16, path: &str) {
        let (code, mut client) = ask(port.address, "127.0.0.1", other_port).await;
        assert_eq!(code, SUCCEEDED);
        let request = format!("GET {path} HTTP/1.1\r\n\r\n");
        client.write_all(request.as_bytes()).await.unwrap();
        let mut rest = Vec::new();
        client.read_to_end(&mut rest).await.unwrap();
        assert!(rest.is_empty(), "the proxy answered for the forbidden host");
    }

    /// Each context has a port of its own, so what a context sends as it closes, after the
    /// next test began, is never blamed on the next test; the next test's own request is.
    #[tokio::test]
    async fn a_refused_request_is_blamed_only_on_the_test_whose_context_sent_it() {
        let other = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await.unwrap();
        let other_port = other.local_addr().unwrap().port();
        let allowed = only(&["http://127.0.0.1:1"]);
        let proxy = OutboundProxy::start(allowed.clone(), false, BrowserName::Chromium)
            .await
            .unwrap();
        let first = proxy.port().await.unwrap();
        let second = proxy.port().await.unwrap();
        assert_ne!(first.address, second.address);
        let ended = guard_of(&allowed);
        first.attach(&ended);
        let running = guard_of(&allowed);
        second.attach(&running);
        drop(ended);
        send_forbidden(&first, other_port, "/leak-unload").await;
        assert_eq!(running.first_violation(), None);
        send_forbidden(&second, other_port, "/own").await;
        let violation = running.first_violation().expect("the test's own request");
        assert!(violation.contains("/own"), "{violation}");
        assert!(!violation.contains("/leak-unload"), "{violation}");
    }

    /// A worker that keeps one context for all its tests has one port, which each test's guard
    /// takes over in turn; a worker with a context per test keeps only its latest ports open.
    #[tokio::test]
    async fn one_port_for_a_reused_context_and_only_the_latest_ports_kept_open() {
        let allowed = only(&["http://127.0.0.1:1"]);
        let reused = OutboundProxy::start(allowed.clone(), true, BrowserName::Chromium)
            .await
            .unwrap();
        let port = reused.port().await.unwrap();
        assert_eq!(port.address, reused.port().await.unwrap().address);
        let proxy = OutboundProxy::start(allowed, false, BrowserName::Chromium)
            .await
            .unwrap();
        let oldest = proxy.port().await.unwrap().address;
        let mut latest = Vec::new();
        for _ in 0..KEPT_PORTS {
            latest.push(proxy.port().await.unwrap());
        }
        // The oldest port's listener goes with its aborted task, at the runtime's next turn.
        let refused = async {
            while TcpStream::connect(oldest).await.is_ok() {
                tokio::task::yield_now().await;
            }
        };
        tokio::time::timeout(Duration::from_secs(10), refused)
            .await
            .expect("the oldest port still accepts");
        for port in &latest {
            assert!(TcpStream::connect(port.address).await.is_ok());
        }
    }

    #[test]
    fn chromium_skips_the_proxy_for_each_allowed_host_and_port_exactly() {
        let app = only(&["http://127.0.0.1:4173"]);
        assert_eq!(
            bypass_list(&app).as_deref(),
            Some("<-loopback>,127.0.0.1:4173")
        );
        let several = only(&[
            "http://127.0.0.1:4173",
            "http://[::1]:3000",
            "http://app.test",
            "https://cdn.example.com",
            "https://api.example.com:8443",
        ]);
        assert_eq!(
            bypass_list(&several).as_deref(),
            Some(
                "<-loopback>,127.0.0.1:4173,[::1]:3000,app.test:80,cdn.example.com:443,\
                 api.example.com:8443"
            )
        );
        // Every rule names a host and port the proxy itself would let through.
        for rule in bypass_list(&several).unwrap().split(',').skip(1) {
            let (host, port) = rule.rsplit_once(':').unwrap();
            assert!(several.allows_socket(host, port.parse().unwrap()), "{rule}");
        }
        assert_eq!(bypass_list(&AllowedOrigins::Any), None);
        // With no origin to name, loopback is still kept on the proxy.
        assert_eq!(bypass_list(&only(&[])).as_deref(), Some("<-loopback>"));
    }

    /// The list keeps loopback on the proxy whatever Playwright does: it starts with
    /// `<-loopback>`, which Playwright then passes as it is, and no rule is a loopback host
    /// alone.
    #[test]
    fn a_loopback_origin_on_its_default_port_still_names_the_port() {
        let loopback = only(&[
            "http://127.0.0.1",
            "http://localhost",
            "https://[::1]",
            "http://[::]:8080",
        ]);
        let list = bypass_list(&loopback).unwrap();
        assert_eq!(
            list,
            "<-loopback>,127.0.0.1:80,localhost:80,[::1]:443,[::]:8080"
        );
        // The entries that make Playwright 1.64 leave loopback off the proxy.
        let whole_loopback = [
            "localhost",
            "127.0.0.1",
            "::1",
            "[::]",
            "[::1]",
            "<loopback>",
        ];
        for rule in list.split(',').skip(1) {
            assert!(!whole_loopback.contains(&rule), "{rule}");
        }
    }

    #[test]
    fn a_host_or_port_chromium_would_widen_keeps_going_through_the_proxy() {
        // A base URL's origin is not checked as an entry is, and Chromium reads `*` and `?` as
        // wildcards and an IP address's port 0 as any port.
        assert_eq!(bypass_rule("127.0.0.1", 0), None);
        assert_eq!(bypass_rule("[::1]", 0), None);
        assert_eq!(bypass_rule("app.test", 0), None);
        for host in [
            "*.example.com",
            "*",
            "a?c.test",
            ".example.com",
            "",
            "a..b",
            "::1",
            "[x]",
        ] {
            assert_eq!(bypass_rule(host, 80), None, "{host}");
        }
        assert_eq!(
            bypass_rule("my_app.test.", 80).as_deref(),
            Some("my_app.test.:80")
        );
        assert_eq!(
            bypass_rule("[::ffff:7f00:1]", 8080).as_deref(),
            Some("[::ffff:7f00:1]:8080")
        );
        let widened = only(&["http://*.example.com:8080", "http://127.0.0.1:4173"]);
        assert_eq!(
            bypass_list(&widened).as_deref(),
            Some("<-loopback>,127.0.0.1:4173")
        );
    }

    #[tokio::test]
    async fn only_a_chromium_context_gets_the_bypass_list() {
        let allowed = only(&["http://127.0.0.1:4173"]);
        let chromium = OutboundProxy::start(allowed.clone(), false, BrowserName::Chromium)
            .await
            .unwrap();
        let port = chromium.port().await.unwrap();
        let settings = chromium.settings(&port);
        assert_eq!(settings.server, format!("socks5://{}", port.address));
        assert_eq!(
            settings.bypass.as_deref(),
            Some("<-loopback>,127.0.0.1:4173")
        );
        let firefox = OutboundProxy::start(allowed, false, BrowserName::Firefox)
            .await
            .unwrap();
        let port = firefox.port().await.unwrap();
        assert_eq!(firefox.settings(&port).bypass, None);
    }

    #[test]
    fn a_plain_request_is_named_by_its_url_and_tls_by_nothing() {
        let at = Destination {
            host: "127.0.0.1".into(),
            port: 9,
        };
        let get = b"GET /a?d=1 HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n";
        assert_eq!(
            request_target(get, &at),
            Some(RequestTarget {
                kind: "request",
                url: "http://127.0.0.1:9/a?d=1".into()
            })
        );
        let socket = b"GET /s HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n";
        assert_eq!(
            request_target(socket, &at).map(|t| (t.kind, t.url)),
            Some(("websocket", "ws://127.0.0.1:9/s".to_owned()))
        );
        assert_eq!(request_target(&[0x16, 0x03, 0x01, 0x02, 0x00], &at), None);
    }

    #[test]
    fn ip_addresses_are_written_as_urls_write_them() {
        assert_eq!(canonical_host("127.0.0.1".into()), "127.0.0.1");
        assert_eq!(canonical_host("::1".into()), "[::1]");
        assert_eq!(canonical_host("app.test".into()), "app.test");
    }
}
