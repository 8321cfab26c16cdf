//! The JavaScript of an [`ElementStep`]: the statements that act on or check an element a plan
//! reader resolved. It is codegen's part for the plan readers (beside `check_code.rs` for the
//! shapes' checks), so that the readers name what to do and only the code writers write it.
//!
//! Main function: [`element_lines`].

use crate::writer::builtin::element_step::{Check, ElementStep, Op, Position, Subject};
use crate::writer::builtin::locator::js_str;

/// The fields the browser validates: a constraint attribute or a type with a format.
pub(crate) const CONSTRAINED: &str = "[required], [pattern], [min], [max], [minlength], [maxlength], [step], \
     [type=\"email\"], [type=\"url\"], [type=\"number\"], [type=\"date\"]";

/// The statements of `step`, one a line.
pub(crate) fn element_lines(step: &ElementStep) -> Vec<String> {
    let at = locator(&step.subject);
    match &step.op {
        Op::Click => vec![format!("await {at}.click();")],
        Op::Check => vec![format!("await {at}.check();")],
        Op::Uncheck => vec![format!("await {at}.uncheck();")],
        Op::Fill(text) => vec![format!("await {at}.fill({});", js_str(text))],
        Op::Clear => vec![format!("await {at}.clear();")],
        Op::Press(key) => vec![format!("await {at}.press({});", js_str(key))],
        Op::Blur => vec![format!("await {at}.blur();")],
        Op::Reload => vec![format!("await {at}.reload();")],
        Op::Expect { check, not } => {
            let not = if *not { "not." } else { "" };
            vec![format!("await expect({at}).{not}{};", matcher(check))]
        }
        // A field with no constraint of its own is always `:valid`, so "valid" is checked only
        // on a field the browser validates, and not where the app marks it invalid itself.
        Op::Valid(true) => vec![
            format!(
                "await expect({at}.and(page.locator('{CONSTRAINED}')).and(page.locator(':valid'))).toHaveCount(1);"
            ),
            format!("await expect({at}).not.toHaveAttribute('aria-invalid', 'true');"),
        ],
        Op::Valid(false) => {
            vec![format!(
                "await expect({at}.and(page.locator(':invalid'))).toHaveCount(1);"
            )]
        }
    }
}

/// The locator expression of `subject`.
pub(crate) fn locator(subject: &Subject) -> String {
    match subject {
        Subject::Page => "page".to_owned(),
        Subject::Items => "page.getByRole('listitem')".to_owned(),
        Subject::Item(text) => format!(
            "page.getByRole('listitem').filter({{ has: page.getByText({}, {{ exact: true }}) }})",
            js_str(text)
        ),
        Subject::ItemText(text) => format!(
            "page.getByRole('listitem').getByText({}, {{ exact: true }})",
            js_str(text)
        ),
        Subject::Editor => "page.getByRole('listitem').getByRole('textbox')".to_owned(),
        Subject::Checkbox(inside) => format!("{}.getByRole('checkbox')", locator(inside)),
        Subject::NthItem { list, at } => {
            let nth = match at {
                Position::At(at) => format!("nth({at})"),
                Position::Last => "last()".to_owned(),
            };
            format!("{}.getByRole('listitem').{nth}", locator(list))
        }
        Subject::Role {
            role,
            name,
            in_footer,
        } => {
            let within = if *in_footer {
                "page.locator('footer')"
            } else {
                "page"
            };
            format!(
                "{within}.getByRole({}, {{ name: {}, exact: true }})",
                js_str(role),
                js_str(name)
            )
        }
        Subject::CheckboxLabelled(label) => format!(
            "page.getByRole('checkbox').and(page.getByLabel({}, {{ exact: true }}))",
            js_str(label)
        ),
        Subject::Located(locator) => locator.clone(),
    }
}

/// The matcher of `check`, after `expect(...).`.
fn matcher(check: &Check) -> String {
    match check {
        Check::Visible => "toBeVisible()".to_owned(),
        Check::Focused => "toBeFocused()".to_owned(),
        Check::Checked => "toBeChecked()".to_owned(),
        Check::Count(n) => format!("toHaveCount({n})"),
        Check::Value(text) => format!("toHaveValue({})", js_str(text)),
        // Playwright's text matchers collapse whitespace when they compare strings, so the
        // text is compared with an anchored regular expression, which reads it as it is.
        Check::ExactText(text) => format!("toHaveText(/^{}$/)", regex_literal(text)),
        Check::UrlEndsWith(fragment) => format!("toHaveURL(/{}$/)", fragment_pattern(fragment)),
        Check::Class(class) => format!("toHaveClass(/(^|\\s){}(\\s|$)/)", regex_literal(class)),
        Check::Attribute { name, value } => {
            format!("toHaveAttribute({}, {})", js_str(name), js_str(value))
        }
    }
}

/// `text` as the body of a JavaScript regular expression literal that matches it alone.
fn regex_literal(text: &str) -> String {
    const SPECIAL: &[char] = &[
        '\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}', '/',
    ];
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if SPECIAL.contains(&c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A URL fragment as a regular expression body: every character but a letter or a digit is
/// escaped, so none of them is read as an operator.
fn fragment_pattern(fragment: &str) -> String {
    fragment
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_string()
            } else {
                format!("\\{c}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each subject and operation is written as the plan readers wrote it before they named
    /// steps instead of writing them.
    #[test]
    fn steps_are_written_as_playwright_statements() {
        let item = Subject::item("Buy milk");
        let cases = [
            (
                ElementStep::claim(Subject::item_checkbox("a'b"), Check::Checked, true),
                "await expect(page.getByRole('listitem').filter({ has: page.getByText('a\\'b', \
                 { exact: true }) }).getByRole('checkbox')).not.toBeChecked();",
            ),
            (
                ElementStep::claim(item, Check::Count(0), false),
                "await expect(page.getByRole('listitem').filter({ has: page.getByText('Buy \
                 milk', { exact: true }) })).toHaveCount(0);",
            ),
            (
                ElementStep::new(Subject::Editor, Op::Press("Enter")),
                "await page.getByRole('listitem').getByRole('textbox').press('Enter');",
            ),
            (
                ElementStep::new(Subject::Page, Op::Reload),
                "await page.reload();",
            ),
            (
                ElementStep::claim(Subject::Page, Check::UrlEndsWith("#/active".into()), false),
                "await expect(page).toHaveURL(/\\#\\/active$/);",
            ),
            (
                ElementStep::claim(
                    Subject::ItemText("a.b".into()),
                    Check::ExactText("a.b".into()),
                    false,
                ),
                "await expect(page.getByRole('listitem').getByText('a.b', { exact: true \
                 })).toHaveText(/^a\\.b$/);",
            ),
            (
                ElementStep::claim(
                    Subject::Checkbox(Box::new(Subject::NthItem {
                        list: Box::new(Subject::Located("page.locator('ul')".into())),
                        at: Position::Last,
                    })),
                    Check::Checked,
                    false,
                ),
                "await expect(page.locator('ul').getByRole('listitem').last().getByRole('checkbox'))\
                 .toBeChecked();",
            ),
            (
                ElementStep::claim(
                    Subject::Role {
                        role: "link".into(),
                        name: "All".into(),
                        in_footer: false,
                    },
                    Check::Class("selected".into()),
                    true,
                ),
                "await expect(page.getByRole('link', { name: 'All', exact: true \
                 })).not.toHaveClass(/(^|\\s)selected(\\s|$)/);",
            ),
            (
                ElementStep::new(Subject::CheckboxLabelled("All".into()), Op::Check),
                "await page.getByRole('checkbox').and(page.getByLabel('All', { exact: true \
                 })).check();",
            ),
        ];
        for (step, code) in cases {
            assert_eq!(element_lines(&step), [code], "{step:?}");
        }
        // "Valid" is two statements: the browser validates the field, and the app does not
        // mark it invalid itself.
        let age = Subject::Located("page.locator('#age')".into());
        assert_eq!(
            element_lines(&ElementStep::new(age, Op::Valid(true))),
            [
                format!(
                    "await expect(page.locator('#age').and(page.locator('{CONSTRAINED}'))\
                     .and(page.locator(':valid'))).toHaveCount(1);"
                ),
                "await expect(page.locator('#age')).not.toHaveAttribute('aria-invalid', 'true');"
                    .to_owned()
            ]
        );
    }
}
