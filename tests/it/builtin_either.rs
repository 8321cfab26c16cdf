//! The built-in generator's either-or checks on a live page (`the counter shows "0 items left"
//! or the footer is hidden`): the decision is retried until the step's timeout, so an element
//! that hides a moment after the step's act passes, a sentence that never comes to hold fails,
//! and a check that holds by its other claim is still proven by the mutation proof.

use crate::builtin::{one_page, replay_fails_on};

/// A footer with a counter that says "1 item left" whatever happens; "Clear completed" hides the
/// footer 1.5 s after the click, by a timer of the page's own that the runner does not wait for.
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

/// The page whose footer stays shown after the click, its counter saying `counter`.
fn footer_stays(counter: &str) -> String {
    let page = FOOTER_PAGE
        .replace("const HIDES = true;", "const HIDES = false;")
        .replace(">1 item left<", &format!(">{counter}<"));
    assert!(page.contains("HIDES = false") && page.contains(&format!(">{counter}<")));
    page
}

/// The either-or step's event among a run's JSON events.
fn either_step(events: &[serde_json::Value], event: &str) -> serde_json::Value {
    events
        .iter()
        .find(|e| {
            e["event"] == event
                && e["sentence"]
                    .as_str()
                    .is_some_and(|s| s.contains("0 items left"))
        })
        .cloned()
        .unwrap_or_else(|| panic!("no {event} of the either-or step in {events:?}"))
}

/// Right after the click the footer is still shown and the counter says "1 item left"; 1.5 s
/// later the footer hides. A single look (`if (await footer.isVisible())`) checked the counter
/// then and failed; the retried check passes once the footer hides, when written and when the
/// cached code is replayed at once after the click. Replayed on a page whose footer stays, the
/// same code fails, on the counter's text.
#[test]
fn an_either_or_passes_when_the_element_hides_a_moment_after_the_act() {
    let out = one_page(FOOTER_PAGE, STEPS)
        .args(&["run", "--reporter", "json", "--output", "report"])
        .run()
        .assert_exit(0);
    let cache = out.read("cache/scenarios/page.steps.toml");
    assert!(
        cache.contains("await expect(async () => {")
            && cache.contains("if (await page.locator('footer.footer').isVisible()) {")
            && cache.contains(
                "await expect(page.locator('span.todo-count')).toHaveText('0 items left', { timeout: 500 });"
            )
            && cache.contains(
                "await expect(page.locator('footer.footer')).toBeHidden({ timeout: 500 });"
            )
            && cache.contains("}).toPass();"),
        "{cache}"
    );
    let replayed = out
        .again()
        .page("page.html", FOOTER_PAGE)
        .args(&["replay", "--strict"])
        .run()
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed");
    replay_fails_on(replayed, &footer_stays("1 item left"), "0 items left");
}

/// Where the footer stays shown and the counter never says "0 items left", the sentence never
/// holds: the step fails after the step's timeout with the counter's own failure, what the
/// counter showed as received.
#[test]
fn an_either_or_that_never_holds_fails_on_the_other_claim() {
    let failed = one_page(&footer_stays("1 item left"), STEPS)
        .args(&["run"])
        .run()
        .assert_exit(1)
        .stdout_contains("step 3: the counter shows \"0 items left\" or the footer is hidden");
    let stdout = failed.stdout();
    // The printed step code holds '0 items left' but never "1 item left": only the failure's
    // received text does.
    assert!(stdout.contains("\"1 item left\""), "{stdout}");
    assert!(stdout.contains("toHaveText"), "{stdout}");
}

/// Where the footer stays shown and the counter says what the sentence claims, the check passes
/// on the counter, and the mutation proof proves it: a changed or hidden counter fails it. The
/// proof is run again by `prettyplay audit`, whose step time less the replay's is the proof's.
#[test]
fn an_either_or_that_holds_by_its_other_claim_is_proven() {
    let holds = footer_stays("0 items left");
    let out = one_page(&holds, STEPS)
        .args(&["run", "--reporter", "json", "--output", "report"])
        .run()
        .assert_exit(0);
    let events = out.events("report/events.jsonl");
    let passed = either_step(&events, "step_passed");
    let proof = passed["proof"].as_str().unwrap_or_default();
    assert!(proof.starts_with("proven"), "{passed}");
    let replayed = out
        .again()
        .page("page.html", &holds)
        .args(&["replay", "--reporter", "json", "--output", "replay"])
        .run()
        .assert_exit(0);
    let replay = either_step(&replayed.events("replay/events.jsonl"), "step_passed");
    let audited = replayed
        .again()
        .page("page.html", &holds)
        .args(&["audit", "--reporter", "json", "--output", "audit"])
        .run()
        .assert_exit(0);
    let audit = either_step(&audited.events("audit/events.jsonl"), "step_passed");
    let proof = audit["proof"].as_str().unwrap_or_default();
    assert!(proof.starts_with("proven"), "{audit}");
    eprintln!(
        "either-or step: replay {} ms, audit (replay and proof) {} ms",
        replay["duration_ms"], audit["duration_ms"]
    );
}
