//! Failures that are not the tests', through the real binary, a real headless Chromium and a
//! scripted LLM server: an app that is down before the run (the base URL probe: exit 3 before
//! any test), an app that goes down during the run (APP UNREACHABLE: exit 3, the run stops), a
//! relative `page.goto` with no base URL (CONFIGURATION ERROR: exit 2) and a main document the
//! app's server answers with HTTP 500 (PRODUCT DEFECT: exit 1). None of them is sent to the LLM,
//! healed or written to the cache.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use crate::support::fake_llm::FakeLlm;
use crate::support::{Output, Test, require_browser};

const SCENARIO: &str = "scenarios/app.steps";
const CACHE: &str = "cache/scenarios/app.steps.toml";

const OPEN: &str = "async function step(page) {\n  await page.goto('/');\n}";

/// The page the app serves for every path but the special ones of [`AppServer`].
const PAGE: &str = "<!doctype html><title>todos</title><h1>todos</h1>";

/// `[llm]` pointing the `openai` provider at the fake.
fn llm_config(llm: &FakeLlm) -> String {
    format!(
        "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n\
         [llm]\nprovider = \"openai\"\nmodel = \"fake\"\nbase_url = \"{}\"\n",
        llm.base_url()
    )
}

/// A cache file of `scenario` with `entries` as (test, step, code), each first of its step.
fn cache_file(entries: &[(&str, &str, &str)]) -> String {
    let mut file = format!("format = 1\nscenario = \"{SCENARIO}\"\n");
    for (test, step, code) in entries {
        file.push_str(&format!(
            "\n[[steps]]\ntest = \"{test}\"\nstep = \"{step}\"\noccurrence = 1\n\
             created = \"2026-11-30\"\ncode = '''\n{code}\n'''\n"
        ));
    }
    file
}

/// A base URL on 127.0.0.1 where nothing listens.
fn closed_base_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a port");
    let url = format!("http://{}/", listener.local_addr().expect("its address"));
    drop(listener);
    url
}

/// The app under test on a 127.0.0.1 port of its own: [`PAGE`] for every path, an HTTP 500 for
/// `/boom`, and for `/shutdown` the page, after which it stops listening, as an app that went
/// down does (connections are refused from then on).
struct AppServer {
    origin: String,
}

impl AppServer {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind a port on 127.0.0.1");
        let address = listener.local_addr().expect("its address");
        let down = Arc::new(AtomicBool::new(false));
        thread::spawn(move || {
            for stream in listener.incoming() {
                if down.load(Ordering::SeqCst) {
                    // The listener is dropped here, so the port refuses connections.
                    break;
                }
                let Ok(stream) = stream else { continue };
                let down = Arc::clone(&down);
                thread::spawn(move || {
                    // A client that hangs up mid-request is its own problem.
                    if let Ok(true) = answer(stream) {
                        down.store(true, Ordering::SeqCst);
                        // Wakes the accepting loop up so that it sees the flag and stops.
                        let _ = TcpStream::connect(address);
                    }
                });
            }
        });
        Self {
            origin: format!("http://{address}/"),
        }
    }
}

/// Answers one request; returns whether it asked the app to go down.
fn answer(mut stream: TcpStream) -> std::io::Result<bool> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim_end().is_empty() {
            break;
        }
    }
    let path = request_line.split_whitespace().nth(1).unwrap_or_default();
    let (status, body) = match path {
        "/boom" => (
            "500 Internal Server Error",
            "<!doctype html><h1>Internal Server Error</h1>",
        ),
        _ => ("200 OK", PAGE),
    };
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    stream.flush()?;
    Ok(path == "/shutdown")
}

/// Asserts that the run left the cache file exactly as it was written.
#[track_caller]
fn assert_cache_untouched(out: &Output, written: &str) {
    if out.read(CACHE) != written {
        out.fail("the run changed the cache");
    }
}

/// `replay --strict` against a base URL where nothing listens: one message naming the URL,
/// what failed and what to check, exit 3, and no test started.
#[test]
fn an_app_that_is_down_fails_replay_before_any_test_with_one_message() {
    require_browser();
    let base_url = closed_base_url();
    let cache = cache_file(&[("see the app", "open the app", OPEN)]);
    let out = Test::new()
        .scenario(SCENARIO, "test: see the app\n  open the app\n")
        .cache(CACHE, &cache)
        .args(&["replay", "--strict", "--base-url", &base_url])
        .run()
        .assert_exit(3)
        .stderr_contains(&format!(
            "error: APP UNREACHABLE: {base_url} — connection refused\n  hint: is the app running? \
             start it with [web_server] or check [browser] base_url; no test was started (the \
             URL comes from `--base-url`)"
        ))
        .output_count("APP UNREACHABLE", 1)
        .output_not_contains("see the app")
        .output_not_contains("passed");
    assert_cache_untouched(&out, &cache);
}

/// `run` with an LLM configured against an app that is down: the same single message and exit
/// 3, and the LLM gets no request for the cached step nor for the step without code.
#[test]
fn an_app_that_is_down_asks_the_llm_nothing_in_run() {
    require_browser();
    let llm = FakeLlm::start();
    let base_url = closed_base_url();
    let cache = cache_file(&[("see the app", "open the app", OPEN)]);
    let out = Test::new()
        .config(&llm_config(&llm))
        .scenario(
            SCENARIO,
            "test: see the app\n  open the app\n  the heading says todos\n",
        )
        .cache(CACHE, &cache)
        .args(&["run", "--base-url", &base_url])
        .run()
        .assert_exit(3)
        .stderr_contains(&format!(
            "error: APP UNREACHABLE: {base_url} — connection refused"
        ))
        .output_count("APP UNREACHABLE", 1);
    assert_eq!(llm.request_count(), 0, "the LLM was asked about an outage");
    assert_cache_untouched(&out, &cache);
}

/// The app goes down after the first test (its last step asks it to): the next test's
/// navigation is refused and fails as APP UNREACHABLE, with no verdict, heal or retry; the run
/// stops there and exits 3. The LLM is asked nothing.
#[test]
fn an_app_that_goes_down_mid_run_stops_the_run_as_infrastructure() {
    require_browser();
    let llm = FakeLlm::start();
    let app = AppServer::start();
    let shutdown = "async function step(page) {\n  await page.goto('/shutdown');\n}";
    let cache = cache_file(&[
        ("first", "open the app", OPEN),
        ("first", "the app goes down", shutdown),
        ("second", "open the app", OPEN),
        ("third", "open the app", OPEN),
    ]);
    let out = Test::new()
        .config(&llm_config(&llm))
        .scenario(
            SCENARIO,
            "test: first\n  open the app\n  the app goes down\n\n\
             test: second\n  open the app\n\n\
             test: third\n  open the app\n",
        )
        .cache(CACHE, &cache)
        .args(&["run", "-j", "1", "--retries", "2", "--base-url", &app.origin])
        .run()
        .assert_exit(3)
        .stdout_contains("PASS scenarios/app.steps › first")
        .stdout_contains("FAIL scenarios/app.steps › second")
        .output_contains(&format!(
            "APP UNREACHABLE: {} — connection refused (net::ERR_CONNECTION_REFUSED); is the app \
             running? start it with [web_server] or check [browser] base_url",
            app.origin
        ))
        .output_contains(
            "the run stopped: the app could not be reached (APP UNREACHABLE). 1 test(s) did not run",
        )
        .output_not_contains("› third")
        .output_not_contains("attempt 2")
        .output_not_contains("verdict:");
    assert_eq!(llm.request_count(), 0, "the LLM was asked about an outage");
    assert_cache_untouched(&out, &cache);
}

/// A relative `page.goto` with no base URL anywhere is a configuration error: exit 2, the
/// message names `[browser] base_url` and its overrides, the run stops, and the LLM is asked
/// nothing, neither for the cached step nor to heal it.
#[test]
fn a_relative_goto_without_a_base_url_is_a_configuration_error() {
    require_browser();
    let llm = FakeLlm::start();
    let cache = cache_file(&[
        ("first", "open the app", OPEN),
        ("second", "open the app", OPEN),
    ]);
    let out = Test::new()
        .config(&llm_config(&llm))
        .scenario(
            SCENARIO,
            "test: first\n  open the app\n\ntest: second\n  open the app\n",
        )
        .cache(CACHE, &cache)
        .args(&["run", "-j", "1"])
        .run()
        .assert_exit(2)
        .stdout_contains("CONFIGURATION ERROR")
        .output_contains(
            "CONFIGURATION ERROR: page.goto(\"/\") needs a base URL to resolve against, and none \
             is set: set [browser] base_url in prettyplay.toml (or PRETTYPLAY_BROWSER_BASE_URL, \
             or --base-url)",
        )
        .output_contains("1 of the failures came from the configuration")
        .output_contains("the run stopped: a step needs a setting the run lacks")
        .output_not_contains("Cannot navigate to invalid URL");
    assert_eq!(llm.request_count(), 0, "the LLM was asked about a setting");
    assert_cache_untouched(&out, &cache);
}

/// Generated code that goes to a relative URL with no base URL ends generation at once: one
/// request (the code), no verdict and no second candidate, exit 2, nothing cached.
#[test]
fn generated_code_that_needs_a_base_url_ends_generation_at_once() {
    require_browser();
    let llm = FakeLlm::start();
    llm.reply_text(&format!("```js\n{OPEN}\n```\n"));
    let out = Test::new()
        .config(&llm_config(&llm))
        .scenario(SCENARIO, "test: first\n  open the app\n")
        .args(&["run"])
        .run()
        .assert_exit(2)
        .output_contains("CONFIGURATION ERROR: page.goto(\"/\") needs a base URL");
    assert_eq!(llm.request_count(), 1, "only the code was asked for");
    assert!(!out.exists(CACHE), "nothing may be cached");
}

/// A main document answered with HTTP 500 is the app's defect, said as such with the status
/// and the URL, in `replay --strict` and in `run` with an LLM, which is asked nothing: the
/// verdict comes from evidence, nothing is healed, and the cache is untouched.
#[test]
fn an_http_500_main_document_is_a_product_defect_without_the_llm() {
    require_browser();
    let app = AppServer::start();
    let boom = "async function step(page) {\n  await page.goto('/boom');\n}";
    let cache = cache_file(&[("see the app", "open the app", boom)]);
    let defect = format!(
        "page.goto: the app answered HTTP 500 Internal Server Error for {}boom (the page's main \
         document)",
        app.origin
    );
    for args in [&["replay", "--strict"][..], &["run"][..]] {
        let llm = FakeLlm::start();
        let out = Test::new()
            .config(&llm_config(&llm))
            .scenario(SCENARIO, "test: see the app\n  open the app\n")
            .cache(CACHE, &cache)
            .args(args)
            .args(&["--base-url", &app.origin])
            .run()
            .assert_exit(1)
            .stdout_contains("PRODUCT DEFECT")
            .output_contains(&defect)
            .output_contains(&format!(
                "verdict: product_defect (from evidence) — {defect}"
            ))
            .output_not_contains("HEALED");
        assert_eq!(
            llm.request_count(),
            0,
            "{args:?}: the LLM was asked about a 500"
        );
        assert_cache_untouched(&out, &cache);
    }
}

/// Generated code whose page answers HTTP 500 is the app's defect too: one request (the code),
/// the verdict from evidence, nothing cached.
#[test]
fn generated_code_on_a_page_that_answers_500_is_a_product_defect() {
    require_browser();
    let app = AppServer::start();
    let llm = FakeLlm::start();
    llm.reply_text("```js\nasync function step(page) {\n  await page.goto('/boom');\n}\n```\n");
    let out = Test::new()
        .config(&llm_config(&llm))
        .scenario(SCENARIO, "test: see the app\n  open the app\n")
        .args(&["run", "--base-url", &app.origin])
        .run()
        .assert_exit(1)
        .stdout_contains("PRODUCT DEFECT")
        .output_contains("the app answered HTTP 500 Internal Server Error for")
        .output_contains("verdict: product_defect (from evidence) — page.goto: the app answered");
    assert_eq!(llm.request_count(), 1, "only the code was asked for");
    assert!(!out.exists(CACHE), "nothing may be cached");
}

/// `page.reload()` returns the main document's response, and a reload the app answers with
/// HTTP 500 is the same defect as a `page.goto` that it answers so.
#[test]
fn reload_returns_its_response_and_a_500_on_reload_is_a_product_defect() {
    require_browser();
    let app = AppServer::start();
    let reload = "async function step(page) {\n  await page.goto('/');\n  const response = await page.reload();\n  expect(response.status()).toBe(200);\n}";
    let cache = cache_file(&[("see the app", "open the app", reload)]);
    Test::new()
        .scenario(SCENARIO, "test: see the app\n  open the app\n")
        .cache(CACHE, &cache)
        .args(&["replay", "--strict", "--base-url", &app.origin])
        .run()
        .assert_exit(0);
    // The page's URL becomes `/boom` without a navigation, so only the reload asks for it.
    let reload_500 = "async function step(page) {\n  await page.goto('/');\n  await page.evaluate(() => history.replaceState(null, '', '/boom'));\n  await page.reload();\n}";
    let cache = cache_file(&[("see the app", "open the app", reload_500)]);
    Test::new()
        .scenario(SCENARIO, "test: see the app\n  open the app\n")
        .cache(CACHE, &cache)
        .args(&["replay", "--strict", "--base-url", &app.origin])
        .run()
        .assert_exit(1)
        .stdout_contains("PRODUCT DEFECT")
        .output_contains(&format!(
            "page.reload: the app answered HTTP 500 Internal Server Error for {}boom",
            app.origin
        ));
}
