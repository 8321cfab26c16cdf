//! The page as the LLM sees it.
//!
//! Main type: [`PageState`]: Playwright's AI-mode aria snapshot, cut to a budget, and an optional
//! screenshot.

/// The page as the LLM sees it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageState {
    /// Playwright's AI-mode aria snapshot, cut to the configured budget with a marker.
    pub snapshot: String,
    pub screenshot: Option<Vec<u8>>,
}

impl PageState {
    /// A page state whose snapshot is cut to `budget` characters (see [`truncate_snapshot`]).
    pub fn within_budget(snapshot: String, budget: usize, screenshot: Option<Vec<u8>>) -> Self {
        Self {
            snapshot: truncate_snapshot(snapshot, budget),
            screenshot,
        }
    }
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
        let whole = PageState::within_budget("- é\n- ü\n".into(), 8, None);
        assert_eq!(whole.snapshot, "- é\n- ü\n");
        let cut = PageState::within_budget("- é\n- ü\n".into(), 5, None);
        assert_eq!(
            cut.snapshot,
            "- é\n[... snapshot truncated: 5 of 8 characters left out ...]"
        );
    }
}
