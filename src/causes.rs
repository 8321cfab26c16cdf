//! How an error is shown to a user: its message, the chain of its causes, and a hint.
//!
//! Main function: [`write_report`], shared by the top-level error's report and by the runner's
//! infrastructure failures, so both read the same.

use std::error::Error;
use std::fmt;

/// Writes `error: <message>`, a `caused by:` line per cause and a `hint:` line when there is one.
/// A first cause that repeats the message (a transparent wrapper) is skipped.
pub(crate) fn write_report(
    f: &mut dyn fmt::Write,
    error: &dyn Error,
    hint: Option<&str>,
) -> fmt::Result {
    let message = error.to_string();
    write!(f, "error: {message}")?;
    let mut source = error.source();
    if let Some(first) = source
        && first.to_string() == message
    {
        source = first.source();
    }
    while let Some(cause) = source {
        write!(f, "\n  caused by: {cause}")?;
        source = cause.source();
    }
    if let Some(hint) = hint {
        write!(f, "\n  hint: {hint}")?;
    }
    Ok(())
}

/// [`write_report`] into a string.
pub(crate) fn report(error: &dyn Error, hint: Option<&str>) -> String {
    let mut text = String::new();
    // Writing into a String cannot fail.
    let _ = write_report(&mut text, error, hint);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("could not launch")]
    struct Outer(#[source] std::io::Error);

    #[test]
    fn causes_and_the_hint_follow_the_message() {
        let err = Outer(std::io::Error::other("no such file"));
        assert_eq!(
            report(&err, Some("install it")),
            "error: could not launch\n  caused by: no such file\n  hint: install it"
        );
        assert_eq!(
            report(&err, None),
            "error: could not launch\n  caused by: no such file"
        );
    }
}
