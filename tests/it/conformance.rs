//! Playwright API conformance: step code written from Playwright's documentation examples runs
//! against fixture pages (forms, lists, content that appears late, a scrolling container, an
//! element that is detached and re-attached all the time) in a real headless Chromium.
//!
//! One run replays a test per API group that must pass (`fixtures/conformance/pass/*.js`); the
//! failing runs replay one test per failing matcher or call, then check that each failure's
//! message names the matcher, the locator, what was expected and what was received, the way
//! Playwright Test prints them. Failing runs of web-first matchers use `[browser] timeout = 1` to
//! stay fast; value matchers fail at once and get a 10 s margin for the reads before them.

use crate::support::{Output, Test};

pub(crate) const SCENARIO: &str = "scenarios/conformance.steps";

/// A project serving the conformance pages, with files step code may upload.
fn conformance_project(config: &str) -> Test {
    Test::new()
        .config(config)
        .page(
            "form.html",
            include_str!("support/fixtures/conformance/form.html"),
        )
        .page(
            "lists.html",
            include_str!("support/fixtures/conformance/lists.html"),
        )
        .page(
            "dynamic.html",
            include_str!("support/fixtures/conformance/dynamic.html"),
        )
        .write("files/upload.txt", "hello\n")
        .write("files/data.json", r#"{"a": [1, 2]}"#)
}

/// The passing API groups: test name and step code.
pub(crate) const GROUPS: &[(&str, &str)] = &[
    (
        "locator factories",
        include_str!("support/fixtures/conformance/pass/factories.js"),
    ),
    (
        "filters and operators",
        include_str!("support/fixtures/conformance/pass/filters.js"),
    ),
    (
        "actions",
        include_str!("support/fixtures/conformance/pass/actions.js"),
    ),
    (
        "reads",
        include_str!("support/fixtures/conformance/pass/reads.js"),
    ),
    (
        "the page",
        include_str!("support/fixtures/conformance/pass/page.js"),
    ),
    (
        "web-first assertions",
        include_str!("support/fixtures/conformance/pass/assertions.js"),
    ),
    (
        "value assertions",
        include_str!("support/fixtures/conformance/pass/values.js"),
    ),
    (
        "waiting and polling",
        include_str!("support/fixtures/conformance/pass/dynamic.js"),
    ),
    (
        "plain javascript",
        include_str!("support/fixtures/conformance/pass/javascript.js"),
    ),
    (
        "refused tools",
        include_str!("support/fixtures/conformance/pass/refused.js"),
    ),
];

#[test]
fn every_api_group_passes_against_the_fixture_pages() {
    let groups: Vec<(&str, String)> = GROUPS
        .iter()
        .map(|(name, code)| (*name, (*code).to_owned()))
        .collect();
    let out = replay_groups("", &groups)
        .assert_exit(0)
        .stdout_line(&format!("{} passed, 0 failed", GROUPS.len()));
    for (name, _) in GROUPS {
        if !out
            .stdout()
            .contains(&format!("PASS {SCENARIO} › {name} ("))
        {
            out.fail(&format!("the group {name:?} did not pass"));
        }
    }
}

/// Replays one test per API group of `groups` (name and step code, in the order of [`GROUPS`])
/// with `browser_extra` added to `[browser]`, and checks what the groups log. Answers the run
/// for its verdicts.
pub(crate) fn replay_groups(browser_extra: &str, groups: &[(&str, String)]) -> Output {
    let mut test = conformance_project(&format!(
        "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n[browser]\ntimeout = 5\n{browser_extra}"
    ));
    let mut scenario = String::from("# Playwright API conformance: one test per API group.\n");
    for (name, code) in groups {
        scenario.push_str(&format!("\ntest: {name}\n  exercise the API\n"));
        test = test.cached(SCENARIO, name, "exercise the API", 1, code);
    }
    test.scenario(SCENARIO, &scenario)
        .args(&["replay", "--strict", "-v"])
        .run()
        .stdout_contains("console.log: after the strict mode violation")
        .stdout_contains("console.log: products: 3 {\"first\": \"Apple\"}")
        .stdout_contains("console.info: title is Conformance: lists")
}

/// One failing test: its name, the page it opens (none when empty), the line that fails, and
/// the facts its message must state.
struct Failing {
    name: &'static str,
    page: &'static str,
    code: &'static str,
    facts: &'static [&'static str],
}

const fn failing(
    name: &'static str,
    page: &'static str,
    code: &'static str,
    facts: &'static [&'static str],
) -> Failing {
    Failing {
        name,
        page,
        code,
        facts,
    }
}

/// Replays one test per case (each opens its page, then runs its failing line) and checks that
/// every test failed with a message stating the case's facts. `timeout` is `[browser] timeout`
/// in seconds: 1 for web-first matchers, whose failures wait it out; value matchers fail at once,
/// so their suites get a margin that a busy machine cannot spend on the reads before them.
fn assert_failures(cases: &[Failing], timeout: u32) {
    let mut test = conformance_project(&format!(
        "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n[browser]\ntimeout = {timeout}\n"
    ));
    let mut scenario = String::new();
    for case in cases {
        scenario.push_str(&format!("test: {}\n  check it\n\n", case.name));
        let open = if case.page.is_empty() {
            String::new()
        } else {
            format!("  await page.goto('{}');\n", case.page)
        };
        let code = format!("async function step(page) {{\n{open}  {}\n}}", case.code);
        test = test.cached(SCENARIO, case.name, "check it", 1, &code);
    }
    let out = test
        .scenario(SCENARIO, &scenario)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1)
        .stdout_line(&format!("0 passed, {} failed", cases.len()));
    for case in cases {
        let section = failure_section(&out, case.name);
        for fact in case.facts {
            if !section.contains(fact) {
                out.fail(&format!(
                    "the failure of {:?} does not say {fact:?}:\n{section}",
                    case.name
                ));
            }
        }
    }
}

/// The report of one failed test: from its `──── FAIL` header to the next header.
fn failure_section<'a>(out: &'a Output, name: &str) -> &'a str {
    let header = format!("──── FAIL {SCENARIO} › {name}\n");
    let stdout = out.stdout();
    let Some(start) = stdout.find(&header) else {
        out.fail(&format!("no failure report for {name:?}"));
    };
    let body = &stdout[start + header.len()..];
    let end = body.find("──── ").unwrap_or(body.len());
    &body[..end]
}

const FORM: &str = "/form.html";
const LISTS: &str = "/lists.html";
const DYNAMIC: &str = "/dynamic.html";
/// No page: the case needs no browser.
const NONE: &str = "";

/// Locator state matchers: `Expected: <state>` and `Received: <the other state>`.
const STATE_FAILURES: &[Failing] = &[
    failing(
        "toBeAttached",
        FORM,
        "await expect(page.locator('#nothing')).toBeAttached();",
        &[
            "expect(locator).toBeAttached() failed",
            "Locator:  locator('#nothing')",
            "Expected: attached",
            "Received: <element(s) not found>",
            "Timeout:  1000ms",
        ],
    ),
    failing(
        "not toBeAttached",
        FORM,
        "await expect(page.getByRole('heading')).not.toBeAttached();",
        &[
            "expect(locator).not.toBeAttached() failed",
            "Locator:  getByRole('heading')",
            "Expected: not attached",
            "Received: attached",
        ],
    ),
    failing(
        "toBeChecked",
        FORM,
        "await expect(page.getByLabel('Accept terms')).toBeChecked();",
        &[
            "expect(locator).toBeChecked() failed",
            "Locator:  getByLabel('Accept terms')",
            "Expected: checked",
            "Received: unchecked",
            "Timeout:  1000ms",
        ],
    ),
    failing(
        "toBeDisabled",
        FORM,
        "await expect(page.getByLabel('Name')).toBeDisabled();",
        &[
            "expect(locator).toBeDisabled() failed",
            "Locator:  getByLabel('Name')",
            "Expected: disabled",
            "Received: enabled",
        ],
    ),
    failing(
        "toBeEditable",
        FORM,
        "await expect(page.getByLabel('Code')).toBeEditable();",
        &[
            "expect(locator).toBeEditable() failed",
            "Locator:  getByLabel('Code')",
            "Expected: editable",
            "Received: readOnly",
        ],
    ),
    failing(
        "toBeEmpty",
        FORM,
        "await expect(page.locator('h1')).toBeEmpty();",
        &[
            "expect(locator).toBeEmpty() failed",
            "Locator:  locator('h1')",
            "Expected: empty",
            "Received: notEmpty",
        ],
    ),
    failing(
        "toBeEnabled",
        FORM,
        "await expect(page.getByLabel('Locked')).toBeEnabled();",
        &[
            "expect(locator).toBeEnabled() failed",
            "Locator:  getByLabel('Locked')",
            "Expected: enabled",
            "Received: disabled",
        ],
    ),
    failing(
        "toBeFocused",
        FORM,
        "await expect(page.getByLabel('Name')).toBeFocused();",
        &[
            "expect(locator).toBeFocused() failed",
            "Locator:  getByLabel('Name')",
            "Expected: focused",
            "Received: inactive",
        ],
    ),
    failing(
        "toBeHidden",
        FORM,
        "await expect(page.locator('h1')).toBeHidden();",
        &[
            "expect(locator).toBeHidden() failed",
            "Locator:  locator('h1')",
            "Expected: hidden",
            "Received: visible",
        ],
    ),
    failing(
        "toBeInViewport",
        DYNAMIC,
        "await expect(page.getByText('Row 25')).toBeInViewport();",
        &[
            "expect(locator).toBeInViewport() failed",
            "Locator:  getByText('Row 25')",
            "Expected: in viewport",
            "Received: outside viewport",
        ],
    ),
    failing(
        "toBeVisible",
        FORM,
        "await expect(page.locator('#result')).toBeVisible();",
        &[
            "expect(locator).toBeVisible() failed",
            "Locator:  locator('#result')",
            "Expected: visible",
            "Received: hidden",
            "Timeout:  1000ms",
        ],
    ),
    failing(
        "not toBeVisible",
        FORM,
        "await expect(page.locator('h1')).not.toBeVisible();",
        &[
            "expect(locator).not.toBeVisible() failed",
            "Expected: not visible",
            "Received: visible",
        ],
    ),
    failing(
        "toBeVisible of nothing",
        FORM,
        "await expect(page.getByText('Nowhere')).toBeVisible();",
        &[
            "expect(locator).toBeVisible() failed",
            "Locator:  getByText('Nowhere')",
            "Expected: visible",
            "Received: <element(s) not found>",
        ],
    ),
];

/// Locator value matchers: `Expected: <value>` and `Received: <what the page shows>`.
const VALUE_FAILURES: &[Failing] = &[
    failing(
        "toContainText",
        FORM,
        "await expect(page.locator('h1')).toContainText('Log in');",
        &[
            "expect(locator).toContainText(expected) failed",
            "Locator:  locator('h1')",
            "Expected: \"Log in\"",
            "Received: \"Sign up\"",
            "Timeout:  1000ms",
        ],
    ),
    failing(
        "toContainText array",
        FORM,
        "await expect(page.locator('form button')).toContainText(['Create', 'Remove']);",
        &[
            "expect(locator).toContainText(expected) failed",
            "Locator:  locator('form button')",
            "Expected: [\"Create\", \"Remove\"]",
            "Received: [\"Create account\", \"Delete\"]",
        ],
    ),
    failing(
        "toHaveAccessibleName",
        FORM,
        "await expect(page.locator('#delete')).toHaveAccessibleName('Remove');",
        &[
            "expect(locator).toHaveAccessibleName(expected) failed",
            "Locator:  locator('#delete')",
            "Expected: \"Remove\"",
            "Received: \"Delete\"",
        ],
    ),
    failing(
        "toHaveAccessibleDescription",
        FORM,
        "await expect(page.getByLabel('Email')).toHaveAccessibleDescription(/phone/);",
        &[
            "expect(locator).toHaveAccessibleDescription(expected) failed",
            "Locator:  getByLabel('Email')",
            "Expected: /phone/",
            "Received: \"We never share it\"",
        ],
    ),
    failing(
        "toHaveAttribute",
        FORM,
        "await expect(page.locator('#delete')).toHaveAttribute('title', 'Careless');",
        &[
            "expect(locator).toHaveAttribute(expected) failed",
            "Locator:  locator('#delete')",
            "Expected: \"Careless\"",
            "Received: \"Careful now\"",
        ],
    ),
    failing(
        "toHaveClass",
        FORM,
        "await expect(page.locator('#submit')).toHaveClass('btn secondary');",
        &[
            "expect(locator).toHaveClass(expected) failed",
            "Locator:  locator('#submit')",
            "Expected: \"btn secondary\"",
            "Received: \"btn primary\"",
        ],
    ),
    failing(
        "toHaveClass array",
        FORM,
        "await expect(page.locator('form button')).toHaveClass(['btn', 'danger']);",
        &[
            "expect(locator).toHaveClass(expected) failed",
            "Expected: [\"btn\", \"danger\"]",
            "Received: [\"btn primary\", \"danger\"]",
        ],
    ),
    failing(
        "toHaveCount",
        FORM,
        "await expect(page.locator('form button')).toHaveCount(3);",
        &[
            "expect(locator).toHaveCount(expected) failed",
            "Locator:  locator('form button')",
            "Expected: 3",
            "Received: 2",
        ],
    ),
];

/// More locator value matchers (a run of their own, so the runs share the machine's cores).
const MORE_VALUE_FAILURES: &[Failing] = &[
    failing(
        "toHaveCSS",
        FORM,
        "await expect(page.locator('#delete')).toHaveCSS('color', 'rgb(0, 0, 0)');",
        &[
            "expect(locator).toHaveCSS(expected) failed",
            "Locator:  locator('#delete')",
            "Expected: \"rgb(0, 0, 0)\"",
            "Received: \"rgb(200, 0, 0)\"",
            "Timeout:  1000ms",
        ],
    ),
    failing(
        "toHaveId",
        FORM,
        "await expect(page.getByLabel('Bio')).toHaveId('biography');",
        &[
            "expect(locator).toHaveId(expected) failed",
            "Locator:  getByLabel('Bio')",
            "Expected: \"biography\"",
            "Received: \"bio\"",
        ],
    ),
    failing(
        "toHaveJSProperty",
        FORM,
        "await expect(page.getByLabel('Newsletter')).toHaveJSProperty('checked', false);",
        &[
            "expect(locator).toHaveJSProperty(expected) failed",
            "Locator:  getByLabel('Newsletter')",
            "Expected: false",
            "Received: true",
        ],
    ),
    failing(
        "toHaveRole",
        FORM,
        "await expect(page.locator('#delete')).toHaveRole('link');",
        &[
            "expect(locator).toHaveRole(expected) failed",
            "Expected: \"link\"",
            "Received: \"button\"",
        ],
    ),
    failing(
        "toHaveText",
        FORM,
        "await expect(page.getByRole('heading')).toHaveText('Log in');",
        &[
            "expect(locator).toHaveText(expected) failed",
            "Locator:  getByRole('heading')",
            "Expected: \"Log in\"",
            "Received: \"Sign up\"",
            "Timeout:  1000ms",
        ],
    ),
    failing(
        "toHaveText array",
        LISTS,
        "await expect(page.getByTestId('product').getByRole('heading')).toHaveText(['Apple', 'Cherry']);",
        &[
            "expect(locator).toHaveText(expected) failed",
            "Locator:  getByTestId('product').getByRole('heading')",
            "Expected: [\"Apple\", \"Cherry\"]",
            "Received: [\"Apple\", \"Banana\", \"Cherry\"]",
        ],
    ),
    failing(
        "toHaveText with a timeout",
        FORM,
        "await expect(page.getByRole('heading')).toHaveText(/log/i, { timeout: 300 });",
        &[
            "expect(locator).toHaveText(expected) failed",
            "Expected: /log/i",
            "Received: \"Sign up\"",
            "Timeout:  300ms",
        ],
    ),
    failing(
        "not toHaveText",
        FORM,
        "await expect(page.getByRole('heading')).not.toHaveText('Sign up');",
        &[
            "expect(locator).not.toHaveText(expected) failed",
            "Expected not: \"Sign up\"",
            "Received: \"Sign up\"",
        ],
    ),
    failing(
        "toHaveValue",
        FORM,
        "await expect(page.getByLabel('Code')).toHaveValue('XYZ-000');",
        &[
            "expect(locator).toHaveValue(expected) failed",
            "Locator:  getByLabel('Code')",
            "Expected: \"XYZ-000\"",
            "Received: \"ABC-123\"",
        ],
    ),
    failing(
        "toHaveValues",
        FORM,
        "await expect(page.getByLabel('Toppings')).toHaveValues(['ham', /olive/]);",
        &[
            "expect(locator).toHaveValues(expected) failed",
            "Locator:  getByLabel('Toppings')",
            "Expected: [\"ham\", /olive/]",
            "Received: [\"cheese\"]",
        ],
    ),
    failing(
        "toMatchAriaSnapshot",
        FORM,
        "await expect(page.getByRole('heading')).toMatchAriaSnapshot(`\n    - heading \"Log in\"\n  `);",
        &[
            "expect(locator).toMatchAriaSnapshot(expected) failed",
            "Locator:  getByRole('heading')",
            "Expected: - heading \"Log in\"",
            "Received: - heading \"Sign up\" [level=1]",
        ],
    ),
    failing(
        "toHaveURL",
        FORM,
        "await expect(page).toHaveURL('/lists.html');",
        &[
            "expect(page).toHaveURL(expected) failed",
            "Expected: \"http://127.0.0.1:",
            "/lists.html\"",
            "Received: \"http://127.0.0.1:",
            "/form.html\"",
        ],
    ),
    failing(
        "toHaveTitle",
        FORM,
        "await expect(page).toHaveTitle(/lists/);",
        &[
            "expect(page).toHaveTitle(expected) failed",
            "Expected: /lists/",
            "Received: \"Conformance: form\"",
        ],
    ),
    failing(
        "a custom message",
        FORM,
        "await expect(page.getByRole('heading'), 'the form is the login form').toHaveText('Log in');",
        &[
            "the form is the login form\n",
            "expect(locator).toHaveText(expected) failed",
            "Expected: \"Log in\"",
        ],
    ),
];

/// Value assertions, `expect.poll`, `toPass`, and failing calls.
const OTHER_FAILURES: &[Failing] = &[
    failing(
        "toBe",
        FORM,
        "expect(await page.locator('form button').count()).toBe(3);",
        &[
            "expect(received).toBe(expected) // Object.is equality",
            "Expected: 3",
            "Received: 2",
        ],
    ),
    failing(
        "not toBe",
        NONE,
        "expect(2).not.toBe(2);",
        &["expect(received).not.toBe(expected)", "Expected: not 2"],
    ),
    failing(
        "toEqual",
        FORM,
        "expect(await page.locator('form button').allTextContents()).toEqual(['Create account']);",
        &[
            "expect(received).toEqual(expected) // deep equality",
            "Expected: [\"Create account\"]",
            "Received: [\"Create account\", \"Delete\"]",
        ],
    ),
    failing(
        "toStrictEqual",
        NONE,
        "expect({ a: 1, b: undefined }).toStrictEqual({ a: 1 });",
        &[
            "expect(received).toStrictEqual(expected)",
            "Expected: {\"a\": 1}",
            "Received: {\"a\": 1, \"b\": undefined}",
        ],
    ),
    failing(
        "toContain",
        FORM,
        "expect(await page.title()).toContain('lists');",
        &[
            "expect(received).toContain(expected)",
            "Expected substring: \"lists\"",
            "Received string:    \"Conformance: form\"",
        ],
    ),
    failing(
        "toContain in an array",
        NONE,
        "expect([1, 2]).toContain(3);",
        &[
            "expect(received).toContain(expected)",
            "Expected value: 3",
            "Received array: [1, 2]",
        ],
    ),
    failing(
        "toHaveLength",
        NONE,
        "expect(['a']).toHaveLength(2);",
        &[
            "expect(received).toHaveLength(expected)",
            "Expected length: 2",
            "Received length: 1",
            "Received array:  [\"a\"]",
        ],
    ),
    failing(
        "toBeGreaterThan",
        NONE,
        "expect(1).toBeGreaterThan(5);",
        &[
            "expect(received).toBeGreaterThan(expected)",
            "Expected: > 5",
            "Received:   1",
        ],
    ),
    failing(
        "toBeGreaterThanOrEqual",
        NONE,
        "expect(1).toBeGreaterThanOrEqual(5);",
        &[
            "expect(received).toBeGreaterThanOrEqual(expected)",
            "Expected: >= 5",
            "Received:    1",
        ],
    ),
    failing(
        "toBeLessThan",
        NONE,
        "expect(9).toBeLessThan(5);",
        &[
            "expect(received).toBeLessThan(expected)",
            "Expected: < 5",
            "Received:   9",
        ],
    ),
    failing(
        "toBeLessThanOrEqual",
        NONE,
        "expect(9).toBeLessThanOrEqual(5);",
        &[
            "expect(received).toBeLessThanOrEqual(expected)",
            "Expected: <= 5",
            "Received:    9",
        ],
    ),
    failing(
        "toBeCloseTo",
        NONE,
        "expect(0.1).toBeCloseTo(0.3);",
        &[
            "expect(received).toBeCloseTo(expected)",
            "Expected: 0.3",
            "Received: 0.1",
            "Expected precision:    2",
        ],
    ),
    failing(
        "toBeNull",
        FORM,
        "expect(await page.locator('#delete').getAttribute('title')).toBeNull();",
        &["expect(received).toBeNull()", "Received: \"Careful now\""],
    ),
    failing(
        "toBeUndefined",
        NONE,
        "expect(0).toBeUndefined();",
        &["expect(received).toBeUndefined()", "Received: 0"],
    ),
    failing(
        "toBeDefined",
        NONE,
        "expect(undefined).toBeDefined();",
        &["expect(received).toBeDefined()", "Received: undefined"],
    ),
    failing(
        "toBeNaN",
        NONE,
        "expect(1).toBeNaN();",
        &["expect(received).toBeNaN()", "Received: 1"],
    ),
    failing(
        "toBeTruthy",
        FORM,
        "expect(await page.locator('#nothing').isVisible()).toBeTruthy();",
        &["expect(received).toBeTruthy()", "Received: false"],
    ),
    failing(
        "toMatch",
        FORM,
        "expect(page.url()).toMatch(/lists/);",
        &[
            "expect(received).toMatch(expected)",
            "Expected pattern: /lists/",
            "Received string:  \"http://127.0.0.1:",
        ],
    ),
    failing(
        "toMatchObject",
        NONE,
        "expect({ user: { name: 'Ada', age: 36 } }).toMatchObject({ user: { name: 'Grace' } });",
        &[
            "expect(received).toMatchObject(expected)",
            "Expected: {\"user\": {\"name\": \"Grace\"}}",
            "Received: {\"user\": {\"name\": \"Ada\", \"age\": 36}}",
        ],
    ),
    failing(
        "toHaveProperty",
        NONE,
        "expect({ a: { b: 1 } }).toHaveProperty('a.b', 2);",
        &[
            "expect(received).toHaveProperty(path, value)",
            "Expected path: \"a.b\"",
            "Expected value: 2",
            "Received value: 1",
        ],
    ),
    failing(
        "toThrow",
        NONE,
        "expect(() => JSON.parse('{}')).toThrow();",
        &[
            "expect(received).toThrow()",
            "Received function did not throw",
        ],
    ),
    failing(
        "toThrow a message",
        NONE,
        "expect(() => { throw new Error('boom'); }).toThrow('bang');",
        &[
            "expect(received).toThrow(expected)",
            "Expected substring: \"bang\"",
            "Received message: \"boom\"",
        ],
    ),
    failing(
        "expect.poll",
        FORM,
        "await expect.poll(() => page.locator('form button').count(), { timeout: 300 }).toBe(5);",
        &[
            "expect(received).toBe(expected) // Object.is equality",
            "Expected: 5",
            "Received: 2",
            "Timeout 300ms exceeded while waiting on the predicate",
        ],
    ),
    failing(
        "toPass",
        FORM,
        "await expect(async () => { expect(await page.title()).toBe('Other'); }).toPass({ timeout: 300 });",
        &[
            "expect(received).toBe(expected)",
            "Expected: \"Other\"",
            "Received: \"Conformance: form\"",
            "Timeout 300ms exceeded while waiting on the predicate",
        ],
    ),
    failing(
        "resolves",
        FORM,
        "await expect(page.title()).resolves.toBe('Other');",
        &[
            "expect(received).resolves.toBe(expected)",
            "Expected: \"Other\"",
            "Received: \"Conformance: form\"",
        ],
    ),
    failing(
        "an action timeout",
        FORM,
        "await page.getByRole('button', { name: 'Missing' }).click({ timeout: 1000 });",
        &[
            "locator.click: Timeout 1000ms exceeded.",
            "waiting for getByRole('button', { name: 'Missing' })",
        ],
    ),
    failing(
        "a waitFor timeout",
        DYNAMIC,
        "await page.locator('#details').waitFor({ timeout: 300 });",
        &[
            "locator.waitFor: Timeout 300ms exceeded.",
            "waiting for locator('#details') to be visible",
        ],
    ),
    failing(
        "a waitForURL timeout",
        DYNAMIC,
        "await page.waitForURL('**/never', { timeout: 300 });",
        &[
            "page.waitForURL: Timeout 300ms exceeded.",
            "waiting for navigation to \"**/never\" until \"load\"",
        ],
    ),
    failing(
        "a strict mode violation",
        LISTS,
        "await page.getByTestId('product').click();",
        &[
            "strict mode violation",
            "locator.click: strict mode violation: getByTestId(",
            "resolved to 3 elements",
        ],
    ),
    failing(
        "a refused route",
        NONE,
        "await page.route('**/*', (route) => route.abort());",
        &["page.route() is not available in step code: it would outlive the step"],
    ),
    failing(
        "a file outside the project",
        FORM,
        "await page.getByLabel('Avatar').setInputFiles('../site/form.html');",
        &["locator.setInputFiles: \"../site/form.html\" is outside the project directory"],
    ),
];

#[test]
fn failing_state_matchers_say_what_was_expected_and_received() {
    assert_failures(STATE_FAILURES, 1);
}

#[test]
fn failing_value_matchers_say_what_was_expected_and_received() {
    assert_failures(VALUE_FAILURES, 1);
}

#[test]
fn more_failing_value_matchers_say_what_was_expected_and_received() {
    assert_failures(MORE_VALUE_FAILURES, 1);
}

#[test]
fn failing_value_assertions_polls_and_calls_say_what_went_wrong() {
    assert_failures(OTHER_FAILURES, 10);
}
