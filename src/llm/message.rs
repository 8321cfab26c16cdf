//! The text of each request: the system part of a generation request (its system prompt and the
//! PAGE API, the same bytes for every generation request of a run, so a server can cache them as
//! a prefix) and the user message of labelled sections in a fixed order, shared by both providers
//! (a screenshot travels as an image part).
//!
//! Main functions: [`render_generation_system`], [`render_generation_message`] and
//! [`render_classification_message`]. The format is documented in `docs/llm.md`.

use std::fmt::Write as _;

use super::{BuiltinTried, ClassificationRequest, GenerationRequest, PageFacts};

/// Marker written in the text when a screenshot travels as an image part.
const SCREENSHOT_ATTACHED: &str = "SCREENSHOT: attached";

/// How a relative `page.goto` resolves against the base URL (Playwright uses the URL
/// constructor, so `'/'` leaves a base URL's path).
const BASE_URL_RULE: &str = "relative URLs resolve against it as the URL constructor does: \
    page.goto('') opens it exactly, page.goto('path') a path under it, page.goto('/path') a path \
    from the host's root";

/// The HEALING section: what a regeneration of cached code must keep.
const HEALING_RULE: &str = "\
The cached code of this step passed before and fails now because the page changed (CACHED CODE, \
or CODE when there is no CACHED CODE). Write it anew for the page as it is now. Keep every check \
of it: each expect(...) and the value it expects. Change how elements are found, never what is \
expected.";

/// The system part of a generation request: the system prompt, then `PAGE API:` and the
/// listing. Nothing in it depends on the step, so it is identical for every generation request
/// of a run.
pub(crate) fn render_generation_system(request: &GenerationRequest) -> String {
    let mut out = String::new();
    out.push_str(request.system_prompt.trim_end());
    out.push_str("\n\n");
    section(&mut out, "PAGE API", &request.page_api);
    finish(out)
}

/// The user message of a generation request: `STEP:`, `VARIABLES:` and `STEP ARGUMENT:` (when
/// there are any), `PREVIOUS STEPS:` (numbered, or
/// `(none)`), `PREVIOUS CODE:` (when there are previous steps), `PAGE:` (URL, title, base URL),
/// `PAGE SNAPSHOT:`, `SCREENSHOT: attached` (when there is one), `USER INSTRUCTIONS:` (only when
/// given and not blank), `HEALING:` and `CACHED CODE:` (while healing; the latter only when it
/// differs from CODE), `BUILT-IN GENERATOR:` (when it was tried; its code only when it differs
/// from CODE), then `CODE:` and `ERROR:` of the failed attempt (only when there is one).
pub(crate) fn render_generation_message(request: &GenerationRequest) -> String {
    let mut out = String::new();
    section(&mut out, "STEP", &request.step);
    if !request.variables.is_empty() {
        section(&mut out, "VARIABLES", &variables(&request.variables));
    }
    if let Some(argument) = &request.step_argument {
        section(&mut out, "STEP ARGUMENT", argument);
    }
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
    if !request.previous_steps.is_empty() {
        section(&mut out, "PREVIOUS CODE", &previous_code(request));
    }
    section(&mut out, "PAGE", &page_facts(&request.page));
    section(&mut out, "PAGE SNAPSHOT", &request.page_snapshot);
    if request.screenshot.is_some() {
        line(&mut out, SCREENSHOT_ATTACHED);
    }
    if let Some(instructions) = request
        .user_instructions
        .as_deref()
        .filter(|text| !text.trim().is_empty())
    {
        section(&mut out, "USER INSTRUCTIONS", instructions);
    }
    if let Some(cached) = &request.healing {
        section(&mut out, "HEALING", HEALING_RULE);
        let shown_as_code = request
            .failed
            .as_ref()
            .is_some_and(|failed| failed.code.trim() == cached.trim());
        if !shown_as_code {
            section(&mut out, "CACHED CODE", cached);
        }
    }
    if let Some(tried) = &request.builtin {
        let code_shown = request
            .failed
            .as_ref()
            .zip(tried.code())
            .is_some_and(|(failed, code)| failed.code.trim() == code.trim());
        section(
            &mut out,
            "BUILT-IN GENERATOR",
            &builtin_tried(tried, code_shown),
        );
    }
    if let Some(failed) = &request.failed {
        section(&mut out, "CODE", &failed.code);
        section(&mut out, "ERROR", &failed.error);
    }
    finish(out)
}

/// The BUILT-IN GENERATOR body: what the built-in generator did with the step and why it did
/// not serve, then its code unless `code_shown` (it is the CODE section's).
fn builtin_tried(tried: &BuiltinTried, code_shown: bool) -> String {
    let (what, why) = match tried {
        BuiltinTried::Declined { reason } => {
            return format!(
                "The built-in generator was tried first and declined to write this step: \
                 {reason}"
            );
        }
        BuiltinTried::Failed(attempt) => (
            "The built-in generator was tried first; its code failed on the page",
            &attempt.error,
        ),
        BuiltinTried::Vacuous(attempt) => (
            "The built-in generator was tried first; its code passed, but its check cannot fail \
             (it also passes on a page that contradicts the step), so it was not kept",
            &attempt.error,
        ),
        BuiltinTried::Blocked(attempt) => (
            "The built-in generator was tried first; its code reached for an origin outside \
             [browser] allowed_origins and the guard blocked it. Keep to the app's origins",
            &attempt.error,
        ),
    };
    let mut out = format!("{what}:\n{}", why.trim_end());
    match tried.code() {
        Some(_) if code_shown => out.push_str("\nIts code is CODE below."),
        Some(code) => {
            // Writing to a String cannot fail.
            let _ = write!(out, "\nIts code:\n{}", code.trim_end());
        }
        None => {}
    }
    out
}

/// The VARIABLES body: how step code reads each placeholder, and that values never go into
/// code.
fn variables(placeholders: &[String]) -> String {
    let mut out = String::new();
    for placeholder in placeholders {
        let name = placeholder.trim_start_matches("${").trim_start_matches('<');
        let name = name.trim_end_matches('}').trim_end_matches('>');
        let _ = writeln!(out, "{placeholder}: read it as vars.{name}");
    }
    out.push_str(
        "Step code reads every placeholder of the step from the frozen `vars` object, e.g. \
         `await page.getByLabel('Password').fill(vars.PASSWORD)`. Never write a value itself \
         into the code: values differ between runs and secrets must not be stored.",
    );
    out
}

/// The PREVIOUS CODE body: each kept step's code under a `// N. sentence` line, in order, after
/// a line saying how many earlier steps the cap left out.
fn previous_code(request: &GenerationRequest) -> String {
    let mut out = String::new();
    match request.previous_code_left_out {
        0 => {}
        1 => out.push_str("// (the code of the first step is left out: over the size cap)\n\n"),
        n => {
            let _ = write!(
                out,
                "// (the code of the first {n} steps is left out: over the size cap)\n\n"
            );
        }
    }
    for step in &request.previous_code {
        let _ = write!(
            out,
            "// {}. {}\n{}\n\n",
            step.number,
            step.sentence.trim(),
            step.code.trim_end()
        );
    }
    out
}

/// The PAGE body: `URL:`, `Title:` and `Base URL:` lines.
fn page_facts(page: &PageFacts) -> String {
    let title = if page.title.trim().is_empty() {
        "(none)"
    } else {
        page.title.trim()
    };
    let base = match page
        .base_url
        .as_deref()
        .filter(|url| !url.trim().is_empty())
    {
        Some(url) => format!("{url} ({BASE_URL_RULE})"),
        None => "(none: page.goto needs an absolute URL)".to_owned(),
    };
    format!("URL: {}\nTitle: {title}\nBase URL: {base}", page.url)
}

/// The user message of a classification request: `STEP:`, `CODE:`, `ERROR:`, `PAGE SNAPSHOT:`,
/// then `SCREENSHOT: attached` when there is one.
pub(crate) fn render_classification_message(request: &ClassificationRequest) -> String {
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
    use crate::llm::{FailedAttempt, PreviousCode};

    fn generation() -> GenerationRequest {
        GenerationRequest {
            system_prompt: "SYSTEM\n".into(),
            page_api: "page.goto(url)\npage.getByRole(role, options)".into(),
            step: "add a todo \"milk\"".into(),
            variables: Vec::new(),
            step_argument: None,
            previous_steps: vec!["open the app".into(), "clear the list".into()],
            previous_code: vec![
                PreviousCode {
                    number: 1,
                    sentence: "open the app".into(),
                    code: "async function step(page) {\n  await page.goto('/');\n}\n".into(),
                },
                PreviousCode {
                    number: 2,
                    sentence: "clear the list".into(),
                    code: "async function step(page) {\n  await page.getByRole('button', { name: 'Clear' }).click();\n}".into(),
                },
            ],
            previous_code_left_out: 0,
            page: PageFacts {
                url: "http://127.0.0.1:4000/".into(),
                title: "Todos".into(),
                base_url: Some("http://127.0.0.1:4000".into()),
            },
            page_snapshot: "- textbox \"What needs to be done?\"\n".into(),
            screenshot: None,
            user_instructions: None,
            healing: None,
            builtin: None,
            failed: None,
            deadline: None,
        }
    }

    #[test]
    fn the_system_part_is_the_prompt_then_the_page_api_and_nothing_else() {
        let request = generation();
        assert_eq!(
            render_generation_system(&request),
            "SYSTEM\n\nPAGE API:\npage.goto(url)\npage.getByRole(role, options)\n"
        );
        // Nothing that varies from step to step reaches it.
        let other = GenerationRequest {
            step: "another step".into(),
            previous_steps: vec![],
            previous_code: vec![],
            page_snapshot: "- heading \"x\"".into(),
            user_instructions: Some("be brief".into()),
            healing: Some("old code".into()),
            builtin: Some(BuiltinTried::Declined {
                reason: "it reads no field".into(),
            }),
            failed: Some(FailedAttempt {
                code: "x".into(),
                error: "y".into(),
            }),
            ..generation()
        };
        assert_eq!(
            render_generation_system(&other),
            render_generation_system(&request)
        );
        assert!(!render_generation_message(&request).contains("PAGE API"));
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
             PREVIOUS CODE:\n\
             // 1. open the app\n\
             async function step(page) {\n  await page.goto('/');\n}\n\
             \n\
             // 2. clear the list\n\
             async function step(page) {\n  await page.getByRole('button', { name: 'Clear' }).click();\n}\n\
             \n\
             PAGE:\n\
             URL: http://127.0.0.1:4000/\n\
             Title: Todos\n\
             Base URL: http://127.0.0.1:4000 (relative URLs resolve against it as the URL constructor does: page.goto('') opens it exactly, page.goto('path') a path under it, page.goto('/path') a path from the host's root)\n\
             \n\
             PAGE SNAPSHOT:\n\
             - textbox \"What needs to be done?\"\n"
        );
    }

    #[test]
    fn generation_with_everything() {
        let request = GenerationRequest {
            previous_steps: vec![],
            previous_code: vec![],
            page: PageFacts {
                url: "about:blank".into(),
                title: String::new(),
                base_url: None,
            },
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
             PAGE:\n\
             URL: about:blank\n\
             Title: (none)\n\
             Base URL: (none: page.goto needs an absolute URL)\n\
             \n\
             PAGE SNAPSHOT:\n\
             - textbox \"What needs to be done?\"\n\
             \n\
             SCREENSHOT: attached\n\
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
    fn previous_code_left_out_by_the_cap_is_said() {
        for (left_out, marker) in [
            (
                1,
                "// (the code of the first step is left out: over the size cap)\n\n// 2.",
            ),
            (
                3,
                "// (the code of the first 3 steps is left out: over the size cap)\n\n// 2.",
            ),
        ] {
            let request = GenerationRequest {
                previous_code: generation().previous_code[1..].to_vec(),
                previous_code_left_out: left_out,
                ..generation()
            };
            let text = render_generation_message(&request);
            assert!(
                text.contains(&format!("PREVIOUS CODE:\n{marker}")),
                "{text}"
            );
            assert!(!text.contains("// 1. open the app"), "{text}");
        }
    }

    #[test]
    fn healing_says_to_keep_every_check_and_shows_the_cached_code_once() {
        let cached = "async function step(page) {\n  await expect(page.getByText('1 item left')).toBeVisible();\n}";
        let failed = FailedAttempt {
            code: cached.into(),
            error: "Timeout".into(),
        };
        let first = GenerationRequest {
            healing: Some(cached.into()),
            failed: Some(failed.clone()),
            ..generation()
        };
        let text = render_generation_message(&first);
        let healing = text.find("HEALING:\n").expect("a HEALING section");
        let rule = &text[healing..];
        for needle in [
            "Keep every check of it",
            "Change how elements are found, never what is expected.",
        ] {
            assert!(rule.contains(needle), "{text}");
        }
        assert!(
            !text.contains("CACHED CODE:"),
            "CODE is the cached code: {text}"
        );
        assert!(healing < text.find("\n\nCODE:\n").expect("CODE"), "{text}");
        // A later attempt: CODE is the regenerated candidate; the cached code is still shown.
        let later = GenerationRequest {
            failed: Some(FailedAttempt {
                code: "async function step(page) {}".into(),
                ..failed
            }),
            ..first
        };
        let text = render_generation_message(&later);
        assert!(
            text.contains(&format!("CACHED CODE:\n{cached}\n\nCODE:\n")),
            "{text}"
        );
        // Not healing: no HEALING section.
        assert!(!render_generation_message(&generation()).contains("HEALING"));
    }

    #[test]
    fn what_the_built_in_generator_tried_comes_before_code_and_says_why_it_did_not_serve() {
        let builtin_code = "async function step(page) {\n  await page.getByText('x').click();\n}";
        let attempt = FailedAttempt {
            code: builtin_code.into(),
            error: "locator.click: Timeout".into(),
        };
        let declined = GenerationRequest {
            builtin: Some(BuiltinTried::Declined {
                reason: "the words \"quickly\" were not read".into(),
            }),
            ..generation()
        };
        assert!(
            render_generation_message(&declined).ends_with(
                "PAGE SNAPSHOT:\n- textbox \"What needs to be done?\"\n\nBUILT-IN GENERATOR:\n\
                 The built-in generator was tried first and declined to write this step: the \
                 words \"quickly\" were not read\n"
            ),
            "{}",
            render_generation_message(&declined)
        );
        // Its code is the failed attempt's CODE (the first request): shown once.
        for (tried, what) in [
            (
                BuiltinTried::Failed(attempt.clone()),
                "its code failed on the page",
            ),
            (
                BuiltinTried::Vacuous(attempt.clone()),
                "its code passed, but its check cannot fail (it also passes on a page that \
                 contradicts the step), so it was not kept",
            ),
            (
                BuiltinTried::Blocked(attempt.clone()),
                "its code reached for an origin outside [browser] allowed_origins and the guard \
                 blocked it. Keep to the app's origins",
            ),
        ] {
            let first = GenerationRequest {
                builtin: Some(tried.clone()),
                failed: Some(attempt.clone()),
                ..generation()
            };
            let text = render_generation_message(&first);
            assert!(
                text.ends_with(&format!(
                    "BUILT-IN GENERATOR:\nThe built-in generator was tried first; {what}:\n\
                     locator.click: Timeout\nIts code is CODE below.\n\nCODE:\n{builtin_code}\n\n\
                     ERROR:\nlocator.click: Timeout\n"
                )),
                "{text}"
            );
            assert_eq!(text.matches(builtin_code).count(), 1, "{text}");
            // A later request: CODE is another candidate, so its code is shown in the section.
            let later = GenerationRequest {
                failed: Some(FailedAttempt {
                    code: "async function step(page) {}".into(),
                    error: "no".into(),
                }),
                ..first
            };
            let text = render_generation_message(&later);
            assert!(
                text.contains(&format!(
                    "{what}:\nlocator.click: Timeout\nIts code:\n{builtin_code}\n\nCODE:\n\
                     async function step(page) {{}}\n"
                )),
                "{text}"
            );
        }
        // While healing, it comes after HEALING.
        let healing = GenerationRequest {
            healing: Some("old".into()),
            ..declined
        };
        let text = render_generation_message(&healing);
        assert!(
            text.find("HEALING:").unwrap() < text.find("BUILT-IN GENERATOR:").unwrap(),
            "{text}"
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
            assert!(text.ends_with("PAGE SNAPSHOT:\n(empty)\n"), "{text}");
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
                .ends_with("PAGE SNAPSHOT:\n- list:\n  - listitem: milk\n")
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
            deadline: None,
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
