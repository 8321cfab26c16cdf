//! The step code of an [`Intent`] on a page: `async function step(page) { ... }` in Playwright
//! Test's JavaScript, with locators from `resolve.rs`, the code of actions here and of checks
//! (web-first `expect`s) in `check_code.rs`, values as written (`js_values.rs`: a `${NAME}` or
//! `<column>` placeholder is read as `vars.NAME`, never its value).
//!
//! Main function: [`lines_for`] (the statements), which [`step_function`] wraps.

use crate::writer::builtin::check_code;
use crate::writer::builtin::check_options::CheckOptions;
use crate::writer::builtin::dropdown_option::DropdownOption;
use crate::writer::builtin::http_code;
use crate::writer::builtin::intent::{Answer, Cause, Decline, DialogKind, Intent, Literal, Target};
use crate::writer::builtin::js_values::value_js;
use crate::writer::builtin::kinds::{FIELD_ROLES, Kind};
use crate::writer::builtin::locator::{js_str, norm};
use crate::writer::builtin::resolve::{
    CHECKABLE, CLICKABLE, delete_sign_button, element, only_field,
};
use crate::writer::builtin::rows::{DELETE_WORDS, hidden_delete, row_holding};
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::builtin::unnamed::context_menu_area;
use crate::writer::builtin::{
    accessibility_code, cards_code, cell_code, choice_code, compound_code, dropdown_code,
    either_code, form_code, loading_code, place_code, table_code, visual_code,
};

/// The step function around `lines`, each on its own indented line.
pub(crate) fn step_function(lines: Vec<String>) -> String {
    let mut code = String::from("async function step(page) {\n");
    for line in lines {
        code.push_str("  ");
        code.push_str(&line);
        code.push('\n');
    }
    code.push('}');
    code
}

/// The statements of a step function's code, one a line, trimmed: what
/// [`step_function`] wrapped.
pub(crate) fn statements(code: &str) -> Vec<String> {
    code.lines()
        .skip(1)
        .filter(|l| *l != "}")
        .map(|l| l.trim().to_owned())
        .collect()
}

/// The statements of the code of `intent`, without the function around them.
pub(crate) fn lines_for(intent: &Intent, snap: &Snapshot) -> Result<Vec<String>, Decline> {
    body(intent, snap)
}

fn find(snap: &Snapshot, target: &Target, defaults: &[&str]) -> Result<String, Decline> {
    element(snap, target, defaults, false).map(|f| f.locator)
}

fn body(intent: &Intent, snap: &Snapshot) -> Result<Vec<String>, Decline> {
    match intent {
        // `''` resolves to `[browser] base_url` itself, path and query kept; `'/'` would be the
        // host's root (URLs resolve as the URL constructor resolves them).
        Intent::Open(None) => Ok(vec!["await page.goto('');".to_owned()]),
        Intent::Open(Some(path)) => Ok(vec![format!("await page.goto({});", value_js(path))]),
        Intent::Click { target, double } => click(snap, target, *double),
        Intent::ContextClick(target) => {
            // `the box` is the one area with a context menu of its own, before any field.
            let found = match context_menu_area(snap, target) {
                Some(area) => area,
                None => element(snap, target, CLICKABLE, false)?,
            };
            Ok(vec![format!(
                "await {}.click({{ button: 'right' }});",
                found.locator
            )])
        }
        Intent::Repeat { times, action } => repeat(snap, *times, action),
        Intent::Dialog {
            action,
            answer,
            kind,
            message,
        } => dialog(snap, action, answer, *kind, message.as_ref()),
        Intent::Fill {
            value,
            target,
            then_press,
            keys,
        } => fill(snap, value, target, then_press.as_deref(), *keys),
        Intent::Clear(target) => clear(snap, target),
        Intent::Check { target, on } => {
            let found = element(snap, target, CHECKABLE, false)?;
            if let Some(option) = DropdownOption::of(snap, found.node) {
                return dropdown_code::choose(&option, *on);
            }
            let action = if *on { "check" } else { "uncheck" };
            Ok(vec![format!("await {}.{action}();", found.locator)])
        }
        Intent::Select { value, target } => select(snap, value, target),
        Intent::Press { key, target: None } => {
            Ok(vec![format!("await page.keyboard.press({});", js_str(key))])
        }
        Intent::Press {
            key,
            target: Some(target),
        } => {
            let found = find(snap, target, FIELD_ROLES)?;
            Ok(vec![format!("await {found}.press({});", js_str(key))])
        }
        Intent::Hover(target) => {
            let found = element(snap, target, CLICKABLE, false)?;
            Ok(vec![format!("await {}.hover();", found.locator)])
        }
        Intent::SignIn { user, password } => sign_in(snap, user, password),
        Intent::Add(values) => add(snap, values),
        Intent::Delete(text) => delete(snap, text),
        Intent::Edit { from, to } => edit(snap, from, to),
        Intent::Show(target) => show(snap, target),
        Intent::Both(parts) => both(snap, parts),
        Intent::OrHidden { hidden, otherwise } => either_code::code(snap, hidden, otherwise),
        // The claims, which an either-or also writes, with its own options.
        Intent::Visible { .. }
        | Intent::PageShows(_)
        | Intent::PageContains(_)
        | Intent::ListShows { .. }
        | Intent::HasValue { .. }
        | Intent::HasText { .. }
        | Intent::State { .. }
        | Intent::Count { .. }
        | Intent::Url { .. }
        | Intent::Title { .. }
        | Intent::AllItems { .. }
        | Intent::Placeholder { .. } => check_code::claim(snap, intent, CheckOptions::default()),
        Intent::Placed {
            subject,
            relation,
            of,
        } => place_code::placed(snap, subject, *relation, of),
        Intent::TableRows { table, count } => table_code::rows(snap, table, *count),
        Intent::TableCell { table, row, value } => table_code::cell(snap, table, *row, value),
        Intent::TableHeader { table, values } => table_code::header(snap, table, values),
        Intent::TableSorted {
            table,
            column,
            descending,
        } => table_code::sorted(snap, table, column, *descending),
        Intent::ClickHeader { table, column } => table_code::click_header(snap, table, column),
        Intent::TableColumns { table, values } => cell_code::columns(snap, table, values),
        Intent::ColumnCell {
            table,
            row,
            column,
            value,
        } => cell_code::cell(snap, table.as_ref(), row, column, value),
        Intent::Loading { shown } => loading_code::check(snap, *shown),
        Intent::AfterLoading(text) => loading_code::after_loading(snap, text),
        Intent::OnPage(words) => Ok(vec![check_code::on_page_line(words)]),
        Intent::GoBack => Ok(GO_BACK.iter().map(|line| (*line).to_owned()).collect()),
        Intent::Validity { .. }
        | Intent::Suggests { .. }
        | Intent::Retype { .. }
        | Intent::NoQuery
        | Intent::UrlLacks(_)
        | Intent::Asks { .. } => form_code::code(intent, snap),
        Intent::Http(http) => http_code::lines(http),
        Intent::Accessible { .. } => accessibility_code::lines(snap, intent),
        Intent::LooksAsBefore { .. } => visual_code::lines(snap, intent),
        Intent::Cards(check) => cards_code::code(check, snap),
        Intent::Choice(choice) => choice_code::code(choice, snap, body),
        Intent::Clauses(clauses) => compound_code::code(clauses, snap, body),
        // The parts of a reading in a test are sentences read again with the run's origins and
        // steps on resolved elements, which the test's writer (`in_test.rs`) writes.
        Intent::Parts(_) => Err(Decline::new(
            "a reading of the test's earlier steps is written only in its test",
        )),
    }
}

/// `go back`. The back button may do nothing (there is no page before this one), so the step
/// must see that the browser went back. A step back to another document answers the document's
/// response, whatever its URL (a form that posted back to its own page has the same URL); a step
/// within the same document, or none, answers `null`, and then the URL must have changed. A test
/// starts on the browser's blank page, so a step back from the test's first page lands there:
/// that is no page of the test, and the step fails at once saying so. The code runs no script in
/// the page, because the guard holds a step that did to account for the page's own traffic after
/// it (an analytics beacon of the page it goes back to).
const GO_BACK: &[&str] = &[
    "const before = page.url();",
    "const response = await page.goBack();",
    "expect(page.url(), `go back: no page of this test comes before ${before}, so the browser went back to the blank page it started on`).not.toBe('about:blank');",
    "if (response === null) await expect(page, `go back: the browser stayed on ${before}; either no page comes before it, or the one before is the same document at the same URL, which step code cannot tell apart (the browser answers no response for either, and the URL is the same); if this app steps back within the page without changing its URL, write the act that does it in the app instead (click its own back control) and check what the page shows after it`).not.toHaveURL(before);",
];

/// `click "Add" three times`: the action's statement, written that many times so that each
/// action can be read in the code. An action of several statements declines, because its
/// names would be declared twice.
fn repeat(snap: &Snapshot, times: usize, action: &Intent) -> Result<Vec<String>, Decline> {
    let lines = body(action, snap)?;
    if lines.len() != 1 {
        return Err(Decline::new(
            "the built-in generator repeats a one-statement action only; write the steps one by one",
        ));
    }
    Ok(std::iter::repeat_n(lines, times).flatten().collect())
}

/// `click "Delete" and dismiss it`: the dialog is waited for before the action that opens it,
/// so the step fails when none opens, and then answered as the sentence says. A kind the
/// sentence names (`the confirm`) is checked against the dialog's type, and a quoted message
/// against its whole message, before it is answered.
fn dialog(
    snap: &Snapshot,
    action: &Intent,
    answer: &Answer,
    kind: DialogKind,
    message: Option<&Literal>,
) -> Result<Vec<String>, Decline> {
    let answered = match answer {
        Answer::Accept => "accept()".to_owned(),
        Answer::Dismiss => "dismiss()".to_owned(),
        Answer::Reply(text) => format!("accept({})", value_js(text)),
    };
    let mut lines = vec!["const dialog = page.waitForEvent('dialog');".to_owned()];
    lines.extend(body(action, snap)?);
    if kind.js_type().is_none() && message.is_none() {
        lines.push(format!("await (await dialog).{answered};"));
        return Ok(lines);
    }
    lines.push("const opened = await dialog;".to_owned());
    if let Some(kind) = kind.js_type() {
        lines.push(format!("expect(opened.type()).toBe({});", js_str(kind)));
    }
    if let Some(message) = message {
        lines.push(format!(
            "expect(opened.message()).toBe({});",
            value_js(message)
        ));
    }
    lines.push(format!("await opened.{answered};"));
    Ok(lines)
}

/// `click X` (`double-click X`). A delete button a row shows only on hover is not in the
/// snapshot: `click the delete button in "T"` hovers the row first.
fn click(snap: &Snapshot, target: &Target, double: bool) -> Result<Vec<String>, Decline> {
    let decline = match element(snap, target, CLICKABLE, double) {
        Ok(found) => {
            let action = if double { "dblclick" } else { "click" };
            return Ok(vec![format!("await {}.{action}();", found.locator)]);
        }
        Err(decline) => decline,
    };
    match (&target.scope, &target.name) {
        // `click the delete button` where the page shows one button that deletes, named `×`:
        // the signs delete buttons go by, and only when exactly one button on the page has
        // one of them.
        (None, Some(_)) if !double && target.nth.is_none() => {
            match delete_sign_button(snap, target) {
                Some(one) => Ok(vec![format!("await {}.click();", one.locator)]),
                None => Err(decline),
            }
        }
        (Some(row), Some(name)) if !double && DELETE_WORDS.contains(&norm(name).as_str()) => {
            let Some((item, button)) = hidden_delete(snap, row) else {
                return Err(decline);
            };
            Ok(vec![
                format!("const item = {item};"),
                "await item.hover();".to_owned(),
                format!("await {button}.click();"),
            ])
        }
        _ => Err(decline),
    }
}

/// `type V into X` (`and press K`).
fn fill(
    snap: &Snapshot,
    value: &Literal,
    target: &Target,
    then_press: Option<&str>,
    keys: bool,
) -> Result<Vec<String>, Decline> {
    let field = find(snap, target, FIELD_ROLES)?;
    // A key typed is a key stroke in the emptied field: the field ends with the value, as
    // after a fill, and the page sees the key's events, which a fill does not send.
    let typing = if keys {
        vec![
            "await field.clear();".to_owned(),
            format!("await field.pressSequentially({});", value_js(value)),
        ]
    } else {
        vec![format!("await field.fill({});", value_js(value))]
    };
    Ok(match (then_press, keys) {
        (None, false) => vec![format!("await {field}.fill({});", value_js(value))],
        (then_press, _) => {
            let mut lines = vec![format!("const field = {field};")];
            lines.extend(typing);
            if let Some(key) = then_press {
                lines.push(format!("await field.press({});", js_str(key)));
            }
            lines
        }
    })
}

/// `choose V in X`: the dropdown's option; else (`choose "Yes" for the licence question`) the
/// radio button named the value.
fn select(snap: &Snapshot, value: &Literal, target: &Target) -> Result<Vec<String>, Decline> {
    let decline = match element(snap, target, Kind::Dropdown.roles(), false) {
        Ok(found) => {
            // An option the page shows by that text is chosen by its label, as the page
            // writes it; a bare string would also choose an option whose value is the text.
            // (A dropdown found through the page's structure has no node, nor options.)
            let options = if found.node < snap.nodes.len() {
                snap.descendants(found.node)
            } else {
                Vec::new()
            };
            let label = options
                .into_iter()
                .filter(|&i| snap.nodes[i].role == "option")
                .find_map(|i| {
                    snap.nodes[i]
                        .name
                        .as_deref()
                        .filter(|name| norm(name) == norm(&value.0))
                });
            let chosen = match label {
                Some(label) => format!("{{ label: {} }}", js_str(label)),
                None => value_js(value),
            };
            return Ok(vec![format!(
                "await {}.selectOption({chosen});",
                found.locator
            )]);
        }
        Err(decline) => decline,
    };
    let radio = Target {
        name: Some(value.0.clone()),
        quoted: true,
        kind: Some(Kind::Radio),
        ..Target::default()
    };
    match find(snap, &radio, &[]) {
        Ok(found) => Ok(vec![format!("await {found}.check();")]),
        Err(_) => Err(decline),
    }
}

/// `add "A" and "B"`: each value typed into the page's one field for new items, then Enter.
fn add(snap: &Snapshot, values: &[Literal]) -> Result<Vec<String>, Decline> {
    let field = only_field(snap, &["new", "add", "todo", "item", "what"])?;
    let mut lines = vec![format!("const field = {};", field.locator)];
    for value in values {
        lines.push(format!("await field.fill({});", value_js(value)));
        lines.push("await field.press('Enter');".to_owned());
    }
    Ok(lines)
}

/// `show the active todos`: a filter link, tab or button, named by the words before the noun
/// when the whole phrase names nothing.
fn show(snap: &Snapshot, target: &Target) -> Result<Vec<String>, Decline> {
    let mut found = element(snap, target, CLICKABLE, false);
    if found.is_err()
        && let Some(name) = &target.name
        && let Some((first, _)) = name.rsplit_once(' ')
    {
        let shorter = Target {
            name: Some(first.to_owned()),
            ..target.clone()
        };
        found = element(snap, &shorter, CLICKABLE, false);
    }
    Ok(vec![format!("await {}.click();", found?.locator)])
}

/// `A and B`: the code of each part. A check of several lines is a block of its own, so that
/// the names its lines declare do not clash with the other check's.
fn both(snap: &Snapshot, parts: &[Intent]) -> Result<Vec<String>, Decline> {
    let mut lines = Vec::new();
    for part in parts {
        match body(part, snap)?.as_slice() {
            [one] => lines.push(one.clone()),
            many => {
                lines.push("{".to_owned());
                lines.extend(many.iter().map(|l| format!("  {l}")));
                lines.push("}".to_owned());
            }
        }
    }
    Ok(lines)
}

/// `clear X`: the field X, else the button `Clear X` (`clear the completed todos`).
fn clear(snap: &Snapshot, target: &Target) -> Result<Vec<String>, Decline> {
    if (target.kind.is_none() || target.kind == Some(Kind::Field))
        && let Ok(field) = find(snap, target, FIELD_ROLES)
    {
        return Ok(vec![format!("await {field}.clear();")]);
    }
    let words: Vec<&str> = target.phrase.split_whitespace().collect();
    let mut names = vec![format!("clear {}", target.phrase)];
    if words.len() > 1 {
        names.push(format!("clear {}", words[..words.len() - 1].join(" ")));
    }
    for name in names {
        let button = Target {
            name: Some(name),
            quoted: false,
            kind: Some(Kind::Button),
            scope: None,
            phrase: String::new(),
            nth: None,
            narrow: None,
        };
        if let Ok(found) = element(snap, &button, &[], false) {
            return Ok(vec![format!("await {}.click();", found.locator)]);
        }
    }
    Err(Decline::new(format!(
        "no field \"{}\" and no \"Clear {}\" button on the page",
        target.phrase, target.phrase
    )))
}

/// `sign in as USER with password PASSWORD`: the page's user name (or email) field, its
/// password field and its sign-in button.
fn sign_in(snap: &Snapshot, user: &Literal, password: &Literal) -> Result<Vec<String>, Decline> {
    let field = |hints: &[&str], what: &str| -> Result<String, Decline> {
        let fields: Vec<Target> = hints
            .iter()
            .map(|h| Target {
                name: Some((*h).to_owned()),
                kind: Some(Kind::Field),
                ..Target::default()
            })
            .collect();
        let found: Vec<String> = fields
            .iter()
            .filter_map(|t| find(snap, t, FIELD_ROLES).ok())
            .collect();
        found
            .first()
            .cloned()
            .ok_or_else(|| Decline::new(format!("no {what} field on the page")))
    };
    let user_field = field(
        &["username", "user name", "email", "e-mail", "login", "user"],
        "user name",
    )?;
    let password_field = field(&["password"], "password")?;
    let button = ["sign in", "log in", "login", "sign on", "submit"]
        .iter()
        .find_map(|name| {
            let target = Target {
                name: Some((*name).to_owned()),
                kind: Some(Kind::Button),
                ..Target::default()
            };
            find(snap, &target, &[]).ok()
        })
        .ok_or_else(|| Decline::new("no sign-in button on the page"))?;
    Ok(vec![
        format!("await {user_field}.fill({});", value_js(user)),
        format!("await {password_field}.fill({});", value_js(password)),
        format!("await {button}.click();"),
    ])
}

/// `delete "T"`: the delete button of the one list item or row holding T.
fn delete(snap: &Snapshot, text: &Literal) -> Result<Vec<String>, Decline> {
    for name in ["delete", "remove", "destroy", "trash", "×"] {
        let target = Target {
            name: Some(name.to_owned()),
            kind: Some(Kind::Button),
            scope: Some(text.0.clone()),
            ..Target::default()
        };
        match element(snap, &target, &[], false) {
            Ok(found) => {
                let (item, button) = found
                    .locator
                    .split_once(".getByRole('button'")
                    .unwrap_or((found.locator.as_str(), ""));
                return Ok(vec![
                    format!("const item = {item};"),
                    "await item.hover();".to_owned(),
                    format!("await item.getByRole('button'{button}.click();"),
                    "await expect(item).toHaveCount(0);".to_owned(),
                ]);
            }
            Err(decline) if decline.1 != Cause::NoElement => return Err(decline),
            Err(_) => {}
        }
    }
    // A button the row shows only on hover is not in the snapshot; the page's structure
    // lists it.
    if let Some((item, button)) = hidden_delete(snap, &text.0) {
        return Ok(vec![
            format!("const item = {item};"),
            "await item.hover();".to_owned(),
            format!("await {button}.click();"),
            "await expect(item).toHaveCount(0);".to_owned(),
        ]);
    }
    Err(Decline::new(format!(
        "no delete or remove button in a list item or row holding \"{}\"",
        text.0
    )))
}

/// `edit "T" to "U"`: double-click the text in its row, then fill the one field that opens in
/// a row (the list's edit field) and press Enter. The field is found among the rows, since
/// the row may no longer show T once editing starts.
fn edit(snap: &Snapshot, from: &Literal, to: &Literal) -> Result<Vec<String>, Decline> {
    let (item, node) = row_holding(snap, &from.0)?;
    let role = js_str(&snap.nodes[node].role);
    Ok(vec![
        format!("const item = {item};"),
        format!(
            "await item.getByText({}, {{ exact: true }}).dblclick();",
            js_str(from.0.trim())
        ),
        format!("const field = page.getByRole({role}).getByRole('textbox');"),
        format!("await field.fill({});", value_js(to)),
        "await field.press('Enter');".to_owned(),
    ])
}

#[cfg(test)]
mod tests {
    //! One test per sentence shape on the demo's snapshots: the code it writes, and where it
    //! declines (nothing matches, or several elements a locator cannot tell apart).

    use crate::writer::builtin::snapshot::fixtures::{LOGIN, TODOS};
    use crate::writer::builtin::text_line_code::line_locator_js;
    use crate::writer::builtin::write_step;

    /// The body of the code written for `sentence` on `snapshot`, one statement a line.
    fn body(sentence: &str, snapshot: &str) -> Vec<String> {
        let code = write_step(sentence, &["item".to_owned()], snapshot, "")
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
        match write_step(sentence, &[], snapshot, "") {
            Ok(code) => panic!("wrote code for {sentence:?}:\n{code}"),
            Err(why) => why.0,
        }
    }

    #[test]
    fn open() {
        assert_eq!(one("open the app", ""), "await page.goto('');");
        assert_eq!(
            one("Please go to the home page.", ""),
            "await page.goto('');"
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
            "await page.getByRole('button', { name: 'Clear completed', exact: true }).click();"
        );
        assert_eq!(
            one("Tap on the active link", TODOS),
            "await page.getByRole('link', { name: 'Active' }).click();"
        );
        assert_eq!(
            one("press the \"Sign in\" button", LOGIN),
            "await page.getByRole('button', { name: 'Sign in', exact: true }).click();"
        );
        // A quoted name is the element's whole name: it is always written `exact`.
        assert_eq!(
            one("click \"Completed\"", TODOS),
            "await page.getByRole('link', { name: 'Completed', exact: true }).click();"
        );
        // Two buttons named Delete: declined, unless the row is named.
        let why = declined("click the \"Delete\" button", TODOS);
        assert!(why.starts_with("2 elements on the page could be"), "{why}");
        assert_eq!(
            one("click the \"Delete\" button of \"buy milk\"", TODOS),
            "await page.getByRole('listitem').filter({ has: page.getByText('buy milk', { exact: true }) }).getByRole('button', { name: 'Delete', exact: true }).click();"
        );
        assert!(declined("click the \"Save\" button", TODOS).starts_with("no element"));
    }

    /// A delete button named only by its sign is found by the names delete buttons go by, and
    /// only when the page shows exactly one of them.
    #[test]
    fn the_delete_button_is_the_one_button_named_as_delete_buttons_are() {
        const HOVERED: &str = "- list:\n  - listitem:\n    - checkbox\n    - text: buy milk\n    - button \"×\"\n- button \"Clear completed\"\n";
        assert_eq!(
            one("click the delete button", HOVERED),
            "await page.getByRole('button', { name: '×', exact: true }).click();"
        );
        const TWO: &str = "- button \"×\"\n- button \"✕\"\n";
        assert!(declined("click the delete button", TWO).starts_with("no element"));
        // Two rows' signs, or a row's and a dialog's: which one is meant is not known.
        const SIGNS: &str = "- listitem:\n  - button \"×\"\n- listitem:\n  - button \"×\"\n- dialog:\n  - button \"✕\"\n";
        assert!(declined("click the delete button", SIGNS).starts_with("no element"));
        // A sign is a whole name: `Share on X` is no delete button.
        const SHARE: &str = "- button \"Share on X\"\n";
        assert!(declined("click the delete button", SHARE).starts_with("no element"));
        // A button named by another word is another act, never a delete.
        const REMOVE: &str = "- button \"Remove\"\n";
        assert!(declined("click the delete button", REMOVE).starts_with("no element"));
        // A quoted name is the button's whole name, never one of the others.
        assert!(declined("click the \"Delete\" button", HOVERED).starts_with("no element"));
    }

    #[test]
    fn double_click_prefers_the_text() {
        assert_eq!(
            one("double-click \"buy milk\"", TODOS),
            "await page.getByText('buy milk', { exact: true }).dblclick();"
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
            "await page.getByPlaceholder('What needs to be done?', { exact: true }).fill('x');"
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
            "await page.getByRole('checkbox', { name: 'walk the dog', exact: true }).check();"
        );
        assert_eq!(
            one("uncheck the \"buy milk\" checkbox", TODOS),
            "await page.getByRole('checkbox', { name: 'buy milk', exact: true }).uncheck();"
        );
    }

    #[test]
    fn select() {
        let page =
            "- combobox \"Country\":\n  - option \"France\"\n  - option \"Spain\" [selected]";
        assert_eq!(
            one("select \"France\" from the country dropdown", page),
            "await page.getByRole('combobox', { name: 'Country' }).selectOption({ label: 'France' });"
        );
        assert!(
            declined("select \"France\" in the \"Region\" dropdown", page)
                .starts_with("no element")
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
            "await page.getByRole('link', { name: 'Sign in', exact: true }).hover();"
        );
    }

    #[test]
    fn visible_and_hidden() {
        assert_eq!(
            one("the \"todos\" heading is visible", TODOS),
            "await expect(page.getByRole('heading', { name: 'todos', exact: true })).toBeVisible();"
        );
        assert_eq!(
            one("\"Double-click a todo to edit it.\" is shown", TODOS),
            "await expect(page.getByText('Double-click a todo to edit it.', { exact: true })).toBeVisible();"
        );
        assert_eq!(
            one("the \"Sign in\" button should not be displayed", TODOS),
            "await expect(page.getByRole('button', { name: 'Sign in' })).toBeHidden();"
        );
        assert_eq!(
            one("\"Welcome back\" is hidden", LOGIN),
            "await expect(page.getByText(/(?<![\\p{L}\\p{N}_])Welcome back(?![\\p{L}\\p{N}_])/u)).toBeHidden();"
        );
        // A text on the page that must be hidden is matched on word boundaries too: a longer
        // text holding it that is still shown fails the check.
        assert_eq!(
            one("\"1 item left\" is not shown", TODOS),
            "await expect(page.getByText(/(?<![\\p{L}\\p{N}_]|\\p{N}[.,])1 item left(?![\\p{L}\\p{N}_])/u)).toBeHidden();"
        );
        assert!(declined("the \"Welcome\" heading is shown", LOGIN).contains("no element"));
        // An unquoted description of nothing on the page is no name to check the absence of:
        // a check that no link is named "footer with counter and" passes on any page.
        assert!(
            declined("the footer with counter and filters is not visible", TODOS)
                .contains("no element")
        );
        // Counted, the words after `and` are another part of the sentence, which the count
        // does not read: the decline names them.
        let why = declined("no footer with counter and filters is shown", TODOS);
        assert!(why.contains("\"and filters\""), "{why}");
        // A noun no kind knows is a word the shape did not read, so it is named, not dropped.
        assert!(declined("the \"Welcome\" banner is shown", LOGIN).contains("\"banner\""));
    }

    #[test]
    fn the_page_shows() {
        assert_eq!(
            one("the page says \"1 item left\"", TODOS),
            "await expect(page.getByText('1 item left', { exact: true })).toBeVisible();"
        );
        assert_eq!(
            one("the page shows \"Invalid credentials\"", LOGIN),
            "await expect(page.getByText(/^\\s*Invalid\\s+credentials\\s*$/u)).toBeVisible();"
        );
        // A quoted text is whole (issue 41): an element whose whole text it is, so "item left"
        // is found neither in "items left" nor in "1 item left".
        assert_eq!(
            one("the page says \"item left\"", TODOS),
            format!(
                "await expect(page.getByText(/^\\s*item\\s+left\\s*$/u).or({})).toBeVisible();",
                line_locator_js("item left")
            )
        );
        // Not on the page yet: the check waits for an element whose whole text it is.
        assert_eq!(
            one("the page says \"3 items left\"", TODOS),
            "await expect(page.getByText(/^\\s*3\\s+items\\s+left\\s*$/u)).toBeVisible();"
        );
        assert_eq!(
            one("I should see ${GREETING}", LOGIN),
            "await expect(page.getByText(new RegExp('(?<![\\\\p{L}\\\\p{N}_]|\\\\p{N}[.,])' + vars.GREETING.replace(/[.*+?^${}()|[\\]\\\\/]/g, '\\\\$&') + '(?![\\\\p{L}\\\\p{N}_]|[.,]\\\\p{N})', 'u')).first()).toBeVisible();"
        );
        // The same text twice (a link and a heading): declined.
        assert!(declined("the page shows \"Sign in\"", LOGIN).starts_with("2 elements"));
    }

    #[test]
    fn the_page_contains_a_text_as_whole_words() {
        // "contains" keeps its meaning: a part of an element's text, bounded by words, so
        // "item left" is found in "1 item left" but not in "items left".
        for sentence in [
            "the page contains \"item left\"",
            "the page includes \"item left\"",
            "the screen contains \"item left\"",
        ] {
            assert_eq!(
                one(sentence, TODOS),
                "await expect(page.getByText(/(?<![\\p{L}\\p{N}_])item left(?![\\p{L}\\p{N}_])/u).first()).toBeVisible();",
                "{sentence}"
            );
        }
        // Said without "contains", the quoted text is still the whole text.
        assert_eq!(
            one("the page says \"item left\"", TODOS),
            format!(
                "await expect(page.getByText(/^\\s*item\\s+left\\s*$/u).or({})).toBeVisible();",
                line_locator_js("item left")
            )
        );
    }

    #[test]
    fn the_list_shows() {
        assert_eq!(
            body("the list shows \"buy milk\"", TODOS),
            [
                "const items = page.getByRole('list', { name: 'Todo list' }).getByRole('listitem');",
                "await expect(items).toContainText(['buy milk']);",
                "await expect(items.getByText('buy milk', { exact: true }).first()).toBeVisible();"
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
                "await expect(items).toContainText(['buy milk', 'walk the dog']);",
                "await expect(items.getByText('buy milk', { exact: true }).first()).toBeVisible();",
                "await expect(items.getByText('walk the dog', { exact: true }).first()).toBeVisible();"
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
            "await expect(page.getByRole('heading', { name: 'todos', exact: true })).toHaveText('todos');"
        );
    }

    #[test]
    fn states() {
        assert_eq!(
            one("\"walk the dog\" is checked", TODOS),
            "await expect(page.getByRole('checkbox', { name: 'walk the dog', exact: true })).toBeChecked();"
        );
        assert_eq!(
            one("the \"buy milk\" checkbox is not checked", TODOS),
            "await expect(page.getByRole('checkbox', { name: 'buy milk', exact: true })).not.toBeChecked();"
        );
        assert_eq!(
            one("the \"Clear completed\" button is enabled", TODOS),
            "await expect(page.getByRole('button', { name: 'Clear completed', exact: true })).toBeEnabled();"
        );
        assert_eq!(
            one("the \"Sign in\" button is disabled", LOGIN),
            "await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeDisabled();"
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
        // The other list is the filters, whose every item is a link.
        assert_eq!(
            one("there are 2 items", TODOS),
            "await expect(page.getByRole('list', { name: 'Todo list' }).getByRole('listitem')).toHaveCount(2);"
        );
        let two_lists = "- list \"A\":\n  - listitem: one\n- list \"B\":\n  - listitem: two\n";
        assert!(declined("there are 2 items", two_lists).contains("2 lists"));
    }

    #[test]
    fn url_and_title() {
        assert_eq!(
            one("the URL contains \"#/active\"", TODOS),
            "await expect(page).toHaveURL(/#\\/active(?![\\p{L}\\p{N}_])/u);"
        );
        assert_eq!(
            one("the url is \"/login.html\"", TODOS),
            "await expect(page).toHaveURL(/^[a-z][a-z0-9+.-]*:\\/\\/[^\\/?#]*\\/login\\.html(?:[?#]|$)/);"
        );
        assert_eq!(
            one("the title should be \"prettyplay demo · todos\"", TODOS),
            "await expect(page).toHaveTitle('prettyplay demo · todos');"
        );
        assert_eq!(
            one("the page title contains \"todos\"", TODOS),
            "await expect(page).toHaveTitle(/(?<![\\p{L}\\p{N}_])todos(?![\\p{L}\\p{N}_])/u);"
        );
        // A negation is never dropped: read as the plain check, it would pass when false.
        for sentence in [
            "the URL does not contain \"active\"",
            "the URL should not contain \"active\"",
            "the url doesn't include \"active\"",
        ] {
            assert!(
                one(sentence, TODOS).contains("not.toHaveURL("),
                "{sentence}"
            );
        }
        for sentence in [
            "the title is not \"todos\"",
            "the page title does not contain \"todos\"",
            "the URL is not \"/login.html\"",
        ] {
            assert!(declined(sentence, TODOS).contains("negated"), "{sentence}");
        }
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
                "const item = page.getByRole('listitem').filter({ has: page.getByText('walk the dog', { exact: true }) });",
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

    #[test]
    fn a_placeholder_that_is_not_a_name_stays_text() {
        let code = crate::writer::builtin::codegen::value_js(
            &crate::writer::builtin::intent::Literal("Hi ${x)+alert(1)+(y} and ${NAME}".to_owned()),
        );
        assert_eq!(code, "`Hi \\${x)+alert(1)+(y} and ${vars.NAME}`");
    }
}
