//! The browser side: finding the Playwright driver and Chromium, launching them once per
//! process, and handing each test a fresh, isolated page.
//!
//! Main types: [`BrowserRuntime`] (one driver + browser per process) and [`TestPage`] (one
//! browser context and page per test).

mod driver_error;
mod events;
mod locate;
mod origins;
mod runtime;
mod version;

pub use driver_error::DriverError;
pub use events::ContextEvents;
pub use locate::{DriverPaths, default_driver_dir, find_chromium, find_driver};
pub use origins::OriginGuard;
pub use runtime::{
    BrowserRuntime, TestPage, WorkerBrowser, export_driver_env, withhold_from_driver,
};
pub use version::DRIVER_VERSION;
