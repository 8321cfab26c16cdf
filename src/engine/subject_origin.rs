//! Where the value an assertion checks comes from: read from the page, written by the code
//! itself (`String('1 item left')`, a template of constants, `['a'].join()`), or read and then
//! changed by the code before it is compared with a literal (`text.replace('items', 'item')`,
//! a template built around `text.slice(0, 1)`). Only the first is a check: the others compute
//! their answer, so they pass whatever the page shows.
//!
//! Main type: [`Origin`]; [`Origins`] follows the step code's local names as the check reader
//! walks it, so that `const count = 1; expect(`${count} item left`)` is known to be written.

use std::collections::HashMap;

use oxc_ast::ast::{
    Argument, ArrayExpressionElement, BindingPattern, Expression, ObjectPropertyKind,
};

/// String methods that change the text they are called on in more than its whitespace: a read
/// passed through one of them and compared with a literal no longer says what the page shows.
/// `trim` is not among them, because whitespace around a text is not what a sentence claims.
const TRANSFORMS: &[&str] = &[
    "replace",
    "replaceAll",
    "slice",
    "substring",
    "substr",
    "toLowerCase",
    "toUpperCase",
    "toLocaleLowerCase",
    "toLocaleUpperCase",
    "padStart",
    "padEnd",
    "concat",
    "repeat",
    "charAt",
    "at",
    "match",
];

/// Global functions that compute a value from their arguments alone: given only written
/// values, they answer a written value.
const PURE_GLOBALS: &[&str] = &[
    "String",
    "Number",
    "Boolean",
    "BigInt",
    "parseInt",
    "parseFloat",
    "JSON",
    "Math",
    "Array",
    "Object",
    "RegExp",
];

/// Where a value comes from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) enum Origin {
    /// Something the code cannot know without the page (or that this reader cannot follow):
    /// a read, a parameter, a global.
    #[default]
    Page,
    /// Only values written in the code: literals, and what is computed from them alone.
    Written,
    /// A read changed by the code: by the method named (`replace`), or written text put around
    /// it (`a template`, `a concatenation`).
    Transformed(String),
}

impl Origin {
    /// The origin of a value computed from parts of these origins: any transformed part makes
    /// it transformed, any read part read, else it is written.
    fn join(parts: impl IntoIterator<Item = Origin>) -> Origin {
        let mut joined = Origin::Written;
        for part in parts {
            match (&joined, part) {
                (Origin::Transformed(_), _) => {}
                (_, transformed @ Origin::Transformed(_)) => joined = transformed,
                (_, Origin::Page) => joined = Origin::Page,
                (_, Origin::Written) => {}
            }
        }
        joined
    }

    /// The origin of an assertion that compares `subject` with `expected`: written when both
    /// sides are, transformed when one side is a transformed read and the other written (a
    /// literal), else the page's (whichever side reads the page, the comparison checks it).
    pub(crate) fn compared(subject: Origin, expected: impl IntoIterator<Item = Origin>) -> Origin {
        match (subject, Origin::join(expected)) {
            (Origin::Written, Origin::Written) => Origin::Written,
            (transformed @ Origin::Transformed(_), Origin::Written)
            | (Origin::Written, transformed @ Origin::Transformed(_)) => transformed,
            _ => Origin::Page,
        }
    }

    fn is_read(&self) -> bool {
        !matches!(self, Origin::Written)
    }
}

/// The origins of the step code's local names, as far as the walk has read them.
#[derive(Debug, Default)]
pub(super) struct Origins {
    names: HashMap<String, Origin>,
}

impl Origins {
    /// Records a declaration: every name `pattern` binds takes the origin of `init` (a
    /// declaration with no value is written: `let n;`).
    pub(super) fn declare(&mut self, pattern: &BindingPattern<'_>, init: Option<&Expression<'_>>) {
        let origin = init.map_or(Origin::Written, |init| self.of(init));
        for id in pattern.get_binding_identifiers() {
            self.names
                .insert(id.name.as_str().to_owned(), origin.clone());
        }
    }

    /// Records `name = value`. Where the assignment may not run (`guarded`: a condition, a
    /// loop, a callback), which value the name holds depends on what decided it, so it is
    /// treated as read; `compound` assignments (`+=`) keep what the name held too.
    pub(super) fn assign(
        &mut self,
        name: &str,
        value: &Expression<'_>,
        guarded: bool,
        compound: bool,
    ) {
        let value = self.of(value);
        let held = self.names.get(name).cloned().unwrap_or_default();
        let origin = match (guarded, compound) {
            (true, _) => Origin::join([held, value, Origin::Page]),
            (false, true) => Origin::join([held, value]),
            (false, false) => value,
        };
        self.names.insert(name.to_owned(), origin);
    }

    /// A parameter (of the step or of a callback) holds what its caller passes: a read.
    pub(super) fn parameter(&mut self, pattern: &BindingPattern<'_>) {
        for id in pattern.get_binding_identifiers() {
            self.names.insert(id.name.as_str().to_owned(), Origin::Page);
        }
    }

    /// The origin of `expression`'s value.
    pub(super) fn of(&self, expression: &Expression<'_>) -> Origin {
        match expression.without_parentheses() {
            Expression::BooleanLiteral(_)
            | Expression::NullLiteral(_)
            | Expression::NumericLiteral(_)
            | Expression::BigIntLiteral(_)
            | Expression::RegExpLiteral(_)
            | Expression::StringLiteral(_) => Origin::Written,
            Expression::TemplateLiteral(template) => {
                let parts = Origin::join(template.expressions.iter().map(|e| self.of(e)));
                let has_text = template.quasis.iter().any(|quasi| {
                    let text = quasi
                        .value
                        .cooked
                        .map_or(quasi.value.raw.as_str(), |c| c.as_str());
                    !text.trim().is_empty()
                });
                around(parts, has_text, "a template")
            }
            Expression::Identifier(id) => match id.name.as_str() {
                "undefined" | "NaN" | "Infinity" => Origin::Written,
                name => self.names.get(name).cloned().unwrap_or_default(),
            },
            Expression::ArrayExpression(array) => {
                Origin::join(array.elements.iter().map(|element| match element {
                    ArrayExpressionElement::SpreadElement(spread) => self.of(&spread.argument),
                    ArrayExpressionElement::Elision(_) => Origin::Written,
                    other => other.as_expression().map_or(Origin::Page, |e| self.of(e)),
                }))
            }
            Expression::ObjectExpression(object) => {
                Origin::join(object.properties.iter().map(|property| match property {
                    ObjectPropertyKind::ObjectProperty(p) if !p.computed => self.of(&p.value),
                    _ => Origin::Page,
                }))
            }
            Expression::AwaitExpression(awaited) => self.of(&awaited.argument),
            Expression::UnaryExpression(unary) => self.of(&unary.argument),
            Expression::BinaryExpression(binary) => {
                let (left, right) = (self.of(&binary.left), self.of(&binary.right));
                let text_added = binary.operator.as_str() == "+"
                    && [&binary.left, &binary.right].into_iter().any(|side| {
                        matches!(side.without_parentheses(),
                            Expression::StringLiteral(s) if !s.value.as_str().trim().is_empty())
                    });
                around(Origin::join([left, right]), text_added, "a concatenation")
            }
            Expression::LogicalExpression(logical) => {
                Origin::join([self.of(&logical.left), self.of(&logical.right)])
            }
            Expression::ConditionalExpression(conditional) => Origin::join([
                self.of(&conditional.test),
                self.of(&conditional.consequent),
                self.of(&conditional.alternate),
            ]),
            Expression::SequenceExpression(sequence) => sequence
                .expressions
                .last()
                .map_or(Origin::Written, |last| self.of(last)),
            Expression::StaticMemberExpression(member) => self.of(&member.object),
            Expression::ComputedMemberExpression(member) => {
                Origin::join([self.of(&member.object), self.of(&member.expression)])
            }
            Expression::CallExpression(call) => self.call(&call.callee, &call.arguments),
            Expression::NewExpression(new) => self.call(&new.callee, &new.arguments),
            Expression::ChainExpression(chain) => match chain.expression.as_member_expression() {
                Some(member) => self.of(member.object()),
                None => Origin::Page,
            },
            _ => Origin::Page,
        }
    }

    /// The origin of a call's value: a pure global or a method of a written value, given only
    /// written values, is written; a transforming method of a read transforms it; any other
    /// method of a read reads (`page.getByText(...)`, `text.trim()`).
    fn call(&self, callee: &Expression<'_>, arguments: &[Argument<'_>]) -> Origin {
        let args = Origin::join(arguments.iter().map(|argument| match argument {
            Argument::SpreadElement(spread) => self.of(&spread.argument),
            other => other.as_expression().map_or(Origin::Page, |e| self.of(e)),
        }));
        match callee.without_parentheses() {
            Expression::Identifier(id) => {
                let name = id.name.as_str();
                let pure = PURE_GLOBALS.contains(&name) && !self.names.contains_key(name);
                if pure { args } else { Origin::Page }
            }
            Expression::StaticMemberExpression(member) => {
                let object = match member.object.without_parentheses() {
                    Expression::Identifier(id)
                        if PURE_GLOBALS.contains(&id.name.as_str())
                            && !self.names.contains_key(id.name.as_str()) =>
                    {
                        Origin::Written
                    }
                    other => self.of(other),
                };
                let method = member.property.name.as_str();
                if object.is_read() && TRANSFORMS.contains(&method) {
                    return Origin::Transformed(format!("`.{method}`"));
                }
                Origin::join([object, args])
            }
            other => Origin::join([self.of(other), args, Origin::Page]),
        }
    }
}

/// The origin of a value made of `parts` with written text put around them (`text_added`): a
/// read with text of the code's around it is transformed (`how`).
fn around(parts: Origin, text_added: bool, how: &str) -> Origin {
    match parts {
        Origin::Page if text_added => Origin::Transformed(how.to_owned()),
        other => other,
    }
}
