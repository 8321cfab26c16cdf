//! Cached code held to the sandbox's surface before the export hands it to Node.js. Code that
//! passed in the sandbox can still hold what the sandbox would refuse, behind a branch it never
//! took there (`if (new Error().stack.includes('.spec.')) await import('node:fs')`); Node.js
//! would run it with the privileges of whoever runs the export.
//!
//! The code is parsed with oxc, as the veto parses it, and walked twice: once to find what each
//! scope declares (with `var` and function declarations hoisted to their function), once to
//! resolve each name it reads. A use is outside the sandbox when it is
//! - a name that no scope of the code declares and the sandbox does not define as a global
//!   (`require`, `process`, `global`, `Buffer`, and the escapes such as `globalThis`);
//! - `import()`;
//! - a member that is one of the sandbox's escapes (`.constructor`, `.stack`), read by name, by
//!   a string key or by a destructuring key, or a string the code builds from constants that
//!   spells one (`'constr' + 'uctor'`);
//! - a method called by name that neither the sandbox nor the code itself defines
//!   (`page.context().browser().browserType().launch()`): calling it fails in the sandbox, so
//!   code that calls it passed there only by not reaching the call.
//!
//! The function a page method sends to the page (`page.evaluate(() => document.title)`) runs in
//! the browser, not in Node.js, so it is not held to the sandbox's surface, unless the code
//! defines a member of that name itself.
//!
//! Main type: [`OutsideUse`]; the check is [`outside_use`].

use std::collections::BTreeSet;
use std::fmt;

use oxc_allocator::Allocator;
use oxc_ast::ast::{
    Argument, AssignmentTargetPropertyIdentifier, AssignmentTargetPropertyProperty,
    BindingIdentifier, BindingProperty, CallExpression, ComputedMemberExpression, Expression,
    Function, IdentifierReference, ImportExpression, MethodDefinition, NewExpression,
    ObjectProperty, PropertyDefinition, SimpleAssignmentTarget, StaticMemberExpression,
    TaggedTemplateExpression, VariableDeclaration, VariableDeclarationKind,
};
use oxc_ast_visit::{Visit, walk};
use oxc_parser::Parser;
use oxc_span::{GetSpan, SourceType};
use oxc_syntax::scope::{ScopeFlags, ScopeId};

use crate::script::SandboxSurface;

/// What cached code uses that the sandbox does not give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum OutsideUse {
    /// A name read as a global that the sandbox does not define.
    Global(String),
    /// `import(...)`: a module loaded at run time.
    Import,
    /// A member that is one of the sandbox's escapes.
    Escape(String),
    /// A method called that neither the sandbox nor the code defines.
    Method(String),
    /// Code that oxc cannot parse, which the check therefore cannot read.
    Unparsed,
}

impl fmt::Display for OutsideUse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutsideUse::Global(name) => write!(f, "`{name}`"),
            OutsideUse::Import => f.write_str("`import()`"),
            OutsideUse::Escape(name) => write!(f, "`.{name}`"),
            OutsideUse::Method(name) => write!(f, "`.{name}()`"),
            OutsideUse::Unparsed => f.write_str("syntax that does not parse as a script"),
        }
    }
}

/// The first use in `code`, in source order, of something outside `surface`.
pub(crate) fn outside_use(code: &str, surface: &SandboxSurface) -> Option<OutsideUse> {
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, code, SourceType::script()).parse();
    if parsed.panicked || parsed.diagnostics.has_errors() {
        return Some(OutsideUse::Unparsed);
    }
    let mut declarations = Declarations::default();
    declarations.visit_program(&parsed.program);
    let mut uses = Uses {
        surface,
        scopes: &declarations.scopes,
        members: &declarations.members,
        stack: Vec::new(),
        next: 0,
        found: Vec::new(),
    };
    uses.visit_program(&parsed.program);
    let mut found = uses.found;
    // A string the code builds from constants can name an escape for a computed key.
    for built in crate::secrets::constant_strings(code, 1).strings {
        if SandboxSurface::is_member_escape(&built) {
            found.push((u32::MAX, OutsideUse::Escape(built)));
        }
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().next().map(|(_, outside)| outside)
}

/// One scope of the code: what it declares, its parent, and whether it is a function's.
#[derive(Debug, Default)]
struct Scope {
    parent: Option<usize>,
    hoists: bool,
    declared: BTreeSet<String>,
}

/// The first walk: every scope, in the order the visitor enters them, with its declarations.
#[derive(Default)]
struct Declarations {
    scopes: Vec<Scope>,
    stack: Vec<usize>,
    /// Where the binding identifiers being visited are declared, when not the current scope.
    into: Vec<usize>,
    /// Member names the code defines itself (object keys, class members, assigned members).
    members: BTreeSet<String>,
}

impl Declarations {
    fn current(&self) -> usize {
        self.stack.last().copied().unwrap_or(0)
    }

    /// The nearest enclosing scope that `var` and function declarations go to.
    fn hoisting(&self) -> usize {
        self.stack
            .iter()
            .rev()
            .copied()
            .find(|&at| self.scopes[at].hoists)
            .unwrap_or(0)
    }
}

impl<'a> Visit<'a> for Declarations {
    fn enter_scope(&mut self, flags: ScopeFlags, _: &std::cell::Cell<Option<ScopeId>>) {
        let parent = self.stack.last().copied();
        let hoists = flags.intersects(ScopeFlags::Top | ScopeFlags::Function);
        let mut declared = BTreeSet::new();
        // A function that is not an arrow has `arguments` of its own.
        if flags.contains(ScopeFlags::Function) && !flags.contains(ScopeFlags::Arrow) {
            declared.insert("arguments".to_owned());
        }
        self.scopes.push(Scope {
            parent,
            hoists,
            declared,
        });
        self.stack.push(self.scopes.len() - 1);
    }

    fn leave_scope(&mut self) {
        self.stack.pop();
    }

    fn visit_binding_identifier(&mut self, it: &BindingIdentifier<'a>) {
        let at = self.into.last().copied().unwrap_or_else(|| self.current());
        if let Some(scope) = self.scopes.get_mut(at) {
            scope.declared.insert(it.name.to_string());
        }
    }

    fn visit_variable_declaration(&mut self, it: &VariableDeclaration<'a>) {
        let at = match it.kind {
            VariableDeclarationKind::Var => self.hoisting(),
            _ => self.current(),
        };
        for declarator in &it.declarations {
            self.into.push(at);
            self.visit_binding_pattern(&declarator.id);
            self.into.pop();
            if let Some(init) = &declarator.init {
                self.visit_expression(init);
            }
        }
    }

    fn visit_function(&mut self, it: &Function<'a>, flags: ScopeFlags) {
        if let (true, Some(id)) = (it.is_declaration(), &it.id) {
            let at = self.hoisting();
            if let Some(scope) = self.scopes.get_mut(at) {
                scope.declared.insert(id.name.to_string());
            }
        }
        walk::walk_function(self, it, flags);
    }

    fn visit_object_property(&mut self, it: &ObjectProperty<'a>) {
        if let Some(name) = it.key.static_name() {
            self.members.insert(name.into_owned());
        }
        walk::walk_object_property(self, it);
    }

    fn visit_method_definition(&mut self, it: &MethodDefinition<'a>) {
        if let Some(name) = it.key.static_name() {
            self.members.insert(name.into_owned());
        }
        walk::walk_method_definition(self, it);
    }

    fn visit_property_definition(&mut self, it: &PropertyDefinition<'a>) {
        if let Some(name) = it.key.static_name() {
            self.members.insert(name.into_owned());
        }
        walk::walk_property_definition(self, it);
    }

    fn visit_simple_assignment_target(&mut self, it: &SimpleAssignmentTarget<'a>) {
        if let Some(name) = it
            .as_member_expression()
            .and_then(|member| member.static_property_name())
        {
            self.members.insert(name.to_owned());
        }
        walk::walk_simple_assignment_target(self, it);
    }
}

/// The second walk: each name read, resolved through the scopes of the first.
struct Uses<'s> {
    surface: &'s SandboxSurface,
    scopes: &'s [Scope],
    /// The member names the code defines itself.
    members: &'s BTreeSet<String>,
    stack: Vec<usize>,
    next: usize,
    /// Each use outside the surface, with where it starts.
    found: Vec<(u32, OutsideUse)>,
}

impl Uses<'_> {
    fn declared(&self, name: &str) -> bool {
        let mut at = self.stack.last().copied();
        while let Some(index) = at {
            let Some(scope) = self.scopes.get(index) else {
                return false;
            };
            if scope.declared.contains(name) {
                return true;
            }
            at = scope.parent;
        }
        false
    }

    fn defines(&self, name: &str) -> bool {
        self.members.contains(name)
    }

    fn member(&mut self, at: u32, name: &str) {
        if SandboxSurface::is_member_escape(name) {
            self.found.push((at, OutsideUse::Escape(name.to_owned())));
        }
    }
}

impl<'a> Visit<'a> for Uses<'_> {
    fn enter_scope(&mut self, _: ScopeFlags, _: &std::cell::Cell<Option<ScopeId>>) {
        self.stack.push(self.next);
        self.next += 1;
    }

    fn leave_scope(&mut self) {
        self.stack.pop();
    }

    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        let name = it.name.as_str();
        if !self.declared(name) && !self.surface.globals.contains(name) {
            self.found
                .push((it.span.start, OutsideUse::Global(name.to_owned())));
        }
    }

    fn visit_import_expression(&mut self, it: &ImportExpression<'a>) {
        self.found.push((it.span.start, OutsideUse::Import));
        walk::walk_import_expression(self, it);
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        self.member(it.property.span.start, it.property.name.as_str());
        walk::walk_static_member_expression(self, it);
    }

    fn visit_computed_member_expression(&mut self, it: &ComputedMemberExpression<'a>) {
        if let Some(name) = it.static_property_name() {
            self.member(it.expression.span().start, name.as_str());
        }
        walk::walk_computed_member_expression(self, it);
    }

    fn visit_binding_property(&mut self, it: &BindingProperty<'a>) {
        if let Some(name) = it.key.static_name() {
            self.member(it.key.span().start, &name);
        }
        walk::walk_binding_property(self, it);
    }

    fn visit_assignment_target_property_property(
        &mut self,
        it: &AssignmentTargetPropertyProperty<'a>,
    ) {
        if let Some(name) = it.name.static_name() {
            self.member(it.name.span().start, &name);
        }
        walk::walk_assignment_target_property_property(self, it);
    }

    fn visit_assignment_target_property_identifier(
        &mut self,
        it: &AssignmentTargetPropertyIdentifier<'a>,
    ) {
        // `({ constructor } = object)` reads the member of that name.
        self.member(it.binding.span.start, it.binding.name.as_str());
        walk::walk_assignment_target_property_identifier(self, it);
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        self.called(&it.callee);
        let name = member_name(&it.callee);
        let in_page =
            name.is_some_and(|name| self.surface.in_page.contains(name) && !self.defines(name));
        self.visit_expression(&it.callee);
        for (index, argument) in it.arguments.iter().enumerate() {
            let sent = index == 0
                && in_page
                && matches!(
                    argument,
                    Argument::FunctionExpression(_) | Argument::ArrowFunctionExpression(_)
                );
            if sent {
                // The function runs in the page; its scopes are still counted, so that the
                // scopes after it line up with the first walk's.
                self.next += count_scopes(argument);
            } else {
                self.visit_argument(argument);
            }
        }
    }

    fn visit_new_expression(&mut self, it: &NewExpression<'a>) {
        self.called(&it.callee);
        walk::walk_new_expression(self, it);
    }

    fn visit_tagged_template_expression(&mut self, it: &TaggedTemplateExpression<'a>) {
        self.called(&it.tag);
        walk::walk_tagged_template_expression(self, it);
    }
}

impl Uses<'_> {
    /// Notes a method that `callee` calls by name and that neither the sandbox nor the code
    /// defines: `x.m(...)`, and `x.m.call(...)`, `.apply` or `.bind`, which call `m` too.
    fn called(&mut self, callee: &Expression<'_>) {
        let Some(name) = member_name(callee) else {
            return;
        };
        let mut names = vec![name];
        if matches!(name, "call" | "apply" | "bind")
            && let Some(object) = callee
                .without_parentheses()
                .as_member_expression()
                .map(|member| member.object())
            && let Some(inner) = member_name(object)
        {
            names.push(inner);
        }
        for name in names {
            if !self.surface.members.contains(name) && !self.defines(name) {
                // The name ends the callee, after what it is called on.
                self.found
                    .push((callee.span().end, OutsideUse::Method(name.to_owned())));
            }
        }
    }
}

/// The member name `expression` reads, when it is a member read by a name or a constant key.
fn member_name<'a>(expression: &Expression<'a>) -> Option<&'a str> {
    expression
        .without_parentheses()
        .as_member_expression()
        .and_then(|member| member.static_property_name())
}

/// How many scopes the visitor enters inside `argument`.
fn count_scopes(argument: &Argument<'_>) -> usize {
    #[derive(Default)]
    struct Count(usize);
    impl<'a> Visit<'a> for Count {
        fn enter_scope(&mut self, _: ScopeFlags, _: &std::cell::Cell<Option<ScopeId>>) {
            self.0 += 1;
        }
    }
    let mut count = Count::default();
    count.visit_argument(argument);
    count.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::sandbox_surface;

    fn check(code: &str) -> Option<OutsideUse> {
        outside_use(code, &sandbox_surface().unwrap())
    }

    fn step(body: &str) -> String {
        format!("async function step(page) {{\n{body}\n}}")
    }

    #[test]
    fn every_name_the_sandbox_defines_is_allowed() {
        let surface = sandbox_surface().unwrap();
        let mut body = String::from("  const x = page;\n");
        for global in &surface.globals {
            body.push_str(&format!("  {global};\n"));
        }
        for member in &surface.members {
            let key = serde_json::to_string(member).unwrap();
            body.push_str(&format!("  x.{member};\n  x[{key}]();\n"));
        }
        assert_eq!(outside_use(&step(&body), &surface), None);
        assert!(surface.globals.len() > 30 && surface.members.len() > 300);
    }

    #[test]
    fn code_that_runs_in_the_sandbox_passes() {
        let code = step(
            "  await page.goto('/');\n  \
             await expect(page.getByText('Function')).toBeVisible();\n  \
             await page.getByRole('button', { name: 'Add' }).click();\n  \
             await expect(page.getByText(`${vars.ITEM} left`)).toBeVisible();\n  \
             const response = await request.get('/api/todos', { params: { q: 'a' } });\n  \
             const data = await response.json();\n  \
             expect(data.items.map((item) => item.name.trim())).toContain(vars.ITEM);\n  \
             const helpers = { async add(text) { await page.fill('#new', text); } };\n  \
             await helpers.add('milk');\n  \
             for (const row of await page.locator('li').all()) {\n    \
               try { await expect(row).toBeVisible(); } catch (e) { console.log(e.message); }\n  \
             }\n  \
             await page.evaluate(() => window.localStorage.clear());\n  \
             await page.locator('li').evaluateAll((items) => items.map((i) => i.textContent));\n  \
             function local(process) { return process + arguments.length; }\n  \
             local(1);\n  \
             Object.keys(data).forEach((key) => data[key]);",
        );
        assert_eq!(check(&code), None);
    }

    #[test]
    fn the_ways_out_of_the_sandbox_are_refused() {
        use OutsideUse::{Escape, Global, Import, Method};
        let global = |name: &str| Some(Global(name.to_owned()));
        let escape = |name: &str| Some(Escape(name.to_owned()));
        let cases: &[(&str, Option<OutsideUse>)] = &[
            (
                "  if (new Error().stack.includes('.spec.')) await import('node:fs').then((fs) => \
                 fs.writeFileSync('/tmp/x', 'y'));",
                escape("stack"),
            ),
            ("  await import('node:fs');", Some(Import)),
            ("  require('fs');", global("require")),
            (
                "  if (typeof process !== 'undefined') process.exit(1);",
                global("process"),
            ),
            ("  globalThis['pro' + 'cess'].exit();", global("globalThis")),
            ("  global.process.exit();", global("global")),
            ("  Function('return process')();", global("Function")),
            ("  eval('process');", global("eval")),
            ("  new Buffer(1);", global("Buffer")),
            (
                "  (async () => {}).constructor.constructor('return process')();",
                escape("constructor"),
            ),
            ("  page['constructor'];", escape("constructor")),
            ("  const { constructor: F } = page;", escape("constructor")),
            (
                "  let F;\n  ({ constructor: F } = page);",
                escape("constructor"),
            ),
            (
                "  let constructor;\n  ({ constructor } = page);",
                escape("constructor"),
            ),
            (
                "  const k = ['constr', 'uctor'].join('');\n  page[k][k]('return 1')();",
                escape("constructor"),
            ),
            ("  page.__proto__;", escape("__proto__")),
            (
                "  Error.captureStackTrace(page);",
                escape("captureStackTrace"),
            ),
            (
                "  Error.prepareStackTrace = (e, frames) => frames;",
                escape("prepareStackTrace"),
            ),
            (
                "  await page.context().browser().browserType().launch();",
                Some(Method("browser".to_owned())),
            ),
            (
                "  const context = page.context();\n  context.browser.call(context);",
                Some(Method("browser".to_owned())),
            ),
            ("  new page.Worker();", Some(Method("Worker".to_owned()))),
            (
                "  const { fs } = page._platform;\n  fs().writeFileSync('x', 'y');",
                Some(Method("writeFileSync".to_owned())),
            ),
            (
                "  const o = { evaluate: (f) => f() };\n  o.evaluate(() => process.exit());",
                global("process"),
            ),
        ];
        for (body, expected) in cases {
            assert_eq!(&check(&step(body)), expected, "{body}");
        }
        // At the top level, outside any function of the code, `arguments` is Node's module
        // wrapper's (`require` among them); names are resolved by scope, not by spelling.
        assert_eq!(
            check("arguments[1]('fs');\nasync function step(page) {}"),
            global("arguments")
        );
        assert_eq!(
            check(
                "function f(process) { return process; }\nasync function step(page) { process.exit(); }"
            ),
            global("process")
        );
        assert_eq!(
            check("async function step(page) {"),
            Some(OutsideUse::Unparsed)
        );
    }

    #[test]
    fn the_message_names_the_use() {
        assert_eq!(OutsideUse::Import.to_string(), "`import()`");
        assert_eq!(
            OutsideUse::Global("process".into()).to_string(),
            "`process`"
        );
        assert_eq!(
            OutsideUse::Escape("constructor".into()).to_string(),
            "`.constructor`"
        );
        assert_eq!(
            OutsideUse::Method("launch".into()).to_string(),
            "`.launch()`"
        );
    }
}
