//! What step code checks, read with a real JavaScript parser (oxc): every assertion
//! (`expect(...)` matcher calls, `expect.soft`, `expect.poll`, `toPass`) with its matcher,
//! negation, subject, expected values and options, and whether anything keeps it from failing the
//! step (`try`/`catch`, `.catch(...)`, no `await`, a condition, a callback, an earlier `return`);
//! the `throw` statements; the string literals; and what tampers with the runtime.
//!
//! Main type: [`Checks`], made by [`Checks::of`] (in `check_reader.rs`, which walks the AST). The
//! heal veto (`veto.rs`) compares the checks of cached code with those of its healed replacement.

pub(crate) use crate::engine::subject_origin::Origin;

/// An expected value of an assertion, as written.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Str(String),
    Number(f64),
    Regex {
        pattern: String,
        flags: String,
    },
    List(Vec<Value>),
    /// Anything else (a variable, `vars.NAME`, a call), as its source text without whitespace.
    Expression(String),
}

impl Value {
    /// The value as it reads in code.
    pub(crate) fn shown(&self) -> String {
        match self {
            Value::Str(s) => format!("{s:?}"),
            Value::Number(n) => n.to_string(),
            Value::Regex { pattern, flags } => format!("/{pattern}/{flags}"),
            Value::List(items) => format!(
                "[{}]",
                items
                    .iter()
                    .map(Value::shown)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Value::Expression(text) => text.clone(),
        }
    }
}

/// What keeps an assertion from failing the step when it does not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Escapes {
    /// Inside the `try` block of a `try`/`catch`.
    pub in_try: bool,
    /// Its promise is chained to `.catch(...)` or to `.then(..., onRejected)`.
    pub caught: bool,
    /// It runs only sometimes: inside an `if`, `?:`, the right side of `&&`/`||`/`??`, a loop, a
    /// `switch` case, a `catch` clause, a callback, or after a `return`.
    pub conditional: bool,
    /// `expect.soft(...)`: it records a failure without failing the step.
    pub soft: bool,
    /// A promise-returning assertion that is neither awaited, returned nor awaited through
    /// `Promise.all([...])`: its failure is never observed.
    pub unawaited: bool,
}

/// A text the locator of an assertion's subject matches elements by: `getByText(v)`,
/// `getByRole(r, { name: v })`, `filter({ hasText: v })`, a selector such as `text=v`. For a
/// check such as `toBeVisible()` this text is what the check reads, not just how it finds an
/// element.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LocatorText {
    /// The locator method that takes the text (`getByText`, `filter`, `locator`, ...).
    pub method: String,
    pub value: Value,
    /// `{ exact: true }` was given: the whole text must equal it.
    pub exact: bool,
}

/// One assertion: a matcher called on `expect(...)`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Assertion {
    /// The matcher: `toHaveText`, `toBeVisible`, `toPass`, ...
    pub matcher: String,
    /// `.not` was applied (an odd number of times).
    pub negated: bool,
    /// `expect.poll(...)`.
    pub poll: bool,
    /// The matcher's arguments other than a trailing options object.
    pub expected: Vec<Value>,
    /// What `expect(...)` is given, as written (whitespace removed).
    pub subject: Value,
    /// The texts the subject's locator matches by, in source order.
    pub locator_texts: Vec<LocatorText>,
    /// `timeout` from the matcher's options or `expect(..., { timeout })`, in milliseconds.
    pub timeout: Option<f64>,
    /// The other options, as source text without whitespace (`{ignoreCase:true}`), if any.
    pub options: Option<String>,
    pub escapes: Escapes,
    /// Where the value it compares comes from: the page, or the code itself (written, or a
    /// read the code changed before comparing it with a literal).
    pub origin: Origin,
    /// The assertion as written (whitespace collapsed), for messages.
    pub text: String,
}

/// What a piece of step code checks.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Checks {
    /// In source order.
    pub assertions: Vec<Assertion>,
    /// `throw` statements that always run (not in a callback or a caught `try`): checks written
    /// by hand, `if (...) throw ...`.
    pub throws: usize,
    /// Waits for the page (`locator.waitFor()`, `page.waitForFunction(...)`) that always run
    /// and are awaited, so that a wait that never ends fails the step: checks too, by the
    /// name of the method, in source order.
    pub waits: Vec<String>,
    /// Every string the code writes (string literals and template literal parts).
    pub strings: Vec<String>,
    /// The code declares or assigns something named `expect`.
    pub rebinds_expect: bool,
    /// The code declares or assigns a `page` of its own (a local object named `page`; a
    /// function's parameter is none): its checks may not read the browser's page.
    pub rebinds_page: bool,
    /// The first method the code calls that changes the page ([`changes_the_page`]: a click,
    /// typing, a navigation), when it comes before the code's last check (an assertion or a
    /// `throw` that always runs): such code can make true what it checks.
    ///
    /// [`changes_the_page`]: crate::script::changes_the_page
    pub acts_before_check: Option<String>,
    /// Calls that run JavaScript in the page ([`PAGE_SCRIPTS`]), or navigations to `data:` /
    /// `javascript:` URLs (a page made up by the code).
    pub page_scripts: usize,
    /// Of those, the calls whose script the code does not show to only read (see
    /// `script/page_reads.rs`): a script passed by name or built at run time, or one that
    /// writes, acts or sends. A proof runs code whose page scripts all only read.
    pub opaque_scripts: usize,
    /// Replacing methods of globals or prototypes (`Object.defineProperty`, `X.prototype.y = `,
    /// `page.getByTestId = `, `Reflect.*`), or running code from strings (`eval`, `Function`,
    /// `with`).
    pub patches: usize,
    /// `step` is defined more than once or reassigned: which one runs is not the one read.
    pub redefines_step: bool,
    /// The names of the methods the code calls on an object (`x.click()`, `x?.["click"]()`),
    /// in source order: what the mutation proof looks for an action in.
    pub calls: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_http_steps_with_quotes_and_backticks_are_read_without_tampering() {
        for sentence in [
            "send POST /api/x with {\"a\": \"`\"}",
            "send POST /api/x with {\"a\": \"${A}`; alert(1); `\"}",
            "GET /api/x');alert(1);(' answers 200",
            "the API /api/x lists \"');alert(1);('\"",
        ] {
            let code = crate::writer::write_step(sentence, &[], "", "")
                .unwrap_or_else(|why| panic!("{sentence:?}: {}", why.0));
            let checks = Checks::of(&code).unwrap_or_else(|e| panic!("{e}: {code}"));
            assert_eq!(checks.patches, 0, "{code}");
        }
    }

    fn checks(code: &str) -> Checks {
        Checks::of(code).unwrap()
    }

    fn only(code: &str) -> Assertion {
        let mut checks = checks(code);
        assert_eq!(
            checks.assertions.len(),
            1,
            "{code}: {:#?}",
            checks.assertions
        );
        checks.assertions.remove(0)
    }

    #[test]
    fn a_web_first_assertion_is_read_with_its_matcher_values_and_options() {
        let a = only(
            "async function step(page) {\n  await expect(page.getByTestId('todo-count'))\n    .not.toHaveText('1 item left', { timeout: 7000, useInnerText: true });\n}",
        );
        assert_eq!(a.matcher, "toHaveText");
        assert!(a.negated);
        assert!(!a.poll);
        assert_eq!(a.expected, [Value::Str("1 item left".into())]);
        assert_eq!(a.timeout, Some(7000.0));
        assert_eq!(a.options.as_deref(), Some("{useInnerText:true}"));
        assert_eq!(a.escapes, Escapes::default());
        assert!(
            a.text
                .starts_with("expect(page.getByTestId('todo-count')) .not.toHaveText(")
        );
    }

    #[test]
    fn values_are_read_as_written() {
        let a = only(
            "async function step(page) { expect(x).toEqual([1, -2, 'a', /b+/i, `c`, vars.X]); }",
        );
        assert_eq!(
            a.expected,
            [Value::List(vec![
                Value::Number(1.0),
                Value::Number(-2.0),
                Value::Str("a".into()),
                Value::Regex {
                    pattern: "b+".into(),
                    flags: "i".into()
                },
                Value::Str("c".into()),
                Value::Expression("vars.X".into()),
            ])]
        );
        let object = only("async function step(page) { expect(x).toEqual({ a: 1 }); }");
        assert_eq!(object.expected, [Value::Expression("{a:1}".into())]);
        assert_eq!(object.options, None);
    }

    #[test]
    fn poll_soft_to_pass_and_resolves_are_assertions() {
        let code = "async function step(page) {
          await expect.poll(async () => page.url(), { timeout: 3000 }).toContain('/done');
          await expect.soft(page.getByText('Saved')).toBeVisible();
          await expect(async () => { await expect(page.getByRole('row')).toHaveCount(3); }).toPass();
          await expect(Promise.resolve(1)).resolves.toBe(1);
          expect(page.getByText('x'));
        }";
        let checks = checks(code);
        let matchers: Vec<(&str, bool, bool)> = checks
            .assertions
            .iter()
            .map(|a| (a.matcher.as_str(), a.poll, a.escapes.soft))
            .collect();
        assert_eq!(
            matchers,
            [
                ("toContain", true, false),
                ("toBeVisible", false, true),
                ("toPass", false, false),
                ("toHaveCount", false, false),
                ("toBe", false, false),
            ]
        );
        assert_eq!(checks.assertions[0].timeout, Some(3000.0));
        assert!(
            !checks.assertions[3].escapes.conditional,
            "a toPass body runs: it is not a callback that may not"
        );
    }

    #[test]
    fn what_keeps_an_assertion_from_failing_is_seen() {
        let code = "async function step(page) {
          try { await expect(a).toHaveText('x'); } catch (e) {}
          try { await expect(a).toHaveText('x'); } finally {}
          await expect(a).toHaveText('x').catch(() => {});
          await (expect(a).toHaveText('x')).then(() => {}, () => {});
          if (await a.isVisible()) await expect(a).toHaveText('x');
          (await a.count()) > 0 && (await expect(a).toHaveText('x'));
          for (const row of rows) { await expect(row).toBeVisible(); }
          page.on('dialog', async (d) => { await expect(a).toHaveText('x'); });
          await expect(a).toHaveText('x');
          return;
          await expect(a).toHaveText('x');
        }";
        let escapes: Vec<Escapes> = checks(code).assertions.iter().map(|a| a.escapes).collect();
        let plain = Escapes::default();
        let conditional = Escapes {
            conditional: true,
            ..plain
        };
        assert_eq!(
            escapes,
            [
                Escapes {
                    in_try: true,
                    ..plain
                },
                plain,
                Escapes {
                    caught: true,
                    unawaited: true,
                    ..plain
                },
                Escapes {
                    caught: true,
                    unawaited: true,
                    ..plain
                },
                conditional,
                conditional,
                conditional,
                conditional,
                plain,
                conditional,
            ]
        );
    }

    #[test]
    fn an_assertion_in_the_skipped_part_of_an_optional_chain_is_conditional() {
        for code in [
            "const n = null; await n?.f(await expect(page.locator('#t')).toHaveText('goodbye'));",
            "await a?.b(expect(page.locator('#t')).toHaveText('goodbye'));",
            "a?.[await expect(page.locator('#t')).toHaveText('goodbye')];",
            "await x?.y.z(await expect(page.locator('#t')).toHaveText('goodbye'));",
            "await f?.(await expect(page.locator('#t')).toHaveText('goodbye'));",
            "await a.b?.c.d(1)(await expect(page.locator('#t')).toHaveText('goodbye'));",
            "await expect(page.locator('#t'))?.toHaveText('goodbye');",
        ] {
            let a = only(&format!("async function step(page) {{ {code} }}"));
            assert!(a.escapes.conditional, "{code}: {:?}", a.escapes);
        }
        // The part before the first `?.` always runs.
        for code in [
            "(await expect(page.locator('#t')).toHaveText('goodbye'))?.x;",
            "await expect(page.locator('#t')?.first()).toHaveText('goodbye');",
        ] {
            let a = only(&format!("async function step(page) {{ {code} }}"));
            assert!(!a.escapes.conditional, "{code}: {:?}", a.escapes);
        }
    }

    #[test]
    fn assertions_that_other_code_may_skip_or_never_run_are_conditional() {
        for code in [
            // A logical assignment runs its right side only sometimes.
            "let ok = true; ok ||= await expect(page.locator('#t')).toHaveText('x');",
            "let ok; ok ??= await expect(page.locator('#t')).toHaveText('x');",
            // Getters, setters, object methods and class bodies run only when used.
            "const o = { get x() { return expect(page.locator('#t')).toHaveText('x'); } }; await o;",
            "const o = { async m() { await expect(page.locator('#t')).toHaveText('x'); } };",
            "class A { static s = expect(1).toBe(2); }",
            "class A { async m() { await expect(page.locator('#t')).toHaveText('x'); } }",
            // A default value runs only when the value is missing.
            "const { a = await expect(page.locator('#t')).toHaveText('x') } = { a: 1 };",
        ] {
            let a = only(&format!("async function step(page) {{ {code} }}"));
            assert!(a.escapes.conditional, "{code}: {:?}", a.escapes);
        }
        // A generator step runs none of its body when called.
        let a = only(
            "async function* step(page) { await expect(page.locator('#t')).toHaveText('x'); }",
        );
        assert!(a.escapes.conditional, "{:?}", a.escapes);
    }

    #[test]
    fn an_assertion_only_some_other_combinator_waits_for_is_unawaited() {
        for combinator in ["race", "any", "allSettled"] {
            let a = only(&format!(
                "async function step(page) {{ await Promise.{combinator}([expect(page.locator('#t')).toHaveText('x'), Promise.resolve()]); }}"
            ));
            assert!(a.escapes.unawaited, "{combinator}: {:?}", a.escapes);
        }
        let all = only(
            "async function step(page) { await Promise.all([expect(page.locator('#t')).toHaveText('x')]); }",
        );
        assert_eq!(all.escapes, Escapes::default());
        // A local `Promise` can make `Promise.all` observe nothing.
        for code in [
            "const Promise = { all: async () => {} };",
            "Promise = { all: async () => {} };",
        ] {
            let checks = checks(&format!(
                "async function step(page) {{ {code} await Promise.all([expect(page.locator('#t')).toHaveText('x')]); }}"
            ));
            assert!(checks.patches > 0, "{code}");
        }
    }

    #[test]
    fn throws_strings_and_rebinding_expect_are_seen() {
        let checks = checks(
            "async function step(page) {
              const text = await page.getByTestId('count').textContent();
              if (text !== `1 item left`) throw new Error('wrong count');
              try { throw new Error('swallowed'); } catch {}
              page.on('x', () => { throw new Error('elsewhere'); });
            }",
        );
        assert_eq!(checks.throws, 1, "only the if's throw fails the step");
        assert!(checks.strings.contains(&"1 item left".to_owned()));
        assert!(checks.strings.contains(&"count".to_owned()));
        assert!(!checks.rebinds_expect);
        assert_eq!(checks.page_scripts, 0);
        let scripted = Checks::of(
            "async function step(page) { await page.evaluate(() => 1); await page.locator('a').evaluate((e) => e.remove()); }",
        )
        .unwrap();
        assert_eq!(scripted.page_scripts, 2);
        for code in [
            "const expect = () => ({ toHaveText() {} }); async function step(page) {}",
            "async function step(page) { expect = () => ({}); }",
            "async function step(page) { function expect() {} }",
            "async function step(page) { expect.soft = expect; }",
        ] {
            assert!(Checks::of(code).unwrap().rebinds_expect, "{code}");
        }
    }

    #[test]
    fn code_that_does_not_parse_is_an_error() {
        let err = Checks::of("async function step(page) {").unwrap_err();
        assert!(
            err.to_string().starts_with("the code could not be parsed"),
            "{err}"
        );
    }
}
