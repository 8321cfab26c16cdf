//! Sentences about a table's columns and about one cell, named by its column header without
//! quotes: `the first table has the columns Last Name, First Name and Email`, `the email of
//! Frank Bach is "fbach@yahoo.com"`, `Jason Doe owes $100.00`, `the first due amount in table 2
//! is $100.00`. A column's name is the sentence's words, so the cell shape reads the page: it
//! reads a sentence only when a table on the page has a column header of that name, and leaves
//! every other sentence to the other shapes. The code is written by `cell_code.rs`.
//!
//! Main types: [`TableColumns`] and [`ColumnCells`], the shapes.

use std::sync::LazyLock;

use regex::Regex;

use crate::writer::builtin::intent::{Column, Decline, Intent, Literal, RowRef, TableRef};
use crate::writer::builtin::phrases::ordinal;
use crate::writer::builtin::shape::{Example, Sentence, Shape};
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::builtin::tables::table_ref;
use crate::writer::builtin::tokens::{Tok, normalize, tokenize};

/// `TABLE has the columns LIST`: the table's words and the list as written.
static HAS_COLUMNS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(.+?)\s+(?:has|have|shows|show|lists|list)\s+(?:the\s+|these\s+)?(?:columns|column\s+headers|headers)\s*:?\s+(.+?)[.\s]*$",
    )
    .unwrap_or_else(|_| unreachable!("a constant pattern"))
});

/// `the columns of TABLE are LIST`.
static COLUMNS_ARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:the\s+)?(?:columns|column\s+headers|headers)\s+(?:of|in)\s+(.+?)\s+(?:are|is)\s*:?\s+(.+?)[.\s]*$",
    )
    .unwrap_or_else(|_| unreachable!("a constant pattern"))
});

/// The items of a list as written, `A, B, C and D` (`, and D` too): cut at its commas, and its
/// last item at `and`. A quoted item is kept whole, quotes removed.
fn list_items(text: &str) -> Option<Vec<String>> {
    let mut items = Vec::new();
    let parts: Vec<&str> = text.split(',').collect();
    let last = parts.len() - 1;
    for (at, part) in parts.iter().enumerate() {
        let part = part.trim();
        let part = if at == last && at > 0 {
            part.strip_prefix("and ").unwrap_or(part)
        } else {
            part
        };
        if at == last && !is_quoted(part) {
            items.extend(part.split(" and ").map(str::to_owned));
        } else {
            items.push(part.to_owned());
        }
    }
    let items: Vec<String> = items
        .into_iter()
        .map(|item| unquoted(item.trim()).to_owned())
        .collect();
    (!items.iter().any(String::is_empty)).then_some(items)
}

/// Whether `text` is one quoted text.
fn is_quoted(text: &str) -> bool {
    unquoted(text) != text
}

/// `text` without the pair of quotes around it, if it has one.
fn unquoted(text: &str) -> &str {
    for (open, close) in [('"', '"'), ('\'', '\''), ('“', '”')] {
        if let Some(inner) = text
            .strip_prefix(open)
            .and_then(|rest| rest.strip_suffix(close))
            && !inner.contains(close)
        {
            return inner;
        }
    }
    text
}

/// The shape of `the first table has the columns Last Name, First Name and Email`: exactly
/// these column headers, in this order.
pub(crate) struct TableColumns;

impl Shape for TableColumns {
    fn name(&self) -> &'static str {
        "a table's columns"
    }
    fn examples(&self) -> &'static [Example] {
        COLUMNS
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        let text = s.text?;
        let caps = HAS_COLUMNS
            .captures(text)
            .or_else(|| COLUMNS_ARE.captures(text))?;
        let table = table_ref(&normalize(tokenize(&caps[1], s.columns)))?;
        Some(
            list_items(&caps[2])
                .map(|items| Intent::TableColumns {
                    table,
                    values: items.into_iter().map(Literal).collect(),
                })
                .ok_or_else(|| {
                    Decline::new(
                        "the built-in generator reads a table's columns as a list of their \
                         names: `table 1 has the columns Name, Email and Due`",
                    )
                }),
        )
    }
}

/// The shape of a cell named by its column and its row: `the email of Frank Bach is "x"`,
/// `Jason Doe owes $100.00`, `the first due amount in table 2 is $100.00`.
pub(crate) struct ColumnCells;

impl Shape for ColumnCells {
    fn name(&self) -> &'static str {
        "a cell by its column"
    }
    fn examples(&self) -> &'static [Example] {
        CELLS
    }
    fn needs_page(&self) -> bool {
        true
    }
    fn rescues(&self) -> bool {
        true
    }
    fn read(&self, s: &Sentence<'_>) -> Option<Result<Intent, Decline>> {
        let page = s.page?;
        let cell = read_cell(s.toks)?;
        let Intent::ColumnCell { column, .. } = &cell else {
            return None;
        };
        page_has_column(page, column).then_some(Ok(cell))
    }
}

/// The words of `toks` as written, joined by spaces, when they are all words.
fn as_written(toks: &[Tok]) -> Option<String> {
    let words: Vec<&str> = toks
        .iter()
        .map(|t| match t {
            Tok::Word(_, orig) => Some(orig.as_str()),
            Tok::Lit(_) => None,
        })
        .collect::<Option<_>>()?;
    (!words.is_empty()).then(|| words.join(" "))
}

/// A cell's value: one quoted text, or the words as written.
fn cell_value(toks: &[Tok]) -> Option<Literal> {
    match toks {
        [Tok::Lit(text)] => Some(Literal(text.clone())),
        _ => as_written(toks).map(Literal),
    }
}

/// A row's name: one quoted text, or the words as written.
fn row_name(toks: &[Tok]) -> Option<RowRef> {
    let toks = match toks {
        [the, rest @ ..] if the.is("the") => rest,
        _ => toks,
    };
    // `the first row`, `row 2`.
    match toks {
        [nth, row] if row.is("row") => return ordinal(nth).map(RowRef::Nth),
        [row, Tok::Word(n, _)] if row.is("row") => {
            return n
                .parse::<isize>()
                .ok()
                .filter(|&n| n > 0)
                .map(|n| RowRef::Nth(n - 1));
        }
        _ => {}
    }
    match toks {
        [Tok::Lit(name)] => Some(RowRef::Named(name.clone())),
        _ => as_written(toks).map(RowRef::Named),
    }
}

/// Cuts `toks` at their last `in` or `of` that a table's name follows: the words before it
/// and the table.
fn in_table(toks: &[Tok]) -> (&[Tok], Option<TableRef>) {
    let cut = toks
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, w)| w.is("in") || w.is("of"))
        .find_map(|(at, _)| table_ref(&toks[at + 1..]).map(|table| (at, table)));
    match cut {
        Some((at, table)) => (&toks[..at], Some(table)),
        None => (toks, None),
    }
}

/// The words of a column's noun, without an article.
fn noun(toks: &[Tok]) -> Option<String> {
    let toks = match toks {
        [the, rest @ ..] if the.is("the") => rest,
        _ => toks,
    };
    as_written(toks).filter(|noun| !noun.split_whitespace().any(|w| w == "of"))
}

/// A cell named by its column and row, read from the words alone.
fn read_cell(toks: &[Tok]) -> Option<Intent> {
    // `Jason Doe owes $100.00`, `Jason Doe in table 1 owes $100.00`.
    if let Some(at) = toks.iter().position(|w| w.is("owes")) {
        let (row, table) = in_table(&toks[..at]);
        let value = match &toks[at + 1..] {
            [one] => cell_value(std::slice::from_ref(one))?,
            _ => return None,
        };
        return Some(Intent::ColumnCell {
            table,
            row: row_name(row)?,
            column: Column::Owed,
            value,
        });
    }
    let is = toks.iter().position(|w| w.is("is"))?;
    let value = cell_value(&toks[is + 1..])?;
    let (subject, table) = in_table(&toks[..is]);
    // `the email of Frank Bach`, `the email of the first row`.
    if let Some(of) = subject.iter().position(|w| w.is("of")) {
        return Some(Intent::ColumnCell {
            table,
            row: row_name(&subject[of + 1..])?,
            column: Column::Noun(noun(&subject[..of])?),
            value,
        });
    }
    // `the first due amount`.
    let subject = match subject {
        [the, rest @ ..] if the.is("the") => rest,
        _ => subject,
    };
    let (nth, column) = subject.split_first()?;
    Some(Intent::ColumnCell {
        table,
        row: RowRef::Nth(ordinal(nth)?),
        column: Column::Noun(noun(column)?),
        value,
    })
}

/// Whether the page shows a column header that `column` names.
fn page_has_column(page: &Snapshot, column: &Column) -> bool {
    page.with_roles(&["columnheader"]).iter().any(|&at| {
        page.nodes[at]
            .name
            .as_deref()
            .is_some_and(|name| column.matches(name))
    })
}

/// Two tables of people and what they owe, under their headings, as the-internet's Sortable
/// Data Tables page shows them.
pub(crate) const PEOPLE: &str = r#"- heading "Example 1" [level=4]
- table:
  - rowgroup:
    - row "Last Name First Name Email Due":
      - columnheader "Last Name"
      - columnheader "First Name"
      - columnheader "Email"
      - columnheader "Due"
  - rowgroup:
    - row "Smith John jsmith@gmail.com $50.00":
      - cell "Smith"
      - cell "John"
      - cell "jsmith@gmail.com"
      - cell "$50.00"
    - row "Doe Jason jdoe@hotmail.com $100.00":
      - cell "Doe"
      - cell "Jason"
      - cell "jdoe@hotmail.com"
      - cell "$100.00"
- heading "Example 2" [level=4]
- table:
  - rowgroup:
    - row "Last Name Due":
      - columnheader "Last Name"
      - columnheader "Due"
  - rowgroup:
    - row "Doe $100.00":
      - cell "Doe"
      - cell "$100.00"
"#;

const COLUMNS: &[Example] = &[Example {
    sentence: "the first table has the columns Last Name, First Name, Email and Due",
    page: PEOPLE,
    code: "await expect(page.getByRole('table').nth(0).getByRole('columnheader')).toHaveText(['Last Name', 'First Name', 'Email', 'Due']);",
}];

const CELLS: &[Example] = &[
    Example {
        sentence: r#"the email of Jason Doe is "jdoe@hotmail.com""#,
        page: PEOPLE,
        code: r#"await expect(page.getByRole('table').nth(0).getByRole('row').filter({ has: page.getByRole('cell', { name: 'Jason', exact: true }) }).filter({ has: page.getByRole('cell', { name: 'Doe', exact: true }) }).locator('xpath=./*[(self::td or self::th) and (ancestor::table[1]//th[normalize-space(.)="Email"]) and position() = count((ancestor::table[1]//th[normalize-space(.)="Email"])[1]/preceding-sibling::*) + 1]')).toHaveText('jdoe@hotmail.com');"#,
    },
    Example {
        sentence: "the first due amount in table 2 is $100.00",
        page: PEOPLE,
        code: r#"await expect(page.getByRole('table').nth(1).getByRole('row').filter({ hasNot: page.getByRole('columnheader') }).nth(0).locator('xpath=./*[(self::td or self::th) and (ancestor::table[1]//th[normalize-space(.)="Due"]) and position() = count((ancestor::table[1]//th[normalize-space(.)="Due"])[1]/preceding-sibling::*) + 1]')).toHaveText('$100.00');"#,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(sentence: &str) -> Vec<Tok> {
        normalize(tokenize(sentence, &[]))
    }

    #[test]
    fn a_list_of_columns_is_cut_at_commas_and_its_last_and() {
        assert_eq!(
            list_items("Last Name, First Name, Email, Due, Web Site and Action"),
            Some(
                [
                    "Last Name",
                    "First Name",
                    "Email",
                    "Due",
                    "Web Site",
                    "Action"
                ]
                .map(str::to_owned)
                .to_vec()
            )
        );
        assert_eq!(
            list_items("\"Terms and Conditions\", Due, and Email"),
            Some(
                ["Terms and Conditions", "Due", "Email"]
                    .map(str::to_owned)
                    .to_vec()
            )
        );
        assert_eq!(
            list_items("Name and Email"),
            Some(["Name", "Email"].map(str::to_owned).to_vec())
        );
        assert_eq!(list_items("Name, , Email"), None);
    }

    #[test]
    fn cells_are_named_by_column_and_row() {
        assert_eq!(
            read_cell(&toks("Jason Doe owes $100.00")),
            Some(Intent::ColumnCell {
                table: None,
                row: RowRef::Named("Jason Doe".into()),
                column: Column::Owed,
                value: Literal("$100.00".into()),
            })
        );
        assert_eq!(
            read_cell(&toks(
                "the email of Frank Bach in table 2 is \"fbach@yahoo.com\""
            )),
            Some(Intent::ColumnCell {
                table: Some(TableRef::Nth(1)),
                row: RowRef::Named("Frank Bach".into()),
                column: Column::Noun("email".into()),
                value: Literal("fbach@yahoo.com".into()),
            })
        );
        assert_eq!(
            read_cell(&toks("the first due amount in table 2 is $100.00")),
            Some(Intent::ColumnCell {
                table: Some(TableRef::Nth(1)),
                row: RowRef::Nth(0),
                column: Column::Noun("due amount".into()),
                value: Literal("$100.00".into()),
            })
        );
        assert_eq!(
            read_cell(&toks("the email of the last row is \"x@y.z\"")),
            Some(Intent::ColumnCell {
                table: None,
                row: RowRef::Nth(-1),
                column: Column::Noun("email".into()),
                value: Literal("x@y.z".into()),
            })
        );
        // An owed amount is one value: the words after it are not part of it.
        assert_eq!(read_cell(&toks("Jason Doe owes $100.00 since May")), None);
    }

    #[test]
    fn a_column_is_its_header_in_any_case_or_with_a_noun_after_it() {
        assert!(Column::Noun("due amount".into()).matches("Due"));
        assert!(Column::Noun("web site".into()).matches("Web  Site"));
        assert!(!Column::Noun("due date".into()).matches("Due"));
        assert!(!Column::Noun("amount".into()).matches("Due"));
        assert!(Column::Owed.matches("Balance"));
        assert!(!Column::Owed.matches("Email"));
        let page = Snapshot::read(PEOPLE, "");
        assert!(page_has_column(&page, &Column::Noun("email".into())));
        assert!(!page_has_column(&page, &Column::Noun("phone".into())));
    }
}
