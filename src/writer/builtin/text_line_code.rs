//! A line of text that an element shows beside other content: a flash message with its close
//! link (`You logged in! <a>×</a>`), or the first line of a paragraph broken by `<br>`. Such a
//! line is not the element's whole text, so `getByText` with a whole-text pattern cannot find
//! it, yet the page shows it as a text of its own.
//!
//! Main function: [`line_locator_js`], the XPath locator of an element holding the line. It
//! is on the code side because it writes JavaScript; element resolution (`resolve.rs`), whose
//! found elements still carry their locators as text, asks it for one.

use crate::writer::builtin::locator::{js_str, xpath_literal};

/// What may stand before the line without being part of what it says: a line break.
const BEFORE: &str = "self::br";

/// What may stand after it: a line break, or the close control (a link or button) that
/// messages carry, which ends the element: `to continue` is no line of `Click <a>here</a> to
/// continue`, and neither is `Click`.
const AFTER: &str = "self::br or ((self::a or self::button) and \
     not(following-sibling::node()[not(self::text()[normalize-space(.)=''] or self::comment() \
     or self::br)]))";

/// The JavaScript locator (`page.locator('xpath=...')`) of an element that has a text node whose
/// text, its whitespace collapsed (a no-break space counting as one), is `text` exactly, in its
/// case, and whose nearest non-blank neighbours are nothing or a line break, or after it a close
/// link or button that ends the element. So `This page returned a 404 status code.` is
/// found in the paragraph that goes on after a `<br>`, and `You logged in!` beside its `×` link, but `item left` is not found in
/// `<strong>1</strong> item left`, nor `3 items left` in `13 items left`.
pub(crate) fn line_locator_js(text: &str) -> String {
    format!("page.locator({})", line_selector_js(text, "//*"))
}

/// The locator of such an element inside the element `within` finds, or that element itself
/// (`descendant-or-self`, since a message's text is often the element's own text run).
pub(crate) fn line_within_js(within: &str, text: &str) -> String {
    format!(
        "{within}.locator({})",
        line_selector_js(text, "descendant-or-self::*")
    )
}

/// The `xpath=` selector, as a JavaScript string literal, of the elements from `from` (an
/// XPath step) that hold `text` as a line of their own.
fn line_selector_js(text: &str, from: &str) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let blank = "self::text()[normalize-space(.)=''] or self::comment()";
    let neighbour =
        |axis: &str, may: &str| format!("not({axis}::node()[not({blank})][1][not({may})])");
    let xpath = format!(
        "xpath={from}[text()[normalize-space(translate(., '\u{a0}', ' '))={}][{}][{}]]",
        xpath_literal(&collapsed),
        neighbour("preceding-sibling", BEFORE),
        neighbour("following-sibling", AFTER),
    );
    // The no-break space is written as a JavaScript escape, which a reader can see.
    js_str(&xpath).replace('\u{a0}', "\\u00a0")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_locator_asks_for_the_whole_line_and_its_neighbours() {
        let side = |axis: &str, may: &str| {
            format!(
                "[not({axis}::node()[not(self::text()[normalize-space(.)=\\'\\'] or \
                 self::comment())][1][not({})])]",
                may.replace('\'', "\\'")
            )
        };
        assert_eq!(
            line_locator_js("You  logged in!"),
            format!(
                "page.locator('xpath=//*[text()[normalize-space(translate(., \\'\\u00a0\\', \\' \\'))=\"You logged in!\"]{}{}]')",
                side("preceding-sibling", BEFORE),
                side("following-sibling", AFTER)
            )
        );
    }
}
