//! Step lines of a `.steps` file that are clearly a mistake rather than a sentence: a Gherkin
//! keyword line (`Feature:`, `Scenario:`…, the file should be a `.feature`), a test header
//! without its colon (`test add a todo`) or with a capital (`Test:`), and a sentence whose
//! double quote is never closed.
//!
//! Main entry point: [`mistake`]; `parse.rs` reports what it finds as an error at its column.

/// What is wrong with a line, where, and how to fix it.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Mistake {
    /// Byte offset in the line.
    pub(super) at: usize,
    pub(super) message: String,
    pub(super) hint: String,
    /// The line is a Gherkin keyword line: one such line says what the file is, so the parser
    /// reports only the first.
    pub(super) gherkin: bool,
}

/// Gherkin's English keyword lines, which never start a step sentence.
const GHERKIN_KEYWORDS: &[&str] = &[
    "Feature:",
    "Business Need:",
    "Ability:",
    "Rule:",
    "Background:",
    "Scenario Outline:",
    "Scenario Template:",
    "Scenario:",
    "Example:",
    "Examples:",
    "Scenarios:",
];

/// The first mistake of `raw`, a line that `Line::classify` read as a step.
pub(super) fn mistake(raw: &str) -> Option<Mistake> {
    let lead = raw.len() - raw.trim_start().len();
    let trimmed = raw.trim();
    if let Some(keyword) = GHERKIN_KEYWORDS.iter().find(|k| trimmed.starts_with(*k)) {
        let ours = match *keyword {
            "Background:" => " (prettyplay's own is `background:`, in lowercase)",
            "Examples:" => " (prettyplay's own is `examples:`, in lowercase)",
            "Scenario:" | "Example:" => " (a prettyplay test starts `test: NAME`)",
            _ => "",
        };
        return Some(Mistake {
            at: lead,
            message: format!("Gherkin keyword `{keyword}` in a `.steps` file"),
            hint: format!(
                "rename the file to `.feature` to run it as Gherkin (docs/gherkin.md), or write \
                 it in the `.steps` format{ours}; `prettyplay import FILE.feature` converts one"
            ),
            gherkin: true,
        });
    }
    if let Some(found) = header_without_colon(trimmed) {
        return Some(Mistake { at: lead, ..found });
    }
    unclosed_quote(raw).map(|at| Mistake {
        at,
        message: "unclosed quote".to_owned(),
        hint: "close the quoted text on the same line: `type \"buy milk\" into the field`"
            .to_owned(),
        gherkin: false,
    })
}

/// `test NAME` (no colon) or `Test: NAME` / `TEST: NAME` (not in lowercase).
fn header_without_colon(trimmed: &str) -> Option<Mistake> {
    let word_end = trimmed
        .find(|c: char| c.is_whitespace() || c == ':')
        .unwrap_or(trimmed.len());
    let (word, rest) = trimmed.split_at(word_end);
    if !word.eq_ignore_ascii_case("test") {
        return None;
    }
    if let Some(name) = rest.strip_prefix(':') {
        // `test:` itself is a header; only another case reaches here.
        return Some(Mistake {
            at: 0,
            message: format!("`{word}:` must be written in lowercase"),
            hint: format!("write `test:{name}`"),
            gherkin: false,
        });
    }
    let name = rest.trim();
    if name.is_empty() {
        return None;
    }
    Some(Mistake {
        at: 0,
        message: "test header without its colon".to_owned(),
        hint: format!(
            "a test starts `test: NAME`: write `test: {name}`; a step sentence cannot start \
             with the word `test`, so rephrase one that does (`run the test …`)"
        ),
        gherkin: false,
    })
}

/// The byte offset of a double quote (`"` or `“`) that the line never closes.
fn unclosed_quote(raw: &str) -> Option<usize> {
    let mut open: Option<(usize, char)> = None;
    for (at, c) in raw.char_indices() {
        match (open, c) {
            (None, '"') => open = Some((at, '"')),
            (None, '“') => open = Some((at, '”')),
            (Some((_, close)), c) if c == close => open = None,
            _ => {}
        }
    }
    open.map(|(at, _)| at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(raw: &str) -> Option<(usize, String)> {
        mistake(raw).map(|m| (m.at, m.message))
    }

    #[test]
    fn gherkin_keyword_lines_are_mistakes_with_a_hint() {
        let found = mistake("  Scenario: add a todo").expect("a mistake");
        assert_eq!(found.at, 2);
        assert_eq!(
            found.message,
            "Gherkin keyword `Scenario:` in a `.steps` file"
        );
        assert!(
            found.hint.contains("rename the file to `.feature`"),
            "{}",
            found.hint
        );
        assert!(found.hint.contains("`test: NAME`"), "{}", found.hint);
        for raw in [
            "Feature: todos",
            "Scenario Outline: x",
            "Examples:",
            "Rule: r",
        ] {
            assert!(mistake(raw).is_some(), "{raw}");
        }
        assert!(
            mistake("Background:")
                .expect("a mistake")
                .hint
                .contains("`background:`, in lowercase")
        );
        // Step keywords start ordinary sentences, and so does a keyword further on.
        for raw in [
            "Given I open the app",
            "the Scenario: label is shown",
            "open the app",
        ] {
            assert_eq!(message(raw), None, "{raw}");
        }
    }

    #[test]
    fn a_header_without_colon_or_in_capitals_is_a_mistake() {
        assert_eq!(
            message("test add a todo @smoke"),
            Some((0, "test header without its colon".to_owned()))
        );
        let found = mistake("  test add a todo").expect("a mistake");
        assert_eq!(found.at, 2);
        assert!(
            found.hint.contains("write `test: add a todo`"),
            "{}",
            found.hint
        );
        assert_eq!(
            message("Test: add"),
            Some((0, "`Test:` must be written in lowercase".to_owned()))
        );
        for raw in [
            "test",
            "testing the search",
            "tests pass",
            "the test passes",
        ] {
            assert_eq!(message(raw), None, "{raw}");
        }
    }

    #[test]
    fn an_unclosed_double_quote_is_found_at_its_opening() {
        assert_eq!(
            message("type \"buy milk into the field"),
            Some((5, "unclosed quote".to_owned()))
        );
        assert_eq!(
            message("see \"a\" and \"b"),
            Some((12, "unclosed quote".to_owned()))
        );
        assert_eq!(mistake("type “milk into it").map(|m| m.at), Some(5));
        for raw in [
            "type \"buy milk\" into the field",
            "the user's name is shown",
            "see “a” and \"b\"",
        ] {
            assert_eq!(message(raw), None, "{raw}");
        }
    }
}
