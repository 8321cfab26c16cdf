//! Saved storage states between tests: a test with `[saves=NAME]` (a setup test, e.g. one that
//! signs in) and the tests with `[state=NAME]` that start from what it saved. The checks here
//! span every loaded file: each state is saved by exactly one test, every state used is saved
//! by some test, and no states depend on each other in a circle.
//!
//! Entry points: [`check_states`], [`unsaved_states`] and [`is_state_name`].

use std::collections::HashMap;

use super::{Scenario, ScenarioError, Test};

/// The longest state name: it becomes a file name, `.prettyplay/state/NAME.json`.
const MAX_STATE_NAME: usize = 64;

/// A state name: 1 to 64 ASCII letters, digits, `_`, `-` or `.`, starting with a letter or a
/// digit (so it is a plain file name on every system).
pub(crate) fn is_state_name(name: &str) -> bool {
    name.len() <= MAX_STATE_NAME
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The states some test starts from that no test of `scenarios` saves, each once, sorted.
pub(crate) fn unsaved_states(scenarios: &[Scenario]) -> Vec<String> {
    let saved = savers(scenarios);
    let mut missing: Vec<String> = tests(scenarios)
        .filter_map(|(_, test)| test.state.clone())
        .filter(|state| !saved.contains_key(state.as_str()))
        .collect();
    missing.sort();
    missing.dedup();
    missing
}

/// Checks the saved states of `scenarios` together: one saving test per state, a saving test
/// for every state used, no circle of states. Every problem is reported at once.
pub(crate) fn check_states(scenarios: &[Scenario]) -> Result<(), ScenarioError> {
    let mut errors = Vec::new();
    let mut first: HashMap<&str, (&Scenario, &Test)> = HashMap::new();
    for (scenario, test) in tests(scenarios) {
        let Some(name) = test.saves.as_deref() else {
            continue;
        };
        match first.get(name) {
            Some((other_file, other)) => errors.push(ScenarioError::Between {
                file: scenario.rel_path.clone(),
                line: test.line,
                message: format!("state `{name}` is saved by a second test, `{}`", test.name),
                hint: format!(
                    "`{}` at {}:{} saves it already; give one of them another name",
                    other.name, other_file.rel_path, other.line
                ),
            }),
            None => {
                first.insert(name, (scenario, test));
            }
        }
    }
    for (scenario, test) in tests(scenarios) {
        if let Some(state) = test.state.as_deref()
            && !first.contains_key(state)
        {
            errors.push(ScenarioError::Between {
                file: scenario.rel_path.clone(),
                line: test.line,
                message: format!(
                    "no test saves state `{state}`, which `{}` starts from",
                    test.name
                ),
                hint: format!(
                    "add `[saves={state}]` to the header of the test that prepares it (e.g. signs \
                     in); prettyplay looks in the files of the run and in the `scenarios` directory"
                ),
            });
        }
    }
    // A circle: following "saved by a test that starts from" from a state comes back to it.
    let mut reported: Vec<&str> = Vec::new();
    // In file order, so the same files always give the same message.
    let starts = tests(scenarios).filter_map(|(scenario, test)| {
        let name = test.saves.as_deref()?;
        let (_, saver) = first.get(name)?;
        std::ptr::eq(*saver, test).then_some((name, scenario, test))
    });
    for (start, scenario, test) in starts {
        let mut chain = vec![start];
        let mut at = start;
        while let Some(next) = first.get(at).and_then(|(_, t)| t.state.as_deref()) {
            if next == start {
                if !chain.iter().any(|s| reported.contains(s)) {
                    reported.extend(chain.iter().copied());
                    errors.push(ScenarioError::Between {
                        file: scenario.rel_path.clone(),
                        line: test.line,
                        message: format!(
                            "states depend on each other in a circle: {} → {start}",
                            chain.join(" → ")
                        ),
                        hint: "a test that saves a state cannot, through other setup tests, \
                               start from it: remove one `[state=…]`"
                            .to_owned(),
                    });
                }
                break;
            }
            if chain.contains(&next) {
                // A circle that does not pass through `start`: reported from one of its own.
                break;
            }
            chain.push(next);
            at = next;
        }
    }
    match ScenarioError::combine(errors) {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// Every test with its file.
fn tests(scenarios: &[Scenario]) -> impl Iterator<Item = (&Scenario, &Test)> {
    scenarios
        .iter()
        .flat_map(|scenario| scenario.tests.iter().map(move |test| (scenario, test)))
}

/// State name → the first test that saves it.
fn savers(scenarios: &[Scenario]) -> HashMap<&str, &Test> {
    let mut saved = HashMap::new();
    for (_, test) in tests(scenarios) {
        if let Some(name) = test.saves.as_deref() {
            saved.entry(name).or_insert(test);
        }
    }
    saved
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse;

    fn scenario(rel_path: &str, source: &str) -> Scenario {
        let parsed = parse(rel_path, source.as_bytes()).expect("parses");
        Scenario {
            path: rel_path.into(),
            rel_path: rel_path.to_owned(),
            background: parsed.background,
            tests: parsed.tests,
        }
    }

    #[test]
    fn state_names_are_plain_file_names() {
        for ok in ["admin", "a", "user-1", "x_y.z", "9lives"] {
            assert!(is_state_name(ok), "{ok}");
        }
        let long = "a".repeat(65);
        for bad in ["", ".hidden", "-a", "a/b", "..", "a b", "é", long.as_str()] {
            assert!(!is_state_name(bad), "{bad}");
        }
    }

    #[test]
    fn states_saved_in_another_file_are_found() {
        let auth = scenario("auth.steps", "test: sign in [saves=admin]\n  sign in\n");
        let orders = scenario("orders.steps", "test: order [state=admin]\n  order\n");
        assert_eq!(unsaved_states(std::slice::from_ref(&orders)), ["admin"]);
        let both = [orders, auth];
        assert!(unsaved_states(&both).is_empty());
        check_states(&both).expect("valid");
    }

    #[test]
    fn a_state_saved_twice_or_never_is_an_error_at_the_test() {
        let a = scenario(
            "a.steps",
            "test: one [saves=s]\n  x\ntest: three [state=t]\n  x\n",
        );
        let b = scenario("b.steps", "test: two [saves=s]\n  x\n");
        let error = check_states(&[a, b]).expect_err("invalid").to_string();
        assert!(
            error.contains("b.steps:1: state `s` is saved by a second test, `two`"),
            "{error}"
        );
        assert!(
            error.contains("`one` at a.steps:1 saves it already"),
            "{error}"
        );
        assert!(
            error.contains("a.steps:3: no test saves state `t`, which `three` starts from"),
            "{error}"
        );
        assert!(error.contains("add `[saves=t]`"), "{error}");
    }

    #[test]
    fn a_circle_of_states_is_reported_once() {
        let a = scenario(
            "a.steps",
            "test: one [saves=a] [state=b]\n  x\ntest: two [saves=b] [state=a]\n  x\n\
             test: three [saves=c] [state=a]\n  x\n",
        );
        let error = check_states(&[a]).expect_err("a circle").to_string();
        assert_eq!(error.matches("in a circle").count(), 1, "{error}");
        assert!(
            error.contains("a → b → a") || error.contains("b → a → b"),
            "{error}"
        );
        // A chain is not a circle.
        let chain = scenario(
            "b.steps",
            "test: one [saves=a]\n  x\ntest: two [saves=b] [state=a]\n  x\n\
             test: three [state=b]\n  x\n",
        );
        check_states(&[chain]).expect("a chain is fine");
    }
}
