//! The code of the table intents (`tables.rs` reads them): the table a [`TableRef`] names on
//! the page, found by its position among the page's tables, its caption or the heading it
//! follows, and the checks and clicks of its rows, cells and column headers. Cells are found
//! under their column header by the header's position in its row, never by a guess from their
//! text.
//!
//! Main function: [`table_locator`].

use crate::writer::builtin::intent::{Cause, Decline, Literal, TableRef};
use crate::writer::builtin::js_values::value_js;
use crate::writer::builtin::locator::{js_str, xpath_literal};
use crate::writer::builtin::snapshot::Snapshot;

/// A table found on the page: its node and the locator that finds it.
struct Found {
    node: usize,
    locator: String,
}

/// The node of the heading named `name` and the first table after it, when no other heading
/// comes between them: the table the heading names.
fn table_after_heading(snap: &Snapshot, name: &str) -> Option<usize> {
    let headings: Vec<usize> = snap
        .with_roles(&["heading"])
        .into_iter()
        .filter(|&at| snap.nodes[at].name.as_deref().map(str::trim) == Some(name.trim()))
        .collect();
    let [heading] = headings.as_slice() else {
        return None;
    };
    (heading + 1..snap.nodes.len())
        .take_while(|&at| snap.nodes[at].role != "heading")
        .find(|&at| snap.nodes[at].role == "table")
}

/// The XPath, from the heading `name`, of the first table after it whose nearest heading
/// before it is still that heading: a page that lost the heading's table then has none, and
/// the next table, under another heading, never stands for it.
fn after_heading_xpath(name: &str) -> String {
    format!(
        "xpath=following::table[1][preceding::*[self::h1 or self::h2 or self::h3 or self::h4 or \
         self::h5 or self::h6 or @role=\"heading\"][1][normalize-space(.)={}]]",
        xpath_literal(
            name.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .as_str()
        )
    )
}

/// The table `table` names on the page `snap` shows.
fn find(snap: &Snapshot, table: &TableRef) -> Result<Found, Decline> {
    let tables = snap.with_roles(&["table"]);
    match table {
        TableRef::Only => match tables.as_slice() {
            [node] => Ok(Found {
                node: *node,
                locator: "page.getByRole('table')".to_owned(),
            }),
            [] => Err(Decline::of(Cause::NoElement, "the page shows no table")),
            _ => Err(Decline::new(format!(
                "the page shows {} tables: say which (`table 1`, `the second table`, `the \
                 \"Example 1\" table`)",
                tables.len()
            ))),
        },
        TableRef::Nth(at) => tables
            .get(*at)
            .map(|&node| Found {
                node,
                locator: format!("page.getByRole('table').nth({at})"),
            })
            .ok_or_else(|| {
                Decline::of(
                    Cause::NoElement,
                    format!(
                        "the page shows {} tables, not a table {}",
                        tables.len(),
                        at + 1
                    ),
                )
            }),
        TableRef::Named(name) => {
            let captioned: Vec<usize> = tables
                .iter()
                .copied()
                .filter(|&at| snap.nodes[at].name.as_deref().map(str::trim) == Some(name.trim()))
                .collect();
            if let [node] = captioned.as_slice() {
                return Ok(Found {
                    node: *node,
                    locator: format!(
                        "page.getByRole('table', {{ name: {}, exact: true }})",
                        js_str(name)
                    ),
                });
            }
            table_after_heading(snap, name)
                .map(|node| Found {
                    node,
                    locator: format!(
                        "page.getByRole('heading', {{ name: {}, exact: true }}).locator({})",
                        js_str(name),
                        js_str(&after_heading_xpath(name))
                    ),
                })
                .ok_or_else(|| {
                    Decline::of(
                        Cause::NoElement,
                        format!(
                            "no table on the page has the caption \"{name}\" or follows one \
                             heading \"{name}\""
                        ),
                    )
                })
        }
    }
}

/// The node of the table `table` names and its locator.
pub(super) fn table_node(snap: &Snapshot, table: &TableRef) -> Result<(usize, String), Decline> {
    find(snap, table).map(|found| (found.node, found.locator))
}

/// The locator of the table `table` names.
pub(super) fn table_locator(snap: &Snapshot, table: &TableRef) -> Result<String, Decline> {
    find(snap, table).map(|found| found.locator)
}

/// The table's body rows: its rows that hold no column header.
pub(super) fn body_rows(table: &str) -> String {
    format!("{table}.getByRole('row').filter({{ hasNot: page.getByRole('columnheader') }})")
}

/// Whether the table has a column header named `column` (whole, spaces aside).
fn has_header(snap: &Snapshot, node: usize, column: &str) -> bool {
    snap.descendants(node).into_iter().any(|at| {
        snap.nodes[at].role == "columnheader"
            && snap.nodes[at].name.as_deref().map(str::trim) == Some(column.trim())
    })
}

/// The table and a check that it has the column header `column`, for the code that reads or
/// clicks that column: a column the page does not show is declined before any code runs.
fn with_column(snap: &Snapshot, table: &TableRef, column: &Literal) -> Result<String, Decline> {
    let found = find(snap, table)?;
    if !has_header(snap, found.node, &column.0) {
        return Err(Decline::of(
            Cause::NoElement,
            format!("the table has no column header \"{}\"", column.0),
        ));
    }
    Ok(found.locator)
}

/// `table 1 has 4 rows`: the rows of that table that hold no column header, so the header row
/// is not counted and no other table's rows are.
pub(super) fn rows(
    snap: &Snapshot,
    table: &TableRef,
    count: usize,
) -> Result<Vec<String>, Decline> {
    let table = table_locator(snap, table)?;
    Ok(vec![format!(
        "await expect({}).toHaveCount({count});",
        body_rows(&table)
    )])
}

/// The position of a row in Playwright's terms: `.nth(N)`, or `.last()`.
fn nth(row: isize) -> String {
    if row < 0 {
        ".last()".to_owned()
    } else {
        format!(".nth({row})")
    }
}

/// `the first row of table 1 shows "Smith"`: the row at that position has a cell whose whole
/// text is the value. The check's subject is the row, so a row moved away from that position
/// fails it.
pub(super) fn cell(
    snap: &Snapshot,
    table: &TableRef,
    row: isize,
    value: &Literal,
) -> Result<Vec<String>, Decline> {
    let table = table_locator(snap, table)?;
    Ok(vec![format!(
        "await expect({}{}.filter({{ has: page.getByRole('cell', {{ name: {}, exact: true }}) }})).toBeVisible();",
        body_rows(&table),
        nth(row),
        value_js(value)
    )])
}

/// `the table's header has "Due"`: a column header of each name.
pub(super) fn header(
    snap: &Snapshot,
    table: &TableRef,
    values: &[Literal],
) -> Result<Vec<String>, Decline> {
    let table = table_locator(snap, table)?;
    Ok(values
        .iter()
        .map(|value| {
            format!(
                "await expect({table}.getByRole('columnheader', {{ name: {}, exact: true }})).toBeVisible();",
                value_js(value)
            )
        })
        .collect())
}

/// `click the "Last Name" header of table 2`.
pub(super) fn click_header(
    snap: &Snapshot,
    table: &TableRef,
    column: &Literal,
) -> Result<Vec<String>, Decline> {
    let table = with_column(snap, table, column)?;
    Ok(vec![format!(
        "await {table}.getByRole('columnheader', {{ name: {}, exact: true }}).click();",
        value_js(column)
    )])
}

/// `the "Last Name" column of table 1 is sorted ascending`: the texts of the body rows' cells
/// under the column header named so (found by the header's position in its row, in the page)
/// are in order, as numbers when every one reads as a number (a currency sign and separators
/// aside), else as lower-case text. Fewer than two cells fail, because no order is shown; the
/// poll retries until the step's timeout, so a table still being sorted is waited for.
pub(super) fn sorted(
    snap: &Snapshot,
    table: &TableRef,
    column: &Literal,
    descending: bool,
) -> Result<Vec<String>, Decline> {
    let table = with_column(snap, table, column)?;
    let wrong = if descending {
        "key(a) < key(b)"
    } else {
        "key(a) > key(b)"
    };
    let mut lines = vec![
        "await expect.poll(async () => {".to_owned(),
        format!(
            "  const values = await {}.evaluateAll((rows, name) => {{",
            body_rows(&table)
        ),
    ];
    lines.extend(
        [
            "    const table = rows.length > 0 ? rows[0].closest('table') : null;",
            r"    const head = table ? Array.from(table.querySelectorAll('th')).find((th) => th.textContent.replace(/\s+/g, ' ').trim() === name) : null;",
            "    if (!head) return null;",
            r"    return rows.map((row) => (row.cells[head.cellIndex] ? row.cells[head.cellIndex].textContent.replace(/\s+/g, ' ').trim() : null));",
        ]
        .map(str::to_owned),
    );
    lines.push(format!("  }}, {});", value_js(column)));
    lines.extend(
        [
            "  if (values === null) return 'no rows under a column header named so';",
            "  if (values.length < 2 || values.includes(null)) return 'fewer than two cells in the column';",
            r"  const number = (value) => Number(value.replace(/[$€£¥,%\s]/g, ''));",
            "  const numeric = values.every((value) => value !== '' && !Number.isNaN(number(value)));",
            "  const key = (value) => (numeric ? number(value) : value.toLowerCase());",
        ]
        .map(str::to_owned),
    );
    lines.push(format!(
        "  return values.slice(1).map((value, at) => [values[at], value]).filter(([a, b]) => {wrong}).map(([a, b]) => `${{a}} before ${{b}}`);"
    ));
    lines.push("}).toEqual([]);".to_owned());
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::after_heading_xpath;

    #[test]
    fn a_table_after_a_heading_must_still_be_under_it() {
        assert_eq!(
            after_heading_xpath("Example  1"),
            "xpath=following::table[1][preceding::*[self::h1 or self::h2 or self::h3 or self::h4 \
             or self::h5 or self::h6 or @role=\"heading\"][1][normalize-space(.)=\"Example 1\"]]"
        );
    }
}
