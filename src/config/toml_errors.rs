//! What the TOML deserializer says about `prettyplay.toml`, put in the file's own words: an
//! unknown key, section or value of a list of names gets a "did you mean" for a close known
//! name, and a wrongly typed value names the key and what it must be ("a number of seconds",
//! "true or false") instead of serde's type names ("f64", "a boolean").
//!
//! Main function: [`explain`], which turns the deserializer's message into a message and a hint.

use std::ops::Range;

use super::config_error::names_a_secret;

/// A message about the settings file and, when there is something to suggest, a hint.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Explained {
    pub(super) message: String,
    pub(super) hint: Option<String>,
}

/// Rewrites `message`, the deserializer's error about `text` at `span`, in the words of the
/// settings file. A message of another shape is kept as it is.
pub(super) fn explain(text: &str, span: Option<&Range<usize>>, message: &str) -> Explained {
    let message = message.trim_end();
    let plain = || Explained {
        message: message.to_owned(),
        hint: None,
    };
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let Some((name, expected)) = rest.split_once('`') else {
            return plain();
        };
        let on_header = span.is_some_and(|span| line_at(text, span.start).starts_with('['));
        return unknown_key(name, &quoted_names(expected), on_header);
    }
    if let Some(rest) = message.strip_prefix("unknown variant `")
        && let Some((name, expected)) = rest.split_once('`')
    {
        let key = span.and_then(|span| key_at(text, span.start));
        return unknown_value(key.as_deref(), name, &quoted_names(expected));
    }
    if let Some(rest) = message.strip_prefix("invalid type: ")
        && let Some((got, expected)) = rest.rsplit_once(", expected ")
    {
        let key = span.and_then(|span| key_at(text, span.start));
        let form = human_form(key.as_deref(), expected);
        let message = match key {
            // The value of a key that holds a secret is never echoed.
            Some(key) if names_a_secret(&key) => format!("`{key}` must be {form}"),
            Some(key) => format!("`{key}` must be {form}, got {}", human_value(got)),
            None => format!("expected {form}, got {}", human_value(got)),
        };
        return Explained {
            message,
            hint: None,
        };
    }
    plain()
}

/// The message and hint of an unknown key (or, on a `[header]` line, an unknown section) given
/// the names the place accepts.
fn unknown_key(name: &str, known: &[&str], on_header: bool) -> Explained {
    let shown = |name: &str| {
        if on_header {
            format!("`[{name}]`")
        } else {
            format!("`{name}`")
        }
    };
    let what = if on_header { "section" } else { "key" };
    let message = format!("unknown {what} {}", shown(name));
    let hint = match closest(name, known) {
        Some(close) => Some(format!("did you mean {}?", shown(close))),
        None if known.is_empty() => None,
        None => {
            let names: Vec<String> = known.iter().map(|name| format!("`{name}`")).collect();
            Some(format!("expected one of {}", names.join(", ")))
        }
    };
    Explained { message, hint }
}

/// The message and hint of a value outside a key's list of names (`generate.builtin`).
fn unknown_value(key: Option<&str>, name: &str, known: &[&str]) -> Explained {
    let message = match key {
        Some(key) => format!("`{key}` cannot be {name:?}"),
        None => format!("unknown value {name:?}"),
    };
    let hint = match closest(name, known) {
        Some(close) => Some(format!("did you mean {close:?}?")),
        None if known.is_empty() => None,
        None => {
            let names: Vec<String> = known.iter().map(|name| format!("{name:?}")).collect();
            Some(format!("expected one of {}", names.join(", ")))
        }
    };
    Explained { message, hint }
}

/// The known name closest to `name` by edit distance, if one is close enough to be what was
/// meant: case and `-` for `_` do not count, and at most a third of the name may differ (at
/// least one edit).
fn closest<'a>(name: &str, known: &[&'a str]) -> Option<&'a str> {
    let normal = |name: &str| name.to_ascii_lowercase().replace('-', "_");
    let typed = normal(name);
    let allowed = (typed.chars().count() / 3).max(1);
    known
        .iter()
        .map(|candidate| {
            (
                strsim::damerau_levenshtein(&typed, &normal(candidate)),
                *candidate,
            )
        })
        .filter(|(distance, _)| *distance <= allowed)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// The names in serde's `expected one of `a`, `b`` or `expected `a``.
fn quoted_names(expected: &str) -> Vec<&str> {
    expected.split('`').skip(1).step_by(2).collect()
}

/// What a value of `key` must be, in words, for serde's `expected` type name. Every
/// floating-point key but `temperature` is a number of seconds.
fn human_form(key: Option<&str>, expected: &str) -> String {
    let leaf = key.map(|key| key.rsplit('.').next().unwrap_or(key));
    let form = match expected {
        "f64" | "f32" if leaf == Some("temperature") => "a number, e.g. 0.2",
        "f64" | "f32" => "a number of seconds, e.g. 2.5",
        "i64" | "i32" | "u64" | "u32" | "usize" | "u16" | "u8" => "a whole number",
        "a boolean" => "true or false",
        "a string" | "a borrowed string" | "path string" => "a string in quotes",
        "a sequence" => "a list, e.g. [\"a\", \"b\"]",
        "a map" => "a table, e.g. { name = \"value\" }",
        other if other.starts_with("struct ") => "a table (a [section] of keys)",
        other => other,
    };
    form.to_owned()
}

/// serde's description of the value found (`string "5s"`, `integer `5``), as the value itself
/// where it can be quoted, else its kind.
fn human_value(got: &str) -> String {
    let ticked = |rest: &str| rest.trim_matches('`').to_owned();
    if let Some(rest) = got.strip_prefix("string ") {
        return format!("the string {rest}");
    }
    for kind in ["integer ", "floating point ", "boolean "] {
        if let Some(rest) = got.strip_prefix(kind) {
            return ticked(rest);
        }
    }
    match got {
        "sequence" => "a list".to_owned(),
        "map" => "a table".to_owned(),
        other => other.to_owned(),
    }
}

/// The line of `text` that holds byte `offset`, without leading spaces.
fn line_at(text: &str, offset: usize) -> &str {
    let offset = offset.min(text.len());
    let start = text
        .get(..offset)
        .and_then(|before| before.rfind('\n'))
        .map_or(0, |at| at + 1);
    let line = text.get(start..).unwrap_or("");
    line.split('\n').next().unwrap_or("").trim_start()
}

/// The dotted key (`browser.timeout`) of the `key = value` line holding byte `offset`: the key
/// on that line under the last `[section]` header above it. `None` when the line has no `=`
/// (a value inside a multi-line list, say).
fn key_at(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let line = line_at(text, offset);
    let (key, _) = line.split_once('=')?;
    let key = key.trim().trim_matches(['"', '\'']);
    let before = text.get(..offset)?;
    let section = before
        .lines()
        .rev()
        .skip(1)
        .map(str::trim)
        .find(|line| line.starts_with('['))
        .map(|header| header.trim_matches(['[', ']']).trim());
    Some(match section {
        Some(section) => format!("{section}.{key}"),
        None => key.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, needle: &str) -> Range<usize> {
        let start = text.find(needle).expect("needle");
        start..start + needle.len()
    }

    #[test]
    fn a_mistyped_key_gets_the_closest_known_one() {
        let text = "[browser]\ntimout = 5\n";
        let shown = explain(
            text,
            Some(&at(text, "timout")),
            "unknown field `timout`, expected one of `base_url`, `timeout`, `slow_mo`\n",
        );
        assert_eq!(
            shown,
            Explained {
                message: "unknown key `timout`".into(),
                hint: Some("did you mean `timeout`?".into()),
            }
        );
    }

    #[test]
    fn a_mistyped_section_is_named_as_a_section() {
        let text = "[brwoser]\nheadless = true\n";
        let shown = explain(
            text,
            Some(&at(text, "brwoser")),
            "unknown field `brwoser`, expected one of `scenarios`, `browser`, `llm`",
        );
        assert_eq!(shown.message, "unknown section `[brwoser]`");
        assert_eq!(shown.hint.as_deref(), Some("did you mean `[browser]`?"));
    }

    #[test]
    fn a_name_far_from_every_key_lists_them_instead() {
        let text = "[run]\nparallel = 4\n";
        let shown = explain(
            text,
            Some(&at(text, "parallel")),
            "unknown field `parallel`, expected one of `workers`, `retries`",
        );
        assert_eq!(shown.message, "unknown key `parallel`");
        assert_eq!(
            shown.hint.as_deref(),
            Some("expected one of `workers`, `retries`")
        );
    }

    #[test]
    fn closeness_ignores_case_and_dashes_and_allows_a_third_of_the_name() {
        let known = ["slow_mo", "headless", "base_url", "llm"];
        assert_eq!(closest("slow-mo", &known), Some("slow_mo"));
        assert_eq!(closest("Headless", &known), Some("headless"));
        assert_eq!(
            closest("haedless", &known),
            Some("headless"),
            "a swap is one edit"
        );
        assert_eq!(closest("baseurl", &known), Some("base_url"));
        assert_eq!(closest("lm", &known), Some("llm"));
        assert_eq!(closest("url", &known), None);
        assert_eq!(closest("anything", &[]), None);
    }

    #[test]
    fn type_errors_name_the_key_and_its_form_in_words() {
        for (text, value, serde, shown) in [
            (
                "[browser]\ntimeout = \"5s\"\n",
                "\"5s\"",
                "invalid type: string \"5s\", expected f64",
                "`browser.timeout` must be a number of seconds, e.g. 2.5, got the string \"5s\"",
            ),
            (
                "[llm]\ntemperature = true\n",
                "true",
                "invalid type: boolean `true`, expected f64",
                "`llm.temperature` must be a number, e.g. 0.2, got true",
            ),
            (
                "[browser]\nheadless = \"yes\"\n",
                "\"yes\"",
                "invalid type: string \"yes\", expected a boolean",
                "`browser.headless` must be true or false, got the string \"yes\"",
            ),
            (
                "[run]\nworkers = 2.5\n",
                "2.5",
                "invalid type: floating point `2.5`, expected i64",
                "`run.workers` must be a whole number, got 2.5",
            ),
            (
                "scenarios = 3\n",
                "3",
                "invalid type: integer `3`, expected path string",
                "`scenarios` must be a string in quotes, got 3",
            ),
            (
                "[browser]\nallowed_origins = \"x\"\n",
                "\"x\"",
                "invalid type: string \"x\", expected a sequence",
                "`browser.allowed_origins` must be a list, e.g. [\"a\", \"b\"], got the string \"x\"",
            ),
        ] {
            let shown_now = explain(text, Some(&at(text, value)), serde);
            assert_eq!(shown_now.message, shown, "{text}");
            assert_eq!(shown_now.hint, None);
        }
    }

    #[test]
    fn a_type_error_never_echoes_the_value_of_a_secret_key() {
        let text = "[browser]\nconnect_headers = { Authorization = 5 }\n";
        let shown = explain(
            text,
            Some(&at(text, "5")),
            "invalid type: integer `5`, expected a string",
        );
        assert!(!shown.message.contains('5'), "{}", shown.message);
    }

    #[test]
    fn a_mistyped_value_of_a_list_of_names_gets_the_closest() {
        let text = "[generate]\nbuiltin = \"fist\"\n";
        let shown = explain(
            text,
            Some(&at(text, "\"fist\"")),
            "unknown variant `fist`, expected one of `first`, `only`, `off`",
        );
        assert_eq!(
            shown,
            Explained {
                message: "`generate.builtin` cannot be \"fist\"".into(),
                hint: Some("did you mean \"first\"?".into()),
            }
        );
    }

    #[test]
    fn other_messages_are_kept() {
        let shown = explain(
            "x",
            None,
            "invalid TOML value, did you mean to use a quoted string?",
        );
        assert_eq!(
            shown.message,
            "invalid TOML value, did you mean to use a quoted string?"
        );
    }
}
