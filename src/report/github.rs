//! GitHub Actions workflow commands: with `GITHUB_ACTIONS=true`, the terminal reporters also print
//! an `::error file=...,line=...,title=...::message` line per failed test, which GitHub shows as
//! an annotation on the step's line of the scenario file.
//!
//! Main function: [`error_annotation`].

use super::details::{failure_label, failure_text, failure_verdict};
use crate::runner::{TestFailure, TestId};
use crate::visible::visible;

/// The `::error` line (without its newline) for a failed test.
pub(crate) fn error_annotation(test: &TestId, failure: &TestFailure) -> String {
    let mut message = format!(
        "step {} ({}) failed: {}\n{}",
        failure.step_index,
        failure.step,
        failure_label(failure),
        failure_text(test, failure)
    );
    if let Some(verdict) = failure_verdict(failure) {
        message.push_str(&format!(
            "\nverdict: {}: {}\nrecommendation: {}",
            verdict.category, verdict.explanation, verdict.recommendation
        ));
    }
    let line = format!(
        "::error file={},line={},title={}::{}",
        escape_property(&test.scenario),
        failure.line,
        escape_property(&test.to_string()),
        escape_data(message.trim_end())
    );
    // The line goes to the terminal too: no control character of a page reaches it raw.
    visible(&line).into_owned()
}

/// Escapes a command's message: `%`, CR and LF (`%0A` for a newline).
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command's property value: as the message, plus `:` and `,`.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::testing;

    #[test]
    fn annotation_names_the_step_line_and_escapes_newlines_and_separators() {
        let test = testing::id("scenarios/a,b.steps", "log in: 100%", 2);
        let line = error_annotation(&test, &testing::check_failure());
        assert_eq!(
            line,
            "::error file=scenarios/a%2Cb.steps,line=4,title=scenarios/a%2Cb.steps › log in%3A \
             100%25::step 2 (the list shows \"milk\") failed: failed check%0A\
             expect(locator).toHaveText(expected) failed"
        );
        assert!(!line.contains('\n'));
    }

    #[test]
    fn annotation_of_a_product_defect_carries_the_verdict() {
        let test = testing::id("scenarios/login.steps", "log in", 2);
        let line = error_annotation(&test, &testing::defect_failure());
        assert!(line.contains("failed: PRODUCT DEFECT%0A"), "{line}");
        assert!(
            line.contains("%0Averdict: product_defect: expected the greeting"),
            "{line}"
        );
        assert!(line.contains("%0Arecommendation: fix how"), "{line}");
    }

    #[test]
    fn the_title_of_a_test_of_a_browser_project_names_the_project() {
        let test = testing::id("scenarios/login.steps", "log in", 2).in_project(Some("firefox"));
        let line = error_annotation(&test, &testing::check_failure());
        assert!(
            line.starts_with(
                "::error file=scenarios/login.steps,line=4,title=[firefox] scenarios/login.steps › \
                 log in::step 2"
            ),
            "{line}"
        );
    }
}
