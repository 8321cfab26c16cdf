//! `[polling]`: the settle window of steps.
//!
//! Main type: [`PollingLayer`], what one source says of the section, read from the file
//! ([`RawPolling`]) or the environment ([`POLLING_ENV_VARS`]), and stacked and finished into
//! [`PollingSettings`] by `settings.rs`.

use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use super::defaults;
use super::file_context::FileContext;
use super::section_layer::section_layer;
use super::value_forms::{EnvSetter, SECONDS_FORM, parse_seconds, seconds};
use super::{ConfigError, PollingSettings};

section_layer! {
    /// What one source says of `[polling]`; `None` leaves the decision to lower sources. A zero
    /// timeout is kept as `Some(ZERO)` so it can switch off a timeout set by a lower source.
    PollingLayer {
        timeout: Duration,
        delay: Duration,
        optional_timeout: Duration,
    }
}

impl PollingLayer {
    /// The gaps filled from the defaults; a zero timeout is off.
    pub(super) fn finish(self) -> PollingSettings {
        PollingSettings {
            timeout: self
                .timeout
                .or(defaults::POLLING_TIMEOUT)
                .filter(|t| !t.is_zero()),
            delay: self.delay.unwrap_or(defaults::POLLING_DELAY),
            optional_timeout: self
                .optional_timeout
                .unwrap_or(defaults::POLLING_OPTIONAL_TIMEOUT),
        }
    }

    /// `[polling]` of the settings file, checked.
    pub(super) fn from_file(
        raw: RawPolling,
        file: &FileContext<'_>,
    ) -> Result<PollingLayer, ConfigError> {
        Ok(PollingLayer {
            timeout: file.checked("polling.timeout", SECONDS_FORM, raw.timeout, seconds)?,
            delay: file.checked("polling.delay", SECONDS_FORM, raw.delay, seconds)?,
            optional_timeout: file.checked(
                "polling.optional_timeout",
                SECONDS_FORM,
                raw.optional_timeout,
                seconds,
            )?,
        })
    }
}

/// `[polling]` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub(super) struct RawPolling {
    timeout: Option<Spanned<f64>>,
    delay: Option<Spanned<f64>>,
    optional_timeout: Option<Spanned<f64>>,
}

/// The environment variables of `[polling]`.
pub(super) const POLLING_ENV_VARS: &[(&str, EnvSetter<PollingLayer>)] = &[
    ("PRETTYPLAY_POLLING_TIMEOUT", |layer, _, value| {
        layer.timeout = Some(parse_seconds(value).ok_or(SECONDS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_POLLING_DELAY", |layer, _, value| {
        layer.delay = Some(parse_seconds(value).ok_or(SECONDS_FORM)?);
        Ok(())
    }),
    ("PRETTYPLAY_POLLING_OPTIONAL_TIMEOUT", |layer, _, value| {
        layer.optional_timeout = Some(parse_seconds(value).ok_or(SECONDS_FORM)?);
        Ok(())
    }),
];

#[cfg(test)]
mod tests {
    use crate::config::test_support::{no_env, project, resolve};

    #[test]
    fn zero_polling_timeout_is_off() {
        let dir = project("[polling]\ntimeout = 0\n");
        assert_eq!(resolve(dir.path(), &no_env).polling.timeout, None);
    }

    #[test]
    fn optional_timeout_defaults_to_two_seconds_and_is_read_from_file_and_env() {
        use std::time::Duration;
        let dir = project("");
        assert_eq!(
            resolve(dir.path(), &no_env).polling.optional_timeout,
            Duration::from_secs(2)
        );
        let dir = project("[polling]\noptional_timeout = 0.5\n");
        assert_eq!(
            resolve(dir.path(), &no_env).polling.optional_timeout,
            Duration::from_millis(500)
        );
        let env =
            |name: &str| (name == "PRETTYPLAY_POLLING_OPTIONAL_TIMEOUT").then(|| "3".to_owned());
        assert_eq!(
            resolve(dir.path(), &env).polling.optional_timeout,
            Duration::from_secs(3)
        );
    }
}
