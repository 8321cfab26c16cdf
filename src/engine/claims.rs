//! What a step's sentence claims: the floor of every proof of its check, written, healed or
//! reused. The claims are read with the one tokenizer of `sentence.rs`: the quoted texts, the
//! numbers and number words outside the quotes, an ordinal position, an "only" set, the states it names, whether it is negative, and whether it lets a quoted text match
//! in any case or as a part of a longer text.
//!
//! Main type: [`ClaimSet`]; [`ClaimSet::of`] reads a sentence and [`ClaimSet::for_proof`] gives
//! the mutation proof what it contradicts.

use crate::cache::MutationKind;
use crate::script::TextEdit;
use crate::step::Claims;
use crate::writer::{quoted_literals, words};

/// Words that make a sentence say something is absent.
const NEGATIONS: &[&str] = &[
    "not",
    "no",
    "never",
    "without",
    "hidden",
    "gone",
    "disappears",
    "disappeared",
    "removed",
    "absent",
    "nothing",
    "none",
    "empty",
    "isn't",
    "aren't",
    "doesn't",
    "don't",
    "cannot",
    "can't",
    "longer",
];

/// Number words and the numbers they write.
const NUMBER_WORDS: &[(&str, u32)] = &[
    ("zero", 0),
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
];

/// Ordinal words and the position they name (0 for the last).
const ORDINALS: &[(&str, u32)] = &[
    ("first", 1),
    ("second", 2),
    ("third", 3),
    ("fourth", 4),
    ("fifth", 5),
    ("last", 0),
];

/// Words that say the elements are in an order: moving one of them contradicts the sentence.
/// ("Order" alone is left out: "the order total" names a thing, not an order.)
const ORDERED: &[&str] = &["sorted", "ascending", "descending"];

/// Words that make a set of things the whole set: nothing else may be there. ("Exactly"
/// is left out: "shows "3 items left" exactly" says the text is whole, and "exactly 3 todos"
/// is a count, which the count's own mutations contradict.)
const ONLY: &[&str] = &["only"];

/// Words that say a quoted text may be in any case.
const ANY_CASE: &[&str] = &[
    "ignoring case",
    "any case",
    "case-insensitive",
    "case insensitive",
];

/// Words that say a quoted text may be part of a longer text.
const PARTIAL: &[&str] = &[
    "contains",
    "contain",
    "containing",
    "includes",
    "include",
    "including",
    "mentions",
    "mention",
    "starts",
    "ends",
    "begins",
];

/// States a check sentence can name, as the words that name them.
const STATES: &[(&str, State)] = &[
    ("checked", State::Checked),
    ("unchecked", State::Checked),
    ("selected", State::Checked),
    ("ticked", State::Checked),
    ("enabled", State::Enabled),
    ("disabled", State::Enabled),
    ("editable", State::Enabled),
    ("visible", State::Visible),
    ("shown", State::Visible),
    ("displayed", State::Visible),
    ("hidden", State::Visible),
];

/// A state a sentence claims an element is in (either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    Checked,
    Enabled,
    Visible,
}

/// Everything a sentence claims that a check of it must read and fail without.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ClaimSet {
    /// Texts the sentence quotes (placeholders aside).
    pub quoted: Vec<String>,
    /// Numbers written outside the quotes, as digits (`two` is `2`), each once.
    pub numbers: Vec<String>,
    /// The position the sentence names among like elements (1 for the first, 0 for the last).
    pub ordinal: Option<u32>,
    /// The sentence says its elements are in an order ("sorted", "ascending").
    pub ordered: bool,
    /// The sentence says these are the only ones ("only", "nothing else").
    pub only: bool,
    /// The states it names.
    pub states: Vec<State>,
    /// It says something is absent.
    pub negative: bool,
    /// It lets its quoted texts match in any case.
    pub any_case: bool,
    /// It lets its quoted texts be part of a longer text ("contains", "includes").
    pub partial: bool,
}

impl ClaimSet {
    /// The claims of `sentence`.
    pub(crate) fn of(sentence: &str) -> ClaimSet {
        let quoted: Vec<String> = quoted_literals(sentence)
            .into_iter()
            .filter(|q| {
                let placeholder = q.contains("${") || (q.starts_with('<') && q.ends_with('>'));
                !placeholder
            })
            .collect();
        // The words outside the quotes: each quoted literal is taken out with its quotes, so
        // that a literal "a" does not take the letter out of "exactly".
        let mut outside = sentence.to_owned();
        for q in quoted_literals(sentence) {
            for (open, close) in [('"', '"'), ('\'', '\''), ('“', '”')] {
                outside = outside.replace(&format!("{open}{q}{close}"), " ");
            }
        }
        let words: Vec<String> = words(&outside).into_iter().map(|w| w.text).collect();
        let mut numbers: Vec<String> = Vec::new();
        let mut ordinal = None;
        for (at, word) in words.iter().enumerate() {
            let next = words.get(at + 1).map(String::as_str);
            let number = if word.chars().all(|c| c.is_ascii_digit()) {
                Some(word.clone())
            } else {
                NUMBER_WORDS
                    .iter()
                    .find(|(w, _)| *w == word.as_str())
                    // "one of ..." and a final "one" ("this one") are pronouns.
                    .filter(|_| !(word == "one" && matches!(next, Some("of") | None)))
                    .map(|(_, n)| n.to_string())
            };
            if let Some(number) = number
                && !numbers.contains(&number)
            {
                numbers.push(number);
            }
            // "first name", "last name" name a field, not a position.
            let position = ORDINALS
                .iter()
                .find(|(w, _)| *w == word.as_str())
                .map(|(_, n)| *n)
                .or_else(|| numbered_ordinal(word));
            if ordinal.is_none() && next != Some("name") {
                ordinal = position;
            }
        }
        let lower = outside.to_lowercase();
        let states = words
            .iter()
            .filter_map(|w| {
                STATES
                    .iter()
                    .find(|(s, _)| *s == w.as_str())
                    .map(|(_, state)| *state)
            })
            .fold(Vec::new(), |mut all, state| {
                if !all.contains(&state) {
                    all.push(state);
                }
                all
            });
        ClaimSet {
            quoted,
            numbers,
            ordinal,
            ordered: words.iter().any(|w| ORDERED.contains(&w.as_str())),
            // `only one Delete button is left`, `only 2 todos remain`: an "only" before a
            // number limits the count, which the count's own mutations contradict; nothing
            // else beside the counted elements is claimed absent. `the only one (left)` says
            // the subject is all there is: that is the "only" set.
            only: words.iter().enumerate().any(|(at, w)| {
                ONLY.contains(&w.as_str())
                    && (!words.get(at + 1).is_some_and(|next| is_number(next))
                        || at.checked_sub(1).and_then(|before| words.get(before))
                            == Some(&"the".to_owned()))
            }) || lower.contains("nothing else"),
            states,
            negative: words.iter().any(|w| NEGATIONS.contains(&w.as_str()))
                || words.iter().any(|w| w.ends_with("n't")),
            any_case: ANY_CASE.iter().any(|w| lower.contains(w)),
            partial: words.iter().any(|w| PARTIAL.contains(&w.as_str())),
        }
    }

    /// What the mutation proof contradicts: the quoted texts and numbers (with their case and
    /// wholeness), the position and the "only" set.
    pub(crate) fn for_proof(&self) -> Claims {
        Claims {
            quoted: self.quoted.clone(),
            numbers: self.numbers.clone(),
            negative: self.negative,
            positional: self.ordinal.is_some() || self.ordered,
            only: self.only,
            case_sensitive: !self.any_case,
            whole: !self.partial,
        }
    }
}

impl ClaimSet {
    /// The mutation kinds every proof of a check of this sentence must fail under, whatever
    /// its page: a changed character of each quoted text, the quoted texts' case, and the
    /// position or the "only" set the sentence names. A healed check whose cache entry
    /// records no proof is held to these.
    pub(crate) fn floor(&self) -> Vec<MutationKind> {
        let mut kinds = Vec::new();
        if self.negative {
            return kinds;
        }
        let texts: Vec<&String> = self
            .quoted
            .iter()
            .filter(|q| q.chars().any(char::is_alphanumeric))
            .collect();
        if !texts.is_empty() {
            kinds.push(MutationKind::TextChanged);
        }
        if !self.any_case && texts.iter().any(|q| TextEdit::switched_case(q).is_some()) {
            kinds.push(MutationKind::CaseChanged);
        }
        if self.ordinal.is_some() || self.ordered {
            kinds.push(MutationKind::Reordered);
        }
        if self.only {
            kinds.push(MutationKind::OtherAdded);
        }
        kinds
    }
}

/// Whether `word` is a number, in digits or in words.
fn is_number(word: &str) -> bool {
    word.chars().all(|c| c.is_ascii_digit()) || NUMBER_WORDS.iter().any(|(w, _)| *w == word)
}

/// The position a numbered ordinal names (`2nd` is 2), if the word is one.
fn numbered_ordinal(word: &str) -> Option<u32> {
    let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
    let suffix = &word[digits.len()..];
    if digits.is_empty() || !["st", "nd", "rd", "th"].contains(&suffix) {
        return None;
    }
    digits.parse().ok()
}

/// What `sentence` claims that a mutation can contradict.
pub(crate) fn claims_of(sentence: &str) -> Claims {
    ClaimSet::of(sentence).for_proof()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_texts_numbers_outside_them_and_negation() {
        let c = ClaimSet::of("the page says \"3 items left\" and the counter shows 2");
        assert_eq!(c.quoted, ["3 items left"]);
        assert_eq!(c.numbers, ["2"]);
        assert!(!c.negative);
        assert!(ClaimSet::of("'buy milk' is no longer listed").negative);
        assert!(ClaimSet::of("the list isn't shown").negative);
        assert!(ClaimSet::of("the error is hidden").negative);
        assert!(!ClaimSet::of("the 2nd todo is completed").negative);
        assert!(ClaimSet::of("the 2nd todo is completed").numbers.is_empty());
        assert_eq!(
            ClaimSet::of("the list has 3 items and 3 links").numbers,
            ["3"]
        );
    }

    #[test]
    fn number_words_are_numbers_unless_they_are_pronouns() {
        assert_eq!(ClaimSet::of("the list has two items").numbers, ["2"]);
        assert_eq!(ClaimSet::of("there is one todo left").numbers, ["1"]);
        assert!(ClaimSet::of("one of the todos is \"x\"").numbers.is_empty());
        assert!(ClaimSet::of("the \"two\" tab is open").numbers.is_empty());
    }

    #[test]
    fn ordinals_name_a_position_but_first_name_is_a_field() {
        assert_eq!(
            ClaimSet::of("the first todo is \"buy milk\"").ordinal,
            Some(1)
        );
        assert_eq!(ClaimSet::of("the last todo is \"x\"").ordinal, Some(0));
        assert_eq!(ClaimSet::of("the 3rd row reads \"x\"").ordinal, Some(3));
        assert_eq!(ClaimSet::of("the second item is done").ordinal, Some(2));
        assert_eq!(
            ClaimSet::of("the first name field says \"Bob\"").ordinal,
            None
        );
        assert_eq!(ClaimSet::of("the list shows \"first\"").ordinal, None);
        assert!(
            ClaimSet::of("the first todo is \"x\"")
                .for_proof()
                .positional
        );
    }

    #[test]
    fn an_order_is_a_position_of_each_element() {
        let sorted = ClaimSet::of("the \"Due\" column of table 1 is sorted ascending");
        assert!(sorted.ordered && sorted.for_proof().positional);
        assert!(sorted.floor().contains(&MutationKind::Reordered));
        assert!(
            !ClaimSet::of("the order total is \"$5\"")
                .for_proof()
                .positional
        );
    }

    #[test]
    fn only_makes_the_set_whole() {
        assert!(ClaimSet::of("only \"buy milk\" is listed").only);
        assert!(ClaimSet::of("the list shows \"a\" and \"b\" only").only);
        assert!(!ClaimSet::of("the page shows \"3 items left\" exactly").only);
        assert!(ClaimSet::of("the list shows \"a\" and nothing else").only);
        assert!(!ClaimSet::of("the list shows \"a\"").only);
        // An "only" before a number limits the count: the count is the claim.
        for sentence in ["only one Delete button is left", "only 2 todos remain"] {
            let claims = ClaimSet::of(sentence);
            assert!(!claims.only, "{sentence:?}");
            assert!(!claims.numbers.is_empty(), "{sentence:?}");
        }
        // `the only one` is the subject and nothing else, whatever "one" reads as.
        for sentence in ["\"milk\" is the only one left", "\"milk\" is the only one"] {
            assert!(ClaimSet::of(sentence).only, "{sentence:?}");
        }
    }

    #[test]
    fn states_are_named_either_way() {
        assert_eq!(
            ClaimSet::of("\"Express\" is checked and the \"Pay\" button is disabled").states,
            [State::Checked, State::Enabled]
        );
        assert!(ClaimSet::of("the list shows \"a\"").states.is_empty());
    }

    #[test]
    fn quoted_texts_are_whole_and_case_sensitive_unless_the_sentence_says_otherwise() {
        let plain = ClaimSet::of("the page says \"You have been signed out\"").for_proof();
        assert!(plain.case_sensitive && plain.whole);
        let partial = ClaimSet::of("the page contains \"signed out\"").for_proof();
        assert!(partial.case_sensitive && !partial.whole);
        let any = ClaimSet::of("the status says \"signed out\", ignoring case").for_proof();
        assert!(!any.case_sensitive && any.whole);
    }

    #[test]
    fn the_floor_is_what_every_proof_of_the_sentence_must_fail_under() {
        let floor = |s: &str| -> Vec<&str> {
            ClaimSet::of(s)
                .floor()
                .into_iter()
                .map(MutationKind::as_str)
                .collect()
        };
        assert_eq!(
            floor("the first todo is \"buy milk\""),
            ["text-changed", "case-changed", "reordered"]
        );
        assert_eq!(
            floor("only \"42\" is listed"),
            ["text-changed", "other-added"]
        );
        assert!(floor("\"buy milk\" is no longer listed").is_empty());
        assert!(floor("the counter shows 2").is_empty());
        assert_eq!(
            floor("the status says \"signed out\", ignoring case"),
            ["text-changed"]
        );
    }

    #[test]
    fn placeholders_are_not_claims() {
        let c = ClaimSet::of("the greeting says \"${NAME}\" to '<user>'");
        assert!(c.quoted.is_empty(), "{:?}", c.quoted);
    }
}
