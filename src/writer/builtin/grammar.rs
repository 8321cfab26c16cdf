//! The action shapes' readers: what follows a verb (`click X`, `type V into X`, `mark "T" as
//! done`) read into an [`Intent`] naming its elements as `Target`s, or a [`Decline`] saying why
//! not. Each reader takes the whole sentence's words and the words after its verb; the verbs
//! and the order they are tried in are the registry's (`shapes.rs`).
//!
//! Main functions: the readers, one per action shape.

use crate::writer::builtin::kinds::Kind;
use crate::writer::builtin::phrases::{key_name, literal, literals, target};
use crate::writer::builtin::tokens::{Tok, find, skip, words_are};

use crate::writer::builtin::clicks::{dialog_clause, repeat, times};
use crate::writer::builtin::intent::{Decline, Intent, Literal, Target};

/// What an action shape's reader returns: `None` when the words are not this shape's.
pub(super) type Read = Option<Result<Intent, Decline>>;

/// `double-click X`.
pub(super) fn double_click(_: &[Tok], rest: &[Tok]) -> Read {
    Some(click(rest, true))
}

/// `click X`, `tap X`.
pub(super) fn single_click(_: &[Tok], rest: &[Tok]) -> Read {
    Some(click(rest, false))
}

/// `right-click X`: the context menu's click.
pub(super) fn context_click(_: &[Tok], rest: &[Tok]) -> Read {
    Some(clicks(skip(rest, &["on"]), |target| {
        Intent::ContextClick(target)
    }))
}

/// `go back`, `go back to the previous page`: the browser's back button. Any other words after
/// it (`go back to Completed`) are a view's name, for the shapes after this one.
pub(super) fn go_back(_: &[Tok], rest: &[Tok]) -> Read {
    (rest.is_empty() || words_are(rest, &["to", "the", "previous", "page"]))
        .then_some(Ok(Intent::GoBack))
}

/// `press KEY`, when what follows is a key (`press Tab twice`: that many times).
pub(super) fn press_key(_: &[Tok], rest: &[Tok]) -> Read {
    match times(rest) {
        Some(Ok((count, before))) => press(before).map(|read| read.map(|p| repeat(count, p))),
        Some(Err(decline)) => press(rest).map(|_| Err(decline)),
        None => press(rest),
    }
}

/// `fill X with V`.
pub(super) fn fill_with(_: &[Tok], rest: &[Tok]) -> Read {
    let with = find(rest, &["with"])?;
    Some(fill(&rest[with + 1..], &rest[..with], false))
}

/// `type V into X`. `type` with a value of one character is a key stroke: it is typed as
/// keys, so that a page that answers key events sees them.
pub(super) fn type_into(t: &[Tok], rest: &[Tok]) -> Read {
    let into = find(rest, &["into", "in", "inside", "to", "as"])?;
    Some(fill(&rest[..into], &rest[into + 1..], t[0].is("type")))
}

/// `clear X`.
pub(super) fn clear(_: &[Tok], rest: &[Tok]) -> Read {
    Some(target(rest).map(Intent::Clear))
}

/// `mark "T" as done`.
pub(super) fn mark_item(t: &[Tok], rest: &[Tok]) -> Read {
    Some(mark(t, rest))
}

/// `edit "T" to "U"`.
pub(super) fn edit(_: &[Tok], rest: &[Tok]) -> Read {
    let at = find(rest, &["to", "into", "as"])?;
    Some(
        literal(&rest[..at])
            .and_then(|from| literal(&rest[at + 1..]).map(|to| Intent::Edit { from, to })),
    )
}

/// `uncheck X`.
pub(super) fn uncheck(_: &[Tok], rest: &[Tok]) -> Read {
    Some(target(rest).map(|target| Intent::Check { target, on: false }))
}

/// `check X`.
pub(super) fn check(_: &[Tok], rest: &[Tok]) -> Read {
    Some(target(rest).map(|target| Intent::Check { target, on: true }))
}

/// `select V in X`, `select X`.
pub(super) fn select_option(_: &[Tok], rest: &[Tok]) -> Read {
    Some(select(rest))
}

/// `hover over X`.
pub(super) fn hover(_: &[Tok], rest: &[Tok]) -> Read {
    Some(target(rest).map(Intent::Hover))
}

/// `sign in as U with P`.
pub(super) fn sign_in_as(_: &[Tok], rest: &[Tok]) -> Read {
    Some(sign_in(rest))
}

/// `add "a", "b" and "c"`.
pub(super) fn add_items(_: &[Tok], rest: &[Tok]) -> Read {
    Some(add(rest))
}

/// `delete "T"`.
pub(super) fn delete(_: &[Tok], rest: &[Tok]) -> Read {
    Some(literal(rest).map(Intent::Delete))
}

/// `show the active todos`.
pub(super) fn show_view(_: &[Tok], rest: &[Tok]) -> Read {
    Some(show(rest))
}

/// `I see "T"`.
pub(super) fn see(_: &[Tok], rest: &[Tok]) -> Read {
    Some(literal(rest).map(Intent::PageShows))
}

/// `open /todos`, `go to Completed`: a page, or (after `go to`) a view of the app reached by its
/// link, tab or button.
pub(super) fn go_to(t: &[Tok], rest: &[Tok]) -> Read {
    let going = t[0].is("go") || t[0].is("navigate");
    Some(open(rest).or_else(|decline| {
        let words = skip(rest, &["the"]);
        if !going || words.is_empty() || words.iter().any(|w| w.is("page")) {
            return Err(decline);
        }
        target(words).map(|mut target| {
            if target.kind.is_none() {
                target.kind = Some(Kind::Filter);
            }
            Intent::Show(target)
        })
    }))
}

/// `click X`, `double-click X` (`on X`).
fn click(rest: &[Tok], double: bool) -> Result<Intent, Decline> {
    clicks(skip(rest, &["on"]), |target| Intent::Click {
        target,
        double,
    })
}

/// A click on the element `rest` names, with the count and the dialog clause that may follow it
/// (`click "Add" three times`, `click "Delete" and dismiss it`).
fn clicks(rest: &[Tok], action: impl Fn(Target) -> Intent) -> Result<Intent, Decline> {
    let (dialog, rest) = match dialog_clause(rest) {
        Some(read) => {
            let (dialog, before) = read?;
            (Some(dialog), before)
        }
        None => (None, rest),
    };
    let (count, rest) = match times(rest) {
        Some(read) => read?,
        None => (1, rest),
    };
    let done = repeat(count, action(target(rest)?));
    match dialog {
        None => Ok(done),
        Some(_) if count > 1 => Err(Decline::new(
            "the built-in generator answers one dialog per step: click once and answer it",
        )),
        Some(dialog) => Ok(Intent::Dialog {
            action: Box::new(done),
            answer: dialog.answer,
            kind: dialog.kind,
            message: dialog.message,
        }),
    }
}

/// `select V in X` (`from`, `for`), or `select X`: the option, or the checkbox or radio X.
fn select(rest: &[Tok]) -> Result<Intent, Decline> {
    if let Some(at) = find(rest, &["in", "from", "for"]) {
        return literal(&rest[..at]).and_then(|value| {
            target(&rest[at + 1..]).map(|target| Intent::Select { value, target })
        });
    }
    target(rest).map(|target| Intent::Check { target, on: true })
}

/// `show the active todos`: a filter link, tab or button.
fn show(rest: &[Tok]) -> Result<Intent, Decline> {
    target(rest).map(|mut target| {
        if matches!(target.kind, None | Some(Kind::Item)) {
            target.kind = Some(Kind::Filter);
        }
        Intent::Show(target)
    })
}

/// The words that name the app's own first page: `open the app`, `go to the home page`.
pub(crate) const HOME: &[&[&str]] = &[
    &["app"],
    &["application"],
    &["home", "page"],
    &["homepage"],
    &["home"],
    &["site"],
    &["website"],
    &["web", "app"],
    &["start", "page"],
    &["main", "page"],
    &["index", "page"],
];

fn open(rest: &[Tok]) -> Result<Intent, Decline> {
    let rest = skip(rest, &["the"]);
    if let [Tok::Lit(path)] = rest {
        return Ok(Intent::Open(Some(Literal(path.clone()))));
    }
    if let [Tok::Word(_, path)] = rest
        && (path.starts_with('/') || path.starts_with("http://") || path.starts_with("https://"))
    {
        return Ok(Intent::Open(Some(Literal(path.clone()))));
    }
    if HOME.iter().any(|words| words_are(rest, words)) {
        return Ok(Intent::Open(None));
    }
    Err(Decline::new(
        "the built-in generator opens the app (`/`), a path or a URL; write which one: `open \
         /login.html`",
    ))
}

/// `press KEY [in|on X]`, when what follows `press` is a key.
fn press(rest: &[Tok]) -> Read {
    let (key_toks, target_toks) = match find(rest, &["in", "on", "into", "inside"]) {
        Some(at) => (&rest[..at], Some(&rest[at + 1..])),
        None => (rest, None),
    };
    let key = key_name(skip(key_toks, &["the"]))?;
    let target = match target_toks {
        Some(toks) => match target(toks) {
            Ok(target) => Some(target),
            Err(decline) => return Some(Err(decline)),
        },
        None => None,
    };
    Some(Ok(Intent::Press { key, target }))
}

/// `VALUE ... TARGET [and press KEY]`.
fn fill(value: &[Tok], rest: &[Tok], typed: bool) -> Result<Intent, Decline> {
    // A number needs no quotes: `enter 34 as the age`.
    let value = match value {
        [Tok::Word(w, orig)] if w.parse::<f64>().is_ok() => Literal(orig.clone()),
        _ => literal(value)?,
    };
    let keys = typed && value.0.chars().count() == 1;
    let (target_toks, then_press) = match rest.iter().position(|t| t.is("and")) {
        Some(at)
            if rest
                .get(at + 1)
                .is_some_and(|t| t.is("press") || t.is("hit")) =>
        {
            let key = key_name(skip(&rest[at + 2..], &["the"]))
                .ok_or_else(|| Decline::new("the key to press after typing is not one it knows"))?;
            (&rest[..at], Some(key))
        }
        Some(_) => {
            return Err(Decline::new(
                "one action per step: `... and press KEY` only",
            ));
        }
        None => (rest, None),
    };
    let mut target = target(target_toks)?;
    target.kind = target.kind.or(Some(Kind::Field));
    Ok(Intent::Fill {
        value,
        target,
        then_press,
        keys,
    })
}

/// `mark "buy milk" as done`, `complete "buy milk"`, `mark "buy milk" as not done`,
/// `unmark "buy milk"`: the item's checkbox, ticked or not.
fn mark(t: &[Tok], rest: &[Tok]) -> Result<Intent, Decline> {
    let (what, how) = match find(rest, &["as"]) {
        Some(at) => (&rest[..at], &rest[at + 1..]),
        None => (rest, &[][..]),
    };
    let how: Vec<&Tok> = how.iter().filter(|w| !w.is("the")).collect();
    let undone = how.first().is_some_and(|w| w.is("not"))
        || how.iter().any(|w| {
            [
                "incomplete",
                "uncompleted",
                "undone",
                "unfinished",
                "active",
                "open",
                "todo",
            ]
            .iter()
            .any(|u| w.is(u))
        });
    let done = how.is_empty()
        || how.iter().any(|w| {
            [
                "done",
                "completed",
                "complete",
                "finished",
                "checked",
                "ticked",
                "read",
            ]
            .iter()
            .any(|d| w.is(d))
        });
    if !undone && !done {
        return Err(Decline::new(
            "mark an item as done or as not done (`mark \"buy milk\" as done`)",
        ));
    }
    let on = !undone && !t[0].is("unmark");
    let mut target = target(what)?;
    if target.kind == Some(Kind::Item) {
        target.kind = None;
    }
    Ok(Intent::Check { target, on })
}

/// `sign in as USER with [password] PASSWORD`.
fn sign_in(rest: &[Tok]) -> Result<Intent, Decline> {
    let rest = skip(rest, &["as"]);
    let Some(with) = find(rest, &["with", "and"]) else {
        return Err(Decline::new("sign in as USER with password PASSWORD"));
    };
    let user = literal(&rest[..with])?;
    let password = literal(&rest[with + 1..])?;
    Ok(Intent::SignIn { user, password })
}

/// `add [the todos] "a", "b" and "c" [to the list]`.
fn add(rest: &[Tok]) -> Result<Intent, Decline> {
    let values = literals(rest);
    if values.is_empty() {
        return Err(Decline::new("write what to add in quotes"));
    }
    Ok(Intent::Add(values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::shapes::parse;

    fn intent(sentence: &str) -> Intent {
        parse(sentence, &[]).unwrap_or_else(|why| panic!("{sentence:?}: {}", why.0))
    }

    #[test]
    fn politeness_articles_and_should_are_optional() {
        let plain = intent("click the \"Add\" button");
        assert_eq!(intent("Please click on the \"Add\" button."), plain);
        assert_eq!(intent("then I click \"Add\" button"), plain);
        assert_eq!(
            intent("the \"Add\" button should be visible"),
            intent("the \"Add\" button is visible")
        );
        assert_eq!(
            intent("the \"Add\" button should not be visible"),
            intent("the \"Add\" button is hidden")
        );
    }

    #[test]
    fn targets_read_names_kinds_and_scopes() {
        let Intent::Click { target, .. } = intent("click the checkbox \"buy milk\"") else {
            panic!()
        };
        assert_eq!(target.name.as_deref(), Some("buy milk"));
        assert_eq!(target.kind, Some(Kind::Checkbox));
        let Intent::Fill { target, .. } = intent("type \"x\" into the new todo field") else {
            panic!()
        };
        assert_eq!(
            (target.name.as_deref(), target.quoted, target.kind),
            (Some("new todo"), false, Some(Kind::Field))
        );
        let Intent::Click { target, .. } = intent("click the \"Delete\" button of \"buy milk\"")
        else {
            panic!()
        };
        assert_eq!(target.scope.as_deref(), Some("buy milk"));
    }

    #[test]
    fn keys_are_spelled_as_playwright_does() {
        for (sentence, key) in [
            ("press enter", "Enter"),
            ("press the Escape key", "Escape"),
            ("hit the down arrow", "ArrowDown"),
            ("press \"Control+A\"", "Control+A"),
            ("press Tab", "Tab"),
        ] {
            assert_eq!(
                intent(sentence),
                Intent::Press {
                    key: key.to_owned(),
                    target: None
                },
                "{sentence}"
            );
        }
    }

    #[test]
    fn values_must_be_quoted_or_placeholders() {
        assert!(parse("type milk into the field", &[]).is_err());
        assert_eq!(
            intent("type ${NAME} into the field"),
            Intent::Fill {
                keys: false,
                value: Literal("${NAME}".into()),
                target: Target {
                    name: None,
                    quoted: false,
                    kind: Some(Kind::Field),
                    scope: None,
                    phrase: "field".into(),
                    nth: None,
                    narrow: None
                },
                then_press: None
            }
        );
        let why = parse("click \"${BUTTON}\"", &[]).unwrap_err();
        assert!(why.0.contains("a variable names the element"), "{}", why.0);
    }

    #[test]
    fn other_sentences_are_declined() {
        for sentence in [
            "make it faster",
            "",
            "wait 5 seconds",
            "type \"a\" into the field and click \"Add\"",
        ] {
            assert!(parse(sentence, &[]).is_err(), "{sentence:?}");
        }
    }
}
