//! [`Probe`]: whether a web server's URL answers, as Playwright Test decides it: an HTTP GET
//! whose status is 2xx, 3xx or 400-403 (redirects are not followed). A refused connection, a
//! timeout or any other status is "not yet". Never through a proxy.

use std::sync::Arc;
use std::time::Duration;

use rustls_platform_verifier::BuilderVerifierExt;
use tokio::runtime::Handle;

use super::WebServerError;

/// The HTTP client of the readiness checks.
pub(crate) struct Probe {
    client: reqwest::Client,
}

impl Probe {
    /// A probe whose requests run on `handle`'s runtime.
    pub(crate) fn new(handle: &Handle) -> Result<Self, WebServerError> {
        let crypto = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ClientConfig::builder_with_provider(crypto)
            .with_safe_default_protocol_versions()
            .and_then(|builder| builder.with_platform_verifier())
            .map_err(|e| WebServerError::Client(e.to_string()))?
            .with_no_client_auth();
        let _context = handle.enter();
        let client = reqwest::Client::builder()
            .user_agent(concat!("prettyplay/", env!("CARGO_PKG_VERSION")))
            .tls_backend_preconfigured(tls)
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| WebServerError::Client(e.to_string()))?;
        Ok(Probe { client })
    }

    /// Whether `url` answers as a ready server does, within `limit`.
    pub(crate) async fn answers(&self, url: &str, limit: Duration) -> bool {
        match self.client.get(url).timeout(limit).send().await {
            Ok(response) => is_ready_status(response.status().as_u16()),
            Err(err) => {
                tracing::trace!("{url} does not answer yet: {err}");
                false
            }
        }
    }
}

/// Playwright's rule: 2xx, 3xx, and 400, 401, 402, 403 (a server that wants a login is up).
fn is_ready_status(status: u16) -> bool {
    (200..404).contains(&status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_statuses_are_playwrights() {
        for status in [200, 204, 301, 302, 304, 400, 401, 403] {
            assert!(is_ready_status(status), "{status}");
        }
        for status in [100, 199, 404, 500, 502, 503] {
            assert!(!is_ready_status(status), "{status}");
        }
    }

    #[test]
    fn a_refused_connection_is_not_ready_and_an_answer_is() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let probe = Probe::new(runtime.handle()).expect("probe");
        // A port just freed: nothing listens there.
        let free = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = free.local_addr().expect("addr").port();
        drop(free);
        let limit = Duration::from_secs(5);
        let url = format!("http://127.0.0.1:{port}/");
        assert!(!runtime.block_on(probe.answers(&url, limit)));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}/", listener.local_addr().expect("addr"));
        let server = std::thread::spawn(move || {
            use std::io::{Read, Write};
            for status in ["404 Not Found", "401 Unauthorized"] {
                let (mut stream, _) = listener.accept().expect("accept");
                let mut request = [0u8; 1024];
                let _ = stream.read(&mut request);
                let reply =
                    format!("HTTP/1.1 {status}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
                stream.write_all(reply.as_bytes()).expect("reply");
            }
        });
        assert!(
            !runtime.block_on(probe.answers(&url, limit)),
            "404 is not ready"
        );
        assert!(runtime.block_on(probe.answers(&url, limit)), "401 is ready");
        server.join().expect("server");
    }
}
