//! The page as the LLM sees it.
//!
//! Main type: [`PageState`]: where the page is (URL, title, the configured base URL),
//! Playwright's AI-mode aria snapshot without its `[ref=eN]` markers, cut to a budget, and an
//! optional screenshot.

use std::sync::LazyLock;

use regex::Regex;

/// The page as the LLM sees it.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PageState {
    /// The page's current URL (`about:blank` before the first navigation).
    pub url: String,
    /// The page's title; empty when it has none.
    pub title: String,
    /// `[browser] base_url`, against which a relative `page.goto` resolves.
    pub base_url: Option<String>,
    /// Playwright's AI-mode aria snapshot without `[ref=...]` markers, cut to the configured
    /// budget with a marker.
    pub snapshot: String,
    pub screenshot: Option<Vec<u8>>,
    /// What `structure.js` found beyond the snapshot, as JSON (empty when it could not run):
    /// read by the built-in generator, never sent to the LLM.
    pub structure: String,
}

impl PageState {
    /// A page state whose snapshot loses its ref markers (see [`strip_refs`]) and is then cut to
    /// `budget` characters (see [`truncate_snapshot`]), so the budget counts what is sent.
    pub(crate) fn within_budget(
        snapshot: &str,
        budget: usize,
        screenshot: Option<Vec<u8>>,
    ) -> Self {
        Self {
            snapshot: truncate_snapshot(strip_refs(snapshot), budget),
            screenshot,
            ..Self::default()
        }
    }
}

/// ` [ref=e12]`, ` [ref=f1e3]`: the element ids of one AI-mode snapshot.
static REF_MARKER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r" ?\[ref=[A-Za-z0-9_-]+\]").expect("a valid pattern"));

/// Removes the `[ref=eN]` markers of an AI-mode aria snapshot. A ref names an element of one
/// snapshot only: code written against it (`aria-ref=e12`) passes once and fails on every
/// replay, so the model never sees them (and the binding refuses `aria-ref=` selectors).
fn strip_refs(snapshot: &str) -> String {
    REF_MARKER.replace_all(snapshot, "").into_owned()
}

/// Cuts a snapshot to `budget` characters (on a line boundary when possible) with a marker
/// saying how much was left out.
fn truncate_snapshot(snapshot: String, budget: usize) -> String {
    let total = snapshot.chars().count();
    if total <= budget {
        return snapshot;
    }
    let mut cut: String = snapshot.chars().take(budget).collect();
    let ends_a_line = snapshot[cut.len()..].starts_with('\n');
    if !ends_a_line && let Some(newline) = cut.rfind('\n') {
        cut.truncate(newline);
    }
    let kept = cut.chars().count();
    format!(
        "{cut}\n[... snapshot truncated: {} of {total} characters left out ...]",
        total - kept
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ref_markers_are_stripped_and_the_rest_of_the_line_kept() {
        let snapshot = "\
- generic [ref=e2]:
  - heading \"todos\" [level=1] [ref=e3]
  - textbox \"What needs to be done?\" [active] [ref=e4]
  - button \"Add\" [ref=e12] [cursor=pointer]
  - iframe [ref=e20]:
    - button \"Pay\" [ref=f1e3]";
        assert_eq!(
            strip_refs(snapshot),
            "\
- generic:
  - heading \"todos\" [level=1]
  - textbox \"What needs to be done?\" [active]
  - button \"Add\" [cursor=pointer]
  - iframe:
    - button \"Pay\""
        );
    }

    #[test]
    fn the_budget_counts_the_snapshot_without_its_refs() {
        let state = PageState::within_budget(
            "- button \"A\" [ref=e1]\n- button \"B\" [ref=e2]\n",
            26,
            None,
        );
        assert_eq!(state.snapshot, "- button \"A\"\n- button \"B\"\n");
    }

    #[test]
    fn snapshots_are_cut_on_a_line_with_a_marker() {
        assert_eq!(truncate_snapshot("short".into(), 10), "short");
        let cut = truncate_snapshot("- a\n- b\n- c\n".into(), 7);
        assert_eq!(
            cut,
            "- a\n- b\n[... snapshot truncated: 5 of 12 characters left out ...]"
        );
    }

    #[test]
    fn a_line_ending_exactly_at_the_budget_is_kept() {
        let cut = truncate_snapshot("- a\n- b\n- c".into(), 7);
        assert_eq!(
            cut,
            "- a\n- b\n[... snapshot truncated: 4 of 11 characters left out ...]"
        );
    }

    #[test]
    fn the_budget_counts_characters_not_bytes() {
        let whole = PageState::within_budget("- é\n- ü\n", 8, None);
        assert_eq!(whole.snapshot, "- é\n- ü\n");
        let cut = PageState::within_budget("- é\n- ü\n", 5, None);
        assert_eq!(
            cut.snapshot,
            "- é\n[... snapshot truncated: 5 of 8 characters left out ...]"
        );
    }
}
