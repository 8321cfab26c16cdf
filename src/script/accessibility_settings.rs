//! [`Accessibility`]: one test's settings of `toHaveNoAccessibilityViolations`, where axe-core
//! is and which of its rules the project accepts, and the checked source of axe-core, read at
//! the test's first check.

use std::cell::OnceCell;
use std::path::PathBuf;
use std::rc::Rc;

use crate::config::AcceptedViolation;
use crate::driver::{AXE_VERSION, AxeScript};
use crate::script::FailureKind;
use crate::script::driver_error::HostError;

/// One test's accessibility settings: where axe-core is, and the accepted rules.
#[derive(Debug, Default)]
pub(crate) struct Accessibility {
    /// The driver directory, beside which `prettyplay install` puts axe-core (`None`: no
    /// cache directory is known, so axe-core cannot be found).
    pub driver_dir: Option<PathBuf>,
    /// `[accessibility] accept`.
    pub accept: Vec<AcceptedViolation>,
    /// The checked source of `axe.min.js`, read at the test's first check.
    script: OnceCell<Rc<str>>,
}

impl Accessibility {
    pub(crate) fn new(driver_dir: Option<PathBuf>, accept: Vec<AcceptedViolation>) -> Self {
        Accessibility {
            driver_dir,
            accept,
            script: OnceCell::new(),
        }
    }

    /// The source of the pinned `axe.min.js`, its integrity checked; an error naming
    /// `prettyplay install` when it is missing or changed.
    pub(super) fn script(&self) -> Result<Rc<str>, HostError> {
        if let Some(source) = self.script.get() {
            return Ok(source.clone());
        }
        let dir = self.driver_dir.as_deref().ok_or_else(|| {
            misconfigured(format!(
                "axe-core {AXE_VERSION} cannot be found: neither PRETTYPLAY_DRIVER_DIR nor a \
                 user cache directory is set"
            ))
        })?;
        let script =
            AxeScript::read(dir).map_err(|err| misconfigured(format!("{err}; {}", err.hint())))?;
        let source: Rc<str> = Rc::from(script.source);
        let _ = self.script.set(source.clone());
        Ok(source)
    }

    /// Why violations of `rule` are accepted, if they are.
    pub(super) fn accepted(&self, rule: &str) -> Option<&str> {
        self.accept
            .iter()
            .find(|a| a.rule == rule)
            .map(|a| a.reason.as_str())
    }
}

/// A failure of the run's setup, not of the page (exit 2).
fn misconfigured(message: String) -> HostError {
    HostError {
        kind: FailureKind::Misconfigured,
        message,
        log: Vec::new(),
        received: None,
    }
}
