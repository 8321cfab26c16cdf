//! Placeholders in step sentences: `${NAME}` (a variable of `[vars]`, `.env` or the
//! environment) and `<column>` (a column of the test's `examples:` table). Neither is filled in
//! the sentence: the sentence as written is the step's identity and what the LLM sees; step code
//! reads the values as `vars.NAME`.
//!
//! Main functions: [`variables`], [`columns`], [`malformed_variable`] and [`is_var_name`].
//! Documented in `docs/steps-format.md`.

/// Whether `name` can be a variable or a column: ASCII letters, digits and `_`, not starting
/// with a digit (so step code can write `vars.NAME`).
pub(crate) fn is_var_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The `${NAME}` variables of `sentence`, in order, with their byte offsets.
pub(crate) fn variables(sentence: &str) -> Vec<(&str, usize)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = sentence[from..].find("${").map(|i| i + from) {
        let rest = &sentence[at + 2..];
        match rest.find('}') {
            Some(end) if is_var_name(&rest[..end]) => {
                found.push((&rest[..end], at));
                from = at + 2 + end + 1;
            }
            _ => from = at + 2,
        }
    }
    found
}

/// The byte offset of the first `${` that does not start a well-formed `${NAME}`, if any.
pub(crate) fn malformed_variable(sentence: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = sentence[from..].find("${").map(|i| i + from) {
        let rest = &sentence[at + 2..];
        match rest.find('}') {
            Some(end) if is_var_name(&rest[..end]) => from = at + 2 + end + 1,
            _ => return Some(at),
        }
    }
    None
}

/// The `<column>` placeholders of `sentence`, in order, with their byte offsets. Only
/// identifier-shaped names count: `a < b > c` holds none.
pub(crate) fn columns(sentence: &str) -> Vec<(&str, usize)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(at) = sentence[from..].find('<').map(|i| i + from) {
        let rest = &sentence[at + 1..];
        match rest.find('>') {
            Some(end) if is_var_name(&rest[..end]) => {
                found.push((&rest[..end], at));
                from = at + 1 + end + 1;
            }
            _ => from = at + 1,
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_are_dollar_brace_names() {
        assert_eq!(
            variables("type ${PASSWORD} and ${user_1} but not ${bad name} or $X"),
            [("PASSWORD", 5), ("user_1", 21)]
        );
        assert_eq!(malformed_variable("type ${PASSWORD}"), None);
        assert_eq!(malformed_variable("a ${ok} b ${bad name}"), Some(10));
        assert_eq!(malformed_variable("a ${unclosed"), Some(2));
        assert_eq!(malformed_variable("a ${}"), Some(2));
        assert_eq!(malformed_variable("costs $5 {x}"), None);
    }

    #[test]
    fn columns_are_angle_bracket_names() {
        assert_eq!(
            columns("add <item> for <user> when 1 < 2 > 0 or <not a column>"),
            [("item", 4), ("user", 15)]
        );
        assert!(columns("a <b").is_empty());
    }

    #[test]
    fn names_are_identifiers() {
        for ok in ["A", "user", "_x1", "PASS_WORD"] {
            assert!(is_var_name(ok), "{ok}");
        }
        for bad in ["", "1a", "a-b", "a b", "é"] {
            assert!(!is_var_name(bad), "{bad}");
        }
    }
}
