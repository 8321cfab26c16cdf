//! The built-in generator's either-or checks on a live page (`the counter shows "0 items left"
//! or the footer is hidden`): the decision is retried until the step's timeout, so an element
//! that hides a moment after the step's act passes, and a sentence that never comes to hold
//! fails.

use crate::builtin::{one_page, replay_fails_on};

/// A footer with a counter that says "1 item left" whatever happens, and the words of its
/// filters; "Clear completed" hides the footer 1.5 s after the click, a timer of the page's own.
const FOOTER_PAGE: &str = "<!doctype html><title>todos</title><main><h1>todos</h1>\
    <button id=\"clear\">Clear completed</button>\
    <footer class=\"footer\"><span class=\"todo-count\">1 item left</span><b>Filters</b></footer></main>\
    <script>\
    const HIDES = true;\
    document.getElementById('clear').addEventListener('click', () => {\
      if (HIDES) setTimeout(() => { document.querySelector('footer.footer').hidden = true; }, 1500);\
    });\
    </script>";

const STEPS: &str = "test: either\n  open /page.html\n  click \"Clear completed\"\n  the counter \
    shows \"0 items left\" or the footer is hidden\n";

/// The strict replay runs the cached check right after the click, while the footer is still
/// shown and the counter says "1 item left": a single look (`if (await footer.isVisible())`)
/// checked the counter then and failed; the retried check passes once the footer hides. On a
/// page whose footer stays shown, the sentence never holds and the step fails with the
/// counter's failure. The check is proven, not vacuous.
#[test]
fn an_either_or_waits_for_the_element_to_hide_and_fails_when_the_sentence_never_holds() {
    let out = one_page(FOOTER_PAGE, STEPS)
        .args(&["run", "--reporter", "json", "--output", "report"])
        .run()
        .assert_exit(0);
    let cache = out.read("cache/scenarios/page.steps.toml");
    assert!(
        cache.contains("}).toPass();")
            && cache.contains("if (await page.locator('footer.footer').isVisible()) {")
            && cache.contains("toHaveText('0 items left', { timeout: 500 })"),
        "{cache}"
    );
    let events: Vec<serde_json::Value> = out.events("report/events.jsonl");
    let either = events
        .iter()
        .find(|e| {
            e["event"] == "step_passed"
                && e["sentence"]
                    .as_str()
                    .is_some_and(|s| s.contains("0 items left"))
        })
        .unwrap_or_else(|| panic!("no passed either-or step in {events:?}"));
    let proof = either["proof"].as_str().unwrap_or_default();
    assert!(!proof.starts_with("vacuous"), "{either}");
    // The cached check, run at once after the click, waits for the footer to hide.
    let replayed = out
        .again()
        .page("page.html", FOOTER_PAGE)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    let stays = FOOTER_PAGE.replace("const HIDES = true;", "const HIDES = false;");
    assert_ne!(stays, FOOTER_PAGE);
    replay_fails_on(replayed, &stays, "0 items left");
    // Written on the page whose footer stays, the sentence fails too, on the counter's text.
    one_page(&stays, STEPS)
        .args(&["run"])
        .run()
        .assert_exit(1)
        .stdout_contains("1 item left");
}

/// Where the footer stays shown and the counter says what the sentence claims, the check
/// passes on the counter and the mutation proof proves it (a counter removed or changed fails
/// it), as it did before the decision was retried.
#[test]
fn an_either_or_that_holds_by_its_claim_is_proven() {
    let holds = FOOTER_PAGE
        .replace("const HIDES = true;", "const HIDES = false;")
        .replace(">1 item left<", ">0 items left<");
    assert!(holds.contains("HIDES = false") && holds.contains(">0 items left<"));
    let out = one_page(&holds, STEPS)
        .args(&["run", "--reporter", "json", "--output", "report"])
        .run()
        .assert_exit(0);
    let events: Vec<serde_json::Value> = out.events("report/events.jsonl");
    let either = events
        .iter()
        .find(|e| e["event"] == "step_passed" && e["index"] == 3)
        .unwrap_or_else(|| panic!("no passed either-or step in {events:?}"));
    let proof = either["proof"].as_str().unwrap_or_default();
    assert!(proof.starts_with("proven"), "{either}");
}
