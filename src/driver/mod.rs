//! The browser side: finding the Playwright driver and Chromium, launching them once per
//! process, and handing each test a fresh, isolated page.
//!
//! Main types: [`BrowserRuntime`] (one driver + browser per process) and [`TestPage`] (one
//! browser context and page per test).

mod events;
mod locate;
mod runtime;

pub use events::ContextEvents;
pub use locate::{DRIVER_VERSION, DriverPaths, default_driver_dir, find_chromium, find_driver};
pub use runtime::{BrowserRuntime, DriverError, TestPage, WorkerBrowser, export_driver_env};
