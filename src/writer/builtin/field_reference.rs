//! Plan steps about "the field" with no name of its own: the field the test's last action used
//! (`type '30' into the 'How old are you?' field`, then `the field shows '30'`, `the field is
//! valid`, `change it to '120'`, `clear the field`). A form has many fields, so the page alone
//! cannot say which one "the field" is; the test's discourse memory can, and when the last
//! action used no field the step declines instead of guessing.
//!
//! Main function: [`the_field_just_used`], one of the plan readers (`plan_readers.rs`).

use crate::writer::builtin::discourse::Part;
use crate::writer::builtin::element_step::{Check, ElementStep, Op, Subject};
use crate::writer::builtin::intent::Decline;
use crate::writer::builtin::plan_steps::{Reading, Said, words};
use crate::writer::builtin::tokens::Tok;

/// Nouns that name a field without saying which.
const FIELD_NOUNS: &[&str] = &["field", "input", "textbox", "box"];

/// What a sentence about the field just used says of it or does to it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum FieldStep {
    /// `the field shows '30'`, `the field contains 'Cherry'`.
    Value(String),
    /// `the field is empty`.
    Empty,
    /// `the field is valid [again]` (true), `the field is invalid` (false).
    Valid(bool),
    /// `the search term appears in the field`: the text the test typed into it.
    Typed,
    /// `clear the field`, `clear it`.
    Clear,
    /// `change it to '120'`, `change the field to '120'`.
    Fill(String),
}

/// The code of a step about the field the last action used, or `None` when the sentence is
/// not about an unnamed field.
pub(crate) fn the_field_just_used(said: &Said) -> Reading {
    let step = field_step(&said.toks)?;
    let Some(field) = said.discourse.field() else {
        return Some(Err(Decline::new(
            "the sentence refers to the field just used, and the step before it used no field \
             this step can name (write the field's name in quotes)",
        )));
    };
    let value = |text: String| Op::Expect {
        check: Check::Value(text),
        not: false,
    };
    let op = match step {
        FieldStep::Typed => {
            let Some(typed) = said.discourse.typed() else {
                return Some(Err(Decline::new(
                    "the sentence refers to the text typed, and no earlier step typed text \
                     that is still in the field",
                )));
            };
            value(typed.to_owned())
        }
        FieldStep::Value(text) => value(text),
        FieldStep::Empty => value(String::new()),
        FieldStep::Valid(valid) => Op::Valid(valid),
        FieldStep::Clear => Op::Clear,
        FieldStep::Fill(text) => Op::Fill(text),
    };
    let field = Subject::Located(field.to_owned());
    Some(Ok(vec![Part::Step(ElementStep::new(field, op))]))
}

/// The reading of `toks` as a step about an unnamed field. Every word must be read: a word
/// this reader does not know (`still`, `because`, a field's name) leaves the sentence to the
/// other readers.
fn field_step(toks: &[Tok]) -> Option<FieldStep> {
    let w = words(toks);
    let literal = match toks.last() {
        Some(Tok::Lit(value)) => Some(value.clone()),
        _ => None,
    };
    let noun = |word: &str| FIELD_NOUNS.contains(&word);
    // A number needs no quotes: `the value is 43`.
    let value = literal.clone().or(match toks.last() {
        Some(Tok::Word(w, orig)) if w.parse::<f64>().is_ok() => Some(orig.clone()),
        _ => None,
    });
    match w.as_slice() {
        // `the value is 43`: the value of the field just used, the only value a sentence can
        // mean without naming its field.
        ["the" | "its", "value", "is" | "shows" | "reads", _] => value.map(FieldStep::Value),
        ["the", n, "shows" | "contains" | "has", "\""] if noun(n) => literal.map(FieldStep::Value),
        ["the", n, "is", "empty"] if noun(n) => Some(FieldStep::Empty),
        // `again` says the field was otherwise before, which an earlier step checked; the
        // claim of this step is its state now.
        ["the", n, "is", "valid"] | ["the", n, "is", "valid", "again"] if noun(n) => {
            Some(FieldStep::Valid(true))
        }
        ["the", n, "is", "invalid"] if noun(n) => Some(FieldStep::Valid(false)),
        [
            "the",
            "search",
            "term",
            "appears" | "is" | "shows",
            "in",
            "the",
            rest @ ..,
        ] if rest.last().is_some_and(|w| noun(w))
            && rest.iter().all(|w| noun(w) || *w == "search") =>
        {
            Some(FieldStep::Typed)
        }
        ["clear", "it"] => Some(FieldStep::Clear),
        ["clear", "the", n] if noun(n) => Some(FieldStep::Clear),
        ["change", "it", "to", "\""] => literal.map(FieldStep::Fill),
        ["change", "the", n, "to", "\""] if noun(n) => literal.map(FieldStep::Fill),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::PageState;
    use crate::writer::builtin::discourse::Discourse;
    use crate::writer::builtin::element_code::CONSTRAINED;
    use crate::writer::builtin::tokens::{normalize, tokenize};

    const AGE: &str = "page.getByRole('spinbutton', { name: 'How old are you?', exact: true })";

    fn read(sentences: &[&str], code: &[String], sentence: &str) -> Result<String, String> {
        let sentences: Vec<String> = sentences.iter().map(|s| (*s).to_owned()).collect();
        let discourse = Discourse::of(&sentences, code);
        let raw = tokenize(sentence, &[]);
        let state = PageState::default();
        let said = Said {
            toks: normalize(raw.clone()),
            raw,
            discourse: &discourse,
            state: &state,
        };
        match the_field_just_used(&said) {
            None => Err("NONE".to_owned()),
            Some(Err(decline)) => Err(decline.0),
            Some(Ok(parts)) => Ok(crate::writer::builtin::discourse::texts(parts).join("\n")),
        }
    }

    fn typed_age() -> Vec<String> {
        vec![format!(
            "async function step(page) {{\n  await {AGE}.fill('30');\n}}"
        )]
    }

    #[test]
    fn the_field_is_the_one_the_last_action_filled() {
        let code = typed_age();
        let typed = ["Type '30' into the 'How old are you?' field"];
        assert_eq!(
            read(&typed, &code, "The field shows '30'"),
            Ok(format!("await expect({AGE}).toHaveValue('30');"))
        );
        assert_eq!(
            read(&typed, &code, "The field is valid again"),
            Ok(format!(
                "await expect({AGE}.and(page.locator('{CONSTRAINED}')).and(page.locator(':valid'))).toHaveCount(1);\n\
                 await expect({AGE}).not.toHaveAttribute('aria-invalid', 'true');"
            ))
        );
        assert_eq!(
            read(&typed, &code, "The field is invalid"),
            Ok(format!(
                "await expect({AGE}.and(page.locator(':invalid'))).toHaveCount(1);"
            ))
        );
        assert_eq!(
            read(&typed, &code, "Change it to '120'"),
            Ok(format!("await {AGE}.fill('120');"))
        );
        assert_eq!(
            read(&typed, &code, "Clear the field"),
            Ok(format!("await {AGE}.clear();"))
        );
        assert_eq!(
            read(&typed, &code, "The search term appears in the field"),
            Ok(format!("await expect({AGE}).toHaveValue('30');"))
        );
        assert_eq!(
            read(&typed, &code, "The field is empty"),
            Ok(format!("await expect({AGE}).toHaveValue('');"))
        );
        // The value is the field's; a number needs no quotes, and `now` says nothing.
        assert_eq!(
            read(&typed, &code, "the value is now 31"),
            Ok(format!("await expect({AGE}).toHaveValue('31');"))
        );
        assert_eq!(
            read(&typed, &code, "the value is \"30\""),
            Ok(format!("await expect({AGE}).toHaveValue('30');"))
        );
        assert_eq!(
            read(&typed, &code, "the value is high"),
            Err("NONE".to_owned())
        );
    }

    #[test]
    fn words_it_does_not_read_leave_the_sentence_to_other_readers() {
        let code = typed_age();
        let typed = ["Type '30' into the 'How old are you?' field"];
        for sentence in [
            "The field is still invalid because it is required",
            "The age field is valid",
            "The field shows '30' twice",
            "Change it to '120' quickly",
        ] {
            assert_eq!(
                read(&typed, &code, sentence),
                Err("NONE".to_owned()),
                "{sentence}"
            );
        }
    }

    #[test]
    fn a_button_or_checkbox_found_by_an_input_selector_is_no_field_when_clicked() {
        for locator in [
            "page.locator('input[type=\"submit\"]')",
            "page.locator('input#agree')",
        ] {
            let mut code = typed_age();
            code.push(format!(
                "async function step(page) {{\n  await {locator}.click();\n}}"
            ));
            let said = read(
                &["Type '30' into the 'How old are you?' field", "Click it"],
                &code,
                "The field is valid",
            );
            assert!(
                said.as_ref().is_err_and(|e| e.contains("field just used")),
                "{locator}: {said:?}"
            );
        }
        // Typing into a field found by an `input` selector makes it the field just used.
        let typed = vec![
            "async function step(page) {\n  await page.locator('input#age').fill('30');\n}"
                .to_owned(),
        ];
        assert_eq!(
            read(
                &["Type '30' into the age field"],
                &typed,
                "The field shows '30'"
            ),
            Ok("await expect(page.locator('input#age')).toHaveValue('30');".to_owned())
        );
    }

    #[test]
    fn with_no_field_used_before_it_declines() {
        let clicked =
            vec!["async function step(page) {\n  await page.getByRole('button', { name: 'Submit' }).click();\n}".to_owned()];
        let said = read(&["Click Submit"], &clicked, "The field shows '30'");
        assert!(
            said.as_ref().is_err_and(|e| e.contains("field just used")),
            "{said:?}"
        );
    }
}
