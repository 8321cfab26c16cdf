//! The built-in generator's writer for a step in its test: the step's sentence is read with
//! the test's discourse memory (what earlier steps added and acted on, `discourse.rs`), as a
//! planner's loose step (`plan_steps.rs`) and with the run's origins (`navigation.rs`), and
//! its parts are written by the shapes (a sentence) or by `element_code.rs` (an act or a check
//! on an element the reader resolved).
//!
//! Main function: [`write_step_in_test`].

use crate::script::PageState;
use crate::writer::builtin::codegen::{statements, step_function};
use crate::writer::builtin::discourse::{Discourse, Part};
use crate::writer::builtin::element_code::element_lines;
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::navigation::write_step_within;
use crate::writer::builtin::plan_readers::read_plan_step;
use crate::writer::builtin::plan_steps::without_comments;
use crate::writer::builtin::qualifiers::unread_manner;
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
    let read = match discourse.read(sentence, columns) {
        None => read_plan_step(&discourse, sentence, columns, state),
        Some(Err(unresolved)) => Some(
            read_plan_step(&discourse, sentence, columns, state)
                .and_then(Result::ok)
                .ok_or(unresolved),
        ),
        read => read,
    };
    match read {
        None => write_step_within(sentence, columns, state, allows),
        Some(Err(unresolved)) => {
            write_step_within(sentence, columns, state, allows).map_err(|_| unresolved)
        }
        Some(Ok(parts)) => {
            // The parts are sentences and steps of the readers' own, which the registry's
            // accounting of qualifiers does not see: a word of manner declines here.
            unread_manner(&normalize(tokenize(sentence, columns)))?;
            let mut lines = Vec::new();
            for part in parts {
                match part {
                    Part::Step(step) => lines.extend(element_lines(&step)),
                    Part::Sentence(said) => lines.extend(statements(&write_step_within(
                        &said, columns, state, allows,
                    )?)),
                    Part::Revealed(said) => {
                        let revealed = PageState {
                            structure: revealed_json(&state.structure),
                            ..state.clone()
                        };
                        lines.extend(statements(&write_step_within(
                            &said, columns, &revealed, allows,
                        )?));
                    }
                }
            }
            Ok(step_function(lines))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
