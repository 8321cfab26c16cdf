//! [`Names`]: how each name of step code is bound and written, read in a first walk, so that
//! the constant folder of `constant_strings.rs` uses a variable's declared value only when
//! nothing else can change it, and takes `String` for the global only when the code does not
//! bind that name itself.

use std::collections::{HashMap, HashSet};

use oxc_ast::ast::{
    AssignmentExpression, AssignmentOperator, AssignmentTargetPropertyIdentifier,
    BindingIdentifier, CallExpression, Expression, SimpleAssignmentTarget,
};
use oxc_ast_visit::{Visit, walk};

/// How each name is bound and written in the code: a variable's value is used only when it is
/// bound once and never assigned with anything but `+=`.
#[derive(Default)]
pub(super) struct Names {
    bound: HashMap<String, usize>,
    /// Names assigned with `=`, `++`, another operator than `+=`, destructuring, or mutated
    /// in place by an array method other than `push`, or through a member.
    written: HashSet<String>,
}

impl Names {
    /// Whether `name` is a variable whose declared value (and appends) the folder may use.
    pub(super) fn is_constant(&self, name: &str) -> bool {
        self.bound.get(name) == Some(&1) && !self.written.contains(name)
    }

    /// Whether `name` is the global of that name (nothing in the code binds it).
    pub(super) fn is_global(&self, name: &str) -> bool {
        !self.bound.contains_key(name)
    }
}

impl<'a> Visit<'a> for Names {
    fn visit_binding_identifier(&mut self, it: &BindingIdentifier<'a>) {
        *self.bound.entry(it.name.as_str().to_owned()).or_insert(0) += 1;
    }

    fn visit_assignment_expression(&mut self, it: &AssignmentExpression<'a>) {
        if let Some(SimpleAssignmentTarget::AssignmentTargetIdentifier(id)) =
            it.left.as_simple_assignment_target()
        {
            if it.operator != AssignmentOperator::Addition {
                self.written.insert(id.name.as_str().to_owned());
            }
            self.visit_expression(&it.right);
            return;
        }
        if let Some(member) = it.left.as_member_expression()
            && let Expression::Identifier(object) = member.object().without_parentheses()
        {
            self.written.insert(object.name.as_str().to_owned());
        }
        walk::walk_assignment_expression(self, it);
    }

    fn visit_simple_assignment_target(&mut self, it: &SimpleAssignmentTarget<'a>) {
        // Reached for `++`/`--` and for targets inside destructuring; a plain `x = ...` or
        // `x += ...` was decided above.
        if let SimpleAssignmentTarget::AssignmentTargetIdentifier(id) = it {
            self.written.insert(id.name.as_str().to_owned());
        }
        walk::walk_simple_assignment_target(self, it);
    }

    fn visit_assignment_target_property_identifier(
        &mut self,
        it: &AssignmentTargetPropertyIdentifier<'a>,
    ) {
        self.written.insert(it.binding.name.as_str().to_owned());
        walk::walk_assignment_target_property_identifier(self, it);
    }

    fn visit_call_expression(&mut self, it: &CallExpression<'a>) {
        if let Some(member) = it.callee.without_parentheses().as_member_expression()
            && let Expression::Identifier(object) = member.object().without_parentheses()
            && member
                .static_property_name()
                .is_some_and(|m| MUTATORS.contains(&m))
        {
            self.written.insert(object.name.as_str().to_owned());
        }
        walk::walk_call_expression(self, it);
    }
}

/// Array methods that change an array in place in ways other than appending.
const MUTATORS: &[&str] = &[
    "pop",
    "shift",
    "unshift",
    "splice",
    "reverse",
    "sort",
    "fill",
    "copyWithin",
];
