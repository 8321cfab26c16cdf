//! The script host's optional mode: while an `[optional]` step's code runs, the first action on
//! an element (a click, a fill, a hover, ...) first waits, for `[polling] optional_timeout` only,
//! for its target to be attached and visible. A target that never appears fails the call with
//! [`FailureKind::Absent`], which the runner turns into a skipped step; a target that appears is
//! acted on with the normal timeouts, so a later failure is an ordinary one.
//!
//! Main type: [`OptionalTarget`], the mode a `StepHost` holds.

use std::cell::Cell;
use std::time::Duration;

use playwright_rs::protocol::Frame;
use playwright_rs::server::channel_owner::ChannelOwner;
use serde_json::{Value, json};

use crate::script::FailureKind;
use crate::script::driver_error::HostError;
use crate::script::methods::{Kind, Method};

/// How much longer than the bound the wait itself may take before the host gives up on the
/// driver's answer (the driver times the wait out on its own first).
const ANSWER_GRACE: Duration = Duration::from_secs(5);

/// Whether the current execution is an optional step's, and how long its target may take to
/// appear; set for each execution, spent by its first action.
#[derive(Debug, Default)]
pub(crate) struct OptionalTarget {
    armed: Cell<Option<Duration>>,
}

/// The wait before an optional step's first action.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TargetWait {
    selector: String,
    bound: Duration,
}

impl OptionalTarget {
    /// Arms the mode for the next execution (`Some(bound)`), or disarms it.
    pub(crate) fn arm(&self, bound: Option<Duration>) {
        self.armed.set(bound);
    }

    /// The wait that must come before the frame call `method` with `params`, when the mode is
    /// armed and the call interacts with the element a selector names (its [`Kind`] in the
    /// binding's table); the mode is spent by it.
    pub(crate) fn before(&self, method: Method, params: &Value) -> Option<TargetWait> {
        let bound = self.armed.get()?;
        if method.kind != Kind::Interacts {
            return None;
        }
        let key = if method.name == "dragAndDrop" {
            "source"
        } else {
            "selector"
        };
        let selector = params.get(key)?.as_str()?.to_owned();
        self.armed.set(None);
        Some(TargetWait { selector, bound })
    }
}

impl TargetWait {
    /// Waits for the target to be visible on `frame`; [`FailureKind::Absent`] when it is not
    /// within the bound.
    pub(crate) async fn run(&self, frame: &Frame) -> Result<(), HostError> {
        // Without `visible=true` the driver would look at the first match only, and a hidden
        // element before the visible target would make the target seem absent. The target's
        // name is matched whole: an element whose name only holds it ("Accept terms and
        // create account" for "Accept") is not the target, and a step whose target is not
        // there is skipped, never pointed at a likeness.
        let params = json!({
            "selector": format!("{} >> visible=true", whole_names(&self.selector)),
            "state": "visible",
            "timeout": self.bound.as_secs_f64() * 1000.0,
            "omitReturnValue": true,
        });
        let call = frame
            .channel()
            .send::<Value, Value>("waitForSelector", params);
        match tokio::time::timeout(self.bound + ANSWER_GRACE, call).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(err)) => {
                let err = HostError::from_playwright(err, false);
                if err.kind == FailureKind::Timeout {
                    Err(self.absent())
                } else {
                    Err(err)
                }
            }
            Err(_) => Err(self.absent()),
        }
    }

    fn absent(&self) -> HostError {
        HostError {
            kind: FailureKind::Absent,
            message: absent_message(&self.selector, self.bound),
            log: Vec::new(),
            received: None,
        }
    }
}

/// `selector` with every loose name or text (`name="Accept"i`, `internal:text="Accept"i`: in
/// any case, inside a longer one) matched whole instead: an anchored, case-insensitive regular
/// expression (`name=/^\s*Accept\s*$/i`). A `hasText` filter means "holds" and stays as it is.
pub(crate) fn whole_names(selector: &str) -> String {
    let mut out = String::with_capacity(selector.len() + 16);
    let mut rest = selector;
    while let Some(start) = rest.find('"') {
        let (before, from) = rest.split_at(start);
        out.push_str(before);
        let mut end = None;
        let mut escaped = false;
        for (at, c) in from.char_indices().skip(1) {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                end = Some(at);
                break;
            }
        }
        let Some(end) = end else {
            out.push_str(from);
            return out;
        };
        let quoted = &from[..=end];
        let after = &from[end + 1..];
        let holds = before.ends_with("has-text=") || before.ends_with("has-not-text=");
        match (
            after.strip_prefix('i'),
            serde_json::from_str::<String>(quoted),
        ) {
            (Some(tail), Ok(text)) if !holds => {
                out.push_str(&anchored(&text));
                rest = tail;
            }
            _ => {
                out.push_str(quoted);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// An anchored, case-insensitive regular expression literal matching `text` whole, any run of
/// whitespace for a space.
fn anchored(text: &str) -> String {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|word| {
            let mut escaped = String::new();
            for c in word.chars() {
                if "\\^$.|?*+()[]{}/".contains(c) {
                    escaped.push('\\');
                }
                escaped.push(c);
            }
            escaped
        })
        .collect();
    format!("/^\\s*{}\\s*$/i", words.join("\\s+"))
}

/// What a skipped optional step says: which target did not appear, and for how long it was
/// waited for.
fn absent_message(selector: &str, bound: Duration) -> String {
    format!(
        "{} did not appear within {}",
        shown_selector(selector),
        shown_bound(bound)
    )
}

/// A selector as the report shows it: the name of a role or text selector when it has one
/// (`internal:role=button[name="Accept"i]` is `"Accept"`), else the selector as written.
fn shown_selector(selector: &str) -> String {
    let last = selector.rsplit(" >> ").next().unwrap_or(selector);
    let quoted = last.find('"').and_then(|start| {
        last[start + 1..]
            .find('"')
            .map(|end| &last[start..start + end + 2])
    });
    match quoted {
        Some(name) if last.starts_with("internal:") => name.to_owned(),
        _ => format!("`{selector}`"),
    }
}

/// `2s`, `0.5s`.
fn shown_bound(bound: Duration) -> String {
    let secs = bound.as_secs_f64();
    if secs.fract() == 0.0 {
        format!("{secs:.0}s")
    } else {
        format!("{secs}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_action_on_a_selector_waits() {
        let frame = |name: &str| Method::of(&format!("frame.{name}")).unwrap();
        let mode = OptionalTarget::default();
        let click = json!({ "selector": "internal:text=\"Accept\"i", "strict": true });
        assert_eq!(mode.before(frame("click"), &click), None, "not armed");
        mode.armed.set(Some(Duration::from_secs(2)));
        // Reads and waits do not spend the mode.
        assert_eq!(mode.before(frame("isVisible"), &click), None);
        assert_eq!(mode.before(frame("expect"), &click), None);
        let wait = mode
            .before(frame("click"), &click)
            .expect("the first action waits");
        assert_eq!(wait.selector, "internal:text=\"Accept\"i");
        assert_eq!(wait.bound, Duration::from_secs(2));
        assert_eq!(mode.before(frame("fill"), &click), None, "spent");
        mode.armed.set(Some(Duration::from_secs(1)));
        let drag = json!({ "source": "#a", "target": "#b" });
        assert_eq!(
            mode.before(frame("dragAndDrop"), &drag).map(|w| w.selector),
            Some("#a".into())
        );
    }

    #[test]
    fn the_calls_that_wait_are_the_frame_calls_that_interact_with_an_element() {
        let mode = OptionalTarget::default();
        let params = json!({ "selector": "#a", "source": "#a" });
        let waiting: Vec<&str> = Method::all()
            .map(|(_, row)| row)
            .filter(|&row| {
                mode.arm(Some(Duration::from_secs(1)));
                mode.before(row, &params).is_some()
            })
            .map(|row| row.name)
            .collect();
        assert_eq!(
            waiting,
            [
                "click",
                "dblclick",
                "tap",
                "fill",
                "press",
                "type",
                "check",
                "uncheck",
                "hover",
                "focus",
                "selectOption",
                "dragAndDrop"
            ]
        );
    }

    #[test]
    fn loose_names_are_matched_whole_and_exact_ones_and_filters_stay() {
        assert_eq!(
            whole_names("internal:role=button[name=\"Accept\"i]"),
            "internal:role=button[name=/^\\s*Accept\\s*$/i]"
        );
        assert_eq!(
            whole_names("internal:text=\"Sign  in (now)\"i"),
            "internal:text=/^\\s*Sign\\s+in\\s+\\(now\\)\\s*$/i"
        );
        for unchanged in [
            "internal:role=button[name=\"Accept\"s]",
            "li >> internal:has-text=\"Accept\"i >> internal:role=button",
            "#accept",
        ] {
            assert_eq!(whole_names(unchanged), unchanged);
        }
    }

    #[test]
    fn the_message_names_the_target_and_the_bound() {
        assert_eq!(
            absent_message(
                "internal:role=button[name=\"Accept\"i]",
                Duration::from_secs(2)
            ),
            "\"Accept\" did not appear within 2s"
        );
        assert_eq!(
            absent_message("#banner >> text=OK", Duration::from_millis(500)),
            "`#banner >> text=OK` did not appear within 0.5s"
        );
    }
}
