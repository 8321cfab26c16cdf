#!/usr/bin/env python3
"""Measures Chromium launch flags one at a time (docs/benchmarks.md, "Chromium flags").

Runs `prettyplay replay --strict -j 1` on the demo suite (scenarios/ and cache/, the demo app
served by demo_server), once per configuration per round, alternating, and prints the median
wall time and the median CPU time of the whole process tree (prettyplay, the driver, Chromium:
the user + system time the kernel reports for reaped children; the script makes itself the
subreaper of the tree, so processes orphaned on the way out are reaped and counted too). Each
configuration is a small wrapper script given as `[browser] executable`, which runs Chromium
with prettyplay's own flags (and Playwright's) plus the flags under test.

    scripts/bench_flags.py                          7 rounds, the built-in list of candidates
    BENCH_RUNS=9 scripts/bench_flags.py --flag=--in-process-gpu --flag=--num-raster-threads=1

Needs a release build (`cargo build --release --bin prettyplay --example demo_server`) and what
./setup installs. `baseline` runs /usr/bin/chromium (Debian's launcher script); the others run
the binary behind it, /usr/lib/chromium/chromium, so `direct` measures the launcher itself and
each flag is compared with `direct`."""

import argparse, ctypes, os, re, resource, shutil, statistics, subprocess, sys, tempfile
import threading, time

PR_SET_CHILD_SUBREAPER = 36


class Reaper:
    """Reaps, while a run goes on, the processes of its tree orphaned to this script (the
    subreaper), but never the run's own process (its Popen waits for that). Reaping at once
    matters: a web server's process left a zombie would keep prettyplay waiting for its group."""

    def __init__(self):
        self.main = None
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def loop(self):
        while not self.stop.is_set():
            try:
                info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                info = None
            if info is not None and info.si_pid != self.main:
                try:
                    os.waitpid(info.si_pid, 0)
                except ChildProcessError:
                    pass
                continue
            time.sleep(0.01)

    def drain(self, limit=10.0):
        """After a run: waits until no orphan is left (or `limit` passes)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            try:
                if os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
                    time.sleep(0.02)
            except ChildProcessError:
                return

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
LAUNCHER = "/usr/bin/chromium"
BINARY = os.environ.get("BENCH_CHROMIUM_BINARY", "/usr/lib/chromium/chromium")

# name -> (executable, extra flags)
CANDIDATES = [
    ("baseline", LAUNCHER, []),
    ("direct", BINARY, []),
    ("in-process-gpu", BINARY, ["--in-process-gpu"]),
    ("num-raster-threads=1", BINARY, ["--num-raster-threads=1"]),
    ("no-zygote", BINARY, ["--no-zygote"]),
    ("disable-gpu-compositing", BINARY, ["--disable-gpu-compositing"]),
]


def wrapper(work, name, executable, flags):
    path = os.path.join(work, "chromium-" + re.sub(r"[^A-Za-z0-9=._-]", "_", name))
    with open(path, "w") as f:
        f.write("#!/bin/sh\nexec " + " ".join([executable, *flags]) + ' "$@"\n')
    os.chmod(path, 0o755)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flag", action="append", default=[],
                        help="measure this flag (instead of the built-in candidates)")
    args = parser.parse_args()
    runs = int(os.environ.get("BENCH_RUNS", "7"))
    prettyplay = os.path.join(TARGET, "release", "prettyplay")
    server = os.path.join(TARGET, "release", "examples", "demo_server")
    for path in (prettyplay, server, LAUNCHER, BINARY):
        if not os.path.exists(path):
            sys.exit(f"bench_flags: {path} is missing (cargo build --release --bin prettyplay "
                     "--example demo_server; ./setup)")
    candidates = CANDIDATES[:2] + [(f.lstrip("-"), BINARY, [f]) for f in args.flag] \
        if args.flag else CANDIDATES
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("bench_flags: prctl(PR_SET_CHILD_SUBREAPER) failed: CPU times would be partial")
    reaper = Reaper()
    work = tempfile.mkdtemp(prefix="prettyplay-bench-flags-")
    try:
        for part in ("scenarios", "cache", "demo"):
            shutil.copytree(os.path.join(ROOT, part), os.path.join(work, part))
        configs = [(name, wrapper(work, name, exe, flags)) for name, exe, flags in candidates]
        results = {name: ([], []) for name, _ in configs}
        env = dict(os.environ, DEMO_PASSWORD="secret")
        for round_ in range(runs + 1):
            for name, chromium in configs:
                with open(os.path.join(work, "prettyplay.toml"), "w") as f:
                    f.write(f'[browser]\nexecutable = "{chromium}"\n[vars]\nDEMO_USER = "alice"\n'
                            f'[web_server]\ncommand = "{server} demo 127.0.0.1:4199"\n'
                            'url = "http://127.0.0.1:4199"\n')
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                started = time.monotonic()
                run = subprocess.Popen([prettyplay, "replay", "--strict", "-j", "1"], cwd=work,
                                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
                reaper.main = run.pid
                output, _ = run.communicate()
                done = subprocess.CompletedProcess(run.args, run.returncode, output)
                wall = time.monotonic() - started
                reaper.drain()
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                if done.returncode != 0:
                    sys.exit(f"bench_flags: {name} failed:\n{done.stdout.decode()}")
                cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
                if round_ > 0:  # the first round warms the caches
                    results[name][0].append(wall)
                    results[name][1].append(cpu)
                print(f"round {round_} {name}: {wall:.2f} s wall, {cpu:.2f} cpu-s", flush=True)
        print(f"\n{runs} rounds after a warm-up, -j 1, demo suite; `direct` is compared with "
              "`baseline`, each flag with `direct`\n")
        print("| configuration | wall (median) | vs reference | CPU (median) | vs reference |")
        print("|---|---|---|---|---|")
        for name, _ in configs:
            reference = "baseline" if name in ("baseline", "direct") else "direct"
            ref_wall = statistics.median(results[reference][0])
            ref_cpu = statistics.median(results[reference][1])
            wall = statistics.median(results[name][0])
            cpu = statistics.median(results[name][1])
            print(f"| {name} | {wall:.2f} s | {100 * (wall / ref_wall - 1):+.1f} % | "
                  f"{cpu:.2f} cpu-s | {100 * (cpu / ref_cpu - 1):+.1f} % |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
