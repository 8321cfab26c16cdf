//! The code of `<claim> or <element> is hidden` (read by `either.rs`): it asks the page whether
//! the element is shown, checks the other claim when it is and that the element is hidden when it
//! is not, and retries that decision until it holds or the step's timeout ends, so it passes
//! exactly when the sentence comes to hold.
//!
//! Main function: [`code`].

use crate::writer::builtin::check_code::{claim, hidden_locator};
use crate::writer::builtin::check_options::CheckOptions;
use crate::writer::builtin::intent::{Decline, Intent, Target};
use crate::writer::builtin::snapshot::Snapshot;

/// How long each web-first assertion of one attempt waits, in milliseconds. The attempts are
/// retried until the step's timeout, so an assertion inside one must give up well before it:
/// one that waited the whole timeout while the element is shown would never see the element
/// hide a moment later. Half a second still lets the other claim's element settle within one
/// attempt (a counter that updates as the footer shows).
const ATTEMPT_MS: u32 = 500;

/// The code: when the element is shown, the other claim is checked; else that it is hidden.
/// The whole decision is retried (`toPass`, until the step's timeout) as Playwright retries a
/// web-first assertion, because `isVisible()` does not wait: right after an act that shows or
/// hides the element, one look would decide on the page mid-change. It passes as soon as the
/// sentence holds and otherwise fails with the last attempt's failure.
/// The other claim is read on the page as it is, or, when it is about an element the page
/// hides now (a counter inside the hidden footer), with the hidden elements counted as shown,
/// since its check runs only once the element is shown.
pub(crate) fn code(
    snap: &Snapshot,
    hidden: &Target,
    otherwise: &Intent,
) -> Result<Vec<String>, Decline> {
    let element = hidden_locator(snap, hidden)?;
    let attempt = CheckOptions {
        timeout_ms: Some(ATTEMPT_MS),
    };
    let checked = claim(snap, otherwise, attempt)
        .or_else(|first| claim(&snap.revealed(), otherwise, attempt).map_err(|_| first))?;
    let mut lines = vec![
        "await expect(async () => {".to_owned(),
        format!("  if (await {element}.isVisible()) {{"),
    ];
    lines.extend(checked.iter().map(|line| format!("    {line}")));
    lines.push("  } else {".to_owned());
    lines.push(format!(
        "    await expect({element}).{};",
        attempt.matcher("toBeHidden", &[])
    ));
    lines.push("  }".to_owned());
    lines.push("}).toPass();".to_owned());
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::builtin::intent::Reading;
    use crate::writer::builtin::shape::ShapeKind;
    use crate::writer::builtin::shapes::{SHAPES, write_in_test};

    /// A form and a to-do list, for the claims' paths the shapes' examples do not take.
    const PAGE: &str = r#"- heading "Sign up" [level=1]
- textbox "Name"
- combobox "Country":
  - option "France" [selected]
  - option "Japan"
- checkbox "Subscribe"
- button "Submit"
- list:
  - listitem:
    - checkbox "Toggle Todo"
    - text: buy milk
  - listitem:
    - checkbox "Toggle Todo" [checked]
    - text: walk the dog
- contentinfo:
  - text: 1 item left
"#;

    /// The code of `sentence` on `page` when it reads as a claim: with no options and with
    /// the either-or's. `None` for a sentence that reads as no claim.
    fn both_ways(sentence: &str, page: &str) -> Option<(Vec<String>, Vec<String>)> {
        let snap = Snapshot::read(page, "");
        let bounded = CheckOptions {
            timeout_ms: Some(ATTEMPT_MS),
        };
        write_in_test(sentence, &[], &snap, None, |_, intent| {
            if intent.reading() != Reading::Claim {
                return Ok(None);
            }
            Ok(Some((
                claim(&snap, &intent, CheckOptions::default())?,
                claim(&snap, &intent, bounded)?,
            )))
        })
        .unwrap_or_else(|_| panic!("{sentence} declined"))
    }

    /// Every claim the shapes' examples say, and the paths they do not take (a dropdown's
    /// option, a list's only items, a hidden element, the page's text anywhere), is written the
    /// same with the either-or's options but for each web-first assertion, which gets the
    /// attempt's timeout as its last argument; no line of a claim waits otherwise.
    #[test]
    fn every_claim_writes_each_assertion_with_the_attempts_timeout() {
        let mut cases: Vec<(&str, &str)> = SHAPES
            .iter()
            .filter(|shape| shape.kind() == ShapeKind::Sentence)
            .flat_map(|shape| shape.examples())
            .map(|example| (example.sentence, example.page))
            .collect();
        let extra = [
            r#"the "France" option is selected"#,
            r#"the "Japan" option is not selected"#,
            r#"the list shows only "buy milk" and "walk the dog""#,
            r#"the "Submit" button is hidden"#,
            r#"the page contains "Sign""#,
            r#"the "Name" field is empty"#,
            r#"the "Submit" button is disabled"#,
        ];
        cases.extend(extra.iter().map(|sentence| (*sentence, PAGE)));
        let mut claims = 0;
        for (sentence, page) in cases {
            let Some((plain, bounded)) = both_ways(sentence, page) else {
                assert!(!extra.contains(&sentence), "{sentence} reads as no claim");
                continue;
            };
            claims += 1;
            assert_eq!(plain.len(), bounded.len(), "{sentence}");
            for (plain, bounded) in plain.iter().zip(&bounded) {
                if plain.trim_start().starts_with("await expect(") {
                    let head = plain
                        .strip_suffix(");")
                        .unwrap_or_else(|| panic!("{plain}"));
                    let separator = if head.ends_with('(') { "" } else { ", " };
                    assert_eq!(
                        *bounded,
                        format!("{head}{separator}{{ timeout: 500 }});"),
                        "{sentence}"
                    );
                } else {
                    assert_eq!(plain, bounded, "{sentence}");
                    assert!(!plain.contains("expect"), "{sentence}: {plain}");
                }
            }
        }
        assert!(claims >= 20, "only {claims} claims");
    }
}
