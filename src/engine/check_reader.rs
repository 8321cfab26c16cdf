//! Reading [`Checks`] out of step code: the oxc parser and an AST walk that tracks what surrounds
//! each node (conditions, callbacks, `try`, `await`).
//!
//! Main function: [`Checks::of`]; the walk is [`Reader`].

use std::collections::HashSet;

use oxc_allocator::Allocator;
use oxc_ast::ast::{
    Argument, ArrowFunctionExpression, AssignmentExpression, AssignmentPattern, AwaitExpression,
    BindingIdentifier, CallExpression, CatchClause, ChainExpression, Class, ConditionalExpression,
    DoWhileStatement, Expression, ForInStatement, ForOfStatement, ForStatement, FormalParameter,
    Function, IdentifierReference, IfStatement, LabeledStatement, LogicalExpression, Program,
    ReturnStatement, SimpleAssignmentTarget, StringLiteral, SwitchCase, TemplateLiteral,
    ThrowStatement, TryStatement, UnaryExpression, UpdateExpression, VariableDeclarator,
    WhileStatement, WithStatement,
};
use oxc_ast_visit::{Visit, walk};
use oxc_parser::Parser;
use oxc_span::{GetSpan, SourceType, Span};
use oxc_syntax::scope::ScopeFlags;

use crate::engine::assertion_call::{AssertionCall, Source};
use crate::engine::checks::{Assertion, Checks, Value};
use crate::engine::optional_chain::chain_head;
use crate::engine::script_argument::{script_reads, string_argument};
use crate::engine::subject_origin::Origins;
use crate::script::{changes_the_page, waits_for_the_page};

/// Calls that run JavaScript in the page (or replace it): they could change what a check sees.
const PAGE_SCRIPTS: &[&str] = &[
    "waitForFunction",
    "evaluate",
    "evaluateAll",
    "evaluateHandle",
    "$eval",
    "$$eval",
    "setContent",
    "addScriptTag",
    "addStyleTag",
    "addInitScript",
];

/// DOM methods that change the document, the history or the storage when a page script calls
/// them (`el.remove()`, `history.pushState(...)`): a page script that calls one writes.
const DOM_WRITES: &[&str] = &[
    "remove",
    "append",
    "appendChild",
    "prepend",
    "insertBefore",
    "replaceWith",
    "replaceChildren",
    "removeChild",
    "setAttribute",
    "removeAttribute",
    "toggleAttribute",
    "insertAdjacentHTML",
    "insertAdjacentText",
    "insertAdjacentElement",
    "submit",
    "requestSubmit",
    "reset",
    "pushState",
    "replaceState",
    "setItem",
    "removeItem",
    "add",
    "toggle",
    "write",
];

/// Globals whose properties step code has no business replacing: patching them (or a
/// prototype) can make any assertion pass.
const PATCHABLE_ROOTS: &[&str] = &[
    "expect",
    "page",
    "globalThis",
    "Object",
    "Function",
    "Promise",
    "Array",
    "String",
    "Reflect",
];

/// Why step code could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum CheckReadError {
    /// The parser's first diagnostic.
    #[error("the code could not be parsed: {0}")]
    Unparsable(String),
}

impl Checks {
    /// Parses `code`; an error names what the parser could not read.
    pub(crate) fn of(code: &str) -> Result<Self, CheckReadError> {
        let allocator = Allocator::default();
        let parsed = Parser::new(&allocator, code, SourceType::script()).parse();
        if parsed.panicked || parsed.diagnostics.has_errors() {
            let first = parsed
                .diagnostics
                .iter()
                .next()
                .map_or_else(|| "unreadable".to_owned(), ToString::to_string);
            return Err(CheckReadError::Unparsable(first));
        }
        let mut reader = Reader::new(code);
        reader.read(&parsed.program);
        if reader.steps_defined > 1 {
            reader.checks.redefines_step = true;
        }
        // The walk meets `a.b().c()` from the outside in; the code reads it from the left.
        reader.calls.sort_by_key(|(at, _)| *at);
        let last_check = reader.check_ends.iter().max().copied();
        let mut acts: Vec<&(u32, String)> = reader
            .calls
            .iter()
            .filter(|(_, name)| changes_the_page(name))
            .chain(&reader.page_writes)
            .collect();
        acts.sort_by_key(|(at, _)| *at);
        reader.checks.acts_before_check = acts
            .into_iter()
            .find(|(at, _)| last_check.is_some_and(|end| *at < end))
            .map(|(_, name)| name.clone());
        reader.checks.calls = reader.calls.into_iter().map(|(_, name)| name).collect();
        Ok(reader.checks)
    }
}

/// Walks the AST, tracking what surrounds each node.
struct Reader<'s> {
    source: Source<'s>,
    checks: Checks,
    /// Conditions, loops, cases and callbacks around the current node.
    guards: u32,
    /// `try` blocks (with a `catch`) around the current node.
    tries: u32,
    /// Function nesting: 1 inside the step function (or any top-level function).
    functions: u32,
    /// Functions passed to `expect(...)` itself (`toPass`, `expect.poll`): they run.
    subjects: HashSet<Span>,
    /// Assertion calls whose promise is caught.
    caught: HashSet<Span>,
    /// Calls that are awaited or returned (directly, or as elements of `Promise.all([...])`).
    awaited: HashSet<Span>,
    /// Top-level `step` definitions seen.
    steps_defined: u32,
    /// Inside the argument of a `throw` or a `console.*` call: strings there are messages.
    throwing: u32,
    /// Ends of `return` statements of each enclosing top-level function.
    returned_before: Vec<u32>,
    /// For each optional chain around the current node, the part before its first `?.`: only
    /// that part always runs, since a nullish value there skips the rest of the chain.
    chain_heads: Vec<Span>,
    /// The methods called on an object, with where their names end in the source.
    calls: Vec<(u32, String)>,
    /// What the code's local names hold, as far as the walk has read: the page's values or
    /// the code's own.
    origins: Origins,
    /// The functions' parameters: a parameter named `page` is no local page of the code's own.
    parameters: HashSet<Span>,
    /// Where each check (an assertion, a `throw` that always runs) ends in the source.
    check_ends: Vec<u32>,
    /// The page-script calls ([`PAGE_SCRIPTS`]) around the current node, innermost last.
    page_scripts: Vec<String>,
    /// Writes made in a page script (an assignment to a member, `delete`, `++`, a call of a
    /// [`DOM_WRITES`] method), with where they start and the page-script call they are in.
    page_writes: Vec<(u32, String)>,
}

impl<'s> Reader<'s> {
    fn new(code: &'s str) -> Self {
        Reader {
            source: Source { code },
            checks: Checks::default(),
            guards: 0,
            tries: 0,
            functions: 0,
            subjects: HashSet::new(),
            caught: HashSet::new(),
            awaited: HashSet::new(),
            steps_defined: 0,
            throwing: 0,
            returned_before: Vec::new(),
            chain_heads: Vec::new(),
            calls: Vec::new(),
            origins: Origins::default(),
            parameters: HashSet::new(),
            check_ends: Vec::new(),
            page_scripts: Vec::new(),
            page_writes: Vec::new(),
        }
    }
}

/// Whether `script`, JavaScript that a page-script call was given as a string
/// (`page.evaluate("document.title = 'x'")`) rather than as a function, writes to the page: it
/// is read as the body of a function given there would be. A string that does not parse
/// cannot run in the page either.
fn string_script_writes(script: &str) -> bool {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, script, SourceType::script()).parse();
    if parsed.panicked || parsed.diagnostics.has_errors() {
        return false;
    }
    let mut reader = Reader::new(script);
    reader.page_scripts.push(String::new());
    reader.read(&parsed.program);
    !reader.page_writes.is_empty()
}

impl Reader<'_> {
    fn read(&mut self, program: &Program<'_>) {
        self.visit_program(program);
    }

    /// The assertion `call` is, if it is a matcher called on `expect(...)`, with what keeps it
    /// from failing the step where it stands.
    fn assertion(&self, call: &CallExpression<'_>) -> Option<Assertion> {
        let AssertionCall {
            mut assertion,
            promised,
        } = AssertionCall::read(&self.source, &self.origins, call)?;
        let escapes = &mut assertion.escapes;
        escapes.in_try = self.tries > 0;
        escapes.caught = self.caught.contains(&call.span);
        escapes.conditional =
            self.guards > 0 || self.returned_earlier(call.span) || self.short_circuited(call.span);
        escapes.unawaited = promised && !self.awaited.contains(&call.span);
        Some(assertion)
    }

    /// Whether a call at `span` that throws fails the step: it always runs, is awaited and
    /// nothing catches it.
    fn always_fails_the_step(&self, span: Span) -> bool {
        self.tries == 0
            && self.guards == 0
            && !self.caught.contains(&span)
            && !self.returned_earlier(span)
            && !self.short_circuited(span)
            && self.awaited.contains(&span)
    }

    /// The function `expect(fn).toPass()` / `expect.poll(fn)...` runs as part of its assertion:
    /// not a callback that may never run. Any other function given to `expect` is one.
    fn mark_subject(&mut self, call: &CallExpression<'_>, assertion: &Assertion) {
        if assertion.matcher != "toPass" && !assertion.poll {
            return;
        }
        let mut object = match call.callee.without_parentheses() {
            Expression::StaticMemberExpression(member) => member.object.without_parentheses(),
            _ => return,
        };
        while let Expression::StaticMemberExpression(modifier) = object {
            object = modifier.object.without_parentheses();
        }
        let Expression::CallExpression(expect_call) = object else {
            return;
        };
        match expect_call
            .arguments
            .first()
            .and_then(Argument::as_expression)
            .map(Expression::without_parentheses)
        {
            Some(Expression::ArrowFunctionExpression(f)) => {
                self.subjects.insert(f.span);
            }
            Some(Expression::FunctionExpression(f)) => {
                self.subjects.insert(f.span);
            }
            _ => {}
        }
    }

    /// Marks what an `await`, a `return` or a concise arrow body observes: the call itself, or
    /// each element of `Promise.all([...])` when nothing is chained after it.
    fn mark_awaited(&mut self, expression: &Expression<'_>) {
        let Expression::CallExpression(call) = expression.without_parentheses() else {
            return;
        };
        self.awaited.insert(call.span);
        let is_promise_all = matches!(call.callee.without_parentheses(),
            Expression::StaticMemberExpression(m)
                if m.property.name.as_str() == "all"
                    && matches!(m.object.without_parentheses(),
                        Expression::Identifier(id) if id.name.as_str() == "Promise"));
        if !is_promise_all {
            return;
        }
        if let Some(Expression::ArrayExpression(array)) = call
            .arguments
            .first()
            .and_then(Argument::as_expression)
            .map(Expression::without_parentheses)
        {
            for element in &array.elements {
                if let Some(Expression::CallExpression(inner)) =
                    element.as_expression().map(Expression::without_parentheses)
                {
                    self.awaited.insert(inner.span);
                }
            }
        }
    }

    /// Counts a replacement of a global's or a prototype's member (`target` is assigned to).
    fn mark_patch(&mut self, target: &Expression<'_>) {
        let mut object = target;
        loop {
            match object.without_parentheses() {
                Expression::StaticMemberExpression(m) => {
                    if matches!(m.property.name.as_str(), "prototype" | "__proto__") {
                        self.checks.patches += 1;
                        return;
                    }
                    object = &m.object;
                }
                Expression::ComputedMemberExpression(m) => object = &m.object,
                Expression::CallExpression(_) => {
                    // `Object.getPrototypeOf(x).y = ...`, `expect(a).toHaveText = ...`.
                    self.checks.patches += 1;
                    return;
                }
                Expression::Identifier(id) => {
                    if PATCHABLE_ROOTS.contains(&id.name.as_str()) {
                        self.checks.patches += 1;
                    }
                    return;
                }
                _ => return,
            }
        }
    }

    /// Records a write at `at` when the walk is inside a page script.
    fn mark_page_write(&mut self, at: u32) {
        if let Some(script) = self.page_scripts.last() {
            self.page_writes.push((at, script.clone()));
        }
    }

    /// Whether `span` lies in the part of an optional chain that a nullish value skips.
    fn short_circuited(&self, span: Span) -> bool {
        self.chain_heads
            .iter()
            .any(|head| span.start < head.start || span.end > head.end)
    }

    fn returned_earlier(&self, span: Span) -> bool {
        self.returned_before
            .last()
            .is_some_and(|&end| end <= span.start)
    }

    /// Marks the assertion a `.catch(...)` / `.then(_, onRejected)` call is chained to.
    fn mark_caught(&mut self, call: &CallExpression<'_>) {
        let Expression::StaticMemberExpression(member) = call.callee.without_parentheses() else {
            return;
        };
        let catches = match member.property.name.as_str() {
            "catch" => true,
            "then" => call.arguments.len() >= 2,
            _ => false,
        };
        if !catches {
            return;
        }
        let mut target = member.object.without_parentheses();
        // `expect(...).toX().catch()`, also through an `await (...)`.
        if let Expression::AwaitExpression(awaited) = target {
            target = awaited.argument.without_parentheses();
        }
        if let Expression::CallExpression(inner) = target {
            self.caught.insert(inner.span);
        }
    }

    fn guarded(&mut self, walk: impl FnOnce(&mut Self)) {
        self.guards += 1;
        walk(self);
        self.guards -= 1;
    }

    /// Walks a function body. Only the step function itself (`is_step`) and the functions
    /// `toPass` / `expect.poll` run always run; any other function may never be called.
    fn in_function(&mut self, span: Span, is_step: bool, walk: impl FnOnce(&mut Self)) {
        let top_level = self.functions == 0;
        let callback = if top_level {
            !is_step
        } else {
            !self.subjects.contains(&span)
        };
        self.functions += 1;
        if callback {
            self.guards += 1;
        }
        if top_level {
            self.returned_before.push(u32::MAX);
        }
        walk(self);
        if top_level {
            self.returned_before.pop();
        }
        if callback {
            self.guards -= 1;
        }
        self.functions -= 1;
    }
}

/// Whether `text` has `word` as a whole word.
fn contains_keyword(text: &str, word: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(word).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(is_word)
            && !text[at + word.len()..].chars().next().is_some_and(is_word)
    })
}

impl<'a> Visit<'a> for Reader<'_> {
    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        let (object, method) = match it.callee.without_parentheses() {
            Expression::StaticMemberExpression(m) => {
                (Some(&m.object), Some(m.property.name.as_str()))
            }
            Expression::ComputedMemberExpression(m) => (
                Some(&m.object),
                match m.expression.without_parentheses() {
                    Expression::StringLiteral(s) => Some(s.value.as_str()),
                    _ => None,
                },
            ),
            _ => (None, None),
        };
        if let Some(method) = method {
            self.calls.push((it.callee.span().end, method.to_owned()));
        }
        let script = method.filter(|m| PAGE_SCRIPTS.contains(m));
        if script.is_some() {
            self.checks.page_scripts += 1;
        }
        if method.is_some_and(|m| DOM_WRITES.contains(&m)) {
            self.mark_page_write(it.span.start);
        }
        // A page made up by the code: `page.goto('data:text/html,...')`.
        if method == Some("goto")
            && let Some(Value::Str(url)) = it
                .arguments
                .first()
                .and_then(Argument::as_expression)
                .map(|e| self.source.value(e))
            && ["data:", "javascript:"]
                .iter()
                .any(|scheme| url.trim_start().to_ascii_lowercase().starts_with(scheme))
        {
            self.checks.page_scripts += 1;
        }
        let on_object = object.and_then(|o| match o.without_parentheses() {
            Expression::Identifier(id) => Some(id.name.as_str()),
            _ => None,
        });
        if matches!(on_object, Some("Object" | "Reflect"))
            && method.is_some_and(|m| {
                matches!(
                    m,
                    "defineProperty" | "defineProperties" | "setPrototypeOf" | "assign"
                ) || on_object == Some("Reflect")
            })
        {
            self.checks.patches += 1;
        }
        self.mark_caught(it);
        if let Some(assertion) = self.assertion(it) {
            self.mark_subject(it, &assertion);
            self.checks.assertions.push(assertion);
            self.check_ends.push(it.span.end);
        }
        if let Some(wait) = method.filter(|m| waits_for_the_page(m))
            && self.always_fails_the_step(it.span)
        {
            self.checks.waits.push(wait.to_owned());
            self.check_ends.push(it.span.end);
        }
        let message = on_object == Some("console");
        if message {
            self.throwing += 1;
        }
        if let Some(script) = script {
            // A script given as a string writes as one given as a function would.
            if it
                .arguments
                .iter()
                .filter_map(string_argument)
                .any(string_script_writes)
            {
                self.page_writes.push((it.span.start, script.to_owned()));
            }
            self.page_scripts.push(script.to_owned());
            let at = usize::from(matches!(script, "$eval" | "$$eval"));
            if !it
                .arguments
                .get(at)
                .is_some_and(|a| script_reads(self.source.code, a))
            {
                self.checks.opaque_scripts += 1;
            }
        }
        walk::walk_call_expression(self, it);
        if script.is_some() {
            self.page_scripts.pop();
        }
        if message {
            self.throwing -= 1;
        }
    }

    fn visit_await_expression(&mut self, it: &AwaitExpression<'a>) {
        self.mark_awaited(&it.argument);
        walk::walk_await_expression(self, it);
    }

    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        if matches!(it.name.as_str(), "eval" | "Function") {
            self.checks.patches += 1;
        }
    }

    fn visit_with_statement(&mut self, it: &WithStatement<'a>) {
        self.checks.patches += 1;
        self.guarded(|r| walk::walk_with_statement(r, it));
    }

    fn visit_chain_expression(&mut self, it: &ChainExpression<'a>) {
        self.chain_heads.push(chain_head(it));
        walk::walk_chain_expression(self, it);
        self.chain_heads.pop();
    }

    fn visit_class(&mut self, it: &Class<'a>) {
        // A class body runs only when the class is defined, constructed or its members called;
        // an assertion there may never run.
        self.guarded(|r| walk::walk_class(r, it));
    }

    fn visit_assignment_pattern(&mut self, it: &AssignmentPattern<'a>) {
        // A default value runs only when the value is missing.
        self.guarded(|r| walk::walk_assignment_pattern(r, it));
    }

    fn visit_labeled_statement(&mut self, it: &LabeledStatement<'a>) {
        // A labelled block can be left with `break`: what follows may never run.
        self.guarded(|r| walk::walk_labeled_statement(r, it));
    }

    fn visit_try_statement(&mut self, it: &TryStatement<'a>) {
        // A `finally` that returns, breaks or continues swallows the failure like a `catch`.
        let leaves = it.finalizer.as_ref().is_some_and(|f| {
            let text = self.source.text(f.span);
            ["return", "break", "continue"]
                .iter()
                .any(|word| contains_keyword(text, word))
        });
        let catches = it.handler.is_some() || leaves;
        if catches {
            self.tries += 1;
        }
        self.visit_block_statement(&it.block);
        if catches {
            self.tries -= 1;
        }
        if let Some(handler) = &it.handler {
            self.visit_catch_clause(handler);
        }
        if let Some(finalizer) = &it.finalizer {
            self.visit_block_statement(finalizer);
        }
    }

    fn visit_catch_clause(&mut self, it: &CatchClause<'a>) {
        self.guarded(|r| walk::walk_catch_clause(r, it));
    }

    fn visit_if_statement(&mut self, it: &IfStatement<'a>) {
        self.visit_expression(&it.test);
        self.guarded(|r| {
            r.visit_statement(&it.consequent);
            if let Some(alternate) = &it.alternate {
                r.visit_statement(alternate);
            }
        });
    }

    fn visit_conditional_expression(&mut self, it: &ConditionalExpression<'a>) {
        self.visit_expression(&it.test);
        self.guarded(|r| {
            r.visit_expression(&it.consequent);
            r.visit_expression(&it.alternate);
        });
    }

    fn visit_logical_expression(&mut self, it: &LogicalExpression<'a>) {
        self.visit_expression(&it.left);
        self.guarded(|r| r.visit_expression(&it.right));
    }

    fn visit_while_statement(&mut self, it: &WhileStatement<'a>) {
        self.guarded(|r| walk::walk_while_statement(r, it));
    }

    fn visit_do_while_statement(&mut self, it: &DoWhileStatement<'a>) {
        self.guarded(|r| walk::walk_do_while_statement(r, it));
    }

    fn visit_for_statement(&mut self, it: &ForStatement<'a>) {
        self.guarded(|r| walk::walk_for_statement(r, it));
    }

    fn visit_for_in_statement(&mut self, it: &ForInStatement<'a>) {
        self.guarded(|r| walk::walk_for_in_statement(r, it));
    }

    fn visit_for_of_statement(&mut self, it: &ForOfStatement<'a>) {
        self.guarded(|r| walk::walk_for_of_statement(r, it));
    }

    fn visit_switch_case(&mut self, it: &SwitchCase<'a>) {
        self.guarded(|r| walk::walk_switch_case(r, it));
    }

    fn visit_function(&mut self, it: &Function<'a>, flags: ScopeFlags) {
        // Calling a generator runs none of its body, so a generator `step` checks nothing.
        let is_step = self.functions == 0
            && it.is_declaration()
            && !it.generator
            && it.id.as_ref().is_some_and(|id| id.name.as_str() == "step");
        if is_step {
            self.steps_defined += 1;
        }
        self.in_function(it.span, is_step, |r| walk::walk_function(r, it, flags));
    }

    fn visit_arrow_function_expression(&mut self, it: &ArrowFunctionExpression<'a>) {
        if let Some(body) = it.body.as_expression() {
            // `async () => expect(...).toHaveText(...)`: the body is returned.
            self.mark_awaited(body);
        }
        self.in_function(it.span, false, |r| {
            walk::walk_arrow_function_expression(r, it);
        });
    }

    fn visit_return_statement(&mut self, it: &ReturnStatement<'a>) {
        if let Some(argument) = &it.argument {
            self.mark_awaited(argument);
        }
        walk::walk_return_statement(self, it);
        // A return in the step function itself (not in a callback) ends it early for
        // everything after it.
        if self.functions == 1
            && let Some(end) = self.returned_before.last_mut()
        {
            *end = (*end).min(it.span.end);
        }
    }

    fn visit_throw_statement(&mut self, it: &ThrowStatement<'a>) {
        let escapes_callback = self.functions > 1;
        if self.tries == 0 && !escapes_callback {
            self.checks.throws += 1;
            self.check_ends.push(it.span.end);
        }
        self.throwing += 1;
        walk::walk_throw_statement(self, it);
        self.throwing -= 1;
    }

    fn visit_string_literal(&mut self, it: &StringLiteral<'a>) {
        // A message (of a throw, a console call) uses a string without checking anything.
        if self.throwing == 0 {
            self.checks.strings.push(it.value.as_str().to_owned());
        }
    }

    fn visit_template_literal(&mut self, it: &TemplateLiteral<'a>) {
        for quasi in it.quasis.iter().filter(|_| self.throwing == 0) {
            let part = quasi
                .value
                .cooked
                .map_or(quasi.value.raw.as_str(), |c| c.as_str());
            self.checks.strings.push(part.to_owned());
        }
        walk::walk_template_literal(self, it);
    }

    fn visit_binding_identifier(&mut self, it: &BindingIdentifier<'a>) {
        if it.name.as_str() == "expect" {
            self.checks.rebinds_expect = true;
        }
        // A `page` the code declares itself (not a parameter) shadows the browser's page.
        if it.name.as_str() == "page" && !self.parameters.contains(&it.span) {
            self.checks.rebinds_page = true;
        }
        // A local `Promise` can make `Promise.all([...])` observe nothing.
        if it.name.as_str() == "Promise" {
            self.checks.patches += 1;
        }
        // `var step = ...` beside `function step`: the last definition is the one that runs.
        if it.name.as_str() == "step" && self.functions == 0 {
            self.steps_defined += 1;
        }
    }

    fn visit_update_expression(&mut self, it: &UpdateExpression<'a>) {
        if it.argument.as_member_expression().is_some() {
            self.mark_page_write(it.span.start);
        }
        walk::walk_update_expression(self, it);
    }

    fn visit_unary_expression(&mut self, it: &UnaryExpression<'a>) {
        if it.operator.as_str() == "delete" {
            self.mark_page_write(it.span.start);
        }
        walk::walk_unary_expression(self, it);
    }

    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        walk::walk_variable_declarator(self, it);
        // After the walk, so that the value's own reads are seen first; the name is bound
        // from here on.
        self.origins.declare(&it.id, it.init.as_ref());
    }

    fn visit_formal_parameter(&mut self, it: &FormalParameter<'a>) {
        self.origins.parameter(&it.pattern);
        // A parameter holds what its caller passes: the step's `page` is the browser's, and a
        // helper's or a listener's `page` is whatever page the code hands it.
        for id in it.pattern.get_binding_identifiers() {
            self.parameters.insert(id.span);
        }
        walk::walk_formal_parameter(self, it);
    }

    fn visit_assignment_expression(&mut self, it: &AssignmentExpression<'a>) {
        if let Some(SimpleAssignmentTarget::AssignmentTargetIdentifier(id)) =
            it.left.as_simple_assignment_target()
        {
            match id.name.as_str() {
                "expect" => self.checks.rebinds_expect = true,
                "page" => self.checks.rebinds_page = true,
                "step" => self.checks.redefines_step = true,
                "Promise" => self.checks.patches += 1,
                _ => {}
            }
            let compound = it.operator.as_str() != "=";
            self.origins
                .assign(id.name.as_str(), &it.right, self.guards > 0, compound);
        }
        if let Some(target) = it.left.as_simple_assignment_target()
            && let Some(member) = target.as_member_expression()
        {
            self.mark_patch(member.object());
            self.mark_page_write(it.span.start);
        }
        // `expect.soft = ...`, `expect.extend(...)`-like patching of the global.
        if let Some(SimpleAssignmentTarget::StaticMemberExpression(m)) =
            it.left.as_simple_assignment_target()
            && matches!(m.object.without_parentheses(),
                Expression::Identifier(id) if id.name.as_str() == "expect")
        {
            self.checks.rebinds_expect = true;
        }
        if it.operator.is_logical() {
            // `x ||= await expect(...)...`: the right side runs only sometimes.
            self.visit_assignment_target(&it.left);
            self.guarded(|r| r.visit_expression(&it.right));
            return;
        }
        walk::walk_assignment_expression(self, it);
    }
}
