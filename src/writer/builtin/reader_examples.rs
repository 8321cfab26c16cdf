//! The documented examples of the readers of a sentence in its test (`plan_readers.rs`), each
//! written after the earlier steps its reader lists, on [`PAGE`] (or [`PAGE_WITH_FIELD`]) with
//! [`STRUCTURE`].

use crate::writer::builtin::shape::Example;

/// The page most readers' examples are written on: a main heading, the list of "a" and "b",
/// a named checkbox.
pub(crate) const PAGE: &str = "- heading \"todos\" [level=1]\n- checkbox \"Mark all as complete\"\n- list:\n  - listitem:\n    - checkbox\n    - text: a\n  - listitem:\n    - checkbox\n    - text: b\n";

/// [`PAGE`] with the new-item field, for the readers that add or type.
pub(crate) const PAGE_WITH_FIELD: &str = "- heading \"todos\" [level=1]\n- textbox \"What needs to be done?\"\n- checkbox \"Mark all as complete\"\n- list:\n  - listitem:\n    - checkbox\n    - text: a\n  - listitem:\n    - checkbox\n    - text: b\n";

/// The pages' structure beyond their snapshots: the list and the footer's filter links, "All"
/// marked.
#[cfg_attr(
    not(test),
    expect(
        dead_code,
        reason = "the examples are documentation, walked by a unit test"
    )
)]
pub(crate) const STRUCTURE: &str = r#"[{"role":"list","tag":"ul","locator":"page.locator('ul.todo-list')","items":["a","b"],"visible":true},{"role":"link","tag":"a","text":"All","visible":true,"marks":[{"class":"selected"}],"peers":[{"text":"Active","marks":[]}]}]"#;

/// The earlier steps after adding "a" and "b" through the new-item field.
pub(crate) const ADDED: &[(&str, &str)] = &[
    (
        "add 'a'",
        "async function step(page) {\n  await page.getByRole('textbox', { name: 'What needs to be done?' }).fill('a');\n  await page.getByRole('textbox', { name: 'What needs to be done?' }).press('Enter');\n}",
    ),
    (
        "add 'b'",
        "async function step(page) {\n  await page.getByRole('textbox', { name: 'What needs to be done?' }).fill('b');\n  await page.getByRole('textbox', { name: 'What needs to be done?' }).press('Enter');\n}",
    ),
];

/// The earlier steps after adding "a" and typing "c" without submitting it.
pub(crate) const TYPED: &[(&str, &str)] = &[
    (
        "add 'a'",
        "async function step(page) {\n  await page.getByRole('textbox', { name: 'What needs to be done?' }).fill('a');\n  await page.getByRole('textbox', { name: 'What needs to be done?' }).press('Enter');\n}",
    ),
    (
        "type 'c'",
        "async function step(page) {\n  await page.getByRole('textbox', { name: 'What needs to be done?' }).fill('c');\n}",
    ),
];

/// The earlier steps after adding "a" and typing "x" into its editor.
pub(crate) const EDITED: &[(&str, &str)] = &[
    (
        "add 'a'",
        "async function step(page) {\n  await page.getByRole('textbox', { name: 'What needs to be done?' }).fill('a');\n  await page.getByRole('textbox', { name: 'What needs to be done?' }).press('Enter');\n}",
    ),
    (
        "edit 'a'",
        "async function step(page) {\n  await page.getByRole('listitem').filter({ hasText: 'a' }).dblclick();\n  await page.getByRole('listitem').getByRole('textbox').fill('x');\n}",
    ),
];

/// An example on [`PAGE`].
const fn on_page(sentence: &'static str, code: &'static str) -> Example {
    Example {
        sentence,
        page: PAGE,
        code,
    }
}

/// An example on [`PAGE_WITH_FIELD`].
const fn with_field(sentence: &'static str, code: &'static str) -> Example {
    Example {
        sentence,
        page: PAGE_WITH_FIELD,
        code,
    }
}

pub(crate) const MEMORY: &[Example] = &[on_page(
    "both todos appear in the list",
    "const items = page.getByRole('list').getByRole('listitem');\nawait expect(items).toHaveCount(2);\nawait expect(items).toContainText(['a', 'b']);\nawait expect(items.getByText('a', { exact: true }).first()).toBeVisible();\nawait expect(items.getByText('b', { exact: true }).first()).toBeVisible();",
)];
pub(crate) const RELOAD: &[Example] = &[on_page("reload the page", "await page.reload();")];
pub(crate) const THE_FIELD_JUST_USED: &[Example] = &[on_page(
    "the field shows 'c'",
    "await expect(page.getByRole('textbox', { name: 'What needs to be done?' })).toHaveValue('c');",
)];
pub(crate) const APP_LOADS: &[Example] = &[on_page(
    "the application loads",
    "await expect(page.getByRole('heading', { name: 'todos', exact: true })).toBeVisible();",
)];
pub(crate) const EMPTY_LIST: &[Example] = &[on_page(
    "the list is empty",
    "await expect(page.getByRole('listitem')).toHaveCount(0);",
)];
pub(crate) const URL_FRAGMENT: &[Example] = &[on_page(
    "the URL changes to #/active",
    r#"await expect(page).toHaveURL(/\#\/active$/);"#,
)];
pub(crate) const IN_THE_FOOTER: &[Example] = &[on_page(
    "the 'Clear completed' button appears in the footer",
    "await expect(page.locator('footer').getByRole('button', { name: 'Clear completed', exact: true })).toBeVisible();",
)];
pub(crate) const THE_CHECKBOX: &[Example] = &[on_page(
    "the checkbox is checked",
    "await expect(page.getByRole('listitem').filter({ has: page.getByText('b', { exact: true }) }).getByRole('checkbox')).toBeChecked();",
)];
pub(crate) const HIGHLIGHTED: &[Example] = &[on_page(
    "the 'All' filter link is highlighted",
    r#"await expect(page.getByRole('link', { name: 'All', exact: true })).toHaveClass(/(^|\s)selected(\s|$)/);
await expect(page.getByRole('link', { name: 'Active', exact: true })).not.toHaveClass(/(^|\s)selected(\s|$)/);"#,
)];
pub(crate) const COUNTED_STATES: &[Example] = &[on_page(
    "two active and zero completed",
    r#"const items = page.getByRole('list').getByRole('listitem');
await expect(items).toHaveCount(2);
await expect(items).toContainText(['a', 'b']);
await expect(items.getByText('a', { exact: true }).first()).toBeVisible();
await expect(items.getByText('b', { exact: true }).first()).toBeVisible();
await expect(page.getByRole('checkbox').and(page.locator('xpath=//*[following-sibling::node()[normalize-space()][1][normalize-space()="a"]]'))).not.toBeChecked();
await expect(page.getByRole('checkbox').and(page.locator('xpath=//*[following-sibling::node()[normalize-space()][1][normalize-space()="b"]]'))).not.toBeChecked();"#,
)];
pub(crate) const ONLY_IN_STATE: &[Example] = &[on_page(
    "only active todos are visible",
    "const items = page.getByRole('list').getByRole('listitem');\nawait expect(items).toHaveCount(2);\nawait expect(items).toContainText(['a', 'b']);\nawait expect(items.getByText('a', { exact: true }).first()).toBeVisible();\nawait expect(items.getByText('b', { exact: true }).first()).toBeVisible();",
)];
pub(crate) const POSITION_STATE: &[Example] = &[on_page(
    "the first todo is marked as complete",
    "await expect(page.locator('ul.todo-list').getByRole('listitem').nth(0).getByRole('checkbox')).toBeChecked();",
)];
pub(crate) const CLICK_NAMED_CONTROL: &[Example] = &[on_page(
    "click the 'Mark all as complete' checkbox",
    "await page.getByRole('checkbox', { name: 'Mark all as complete', exact: true }).click();",
)];
pub(crate) const CLICK_CHECKBOX_TO: &[Example] = &[on_page(
    "click the checkbox to uncomplete it",
    "await page.getByRole('listitem').filter({ has: page.getByText('b', { exact: true }) }).getByRole('checkbox').click();\nawait expect(page.getByRole('listitem').filter({ has: page.getByText('b', { exact: true }) }).getByRole('checkbox')).not.toBeChecked();",
)];
pub(crate) const PRESS_TO_SUBMIT: &[Example] = &[on_page(
    "press Enter to submit the todo",
    "await page.keyboard.press('Enter');\nawait expect(page.getByRole('listitem').filter({ has: page.getByText('c', { exact: true }) })).toBeVisible();",
)];
pub(crate) const ADD_UNNAMED: &[Example] = &[with_field(
    "add three todos and mark one as complete",
    "const field = page.getByRole('textbox', { name: 'What needs to be done?' });\nawait field.fill('Todo 1');\nawait field.press('Enter');\nawait field.fill('Todo 2');\nawait field.press('Enter');\nawait field.fill('Todo 3');\nawait field.press('Enter');\nawait page.getByRole('listitem').filter({ has: page.getByText('Todo 1', { exact: true }) }).getByRole('checkbox').check();",
)];
pub(crate) const ADD_AND_MARK: &[Example] = &[with_field(
    "add 'q' and mark it as complete",
    "const field = page.getByRole('textbox', { name: 'What needs to be done?' });\nawait field.fill('q');\nawait field.press('Enter');\nawait page.getByRole('listitem').filter({ has: page.getByText('q', { exact: true }) }).getByRole('checkbox').check();",
)];
pub(crate) const EACH_NAMED_ACTION: &[Example] = &[on_page(
    "mark 'a' and 'b' as complete",
    r#"await page.getByRole('checkbox').and(page.locator('xpath=//*[following-sibling::node()[normalize-space()][1][normalize-space()="a"]]')).check();
await page.getByRole('checkbox').and(page.locator('xpath=//*[following-sibling::node()[normalize-space()][1][normalize-space()="b"]]')).check();"#,
)];
pub(crate) const EACH_NAMED_CHECK: &[Example] = &[on_page(
    "'a' and 'b' remain visible",
    "await expect(page.getByRole('listitem').filter({ has: page.getByText('a', { exact: true }) })).toBeVisible();\nawait expect(page.getByRole('listitem').filter({ has: page.getByText('b', { exact: true }) })).toBeVisible();",
)];
pub(crate) const GONE: &[Example] = &[on_page(
    "'a' is removed from the list",
    "await expect(page.getByRole('listitem').filter({ has: page.getByText('a', { exact: true }) })).toHaveCount(0);",
)];
pub(crate) const TYPE_AND_PRESS: &[Example] = &[with_field(
    "type 'x' and press Enter",
    "const field = page.getByRole('textbox');\nawait field.clear();\nawait field.pressSequentially('x');\nawait page.keyboard.press('Enter');",
)];
pub(crate) const EDIT_AND_CHANGE: &[Example] = &[on_page(
    "double-click to edit and change the text to 'y'",
    "await page.getByText('b', { exact: true }).dblclick();\nawait expect(page.getByRole('listitem').getByRole('textbox')).toBeFocused();\nawait page.getByRole('listitem').getByRole('textbox').fill('y');",
)];
pub(crate) const EDITOR_SHOWS: &[Example] = &[on_page(
    "the edit textbox shows the text",
    "await expect(page.getByRole('listitem').getByRole('textbox')).toHaveValue('x');",
)];
pub(crate) const PRESS_TO_SAVE: &[Example] = &[on_page(
    "press Enter to save",
    "await page.getByRole('listitem').getByRole('textbox').press('Enter');\nawait expect(page.getByRole('listitem').getByRole('textbox')).toHaveCount(0);\nawait expect(page.getByRole('listitem').filter({ has: page.getByText('x', { exact: true }) })).toBeVisible();",
)];
pub(crate) const KEPT_AS: &[Example] = &[on_page(
    "the todo is saved as 'x' without leading or trailing whitespace",
    "await expect(page.getByRole('listitem').getByText('x', { exact: true })).toHaveText(/^x$/);",
)];
pub(crate) const TO_EDIT: &[Example] = &[on_page(
    "double-click the todo to enter edit mode",
    "await page.getByText('b', { exact: true }).dblclick();\nawait expect(page.getByRole('listitem').getByRole('textbox')).toBeFocused();",
)];
pub(crate) const IN_EDIT_MODE: &[Example] = &[on_page(
    "the todo enters edit mode",
    "await expect(page.getByRole('listitem').getByRole('textbox')).toHaveValue('b');",
)];
pub(crate) const CHANGE_TEXT: &[Example] = &[on_page(
    "change the text to 'y' and press Enter",
    "await page.getByRole('listitem').getByRole('textbox').fill('y');\nawait page.getByRole('listitem').getByRole('textbox').press('Enter');",
)];
pub(crate) const UPDATED: &[Example] = &[on_page(
    "the todo is updated to 'x'",
    "await expect(page.getByRole('listitem').filter({ has: page.getByText('x', { exact: true }) })).toBeVisible();",
)];
pub(crate) const CHANGES_SAVED: &[Example] = &[on_page(
    "the changes are saved",
    "await expect(page.getByRole('listitem').filter({ has: page.getByText('x', { exact: true }) })).toBeVisible();\nawait expect(page.getByRole('listitem').filter({ has: page.getByText('a', { exact: true }) })).toHaveCount(0);",
)];
pub(crate) const REFERENCES: &[Example] = &[on_page(
    "click the checkbox next to the todo",
    "await page.getByRole('listitem').filter({ hasText: 'b' }).getByRole('checkbox').click();",
)];
