//! The code of the checks of a table's columns and of one cell under a column header
//! (`table_cells.rs` reads them). A cell is found in its row by the position of its column's
//! header in the header row, computed in the page by XPath, so a column that moved or lost its
//! header makes the check fail instead of reading another column.
//!
//! Main functions: [`columns`] and [`cell`].

use crate::writer::builtin::intent::{Cause, Column, Decline, Literal, RowRef, TableRef};
use crate::writer::builtin::js_values::value_js;
use crate::writer::builtin::locator::{js_str, xpath_literal};
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::builtin::table_code::{body_rows, table_node};

/// `the first table has the columns A, B and C`: the table's column headers are exactly these,
/// in this order (`toHaveText` of a list compares the count, the order and each whole text).
pub(super) fn columns(
    snap: &Snapshot,
    table: &TableRef,
    values: &[Literal],
) -> Result<Vec<String>, Decline> {
    let (_, table) = table_node(snap, table)?;
    let values: Vec<String> = values.iter().map(value_js).collect();
    Ok(vec![format!(
        "await expect({table}.getByRole('columnheader')).toHaveText([{}]);",
        values.join(", ")
    )])
}

/// The cell of a row under the column header named `header`: the row's child at the header's
/// position among its siblings, and only while the table has that header.
fn under_header(header: &str) -> String {
    let header = xpath_literal(&header.split_whitespace().collect::<Vec<_>>().join(" "));
    let th = format!("ancestor::table[1]//th[normalize-space(.)={header}]");
    js_str(&format!(
        "xpath=./*[(self::td or self::th) and ({th}) and position() = count(({th})[1]/preceding-sibling::*) + 1]"
    ))
}

/// The names of a table's column headers that `column` names.
fn headers(snap: &Snapshot, table: usize, column: &Column) -> Vec<String> {
    snap.descendants(table)
        .into_iter()
        .filter(|&at| snap.nodes[at].role == "columnheader")
        .filter_map(|at| snap.nodes[at].name.clone())
        .filter(|name| column.matches(name))
        .collect()
}

/// The texts of the cells of each body row of a table.
fn body_rows_cells(snap: &Snapshot, table: usize) -> Vec<Vec<String>> {
    snap.descendants(table)
        .into_iter()
        .filter(|&at| snap.nodes[at].role == "row")
        .filter(|&row| {
            !snap
                .descendants(row)
                .iter()
                .any(|&at| snap.nodes[at].role == "columnheader")
        })
        .map(|row| {
            snap.nodes[row]
                .children
                .iter()
                .filter(|&&at| matches!(snap.nodes[at].role.as_str(), "cell" | "rowheader"))
                .map(|&at| {
                    snap.nodes[at]
                        .name
                        .clone()
                        .unwrap_or_else(|| snap.text_of(at))
                        .trim()
                        .to_owned()
                })
                .collect()
        })
        .collect()
}

/// The cells whose whole texts name a row called `name`: the name itself, when a cell holds it
/// whole, or else each of its words (`Jason Doe` is the row with the cells `Doe` and `Jason`);
/// `None` when no row of the table is named so.
fn row_cells(rows: &[Vec<String>], name: &str) -> Option<(Vec<String>, usize)> {
    let whole = rows.iter().filter(|cells| cells.iter().any(|c| c == name));
    let count = whole.count();
    if count > 0 {
        return Some((vec![name.to_owned()], count));
    }
    let words: Vec<String> = name.split_whitespace().map(str::to_owned).collect();
    if words.len() < 2 {
        return None;
    }
    let count = rows
        .iter()
        .filter(|cells| words.iter().all(|w| cells.contains(w)))
        .count();
    (count > 0).then_some((words, count))
}

/// The locator of the row with a cell of each of `cells`' whole texts.
fn named_row(table: &str, cells: &[String]) -> String {
    let mut row = format!("{table}.getByRole('row')");
    for cell in cells {
        row.push_str(&format!(
            ".filter({{ has: page.getByRole('cell', {{ name: {}, exact: true }}) }})",
            js_str(cell)
        ));
    }
    row
}

/// The tables a cell's sentence may be about, with their locators: the one it names, or,
/// when it names none, every table of the page.
fn tables(snap: &Snapshot, table: Option<&TableRef>) -> Result<Vec<(usize, String)>, Decline> {
    if let Some(table) = table {
        return table_node(snap, table).map(|found| vec![found]);
    }
    let all = snap.with_roles(&["table"]);
    Ok(match all.as_slice() {
        [one] => vec![(*one, "page.getByRole('table')".to_owned())],
        _ => all
            .iter()
            .enumerate()
            .map(|(at, &node)| (node, format!("page.getByRole('table').nth({at})")))
            .collect(),
    })
}

/// What a column is called in a decline.
fn said(column: &Column) -> String {
    match column {
        Column::Noun(noun) => format!("\"{noun}\""),
        Column::Owed => "of what is owed (Due, Owed, Balance)".to_owned(),
    }
}

/// `the email of Frank Bach is "x"`, `Jason Doe owes $100.00`, `the first due amount in table 2
/// is $100.00`: the whole text of the cell under the column header, in the row. A row named
/// without a table is checked in every table that shows it, since each says what it holds.
pub(super) fn cell(
    snap: &Snapshot,
    table: Option<&TableRef>,
    row: &RowRef,
    column: &Column,
    value: &Literal,
) -> Result<Vec<String>, Decline> {
    let table = match (table, row) {
        (None, RowRef::Nth(_)) => Some(&TableRef::Only),
        _ => table,
    };
    let mut lines = Vec::new();
    for (node, locator) in tables(snap, table)? {
        let header = match headers(snap, node, column).as_slice() {
            [one] => one.clone(),
            [] if table.is_none() => continue,
            [] => {
                return Err(Decline::of(
                    Cause::NoElement,
                    format!("the table has no column {}", said(column)),
                ));
            }
            several => {
                return Err(Decline::new(format!(
                    "the table has {} columns that could be {}: {}; name the column as its \
                     header says",
                    several.len(),
                    said(column),
                    several.join(", ")
                )));
            }
        };
        let row_locator = match row {
            RowRef::Nth(at) => {
                let nth = if *at < 0 {
                    ".last()".to_owned()
                } else {
                    format!(".nth({at})")
                };
                format!("{}{nth}", body_rows(&locator))
            }
            RowRef::Named(name) => match row_cells(&body_rows_cells(snap, node), name) {
                Some((cells, 1)) => named_row(&locator, &cells),
                Some((_, several)) => {
                    return Err(Decline::new(format!(
                        "{several} rows of the table are \"{name}\"; say which (`the first \
                             row of table 1 shows ...`)"
                    )));
                }
                None if table.is_none() => continue,
                None => {
                    return Err(Decline::of(
                        Cause::NoRow,
                        format!("no row of the table is \"{name}\""),
                    ));
                }
            },
        };
        lines.push(format!(
            "await expect({row_locator}.locator({})).toHaveText({});",
            under_header(&header),
            value_js(value)
        ));
    }
    if lines.is_empty() {
        let RowRef::Named(name) = row else {
            return Err(Decline::of(
                Cause::NoElement,
                format!("no table on the page has a column {}", said(column)),
            ));
        };
        return Err(Decline::of(
            Cause::NoRow,
            format!(
                "no table on the page has a row \"{name}\" and a column {}",
                said(column)
            ),
        ));
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::table_cells::PEOPLE;

    #[test]
    fn a_row_named_without_a_table_is_checked_in_every_table_that_shows_it() {
        let page = Snapshot::read(PEOPLE, "");
        let lines = cell(
            &page,
            None,
            &RowRef::Named("Doe".into()),
            &Column::Owed,
            &Literal("$100.00".into()),
        )
        .unwrap();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("await expect(page.getByRole('table').nth(0)"));
        assert!(lines[1].starts_with("await expect(page.getByRole('table').nth(1)"));
        // Only the first table has the Email column and Jason's row.
        let lines = cell(
            &page,
            None,
            &RowRef::Named("Jason Doe".into()),
            &Column::Noun("email".into()),
            &Literal("jdoe@hotmail.com".into()),
        )
        .unwrap();
        assert_eq!(lines.len(), 1, "{lines:?}");
    }

    #[test]
    fn a_missing_row_or_column_declines() {
        let page = Snapshot::read(PEOPLE, "");
        let why = cell(
            &page,
            None,
            &RowRef::Named("Ada Lovelace".into()),
            &Column::Owed,
            &Literal("$1".into()),
        )
        .unwrap_err();
        assert_eq!(why.1, Cause::NoRow, "{}", why.0);
        let why = cell(
            &page,
            Some(&TableRef::Nth(1)),
            &RowRef::Nth(0),
            &Column::Noun("email".into()),
            &Literal("x".into()),
        )
        .unwrap_err();
        assert_eq!(why.1, Cause::NoElement, "{}", why.0);
        // Two tables and no table named: a row by its position is ambiguous.
        assert!(
            cell(
                &page,
                None,
                &RowRef::Nth(0),
                &Column::Owed,
                &Literal("$50.00".into())
            )
            .is_err()
        );
    }
}
