//! The step code of an [`Intent`] on a page: `async function step(page) { ... }` in Playwright
//! Test's JavaScript, with locators from `resolve.rs` and web-first `expect`s, values as
//! written (a `${NAME}` or `<column>` placeholder is read as `vars.NAME`, never its value).
//!
//! Main function: [`code_for`].

use crate::engine::builtin::grammar::{Decline, Intent, Literal, State, Target};
use crate::engine::builtin::kinds::{FIELD_ROLES, Kind};
use crate::engine::builtin::resolve::{
    CHECKABLE, CLICKABLE, Found, element, js_str, list, only_field,
};
use crate::engine::builtin::snapshot::Snapshot;

/// The JavaScript of a value: a string literal, or `vars.NAME` for a placeholder (a template
/// literal when placeholders are part of a longer text).
pub(crate) fn value_js(value: &Literal) -> String {
    let text = value.0.as_str();
    if let Some(name) = placeholder(text) {
        return format!("vars.{name}");
    }
    if !text.contains("${") {
        return js_str(text);
    }
    // `Hello ${NAME}`: a template literal whose placeholders read vars.
    let mut out = String::from("`");
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        out.push_str(&escape_template(&rest[..at]));
        match rest[at..].find('}') {
            Some(end) => {
                let name = &rest[at + 2..at + end];
                out.push_str(&format!("${{vars.{name}}}"));
                rest = &rest[at + end + 1..];
            }
            None => {
                out.push_str(&escape_template(&rest[at..]));
                rest = "";
            }
        }
    }
    out.push_str(&escape_template(rest));
    out.push('`');
    out
}

fn escape_template(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('`', "\\`")
        .replace("${", "\\${")
}

/// `NAME` when `text` is exactly `${NAME}` or `<NAME>`.
fn placeholder(text: &str) -> Option<&str> {
    let name = text
        .strip_prefix("${")
        .and_then(|t| t.strip_suffix('}'))
        .or_else(|| text.strip_prefix('<').and_then(|t| t.strip_suffix('>')))?;
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then_some(name)
}

/// A regular expression literal matching `text` literally.
fn regex_js(value: &Literal) -> String {
    if placeholder(&value.0).is_some() || value.0.contains("${") {
        return format!(
            "new RegExp({}.replace(/[.*+?^${{}}()|[\\]\\\\]/g, '\\\\$&'))",
            value_js(value)
        );
    }
    let mut out = String::from("/");
    for c in value.0.chars() {
        if "\\^$.|?*+()[]{}/".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('/');
    out
}

/// The code of `intent` on the page `snap` shows.
pub(crate) fn code_for(intent: &Intent, snap: &Snapshot) -> Result<String, Decline> {
    let lines = body(intent, snap)?;
    let mut code = String::from("async function step(page) {\n");
    for line in lines {
        code.push_str("  ");
        code.push_str(&line);
        code.push('\n');
    }
    code.push('}');
    Ok(code)
}

fn find(snap: &Snapshot, target: &Target, defaults: &[&str]) -> Result<String, Decline> {
    element(snap, target, defaults, false).map(|f| f.locator)
}

fn body(intent: &Intent, snap: &Snapshot) -> Result<Vec<String>, Decline> {
    Ok(match intent {
        Intent::Open(None) => vec!["await page.goto('/');".to_owned()],
        Intent::Open(Some(path)) => vec![format!("await page.goto({});", value_js(path))],
        Intent::Click { target, double } => {
            let found = element(snap, target, CLICKABLE, *double)?;
            let action = if *double { "dblclick" } else { "click" };
            vec![format!("await {}.{action}();", found.locator)]
        }
        Intent::Fill {
            value,
            target,
            then_press,
        } => {
            let field = find(snap, target, FIELD_ROLES)?;
            match then_press {
                None => vec![format!("await {field}.fill({});", value_js(value))],
                Some(key) => vec![
                    format!("const field = {field};"),
                    format!("await field.fill({});", value_js(value)),
                    format!("await field.press({});", js_str(key)),
                ],
            }
        }
        Intent::Clear(target) => clear(snap, target)?,
        Intent::Check { target, on } => {
            let found = find(snap, target, CHECKABLE)?;
            let action = if *on { "check" } else { "uncheck" };
            vec![format!("await {found}.{action}();")]
        }
        Intent::Select { value, target } => {
            let found = find(snap, target, Kind::Dropdown.roles())?;
            vec![format!("await {found}.selectOption({});", value_js(value))]
        }
        Intent::Press { key, target: None } => {
            vec![format!("await page.keyboard.press({});", js_str(key))]
        }
        Intent::Press {
            key,
            target: Some(target),
        } => {
            let found = find(snap, target, FIELD_ROLES)?;
            vec![format!("await {found}.press({});", js_str(key))]
        }
        Intent::Hover(target) => {
            let found = element(snap, target, CLICKABLE, false)?;
            vec![format!("await {}.hover();", found.locator)]
        }
        Intent::Visible { target, shown } => visible(snap, target, *shown)?,
        Intent::PageShows(text) => page_shows(snap, text)?,
        Intent::ListShows { values, only } => {
            let texts: Vec<String> = values.iter().map(|v| v.0.clone()).collect();
            let known: Vec<String> = texts
                .iter()
                .filter(|t| placeholder(t).is_none() && !t.contains("${"))
                .cloned()
                .collect();
            let the_list = list(snap, &known, None)?;
            let expected: Vec<String> = values.iter().map(value_js).collect();
            let mut lines = vec![format!("const items = {the_list}.getByRole('listitem');")];
            if *only {
                lines.push(format!(
                    "await expect(items).toHaveCount({});",
                    expected.len()
                ));
            }
            lines.push(format!(
                "await expect(items).toContainText([{}]);",
                expected.join(", ")
            ));
            lines
        }
        Intent::HasValue { target, value } => {
            let field = find(snap, target, FIELD_ROLES)?;
            vec![format!(
                "await expect({field}).toHaveValue({});",
                value_js(value)
            )]
        }
        Intent::HasText {
            target,
            value,
            exact,
        } => {
            let found = find(snap, target, ANY)?;
            let matcher = if *exact {
                "toHaveText"
            } else {
                "toContainText"
            };
            vec![format!(
                "await expect({found}).{matcher}({});",
                value_js(value)
            )]
        }
        Intent::State { target, state } => {
            let defaults = match state {
                State::Checked | State::Unchecked => CHECKABLE,
                State::Enabled | State::Disabled => ANY,
            };
            let found = find(snap, target, defaults)?;
            let matcher = match state {
                State::Checked => "toBeChecked()",
                State::Unchecked => "not.toBeChecked()",
                State::Enabled => "toBeEnabled()",
                State::Disabled => "toBeDisabled()",
            };
            vec![format!("await expect({found}).{matcher};")]
        }
        Intent::Count { count, what } => {
            let locator = if what.kind == Some(Kind::Item) {
                let noun = what.phrase.split_whitespace().last();
                format!("{}.getByRole('listitem')", list(snap, &[], noun)?)
            } else {
                let kind = what.kind.unwrap_or(Kind::Item);
                let role = kind.roles()[0];
                match what.name.as_deref() {
                    Some(name) => format!(
                        "page.getByRole({}, {{ name: {}, exact: true }})",
                        js_str(role),
                        js_str(name)
                    ),
                    None => format!("page.getByRole({})", js_str(role)),
                }
            };
            vec![format!("await expect({locator}).toHaveCount({count});")]
        }
        Intent::Url { value, exact } => {
            let expected = if *exact && value.0.starts_with("http") {
                value_js(value)
            } else if *exact {
                let mut re = regex_js(value);
                if re.ends_with('/') && !re.starts_with("new") {
                    re.insert(re.len() - 1, '$');
                }
                re
            } else {
                regex_js(value)
            };
            vec![format!("await expect(page).toHaveURL({expected});")]
        }
        Intent::Title { value, exact } => {
            let expected = if *exact {
                value_js(value)
            } else {
                regex_js(value)
            };
            vec![format!("await expect(page).toHaveTitle({expected});")]
        }
        Intent::SignIn { user, password } => sign_in(snap, user, password)?,
        Intent::Add(values) => {
            let field = only_field(snap, &["new", "add", "todo", "item", "what"])?;
            let mut lines = vec![format!("const field = {};", field.locator)];
            for value in values {
                lines.push(format!("await field.fill({});", value_js(value)));
                lines.push("await field.press('Enter');".to_owned());
            }
            lines
        }
        Intent::Delete(text) => delete(snap, text)?,
        Intent::Show(target) => {
            let mut found = element(snap, target, CLICKABLE, false);
            // `show the active todos`: the filter is named by the words before the noun.
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
            vec![format!("await {}.click();", found?.locator)]
        }
    })
}

/// Every role: a check may be about any element.
const ANY: &[&str] = &[
    "button",
    "link",
    "tab",
    "checkbox",
    "radio",
    "menuitem",
    "option",
    "switch",
    "textbox",
    "searchbox",
    "combobox",
    "spinbutton",
    "heading",
    "status",
    "alert",
    "dialog",
    "img",
    "listitem",
    "row",
    "cell",
    "paragraph",
    "listbox",
    "progressbar",
    "slider",
    "tabpanel",
    "region",
    "navigation",
    "banner",
    "main",
    "contentinfo",
    "article",
    "group",
    "list",
    "table",
];

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

/// `X is shown` / `X is hidden`. An element that is not on the page can still be checked to
/// be hidden when the sentence names its text or its kind and name.
fn visible(snap: &Snapshot, target: &Target, shown: bool) -> Result<Vec<String>, Decline> {
    let matcher = if shown { "toBeVisible" } else { "toBeHidden" };
    let found = match element(snap, target, ANY, false) {
        Ok(Found { locator, .. }) => locator,
        Err(_) if !shown && target.scope.is_none() && target.name.is_some() => {
            let name = js_str(target.name.as_deref().unwrap_or_default());
            match target.kind {
                Some(kind) => format!(
                    "page.getByRole({}, {{ name: {name} }})",
                    js_str(kind.roles()[0])
                ),
                None if target.quoted => format!("page.getByText({name})"),
                None => return Err(Decline::new("quote the text that must be hidden")),
            }
        }
        Err(decline) => return Err(decline),
    };
    Ok(vec![format!("await expect({found}).{matcher}();")])
}

/// `the page shows T`: some element shows the text.
fn page_shows(snap: &Snapshot, text: &Literal) -> Result<Vec<String>, Decline> {
    if placeholder(&text.0).is_some() || text.0.contains("${") {
        return Ok(vec![format!(
            "await expect(page.getByText({}).first()).toBeVisible();",
            value_js(text)
        )]);
    }
    let target = Target {
        name: Some(text.0.clone()),
        quoted: true,
        ..Target::default()
    };
    let found = match element(snap, &target, &[], false) {
        Ok(found) => found.locator,
        // Not on the page yet (or written differently): the check waits for it, and fails if
        // it never comes.
        Err(decline) if decline.0.starts_with("no element") => {
            format!("page.getByText({})", js_str(&text.0))
        }
        Err(decline) => return Err(decline),
    };
    Ok(vec![format!("await expect({found}).toBeVisible();")])
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
            Err(decline) if !decline.0.starts_with("no element") => return Err(decline),
            Err(_) => {}
        }
    }
    Err(Decline::new(format!(
        "no delete or remove button in a list item or row holding \"{}\"",
        text.0
    )))
}

#[cfg(test)]
#[path = "codegen_tests.rs"]
mod tests;
