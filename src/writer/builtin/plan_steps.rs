//! Plan steps as test planners write them: loose sentences that restate the test's own items
//! ("'Task 1' and 'Task 3' remain visible"), refer back inside an action ("click the checkbox
//! next to the todo", "complete the first todo"), add and act in one breath ("add a todo 'x'
//! and mark it as complete") or describe a state ("the list is empty", "reload the page", "the
//! URL changes to #/active"). Each reader turns its sentence into sentences the shapes read
//! or into exact code; a reader that cannot account for a word leaves the sentence to the
//! shapes, which decline it.
//!
//! Main functions: the readers, which `plan_readers.rs` lists in the order they are tried.

use crate::script::PageState;
use crate::writer::builtin::discourse::{Part, quoted};
use crate::writer::builtin::element_step::{Check, ElementStep, Op, Subject};
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::navigation::main_headings;
use crate::writer::builtin::resolve::has_words;
pub(crate) use crate::writer::builtin::said::Said;
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::builtin::structure::{Hint, Structure};
use crate::writer::builtin::tokens::Tok;

pub(crate) type Reading = Option<Result<Vec<Part>, Decline>>;

/// `sentence` without its parenthesized comments: "type 'x' (with spaces) and press Enter".
/// A parenthesis that holds a quote is kept, because a quoted value is never a comment.
pub(crate) fn without_comments(sentence: &str) -> String {
    let mut out = String::with_capacity(sentence.len());
    let mut rest = sentence;
    while let Some(open) = rest.find('(') {
        let Some(close) = rest[open..].find(')').map(|at| open + at) else {
            break;
        };
        let inside = &rest[open + 1..close];
        if inside.contains(['\'', '"', '\u{201c}', '`', '$', '<']) {
            out.push_str(&rest[..=close]);
        } else {
            out.push_str(rest[..open].trim_end());
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The lowercase words of `toks`, a quoted literal as `"`.
pub(crate) fn words(toks: &[Tok]) -> Vec<&str> {
    toks.iter()
        .map(|t| match t {
            Tok::Word(w, _) => w.as_str(),
            Tok::Lit(_) => "\"",
        })
        .collect()
}

/// A reading of one act or check.
pub(crate) fn step(step: ElementStep) -> Reading {
    Some(Ok(vec![Part::Step(step)]))
}

/// A reading of one check of `subject`.
pub(crate) fn claim(subject: Subject, check: Check, not: bool) -> Reading {
    step(ElementStep::claim(subject, check, not))
}

/// `reload the page`, `refresh the page`, `reload`.
pub(crate) fn reload(said: &Said) -> Reading {
    match words(&said.toks).as_slice() {
        ["reload" | "refresh"] | ["reload" | "refresh", "the", "page" | "browser"] => {
            step(ElementStep::new(Subject::Page, Op::Reload))
        }
        _ => None,
    }
}

/// `the application loads successfully`: the app's main heading is visible.
pub(crate) fn app_loads(said: &Said) -> Reading {
    let w = words(&said.toks);
    let app = |n: &str| matches!(n, "application" | "app" | "page" | "site");
    let loads = match w.as_slice() {
        ["the", noun, "loads" | "loaded" | "opens"] => app(noun),
        [
            "the",
            noun,
            "loads" | "loaded" | "opens",
            "successfully" | "correctly",
        ] => app(noun),
        ["the", noun, "is", "loaded"] | ["the", noun, "is", "loaded", "successfully"] => app(noun),
        _ => false,
    };
    if !loads {
        return None;
    }
    match main_headings(&said.state.snapshot).as_slice() {
        [heading] => Some(Ok(vec![Part::Sentence(format!(
            "the heading {} is visible",
            quoted(heading)?
        ))])),
        _ => Some(Err(Decline::new(
            "the app's loaded state is its one main (level 1) heading, and the page has none \
             or several; name what must be visible in quotes",
        ))),
    }
}

/// `the list is empty`, `the todo list remains empty`, `no todo is added to the list`,
/// `start with an empty todo list`: the page lists no item.
pub(crate) fn empty_list(said: &Said) -> Reading {
    let w = words(&said.toks);
    let list = |s: &[&str]| matches!(s, ["list"] | [_, "list"]);
    let empty = match w.as_slice() {
        ["the", subject @ .., "is" | "remains" | "stays", "empty"] => list(subject),
        ["start", "with", "an", "empty", subject @ ..] => list(subject),
        ["no", noun, "is" | "was", "added"] => is_item_noun(noun),
        ["no", noun, "is" | "was", "added", "to", "the", subject @ ..] => {
            is_item_noun(noun) && list(subject)
        }
        _ => false,
    };
    empty.then(|| {
        Ok(vec![Part::Step(ElementStep::claim(
            Subject::Items,
            Check::Count(0),
            false,
        ))])
    })
}

fn is_item_noun(word: &str) -> bool {
    matches!(
        word,
        "todo" | "todos" | "item" | "items" | "task" | "tasks" | "entry" | "entries"
    )
}

/// `the URL changes to #/active`: the URL ends with the fragment, written without quotes.
pub(crate) fn url_fragment(said: &Said) -> Reading {
    let (verb, fragment) = match said.toks.as_slice() {
        [the, url, verb, to, Tok::Word(_, fragment)]
            if the.is("the") && url.is("url") && to.is("to") =>
        {
            (verb, fragment)
        }
        [the, url, verb, Tok::Word(_, fragment)] if the.is("the") && url.is("url") => {
            (verb, fragment)
        }
        _ => return None,
    };
    let verbs = ["changes", "is", "becomes", "ends"];
    if !verbs.iter().any(|v| verb.is(v)) || !fragment.starts_with('#') {
        return None;
    }
    claim(Subject::Page, Check::UrlEndsWith(fragment.clone()), false)
}

/// The quoted items of `toks` when they are `LIT (and LIT | LIT)*` and nothing else.
fn names(toks: &[Tok]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for tok in toks {
        match tok {
            Tok::Lit(text) => out.push(text.clone()),
            t if t.is("and") => {}
            _ => return None,
        }
    }
    (out.len() > 1 || (out.len() == 1 && toks.len() == 1)).then_some(out)
}

/// The verbs whose object is one item, written once per named item.
const ITEM_VERBS: &[&str] = &[
    "mark", "complete", "check", "uncheck", "toggle", "delete", "remove",
];

/// `mark 'a' and 'b' as complete`: the same action on each named item, one after another.
pub(crate) fn each_named_action(said: &Said) -> Reading {
    let [verb, rest @ ..] = said.toks.as_slice() else {
        return None;
    };
    if !ITEM_VERBS.iter().any(|v| verb.is(v)) {
        return None;
    }
    let end = rest
        .iter()
        .rposition(|t| matches!(t, Tok::Lit(_)))
        .map(|at| at + 1)?;
    let items = names(&rest[..end])?;
    if items.len() < 2 {
        return None;
    }
    let tail = sentence_of(&rest[end..]);
    let verb = sentence_of(std::slice::from_ref(verb));
    let parts: Option<Vec<Part>> = items
        .iter()
        .map(|item| {
            Some(Part::Sentence(
                format!("{verb} {} {tail}", quoted(item)?).trim().to_owned(),
            ))
        })
        .collect();
    parts.map(Ok)
}

/// `'a' and 'b' remain visible`, `only 'a' and 'b' are displayed`, `only 'b' remains
/// visible`: a check of each named item, or of the whole list when `only` starts it.
pub(crate) fn each_named_check(said: &Said) -> Reading {
    let (only, toks) = match said.toks.as_slice() {
        [first, rest @ ..] if first.is("only") => (true, rest),
        all => (false, all),
    };
    let verb = toks
        .iter()
        .position(|t| ["is", "are", "remain", "remains"].iter().any(|v| t.is(v)))?;
    let items = names(&toks[..verb])?;
    let predicate = words(&toks[verb + 1..]);
    let visible = matches!(
        predicate.as_slice(),
        ["visible"] | ["displayed"] | ["shown"] | ["listed"] | ["in", "the", "list"]
    ) || (predicate.is_empty() && !toks[verb].is("is") && !toks[verb].is("are"));
    // These checks are of a list's items; on a page where no list item shows a named item
    // (a shop's products are cards), the shapes read the sentence on the page instead.
    if visible && !a_list_item_shows(said.state, &items) {
        return None;
    }
    if only {
        if !visible {
            return None;
        }
        let list: Vec<String> = items.iter().filter_map(|i| quoted(i)).collect();
        return Some(Ok(vec![Part::Sentence(format!(
            "the list is exactly {}",
            list.join(" and ")
        ))]));
    }
    if items.len() < 2 {
        return None;
    }
    if visible {
        let parts = items.iter().map(|item| {
            Part::Step(ElementStep::claim(
                Subject::item(item),
                Check::Visible,
                false,
            ))
        });
        return Some(Ok(parts.collect()));
    }
    gone_words(&predicate).then(|| Ok(items.iter().map(|item| gone_code(item)).collect()))
}

/// Whether a list item of the page holds one of `items` as whole words of its text.
fn a_list_item_shows(state: &PageState, items: &[String]) -> bool {
    let snap = Snapshot::read(&state.snapshot, &state.structure);
    snap.with_roles(&["listitem"]).into_iter().any(|li| {
        let text = snap.text_of(li);
        items.iter().any(|item| has_words(&text, item))
    })
}

/// Whether the words after `is`/`are` say an item left the list. `not visible` and `no longer
/// shown` are not among them: they say the text is nowhere on the page, which a check of the
/// list's items alone would not see on a page whose items are no list items (a shop's cards),
/// so the shapes read them as a check of the whole page.
fn gone_words(predicate: &[&str]) -> bool {
    matches!(
        predicate,
        ["removed" | "deleted" | "gone"]
            | ["removed" | "deleted", "from", "the", "list"]
            | ["removed" | "deleted", "from", "the", _, "list"]
            | ["not", "listed"]
            | ["no", "longer", "listed"]
            | ["not", "in", "the", "list"]
    )
}

/// No list item holds `item` as its exact text.
fn gone_code(item: &str) -> Part {
    Part::Step(ElementStep::claim(
        Subject::item(item),
        Check::Count(0),
        false,
    ))
}

/// `the 'Clear completed' button appears in the footer`: the named button or link is visible
/// inside the page's footer element (any of them, when the page has several).
pub(crate) fn in_the_footer(said: &Said) -> Reading {
    let (name, kind) = match said.toks.as_slice() {
        [the, Tok::Lit(name), kind, rest @ ..] if the.is("the") => match words(rest).as_slice() {
            ["appears" | "appear", "in", "the", "footer"]
            | [
                "is",
                "visible" | "shown" | "displayed",
                "in",
                "the",
                "footer",
            ] => (name, kind),
            _ => return None,
        },
        _ => return None,
    };
    let role = ["button", "link"].into_iter().find(|role| kind.is(role))?;
    let control = Subject::Role {
        role: role.to_owned(),
        name: name.clone(),
        in_footer: true,
    };
    claim(control, Check::Visible, false)
}

/// `the checkbox is checked`, `the checkbox is unchecked`: the checkbox of the item the
/// test last acted on.
pub(crate) fn the_checkbox(said: &Said) -> Reading {
    let on = match words(&said.toks).as_slice() {
        ["the", "checkbox", "is", "checked" | "ticked"] => true,
        ["the", "checkbox", "is", "unchecked" | "unticked"]
        | ["the", "checkbox", "is", "not", "checked" | "ticked"] => false,
        _ => return None,
    };
    let item = match said.discourse.the_item() {
        Ok(item) => item,
        Err(decline) => return Some(Err(decline)),
    };
    claim(Subject::item_checkbox(&item), Check::Checked, !on)
}

/// `click the checkbox again to uncomplete it`, `click the checkbox to complete the todo`:
/// a click of the referred item's checkbox, and the state the purpose names.
pub(crate) fn click_checkbox_to(said: &Said) -> Reading {
    let w = words(&said.toks);
    let (on, object) = match w.as_slice() {
        ["click", "the", "checkbox", "to", purpose, object @ ..] => (*purpose, object),
        _ => return None,
    };
    let on = match on {
        "complete" | "check" => true,
        "uncomplete" | "uncheck" | "reactivate" => false,
        _ => return None,
    };
    let item = match object {
        ["it"] | ["the", "todo" | "item" | "task" | "entry"] => match said.discourse.the_item() {
            Ok(item) => item,
            Err(decline) => return Some(Err(decline)),
        },
        _ => return None,
    };
    let checkbox = Subject::item_checkbox(&item);
    Some(Ok(vec![
        Part::Step(ElementStep::new(checkbox.clone(), Op::Click)),
        Part::Step(ElementStep::claim(checkbox, Check::Checked, !on)),
    ]))
}

/// `press Enter to submit the todo`: the key, then the typed text is in the list, which is
/// what submitting it means.
pub(crate) fn press_to_submit(said: &Said) -> Reading {
    let to = said.toks.iter().position(|t| t.is("to"))?;
    let purpose = words(&said.toks[to + 1..]);
    if !matches!(
        purpose.as_slice(),
        ["submit"] | ["submit", "it"] | ["submit", "the", "todo" | "item" | "task" | "entry"]
    ) || !said.toks.first()?.is("press")
    {
        return None;
    }
    let Some(typed) = said.discourse.typed() else {
        return Some(Err(Decline::new(
            "\"to submit\": no earlier step typed text that is still in the field",
        )));
    };
    Some(Ok(vec![
        Part::Sentence(sentence_of(&said.toks[..to])),
        Part::Step(ElementStep::claim(
            Subject::item(typed),
            Check::Visible,
            false,
        )),
    ]))
}

/// `'a' is removed from the list`, `the todo is deleted from the list`, `'a' is not listed`.
pub(crate) fn gone(said: &Said) -> Reading {
    let verb = said.toks.iter().position(|t| t.is("is") || t.is("are"))?;
    if !gone_words(&words(&said.toks[verb + 1..])) {
        return None;
    }
    let subject = &said.toks[..verb];
    let item = match subject {
        [Tok::Lit(item)] => item.clone(),
        _ => match (reference(subject, said)?, said.discourse.just_removed()) {
            // `the todo is removed from the list` right after its delete: the item the delete
            // removed, which the test's memory no longer lists among its items.
            (_, Some(removed)) if names_the_item(subject) => removed.to_owned(),
            (Ok(item), _) => item,
            (Err(decline), _) => return Some(Err(decline)),
        },
    };
    Some(Ok(vec![gone_code(&item)]))
}

/// Whether `phrase` is `it` or `the todo` (`the todo item`, `the task`): the one item the
/// test last acted on, not one by its position.
fn names_the_item(phrase: &[Tok]) -> bool {
    let w = words(phrase);
    let w: Vec<&str> = w
        .into_iter()
        .filter(|w| !matches!(*w, "new" | "added" | "single" | "same"))
        .collect();
    match w.as_slice() {
        ["it"] => true,
        ["the", n, rest @ ..] => {
            matches!(*n, "todo" | "item" | "task" | "entry")
                && matches!(rest, [] | ["item"] | ["text"] | ["item's", "text"])
        }
        _ => false,
    }
}

/// The item a whole noun phrase refers to (`the todo`, `the new todo item`, `the first
/// todo`, `it`); `None` when the words are no such phrase.
fn reference(phrase: &[Tok], said: &Said) -> Option<Result<String, Decline>> {
    let discourse = said.discourse;
    let w = words(phrase);
    let w: Vec<&str> = w
        .into_iter()
        .filter(|w| !matches!(*w, "new" | "added" | "single" | "same"))
        .collect();
    let ordinal = |word: &str| {
        [
            "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
        ]
        .iter()
        .position(|o| *o == word)
    };
    let noun = |n: &str| matches!(n, "todo" | "item" | "task" | "entry");
    let tail = |t: &[&str]| matches!(t, [] | ["item"] | ["text"] | ["item's", "text"]);
    if names_the_item(phrase) {
        return Some(discourse.the_item());
    }
    match w.as_slice() {
        ["the", "last", n, rest @ ..] if noun(n) && tail(rest) => Some(
            discourse
                .items()
                .last()
                .cloned()
                .ok_or_else(|| Decline::new("\"the last\" item: no earlier step added one")),
        ),
        ["the", o, n, rest @ ..] | [o, n, rest @ ..] if noun(n) && tail(rest) => {
            let at = ordinal(o)?;
            Some(at_position(said, at, o))
        }
        _ => None,
    }
}

/// The one visible list on the page whose items are the items the test added (in any order),
/// with a locator that finds it alone.
pub(crate) fn items_list(said: &Said) -> Result<Hint, Decline> {
    let added = said.discourse.items();
    if added.is_empty() {
        return Err(Decline::new(
            "the sentence names an item by its position, and no earlier step of this test \
             added one",
        ));
    }
    let structure = Structure::parse(&said.state.structure);
    let lists: Vec<&Hint> = structure
        .hints
        .iter()
        // A control hidden in a row has a locator relative to its row, so it has a `row`.
        .filter(|h| h.visible && h.locator.is_some() && h.row.is_none())
        .filter(|h| {
            h.items.as_ref().is_some_and(|items| {
                items.len() == added.len() && added.iter().all(|a| items.iter().any(|i| i == a))
            })
        })
        .collect();
    match lists.as_slice() {
        [list] => Ok((*list).clone()),
        _ => Err(Decline::new(format!(
            "the sentence names an item by its position, and the page shows {} lists holding \
             the items this test added",
            lists.len()
        ))),
    }
}

/// The texts of the items of the list that holds the test's items, in the page's order; `None`
/// when the page shows no one such list.
fn page_order(said: &Said) -> Option<Vec<String>> {
    items_list(said).ok().and_then(|list| list.items)
}

/// The item at position `at` (`ordinal` in words) of the list, as the page orders it now: the
/// test's memory of what it added names it only when the page shows the same item there.
fn at_position(said: &Said, at: usize, ordinal: &str) -> Result<String, Decline> {
    let added = said.discourse.items();
    let Some(remembered) = added.get(at) else {
        return Err(Decline::new(format!(
            "the sentence refers to the {ordinal} item, and the earlier steps of this test \
             added {}",
            added.len()
        )));
    };
    let shown = page_order(said).ok_or_else(|| {
        Decline::new(format!(
            "the sentence refers to the {ordinal} item, and the page shows no one list holding \
             the items this test added, so it has no order to read; name the item in quotes"
        ))
    })?;
    match shown.get(at) {
        Some(item) if item == remembered => Ok(item.clone()),
        shown_there => Err(Decline::new(format!(
            "the sentence refers to the {ordinal} item: this test added {} {ordinal}, and the \
             page lists {} there; name the item in quotes",
            quoted(remembered).unwrap_or_default(),
            shown_there
                .and_then(|s| quoted(s))
                .unwrap_or_else(|| "nothing".to_owned())
        ))),
    }
}

/// Words after which a referring noun phrase stops (the next word starts another part).
const PHRASE_ENDS: &[&str] = &[
    "and", "to", "is", "are", "as", "in", "on", "with", "again", "from", "into",
];

/// `click the checkbox next to the todo`, `complete the first todo`, `first todo is marked as
/// complete`, `hover over the todo item`: the sentence with its referring noun phrase
/// replaced by the quoted item it refers to, for the shapes to read.
pub(crate) fn references(said: &Said) -> Reading {
    let toks = &said.raw;
    for start in 0..toks.len() {
        // A phrase inside a purpose clause (`click the checkbox to uncomplete it`) is the
        // purpose's object, not the action's, so replacing it would drop the purpose.
        let in_purpose = toks[..start]
            .windows(2)
            .any(|pair| pair[1].is("to") && !pair[0].is("next") && !pair[0].is("close"))
            || toks.first().is_some_and(|t| t.is("to"));
        if in_purpose {
            return None;
        }
        let starts_phrase = toks[start].is("the") || toks[start].is("it");
        if !starts_phrase {
            continue;
        }
        // The longest phrase from `start` that refers to an item.
        let mut end = toks.len();
        while end > start {
            let phrase = &toks[start..end];
            let next_ok = toks
                .get(end)
                .is_none_or(|t| PHRASE_ENDS.iter().any(|w| t.is(w)));
            if next_ok && let Some(found) = reference(phrase, said) {
                // A position named as a check's subject ("the first todo is "x"") is a claim
                // about the page's order; the name of the item the test added first would drop
                // it, so the shapes read the sentence, position and all.
                if names_a_position(phrase) && (start == 0 || is_predicate(toks.get(end))) {
                    return None;
                }
                let item = match found {
                    Ok(item) => item,
                    Err(decline) => return Some(Err(decline)),
                };
                let mut sentence = sentence_of(&toks[..start]);
                sentence.push(' ');
                sentence.push_str(&quoted(&item)?);
                sentence.push(' ');
                sentence.push_str(&sentence_of(&toks[end..]));
                return Some(Ok(vec![Part::Sentence(sentence.trim().to_owned())]));
            }
            end -= 1;
        }
    }
    None
}

/// Whether a referring phrase names a position (`the first todo`, `the last item`).
fn names_a_position(phrase: &[Tok]) -> bool {
    const POSITIONS: &[&str] = &[
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "last",
    ];
    phrase
        .iter()
        .any(|t| POSITIONS.iter().any(|position| t.is(position)))
}

/// Whether `next`, the word after a referring phrase, starts what the sentence claims of it.
fn is_predicate(next: Option<&Tok>) -> bool {
    const VERBS: &[&str] = &[
        "is", "are", "has", "have", "shows", "show", "remains", "stays", "appears", "says",
    ];
    next.is_some_and(|t| VERBS.iter().any(|verb| t.is(verb)))
}

/// `add a todo 'x' and mark it as complete`, `add three todos 'a', 'b', 'c' and mark all as
/// complete`, `... and mark one as complete` (the first of them): the add, then the marks.
pub(crate) fn add_and_mark(said: &Said) -> Reading {
    let toks = &said.toks;
    if !toks.first()?.is("add") {
        return None;
    }
    let and = toks.iter().rposition(|t| t.is("and"))?;
    let second = words(&toks[and + 1..]);
    let (whom, state) = match second.as_slice() {
        ["mark" | "check" | "complete", whom, "as", state] => (*whom, *state),
        ["mark" | "check" | "complete", whom] => (*whom, "complete"),
        _ => return None,
    };
    if !matches!(state, "complete" | "completed" | "done") {
        return None;
    }
    let added: Vec<String> = toks[..and]
        .iter()
        .filter_map(|t| match t {
            Tok::Lit(text) => Some(text.clone()),
            _ => None,
        })
        .collect();
    if added.is_empty() {
        return Some(Err(Decline::new(
            "the sentence adds items it does not name: write what to add in quotes",
        )));
    }
    let marked: &[String] = match whom {
        "it" if added.len() == 1 => &added,
        "them" | "all" | "both" | "each" => &added,
        "one" => &added[..1],
        _ => {
            return Some(Err(Decline::new(format!(
                "\"mark {whom}\": the sentence adds {} items, and \"{whom}\" is not one of \
                 them, all or one",
                added.len()
            ))));
        }
    };
    let mut parts = vec![Part::Sentence(sentence_of(&toks[..and]))];
    // The page the shapes see is from before the add, so the marks are written here.
    for item in marked {
        parts.push(Part::Step(ElementStep::new(
            Subject::item_checkbox(item),
            Op::Check,
        )));
    }
    Some(Ok(parts))
}

/// The tokens as a sentence the shapes read again, literals quoted.
pub(crate) fn sentence_of(toks: &[Tok]) -> String {
    toks.iter()
        .map(|t| match t {
            Tok::Word(_, written) => written.clone(),
            Tok::Lit(text) => quoted(text).unwrap_or_default(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::writer::builtin::discourse::{Discourse, texts};
    use crate::writer::builtin::plan_readers::{plan_readers, read_plan_step};

    const FIELD: &str = "page.getByRole('textbox', { name: 'What needs to be done?' })";

    /// The sentences and code of steps that add `items` through the new-item field, one step
    /// each.
    pub(crate) fn add_steps(items: &[&str]) -> (Vec<String>, Vec<String>) {
        let sentences: Vec<String> = items.iter().map(|i| format!("add '{i}'")).collect();
        let code: Vec<String> = items
            .iter()
            .map(|i| {
                format!(
                    "async function step(page) {{\n  await {FIELD}.fill('{i}');\n  await \
                     {FIELD}.press('Enter');\n}}"
                )
            })
            .collect();
        (sentences, code)
    }

    /// The discourse after adding `items` through the new-item field, one step each.
    fn added(items: &[&str]) -> Discourse {
        let (sentences, code) = add_steps(items);
        Discourse::of(&sentences, &code)
    }

    fn page() -> PageState {
        PageState {
            snapshot: "- heading \"todos\" [level=1]\n- textbox \"What needs to be done?\"\n"
                .to_owned(),
            ..PageState::default()
        }
    }

    /// The page after adding `items`, listed in that order by the todo list.
    fn listing(items: &[&str]) -> PageState {
        let structure = serde_json::json!([{
            "role": "list",
            "tag": "ul",
            "words": ["todo", "list"],
            "locator": "page.locator('ul.todo-list')",
            "text": items.join(" "),
            "visible": true,
            "items": items,
        }]);
        PageState {
            structure: structure.to_string(),
            ..page()
        }
    }

    /// The parts of `sentence` as text, or the decline's text prefixed with `DECLINE: `.
    fn read(discourse: &Discourse, sentence: &str) -> Option<Vec<String>> {
        read_on(discourse, sentence, &page())
    }

    /// [`read`] on the page of `state`.
    fn read_on(discourse: &Discourse, sentence: &str, state: &PageState) -> Option<Vec<String>> {
        let sentence = without_comments(sentence);
        read_plan_step(discourse, &sentence, &[], state).map(|read| match read {
            Ok(parts) => texts(parts),
            Err(decline) => vec![format!("DECLINE: {}", decline.0)],
        })
    }

    #[test]
    fn every_reader_has_a_name_and_the_list_has_no_duplicates() {
        let mut names: Vec<&str> = plan_readers().iter().map(|(r, _)| r.name()).collect();
        let readers = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), readers);
    }

    #[test]
    fn a_parenthesis_without_a_quote_is_a_comment() {
        assert_eq!(
            without_comments("Type ' x ' (with leading and trailing spaces) and press Enter"),
            "Type ' x ' and press Enter"
        );
        assert_eq!(
            without_comments("click the button (the one labelled 'Go')"),
            "click the button (the one labelled 'Go')"
        );
        assert_eq!(without_comments("open (unclosed"), "open (unclosed");
    }

    #[test]
    fn references_inside_actions_resolve_to_the_items_added() {
        let one = added(&["Buy milk"]);
        assert_eq!(
            read(&one, "Click the checkbox next to the todo").unwrap(),
            ["Click the checkbox next to \"Buy milk\""]
        );
        assert_eq!(
            read(&one, "Hover over the todo item").unwrap(),
            ["Hover over \"Buy milk\""]
        );
        let three = added(&["a", "b", "c"]);
        assert_eq!(
            read_on(
                &three,
                "Complete the first todo",
                &listing(&["a", "b", "c"])
            )
            .unwrap(),
            ["Complete \"a\""]
        );
        // A position as a check's subject is the page's order, which is checked at that
        // position (`plan_states.rs`); the name of the item added third would drop it.
        let listed = listing(&["a", "b", "c"]);
        let third = read_on(&three, "Third todo is marked as complete", &listed).unwrap();
        assert!(
            third[0].contains(".nth(2).getByRole('checkbox')).toBeChecked()"),
            "{third:?}"
        );
        let last = read_on(&three, "the last todo is active", &listed).unwrap();
        assert!(
            last[0].contains(".last().getByRole('checkbox')).not.toBeChecked()"),
            "{last:?}"
        );
        assert!(
            read(&three, "Third todo is marked as complete").unwrap()[0].starts_with("DECLINE")
        );
        assert_eq!(read(&three, "the first todo is \"a\""), None);
        // `the todo list` and `the todo counter` are no item.
        assert_eq!(read(&one, "the todo counter shows '1 item left'"), None);
    }

    #[test]
    fn an_ordinal_inside_an_action_is_the_pages_order_and_declines_when_memory_differs() {
        let three = added(&["a", "b", "c"]);
        assert_eq!(
            read_on(
                &three,
                "Complete the third todo",
                &listing(&["a", "b", "c"])
            )
            .unwrap(),
            ["Complete \"c\""]
        );
        // The page lists the items in another order than the test added them: "the first"
        // could mean either, so the step declines naming both.
        let declined = read_on(
            &three,
            "Complete the first todo",
            &listing(&["c", "b", "a"]),
        );
        let declined = declined.unwrap();
        assert!(
            declined[0].starts_with("DECLINE") && declined[0].contains("\"a\" first"),
            "{declined:?}"
        );
        assert!(declined[0].contains("lists \"c\" there"), "{declined:?}");
        // The same position on both is no conflict, even when the others differ.
        assert_eq!(
            read_on(
                &three,
                "Complete the second todo",
                &listing(&["c", "b", "a"])
            )
            .unwrap(),
            ["Complete \"b\""]
        );
        // A page whose list cannot be read has no order: decline, never the memory alone.
        let declined = read(&three, "Complete the first todo").unwrap();
        assert!(
            declined[0].starts_with("DECLINE") && declined[0].contains("no order"),
            "{declined:?}"
        );
        // A list holding other items than the test added is not its list.
        let declined = read_on(&three, "Complete the first todo", &listing(&["a", "b"])).unwrap();
        assert!(declined[0].starts_with("DECLINE"), "{declined:?}");
    }

    #[test]
    fn an_unresolved_reference_declines_naming_what_it_could_mean() {
        let three = added(&["a", "b", "c"]);
        let declined = read(&three, "Complete the fifth todo").unwrap();
        assert!(declined[0].contains("added 3"), "{declined:?}");
        let none = added(&[]);
        let declined = read(&none, "Delete the todo").unwrap();
        assert!(declined[0].starts_with("DECLINE"), "{declined:?}");
    }

    #[test]
    fn a_purpose_clause_keeps_its_object() {
        let one = added(&["Buy milk"]);
        // Not `click "Buy milk"`: the purpose says which state the click must reach.
        assert_eq!(
            read(&one, "Click the checkbox again to uncomplete it").unwrap(),
            [
                "await page.getByRole('listitem').filter({ has: page.getByText('Buy milk', { \
                 exact: true }) }).getByRole('checkbox').click();",
                "await expect(page.getByRole('listitem').filter({ has: page.getByText('Buy \
                 milk', { exact: true }) }).getByRole('checkbox')).not.toBeChecked();"
            ]
        );
        assert_eq!(read(&one, "Click the checkbox to admire it"), None);
    }

    #[test]
    fn adding_and_marking_in_one_step_marks_exactly_whom_it_says() {
        let none = added(&[]);
        let parts = read(&none, "Add a todo 'x' and mark it as complete").unwrap();
        assert_eq!(parts.len(), 2, "{parts:?}");
        assert_eq!(parts[0], "Add a todo \"x\"");
        assert!(parts[1].contains("getByText('x'") && parts[1].ends_with(".check();"));
        let all = read(
            &none,
            "add three todos 'a', 'b', 'c' and mark all as complete",
        )
        .unwrap();
        assert_eq!(all.len(), 4, "{all:?}");
        let one = read(
            &none,
            "add three todos 'a', 'b', 'c' and mark one as complete",
        )
        .unwrap();
        assert_eq!(one.len(), 2, "{one:?}");
        assert!(
            read(&none, "add 'a', 'b' and mark it as complete").unwrap()[0].starts_with("DECLINE")
        );
        // A count of unnamed items gets invented names (`plan_unnamed.rs`); no count declines.
        assert_eq!(
            read(&none, "Add three todos and mark one as complete").unwrap()[0],
            "Add three todos: \"Todo 1\", \"Todo 2\", \"Todo 3\""
        );
        assert!(
            read(&none, "Add some todos and mark one as complete").unwrap()[0]
                .starts_with("DECLINE")
        );
    }

    #[test]
    fn several_named_items_are_one_part_each() {
        let three = added(&["a", "b", "c"]);
        assert_eq!(
            read(&three, "Mark 'a' and 'c' as complete").unwrap(),
            ["Mark \"a\" as complete", "Mark \"c\" as complete"]
        );
        let listed = PageState {
            snapshot: "- list:\n  - listitem: a\n  - listitem: b\n  - listitem: c\n".to_owned(),
            ..page()
        };
        let kept = read_on(&three, "'a' and 'c' remain visible", &listed).unwrap();
        assert!(kept.iter().all(|c| c.ends_with("toBeVisible();")) && kept.len() == 2);
        assert_eq!(
            read_on(&three, "Only 'a' and 'c' are displayed", &listed).unwrap(),
            ["the list is exactly \"a\" and \"c\""]
        );
        // On a page whose items are no list items (a shop's cards; the footer's list holds
        // other texts), the shapes read the sentence on the page instead.
        let cards = PageState {
            snapshot: "- main:\n  - generic:\n    - heading \"a\" [level=2]\n  - generic:\n    \
                       - heading \"c\" [level=2]\n- list:\n  - listitem: icons by someone\n"
                .to_owned(),
            ..page()
        };
        assert_eq!(read_on(&three, "'a' and 'c' remain visible", &cards), None);
        assert_eq!(
            read_on(&three, "Only 'a' and 'c' are displayed", &cards),
            None
        );
        let gone = read(&three, "'a' and 'c' are removed from the list").unwrap();
        assert!(gone.iter().all(|c| c.ends_with("toHaveCount(0);")) && gone.len() == 2);
        let gone = read(&added(&["x"]), "The todo is deleted from the list").unwrap();
        assert!(gone[0].contains("getByText('x'") && gone[0].ends_with("toHaveCount(0);"));
    }

    /// Right after a delete, `the todo` in a claim that it is gone is the item deleted (the
    /// one the last action named), not another item still listed; in any other claim the
    /// deleted item is no item of the test any more.
    #[test]
    fn the_todo_just_deleted_is_the_todo_that_is_gone() {
        let hover = "async function step(page) {\n  await page.getByText('a', { exact: true \
                     }).hover();\n}";
        let click = "async function step(page) {\n  await page.getByRole('button', { name: \
                     '×', exact: true }).click();\n}";
        let (mut sentences, mut code) = add_steps(&["a", "b"]);
        sentences.extend([
            "hover over 'a'".to_owned(),
            "click the delete button".to_owned(),
        ]);
        code.extend([hover.to_owned(), click.to_owned()]);
        let deleted = Discourse::of(&sentences, &code);
        let gone = read(&deleted, "The todo is removed from the list").unwrap();
        assert!(
            gone[0].contains("getByText('a'") && gone[0].ends_with("toHaveCount(0);"),
            "{gone:?}"
        );
        // A check that names a delete button deletes nothing: `the todo` stays the one hovered.
        let mut shown = sentences.clone();
        shown[3] = "a delete button appears on the right side of the todo".to_owned();
        let checked = Discourse::of(&shown, &code);
        let kept = read(&checked, "The todo is marked as complete").unwrap();
        assert!(
            kept.iter()
                .any(|p| p.contains("getByText('a'") || p.contains("\"a\"")),
            "{kept:?}"
        );
        // Only right after the delete: a step between leaves `the todo` unresolved again.
        let mut later = sentences.clone();
        later.push("the list shows 'b'".to_owned());
        let mut later_code = code.clone();
        later_code.push("async function step(page) {\n}".to_owned());
        let after = Discourse::of(&later, &later_code);
        assert_eq!(after.just_removed(), None);
        // `the todo` of any other claim is the one item left, as before.
        let shown = read(&deleted, "The todo is marked as complete");
        assert!(
            shown
                .as_ref()
                .is_none_or(|parts| parts.iter().all(|p| !p.contains("getByText('a'"))),
            "{shown:?}"
        );
    }

    #[test]
    fn states_in_words_are_exact_checks() {
        let none = added(&[]);
        let empty = "await expect(page.getByRole('listitem')).toHaveCount(0);";
        for sentence in [
            "The list is empty",
            "The todo list remains empty",
            "No todo is added to the list",
            "Start with an empty todo list (no todos added)",
        ] {
            assert_eq!(read(&none, sentence).unwrap(), [empty], "{sentence}");
        }
        assert_eq!(
            read(&none, "Reload the page").unwrap(),
            ["await page.reload();"]
        );
        assert_eq!(
            read(&none, "The URL changes to #/active").unwrap(),
            ["await expect(page).toHaveURL(/\\#\\/active$/);"]
        );
        assert_eq!(read(&none, "The URL changes to somewhere"), None);
        assert_eq!(
            read(&none, "The application loads successfully").unwrap(),
            ["the heading \"todos\" is visible"]
        );
    }

    #[test]
    fn a_button_in_the_footer_is_looked_for_in_the_footer() {
        assert_eq!(
            read(
                &added(&[]),
                "The 'Clear completed' button appears in the footer"
            )
            .unwrap(),
            [
                "await expect(page.locator('footer').getByRole('button', { name: 'Clear completed', \
              exact: true })).toBeVisible();"
            ]
        );
        assert_eq!(
            read(&added(&[]), "The 'x' button appears on the footer"),
            None
        );
    }

    #[test]
    fn press_enter_to_submit_checks_the_typed_text_is_listed() {
        let typed = Discourse::of(
            &["type 'x' into the field".to_owned()],
            &[format!(
                "async function step(page) {{\n  await {FIELD}.fill('x');\n}}"
            )],
        );
        let parts = read(&typed, "Press Enter to submit the todo").unwrap();
        assert_eq!(parts[0], "Press Enter");
        assert!(parts[1].contains("getByText('x'") && parts[1].ends_with("toBeVisible();"));
        assert!(
            read(&added(&[]), "Press Enter to submit the todo").unwrap()[0].starts_with("DECLINE")
        );
    }
}
