//! axe-core, the accessibility engine `checkAccessibility` injects into a page: its pinned
//! version, where `prettyplay install` puts it (beside the driver, in the driver directory), and
//! reading it back with its integrity checked, so that a run never injects a file that is not
//! the pinned release.
//!
//! Main type: [`AxeScript`], the checked source of `axe.min.js`.

use std::path::{Path, PathBuf};

use base64::Engine as _;

/// The pinned axe-core release, the one `@axe-core/playwright` of the same version depends on.
pub(crate) const AXE_VERSION: &str = "4.14.1";

/// The Subresource Integrity hash of the release's `axe.min.js`, as axe-core publishes it in
/// its `sri-history.json`.
pub(crate) const AXE_INTEGRITY: &str = "sha256-KTSJmUUM3yhJqOcLeRL8LahahJ2jnA0NU5T1HUqe2Vw=";

/// The command that installs axe-core.
pub(crate) const AXE_HINT: &str = "run `prettyplay install` (it installs the pinned axe-core \
with npm beside the Playwright driver)";

/// The npm project directory axe-core is installed into, inside the driver directory.
pub(crate) fn axe_dir(driver_dir: &Path) -> PathBuf {
    driver_dir.join("axe")
}

/// The `axe.min.js` of the axe-core installed in `driver_dir`.
pub(crate) fn axe_script_path(driver_dir: &Path) -> PathBuf {
    axe_dir(driver_dir).join("node_modules/axe-core/axe.min.js")
}

/// Why axe-core cannot be injected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum AxeError {
    #[error("axe-core {AXE_VERSION} is not installed (no {})", .0.display())]
    Missing(PathBuf),
    #[error("{} is not axe-core {AXE_VERSION}'s axe.min.js (its integrity is {found})", .path.display())]
    Integrity { path: PathBuf, found: String },
}

impl AxeError {
    /// What the user can do about it.
    pub(crate) fn hint(&self) -> &'static str {
        AXE_HINT
    }
}

/// The source of the pinned `axe.min.js`, read and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AxeScript {
    pub source: String,
}

impl AxeScript {
    /// Reads the axe-core installed in `driver_dir`, refusing a file whose integrity is not
    /// the pinned release's.
    pub(crate) fn read(driver_dir: &Path) -> Result<AxeScript, AxeError> {
        let path = axe_script_path(driver_dir);
        let bytes = std::fs::read(&path).map_err(|_| AxeError::Missing(path.clone()))?;
        let found = integrity_of(&bytes);
        if found != AXE_INTEGRITY {
            return Err(AxeError::Integrity { path, found });
        }
        let source = String::from_utf8(bytes).map_err(|_| AxeError::Integrity {
            path: path.clone(),
            found: found.clone(),
        })?;
        Ok(AxeScript { source })
    }

    /// Whether the axe-core in `driver_dir` is the pinned release (for `prettyplay install`).
    pub(crate) fn installed(driver_dir: &Path) -> bool {
        std::fs::read(axe_script_path(driver_dir))
            .is_ok_and(|bytes| integrity_of(&bytes) == AXE_INTEGRITY)
    }
}

/// The Subresource Integrity form of `bytes`' SHA-256: `sha256-<base64>`.
fn integrity_of(bytes: &[u8]) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, bytes);
    format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest.as_ref())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_or_changed_axe_is_refused_and_names_the_install_command() {
        let dir = tempfile::tempdir().unwrap();
        let err = AxeScript::read(dir.path()).unwrap_err();
        assert!(matches!(err, AxeError::Missing(_)), "{err}");
        assert!(err.hint().contains("prettyplay install"));
        let path = axe_script_path(dir.path());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            &path,
            "window.axe = { run: async () => ({ violations: [] }) };",
        )
        .unwrap();
        let err = AxeScript::read(dir.path()).unwrap_err();
        assert!(matches!(err, AxeError::Integrity { .. }), "{err}");
        assert!(!AxeScript::installed(dir.path()));
    }

    #[test]
    fn integrity_is_the_sri_form_of_sha256() {
        // The SRI hash of the empty string, as `openssl dgst -sha256 -binary | base64` gives it.
        assert_eq!(
            integrity_of(b""),
            "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
        );
    }
}
