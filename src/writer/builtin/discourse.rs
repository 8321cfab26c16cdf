//! Discourse memory: what the earlier steps of a test introduced or acted on (the items added,
//! in order; the item last acted on; the text typed and not yet submitted; the field just
//! used), read from their sentences and the code they passed with, so that a step that refers
//! back ("the todo appears in the list", "all three todos are visible", "the input field is
//! focused") is read as the exact check it means. A reference that does not resolve declines
//! naming what it could have meant; nothing is guessed.
//!
//! Main type: [`Discourse`], built by [`Discourse::of`] and read by [`Discourse::read_words`].

use std::sync::LazyLock;

use regex::Regex;

use crate::writer::builtin::element_step::{Check, ElementStep, Subject};
use crate::writer::builtin::intent::Decline;
pub(crate) use crate::writer::builtin::part::Part;
pub(crate) use crate::writer::builtin::quoting::quoted;
use crate::writer::builtin::quoting::{listed, quoted_list, unescape};
use crate::writer::builtin::tokens::{Tok, normalize, tokenize};
use crate::writer::builtin::vocabulary::SAYS_WHAT_IS;

/// The entities the earlier steps of one test introduced or acted on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Discourse {
    /// The items added and still there, in the order they were added.
    added: Vec<String>,
    /// The added items marked complete.
    completed: Vec<String>,
    /// The item an action last named.
    last_item: Option<String>,
    /// Text typed into the new-item field and not yet submitted.
    typed: Option<String>,
    /// The locator of the field the last action used; `None` when the last action was on
    /// something else (a double-click opens another field the code does not name).
    field: Option<String>,
    /// The last edit of an item in place: its text before, and the text typed into its editor.
    edit: Option<(String, String)>,
    /// Whether an action may have changed items' states without naming them (a click of a
    /// checkbox, which toggles, or of a toggle-all control), so `completed` may be stale.
    states_unsure: bool,
    /// The item the last sentence deleted, when it deleted one.
    just_deleted: Option<String>,
    /// Whether an earlier step reloaded the page and no act came after the reload, so that a
    /// claim said to hold `after reload` is checked after one.
    reloaded: bool,
}

/// The text of each part, as the readers' unit tests compare them: a sentence as it is, a
/// step as the lines of its code.
#[cfg(test)]
pub(crate) fn texts(parts: Vec<Part>) -> Vec<String> {
    parts
        .into_iter()
        .flat_map(|part| match part {
            Part::Sentence(s) | Part::Revealed(s) => vec![s],
            Part::Step(step) => crate::writer::builtin::element_code::element_lines(&step),
        })
        .collect()
}

/// Who a noun phrase refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reference {
    /// `the todo`, `the new todo`, `it`.
    The,
    /// `both todos`.
    Both,
    /// `all todos`, `all three todos`, `the three todos`.
    All(Option<usize>),
    /// `two todos` (a count, not all of them).
    Count(usize),
    /// `the other one`.
    Other,
    /// `the remaining todo`.
    Remaining,
}

/// What is said of the items referred to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Predicate {
    Listed,
    Completed,
    Active,
}

/// The nouns that name an item of the list.
const ITEM_NOUNS: &[&str] = &[
    "todo", "todos", "item", "items", "task", "tasks", "entry", "entries",
];

/// The number words a quantifier may use.
const NUMBERS: &[&str] = &[
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];

/// An action in step code: its locator and method (the arguments follow).
static ACTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"await\s+((?:page\.|\w+\b)[^;]*?)\.(fill|click|dblclick|press|check|uncheck|hover|clear|pressSequentially|type)\((.*)\);",
    )
    .unwrap_or_else(|_| unreachable!("a constant pattern"))
});

/// A reload of the page in step code.
static RELOAD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"await\s+page\.reload\(").unwrap_or_else(|_| unreachable!("a constant pattern"))
});

/// A locator bound to a name: `const field = page.getByRole(...);`.
static BINDING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:const|let|var)\s+(\w+)\s*=\s*(page\.[^;]*);")
        .unwrap_or_else(|_| unreachable!("a constant pattern"))
});

/// The first JavaScript string literal of an argument list.
static STRING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")"#)
        .unwrap_or_else(|_| unreachable!("a constant pattern"))
});

/// A locator of a field: a textbox, a search box, a number field, or one found by its label,
/// placeholder or an `input`/`textarea` selector,
/// outside any list item (a field inside an item edits it).
static FIELD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^page\.(getByRole\('(textbox|searchbox|combobox|spinbutton)'|getByPlaceholder\(|getByLabel\(|locator\('(input|textarea)\b)",
    )
    .unwrap_or_else(|_| unreachable!("a constant pattern"))
});

/// A locator inside a list item or the focused element: an item's own editor.
static IN_ITEM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"listitem|:focus|\.editing|\.edit\b")
        .unwrap_or_else(|_| unreachable!("a constant pattern"))
});

/// A locator of a control whose click toggles items' states: a checkbox (a click flips it,
/// so the state after depends on the state before) or a toggle-all control.
static TOGGLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"checkbox|toggle").unwrap_or_else(|_| unreachable!("a constant pattern"))
});

impl Discourse {
    /// The discourse of a test after the steps with `sentences` and the `code` they passed with
    /// (background steps first), in order.
    pub(crate) fn of(sentences: &[String], code: &[String]) -> Discourse {
        let mut discourse = Discourse::default();
        if sentences.len() == code.len() {
            for (sentence, code) in sentences.iter().zip(code) {
                discourse.act_out(code);
                discourse.hear(sentence);
            }
            return discourse;
        }
        // Without a sentence for each step's code, what the words say comes after all the
        // code did, which is still right for a test that deletes nothing.
        for code in code {
            discourse.act_out(code);
        }
        for sentence in sentences {
            discourse.hear(sentence);
        }
        discourse
    }

    /// What the actions of `code` did.
    fn act_out(&mut self, code: &str) {
        let mut bound: Vec<(String, String)> = Vec::new();
        for line in code.lines() {
            if RELOAD.is_match(line) {
                self.reloaded = true;
            }
            if let Some(binding) = BINDING.captures(line) {
                bound.retain(|(name, _)| *name != binding[1]);
                bound.push((binding[1].to_owned(), binding[2].to_owned()));
                continue;
            }
            if let Some(found) = ACTION.captures(line) {
                // An act after the reload may change what a later claim `after reload` is
                // about, so that claim no longer says what the reload kept.
                self.reloaded = false;
                let (head, tail) = found[1].split_once('.').unwrap_or((&found[1], ""));
                let locator = match bound.iter().find(|(name, _)| name == head) {
                    Some((_, locator)) if tail.is_empty() => locator.clone(),
                    Some((_, locator)) => format!("{locator}.{tail}"),
                    None => found[1].to_owned(),
                };
                self.act(locator, &found[2], &found[3]);
            }
        }
    }

    /// What one action did: `method` on `locator` with the arguments `args`.
    fn act(&mut self, locator: String, method: &str, args: &str) {
        {
            let value = STRING
                .captures(args)
                .map(|s| unescape(s.get(1).or_else(|| s.get(2)).map_or("", |m| m.as_str())));
            let keyboard = locator == "page.keyboard";
            let new_item_field = FIELD.is_match(&locator) && !IN_ITEM.is_match(&locator);
            let by_input_selector = FIELD
                .captures(&locator)
                .and_then(|c| c.get(3))
                .is_some_and(|tag| tag.as_str() == "input");
            let named = self.item_in(&locator);
            match method {
                "fill" | "type" | "pressSequentially" if new_item_field => {
                    self.typed = value;
                    self.field = Some(locator);
                }
                "fill" | "type" | "pressSequentially" => {
                    // An item's editor: its new text replaces the item's.
                    if let (Some(old), Some(new)) = (self.last_item.clone(), value) {
                        self.edit = Some((old.clone(), new.clone()));
                        // An editor emptied holds no new name: the item is still the one it
                        // was ("the todo is deleted" names its old text, never "").
                        if !new.is_empty() {
                            self.rename(&old, new);
                        }
                    }
                    self.field = None;
                }
                "press" if value.as_deref() == Some("Enter") && (new_item_field || keyboard) => {
                    if let Some(typed) = self.typed.take() {
                        self.added.push(typed.clone());
                        self.last_item = Some(typed);
                    }
                }
                "press" => {}
                "check" | "uncheck" => {
                    if let Some(item) = named {
                        self.completed.retain(|c| *c != item);
                        if method == "check" {
                            self.completed.push(item.clone());
                        }
                        self.last_item = Some(item);
                    } else {
                        // No item the test knows (toggle-all): which ones changed is unknown.
                        self.states_unsure = true;
                    }
                    self.field = None;
                }
                "click" | "dblclick" if TOGGLE.is_match(&locator) => {
                    self.states_unsure = true;
                    if let Some(item) = named {
                        self.last_item = Some(item);
                    }
                    self.field = None;
                }
                // An `input` selector may find a button: only typing or clearing uses a field.
                _ if new_item_field && (method == "clear" || !by_input_selector) => {
                    self.field = Some(locator);
                }
                _ => {
                    if let Some(item) = named {
                        self.last_item = Some(item);
                    }
                    self.field = None;
                }
            }
        }
    }

    /// What the words of an earlier `sentence` say was done beyond its code: items deleted
    /// or cleared.
    fn hear(&mut self, sentence: &str) {
        self.just_deleted = None;
        let toks = normalize(tokenize(sentence, &[]));
        // A sentence that says what the page shows deletes nothing, whatever it names (`a
        // delete button appears`, `the "Clear completed" button is shown`).
        if toks.iter().any(|t| SAYS_WHAT_IS.iter().any(|w| t.is(w))) {
            return;
        }
        // Quoted words count: `click "Clear completed"` says clear.
        let words: Vec<String> = toks
            .iter()
            .flat_map(|t| match t {
                Tok::Word(w, _) => vec![w.clone()],
                Tok::Lit(text) => text.split_whitespace().map(str::to_lowercase).collect(),
            })
            .collect();
        let says = |word: &str| words.iter().any(|w| w == word);
        if says("clear") && says("completed") && !says("not") {
            let completed = std::mem::take(&mut self.completed);
            self.added.retain(|item| !completed.contains(item));
        }
        // A quoted text is a name (`add "Task to delete"`), never the verb.
        let verb = |word: &str| toks.iter().any(|t| t.is(word));
        if verb("delete") || verb("remove") {
            let named: Vec<String> = toks
                .iter()
                .filter_map(|t| match t {
                    Tok::Lit(text) if self.added.contains(text) => Some(text.clone()),
                    _ => None,
                })
                .collect();
            let gone = if named.is_empty() {
                self.last_item.clone().into_iter().collect()
            } else {
                named
            };
            self.added.retain(|item| !gone.contains(item));
            self.completed.retain(|item| !gone.contains(item));
            if let [one] = gone.as_slice() {
                self.just_deleted = Some(one.clone());
            }
        }
    }

    /// The added item whose text the locator quotes, if one does.
    fn item_in(&self, locator: &str) -> Option<String> {
        self.added
            .iter()
            .rev()
            .find(|item| {
                locator.contains(&format!("'{}'", item.replace('\'', "\\'")))
                    || locator.contains(&format!("\"{item}\""))
            })
            .cloned()
    }

    fn rename(&mut self, old: &str, new: String) {
        for item in self.added.iter_mut().chain(self.completed.iter_mut()) {
            if item == old {
                *item = new.clone();
            }
        }
        self.last_item = Some(new);
    }

    /// Whether an earlier step reloaded the page.
    pub(crate) fn reloaded(&self) -> bool {
        self.reloaded
    }

    /// The items added and still there, in the order they were added.
    pub(crate) fn items(&self) -> &[String] {
        &self.added
    }

    /// The added items marked complete, or why the test's memory cannot tell: an earlier
    /// action clicked a checkbox or toggle-all control, whose result depends on the state
    /// before it.
    pub(crate) fn completed(&self) -> Result<&[String], Decline> {
        if self.states_unsure {
            return Err(Decline::new(
                "an earlier step of this test clicked a checkbox or a toggle-all control, so \
                 which items are complete depends on the page; name the items in quotes",
            ));
        }
        Ok(&self.completed)
    }

    /// The last edit of an item in place: the item's text before it, and the text typed into
    /// its editor.
    pub(crate) fn edit(&self) -> Option<(&str, &str)> {
        self.edit
            .as_ref()
            .map(|(before, typed)| (before.as_str(), typed.as_str()))
    }

    /// The locator of the field the last action used, if it used one.
    pub(crate) fn field(&self) -> Option<&str> {
        self.field.as_deref()
    }

    /// The text typed into the new-item field and not yet submitted.
    pub(crate) fn typed(&self) -> Option<&str> {
        self.typed.as_deref()
    }

    /// The one item the step before deleted: what `the todo` means in a claim that it is
    /// gone, right after its delete.
    pub(crate) fn just_removed(&self) -> Option<&str> {
        self.just_deleted.as_deref()
    }

    /// The one item `the todo` or `it` means, or why no single one.
    pub(crate) fn the_item(&self) -> Result<String, Decline> {
        self.resolve(Reference::The)
            .map(|mut items| items.remove(0))
    }

    /// Whom `reference` means.
    fn resolve(&self, reference: Reference) -> Result<Vec<String>, Decline> {
        let added = || listed(&self.added);
        match reference {
            Reference::The => match (&self.last_item, self.added.as_slice()) {
                (Some(item), _) if self.added.contains(item) => Ok(vec![item.clone()]),
                (_, [only]) => Ok(vec![only.clone()]),
                (_, []) => Err(Decline::new(
                    "the sentence refers to an item no earlier step of this test added or acted \
                     on; name it in quotes",
                )),
                _ => Err(Decline::new(format!(
                    "the sentence refers to one item, and it could be any of {}; name it in quotes",
                    added()
                ))),
            },
            Reference::Both | Reference::All(Some(_)) => {
                let wanted = match reference {
                    Reference::All(Some(n)) => n,
                    _ => 2,
                };
                if self.added.len() == wanted {
                    Ok(self.added.clone())
                } else {
                    Err(Decline::new(format!(
                        "the sentence refers to {wanted} items, and the earlier steps of this \
                         test added {} ({}); name them in quotes",
                        self.added.len(),
                        added()
                    )))
                }
            }
            Reference::All(None) | Reference::Count(_) if self.added.is_empty() => Err(
                Decline::new("the sentence refers to items no earlier step of this test added"),
            ),
            Reference::All(None) | Reference::Count(_) => Ok(self.added.clone()),
            Reference::Other => match (&self.last_item, self.added.as_slice()) {
                (Some(last), [a, b]) if a == last || b == last => {
                    Ok(vec![if a == last { b.clone() } else { a.clone() }])
                }
                _ => Err(Decline::new(format!(
                    "\"the other one\" means the one of two items that was not just acted on; \
                     the earlier steps of this test added {}",
                    added()
                ))),
            },
            Reference::Remaining => match self.added.as_slice() {
                [only] => Ok(vec![only.clone()]),
                _ => Err(Decline::new(format!(
                    "\"the remaining\" item must be the one item left; the earlier steps of \
                     this test leave {}",
                    added()
                ))),
            },
        }
    }

    /// [`Discourse::read_words`] of `sentence`.
    pub(crate) fn read(
        &self,
        sentence: &str,
        columns: &[String],
    ) -> Option<Result<Vec<Part>, Decline>> {
        self.read_words(&normalize(tokenize(sentence, columns)))
    }

    /// What a sentence, as its normalized words `toks`, means when it refers back: the parts
    /// of its step, or why it cannot be read; `None` when it refers to nothing earlier steps
    /// did.
    pub(crate) fn read_words(&self, toks: &[Tok]) -> Option<Result<Vec<Part>, Decline>> {
        let toks = toks.to_vec();
        if let Some(parts) = self.read_field(&toks) {
            return Some(parts);
        }
        let (reference, named, rest) = noun_phrase(&toks)?;
        let predicates = predicates(rest)?;
        let items = match named {
            Some(item) => vec![item],
            None => match self.resolve(reference) {
                Ok(items) => items,
                Err(decline) => return Some(Err(decline)),
            },
        };
        if items.iter().any(|item| quoted(item).is_none()) {
            return Some(Err(Decline::new(
                "an item the sentence refers to holds every kind of quote, so no sentence can                  name it",
            )));
        }
        let mut parts = Vec::new();
        for predicate in predicates {
            match (predicate, reference) {
                (Predicate::Listed, Reference::Both | Reference::All(_)) => {
                    parts.push(Part::Sentence(format!(
                        "the list is exactly {}",
                        quoted_list(&items)
                    )));
                }
                (Predicate::Completed | Predicate::Active, Reference::Count(n)) => {
                    // `two todos are marked as complete`: exactly the ones completed.
                    let (on, off) = split_by(&items, &self.completed, predicate);
                    if on.len() != n {
                        return Some(Err(Decline::new(format!(
                            "the sentence counts {n}, and the earlier steps of this test leave \
                             {} of them so ({})",
                            on.len(),
                            listed(&on)
                        ))));
                    }
                    for (item, is) in on
                        .iter()
                        .map(|i| (i, predicate))
                        .chain(off.iter().map(|i| (i, opposite(predicate))))
                    {
                        parts.push(Part::Sentence(state_of(item, is)));
                    }
                }
                (Predicate::Listed, Reference::Count(n)) if n == items.len() => {
                    parts.push(Part::Sentence(format!(
                        "the list is exactly {}",
                        quoted_list(&items)
                    )));
                }
                (Predicate::Listed, Reference::Count(_)) => return None,
                (Predicate::Listed, _) => {
                    for item in &items {
                        parts.push(Part::Sentence(format!(
                            "{} appears in the list",
                            quoted(item).unwrap_or_default()
                        )));
                    }
                }
                (predicate, _) => {
                    for item in &items {
                        parts.push(Part::Sentence(state_of(item, predicate)));
                    }
                }
            }
        }
        Some(Ok(parts))
    }

    /// `the input field is focused`, `the text appears in the input field`: the field the last
    /// action used, and the text typed into it.
    fn read_field(&self, toks: &[Tok]) -> Option<Result<Vec<Part>, Decline>> {
        let words: Vec<&str> = toks
            .iter()
            .map(|t| match t {
                Tok::Word(w, _) => w.as_str(),
                Tok::Lit(_) => "\"",
            })
            .collect();
        let field_noun = |w: &&str| matches!(*w, "field" | "input" | "textbox" | "box");
        let focused = matches!(
            words.as_slice(),
            ["the", .., "is", "focused"] | ["the", .., "has", "focus"]
        ) && words[1..words.len() - 2].iter().any(field_noun)
            && words[1..words.len() - 2]
                .iter()
                .all(|w| field_noun(w) || matches!(*w, "input" | "text" | "new" | "todo"));
        let text_in = matches!(
            words.as_slice(),
            ["the", "text", "appears" | "is" | "shows", "in", "the", ..]
        ) && words.last().is_some_and(field_noun);
        if !focused && !text_in {
            return None;
        }
        let Some(field) = &self.field else {
            return Some(Err(Decline::new(
                "the sentence refers to the field just used, and the step before it used no \
                 field this step can name (write the field's name in quotes)",
            )));
        };
        if focused {
            return Some(Ok(vec![Part::Step(ElementStep::claim(
                Subject::Located(field.clone()),
                Check::Focused,
                false,
            ))]));
        }
        let Some(typed) = &self.typed else {
            return Some(Err(Decline::new(
                "the sentence refers to the text typed, and no earlier step typed text that is \
                 still in the field",
            )));
        };
        Some(Ok(vec![Part::Step(ElementStep::claim(
            Subject::Located(field.clone()),
            Check::Value(typed.clone()),
            false,
        ))]))
    }
}

/// The noun phrase that starts `toks`: whom it refers to, the item it names in quotes (`the
/// new todo "milk"`), and the words after it. `None` when the sentence starts with none.
fn noun_phrase(toks: &[Tok]) -> Option<(Reference, Option<String>, &[Tok])> {
    let word = |at: usize| match toks.get(at) {
        Some(Tok::Word(w, _)) => Some(w.as_str()),
        _ => None,
    };
    let noun = |at: usize| word(at).is_some_and(|w| ITEM_NOUNS.contains(&w));
    let number = |at: usize| {
        word(at).and_then(|w| {
            NUMBERS
                .iter()
                .position(|n| *n == w)
                .or_else(|| w.parse::<usize>().ok())
        })
    };
    let mut at;
    let reference = match word(0)? {
        "it" => {
            at = 1;
            Reference::The
        }
        "both" => {
            at = 1 + usize::from(word(1) == Some("the"));
            Reference::Both
        }
        "all" => {
            at = 1 + usize::from(word(1) == Some("the"));
            match number(at) {
                Some(n) => {
                    at += 1;
                    Reference::All(Some(n))
                }
                None => Reference::All(None),
            }
        }
        "the" if word(1) == Some("other") => {
            at = 2;
            if word(at) == Some("one") {
                return Some((Reference::Other, None, &toks[at + 1..]));
            }
            Reference::Other
        }
        "the" if word(1) == Some("remaining") => {
            at = 2;
            if word(at) == Some("one") {
                return Some((Reference::Remaining, None, &toks[at + 1..]));
            }
            Reference::Remaining
        }
        "the" if number(1).is_some_and(|n| n > 1) => {
            at = 2;
            Reference::All(number(1))
        }
        "the" => {
            at = 1;
            while matches!(word(at), Some("new" | "added" | "same" | "single")) {
                at += 1;
            }
            Reference::The
        }
        _ => match number(0) {
            Some(n) if n > 0 => {
                at = 1;
                Reference::Count(n)
            }
            _ => return None,
        },
    };
    if reference != Reference::The || word(0) != Some("it") {
        if !noun(at) {
            return None;
        }
        at += 1;
        // `the todo item`
        if noun(at) {
            at += 1;
        }
    }
    let plural = matches!(
        reference,
        Reference::Both | Reference::All(_) | Reference::Count(2..)
    );
    let singular_noun = word(at - 1).is_some_and(|w| !w.ends_with('s'));
    if word(0) != Some("it") && plural == singular_noun {
        return None;
    }
    match toks.get(at) {
        Some(Tok::Lit(item)) if reference == Reference::The => {
            Some((reference, Some(item.clone()), &toks[at + 1..]))
        }
        Some(Tok::Lit(_)) => None,
        _ => Some((reference, None, &toks[at..])),
    }
}

/// What the words after the noun phrase say of its items, one predicate per clause joined by
/// `and`; `None` when a clause is none of them.
fn predicates(rest: &[Tok]) -> Option<Vec<Predicate>> {
    let words: Vec<&str> = rest
        .iter()
        .map(|t| match t {
            Tok::Word(w, _) => Some(w.as_str()),
            Tok::Lit(_) => None,
        })
        .collect::<Option<_>>()?;
    let mut out = Vec::new();
    let mut verb = "";
    for clause in words.split(|w| *w == "and") {
        let mut clause: Vec<&str> = clause
            .iter()
            .copied()
            .filter(|w| !matches!(*w, "still" | "now" | "all"))
            .collect();
        // `after reload`, `after the page reload`: when, which the step's place says.
        if let Some(after) = clause.iter().position(|w| *w == "after")
            && clause[after + 1..]
                .iter()
                .all(|w| matches!(*w, "the" | "page" | "reload" | "reloading"))
        {
            clause.truncate(after);
        }
        let first = clause.first().copied().unwrap_or_default();
        if matches!(first, "is" | "are" | "appear" | "appears") {
            verb = first;
        } else if !verb.is_empty() {
            clause.insert(0, verb);
        }
        out.push(predicate(&clause)?);
    }
    (!out.is_empty()).then_some(out)
}

/// One clause's predicate.
fn predicate(clause: &[&str]) -> Option<Predicate> {
    const LISTED: &[&[&str]] = &[
        &["appears"],
        &["appear"],
        &["appears", "in", "the", "list"],
        &["appear", "in", "the", "list"],
        &["appears", "in", "the", "todo", "list"],
        &["appear", "in", "the", "todo", "list"],
        &["is", "in", "the", "list"],
        &["are", "in", "the", "list"],
        &["is", "visible"],
        &["are", "visible"],
        &["is", "shown"],
        &["are", "shown"],
        &["is", "displayed"],
        &["are", "displayed"],
        &["are", "listed"],
        &["is", "listed"],
        &["are", "present"],
        &["is", "present"],
        &["exist"],
        &["exists"],
        &["is", "added"],
        &["is", "added", "to", "the", "list"],
    ];
    const COMPLETED: &[&[&str]] = &[
        &["is", "marked", "as", "complete"],
        &["are", "marked", "as", "complete"],
        &["is", "marked", "as", "completed"],
        &["are", "marked", "as", "completed"],
        &["is", "marked", "as", "done"],
        &["are", "marked", "as", "done"],
        &["is", "complete"],
        &["are", "complete"],
        &["is", "completed"],
        &["are", "completed"],
        &["is", "done"],
        &["are", "done"],
    ];
    const ACTIVE: &[&[&str]] = &[
        &["appears", "as", "active"],
        &["appear", "as", "active"],
        &["is", "active"],
        &["are", "active"],
        &["is", "marked", "as", "active"],
        &["are", "marked", "as", "active"],
        &["is", "not", "completed"],
        &["are", "not", "completed"],
    ];
    let is = |forms: &[&[&str]]| forms.contains(&clause);
    if is(LISTED) {
        Some(Predicate::Listed)
    } else if is(COMPLETED) {
        Some(Predicate::Completed)
    } else if is(ACTIVE) {
        Some(Predicate::Active)
    } else {
        None
    }
}

fn opposite(predicate: Predicate) -> Predicate {
    match predicate {
        Predicate::Completed => Predicate::Active,
        _ => Predicate::Completed,
    }
}

/// `items` split into those `predicate` holds of (after the earlier steps) and the others.
fn split_by(
    items: &[String],
    completed: &[String],
    predicate: Predicate,
) -> (Vec<String>, Vec<String>) {
    items
        .iter()
        .cloned()
        .partition(|item| completed.contains(item) == (predicate == Predicate::Completed))
}

/// The sentence the shapes read for an item's state.
fn state_of(item: &str, predicate: Predicate) -> String {
    let item = quoted(item).unwrap_or_default();
    match predicate {
        Predicate::Completed => format!("{item} is completed"),
        Predicate::Active => format!("{item} is active"),
        Predicate::Listed => format!("{item} appears in the list"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` as a single-quoted JavaScript string.
    fn js_string(text: &str) -> String {
        format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
    }

    const FIELD: &str =
        "page.getByRole('textbox', { name: 'What needs to be done?', exact: true })";

    /// The code of adding `item` through the new-item field.
    fn add(item: &str) -> String {
        format!(
            "async function step(page) {{\n  await {FIELD}.fill({});\n  await {FIELD}.press('Enter');\n}}",
            js_string(item)
        )
    }

    fn code(line: &str) -> String {
        format!("async function step(page) {{\n  await {line};\n}}")
    }

    /// The discourse after steps of `(sentence, code)`.
    fn after(steps: &[(&str, String)]) -> Discourse {
        let sentences: Vec<String> = steps.iter().map(|(s, _)| (*s).to_owned()).collect();
        let code: Vec<String> = steps.iter().map(|(_, c)| c.clone()).collect();
        Discourse::of(&sentences, &code)
    }

    fn three() -> Discourse {
        after(&[(
            "add three todos: 'a', 'b', 'c'",
            format!("{}\n{}\n{}", add("a"), add("b"), add("c")),
        )])
    }

    fn sentences(discourse: &Discourse, sentence: &str) -> Vec<String> {
        match discourse.read(sentence, &[]) {
            Some(Ok(parts)) => super::texts(parts),
            other => panic!("{sentence}: {other:?}"),
        }
    }

    fn declined(discourse: &Discourse, sentence: &str) -> String {
        match discourse.read(sentence, &[]) {
            Some(Err(decline)) => decline.0,
            other => panic!("{sentence}: {other:?}"),
        }
    }

    #[test]
    fn the_todo_is_the_one_just_added() {
        let one = after(&[("Add a todo 'Buy milk'", add("Buy milk"))]);
        for sentence in [
            "The todo appears in the list",
            "the new todo appears in the todo list",
            "Verify the todo item is visible",
            "It is shown",
        ] {
            assert_eq!(
                sentences(&one, sentence),
                ["\"Buy milk\" appears in the list"],
                "{sentence}"
            );
        }
        assert_eq!(
            sentences(&one, "The todo appears as active"),
            ["\"Buy milk\" is active"]
        );
    }

    #[test]
    fn the_todo_named_in_quotes_is_that_one() {
        let none = Discourse::default();
        assert_eq!(
            sentences(
                &none,
                "The new todo 'Buy groceries' appears in the todo list"
            ),
            ["\"Buy groceries\" appears in the list"]
        );
    }

    #[test]
    fn typing_then_enter_in_two_steps_adds_the_item() {
        let typed = after(&[
            (
                "Type 'Buy groceries' into the input field",
                code(&format!("{FIELD}.fill('Buy groceries')")),
            ),
            ("Press Enter", code(&format!("{FIELD}.press('Enter')"))),
        ]);
        assert_eq!(typed.added, ["Buy groceries"]);
        assert_eq!(typed.typed, None);
    }

    #[test]
    fn the_text_appears_in_the_field_it_was_typed_into() {
        let typed = after(&[(
            "Type 'Buy groceries' into the input field",
            code(&format!("{FIELD}.fill('Buy groceries')")),
        )]);
        assert_eq!(
            sentences(&typed, "The text appears in the input field"),
            [format!(
                "await expect({FIELD}).toHaveValue('Buy groceries');"
            )]
        );
    }

    #[test]
    fn the_input_field_is_the_one_just_used_and_declines_after_another_action() {
        let clicked = after(&[(
            "Click on the input field",
            code(&format!("{FIELD}.click()")),
        )]);
        assert_eq!(
            sentences(&clicked, "The input field is focused"),
            [format!("await expect({FIELD}).toBeFocused();")]
        );
        let then = after(&[
            ("Add a todo 'x'", add("x")),
            (
                "Double-click on the todo",
                code("page.getByText('x', { exact: true }).dblclick()"),
            ),
        ]);
        assert!(declined(&then, "The textbox is focused").contains("field just used"));
    }

    #[test]
    fn all_three_and_both_are_the_whole_list_in_order() {
        assert_eq!(
            sentences(&three(), "All three todos are visible"),
            ["the list is exactly \"a\", \"b\" and \"c\""]
        );
        assert_eq!(
            sentences(&three(), "All three todos appear in the list"),
            ["the list is exactly \"a\", \"b\" and \"c\""]
        );
        assert_eq!(
            sentences(&three(), "All three todos are still present after reload"),
            ["the list is exactly \"a\", \"b\" and \"c\""]
        );
        assert_eq!(
            sentences(&three(), "All three todos are visible and active"),
            [
                "the list is exactly \"a\", \"b\" and \"c\"",
                "\"a\" is active",
                "\"b\" is active",
                "\"c\" is active"
            ]
        );
        let two = after(&[("add", format!("{}\n{}", add("x"), add("y")))]);
        assert_eq!(
            sentences(&two, "Both todos appear in the list"),
            ["the list is exactly \"x\" and \"y\""]
        );
    }

    #[test]
    fn a_quantifier_that_does_not_match_what_was_added_declines_naming_it() {
        let two = after(&[("add", format!("{}\n{}", add("x"), add("y")))]);
        let why = declined(&two, "All three todos are visible");
        assert!(
            why.contains("3 items") && why.contains("\"x\", \"y\""),
            "{why}"
        );
        assert!(declined(&three(), "Both todos appear in the list").contains("2 items"));
    }

    #[test]
    fn the_todo_among_several_never_acted_on_declines_naming_them() {
        let mut several = three();
        several.last_item = None;
        let why = declined(&several, "The todo is marked as complete");
        assert!(why.contains("\"a\", \"b\", \"c\""), "{why}");
        assert!(
            declined(&Discourse::default(), "The todo appears in the list")
                .contains("no earlier step")
        );
    }

    #[test]
    fn a_checked_item_is_the_todo_and_is_completed() {
        let checked = after(&[
            ("Add a todo 'milk'", add("milk")),
            (
                "Click the checkbox next to the todo",
                code(
                    "page.getByRole('listitem').filter({ hasText: 'milk' }).getByRole('checkbox').check()",
                ),
            ),
        ]);
        assert_eq!(checked.completed, ["milk"]);
        assert_eq!(
            sentences(&checked, "The todo is marked as complete"),
            ["\"milk\" is completed"]
        );
    }

    #[test]
    fn a_count_of_completed_items_is_exact_about_the_others() {
        let mut marked = three();
        marked.completed = vec!["a".into(), "c".into()];
        assert_eq!(
            sentences(&marked, "Two todos are marked as complete"),
            [
                "\"a\" is completed",
                "\"c\" is completed",
                "\"b\" is active"
            ]
        );
        assert!(declined(&marked, "One todo is marked as complete").contains("counts 1"));
    }

    #[test]
    fn the_other_one_and_the_remaining_todo() {
        let mut two = after(&[("add", format!("{}\n{}", add("x"), add("y")))]);
        two.last_item = Some("x".into());
        assert_eq!(
            sentences(&two, "the other one is active"),
            ["\"y\" is active"]
        );
        assert!(declined(&two, "the remaining todo is active").contains("\"x\", \"y\""));
        let deleted = after(&[
            ("add", format!("{}\n{}", add("x"), add("y"))),
            (
                "Delete 'x'",
                code("page.getByRole('button', { name: 'Delete' }).click()"),
            ),
        ]);
        assert_eq!(
            sentences(&deleted, "the remaining todo is active"),
            ["\"y\" is active"]
        );
        assert!(declined(&three(), "the other one is active").contains("two items"));
    }

    #[test]
    fn an_edit_renames_the_item_and_clear_completed_removes_the_completed() {
        let edited = after(&[
            ("Add a todo 'milk'", add("milk")),
            (
                "Double-click the todo",
                code("page.getByText('milk', { exact: true }).dblclick()"),
            ),
            (
                "Change the text to 'oat milk'",
                code("page.locator(':focus').fill('oat milk')"),
            ),
        ]);
        assert_eq!(edited.added, ["oat milk"]);
        // An emptied editor gives the item no name "": it keeps its own.
        let emptied = after(&[
            ("Add a todo 'milk'", add("milk")),
            (
                "Double-click the todo",
                code("page.getByText('milk', { exact: true }).dblclick()"),
            ),
            (
                "Clear all the text",
                code("page.getByRole('listitem').getByRole('textbox').fill('')"),
            ),
        ]);
        assert_eq!(emptied.added, ["milk"]);
        assert_eq!(emptied.the_item(), Ok("milk".to_owned()));
        let mut cleared = three();
        cleared.completed = vec!["b".into()];
        cleared.hear("Click the 'Clear completed' button");
        assert_eq!(cleared.added, ["a", "c"]);
    }

    #[test]
    fn a_quoted_word_is_no_verb() {
        let added = after(&[("Add a todo 'Task to delete'", add("Task to delete"))]);
        assert_eq!(added.added, ["Task to delete"]);
    }

    #[test]
    fn sentences_that_refer_to_nothing_are_left_to_the_shapes() {
        for sentence in [
            "The todo list remains empty",
            "Counter shows '1 item left'",
            "the first todo is completed",
            "Click the 'Clear completed' button",
            "All checkboxes are checked",
        ] {
            assert_eq!(three().read(sentence, &[]), None, "{sentence}");
        }
    }
}
