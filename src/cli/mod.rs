//! The command-line interface: parse, resolve settings, execute, map the outcome to an exit
//! code. The only module that knows about clap.
//!
//! Main entry point: [`main`].

mod args;
mod explain;
mod init;
mod list;
mod merge;
mod run;
mod select;
mod show;

use run::{RunOptions, run_tests};
use select::{SelectOptions, split_locations};

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;

use clap::Parser;

use crate::cache::{Cache, prune};
use crate::config::{Overrides, Settings};
use crate::error::{EXIT_SUCCESS, Error};
use crate::report::Verbosity;
use crate::runner::Mode;
use crate::scenario::{self, Scenario};
use crate::secrets::Secrets;
use args::{CacheCommand, Cli, ColorChoice, Command, GlobalArgs, PruneArgs, QuietArgs};

/// Runs prettyplay with the process's arguments and environment.
#[expect(
    clippy::print_stderr,
    reason = "the CLI's output path: the final error goes to stderr"
)]
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // clap prints help/version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() { 2 } else { 0 });
        }
    };
    init_tracing(
        cli.global.verbose,
        colors(cli.global.color, io::stderr().is_terminal()),
    );
    match execute(cli) {
        Ok(code) => ExitCode::from(code),
        Err(Error::Output(err)) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("{}", masked_for_stderr(&err.report().to_string()));
            ExitCode::from(err.exit_code())
        }
    }
}

/// Whether a stream gets colours: `--color always` or `never`, else (`auto`) when it is a terminal
/// and `NO_COLOR` is unset or empty. The reporters (stdout) and the log (stderr) both follow it.
fn colors(choice: ColorChoice, is_terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => is_terminal && env_var("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// The log on stderr, coloured only when `ansi` (see [`colors`]).
fn init_tracing(verbose: u8, ansi: bool) {
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
        .with_writer(|| MaskedStderr(Vec::new()))
        .with_ansi(ansi)
        .without_time()
        .try_init();
}

/// The run's secrets, once resolved: the log and the final error on stderr mask them.
static STDERR_SECRETS: OnceLock<Secrets> = OnceLock::new();

/// Masks `secrets` in everything written to stderr from now on (the log, the final error).
pub(crate) fn mask_stderr(secrets: &Secrets) {
    let _ = STDERR_SECRETS.set(secrets.clone());
}

fn masked_for_stderr(text: &str) -> String {
    match STDERR_SECRETS.get() {
        Some(secrets) => secrets.mask(text).into_owned(),
        None => text.to_owned(),
    }
}

/// One log event, gathered whole and written to stderr masked when dropped (the log formats an
/// event, writes it, then drops its writer).
struct MaskedStderr(Vec<u8>);

impl Write for MaskedStderr {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let text = String::from_utf8_lossy(&self.0).into_owned();
        self.0.clear();
        io::stderr().write_all(masked_for_stderr(&text).as_bytes())
    }
}

impl Drop for MaskedStderr {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

pub(crate) fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// `--debug`'s pause before every browser operation, unless one is configured.
const DEBUG_SLOW_MO: std::time::Duration = std::time::Duration::from_millis(500);

fn execute(cli: Cli) -> Result<u8, Error> {
    let cwd = std::env::current_dir().map_err(Error::WorkingDirectory)?;
    if let Command::Init { dir } = &cli.command {
        // Before any settings are read: a new project has none, an old one keeps its own.
        let dir = dir.as_ref().map_or_else(|| cwd.clone(), |d| cwd.join(d));
        init::init(&dir, &mut io::stdout().lock())?;
        return Ok(EXIT_SUCCESS);
    }
    if let Command::MergeReports(args) = &cli.command {
        // Blobs carry all a merge needs: no prettyplay.toml is read (a CI merge job may have
        // only the artifacts).
        let colors = colors(cli.global.color, io::stdout().is_terminal());
        return merge::merge_reports(&cli.global, args, &cwd, colors);
    }
    if let Command::Install(args) = &cli.command {
        // Before any settings are read: installing needs no project.
        return install(args);
    }
    // None of these reads settings: a broken prettyplay.toml must not keep a report from being
    // read or the API from being listed.
    match &cli.command {
        Command::ShowReport(args) => return show::show_report(args, &cwd),
        Command::ShowTrace(args) => return show::show_trace(args, &cwd),
        Command::Api => {
            let listing = crate::script::api_listing().map_err(Error::ApiListing)?;
            writeln!(io::stdout().lock(), "{listing}").map_err(Error::Output)?;
            return Ok(EXIT_SUCCESS);
        }
        _ => {}
    }
    let overrides = overrides_of(&cli.command);
    let debug = cli.command.runner().is_some_and(|r| r.debug);
    let mut settings = Settings::resolve(&cwd, &env_var, &overrides)?;
    if debug && settings.browser.slow_mo.is_zero() {
        settings.browser.slow_mo = DEBUG_SLOW_MO;
    }
    let stdout = io::stdout();
    let colors = colors(cli.global.color, stdout.is_terminal());
    match cli.command {
        Command::Run(run) => {
            let (paths, locations) = split_locations(&cwd, &run.paths.paths)?;
            let (scenarios, setup_files) = load_with_setups(&settings, &cwd, &paths)?;
            let mode = Mode::Run { heal: !run.no_heal };
            let mut options = RunOptions::new(&cli.global, &run.runner, locations, &cwd, colors)?;
            options.select.setup_files = setup_files;
            run_tests(&settings, &scenarios, mode, &options)
        }
        Command::Replay(replay) => {
            let (paths, locations) = split_locations(&cwd, &replay.paths.paths)?;
            let (scenarios, setup_files) = load_with_setups(&settings, &cwd, &paths)?;
            let mode = if replay.strict {
                Mode::StrictReplay
            } else {
                Mode::Replay
            };
            let mut options =
                RunOptions::new(&cli.global, &replay.runner, locations, &cwd, colors)?;
            options.select.setup_files = setup_files;
            run_tests(&settings, &scenarios, mode, &options)
        }
        Command::List(args) => {
            let (paths, locations) = split_locations(&cwd, &args.paths.paths)?;
            let (scenarios, setup_files) = load_with_setups(&settings, &cwd, &paths)?;
            let mut select = SelectOptions::new(&args.select, locations)?;
            select.setup_files = setup_files;
            list::list(&settings, &scenarios, &select, args.format, stdout.lock())?;
            Ok(EXIT_SUCCESS)
        }
        Command::Init { .. }
        | Command::Install(_)
        | Command::MergeReports(_)
        | Command::ShowReport(_)
        | Command::ShowTrace(_)
        | Command::Api => {
            unreachable!("handled before the settings are read")
        }
        Command::Explain(args) => {
            explain::explain(&settings, &args, cli.global.verbose > 0, &mut stdout.lock())
        }
        Command::Export(args) => {
            let scenarios = load_scenarios(&settings, &cwd, &args.paths)?;
            let chromium =
                crate::driver::find_chromium(settings.browser.executable.as_deref(), &env_var)?;
            let dir = cwd.join(&args.playwright);
            let target = crate::export::ExportTarget {
                dir: &dir,
                chromium: &chromium,
            };
            crate::export::export_playwright(&settings, &scenarios, &target, &mut stdout.lock())?;
            Ok(EXIT_SUCCESS)
        }
        Command::Import(args) => {
            let dir = args
                .output
                .as_ref()
                .map_or_else(|| settings.scenarios.clone(), |d| cwd.join(d));
            crate::import::import_files(&cwd, &args.files, &dir, &mut stdout.lock())?;
            Ok(EXIT_SUCCESS)
        }
        Command::Cache(CacheCommand::Prune(PruneArgs { dry_run, .. })) => {
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

/// `prettyplay install`: the request, run on this machine.
fn install(args: &args::InstallArgs) -> Result<u8, Error> {
    let targets = args
        .targets
        .iter()
        .map(|target| match target {
            args::InstallTarget::Chromium => crate::install::Target::Chromium,
            args::InstallTarget::Firefox => crate::install::Target::Firefox,
            args::InstallTarget::Driver => crate::install::Target::Driver,
        })
        .collect();
    let request = crate::install::InstallRequest {
        targets,
        with_deps: args.with_deps,
        dry_run: args.dry_run,
    };
    let system = crate::install::HostSystem { env: &env_var };
    crate::install::install(&request, &system, &mut io::stdout().lock())?;
    Ok(EXIT_SUCCESS)
}

/// The settings the command line gives: those of the flags `command` has, and `--debug`'s
/// (headed, one worker, no test timeout).
fn overrides_of(command: &Command) -> Overrides {
    let browser = command.browser();
    let llm = command.llm();
    let runner = command.runner();
    let debug = runner.is_some_and(|r| r.debug);
    Overrides {
        config: command.config().and_then(|c| c.config.clone()),
        base_url: browser.and_then(|b| b.base_url.clone()),
        headed: browser.is_some_and(|b| b.headed) || debug,
        executable: browser.and_then(|b| b.executable.clone()),
        timeout: browser.and_then(|b| b.timeout),
        slow_mo: browser.and_then(|b| b.slow_mo),
        screen: browser.and_then(|b| b.screen.clone()),
        llm_provider: llm.and_then(|l| l.llm_provider.clone()),
        llm_model: llm.and_then(|l| l.model.clone()),
        llm_base_url: llm.and_then(|l| l.llm_base_url.clone()),
        // --debug: one worker and no test timeout (a day, the longest allowed).
        workers: runner.and_then(|r| r.workers).or(debug.then_some(1)),
        test_timeout: runner
            .and_then(|r| r.test_timeout)
            .or(debug.then_some(86_400.0)),
        retries: runner.and_then(|r| r.retries),
        fail_on_flaky_tests: runner.is_some_and(|r| r.fail_on_flaky_tests),
        no_heal_veto: matches!(command, Command::Run(run) if run.no_heal_veto),
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

/// The scenarios named by `paths` (see [`load_scenarios`]), and after them the files of the
/// `scenarios` directory that hold the setup tests (`[saves=NAME]`) their tests need but they
/// do not; with how many such files were added. Saved states are checked across all of them.
fn load_with_setups(
    settings: &Settings,
    cwd: &Path,
    paths: &[PathBuf],
) -> Result<(Vec<Scenario>, usize), Error> {
    let mut scenarios = load_scenarios(settings, cwd, paths)?;
    let mut added = 0;
    if !scenario::unsaved_states(&scenarios).is_empty() && settings.scenarios.exists() {
        let mut others: Vec<Scenario> = scenario::load(
            &settings.project_root,
            std::slice::from_ref(&settings.scenarios),
        )?
        .into_iter()
        .filter(|other| scenarios.iter().all(|s| s.path != other.path))
        .collect();
        // A setup added may start from a state of its own: look again until nothing more
        // is found.
        loop {
            let missing = scenario::unsaved_states(&scenarios);
            let Some(at) = others.iter().position(|other| {
                other
                    .tests
                    .iter()
                    .any(|t| t.saves.as_ref().is_some_and(|name| missing.contains(name)))
            }) else {
                break;
            };
            scenarios.push(others.remove(at));
            added += 1;
        }
        // A second test saving a state of the run is an error here as in a whole-suite run,
        // not a choice between them.
        let ours: Vec<&str> = scenarios
            .iter()
            .flat_map(|s| &s.tests)
            .filter_map(|t| t.saves.as_deref())
            .collect();
        let rivals: Vec<Scenario> = others
            .into_iter()
            .filter(|other| {
                other
                    .tests
                    .iter()
                    .any(|t| t.saves.as_deref().is_some_and(|name| ours.contains(&name)))
            })
            .collect();
        if !rivals.is_empty() {
            let mut all = scenarios.clone();
            all.extend(rivals);
            scenario::check_states(&all)?;
        }
    }
    scenario::check_states(&scenarios)?;
    Ok((scenarios, added))
}

pub(crate) fn verbosity_of(global: &GlobalArgs, quiet: &QuietArgs) -> Verbosity {
    if quiet.quiet {
        Verbosity::Quiet
    } else if global.verbose > 0 {
        Verbosity::Verbose
    } else {
        Verbosity::Normal
    }
}
