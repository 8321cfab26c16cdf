//! The texts an assertion's subject locator matches elements by (`getByText(v)`,
//! `getByRole(r, { name: v })`, `filter({ hasText: v })`, a `text=` selector), for the heal veto:
//! in a presence or state check these texts are what the check reads.
//!
//! Main type: [`LocatorTexts`], a visitor that `check_reader.rs` runs on each subject.

use oxc_ast::ast::{Argument, CallExpression, Expression, ObjectPropertyKind};
use oxc_ast_visit::{Visit, walk};

use crate::engine::checks::{LocatorText, Value};

/// Locator methods whose first argument is a text elements are matched by.
const TEXT_LOCATORS: &[&str] = &[
    "getByText",
    "getByLabel",
    "getByPlaceholder",
    "getByAltText",
    "getByTitle",
];

/// Collects the [`LocatorText`]s of an assertion's subject ([`LocatorTexts::of`]).
pub(crate) struct LocatorTexts<'r> {
    /// Reads a value as written (see `Reader::value` in `check_reader.rs`).
    value: &'r dyn Fn(&Expression<'_>) -> Value,
    found: Vec<LocatorText>,
}

impl LocatorTexts<'_> {
    /// The texts of `subject`, an assertion's subject; `value` reads a value as written.
    pub(crate) fn of(
        subject: Option<&Expression<'_>>,
        value: &dyn Fn(&Expression<'_>) -> Value,
    ) -> Vec<LocatorText> {
        let mut texts = LocatorTexts {
            value,
            found: Vec::new(),
        };
        if let Some(subject) = subject {
            texts.visit_expression(subject);
        }
        texts.found
    }

    fn push(&mut self, method: &str, value: Value, exact: bool) {
        self.found.push(LocatorText {
            method: method.to_owned(),
            value,
            exact,
        });
    }

    /// The text options of an options object (`name`, `hasText`, `hasNotText`), and whether it
    /// sets `exact: true`.
    fn options(&mut self, method: &str, options: &Expression<'_>, keys: &[&str]) {
        let Expression::ObjectExpression(object) = options.without_parentheses() else {
            return;
        };
        let exact = sets_exact(options);
        for property in &object.properties {
            if let ObjectPropertyKind::ObjectProperty(p) = property
                && p.key
                    .static_name()
                    .is_some_and(|key| keys.contains(&key.as_ref()))
            {
                let value = (self.value)(&p.value);
                self.push(method, value, exact);
            }
        }
    }
}

/// Whether an options object sets `exact: true`.
fn sets_exact(options: &Expression<'_>) -> bool {
    let Expression::ObjectExpression(object) = options.without_parentheses() else {
        return false;
    };
    object.properties.iter().any(|p| {
        matches!(p, ObjectPropertyKind::ObjectProperty(p)
            if p.key.static_name().as_deref() == Some("exact")
                && matches!(p.value.without_parentheses(), Expression::BooleanLiteral(b) if b.value))
    })
}

/// Whether a selector string matches by text (`text=...`, `:has-text(...)`, an XPath
/// `contains(...)`) rather than by structure alone.
fn selects_by_text(selector: &str) -> bool {
    let lower = selector.to_ascii_lowercase();
    lower.contains("text")
        || lower.contains("contains(")
        || lower.starts_with("xpath=")
        || lower.starts_with("//")
        || lower.starts_with('"')
        || lower.starts_with('\'')
}

impl<'a> Visit<'a> for LocatorTexts<'_> {
    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        let method = match it.callee.without_parentheses() {
            Expression::StaticMemberExpression(m) => Some(m.property.name.as_str()),
            _ => None,
        };
        let args: Vec<&Expression<'a>> = it
            .arguments
            .iter()
            .filter_map(Argument::as_expression)
            .collect();
        match (method, args.as_slice()) {
            (Some(method), [text, rest @ ..]) if TEXT_LOCATORS.contains(&method) => {
                let value = (self.value)(text);
                let exact = rest.first().is_some_and(|options| sets_exact(options));
                self.push(method, value, exact);
            }
            (Some("getByRole"), [_, options, ..]) => {
                self.options("getByRole", options, &["name"]);
            }
            (Some("filter"), [options, ..]) => {
                self.options("filter", options, &["hasText", "hasNotText"]);
            }
            (Some("locator"), [selector, rest @ ..]) => {
                if let Value::Str(text) = (self.value)(selector)
                    && selects_by_text(&text)
                {
                    self.push("locator", Value::Str(text), false);
                }
                if let Some(options) = rest.first() {
                    self.options("locator", options, &["hasText", "hasNotText"]);
                }
            }
            _ => {}
        }
        walk::walk_call_expression(self, it);
    }
}
