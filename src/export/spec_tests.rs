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
    let code = "async function step(page) {\n  await page.getByRole('textbox').fill(`a\n  b`);\n}";
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
            "import { prettyplayVars, acceptUnhandledDialogs, statePath } from \"../prettyplay\";"
        ),
        "{spec}"
    );
    assert!(
        spec.contains("test.describe(\"scenarios/todo.steps\", () => {"),
        "{spec}"
    );
    assert!(spec.contains("  test.beforeEach(async ({ page }) => {\n    const testVars = prettyplayVars({ \"ITEM\": \"milk\" }, {});\n    await test.step(\"background: open the app\", async () => {\n      const vars = testVars;\nasync function step(page) { await page.goto('/'); }\n      await step(page);\n    });"), "{spec}");
    assert!(
        spec.contains("  test(\"add\", { tag: [\"@smoke\"] }, async ({ page }) => {"),
        "{spec}"
    );
    // The code's lines, a template literal's among them, are as stored.
    assert!(
        spec.contains(&format!(
            "      const vars = testVars;\n{code}\n      await step(page);"
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
