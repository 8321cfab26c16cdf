//! The browser side: finding the Playwright driver and Chromium, launching them once per
//! process, and handing each test a fresh, isolated page.
//!
//! Main types: [`BrowserRuntime`] (the driver, started again if it dies), [`WorkerBrowser`]
//! (one Chromium per worker, relaunched after a crash; or one connection per worker to a
//! browser that runs elsewhere, made again after it was lost), [`TestPage`] (one browser context
//! and page per test), [`Lifeline`] (whether the driver or a browser went away) and
//! [`TraceViewer`] (Playwright's trace viewer, for `prettyplay show-trace`).

mod app_loader;
mod axe_script;
mod browser_target;
mod chromium_args;
mod closed_port;
mod connection_watch;
mod driver_error;
mod driver_path;
mod events;
mod guard_log;
mod image_diff;
mod launch_failure;
mod lifeline;
mod locate;
mod origin_blocked;
mod origins;
mod outbound_proxy;
mod remote;
mod reuse;
mod route_patterns;
mod runtime;
mod saved_state;
mod sentinel;
mod step_reach;
mod step_timers;
mod test_page;
mod trace_viewer;
mod traffic;
mod traffic_rule;
mod unheard;
mod version;

pub(crate) use axe_script::{AXE_VERSION, AxeError, AxeScript, axe_dir};
pub(crate) use browser_target::BrowserTarget;
pub(crate) use driver_error::DriverError;
pub(crate) use events::ContextEvents;
pub use guard_log::OriginSeen;
pub(crate) use image_diff::diff_images;
pub(crate) use launch_failure::ExitedAtLaunch;
pub(crate) use lifeline::{Lifeline, LifelineCut, Loss, Watched};
pub(crate) use locate::{
    DriverPaths, browser_title, default_driver_dir, find_browser, find_driver, node_arch,
    private_node_path,
};
pub(crate) use origins::OriginGuard;
pub(crate) use runtime::{
    BrowserRuntime, DriverEnv, FIREFOX_CHANNEL, WorkerBrowser, chromium_launch_args,
    export_driver_env, withhold_from_driver,
};
pub(crate) use saved_state::SavedState;
pub(crate) use step_reach::Reach;
pub(crate) use test_page::{CLOSE_LIMIT, CallError, NavigationClock, TestPage};
pub(crate) use trace_viewer::TraceViewer;
pub(crate) use traffic::{SettleAt, Settled};
pub use traffic_rule::Outcome as OriginOutcome;
pub(crate) use version::DRIVER_VERSION;
