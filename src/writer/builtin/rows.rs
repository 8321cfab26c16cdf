//! Elements found through what holds them, where the aria snapshot gives them no name: the list
//! item or table row whose text is a quoted text (and the one checkbox, button or field in it),
//! the nth item of a list, and — from the page's structure beyond the snapshot — an element a
//! description names by the words of its test id or class (`the counter`, `the new todo
//! field`), a list without a name, and the controls a row shows only on hover.
//!
//! Rows are found by an element whose whole text is the quoted one (`filter({ has:
//! page.getByText(T, { exact: true }) })`), never by a substring, so a check on a row cannot
//! pass on a row that only holds the text ("xbuy milk").

use crate::writer::builtin::intent::{Decline, State, Target};
use crate::writer::builtin::kinds::Kind;
use crate::writer::builtin::locator::{Found, js_str, norm, own_text};
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::builtin::structure::Hint;

/// Roles that hold the elements of one record.
const ROWS: &[&str] = &["listitem", "row"];

/// The row (list item or table row) one of whose elements has `text` as its whole text (in any
/// case): its locator and node. Rows that hold another such row are left out, so the innermost
/// one is meant.
pub(crate) fn row_holding(snap: &Snapshot, text: &str) -> Result<(String, usize), Decline> {
    let wanted = norm(text);
    let holders: Vec<(usize, usize)> = snap
        .with_roles(ROWS)
        .into_iter()
        .filter_map(|row| {
            snap.descendants(row)
                .into_iter()
                // An element: a bare text run of the row itself is no element `getByText`
                // can find whole.
                .find(|&d| {
                    snap.nodes[d].role != "text"
                        && own_text(&snap.nodes[d]).is_some_and(|t| norm(t) == wanted)
                })
                .map(|element| (row, element))
        })
        .collect();
    let innermost: Vec<(usize, usize)> = holders
        .iter()
        .copied()
        .filter(|&(row, _)| {
            !holders
                .iter()
                .any(|&(other, _)| other != row && snap.descendants(row).contains(&other))
        })
        .collect();
    for &(row, _) in &innermost {
        snap.notice(row);
    }
    match innermost.as_slice() {
        [(row, element)] => {
            let shown = own_text(&snap.nodes[*element]).unwrap_or(text).trim();
            Ok((
                format!(
                    "page.getByRole({}).filter({{ has: page.getByText({}, {{ exact: true }}) }})",
                    js_str(&snap.nodes[*row].role),
                    js_str(shown)
                ),
                *row,
            ))
        }
        [] => Err(Decline::new(format!(
            "no list item or row on the page shows \"{text}\" as a whole text"
        ))),
        many => Err(Decline::new(format!(
            "{} list items or rows show \"{text}\"; say which (`the first ...`) or quote a \
             text only one of them has",
            many.len()
        ))),
    }
}

/// `tick "buy milk"`, `"buy milk" is completed`: when no element of `roles` is named the
/// quoted text, the one such element in the row that shows it.
pub(crate) fn in_row(snap: &Snapshot, target: &Target, roles: &[&str]) -> Option<Found> {
    if !target.quoted || target.scope.is_some() || !matches!(target.kind, None | Some(Kind::Item)) {
        return None;
    }
    let (row, node) = row_holding(snap, target.name.as_deref()?).ok()?;
    one_of_roles_in(snap, &row, node, roles)
}

/// The one element of `roles` inside `node` (whose locator is `row`), as `row.getByRole(..)`.
fn one_of_roles_in(snap: &Snapshot, row: &str, node: usize, roles: &[&str]) -> Option<Found> {
    let inside: Vec<usize> = snap
        .descendants(node)
        .into_iter()
        .filter(|&d| roles.contains(&snap.nodes[d].role.as_str()))
        .collect();
    let [one] = inside.as_slice() else {
        return None;
    };
    snap.notice(*one);
    Some(Found {
        locator: format!("{row}.getByRole({})", js_str(&snap.nodes[*one].role)),
        node: *one,
    })
}

/// How a list is found (`resolve::list`): by texts its items hold, or by a noun.
pub(crate) type ListOf<'a> = dyn Fn(&[String], Option<&str>) -> Result<String, Decline> + 'a;

/// The `nth` of `nodes` (0-based; -1 is the last), as [`pick`] finds it.
fn nth_of(nodes: &[usize], nth: isize) -> Option<usize> {
    let at = if nth < 0 {
        nodes.len().checked_sub(1)
    } else {
        usize::try_from(nth).ok()
    };
    at.and_then(|at| nodes.get(at)).copied()
}

/// `the completed todos`: those of `items` whose checkbox is in `state`, and the filter that
/// narrows a locator of the items to them. Declines when no item has a checkbox, because then
/// the page does not say which items are done.
pub(crate) fn narrowed(
    snap: &Snapshot,
    items: &[usize],
    state: State,
) -> Result<(Vec<usize>, String), Decline> {
    let checkbox = |item: usize| {
        snap.descendants(item)
            .into_iter()
            .find(|&i| snap.nodes[i].role == "checkbox")
    };
    if !items.iter().any(|&item| checkbox(item).is_some()) {
        return Err(Decline::new(
            "the items have no checkbox, so the page does not say which of them are completed \
             or active",
        ));
    }
    let on = match state {
        State::Checked => true,
        State::Unchecked => false,
        State::Enabled | State::Disabled => {
            return Err(Decline::new(
                "the built-in generator narrows items by their checkbox only",
            ));
        }
    };
    let kept = items
        .iter()
        .copied()
        .filter(|&item| {
            checkbox(item).is_some_and(|c| snap.nodes[c].attrs.iter().any(|a| a == "checked") == on)
        })
        .collect();
    Ok((
        kept,
        format!(".filter({{ has: page.getByRole('checkbox', {{ checked: {on} }}) }})"),
    ))
}

/// `.first()`, `.last()` or `.nth(i)`.
fn pick(nth: isize) -> String {
    match nth {
        0 => ".first()".to_owned(),
        -1 => ".last()".to_owned(),
        n => format!(".nth({n})"),
    }
}

/// `the second todo`, `the first checkbox`, `the last "Delete" button`: the nth of the elements
/// the target could be. An item is the nth item of the list its noun names (or the one list
/// with items); an element of `roles` inside an item (`check the first todo`) is then that
/// item's one such element.
pub(crate) fn nth_element(
    snap: &Snapshot,
    target: &Target,
    roles: &[&str],
    list: &ListOf,
) -> Result<Found, Decline> {
    let nth = target.nth.unwrap_or(0);
    if matches!(target.kind, Some(Kind::Item) | Some(Kind::Row)) {
        let noun = target.phrase.split_whitespace().last();
        let role = if target.kind == Some(Kind::Row) {
            "row"
        } else {
            "listitem"
        };
        let base = if role == "row" {
            "page".to_owned()
        } else {
            match list(&[], noun) {
                Ok(base) => base,
                // `the first avatar` on a page with no list: the elements named by the noun.
                Err(decline) => {
                    return named_by_noun(snap, noun, nth).ok_or(decline);
                }
            }
        };
        let mut items = snap.with_roles(&[role]);
        let mut filter = String::new();
        if let Some(state) = target.narrow {
            (items, filter) = narrowed(snap, &items, state)?;
        }
        let item = format!("{base}.getByRole({}){filter}{}", js_str(role), pick(nth));
        let Some(node) = nth_of(&items, nth) else {
            return Err(Decline::new(format!(
                "the page shows {} {role}s, not a {}",
                items.len(),
                target.phrase
            )));
        };
        if roles.contains(&role) || roles.is_empty() {
            return Ok(Found {
                locator: item,
                node,
            });
        }
        // Within the item as the page shows it now; the locator is positional like the item.
        return one_of_roles_in(snap, &item, node, roles).ok_or_else(|| {
            Decline::new(format!(
                "the {} has no one element to act on here ({})",
                target.phrase,
                roles.join(", ")
            ))
        });
    }
    let roles: &[&str] = match target.kind {
        Some(kind) => kind.roles(),
        None => roles,
    };
    let role = match roles {
        [one, ..] => *one,
        [] => {
            return Err(Decline::new(
                "say what kind of element (`the first button`)",
            ));
        }
    };
    let name = target
        .name
        .as_deref()
        .map(|n| format!(", {{ name: {}, exact: true }}", js_str(n)))
        .unwrap_or_default();
    let matching: Vec<usize> = snap
        .with_roles(&[role])
        .into_iter()
        .filter(|&i| {
            target
                .name
                .as_deref()
                .is_none_or(|n| snap.nodes[i].name.as_deref() == Some(n))
        })
        .collect();
    let (matching, name) = if role == "img" && target.name.is_none() {
        content_images(snap, matching)?
    } else {
        (matching, name)
    };
    let Some(node) = nth_of(&matching, nth) else {
        return Err(Decline::new(format!(
            "the page shows {} such {role} elements, not a {}",
            matching.len(),
            target.phrase
        )));
    };
    snap.notice(node);
    Ok(Found {
        locator: format!("page.getByRole({}{name}){}", js_str(role), pick(nth)),
        node,
    })
}

/// The images a position counts (`the third image`): those that are not inside a link or a
/// button, since such an image is the link's or the button's picture (a logo, a "Fork me"
/// banner) rather than one of the page's images; all of them when every image is. A locator
/// can only leave the others out by name, so when some are left out the counted images must
/// share one name, which the locator then holds; else the position is declined.
fn content_images(snap: &Snapshot, images: Vec<usize>) -> Result<(Vec<usize>, String), Decline> {
    let in_control = |node: usize| {
        let mut at = snap.nodes[node].parent;
        while let Some(parent) = at {
            if matches!(snap.nodes[parent].role.as_str(), "link" | "button") {
                return true;
            }
            at = snap.nodes[parent].parent;
        }
        false
    };
    let content: Vec<usize> = images.iter().copied().filter(|&i| !in_control(i)).collect();
    if content.is_empty() || content.len() == images.len() {
        return Ok((images, String::new()));
    }
    let names: Vec<Option<&str>> = content
        .iter()
        .map(|&i| snap.nodes[i].name.as_deref())
        .collect();
    match names.first() {
        Some(Some(first)) if names.iter().all(|n| *n == Some(*first)) => Ok((
            content,
            format!(", {{ name: {}, exact: true }}", js_str(first)),
        )),
        _ => Err(Decline::new(format!(
            "the page shows {} images besides those in links or buttons, with different \
             names; say which by its name (`the second \"User Avatar\" image`)",
            content.len()
        ))),
    }
}

/// `the first avatar` on a page with no list: the nth of the elements whose accessible name
/// holds the noun as a word (`User Avatar`), when they all have one role and one name, so that
/// the locator finds exactly them.
fn named_by_noun(snap: &Snapshot, noun: Option<&str>, nth: isize) -> Option<Found> {
    let noun = noun?.to_lowercase();
    let singular = noun.strip_suffix('s').unwrap_or(&noun).to_owned();
    let holds = |name: &str| {
        name.split(|c: char| !c.is_alphanumeric())
            .any(|word| word.eq_ignore_ascii_case(&noun) || word.eq_ignore_ascii_case(&singular))
    };
    let named: Vec<usize> = (0..snap.nodes.len())
        .filter(|&i| snap.nodes[i].name.as_deref().is_some_and(holds))
        .collect();
    let first = *named.first()?;
    let (role, name) = (&snap.nodes[first].role, snap.nodes[first].name.as_deref()?);
    let alike = named
        .iter()
        .all(|&i| &snap.nodes[i].role == role && snap.nodes[i].name.as_deref() == Some(name));
    if !alike || role == "generic" {
        return None;
    }
    let node = nth_of(&named, nth)?;
    snap.notice(node);
    Some(Found {
        locator: format!(
            "page.getByRole({}, {{ name: {}, exact: true }}){}",
            js_str(role),
            js_str(name),
            pick(nth)
        ),
        node,
    })
}

/// Words that describe nothing by themselves.
const NOT_DESCRIPTIVE: &[&str] = &["the", "a", "an", "of", "this", "that", "my", "our", "your"];

/// `the counter`, `the new todo field`, `the error message`: the one visible element whose test
/// id, classes or id hold the description's words, from the page's structure. The kind's noun
/// must be among the words too unless the element has one of the kind's roles.
pub(crate) fn described(snap: &Snapshot, target: &Target, roles: &[&str]) -> Option<Found> {
    if target.quoted || target.scope.is_some() || target.nth.is_some() {
        return None;
    }
    let words: Vec<String> = target
        .phrase
        .split_whitespace()
        .map(str::to_lowercase)
        .filter(|w| !NOT_DESCRIPTIVE.contains(&w.as_str()))
        .collect();
    let name_words: Vec<String> = target
        .name
        .as_deref()
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_lowercase)
        .filter(|w| !NOT_DESCRIPTIVE.contains(&w.as_str()))
        .collect();
    // The element of the kind named by the other words (`the new todo field`), else any
    // element named by all of them (`the counter`); of several, those with the fewest words
    // of their own besides (`footer` rather than `footer navigation`).
    let of_kind = if name_words.is_empty() || target.kind.is_none() {
        Vec::new()
    } else {
        snap.structure.by_words(&name_words, roles)
    };
    let mut found: Vec<&Hint> = if of_kind.is_empty() {
        snap.structure.by_words(&words, &[])
    } else {
        of_kind
    };
    // An element whose role is of another kind is not of the kind named, whatever its words:
    // `form#checkbox-example` holds the checkbox and is named after it, and `the checkbox` is
    // never that form once the checkbox is gone. A generic element (a `div`, a `span`) has no
    // kind of its own, so its words say what it is.
    if target.kind.is_some() && !roles.is_empty() {
        found.retain(|h| h.role == "generic" || roles.contains(&h.role.as_str()));
    }
    let fewest = found
        .iter()
        .map(|h| h.words.len())
        .min()
        .unwrap_or_default();
    found.retain(|h| h.words.len() == fewest);
    match found.as_slice() {
        [one] => Some(Found {
            locator: one.locator.clone()?,
            node: usize::MAX,
        }),
        _ => None,
    }
}

/// The locator of an unnamed list the snapshot shows at `node`, from the page's structure: the
/// list whose visible items have the same texts, or the one whose words hold `noun`.
pub(crate) fn unnamed_list(
    snap: &Snapshot,
    node: Option<usize>,
    noun: Option<&str>,
) -> Option<String> {
    let lists: Vec<&Hint> = snap
        .structure
        .hints
        .iter()
        .filter(|h| {
            h.role == "list"
                && h.visible
                && h.locator.as_deref().is_some_and(|l| l.starts_with("page"))
        })
        .collect();
    if let Some(node) = node {
        let items: Vec<String> = snap.nodes[node]
            .children
            .iter()
            .filter(|&&c| snap.nodes[c].role == "listitem")
            .map(|&c| norm(&snap.text_of(c)))
            .collect();
        let same: Vec<&&Hint> = lists
            .iter()
            .filter(|h| {
                h.items.as_ref().is_some_and(|own| {
                    // The snapshot's text of an item also holds the names of its buttons.
                    own.len() == items.len()
                        && own.iter().zip(&items).all(|(a, b)| {
                            let a = norm(a).replace(' ', "");
                            !a.is_empty() && b.replace(' ', "").contains(&a)
                        })
                })
            })
            .collect();
        if let [one] = same.as_slice() {
            return one.locator.clone();
        }
    }
    let noun = noun?;
    let named = snap.structure.by_words(&[noun.to_lowercase()], &["list"]);
    match named.as_slice() {
        [one] => one.locator.clone(),
        _ => None,
    }
}

/// The names and words of a row's delete button.
pub(crate) const DELETE_WORDS: &[&str] = &[
    "delete", "remove", "destroy", "trash", "close", "×", "x", "✕", "✖",
];

/// The signs a delete or close button may be named by instead of a word: a sentence that
/// says `the delete button` means such a button, while `Remove` and `Delete` may be two
/// different acts.
pub(crate) const DELETE_SIGNS: &[&str] = &["×", "x", "✕", "✖"];

/// `delete "buy milk"` where the row shows its delete button only on hover: the row, and the
/// locator of that button inside it (`item.locator('button.destroy')`).
pub(crate) fn hidden_delete(snap: &Snapshot, text: &str) -> Option<(String, String)> {
    let (row, _) = row_holding(snap, text).ok()?;
    let found = snap.structure.hidden_in_row(text, DELETE_WORDS);
    let [one] = found.as_slice() else {
        return None;
    };
    let inner = one.locator.as_deref()?.strip_prefix("ROW")?.to_owned();
    Some((row, format!("item{inner}")))
}
