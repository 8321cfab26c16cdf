//! Optional chains: which part of `a?.b.c(d)` always runs. A nullish value before a `?.` skips
//! the rest of the chain, arguments included, so an assertion there may never run.
//!
//! Main function: [`chain_head`].

use oxc_ast::ast::{ChainElement, ChainExpression, Expression};
use oxc_span::{GetSpan, Span};

/// The part of an optional chain that runs before its first `?.` (`a` in `a?.b.c(d)`): a
/// nullish value there skips everything else in the chain, arguments included.
pub(crate) fn chain_head(chain: &ChainExpression<'_>) -> Span {
    let mut head = chain.span;
    let mut next = match &chain.expression {
        ChainElement::CallExpression(call) => {
            if call.optional {
                head = call.callee.span();
            }
            &call.callee
        }
        ChainElement::TSNonNullExpression(non_null) => &non_null.expression,
        element => match element.as_member_expression() {
            Some(member) => {
                if member.optional() {
                    head = member.object().span();
                }
                member.object()
            }
            None => return head,
        },
    };
    // Links are nested from the last to the first, so the innermost optional one wins.
    loop {
        next = match next {
            Expression::CallExpression(call) => {
                if call.optional {
                    head = call.callee.span();
                }
                &call.callee
            }
            Expression::TSNonNullExpression(non_null) => &non_null.expression,
            other => match other.as_member_expression() {
                Some(member) => {
                    if member.optional() {
                        head = member.object().span();
                    }
                    member.object()
                }
                None => return head,
            },
        };
    }
}
