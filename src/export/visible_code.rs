//! Step code as a spec file carries it: the cached code, with each character a terminal would
//! act on (`visible.rs`) written so that the file shows it and the code still means what it
//! meant. Inside a string, template or regular expression literal such a character becomes its
//! `\uXXXX` escape, which JavaScript reads as the same character; inside a comment it becomes
//! the terminal's escape (`\x1b`), since a comment's text is not run; a line terminator
//! (carriage return, U+2028, U+2029) becomes a newline, which ends a line in the same places;
//! a form feed or vertical tab outside literals, which JavaScript reads as a space, becomes a
//! space. The one difference: `String.raw` and tagged templates see the escape's text in
//! their raw strings.
//!
//! Main function: [`visible_code`].

use std::borrow::Cow;

use oxc_allocator::Allocator;
use oxc_ast::ast::{RegExpLiteral, StringLiteral, TemplateElement};
use oxc_ast_visit::Visit;
use oxc_parser::Parser;
use oxc_span::{SourceType, Span};

use crate::visible::{is_unsafe, visible};

/// Where a character stands in the code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// In a string, template or regular expression literal.
    Literal,
    Comment,
    Code,
}

/// `code` with its control and invisible characters written as described in the module's
/// comment.
pub(super) fn visible_code(code: &str) -> Cow<'_, str> {
    if !code.chars().any(is_unsafe) {
        return Cow::Borrowed(code);
    }
    let allocator = Allocator::default();
    let parsed = Parser::new(&allocator, code, SourceType::script()).parse();
    let mut literals = Literals::default();
    literals.visit_program(&parsed.program);
    let comments: Vec<Span> = parsed.program.comments.iter().map(|c| c.span).collect();
    let place = |at: usize| {
        let inside = |span: &Span| (span.start as usize) <= at && at < span.end as usize;
        if literals.spans.iter().any(inside) {
            Place::Literal
        } else if comments.iter().any(inside) {
            Place::Comment
        } else {
            Place::Code
        }
    };
    let mut out = String::with_capacity(code.len() + 16);
    let mut chars = code.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if !is_unsafe(c) {
            out.push(c);
            continue;
        }
        let terminator = matches!(c, '\r' | '\u{2028}' | '\u{2029}');
        if c == '\r' && matches!(chars.peek(), Some((_, '\n'))) {
            // CR LF is one line terminator, as LF alone is.
            continue;
        }
        match place(at) {
            Place::Literal if terminator && escaped(&out) => out.push('\n'),
            // After a backslash the escape needs no backslash of its own: `\<ESC>` and
            // `\u001b` both mean ESC.
            Place::Literal if escaped(&out) => out.push_str(&format!("u{:04x}", u32::from(c))),
            Place::Literal if c == '\r' => out.push('\n'),
            Place::Literal => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            Place::Comment | Place::Code if terminator => out.push('\n'),
            Place::Comment => out.push_str(&visible(&c.to_string())),
            Place::Code if matches!(c, '\u{b}' | '\u{c}') => out.push(' '),
            // Not valid code where it stands: the escape keeps it so.
            Place::Code => out.push_str(&format!("\\u{:04x}", u32::from(c))),
        }
    }
    Cow::Owned(out)
}

/// Whether `written` ends with an odd number of backslashes: the next character is escaped.
fn escaped(written: &str) -> bool {
    written.chars().rev().take_while(|c| *c == '\\').count() % 2 == 1
}

/// The spans of the code's literals.
#[derive(Default)]
struct Literals {
    spans: Vec<Span>,
}

impl<'a> Visit<'a> for Literals {
    fn visit_string_literal(&mut self, it: &StringLiteral<'a>) {
        self.spans.push(it.span);
    }

    fn visit_template_element(&mut self, it: &TemplateElement<'a>) {
        self.spans.push(it.span);
    }

    fn visit_reg_exp_literal(&mut self, it: &RegExpLiteral<'a>) {
        self.spans.push(it.span);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_without_unsafe_characters_is_kept_as_it_is() {
        let code = "async function step(page) {\n\tawait page.goto('/');\n}";
        assert!(matches!(visible_code(code), Cow::Borrowed(_)));
    }

    #[test]
    fn literals_get_javascript_escapes_and_comments_terminal_ones() {
        let code = "// note \u{1b}[2J\nconst a = '\u{1b}[31m' + \"\\\u{7}\" + `x\u{202e}${y}` + /\u{9b}/.source;\u{c}f(a)";
        let shown = visible_code(code);
        assert_eq!(
            shown,
            "// note \\x1b[2J\nconst a = '\\u001b[31m' + \"\\u0007\" + `x\\u202e${y}` + /\\u009b/.source; f(a)"
        );
        assert!(!shown.chars().any(is_unsafe));
    }

    #[test]
    fn line_terminators_stay_line_terminators() {
        assert_eq!(
            visible_code("a()\r\nb()\u{2028}c() // x\u{2029}d()"),
            "a()\nb()\nc() // x\nd()"
        );
        assert_eq!(visible_code("'a\\\u{2028}b'"), "'a\\\nb'");
    }
}
