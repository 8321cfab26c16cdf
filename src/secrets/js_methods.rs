//! The pure built-in functions and methods the constant folder evaluates: string methods
//! (`concat`, `slice`, `split`, `replace` with a plain string, `toUpperCase`, `repeat`, ...),
//! array methods (`join`, `reverse`, `concat`, `slice`, `flat`, `at`), `Number.prototype.toString`
//! with a radix, and the globals `String`, `String.fromCharCode`, `String.fromCodePoint`,
//! `atob`, `JSON.parse`, `Array(...)`, `Array.of`, `Array.from`, `Object.values` and
//! `Object.keys`.
//!
//! Main functions: [`string_method`], [`array_method`], [`number_method`], [`global_call`].
//! Each returns `Ok(None)` for what it does not evaluate, which the folder treats as a value
//! known only at run time.

use base64::Engine as _;

use super::js_value::{
    MAX_CHARS, MAX_ITEMS, Part, TooLarge, Value, integer, integer_to_radix, is_js_space, join,
    normalized, relative,
};

/// The global functions the folder evaluates, as called (`String.fromCharCode`).
pub(super) const GLOBAL_FUNCTIONS: &[&str] = &[
    "String",
    "String.fromCharCode",
    "String.fromCodePoint",
    "atob",
    "JSON.parse",
    "Array",
    "Array.of",
    "Array.from",
    "Object.values",
    "Object.keys",
];

type Folded = Result<Option<Value>, TooLarge>;

fn units(text: &str) -> Vec<u16> {
    text.encode_utf16().collect()
}

fn from_units(units: &[u16]) -> Value {
    Value::str(String::from_utf16_lossy(units))
}

/// The string argument `i`, known in full (`undefined` when absent is `None`).
fn str_arg(args: &[Value], i: usize) -> Option<String> {
    let parts = args.get(i)?.to_parts().ok()?;
    match parts.as_slice() {
        [] => Some(String::new()),
        [Part::Known(text)] => Some(text.clone()),
        _ => None,
    }
}

/// `text.NAME(args)` for a string known in full.
pub(super) fn string_method(text: &str, name: &str, args: &[Value]) -> Folded {
    let len = text.encode_utf16().count();
    let value = match name {
        "toString" | "valueOf" => Value::str(text),
        "toUpperCase" | "toLocaleUpperCase" => Value::str(text.to_uppercase()),
        "toLowerCase" | "toLocaleLowerCase" => Value::str(text.to_lowercase()),
        "trim" => Value::str(text.trim_matches(is_js_space)),
        "trimStart" | "trimLeft" => Value::str(text.trim_start_matches(is_js_space)),
        "trimEnd" | "trimRight" => Value::str(text.trim_end_matches(is_js_space)),
        "concat" => {
            let mut parts = vec![Part::Known(text.to_owned())];
            for arg in args {
                parts.extend(arg.to_parts()?);
            }
            Value::Str(normalized(parts)?)
        }
        "slice" | "substring" | "substr" => {
            let Some(start) = integer(args.first()) else {
                return Ok(None);
            };
            let end = match args.get(1) {
                None | Some(Value::Undefined) => None,
                Some(end) => match integer(Some(end)) {
                    Some(end) => Some(end),
                    None => return Ok(None),
                },
            };
            let (from, to) = match name {
                "slice" => (
                    relative(start, len),
                    end.map_or(len, |end| relative(end, len)),
                ),
                "substring" => {
                    let clamp = |n: f64| n.clamp(0.0, len as f64) as usize;
                    let (a, b) = (clamp(start), end.map_or(len, clamp));
                    (a.min(b), a.max(b))
                }
                _ => {
                    let from = relative(start, len);
                    let count = end.map_or(len as f64, |n| n.max(0.0));
                    (from, (from as f64 + count).min(len as f64) as usize)
                }
            };
            let units = units(text);
            from_units(units.get(from..to.max(from)).unwrap_or_default())
        }
        "charAt" | "at" => {
            let Some(index) = integer(args.first()) else {
                return Ok(None);
            };
            let index = if name == "at" && index < 0.0 {
                index + len as f64
            } else {
                index
            };
            if index < 0.0 || index >= len as f64 {
                return Ok(Some(if name == "at" {
                    Value::Undefined
                } else {
                    Value::str("")
                }));
            }
            let units = units(text);
            from_units(&units[index as usize..=index as usize])
        }
        "charCodeAt" | "codePointAt" => {
            let Some(index) = integer(args.first()) else {
                return Ok(None);
            };
            let units = units(text);
            match (index >= 0.0).then(|| units.get(index as usize)).flatten() {
                Some(unit) => Value::Num(f64::from(*unit)),
                None => return Ok(None),
            }
        }
        "repeat" => {
            let Some(count) = integer(args.first()) else {
                return Ok(None);
            };
            if !(0.0..=MAX_CHARS as f64).contains(&count)
                || text.len() as f64 * count > MAX_CHARS as f64
            {
                return Err(TooLarge);
            }
            Value::str(text.repeat(count as usize))
        }
        "padStart" | "padEnd" => {
            let Some(target) = integer(args.first()) else {
                return Ok(None);
            };
            if target > MAX_CHARS as f64 {
                return Err(TooLarge);
            }
            let filler = match args.get(1) {
                None | Some(Value::Undefined) => " ".to_owned(),
                Some(_) => match str_arg(args, 1) {
                    Some(filler) => filler,
                    None => return Ok(None),
                },
            };
            let missing = (target as usize).saturating_sub(len);
            let filler: Vec<u16> = units(&filler);
            if missing == 0 || filler.is_empty() {
                return Ok(Some(Value::str(text)));
            }
            let pad: Vec<u16> = filler.iter().copied().cycle().take(missing).collect();
            let pad = String::from_utf16_lossy(&pad);
            Value::str(if name == "padStart" {
                format!("{pad}{text}")
            } else {
                format!("{text}{pad}")
            })
        }
        "split" => {
            let limit = match args.get(1) {
                None | Some(Value::Undefined) => usize::MAX,
                Some(n) => match n.to_number() {
                    Some(n) if n >= 0.0 => n as usize,
                    _ => return Ok(None),
                },
            };
            let pieces: Vec<Value> = match args.first() {
                None | Some(Value::Undefined) => vec![Value::str(text)],
                Some(_) => {
                    let Some(separator) = str_arg(args, 0) else {
                        return Ok(None);
                    };
                    if separator.is_empty() {
                        units(text).chunks(1).map(from_units).collect()
                    } else {
                        text.split(separator.as_str()).map(Value::str).collect()
                    }
                }
            };
            if pieces.len() > MAX_ITEMS {
                return Err(TooLarge);
            }
            Value::Array(pieces.into_iter().take(limit).collect())
        }
        "replace" | "replaceAll" => {
            let (Some(pattern), Some(replacement)) = (str_arg(args, 0), str_arg(args, 1)) else {
                return Ok(None);
            };
            // `$&`, `$1`... are patterns in a replacement string; such replacements are left
            // to run time.
            if replacement.contains('$') {
                return Ok(None);
            }
            let replaced = if name == "replace" {
                text.replacen(&pattern, &replacement, 1)
            } else if pattern.is_empty() {
                return Ok(None);
            } else {
                text.replace(&pattern, &replacement)
            };
            if replaced.len() > MAX_CHARS {
                return Err(TooLarge);
            }
            Value::str(replaced)
        }
        _ => return Ok(None),
    };
    Ok(Some(value))
}

/// `parts.NAME(args)` for a string with parts known only at run time: only the methods that
/// act on each part alone.
pub(super) fn partial_string_method(parts: &[Part], name: &str, args: &[Value]) -> Folded {
    let map = |f: fn(&str) -> String| {
        parts
            .iter()
            .map(|p| match p {
                Part::Known(text) => Part::Known(f(text)),
                Part::Unknown => Part::Unknown,
            })
            .collect::<Vec<_>>()
    };
    let parts = match name {
        "toString" | "valueOf" => parts.to_vec(),
        "toUpperCase" | "toLocaleUpperCase" => map(str::to_uppercase),
        "toLowerCase" | "toLocaleLowerCase" => map(str::to_lowercase),
        "concat" => {
            let mut all = parts.to_vec();
            for arg in args {
                all.extend(arg.to_parts()?);
            }
            all
        }
        _ => return Ok(None),
    };
    Ok(Some(Value::Str(normalized(parts)?)))
}

/// `items.NAME(args)` for an array literal.
pub(super) fn array_method(items: &[Value], name: &str, args: &[Value]) -> Folded {
    let value = match name {
        "join" | "toString" => {
            let separator = match args.first() {
                Some(separator) if name == "join" && !matches!(separator, Value::Undefined) => {
                    separator.to_parts()?
                }
                _ => vec![Part::Known(",".to_owned())],
            };
            Value::Str(join(items, &separator)?)
        }
        "reverse" | "toReversed" => Value::Array(items.iter().rev().cloned().collect()),
        "concat" => {
            let mut all = items.to_vec();
            for arg in args {
                match arg {
                    Value::Array(more) => all.extend(more.iter().cloned()),
                    Value::Unknown => return Ok(None),
                    other => all.push(other.clone()),
                }
            }
            if all.len() > MAX_ITEMS {
                return Err(TooLarge);
            }
            Value::Array(all)
        }
        "slice" => {
            let (Some(start), end) = (integer(args.first()), args.get(1)) else {
                return Ok(None);
            };
            let end = match end {
                None | Some(Value::Undefined) => items.len(),
                Some(end) => match integer(Some(end)) {
                    Some(end) => relative(end, items.len()),
                    None => return Ok(None),
                },
            };
            let start = relative(start, items.len());
            Value::Array(
                items
                    .get(start..end.max(start))
                    .unwrap_or_default()
                    .to_vec(),
            )
        }
        "flat" => {
            let mut all = Vec::new();
            for item in items {
                match item {
                    Value::Array(inner) => all.extend(inner.iter().cloned()),
                    other => all.push(other.clone()),
                }
            }
            Value::Array(all)
        }
        "at" => {
            let Some(index) = integer(args.first()) else {
                return Ok(None);
            };
            let index = if index < 0.0 {
                index + items.len() as f64
            } else {
                index
            };
            if index < 0.0 {
                Value::Undefined
            } else {
                items
                    .get(index as usize)
                    .cloned()
                    .unwrap_or(Value::Undefined)
            }
        }
        _ => return Ok(None),
    };
    Ok(Some(value))
}

/// `n.NAME(args)` for a number: `toString` with or without a radix.
pub(super) fn number_method(n: f64, name: &str, args: &[Value]) -> Folded {
    if name != "toString" {
        return Ok(None);
    }
    let radix = match args.first() {
        None | Some(Value::Undefined) => 10.0,
        Some(radix) => match radix.to_number() {
            Some(radix) => radix,
            None => return Ok(None),
        },
    };
    if radix == 10.0 {
        return Ok(Some(Value::str(super::js_value::number_to_string(n))));
    }
    Ok(integer_to_radix(n, radix as u32).map(Value::str))
}

/// A call of one of [`GLOBAL_FUNCTIONS`].
pub(super) fn global_call(name: &str, args: &[Value]) -> Folded {
    let value = match name {
        "String" => match args.first() {
            None => Value::str(""),
            Some(arg) => Value::Str(arg.to_parts()?),
        },
        "String.fromCharCode" => {
            let mut units = Vec::with_capacity(args.len());
            for arg in args {
                let Some(n) = arg.to_number() else {
                    return Ok(None);
                };
                // ToUint16.
                let n = if n.is_finite() { n.trunc() } else { 0.0 };
                units.push(n.rem_euclid(65536.0) as u16);
            }
            from_units(&units)
        }
        "String.fromCodePoint" => {
            let mut text = String::with_capacity(args.len());
            for arg in args {
                let Some(c) = arg
                    .to_number()
                    .filter(|n| n.fract() == 0.0 && (0.0..=1_114_111.0).contains(n))
                    .and_then(|n| char::from_u32(n as u32))
                else {
                    return Ok(None);
                };
                text.push(c);
            }
            Value::str(text)
        }
        "atob" => {
            let Some(encoded) = str_arg(args, 0) else {
                return Ok(None);
            };
            let encoded: String = encoded.chars().filter(|c| !is_js_space(*c)).collect();
            let engine = base64::engine::general_purpose::GeneralPurpose::new(
                &base64::alphabet::STANDARD,
                base64::engine::GeneralPurposeConfig::new()
                    .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent)
                    .with_decode_allow_trailing_bits(true),
            );
            match engine.decode(encoded.as_bytes()) {
                // `atob` gives one character per byte (Latin-1).
                Ok(bytes) => Value::str(bytes.iter().map(|b| char::from(*b)).collect::<String>()),
                Err(_) => return Ok(None),
            }
        }
        "JSON.parse" => {
            let Some(text) = str_arg(args, 0) else {
                return Ok(None);
            };
            match serde_json::from_str::<serde_json::Value>(&text) {
                Ok(json) => from_json(&json),
                Err(_) => return Ok(None),
            }
        }
        "Array" => match args {
            [Value::Num(n)] => {
                if n.fract() != 0.0 || *n < 0.0 || *n > MAX_ITEMS as f64 {
                    return Err(TooLarge);
                }
                Value::Array(vec![Value::Undefined; *n as usize])
            }
            [Value::Unknown] => return Ok(None),
            _ => Value::Array(args.to_vec()),
        },
        "Array.of" => Value::Array(args.to_vec()),
        "Object.values" | "Object.keys" => match args.first() {
            Some(Value::Object(entries)) => Value::Array(
                entries
                    .iter()
                    .map(|(key, value)| {
                        if name == "Object.keys" {
                            Value::str(key.clone())
                        } else {
                            value.clone()
                        }
                    })
                    .collect(),
            ),
            _ => return Ok(None),
        },
        "Array.from" => match args {
            [Value::Array(items)] => Value::Array(items.clone()),
            [value @ Value::Str(_)] => match value.known_str() {
                Some(text) => {
                    Value::Array(text.chars().map(|c| Value::str(c.to_string())).collect())
                }
                None => return Ok(None),
            },
            _ => return Ok(None),
        },
        _ => return Ok(None),
    };
    Ok(Some(value))
}

fn from_json(json: &serde_json::Value) -> Value {
    match json {
        serde_json::Value::Null => Value::Null,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => n.as_f64().map_or(Value::Unknown, Value::Num),
        serde_json::Value::String(s) => Value::str(s.clone()),
        serde_json::Value::Array(items) => Value::Array(items.iter().map(from_json).collect()),
        serde_json::Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), from_json(value)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(folded: Folded) -> String {
        folded
            .expect("not too large")
            .expect("folded")
            .known_str()
            .expect("a known string")
            .to_owned()
    }

    fn s(text: &str) -> Value {
        Value::str(text)
    }

    #[test]
    fn string_methods_fold_as_javascript_runs_them() {
        assert_eq!(
            text(string_method("Hunter7", "slice", &[Value::Num(-3.0)])),
            "er7"
        );
        assert_eq!(
            text(string_method(
                "Hunter7",
                "substring",
                &[Value::Num(4.0), Value::Num(1.0)]
            )),
            "unt"
        );
        assert_eq!(
            text(string_method(
                "Hunter7",
                "substr",
                &[Value::Num(1.0), Value::Num(2.0)]
            )),
            "un"
        );
        assert_eq!(
            text(string_method("ab", "repeat", &[Value::Num(2.0)])),
            "abab"
        );
        assert_eq!(
            text(string_method("7", "padStart", &[Value::Num(3.0), s("er")])),
            "er7"
        );
        assert_eq!(text(string_method("HUNT", "toLowerCase", &[])), "hunt");
        assert_eq!(
            text(string_method("a-b-a", "replaceAll", &[s("a"), s("H")])),
            "H-b-H"
        );
        assert_eq!(string_method("a", "replace", &[s("a"), s("$&")]), Ok(None));
        assert_eq!(
            string_method("ab", "split", &[s("")]),
            Ok(Some(Value::Array(vec![s("a"), s("b")])))
        );
        assert_eq!(
            string_method("x", "repeat", &[Value::Num(1e9)]),
            Err(TooLarge)
        );
    }

    #[test]
    fn arrays_join_reverse_and_concat() {
        let items = vec![s("Hu"), s("nt"), Value::Num(7.0)];
        assert_eq!(text(array_method(&items, "join", &[s("")])), "Hunt7");
        assert_eq!(text(array_method(&items, "join", &[])), "Hu,nt,7");
        let reversed = array_method(&items, "reverse", &[]).unwrap().unwrap();
        assert_eq!(
            reversed,
            Value::Array(vec![Value::Num(7.0), s("nt"), s("Hu")])
        );
        let partial = array_method(&[s("Hu"), Value::Unknown, s("nt")], "join", &[s("-")])
            .unwrap()
            .unwrap();
        assert_eq!(
            partial,
            Value::Str(vec![
                Part::Known("Hu-".to_owned()),
                Part::Unknown,
                Part::Known("-nt".to_owned())
            ])
        );
    }

    #[test]
    fn globals_build_strings_from_codes_and_encodings() {
        let codes: Vec<Value> = "Hunt"
            .chars()
            .map(|c| Value::Num(f64::from(c as u32)))
            .collect();
        assert_eq!(text(global_call("String.fromCharCode", &codes)), "Hunt");
        assert_eq!(text(global_call("String.fromCodePoint", &codes)), "Hunt");
        assert_eq!(text(global_call("atob", &[s("SHVudGVyNw==")])), "Hunter7");
        assert_eq!(text(global_call("atob", &[s("SHVudGVyNw")])), "Hunter7");
        let parsed = global_call("JSON.parse", &[s("[\"Hu\",\"nt\"]")])
            .unwrap()
            .unwrap();
        assert_eq!(
            text(array_method(
                match &parsed {
                    Value::Array(items) => items,
                    _ => panic!("an array"),
                },
                "join",
                &[s("")]
            )),
            "Hunt"
        );
        assert_eq!(
            text(number_method(35.0, "toString", &[Value::Num(36.0)])),
            "z"
        );
    }
}
