#!/usr/bin/env python3
"""Per-test phase medians of scripts/bench-compare: prettyplay's, from the timestamps of its
`--events` (run_elapsed_ms), against the plain playwright-core script's (bench_plain.js with
BENCH_PHASES) and Playwright Test's (the bench_pw_phases.js reporter), phase by phase.

    bench_phases.py --plain plain.jsonl [--pwtest pw.jsonl] [--over 10] events-1.jsonl ...

A prettyplay test's phases, each from one event to the next of the same test:

- context: `test_started` to the first `step_started`, less the browser's launch (`launch_ms` of
  its `test_timing`, for a worker's first test): its context and page, the guard's routes, the
  sandbox;
- first: the first step (a navigation in the benchmark's suites), `step_started` to its end;
- steps: the end of the first step to the end of the last;
- end: the end of the last step to `test_finished`: the guard's last look, the trace, closing
  the context; `close` is the part of it `test_timing.teardown_ms` counts, `before close` the
  rest;
- between: `test_finished` to the next test's `test_started`: the runner's own gap.

The plain script's and Playwright Test's phases are the same cuts as they measure them. A
prettyplay phase more than `--over` milliseconds (default 10) over the plain script's median is
marked `OVER`. Each phase's mean follows its median: a phase that is long in a few tests (the
floor a test's end keeps after a secret was typed) adds to the run's wall through its mean, not
its median. Exits 1 when a file holds no test.
"""
import argparse
import json
import statistics

STEP_ENDS = ("step_passed", "step_failed", "step_skipped")


def prettyplay_phases(paths):
    """The phases of every test of every events file, as dicts of milliseconds."""
    tests = []
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            events = [json.loads(line) for line in lines if line.strip()]
        open_tests = {}
        last_finished = None
        for event in events:
            kind = event.get("event")
            if "test" not in event and kind not in ("run_finished",):
                continue
            at = event.get("run_elapsed_ms")
            if at is None:
                raise SystemExit(f"bench_phases: {path}: events carry no run_elapsed_ms")
            key = json.dumps(event.get("test"), sort_keys=True)
            if kind == "test_started":
                open_tests[key] = {"started": at, "between": None if last_finished is None
                                   else at - last_finished}
            elif kind == "step_started" and key in open_tests:
                open_tests[key].setdefault("first_started", at)
            elif kind in STEP_ENDS and key in open_tests:
                test = open_tests[key]
                test.setdefault("first_ended", at)
                test["last_ended"] = at
            elif kind == "test_timing" and key in open_tests:
                open_tests[key]["launch"] = event.get("launch_ms", 0)
                open_tests[key]["teardown"] = event.get("teardown_ms", 0)
            elif kind == "test_finished" and key in open_tests:
                test = open_tests.pop(key)
                last_finished = at
                if "first_ended" not in test:
                    continue
                phases = {
                    "context": test["first_started"] - test["started"] - test.get("launch", 0),
                    "first": test["first_ended"] - test["first_started"],
                    "steps": test["last_ended"] - test["first_ended"],
                    "end": at - test["last_ended"],
                    "close": test.get("teardown", 0),
                }
                phases["before close"] = phases["end"] - phases["close"]
                if test["between"] is not None:
                    phases["between"] = test["between"]
                tests.append(phases)
    return tests


def lines_of(path):
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def median(tests, phase):
    values = [t[phase] for t in tests if phase in t]
    return statistics.median(values) if values else None


def mean(tests, phase):
    values = [t[phase] for t in tests if phase in t]
    return statistics.mean(values) if values else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plain", required=True, help="BENCH_PHASES file of bench_plain.js")
    parser.add_argument("--pwtest", help="BENCH_PW_PHASES file of the bench_pw_phases.js reporter")
    parser.add_argument("--over", type=float, default=10.0, help="ms over the plain script to mark")
    parser.add_argument("events", nargs="+", help="prettyplay --events files")
    args = parser.parse_args()

    mine = prettyplay_phases(args.events)
    plain = lines_of(args.plain)
    pwtest = []
    if args.pwtest:
        try:
            pwtest = lines_of(args.pwtest)
        except FileNotFoundError:
            print(f"bench_phases: no Playwright Test phases in {args.pwtest}")
    if not mine or not plain:
        raise SystemExit("bench_phases: no test in the prettyplay events or the plain script's file")
    print(f"tests: prettyplay {len(mine)}, plain {len(plain)}"
          + (f", Playwright Test {len(pwtest)}" if pwtest else ""))
    header = f"{'phase':<13} {'prettyplay':>10} {'plain':>8} {'over plain':>10}"
    if pwtest:
        header += f" {'pwtest':>8}"
    header += f" {'mean':>8} {'plain':>8} {'over':>8}"
    print(header + "   (medians, then means, per test, ms)")
    for phase in ("context", "first", "steps", "end", "before close", "close", "between"):
        ours = median(mine, phase)
        if ours is None:
            continue
        floor_phase = "end" if phase == "close" else phase
        floor = median(plain, floor_phase) if phase not in ("before close", "between") else None
        row = f"{phase:<13} {ours:>10.1f}"
        if floor is None:
            row += f" {'':>8} {'':>10}"
        else:
            over = ours - floor
            row += f" {floor:>8.1f} {over:>+10.1f}"
        if pwtest:
            theirs = median(pwtest, floor_phase) if floor is not None else None
            row += f" {theirs:>8.1f}" if theirs is not None else f" {'':>8}"
        if floor is not None:
            ours_mean, floor_mean = mean(mine, phase), mean(plain, floor_phase)
            row += f" {ours_mean:>8.1f} {floor_mean:>8.1f} {ours_mean - floor_mean:>+8.1f}"
        if floor is not None and ours - floor > args.over:
            row += "   OVER"
        print(row)


if __name__ == "__main__":
    main()
