//! The command line, as clap structs. Nothing outside the `cli` module sees these.

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

#[derive(Debug, Args)]
pub(crate) struct GlobalArgs {
    /// Use this prettyplay.toml; its directory is the project root.
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Base URL of the app under test (`page.goto('/')` goes there).
    #[arg(long, global = true, value_name = "URL")]
    pub base_url: Option<String>,
    /// Chromium executable to use instead of `chromium` on PATH.
    #[arg(long, global = true, value_name = "PATH")]
    pub executable: Option<PathBuf>,
    /// Timeout of actions and expectations, in seconds.
    #[arg(long, global = true, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Screen mode: `WxH` (e.g. 1280x720), `fullscreen`, or a device name ("iPhone 13").
    #[arg(long, global = true, value_name = "MODE")]
    pub screen: Option<String>,
    /// LLM provider: `openai` (any OpenAI-compatible endpoint) or `anthropic`.
    #[arg(long, global = true, value_name = "NAME")]
    pub llm_provider: Option<String>,
    /// LLM model name.
    #[arg(long, global = true, value_name = "NAME")]
    pub model: Option<String>,
    /// LLM endpoint base URL (e.g. http://127.0.0.1:11434/v1 for Ollama).
    #[arg(long, global = true, value_name = "URL")]
    pub llm_base_url: Option<String>,
    /// Show the browser window.
    #[arg(long, global = true)]
    pub headed: bool,
    /// Pause this many seconds before every browser operation, to watch a run.
    #[arg(long, global = true, value_name = "SECONDS")]
    pub slow_mo: Option<f64>,
    /// Only tests whose `file › test` name matches this regular expression.
    #[arg(short = 'g', long, global = true, value_name = "PATTERN")]
    pub grep: Option<String>,
    /// Only tests whose `file › test` name does not match this regular expression.
    #[arg(long, global = true, value_name = "PATTERN")]
    pub grep_invert: Option<String>,
    /// More output: every step, and step code's console output (-vv: debug logs).
    #[arg(short, long, global = true, action = clap::ArgAction::Count, conflicts_with = "quiet")]
    pub verbose: u8,
    /// Less output: failures and the closing line only.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// When to use colours.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run tests: generate code for new steps with the LLM, heal steps the UI outgrew.
    Run(RunArgs),
    /// Run tests from their cached step code only (never generates or heals).
    Replay(ReplayArgs),
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
    /// 0) or `declined: <why>` (exit 1). `-v` adds the snapshot lines it matched against.
    Explain(ExplainArgs),
    /// Print the JavaScript API step code can use (generated from the binding).
    Api,
    /// Manage the step cache.
    #[command(subcommand)]
    Cache(CacheCommand),
    /// Merge the report blobs of a sharded run (`--reporter blob`) into one report and one
    /// summary, as if it had been one run.
    MergeReports(MergeArgs),
    /// Install the pinned Playwright driver (npm, into the user cache) and, with `--with-deps`
    /// as root, the browser and the driver's system packages (apt). Idempotent.
    ///
    /// Without a target: Chromium and the driver. Browsers come only from Debian's packages
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
}

#[derive(Debug, Args)]
pub(crate) struct InstallArgs {
    /// What to install (default: chromium and the driver; a browser brings the driver too).
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
    #[command(flatten)]
    pub paths: PathsArgs,
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum InstallTarget {
    Chromium,
    Firefox,
    Driver,
}

#[derive(Debug, Args)]
pub(crate) struct ExplainArgs {
    /// The step sentence, quoted as one argument: `"click the Add button"`.
    #[arg(value_name = "SENTENCE")]
    pub sentence: String,
    /// The page: a path relative to the base URL (`/login.html`) or an absolute URL (default:
    /// the base URL).
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,
    /// Also run the written code once on the page and say whether it passed (exit 1 if not).
    #[arg(long)]
    pub execute: bool,
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
}

#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// Fail a step whose cached code fails instead of healing it (it still gets a verdict).
    #[arg(long)]
    pub no_heal: bool,
    /// Let healed code through even when it checks less than the cached code (`heal.veto =
    /// false`); every summary warns.
    #[arg(long)]
    pub no_heal_veto: bool,
    #[command(flatten)]
    pub runner: RunnerArgs,
    #[command(flatten)]
    pub paths: PathsArgs,
}

/// How tests are scheduled and reported (run and replay).
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
    #[command(flatten)]
    pub select: SelectArgs,
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
    /// Record Playwright traces: on, off, or retain-on-failure.
    #[arg(long, value_name = "MODE", value_enum, default_value_t = TraceArg::Off)]
    pub trace: TraceArg,
    /// Reporter: list, dot, json, junit, html or blob (repeatable).
    #[arg(long = "reporter", value_name = "NAME")]
    pub reporters: Vec<String>,
    /// Directory for report files (json, junit, html, blob, traces).
    #[arg(long, value_name = "DIR", default_value = "prettyplay-report")]
    pub output: PathBuf,
    /// Write the run's events as JSON lines to this file.
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
}

/// Which tests to run or list (run, replay, list), besides `--grep` and `--grep-invert`.
#[derive(Debug, Args)]
pub(crate) struct SelectArgs {
    /// Only part K of N of the selected tests (for CI matrices), e.g. 2/4.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Only tests matching this tag expression: `smoke`, `'smoke and not slow'`, `'(a or b)'`
    /// (repeatable; any of them matches).
    #[arg(long = "tag", value_name = "EXPR")]
    pub tags: Vec<String>,
    /// Only the tests that failed in the previous run.
    #[arg(long)]
    pub last_failed: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// Output format: text, or json (a stable shape, docs/reports.md).
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    pub format: ListFormat,
    #[command(flatten)]
    pub select: SelectArgs,
    #[command(flatten)]
    pub paths: PathsArgs,
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
    /// Never contact an LLM, not even for verdicts: cached code only, a missing step fails
    /// (the CI mode).
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub runner: RunnerArgs,
    #[command(flatten)]
    pub paths: PathsArgs,
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
    Prune {
        /// Print what would be removed and change nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn global_flags_work_after_the_subcommand() {
        let cli = Cli::try_parse_from([
            "prettyplay",
            "replay",
            "--strict",
            "-g",
            "todo",
            "--base-url",
            "http://x/",
            "a.steps",
        ])
        .unwrap();
        assert_eq!(cli.global.grep.as_deref(), Some("todo"));
        assert_eq!(cli.global.base_url.as_deref(), Some("http://x/"));
        let Command::Replay(replay) = cli.command else {
            panic!("expected replay");
        };
        assert!(replay.strict);
        assert_eq!(replay.paths.paths, [PathBuf::from("a.steps")]);
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
