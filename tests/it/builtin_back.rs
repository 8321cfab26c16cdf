//! `go back` on a page that adds a history entry of the same document at the same URL
//! (`history.pushState(state, '', location.href)`). Playwright's `goBack()` answers no
//! response both for a step back within the document and for no step at all, and the URL is
//! the same, so step code that runs no script in the page cannot see that the back happened:
//! the step fails, and its failure says why and what to write instead.

use crate::builtin::one_page;

/// A button that opens details and pushes a history entry at the same URL; going back hides
/// them again.
const SAME_URL_PAGE: &str = "<!doctype html><title>same url</title><main>\
    <button id=\"open\">Open details</button><p id=\"details\" hidden>Details</p></main><script>\
    const details = document.getElementById('details');\
    document.getElementById('open').addEventListener('click', () => {\
      history.pushState({ open: true }, '', location.href);\
      details.hidden = false;\
    });\
    addEventListener('popstate', () => { details.hidden = true; });\
    </script>";

#[test]
fn go_back_within_one_document_at_the_same_url_fails_saying_why_and_what_to_write() {
    const STEPS: &str = "test: back\n  open /page.html\n  click \"Open details\"\n  \
        \"Details\" is shown\n  go back\n";
    one_page(SAME_URL_PAGE, STEPS)
        .args(&["run"])
        .run()
        .assert_exit(1)
        .stdout_contains("step 4: go back")
        // The failure as the page said it, with the URL it stayed on: the step code printed
        // beside a failure holds the same words with `${before}` instead.
        .stdout_contains("go back: the browser stayed on http://127.0.0.1:")
        .stdout_contains("/page.html; either no page comes before it")
        .stdout_contains("write the act that does it in the app instead");
}
