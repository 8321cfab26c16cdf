//! End to end: dialogs, popups, frames, scrolling and downloads, checked against what
//! Playwright's documentation says step code sees ("Dialogs", "Pages", "Frames", "Events",
//! "Downloads"). Each `prettyplay` run replays a scenario of many small tests from
//! `support/fixtures/events/` (pages, `.steps` and their caches) and the Rust test checks every
//! test's verdict and the key facts of each expected failure.
//!
//! Tests of behaviour the binding does not match yet are in `deviations.steps`; the Rust tests
//! running them say what Playwright does.

use std::time::{Duration, Instant};

use regex::Regex;

use crate::support::{Output, Test};

/// The fixture site: every page any scenario of this module opens.
const PAGES: &[(&str, &str)] = &[
    (
        "dialogs.html",
        include_str!("support/fixtures/events/dialogs.html"),
    ),
    (
        "prompt-on-load.html",
        include_str!("support/fixtures/events/prompt-on-load.html"),
    ),
    (
        "popups.html",
        include_str!("support/fixtures/events/popups.html"),
    ),
    (
        "popup.html",
        include_str!("support/fixtures/events/popup.html"),
    ),
    (
        "frames.html",
        include_str!("support/fixtures/events/frames.html"),
    ),
    (
        "frame-form.html",
        include_str!("support/fixtures/events/frame-form.html"),
    ),
    (
        "frame-outer.html",
        include_str!("support/fixtures/events/frame-outer.html"),
    ),
    (
        "frame-inner.html",
        include_str!("support/fixtures/events/frame-inner.html"),
    ),
    (
        "frame-result.html",
        include_str!("support/fixtures/events/frame-result.html"),
    ),
    (
        "scroll.html",
        include_str!("support/fixtures/events/scroll.html"),
    ),
    (
        "downloads.html",
        include_str!("support/fixtures/events/downloads.html"),
    ),
    (
        "report-data.csv",
        include_str!("support/fixtures/events/report-data.csv"),
    ),
];

/// `prettyplay.toml` of every run: prettyplay's default 5 s action timeout, so that what should
/// pass passes on a loaded machine too; step code that is meant to time out says how soon.
const CONFIG: &str = "scenarios = \"scenarios\"\ncache_dir = \"cache\"\n\n[browser]\ntimeout = 5\n";

/// How long a run whose steps time out on a page that never lets go of a dialog may take: about
/// 8 s on an idle machine, several times that on a loaded one; a hang runs into the harness's
/// kill once the run has printed nothing for `PHASE_LIMIT`.
const RUNAWAY_RUN_LIMIT: Duration = Duration::from_secs(60);

/// A scenario of `support/fixtures/events/` and its cache, by name.
struct Scenario {
    name: &'static str,
    steps: &'static str,
    cache: &'static str,
}

macro_rules! scenario {
    ($name:literal) => {
        Scenario {
            name: $name,
            steps: include_str!(concat!("support/fixtures/events/", $name, ".steps")),
            cache: include_str!(concat!("support/fixtures/events/", $name, ".steps.toml")),
        }
    };
}

/// What a test of a scenario must end with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    Pass,
    Fail,
}
use Verdict::{Fail, Pass};

/// One run: replays `scenario` (verbose, strict, one worker: tests run one after the other in
/// file order, in one browser) with `[browser]` extended by `browser_extra`, and `args`
/// appended. Answers the output and how long the run took.
fn replay(scenario: &Scenario, browser_extra: &str, args: &[&str]) -> (Output, Duration) {
    let path = format!("scenarios/{}.steps", scenario.name);
    let mut test = Test::new()
        .config(&format!("{CONFIG}{browser_extra}"))
        .scenario(&path, scenario.steps)
        .cache(&format!("cache/{path}.toml"), scenario.cache);
    for (page, content) in PAGES {
        test = test.page(page, content);
    }
    let mut all = vec!["replay", "--strict", "-v", "-j", "1"];
    all.extend_from_slice(args);
    let started = Instant::now();
    let out = test.args(&all).run();
    let took = started.elapsed();
    eprintln!("{}: the run took {took:.2?}", scenario.name);
    (out, took)
}

/// Checks the verdict of every listed test and the summary line; lists every mismatch at once.
#[track_caller]
fn assert_verdicts(out: Output, scenario: &Scenario, verdicts: &[(&str, Verdict)]) -> Output {
    let mut wrong = Vec::new();
    for (test, verdict) in verdicts {
        let word = match verdict {
            Pass => "PASS",
            Fail => "FAIL",
        };
        let line = format!("{word} scenarios/{}.steps › {test} (", scenario.name);
        if !out.stdout().contains(&line) {
            wrong.push(format!("expected {line:?}"));
        }
    }
    let passed = verdicts.iter().filter(|(_, v)| *v == Pass).count();
    let summary = format!("{passed} passed, {} failed", verdicts.len() - passed);
    if !out.stdout().lines().any(|l| l.trim_end() == summary) {
        wrong.push(format!("expected the summary {summary:?}"));
    }
    if !wrong.is_empty() {
        out.fail(&wrong.join("\n"));
    }
    out.assert_exit(if passed == verdicts.len() { 0 } else { 1 })
}

/// The failure report of `test` (from its `──── FAIL` header to the next report or the
/// summary).
#[track_caller]
fn report<'a>(out: &'a Output, scenario: &Scenario, test: &str) -> &'a str {
    let header = format!("──── FAIL scenarios/{}.steps › {test}\n", scenario.name);
    let Some(start) = out.stdout().find(&header) else {
        out.fail(&format!("no failure report for {test:?}"));
    };
    let rest = &out.stdout()[start + header.len()..];
    let end = rest.find("──── ").unwrap_or(rest.len());
    &rest[..end]
}

/// The failure report of `test` contains each of `needles`, and matches each of `patterns`.
#[track_caller]
fn assert_report(
    out: &Output,
    scenario: &Scenario,
    test: &str,
    needles: &[&str],
    patterns: &[&str],
) {
    let text = report(out, scenario, test);
    let mut wrong = Vec::new();
    for needle in needles {
        if !text.contains(needle) {
            wrong.push(format!("does not contain {needle:?}"));
        }
    }
    for pattern in patterns {
        let regex = Regex::new(&format!("(?m){pattern}")).expect("a valid pattern");
        if !regex.is_match(text) {
            wrong.push(format!("does not match /{pattern}/"));
        }
    }
    if !wrong.is_empty() {
        out.fail(&format!(
            "the failure report of {test:?}\n{}\n--- report ---\n{text}",
            wrong.join("\n")
        ));
    }
}

/// The duration the verbose report gives the step `sentence` (its first occurrence).
#[track_caller]
fn step_seconds(out: &Output, sentence: &str) -> f64 {
    let pattern = format!(r"[✓✗] \d+\. {} \((\d+\.\d+)s\)", regex::escape(sentence));
    let Some(captures) = Regex::new(&pattern)
        .expect("a valid pattern")
        .captures(out.stdout())
    else {
        out.fail(&format!("no verbose step line for {sentence:?}"));
    };
    captures[1].parse().expect("a number of seconds")
}

// ---- dialogs ------------------------------------------------------------------------------

#[test]
fn dialogs_are_accepted_by_default_captured_with_wait_for_event_and_handled_by_listeners() {
    check_dialogs("");
}

/// [`dialogs_are_accepted_by_default_captured_with_wait_for_event_and_handled_by_listeners`] with `browser_extra` added to `[browser]`.
pub(crate) fn check_dialogs(browser_extra: &str) {
    let dialogs = scenario!("dialogs");
    let (out, _) = replay(&dialogs, browser_extra, &[]);
    let out = assert_verdicts(
        out,
        &dialogs,
        &[
            ("unclaimed dialogs are accepted", Pass),
            ("a confirm captured with waitForEvent", Pass),
            ("a prompt captured with waitForEvent", Pass),
            ("an alert captured with waitForEvent", Pass),
            ("a once listener handles one dialog", Pass),
            ("an on listener handles every dialog until off", Pass),
            ("a listener answers a prompt", Pass),
            ("a dialog cannot be resolved twice", Fail),
            ("waiting for a dialog that never comes", Fail),
            ("a beforeunload dialog on reload", Pass),
            ("an unclaimed beforeunload dialog is accepted", Pass),
            ("a prompt while the page loads", Pass),
            ("an event the binding does not route", Fail),
        ],
    );
    // Playwright: "dialog.accept: Cannot accept dialog which is already handled!"
    assert_report(
        &out,
        &dialogs,
        "a dialog cannot be resolved twice",
        &["dialog.accept: "],
        &[r"(?i)already (handled|accepted)"],
    );
    assert_report(
        &out,
        &dialogs,
        "waiting for a dialog that never comes",
        &[
            "  timeout\n",
            "page.waitForEvent: Timeout 400ms exceeded while waiting for event \"dialog\"",
        ],
        &[],
    );
    assert_report(
        &out,
        &dialogs,
        "an event the binding does not route",
        &[
            "page.on: event \"request\" is not available in step code",
            "\"dialog\"",
        ],
        &[],
    );
}

#[test]
fn unclaimed_dialogs_are_dismissed_with_accept_dialogs_false() {
    let dismissed = scenario!("dismissed");
    let (out, _) = replay(&dismissed, "accept_dialogs = false\n", &[]);
    assert_verdicts(
        out,
        &dismissed,
        &[
            ("unclaimed dialogs are dismissed", Pass),
            ("a captured confirm can still be accepted", Pass),
            ("an unclaimed beforeunload dialog keeps the page", Pass),
        ],
    );
}

/// An endless `alert` loop, a `page.on('dialog')` listener that never resolves its dialog (the
/// "WRONG!" example of Playwright's Dialogs page, which hangs in Playwright) and an action on a
/// page blocked by a dialog the step captured: each step fails on its action's timeout (2 s,
/// given in the step code), and the test after it, in the same browser, passes.
#[test]
fn a_dialog_nobody_lets_go_of_fails_its_step_on_a_timeout_and_the_next_test_passes() {
    let runaway = scenario!("runaway");
    let (out, took) = replay(&runaway, "", &[]);
    let out = assert_verdicts(
        out,
        &runaway,
        &[
            ("an endless alert loop", Fail),
            ("after the alert loop", Pass),
            ("a listener that leaves the dialog open", Fail),
            ("after the forgetful listener", Pass),
            ("an action while a captured dialog is open", Fail),
            ("after the action on a blocked page", Pass),
        ],
    );
    assert_report(
        &out,
        &runaway,
        "an endless alert loop",
        &[
            "  timeout\n",
            "locator.click: Timeout 2000ms exceeded.",
            "getByRole('button', { name: 'loop forever' })",
        ],
        &[],
    );
    assert_report(
        &out,
        &runaway,
        "a listener that leaves the dialog open",
        &[
            "  timeout\n",
            "locator.click: Timeout 2000ms exceeded.",
            "getByRole('button', { name: 'confirm' })",
        ],
        &[],
    );
    assert_report(
        &out,
        &runaway,
        "an action while a captured dialog is open",
        &["  timeout\n", "locator.click: Timeout 500ms exceeded."],
        &[],
    );
    // Each test after a runaway one ran after it, in the same browser.
    let position = |line: &str| out.stdout().find(line);
    for (runaway_test, next) in [
        (
            "FAIL scenarios/runaway.steps › an endless alert loop (",
            "PASS scenarios/runaway.steps › after the alert loop (",
        ),
        (
            "FAIL scenarios/runaway.steps › a listener that leaves the dialog open (",
            "PASS scenarios/runaway.steps › after the forgetful listener (",
        ),
        (
            "FAIL scenarios/runaway.steps › an action while a captured dialog is open (",
            "PASS scenarios/runaway.steps › after the action on a blocked page (",
        ),
    ] {
        if position(runaway_test) >= position(next) {
            out.fail(&format!("{next:?} should come after {runaway_test:?}"));
        }
    }
    // The listener ran (its console line shows under the step) before the click timed out.
    let out = out.stdout_contains("console.log: delete everything?");
    for (step, limit) in [
        ("start the alert loop and check the page", 10.0),
        ("only log the confirm", 10.0),
        ("click while the confirm is open", 6.0),
    ] {
        let seconds = step_seconds(&out, step);
        if seconds > limit {
            out.fail(&format!(
                "{step:?} should fail on its action timeout (about 2 s idle), took {seconds}s"
            ));
        }
    }
    if took > RUNAWAY_RUN_LIMIT {
        out.fail(&format!(
            "the run should end within {RUNAWAY_RUN_LIMIT:?}, took {took:?}"
        ));
    }
}

// ---- popups -------------------------------------------------------------------------------

#[test]
fn popups_and_new_tabs_are_full_pages_of_the_context() {
    let popups = scenario!("popups");
    let (out, _) = replay(&popups, "", &[]);
    let out = assert_verdicts(
        out,
        &popups,
        &[
            ("a target=_blank link with Promise.all", Pass),
            ("a window.open popup awaited after the click", Pass),
            ("waitForPopup", Pass),
            ("the context lists its pages", Pass),
            ("bringToFront switches between pages", Pass),
            ("a popup listener", Pass),
            ("a dialog inside a popup", Pass),
            ("an unclaimed dialog inside a popup", Pass),
            ("the opener does not get the popup's dialogs", Pass),
            ("a popup that never comes", Fail),
            ("a popup that never comes, default timeout", Fail),
        ],
    );
    assert_report(
        &out,
        &popups,
        "a popup that never comes",
        &[
            "  timeout\n",
            "page.waitForEvent: Timeout 500ms exceeded while waiting for event \"popup\"",
        ],
        &[],
    );
    // Playwright names the API called, `page.waitForPopup`; the timeout and event are the facts.
    assert_report(
        &out,
        &popups,
        "a popup that never comes, default timeout",
        &[
            "  timeout\n",
            "Timeout 5000ms exceeded while waiting for event \"popup\"",
        ],
        &[r"page\.wait(ForEvent|ForPopup): Timeout"],
    );
}

// ---- frames -------------------------------------------------------------------------------

#[test]
fn frame_locators_reach_into_frames_and_failures_name_the_frame_chain() {
    check_frames("");
}

/// [`frame_locators_reach_into_frames_and_failures_name_the_frame_chain`] with `browser_extra` added to `[browser]`.
pub(crate) fn check_frames(browser_extra: &str) {
    let frames = scenario!("frames");
    let (out, _) = replay(&frames, browser_extra, &[]);
    let out = assert_verdicts(
        out,
        &frames,
        &[
            ("actions inside a frame", Pass),
            ("a nested frame", Pass),
            ("contentFrame of an iframe locator", Pass),
            ("first, nth and last frame", Pass),
            ("owner of a frame locator", Pass),
            ("frame locators are strict", Fail),
            ("an expect fails inside a frame", Fail),
            ("an action times out inside a frame", Fail),
            ("a dialog raised inside a frame", Pass),
        ],
    );
    assert_report(
        &out,
        &frames,
        "frame locators are strict",
        &["strict mode violation", "resolved to 2 elements"],
        &[r#"locator\(["']\.result-frame["']\)"#],
    );
    // Playwright prints the frame part either as written or as `locator(..).contentFrame()`.
    assert_report(
        &out,
        &frames,
        "an expect fails inside a frame",
        &[
            "  failed check\n",
            "expect(locator).toHaveText(expected) failed",
            "Expected: \"approved\"",
            "Received: \"pending\"",
            "Timeout:  500ms",
        ],
        &[
            r"Locator: +(frameLocator\('#single'\)|locator\('#single'\)\.contentFrame\(\))\.locator\('#state'\)",
        ],
    );
    assert_report(
        &out,
        &frames,
        "an action times out inside a frame",
        &[
            "  timeout\n",
            "locator.click: Timeout 500ms exceeded.",
            "getByRole('button', { name: 'missing' })",
        ],
        &[r"waiting for .*#outer.*#inner.*getByRole"],
    );
}

// ---- scrolling ----------------------------------------------------------------------------

/// Playwright's actionability scrolls an element into view before acting on it (in a scrolling
/// box too); `mouse.wheel` and `scrollIntoViewIfNeeded` scroll on request.
#[test]
fn actions_scroll_elements_into_view_in_boxes_and_pages() {
    check_scrolling("");
}

/// [`actions_scroll_elements_into_view_in_boxes_and_pages`] with `browser_extra` added to `[browser]`.
pub(crate) fn check_scrolling(browser_extra: &str) {
    let scroll = scenario!("scroll");
    let (out, _) = replay(&scroll, browser_extra, &[]);
    assert_verdicts(
        out,
        &scroll,
        &[
            ("a button at the bottom of a scrolling box", Pass),
            ("a checkbox at the bottom of a scrolling box", Pass),
            ("a button far down the page", Pass),
            ("the mouse wheel scrolls the page", Pass),
            ("the mouse wheel over a box scrolls the box", Pass),
            ("scrollIntoViewIfNeeded", Pass),
        ],
    );
}

// ---- downloads ----------------------------------------------------------------------------

#[test]
fn downloads_are_awaited_or_listened_to_and_their_files_are_out_of_reach() {
    check_downloads("");
}

/// [`downloads_are_awaited_or_listened_to_and_their_files_are_out_of_reach`] with `browser_extra` added to `[browser]`.
pub(crate) fn check_downloads(browser_extra: &str) {
    let downloads = scenario!("downloads");
    let (out, _) = replay(&downloads, browser_extra, &[]);
    let out = assert_verdicts(
        out,
        &downloads,
        &[
            ("a download link", Pass),
            ("a download listener", Pass),
            ("a download's path is refused", Fail),
            ("a download's saveAs is refused", Fail),
        ],
    );
    assert_report(
        &out,
        &downloads,
        "a download's path is refused",
        &[
            "  script error\n",
            "download.path() is not available in step code",
            "without a filesystem",
        ],
        &[],
    );
    assert_report(
        &out,
        &downloads,
        "a download's saveAs is refused",
        &[
            "  script error\n",
            "download.saveAs() is not available in step code",
        ],
        &[],
    );
}

// ---- deviations from Playwright -----------------------------------------------------------

/// In Playwright every waiter (`waitForEvent`) and every listener (`on`/`once`) registered when
/// an event happens receives it, and a waiter with a predicate tests each event as it happens.
/// The binding (`Routing::claim` in `src/script/events.rs`) hands an event to the oldest
/// waiter of the page that has no event yet, and only when there is none to the listeners; a
/// waiter keeps its one event until it is awaited, so later events of the kind reach nobody, and
/// a waiter whose predicate rejected an event is replaced by a new one (`waitForEvent` in
/// `prelude.js`) that only sees events after it.
#[test]
fn every_waiter_and_listener_receives_each_event() {
    let deviations = scenario!("deviations");
    let (out, _) = replay(&deviations, "", &["-g", "predicate|waiter"]);
    assert_verdicts(
        out,
        &deviations,
        &[
            (
                "waitForEvent with a predicate skips events that do not match",
                Pass,
            ),
            ("two waiters for the same popup", Pass),
            ("a popup listener and a popup waiter", Pass),
            ("a dialog listener and a dialog waiter", Pass),
            // A dialog a waiter took between calls does not cut the next call short (a loaded
            // machine made `textContent` answer null in the test above).
            (
                "a slow read after a dialog a listener and a waiter shared",
                Pass,
            ),
        ],
    );
}

/// In Playwright a web assertion made while a dialog blocks the page fails when its timeout
/// passes (the binding's follow-up read of the received value is bounded, so it cannot hang).
#[test]
fn an_expect_while_a_captured_dialog_is_open_fails_on_its_timeout() {
    let deviations = scenario!("deviations");
    let (out, took) = replay(
        &deviations,
        "",
        &["-g", "expect while a captured dialog is open"],
    );
    let out = assert_verdicts(
        out,
        &deviations,
        &[
            ("an expect while a captured dialog is open", Fail),
            ("after the expect while a captured dialog is open", Pass),
        ],
    );
    assert_report(
        &out,
        &deviations,
        "an expect while a captured dialog is open",
        &["toHaveText", "Timeout:  500ms"],
        &[],
    );
    if took > RUNAWAY_RUN_LIMIT {
        out.fail(&format!(
            "the run should end within {RUNAWAY_RUN_LIMIT:?}, took {took:?}"
        ));
    }
}
