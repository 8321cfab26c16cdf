//! Bounding the text a failing step produces: [`cut_text`] keeps the head of a message or log line
//! up to [`MAX_MESSAGE_BYTES`] and says how much was cut, so a runaway message (a 40 MB thrown
//! error) cannot flood stdout, JUnit, HTML and the event stream.

/// The most bytes of one failure message or console line kept (before the marker).
pub(crate) const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// `text` as is when it has at most `max` bytes; otherwise its head of at most `max` bytes, cut
/// on a char boundary, followed by `… N bytes cut`.
pub(crate) fn cut_text(mut text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    let keep = (0..=max)
        .rev()
        .find(|i| text.is_char_boundary(*i))
        .unwrap_or(0);
    let cut = text.len() - keep;
    text.truncate(keep);
    text.push_str(&format!("… {cut} bytes cut"));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_kept_whole() {
        assert_eq!(cut_text("hello".to_owned(), 5), "hello");
        assert_eq!(cut_text(String::new(), 0), "");
    }

    #[test]
    fn long_text_keeps_its_head_and_says_how_much_was_cut() {
        assert_eq!(cut_text("hello world".to_owned(), 5), "hello… 6 bytes cut");
        let long = "x".repeat(MAX_MESSAGE_BYTES + 100);
        let cut = cut_text(long, MAX_MESSAGE_BYTES);
        assert_eq!(
            cut,
            format!("{}… 100 bytes cut", "x".repeat(MAX_MESSAGE_BYTES))
        );
    }

    #[test]
    fn cuts_fall_on_char_boundaries() {
        // "é" is two bytes: a cut at 3 bytes would split the second one.
        assert_eq!(cut_text("ééé".to_owned(), 3), "é… 4 bytes cut");
        assert_eq!(cut_text("€€".to_owned(), 2), "… 6 bytes cut");
        assert_eq!(cut_text("a€".to_owned(), 3), "a… 3 bytes cut");
    }
}
