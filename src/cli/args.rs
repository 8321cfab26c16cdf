//! The command line, as clap structs. Nothing outside the `cli` module sees these.
//!
//! Each command takes only the flags that do something for it: the groups below ([`ConfigArgs`],
//! [`BrowserArgs`], [`LlmArgs`], [`SelectArgs`], [`RunnerArgs`], [`ReportArgs`]) are flattened into
//! the commands they affect, and only [`GlobalArgs`] (the log's detail and colours, which every
//! command has) is global.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::runner::Shard;

/// Plain-sentence web UI tests, replayed from cached Playwright step code.
#[derive(Debug, Parser)]
#[command(name = "prettyplay", version, about, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub global: GlobalArgs,
}

/// The flags of every command: they may come before or after the command's name.
#[derive(Debug, Args)]
pub(crate) struct GlobalArgs {
    /// More output: every step and its console output in a run, the matched snapshot lines in
    /// explain (-vv: debug logs).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// When to use colours.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

/// `--config`: the commands that read prettyplay.toml.
#[derive(Debug, Args)]
pub(crate) struct ConfigArgs {
    /// Use this prettyplay.toml; its directory is the project root.
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
}

/// The browser's settings: the commands that open pages (run, replay, explain).
#[derive(Debug, Args)]
#[command(next_help_heading = "Browser")]
pub(crate) struct BrowserArgs {
    /// Base URL of the app under test (`page.goto('/')` goes there).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Browser to run in: chromium (the default) or firefox. Given several times, every test
    /// runs in each, as Playwright's `--project`.
    #[arg(long = "browser", value_name = "NAME")]
    pub browsers: Vec<String>,
    /// Browser executable to use instead of the one on PATH (`chromium`, `firefox-esr`).
    #[arg(long, value_name = "PATH")]
    pub executable: Option<PathBuf>,
    /// Timeout of actions and expectations, in seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Screen mode: `WxH` (e.g. 1280x720), `fullscreen`, or a device name ("iPhone 13").
    #[arg(long, value_name = "MODE")]
    pub screen: Option<String>,
    /// Show the browser window.
    #[arg(long)]
    pub headed: bool,
    /// Pause this many seconds before every browser operation, to watch a run.
    #[arg(long, value_name = "SECONDS")]
    pub slow_mo: Option<f64>,
}

/// The LLM's settings: the commands that may ask it (run; replay, for verdicts).
#[derive(Debug, Args)]
#[command(next_help_heading = "LLM")]
pub(crate) struct LlmArgs {
    /// LLM provider: `openai` (any OpenAI-compatible endpoint) or `anthropic`.
    #[arg(long, value_name = "NAME")]
    pub llm_provider: Option<String>,
    /// LLM model name.
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// LLM endpoint base URL (e.g. http://127.0.0.1:11434/v1 for Ollama).
    #[arg(long, value_name = "URL")]
    pub llm_base_url: Option<String>,
}

/// `-q`: the commands whose reporters print a run (run, replay, merge-reports).
#[derive(Debug, Args)]
pub(crate) struct QuietArgs {
    /// Less output: failures and the closing line only.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run tests: write code for new steps (the built-in generator, or the LLM when [llm] is
    /// set), heal steps the UI outgrew.
    Run(RunArgs),
    /// Run tests from their cached step code only (never generates or heals).
    Replay(ReplayArgs),
    /// Replay the suite from its cache like `replay --strict` and run the mutation proof on
    /// every cached check step: each check must fail when the page is changed to contradict its
    /// sentence. Names every check that cannot fail (FILE:LINE:) and exits 1 if there is one.
    /// Changes no cache entry.
    Audit(AuditArgs),
    /// List tests, their steps and whether each step is cached.
    List(ListArgs),
    /// Serve an HTML report on 127.0.0.1 and open it in a browser.
    ///
    /// Serves the report directory (written by `--reporter html`) over HTTP, prints its URL and
    /// opens it with xdg-open when there is a display (DISPLAY or WAYLAND_DISPLAY). Only files
    /// under the directory are served. Runs until Ctrl-C.
    ShowReport(ShowReportArgs),
    /// Open a trace in Playwright's trace viewer, served on 127.0.0.1.
    ///
    /// Runs the viewer of the pinned driver (playwright-core's `show-trace`) on a trace zip
    /// written by `--trace`, prints its URL, and lets it open a browser when there is a display
    /// (DISPLAY or WAYLAND_DISPLAY). Runs until Ctrl-C.
    ShowTrace(ShowTraceArgs),
    /// Start a project: prettyplay.toml, an example scenario with its cached code, .gitignore
    /// entries and a GitHub Actions workflow. Never overwrites a file.
    Init {
        /// The project directory (default: the current one).
        dir: Option<PathBuf>,
    },
    /// Print the code the built-in generator writes for a sentence on a page, or why it
    /// declines.
    ///
    /// Opens one page (the base URL, or `--url`) in headless Chromium with the settings of
    /// prettyplay.toml, reads its aria snapshot as `run` does, and prints the step code (exit
    /// 0) or `declined: <why>` (exit 1) with the elements it weighed and `try:` rewrites it
    /// reads on the page. `-v` adds the snapshot lines it matched against. With FILE:LINE
    /// instead of a sentence, the step at that line is explained on the page its test has when
    /// it reaches it: the earlier steps run first (their cached code, else the built-in
    /// generator's; nothing is cached).
    Explain(ExplainArgs),
    /// Print the JavaScript API step code can use (generated from the binding).
    Api,
    /// Manage the step cache.
    #[command(subcommand)]
    Cache(CacheCommand),
    /// Merge the report blobs of a sharded run (`--reporter blob`) into one report and one
    /// summary, as if it had been one run.
    MergeReports(MergeArgs),
    /// Install the pinned Playwright driver (npm) and, with `--with-deps`, the browser (apt).
    ///
    /// The driver goes into the user cache; `--with-deps`, as root, also installs the browser
    /// and the driver's system packages with apt-get. Idempotent: what is there is found, not
    /// installed again. Without a target: the browsers the project runs (`[browser] name` or
    /// `browsers`; Chromium by default) and the driver. Browsers come only from Debian's packages
    /// (`chromium`, `firefox-esr`): nothing is downloaded from outside the package registries.
    Install(InstallArgs),
    /// Write a Playwright Test project of the scenarios and their cached code.
    ///
    /// One `*.spec.ts` per scenario, each step a `test.step` with its cached code, and a
    /// `playwright.config.ts` with the settings of prettyplay.toml and the very browser
    /// prettyplay launches. `npx playwright test` in DIR passes and fails as `prettyplay replay
    /// --strict` does (docs/export.md).
    Export(ExportArgs),
    /// Convert Playwright planner plans (`specs/*.plan.md`) or Gherkin `.feature` files into
    /// `.steps` files.
    Import(ImportArgs),
    /// List the origins outside [browser] allowed_origins that the last run's tests reached
    /// for: what was loaded for the app, blocked or failed, and the allowed_origins line that
    /// lets the app's own through.
    Origins(OriginsArgs),
}

#[derive(Debug, Args)]
pub(crate) struct OriginsArgs {
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Debug, Args)]
pub(crate) struct InstallArgs {
    /// What to install (default: the project's browsers, else chromium, and the driver; a
    /// browser brings the driver too).
    #[arg(value_name = "WHAT", value_enum)]
    pub targets: Vec<InstallTarget>,
    /// Also install system packages with apt-get (needs root): the browser, Node.js, npm and
    /// CA certificates, where missing.
    #[arg(long)]
    pub with_deps: bool,
    /// Print what would be installed and change nothing.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The directory of the Playwright Test project to write (created; files prettyplay wrote
    /// there before are replaced, others are kept).
    #[arg(long, value_name = "DIR", required = true)]
    pub playwright: PathBuf,
    /// Scenario files or directories (default: the `scenarios` setting).
    #[arg(value_name = "PATHS")]
    pub paths: Vec<PathBuf>,
    /// Export cached code that uses what prettyplay's sandbox does not provide (Node.js
    /// modules, `process`, `globalThis`, ...): the exported project runs it with Node's
    /// privileges.
    #[arg(long)]
    pub allow_unsandboxed: bool,
    #[command(flatten)]
    pub config: ConfigArgs,
    /// The exported config takes the browser's settings as a run would.
    #[command(flatten)]
    pub browser: BrowserArgs,
}

#[derive(Debug, Args)]
pub(crate) struct ImportArgs {
    /// Playwright plans (`*.plan.md`) or Gherkin files (`*.feature`).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Where the `.steps` files go (default: the `scenarios` setting). An existing file is
    /// never overwritten.
    #[arg(long, value_name = "DIR")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub config: ConfigArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum InstallTarget {
    Chromium,
    Firefox,
    Driver,
}

#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    /// The step sentence, quoted as one argument: `"click the Add button"`; or FILE:LINE, a
    /// step of a `.steps` or `.feature` file: `scenarios/todo.steps:12`.
    #[arg(value_name = "SENTENCE|FILE:LINE")]
    pub sentence: String,
    /// The page: a path relative to the base URL (`/login.html`) or an absolute URL (default:
    /// the base URL).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Also run the written code once on the page and say whether it passed (exit 1 if not).
    #[arg(long)]
    pub execute: bool,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub browser: BrowserArgs,
}

#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// Directories (searched at any depth for `*.jsonl` blobs) or blob files.
    #[arg(value_name = "DIR", required = true)]
    pub dirs: Vec<PathBuf>,
    /// Reporter: list, dot, json, junit, html or blob (repeatable).
    #[arg(long = "reporter", value_name = "NAME")]
    pub reporters: Vec<String>,
    /// Directory for the merged report files (json, junit, html, blob, traces).
    #[arg(
        long,
        visible_alias = "output-dir",
        value_name = "DIR",
        default_value = "prettyplay-report"
    )]
    pub output: PathBuf,
    /// Exit 1 when a test of the merged run is flaky.
    #[arg(long)]
    pub fail_on_flaky_tests: bool,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    #[command(flatten)]
    pub paths: PathsArgs,
    /// Fail a step whose cached code fails instead of healing it (it still gets a verdict).
    #[arg(long)]
    pub no_heal: bool,
    /// Let healed code through even when it checks less than the cached code (`heal.veto =
    /// false`); every summary warns.
    #[arg(long)]
    pub no_heal_veto: bool,
    /// Rewrite the screenshot baselines the pages no longer match (as Playwright's `-u`); a
    /// mismatch then passes instead of failing as a product defect.
    #[arg(long, short = 'u')]
    pub update_snapshots: bool,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub runner: RunnerArgs,
    #[command(flatten)]
    pub browser: BrowserArgs,
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// How tests are scheduled (run and replay).
#[derive(Debug, Args)]
pub(crate) struct RunnerArgs {
    /// Parallel workers, each with its own browser (default: half the CPUs, at least 1).
    #[arg(short = 'j', long, value_name = "N")]
    pub workers: Option<usize>,
    /// Run a failed test again from scratch up to N times; one that then passes is flaky.
    #[arg(long, value_name = "N")]
    pub retries: Option<u32>,
    /// Fail the run (exit 1) when a test is flaky: it failed, then passed on a retry.
    #[arg(long)]
    pub fail_on_flaky_tests: bool,
    /// Accept the violations of an axe-core rule, with the reason (`accessibility.accept`;
    /// repeat for several rules).
    #[arg(long, value_name = "RULE=WHY")]
    pub a11y_accept: Vec<String>,
    /// Stop scheduling tests after N failures (running tests finish).
    #[arg(long, value_name = "N", conflicts_with = "exit_first")]
    pub max_failures: Option<usize>,
    /// Stop scheduling tests after the first failure (same as --max-failures 1).
    #[arg(short = 'x', long)]
    pub exit_first: bool,
    /// Fail a test that runs longer than this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub test_timeout: Option<f64>,
    /// Watch the run: headed, one worker, no test timeout (a day), `--slow-mo 0.5` unless set,
    /// every step announced before it runs, and every step shown (-v).
    #[arg(long)]
    pub debug: bool,
    #[command(flatten)]
    pub select: SelectArgs,
    #[command(flatten)]
    pub report: ReportArgs,
}

/// What a run of tests writes and prints (run and replay).
#[derive(Debug, Args)]
#[command(next_help_heading = "Reports")]
pub(crate) struct ReportArgs {
    /// Reporter: list, dot, json, junit, html or blob (repeatable).
    #[arg(long = "reporter", value_name = "NAME")]
    pub reporters: Vec<String>,
    /// Directory for report files (json, junit, html, blob, traces).
    #[arg(long, value_name = "DIR", default_value = "prettyplay-report")]
    pub output: PathBuf,
    /// Record Playwright traces: on, off, or retain-on-failure.
    #[arg(long, value_name = "MODE", value_enum, default_value_t = TraceArg::Off)]
    pub trace: TraceArg,
    /// Write the run's events as JSON lines to this file.
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

/// Which tests to run or list (run, replay, list).
#[derive(Debug, Args)]
#[command(next_help_heading = "Test selection")]
pub(crate) struct SelectArgs {
    /// Only tests whose `file › test` name matches this regular expression.
    #[arg(short = 'g', long, value_name = "PATTERN")]
    pub grep: Option<String>,
    /// Only tests whose `file › test` name does not match this regular expression.
    #[arg(long, value_name = "PATTERN")]
    pub grep_invert: Option<String>,
    /// Only tests matching this tag expression: `smoke`, `'smoke and not slow'`, `'(a or b)'`
    /// (repeatable; any of them matches).
    #[arg(long = "tag", value_name = "EXPR")]
    pub tags: Vec<String>,
    /// Only the tests that failed in the previous run.
    #[arg(long)]
    pub last_failed: bool,
    /// Only part K of N of the selected tests (for CI matrices), e.g. 2/4.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    #[command(flatten)]
    pub paths: PathsArgs,
    /// Output format: text, or json (a stable shape, docs/reports.md).
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    pub format: ListFormat,
    /// Instead of the list, name every step without cached code whose sentence none of the
    /// built-in generator's shapes reads (no browser is started); exit 1 if there is one.
    #[arg(long)]
    pub check: bool,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub select: SelectArgs,
}

#[derive(Debug, Args)]
pub(crate) struct ShowReportArgs {
    /// The report's directory (default: prettyplay-report, where `--output` puts it by default).
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
    #[command(flatten)]
    pub serve: ServeArgs,
}

#[derive(Debug, Args)]
pub(crate) struct ShowTraceArgs {
    /// A trace zip, as `--trace` writes them under `<output>/traces/`.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// Where `show-report` and `show-trace` serve.
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// Host to serve on (`0.0.0.0`: every interface, to open it from another machine).
    #[arg(long, value_name = "HOST", default_value = "127.0.0.1")]
    pub host: String,
    /// Port to serve on (0: a free one).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub port: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ListFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum TraceArg {
    On,
    Off,
    RetainOnFailure,
}

#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    #[command(flatten)]
    pub paths: PathsArgs,
    /// Never contact an LLM, not even for verdicts: cached code only, a missing step fails
    /// (the CI mode).
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub runner: RunnerArgs,
    #[command(flatten)]
    pub browser: BrowserArgs,
    #[command(flatten)]
    pub llm: LlmArgs,
}

#[derive(Debug, Args)]
pub(crate) struct AuditArgs {
    #[command(flatten)]
    pub paths: PathsArgs,
    #[command(flatten)]
    pub config: ConfigArgs,
    #[command(flatten)]
    pub runner: RunnerArgs,
    #[command(flatten)]
    pub browser: BrowserArgs,
}

#[derive(Debug, Args)]
pub(crate) struct PathsArgs {
    /// Scenario files or directories (default: the `scenarios` setting); `FILE:LINE` selects the
    /// test at that line.
    #[arg(value_name = "PATHS")]
    pub paths: Vec<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub(crate) enum CacheCommand {
    /// Remove cached steps whose scenario, test or step no longer exists.
    Prune(PruneArgs),
}

#[derive(Debug, Args)]
pub(crate) struct PruneArgs {
    /// Print what would be removed and change nothing.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub config: ConfigArgs,
}

impl Command {
    /// `--config`, for the commands that read prettyplay.toml.
    pub(crate) fn config(&self) -> Option<&ConfigArgs> {
        match self {
            Command::Run(args) => Some(&args.config),
            Command::Replay(args) => Some(&args.config),
            Command::Audit(args) => Some(&args.config),
            Command::List(args) => Some(&args.config),
            Command::Explain(args) => Some(&args.config),
            Command::Cache(CacheCommand::Prune(args)) => Some(&args.config),
            Command::Export(args) => Some(&args.config),
            Command::Import(args) => Some(&args.config),
            Command::Origins(args) => Some(&args.config),
            Command::ShowReport(_)
            | Command::ShowTrace(_)
            | Command::Init { .. }
            | Command::Api
            | Command::Install(_)
            | Command::MergeReports(_) => None,
        }
    }

    /// The browser flags, for the commands that open pages.
    pub(crate) fn browser(&self) -> Option<&BrowserArgs> {
        match self {
            Command::Run(args) => Some(&args.browser),
            Command::Replay(args) => Some(&args.browser),
            Command::Audit(args) => Some(&args.browser),
            Command::Explain(args) => Some(&args.browser),
            Command::Export(args) => Some(&args.browser),
            _ => None,
        }
    }

    /// The LLM flags, for the commands that may ask it.
    pub(crate) fn llm(&self) -> Option<&LlmArgs> {
        match self {
            Command::Run(args) => Some(&args.llm),
            Command::Replay(args) => Some(&args.llm),
            _ => None,
        }
    }

    /// The scheduling flags, for the commands that run tests.
    pub(crate) fn runner(&self) -> Option<&RunnerArgs> {
        match self {
            Command::Run(args) => Some(&args.runner),
            Command::Replay(args) => Some(&args.runner),
            Command::Audit(args) => Some(&args.runner),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// Every command's `--help`, as the binary prints it at a width of 100 columns, found by
    /// walking the command tree: a new command or flag shows up in a snapshot of its own
    /// without this test being touched.
    #[test]
    fn every_help_page_matches_its_snapshot() {
        let mut paths = Vec::new();
        command_paths(&Cli::command(), &mut Vec::new(), &mut paths);
        assert!(paths.len() > 10, "found only {} commands", paths.len());
        for path in paths {
            let args = std::iter::once("prettyplay")
                .chain(path.iter().map(String::as_str))
                .chain(["--help"]);
            let err = Cli::command()
                .term_width(100)
                .try_get_matches_from(args)
                .expect_err("--help stops the parse");
            assert_eq!(err.kind(), clap::error::ErrorKind::DisplayHelp, "{path:?}");
            let name = std::iter::once("help")
                .chain(path.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join("-");
            insta::assert_snapshot!(name, err.render().to_string());
        }
    }

    /// The names leading from the top to `command` and to each of its subcommands, at any depth.
    fn command_paths(command: &clap::Command, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(path.clone());
        for sub in command.get_subcommands() {
            path.push(sub.get_name().to_owned());
            command_paths(sub, path, out);
            path.pop();
        }
    }

    #[test]
    fn flags_that_do_nothing_for_a_command_are_refused_by_it() {
        let refused = [
            &["cache", "prune", "--headed"][..],
            &["cache", "prune", "--grep", "x"],
            &["list", "--model", "m"],
            &["list", "--executable", "/bin/true"],
            &["explain", "s", "--llm-base-url", "http://x/"],
            &["show-report", "--config", "p.toml"],
            &["merge-reports", "d", "--base-url", "http://x/"],
            &["api", "--timeout", "3"],
            &["init", "--slow-mo", "1"],
        ];
        for args in refused {
            let parsed =
                Cli::try_parse_from(std::iter::once("prettyplay").chain(args.iter().copied()));
            assert!(parsed.is_err(), "{args:?} was accepted");
        }
    }

    #[test]
    fn command_flags_parse_after_the_command_and_global_ones_anywhere() {
        let cli = Cli::try_parse_from([
            "prettyplay",
            "-v",
            "replay",
            "--strict",
            "-g",
            "todo",
            "--base-url",
            "http://x/",
            "a.steps",
            "--color",
            "never",
        ])
        .unwrap();
        assert_eq!(cli.global.verbose, 1);
        assert_eq!(cli.global.color, ColorChoice::Never);
        let Command::Replay(replay) = cli.command else {
            panic!("expected replay");
        };
        assert_eq!(replay.runner.select.grep.as_deref(), Some("todo"));
        assert_eq!(replay.browser.base_url.as_deref(), Some("http://x/"));
        assert!(replay.strict);
        assert_eq!(replay.paths.paths, [PathBuf::from("a.steps")]);
        assert!(Cli::try_parse_from(["prettyplay", "run", "-q", "-v"]).is_err());
    }

    #[test]
    fn merge_reports_takes_dirs_reporters_and_an_output_dir() {
        let cli = Cli::try_parse_from([
            "prettyplay",
            "merge-reports",
            "a",
            "b",
            "--reporter",
            "html",
            "--reporter",
            "junit",
            "--output-dir",
            "merged",
        ])
        .unwrap();
        let Command::MergeReports(merge) = cli.command else {
            panic!("expected merge-reports");
        };
        assert_eq!(merge.dirs, [PathBuf::from("a"), PathBuf::from("b")]);
        assert_eq!(merge.reporters, ["html", "junit"]);
        assert_eq!(merge.output, PathBuf::from("merged"));
        assert!(Cli::try_parse_from(["prettyplay", "merge-reports"]).is_err());
    }

    #[test]
    fn show_report_and_show_trace_serve_on_127_0_0_1_and_a_free_port_by_default() {
        let cli = Cli::try_parse_from(["prettyplay", "show-report"]).unwrap();
        let Command::ShowReport(args) = cli.command else {
            panic!("expected show-report");
        };
        assert_eq!(args.dir, None);
        assert_eq!(
            (args.serve.host.as_str(), args.serve.port),
            ("127.0.0.1", 0)
        );

        let cli = Cli::try_parse_from([
            "prettyplay",
            "show-trace",
            "t.zip",
            "--port",
            "9322",
            "--host",
            "0.0.0.0",
        ])
        .unwrap();
        let Command::ShowTrace(args) = cli.command else {
            panic!("expected show-trace");
        };
        assert_eq!(args.file, PathBuf::from("t.zip"));
        assert_eq!(
            (args.serve.host.as_str(), args.serve.port),
            ("0.0.0.0", 9322)
        );
        assert!(Cli::try_parse_from(["prettyplay", "show-trace"]).is_err());
    }
}
