//! `[generate]`: who writes the code of a new step. `builtin` is the order of the built-in
//! generator and the LLM (`first`, the default: the built-in generator, then the LLM when it
//! declines or its code fails; `only`: never an LLM for code; `off`: the LLM alone); `reuse`
//! (on by default) lets a step try the code another test proved for the same sentence first.
//!
//! Main type: [`GenerateLayer`], what one source says of `[generate]`: the file
//! ([`RawGenerate`]) or the environment ([`ENV_VARS`]); stacked and finished into
//! [`GenerateSettings`] by `settings.rs`.

use serde::Deserialize;

use super::section_layer::section_layer;
use super::value_forms::{BOOL_FORMS, EnvSetter, parse_bool};

/// `[generate] builtin`: where the built-in generator comes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BuiltinOrder {
    /// The built-in generator first; the LLM when it declines or its code fails (default).
    #[default]
    First,
    /// The built-in generator alone: no LLM writes code.
    Only,
    /// The LLM alone.
    Off,
}

impl BuiltinOrder {
    pub fn as_str(self) -> &'static str {
        match self {
            BuiltinOrder::First => "first",
            BuiltinOrder::Only => "only",
            BuiltinOrder::Off => "off",
        }
    }

    /// Whether the built-in generator is asked at all.
    pub fn uses_builtin(self) -> bool {
        self != BuiltinOrder::Off
    }

    /// Whether an LLM may write code.
    pub fn uses_llm(self) -> bool {
        self != BuiltinOrder::Only
    }
}

/// `[generate]` settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerateSettings {
    pub builtin: BuiltinOrder,
    /// `[generate] reuse`: a step without code first tries the code another test proved for
    /// the same sentence, and failing code the code another test healed (default on).
    pub reuse: bool,
}

impl Default for GenerateSettings {
    fn default() -> Self {
        GenerateLayer::default().finish()
    }
}

/// `[generate]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub(super) struct RawGenerate {
    builtin: Option<BuiltinOrder>,
    reuse: Option<bool>,
}

section_layer! {
    /// What one source says of `[generate]`; `None` leaves the decision to lower sources.
    GenerateLayer {
        builtin: BuiltinOrder,
        reuse: bool,
    }
}

impl GenerateLayer {
    /// The gaps filled from the defaults.
    pub(super) fn finish(self) -> GenerateSettings {
        GenerateSettings {
            builtin: self.builtin.unwrap_or_default(),
            reuse: self.reuse.unwrap_or(true),
        }
    }

    /// `[generate]` of the settings file (serde checked the values).
    pub(super) fn from_file(raw: RawGenerate) -> GenerateLayer {
        GenerateLayer {
            builtin: raw.builtin,
            reuse: raw.reuse,
        }
    }
}

/// The environment variables of `[generate]`.
pub(super) const ENV_VARS: &[(&str, EnvSetter<GenerateLayer>)] = &[
    ("PRETTYPLAY_GENERATE_BUILTIN", |layer, _, value| {
        layer.builtin = Some(match value.trim().to_ascii_lowercase().as_str() {
            "first" => BuiltinOrder::First,
            "only" => BuiltinOrder::Only,
            "off" => BuiltinOrder::Off,
            _ => return Err("one of first, only, off"),
        });
        Ok(())
    }),
    ("PRETTYPLAY_GENERATE_REUSE", |layer, _, value| {
        layer.reuse = Some(parse_bool(value).ok_or(BOOL_FORMS)?);
        Ok(())
    }),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_support::{env_of, no_env, project, resolve, resolve_err};

    #[test]
    fn the_builtin_generator_comes_first_unless_a_source_says_otherwise() {
        let dir = project("");
        assert_eq!(
            resolve(dir.path(), &no_env).generate.builtin,
            BuiltinOrder::First
        );
        let dir = project("[generate]\nbuiltin = \"only\"\n");
        assert_eq!(
            resolve(dir.path(), &no_env).generate.builtin,
            BuiltinOrder::Only
        );
        let env = env_of(&[("PRETTYPLAY_GENERATE_BUILTIN", "off")]);
        assert_eq!(
            resolve(dir.path(), &env).generate.builtin,
            BuiltinOrder::Off,
            "the environment beats the file"
        );
    }

    #[test]
    fn an_unknown_order_is_refused() {
        let dir = project("[generate]\nbuiltin = \"sometimes\"\n");
        let err = resolve_err(dir.path(), &no_env).to_string();
        assert!(
            err.contains("sometimes") || err.contains("builtin"),
            "{err}"
        );
        let env = env_of(&[("PRETTYPLAY_GENERATE_BUILTIN", "maybe")]);
        let err = resolve_err(project("").path(), &env).to_string();
        assert!(err.contains("PRETTYPLAY_GENERATE_BUILTIN"), "{err}");
    }

    #[test]
    fn reuse_is_on_unless_a_source_turns_it_off() {
        assert!(resolve(project("").path(), &no_env).generate.reuse);
        let dir = project("[generate]\nreuse = false\n");
        assert!(!resolve(dir.path(), &no_env).generate.reuse);
        let env = env_of(&[("PRETTYPLAY_GENERATE_REUSE", "yes")]);
        assert!(
            resolve(dir.path(), &env).generate.reuse,
            "the environment beats the file"
        );
        let env = env_of(&[("PRETTYPLAY_GENERATE_REUSE", "sometimes")]);
        let err = resolve_err(project("").path(), &env).to_string();
        assert!(err.contains("PRETTYPLAY_GENERATE_REUSE"), "{err}");
    }
}
