//! `prettyplay show-report` and `prettyplay show-trace` through the real binary: each is started,
//! its URL read from its stdout, requested over HTTP on 127.0.0.1 (raw requests, so a `..` is
//! sent as written), then stopped with SIGINT to its process group, as Ctrl-C does, leaving no
//! process behind. The reports and traces come from real runs (the browser tests) or are written
//! by the test (the rest, which need no browser).
//!
//! No display is passed on (`DISPLAY`, `WAYLAND_DISPLAY` unset), so no browser is opened.

use std::fs;
use std::path::Path;
use std::time::Duration;

use crate::reports::report_project;
use crate::runner::{MARK_ENV, assert_nothing_left, unique_mark};
use crate::support::http::request;
use crate::support::{Output, Running, Test};

/// How long a server has to print its URL: a bound for a slow machine, not a measure.
const READY: Duration = Duration::from_secs(120);

/// The URL `show-report` prints.
const REPORT_URL: &str = r"http://127\.0\.0\.1:\d+/";
/// The URL `show-trace` prints (playwright-core's, without a trailing `/`).
const VIEWER_URL: &str = r"http://127\.0\.0\.1:\d+";

/// Runs `args` in `test`'s project without a display, marked with `mark`.
fn serve(test: Test, args: &[&str], mark: &str) -> Running {
    test.env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env(MARK_ENV, mark)
        .args(args)
        .spawn()
}

/// A real run of one passing and one failing test with the HTML report and the failure's
/// trace, in `report/`.
fn real_report() -> Output {
    report_project()
        .args(&["replay", "--strict", "-j", "1"])
        .args(&["--reporter", "html", "--trace", "retain-on-failure"])
        .args(&["--output", "report"])
        .run()
        .assert_exit(1)
        .stdout_line("1 passed, 1 failed")
}

/// The `href` of the report's one trace link.
fn trace_href(out: &Output) -> String {
    let html = out.read("report/index.html");
    let pattern = regex::Regex::new(r#"trace: <a href="([^"]+)" download>"#).unwrap();
    let hrefs: Vec<String> = pattern
        .captures_iter(&html)
        .map(|c| c[1].to_owned())
        .collect();
    match hrefs.as_slice() {
        [href] => href.clone(),
        _ => out.fail(&format!("expected one trace link, found {hrefs:?}")),
    }
}

#[test]
fn show_report_serves_a_real_report_and_the_trace_it_links() {
    let out = real_report();
    let href = trace_href(&out);
    assert!(
        href.starts_with("traces/") && href.ends_with(".zip"),
        "{href}"
    );
    let html = out.read("report/index.html");
    assert!(
        html.contains(&format!("<code>prettyplay show-trace {href}</code>")),
        "the report names the command that opens the trace"
    );
    let zip = fs::read(out.project_dir().join("report").join(&href)).unwrap();

    let mark = unique_mark("show-report-real");
    let mut running = serve(out.again(), &["show-report", "report"], &mark);
    let url = running.stdout_match(REPORT_URL, READY);

    let index = request(&url, "GET", "/");
    assert_eq!(index.status, 200, "{index:?}");
    assert_eq!(
        index.header("Content-Type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(index.text(), html);
    let trace = request(&url, "GET", &format!("/{href}"));
    assert_eq!(trace.status, 200, "{:?}", trace.headers);
    assert_eq!(trace.header("Content-Type"), Some("application/zip"));
    assert!(trace.body == zip, "the served trace is the file");
    let head = request(&url, "HEAD", &format!("/{href}"));
    assert_eq!(head.status, 200);
    assert_eq!(
        head.header("Content-Length"),
        Some(zip.len().to_string().as_str())
    );
    assert!(head.body.is_empty());

    let out = running
        .interrupt_and_wait()
        .stdout_contains(&format!("Serving the HTML report report at {url}"))
        .stdout_contains("Press Ctrl-C to stop.");
    assert_nothing_left(&out, &mark);
}

/// A report directory written by the test: files of every type the report can hold, a
/// directory, a link inside and links out of it; a secret next to it.
fn written_report() -> Test {
    let test = Test::new()
        .write("report/index.html", "<!doctype html><h1>report</h1>")
        .write("report/assets/style.css", "h1 {}")
        .write("report/assets/app.js", "1;")
        .write("report/assets/logo.svg", "<svg/>")
        .write("report/events.jsonl", "{}\n")
        .write("report/traces/a test.zip", "PK")
        .write("secret.txt", "the secret");
    let project = test.project_dir();
    fs::write(project.join("report/shot.png"), b"\x89PNG\r\n\x1a\n").unwrap();
    fs::write(project.join("report/codec.wasm"), b"\0asm").unwrap();
    let link = |target: &Path, name: &str| {
        std::os::unix::fs::symlink(target, project.join("report").join(name)).unwrap();
    };
    link(&project.join("report/index.html"), "again.html");
    link(&project.join("secret.txt"), "leak.txt");
    link(Path::new("../secret.txt"), "leak-relative.txt");
    link(&project, "project");
    test
}

#[test]
fn show_report_serves_files_with_their_types_and_nothing_outside_its_directory() {
    let mark = unique_mark("show-report-written");
    let mut running = serve(written_report(), &["show-report", "report"], &mark);
    let url = running.stdout_match(REPORT_URL, READY);

    for (target, content_type) in [
        ("/", "text/html; charset=utf-8"),
        ("/index.html", "text/html; charset=utf-8"),
        ("/again.html", "text/html; charset=utf-8"),
        ("/assets/style.css", "text/css; charset=utf-8"),
        ("/assets/app.js", "text/javascript; charset=utf-8"),
        ("/assets/logo.svg", "image/svg+xml"),
        ("/events.jsonl", "text/plain; charset=utf-8"),
        ("/shot.png", "image/png"),
        ("/codec.wasm", "application/wasm"),
        ("/traces/a%20test.zip", "application/zip"),
    ] {
        let reply = request(&url, "GET", target);
        assert_eq!(reply.status, 200, "{target}: {reply:?}");
        assert_eq!(reply.header("Content-Type"), Some(content_type), "{target}");
    }
    for target in [
        "/../secret.txt",
        "/../prettyplay.toml",
        "/assets/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/..%2fsecret.txt",
        "/%2Fetc%2Fpasswd",
        "/leak.txt",
        "/leak-relative.txt",
        "/project/secret.txt",
    ] {
        let reply = request(&url, "GET", target);
        assert_eq!(reply.status, 403, "{target}: {reply:?}");
        assert!(!reply.text().contains("the secret"), "{target}");
    }
    for (target, status) in [("/nope.html", 404), ("/traces/", 404), ("/assets", 301)] {
        assert_eq!(request(&url, "GET", target).status, status, "{target}");
    }
    assert_eq!(request(&url, "POST", "/").status, 405);

    let out = running.interrupt_and_wait();
    assert_nothing_left(&out, &mark);
}

#[test]
fn show_report_redirects_a_directory_to_its_normalised_path_never_to_another_host() {
    let mark = unique_mark("show-report-redirect");
    let mut running = serve(written_report(), &["show-report", "report"], &mark);
    let url = running.stdout_match(REPORT_URL, READY);
    for (target, location) in [
        ("/assets", "/assets/"),
        ("//assets", "/assets/"),
        ("//assets?x=1", "/assets/?x=1"),
        ("/./assets", "/assets/"),
        ("/.", "/"),
    ] {
        let reply = request(&url, "GET", target);
        assert_eq!(reply.status, 301, "{target}: {reply:?}");
        assert_eq!(reply.header("Location"), Some(location), "{target}");
    }
    let out = running.interrupt_and_wait();
    assert_nothing_left(&out, &mark);
}

/// How long `show-report` waits for a client that reads nothing of its answer.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

#[test]
fn show_report_drops_a_download_its_client_stops_reading() {
    use std::io::{Read as _, Write as _};
    let test = written_report();
    // A sparse file: far more than the socket buffers hold, and no disk.
    let big = fs::File::create(test.project_dir().join("report/traces/big.zip")).unwrap();
    big.set_len(256 * 1024 * 1024).unwrap();
    let mark = unique_mark("show-report-stall");
    let mut running = serve(test, &["show-report", "report"], &mark);
    let url = running.stdout_match(REPORT_URL, READY);
    let authority = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(authority).unwrap();
    write!(
        stream,
        "GET /traces/big.zip HTTP/1.1\r\nHost: {authority}\r\n\r\n"
    )
    .unwrap();
    // Read nothing while the server's writes stall, then everything there is.
    std::thread::sleep(WRITE_TIMEOUT + Duration::from_secs(5));
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut received = 0u64;
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => received += n as u64,
            // A reset is a close too, whatever the kernel did with the unsent bytes.
            Err(err) if err.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(err) => panic!("the server neither sent nor closed: {err}"),
        }
    }
    assert!(
        received < 256 * 1024 * 1024,
        "the server kept the stalled download open and sent it all ({received} bytes)"
    );
    let out = running.interrupt_and_wait();
    assert_nothing_left(&out, &mark);
}

#[test]
fn show_report_without_a_report_exits_2_naming_the_directory_and_what_to_do() {
    // The default directory, prettyplay-report, does not exist; a broken prettyplay.toml is not
    // read at all.
    Test::new()
        .config("this is = not [valid toml\n")
        .args(&["show-report"])
        .run()
        .assert_exit(2)
        .stderr_contains("error: no HTML report at ")
        .stderr_contains("prettyplay-report: the directory does not exist")
        .stderr_contains("hint: write a report first with `--reporter html`");
    Test::new()
        .write("report/junit.xml", "<testsuites/>")
        .args(&["show-report", "report"])
        .run()
        .assert_exit(2)
        .stderr_contains("/report: it has no index.html")
        .stderr_contains("prettyplay show-report DIR");
}

/// `path` percent-encoded for a query parameter.
fn query_encoded(path: &str) -> String {
    path.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

#[test]
fn show_trace_serves_playwrights_trace_viewer_for_a_real_trace() {
    let out = real_report();
    let href = trace_href(&out);
    let trace = out.project_dir().join("report").join(&href);
    let zip = fs::read(&trace).unwrap();
    let relative = format!("report/{href}");

    let mark = unique_mark("show-trace");
    let mut running = serve(
        out.again(),
        &["show-trace", &relative, "--port", "0"],
        &mark,
    );
    let url = running.stdout_match(VIEWER_URL, READY);

    let root = request(&url, "GET", "/");
    assert_eq!(root.status, 302, "{root:?}");
    let location = root.header("Location").unwrap_or_default();
    assert!(
        location.starts_with("./trace/index.html?trace="),
        "{location}"
    );
    let viewer = request(&url, "GET", "/trace/index.html");
    assert_eq!(viewer.status, 200, "{viewer:?}");
    assert!(
        viewer
            .header("Content-Type")
            .unwrap_or_default()
            .starts_with("text/html"),
        "{viewer:?}"
    );
    assert!(
        viewer
            .text()
            .contains("<title>Playwright Trace Viewer</title>")
    );
    let path = query_encoded(&trace.to_string_lossy());
    let served = request(&url, "GET", &format!("/trace/file?path={path}"));
    assert_eq!(served.status, 200, "{:?}", served.headers);
    assert!(served.body == zip, "the viewer serves the trace file");

    let out = running
        .interrupt_and_wait()
        .stdout_contains(&format!("Serving the trace viewer for {relative} at {url}"));
    assert_nothing_left(&out, &mark);
}

#[test]
fn show_trace_of_a_missing_file_exits_2_saying_how_traces_are_written() {
    Test::new()
        .args(&["show-trace", "report/traces/nope.zip"])
        .run()
        .assert_exit(2)
        .stderr_contains("error: no trace at report/traces/nope.zip")
        .stderr_contains("hint: traces are written by `--trace on`");
}
