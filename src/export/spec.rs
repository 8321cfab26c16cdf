//! One scenario as a Playwright Test spec file: its background as `test.beforeEach`, each test
//! (each examples row) as a `test` whose steps are `test.step`s running the cached code as it is
//! stored, `vars` built from the environment, the public `[vars]` values and the row, and a step
//! without cached code failing as `replay --strict` fails it.
//!
//! Main entry point: [`render_spec`].

use std::collections::BTreeMap;
use std::fmt::Write;

use super::visible_code::visible_code;
use crate::cache::{CacheFile, StepKey};
use crate::scenario::{Scenario, Step, StepArgument, Test};
use crate::visible::{visible, visible_json};

/// The first line of every file the export writes: a later export replaces only such files.
pub(super) const HEADER: &str = "// Written by `prettyplay export --playwright`";

/// What a spec needs besides the scenario and its cache.
pub(super) struct SpecContext<'a> {
    /// The cache file of the scenario, if it has one.
    pub(super) cache: Option<&'a CacheFile>,
    /// The public `[vars]` values (never a secret's): the fallback when the environment has none.
    pub(super) public_vars: &'a BTreeMap<String, String>,
    /// The import path of the helper module from this spec.
    pub(super) helper: &'a str,
}

/// The TypeScript of `tests` (all of the scenario's, or only its setup tests, or only the
/// others) as one spec file.
pub(super) fn render_spec(
    scenario: &Scenario,
    tests: &[&Test],
    context: &SpecContext<'_>,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{HEADER} from {} and its cached step code.\n\
         // Each step runs the code prettyplay cached for it, unchanged; edit the scenario and\n\
         // export again rather than this file.",
        visible(&scenario.rel_path)
    );
    let _ = writeln!(
        out,
        "import {{ test }} from '@playwright/test';\n\
         import {{ prettyplayVars, acceptUnhandledDialogs, statePath, stepExpect }} from {};\n",
        js(context.helper)
    );
    let _ = writeln!(out, "test.describe({}, () => {{", js(&scenario.rel_path));
    let _ = writeln!(
        out,
        "  test.beforeEach(async ({{ page }}) => acceptUnhandledDialogs(page));"
    );
    if !scenario.background.is_empty() {
        let _ = writeln!(out, "  test.beforeEach(async ({{ page }}, testInfo) => {{");
        let _ = writeln!(
            out,
            "    const testVars = prettyplayVars({}, {{}});",
            names_json(&names_of(&scenario.background, &[]), context)
        );
        for (index, step) in scenario.background.iter().enumerate() {
            let key = StepKey::background(scenario, step);
            write_step(
                &mut out,
                &format!("background: {}", step.sentence),
                step,
                code_of(context, &key),
                ("testInfo.title", index + 1),
            );
        }
        let _ = writeln!(out, "  }});");
    }
    for test in tests {
        write_test(&mut out, scenario, test, context);
    }
    let _ = writeln!(out, "}});");
    out
}

fn write_test(out: &mut String, scenario: &Scenario, test: &Test, context: &SpecContext<'_>) {
    let state = test.state.as_deref();
    if let Some(name) = state {
        let _ = writeln!(out, "\n  test.describe(() => {{");
        let _ = writeln!(
            out,
            "    test.use({{ storageState: statePath({}) }});",
            js(name)
        );
    }
    let tags: Vec<String> = test.tags.iter().map(|t| js(&format!("@{t}"))).collect();
    let details = if tags.is_empty() {
        String::new()
    } else {
        format!("{{ tag: [{}] }}, ", tags.join(", "))
    };
    let _ = writeln!(
        out,
        "\n  test({}, {details}async ({{ page }}) => {{",
        js(&test.name)
    );
    let columns: Vec<String> = test.columns().to_vec();
    // The variables the row's cells name (`| ${ADMIN_PASSWORD} |`) are the test's too.
    let mut names = names_of(&test.steps, &columns);
    for (_, value) in test.row() {
        for (name, _) in crate::scenario::variables(value) {
            if !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
    }
    let row: Vec<String> = test
        .row()
        .map(|(column, value)| format!("{}: {}", js(column), js(value)))
        .collect();
    let _ = writeln!(
        out,
        "    const testVars = prettyplayVars({}, {{ {} }});",
        names_json(&names, context),
        row.join(", ")
    );
    let name = js(&test.name);
    for (index, step) in test.steps.iter().enumerate() {
        let key = StepKey::of(scenario, test, step);
        let at = scenario.background.len() + index + 1;
        write_step(
            out,
            &step.sentence,
            step,
            code_of(context, &key),
            (&name, at),
        );
    }
    if let Some(saved) = &test.saves {
        let _ = writeln!(
            out,
            "    await page.context().storageState({{ path: statePath({}) }});",
            js(saved)
        );
    }
    let _ = writeln!(out, "  }});");
    if state.is_some() {
        let _ = writeln!(out, "  }});");
    }
}

/// One `test.step` running `code` (as stored: its lines are not re-indented, so that template
/// literals keep their text) with `vars` of its own (the test's, and the step's doc string or
/// data table) and the `expect` of its place (`at`: the test's name, as a TypeScript
/// expression, and the step's 1-based index among the test's steps, background first), whose
/// screenshots are named as prettyplay names their baselines.
fn write_step(out: &mut String, title: &str, step: &Step, code: Option<&str>, at: (&str, usize)) {
    let _ = writeln!(out, "    await test.step({}, async () => {{", js(title));
    let Some(code) = code else {
        let _ = writeln!(
            out,
            "      throw new Error({});",
            js(
                "no cached code for this step: `prettyplay run` generates it (prettyplay replay \
                --strict fails it the same way)"
            )
        );
        let _ = writeln!(out, "    }});");
        return;
    };
    match &step.argument {
        Some(argument) => {
            let value = match argument {
                StepArgument::DocString(doc) => js(doc.as_str()),
                StepArgument::DataTable(rows) => {
                    visible_json(&serde_json::to_string(rows).unwrap_or_else(|_| "[]".to_owned()))
                        .into_owned()
                }
            };
            let _ = writeln!(
                out,
                "      const vars = prettyplayVars.with(testVars, {}, {value});",
                js(argument.var_name())
            );
        }
        None => {
            let _ = writeln!(out, "      const vars = testVars;");
        }
    }
    let _ = writeln!(out, "      const expect = stepExpect({}, {});", at.0, at.1);
    // prettyplay's global `request` is the page's, with its cookies, as `page.request` is in
    // Playwright Test (the `request` fixture has cookies of its own).
    if mentions_request(code) {
        let _ = writeln!(out, "      const request = page.request;");
    }
    let _ = writeln!(out, "{}", visible_code(code).trim_end());
    let _ = writeln!(out, "      await step(page);");
    let _ = writeln!(out, "    }});");
}

fn code_of<'a>(context: &SpecContext<'a>, key: &StepKey) -> Option<&'a str> {
    context
        .cache
        .and_then(|file| file.get(key))
        .map(|cached| cached.code.as_str())
}

/// The `${NAME}` variables the steps name (not the columns, which the row gives), in order,
/// each once.
fn names_of(steps: &[Step], columns: &[String]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for step in steps {
        for (name, _) in crate::scenario::variables(&step.sentence) {
            if !columns.iter().any(|c| c == name) && !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
    }
    names
}

/// Whether step code names the global `request` (not `page.request` or a `request` property).
fn mentions_request(code: &str) -> bool {
    code.match_indices("request").any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + "request".len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
        !word(before) && before != Some('.') && !word(after)
    })
}

/// `{ NAME: "public value" or null, ... }`: every variable the steps name and every public
/// `[vars]` value; `null` where only the environment can give it.
fn names_json(names: &[String], context: &SpecContext<'_>) -> String {
    let mut entries: Vec<String> = context
        .public_vars
        .iter()
        .map(|(name, value)| format!("{}: {}", js(name), js(value)))
        .collect();
    for name in names {
        if !context.public_vars.contains_key(name) {
            entries.push(format!("{}: null", js(name)));
        }
    }
    format!("{{ {} }}", entries.join(", "))
}

/// A JavaScript string literal of `text` (JSON's, which JavaScript reads the same), with every
/// control or invisible character escaped, so that the file shows it and never carries it raw.
pub(super) fn js(text: &str) -> String {
    let json = serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned());
    visible_json(&json).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse_feature;

    fn scenario(rel: &str, source: &str) -> Scenario {
        let parsed = if rel.ends_with(".feature") {
            parse_feature(rel, source.as_bytes()).expect("parses")
        } else {
            crate::scenario::parse(rel, source.as_bytes()).expect("parses")
        };
        Scenario {
            path: rel.into(),
            rel_path: rel.to_owned(),
            background: parsed.background,
            tests: parsed.tests,
        }
    }

    fn cached(scenario: &Scenario, entries: &[(Option<&str>, &str, &str)]) -> CacheFile {
        let mut file = CacheFile::new(&scenario.rel_path);
        for (test, step, code) in entries {
            let key = StepKey {
                scenario: scenario.rel_path.clone(),
                test: test.map(str::to_owned),
                step: (*step).to_owned(),
                occurrence: 1,
            };
            file.upsert(&key, code, "2026-12-02", false, None);
        }
        file
    }

    fn render(scenario: &Scenario, cache: &CacheFile, public: &[(&str, &str)]) -> String {
        let public: BTreeMap<String, String> = public
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        let context = SpecContext {
            cache: Some(cache),
            public_vars: &public,
            helper: "../prettyplay",
        };
        let tests: Vec<&Test> = scenario.tests.iter().collect();
        render_spec(scenario, &tests, &context)
    }

    #[test]
    fn steps_run_their_cached_code_unchanged_and_a_missing_one_fails() {
        let scenario = scenario(
            "scenarios/todo.steps",
            "background:\n  open the app\n\ntest: add @smoke\n  type ${ITEM} into the field\n  \
         the list shows it\n",
        );
        let code =
            "async function step(page) {\n  await page.getByRole('textbox').fill(`a\n  b`);\n}";
        let cache = cached(
            &scenario,
            &[
                (
                    None,
                    "open the app",
                    "async function step(page) { await page.goto('/'); }",
                ),
                (Some("add"), "type ${ITEM} into the field", code),
            ],
        );
        let spec = render(&scenario, &cache, &[("ITEM", "milk")]);
        assert!(spec.starts_with(HEADER), "{spec}");
        assert!(
            spec.contains(
                "import { prettyplayVars, acceptUnhandledDialogs, statePath, stepExpect } from \"../prettyplay\";"
            ),
            "{spec}"
        );
        assert!(
            spec.contains("test.describe(\"scenarios/todo.steps\", () => {"),
            "{spec}"
        );
        assert!(spec.contains("  test.beforeEach(async ({ page }, testInfo) => {\n    const testVars = prettyplayVars({ \"ITEM\": \"milk\" }, {});\n    await test.step(\"background: open the app\", async () => {\n      const vars = testVars;\n      const expect = stepExpect(testInfo.title, 1);\nasync function step(page) { await page.goto('/'); }\n      await step(page);\n    });"), "{spec}");
        assert!(
            spec.contains("  test(\"add\", { tag: [\"@smoke\"] }, async ({ page }) => {"),
            "{spec}"
        );
        // The code's lines, a template literal's among them, are as stored.
        assert!(
            spec.contains(&format!(
                "      const vars = testVars;\n      const expect = stepExpect(\"add\", 2);\n{code}\n      await step(page);"
            )),
            "{spec}"
        );
        assert!(spec.contains("    await test.step(\"the list shows it\", async () => {\n      throw new Error(\"no cached code for this step"), "{spec}");
    }

    #[test]
    fn rows_arguments_and_states_map_onto_playwright() {
        let feature = scenario(
            "features/cart.feature",
            "Feature: cart\n\
         \x20 Scenario Outline: add <item>\n\
         \x20   Given the cart holds\n\
         \x20     | item   |\n\
         \x20     | <item> |\n\
         \x20   Examples:\n\
         \x20     | item      |\n\
         \x20     | ${SECRET} |\n",
        );
        let cache = cached(
            &feature,
            &[(
                Some("add <item>"),
                "the cart holds",
                "async function step(page) {}",
            )],
        );
        let spec = render(&feature, &cache, &[]);
        assert!(spec.contains("  test(\"add <item> [item=${SECRET}]\", async ({ page }) => {\n    const testVars = prettyplayVars({ \"SECRET\": null }, { \"item\": \"${SECRET}\" });"), "{spec}");
        assert!(spec.contains("      const vars = prettyplayVars.with(testVars, \"dataTable\", [[\"item\"],[\"${SECRET}\"]]);"), "{spec}");

        let steps = scenario(
            "scenarios/auth.steps",
            "test: sign in [saves=user]\n  sign in\ntest: shop [state=user]\n  open the shop\n",
        );
        let cache = cached(&steps, &[]);
        let spec = render(&steps, &cache, &[]);
        assert!(
            spec.contains("    await page.context().storageState({ path: statePath(\"user\") });"),
            "{spec}"
        );
        assert!(spec.contains("  test.describe(() => {\n    test.use({ storageState: statePath(\"user\") });\n\n  test(\"shop\""), "{spec}");
    }

    #[test]
    fn only_code_that_names_the_global_request_gets_the_pages() {
        assert!(mentions_request("const r = await request.get('/api');"));
        assert!(mentions_request(
            "await expect(await request.delete('/x')).toBeOK();"
        ));
        assert!(!mentions_request("await page.request.get('/api');"));
        assert!(!mentions_request(
            "const requests = 1; page.waitForRequest('x');"
        ));
        assert!(!mentions_request("await page.goto('/');"));
    }
}
