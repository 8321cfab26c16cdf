//! The code of a check on the page's cards (`cards.rs` reads it and finds the cards): the cards
//! are the children of their container that hold a heading of the cards' level, and one card is
//! the one whose heading is the name, whole.
//!
//! Main function: [`code`], for `codegen.rs`.

use crate::writer::builtin::cards::{Cards, Container};
use crate::writer::builtin::intent::{CardCheck, Decline};
use crate::writer::builtin::locator::js_str;
use crate::writer::builtin::resolve::{bounded_regex_js, whole_regex_with_flags};
use crate::writer::builtin::snapshot::Snapshot;

/// The statements of `check` on the page's one collection of cards.
pub(crate) fn code(check: &CardCheck, snap: &Snapshot) -> Result<Vec<String>, Decline> {
    Cards::find(snap).and_then(|cards| lines(check, &cards))
}

/// The locator of the element whose children the cards are.
fn container(container: &Container) -> String {
    match container {
        Container::Named { role, name } => format!(
            "page.getByRole({}, {{ name: {}, exact: true }})",
            js_str(role),
            js_str(name)
        ),
        Container::OnlyOfRole(role) => format!("page.getByRole({})", js_str(role)),
    }
}

/// The cards: the container's children that hold a heading of the cards' level.
fn all(cards: &Cards) -> String {
    format!(
        "{}.locator(':scope > *').filter({{ has: page.getByRole('heading', {{ level: {} }}) }})",
        container(&cards.container),
        cards.level
    )
}

/// The card whose heading is `name` (whole, in any case).
fn named(cards: &Cards, name: &str) -> String {
    format!(
        "{}.filter({{ has: page.getByRole('heading', {{ name: {}, level: {} }}) }})",
        all(cards),
        whole_regex_with_flags(name, ""),
        cards.level
    )
}

fn lines(check: &CardCheck, cards: &Cards) -> Result<Vec<String>, Decline> {
    let all = all(cards);
    Ok(match check {
        CardCheck::Count(n, _) => vec![format!("await expect({all}).toHaveCount({n});")],
        CardCheck::Names { names, only, .. } => {
            let names = cards.split(names)?;
            let mut out = vec![format!("const cards = {all};")];
            if *only {
                out.push(format!("await expect(cards).toHaveCount({});", names.len()));
            }
            for name in &names {
                out.push(format!(
                    "await expect({}).toBeVisible();",
                    named(cards, name)
                ));
            }
            out
        }
        CardCheck::CountedNames { count, names, .. } => {
            let names = cards.split(names)?;
            if names.len() != *count {
                return Err(Decline::new(format!(
                    "the sentence counts {count} items but names {}",
                    names.len()
                )));
            }
            let mut out = vec![
                format!("const cards = {all};"),
                format!("await expect(cards).toHaveCount({count});"),
            ];
            for name in &names {
                out.push(format!(
                    "await expect({}).toBeVisible();",
                    named(cards, name)
                ));
            }
            out
        }
        CardCheck::Absent(names) => {
            let names = cards.split(names)?;
            names
                .iter()
                .map(|name| format!("await expect({}).toHaveCount(0);", named(cards, name)))
                .collect()
        }
        CardCheck::Price { name: None, price } => vec![
            format!("const card = {all};"),
            "await expect(card).toHaveCount(1);".to_owned(),
            format!(
                "await expect(card).toContainText({});",
                bounded_regex_js(price)
            ),
        ],
        CardCheck::Price {
            name: Some(name),
            price,
        } => {
            let names = cards.split(name)?;
            let [name] = names.as_slice() else {
                return Err(Decline::new("one item's price at a time"));
            };
            vec![format!(
                "await expect({}).toContainText({});",
                named(cards, name),
                bounded_regex_js(price)
            )]
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::cards::read;
    use crate::writer::builtin::tokens::{normalize, tokenize};

    const SHOP: &str = "- generic:\n  - banner:\n    - heading \"The Shop\" [level=1]\n  - main:\n    - generic:\n      - heading \"Hot dogs\" [level=2]\n      - paragraph: $1.99\n      - img \"hot dogs\"\n    - generic:\n      - heading \"Spam\" [level=2]\n      - paragraph: $2.85\n    - generic:\n      - heading \"Carrot and coriander soup\" [level=2]\n      - paragraph: $1.49\n";

    fn written(sentence: &str) -> Result<Vec<String>, String> {
        let toks = normalize(tokenize(sentence, &[]));
        match read(&toks) {
            None => Err("not about cards".to_owned()),
            Some(check) => code(&check, &Snapshot::parse(SHOP)).map_err(|d| d.0),
        }
    }

    const ALL: &str = "page.getByRole('main').locator(':scope > *').filter({ has: page.getByRole('heading', { level: 2 }) })";

    #[test]
    fn counts_are_exact_whatever_the_noun() {
        let expected = vec![format!("await expect({ALL}).toHaveCount(3);")];
        for sentence in [
            "3 products are shown",
            "there are 3 products",
            "the number of products shown is 3",
            "all 3 products are back",
            "three items are displayed",
        ] {
            assert_eq!(written(sentence).as_ref(), Ok(&expected), "{sentence}");
        }
    }

    #[test]
    fn names_are_split_by_the_headings_on_the_page() {
        let lines =
            written("the products are Hot dogs, Spam and Carrot and coriander soup").unwrap();
        assert_eq!(lines[1], "await expect(cards).toHaveCount(3);");
        assert!(
            lines[4].contains("/^\\s*Carrot\\s+and\\s+coriander\\s+soup\\s*$/"),
            "{lines:?}"
        );
        let lines = written("Hot dogs and Spam are shown").unwrap();
        assert_eq!(lines.len(), 3, "no count without `only`: {lines:?}");
        assert!(written("Hot dogs and Corned beef are shown").is_err());
        let lines = written("exactly two products appear: Hot dogs and Spam").unwrap();
        assert_eq!(lines[1], "await expect(cards).toHaveCount(2);");
        assert!(written("exactly three products appear: Hot dogs and Spam").is_err());
    }

    #[test]
    fn a_price_is_read_in_the_items_own_card() {
        assert_eq!(
            written("Spam is priced $2.85"),
            Ok(vec![format!(
                "await expect({ALL}.filter({{ has: page.getByRole('heading', {{ name: /^\\s*Spam\\s*$/, level: 2 }}) }})).toContainText(/\\$2\\.85(?![\\p{{L}}\\p{{N}}_]|[.,]\\p{{N}})/u);"
            )])
        );
        assert_eq!(written("Spam costs $2.85"), written("Spam is priced $2.85"));
        assert_eq!(
            written("Spam is listed at $2.85"),
            written("Spam is priced $2.85")
        );
        assert_eq!(written("Spam is $2.85"), written("Spam is priced $2.85"));
        assert_eq!(
            written("the price shown is $2.85").unwrap()[1],
            "await expect(card).toHaveCount(1);"
        );
    }

    #[test]
    fn an_absent_item_is_counted_none_in_the_cards() {
        assert_eq!(
            written("Baked beans is no longer shown"),
            Ok(vec![format!(
                "await expect({ALL}.filter({{ has: page.getByRole('heading', {{ name: /^\\s*Baked\\s+beans\\s*$/, level: 2 }}) }})).toHaveCount(0);"
            )])
        );
        assert_eq!(written("Spam is not displayed").unwrap().len(), 1);
    }

    #[test]
    fn other_sentences_are_not_about_cards() {
        for sentence in [
            "click Filter results",
            "the counter says 3",
            "no soup is listed",
        ] {
            assert!(written(sentence).is_err(), "{sentence}");
        }
        let none = Snapshot::parse("- main:\n  - paragraph: No results\n");
        let toks = normalize(tokenize("3 products are shown", &[]));
        let check = read(&toks).expect("a count of cards");
        assert!(code(&check, &none).is_err());
    }
}
