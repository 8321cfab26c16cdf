//! The built-in generator's shapes for the second half of the-internet's natural suite, on live
//! pages: a table's columns and a cell named by its column and row, counts of what is left,
//! avatars and images by position, two fills in one sentence, and a key typed as a key. Each
//! run is proven, and its cached code fails on a broken copy of the page where the sentence no
//! longer holds.

use crate::support::Test;

const TABLES_PAGE: &str = include_str!("../fixtures/builtin/tables.html");
const ELEMENTS_PAGE: &str = include_str!("../fixtures/builtin/elements.html");

/// Three avatars whose captions show on hover, after a "Fork me" banner image in a link, as
/// the-internet's Hovers page; a key logger; and a sign-in form.
const HOVERS_PAGE: &str = r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Hovers</title>
<style>.caption { display: none; } .figure:hover .caption { display: block; }</style></head>
<body>
<a href="/page.html"><img alt="Fork me on GitHub" width="40" height="40" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></a>
<main>
<h3>Hovers</h3>
<div class="figure"><img alt="User Avatar" width="60" height="60" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><div class="caption"><h5>name: user1</h5></div></div>
<div class="figure"><img alt="User Avatar" width="60" height="60" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><div class="caption"><h5>name: user2</h5></div></div>
<div class="figure"><img alt="User Avatar" width="60" height="60" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><div class="caption"><h5>name: user3</h5></div></div>
<form>
<label>Username <input name="username"></label>
<label>Password <input name="password" type="password"></label>
<label>Note <input name="note" id="note"></label>
</form>
<p id="result"></p>
</main>
<script>
const ECHO = 'keydown';
document.getElementById('note').addEventListener(ECHO, (event) => {
  document.getElementById('result').textContent = 'You entered: ' + event.key.toUpperCase();
});
</script>
</body>
</html>
"#;

/// A project whose one page is `page` at `/page.html` and whose one scenario is `steps`, written
/// by the built-in generator alone.
fn one_page(page: &str, steps: &str) -> Test {
    Test::new()
        .env("PRETTYPLAY_GENERATE_BUILTIN", "only")
        .page("page.html", page)
        .scenario("scenarios/page.steps", steps)
}

/// The cached code of a run, replayed on `page` (a broken copy of the app): it must fail, at
/// the step whose sentence is `failing`.
fn replay_fails_on(out: crate::support::Output, page: &str, failing: &str) {
    let broken = out
        .again()
        .page("page.html", page)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(1);
    assert!(
        broken.stdout().contains(failing),
        "the replay on the broken page did not fail at {failing:?}:\n{}",
        broken.stdout()
    );
}

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

/// `click Add Element twice` (an unquoted name with a count), `only one Delete button is
/// left`, `no Delete button is shown`: the counts are of the Delete buttons, and fail on a page
/// whose Delete buttons do not go away.
#[test]
fn counts_of_what_is_left_are_exact() {
    const STEPS: &str = "test: remove\n  open /page.html\n  click Add Element twice\n  click the \
        first Delete button\n  only one Delete button is left\n  click Delete\n  no Delete button \
        is shown\n";
    let out = one_page(ELEMENTS_PAGE, STEPS)
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    let cache = out.read("cache/scenarios/page.steps.toml");
    assert!(cache.contains("toHaveCount(1)"), "{cache}");
    assert!(cache.contains("toHaveCount(0)"), "{cache}");
    let stays = ELEMENTS_PAGE.replace("    button.remove();\n", "");
    assert_ne!(stays, ELEMENTS_PAGE);
    replay_fails_on(out, &stays, "only one Delete button is left");
}

/// Avatars by position count only the avatars, never the banner's image in its link; two fills
/// in one sentence fill both fields; a key typed into a field reaches the page's key listener,
/// which a fill would never call.
#[test]
fn avatars_by_position_two_fills_and_a_typed_key() {
    const STEPS: &str = "test: hovers\n  open /page.html\n  \"name: user1\" is not visible\n  \
        hover over the first avatar\n  \"name: user1\" is shown\n  hover over the third image\n  \
        \"name: user3\" is shown\n  fill the username with \"nobody\" and the password with \
        \"secret\"\n  the Username field has value \"nobody\"\n  the Password field has value \
        \"secret\"\n  type \"a\" in the Note field\n  the page shows \"You entered: A\"\n";
    let out = one_page(HOVERS_PAGE, STEPS)
        .args(&["run"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    let cache = out.read("cache/scenarios/page.steps.toml");
    assert!(
        cache.contains("getByRole('img', { name: 'User Avatar', exact: true }).nth(2).hover()"),
        "{cache}"
    );
    assert!(cache.contains("pressSequentially('a')"), "{cache}");
    // A page that answers only the input event, as a fill sends it, shows nothing for a key.
    let on_input = HOVERS_PAGE.replace("const ECHO = 'keydown';", "const ECHO = 'change';");
    assert_ne!(on_input, HOVERS_PAGE);
    replay_fails_on(out, &on_input, "You entered: A");
}
