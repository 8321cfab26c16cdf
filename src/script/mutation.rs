//! Mutations of the live page that contradict what a check claims: hide or remove what it
//! reads, add or remove one element of a counted set, flip a state, change a text to a near
//! miss, the title or the URL. Each is applied in the browser and undone exactly (the page's
//! own nodes go back where they were).
//!
//! Main type: [`Mutation`]; [`apply`] and [`restore`] run `mutation.js` on the page's main
//! frame. Which mutations a check gets is decided in `step/proof.rs`.

use playwright_rs::protocol::Frame;
use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};

use crate::cache::MutationKind;
use crate::script::driver_error::HostError;

/// The page function that applies and undoes mutations.
const MUTATION_JS: &str = include_str!("mutation.js");

/// How a near miss changes a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TextEdit {
    /// `with` goes before the text ("3 items left" → "13 items left").
    Prefix(String),
    /// `with` goes after the text ("buy milk" → "buy milkx").
    Suffix(String),
    /// The character at `at` (a char index into the text) becomes `with` ("3" → "4").
    Replace { at: usize, with: char },
    /// The text's letters change case: all capitals, or all small letters for a text in
    /// capitals ("Signed out" → "SIGNED OUT"). Only where the text keeps its length.
    Case,
    /// A word is added after the text, where the text is an element's whole text ("buy milk"
    /// → "buy milk x"): a check of the whole text notices, a check of words in it does not.
    Words(String),
}

impl TextEdit {
    /// The text in the other case, or `None` when switching case changes nothing or changes
    /// its length.
    pub(crate) fn switched_case(text: &str) -> Option<String> {
        let upper = text.to_uppercase();
        let switched = if upper != text {
            upper
        } else {
            text.to_lowercase()
        };
        let same_length = switched.encode_utf16().count() == text.encode_utf16().count();
        (switched != text && same_length).then_some(switched)
    }
}

/// How a proof changes what a read request answered, so that a check of the response must
/// notice: its status becomes another of the same class (`200` → `201`: `toBeOK()` still
/// passes, an exact status check does not), or a quoted text becomes a near miss wherever it
/// is in a JSON string value (or in the text of a body that is not JSON).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ResponseEdit {
    Status { from: u16, to: u16 },
    Text { needle: String, edit: TextEdit },
}

impl ResponseEdit {
    /// Another status of the same class as `status`.
    pub(crate) fn other_status(status: u16) -> u16 {
        if status.is_multiple_of(100) {
            status + 1
        } else {
            status - 1
        }
    }
}

/// One change of the page that a check of a sentence must notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mutation {
    /// Every element the selector matches is hidden (`display: none`).
    Hide(String),
    /// Every element the selector matches is taken out of the page.
    Remove(String),
    /// A copy of the last element the selector matches is added after it.
    AddOne(String),
    /// Something else is added beside what the selector matches: a copy of the last item of
    /// a matched list, or of the last matched element, holding another text. A check that
    /// only the named things are there notices.
    AddSibling(String),
    /// The first element the selector matches moves among its siblings of the same kind (to
    /// the end, or to the start when it is not first): a check of a position notices.
    Reorder(String),
    /// The last element the selector matches is taken out of the page.
    RemoveOne(String),
    /// Checkboxes, radios and `aria-checked` elements the selector matches are flipped.
    FlipChecked(String),
    /// Elements the selector matches become disabled if enabled, enabled if disabled.
    FlipDisabled(String),
    /// Every occurrence of `needle` (whitespace collapsed) in the page's text, `<title>`,
    /// placeholders, labels, titles, alt texts and input values, or only inside the elements of
    /// `scope`, is changed by `edit`. A `whole` needle only counts where no letter or digit
    /// touches it.
    Text {
        needle: String,
        edit: TextEdit,
        scope: Option<String>,
        whole: bool,
    },
    /// The document's title becomes the given one.
    Title(String),
    /// The page's URL becomes the given one (same origin, through the history API: nothing
    /// loads).
    Url(String),
    /// What read requests of step code answer is changed (the page is not): see
    /// [`ResponseEdit`].
    Response(ResponseEdit),
}

impl Mutation {
    /// The selector whose elements the mutation changes, if it changes elements.
    fn selector(&self) -> Option<&str> {
        match self {
            Mutation::Hide(s)
            | Mutation::Remove(s)
            | Mutation::AddOne(s)
            | Mutation::AddSibling(s)
            | Mutation::Reorder(s)
            | Mutation::RemoveOne(s)
            | Mutation::FlipChecked(s)
            | Mutation::FlipDisabled(s) => Some(s),
            Mutation::Text { scope, .. } => scope.as_deref(),
            Mutation::Title(_) | Mutation::Url(_) | Mutation::Response(_) => None,
        }
    }

    /// The quoted text the mutation changes, for a text mutation of the page or a response.
    pub(crate) fn needle(&self) -> Option<&str> {
        match self {
            Mutation::Text { needle, .. }
            | Mutation::Response(ResponseEdit::Text { needle, .. }) => Some(needle),
            _ => None,
        }
    }

    /// The mutation as `mutation.js` reads it.
    fn spec(&self) -> Value {
        match self {
            Mutation::Hide(_) => json!({ "kind": "hide" }),
            Mutation::Remove(_) => json!({ "kind": "remove" }),
            Mutation::AddOne(_) => json!({ "kind": "add-one" }),
            Mutation::AddSibling(_) => json!({ "kind": "add-sibling", "with": SIBLING_TEXT }),
            Mutation::Reorder(_) => json!({ "kind": "reorder" }),
            Mutation::RemoveOne(_) => json!({ "kind": "remove-one" }),
            Mutation::FlipChecked(_) => json!({ "kind": "flip-checked" }),
            Mutation::FlipDisabled(_) => json!({ "kind": "flip-disabled" }),
            Mutation::Text {
                needle,
                edit,
                whole,
                ..
            } => {
                // JavaScript indexes strings by UTF-16 units, the edit by chars.
                let (edit, with, at) = match edit {
                    TextEdit::Prefix(with) => ("prefix", with.clone(), 0),
                    TextEdit::Suffix(with) => ("suffix", with.clone(), 0),
                    TextEdit::Replace { at, with } => {
                        let units: usize = needle.chars().take(*at).map(char::len_utf16).sum();
                        ("replace", with.to_string(), units)
                    }
                    TextEdit::Case => ("swap", Mutation::near_miss(needle, edit), 0),
                    TextEdit::Words(with) => ("words", format!(" {with}"), 0),
                };
                json!({ "kind": "text", "needle": needle, "edit": edit, "with": with, "at": at, "whole": whole })
            }
            Mutation::Title(with) => json!({ "kind": "title", "with": with }),
            Mutation::Url(with) => json!({ "kind": "url", "with": with }),
            // The binding applies it to the responses itself; nothing runs in the page.
            Mutation::Response(_) => Value::Null,
        }
    }

    /// The text as the near miss makes it read (for a text mutation).
    pub(crate) fn near_miss(needle: &str, edit: &TextEdit) -> String {
        match edit {
            TextEdit::Prefix(with) => format!("{with}{needle}"),
            TextEdit::Suffix(with) => format!("{needle}{with}"),
            TextEdit::Replace { at, with } => needle
                .chars()
                .enumerate()
                .map(|(i, c)| if i == *at { *with } else { c })
                .collect(),
            TextEdit::Case => TextEdit::switched_case(needle).unwrap_or_else(|| needle.to_owned()),
            TextEdit::Words(with) => format!("{needle} {with}"),
        }
    }

    /// What the mutation does to the page, as a clause for messages ("the page reads "13 items
    /// left" instead of "3 items left"").
    pub(crate) fn describe(&self) -> String {
        match self {
            Mutation::Hide(s) => format!("the element it reads is hidden ({})", short(s)),
            Mutation::Remove(s) => format!("the element it reads is removed ({})", short(s)),
            Mutation::AddOne(s) => format!("one more element matches ({})", short(s)),
            Mutation::AddSibling(s) => {
                format!(
                    "something else is listed beside what it reads ({})",
                    short(s)
                )
            }
            Mutation::Reorder(s) => format!(
                "the element it reads moves to another position among its siblings ({})",
                short(s)
            ),
            Mutation::RemoveOne(s) => format!("one element fewer matches ({})", short(s)),
            Mutation::FlipChecked(s) => format!("the checked state is flipped ({})", short(s)),
            Mutation::FlipDisabled(s) => format!("the enabled state is flipped ({})", short(s)),
            Mutation::Text {
                needle,
                edit,
                scope,
                ..
            } => {
                let place = match scope {
                    Some(s) => format!("the element it reads ({})", short(s)),
                    None => "the page".to_owned(),
                };
                format!(
                    "{place} reads {:?} instead of {needle:?}",
                    Mutation::near_miss(needle, edit)
                )
            }
            Mutation::Title(with) => format!("the title is {with:?}"),
            Mutation::Url(with) => format!("the URL is {with}"),
            Mutation::Response(ResponseEdit::Status { from, to }) => {
                format!("the request answers HTTP {to} instead of {from}")
            }
            Mutation::Response(ResponseEdit::Text { needle, edit }) => format!(
                "the response reads {:?} instead of {needle:?}",
                Mutation::near_miss(needle, edit)
            ),
        }
    }

    /// A short name of the kind of mutation, as cache entries and reports record it.
    pub(crate) fn kind(&self) -> MutationKind {
        match self {
            Mutation::Hide(_) => MutationKind::Hidden,
            Mutation::Remove(_) => MutationKind::Removed,
            Mutation::AddOne(_) => MutationKind::OneMore,
            Mutation::AddSibling(_) => MutationKind::OtherAdded,
            Mutation::Reorder(_) => MutationKind::Reordered,
            Mutation::RemoveOne(_) => MutationKind::OneFewer,
            Mutation::FlipChecked(_) => MutationKind::CheckedFlipped,
            Mutation::FlipDisabled(_) => MutationKind::EnabledFlipped,
            Mutation::Text {
                edit: TextEdit::Case,
                ..
            } => MutationKind::CaseChanged,
            Mutation::Text {
                edit: TextEdit::Words(_),
                ..
            } => MutationKind::WordAdded,
            Mutation::Text { edit, scope, .. } => match (edit, scope) {
                (TextEdit::Prefix(_), None) => MutationKind::TextPrefixed,
                (TextEdit::Suffix(_), None) => MutationKind::TextSuffixed,
                (TextEdit::Replace { .. }, None) => MutationKind::TextChanged,
                (TextEdit::Prefix(_), Some(_)) => MutationKind::NumberPrefixed,
                (TextEdit::Suffix(_), Some(_)) => MutationKind::NumberSuffixed,
                (TextEdit::Replace { .. }, Some(_)) => MutationKind::NumberChanged,
                (TextEdit::Case | TextEdit::Words(_), _) => MutationKind::TextChanged,
            },
            Mutation::Title(_) => MutationKind::TitleChanged,
            Mutation::Url(_) => MutationKind::UrlChanged,
            Mutation::Response(ResponseEdit::Status { .. }) => MutationKind::StatusChanged,
            Mutation::Response(ResponseEdit::Text { edit, .. }) => match edit {
                TextEdit::Prefix(_) => MutationKind::ResponsePrefixed,
                TextEdit::Suffix(_) => MutationKind::ResponseSuffixed,
                TextEdit::Replace { .. } | TextEdit::Case | TextEdit::Words(_) => {
                    MutationKind::ResponseChanged
                }
            },
        }
    }
}

/// The text of the extra element [`Mutation::AddSibling`] adds.
const SIBLING_TEXT: &str = "prettyplay mutation proof";

/// A selector cut for messages: Playwright's internal selectors can be long.
fn short(selector: &str) -> String {
    const MAX: usize = 80;
    if selector.chars().count() <= MAX {
        return selector.to_owned();
    }
    let cut: String = selector.chars().take(MAX).collect();
    format!("{cut}…")
}

/// The argument of a page function: one string, serialised as Playwright's protocol expects.
fn string_arg(text: &str) -> Value {
    json!({ "value": { "s": text }, "handles": [] })
}

/// The number a page function returned, from Playwright's serialised value.
fn number_of(reply: &Value) -> u64 {
    reply["value"]["n"]
        .as_f64()
        .map_or(0, |n| n.max(0.0) as u64)
}

/// Runs `mutation.js` with `spec` on the elements of `selector` (or the document).
async fn run(frame: &Frame, selector: Option<&str>, spec: &Value) -> Result<u64, HostError> {
    let arg = string_arg(&spec.to_string());
    let reply: Value = match selector {
        Some(selector) => {
            frame
                .channel()
                .send(
                    "evalOnSelectorAll",
                    json!({ "selector": selector, "expression": MUTATION_JS, "isFunction": true, "arg": arg }),
                )
                .await
        }
        None => {
            frame
                .channel()
                .send(
                    "evaluateExpression",
                    json!({ "expression": format!("(json) => ({MUTATION_JS})(null, json)"), "isFunction": true, "arg": arg }),
                )
                .await
        }
    }
    .map_err(|err| HostError::from_playwright(err, false))?;
    Ok(number_of(&reply))
}

/// Applies `mutation` to the page; answers how many places it changed (0: it does not apply
/// to this page).
pub(crate) async fn apply(frame: &Frame, mutation: &Mutation) -> Result<u64, HostError> {
    if matches!(mutation, Mutation::Response(_)) {
        return Ok(0);
    }
    let selector = mutation.selector();
    let Some(selector) = selector else {
        return run(frame, None, &mutation.spec()).await;
    };
    let before = count(frame, selector).await?;
    if before == 0 {
        return Ok(0);
    }
    let changed = run(frame, Some(selector), &mutation.spec()).await?;
    // A copy the selector does not match (it counts by position or by something the copy
    // lacks) changes nothing the check counts: the mutation does not apply.
    let expected = match mutation {
        Mutation::AddOne(_) => Some(before + 1),
        Mutation::RemoveOne(_) => Some(before - 1),
        _ => None,
    };
    if let Some(expected) = expected
        && count(frame, selector).await? != expected
    {
        return Ok(0);
    }
    Ok(changed)
}

/// Undoes every mutation applied to the page, last first; answers how many changes it undid.
pub(crate) async fn restore(frame: &Frame) -> Result<u64, HostError> {
    run(frame, None, &json!({ "kind": "restore" })).await
}

/// How many of the changes applied since the last restore the page no longer shows: the app
/// undid them (a render from state) or replaced the nodes they were made on.
pub(crate) async fn undone(frame: &Frame) -> Result<u64, HostError> {
    run(frame, None, &json!({ "kind": "held" })).await
}

/// Whether `text` is anywhere in the page: its markup (texts and attributes), its fields'
/// values, its title or its URL.
pub(crate) async fn shows(frame: &Frame, text: &str) -> Result<bool, HostError> {
    Ok(run(frame, None, &json!({ "kind": "find", "needle": text })).await? > 0)
}

/// How many elements `selector` matches now.
pub(crate) async fn count(frame: &Frame, selector: &str) -> Result<u64, HostError> {
    let reply: Value = frame
        .channel()
        .send("queryCount", json!({ "selector": selector }))
        .await
        .map_err(|err| HostError::from_playwright(err, false))?;
    Ok(reply["value"].as_f64().map_or(0, |n| n.max(0.0) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(needle: &str, edit: TextEdit) -> Mutation {
        Mutation::Text {
            needle: needle.to_owned(),
            edit,
            scope: None,
            whole: false,
        }
    }

    #[test]
    fn near_misses_read_as_the_page_will() {
        assert_eq!(
            Mutation::near_miss("3 items left", &TextEdit::Prefix("1".into())),
            "13 items left"
        );
        assert_eq!(
            Mutation::near_miss("buy milk", &TextEdit::Suffix("x".into())),
            "buy milkx"
        );
        assert_eq!(
            Mutation::near_miss("3 items left", &TextEdit::Replace { at: 0, with: '4' }),
            "4 items left"
        );
        assert_eq!(
            text("3 items left", TextEdit::Prefix("1".into())).describe(),
            "the page reads \"13 items left\" instead of \"3 items left\""
        );
    }

    #[test]
    fn a_replacement_is_placed_in_utf16_units_as_javascript_counts() {
        let spec = text("😀a1", TextEdit::Replace { at: 2, with: '2' }).spec();
        assert_eq!(spec["at"], json!(3));
        assert_eq!(spec["edit"], json!("replace"));
        assert_eq!(spec["with"], json!("2"));
    }

    #[test]
    fn long_selectors_are_cut_in_messages() {
        let long = format!("internal:text=\"{}\"i", "a".repeat(200));
        let described = Mutation::Hide(long).describe();
        assert!(described.ends_with("…)"), "{described}");
        assert!(described.chars().count() < 140);
    }
}
