//! `[heal]`: what guards healing. Today one key: `veto`, the mechanical heal veto (on by
//! default; off only with a loud warning in every summary).
//!
//! Main type: [`HealLayer`], what one source says of `[heal]`: the file ([`RawHeal`]), the
//! environment ([`ENV_VARS`]) or the flag `--no-heal-veto`; stacked and finished into
//! [`HealSettings`] by `settings.rs`.

use serde::Deserialize;

use super::defaults;
use super::section_layer::section_layer;
use super::value_forms::{BOOL_FORMS, EnvSetter, parse_bool};
use super::{HealSettings, Overrides};

/// The defaults of `[heal]`: the veto is on.
impl Default for HealSettings {
    fn default() -> Self {
        HealLayer::default().finish()
    }
}

/// `[heal]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub(super) struct RawHeal {
    veto: Option<bool>,
}

section_layer! {
    /// What one source says of `[heal]`; `None` leaves the decision to lower sources.
    HealLayer {
        veto: bool,
    }
}

impl HealLayer {
    /// The gaps filled from the defaults.
    pub(super) fn finish(self) -> HealSettings {
        HealSettings {
            veto: self.veto.unwrap_or(defaults::HEAL_VETO),
        }
    }

    /// `[heal]` of the settings file (serde checked the types).
    pub(super) fn from_file(raw: RawHeal) -> HealLayer {
        HealLayer { veto: raw.veto }
    }

    /// `--no-heal-veto`.
    pub(super) fn from_overrides(overrides: &Overrides) -> HealLayer {
        HealLayer {
            veto: overrides.no_heal_veto.then_some(false),
        }
    }
}

/// The environment variables of `[heal]`.
pub(super) const ENV_VARS: &[(&str, EnvSetter<HealLayer>)] =
    &[("PRETTYPLAY_HEAL_VETO", |layer, _, value| {
        layer.veto = Some(parse_bool(value).ok_or(BOOL_FORMS)?);
        Ok(())
    })];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_support::{
        env_of, no_env, project, resolve, resolve_err, resolve_with,
    };

    #[test]
    fn the_veto_is_on_unless_a_source_turns_it_off() {
        let dir = project("");
        assert!(resolve(dir.path(), &no_env).heal.veto);
        let dir = project("[heal]\nveto = false\n");
        assert!(!resolve(dir.path(), &no_env).heal.veto);
        let env = env_of(&[("PRETTYPLAY_HEAL_VETO", "yes")]);
        assert!(
            resolve(dir.path(), &env).heal.veto,
            "the environment beats the file"
        );
        let flag = Overrides {
            no_heal_veto: true,
            ..Overrides::default()
        };
        assert!(
            !resolve_with(dir.path(), &env, flag).unwrap().heal.veto,
            "the flag beats both"
        );
    }

    #[test]
    fn a_veto_that_is_not_a_boolean_is_refused() {
        let dir = project("[heal]\nveto = \"no\"\n");
        let err = resolve_err(dir.path(), &no_env).to_string();
        assert!(err.contains("heal.veto") || err.contains("veto"), "{err}");
        let env = env_of(&[("PRETTYPLAY_HEAL_VETO", "maybe")]);
        let err = resolve_err(project("").path(), &env).to_string();
        assert!(err.contains("PRETTYPLAY_HEAL_VETO"), "{err}");
    }
}
