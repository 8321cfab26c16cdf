//! Which element of the page a [`Target`] names, and the Playwright locator that finds it:
//! role and accessible name first (exact, then case-insensitive, then the field's placeholder,
//! then a name that contains the words), then the element's text. A target that matches
//! nothing, or several elements these locators cannot tell apart, is declined: the generator
//! never guesses.
//!
//! Main functions: [`element`] and [`list`]; locators are JavaScript expressions on `page`.

use crate::writer::builtin::intent::{Cause, Decline, Target};
use crate::writer::builtin::kinds::{FIELD_ROLES, Kind};
use crate::writer::builtin::locator::{Found, js_str, norm, own_text};
use crate::writer::builtin::rows::{
    DELETE_SIGNS, DELETE_WORDS, described, in_row, nth_element, row_holding, unnamed_list,
};
use crate::writer::builtin::snapshot::{Snapshot, is_field};
use crate::writer::builtin::text_line_code::line_locator_js;
use crate::writer::builtin::unnamed::{beside_text, by_what_it_is};

/// Roles a click (or a hover) is meant for when the sentence names no kind.
pub(crate) const CLICKABLE: &[&str] = &[
    "button",
    "link",
    "tab",
    "checkbox",
    "radio",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "switch",
    "treeitem",
];

/// Roles that can be checked.
pub(crate) const CHECKABLE: &[&str] = &["checkbox", "radio", "switch", "menuitemcheckbox"];

/// Characters that count as part of a word for the boundaries of [`bounded_regex_js`]: a
/// letter, a digit or `_` (as a JavaScript class with the `u` flag).
const WORD: &str = "[\\p{L}\\p{N}_]";

/// A digit, as a JavaScript class with the `u` flag: with a separator before or after it, it
/// continues a number past the boundary of [`bounded_regex_js`].
const NUMBER_PART: &str = "\\p{N}";

/// A regular expression literal that finds `text` (whitespace collapsed) in an element's text
/// on word boundaries, in its case (a quoted text is meant as written): `3 items left` finds
/// "Only 3 items left today" but not "13 items left". A boundary is only added on a side whose
/// character is a letter or a digit, since text such as `(3)` already ends in a delimiter. A
/// number's boundary also keeps out the rest of a longer number: `$2` does not find "$2.85",
/// nor `5 left` "1.5 left", because a separator followed by a digit continues the number.
pub(crate) fn bounded_regex_js(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut out = String::from("/");
    let digit = |c: Option<char>| c.is_some_and(char::is_numeric);
    match text.chars().next() {
        first if digit(first) => out.push_str(&format!("(?<!{WORD}|{NUMBER_PART}[.,])")),
        first if word(first) => out.push_str(&format!("(?<!{WORD})")),
        _ => {}
    }
    for c in text.chars() {
        if "\\^$.|?*+()[]{}/".contains(c) {
            out.push('\\');
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    match text.chars().next_back() {
        last if digit(last) => out.push_str(&format!("(?!{WORD}|[.,]{NUMBER_PART})")),
        last if word(last) => out.push_str(&format!("(?!{WORD})")),
        _ => {}
    }
    out.push_str("/u");
    out
}

/// A regular expression literal that matches `text` as an element's whole text, in its case,
/// whitespace collapsed and around it allowed: `You have been signed out` matches neither
/// "YOU HAVE BEEN SIGNED OUT" nor "You have been signed out again".
pub(crate) fn whole_regex_js(text: &str) -> String {
    whole_regex_with_flags(text, "u")
}

/// [`whole_regex_js`] with the literal's `flags` as given (`""` where the code has always been
/// written without the `u` flag, as a card's heading is).
pub(crate) fn whole_regex_with_flags(text: &str, flags: &str) -> String {
    let mut out = String::from("/^\\s*");
    for (i, word) in text.split_whitespace().enumerate() {
        if i > 0 {
            out.push_str("\\s+");
        }
        for c in word.chars() {
            if "\\^$.|?*+()[]{}/".contains(c) {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push_str("\\s*$/");
    out.push_str(flags);
    out
}

/// How a locator is meant: to act on an element, or to check it. A check reads what the
/// sentence names, so its names and texts match whole (`exact: true`), never as a substring
/// of a longer name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Use {
    Act,
    Check,
}

/// What the snapshot shows of a node, for matching: its name, else its own text.
fn label(node: &crate::writer::builtin::snapshot::Node) -> Option<&str> {
    node.name
        .as_deref()
        .or(node.text.as_deref().filter(|_| !is_field(&node.role)))
}

/// The node's name; with `text_too` (the sentence named the kind: `the counter`), its own text
/// when it has no name.
fn label_if(node: &crate::writer::builtin::snapshot::Node, text_too: bool) -> Option<&str> {
    if text_too {
        label(node)
    } else {
        node.name.as_deref()
    }
}

/// `text` (lowercase) with British spellings written the American way, so that a sentence
/// naming the "favourite fruit" field finds the field labelled "favorite fruit", and back.
fn spelled(text: &str) -> String {
    const BRITISH: &[(&str, &str)] = &[
        ("favourite", "favorite"),
        ("colour", "color"),
        ("licence", "license"),
        ("honour", "honor"),
        ("neighbour", "neighbor"),
        ("postcode", "zip code"),
        ("organisation", "organization"),
        ("centre", "center"),
        ("catalogue", "catalog"),
        ("cancelled", "canceled"),
    ];
    BRITISH
        .iter()
        .fold(text.to_owned(), |text, (british, american)| {
            text.replace(british, american)
        })
}

/// Whether `haystack` holds `needle`'s words on word boundaries (case-insensitive).
pub(crate) fn has_words(haystack: &str, needle: &str) -> bool {
    // `toggle-all` is the words `toggle all`, however the name writes them.
    let (h, n) = (
        spelled(&norm(&haystack.replace('-', " "))),
        spelled(&norm(&needle.replace('-', " "))),
    );
    if n.is_empty() {
        return false;
    }
    let word = |c: char| c.is_alphanumeric();
    h.match_indices(&n).any(|(at, _)| {
        !h[..at].chars().next_back().is_some_and(word)
            && !h[at + n.len()..].chars().next().is_some_and(word)
    })
}

/// The element `target` names, among nodes of `roles` (the target's kind's, else `defaults`);
/// with `text_first`, an element whose text is the name comes before a role (double-click).
pub(crate) fn element(
    snap: &Snapshot,
    target: &Target,
    defaults: &[&str],
    text_first: bool,
) -> Result<Found, Decline> {
    let found = element_of(snap, target, defaults, text_first, Use::Act);
    if let Ok(found) = &found {
        snap.notice(found.node);
    }
    found
}

/// The one button, among `target`'s elements (its row, when it names one), whose whole name
/// is a sign delete and close buttons go by (`×`): what `the delete button` means when no
/// button has the word as its name. `None` when there is none, or more than one (two rows'
/// `×`, or a row's `×` and a dialog's `✕`), since which one is meant is not known.
pub(crate) fn delete_sign_button(snap: &Snapshot, target: &Target) -> Option<Found> {
    // Only a button the sentence names by a delete word, unquoted: a quoted name is the
    // button's whole name.
    let a_delete = !target.quoted
        && matches!(target.kind, None | Some(Kind::Button))
        && target
            .name
            .as_deref()
            .is_some_and(|name| DELETE_WORDS.contains(&norm(name).as_str()));
    if !a_delete {
        return None;
    }
    let mut found = Vec::new();
    for sign in DELETE_SIGNS {
        let named = Target {
            name: Some((*sign).to_owned()),
            quoted: true,
            kind: Some(Kind::Button),
            phrase: (*sign).to_owned(),
            ..target.clone()
        };
        match checked_element(snap, &named, &[]) {
            Ok(one) => found.push(one),
            Err(decline) if decline.1 == Cause::NoElement => {}
            Err(_) => return None,
        }
    }
    match <[Found; 1]>::try_from(found) {
        Ok([one]) => Some(one),
        Err(_) => None,
    }
}

/// Like [`element`], for a check: names and texts in the locator match whole, so the check
/// cannot pass on an element whose name or text only holds the one the sentence means.
pub(crate) fn checked_element(
    snap: &Snapshot,
    target: &Target,
    defaults: &[&str],
) -> Result<Found, Decline> {
    let found = element_of(snap, target, defaults, false, Use::Check);
    if let Ok(found) = &found {
        snap.notice(found.node);
    }
    found
}

fn element_of(
    snap: &Snapshot,
    target: &Target,
    defaults: &[&str],
    text_first: bool,
    meant: Use,
) -> Result<Found, Decline> {
    if target.nth.is_some() {
        return nth_element(snap, target, defaults, &|values, noun| {
            list(snap, values, noun)
        });
    }
    let (base, pool) = scope(snap, target)?;
    let roles: &[&str] = match target.kind {
        Some(kind) => kind.roles(),
        None => defaults,
    };
    let what = if target.phrase.is_empty() {
        "the element".to_owned()
    } else {
        format!("\"{}\"", target.phrase)
    };
    let Some(name) = target.name.as_deref() else {
        let matches: Vec<usize> = pool
            .iter()
            .copied()
            .filter(|&i| roles.contains(&snap.nodes[i].role.as_str()))
            .collect();
        return match matches.as_slice() {
            [one] => Ok(Found {
                locator: format!("{base}.getByRole({})", js_str(&snap.nodes[*one].role)),
                node: *one,
            }),
            [] => described(snap, target, roles).ok_or_else(|| {
                Decline::of(
                    Cause::NoElement,
                    format!("no element on the page is {what}"),
                )
            }),
            many => Err(ambiguous(snap, &what, many)),
        };
    };
    // A quoted name is the element's whole name: it is matched whole (case and whitespace
    // aside) and written exact, in actions as in checks, so that "Delete" never finds or
    // clicks "Delete all".
    let meant = if target.quoted { Use::Check } else { meant };
    let whole = target.quoted;
    let by_role = |pool: &[usize]| {
        role_tiers(
            snap,
            &base,
            pool,
            roles,
            name,
            target.kind.is_some(),
            meant,
            whole,
        )
    };
    let by_text = || text_tier(snap, &base, &pool, name, meant);
    let text_allowed = target.kind.is_none()
        || matches!(
            target.kind,
            Some(Kind::Status | Kind::Item | Kind::Row | Kind::Heading)
        );
    // A checkbox with no name of its own is meant through the row showing the text, before
    // the text itself (which cannot be ticked).
    let by_row = || {
        roles
            .iter()
            .all(|r| CHECKABLE.contains(r))
            .then(|| in_row(snap, target, roles).map(Ok))
            .flatten()
    };
    // A checkable element with no name of its own is meant through the text right after it
    // (`checkbox 1` beside its box), before that text, which cannot be ticked.
    let by_text_beside = || {
        roles
            .iter()
            .all(|r| CHECKABLE.contains(r))
            .then(|| beside_text(snap, target, roles).map(Ok))
            .flatten()
    };
    let tiers: Vec<Option<Result<Found, Decline>>> = if text_first {
        vec![text_allowed.then(by_text).flatten(), by_role(&pool)]
    } else {
        vec![
            by_role(&pool),
            by_row(),
            by_text_beside(),
            text_allowed.then(by_text).flatten(),
        ]
    };
    tiers
        .into_iter()
        .flatten()
        .next()
        .or_else(|| by_what_it_is(snap, target).map(Ok))
        .or_else(|| described(snap, target, roles).map(Ok))
        .unwrap_or_else(|| {
            Err(Decline::of(
                Cause::NoElement,
                format!("no element on the page is {what}"),
            ))
        })
}

/// The locator base and the nodes a target is looked for among: the whole page, or the one
/// list item or row holding its scope text.
fn scope(snap: &Snapshot, target: &Target) -> Result<(String, Vec<usize>), Decline> {
    let Some(text) = target.scope.as_deref() else {
        return Ok(("page".to_owned(), (0..snap.nodes.len()).collect()));
    };
    if let Ok((row, node)) = row_holding(snap, text) {
        return Ok((row, snap.descendants(node)));
    }
    let holders: Vec<usize> = snap
        .with_roles(&["listitem", "row"])
        .into_iter()
        .filter(|&i| norm(&snap.text_of(i)).contains(&norm(text)))
        .collect();
    for &holder in &holders {
        snap.notice(holder);
    }
    match holders.as_slice() {
        [one] => Ok((
            format!(
                "page.getByRole({}).filter({{ hasText: {} }})",
                js_str(&snap.nodes[*one].role),
                js_str(text)
            ),
            snap.descendants(*one),
        )),
        [] => Err(Decline::of(
            Cause::NoRow,
            format!("no list item or row on the page holds \"{text}\""),
        )),
        many => Err(Decline::new(format!(
            "{} list items or rows hold \"{text}\"",
            many.len()
        ))),
    }
}

/// The first tier of role matches that finds something: an exact name, the same name in any
/// case, a placeholder, a name holding the words. A `whole` name (quoted in the sentence) is
/// never found inside a longer one.
#[expect(
    clippy::too_many_arguments,
    reason = "the parts of a match, each named"
)]
fn role_tiers(
    snap: &Snapshot,
    base: &str,
    pool: &[usize],
    roles: &[&str],
    name: &str,
    text_too: bool,
    meant: Use,
    whole: bool,
) -> Option<Result<Found, Decline>> {
    let of_role: Vec<usize> = pool
        .iter()
        .copied()
        .filter(|&i| roles.contains(&snap.nodes[i].role.as_str()))
        .collect();
    let with_label = |keep: &dyn Fn(&str) -> bool| -> Vec<usize> {
        of_role
            .iter()
            .copied()
            .filter(|&i| label_if(&snap.nodes[i], text_too).is_some_and(keep))
            .collect()
    };
    let placeholders = |keep: &dyn Fn(&str) -> bool| -> Vec<usize> {
        of_role
            .iter()
            .copied()
            .filter(|&i| snap.nodes[i].placeholder.as_deref().is_some_and(keep))
            .collect()
    };
    let lower = norm(name);
    let tiers: [(Vec<usize>, bool); 5] = [
        (with_label(&|l| l == name), false),
        (with_label(&|l| norm(l) == lower), false),
        (placeholders(&|p| norm(p) == lower), true),
        (with_label(&|l| has_words(l, name)), false),
        (placeholders(&|p| has_words(p, name)), true),
    ];
    let tiers = if whole { &tiers[..3] } else { &tiers[..] };
    for (matches, placeholder) in tiers {
        let placeholder = *placeholder;
        match matches.as_slice() {
            [] => {}
            [one] if placeholder => {
                let text = snap.nodes[*one].placeholder.clone().unwrap_or_default();
                let others = of_role
                    .iter()
                    .filter(|&&i| i != *one)
                    .filter_map(|&i| snap.nodes[i].placeholder.as_deref())
                    .any(|p| norm(p).contains(&norm(&text)));
                let exact = if others || meant == Use::Check {
                    ", { exact: true }"
                } else {
                    ""
                };
                return Some(Ok(Found {
                    locator: format!("{base}.getByPlaceholder({}{exact})", js_str(&text)),
                    node: *one,
                }));
            }
            [one] => return Some(Ok(role_locator(snap, base, pool, *one, meant))),
            many => return Some(Err(ambiguous(snap, &format!("\"{name}\""), many))),
        }
    }
    None
}

/// `getByRole(role, { name })` for `node`, exact when another element of its role has a name
/// that holds it (Playwright matches names case-insensitively, as substrings).
fn role_locator(snap: &Snapshot, base: &str, pool: &[usize], node: usize, meant: Use) -> Found {
    let n = &snap.nodes[node];
    let role = js_str(&n.role);
    let Some(name) = n.name.as_deref() else {
        let text = label(n).unwrap_or_default();
        let text = match meant {
            Use::Act => js_str(text),
            // A check reads the element the sentence names by its whole text, in its case.
            Use::Check => whole_regex_js(text),
        };
        return Found {
            locator: format!("{base}.getByRole({role}).filter({{ hasText: {text} }})"),
            node,
        };
    };
    let others = pool
        .iter()
        .filter(|&&i| i != node && snap.nodes[i].role == n.role)
        .filter_map(|&i| snap.nodes[i].name.as_deref())
        .any(|other| norm(other).contains(&norm(name)));
    let exact = if others || meant == Use::Check {
        ", exact: true"
    } else {
        ""
    };
    Found {
        locator: format!(
            "{base}.getByRole({role}, {{ name: {}{exact} }})",
            js_str(name)
        ),
        node,
    }
}

/// An element whose own text is `name` (in any case), found with `getByText`.
fn text_tier(
    snap: &Snapshot,
    base: &str,
    pool: &[usize],
    name: &str,
    meant: Use,
) -> Option<Result<Found, Decline>> {
    let lower = norm(name);
    let texts: Vec<(usize, &str)> = pool
        .iter()
        .filter_map(|&i| own_text(&snap.nodes[i]).map(|t| (i, t)))
        .collect();
    let equal: Vec<usize> = texts
        .iter()
        .filter(|(_, t)| norm(t) == lower)
        .map(|&(i, _)| i)
        .collect();
    let holding = texts
        .iter()
        .filter(|(_, t)| norm(t).contains(&lower))
        .count();
    match equal.as_slice() {
        [] => None,
        [one] => {
            let text = own_text(&snap.nodes[*one]).unwrap_or(name);
            let exact = if holding > 1 || meant == Use::Check {
                ", { exact: true }"
            } else {
                ""
            };
            Some(Ok(Found {
                locator: format!("{base}.getByText({}{exact})", js_str(text.trim())),
                node: *one,
            }))
        }
        many => Some(Err(ambiguous(snap, &format!("\"{name}\""), many))),
    }
}

/// The locator of a check that the page shows `text`: the one element whose whole text it is
/// (`getByText(text, { exact: true })`), else an element whose whole text it is, in its case
/// and with its spaces collapsed ([`whole_regex_js`]), so that "3 items left" is never found in
/// "13 items left" or "3 items left x". An element that is not on the page yet is looked for
/// that way too: the check waits for it. Several elements holding the text are declined.
pub(crate) fn shown_text(snap: &Snapshot, text: &str) -> Result<String, Decline> {
    let target = Target {
        name: Some(text.to_owned()),
        quoted: true,
        ..Target::default()
    };
    match checked_element(snap, &target, &[]) {
        // A bare text run beside other content is a line of a longer element, which `getByText`
        // never finds whole: the line's own locator below finds it.
        Ok(found) if !is_run_beside_others(snap, found.node) => return Ok(found.locator),
        Ok(_) => {}
        Err(decline) if decline.1 != Cause::NoElement => return Err(decline),
        Err(_) => {}
    }
    let holding: Vec<usize> = (0..snap.nodes.len())
        .filter(|&i| own_text(&snap.nodes[i]).is_some_and(|t| has_words(t, text)))
        .collect();
    if holding.len() > 1 {
        return Err(ambiguous(snap, &format!("\"{text}\""), &holding));
    }
    for &node in &holding {
        snap.notice(node);
    }
    // A quoted text is whole: the element that shows it shows nothing more. A text the page does
    // not show yet is waited for as that; one the page shows inside a longer run may also be a
    // line of its own beside a line break or a control (a message's close link).
    if holding.is_empty() {
        return Ok(format!("page.getByText({})", whole_regex_js(text)));
    }
    Ok(format!(
        "page.getByText({}).or({})",
        whole_regex_js(text),
        line_locator_js(text)
    ))
}

/// Whether `node` is a bare text run (`- text: ...`) whose parent shows more than it.
fn is_run_beside_others(snap: &Snapshot, node: usize) -> bool {
    let run = &snap.nodes[node];
    run.role == "text"
        && run
            .parent
            .is_some_and(|parent| snap.nodes[parent].children.len() > 1)
}

fn ambiguous(snap: &Snapshot, what: &str, many: &[usize]) -> Decline {
    for &node in many {
        snap.notice(node);
    }
    let shown: Vec<String> = many
        .iter()
        .take(4)
        .map(|&i| {
            let n = &snap.nodes[i];
            match label(n) {
                Some(l) => format!("{} \"{l}\"", n.role),
                None => n.role.clone(),
            }
        })
        .collect();
    Decline::new(format!(
        "{} elements on the page could be {what} ({}); name the one you mean (quote its text, \
         or say which row it is in: `... of \"ROW TEXT\"`)",
        many.len(),
        shown.join(", ")
    ))
}

/// The list the sentence means: the one holding every value of `values`, else the only list
/// with items (or the only one whose name holds `noun`, a word such as `todo`).
pub(crate) fn list(
    snap: &Snapshot,
    values: &[String],
    noun: Option<&str>,
) -> Result<String, Decline> {
    let lists = snap.with_roles(&["list"]);
    if lists.is_empty() {
        return Err(Decline::new("there is no list on the page"));
    }
    let holding: Vec<usize> = lists
        .iter()
        .copied()
        .filter(|&i| {
            !values.is_empty() && {
                let text = norm(&snap.text_of(i));
                values.iter().all(|v| text.contains(&norm(v)))
            }
        })
        .collect();
    let by_noun: Vec<usize> = noun
        .map(|noun| {
            let stem = noun.trim_end_matches('s');
            lists
                .iter()
                .copied()
                .filter(|&i| {
                    snap.nodes[i]
                        .name
                        .as_deref()
                        .is_some_and(|n| !stem.is_empty() && norm(n).contains(&norm(stem)))
                })
                .collect()
        })
        .unwrap_or_default();
    // Lists whose every item holds a link are menus, filters, breadcrumbs or pages: `the list`
    // on a page that has one other list means that one.
    let content: Vec<usize> = lists
        .iter()
        .copied()
        .filter(|&i| !is_link_list(snap, i))
        .collect();
    let chosen = match (holding.as_slice(), by_noun.as_slice(), lists.as_slice()) {
        ([one], _, _) | ([], [one], _) | ([], [], [one]) => *one,
        ([], [], _) if let Some(found) = unnamed_list(snap, None, noun) => {
            for &list in &lists {
                snap.notice(list);
            }
            return Ok(found);
        }
        ([], [], _) if values.is_empty() && content.len() == 1 => content[0],
        _ => {
            for &list in &lists {
                snap.notice(list);
            }
            return Err(Decline::new(format!(
                "{} lists are on the page and the sentence does not say which (quote an item \
                 it holds)",
                lists.len()
            )));
        }
    };
    snap.notice(chosen);
    match snap.nodes[chosen].name.as_deref() {
        Some(name) => {
            let others = lists
                .iter()
                .filter(|&&i| i != chosen)
                .filter_map(|&i| snap.nodes[i].name.as_deref())
                .any(|n| norm(n).contains(&norm(name)));
            let exact = if others { ", exact: true" } else { "" };
            Ok(format!(
                "page.getByRole('list', {{ name: {}{exact} }})",
                js_str(name)
            ))
        }
        None if lists.len() == 1 => Ok("page.getByRole('list')".to_owned()),
        None => unnamed_list(snap, Some(chosen), noun).ok_or_else(|| {
            Decline::of(
                Cause::UnnamedList,
                "the list has no accessible name and is not the only list on the page",
            )
        }),
    }
}

/// Whether every item of the list `list` holds a link (a menu, filters, breadcrumbs).
fn is_link_list(snap: &Snapshot, list: usize) -> bool {
    let items: Vec<usize> = snap
        .descendants(list)
        .into_iter()
        .filter(|&d| snap.nodes[d].role == "listitem")
        .collect();
    !items.is_empty()
        && items.iter().all(|&item| {
            snap.descendants(item)
                .into_iter()
                .any(|d| snap.nodes[d].role == "link")
        })
}

/// The one field of the page a sentence means without naming it (`add "milk"`): the only
/// field, else the only one whose name or placeholder holds one of `hints`.
pub(crate) fn only_field(snap: &Snapshot, hints: &[&str]) -> Result<Found, Decline> {
    let fields = snap.with_roles(FIELD_ROLES);
    let pool: Vec<usize> = (0..snap.nodes.len()).collect();
    let pick = |i: usize| -> Found {
        snap.notice(i);
        if snap.nodes[i].name.is_some() {
            role_locator(snap, "page", &pool, i, Use::Act)
        } else if let Some(p) = snap.nodes[i].placeholder.as_deref() {
            Found {
                locator: format!("page.getByPlaceholder({})", js_str(p)),
                node: i,
            }
        } else {
            Found {
                locator: format!("page.getByRole({})", js_str(&snap.nodes[i].role)),
                node: i,
            }
        }
    };
    if let [one] = fields.as_slice() {
        return Ok(pick(*one));
    }
    let hinted: Vec<usize> = fields
        .iter()
        .copied()
        .filter(|&i| {
            let n = &snap.nodes[i];
            hints.iter().any(|h| {
                n.name.as_deref().is_some_and(|l| has_words(l, h))
                    || n.placeholder.as_deref().is_some_and(|p| has_words(p, h))
            })
        })
        .collect();
    match hinted.as_slice() {
        [one] => Ok(pick(*one)),
        _ if fields.is_empty() => Err(Decline::of(Cause::NoField, "there is no field on the page")),
        _ => Err(ambiguous(snap, "the field to add to", &fields)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::snapshot::fixtures::{LOGIN, TODOS};

    fn named(name: &str, kind: Option<Kind>) -> Target {
        Target {
            name: Some(name.to_owned()),
            kind,
            ..Target::default()
        }
    }

    fn quoted(name: &str, kind: Option<Kind>) -> Target {
        Target {
            quoted: true,
            ..named(name, kind)
        }
    }

    #[test]
    fn a_quoted_name_is_matched_whole_and_written_exact() {
        let both = Snapshot::parse("- button \"Delete\"\n- button \"Delete all\"");
        let found = element(&both, &quoted("Delete", Some(Kind::Button)), &[], false).unwrap();
        assert_eq!(
            found.locator,
            "page.getByRole('button', { name: 'Delete', exact: true })"
        );
        // Alone, or in another case, the name is still written exact.
        let alone = Snapshot::parse("- button \"DELETE\"");
        let found = element(&alone, &quoted("Delete", Some(Kind::Button)), &[], false).unwrap();
        assert_eq!(
            found.locator,
            "page.getByRole('button', { name: 'DELETE', exact: true })"
        );
        // A longer name that holds it is another element: nothing is found.
        let likeness = Snapshot::parse("- button \"Delete all\"");
        let declined =
            element(&likeness, &quoted("Delete", Some(Kind::Button)), &[], false).unwrap_err();
        assert!(declined.is_missing(), "{declined:?}");
        let banner = Snapshot::parse("- button \"Accept terms and create account\"");
        assert!(element(&banner, &quoted("Accept", None), CLICKABLE, false).is_err());
        // The sentence's own words (unquoted) may still be found inside a longer name.
        let found = element(&likeness, &named("delete", Some(Kind::Button)), &[], false).unwrap();
        assert_eq!(
            found.locator,
            "page.getByRole('button', { name: 'Delete all' })"
        );
    }

    #[test]
    fn names_match_exactly_then_in_any_case_then_by_words() {
        let snap = Snapshot::parse(LOGIN);
        for name in ["Username", "username", "USERNAME"] {
            let found = element(&snap, &named(name, Some(Kind::Field)), &[], false).unwrap();
            assert_eq!(
                found.locator,
                "page.getByRole('textbox', { name: 'Username' })"
            );
        }
        let snap = Snapshot::parse("- textbox \"Email address\"\n- textbox \"Password\"");
        let found = element(&snap, &named("email", Some(Kind::Field)), &[], false).unwrap();
        assert_eq!(
            found.locator,
            "page.getByRole('textbox', { name: 'Email address' })"
        );
    }

    #[test]
    fn a_name_inside_another_elements_name_gets_exact() {
        let snap = Snapshot::parse("- button \"Add\"\n- button \"Add all\"");
        let found = element(&snap, &named("Add", Some(Kind::Button)), &[], false).unwrap();
        assert_eq!(
            found.locator,
            "page.getByRole('button', { name: 'Add', exact: true })"
        );
    }

    #[test]
    fn same_names_are_ambiguous_and_declined() {
        let snap = Snapshot::parse("- button \"Save\"\n- button \"Save\"");
        let why = element(&snap, &named("Save", None), CLICKABLE, false).unwrap_err();
        assert!(why.0.starts_with("2 elements"), "{}", why.0);
        let snap = Snapshot::parse("- button \"Save draft\"\n- button \"Save copy\"");
        let why = element(&snap, &named("save", None), CLICKABLE, false).unwrap_err();
        assert!(why.0.starts_with("2 elements"), "{}", why.0);
    }

    #[test]
    fn the_list_is_the_one_holding_the_values() {
        let snap = Snapshot::parse(TODOS);
        assert_eq!(
            list(&snap, &["walk the dog".to_owned()], None).unwrap(),
            "page.getByRole('list', { name: 'Todo list' })"
        );
        assert_eq!(
            list(&snap, &[], Some("todos")).unwrap(),
            "page.getByRole('list', { name: 'Todo list' })"
        );
        // No list is named by the noun: the one list that is not all links (the filters).
        assert_eq!(
            list(&snap, &[], Some("items")).unwrap(),
            "page.getByRole('list', { name: 'Todo list' })"
        );
    }

    /// The patterns run as JavaScript does (QuickJS, as the sandbox): a number finds itself
    /// and not a longer number.
    #[test]
    fn a_numbers_pattern_does_not_find_a_longer_number() {
        let runtime = rquickjs::Runtime::new().unwrap();
        let context = rquickjs::Context::full(&runtime).unwrap();
        let finds = |text: &str, page: &str| -> bool {
            let pattern = bounded_regex_js(text);
            context.with(|ctx| {
                ctx.eval::<bool, _>(format!("{pattern}.test({})", js_str(page)))
                    .unwrap()
            })
        };
        assert!(finds("$2", "Spam $2"));
        assert!(finds("$2", "costs $2."));
        assert!(finds("$2", "$2, or less"));
        assert!(!finds("$2", "Spam $2.85"));
        assert!(!finds("$2", "$2,500"));
        assert!(!finds("$12", "$112"));
        assert!(finds("5 left", "only 5 left"));
        assert!(!finds("5 left", "1.5 left"));
        assert!(!finds("5 left", "15 left"));
    }

    #[test]
    fn a_bounded_pattern_has_a_boundary_only_beside_a_letter_or_digit() {
        assert_eq!(
            bounded_regex_js("3 items  left"),
            "/(?<![\\p{L}\\p{N}_]|\\p{N}[.,])3 items left(?![\\p{L}\\p{N}_])/u"
        );
        // A number's rest is kept out: `$2` does not find "$2.85", `5 left` not "1.5 left".
        assert_eq!(
            bounded_regex_js("$2"),
            "/\\$2(?![\\p{L}\\p{N}_]|[.,]\\p{N})/u"
        );
        assert_eq!(bounded_regex_js("(3)"), "/\\(3\\)/u");
        assert_eq!(
            whole_regex_js("You  have (been) out"),
            "/^\\s*You\\s+have\\s+\\(been\\)\\s+out\\s*$/u"
        );
        assert_eq!(
            bounded_regex_js("a/b.c?"),
            "/(?<![\\p{L}\\p{N}_])a\\/b\\.c\\?/u"
        );
        assert_eq!(
            bounded_regex_js("é"),
            "/(?<![\\p{L}\\p{N}_])é(?![\\p{L}\\p{N}_])/u"
        );
    }
}
