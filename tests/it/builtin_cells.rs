//! The built-in generator's shapes for the second half of the-internet's natural suite, on live
//! pages: a table's columns and a cell named by its column and row. The run is proven, and its
//! cached code fails on a broken copy of the page where the sentence no longer holds.

use crate::builtin::{one_page, replay_fails_on};

const TABLES_PAGE: &str = include_str!("../fixtures/builtin/tables.html");

/// A table's columns, exactly and in order, and cells named by their column and row: by the
/// row's cells (`Jason Doe` is the row of `Doe` and `Jason`), by `owes` (the Due column) and by
/// position after a sort. Each is proven, and fails on a page where the cell says otherwise or
/// the click does not sort.
#[test]
fn a_tables_columns_and_its_cells_by_column_and_row() {
    const STEPS: &str = "test: cells\n  open /page.html\n  the first table has the columns Last \
        Name, First Name and Due\n  Jason Doe owes $100.00\n  the first name of Bach is \
        \"Frank\"\n  click the \"Due\" header of table 1\n  the last due amount in table 1 is \
        $100.00\n";
    let out = one_page(TABLES_PAGE, STEPS)
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    let cache = crate::support::proofs_as_text(&out.read("cache/scenarios/page.steps.toml"));
    assert!(
        cache.contains("toHaveText(['Last Name', 'First Name', 'Due'])"),
        "{cache}"
    );
    assert!(!cache.contains("none:"), "every check is proven: {cache}");
    let owes_less = TABLES_PAGE.replace(
        "<td>Jason</td><td>$100.00</td>",
        "<td>Jason</td><td>$10.00</td>",
    );
    assert_ne!(owes_less, TABLES_PAGE);
    replay_fails_on(out, &owes_less, "owes $100.00");
    let out = one_page(TABLES_PAGE, STEPS)
        .args(&["run"])
        .run()
        .assert_exit(0);
    let swapped = TABLES_PAGE.replace(
        "<th>Last Name</th><th>First Name</th><th>Due</th>",
        "<th>First Name</th><th>Last Name</th><th>Due</th>",
    );
    assert_ne!(swapped, TABLES_PAGE);
    replay_fails_on(out, &swapped, "has the columns");
    let out = one_page(TABLES_PAGE, STEPS)
        .args(&["run"])
        .run()
        .assert_exit(0);
    let unsorted = TABLES_PAGE.replace("const SORT = true;", "const SORT = false;");
    replay_fails_on(out, &unsorted, "the last due amount");
}
