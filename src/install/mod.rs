//! `prettyplay install`: the pinned Playwright driver from npm into the user's cache, and, with
//! `--with-deps` as root, the browsers and the driver's system packages from apt. Nothing is
//! downloaded from anywhere but those registries.
//!
//! Main entry point: [`install`]; the decision is the pure [`plan`].

mod installer;
mod plan;
mod system;

pub use installer::{InstallError, InstallRequest, install};
pub use plan::{Action, NODE_MIN_MAJOR, NODE_PACKAGE_VERSION, Probe, Target, plan};
pub use system::{Command, HostSystem, System};
