//! Step code's HTTP requests (`request`, `page.request`) end to end, against the demo's tasks
//! app and its JSON API (`demo/tasks/`, served with `/api/` by the harness's server): data
//! seeded through the API, checked and changed through the UI, cleaned up through the API; a
//! request to another origin (directly, through a redirect, or caught by the code) refused and
//! failing its test while the other origin sees nothing; a secret sent in a request masked in
//! every report and LLM request; and API checks proven by changing what the API answers.

use crate::support::fake_llm::{FakeLlm, Reply, classification_of, generation_of};
use crate::support::recording_server::RecordingServer;
use crate::support::{Output, Test, proofs_as_text};

const SCENARIO: &str = "scenarios/tasks.steps";

/// The demo site (the tasks app and its API) with `config` under `[browser]`.
fn tasks(config: &str) -> Test {
    Test::new()
        .config(&format!("[browser]\ntimeout = 10\n{config}"))
        .site_from_repo("demo")
}

/// The demo site, with the fake LLM as the project's model.
fn tasks_with_llm(llm: &FakeLlm) -> Test {
    tasks(&format!(
        "[llm]\nprovider = \"openai\"\nmodel = \"fake\"\nbase_url = \"{}\"\n",
        llm.base_url()
    ))
}

const SEED: &str = "async function step(page) {\n  \
    const response = await page.request.post('/api/todos', { data: { title: 'buy milk' } });\n  \
    await expect(response).toBeOK();\n  \
    expect((await response.json()).title).toBe('buy milk');\n}";
const OPEN: &str = "async function step(page) {\n  await page.goto('/tasks/');\n}";
const LISTED: &str = "async function step(page) {\n  \
    await expect(page.getByRole('listitem').filter({ hasText: 'buy milk' })).toBeVisible();\n  \
    await expect(page.getByRole('status')).toHaveText('1 open task');\n}";
const DONE: &str = "async function step(page) {\n  \
    await page.getByRole('checkbox', { name: 'buy milk' }).check();\n  \
    await expect(page.getByRole('status')).toHaveText('0 open tasks');\n}";
const API_DONE: &str = "async function step(page) {\n  \
    const todos = await (await page.request.get('/api/todos')).json();\n  \
    expect(todos).toEqual([expect.objectContaining({ title: 'buy milk', completed: true })]);\n}";
const CLEAN_UP: &str = "async function step(page) {\n  \
    await expect(await page.request.delete('/api/todos')).toBeOK();\n}";
const NONE_LEFT: &str = "async function step(page) {\n  \
    const response = await request.get('/api/todos');\n  \
    await expect(response).toBeOK();\n  \
    expect(await response.json()).toEqual([]);\n}";

const SEEDED: &str = "test: a seeded task is done through the UI\n  \
    seed the task \"buy milk\" through the API\n  \
    open the tasks page\n  \
    the task \"buy milk\" is listed\n  \
    mark \"buy milk\" done\n  \
    the API has \"buy milk\" done\n  \
    delete every task through the API\n  \
    the API lists no task\n";

fn seeded(test: Test, seed: &str) -> Test {
    let name = "a seeded task is done through the UI";
    test.scenario(SCENARIO, SEEDED)
        .cached(
            SCENARIO,
            name,
            "seed the task \"buy milk\" through the API",
            1,
            seed,
        )
        .cached(SCENARIO, name, "open the tasks page", 1, OPEN)
        .cached(SCENARIO, name, "the task \"buy milk\" is listed", 1, LISTED)
        .cached(SCENARIO, name, "mark \"buy milk\" done", 1, DONE)
        .cached(SCENARIO, name, "the API has \"buy milk\" done", 1, API_DONE)
        .cached(
            SCENARIO,
            name,
            "delete every task through the API",
            1,
            CLEAN_UP,
        )
        .cached(SCENARIO, name, "the API lists no task", 1, NONE_LEFT)
}

#[test]
fn data_seeded_through_the_api_is_worked_through_the_ui_and_cleaned_up() {
    seeded(tasks(""), SEED)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_contains("PASS scenarios/tasks.steps › a seeded task is done through the UI")
        .stdout_line("1 passed, 0 failed");
    // The same UI check fails when the API seeded something else: it reads what the API holds.
    let other = SEED.replace("title: 'buy milk'", "title: 'buy bread'");
    seeded(
        tasks(""),
        &other.replace("toBe('buy milk')", "toBe('buy bread')"),
    )
    .args(&["replay", "--strict"])
    .run()
    .assert_exit(1)
    .stdout_contains("the task \"buy milk\" is listed")
    .stdout_contains("toBeVisible");
}

#[test]
fn a_server_error_or_a_refused_seed_fails_its_step() {
    let bad = "async function step(page) {\n  \
        const response = await page.request.post('/api/todos', { data: { title: '' } });\n  \
        await expect(response).toBeOK();\n}";
    seeded(tasks(""), bad)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("expect(response).toBeOK() failed")
        .stdout_contains("Received: 400 Bad Request")
        .stdout_contains("title must be a non-empty string");
}

#[test]
fn requests_take_playwrights_options_and_share_the_pages_cookies() {
    // The page's cookie comes with a navigation's Set-Cookie: a `document.cookie` write reaches
    // the browser's cookie store asynchronously, so a request right after it may not carry it.
    let code = r#"async function step(page) {
  await page.goto('/__cookies?set=from_page=1');
  await page.goto('/tasks/');
  console.log('request saw: ' + (await (await request.get('/__cookies')).json()).cookie);
  await page.request.get('/__cookies?set=from_api=2');
  console.log('page sees: ' + await page.evaluate(() => document.cookie));
  const created = await request.fetch('/api/todos', {
    method: 'POST',
    data: '{"title":"raw"}',
    headers: { 'Content-Type': 'application/json' },
  });
  console.log('fetch: ' + created.status() + ' ' + created.statusText() + ' ' + created.headers()['content-type']);
  const body = await created.body();
  console.log('body: ' + body.length + ' ' + body.toString());
  const list = await page.context().request.get('/api/todos', { params: { q: 'x y' } });
  console.log('url: ' + list.url().slice(list.url().indexOf('/api')));
  console.log('headersArray: ' + list.headersArray().some((h) => h.name.toLowerCase() === 'content-type'));
  const missing = await request.get('/api/todos/99');
  console.log('missing: ' + missing.ok() + ' ' + missing.status());
  try {
    await request.get('/api/todos/99', { failOnStatusCode: true });
  } catch (e) {
    console.log('failOnStatusCode: ' + e.message.split(String.fromCharCode(10))[0]);
  }
  try {
    await (await request.get('/tasks/')).json();
  } catch (e) {
    console.log('json: ' + e.message.split(' (')[0]);
  }
  await expect(missing).not.toBeOK();
}"#;
    one_step(tasks(""), code)
        .args(&["replay", "--strict", "-v"])
        .run()
        .assert_exit(0)
        .stdout_contains("console.log: request saw: from_page=1")
        .stdout_contains("console.log: page sees: from_page=1; from_api=2")
        .stdout_contains("console.log: fetch: 201 Created application/json")
        .stdout_contains("console.log: body: 40 {\"completed\":false,\"id\":1,\"title\":\"raw\"}")
        .stdout_contains("console.log: url: /api/todos?q=x+y")
        .stdout_contains("console.log: headersArray: true")
        .stdout_contains("console.log: missing: false 404")
        .stdout_contains("console.log: failOnStatusCode: apiRequestContext.get: 404 Not Found")
        .stdout_contains("console.log: json: apiResponse.json: the body of http://");
}

/// One test, `go`, whose cached code is `code`.
fn one_step(test: Test, code: &str) -> Test {
    test.scenario(SCENARIO, "test: reach out\n  go\n")
        .cached(SCENARIO, "reach out", "go", 1, code)
}

fn blocked(url: &str) -> String {
    format!("blocked by [browser] allowed_origins: request {url} — add its origin to allow it")
}

fn replay(test: Test) -> Output {
    test.args(&["replay", "--strict"]).run()
}

#[test]
fn a_request_to_another_origin_is_refused_and_fails_the_test_even_when_caught() {
    let other = RecordingServer::start();
    let url = format!("{}/data", other.origin());
    let direct = format!(
        "async function step(page) {{\n  const response = await request.get('{url}');\n  \
         console.log(await response.text());\n}}"
    );
    replay(one_step(tasks(""), &direct))
        .assert_exit(1)
        .stdout_contains("BLOCKED BY allowed_origins")
        .stdout_contains(&blocked(&url));
    let caught = format!(
        "async function step(page) {{\n  try {{\n    await page.request.post('{url}', {{ data: {{ a: 1 }} }});\n  \
         }} catch (e) {{\n    console.log('caught');\n  }}\n}}"
    );
    replay(one_step(tasks(""), &caught))
        .assert_exit(1)
        .stdout_contains(&blocked(&url));
    // A redirect of an allowed origin to another one is refused before it is followed.
    let redirected = "async function step(page) {\n  await request.get('/away.302');\n}";
    replay(one_step(
        tasks("").page("away.302", &format!("{url}?from=redirect")),
        redirected,
    ))
    .assert_exit(1)
    .stdout_contains(&blocked(&format!("{url}?from=redirect")));
    // Step code has no filesystem, through requests neither.
    let file = "async function step(page) {\n  await request.get('file:///etc/passwd');\n}";
    replay(one_step(tasks(""), file))
        .assert_exit(1)
        .stdout_contains(&blocked("file:///etc/passwd"))
        .output_not_contains("root:");
    assert_eq!(
        other.requests(),
        Vec::<String>::new(),
        "the other origin was reached"
    );
    // Allowing the origin lets the same request through.
    let config = format!("allowed_origins = [\"{}\"]\n", other.origin());
    one_step(tasks(&config), &direct)
        .args(&["replay", "--strict", "-v"])
        .run()
        .assert_exit(0)
        .stdout_contains("from the other origin");
    assert_eq!(other.requests(), vec!["GET /data HTTP/1.1".to_owned()]);
}

const SECRET: &str = "Tok3n+sec/ret42";

#[test]
fn a_secret_sent_in_a_request_is_masked_in_every_report_and_llm_request() {
    let llm = FakeLlm::start();
    let sentence = "seed a task named ${TOKEN}";
    llm.on_contains(
        &classification_of(sentence),
        Reply::text("product_defect | the API stored another title | fix the API"),
    );
    let code = "async function step(page) {\n  \
        await page.goto('/tasks/');\n  \
        const response = await page.request.post('/api/todos', {\n    \
        data: { title: vars.TOKEN },\n    params: { token: vars.TOKEN },\n    \
        headers: { 'X-Token': vars.TOKEN },\n  });\n  \
        console.log('created ' + await response.text() + ' at ' + response.url());\n  \
        await page.reload();\n  \
        expect(await response.json()).toEqual({ id: 1, title: 'something else', completed: false });\n}";
    let out = tasks_with_llm(&llm)
        .env("TOKEN", SECRET)
        .scenario(SCENARIO, &format!("test: seed a secret\n  {sentence}\n"))
        .cached(SCENARIO, "seed a secret", sentence, 1, code)
        .args(&[
            "run",
            "-v",
            "--reporter",
            "json",
            "--reporter",
            "junit",
            "--reporter",
            "html",
            "--events",
            "events.jsonl",
        ])
        .run()
        .assert_exit(1)
        .stdout_contains("PRODUCT DEFECT")
        .stdout_contains(
            "console.log: created {\"completed\":false,\"id\":1,\"title\":\"***\"} at http://",
        )
        .stdout_contains("/api/todos?token=***")
        .output_not_contains("Tok3n");
    let requests = llm.requests();
    assert!(!requests.is_empty(), "the failure was classified");
    for request in &requests {
        assert!(
            !request.body.to_string().contains("Tok3n"),
            "the secret reached the LLM: {}",
            request.body
        );
    }
    for file in [
        "events.jsonl",
        "prettyplay-report/events.jsonl",
        "prettyplay-report/junit.xml",
        "prettyplay-report/index.html",
    ] {
        let text = out.read(file);
        assert!(!text.is_empty(), "{file} is empty");
        assert!(!text.contains("Tok3n"), "the secret is in {file}");
    }
}

#[test]
fn api_checks_are_proven_by_changing_what_the_api_answers() {
    let llm = FakeLlm::start();
    let health = "GET /api/health answers 200";
    let loose_health = "async function step(page) {\n  \
        await expect(await page.request.get('/api/health')).toBeOK();\n}";
    let exact_health = "async function step(page) {\n  \
        const response = await page.request.get('/api/health');\n  \
        expect(response.status()).toBe(200);\n}";
    let listed = "the API /api/health says \"ok\"";
    let loose_listed = "async function step(page) {\n  \
        const response = await page.request.get('/api/health');\n  \
        expect(await response.text()).toContain('ok');\n}";
    let exact_listed = "async function step(page) {\n  \
        const response = await page.request.get('/api/health');\n  \
        expect((await response.json()).status).toBe('ok');\n}";
    llm.on_contains(&generation_of(health), fenced(loose_health));
    llm.on_contains(&generation_of(health), fenced(exact_health));
    llm.on_contains(&generation_of(listed), fenced(loose_listed));
    llm.on_contains(&generation_of(listed), fenced(exact_listed));
    let out = tasks_with_llm(&llm)
        .scenario(
            SCENARIO,
            &format!("test: the API is up\n  {health}\n  {listed}\n"),
        )
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    let requests = llm.requests();
    assert_eq!(
        requests.len(),
        4,
        "each loose check went back to the writer once"
    );
    assert!(
        requests[1]
            .body
            .to_string()
            .contains("it still passes when the request answers HTTP 201 instead of 200"),
        "{}",
        requests[1].body
    );
    assert!(
        requests[3].body.to_string().contains("(a substring match)"),
        "{}",
        requests[3].body
    );
    let cache = proofs_as_text(&out.read("cache/scenarios/tasks.steps.toml"));
    assert!(
        cache.contains("proof = \"proven: status-changed\""),
        "{cache}"
    );
    assert!(
        cache.contains("proof = \"proven: response-prefixed"),
        "{cache}"
    );
    assert!(
        cache.contains("expect(response.status()).toBe(200)"),
        "{cache}"
    );
    assert!(!cache.contains("toContain('ok')"), "{cache}");
}

#[test]
fn an_api_check_is_proven_on_the_api_while_the_page_shows_the_same_text() {
    // The tasks page shows "buy milk" too; mutating the page cannot fail code that reads only
    // the API, which is no reason to call the check vacuous.
    let llm = FakeLlm::start();
    let check = "the API has the task \"buy milk\"";
    let exact = "async function step(page) {\n  \
        const todos = await (await page.request.get('/api/todos')).json();\n  \
        expect(todos.map((t) => t.title)).toEqual(['buy milk']);\n}";
    llm.on_contains(&generation_of(check), fenced(exact));
    let name = "seeded";
    let out = tasks_with_llm(&llm)
        .scenario(
            SCENARIO,
            &format!("test: {name}\n  seed\n  open\n  {check}\n  clean up\n"),
        )
        .cached(SCENARIO, name, "seed", 1, SEED)
        .cached(SCENARIO, name, "open", 1, OPEN)
        .cached(SCENARIO, name, "clean up", 1, CLEAN_UP)
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    assert_eq!(llm.requests().len(), 1, "the exact check was kept at once");
    let cache = proofs_as_text(&out.read("cache/scenarios/tasks.steps.toml"));
    assert!(
        cache.contains("proof = \"proven: response-prefixed"),
        "{cache}"
    );
}

#[test]
fn a_check_whose_code_creates_what_it_checks_is_refused() {
    // The model's check posts the task it then finds: it would pass on an app that lost it.
    // Plainly, with the post's failure caught, after an action, and in an examples table.
    let post = "await page.request.post('/api/todos', { data: { title: TITLE } })";
    let find = "const todos = await (await page.request.get('/api/todos')).json();\n  \
                expect(todos.map((t) => t.title)).toContain(TITLE);";
    let plain = "\"buy milk\"";
    let cases = [
        (plain, format!("{post};\n  {find}"), ""),
        (plain, format!("{post}.catch(() => {{}});\n  {find}"), ""),
        (
            plain,
            format!("await page.goto('/tasks/');\n  {post};\n  {find}"),
            "",
        ),
        (
            "<item>",
            format!("{post};\n  {find}"),
            "  examples:\n    | item     |\n    | buy milk |\n",
        ),
    ];
    for (value, body, examples) in cases {
        let llm = FakeLlm::start();
        let check = format!("the API /api/todos lists {value}");
        let title = if value == plain {
            "'buy milk'"
        } else {
            "vars.item"
        };
        let selfish = format!(
            "async function step(page) {{\n  {}\n}}",
            body.replace("TITLE", title)
        );
        llm.always_on_contains(&check, fenced(&selfish));
        let out = tasks_with_llm(&llm)
            .scenario(SCENARIO, &format!("test: listed\n  {check}\n{examples}"))
            .args(&["run"])
            .run()
            .assert_exit(1)
            .stdout_contains("it sends a POST request, which can make true what it checks");
        assert!(
            !out.exists("cache/scenarios/tasks.steps.toml")
                || !out
                    .read("cache/scenarios/tasks.steps.toml")
                    .contains("lists"),
            "the selfish check was cached:\n{selfish}"
        );
        llm.take_unexpected();
    }
}

fn fenced(code: &str) -> String {
    format!("```js\n{code}\n```\n")
}
