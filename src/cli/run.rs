//! `prettyplay run`, `replay` and `audit`, as stages (as cargo-nextest's `dispatch.rs` runs
//! its tests): the plan ([`RunPlan::prepare`]), the host the tests run on ([`RunHost`]: the
//! driver and the web servers), the reporters, the run itself ([`RunHost::run`]), and the
//! summary: the record for `--last-failed` and the exit code ([`exit_code_of`]).
//!
//! Main entry point: [`run_tests`].

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::cache::{Cache, Removal, prune};
use crate::cli::run_options::RunOptions;
pub(crate) use crate::cli::run_options::reporter_kinds;
use crate::cli::run_plan::{Prepared, RunPlan, say_on_stderr};
use crate::cli::stdout_sink::StdoutSink;
use crate::cli::{env_var, masked_for_stderr};
use crate::config::Settings;
use crate::error::{
    EXIT_INFRA, EXIT_INTERRUPTED, EXIT_SUCCESS, EXIT_TEST_FAILED, EXIT_USAGE, Error,
};
use crate::llm::{LlmProvider, build_provider, key_variables};
use crate::report::{Reporters, Verbosity, build_reporters};
use crate::runner::{
    EventKind, FailedTest, LastRun, Mode, RunEvent, RunHost, RunJob, RunStats, StepId, StepKind,
    TestDuration, TestFinished, TestKind, TestOutcome,
};
use crate::scenario::Scenario;
use crate::secrets::Secrets;
use crate::stop_signal::{self, Reaction, StopSignal};
use crate::web_server::{LineSink, kill_all_now};

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

/// Runs the selected tests and returns the run's exit code.
pub(crate) fn run_tests(
    settings: &Settings,
    scenarios: &[Scenario],
    mode: Mode,
    options: &RunOptions,
) -> Result<u8, Error> {
    let plan = match RunPlan::prepare(settings, scenarios, mode, options)? {
        Prepared::Run(plan) => plan,
        Prepared::Nothing(why) => {
            writeln!(io::stdout(), "{why}").map_err(Error::Output)?;
            return Ok(EXIT_SUCCESS);
        }
    };
    // The API key is read now, while the process has one thread, and removed from the
    // environment that the driver and Chromium inherit.
    let withhold = key_variables(&settings.llm);
    let mut host = RunHost::new(
        settings,
        plan.driver.clone(),
        plan.targets.clone(),
        &withhold,
    )?;
    host.guard_secrets(plan.secrets.clone());
    let env = |name: &str| host.withheld(name).or_else(|| env_var(name));
    let provider = provider_for(mode, settings, &env, host.handle())?;
    install_interrupt_handler(host.cancel());
    let suite = plan.suite();
    let config = plan.config(provider, host.cancel());
    let mut job = RunJob::new(scenarios, &plan.selected, config, &plan.labels, &suite)?;
    host.start(plan.first_project(), web_server_sink(options.verbosity))?;
    let mut events = RunEvents::new(&plan)?;
    let outcome = host.run(&mut job, &mut |event| events.handle(event));
    let finished = events.reporters.finish();
    for warning in host.stop() {
        warn(&warning);
    }
    let stats = outcome?;
    let code = summarize(&plan, events, finished, &stats)?;
    say_stale_entries(settings, scenarios);
    Ok(code)
}

/// The most stale cache entries named one by one after a run; the rest are counted.
const STALE_SHOWN: usize = 3;

/// Says, after a run, which cache entries of the run's scenario files no longer match any
/// sentence (a sentence was rewritten, a test or a file removed), and names `cache prune`.
/// Cache files of scenarios the run did not read are left to `cache prune`'s own look.
fn say_stale_entries(settings: &Settings, scenarios: &[Scenario]) {
    let cache = Cache::new(&settings.cache_dir);
    let stale = match prune(&cache, &settings.project_root, scenarios, true) {
        Ok(stale) => stale,
        // A malformed cache file was an error of the run already, or will be of the next.
        Err(err) => {
            tracing::debug!("could not look for stale cache entries: {err}");
            return;
        }
    };
    if let Some(note) = stale_note(&stale) {
        say_on_stderr("note", &note);
    }
}

/// The note about `stale` cache entries, `None` when there are none.
fn stale_note(stale: &[Removal]) -> Option<String> {
    if stale.is_empty() {
        return None;
    }
    let (entries, verb, them) = if stale.len() == 1 {
        ("cache entry", "matches", "it")
    } else {
        ("cache entries", "match", "them")
    };
    let mut note = format!(
        "{} {entries} no longer {verb} any sentence of the scenarios; `prettyplay cache prune` \
         removes {them} (`--dry-run` lists {them} first):",
        stale.len()
    );
    for removal in stale.iter().take(STALE_SHOWN) {
        note.push_str(&format!("\n  {}", removal.what()));
    }
    if stale.len() > STALE_SHOWN {
        note.push_str(&format!("\n  and {} more", stale.len() - STALE_SHOWN));
    }
    Some(note)
}

/// The last stage: records the run for `--last-failed`, reports a report that could not be
/// written, and returns the exit code.
fn summarize(
    plan: &RunPlan<'_>,
    events: RunEvents<'_>,
    finished: io::Result<()>,
    stats: &RunStats,
) -> Result<u8, Error> {
    plan.record(events.record, stats);
    if let Some(err) = events.write_error.or(finished.err()) {
        return Err(Error::Output(err));
    }
    Ok(match exit_code_of(stats, plan.settings.run.fail_on_flaky) {
        // The run was stopped by a signal: its code says which (130, 143 or 129).
        EXIT_INTERRUPTED => stop_signal::interrupted_exit_code(),
        // `prettyplay audit`: a check that cannot fail fails the audit like a failed test.
        EXIT_SUCCESS if plan.mode == Mode::Audit && stats.checks_vacuous > 0 => EXIT_TEST_FAILED,
        code => code,
    })
}

/// What the CLI does with each event of a run: it announces the step with `--debug`, masks the
/// run's secrets (here and nowhere else, so that every reporter and `last-run.json` see only
/// the masked event), keeps what `--last-failed` records, and hands the event to every
/// reporter.
struct RunEvents<'p> {
    reporters: Reporters,
    secrets: &'p Secrets,
    debug: bool,
    /// The failed tests and the durations of this run, for `last-run.json`.
    record: LastRun,
    /// The first error of a reporter. The other reporters keep getting events when one fails,
    /// so that a full disk under one report does not cut the others short.
    write_error: Option<io::Error>,
}

impl<'p> RunEvents<'p> {
    /// Builds the reporters of `plan`.
    fn new(plan: &'p RunPlan<'_>) -> Result<Self, Error> {
        let options = plan.options;
        let is_tty = io::IsTerminal::is_terminal(&io::stdout());
        let reporters = build_reporters(
            &plan.report_options(),
            Box::new(StdoutSink::new(io::stdout())),
            options.colors,
            options.verbosity,
            is_tty,
            &env_var,
        )
        .map_err(Error::Output)?;
        Ok(RunEvents {
            reporters,
            secrets: &plan.secrets,
            debug: options.debug,
            record: LastRun {
                version: 1,
                ..LastRun::default()
            },
            write_error: None,
        })
    }

    fn handle(&mut self, event: RunEvent) {
        if self.debug
            && let EventKind::Step(StepId { test, index }, StepKind::Started(started)) = &event.kind
        {
            announce_step(test, *index, &started.sentence, started.line);
        }
        let event = event.masked(self.secrets);
        if let EventKind::Test(test, TestKind::Finished(TestFinished { outcome, duration })) =
            &event.kind
        {
            if let TestOutcome::Failed(_) = outcome {
                self.record.failed.push(FailedTest {
                    scenario: test.scenario.clone(),
                    test: test.name.clone(),
                    project: test.project.clone(),
                });
            }
            let durations = TestDuration::of_finished(test, outcome, *duration);
            self.record.durations.extend(durations);
        }
        if let EventKind::Test(_, TestKind::Origins(seen)) = &event.kind {
            self.record.note_origins(&seen.origins);
        }
        if let Err(err) = self.reporters.handle(&event) {
            self.write_error.get_or_insert(err);
        }
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
    fn stale_entries_are_counted_the_first_named_and_prune_named() {
        assert_eq!(stale_note(&[]), None);
        let gone = |n: usize| Removal::ScenarioGone {
            file: format!("cache/scenarios/old{n}.steps.toml").into(),
            scenario: format!("scenarios/old{n}.steps"),
        };
        let one = stale_note(&[gone(1)]).unwrap();
        assert_eq!(
            one,
            "1 cache entry no longer matches any sentence of the scenarios; `prettyplay cache \
             prune` removes it (`--dry-run` lists it first):\n  cache/scenarios/old1.steps.toml \
             (scenario gone)"
        );
        let many = stale_note(&(1..=5).map(gone).collect::<Vec<_>>()).unwrap();
        assert!(
            many.starts_with("5 cache entries no longer match"),
            "{many}"
        );
        assert!(many.contains("old3.steps.toml"), "{many}");
        assert!(!many.contains("old4.steps.toml"), "{many}");
        assert!(many.ends_with("\n  and 2 more"), "{many}");
    }

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
}
