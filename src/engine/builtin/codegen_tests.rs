//! One test per sentence shape on the demo's snapshots: the code it writes, and where it
//! declines (nothing matches, or several elements a locator cannot tell apart).

use crate::engine::builtin::snapshot::fixtures::{LOGIN, TODOS};
use crate::engine::builtin::write_step;

/// The body of the code written for `sentence` on `snapshot`, one statement a line.
fn body(sentence: &str, snapshot: &str) -> Vec<String> {
    let code = write_step(sentence, &["item".to_owned()], snapshot)
        .unwrap_or_else(|why| panic!("declined {sentence:?}: {}", why.0));
    let inner = code
        .strip_prefix("async function step(page) {\n")
        .and_then(|c| c.strip_suffix('}'))
        .unwrap_or_else(|| panic!("{code}"));
    inner.lines().map(|l| l.trim().to_owned()).collect()
}

fn one(sentence: &str, snapshot: &str) -> String {
    let lines = body(sentence, snapshot);
    assert_eq!(lines.len(), 1, "{lines:?}");
    lines[0].clone()
}

fn declined(sentence: &str, snapshot: &str) -> String {
    match write_step(sentence, &[], snapshot) {
        Ok(code) => panic!("wrote code for {sentence:?}:\n{code}"),
        Err(why) => why.0,
    }
}

#[test]
fn open() {
    assert_eq!(one("open the app", ""), "await page.goto('/');");
    assert_eq!(
        one("Please go to the home page.", ""),
        "await page.goto('/');"
    );
    assert_eq!(
        one("visit /login.html", ""),
        "await page.goto('/login.html');"
    );
    assert_eq!(
        one("navigate to \"https://example.com/a\"", ""),
        "await page.goto('https://example.com/a');"
    );
    assert!(declined("open the sign-in page", "").contains("path or a URL"));
}

#[test]
fn click() {
    assert_eq!(
        one("click the \"Clear completed\" button", TODOS),
        "await page.getByRole('button', { name: 'Clear completed' }).click();"
    );
    assert_eq!(
        one("Tap on the active link", TODOS),
        "await page.getByRole('link', { name: 'Active' }).click();"
    );
    assert_eq!(
        one("press the \"Sign in\" button", LOGIN),
        "await page.getByRole('button', { name: 'Sign in' }).click();"
    );
    // `All` is also part of no other link's name; `Completed` is part of `Clear completed`,
    // a button, not a link: no `exact`.
    assert_eq!(
        one("click \"Completed\"", TODOS),
        "await page.getByRole('link', { name: 'Completed' }).click();"
    );
    // Two buttons named Delete: declined, unless the row is named.
    let why = declined("click the \"Delete\" button", TODOS);
    assert!(why.starts_with("2 elements on the page could be"), "{why}");
    assert_eq!(
        one("click the \"Delete\" button of \"buy milk\"", TODOS),
        "await page.getByRole('listitem').filter({ hasText: 'buy milk' }).getByRole('button', { name: 'Delete' }).click();"
    );
    assert!(declined("click the \"Save\" button", TODOS).starts_with("no element"));
}

#[test]
fn double_click_prefers_the_text() {
    assert_eq!(
        one("double-click \"buy milk\"", TODOS),
        "await page.getByText('buy milk').dblclick();"
    );
}

#[test]
fn type_into_and_press() {
    assert_eq!(
        body(
            "type \"buy milk\" into the new todo field and press Enter",
            TODOS
        ),
        [
            "const field = page.getByRole('textbox', { name: 'New todo' });",
            "await field.fill('buy milk');",
            "await field.press('Enter');"
        ]
    );
    assert_eq!(
        one("enter \"x\" in the \"What needs to be done?\" field", TODOS),
        "await page.getByPlaceholder('What needs to be done?').fill('x');"
    );
    assert_eq!(
        one("fill in the password field with ${PASSWORD}", LOGIN),
        "await page.getByRole('textbox', { name: 'Password' }).fill(vars.PASSWORD);"
    );
    assert_eq!(
        one("type \"<item>\" into the new todo field", TODOS),
        "await page.getByRole('textbox', { name: 'New todo' }).fill(vars.item);"
    );
    assert_eq!(
        one("type \"Hi ${NAME}!\" into the username field", LOGIN),
        "await page.getByRole('textbox', { name: 'Username' }).fill(`Hi ${vars.NAME}!`);"
    );
    assert!(declined("type \"x\" into the email field", LOGIN).starts_with("no element"));
    assert!(declined("type \"x\" into the field", LOGIN).starts_with("2 elements"));
}

#[test]
fn clear() {
    assert_eq!(
        one("clear the username field", LOGIN),
        "await page.getByRole('textbox', { name: 'Username' }).clear();"
    );
    assert_eq!(
        one("clear the completed todos", TODOS),
        "await page.getByRole('button', { name: 'Clear completed' }).click();"
    );
}

#[test]
fn check_and_uncheck() {
    assert_eq!(
        one("tick \"walk the dog\"", TODOS),
        "await page.getByRole('checkbox', { name: 'walk the dog' }).check();"
    );
    assert_eq!(
        one("uncheck the \"buy milk\" checkbox", TODOS),
        "await page.getByRole('checkbox', { name: 'buy milk' }).uncheck();"
    );
}

#[test]
fn select() {
    let page = "- combobox \"Country\":\n  - option \"France\"\n  - option \"Spain\" [selected]";
    assert_eq!(
        one("select \"France\" from the country dropdown", page),
        "await page.getByRole('combobox', { name: 'Country' }).selectOption('France');"
    );
    assert!(
        declined("select \"France\" in the \"Region\" dropdown", page).starts_with("no element")
    );
}

#[test]
fn press_a_key() {
    assert_eq!(
        one("press Enter", TODOS),
        "await page.keyboard.press('Enter');"
    );
    assert_eq!(
        one("press the escape key in the new todo field", TODOS),
        "await page.getByRole('textbox', { name: 'New todo' }).press('Escape');"
    );
    assert_eq!(
        one("press ctrl+a", TODOS),
        "await page.keyboard.press('Control+a');"
    );
}

#[test]
fn hover() {
    assert_eq!(
        one("hover over the \"Sign in\" link", TODOS),
        "await page.getByRole('link', { name: 'Sign in' }).hover();"
    );
}

#[test]
fn visible_and_hidden() {
    assert_eq!(
        one("the \"todos\" heading is visible", TODOS),
        "await expect(page.getByRole('heading', { name: 'todos' })).toBeVisible();"
    );
    assert_eq!(
        one("\"Double-click a todo to edit it.\" is shown", TODOS),
        "await expect(page.getByText('Double-click a todo to edit it.')).toBeVisible();"
    );
    assert_eq!(
        one("the \"Sign in\" button should not be displayed", TODOS),
        "await expect(page.getByRole('button', { name: 'Sign in' })).toBeHidden();"
    );
    assert_eq!(
        one("\"Welcome back\" is hidden", LOGIN),
        "await expect(page.getByText('Welcome back')).toBeHidden();"
    );
    assert!(declined("the \"Welcome\" banner is shown", LOGIN).contains("no element"));
}

#[test]
fn the_page_shows() {
    assert_eq!(
        one("the page says \"1 item left\"", TODOS),
        "await expect(page.getByText('1 item left')).toBeVisible();"
    );
    assert_eq!(
        one("the page shows \"Invalid credentials\"", LOGIN),
        "await expect(page.getByText('Invalid credentials')).toBeVisible();"
    );
    assert_eq!(
        one("I should see ${GREETING}", LOGIN),
        "await expect(page.getByText(vars.GREETING).first()).toBeVisible();"
    );
    // The same text twice (a link and a heading): declined.
    assert!(declined("the page shows \"Sign in\"", LOGIN).starts_with("2 elements"));
}

#[test]
fn the_list_shows() {
    assert_eq!(
        body("the list shows \"buy milk\"", TODOS),
        [
            "const items = page.getByRole('list', { name: 'Todo list' }).getByRole('listitem');",
            "await expect(items).toContainText(['buy milk']);"
        ]
    );
    assert_eq!(
        body(
            "the list shows \"buy milk\" and \"walk the dog\" only",
            TODOS
        ),
        [
            "const items = page.getByRole('list', { name: 'Todo list' }).getByRole('listitem');",
            "await expect(items).toHaveCount(2);",
            "await expect(items).toContainText(['buy milk', 'walk the dog']);"
        ]
    );
    assert!(declined("the list shows \"eggs\"", TODOS).contains("2 lists"));
}

#[test]
fn has_value_and_text() {
    assert_eq!(
        one("the username field has value \"alice\"", LOGIN),
        "await expect(page.getByRole('textbox', { name: 'Username' })).toHaveValue('alice');"
    );
    assert_eq!(
        one("the password field is empty", LOGIN),
        "await expect(page.getByRole('textbox', { name: 'Password' })).toHaveValue('');"
    );
    assert_eq!(
        one("the counter says \"1 item left\"", TODOS),
        "await expect(page.getByRole('status')).toHaveText('1 item left');"
    );
    assert_eq!(
        one("the \"todos\" heading should have text \"todos\"", TODOS),
        "await expect(page.getByRole('heading', { name: 'todos' })).toHaveText('todos');"
    );
}

#[test]
fn states() {
    assert_eq!(
        one("\"walk the dog\" is checked", TODOS),
        "await expect(page.getByRole('checkbox', { name: 'walk the dog' })).toBeChecked();"
    );
    assert_eq!(
        one("the \"buy milk\" checkbox is not checked", TODOS),
        "await expect(page.getByRole('checkbox', { name: 'buy milk' })).not.toBeChecked();"
    );
    assert_eq!(
        one("the \"Clear completed\" button is enabled", TODOS),
        "await expect(page.getByRole('button', { name: 'Clear completed' })).toBeEnabled();"
    );
    assert_eq!(
        one("the \"Sign in\" button is disabled", LOGIN),
        "await expect(page.getByRole('button', { name: 'Sign in' })).toBeDisabled();"
    );
}

#[test]
fn counts() {
    assert_eq!(
        one("there are 2 todos", TODOS),
        "await expect(page.getByRole('list', { name: 'Todo list' }).getByRole('listitem')).toHaveCount(2);"
    );
    assert_eq!(
        one("there are two checkboxes", TODOS),
        "await expect(page.getByRole('checkbox')).toHaveCount(2);"
    );
    assert!(declined("there are 2 items", TODOS).contains("2 lists"));
}

#[test]
fn url_and_title() {
    assert_eq!(
        one("the URL contains \"#/active\"", TODOS),
        "await expect(page).toHaveURL(/#\\/active/);"
    );
    assert_eq!(
        one("the url is \"/login.html\"", TODOS),
        "await expect(page).toHaveURL(/\\/login\\.html$/);"
    );
    assert_eq!(
        one("the title should be \"prettyplay demo · todos\"", TODOS),
        "await expect(page).toHaveTitle('prettyplay demo · todos');"
    );
    assert_eq!(
        one("the page title contains \"todos\"", TODOS),
        "await expect(page).toHaveTitle(/todos/);"
    );
}

#[test]
fn sign_in() {
    assert_eq!(
        body(
            "sign in as ${DEMO_USER} with password ${DEMO_PASSWORD}",
            LOGIN
        ),
        [
            "await page.getByRole('textbox', { name: 'Username' }).fill(vars.DEMO_USER);",
            "await page.getByRole('textbox', { name: 'Password' }).fill(vars.DEMO_PASSWORD);",
            "await page.getByRole('button', { name: 'Sign in' }).click();"
        ]
    );
    assert!(declined("log in as \"a\" with \"b\"", TODOS).contains("no user name field"));
}

#[test]
fn add_delete_and_show() {
    assert_eq!(
        body("add the todos \"a\", \"b\" and \"c\"", TODOS),
        [
            "const field = page.getByRole('textbox', { name: 'New todo' });",
            "await field.fill('a');",
            "await field.press('Enter');",
            "await field.fill('b');",
            "await field.press('Enter');",
            "await field.fill('c');",
            "await field.press('Enter');"
        ]
    );
    assert!(declined("add \"a\"", LOGIN).starts_with("2 elements"));
    assert_eq!(
        body("delete \"walk the dog\"", TODOS),
        [
            "const item = page.getByRole('listitem').filter({ hasText: 'walk the dog' });",
            "await item.hover();",
            "await item.getByRole('button', { name: 'Delete' }).click();",
            "await expect(item).toHaveCount(0);"
        ]
    );
    assert!(declined("delete \"eggs\"", TODOS).contains("holds \"eggs\""));
    assert_eq!(
        one("show the active todos", TODOS),
        "await page.getByRole('link', { name: 'Active' }).click();"
    );
    assert!(declined("show the archived todos", TODOS).contains("no element"));
}

#[test]
fn quotes_in_values_are_escaped() {
    assert_eq!(
        one("type \"it's\" into the new todo field", TODOS),
        "await page.getByRole('textbox', { name: 'New todo' }).fill('it\\'s');"
    );
}
