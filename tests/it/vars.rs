//! End to end: scenario variables and secrets. A name without a value stops the run; generation
//! with `${PASSWORD}` (the fake LLM sees the placeholder, never the value, even where the page
//! shows it); replay of code reading `vars`; the cache refusing code that holds a secret, written
//! whole or built from constants in pieces; and the
//! sweep: a distinctive secret, a run that types it, logs it, shows it on the page and fails on
//! it, and a grep over every sink (stdout, stderr, every file the run wrote, every LLM request).

use std::path::Path;

use crate::support::fake_llm::FakeLlm;
use crate::support::{Output, Test};

/// A distinctive secret value: found anywhere, it leaked.
const SECRET: &str = "Zq9-s3cr3t-Walrus-4711";

const SCENARIO: &str = "scenarios/login.steps";

/// A password field; signing in shows what was typed, so the page itself holds the secret.
const PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sign in</title></head>
<body>
  <h1>sign in</h1>
  <label>Password <input type="password" id="pw"></label>
  <button type="button" id="go">Sign in</button>
  <p data-testid="echo"></p>
  <script>
    document.getElementById('go').onclick = () => {
      document.querySelector('[data-testid=echo]').textContent =
        'Signed in with ' + document.getElementById('pw').value;
    };
  </script>
</body></html>"#;

const OPEN: &str = "async function step(page) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'sign in' })).toBeVisible();
}";

const SIGN_IN: &str = "async function step(page) {
  await page.getByLabel('Password').fill(vars.PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  console.log('typed ' + vars.PASSWORD);
  await expect(page.getByTestId('echo')).toHaveText('Signed in with ' + vars.PASSWORD);
}";

fn llm_config(base_url: &str) -> String {
    format!("[llm]\nprovider = \"openai\"\nmodel = \"fake\"\nbase_url = \"{base_url}\"\n")
}

fn fenced(code: &str) -> String {
    format!("```js\n{code}\n```\n")
}

/// Every file under `dir`, with its content (lossy), except `skip`.
fn files_under(dir: &Path) -> Vec<(String, String)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let bytes = std::fs::read(e.path()).unwrap_or_default();
            (
                e.path().display().to_string(),
                String::from_utf8_lossy(&bytes).into_owned(),
            )
        })
        .collect()
}

/// Fails if `SECRET` is in the output or in any file of the project.
#[track_caller]
fn assert_no_secret_anywhere(out: &Output) {
    if out.stdout().contains(SECRET) || out.stderr().contains(SECRET) {
        out.fail("the secret is in the terminal output");
    }
    for (path, text) in files_under(&out.project_dir()) {
        if text.contains(SECRET) {
            out.fail(&format!("the secret is in {path}"));
        }
    }
}

#[test]
fn vars_a_name_without_a_value_stops_the_run_before_it_starts() {
    Test::new()
        .scenario(
            SCENARIO,
            "test: sign in\n  open the app\n  type ${PASSWORD_X} into the password field\n",
        )
        .env_remove("PASSWORD_X")
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(2)
        .stderr_contains(
            "scenarios/login.steps:3: ${PASSWORD_X} has no value: set it in [vars], .env or \
             the environment",
        );
}

#[test]
fn vars_replay_reads_values_from_dotenv_and_vars() {
    Test::new()
        .config("[vars]\nGREETING = \"Signed in with\"\n")
        .write(".env", &format!("PASSWORD={SECRET}\n"))
        .scenario(
            SCENARIO,
            "test: t\n  open the app\n  sign in with ${PASSWORD}\n",
        )
        .cached(SCENARIO, "t", "open the app", 1, OPEN)
        .cached(
            SCENARIO,
            "t",
            "sign in with ${PASSWORD}",
            1,
            &SIGN_IN.replace("'Signed in with '", "vars.GREETING + ' '"),
        )
        .page("index.html", PAGE)
        .args(&["replay", "--strict", "-v"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .stdout_contains("typed ***")
        .output_not_contains(SECRET);
}

#[test]
fn vars_code_holding_a_secret_value_is_never_cached() {
    let llm = FakeLlm::start();
    llm.on_contains("STEP:\nopen the app", fenced(OPEN).as_str());
    let literal = SIGN_IN.replace("vars.PASSWORD", &format!("'{SECRET}'"));
    llm.on_contains("STEP:\nsign in with ${PASSWORD}", fenced(&literal).as_str());
    let out = Test::new()
        .config(&llm_config(&llm.base_url()))
        .scenario(
            SCENARIO,
            "test: t\n  open the app\n  sign in with ${PASSWORD}\n",
        )
        .page("index.html", PAGE)
        .env("PASSWORD", SECRET)
        .args(&["run"])
        .run()
        .assert_exit(1)
        .output_contains("it holds the value of the secret ${PASSWORD}")
        .output_contains("vars.PASSWORD");
    assert_no_secret_anywhere(&out);
}

#[test]
fn vars_secret_sweep_no_sink_ever_holds_the_value() {
    let llm = FakeLlm::start();
    llm.on_contains("STEP:\nopen the app", fenced(OPEN).as_str());
    llm.on_contains("STEP:\nsign in with ${PASSWORD}", fenced(SIGN_IN).as_str());
    // A check that fails on the page showing the secret: its error's Received value holds it.
    llm.on_contains(
        "STEP:\nthe greeting is shown",
        fenced(
            "async function step(page) {\n  await expect(page.getByTestId('echo')).toHaveText('Welcome', { timeout: 1000 });\n}",
        )
        .as_str(),
    );
    // Even a reply that happens to hold the value is masked where it is shown.
    llm.on_contains(
        "You classify",
        format!("product_defect | the page shows {SECRET} instead of a greeting | fix the page")
            .as_str(),
    );
    let out = Test::new()
        .config(&llm_config(&llm.base_url()))
        .scenario(
            SCENARIO,
            "test: sign in\n  open the app\n  sign in with ${PASSWORD}\n  the greeting is shown\n",
        )
        .page("index.html", PAGE)
        .env("PASSWORD", SECRET)
        .args(&[
            "run",
            "-v",
            "--reporter",
            "list",
            "--reporter",
            "json",
            "--reporter",
            "junit",
            "--reporter",
            "html",
            "--events",
            "events.jsonl",
            "--trace",
            "off",
        ])
        .run()
        .assert_exit(1)
        .stdout_contains("typed ***")
        .output_contains("Signed in with ***");
    assert_no_secret_anywhere(&out);
    assert!(out.exists("events.jsonl") && out.exists(".prettyplay/last-run.json"));
    let cache = out.read("cache/scenarios/login.steps.toml");
    assert!(cache.contains("fill(vars.PASSWORD)"), "{cache}");
    let requests = llm.requests();
    assert_eq!(requests.len(), 4, "three generations and a verdict");
    for request in &requests {
        let text = format!("{}\n{}", request.system(), request.user_text());
        assert!(
            !text.contains(SECRET),
            "an LLM request holds the secret:\n{text}"
        );
    }
    let third = requests[2].user_text();
    assert!(
        third.contains("Signed in with ${PASSWORD}"),
        "the snapshot shows the placeholder:\n{third}"
    );
    assert!(
        requests[1]
            .user_text()
            .contains("VARIABLES:\n${PASSWORD}: read it as vars.PASSWORD"),
        "{}",
        requests[1].user_text()
    );
}

#[test]
fn vars_an_example_cell_naming_a_secret_is_masked_and_a_public_cell_is_shown() {
    let out = Test::new()
        .scenario(
            SCENARIO,
            "test: sign in\n  open the app\n  sign in with <pw>\n  examples:\n    \
             | who   | pw             |\n    | admin | ${PASSWORD}    |\n    \
             | guest | guest-pass-123 |\n",
        )
        .cached(SCENARIO, "sign in", "open the app", 1, OPEN)
        .cached(
            SCENARIO,
            "sign in",
            "sign in with <pw>",
            1,
            &SIGN_IN.replace("vars.PASSWORD", "vars.pw"),
        )
        .page("index.html", PAGE)
        .env("PASSWORD", SECRET)
        .args(&[
            "replay",
            "--strict",
            "-v",
            "-j",
            "1",
            "--reporter",
            "list",
            "--reporter",
            "junit",
            "--events",
            "events.jsonl",
        ])
        .run()
        .assert_exit(0)
        .stdout_contains("PASS scenarios/login.steps › sign in [who=admin, pw=${PASSWORD}] (")
        .stdout_contains("PASS scenarios/login.steps › sign in [who=guest, pw=guest-pass-123] (")
        .stdout_contains("typed ***")
        .stdout_contains("typed guest-pass-123")
        .stdout_line("2 passed, 0 failed");
    assert_no_secret_anywhere(&out);
}

/// A password as real ones are: quotes, a backslash, `%`, `&<>`, spaces, a non-ASCII letter,
/// and a second line.
const HOSTILE: &str = "Ht<&>\"q z%2\\ä'x\nSecond line-99";

/// The forms `HOSTILE` takes in sinks, one line at a time: as it is, JSON-escaped,
/// HTML-escaped, percent-encoded with `+` and with `%20`. Any of them in a sink is a leak.
fn hostile_forms() -> Vec<String> {
    let mut forms = Vec::new();
    for line in HOSTILE.lines() {
        let json = serde_json::to_string(line).unwrap();
        let form: String = url::form_urlencoded::byte_serialize(line.as_bytes()).collect();
        forms.extend([
            line.to_owned(),
            json[1..json.len() - 1].to_owned(),
            line.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('"', "&quot;"),
            form.replace('+', "%20"),
            form,
        ]);
    }
    forms
}

#[track_caller]
fn assert_no_hostile_form(out: &Output, what: &str, text: &str) {
    for form in hostile_forms() {
        if text.contains(&form) {
            out.fail(&format!("{what} holds the secret as {form:?}:\n{text}"));
        }
    }
}

#[test]
fn vars_a_secret_with_quotes_percent_markup_and_lines_leaks_in_no_form_to_any_sink() {
    const SIGN_IN_ANYWHERE: &str = "async function step(page) {
  await page.goto('/?who=' + encodeURIComponent(vars.PASSWORD));
  await page.locator('#pw').fill(vars.PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  console.log('typed ' + JSON.stringify(vars.PASSWORD));
  console.log('url ' + page.url());
}";
    let page = PAGE.replace(
        r#"<input type="password" id="pw">"#,
        r#"<textarea id="pw"></textarea>"#,
    );
    let llm = FakeLlm::start();
    llm.on_contains("STEP:\nopen the app", fenced(OPEN).as_str());
    llm.on_contains(
        "STEP:\nsign in with ${PASSWORD}",
        fenced(SIGN_IN_ANYWHERE).as_str(),
    );
    // The check fails with the page's text, secret included, as its Received value, and the
    // URL holds the secret percent-encoded.
    llm.on_contains(
        "STEP:\nthe greeting is shown",
        fenced(
            "async function step(page) {\n  await expect(page.getByTestId('echo')).toHaveText('Welcome', { timeout: 1000 });\n}",
        )
        .as_str(),
    );
    llm.on_contains(
        "You classify",
        "product_defect | the page shows the password instead of a greeting | fix the page",
    );
    let out = Test::new()
        .config(&llm_config(&llm.base_url()))
        .scenario(
            SCENARIO,
            "test: sign in\n  open the app\n  sign in with ${PASSWORD}\n  the greeting is shown\n",
        )
        .page("index.html", &page)
        .env("PASSWORD", HOSTILE)
        .args(&[
            "run",
            "-v",
            "--reporter",
            "list",
            "--reporter",
            "json",
            "--reporter",
            "junit",
            "--reporter",
            "html",
            "--reporter",
            "blob",
            "--events",
            "events.jsonl",
            "--trace",
            "off",
        ])
        .run()
        .assert_exit(1)
        .stdout_contains("typed \"***\"")
        .stdout_contains("url http://127.0.0.1:")
        .stdout_contains("/?who=***")
        .output_contains("Received: \"Signed in with ***\"");
    assert_no_hostile_form(&out, "stdout", out.stdout());
    assert_no_hostile_form(&out, "stderr", out.stderr());
    for (path, text) in files_under(&out.project_dir()) {
        // The page the test serves holds no secret; the run wrote everything else.
        assert_no_hostile_form(&out, &path, &text);
    }
    let requests = llm.requests();
    assert!(requests.len() >= 3, "{} requests", requests.len());
    for request in &requests {
        let text = format!("{}\n{}", request.system(), request.user_text());
        assert_no_hostile_form(&out, "an LLM request", &text);
    }
    assert!(
        requests
            .iter()
            .any(|r| r.user_text().contains("Signed in with ${PASSWORD}")),
        "the snapshot shows the placeholder"
    );
}

#[test]
fn vars_code_building_a_secret_from_constants_is_never_cached() {
    let codes: Vec<String> = SECRET.chars().map(|c| (c as u32).to_string()).collect();
    let reversed: String = SECRET.chars().rev().collect();
    let forms = [
        "'Zq9-s3cr' + '3t-Walrus-4711'".to_owned(),
        "`Zq9-${'s3cr3t'}-Walrus-${4711}`".to_owned(),
        "['Zq9', 's3cr3t', 'Walrus', '4711'].join('-')".to_owned(),
        format!("String.fromCharCode({})", codes.join(", ")),
        format!("'{reversed}'.split('').reverse().join('')"),
    ];
    let llm = FakeLlm::start();
    llm.on_contains("STEP:\nopen the app", fenced(OPEN).as_str());
    let mut steps = String::from("background:\n  open the app\n");
    for (i, form) in forms.iter().enumerate() {
        let sentence = format!("sign in with ${{PASSWORD}} the way {i}");
        let code = SIGN_IN.replace("vars.PASSWORD", form);
        assert!(!code.contains(SECRET), "{code}");
        llm.on_contains(&format!("STEP:\n{sentence}\n"), fenced(&code).as_str());
        steps.push_str(&format!("\ntest: way {i}\n  {sentence}\n"));
    }
    let out = Test::new()
        .config(&llm_config(&llm.base_url()))
        .scenario(SCENARIO, &steps)
        .page("index.html", PAGE)
        .env("PASSWORD", SECRET)
        .args(&["run", "-j", "1"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 5 failed")
        // Each form is refused for the secret it builds.
        .output_count("it holds the value of the secret ${PASSWORD}", 5);
    assert!(llm.take_unexpected().is_empty());
    let cache = out.read("cache/scenarios/login.steps.toml");
    assert!(!cache.contains("[[steps]]"), "{cache}");
    assert_no_secret_anywhere(&out);
}
