//! `prettyplay explain FILE:LINE`: the sentence form of `explain` for a step of a test, on the
//! page as that test has it when it reaches the step. The test's earlier steps (its file's
//! `background:` steps first) run in one page as `run` runs them: cached code where the cache
//! has it, else the built-in generator's code, never an LLM's. A test that starts from a saved
//! state (`[state=NAME]`) gets it as in a run: the setup tests run first, each in a page of its
//! own, and the last one's storage state opens the test's page. Nothing is written to the cache.
//! An earlier step that cannot run is named, and nothing is explained on a page the test would
//! not have.
//!
//! Main type: [`StepAt`]; the entry point is [`explain_at`].

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::cache::{Cache, CacheFile, StepKey};
use crate::cli::args::ExplainArgs;
use crate::cli::explain::{Pages, explain_here, print, run_trial, with_browser};
use crate::cli::run_plan::resolve_vars;
use crate::config::Settings;
use crate::driver::{CallError, SavedState};
use crate::error::{EXIT_TEST_FAILED, Error};
use crate::report::Visible;
use crate::runner::{TestRef, test_steps, test_vars};
use crate::scenario::{Scenario, Step, Test};
use crate::script::StepFailure;
use crate::secrets::Secrets;
use crate::step::{LivePage, SettleWindow, StepExecutor};
use crate::writer::explain as explain_sentence;

/// A `FILE:LINE` argument of `explain`: a `.steps` or `.feature` file and a line of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct StepAt {
    pub file: PathBuf,
    /// 1-based.
    pub line: usize,
    /// The argument as given, for messages.
    pub text: String,
}

impl StepAt {
    /// Reads `argument` as `FILE:LINE` when it is one: a path ending in `.steps` or `.feature`,
    /// a colon and digits. Anything else is a sentence.
    pub(super) fn parse(argument: &str) -> Option<StepAt> {
        let (file, line) = argument.rsplit_once(':')?;
        let is_scenario = file.ends_with(".steps") || file.ends_with(".feature");
        if !is_scenario || line.is_empty() || !line.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(StepAt {
            file: PathBuf::from(file),
            line: line.parse().ok()?,
            text: argument.to_owned(),
        })
    }
}

/// Where a step line is in its file: the test that runs it (the first one for a background
/// step, the first row of an examples table) and the step's place among that test's steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Located {
    test: usize,
    /// Index into [`test_steps`] of the test: its background steps come first.
    index: usize,
}

/// Why a `FILE:LINE` names no step to explain.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum NotAStep {
    #[error("line numbers start at 1")]
    LineZero,
    #[error("this is a `background:` step, but the file has no test to run it")]
    BackgroundWithoutTest,
    #[error("line {line} is not a step line{is}, and the file has no steps")]
    NoSteps { line: usize, is: LineIs },
    #[error(
        "line {line} is not a step line{is}: give the line of a step sentence (this file has \
         steps at lines {steps})"
    )]
    Elsewhere {
        line: usize,
        is: LineIs,
        /// The first step lines of the file, joined with commas.
        steps: String,
    },
}

/// What a line that is no step line is, when it is something.
#[derive(Debug, Clone, PartialEq, Eq)]
enum LineIs {
    /// The header of the test of this name.
    Header(String),
    /// A row of the examples table of the test of this identity.
    ExamplesRow(String),
    Other,
}

/// Shown after "is not a step line", with its leading space.
impl std::fmt::Display for LineIs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineIs::Header(name) => write!(f, " (it is the header of the test \"{name}\")"),
            LineIs::ExamplesRow(test) => {
                write!(f, " (it is a row of the examples table of \"{test}\")")
            }
            LineIs::Other => Ok(()),
        }
    }
}

/// Finds the step at `line` of `scenario`, or says what the line is instead.
fn locate(scenario: &Scenario, line: usize) -> Result<Located, NotAStep> {
    let step_lines = || {
        let lines: Vec<String> = scenario
            .background
            .iter()
            .chain(scenario.tests.iter().flat_map(|t| &t.steps))
            .map(|step| step.line)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .take(12)
            .map(|line| line.to_string())
            .collect();
        lines.join(", ")
    };
    if line == 0 {
        return Err(NotAStep::LineZero);
    }
    if let Some(at) = scenario.background.iter().position(|s| s.line == line) {
        return if scenario.tests.is_empty() {
            Err(NotAStep::BackgroundWithoutTest)
        } else {
            Ok(Located { test: 0, index: at })
        };
    }
    for (number, test) in scenario.tests.iter().enumerate() {
        if let Some(at) = test.steps.iter().position(|s| s.line == line) {
            return Ok(Located {
                test: number,
                index: scenario.background.len() + at,
            });
        }
    }
    let is = if let Some(test) = scenario.tests.iter().find(|t| t.line == line) {
        LineIs::Header(test.name.clone())
    } else if let Some(test) = scenario
        .tests
        .iter()
        .find(|t| t.example.as_ref().is_some_and(|e| e.line == line))
    {
        LineIs::ExamplesRow(test.identity().to_owned())
    } else {
        LineIs::Other
    };
    let steps = step_lines();
    if steps.is_empty() {
        Err(NotAStep::NoSteps { line, is })
    } else {
        Err(NotAStep::Elsewhere { line, is, steps })
    }
}

/// Why an earlier step of the test did not run, which leaves no page to explain on.
#[derive(Debug)]
struct Stopped {
    /// The scenario file of the step (a setup test's may be another).
    file: String,
    /// The step as reports show it (a background step says so).
    step: Step,
    why: StopReason,
}

#[derive(Debug)]
enum StopReason {
    /// No cached code, and the built-in generator declined the sentence on the page.
    Declined(String),
    /// The built-in generator's code failed.
    BuiltinFailed(StepFailure),
    /// The cached code failed.
    CachedFailed(StepFailure),
    /// The setup test passed, but its context's storage state could not be saved.
    NotSaved(CallError),
}

/// Explains the step at `at` on the page its test has when it reaches it; prints the answer to
/// `out` and returns the exit code: that of the sentence form, or 1 when an earlier step did
/// not run.
pub(super) fn explain_at(
    settings: &Settings,
    args: &ExplainArgs,
    cwd: &Path,
    at: &StepAt,
    verbose: bool,
    out: &mut dyn Write,
) -> Result<u8, Error> {
    if args.url.is_some() {
        return Err(Error::Usage(format!(
            "--url does not go with {}: the step is explained on the page its test reaches",
            at.text
        )));
    }
    let path = cwd.join(&at.file);
    if !path.is_file() {
        return Err(Error::Usage(format!(
            "{}: there is no scenario file {}: give FILE:LINE of a step in a `.steps` or \
             `.feature` file",
            at.text,
            at.file.display()
        )));
    }
    // The named file comes first, then the files of the setup tests its tests start from.
    let (scenarios, _) = super::load_with_setups(settings, cwd, std::slice::from_ref(&at.file))?;
    let Some(scenario) = scenarios.first() else {
        return Err(Error::Usage(format!("{}: no scenario file there", at.text)));
    };
    let located =
        locate(scenario, at.line).map_err(|why| Error::Usage(format!("{}: {why}", at.text)))?;
    let test = &scenario.tests[located.test];
    let setups =
        setup_chain(&scenarios, test).map_err(|why| Error::Usage(format!("{}: {why}", at.text)))?;
    let mut tests = setups.clone();
    tests.push(TestRef::new(0, located.test));
    let vars = resolve_vars(settings, &scenarios, &tests)?;
    let secrets = vars.secrets();
    crate::cli::mask_stderr(&secrets);
    // Read only: explain never stores what it wrote.
    let cache = Cache::new(&settings.cache_dir);
    let mut caches: Vec<Option<CacheFile>> = Vec::new();
    for file in &scenarios {
        caches.push(cache.load(&file.rel_path)?);
    }
    let steps = test_steps(scenario, test);
    let (step, key) = &steps[located.index];
    let columns = columns_of(test, key);
    let values = test_vars(vars.values(), test);
    let reached = with_browser(settings, values, &at.text, |pages| {
        let state = match run_setups(pages, settings, &scenarios, &setups, &caches)? {
            Ok(state) => state,
            Err(stopped) => return Ok(Err(stopped)),
        };
        let earlier = &steps[..located.index];
        // An action rewrite is tried on a page of its own, which the earlier steps bring to
        // where the step is, as they did the explained page.
        let trial = |code: &str| {
            pages
                .on_page(state.as_ref(), |fresh, _| {
                    Ok(
                        run_earlier(fresh, settings, scenario, test, earlier, caches[0].as_ref())
                            .map_err(|stopped| {
                                format!(
                                    "the earlier step at line {} did not run again",
                                    stopped.step.line
                                )
                            })
                            .and_then(|()| {
                                run_trial(fresh, settings, step.argument.as_ref(), code)
                            }),
                    )
                })
                .unwrap_or_else(|err| Err(err.to_string()))
        };
        pages.on_page(state.as_ref(), |live, _| {
            let reached = run_earlier(live, settings, scenario, test, earlier, caches[0].as_ref());
            Ok(reached.map(|()| {
                explain_here(
                    live,
                    settings,
                    &key.step,
                    columns,
                    args.execute,
                    step.argument.as_ref(),
                    &trial,
                )
            }))
        })
    })?;
    match reached {
        Ok(outcome) => {
            print(&outcome, verbose, &secrets, out).map_err(Error::Output)?;
            Ok(outcome.exit_code())
        }
        Err(stopped) => {
            print_stopped(&stopped, at, &secrets, out).map_err(Error::Output)?;
            Ok(EXIT_TEST_FAILED)
        }
    }
}

/// Runs the setup tests `setups` in order and returns the state the last one saved, or where
/// one of them stopped. Each runs in a page of its own, from the state the one before it saved,
/// as in a run.
fn run_setups(
    pages: &Pages<'_>,
    settings: &Settings,
    scenarios: &[Scenario],
    setups: &[TestRef],
    caches: &[Option<CacheFile>],
) -> Result<Result<Option<SavedState>, Box<Stopped>>, Error> {
    let mut state: Option<SavedState> = None;
    for setup in setups {
        let (file, setup_test) = setup.of(scenarios);
        let steps = test_steps(file, setup_test);
        let cached = caches[setup.scenario].as_ref();
        let saved = pages.on_page(state.as_ref(), |live, page| {
            Ok(
                run_earlier(live, settings, file, setup_test, &steps, cached).and_then(|()| {
                    pages.save_state(page).map_err(|why| {
                        Box::new(Stopped {
                            file: file.rel_path.clone(),
                            step: steps
                                .last()
                                .map_or_else(|| header_step(setup_test), |(step, _)| step.clone()),
                            why: StopReason::NotSaved(why),
                        })
                    })
                }),
            )
        })?;
        match saved {
            Ok(saved) => state = Some(saved),
            Err(stopped) => return Ok(Err(stopped)),
        }
    }
    Ok(Ok(state))
}

/// The setup tests whose saved states `test` starts from, the first to run first: the test that
/// saves its `[state=NAME]`, the one that saves that test's state, and so on.
fn setup_chain(scenarios: &[Scenario], test: &Test) -> Result<Vec<TestRef>, NoSetup> {
    let mut chain: Vec<TestRef> = Vec::new();
    let mut wanted = test.state.clone();
    while let Some(name) = wanted {
        let saver = scenarios.iter().enumerate().find_map(|(s, file)| {
            file.tests
                .iter()
                .position(|t| t.saves.as_deref() == Some(name.as_str()))
                .map(|t| TestRef::new(s, t))
        });
        let Some(saver) = saver else {
            return Err(NoSetup::Unsaved {
                name,
                test: test.name.clone(),
            });
        };
        if chain.contains(&saver) {
            return Err(NoSetup::Circular { name });
        }
        chain.push(saver);
        wanted = saver.of(scenarios).1.state.clone();
    }
    chain.reverse();
    Ok(chain)
}

/// Why the setup tests of a test cannot be run before it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum NoSetup {
    #[error("no test saves the state `{name}` the test \"{test}\" starts from")]
    Unsaved { name: String, test: String },
    #[error("the saved state `{name}` starts from itself")]
    Circular { name: String },
}

/// A step standing for a test's header, for a setup test without steps.
fn header_step(test: &Test) -> Step {
    Step {
        sentence: format!("test: {}", test.name),
        line: test.line,
        occurrence: 1,
        tries: None,
        optional: false,
        argument: None,
    }
}

/// The examples table's columns a step's sentence may name: none for a background step.
fn columns_of<'t>(test: &'t Test, key: &StepKey) -> &'t [String] {
    if key.is_background() {
        &[]
    } else {
        test.columns()
    }
}

/// Runs `steps` on `live`'s page in order, each inside its settle window as `run` does: its
/// cached code, else the code the built-in generator writes for it on the page as it is then.
fn run_earlier(
    live: &LivePage,
    settings: &Settings,
    scenario: &Scenario,
    test: &Test,
    steps: &[(Step, StepKey)],
    cached: Option<&CacheFile>,
) -> Result<(), Box<Stopped>> {
    let no_retry = |_: u32, _: &StepFailure| {};
    for (step, key) in steps {
        let stopped = |why| {
            Box::new(Stopped {
                file: scenario.rel_path.clone(),
                step: step.clone(),
                why,
            })
        };
        let exec = live
            .executor(SettleWindow::new(&settings.polling, step.tries), &no_retry)
            .with_argument(step.argument.as_ref());
        if let Some(entry) = cached.and_then(|file| file.get(key)) {
            exec.execute(&entry.code)
                .map_err(|failure| stopped(StopReason::CachedFailed(failure)))?;
            continue;
        }
        let state = exec.page_state(false, usize::MAX);
        let code = explain_sentence(
            &key.step,
            columns_of(test, key),
            &state.snapshot,
            &state.structure,
        )
        .code
        .map_err(|why| stopped(StopReason::Declined(why)))?;
        exec.check(&code)
            .and_then(|()| exec.execute(&code))
            .and_then(|()| exec.kept_to_origins())
            .map_err(|failure| stopped(StopReason::BuiltinFailed(failure)))?;
    }
    Ok(())
}

/// Says which earlier step did not run, and why.
fn print_stopped(
    stopped: &Stopped,
    at: &StepAt,
    secrets: &Secrets,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(
        out,
        "not explained: {} is reached only after an earlier step that did not run:",
        Visible(&at.text)
    )?;
    writeln!(
        out,
        "  {}:{}: {}",
        Visible(&stopped.file),
        stopped.step.line,
        Visible(&stopped.step.sentence)
    )?;
    let failed = |what: &str, failure: &StepFailure| {
        format!(
            "{what} failed ({}): {}",
            failure.kind.as_str(),
            secrets.mask(&failure.message)
        )
    };
    let why = match &stopped.why {
        StopReason::Declined(why) => format!(
            "it has no cached code and the built-in generator declined it: {why} (explain it \
             with `prettyplay explain {}:{}`)",
            stopped.file, stopped.step.line
        ),
        StopReason::BuiltinFailed(failure) => failed(
            "it has no cached code and the built-in generator's code",
            failure,
        ),
        StopReason::CachedFailed(failure) => failed("its cached code", failure),
        StopReason::NotSaved(why) => format!(
            "its setup test passed, but the state it saves could not be saved: {}",
            secrets.mask(&why.to_string())
        ),
    };
    writeln!(out, "  {}", Visible(why))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(text: &str) -> Scenario {
        let parsed = crate::scenario::parse("a.steps", text.as_bytes()).unwrap();
        Scenario {
            path: PathBuf::from("/p/a.steps"),
            rel_path: "a.steps".to_owned(),
            background: parsed.background,
            tests: parsed.tests,
        }
    }

    #[test]
    fn file_colon_line_of_a_scenario_file_is_a_step_anything_else_a_sentence() {
        let at = StepAt::parse("scenarios/todo.steps:12").unwrap();
        assert_eq!(
            (at.file, at.line),
            (PathBuf::from("scenarios/todo.steps"), 12)
        );
        assert!(StepAt::parse("features/a.feature:3").is_some());
        assert!(StepAt::parse("click the Add button").is_none());
        assert!(StepAt::parse("the URL is \"x.steps\"").is_none());
        assert!(StepAt::parse("scenarios/todo.steps").is_none());
        assert!(StepAt::parse("scenarios/todo.steps:x").is_none());
        assert!(StepAt::parse("page.html:3").is_none());
    }

    #[test]
    fn a_step_line_is_found_after_its_background_and_in_the_first_row() {
        let s = scenario(
            "background:\n  open the app\n\ntest: one\n  click \"A\"\n  click \"B\"\n\n\
             test: rows\n  type <x> into the field\n  examples:\n    | x |\n    | 1 |\n    | 2 |\n",
        );
        assert_eq!(locate(&s, 2), Ok(Located { test: 0, index: 0 }));
        assert_eq!(locate(&s, 6), Ok(Located { test: 0, index: 2 }));
        assert_eq!(locate(&s, 9), Ok(Located { test: 1, index: 1 }));
        assert_eq!(s.tests[1].example.as_ref().unwrap().values, ["1"]);
    }

    #[test]
    fn the_setup_tests_of_a_saved_state_run_first_to_last() {
        let s = scenario(
            "test: a [saves=one]\n  open the app\n\ntest: b [state=one] [saves=two]\n  open the \
             app\n\ntest: c [state=two]\n  open the app\n\ntest: d [state=none]\n  open the app\n",
        );
        let files = [s];
        let chain = setup_chain(&files, &files[0].tests[2]).unwrap();
        assert_eq!(chain, [TestRef::new(0, 0), TestRef::new(0, 1)]);
        assert!(setup_chain(&files, &files[0].tests[0]).unwrap().is_empty());
        let why = setup_chain(&files, &files[0].tests[3])
            .unwrap_err()
            .to_string();
        assert_eq!(
            why,
            "no test saves the state `none` the test \"d\" starts from"
        );
    }

    #[test]
    fn a_line_that_is_no_step_says_what_it_is_and_where_the_steps_are() {
        let s = scenario("test: one\n  click \"A\"\n\n# a comment\n");
        let why = locate(&s, 1).unwrap_err().to_string();
        assert_eq!(
            why,
            "line 1 is not a step line (it is the header of the test \"one\"): give the line of \
             a step sentence (this file has steps at lines 2)"
        );
        let why = locate(&s, 4).unwrap_err().to_string();
        assert!(why.starts_with("line 4 is not a step line: give"), "{why}");
        assert_eq!(
            locate(&s, 0).unwrap_err().to_string(),
            "line numbers start at 1"
        );
    }
}
