//! The pinned Playwright driver version: `prettyplay install` installs it, [`find_driver`](crate::driver::find_driver)
//! looks for it, and driver errors name it.

/// The `playwright-core` version the linked playwright-rs speaks.
pub(crate) const DRIVER_VERSION: &str = "1.64.0";
