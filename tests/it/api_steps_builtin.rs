//! HTTP sentences end to end with no LLM (`PRETTYPLAY_GENERATE_BUILTIN=only`): the built-in
//! generator writes `page.request` code for `send POST ...`, `GET ... answers N`, `the API ...
//! lists "X"` and `delete ...`, which runs in a real headless Chromium against the demo tasks
//! app's JSON API (served under `/api/` by the harness's server), and its checks are proven by
//! the mutation proof before they are cached.

use std::collections::BTreeMap;

use crate::support::{Test, proofs_as_text};

const CACHE: &str = "cache/scenarios/api.steps.toml";

/// The demo site and its API, with one test of `steps`, run with no LLM.
fn project(steps: &str) -> Test {
    Test::new()
        .config("[browser]\ntimeout = 10\n[vars]\nID = \"1\"\n")
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .site_from_repo("demo")
        .scenario(
            "scenarios/api.steps",
            &format!("test: the API keeps todos\n{steps}"),
        )
        .args(&["run", "-j", "1"])
}

/// Each cached step's `proof`, by sentence (`-` when it has none).
fn proofs(cache: &str) -> BTreeMap<String, String> {
    let cache: toml::Table = toml::from_str(cache).expect("the cache is TOML");
    cache["steps"]
        .as_array()
        .expect("[[steps]]")
        .iter()
        .map(|entry| {
            (
                entry["step"].as_str().expect("step").to_owned(),
                entry
                    .get("proof")
                    .and_then(|p| p.as_str())
                    .unwrap_or("-")
                    .to_owned(),
            )
        })
        .collect()
}

#[test]
fn requests_seed_check_and_clean_up_and_their_checks_are_proven() {
    let seed = "send POST /api/todos with {\"title\": \"milk\"}";
    let listed = "the API /api/todos lists \"milk\"";
    let health = "GET /api/health answers 200";
    let clean_up = "delete /api/todos/${ID}";
    let gone = "the API /api/todos does not list \"milk\"";
    let out = project(&format!(
        "  open /tasks/\n  {seed}\n  {listed}\n  {health}\n  {clean_up}\n  {gone}\n"
    ))
    .run()
    .assert_exit(0)
    .stdout_line("1 passed, 0 failed");
    let cache = proofs_as_text(&out.read(CACHE));
    assert_eq!(cache.matches("by = \"builtin\"").count(), 6, "{cache}");
    assert!(
        cache.contains("page.request.post('/api/todos', { data: { title: 'milk' } })"),
        "{cache}"
    );
    assert!(
        cache.contains("page.request.delete(`/api/todos/${encodeURIComponent(vars.ID)}`)"),
        "{cache}"
    );
    // The requests that act are never run again; the status check fails under another status
    // of its class, the listing under every near miss of "milk" in the body's values. Nothing
    // the proof tries contradicts an absence in an answer, so that check is cached unproven.
    let proofs = proofs(&cache);
    let expected = [
        (seed, "none: the step sends a POST request"),
        (
            listed,
            "proven: response-prefixed, response-suffixed, response-changed",
        ),
        (health, "proven: status-changed"),
        (clean_up, "none: the step sends a DELETE request"),
        (gone, "none: no mutation contradicts what it checks"),
    ];
    for (step, proof) in expected {
        assert_eq!(proofs[step], proof, "{step}\n{cache}");
    }
}

#[test]
fn a_status_the_api_does_not_answer_fails_the_step_and_is_not_cached() {
    let out = project("  GET /api/health answers 404\n")
        .run()
        .assert_exit(1)
        .stdout_contains("GET /api/health answers 404")
        .stdout_contains("Expected: 404")
        .stdout_contains("Received: 200");
    assert!(
        !out.exists(CACHE) || !out.read(CACHE).contains("answers 404"),
        "a failed step is never cached"
    );
}

#[test]
fn a_seed_the_server_refuses_fails_the_step() {
    project("  send POST /api/todos with {\"title\": \"  \"}\n")
        .run()
        .assert_exit(1)
        .stdout_contains("expect(response).toBeOK() failed")
        .stdout_contains("Received: 400 Bad Request");
}

#[test]
fn a_value_the_api_holds_only_inside_other_values_is_not_listed() {
    project(
        "  send POST /api/todos with {\"title\": \"oat milk\"}\n  \
         send POST /api/todos with {\"title\": \"milk1\"}\n  \
         the API /api/todos lists \"milk\"\n",
    )
    .run()
    .assert_exit(1)
    .stdout_contains("Expected value: \"milk\"")
    .stdout_contains("\"oat milk\"");
}

#[test]
fn list_check_reads_http_sentences_and_names_a_body_that_is_not_json() {
    Test::new()
        .scenario(
            "scenarios/api.steps",
            "test: t\n  send POST /api/todos with {\"title\": \"milk\"}\n  \
             GET /api/health answers 200\n  the API /api/todos lists \"milk\"\n  \
             delete /api/todos/${ID}\n  send POST /api/todos with {\"title\": milk}\n",
        )
        .args(&["list", "--check"])
        .run()
        .assert_exit(1)
        .stdout_contains(
            "scenarios/api.steps:6: send POST /api/todos with {\"title\": milk}: the body is not \
             valid JSON: expected value at line 1 column 11\n",
        )
        .stdout_contains("4 of 5 sentence(s) without cached code read by the built-in generator");
}

#[test]
fn explain_prints_the_request_code() {
    Test::new()
        .site_from_repo("demo")
        .args(&["explain", "GET /api/health answers 200"])
        .run()
        .assert_exit(0)
        .stdout_contains(
            "async function step(page) {\n  const response = await page.request.get('/api/health');\n  expect(response.status()).toBe(200);\n}",
        );
}
