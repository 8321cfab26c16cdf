//! What the model is given, measured on the demo: the repository's own scenarios (`scenarios/`)
//! run against the demo app (`demo/`) with no cache, the fake LLM answering every generation
//! request with the proven code of that step from `cache/scenarios/`. Every request is recorded:
//! the size of its stable part (the system part, identical for every generation request) and of
//! its fresh part (the user message, which changes with each step), in characters and in tokens
//! estimated as characters / 4. `--nocapture` shows the figures.

use crate::support::fake_llm::{FakeLlm, RecordedRequest, Reply};
use crate::support::{Output, Test};

/// The demo's scenarios and their proven code, as the repository holds them.
const SCENARIOS: [(&str, &str, &str); 2] = [
    (
        "scenarios/todo.steps",
        include_str!("../../scenarios/todo.steps"),
        include_str!("../../cache/scenarios/todo.steps.toml"),
    ),
    (
        "scenarios/login.steps",
        include_str!("../../scenarios/login.steps"),
        include_str!("../../cache/scenarios/login.steps.toml"),
    ),
];

/// The fresh part of a generation request may not exceed this many estimated tokens in the
/// median (issue 9: the listing sent again with every request made it 2,270 on TodoMVC).
const FRESH_MEDIAN_TOKENS: usize = 1_000;

fn median(values: &[usize]) -> usize {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    match sorted.len() {
        0 => 0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2,
    }
}

/// (step sentence, code) of every entry of a cache file, `[[background]]` ones included.
fn proven_code(cache: &str) -> Vec<(String, String)> {
    let doc: toml::Table = cache.parse().unwrap();
    ["background", "steps"]
        .iter()
        .filter_map(|tables| doc.get(*tables).and_then(toml::Value::as_array))
        .flatten()
        .map(|entry| {
            (
                entry["step"].as_str().unwrap().to_owned(),
                entry["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn is_generation(request: &RecordedRequest) -> bool {
    request
        .system()
        .starts_with("You write the code of one step")
}

/// Runs the demo suite from scratch and returns the run and its generation requests.
fn generate_the_demo_suite() -> (Output, Vec<RecordedRequest>) {
    let llm = FakeLlm::start();
    let mut test = Test::new()
        .config(&format!(
            "[vars]\nDEMO_USER = \"alice\"\n[llm]\nprovider = \"openai\"\nmodel = \"fake\"\nbase_url = \"{}\"\n",
            llm.base_url()
        ))
        .env("DEMO_PASSWORD", "secret")
        .demo_pages();
    for (path, scenario, cache) in SCENARIOS {
        test = test.scenario(path, scenario);
        for (step, code) in proven_code(cache) {
            // The STEP section opens the user message; its blank line ends the sentence.
            // Every reply says most of its input came from the prompt cache, as a server that
            // caches the stable prefix would.
            llm.always_on_contains(
                &format!("STEP:\n{step}\n\n"),
                Reply::text(format!("```js\n{}\n```\n", code.trim_end()))
                    .usage(2500, 40)
                    .cached(2200),
            );
        }
    }
    // Every step asks for its own code, so that every request can be measured: the demo's
    // repeated sentences would otherwise reuse the code generated first ([generate] reuse).
    let out = test
        .env("PRETTYPLAY_GENERATE_REUSE", "false")
        .args(&["run"])
        .run()
        .assert_exit(0);
    let requests = llm.requests();
    assert!(
        requests.iter().all(is_generation),
        "only generation requests are expected on the demo"
    );
    (out, requests)
}

#[test]
fn generation_requests_on_the_demo_have_a_stable_prefix_and_a_small_fresh_part() {
    let (out, requests) = generate_the_demo_suite();
    let steps: usize = SCENARIOS
        .iter()
        .map(|(_, scenario, _)| {
            let parsed = prettyplay::scenario::parse("x.steps", scenario.as_bytes()).unwrap();
            // A background step is generated once for all the tests of its file.
            parsed.background.len() + parsed.tests.iter().map(|t| t.steps.len()).sum::<usize>()
        })
        .sum();
    assert_eq!(requests.len(), steps, "one request per step");
    // The summary splits the input the servers reported into fresh and cached tokens.
    let out = out.output_matches(&format!(
        r"^LLM: {steps} request\(s\), {} tokens in \({} fresh, {} cached\), {} tokens out, \d+\.\d\ds waiting$",
        steps * 2500,
        steps * 300,
        steps * 2200,
        steps * 40
    ));

    let system: Vec<usize> = requests
        .iter()
        .map(|r| r.system().chars().count())
        .collect();
    let fresh: Vec<usize> = requests
        .iter()
        .map(|r| r.user_text().chars().count())
        .collect();
    let first_system = requests[0].system();
    let identical = requests.iter().all(|r| r.system() == first_system);
    eprintln!(
        "demo generation requests: n = {}; stable part (system): {} chars (~{} tokens), identical \
         in every request: {identical}; fresh part (user message): median {} chars (~{} tokens), \
         max {} chars (~{} tokens); whole request median ~{} tokens",
        requests.len(),
        system[0],
        system[0] / 4,
        median(&fresh),
        median(&fresh) / 4,
        fresh.iter().max().copied().unwrap_or(0),
        fresh.iter().max().copied().unwrap_or(0) / 4,
        (median(&fresh) + system[0]) / 4,
    );
    if !identical {
        out.fail("the system part differs between generation requests");
    }
    if median(&fresh) / 4 > FRESH_MEDIAN_TOKENS {
        out.fail(&format!(
            "the median fresh part is ~{} tokens, over {FRESH_MEDIAN_TOKENS}",
            median(&fresh) / 4
        ));
    }
}
