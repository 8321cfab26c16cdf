//! Reading one assertion call of step code (`expect(x).not.toHaveText('a', { timeout })`) from
//! its source alone: its matcher, negation, subject, expected values and options. What surrounds
//! the call (a `try`, a condition, a missing `await`) is the walk's to say (`check_reader.rs`).
//!
//! Main types: [`AssertionCall`], read by [`AssertionCall::read`], and [`Source`], the code's
//! text with the values written in it.

use oxc_ast::ast::{Argument, CallExpression, Expression, ObjectPropertyKind};
use oxc_span::{GetSpan, Span};

use crate::engine::checks::{Assertion, Escapes, Value};
use crate::engine::locator_texts::LocatorTexts;
use crate::engine::subject_origin::{Origin, Origins};

/// Matchers that return a promise (Playwright's web-first assertions and `toPass`): one that is
/// not awaited fails nothing, since nobody observes its rejection.
const ASYNC_MATCHERS: &[&str] = &[
    "toBeAttached",
    "toBeChecked",
    "toBeDisabled",
    "toBeEditable",
    "toBeEmpty",
    "toBeEnabled",
    "toBeFocused",
    "toBeHidden",
    "toBeInViewport",
    "toBeVisible",
    "toContainClass",
    "toContainText",
    "toHaveAccessibleDescription",
    "toHaveAccessibleErrorMessage",
    "toHaveAccessibleName",
    "toHaveAttribute",
    "toHaveClass",
    "toHaveCount",
    "toHaveCSS",
    "toHaveId",
    "toHaveJSProperty",
    "toHaveNoAccessibilityViolations",
    "toHaveRole",
    "toHaveScreenshot",
    "toHaveText",
    "toHaveTitle",
    "toHaveURL",
    "toHaveValue",
    "toHaveValues",
    "toMatchAriaSnapshot",
    "toPass",
];

/// The matchers' modifiers that are not matchers themselves.
const MODIFIERS: &[&str] = &["not", "resolves", "rejects"];

/// Step code's source text, and the values written in it.
pub(super) struct Source<'s> {
    pub code: &'s str,
}

impl<'s> Source<'s> {
    /// The source text of `span`.
    pub(super) fn text(&self, span: Span) -> &'s str {
        &self.code[span.start as usize..span.end as usize]
    }

    /// The source text of `span` without whitespace.
    pub(super) fn compact(&self, span: Span) -> String {
        self.text(span)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join("")
    }

    /// The source text of `span` with its whitespace collapsed.
    pub(super) fn readable(&self, span: Span) -> String {
        self.text(span)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// An expected value as written.
    pub(super) fn value(&self, expression: &Expression<'_>) -> Value {
        match expression.without_parentheses() {
            Expression::StringLiteral(s) => Value::Str(s.value.as_str().to_owned()),
            Expression::TemplateLiteral(t) if t.expressions.is_empty() => Value::Str(
                t.quasis
                    .iter()
                    .map(|q| q.value.cooked.map_or(q.value.raw.as_str(), |c| c.as_str()))
                    .collect(),
            ),
            Expression::NumericLiteral(n) => Value::Number(n.value),
            Expression::UnaryExpression(u)
                if u.operator.as_str() == "-"
                    && matches!(u.argument, Expression::NumericLiteral(_)) =>
            {
                match &u.argument {
                    Expression::NumericLiteral(n) => Value::Number(-n.value),
                    _ => Value::Expression(self.compact(u.span)),
                }
            }
            Expression::RegExpLiteral(r) => Value::Regex {
                pattern: r.regex.pattern.text.as_str().to_owned(),
                flags: r.regex.flags.to_string(),
            },
            Expression::ArrayExpression(a) => Value::List(
                a.elements
                    .iter()
                    .map(|e| match e.as_expression() {
                        Some(e) => self.value(e),
                        None => Value::Expression(self.compact(e.span())),
                    })
                    .collect(),
            ),
            other => Value::Expression(self.compact(other.span())),
        }
    }

    /// `timeout` and the other options of an options object.
    fn options(&self, expression: &Expression<'_>) -> (Option<f64>, Option<String>) {
        let Expression::ObjectExpression(object) = expression.without_parentheses() else {
            return (None, None);
        };
        let mut timeout = None;
        let mut others = Vec::new();
        for property in &object.properties {
            match property {
                ObjectPropertyKind::ObjectProperty(p)
                    if p.key.static_name().as_deref() == Some("timeout") =>
                {
                    timeout = match self.value(&p.value) {
                        Value::Number(n) => Some(n),
                        // A timeout that is not a number literal: unknown, so unlimited.
                        _ => Some(f64::INFINITY),
                    };
                }
                other => others.push(self.compact(other.span())),
            }
        }
        let others = (!others.is_empty()).then(|| format!("{{{}}}", others.join(",")));
        (timeout, others)
    }
}

/// An assertion as its call reads, before the walk says what surrounds it.
pub(super) struct AssertionCall {
    /// The assertion, with only `soft` of its escapes known.
    pub assertion: Assertion,
    /// It returns a promise (a web-first matcher, `toPass`, `expect.poll`, `.resolves`): one
    /// nobody awaits fails nothing.
    pub promised: bool,
}

impl AssertionCall {
    /// The assertion `call` is, if it is a matcher called on `expect(...)`, read from `source`
    /// alone (and `origins`, the code's local names so far): what surrounds it (its escapes but
    /// `soft`) is the reader's to say.
    pub(super) fn read(
        source: &Source<'_>,
        origins: &Origins,
        call: &CallExpression<'_>,
    ) -> Option<AssertionCall> {
        let Expression::StaticMemberExpression(member) = call.callee.without_parentheses() else {
            return None;
        };
        let matcher = member.property.name.as_str();
        if MODIFIERS.contains(&matcher) {
            return None;
        }
        let mut negated = false;
        let mut settled = false;
        let mut object = member.object.without_parentheses();
        while let Expression::StaticMemberExpression(modifier) = object {
            match modifier.property.name.as_str() {
                "not" => negated = !negated,
                "resolves" | "rejects" => settled = true,
                _ => return None,
            }
            object = modifier.object.without_parentheses();
        }
        let Expression::CallExpression(expect_call) = object else {
            return None;
        };
        let (soft, poll) = match expect_call.callee.without_parentheses() {
            Expression::Identifier(id) if id.name.as_str() == "expect" => (false, false),
            Expression::StaticMemberExpression(m)
                if matches!(m.object.without_parentheses(),
                    Expression::Identifier(id) if id.name.as_str() == "expect") =>
            {
                match m.property.name.as_str() {
                    "soft" => (true, false),
                    "poll" => (false, true),
                    _ => return None,
                }
            }
            _ => return None,
        };
        // `expect(subject, { timeout })` / `expect.poll(fn, { timeout })`.
        let (mut timeout, _) = expect_call
            .arguments
            .get(1)
            .and_then(Argument::as_expression)
            .map_or((None, None), |e| source.options(e));
        let mut args: Vec<&Expression<'_>> = call
            .arguments
            .iter()
            .filter_map(Argument::as_expression)
            .collect();
        let mut options = None;
        if let Some(last) = args.last()
            && matches!(last.without_parentheses(), Expression::ObjectExpression(_))
            && takes_options(matcher, args.len())
        {
            let (own_timeout, others) = source.options(last);
            timeout = own_timeout.or(timeout);
            options = others;
            args.pop();
        }
        let subject = expect_call
            .arguments
            .first()
            .and_then(Argument::as_expression)
            .map_or(Value::Expression(String::new()), |e| source.value(e));
        let locator_texts = LocatorTexts::of(
            expect_call
                .arguments
                .first()
                .and_then(Argument::as_expression),
            &|e| source.value(e),
        );
        let subject_origin = expect_call
            .arguments
            .first()
            .and_then(Argument::as_expression)
            .map_or(Origin::Page, |e| origins.of(e));
        let origin = Origin::compared(subject_origin, args.iter().map(|a| origins.of(a)));
        let promised = poll || settled || ASYNC_MATCHERS.contains(&matcher);
        let assertion = Assertion {
            matcher: matcher.to_owned(),
            negated,
            poll,
            expected: args.iter().map(|a| source.value(a)).collect(),
            subject,
            locator_texts,
            timeout,
            options,
            escapes: Escapes {
                soft,
                ..Escapes::default()
            },
            origin,
            text: source.readable(call.span),
        };
        Some(AssertionCall {
            assertion,
            promised,
        })
    }
}

/// Whether a trailing object argument of `matcher` is its options rather than an expected value
/// (`toEqual({ a: 1 })` compares objects; `toHaveText('x', { timeout })` takes options).
fn takes_options(matcher: &str, args: usize) -> bool {
    const VALUE_MATCHERS: &[&str] = &[
        "toBe",
        "toEqual",
        "toStrictEqual",
        "toMatchObject",
        "toContainEqual",
        "toHaveProperty",
    ];
    !VALUE_MATCHERS.contains(&matcher) || args >= 2
}
