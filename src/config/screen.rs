//! `[browser] screen`: what screen each test's page emulates: Playwright's default viewport, a
//! fixed size, the browser window, or a Playwright device.
//!
//! Main type: [`Screen`]. Settings check the form of a value only: device names are Playwright's
//! and its device list comes from the driver, so names are looked up when the browser starts
//! (see [`Screen::device_suggestions`] for the error then).

use std::fmt;

/// The accepted forms of `[browser] screen`, for error messages.
pub(crate) const SCREEN_FORMS: &str =
    "empty, WxH such as 1280x720, fullscreen, or a device name such as \"iPhone 13\"";

/// How many near-miss device names an error lists at most.
const MAX_SUGGESTIONS: usize = 6;

/// What screen each test's page emulates. Step code is the same in every mode.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Screen {
    /// Playwright's default viewport, 1280x720 (no viewport option is passed).
    #[default]
    Default,
    /// A fixed viewport, in CSS pixels; both positive.
    Size { width: u32, height: u32 },
    /// No fixed viewport: the page takes the size of the browser window (1920x1080 headless,
    /// the maximized window headed).
    Fullscreen,
    /// A Playwright device descriptor (viewport, user agent, scale factor, mobile, touch), by
    /// its exact, case-sensitive name, such as `iPhone 13`.
    Device(String),
}

impl Screen {
    /// Parses a value of `[browser] screen`; `None` when it has none of the accepted forms
    /// ([`SCREEN_FORMS`]). Surrounding whitespace is ignored.
    ///
    /// A value that starts with a digit or has no letter but `x` is a size, and must be `WxH`
    /// with positive integers; `fullscreen` is lowercase (another case is rejected rather
    /// than taken for a device name); anything else is a device name, checked at launch.
    pub(crate) fn parse(value: &str) -> Option<Screen> {
        let value = value.trim();
        if value.is_empty() {
            return Some(Screen::Default);
        }
        if value == "fullscreen" {
            return Some(Screen::Fullscreen);
        }
        if value.eq_ignore_ascii_case("fullscreen") {
            return None;
        }
        if looks_like_size(value) {
            return parse_size(value);
        }
        if value.chars().any(char::is_control) {
            return None;
        }
        Some(Screen::Device(value.to_owned()))
    }

    /// Known device names close to `name`, best first: equal or one a prefix of the other,
    /// ignoring case, spaces and punctuation (`iphone13` finds `iPhone 13`, `Pixel` finds
    /// `Pixel 7`). At most a handful.
    pub(crate) fn device_suggestions<'a>(
        name: &str,
        known: impl IntoIterator<Item = &'a str>,
    ) -> Vec<&'a str> {
        let wanted = loose(name);
        if wanted.is_empty() {
            return Vec::new();
        }
        let mut close: Vec<(bool, &str)> = known
            .into_iter()
            .filter_map(|candidate| {
                let have = loose(candidate);
                if have == wanted {
                    Some((false, candidate))
                } else if have.starts_with(&wanted)
                    || (!have.is_empty() && wanted.starts_with(&have))
                {
                    Some((true, candidate))
                } else {
                    None
                }
            })
            .collect();
        // Exact (loose) matches first, then shorter names: `iPhone 13` before
        // `iPhone 13 Pro Max landscape`.
        close.sort_by(|a, b| (a.0, a.1.len(), a.1).cmp(&(b.0, b.1.len(), b.1)));
        close.dedup();
        close
            .into_iter()
            .take(MAX_SUGGESTIONS)
            .map(|(_, name)| name)
            .collect()
    }
}

impl fmt::Display for Screen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Screen::Default => f.write_str("default (1280x720)"),
            Screen::Size { width, height } => write!(f, "{width}x{height}"),
            Screen::Fullscreen => f.write_str("fullscreen"),
            Screen::Device(name) => write!(f, "device {name:?}"),
        }
    }
}

/// Digits first, or no letter but `x`/`X`: meant as a size (every Playwright device name starts
/// with a letter and has others).
fn looks_like_size(value: &str) -> bool {
    value.starts_with(|c: char| c.is_ascii_digit())
        || !value
            .chars()
            .any(|c| c.is_alphabetic() && !matches!(c, 'x' | 'X'))
}

/// `WxH` (or `WXH`), both positive integers that fit a `u32`.
fn parse_size(value: &str) -> Option<Screen> {
    let (width, height) = value.split_once(['x', 'X'])?;
    let number = |text: &str| -> Option<u32> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        text.parse().ok().filter(|n| *n > 0)
    };
    Some(Screen::Size {
        width: number(width)?,
        height: number(height)?,
    })
}

/// Lowercase letters and digits only.
fn loose(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::test_support::screen_examples;

    #[test]
    fn every_form_parses() {
        for (value, expected) in screen_examples() {
            assert_eq!(Screen::parse(value), Some(expected), "{value:?}");
        }
    }

    #[test]
    fn malformed_values_are_rejected() {
        for value in [
            "0x600",
            "800x0",
            "800x",
            "x600",
            "800",
            "800x600x2",
            "800 x 600",
            "800*600",
            "800,600",
            "-800x600",
            "+800x600",
            "x",
            "-",
            "800x600px",
            "1.5x2",
            "99999999999x1",
            "Fullscreen",
            "FULLSCREEN",
            "iPhone\t13\n",
            "iPhone\u{7}",
        ] {
            assert_eq!(Screen::parse(value), None, "{value:?}");
        }
    }

    #[test]
    fn display_names_the_mode() {
        assert_eq!(Screen::Default.to_string(), "default (1280x720)");
        assert_eq!(
            Screen::Size {
                width: 800,
                height: 600
            }
            .to_string(),
            "800x600"
        );
        assert_eq!(Screen::Fullscreen.to_string(), "fullscreen");
        assert_eq!(
            Screen::Device("iPhone 13".into()).to_string(),
            "device \"iPhone 13\""
        );
    }

    const KNOWN: &[&str] = &[
        "iPhone 13",
        "iPhone 13 landscape",
        "iPhone 13 Mini",
        "iPhone 13 Pro Max landscape",
        "iPhone 12",
        "Pixel 7",
        "Pixel 7 landscape",
        "Galaxy S9+",
        "Desktop Chrome",
    ];

    #[test]
    fn suggestions_ignore_case_and_spacing_and_match_prefixes() {
        let suggest = |name| Screen::device_suggestions(name, KNOWN.iter().copied());
        assert_eq!(
            suggest("iphone 13"),
            [
                "iPhone 13",
                "iPhone 13 Mini",
                "iPhone 13 landscape",
                "iPhone 13 Pro Max landscape"
            ]
        );
        assert_eq!(suggest("IPHONE13")[0], "iPhone 13");
        assert_eq!(suggest("pixel"), ["Pixel 7", "Pixel 7 landscape"]);
        // The known name is a prefix of the wanted one.
        assert_eq!(suggest("Pixel 7 Pro"), ["Pixel 7"]);
        assert_eq!(suggest("galaxy s9"), ["Galaxy S9+"]);
        assert!(suggest("Nokia 3310").is_empty());
        assert!(suggest("  ").is_empty());
    }

    #[test]
    fn suggestions_are_capped() {
        let many: Vec<String> = (0..20).map(|i| format!("Phone {i}")).collect();
        let suggestions = Screen::device_suggestions("phone", many.iter().map(String::as_str));
        assert_eq!(suggestions.len(), MAX_SUGGESTIONS);
        assert_eq!(suggestions[0], "Phone 0");
    }
}
