//! Sentences about a table: which table they name ([`TableRef`]: `table 1`, `the second table`,
//! `the "Example 1" table`, `the table`), and the shapes that read its rows, cells, column
//! headers and order (`the first row of table 1 shows "Smith"`, `the table's header has "Due"`,
//! `the "Last Name" column of table 1 is sorted ascending`, `click the "Last Name" header of
//! table 2`). The code is written by `table_code.rs`.
//!
//! Main function: [`table_ref`].

use crate::writer::builtin::clicks::{repeat, times};
use crate::writer::builtin::intent::{Decline, Intent, Literal, TableRef};
use crate::writer::builtin::phrases::ordinal;
use crate::writer::builtin::shape::Example;
use crate::writer::builtin::tokens::Tok;

/// The words of `toks` without the articles.
fn content(toks: &[Tok]) -> Vec<&Tok> {
    toks.iter().filter(|w| !w.is("the") && !w.is("a")).collect()
}

/// A positive whole number written in digits.
fn counted(word: &Tok) -> Option<usize> {
    match word {
        Tok::Word(n, _) => n.parse::<usize>().ok().filter(|&n| n > 0),
        Tok::Lit(_) => None,
    }
}

/// `table 2`, `the second table`, `the "Example 1" table`, `the table`, each also with `'s`
/// (`the table's`): which table the words name, or `None` when they name no table (or more
/// than one).
pub(crate) fn table_ref(subject: &[Tok]) -> Option<TableRef> {
    let words = content(subject);
    let (last, before) = words.split_last()?;
    let table = |w: &Tok| w.is("table") || w.is("table's");
    let numbered = |w: &Tok| match w {
        Tok::Word(w, _) => w
            .strip_suffix("'s")
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n > 0),
        Tok::Lit(_) => None,
    };
    match (before, *last) {
        ([], last) if table(last) => Some(TableRef::Only),
        ([t], n) if t.is("table") => counted(n)
            .or_else(|| numbered(n))
            .map(|n| TableRef::Nth(n - 1)),
        ([Tok::Lit(name)], last) if table(last) => Some(TableRef::Named(name.clone())),
        ([nth], last) if table(last) => ordinal(nth)
            .and_then(|at| usize::try_from(at).ok())
            .map(TableRef::Nth),
        _ => None,
    }
}

/// Cuts `toks` at the first `of` or `in` after `from`: the words before it and the table the
/// words after it name.
fn of_table(toks: &[Tok]) -> Option<(&[Tok], TableRef)> {
    let at = toks.iter().position(|w| w.is("of") || w.is("in"))?;
    Some((&toks[..at], table_ref(&toks[at + 1..])?))
}

/// `the first row`, `row 2`, `the 2nd row`, `the last row`: which body row (0-based; -1 is the
/// last).
fn row_ref(words: &[Tok]) -> Option<isize> {
    match content(words).as_slice() {
        [row, n] if row.is("row") => counted(n).and_then(|n| isize::try_from(n - 1).ok()),
        [nth, row] if row.is("row") => ordinal(nth),
        _ => None,
    }
}

/// The verbs that say a row holds a value.
const HOLDS: &[&str] = &[
    "shows", "has", "contains", "holds", "is", "reads", "includes",
];

/// The value a check's last words write: one quoted text, or, after `is`, the bare words.
fn value(rest: &[Tok]) -> Option<Literal> {
    match rest {
        [Tok::Lit(text)] => Some(Literal(text.clone())),
        _ if !rest.is_empty() && rest.iter().all(|w| matches!(w, Tok::Word(..))) => {
            let words: Vec<&str> = rest
                .iter()
                .filter_map(|w| match w {
                    Tok::Word(_, orig) => Some(orig.as_str()),
                    Tok::Lit(_) => None,
                })
                .collect();
            Some(Literal(words.join(" ")))
        }
        _ => None,
    }
}

/// `the first row of table 1 shows "Smith"`, `row 2 of the "Example 1" table has "Bach"`,
/// `the last row of the table is Conway`.
pub(crate) fn row_shows(toks: &[Tok]) -> Option<Result<Intent, Decline>> {
    let verb = toks.iter().position(|w| HOLDS.iter().any(|h| w.is(h)))?;
    let (subject, rest) = (&toks[..verb], &toks[verb + 1..]);
    let (row_words, table) = match of_table(subject) {
        Some((row_words, table)) => (row_words, table),
        None => (subject, TableRef::Only),
    };
    let row = row_ref(row_words)?;
    Some(value(rest).ok_or_else(|| {
        Decline::new(
            "the built-in generator checks one cell of a table's row: write the cell's text in \
             quotes (`the first row of table 1 shows \"Smith\"`)",
        )
    }))
    .map(|read| read.map(|value| Intent::TableCell { table, row, value }))
}

/// `the table's header has "Due"`, `the header of table 1 has "Due" and "Email"`, `table 1's
/// header shows "Due"`.
pub(crate) fn header_has(toks: &[Tok]) -> Option<Result<Intent, Decline>> {
    let verb = toks.iter().position(|w| HOLDS.iter().any(|h| w.is(h)))?;
    let (subject, rest) = (&toks[..verb], &toks[verb + 1..]);
    let table = match content(subject).split_last() {
        Some((header, owner)) if header.is("header") || header.is("headers") => {
            let owner: Vec<Tok> = owner.iter().map(|w| (*w).clone()).collect();
            table_ref(&owner)?
        }
        _ => {
            let (header, table) = of_table(subject)?;
            match content(header).as_slice() {
                [h] if h.is("header") || h.is("headers") => table,
                [h, r] if h.is("header") && r.is("row") => table,
                _ => return None,
            }
        }
    };
    let values: Vec<Literal> = rest
        .iter()
        .filter_map(|w| match w {
            Tok::Lit(text) => Some(Literal(text.clone())),
            Tok::Word(..) => None,
        })
        .collect();
    let joined = rest
        .iter()
        .all(|w| matches!(w, Tok::Lit(_)) || w.is("and") || w.is("column") || w.is("columns"));
    Some(if values.is_empty() || !joined {
        Err(Decline::new(
            "the built-in generator checks a table's column headers by name, each in quotes \
             (`the table's header has \"Due\"`)",
        ))
    } else {
        Ok(Intent::TableHeader { table, values })
    })
}

/// `the "Last Name" column of table 1 is sorted ascending`, `the "Due" column of the table is
/// in descending order`.
pub(crate) fn column_sorted(toks: &[Tok]) -> Option<Result<Intent, Decline>> {
    let verb = toks.iter().position(|w| w.is("is"))?;
    let (subject, rest) = (&toks[..verb], &toks[verb + 1..]);
    let (column, table) = match of_table(subject) {
        Some((column, table)) => (column, table),
        None => (subject, TableRef::Only),
    };
    let column = match content(column).as_slice() {
        [Tok::Lit(name), col] if col.is("column") => Literal(name.clone()),
        [col, Tok::Lit(name)] if col.is("column") => Literal(name.clone()),
        _ => return None,
    };
    let order: Vec<&Tok> = rest
        .iter()
        .filter(|w| !w.is("sorted") && !w.is("in") && !w.is("order") && !w.is("ordered"))
        .collect();
    let said_sorted = rest
        .iter()
        .any(|w| w.is("sorted") || w.is("order") || w.is("ordered"));
    if !said_sorted {
        return None;
    }
    let descending = match order.as_slice() {
        [] => false,
        [w] if w.is("ascending") || w.is("alphabetically") || w.is("alphabetical") => false,
        [w] if w.is("descending") => true,
        _ => {
            return Some(Err(Decline::new(
                "the built-in generator checks that a column is sorted ascending or descending \
                 (`the \"Last Name\" column of table 1 is sorted ascending`)",
            )));
        }
    };
    Some(Ok(Intent::TableSorted {
        table,
        column,
        descending,
    }))
}

/// After `click`: `the "Last Name" header of table 2`, `the "Due" column header in the second
/// table`, `"Due" in the second table twice`.
pub(crate) fn click_header(_: &[Tok], rest: &[Tok]) -> Option<Result<Intent, Decline>> {
    let (rest, count) = match times(rest) {
        Some(Ok((count, before))) => (before, Some(count)),
        Some(Err(_)) | None => (rest, None),
    };
    let (header, table) = of_table(rest)?;
    let column = match content(header).as_slice() {
        [Tok::Lit(name), h] if h.is("header") => name.clone(),
        [Tok::Lit(name), c, h] if c.is("column") && h.is("header") => name.clone(),
        [Tok::Lit(name)] => name.clone(),
        _ => return None,
    };
    let click = Intent::ClickHeader {
        table,
        column: Literal(column),
    };
    Some(Ok(match count {
        Some(count) => repeat(count, click),
        None => click,
    }))
}

/// Two tables with header rows, as the-internet's Sortable Data Tables page, each under a
/// heading.
const TABLES: &str = r#"- heading "Example 1" [level=4]
- table:
  - rowgroup:
    - row "Last Name First Name":
      - columnheader "Last Name"
      - columnheader "First Name"
  - rowgroup:
    - row "Smith John":
      - cell "Smith"
      - cell "John"
    - row "Bach Frank":
      - cell "Bach"
      - cell "Frank"
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

pub(crate) const ROW_SHOWS: &[Example] = &[
    Example {
        sentence: r#"the first row of table 1 shows "Smith""#,
        page: TABLES,
        code: r#"await expect(page.getByRole('table').nth(0).getByRole('row').filter({ hasNot: page.getByRole('columnheader') }).nth(0).filter({ has: page.getByRole('cell', { name: 'Smith', exact: true }) })).toBeVisible();"#,
    },
    Example {
        sentence: r#"row 2 of the "Example 1" table has "Bach""#,
        page: TABLES,
        code: r#"await expect(page.getByRole('heading', { name: 'Example 1', exact: true }).locator('xpath=following::table[1][preceding::*[self::h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6 or @role="heading"][1][normalize-space(.)="Example 1"]]').getByRole('row').filter({ hasNot: page.getByRole('columnheader') }).nth(1).filter({ has: page.getByRole('cell', { name: 'Bach', exact: true }) })).toBeVisible();"#,
    },
];

pub(crate) const HEADER_HAS: &[Example] = &[Example {
    sentence: r#"the header of table 2 has "Due""#,
    page: TABLES,
    code: r#"await expect(page.getByRole('table').nth(1).getByRole('columnheader', { name: 'Due', exact: true })).toBeVisible();"#,
}];

pub(crate) const COLUMN_SORTED: &[Example] = &[Example {
    sentence: r#"the "Last Name" column of table 1 is sorted ascending"#,
    page: TABLES,
    code: r#"await expect.poll(async () => {
  const values = await page.getByRole('table').nth(0).getByRole('row').filter({ hasNot: page.getByRole('columnheader') }).evaluateAll((rows, name) => {
    const table = rows.length > 0 ? rows[0].closest('table') : null;
    const head = table ? Array.from(table.querySelectorAll('th')).find((th) => th.textContent.replace(/\s+/g, ' ').trim() === name) : null;
    if (!head) return null;
    return rows.map((row) => (row.cells[head.cellIndex] ? row.cells[head.cellIndex].textContent.replace(/\s+/g, ' ').trim() : null));
  }, 'Last Name');
  if (values === null) return 'no rows under a column header named so';
  if (values.length < 2 || values.includes(null)) return 'fewer than two cells in the column';
  const number = (value) => Number(value.replace(/[$€£¥,%\s]/g, ''));
  const numeric = values.every((value) => value !== '' && !Number.isNaN(number(value)));
  const key = (value) => (numeric ? number(value) : value.toLowerCase());
  return values.slice(1).map((value, at) => [values[at], value]).filter(([a, b]) => key(a) > key(b)).map(([a, b]) => `${a} before ${b}`);
}).toEqual([]);"#,
}];

pub(crate) const CLICK_HEADER: &[Example] = &[Example {
    sentence: r#"click the "Last Name" header of table 2"#,
    page: TABLES,
    code: r#"await page.getByRole('table').nth(1).getByRole('columnheader', { name: 'Last Name', exact: true }).click();"#,
}];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::tokens::{normalize, tokenize};

    fn toks(sentence: &str) -> Vec<Tok> {
        normalize(tokenize(sentence, &[]))
    }

    #[test]
    fn a_table_is_named_by_position_caption_or_heading() {
        for (words, table) in [
            ("table 1", Some(TableRef::Nth(0))),
            ("the second table", Some(TableRef::Nth(1))),
            ("the table", Some(TableRef::Only)),
            ("the table's", Some(TableRef::Only)),
            ("table 2's", Some(TableRef::Nth(1))),
            (
                "the \"Example 1\" table",
                Some(TableRef::Named("Example 1".into())),
            ),
            ("table 0", None),
            ("the list", None),
        ] {
            assert_eq!(table_ref(&toks(words)), table, "{words:?}");
        }
    }

    #[test]
    fn rows_are_read_by_position_and_their_cell_text() {
        assert_eq!(
            row_shows(&toks("the first row of table 1 shows \"Smith\"")),
            Some(Ok(Intent::TableCell {
                table: TableRef::Nth(0),
                row: 0,
                value: Literal("Smith".into())
            }))
        );
        assert_eq!(
            row_shows(&toks("the last row of the table is Conway")),
            Some(Ok(Intent::TableCell {
                table: TableRef::Only,
                row: -1,
                value: Literal("Conway".into())
            }))
        );
        assert!(row_shows(&toks("the \"Save\" button is shown")).is_none());
    }

    #[test]
    fn a_column_is_sorted_either_way_and_nothing_else() {
        assert_eq!(
            column_sorted(&toks(
                "the \"Due\" column of table 2 is in descending order"
            )),
            Some(Ok(Intent::TableSorted {
                table: TableRef::Nth(1),
                column: Literal("Due".into()),
                descending: true
            }))
        );
        assert!(matches!(
            column_sorted(&toks("the \"Due\" column of table 2 is sorted by price")),
            Some(Err(_))
        ));
        assert!(column_sorted(&toks("the \"Due\" column of table 2 is shown")).is_none());
    }

    #[test]
    fn header_checks_and_clicks_name_the_column() {
        assert_eq!(
            header_has(&toks("the table's header has \"Due\" and \"Email\"")),
            Some(Ok(Intent::TableHeader {
                table: TableRef::Only,
                values: vec![Literal("Due".into()), Literal("Email".into())]
            }))
        );
        assert!(matches!(
            header_has(&toks("the header of table 1 has the dates")),
            Some(Err(_))
        ));
        assert_eq!(
            click_header(&[], &toks("\"Due\" in the second table twice")),
            Some(Ok(repeat(
                2,
                Intent::ClickHeader {
                    table: TableRef::Nth(1),
                    column: Literal("Due".into())
                }
            )))
        );
        assert!(click_header(&[], &toks("\"Save\"")).is_none());
    }
}
