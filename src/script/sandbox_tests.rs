use std::cell::RefCell;

use serde_json::{Value as Json, json};

use super::*;

/// How the recording host answers a call: `(method, params)` → the reply JSON.
type Answer = Box<dyn Fn(&str, &Json) -> Json>;

/// A host that records every call and answers from a closure, so the prelude and its
/// argument handling are tested without a browser.
struct RecordingHost {
    calls: RefCell<Vec<(u32, String, Json)>>,
    logs: RefCell<Vec<String>>,
    steps_ended: Cell<u32>,
    answer: Answer,
}

impl RecordingHost {
    fn answering(answer: impl Fn(&str, &Json) -> Json + 'static) -> Rc<Self> {
        Rc::new(Self {
            calls: RefCell::new(Vec::new()),
            logs: RefCell::new(Vec::new()),
            steps_ended: Cell::new(0),
            answer: Box::new(answer),
        })
    }

    fn calls(&self) -> Vec<(u32, String, Json)> {
        self.calls.borrow().clone()
    }
}

impl Host for RecordingHost {
    fn call(&self, page_id: u32, method: &str, params: &str) -> String {
        let params: Json = serde_json::from_str(params).expect("the prelude sends JSON");
        let reply = (self.answer)(method, &params);
        self.calls
            .borrow_mut()
            .push((page_id, method.to_owned(), params));
        reply.to_string()
    }

    fn push_log(&self, level: &str, message: &str) {
        self.logs.borrow_mut().push(format!("{level}: {message}"));
    }

    fn host_time(&self) -> Duration {
        Duration::ZERO
    }

    fn end_step(&self) -> Result<(), StepFailure> {
        self.steps_ended.set(self.steps_ended.get() + 1);
        Ok(())
    }
}

fn sandbox() -> Sandbox {
    Sandbox::new(Limits::new(Duration::from_secs(5))).unwrap()
}

fn ok(_: &str, _: &Json) -> Json {
    json!({ "value": {} })
}

#[test]
fn locator_actions_reach_the_host_as_playwright_protocol_calls() {
    let host = RecordingHost::answering(ok);
    sandbox()
        .run_step(
            "async function step(page) {\n\
               await page.getByRole('button', { name: 'Save' }).click();\n\
               await page.getByPlaceholder('What needs to be done?').fill('buy milk', { timeout: 1234 });\n\
             }",
            &host,
        )
        .unwrap();
    let calls = host.calls();
    assert_eq!(calls.len(), 2, "{calls:#?}");
    let (page, method, params) = &calls[0];
    assert_eq!((*page, method.as_str()), (0, "frame.click"));
    assert_eq!(params["selector"], "internal:role=button[name=\"Save\"i]");
    assert_eq!(params["strict"], true);
    assert_eq!(params["timeout"], 5000.0, "the action timeout by default");
    let (_, method, params) = &calls[1];
    assert_eq!(method, "frame.fill");
    assert_eq!(
        params["selector"],
        "internal:attr=[placeholder=\"What needs to be done?\"i]"
    );
    assert_eq!(params["value"], "buy milk");
    assert_eq!(params["timeout"], 1234.0, "an explicit timeout wins");
    assert_eq!(host.steps_ended.get(), 1);
}

#[test]
fn web_first_assertions_are_one_server_side_expect() {
    let host = RecordingHost::answering(ok);
    sandbox()
        .run_step(
            "async function step(page) {\n\
               await expect(page.getByTestId('todo-count')).not.toHaveText('2 items left');\n\
             }",
            &host,
        )
        .unwrap();
    let calls = host.calls();
    let (_, method, params) = &calls[0];
    assert_eq!(method, "frame.expect");
    assert_eq!(params["expression"], "to.have.text");
    assert_eq!(params["isNot"], true);
    assert_eq!(
        params["selector"],
        "internal:testid=[data-testid=\"todo-count\"s]"
    );
    assert!(
        params.to_string().contains("2 items left"),
        "the expected text is sent: {params}"
    );
}

#[test]
fn a_huge_thrown_message_is_cut_to_16_kib() {
    // 8 MB, not the 40 MB of the report: QuickJS's 64 MiB heap must hold the string and the
    // copies made while it is thrown and read.
    for (code, starts) in [
        (
            "async function step(page) { throw new Error('x'.repeat(8_000_000)); }",
            "Error: xxx",
        ),
        (
            "async function step(page) { throw 'y'.repeat(8_000_000); }",
            "step code threw yyy",
        ),
    ] {
        let host = RecordingHost::answering(ok);
        let failure = sandbox().run_step(code, &host).unwrap_err();
        assert_eq!(failure.kind, FailureKind::FailedCheck);
        assert!(
            failure.message.starts_with(starts),
            "{}",
            &failure.message[..40]
        );
        let marker = failure.message.rfind('…').expect("a cut marker");
        assert!(marker <= 16 * 1024, "{marker}");
        assert!(
            failure.message[marker..].ends_with(" bytes cut"),
            "{}",
            &failure.message[marker..]
        );
        assert!(failure.message.len() <= 16 * 1024 + 40);
    }
}

#[test]
fn huge_console_lines_are_cut_before_the_host_keeps_them() {
    let host = RecordingHost::answering(ok);
    sandbox()
        .run_step(
            "async function step(page) { console.log('z'.repeat(1_000_000)); }",
            &host,
        )
        .unwrap();
    let logs = host.logs.borrow();
    assert_eq!(logs.len(), 1);
    assert_eq!(
        logs[0],
        format!("log: {}… 983616 bytes cut", "z".repeat(16 * 1024))
    );
}

#[test]
fn a_check_the_host_refuses_is_a_failed_check_with_playwrights_message() {
    let host = RecordingHost::answering(|method, _| {
        assert_eq!(method, "frame.expect");
        json!({ "error": {
            "kind": "check",
            "message": "expect failed",
            "log": ["waiting for getByTestId('todo-count')"],
            // The host renders the received value as Playwright prints it.
            "received": "\"2 items left\"",
        }})
    });
    let failure = sandbox()
        .run_step(
            "async function step(page) {\n\
               await expect(page.getByTestId('todo-count')).toHaveText('1 item left');\n\
             }",
            &host,
        )
        .unwrap_err();
    assert_eq!(failure.kind, FailureKind::FailedCheck);
    for line in [
        "expect(locator).toHaveText(expected) failed",
        "Locator:  getByTestId('todo-count')",
        "Expected: \"1 item left\"",
        "Received: \"2 items left\"",
        "Timeout:  5000ms",
        "waiting for getByTestId('todo-count')",
    ] {
        assert!(
            failure.message.contains(line),
            "{line:?} missing in:\n{}",
            failure.message
        );
    }
    assert_eq!(failure.code_line, Some(2));
}

#[test]
fn host_error_kinds_become_failure_kinds() {
    for (kind, expected) in [
        ("timeout", FailureKind::Timeout),
        ("strict", FailureKind::StrictMode),
        ("crash", FailureKind::Crash),
        ("script", FailureKind::Script),
    ] {
        let host = RecordingHost::answering(
            move |_, _| json!({ "error": { "kind": kind, "message": "Timeout 5000ms exceeded." } }),
        );
        let failure = sandbox()
            .run_step(
                "async function step(page) { await page.getByText('Add').click(); }",
                &host,
            )
            .unwrap_err();
        assert_eq!(failure.kind, expected, "{kind}");
        assert!(
            failure
                .message
                .starts_with("locator.click: Timeout 5000ms exceeded."),
            "{}",
            failure.message
        );
    }
}

#[test]
fn what_step_code_throws_itself_is_a_failed_check_and_its_own_bugs_are_script_errors() {
    let host = RecordingHost::answering(ok);
    let thrown = sandbox()
        .run_step(
            "async function step(page) { throw new Error('nope'); }",
            &host,
        )
        .unwrap_err();
    assert_eq!(thrown.kind, FailureKind::FailedCheck);
    assert_eq!(thrown.message, "Error: nope");
    let bug = sandbox()
        .run_step("async function step(page) { await pgae.goto('/'); }", &host)
        .unwrap_err();
    assert_eq!(bug.kind, FailureKind::Script);
    assert!(bug.message.starts_with("ReferenceError"), "{}", bug.message);
}

#[test]
fn the_sandbox_offers_no_way_out() {
    for code in [
        "async function step(page) { require('fs'); }",
        "async function step(page) { await fetch('http://127.0.0.1/'); }",
        "async function step(page) { process.exit(1); }",
        "async function step(page) { setTimeout(() => {}, 10); }",
    ] {
        let host = RecordingHost::answering(ok);
        let failure = sandbox().run_step(code, &host).unwrap_err();
        assert_eq!(
            failure.kind,
            FailureKind::Script,
            "{code}: {}",
            failure.message
        );
        assert!(host.calls().is_empty(), "{code}");
    }
}

#[test]
fn aria_ref_selectors_and_fixed_waits_are_refused_before_reaching_the_page() {
    for (code, message) in [
        (
            "await page.locator('aria-ref=e12').click();",
            "page.locator: aria-ref= selectors are not available in step code",
        ),
        (
            "await page.getByRole('list').locator('li >> aria-ref=e3').click();",
            "locator.locator: aria-ref= selectors are not available in step code",
        ),
        (
            "await page.frameLocator('aria-ref=e7').getByText('Pay').click();",
            "page.frameLocator: aria-ref= selectors are not available in step code",
        ),
        (
            "await page.waitForTimeout(500);",
            "page.waitForTimeout() is not available in step code: fixed waits",
        ),
    ] {
        let host = RecordingHost::answering(ok);
        let failure = sandbox()
            .run_step(&format!("async function step(page) {{ {code} }}"), &host)
            .unwrap_err();
        assert_eq!(failure.kind, FailureKind::Script, "{code}");
        assert!(
            failure.message.contains(message),
            "{code}: {}",
            failure.message
        );
        assert!(host.calls().is_empty(), "{code} reached the host");
    }
    // A selector that merely mentions the word is a selector like any other.
    let host = RecordingHost::answering(ok);
    sandbox()
        .run_step(
            "async function step(page) { await page.locator('[data-x=\"aria-ref=e1\"]').click(); }",
            &host,
        )
        .unwrap();
    assert_eq!(host.calls()[0].2["selector"], "[data-x=\"aria-ref=e1\"]");
}

#[test]
fn vars_are_frozen_and_a_missing_one_is_a_script_error() {
    let host = RecordingHost::answering(ok);
    let sandbox = sandbox().with_vars(BTreeMap::from([("user".into(), "alice".into())]));
    let run = |code: &str| sandbox.run_step(code, &host);
    run("async function step(page) { if (vars.user !== 'alice' || !Object.isFrozen(vars)) throw new Error('bad'); }")
        .unwrap();
    let missing = run("async function step(page) { return vars.PASSWORD; }").unwrap_err();
    let expected = "TypeError: vars.PASSWORD has no value: the step names no ${PASSWORD}";
    assert!(missing.message.starts_with(expected), "{missing:?}");
    assert_eq!(missing.kind, FailureKind::Script, "{missing:?}");
    let set = run("async function step(page) { vars.user = 'bob'; }").unwrap_err();
    assert!(set.message.contains("vars is frozen"), "{set:?}");
}

#[test]
fn a_gherkin_doc_string_and_data_table_are_frozen_vars_of_their_step_only() {
    let host = RecordingHost::answering(ok);
    let sandbox = sandbox().with_vars(BTreeMap::from([("user".into(), "alice".into())]));
    let doc = StepArgument::DocString("line 1\nline 2".into());
    sandbox
        .run_step_with(
            "async function step(page) { if (vars.docString !== 'line 1\\nline 2' || vars.user !== 'alice') throw new Error('bad'); }",
            &host,
            Some(&doc),
        )
        .unwrap();
    let table = StepArgument::DataTable(vec![
        vec!["title".into(), "done".into()],
        vec!["milk".into(), "no".into()],
    ]);
    let code = "async function step(page) {
        if (vars.dataTable.length !== 2 || vars.dataTable[1][0] !== 'milk') throw new Error('bad');
        if (!Object.isFrozen(vars.dataTable) || !Object.isFrozen(vars.dataTable[1])) throw new Error('not frozen');
        vars.dataTable[1][0] = 'eggs';
        if (vars.dataTable[1][0] !== 'milk') throw new Error('changed');
    }";
    sandbox.run_step_with(code, &host, Some(&table)).unwrap();
    // Another step does not see it.
    let gone = sandbox
        .run_step(
            "async function step(page) { return vars.dataTable; }",
            &host,
        )
        .unwrap_err();
    assert!(
        gone.message.contains("vars.dataTable has no value"),
        "{gone:?}"
    );
}

#[test]
fn console_output_goes_to_the_host_log() {
    let host = RecordingHost::answering(ok);
    sandbox()
        .run_step(
            "async function step(page) { console.log('hello', 42); console.error('bad'); }",
            &host,
        )
        .unwrap();
    assert_eq!(*host.logs.borrow(), ["log: hello 42", "error: bad"]);
}

#[test]
fn step_line_reads_quickjs_positions() {
    assert_eq!(step_line("    at step (step.js:3:5)\n"), Some(3));
    assert_eq!(step_line("at <eval> (prelude.js:9)"), None);
}

#[test]
fn api_listing_names_the_binding_methods() {
    let listing = api_listing().unwrap();
    for expected in [
        "page.goto(url, options)",
        "page.getByRole(role, options)",
        "page.close()  (refused: not available in step code)",
        "locator.click(options)",
        "expect.toHaveText(expected, options)",
        "expect.not",
        "dialog.accept(promptText)",
        "page.waitForTimeout(timeout)  (refused: not available in step code)",
    ] {
        assert!(
            listing.lines().any(|l| l == expected),
            "{expected} missing in:\n{listing}"
        );
    }
    assert!(!listing.contains("._"), "private members leak:\n{listing}");
}

/// docs/step-api.md publishes the listing; regenerate with `UPDATE_API_DOC=1 cargo test`.
#[test]
fn published_api_listing_is_current() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/step-api.md");
    let expected = api_document(&api_listing().unwrap());
    if std::env::var_os("UPDATE_API_DOC").is_some() {
        std::fs::write(&path, &expected).unwrap();
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/step-api.md is out of date: run `UPDATE_API_DOC=1 cargo test --lib published_api`"
    );
}

#[test]
fn check_accepts_a_step_function_and_rejects_the_rest() {
    let limits = Limits {
        js_time: Duration::from_millis(300),
        ..Limits::new(Duration::from_secs(1))
    };
    let sandbox = Sandbox::new(limits).unwrap();
    sandbox
        .check("async function step(page) { await page.goto('/'); }")
        .unwrap();
    let missing = sandbox.check("async function stp(page) {}").unwrap_err();
    assert_eq!(missing.kind, FailureKind::Script);
    assert!(
        missing.message.contains("must define"),
        "{}",
        missing.message
    );
    let syntax = sandbox.check("async function step(page) {").unwrap_err();
    assert_eq!(syntax.kind, FailureKind::Script);
    assert!(
        syntax.message.starts_with("SyntaxError"),
        "{}",
        syntax.message
    );
    let runaway = sandbox.check("while (true) {}").unwrap_err();
    assert!(runaway.message.contains("stopped"), "{}", runaway.message);
}

#[test]
fn limits_scale_with_action_timeout() {
    let limits = Limits::new(Duration::from_secs(5));
    assert_eq!(limits.js_time, Duration::from_secs(10));
    assert_eq!(limits.navigation_timeout, Duration::from_secs(30));
    let long = Limits::new(Duration::from_secs(40));
    assert_eq!(long.js_time, Duration::from_secs(40));
    assert_eq!(long.navigation_timeout, Duration::from_secs(40));
}
