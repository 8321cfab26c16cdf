//! Issue 41's false greens, end to end: fixture apps of `tests/fixtures/adversarial/` (and the
//! jQuery TodoMVC build with a seeded defect) served on 127.0.0.1 in a real headless Chromium,
//! with a lying scripted LLM ([`liar`]) or with no LLM at all. Each test asserts what issue 41
//! asks for: a defect stays red in `run`, in the next `replay --strict` and in `audit`, the cache
//! is untouched, a likeness of a quoted name is never clicked, a check that creates or waits for
//! its subject is refused. A test that fails because the bug is still there is ignored with its
//! class named; `scripts/false-greens.sh` runs them all and prints the per-class table.
//!
//! Classes here: 1 a heal moves a proven check to another element (an ordering defect), and
//! another test reuses that heal; 2 a vanished "Delete" beside "Delete all"; 3 an `[optional]`
//! "Accept" beside "Accept terms and create account"; 5 a check that creates its subject; 6
//! waits used as checks; 7 an optional step with a check clause; 9 a quoted text shown in
//! capitals; 10 a quoted text with more words around it (found while building class 1); 11 a
//! check whose code writes the page in a script given as a string, or for a sentence said as a
//! check that no built-in shape reads. Class 4 (the demo suite healed by a lying model) is `false_greens_demo`, class 8
//! (the proof's own false reds) `proof_false_reds`.
//!
//! Every run prints a `FIGURE` line ([`figure`]) with its exit code, tally, verdict and whether
//! it healed, which the script collects for the before-and-after figures.

use crate::support::fake_llm::{FakeLlm, classification_of, generation_of};
use crate::support::recording_server::RecordingServer;
use crate::support::{Output, Test, repo_dir};

/// The environment variable that picks the built-in generator's order (the harness turns it off).
pub(crate) const BUILTIN: &str = "PRETTYPLAY_GENERATE_BUILTIN";

/// The verdict a lying model gives every failure.
pub(crate) const ROT: &str = "rot | the page changed | regenerate the step";

/// The default `prettyplay.toml` of the harness, with `extra` appended.
pub(crate) fn config(extra: &str) -> String {
    format!("scenarios = \"scenarios\"\ncache_dir = \"cache\"\n{extra}")
}

/// `[llm]` pointing the `openai` provider at `llm`.
pub(crate) fn llm_section(llm: &FakeLlm) -> String {
    format!(
        "\n[llm]\nprovider = \"openai\"\nmodel = \"fake\"\nbase_url = \"{}\"\n",
        llm.base_url()
    )
}

/// A model's reply: `code` in a ```js block, with a line of prose before it.
pub(crate) fn fenced(code: &str) -> String {
    format!("Here is the step:\n\n```js\n{code}\n```\n")
}

/// `body` (statements) as a step function.
pub(crate) fn step_code(body: &str) -> String {
    format!("async function step(page) {{\n  {body}\n}}")
}

/// A fake LLM that calls every failure of `sentence` rot and answers every request for its code
/// with `code`. Any other request is unexpected and fails the test.
pub(crate) fn liar(sentence: &str, code: &str) -> FakeLlm {
    let llm = FakeLlm::start();
    llm.always_on_contains(&classification_of(sentence), ROT);
    llm.always_on_contains(&generation_of(sentence), fenced(code).as_str());
    llm
}

/// Prints one `FIGURE` line for `scripts/false-greens.sh`: the class, the case, the command,
/// and what the run said (exit code, tally, whether it healed, the failure kind, the verdict).
pub(crate) fn figure(class: &str, case: &str, mode: &str, out: &Output) {
    let stdout = out.stdout();
    let tally = tally(out);
    let healed = if stdout.contains("HEALED ") {
        "HEALED"
    } else {
        "not healed"
    };
    let kind = [
        "PRODUCT DEFECT",
        "HEAL VETOED",
        "INCURABLE",
        "LLM UNAVAILABLE",
    ]
    .into_iter()
    .find(|k| stdout.contains(&format!("  {k}\n")))
    .unwrap_or("-");
    let verdict = stdout
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("verdict:") || l.starts_with("verdict for step"))
        .unwrap_or("-");
    let exit = out
        .status_code()
        .map_or_else(|| "signal".to_owned(), |c| c.to_string());
    let checks = stdout
        .lines()
        .find(|l| l.starts_with("checks: "))
        .unwrap_or("no checks line");
    // What the proof or the failure said, cut to one line: the detail behind the tally.
    let said: String = stdout
        .lines()
        .map(str::trim)
        .find(|l| {
            [
                "vacuous check",
                "cannot fail",
                "no longer passed",
                "did not appear",
            ]
            .iter()
            .any(|needle| l.contains(needle))
        })
        .unwrap_or("-")
        .chars()
        .take(200)
        .collect();
    eprintln!(
        "FIGURE\t{class}\t{case}\t{mode}\texit {exit}\t{tally}\t{checks}\t{healed}\t{kind}\t\
         {verdict}\t{said}"
    );
}

/// The run's tally line (`N passed, M failed`), or `no tally`.
pub(crate) fn tally(out: &Output) -> String {
    out.stdout()
        .lines()
        .find(|l| l.contains(" passed, ") && l.ends_with(" failed"))
        .unwrap_or("no tally")
        .to_owned()
}

/// `page` with its `log-origin` meta set to `origin`, where the page reports what it did.
pub(crate) fn logging_to(page: &str, origin: &str) -> String {
    let empty = "<meta name=\"log-origin\" content=\"\">";
    assert_eq!(
        page.matches(empty).count(),
        1,
        "the page has one log origin"
    );
    page.replace(
        empty,
        &format!("<meta name=\"log-origin\" content=\"{origin}\">"),
    )
}

/// `text` with `from` replaced by `to`, which it must hold exactly once.
pub(crate) fn seeded(text: &str, from: &str, to: &str) -> String {
    assert_eq!(
        text.matches(from).count(),
        1,
        "the build holds {from:?} once"
    );
    text.replacen(from, to, 1)
}

// Class 1: an ordering defect, healed by a lying model.

const JQUERY: &str = "tests/fixtures/todomvc/jquery";
const ORDER: &str = "scenarios/order.steps";
const ORDER_CACHE: &str = "cache/scenarios/order.steps.toml";
const FIRST_TODO: &str = "the first todo is \"buy milk\"";

fn order_steps(test: &str) -> String {
    format!(
        "test: {test}\n  open the app\n  add the todos \"buy milk\" and \"walk the dog\"\n  \
         {FIRST_TODO}\n"
    )
}

/// The jQuery build's script with each new todo put at the top of the list instead of the
/// bottom: a seeded ordering defect.
fn new_todos_on_top() -> String {
    let script = std::fs::read_to_string(repo_dir().join(JQUERY).join("app.js"))
        .expect("read the jQuery build's app.js");
    seeded(&script, "this.todos.push({", "this.todos.unshift({")
}

/// A project serving the jQuery build with new todos on top.
fn order_defect(test: Test) -> Test {
    test.site_from_repo(JQUERY)
        .page("app.js", &new_todos_on_top())
}

/// The ordering suite in `files` proven on the honest build by the built-in generator alone:
/// its check of the first todo is cached with the kinds of mutation it failed under.
fn order_proven(files: &[(&str, &str)]) -> Output {
    let mut test = Test::new().site_from_repo(JQUERY).env(BUILTIN, "only");
    for (path, name) in files {
        test = test.scenario(path, &order_steps(name));
    }
    let out = test
        .args(&["run", "-j", "1"])
        .run()
        .assert_exit(0)
        .stdout_line(&format!("{} passed, 0 failed", files.len()));
    for (path, _) in files {
        let cache = out.read(&format!("cache/{path}.toml"));
        assert!(cache.contains("proof = { proven = ["), "{cache}");
    }
    out
}

/// The heals a lying model writes for the first todo's check on the build with new todos on
/// top, where "buy milk" is the second (and last) todo: the same check, on another element.
const ORDER_LIES: &[(&str, &str)] = &[
    (
        "last",
        "await expect(page.locator('.todo-list li').last()).toHaveText('buy milk');",
    ),
    (
        "nth(1)",
        "await expect(page.locator('.todo-list li').nth(1)).toHaveText('buy milk');",
    ),
    (
        "exact text",
        "await expect(page.locator('.todo-list li').getByText('buy milk', { exact: true })).toHaveText('buy milk');",
    ),
];

/// The proven check of the first todo fails on the build with new todos on top; a model that
/// says rot and moves the check to the element that shows "buy milk" must not turn it green.
fn a_lie_about_the_order_stays_red(case: &str) {
    let lie = ORDER_LIES
        .iter()
        .find(|(name, _)| *name == case)
        .map(|(_, body)| step_code(body))
        .expect("a lie of ORDER_LIES");
    let proven = order_proven(&[(ORDER, "order")]);
    let cached = proven.read(ORDER_CACHE);
    let llm = liar(FIRST_TODO, &lie);
    let run = order_defect(proven.again())
        .config(&config(&llm_section(&llm)))
        .env(BUILTIN, "first")
        .args(&["run"])
        .run();
    figure("1 ordering", case, "run", &run);
    let healed = run.read(ORDER_CACHE);
    // The next strict replay and the audit run whatever `run` did, so that the figures show
    // what a masked heal leads to.
    let (run_code, run_tally) = (run.status_code(), tally(&run));
    let strict = order_defect(run.again())
        .args(&["replay", "--strict"])
        .run();
    figure("1 ordering", case, "replay --strict", &strict);
    let (strict_code, strict_tally) = (strict.status_code(), tally(&strict));
    let audit = order_defect(strict.again()).args(&["audit"]).run();
    figure("1 ordering", case, "audit", &audit);
    assert_eq!(
        (run_code, run_tally.as_str()),
        (Some(1), "0 passed, 1 failed"),
        "run on the build with new todos on top"
    );
    assert_eq!(healed, cached, "the cache is untouched");
    assert_eq!(
        (strict_code, strict_tally.as_str()),
        (Some(1), "0 passed, 1 failed"),
        "the next replay --strict"
    );
    audit.assert_exit(1).stdout_line("0 passed, 1 failed");
}

#[test]
fn ordering_a_heal_to_the_last_todo_stays_red() {
    a_lie_about_the_order_stays_red("last");
}

#[test]
fn ordering_a_heal_to_the_second_todo_stays_red() {
    a_lie_about_the_order_stays_red("nth(1)");
}

#[test]
fn ordering_a_heal_to_the_todo_found_by_its_text_stays_red() {
    a_lie_about_the_order_stays_red("exact text");
}

/// Test a's copy of the check is healed by the lying model; test b, with the same sentence,
/// then runs with no `[llm]` and must not take a's heal in place of a verdict.
#[test]
fn ordering_another_test_with_no_llm_does_not_copy_the_lie() {
    let files = [
        ("scenarios/a.steps", "order a"),
        ("scenarios/b.steps", "order b"),
    ];
    let proven = order_proven(&files);
    let b_cached = proven.read("cache/scenarios/b.steps.toml");
    let llm = liar(FIRST_TODO, &step_code(ORDER_LIES[1].1));
    let a = order_defect(proven.again())
        .config(&config(&llm_section(&llm)))
        .env(BUILTIN, "first")
        .args(&["run", "scenarios/a.steps"])
        .run();
    figure("1 ordering", "reuse", "run a (lying LLM)", &a);
    let b = order_defect(a.again())
        .config(&config(""))
        .env(BUILTIN, "first")
        .args(&["run", "scenarios/b.steps"])
        .run();
    figure("1 ordering", "reuse", "run b (no LLM)", &b);
    let b = b.assert_exit(1).output_not_contains("HEALED");
    assert_eq!(b.read("cache/scenarios/b.steps.toml"), b_cached);
}

/// As above, with the lie already in a's entry as a heal (how a cache looks after a lying
/// model's heal was committed): b, with no `[llm]`, must stay red.
#[test]
fn ordering_a_committed_lie_is_not_reused_with_no_llm() {
    let files = [
        ("scenarios/a.steps", "order a"),
        ("scenarios/b.steps", "order b"),
    ];
    let proven = order_proven(&files);
    let a_cached = proven.read("cache/scenarios/a.steps.toml");
    let b_cached = proven.read("cache/scenarios/b.steps.toml");
    // The check is the file's last entry, so its code is the last block.
    let start = a_cached.rfind("code = '''\n").expect("a code block");
    let planted = format!(
        "{}healed = \"2026-12-01\"\ncode = '''\n{}\n'''\n",
        &a_cached[..start],
        step_code(ORDER_LIES[1].1)
    );
    let b = order_defect(proven.again())
        .write("cache/scenarios/a.steps.toml", &planted)
        .env(BUILTIN, "first")
        .args(&["run", "scenarios/b.steps"])
        .run();
    figure("1 ordering", "reuse (committed lie)", "run b (no LLM)", &b);
    let b = b.assert_exit(1).output_not_contains("HEALED");
    assert_eq!(b.read("cache/scenarios/b.steps.toml"), b_cached);
}

// Found while building class 1: the built-in generator checks `the first todo is "T"` with
// `toContainText` of T on word boundaries, ignoring case, and that proven check passes on a
// first todo "T (copy)" or "T" in capitals, with no LLM at all.

/// The jQuery build's script with each new todo's title written as `title` (an expression of
/// the typed `val`): a seeded defect of the titles.
fn titles_as(title: &str) -> String {
    let script = std::fs::read_to_string(repo_dir().join(JQUERY).join("app.js"))
        .expect("read the jQuery build's app.js");
    seeded(&script, "title: val,", &format!("title: {title},"))
}

/// The first todo's check, proven on the honest build, replayed and audited on a build whose
/// titles are written as `title`: both must fail.
fn a_proven_check_of_the_first_todo_fails_when_titles_are(class: &str, case: &str, title: &str) {
    let proven = order_proven(&[(ORDER, "order")]);
    let strict = proven
        .again()
        .site_from_repo(JQUERY)
        .page("app.js", &titles_as(title))
        .args(&["replay", "--strict"])
        .run();
    figure(class, case, "replay --strict", &strict);
    let strict_tally = tally(&strict);
    let audit = strict
        .again()
        .site_from_repo(JQUERY)
        .page("app.js", &titles_as(title))
        .args(&["audit"])
        .run();
    figure(class, case, "audit", &audit);
    assert_eq!(
        strict_tally, "0 passed, 1 failed",
        "replay --strict with the titles written as {title}"
    );
    audit.assert_exit(1).stdout_line("0 passed, 1 failed");
}

#[test]
fn a_proven_check_of_the_first_todo_fails_on_titles_in_capitals() {
    a_proven_check_of_the_first_todo_fails_when_titles_are(
        "9 case",
        "first todo in capitals",
        "val.toUpperCase()",
    );
}

#[test]
fn a_proven_check_of_the_first_todo_fails_on_titles_with_more_words() {
    a_proven_check_of_the_first_todo_fails_when_titles_are(
        "10 whole text",
        "first todo with more words",
        "val + ' (copy)'",
    );
}

// Class 2: a vanished "Delete" beside "Delete all", healed offline.

const REPORTS: &str = include_str!("../fixtures/adversarial/reports/index.html");
const DELETE_BUTTON: &str = "<button type=\"button\" id=\"delete\">Delete</button>";
const REPORTS_STEPS: &str = "test: delete the selected report\n  open the app\n  click the \
                             \"Delete\" button\n  \"Q3 sales\" is no longer in the list\n";
const REPORTS_CACHE: &str = "cache/scenarios/reports.steps.toml";

/// A project that lets the pages report to `log`, with `extra` in its `prettyplay.toml`.
fn logged(log: &RecordingServer, extra: &str) -> Test {
    Test::new().config(&config(&format!(
        "\n[browser]\nallowed_origins = [\"{}\"]\n{extra}",
        log.origin()
    )))
}

#[test]
fn a_vanished_delete_button_is_never_healed_to_delete_all() {
    let log = RecordingServer::start();
    let honest = logging_to(REPORTS, log.origin());
    let proven = logged(&log, "")
        .page("index.html", &honest)
        .scenario("scenarios/reports.steps", REPORTS_STEPS)
        .env(BUILTIN, "only")
        .args(&["run"])
        .run()
        .assert_exit(0);
    let cached = proven.read(REPORTS_CACHE);
    let deleted_before = log.requests().len();
    assert!(
        log.requests()
            .iter()
            .any(|r| r.starts_with("POST /deleted/Q3%20sales ")),
        "the honest build's Delete deletes the selected report: {:?}",
        log.requests()
    );
    // The build loses the "Delete" button; no LLM.
    let out = proven
        .again()
        .page("index.html", &seeded(&honest, DELETE_BUTTON, ""))
        .env(BUILTIN, "first")
        .args(&["run"])
        .run();
    figure(
        "2 vanished button",
        "Delete / Delete all",
        "run (no LLM)",
        &out,
    );
    let deleted: Vec<String> = log.requests().split_off(deleted_before);
    assert!(
        deleted.is_empty(),
        "the run deleted reports on a build without the \"Delete\" button: {deleted:?}"
    );
    let out = out
        .assert_exit(1)
        .output_not_contains("HEALED")
        .output_contains("Delete all");
    assert_eq!(out.read(REPORTS_CACHE), cached, "the cache is untouched");
    let audit = out
        .again()
        .page("index.html", &honest)
        .args(&["audit", "-v"])
        .run();
    figure("2 vanished button", "Delete / Delete all", "audit", &audit);
    // The check of an absence is honest but unproven: no mutation the proof makes puts a
    // removed text back, so audit must not call it vacuous.
    audit
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .stdout_line("checks: 0 proven, 1 unproven")
        .stdout_contains(
            "scenarios/reports.steps:4: unproven check \"Q3 sales\" is no longer in the list: \
             no mutation contradicts what it checks",
        )
        .output_not_contains("vacuous check");
}

#[test]
fn replay_names_the_look_alikes_of_a_vanished_button() {
    let log = RecordingServer::start();
    let honest = logging_to(REPORTS, log.origin());
    let proven = logged(&log, "")
        .page("index.html", &honest)
        .scenario("scenarios/reports.steps", REPORTS_STEPS)
        .env(BUILTIN, "only")
        .args(&["run"])
        .run()
        .assert_exit(0);
    let deleted_before = log.requests().len();
    let mut last = proven;
    for args in [&["replay"][..], &["replay", "--strict"][..]] {
        let out = last
            .again()
            .page("index.html", &seeded(&honest, DELETE_BUTTON, ""))
            .args(args)
            .run();
        figure(
            "2 vanished button",
            "Delete / Delete all",
            args.join(" ").as_str(),
            &out,
        );
        last = out
            .assert_exit(1)
            .stdout_contains("INCURABLE")
            .stdout_contains("\"Delete all\"");
    }
    assert_eq!(log.requests().len(), deleted_before, "nothing was deleted");
}

// Class 3: an optional "Accept" beside "Accept terms and create account".

const SIGNUP: &str = include_str!("../fixtures/adversarial/signup/index.html");
const SIGNUP_STEPS: &str = "test: sign up\n  open the app\n  click the \"Accept\" button \
                            [optional]\n  the page does not show \"We use cookies\"\n";
const SIGNUP_CACHE: &str = "cache/scenarios/signup.steps.toml";
const SKIPPED: &str = "↷ 2. click the \"Accept\" button (skipped: optional";

/// The sign-up page without its cookie banner.
fn without_banner(page: &str) -> String {
    let start = page.find("  <div id=\"banner\"").expect("the banner");
    let end = start + page[start..].find("</div>\n").expect("the banner's end") + 7;
    format!("{}{}", &page[..start], &page[end..])
}

/// Fails unless `log` heard of no account created since `from`.
#[track_caller]
fn assert_no_account(log: &RecordingServer, from: usize) {
    let created: Vec<String> = log
        .requests()
        .split_off(from)
        .into_iter()
        .filter(|r| r.contains("/account-created"))
        .collect();
    assert!(
        created.is_empty(),
        "the optional \"Accept\" step pressed \"Accept terms and create account\": {created:?}"
    );
}

/// The cache proven on the build with the banner (the button is `name: 'Accept'`, exactly).
fn signup_proven(log: &RecordingServer, honest: &str) -> Output {
    logged(log, "")
        .page("index.html", honest)
        .scenario("scenarios/signup.steps", SIGNUP_STEPS)
        .env(BUILTIN, "only")
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
}

#[test]
fn an_optional_accept_with_its_cached_code_is_skipped_on_a_build_without_the_banner() {
    let log = RecordingServer::start();
    let honest = logging_to(SIGNUP, log.origin());
    let proven = signup_proven(&log, &honest);
    let cached = proven.read(SIGNUP_CACHE);
    let from = log.requests().len();
    let out = proven
        .again()
        .page("index.html", &without_banner(&honest))
        .env(BUILTIN, "first")
        .args(&["run"])
        .run();
    figure("3 optional likeness", "cached", "run (no LLM)", &out);
    assert_no_account(&log, from);
    let out = out
        .assert_exit(0)
        .stdout_contains(SKIPPED)
        .output_not_contains("HEALED");
    assert_eq!(out.read(SIGNUP_CACHE), cached, "the cache is untouched");
}

#[test]
fn an_optional_accept_generated_on_a_build_without_the_banner_is_skipped() {
    let log = RecordingServer::start();
    let honest = logging_to(SIGNUP, log.origin());
    let out = logged(&log, "")
        .page("index.html", &without_banner(&honest))
        .scenario("scenarios/signup.steps", SIGNUP_STEPS)
        .env(BUILTIN, "first")
        .args(&["run"])
        .run();
    figure("3 optional likeness", "generated", "run (no LLM)", &out);
    assert_no_account(&log, 0);
    let out = out.assert_exit(0).stdout_contains(SKIPPED);
    let cache = out.read(SIGNUP_CACHE);
    assert!(!cache.contains("Accept terms"), "{cache}");
}

/// A model that does not lie writes the click as models do, without `exact`; Playwright then
/// matches the name as a substring, and the optional step's target "appears".
#[test]
fn an_optional_accept_a_model_writes_without_exact_is_skipped_on_a_build_without_the_banner() {
    let log = RecordingServer::start();
    let honest = logging_to(SIGNUP, log.origin());
    let accept = "click the \"Accept\" button";
    let llm = FakeLlm::start();
    llm.always_on_contains(
        &generation_of(accept),
        fenced(&step_code(
            "await page.getByRole('button', { name: 'Accept' }).click();",
        ))
        .as_str(),
    );
    let out = logged(&log, &llm_section(&llm))
        .page("index.html", &without_banner(&honest))
        .scenario("scenarios/signup.steps", SIGNUP_STEPS)
        .cached("scenarios/signup.steps", "sign up", "open the app", 1, OPEN)
        .cached(
            "scenarios/signup.steps",
            "sign up",
            "the page does not show \"We use cookies\"",
            1,
            &step_code("await expect(page.getByText('We use cookies')).toBeHidden();"),
        )
        .env(BUILTIN, "off")
        .args(&["run"])
        .run();
    figure("3 optional likeness", "a model's code", "run (LLM)", &out);
    assert_no_account(&log, 0);
    let out = out.assert_exit(0).stdout_contains(SKIPPED);
    let cache = out.read(SIGNUP_CACHE);
    assert!(!cache.contains("name: 'Accept'"), "{cache}");
}

/// `replay --strict` never heals, but it must still skip the step rather than call the
/// longer-named button the element the sentence names.
#[test]
fn an_optional_accept_replayed_strictly_on_a_build_without_the_banner_is_skipped() {
    let log = RecordingServer::start();
    let honest = logging_to(SIGNUP, log.origin());
    let proven = signup_proven(&log, &honest);
    let from = log.requests().len();
    let out = proven
        .again()
        .page("index.html", &without_banner(&honest))
        .args(&["replay", "--strict"])
        .run();
    figure("3 optional likeness", "cached", "replay --strict", &out);
    assert_no_account(&log, from);
    let out = out.assert_exit(0).stdout_contains(SKIPPED);
    let audit = out
        .again()
        .page("index.html", &honest)
        .args(&["audit", "-v"])
        .run();
    figure("3 optional likeness", "cached", "audit", &audit);
    // As with the reports' deleted row, the check of an absence is honest but unproven.
    audit
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .stdout_line("checks: 0 proven, 1 unproven")
        .stdout_contains(
            "scenarios/signup.steps:4: unproven check the page does not show \"We use cookies\": \
             no mutation contradicts what it checks",
        )
        .output_not_contains("vacuous check");
}

// Class 5: a check sentence whose code creates its subject.

const EMPTY_LIST: &str = "scenarios/list.steps";
const LIST_SHOWS: &str = "the list shows \"buy milk\"";
const OPEN_DEMO: &str = "async function step(page) {\n  await page.goto('/');\n  await \
                         expect(page.getByRole('heading', { name: 'todos' })).toBeVisible();\n}";

/// The code a model writes for `the list shows "buy milk"` on an empty list: it adds the todo
/// through the UI, then checks it.
const CREATES_ITS_SUBJECT: &str = "const field = page.getByPlaceholder('What needs to be done?');
  await field.fill('buy milk');
  await field.press('Enter');
  await expect(page.getByRole('list', { name: 'Todo list' }).getByTestId('todo-title').getByText('buy milk', { exact: true })).toBeVisible();";

fn empty_list() -> Test {
    Test::new()
        .demo_pages()
        .scenario(
            EMPTY_LIST,
            &format!("test: an empty list\n  open the app\n  {LIST_SHOWS}\n"),
        )
        .cached(EMPTY_LIST, "an empty list", "open the app", 1, OPEN_DEMO)
}

#[test]
fn a_generated_check_that_creates_its_subject_is_refused_and_never_cached() {
    let llm = FakeLlm::start();
    llm.always_on_contains(
        &generation_of(LIST_SHOWS),
        fenced(&step_code(CREATES_ITS_SUBJECT)).as_str(),
    );
    llm.always_on_contains(
        &classification_of(LIST_SHOWS),
        "product_defect | the list is empty | add the todo in an earlier step",
    );
    let out = empty_list()
        .config(&config(&llm_section(&llm)))
        .env(BUILTIN, "first")
        .args(&["run"])
        .run();
    figure("5 creates its subject", "generated", "run", &out);
    let out = out.assert_exit(1).stdout_line("0 passed, 1 failed");
    let cache = out.read("cache/scenarios/list.steps.toml");
    assert!(!cache.contains("fill('buy milk')"), "{cache}");
}

#[test]
fn audit_names_a_cached_check_that_creates_its_subject() {
    let out = empty_list()
        .cached(
            EMPTY_LIST,
            "an empty list",
            LIST_SHOWS,
            1,
            &step_code(CREATES_ITS_SUBJECT),
        )
        .args(&["audit"])
        .run();
    figure("5 creates its subject", "cached", "audit", &out);
    out.assert_exit(1)
        .stdout_contains("scenarios/list.steps:3: vacuous check the list shows \"buy milk\"");
}

// Class 6: waits used as checks, on a counter that says "12 items left".

const WAITS: &str = include_str!("../fixtures/adversarial/waits/index.html");
const COUNTER: &str = "scenarios/counter.steps";
const TWO_LEFT: &str = "the counter says \"2 items left\"";
const OPEN: &str = "async function step(page) {\n  await page.goto('/');\n}";

const WAIT_CHECKS: &[(&str, &str)] = &[
    ("waitFor", "await page.getByText('2 items left').waitFor();"),
    (
        "waitForFunction",
        "await page.waitForFunction(() => document.body.innerText.includes('2 items left'));",
    ),
];

fn a_generated_wait_is_not_cached_as_a_passing_check(case: &str) {
    let body = WAIT_CHECKS
        .iter()
        .find(|(name, _)| *name == case)
        .map(|(_, body)| *body)
        .expect("a wait of WAIT_CHECKS");
    let llm = FakeLlm::start();
    llm.always_on_contains(&generation_of(TWO_LEFT), fenced(&step_code(body)).as_str());
    llm.always_on_contains(
        &classification_of(TWO_LEFT),
        "product_defect | the counter says 12 | fix the counter",
    );
    let out = Test::new()
        .config(&config(&llm_section(&llm)))
        .page("index.html", WAITS)
        .scenario(
            COUNTER,
            &format!("test: the counter\n  open the app\n  {TWO_LEFT}\n"),
        )
        .cached(COUNTER, "the counter", "open the app", 1, OPEN)
        .env(BUILTIN, "first")
        .args(&["run"])
        .run();
    figure("6 waits as checks", case, "run", &out);
    let out = out.assert_exit(1).stdout_line("0 passed, 1 failed");
    let cache = out.read("cache/scenarios/counter.steps.toml");
    assert!(!cache.contains(body), "{cache}");
}

#[test]
fn a_generated_wait_for_a_text_is_not_cached_as_a_passing_check() {
    a_generated_wait_is_not_cached_as_a_passing_check("waitFor");
}

#[test]
fn a_generated_wait_for_a_function_is_not_cached_as_a_passing_check() {
    a_generated_wait_is_not_cached_as_a_passing_check("waitForFunction");
}

#[test]
fn audit_names_cached_waits_used_as_checks() {
    let mut scenario = String::new();
    let mut test = Test::new().page("index.html", WAITS);
    for (name, body) in WAIT_CHECKS {
        scenario.push_str(&format!("test: {name}\n  open the app\n  {TWO_LEFT}\n\n"));
        test = test.cached(COUNTER, name, "open the app", 1, OPEN).cached(
            COUNTER,
            name,
            TWO_LEFT,
            1,
            &step_code(body),
        );
    }
    let out = test
        .scenario(COUNTER, &scenario)
        .args(&["audit", "-j", "1"])
        .run();
    figure("6 waits as checks", "both", "audit", &out);
    out.assert_exit(1)
        .stdout_contains("scenarios/counter.steps:3: vacuous check the counter says")
        .stdout_contains("scenarios/counter.steps:7: vacuous check the counter says");
}

/// The waits page with a counter that says "2 items left", as the sentence does.
fn two_left() -> String {
    seeded(WAITS, ">12 items left</span>", ">2 items left</span>")
}

/// An honest wait: it fails unless the counter's whole text is "2 items left".
const EXACT_WAIT: &str =
    "await page.getByTestId('todo-count').getByText('2 items left', { exact: true }).waitFor();";

/// `run` with a model that writes each of `replies` in turn for [`TWO_LEFT`], on `page`.
fn wait_generated(page: &str, replies: &[&str]) -> (Output, FakeLlm) {
    let llm = FakeLlm::start();
    for body in replies {
        llm.on_contains(&generation_of(TWO_LEFT), fenced(&step_code(body)).as_str());
    }
    let out = Test::new()
        .config(&config(&llm_section(&llm)))
        .page("index.html", page)
        .scenario(
            COUNTER,
            &format!("test: the counter\n  open the app\n  {TWO_LEFT}\n"),
        )
        .cached(COUNTER, "the counter", "open the app", 1, OPEN)
        // The model writes the check: the built-in's own would pass here first.
        .env(BUILTIN, "off")
        .args(&["run"])
        .run();
    (out, llm)
}

#[test]
fn an_honest_exact_wait_is_proven_and_cached() {
    let (out, _llm) = wait_generated(&two_left(), &[EXACT_WAIT]);
    figure("6 waits as checks", "exact waitFor", "run", &out);
    let out = out
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .stdout_line("checks: 1 proven, 0 unproven");
    let cache = out.read("cache/scenarios/counter.steps.toml");
    assert!(cache.contains("waitFor()"), "{cache}");
    assert!(cache.contains("proof = { proven = ["), "{cache}");
}

#[test]
fn a_loose_wait_goes_back_to_the_model_named_by_the_mutation_it_survived() {
    // On the page that says "2 items left" the loose wait passes; the proof finds it also
    // passes on "12 items left" and the model's second answer, the exact wait, is kept.
    let loose = WAIT_CHECKS[0].1;
    let (out, llm) = wait_generated(&two_left(), &[loose, EXACT_WAIT]);
    figure("6 waits as checks", "loose then exact", "run", &out);
    let out = out
        .assert_exit(0)
        .stdout_line("checks: 1 proven, 0 unproven");
    let retry = llm
        .requests()
        .iter()
        .map(|r| r.user_text())
        .find(|text| text.contains("cannot fail"))
        .expect("the loose wait goes back to the model");
    assert!(retry.contains("a substring match"), "{retry}");
    let cache = out.read("cache/scenarios/counter.steps.toml");
    assert!(!cache.contains(loose), "{cache}");
    assert!(cache.contains("exact: true }).waitFor()"), "{cache}");
}

#[test]
fn audit_counts_an_honest_wait_as_proven() {
    let out = Test::new()
        .page("index.html", &two_left())
        .scenario(
            COUNTER,
            &format!("test: exact\n  open the app\n  {TWO_LEFT}\n"),
        )
        .cached(COUNTER, "exact", "open the app", 1, OPEN)
        .cached(COUNTER, "exact", TWO_LEFT, 1, &step_code(EXACT_WAIT))
        .args(&["audit"])
        .run();
    figure("6 waits as checks", "exact waitFor", "audit", &out);
    out.assert_exit(0)
        .stdout_line("checks: 1 proven, 0 unproven")
        .stdout_line("1 passed, 0 failed");
}

// Class 11: a check whose code writes the page in a script before it asserts, given as a string
// or for a sentence only said as a check (no built-in shape reads it).

/// `run` on the "12 items left" page with a model that writes `body` for `sentence`.
fn a_script_that_writes_is_refused(case: &str, sentence: &str, body: &str) {
    let llm = FakeLlm::start();
    llm.always_on_contains(&generation_of(sentence), fenced(&step_code(body)).as_str());
    llm.always_on_contains(
        &classification_of(sentence),
        "product_defect | the counter says 12 | fix the counter",
    );
    let out = Test::new()
        .config(&config(&llm_section(&llm)))
        .page("index.html", WAITS)
        .scenario(
            COUNTER,
            &format!("test: the counter\n  open the app\n  {sentence}\n"),
        )
        .cached(COUNTER, "the counter", "open the app", 1, OPEN)
        .env(BUILTIN, "first")
        .args(&["run"])
        .run();
    figure("11 page scripts that write", case, "run", &out);
    let out = out.assert_exit(1).stdout_line("0 passed, 1 failed");
    let cache = out.read("cache/scenarios/counter.steps.toml");
    assert!(!cache.contains("evaluate"), "{cache}");
}

#[test]
fn a_check_that_writes_its_answer_in_a_string_script_is_refused() {
    a_script_that_writes_is_refused(
        "string evaluate",
        TWO_LEFT,
        "await page.evaluate(\"document.querySelector('.todo-count').textContent = '2 items left'\");\n  await expect(page.getByTestId('todo-count')).toHaveText('2 items left');",
    );
}

#[test]
fn a_sentence_said_as_a_check_holds_its_code_to_a_check_rules() {
    a_script_that_writes_is_refused(
        "said as a check",
        "expect the counter to mention \"2 items left\"",
        "await page.evaluate(() => { document.querySelector('.todo-count').textContent = '2 items left'; });\n  await expect(page.getByTestId('todo-count')).toHaveText('2 items left');",
    );
}

// The page's "contains" form: the built-in keeps the sentence's meaning, and its check is proven.

const SHIPPED: &str = "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>orders</title></head>\n<body>\n  <h1>Orders</h1>\n  <p class=\"status\">Your order 1234 has shipped.</p>\n</body>\n</html>\n";
const CONTAINS_ORDER: &str = "the page contains \"order 1234\"";

fn contains_order(page: &str) -> Output {
    Test::new()
        .page("index.html", page)
        .scenario(
            "scenarios/orders.steps",
            &format!("test: orders\n  open the app\n  {CONTAINS_ORDER}\n"),
        )
        .cached("scenarios/orders.steps", "orders", "open the app", 1, OPEN)
        .env(BUILTIN, "first")
        .args(&["run"])
        .run()
}

#[test]
fn the_page_contains_a_text_as_whole_words_and_the_check_is_proven() {
    let out = contains_order(SHIPPED)
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .stdout_line("checks: 1 proven, 0 unproven");
    let cache = out.read("cache/scenarios/orders.steps.toml");
    assert!(cache.contains("order 1234(?!"), "{cache}");
    // A longer number holding the quoted one is another order.
    let out = contains_order(&seeded(SHIPPED, "order 1234 ", "order 12345 "));
    out.assert_exit(1).stdout_line("0 passed, 1 failed");
}

// Class 7: an optional step with a check clause.

const PAYMENT: &str = include_str!("../fixtures/adversarial/payment/index.html");
const SHOW_PAYMENT: &str = "<button type=\"button\" id=\"show-payment\">Show payment</button>";

/// Sentences with a check clause marked `[optional]`, and the code a model wrote for them on
/// the build with the button.
const OPTIONAL_CHECKS: &[(&str, &str)] = &[
    (
        "click \"Show payment\" and the page says \"Paid\"",
        "await page.getByRole('button', { name: 'Show payment' }).click();\n  await expect(page.getByText('Paid', { exact: true })).toBeVisible();",
    ),
    (
        "click \"Show payment\", then the payment is shown",
        "await page.getByRole('button', { name: 'Show payment' }).click();\n  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();",
    ),
    (
        "expect the payment to be visible",
        "await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();",
    ),
];

#[test]
fn an_optional_step_with_a_check_clause_is_an_error_at_its_line() {
    let mut wrong = Vec::new();
    for (sentence, body) in OPTIONAL_CHECKS {
        let out = Test::new()
            .page("index.html", &seeded(PAYMENT, SHOW_PAYMENT, ""))
            .scenario(
                "scenarios/pay.steps",
                &format!("test: pay\n  open the app\n  {sentence} [optional]\n"),
            )
            .cached("scenarios/pay.steps", "pay", "open the app", 1, OPEN)
            .cached("scenarios/pay.steps", "pay", sentence, 1, &step_code(body))
            .args(&["replay", "--strict"])
            .run();
        figure("7 optional check", sentence, "replay --strict", &out);
        let refused = out.status_code() == Some(2)
            && out.stderr().contains("scenarios/pay.steps:3:")
            && !out.stdout().contains("Running");
        if !refused {
            wrong.push(format!(
                "{sentence} [optional]: exit {:?}, {}",
                out.status_code(),
                out.stdout()
                    .lines()
                    .find(|l| l.contains("skipped") || l.contains(" passed, "))
                    .unwrap_or("")
            ));
        }
        // audit reads the same scenario, so it refuses the step at the same line.
        let audit = out.again().args(&["audit"]).run();
        figure("7 optional check", sentence, "audit", &audit);
        let refused = audit.status_code() == Some(2)
            && audit.stderr().contains("scenarios/pay.steps:3:")
            && !audit.stdout().contains("Running");
        if !refused {
            wrong.push(format!(
                "{sentence} [optional], audit: exit {:?}",
                audit.status_code()
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "optional steps with a check clause that were not refused at their line:\n{}",
        wrong.join("\n")
    );
}

// Class 9: a quoted text shown in capitals.

const LOGOUT: &str = include_str!("../fixtures/adversarial/logout/index.html");
const SIGNED_OUT: &str = "const MESSAGE = 'You have been signed out';";

/// The shapes of a sentence that the page shows a message, one test each.
const SAYS: &[&str] = &[
    "the page says \"You have been signed out\"",
    "the status says \"You have been signed out\"",
    "I see \"You have been signed out\"",
    "the message \"You have been signed out\" appears",
    "the page contains \"You have been signed out\"",
];

fn logout_steps() -> String {
    SAYS.iter()
        .enumerate()
        .map(|(i, says)| {
            format!(
                "test: shape {}\n  open the app\n  click the \"Sign out\" button\n  {says}\n\n",
                i + 1
            )
        })
        .collect()
}

/// The build whose message is in capitals: a regression of the app's copy.
fn in_capitals() -> String {
    seeded(
        LOGOUT,
        SIGNED_OUT,
        "const MESSAGE = 'YOU HAVE BEEN SIGNED OUT';",
    )
}

/// The tests of `out` that passed, by their sentence.
fn passed_shapes(out: &Output) -> Vec<&'static str> {
    SAYS.iter()
        .enumerate()
        .filter(|(i, _)| {
            out.stdout()
                .contains(&format!("PASS scenarios/logout.steps › shape {} (", i + 1))
        })
        .map(|(_, says)| *says)
        .collect()
}

#[test]
fn a_message_in_capitals_fails_every_generated_check_of_the_mixed_case_text() {
    let out = Test::new()
        .page("index.html", &in_capitals())
        .scenario("scenarios/logout.steps", &logout_steps())
        .env(BUILTIN, "only")
        .args(&["run", "-j", "1"])
        .run();
    figure("9 case", "generated", "run (no LLM)", &out);
    let passed = passed_shapes(&out);
    assert!(
        passed.is_empty(),
        "checks of the mixed-case text passed on the page in capitals: {passed:?}\n{}",
        out.read("cache/scenarios/logout.steps.toml")
    );
    out.assert_exit(1)
        .stdout_line(&format!("0 passed, {} failed", SAYS.len()));
}

#[test]
fn a_message_in_capitals_fails_every_check_proven_on_the_mixed_case_build() {
    let proven = Test::new()
        .page("index.html", LOGOUT)
        .scenario("scenarios/logout.steps", &logout_steps())
        .env(BUILTIN, "only")
        .args(&["run", "-j", "1"])
        .run()
        .assert_exit(0)
        .stdout_line(&format!("{} passed, 0 failed", SAYS.len()));
    let out = proven
        .again()
        .page("index.html", &in_capitals())
        .args(&["replay", "--strict", "-j", "1"])
        .run();
    figure("9 case", "cached", "replay --strict", &out);
    let passed = passed_shapes(&out);
    assert!(
        passed.is_empty(),
        "checks proven on the mixed-case build passed on the page in capitals: {passed:?}\n{}",
        out.read("cache/scenarios/logout.steps.toml")
    );
    let out = out
        .assert_exit(1)
        .stdout_line(&format!("0 passed, {} failed", SAYS.len()));
    let audit = out
        .again()
        .page("index.html", LOGOUT)
        .args(&["audit", "-j", "1"])
        .run();
    figure("9 case", "cached", "audit", &audit);
    audit
        .assert_exit(0)
        .stdout_line(&format!("{} passed, 0 failed", SAYS.len()))
        .stdout_line(&format!("checks: {} proven, 0 unproven", SAYS.len()))
        .output_not_contains("vacuous check");
}
