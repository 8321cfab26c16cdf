//! How the constant folder of `constant_strings.rs` evaluates calls: the global functions and
//! methods of `js_methods.rs`, `.call` and `.apply` of a global function, `push` onto a constant
//! array, `map` and `reduce` with a one-expression callback, and a function without parameters
//! called where it is written. Any other call is left to run time, and its callee and arguments
//! are walked for the strings they hold.

use oxc_ast::ast::{Argument, BindingPattern, CallExpression, Expression, Statement};
use oxc_ast_visit::walk;

use super::constant_strings::{Appended, Folder};
use super::js_methods::{
    GLOBAL_FUNCTIONS, array_method, global_call, number_method, partial_string_method,
    string_method,
};
use super::js_operators::spreaded;
use super::js_value::{Part, TooLarge, Value};

impl Folder {
    /// The arguments of a call, spread arrays expanded; `None` when a spread is not known.
    pub(super) fn arguments<'a>(&mut self, arguments: &[Argument<'a>]) -> Option<Vec<Value>> {
        let mut values = Vec::with_capacity(arguments.len());
        let mut known = true;
        for argument in arguments {
            match argument {
                Argument::SpreadElement(spread) => {
                    let value = self.eval(&spread.argument);
                    match spreaded(&value) {
                        Some(more) => values.extend(more),
                        None => {
                            self.keep(&value);
                            known = false;
                        }
                    }
                }
                argument => {
                    if let Some(expression) = argument.as_expression() {
                        values.push(self.eval(expression));
                    }
                }
            }
        }
        if known {
            Some(values)
        } else {
            for value in &values {
                self.keep(value);
            }
            None
        }
    }

    /// The name of the global function `callee` refers to, among [`GLOBAL_FUNCTIONS`] and
    /// `String.raw` (`globalThis.`, `window.` or `self.` in front allowed), when the code does
    /// not bind its first name itself.
    pub(super) fn global_name<'a>(&self, callee: &Expression<'a>) -> Option<&'static str> {
        let mut path: Vec<&str> = Vec::new();
        let mut current = callee.without_parentheses();
        loop {
            match current {
                Expression::Identifier(id) => {
                    path.push(id.name.as_str());
                    break;
                }
                _ => {
                    let member = current.as_member_expression()?;
                    path.push(member.static_property_name()?);
                    current = member.object().without_parentheses();
                }
            }
        }
        path.reverse();
        if matches!(path.first(), Some(&("globalThis" | "window" | "self"))) && path.len() > 1 {
            if !self.names.is_global(path[0]) {
                return None;
            }
            path.remove(0);
        }
        if !self.names.is_global(path.first()?) {
            return None;
        }
        let joined = path.join(".");
        GLOBAL_FUNCTIONS
            .iter()
            .chain(&["String.raw"])
            .find(|name| **name == joined)
            .copied()
    }

    pub(super) fn global(&mut self, name: &str, args: Vec<Value>) -> Value {
        match global_call(name, &args) {
            Ok(Some(value)) => {
                if name != "String" {
                    for arg in &args {
                        self.keep(arg);
                    }
                }
                value
            }
            Ok(None) => {
                for arg in &args {
                    self.keep(arg);
                }
                Value::Unknown
            }
            Err(TooLarge) => self.limited(Err(TooLarge)),
        }
    }

    pub(super) fn call<'a>(&mut self, call: &CallExpression<'a>) -> Value {
        let callee = call.callee.without_parentheses();
        if let Some(name) = self.global_name(callee) {
            let Some(args) = self.arguments(&call.arguments) else {
                return Value::Unknown;
            };
            return self.global(name, args);
        }
        if let Some(member) = callee.as_member_expression()
            && let Some(method) = member.static_property_name()
        {
            // `String.fromCharCode.call(null, ...)` and `.apply(null, [...])`.
            if matches!(method, "call" | "apply")
                && let Some(name) = self.global_name(member.object())
            {
                let Some(mut args) = self.arguments(&call.arguments) else {
                    return Value::Unknown;
                };
                if args.is_empty() {
                    return self.global(name, args);
                }
                let this = args.remove(0);
                self.keep(&this);
                let args = if method == "call" {
                    args
                } else {
                    match args.first().map(spreaded) {
                        None => Vec::new(),
                        Some(Some(items)) => items,
                        Some(None) => {
                            self.keep(&args[0]);
                            return Value::Unknown;
                        }
                    }
                };
                return self.global(name, args);
            }
            // `list.push(...)` on a constant array appends to it, as `+=` does to a string.
            if method == "push"
                && let Expression::Identifier(id) = member.object().without_parentheses()
                && self.names.is_constant(id.name.as_str())
            {
                let Some(args) = self.arguments(&call.arguments) else {
                    return Value::Unknown;
                };
                for arg in &args {
                    self.keep(arg);
                }
                self.next_appended
                    .entry(id.name.as_str().to_owned())
                    .or_default()
                    .push(Appended::Push(args));
                return Value::Unknown;
            }
            if matches!(method, "map" | "reduce")
                && let Some(value) = self.callback_call(member.object(), method, call)
            {
                return value;
            }
            let receiver = self.eval(member.object());
            let Some(args) = self.arguments(&call.arguments) else {
                self.keep(&receiver);
                return Value::Unknown;
            };
            return self.method(receiver, method, args);
        }
        if call.arguments.is_empty()
            && let Some(body) = returned_expression(callee)
        {
            return self.eval(body);
        }
        walk::walk_call_expression(self, call);
        Value::Unknown
    }

    fn method(&mut self, receiver: Value, method: &str, args: Vec<Value>) -> Value {
        let result = match &receiver {
            Value::Str(parts) => match receiver.known_str() {
                Some(text) => string_method(text, method, &args),
                None => partial_string_method(parts, method, &args),
            },
            Value::Array(items) => array_method(items, method, &args),
            Value::Num(n) => number_method(*n, method, &args),
            // A value known only at run time that is given more text: `x.concat('Hunt')`.
            Value::Unknown if method == "concat" => {
                partial_string_method(&[Part::Unknown], method, &args)
            }
            _ => Ok(None),
        };
        let concatenates = matches!(method, "concat" | "join" | "toString" | "valueOf");
        match result {
            Ok(Some(value)) => {
                // A join with a separator known only at run time may still put the elements
                // together: the receiver's runs of known elements count too.
                let partial = matches!(&value, Value::Str(parts) if parts.contains(&Part::Unknown));
                if !concatenates || partial {
                    self.keep(&receiver);
                }
                for arg in &args {
                    self.keep(arg);
                }
                value
            }
            Ok(None) => {
                self.keep(&receiver);
                for arg in &args {
                    self.keep(arg);
                }
                Value::Unknown
            }
            Err(TooLarge) => self.limited(Err(TooLarge)),
        }
    }

    /// `array.map(fn)` and `array.reduce(fn[, initial])` on an array known in full, with an
    /// arrow or function expression whose body returns one expression. `None` when the call
    /// is not of that shape (it is then evaluated as any other call).
    fn callback_call<'a>(
        &mut self,
        receiver: &Expression<'a>,
        method: &str,
        call: &CallExpression<'a>,
    ) -> Option<Value> {
        let callback = call
            .arguments
            .first()?
            .as_expression()?
            .without_parentheses();
        let (params, body) = callback_parts(callback)?;
        let Value::Array(items) = self.eval(receiver) else {
            return None;
        };
        let run = |folder: &mut Folder, values: &[Value]| {
            let scope = params
                .iter()
                .zip(
                    values
                        .iter()
                        .cloned()
                        .chain(std::iter::repeat(Value::Undefined)),
                )
                .map(|(name, value)| ((*name).to_owned(), value))
                .collect();
            folder.locals.push(scope);
            let value = folder.eval(body);
            folder.locals.pop();
            value
        };
        let array = Value::Array(items.clone());
        if method == "map" {
            let mut mapped = Vec::with_capacity(items.len());
            for (i, item) in items.into_iter().enumerate() {
                mapped.push(run(self, &[item, Value::Num(i as f64), array.clone()]));
            }
            return Some(Value::Array(mapped));
        }
        let mut rest = items.into_iter().enumerate();
        let mut acc = match call.arguments.get(1) {
            Some(initial) => self.eval(initial.as_expression()?),
            None => rest.next()?.1,
        };
        for (i, item) in rest {
            acc = run(self, &[acc, item, Value::Num(i as f64), array.clone()]);
        }
        Some(acc)
    }
}

/// The parameter names and the returned expression of `(a, b) => expr`,
/// `(a) => { return expr; }` or `function (a) { return expr; }`, whose parameters are plain
/// names.
fn callback_parts<'e, 'a>(
    callback: &'e Expression<'a>,
) -> Option<(Vec<&'e str>, &'e Expression<'a>)> {
    let (params, body) = match callback {
        Expression::ArrowFunctionExpression(arrow) if !arrow.r#async => (
            &arrow.params,
            arrow
                .get_expression()
                .or_else(|| single_return(&arrow.body.as_function_body()?.statements))?,
        ),
        Expression::FunctionExpression(function) if !function.r#async && !function.generator => (
            &function.params,
            single_return(&function.body.as_ref()?.statements)?,
        ),
        _ => return None,
    };
    if params.rest.is_some() {
        return None;
    }
    let names = params
        .items
        .iter()
        .map(|p| match &p.pattern {
            BindingPattern::BindingIdentifier(id) if p.initializer.is_none() => {
                Some(id.name.as_str())
            }
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    Some((names, body))
}

/// The expression an immediately called function without parameters returns.
fn returned_expression<'e, 'a>(callee: &'e Expression<'a>) -> Option<&'e Expression<'a>> {
    let (params, body) = callback_parts(callee)?;
    params.is_empty().then_some(body)
}

fn single_return<'e, 'a>(statements: &'e [Statement<'a>]) -> Option<&'e Expression<'a>> {
    match statements {
        [Statement::ReturnStatement(ret)] => ret.argument.as_ref(),
        _ => None,
    }
}
