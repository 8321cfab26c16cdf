//! How a scope's words are matched against the elements around a read: whether a container is
//! of the kind a scope's noun names, and whether it shows a scope's quoted name. Both go by
//! whole tokens and whole words, never by substring, because `narrow` holds "row", `sortable`
//! holds "table" and "Workshop" holds "Work": a heal that reads another row than the sentence's
//! would pass the scope rule on such a page.
//!
//! A container is of a noun's kind by its tag or role (`tr`, `role=row` and `li` for a row), or
//! by a name in its markup (a class, its id, its label) whose last word is the noun or is
//! followed only by words for a box around it (`todo-row`, `row`, `cart-panel`, "Shopping
//! cart"). A name where the noun comes first and a part of it follows (`row-count`,
//! `row-actions`, `cart-badge`) names that part, which is not the container; counting it would
//! make the nearest "row" around a cell the cell's own count. A layout grid's row (`div.row`
//! whose children are `col-*` columns, as Bootstrap, Foundation and Bulma write them) arranges
//! the page and is no row of anything a sentence is about, so it is not a row.
//!
//! Main type: [`Kind`]; [`holds_words`] judges a quoted name.

use crate::script::Container;

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

/// Words that may follow a noun in a name and still name the container itself, because they
/// name a box around it, not a part inside it (`cart-panel`, `row-wrapper`, `sidebar-inner`).
const BOXES: &[&str] = &[
    "area",
    "block",
    "body",
    "box",
    "component",
    "container",
    "content",
    "contents",
    "holder",
    "inner",
    "outer",
    "pane",
    "panel",
    "region",
    "root",
    "section",
    "view",
    "widget",
    "wrap",
    "wrapper",
];

/// The kind of element a scope's noun names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Kind {
    /// The noun in lowercase, as the sentence says it (`rows`, `cart`).
    noun: String,
    /// The noun in the singular, as one word of a name says it (`row`).
    singular: String,
    /// The tags and roles of the noun's kind.
    elements: &'static [&'static str],
}

impl Kind {
    /// The kind `noun` names.
    pub(crate) fn of(noun: &str) -> Kind {
        let noun = noun.to_lowercase();
        let singular = noun.strip_suffix('s').unwrap_or(&noun).to_owned();
        let elements = KINDS
            .iter()
            .find(|(nouns, _)| nouns.contains(&noun.as_str()))
            .map_or(&[][..], |(_, elements)| *elements);
        Kind {
            noun,
            singular,
            elements,
        }
    }

    /// Whether `container` is of this kind: by its tag or role, or by a name in its markup.
    pub(crate) fn matches(&self, container: &Container) -> bool {
        let role = container.role.to_lowercase();
        let by_element = [container.tag.as_str(), role.as_str()]
            .iter()
            .any(|said| self.elements.contains(said) || *said == self.noun);
        by_element
            || (container.names.iter().any(|name| self.named_by(name))
                && !(self.singular == "row" && container.columns))
    }

    /// Whether `name` (a class, an id, a label) names an element of this kind: the noun is one
    /// of its words, and only words for a box around it follow.
    fn named_by(&self, name: &str) -> bool {
        // A BEM modifier (`todo-row--done`) says how the element looks, not what it is.
        let name = name.split("--").next().unwrap_or_default();
        let words = name_words(name);
        words.iter().enumerate().any(|(at, word)| {
            *word == self.singular && words[at + 1..].iter().all(|w| BOXES.contains(&w.as_str()))
        })
    }
}

/// The words of a name in lowercase, split at anything but a letter or a digit and where a
/// lowercase letter or a digit meets an uppercase one (`todoRow`); numbers are left out
/// (`table2` is a table).
fn name_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut before: Option<char> = None;
    for c in name.chars() {
        let split = !c.is_alphabetic()
            || before.is_some_and(|b| (b.is_lowercase() || b.is_numeric()) && c.is_uppercase());
        if split && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if c.is_alphabetic() {
            word.extend(c.to_lowercase());
        }
        before = Some(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

/// Whether `said` holds `name` as whole words, in its case: where `name` begins and ends with
/// a letter or a digit, the characters on either side of it in `said` are neither (`Work` is in
/// "Work 3" and "(Work)", not in "Workshop" or "Homework"). Whitespace is compared collapsed.
pub(crate) fn holds_words(said: &str, name: &str) -> bool {
    let said = flat(said);
    let name = flat(name);
    if name.is_empty() {
        return false;
    }
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    let open = word(name.chars().next());
    let close = word(name.chars().next_back());
    said.match_indices(&name).any(|(at, _)| {
        let left = said[..at].chars().next_back();
        let right = said[at + name.len()..].chars().next();
        let runs_on = (open && word(left)) || (close && word(right));
        !runs_on
    })
}

/// A text with its whitespace collapsed, as the page sends a container's text.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(tag: &str, names: &[&str]) -> Container {
        Container {
            tag: tag.into(),
            names: names.iter().map(|n| (*n).to_owned()).collect(),
            ..Container::default()
        }
    }

    #[test]
    fn a_name_is_of_a_kind_by_whole_words_with_the_noun_last() {
        let row = Kind::of("row");
        for yes in [
            "row",
            "todo-row",
            "todo_row",
            "todoRow",
            "TodoRow",
            "project-row-wrapper",
            "todo-row--done",
            "list__row",
            "row2",
        ] {
            assert!(row.matches(&named("div", &[yes])), "{yes}");
        }
        for no in [
            "narrow",
            "arrow",
            "rowing",
            "row-count",
            "row-actions",
            "rowTitle",
            "rows-list",
            "throw",
        ] {
            assert!(!row.matches(&named("div", &[no])), "{no}");
        }
        let table = Kind::of("table");
        assert!(!table.matches(&named("th", &["sortable"])));
        assert!(!table.matches(&named("tr", &["table-row"])));
        assert!(table.matches(&named("div", &["data-table"])));
        let cart = Kind::of("cart");
        assert!(cart.matches(&named("div", &["cart-panel"])));
        assert!(cart.matches(&named("div", &["Shopping cart"])));
        assert!(!cart.matches(&named("span", &["cart-badge"])));
        assert!(!cart.matches(&named("div", &["Cart total"])));
        assert!(!cart.matches(&named("div", &["cartography"])));
    }

    #[test]
    fn tags_and_roles_are_their_nouns_kind() {
        let rows = Kind::of("rows");
        assert!(rows.matches(&named("tr", &[])));
        assert!(rows.matches(&named("li", &[])));
        let role = Container {
            role: "row".into(),
            ..named("div", &[])
        };
        assert!(rows.matches(&role));
        assert!(!rows.matches(&named("tbody", &[])));
        assert!(!rows.matches(&named("td", &["open"])));
        assert!(Kind::of("sidebar").matches(&named("aside", &[])));
        assert!(Kind::of("nav").matches(&named("nav", &[])));
    }

    #[test]
    fn a_layout_grids_row_is_no_row() {
        let row = Kind::of("row");
        let grid = Container {
            columns: true,
            ..named("div", &["row", "g-3"])
        };
        assert!(!row.matches(&grid), "Bootstrap's div.row of columns");
        // A table row is a row whatever its children are.
        let tr = Container {
            columns: true,
            ..named("tr", &["row"])
        };
        assert!(row.matches(&tr));
        // A row of something, named so, whose children are no columns.
        assert!(row.matches(&named("div", &["row"])));
    }

    #[test]
    fn a_name_is_held_as_whole_words_in_its_case() {
        assert!(holds_words("Work 3", "Work"));
        assert!(holds_words("(Work) 3", "Work"));
        assert!(holds_words("the  Work\tshop", "Work shop"));
        assert!(!holds_words("Workshop 3", "Work"));
        assert!(!holds_words("Homework 3", "Work"));
        assert!(!holds_words("Work3", "Work"));
        assert!(!holds_words("work 3", "Work"));
        assert!(!holds_words("Workshop Work", "Work shop"));
        // A name that begins or ends with no letter needs no boundary on that side.
        assert!(holds_words("total:$3", "$3"));
        assert!(!holds_words("total $30", "$3"));
        assert!(
            holds_words("Workshop Work", "Work"),
            "a later whole occurrence"
        );
        assert!(!holds_words("Work", ""));
    }
}
