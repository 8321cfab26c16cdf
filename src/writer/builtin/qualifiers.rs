//! The words that qualify what a sentence names or how it acts: words of state (`the first
//! completed todo`, `2 active todos`, `the disabled button`) and of manner (`quickly`). The
//! registry (`shapes.rs`) accounts for them in every shape's reading: a qualifier that the
//! intent does not carry declines the sentence, naming the word, so that no shape can drop
//! one and write code that does less than the sentence says.
//!
//! Main items: [`Quality`], [`quality`] and [`unread_qualifiers`].

use crate::writer::builtin::intent::{
    CardCheck, Choice, ClauseAct, Column, Decline, Intent, Literal, RowRef, State, Target, Then,
};
use crate::writer::builtin::tokens::Tok;

/// An item's words for done: its checkbox is ticked.
pub(crate) const DONE: &[&str] = &["done", "completed", "complete", "finished"];
/// An item's words for not done: its checkbox is clear.
pub(crate) const NOT_DONE: &[&str] = &[
    "active",
    "incomplete",
    "uncompleted",
    "undone",
    "unfinished",
    "pending",
];

/// What a qualifying word says about the element or the action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quality {
    /// Done or not, checked or not: the state of an item's or a box's checkbox, which the
    /// page's snapshot shows.
    Checked(bool),
    /// Selected (an option, a tab, a radio).
    Selected,
    /// Enabled or disabled.
    Enabled,
    /// Shown or hidden.
    Visible,
    /// How an action is done (`quickly`): nothing a step's code can do.
    Manner,
}

/// The words of manner no step's code can honour.
const MANNER: &[&str] = &[
    "quickly",
    "slowly",
    "carefully",
    "gently",
    "immediately",
    "instantly",
    "rapidly",
    "repeatedly",
    "softly",
    "firmly",
    "briefly",
];

/// What `word` qualifies, when it is a qualifier.
pub(crate) fn quality(word: &Tok) -> Option<Quality> {
    let is = |words: &[&str]| words.iter().any(|w| word.is(w));
    if is(DONE) || is(&["checked", "ticked"]) {
        Some(Quality::Checked(true))
    } else if is(NOT_DONE) || is(&["unchecked", "unticked"]) {
        Some(Quality::Checked(false))
    } else if is(&["selected", "unselected", "chosen"]) {
        Some(Quality::Selected)
    } else if is(&["disabled", "enabled", "greyed", "grayed"]) {
        Some(Quality::Enabled)
    } else if is(&["visible", "hidden", "invisible"]) {
        Some(Quality::Visible)
    } else if is(MANNER) {
        Some(Quality::Manner)
    } else {
        None
    }
}

/// The state an item is narrowed to by a word of state, when the page's checkboxes can tell it.
pub(crate) fn narrows_to(word: &Tok) -> Option<State> {
    match quality(word)? {
        Quality::Checked(true) => Some(State::Checked),
        Quality::Checked(false) => Some(State::Unchecked),
        _ => None,
    }
}

/// What an intent carries that reads a qualifier: the words of its names and values, and the
/// qualities its checks and narrowed items are about.
#[derive(Default)]
struct Carried {
    words: Vec<String>,
    qualities: Vec<Quality>,
    /// How many checkbox states the intent is about (a narrowed item, a check of a state):
    /// each reads one word of done or not done, so a second word of them (`the first completed
    /// active todo`) is not read by the first one's state.
    checkbox_states: usize,
}

impl Carried {
    fn text(&mut self, text: &str) {
        self.words
            .extend(text.split_whitespace().map(str::to_lowercase));
    }

    fn literal(&mut self, value: &Literal) {
        self.text(&value.0);
    }

    fn target(&mut self, target: &Target) {
        if let Some(name) = &target.name {
            self.text(name);
        }
        if let Some(scope) = &target.scope {
            self.text(scope);
        }
        if let Some(state) = target.narrow {
            self.state(state);
        }
    }

    fn state(&mut self, state: State) {
        if matches!(state, State::Checked | State::Unchecked) {
            self.checkbox_states += 1;
        }
        self.qualities.extend(match state {
            State::Checked | State::Unchecked => [
                Quality::Checked(true),
                Quality::Checked(false),
                Quality::Selected,
            ],
            State::Enabled | State::Disabled => [Quality::Enabled; 3],
        });
    }

    /// Reads `intent`. A kind of intent not named here carries no qualifier, so that a new one
    /// declines a sentence with a word of state until it reads it.
    fn intent(&mut self, intent: &Intent) {
        match intent {
            Intent::Click { target, .. }
            | Intent::Clear(target)
            | Intent::ContextClick(target)
            | Intent::Hover(target)
            | Intent::Show(target)
            | Intent::Validity { target, .. }
            | Intent::Press {
                target: Some(target),
                ..
            } => self.target(target),
            Intent::Fill { value, target, .. }
            | Intent::Retype { value, target }
            | Intent::HasValue { target, value }
            | Intent::HasText { target, value, .. }
            | Intent::Placeholder { target, value } => {
                self.target(target);
                self.literal(value);
            }
            Intent::Select { value, target } => {
                self.target(target);
                self.literal(value);
                self.qualities.push(Quality::Selected);
            }
            Intent::Check { target, .. } => {
                self.target(target);
                self.state(State::Checked);
            }
            Intent::State { target, state } => {
                self.target(target);
                self.state(*state);
            }
            Intent::Visible { target, .. } => {
                self.target(target);
                self.qualities.push(Quality::Visible);
            }
            Intent::Placed { subject, of, .. } => {
                self.target(subject);
                self.target(of);
                self.qualities.push(Quality::Visible);
            }
            Intent::Count { what, .. } => self.target(what),
            Intent::AllItems { noun, state, .. } => {
                self.text(noun);
                self.state(*state);
            }
            Intent::Repeat { action, .. } | Intent::Dialog { action, .. } => self.intent(action),
            Intent::Both(parts) => parts.iter().for_each(|part| self.intent(part)),
            Intent::OrHidden { hidden, otherwise } => {
                self.target(hidden);
                self.qualities.push(Quality::Visible);
                self.intent(otherwise);
            }
            // What a page or a list shows is visible: a check of it reads `visible`.
            Intent::PageShows(value) => {
                self.literal(value);
                self.qualities.push(Quality::Visible);
            }
            Intent::ListShows { values, .. } => {
                values.iter().for_each(|value| self.literal(value));
                self.qualities.push(Quality::Visible);
            }
            // An indicator shown or gone is a check of its visibility, and "loading is done"
            // (or finished, complete) says that it is gone.
            Intent::Loading { shown } => {
                self.qualities.push(Quality::Visible);
                if !shown {
                    self.words
                        .extend(DONE.iter().map(|word| (*word).to_owned()));
                }
            }
            Intent::AfterLoading(value) => {
                self.literal(value);
                self.qualities.push(Quality::Visible);
                self.words
                    .extend(DONE.iter().map(|word| (*word).to_owned()));
            }
            Intent::PageContains(value) | Intent::Delete(value) => self.literal(value),
            Intent::TableColumns { values, .. } => {
                values.iter().for_each(|value| self.literal(value));
            }
            Intent::ColumnCell {
                row, column, value, ..
            } => {
                if let RowRef::Named(name) = row {
                    self.text(name);
                }
                if let Column::Noun(noun) = column {
                    self.text(noun);
                }
                self.literal(value);
            }
            Intent::Add(values) => values.iter().for_each(|value| self.literal(value)),
            Intent::Edit { from, to } => {
                self.literal(from);
                self.literal(to);
            }
            Intent::Cards(check) => self.cards(check),
            Intent::Choice(choice) => self.choice(choice),
            Intent::Clauses(clauses) => {
                for clause in clauses {
                    match &clause.act {
                        ClauseAct::Intent(intent) => self.intent(intent),
                        ClauseAct::FillFocused(value) => self.literal(value),
                        ClauseAct::ClearFocused | ClauseAct::PressFocused(_) => {}
                    }
                }
            }
            _ => {}
        }
    }
}

impl Carried {
    fn toks(&mut self, toks: &[Tok]) {
        for tok in toks {
            match tok {
                Tok::Word(word, _) => self.words.push(word.clone()),
                Tok::Lit(text) => self.text(text),
            }
        }
    }

    /// The cards' names are the sentence's words, and every check of them is about the cards
    /// shown (`12 products are visible`, `Spam is hidden`).
    fn cards(&mut self, check: &CardCheck) {
        match check {
            CardCheck::Names { names, .. }
            | CardCheck::CountedNames { names, .. }
            | CardCheck::Absent(names)
            | CardCheck::Price {
                name: Some(names), ..
            } => self.toks(names),
            CardCheck::Count(..) | CardCheck::Price { name: None, .. } => {}
        }
        self.qualities.push(Quality::Visible);
    }

    /// The action after a choice: a button's verb and words, or an intent of its own.
    fn then(&mut self, then: Option<&Then>) {
        match then {
            Some(Then::Button { verb, words, .. }) => {
                self.text(verb);
                words.iter().for_each(|word| self.text(word));
            }
            Some(Then::Act(intent)) => self.intent(intent),
            None => {}
        }
    }

    /// A search's words are its value; a dropdown's noun and option are its words, and its
    /// choice is a selection.
    fn choice(&mut self, choice: &Choice) {
        match choice {
            Choice::Search(value) => self.text(value),
            Choice::SearchField { value, then } => {
                self.text(value);
                self.then(then.as_ref());
            }
            Choice::Pick { noun, value, then } => {
                self.toks(noun);
                self.text(value);
                self.qualities.push(Quality::Selected);
                self.then(then.as_ref());
            }
            Choice::Chosen { noun, value } => {
                self.toks(noun);
                self.text(value);
                self.qualities.push(Quality::Selected);
            }
        }
    }
}

/// Declines when `toks` have a word of manner, which no step's code can honour: the plan
/// readers (`plan_readers.rs`) and the test's memory (`discourse.rs`) write parts that are no
/// intent, so this is the part of the accounting that holds for them whatever they wrote.
pub(crate) fn unread_manner(toks: &[Tok]) -> Result<(), Decline> {
    let unread: Vec<&str> = toks
        .iter()
        .filter_map(|t| match t {
            Tok::Word(_, orig) if quality(t) == Some(Quality::Manner) => Some(orig.as_str()),
            _ => None,
        })
        .collect();
    if unread.is_empty() {
        return Ok(());
    }
    Err(Decline::unread(&unread))
}

/// Declines when `toks` have a qualifier that `intent` does not carry: a word of state that no
/// name holds and no check or narrowed item is about, or any word of manner.
pub(crate) fn unread_qualifiers(toks: &[Tok], intent: &Intent) -> Result<(), Decline> {
    let mut carried = Carried::default();
    carried.intent(intent);
    let mut checkbox_words = 0;
    let unread: Vec<&str> = toks
        .iter()
        .filter_map(|t| match t {
            Tok::Word(word, orig) => Some((t, word, orig)),
            Tok::Lit(_) => None,
        })
        .filter(|(t, word, _)| {
            quality(t).is_some_and(|quality| {
                if quality == Quality::Manner {
                    // A word of manner is never read: an unquoted name that holds one (`press
                    // Enter quickly` read as a click on "Enter quickly") is no reading of it.
                    return true;
                }
                if carried.words.contains(word) {
                    return false;
                }
                if let Quality::Checked(_) = quality {
                    checkbox_words += 1;
                    if checkbox_words > carried.checkbox_states {
                        return true;
                    }
                }
                !carried.qualities.contains(&quality)
            })
        })
        .map(|(_, _, orig)| orig.as_str())
        .collect();
    if unread.is_empty() {
        return Ok(());
    }
    Err(Decline::unread(&unread))
}

#[cfg(test)]
mod tests {
    use crate::writer::builtin::intent::{Cause, Intent, State};
    use crate::writer::builtin::kinds::Kind;
    use crate::writer::builtin::shapes::parse;

    fn intent(sentence: &str) -> Intent {
        parse(sentence, &[]).unwrap_or_else(|why| panic!("{sentence:?}: {}", why.0))
    }

    #[test]
    fn a_word_of_state_narrows_the_items() {
        let Intent::Click { target, .. } = intent("click the first completed todo") else {
            panic!()
        };
        assert_eq!(
            (target.name, target.kind, target.nth, target.narrow),
            (None, Some(Kind::Item), Some(0), Some(State::Checked))
        );
        for (sentence, narrow) in [
            ("the completed list has 2 items", Some(State::Checked)),
            ("the list has 2 active todos", Some(State::Unchecked)),
            ("the list has 2 items", None),
        ] {
            let Intent::Count { what, .. } = intent(sentence) else {
                panic!("{sentence:?}: {:?}", intent(sentence))
            };
            assert_eq!(what.narrow, narrow, "{sentence:?}");
        }
    }

    /// Every shape's reading accounts for its qualifiers: one it cannot honour declines,
    /// naming the word.
    #[test]
    fn an_unread_qualifier_declines_naming_it() {
        for (sentence, word) in [
            ("click \"Delete\" for \"x\" quickly", "quickly"),
            ("click the first selected todo", "selected"),
            ("click the first big todo", "big"),
            ("the list has 2 visible items", "visible"),
            ("type \"x\" into the \"Name\" field slowly", "slowly"),
            ("press Enter quickly", "quickly"),
            // A shape that does not narrow what it counts declines rather than count them all.
            ("there are 3 completed todos", "completed"),
            // Each state the intent is about reads one word of done or not done: a second one
            // that contradicts it is not read by it.
            ("mark \"buy milk\" as completed active", "active"),
        ] {
            let why = parse(sentence, &[]).unwrap_err();
            assert_eq!(why.1, Cause::UnreadWords, "{sentence:?}: {}", why.0);
            assert!(why.0.contains(word), "{sentence:?}: {}", why.0);
        }
    }

    /// A qualifier that the intent carries, as a check's state or a name's word, is read.
    #[test]
    fn a_qualifier_the_intent_carries_is_read() {
        for sentence in [
            "the \"Save\" button is disabled",
            "\"buy milk\" is completed",
            "the \"Save\" button is visible",
            "click the \"Clear completed\" button",
            "all 2 todos are completed",
            "the status says done",
            // The loading indicator's sentences: "disappears" and "goes away" read as hidden.
            "the loading bar disappears",
            "the spinner goes away",
            "the spinner is visible",
            "loading is done",
            "\"Hello World!\" appears after loading",
            // Words of state, each carried: the item narrowed and the state the action sets.
            "mark the first active todo as completed",
            "uncheck the first completed todo",
        ] {
            intent(sentence);
        }
    }
}
