//! Plan steps about the state of what the page shows, read from the page itself: "the 'Active'
//! filter link is highlighted" (the mark the page really puts on the current link of its group,
//! never a guessed class), "the first todo is marked as complete" (the item at that position of
//! the list that holds the test's items) and "click the 'Mark all as complete' checkbox" (the
//! control of that role whose whole name is the quoted text). A reader that finds nothing on the page to check declines
//! saying so.
//!
//! Main functions: the readers, which `plan_readers.rs` lists in the order they are tried.

use crate::writer::builtin::discourse::{Part, quoted};
use crate::writer::builtin::element_step::{Check, ElementStep, Op, Position, Subject};
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::plan_steps::{Reading, Said, claim, items_list, step, words};
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::builtin::structure::{Hint, Mark, Structure};
use crate::writer::builtin::tokens::Tok;

/// The ordinal words, first to eighth.
const ORDINALS: &[&str] = &[
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
];

/// The nouns that name an item of the list.
const ITEM_NOUNS: &[&str] = &["todo", "item", "task", "entry"];

/// The roles a sentence may name a control by, as the noun it uses.
const CONTROL_ROLES: &[&str] = &["link", "tab", "button", "checkbox"];

/// `the 'Active' filter link is highlighted`, `the "Home" tab is selected`: the control with
/// that name carries the mark its page gives the current control of its group, and its peers
/// do not.
pub(crate) fn highlighted(said: &Said) -> Reading {
    let [the, Tok::Lit(name), rest @ ..] = said.toks.as_slice() else {
        return None;
    };
    if !the.is("the") {
        return None;
    }
    let w = words(rest);
    let (nouns, state) = match w.as_slice() {
        [nouns @ .., "is", state] => (nouns, *state),
        _ => return None,
    };
    if !matches!(state, "highlighted" | "selected" | "current") {
        return None;
    }
    let role = match nouns {
        [] | ["filter"] => None,
        ["filter", noun] | [noun] => Some(*CONTROL_ROLES.iter().find(|r| *r == noun)?),
        _ => return None,
    };
    let structure = Structure::parse(&said.state.structure);
    let marked: Vec<&Hint> = structure
        .hints
        .iter()
        .filter(|h| h.marks.is_some() && h.text.trim() == name.as_str())
        .filter(|h| role.is_none_or(|r| h.role == r))
        .collect();
    let [hint] = marked.as_slice() else {
        return Some(Err(Decline::new(format!(
            "the page marks no control {} as the current one of its group (no aria-current, \
             aria-selected or aria-pressed, and no selected, active or current class that a \
             control beside it lacks), so \"{state}\" has nothing to check",
            quoted(name).unwrap_or_default()
        ))));
    };
    let mark = hint.marks.as_deref().and_then(<[Mark]>::first)?;
    let check = check_of(mark)?;
    let control = |text: &str| Subject::Role {
        role: hint.role.clone(),
        name: text.to_owned(),
        in_footer: false,
    };
    let mut parts = vec![Part::Step(ElementStep::claim(
        control(name),
        check.clone(),
        false,
    ))];
    // The peers that lacked the mark must still lack it: a page that marks every link
    // highlights none.
    for peer in hint.peers.iter().flatten() {
        let text = peer.text.trim();
        if text.is_empty() || text == name.as_str() || peer.marks.contains(mark) {
            continue;
        }
        parts.push(Part::Step(ElementStep::claim(
            control(text),
            check.clone(),
            true,
        )));
    }
    Some(Ok(parts))
}

/// The check of `mark`: a class the element's class list holds (`selected`), or an
/// attribute's value (`aria-current` is `page`).
fn check_of(mark: &Mark) -> Option<Check> {
    match (&mark.class, &mark.attribute, &mark.value) {
        (Some(class), _, _) if class.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') => {
            Some(Check::Class(class.clone()))
        }
        (None, Some(attribute), Some(value)) => Some(Check::Attribute {
            name: attribute.clone(),
            value: value.clone(),
        }),
        _ => None,
    }
}

/// `First todo is marked as complete`, `the third todo is active`, `the last item is
/// completed`: the checkbox of the item at that position in the list that holds the test's
/// items, as the page orders it.
pub(crate) fn position_state(said: &Said) -> Reading {
    let w = words(&said.raw);
    let w: &[&str] = match w.as_slice() {
        ["the", rest @ ..] => rest,
        all => all,
    };
    let (position, noun, predicate) = match w {
        [position, noun, predicate @ ..] => (*position, *noun, predicate),
        _ => return None,
    };
    if !ITEM_NOUNS.contains(&noun) {
        return None;
    }
    let at = match position {
        "last" => None,
        ordinal => Some(ORDINALS.iter().position(|o| *o == ordinal)?),
    };
    let checked = match predicate {
        ["is", "marked", "as", "complete" | "completed" | "done"]
        | ["is", "complete" | "completed" | "done" | "checked"] => true,
        ["is", "marked", "as", "active" | "incomplete"]
        | ["is", "active" | "incomplete" | "unchecked"]
        | ["is", "not", "completed" | "complete" | "checked"] => false,
        _ => return None,
    };
    let list = match items_list(said) {
        Ok(list) => list,
        Err(decline) => return Some(Err(decline)),
    };
    let shown = list.items.as_deref().unwrap_or_default().len();
    let at = match at {
        Some(at) if at < shown => Position::At(at),
        None if shown > 0 => Position::Last,
        _ => {
            return Some(Err(Decline::new(format!(
                "the sentence names the {position} item, and the list shows {shown}"
            ))));
        }
    };
    let Some(locator) = &list.locator else {
        return None;
    };
    let item = Subject::NthItem {
        list: Box::new(Subject::Located(locator.clone())),
        at,
    };
    claim(Subject::Checkbox(Box::new(item)), Check::Checked, !checked)
}

/// `click the 'Mark all as complete' checkbox`, `tick the "Remember me" checkbox again`,
/// `click the 'Save' button`: the one control of that role whose whole name is the quoted text.
/// A checkbox whose accessible name only holds the text (a label styled with generated content,
/// "❯ Mark all as complete") is found by its label's own text, still whole: a name that merely
/// holds the text is a likeness, and clicking it could press "Delete all" for "Delete".
///
/// `click on the 'Active' filter link`: "on" is the verb's, and "filter" says what the link is
/// for, as it does for a highlighted link above; the role and the whole name find it.
pub(crate) fn click_named_control(said: &Said) -> Reading {
    let [verb, tail @ ..] = said.toks.as_slice() else {
        return None;
    };
    let tail = match tail {
        [on, rest @ ..] if on.is("on") => rest,
        _ => tail,
    };
    let [the, Tok::Lit(name), tail @ ..] = tail else {
        return None;
    };
    let (noun, rest) = match tail {
        [filter, noun, rest @ ..] if filter.is("filter") => (noun, rest),
        [noun, rest @ ..] => (noun, rest),
        [] => return None,
    };
    if !the.is("the") || !words(rest).iter().all(|w| *w == "again") {
        return None;
    }
    let role = *CONTROL_ROLES.iter().find(|r| noun.is(r))?;
    let op = match words(std::slice::from_ref(verb)).as_slice() {
        ["click"] => Op::Click,
        ["tick" | "check"] if role == "checkbox" => Op::Check,
        ["untick" | "uncheck"] if role == "checkbox" => Op::Uncheck,
        _ => return None,
    };
    let names = snapshot_names(&said.state.snapshot, role)?;
    let exact = names.iter().filter(|n| *n == name).count();
    let holding = names.iter().filter(|n| n.contains(name.as_str())).count();
    let control = match (exact, holding) {
        (1, _) => Subject::Role {
            role: role.to_owned(),
            name: name.clone(),
            in_footer: false,
        },
        // Playwright's label text is the label's own text, without CSS generated content, and
        // `exact` matches it whole.
        (0, 1) if role == "checkbox" => Subject::CheckboxLabelled(name.clone()),
        _ => return None,
    };
    step(ElementStep::new(control, op))
}

/// The accessible names of the elements of `role` in the page's main frame, or `None` when the
/// page has a frame: the code reaches the main frame only, and an element of the same name inside
/// a frame is no proof that the one named is out here (the shapes say so when they decline).
fn snapshot_names(snapshot: &str, role: &str) -> Option<Vec<String>> {
    let page = Snapshot::parse(snapshot);
    if !page.with_roles(&["iframe"]).is_empty() {
        return None;
    }
    Some(
        page.with_roles(&[role])
            .into_iter()
            .filter_map(|at| page.nodes[at].name.clone())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use crate::script::PageState;
    use crate::writer::builtin::discourse::Discourse;
    use crate::writer::builtin::plan_readers::read_as_text;

    /// The filter links of a footer, `marked` carrying the class `selected`, as `structure.js`
    /// lists a marked link.
    fn filters(marked: &str, peers_marked: bool) -> PageState {
        let mark = serde_json::json!([{ "class": "selected" }]);
        let peers: Vec<serde_json::Value> = ["All", "Active", "Completed"]
            .iter()
            .filter(|p| **p != marked)
            .map(|p| {
                serde_json::json!({
                    "text": p,
                    "marks": if peers_marked { mark.clone() } else { serde_json::json!([]) },
                })
            })
            .collect();
        let hints = if peers_marked {
            serde_json::json!([])
        } else {
            serde_json::json!([{
                "role": "link",
                "tag": "a",
                "text": marked,
                "visible": true,
                "marks": mark,
                "peers": peers,
            }])
        };
        PageState {
            structure: hints.to_string(),
            ..PageState::default()
        }
    }

    fn read(discourse: &Discourse, sentence: &str, state: &PageState) -> Vec<String> {
        read_as_text(discourse, sentence, state)
    }

    #[test]
    fn a_highlighted_link_has_the_mark_its_peers_lack_and_declines_without_one() {
        let none = Discourse::default();
        let class = "toHaveClass(/(^|\\s)selected(\\s|$)/)";
        assert_eq!(
            read(
                &none,
                "The 'Active' filter link is highlighted",
                &filters("Active", false)
            ),
            [
                format!(
                    "await expect(page.getByRole('link', {{ name: 'Active', exact: true \
                     }})).{class};"
                ),
                format!(
                    "await expect(page.getByRole('link', {{ name: 'All', exact: true \
                     }})).not.{class};"
                ),
                format!(
                    "await expect(page.getByRole('link', {{ name: 'Completed', exact: true \
                     }})).not.{class};"
                ),
            ]
        );
        // Every link marked alike (structure.js then lists none), or another link marked:
        // nothing says which is current, so no class is guessed.
        for state in [filters("Active", true), filters("All", false)] {
            let read = read(&none, "The 'Active' filter link is highlighted", &state);
            assert!(read[0].starts_with("DECLINE"), "{read:?}");
        }
        // A button is not the link the sentence names.
        let read = read(
            &none,
            "The 'Active' button is highlighted",
            &filters("Active", false),
        );
        assert!(read[0].starts_with("DECLINE"), "{read:?}");
    }

    fn listing(items: &[&str]) -> PageState {
        let structure = serde_json::json!([{
            "role": "list",
            "tag": "ul",
            "locator": "page.locator('ul.todo-list')",
            "visible": true,
            "items": items,
        }]);
        PageState {
            structure: structure.to_string(),
            ..PageState::default()
        }
    }

    fn added(items: &[&str]) -> Discourse {
        let field = "page.getByRole('textbox', { name: 'What needs to be done?' })";
        let code: String = items
            .iter()
            .map(|i| format!("  await {field}.fill('{i}');\n  await {field}.press('Enter');\n"))
            .collect();
        Discourse::of(
            &["add them".to_owned()],
            &[format!("async function step(page) {{\n{code}}}")],
        )
    }

    #[test]
    fn a_position_state_checks_the_item_at_that_place_of_the_list() {
        let three = added(&["a", "b", "c"]);
        let page = listing(&["a", "b", "c"]);
        assert_eq!(
            read(&three, "First todo is marked as complete", &page),
            [
                "await expect(page.locator('ul.todo-list').getByRole('listitem').nth(0)\
              .getByRole('checkbox')).toBeChecked();"
            ]
        );
        assert_eq!(
            read(&three, "the last todo is active", &page),
            [
                "await expect(page.locator('ul.todo-list').getByRole('listitem').last()\
              .getByRole('checkbox')).not.toBeChecked();"
            ]
        );
        let read_fifth = read(&three, "Fifth todo is marked as complete", &page);
        assert!(read_fifth[0].starts_with("DECLINE"), "{read_fifth:?}");
        // No list holding exactly the test's items: no position to read.
        let other = read(&three, "First todo is completed", &listing(&["a", "b"]));
        assert!(other[0].starts_with("DECLINE"), "{other:?}");
    }

    #[test]
    fn a_named_control_is_found_by_its_role_and_whole_name_never_by_a_likeness() {
        let none = Discourse::default();
        let exact = PageState {
            snapshot: "- checkbox \"Mark all as complete\"\n".to_owned(),
            ..PageState::default()
        };
        assert_eq!(
            read(&none, "Click the 'Mark all as complete' checkbox", &exact),
            [
                "await page.getByRole('checkbox', { name: 'Mark all as complete', exact: true \
              }).click();"
            ]
        );
        let label_differs = PageState {
            snapshot: "- checkbox \"❯ Mark all as complete\"\n".to_owned(),
            ..PageState::default()
        };
        assert_eq!(
            read(
                &none,
                "tick the 'Mark all as complete' checkbox again",
                &label_differs
            ),
            [
                "await page.getByRole('checkbox').and(page.getByLabel('Mark all as complete', { exact: true \
              })).check();"
            ]
        );
        let filters = PageState {
            snapshot: "- link \"All\"\n- link \"Active\"\n- link \"Completed\"\n".to_owned(),
            ..PageState::default()
        };
        assert_eq!(
            read(&none, "Click on the 'Active' filter link", &filters),
            ["await page.getByRole('link', { name: 'Active', exact: true }).click();"]
        );
        let framed = PageState {
            snapshot: "- iframe [ref=e4]:\n  - button \"Accept cookies\" [ref=f1e2]\n".to_owned(),
            ..PageState::default()
        };
        assert_eq!(
            read(&none, "click the \"Accept cookies\" button", &framed),
            ["NONE"]
        );
        let likeness = PageState {
            snapshot: "- button \"Delete all\"\n".to_owned(),
            ..PageState::default()
        };
        assert_eq!(
            read(&none, "Click the 'Delete' button", &likeness),
            ["NONE"]
        );
        let two = PageState {
            snapshot: "- checkbox \"a Mark all\"\n- checkbox \"b Mark all\"\n".to_owned(),
            ..PageState::default()
        };
        assert_eq!(read(&none, "Click the 'Mark all' checkbox", &two), ["NONE"]);
    }
}
