//! The code of the checks a sentence says (`X is shown`, `the list shows A and B`, `the counter
//! says "1 item left"`, `the URL contains "/done"`, ...): web-first `expect`s on the locators
//! `resolve.rs` finds, as exact as the sentence is. The code of actions is `codegen.rs`, which
//! calls these.
//!
//! Every claim (an intent whose reading is `Reading::Claim`, which an either-or takes as its
//! other side) is written through [`claim`], with the [`CheckOptions`] every web-first assertion
//! of its code is written with.
//!
//! Main functions: [`claim`], and one per check intent, [`visible`] to [`placeholder_line`].

use crate::writer::builtin::check_options::CheckOptions;
use crate::writer::builtin::dropdown_code;
use crate::writer::builtin::dropdown_option::DropdownOption;
use crate::writer::builtin::intent::{Cause, Decline, Intent, Literal, State, Target, UrlMatch};
use crate::writer::builtin::js_values::{bounded_js, placeholder, regex_js, value_js};
use crate::writer::builtin::kinds::{FIELD_ROLES, Kind};
use crate::writer::builtin::locator::{Found, js_str, norm};
use crate::writer::builtin::resolve::{
    CHECKABLE, bounded_regex_js, checked_element, element, has_words, list, shown_text,
};
use crate::writer::builtin::rows::{described, narrowed};
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::builtin::text_line_code::line_within_js;
use crate::writer::builtin::unnamed::labelled_value;
use crate::writer::builtin::vocabulary::DESCRIBING;

/// Every role: a check may be about any element.
pub(super) const ANY: &[&str] = &[
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

/// The code of a claim, each of its web-first assertions written with `options`; every path of
/// every claim's writer honours them, and its code waits in nothing but those assertions. An
/// intent that is no claim declines: an either-or takes only claims as its other side
/// (`Intent::reading`), and the code of any other check may wait in ways `options` do not bound.
pub(super) fn claim(
    snap: &Snapshot,
    intent: &Intent,
    options: CheckOptions,
) -> Result<Vec<String>, Decline> {
    match intent {
        Intent::Visible { target, shown } => visible(snap, target, *shown, options),
        Intent::PageShows(text) => page_shows(snap, text, options),
        Intent::PageContains(text) => Ok(vec![page_contains(text, options)]),
        Intent::ListShows { values, only } => list_shows(snap, values, *only, options),
        Intent::HasValue { target, value } => has_value(snap, target, value, options),
        Intent::HasText {
            target,
            value,
            exact,
        } => has_text(snap, target, value, *exact, options),
        Intent::State { target, state } => state_lines(snap, target, *state, options),
        Intent::Count { count, what } => count_lines(snap, *count, what, options),
        Intent::Url { value, how } => Ok(vec![url_line(value, *how, options)]),
        Intent::Title { value, exact } => Ok(vec![title_line(value, *exact, options)]),
        Intent::AllItems { count, noun, state } => all_items(snap, *count, noun, *state, options),
        Intent::Placeholder { target, value } => placeholder_line(snap, target, value, options),
        _ => Err(Decline::new(
            "the built-in generator writes a check inside an either-or only for a claim about \
             an element, a text, the URL or the title; write the claim that holds for this app \
             as a step of its own",
        )),
    }
}

/// `X is shown` / `X is hidden`. An element that is not on the page can still be checked to
/// be hidden when the sentence names its text or its kind and name. A shown element's name or
/// text matches whole; a hidden quoted text is matched on word boundaries, since a whole-text
/// match would let a longer text that holds it stay visible.
pub(super) fn visible(
    snap: &Snapshot,
    target: &Target,
    shown: bool,
    options: CheckOptions,
) -> Result<Vec<String>, Decline> {
    if !shown {
        let found = hidden_locator(snap, target)?;
        return Ok(vec![format!(
            "await expect({found}).{};",
            options.matcher("toBeHidden", &[])
        )]);
    }
    let quoted_text = target.quoted && target.kind.is_none() && target.scope.is_none();
    let found = match checked_element(snap, target, ANY) {
        Ok(Found { locator, .. }) => locator,
        // `"T" is shown` says what `the page shows "T"` says: a text that is no element's
        // name is found as the page's text, a line of a longer element included.
        Err(decline) if quoted_text && decline.is_missing() => {
            shown_text(snap, target.name.as_deref().unwrap_or_default())?
        }
        Err(decline) => return Err(decline),
    };
    Ok(vec![format!(
        "await expect({found}).{};",
        options.matcher("toBeVisible", &[])
    )])
}

/// The locator of an element a sentence says is hidden: a quoted text on word boundaries, a
/// shown element's name as a substring (any element holding it that is still shown fails the
/// check), an element the page hides now by the words of its test id or classes (`the footer is
/// hidden`), or one that is not on the page by its kind and quoted name. An unquoted name of
/// nothing on the page is declined: its words may be a description the reading did not take
/// apart (`the footer with counter and filters`), and a check that no element has that name
/// passes whatever the page shows.
pub(super) fn hidden_locator(snap: &Snapshot, target: &Target) -> Result<String, Decline> {
    let quoted_text = target.quoted && target.kind.is_none() && target.scope.is_none();
    if let (true, Some(text)) = (quoted_text, target.name.as_deref()) {
        return Ok(format!("page.getByText({})", bounded_regex_js(text)));
    }
    match checked_element(snap, target, ANY) {
        Ok(_) => Ok(element(snap, target, ANY, false)?.locator),
        Err(decline) => {
            if let Some(found) = described(&snap.revealed(), target, ANY) {
                return Ok(found.locator);
            }
            match (target.scope.as_deref(), target.name.as_deref(), target.kind) {
                (None, Some(name), Some(kind)) if target.quoted => {
                    Ok(any_role(kind, &format!(", {{ name: {} }}", js_str(name))))
                }
                // `the checkbox is gone`: an element named by its kind alone, of which the
                // page shows none, is checked by the kind: no element of it is shown.
                (None, None, Some(kind)) if kind != Kind::Item && decline.is_missing() => {
                    Ok(any_role(kind, ""))
                }
                _ => Err(decline),
            }
        }
    }
}

/// A locator of the elements of any of `kind`'s roles, each with `options` (written after the
/// role, with its leading comma): a check that none is shown must see every role the kind
/// stands for (a search box is a `searchbox`, an alert a `status` or an `alert`).
fn any_role(kind: Kind, options: &str) -> String {
    kind.roles()
        .iter()
        .map(|role| format!("page.getByRole({}{options})", js_str(role)))
        .reduce(|all, next| format!("{all}.or({next})"))
        // Every kind has a role; none would leave `expect()`, a script error, never a pass.
        .unwrap_or_default()
}

/// `the page shows T`: some element shows the text, as its whole text or as words of a longer
/// one. A placeholder's text is only known when the step runs; `.first()` there keeps the check
/// as strong as the sentence, which names no element: the first element showing the text must
/// be visible.
pub(super) fn page_shows(
    snap: &Snapshot,
    text: &Literal,
    options: CheckOptions,
) -> Result<Vec<String>, Decline> {
    let visible = options.matcher("toBeVisible", &[]);
    if placeholder(&text.0).is_some() || text.0.contains("${") {
        return Ok(vec![format!(
            "await expect(page.getByText({}).first()).{visible};",
            bounded_js(text)
        )]);
    }
    let found = shown_text(snap, &text.0)?;
    Ok(vec![format!("await expect({found}).{visible};")])
}

/// `the page contains "T"` (`includes`): an element whose text holds T as whole words, as the
/// element form (`X contains "T"`) reads it; the sentence says nothing of which element, so
/// none is looked for in the snapshot.
pub(super) fn page_contains(text: &Literal, options: CheckOptions) -> String {
    format!(
        "await expect(page.getByText({}).first()).{};",
        bounded_js(text),
        options.matcher("toBeVisible", &[])
    )
}

/// `the todo reads "T"`: a list item named by its noun alone, where the sentence means the one
/// item of the list: the list has exactly one item, and its whole text is T.
fn only_item(
    snap: &Snapshot,
    target: &Target,
    value: &Literal,
    options: CheckOptions,
) -> Option<Vec<String>> {
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
        "await expect({the_list}.getByRole('listitem')).{};",
        options.matcher("toHaveText", &[&format!("[{}]", value_js(value))])
    )])
}

/// `the list shows A and B` (`only A and B`): the list whose items hold the texts, in this order.
pub(super) fn list_shows(
    snap: &Snapshot,
    values: &[Literal],
    only: bool,
    options: CheckOptions,
) -> Result<Vec<String>, Decline> {
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
        (Err(decline), Some(first)) if decline.1 == Cause::UnnamedList => {
            format!(
                "page.getByRole('list').filter({{ has: page.getByRole('listitem').filter({{ has: page.getByText({}, {{ exact: true }}) }}) }})",
                js_str(first)
            )
        }
        (Err(decline), _) => return Err(decline),
    };
    let mut lines = vec![format!("const items = {the_list}.getByRole('listitem');")];
    if only {
        lines.push(format!(
            "await expect(items).{};",
            options.matcher("toHaveCount", &[&values.len().to_string()])
        ));
    }
    // The items hold the texts in this order. An item's text runs into its buttons'
    // ("buy milkDelete"), so that check is by substring, and each text is then found
    // whole in an item: `.first()` of those is enough, since the sentence only says
    // that some item shows it.
    let expected: Vec<String> = values.iter().map(value_js).collect();
    lines.push(format!(
        "await expect(items).{};",
        options.matcher("toContainText", &[&format!("[{}]", expected.join(", "))])
    ));
    let visible = options.matcher("toBeVisible", &[]);
    for value in &expected {
        lines.push(format!(
            "await expect(items.getByText({value}, {{ exact: true }}).first()).{visible};"
        ));
    }
    Ok(lines)
}

/// `X says "T"` (`reads`, `shows`): the element's whole text, or a field's value; a text the
/// sentence does not say is the whole of is found on word boundaries.
pub(super) fn has_text(
    snap: &Snapshot,
    target: &Target,
    value: &Literal,
    exact: bool,
    options: CheckOptions,
) -> Result<Vec<String>, Decline> {
    let element = match element(snap, target, ANY, false) {
        Ok(element) => element,
        Err(decline) => {
            return only_item(snap, target, value, options)
                .ok_or_else(|| past_dialog(target).unwrap_or(decline));
        }
    };
    // `the result says "T"` where "Result:" labels the element after it: that element's text.
    if let Some(value_of) = labelled_value(snap, &element, target) {
        return Ok(vec![if exact {
            format!(
                "await expect({value_of}).{};",
                options.matcher("toHaveText", &[&value_js(value)])
            )
        } else {
            format!(
                "await expect({value_of}).{};",
                options.matcher("toContainText", &[&bounded_js(value)])
            )
        }]);
    }
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
            h.locator.as_deref() == Some(found.as_str()) && FIELD_ROLES.contains(&h.role.as_str())
        });
    if field {
        let expected = if exact {
            value_js(value)
        } else {
            bounded_js(value)
        };
        if is_select(snap, element.node) {
            return Ok(vec![chosen_option(&found, &expected, options)]);
        }
        return Ok(vec![format!(
            "await expect({found}).{};",
            options.matcher("toHaveValue", &[&expected])
        )]);
    }
    // `toHaveText('x')` is the whole text; a contained text is bounded by words. An element
    // that holds more than a text the sentence says it is (`the first todo is "T"`, beside
    // its buttons and fields) holds it as the whole text of an element inside it.
    let contains = || {
        format!(
            "await expect({found}).{};",
            options.matcher("toContainText", &[&bounded_js(value)])
        )
    };
    let lines = match (exact, holds_more) {
        (true, false) => vec![format!(
            "await expect({found}).{};",
            options.matcher("toHaveText", &[&value_js(value)])
        )],
        (true, true) => vec![
            contains(),
            // The text is an element's whole text, or a line of its own beside a close link
            // or a line break (a message's text run beside its `×`).
            format!(
                "await expect({found}.getByText({}, {{ exact: true }}).or({}).first()).{};",
                value_js(value),
                line_within_js(&found, &value.0),
                options.matcher("toBeVisible", &[])
            ),
        ],
        (false, _) => vec![contains()],
    };
    Ok(lines)
}

/// Why `an alert says "T"` cannot be checked when the page shows no alert element: it means a
/// browser dialog, and one that an earlier step opened was answered when that step ended (the
/// dialogs no step code claims are accepted or dismissed), so no later step can read it.
fn past_dialog(target: &Target) -> Option<Decline> {
    let noun = target.phrase.split_whitespace().last()?.to_lowercase();
    if target.name.is_some() || !matches!(noun.as_str(), "alert" | "dialog" | "popup") {
        return None;
    }
    Some(Decline::new(
        "the page shows no alert element, and a browser dialog that an earlier step opened was \
         answered when that step ended, so no later step can read it; check its message in the \
         step that opens it: `click \"X\" and the alert says \"T\"`",
    ))
}

/// `X is checked` / `unchecked` / `enabled` / `disabled`.
pub(super) fn state_lines(
    snap: &Snapshot,
    target: &Target,
    state: State,
    options: CheckOptions,
) -> Result<Vec<String>, Decline> {
    let defaults = match state {
        State::Checked | State::Unchecked => CHECKABLE,
        State::Enabled | State::Disabled => ANY,
    };
    let found = checked_element(snap, target, defaults)?;
    if let Some(option) = DropdownOption::of(snap, found.node)
        && matches!(state, State::Checked | State::Unchecked)
    {
        return Ok(dropdown_code::chosen(
            &option,
            state == State::Checked,
            options,
        ));
    }
    let found = found.locator;
    let matcher = match state {
        State::Checked => "toBeChecked",
        State::Unchecked => "not.toBeChecked",
        State::Enabled => "toBeEnabled",
        State::Disabled => "toBeDisabled",
    };
    Ok(vec![format!(
        "await expect({found}).{};",
        options.matcher(matcher, &[])
    )])
}

/// `there are N X`: the count of the list's items, or of the elements of a kind (and name).
pub(super) fn count_lines(
    snap: &Snapshot,
    count: usize,
    what: &Target,
    options: CheckOptions,
) -> Result<Vec<String>, Decline> {
    let locator = if what.kind == Some(Kind::Item) {
        let noun = what.phrase.split_whitespace().last();
        let filter = match what.narrow {
            Some(state) => narrowed(snap, &snap.with_roles(&["listitem"]), state)?.1,
            None => String::new(),
        };
        format!("{}.getByRole('listitem'){filter}", list(snap, &[], noun)?)
    } else if what.narrow.is_some() {
        return Err(Decline::new(
            "the built-in generator narrows the items of a list by their checkbox, not other \
             elements",
        ));
    } else {
        let kind = what.kind.unwrap_or(Kind::Item);
        let role = kind.roles()[0];
        if count == 0 && described_absence(snap, what) {
            return Err(Decline::new(
                "no element on the page has that name, and its words read as a description \
                 (they hold a word such as \"with\" or \"and\"): a count of none would pass on \
                 any page. Quote the element's name",
            ));
        }
        match what.name.as_deref() {
            Some(name) => format!(
                "page.getByRole({}, {{ name: {}, exact: true }})",
                js_str(role),
                js_str(name)
            ),
            None => format!("page.getByRole({})", js_str(role)),
        }
    };
    Ok(vec![format!(
        "await expect({locator}).{};",
        options.matcher("toHaveCount", &[&count.to_string()])
    )])
}

/// Whether `what` names, unquoted, no element of the page by words that describe rather than
/// name (`no footer with counter and filters is shown`): a check that none has such a name
/// cannot fail on any page.
fn described_absence(snap: &Snapshot, what: &Target) -> bool {
    let Some(name) = what.name.as_deref() else {
        return false;
    };
    !what.quoted
        && name
            .split_whitespace()
            .any(|word| DESCRIBING.iter().any(|c| word.eq_ignore_ascii_case(c)))
        && checked_element(snap, what, ANY).is_err()
}

/// `the URL is U` (`ends with U`, `contains U`). A path is read as the URL's path, which
/// ends before the query and the fragment, so `/login?next=/secure` is not `/secure`: a
/// redirect parameter names a page the browser is not on. A value with a query or a fragment of
/// its own ends the whole URL, and a full URL is the whole URL. A value that contains is found
/// anywhere, on word boundaries.
pub(super) fn url_line(value: &Literal, how: UrlMatch, options: CheckOptions) -> String {
    let text = value.0.as_str();
    let expected = if how == UrlMatch::Contains {
        bounded_js(value)
    } else if placeholder(text).is_some() || text.contains("${") {
        // A variable's value is only known when the step runs: the URL ends with it.
        regex_js(value, true)
    } else if url::Url::parse(text).is_ok_and(|url| matches!(url.scheme(), "http" | "https")) {
        value_js(value)
    } else {
        url_regex(text, how)
    };
    format!(
        "await expect(page).{};",
        options.matcher("toHaveURL", &[&expected])
    )
}

/// The regular expression of a URL check on a value that is no full URL (see [`url_line`]).
fn url_regex(text: &str, how: UrlMatch) -> String {
    // The scheme and the host, up to the path's first slash.
    const ORIGIN: &str = "^[a-z][a-z0-9+.-]*:\\/\\/[^\\/?#]*";
    let body = regex_body(text);
    let has_rest = text.contains(['?', '#']);
    let anchored = text.starts_with('/');
    match (has_rest, anchored, how) {
        // `#/active`, `?page=2`, `/search?q=x`: the URL ends with them.
        (true, true, UrlMatch::Is) => format!("/{ORIGIN}{body}$/"),
        (true, _, _) => format!("/{body}$/"),
        // `/secure`: the whole path.
        (false, true, UrlMatch::Is) => format!("/{ORIGIN}{body}(?:[?#]|$)/"),
        // The path ends with `/secure`, or with `login.html` as its last segments.
        (false, true, _) => format!("/^[^?#]*{body}(?:[?#]|$)/"),
        (false, false, _) => format!("/^[^?#]*\\/{body}(?:[?#]|$)/"),
    }
}

/// `text` escaped to be read literally inside a regular expression written between slashes.
fn regex_body(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if "\\^$.|?*+()[]{}/".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `I am on the login page`: a segment of the URL's path is the page's words, joined as paths
/// join them (`/sign-up`, `/sign_up`, `/signup`), with or without a file extension. The words
/// are letters, digits and hyphens (`assertions::on_page` reads no other), which a regular
/// expression reads as themselves. The segment must come before the query and the fragment:
/// `/login?next=/dashboard` is the login page, whatever page it names.
pub(super) fn on_page_line(words: &[String]) -> String {
    format!(
        "await expect(page).toHaveURL(/^[^?#]*\\/{}(?:\\.[a-z]+)?(?:[\\/?#]|$)/i);",
        words.join("[-_]?")
    )
}

/// `all N todos are completed`: the count first, so that an empty list cannot pass, then each
/// item's checkbox.
pub(super) fn all_items(
    snap: &Snapshot,
    count: Option<usize>,
    noun: &str,
    state: State,
    options: CheckOptions,
) -> Result<Vec<String>, Decline> {
    let items = format!("{}.getByRole('listitem')", list(snap, &[], Some(noun))?);
    let mut lines = vec![format!("const items = {items};")];
    // Every item is checked: the count first, so that an empty list cannot pass.
    // `all()` reads the items at once and waits for nothing, so each assertion is the only
    // wait of this code.
    lines.push(match count {
        Some(n) => format!(
            "await expect(items).{};",
            options.matcher("toHaveCount", &[&n.to_string()])
        ),
        None => format!(
            "await expect(items).{};",
            options.matcher("not.toHaveCount", &["0"])
        ),
    });
    let matcher = match state {
        State::Unchecked => "not.toBeChecked",
        _ => "toBeChecked",
    };
    lines.push("for (const item of await items.all()) {".to_owned());
    lines.push(format!(
        "  await expect(item.getByRole('checkbox')).{};",
        options.matcher(matcher, &[])
    ));
    lines.push("}".to_owned());
    Ok(lines)
}

/// `X has the value V`: a field's value.
pub(super) fn has_value(
    snap: &Snapshot,
    target: &Target,
    value: &Literal,
    options: CheckOptions,
) -> Result<Vec<String>, Decline> {
    let found = element(snap, target, FIELD_ROLES, false)?;
    if is_select(snap, found.node) {
        return Ok(vec![chosen_option(
            &found.locator,
            &value_js(value),
            options,
        )]);
    }
    Ok(vec![format!(
        "await expect({}).{};",
        found.locator,
        options.matcher("toHaveValue", &[&value_js(value)])
    )])
}

/// Whether the node is a `<select>`: a combobox that holds its options. Its value is the
/// chosen option's value attribute, which the snapshot does not show and a sentence does not
/// say, so a check of what it shows reads the chosen option's label instead.
fn is_select(snap: &Snapshot, node: usize) -> bool {
    snap.nodes.get(node).is_some_and(|n| {
        n.role == "combobox"
            && n.children
                .iter()
                .any(|&child| snap.nodes.get(child).is_some_and(|c| c.role == "option"))
    })
}

/// The check that the select `found` shows the option labelled `expected` as chosen.
fn chosen_option(found: &str, expected: &str, options: CheckOptions) -> String {
    format!(
        "await expect({found}.locator('option:checked')).{};",
        options.matcher("toHaveText", &[expected])
    )
}

/// `the title is T` (`contains T`): the page's title, whole or on word boundaries.
pub(super) fn title_line(value: &Literal, exact: bool, options: CheckOptions) -> String {
    let expected = if exact {
        value_js(value)
    } else {
        bounded_js(value)
    };
    format!(
        "await expect(page).{};",
        options.matcher("toHaveTitle", &[&expected])
    )
}

/// `X has the placeholder P`.
pub(super) fn placeholder_line(
    snap: &Snapshot,
    target: &Target,
    value: &Literal,
    options: CheckOptions,
) -> Result<Vec<String>, Decline> {
    let field = element(snap, target, FIELD_ROLES, false)?.locator;
    Ok(vec![format!(
        "await expect({field}).{};",
        options.matcher("toHaveAttribute", &["'placeholder'", &value_js(value)])
    )])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the URL check on `value` holds for `url`, its regular expression read by the
    /// `regex` crate, which reads the JS subset a path check is written in the same way.
    fn matches(value: &str, how: UrlMatch, url: &str) -> bool {
        let line = url_line(&Literal(value.to_owned()), how, CheckOptions::default());
        let js = line
            .strip_prefix("await expect(page).toHaveURL(")
            .and_then(|rest| rest.strip_suffix(");"))
            .unwrap_or_else(|| panic!("{line}"));
        let Some(body) = js.strip_prefix('/').and_then(|rest| rest.rsplit_once('/')) else {
            // A full URL is compared as a string.
            return js == crate::writer::builtin::locator::js_str(url);
        };
        regex::Regex::new(body.0)
            .unwrap_or_else(|e| panic!("{line}: {e}"))
            .is_match(url)
    }

    /// A path is the URL's path, before its query and fragment: a redirect parameter that names
    /// the page (`/login?redirect=/secure`) is no proof of being on it.
    #[test]
    fn a_url_path_is_the_path_before_the_query() {
        let on = "http://127.0.0.1:4567/secure";
        let redirected = "http://127.0.0.1:4567/login?redirect=/secure";
        for (value, how, url, expected) in [
            ("/secure", UrlMatch::Is, on, true),
            (
                "/secure",
                UrlMatch::Is,
                "http://127.0.0.1:4567/secure?tab=1",
                true,
            ),
            (
                "/secure",
                UrlMatch::Is,
                "http://127.0.0.1:4567/secure#top",
                true,
            ),
            ("/secure", UrlMatch::Is, redirected, false),
            (
                "/secure",
                UrlMatch::Is,
                "http://127.0.0.1:4567/a/secure",
                false,
            ),
            (
                "/secure",
                UrlMatch::Is,
                "http://127.0.0.1:4567/secure/x",
                false,
            ),
            (
                "/secure",
                UrlMatch::Is,
                "http://127.0.0.1:4567/login#/secure",
                false,
            ),
            ("/secure", UrlMatch::EndsWith, on, true),
            (
                "/secure",
                UrlMatch::EndsWith,
                "http://127.0.0.1:4567/a/secure",
                true,
            ),
            ("/secure", UrlMatch::EndsWith, redirected, false),
            (
                "/secure",
                UrlMatch::EndsWith,
                "http://127.0.0.1:4567/insecure",
                false,
            ),
            ("login.html", UrlMatch::Is, "http://h/app/login.html", true),
            (
                "login.html",
                UrlMatch::Is,
                "http://h/app/xlogin.html",
                false,
            ),
            (
                "login.html",
                UrlMatch::EndsWith,
                "http://h/?next=login.html",
                false,
            ),
            ("/search?q=x", UrlMatch::Is, "http://h/search?q=x", true),
            ("/search?q=x", UrlMatch::Is, "http://h/a/search?q=x", false),
            ("#/active", UrlMatch::Is, "http://h/#/active", true),
            (
                "#/active",
                UrlMatch::EndsWith,
                "http://h/#/completed",
                false,
            ),
        ] {
            assert_eq!(
                matches(value, how, url),
                expected,
                "{value:?} {how:?} {url:?}: {}",
                url_line(&Literal(value.to_owned()), how, CheckOptions::default())
            );
        }
        assert_eq!(
            url_line(
                &Literal("http://h/secure".into()),
                UrlMatch::Is,
                CheckOptions::default()
            ),
            "await expect(page).toHaveURL('http://h/secure');"
        );
    }
}
