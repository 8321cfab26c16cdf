//! The page scripts step code passes as arguments (`page.evaluate(() => ...)`,
//! `page.evaluate("...")`), read from its source: the text a string argument gives the page, and
//! whether a script written in place only reads (`script/page_reads.rs`).
//!
//! Main functions: [`string_argument`] and [`script_reads`].

use oxc_ast::ast::{Argument, Expression};
use oxc_span::GetSpan;

use crate::script::only_reads;

/// Whether a page script given as `argument` only reads: a function written in place, or a
/// string, whose source [`only_reads`]. A script passed by name is not shown to.
pub(super) fn script_reads(code: &str, argument: &Argument<'_>) -> bool {
    match argument
        .as_expression()
        .map(Expression::without_parentheses)
    {
        Some(Expression::ArrowFunctionExpression(_) | Expression::FunctionExpression(_)) => {
            let span = argument.span();
            only_reads(&code[span.start as usize..span.end as usize])
        }
        _ => string_argument(argument).is_some_and(only_reads),
    }
}

/// The text of a string argument as the page receives it: a string literal, or a template
/// literal with no `${...}`.
pub(super) fn string_argument<'a>(argument: &'a Argument<'_>) -> Option<&'a str> {
    match argument.as_expression()?.without_parentheses() {
        Expression::StringLiteral(s) => Some(s.value.as_str()),
        Expression::TemplateLiteral(t) if t.expressions.is_empty() => t
            .quasis
            .first()
            .map(|q| q.value.cooked.map_or(q.value.raw.as_str(), |c| c.as_str())),
        _ => None,
    }
}
