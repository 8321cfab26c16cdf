//! The sentence shapes the built-in generator understands: a sentence becomes an [`Intent`] (what
//! to do or check) naming its elements as [`Target`]s, or a [`Decline`] saying why not. English,
//! case-insensitive, quoted literals in `'...'`, `"..."` or `“...”`, `${NAME}` and `<column>`
//! placeholders as values; articles, politeness (`please`, `then`, `I`) and `should` are
//! optional. The shapes are listed in `docs/builtin.md`.
//!
//! Main function: [`parse`].

use crate::writer::builtin::assertions::assertion;
use crate::writer::builtin::forms::{form_shape, is_check};
use crate::writer::builtin::http;
use crate::writer::builtin::kinds::Kind;
use crate::writer::builtin::phrases::{key_name, literal, literals, target};
use crate::writer::builtin::tokens::{Tok, find, normalize, skip, tokenize, verb, words_are};
use crate::writer::builtin::{accessibility, visual};

use crate::writer::builtin::intent::{Decline, Intent, Literal};

/// Reads `sentence` as one of the shapes. `columns` are the examples table's columns: `<name>`
/// is a value only for these.
pub(crate) fn parse(sentence: &str, columns: &[String]) -> Result<Intent, Decline> {
    // A JSON body has quotes, commas and colons of its own, so an HTTP sentence is read from
    // its text before it is cut into words.
    if let Some(http) = http::parse(sentence, columns) {
        return http;
    }
    // `the todo is saved: the API /api/todos lists "milk"`: the words before the colon would
    // read as an element, so a request's check after it goes first.
    if let Some((_, check)) = sentence.split_once(": ")
        && let Some(Ok(Intent::Http(http))) = http::parse(check, columns)
        && http.is_check()
    {
        return Ok(Intent::Http(http));
    }
    let toks = normalize(tokenize(sentence, columns));
    if toks.is_empty() {
        return Err(Decline::new("the sentence is empty"));
    }
    // `the form is not sent: the address has no "x" in it`: a summary, then the check that
    // says what it means, which is the step's check.
    if !matches!(shape(&toks), Some(Ok(_)))
        && let Some((_, check)) = sentence.split_once(": ")
        && let Ok(intent) = parse(check, columns)
        && is_check(&intent)
    {
        return Ok(intent);
    }
    shape(&toks).ok_or_else(|| {
        Decline::new(
            "the sentence is none of the built-in shapes (open, click, type into, check, select, \
             press, hover, is shown, shows, has value, is checked, there are N, the URL, the title, \
             METHOD /path)",
        )
    })?
}

/// One action shape: the verb forms that start it, and what reads the sentence (`t`) and the
/// words after the verb (`rest`); `None` when they are not this shape's, and the next one is
/// tried.
struct Action {
    verbs: &'static [&'static [&'static str]],
    read: ReadAction,
}

/// How an [`Action`] reads the sentence and the words after its verb.
type ReadAction = fn(t: &[Tok], rest: &[Tok]) -> Option<Result<Intent, Decline>>;

/// The action shapes, in the order they are tried (`press Enter` before `press the button`,
/// `uncheck` before `check`): the first that reads the sentence decides it.
const ACTIONS: &[Action] = &[
    Action {
        verbs: &[
            &["open"],
            &["go", "to"],
            &["visit"],
            &["navigate", "to"],
            &["browse", "to"],
            &["load"],
        ],
        read: go_to,
    },
    Action {
        verbs: &[
            &["double-click"],
            &["double", "click"],
            &["doubleclick"],
            &["dblclick"],
            &["double-tap"],
        ],
        read: |_, rest| Some(click(rest, true)),
    },
    Action {
        verbs: &[&["press"], &["hit"]],
        read: |_, rest| press(rest),
    },
    Action {
        verbs: &[&["click"], &["tap"], &["press"], &["hit"]],
        read: |_, rest| Some(click(rest, false)),
    },
    Action {
        verbs: &[&["fill", "in"], &["fill", "out"], &["fill"]],
        read: |_, rest| {
            let with = find(rest, &["with"])?;
            Some(fill(&rest[with + 1..], &rest[..with]))
        },
    },
    Action {
        verbs: &[
            &["type"],
            &["enter"],
            &["fill", "in"],
            &["fill"],
            &["input"],
            &["write"],
        ],
        read: |_, rest| {
            let into = find(rest, &["into", "in", "inside", "to", "as"])?;
            Some(fill(&rest[..into], &rest[into + 1..]))
        },
    },
    Action {
        verbs: &[&["clear"], &["empty"]],
        read: |_, rest| Some(target(rest).map(Intent::Clear)),
    },
    Action {
        verbs: &[
            &["mark"],
            &["complete"],
            &["finish"],
            &["tick", "off"],
            &["check", "off"],
            &["unmark"],
        ],
        read: |t, rest| Some(mark(t, rest)),
    },
    Action {
        verbs: &[
            &["edit"],
            &["rename"],
            &["change"],
            &["update"],
            &["modify"],
        ],
        read: |_, rest| {
            let at = find(rest, &["to", "into", "as"])?;
            Some(
                literal(&rest[..at])
                    .and_then(|from| literal(&rest[at + 1..]).map(|to| Intent::Edit { from, to })),
            )
        },
    },
    Action {
        verbs: &[&["uncheck"], &["untick"], &["deselect"]],
        read: |_, rest| Some(target(rest).map(|target| Intent::Check { target, on: false })),
    },
    Action {
        verbs: &[&["check"], &["tick"]],
        read: |_, rest| Some(target(rest).map(|target| Intent::Check { target, on: true })),
    },
    Action {
        verbs: &[&["select"], &["choose"], &["pick"]],
        read: |_, rest| Some(select(rest)),
    },
    Action {
        verbs: &[
            &["hover", "over"],
            &["hover", "on"],
            &["hover"],
            &["mouse", "over"],
        ],
        read: |_, rest| Some(target(rest).map(Intent::Hover)),
    },
    Action {
        verbs: &[&["sign", "in"], &["log", "in"], &["login"], &["signin"]],
        read: |_, rest| Some(sign_in(rest)),
    },
    Action {
        verbs: &[&["add"], &["create"]],
        read: |_, rest| Some(add(rest)),
    },
    Action {
        verbs: &[&["delete"], &["remove"]],
        read: |_, rest| Some(literal(rest).map(Intent::Delete)),
    },
    Action {
        verbs: &[
            &["show"],
            &["filter", "by"],
            &["view"],
            &["switch", "to"],
            &["switch", "back", "to"],
            &["go", "back", "to"],
        ],
        read: |_, rest| Some(show(rest)),
    },
    Action {
        verbs: &[&["see"], &["sees"]],
        read: |_, rest| Some(literal(rest).map(Intent::PageShows)),
    },
];

/// The intent of a normalized sentence: a form's shape, else the first action shape that reads
/// it, else a check.
pub(super) fn shape(t: &[Tok]) -> Option<Result<Intent, Decline>> {
    if let Some(page_check) = accessibility::shape(t).or_else(|| visual::shape(t)) {
        return Some(page_check);
    }
    if let Some(form) = form_shape(t, shape) {
        return Some(form);
    }
    ACTIONS
        .iter()
        .find_map(|action| (action.read)(t, verb(t, action.verbs)?))
        .or_else(|| assertion(t))
}

/// `open /todos`, `go to Completed`: a page, or (after `go to`) a view of the app reached by its
/// link, tab or button.
fn go_to(t: &[Tok], rest: &[Tok]) -> Option<Result<Intent, Decline>> {
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
    target(skip(rest, &["on"])).map(|target| Intent::Click { target, double })
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
    const HOME: &[&[&str]] = &[
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
    if HOME.iter().any(|words| words_are(rest, words)) {
        return Ok(Intent::Open(None));
    }
    Err(Decline::new(
        "the built-in generator opens the app (`/`), a path or a URL; write which one: `open \
         /login.html`",
    ))
}

/// `press KEY [in|on X]`, when what follows `press` is a key.
fn press(rest: &[Tok]) -> Option<Result<Intent, Decline>> {
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
fn fill(value: &[Tok], rest: &[Tok]) -> Result<Intent, Decline> {
    // A number needs no quotes: `enter 34 as the age`.
    let value = match value {
        [Tok::Word(w, orig)] if w.parse::<f64>().is_ok() => Literal(orig.clone()),
        _ => literal(value)?,
    };
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
    use crate::writer::builtin::intent::Target;

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
                value: Literal("${NAME}".into()),
                target: Target {
                    name: None,
                    quoted: false,
                    kind: Some(Kind::Field),
                    scope: None,
                    phrase: "field".into(),
                    nth: None
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
            "wait for the spinner to go away",
            "type \"a\" into the field and click \"Add\"",
        ] {
            assert!(parse(sentence, &[]).is_err(), "{sentence:?}");
        }
    }
}
