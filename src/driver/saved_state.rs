//! A browser context's storage state (cookies and each origin's localStorage) in the form
//! Playwright's `storageState` returns. A setup test saves it, and the contexts of the tests
//! that start from it are given it.
//!
//! Main type: [`SavedState`].

use playwright_rs::protocol::StorageState;

/// The storage state of a test's context, once it passed.
#[derive(Debug, Clone)]
pub(crate) struct SavedState(pub(crate) StorageState);

impl SavedState {
    /// Returns the state as Playwright's storage state file holds it (`cookies`, `origins`),
    /// indented.
    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.0).unwrap_or_else(|_| "{}".to_owned())
    }

    /// Reads a state back from the output of [`SavedState::to_json`] or from a file that
    /// Playwright wrote.
    #[cfg(test)]
    pub(crate) fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text).map(SavedState)
    }

    /// Returns the number of cookies in the state.
    pub(crate) fn cookies(&self) -> usize {
        self.0.cookies.len()
    }

    /// Returns the number of origins with localStorage in the state.
    pub(crate) fn origins(&self) -> usize {
        self.0.origins.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_storage_state_file_reads_back_as_written() {
        let text = r#"{
  "cookies": [{"name": "sid", "value": "abc", "domain": "127.0.0.1", "path": "/",
               "expires": -1, "httpOnly": true, "secure": false, "sameSite": "Lax"}],
  "origins": [{"origin": "http://127.0.0.1:4173",
               "localStorage": [{"name": "user", "value": "ada"}]}]
}"#;
        let state = SavedState::from_json(text).expect("a storage state");
        assert_eq!((state.cookies(), state.origins()), (1, 1));
        let again = SavedState::from_json(&state.to_json()).expect("reads back");
        assert_eq!(again.to_json(), state.to_json());
        assert!(state.to_json().contains("\"localStorage\""));
    }
}
