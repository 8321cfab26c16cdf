//! `prettyplay audit`: the mutation proof of every cached check, with real matchers on real
//! pages in a real browser. Each check of a fixture page is either proven (it failed when the
//! page was changed to contradict its sentence) or named at its line as a check that cannot fail.

use crate::support::{Test, proofs_as_text};

const SCENARIO: &str = "scenarios/audit.steps";
const CACHE: &str = "cache/scenarios/audit.steps.toml";

/// A page with a counted list, a counter, a checked checkbox, an enabled button, an input with
/// a value, and a title.
const PAGE: &str = r#"<!doctype html>
<html><head><title>Todos</title></head><body>
<h1>todos</h1>
<ul class="todo-list">
  <li data-testid="todo-item">buy milk</li>
  <li data-testid="todo-item">walk the dog</li>
  <li data-testid="todo-item">read a book</li>
</ul>
<span data-testid="todo-count"><strong>3</strong> items left</span>
<input type="checkbox" checked aria-label="Toggle all">
<button>Clear completed</button>
<input aria-label="New todo" value="buy bread">
</body></html>
"#;

/// (sentence, code, whether the proof must see it fail): one row per assertion shape.
const CHECKS: &[(&str, &str, bool)] = &[
    ("open the app", "await page.goto('/');", true),
    (
        "the page says \"3 items left\"",
        "await expect(page.getByText('3 items left')).toBeVisible();",
        false,
    ),
    (
        "the page shows \"3 items left\" exactly",
        "await expect(page.getByText('3 items left', { exact: true })).toBeVisible();",
        true,
    ),
    (
        "the list has 3 items",
        "await expect(page.getByTestId('todo-item')).toHaveCount(3);",
        true,
    ),
    (
        "the counter shows 3",
        "await expect(page.getByTestId('todo-count')).toContainText('3');",
        false,
    ),
    (
        "the counter reads 3 items left",
        "await expect(page.getByTestId('todo-count')).toHaveText('3 items left');",
        true,
    ),
    (
        "toggle all is checked",
        "await expect(page.getByLabel('Toggle all')).toBeChecked();",
        true,
    ),
    (
        "clear completed can be pressed",
        "await expect(page.getByRole('button', { name: 'Clear completed' })).toBeEnabled();",
        true,
    ),
    (
        "the new todo field holds \"buy bread\"",
        "await expect(page.getByLabel('New todo')).toHaveValue('buy bread');",
        true,
    ),
    (
        "the title is \"Todos\"",
        "await expect(page).toHaveTitle('Todos');",
        true,
    ),
    (
        "the title mentions todos",
        "await expect(page).toHaveTitle(/.*/);",
        false,
    ),
    (
        "the optional check says \"goodbye\"",
        "const n = null;\n  await n?.f(await expect(page.locator('#t')).toHaveText('goodbye'));",
        false,
    ),
    (
        "the counter is there for 3",
        "await expect(page.locator('body')).toBeVisible();",
        false,
    ),
    ("two is two", "expect(2).toBe(2);", false),
    (
        "the first todo is listed",
        "const first = await page.getByTestId('todo-item').first().textContent();\n  if (first.trim() !== 'buy milk') throw new Error(`first todo: ${first}`);",
        true,
    ),
];

fn scenario(checks: &[(&str, &str, bool)]) -> String {
    let mut text = "test: audit\n".to_owned();
    for (sentence, _, _) in checks {
        text.push_str(&format!("  {sentence}\n"));
    }
    text
}

/// The cache file of `checks`, as a user would commit it.
fn cache_file(checks: &[(&str, &str, bool)]) -> String {
    let mut text = format!("format = 1\nscenario = \"{SCENARIO}\"\n");
    for (sentence, code, _) in checks {
        text.push_str(&format!(
            "\n[[steps]]\ntest = \"audit\"\nstep = {sentence:?}\noccurrence = 1\ncreated = \"2026-11-30\"\ncode = '''\nasync function step(page) {{\n  {code}\n}}\n'''\n"
        ));
    }
    text
}

fn project(checks: &[(&str, &str, bool)]) -> Test {
    Test::new()
        .page("index.html", PAGE)
        .scenario(SCENARIO, &scenario(checks))
        .cache(CACHE, &cache_file(checks))
}

#[test]
fn audit_names_every_check_that_cannot_fail_at_its_line_and_changes_no_cache_entry() {
    let out = project(CHECKS)
        .args(&[
            "audit",
            "--reporter",
            "list",
            "--reporter",
            "json",
            "--reporter",
            "html",
        ])
        .run()
        .assert_exit(1);
    let stdout = out.stdout();
    let vacuous: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("vacuous check"))
        .collect();
    let expected: Vec<usize> = CHECKS
        .iter()
        .enumerate()
        .filter(|(_, (_, _, proven))| !proven)
        .map(|(i, _)| i + 2)
        .collect();
    assert_eq!(vacuous.len(), expected.len(), "{stdout}");
    for (line, (i, (sentence, _, _))) in vacuous.iter().zip(
        CHECKS
            .iter()
            .enumerate()
            .filter(|(_, (_, _, proven))| !proven),
    ) {
        let prefix = format!("{SCENARIO}:{}: vacuous check {sentence}: ", i + 2);
        assert!(line.starts_with(&prefix), "{line}\nexpected {prefix}");
    }
    assert!(
        stdout.contains(
            "vacuous check the page says \"3 items left\": it still passes when the page reads \"13 items left\" instead of \"3 items left\" (a substring match)"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "vacuous check the optional check says \"goodbye\": it reads nothing from the page"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("vacuous check two is two: it reads nothing from the page"),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("vacuous check the title mentions todos: it still passes when the title is"),
        "{stdout}"
    );
    let proven = CHECKS.iter().skip(1).filter(|c| c.2).count();
    assert!(
        stdout.contains(&format!(
            "checks: {proven} proven, 0 unproven, {} cannot fail",
            expected.len()
        )),
        "{stdout}"
    );
    assert_eq!(
        out.read(CACHE),
        cache_file(CHECKS),
        "the audit changes no cache entry"
    );
    let events = out.read("prettyplay-report/events.jsonl");
    assert!(
        events.contains("\"proof\":\"proven: one-more, one-fewer\""),
        "{events}"
    );
    assert!(events.contains("\"proof\":\"vacuous: "), "{events}");
    assert!(events.contains("\"checks_vacuous\":"), "{events}");
    let html = out.read("prettyplay-report/index.html");
    assert!(
        html.contains("<p class=\"note proof vacuous\">check vacuous: it still passes when the page reads \"13 items left\""),
        "{html}"
    );
    assert!(
        html.contains("<p class=\"note muted proof\">check proven: one-more, one-fewer</p>"),
        "{html}"
    );
    assert!(html.contains("checks cannot fail</span>"), "{html}");
}

#[test]
fn an_audit_of_checks_that_can_all_fail_passes() {
    let strong: Vec<(&str, &str, bool)> = CHECKS.iter().copied().filter(|c| c.2).collect();
    project(&strong)
        .args(&["audit"])
        .run()
        .assert_exit(0)
        .stdout_line(&format!("checks: {} proven, 0 unproven", strong.len() - 1));
}

/// A stateful app others wrote: every check is proven and the steps after each proof still see
/// the app's real state (React keeps references to the nodes a mutation moved).
#[test]
fn the_proof_leaves_react_todomvc_as_it_was_for_the_steps_after_it() {
    let steps: &[(&str, &str)] = &[
        ("open the app", "await page.goto('/');"),
        (
            "add \"buy milk\"",
            "await page.getByTestId('text-input').fill('buy milk');\n  await page.getByTestId('text-input').press('Enter');",
        ),
        (
            "add \"walk the dog\"",
            "await page.getByTestId('text-input').fill('walk the dog');\n  await page.getByTestId('text-input').press('Enter');",
        ),
        (
            "the list has 2 todos",
            "await expect(page.getByTestId('todo-item')).toHaveCount(2);",
        ),
        (
            "the counter says \"2 items left!\"",
            "await expect(page.locator('.todo-count')).toHaveText('2 items left!');",
        ),
        (
            "\"buy milk\" is listed",
            "await expect(page.getByTestId('todo-item-label').getByText('buy milk', { exact: true })).toBeVisible();",
        ),
        (
            "complete \"buy milk\"",
            "await page.getByTestId('todo-item').filter({ hasText: 'buy milk' }).getByTestId('todo-item-toggle').check();",
        ),
        (
            "\"buy milk\" is checked",
            "await expect(page.getByTestId('todo-item').filter({ hasText: /^buy milk$/ }).getByTestId('todo-item-toggle')).toBeChecked();",
        ),
        (
            "the counter says \"1 item left!\"",
            "await expect(page.locator('.todo-count')).toHaveText('1 item left!');",
        ),
        (
            "add \"read a book\"",
            "await page.getByTestId('text-input').fill('read a book');\n  await page.getByTestId('text-input').press('Enter');",
        ),
        (
            "the list has 3 todos",
            "await expect(page.getByTestId('todo-item')).toHaveCount(3);",
        ),
        (
            "the counter says \"2 items left!\"",
            "await expect(page.locator('.todo-count')).toHaveText('2 items left!');",
        ),
    ];
    let mut text = "test: react\n".to_owned();
    let mut test = Test::new().site_from_repo("tests/fixtures/todomvc/react");
    let mut seen: Vec<&str> = Vec::new();
    for (sentence, code) in steps {
        text.push_str(&format!("  {sentence}\n"));
        let occurrence = seen.iter().filter(|s| *s == sentence).count() as u32 + 1;
        seen.push(sentence);
        test = test.cached(
            SCENARIO,
            "react",
            sentence,
            occurrence,
            &format!("async function step(page) {{\n  {code}\n}}"),
        );
    }
    let checks = steps.iter().filter(|(_, c)| c.contains("expect(")).count();
    test.scenario(SCENARIO, &text)
        .args(&["audit"])
        .run()
        .assert_exit(0)
        .stdout_line(&format!("checks: {checks} proven, 0 unproven"))
        .stdout_line("1 passed, 0 failed");
}

/// The demo app and its two scenarios, cache empty, the built-in generator only.
fn demo() -> Test {
    Test::new()
        .config("[vars]\nDEMO_USER = \"alice\"\n")
        .env("DEMO_PASSWORD", "secret")
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .scenario(
            "scenarios/todo.steps",
            include_str!("../../scenarios/todo.steps"),
        )
        .scenario(
            "scenarios/login.steps",
            include_str!("../../scenarios/login.steps"),
        )
        .demo_pages()
}

#[test]
fn the_built_in_generators_checks_on_the_demo_are_proven_and_pass_the_audit() {
    let run = demo().args(&["run", "-j", "1"]).run().assert_exit(0);
    let todo = proofs_as_text(&run.read("cache/scenarios/todo.steps.toml"));
    assert!(todo.starts_with("format = 5\n"), "{todo}");
    assert!(todo.contains("proof = \"proven: "), "{todo}");
    assert!(!todo.contains("vacuous"), "{todo}");
    let line = run.line_with("checks: ").to_owned();
    assert!(!line.contains("cannot fail"), "{line}");
    run.again()
        .demo_pages()
        .env("DEMO_PASSWORD", "secret")
        .args(&["audit", "-j", "1"])
        .run()
        .assert_exit(0)
        .stdout_line(&line)
        .stdout_line("5 passed, 0 failed");
}

#[test]
fn the_built_in_generators_checks_on_react_todomvc_are_proven_and_pass_the_audit() {
    let scenario = "test: react\n  open the app\n  type \"buy milk\" into the new todo field and press Enter\n  type \"walk the dog\" into the new todo field and press Enter\n  the page says \"2 items left!\"\n  the page says \"walk the dog\"\n  the title is \"TodoMVC: React\"\n  click \"Active\"\n  the URL contains \"#/active\"\n  the page says \"2 items left!\"\n";
    let run = Test::new()
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .site_from_repo("tests/fixtures/todomvc/react")
        .scenario(SCENARIO, scenario)
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("checks: 5 proven, 0 unproven");
    let cache = proofs_as_text(&run.read(CACHE));
    assert_eq!(cache.matches("proof = \"proven: ").count(), 5, "{cache}");
    run.again()
        .site_from_repo("tests/fixtures/todomvc/react")
        .args(&["audit"])
        .run()
        .assert_exit(0)
        .stdout_line("checks: 5 proven, 0 unproven")
        .stdout_line("1 passed, 0 failed");
}

/// A model writes a check that cannot fail: it goes back to the model with the mutation it
/// survived, and only the exact check that replaced it is cached.
#[test]
fn a_generated_check_that_cannot_fail_is_fed_back_and_never_cached() {
    use crate::support::fake_llm::{FakeLlm, Reply};
    let loose = "await expect(page.getByText('3 items left')).toBeVisible();";
    let exact = "await expect(page.getByText('3 items left', { exact: true })).toBeVisible();";
    let fenced = |code: &str| format!("```js\nasync function step(page) {{\n  {code}\n}}\n```");
    let llm = FakeLlm::start();
    llm.reply(Reply::text(fenced("await page.goto('/');")));
    llm.reply(Reply::text(fenced(loose)));
    llm.reply(Reply::text(fenced(exact)));
    let out = Test::new()
        .config(&format!(
            "[generate]\nbuiltin = \"off\"\n[llm]\nprovider = \"openai\"\nmodel = \"fake\"\nbase_url = \"{}\"\n",
            llm.base_url()
        ))
        .page("index.html", PAGE)
        .scenario(
            SCENARIO,
            "test: t\n  open the app\n  the page says \"3 items left\"\n",
        )
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("checks: 1 proven, 0 unproven");
    let requests = llm.requests();
    assert_eq!(requests.len(), 3, "one more attempt for the vacuous check");
    let retry = requests[2].user_text();
    assert!(retry.contains(loose), "{retry}");
    assert!(
        retry.contains(
            "the check cannot fail: it still passes when the page reads \"13 items left\" instead of \"3 items left\" (a substring match)"
        ),
        "{retry}"
    );
    let cache = proofs_as_text(&out.read(CACHE));
    assert!(cache.contains(exact), "{cache}");
    assert!(!cache.contains(loose), "{cache}");
    assert!(
        cache.contains("proof = \"proven: hidden, text-prefixed, text-suffixed, text-changed, case-changed, word-added\""),
        "{cache}"
    );
}
