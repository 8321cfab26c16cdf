//! `request` response bodies are bounded as they arrive. A 300 MB body sent chunked, sent with
//! no `Content-Length` and read to the close, sent under a `Content-Length` larger than what
//! comes, or gzip-compressed to a few hundred KB, fails its step with the size message, while
//! the peak memory of prettyplay and its Node.js driver stays within 64 MiB of the same test
//! reading a small body. A `Content-Length` smaller than what comes is read as far as it says.
//! A request still goes out as Playwright's would (the browser's user agent, `accept`,
//! `accept-encoding`), and a compressed answer reads decoded with its headers as sent.
//!
//! The server here writes each body as the client reads it, from one 64 KiB buffer, so the
//! test never holds more than a chunk. Peak memory is the kernel's high-water mark (`VmHWM`)
//! of each process, read from `/proc` while the run goes on.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use crate::support::{Output, Test};

/// The size of every large body, decoded.
const BODY_BYTES: usize = 300 * 1000 * 1000;

/// The size of the small body of the baseline run.
const SMALL_BYTES: usize = 1000;

/// How much more the large bodies' runs may peak at than the baseline.
const MARGIN_KIB: u64 = 64 * 1024;

/// The bodies the server sends, by path.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// [`SMALL_BYTES`] with their `Content-Length`.
    Small,
    /// `Transfer-Encoding: chunked`.
    Chunked,
    /// No length at all: the body ends when the server closes.
    Unframed,
    /// A `Content-Length` of twice the bytes that come before the server closes.
    LongerThanSent,
    /// A `Content-Length` of [`SMALL_BYTES`], followed by the whole 300 MB.
    ShorterThanSent,
    /// Zeros, gzip-compressed and chunked.
    Gzip,
}

impl Shape {
    fn path(self) -> &'static str {
        match self {
            Shape::Small => "/small",
            Shape::Chunked => "/chunked",
            Shape::Unframed => "/unframed",
            Shape::LongerThanSent => "/longer",
            Shape::ShorterThanSent => "/shorter",
            Shape::Gzip => "/gzip",
        }
    }

    fn of(path: &str) -> Option<Shape> {
        [
            Shape::Small,
            Shape::Chunked,
            Shape::Unframed,
            Shape::LongerThanSent,
            Shape::ShorterThanSent,
            Shape::Gzip,
        ]
        .into_iter()
        .find(|shape| shape.path() == path)
    }
}

/// A server on its own 127.0.0.1 port that writes the body each path names.
fn start_server() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            thread::spawn(move || {
                // A client that goes away mid-body ends the write with an error: that is the
                // point of these bodies, not a failure of the server.
                let _ = serve(stream);
            });
        }
    });
    port
}

fn serve(stream: TcpStream) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let path = line.split(' ').nth(1).unwrap_or_default().to_owned();
    let mut request_head = String::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header == "\r\n" {
            break;
        }
        request_head.push_str(&header.to_ascii_lowercase());
    }
    let mut out = stream;
    if path == ECHO {
        return echo(out, &request_head);
    }
    let head = |extra: &str| format!("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n{extra}\r\n");
    let block = vec![b'x'; 64 * 1024];
    match Shape::of(&path) {
        None => out.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"),
        Some(Shape::Small) => {
            out.write_all(head(&format!("Content-Length: {SMALL_BYTES}\r\n")).as_bytes())?;
            out.write_all(&block[..SMALL_BYTES])
        }
        Some(Shape::Chunked) => {
            out.write_all(head("Transfer-Encoding: chunked\r\n").as_bytes())?;
            let mut chunked = Chunked(out);
            write_blocks(&mut chunked, &block)?;
            chunked.end()
        }
        Some(Shape::Unframed) => {
            out.write_all(head("Connection: close\r\n").as_bytes())?;
            write_blocks(&mut out, &block)
        }
        Some(Shape::LongerThanSent) => {
            let declared = 2 * BODY_BYTES;
            out.write_all(head(&format!("Content-Length: {declared}\r\n")).as_bytes())?;
            write_blocks(&mut out, &block)
        }
        Some(Shape::ShorterThanSent) => {
            out.write_all(head(&format!("Content-Length: {SMALL_BYTES}\r\n")).as_bytes())?;
            write_blocks(&mut out, &block)
        }
        Some(Shape::Gzip) => {
            let extra = "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n";
            out.write_all(head(extra).as_bytes())?;
            let mut zipped =
                flate2::write::GzEncoder::new(Chunked(out), flate2::Compression::fast());
            write_blocks(&mut zipped, &vec![0u8; block.len()])?;
            zipped.finish()?.end()
        }
    }
}

/// The path whose body is the request's own header lines, gzip-compressed.
const ECHO: &str = "/echo";

fn echo(mut out: TcpStream, request_head: &str) -> std::io::Result<()> {
    let mut zipped = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    zipped.write_all(request_head.as_bytes())?;
    let body = zipped.finish()?;
    write!(
        out,
        "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )?;
    out.write_all(&body)
}

/// Writes [`BODY_BYTES`] to `out`, `block` after `block`.
fn write_blocks(out: &mut impl Write, block: &[u8]) -> std::io::Result<()> {
    let mut sent = 0;
    while sent < BODY_BYTES {
        let n = block.len().min(BODY_BYTES - sent);
        out.write_all(&block[..n])?;
        sent += n;
    }
    out.flush()
}

/// A writer that sends each write as one HTTP/1.1 chunk.
struct Chunked(TcpStream);

impl Chunked {
    fn end(mut self) -> std::io::Result<()> {
        self.0.write_all(b"0\r\n\r\n")
    }
}

impl Write for Chunked {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        write!(self.0, "{:x}\r\n", buf.len())?;
        self.0.write_all(buf)?;
        self.0.write_all(b"\r\n")?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

/// Watches the peak memory of a run's prettyplay processes and of the Node.js driver it starts.
struct PeakWatch {
    stop: Arc<AtomicBool>,
    thread: thread::JoinHandle<BTreeMap<u32, (String, u64)>>,
}

impl PeakWatch {
    fn start(root: u32) -> PeakWatch {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = thread::spawn(move || {
            let own_exe = fs::read_link(format!("/proc/{root}/exe")).ok();
            let mut peaks: BTreeMap<u32, (String, u64)> = BTreeMap::new();
            while !stopped.load(Ordering::SeqCst) {
                let tree = descendants(root);
                for &(pid, parent) in &tree {
                    let Ok(status) = fs::read_to_string(format!("/proc/{pid}/status")) else {
                        continue;
                    };
                    let exe = fs::read_link(format!("/proc/{pid}/exe")).ok();
                    let ours = pid == root || (exe.is_some() && exe == own_exe);
                    let name = if ours {
                        "prettyplay"
                    } else if is_driver(pid, parent, root, own_exe.as_deref()) {
                        "driver"
                    } else {
                        continue;
                    };
                    // VmHWM only grows, so the last reading of a process is its peak so far.
                    let kib = field(&status, "VmHWM:")
                        .and_then(|v| v.trim_end_matches("kB").trim().parse().ok());
                    if let Some(kib) = kib {
                        peaks.insert(pid, (name.to_owned(), kib));
                    }
                }
                thread::sleep(Duration::from_millis(10));
            }
            peaks
        });
        PeakWatch { stop, thread }
    }

    /// The peaks of the processes seen, by pid, with their names.
    fn stop(self) -> BTreeMap<u32, (String, u64)> {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.join().unwrap()
    }
}

/// Whether `pid` is the driver: playwright-rs starts it as `node <cli.js> run-driver`, a child
/// of prettyplay. The driver's own forks (a browser between fork and exec) carry its command
/// line for a moment, but their parent is the driver.
fn is_driver(pid: u32, parent: u32, root: u32, own_exe: Option<&std::path::Path>) -> bool {
    let cmdline = fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let runs_the_driver = cmdline.split(|&b| b == 0).any(|arg| arg == b"run-driver");
    let parent_exe = fs::read_link(format!("/proc/{parent}/exe")).ok();
    runs_the_driver && (parent == root || (own_exe.is_some() && parent_exe.as_deref() == own_exe))
}

fn field<'a>(status: &'a str, name: &str) -> Option<&'a str> {
    status
        .lines()
        .find_map(|line| line.strip_prefix(name))
        .map(str::trim)
}

/// `root` and its descendants now, each with its parent's pid, from `/proc/*/stat`.
fn descendants(root: u32) -> Vec<(u32, u32)> {
    let mut parents: Vec<(u32, u32)> = Vec::new();
    for entry in fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`; comm may hold spaces and parentheses.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse().ok());
        if let Some(ppid) = ppid {
            parents.push((pid, ppid));
        }
    }
    let mut found = vec![(root, 0)];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i].0;
        found.extend(parents.iter().filter(|(_, ppid)| *ppid == parent));
        i += 1;
    }
    found
}

/// One run whose only step reads the body `shape` from the server at `port`, and the sum of
/// the peaks of its prettyplay and driver processes in KiB.
fn run(port: u16, shape: Shape) -> (Output, u64) {
    let code = format!(
        "async function step(page) {{\n  \
         const response = await request.get('http://127.0.0.1:{port}{}');\n  \
         console.log('status ' + response.status());\n  \
         console.log('read ' + (await response.text()).length);\n}}",
        shape.path()
    );
    let running = Test::new()
        .config(&format!(
            "[browser]\nallowed_origins = [\"http://127.0.0.1:{port}\"]\n"
        ))
        .page("index.html", "<p>bodies</p>")
        .scenario("scenarios/bodies.steps", "test: read\n  read the body\n")
        .cached("scenarios/bodies.steps", "read", "read the body", 1, &code)
        .args(&["replay", "--strict", "-v"])
        .spawn();
    let watch = PeakWatch::start(running.pid());
    let out = running.wait();
    let peaks = watch.stop();
    let processes: Vec<String> = peaks
        .values()
        .map(|(name, kib)| format!("{name} {} MiB", kib / 1024))
        .collect();
    assert!(
        peaks.values().any(|(name, _)| name == "driver"),
        "{shape:?}: the driver's memory was never read ({processes:?})"
    );
    let total = peaks.values().map(|(_, kib)| kib).sum();
    eprintln!(
        "bodies: {shape:?}: peak {} MiB ({})",
        total / 1024,
        processes.join(", ")
    );
    (out, total)
}

fn size_message(port: u16, shape: Shape) -> String {
    format!(
        "apiResponse.text: the body of http://127.0.0.1:{port}{} is more than 1048576 bytes; \
         step code may read at most 1048576",
        shape.path()
    )
}

/// A server, and the peak of a run that reads its small body.
fn baseline() -> (u16, u64) {
    let port = start_server();
    let (small, peak) = run(port, Shape::Small);
    small
        .assert_exit(0)
        .stdout_contains("console.log: status 200")
        .stdout_contains(&format!("console.log: read {SMALL_BYTES}"));
    (port, peak)
}

/// Fails the test when `peak` is more than [`MARGIN_KIB`] above `baseline`.
fn assert_within_the_margin(out: &Output, shape: Shape, peak: u64, baseline: u64) {
    if peak > baseline + MARGIN_KIB {
        out.fail(&format!(
            "{shape:?}: the run peaked at {} MiB, {} MiB above the baseline's {} MiB",
            peak / 1024,
            (peak - baseline) / 1024,
            baseline / 1024
        ));
    }
}

/// Runs the baseline, then each of `shapes`, which must fail with the size message and peak
/// within [`MARGIN_KIB`] of the baseline.
fn assert_refused_within_the_margin(shapes: &[Shape]) -> (u16, u64) {
    let (port, baseline) = baseline();
    for &shape in shapes {
        let (out, peak) = run(port, shape);
        let out = out
            .assert_exit(1)
            .stdout_contains("console.log: status 200")
            .stdout_contains(&size_message(port, shape))
            .output_not_contains("console.log: read");
        assert_within_the_margin(&out, shape, peak, baseline);
    }
    (port, baseline)
}

#[test]
fn a_300_mb_chunked_or_compressed_body_fails_its_step_within_the_cap() {
    assert_refused_within_the_margin(&[Shape::Chunked, Shape::Gzip]);
}

#[test]
fn a_300_mb_body_with_a_lying_content_length_is_read_no_further_than_the_cap() {
    let (port, baseline) =
        assert_refused_within_the_margin(&[Shape::Unframed, Shape::LongerThanSent]);
    // A length smaller than what comes is the body's length: the rest is never read.
    let (out, peak) = run(port, Shape::ShorterThanSent);
    let out = out
        .assert_exit(0)
        .stdout_contains(&format!("console.log: read {SMALL_BYTES}"));
    assert_within_the_margin(&out, Shape::ShorterThanSent, peak, baseline);
}

#[test]
fn a_request_carries_the_browsers_user_agent_and_its_compressed_answer_is_read_decoded() {
    let port = start_server();
    let code = format!(
        "async function step(page) {{\n  \
         const response = await request.get('http://127.0.0.1:{port}{ECHO}');\n  \
         console.log('encoding ' + response.headers()['content-encoding']);\n  \
         const seen = (await response.text()).split(String.fromCharCode(13, 10));\n  \
         for (const line of seen) if (line) console.log('sent ' + line);\n  \
         const agent = await page.evaluate(() => navigator.userAgent);\n  \
         expect(seen).toContain('user-agent: ' + agent.toLowerCase());\n}}"
    );
    Test::new()
        .config(&format!(
            "[browser]\nallowed_origins = [\"http://127.0.0.1:{port}\"]\n"
        ))
        .page("index.html", "<p>bodies</p>")
        .scenario("scenarios/bodies.steps", "test: echo\n  read the echo\n")
        .cached("scenarios/bodies.steps", "echo", "read the echo", 1, &code)
        .args(&["replay", "--strict", "-v"])
        .run()
        .assert_exit(0)
        .stdout_contains("console.log: encoding gzip")
        .stdout_contains("console.log: sent accept: */*")
        .stdout_contains("console.log: sent accept-encoding: gzip,deflate,br");
}
