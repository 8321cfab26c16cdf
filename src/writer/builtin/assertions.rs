//! The checks among the sentence shapes: `X is shown`, `the page shows T`, `X has value V`,
//! `there are N X`, `"T" is completed`, the list's items and every item's state.
//!
//! Main functions: the readers of the check shapes, which the registry (`shapes.rs`) lists
//! after the action shapes.

use crate::writer::builtin::intent::{Cause, Decline, Intent, Literal, State, Target, UrlMatch};
use crate::writer::builtin::kinds::Kind;
use crate::writer::builtin::phrases::{items_named, literal, literals, target};
use crate::writer::builtin::qualifiers::{DONE, NOT_DONE, narrows_to};
use crate::writer::builtin::tables::table_ref;
use crate::writer::builtin::tokens::{Tok, find, starts, verb};
use crate::writer::builtin::vocabulary::meaning;

/// `there is a "How old are you?" field`: it is shown. `there is/are N X`.
pub(super) fn there_is(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    if let Some(rest) = verb(t, &[&["there", "is", "a"], &["there", "is", "an"]]) {
        return Some(target(rest).map(|target| Intent::Visible {
            target,
            shown: true,
        }));
    }
    if let Some(rest) = verb(t, &[&["there", "is"]]) {
        return Some(count(rest));
    }
    None
}

/// `a "Clear completed" button appears`: an element of a named kind is shown.
pub(super) fn appears(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    if let [subject @ .., last] = t
        && (last.is("appears") || last.is("appear"))
        && !subject.is_empty()
        && let Ok(target) = target(subject)
        && target.name.is_some()
        && target
            .kind
            .is_some_and(|kind| !matches!(kind, Kind::Item | Kind::List | Kind::Row))
    {
        return Some(Ok(Intent::Visible {
            target,
            shown: true,
        }));
    }
    None
}

/// `1 item left`, `0 items left`: a count and its words, with no verb, is text the page shows
/// (found on word boundaries, so "1 item left" is not found in "11 items left").
pub(super) fn count_words(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    if t.len() > 1
        && matches!(&t[0], Tok::Word(w, _) if w.chars().all(|c| c.is_ascii_digit()))
        && t[1..].iter().all(|w| {
            matches!(w, Tok::Word(..))
                && ![
                    "is", "not", "has", "shows", "says", "reads", "contains", "hidden",
                ]
                .iter()
                .any(|v| w.is(v))
        })
    {
        let words: Vec<&str> = t
            .iter()
            .map(|w| match w {
                Tok::Word(_, orig) => orig.as_str(),
                Tok::Lit(l) => l.as_str(),
            })
            .collect();
        return Some(Ok(Intent::PageShows(Literal(words.join(" ")))));
    }
    None
}

/// `the URL is U`, `the title contains T`.
pub(super) fn page_check(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    if let Some(n) = starts(t, &["the", "url"])
        .or(starts(t, &["the", "address", "bar"]))
        .or(starts(t, &["the", "address"]))
        .or(starts(t, &["url"]))
        .or(starts(t, &["the", "page", "url"]))
    {
        let rest = &t[n..];
        if rest.iter().any(|w| w.is("not") || w.is("no")) {
            return Some(Err(negated_page_check("URL")));
        }
        let how = if rest.iter().any(|w| w.is("contains") || w.is("includes")) {
            UrlMatch::Contains
        } else if rest.iter().any(|w| w.is("ends") || w.is("end")) {
            UrlMatch::EndsWith
        } else {
            UrlMatch::Is
        };
        return Some(url_value(rest).map(|value| Intent::Url { value, how }));
    }
    if let Some(n) = starts(t, &["the", "title"])
        .or(starts(t, &["the", "page", "title"]))
        .or(starts(t, &["title"]))
        .or(starts(t, &["the", "page's", "title"]))
    {
        let rest = &t[n..];
        if rest.iter().any(|w| w.is("not") || w.is("no")) {
            return Some(Err(negated_page_check("title")));
        }
        let exact = !rest.iter().any(|w| w.is("contains") || w.is("includes"));
        return Some(literal(rest).map(|value| Intent::Title { value, exact }));
    }
    None
}

/// The value of a URL check: a quoted one, else a path or URL written as it is after its
/// verb (`the URL ends with /secure`, `the URL is /login`). Any other word declines.
fn url_value(rest: &[Tok]) -> Result<Literal, Decline> {
    const VERBS: &[&str] = &[
        "is", "equals", "ends", "with", "contains", "includes", "has", "shows", "reads", "be",
    ];
    match rest {
        [verbs @ .., Tok::Word(_, path)]
            if !verbs.is_empty()
                && verbs.iter().all(|w| VERBS.iter().any(|v| w.is(v)))
                && (path.starts_with('/')
                    || url::Url::parse(path)
                        .is_ok_and(|url| matches!(url.scheme(), "http" | "https"))) =>
        {
            Ok(Literal(path.clone()))
        }
        _ => literal(rest),
    }
}

/// `I am on the login page`, `I am taken to the sign-up page`: the page's words are a segment
/// of the URL's path. The home page, and words that say which page only by where it is
/// (`the same page`, `the next page`), are no path and are left to the other shapes.
pub(super) fn on_page(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let rest = verb(
        t,
        &[
            &["am", "on"],
            &["am", "still", "on"],
            &["am", "back", "on"],
            &["am", "taken", "to"],
            &["am", "sent", "to"],
            &["am", "redirected", "to"],
            &["am", "brought", "to"],
            // `the user is on the login page`: the subject is dropped as a filler.
            &["is", "on"],
            &["is", "taken", "to"],
            &["is", "redirected", "to"],
            &["stay", "on"],
            &["remain", "on"],
        ],
    )?;
    // `I am on /secure`: the path is the URL's whole path.
    if let [Tok::Word(_, path)] = rest
        && path.starts_with('/')
    {
        return Some(Ok(Intent::Url {
            value: Literal(path.clone()),
            how: UrlMatch::Is,
        }));
    }
    let [the, words @ .., page] = rest else {
        return None;
    };
    const NO_PATH: &[&str] = &[
        "home", "same", "previous", "next", "last", "first", "new", "other", "current", "main",
        "start", "index", "this", "that",
    ];
    if !the.is("the")
        || !page.is("page")
        || words.is_empty()
        || words.len() > 3
        || words.iter().any(|w| NO_PATH.iter().any(|n| w.is(n)))
    {
        return None;
    }
    let mut segment = Vec::new();
    for word in words {
        match word {
            Tok::Word(w, _) if w.chars().all(|c| c.is_alphanumeric() || c == '-') => {
                segment.push(w.clone());
            }
            _ => return None,
        }
    }
    Some(Ok(Intent::OnPage(segment)))
}

/// `the page shows T`, `the list shows A and B`, `X says T`, `X has ...`.
pub(super) fn shows(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let first = |words: &[&str]| find(t, words);
    if let Some(at) = first(&[
        "shows", "displays", "contains", "says", "reads", "lists", "includes", "show", "has",
        "contain", "display", "include", "say",
    ]) {
        let (subject, negated) = match &t[..at] {
            [before @ .., last] if last.is("not") => (before, true),
            all => (all, false),
        };
        let rest = &t[at + 1..];
        if negated {
            return Some(not_shown(subject, rest));
        }
        let subject_words: Vec<&Tok> = subject.iter().filter(|w| !w.is("the")).collect();
        let is = |w: &str| subject_words.len() == 1 && subject_words[0].is(w);
        // A value in quotes is the whole text unless the sentence says the element only
        // contains it (issue 41: a quoted text is exact); words as written (`the counter says
        // 1 item left`) are found on word boundaries, since the page may punctuate them ("1
        // item left!").
        let contains = ["contains", "contain", "includes", "include"]
            .iter()
            .any(|verb| t[at].is(verb));
        let exact = !contains && rest.iter().any(|w| matches!(w, Tok::Lit(_)));
        if t[at].is("has") {
            return Some(has(subject, rest));
        }
        if is("page") || is("screen") || is("app") || subject_words.is_empty() {
            let intent = if contains {
                Intent::PageContains
            } else {
                Intent::PageShows
            };
            return Some(value(rest).map(intent));
        }
        if is_list(subject) {
            let values = literals(rest);
            if values.is_empty() {
                return Some(Err(Decline::new("write the items in quotes")));
            }
            if let Some(n) = number(rest) {
                return Some(Ok(Intent::Count {
                    count: n,
                    what: Target {
                        kind: Some(Kind::Item),
                        ..Target::default()
                    },
                }));
            }
            let only = rest
                .iter()
                .any(|w| w.is("only") || w.is("just") || w.is("exactly"));
            return Some(Ok(Intent::ListShows { values, only }));
        }
        return Some(value(rest).and_then(|value| {
            target(subject).map(|target| Intent::HasText {
                target,
                value,
                exact,
            })
        }));
    }
    None
}

/// `X is shown`, `X is hidden`, `X is completed`, `X is "T"`, `N items are shown`.
pub(super) fn is_state(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let first = |words: &[&str]| find(t, words);
    let at = first(&["is"])?;
    let (subject, rest) = (&t[..at], &t[at + 1..]);
    let (negated, rest) = match rest {
        [n, rest @ ..] if n.is("not") => (true, rest),
        [n, l, rest @ ..] if n.is("no") && l.is("longer") => (true, rest),
        rest => (false, rest),
    };
    // `shown as completed`, `crossed out`, `not completed any more`: one state word.
    let rest: Vec<Tok> = state_words(rest);
    let rest = rest.as_slice();
    // `the first todo is "Buy milk"`, `the todo list is exactly "a", "b"`.
    if !negated
        && !rest.is_empty()
        && rest
            .iter()
            .all(|w| matches!(w, Tok::Lit(_)) || w.is("exactly") || w.is("only") || w.is("and"))
    {
        let values = literals(rest);
        if is_list(subject) {
            return Some(Ok(Intent::ListShows { values, only: true }));
        }
        if let [value] = values.as_slice() {
            return Some(target(subject).map(|target| Intent::HasText {
                target,
                value: value.clone(),
                exact: true,
            }));
        }
    }
    // `only one Delete button is left`, `no Delete button is shown`, `2 rows remain`: a count
    // that starts the subject (`only` and `exactly` say the count is exact, as every count is).
    if !negated
        && let [w] = rest
        && (is_shown(w) || w.is("left") || w.is("remaining"))
    {
        let counted = match subject {
            [only, rest @ ..] if only.is("only") || only.is("exactly") => rest,
            _ => subject,
        };
        if let Some(first) = counted.first()
            && number(std::slice::from_ref(first)).is_some()
            && counted.len() > 1
        {
            return Some(count(counted));
        }
    }
    let state = match rest {
        [w] => w,
        _ => {
            // `N items are shown`
            if let Some(n) = number(subject)
                && rest.first().is_some_and(is_shown)
            {
                return Some(count(subject).map(|intent| match intent {
                    Intent::Count { what, .. } => Intent::Count { count: n, what },
                    other => other,
                }));
            }
            return None;
        }
    };
    let target = match target(subject) {
        Ok(target) => target,
        Err(decline) => return Some(Err(decline)),
    };
    let intent = if is_shown(state) {
        Intent::Visible {
            target,
            shown: !negated,
        }
    } else if state.is("hidden") || state.is("gone") || state.is("invisible") {
        Intent::Visible {
            target,
            shown: negated,
        }
    } else {
        let state = match (state, negated) {
            (w, false) if w.is("checked") || w.is("ticked") || w.is("selected") => State::Checked,
            (w, true) if w.is("checked") || w.is("ticked") || w.is("selected") => State::Unchecked,
            (w, false) if w.is("unchecked") || w.is("unticked") => State::Unchecked,
            (w, negated) if DONE.iter().any(|d| w.is(d)) => {
                if negated {
                    State::Unchecked
                } else {
                    State::Checked
                }
            }
            (w, false) if NOT_DONE.iter().any(|d| w.is(d)) => State::Unchecked,
            (w, false) if w.is("enabled") => State::Enabled,
            (w, true) if w.is("enabled") => State::Disabled,
            (w, false) if w.is("disabled") => State::Disabled,
            (w, true) if w.is("disabled") => State::Enabled,
            (w, _) if w.is("empty") || w.is("cleared") || w.is("blank") => {
                return Some(Ok(Intent::HasValue {
                    target,
                    value: Literal(String::new()),
                }));
            }
            _ => return None,
        };
        Intent::State { target, state }
    };
    Some(Ok(intent))
}

/// Why a negated URL or title check that no shape reads is declined: read as the plain
/// check, it would pass exactly when its sentence is false.
fn negated_page_check(what: &str) -> Decline {
    Decline::new(format!(
        "a negated {what} check is read only as `the {what} does not contain \"T\"` (URL) or          not at all (title)"
    ))
}

/// `the page does not show "T"`, `the list does not contain "T"`: T is not shown (in the list,
/// or anywhere).
fn not_shown(subject: &[Tok], rest: &[Tok]) -> Result<Intent, Decline> {
    let value = literal(rest)?;
    let subject: Vec<&Tok> = subject.iter().filter(|w| !w.is("the")).collect();
    let page = subject.is_empty()
        || subject.len() == 1
            && ["page", "screen", "app", "list"]
                .iter()
                .any(|w| subject[0].is(w));
    if !page {
        return Err(Decline::new(
            "`does not show` is read for the page or the list: `the page does not show \"T\"`",
        ));
    }
    Ok(Intent::Visible {
        target: Target {
            name: Some(value.0.clone()),
            quoted: true,
            phrase: value.0,
            ..Target::default()
        },
        shown: false,
    })
}

/// Whether the subject is a list (`the list`, `the todo list`).
fn is_list(subject: &[Tok]) -> bool {
    subject.last().is_some_and(|w| w.is("list"))
        && subject.len() <= 3
        && subject.iter().all(|w| matches!(w, Tok::Word(..)))
}

/// A check's value: one quoted literal or placeholder, else the words as written (`the counter
/// says 1 item left`).
fn value(rest: &[Tok]) -> Result<Literal, Decline> {
    if rest.iter().any(|t| matches!(t, Tok::Lit(_))) {
        return literal(rest);
    }
    let words: Vec<&str> = rest
        .iter()
        .filter_map(|t| match t {
            Tok::Word(_, orig) => Some(orig.as_str()),
            Tok::Lit(_) => None,
        })
        .collect();
    if words.is_empty() {
        return Err(Decline::new("the text to check is missing"));
    }
    Ok(Literal(words.join(" ")))
}

/// The words after `is` with the fillers of a state left out (`shown as`, `marked as`, `any
/// more`), and two-word states read as one (`crossed out` is done, `checked off` too).
fn state_words(rest: &[Tok]) -> Vec<Tok> {
    let word = |w: &str| Tok::Word(w.to_owned(), w.to_owned());
    let mut out = Vec::new();
    let mut i = 0;
    while i < rest.len() {
        let t = &rest[i];
        let next = rest.get(i + 1);
        if (t.is("shown") || t.is("marked") || t.is("displayed"))
            && next.is_some_and(|n| n.is("as"))
        {
            i += 2;
            continue;
        }
        if t.is("any") && next.is_some_and(|n| n.is("more")) {
            i += 2;
            continue;
        }
        if t.is("anymore") || t.is("again") {
            i += 1;
            continue;
        }
        if (t.is("crossed") || t.is("checked") || t.is("ticked"))
            && next.is_some_and(|n| n.is("out") || n.is("off"))
        {
            out.push(word("done"));
            i += 2;
            continue;
        }
        if t.is("cleared") || t.is("blank") {
            out.push(word("empty"));
            i += 1;
            continue;
        }
        out.push(t.clone());
        i += 1;
    }
    out
}

/// Sentences about a list's items: `"a" appears in the list`, `"a" and "b" are in the list`,
/// `"a" is not in the list`, `only "a" is listed / left`, `the list should only have "a"`,
/// `all 3 todos are completed`, `every todo is checked`, `no todo is completed`.
pub(super) fn items(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let values = literals(t);
    let only = t.first().is_some_and(|w| w.is("only"));
    let in_list = |rest: &[Tok]| {
        let rest: Vec<&Tok> = rest.iter().filter(|w| !w.is("the")).collect();
        match rest.as_slice() {
            [w] => ["listed", "left", "remaining"].iter().any(|x| w.is(x)),
            [i, .., l] => (i.is("in") || i.is("on")) && l.is("list"),
            _ => false,
        }
    };
    // `"a" appears in the list`, `"a" is (not) in the list`, `only "a" is left`.
    if !values.is_empty() {
        let verb_at = find(t, &["appears", "appear", "is"])?;
        let subject = &t[..verb_at];
        let subject_ok = subject
            .iter()
            .all(|w| matches!(w, Tok::Lit(_)) || w.is("and") || w.is("both") || w.is("only"));
        if !subject_ok || subject.is_empty() {
            return list_only_has(t);
        }
        let (negated, rest) = match &t[verb_at + 1..] {
            [n, rest @ ..] if n.is("not") => (true, rest),
            [n, l, rest @ ..] if n.is("no") && l.is("longer") => (true, rest),
            rest => (false, rest),
        };
        let rest: Vec<Tok> = rest
            .iter()
            .filter(|w| !w.is("still") && !w.is("again"))
            .cloned()
            .collect();
        let listed = in_list(&rest)
            || (t[verb_at].is("appears") || t[verb_at].is("appear"))
                && (rest.is_empty() || in_list(&rest));
        if !listed {
            return None;
        }
        if negated {
            let [value] = values.as_slice() else {
                return Some(Err(Decline::new(
                    "one text at a time: `\"a\" is not in the list`",
                )));
            };
            return Some(Ok(Intent::Visible {
                target: Target {
                    name: Some(value.0.clone()),
                    quoted: true,
                    phrase: value.0.clone(),
                    ..Target::default()
                },
                shown: false,
            }));
        }
        return Some(Ok(Intent::ListShows { values, only }));
    }
    // `all 3 todos are completed`, `every todo is checked`, `none of the todos is completed`.
    let at = find(t, &["is"])?;
    let subject = &t[..at];
    let rest = state_words(&t[at + 1..]);
    let (negated, rest) = match rest.as_slice() {
        [n, rest @ ..] if n.is("not") => (true, rest),
        rest => (false, rest),
    };
    let [state] = rest else { return None };
    let every = subject
        .first()
        .is_some_and(|w| ["all", "every", "each", "both"].iter().any(|q| w.is(q)));
    let none = subject.first().is_some_and(|w| w.is("none") || w.is("no"));
    if !every && !none {
        return None;
    }
    let count = subject.iter().find_map(|w| match w {
        Tok::Word(x, _) => x
            .parse::<usize>()
            .ok()
            .or_else(|| (x == "both").then_some(2)),
        Tok::Lit(_) => None,
    });
    let done = if DONE.iter().any(|d| state.is(d)) || state.is("checked") || state.is("ticked") {
        true
    } else if NOT_DONE.iter().any(|d| state.is(d)) || state.is("unchecked") || state.is("unticked")
    {
        false
    } else {
        return None;
    };
    let checked = done != (negated != none);
    let noun = subject
        .iter()
        .rev()
        .find_map(|w| match w {
            Tok::Word(x, orig)
                if x.parse::<usize>().is_err()
                    && !["all", "every", "each", "both", "none", "no", "of", "the"]
                        .contains(&x.as_str()) =>
            {
                Some(orig.clone())
            }
            _ => None,
        })
        .unwrap_or_else(|| "items".to_owned());
    Some(Ok(Intent::AllItems {
        count,
        noun,
        state: if checked {
            State::Checked
        } else {
            State::Unchecked
        },
    }))
}

/// `the list should only have "a"`, `the list has only "a" and "b"`.
fn list_only_has(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    let at = find(t, &["has", "holds"])?;
    if !is_list(&t[..at]) {
        return None;
    }
    let rest = &t[at + 1..];
    if !rest.iter().any(|w| w.is("only")) {
        return None;
    }
    Some(Ok(Intent::ListShows {
        values: literals(rest),
        only: true,
    }))
}

fn is_shown(t: &Tok) -> bool {
    [
        "shown",
        "visible",
        "displayed",
        "present",
        "showing",
        "there",
    ]
    .iter()
    .any(|w| t.is(w))
}

/// `X has value V` / `X has text V` / `the list has N items`.
fn has(subject: &[Tok], rest: &[Tok]) -> Result<Intent, Decline> {
    // `the age field has value 42`: a number needs no quotes, and is no count.
    if let [before @ .., Tok::Word(n, value)] = rest
        && n.parse::<f64>().is_ok()
        && before.iter().any(|w| w.is("value"))
        && before
            .iter()
            .all(|w| w.is("value") || w.is("the") || w.is("a") || w.is("of"))
    {
        return target(subject).map(|target| Intent::HasValue {
            target,
            value: Literal(value.clone()),
        });
    }
    if let Some(n) = number(rest) {
        let what = rest
            .iter()
            .position(|w| matches!(w, Tok::Word(x, _) if x.parse::<usize>().is_ok() || NUMBERS.contains(&x.as_str())))
            .map_or(rest, |at| &rest[at + 1..]);
        if let Some(table) = table_ref(subject) {
            return match what {
                [rows] if rows.is("rows") || rows.is("row") => {
                    Ok(Intent::TableRows { table, count: n })
                }
                _ => Err(Decline::new(
                    "the built-in generator counts a table's rows (`table 1 has 4 rows`)",
                )),
            };
        }
        // `the completed list has 2 items`: the word of state narrows the items counted.
        let narrowed = subject.iter().find_map(narrows_to);
        let subject: Vec<Tok> = subject
            .iter()
            .filter(|w| narrows_to(w).is_none())
            .cloned()
            .collect();
        let subject = subject.as_slice();
        let named: Vec<&str> = subject
            .iter()
            .filter(|w| !w.is("the"))
            .map(|w| match w {
                Tok::Word(_, orig) => orig.as_str(),
                Tok::Lit(text) => text.as_str(),
            })
            .collect();
        let own: Vec<&Tok> = subject.iter().filter(|w| !w.is("the")).collect();
        let whole_page = own.is_empty()
            || is_list(subject)
            || matches!(own.as_slice(), [one] if one.is("page") || one.is("screen") || one.is("app"));
        if !whole_page {
            // `the cart has 2 items`: counting the page's items would drop where they are.
            return Err(Decline::of(
                Cause::UnreadWords,
                format!(
                    "the built-in generator counts a list's or the page's elements and did not \
                     read \"{}\" in this sentence",
                    named.join(" ")
                ),
            ));
        }
        let mut what = target(what)?;
        // `2 completed todos`, `3 active items`: the count is of the items in that state.
        if what.kind.is_none() || (what.kind == Some(Kind::Item) && !what.quoted) {
            let (name, narrow) = items_named(what.name.as_deref(), false)?;
            what.narrow = narrow;
            what.name = name.filter(|_| what.kind.is_some());
            what.kind = Some(Kind::Item);
        }
        what.narrow = match (what.narrow, narrowed) {
            (Some(one), Some(other)) if one != other => {
                return Err(Decline::new("an item is in one state: completed or active"));
            }
            (one, other) => one.or(other),
        };
        return Ok(Intent::Count { count: n, what });
    }
    let value = literal(rest)?;
    let target = target(subject)?;
    if rest.iter().any(|w| w.is("placeholder")) {
        return Ok(Intent::Placeholder { target, value });
    }
    if rest.iter().any(|w| w.is("value")) {
        Ok(Intent::HasValue { target, value })
    } else {
        Ok(Intent::HasText {
            target,
            value,
            exact: true,
        })
    }
}

const NUMBERS: &[&str] = &[
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];

/// The first number of `toks`, in digits or words (`no` is 0).
fn number(toks: &[Tok]) -> Option<usize> {
    toks.iter().find_map(|t| match t {
        Tok::Word(w, _) => w
            .parse()
            .ok()
            .or_else(|| NUMBERS.iter().position(|n| n == w)),
        Tok::Lit(_) => None,
    })
}

/// `N X [in the list]`.
fn count(rest: &[Tok]) -> Result<Intent, Decline> {
    let Some(at) = rest
        .iter()
        .position(|t| number(std::slice::from_ref(t)).is_some())
    else {
        return Err(Decline::new("there are N ...: the number is missing"));
    };
    let count = number(&rest[at..=at]).unwrap_or_default();
    let what = &rest[at + 1..];
    let cut = find(
        what,
        &[
            "in",
            "on",
            "shown",
            "visible",
            "displayed",
            "left",
            "listed",
        ],
    );
    let what = cut.map_or(what, |c| &what[..c]);
    // A word that changes the meaning (`after reload`, `and 1 completed`, `within 2 seconds`)
    // starts another part of the sentence, which the count does not read: it is left for the
    // accounting, which declines naming it, rather than taken into the counted noun's phrase.
    let what = what
        .iter()
        .position(|t| matches!(t, Tok::Word(w, _) if meaning(w).is_some()))
        .filter(|&at| at > 0)
        .map_or(what, |at| &what[..at]);
    let mut target = target(what)?;
    if target.kind.is_none() || target.kind == Some(Kind::Item) {
        // `3 todos`, `2 entries`: the list's items.
        target.kind = Some(Kind::Item);
        target.name = None;
    }
    Ok(Intent::Count {
        count,
        what: target,
    })
}

#[cfg(test)]
mod tests {
    use crate::writer::builtin::intent::{Cause, Intent, TableRef, UrlMatch};
    use crate::writer::builtin::shapes::parse;

    /// A path or URL after the URL's verb needs no quotes; a word that is neither is not read
    /// as one.
    #[test]
    fn a_url_check_reads_an_unquoted_path() {
        for (sentence, value, exact) in [
            ("the URL ends with /secure", "/secure", UrlMatch::EndsWith),
            ("the URL is /login", "/login", UrlMatch::Is),
            ("the url contains /active", "/active", UrlMatch::Contains),
            ("the URL is \"/login\"", "/login", UrlMatch::Is),
            ("I am on /secure", "/secure", UrlMatch::Is),
            ("I am still on /login", "/login", UrlMatch::Is),
        ] {
            let Ok(Intent::Url { value: got, how }) = parse(sentence, &[]) else {
                panic!("{sentence:?}: {:?}", parse(sentence, &[]));
            };
            assert_eq!((got.0.as_str(), how), (value, exact), "{sentence:?}");
        }
        assert!(parse("the URL ends with secure", &[]).is_err());
        assert!(parse("the URL is /login after a while", &[]).is_err());
    }

    /// `I am on the X page` is a segment of the URL's path; a page named by where it is, or by
    /// a quote, is no path.
    #[test]
    fn on_a_page_reads_the_page_words() {
        for (sentence, words) in [
            ("I am still on the login page", vec!["login"]),
            ("I am redirected to the sign-up page", vec!["sign-up"]),
            (
                "the user is taken to the order history page",
                vec!["order", "history"],
            ),
        ] {
            let words: Vec<String> = words.into_iter().map(str::to_owned).collect();
            assert_eq!(
                parse(sentence, &[]),
                Ok(Intent::OnPage(words)),
                "{sentence:?}"
            );
        }
        for sentence in [
            "I am on the home page",
            "I am still on the same page",
            "I am on the \"Login\" page",
        ] {
            assert!(
                !matches!(parse(sentence, &[]), Ok(Intent::OnPage(_))),
                "{sentence:?}"
            );
        }
    }

    /// `has value 42`: a number after `value` is the field's value, not a count.
    #[test]
    fn a_number_after_value_is_a_value() {
        let Ok(Intent::HasValue { value, .. }) = parse("the number field has value 42", &[]) else {
            panic!("{:?}", parse("the number field has value 42", &[]));
        };
        assert_eq!(value.0, "42");
    }

    /// A count's subject is read: a table's rows are that table's, and a subject the count
    /// cannot scope to declines naming it instead of counting the whole page.
    #[test]
    fn a_count_reads_its_subject() {
        for (sentence, table, count) in [
            ("table 1 has 4 rows", TableRef::Nth(0), 4),
            ("the second table has 3 rows", TableRef::Nth(1), 3),
            ("the table has 2 rows", TableRef::Only, 2),
            (
                "the \"Example 1\" table has 4 rows",
                TableRef::Named("Example 1".into()),
                4,
            ),
        ] {
            assert_eq!(
                parse(sentence, &[]),
                Ok(Intent::TableRows { table, count }),
                "{sentence:?}"
            );
        }
        let why = parse("the cart has 2 items", &[]).unwrap_err();
        assert_eq!(why.1, Cause::UnreadWords, "{}", why.0);
        assert!(why.0.contains("\"cart\""), "{}", why.0);
        assert!(matches!(
            parse("the list has 2 items", &[]),
            Ok(Intent::Count { count: 2, .. })
        ));
        assert!(matches!(
            parse("the page has 2 buttons", &[]),
            Ok(Intent::Count { count: 2, .. })
        ));
    }

    /// A count that starts the subject of `is left` or `is shown` is the count of the elements
    /// it names; `only` says it is exact, which every count is.
    #[test]
    fn a_count_of_what_is_left_or_shown() {
        for (sentence, expected) in [
            ("only one Delete button is left", 1),
            ("no Delete button is shown", 0),
            ("exactly 2 Delete buttons are shown", 2),
            ("2 Delete buttons are left", 2),
        ] {
            match parse(sentence, &[]) {
                Ok(Intent::Count { count, what }) => {
                    assert_eq!(count, expected, "{sentence:?}");
                    assert_eq!(what.name.as_deref(), Some("Delete"), "{sentence:?}");
                }
                other => panic!("{sentence:?}: {other:?}"),
            }
        }
        // A negated count is no count of what is shown.
        assert!(!matches!(
            parse("no Delete button is not shown", &[]),
            Ok(Intent::Count { .. })
        ));
    }
}
