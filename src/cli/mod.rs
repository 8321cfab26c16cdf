//! The command-line interface: parse, resolve settings, execute, map the outcome to an exit
//! code. The only module that knows about clap.
//!
//! Main entry point: [`main`].

mod args;

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use regex::Regex;

use crate::cache::{Cache, StepKey, prune};
use crate::config::{Overrides, Settings};
use crate::driver::{BrowserRuntime, export_driver_env, find_chromium, find_driver};
use crate::error::{EXIT_INFRA, EXIT_SUCCESS, EXIT_TEST_FAILED, Error};
use crate::llm::{LlmProvider, build_provider};
use crate::report::{TerminalReporter, Verbosity};
use crate::runner::{Mode, RunConfig, Runner, select_tests};
use crate::scenario::{self, Scenario};
use crate::script::Limits;
use args::{CacheCommand, Cli, ColorChoice, Command, GlobalArgs};
use std::sync::Arc;

/// Runs prettyplay with the process's arguments and environment.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // clap prints help/version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() { 2 } else { 0 });
        }
    };
    init_tracing(cli.global.verbose);
    match execute(cli) {
        Ok(code) => ExitCode::from(code),
        Err(Error::Output(err)) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("{}", err.report());
            ExitCode::from(err.exit_code())
        }
    }
}

fn init_tracing(verbose: u8) {
    let default = match verbose {
        0 | 1 => "warn",
        2 => "prettyplay=debug",
        _ => "debug",
    };
    let filter = std::env::var("PRETTYPLAY_LOG")
        .ok()
        .filter(|v| !v.is_empty())
        .map(tracing_subscriber::EnvFilter::new)
        .or_else(|| tracing_subscriber::EnvFilter::try_from_default_env().ok())
        .unwrap_or_else(|| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(io::stderr)
        .without_time()
        .try_init();
}

fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

fn execute(cli: Cli) -> Result<u8, Error> {
    let cwd = std::env::current_dir()
        .map_err(|err| Error::Usage(format!("cannot read the working directory: {err}")))?;
    let overrides = Overrides {
        config: cli.global.config.clone(),
        base_url: cli.global.base_url.clone(),
        headed: cli.global.headed,
        executable: cli.global.executable.clone(),
        timeout: cli.global.timeout,
        screen: cli.global.screen.clone(),
        llm_provider: cli.global.llm_provider.clone(),
        llm_model: cli.global.model.clone(),
        llm_base_url: cli.global.llm_base_url.clone(),
    };
    let settings = Settings::resolve(&cwd, &env_var, &overrides)?;
    let stdout = io::stdout();
    let colors = match cli.global.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            stdout.is_terminal() && env_var("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    match cli.command {
        Command::Run(run) => {
            let scenarios = load_scenarios(&settings, &cwd, &run.paths.paths)?;
            let mode = Mode::Run { heal: !run.no_heal };
            run_tests(
                &settings,
                &scenarios,
                &cli.global,
                mode,
                colors,
                stdout.lock(),
            )
        }
        Command::Replay(replay) => {
            let scenarios = load_scenarios(&settings, &cwd, &replay.paths.paths)?;
            let mode = if replay.strict {
                Mode::StrictReplay
            } else {
                Mode::Replay
            };
            run_tests(
                &settings,
                &scenarios,
                &cli.global,
                mode,
                colors,
                stdout.lock(),
            )
        }
        Command::List(paths) => {
            let scenarios = load_scenarios(&settings, &cwd, &paths.paths)?;
            list(&settings, &scenarios, &cli.global, stdout.lock())?;
            Ok(EXIT_SUCCESS)
        }
        Command::Api => {
            let listing =
                crate::script::api_listing().map_err(|failure| Error::Usage(failure.message))?;
            writeln!(stdout.lock(), "{listing}").map_err(Error::Output)?;
            Ok(EXIT_SUCCESS)
        }
        Command::Cache(CacheCommand::Prune { dry_run }) => {
            let scenarios = load_scenarios(&settings, &cwd, &[])?;
            let cache = Cache::new(&settings.cache_dir);
            let removals = prune(&cache, &settings.project_root, &scenarios, dry_run)?;
            let mut out = stdout.lock();
            let write = |out: &mut dyn Write| -> io::Result<()> {
                for removal in &removals {
                    if dry_run {
                        writeln!(out, "{removal:#}")?;
                    } else {
                        writeln!(out, "{removal}")?;
                    }
                }
                match (removals.len(), dry_run) {
                    (0, _) => writeln!(out, "nothing to prune"),
                    (n, true) => writeln!(out, "{n} removal(s) would be made (dry run)"),
                    (n, false) => writeln!(out, "{n} removal(s) made"),
                }
            };
            write(&mut out).map_err(Error::Output)?;
            Ok(EXIT_SUCCESS)
        }
    }
}

/// Scenario files from the command line (relative to the working directory), or the
/// `scenarios` setting.
fn load_scenarios(
    settings: &Settings,
    cwd: &Path,
    paths: &[PathBuf],
) -> Result<Vec<Scenario>, Error> {
    let paths: Vec<PathBuf> = if paths.is_empty() {
        if !settings.scenarios.exists() {
            return Err(Error::Usage(format!(
                "no scenarios directory at {}: create it with `.steps` files, set `scenarios` \
                 in prettyplay.toml, or name scenario files on the command line",
                settings.scenarios.display()
            )));
        }
        vec![settings.scenarios.clone()]
    } else {
        paths.iter().map(|p| cwd.join(p)).collect()
    };
    Ok(scenario::load(&settings.project_root, &paths)?)
}

fn grep_of(global: &GlobalArgs) -> Result<Option<Regex>, Error> {
    global
        .grep
        .as_deref()
        .map(|pattern| {
            Regex::new(pattern)
                .map_err(|err| Error::Usage(format!("invalid --grep pattern {pattern:?}: {err}")))
        })
        .transpose()
}

fn verbosity_of(global: &GlobalArgs) -> Verbosity {
    if global.quiet {
        Verbosity::Quiet
    } else if global.verbose > 0 {
        Verbosity::Verbose
    } else {
        Verbosity::Normal
    }
}

fn run_tests(
    settings: &Settings,
    scenarios: &[Scenario],
    global: &GlobalArgs,
    mode: Mode,
    colors: bool,
    out: impl Write,
) -> Result<u8, Error> {
    let grep = grep_of(global)?;
    let selected = select_tests(scenarios, grep.as_ref());
    if selected.is_empty() {
        return Err(Error::Usage(match &global.grep {
            Some(pattern) => format!("no tests match --grep {pattern:?}"),
            None => "no tests to run: the scenario files declare none".to_owned(),
        }));
    }
    let driver = find_driver(&env_var)?;
    let chromium = find_chromium(settings.browser.executable.as_deref(), &env_var)?;
    export_driver_env(&driver);
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(Error::Runtime)?;
    let provider = provider_for(mode, settings, tokio.handle())?;
    let config = RunConfig {
        mode,
        limits: Limits::new(settings.browser.timeout),
        polling: settings.polling.clone(),
        cache: Cache::new(&settings.cache_dir),
        llm: settings.llm.clone(),
        budgets: settings.budgets,
        provider,
    };
    let runner = Runner::new(scenarios, selected, config)?;
    let browser = tokio.block_on(BrowserRuntime::launch(
        &settings.browser,
        &driver,
        &chromium,
    ))?;

    let mut reporter = TerminalReporter::new(out, colors, verbosity_of(global));
    let mut write_error = None;
    let stats = runner.run(&browser, tokio.handle(), &mut |event| {
        if write_error.is_none()
            && let Err(err) = reporter.handle(&event)
        {
            write_error = Some(err);
        }
    });
    tokio.block_on(browser.shutdown());
    if let Some(err) = write_error {
        return Err(Error::Output(err));
    }
    Ok(if stats.infrastructure_failures > 0 {
        EXIT_INFRA
    } else if stats.failed > 0 {
        EXIT_TEST_FAILED
    } else {
        EXIT_SUCCESS
    })
}

/// The LLM provider a mode needs: none in strict replay (never constructed); optional in
/// replay (verdicts only; a broken configuration is a warning); required by `run`.
fn provider_for(
    mode: Mode,
    settings: &Settings,
    handle: &tokio::runtime::Handle,
) -> Result<Option<Arc<dyn LlmProvider>>, Error> {
    match mode {
        Mode::StrictReplay => Ok(None),
        Mode::Replay => match build_provider(&settings.llm, &env_var, handle.clone()) {
            Ok(provider) => Ok(provider.map(Arc::from)),
            Err(err) => {
                tracing::warn!("no verdicts for failures: {err}");
                eprintln!("WARNING: no verdicts for failures: {err}");
                Ok(None)
            }
        },
        Mode::Run { .. } => match build_provider(&settings.llm, &env_var, handle.clone()) {
            Ok(Some(provider)) => Ok(Some(Arc::from(provider))),
            Ok(None) => Err(Error::Usage(
                "`prettyplay run` needs an LLM to generate and heal steps: set `provider` and \
                 `model` under [llm] in prettyplay.toml (or PRETTYPLAY_LLM_PROVIDER and \
                 PRETTYPLAY_LLM_MODEL); see docs/llm.md. To run cached code only, use \
                 `prettyplay replay`"
                    .to_owned(),
            )),
            Err(err) => Err(Error::Usage(format!(
                "the [llm] settings cannot be used: {err}"
            ))),
        },
    }
}

fn list(
    settings: &Settings,
    scenarios: &[Scenario],
    global: &GlobalArgs,
    mut out: impl Write,
) -> Result<(), Error> {
    let grep = grep_of(global)?;
    let cache = Cache::new(&settings.cache_dir);
    let mut cache_files = std::collections::HashMap::new();
    let mut tests = 0;
    let mut missing = 0;
    for (si, ti) in select_tests(scenarios, grep.as_ref()) {
        let scenario = &scenarios[si];
        let test = &scenario.tests[ti];
        let cached = match cache_files.entry(si) {
            std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(cache.load(&scenario.rel_path)?)
            }
        };
        let tags: String = test.tags.iter().map(|t| format!(" @{t}")).collect();
        writeln!(out, "{} › {}{tags}", scenario.rel_path, test.name).map_err(Error::Output)?;
        tests += 1;
        for step in &test.steps {
            let key = StepKey::of(scenario, test, step);
            let is_cached = cached.as_ref().is_some_and(|file| file.get(&key).is_some());
            if !is_cached {
                missing += 1;
            }
            let mark = if is_cached { "cached " } else { "missing" };
            writeln!(out, "  [{mark}] {}", step.sentence).map_err(Error::Output)?;
        }
    }
    writeln!(
        out,
        "{tests} test(s), {missing} step(s) without cached code"
    )
    .map_err(Error::Output)
}
