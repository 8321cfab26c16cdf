//! `prettyplay run` and `prettyplay replay`: select tests, start the driver, run the workers,
//! report, record failures for `--last-failed`, and map the outcome to an exit code.
//!
//! Main entry point: [`run_tests`].

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::cache::Cache;
use crate::cli::args::{GlobalArgs, RunnerArgs, TraceArg};
use crate::cli::cached_steps::check_all_cached;
use crate::cli::select::{NamedLocation, SelectOptions};
use crate::cli::stdout_sink::StdoutSink;
use crate::cli::{env_var, masked_for_stderr, verbosity_of};
use crate::config::{RemoteBrowser, Settings, Vars};
use crate::driver::{
    BrowserRuntime, BrowserTarget, export_driver_env, find_driver, withhold_from_driver,
};
use crate::error::{
    EXIT_INFRA, EXIT_INTERRUPTED, EXIT_SUCCESS, EXIT_TEST_FAILED, EXIT_USAGE, Error,
};
use crate::llm::{LlmProvider, build_provider, key_variables};
use crate::report::{EtaBasis, ReportOptions, ReporterKind, Verbosity, build_reporters};
use crate::runner::{
    EventKind, FailedTest, LastRun, Mode, RunConfig, RunEvent, RunStats, Runner, StepId, StepKind,
    TestDuration, TestFinished, TestId, TestKind, TestOutcome, TestRef, TraceMode, run_projects,
};
use crate::scenario::Scenario;
use crate::script::Limits;
use crate::stop_signal::{self, Reaction, StopSignal};
use crate::web_server::{
    CONNECT_LIMIT, LineSink, Unreachable, WebServerError, WebServers, kill_all_now, reach,
};

/// The options of a run of tests that come from the command line.
pub(crate) struct RunOptions {
    pub(crate) select: SelectOptions,
    max_failures: Option<usize>,
    trace: TraceMode,
    report: ReportOptions,
    colors: bool,
    verbosity: Verbosity,
    /// With `--debug`, each step is announced on stderr before it runs.
    debug: bool,
}

impl RunOptions {
    pub(crate) fn new(
        global: &GlobalArgs,
        runner: &RunnerArgs,
        locations: Vec<NamedLocation>,
        cwd: &Path,
        colors: bool,
    ) -> Result<Self, Error> {
        let kinds = reporter_kinds(&runner.report.reporters)?;
        if runner.max_failures == Some(0) {
            return Err(Error::Usage("--max-failures must be at least 1".to_owned()));
        }
        Ok(Self {
            select: SelectOptions::new(&runner.select, locations)?,
            max_failures: if runner.exit_first {
                Some(1)
            } else {
                runner.max_failures
            },
            trace: match runner.report.trace {
                TraceArg::On => TraceMode::On,
                TraceArg::Off => TraceMode::Off,
                TraceArg::RetainOnFailure => TraceMode::RetainOnFailure,
            },
            report: ReportOptions {
                kinds,
                output_dir: cwd.join(&runner.report.output),
                events_file: runner.report.events.as_ref().map(|p| cwd.join(p)),
                cwd: Some(cwd.to_owned()),
                ..ReportOptions::default()
            },
            colors,
            verbosity: if runner.debug {
                Verbosity::Verbose
            } else {
                verbosity_of(global, &runner.report.quiet)
            },
            debug: runner.debug,
        })
    }
}

/// Parses the `--reporter` values. No value means `list`, and an unknown value is a usage error.
pub(crate) fn reporter_kinds(names: &[String]) -> Result<Vec<ReporterKind>, Error> {
    if names.is_empty() {
        return Ok(vec![ReporterKind::List]);
    }
    names
        .iter()
        .map(|name| name.parse::<ReporterKind>().map_err(Error::Usage))
        .collect()
}

/// Returns the exit code of a run with `stats`: 130 when it was interrupted, 2 when a step
/// needed a setting the run lacks (the configuration is what to fix first), 3 when a failure
/// was the infrastructure's, 1 when a test failed (or was flaky with `fail_on_flaky`), else 0.
/// A closed stdout plays no part, because the reporters write through a [`StdoutSink`].
pub(crate) fn exit_code_of(stats: &RunStats, fail_on_flaky: bool) -> u8 {
    if fail_on_flaky && stats.flaky > 0 && stats.failed == 0 && !stats.interrupted() {
        say_flaky_fail_the_run(stats.flaky);
    }
    if stats.interrupted() {
        EXIT_INTERRUPTED
    } else if stats.configuration_failures > 0 {
        EXIT_USAGE
    } else if stats.infrastructure_failures > 0 {
        EXIT_INFRA
    } else if stats.failed > 0 || (fail_on_flaky && stats.flaky > 0) {
        EXIT_TEST_FAILED
    } else {
        EXIT_SUCCESS
    }
}

/// Where reuse looks for a sentence's code: the run's files, and the other files of the
/// `scenarios` directory when a run names files, so that running one file still reuses the
/// code the rest of the suite proved. The directory is read only when every file of it parses,
/// because another file's error must not fail a run that does not include it.
fn suite_of(settings: &Settings, scenarios: &[Scenario]) -> Vec<Scenario> {
    let mut suite = scenarios.to_vec();
    if settings.scenarios.exists()
        && let Ok(all) = crate::scenario::load(
            &settings.project_root,
            std::slice::from_ref(&settings.scenarios),
        )
    {
        suite.extend(
            all.into_iter()
                .filter(|other| scenarios.iter().all(|s| s.path != other.path)),
        );
    }
    suite
}

/// Runs the selected tests and returns the run's exit code.
pub(crate) fn run_tests(
    settings: &Settings,
    scenarios: &[Scenario],
    mode: Mode,
    options: &RunOptions,
) -> Result<u8, Error> {
    let last_run = LastRun::load(&settings.project_root);
    let selected =
        options
            .select
            .select(scenarios, &last_run, settings.browser.project_labels())?;
    let vanished = options.select.vanished_note(
        scenarios,
        &last_run,
        &settings.project_root,
        &selected,
        &settings.browser.project_labels(),
    );
    if let Some(note) = vanished.as_ref().filter(|_| !selected.is_empty()) {
        note_before_the_run(note);
    }
    if selected.is_empty() {
        // An empty selection is a success in these two cases, because CI jobs run them
        // whatever the tests are.
        let why = if let Some(note) = vanished {
            // The previous run failed, and none of its failed tests is left to say whether it
            // would pass now: that is no success.
            return Err(Error::Usage(format!(
                "{note}; run without --last-failed to run the tests as they are now"
            )));
        } else if options.select.last_failed {
            "no tests failed in the previous run: nothing to run"
        } else if options.select.shard.is_some() {
            "this shard has no tests"
        } else {
            return Err(Error::Usage(options.select.nothing_selected()));
        };
        writeln!(io::stdout(), "{why}").map_err(Error::Output)?;
        return Ok(EXIT_SUCCESS);
    }

    let vars = resolve_vars(settings, scenarios, &selected)?;
    // Strict replay fails a step without cached code, so a missing one is said now, with every
    // other, before a browser or a web server starts.
    if mode == Mode::StrictReplay {
        let checked = check_all_cached(Cache::new(&settings.cache_dir), scenarios, &selected);
        if checked.is_err() {
            // No report of this run is written, so the last run's must not stand for it.
            crate::report::remove_reports_of_a_run_that_did_not_start(&options.report);
        }
        checked?;
    }
    let var_secrets = vars.secrets();
    if !var_secrets.is_empty() && options.trace != TraceMode::Off {
        warn_trace_records_secrets(&options.report.output_dir);
    }
    // The connect headers and the endpoint's path and query may hold tokens, so they are
    // masked as well.
    let remote = settings.browser.remote.as_ref();
    let secrets = var_secrets.with(remote.map(RemoteBrowser::secrets).unwrap_or_default());
    crate::cli::mask_stderr(&secrets);
    let driver = find_driver(&env_var)?;
    // Every project's browser is looked for before anything starts, so that a missing Firefox
    // is said at once rather than after the Chromium tests ran.
    let labels = settings.browser.project_labels();
    let mut targets = (0..labels.len())
        .map(|project| {
            let browser = settings.browser.for_project(project);
            BrowserTarget::find(&browser, &settings.sources, &env_var)
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .map(Some)
        .collect::<Vec<_>>();
    if let Some(Some(BrowserTarget::Remote(remote))) = targets.first() {
        tracing::info!("browser: {}", remote.shown());
    }
    let driver_env = export_driver_env(&driver);
    // The API key is read now, while the process has one thread, and removed from the
    // environment that the driver and Chromium inherit.
    let keys = withhold_from_driver(&key_variables(&settings.llm));
    let env = |name: &str| keys.get(name).cloned().or_else(|| env_var(name));
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let provider = provider_for(mode, settings, &env, tokio.handle())?;
    let cancel = Arc::new(AtomicBool::new(false));
    install_interrupt_handler(Arc::clone(&cancel));
    let workers = settings.run.workers.unwrap_or_else(default_workers);
    let config = RunConfig {
        mode,
        limits: Limits::new(settings.browser.timeout),
        polling: settings.polling.clone(),
        cache: Cache::new(&settings.cache_dir).with_secrets(secrets.clone()),
        llm: settings.llm.clone(),
        budgets: settings.budgets,
        heal_veto: settings.heal.veto,
        allowed_origins_off: settings.browser.allowed_origins.is_any(),
        provider,
        builtin: settings.generate.builtin,
        reuse: settings.generate.reuse,
        workers,
        isolation: settings.browser.isolation,
        test_timeout: settings.run.test_timeout,
        retries: settings.run.retries,
        max_failures: options.max_failures,
        cancel: Arc::clone(&cancel),
        trace: options.trace,
        trace_dir: options.report.output_dir.join("traces"),
        state_dir: settings.project_root.join(".prettyplay").join("state"),
        vars,
        project: None,
    };
    let suite = if settings.generate.reuse {
        suite_of(settings, scenarios)
    } else {
        Vec::new()
    };
    let first_project = selected.first().map_or(0, |at| at.project);
    let of_project = |project: usize| -> Vec<TestRef> {
        selected
            .iter()
            .copied()
            .filter(|at| at.project == project)
            .collect()
    };
    let config_of = |project: usize, max_failures: Option<usize>| RunConfig {
        project: labels[project].clone(),
        max_failures,
        ..config.clone()
    };
    // The first project's runner is made now, so that a malformed cache file is the error
    // before anything starts; the others' are made when their turn comes, after the projects
    // before them wrote what they generated.
    let mut first_runner = Some(
        Runner::new(
            scenarios,
            of_project(first_project),
            config_of(first_project, options.max_failures),
        )?
        .reusing_from(&suite),
    );
    let first_target = targets[first_project]
        .take()
        .ok_or_else(|| Error::Usage("no browser for the first project".to_owned()))?;
    // An app that is down fails every test the same way: said once, before any browser starts.
    if let Some(url) = base_url_to_probe(
        settings.browser.base_url.as_deref(),
        settings.browser.remote.is_some(),
        !settings.web_servers.is_empty(),
    ) {
        tokio
            .block_on(reach(url, CONNECT_LIMIT))
            .map_err(|Unreachable(what)| WebServerError::AppUnreachable {
                url: url.to_owned(),
                what,
                set_at: settings.sources.place("browser.base_url").to_string(),
            })?;
    }
    // The driver starts while the web servers come up, so neither waits for the other. The web
    // servers stop in `stop` below, in their destructor on an early return or a panic, or in
    // the Ctrl-C handler when a second Ctrl-C exits at once.
    let (web_servers, runtime) = std::thread::scope(|scope| {
        let starting = scope.spawn(|| {
            tokio
                .block_on(BrowserRuntime::start(
                    &settings.browser.for_project(first_project),
                    &driver,
                    first_target,
                    tokio.handle(),
                ))
                .map_err(|e| e.placed(&settings.sources))
        });
        let web_servers = WebServers::start(
            &settings.web_servers,
            &driver_env,
            tokio.handle(),
            &cancel,
            web_server_sink(options.verbosity),
        );
        let runtime = starting
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (web_servers, runtime)
    });
    // A web server that did not come up is the error to report, even when the driver failed
    // too. A driver that started for nothing is shut down.
    let web_servers = match web_servers {
        Ok(web_servers) => web_servers,
        Err(err) => {
            if let Ok(runtime) = runtime {
                tokio.block_on(runtime.shutdown());
            }
            return Err(err.into());
        }
    };
    let runtime = runtime?;

    // The report blob records which shard this is and which setup tests every shard may run.
    let mut report = options.report.clone();
    report.shard = options.select.shard;
    report.setups = selected
        .iter()
        .filter(|at| at.of(scenarios).1.saves.is_some())
        .map(|at| {
            let (scenario, test) = at.of(scenarios);
            TestId::of(scenario, test).in_project(labels[at.project].as_deref())
        })
        .collect();
    // The progress bar estimates the time left from how long each test took last time.
    report.eta = EtaBasis {
        tests: selected
            .iter()
            .map(|at| {
                let (scenario, test) = at.of(scenarios);
                let id = TestId::of(scenario, test).in_project(labels[at.project].as_deref());
                let last = last_run.duration_of(&id);
                (id, last)
            })
            .collect(),
        workers,
    };
    let is_tty = io::IsTerminal::is_terminal(&io::stdout());
    let mut reporters = build_reporters(
        &report,
        Box::new(StdoutSink::new(io::stdout())),
        options.colors,
        options.verbosity,
        is_tty,
        &env_var,
    )
    .map_err(Error::Output)?;
    let mut write_error = None;
    let mut failed_tests = Vec::new();
    let mut durations = Vec::new();
    let mut first_runtime = Some(runtime);
    let mut run_project = |project: usize,
                           tests: Vec<TestRef>,
                           max_failures: Option<usize>,
                           on_event: &mut dyn FnMut(RunEvent)|
     -> Result<RunStats, Error> {
        let runtime = match first_runtime.take() {
            Some(runtime) => runtime,
            None => {
                let target = targets[project]
                    .take()
                    .ok_or_else(|| Error::Usage("a browser project ran twice".to_owned()))?;
                tokio
                    .block_on(BrowserRuntime::start(
                        &settings.browser.for_project(project),
                        &driver,
                        target,
                        tokio.handle(),
                    ))
                    .map_err(|e| e.placed(&settings.sources))?
            }
        };
        let runner = match first_runner.take() {
            Some(runner) => runner,
            None => Runner::new(scenarios, tests, config_of(project, max_failures))?
                .reusing_from(&suite),
        };
        let stats = runner.run(&runtime, tokio.handle(), on_event);
        tokio.block_on(runtime.shutdown());
        Ok(stats)
    };
    let outcome = run_projects(
        &selected,
        options.max_failures,
        &mut run_project,
        &mut |event| {
            if options.debug
                && let EventKind::Step(StepId { test, index }, StepKind::Started(started)) =
                    &event.kind
            {
                announce_step(test, *index, &started.sentence, started.line);
            }
            // Events are masked here and nowhere else, so every reporter and `last-run.json` see
            // only the masked event.
            let event = event.masked(&secrets);
            if let EventKind::Test(test, TestKind::Finished(TestFinished { outcome, duration })) =
                &event.kind
            {
                if let TestOutcome::Failed(_) = outcome {
                    failed_tests.push(FailedTest {
                        scenario: test.scenario.clone(),
                        test: test.name.clone(),
                        project: test.project.clone(),
                    });
                }
                durations.extend(TestDuration::of_finished(test, outcome, *duration));
            }
            // The other reporters keep getting events when one fails, so that a full disk under
            // one report does not cut the others short. The first error is kept.
            if let Err(err) = reporters.handle(&event) {
                write_error.get_or_insert(err);
            }
        },
    );
    let finished = reporters.finish();
    if let Some(runtime) = first_runtime.take() {
        tokio.block_on(runtime.shutdown());
    }
    for warning in web_servers.stop() {
        warn(&warning);
    }
    let stats = outcome?;
    record_failures(
        settings,
        scenarios,
        &labels,
        &selected,
        &last_run,
        LastRun {
            version: 1,
            failed: failed_tests,
            durations,
        },
        &stats,
    );
    if let Some(err) = write_error.or(finished.err()) {
        return Err(Error::Output(err));
    }
    let code = match exit_code_of(&stats, settings.run.fail_on_flaky) {
        // The run was stopped by a signal: its code says which (130, 143 or 129).
        EXIT_INTERRUPTED => stop_signal::interrupted_exit_code(),
        code => code,
    };
    // `prettyplay audit`: a check that cannot fail fails the audit like a failed test.
    if mode == Mode::Audit && code == EXIT_SUCCESS && stats.checks_vacuous > 0 {
        return Ok(EXIT_TEST_FAILED);
    }
    Ok(code)
}

/// The base URL to probe before the first test, if any: one that is set, that no `[web_server]`
/// of the run serves (it is not up before the servers start, and their own readiness check
/// covers it), and that a local browser opens (a remote one may reach hosts this machine
/// cannot).
fn base_url_to_probe(base_url: Option<&str>, remote: bool, web_servers: bool) -> Option<&str> {
    match (base_url, remote, web_servers) {
        (Some(url), false, false) => Some(url),
        _ => None,
    }
}

/// Returns where the web servers' output goes: with `-v`, to stderr with secrets masked.
#[expect(
    clippy::print_stderr,
    reason = "with `-v` the CLI streams the web servers' output to stderr"
)]
fn web_server_sink(verbosity: Verbosity) -> Option<LineSink> {
    (verbosity == Verbosity::Verbose)
        .then(|| Arc::new(|line: &str| eprintln!("{}", masked_for_stderr(line))) as LineSink)
}

/// Prints a warning, after the summary.
fn warn(warning: &str) {
    say_on_stderr("WARNING", warning);
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
fn say_on_stderr(label: &str, text: &str) {
    eprintln!(
        "{label}: {}",
        crate::report::visible_text(&masked_for_stderr(text))
    );
}

/// Explains why a run whose tests all passed in the end exits 1.
#[expect(
    clippy::print_stderr,
    reason = "the CLI explains the exit code on stderr after the reports"
)]
fn say_flaky_fail_the_run(flaky: usize) {
    eprintln!(
        "error: {flaky} flaky test(s) fail the run: --fail-on-flaky-tests (or [run] \
         fail_on_flaky = true) counts a test that passed only on a retry as a failure"
    );
}

/// Returns the default number of workers, which Playwright Test uses too: half the CPUs, and
/// at least 1 (`docs/benchmarks.md` measures it).
fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
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

/// Prints the step about to run on stderr for `--debug`. The list reporter shows the step
/// again when it ends.
#[expect(
    clippy::print_stderr,
    reason = "--debug announces each step on stderr as it starts"
)]
fn announce_step(test: &crate::runner::TestId, index: usize, sentence: &str, line: usize) {
    eprintln!(
        "▶ {} › step {index}: {} (line {line})",
        crate::report::visible_text(&test.to_string()),
        crate::report::visible_text(sentence),
    );
}

/// Records this run's failures for `--last-failed`, each with its project of `labels`, and the
/// durations of its tests, both in `now`. Tests that did not run this time keep their previous record, because
/// another shard, a filter or an interruption kept them out.
fn record_failures(
    settings: &Settings,
    scenarios: &[Scenario],
    labels: &[Option<String>],
    selected: &[TestRef],
    previous: &LastRun,
    now: LastRun,
    stats: &RunStats,
) {
    let failed_now = now.failed;
    let ran = stats.passed + stats.failed;
    let selected_names: std::collections::HashSet<(Option<String>, String, String)> = selected
        .iter()
        .map(|at| {
            let (scenario, test) = at.of(scenarios);
            (
                labels.get(at.project).cloned().flatten(),
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
                || ran < selected.len()
        })
        .filter(|f| !failed_now.contains(f))
        .cloned()
        .collect();
    failed.extend(failed_now);
    let record = LastRun {
        version: 1,
        failed,
        durations: LastRun::merged_durations(previous, now.durations),
    };
    if let Err(err) = record.save(&settings.project_root) {
        tracing::warn!(
            "could not record failures in {}: {err}",
            LastRun::path(&settings.project_root).display()
        );
    }
}

/// Installs the handler of the stop signals (Ctrl-C, SIGTERM, SIGHUP; see
/// [`crate::stop_signal`]). The first stops scheduling and stops the running tests by closing
/// their pages, so they are reported as interrupted along with what ran. The second exits at
/// once: the web servers' process groups are killed first, and the driver sees its stdin close
/// and takes its browsers down with it.
#[expect(
    clippy::print_stderr,
    reason = "the user learns at once what the signal does"
)]
fn install_interrupt_handler(cancel: Arc<AtomicBool>) {
    let installed = stop_signal::install(move |signal, reaction| match reaction {
        Reaction::Stop => {
            cancel.store(true, Ordering::SeqCst);
            eprintln!("\n{}", stopping_message(signal));
        }
        Reaction::ExitNow => {
            // No destructor runs on exit, so the web servers' groups are killed here.
            kill_all_now();
            std::process::exit(i32::from(signal.exit_code()));
        }
    });
    if let Err(err) = installed {
        tracing::warn!("Ctrl-C, SIGTERM and SIGHUP will stop prettyplay at once: {err}");
    }
}

/// What the first stop signal does, as the user is told.
fn stopping_message(signal: StopSignal) -> String {
    match signal {
        StopSignal::Interrupt => {
            "interrupted: stopping the running tests (press Ctrl-C again to stop at once)"
                .to_owned()
        }
        StopSignal::Terminate | StopSignal::HangUp => format!(
            "{}: stopping the running tests (a second signal stops prettyplay at once)",
            signal.name()
        ),
    }
}

/// Builds the LLM provider that `mode` needs. Strict replay never builds one. Replay uses one
/// for verdicts only, so a broken configuration is a warning there. `run` requires one unless
/// the built-in generator writes code alone.
#[expect(clippy::print_stderr, reason = "a broken [llm] is a warning in replay")]
fn provider_for(
    mode: Mode,
    settings: &Settings,
    env: &dyn Fn(&str) -> Option<String>,
    handle: &tokio::runtime::Handle,
) -> Result<Option<Arc<dyn LlmProvider>>, Error> {
    let build = || build_provider(&settings.llm, &settings.sources, env, handle.clone());
    match mode {
        Mode::StrictReplay | Mode::Audit => Ok(None),
        Mode::Replay => match build() {
            Ok(provider) => Ok(provider.map(Arc::from)),
            Err(err) => {
                // The user sees the warning once; the log keeps only a debug record of it.
                tracing::debug!("no verdicts for failures: {err}");
                eprintln!("WARNING: no verdicts for failures: {err}");
                Ok(None)
            }
        },
        Mode::Run { .. } => match build() {
            Ok(Some(provider)) => Ok(Some(Arc::from(provider))),
            // Without an LLM, the built-in generator writes code alone unless it is off.
            Ok(None) if settings.generate.builtin.uses_builtin() => Ok(None),
            Ok(None) => Err(Error::LlmRequired),
            Err(err) => Err(Error::LlmSettings(err)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_rank_ctrl_c_then_configuration_then_infrastructure_then_failures() {
        let stats = |configuration, infrastructure, failed| RunStats {
            failed,
            infrastructure_failures: infrastructure,
            configuration_failures: configuration,
            ..RunStats::default()
        };
        assert_eq!(exit_code_of(&stats(0, 0, 0), false), EXIT_SUCCESS);
        assert_eq!(exit_code_of(&stats(0, 0, 1), false), EXIT_TEST_FAILED);
        assert_eq!(exit_code_of(&stats(0, 1, 2), false), EXIT_INFRA);
        assert_eq!(exit_code_of(&stats(1, 1, 3), false), EXIT_USAGE);
        let interrupted = RunStats {
            stopped: Some(crate::runner::StopReason::Interrupted),
            ..stats(1, 1, 3)
        };
        assert_eq!(exit_code_of(&interrupted, false), EXIT_INTERRUPTED);
    }

    #[test]
    fn a_base_url_a_local_browser_opens_and_no_web_server_starts_is_probed() {
        let url = Some("http://127.0.0.1:3000/");
        assert_eq!(base_url_to_probe(url, false, false), url);
    }

    #[test]
    fn no_base_url_leaves_nothing_to_probe() {
        assert_eq!(base_url_to_probe(None, false, false), None);
    }

    #[test]
    fn a_remote_browser_may_reach_what_this_machine_cannot() {
        assert_eq!(
            base_url_to_probe(Some("http://app:3000/"), true, false),
            None
        );
    }

    #[test]
    fn a_web_server_of_the_run_is_not_up_yet_and_checks_itself() {
        assert_eq!(
            base_url_to_probe(Some("http://127.0.0.1:3000/"), false, true),
            None
        );
    }
}
