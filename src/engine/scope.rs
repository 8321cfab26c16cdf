//! The scope a sentence puts its subject in ("in the "Work" row", "in the cart", "in table 2",
//! "in the sidebar"), and whether an element is inside it, judged from the elements around it
//! that the page recorded when a check read it (`script/subject.rs`). A heal that finds a
//! vanished subject anew must find it inside the sentence's scope (`continuity.rs`).
//!
//! Main type: [`Scope`]; [`Scope::of`] reads it from a sentence, [`Scope::holds`] judges it.

use std::fmt;

use crate::script::Container;
use crate::writer::{Tok, tokenize};

/// Where a sentence says its subject is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Scope {
    /// A container named by a quoted text (`in the "Work" row`, `in the section "Billing"`):
    /// one of the noun's kind (any element when the sentence names none) whose name, heading
    /// or text holds the text.
    Named { text: String, noun: Option<String> },
    /// The page's nth table, from 1 (`in table 2`, `in the second table`).
    NthTable(u32),
    /// A container of the noun's kind (`in the cart`, `in the sidebar`).
    Noun(String),
}

/// The words that put a subject in a scope.
const IN: &[&str] = &["in", "inside", "within"];

/// The words that may stand between the scope word and its noun.
const ARTICLES: &[&str] = &["the", "a", "an", "this", "that", "my", "your", "our"];

/// The words that end a scope's noun phrase (`in the shopping cart is ...`).
const STOPS: &[&str] = &[
    "is", "are", "was", "were", "shows", "show", "says", "say", "reads", "read", "has", "have",
    "contains", "contain", "lists", "list", "displays", "display", "and", "or", "but", "with",
    "then", "should", "must", "to", "at", "on", "of", "for", "by", "as", "now", "still",
];

/// Ordinal words of a table (`the second table`).
const ORDINALS: &[(&str, u32)] = &[
    ("first", 1),
    ("1st", 1),
    ("second", 2),
    ("2nd", 2),
    ("third", 3),
    ("3rd", 3),
    ("fourth", 4),
    ("4th", 4),
    ("fifth", 5),
    ("5th", 5),
];

/// The tags and roles that are a noun's kind of element, beyond an element whose markup names
/// the noun (`class="cart"`). One row per noun, with the nouns that mean it.
const KINDS: &[(&[&str], &[&str])] = &[
    (&["row", "rows"], &["tr", "row", "li", "listitem"]),
    (&["table", "grid"], &["table", "grid"]),
    (&["list"], &["ul", "ol", "list", "listbox"]),
    (&["sidebar", "aside"], &["aside", "complementary"]),
    (&["header", "banner"], &["header", "banner"]),
    (&["footer"], &["footer", "contentinfo"]),
    (
        &["nav", "navigation", "menu", "navbar"],
        &["nav", "navigation", "menu", "menubar"],
    ),
    (&["main"], &["main"]),
    (&["dialog", "modal", "popup"], &["dialog", "alertdialog"]),
    (&["form"], &["form"]),
    (&["section", "region", "panel"], &["section", "region"]),
];

impl Scope {
    /// The scope `sentence` puts its subject in, if it names one outside its quotes.
    pub(crate) fn of(sentence: &str) -> Option<Scope> {
        let toks = tokenize(sentence, &[]);
        (0..toks.len()).find_map(|at| {
            let Tok::Word(word, _) = &toks[at] else {
                return None;
            };
            IN.contains(&word.as_str())
                .then(|| scope_after(&toks[at + 1..]))
                .flatten()
        })
    }

    /// Whether an element is inside the scope, from `containers`: the element itself first,
    /// then the elements around it up to the page's body. An element the page recorded
    /// nothing around is not shown to be inside.
    pub(crate) fn holds(&self, containers: &[Container]) -> bool {
        match self {
            Scope::Named { text, noun } => {
                let text = flat(text);
                containers.iter().any(|c| {
                    noun.as_deref().is_none_or(|noun| of_kind(c, noun))
                        && [&c.words, &c.heading, &c.text]
                            .iter()
                            .any(|said| flat(said).contains(&text))
                })
            }
            Scope::NthTable(n) => containers.iter().any(|c| c.table == Some(*n)),
            // The element itself is not its own scope: `#cart-badge` in the page's header is
            // not in the cart.
            Scope::Noun(noun) => containers.iter().skip(1).any(|c| of_kind(c, noun)),
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scope::Named {
                text,
                noun: Some(noun),
            } => write!(f, "in the \"{text}\" {noun}"),
            Scope::Named { text, noun: None } => write!(f, "in \"{text}\""),
            Scope::NthTable(n) => write!(f, "in table {n}"),
            Scope::Noun(noun) => write!(f, "in the {noun}"),
        }
    }
}

/// The scope named by the tokens after a scope word.
fn scope_after(toks: &[Tok]) -> Option<Scope> {
    let mut rest = toks;
    let mut article = false;
    if let Some(Tok::Word(word, _)) = rest.first()
        && ARTICLES.contains(&word.as_str())
    {
        rest = &rest[1..];
        article = true;
    }
    match rest {
        // `in the "Work" row`, `in "Work"`
        [Tok::Lit(text), after @ ..] => {
            let noun = match after.first() {
                Some(Tok::Word(word, _)) if noun_word(word) => Some(word.clone()),
                _ => None,
            };
            Some(Scope::Named {
                text: text.clone(),
                noun,
            })
        }
        // `in table 2`
        [Tok::Word(table, _), Tok::Word(n, _), ..] if table == "table" => {
            n.parse().ok().filter(|n| *n > 0).map(Scope::NthTable)
        }
        // `in the second table`
        [Tok::Word(nth, _), Tok::Word(table, _), ..] if table == "table" => ORDINALS
            .iter()
            .find(|(word, _)| word == nth)
            .map(|&(_, n)| Scope::NthTable(n)),
        _ => {
            // `in the shopping cart`, `in the row "Work"`: the noun phrase up to a stop word,
            // a quote or the end; its last word is the noun.
            let phrase: Vec<&String> = rest
                .iter()
                .map_while(|t| match t {
                    Tok::Word(word, _) if noun_word(word) => Some(word),
                    _ => None,
                })
                .collect();
            let noun = (*phrase.last()?).clone();
            match rest.get(phrase.len()) {
                Some(Tok::Lit(text)) => Some(Scope::Named {
                    text: text.clone(),
                    noun: Some(noun),
                }),
                // A bare noun is a scope only after an article: "in bold", "in stock" and
                // "signed in" name no part of the page.
                _ => article.then_some(Scope::Noun(noun)),
            }
        }
    }
}

/// Whether `word` may be a scope's noun: letters only, and no stop word.
fn noun_word(word: &str) -> bool {
    !word.is_empty() && word.chars().all(char::is_alphabetic) && !STOPS.contains(&word)
}

/// Whether `container` is of `noun`'s kind: its tag or role is one the noun means, or its
/// markup names the noun (`class="cart"`, `aria-label="Shopping cart"`).
fn of_kind(container: &Container, noun: &str) -> bool {
    let noun = noun.to_lowercase();
    let singular = noun.strip_suffix('s').unwrap_or(&noun);
    let kinds = KINDS
        .iter()
        .find(|(nouns, _)| nouns.contains(&noun.as_str()))
        .map_or(&[][..], |(_, kinds)| *kinds);
    let role = container.role.to_lowercase();
    let words = container.words.to_lowercase();
    container.tag == noun
        || kinds.contains(&container.tag.as_str())
        || kinds.contains(&role.as_str())
        || role == noun
        || words.contains(singular)
}

/// A text with its whitespace collapsed, as the page sends a container's text.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(text: &str, noun: Option<&str>) -> Scope {
        Scope::Named {
            text: text.into(),
            noun: noun.map(str::to_owned),
        }
    }

    #[test]
    fn scopes_are_read_from_the_words_around_in() {
        let cases: &[(&str, Option<Scope>)] = &[
            (
                "the open count in the \"Work\" row is \"3\"",
                Some(named("Work", Some("row"))),
            ),
            (
                "the price in the row \"Tea\" says \"$3\"",
                Some(named("Tea", Some("row"))),
            ),
            (
                "\"buy milk\" is in the cart",
                Some(Scope::Noun("cart".into())),
            ),
            (
                "the total in the shopping cart is \"$3\"",
                Some(Scope::Noun("cart".into())),
            ),
            (
                "the link \"Home\" is in the sidebar",
                Some(Scope::Noun("sidebar".into())),
            ),
            ("the cell in table 2 says \"x\"", Some(Scope::NthTable(2))),
            (
                "the cell in the second table says \"x\"",
                Some(Scope::NthTable(2)),
            ),
            ("the user is signed in", None),
            ("the word \"x\" is in bold", None),
            ("the todo \"in the cart\" is shown", None),
            ("the page says \"done\"", None),
        ];
        for (sentence, want) in cases {
            assert_eq!(&Scope::of(sentence), want, "{sentence}");
        }
    }

    fn container(tag: &str, words: &str, text: &str) -> Container {
        Container {
            tag: tag.into(),
            words: words.into(),
            text: text.into(),
            ..Container::default()
        }
    }

    /// The count cell of a table row, its row, the table's body and the table itself.
    fn cell_of(row: &str, table: u32) -> Vec<Container> {
        vec![
            container("td", "open", "3"),
            container("tr", "", &format!("{row} 3")),
            container("tbody", "", "Work 2 Home 3"),
            Container {
                table: Some(table),
                ..container("table", "projects", "Project Open Work 2 Home 3")
            },
        ]
    }

    #[test]
    fn a_named_row_holds_only_inside_the_row_that_shows_the_name() {
        let work = named("Work", Some("row"));
        assert!(work.holds(&cell_of("Work", 1)));
        // The table's body and the table hold "Work" too, but they are not rows.
        assert!(!work.holds(&cell_of("Home", 1)));
        assert!(!work.holds(&[]));
        // The quoted name is meant in its case.
        assert!(!named("work", Some("row")).holds(&cell_of("Work", 1)));
    }

    #[test]
    fn the_nth_table_holds_inside_that_table_only() {
        assert!(Scope::NthTable(2).holds(&cell_of("Work", 2)));
        assert!(!Scope::NthTable(2).holds(&cell_of("Work", 1)));
    }

    #[test]
    fn a_noun_holds_inside_an_element_of_its_kind_or_named_by_it() {
        let in_cart = [
            container("span", "total", "$3"),
            container("div", "cart-panel", "Tea $3"),
        ];
        let in_header = [
            container("span", "cart-badge", "3"),
            container("header", "", "Shop 3"),
        ];
        let cart = Scope::Noun("cart".into());
        assert!(cart.holds(&in_cart));
        assert!(
            !cart.holds(&in_header),
            "the element itself is not its scope"
        );
        let sidebar = Scope::Noun("sidebar".into());
        assert!(sidebar.holds(&[container("a", "", "Home"), container("aside", "", "Home")]));
        assert!(!sidebar.holds(&[container("a", "", "Home"), container("nav", "", "Home")]));
        let landmark = Container {
            role: "complementary".into(),
            ..container("div", "", "Home")
        };
        assert!(sidebar.holds(&[container("a", "", "Home"), landmark]));
    }
}
