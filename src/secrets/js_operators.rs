//! The operators the constant folder of `constant_strings.rs` evaluates on known values
//! (unary and binary operators, array indexes, spread), as JavaScript defines them.

use oxc_ast::ast::{BinaryOperator, UnaryOperator};

use super::js_value::Value;

/// The elements `...value` spreads: an array's, or a known string's characters.
pub(super) fn spreaded(value: &Value) -> Option<Vec<Value>> {
    match value {
        Value::Array(items) => Some(items.clone()),
        Value::Str(_) => Some(
            value
                .known_str()?
                .chars()
                .map(|c| Value::str(c.to_string()))
                .collect(),
        ),
        _ => None,
    }
}

/// An array index given as a key: a whole number from 0.
pub(super) fn index(key: &Value) -> Option<usize> {
    let n = match key {
        Value::Num(n) => *n,
        Value::Str(_) => key.known_str()?.parse::<f64>().ok()?,
        _ => return None,
    };
    (n >= 0.0 && n.fract() == 0.0).then_some(n as usize)
}

pub(super) fn unary_op(operator: UnaryOperator, value: &Value) -> Value {
    match operator {
        UnaryOperator::UnaryNegation => {
            value.to_number().map_or(Value::Unknown, |n| Value::Num(-n))
        }
        UnaryOperator::UnaryPlus => value.to_number().map_or(Value::Unknown, Value::Num),
        UnaryOperator::LogicalNot => value.truthy().map_or(Value::Unknown, |t| Value::Bool(!t)),
        UnaryOperator::BitwiseNot => value
            .to_number()
            .map_or(Value::Unknown, |n| Value::Num(f64::from(!to_int32(n)))),
        UnaryOperator::Typeof => value.type_of().map_or(Value::Unknown, Value::str),
        UnaryOperator::Void => Value::Undefined,
        UnaryOperator::Delete => Value::Unknown,
    }
}

/// `ToInt32`.
fn to_int32(n: f64) -> i32 {
    if !n.is_finite() {
        return 0;
    }
    n.trunc().rem_euclid(4_294_967_296.0) as u32 as i32
}

pub(super) fn binary_op(operator: BinaryOperator, left: &Value, right: &Value) -> Value {
    use BinaryOperator as B;
    match operator {
        B::StrictEquality => left
            .strict_equals(right)
            .map_or(Value::Unknown, Value::Bool),
        B::StrictInequality => left
            .strict_equals(right)
            .map_or(Value::Unknown, |e| Value::Bool(!e)),
        _ => {
            let (Some(a), Some(b)) = (left.to_number(), right.to_number()) else {
                return Value::Unknown;
            };
            let (ia, ib) = (to_int32(a), to_int32(b));
            match operator {
                B::Subtraction => Value::Num(a - b),
                B::Multiplication => Value::Num(a * b),
                B::Division => Value::Num(a / b),
                B::Remainder => Value::Num(a % b),
                B::Exponential => Value::Num(a.powf(b)),
                B::BitwiseOR => Value::Num(f64::from(ia | ib)),
                B::BitwiseAnd => Value::Num(f64::from(ia & ib)),
                B::BitwiseXOR => Value::Num(f64::from(ia ^ ib)),
                B::ShiftLeft => Value::Num(f64::from(ia.wrapping_shl(ib as u32 & 31))),
                B::ShiftRight => Value::Num(f64::from(ia.wrapping_shr(ib as u32 & 31))),
                B::ShiftRightZeroFill => {
                    Value::Num(f64::from((ia as u32).wrapping_shr(ib as u32 & 31)))
                }
                // Comparisons of strings compare code units; only numbers are folded here.
                B::LessThan if numbers(left, right) => Value::Bool(a < b),
                B::LessEqualThan if numbers(left, right) => Value::Bool(a <= b),
                B::GreaterThan if numbers(left, right) => Value::Bool(a > b),
                B::GreaterEqualThan if numbers(left, right) => Value::Bool(a >= b),
                _ => Value::Unknown,
            }
        }
    }
}

fn numbers(left: &Value, right: &Value) -> bool {
    matches!((left, right), (Value::Num(_), Value::Num(_)))
}
