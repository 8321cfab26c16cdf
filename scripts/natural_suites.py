#!/usr/bin/env python3
"""Measures the built-in generator on the natural-language suites (tests/fixtures/natural/*):
suites written the way a QA engineer writes them, for six apps prettyplay's authors did not
write (three TodoMVC builds, MDN's validation form, MDN's Can Store and saucelabs' the-internet).

For each suite it serves the app's directory on a free 127.0.0.1 port (Python's http.server in a
thread; the-internet, a Sinatra app, through scripts/the-internet.sh, which needs Ruby and a
snapshot of the app's repository: see that script), copies the suite to a temporary directory and runs `prettyplay run --base-url URL` there
with an empty cache and no LLM (the suites' prettyplay.toml has no [llm]; PRETTYPLAY_LLM_* and
PRETTYPLAY_GENERATE_* are removed from the environment). Then:

1. **Green on the first run**: the share of tests that passed on that first run.
2. **Steps proven**: a test stops at its first failing step, so, as scripts/builtin_bench.py means
   to, the failing lines are commented out in the copy and the suite runs again (empty cache
   each time) until every remaining step passes. A step is proven when it passed in that last
   run; a step that was declined (the generator wrote nothing) or failed (its code failed on the
   page) in any round is not. A step after a commented-out action may fail only because that
   action is missing: such failures are marked with their round (round 1 = the first run, where
   every failure is genuine).
3. **Audit**: `prettyplay audit` on the cache that last run wrote; every check it calls vacuous
   (passes on a page changed to contradict it) and every check the run recorded without a
   mutation proof (`proof` starting `none:`) is listed.

Usage:

    scripts/natural_suites.py [-v] [--rounds N] [--keep] [SUITE ...]
        SUITE: todomvc-react, todomvc-vue, todomvc-jquery, form-validation, can-store,
        the-internet (default: the first five, which need nothing but Python)

PRETTYPLAY=path selects the binary (default: target/release/prettyplay, then target/debug)."""

import argparse, functools, http.server, json, os, re, shutil, socket, subprocess, sys
import tempfile, threading, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
NATURAL = os.path.join(ROOT, "tests", "fixtures", "natural")

# suite -> the directory its app is served from
APPS = {
    "todomvc-react": "tests/fixtures/todomvc/react",
    "todomvc-vue": "tests/fixtures/todomvc/vue",
    "todomvc-jquery": "tests/fixtures/todomvc/jquery",
    "form-validation": "tests/fixtures/apps/form-validation",
    "can-store": "tests/fixtures/apps/can-store",
}

# suite -> the script that serves its app on the port given as its argument (apps that are not
# static files; their code is not in this repository)
SERVED = {
    "the-internet": "scripts/the-internet.sh",
}
DEFAULT = list(APPS)

HEADER = re.compile(r"^\s*test:")
NOT_A_STEP = ("#", "|", "examples:", "background:")


def binary():
    if os.environ.get("PRETTYPLAY"):
        return os.environ["PRETTYPLAY"]
    for profile in ("release", "debug"):
        path = os.path.join(TARGET, profile, "prettyplay")
        if os.path.exists(path):
            return path
    sys.exit(f"no prettyplay under {TARGET}: cargo build --release, or set PRETTYPLAY")


def serve(directory):
    """Serves `directory` on a free 127.0.0.1 port from a thread; returns the server."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Served:
    """An app served by its script on a free 127.0.0.1 port, in its own process group."""

    def __init__(self, script):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.server_address = ("127.0.0.1", port)
        # The app logs every request: to a file, because a pipe nobody reads fills and stops it.
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen([os.path.join(ROOT, script), str(port)],
                                        stdout=self.log, stderr=self.log,
                                        start_new_session=True)
        url = f"http://127.0.0.1:{port}/"
        for _ in range(120):
            if self.process.poll() is not None:
                self.log.seek(0)
                sys.exit(f"natural_suites: {script} stopped: "
                         f"{self.log.read().decode(errors='replace')}")
            try:
                urllib.request.urlopen(url, timeout=2).read()
                return
            except OSError:
                time.sleep(0.5)
        self.shutdown()
        sys.exit(f"natural_suites: {script} did not answer on {url} within a minute")

    def shutdown(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def is_step(line):
    s = line.strip()
    return bool(s) and not s.startswith(NOT_A_STEP) and not HEADER.match(line)


def step_lines(project):
    """(scenario, line) -> sentence (options stripped as written) of every step of the copy."""
    steps = {}
    for scenario in scenario_files(project):
        for number, line in enumerate(open(os.path.join(project, scenario)), 1):
            if is_step(line):
                steps[(scenario, number)] = line.strip()
    return steps


def background_lines(project):
    """scenario -> the line numbers of its background's steps."""
    found = {}
    for scenario in scenario_files(project):
        inside = False
        for number, line in enumerate(open(os.path.join(project, scenario)), 1):
            if line.strip().startswith("background:"):
                inside = True
            elif HEADER.match(line):
                break
            elif inside and is_step(line):
                found.setdefault(scenario, set()).add(number)
    return found


def scenario_files(project):
    found = []
    for dirpath, _, files in os.walk(os.path.join(project, "scenarios")):
        for name in files:
            if name.endswith(".steps"):
                found.append(os.path.relpath(os.path.join(dirpath, name), project))
    return sorted(found)


def comment_out(project, scenario, line_numbers):
    """Comments out the given lines; then a test (or a background) left without steps loses its
    header too, and a file left without tests is removed, so that the copy still parses."""
    path = os.path.join(project, scenario)
    lines = open(path).read().split("\n")
    for number in line_numbers:
        lines[number - 1] = "  # not proven: " + lines[number - 1].strip()
    # blocks: a header (test: or background:) and the step lines up to the next header
    headers = [i for i, l in enumerate(lines)
               if HEADER.match(l) or l.strip().startswith("background:")]
    for k, start in enumerate(headers):
        end = headers[k + 1] if k + 1 < len(headers) else len(lines)
        if not any(is_step(l) for l in lines[start + 1:end]):
            lines[start] = "# no step left: " + lines[start].strip()
    if not any(HEADER.match(l) for l in lines):
        os.remove(path)
        return
    open(path, "w").write("\n".join(lines))


def run(prettyplay, project, url, env, command="run"):
    """Runs `prettyplay COMMAND` in the copy; returns (exit code, output, events)."""
    events = os.path.join(project, "events.jsonl")
    if os.path.exists(events):
        os.remove(events)
    done = subprocess.run([prettyplay, command, "-j", "1", "--base-url", url, "--color", "never",
                           "--events", events],
                          cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    read = [json.loads(line) for line in open(events)] if os.path.exists(events) else []
    return done.returncode, done.stdout.decode(errors="replace"), read


def failures(events):
    """(scenario, line) -> (sentence, reason) of each test's failing step."""
    failed = {}
    for e in events:
        if e["event"] != "test_finished" or e["outcome"].get("status") == "passed":
            continue
        outcome = e["outcome"]
        if "line" not in outcome:
            continue
        cause = outcome.get("cause") or {}
        kind = cause.get("kind") or cause.get("type") or outcome.get("status")
        reason = cause.get("reason") or cause.get("message") or json.dumps(cause)[:300]
        reason = reason.split("\n\nthe sentences it understands")[0].strip()
        failed[(e["test"]["scenario"], outcome["line"])] = (
            outcome.get("step", "?"), f"{kind}: {' '.join(reason.split())}", e["test"]["line"])
    return failed


def first_run_tests(events):
    """Each test of the first run: (scenario, line, name) -> (status, failing step, its line,
    the failure's kind and reason, the origins outside allowed_origins its pages reached for and
    what became of them)."""
    origins = {}
    for e in events:
        if e["event"] == "origins_seen":
            key = (e["test"]["scenario"], e["test"]["line"])
            for seen in e.get("origins", []):
                origins.setdefault(key, set()).add(f"{seen['origin']} {seen['outcome']}")
    tests = {}
    for e in events:
        if e["event"] != "test_finished":
            continue
        test, outcome = e["test"], e["outcome"]
        cause = outcome.get("cause") or {}
        kind = cause.get("kind") or cause.get("type") or outcome.get("status")
        reason = cause.get("reason") or cause.get("message") or ""
        reason = " ".join(reason.split("\n\nthe sentences it understands")[0].split())
        tests[(test["scenario"], test["line"], test["name"])] = (
            outcome.get("status"), outcome.get("step_index"), outcome.get("line"),
            "" if outcome.get("status") == "passed" else f"{kind}: {reason}",
            sorted(origins.get((test["scenario"], test["line"]), ())))
    return tests


def measure(name, prettyplay, rounds, keep):
    server = Served(SERVED[name]) if name in SERVED else serve(os.path.join(ROOT, APPS[name]))
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    project = tempfile.mkdtemp(prefix=f"natural-{name}-")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PRETTYPLAY_LLM", "PRETTYPLAY_GENERATE", "PRETTYPLAY_BROWSER"))}
    try:
        shutil.copy(os.path.join(NATURAL, name, "prettyplay.toml"), project)
        shutil.copytree(os.path.join(NATURAL, name, "scenarios"),
                        os.path.join(project, "scenarios"))
        steps = step_lines(project)
        background = background_lines(project)
        removed = set()
        not_proven = {}  # (scenario, line) -> (round, sentence, reason, removed lines before)
        tests_first = green_first = 0
        proven = set()
        for round_ in range(1, rounds + 1):
            shutil.rmtree(os.path.join(project, "cache"), ignore_errors=True)
            code, output, events = run(prettyplay, project, url, env)
            if code not in (0, 1) or not any(e["event"] == "run_finished" for e in events):
                sys.exit(f"natural_suites: {name}: round {round_} exited {code} without "
                         f"finishing:\n{output}")
            finished = [e for e in events if e["event"] == "test_finished"]
            if round_ == 1:
                tests_first = len(finished)
                green_first = sum(1 for e in finished if e["outcome"]["status"] == "passed")
                first_run = first_run_tests(events)
            failed = failures(events)
            if not failed:
                if code != 0:
                    sys.exit(f"natural_suites: {name}: exit {code} with no failed step:\n{output}")
                proven = {(e["test"]["scenario"], e["line"]) for e in events
                          if e["event"] == "step_passed"}
                break
            by_file = {}
            for (scenario, line), (sentence, reason, test_line) in failed.items():
                # the lines of this test (or of its file's background) before this one that an
                # earlier round commented out: this failure may only follow from their absence
                before = sorted(l for (s, l) in removed if s == scenario and l < line
                                and (l > test_line or l in background.get(scenario, ())))
                not_proven[(scenario, line)] = (round_, sentence, reason, before)
                by_file.setdefault(scenario, []).append(line)
            removed.update(failed)
            for scenario, lines in by_file.items():
                comment_out(project, scenario, lines)
        else:
            sys.exit(f"natural_suites: {name}: steps still failed after {rounds} rounds")
        # the audit of the cache the last (all green) run wrote
        audit_code, audit_output, audit_events = run(prettyplay, project, url, env, "audit")
        vacuous, unproven = [], []
        for e in audit_events:
            if e["event"] != "step_passed" or not e.get("proof"):
                continue
            where = (e["test"]["scenario"], e["line"])
            if e["proof"].startswith("vacuous"):
                vacuous.append((where, e["sentence"], e["proof"]))
            elif e["proof"].startswith("none"):
                unproven.append((where, e["sentence"], e["proof"]))
        vacuous = sorted(set(vacuous))
        unproven = sorted(set(unproven))
        audit_failed = failures(audit_events)
        return {
            "name": name, "steps": steps, "proven": proven & set(steps),
            "not_proven": not_proven, "tests": tests_first, "green": green_first,
            "rounds": round_, "vacuous": vacuous, "unproven": unproven,
            "audit_code": audit_code, "audit_failed": audit_failed,
            "audit_output": audit_output, "first_run": first_run,
        }
    finally:
        server.shutdown()
        if keep:
            print(f"({name}: kept {project})", file=sys.stderr)
        else:
            shutil.rmtree(project, ignore_errors=True)


def write_markdown(path, prettyplay, results, first_run=False):
    out = ["| suite | steps | proven | tests green on the first run | rounds | vacuous | "
           "unproven |", "|---|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        n, p = len(r["steps"]), len(r["proven"])
        out.append(f"| {r['name']} | {n} | {p} ({100.0 * p / max(1, n):.0f}%) | "
                   f"{r['green']}/{r['tests']} | {r['rounds']} | {len(r['vacuous'])} | "
                   f"{len(r['unproven'])} |")
    n = sum(len(r["steps"]) for r in results)
    p = sum(len(r["proven"]) for r in results)
    t = sum(r["tests"] for r in results)
    g = sum(r["green"] for r in results)
    out.append(f"| all | {n} | {p} ({100.0 * p / max(1, n):.0f}%) | {g}/{t} | | | |")
    for r in results:
        out += ["", f"### {r['name']}: not proven ({len(r['not_proven'])})", "",
                "| where | round | sentence | why (the run's reason) |", "|---|---|---|---|"]
        for (scenario, line), (round_, sentence, reason, before) in sorted(
                r["not_proven"].items()):
            after = f" (after removed {', '.join(map(str, before))})" if before else ""
            cell = lambda text: text.replace("|", "\\|")
            out.append(f"| {scenario}:{line} | {round_}{after} | {cell(sentence)} | "
                       f"{cell(reason)} |")
        for where, sentence, proof in r["vacuous"] + r["unproven"]:
            out.append(f"| {where[0]}:{where[1]} | audit | {sentence} | {proof} |")
        if first_run:
            out += ["", f"### {r['name']}: the first run, test by test", "",
                    "| test | outcome | failed at | why | origins outside allowed_origins |",
                    "|---|---|---|---|---|"]
            cell = lambda text: str(text).replace("|", "\\|")
            for (scenario, line, test), (status, index, at, why, seen) in sorted(
                    r["first_run"].items()):
                where = f"step {index} (line {at})" if status != "passed" else ""
                out.append(f"| {scenario}:{line} {cell(test)} | {status} | {where} | "
                           f"{cell(why[:300])} | {cell(', '.join(seen))} |")
    open(path, "w").write("\n".join(out) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="list each step not proven, with the reason its run gave")
    parser.add_argument("--rounds", type=int, default=30,
                        help="most runs per suite while commenting out failing steps")
    parser.add_argument("--keep", action="store_true", help="keep the temporary projects")
    parser.add_argument("--markdown", metavar="FILE",
                        help="also write the table and every step not proven, with its reason, "
                             "to FILE as Markdown (tests/fixtures/natural/BASELINE.md)")
    parser.add_argument("--first-run", action="store_true",
                        help="with --markdown, also list every test of the first run: its "
                             "outcome, the step it failed at and why, and the origins outside "
                             "allowed_origins its pages reached for")
    parser.add_argument("suites", nargs="*", metavar="SUITE", help=", ".join([*APPS, *SERVED]))
    args = parser.parse_args()
    for name in args.suites:
        if name not in APPS and name not in SERVED:
            parser.error(f"unknown suite {name!r}: one of {', '.join([*APPS, *SERVED])}")
    prettyplay = binary()
    results = [measure(name, prettyplay, args.rounds, args.keep)
               for name in (args.suites or DEFAULT)]

    print(f"prettyplay: {prettyplay}")
    head = (f"{'suite':<16} {'steps':>5} {'proven':>13} {'tests green 1st run':>20} "
            f"{'rounds':>6} {'vacuous':>7} {'unproven':>8}")
    print(head)
    print("-" * len(head))
    total_steps = total_proven = total_tests = total_green = 0
    for r in results:
        n, p = len(r["steps"]), len(r["proven"])
        total_steps += n
        total_proven += p
        total_tests += r["tests"]
        total_green += r["green"]
        print(f"{r['name']:<16} {n:>5} {p:>5} ({100.0 * p / max(1, n):3.0f}%) "
              f"{r['green']:>8}/{r['tests']:<3} ({100.0 * r['green'] / max(1, r['tests']):3.0f}%) "
              f"{r['rounds']:>6} {len(r['vacuous']):>7} {len(r['unproven']):>8}")
    if len(results) > 1:
        print("-" * len(head))
        print(f"{'all':<16} {total_steps:>5} {total_proven:>5} "
              f"({100.0 * total_proven / max(1, total_steps):3.0f}%) "
              f"{total_green:>8}/{total_tests:<3} "
              f"({100.0 * total_green / max(1, total_tests):3.0f}%)")
    for r in results:
        for where, sentence, proof in r["vacuous"]:
            print(f"VACUOUS {r['name']} {where[0]}:{where[1]}: {sentence} ({proof})")
        for where, sentence, proof in r["unproven"]:
            print(f"UNPROVEN {r['name']} {where[0]}:{where[1]}: {sentence} ({proof})")
        for (scenario, line), (sentence, reason, _) in sorted(r["audit_failed"].items()):
            print(f"AUDIT FAILED {r['name']} {scenario}:{line}: {sentence}: {reason}")
    if args.markdown:
        write_markdown(args.markdown, prettyplay, results, args.first_run)
    if args.verbose:
        for r in results:
            print(f"\n{r['name']}: not proven ({len(r['not_proven'])})")
            for (scenario, line), (round_, sentence, reason, before) in sorted(
                    r["not_proven"].items()):
                after = (f", after removed line(s) {', '.join(map(str, before))}"
                         if before else "")
                print(f"  {scenario}:{line} [round {round_}{after}] {sentence}\n"
                      f"      {reason}")


if __name__ == "__main__":
    main()
