//! `[accessibility]`: the axe-core rules whose violations a team knows of and accepts, each with
//! the reason (`accept = [{ rule = "color-contrast", reason = "brand colours, JIRA-123" }]`), as
//! teams disable rules with axe's `disableRules`. An accepted rule still runs: its violations
//! are told in the step's log and never fail the check.
//!
//! Main type: [`AccessibilityLayer`], what one source says of `[accessibility]`: the file
//! ([`RawAccessibility`]), the environment ([`ENV_VARS`]) or the flag `--a11y-accept`;
//! stacked and finished into [`AccessibilitySettings`] by `settings.rs`.

use serde::Deserialize;
use toml::Spanned;

use super::file_context::FileContext;
use super::section_layer::section_layer;
use super::value_forms::EnvSetter;
use super::{AcceptedViolation, AccessibilitySettings, ConfigError, Overrides};

/// How an accepted violation is written in the environment and on the command line.
pub(super) const ACCEPT_FORM: &str = "RULE=REASON (an axe-core rule id, `=`, and why it is accepted; \
several separated by `;` in the environment)";

/// `[accessibility]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub(super) struct RawAccessibility {
    accept: Option<Vec<Spanned<RawAccept>>>,
}

/// One entry of `accept`, its keys optional so that a missing one is refused at its line with
/// a message of ours.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
struct RawAccept {
    rule: Option<String>,
    reason: Option<String>,
}

section_layer! {
    /// What one source says of `[accessibility]`; `None` leaves the decision to lower sources.
    AccessibilityLayer {
        accept: Vec<AcceptedViolation>,
    }
}

impl AccessibilityLayer {
    /// The gaps filled from the defaults: no rule is accepted.
    pub(super) fn finish(self) -> AccessibilitySettings {
        AccessibilitySettings {
            accept: self.accept.unwrap_or_default(),
        }
    }

    /// `[accessibility]` of the settings file: every entry names a rule and gives a reason.
    pub(super) fn from_file(
        raw: RawAccessibility,
        file: &FileContext<'_>,
    ) -> Result<AccessibilityLayer, ConfigError> {
        let Some(entries) = raw.accept else {
            return Ok(AccessibilityLayer::default());
        };
        let mut accept = Vec::new();
        for entry in entries {
            let span = entry.span();
            let RawAccept { rule, reason } = entry.into_inner();
            let refuse = |what: &str| {
                file.error(
                    Some(span.clone()),
                    format!("`accessibility.accept` entry {what}"),
                    Some(
                        "write each accepted violation as { rule = \"color-contrast\", reason = \
                         \"why the team accepts it\" }"
                            .to_owned(),
                    ),
                )
            };
            let rule = rule
                .filter(|r| !r.trim().is_empty())
                .ok_or_else(|| refuse("names no `rule` (an axe-core rule id)"))?;
            let reason = reason
                .filter(|r| !r.trim().is_empty())
                .ok_or_else(|| refuse(&format!("for `{rule}` gives no `reason`")))?;
            accept.push(AcceptedViolation {
                rule: rule.trim().to_owned(),
                reason: reason.trim().to_owned(),
            });
        }
        Ok(AccessibilityLayer {
            accept: Some(accept),
        })
    }

    /// `--a11y-accept RULE=REASON`, repeated.
    pub(super) fn from_overrides(overrides: &Overrides) -> Result<AccessibilityLayer, ConfigError> {
        if overrides.accept_violations.is_empty() {
            return Ok(AccessibilityLayer::default());
        }
        let accept = overrides
            .accept_violations
            .iter()
            .map(|value| {
                parse_accept(value).ok_or_else(|| ConfigError::Flag {
                    flag: "a11y-accept",
                    value: value.clone(),
                    expected: ACCEPT_FORM,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(AccessibilityLayer {
            accept: Some(accept),
        })
    }
}

/// `RULE=REASON`, both non-empty.
fn parse_accept(value: &str) -> Option<AcceptedViolation> {
    let (rule, reason) = value.split_once('=')?;
    let (rule, reason) = (rule.trim(), reason.trim());
    (!rule.is_empty() && !reason.is_empty()).then(|| AcceptedViolation {
        rule: rule.to_owned(),
        reason: reason.to_owned(),
    })
}

/// The environment variables of `[accessibility]`.
pub(super) const ENV_VARS: &[(&str, EnvSetter<AccessibilityLayer>)] =
    &[("PRETTYPLAY_ACCESSIBILITY_ACCEPT", |layer, _, value| {
        let accept = value
            .split(';')
            .filter(|entry| !entry.trim().is_empty())
            .map(parse_accept)
            .collect::<Option<Vec<_>>>()
            .ok_or(ACCEPT_FORM)?;
        layer.accept = Some(accept);
        Ok(())
    })];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_support::{
        env_of, no_env, project, resolve, resolve_err, resolve_with,
    };

    fn rules(settings: &AccessibilitySettings) -> Vec<(&str, &str)> {
        settings
            .accept
            .iter()
            .map(|a| (a.rule.as_str(), a.reason.as_str()))
            .collect()
    }

    #[test]
    fn accepted_rules_come_from_the_file_the_environment_and_the_flag_in_that_order() {
        let dir = project(
            "[accessibility]\naccept = [\n  { rule = \"color-contrast\", reason = \"brand colours, JIRA-123\" },\n]\n",
        );
        assert_eq!(
            rules(&resolve(dir.path(), &no_env).accessibility),
            [("color-contrast", "brand colours, JIRA-123")]
        );
        assert!(
            resolve(project("").path(), &no_env)
                .accessibility
                .accept
                .is_empty()
        );
        let env = env_of(&[(
            "PRETTYPLAY_ACCESSIBILITY_ACCEPT",
            "image-alt=logo is decorative; label=legacy form",
        )]);
        assert_eq!(
            rules(&resolve(dir.path(), &env).accessibility),
            [
                ("image-alt", "logo is decorative"),
                ("label", "legacy form")
            ]
        );
        let flag = Overrides {
            accept_violations: vec!["region=one-page app".to_owned()],
            ..Overrides::default()
        };
        assert_eq!(
            rules(&resolve_with(dir.path(), &env, flag).unwrap().accessibility),
            [("region", "one-page app")]
        );
    }

    #[test]
    fn an_entry_without_a_reason_is_an_error_naming_the_file_and_line() {
        let dir = project("[accessibility]\naccept = [\n  { rule = \"color-contrast\" },\n]\n");
        let err = resolve_err(dir.path(), &no_env).to_string();
        assert!(err.contains("prettyplay.toml:3:"), "{err}");
        assert!(
            err.contains("`accessibility.accept` entry for `color-contrast` gives no `reason`"),
            "{err}"
        );
        let dir = project("[accessibility]\naccept = [{ rule = \"label\", reason = \" \" }]\n");
        let err = resolve_err(dir.path(), &no_env).to_string();
        assert!(err.contains("prettyplay.toml:2:"), "{err}");
        let env = env_of(&[("PRETTYPLAY_ACCESSIBILITY_ACCEPT", "label")]);
        let err = resolve_err(project("").path(), &env).to_string();
        assert!(err.contains("PRETTYPLAY_ACCESSIBILITY_ACCEPT"), "{err}");
    }
}
