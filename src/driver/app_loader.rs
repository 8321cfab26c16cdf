//! Fetches the read-only subresources that the app's own pages load from other origins (a web
//! font, jQuery from a CDN) for the origin guard, which hands them to the page.
//!
//! Main type: [`AppLoader`]. prettyplay fetches them itself instead of letting the browser
//! connect: the outbound proxy keeps refusing every connection to an origin that
//! `[browser] allowed_origins` does not list, so a redirect hop or a service worker cannot
//! follow the app's fonts to their host, and exactly the URL the guard judged is fetched. The
//! request carries the browser's `Accept`, `Accept-Language`, `User-Agent`, `Origin` and
//! `Range`, never its cookies or `Referer`; redirects are followed up to five hops.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use playwright_rs::protocol::FulfillOptions;
use rustls_platform_verifier::BuilderVerifierExt;

/// How long one subresource may take to arrive.
const LOAD_LIMIT: Duration = Duration::from_secs(30);

/// The largest subresource handed to a page.
const MAX_BODY_BYTES: usize = 32 << 20;

/// The request headers passed on from the browser's request.
const PASSED_ON: &[&str] = &["accept", "accept-language", "user-agent", "origin", "range"];

/// The response headers that are the transfer's own, which the page's response must not carry:
/// the body is handed over whole.
const NOT_PASSED_BACK: &[&str] = &[
    "content-length",
    "transfer-encoding",
    "connection",
    "keep-alive",
    "set-cookie",
];

/// Why a subresource could not be loaded.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LoadError {
    #[error("no HTTP client: {0}")]
    Client(String),
    #[error("{0}")]
    Fetch(#[source] reqwest::Error),
    #[error("its body is larger than {} MiB", MAX_BODY_BYTES >> 20)]
    TooLarge,
}

/// The HTTP clients that fetch subresources for the pages of a worker's tests, made when the
/// first one is needed.
#[derive(Default)]
pub(crate) struct AppLoader {
    clients: OnceLock<Result<Clients, String>>,
}

struct Clients {
    /// Through the system's proxy settings, as the user's browser would go.
    proxied: reqwest::Client,
    /// Straight, for loopback hosts, which no system proxy serves.
    direct: reqwest::Client,
}

impl AppLoader {
    pub(crate) fn shared() -> Arc<AppLoader> {
        Arc::new(AppLoader::default())
    }

    /// Fetches `url` with the browser's `headers`, as options to fulfill the page's request.
    pub(crate) async fn load(
        &self,
        url: &url::Url,
        headers: &HashMap<String, String>,
    ) -> Result<FulfillOptions, LoadError> {
        let clients = self
            .clients
            .get_or_init(build_clients)
            .as_ref()
            .map_err(|e| LoadError::Client(e.clone()))?;
        let client = if is_loopback(url) {
            &clients.direct
        } else {
            &clients.proxied
        };
        let mut request = client.get(url.clone()).timeout(LOAD_LIMIT);
        for (name, value) in headers {
            if PASSED_ON.contains(&name.to_ascii_lowercase().as_str()) {
                request = request.header(name.as_str(), value.as_str());
            }
        }
        let mut response = request.send().await.map_err(LoadError::Fetch)?;
        let status = response.status().as_u16();
        let passed_back: HashMap<String, String> = response
            .headers()
            .iter()
            .filter(|(name, _)| !NOT_PASSED_BACK.contains(&name.as_str()))
            .filter_map(|(name, value)| Some((name.to_string(), value.to_str().ok()?.to_owned())))
            .collect();
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(LoadError::Fetch)? {
            if body.len() + chunk.len() > MAX_BODY_BYTES {
                return Err(LoadError::TooLarge);
            }
            body.extend_from_slice(&chunk);
        }
        Ok(FulfillOptions::builder()
            .status(status)
            .headers(passed_back)
            .body(body)
            .build())
    }
}

fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

fn build_clients() -> Result<Clients, String> {
    let build = |direct: bool| {
        let crypto = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ClientConfig::builder_with_provider(crypto)
            .with_safe_default_protocol_versions()
            .and_then(|builder| builder.with_platform_verifier())
            .map_err(|e| format!("cannot set up TLS: {e}"))?
            .with_no_client_auth();
        let builder = reqwest::Client::builder()
            .tls_backend_preconfigured(tls)
            .redirect(reqwest::redirect::Policy::limited(5));
        let builder = if direct { builder.no_proxy() } else { builder };
        builder.build().map_err(|e| e.to_string())
    };
    Ok(Clients {
        proxied: build(false)?,
        direct: build(true)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::io::{BufRead, BufReader, Write};

    #[test]
    fn loopback_hosts_go_straight() {
        for url in [
            "http://127.0.0.1:4000/",
            "http://[::1]:4000/",
            "http://localhost/",
        ] {
            assert!(is_loopback(&url::Url::parse(url).unwrap()), "{url}");
        }
        assert!(!is_loopback(
            &url::Url::parse("https://cdn.example.com/").unwrap()
        ));
    }

    #[tokio::test]
    async fn a_subresource_comes_with_its_headers_and_without_cookies() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = url::Url::parse(&format!(
            "http://{}/font.woff2",
            listener.local_addr().unwrap()
        ))
        .unwrap();
        let server = std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut head = Vec::new();
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if line.trim_end().is_empty() {
                    break;
                }
                head.push(line.trim_end().to_ascii_lowercase());
            }
            let mut stream = stream;
            write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: font/woff2\r\nAccess-Control-Allow-Origin: *\r\n\
                 Set-Cookie: a=b\r\nContent-Length: 4\r\nConnection: close\r\n\r\nwOF2"
            )
            .unwrap();
            head
        });
        let headers = HashMap::from([
            ("Origin".to_owned(), "http://127.0.0.1:9".to_owned()),
            ("Cookie".to_owned(), "session=1".to_owned()),
            ("Referer".to_owned(), "http://127.0.0.1:9/?q=1".to_owned()),
        ]);
        let loaded = AppLoader::default().load(&url, &headers).await.unwrap();
        assert_eq!(loaded.status, Some(200));
        assert_eq!(loaded.body.as_deref(), Some(&b"wOF2"[..]));
        let passed = loaded.headers.unwrap();
        assert_eq!(
            passed
                .get("access-control-allow-origin")
                .map(String::as_str),
            Some("*")
        );
        assert!(!passed.contains_key("set-cookie") && !passed.contains_key("content-length"));
        let sent = server.join().unwrap();
        assert!(
            sent.contains(&"origin: http://127.0.0.1:9".to_owned()),
            "{sent:?}"
        );
        assert!(
            !sent
                .iter()
                .any(|h| h.starts_with("cookie") || h.starts_with("referer"))
        );
    }
}
