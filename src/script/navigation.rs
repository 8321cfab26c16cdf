//! What a navigation (`page.goto`, `reload`, `goBack`, `goForward`) says about the app under
//! test rather than about the step: its server could not be reached, it answered the page's
//! main document with an HTTP 5xx, or the URL cannot work because no base URL is set. Each
//! becomes a failure kind that no LLM is asked about ([`FailureKind::speaks_for_itself`]).
//!
//! Main functions: [`needs_base_url`] (before the call), [`failed`] (a navigation that threw:
//! the browser's network error codes, or a timeout that a direct connection confirms) and
//! [`answered`] (the main document's status).

use std::sync::LazyLock;

use playwright_rs::protocol::Response;
use serde_json::{Value, json};

use crate::script::FailureKind;
use crate::script::driver_error::HostError;
use crate::web_server::{CONNECT_LIMIT, UNREACHABLE_HINT, Unreachable, reach};

/// The browsers' network error codes that mean the app's server could not be reached, each
/// with what it means in a few words. An entry ending in `_` names every code it starts; the
/// first entry that matches a code wins, so exact codes come before the prefixes that cover
/// them. Chromium's come from `net/base/net_error_list.h`, Firefox's from its `NS_ERROR_*`
/// network codes and its NSS (`SSL_ERROR_*`, `SEC_ERROR_*`) and mozilla::pkix certificate
/// errors. Codes such as `net::ERR_ABORTED` or `net::ERR_BLOCKED_BY_CLIENT` are not here:
/// the app was reached and something else stopped the navigation.
const UNREACHABLE_CODES: &[(&str, &str)] = &[
    ("net::ERR_CONNECTION_REFUSED", "connection refused"),
    ("net::ERR_CONNECTION_RESET", "connection reset"),
    ("net::ERR_CONNECTION_CLOSED", "connection closed"),
    ("net::ERR_CONNECTION_FAILED", "connection failed"),
    ("net::ERR_CONNECTION_TIMED_OUT", "connection timed out"),
    ("net::ERR_TIMED_OUT", "connection timed out"),
    ("net::ERR_NAME_NOT_RESOLVED", "host name not resolved"),
    ("net::ERR_NAME_RESOLUTION_FAILED", "host name not resolved"),
    ("net::ERR_ADDRESS_UNREACHABLE", "address unreachable"),
    ("net::ERR_ADDRESS_INVALID", "invalid address"),
    ("net::ERR_INTERNET_DISCONNECTED", "no network"),
    ("net::ERR_PROXY_CONNECTION_FAILED", "proxy unreachable"),
    ("net::ERR_TUNNEL_CONNECTION_FAILED", "proxy tunnel failed"),
    // Chromium never connects to ports such as 9 or 6000 that other protocols use, so an app
    // served there cannot be reached from the browser at all.
    (
        "net::ERR_UNSAFE_PORT",
        "the browser refuses to connect to this port",
    ),
    (
        "net::ERR_BAD_SSL_CLIENT_AUTH_CERT",
        "TLS client certificate refused",
    ),
    ("net::ERR_CERT_", "TLS certificate refused"),
    ("net::ERR_SSL_", "TLS handshake failed"),
    ("NS_ERROR_CONNECTION_REFUSED", "connection refused"),
    ("NS_ERROR_UNKNOWN_HOST", "host name not resolved"),
    ("NS_ERROR_NET_RESET", "connection reset"),
    ("NS_ERROR_NET_TIMEOUT", "connection timed out"),
    ("NS_ERROR_NET_INTERRUPT", "connection interrupted"),
    ("NS_ERROR_NET_", "network error"),
    ("NS_ERROR_OFFLINE", "no network"),
    (
        "NS_ERROR_UNKNOWN_PROXY_HOST",
        "proxy host name not resolved",
    ),
    ("NS_ERROR_PROXY_", "proxy unreachable"),
    ("SSL_ERROR_", "TLS handshake failed"),
    ("SEC_ERROR_", "TLS certificate refused"),
    ("MOZILLA_PKIX_ERROR_", "TLS certificate refused"),
];

/// What Chromium says when its SOCKS proxy, prettyplay's own, could not connect on its behalf.
const PROXY_FAILED: &str = "net::ERR_SOCKS_CONNECTION_FAILED";

/// The failure of a `page.goto` whose URL is relative while no base URL is set, before the
/// browser is asked: Chromium would only say `Cannot navigate to invalid URL`.
pub(crate) fn needs_base_url(base_url: Option<&str>, url: &str) -> Option<HostError> {
    if base_url.is_some() || url::Url::parse(url).is_ok() {
        return None;
    }
    Some(HostError {
        kind: FailureKind::Misconfigured,
        message: format!(
            "CONFIGURATION ERROR: page.goto({url:?}) needs a base URL to resolve against, and \
             none is set: set [browser] base_url in prettyplay.toml (or \
             PRETTYPLAY_BROWSER_BASE_URL, or --base-url), or give page.goto an absolute URL"
        ),
        log: Vec::new(),
        received: None,
    })
}

/// What a navigation to `target` (the URL asked for, or the page's URL for `reload`, `goBack`
/// and `goForward`) that failed with `err` says: an unreachable app when the browser names a
/// network error code, or when the navigation timed out and a direct connection to the origin
/// fails too; else `err` as it is.
pub(crate) async fn failed(err: HostError, method: &str, target: &str) -> HostError {
    // The `[browser] allowed_origins` proxy could not connect to an allowed origin: Chromium
    // says only that, so a direct connection says why, named as Chromium would have named it.
    if err.message.contains(PROXY_FAILED) {
        let url = url_in(&err.message).unwrap_or(target).to_owned();
        if let Err(Unreachable(what)) = reach(&url, CONNECT_LIMIT).await {
            let code = UNREACHABLE_CODES
                .iter()
                .find(|(code, said)| {
                    *said == what && code.starts_with("net::") && !code.ends_with('_')
                })
                .map_or(PROXY_FAILED, |(code, _)| code);
            return unreachable(format!("{url} — {what} ({code})"));
        }
        return err;
    }
    if let Some((code, what)) = unreachable_code(&err.message) {
        let url = url_in(&err.message).unwrap_or(target);
        return unreachable(format!("{url} — {what} ({code})"));
    }
    if err.kind != FailureKind::Timeout {
        return err;
    }
    match reach(target, CONNECT_LIMIT).await {
        Ok(()) => err,
        Err(Unreachable(what)) => unreachable(format!(
            "{target} — {what} ({method} timed out: {})",
            err.message.lines().next().unwrap_or_default()
        )),
    }
}

/// The value step code gets from a navigation that returned `response` (`null` without one, as
/// for `about:blank`), or the app's failure when its server answered the page's main document
/// with an HTTP 5xx.
pub(crate) fn answered(response: Option<&Response>) -> Result<Value, HostError> {
    let Some(response) = response else {
        return Ok(Value::Null);
    };
    let status = response.status();
    if !(500..600).contains(&status) {
        return Ok(json!({ "status": status, "url": response.url() }));
    }
    Err(HostError {
        kind: FailureKind::AppError,
        message: server_error(status, response.status_text(), response.url()),
        log: Vec::new(),
        received: None,
    })
}

/// The message of an HTTP 5xx main document. HTTP/2 carries no reason phrase, so the standard
/// one stands in for a missing one.
fn server_error(status: u16, status_text: &str, url: &str) -> String {
    let reason = match status_text.trim() {
        "" => reqwest::StatusCode::from_u16(status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or_default(),
        text => text,
    };
    let status = format!("{status} {reason}");
    format!(
        "the app answered HTTP {} for {url} (the page's main document)",
        status.trim_end()
    )
}

fn unreachable(what: String) -> HostError {
    HostError {
        kind: FailureKind::Unreachable,
        message: format!("APP UNREACHABLE: {what}; {UNREACHABLE_HINT}"),
        log: Vec::new(),
        received: None,
    }
}

/// The first network error code in `message` that means the app could not be reached, with
/// what it means.
fn unreachable_code(message: &str) -> Option<(&str, &'static str)> {
    static CODE: LazyLock<Option<regex::Regex>> = LazyLock::new(|| {
        regex::Regex::new(
            r"\b(?:net::ERR_[A-Z0-9_]+|NS_ERROR_[A-Z0-9_]+|SSL_ERROR_[A-Z0-9_]+|SEC_ERROR_[A-Z0-9_]+|MOZILLA_PKIX_ERROR_[A-Z0-9_]+)",
        )
        .ok()
    });
    let regex = CODE.as_ref()?;
    regex.find_iter(message).find_map(|found| {
        let code = found.as_str();
        UNREACHABLE_CODES
            .iter()
            .find(|(known, _)| match known.strip_suffix('_') {
                Some(prefix) => code.starts_with(prefix) && code.len() > known.len(),
                None => code == *known,
            })
            .map(|(_, what)| (code, *what))
    })
}

/// The URL Chromium names after the code (`net::ERR_CONNECTION_REFUSED at http://...`).
fn url_in(message: &str) -> Option<&str> {
    let (_, rest) = message.split_once(" at ")?;
    let url = rest.split_whitespace().next()?;
    url.contains("://").then_some(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(kind: FailureKind, message: &str) -> HostError {
        HostError {
            kind,
            message: message.to_owned(),
            log: Vec::new(),
            received: None,
        }
    }

    fn on_runtime<T>(work: impl Future<Output = T>) -> T {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
            .block_on(work)
    }

    #[test]
    fn chromium_codes_for_an_app_that_cannot_be_reached_are_recognised() {
        for (code, what) in [
            ("net::ERR_CONNECTION_REFUSED", "connection refused"),
            ("net::ERR_CONNECTION_RESET", "connection reset"),
            ("net::ERR_CONNECTION_CLOSED", "connection closed"),
            ("net::ERR_NAME_NOT_RESOLVED", "host name not resolved"),
            ("net::ERR_ADDRESS_UNREACHABLE", "address unreachable"),
            ("net::ERR_CONNECTION_TIMED_OUT", "connection timed out"),
            ("net::ERR_CERT_AUTHORITY_INVALID", "TLS certificate refused"),
            (
                "net::ERR_CERT_COMMON_NAME_INVALID",
                "TLS certificate refused",
            ),
            ("net::ERR_SSL_PROTOCOL_ERROR", "TLS handshake failed"),
            (
                "net::ERR_SSL_VERSION_OR_CIPHER_MISMATCH",
                "TLS handshake failed",
            ),
            (
                "net::ERR_UNSAFE_PORT",
                "the browser refuses to connect to this port",
            ),
        ] {
            let message = format!("{code} at http://127.0.0.1:1/\nCall log:\n  - navigating");
            assert_eq!(unreachable_code(&message), Some((code, what)), "{code}");
        }
    }

    #[test]
    fn firefox_codes_for_an_app_that_cannot_be_reached_are_recognised() {
        for (code, what) in [
            ("NS_ERROR_CONNECTION_REFUSED", "connection refused"),
            ("NS_ERROR_UNKNOWN_HOST", "host name not resolved"),
            ("NS_ERROR_NET_RESET", "connection reset"),
            ("NS_ERROR_NET_TIMEOUT", "connection timed out"),
            ("NS_ERROR_NET_PARTIAL_TRANSFER", "network error"),
            ("NS_ERROR_OFFLINE", "no network"),
            ("SSL_ERROR_BAD_CERT_DOMAIN", "TLS handshake failed"),
            ("SEC_ERROR_UNKNOWN_ISSUER", "TLS certificate refused"),
            (
                "MOZILLA_PKIX_ERROR_SELF_SIGNED_CERT",
                "TLS certificate refused",
            ),
        ] {
            assert_eq!(unreachable_code(code), Some((code, what)), "{code}");
        }
    }

    #[test]
    fn codes_of_an_app_that_was_reached_are_not_an_outage() {
        for message in [
            "net::ERR_ABORTED at http://127.0.0.1:3000/file.zip",
            "net::ERR_BLOCKED_BY_CLIENT at http://elsewhere.test/",
            "NS_BINDING_ABORTED",
            "NS_ERROR_FAILURE",
            "Timeout 30000ms exceeded.",
            "Cannot navigate to invalid URL",
            // A prefix alone is no code.
            "net::ERR_CERT_",
            // Inside another word, a code-like text is not a code.
            "XNS_ERROR_CONNECTION_REFUSED",
        ] {
            assert_eq!(unreachable_code(message), None, "{message}");
        }
    }

    #[test]
    fn a_refused_navigation_names_the_url_what_failed_the_code_and_the_hint() {
        let err = error(
            FailureKind::Script,
            "net::ERR_CONNECTION_REFUSED at http://127.0.0.1:9/todos\nCall log:\n  - navigating",
        );
        let said = on_runtime(failed(err, "page.goto", "http://127.0.0.1:9/todos"));
        assert_eq!(said.kind, FailureKind::Unreachable);
        assert_eq!(
            said.message,
            "APP UNREACHABLE: http://127.0.0.1:9/todos — connection refused \
             (net::ERR_CONNECTION_REFUSED); is the app running? start it with [web_server] or \
             check [browser] base_url"
        );
        // Without a URL in the message, the URL asked for is named.
        let said = on_runtime(failed(
            error(FailureKind::Script, "NS_ERROR_UNKNOWN_HOST"),
            "page.reload",
            "http://app.test/",
        ));
        assert!(
            said.message
                .starts_with("APP UNREACHABLE: http://app.test/ — host name not resolved"),
            "{}",
            said.message
        );
    }

    #[test]
    fn a_timeout_is_an_outage_only_when_a_direct_connection_fails_too() {
        let free = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let down = format!("http://{}/", free.local_addr().expect("addr"));
        drop(free);
        let timeout = || error(FailureKind::Timeout, "Timeout 30000ms exceeded.");
        let said = on_runtime(failed(timeout(), "page.goto", &down));
        assert_eq!(said.kind, FailureKind::Unreachable);
        assert_eq!(
            said.message,
            format!(
                "APP UNREACHABLE: {down} — connection refused (page.goto timed out: Timeout \
                 30000ms exceeded.); {UNREACHABLE_HINT}"
            )
        );
        // A server that accepts connections and is slow is not down: the timeout stands.
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let slow = format!("http://{}/", listener.local_addr().expect("addr"));
        assert_eq!(on_runtime(failed(timeout(), "page.goto", &slow)), timeout());
        // Other failures are left alone, whatever the origin.
        let check = error(FailureKind::Script, "something else");
        assert_eq!(on_runtime(failed(check.clone(), "page.goto", &down)), check);
    }

    #[test]
    fn a_relative_url_without_a_base_url_is_a_configuration_error() {
        let failure = needs_base_url(None, "/todos").expect("relative");
        assert_eq!(failure.kind, FailureKind::Misconfigured);
        assert!(
            failure.message.starts_with(
                "CONFIGURATION ERROR: page.goto(\"/todos\") needs a base URL to resolve against, \
                 and none is set: set [browser] base_url in prettyplay.toml (or \
                 PRETTYPLAY_BROWSER_BASE_URL, or --base-url)"
            ),
            "{}",
            failure.message
        );
        assert!(needs_base_url(None, "todos").is_some());
        assert!(needs_base_url(None, "").is_some());
        assert!(needs_base_url(Some("http://127.0.0.1:3000/"), "/todos").is_none());
        assert!(needs_base_url(None, "http://127.0.0.1:3000/todos").is_none());
        assert!(needs_base_url(None, "about:blank").is_none());
    }

    #[test]
    fn a_server_error_names_the_status_its_reason_and_the_url() {
        assert_eq!(
            server_error(500, "Internal Server Error", "http://127.0.0.1:3000/"),
            "the app answered HTTP 500 Internal Server Error for http://127.0.0.1:3000/ (the \
             page's main document)"
        );
        // HTTP/2 has no reason phrase: the standard one is said.
        assert_eq!(
            server_error(503, "", "https://app.test/"),
            "the app answered HTTP 503 Service Unavailable for https://app.test/ (the page's \
             main document)"
        );
        assert_eq!(
            server_error(599, "", "http://a/"),
            "the app answered HTTP 599 for http://a/ (the page's main document)"
        );
    }
}
