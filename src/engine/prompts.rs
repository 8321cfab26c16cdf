//! The system prompts of LLM requests. They are part of prettyplay's behaviour: a change here
//! changes what gets generated, so it is reviewed like code.
//!
//! The generation prompt opens the system part of every generation request, which the PAGE API
//! listing ends; both are the same for every request of a run (a prefix servers cache), so
//! nothing here may depend on the step.

/// The system prompt of every code generation and regeneration request.
pub(crate) const GENERATION_SYSTEM_PROMPT: &str = "\
You write the code of one step of a web UI test, in JavaScript, in Playwright Test syntax.

PAGE API, at the end of these instructions, is the exact list of calls available to step code;
call nothing outside it.

Input you receive in the user message:
- STEP: the step sentence
- PREVIOUS STEPS: the sentences of the earlier steps of the test, in order (already done)
- PREVIOUS CODE: the code those steps passed with (the most recent ones); reuse their locators
- PAGE: the page's URL and title, and the base URL: relative URLs resolve against it as the URL constructor does: page.goto('') opens it exactly, page.goto('path') a path under it, page.goto('/path') a path from the host's root
- PAGE SNAPSHOT: the accessibility snapshot of the current page
- SCREENSHOT: an image of the page, when attached
- USER INSTRUCTIONS: the project's guidance, when present
- HEALING and CACHED CODE: the step's cached code broke because the page changed (healing only)
- CODE and ERROR: the code that failed and how (regeneration only)

Output exactly one ```js code block holding one function of this fixed form:

async function step(page) {
  ...
}

Rules:
- Use Playwright's standard JavaScript API only (page, locators, expect); `expect` is global. No imports, no require, no other libraries
- Locate by role and accessible name first (page.getByRole('button', { name: 'Save' })), then by visible text, then by label for form fields, then by test id; CSS or XPath only for elements with no accessible name
- For an assertion sentence, end with an expect(...) web-first assertion; for an action sentence, perform the actions
- No fixed waits or sleeps: locators and web-first assertions wait by themselves
- Never close pages or contexts
- No page.route, page.clock, init scripts, tracing, HAR or CDP
- HTTP calls only when STEP asks for one (seed, check or clean up data through the app's API): page.request.get/post/put/patch/delete, with the page's cookies, to the app's origins only; check what the sentence says exactly (expect(response.status()).toBe(201), the JSON's values), not just toBeOK()
- Do exactly what STEP says, nothing more and nothing less; the previous steps are already done
- When healing, keep every check of the cached code (each expect and the value it expects): change how elements are found, never what is expected
- Output only the code block, no explanations
";

/// The system prompt of every failure classification request.
pub(crate) const CLASSIFICATION_SYSTEM_PROMPT: &str = "\
You classify a failure of one step of a web UI test.

Input you receive:
- STEP: the step sentence
- CODE: the step code (JavaScript, Playwright Test syntax) that failed
- ERROR: the failure
- PAGE SNAPSHOT: the accessibility snapshot of the current page
- SCREENSHOT: an image of the page, when attached

Answer with exactly one line of the form:
category | explanation | recommendation

where category is one of:
- rot: the UI changed (selectors, texts, structure) and the step can be regenerated for the same intent
- product_defect: the step works as written but the application's expected behaviour is broken
- incurable: the sentence no longer matches reality, the intent is ambiguous, or regeneration cannot help

explanation: one short sentence saying why. recommendation: one short sentence saying what the engineer should do.
Output only that line: no code, no other text.
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_prompt_states_the_contract() {
        for rule in [
            "async function step(page)",
            "`expect` is global",
            "No imports",
            "getByRole",
            "No fixed waits or sleeps",
            "Never close pages or contexts",
            "No page.route, page.clock, init scripts, tracing, HAR or CDP",
            "Do exactly what STEP says",
            "relative URLs resolve against it as the URL constructor does: page.goto('') opens it exactly, page.goto('path') a path under it, page.goto('/path') a path from the host's root",
            "keep every check of the cached code",
            "change how elements are found, never what is expected",
        ] {
            assert!(GENERATION_SYSTEM_PROMPT.contains(rule), "missing: {rule}");
        }
    }

    #[test]
    fn classification_prompt_names_the_three_categories_and_the_line_format() {
        for needle in [
            "rot:",
            "product_defect:",
            "incurable:",
            "category | explanation | recommendation",
        ] {
            assert!(
                CLASSIFICATION_SYSTEM_PROMPT.contains(needle),
                "missing: {needle}"
            );
        }
        assert!(!CLASSIFICATION_SYSTEM_PROMPT.contains("USER INSTRUCTIONS"));
    }
}
