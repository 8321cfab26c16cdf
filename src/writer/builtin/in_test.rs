//! The built-in generator's writer for a step in its test: the registry (`shapes.rs`) reads
//! the step's sentence with the test's context (the earlier steps' memory, `discourse.rs`, and
//! the page's state), and with the run's origins (`navigation.rs`); this file writes what it
//! read. A reading of the test's context is parts (`part.rs`): a sentence the registry reads
//! again, on its own, or an act or a check on an element the reader resolved, which
//! `element_code.rs` writes.
//!
//! Main function: [`write_step_in_test`].

use crate::script::PageState;
use crate::writer::builtin::builtin::unproven_absence;
use crate::writer::builtin::codegen::{lines_for, statements, step_function};
use crate::writer::builtin::discourse::{Discourse, Part};
use crate::writer::builtin::element_code::element_lines;
use crate::writer::builtin::intent::{Decline, Intent};
use crate::writer::builtin::navigation::within;
use crate::writer::builtin::plan_steps::without_comments;
use crate::writer::builtin::qualifiers::unread_manner;
use crate::writer::builtin::said::Said;
use crate::writer::builtin::shapes::{Declined, write_in_test};
use crate::writer::builtin::snapshot::Snapshot;
use crate::writer::builtin::structure::revealed_json;
use crate::writer::builtin::tokens::{normalize, tokenize};

/// The code of `sentence` on the page of `state`, after the test's earlier steps (their
/// `sentences`, background first, and the `code` they passed with); `allows`
/// says whether the run's pages may go to a URL. A parenthesized comment is no part of the
/// sentence. A sentence that refers back is read as what it refers to; when the reference
/// does not resolve and the shapes cannot read the sentence on their own either, the
/// reference's decline says what it could have meant.
pub(crate) fn write_step_in_test(
    sentence: &str,
    columns: &[String],
    state: &PageState,
    allows: &dyn Fn(&str) -> bool,
    sentences: &[String],
    code: &[String],
) -> Result<String, Decline> {
    let sentence = &without_comments(sentence);
    let discourse = Discourse::of(sentences, code);
    let raw = tokenize(sentence, columns);
    let said = Said {
        toks: normalize(raw.clone()),
        raw,
        discourse: &discourse,
        state,
    };
    written(sentence, columns, state, allows, Some(&said)).map(step_function)
}

/// The code of `sentence` read on its own, without the test's context, on the page of
/// `state` with the run's origins: what a part of a reading that is a sentence is written as.
pub(crate) fn write_step_within(
    sentence: &str,
    columns: &[String],
    state: &PageState,
    allows: &dyn Fn(&str) -> bool,
) -> Result<String, Decline> {
    written(sentence, columns, state, allows, None).map(step_function)
}

/// The statements of `sentence` as the registry reads it, with the test's context when
/// `test` is given, or why it cannot be written: a reading of the test's context is written
/// or declines as it is, and the shapes' decline says what the page may be hiding and what
/// the run's origins left out.
fn written(
    sentence: &str,
    columns: &[String],
    state: &PageState,
    allows: &dyn Fn(&str) -> bool,
    test: Option<&Said<'_>>,
) -> Result<Vec<String>, Decline> {
    let within = within(sentence, columns, state, allows);
    let text = within.sentence(sentence);
    let shown = within.state(state);
    let snap = Snapshot::read(&shown.snapshot, &shown.structure);
    let render = |_: &'static str, intent: Intent| match intent {
        Intent::Parts(parts) => parts_lines(parts, columns, state, allows, test),
        intent => match within.refuses() {
            Some(refusal) => Err(refusal.clone()),
            None => lines_for(&intent, &snap),
        },
    };
    match write_in_test(text, columns, &snap, test, render) {
        Ok(lines) => Ok(lines),
        Err(Declined::Test(decline)) => Err(decline),
        Err(Declined::Shapes(decline)) => Err(within.decline(unproven_absence(
            decline,
            text,
            &snap,
            shown.url == "about:blank",
        ))),
    }
}

/// The statements of a reading's parts, in order: a sentence as the registry reads it on its
/// own (on the page with its hidden elements shown, for a part about what an earlier part
/// shows), an element's act or check as `element_code.rs` writes it.
fn parts_lines(
    parts: Vec<Part>,
    columns: &[String],
    state: &PageState,
    allows: &dyn Fn(&str) -> bool,
    test: Option<&Said<'_>>,
) -> Result<Vec<String>, Decline> {
    // A word of manner handed on in a part would reach the shapes in a sentence of the
    // reader's own, whose decline need not name it: it declines here, named.
    if let Some(said) = test {
        unread_manner(&said.toks)?;
    }
    let mut lines = Vec::new();
    for part in parts {
        match part {
            Part::Step(step) => lines.extend(element_lines(&step)),
            Part::Sentence(sentence) => {
                lines.extend(statements(&write_step_within(
                    &sentence, columns, state, allows,
                )?));
            }
            Part::Revealed(sentence) => {
                let revealed = PageState {
                    structure: revealed_json(&state.structure),
                    ..state.clone()
                };
                lines.extend(statements(&write_step_within(
                    &sentence, columns, &revealed, allows,
                )?));
            }
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::plan_steps::tests::add_steps;

    const TODOS: &str = "- main:\n  - textbox \"What needs to be done?\"\n  - list:\n    - listitem:\n      - checkbox \"Toggle Todo\"\n      - text: Buy milk\n";

    fn written(sentence: &str) -> Result<String, Decline> {
        let state = PageState {
            url: "http://127.0.0.1:8080/".to_owned(),
            base_url: Some("http://127.0.0.1:8080/".to_owned()),
            snapshot: TODOS.to_owned(),
            ..PageState::default()
        };
        // The test added "Buy milk" with the code an earlier step passed with.
        let field = "page.getByRole('textbox', { name: 'What needs to be done?' })";
        let before = ["add 'Buy milk'".to_owned()];
        let code = [format!(
            "async function step(page) {{\n  await {field}.fill('Buy milk');\n  await \
             {field}.press('Enter');\n}}"
        )];
        write_step_in_test(sentence, &[], &state, &|_| true, &before, &code)
    }

    /// The control an add's mark names is looked for among the elements the page hides too,
    /// because a page may show it only once the add has run; without one, the step declines.
    #[test]
    fn the_control_of_an_add_and_mark_may_be_one_the_page_hides_before_the_add() {
        let page = |structure: &str| PageState {
            url: "http://127.0.0.1:8080/".to_owned(),
            base_url: Some("http://127.0.0.1:8080/".to_owned()),
            snapshot: "- heading \"todos\" [level=1]\n- textbox \"What needs to be done?\"\n"
                .to_owned(),
            structure: structure.to_owned(),
            ..PageState::default()
        };
        let hidden = page(
            r#"[{"role":"checkbox","tag":"input","words":["toggle","all"],"locator":"page.locator('input.toggle-all')","text":"","visible":false,"hidden":true}]"#,
        );
        const SENTENCE: &str =
            "Add three todos and mark all as complete using the toggle all checkbox";
        let code = write_step_in_test(SENTENCE, &[], &hidden, &|_| true, &[], &[]).unwrap();
        let click = code
            .find("await page.locator('input.toggle-all').click();")
            .unwrap_or_else(|| panic!("{code}"));
        let last_add = code
            .rfind("press('Enter')")
            .unwrap_or_else(|| panic!("{code}"));
        assert!(last_add < click, "the click comes after the add: {code}");
        assert_eq!(code.matches(".toBeChecked();").count(), 3, "{code}");
        // A page with no such control, shown or hidden, gives nothing to click.
        assert!(write_step_in_test(SENTENCE, &[], &page(""), &|_| true, &[], &[]).is_err());
    }

    /// A plan sentence with a word of manner is never written: the plan readers and the
    /// test's memory do not read it, and a reading of theirs declines naming it.
    #[test]
    fn a_plan_sentence_with_a_word_of_manner_is_not_written() {
        for sentence in [
            "the todo appears in the list quickly",
            "the todo is marked as complete quickly",
            "click the checkbox next to the todo slowly",
            "press Enter quickly to submit the todo",
            "the application loads quickly",
        ] {
            assert!(
                written(sentence).is_err(),
                "{sentence:?}: {:?}",
                written(sentence)
            );
        }
        assert_eq!(
            unread_manner(&normalize(tokenize("the todo appears quickly", &[]))),
            Err(Decline::unread(&["quickly"]))
        );
        for sentence in [
            "the todo appears in the list",
            "click the checkbox next to the todo",
        ] {
            assert!(
                written(sentence).is_ok(),
                "{sentence:?}: {:?}",
                written(sentence)
            );
        }
    }

    /// After a hover the item shows its delete button, named `×`, which the page's structure
    /// also lists by its class (`button.destroy`): both are one button, and `click the delete
    /// button` clicks it by the name the snapshot gives.
    #[test]
    fn the_delete_button_a_hover_shows_is_clicked_by_its_name() {
        let state = PageState {
            url: "http://127.0.0.1:8080/".to_owned(),
            base_url: Some("http://127.0.0.1:8080/".to_owned()),
            snapshot: "- main [ref=e6]:\n  - list [ref=e9]:\n    - listitem [ref=e10]:\n      - generic [ref=e11]:\n        - checkbox [ref=e12]\n        - generic [ref=e13]: Task to delete\n        - button \"×\" [ref=e14]\n".to_owned(),
            structure: r#"[{"role":"button","tag":"button","words":["destroy"],"locator":"page.locator('button.destroy')","text":"","visible":true,"placeholder":null,"label":null}]"#.to_owned(),
            ..PageState::default()
        };
        let code = write_step_in_test("click the delete button", &[], &state, &|_| true, &[], &[])
            .unwrap();
        assert!(
            code.contains("await page.getByRole('button', { name: '×', exact: true }).click();"),
            "{code}"
        );
    }

    /// The code of `sentence` after steps that added `items` through the new-item field, and a
    /// reload when `reloaded`, on a page that lists them.
    fn written_after(items: &[&str], reloaded: bool, sentence: &str) -> Result<String, Decline> {
        let (mut before, mut code) = add_steps(items);
        if reloaded {
            before.push("reload the page".to_owned());
            code.push("async function step(page) {\n  await page.reload();\n}".to_owned());
        }
        let listed: String = items
            .iter()
            .map(|i| {
                format!("    - listitem:\n      - checkbox \"Toggle Todo\"\n      - text: {i}\n")
            })
            .collect();
        let state = PageState {
            url: "http://127.0.0.1:8080/".to_owned(),
            base_url: Some("http://127.0.0.1:8080/".to_owned()),
            snapshot: format!(
                "- main:\n  - textbox \"What needs to be done?\"\n  - list:\n{listed}  - \
                 contentinfo:\n    - button \"Clear completed\"\n"
            ),
            ..PageState::default()
        };
        write_step_in_test(sentence, &[], &state, &|_| true, &before, &code)
    }

    /// A sentence the test's memory or a plan reader reads, with a word that says more than
    /// its reading does, is never written as that reading: the step declines (the shapes'
    /// decline when no reading explains the word and no shape reads the sentence whole).
    #[test]
    fn a_word_the_readings_leave_unexplained_is_never_dropped() {
        let mut failures = Vec::new();
        for (items, sentence) in [
            (&["Buy milk"][..], "the todo appears in the list twice"),
            (&["Buy milk"][..], "the todo is not removed from the list"),
            (
                &["a", "b", "c"][..],
                "all three todos are visible except the last",
            ),
            (
                &["a", "b", "c"][..],
                "the first todo is marked as complete in the footer",
            ),
            (
                &["a", "b", "c"][..],
                "all three todos are still present after reload",
            ),
            (&["a", "b"][..], "both todos appear in the list twice"),
            (&["a", "b"][..], "both todos are completed unless hidden"),
            (
                &["a", "b"][..],
                "the other todo is active within the footer",
            ),
            (&["Buy milk"][..], "the todo is marked as complete later"),
            (
                &["Buy milk"][..],
                "click the checkbox to uncomplete it twice",
            ),
            (&["Buy milk"][..], "the checkbox is checked after reload"),
            (
                &[][..],
                "add three todos and mark one as complete after reload",
            ),
            (&[][..], "add 'x' and mark it as complete twice"),
        ] {
            if let Ok(code) = written_after(items, false, sentence) {
                failures.push(format!("{sentence:?} was written:\n{code}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        // The memory reads `after reload` in its claim, and names it in a test with no reload.
        let declined = written_after(
            &["a", "b", "c"],
            false,
            "all three todos are still present after reload",
        );
        assert_eq!(declined, Err(Decline::unaccounted(&["reload"])));
    }

    /// `after reload` is read once an earlier step of the test reloaded the page, and the
    /// memory's readings of plain references stay as they were.
    #[test]
    fn after_reload_is_read_after_a_reload() {
        const SENTENCE: &str = "all three todos are still present after reload";
        let code = written_after(&["a", "b", "c"], true, SENTENCE).unwrap();
        let plain = written_after(&["a", "b", "c"], true, "all three todos appear in the list");
        assert_eq!(Ok(code), plain);
        assert!(
            written_after(
                &["a", "b", "c"],
                false,
                "all three todos appear in the list"
            )
            .is_ok()
        );
        // An add after the reload is no part of what the reload kept.
        let (mut before, mut code) = add_steps(&["a"]);
        before.push("reload the page".to_owned());
        code.push("async function step(page) {\n  await page.reload();\n}".to_owned());
        let (added, add_code) = add_steps(&["b"]);
        before.extend(added);
        code.extend(add_code);
        let state = PageState {
            url: "http://127.0.0.1:8080/".to_owned(),
            base_url: Some("http://127.0.0.1:8080/".to_owned()),
            snapshot: "- main:\n  - textbox \"What needs to be done?\"\n  - list:\n    - listitem:\n      \
                       - text: a\n    - listitem:\n      - text: b\n"
                .to_owned(),
            ..PageState::default()
        };
        let later = "both todos are still present after reload";
        let declined = write_step_in_test(later, &[], &state, &|_| true, &before, &code);
        assert!(declined.is_err(), "{declined:?}");
    }
}
