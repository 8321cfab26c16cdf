//! Whether the app's server can be reached at all: a TCP connection to a URL's origin, made from
//! Rust and not through the browser. It tells an app that is down (nothing listens, the host
//! name does not resolve, the address is unreachable) from one that is slow or broken, which
//! the browser judges.
//!
//! Main function: [`reach`], used before the first test to probe `[browser] base_url`, and
//! after a navigation timed out to tell whether the app is there at all. Only the connection is
//! made: TLS and HTTP are the browser's to judge, so a server that answers anything, a 4xx or a
//! 5xx included, or that presents a certificate the probe could not check, counts as reachable.

use std::io;
use std::time::Duration;

/// How long a probe waits for the connection: long enough for a server on another machine,
/// short enough that an app that is down is reported in seconds.
pub(crate) const CONNECT_LIMIT: Duration = Duration::from_secs(3);

/// What a user whose app cannot be reached should check, said wherever that is reported.
pub(crate) const UNREACHABLE_HINT: &str =
    "is the app running? start it with [web_server] or check [browser] base_url";

/// Why a URL's origin could not be reached: a lowercase fragment such as `connection refused`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unreachable(pub String);

/// Connects to the origin of `url` (its host and port, the scheme's default port when none is
/// written) within `limit`, trying each address the host name resolves to, as a browser does.
/// A URL without a host (`file:`, `data:`, `about:`) has no server to reach and passes.
pub(crate) async fn reach(url: &str, limit: Duration) -> Result<(), Unreachable> {
    let Ok(parsed) = url::Url::parse(url) else {
        return Err(Unreachable(format!("{url:?} is not a URL")));
    };
    let (Some(host), Some(port)) = (parsed.host_str(), parsed.port_or_known_default()) else {
        return Ok(());
    };
    // The url crate writes an IPv6 host in brackets, as `host:port` needs it.
    let address = format!("{host}:{port}");
    match tokio::time::timeout(limit, tokio::net::TcpStream::connect(&address)).await {
        Ok(Ok(_stream)) => Ok(()),
        Ok(Err(err)) => Err(Unreachable(what_failed(&err, host))),
        Err(_) => Err(Unreachable(format!(
            "no connection to {address} within {} s",
            limit.as_secs_f64()
        ))),
    }
}

/// The fragment that says why a connection to `host` failed.
fn what_failed(err: &io::Error, host: &str) -> String {
    match err.kind() {
        io::ErrorKind::ConnectionRefused => "connection refused".to_owned(),
        io::ErrorKind::ConnectionReset => "connection reset".to_owned(),
        io::ErrorKind::HostUnreachable | io::ErrorKind::NetworkUnreachable => {
            "address unreachable".to_owned()
        }
        io::ErrorKind::TimedOut => "connection timed out".to_owned(),
        // Tokio reports a failed lookup as an error of kind `Other` or `Uncategorized` whose
        // text comes from the resolver, which names no host.
        _ if err.raw_os_error().is_none() => format!("host name {host:?} not resolved ({err})"),
        _ => err.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
    }

    #[test]
    fn a_port_nobody_listens_on_refuses_and_a_listening_one_connects() {
        let runtime = runtime();
        let free = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = free.local_addr().expect("addr").port();
        drop(free);
        let refused = runtime.block_on(reach(&format!("http://127.0.0.1:{port}/"), CONNECT_LIMIT));
        assert_eq!(refused, Err(Unreachable("connection refused".to_owned())));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let url = format!("http://{}/app/", listener.local_addr().expect("addr"));
        assert_eq!(runtime.block_on(reach(&url, CONNECT_LIMIT)), Ok(()));
    }

    #[test]
    fn each_way_a_connection_fails_is_said_in_a_few_words() {
        let said = |err: io::Error| what_failed(&err, "app.test");
        assert_eq!(
            said(io::ErrorKind::ConnectionRefused.into()),
            "connection refused"
        );
        assert_eq!(
            said(io::ErrorKind::HostUnreachable.into()),
            "address unreachable"
        );
        assert_eq!(said(io::ErrorKind::TimedOut.into()), "connection timed out");
        // What the resolver says when a name does not resolve: no OS error number.
        assert_eq!(
            said(io::Error::other(
                "failed to lookup address information: Name or service not known"
            )),
            "host name \"app.test\" not resolved (failed to lookup address information: Name \
             or service not known)"
        );
        assert_eq!(
            said(io::Error::from_raw_os_error(libc::EACCES)),
            io::Error::from_raw_os_error(libc::EACCES).to_string()
        );
    }

    #[test]
    fn urls_without_a_server_pass_and_nonsense_is_named() {
        let runtime = runtime();
        for url in [
            "about:blank",
            "data:text/html,<p>x</p>",
            "file:///tmp/x.html",
        ] {
            assert_eq!(runtime.block_on(reach(url, CONNECT_LIMIT)), Ok(()), "{url}");
        }
        assert_eq!(
            runtime.block_on(reach("/todos", CONNECT_LIMIT)),
            Err(Unreachable("\"/todos\" is not a URL".to_owned()))
        );
    }
}
