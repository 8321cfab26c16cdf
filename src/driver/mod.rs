//! The browser side: finding the Playwright driver and Chromium, launching them once per
//! process, and handing each test a fresh, isolated page.
//!
//! Main types: [`BrowserRuntime`] (the driver, started again if it dies), [`WorkerBrowser`]
//! (one Chromium per worker, relaunched after a crash; or one connection per worker to a
//! browser that runs elsewhere, made again after it was lost), [`TestPage`] (one browser context
//! and page per test), [`Lifeline`] (whether the driver or a browser went away) and
//! [`TraceViewer`] (Playwright's trace viewer, for `prettyplay show-trace`).

mod browser_target;
mod connection_watch;
mod driver_error;
mod driver_path;
mod events;
mod lifeline;
mod locate;
mod origins;
mod remote;
mod reuse;
mod runtime;
mod saved_state;
mod test_page;
mod trace_viewer;
mod version;

pub use browser_target::BrowserTarget;
pub use driver_error::DriverError;
pub use events::ContextEvents;
pub use lifeline::{Lifeline, LifelineCut};
pub use locate::{
    DriverPaths, default_driver_dir, find_chromium, find_driver, node_arch, private_node_path,
};
pub use origins::OriginGuard;
pub use runtime::{
    BrowserRuntime, DriverEnv, WorkerBrowser, chromium_launch_args, export_driver_env,
    withhold_from_driver,
};
pub use saved_state::SavedState;
pub use test_page::{CLOSE_LIMIT, NavigationClock, TestPage};
pub use trace_viewer::TraceViewer;
pub use version::DRIVER_VERSION;
