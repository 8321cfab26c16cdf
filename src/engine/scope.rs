//! The scope a sentence puts its subject in, and whether an element is inside it, judged from
//! the elements around it that the page recorded when a check read it (`script/subject.rs`).
//! A sentence names a scope after a scope word ("in the "Work" row", "in the cart", "in table
//! 2", "in the sidebar"), or by making a container its subject ("the "Work" row shows 3", "the
//! row "Work" shows 3", "the cart shows 2 items", "the second table has 4 rows", "the sidebar
//! says "Hi""). A heal that finds a vanished subject anew must find it inside every scope the
//! sentence names (`continuity.rs`).
//!
//! A subject is a scope only when its noun phrase ends in a noun that names a part of a page
//! ([`CONTAINERS`]): "the row count is 3" and "the cart icon is visible" name a count and an
//! icon, which are the elements checked, not a region they are in.
//!
//! Main type: [`Scope`]; [`Scope::of`] reads them from a sentence, [`Scope::holds`] judges one.

use std::fmt;

use crate::engine::scope_match::{Kind, holds_words};
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
    /// A container of the noun's kind around the subject (`in the cart`, `in the sidebar`).
    Noun(String),
    /// The sentence's subject is a container of the noun's kind (`the cart shows 2 items`,
    /// `the sidebar says "Hi"`): the check reads that container or an element inside it.
    Container(String),
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

/// The words that end a sentence's subject: its verb (`the cart shows 2 items`, `the "Work"
/// row has 3 open`). "to" ends one only after "expect" (`expect the cart to show 2 items`).
const VERBS: &[&str] = &[
    "is",
    "isn't",
    "are",
    "aren't",
    "was",
    "were",
    "shows",
    "show",
    "says",
    "say",
    "reads",
    "has",
    "have",
    "hasn't",
    "contains",
    "contain",
    "lists",
    "displays",
    "display",
    "includes",
    "include",
    "mentions",
    "should",
    "shouldn't",
    "must",
    "does",
    "doesn't",
    "do",
    "don't",
    "will",
    "won't",
    "remains",
    "remain",
    "stays",
    "stay",
    "becomes",
    "to",
];

/// The nouns that name a part of a page holding other elements, so a subject they end is a
/// scope. Nouns of inputs and controls ("box", "field", "tab", "button") are left out because
/// the check reads that element itself, which need not say the noun in its markup.
const CONTAINERS: &[&str] = &[
    "row",
    "rows",
    "table",
    "grid",
    "list",
    "sidebar",
    "aside",
    "header",
    "banner",
    "footer",
    "nav",
    "navigation",
    "menu",
    "navbar",
    "main",
    "dialog",
    "modal",
    "popup",
    "form",
    "section",
    "region",
    "panel",
    "cart",
    "basket",
    "card",
    "toolbar",
    "drawer",
    "pane",
];

/// Words before a container noun that make the phrase a part of something else: a "column
/// header" is a table's cell, not the page's header.
const PARTS: &[&str] = &["column"];

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

impl Scope {
    /// The scopes `sentence` puts its subject in, outside its quotes: after each scope word
    /// and each subject that names a container, in the sentence's order, each once.
    pub(crate) fn of(sentence: &str) -> Vec<Scope> {
        let toks = tokenize(sentence, &[]);
        let mut scopes: Vec<Scope> = Vec::new();
        for at in 0..toks.len() {
            let Tok::Word(word, _) = &toks[at] else {
                continue;
            };
            let scope = if IN.contains(&word.as_str()) {
                scope_after(&toks[at + 1..])
            } else if VERBS.contains(&word.as_str()) {
                subject_scope(&toks[..at], word == "to")
            } else {
                None
            };
            if let Some(scope) = scope
                && !scopes.contains(&scope)
            {
                scopes.push(scope);
            }
        }
        scopes
    }

    /// Whether an element is inside the scope, from `containers`: the element itself first,
    /// then the elements around it up to the page's body. An element the page recorded
    /// nothing around is not shown to be inside.
    pub(crate) fn holds(&self, containers: &[Container]) -> bool {
        match self {
            // Only the nearest container of the noun's kind is the element's row (section,
            // ...): the table around the "Home" row also shows "Work", in another row.
            Scope::Named {
                text,
                noun: Some(noun),
            } => {
                let kind = Kind::of(noun);
                containers
                    .iter()
                    .find(|c| kind.matches(c))
                    .is_some_and(|c| shows(c, text))
            }
            Scope::Named { text, noun: None } => containers.iter().any(|c| shows(c, text)),
            Scope::NthTable(n) => containers.iter().any(|c| c.table == Some(*n)),
            // The element itself is not its own scope: `#cart-badge` in the page's header is
            // not in the cart.
            Scope::Noun(noun) => {
                let kind = Kind::of(noun);
                containers.iter().skip(1).any(|c| kind.matches(c))
            }
            Scope::Container(noun) => {
                let kind = Kind::of(noun);
                containers.iter().any(|c| kind.matches(c))
            }
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
            Scope::Container(noun) => write!(f, "in the {noun} (or the {noun} itself)"),
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

/// The scope a sentence's subject names, from the tokens before its verb (`to`: the verb is
/// "to", which ends a subject only after "expect"). A phrase after a scope word is that word's
/// scope ([`scope_after`]); the subject is the phrase before it (`the "Work" row in table 2`).
fn subject_scope(before: &[Tok], to: bool) -> Option<Scope> {
    let (start, scope) = subject_phrase(before)?;
    let mut at = start;
    if let Some(Tok::Word(article, _)) = at.checked_sub(1).and_then(|i| before.get(i))
        && ARTICLES.contains(&article.as_str())
    {
        at -= 1;
    }
    match at.checked_sub(1).and_then(|i| before.get(i)) {
        Some(Tok::Word(word, _)) if IN.contains(&word.as_str()) => {
            subject_scope(&before[..at - 1], to)
        }
        Some(Tok::Word(word, _)) if to => (word == "expect").then_some(scope),
        _ => (!to).then_some(scope),
    }
}

/// The container the noun phrase that ends `toks` names, and where the phrase starts. A
/// possessive names its owner: "the cart's total" is in the cart, and "the "Work" row's count"
/// in the "Work" row.
fn subject_phrase(toks: &[Tok]) -> Option<(usize, Scope)> {
    if let Some(found) = phrase_scope(toks) {
        return Some(found);
    }
    // The plain words that end the phrase, back to a possessive before them.
    let owner = toks
        .iter()
        .rposition(|t| !matches!(t, Tok::Word(w, _) if noun_word(w)))?;
    let Tok::Word(word, _) = &toks[owner] else {
        return None;
    };
    let stem = possessive(word)?;
    let mut owned = toks[..=owner].to_vec();
    owned[owner] = Tok::Word(stem.to_owned(), stem.to_owned());
    phrase_scope(&owned)
}

/// The container a noun phrase that ends `toks` names, and where the phrase starts.
fn phrase_scope(toks: &[Tok]) -> Option<(usize, Scope)> {
    let len = toks.len();
    let container = |word: &str| CONTAINERS.contains(&word);
    let named = |text: &String, noun: &String| Scope::Named {
        text: text.clone(),
        noun: Some(noun.clone()),
    };
    match toks {
        // `the "Work" row`
        [.., Tok::Lit(text), Tok::Word(noun, _)] if container(noun) => {
            Some((len - 2, named(text, noun)))
        }
        // `the row "Work"`
        [.., Tok::Word(noun, _), Tok::Lit(text)] if container(noun) => {
            Some((len - 2, named(text, noun)))
        }
        // `table 2`
        [.., Tok::Word(table, _), Tok::Word(n, _)] if table == "table" => n
            .parse()
            .ok()
            .filter(|n| *n > 0)
            .map(|n| (len - 2, Scope::NthTable(n))),
        // `the second table`
        [.., Tok::Word(nth, _), Tok::Word(table, _)] if table == "table" => ORDINALS
            .iter()
            .find(|(word, _)| word == nth)
            .map(|&(_, n)| (len - 2, Scope::NthTable(n)))
            .or_else(|| bare_noun(toks)),
        _ => bare_noun(toks),
    }
}

/// The container a phrase of plain words names by its last word (`the shopping cart`), and
/// where the phrase starts: the words before the noun up to an article qualify it.
fn bare_noun(toks: &[Tok]) -> Option<(usize, Scope)> {
    let (Tok::Word(noun, _), before) = toks.split_last()? else {
        return None;
    };
    if !CONTAINERS.contains(&noun.as_str()) {
        return None;
    }
    if let Some(Tok::Word(word, _)) = before.last()
        && PARTS.contains(&word.as_str())
    {
        return None;
    }
    let start = before
        .iter()
        .rposition(
            |t| !matches!(t, Tok::Word(w, _) if noun_word(w) && !ARTICLES.contains(&w.as_str())),
        )
        .map_or(0, |at| at + 1);
    Some((start, Scope::Container(noun.clone())))
}

/// The owner a possessive word names (`cart's`, `row’s`), if it is one.
fn possessive(word: &str) -> Option<&str> {
    word.strip_suffix('s')?
        .strip_suffix(['\'', '’'])
        .filter(|owner| noun_word(owner))
}

/// Whether `word` may be a scope's noun: letters only, and no stop word.
fn noun_word(word: &str) -> bool {
    !word.is_empty() && word.chars().all(char::is_alphabetic) && !STOPS.contains(&word)
}

/// Whether `container` shows `name`, as whole words in its case: in a name of its markup, its
/// heading or its text.
fn shows(container: &Container, name: &str) -> bool {
    container
        .names
        .iter()
        .chain([&container.heading, &container.text])
        .any(|said| holds_words(said, name))
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
            assert_eq!(
                &Scope::of(sentence),
                &Vec::from_iter(want.clone()),
                "{sentence}"
            );
        }
    }

    #[test]
    fn a_subject_that_names_a_container_is_a_scope() {
        let cart = || Scope::Container("cart".into());
        let cases: &[(&str, &[Scope])] = &[
            ("the \"Work\" row shows 3", &[named("Work", Some("row"))]),
            ("the row \"Work\" shows 3", &[named("Work", Some("row"))]),
            ("the cart shows 2 items", &[cart()]),
            ("the shopping cart has 2 items", &[cart()]),
            ("the second table has 4 rows", &[Scope::NthTable(2)]),
            ("table 3 has 4 rows", &[Scope::NthTable(3)]),
            (
                "the sidebar says \"Hi\"",
                &[Scope::Container("sidebar".into())],
            ),
            (
                "the \"Billing\" section shows \"Paid\"",
                &[named("Billing", Some("section"))],
            ),
            ("expect the cart to show 2 items", &[cart()]),
            ("the cart doesn't show \"Tea\"", &[cart()]),
            // A possessive names its owner.
            ("the cart's total is \"$3\"", &[cart()]),
            (
                "the \"Work\" row's open count is 3",
                &[named("Work", Some("row"))],
            ),
            // A subject in a scope and a scope of its own: the element must be in both.
            (
                "the \"Work\" row in the second table shows 3",
                &[Scope::NthTable(2), named("Work", Some("row"))],
            ),
            // A subject after a scope word is read once, as the scope word's.
            (
                "the price in the row \"Tea\" says \"$3\"",
                &[named("Tea", Some("row"))],
            ),
            // The subject is the element checked, not a region it is in.
            ("the row count is 3", &[]),
            ("the cart icon is visible", &[]),
            ("the counter says \"2 items left\"", &[]),
            ("the \"Save\" button is disabled", &[]),
            ("the todo \"buy milk\" is done", &[]),
            ("the column header says \"Name\"", &[]),
            ("the search box shows \"tea\"", &[]),
            // "to" ends a subject only after "expect": these are actions.
            ("add \"Tea\" to the cart", &[]),
            ("drag the row \"Work\" to the top", &[]),
        ];
        for (sentence, want) in cases {
            assert_eq!(&Scope::of(sentence), want, "{sentence}");
        }
    }

    fn container(tag: &str, names: &str, text: &str) -> Container {
        Container {
            tag: tag.into(),
            names: names.split_whitespace().map(str::to_owned).collect(),
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
    fn a_named_row_is_the_nearest_row_and_holds_the_name_as_whole_words() {
        let work = named("Work", Some("row"));
        // "Work" is part of a word in the Workshop row.
        assert!(!work.holds(&cell_of("Workshop", 1)));
        assert!(!work.holds(&cell_of("Homework", 1)));
        assert!(work.holds(&cell_of("(Work)", 1)));
        // Without a noun the name is still whole words.
        assert!(!named("Work", None).holds(&[container("td", "", "Workshop 3")]));
        assert!(named("Work", None).holds(&[container("td", "", "Work 3")]));
        // A row of a table nested in the Work row is the nearest row of a cell inside it,
        // and it is not the Work row: the outer row also holds the other rows' names.
        let nested = [
            container("td", "open", "3"),
            container("tr", "", "Home 3"),
            container("table", "", "Home 3"),
            container("td", "", "Home 3"),
            container("tr", "", "Work Home 3"),
        ];
        assert!(!work.holds(&nested));
        assert!(named("Home", Some("row")).holds(&nested));
        // A name in a class is read whole too: `narrow` and `arrow` are no rows, so the
        // nearest row of a cell in them is the table row.
        let in_narrow = [
            container("span", "arrow", "3"),
            container("div", "narrow", "3"),
            container("tr", "", "Home 3"),
            container("table", "sortable", "Work 3 Home 3"),
        ];
        assert!(named("Home", Some("row")).holds(&in_narrow));
        assert!(!work.holds(&in_narrow));
        assert!(!Scope::Noun("table".into()).holds(&in_narrow[..3]));
        // A part of a row named after it (`row-count`) is not the row.
        let count = [
            container("span", "row-count", "3"),
            container("tr", "", "Work 3"),
        ];
        assert!(work.holds(&count));
    }

    #[test]
    fn a_layout_grids_row_is_not_the_row_a_sentence_names() {
        let work = named("Work", Some("row"));
        let grid_row = |text: &str| Container {
            columns: true,
            ..container("div", "row g-0", text)
        };
        // Bootstrap: the count is a column of a grid row inside the Work row's cell.
        let in_cell = [
            container("div", "col open", "3"),
            grid_row("3 open"),
            container("td", "", "3 open"),
            container("tr", "", "Work 3 open"),
            container("tbody", "", "Work 3 open Home 3 open"),
            container("table", "table table-striped", "Work 3 open Home 3 open"),
            container("div", "col-md-8", "Projects Work 3 open Home 3 open"),
            grid_row("Projects Work 3 open Home 3 open"),
        ];
        assert!(work.holds(&in_cell));
        // The Home row's cell: its table row is the nearest, not the grid around the table.
        let mut home = in_cell.clone();
        home[3] = container("tr", "", "Home 3 open");
        assert!(!work.holds(&home));
        // A grid's row around the whole table is no row of the table's cells.
        let grid_only = [container("td", "", "3"), grid_row("Work 3 Home 3")];
        assert!(!work.holds(&grid_only));
        // A class `row` whose children are no columns is a row.
        assert!(work.holds(&[
            container("span", "", "3"),
            container("div", "row", "Work 3")
        ]));
    }

    #[test]
    fn a_container_subject_holds_on_the_container_itself_and_inside_it() {
        let cart = Scope::Container("cart".into());
        let panel = container("div", "cart-panel", "Tea $3");
        assert!(cart.holds(std::slice::from_ref(&panel)), "the cart itself");
        assert!(cart.holds(&[container("span", "total", "$3"), panel]));
        let wishlist = [
            container("span", "total", "$3"),
            container("aside", "wishlist", "Tea $3"),
        ];
        assert!(!cart.holds(&wishlist));
        assert!(!cart.holds(&[]));
        // The row a subject names, read by its own row element or by a cell inside it.
        let work = named("Work", Some("row"));
        assert!(work.holds(&cell_of("Work", 1)[1..]));
        assert!(!work.holds(&cell_of("Home", 1)[1..]));
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
