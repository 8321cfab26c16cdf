//! The refusal of an `[optional]` check: a step that may be skipped must be a whole action, never
//! assert about the page in any of its clauses, because a skipped check would pass silently
//! (`click "Show payment" and the page says "Paid" [optional]` on a build without the button
//! checks nothing). Whether a sentence or one of its clauses reads as a check is the built-in
//! generator's decision (`writer::check_clause`), which the scenario parser cannot ask (the
//! scenario layer sits below the engine), so the CLI asks it once the scenarios are loaded and
//! before anything starts.
//!
//! Main function: [`refuse_optional_checks`].

use crate::scenario::{Scenario, ScenarioError, Step};
use crate::writer::check_clause;

/// Fails with every optional step of `scenarios` whose sentence has a check in it, each at its
/// `file:line:col` (the column of its `[optional]`).
pub(crate) fn refuse_optional_checks(scenarios: &[Scenario]) -> Result<(), ScenarioError> {
    let mut errors = Vec::new();
    for scenario in scenarios {
        let mut seen: Vec<usize> = Vec::new();
        let steps = scenario
            .background
            .iter()
            .map(|step| (step, &[][..]))
            .chain(
                scenario
                    .tests
                    .iter()
                    .flat_map(|test| test.steps.iter().map(move |step| (step, test.columns()))),
            );
        for (step, columns) in steps {
            // A step of an examples table is in every row's test; it is refused once.
            if !step.optional || seen.contains(&step.line) {
                continue;
            }
            if let Some(clause) = check_clause(&step.sentence, columns) {
                seen.push(step.line);
                errors.push(refusal(scenario, step, &clause));
            }
        }
    }
    match ScenarioError::combine(errors) {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// The error for `step`, an optional step of `scenario` whose `clause` is a check, shown on its
/// line as written.
fn refusal(scenario: &Scenario, step: &Step, clause: &str) -> ScenarioError {
    // The file was just read to parse it; if it cannot be read again the line is left out
    // rather than the refusal lost.
    let text = std::fs::read_to_string(&scenario.path)
        .ok()
        .and_then(|source| source.lines().nth(step.line - 1).map(str::to_owned))
        .unwrap_or_default();
    let col = text
        .rfind("[optional")
        .or_else(|| text.find(step.sentence.as_str()))
        .map_or(1, |at| text[..at].chars().count() + 1);
    ScenarioError::Parse {
        file: scenario.rel_path.clone(),
        line: step.line,
        col,
        text,
        message: if clause == step.sentence.trim() {
            format!(
                "a check cannot be optional: `{}` reads as a check",
                step.sentence
            )
        } else {
            format!(
                "a check cannot be optional: `{}` checks `{clause}`",
                step.sentence
            )
        },
        hint: Some(
            "remove `[optional]` (a check must hold), or make the optional step the action alone \
             and write the check as a step of its own"
                .to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(dir: &std::path::Path, text: &str) -> Vec<Scenario> {
        std::fs::create_dir_all(dir.join("scenarios")).unwrap();
        std::fs::write(dir.join("scenarios/a.steps"), text).unwrap();
        crate::scenario::load(dir, &[dir.join("scenarios")]).unwrap()
    }

    #[test]
    fn an_optional_check_is_refused_at_its_option() {
        let dir = tempfile::tempdir().unwrap();
        let scenarios = load(
            dir.path(),
            "test: t\n  click \"Accept\" [optional]\n  the \"Accept\" button is shown [optional]\n",
        );
        let error = refuse_optional_checks(&scenarios).unwrap_err();
        let shown = error.to_string();
        assert!(
            shown.starts_with(
                "scenarios/a.steps:3:32: a check cannot be optional: `the \"Accept\" button is \
                 shown` reads as a check"
            ),
            "{shown}"
        );
        assert!(shown.contains("remove `[optional]`"), "{shown}");
    }

    #[test]
    fn an_optional_step_with_a_check_clause_is_refused_at_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let scenarios = load(
            dir.path(),
            "test: t\n  open the app\n  click \"Show payment\" and the page says \"Paid\" [optional]\n  expect the payment to be visible [optional]\n",
        );
        let shown = refuse_optional_checks(&scenarios).unwrap_err().to_string();
        assert!(
            shown.contains(
                "scenarios/a.steps:3:49: a check cannot be optional: `click \"Show payment\" and \
                 the page says \"Paid\"` checks `the page says \"Paid\"`"
            ),
            "{shown}"
        );
        assert!(
            shown.contains(
                "scenarios/a.steps:4:36: a check cannot be optional: `expect the payment to be \
                 visible` reads as a check"
            ),
            "{shown}"
        );
    }

    #[test]
    fn optional_actions_and_plain_checks_pass() {
        let dir = tempfile::tempdir().unwrap();
        let scenarios = load(
            dir.path(),
            "test: t\n  accept the cookie banner [optional]\n  the page shows \"Hi\"\n",
        );
        refuse_optional_checks(&scenarios).unwrap();
    }
}
