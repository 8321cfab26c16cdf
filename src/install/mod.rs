//! `prettyplay install`: the pinned Playwright driver from npm into the user's cache, and, with
//! `--with-deps` as root, the browsers and the driver's system packages from apt. Nothing is
//! downloaded from anywhere but those registries.
//!
//! Main entry point: [`install`]; the decision is the pure [`plan`].

mod installer;
mod plan;
mod system;

pub(crate) use installer::{InstallError, InstallRequest, install};
#[cfg(test)]
pub(crate) use plan::Probe;
pub(crate) use plan::Target;
pub(crate) use system::HostSystem;
