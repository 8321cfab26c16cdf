//! The JavaScript of the values a sentence writes: a string literal, `vars.NAME` for a
//! placeholder (`${NAME}`, `<column>`), a regular expression that matches a text literally or on
//! word boundaries.
//!
//! Main function: [`value_js`].

use crate::writer::builtin::intent::Literal;
use crate::writer::builtin::locator::js_str;
use crate::writer::builtin::resolve::bounded_regex_js;

/// The JavaScript of a value: a string literal, or `vars.NAME` for a placeholder (a template
/// literal when placeholders are part of a longer text).
pub(crate) fn value_js(value: &Literal) -> String {
    let text = value.0.as_str();
    if let Some(name) = placeholder(text) {
        return format!("vars.{name}");
    }
    if !text.contains("${") {
        return js_str(text);
    }
    // `Hello ${NAME}`: a template literal whose placeholders read vars.
    let mut out = String::from("`");
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        out.push_str(&escape_template(&rest[..at]));
        match rest[at..].find('}') {
            Some(end) => {
                let name = &rest[at + 2..at + end];
                // Only a variable name becomes code; anything else stays text, so a sentence
                // cannot write code of its own into the step.
                if crate::writer::builtin::http_js::is_identifier(name) {
                    out.push_str(&format!("${{vars.{name}}}"));
                } else {
                    out.push_str(&escape_template(&rest[at..at + end + 1]));
                }
                rest = &rest[at + end + 1..];
            }
            None => {
                out.push_str(&escape_template(&rest[at..]));
                rest = "";
            }
        }
    }
    out.push_str(&escape_template(rest));
    out.push('`');
    out
}

fn escape_template(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('`', "\\`")
        .replace("${", "\\${")
}

/// `NAME` when `text` is exactly `${NAME}` or `<NAME>`.
pub(crate) fn placeholder(text: &str) -> Option<&str> {
    let name = text
        .strip_prefix("${")
        .and_then(|t| t.strip_suffix('}'))
        .or_else(|| text.strip_prefix('<').and_then(|t| t.strip_suffix('>')))?;
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then_some(name)
}

/// A regular expression matching `value` literally, up to the text's end when `to_end` (a
/// placeholder's value is only known when the step runs, so its expression is not anchored).
pub(crate) fn regex_js(value: &Literal, to_end: bool) -> String {
    if placeholder(&value.0).is_some() || value.0.contains("${") {
        return format!(
            "new RegExp({}.replace(/[.*+?^${{}}()|[\\]\\\\]/g, '\\\\$&'))",
            value_js(value)
        );
    }
    let mut out = String::from("/");
    for c in value.0.chars() {
        if "\\^$.|?*+()[]{}/".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    if to_end {
        out.push('$');
    }
    out.push('/');
    out
}

/// A regular expression that finds `value` in a text on word boundaries, never inside a longer
/// number or word (see [`bounded_regex_js`]). A placeholder's value is only known when the step
/// runs, so its expression is escaped and bounded on both sides then, a number's rest (a
/// separator and a digit) kept out on both sides whatever the value ends with.
pub(crate) fn bounded_js(value: &Literal) -> String {
    if placeholder(&value.0).is_some() || value.0.contains("${") {
        return format!(
            "new RegExp('(?<![\\\\p{{L}}\\\\p{{N}}_]|\\\\p{{N}}[.,])' + {}.replace(/[.*+?^${{}}()|[\\]\\\\/]/g, '\\\\$&') + '(?![\\\\p{{L}}\\\\p{{N}}_]|[.,]\\\\p{{N}})', 'u')",
            value_js(value)
        );
    }
    bounded_regex_js(&value.0)
}
