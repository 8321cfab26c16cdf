//! A step's identity in the cache.
//!
//! Main type: [`StepKey`]. The identity is made only of what the user wrote in the scenario (its
//! path, the test name — or `background` for a step of the file's `background:` block — the step
//! sentence and which occurrence of that sentence in the test or block), never of the LLM, its
//! prompts or any setting, so switching models or settings never invalidates code. A test of an
//! `examples:` table is known by its name as written: every row shares its entries.

use std::fmt;

use crate::scenario::{Scenario, Step, Test};

/// Identity of one step: the key of a cache entry.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StepKey {
    /// The scenario's path relative to the project root, `/`-separated (e.g. `scenarios/todo.steps`).
    pub scenario: String,
    /// The test name as written (without an example row); `None` for a step of the file's
    /// `background:` block, which every test of the file shares.
    pub test: Option<String>,
    /// The step sentence, trimmed, without step options.
    pub step: String,
    /// The n-th time this exact sentence appears in the test (or the background), from 1.
    pub occurrence: u32,
}

impl StepKey {
    /// The key of `step`, which belongs to `test` of `scenario`.
    pub fn of(scenario: &Scenario, test: &Test, step: &Step) -> Self {
        Self {
            scenario: scenario.rel_path.clone(),
            test: Some(test.identity().to_owned()),
            step: step.sentence.clone(),
            occurrence: step.occurrence,
        }
    }

    /// The key of `step` of `scenario`'s `background:` block.
    pub fn background(scenario: &Scenario, step: &Step) -> Self {
        Self {
            scenario: scenario.rel_path.clone(),
            test: None,
            step: step.sentence.clone(),
            occurrence: step.occurrence,
        }
    }

    /// Whether this is the key of a background step.
    pub fn is_background(&self) -> bool {
        self.test.is_none()
    }

    /// All keys of a scenario, each once, in scenario order (the background, then test order,
    /// then step order; the rows of an examples table share theirs).
    pub fn all_of(scenario: &Scenario) -> impl Iterator<Item = StepKey> + '_ {
        let background = scenario
            .background
            .iter()
            .map(move |step| Self::background(scenario, step));
        let tests = scenario
            .tests
            .iter()
            .enumerate()
            .filter(move |(i, test)| {
                // Only the first row of a table: the others have the same keys.
                test.example.is_none()
                    || scenario.tests[..*i]
                        .iter()
                        .all(|earlier| earlier.identity() != test.identity())
            })
            .flat_map(move |(_, test)| {
                test.steps
                    .iter()
                    .map(move |step| Self::of(scenario, test, step))
            });
        background.chain(tests)
    }
}

/// `"test" › "step" #occurrence` (`background › "step" #occurrence`), as shown to users.
impl fmt::Display for StepKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.test {
            Some(test) => write!(f, "{test:?} › {:?} #{}", self.step, self.occurrence),
            None => write!(f, "background › {:?} #{}", self.step, self.occurrence),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn step(sentence: &str, line: usize, occurrence: u32) -> Step {
        Step {
            sentence: sentence.to_owned(),
            line,
            occurrence,
            tries: None,
            optional: false,
            argument: None,
        }
    }

    fn scenario() -> Scenario {
        Scenario {
            path: PathBuf::from("/project/scenarios/todo.steps"),
            rel_path: "scenarios/todo.steps".to_owned(),
            background: Vec::new(),
            tests: vec![
                Test {
                    name: "add a todo".to_owned(),
                    line: 1,
                    tags: vec!["smoke".to_owned()],
                    state: None,
                    saves: None,
                    example: None,
                    steps: vec![
                        step("open the app", 2, 1),
                        step("press Enter", 3, 1),
                        step("press Enter", 4, 2),
                    ],
                },
                Test {
                    name: "remove a todo".to_owned(),
                    line: 6,
                    tags: vec![],
                    state: None,
                    saves: None,
                    example: None,
                    steps: vec![step("open the app", 7, 1)],
                },
            ],
        }
    }

    #[test]
    fn key_is_scenario_test_sentence_and_occurrence() {
        let scenario = scenario();
        let test = &scenario.tests[0];
        let key = StepKey::of(&scenario, test, &test.steps[2]);
        assert_eq!(
            key,
            StepKey {
                scenario: "scenarios/todo.steps".to_owned(),
                test: Some("add a todo".to_owned()),
                step: "press Enter".to_owned(),
                occurrence: 2,
            }
        );
    }

    #[test]
    fn key_ignores_line_tags_and_options() {
        let scenario = scenario();
        let mut moved = scenario.clone();
        moved.tests[0].line = 40;
        moved.tests[0].tags.clear();
        moved.tests[0].steps[0].line = 41;
        moved.tests[0].steps[0].tries = Some(3);
        let a = StepKey::of(&scenario, &scenario.tests[0], &scenario.tests[0].steps[0]);
        let b = StepKey::of(&moved, &moved.tests[0], &moved.tests[0].steps[0]);
        assert_eq!(a, b);
    }

    #[test]
    fn all_of_is_in_scenario_order() {
        let keys: Vec<String> = StepKey::all_of(&scenario())
            .map(|key| key.to_string())
            .collect();
        assert_eq!(
            keys,
            [
                r#""add a todo" › "open the app" #1"#,
                r#""add a todo" › "press Enter" #1"#,
                r#""add a todo" › "press Enter" #2"#,
                r#""remove a todo" › "open the app" #1"#,
            ]
        );
    }

    #[test]
    fn background_keys_have_no_test_and_example_rows_share_their_keys() {
        let mut scenario = scenario();
        scenario.background = vec![step("open the app", 1, 1)];
        let row = |value: &str| Test {
            name: format!("buy [item={value}]"),
            line: 9,
            tags: vec![],
            state: None,
            saves: None,
            example: Some(crate::scenario::Example {
                template: "buy".to_owned(),
                columns: vec!["item".to_owned()],
                values: vec![value.to_owned()],
                line: 12,
            }),
            steps: vec![step("add <item>", 10, 1)],
        };
        scenario.tests = vec![row("milk"), row("eggs")];
        let background = StepKey::background(&scenario, &scenario.background[0]);
        assert!(background.is_background());
        assert_eq!(background.to_string(), r#"background › "open the app" #1"#);
        let (milk, eggs) = (&scenario.tests[0], &scenario.tests[1]);
        assert_eq!(
            StepKey::of(&scenario, milk, &milk.steps[0]),
            StepKey::of(&scenario, eggs, &eggs.steps[0])
        );
        let keys: Vec<String> = StepKey::all_of(&scenario).map(|k| k.to_string()).collect();
        assert_eq!(
            keys,
            [
                r#"background › "open the app" #1"#,
                r#""buy" › "add <item>" #1"#
            ]
        );
    }
}
