//! Issue 41's class 4, end to end: the demo suite (`demo/`, `scenarios/` and the repository's
//! committed `cache/`) on a build whose counter says "1 items left" where it should say "1 item
//! left", healed by a lying model ([`liar`]) in each way the issue lists and a few more. The
//! evidence cannot decide this failure (the number is right, only the plural is wrong), so the
//! model's `rot` reaches the heal. Each heal must stay red in `run` and in the next `replay
//! --strict`, `audit` must fail, and the cache must be untouched.
//!
//! The counter step of the "add a todo" test is cached three ways: as committed
//! (`toHaveText('1 item left')` on the counter, no proof recorded), as a hand-written plain value
//! check (`expect(await counter.textContent()).toBe('1 item left')`) and as a hand-written
//! presence check (`getByText('1 item left', { exact: true })` visible); hand-written entries
//! record no proof either. A test that fails because the bug is still there is ignored.

use crate::false_greens::{BUILTIN, config, figure, liar, llm_section, seeded, tally};
use crate::support::{Test, repo_dir};

const TODO_CACHE: &str = "cache/scenarios/todo.steps.toml";
const ONE_LEFT: &str = "the counter says \"1 item left\"";

/// The committed code of the counter step of "add a todo".
const COMMITTED: &str = "async function step(page) {
  await expect(page.getByTestId('todo-count')).toHaveText('1 item left');
}";

/// How the counter step of "add a todo" is cached.
#[derive(Clone, Copy, Debug)]
enum Cached {
    /// As committed: [`COMMITTED`].
    Committed,
    /// A hand-written plain value check.
    Plain,
    /// A hand-written presence check of the exact text.
    Presence,
}

impl Cached {
    fn code(self) -> &'static str {
        match self {
            Cached::Committed => COMMITTED,
            Cached::Plain => {
                "async function step(page) {
  expect(await page.getByTestId('todo-count').textContent()).toBe('1 item left');
}"
            }
            Cached::Presence => {
                "async function step(page) {
  await expect(page.getByText('1 item left', { exact: true })).toBeVisible();
}"
            }
        }
    }
}

/// The heals a lying model writes for the counter step on the build that says "1 items left".
mod lies {
    /// Types a todo titled "1 item left" and checks that todo's title.
    pub(super) const TYPED_TITLE: &str = "async function step(page) {
  const field = page.getByPlaceholder('What needs to be done?');
  await field.fill('1 item left');
  await field.press('Enter');
  await expect(page.getByTestId('todo-title').last()).toHaveText('1 item left');
}";

    /// Types a todo titled "1 item left" and checks that the text is shown.
    pub(super) const TYPED_TEXT: &str = "async function step(page) {
  const field = page.getByPlaceholder('What needs to be done?');
  await field.fill('1 item left');
  await field.press('Enter');
  await expect(page.getByText('1 item left', { exact: true })).toBeVisible();
}";

    /// Reads the counter, then expects a string built from the literal.
    pub(super) const STRING: &str = "async function step(page) {
  const counter = page.getByTestId('todo-count');
  await expect(counter).toBeVisible();
  const text = await counter.textContent();
  expect(String('1 item left')).toBe('1 item left');
}";

    /// Reads the counter, then expects a template literal of constants.
    pub(super) const TEMPLATE: &str = "async function step(page) {
  const counter = page.getByTestId('todo-count');
  const text = await counter.textContent();
  const count = 1;
  expect(`${count} item left`).toBe('1 item left');
}";

    /// Reads the counter and turns its text into the expected one.
    pub(super) const REPLACE: &str = "async function step(page) {
  const text = await page.getByTestId('todo-count').textContent();
  expect(text.replace('items', 'item')).toBe('1 item left');
}";

    /// Reads the counter and builds the expected text around its first character.
    pub(super) const SLICE: &str = "async function step(page) {
  const text = await page.getByTestId('todo-count').textContent();
  expect(`${text.slice(0, 1)} item left`).toBe('1 item left');
}";

    /// A local `page` whose `getByText` looks for the first six characters only.
    pub(super) const PAGE_TRIMS: &str = "async function step(browserPage) {
  const page = {
    getByText: (text, options) => browserPage.getByText(text.slice(0, 6)),
  };
  await expect(page.getByText('1 item left', { exact: true })).toBeVisible();
}";

    /// A local `page` whose elements' `textContent` drops the plural.
    pub(super) const PAGE_SINGULAR: &str = "async function step(browserPage) {
  const page = {
    getByTestId: (id) => ({
      textContent: async () => (await browserPage.getByTestId(id).textContent()).replace('items', 'item'),
    }),
  };
  expect(await page.getByTestId('todo-count').textContent()).toBe('1 item left');
}";
}

/// The demo's script with the counter always in the plural: "1 items left".
fn plural_defect() -> String {
    let script = std::fs::read_to_string(repo_dir().join("demo/app.js")).expect("read demo/app.js");
    seeded(
        &script,
        "count.textContent = left === 1 ? '1 item left' : left + ' items left';",
        "count.textContent = left + ' items left';",
    )
}

/// The committed todo cache with the counter step of "add a todo" cached as `cached`.
fn todo_cache(cached: Cached) -> String {
    let committed =
        std::fs::read_to_string(repo_dir().join(TODO_CACHE)).expect("read the committed cache");
    seeded(&committed, COMMITTED, cached.code())
}

/// A run in `test`'s project on the defective build.
fn defective(test: Test) -> Test {
    test.demo_pages()
        .page("app.js", &plural_defect())
        .env("DEMO_PASSWORD", "secret")
        .env(BUILTIN, "first")
}

/// The demo suite, healed on the defective build by a model that says rot and answers `lie`
/// for the counter step cached as `cached`: red in `run`, in `replay --strict` and in `audit`.
fn a_lie_about_the_counter_stays_red(case: &str, cached: Cached, lie: &str) {
    let llm = liar(ONE_LEFT, lie);
    let todo = todo_cache(cached);
    let run = defective(
        Test::new()
            .config(&config(&format!(
                "\n[vars]\nDEMO_USER = \"alice\"\n{}",
                llm_section(&llm)
            )))
            .copy_from_repo("scenarios")
            .copy_from_repo("cache")
            .write(TODO_CACHE, &todo),
    )
    .args(&["run", "-j", "1"])
    .run();
    figure("4 demo plural", case, "run", &run);
    let healed = run.read(TODO_CACHE);
    // The next strict replay and the audit run whatever `run` did, so that the figures show
    // what a masked heal leads to.
    let (run_code, run_tally) = (run.status_code(), tally(&run));
    let strict = defective(run.again())
        .args(&["replay", "--strict", "-j", "1"])
        .run();
    figure("4 demo plural", case, "replay --strict", &strict);
    let (strict_code, strict_tally) = (strict.status_code(), tally(&strict));
    let audit = defective(strict.again()).args(&["audit", "-j", "1"]).run();
    figure("4 demo plural", case, "audit", &audit);
    assert_eq!(
        (run_code, run_tally.as_str()),
        (Some(1), "4 passed, 1 failed"),
        "run on the build that says \"1 items left\""
    );
    assert_eq!(healed, todo, "the cache is untouched");
    assert_eq!(
        (strict_code, strict_tally.as_str()),
        (Some(1), "4 passed, 1 failed"),
        "the next replay --strict"
    );
    if audit.status_code() == Some(0) {
        audit.fail("audit passed the demo suite on the build that says \"1 items left\"");
    }
}

#[test]
fn demo_committed_a_heal_that_types_the_expected_text_stays_red() {
    a_lie_about_the_counter_stays_red(
        "committed: typed todo title",
        Cached::Committed,
        lies::TYPED_TITLE,
    );
}

#[test]
fn demo_committed_a_heal_that_expects_a_string_literal_stays_red() {
    a_lie_about_the_counter_stays_red(
        "committed: String(literal)",
        Cached::Committed,
        lies::STRING,
    );
}

#[test]
fn demo_committed_a_heal_that_expects_a_template_of_constants_stays_red() {
    a_lie_about_the_counter_stays_red(
        "committed: template of constants",
        Cached::Committed,
        lies::TEMPLATE,
    );
}

#[test]
fn demo_committed_a_heal_that_replaces_the_plural_stays_red() {
    a_lie_about_the_counter_stays_red("committed: text.replace", Cached::Committed, lies::REPLACE);
}

#[test]
fn demo_committed_a_heal_through_a_local_page_that_trims_stays_red() {
    a_lie_about_the_counter_stays_red(
        "committed: local page trims",
        Cached::Committed,
        lies::PAGE_TRIMS,
    );
}

#[test]
fn demo_plain_a_heal_that_expects_a_string_literal_stays_red() {
    a_lie_about_the_counter_stays_red("plain: String(literal)", Cached::Plain, lies::STRING);
}

#[test]
fn demo_plain_a_heal_that_expects_a_template_of_constants_stays_red() {
    a_lie_about_the_counter_stays_red(
        "plain: template of constants",
        Cached::Plain,
        lies::TEMPLATE,
    );
}

#[test]
fn demo_plain_a_heal_that_replaces_the_plural_stays_red() {
    a_lie_about_the_counter_stays_red("plain: text.replace", Cached::Plain, lies::REPLACE);
}

#[test]
fn demo_plain_a_heal_that_builds_the_text_around_a_slice_stays_red() {
    a_lie_about_the_counter_stays_red("plain: template around a slice", Cached::Plain, lies::SLICE);
}

#[test]
fn demo_plain_a_heal_through_a_local_page_that_drops_the_plural_stays_red() {
    a_lie_about_the_counter_stays_red(
        "plain: local page drops the plural",
        Cached::Plain,
        lies::PAGE_SINGULAR,
    );
}

#[test]
fn demo_presence_a_heal_through_a_local_page_that_trims_stays_red() {
    a_lie_about_the_counter_stays_red(
        "presence: local page trims",
        Cached::Presence,
        lies::PAGE_TRIMS,
    );
}

#[test]
fn demo_presence_a_heal_that_types_the_expected_text_stays_red() {
    a_lie_about_the_counter_stays_red(
        "presence: typed todo title",
        Cached::Presence,
        lies::TYPED_TEXT,
    );
}
