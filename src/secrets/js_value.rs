//! [`Value`]: what a JavaScript expression of step code evaluates to, as far as the constant
//! folder of `constant_strings.rs` can know it without running the code, and the pure operations
//! on such values that the folder evaluates (JavaScript's `+`, `String(x)`, and the string,
//! array and number methods listed in `docs/cache-format.md`).
//!
//! Strings are kept as Rust strings; methods that count positions (`slice`, `charAt`, `length`)
//! count UTF-16 units, as JavaScript does. A string's parts computed at run time are
//! [`Part::Unknown`], so `x + 'Hunt' + 'er7'` is known to hold `Hunter7` whatever `x` is.

/// The most characters one folded string may have. Building a longer one from constants is
/// [`TooLarge`]: no step code needs it, and a secret must not hide past a limit.
pub(super) const MAX_CHARS: usize = 1 << 20;

/// The most elements one folded array may have.
pub(super) const MAX_ITEMS: usize = 1 << 16;

/// A value the folder would have to build past [`MAX_CHARS`] or [`MAX_ITEMS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct TooLarge;

/// A value as far as it is known before the code runs.
#[derive(Debug, Clone)]
pub(super) enum Value {
    /// Computed at run time (a page read, `vars`, a parameter), or by an operation the folder
    /// does not evaluate.
    Unknown,
    Undefined,
    Null,
    Bool(bool),
    Num(f64),
    /// A string, in parts: never two [`Part::Known`] in a row.
    Str(Vec<Part>),
    Array(Vec<Value>),
    /// An object literal's own properties, in order.
    Object(Vec<(String, Value)>),
}

/// A piece of a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Part {
    Known(String),
    Unknown,
}

impl PartialEq for Value {
    /// Structural equality, with `NaN` equal to itself so that a fixpoint over values ends.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Value::Unknown, Value::Unknown)
            | (Value::Undefined, Value::Undefined)
            | (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Num(a), Value::Num(b)) => a.to_bits() == b.to_bits(),
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Object(a), Value::Object(b)) => a == b,
            _ => false,
        }
    }
}

impl Value {
    pub(super) fn str(text: impl Into<String>) -> Value {
        Value::Str(vec![Part::Known(text.into())])
    }

    /// The whole string, when this is a string known in full.
    pub(super) fn known_str(&self) -> Option<&str> {
        match self {
            Value::Str(parts) => match parts.as_slice() {
                [Part::Known(text)] => Some(text),
                [] => Some(""),
                _ => None,
            },
            _ => None,
        }
    }

    /// The string JavaScript's `String(value)` gives, in parts (`Unknown` for a value not known).
    pub(super) fn to_parts(&self) -> Result<Vec<Part>, TooLarge> {
        Ok(match self {
            Value::Unknown => vec![Part::Unknown],
            Value::Undefined => vec![Part::Known("undefined".to_owned())],
            Value::Null => vec![Part::Known("null".to_owned())],
            Value::Bool(b) => vec![Part::Known(b.to_string())],
            Value::Num(n) => vec![Part::Known(number_to_string(*n))],
            Value::Str(parts) => parts.clone(),
            Value::Array(items) => return join(items, &[Part::Known(",".to_owned())]),
            Value::Object(_) => vec![Part::Known("[object Object]".to_owned())],
        })
    }

    /// `ToNumber`, where it is known.
    pub(super) fn to_number(&self) -> Option<f64> {
        match self {
            Value::Num(n) => Some(*n),
            Value::Bool(b) => Some(f64::from(u8::from(*b))),
            Value::Null => Some(0.0),
            Value::Undefined | Value::Object(_) => Some(f64::NAN),
            Value::Str(_) | Value::Array(_) => {
                let parts = self.to_parts().ok()?;
                match parts.as_slice() {
                    [] => Some(0.0),
                    [Part::Known(text)] => Some(string_to_number(text)),
                    _ => None,
                }
            }
            Value::Unknown => None,
        }
    }

    /// `ToBoolean`, where it is known.
    pub(super) fn truthy(&self) -> Option<bool> {
        match self {
            Value::Unknown => None,
            Value::Undefined | Value::Null => Some(false),
            Value::Bool(b) => Some(*b),
            Value::Num(n) => Some(*n != 0.0 && !n.is_nan()),
            Value::Str(parts) => match parts.as_slice() {
                [] => Some(false),
                [Part::Known(text)] => Some(!text.is_empty()),
                // A string with a non-empty known part is not empty.
                parts
                    if parts
                        .iter()
                        .any(|p| matches!(p, Part::Known(t) if !t.is_empty())) =>
                {
                    Some(true)
                }
                _ => None,
            },
            Value::Array(_) | Value::Object(_) => Some(true),
        }
    }

    /// The result of `typeof`, where it is known.
    pub(super) fn type_of(&self) -> Option<&'static str> {
        Some(match self {
            Value::Unknown => return None,
            Value::Undefined => "undefined",
            Value::Bool(_) => "boolean",
            Value::Num(_) => "number",
            Value::Str(_) => "string",
            Value::Null | Value::Array(_) | Value::Object(_) => "object",
        })
    }

    /// The strict equality of two values, where it is known (primitives only).
    pub(super) fn strict_equals(&self, other: &Value) -> Option<bool> {
        match (self, other) {
            (Value::Num(a), Value::Num(b)) => Some(a == b),
            (Value::Str(_), Value::Str(_)) => Some(self.known_str()? == other.known_str()?),
            (Value::Bool(a), Value::Bool(b)) => Some(a == b),
            (Value::Undefined, Value::Undefined) | (Value::Null, Value::Null) => Some(true),
            (Value::Unknown, _) | (_, Value::Unknown) => None,
            (Value::Array(_) | Value::Object(_), _) | (_, Value::Array(_) | Value::Object(_)) => {
                None
            }
            _ => Some(false),
        }
    }
}

/// `parts` with neighbouring known parts merged and neighbouring unknown ones as one, checked
/// against [`MAX_CHARS`].
pub(super) fn normalized(parts: Vec<Part>) -> Result<Vec<Part>, TooLarge> {
    let mut out: Vec<Part> = Vec::with_capacity(parts.len());
    let mut chars = 0usize;
    for part in parts {
        match (out.last_mut(), part) {
            (Some(Part::Known(last)), Part::Known(text)) => {
                chars += text.len();
                last.push_str(&text);
            }
            (Some(Part::Unknown), Part::Unknown) => {}
            (_, Part::Known(text)) if text.is_empty() => {}
            (_, part) => {
                if let Part::Known(text) = &part {
                    chars += text.len();
                }
                out.push(part);
            }
        }
        if chars > MAX_CHARS {
            return Err(TooLarge);
        }
    }
    Ok(out)
}

/// JavaScript's `a + b`.
pub(super) fn add(a: Value, b: Value) -> Result<Value, TooLarge> {
    let stringy = |v: &Value| matches!(v, Value::Str(_) | Value::Array(_) | Value::Object(_));
    if stringy(&a) || stringy(&b) {
        let mut parts = a.to_parts()?;
        parts.extend(b.to_parts()?);
        return Ok(Value::Str(normalized(parts)?));
    }
    match (a.to_number(), b.to_number()) {
        (Some(x), Some(y)) => Ok(Value::Num(x + y)),
        _ => Ok(Value::Unknown),
    }
}

/// `items.join(separator)`: `null` and `undefined` elements are empty.
pub(super) fn join(items: &[Value], separator: &[Part]) -> Result<Vec<Part>, TooLarge> {
    let mut parts = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            parts.extend(separator.iter().cloned());
        }
        if !matches!(item, Value::Undefined | Value::Null) {
            parts.extend(item.to_parts()?);
        }
        // Checked as it grows, so a long array of long strings stops early.
        if parts.len() > MAX_ITEMS {
            parts = normalized(parts)?;
        }
    }
    normalized(parts)
}

/// JavaScript's `Number.prototype.toString()` in base 10: the shortest digits that read back
/// as `n`, in positional notation from 1e-6 up to 1e21 and in exponent notation beyond.
pub(super) fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".to_owned();
    }
    if n == 0.0 {
        return "0".to_owned();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    let sign = if n < 0.0 { "-" } else { "" };
    // Rust's `{:e}` writes the shortest round-trip digits as `d.ddde±x`.
    let formatted = format!("{:e}", n.abs());
    let Some((mantissa, exponent)) = formatted.split_once('e') else {
        return formatted;
    };
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let Ok(exponent) = exponent.parse::<i64>() else {
        return formatted;
    };
    let k = digits.len() as i64;
    let point = exponent + 1;
    let body = if k <= point && point <= 21 {
        format!("{digits}{}", "0".repeat((point - k) as usize))
    } else if 0 < point && point <= 21 {
        let (int, frac) = digits.split_at(point as usize);
        format!("{int}.{frac}")
    } else if -6 < point && point <= 0 {
        format!("0.{}{digits}", "0".repeat((-point) as usize))
    } else {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let sign = if point > 0 { "+" } else { "-" };
        format!("{first}{rest}e{sign}{}", (point - 1).abs())
    };
    format!("{sign}{body}")
}

/// `Number.prototype.toString(radix)` of an integer, in bases 2 to 36.
pub(super) fn integer_to_radix(n: f64, radix: u32) -> Option<String> {
    if !(2..=36).contains(&radix) || n.fract() != 0.0 || n.abs() > 9.007_199_254_740_991e15 {
        return None;
    }
    let mut value = n.abs() as u64;
    let mut digits = Vec::new();
    loop {
        let digit = u32::try_from(value % u64::from(radix)).ok()?;
        digits.push(char::from_digit(digit, radix)?);
        value /= u64::from(radix);
        if value == 0 {
            break;
        }
    }
    if n < 0.0 {
        digits.push('-');
    }
    Some(digits.iter().rev().collect())
}

/// `ToNumber` of a string: blank is 0, decimal and `0x`/`0o`/`0b` literals and `Infinity`
/// read as numbers, anything else is `NaN`.
fn string_to_number(text: &str) -> f64 {
    let text = text.trim_matches(is_js_space);
    if text.is_empty() {
        return 0.0;
    }
    for (prefix, radix) in [
        ("0x", 16),
        ("0X", 16),
        ("0o", 8),
        ("0O", 8),
        ("0b", 2),
        ("0B", 2),
    ] {
        if let Some(digits) = text.strip_prefix(prefix) {
            return u64::from_str_radix(digits, radix).map_or(f64::NAN, |n| n as f64);
        }
    }
    match text {
        "Infinity" | "+Infinity" => return f64::INFINITY,
        "-Infinity" => return f64::NEG_INFINITY,
        _ => {}
    }
    let decimal = text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'));
    if decimal {
        text.parse().unwrap_or(f64::NAN)
    } else {
        f64::NAN
    }
}

/// JavaScript's white space and line terminators, as `trim` removes them.
pub(super) fn is_js_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// An integer argument as JavaScript's `ToIntegerOrInfinity` reads it (`NaN` is 0).
pub(super) fn integer(value: Option<&Value>) -> Option<f64> {
    let n = value.map_or(Some(f64::NAN), Value::to_number)?;
    Some(if n.is_nan() { 0.0 } else { n.trunc() })
}

/// A relative index (`slice`, `at`: negative counts from the end) clamped to `0..=len`.
pub(super) fn relative(index: f64, len: usize) -> usize {
    let len_f = len as f64;
    let at = if index < 0.0 {
        (len_f + index).max(0.0)
    } else {
        index.min(len_f)
    };
    at as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_javascript_writes_them() {
        for (n, shown) in [
            (7.0, "7"),
            (-7.0, "-7"),
            (0.5, "0.5"),
            (1.25e-7, "1.25e-7"),
            (1e21, "1e+21"),
            (123456789012345680000.0, "123456789012345680000"),
            (0.000001, "0.000001"),
            (f64::NAN, "NaN"),
            (-0.0, "0"),
            (f64::INFINITY, "Infinity"),
        ] {
            assert_eq!(number_to_string(n), shown, "{n}");
        }
        assert_eq!(integer_to_radix(35.0, 36).as_deref(), Some("z"));
        assert_eq!(integer_to_radix(-255.0, 16).as_deref(), Some("-ff"));
        assert_eq!(integer_to_radix(1.5, 2), None);
    }

    #[test]
    fn plus_concatenates_when_either_side_is_a_string() {
        let sum = add(Value::str("Hunt"), Value::Num(7.0)).unwrap();
        assert_eq!(sum.known_str(), Some("Hunt7"));
        assert_eq!(
            add(Value::Num(1.0), Value::Bool(true)).unwrap(),
            Value::Num(2.0)
        );
        let partial = add(Value::Unknown, Value::str("er7")).unwrap();
        assert_eq!(
            partial,
            Value::Str(vec![Part::Unknown, Part::Known("er7".to_owned())])
        );
        assert_eq!(
            add(Value::Unknown, Value::Num(1.0)).unwrap(),
            Value::Unknown
        );
        let array = Value::Array(vec![Value::str("a"), Value::Null, Value::Num(2.0)]);
        assert_eq!(
            add(array, Value::str("")).unwrap().known_str(),
            Some("a,,2")
        );
    }

    #[test]
    fn strings_convert_to_numbers_as_javascript_converts_them() {
        assert_eq!(Value::str(" 42 ").to_number(), Some(42.0));
        assert_eq!(Value::str("0x48").to_number(), Some(72.0));
        assert_eq!(Value::str("").to_number(), Some(0.0));
        assert!(Value::str("inf").to_number().unwrap().is_nan());
        assert_eq!(Value::Str(vec![Part::Unknown]).to_number(), None);
    }

    #[test]
    fn a_string_past_the_limit_is_too_large() {
        let big = "x".repeat(MAX_CHARS);
        assert_eq!(add(Value::str(big), Value::str("y")), Err(TooLarge));
    }
}
