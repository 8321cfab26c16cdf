//! The words the registry's accounting (`accounting.rs`) knows without a reading: the
//! fillers and plain words of the grammar, which any sentence may hold, and the words that
//! change what a sentence means ([`Meaning`]), which only a reading that carries them explains.
//!
//! Main type: [`Meaning`]; main function: [`meaning`].

use crate::writer::builtin::clicks::NUMBERS;
use crate::writer::builtin::phrases::ordinal;
use crate::writer::builtin::tokens::Tok;

/// The words a sentence may hold anywhere without changing what it means: articles,
/// politeness and words of time that a check holds whenever it passes. docs/builtin.md lists
/// them ("When it declines").
pub(crate) const FILLERS: &[&str] = &[
    "the",
    "a",
    "an",
    "please",
    "kindly",
    "simply",
    "also",
    "now",
    "still",
    "currently",
    "again",
    "anymore",
    "i",
    "we",
    "you",
    "user",
    "should",
    "must",
    "will",
];

/// The plain words of the grammar: verbs, copulas, prepositions and nouns that the shapes read
/// as the frame of a sentence. None of them changes what a sentence means by being there, so
/// one the reading did not need drops nothing (`click on "Save"`, `the page shows "x"`). The
/// nouns of a part of the page (`footer`, `header`, `main`) and of an element's property
/// (`title`, `label`) are not here: a reading that drops one checks elsewhere or something else
/// (`4 links in the footer` counting the whole page's links), so only one that carries it
/// explains it.
pub(crate) const PLAIN: &[&str] = &[
    // Copulas, auxiliaries and connectors.
    "is",
    "be",
    "been",
    "being",
    "am",
    "was",
    "were",
    "has",
    "have",
    "had",
    "do",
    "does",
    "did",
    "can",
    "there",
    "that",
    "which",
    "who",
    "to",
    "on",
    "at",
    "into",
    "onto",
    "with",
    "as",
    "by",
    "from",
    "in",
    "of",
    "for",
    "up",
    "out",
    "over",
    "my",
    "our",
    "your",
    // What a check says of an element or a text.
    "shown",
    "shows",
    "show",
    "showing",
    "displayed",
    "displays",
    "display",
    "appears",
    "appear",
    "appeared",
    "says",
    "say",
    "saying",
    "reads",
    "read",
    "reading",
    "contains",
    "contain",
    "containing",
    "includes",
    "include",
    "including",
    "lists",
    "listed",
    "holds",
    "hold",
    "equals",
    "equal",
    "matches",
    "match",
    "present",
    "exists",
    "exist",
    "see",
    "sees",
    "seen",
    "gone",
    "hidden",
    "visible",
    "empty",
    "blank",
    "value",
    "text",
    "labeled",
    "labelled",
    "named",
    "called",
    "titled",
    "marked",
    "set",
    "become",
    "becomes",
    "remains",
    "stays",
    "back",
    "available",
    "rendered",
    "loaded",
    "loads",
    "on-screen",
    "onscreen",
    "view",
    // Actions.
    "click",
    "clicks",
    "tap",
    "press",
    "hit",
    "type",
    "types",
    "enter",
    "enters",
    "fill",
    "write",
    "input",
    "clear",
    "check",
    "uncheck",
    "tick",
    "untick",
    "select",
    "choose",
    "pick",
    "hover",
    "open",
    "go",
    "visit",
    "navigate",
    "browse",
    "load",
    "mark",
    "unmark",
    "complete",
    "finish",
    "edit",
    "rename",
    "change",
    "add",
    "create",
    "delete",
    "remove",
    "switch",
    "filter",
    "search",
    "submit",
    "toggle",
    "focus",
    "scroll",
    "use",
    "using",
    // Nouns of the page and its parts, and the kinds of element.
    "page",
    "screen",
    "app",
    "application",
    "site",
    "website",
    "window",
    "list",
    "item",
    "items",
    "element",
    "elements",
    "entry",
    "entries",
    "todo",
    "todos",
    "task",
    "tasks",
    "button",
    "buttons",
    "link",
    "links",
    "tab",
    "tabs",
    "checkbox",
    "checkboxes",
    "radio",
    "field",
    "fields",
    "box",
    "boxes",
    "textbox",
    "searchbox",
    "dropdown",
    "drop-down",
    "combobox",
    "combo",
    "heading",
    "headings",
    "option",
    "options",
    "switch",
    "image",
    "images",
    "picture",
    "menu",
    "menuitem",
    "form",
    "message",
    "url",
    "address",
    "placeholder",
    "key",
    "row",
    "rows",
    "column",
    "columns",
    "headers",
    "cell",
    "cells",
    "table",
    "tables",
    "named",
    "status",
    "counter",
    "icon",
    "arrow",
    "symbol",
    "chevron",
];

/// The words that say items are still on show (`only "a" is left`).
pub(crate) const LEFT: &[&str] = &["left", "remaining", "remain", "remains"];

/// The words of an item crossed out or ticked off, which the readers read as done.
pub(crate) const CROSSED_OUT: &[&str] = &["crossed", "struck", "out", "off"];

/// The words keys are spoken with, beside their names (`phrases.rs` reads them into a key).
pub(crate) const KEY_WORDS: &[&str] = &[
    "key", "keys", "arrow", "up", "down", "left", "right", "page", "space", "bar", "back",
    "control", "ctrl", "shift", "alt", "option", "meta", "cmd", "command", "esc", "return", "del",
];

/// The words that say a fill replaces what the field held (`type "b" instead`), which every
/// fill does.
pub(crate) const REPLACES: &[&str] = &["instead"];

/// The ordinals a plan counts the items it adds with (`add first todo 'a'`, `add a second todo
/// 'b'`, `add another todo`): the add's place in the test, which adding at the end of the list
/// honours.
pub(crate) const ADD_ORDINALS: &[&str] =
    &["first", "second", "third", "fourth", "fifth", "another"];

/// The words that say the page shown now is the one named (`I am on`, `I am still on`, `I am
/// redirected to`), which `assertions::on_page` reads.
pub(crate) const ON_PAGE: &[&str] = &[
    "on",
    "still",
    "back",
    "taken",
    "sent",
    "redirected",
    "brought",
    "to",
];

/// The connectors that make an unquoted phrase a description rather than a name (`no footer
/// with counter and filters is shown`): a check that no element has such a name could pass on
/// any page.
pub(crate) const DESCRIBING: &[&str] = &[
    "with", "and", "or", "of", "for", "in", "on", "at", "by", "from", "under", "inside",
];

/// What a word that changes a sentence's meaning changes: none of these is plain, and only an
/// intent that carries what it says explains one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Meaning {
    /// `not`, `no`, `never`, `without`: the check is the opposite.
    Negation,
    /// `3`, `three`, `twice`, `times`, `all`, `both`: how many.
    Number,
    /// `first`, `2nd`, `last`, `other`: which of several.
    Position,
    /// `within`, `inside`, `below`, `next to`: where on the page.
    Place,
    /// `and`, `or`, `then`, `unless`, `after`, `until`: another part of the step, or a
    /// condition on it.
    Sequence,
    /// `it`, `them`, `this`: something named elsewhere.
    Reference,
    /// `only`, `exactly`, `just`: nothing else.
    Limit,
    /// `seconds`, `reload`, `later`: a time or an event the step would have to wait for.
    Time,
}

/// The words a reader of plan steps or the test's memory reads with its own pattern, for
/// `plan_accounting.rs`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Reads {
    /// Its frame words. A word of meaning here is one the pattern reads only inside a fixed
    /// phrase that says it whole (`not` in `is not completed`, `all` in `clear all the text`).
    pub(crate) words: &'static [&'static str],
    /// The kinds of [`Meaning`] its pattern reads: a word of one of them is explained when the
    /// reading's parts carry that kind, and a word of any other kind declines.
    pub(crate) meanings: &'static [Meaning],
}

const NEGATIONS: &[&str] = &[
    "not", "no", "longer", "none", "nothing", "nobody", "neither", "nor", "without", "cannot",
    "can't", "won't", "isn't", "aren't", "doesn't", "don't", "didn't", "wasn't", "hasn't",
    "haven't", "nowhere",
];
const QUANTITIES: &[&str] = &[
    "once", "twice", "thrice", "times", "time", "all", "every", "each", "both", "several", "many",
    "some", "any", "few", "more", "less", "fewer", "most", "least", "double", "single",
];
const POSITIONS: &[&str] = &[
    "other",
    "another",
    "previous",
    "penultimate",
    "middle",
    "top",
    "bottom",
    "left-most",
    "right-most",
    "leftmost",
    "rightmost",
    "remaining",
    "same",
];
const PLACES: &[&str] = &[
    "within",
    "inside",
    "under",
    "below",
    "above",
    "beside",
    "near",
    "next",
    "between",
    "among",
    "around",
    "behind",
    "across",
    "beneath",
    "outside",
    "underneath",
    "beyond",
];
const SEQUENCE: &[&str] = &[
    "and",
    "or",
    "then",
    "but",
    "after",
    "before",
    "until",
    "till",
    "unless",
    "if",
    "when",
    "whenever",
    "while",
    "because",
    "so",
    "plus",
    "followed",
    "afterwards",
    "otherwise",
    "except",
];
const REFERENCES: &[&str] = &[
    "it",
    "its",
    "them",
    "their",
    "they",
    "this",
    "these",
    "those",
    "itself",
    "themselves",
    "one",
    "ones",
];
const LIMITS: &[&str] = &["only", "exactly", "just", "solely", "merely", "precisely"];
const TIMES: &[&str] = &[
    "never",
    "second",
    "seconds",
    "ms",
    "millisecond",
    "milliseconds",
    "minute",
    "minutes",
    "reload",
    "reloading",
    "refresh",
    "refreshing",
    "later",
    "eventually",
    "soon",
    "wait",
    "waiting",
    "timeout",
];

/// What `word` changes in a sentence, when it changes its meaning.
pub(crate) fn meaning(word: &str) -> Option<Meaning> {
    let among = |list: &[&str]| list.contains(&word);
    if among(NEGATIONS) {
        Some(Meaning::Negation)
    } else if among(SEQUENCE) {
        Some(Meaning::Sequence)
    } else if among(TIMES) {
        Some(Meaning::Time)
    } else if number(word).is_some() || among(QUANTITIES) {
        Some(Meaning::Number)
    } else if ordinal(&Tok::Word(word.to_owned(), word.to_owned())).is_some() || among(POSITIONS) {
        Some(Meaning::Position)
    } else if among(PLACES) {
        Some(Meaning::Place)
    } else if among(REFERENCES) {
        Some(Meaning::Reference)
    } else if among(LIMITS) {
        Some(Meaning::Limit)
    } else {
        None
    }
}

/// A number in digits or in words (`no` is not one: it is a negation).
fn number(word: &str) -> Option<usize> {
    word.parse().ok().or_else(|| {
        NUMBERS
            .iter()
            .chain(["eleven", "twelve", "zero"].iter())
            .position(|n| *n == word)
            .map(|at| match at {
                10 => 11,
                11 => 12,
                12 => 0,
                at => at + 1,
            })
    })
}

/// The words a number may be written with: its digits, its word, and `twice` / `thrice` /
/// `once` for a count of acts.
pub(crate) fn number_words(n: usize) -> Vec<String> {
    let mut said = vec![n.to_string()];
    if let Some(word) = NUMBERS.get(n.wrapping_sub(1)) {
        said.push((*word).to_owned());
    }
    said
}

/// The words a position may be written with (0-based; -1 is the last).
pub(crate) fn position_words(nth: isize) -> Vec<String> {
    const ORDINALS: &[&str] = &[
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth",
    ];
    if nth < 0 {
        return vec!["last".to_owned(), "final".to_owned()];
    }
    let mut said = Vec::new();
    if let Some(word) = usize::try_from(nth).ok().and_then(|at| ORDINALS.get(at)) {
        said.push((*word).to_owned());
    }
    let n = nth + 1;
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    said.push(format!("{n}{suffix}"));
    said
}

/// The verbs and participles of a sentence that says what the page shows rather than what the
/// user does.
pub(crate) const SAYS_WHAT_IS: &[&str] = &[
    "is",
    "are",
    "appears",
    "appear",
    "shows",
    "shown",
    "visible",
    "displayed",
    "remains",
    "disappears",
    "exists",
];
