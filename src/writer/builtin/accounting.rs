//! Every word of a sentence accounted for: a reading ([`Intent`]) explains the words its parts
//! hold (names, values, the row an element is in, counts, positions, the dialog's answer, a
//! negation it checks), the registry's shape that read it explains its own verbs, and the
//! documented fillers and the grammar's plain words explain themselves. Any other word declines
//! the sentence, naming it, because the code would do less than the sentence says (`click
//! "Save" twice` clicking once, `"X" is not shown` checking that X is shown).
//!
//! The words that change what a sentence means ([`Meaning`]: a negation, a number, a position,
//! a place, a sequence, a reference, a limit, a time) are explained only by an intent that
//! carries them: no shape can list them as its own words. An intent this file does not know
//! explains nothing, so a new kind of reading declines every word that is not a filler or a
//! plain word of the grammar until it is added here.
//!
//! The fillers, the plain words and the words of meaning are listed in `vocabulary.rs`.
//!
//! Main function: [`unaccounted`].

use crate::writer::builtin::accessibility::PROBLEMS;
use crate::writer::builtin::clicks::{DIALOG_NOUNS, SAYS, SAYS_CONNECTORS};
use crate::writer::builtin::grammar::HOME;
use crate::writer::builtin::http_request::Http;
use crate::writer::builtin::intent::{
    Answer, CardCheck, Choice, ClauseAct, Column, Decline, Intent, Literal, Region, RowRef,
    TableRef, Target, Then, UrlMatch,
};
use crate::writer::builtin::kinds::Kind;
use crate::writer::builtin::phrases::key_name;
use crate::writer::builtin::placement;
use crate::writer::builtin::qualifiers::quality;
use crate::writer::builtin::tokens::Tok;
use crate::writer::builtin::visual::ENDINGS;
use crate::writer::builtin::vocabulary::{
    ADD_ORDINALS, CROSSED_OUT, FILLERS, KEY_WORDS, LEFT, Meaning, ON_PAGE, PLAIN, REPLACES,
    meaning, number_words, position_words,
};
use crate::writer::words;

/// The words a reading explains, gathered from its intent.
#[derive(Default)]
struct Explained {
    /// Words of names, values, keys and nouns, lowercased.
    words: Vec<String>,
    /// The quoted literals the reading uses, as written.
    literals: Vec<String>,
    /// The kinds of meaning the reading carries in general (a check's polarity explains any
    /// negation word, a list of values any `and`).
    meanings: Vec<Meaning>,
    /// Whether the reading read the sentence's text as a whole with a reader of its own (a
    /// request), which accounts for its own words.
    whole: bool,
    /// The keys the reading presses, as Playwright names them: a word or a quote that names
    /// one of them (`ctrl+a`, `"Control+A"`) is explained.
    keys: Vec<String>,
    /// Whether the words after `with` say how the act is done with the one control it can be
    /// done with (`delete "x" with the red cross`).
    instrument: bool,
}

impl Explained {
    fn word(&mut self, word: &str) {
        self.words.push(word.to_lowercase());
    }

    fn all(&mut self, list: &[&str]) {
        list.iter().for_each(|word| self.word(word));
    }

    /// A text's words: a name, a value, a key.
    fn text(&mut self, text: &str) {
        for part in text.split_whitespace() {
            self.word(part);
        }
        self.words.extend(words(text).into_iter().map(|w| w.text));
    }

    fn literal(&mut self, value: &Literal) {
        self.literals.push(value.0.clone());
        self.text(&value.0);
    }

    fn meaning(&mut self, meaning: Meaning) {
        self.meanings.push(meaning);
    }

    fn number(&mut self, n: usize) {
        self.words.extend(number_words(n));
    }

    fn target(&mut self, target: &Target) {
        if let Some(name) = &target.name {
            if target.quoted {
                self.literals.push(name.clone());
            }
            self.text(name);
        }
        if let Some(scope) = &target.scope {
            self.literals.push(scope.clone());
            self.text(scope);
            // The connectors `target` reads before a row's text, besides the plain `of`,
            // `for` and `in`.
            self.all(&["within", "inside", "next"]);
        }
        // The phrase's words besides the name are its kind's noun, which the locator's role
        // carries. An item phrase with no name is counted among the items of the list its last
        // word names, so a word before that noun is read by nothing (`3 purple todos`).
        match (&target.name, target.kind) {
            (None, Some(Kind::Item)) => {
                if let Some(noun) = target.phrase.split_whitespace().last() {
                    self.text(noun);
                }
            }
            _ => self.text(&target.phrase),
        }
        if let Some(nth) = target.nth {
            self.words.extend(position_words(nth));
        }
    }

    fn table(&mut self, table: &TableRef) {
        match table {
            TableRef::Only => {}
            TableRef::Nth(at) => {
                self.number(at + 1);
                self.words
                    .extend(position_words(isize::try_from(*at).unwrap_or(isize::MAX)));
            }
            TableRef::Named(name) => {
                self.literals.push(name.clone());
                self.text(name);
            }
        }
    }

    fn region(&mut self, region: &Region) {
        match region {
            Region::Page => self.all(&["whole", "entire"]),
            Region::Landmark(noun) => self.text(noun),
            Region::Element(target) => self.target(target),
        }
    }

    /// Several values joined by `and` (`"a", "b" and "c"`), all of which the reading uses.
    fn values(&mut self, values: &[Literal]) {
        values.iter().for_each(|value| self.literal(value));
        if values.len() > 1 {
            self.word("and");
        }
        if values.len() == 2 {
            self.word("both");
        }
    }

    fn toks(&mut self, toks: &[Tok]) {
        for tok in toks {
            match tok {
                Tok::Word(word, _) => self.word(word),
                Tok::Lit(text) => {
                    self.literals.push(text.clone());
                    self.text(text);
                }
            }
        }
    }

    /// Reads `intent`. A kind of intent not named here explains nothing, so that a new one
    /// declines a sentence with a word it has not said it reads.
    fn intent(&mut self, intent: &Intent) {
        if let Intent::Http(request) = intent {
            self.http(request);
            return;
        }
        match intent {
            Intent::Open(Some(path)) => self.literal(path),
            Intent::Open(None) => HOME.iter().for_each(|words| self.all(words)),
            Intent::Click { target, double } => {
                self.target(target);
                if *double {
                    self.all(&["double", "double-click", "doubleclick", "dblclick"]);
                }
                self.word("once");
            }
            Intent::Fill {
                value,
                target,
                then_press,
                keys: _,
            } => {
                self.target(target);
                self.literal(value);
                self.all(REPLACES);
                if let Some(key) = then_press {
                    self.key(key);
                    self.all(&["and", "then"]);
                }
            }
            Intent::Clear(target)
            | Intent::ContextClick(target)
            | Intent::Hover(target)
            | Intent::Show(target) => {
                self.target(target);
                self.word("once");
            }
            Intent::Repeat { times, action } => {
                self.intent(action);
                self.number(*times);
                self.all(&["times", "time"]);
                match times {
                    2 => self.word("twice"),
                    3 => self.word("thrice"),
                    _ => {}
                }
            }
            Intent::Dialog {
                action,
                answer,
                kind: _,
                message,
            } => {
                self.intent(action);
                self.word("and");
                self.all(DIALOG_NOUNS);
                self.all(SAYS);
                self.all(SAYS_CONNECTORS);
                match answer {
                    Answer::Accept => {
                        self.all(&["accept", "confirm", "approve", "ok", "okay"]);
                    }
                    Answer::Dismiss => {
                        self.all(&["dismiss", "cancel", "close", "decline"]);
                    }
                    Answer::Reply(text) => {
                        self.literal(text);
                        self.all(&["answer", "reply", "accept", "confirm", "approve"]);
                    }
                }
                if let Some(message) = message {
                    self.literal(message);
                }
            }
            Intent::Check { target, on } => {
                self.target(target);
                if !on {
                    self.meaning(Meaning::Negation);
                }
                self.all(CROSSED_OUT);
                self.word("once");
            }
            Intent::Select { value, target } => {
                self.target(target);
                self.literal(value);
            }
            Intent::Press { key, target } => {
                self.key(key);
                if let Some(target) = target {
                    self.target(target);
                }
                self.word("once");
            }
            // A check with a polarity reads either way of saying it (`is not shown`, `is no
            // longer visible`, `is not hidden`).
            Intent::Visible { target, .. } => {
                self.target(target);
                self.all(LEFT);
                self.meaning(Meaning::Negation);
            }
            Intent::Placed { subject, of, .. } => {
                self.target(subject);
                self.target(of);
                self.all(placement::PLACING);
                self.all(placement::PARTICIPLES);
                for (words, _) in placement::RELATIONS {
                    self.all(words);
                }
            }
            Intent::State { target, .. } => {
                self.target(target);
                self.meaning(Meaning::Negation);
                self.all(CROSSED_OUT);
            }
            Intent::Validity { target, .. } => {
                self.target(target);
                self.meaning(Meaning::Negation);
                self.all(&["valid", "invalid", "flagged"]);
            }
            Intent::PageShows(value) | Intent::PageContains(value) => self.literal(value),
            // A row is deleted with its own delete control, so what the sentence says the
            // control is (`with the red cross`) names no other.
            Intent::Delete(value) => {
                self.literal(value);
                self.instrument = true;
            }
            // The items are checked in the order given (`in that order`).
            Intent::ListShows { values, only } => {
                self.values(values);
                self.all(&["order", "ordered"]);
                self.all(LEFT);
                if *only {
                    self.meaning(Meaning::Limit);
                }
            }
            Intent::HasValue { target, value } => {
                self.target(target);
                self.literal(value);
                if value.0.is_empty() {
                    self.all(&["empty", "cleared", "blank"]);
                }
            }
            Intent::Placeholder { target, value } => {
                self.target(target);
                self.literal(value);
            }
            Intent::HasText {
                target,
                value,
                exact,
            } => {
                self.target(target);
                self.literal(value);
                if *exact {
                    self.word("exactly");
                }
            }
            Intent::Count { count, what } => {
                if what.kind == Some(Kind::Item) {
                    // Items are counted among the list's items, whatever their name says.
                    self.target(&Target {
                        name: None,
                        quoted: false,
                        ..what.clone()
                    });
                } else {
                    self.target(what);
                }
                self.all(LEFT);
                self.word("number");
                self.number(*count);
                self.meaning(Meaning::Limit);
                if *count == 0 {
                    self.all(&["no", "zero", "none"]);
                }
            }
            Intent::TableRows { table, count } => {
                self.table(table);
                self.number(*count);
                self.meaning(Meaning::Limit);
            }
            Intent::TableCell { table, row, value } => {
                self.table(table);
                self.words.extend(position_words(*row));
                if let Ok(at) = usize::try_from(*row) {
                    self.number(at + 1);
                }
                self.literal(value);
            }
            Intent::TableHeader { table, values } => {
                self.table(table);
                self.values(values);
                self.all(&["header", "headers", "heading", "headings"]);
            }
            Intent::TableSorted {
                table,
                column,
                descending,
            } => {
                self.table(table);
                self.literal(column);
                self.all(&["sorted", "order", "ordered"]);
                if *descending {
                    self.all(&["descending", "reverse", "z-a"]);
                } else {
                    self.all(&["ascending", "alphabetically", "alphabetical", "a-z"]);
                }
            }
            Intent::TableColumns { table, values } => {
                self.table(table);
                self.values(values);
                self.all(&["columns", "column", "headers", "header", "headings"]);
            }
            Intent::ColumnCell {
                table,
                row,
                column,
                value,
            } => {
                if let Some(table) = table {
                    self.table(table);
                }
                match row {
                    RowRef::Named(name) => self.text(name),
                    RowRef::Nth(at) => {
                        self.words.extend(position_words(*at));
                        if let Ok(at) = usize::try_from(*at) {
                            self.number(at + 1);
                        }
                    }
                }
                match column {
                    Column::Noun(noun) => self.text(noun),
                    Column::Owed => self.all(&["owes", "owe", "owed"]),
                }
                self.literal(value);
            }
            Intent::OnPage(words) => {
                words.iter().for_each(|word| self.text(word));
                self.word("page");
                self.all(ON_PAGE);
            }
            Intent::GoBack => self.all(&["go", "back", "navigate", "return"]),
            Intent::ClickHeader { table, column } => {
                self.table(table);
                self.literal(column);
                self.all(&["header", "heading", "column"]);
            }
            Intent::Loading { .. } => {
                self.loading();
                self.meaning(Meaning::Negation);
            }
            Intent::AfterLoading(value) => {
                self.literal(value);
                self.loading();
                self.word("after");
            }
            Intent::Url { value, how } => {
                self.literal(value);
                match how {
                    // `I am on /secure` is the URL's whole path.
                    UrlMatch::Is => {
                        self.word("exactly");
                        self.all(ON_PAGE);
                    }
                    UrlMatch::EndsWith => self.all(&["ends", "end"]),
                    UrlMatch::Contains => {}
                }
                self.all(&["bar", "browser", "tab"]);
            }
            Intent::Title { value, exact } => {
                self.literal(value);
                self.word("title");
                if *exact {
                    // An exact check holds only for a value the text ends with, too.
                    self.all(&["exactly", "ends", "end"]);
                }
                self.all(&["bar", "browser", "tab"]);
            }
            Intent::SignIn { user, password } => {
                self.literal(user);
                self.literal(password);
                self.all(&["sign", "signin", "log", "login", "password", "and"]);
            }
            // The items added are new ones.
            Intent::Add(values) => {
                self.values(values);
                self.number(values.len());
                self.word("new");
                self.all(ADD_ORDINALS);
            }
            Intent::Edit { from, to } => {
                self.literal(from);
                self.literal(to);
            }
            Intent::AllItems { count, noun, .. } => {
                self.text(noun);
                self.all(CROSSED_OUT);
                if let Some(count) = count {
                    self.number(*count);
                }
                self.all(&["all", "every", "each", "both", "none", "no", "any"]);
                self.meaning(Meaning::Negation);
            }
            Intent::Suggests { target, values } => {
                self.target(target);
                self.values(values);
                self.word("suggests");
            }
            Intent::Retype { value, target } => {
                self.target(target);
                self.literal(value);
                self.all(&["and", "then"]);
            }
            Intent::Both(parts) => {
                parts.iter().for_each(|part| self.intent(part));
                self.word("and");
            }
            // Either side's words, each as its own claim reads them, and the `or` between.
            Intent::OrHidden { hidden, otherwise } => {
                self.intent(&Intent::Visible {
                    target: hidden.clone(),
                    shown: false,
                });
                self.intent(otherwise);
                self.word("or");
            }
            Intent::NoQuery => {
                self.meaning(Meaning::Negation);
                self.all(&["query", "string", "parameters", "params"]);
            }
            Intent::UrlLacks(value) => {
                self.literal(value);
                self.meaning(Meaning::Negation);
                self.word("it");
            }
            Intent::Asks { question, options } => {
                self.literal(question);
                options.iter().for_each(|option| self.literal(option));
                self.word("and");
                self.word("asks");
            }
            Intent::Accessible { scope, impact } => {
                self.region(scope);
                if let Some(impact) = impact {
                    self.word(impact);
                }
                self.all(&["no", "accessibility", "a11y"]);
                self.all(&PROBLEMS);
            }
            Intent::LooksAsBefore { subject, masks } => {
                self.region(subject);
                masks.iter().for_each(|mask| self.region(mask));
                if masks.len() > 1 {
                    self.word("and");
                }
                self.all(&["looks", "look", "ignoring"]);
                ENDINGS.iter().for_each(|words| self.all(words));
            }
            Intent::Cards(check) => self.cards(check),
            Intent::Choice(choice) => self.choice(choice),
            Intent::Clauses(clauses) => {
                self.all(&["and", "then"]);
                self.meaning(Meaning::Reference);
                for clause in clauses {
                    match &clause.act {
                        ClauseAct::Intent(intent) => self.intent(intent),
                        ClauseAct::FillFocused(value) => {
                            self.literal(value);
                            self.all(REPLACES);
                        }
                        ClauseAct::PressFocused(key) => self.key(key),
                        ClauseAct::ClearFocused => {}
                    }
                }
            }
            // A new kind of intent explains nothing until it is added here.
            _ => {}
        }
    }

    /// A key's words: `Enter`, `Control+A` (`control`, `a`), and the words a key may be
    /// spoken with (`arrow down`, `page up`, `space bar`).
    fn key(&mut self, key: &str) {
        self.keys.push(key.to_owned());
        self.text(key);
        self.text(&key.replace('+', " "));
        self.all(KEY_WORDS);
    }

    fn loading(&mut self) {
        self.all(&[
            "loading",
            "loader",
            "spinner",
            "progress",
            "bar",
            "indicator",
            "animation",
            "wheel",
            "overlay",
            "finished",
            "finishes",
            "done",
            "complete",
            "completed",
            "ends",
            "stops",
            "over",
        ]);
    }

    /// A request reads the sentence's text itself (a method, a path, a JSON body with quotes of
    /// its own), so its reader accounts for the words.
    fn http(&mut self, _request: &Http) {
        self.whole = true;
    }

    fn cards(&mut self, check: &CardCheck) {
        self.all(LEFT);
        match check {
            CardCheck::Count(count, noun) => {
                self.number(*count);
                self.text(noun);
                self.all(&["number", "all", "every"]);
                if *count == 0 {
                    self.all(&["no", "zero", "none"]);
                }
                self.meaning(Meaning::Limit);
            }
            CardCheck::Names { names, only, noun } => {
                self.toks(names);
                self.toks(noun);
                self.word("among");
                self.word("and");
                if *only {
                    self.meaning(Meaning::Limit);
                }
            }
            CardCheck::CountedNames { count, noun, names } => {
                self.number(*count);
                self.text(noun);
                self.toks(names);
                self.word("and");
                self.meaning(Meaning::Limit);
            }
            CardCheck::Absent(names) => {
                self.toks(names);
                self.all(&["and", "or", "nor", "neither"]);
                self.meaning(Meaning::Negation);
            }
            CardCheck::Price { name, price } => {
                if let Some(name) = name {
                    self.toks(name);
                }
                self.text(price);
                self.all(&["costs", "cost", "priced", "price"]);
            }
        }
    }

    fn then(&mut self, then: Option<&Then>) {
        match then {
            Some(Then::Button { verb, words, .. }) => {
                self.text(verb);
                words.iter().for_each(|word| self.text(word));
                self.word("and");
            }
            Some(Then::Act(intent)) => {
                self.intent(intent);
                self.word("and");
            }
            None => {}
        }
    }

    fn choice(&mut self, choice: &Choice) {
        match choice {
            Choice::Search(value) => {
                self.literals.push(value.clone());
                self.text(value);
            }
            Choice::SearchField { value, then } => {
                self.literals.push(value.clone());
                self.text(value);
                self.then(then.as_ref());
            }
            Choice::Pick { noun, value, then } => {
                self.toks(noun);
                self.literals.push(value.clone());
                self.text(value);
                self.then(then.as_ref());
            }
            Choice::Chosen { noun, value } => {
                self.toks(noun);
                self.literals.push(value.clone());
                self.text(value);
            }
        }
    }

    /// Whether the reading explains `word`.
    fn explains(&self, word: &str) -> bool {
        if self.words.iter().any(|w| w == word) {
            return true;
        }
        match meaning(word) {
            Some(meant) => self.meanings.contains(&meant),
            None => false,
        }
    }
}

/// Declines when `toks` hold a word that `intent` does not explain and that is no filler or
/// plain word of the grammar, or a quoted value that the intent does not use. The words of state and manner are accounted for by
/// `qualifiers.rs`.
pub(crate) fn unaccounted(toks: &[Tok], intent: &Intent) -> Result<(), Decline> {
    let mut explained = Explained::default();
    explained.intent(intent);
    if explained.whole {
        return Ok(());
    }
    let toks = match toks.iter().position(|t| t.is("with")) {
        Some(at) if explained.instrument => &toks[..at],
        _ => toks,
    };
    let mut left: Vec<String> = Vec::new();
    for (at, tok) in toks.iter().enumerate() {
        // `any more`, as `anymore`, says nothing a check can test.
        let any_more = (tok.is("any") && toks.get(at + 1).is_some_and(|t| t.is("more")))
            || (tok.is("more") && at > 0 && toks[at - 1].is("any"));
        if any_more {
            continue;
        }
        if key_name(std::slice::from_ref(tok)).is_some_and(|key| explained.keys.contains(&key)) {
            continue;
        }
        match tok {
            Tok::Lit(text) => {
                if !explained.literals.contains(text) {
                    left.push(format!("\"{text}\""));
                }
            }
            Tok::Word(word, orig) => {
                let plain = meaning(word).is_none()
                    && (FILLERS.contains(&word.as_str()) || PLAIN.contains(&word.as_str()));
                if plain || quality(tok).is_some() || explained.explains(word) {
                    continue;
                }
                left.push(orig.clone());
            }
        }
    }
    if left.is_empty() {
        return Ok(());
    }
    let left: Vec<&str> = left.iter().map(String::as_str).collect();
    Err(Decline::unaccounted(&left))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::intent::Cause;
    use crate::writer::builtin::shapes::{parse, write};
    use crate::writer::builtin::snapshot::Snapshot;

    /// A page with something for every family of shapes: a form, a list of todos, a table, a
    /// dropdown and dialogs' buttons.
    const PAGE: &str = r#"- heading "Sign up" [level=1]
- textbox "Name"
- checkbox "Subscribe"
- combobox "Country":
  - option "France" [selected]
  - option "Japan"
- button "Submit"
- button "JS Confirm"
- textbox "What needs to be done?"
- list:
  - listitem:
    - checkbox
    - generic: buy milk
    - button "Delete"
- table "Example 1":
  - rowgroup:
    - row:
      - columnheader "Last Name"
  - rowgroup:
    - row:
      - cell "Smith"
"#;

    fn declined(sentence: &str) -> Decline {
        let page = Snapshot::read(PAGE, "");
        match write(sentence, &[], &page) {
            Ok(written) => panic!("{sentence:?} was written:\n{}", written.lines.join("\n")),
            Err(why) => why,
        }
    }

    /// Each family of shapes, read from a sentence the shape reads, declines the same sentence
    /// with a word added that changes what it means, naming the word.
    #[test]
    fn a_word_that_changes_the_meaning_declines_naming_it() {
        let mut failures = Vec::new();
        for (sentence, word) in [
            ("click the \"Submit\" button after reload", "after"),
            ("click \"Submit\" unless it is disabled", "unless"),
            ("never click \"Submit\"", "never"),
            ("type \"Ada\" into the \"Name\" field twice", "twice"),
            (
                "type \"Ada\" into the \"Name\" field within 2 seconds",
                "within",
            ),
            ("press Enter in the \"Name\" field after reload", "after"),
            ("do not press Enter", "not"),
            ("check \"Subscribe\" twice", "twice"),
            ("uncheck \"Subscribe\" after reload", "after"),
            (
                "select \"Japan\" in the \"Country\" dropdown twice",
                "twice",
            ),
            ("hover over \"buy milk\" after reload", "after"),
            ("\"Submit\" is shown within 2 seconds", "seconds"),
            ("\"Saved\" never appears", "never"),
            ("\"Submit\" is shown after reload", "after"),
            (
                "the \"Subscribe\" checkbox is checked after reload",
                "after",
            ),
            ("the \"Name\" field never has value \"Ada\"", "never"),
            ("the page shows \"buy milk\" twice", "twice"),
            ("\"buy milk\" appears in the list twice", "twice"),
            ("add \"bread\" twice", "twice"),
            ("delete \"buy milk\" after reload", "after"),
            ("table 1 has 4 rows after reload", "after"),
            ("wait until \"Hello\" appears twice", "twice"),
            ("the loading bar disappears after reload", "after"),
            ("click \"JS Confirm\" and dismiss it after reload", "after"),
            ("the \"Name\" field is invalid after reload", "after"),
            ("I see \"buy milk\" twice", "twice"),
        ] {
            let why = declined(sentence);
            // Declined by a reader that found the words wanting, by no shape, or by the
            // accounting; a decline for words left behind names them.
            let named = why.0.contains(&format!("\"{word}")) || why.0.contains(&format!(" {word}"));
            if why.1 == Cause::UnreadWords && !named {
                failures.push(format!("{sentence:?}: {}", why.0));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        // Read but for the added word, the sentence is declined by the accounting, naming it.
        for (sentence, word) in [
            ("the page shows \"buy milk\" twice", "twice"),
            ("add \"bread\" twice", "twice"),
            ("delete \"buy milk\" after reload", "after reload"),
            ("I see \"buy milk\" twice", "twice"),
        ] {
            let why = declined(sentence);
            assert_eq!(why.1, Cause::UnreadWords, "{sentence:?}: {}", why.0);
            assert!(
                why.0.contains(&format!("\"{word}\"")),
                "{sentence:?}: {}",
                why.0
            );
        }
        // A reader that declines the words before the accounting sees them declines too.
        for sentence in [
            "open /login.html after reload",
            "the title is not \"Todos\"",
            "click \"Submit\" and not \"Cancel\"",
        ] {
            declined(sentence);
        }
    }

    /// A count of a list's items reads the list's noun and nothing else of the phrase: a word
    /// of the sentence the count never looks at (a later event, a colour, a name the items are
    /// not filtered by) declines, naming it, instead of being credited as part of the name.
    #[test]
    fn a_count_credits_only_the_words_its_code_reads() {
        for (sentence, word) in [
            ("there are 3 todos after reload", "after reload"),
            ("there are 3 purple todos", "purple"),
            ("there are 2 todos within 5 seconds", "within 5 seconds"),
            ("the list has 3 purple todos", "purple"),
        ] {
            let why = parse(sentence, &[]).unwrap_err();
            assert_eq!(why.1, Cause::UnreadWords, "{sentence:?}: {}", why.0);
            assert!(
                why.0.contains(&format!("\"{word}\"")),
                "{sentence:?}: {}",
                why.0
            );
        }
        for sentence in [
            "there are 3 todos",
            "there are 4 Delete buttons",
            "there are 3 todos in the list",
            "3 todos are shown",
        ] {
            assert!(
                matches!(parse(sentence, &[]), Ok(Intent::Count { .. })),
                "{sentence:?}: {:?}",
                parse(sentence, &[])
            );
        }
    }

    /// A part of the page or a property the reading does not carry declines: the count would
    /// otherwise count the whole page, the check would read the element's text.
    #[test]
    fn a_region_or_a_property_no_reading_carries_declines_naming_it() {
        for (sentence, word) in [
            ("there are 4 links in the footer", "footer"),
            ("there are 5 buttons in the header", "header"),
            ("only one \"Save\" button is shown in the main area", "main"),
            ("the \"Home\" link has the title \"Home\"", "title"),
            ("the \"Name\" field has the label \"Name\"", "label"),
        ] {
            let why = parse(sentence, &[]).unwrap_err();
            assert_eq!(why.1, Cause::UnreadWords, "{sentence:?}: {}", why.0);
            assert!(why.0.contains(word), "{sentence:?}: {}", why.0);
        }
        for sentence in ["the title is \"todos\"", "the footer shows \"1 item left\""] {
            assert!(
                parse(sentence, &[]).is_ok(),
                "{sentence:?}: {:?}",
                parse(sentence, &[])
            );
        }
    }

    /// A filler (politeness, an article, a word of time a check holds whenever it passes) adds
    /// nothing: the sentence with one reads as without it.
    #[test]
    fn a_filler_still_reads() {
        let page = Snapshot::read(PAGE, "");
        for (plain, filled) in [
            (
                "click the \"Submit\" button",
                "please click the \"Submit\" button now",
            ),
            (
                "type \"Ada\" into the \"Name\" field",
                "then type \"Ada\" into the \"Name\" field please",
            ),
            (
                "the title is \"Todos\"",
                "the title should still be \"Todos\"",
            ),
            ("\"buy milk\" is shown", "verify that \"buy milk\" is shown"),
            ("press Enter", "now press Enter"),
            ("check \"Subscribe\"", "then check \"Subscribe\" again"),
        ] {
            let Ok(alone) = write(plain, &[], &page) else {
                panic!("{plain:?} is not written")
            };
            let filled_in =
                write(filled, &[], &page).unwrap_or_else(|why| panic!("{filled:?}: {}", why.0));
            assert_eq!(alone.lines, filled_in.lines, "{filled:?}");
        }
    }

    /// A negation reads only in a check that has the other way: `is not shown` is a check of
    /// the hidden, `is not "Todos"` is no check the title shape writes.
    #[test]
    fn a_negation_reads_only_where_the_check_carries_it() {
        for sentence in [
            "\"Saved\" is not shown",
            "\"Saved\" is no longer visible",
            "the \"Subscribe\" checkbox is not checked",
            "the URL has no query string",
            "mark \"buy milk\" as not done",
        ] {
            assert!(
                parse(sentence, &[]).is_ok(),
                "{sentence:?}: {:?}",
                parse(sentence, &[])
            );
        }
        for (sentence, word) in [
            ("\"Saved\" never appears", "never"),
            ("the \"Name\" field is not \"Ada\" twice", "twice"),
        ] {
            let why = parse(sentence, &[]).unwrap_err();
            assert!(
                why.1 != Cause::UnreadWords || why.0.contains(word),
                "{sentence:?}: {}",
                why.0
            );
        }
    }

    /// The words the readers read as part of a shape (a new todo is added, an item crossed out
    /// is done, the list's items are checked in order, a row's delete control is its own) are
    /// explained by their readings.
    #[test]
    fn the_words_a_reading_honours_are_explained() {
        for sentence in [
            "add a new todo called \"water the plants\"",
            "\"book dentist\" should be crossed out",
            "\"book dentist\" should not be crossed out any more",
            "the list shows \"a\", \"b\" and \"c\" in that order",
            "remove \"water the plants\" with the red cross",
            "the input box is cleared",
            "the address bar now contains \"fruit=Cherry\"",
            "click \"Add Element\" three times",
            "there are no todos",
            "only \"a\" is left",
        ] {
            assert!(
                parse(sentence, &[]).is_ok(),
                "{sentence:?}: {:?}",
                parse(sentence, &[])
            );
        }
        // `just` is `only`: the list holds nothing else.
        assert!(matches!(
            parse("the list should show just \"book dentist\"", &[]),
            Ok(Intent::ListShows { only: true, .. })
        ));
    }

    /// Every word that changes a meaning is in one class, and no class word is plain or a
    /// filler: a plain word is explained everywhere, so one of them there would be explained
    /// by every reading.
    #[test]
    fn no_word_of_meaning_is_plain() {
        for word in PLAIN.iter().chain(FILLERS) {
            assert_eq!(meaning(word), None, "{word:?} is plain and has a meaning");
        }
        for word in [
            "not", "twice", "3", "first", "2nd", "within", "and", "it", "only", "seconds",
        ] {
            assert!(meaning(word).is_some(), "{word:?}");
        }
    }

    /// A kind of intent the accounting does not know explains no word but the fillers and the
    /// plain words, so a new shape declines what it has not said it reads.
    #[test]
    fn an_intent_explains_its_own_words_only() {
        let toks = crate::writer::builtin::tokens::normalize(crate::writer::tokenize(
            "click the \"Submit\" button twice",
            &[],
        ));
        let click = Intent::Click {
            target: Target {
                name: Some("Submit".into()),
                quoted: true,
                phrase: "Submit button".into(),
                ..Target::default()
            },
            double: false,
        };
        let why = unaccounted(&toks, &click).unwrap_err();
        assert!(why.0.contains("twice"), "{}", why.0);
        let repeated = Intent::Repeat {
            times: 2,
            action: Box::new(click.clone()),
        };
        assert_eq!(unaccounted(&toks, &repeated), Ok(()));
        // A quoted value no part of the reading uses is a word left behind too.
        let toks = crate::writer::builtin::tokens::normalize(crate::writer::tokenize(
            "click the \"Submit\" button \"Cancel\"",
            &[],
        ));
        let why = unaccounted(&toks, &click).unwrap_err();
        assert!(why.0.contains("Cancel"), "{}", why.0);
    }
}
