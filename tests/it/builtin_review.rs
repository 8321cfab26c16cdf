//! The built-in generator's placements, `go back` and page structure on live pages, as the
//! review of its newest shapes asked: an element beside another shares some of its height and
//! is compared again while it moves; a step back from the test's first page fails saying so; a
//! page of more elements than the structure lists keeps the one a sentence names.

use crate::builtin::one_page;

/// A field with a button beside it, a button far below and right of it, and a button that a
/// click sends (through a CSS transition) from below the field to beside it.
const PLACES_PAGE: &str = "<!doctype html><title>places</title><style>\
    body { margin: 0; font: 16px sans-serif; }\
    #name { position: absolute; left: 20px; top: 20px; width: 160px; height: 24px; }\
    #next { position: absolute; left: 220px; top: 20px; height: 24px; }\
    #save { position: absolute; left: 400px; top: 400px; height: 24px; }\
    #start { position: absolute; left: 20px; top: 300px; height: 24px; }\
    #moving { position: absolute; left: 20px; top: 200px; height: 24px; \
      transition: left 1.5s linear, top 1.5s linear; }\
    #moving.placed { left: 300px; top: 20px; }\
    </style><main><input id=\"name\" aria-label=\"Name\">\
    <button id=\"next\">Next</button><button id=\"save\">Save</button>\
    <button id=\"start\">Start</button><button id=\"moving\">Moving</button></main><script>\
    document.getElementById('start').addEventListener('click', () => {\
      document.getElementById('moving').classList.add('placed');\
    });\
    </script>";

/// `to the right of` holds for a button beside the field, and for one that moves there after
/// a click, whose boxes are compared again until they hold; a button right of the field but
/// far below it is not to its right, and the failure says what was measured.
#[test]
fn a_placement_needs_the_boxes_side_by_side_and_waits_for_a_moving_element() {
    let out = one_page(
        PLACES_PAGE,
        "test: places\n  open /page.html\n  the \"Next\" button is to the right of the \"Name\" \
         field\n  click \"Start\"\n  the \"Moving\" button is to the right of the \"Name\" \
         field\n",
    )
    .args(&["run"])
    .run()
    .assert_exit(0)
    .stdout_line("1 passed, 0 failed");
    let cache = out.read("cache/scenarios/page.steps.toml");
    assert!(cache.contains("}).toPass();"), "{cache}");
    for (claim, rule) in [
        (
            "the \"Save\" button is to the right of the \"Name\" field",
            "they share some height",
        ),
        (
            "the \"Save\" button is below the \"Name\" field",
            "they share some width",
        ),
    ] {
        let failed = one_page(
            PLACES_PAGE,
            &format!("test: far\n  open /page.html\n  {claim}\n"),
        )
        .args(&["run"])
        .run()
        .assert_exit(1);
        let stdout = failed.stdout();
        assert!(stdout.contains(rule), "{claim}: {stdout}");
        assert!(
            stdout.contains("measured: the element at x "),
            "{claim}: {stdout}"
        );
    }
}

/// `go back` on the test's first page has no page of the test to go back to: it fails, saying
/// so, instead of passing on the blank page the browser started on. Chromium keeps that blank
/// page as the history entry before the test's first page, so the browser goes back to it and
/// the step fails on the URL check, with the URL it left. The printed step code holds the
/// message's words with `${before}` instead, so only the failure itself names the URL.
#[test]
fn go_back_from_the_tests_first_page_fails_saying_so() {
    one_page(PLACES_PAGE, "test: first\n  open /page.html\n  go back\n")
        .args(&["run"])
        .run()
        .assert_exit(1)
        .stdout_contains("step 2: go back")
        .stdout_contains("go back: no page of this test comes before http://127.0.0.1:")
        .stdout_contains("/page.html, so the browser went back to the blank page it started on");
}

/// A page of 600 paragraphs of one class, with the to-do counter as the 551st element the
/// structure would list: the structure keeps it, since it has a locator of its own, and the
/// sentence naming it is read through it.
#[test]
fn a_page_of_more_elements_than_the_structure_lists_keeps_the_named_one() {
    let mut page = String::from("<!doctype html><title>many</title><main>");
    for n in 0..600 {
        if n == 550 {
            page.push_str("<span class=\"todo-count\">3 items left</span>");
        }
        page.push_str(&format!("<p class=\"note-line\">Note {n}</p>"));
    }
    page.push_str("</main>");
    let out = one_page(
        &page,
        "test: count\n  open /page.html\n  the todo count shows \"3 items left\"\n",
    )
    .args(&["run"])
    .run()
    .assert_exit(0)
    .stdout_line("1 passed, 0 failed");
    let cache = out.read("cache/scenarios/page.steps.toml");
    assert!(cache.contains("page.locator('span.todo-count')"), "{cache}");
}
