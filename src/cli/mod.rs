//! The command-line interface. It parses the arguments, resolves the settings, executes the
//! command and maps the outcome to an exit code. No other module knows about clap.
//!
//! Main entry point: [`main`].

mod args;
mod cached_steps;
mod explain;
mod explain_at;
mod explain_try;
mod init;
mod list;
mod list_check;
mod merge;
mod optional_checks;
mod origins;
mod run;
mod run_options;
mod run_plan;
mod select;
mod show;
mod stdout_sink;

use run::run_tests;
use run_options::RunOptions;
use select::{SelectOptions, split_locations};

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::OnceLock;

use clap::Parser;

use crate::cache::{Cache, prune};
use crate::config::{BrowserName, Overrides, Settings};
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
        // A command whose reader went away (`prettyplay list | head`) did its work, so it
        // succeeds. A run never gets here for a closed stdout: its reporters write through a
        // `StdoutSink`, and it exits with the run's code.
        Err(Error::Output(err)) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            // An error may quote a `.steps` line or a name: escaped like every terminal line.
            let report = masked_for_stderr(&err.report().to_string());
            eprintln!("{}", crate::report::visible_text(&report));
            ExitCode::from(err.exit_code())
        }
    }
}

/// Decides whether a stream gets colours. `--color always` and `never` decide alone; `auto`
/// colours a terminal when `NO_COLOR` is unset or empty. The reporters on stdout and the log on
/// stderr both follow this rule.
fn colors(choice: ColorChoice, is_terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => is_terminal && env_var("NO_COLOR").is_none_or(|v| v.is_empty()),
    }
}

/// Sets up the log on stderr, coloured only when `ansi` is true (see [`colors`]).
fn init_tracing(verbose: u8, ansi: bool) {
    // playwright-rs logs an error for every protocol object it does not know, such as the
    // `Disposable` that Playwright answers `addInitScript` with; prettyplay watches the driver
    // itself, so those lines are left out unless the log is asked for by name.
    let default = match verbose {
        0 | 1 => {
            "warn,playwright_rs::server::object_factory=off,playwright_rs::server::connection=off"
        }
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
        .fmt_fields(visible_fields())
        .with_writer(|| MaskedStderr(Vec::new()))
        .with_ansi(ansi)
        .without_time()
        .try_init();
}

/// Formats a log event's fields masked, then escaped as every terminal line is, because a log
/// line may quote a test's name, a step's console output or a page's URL. Secrets are masked
/// before the escaping, which would otherwise hide a secret that holds a control character from
/// the mask. The message is written bare and other fields as `name=value`, as by default.
fn visible_fields() -> impl for<'w> tracing_subscriber::fmt::FormatFields<'w> + 'static {
    use tracing_subscriber::field::MakeExt as _;
    tracing_subscriber::fmt::format::debug_fn(
        |writer: &mut tracing_subscriber::fmt::format::Writer<'_>,
         field: &tracing::field::Field,
         value: &dyn std::fmt::Debug| {
            let text = masked_for_stderr(&format!("{value:?}"));
            let text = crate::report::visible_text(&text);
            if field.name() == "message" {
                write!(writer, "{text}")
            } else {
                write!(writer, "{field}={text}")
            }
        },
    )
    .delimited(" ")
}

/// Holds the run's secrets once they are resolved, so that the log and the final error on
/// stderr can mask them.
static STDERR_SECRETS: OnceLock<Secrets> = OnceLock::new();

/// Masks `secrets` in everything written to stderr from now on: the log and the final error.
pub(crate) fn mask_stderr(secrets: &Secrets) {
    let _ = STDERR_SECRETS.set(secrets.clone());
}

fn masked_for_stderr(text: &str) -> String {
    match STDERR_SECRETS.get() {
        Some(secrets) => secrets.mask(text).into_owned(),
        None => text.to_owned(),
    }
}

/// Collects one log event and writes it to stderr, masked, when it is dropped. The log formats
/// an event, writes it and then drops the writer, so each event is masked as a whole.
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

/// The pause that `--debug` adds before every browser operation when none is configured.
const DEBUG_SLOW_MO: std::time::Duration = std::time::Duration::from_millis(500);

/// Executes the command of `cli` and returns its exit code.
fn execute(cli: Cli) -> Result<u8, Error> {
    let cwd = std::env::current_dir().map_err(Error::WorkingDirectory)?;
    let global = &cli.global;
    let command = &cli.command;
    // Only the commands that work on a project read its settings. A new project has none, a CI
    // merge job may have only the report blobs, and a broken prettyplay.toml must not keep a
    // report from being shown or the API from being listed.
    let settings = || project_settings(command, &cwd);
    let stdout_colors = || colors(global.color, io::stdout().is_terminal());
    let tests = |paths: &args::PathsArgs, runner: &args::RunnerArgs, mode, update_snapshots| {
        Tests::new(&settings()?, &cwd, &paths.paths)?.run(
            global,
            runner,
            (mode, update_snapshots),
            stdout_colors(),
        )
    };
    match command {
        Command::Init { dir } => {
            let dir = dir.as_ref().map_or_else(|| cwd.clone(), |d| cwd.join(d));
            init::init(&dir, &mut io::stdout().lock())?;
            Ok(EXIT_SUCCESS)
        }
        Command::MergeReports(args) => merge::merge_reports(global, args, &cwd, stdout_colors()),
        Command::Install(args) => install(args, settings().ok().as_ref()),
        Command::ShowReport(args) => show::show_report(args, &cwd),
        Command::ShowTrace(args) => show::show_trace(args, &cwd),
        Command::Api => api(),
        Command::Run(run) => tests(
            &run.paths,
            &run.runner,
            Mode::Run { heal: !run.no_heal },
            run.update_snapshots,
        ),
        Command::Replay(replay) => {
            let mode = if replay.strict {
                Mode::StrictReplay
            } else {
                Mode::Replay
            };
            tests(&replay.paths, &replay.runner, mode, false)
        }
        Command::Audit(audit) => tests(&audit.paths, &audit.runner, Mode::Audit, false),
        Command::List(args) => list(&settings()?, &cwd, args),
        // `explain FILE:LINE` explains a step of a test; anything else is a sentence.
        Command::Explain(args) => {
            let out = &mut io::stdout().lock();
            match explain_at::StepAt::parse(&args.sentence) {
                Some(at) => {
                    explain_at::explain_at(&settings()?, args, &cwd, &at, global.verbose > 0, out)
                }
                None => explain::explain(&settings()?, args, global.verbose > 0, out),
            }
        }
        Command::Export(args) => export(&settings()?, &cwd, args),
        Command::Import(args) => {
            let settings = settings()?;
            let dir = args
                .output
                .as_ref()
                .map_or_else(|| settings.scenarios.clone(), |d| cwd.join(d));
            crate::import::import_files(&cwd, &args.files, &dir, &mut io::stdout().lock())?;
            Ok(EXIT_SUCCESS)
        }
        Command::Cache(CacheCommand::Prune(PruneArgs { dry_run, .. })) => {
            cache_prune(&settings()?, &cwd, *dry_run)
        }
        Command::Origins(_) => {
            origins::origins(&settings()?.project_root, &mut io::stdout().lock())
                .map_err(Error::Output)?;
            Ok(EXIT_SUCCESS)
        }
    }
}

/// `prettyplay api`: prints the step-code API listing.
fn api() -> Result<u8, Error> {
    let listing = crate::script::api_listing().map_err(Error::ApiListing)?;
    writeln!(io::stdout().lock(), "{listing}").map_err(Error::Output)?;
    Ok(EXIT_SUCCESS)
}

/// `prettyplay list`: lists the selected tests of the `PATH[:LINE]` arguments, or checks them
/// with `--check`.
fn list(settings: &Settings, cwd: &Path, args: &args::ListArgs) -> Result<u8, Error> {
    let tests = Tests::new(settings, cwd, &args.paths.paths)?;
    let mut select = SelectOptions::new(&args.select, tests.locations)?;
    select.setup_files = tests.setup_files;
    if args.check {
        return list_check::check(
            settings,
            &tests.scenarios,
            &select,
            args.format,
            io::stdout().lock(),
        );
    }
    list::list(
        settings,
        &tests.scenarios,
        &select,
        args.format,
        io::stdout().lock(),
    )?;
    Ok(EXIT_SUCCESS)
}

/// `prettyplay export`: writes a Playwright Test project of the scenarios, with the browsers of
/// the project.
fn export(settings: &Settings, cwd: &Path, args: &args::ExportArgs) -> Result<u8, Error> {
    let scenarios = load_scenarios(settings, cwd, &args.paths)?;
    let executables = settings
        .browser
        .browsers
        .iter()
        .map(|&name| {
            crate::driver::find_browser(
                name,
                settings.browser.executable.as_deref(),
                &settings.sources.place("browser.executable"),
                &env_var,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let dir = cwd.join(&args.playwright);
    let target = crate::export::ExportTarget {
        dir: &dir,
        executables: &executables,
        allow_unsandboxed: args.allow_unsandboxed,
    };
    crate::export::export_playwright(settings, &scenarios, &target, &mut io::stdout().lock())?;
    Ok(EXIT_SUCCESS)
}

/// Resolves the settings of the project that `command` works on, and adds `--debug`'s pause
/// when none is configured.
fn project_settings(command: &Command, cwd: &Path) -> Result<Settings, Error> {
    let debug = command.runner().is_some_and(|r| r.debug);
    let mut settings = Settings::resolve(cwd, &env_var, &overrides_of(command))?;
    if debug && settings.browser.slow_mo.is_zero() {
        settings.browser.slow_mo = DEBUG_SLOW_MO;
    }
    Ok(settings)
}

/// The scenarios that `run`, `replay` or `list` works on, loaded from its `PATH[:LINE]`
/// arguments.
struct Tests<'a> {
    settings: &'a Settings,
    cwd: &'a Path,
    scenarios: Vec<Scenario>,
    /// The `:LINE` parts of the arguments.
    locations: Vec<select::NamedLocation>,
    /// How many files were added for the setup tests that the named tests need.
    setup_files: usize,
}

impl<'a> Tests<'a> {
    fn new(settings: &'a Settings, cwd: &'a Path, arguments: &[PathBuf]) -> Result<Self, Error> {
        let (paths, locations) = split_locations(cwd, arguments)?;
        let (scenarios, setup_files) = load_with_setups(settings, cwd, &paths)?;
        Ok(Self {
            settings,
            cwd,
            scenarios,
            locations,
            setup_files,
        })
    }

    /// Runs the selected tests in `mode` (rewriting the screenshot baselines they no longer
    /// match when `update_snapshots`) and returns the run's exit code.
    fn run(
        self,
        global: &GlobalArgs,
        runner: &args::RunnerArgs,
        (mode, update_snapshots): (Mode, bool),
        colors: bool,
    ) -> Result<u8, Error> {
        let mut options = RunOptions::new(global, runner, self.locations, self.cwd, colors)?;
        options.select.setup_files = self.setup_files;
        options.update_snapshots = update_snapshots;
        run_tests(self.settings, &self.scenarios, mode, &options)
    }
}

/// `prettyplay cache prune`: removes (or with `dry_run` lists) the cache entries and files no
/// scenario uses any more.
fn cache_prune(settings: &Settings, cwd: &Path, dry_run: bool) -> Result<u8, Error> {
    let scenarios = load_scenarios(settings, cwd, &[])?;
    let cache = Cache::new(&settings.cache_dir);
    let removals = prune(&cache, &settings.project_root, &scenarios, dry_run)?;
    let write = |out: &mut dyn Write| -> io::Result<()> {
        for removal in &removals {
            let line = if dry_run {
                format!("{removal:#}")
            } else {
                format!("{removal}")
            };
            writeln!(out, "{}", crate::report::visible_text(&line))?;
        }
        match (removals.len(), dry_run) {
            (0, _) => writeln!(out, "nothing to prune"),
            (n, true) => writeln!(out, "{n} removal(s) would be made (dry run)"),
            (n, false) => writeln!(out, "{n} removal(s) made"),
        }
    };
    write(&mut io::stdout().lock()).map_err(Error::Output)?;
    Ok(EXIT_SUCCESS)
}

/// Runs `prettyplay install` on this machine.
/// `prettyplay install`. Without a target it installs the browsers the project in `settings`
/// runs (`[browser] name` or `browsers`), or Chromium where there is no project.
fn install(args: &args::InstallArgs, settings: Option<&Settings>) -> Result<u8, Error> {
    let mut targets: Vec<crate::install::Target> = args
        .targets
        .iter()
        .map(|target| match target {
            args::InstallTarget::Chromium => crate::install::Target::Chromium,
            args::InstallTarget::Firefox => crate::install::Target::Firefox,
            args::InstallTarget::Driver => crate::install::Target::Driver,
        })
        .collect();
    if targets.is_empty()
        && let Some(settings) = settings.filter(|s| s.browser.remote.is_none())
    {
        targets = settings
            .browser
            .browsers
            .iter()
            .filter_map(|name| match name {
                BrowserName::Chromium => Some(crate::install::Target::Chromium),
                BrowserName::Firefox => Some(crate::install::Target::Firefox),
                BrowserName::Webkit => None,
            })
            .collect();
    }
    let request = crate::install::InstallRequest {
        targets,
        with_deps: args.with_deps,
        dry_run: args.dry_run,
    };
    let system = crate::install::HostSystem { env: &env_var };
    crate::install::install(&request, &system, &mut io::stdout().lock())?;
    Ok(EXIT_SUCCESS)
}

/// Returns the settings that the flags of `command` give. `--debug` adds a headed browser, one
/// worker and no test timeout.
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
        browsers: browser.map(|b| b.browsers.clone()).unwrap_or_default(),
        screen: browser.and_then(|b| b.screen.clone()),
        llm_provider: llm.and_then(|l| l.llm_provider.clone()),
        llm_model: llm.and_then(|l| l.model.clone()),
        llm_base_url: llm.and_then(|l| l.llm_base_url.clone()),
        // `--debug` means one worker and no test timeout; a day is the longest timeout allowed.
        workers: runner.and_then(|r| r.workers).or(debug.then_some(1)),
        test_timeout: runner
            .and_then(|r| r.test_timeout)
            .or(debug.then_some(86_400.0)),
        retries: runner.and_then(|r| r.retries),
        fail_on_flaky_tests: runner.is_some_and(|r| r.fail_on_flaky_tests),
        no_heal_veto: matches!(command, Command::Run(run) if run.no_heal_veto),
        accept_violations: runner.map(|r| r.a11y_accept.clone()).unwrap_or_default(),
    }
}

/// Loads the scenario files named on the command line (relative to the working directory), or
/// else those of the `scenarios` setting.
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
    let scenarios = scenario::load(&settings.project_root, &paths)?;
    optional_checks::refuse_optional_checks(&scenarios)?;
    Ok(scenarios)
}

/// Loads the scenarios named by `paths` (see [`load_scenarios`]) and, after them, the files of
/// the `scenarios` directory that hold setup tests (`[saves=NAME]`) which the named tests need.
/// Returns the scenarios and how many files were added. Saved states are checked across all of
/// them.
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
        // An added setup may start from a state of its own, so the search repeats until it
        // finds nothing more.
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
        // A second test that saves a state of this run is an error, as it is in a run of the
        // whole suite, rather than a choice between the two.
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
    // The setup files added run too, so an optional check in one of them is refused as well.
    optional_checks::refuse_optional_checks(&scenarios[scenarios.len() - added..])?;
    scenario::check_states(&scenarios)?;
    Ok((scenarios, added))
}

/// Returns how much a run prints, from `-q` and `-v`.
pub(crate) fn verbosity_of(global: &GlobalArgs, quiet: &QuietArgs) -> Verbosity {
    if quiet.quiet {
        Verbosity::Quiet
    } else if global.verbose > 0 {
        Verbosity::Verbose
    } else {
        Verbosity::Normal
    }
}
