//! The phrases sentences are made of, read from tokens: a value ([`literal`]), the element a
//! phrase names ([`target`], with its kind, ordinal and scope) and a key ([`key_name`]). Every
//! shape reads its parts with them.
//!
//! Main functions: [`target`], [`literal`] and [`key_name`].

use crate::writer::builtin::intent::{Cause, Decline, Literal, State, Target};
use crate::writer::builtin::kinds::{KINDS, Kind};
use crate::writer::builtin::qualifiers::{narrows_to, quality};
use crate::writer::builtin::tokens::{Tok, find};

/// Playwright's name of a key: `Enter`, `Escape`, `ArrowDown`, `Control+A`.
pub(crate) fn key_name(toks: &[Tok]) -> Option<String> {
    let toks = match toks.last() {
        Some(last) if last.is("key") => &toks[..toks.len() - 1],
        _ => toks,
    };
    let text = match toks {
        [Tok::Lit(k)] => k.clone(),
        _ => toks
            .iter()
            .map(|t| match t {
                Tok::Word(_, orig) => orig.clone(),
                Tok::Lit(l) => l.clone(),
            })
            .collect::<Vec<_>>()
            .join(" "),
    };
    let parts: Vec<String> = text
        .split('+')
        .map(|part| one_key(part.trim()))
        .collect::<Option<_>>()?;
    Some(parts.join("+"))
}

fn one_key(key: &str) -> Option<String> {
    let lower = key.to_lowercase().replace(['-', '_'], " ");
    let name = match lower.as_str() {
        "enter" | "return" => "Enter",
        "tab" => "Tab",
        "escape" | "esc" => "Escape",
        "space" | "spacebar" | "space bar" => "Space",
        "backspace" | "back space" => "Backspace",
        "delete" | "del" => "Delete",
        "home" => "Home",
        "end" => "End",
        "page up" | "pageup" => "PageUp",
        "page down" | "pagedown" => "PageDown",
        "arrow up" | "up arrow" | "arrowup" | "up" => "ArrowUp",
        "arrow down" | "down arrow" | "arrowdown" | "down" => "ArrowDown",
        "arrow left" | "left arrow" | "arrowleft" | "left" => "ArrowLeft",
        "arrow right" | "right arrow" | "arrowright" | "right" => "ArrowRight",
        "control" | "ctrl" => "Control",
        "shift" => "Shift",
        "alt" | "option" => "Alt",
        "meta" | "cmd" | "command" => "Meta",
        "controlormeta" => "ControlOrMeta",
        _ => {
            let mut chars = key.chars();
            return match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_alphanumeric() => Some(c.to_string()),
                _ if lower.len() <= 3
                    && lower.starts_with('f')
                    && lower[1..]
                        .parse::<u8>()
                        .is_ok_and(|n| (1..=12).contains(&n)) =>
                {
                    Some(key.to_uppercase())
                }
                _ => None,
            };
        }
    };
    Some(name.to_owned())
}

/// A value: one quoted literal or placeholder (or, for `see`, the words).
pub(crate) fn literal(toks: &[Tok]) -> Result<Literal, Decline> {
    let lits: Vec<&String> = toks
        .iter()
        .filter_map(|t| match t {
            Tok::Lit(l) => Some(l),
            Tok::Word(..) => None,
        })
        .collect();
    match lits.as_slice() {
        [one] => Ok(Literal((*one).clone())),
        [] => Err(Decline::new(
            "write the value in quotes (\"buy milk\") or as a ${NAME} variable",
        )),
        _ => Err(Decline::new("one quoted value was expected, found several")),
    }
}

/// All the quoted literals of `toks`, in order.
pub(crate) fn literals(toks: &[Tok]) -> Vec<Literal> {
    toks.iter()
        .filter_map(|t| match t {
            Tok::Lit(l) => Some(Literal(l.clone())),
            Tok::Word(..) => None,
        })
        .collect()
}

/// Words that say an element's state and are no element's name: unquoted before a kind noun
/// (`the checked checkboxes`) [`target`] declines them rather than look for an element named
/// so. The words of done and not done (`qualifiers.rs`) are not here: TodoMVC's filters are
/// named "Active" and "Completed".
const STATE_WORDS: &[&str] = &[
    "checked",
    "unchecked",
    "ticked",
    "unticked",
    "disabled",
    "enabled",
    "invalid",
    "valid",
    "required",
    "hidden",
    "visible",
    "selected",
    "unselected",
    "expanded",
    "collapsed",
    "pressed",
    "broken",
    "focused",
    "editable",
    "readonly",
    "read-only",
];

/// The element a phrase names: `the "Add" button`, `the new todo field`, `the checkbox "x"`,
/// `the "Delete" button of "buy milk"`.
pub(crate) fn target(toks: &[Tok]) -> Result<Target, Decline> {
    let (main, scope) = match find(toks, &["of", "for", "in", "within", "inside", "next"]) {
        Some(at) if at > 0 => {
            let scope = literal(&toks[at + 1..])
                .map_err(|_| Decline::new("the row or item an element is in must be quoted"))?;
            // `click "Delete" for "x" quickly`: the words after the row's text are no part of
            // it.
            if let Some(quote) = toks.iter().rposition(|t| matches!(t, Tok::Lit(_))) {
                let after: Vec<&Tok> = toks[quote + 1..].iter().collect();
                unread(&after)?;
            }
            (&toks[..at], Some(scope.0))
        }
        _ => (toks, None),
    };
    let mut words: Vec<&Tok> = main
        .iter()
        .filter(|t| !(t.is("the") || t.is("a") || t.is("an") || t.is("on")))
        .collect();
    // `the button labeled "Save"`: the connector says the quote is the name, so the noun before
    // it is the kind, as in `the "Save" button`.
    if let Some(at) = words
        .iter()
        .position(|t| NAMING.iter().any(|w| t.is(w)))
        .filter(|&at| at > 0 && matches!(words.get(at + 1), Some(Tok::Lit(_))))
    {
        words.remove(at);
    }
    // `the text "Saved"`: the noun says the quote is a text on the page, which is how a quote
    // with no kind noun is read anyway.
    if let [noun, Tok::Lit(_)] = words.as_slice()
        && noun.is("text")
    {
        words.remove(0);
    }
    let nth = words.first().and_then(|w| ordinal(w));
    if nth.is_some() {
        words.remove(0);
    }
    // `the toggle-all arrow`, `the settings icon`: how it looks is no part of its name.
    if words.len() > 1
        && words.last().is_some_and(|w| {
            ["arrow", "icon", "symbol", "chevron"]
                .iter()
                .any(|d| w.is(d))
        })
    {
        words.pop();
    }
    let phrase = words
        .iter()
        .map(|t| match t {
            Tok::Word(_, orig) => orig.as_str(),
            Tok::Lit(l) => l.as_str(),
        })
        .collect::<Vec<_>>()
        .join(" ");
    let mut kind = None;
    // The kind noun: last in the phrase, or first before a quoted name.
    for (pattern, k) in KINDS {
        let n = pattern.len();
        if words.len() >= n
            && words[words.len() - n..]
                .iter()
                .zip(pattern.iter())
                .all(|(t, w)| t.is(w))
        {
            kind = Some(*k);
            words.truncate(words.len() - n);
            break;
        }
        if words.len() > n
            && matches!(words[n], Tok::Lit(_))
            && words[..n].iter().zip(pattern.iter()).all(|(t, w)| t.is(w))
        {
            kind = Some(*k);
            words.drain(..n);
            break;
        }
    }
    let lits: Vec<&String> = words
        .iter()
        .filter_map(|t| match t {
            Tok::Lit(l) => Some(l),
            Tok::Word(..) => None,
        })
        .collect();
    let (name, quoted) = match lits.as_slice() {
        [one] => {
            unread(&words)?;
            (Some((*one).clone()), true)
        }
        [] if words.is_empty() => (None, false),
        [] => (
            Some(
                words
                    .iter()
                    .filter_map(|t| match t {
                        Tok::Word(_, orig) => Some(orig.as_str()),
                        Tok::Lit(_) => None,
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            false,
        ),
        _ => return Err(Decline::new("one element per step: several quoted names")),
    };
    if name.is_none() && kind.is_none() {
        return Err(Decline::new("no element is named"));
    }
    if name
        .as_deref()
        .is_some_and(|n| n.contains("${") || n.starts_with('<'))
    {
        return Err(Decline::new(
            "a variable names the element: the built-in generator matches elements by names \
             written in the sentence",
        ));
    }
    // `the first Delete button`: the words before a kind noun name the elements the ordinal
    // counts among, so the position is among the buttons named Delete, not among all buttons.
    let named_kind = kind.is_some_and(|k| !matches!(k, Kind::Item | Kind::Row));
    if nth.is_some() && kind.is_none() && !quoted {
        // `the first todo`: a noun the kinds do not know names the items of a list.
        kind = Some(Kind::Item);
    }
    // `there are no checked checkboxes`: an unquoted word that says a state names no element,
    // and read as a name it would find none, so a count of none would always hold.
    // Items and rows are narrowed by a state word instead (`the list has 2 checked items`,
    // `click the first checked item`), below.
    if let Some(state) = name.as_deref().filter(|name| {
        !quoted
            && !matches!(kind, Some(Kind::Item | Kind::Row))
            && name
                .split_whitespace()
                .all(|word| STATE_WORDS.contains(&word.to_lowercase().as_str()))
    }) {
        return Err(Decline::of(
            Cause::UnreadWords,
            format!(
                "did not read \"{state}\": it says a state, not a name, and the built-in \
                 generator finds elements by their names; check one element's state (`the \
                 \"Save\" button is disabled`), or quote the name if it is one"
            ),
        ));
    }
    // Only the items an ordinal counts are narrowed here: without one, the words may be a
    // name (`show the active todos` names a filter).
    let (name, narrow) = if quoted || named_kind || nth.is_none() || kind != Some(Kind::Item) {
        (name, None)
    } else {
        items_named(name.as_deref(), true)?
    };
    Ok(Target {
        name,
        quoted,
        kind,
        scope,
        phrase,
        nth,
        narrow,
    })
}

/// The name left of an item phrase's words (`completed todo` of `the first completed todo`)
/// once its word of state is read into the state the items are narrowed to. Counted by an
/// ordinal, the items are those of the list the last word names, so no other word may be left.
pub(crate) fn items_named(
    name: Option<&str>,
    counted: bool,
) -> Result<(Option<String>, Option<State>), Decline> {
    let words: Vec<Tok> = name
        .unwrap_or_default()
        .split_whitespace()
        .map(|w| Tok::Word(w.to_lowercase(), w.to_owned()))
        .collect();
    let mut narrow = None;
    let mut rest: Vec<&Tok> = Vec::new();
    for word in &words {
        match (narrows_to(word), narrow) {
            (Some(state), None) => narrow = Some(state),
            (Some(state), Some(had)) if state != had => {
                return Err(Decline::new("an item is in one state: completed or active"));
            }
            (Some(_), Some(_)) => {}
            (None, _) if quality(word).is_some() => {
                // `the first selected todo`: the items of a list are narrowed by their
                // checkbox only, the one state of theirs the page's snapshot shows.
                unread(&[word])?;
            }
            (None, _) => rest.push(word),
        }
    }
    let name = (!rest.is_empty()).then(|| {
        rest.iter()
            .filter_map(|t| match t {
                Tok::Word(_, orig) => Some(orig.as_str()),
                Tok::Lit(_) => None,
            })
            .collect::<Vec<_>>()
            .join(" ")
    });
    if !counted {
        return Ok((name, narrow));
    }
    // The last word is the list's noun (`todo`); any word before it would be dropped.
    if let [before @ .., _noun] = rest.as_slice() {
        unread(before)?;
    }
    Ok((None, narrow))
}

/// The words that say the quote after them is an element's name (`the link called "Home"`).
const NAMING: &[&str] = &["labeled", "labelled", "named", "called", "titled"];

/// Declines when a phrase whose name is quoted has words left that no part of it read (not an
/// article, ordinal, kind noun or naming word): `click "Add" three times` must not click once,
/// and `click "OK" and dismiss it` must not only click.
fn unread(words: &[&Tok]) -> Result<(), Decline> {
    let left: Vec<&str> = words
        .iter()
        .filter_map(|t| match t {
            Tok::Word(_, orig) => Some(orig.as_str()),
            Tok::Lit(_) => None,
        })
        .collect();
    if left.is_empty() {
        return Ok(());
    }
    Err(Decline::unread(&left))
}

/// `first`, `2nd`, `last`: the position an ordinal names (0-based; -1 is the last).
pub(crate) fn ordinal(word: &Tok) -> Option<isize> {
    const WORDS: &[&str] = &[
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    let Tok::Word(w, _) = word else { return None };
    if w == "last" {
        return Some(-1);
    }
    if let Some(at) = WORDS.iter().position(|o| o == w) {
        return isize::try_from(at).ok();
    }
    let digits = w
        .strip_suffix("st")
        .or_else(|| w.strip_suffix("nd"))
        .or_else(|| w.strip_suffix("rd"))
        .or_else(|| w.strip_suffix("th"))?;
    digits
        .parse::<isize>()
        .ok()
        .filter(|n| (1..=999).contains(n))
        .map(|n| n - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::tokens::{normalize, tokenize};

    fn toks(phrase: &str) -> Vec<Tok> {
        normalize(tokenize(phrase, &[]))
    }

    #[test]
    fn a_state_word_names_no_element_unless_it_is_quoted() {
        for phrase in [
            "checked checkboxes",
            "disabled button",
            "the invalid fields",
            "broken links",
        ] {
            let declined = target(&toks(phrase)).expect_err(phrase);
            assert!(
                declined.0.contains("says a state"),
                "{phrase}: {declined:?}"
            );
        }
        let quoted = target(&toks("the \"Disabled\" button")).expect("a quoted name");
        assert_eq!(quoted.name.as_deref(), Some("Disabled"));
        let named = target(&toks("the Save button")).expect("a name");
        assert_eq!(named.name.as_deref(), Some("Save"));
        // Items are narrowed by a state word rather than named by it.
        for phrase in [
            "the first checked item",
            "checked items",
            "the unchecked todos",
        ] {
            let items = target(&toks(phrase)).expect(phrase);
            assert_eq!(items.kind, Some(Kind::Item), "{phrase}");
        }
    }
}
