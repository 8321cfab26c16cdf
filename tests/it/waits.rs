//! Every wait is bounded by the test timeout, LLM calls included, and an LLM outage costs a run a
//! few requests: a hanging LLM is cut at the test's deadline and reported as LLM UNAVAILABLE
//! (exit 3), not as the test's own timeout; after a few transport failures in a row the run stops
//! calling the LLM. The real binary, Chromium and the fake LLM.

use std::time::{Duration, Instant};

use crate::support::Test;
use crate::support::fake_llm::{FakeLlm, Reply};

const PAGE: &str = "<!doctype html><title>app</title><p>hello</p>";

fn config(llm: &FakeLlm, timeout: u32) -> String {
    format!(
        "[llm]\nprovider = \"openai\"\nmodel = \"fake\"\nbase_url = \"{}\"\ntimeout = {timeout}\n",
        llm.base_url()
    )
}

/// Before: the call ran its 20 s `llm.timeout` three times (62 s) and was reported as the test
/// timeout. Now it ends at the 5 s deadline, as the LLM's failure.
#[test]
fn a_hanging_llm_is_cut_at_the_test_timeout_as_llm_unavailable() {
    let llm = FakeLlm::start();
    llm.always_on_contains("", Reply::text("never").delayed(Duration::from_secs(120)));
    let started = Instant::now();
    let out = Test::new()
        .config(&config(&llm, 20))
        .page("index.html", PAGE)
        .scenario("scenarios/app.steps", "test: hangs\n  open the app\n")
        .args(&["run", "--test-timeout", "5"])
        .run();
    let took = started.elapsed();
    let out = out
        .assert_exit(3)
        .stdout_contains("LLM UNAVAILABLE")
        .output_contains("the time left before the test timeout")
        .output_not_contains("test timeout of 5s exceeded");
    if took > Duration::from_secs(30) {
        out.fail(&format!("the run took {took:?}; the test timeout is 5 s"));
    }
    assert_eq!(llm.request_count(), 1, "no retry past the deadline");
}

/// Before: a `Retry-After: 3600` was slept for 30 s, twice. Now the wait would cross the
/// deadline, so the call gives up at once.
#[test]
fn a_retry_after_past_the_test_timeout_is_not_waited_for() {
    let llm = FakeLlm::start();
    llm.always_on_contains(
        "",
        Reply::status(429, r#"{"error":{"message":"slow down"}}"#).retry_after("3600"),
    );
    let started = Instant::now();
    let out = Test::new()
        .config(&config(&llm, 20))
        .page("index.html", PAGE)
        .scenario("scenarios/app.steps", "test: limited\n  open the app\n")
        .args(&["run", "--test-timeout", "5"])
        .run();
    let took = started.elapsed();
    let out = out
        .assert_exit(3)
        .stdout_contains("LLM UNAVAILABLE")
        .output_contains("would wait past the test timeout");
    if took > Duration::from_secs(25) {
        out.fail(&format!("the run took {took:?}"));
    }
    assert_eq!(llm.request_count(), 1);
}

/// Before: 6 tests against a failing LLM made 18 requests (3 attempts per call). Now the run
/// stops calling after 3 failed calls, says so once, and every test still fails as LLM
/// UNAVAILABLE.
#[test]
fn a_run_stops_calling_an_llm_that_failed_three_times_in_a_row() {
    let llm = FakeLlm::start();
    llm.always_on_contains(
        "",
        Reply::status(503, r#"{"error":{"message":"down"}}"#).retry_after("0"),
    );
    let scenario: String = (1..=6)
        .map(|i| format!("test: t{i}\n  open the app\n\n"))
        .collect();
    let out = Test::new()
        .config(&config(&llm, 20))
        .page("index.html", PAGE)
        .scenario("scenarios/app.steps", &scenario)
        .args(&["run", "-j", "1"])
        .run()
        .assert_exit(3)
        .stdout_line("0 passed, 6 failed")
        .stdout_contains("the LLM failed 3 times in a row: the rest of the run made no LLM calls")
        .output_contains("no more calls in this run");
    assert_eq!(
        llm.request_count(),
        9,
        "3 calls of 3 attempts, then none: {}",
        out.stdout()
    );
}

/// Step code's own waits with no timeout (`timeout: 0`) end at the test's deadline too: an event
/// that never comes, and a request to a server that never answers.
#[test]
fn waits_without_a_timeout_of_their_own_end_at_the_test_timeout() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        // Accepts and holds every connection, answering nothing.
        let held: Vec<_> = listener.incoming().collect();
        drop(held);
    });
    let waits = [
        "await page.waitForEvent('popup', { timeout: 0 });".to_owned(),
        format!("await request.get('http://127.0.0.1:{port}/slow', {{ timeout: 0 }});"),
    ];
    for wait in waits {
        let code = format!("async function step(page) {{\n  await page.goto('/');\n  {wait}\n}}");
        let started = Instant::now();
        let out = Test::new()
            .config(&format!(
                "[browser]\nallowed_origins = [\"http://127.0.0.1:{port}\"]\n"
            ))
            .page("index.html", PAGE)
            .scenario("scenarios/app.steps", "test: waits\n  wait forever\n")
            .cached("scenarios/app.steps", "waits", "wait forever", 1, &code)
            .args(&["replay", "--strict", "--test-timeout", "3"])
            .run();
        let took = started.elapsed();
        let out = out
            .assert_exit(1)
            .stdout_contains("test timeout of 3s exceeded");
        if took > Duration::from_secs(60) {
            out.fail(&format!(
                "{wait}: the run took {took:?}; the test timeout is 3 s"
            ));
        }
    }
}
