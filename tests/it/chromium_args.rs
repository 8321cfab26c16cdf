//! The switches prettyplay launches Chromium with, end to end. A page with a password form makes
//! Chromium ask Google's autofill server about the form; prettyplay turns that off, so with
//! `allowed_origins` on nothing of the kind reaches the context's proxy (each query was a
//! refused connection of the test, and with every origin allowed it would leave the machine).
//! Chromium keeps only the last `--disable-features` switch of its command line, so prettyplay's
//! one switch must name every feature the pinned Playwright driver turns off, read here from
//! the driver itself.

use std::collections::BTreeSet;

use crate::support::{Test, driver_cli_js, repo_dir};

const SCENARIO: &str = "scenarios/login.steps";

const SIGN_IN: &str = r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>sign in</title></head>
<body>
  <form id="form">
    <label>Username <input id="user" name="username" autocomplete="username"></label>
    <label>Password <input id="password" name="password" type="password" autocomplete="current-password"></label>
    <button>Sign in</button>
  </form>
  <p role="status"></p>
  <script>
    document.getElementById('form').addEventListener('submit', (e) => {
      e.preventDefault();
      document.querySelector('[role=status]').textContent = 'Welcome back';
    });
  </script>
</body>
</html>
"#;

/// A sign-in with a secret on a page with a password form passes, and the guard refuses no
/// connection: Chromium sent nothing of its own.
#[test]
fn a_password_form_makes_chromium_send_nothing_of_its_own() {
    let code = "async function step(page) {\n  await page.goto('/');\n  \
                await page.getByLabel('Username').fill('alice');\n  \
                await page.getByLabel('Password').fill(vars.PASSWORD);\n  \
                await page.getByRole('button', { name: 'Sign in' }).click();\n  \
                await expect(page.getByRole('status')).toHaveText('Welcome back');\n}\n";
    Test::new()
        .page("index.html", SIGN_IN)
        .env("PASSWORD", "Form-s3cret-Quokka")
        .env("RUST_LOG", "prettyplay=info")
        .scenario(SCENARIO, "test: sign in\n  sign in with ${PASSWORD}\n")
        .cached(SCENARIO, "sign in", "sign in with ${PASSWORD}", 1, code)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .output_not_contains("refused by [browser] allowed_origins")
        .output_not_contains("googleapis");
}

/// The names of `disabledFeatures` in the driver's Chromium switches: every quoted name from
/// the list's start to its `].filter(Boolean)`, comments aside.
fn driver_disabled_features() -> BTreeSet<String> {
    let lib = driver_cli_js()
        .parent()
        .expect("the driver's directory")
        .join("lib");
    let bundle = ["coreBundle.js", "server/chromium/chromiumSwitches.js"]
        .iter()
        .map(|file| lib.join(file))
        .find_map(|path| std::fs::read_to_string(path).ok())
        .unwrap_or_else(|| panic!("no Chromium switches in the driver under {}", lib.display()));
    let start = bundle
        .find("disabledFeatures = [")
        .expect("the driver's list of disabled features");
    let list = &bundle[start + "disabledFeatures = [".len()..];
    let list = &list[..list
        .find("].filter(Boolean)")
        .expect("the end of the driver's list")];
    assert!(
        !list.contains("/*") && !list.contains("..."),
        "the driver's list has a form this test does not read; read it by hand:\n{list}"
    );
    let names: BTreeSet<String> = list
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .flat_map(|line| line.split('"').skip(1).step_by(2))
        .map(str::to_owned)
        .collect();
    assert!(
        names.len() >= 5,
        "the driver's list was not read: {names:?}"
    );
    names
}

/// The names of the one `--disable-features` switch among `args` (quoted strings of `text`).
fn disabled_features(text: &str, what: &str) -> BTreeSet<String> {
    let switches: Vec<&str> = text
        .split('"')
        .filter(|part| part.starts_with("--disable-features="))
        .collect();
    assert_eq!(switches.len(), 1, "{what}: {text}");
    switches[0]["--disable-features=".len()..]
        .split(',')
        .map(str::to_owned)
        .collect()
}

/// The exported Playwright config carries prettyplay's Chromium switches: one
/// `--disable-features`, naming exactly the driver's features and the autofill server's. The
/// side-by-side benchmark launches the other ways with the same switch.
#[test]
fn the_one_disable_features_switch_keeps_every_feature_the_driver_turns_off() {
    let out = Test::new()
        .page("index.html", SIGN_IN)
        .scenario(SCENARIO, "test: sign in\n  open the app\n")
        .args(&["export", "--playwright", "e2e"])
        .run()
        .assert_exit(0);
    let ours = disabled_features(&out.read("e2e/playwright.config.ts"), "the exported config");
    let mut expected = driver_disabled_features();
    expected.insert("AutofillServerCommunication".to_owned());
    assert_eq!(
        ours, expected,
        "prettyplay's switch must name the driver's features, which it replaces, and no other \
         but the autofill server's"
    );
    let bench = std::fs::read_to_string(repo_dir().join("scripts/bench-compare"))
        .expect("scripts/bench-compare");
    let args = bench
        .lines()
        .find(|line| line.starts_with("ARGS='["))
        .expect("the benchmark's ARGS line");
    assert_eq!(
        disabled_features(args, "scripts/bench-compare's ARGS"),
        ours,
        "the benchmark launches the other ways with prettyplay's switches"
    );
}
