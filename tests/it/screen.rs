//! `[browser] screen` end to end: the same step code checks what a page sees of its window (inner
//! size, touch points, user agent) under each screen mode, in a real headless Chromium; a
//! malformed value stops the run before anything starts.

use crate::support::{Output, Test};

/// Shows what the page sees. The viewport meta tag keeps a mobile layout viewport at the
/// device's width (without it, Chromium lays mobile pages out 980 pixels wide).
const PAGE: &str = r#"<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>screen</title>
</head>
<body>
  <p id="size"></p>
  <p id="touch"></p>
  <p id="ua"></p>
  <script>
    function show() {
      document.getElementById('size').textContent = window.innerWidth + 'x' + window.innerHeight;
      document.getElementById('touch').textContent =
        navigator.maxTouchPoints > 0 ? 'touch' : 'no touch';
      document.getElementById('ua').textContent = navigator.userAgent;
    }
    show();
    window.addEventListener('resize', show);
  </script>
</body>
</html>
"#;

const SCENARIO: &str = "scenarios/screen.steps";

/// Replays one step, `code`, against [`PAGE`] with `screen_line` in `[browser]`; every check is
/// meant to pass, so the 10 s timeout is a margin for a loaded machine.
fn screen_test(screen_line: &str, code: &str) -> Test {
    Test::new()
        .config(&format!("[browser]\ntimeout = 10\n{screen_line}\n"))
        .page("index.html", PAGE)
        .scenario(SCENARIO, "test: the screen\n  check the screen\n")
        .cached(SCENARIO, "the screen", "check the screen", 1, code)
        .args(&["replay", "--strict"])
}

/// Step code that opens the page and expects these texts.
fn expects(size: &str, touch: &str, ua_part: &str) -> String {
    format!(
        "async function step(page) {{
  await page.goto('/');
  await expect(page.locator('#size')).toHaveText('{size}');
  await expect(page.locator('#touch')).toHaveText('{touch}');
  await expect(page.locator('#ua')).toContainText('{ua_part}');
}}"
    )
}

fn passes(output: Output) {
    output
        .assert_exit(0)
        .stdout_contains("PASS scenarios/screen.steps › the screen (")
        .stdout_line("1 passed, 0 failed");
}

#[test]
fn screen_default_is_playwrights_1280x720() {
    passes(screen_test("", &expects("1280x720", "no touch", "Mozilla")).run());
}

#[test]
fn screen_size_sets_the_viewport() {
    passes(
        screen_test(
            "screen = \"800x600\"",
            &expects("800x600", "no touch", "Mozilla"),
        )
        .run(),
    );
}

#[test]
fn screen_flag_overrides_the_file() {
    passes(
        screen_test(
            "screen = \"800x600\"",
            &expects("1024x768", "no touch", "Mozilla"),
        )
        .args(&["--screen", "1024X768"])
        .run(),
    );
}

#[test]
fn screen_device_emulates_an_iphone() {
    // playwright-core 1.64's `iPhone 13`: a 390x664 viewport, touch, an iPhone user agent.
    passes(
        screen_test(
            "screen = \"iPhone 13\"",
            &expects("390x664", "touch", "iPhone"),
        )
        .run(),
    );
}

#[test]
fn screen_device_from_the_environment() {
    passes(
        screen_test("", &expects("412x839", "touch", "Pixel 7"))
            .env("PRETTYPLAY_BROWSER_SCREEN", "Pixel 7")
            .run(),
    );
}

#[test]
fn screen_fullscreen_takes_the_window_size() {
    // Headless, the window is 1920x1080 and the page has no viewport of its own: it gets the
    // window's width and what the (emulated) toolbars leave of its height.
    let code = "async function step(page) {
  await page.goto('/');
  await expect(page.locator('#size')).toContainText('1920x');
  await expect(page.locator('#touch')).toHaveText('no touch');
}";
    passes(screen_test("screen = \"fullscreen\"", code).run());
}

#[test]
fn screen_malformed_value_is_a_config_error_naming_the_forms() {
    // No page: the run stops at the settings, before any browser is needed.
    Test::new()
        .config("[browser]\nscreen = \"800x0\"\n")
        .scenario(SCENARIO, "test: the screen\n  check the screen\n")
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(2)
        .stderr_contains("prettyplay.toml:2:10: `browser.screen` must be empty, WxH such as 1280x720, fullscreen, or a device name such as \"iPhone 13\", got \"800x0\"");
    Test::new()
        .scenario(SCENARIO, "test: the screen\n  check the screen\n")
        .env("PRETTYPLAY_BROWSER_SCREEN", "Fullscreen")
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(2)
        .stderr_contains("environment variable `PRETTYPLAY_BROWSER_SCREEN` has invalid value `Fullscreen`: expected empty, WxH such as 1280x720, fullscreen, or a device name such as \"iPhone 13\"");
}

#[test]
fn screen_unknown_device_is_a_config_error_with_close_names() {
    screen_test(
        "screen = \"iphone 13\"",
        &expects("390x664", "touch", "iPhone"),
    )
    .run()
    .assert_exit(2)
    .stderr_contains("unknown device `iphone 13` (from `[browser] screen` in /")
    .stderr_contains("did you mean \"iPhone 13\", ")
    .output_not_contains("the screen (");
}
