//! `toHaveNoAccessibilityViolations` end to end, in a real headless browser against pages
//! served on 127.0.0.1, with the axe-core `prettyplay install` put beside the driver: a page with
//! an image without alt text and an unlabelled input fails as a PRODUCT DEFECT naming the rules
//! and the elements, a rule accepted in prettyplay.toml no longer fails, the fixed page passes,
//! and a locator scopes the check to its elements.

use crate::support::Test;

const SCENARIO: &str = "scenarios/a11y.steps";
const STEP: &str = "the page has no accessibility violations";

/// A sign-up page: `broken` leaves the logo without alt text and the email input without a
/// label, in the form; the footer's image has its alt text either way.
fn page(broken: bool) -> String {
    let (alt, label) = if broken {
        ("", "")
    } else {
        (" alt=\"Acme\"", "<label for=\"email\">Email</label>")
    };
    format!(
        "<!doctype html><html lang=\"en\"><head><title>Sign up</title></head><body>\
         <header><img id=\"logo\" src=\"data:image/gif;base64,R0lGODlhAQABAAAAACw=\"{alt}></header>\
         <main><h1>Sign up</h1>\
         <form id=\"signup\">{label}<input id=\"email\" type=\"email\">\
         <button type=\"submit\">Join</button></form></main>\
         <footer><p>Acme</p></footer></body></html>"
    )
}

fn project(broken: bool, config: &str, code: &str) -> Test {
    project_with(&page(broken), config, code)
}

fn project_with(html: &str, config: &str, code: &str) -> Test {
    let scenario = format!("test: sign up\n  open the page\n  {STEP}\n");
    Test::new()
        .config(&format!(
            "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n{config}"
        ))
        .page("index.html", html)
        .scenario(SCENARIO, &scenario)
        .cached(
            SCENARIO,
            "sign up",
            "open the page",
            1,
            "async function step(page) {\n  await page.goto('/index.html');\n}",
        )
        .cached(SCENARIO, "sign up", STEP, 1, code)
}

const WHOLE_PAGE: &str =
    "async function step(page) {\n  await expect(page).toHaveNoAccessibilityViolations();\n}";

#[test]
fn a_missing_alt_and_label_fail_with_the_rules_and_elements_until_the_page_is_fixed() {
    fails_until_fixed("");
}

/// The same check in Firefox finds the same violations and passes on the fixed page.
#[test]
fn a_missing_alt_and_label_fail_alike_in_firefox() {
    crate::support::require_firefox();
    fails_until_fixed("[browser]\nname = \"firefox\"\n");
}

fn fails_until_fixed(config: &str) {
    let broken = project(true, config, WHOLE_PAGE)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("PRODUCT DEFECT")
        .stdout_contains("axe-core found accessibility violations")
        .stdout_contains("image-alt (critical)")
        .stdout_contains("#logo")
        .stdout_contains("label (critical)")
        .stdout_contains("#email")
        .stdout_contains("https://dequeuniversity.com/rules/axe/4.14/image-alt");
    broken
        .again()
        .page("index.html", &page(false))
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_contains("1 passed");
}

#[test]
fn an_accepted_rule_passes_and_is_told_while_the_others_still_fail() {
    let accept_both = "[accessibility]\naccept = [\n  { rule = \"image-alt\", reason = \"logo, JIRA-1\" },\n  { rule = \"label\", reason = \"legacy form, JIRA-2\" },\n]\n";
    project(true, accept_both, WHOLE_PAGE)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_contains("1 passed");
    let accept_one =
        "[accessibility]\naccept = [{ rule = \"image-alt\", reason = \"logo, JIRA-1\" }]\n";
    project(true, accept_one, WHOLE_PAGE)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("label (critical)")
        .stdout_contains("#email")
        .output_not_contains("image-alt (critical)");
    // The flag's list replaces the file's, as every flag beats the file.
    project(true, accept_one, WHOLE_PAGE)
        .args(&["replay", "--strict", "--a11y-accept", "label=legacy form"])
        .run()
        .assert_exit(1)
        .stdout_contains("image-alt (critical)")
        .output_not_contains("label (critical)");
    project(true, "", WHOLE_PAGE)
        .args(&[
            "replay",
            "--strict",
            "--a11y-accept",
            "label=legacy form",
            "--a11y-accept",
            "image-alt=logo",
        ])
        .run()
        .assert_exit(0)
        .stdout_contains("1 passed");
}

#[test]
fn a_locator_scopes_the_check_and_exclude_or_rules_narrow_it() {
    let form = "async function step(page) {\n  await expect(page.locator('#signup')).toHaveNoAccessibilityViolations();\n}";
    project(true, "", form)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("label (critical)")
        .stdout_contains("#email")
        .output_not_contains("image-alt");
    let footer = "async function step(page) {\n  await expect(page.locator('footer')).toHaveNoAccessibilityViolations();\n}";
    project(true, "", footer)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0);
    let excluded = "async function step(page) {\n  await expect(page).toHaveNoAccessibilityViolations({ exclude: ['header', '#signup'] });\n}";
    project(true, "", excluded)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0);
    let only_alt = "async function step(page) {\n  await expect(page).toHaveNoAccessibilityViolations({ rules: ['image-alt'] });\n}";
    project(true, "", only_alt)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("image-alt (critical)")
        .output_not_contains("label (critical)");
}

#[test]
fn a_missing_axe_core_is_an_error_naming_prettyplay_install() {
    let driver = crate::support::driver_cli_js();
    let empty = tempfile::tempdir().unwrap();
    project(false, "", WHOLE_PAGE)
        .env("PLAYWRIGHT_CLI_JS", driver.to_str().unwrap())
        .env("PRETTYPLAY_DRIVER_DIR", empty.path().to_str().unwrap())
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(2)
        .stdout_contains("axe-core 4.14.1 is not installed")
        .stdout_contains("prettyplay install");
}

#[test]
fn an_impact_floor_leaves_out_the_lesser_violations() {
    // Text outside every landmark breaks axe's `region` rule, whose impact is moderate.
    let stray = page(false).replace("</body>", "<p>stray text</p></body>");
    project_with(&stray, "", WHOLE_PAGE)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("region (moderate)");
    let serious = "async function step(page) {\n  await expect(page).toHaveNoAccessibilityViolations({ impact: 'serious' });\n}";
    project_with(&stray, "", serious)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0);
    project(true, "", serious)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("label (critical)");
}

/// A project whose steps the built-in generator writes, offline: no `[llm]`, no cached code.
fn generated(html: &str, steps: &str) -> Test {
    Test::new()
        .config("scenarios = \"scenarios\"\ncache_dir = \"cache\"\n")
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .page("index.html", html)
        .scenario(
            SCENARIO,
            &format!("test: sign up\n  open /index.html\n{steps}"),
        )
}

#[test]
fn the_sentences_generate_the_check_offline_and_it_fails_as_a_product_defect() {
    let broken = generated(&page(true), "  the form has no accessibility violations\n")
        .args(&["run"])
        .run()
        .assert_exit(1)
        .stdout_contains("PRODUCT DEFECT")
        .stdout_contains("label (critical)")
        .stdout_contains("#email")
        .output_not_contains("image-alt");
    assert!(
        !broken
            .read("cache/scenarios/a11y.steps.toml")
            .contains("toHaveNoAccessibilityViolations"),
        "code that failed is not cached"
    );
    let fixed = generated(
        &page(false),
        "  the page has no serious accessibility violations\n  the form has no accessibility violations\n",
    )
    .args(&["run"])
    .run()
    .assert_exit(0)
    .stdout_contains("1 passed");
    let cache = fixed.read("cache/scenarios/a11y.steps.toml");
    assert!(
        cache
            .contains("await expect(page).toHaveNoAccessibilityViolations({ impact: 'serious' });"),
        "{cache}"
    );
    assert!(
        cache.contains("await expect(page.locator('form')).toHaveNoAccessibilityViolations();"),
        "{cache}"
    );
    // Replayed, strict: the cached checks still fail on the broken page.
    fixed
        .again()
        .page("index.html", &page(true))
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_contains("PRODUCT DEFECT")
        .stdout_contains("image-alt (critical)");
}

#[test]
fn the_visual_sentences_generate_a_screenshot_check_with_its_masks() {
    let first = generated(
        &page(false),
        "  the page looks as before, ignoring the footer\n  the header looks the same\n",
    )
    .args(&["run"])
    .run()
    .assert_exit(0)
    .stdout_contains("1 passed");
    let cache = first.read("cache/scenarios/a11y.steps.toml");
    assert!(
        cache.contains(
            "await expect(page).toHaveScreenshot({ mask: [page.locator('footer, [role=\\\"contentinfo\\\"]')] });"
        ) || cache.contains("toHaveScreenshot({ mask: [page.locator('footer"),
        "{cache}"
    );
    assert!(cache.contains("toHaveScreenshot();"), "{cache}");
    assert!(first.exists("cache/scenarios/a11y.steps-snapshots/sign-up-2-chromium.png"));
    // The footer's text changes: it is masked, so the page still looks as before.
    first
        .again()
        .page(
            "index.html",
            &page(false).replace("<p>Acme</p>", "<p>Acme 2027</p>"),
        )
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0);
}
