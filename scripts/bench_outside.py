#!/usr/bin/env python3
"""Where scripts/bench-compare's whole-run wall time goes beyond the per-test phases: for each
way, each timed round's wall (as the benchmark timed it, process start to exit) less the sum of
its tests' phases, the median over the rounds. prettyplay's part is broken down from its
`--events` timestamps: before the run's clock starts (process start, settings, the cache, the
driver's start), the browser's launch (inside the first test), the runner's gaps between tests,
and from the last test's end to the process's exit.

    bench_outside.py PHASES_DIR SUITE WAY...

PHASES_DIR holds, per way, `SUITE.WAY.walls` (one `start end` line per timed round, in seconds)
and the phases: prettyplay's `SUITE.WAY.ROUND.jsonl` events, the plain script's and Playwright
Test's `SUITE.WAY.jsonl` (one line per test, every round in turn).

The tests of a prettyplay run are paired in order, as one worker (`-j 1`, the benchmark's) runs
them. Playwright Test's phases come from its reporter and do not cover a whole test (nor the
tests it could not cut), so its "outside" holds part of its tests too.

Medians of per-test phases (bench_phases.py) understate what a skewed phase costs the run: a
few tests with a long end add to the wall but not to the median. So the table also gives each
way's sum of phases per round, which with the part outside makes up the wall.
"""
import datetime
import json
import os
import statistics
import sys

PHASES = ("context", "first", "steps", "end")
STEP_ENDS = ("step_passed", "step_failed", "step_skipped")


def walls(directory, suite, way):
    path = os.path.join(directory, f"{suite}.{way}.walls")
    with open(path, encoding="utf-8") as lines:
        return [tuple(float(x) for x in line.split()) for line in lines if line.strip()]


def seconds(stamp):
    """An event's RFC 3339 timestamp as seconds since the epoch."""
    stamp = stamp.rstrip("Z")
    whole, _, fraction = stamp.partition(".")
    moment = datetime.datetime.fromisoformat(whole).replace(tzinfo=datetime.timezone.utc)
    return moment.timestamp() + (float("0." + fraction) if fraction else 0.0)


def prettyplay_round(path, start, end):
    """The parts of one prettyplay run, in milliseconds."""
    with open(path, encoding="utf-8") as lines:
        events = [json.loads(line) for line in lines if line.strip()]
    kinds = lambda kind: [e for e in events if e.get("event") == kind]
    started, finished = kinds("test_started"), kinds("test_finished")
    if not started or len(started) != len(finished):
        raise SystemExit(f"bench_outside: {path}: tests started and finished do not pair up")
    run_started, run_finished = kinds("run_started")[0], kinds("run_finished")[0]
    launch = sum(e.get("launch_ms", 0) for e in kinds("test_timing"))
    tests = sum(f["run_elapsed_ms"] - s["run_elapsed_ms"] for s, f in zip(started, finished))
    clock_started = seconds(run_started["timestamp"]) - run_started["run_elapsed_ms"] / 1000
    parts = {
        "before the run's clock": (clock_started - start) * 1000,
        "to the first test": started[0]["run_elapsed_ms"],
        "browser launch": launch,
        "between tests": sum(
            s["run_elapsed_ms"] - f["run_elapsed_ms"] for f, s in zip(finished, started[1:])
        ),
        "after the last test": (end - clock_started) * 1000 - finished[-1]["run_elapsed_ms"],
    }
    return tests - launch, parts


def other_rounds(path, rounds):
    """The sum of the four phases of each round's tests, from a file of every round in turn."""
    with open(path, encoding="utf-8") as lines:
        tests = [json.loads(line) for line in lines if line.strip()]
    if not rounds or not tests or len(tests) % rounds:
        print(f"bench_outside: {path}: {len(tests)} tests do not split into {rounds} rounds")
        return None
    size = len(tests) // rounds
    return [
        sum(t.get(p, 0) for t in tests[i * size:(i + 1) * size] for p in PHASES)
        for i in range(rounds)
    ]


def way_row(directory, suite, way):
    """One way's walls, the sum of its tests' phases in each round, and prettyplay's parts
    outside its tests (`None` for the other ways); `None` when its tests do not split."""
    timed = walls(directory, suite, way)
    parts = None
    if way.startswith("prettyplay"):
        rounds = [
            prettyplay_round(os.path.join(directory, f"{suite}.{way}.{n}.jsonl"), start, end)
            for n, (start, end) in enumerate(timed, 1)
        ]
        sums = [tests for tests, _ in rounds]
        parts = [outside for _, outside in rounds]
    else:
        sums = other_rounds(os.path.join(directory, f"{suite}.{way}.jsonl"), len(timed))
        if sums is None:
            return None
    wall = [(end - start) * 1000 for start, end in timed]
    return wall, sums, parts


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    directory, suite, ways = sys.argv[1], sys.argv[2], sys.argv[3:]
    print(f"{'way':<18} {'wall':>9} {'tests':>9} {'outside':>9}   (medians of the rounds, ms)")
    breakdown = {}
    for way in ways:
        try:
            row = way_row(directory, suite, way)
        except (OSError, ValueError, KeyError, IndexError, SystemExit) as err:
            print(f"{way:<18} no figures: {err}")
            continue
        if row is None:
            continue
        wall, sums, parts = row
        outside = [w - s for w, s in zip(wall, sums)]
        print(f"{way:<18} {statistics.median(wall):>9.0f} {statistics.median(sums):>9.0f} "
              f"{statistics.median(outside):>9.0f}")
        if parts:
            breakdown[way] = parts
    for way, rounds in breakdown.items():
        print(f"{way} outside its tests:")
        for part in rounds[0]:
            print(f"  {part:<24} {statistics.median(r[part] for r in rounds):>9.1f}")


if __name__ == "__main__":
    main()
