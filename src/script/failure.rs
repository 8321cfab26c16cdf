//! How step code failed. The kinds are distinct because settle polling and healing decide on
//! them: a failed check or a timeout may be transient page state, the others are not, and some
//! say what went wrong on their own (a crash, an app that cannot be reached or that answered an
//! error, a missing setting), so no LLM is asked about them.
//!
//! Main types: [`FailureKind`] and [`StepFailure`].

use std::fmt;

use serde_json::{Value, json};

use crate::script::cut_text::{MAX_MESSAGE_BYTES, cut_text};
use crate::script::http_method::HttpMethod;
use crate::script::methods::Method;
use crate::script::visual_diff::VisualDiff;

/// The kind of a step failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// An `expect` that did not hold, or an error the step code threw itself.
    FailedCheck,
    /// An action or navigation timed out, or an element was not in an actionable state.
    Timeout,
    /// A locator matched several elements where one was required.
    StrictMode,
    /// The step code itself is broken: syntax, ReferenceError, TypeError, a sandbox refusal,
    /// runaway code, a missing `step` function.
    Script,
    /// The browser or the driver went away.
    Crash,
    /// The renderer of the test's page crashed ("Page crashed"): it can be the app's own
    /// defect, so it is the test's failure, not the infrastructure's; never re-executed.
    PageCrash,
    /// The page or frame the call worked on closed or detached while the browser lives (a
    /// navigation or context race): transient page state.
    Detached,
    /// A navigation could not reach the app's server (refused, reset, DNS, TLS, or a timeout
    /// when a direct connection fails too): an infrastructure failure, never the test's.
    Unreachable,
    /// The app's server answered a navigation with an HTTP 5xx for the page's main document:
    /// the app's defect, decided from that status alone.
    AppError,
    /// The step cannot work with the settings of the run (a relative `page.goto` without a
    /// base URL): a configuration error, which ends the run with exit 2.
    Misconfigured,
    /// The step's pages sent, or tried to send, a request or opened a socket to an origin
    /// outside `[browser] allowed_origins`, and the guard refused it. The step fails whatever
    /// its code answered, and its code is never cached, healed or regenerated.
    Blocked,
    /// A screenshot did not match its committed baseline (`toHaveScreenshot`): evidence of a
    /// change in the product's look, never healed or regenerated; accepted only by
    /// `run --update-snapshots`.
    VisualMismatch,
    /// axe-core found accessibility violations the step's check does not allow
    /// (`toHaveNoAccessibilityViolations`): evidence of the product's defect, never healed or
    /// regenerated; accepted only by listing the rule in `[accessibility] accept`.
    AccessibilityViolation,
    /// The target of an `[optional]` step's first action did not appear within
    /// `[polling] optional_timeout`: the step is skipped, not failed. No other step fails so.
    Absent,
    /// A proof run refused `call`: running it again under a mutation would change the app. Only
    /// a proof run fails so, and the proof reads it as code it cannot prove, so no step ends
    /// with this kind (it is not in [`FailureKind::ALL`]).
    Refused { call: RefusedCall },
}

/// A call a proof run refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefusedCall {
    /// A browser call that does more than read, by its name in the binding's table (`click`,
    /// `goto`, `keyboardPress`).
    Page(&'static str),
    /// An HTTP request whose method may write (anything but GET and HEAD).
    Request(HttpMethod),
}

impl RefusedCall {
    /// The refusal as the binding sends it to the prelude with the failed call's error:
    /// `{"page": "click"}` or `{"request": "POST"}`.
    pub(crate) fn to_wire(self) -> Value {
        match self {
            RefusedCall::Page(name) => json!({ "page": name }),
            RefusedCall::Request(method) => json!({ "request": method.as_str() }),
        }
    }

    /// The refusal the prelude hands back with a thrown error (see [`RefusedCall::to_wire`]);
    /// `None` for anything else. A page call's name is taken from the binding's table.
    pub(crate) fn from_wire(wire: &str) -> Option<RefusedCall> {
        let value: Value = serde_json::from_str(wire).ok()?;
        if let Some(name) = value.get("page").and_then(Value::as_str) {
            let row = Method::all().find(|(_, row)| row.name == name)?.1;
            return Some(RefusedCall::Page(row.name));
        }
        let method = value.get("request").and_then(Value::as_str)?;
        HttpMethod::new(method).map(RefusedCall::Request)
    }
}

impl FailureKind {
    /// Every kind.
    pub(crate) const ALL: [FailureKind; 14] = [
        FailureKind::FailedCheck,
        FailureKind::Timeout,
        FailureKind::StrictMode,
        FailureKind::Script,
        FailureKind::Crash,
        FailureKind::PageCrash,
        FailureKind::Detached,
        FailureKind::Unreachable,
        FailureKind::AppError,
        FailureKind::Misconfigured,
        FailureKind::Blocked,
        FailureKind::VisualMismatch,
        FailureKind::AccessibilityViolation,
        FailureKind::Absent,
    ];

    /// The kind's name between the JS binding and Rust, its name in reports and events, and
    /// its label, side by side so they cannot drift apart.
    fn names(self) -> (&'static str, &'static str, &'static str) {
        match self {
            FailureKind::FailedCheck => ("check", "failed_check", "failed check"),
            FailureKind::Timeout => ("timeout", "timeout", "timeout"),
            FailureKind::StrictMode => ("strict", "strict_mode", "strict mode violation"),
            FailureKind::Script => ("script", "script", "script error"),
            FailureKind::Crash => ("crash", "crash", "browser crashed"),
            FailureKind::PageCrash => ("page_crash", "page_crash", "page crashed"),
            FailureKind::Detached => ("detached", "detached", "page detached"),
            FailureKind::Unreachable => ("unreachable", "unreachable", "APP UNREACHABLE"),
            FailureKind::AppError => ("app_error", "app_error", "app error"),
            FailureKind::Misconfigured => ("misconfigured", "misconfigured", "CONFIGURATION ERROR"),
            FailureKind::Blocked => ("blocked", "blocked", "BLOCKED BY allowed_origins"),
            FailureKind::VisualMismatch => {
                ("visual_mismatch", "visual_mismatch", "SCREENSHOT MISMATCH")
            }
            FailureKind::AccessibilityViolation => (
                "accessibility",
                "accessibility_violation",
                "ACCESSIBILITY VIOLATION",
            ),
            FailureKind::Absent => ("absent", "absent", "optional target absent"),
            FailureKind::Refused { .. } => ("refused", "refused", "refused by the mutation proof"),
        }
    }

    /// The kind's name in reports and events (`failed_check`, `strict_mode`, ...).
    pub(crate) fn report_name(self) -> &'static str {
        self.names().1
    }

    /// The wire name used between the JS binding and Rust.
    pub fn as_str(self) -> &'static str {
        self.names().0
    }

    pub fn from_wire(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == name)
    }

    /// The call a proof run refused, for a [`FailureKind::Refused`].
    pub(crate) fn refused_call(self) -> Option<RefusedCall> {
        match self {
            FailureKind::Refused { call } => Some(call),
            _ => None,
        }
    }

    /// Whether re-executing the same code may succeed (transient page state): the settle
    /// window retries only these. Fixed in code; never depends on settings.
    pub fn is_pollable(self) -> bool {
        matches!(
            self,
            FailureKind::FailedCheck | FailureKind::Timeout | FailureKind::Detached
        )
    }

    /// Whether the page is gone (crashed browser, driver or renderer): nothing to classify,
    /// regenerate or re-execute against.
    pub fn ends_the_page(self) -> bool {
        matches!(self, FailureKind::Crash | FailureKind::PageCrash)
    }

    /// Whether the failure decides the step on its own evidence: the page is gone, the app
    /// could not be reached or answered an HTTP 5xx, a setting is missing, or the step reached
    /// for a forbidden origin. Such a failure is never sent to an LLM, healed or regenerated:
    /// no step code can fix the first four, and code that reached out must not be kept or
    /// given another try on the word of the model that wrote it.
    pub fn speaks_for_itself(self) -> bool {
        self.ends_the_page()
            || matches!(
                self,
                FailureKind::Unreachable
                    | FailureKind::AppError
                    | FailureKind::Misconfigured
                    | FailureKind::Blocked
                    | FailureKind::VisualMismatch
                    | FailureKind::AccessibilityViolation
            )
    }

    /// A short label for reports.
    pub fn label(self) -> &'static str {
        self.names().2
    }
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A failed execution of step code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepFailure {
    pub kind: FailureKind,
    /// A Playwright-like message: the locator, what was expected, what was received.
    pub message: String,
    /// The line of the step code where it failed, when the JS stack names it.
    pub code_line: Option<u32>,
    /// For a [`FailureKind::VisualMismatch`]: the expected, actual and diff images.
    pub visual: Option<Box<VisualDiff>>,
}

impl StepFailure {
    /// A failure whose message is cut to [`MAX_MESSAGE_BYTES`] (with a `… N bytes cut` marker),
    /// so a runaway message cannot flood the reports.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: cut_text(message.into(), MAX_MESSAGE_BYTES),
            code_line: None,
            visual: None,
        }
    }
}

impl fmt::Display for StepFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StepFailure {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_round_trip() {
        for kind in FailureKind::ALL {
            assert_eq!(FailureKind::from_wire(kind.as_str()), Some(kind));
        }
        assert_eq!(FailureKind::from_wire("nope"), None);
    }

    #[test]
    fn labels_are_for_reports() {
        assert_eq!(
            FailureKind::ALL.map(FailureKind::label),
            [
                "failed check",
                "timeout",
                "strict mode violation",
                "script error",
                "browser crashed",
                "page crashed",
                "page detached",
                "APP UNREACHABLE",
                "app error",
                "CONFIGURATION ERROR",
                "BLOCKED BY allowed_origins",
                "SCREENSHOT MISMATCH",
                "ACCESSIBILITY VIOLATION",
                "optional target absent"
            ]
        );
        assert_eq!(FailureKind::StrictMode.to_string(), "strict mode violation");
    }

    #[test]
    fn only_transient_kinds_poll() {
        assert!(FailureKind::FailedCheck.is_pollable());
        assert!(FailureKind::Timeout.is_pollable());
        assert!(!FailureKind::StrictMode.is_pollable());
        assert!(!FailureKind::Script.is_pollable());
        assert!(!FailureKind::Crash.is_pollable());
        assert!(!FailureKind::PageCrash.is_pollable());
        assert!(FailureKind::Detached.is_pollable());
        // An app that is down stays down within a settle window, and an HTTP 5xx or a missing
        // setting does not change either.
        assert!(!FailureKind::Unreachable.is_pollable());
        assert!(!FailureKind::AppError.is_pollable());
        assert!(!FailureKind::Misconfigured.is_pollable());
    }

    #[test]
    fn failures_that_speak_for_themselves_are_crashes_outages_app_errors_and_settings() {
        let speaking: Vec<FailureKind> = FailureKind::ALL
            .into_iter()
            .filter(|kind| kind.speaks_for_itself())
            .collect();
        assert_eq!(
            speaking,
            [
                FailureKind::Crash,
                FailureKind::PageCrash,
                FailureKind::Unreachable,
                FailureKind::AppError,
                FailureKind::Misconfigured,
                FailureKind::Blocked,
                FailureKind::VisualMismatch,
                FailureKind::AccessibilityViolation
            ]
        );
    }
}
