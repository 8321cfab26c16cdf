//! Value forms shared by the settings sections: booleans and numbers of seconds, how they are
//! parsed from text and numbers, and how their accepted forms are named in errors; and the two
//! per-source plumbing pieces every section uses, [`EnvSetter`] (one environment variable) and
//! [`flag_value`] (one command-line override).
//!
//! The settings file has its own helper, [`FileContext`](super::file_context::FileContext).

use std::fmt;
use std::path::Path;
use std::time::Duration;

use super::ConfigError;

/// Accepted forms of a boolean environment variable (compared case-insensitively).
pub(super) const BOOL_FORMS: &str = "one of true, false, 1, 0, yes, no";
/// The longest duration of any setting, in seconds (24 h): far beyond any sensible timeout, and
/// well within the 2^31 milliseconds the browser driver takes (a longer one would make every
/// action time out at once).
pub(super) const MAX_SECONDS: f64 = 86_400.0;
/// Accepted form of a duration anywhere.
pub(super) const SECONDS_FORM: &str = "a number of seconds from 0 to 86400 (24 h), e.g. 2.5";
/// Accepted form of a duration that cannot be zero: `llm.timeout`, `run.test_timeout`.
pub(super) const POSITIVE_SECONDS_FORM: &str =
    "a number of seconds > 0, at most 86400 (24 h), e.g. 60";

/// Sets one key of a section's layer `L` from a non-empty environment value; the path is the
/// project root, for relative paths. `Err` holds the accepted forms.
pub(super) type EnvSetter<L> = fn(&mut L, &Path, &str) -> Result<(), &'static str>;

/// What `parse` makes of the value of `--{flag}`, or an error naming the flag, the value and the
/// `expected` forms.
pub(super) fn flag_value<V: Copy + fmt::Display, T>(
    flag: &'static str,
    expected: &'static str,
    value: Option<V>,
    parse: impl Fn(V) -> Option<T>,
) -> Result<Option<T>, ConfigError> {
    let Some(value) = value else {
        return Ok(None);
    };
    match parse(value) {
        Some(parsed) => Ok(Some(parsed)),
        None => Err(ConfigError::Flag {
            flag,
            value: value.to_string(),
            expected,
        }),
    }
}

/// `true`, `false`, `1`, `0`, `yes` or `no`, in any case, with spaces around.
pub(super) fn parse_bool(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" => Some(true),
        "false" | "0" | "no" => Some(false),
        _ => None,
    }
}

/// A number of seconds as text, with spaces around; see [`seconds`].
pub(super) fn parse_seconds(value: &str) -> Option<Duration> {
    value.trim().parse::<f64>().ok().and_then(seconds)
}

/// A finite number of seconds from 0 to [`MAX_SECONDS`].
pub(super) fn seconds(value: f64) -> Option<Duration> {
    if value.is_finite() && (0.0..=MAX_SECONDS).contains(&value) {
        Duration::try_from_secs_f64(value).ok()
    } else {
        None
    }
}

/// Like [`seconds`], but more than zero.
pub(super) fn positive_seconds(value: f64) -> Option<Duration> {
    seconds(value).filter(|t| !t.is_zero())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bools_take_three_spellings_each_in_any_case() {
        for value in ["true", "1", "yes", " YES ", "True"] {
            assert_eq!(parse_bool(value), Some(true), "{value:?}");
        }
        for value in ["false", "0", "no", "\tNo\n", "FALSE"] {
            assert_eq!(parse_bool(value), Some(false), "{value:?}");
        }
        for value in ["", "y", "on", "2", "maybe"] {
            assert_eq!(parse_bool(value), None, "{value:?}");
        }
    }

    #[test]
    fn seconds_are_finite_non_negative_and_fit_a_duration() {
        assert_eq!(parse_seconds(" 2.5 "), Some(Duration::from_millis(2500)));
        assert_eq!(parse_seconds("0"), Some(Duration::ZERO));
        for value in ["-1", "NaN", "inf", "soon", "1e300", ""] {
            assert_eq!(parse_seconds(value), None, "{value:?}");
        }
        assert_eq!(parse_seconds("86400"), Some(Duration::from_secs(86_400)));
        // 2^31 ms and more made every browser action time out at once.
        for value in ["86400.001", "2147484", "1e10"] {
            assert_eq!(parse_seconds(value), None, "{value:?}");
        }
        assert_eq!(positive_seconds(0.0), None);
        assert_eq!(positive_seconds(86_401.0), None);
        assert_eq!(positive_seconds(0.5), Some(Duration::from_millis(500)));
    }

    #[test]
    fn flag_values_are_parsed_or_name_the_flag() {
        assert_eq!(
            flag_value("timeout", SECONDS_FORM, None::<f64>, seconds).expect("absent"),
            None
        );
        assert_eq!(
            flag_value("timeout", SECONDS_FORM, Some(1.5), seconds).expect("valid"),
            Some(Duration::from_millis(1500))
        );
        let e = flag_value("timeout", SECONDS_FORM, Some(-2.0), seconds).expect_err("invalid");
        assert_eq!(
            e.to_string(),
            "invalid value `-2` for `--timeout`: expected a number of seconds from 0 to 86400 (24 h), e.g. 2.5"
        );
    }
}
