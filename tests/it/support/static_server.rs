//! A tiny static file server on `std` only: the demo app's server (`examples/demo_server.rs`)
//! and the pages of the end-to-end tests.
//!
//! Main function: [`serve`]. GET and HEAD only, one thread per connection, `Connection: close`,
//! `index.html` for a directory, 404 for anything missing, path traversal refused.
//!
//! Some paths are not files. `/__count/NAME` answers a page saying `NAME N`, where N
//! counts the requests for that NAME to this server, from 1: a test's step can then behave
//! differently on its first and its second attempt without depending on time (the retries
//! tests). `/__cookies` echoes the request's cookies and sets one on request. `/api/...` is the
//! demo tasks app's JSON API (`todo_api.rs`), whose todos live as long
//! as the server.

use std::collections::HashMap;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

#[path = "todo_api.rs"]
mod todo_api;

/// The most bytes of a request body the server reads.
const MAX_BODY: usize = 1024 * 1024;

/// Serves the files under `dir` on `listener` until the process ends.
pub(crate) fn serve(dir: PathBuf, listener: TcpListener) {
    let dir = Arc::new(dir);
    let counts = Arc::new(Mutex::new(HashMap::new()));
    let todos = Arc::new(Mutex::new(todo_api::Todos::default()));
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let (dir, counts, todos) = (Arc::clone(&dir), Arc::clone(&counts), Arc::clone(&todos));
        thread::spawn(move || {
            // A client that hangs up mid-request is its own problem, not the server's.
            let _ = handle(&dir, &counts, &todos, stream);
        });
    }
}

/// Requests so far per `/__count/NAME`.
type Counts = Mutex<HashMap<String, u32>>;

fn handle(
    dir: &Path,
    counts: &Counts,
    todos: &Mutex<todo_api::Todos>,
    mut stream: TcpStream,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // Of the headers, only the body's length and the cookies matter.
    let mut length = 0;
    let mut cookie = String::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim_end().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("cookie")
        {
            cookie = value.trim().to_owned();
        }
    }

    let mut parts = request_line.split_whitespace();
    let (Some(method), Some(target)) = (parts.next(), parts.next()) else {
        return respond(
            &mut stream,
            "400 Bad Request",
            "text/plain; charset=utf-8",
            b"bad request\n",
            true,
        );
    };
    let head = method == "HEAD";
    let path = target.split(['?', '#']).next().unwrap_or_default();
    if path == "/api" || path.starts_with("/api/") {
        let mut body = vec![0; length.min(MAX_BODY)];
        reader.read_exact(&mut body)?;
        let (status, json) = todo_api::answer(todos, method, path, &body);
        let body = json.map(|j| j.to_string()).unwrap_or_default();
        return respond(
            &mut stream,
            status,
            "application/json",
            body.as_bytes(),
            !head,
        );
    }
    if path == "/__cookies" {
        return cookies(&mut stream, target, &cookie);
    }
    if method != "GET" && !head {
        return respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain; charset=utf-8",
            b"method not allowed\n",
            true,
        );
    }

    if let Some(name) = target.strip_prefix("/__count/") {
        let count = counts.lock().map_or(0, |mut counts| {
            let count = counts.entry(name.to_owned()).or_insert(0);
            *count += 1;
            *count
        });
        let name: String = name.chars().filter(char::is_ascii_alphanumeric).collect();
        let body = format!("<!doctype html><title>{name}</title><p>{name} {count}</p>\n");
        return respond(
            &mut stream,
            "200 OK",
            "text/html; charset=utf-8",
            body.as_bytes(),
            !head,
        );
    }
    match resolve(dir, target) {
        // A `*.302` file is a redirect to the URL it holds.
        Some(path) if path.extension().is_some_and(|e| e == "302") => {
            let location = fs::read_to_string(&path)?;
            let head = format!(
                "HTTP/1.1 302 Found\r\nLocation: {}\r\nContent-Length: 0\r\n\
                 Cache-Control: no-store\r\nConnection: close\r\n\r\n",
                location.trim()
            );
            stream.write_all(head.as_bytes())?;
            stream.flush()
        }
        Some(path) => match fs::read(&path) {
            Ok(body) => respond(&mut stream, "200 OK", content_type(&path), &body, !head),
            Err(_) => not_found(&mut stream, !head),
        },
        None => not_found(&mut stream, !head),
    }
}

/// `/__cookies` answers the cookies the request carried as JSON (`{"cookie": "a=1; b=2"}`);
/// `/__cookies?set=NAME=VALUE` also sets that cookie for the whole site.
fn cookies(stream: &mut TcpStream, target: &str, cookie: &str) -> std::io::Result<()> {
    let set = target
        .split_once("?set=")
        .map(|(_, pair)| pair.split('&').next().unwrap_or_default())
        .filter(|pair| {
            pair.contains('=')
                && pair
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'=' || b == b'_')
        });
    let body = serde_json::json!({ "cookie": cookie }).to_string();
    let set_cookie = set.map_or(String::new(), |pair| {
        format!("Set-Cookie: {pair}; Path=/\r\n")
    });
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{set_cookie}Content-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body.as_bytes())?;
    stream.flush()
}

/// Maps a request target to a file under `dir`, or `None` for a missing file or a path that
/// would leave `dir`.
fn resolve(dir: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    let decoded = percent_decode(path)?;
    let mut resolved = dir.to_path_buf();
    for component in Path::new(decoded.trim_start_matches('/')).components() {
        match component {
            Component::Normal(part) => resolved.push(part),
            Component::CurDir => {}
            // `..`, a root or a prefix: refuse rather than normalise.
            _ => return None,
        }
    }
    if resolved.is_dir() {
        resolved.push("index.html");
    }
    resolved.is_file().then_some(resolved)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    let decoded = String::from_utf8(out).ok()?;
    // A NUL or a backslash has no business in a URL path served from disk.
    (!decoded.contains(['\0', '\\'])).then_some(decoded)
}

fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
    {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn not_found(stream: &mut TcpStream, with_body: bool) -> std::io::Result<()> {
    respond(
        stream,
        "404 Not Found",
        "text/plain; charset=utf-8",
        b"not found\n",
        with_body,
    )
}

fn respond(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
    with_body: bool,
) -> std::io::Result<()> {
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if with_body {
        stream.write_all(body)?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_refuses_traversal_and_serves_index() {
        let dir = tempfile::tempdir().expect("tempdir");
        fs::write(dir.path().join("index.html"), "<h1>hi</h1>").expect("write");
        fs::write(dir.path().join("a b.css"), "").expect("write");
        let root = dir.path();
        assert_eq!(resolve(root, "/"), Some(root.join("index.html")));
        assert_eq!(resolve(root, "/?x=1#frag"), Some(root.join("index.html")));
        assert_eq!(resolve(root, "/a%20b.css"), Some(root.join("a b.css")));
        assert_eq!(resolve(root, "/../etc/passwd"), None);
        assert_eq!(resolve(root, "/%2e%2e/etc/passwd"), None);
        assert_eq!(resolve(root, "/..%5cetc"), None);
        assert_eq!(resolve(root, "/missing.html"), None);
    }
}
