//! The step code of an [`Intent`] on a page: `async function step(page) { ... }` in Playwright
//! Test's JavaScript, with locators from `resolve.rs` and web-first `expect`s, values as
//! written (a `${NAME}` or `<column>` placeholder is read as `vars.NAME`, never its value).
//!
//! Main function: [`code_for`].

use crate::engine::builtin::forms::form_code;
use crate::engine::builtin::grammar::{Decline, Intent, Literal, State, Target};
use crate::engine::builtin::http;
use crate::engine::builtin::kinds::{FIELD_ROLES, Kind};
use crate::engine::builtin::resolve::{
    CHECKABLE, CLICKABLE, Found, bounded_regex_js, checked_element, element, has_words, js_str,
    list, norm, only_field, shown_text,
};
use crate::engine::builtin::rows::{DELETE_WORDS, hidden_delete, row_holding};
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
                // Only a variable name becomes code; anything else stays text, so a sentence
                // cannot write code of its own into the step.
                if crate::engine::builtin::http_js::is_identifier(name) {
                    out.push_str(&format!("${{vars.{name}}}"));
                } else {
                    out.push_str(&escape_template(&rest[at..at + end + 1]));
                }
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

/// A regular expression that finds `value` in a text on word boundaries, never inside a longer
/// number or word (see [`bounded_regex_js`]). A placeholder's value is only known when the step
/// runs, so its expression is escaped and bounded on both sides then.
fn bounded_js(value: &Literal) -> String {
    if placeholder(&value.0).is_some() || value.0.contains("${") {
        return format!(
            "new RegExp('(?<![\\\\p{{L}}\\\\p{{N}}_])' + {}.replace(/[.*+?^${{}}()|[\\]\\\\/]/g, '\\\\$&') + '(?![\\\\p{{L}}\\\\p{{N}}_])', 'iu')",
            value_js(value)
        );
    }
    bounded_regex_js(&value.0)
}

/// The code of `intent` on the page `snap` shows.
pub(crate) fn code_for(intent: &Intent, snap: &Snapshot) -> Result<String, Decline> {
    Ok(step_function(body(intent, snap)?))
}

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
    Ok(match intent {
        // `''` resolves to `[browser] base_url` itself, path and query kept; `'/'` would be the
        // host's root (URLs resolve as the URL constructor resolves them).
        Intent::Open(None) => vec!["await page.goto('');".to_owned()],
        Intent::Open(Some(path)) => vec![format!("await page.goto({});", value_js(path))],
        Intent::Click { target, double } => match element(snap, target, CLICKABLE, *double) {
            Ok(found) => {
                let action = if *double { "dblclick" } else { "click" };
                vec![format!("await {}.{action}();", found.locator)]
            }
            // `click the delete button in "T"` where the row shows it only on hover.
            Err(decline) => match (&target.scope, &target.name) {
                (Some(row), Some(name))
                    if !*double && DELETE_WORDS.contains(&norm(name).as_str()) =>
                {
                    let Some((item, button)) = hidden_delete(snap, row) else {
                        return Err(decline);
                    };
                    vec![
                        format!("const item = {item};"),
                        "await item.hover();".to_owned(),
                        format!("await {button}.click();"),
                    ]
                }
                _ => return Err(decline),
            },
        },
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
        Intent::Select { value, target } => match find(snap, target, Kind::Dropdown.roles()) {
            Ok(found) => vec![format!("await {found}.selectOption({});", value_js(value))],
            // `choose "Yes" for the licence question`: the radio button named the value.
            Err(decline) => {
                let radio = Target {
                    name: Some(value.0.clone()),
                    quoted: true,
                    kind: Some(Kind::Radio),
                    ..Target::default()
                };
                match find(snap, &radio, &[]) {
                    Ok(found) => vec![format!("await {found}.check();")],
                    Err(_) => return Err(decline),
                }
            }
        },
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
            let the_list = match (list(snap, &known, None), known.first()) {
                (Ok(found), _) => found,
                // An unnamed list among others, which the page's structure does not name
                // either: the list that shows the first text as an item's whole text.
                (Err(decline), Some(first)) if decline.0.contains("no accessible name") => {
                    format!(
                        "page.getByRole('list').filter({{ has: page.getByRole('listitem').filter({{ has: page.getByText({}, {{ exact: true }}) }}) }})",
                        js_str(first)
                    )
                }
                (Err(decline), _) => return Err(decline),
            };
            let mut lines = vec![format!("const items = {the_list}.getByRole('listitem');")];
            if *only {
                lines.push(format!(
                    "await expect(items).toHaveCount({});",
                    values.len()
                ));
            }
            // The items hold the texts in this order. An item's text runs into its buttons'
            // ("buy milkDelete"), so that check is by substring, and each text is then found
            // whole in an item: `.first()` of those is enough, since the sentence only says
            // that some item shows it.
            let expected: Vec<String> = values.iter().map(value_js).collect();
            lines.push(format!(
                "await expect(items).toContainText([{}]);",
                expected.join(", ")
            ));
            for value in &expected {
                lines.push(format!(
                    "await expect(items.getByText({value}, {{ exact: true }}).first()).toBeVisible();"
                ));
            }
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
            let element = match element(snap, target, ANY, false) {
                Ok(element) => element,
                Err(decline) => return only_item(snap, target, value).ok_or(decline),
            };
            // An element that holds more than the text (a footer that says "3 items left" beside
            // its links) says it when the text is there as whole words.
            let holds_more = placeholder(&value.0).is_none()
                && shown_now(snap, &element)
                    .is_some_and(|now| norm(&now) != norm(&value.0) && has_words(&now, &value.0));
            let found = element.locator;
            // What a field says or holds is its value.
            let field = snap
                .nodes
                .get(element.node)
                .is_some_and(|n| FIELD_ROLES.contains(&n.role.as_str()))
                || snap.structure.hints.iter().any(|h| {
                    h.locator.as_deref() == Some(found.as_str())
                        && FIELD_ROLES.contains(&h.role.as_str())
                });
            if field {
                let expected = if *exact {
                    value_js(value)
                } else {
                    bounded_js(value)
                };
                return Ok(vec![format!(
                    "await expect({found}).toHaveValue({expected});"
                )]);
            }
            // `toHaveText('x')` is the whole text; a contained text is bounded by words.
            let line = if *exact && !holds_more {
                format!("await expect({found}).toHaveText({});", value_js(value))
            } else {
                format!(
                    "await expect({found}).toContainText({});",
                    bounded_js(value)
                )
            };
            vec![line]
        }
        Intent::State { target, state } => {
            let defaults = match state {
                State::Checked | State::Unchecked => CHECKABLE,
                State::Enabled | State::Disabled => ANY,
            };
            let found = checked_element(snap, target, defaults)?.locator;
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
                bounded_js(value)
            };
            vec![format!("await expect(page).toHaveURL({expected});")]
        }
        Intent::Title { value, exact } => {
            let expected = if *exact {
                value_js(value)
            } else {
                bounded_js(value)
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
        Intent::AllItems { count, noun, state } => {
            let items = format!("{}.getByRole('listitem')", list(snap, &[], Some(noun))?);
            let mut lines = vec![format!("const items = {items};")];
            // Every item is checked: the count first, so that an empty list cannot pass.
            lines.push(match count {
                Some(n) => format!("await expect(items).toHaveCount({n});"),
                None => "await expect(items).not.toHaveCount(0);".to_owned(),
            });
            let matcher = match state {
                State::Unchecked => "not.toBeChecked()",
                _ => "toBeChecked()",
            };
            lines.push("for (const item of await items.all()) {".to_owned());
            lines.push(format!(
                "  await expect(item.getByRole('checkbox')).{matcher};"
            ));
            lines.push("}".to_owned());
            lines
        }
        Intent::Placeholder { target, value } => {
            let field = find(snap, target, FIELD_ROLES)?;
            vec![format!(
                "await expect({field}).toHaveAttribute('placeholder', {});",
                value_js(value)
            )]
        }
        Intent::Edit { from, to } => edit(snap, from, to)?,
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
        Intent::Both(parts) => {
            let mut lines = Vec::new();
            for part in parts {
                // A check of several lines is a block of its own, so that the names its
                // lines declare do not clash with the other check's.
                match body(part, snap)?.as_slice() {
                    [one] => lines.push(one.clone()),
                    many => {
                        lines.push("{".to_owned());
                        lines.extend(many.iter().map(|l| format!("  {l}")));
                        lines.push("}".to_owned());
                    }
                }
            }
            lines
        }
        Intent::Validity { .. }
        | Intent::Suggests { .. }
        | Intent::Retype { .. }
        | Intent::NoQuery
        | Intent::UrlLacks(_)
        | Intent::Asks { .. } => form_code(intent, snap)?,
        Intent::Http(http) => http::lines(http)?,
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

/// The text the element shows now: its snapshot node's text, or what the page's structure
/// read for it.
/// Only for a container (an element holding other elements), since a text of its own that
/// only holds the words says something else.
fn shown_now(snap: &Snapshot, found: &Found) -> Option<String> {
    if let Some(node) = snap.nodes.get(found.node) {
        let container = node.children.iter().any(|&c| snap.nodes[c].role != "text");
        return container.then(|| snap.text_of(found.node));
    }
    const CONTAINERS: &[&str] = &[
        "footer", "header", "section", "div", "main", "nav", "form", "article", "aside", "ul",
        "ol", "table",
    ];
    snap.structure
        .hints
        .iter()
        .find(|h| h.locator.as_deref() == Some(found.locator.as_str()))
        .filter(|h| CONTAINERS.contains(&h.tag.as_str()))
        .map(|h| h.text.clone())
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
/// be hidden when the sentence names its text or its kind and name. A shown element's name or
/// text matches whole; a hidden quoted text is matched on word boundaries, since a whole-text
/// match would let a longer text that holds it stay visible.
fn visible(snap: &Snapshot, target: &Target, shown: bool) -> Result<Vec<String>, Decline> {
    let matcher = if shown { "toBeVisible" } else { "toBeHidden" };
    let quoted_text = target.quoted && target.kind.is_none() && target.scope.is_none();
    let found = match (quoted_text, target.name.as_deref()) {
        (true, Some(text)) if !shown => format!("page.getByText({})", bounded_regex_js(text)),
        _ => match checked_element(snap, target, ANY) {
            // A hidden element's name is matched as a substring: any element holding it that
            // is still shown fails the check.
            Ok(_) if !shown => element(snap, target, ANY, false)?.locator,
            Ok(Found { locator, .. }) => locator,
            Err(_) if !shown && target.scope.is_none() && target.name.is_some() => {
                let name = js_str(target.name.as_deref().unwrap_or_default());
                match target.kind {
                    Some(kind) => format!(
                        "page.getByRole({}, {{ name: {name} }})",
                        js_str(kind.roles()[0])
                    ),
                    None => return Err(Decline::new("quote the text that must be hidden")),
                }
            }
            Err(decline) => return Err(decline),
        },
    };
    Ok(vec![format!("await expect({found}).{matcher}();")])
}

/// `the page shows T`: some element shows the text, as its whole text or as words of a longer
/// one. A placeholder's text is only known when the step runs; `.first()` there keeps the check
/// as strong as the sentence, which names no element: the first element showing the text must
/// be visible.
fn page_shows(snap: &Snapshot, text: &Literal) -> Result<Vec<String>, Decline> {
    if placeholder(&text.0).is_some() || text.0.contains("${") {
        return Ok(vec![format!(
            "await expect(page.getByText({}).first()).toBeVisible();",
            bounded_js(text)
        )]);
    }
    let found = shown_text(snap, &text.0)?;
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

/// `the todo reads "T"`: a list item named by its noun alone, where the sentence means the one
/// item of the list: the list has exactly one item, and its whole text is T.
fn only_item(snap: &Snapshot, target: &Target, value: &Literal) -> Option<Vec<String>> {
    let noun = target
        .name
        .as_deref()
        .filter(|n| !target.quoted && !n.contains(' '))?;
    if target.scope.is_some()
        || target.nth.is_some()
        || !matches!(target.kind, None | Some(Kind::Item))
    {
        return None;
    }
    // The noun must name the list (`todo` for a list named or classed "todo list"), or
    // `the title reads "T"` could be read as the page's one list.
    let stem = noun.trim_end_matches('s');
    let named = snap.with_roles(&["list"]).into_iter().any(|i| {
        snap.nodes[i]
            .name
            .as_deref()
            .is_some_and(|n| has_words(n, stem))
    }) || !snap
        .structure
        .by_words(&[stem.to_lowercase()], &["list"])
        .is_empty();
    if !named {
        return None;
    }
    let the_list = list(snap, &[], Some(noun)).ok()?;
    Some(vec![format!(
        "await expect({the_list}.getByRole('listitem')).toHaveText([{}]);",
        value_js(value)
    )])
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

    use crate::engine::builtin::snapshot::fixtures::{LOGIN, TODOS};
    use crate::engine::builtin::write_step;

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
            "await page.getByRole('listitem').filter({ has: page.getByText('buy milk', { exact: true }) }).getByRole('button', { name: 'Delete' }).click();"
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
        let page =
            "- combobox \"Country\":\n  - option \"France\"\n  - option \"Spain\" [selected]";
        assert_eq!(
            one("select \"France\" from the country dropdown", page),
            "await page.getByRole('combobox', { name: 'Country' }).selectOption('France');"
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
            "await page.getByRole('link', { name: 'Sign in' }).hover();"
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
            "await expect(page.getByText(/(?<![\\p{L}\\p{N}_])Welcome back(?![\\p{L}\\p{N}_])/iu)).toBeHidden();"
        );
        // A text on the page that must be hidden is matched on word boundaries too: a longer
        // text holding it that is still shown fails the check.
        assert_eq!(
            one("\"1 item left\" is not shown", TODOS),
            "await expect(page.getByText(/(?<![\\p{L}\\p{N}_])1 item left(?![\\p{L}\\p{N}_])/iu)).toBeHidden();"
        );
        assert!(declined("the \"Welcome\" banner is shown", LOGIN).contains("no element"));
    }

    #[test]
    fn the_page_shows() {
        assert_eq!(
            one("the page says \"1 item left\"", TODOS),
            "await expect(page.getByText('1 item left', { exact: true })).toBeVisible();"
        );
        assert_eq!(
            one("the page shows \"Invalid credentials\"", LOGIN),
            "await expect(page.getByText(/(?<![\\p{L}\\p{N}_])Invalid credentials(?![\\p{L}\\p{N}_])/iu)).toBeVisible();"
        );
        // Part of an element's text: on word boundaries, so "item left" is never found in
        // "items left" nor "1 item" in "11 items".
        assert_eq!(
            one("the page says \"item left\"", TODOS),
            "await expect(page.getByText(/(?<![\\p{L}\\p{N}_])item left(?![\\p{L}\\p{N}_])/iu)).toBeVisible();"
        );
        // Not on the page yet: the check waits for the text on word boundaries.
        assert_eq!(
            one("the page says \"3 items left\"", TODOS),
            "await expect(page.getByText(/(?<![\\p{L}\\p{N}_])3 items left(?![\\p{L}\\p{N}_])/iu)).toBeVisible();"
        );
        assert_eq!(
            one("I should see ${GREETING}", LOGIN),
            "await expect(page.getByText(new RegExp('(?<![\\\\p{L}\\\\p{N}_])' + vars.GREETING.replace(/[.*+?^${}()|[\\]\\\\/]/g, '\\\\$&') + '(?![\\\\p{L}\\\\p{N}_])', 'iu')).first()).toBeVisible();"
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
            "await expect(page.getByRole('heading', { name: 'todos' })).toHaveText('todos');"
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
            "await expect(page).toHaveURL(/#\\/active(?![\\p{L}\\p{N}_])/iu);"
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
            "await expect(page).toHaveTitle(/(?<![\\p{L}\\p{N}_])todos(?![\\p{L}\\p{N}_])/iu);"
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
        let code =
            crate::engine::builtin::codegen::value_js(&crate::engine::builtin::grammar::Literal(
                "Hi ${x)+alert(1)+(y} and ${NAME}".to_owned(),
            ));
        assert_eq!(code, "`Hi \\${x)+alert(1)+(y} and ${vars.NAME}`");
    }
}
