#!/usr/bin/env python3
"""Compares the time each step's code takes in prettyplay with the time the same code takes in the
plain playwright-core script (scripts/bench_plain.js, the floor): what prettyplay adds per step
(the sandbox, the binding, the events), apart from the context, navigation and browser costs
both pay alike.

    node scripts/bench_plain.js SUITE BASE_URL     with BENCH_STEPS=plain.jsonl, N times
    prettyplay replay --strict --events pp-K.jsonl  N times, alternating
    scripts/bench_steps.py --plain plain.jsonl pp-1.jsonl pp-2.jsonl ...

Steps are matched by their code. Prints, per run, the total step time of each side and their
ratio, then the median over the runs, and the median per-step difference of the steps with the
least browser work (the fixed cost a step pays).
"""
import argparse
import collections
import json
import statistics


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plain", required=True, help="BENCH_STEPS file of bench_plain.js")
    parser.add_argument("events", nargs="+", help="prettyplay --events files, one per run")
    args = parser.parse_args()

    plain = collections.defaultdict(list)
    with open(args.plain, encoding="utf-8") as lines:
        for line in lines:
            entry = json.loads(line)
            plain[entry["code"].strip()].append(entry["ms"])
    mine = collections.defaultdict(list)
    runs = []
    for path in args.events:
        total = 0
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                event = json.loads(line)
                if event.get("event") == "step_passed" and event.get("code"):
                    code = event["code"].strip()
                    if code in plain:
                        mine[code].append(event["duration_ms"])
                        total += event["duration_ms"]
        runs.append(total)
    if not mine:
        raise SystemExit("bench_steps: no step of the events is in the plain script's file")
    # The plain side's total for the same steps, per run: its file holds every run, so it is
    # divided by how many runs of the suite its step count makes.
    steps_per_run = sum(len(times) for times in mine.values()) / len(runs)
    plain_runs = round(sum(len(times) for times in plain.values()) / steps_per_run) or 1
    plain_total = sum(sum(times) for times in plain.values()) / plain_runs
    mine_total = statistics.median(runs)
    print(f"steps matched: {len(mine)} distinct; runs: {len(runs)} prettyplay, {plain_runs} plain")
    print(f"step time per run: prettyplay {mine_total / 1000:.2f} s (median of "
          f"{' '.join(f'{r / 1000:.2f}' for r in runs)}), plain {plain_total / 1000:.2f} s (mean): "
          f"{mine_total / plain_total:.3f}x")
    cheapest = sorted(mine, key=lambda code: statistics.median(plain[code]))[:5]
    diffs = [statistics.median(mine[code]) - statistics.median(plain[code]) for code in cheapest]
    print(f"fixed cost a step pays (the 5 cheapest steps, median difference): "
          f"{statistics.median(diffs):+.1f} ms")


if __name__ == "__main__":
    main()
