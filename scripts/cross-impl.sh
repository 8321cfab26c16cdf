#!/usr/bin/env bash
# The cross-implementation TodoMVC suite, run with no LLM against real TodoMVC builds.
#
# tests/fixtures/todomvc-suite holds plain sentences written for the TodoMVC spec and the cache the
# built-in generator proved for them on one build (PROVEN_ON below). This script serves each build
# of tests/fixtures/todomvc on 127.0.0.1, copies the suite (scenarios and cache) into a temporary
# directory, runs `prettyplay run --reporter json` there with no LLM (no [llm] in the suite's
# prettyplay.toml, every PRETTYPLAY_* variable but PRETTYPLAY_DRIVER_DIR unset), then
# `prettyplay replay --strict` of the cache that run left, and prints one row per build: tests
# green and failed, the failures by verdict or cause, the steps healed, and the strict replay's
# green count. Nothing leaves the machine: the builds are served from this checkout.
#
# With --defect it serves the PROVEN_ON build (lit) with its counter one more than the number
# of active todos, and says how many of the tests that check the counter failed, and how. The
# patch, on a copy in the temporary directory: in lit's index.js the footer renders
# `<strong>${s}</strong> ${1===s?"item":"items"} left`, where `s` is the number of active todos;
# `<strong>${s}</strong>` becomes `<strong>${s+1}</strong>`, so the number is one more and the
# word after it still follows the real count ("2 item left" for one active todo). The script
# stops if that text is not in the bundle exactly once.
#
# usage: scripts/cross-impl.sh [--defect] [--impl NAME]... [--bin PATH] [--browser NAME] [--keep]
#   --impl NAME  only this build (repeatable; default: every build, PROVEN_ON first)
#   --browser NAME  chromium (default) or firefox, passed to both runs
#   --bin PATH   the prettyplay binary (default: target/release/prettyplay)
#   --keep       keep the temporary directory (each run's project, output and reports)
#
# Needs bash, python3 (the static server and the summary) and a prettyplay that can launch
# Chromium (`prettyplay install`). Exit status: 0 when every run finished (whatever its tests
# did), 2 for a usage error or a missing binary, 3 when a build could not be served or a run
# ended with an exit code other than 0 or 1.

set -euo pipefail

# The build the committed cache was generated and proven on; tests/it/cross_impl.rs names it too.
PROVEN_ON=lit
BUILDS=(lit react vue preact svelte jquery backbone javascript-es6)

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
suite=$root/tests/fixtures/todomvc-suite
fixtures=$root/tests/fixtures/todomvc
bin=$root/target/release/prettyplay
defect=0
keep=0
only=()
browser=chromium

while [[ $# -gt 0 ]]; do
    case $1 in
        --defect) defect=1 ;;
        --impl) only+=("${2:?--impl needs a name}"); shift ;;
        --bin) bin=${2:?--bin needs a path}; shift ;;
        --browser) browser=${2:?--browser needs a name}; shift ;;
        --keep) keep=1 ;;
        -h|--help) sed -n '2,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "cross-impl.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done

if [[ ! -x $bin ]]; then
    echo "cross-impl.sh: no prettyplay binary at $bin; build it with" >&2
    echo "  PLAYWRIGHT_SKIP_DRIVER_DOWNLOAD=1 cargo build --release" >&2
    exit 2
fi
[[ ${#only[@]} -gt 0 ]] && BUILDS=("${only[@]}")
for build in "${BUILDS[@]}"; do
    if [[ ! -f $fixtures/$build/index.html ]]; then
        echo "cross-impl.sh: no TodoMVC build $build under $fixtures" >&2
        exit 2
    fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cross-impl.XXXXXX")
servers=()
cleanup() {
    for pid in "${servers[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    if [[ $keep == 1 ]]; then
        echo "kept $tmp" >&2
    else
        rm -rf "$tmp"
    fi
}
trap cleanup EXIT

# Serves directory $1 on a free port of 127.0.0.1; the port is written to file $2 once it
# listens. The server's pid joins `servers`, which cleanup stops.
serve() {
    local dir=$1 portfile=$2
    python3 - "$dir" "$portfile" <<'PY' &
import functools, http.server, os, sys
directory, portfile = sys.argv[1], sys.argv[2]
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=directory))
with open(portfile + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.replace(portfile + ".tmp", portfile)
server.serve_forever()
PY
    servers+=($!)
    for _ in $(seq 100); do
        [[ -s $portfile ]] && return 0
        sleep 0.1
    done
    echo "cross-impl.sh: could not serve $dir on 127.0.0.1" >&2
    exit 3
}

# Runs prettyplay with no LLM: every PRETTYPLAY_* setting unset but the driver's directory.
prettyplay() {
    local unset=()
    for name in $(compgen -e); do
        if [[ $name == PRETTYPLAY_* && $name != PRETTYPLAY_DRIVER_DIR ]]; then
            unset+=(-u "$name")
        fi
    done
    env "${unset[@]}" NO_COLOR=1 "$bin" "$@"
}

# Runs the suite against the site in $2 as build $1: `run` then `replay --strict`, in a fresh
# copy of the suite. Leaves $tmp/$1/run and $tmp/$1/strict (each the reporter's output and
# the terminal's).
run_build() {
    local name=$1 site=$2 work=$tmp/$1
    mkdir -p "$work"
    serve "$site" "$work/port"
    local url=http://127.0.0.1:$(cat "$work/port")/
    cp -r "$suite" "$work/project"
    rm -rf "$work/project/.prettyplay" "$work/project/prettyplay-report"
    echo "$name: run ($url)" >&2
    local rc=0
    (cd "$work/project" && prettyplay run -j 1 --browser "$browser" --base-url "$url" --reporter json \
        --output "$work/run" >"$work/run.txt" 2>&1) || rc=$?
    echo "$rc" >"$work/run.rc"
    echo "$name: replay --strict" >&2
    rc=0
    (cd "$work/project" && prettyplay replay --strict -j 1 --browser "$browser" --base-url "$url" --reporter json \
        --output "$work/strict" >"$work/strict.txt" 2>&1) || rc=$?
    echo "$rc" >"$work/strict.rc"
}

names=()
if [[ $defect == 1 ]]; then
    site=$tmp/site-$PROVEN_ON-defect
    cp -r "$fixtures/$PROVEN_ON" "$site"
    # shellcheck disable=SC2016 # the ${s} is JavaScript's, not the shell's
    before='<strong>${s}</strong>'
    after='<strong>${s+1}</strong>'
    if [[ $(grep -oF "$before" "$site/index.js" | wc -l) != 1 ]]; then
        echo "cross-impl.sh: $before is not in $PROVEN_ON's index.js exactly once; the defect cannot be seeded" >&2
        exit 3
    fi
    python3 - "$site/index.js" "$before" "$after" <<'PY'
import sys
path, before, after = sys.argv[1:]
text = open(path, encoding="utf-8").read()
open(path, "w", encoding="utf-8").write(text.replace(before, after, 1))
PY
    names=("$PROVEN_ON-counter+1")
    run_build "${names[0]}" "$site"
else
    # The build the cache was proven on first, as the reference row.
    ordered=()
    for build in "${BUILDS[@]}"; do [[ $build == "$PROVEN_ON" ]] && ordered+=("$build"); done
    for build in "${BUILDS[@]}"; do [[ $build != "$PROVEN_ON" ]] && ordered+=("$build"); done
    for build in "${ordered[@]}"; do
        names+=("$build")
        run_build "$build" "$fixtures/$build"
    done
fi

python3 - "$tmp" "$suite" "$PROVEN_ON" "$defect" "${names[@]}" <<'PY'
"""Reads each run's events.jsonl and prints the table (and, with --defect, the counter tests)."""
import json, os, re, sys

tmp, suite, proven_on, defect, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1", sys.argv[5:]

ENGINE = {
    "product_defect": "PRODUCT DEFECT",
    "incurable": "INCURABLE",
    "heal_vetoed": "HEAL VETOED",
}
COLUMNS = ["PRODUCT DEFECT", "INCURABLE", "HEAL VETOED", "declined", "no verdict", "other"]


def events(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def label(outcome):
    """The verdict or cause a failed test ended with, as one of COLUMNS, and its detail."""
    cause = outcome.get("cause") or {}
    kind = cause.get("type", "none")
    if kind == "engine":
        reason = cause.get("reason", "")
        engine = cause.get("kind", "")
        # The built-in generator could not write the step (no LLM to ask instead), or the engine
        # says the step needs an [llm] to heal.
        if re.search(r"cannot write this step|declined|needs `?\[llm\]`?", reason):
            return "declined", engine
        if engine in ENGINE:
            return ENGINE[engine], engine
        return "other", engine
    if kind == "step":
        # The cached code failed and nothing decided what the failure was.
        if outcome.get("verdict"):
            return ENGINE.get(outcome["verdict"].get("category"), "other"), cause.get("kind", "")
        return "no verdict", cause.get("kind", "")
    return "other", kind


def summary(name):
    run = events(os.path.join(tmp, name, "run", "events.jsonl"))
    strict = events(os.path.join(tmp, name, "strict", "events.jsonl"))
    rc = open(os.path.join(tmp, name, "run.rc")).read().strip()
    row = {"build": name, "rc": rc, "green": 0, "failed": 0, "healed": 0, "strict": 0,
           "vacuous": 0, "failures": []}
    row.update({c: 0 for c in COLUMNS})
    for e in run:
        if e.get("event") == "test_finished":
            outcome = e["outcome"]
            if outcome["status"] in ("passed", "flaky"):
                row["green"] += 1
            else:
                row["failed"] += 1
                column, detail = label(outcome)
                row[column] += 1
                test = e["test"]
                row["failures"].append((
                    f'{test["scenario"].removeprefix("scenarios/")}:{outcome.get("line")}',
                    test["name"], outcome.get("step", ""), column, detail))
        elif e.get("event") == "healed":
            row["healed"] += 1
        elif e.get("event") == "step_passed" and str(e.get("proof", "")).startswith("vacuous"):
            row["vacuous"] += 1
    if not run or run[-1].get("event") != "run_finished":
        row["rc"] += " (did not finish)"
    for e in strict:
        if e.get("event") == "test_finished" and e["outcome"]["status"] == "passed":
            row["strict"] += 1
    return row


rows = [summary(n) for n in names]
headers = ["build", "green", "failed", *COLUMNS, "healed", "strict green"]
table = [[r["build"] + (" (proven on)" if r["build"] == proven_on else ""),
          str(r["green"]), str(r["failed"]), *(str(r[c]) for c in COLUMNS),
          str(r["healed"]), str(r["strict"])] for r in rows]
widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(headers)]
print()
print("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
for t in table:
    print("  ".join(v.ljust(w) for v, w in zip(t, widths)).rstrip())
print()
print("failures:" if any(r["failures"] for r in rows) else "no failures")
for r in rows:
    # A background step that fails fails every test of its file: one line, with the count.
    seen = {}
    for where, test, step, column, detail in r["failures"]:
        seen.setdefault((where, step, column, detail), []).append(test)
    for (where, step, column, detail), tests in seen.items():
        which = tests[0] if len(tests) == 1 else f"{len(tests)} tests"
        print(f'  {r["build"]:<16} {where:<22} {step}  → {column} ({detail}); {which}')
for r in rows:
    if r["rc"] not in ("0", "1"):
        print(f'{r["build"]}: prettyplay run exited {r["rc"]}; see its output (--keep)')
    if r["vacuous"]:
        print(f'{r["build"]}: {r["vacuous"]} passed steps with a vacuous check')

if defect:
    # The tests that check the counter: a step `the page says "N item(s) left"`.
    counter = re.compile(r'^the page says "\d+ items? left"$')
    checks = set()
    for file in sorted(os.listdir(os.path.join(suite, "scenarios"))):
        test = None
        for line in open(os.path.join(suite, "scenarios", file), encoding="utf-8"):
            line = line.strip()
            if line.startswith("test:"):
                test = line[len("test:"):].strip()
            elif test and counter.match(line):
                checks.add((f"scenarios/{file}", test))
    (r,) = rows
    by_column = {}
    at_counter = 0
    failed_checks = 0
    for e in events(os.path.join(tmp, r["build"], "run", "events.jsonl")):
        if e.get("event") != "test_finished" or e["outcome"]["status"] in ("passed", "flaky"):
            continue
        key = (e["test"]["scenario"], e["test"]["name"])
        if key in checks:
            failed_checks += 1
            column, _ = label(e["outcome"])
            by_column[column] = by_column.get(column, 0) + 1
            at_counter += bool(counter.match(e["outcome"].get("step", "")))
    others_failed = r["failed"] - failed_checks
    print()
    print(f"seeded defect: {proven_on}'s counter shows one more than the active todos")
    print(f"  tests that check the counter: {len(checks)}; failed: {failed_checks} "
          f"({', '.join(f'{k} {v}' for k, v in sorted(by_column.items())) or 'none'}); "
          f"failed at a counter step: {at_counter}")
    total = r["green"] + r["failed"]
    print(f"  tests that do not check it: {total - len(checks)}; failed: {others_failed}")

bad = [r for r in rows if r["rc"] not in ("0", "1")]
sys.exit(3 if bad else 0)
PY
