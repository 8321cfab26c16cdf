//! How tests run, apart from the tests themselves: the mode, limits, settle window, cache, LLM,
//! workers, timeouts and traces of a run, as the CLI resolved them.
//!
//! Main type: [`RunConfig`], with [`Mode`] and [`TraceMode`].

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::cache::Cache;
use crate::config::{
    AcceptedViolation, BudgetSettings, BuiltinOrder, Isolation, LlmSettings, PollingSettings, Vars,
};
use crate::llm::LlmProvider;
use crate::script::{Limits, SnapshotMode};

/// How steps get their code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Cached code only; a step without cached code fails its test. Never contacts an LLM.
    StrictReplay,
    /// Cached code only, never generates or heals; a failure gets a verdict when an LLM is
    /// configured and reachable.
    Replay,
    /// Generates missing steps; heals failing ones unless `heal` is off (then a failure gets a
    /// verdict, as in replay).
    Run { heal: bool },
    /// `prettyplay audit`: strict replay that also runs the mutation proof of every cached
    /// check step that passed. Changes no cache entry.
    Audit,
}

/// Everything about how tests run that is not the tests themselves.
#[derive(Clone)]
pub(crate) struct RunConfig {
    pub mode: Mode,
    pub limits: Limits,
    pub polling: PollingSettings,
    pub cache: Cache,
    pub llm: LlmSettings,
    pub budgets: BudgetSettings,
    /// `heal.veto`: healed code that checks less than the cached code is refused.
    pub heal_veto: bool,
    /// `[browser] allowed_origins = ["*"]`: the pages may reach every origin (the summary warns).
    pub allowed_origins_off: bool,
    /// `None` in strict replay (never constructed) or when no LLM is configured.
    pub provider: Option<Arc<dyn LlmProvider>>,
    /// `[generate] builtin`: where the built-in generator comes in when `run` writes code.
    pub builtin: BuiltinOrder,
    /// `[generate] reuse`: steps try the code other tests proved for the same sentence first.
    pub reuse: bool,
    /// Parallel workers, each with a browser of its own.
    pub workers: usize,
    pub isolation: Isolation,
    pub test_timeout: std::time::Duration,
    /// Times a failed test runs again from scratch (`--retries`).
    pub retries: u32,
    /// Stop scheduling after this many failed tests (running tests finish).
    pub max_failures: Option<usize>,
    /// Set on Ctrl-C: no new test starts, running tests stop before their next step.
    pub cancel: Arc<AtomicBool>,
    pub trace: TraceMode,
    /// Where trace zips go.
    pub trace_dir: PathBuf,
    /// Whether `toHaveScreenshot` may write baselines (`--update-snapshots` rewrites them).
    pub snapshots: SnapshotMode,
    /// Where the expected, actual and diff images of a screenshot mismatch go.
    pub screenshot_dir: PathBuf,
    /// `[accessibility] accept`: the axe-core rules whose violations do not fail a check.
    pub accept_violations: Vec<AcceptedViolation>,
    /// The driver directory, beside which `prettyplay install` put axe-core.
    pub driver_dir: Option<PathBuf>,
    /// Where setup tests save their storage state (`.prettyplay/state`).
    pub state_dir: PathBuf,
    /// The scenario variables step code reads as `vars` (a test's example row adds its own).
    pub vars: Vars,
    /// The label of the browser project the runner's tests run in (`firefox`), which their
    /// names carry; `None` in a run of the default Chromium alone.
    pub project: Option<String>,
    /// The engine of a run of one browser (`chromium`, `firefox`), which names its screenshot
    /// baselines when no project label does, so that a Firefox run never compares with, or
    /// writes over, a Chromium baseline.
    pub browser_name: String,
}

/// `--trace`: Playwright traces per test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum TraceMode {
    #[default]
    Off,
    On,
    RetainOnFailure,
}
