//! What the page shows beyond its aria snapshot, as the step host's `structure.js` lists it:
//! elements known by a test id or by the words of a semantic class or id (an unnamed list of
//! todos, a counter in a `<span>`, a field without a label), the items of each list, and the
//! controls a row hides until it is hovered. Each comes with the locator a Playwright engineer
//! would keep (`getByTestId`, else a tag and one semantic class), or none.
//!
//! Main type: [`Structure`]; [`Structure::by_words`] finds the elements a description means.

use serde::Deserialize;

/// One element `structure.js` listed.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub(crate) struct Hint {
    /// Its ARIA role, explicit or implied by its tag (`generic` when none).
    pub role: String,
    pub tag: String,
    /// The words of its test id, semantic classes, id and `name`, lower case.
    pub words: Vec<String>,
    /// The locator that finds it alone on the page (`page.getByTestId('x')`,
    /// `page.locator('span.todo-count')`); for a control hidden in a row, relative to the row
    /// and starting with `ROW`.
    pub locator: Option<String>,
    /// Its text, whitespace collapsed.
    pub text: String,
    pub visible: bool,
    pub placeholder: Option<String>,
    /// `aria-label` or `title`.
    pub label: Option<String>,
    /// For a list, the texts of its visible items.
    pub items: Option<Vec<String>>,
    /// For a control hidden in a row, the row's text.
    pub row: Option<String>,
    /// For a control its page marks as the current one of its group, the marks that a peer
    /// in the group lacks.
    pub marks: Option<Vec<Mark>>,
    /// For a marked control, the other controls of its group with the same role.
    pub peers: Option<Vec<Peer>>,
    /// For a loading indicator, what makes it one: `progressbar` (its role), `busy`
    /// (`aria-busy="true"`), or its class or id (`loading`, `loader`, `spinner`, `progress`).
    pub indicator: Option<String>,
    /// Whether it has an inline context-menu handler (`oncontextmenu`): a right-click on it
    /// does what the page means one to do.
    pub contextmenu: bool,
    /// Whether it is an element of the page's own (in no row) that the page hides now, listed
    /// because a check may say it is hidden and a later act may show it.
    pub hidden: bool,
}

/// How a page marks a control as the current one: a state class (`selected`), or an ARIA
/// attribute and its value (`aria-current="page"`).
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub(crate) struct Mark {
    pub class: Option<String>,
    pub attribute: Option<String>,
    pub value: Option<String>,
}

/// A peer of a marked control: its text and its own marks.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub(crate) struct Peer {
    pub text: String,
    pub marks: Vec<Mark>,
}

/// The elements `structure.js` listed; empty when the page could not be read.
#[derive(Debug, Clone, Default)]
pub(crate) struct Structure {
    pub hints: Vec<Hint>,
}

impl Structure {
    /// Reads `structure.js`'s JSON; anything else is an empty structure, since the generator
    /// then only declines more.
    pub(crate) fn parse(json: &str) -> Self {
        Self {
            hints: serde_json::from_str(json).unwrap_or_default(),
        }
    }

    /// The visible elements with a locator whose words hold every word of `wanted` (a word
    /// matches the same word, its plural, or a longer or shorter form of four letters or more:
    /// `counter` and `count`, `todos` and `todo`) and whose role is one of `roles` (any role
    /// when empty).
    pub(crate) fn by_words(&self, wanted: &[String], roles: &[&str]) -> Vec<&Hint> {
        if wanted.is_empty() {
            return Vec::new();
        }
        self.hints
            .iter()
            .filter(|h| h.visible && h.locator.as_deref().is_some_and(|l| l.starts_with("page")))
            .filter(|h| roles.is_empty() || roles.contains(&h.role.as_str()))
            .filter(|h| {
                wanted
                    .iter()
                    .all(|w| h.words.iter().any(|own| same_word(own, w)))
            })
            .collect()
    }

    /// The structure with the elements the page hides now counted as shown: what a sentence
    /// about an element an earlier part of its step may show (a toggle-all control shown once
    /// there is an item), or a check that it is hidden, is read on.
    pub(crate) fn revealed(&self) -> Self {
        let mut hints = self.hints.clone();
        for hint in hints.iter_mut().filter(|h| h.hidden) {
            hint.visible = true;
        }
        Self { hints }
    }

    /// The controls hidden in the row whose text is `row` (whole, in any case) that one of
    /// `names` describes (by a word of their test id or class, their label or their text).
    pub(crate) fn hidden_in_row(&self, row: &str, names: &[&str]) -> Vec<&Hint> {
        let row = row.trim().to_lowercase();
        self.hints
            .iter()
            .filter(|h| {
                h.row
                    .as_deref()
                    .is_some_and(|r| r.trim().to_lowercase() == row)
                    && h.locator.is_some()
            })
            .filter(|h| {
                names.iter().any(|name| {
                    h.words.iter().any(|w| same_word(w, name))
                        || h.label.as_deref().is_some_and(|l| {
                            l.to_lowercase().split_whitespace().any(|w| w == *name)
                        })
                        || h.text.trim() == *name
                })
            })
            .collect()
    }
}

/// [`Structure::revealed`] of `structure.js`'s JSON, as JSON: for a sentence handed on as text
/// to be read on the page with the elements it hides now counted as shown. Anything but the
/// JSON of a list is returned as it is.
pub(crate) fn revealed_json(json: &str) -> String {
    let Ok(mut hints) = serde_json::from_str::<Vec<serde_json::Value>>(json) else {
        return json.to_owned();
    };
    for hint in &mut hints {
        if hint.get("hidden") == Some(&serde_json::Value::Bool(true)) {
            hint["visible"] = serde_json::Value::Bool(true);
        }
    }
    serde_json::to_string(&hints).unwrap_or_else(|_| json.to_owned())
}

/// Whether two lower-case words name the same thing: equal, a plural (`todos`), or one the
/// start of the other when the shorter has four letters or more (`count` / `counter`).
pub(crate) fn same_word(a: &str, b: &str) -> bool {
    let (a, b) = (a.to_lowercase(), b.to_lowercase());
    if a == b {
        return true;
    }
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    short.len() >= 4 && long.starts_with(short.as_str())
        || long.strip_suffix('s') == Some(short.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    const TODOS: &str = r#"[
      {"role":"textbox","tag":"input","words":["new","todo"],"locator":"page.locator('input.new-todo')","text":"","visible":true,"placeholder":"What needs to be done?"},
      {"role":"list","tag":"ul","words":["todo","list"],"locator":"page.locator('ul.todo-list')","text":"a b","visible":true,"items":["a","b"]},
      {"role":"generic","tag":"span","words":["todo","count"],"locator":"page.locator('span.todo-count')","text":"2 items left","visible":true},
      {"role":"list","tag":"ul","words":["filters"],"locator":"page.locator('ul.filters')","text":"All","visible":true,"items":["All"]},
      {"role":"checkbox","tag":"input","words":["toggle"],"locator":null,"text":"","visible":true},
      {"role":"button","tag":"button","words":["destroy"],"locator":"ROW.locator('button.destroy')","text":"","visible":false,"row":"a"},
      {"role":"checkbox","tag":"input","words":["toggle","all"],"locator":"page.locator('input.toggle-all')","text":"","visible":false,"hidden":true}
    ]"#;

    #[test]
    fn descriptions_find_elements_by_the_words_of_their_classes() {
        let s = Structure::parse(TODOS);
        let found = s.by_words(&["counter".into()], &[]);
        assert_eq!(found.len(), 1);
        assert_eq!(
            found[0].locator.as_deref(),
            Some("page.locator('span.todo-count')")
        );
        let lists = s.by_words(&["todos".into()], &["list"]);
        assert_eq!(lists.len(), 1);
        assert_eq!(
            lists[0].items.as_deref(),
            Some(&["a".to_owned(), "b".to_owned()][..])
        );
        assert!(s.by_words(&["toggle".into()], &[]).is_empty(), "no locator");
        assert!(
            s.by_words(&["new".into(), "todo".into()], &["textbox"])
                .len()
                == 1
        );
        assert!(
            s.by_words(&["new".into(), "item".into()], &["textbox"])
                .is_empty()
        );
    }

    #[test]
    fn an_element_the_page_hides_is_found_only_once_revealed() {
        let s = Structure::parse(TODOS);
        let toggle = ["toggle".to_owned(), "all".to_owned()];
        assert!(s.by_words(&toggle, &["checkbox"]).is_empty());
        let revealed = s.revealed();
        let found = revealed.by_words(&toggle, &["checkbox"]);
        assert_eq!(
            found[0].locator.as_deref(),
            Some("page.locator('input.toggle-all')")
        );
        // A row's hover control stays a row's: revealing shows only the page's own elements.
        assert!(revealed.by_words(&["destroy".into()], &[]).is_empty());
        assert_eq!(
            Structure::parse(&revealed_json(TODOS)).hints,
            revealed.hints
        );
        assert_eq!(revealed_json("not json"), "not json");
    }

    #[test]
    fn hidden_row_controls_are_found_by_their_row() {
        let s = Structure::parse(TODOS);
        assert_eq!(s.hidden_in_row("A", &["delete", "destroy"]).len(), 1);
        assert!(s.hidden_in_row("ab", &["destroy"]).is_empty());
    }

    #[test]
    fn words_match_plurals_and_longer_forms_only_from_four_letters() {
        assert!(same_word("todo", "todos"));
        assert!(same_word("count", "counter"));
        assert!(!same_word("new", "newsletter"));
        assert!(!same_word("list", "todo"));
        assert!(Structure::parse("not json").hints.is_empty());
    }
}
