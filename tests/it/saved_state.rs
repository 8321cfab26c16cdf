//! Saved logins end to end (`[saves=NAME]`, `[state=NAME]`): a setup test signs in once, its
//! cookies and localStorage are saved to `.prettyplay/state/NAME.json` and every test that
//! starts from it sees them, on two workers, while a test without the state does not; the
//! setup of a test in another file is found and run first, once; a setup that fails fails its
//! dependents as "setup failed" without running them; a shard runs the setups its tests need;
//! `list` shows them; a state no test saves is an error at the test's line. With context reuse
//! (`isolation = "reuse"`) the state reaches the same tests and no others.

use crate::support::{Output, Test};

/// "Sign in" sets a cookie and a localStorage entry from JavaScript.
const LOGIN: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>sign in</title></head>
<body>
  <button type="button" id="in">Sign in</button>
  <p id="said"></p>
  <script>
    document.getElementById('in').onclick = () => {
      document.cookie = 'sid=abc123; path=/; max-age=3600';
      localStorage.setItem('user', 'ada');
      document.getElementById('said').textContent = 'welcome';
    };
  </script>
</body></html>"#;

/// Says who is signed in: the cookie and the localStorage entry both count.
const HOME: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>home</title></head>
<body>
  <p id="who"></p>
  <script>
    const cookie = document.cookie.includes('sid=abc123') ? 'cookie' : 'no cookie';
    const user = localStorage.getItem('user') || 'nobody';
    document.getElementById('who').textContent = `user ${user}, ${cookie}`;
  </script>
</body></html>"#;

const AUTH: &str = "scenarios/auth.steps";
const SHOP: &str = "scenarios/shop.steps";

const SIGN_IN: &str = "async function step(page) {
  await page.goto('/login.html');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('#said')).toHaveText('welcome');
}";

/// A setup that never passes: the page never says "refused".
const SIGN_IN_FAILS: &str = "async function step(page) {
  await page.goto('/login.html');
  await expect(page.getByText('refused')).toBeVisible({ timeout: 300 });
}";

const SIGNED_IN: &str = "async function step(page) {
  await page.goto('/home.html');
  await expect(page.locator('#who')).toHaveText('user ada, cookie');
}";

const SIGNED_OUT: &str = "async function step(page) {
  await page.goto('/home.html');
  await expect(page.locator('#who')).toHaveText('user nobody, no cookie');
}";

/// `auth.steps` saves `user`; `shop.steps` has two tests that start from it and one that does not.
fn project(sign_in: &str) -> Test {
    Test::new()
        .page("login.html", LOGIN)
        .page("home.html", HOME)
        .scenario(AUTH, "test: sign in [saves=user] @setup\n  sign in\n")
        .scenario(
            SHOP,
            "test: cart [state=user]\n  open home\n\
             test: fresh\n  open home signed out\n\
             test: orders @slow [state=user]\n  open home\n",
        )
        .cached(AUTH, "sign in", "sign in", 1, sign_in)
        .cached(SHOP, "cart", "open home", 1, SIGNED_IN)
        .cached(SHOP, "fresh", "open home signed out", 1, SIGNED_OUT)
        .cached(SHOP, "orders", "open home", 1, SIGNED_IN)
}

fn events(out: &Output) -> Vec<serde_json::Value> {
    out.read("run.jsonl")
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// The names of the tests started, in order.
fn started(events: &[serde_json::Value]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e["event"] == "test_started")
        .map(|e| e["test"]["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_saved_login_is_reused_by_two_tests_on_two_workers_and_only_by_them() {
    let out = project(SIGN_IN)
        .args(&[
            "replay",
            "--strict",
            "-j",
            "2",
            "--events",
            "run.jsonl",
            SHOP,
        ])
        .run()
        .assert_exit(0)
        .stdout_contains(&format!("PASS {AUTH} › sign in ("))
        .stdout_contains(&format!("PASS {SHOP} › cart ("))
        .stdout_contains(&format!("PASS {SHOP} › orders ("))
        .stdout_contains(&format!("PASS {SHOP} › fresh ("))
        .stdout_line("4 passed, 0 failed");
    let events = events(&out);
    let started = started(&events);
    // The setup, from a file not named, runs once (another worker may start `fresh` first).
    assert_eq!(started.iter().filter(|n| *n == "sign in").count(), 1);
    // The dependents started after the setup finished.
    let position = |event: &str, name: &str| {
        events
            .iter()
            .position(|e| e["event"] == event && e["test"]["name"] == name)
            .unwrap()
    };
    let setup_done = position("test_finished", "sign in");
    assert!(position("test_started", "cart") > setup_done);
    assert!(position("test_started", "orders") > setup_done);

    let state: serde_json::Value =
        serde_json::from_str(&out.read(".prettyplay/state/user.json")).unwrap();
    let cookies = state["cookies"].as_array().unwrap();
    assert!(
        cookies
            .iter()
            .any(|c| c["name"] == "sid" && c["value"] == "abc123"),
        "{state}"
    );
    let storage = &state["origins"][0]["localStorage"];
    assert_eq!(storage[0]["name"], "user", "{state}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let path = out.project_dir().join(".prettyplay/state/user.json");
        let mode = std::fs::metadata(path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the state holds session cookies");
    }
}

#[test]
fn with_context_reuse_only_the_tests_that_start_from_the_login_see_it() {
    // One worker: the setup, the two tests with the state and the one without share the
    // worker's reused context, which the driver makes anew when the state differs and resets
    // when it is the same (`isolation = "reuse"`).
    project(SIGN_IN)
        .env("PRETTYPLAY_BROWSER_ISOLATION", "reuse")
        .args(&["replay", "--strict", "-j", "1"])
        .run()
        .assert_exit(0)
        .stdout_contains(&format!("PASS {SHOP} › cart ("))
        .stdout_contains(&format!("PASS {SHOP} › orders ("))
        .stdout_contains(&format!("PASS {SHOP} › fresh ("))
        .stdout_line("4 passed, 0 failed");
}

#[test]
fn a_failed_setup_fails_its_dependents_without_running_them() {
    let out = project(SIGN_IN_FAILS)
        .args(&["replay", "--strict", "-j", "2", "--events", "run.jsonl"])
        .run()
        .assert_exit(1)
        .stdout_contains(&format!("FAIL {AUTH} › sign in ("))
        .stdout_contains(&format!("PASS {SHOP} › fresh ("))
        .stdout_contains(&format!(
            "setup failed: `{AUTH} › sign in` (line 1), which saves state `user`, did not pass; \
             this test did not run"
        ))
        .stdout_line("1 passed, 3 failed");
    let events = events(&out);
    for name in ["cart", "orders"] {
        let finished = events
            .iter()
            .find(|e| e["event"] == "test_finished" && e["test"]["name"] == name)
            .unwrap();
        assert_eq!(
            finished["outcome"]["cause"]["type"], "setup_failed",
            "{finished}"
        );
        assert_eq!(finished["outcome"]["cause"]["state"], "user");
        // Not one step of theirs ran.
        assert!(
            !events
                .iter()
                .any(|e| e["test"]["name"] == name
                    && e["event"].as_str().unwrap().starts_with("step_")),
            "{name} ran a step"
        );
    }
    assert!(!out.exists(".prettyplay/state/user.json"), "nothing saved");
}

#[test]
fn a_shard_and_a_tag_selection_run_the_setups_their_tests_need() {
    // The tests in order: `auth › sign in`, `shop › cart`, `shop › fresh`, `shop › orders`;
    // shard 2/2 is `cart` and `orders`, which need `sign in` of shard 1.
    let out = project(SIGN_IN)
        .args(&[
            "replay",
            "--strict",
            "-j",
            "1",
            "--shard",
            "2/2",
            "--events",
            "run.jsonl",
        ])
        .run()
        .assert_exit(0)
        .stdout_line("3 passed, 0 failed");
    assert_eq!(started(&events(&out)), ["sign in", "cart", "orders"]);

    let listed = project(SIGN_IN)
        .args(&["list", "--tag", "slow"])
        .run()
        .assert_exit(0);
    let tests: Vec<&str> = listed
        .stdout()
        .lines()
        .filter(|line| line.starts_with("scenarios/"))
        .collect();
    assert_eq!(tests.len(), 2, "{}", listed.stdout());
    assert!(
        tests[0].starts_with(&format!("{AUTH} › sign in")),
        "{tests:?}"
    );
    assert!(
        tests[1].starts_with(&format!("{SHOP} › orders")),
        "{tests:?}"
    );
    assert!(tests[0].contains(" [saves=user]"), "{tests:?}");
    assert!(tests[1].contains(" [state=user]"), "{tests:?}");
}

#[test]
fn a_state_no_test_saves_is_an_error_at_the_test() {
    Test::new()
        .scenario(SHOP, "\n\ntest: cart [state=admin]\n  open home\n")
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(2)
        .output_contains(&format!(
            "{SHOP}:3: no test saves state `admin`, which `cart` starts from"
        ))
        .output_contains("add `[saves=admin]` to the header of the test that prepares it");
}

#[test]
fn a_state_file_that_cannot_be_written_is_a_warning_and_the_run_uses_the_state() {
    // `.prettyplay/state` is a file: no state file can go there.
    project(SIGN_IN)
        .write(".prettyplay/state", "not a directory")
        .args(&["replay", "--strict", "-j", "1", SHOP])
        .run()
        .assert_exit(0)
        .stderr_contains("could not write state `user` to")
        .stderr_contains("this run's tests start from it all the same")
        .stdout_line("4 passed, 0 failed");
}
