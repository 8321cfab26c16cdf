//! Timing margins end to end, on a page served on 127.0.0.1 whose button appears a while after
//! it loads: a generated step that passed only after waiting most of its timeout is told at once
//! (in the run's output and its JSON report), and a replay whose call runs out its timeout names
//! that timeout, where it is set, and how long the call waited. Waits run in JavaScript
//! (`expect.poll`, `toPass`, `waitForFunction`) and the mutation proof's runs of a check are told too.

use crate::support::Test;
use crate::support::fake_llm::{FakeLlm, Reply};

/// The "Go" button appears 4.5 s after the page's script runs; clicking it says "done".
const SLOW: &str = "<!doctype html><title>slow</title><p id=status>loading</p>\
    <script>setTimeout(() => {\
      const go = document.createElement('button');\
      go.textContent = 'Go';\
      go.onclick = () => { document.getElementById('status').textContent = 'done'; };\
      document.body.append(go);\
    }, 4500);</script>";

const SCENARIO: &str = "test: slow app\n  open the app\n  click Go\n";

fn fenced(code: &str) -> Reply {
    Reply::text(format!(
        "```js\nasync function step(page) {{\n  {code}\n}}\n```"
    ))
}

/// A project whose LLM writes both steps, with a 6 s timeout: the button needs 4.5 s of it.
fn slow_project(llm: &FakeLlm) -> Test {
    Test::new()
        .config(&format!(
            "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n[browser]\ntimeout = 6\n\
             [generate]\nbuiltin = \"off\"\n[llm]\nprovider = \"openai\"\nmodel = \"fake\"\n\
             base_url = \"{}\"\n",
            llm.base_url()
        ))
        .page("index.html", SLOW)
        .scenario("scenarios/slow.steps", SCENARIO)
}

#[test]
fn a_generated_step_that_waited_most_of_its_timeout_is_told_and_a_replay_that_runs_out_names_it() {
    let llm = FakeLlm::start();
    llm.reply(fenced("await page.goto('/');"));
    llm.reply(fenced(
        "await page.getByRole('button', { name: 'Go' }).click();",
    ));
    let out = slow_project(&llm)
        .args(&["run", "--reporter", "list", "--reporter", "json"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    // The button appeared 4.5 s after the page did: more than 60% of the 6 s timeout, however
    // the time was split between writing the code and the click's own wait.
    let warning = out.line_with("WARNING").to_owned();
    assert!(
        warning.contains("step 2 \"click Go\" (generated): waited "),
        "{warning}"
    );
    assert!(
        warning.contains(" of 6 s (the `click` call, counting ",)
            || warning.contains(" of 6 s (the `click` call): "),
        "{warning}"
    );
    assert!(
        warning.contains(
            "replay may time out; raise [browser] timeout or write \"wait until … appears\" \
             before it"
        ),
        "{warning}"
    );
    let events = out.events("prettyplay-report/events.jsonl");
    assert!(
        events.iter().any(|event| event["event"] == "warning"
            && event["message"]
                .as_str()
                .is_some_and(|m| m.contains("replay may time out"))),
        "{events:#?}"
    );
    // Replayed with a timeout the button needs more than, the click runs out of it, and the
    // failure says which timeout that was, where it is set, and how long the call waited.
    let cache = out.read("cache/scenarios/slow.steps.toml");
    let out = slow_project(&llm)
        .write("cache/scenarios/slow.steps.toml", &cache)
        .args(&[
            "replay",
            "--strict",
            "--timeout",
            "2",
            "--reporter",
            "list",
            "--reporter",
            "json",
            "--reporter",
            "html",
            "--reporter",
            "junit",
        ])
        .run()
        .assert_exit(1)
        .stdout_contains(
            "timed out: the `click` call waited its whole 2 s timeout, which is [browser] \
             timeout (in prettyplay.toml; PRETTYPLAY_BROWSER_TIMEOUT or --timeout override it): \
             raise it, or write \"wait until … appears\" before this step",
        );
    let events = out.events("prettyplay-report/events.jsonl");
    let finished = events
        .iter()
        .find(|event| event["event"] == "test_finished")
        .expect("a test_finished event");
    let timed_out = &finished["outcome"]["timed_out"];
    assert_eq!(timed_out["method"], "click", "{finished:#}");
    assert_eq!(timed_out["timeout_ms"], 2000, "{finished:#}");
    assert_eq!(timed_out["setting"], "browser", "{finished:#}");
    assert!(
        timed_out["waited_ms"].as_u64().is_some_and(|ms| ms >= 2000),
        "{finished:#}"
    );
    // The HTML and JUnit reports say it too.
    let said =
        "timed out: the `click` call waited its whole 2 s timeout, which is [browser] timeout";
    let html = out.read("prettyplay-report/index.html");
    assert!(
        html.contains(&format!("<p class=\"note\">{said}")),
        "{html}"
    );
    let junit = out.read("prettyplay-report/junit.xml");
    assert!(junit.contains(said), "{junit}");
}

#[test]
fn a_step_with_room_to_spare_is_not_told() {
    let llm = FakeLlm::start();
    llm.reply(fenced("await page.goto('/');"));
    llm.reply(fenced(
        "await expect(page.locator('#status')).toHaveText('loading');",
    ));
    slow_project(&llm)
        .scenario(
            "scenarios/slow.steps",
            "test: slow app\n  open the app\n  the status says \"loading\"\n",
        )
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .output_not_contains("replay may time out");
}

/// The status turns to "done" 4.5 s after the page's script runs.
const SLOW_STATUS: &str = "<!doctype html><title>slow</title><p id=status>loading</p>\
    <script>setTimeout(() => {\
      document.getElementById('status').textContent = 'done';\
    }, 4500);</script>";

/// Waits that step code runs in JavaScript (`expect.poll`, `expect(...).toPass()`, and
/// `page.waitForFunction`) are judged as a call's wait: each of these steps waits for the page
/// to change 4.5 s after it loads, under a 6 s timeout, and is told.
#[test]
fn waits_run_in_javascript_that_took_most_of_their_timeout_are_told() {
    let waits = [
        (
            "expect.poll",
            SLOW_STATUS,
            "wait until the status is done",
            "await expect.poll(() => page.locator('#status').textContent()).toBe('done');",
        ),
        (
            "expect.toPass",
            SLOW_STATUS,
            "wait until the status is done",
            "await expect(async () => {\n    const text = await \
             page.locator('#status').textContent();\n    if (text !== 'done') throw new \
             Error('not yet');\n  }).toPass();",
        ),
        // A page script is no check, so this one waits before an action.
        (
            "waitForFunction",
            SLOW,
            "click Go",
            "await page.waitForFunction(() => document.querySelector('button') !== null);\n  \
             await page.getByRole('button', { name: 'Go' }).click();",
        ),
    ];
    for (method, page, sentence, code) in waits {
        let llm = FakeLlm::start();
        llm.reply(fenced("await page.goto('/');"));
        llm.reply(fenced(code));
        let out = slow_project(&llm)
            .page("index.html", page)
            .scenario(
                "scenarios/slow.steps",
                &format!("test: slow app\n  open the app\n  {sentence}\n"),
            )
            .args(&["run"])
            .run()
            .assert_exit(0)
            .stdout_line("1 passed, 0 failed");
        let warning = out.line_with("WARNING").to_owned();
        assert!(
            warning.contains(&format!("step 2 \"{sentence}\" (generated): waited "))
                && warning.contains(&format!(" of 6 s (the `{method}` call")),
            "{method}: {warning}"
        );
        assert!(
            warning.contains("replay may time out"),
            "{method}: {warning}"
        );
    }
}

/// The status says "ready"; any change to it that the page did not make itself turns it to
/// "busy", and back to "ready" 4.2 s after the last such change.
const SETTLING: &str = "<!doctype html><title>settling</title><p id=status>ready</p>\
    <script>\
      const status = document.getElementById('status');\
      let own = false;\
      let timer;\
      new MutationObserver(() => {\
        if (own) { own = false; return; }\
        own = true;\
        status.textContent = 'busy';\
        clearTimeout(timer);\
        timer = setTimeout(() => { own = true; status.textContent = 'ready'; }, 14000);\
      }).observe(status, { childList: true, characterData: true, subtree: true });\
    </script>";

/// A check that passed at once in the step but, run again by the mutation proof on the page as
/// it was (restored, which this page answers by being busy for 14 s), waited most of its 15 s
/// timeout: a replay may wait as long, so it is told, and the warning says the wait was in the
/// proof's run. The margins are wide (the notice starts at 9 s) so that a loaded machine's delay
/// between the restore and the re-run cannot take the wait under the notice's threshold.
#[test]
fn a_wait_in_the_proofs_run_on_the_unchanged_page_is_told() {
    let llm = FakeLlm::start();
    llm.reply(fenced("await page.goto('/');"));
    llm.reply(fenced(
        "await expect(page.locator('#status')).toHaveText('ready', { timeout: 15000 });",
    ));
    let out = slow_project(&llm)
        .config(&format!(
            "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n[browser]\ntimeout = 16\n\
             [generate]\nbuiltin = \"off\"\n[llm]\nprovider = \"openai\"\nmodel = \"fake\"\n\
             base_url = \"{}\"\n",
            llm.base_url()
        ))
        .page("index.html", SETTLING)
        .scenario(
            "scenarios/slow.steps",
            "test: ready\n  open the app\n  the status says \"ready\"\n",
        )
        .args(&["run"])
        .run();
    let warning = out.line_with("WARNING").to_owned();
    assert!(
        warning.contains("step 2 \"the status says \"ready\"\" (generated): waited ")
            && warning.contains(
                " of 15 s (the `expect` call, in the mutation proof's run of it on the unchanged \
                 page): replay may time out; raise the `timeout` option"
            ),
        "{warning}\n{}",
        out.stdout()
    );
}
