//! Why the code of a check sentence is no check, read from its source: a check reads the page
//! and asserts what it read. Code that clicks, types or navigates before it asserts can make
//! true what it checks (it adds the todo it then finds); code whose assertions compare values
//! it wrote itself, or a read it rewrote, computes its answer; code that declares its own
//! `page` or `expect` may read nothing at all; and code that asserts nothing (it only reads)
//! cannot fail on a wrong value. A wait for a locator (`waitFor()`) is a check the mutation
//! proof tries like an assertion; a wait whose condition runs in the page (`waitForFunction`)
//! is one the proof cannot run, so it is no check on its own. Generation, healing and `prettyplay audit` refuse
//! such code for a sentence that reads as a check, as they refuse one that sends a writing
//! request.
//!
//! Main type: [`NotARead`], found by [`NotARead::of`].

use std::fmt;

use crate::engine::checks::{Checks, Origin};
use crate::script::refused_in_proof;

/// Why the code of a check sentence is no check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NotARead {
    /// It calls this method, which changes the page, before its last check.
    Acts(String),
    /// It declares or assigns its own `page`.
    RebindsPage,
    /// It declares or assigns its own `expect`.
    RebindsExpect,
    /// Every assertion compares values of the code's own, or a read it transformed (the
    /// first such origin).
    Computes(Origin),
    /// It has no assertion, no `throw` that always runs and no wait for the page.
    AssertsNothing,
    /// It has no assertion and no `throw`, and one of its waits runs its condition in the page
    /// (`waitForFunction`), which a proof run may not run again and whose reads it cannot see.
    WaitsInThePage(String),
}

impl NotARead {
    /// The first reason `checks` (of a check sentence's code) are no check, in the order of
    /// the variants; `None` for code that reads and asserts.
    pub(crate) fn of(checks: &Checks) -> Option<NotARead> {
        if let Some(call) = &checks.acts_before_check {
            return Some(NotARead::Acts(call.clone()));
        }
        if checks.rebinds_page {
            return Some(NotARead::RebindsPage);
        }
        if checks.rebinds_expect {
            return Some(NotARead::RebindsExpect);
        }
        if checks.assertions.is_empty() && checks.throws == 0 {
            // A wait for the page checks too, and the proof tries it like an assertion. A
            // wait whose condition is a page script the code does not show to only read is
            // one the proof cannot run, and since the proof does not run code that calls it,
            // no wait beside it is tried either.
            let unseen = |w: &&String| refused_in_proof(w) && checks.opaque_scripts > 0;
            return match checks.waits.iter().find(unseen) {
                _ if checks.waits.is_empty() => Some(NotARead::AssertsNothing),
                Some(wait) => Some(NotARead::WaitsInThePage(wait.clone())),
                None => None,
            };
        }
        if checks.throws == 0
            && let Some(computed) = checks
                .assertions
                .iter()
                .map(|a| &a.origin)
                .find(|origin| **origin != Origin::Page)
            && checks.assertions.iter().all(|a| a.origin != Origin::Page)
        {
            return Some(NotARead::Computes(computed.clone()));
        }
        None
    }
}

impl fmt::Display for NotARead {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotARead::Acts(call) => write!(
                f,
                "it calls `{call}` before it checks, which can make true what it checks; a check \
                 only reads the page (do the action in a step of its own)"
            ),
            NotARead::RebindsPage => f.write_str(
                "it declares its own `page`, so what it checks may not be the browser's page",
            ),
            NotARead::RebindsExpect => {
                f.write_str("it declares its own `expect`, so its assertions may check nothing")
            }
            NotARead::Computes(origin) => write!(
                f,
                "{}, so it passes whatever the page shows",
                origin_text(origin)
            ),
            NotARead::AssertsNothing => f.write_str(
                "it asserts nothing: a read passes on whatever it finds; a check asserts with \
                 `expect(...)`",
            ),
            NotARead::WaitsInThePage(wait) => write!(
                f,
                "it checks with `{wait}`, whose condition runs in the page where the mutation \
                 proof cannot see what it reads; a check asserts with `expect(...)` or waits \
                 for a locator (`waitFor()`)"
            ),
        }
    }
}

/// What an assertion of this origin compares, in words.
pub(crate) fn origin_text(origin: &Origin) -> String {
    match origin {
        Origin::Page => "it compares what it read from the page".to_owned(),
        Origin::Written => "it compares values the code wrote itself, not the page's".to_owned(),
        Origin::Transformed(how) => {
            format!("it changes the text it read ({how}) before comparing it with a literal")
        }
    }
}

#[cfg(test)]
mod tests {
    //! One test per shape of code that is no check, and the reads that are.

    use super::*;

    fn step(body: &str) -> String {
        format!("async function step(page) {{\n  {body}\n}}")
    }

    fn why(body: &str) -> Option<NotARead> {
        NotARead::of(&Checks::of(&step(body)).unwrap())
    }

    fn computed(body: &str) -> Origin {
        match why(body) {
            Some(NotARead::Computes(origin)) => origin,
            other => panic!("{body}: {other:?}"),
        }
    }

    #[test]
    fn code_that_acts_before_it_checks_is_no_check() {
        for (body, call) in [
            (
                "const field = page.getByPlaceholder('What needs to be done?');\n  await field.fill('buy milk');\n  await field.press('Enter');\n  await expect(page.getByText('buy milk', { exact: true })).toBeVisible();",
                "fill",
            ),
            (
                "await page.getByRole('button', { name: 'Show' }).click();\n  await expect(page.getByText('Paid')).toBeVisible();",
                "click",
            ),
            (
                "await page.goto('/done');\n  await expect(page.getByText('Paid')).toBeVisible();",
                "goto",
            ),
            (
                "await page.keyboard.type('x');\n  if ((await page.title()) !== 'x') throw new Error('no');",
                "type",
            ),
        ] {
            assert_eq!(why(body), Some(NotARead::Acts(call.to_owned())), "{body}");
        }
        // A page script that writes acts; one that reads does not.
        for body in [
            "await page.evaluate(() => { document.querySelector('.count').textContent = '1 item left'; });\n  await expect(page.getByText('1 item left')).toBeVisible();",
            "await page.locator('.banner').evaluate((e) => e.remove());\n  await expect(page.getByText('Paid')).toBeVisible();",
        ] {
            assert!(matches!(why(body), Some(NotARead::Acts(_))), "{body}");
        }
        assert_eq!(
            why(
                "const valid = await page.locator('#age').evaluate((e) => e.validity.valid);\n  expect(valid).toBe(false);"
            ),
            None
        );
        // A page script given as a string is read as a function's body would be.
        for body in [
            "await page.evaluate(\"document.querySelector('.count').textContent = '1 item left'\");\n  await expect(page.getByText('1 item left')).toBeVisible();",
            "await page.evaluate('document.querySelector(\".banner\").remove()');\n  await expect(page.getByText('Paid')).toBeVisible();",
            "await page.evaluate(`localStorage.setItem('paid', '1')`);\n  await expect(page.getByText('Paid')).toBeVisible();",
            "await page.locator('.count').evaluate('(e) => { e.textContent = \"1 item left\"; }');\n  await expect(page.getByText('1 item left')).toBeVisible();",
            "await page.$eval('.count', 'e => e.remove()');\n  await expect(page.getByText('Paid')).toBeVisible();",
            "await page.waitForFunction('(document.title = \"x\") && true');\n  await expect(page).toHaveTitle('x');",
        ] {
            assert!(matches!(why(body), Some(NotARead::Acts(_))), "{body}");
        }
        for body in [
            "const title = await page.evaluate('document.title');\n  expect(title).toBe('Todos');",
            "const n = await page.evaluate(`document.querySelectorAll('li').length`);\n  expect(n).toBe(2);",
        ] {
            assert_eq!(why(body), None, "{body}");
        }
        // An action after the last check cannot have made it true.
        assert_eq!(
            why(
                "await expect(page.getByText('Paid')).toBeVisible();\n  await page.getByText('Close').click();"
            ),
            None
        );
    }

    #[test]
    fn reads_that_assert_are_checks() {
        for body in [
            "await expect(page.getByTestId('todo-count')).toHaveText('1 item left');",
            "expect(await page.getByTestId('todo-count').textContent()).toBe('1 item left');",
            "const text = await page.getByTestId('todo-count').textContent();\n  expect(text.trim()).toBe('1 item left');",
            "const texts = await page.getByRole('listitem').allTextContents();\n  expect(texts.map((t) => t.trim())).toEqual(['a', 'b']);",
            "expect('1 item left').toBe(await page.getByTestId('todo-count').textContent());",
            "const n = await page.getByRole('listitem').count();\n  expect(n).toBe(2);",
            "let found = false;\n  for (const row of await page.getByRole('row').all()) { if (await row.isVisible()) found = true; }\n  expect(found).toBe(true);",
            "await expect.poll(async () => page.getByRole('row').count()).toBe(3);",
            "const text = (await page.title()).toLowerCase();\n  expect(text).toContain(vars.NAME);",
        ] {
            assert_eq!(why(body), None, "{body}");
        }
    }

    #[test]
    fn values_the_code_wrote_are_no_check() {
        for body in [
            "expect(String('1 item left')).toBe('1 item left');",
            "const count = 1;\n  expect(`${count} item left`).toBe('1 item left');",
            "expect(['1', 'item', 'left'].join(' ')).toBe('1 item left');",
            "const text = await page.getByTestId('todo-count').textContent();\n  expect('1 item left').toBe('1 item left');",
            "let t = await page.title();\n  t = 'Todos';\n  expect(t).toBe('Todos');",
        ] {
            assert_eq!(computed(body), Origin::Written, "{body}");
        }
    }

    #[test]
    fn a_read_the_code_rewrote_before_comparing_is_no_check() {
        for (body, how) in [
            (
                "const text = await page.getByTestId('todo-count').textContent();\n  expect(text.replace('items', 'item')).toBe('1 item left');",
                "`.replace`",
            ),
            (
                "const text = await page.getByTestId('todo-count').textContent();\n  expect(`${text.slice(0, 1)} item left`).toBe('1 item left');",
                "`.slice`",
            ),
            (
                "expect((await page.title()).toLowerCase()).toBe('todos');",
                "`.toLowerCase`",
            ),
            (
                "const n = await page.getByTestId('todo-count').getAttribute('data-n');\n  expect(`${n} item left`).toBe('1 item left');",
                "a template",
            ),
            (
                "const n = await page.getByTestId('n').textContent();\n  expect(n + ' item left').toBe('1 item left');",
                "a concatenation",
            ),
        ] {
            assert_eq!(
                computed(body),
                Origin::Transformed(how.to_owned()),
                "{body}"
            );
        }
    }

    #[test]
    fn a_local_page_or_expect_is_no_check() {
        let trims = "async function step(browserPage) {\n  const page = {\n    getByText: (text, options) => browserPage.getByText(text.slice(0, 6)),\n  };\n  await expect(page.getByText('1 item left', { exact: true })).toBeVisible();\n}";
        assert_eq!(
            NotARead::of(&Checks::of(trims).unwrap()),
            Some(NotARead::RebindsPage)
        );
        assert_eq!(
            why(
                "page = page.frameLocator('#f');\n  await expect(page.getByText('x')).toBeVisible();"
            ),
            Some(NotARead::RebindsPage)
        );
        assert_eq!(
            why(
                "const expect = () => ({ toBeVisible() {} });\n  await expect(page.getByText('x')).toBeVisible();"
            ),
            Some(NotARead::RebindsExpect)
        );
        // A parameter named `page` (of a helper, of a listener) is no page of the code's own.
        assert_eq!(
            why(
                "page.on('popup', async (page) => { await page.close(); });\n  await expect(page.getByText('x')).toBeVisible();"
            ),
            None
        );
        // The step's parameter may have any name, `page` included.
        let named = "async function step(p) {\n  await expect(p.getByText('x')).toBeVisible();\n}";
        assert_eq!(NotARead::of(&Checks::of(named).unwrap()), None);
    }

    #[test]
    fn reads_that_assert_nothing_are_no_check() {
        for body in [
            "await page.getByTestId('todo-count').textContent();",
            "const shown = await page.getByText('2 items left').isVisible();",
            "if (await page.getByText('2 items left').isVisible()) return;",
            // A wait that may not run, or whose failure is caught, fails nothing.
            "try { await page.getByText('2 items left').waitFor(); } catch (e) {}",
            "await page.getByText('2 items left').waitFor().catch(() => {});",
            "if (await page.title()) await page.getByText('2 items left').waitFor();",
            "page.getByText('2 items left').waitFor();",
        ] {
            assert_eq!(why(body), Some(NotARead::AssertsNothing), "{body}");
        }
    }

    #[test]
    fn a_wait_for_a_locator_is_a_check_the_proof_tries() {
        for body in [
            "await page.getByText('2 items left').waitFor();",
            "await page.getByText('2 items left', { exact: true }).waitFor({ state: 'visible' });",
            "const count = page.getByTestId('todo-count');\n  await count.waitFor();",
        ] {
            assert_eq!(why(body), None, "{body}");
            let checks = Checks::of(&step(body)).unwrap();
            assert_eq!(checks.waits, ["waitFor"], "{body}");
        }
        // A read in a condition that decides a throw or an assertion checks as they do.
        for body in [
            "if (!(await page.getByText('Paid').isVisible())) throw new Error('not paid');",
            "if (await page.getByText('Paid').isVisible()) {\n    await expect(page.getByText('Paid')).toHaveText('Paid');\n  }",
        ] {
            assert_eq!(why(body), None, "{body}");
        }
    }

    #[test]
    fn a_wait_whose_condition_only_reads_is_a_check_the_proof_tries() {
        for body in [
            "await page.waitForFunction(() => document.body.innerText.includes('2 items left'));",
            "await page.waitForFunction(\"document.querySelector('.count').textContent === '2 items left'\");",
            "await page.waitForFunction(() => document.body.innerText.includes('2 items left'));\n  await page.locator('body').waitFor();",
        ] {
            assert_eq!(why(body), None, "{body}");
        }
    }

    #[test]
    fn a_wait_whose_condition_the_code_does_not_show_to_read_is_no_check_the_proof_can_try() {
        // A condition passed by name, or one that calls what may act, is not shown to read.
        for body in [
            "const ready = () => document.body.innerText.includes('2 items left');\n  await page.waitForFunction(ready);",
            "await page.waitForFunction(() => navigator.sendBeacon('/seen', 'x'));",
        ] {
            assert_eq!(
                why(body),
                Some(NotARead::WaitsInThePage("waitForFunction".into())),
                "{body}"
            );
        }
        // The proof does not run code that calls it, so a wait for a locator beside it is
        // not tried either.
        assert_eq!(
            why(
                "const ready = () => document.body.innerText.includes('2 items left');\n  await page.waitForFunction(ready);\n  await page.locator('body').waitFor();"
            ),
            Some(NotARead::WaitsInThePage("waitForFunction".into()))
        );
        // A page script that writes before the wait acts.
        assert!(matches!(
            why(
                "await page.evaluate(() => { document.querySelector('.count').textContent = '2 items left'; });\n  await page.getByText('2 items left', { exact: true }).waitFor();"
            ),
            Some(NotARead::Acts(_))
        ));
        assert!(matches!(
            why(
                "await page.getByRole('button').click();\n  await page.getByText('Paid').waitFor();"
            ),
            Some(NotARead::Acts(_))
        ));
    }
}
