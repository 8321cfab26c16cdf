//! How the web-first assertions a check writer writes wait: an option the writers of claims
//! (`check_code.rs`) take from the code that places the claim inside a wait of its own. An
//! either-or (`either_code.rs`) retries its whole decision until the step's timeout, so each
//! assertion of one attempt must give up early, or the first attempt would use the whole
//! timeout and the page's change a moment later would never be looked at again.
//!
//! Main type: [`CheckOptions`].

/// How long the web-first assertions of a check wait. The default leaves every assertion the
/// step's timeout and writes no options argument, which is the code of a check standing alone.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct CheckOptions {
    /// Each assertion's timeout in milliseconds (`{ timeout: N }`, Playwright's option of
    /// every web-first matcher); `None` for the step's timeout.
    pub timeout_ms: Option<u32>,
}

impl CheckOptions {
    /// A matcher's call after `expect(...).`: `name` (with its `not.` when negated) and its
    /// arguments as written, then the options as the last argument when any is set:
    /// `toHaveText('x')`, `toHaveText('x', { timeout: 500 })`, `toBeVisible({ timeout: 500 })`.
    /// Every matcher the writers call takes its options last, after its expected values.
    pub(crate) fn matcher(self, name: &str, args: &[&str]) -> String {
        let mut all: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
        if let Some(ms) = self.timeout_ms {
            all.push(format!("{{ timeout: {ms} }}"));
        }
        format!("{name}({})", all.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::CheckOptions;

    #[test]
    fn the_default_writes_no_options_and_a_timeout_is_the_last_argument() {
        let bounded = CheckOptions {
            timeout_ms: Some(500),
        };
        for (name, args, plain, timed) in [
            (
                "toBeVisible",
                &[][..],
                "toBeVisible()",
                "toBeVisible({ timeout: 500 })",
            ),
            (
                "not.toBeChecked",
                &[][..],
                "not.toBeChecked()",
                "not.toBeChecked({ timeout: 500 })",
            ),
            (
                "toHaveText",
                &["'0 items left'"][..],
                "toHaveText('0 items left')",
                "toHaveText('0 items left', { timeout: 500 })",
            ),
            (
                "toHaveAttribute",
                &["'placeholder'", "'x'"][..],
                "toHaveAttribute('placeholder', 'x')",
                "toHaveAttribute('placeholder', 'x', { timeout: 500 })",
            ),
        ] {
            assert_eq!(CheckOptions::default().matcher(name, args), plain);
            assert_eq!(bounded.matcher(name, args), timed);
        }
    }
}
