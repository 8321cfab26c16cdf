//! The built-in generator end to end: the real binary, a real headless Chromium, the demo app
//! served on 127.0.0.1 — no `[llm]` at all, and a mixed suite where the scripted fake LLM is
//! asked only for the steps the built-in generator declines.

use crate::support::Test;
use crate::support::fake_llm::{FakeLlm, Reply};

const TODO: &str = include_str!("../../scenarios/todo.steps");
const LOGIN: &str = include_str!("../../scenarios/login.steps");

/// A project of the demo app and its two scenarios, cache empty, the built-in generator on.
fn demo() -> Test {
    Test::new()
        .config("[vars]\nDEMO_USER = \"alice\"\n")
        .env("DEMO_PASSWORD", "secret")
        .env("PRETTYPLAY_GENERATE_BUILTIN", "first")
        .scenario("scenarios/todo.steps", TODO)
        .scenario("scenarios/login.steps", LOGIN)
        .page("index.html", include_str!("../../demo/index.html"))
        .page("app.js", include_str!("../../demo/app.js"))
        .page("style.css", include_str!("../../demo/style.css"))
        .page("login.html", include_str!("../../demo/login.html"))
}

#[test]
fn the_demo_suite_runs_with_no_llm_and_its_cache_is_written_by_builtin() {
    let out = demo()
        .args(&["run", "-j", "1"])
        .run()
        .assert_exit(0)
        .stdout_line("5 passed, 0 failed");
    for (file, entries) in [
        ("cache/scenarios/todo.steps.toml", 20),
        ("cache/scenarios/login.steps.toml", 8),
    ] {
        let text = out.read(file);
        assert!(text.starts_with("format = 5\n"), "{text}");
        // A sentence said again in another test reuses the code the built-in generator wrote
        // for it (`[generate] reuse`); either way no LLM wrote anything.
        assert_eq!(
            text.matches("by = \"builtin\"").count() + text.matches("by = \"reused\"").count(),
            entries,
            "{text}"
        );
        assert!(!text.contains("by = \"llm\""), "{text}");
    }
    let login = out.read("cache/scenarios/login.steps.toml");
    assert!(login.contains(".fill(vars.DEMO_PASSWORD);"), "{login}");
    assert!(!login.contains("secret"), "never the value: {login}");
}

#[test]
fn a_step_it_declines_without_an_llm_fails_the_test_with_exit_1() {
    demo()
        .scenario(
            "scenarios/todo.steps",
            "test: t\n  open the app\n  make the list pretty\n",
        )
        .args(&["run", "scenarios/todo.steps"])
        .run()
        .assert_exit(1)
        .stdout_contains(
            "no LLM configured and the built-in generator cannot write this step: the sentence \
             is none of the built-in shapes",
        )
        .stdout_contains("docs/builtin.md");
}

#[test]
fn with_an_llm_the_fake_is_asked_only_for_the_declined_steps() {
    let llm = FakeLlm::start();
    llm.reply(Reply::text(
        "```js\nasync function step(page) {\n  await page.getByRole('checkbox', { name: 'buy milk' }).check();\n}\n```",
    ));
    let out = demo()
        .config(&format!(
            "[vars]\nDEMO_USER = \"alice\"\n[llm]\nprovider = \"openai\"\nmodel = \"fake\"\n\
             base_url = \"{}\"\n",
            llm.base_url()
        ))
        .scenario(
            "scenarios/todo.steps",
            "test: t\n  open the app\n  type \"buy milk\" into the new todo field and press Enter\n  \
             make the first todo done\n  \"buy milk\" is checked\n",
        )
        .args(&["run", "scenarios/todo.steps", "--events", "events.jsonl"])
        .run()
        .assert_exit(0)
        .stdout_line("steps: 0 cached, 4 generated, 0 healed (3 by the built-in generator)");
    let requests = llm.requests();
    assert_eq!(requests.len(), 1, "one request, for the declined step");
    assert!(
        requests[0]
            .user_text()
            .contains("STEP:\nmake the first todo done"),
        "{}",
        requests[0].user_text()
    );
    let cache = out.read("cache/scenarios/todo.steps.toml");
    assert_eq!(cache.matches("by = \"builtin\"").count(), 3, "{cache}");
    assert_eq!(cache.matches("by = \"llm\"").count(), 1, "{cache}");
    let authors: Vec<String> = out
        .read("events.jsonl")
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap())
        .filter(|event| event["event"] == "step_passed")
        .map(|event| format!("{} {}", event["source"], event["by"]))
        .collect();
    assert_eq!(
        authors,
        [
            r#""generated" "builtin""#,
            r#""generated" "builtin""#,
            r#""generated" "llm""#,
            r#""generated" "builtin""#,
        ],
        "who wrote each step, in the events"
    );
    let finished = out.read("events.jsonl");
    assert!(finished.contains(r#""builtin_steps":3"#), "{finished}");
}

/// A form with one Add button and a list with two Delete buttons, for `explain`.
const FORM: &str = "<!doctype html><title>form</title>\
    <label>Item <input name=item></label><button onclick=\"this.textContent='Added'\">Add</button>\
    <ul><li>milk <button>Delete</button></li><li>eggs <button>Delete</button></li></ul>";

#[test]
fn explain_prints_the_code_the_lines_it_matched_and_runs_it() {
    let out = Test::new()
        .page("form.html", FORM)
        .args(&[
            "explain",
            "click the Add button",
            "--url",
            "/form.html",
            "-v",
            "--execute",
        ])
        .run()
        .assert_exit(0)
        .stdout_contains(
            "async function step(page) {\n  await page.getByRole('button', { name: 'Add' }).click();\n}\n",
        )
        .stdout_contains("\nmatched in the snapshot of http://127.0.0.1:")
        .stdout_contains("/form.html:\n  - button \"Add\"\n")
        .stdout_contains("\nexecuted: passed\n");
    assert!(
        !out.stdout().contains("Delete"),
        "only the matched line: {}",
        out.stdout()
    );
}

#[test]
fn explain_declines_an_ambiguous_target_with_exit_1() {
    // No --url: the base URL, whose index.html is the form.
    Test::new()
        .page("index.html", FORM)
        .args(&["explain", "click Delete"])
        .run()
        .assert_exit(1)
        .stdout_contains("declined: 2 elements on the page could be \"Delete\"");
}

#[test]
fn explain_says_which_page_it_could_not_open() {
    Test::new()
        .page("index.html", FORM)
        .args(&["explain", "click the Add button", "--url", "/missing.html"])
        .run()
        .assert_exit(2)
        .stderr_contains("cannot open http://127.0.0.1:")
        .stderr_contains("/missing.html to explain the sentence on it")
        .stderr_contains("HTTP 404");
    // Another origin is outside [browser] allowed_origins.
    Test::new()
        .page("index.html", FORM)
        .args(&["explain", "click Add", "--url", "http://localhost:9/"])
        .run()
        .assert_exit(2)
        .stderr_contains("blocked by [browser] allowed_origins");
}

#[test]
fn explain_a_path_without_a_base_url_is_a_usage_error() {
    Test::new()
        .args(&["explain", "click Add", "--url", "/form.html"])
        .run()
        .assert_exit(2)
        .stderr_contains("--url /form.html needs a base URL");
}

/// The built-in's check of a quoted text is exact to the sentence: "3 items left" is the whole
/// text of an element, never part of a longer number or words of a longer text.
#[test]
fn explain_checks_a_quoted_text_whole() {
    let says = "the page says \"3 items left\"";
    let explain = |page: &str| {
        Test::new()
            .args(&[
                "explain",
                "--url",
                &format!("data:text/html,{page}"),
                says,
                "--execute",
            ])
            .run()
    };
    let out = explain("<p>13 items left</p>").assert_exit(1);
    assert!(
        out.stdout().contains("executed: failed"),
        "{}",
        out.stdout()
    );
    explain("<p>3 items left</p>")
        .assert_exit(0)
        .stdout_contains("getByText('3 items left', { exact: true })")
        .stdout_contains("\nexecuted: passed\n");
    // A quoted text is whole (issue 41): words of a longer text are another text.
    let out = explain("<p>Only 3 items left today</p>").assert_exit(1);
    assert!(
        out.stdout().contains("executed: failed"),
        "{}",
        out.stdout()
    );
}

/// An app served under a sub-path, its base URL with a path and a query: "open the app" opens
/// exactly that URL, never the host's root (where this site serves another page).
#[test]
fn open_the_app_opens_a_base_url_with_a_path_and_query_exactly() {
    const APP: &str = "<!doctype html><title>app</title><h1>The app</h1>\
        <p id=\"lang\"></p><script>document.getElementById('lang').textContent = \
        'lang ' + new URLSearchParams(location.search).get('lang');</script>";
    let out = Test::new()
        .page("index.html", "<!doctype html><title>root</title><h1>Host root</h1>")
        .page("app/index.html", APP)
        .base_path("app/?lang=en")
        .scenario(
            "scenarios/app.steps",
            "test: open\n  open the app\n  the page shows \"The app\"\n  the page shows \"lang en\"\n",
        )
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    let cache = out.read("cache/scenarios/app.steps.toml");
    assert!(cache.contains("await page.goto('');"), "{cache}");
    // The cached code replays there too.
    out.again()
        .page(
            "index.html",
            "<!doctype html><title>root</title><h1>Host root</h1>",
        )
        .page("app/index.html", APP)
        .base_path("app/?lang=en")
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0);
}

/// A page with an alert, a confirm and a prompt, whose answers it shows, and a list of items
/// with checkboxes, two of them ticked.
const QUALIFIED: &str = "<!doctype html><title>qualified</title>\
    <button onclick=\"alert('Hi there')\">Alert</button>\
    <button onclick=\"document.getElementById('r').textContent = \
    confirm('Sure?') ? 'confirmed' : 'cancelled'\">Confirm</button>\
    <button onclick=\"document.getElementById('r').textContent = 'entered ' + \
    prompt('Name?')\">Prompt</button><p id=r></p>\
    <ul><li><input type=checkbox aria-label=a> a</li>\
    <li><input type=checkbox aria-label=b checked> b</li>\
    <li><input type=checkbox aria-label=c checked> c</li></ul>";

/// A dialog is checked for the kind and the message the sentence names, and a word of state
/// narrows the items it counts or acts on; had a word been dropped, `uncheck the first completed
/// todo` would act on "a" and the checks after it would fail.
#[test]
fn dialogs_are_checked_for_what_they_say_and_states_narrow_items() {
    let out = Test::new()
        .page("index.html", QUALIFIED)
        .scenario(
            "scenarios/qualified.steps",
            "test: dialogs\n  open the app\n  click \"Alert\" and the alert says \"Hi there\"\n  \
             click \"Confirm\" and accept the confirm saying \"Sure?\"\n  \
             the page shows \"confirmed\"\n  \
             click \"Prompt\" and answer the prompt saying \"Name?\" with \"Bob\"\n  \
             the page shows \"entered Bob\"\n\
             test: items\n  open the app\n  the completed list has 2 items\n  \
             uncheck the first completed todo\n  the \"b\" checkbox is unchecked\n  \
             the \"c\" checkbox is checked\n  the completed list has 1 item\n",
        )
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .args(&["run", "-j", "1"])
        .run()
        .assert_exit(0)
        .stdout_line("2 passed, 0 failed");
    let cache = out.read("cache/scenarios/qualified.steps.toml");
    assert!(
        cache.contains("expect(opened.type()).toBe('confirm');"),
        "{cache}"
    );
    assert!(
        cache.contains("expect(opened.message()).toBe('Hi there');"),
        "{cache}"
    );
    assert!(cache.contains("{ checked: true }"), "{cache}");
}

/// A dialog of another kind than the sentence names, or with another message, fails the step;
/// a sentence with a word no part of the shape read declines, and no code is cached for any.
#[test]
fn a_dialog_of_another_kind_or_message_fails_and_an_unread_word_declines() {
    let out = Test::new()
        .page("index.html", QUALIFIED)
        .scenario(
            "scenarios/qualified.steps",
            "test: kind\n  open the app\n  click \"Confirm\" and accept the alert\n\
             test: message\n  open the app\n  click \"Alert\" and the alert says \"Hi\"\n\
             test: unread\n  open the app\n  the list has 3 visible items\n",
        )
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .args(&["run", "-j", "1"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 3 failed")
        // Each fails on the check of what the sentence said, not on anything else.
        .stdout_contains("Expected: \"alert\"")
        .stdout_contains("Received: \"confirm\"")
        .stdout_contains("Expected: \"Hi\"")
        .stdout_contains("Received: \"Hi there\"")
        .stdout_contains("did not read \"visible\"");
    let cache = out.read("cache/scenarios/qualified.steps.toml");
    for sentence in ["accept the alert", "says \\\"Hi\\\"", "visible items"] {
        assert!(!cache.contains(sentence), "{sentence}: {cache}");
    }
}
