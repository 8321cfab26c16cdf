//! The first stage of `prettyplay run`, `replay` and `audit`: everything decided before anything
//! starts. It selects the tests, resolves their variables, checks with `replay --strict` that
//! every step has cached code, masks the run's secrets, and finds the driver and each project's
//! browser, so that a mistake is said before a browser or a web server starts. Once the run
//! ended, the plan records its failures for `--last-failed`.
//!
//! Main type: [`RunPlan`], made by [`RunPlan::prepare`].

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::cache::Cache;
use crate::cli::cached_steps::check_all_cached;
use crate::cli::env_var;
use crate::cli::masked_for_stderr;
use crate::cli::run_options::RunOptions;
use crate::config::{RemoteBrowser, Settings, Vars};
use crate::driver::{BrowserTarget, DriverPaths, find_driver};
use crate::error::Error;
use crate::llm::LlmProvider;
use crate::report::{EtaBasis, ReportOptions};
use crate::runner::{FailedTest, LastRun, Mode, RunConfig, RunStats, TestId, TestRef, TraceMode};
use crate::scenario::Scenario;
use crate::script::{Limits, SnapshotMode};
use crate::secrets::Secrets;

/// What a run will do, decided before anything starts.
pub(crate) struct RunPlan<'a> {
    pub(crate) settings: &'a Settings,
    pub(crate) scenarios: &'a [Scenario],
    pub(crate) mode: Mode,
    pub(crate) options: &'a RunOptions,
    /// The record of the previous run: its failures and how long its tests took.
    last_run: LastRun,
    /// The selected tests of every browser project, in project order.
    pub(crate) selected: Vec<TestRef>,
    /// The label of each browser project (`None` for the default Chromium alone).
    pub(crate) labels: Vec<Option<String>>,
    vars: Vars,
    /// What the run masks everywhere it writes: secret variables and the remote browser's
    /// tokens.
    pub(crate) secrets: Secrets,
    pub(crate) driver: DriverPaths,
    /// The browser of each project.
    pub(crate) targets: Vec<BrowserTarget>,
}

/// What [`RunPlan::prepare`] found to do.
pub(crate) enum Prepared<'a> {
    Run(Box<RunPlan<'a>>),
    /// Nothing is selected and that is a success, for the reason this line gives.
    Nothing(&'static str),
}

impl<'a> RunPlan<'a> {
    /// Plans the run of `scenarios` in `mode` with `options`; see the module comment.
    pub(crate) fn prepare(
        settings: &'a Settings,
        scenarios: &'a [Scenario],
        mode: Mode,
        options: &'a RunOptions,
    ) -> Result<Prepared<'a>, Error> {
        let last_run = LastRun::load(&settings.project_root);
        let labels = settings.browser.project_labels();
        let selected = options
            .select
            .select(scenarios, &last_run, labels.clone())?;
        let vanished = options.select.vanished_note(
            scenarios,
            &last_run,
            &settings.project_root,
            &selected,
            &labels,
        );
        if selected.is_empty() {
            return nothing_to_run(options, vanished).map(Prepared::Nothing);
        }
        if let Some(note) = &vanished {
            note_before_the_run(note);
        }
        let vars = resolve_vars(settings, scenarios, &selected)?;
        // Strict replay fails a step without cached code, so a missing one is said now, with
        // every other, before a browser or a web server starts.
        if mode == Mode::StrictReplay {
            let checked = check_all_cached(Cache::new(&settings.cache_dir), scenarios, &selected);
            if checked.is_err() {
                // No report of this run is written, so the last run's must not stand for it.
                crate::report::remove_reports_of_a_run_that_did_not_start(&options.report);
            }
            checked?;
        }
        let secrets = secrets_of(settings, options, &vars);
        crate::cli::mask_stderr(&secrets);
        let driver = find_driver(&env_var)?;
        // Every project's browser is looked for before anything starts, so that a missing
        // Firefox is said at once rather than after the Chromium tests ran.
        let targets = (0..labels.len())
            .map(|project| {
                let browser = settings.browser.for_project(project);
                BrowserTarget::find(&browser, &settings.sources, &env_var)
            })
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(BrowserTarget::Remote(remote)) = targets.first() {
            tracing::info!("browser: {}", remote.shown());
        }
        Ok(Prepared::Run(Box::new(RunPlan {
            settings,
            scenarios,
            mode,
            options,
            last_run,
            selected,
            labels,
            vars,
            secrets,
            driver,
            targets,
        })))
    }

    /// How the tests run, with `provider` for the LLM and `cancel` as the stop flag.
    pub(crate) fn config(
        &self,
        provider: Option<Arc<dyn LlmProvider>>,
        cancel: Arc<AtomicBool>,
    ) -> RunConfig {
        let (settings, options) = (self.settings, self.options);
        RunConfig {
            mode: self.mode,
            limits: Limits::new(settings.browser.timeout),
            polling: settings.polling.clone(),
            cache: Cache::new(&settings.cache_dir).with_secrets(self.secrets.clone()),
            llm: settings.llm.clone(),
            budgets: settings.budgets,
            heal_veto: settings.heal.veto,
            allowed_origins_off: settings.browser.allowed_origins.is_any(),
            provider,
            builtin: settings.generate.builtin,
            reuse: settings.generate.reuse,
            workers: self.workers(),
            isolation: settings.browser.isolation,
            test_timeout: settings.run.test_timeout,
            retries: settings.run.retries,
            max_failures: options.max_failures,
            cancel,
            trace: options.trace,
            trace_dir: options.report.output_dir.join("traces"),
            snapshots: if options.update_snapshots {
                SnapshotMode::Changed
            } else {
                SnapshotMode::Missing
            },
            screenshot_dir: options.report.output_dir.join("screenshots"),
            state_dir: settings.project_root.join(".prettyplay").join("state"),
            accept_violations: settings.accessibility.accept.clone(),
            driver_dir: crate::driver::default_driver_dir(&env_var),
            vars: self.vars.clone(),
            project: None,
            browser_name: settings.browser.name.as_str().to_owned(),
        }
    }

    /// The report options of the run: the command line's, with the shard, the setup tests
    /// every shard may run (for the report blob), and how long each test took last time (for
    /// the progress bar's estimate).
    pub(crate) fn report_options(&self) -> ReportOptions {
        let mut report = self.options.report.clone();
        report.shard = self.options.select.shard;
        report.setups = self
            .selected
            .iter()
            .filter(|at| at.of(self.scenarios).1.saves.is_some())
            .map(|at| self.id_of(*at))
            .collect();
        report.eta = EtaBasis {
            tests: self
                .selected
                .iter()
                .map(|at| {
                    let id = self.id_of(*at);
                    let last = self.last_run.duration_of(&id);
                    (id, last)
                })
                .collect(),
            workers: self.workers(),
        };
        report
    }

    /// Where reuse looks for a sentence's code: the run's files, and the other files of the
    /// `scenarios` directory when a run names files, so that running one file still reuses the
    /// code the rest of the suite proved. The directory is read only when every file of it
    /// parses, because another file's error must not fail a run that does not include it.
    /// Nothing with `[generate] reuse = false`.
    pub(crate) fn suite(&self) -> Vec<Scenario> {
        let settings = self.settings;
        if !settings.generate.reuse {
            return Vec::new();
        }
        let mut suite = self.scenarios.to_vec();
        if settings.scenarios.exists()
            && let Ok(all) = crate::scenario::load(
                &settings.project_root,
                std::slice::from_ref(&settings.scenarios),
            )
        {
            suite.extend(
                all.into_iter()
                    .filter(|other| self.scenarios.iter().all(|s| s.path != other.path)),
            );
        }
        suite
    }

    /// Records this run's failures for `--last-failed`, and the durations of its tests, both
    /// in `now`. Tests that did not run this time keep their previous record, because another
    /// shard, a filter or an interruption kept them out.
    pub(crate) fn record(&self, now: LastRun, stats: &RunStats) {
        let previous = &self.last_run;
        let failed_now = now.failed;
        let ran = stats.passed + stats.failed;
        let selected_names: HashSet<(Option<String>, String, String)> = self
            .selected
            .iter()
            .map(|at| {
                let (scenario, test) = at.of(self.scenarios);
                (
                    self.labels.get(at.project).cloned().flatten(),
                    scenario.rel_path.clone(),
                    test.name.clone(),
                )
            })
            .collect();
        let mut failed: Vec<FailedTest> = previous
            .failed
            .iter()
            .filter(|f| {
                !selected_names.contains(&(f.project.clone(), f.scenario.clone(), f.test.clone()))
                    || ran < self.selected.len()
            })
            .filter(|f| !failed_now.contains(f))
            .cloned()
            .collect();
        failed.extend(failed_now);
        let record = LastRun {
            version: 1,
            failed,
            durations: LastRun::merged_durations(previous, now.durations),
            origins: now.origins,
        };
        let root = &self.settings.project_root;
        if let Err(err) = record.save(root) {
            tracing::warn!(
                "could not record failures in {}: {err}",
                LastRun::path(root).display()
            );
        }
    }

    /// The project whose tests run first.
    pub(crate) fn first_project(&self) -> usize {
        self.selected.first().map_or(0, |at| at.project)
    }

    fn id_of(&self, at: TestRef) -> TestId {
        let (scenario, test) = at.of(self.scenarios);
        TestId::of(scenario, test).in_project(self.labels[at.project].as_deref())
    }

    fn workers(&self) -> usize {
        self.settings.run.workers.unwrap_or_else(default_workers)
    }
}

/// Why an empty selection is a success (`Ok`), or the usage error it is. It is a success in two
/// cases, because CI jobs run them whatever the tests are: `--last-failed` after a run without
/// failures, and a shard without tests. `vanished` is what `--last-failed` says of the failed
/// tests that no longer exist.
fn nothing_to_run(options: &RunOptions, vanished: Option<String>) -> Result<&'static str, Error> {
    if let Some(note) = vanished {
        // The previous run failed, and none of its failed tests is left to say whether it
        // would pass now: that is no success.
        Err(Error::Usage(format!(
            "{note}; run without --last-failed to run the tests as they are now"
        )))
    } else if options.select.last_failed {
        Ok("no tests failed in the previous run: nothing to run")
    } else if options.select.shard.is_some() {
        Ok("this shard has no tests")
    } else {
        Err(Error::Usage(options.select.nothing_selected()))
    }
}

/// The run's secrets: the secret variables, and the remote browser's connect headers and the
/// endpoint's path and query, which may hold tokens. With secret variables and traces on, it
/// warns that traces are not masked.
fn secrets_of(settings: &Settings, options: &RunOptions, vars: &Vars) -> Secrets {
    let var_secrets = vars.secrets();
    if !var_secrets.is_empty() && options.trace != TraceMode::Off {
        warn_trace_records_secrets(&options.report.output_dir);
    }
    let remote = settings.browser.remote.as_ref();
    var_secrets.with(remote.map(RemoteBrowser::secrets).unwrap_or_default())
}

/// Prints a note about what the run takes, before it starts.
fn note_before_the_run(note: &str) {
    say_on_stderr("note", note);
}

/// Prints `text` after `label` on stderr, masked and with control characters made visible as
/// everything else the run prints.
#[expect(
    clippy::print_stderr,
    reason = "warnings and notes are for the user, around the reporters' output"
)]
pub(super) fn say_on_stderr(label: &str, text: &str) {
    eprintln!(
        "{label}: {}",
        crate::report::visible_text(&masked_for_stderr(text))
    );
}

/// Warns once when secrets are in use and traces are on, because Playwright traces record what
/// step code typed.
#[expect(
    clippy::print_stderr,
    reason = "the user must see this warning before the run starts"
)]
fn warn_trace_records_secrets(output_dir: &Path) {
    eprintln!(
        "WARNING: --trace records the values step code types, secrets included: treat the \
         traces under {} as secret (they are not masked)",
        output_dir.join("traces").display()
    );
}

/// Returns the default number of workers, which Playwright Test uses too: half the CPUs, and
/// at least 1 (`docs/benchmarks.md` measures it).
fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
}

/// Resolves the variables of the run: every `${NAME}` that the selected tests use (in their
/// background and example cells too) and every `[vars]` name. A name without a value is a
/// usage error that names each place it is used, and nothing runs.
pub(crate) fn resolve_vars(
    settings: &Settings,
    scenarios: &[Scenario],
    selected: &[TestRef],
) -> Result<Vars, Error> {
    let mut used: Vec<(&str, usize, &str)> = Vec::new();
    for at in selected {
        let (scenario, test) = at.of(scenarios);
        let sentences = scenario
            .background
            .iter()
            .chain(&test.steps)
            .map(|step| (step.line, step.sentence.as_str()));
        // The cells of an examples row may name variables too.
        let cells = test
            .example
            .iter()
            .flat_map(|row| row.values.iter().map(|cell| (row.line, cell.as_str())));
        for (line, text) in sentences.chain(cells) {
            for (name, _) in crate::scenario::variables(text) {
                if !used.contains(&(scenario.rel_path.as_str(), line, name)) {
                    used.push((scenario.rel_path.as_str(), line, name));
                }
            }
        }
    }
    let vars = Vars::resolve(
        &settings.vars,
        &settings.project_root,
        &|name| env_var(name),
        used.iter().map(|(_, _, name)| *name),
    )?;
    let missing: Vec<String> = used
        .iter()
        .filter(|(_, _, name)| !vars.has(name))
        .map(|(file, line, name)| {
            format!(
                "{file}:{line}: ${{{name}}} has no value: set it in [vars], .env or the \
                 environment"
            )
        })
        .collect();
    if missing.is_empty() {
        Ok(vars)
    } else {
        Err(Error::Usage(missing.join("\n")))
    }
}
