//! Settings: `prettyplay.toml`, `PRETTYPLAY_<SECTION>_<KEY>` environment overrides and CLI
//! overrides, resolved with precedence CLI > env > file > defaults.
//!
//! Main type: [`Settings`]. Keys and defaults are documented in `docs/configuration.md`.

mod screen;
mod settings;

pub use screen::Screen;
pub use settings::{ConfigError, Overrides, Settings};

use std::path::PathBuf;
use std::time::Duration;

/// `[browser]` settings.
#[derive(Debug, Clone, PartialEq)]
pub struct BrowserSettings {
    /// Base URL applied to every context, so step code may `page.goto('/')`.
    pub base_url: Option<String>,
    /// Chromium executable; `None` means look up `chromium` / `google-chrome` on PATH.
    pub executable: Option<PathBuf>,
    pub headless: bool,
    /// Default timeout for actions and expectations (default 5 s).
    pub timeout: Duration,
    /// What screen each test's page emulates (default: Playwright's 1280x720 viewport).
    pub screen: Screen,
    /// Whether a dialog (alert, confirm, prompt, beforeunload) that step code does not handle
    /// is accepted (`true`, the default) or dismissed.
    pub accept_dialogs: bool,
}

/// `[polling]` settings: the settle window.
#[derive(Debug, Clone, PartialEq)]
pub struct PollingSettings {
    /// Settle window per step execution; `None` (default) or zero keeps polling off.
    pub timeout: Option<Duration>,
    /// Pause between re-executions (default 0.5 s).
    pub delay: Duration,
}
