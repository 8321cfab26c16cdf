#!/usr/bin/env python3
"""Measures the built-in generator (docs/builtin.md): runs a suite with an empty cache and no
[llm] against the demo app, and prints the share of its steps the built-in generator proved and
the median time of a generated step.

A test stops at its first failing step, so the steps after a declined one are measured by
running again without it (the declined line is dropped from a copy of the file) until every
remaining step passes. Usage:

    scripts/builtin_bench.py [SUITE.steps ...]   (default: scenarios/*.steps)

It needs a built `prettyplay` and `demo_server` (debug or release; PRETTYPLAY=path overrides)."""

import json, os, shutil, statistics, subprocess, sys, tempfile, glob

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))


def binary(name, sub=""):
    for profile in ("release", "debug"):
        path = os.path.join(TARGET, profile, sub, name)
        if os.path.exists(path):
            return path
    sys.exit(f"no {name} under {TARGET}: cargo build (--examples)")


def main():
    suites = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, "scenarios", "*.steps")))
    prettyplay = os.environ.get("PRETTYPLAY") or binary("prettyplay")
    server = binary("demo_server", "examples")
    work = tempfile.mkdtemp(prefix="builtin-bench-")
    shutil.copytree(os.path.join(ROOT, "demo"), os.path.join(work, "demo"))
    os.makedirs(os.path.join(work, "scenarios"))
    for suite in suites:
        shutil.copy(suite, os.path.join(work, "scenarios"))
    with open(os.path.join(work, "prettyplay.toml"), "w") as f:
        f.write('[vars]\nDEMO_USER = "alice"\n[web_server]\n'
                f'command = "{server} demo 127.0.0.1:4191"\nurl = "http://127.0.0.1:4191"\n')
    env = dict(os.environ, DEMO_PASSWORD="secret")
    for var in list(env):
        if var.startswith("PRETTYPLAY_LLM"):
            del env[var]
    proven, declined, durations = [], [], []
    total = None
    for _ in range(60):
        shutil.rmtree(os.path.join(work, "cache"), ignore_errors=True)
        events = os.path.join(work, "events.jsonl")
        subprocess.run([prettyplay, "run", "-j", "1", "--events", events], cwd=work, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        failed, steps, passed = [], 0, []
        for line in open(events):
            event = json.loads(line)
            if event["event"] == "step_started":
                steps += 1
            elif event["event"] == "step_passed" and event["source"] == "generated":
                passed.append((event["test"]["scenario"], event["sentence"], event["duration_ms"]))
            elif event["event"] == "step_failed":
                failed.append((event["test"]["scenario"], event["line"], event["sentence"]))
        if total is None:
            total = sum(
                1 for suite in suites for l in open(suite)
                if l.startswith("  ") and not l.strip().startswith(("#", "|", "examples:")))
        if not failed:
            proven = passed
            durations = [d for (_, _, d) in passed]
            break
        for scenario, line, sentence in failed:
            declined.append(sentence)
            path = os.path.join(work, scenario)
            lines = open(path).read().split("\n")
            lines[line - 1] = "  # declined: " + lines[line - 1].strip()
            open(path, "w").write("\n".join(lines))
    runs_of_background = 0
    print(f"suite: {', '.join(os.path.relpath(s, ROOT) for s in suites)}")
    print(f"steps run: {len(proven) + len(declined)} ({total} lines)")
    print(f"proven by the built-in generator: {len(proven)} "
          f"({100.0 * len(proven) / max(1, len(proven) + len(declined)):.0f}%)")
    print(f"declined or failed: {len(declined)}")
    for sentence in declined:
        print(f"  - {sentence}")
    if durations:
        print(f"median time of a generated step (snapshot, write, prove): "
              f"{statistics.median(durations):.0f} ms (n={len(durations)})")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
