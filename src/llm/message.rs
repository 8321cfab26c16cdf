//! The user message of each request: labelled sections in a fixed order, shared by both
//! providers (the system prompt travels apart, and a screenshot as an image part).
//!
//! Main functions: [`render_generation_message`] and [`render_classification_message`]. The
//! format is documented in `docs/llm.md`.

use std::fmt::Write as _;

use super::{ClassificationRequest, GenerationRequest};

/// Marker written in the text when a screenshot travels as an image part.
const SCREENSHOT_ATTACHED: &str = "SCREENSHOT: attached";

/// The user message of a generation request: `STEP:`, `PREVIOUS STEPS:` (numbered, or
/// `(none)`), `PAGE SNAPSHOT:`, `SCREENSHOT: attached` (when there is one), `PAGE API:`,
/// `USER INSTRUCTIONS:` (only when given and not blank), then `CODE:` and `ERROR:` of the failed
/// attempt (only when there is one).
pub fn render_generation_message(request: &GenerationRequest) -> String {
    let mut out = String::new();
    section(&mut out, "STEP", &request.step);
    let previous = if request.previous_steps.is_empty() {
        "(none)".to_owned()
    } else {
        let mut list = String::new();
        for (i, step) in request.previous_steps.iter().enumerate() {
            // Writing to a String cannot fail.
            let _ = writeln!(list, "{}. {}", i + 1, step.trim());
        }
        list
    };
    section(&mut out, "PREVIOUS STEPS", &previous);
    section(&mut out, "PAGE SNAPSHOT", &request.page_snapshot);
    if request.screenshot.is_some() {
        line(&mut out, SCREENSHOT_ATTACHED);
    }
    section(&mut out, "PAGE API", &request.page_api);
    if let Some(instructions) = request
        .user_instructions
        .as_deref()
        .filter(|text| !text.trim().is_empty())
    {
        section(&mut out, "USER INSTRUCTIONS", instructions);
    }
    if let Some(failed) = &request.failed {
        section(&mut out, "CODE", &failed.code);
        section(&mut out, "ERROR", &failed.error);
    }
    finish(out)
}

/// The user message of a classification request: `STEP:`, `CODE:`, `ERROR:`, `PAGE SNAPSHOT:`,
/// then `SCREENSHOT: attached` when there is one.
pub fn render_classification_message(request: &ClassificationRequest) -> String {
    let mut out = String::new();
    section(&mut out, "STEP", &request.step);
    section(&mut out, "CODE", &request.code);
    section(&mut out, "ERROR", &request.error);
    section(&mut out, "PAGE SNAPSHOT", &request.page_snapshot);
    if request.screenshot.is_some() {
        line(&mut out, SCREENSHOT_ATTACHED);
    }
    finish(out)
}

/// `LABEL:` on a line of its own, the body (or `(empty)`), and a blank line.
fn section(out: &mut String, label: &str, body: &str) {
    let body = body.trim_matches('\n').trim_end();
    let body = if body.trim().is_empty() {
        "(empty)"
    } else {
        body
    };
    // Writing to a String cannot fail.
    let _ = write!(out, "{label}:\n{body}\n\n");
}

fn line(out: &mut String, text: &str) {
    let _ = write!(out, "{text}\n\n");
}

/// Ends the message with exactly one newline.
fn finish(mut out: String) -> String {
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::FailedAttempt;

    fn generation() -> GenerationRequest {
        GenerationRequest {
            system_prompt: "SYSTEM".into(),
            step: "add a todo \"milk\"".into(),
            previous_steps: vec!["open the app".into(), "clear the list".into()],
            page_snapshot: "- textbox \"What needs to be done?\" [ref=e5]\n".into(),
            screenshot: None,
            page_api: "page.goto(url)\npage.getByRole(role, options)".into(),
            user_instructions: None,
            failed: None,
        }
    }

    #[test]
    fn generation_first_attempt() {
        assert_eq!(
            render_generation_message(&generation()),
            "STEP:\n\
             add a todo \"milk\"\n\
             \n\
             PREVIOUS STEPS:\n\
             1. open the app\n\
             2. clear the list\n\
             \n\
             PAGE SNAPSHOT:\n\
             - textbox \"What needs to be done?\" [ref=e5]\n\
             \n\
             PAGE API:\n\
             page.goto(url)\n\
             page.getByRole(role, options)\n"
        );
    }

    #[test]
    fn generation_with_everything() {
        let request = GenerationRequest {
            previous_steps: vec![],
            screenshot: Some(vec![0x89, b'P', b'N', b'G']),
            user_instructions: Some("Prefer getByRole.\nNever use CSS selectors.".into()),
            failed: Some(FailedAttempt {
                code: "await page.getByText('Add').click();".into(),
                error: "TimeoutError: locator.click: Timeout 5000ms exceeded.".into(),
            }),
            ..generation()
        };
        assert_eq!(
            render_generation_message(&request),
            "STEP:\n\
             add a todo \"milk\"\n\
             \n\
             PREVIOUS STEPS:\n\
             (none)\n\
             \n\
             PAGE SNAPSHOT:\n\
             - textbox \"What needs to be done?\" [ref=e5]\n\
             \n\
             SCREENSHOT: attached\n\
             \n\
             PAGE API:\n\
             page.goto(url)\n\
             page.getByRole(role, options)\n\
             \n\
             USER INSTRUCTIONS:\n\
             Prefer getByRole.\n\
             Never use CSS selectors.\n\
             \n\
             CODE:\n\
             await page.getByText('Add').click();\n\
             \n\
             ERROR:\n\
             TimeoutError: locator.click: Timeout 5000ms exceeded.\n"
        );
    }

    #[test]
    fn blank_instructions_are_left_out_and_empty_sections_say_so() {
        for instructions in [None, Some(String::new()), Some("  \n ".into())] {
            let request = GenerationRequest {
                page_snapshot: String::new(),
                user_instructions: instructions,
                ..generation()
            };
            let text = render_generation_message(&request);
            assert!(!text.contains("USER INSTRUCTIONS"), "{text}");
            assert!(text.contains("PAGE SNAPSHOT:\n(empty)\n\n"), "{text}");
            assert!(!text.contains("SCREENSHOT"), "{text}");
        }
    }

    #[test]
    fn indentation_inside_a_section_is_kept() {
        let request = GenerationRequest {
            page_snapshot: "- list:\n  - listitem: milk\n".into(),
            ..generation()
        };
        assert!(
            render_generation_message(&request)
                .contains("PAGE SNAPSHOT:\n- list:\n  - listitem: milk\n\nPAGE API:")
        );
    }

    #[test]
    fn classification_sections_in_order() {
        let request = ClassificationRequest {
            system_prompt: "SYSTEM".into(),
            step: "the list shows 2 items".into(),
            code: "await expect(page.getByRole('listitem')).toHaveCount(2);".into(),
            error: "expected 2, received 3".into(),
            page_snapshot: "- list:\n  - listitem: a\n".into(),
            screenshot: Some(vec![1, 2, 3]),
        };
        assert_eq!(
            render_classification_message(&request),
            "STEP:\n\
             the list shows 2 items\n\
             \n\
             CODE:\n\
             await expect(page.getByRole('listitem')).toHaveCount(2);\n\
             \n\
             ERROR:\n\
             expected 2, received 3\n\
             \n\
             PAGE SNAPSHOT:\n\
             - list:\n  - listitem: a\n\
             \n\
             SCREENSHOT: attached\n"
        );
        let without = ClassificationRequest {
            screenshot: None,
            ..request
        };
        assert!(render_classification_message(&without).ends_with("  - listitem: a\n"));
    }
}
