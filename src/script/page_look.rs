//! What a step sees of its page before code is written for it: the URL, title, aria snapshot
//! and screenshot the LLM is shown, and the structure the built-in generator reads beyond the
//! snapshot (`structure.js`).
//!
//! Main function: [`StepHost::page_state`].

use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};

use crate::script::driver_error::HostError;
use crate::script::{PageState, StepHost};

/// Lists the elements the aria snapshot cannot name (test ids, semantic classes, the controls a
/// row shows only on hover) with the locators to keep for them, as JSON.
const STRUCTURE_JS: &str = include_str!("structure.js");

impl StepHost {
    /// The test's page as the LLM sees it: its URL and title, the configured base URL,
    /// Playwright's AI-mode aria snapshot of the page step code last worked on (without ref
    /// markers, cut to `budget` characters with a marker) and, when asked, a PNG screenshot.
    /// Failures to capture are reported inside the snapshot text, never raised.
    pub(crate) fn page_state(&self, screenshot: bool, budget: usize) -> PageState {
        let slot = self.pages.borrow()[0].clone();
        let title = self.run(async {
            slot.frame
                .channel()
                .send::<Value, Value>("title", json!({}))
                .await
        });
        let title = match title.and_then(|r| r.map_err(|e| HostError::from_playwright(e, false))) {
            Ok(value) => value["value"].as_str().unwrap_or_default().to_owned(),
            Err(err) => {
                tracing::debug!("could not read the page title for the LLM: {}", err.message);
                String::new()
            }
        };
        let snapshot = self.run(async {
            slot.frame
                .channel()
                .send::<Value, Value>("ariaSnapshot", json!({ "mode": "ai", "timeout": 5000.0 }))
                .await
        });
        let snapshot =
            match snapshot.and_then(|r| r.map_err(|e| HostError::from_playwright(e, false))) {
                Ok(value) => value["snapshot"].as_str().unwrap_or_default().to_owned(),
                Err(err) => format!("(no snapshot: {})", err.message),
            };
        let screenshot = if screenshot {
            match self.run(slot.page.screenshot(None)) {
                Ok(Ok(bytes)) => Some(bytes),
                Ok(Err(err)) => {
                    tracing::warn!("could not take a screenshot for the LLM: {err}");
                    None
                }
                Err(err) => {
                    tracing::debug!("no screenshot for the LLM: {}", err.message);
                    None
                }
            }
        } else {
            None
        };
        let structure = self.run(async {
            slot.frame
                .channel()
                .send::<Value, Value>(
                    "evaluateExpression",
                    json!({ "expression": STRUCTURE_JS, "isFunction": true, "arg": { "value": { "v": "undefined" }, "handles": [] } }),
                )
                .await
        });
        let structure =
            match structure.and_then(|r| r.map_err(|e| HostError::from_playwright(e, false))) {
                Ok(value) => value["value"]["s"].as_str().unwrap_or_default().to_owned(),
                Err(err) => {
                    tracing::debug!("could not read the page's structure: {}", err.message);
                    String::new()
                }
            };
        PageState {
            url: slot.page.url(),
            structure,
            title,
            base_url: self.test_page.base_url().map(str::to_owned),
            ..PageState::within_budget(&snapshot, budget, screenshot)
        }
    }
}
