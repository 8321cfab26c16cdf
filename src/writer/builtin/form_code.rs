//! The code of the form intents (`forms.rs` reads them): a field's validity as the browser
//! computes it, a field's suggestions (its datalist's options), a field cleared and typed into
//! again, a URL without a query or without a text, and a question's group of radio buttons.
//!
//! Main function: [`code`], for `codegen.rs`.

use crate::writer::builtin::intent::{Decline, Intent, Literal};
use crate::writer::builtin::kinds::FIELD_ROLES;
use crate::writer::builtin::locator::{js_str, norm};
use crate::writer::builtin::resolve::{bounded_regex_js, checked_element, element};
use crate::writer::builtin::snapshot::Snapshot;

/// The code of a form intent.
pub(super) fn code(intent: &Intent, snap: &Snapshot) -> Result<Vec<String>, Decline> {
    match intent {
        Intent::Validity { target, valid } => {
            checked_element(snap, target, FIELD_ROLES).map(|found| {
                // Playwright has no validity matcher; the field is one of the page's elements
                // the `:valid` or `:invalid` pseudo-class matches, which is the validity the
                // browser computes (`validity.valid`).
                let class = if *valid { ":valid" } else { ":invalid" };
                vec![format!(
                    "await expect({}.and(page.locator({}))).toHaveCount(1);",
                    found.locator,
                    js_str(class)
                )]
            })
        }
        Intent::Suggests { target, values } => {
            checked_element(snap, target, FIELD_ROLES).map(|found| {
                let texts: Vec<String> = values.iter().map(|v| js_str(&v.0)).collect();
                vec![
                    format!("const list = await {}.getAttribute('list');", found.locator),
                    // The field's `list` names the datalist by id; its options are the
                    // suggestions, exactly these and in this order.
                    "const options = page.locator(`datalist[id=${JSON.stringify(list)}] > option`);"
                        .to_owned(),
                    format!("await expect(options).toHaveText([{}]);", texts.join(", ")),
                ]
            })
        }
        Intent::Retype { value, target } => {
            element(snap, target, FIELD_ROLES, false).map(|found| {
                let field = found.locator;
                vec![
                    format!("const field = {field};"),
                    "await field.clear();".to_owned(),
                    format!(
                        "await field.fill({});",
                        crate::writer::builtin::js_values::value_js(value)
                    ),
                ]
            })
        }
        Intent::NoQuery => Ok(vec!["await expect(page).toHaveURL(/^[^?]*$/);".to_owned()]),
        Intent::UrlLacks(text) => Ok(vec![format!(
            "await expect(page).not.toHaveURL({});",
            bounded_regex_js(&text.0)
        )]),
        Intent::Asks { question, options } => asks_code(snap, question, options),
        _ => Err(Decline::new("the sentence is none of the form shapes")),
    }
}

/// The group (a fieldset and its legend) whose name is the question, its `required` marker
/// aside, holds exactly the options as radio buttons.
fn asks_code(
    snap: &Snapshot,
    question: &Literal,
    options: &[Literal],
) -> Result<Vec<String>, Decline> {
    let q = norm(&question.0);
    let groups: Vec<usize> = snap
        .with_roles(&["group", "radiogroup"])
        .into_iter()
        .filter(|&i| {
            snap.nodes[i]
                .name
                .as_deref()
                .is_some_and(|name| norm(name) == q || norm(name).starts_with(&q))
        })
        .collect();
    let [group] = groups.as_slice() else {
        return Err(Decline::new(format!(
            "{} groups of the page ask \"{}\"",
            groups.len(),
            question.0
        )));
    };
    snap.notice(*group);
    let node = &snap.nodes[*group];
    let name = node.name.clone().unwrap_or_default();
    let mut lines = vec![
        format!(
            "const group = page.getByRole({}, {{ name: {}, exact: true }});",
            js_str(&node.role),
            js_str(&name)
        ),
        format!(
            "await expect(group.getByRole('radio')).toHaveCount({});",
            options.len()
        ),
    ];
    for option in options {
        lines.push(format!(
            "await expect(group.getByRole('radio', {{ name: {}, exact: true }})).toBeVisible();",
            js_str(&option.0)
        ));
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    /// A form like MDN's validation example, as its aria snapshot shows it.
    const FORM: &str = "- group \"Do you have a driver's license?required\":\n  - radio \"Yes\"\n  - radio \"No\"\n- spinbutton \"How old are you?\"\n- combobox \"What's your favorite fruit?required\"\n- button \"Submit\"\n";

    fn code(sentence: &str) -> Vec<String> {
        let code = crate::writer::builtin::write_step(sentence, &[], FORM, "")
            .unwrap_or_else(|why| panic!("declined {sentence:?}: {}", why.0));
        crate::writer::builtin::codegen::statements(&code)
    }

    #[test]
    fn the_code_of_form_checks() {
        assert_eq!(
            code("the favourite fruit field is invalid"),
            [
                "await expect(page.getByRole('combobox', { name: 'What\\'s your favorite fruit?required', exact: true }).and(page.locator(':invalid'))).toHaveCount(1);"
            ]
        );
        assert_eq!(
            code("the URL has no query string"),
            ["await expect(page).toHaveURL(/^[^?]*$/);"]
        );
        assert_eq!(
            code("the form is not sent: the address has no \"fruit=\" in it"),
            ["await expect(page).not.toHaveURL(/(?<![\\p{L}\\p{N}_])fruit=/u);"]
        );
        assert_eq!(
            code("the form asks \"Do you have a driver's license?\" with the options Yes and No")
                [..2],
            [
                "const group = page.getByRole('group', { name: 'Do you have a driver\\'s license?required', exact: true });",
                "await expect(group.getByRole('radio')).toHaveCount(2);"
            ]
        );
        assert_eq!(
            code("\"No\" is checked and \"Yes\" is unchecked"),
            [
                "await expect(page.getByRole('radio', { name: 'No', exact: true })).toBeChecked();",
                "await expect(page.getByRole('radio', { name: 'Yes', exact: true })).not.toBeChecked();"
            ]
        );
        // Read as clauses (`compound.rs`): neither text is in the URL.
        let neither = crate::writer::builtin::write_step(
            "the URL does not contain \"a\" and \"b\"",
            &[],
            FORM,
            "",
        )
        .unwrap();
        assert_eq!(neither.matches("not.toHaveURL(").count(), 2, "{neither}");
    }
}
