#!/usr/bin/env bash
# Issue 41's false greens and the mutation proof's false reds, measured end to end.
#
# Runs the integration tests of tests/it/false_greens.rs, false_greens_demo.rs,
# false_greens_subject.rs and proof_false_reds.rs (fixtures in tests/fixtures/adversarial/, see its README), ignored tests
# included, and prints one row per class: how many of its tests were masked (a defect turned
# green) or false red (an honest check failed) before the fix, and how many are now. Every test
# asserts what issue 41 asks for, so a test that fails now is a case still masked (or still a
# false red). "Before" is the BASELINE table below, measured when the tests were written (main at
# d5de337, debug build, 2-core machine under load). Then each test's outcome, and the FIGURE
# lines the tests print: what each run said (exit code, tally, proof summary, healed or not,
# failure kind, verdict, and what the proof or the failure said).
#
# usage: scripts/false-greens.sh [--bench] [--log FILE] [--jobs N]
#   --bench     also run proof_false_reds::bench_proof_cost_per_check_step and print the
#               proof's median cost per check step (replay --strict against audit, 5 rounds)
#   --log FILE  keep cargo's output in FILE (default: a temporary file, removed at the end)
#   --jobs N    test threads (default 2)
#
# Needs bash, python3, cargo and what the integration tests need (Chromium and the Playwright
# driver: ./setup). Nothing leaves the machine: the tests serve their pages, the fake LLM and the
# recording servers on 127.0.0.1. Exit status: 0 when the tests ran (whatever they found), 2 for
# a usage error, 3 when cargo could not build or run them.

set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench=0
jobs=2
log=

while [[ $# -gt 0 ]]; do
    case $1 in
        --bench) bench=1 ;;
        --log) log=${2:?--log needs a file}; shift ;;
        --jobs) jobs=${2:?--jobs needs a number}; shift ;;
        -h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "false-greens.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "false-greens.sh: --jobs needs a positive number" >&2; exit 2; }

keep_log=1
if [[ -z $log ]]; then
    log=$(mktemp "${TMPDIR:-/tmp}/false-greens.XXXXXX")
    keep_log=0
fi
cleanup() { [[ $keep_log == 1 ]] || rm -f "$log"; }
trap cleanup EXIT

cd "$root"
export PLAYWRIGHT_SKIP_DRIVER_DOWNLOAD=1
echo "running the issue 41 tests (ignored ones included); cargo's output: $log" >&2
# The tests fail while the bugs are there, so cargo's exit status says nothing here; whether the
# tests ran at all is read from their results below.
cargo test --test it -- false_greens proof_false_reds --include-ignored --skip bench_ \
    --test-threads "$jobs" --nocapture >"$log" 2>&1 || true
if [[ $bench == 1 ]]; then
    cargo test --test it -- proof_false_reds::bench_proof_cost_per_check_step --ignored \
        --nocapture >>"$log" 2>&1 || true
fi

python3 - "$log" "$bench" <<'PY'
import re
import sys

log_path, bench = sys.argv[1], sys.argv[2] == "1"
text = open(log_path, encoding="utf-8", errors="replace").read()

# (test, class, kind, before, note). kind: "green" (the test fails while a defect is masked),
# "red" (it fails while an honest check is a false red), "requests" (it fails while a check's GET
# reaches the app more often than once per proof run). before: what the test found at d5de337.
BASELINE = [
    ("false_greens::ordering_a_heal_to_the_last_todo_stays_red", "1 ordering", "green", True,
     "lying heal .last(): HEALED, PASS; replay --strict PASS; audit '1 proven', exit 0"),
    ("false_greens::ordering_a_heal_to_the_second_todo_stays_red", "1 ordering", "green", True,
     "lying heal .nth(1): HEALED, PASS; replay --strict PASS; audit exit 0"),
    ("false_greens::ordering_a_heal_to_the_todo_found_by_its_text_stays_red", "1 ordering", "green", True,
     "lying heal getByText(exact): HEALED, PASS; replay --strict PASS; audit exit 0"),
    ("false_greens::ordering_another_test_with_no_llm_does_not_copy_the_lie", "1 ordering", "green", True,
     "test b, no [llm]: HEALED (reused, no LLM), PASS"),
    ("false_greens::ordering_a_committed_lie_is_not_reused_with_no_llm", "1 ordering", "green", True,
     "a committed healed lie: test b HEALED (reused, no LLM), PASS"),
    ("false_greens::a_vanished_delete_button_is_never_healed_to_delete_all", "2 vanished button", "green", True,
     "no LLM: HEALED (built-in) to name: 'Delete all', PASS; the app got POST /deleted/all"),
    ("false_greens::an_optional_accept_with_its_cached_code_is_skipped_on_a_build_without_the_banner", "3 optional likeness", "green", True,
     "cached, run: HEALED (built-in) to 'Accept terms and create account', PASS; account created"),
    ("false_greens::an_optional_accept_generated_on_a_build_without_the_banner_is_skipped", "3 optional likeness", "green", True,
     "generated: clicked 'Accept terms and create account', passed; account created"),
    ("false_greens::an_optional_accept_a_model_writes_without_exact_is_skipped_on_a_build_without_the_banner", "3 optional likeness", "green", True,
     "an honest model's getByRole name: 'Accept' (no exact): clicked 'Accept terms and create account', passed, cached"),
    ("false_greens::an_optional_accept_replayed_strictly_on_a_build_without_the_banner_is_skipped", "3 optional likeness", "red", True,
     "replay --strict: FAIL (timeout: 'the element the sentence names is on the page'), not skipped; nothing pressed"),
    ("false_greens_demo::demo_committed_a_heal_that_types_the_expected_text_stays_red", "4 demo plural", "green", True,
     "committed cache, typed todo title: HEALED, 5 passed; replay --strict and audit exit 0"),
    ("false_greens_demo::demo_committed_a_heal_that_expects_a_string_literal_stays_red", "4 demo plural", "green", False,
     "committed cache: HEAL VETOED (toHaveText became toBeVisible)"),
    ("false_greens_demo::demo_committed_a_heal_that_expects_a_template_of_constants_stays_red", "4 demo plural", "green", False,
     "committed cache: HEAL VETOED (toHaveText became toBe)"),
    ("false_greens_demo::demo_committed_a_heal_that_replaces_the_plural_stays_red", "4 demo plural", "green", False,
     "committed cache: HEAL VETOED (toHaveText became toBe)"),
    ("false_greens_demo::demo_committed_a_heal_through_a_local_page_that_trims_stays_red", "4 demo plural", "green", False,
     "committed cache: HEAL VETOED (toHaveText became toBeVisible)"),
    ("false_greens_demo::demo_plain_a_heal_that_expects_a_string_literal_stays_red", "4 demo plural", "green", True,
     "plain toBe entry, String(literal): HEALED, PASS; replay --strict, audit exit 0"),
    ("false_greens_demo::demo_plain_a_heal_that_expects_a_template_of_constants_stays_red", "4 demo plural", "green", True,
     "plain toBe entry, template of constants: HEALED, PASS; replay --strict, audit exit 0"),
    ("false_greens_demo::demo_plain_a_heal_that_replaces_the_plural_stays_red", "4 demo plural", "green", True,
     "plain toBe entry, text.replace: HEALED, PASS; replay --strict, audit exit 0"),
    ("false_greens_demo::demo_plain_a_heal_that_builds_the_text_around_a_slice_stays_red", "4 demo plural", "green", True,
     "plain toBe entry, template around text.slice(0, 1): HEALED, PASS"),
    ("false_greens_demo::demo_plain_a_heal_through_a_local_page_that_drops_the_plural_stays_red", "4 demo plural", "green", True,
     "plain toBe entry, local page object: HEALED, PASS"),
    ("false_greens_demo::demo_presence_a_heal_through_a_local_page_that_trims_stays_red", "4 demo plural", "green", True,
     "presence entry, local page whose getByText trims: HEALED, PASS"),
    ("false_greens_demo::demo_presence_a_heal_that_types_the_expected_text_stays_red", "4 demo plural", "green", True,
     "presence entry, typed todo: HEALED, PASS"),
    ("false_greens::a_generated_check_that_creates_its_subject_is_refused_and_never_cached", "5 creates its subject", "green", True,
     "fill + Enter + check: passed, cached 'none: the step acts on the page (fill)'"),
    ("false_greens::audit_names_a_cached_check_that_creates_its_subject", "5 creates its subject", "green", True,
     "audit exit 0, the check counted unproven"),
    ("false_greens::a_generated_wait_for_a_text_is_not_cached_as_a_passing_check", "6 waits as checks", "green", True,
     "getByText('2 items left').waitFor() on '12 items left': passed, cached, no proof"),
    ("false_greens::a_generated_wait_for_a_function_is_not_cached_as_a_passing_check", "6 waits as checks", "green", True,
     "waitForFunction(innerText.includes): passed, cached, no proof"),
    ("false_greens::audit_names_cached_waits_used_as_checks", "6 waits as checks", "green", True,
     "audit exit 0, neither counted as a check"),
    ("false_greens::an_optional_step_with_a_check_clause_is_an_error_at_its_line", "7 optional check", "green", True,
     "2 of 3 sentences skipped with their check (exit 0); 'expect ... to be visible [optional]' ran and failed (exit 1); none refused"),
    ("false_greens::a_message_in_capitals_fails_every_generated_check_of_the_mixed_case_text", "9 case", "green", True,
     "no LLM, generated on the capitals build: 4 of 5 shapes passed (the built-in wrote the page's capitals)"),
    ("false_greens::a_message_in_capitals_fails_every_check_proven_on_the_mixed_case_build", "9 case", "green", True,
     "replay --strict: 1 of 5 proven checks passed (a case-insensitive /iu filter)"),
    ("false_greens::a_proven_check_of_the_first_todo_fails_on_titles_in_capitals", "9 case", "green", True,
     "no LLM: the built-in's proven toContainText(/buy milk/iu) passes on 'BUY MILK' in replay --strict and audit"),
    ("false_greens::a_proven_check_of_the_first_todo_fails_on_titles_with_more_words", "10 whole text (found)", "green", True,
     "no LLM: the same proven check passes on 'buy milk (copy)' in replay --strict and audit ('1 proven')"),
    ("false_greens_subject::a_heal_that_reads_another_row_than_the_sentences_stays_red", "12 scope of a vanished subject", "green", True,
     "measured at bf58067: 'in the \"Work\" row', Work's cell vanished and counts 1; a heal reading the Home row's 3 (and that 'Work' is visible): HEALED, PASS, '1 proven'; replay --strict PASS"),
    ("false_greens_subject::an_honest_heal_inside_the_sentences_row_passes", "12 scope of a vanished subject", "red", False,
     "control: the Work cell lost its id only; a heal reading the Work row's count passes"),
    ("false_greens_subject::a_heal_that_reads_another_row_than_the_subjects_stays_red", "12 scope of a vanished subject", "green", True,
     "read from the code at e5f977f, not run: 'the \"Work\" row shows 3' and 'the row \"Work\" shows 3' named no scope (only 'in ...' was read), so the heal reading the Home row's 3 was accepted"),
    ("false_greens_subject::an_honest_heal_inside_the_subjects_row_passes", "12 scope of a vanished subject", "red", False,
     "control: 'the \"Work\" row shows 3', the Work cell lost its id only; a heal reading the Work row's count passes"),
    ("false_greens_subject::a_heal_that_reads_the_workshop_row_for_the_work_row_stays_red", "12 scope of a vanished subject", "green", True,
     "read from the code at 416c867, not run: the scope's name was a substring of any row's text, so a heal reading the Workshop row's 3 was in the \"Work\" row"),
    ("false_greens_subject::an_honest_heal_inside_the_table_row_of_a_grid_page_passes", "12 scope of a vanished subject", "red", False,
     "control: a Bootstrap-like page (div.row grids around the table and inside its cells), the Work count lost its id only; a heal reading the Work table row's count passes"),
    ("false_greens_subject::a_plain_read_healed_to_the_last_todo_stays_red", "13 plain reads held", "green", True,
     "measured at bf58067: expect(await first li .innerText()).toBe healed to .last(): HEALED, PASS, '1 proven'; replay --strict PASS"),
    ("false_greens_subject::a_plain_read_healed_to_the_second_todo_stays_red", "13 plain reads held", "green", True,
     "measured at bf58067: the same healed to .nth(1): HEALED, PASS; replay --strict PASS"),
    ("false_greens_subject::a_loose_check_beside_a_reading_script_is_proven_vacuous_not_cached_as_acting", "14 page scripts that read", "green", True,
     "measured at bf58067: evaluate(() => document.title) + getByText('2 items left') visible on '12 items left': PASS, cached 'none: the step acts on the page (evaluate)'"),
    ("false_greens_subject::an_exact_check_beside_a_reading_script_is_proven", "14 page scripts that read", "red", False,
     "measured at bf58067: passed but unproven ('none: acts'), not red; now must be proven"),
    ("false_greens_subject::an_exact_wait_for_a_function_is_proven", "14 page scripts that read", "red", True,
     "measured at bf58067: an exact waitForFunction refused ('the mutation proof cannot see what it reads'), INCURABLE"),
    ("false_greens_subject::a_loose_wait_for_a_function_is_proven_vacuous", "14 page scripts that read", "green", False,
     "measured at bf58067: refused as a waitForFunction (no false green)"),
    ("proof_false_reds::the_proof_of_a_check_on_the_focused_editor_leaves_the_edit_open", "8 proof false reds", "red", True,
     "run: INCURABLE, 'no longer passed after the mutation proof restored the page' (the editor committed on blur)"),
    ("proof_false_reds::audit_of_a_check_on_the_focused_editor_leaves_the_edit_open", "8 proof false reds", "red", True,
     "audit: 0 passed, 1 failed"),
    ("proof_false_reds::the_proof_of_a_count_of_radios_leaves_the_checked_one_checked", "8 proof false reds", "red", True,
     "run: 0 passed, 2 failed: 'Express' unchecked after the count's proof"),
    ("proof_false_reds::the_checked_radio_is_checked_when_nothing_is_counted_first", "8 proof false reds", "red", False,
     "control: the radio check alone passes"),
    ("proof_false_reds::a_counter_whose_text_is_rendered_on_a_timer_is_no_false_red", "8 proof false reds", "red", True,
     "10 ms: vacuous '(a substring match)' in run and audit; 100 ms: some runs; 500 ms: passed"),
    ("proof_false_reds::a_counter_whose_footer_is_rendered_on_a_timer_is_no_false_red", "8 proof false reds", "red", True,
     "10 and 100 ms: vacuous ('passes without the element') or 'no longer passed' (2 counters); 500 ms: passed"),
    ("proof_false_reds::a_checks_get_reaches_the_app_once_per_proof", "8 proof false reds", "requests", True,
     "GETs reaching the app: run 4, replay --strict 1, audit 4"),
]

results = {}
for name, status in re.findall(r"^test (\S+) \.\.\. (ok|FAILED|ignored)$", text, re.M):
    results[name] = status
if not results:
    print("false-greens.sh: no test results in cargo's output; it could not build or run the tests:",
          file=sys.stderr)
    print("\n".join(text.splitlines()[-30:]), file=sys.stderr)
    sys.exit(3)

# The first line of each failed test's panic message.
why = {}
for name, message in re.findall(r"^thread '([^']+)' \(\d+\) panicked at [^\n]*:\n([^\n]*)", text, re.M):
    why.setdefault(name, message)

known = {t[0] for t in BASELINE}
unknown = sorted(n for n in results if n not in known and "::bench_" not in n)

classes = []
for _, cls, _, _, _ in BASELINE:
    if cls not in classes:
        classes.append(cls)

def count(rows, kind, failing):
    return sum(1 for r in rows if r[2] == kind and failing(r))

print("| class | tests | masked before | masked now | false red before | false red now | other before / now |")
print("|---|---|---|---|---|---|---|")
for cls in classes:
    rows = [r for r in BASELINE if r[1] == cls]
    ran = [r for r in rows if r[0] in results]
    now = lambda r: results.get(r[0]) == "FAILED"
    before = lambda r: r[3]
    other = ""
    if any(r[2] == "requests" for r in rows):
        other = f"{count(rows, 'requests', before)} / {count(ran, 'requests', now)} (GETs per proof)"
    print(f"| {cls} | {len(ran)} of {len(rows)} ran "
          f"| {count(rows, 'green', before)} | {count(ran, 'green', now)} "
          f"| {count(rows, 'red', before)} | {count(ran, 'red', now)} | {other} |")

print()
print("Each test (before: at d5de337; now: this run):")
for name, cls, kind, before, note in BASELINE:
    status = results.get(name, "not run")
    was = {"green": "masked", "red": "false red", "requests": "extra GETs"}[kind] if before else "ok"
    line = f"- [{cls}] {name}: before {was} ({note}); now {status}"
    if status == "FAILED" and name in why:
        line += f": {why[name][:200]}"
    print(line)
for name in unknown:
    print(f"- [not in BASELINE] {name}: now {results[name]}")

print()
print("What each run said (class, case, command, exit, tally, checks, healed, kind, verdict, detail):")
figures = sorted(set(re.findall(r"^FIGURE\t(.*)$", text, re.M)))
for figure in figures:
    print("  " + figure.replace("\t", " | "))

if bench:
    print()
    table = re.findall(r"^\|.*\|$", text.split("bench_proof_cost_per_check_step", 1)[-1], re.M)
    print("The proof's cost per check step (median over 5 rounds of replay --strict and audit):")
    print("\n".join(table) if table else "(the benchmark printed no table; see cargo's output)")
PY
