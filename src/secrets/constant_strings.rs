//! The strings step code builds from constants, found before the code runs: what
//! `'Hunt' + 'er7-s3cret'`, `` `Hunt${'er7'}` ``, `['Hunt', 'er7'].join('')`,
//! `String.fromCharCode(72, 117)`, `'terc3s'.split('').reverse().join('')` or
//! `atob('SHVudGVy')` evaluate to. The cache's secret refusal matches a secret against each of
//! them as it matches it against the code's text, so that a secret cannot be cached by spelling
//! it in pieces.
//!
//! The code is parsed with oxc and every expression is evaluated as far as its value is
//! constant and computed by pure built-ins ([`Value`], `js_methods.rs`): literals, `+` and the
//! other operators, templates, `String.raw`, conditionals, parentheses and commas, array and
//! object literals and their members, a variable declared once and never reassigned (its `+=`
//! and `.push(...)` appended in source order; destructured from an array or object literal
//! too), and an immediately called function without
//! parameters whose body returns one expression. `map` and `reduce` with an arrow function are
//! evaluated with its parameters bound. Anything computed at run time is unknown, and the
//! known parts around it still count: `x + 'Hunt' + 'er7'` holds `Hunter7`.
//!
//! Main entry point: [`constant_strings`]; main type: the private `Folder`.

use std::collections::{HashMap, HashSet};

use oxc_allocator::Allocator;
use oxc_ast::ast::{
    ArrayExpressionElement, AssignmentExpression, AssignmentOperator, BinaryExpression,
    BinaryOperator, BindingPattern, ChainElement, Expression, LogicalExpression, LogicalOperator,
    ObjectPropertyKind, PropertyKey, PropertyKind, SimpleAssignmentTarget, TemplateLiteral,
    UnaryOperator, VariableDeclarator,
};
use oxc_ast_visit::{Visit, walk};
use oxc_parser::Parser;
use oxc_span::SourceType;

use super::js_methods::string_method;
use super::js_names::Names;
use super::js_operators::{binary_op, index, spreaded, unary_op};
use super::js_value::{Part, TooLarge, Value, add, normalized};

/// The deepest nesting of expressions the folder follows.
const MAX_DEPTH: usize = 200;

/// The most expressions the folder evaluates for one piece of code, all rounds together.
const MAX_STEPS: usize = 2_000_000;

/// The most characters of strings the folder keeps for one piece of code.
const MAX_KEPT_CHARS: usize = 16 << 20;

/// How many times the code is walked, at most, to let variables declared after their use get
/// their values.
const MAX_ROUNDS: usize = 16;

/// What [`constant_strings`] found.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Folded {
    /// Every string of at least the asked number of characters the code builds from
    /// constants, each once.
    pub(crate) strings: Vec<String>,
    /// The code builds strings from constants beyond the folder's limits (a string over 1 MiB,
    /// nesting over 200 deep, too many steps): what it builds was not all seen.
    pub(crate) beyond_limits: bool,
}

/// The strings of at least `min_chars` characters that `code` builds from constants (a shorter
/// one cannot hold a secret). Code that does not parse is read as far as oxc recovers it.
pub(crate) fn constant_strings(code: &str, min_chars: usize) -> Folded {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, code, SourceType::script()).parse();
    let mut names = Names::default();
    names.visit_program(&parsed.program);
    let mut folder = Folder {
        names,
        values: HashMap::new(),
        appended: HashMap::new(),
        next_appended: HashMap::new(),
        locals: Vec::new(),
        kept: HashSet::new(),
        kept_chars: 0,
        min_chars,
        depth: 0,
        steps: 0,
        beyond_limits: false,
        changed: false,
    };
    let mut settled = false;
    for _ in 0..MAX_ROUNDS {
        folder.changed = false;
        folder.visit_program(&parsed.program);
        let appended = std::mem::take(&mut folder.next_appended);
        if appended != folder.appended {
            folder.appended = appended;
            folder.changed = true;
        }
        if !folder.changed || folder.beyond_limits {
            settled = true;
            break;
        }
    }
    let mut strings: Vec<String> = folder.kept.into_iter().collect();
    strings.sort();
    Folded {
        strings,
        beyond_limits: folder.beyond_limits || !settled,
    }
}

/// The evaluator, walked over the code once per round.
pub(super) struct Folder {
    pub(super) names: Names,
    /// The declared value of each constant variable, from the rounds so far.
    pub(super) values: HashMap<String, Value>,
    /// What `+=` and `.push(...)` appended to each constant variable in the last round, in
    /// source order.
    pub(super) appended: HashMap<String, Vec<Appended>>,
    /// The same, as this round finds it.
    pub(super) next_appended: HashMap<String, Vec<Appended>>,
    /// The parameters of the functions `map` and `reduce` are evaluating, innermost last.
    pub(super) locals: Vec<HashMap<String, Value>>,
    pub(super) kept: HashSet<String>,
    /// The fewest characters a kept string has.
    pub(super) min_chars: usize,
    pub(super) kept_chars: usize,
    pub(super) depth: usize,
    pub(super) steps: usize,
    pub(super) beyond_limits: bool,
    /// Whether a variable's value changed in this round.
    pub(super) changed: bool,
}

/// One thing appended to a variable.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Appended {
    /// `x += value`.
    Plus(Value),
    /// `x.push(values...)`.
    Push(Vec<Value>),
}

impl<'a> Visit<'a> for Folder {
    fn visit_expression(&mut self, it: &Expression<'a>) {
        let value = self.eval(it);
        self.keep(&value);
    }

    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        let Some(init) = &it.init else {
            walk::walk_variable_declarator(self, it);
            return;
        };
        let value = self.eval(init);
        self.keep(&value);
        self.bind(&it.id, value);
    }

    fn visit_assignment_expression(&mut self, it: &AssignmentExpression<'a>) {
        if it.operator == AssignmentOperator::Addition
            && let Some(SimpleAssignmentTarget::AssignmentTargetIdentifier(id)) =
                it.left.as_simple_assignment_target()
            && self.names.is_constant(id.name.as_str())
        {
            let value = self.eval(&it.right);
            self.keep(&value);
            self.next_appended
                .entry(id.name.as_str().to_owned())
                .or_default()
                .push(Appended::Plus(value));
            return;
        }
        walk::walk_assignment_expression(self, it);
    }
}

impl Folder {
    /// Gives the names `pattern` declares their part of `value`: the whole value, an array's
    /// element (`const [a, b] = [...]`) or an object's property (`const { a } = {...}`).
    /// Defaults, rests and computed keys are left to run time.
    fn bind<'a>(&mut self, pattern: &BindingPattern<'a>, value: Value) {
        match pattern {
            BindingPattern::BindingIdentifier(id) => {
                let name = id.name.as_str();
                if self.names.is_constant(name) && self.values.get(name) != Some(&value) {
                    self.values.insert(name.to_owned(), value);
                    self.changed = true;
                }
            }
            BindingPattern::ArrayPattern(array) => {
                for (i, element) in array.elements.iter().enumerate() {
                    let part = match &value {
                        Value::Array(items) => items.get(i).cloned().unwrap_or(Value::Undefined),
                        _ => Value::Unknown,
                    };
                    if let Some(element) = element {
                        self.bind(element, part);
                    }
                }
            }
            BindingPattern::ObjectPattern(object) => {
                for property in &object.properties {
                    let key = match &property.key {
                        PropertyKey::StaticIdentifier(id) if !property.computed => {
                            Some(id.name.as_str())
                        }
                        PropertyKey::StringLiteral(s) => Some(s.value.as_str()),
                        _ => None,
                    };
                    let part = match (&value, key) {
                        (Value::Object(entries), Some(key)) => entries
                            .iter()
                            .rev()
                            .find(|(k, _)| k == key)
                            .map_or(Value::Undefined, |(_, v)| v.clone()),
                        _ => Value::Unknown,
                    };
                    self.bind(&property.value, part);
                }
            }
            BindingPattern::AssignmentPattern(assignment) => {
                let fallback = self.eval(&assignment.right);
                self.keep(&fallback);
                self.bind(&assignment.left, Value::Unknown);
            }
        }
    }

    /// Records the strings `value` holds, or notes a value beyond the limits.
    pub(super) fn keep(&mut self, value: &Value) {
        match value {
            Value::Str(parts) => {
                for part in parts {
                    if let Part::Known(text) = part {
                        self.keep_text(text);
                    }
                }
            }
            Value::Array(items) => {
                // Elements that a join at run time may put together.
                let mut run = String::new();
                for item in items {
                    match item.known_str() {
                        Some(text) => run.push_str(text),
                        None => {
                            let run = std::mem::take(&mut run);
                            self.keep_text(&run);
                        }
                    }
                    self.keep(item);
                }
                self.keep_text(&run);
            }
            Value::Object(entries) => {
                for (_, item) in entries {
                    self.keep(item);
                }
            }
            _ => {}
        }
    }

    pub(super) fn keep_text(&mut self, text: &str) {
        if text.chars().count() < self.min_chars || self.kept.contains(text) {
            return;
        }
        self.kept_chars += text.len();
        if self.kept_chars > MAX_KEPT_CHARS {
            self.beyond_limits = true;
            return;
        }
        self.kept.insert(text.to_owned());
    }

    /// The result of an operation, or unknown (and noted) when it is too large.
    pub(super) fn limited(&mut self, result: Result<Value, TooLarge>) -> Value {
        result.unwrap_or_else(|TooLarge| {
            self.beyond_limits = true;
            Value::Unknown
        })
    }

    pub(super) fn eval<'a>(&mut self, expr: &Expression<'a>) -> Value {
        self.steps += 1;
        if self.beyond_limits || self.depth >= MAX_DEPTH || self.steps > MAX_STEPS {
            self.beyond_limits = true;
            return Value::Unknown;
        }
        self.depth += 1;
        let value = self.eval_inner(expr);
        self.depth -= 1;
        value
    }

    fn eval_inner<'a>(&mut self, expr: &Expression<'a>) -> Value {
        match expr {
            Expression::StringLiteral(s) => Value::str(s.value.as_str()),
            Expression::NumericLiteral(n) => Value::Num(n.value),
            Expression::BooleanLiteral(b) => Value::Bool(b.value),
            Expression::NullLiteral(_) => Value::Null,
            Expression::TemplateLiteral(t) => self.template(t, false),
            Expression::ParenthesizedExpression(p) => self.eval(&p.expression),
            Expression::SequenceExpression(s) => {
                let mut last = Value::Undefined;
                for item in &s.expressions {
                    let value = self.eval(item);
                    self.keep(&std::mem::replace(&mut last, value));
                }
                last
            }
            Expression::Identifier(id) => self.variable(id.name.as_str()),
            Expression::ArrayExpression(array) => self.array(&array.elements),
            Expression::ObjectExpression(object) => self.object(expr, &object.properties),
            Expression::BinaryExpression(binary) => self.binary(binary),
            Expression::LogicalExpression(logical) => self.logical(logical),
            Expression::ConditionalExpression(c) => {
                let test = self.eval(&c.test);
                self.keep(&test);
                let (yes, no) = (self.eval(&c.consequent), self.eval(&c.alternate));
                match test.truthy() {
                    Some(true) => {
                        self.keep(&no);
                        yes
                    }
                    Some(false) => {
                        self.keep(&yes);
                        no
                    }
                    None => {
                        self.keep(&yes);
                        self.keep(&no);
                        Value::Unknown
                    }
                }
            }
            Expression::UnaryExpression(unary) => {
                if unary.operator == UnaryOperator::Delete {
                    walk::walk_expression(self, expr);
                    return Value::Unknown;
                }
                let value = self.eval(&unary.argument);
                let result = unary_op(unary.operator, &value);
                if matches!(result, Value::Unknown | Value::Num(_) | Value::Bool(_))
                    || unary.operator == UnaryOperator::Void
                {
                    self.keep(&value);
                }
                result
            }
            Expression::StaticMemberExpression(member) => {
                let object = self.eval(&member.object);
                self.member(object, &Value::str(member.property.name.as_str()))
            }
            Expression::ComputedMemberExpression(member) => {
                let object = self.eval(&member.object);
                let key = self.eval(&member.expression);
                self.member(object, &key)
            }
            Expression::ChainExpression(chain) => match &chain.expression {
                ChainElement::CallExpression(call) => self.call(call),
                ChainElement::StaticMemberExpression(member) => {
                    let object = self.eval(&member.object);
                    self.member(object, &Value::str(member.property.name.as_str()))
                }
                ChainElement::ComputedMemberExpression(member) => {
                    let object = self.eval(&member.object);
                    let key = self.eval(&member.expression);
                    self.member(object, &key)
                }
                _ => {
                    walk::walk_expression(self, expr);
                    Value::Unknown
                }
            },
            Expression::CallExpression(call) => self.call(call),
            Expression::NewExpression(new) => match self.global_name(&new.callee) {
                Some(name @ ("String" | "Array")) => {
                    let Some(args) = self.arguments(&new.arguments) else {
                        return Value::Unknown;
                    };
                    self.global(name, args)
                }
                _ => {
                    walk::walk_expression(self, expr);
                    Value::Unknown
                }
            },
            Expression::TaggedTemplateExpression(tagged)
                if self.global_name(&tagged.tag) == Some("String.raw") =>
            {
                self.template(&tagged.quasi, true)
            }
            _ => {
                walk::walk_expression(self, expr);
                Value::Unknown
            }
        }
    }

    /// A template literal's value, cooked or (for `String.raw`) raw.
    fn template<'a>(&mut self, template: &TemplateLiteral<'a>, raw: bool) -> Value {
        let mut parts = Vec::new();
        for (i, quasi) in template.quasis.iter().enumerate() {
            let text = if raw {
                Some(quasi.value.raw.as_str())
            } else {
                quasi.value.cooked.as_ref().map(|c| c.as_str())
            };
            parts.push(text.map_or(Part::Unknown, |t| Part::Known(t.to_owned())));
            if let Some(expression) = template.expressions.get(i) {
                let value = self.eval(expression);
                match value.to_parts() {
                    Ok(more) => parts.extend(more),
                    Err(TooLarge) => return self.limited(Err(TooLarge)),
                }
            }
        }
        let parts = normalized(parts).map(Value::Str);
        self.limited(parts)
    }

    /// A variable: a parameter being evaluated, a constant's declared value with what was
    /// appended to it, or one of the globals `undefined`, `NaN` and `Infinity`.
    fn variable(&mut self, name: &str) -> Value {
        if let Some(value) = self.locals.iter().rev().find_map(|scope| scope.get(name)) {
            return value.clone();
        }
        if self.names.is_global(name) {
            return match name {
                "undefined" => Value::Undefined,
                "NaN" => Value::Num(f64::NAN),
                "Infinity" => Value::Num(f64::INFINITY),
                _ => Value::Unknown,
            };
        }
        if !self.names.is_constant(name) {
            return Value::Unknown;
        }
        let Some(mut value) = self.values.get(name).cloned() else {
            return Value::Unknown;
        };
        for appended in self.appended.get(name).cloned().unwrap_or_default() {
            value = match (appended, value) {
                (Appended::Plus(more), value) => {
                    let sum = add(value, more);
                    self.limited(sum)
                }
                (Appended::Push(more), Value::Array(mut items)) => {
                    items.extend(more);
                    Value::Array(items)
                }
                (Appended::Push(_), _) => Value::Unknown,
            };
        }
        value
    }

    fn array<'a>(&mut self, elements: &[ArrayExpressionElement<'a>]) -> Value {
        let mut items = Vec::with_capacity(elements.len());
        let mut known = true;
        for element in elements {
            match element {
                ArrayExpressionElement::Elision(_) => items.push(Value::Undefined),
                ArrayExpressionElement::SpreadElement(spread) => {
                    let value = self.eval(&spread.argument);
                    match spreaded(&value) {
                        Some(more) => items.extend(more),
                        None => {
                            self.keep(&value);
                            known = false;
                        }
                    }
                }
                element => {
                    if let Some(expression) = element.as_expression() {
                        items.push(self.eval(expression));
                    }
                }
            }
        }
        if known {
            Value::Array(items)
        } else {
            self.keep(&Value::Array(items));
            Value::Unknown
        }
    }

    fn object<'a>(
        &mut self,
        expr: &Expression<'a>,
        properties: &[ObjectPropertyKind<'a>],
    ) -> Value {
        let mut entries = Vec::with_capacity(properties.len());
        for property in properties {
            let ObjectPropertyKind::ObjectProperty(property) = property else {
                walk::walk_expression(self, expr);
                return Value::Unknown;
            };
            let key = match &property.key {
                PropertyKey::StaticIdentifier(id) => Some(id.name.as_str().to_owned()),
                PropertyKey::PrivateIdentifier(_) => None,
                key => key.as_expression().and_then(|k| {
                    let key = self.eval(k);
                    key.known_str().map(str::to_owned).or_else(|| {
                        matches!(key, Value::Num(_))
                            .then(|| key.to_parts().ok())
                            .flatten()
                            .and_then(|parts| match parts.as_slice() {
                                [Part::Known(text)] => Some(text.clone()),
                                _ => None,
                            })
                    })
                }),
            };
            let plain = property.kind == PropertyKind::Init && !property.method;
            match (key, plain) {
                (Some(key), true) => {
                    let value = self.eval(&property.value);
                    entries.push((key, value));
                }
                _ => {
                    walk::walk_expression(self, expr);
                    return Value::Unknown;
                }
            }
        }
        Value::Object(entries)
    }

    /// `a + b + c ...` is folded left to right without recursing down the chain, so that a long
    /// chain is no deeper than one `+`; other operators on numbers and strings are folded where
    /// both sides are known.
    fn binary<'a>(&mut self, binary: &BinaryExpression<'a>) -> Value {
        if binary.operator == BinaryOperator::Addition {
            let mut operands = vec![&binary.right];
            let mut left = &binary.left;
            while let Expression::BinaryExpression(inner) = left
                && inner.operator == BinaryOperator::Addition
            {
                operands.push(&inner.right);
                left = &inner.left;
            }
            operands.push(left);
            let mut acc: Option<Value> = None;
            for operand in operands.into_iter().rev() {
                let value = self.eval(operand);
                acc = Some(match acc {
                    None => value,
                    Some(acc) => {
                        let keep_left = !matches!(acc, Value::Str(_));
                        if keep_left {
                            self.keep(&acc);
                        }
                        let sum = add(acc, value);
                        self.limited(sum)
                    }
                });
            }
            return acc.unwrap_or(Value::Unknown);
        }
        let left = self.eval(&binary.left);
        let right = self.eval(&binary.right);
        let result = binary_op(binary.operator, &left, &right);
        self.keep(&left);
        self.keep(&right);
        result
    }

    fn logical<'a>(&mut self, logical: &LogicalExpression<'a>) -> Value {
        let left = self.eval(&logical.left);
        let right = self.eval(&logical.right);
        let left_wins = match logical.operator {
            LogicalOperator::Or => left.truthy(),
            LogicalOperator::And => left.truthy().map(|t| !t),
            LogicalOperator::Coalesce => match left {
                Value::Unknown => None,
                Value::Null | Value::Undefined => Some(false),
                _ => Some(true),
            },
        };
        match left_wins {
            Some(true) => {
                self.keep(&right);
                left
            }
            Some(false) => {
                self.keep(&left);
                right
            }
            None => {
                self.keep(&left);
                self.keep(&right);
                Value::Unknown
            }
        }
    }

    fn member(&mut self, object: Value, key: &Value) -> Value {
        let result = match (&object, key.known_str()) {
            (Value::Str(_), Some("length")) => object.known_str().map_or(Value::Unknown, |s| {
                Value::Num(s.encode_utf16().count() as f64)
            }),
            (Value::Array(items), Some("length")) => Value::Num(items.len() as f64),
            (Value::Object(entries), Some(name)) => entries
                .iter()
                .rev()
                .find(|(k, _)| k == name)
                .map_or(Value::Undefined, |(_, v)| v.clone()),
            (Value::Array(items), _) => match index(key) {
                Some(i) => items.get(i).cloned().unwrap_or(Value::Undefined),
                None => Value::Unknown,
            },
            (Value::Str(_), _) => match (object.known_str(), index(key)) {
                (Some(text), Some(i)) => string_method(text, "charAt", &[Value::Num(i as f64)])
                    .ok()
                    .flatten()
                    .unwrap_or(Value::Unknown),
                _ => Value::Unknown,
            },
            _ => Value::Unknown,
        };
        self.keep(&object);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "Hunter7-s3cret";

    /// `String.fromCharCode` arguments spelling the secret.
    fn codes() -> String {
        SECRET
            .chars()
            .map(|c| (c as u32).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn folds_to_secret(code: &str) -> bool {
        let folded = constant_strings(code, 4);
        assert!(!folded.beyond_limits, "{code}");
        folded.strings.iter().any(|s| s.contains(SECRET))
    }

    #[test]
    fn concatenations_templates_and_joins_of_constants_are_folded() {
        let codes = codes();
        let reversed: String = SECRET.chars().rev().collect();
        for code in [
            "await page.fill('#p', 'Hunt' + 'er7-s3cret');".to_owned(),
            "await page.fill('#p', x + 'Hunt' + 'er7-s3cret');".to_owned(),
            "f('Hun' + ('t' + ('er7' + '-s3cret')))".to_owned(),
            "f(`Hunt${'er7'}-s3cret`)".to_owned(),
            "f(`Hunt\\x65r7${'-'}s3cr\\u{65}t`)".to_owned(),
            "f(['Hunt', 'er7-s3cret'].join(''))".to_owned(),
            "f(['Hunter7', 's3cret'].join('-'))".to_owned(),
            "f('Hunt'.concat('er7', '-s3cret'))".to_owned(),
            "f(''.concat(...['Hunt', 'er7-s3cret']))".to_owned(),
            format!("f(String.fromCharCode({codes}))"),
            format!("f(String.fromCharCode(...[{codes}]))"),
            format!("f(String.fromCharCode.apply(null, [{codes}]))"),
            format!("f(globalThis.String['fromCodePoint']({codes}))"),
            format!("f([{codes}].map(c => String.fromCharCode(c)).join(''))"),
            format!("f('{reversed}'.split('').reverse().join(''))"),
            "f(atob('SHVudGVyNy1zM2NyZXQ='))".to_owned(),
            "f('Hunter' + 7 + '-s3cret')".to_owned(),
            "f('Hunter' + (3 + 4) + '-s3cret')".to_owned(),
            "f('Hunt' + (19123).toString(36) + '-s3cret')".to_owned(),
            "f(['H', 'u', 'n', 't'].reduce((a, b) => a + b) + 'er7-s3cret')".to_owned(),
            "f(true ? 'Hunt' + 'er7-s3cret' : '')".to_owned(),
            "f((0, 'Hunt') + 'er7-s3cret')".to_owned(),
            "f((() => 'Hunt')() + 'er7-s3cret')".to_owned(),
            "f(({ a: 'Hunt' }).a + { b: 'er7-s3cret' }['b'])".to_owned(),
            "f('xHunter7-s3cretx'.slice(1, -1))".to_owned(),
            "f('HUNTER7-S3CRET'.toLowerCase().replace('h', 'H'))".to_owned(),
            "f(JSON.parse('[\"Hunt\",\"er7-s3cret\"]').join(''))".to_owned(),
            "const a = 'Hunt'; const b = a + 'er7'; f(b + '-s3cret');".to_owned(),
            "async function step(page) { await page.fill('#p', c); }\n\
             const c = b + '-s3cret'; const b = a + 'er7'; const a = 'Hunt';"
                .to_owned(),
            "let s = 'Hunt'; s += 'er7'; s += '-s3cret'; f(s);".to_owned(),
            "const [a, , b] = ['Hunt', 0, 'er7-s3cret']; f(a + b);".to_owned(),
            "const { a, 'b': c } = { a: 'Hunt', b: 'er7-s3cret' }; f(a + c);".to_owned(),
            "f(Object.values({ a: 'Hunt', b: 'er7-s3cret' }).join(''))".to_owned(),
            "const p = []; p.push('Hunt'); p.push('er7-s3cret'); f(p.join(''));".to_owned(),
            "f(['Hunt', 'er7-s3cret'].join(separator))".to_owned(),
        ] {
            assert!(folds_to_secret(&code), "not folded: {code}");
        }
    }

    #[test]
    fn values_known_only_at_run_time_are_not_folded() {
        for code in [
            "f(vars.A + vars.B)",
            "let a = 'Hunt'; a = vars.A; f(a + 'er7-s3cret'.slice(1))",
            "f('Hunt' + x + 'er7-s3cret'.slice(1))",
            "f(x.map(c => String.fromCharCode(c)).join(''))",
        ] {
            assert!(!folds_to_secret(code), "folded: {code}");
        }
        // The parts around a value known at run time are still seen.
        let folded = constant_strings("f('Hunt' + x + 'er7-s3cret')", 4);
        assert!(
            folded.strings.contains(&"er7-s3cret".to_owned()),
            "{folded:?}"
        );
    }

    #[test]
    fn a_name_the_code_binds_is_not_taken_for_a_global() {
        let codes = codes();
        let code = format!(
            "const String = {{ fromCharCode: () => 'x' }}; f(String.fromCharCode({codes}))"
        );
        assert!(!folds_to_secret(&code));
    }

    #[test]
    fn strings_past_the_limits_are_reported_as_unchecked() {
        assert!(constant_strings("f('x'.repeat(1e7))", 4).beyond_limits);
        assert!(
            constant_strings(
                "const a = 'xxxxxxxx'.repeat(100000); const b = a + a + a; f(b + b)",
                4
            )
            .beyond_limits
        );
        let deep = format!("f({}'a'{})", "(".repeat(300), ")".repeat(300));
        assert!(constant_strings(&deep, 4).beyond_limits);
        // A long chain of `+` is folded without nesting.
        let chain = vec!["'ab'"; 5000].join(" + ");
        let folded = constant_strings(&format!("f({chain})"), 4);
        assert!(!folded.beyond_limits);
        assert_eq!(folded.strings.len(), 1);
        assert_eq!(folded.strings[0].len(), 10000);
    }

    #[test]
    fn code_that_does_not_parse_is_read_as_far_as_it_goes() {
        let folded = constant_strings("f('Hunt' + 'er7-s3cret'); }}}", 4);
        assert!(!folded.beyond_limits);
    }
}
