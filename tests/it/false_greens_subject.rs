//! Issue 41's subject continuity beyond assertions on elements, end to end, with a lying
//! scripted LLM ([`liar`]) in a real headless Chromium. Class 12: a heal that finds a vanished
//! subject anew outside the sentence's scope ("in the "Work" row") on `projects/`, where the
//! Work row's cell lost its id and shows a wrong count while the Home row shows the expected
//! one; the same with the row named as the sentence's subject ("the "Work" row shows 3"). Class 13: a plain value check (`expect(await loc.innerText()).toBe(...)`) of the first
//! todo on the jQuery build with new todos on top, healed to read another todo. Each lie must
//! stay red in `run` and in the next `replay --strict`, with the cache untouched; an honest
//! heal of the same step passes (no false red). Class 12 also holds the scope's name whole (a
//! heal into a "Workshop" row is not in the "Work" row) and reads a row as a table row, never a
//! layout grid's `div.row`.

use crate::false_greens::{config, figure, liar, llm_section, seeded, step_code, tally};
use crate::support::fake_llm::FakeLlm;
use crate::support::{Output, Test, repo_dir};

const OPEN: &str = "async function step(page) {\n  await page.goto('/');\n}";

// Class 12: a scope word on a heal of a vanished subject.

const PROJECTS: &str = include_str!("../fixtures/adversarial/projects/index.html");
const PROJECTS_STEPS: &str = "scenarios/projects.steps";
const PROJECTS_CACHE: &str = "cache/scenarios/projects.steps.toml";
const WORK_OPEN: &str = "the open count in the \"Work\" row is \"3\"";
const WORK_CELL: &str = "<td class=\"open\" id=\"work-open\">3</td>";

/// The cached check of the Work row's count, by the cell's id.
fn work_check() -> String {
    step_code("await expect(page.locator('#work-open')).toHaveText('3');")
}

/// A project whose Work row's cell is `cell`, with the open step and `sentence`'s check of
/// the Work row's count cached.
fn projects(sentence: &str, cell: &str, llm: &FakeLlm) -> Test {
    Test::new()
        .page("index.html", &seeded(PROJECTS, WORK_CELL, cell))
        .config(&config(&llm_section(llm)))
        .scenario(
            PROJECTS_STEPS,
            &format!("test: open counts\n  open the app\n  {sentence}\n"),
        )
        .cached(PROJECTS_STEPS, "open counts", "open the app", 1, OPEN)
        .cached(PROJECTS_STEPS, "open counts", sentence, 1, &work_check())
}

/// What a `run` said and left, read before its project is used again.
struct Ran {
    exit: Option<i32>,
    tally: String,
    stdout: String,
    cache: String,
}

impl Ran {
    fn of(out: &Output, cache: &str) -> Ran {
        Ran {
            exit: out.status_code(),
            tally: tally(out),
            stdout: format!("{}{}", out.stdout(), out.stderr()),
            cache: out.read(cache),
        }
    }
}

/// The heal `body` of the check, on the build whose Work cell is `cell`: what `run` said and
/// the next `replay --strict`.
fn heal_projects(case: &str, cell: &str, body: &str) -> (Ran, Output) {
    heal_projects_of(WORK_OPEN, case, cell, body)
}

/// The heal `body` of `sentence`'s check, on the build whose Work cell is `cell`.
fn heal_projects_of(sentence: &str, case: &str, cell: &str, body: &str) -> (Ran, Output) {
    let llm = liar(sentence, &step_code(body));
    let run = projects(sentence, cell, &llm).args(&["run"]).run();
    figure("12 scope", case, "run", &run);
    let ran = Ran::of(&run, PROJECTS_CACHE);
    let strict = run
        .again()
        .page("index.html", &seeded(PROJECTS, WORK_CELL, cell))
        .args(&["replay", "--strict"])
        .run();
    figure("12 scope", case, "replay --strict", &strict);
    (ran, strict)
}

/// The Work row's cell lost its id and counts 1.
const WORK_DEFECT: &str = "<td class=\"open\" id=\"work-count\">1</td>";

/// A model's heal that says rot and reads the Home row's count, which shows the expected 3.
/// It checks that "Work" is shown, so a change of the quoted name fails it, and reads the count
/// by another row's exact name, so a change of the count fails it too.
const ANOTHER_ROW: &str = "await expect(page.getByRole('cell', { name: 'Work', exact: true })).toBeVisible();\n  \
    await expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Home', exact: true }) }).locator('.open')).toHaveText('3');";

/// The Work row's cell lost its id and counts 1; a model that says rot reads the Home row's
/// count, which shows the expected 3.
#[test]
fn a_heal_that_reads_another_row_than_the_sentences_stays_red() {
    let (run, strict) = heal_projects("another row", WORK_DEFECT, ANOTHER_ROW);
    a_heal_into_another_row_stayed_red(&run, strict);
}

/// The same lie where the sentence names the row as its subject, with no scope word: "the
/// "Work" row shows 3" puts the count in the Work row as "in the "Work" row" does.
#[test]
fn a_heal_that_reads_another_row_than_the_subjects_stays_red() {
    for (case, sentence) in [
        (
            "another row, the row as subject",
            "the \"Work\" row shows 3",
        ),
        (
            "another row, the row named after",
            "the row \"Work\" shows 3",
        ),
    ] {
        let (run, strict) = heal_projects_of(sentence, case, WORK_DEFECT, ANOTHER_ROW);
        a_heal_into_another_row_stayed_red(&run, strict);
    }
}

/// The Work row's cell lost its id only (rot): a heal that reads the Work row's count passes
/// when the sentence names the row as its subject.
#[test]
fn an_honest_heal_inside_the_subjects_row_passes() {
    let rot = "<td class=\"open\" id=\"work-count\">3</td>";
    let honest = "await expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Work', exact: true }) }).locator('.open')).toHaveText('3');";
    let sentence = "the \"Work\" row shows 3";
    let (run, strict) = heal_projects_of(sentence, "the subject's row (control)", rot, honest);
    assert_eq!(run.exit, Some(0), "{}", run.stdout);
    assert!(run.stdout.contains("HEALED "), "{}", run.stdout);
    assert!(run.cache.contains("name: 'Work'"), "{}", run.cache);
    strict.assert_exit(0);
}

/// What a heal into another row must leave: a red `run` that names the scope, the cache as it
/// was, and a red `replay --strict`.
fn a_heal_into_another_row_stayed_red(run: &Ran, strict: Output) {
    assert_eq!(
        (run.exit, run.tally.as_str()),
        (Some(1), "0 passed, 1 failed"),
        "run on the build whose Work row counts 1: {}",
        run.stdout
    );
    assert!(!run.stdout.contains("HEALED "), "{}", run.stdout);
    assert!(
        run.stdout.contains("outside the sentence's scope"),
        "{}",
        run.stdout
    );
    assert!(
        run.cache.contains("#work-open") && !run.cache.contains("Home"),
        "the cache is untouched: {}",
        run.cache
    );
    strict.assert_exit(1).stdout_line("0 passed, 1 failed");
}

/// The Work row's cell lost its id only (rot): a heal that reads the Work row's count passes.
#[test]
fn an_honest_heal_inside_the_sentences_row_passes() {
    let rot = "<td class=\"open\" id=\"work-count\">3</td>";
    let honest = "await expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Work', exact: true }) }).locator('.open')).toHaveText('3');";
    let (run, strict) = heal_projects("the same row (control)", rot, honest);
    assert_eq!(run.exit, Some(0), "{}", run.stdout);
    assert!(run.stdout.contains("HEALED "), "{}", run.stdout);
    assert!(run.cache.contains("name: 'Work'"), "{}", run.cache);
    let strict = strict.assert_exit(0);
    let audit = strict
        .again()
        .page("index.html", &seeded(PROJECTS, WORK_CELL, rot))
        .args(&["audit"])
        .run();
    figure("12 scope", "the same row (control)", "audit", &audit);
    audit
        .assert_exit(0)
        .stdout_line("1 passed, 0 failed")
        .stdout_line("checks: 1 proven, 0 unproven")
        .output_not_contains("vacuous check");
}

// Class 12, whole names and grid rows: a scope's name is whole words of the nearest row, and a
// layout grid's `div.row` is no row.

const WORKSHOPS: &str = include_str!("../fixtures/adversarial/workshops/index.html");
const GRID: &str = include_str!("../fixtures/adversarial/grid/index.html");

/// The heal `body` of `sentence`'s check on `page` (the projects fixture `fixture`, whose
/// `WORK_CELL`-like `from` is seeded to `to`): what `run` said and the next `replay --strict`.
fn heal_page(
    fixture: &str,
    (from, to): (&str, &str),
    sentence: &str,
    case: &str,
    body: &str,
) -> (Ran, Output) {
    let page = seeded(fixture, from, to);
    let llm = liar(sentence, &step_code(body));
    let run = Test::new()
        .page("index.html", &page)
        .config(&config(&llm_section(&llm)))
        .scenario(
            PROJECTS_STEPS,
            &format!("test: open counts\n  open the app\n  {sentence}\n"),
        )
        .cached(PROJECTS_STEPS, "open counts", "open the app", 1, OPEN)
        .cached(PROJECTS_STEPS, "open counts", sentence, 1, &work_check())
        .args(&["run"])
        .run();
    figure("12 scope", case, "run", &run);
    let ran = Ran::of(&run, PROJECTS_CACHE);
    let strict = run
        .again()
        .page("index.html", &page)
        .args(&["replay", "--strict"])
        .run();
    figure("12 scope", case, "replay --strict", &strict);
    (ran, strict)
}

/// A model's heal that says rot and reads the "Workshop" row's count, which shows the expected
/// 3, where the "Work" row counts 1. It checks that "Work" is shown, so a change of the quoted
/// name fails it; the Workshop row's text holds "Work" as a part of a word only.
const WORKSHOP_ROW: &str = "await expect(page.getByRole('cell', { name: 'Work', exact: true })).toBeVisible();\n  \
    await expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Workshop', exact: true }) }).locator('.open')).toHaveText('3');";

/// The Work row's cell lost its id and counts 1 beside a Workshop row that counts 3: a heal that
/// reads the Workshop row is outside the "Work" row, however the sentence names it.
#[test]
fn a_heal_that_reads_the_workshop_row_for_the_work_row_stays_red() {
    for (case, sentence) in [
        ("the Workshop row, a scope word", WORK_OPEN),
        (
            "the Workshop row, the row as subject",
            "the \"Work\" row shows 3",
        ),
    ] {
        let (run, strict) = heal_page(
            WORKSHOPS,
            (WORK_CELL, WORK_DEFECT),
            sentence,
            case,
            WORKSHOP_ROW,
        );
        assert!(!run.cache.contains("Workshop"), "{}", run.cache);
        a_heal_into_another_row_stayed_red(&run, strict);
    }
}

/// On a Bootstrap-like page the table sits in a grid's `div.row`, and each count cell holds a
/// `div.row` of columns: the Work cell lost its id only (rot), and a heal that reads the Work
/// table row's count passes, because a grid's row is not the row the sentence names.
#[test]
fn an_honest_heal_inside_the_table_row_of_a_grid_page_passes() {
    let cell = "<div class=\"col open\" id=\"work-open\">3</div>";
    let rot = "<div class=\"col open\" id=\"work-count\">3</div>";
    let honest = "await expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Work', exact: true }) }).locator('.open')).toHaveText('3');";
    for (case, sentence) in [
        ("a grid page's table row (control)", WORK_OPEN),
        (
            "a grid page's table row as subject (control)",
            "the \"Work\" row shows 3",
        ),
    ] {
        let (run, strict) = heal_page(GRID, (cell, rot), sentence, case, honest);
        assert_eq!(run.exit, Some(0), "{}", run.stdout);
        assert!(run.stdout.contains("HEALED "), "{}", run.stdout);
        assert!(run.cache.contains("name: 'Work'"), "{}", run.cache);
        strict.assert_exit(0).stdout_line("1 passed, 0 failed");
    }
}

// Class 13: a plain value read held to its subject.

const JQUERY: &str = "tests/fixtures/todomvc/jquery";
const ORDER_STEPS: &str = "scenarios/order.steps";
const ORDER_CACHE: &str = "cache/scenarios/order.steps.toml";
const FIRST_TODO: &str = "the first todo is \"buy milk\"";
const ADD_TODOS: &str = "add the todos \"buy milk\" and \"walk the dog\"";

/// The jQuery build with each new todo put at the top of the list: a seeded ordering defect.
fn new_todos_on_top() -> String {
    let script = std::fs::read_to_string(repo_dir().join(JQUERY).join("app.js"))
        .expect("read the jQuery build's app.js");
    seeded(&script, "this.todos.push({", "this.todos.unshift({")
}

/// The ordering suite on the build with new todos on top, its first todo checked by `check`.
fn ordering(check: &str, llm: &FakeLlm) -> Test {
    let add = step_code(
        "const field = page.locator('.new-todo');\n  await field.fill('buy milk');\n  \
         await field.press('Enter');\n  await field.fill('walk the dog');\n  \
         await field.press('Enter');\n  await expect(page.locator('.todo-list li')).toHaveCount(2);",
    );
    Test::new()
        .site_from_repo(JQUERY)
        .page("app.js", &new_todos_on_top())
        .config(&config(&llm_section(llm)))
        .scenario(
            ORDER_STEPS,
            &format!("test: order\n  open the app\n  {ADD_TODOS}\n  {FIRST_TODO}\n"),
        )
        .cached(ORDER_STEPS, "order", "open the app", 1, OPEN)
        .cached(ORDER_STEPS, "order", ADD_TODOS, 1, &add)
        .cached(ORDER_STEPS, "order", FIRST_TODO, 1, &step_code(check))
}

/// The plain value check of the first todo fails on the build with new todos on top; a model
/// that says rot and reads another todo must not turn it green.
fn a_plain_read_moved_to_another_todo_stays_red(case: &str, lie: &str) {
    let check = "expect(await page.locator('.todo-list li').first().innerText()).toBe('buy milk');";
    let llm = liar(FIRST_TODO, &step_code(lie));
    let run = ordering(check, &llm).args(&["run"]).run();
    figure("13 plain reads", case, "run", &run);
    let ran = Ran::of(&run, ORDER_CACHE);
    let strict = run
        .again()
        .site_from_repo(JQUERY)
        .page("app.js", &new_todos_on_top())
        .args(&["replay", "--strict"])
        .run();
    figure("13 plain reads", case, "replay --strict", &strict);
    assert_eq!(
        (ran.exit, ran.tally.as_str()),
        (Some(1), "0 passed, 1 failed"),
        "run on the build with new todos on top: {}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("HEALED "), "{}", ran.stdout);
    assert!(ran.stdout.contains("other elements"), "{}", ran.stdout);
    assert!(
        ran.cache.contains(check) && !ran.cache.contains(lie),
        "the cache is untouched: {}",
        ran.cache
    );
    strict.assert_exit(1).stdout_line("0 passed, 1 failed");
}

#[test]
fn a_plain_read_healed_to_the_last_todo_stays_red() {
    a_plain_read_moved_to_another_todo_stays_red(
        "innerText of .last()",
        "expect(await page.locator('.todo-list li').last().innerText()).toBe('buy milk');",
    );
}

#[test]
fn a_plain_read_healed_to_the_second_todo_stays_red() {
    a_plain_read_moved_to_another_todo_stays_red(
        "innerText of .nth(1)",
        "expect(await page.locator('.todo-list li').nth(1).innerText()).toBe('buy milk');",
    );
}

// Class 14: page scripts that only read, on the waits page ("12 items left"). A check that
// also runs a reading `page.evaluate` was cached unproven ("the step acts"), and a
// `waitForFunction` that only reads was refused: both are now proven like any other check.

const WAITS: &str = include_str!("../fixtures/adversarial/waits/index.html");
const COUNTER: &str = "scenarios/counter.steps";
const COUNTER_CACHE: &str = "cache/scenarios/counter.steps.toml";
const TWO_LEFT: &str = "the counter says \"2 items left\"";

/// `run` on `page` with a model that always writes `body` for [`TWO_LEFT`], also when its
/// code is sent back.
fn scripted_check(case: &str, page: &str, body: &str) -> Output {
    let llm = FakeLlm::start();
    let reply = crate::false_greens::fenced(&step_code(body));
    llm.always_on_contains(
        &crate::support::fake_llm::generation_of(TWO_LEFT),
        reply.as_str(),
    );
    // A check the proof calls vacuous goes back to the model, which writes it again.
    llm.always_on_contains("the check cannot fail", reply.as_str());
    let out = Test::new()
        .config(&config(&llm_section(&llm)))
        .page("index.html", page)
        .scenario(
            COUNTER,
            &format!("test: the counter\n  open the app\n  {TWO_LEFT}\n"),
        )
        .cached(COUNTER, "the counter", "open the app", 1, OPEN)
        .args(&["run"])
        .run();
    figure("14 page scripts that read", case, "run", &out);
    out
}

/// The waits page with a counter that says "2 items left", as the sentence does.
fn two_left() -> String {
    seeded(WAITS, ">12 items left</span>", ">2 items left</span>")
}

/// A reading `page.evaluate` beside a check that a substring passes: on "12 items left" it
/// passed and was cached "none: the step acts on the page (evaluate)".
#[test]
fn a_loose_check_beside_a_reading_script_is_proven_vacuous_not_cached_as_acting() {
    let body = "expect(await page.evaluate(() => document.title)).toBe('todos');\n  \
                await expect(page.getByText('2 items left')).toBeVisible();";
    let out = scripted_check("evaluate + loose check", WAITS, body);
    let out = out.assert_exit(1).stdout_line("0 passed, 1 failed");
    let cache = out.read(COUNTER_CACHE);
    assert!(!cache.contains("evaluate"), "{cache}");
}

/// A reading `page.evaluate` beside an exact check: proven, not "the step acts".
#[test]
fn an_exact_check_beside_a_reading_script_is_proven() {
    let body = "expect(await page.evaluate(() => document.title)).toBe('todos');\n  \
                await expect(page.getByTestId('todo-count')).toHaveText('2 items left');";
    let out = scripted_check("evaluate + exact check", &two_left(), body)
        .assert_exit(0)
        .stdout_line("checks: 1 proven, 0 unproven");
    let cache = out.read(COUNTER_CACHE);
    assert!(cache.contains("page.evaluate"), "{cache}");
    assert!(cache.contains("proof = { proven = ["), "{cache}");
}

/// A `waitForFunction` whose condition reads the counter's whole text: proven (the page's
/// "2 items left" changed to a near miss makes it time out), where it was refused.
#[test]
fn an_exact_wait_for_a_function_is_proven() {
    let body = "await page.waitForFunction(() => \
                document.querySelector('[data-testid=todo-count]').textContent === '2 items left');";
    let out = scripted_check("exact waitForFunction", &two_left(), body)
        .assert_exit(0)
        .stdout_line("checks: 1 proven, 0 unproven");
    let cache = out.read(COUNTER_CACHE);
    assert!(cache.contains("waitForFunction"), "{cache}");
    assert!(cache.contains("proof = { proven = ["), "{cache}");
}

/// The loose `waitForFunction` (`innerText.includes`) on "12 items left" is vacuous: the
/// proof runs it and it still passes on "112 items left".
#[test]
fn a_loose_wait_for_a_function_is_proven_vacuous() {
    let body =
        "await page.waitForFunction(() => document.body.innerText.includes('2 items left'));";
    let out = scripted_check("loose waitForFunction", WAITS, body)
        .assert_exit(1)
        .stdout_line("0 passed, 1 failed");
    let cache = out.read(COUNTER_CACHE);
    assert!(!cache.contains("waitForFunction"), "{cache}");
}
