//! `[optional]` steps end to end, in a real Chromium against pages served on 127.0.0.1 with the
//! built-in generator and no LLM: a cookie banner that is there on one run and not on the next,
//! with the same cached code; an optional step whose target is there but whose code fails
//! otherwise; and an optional check, refused before anything runs.

use crate::support::Test;

const SCENARIO: &str = "scenarios/shop.steps";
const CACHE: &str = "cache/scenarios/shop.steps.toml";

/// The shop with its cookie banner; accepting the cookies removes the banner.
const WITH_BANNER: &str = r#"<!doctype html><html><head><title>Shop</title></head><body>
<div id="banner" role="dialog" aria-label="Cookies"><p>We use cookies</p>
<button onclick="document.getElementById('banner').remove()">Accept cookies</button></div>
<h1>Shop</h1>
</body></html>
"#;

/// The shop without a banner.
const WITHOUT_BANNER: &str =
    "<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1></body></html>\n";

/// Open, accept the banner if it shows, then a check that proves the banner is gone.
const STEPS: &str = "test: shop\n  open the app\n  click the \"Accept cookies\" button [optional]\n  \
                     the page does not show \"We use cookies\"\n";

const SKIPPED: &str = "↷ 2. click the \"Accept cookies\" button (skipped: optional, \"Accept \
                       cookies\" did not appear within 1s)";

/// The cached code of the last step.
const GONE: &str = "async function step(page) {\n  await expect(page.getByText('We use cookies')).toBeHidden();\n}";

fn shop(page: &str) -> Test {
    Test::new()
        .config("[polling]\noptional_timeout = 1\n")
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .scenario(SCENARIO, STEPS)
        .page("index.html", page)
}

/// The `step_skipped` events of the run's `--events` file.
fn skipped_events(out: &crate::support::Output) -> Vec<serde_json::Value> {
    out.events("events.jsonl")
        .into_iter()
        .filter(|e| e["event"] == "step_skipped")
        .collect()
}

#[test]
fn a_banner_step_is_clicked_when_present_and_skipped_when_absent_with_the_same_code() {
    // Run 1: the banner shows; the step is generated, clicks it, and is cached.
    let out = shop(WITH_BANNER)
        .args(&["run", "-v", "--events", "events.jsonl"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .stdout_contains("✓ 2. click the \"Accept cookies\" button")
        .output_not_contains("skipped");
    assert!(skipped_events(&out).is_empty());
    let cache = out.read(CACHE);
    assert!(
        cache.contains("step = \"click the \\\"Accept cookies\\\" button\"")
            && cache.contains(".click();"),
        "{cache}"
    );

    // Run 2: no banner, the same cached code, no generator: the step is skipped, not passed.
    let out = out
        .again()
        .page("index.html", WITHOUT_BANNER)
        .args(&[
            "replay",
            "--strict",
            "--events",
            "events.jsonl",
            "--reporter",
            "html",
        ])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .stdout_contains(SKIPPED)
        .stdout_contains("1 skipped (optional)");
    let skipped = skipped_events(&out);
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(skipped[0]["index"], 2);
    assert_eq!(skipped[0]["line"], 3);
    assert_eq!(
        skipped[0]["reason"],
        "\"Accept cookies\" did not appear within 1s"
    );
    let passed: Vec<_> = out
        .events("events.jsonl")
        .into_iter()
        .filter(|e| e["event"] == "step_passed")
        .map(|e| e["index"].as_u64().unwrap())
        .collect();
    assert_eq!(passed, [1, 3], "the skipped step is never passed");
    assert_eq!(
        out.read(CACHE),
        cache,
        "a skip changes nothing in the cache"
    );
    let html = out.read("prettyplay-report/index.html");
    assert!(
        html.contains("<li class=\"step skipped\" data-index=\"2\">")
            && html.contains("skipped: optional, \"Accept cookies\" did not appear within 1s"),
        "{html}"
    );

    // `run` too: the cached code is skipped, not healed or generated again.
    let out = out
        .again()
        .page("index.html", WITHOUT_BANNER)
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .args(&["run", "--reporter", "junit"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .stdout_contains(SKIPPED);
    assert_eq!(out.read(CACHE), cache);
    let junit = out.read("prettyplay-report/junit.xml");
    assert!(
        junit.contains("↷ 2. click the \"Accept cookies\" button (skipped")
            && junit.contains("skipped: optional, \"Accept cookies\" did not appear within 1s"),
        "{junit}"
    );
    assert!(!junit.contains("<failure"), "{junit}");

    // Back with the banner: the cached code clicks it again.
    out.again()
        .page("index.html", WITH_BANNER)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .output_not_contains("skipped");
}

#[test]
fn an_absent_target_when_generating_skips_the_step_and_caches_nothing_for_it() {
    let out = shop(WITHOUT_BANNER)
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .stdout_contains("↷ 2. click the \"Accept cookies\" button (skipped: optional,");
    let cache = out.read(CACHE);
    assert!(cache.contains("step = \"open the app\""), "{cache}");
    assert!(!cache.contains("Accept cookies\\\" button\""), "{cache}");
}

#[test]
fn a_banner_shown_after_a_delay_is_generated_and_clicked_on_the_first_run() {
    // The banner is added half a second after the page loaded: the built-in generator reads the
    // page again until it shows, within the step's bound.
    let delayed = r#"<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>
<script>
setTimeout(() => {
  const banner = document.createElement('div');
  banner.id = 'banner';
  banner.setAttribute('role', 'dialog');
  banner.setAttribute('aria-label', 'Cookies');
  banner.innerHTML = '<p>We use cookies</p><button>Accept cookies</button>';
  banner.querySelector('button').onclick = () => banner.remove();
  document.body.prepend(banner);
}, 500);
</script>
</body></html>
"#;
    let out = shop(delayed)
        .config("[polling]\noptional_timeout = 10\n")
        .args(&["run", "-v"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .stdout_contains("✓ 2. click the \"Accept cookies\" button")
        .output_not_contains("skipped");
    let cache = out.read(CACHE);
    assert!(
        cache.contains("name: 'Accept cookies', exact: true }).click()"),
        "{cache}"
    );
}

#[test]
fn a_target_the_generator_finds_twice_fails_the_optional_step_instead_of_skipping_it() {
    // The banner is there, with two buttons of the same name: the built-in generator cannot tell
    // which to click, which is no reason to believe the banner is absent.
    let twice = WITH_BANNER.replace(
        "</button></div>",
        "</button>\n<button onclick=\"document.getElementById('banner').remove()\">Accept \
         cookies</button></div>",
    );
    let out = shop(&twice)
        .args(&["run", "--events", "events.jsonl"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 1 failed")
        .stdout_contains("  step 2: click the \"Accept cookies\" button")
        .stdout_contains("2 elements on the page could be \"Accept cookies\"")
        .output_not_contains("skipped");
    assert!(skipped_events(&out).is_empty());
}

#[test]
fn a_target_possibly_inside_a_frame_fails_the_optional_step_instead_of_skipping_it() {
    // The banner is in an iframe, whose elements the built-in generator does not see.
    let framed = WITHOUT_BANNER.replace(
        "</body>",
        "<iframe srcdoc=\"<button>Accept cookies</button>\"></iframe></body>",
    );
    shop(&framed)
        .args(&["run", "-v"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 1 failed")
        .stdout_contains("has a frame whose elements the built-in generator does not see")
        .output_not_contains("skipped");
}

#[test]
fn an_optional_step_whose_code_rotted_gets_the_verdict_of_any_other() {
    // The banner is there, so the step is not skipped; its cached code then clicks a button the
    // banner no longer has. That is rot, judged from the evidence as for any step; the first
    // click already took the banner away, so the built-in generator has nothing to heal it with
    // and, with no LLM, the step fails with the verdict instead of being skipped.
    let rotted = "async function step(page) {\n  await page.getByRole('button', { name: \
                  'Accept cookies' }).click();\n  await page.getByRole('button', { name: \
                  'Save preferences' }).click();\n}";
    let out = shop(WITH_BANNER)
        .config("[polling]\noptional_timeout = 1\n[browser]\ntimeout = 2\n")
        .cached(
            SCENARIO,
            "shop",
            "open the app",
            1,
            "async function step(page) {\n  await page.goto('/');\n}",
        )
        .cached(
            SCENARIO,
            "shop",
            "click the \"Accept cookies\" button",
            1,
            rotted,
        )
        .cached(
            SCENARIO,
            "shop",
            "the page does not show \"We use cookies\"",
            1,
            GONE,
        )
        .args(&["run"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 1 failed")
        .stdout_contains("verdict: rot (from evidence)")
        .stdout_contains("healing this step needs [llm]")
        .output_not_contains("skipped");
    assert!(
        out.read(CACHE).contains("Save preferences"),
        "the cache is kept"
    );
}

/// The shop whose cached code for the banner step is `click`, the other steps' as generated.
fn cached_shop(page: &str, click: &str) -> Test {
    shop(page)
        .cached(
            SCENARIO,
            "shop",
            "open the app",
            1,
            "async function step(page) {\n  await page.goto('/');\n}",
        )
        .cached(
            SCENARIO,
            "shop",
            "click the \"Accept cookies\" button",
            1,
            click,
        )
        .cached(
            SCENARIO,
            "shop",
            "the page does not show \"We use cookies\"",
            1,
            GONE,
        )
}

#[test]
fn a_rotted_locator_of_a_banner_that_is_there_is_healed_not_skipped() {
    // The banner is there, but the cached code's locator no longer reaches its button: that is
    // rot, not an absent banner.
    let rotted = "async function step(page) {\n  await page.locator('#accept-btn').click();\n}";
    cached_shop(WITH_BANNER, rotted)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 1 failed")
        .stdout_contains("the element the sentence names is on the page")
        .output_not_contains("skipped");
    let out = cached_shop(WITH_BANNER, rotted)
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .stdout_contains("1 healed")
        .output_not_contains("skipped");
    let cache = out.read(CACHE);
    assert!(!cache.contains("#accept-btn"), "{cache}");
    // A hidden element matching first does not hide the visible target: the step is not
    // skipped, and its click fails on the two matches as any click would.
    let hidden_first = WITH_BANNER.replace(
        "<h1>Shop</h1>",
        "<h1>Shop</h1><span style=\"display:none\">Accept cookies</span>",
    );
    cached_shop(
        &hidden_first,
        "async function step(page) {\n  await page.getByText('Accept cookies').click();\n}",
    )
    .args(&["replay", "--strict"])
    .run()
    .assert_exit(1)
    .stdout_contains("strict mode violation")
    .output_not_contains("skipped");
}

#[test]
fn an_optional_step_whose_target_is_there_but_fails_otherwise_fails() {
    // The button is there, so the step is not skipped; what fails after it is a failure.
    let after_click = "async function step(page) {\n  await page.getByRole('button', { name: \
                       'Accept cookies' }).click();\n  await expect(page.getByText('Thanks')).\
                       toBeVisible();\n}";
    Test::new()
        .config("[polling]\noptional_timeout = 1\n[browser]\ntimeout = 2\n")
        .scenario(SCENARIO, STEPS)
        .page("index.html", WITH_BANNER)
        .cached(
            SCENARIO,
            "shop",
            "open the app",
            1,
            "async function step(page) {\n  await page.goto('/');\n}",
        )
        .cached(
            SCENARIO,
            "shop",
            "click the \"Accept cookies\" button",
            1,
            after_click,
        )
        .cached(
            SCENARIO,
            "shop",
            "the page does not show \"We use cookies\"",
            1,
            GONE,
        )
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 1 failed")
        .stdout_contains("Thanks")
        .output_not_contains("skipped");
    // A button that is there but never enabled: the click times out as any click does.
    let disabled = WITH_BANNER.replace("<button ", "<button disabled ");
    Test::new()
        .config("[polling]\noptional_timeout = 1\n[browser]\ntimeout = 2\n")
        .scenario(SCENARIO, STEPS)
        .page("index.html", &disabled)
        .cached(
            SCENARIO,
            "shop",
            "open the app",
            1,
            "async function step(page) {\n  await page.goto('/');\n}",
        )
        .cached(
            SCENARIO,
            "shop",
            "click the \"Accept cookies\" button",
            1,
            "async function step(page) {\n  await page.getByRole('button', { name: 'Accept \
             cookies' }).click();\n}",
        )
        .cached(
            SCENARIO,
            "shop",
            "the page does not show \"We use cookies\"",
            1,
            GONE,
        )
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_line("0 passed, 1 failed")
        .stdout_contains("locator.click: Timeout 2000ms exceeded")
        .output_not_contains("skipped");
}

#[test]
fn an_optional_check_is_refused_at_its_line_before_anything_runs() {
    Test::new()
        .scenario(
            SCENARIO,
            "test: shop\n  open the app\n  the \"Accept cookies\" button is shown [optional]\n",
        )
        .page("index.html", WITH_BANNER)
        .args(&["run"])
        .run()
        .assert_exit(2)
        .stderr_contains(
            "scenarios/shop.steps:3:40: a check cannot be optional: `the \"Accept cookies\" \
             button is shown` reads as a check",
        )
        .stderr_contains("remove `[optional]`")
        .output_not_contains("Running");
    // In a setup file that a named test needs (`[saves=NAME]`), loaded without being named.
    Test::new()
        .scenario(
            "scenarios/setup.steps",
            "test: accept [saves=shopper]\n  open the app\n  the \"Accept cookies\" button is shown \
             [optional]\n",
        )
        .scenario(SCENARIO, "test: shop [state=shopper]\n  open the app\n")
        .page("index.html", WITH_BANNER)
        .args(&["run", SCENARIO])
        .run()
        .assert_exit(2)
        .stderr_contains("scenarios/setup.steps:3:")
        .stderr_contains("a check cannot be optional")
        .output_not_contains("Running");
}

#[test]
fn optional_with_a_value_is_an_error_at_its_line() {
    Test::new()
        .scenario(SCENARIO, "test: shop\n  open the app [optional=yes]\n")
        .args(&["replay"])
        .run()
        .assert_exit(2)
        .stderr_contains(
            "scenarios/shop.steps:2:26: step option `optional` takes no value, found `yes`",
        )
        .stderr_contains("write `[optional]` alone");
}

#[test]
fn an_llm_candidate_whose_target_is_absent_skips_the_step_after_one_request() {
    let llm = crate::support::fake_llm::FakeLlm::start();
    llm.reply_text(
        "```js\nasync function step(page) {\n  await page.getByRole('button', { name: 'Accept \
         cookies' }).click();\n}\n```",
    );
    let out = Test::new()
        .config(&format!(
            "[polling]\noptional_timeout = 1\n[llm]\nprovider = \"openai\"\nmodel = \"fake\"\n\
             base_url = \"{}\"\n",
            llm.base_url()
        ))
        .scenario(SCENARIO, STEPS)
        .page("index.html", WITHOUT_BANNER)
        .cached(
            SCENARIO,
            "shop",
            "open the app",
            1,
            "async function step(page) {\n  await page.goto('/');\n}",
        )
        .cached(
            SCENARIO,
            "shop",
            "the page does not show \"We use cookies\"",
            1,
            GONE,
        )
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .stdout_contains(SKIPPED);
    assert_eq!(llm.request_count(), 1, "the absent target ends generation");
    assert!(llm.take_unexpected().is_empty());
    let cache = out.read(CACHE);
    assert!(!cache.contains("Accept cookies\\\" button\""), "{cache}");
}
