//! `prettyplay show-report`'s web server: the files of one report directory over HTTP/1.1, GET
//! and HEAD only, on tokio, one response per connection (`Connection: close`).
//!
//! Main type: [`ReportServer`]. Only files under the directory are served: a request path is
//! percent-decoded segment by segment, a `..` segment or a segment that decodes to a `/` or a NUL
//! is refused (403) before the file system is asked, and the file found is resolved with its
//! symbolic links and refused (403) unless it is still under the directory. A directory answers
//! its `index.html` (a redirect adds the missing `/` first, so relative links work; its
//! `Location` is built from the normalised path, so `//traces` cannot become the
//! protocol-relative `//traces/`, a redirect to another host); anything else missing, or that is
//! not a regular file, is 404. Bound to a loopback address, the server also refuses requests
//! that name another host (DNS rebinding: a web page whose own host name resolves to 127.0.0.1
//! must not read the report). A client that stops reading a response for [`WRITE_TIMEOUT`] is
//! dropped, so that an unread download does not hold a connection and its file forever.

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::net::SocketAddr;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};

use super::content_type::content_type;
use super::serve_error::ServeError;

/// The longest request head read (request line and headers).
const MAX_HEAD: usize = 16 * 1024;
/// How long a client has to send its request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a write of a response may wait for the client to read: a stall this long, not a
/// slow download, drops the connection.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// The size of the pieces a file is sent in, each under [`WRITE_TIMEOUT`].
const CHUNK: usize = 64 * 1024;

/// A report directory, listened for on a host and port.
pub(crate) struct ReportServer {
    listener: TcpListener,
    local: SocketAddr,
    root: Arc<PathBuf>,
    loopback_only: bool,
}

impl ReportServer {
    /// Checks that `dir` holds a report (an `index.html`) and listens on `host:port` (port 0: a
    /// free one). Call it inside a tokio runtime with I/O enabled.
    pub(crate) async fn bind(dir: &Path, host: &str, port: u16) -> Result<Self, ServeError> {
        let root = report_root(dir)?;
        let address = if host.contains(':') && !host.starts_with('[') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        };
        let listener = TcpListener::bind(&address)
            .await
            .map_err(|source| ServeError::Bind {
                address: address.clone(),
                source,
            })?;
        let local = listener
            .local_addr()
            .map_err(|source| ServeError::Bind { address, source })?;
        Ok(Self {
            listener,
            local,
            root: Arc::new(root),
            loopback_only: local.ip().is_loopback(),
        })
    }

    /// The address listened on.
    #[cfg(test)]
    pub(crate) fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// The report's URL: `http://127.0.0.1:PORT/`.
    pub(crate) fn url(&self) -> String {
        format!("http://{}/", self.local)
    }

    /// Serves requests until the process ends; each connection is a task of its own.
    pub(crate) async fn run(self) {
        loop {
            match self.listener.accept().await {
                Ok((stream, peer)) => {
                    let root = Arc::clone(&self.root);
                    let loopback_only = self.loopback_only;
                    tokio::spawn(async move {
                        if let Err(err) = connection(stream, root, loopback_only).await {
                            tracing::debug!(%peer, "report request failed: {err}");
                        }
                    });
                }
                // Out of file descriptors, or a connection reset before it was accepted: the
                // next one may do.
                Err(err) => {
                    tracing::warn!("show-report: cannot accept a connection: {err}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        }
    }
}

/// `dir`, resolved, once it is known to be a directory with an `index.html`.
fn report_root(dir: &Path) -> Result<PathBuf, ServeError> {
    let meta = match fs::metadata(dir) {
        Ok(meta) => meta,
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            return Err(ServeError::NoDirectory {
                dir: dir.to_owned(),
            });
        }
        Err(source) => {
            return Err(ServeError::Read {
                dir: dir.to_owned(),
                source,
            });
        }
    };
    if !meta.is_dir() {
        return Err(ServeError::NotADirectory {
            dir: dir.to_owned(),
        });
    }
    if !dir.join("index.html").is_file() {
        return Err(ServeError::NoIndex {
            dir: dir.to_owned(),
        });
    }
    fs::canonicalize(dir).map_err(|source| ServeError::Read {
        dir: dir.to_owned(),
        source,
    })
}

/// One connection: read the request head, answer it, close.
async fn connection(
    mut stream: TcpStream,
    root: Arc<PathBuf>,
    loopback_only: bool,
) -> io::Result<()> {
    let head = match tokio::time::timeout(HEAD_TIMEOUT, read_head(&mut stream)).await {
        Ok(head) => head?,
        Err(_) => return Ok(()),
    };
    let response = match head {
        Some(head) => tokio::task::spawn_blocking(move || route(&root, loopback_only, &head))
            .await
            .map_err(io::Error::other)?,
        None => Response::error(431, "Request Header Fields Too Large"),
    };
    response.write(&mut stream).await?;
    stream.shutdown().await
}

/// The request head, up to its blank line; `None` when it is longer than [`MAX_HEAD`].
async fn read_head(stream: &mut TcpStream) -> io::Result<Option<String>> {
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 2048];
    loop {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            // The client closed before a blank line: answer what there is.
            break;
        }
        head.extend_from_slice(&buf[..n]);
        if let Some(end) = find(&head, b"\r\n\r\n").or_else(|| find(&head, b"\n\n")) {
            head.truncate(end);
            break;
        }
        if head.len() > MAX_HEAD {
            return Ok(None);
        }
    }
    Ok(Some(String::from_utf8_lossy(&head).into_owned()))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// An answer: its status, headers and body.
#[derive(Debug)]
struct Response {
    status: u16,
    reason: &'static str,
    headers: Vec<(&'static str, String)>,
    body: Body,
    /// HEAD: the headers only.
    head_only: bool,
}

#[derive(Debug, PartialEq, Eq)]
enum Body {
    Text(String),
    /// A file under the report's directory, resolved.
    File(PathBuf),
}

impl Response {
    fn error(status: u16, reason: &'static str) -> Self {
        Self {
            status,
            reason,
            headers: vec![("Content-Type", "text/plain; charset=utf-8".to_owned())],
            body: Body::Text(format!("{status} {}\n", reason.to_ascii_lowercase())),
            head_only: false,
        }
    }

    fn redirect(location: String) -> Self {
        let mut response = Self::error(301, "Moved Permanently");
        response.headers.push(("Location", location));
        response
    }

    fn file(path: PathBuf) -> Self {
        Self {
            status: 200,
            reason: "OK",
            headers: vec![("Content-Type", content_type(&path).to_owned())],
            body: Body::File(path),
            head_only: false,
        }
    }

    async fn write(mut self, stream: &mut TcpStream) -> io::Result<()> {
        let opened = match &self.body {
            Body::File(path) => Some(open(path).await),
            Body::Text(_) => None,
        };
        let file = match opened {
            Some(Ok(file)) => Some(file),
            // Gone, or replaced by something else, since it was looked at.
            Some(Err(err)) => {
                tracing::debug!("show-report: cannot open {:?}: {err}", self.body);
                self = Response {
                    head_only: self.head_only,
                    ..Response::error(404, "Not Found")
                };
                None
            }
            None => None,
        };
        let len = match (&file, &self.body) {
            (Some((_, len)), _) => *len,
            (None, Body::Text(text)) => text.len() as u64,
            (None, Body::File(_)) => 0,
        };
        let mut head = format!("HTTP/1.1 {} {}\r\n", self.status, self.reason);
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!(
            "Content-Length: {len}\r\nCache-Control: no-cache\r\n\
             X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
        ));
        send(stream, head.as_bytes()).await?;
        if self.head_only {
            return Ok(());
        }
        match (file, &self.body) {
            (Some((file, len)), _) => {
                let mut file = file.take(len);
                let mut chunk = vec![0; CHUNK];
                loop {
                    let n = file.read(&mut chunk).await?;
                    if n == 0 {
                        break;
                    }
                    send(stream, &chunk[..n]).await?;
                }
            }
            (None, Body::Text(text)) => send(stream, text.as_bytes()).await?,
            (None, Body::File(_)) => {}
        }
        Ok(())
    }
}

/// Writes `bytes` to the client, or fails when it reads none of them for [`WRITE_TIMEOUT`].
async fn send(stream: &mut TcpStream, bytes: &[u8]) -> io::Result<()> {
    tokio::time::timeout(WRITE_TIMEOUT, stream.write_all(bytes))
        .await
        .map_err(|_| {
            io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client read nothing for {WRITE_TIMEOUT:?}"),
            )
        })?
}

/// A regular file, opened, and its length.
async fn open(path: &Path) -> io::Result<(tokio::fs::File, u64)> {
    let file = tokio::fs::File::open(path).await?;
    let meta = file.metadata().await?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok((file, meta.len()))
}

/// The answer to a request `head` for the report under `root` (resolved). Blocking: it looks
/// at the file system.
fn route(root: &Path, loopback_only: bool, head: &str) -> Response {
    let mut lines = head.lines();
    let request_line = lines.next().unwrap_or_default();
    let mut parts = request_line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Response::error(400, "Bad Request");
    };
    if !version.starts_with("HTTP/1.") {
        return Response::error(505, "HTTP Version Not Supported");
    }
    let head_only = match method {
        "GET" => false,
        "HEAD" => true,
        _ => {
            let mut response = Response::error(405, "Method Not Allowed");
            response.headers.push(("Allow", "GET, HEAD".to_owned()));
            return response;
        }
    };
    let host = lines
        .filter_map(|line| line.split_once(':'))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("host"))
        .map(|(_, value)| value.trim());
    let response = if loopback_only && host.is_some_and(|host| !is_loopback_host(host)) {
        Response::error(403, "Forbidden")
    } else {
        resolve(root, target)
    };
    Response {
        head_only,
        ..response
    }
}

/// Whether a `Host` header names this machine's loopback interface: `localhost` (or a name
/// under it), `127.x.x.x` or `[::1]`, with or without a port.
fn is_loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or_default(),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost"
        || name.ends_with(".localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The file a request target names under `root`, or why not.
fn resolve(root: &Path, target: &str) -> Response {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    if !path.starts_with('/') {
        return Response::error(400, "Bad Request");
    }
    let mut relative = PathBuf::new();
    // The segments as they are served, percent-encoded again, for a redirect's `Location`.
    let mut normalised = Vec::new();
    for raw in path.split('/') {
        let Some(segment) = percent_decode(raw) else {
            return Response::error(400, "Bad Request");
        };
        match segment.as_slice() {
            b"" | b"." => {}
            b".." => return Response::error(403, "Forbidden"),
            s if s.contains(&b'/') || s.contains(&0) => {
                return Response::error(403, "Forbidden");
            }
            s => {
                relative.push(OsStr::from_bytes(s));
                normalised.push(percent_encode(s));
            }
        }
    }
    let Some(found) = inside(root, &root.join(&relative)) else {
        return Response::error(403, "Forbidden");
    };
    let Ok(found) = found else {
        return Response::error(404, "Not Found");
    };
    let Ok(meta) = fs::metadata(&found) else {
        return Response::error(404, "Not Found");
    };
    if meta.is_dir() {
        if !path.ends_with('/') {
            // Relative links in the directory's index.html resolve against the URL.
            // The location is rebuilt from the normalised segments: the path as sent may start
            // with `//` or `/\`, which a browser reads as another host.
            let query = target.find('?').map_or("", |at| &target[at..]);
            let location = match normalised.as_slice() {
                [] => "/".to_owned(),
                segments => format!("/{}/", segments.join("/")),
            };
            return Response::redirect(format!("{location}{query}"));
        }
        return match inside(root, &found.join("index.html")) {
            None => Response::error(403, "Forbidden"),
            Some(Ok(index)) if index.is_file() => Response::file(index),
            Some(_) => Response::error(404, "Not Found"),
        };
    }
    if !meta.is_file() {
        return Response::error(404, "Not Found");
    }
    Response::file(found)
}

/// `path` with its symbolic links resolved: `None` when that leads out of `root` (itself
/// resolved), `Some(Err)` when it does not exist.
fn inside(root: &Path, path: &Path) -> Option<io::Result<PathBuf>> {
    match fs::canonicalize(path) {
        Ok(resolved) if resolved.starts_with(root) => Some(Ok(resolved)),
        Ok(_) => None,
        Err(err) => Some(Err(err)),
    }
}

/// `segment` with every byte but letters, digits and `-._~` written as `%XX`.
fn percent_encode(segment: &[u8]) -> String {
    segment
        .iter()
        .map(|&b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// `%XX` escapes decoded; `None` for a malformed escape.
fn percent_decode(text: &str) -> Option<Vec<u8>> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report directory (`index.html`, a stylesheet, a trace, a directory without an index, a
    /// symbolic link inside and two out of it) next to a secret file.
    struct Fixture {
        _dir: tempfile::TempDir,
        root: PathBuf,
    }

    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("report");
        fs::create_dir_all(root.join("traces")).unwrap();
        fs::create_dir_all(root.join("empty")).unwrap();
        fs::write(root.join("index.html"), "<h1>report</h1>").unwrap();
        fs::write(root.join("style.CSS"), "h1 {}").unwrap();
        fs::write(root.join("traces/a b.zip"), b"PK\x03\x04").unwrap();
        fs::write(dir.path().join("secret.txt"), "secret").unwrap();
        std::os::unix::fs::symlink(root.join("index.html"), root.join("again.html")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("out.txt")).unwrap();
        std::os::unix::fs::symlink(dir.path(), root.join("up")).unwrap();
        let root = fs::canonicalize(root).unwrap();
        Fixture { _dir: dir, root }
    }

    fn get(fixture: &Fixture, target: &str) -> Response {
        route(
            &fixture.root,
            true,
            &format!("GET {target} HTTP/1.1\r\nHost: 127.0.0.1:9323\r\nAccept: */*"),
        )
    }

    fn file_of(response: &Response) -> &Path {
        match &response.body {
            Body::File(path) => path,
            Body::Text(text) => panic!("{} {text}", response.status),
        }
    }

    fn header<'a>(response: &'a Response, name: &str) -> Option<&'a str> {
        response
            .headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    #[test]
    fn files_under_the_directory_are_served_with_their_content_type() {
        let f = fixture();
        for (target, file, content_type) in [
            ("/", "index.html", "text/html; charset=utf-8"),
            ("/index.html", "index.html", "text/html; charset=utf-8"),
            (
                "/index.html?x=1#top",
                "index.html",
                "text/html; charset=utf-8",
            ),
            ("//./index.html", "index.html", "text/html; charset=utf-8"),
            ("/again.html", "index.html", "text/html; charset=utf-8"),
            ("/style.CSS", "style.CSS", "text/css; charset=utf-8"),
            ("/traces/a%20b.zip", "traces/a b.zip", "application/zip"),
        ] {
            let response = get(&f, target);
            assert_eq!(response.status, 200, "{target}");
            assert_eq!(file_of(&response), f.root.join(file), "{target}");
            assert_eq!(
                header(&response, "Content-Type"),
                Some(content_type),
                "{target}"
            );
        }
    }

    #[test]
    fn paths_out_of_the_directory_are_refused_before_or_after_links_resolve() {
        let f = fixture();
        for target in [
            "/../secret.txt",
            "/traces/../../secret.txt",
            "/%2e%2e/secret.txt",
            "/%2E%2E%2Fsecret.txt",
            "/%2Fetc%2Fpasswd",
            "/index.html%00.png",
            "/out.txt",
            "/up/secret.txt",
            "/up/",
        ] {
            let response = get(&f, target);
            assert_eq!(response.status, 403, "{target}: {response:?}");
            assert!(!matches!(response.body, Body::File(_)), "{target}");
        }
    }

    #[test]
    fn missing_files_directories_without_an_index_and_bad_requests_are_refused() {
        let f = fixture();
        for (target, status) in [
            ("/nope.html", 404),
            ("/traces/", 404),
            ("/empty/", 404),
            ("/%zz", 400),
            ("index.html", 400),
            ("http://127.0.0.1/index.html", 400),
        ] {
            assert_eq!(get(&f, target).status, status, "{target}");
        }
        let redirect = get(&f, "/traces?x=1");
        assert_eq!(redirect.status, 301);
        assert_eq!(header(&redirect, "Location"), Some("/traces/?x=1"));
        for (target, location) in [
            ("//traces", "/traces/"),
            ("///traces", "/traces/"),
            ("/./traces", "/traces/"),
            ("//./traces?x=1", "/traces/?x=1"),
            ("/.", "/"),
            ("//.", "/"),
        ] {
            let redirect = get(&f, target);
            assert_eq!(redirect.status, 301, "{target}");
            assert_eq!(header(&redirect, "Location"), Some(location), "{target}");
        }
        let odd = f.root.join("a b\\c");
        fs::create_dir_all(&odd).unwrap();
        let redirect = get(&f, "/a%20b%5Cc");
        assert_eq!(header(&redirect, "Location"), Some("/a%20b%5Cc/"));

        let post = route(&f.root, true, "POST / HTTP/1.1\r\nHost: localhost");
        assert_eq!(post.status, 405);
        assert_eq!(header(&post, "Allow"), Some("GET, HEAD"));
        assert_eq!(route(&f.root, true, "GET / HTTP/2").status, 505);
        assert_eq!(route(&f.root, true, "GET /").status, 400);
        let head = route(&f.root, true, "HEAD / HTTP/1.0");
        assert!(head.head_only && head.status == 200);
    }

    #[test]
    fn on_loopback_only_requests_for_a_loopback_host_are_answered() {
        let f = fixture();
        for host in [
            "127.0.0.1:9323",
            "localhost",
            "LOCALHOST.:80",
            "[::1]:9323",
            "a.localhost",
        ] {
            let head = format!("GET / HTTP/1.1\r\nhost: {host}");
            assert_eq!(route(&f.root, true, &head).status, 200, "{host}");
        }
        for host in ["evil.example:9323", "127.0.0.1.evil.example", "[::2]"] {
            let head = format!("GET / HTTP/1.1\r\nHost: {host}");
            assert_eq!(route(&f.root, true, &head).status, 403, "{host}");
            assert_eq!(route(&f.root, false, &head).status, 200, "{host}");
        }
    }

    #[test]
    fn a_directory_without_a_report_is_an_error_naming_it() {
        let f = fixture();
        let missing = f.root.join("nope");
        assert!(matches!(
            report_root(&missing),
            Err(ServeError::NoDirectory { dir }) if dir == missing
        ));
        let file = f.root.join("index.html");
        assert!(matches!(
            report_root(&file),
            Err(ServeError::NotADirectory { .. })
        ));
        let traces = f.root.join("traces");
        let err = report_root(&traces).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "no HTML report in {}: it has no index.html",
                traces.display()
            )
        );
        assert!(err.is_usage() && err.hint().unwrap().contains("--reporter html"));
        assert_eq!(report_root(&f.root).unwrap(), f.root);
    }

    #[test]
    fn the_server_answers_get_and_head_over_http_and_closes() {
        let f = fixture();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let server = ReportServer::bind(&f.root, "127.0.0.1", 0).await.unwrap();
            let url = server.url();
            assert!(
                url.starts_with("http://127.0.0.1:") && url.ends_with('/'),
                "{url}"
            );
            let addr = server.local_addr();
            tokio::spawn(server.run());
            let exchange = |request: &'static str| async move {
                let mut stream = TcpStream::connect(addr).await.unwrap();
                stream.write_all(request.as_bytes()).await.unwrap();
                let mut answer = Vec::new();
                stream.read_to_end(&mut answer).await.unwrap();
                answer
            };
            let answer =
                exchange("GET /traces/a%20b.zip HTTP/1.1\r\nHost: localhost\r\n\r\n").await;
            let text = String::from_utf8_lossy(&answer);
            assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
            assert!(
                text.contains("\r\nContent-Type: application/zip\r\n"),
                "{text}"
            );
            assert!(text.contains("\r\nContent-Length: 4\r\n"), "{text}");
            assert!(answer.ends_with(b"\r\n\r\nPK\x03\x04"), "{text}");

            let answer = exchange("HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n").await;
            let text = String::from_utf8_lossy(&answer);
            assert!(text.contains("\r\nContent-Length: 15\r\n"), "{text}");
            assert!(text.ends_with("\r\n\r\n"), "{text}");

            let answer = exchange("GET /../secret.txt HTTP/1.1\r\n\r\n").await;
            let text = String::from_utf8_lossy(&answer);
            assert!(text.starts_with("HTTP/1.1 403 Forbidden\r\n"), "{text}");
            assert!(!text.contains("secret"), "{text}");
        });
    }

    #[test]
    fn a_taken_port_is_an_error_naming_the_address() {
        let f = fixture();
        let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = taken.local_addr().unwrap().port();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let err = runtime
            .block_on(ReportServer::bind(&f.root, "127.0.0.1", port))
            .err()
            .unwrap();
        assert_eq!(
            err.to_string(),
            format!("cannot listen on 127.0.0.1:{port}")
        );
        assert!(!err.is_usage());
    }
}
