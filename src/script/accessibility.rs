//! `expect(page).toHaveNoAccessibilityViolations()` and `expect(locator)...`: axe-core, injected
//! into the page on demand (the first check on a document evaluates the pinned `axe.min.js`
//! there, as `@axe-core/playwright` does), runs its rules on the page or on the locator's
//! elements, and every violation left after the impact floor and the accepted rules
//! (`[accessibility] accept`) fails the step as [`FailureKind::AccessibilityViolation`]:
//! evidence of the product's defect, never healed.
//!
//! Main function: [`StepHost::check_accessibility`]; the test's settings are
//! [`Accessibility`](crate::script::Accessibility).

use std::fmt::Write as _;

use playwright_rs::server::channel_owner::ChannelOwner;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::driver::AXE_VERSION;
use crate::script::FailureKind;
use crate::script::binding::{HostResult, Outcome, StepHost};
use crate::script::driver_error::HostError;
use crate::script::page_slot::PageSlot;

/// How many elements of one violation the failure names; the rest are counted.
const MAX_ELEMENTS: usize = 10;

/// axe-core's impact levels, least first: the check's `impact` option is a floor.
const IMPACTS: [&str; 4] = ["minor", "moderate", "serious", "critical"];

/// What the prelude sends: the scope (the locator's selector, or the page's), the axe options
/// and the wait for a locator's elements.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Request {
    selector: Option<String>,
    #[serde(default)]
    include: Vec<String>,
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    rules: Vec<String>,
    impact: Option<String>,
    timeout: Option<f64>,
}

/// One violation as the page function returns it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Violation {
    id: String,
    impact: Option<String>,
    help: String,
    help_url: String,
    nodes: Vec<String>,
}

/// Whether axe-core of the pinned version is in the page already.
const PRESENT_JS: &str = "() => typeof window.axe === 'object' && window.axe !== null && \
                          window.axe.version === __VERSION__";

/// Runs axe on the elements it is given (a locator's) or on the page, and returns the
/// violations, each element named by axe's selector (joined through frames and shadow roots).
const RUN_JS: &str = r#"async (elements, input) => {
  const o = JSON.parse(input);
  const scope = o.scoped ? elements : o.include;
  let context = document;
  if (scope.length && o.exclude.length) context = { include: scope, exclude: o.exclude };
  else if (scope.length) context = { include: scope };
  else if (o.exclude.length) context = { exclude: o.exclude };
  const options = { resultTypes: ['violations'] };
  if (o.rules.length) options.runOnly = { type: 'rule', values: o.rules };
  const result = await window.axe.run(context, options);
  const name = (target) => target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : t)).join(' | ');
  return JSON.stringify(result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => name(n.target)),
  })));
}"#;

impl StepHost {
    /// `page.checkAccessibility`: runs axe-core on the page or a locator's elements.
    pub(super) fn check_accessibility(&self, params: Value, slot: PageSlot) -> Outcome {
        Outcome::Done(self.accessibility_check(params, slot))
    }

    fn accessibility_check(&self, params: Value, slot: PageSlot) -> HostResult {
        let settings = &self.accessibility;
        let request: Request = serde_json::from_value(params).map_err(|err| {
            HostError::script(format!(
                "toHaveNoAccessibilityViolations: bad options: {err}"
            ))
        })?;
        let floor = match request.impact.as_deref() {
            None => 0,
            Some(impact) => IMPACTS.iter().position(|i| *i == impact).ok_or_else(|| {
                HostError::script(format!(
                    "toHaveNoAccessibilityViolations: impact must be one of {}, got {impact:?}",
                    IMPACTS.join(", ")
                ))
            })?,
        };
        let source = settings.script()?;
        let frame = slot.frame.clone();
        let scoped = request.selector.is_some();
        let selector = request
            .selector
            .clone()
            .unwrap_or_else(|| ":root".to_owned());
        let input = json!({
            "scoped": scoped,
            "include": request.include,
            "exclude": request.exclude,
            "rules": request.rules,
        })
        .to_string();
        let timeout = request.timeout;
        let reply = self.run(async move {
            if scoped {
                frame
                    .channel()
                    .send::<Value, Value>(
                        "waitForSelector",
                        json!({ "selector": selector, "state": "attached", "strict": false, "timeout": timeout }),
                    )
                    .await?;
            }
            let present = PRESENT_JS.replace("__VERSION__", &format!("'{AXE_VERSION}'"));
            let found: Value = frame
                .channel()
                .send("evaluateExpression", json!({ "expression": present, "isFunction": true, "arg": undefined_arg() }))
                .await?;
            if found["value"]["b"] != Value::Bool(true) {
                frame
                    .channel()
                    .send::<Value, Value>(
                        "evaluateExpression",
                        json!({ "expression": &*source, "isFunction": false, "arg": undefined_arg() }),
                    )
                    .await?;
            }
            frame
                .channel()
                .send::<Value, Value>(
                    "evalOnSelectorAll",
                    json!({ "selector": selector, "expression": RUN_JS, "isFunction": true, "arg": { "value": { "s": input }, "handles": [] } }),
                )
                .await
        })?
        .map_err(|err| HostError::from_playwright(err, false))?;
        let violations: Vec<Violation> = reply["value"]["s"]
            .as_str()
            .and_then(|text| serde_json::from_str(text).ok())
            .ok_or_else(|| {
                HostError::script(
                    "toHaveNoAccessibilityViolations: axe-core returned no result".to_owned(),
                )
            })?;
        let mut failing = Vec::new();
        for violation in violations {
            let rank = violation
                .impact
                .as_deref()
                .and_then(|i| IMPACTS.iter().position(|level| *level == i))
                .unwrap_or(IMPACTS.len() - 1);
            if rank < floor {
                continue;
            }
            if let Some(reason) = settings.accepted(&violation.id) {
                self.push_log(
                    "info",
                    &format!(
                        "accepted accessibility violation {} ({reason}): {} element(s)",
                        violation.id,
                        violation.nodes.len()
                    ),
                );
                continue;
            }
            failing.push(violation);
        }
        if failing.is_empty() {
            return Ok(Value::Null);
        }
        Err(HostError {
            kind: FailureKind::AccessibilityViolation,
            message: violations_message(&failing),
            log: Vec::new(),
            received: None,
        })
    }
}

/// Playwright's serialized `undefined`, the argument of a page function that takes none.
fn undefined_arg() -> Value {
    json!({ "value": { "v": "undefined" }, "handles": [] })
}

/// Each violation's rule id, impact, help and help URL, then its elements by selector.
fn violations_message(violations: &[Violation]) -> String {
    let count = violations.len();
    let mut text = format!(
        "{count} accessibility violation{} (axe-core {AXE_VERSION}):",
        if count == 1 { "" } else { "s" }
    );
    for v in violations {
        let impact = v.impact.as_deref().unwrap_or("unknown impact");
        let _ = write!(
            text,
            "\n- {} ({impact}): {}\n  {}",
            v.id, v.help, v.help_url
        );
        for node in v.nodes.iter().take(MAX_ELEMENTS) {
            let _ = write!(text, "\n    {node}");
        }
        if v.nodes.len() > MAX_ELEMENTS {
            let _ = write!(text, "\n    and {} more", v.nodes.len() - MAX_ELEMENTS);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_each_rule_its_impact_help_url_and_elements() {
        let violations = [Violation {
            id: "image-alt".to_owned(),
            impact: Some("critical".to_owned()),
            help: "Images must have alternative text".to_owned(),
            help_url: "https://dequeuniversity.com/rules/axe/4.14/image-alt".to_owned(),
            nodes: (0..12).map(|i| format!("img:nth-child({i})")).collect(),
        }];
        let text = violations_message(&violations);
        assert!(
            text.starts_with("1 accessibility violation (axe-core 4.14.1):\n- image-alt (critical): Images must have alternative text\n  https://dequeuniversity.com/rules/axe/4.14/image-alt\n    img:nth-child(0)\n"),
            "{text}"
        );
        assert!(
            text.ends_with("    img:nth-child(9)\n    and 2 more"),
            "{text}"
        );
    }
}
