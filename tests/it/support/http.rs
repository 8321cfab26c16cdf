//! A raw HTTP/1.1 client on `std` for servers on 127.0.0.1: the request target is sent exactly
//! as given (`/../x` stays `/../x`, which clients such as curl would normalise away).
//!
//! Main function: [`request`], answering a [`Reply`].

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A server's answer.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Reply {
    /// The value of the header `name` (case-insensitive).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends `METHOD target` to the server at `base` (`http://127.0.0.1:PORT`, a path after it is
/// ignored) with `Connection: close` and reads the whole answer.
pub(crate) fn request(base: &str, method: &str, target: &str) -> Reply {
    let authority = base
        .strip_prefix("http://")
        .unwrap_or_else(|| panic!("not an http:// URL: {base}"))
        .split('/')
        .next()
        .unwrap_or_default();
    let mut stream =
        TcpStream::connect(authority).unwrap_or_else(|e| panic!("connect to {authority}: {e}"));
    // A bound, not a measure: a server that hangs fails the test instead of blocking it.
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("set a read timeout");
    write!(
        stream,
        "{method} {target} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n"
    )
    .unwrap_or_else(|e| panic!("send {method} {target}: {e}"));
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .unwrap_or_else(|e| panic!("read the answer to {method} {target}: {e}"));
    let end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| {
            panic!(
                "no complete head in the answer to {method} {target}: {:?}",
                String::from_utf8_lossy(&answer)
            )
        });
    let head = String::from_utf8_lossy(&answer[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .unwrap_or_else(|| panic!("no status in the answer to {method} {target}: {head}"));
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let mut reply = Reply {
        status,
        headers,
        body: answer[end + 4..].to_vec(),
    };
    if let Some(len) = reply.header("Content-Length").and_then(|l| l.parse().ok()) {
        reply.body.truncate(len);
    }
    reply
}
