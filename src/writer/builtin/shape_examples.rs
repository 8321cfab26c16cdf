//! The documented examples of the built-in generator's shapes: for each shape of the registry
//! (`shapes.rs`), sentences, the page each is written on (an aria snapshot), and the code it
//! gets. One unit test walks them all.
//!
//! Main items: one list of [`Example`]s per shape, on the pages [`TODO`], [`FORM`], [`SHOP`],
//! [`FILTERS`], [`LOGIN`], [`ELEMENTS`] and [`DIALOGS`].

use crate::writer::builtin::shape::Example;

/// A todo list with two todos, the second completed.
const TODO: &str = r#"- heading "todos" [level=1]
- textbox "What needs to be done?"
- list:
  - listitem:
    - checkbox
    - generic: buy milk
    - button "Delete"
  - listitem:
    - checkbox [checked]
    - generic: walk the dog
    - button "Delete"
- strong: "1"
- text: item left
- link "All"
- link "Active"
- link "Completed"
- button "Clear completed"
"#;

/// A sign-up form.
const FORM: &str = r#"- heading "Sign up" [level=1]
- textbox "Name"
- spinbutton "Age"
- combobox "Country":
  - option "France" [selected]
  - option "Japan"
- combobox "Fruit"
- checkbox "Subscribe"
- group "Do you agree?":
  - radio "Yes"
  - radio "No" [checked]
- button "Submit"
"#;

/// A shop's product cards.
const SHOP: &str = r#"- main:
  - generic:
    - heading "Hot dogs" [level=2]
    - text: $1.49
  - generic:
    - heading "Spam" [level=2]
    - text: $2.00
  - generic:
    - heading "Soup" [level=2]
    - text: $0.45
- contentinfo:
  - link "About"
"#;

/// A dropdown of categories and a search box.
const FILTERS: &str = r#"- complementary:
  - generic:
    - combobox "Choose a category:":
      - option "All" [selected]
      - option "Vegetables"
      - option "Soup"
    - textbox "Enter search term:":
      - /placeholder: e.g. beans
    - button "Filter results"
"#;

/// A sign-in form.
const LOGIN: &str = r#"- textbox "Username"
- textbox "Password"
- button "Sign in"
"#;

/// A page that adds Delete buttons, as the-internet's Add/Remove Elements page does.
const ELEMENTS: &str = r#"- heading "Add/Remove Elements" [level=3]
- button "Add Element"
- button "Delete"
- button "Delete"
"#;

/// Buttons that open an alert, a confirm and a prompt, as the-internet's JavaScript Alerts page.
const DIALOGS: &str = r#"- heading "JavaScript Alerts" [level=3]
- button "Click for JS Alert"
- button "Click for JS Confirm"
- button "Click for JS Prompt"
- heading "Result:" [level=4]
"#;

/// Controls the page leaves unnamed, as the-internet's pages do: checkboxes named by the text
/// after them, a number field, a dropdown with no label and a "Result:" label over its value.
const PRACTICE: &str = r#"- heading "Practice" [level=3]
- generic:
  - checkbox
  - text: checkbox 1
  - checkbox [checked]
  - text: checkbox 2
- paragraph: Number
- spinbutton
- combobox:
  - option "Please select an option" [disabled] [selected]
  - option "Option 1"
  - option "Option 2"
- heading "Result:" [level=4]
- paragraph: You clicked: Ok
"#;

pub(crate) const GO_BACK: &[Example] = &[Example {
    sentence: r#"go back"#,
    page: TODO,
    code: r#"const before = page.url();
const response = await page.goBack();
expect(page.url(), `go back: no page of this test comes before ${before}, so the browser went back to the blank page it started on`).not.toBe('about:blank');
if (response === null) await expect(page, `go back: the browser stayed on ${before}; either no page comes before it, or the one before is the same document at the same URL, which step code cannot tell apart (the browser answers no response for either, and the URL is the same); if this app steps back within the page without changing its URL, write the act that does it in the app instead (click its own back control) and check what the page shows after it`).not.toHaveURL(before);"#,
}];

pub(crate) const ON_PAGE: &[Example] = &[Example {
    sentence: r#"I am still on the login page"#,
    page: LOGIN,
    code: r#"await expect(page).toHaveURL(/^[^?#]*\/login(?:\.[a-z]+)?(?:[\/?#]|$)/i);"#,
}];

pub(crate) const TEXT_APPEARS: &[Example] = &[Example {
    sentence: r#""It's back!" appears"#,
    page: LOADED,
    code: r#"await expect(page.getByText(/^\s*It's\s+back!\s*$/u)).toBeVisible();"#,
}];

pub(crate) const WAIT: &[Example] = &[
    Example {
        sentence: r#"wait until "Hello World!" appears"#,
        page: LOADED,
        code: r#"await expect(page.getByText('Hello World!', { exact: true })).toBeVisible();"#,
    },
    Example {
        sentence: r#"wait for "Saved" to be displayed"#,
        page: LOADED,
        code: r#"await expect(page.getByText(/^\s*Saved\s*$/u)).toBeVisible();"#,
    },
    Example {
        sentence: r#"wait for the "Start" button to disappear"#,
        page: LOADED,
        code: r#"await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeHidden();"#,
    },
];

/// A page that shows its text after loading, as the-internet's Dynamic Loading pages.
const LOADED: &str = r#"- heading "Dynamically Loaded Page Elements" [level=3]
- button "Start"
- heading "Hello World!" [level=4]
"#;

/// Two tables, each with a header row, as the-internet's Sortable Data Tables page.
const TABLES: &str = r#"- table:
  - rowgroup:
    - row "Last Name First Name":
      - columnheader "Last Name"
      - columnheader "First Name"
  - rowgroup:
    - row "Smith John":
      - cell "Smith"
      - cell "John"
    - row "Bach Frank":
      - cell "Bach"
      - cell "Frank"
- table:
  - rowgroup:
    - row "Last Name":
      - columnheader "Last Name"
  - rowgroup:
    - row "Doe":
      - cell "Doe"
"#;

pub(crate) const REQUEST: &[Example] = &[Example {
    sentence: r#"GET /api/health answers 200"#,
    page: TODO,
    code: r#"const response = await page.request.get('/api/health');
expect(response.status()).toBe(200);"#,
}];

pub(crate) const REQUEST_AFTER_COLON: &[Example] = &[Example {
    sentence: r#"the todo is saved: the API /api/todos lists "milk""#,
    page: TODO,
    code: r#"const response = await page.request.get('/api/todos');
await expect(response).toBeOK();
const body = await response.text();
const values = [];
try {
  JSON.parse(body, (key, value) => {
    if (typeof value === 'string') values.push(value);
    return value;
  });
} catch {
  values.push(...body.split(/\r?\n/).map((line) => line.trim()));
}
expect(values).toContain('milk');"#,
}];

pub(crate) const CARD_COUNT: &[Example] = &[Example {
    sentence: r#"there are 3 products"#,
    page: SHOP,
    code: r#"await expect(page.getByRole('main').locator(':scope > *').filter({ has: page.getByRole('heading', { level: 2 }) })).toHaveCount(3);"#,
}];

pub(crate) const EITHER_OR_HIDDEN: &[Example] = &[Example {
    sentence: r#"the "Subscribe" checkbox is checked or the "Submit" button is hidden"#,
    page: FORM,
    code: r#"await expect(async () => {
  if (await page.getByRole('button', { name: 'Submit', exact: true }).isVisible()) {
    await expect(page.getByRole('checkbox', { name: 'Subscribe', exact: true })).toBeChecked({ timeout: 500 });
  } else {
    await expect(page.getByRole('button', { name: 'Submit', exact: true })).toBeHidden({ timeout: 500 });
  }
}).toPass();"#,
}];

pub(crate) const TWO_CHECKS: &[Example] = &[Example {
    sentence: r#""No" is checked and "Yes" is unchecked"#,
    page: FORM,
    code: r#"await expect(page.getByRole('radio', { name: 'No', exact: true })).toBeChecked();
await expect(page.getByRole('radio', { name: 'Yes', exact: true })).not.toBeChecked();"#,
}];

pub(crate) const CLEAR_AND_TYPE: &[Example] = &[Example {
    sentence: r#"clear the age field and type "12""#,
    page: FORM,
    code: r#"const field = page.getByRole('spinbutton', { name: 'Age' });
await field.clear();
await field.fill('12');"#,
}];

pub(crate) const CHANGE_TO: &[Example] = &[Example {
    sentence: r#"change the age to 121"#,
    page: FORM,
    code: r#"await page.getByRole('spinbutton', { name: 'Age' }).fill('121');"#,
}];

pub(crate) const CLICK_WITHOUT: &[Example] = &[Example {
    sentence: r#"click Submit without filling anything in"#,
    page: FORM,
    code: r#"await page.getByRole('button', { name: 'Submit' }).click();"#,
}];

pub(crate) const ACCESSIBLE: &[Example] = &[
    Example {
        sentence: r#"the page has no accessibility violations"#,
        page: FORM,
        code: r#"await expect(page).toHaveNoAccessibilityViolations();"#,
    },
    Example {
        sentence: r#"the form has no serious accessibility violations"#,
        page: FORM,
        code: r#"await expect(page.locator('form')).toHaveNoAccessibilityViolations({ impact: 'serious' });"#,
    },
];

pub(crate) const LOOKS_AS_BEFORE: &[Example] = &[Example {
    sentence: r#"the page looks as before, ignoring the footer"#,
    page: SHOP,
    code: r#"await expect(page).toHaveScreenshot({ mask: [page.locator('footer, [role="contentinfo"]')] });"#,
}];

pub(crate) const URL_LACKS: &[Example] = &[
    Example {
        sentence: r#"the URL has no query string"#,
        page: FORM,
        code: r#"await expect(page).toHaveURL(/^[^?]*$/);"#,
    },
    Example {
        sentence: r#"the address has no "fruit=" in it"#,
        page: FORM,
        code: r#"await expect(page).not.toHaveURL(/(?<![\p{L}\p{N}_])fruit=/u);"#,
    },
];

pub(crate) const ASKS: &[Example] = &[Example {
    sentence: r#"the form asks "Do you agree?" with the options Yes and No"#,
    page: FORM,
    code: r#"const group = page.getByRole('group', { name: 'Do you agree?', exact: true });
await expect(group.getByRole('radio')).toHaveCount(2);
await expect(group.getByRole('radio', { name: 'Yes', exact: true })).toBeVisible();
await expect(group.getByRole('radio', { name: 'No', exact: true })).toBeVisible();"#,
}];

pub(crate) const SUGGESTS: &[Example] = &[Example {
    sentence: r#"the fruit field suggests Banana and Cherry"#,
    page: FORM,
    code: r#"const list = await page.getByRole('combobox', { name: 'Fruit', exact: true }).getAttribute('list');
const options = page.locator(`datalist[id=${JSON.stringify(list)}] > option`);
await expect(options).toHaveText(['Banana', 'Cherry']);"#,
}];

pub(crate) const VALIDITY: &[Example] = &[Example {
    sentence: r#"the age field is invalid"#,
    page: FORM,
    code: r#"await expect(page.getByRole('spinbutton', { name: 'Age', exact: true }).and(page.locator(':invalid'))).toHaveCount(1);"#,
}];

pub(crate) const OPEN: &[Example] = &[
    Example {
        sentence: r#"open /login.html"#,
        page: TODO,
        code: r#"await page.goto('/login.html');"#,
    },
    Example {
        sentence: r#"open the app"#,
        page: TODO,
        code: r#"await page.goto('');"#,
    },
    Example {
        sentence: r#"go to Completed"#,
        page: TODO,
        code: r#"await page.getByRole('link', { name: 'Completed' }).click();"#,
    },
];

pub(crate) const DOUBLE_CLICK: &[Example] = &[Example {
    sentence: r#"double-click "buy milk""#,
    page: TODO,
    code: r#"await page.getByText('buy milk', { exact: true }).dblclick();"#,
}];

pub(crate) const PRESS: &[Example] = &[
    Example {
        sentence: r#"press Enter"#,
        page: TODO,
        code: r#"await page.keyboard.press('Enter');"#,
    },
    Example {
        sentence: r#"press Escape in the "What needs to be done?" field"#,
        page: TODO,
        code: r#"await page.getByRole('textbox', { name: 'What needs to be done?', exact: true }).press('Escape');"#,
    },
    Example {
        sentence: r#"press Tab twice"#,
        page: TODO,
        code: r#"await page.keyboard.press('Tab');
await page.keyboard.press('Tab');"#,
    },
];

pub(crate) const CLICK: &[Example] = &[
    Example {
        sentence: r#"click the "Submit" button"#,
        page: FORM,
        code: r#"await page.getByRole('button', { name: 'Submit', exact: true }).click();"#,
    },
    Example {
        sentence: r#"click "Add Element" three times"#,
        page: ELEMENTS,
        code: r#"await page.getByRole('button', { name: 'Add Element', exact: true }).click();
await page.getByRole('button', { name: 'Add Element', exact: true }).click();
await page.getByRole('button', { name: 'Add Element', exact: true }).click();"#,
    },
    Example {
        sentence: r#"click the second Delete button"#,
        page: ELEMENTS,
        code: r#"await page.getByRole('button', { name: 'Delete', exact: true }).nth(1).click();"#,
    },
    Example {
        sentence: r#"click "Click for JS Confirm" and dismiss it"#,
        page: DIALOGS,
        code: r#"const dialog = page.waitForEvent('dialog');
await page.getByRole('button', { name: 'Click for JS Confirm', exact: true }).click();
await (await dialog).dismiss();"#,
    },
    Example {
        sentence: r#"click "Click for JS Prompt" and answer "hello""#,
        page: DIALOGS,
        code: r#"const dialog = page.waitForEvent('dialog');
await page.getByRole('button', { name: 'Click for JS Prompt', exact: true }).click();
await (await dialog).accept('hello');"#,
    },
    Example {
        sentence: r#"click "Click for JS Alert" and the alert says "I am a JS Alert""#,
        page: DIALOGS,
        code: r#"const dialog = page.waitForEvent('dialog');
await page.getByRole('button', { name: 'Click for JS Alert', exact: true }).click();
const opened = await dialog;
expect(opened.type()).toBe('alert');
expect(opened.message()).toBe('I am a JS Alert');
await opened.accept();"#,
    },
    Example {
        sentence: r#"click "Click for JS Confirm" and accept the confirm"#,
        page: DIALOGS,
        code: r#"const dialog = page.waitForEvent('dialog');
await page.getByRole('button', { name: 'Click for JS Confirm', exact: true }).click();
const opened = await dialog;
expect(opened.type()).toBe('confirm');
await opened.accept();"#,
    },
    Example {
        sentence: r#"click "Click for JS Alert" and press OK"#,
        page: DIALOGS,
        code: r#"const dialog = page.waitForEvent('dialog');
await page.getByRole('button', { name: 'Click for JS Alert', exact: true }).click();
await (await dialog).accept();"#,
    },
];

pub(crate) const RIGHT_CLICK: &[Example] = &[Example {
    sentence: r#"right-click "buy milk""#,
    page: TODO,
    code: r#"await page.getByText('buy milk', { exact: true }).click({ button: 'right' });"#,
}];

pub(crate) const FILL_WITH: &[Example] = &[Example {
    sentence: r#"fill the "Name" field with "Ada""#,
    page: FORM,
    code: r#"await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada');"#,
}];

pub(crate) const TYPE_INTO: &[Example] = &[
    Example {
        sentence: r#"type "Ada" into the "Name" field"#,
        page: FORM,
        code: r#"await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada');"#,
    },
    Example {
        sentence: r#"type "a" in the "Name" field"#,
        page: FORM,
        code: r#"const field = page.getByRole('textbox', { name: 'Name', exact: true });
await field.clear();
await field.pressSequentially('a');"#,
    },
    Example {
        sentence: r#"type "buy bread" into the "What needs to be done?" field and press Enter"#,
        page: TODO,
        code: r#"const field = page.getByRole('textbox', { name: 'What needs to be done?', exact: true });
await field.fill('buy bread');
await field.press('Enter');"#,
    },
    Example {
        sentence: r#"type 42 into the number field"#,
        page: PRACTICE,
        code: r#"await page.getByRole('spinbutton').fill('42');"#,
    },
];

pub(crate) const CLEAR: &[Example] = &[Example {
    sentence: r#"clear the "Name" field"#,
    page: FORM,
    code: r#"await page.getByRole('textbox', { name: 'Name', exact: true }).clear();"#,
}];

pub(crate) const MARK: &[Example] = &[
    Example {
        sentence: r#"mark "buy milk" as done"#,
        page: TODO,
        code: r#"await page.getByRole('listitem').filter({ has: page.getByText('buy milk', { exact: true }) }).getByRole('checkbox').check();"#,
    },
    Example {
        sentence: r#"mark "walk the dog" as not done"#,
        page: TODO,
        code: r#"await page.getByRole('listitem').filter({ has: page.getByText('walk the dog', { exact: true }) }).getByRole('checkbox').uncheck();"#,
    },
];

pub(crate) const EDIT: &[Example] = &[Example {
    sentence: r#"edit "buy milk" to "buy oat milk""#,
    page: TODO,
    code: r#"const item = page.getByRole('listitem').filter({ has: page.getByText('buy milk', { exact: true }) });
await item.getByText('buy milk', { exact: true }).dblclick();
const field = page.getByRole('listitem').getByRole('textbox');
await field.fill('buy oat milk');
await field.press('Enter');"#,
}];

pub(crate) const UNCHECK: &[Example] = &[
    Example {
        sentence: r#"uncheck "Subscribe""#,
        page: FORM,
        code: r#"await page.getByRole('checkbox', { name: 'Subscribe', exact: true }).uncheck();"#,
    },
    Example {
        sentence: r#"uncheck the first completed todo"#,
        page: TODO,
        code: r#"await page.getByRole('list').getByRole('listitem').filter({ has: page.getByRole('checkbox', { checked: true }) }).first().getByRole('checkbox').uncheck();"#,
    },
];

pub(crate) const CHECK: &[Example] = &[
    Example {
        sentence: r#"check "Subscribe""#,
        page: FORM,
        code: r#"await page.getByRole('checkbox', { name: 'Subscribe', exact: true }).check();"#,
    },
    Example {
        sentence: r#"check checkbox 1"#,
        page: PRACTICE,
        code: r#"await page.getByRole('checkbox').and(page.locator('xpath=//*[following-sibling::node()[normalize-space()][1][normalize-space()="checkbox 1"]]')).check();"#,
    },
];

pub(crate) const SELECT: &[Example] = &[Example {
    sentence: r#"select "Japan" in the "Country" dropdown"#,
    page: FORM,
    code: r#"await page.getByRole('combobox', { name: 'Country', exact: true }).selectOption({ label: 'Japan' });"#,
}];

pub(crate) const HOVER: &[Example] = &[
    Example {
        sentence: r#"hover over "buy milk""#,
        page: TODO,
        code: r#"await page.getByText('buy milk', { exact: true }).hover();"#,
    },
    Example {
        sentence: "hover over the first avatar",
        page: AVATARS,
        code: r#"await page.getByRole('img', { name: 'User Avatar', exact: true }).first().hover();"#,
    },
    Example {
        sentence: "hover over the third image",
        page: AVATARS,
        code: r#"await page.getByRole('img', { name: 'User Avatar', exact: true }).nth(2).hover();"#,
    },
];

/// Three avatars after a banner image in a link, as the-internet's Hovers page.
const AVATARS: &str = r#"- link "Fork me on GitHub":
  - img "Fork me on GitHub"
- heading "Hovers" [level=3]
- img "User Avatar"
- img "User Avatar"
- img "User Avatar"
"#;

pub(crate) const SIGN_IN: &[Example] = &[Example {
    sentence: r#"sign in as "alice" with password "secret""#,
    page: LOGIN,
    code: r#"await page.getByRole('textbox', { name: 'Username' }).fill('alice');
await page.getByRole('textbox', { name: 'Password' }).fill('secret');
await page.getByRole('button', { name: 'Sign in' }).click();"#,
}];

pub(crate) const ADD: &[Example] = &[Example {
    sentence: r#"add "bread" and "eggs""#,
    page: TODO,
    code: r#"const field = page.getByRole('textbox', { name: 'What needs to be done?' });
await field.fill('bread');
await field.press('Enter');
await field.fill('eggs');
await field.press('Enter');"#,
}];

pub(crate) const DELETE: &[Example] = &[Example {
    sentence: r#"delete "buy milk""#,
    page: TODO,
    code: r#"const item = page.getByRole('listitem').filter({ has: page.getByText('buy milk', { exact: true }) });
await item.hover();
await item.getByRole('button', { name: 'Delete' }).click();
await expect(item).toHaveCount(0);"#,
}];

pub(crate) const PLACED: &[Example] = &[
    Example {
        sentence: r#"a delete button appears on the right side of "buy milk""#,
        page: TODO,
        code: r#"const subject = page.getByRole('listitem').filter({ has: page.getByText('buy milk', { exact: true }) }).getByRole('button', { name: 'Delete', exact: true });
const reference = page.getByRole('listitem').filter({ has: page.getByText('buy milk', { exact: true }) });
await expect(subject).toBeVisible();
await expect(reference).toBeVisible();
await expect(async () => {
  const box = await subject.boundingBox();
  const of = await reference.boundingBox();
  expect(box && of, 'both elements are drawn').toBeTruthy();
  const measured = `measured: the element at x ${box.x} to ${box.x + box.width}, y ${box.y} to ${box.y + box.height}; the other at x ${of.x} to ${of.x + of.width}, y ${of.y} to ${of.y + of.height}`;
  expect(box.x + box.width / 2, `its centre is right of the other's centre (${measured})`).toBeGreaterThan(of.x + of.width / 2);
  expect(Math.min(box.y + box.height, of.y + of.height) - Math.max(box.y, of.y), `they share some height (${measured})`).toBeGreaterThan(0);
}).toPass();"#,
    },
    Example {
        sentence: r#"the "Submit" button is below the "Subscribe" checkbox"#,
        page: FORM,
        code: r#"const subject = page.getByRole('button', { name: 'Submit', exact: true });
const reference = page.getByRole('checkbox', { name: 'Subscribe', exact: true });
await expect(subject).toBeVisible();
await expect(reference).toBeVisible();
await expect(async () => {
  const box = await subject.boundingBox();
  const of = await reference.boundingBox();
  expect(box && of, 'both elements are drawn').toBeTruthy();
  const measured = `measured: the element at x ${box.x} to ${box.x + box.width}, y ${box.y} to ${box.y + box.height}; the other at x ${of.x} to ${of.x + of.width}, y ${of.y} to ${of.y + of.height}`;
  expect(box.y, `it starts where the other ends or lower (${measured})`).toBeGreaterThanOrEqual(of.y + of.height);
  expect(Math.min(box.x + box.width, of.x + of.width) - Math.max(box.x, of.x), `they share some width (${measured})`).toBeGreaterThan(0);
}).toPass();"#,
    },
];

pub(crate) const SHOW: &[Example] = &[Example {
    sentence: r#"show the active todos"#,
    page: TODO,
    code: r#"await page.getByRole('link', { name: 'Active' }).click();"#,
}];

pub(crate) const SEE: &[Example] = &[Example {
    sentence: r#"I see "buy milk""#,
    page: TODO,
    code: r#"await expect(page.getByText('buy milk', { exact: true })).toBeVisible();"#,
}];

pub(crate) const THERE_IS: &[Example] = &[
    Example {
        sentence: r#"there is a "Submit" button"#,
        page: FORM,
        code: r#"await expect(page.getByRole('button', { name: 'Submit', exact: true })).toBeVisible();"#,
    },
    Example {
        sentence: r#"there are 2 todos"#,
        page: TODO,
        code: r#"await expect(page.getByRole('list').getByRole('listitem')).toHaveCount(2);"#,
    },
];

pub(crate) const ITEMS: &[Example] = &[
    Example {
        sentence: r#""buy milk" appears in the list"#,
        page: TODO,
        code: r#"const items = page.getByRole('list').getByRole('listitem');
await expect(items).toContainText(['buy milk']);
await expect(items.getByText('buy milk', { exact: true }).first()).toBeVisible();"#,
    },
    Example {
        sentence: r#"all 2 todos are completed"#,
        page: TODO,
        code: r#"const items = page.getByRole('list').getByRole('listitem');
await expect(items).toHaveCount(2);
for (const item of await items.all()) {
  await expect(item.getByRole('checkbox')).toBeChecked();
}"#,
    },
];

pub(crate) const APPEARS: &[Example] = &[Example {
    sentence: r#"a "Clear completed" button appears"#,
    page: TODO,
    code: r#"await expect(page.getByRole('button', { name: 'Clear completed', exact: true })).toBeVisible();"#,
}];

pub(crate) const COUNT_WORDS: &[Example] = &[Example {
    sentence: r#"1 item left"#,
    page: TODO,
    code: r#"await expect(page.getByText(/^\s*1\s+item\s+left\s*$/u)).toBeVisible();"#,
}];

pub(crate) const PAGE_CHECK: &[Example] = &[
    Example {
        sentence: r#"the title is "Todos""#,
        page: TODO,
        code: r#"await expect(page).toHaveTitle('Todos');"#,
    },
    Example {
        sentence: r#"the URL ends with /secure"#,
        page: TODO,
        code: r#"await expect(page).toHaveURL(/^[^?#]*\/secure(?:[?#]|$)/);"#,
    },
    Example {
        sentence: r#"the URL contains "/active""#,
        page: TODO,
        code: r#"await expect(page).toHaveURL(/\/active(?![\p{L}\p{N}_])/u);"#,
    },
];

pub(crate) const SHOWS: &[Example] = &[
    Example {
        sentence: r#"the page shows "buy milk""#,
        page: TODO,
        code: r#"await expect(page.getByText('buy milk', { exact: true })).toBeVisible();"#,
    },
    Example {
        sentence: r#"the completed list has 1 item"#,
        page: TODO,
        code: r#"await expect(page.getByRole('list').getByRole('listitem').filter({ has: page.getByRole('checkbox', { checked: true }) })).toHaveCount(1);"#,
    },
    Example {
        sentence: r#"the "Name" field has value "Ada""#,
        page: FORM,
        code: r#"await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Ada');"#,
    },
    Example {
        sentence: r#"the "Country" dropdown shows "France""#,
        page: FORM,
        code: r#"await expect(page.getByRole('combobox', { name: 'Country', exact: true }).locator('option:checked')).toHaveText('France');"#,
    },
    Example {
        sentence: r#"table 2 has 1 row"#,
        page: TABLES,
        code: r#"await expect(page.getByRole('table').nth(1).getByRole('row').filter({ hasNot: page.getByRole('columnheader') })).toHaveCount(1);"#,
    },
];

pub(crate) const IS_STATE: &[Example] = &[
    Example {
        sentence: r#"the "Subscribe" checkbox is checked"#,
        page: FORM,
        code: r#"await expect(page.getByRole('checkbox', { name: 'Subscribe', exact: true })).toBeChecked();"#,
    },
    Example {
        sentence: r#"the "Submit" button is visible"#,
        page: FORM,
        code: r#"await expect(page.getByRole('button', { name: 'Submit', exact: true })).toBeVisible();"#,
    },
    Example {
        sentence: r#"checkbox 2 is checked"#,
        page: PRACTICE,
        code: r#"await expect(page.getByRole('checkbox').and(page.locator('xpath=//*[following-sibling::node()[normalize-space()][1][normalize-space()="checkbox 2"]]'))).toBeChecked();"#,
    },
    Example {
        sentence: r#"the main heading is "Practice""#,
        page: PRACTICE,
        code: r#"await expect(page.getByRole('heading', { level: 3 })).toHaveText('Practice');"#,
    },
    Example {
        sentence: r#"the result is "You clicked: Ok""#,
        page: PRACTICE,
        code: r#"await expect(page.getByRole('heading', { name: 'Result:' }).locator('xpath=following-sibling::*[1]')).toHaveText('You clicked: Ok');"#,
    },
    Example {
        sentence: "only one Delete button is left",
        page: ELEMENTS,
        code: r#"await expect(page.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(1);"#,
    },
];

pub(crate) const SUMMARY: &[Example] = &[Example {
    sentence: r#"the form is not sent: the URL has no query string"#,
    page: FORM,
    code: r#"await expect(page).toHaveURL(/^[^?]*$/);"#,
}];

pub(crate) const CARDS: &[Example] = &[
    Example {
        sentence: r#"Hot dogs and Spam are shown"#,
        page: SHOP,
        code: r#"const cards = page.getByRole('main').locator(':scope > *').filter({ has: page.getByRole('heading', { level: 2 }) });
await expect(page.getByRole('main').locator(':scope > *').filter({ has: page.getByRole('heading', { level: 2 }) }).filter({ has: page.getByRole('heading', { name: /^\s*Hot\s+dogs\s*$/, level: 2 }) })).toBeVisible();
await expect(page.getByRole('main').locator(':scope > *').filter({ has: page.getByRole('heading', { level: 2 }) }).filter({ has: page.getByRole('heading', { name: /^\s*Spam\s*$/, level: 2 }) })).toBeVisible();"#,
    },
    Example {
        sentence: r#"Soup costs $0.45"#,
        page: SHOP,
        code: r#"await expect(page.getByRole('main').locator(':scope > *').filter({ has: page.getByRole('heading', { level: 2 }) }).filter({ has: page.getByRole('heading', { name: /^\s*Soup\s*$/, level: 2 }) })).toContainText(/\$0\.45(?![\p{L}\p{N}_]|[.,]\p{N})/u);"#,
    },
];

pub(crate) const CHOICES: &[Example] = &[
    Example {
        sentence: r#"choose Soup in the category dropdown"#,
        page: FILTERS,
        code: r#"await page.getByRole('combobox', { name: 'Choose a category:', exact: true }).selectOption('Soup');"#,
    },
    Example {
        sentence: r#"search for beans"#,
        page: FILTERS,
        code: r#"const field = page.getByRole('textbox', { name: 'Enter search term:', exact: true });
await field.fill('beans');
await field.press('Enter');"#,
    },
];

pub(crate) const CLAUSES: &[Example] = &[
    Example {
        sentence: r#"clear the "Name" field, type "Ada" and press Enter"#,
        page: FORM,
        code: r#"await page.getByRole('textbox', { name: 'Name', exact: true }).clear();
await page.locator(':focus').fill('Ada');
await page.keyboard.press('Enter');"#,
    },
    Example {
        sentence: r#"hover over "buy milk" and click its delete button"#,
        page: TODO,
        code: r#"await page.getByText('buy milk', { exact: true }).hover();
await page.getByRole('listitem').filter({ has: page.getByText('buy milk', { exact: true }) }).getByRole('button', { name: 'Delete' }).click();"#,
    },
    Example {
        sentence: r#"fill the username with "nobody" and the password with "secret""#,
        page: LOGIN,
        code: r#"await page.getByRole('textbox', { name: 'Username' }).fill('nobody');
await page.getByRole('textbox', { name: 'Password' }).fill('secret');"#,
    },
];
