#!/usr/bin/env python3
"""Measures the built-in generator (docs/builtin.md) against the demo app, in three parts:

1. **Share proven**: runs the suites with an empty cache and no [llm], and prints the share of
   their steps the built-in generator proved and the median time of a generated step. A test
   stops at its first failing step, so the steps after a declined one are measured by running
   again without it (the declined line is commented out in a copy of the file) until every
   remaining step passes.
2. **The declined steps an LLM then wrote** (with `--replies FILE.json`): runs the original
   suites again with an empty cache, `[generate] builtin = "first"` and an `[llm]` pointing at a
   scripted fake (an OpenAI-compatible server on 127.0.0.1 started by this script) that answers
   each sentence with the code FILE maps it to; prints how many of the declined steps the LLM's
   code then proved.
3. **Time per step, built-in against the fake LLM's round trip** (`--rounds N`, default 3): the
   steps part 1 proved, alternating an empty-cache run with `builtin = "only"` and one with
   `builtin = "off"` whose fake LLM answers each sentence with the very code the built-in
   generator wrote; the same code is proven either way, so the difference is what the request
   costs (snapshot, prompt, HTTP, reply parsing) with a model that answers at once.

Usage:

    scripts/builtin_bench.py [--replies FILE.json] [--rounds N] [SUITE.steps ...]
        (default suites: scenarios/*.steps)

It needs a built `prettyplay` and `demo_server` (debug or release; PRETTYPLAY=path overrides)."""

import argparse, glob, http.server, json, os, shutil, statistics, subprocess, sys, tempfile
import threading, tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))


def binary(name, sub=""):
    for profile in ("release", "debug"):
        path = os.path.join(TARGET, profile, sub, name)
        if os.path.exists(path):
            return path
    sys.exit(f"no {name} under {TARGET}: cargo build (--examples)")


class FakeLlm:
    """An OpenAI-compatible chat-completions server on 127.0.0.1 that answers a generation
    request with the code `replies` maps its STEP sentence to (a throwing step when none)."""

    def __init__(self):
        self.replies = {}
        self.asked = []
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                text = body["messages"][-1]["content"]
                if isinstance(text, list):
                    text = "".join(part.get("text", "") for part in text)
                sentence = text.split("STEP:\n", 1)[-1].split("\n", 1)[0]
                fake.asked.append(sentence)
                code = fake.replies.get(
                    sentence,
                    "async function step(page) {\n  throw new Error('no scripted reply');\n}")
                reply = json.dumps({
                    "id": "fake", "object": "chat.completion", "model": "fake",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant",
                                             "content": f"```js\n{code}\n```"}}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5,
                              "total_tokens": 15}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def base_url(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


class Project:
    """A temporary project: the demo app served by `demo_server`, and copies of the suites."""

    def __init__(self, suites, prettyplay, server):
        self.prettyplay = prettyplay
        self.server = server
        self.suites = suites
        self.dir = tempfile.mkdtemp(prefix="builtin-bench-")
        shutil.copytree(os.path.join(ROOT, "demo"), os.path.join(self.dir, "demo"))
        self.env = dict(os.environ, DEMO_PASSWORD="secret")
        for var in list(self.env):
            if var.startswith(("PRETTYPLAY_LLM", "PRETTYPLAY_GENERATE")):
                del self.env[var]
        self.restore()

    def restore(self):
        """The suites as given (undoing what part 1 commented out)."""
        shutil.rmtree(os.path.join(self.dir, "scenarios"), ignore_errors=True)
        os.makedirs(os.path.join(self.dir, "scenarios"))
        for suite in self.suites:
            shutil.copy(suite, os.path.join(self.dir, "scenarios"))

    def configure(self, builtin, llm=None):
        with open(os.path.join(self.dir, "prettyplay.toml"), "w") as f:
            f.write('[vars]\nDEMO_USER = "alice"\n'
                    f'[generate]\nbuiltin = "{builtin}"\n'
                    '[web_server]\n'
                    f'command = "{self.server} demo 127.0.0.1:4191"\n'
                    'url = "http://127.0.0.1:4191"\n')
            if llm:
                f.write(f'[llm]\nprovider = "openai"\nmodel = "fake"\nbase_url = "{llm}"\n')

    def run(self):
        """Runs with an empty cache; returns the events. A run that did not get to its tests
        (exit 2 or 3: bad input, a web server or browser that did not start) stops the script."""
        shutil.rmtree(os.path.join(self.dir, "cache"), ignore_errors=True)
        events = os.path.join(self.dir, "events.jsonl")
        if os.path.exists(events):
            os.remove(events)
        done = subprocess.run([self.prettyplay, "run", "-j", "1", "--events", events],
                              cwd=self.dir, env=self.env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT)
        read = [json.loads(line) for line in open(events)] if os.path.exists(events) else []
        if done.returncode not in (0, 1) or not any(e["event"] == "run_finished" for e in read):
            sys.exit(f"builtin_bench: the run exited {done.returncode} without finishing:\n"
                     f"{done.stdout.decode(errors='replace')}")
        return read

    def cached_code(self):
        """sentence -> code, from the cache the last run wrote."""
        codes = {}
        for path in glob.glob(os.path.join(self.dir, "cache", "**", "*.toml"), recursive=True):
            with open(path, "rb") as f:
                document = tomllib.load(f)
            for entry in document.get("steps", []) + document.get("background", []):
                codes[entry["step"]] = entry["code"].rstrip("\n")
        return codes


def generated(events, by):
    """Durations (ms) of the steps generated by `by` that passed."""
    return [e["duration_ms"] for e in events
            if e["event"] == "step_passed" and e["source"] == "generated" and e.get("by") == by]


def median(values):
    return f"{statistics.median(values):.0f} ms (n={len(values)})" if values else "-"


def share_proven(project):
    project.configure("only")
    declined, durations, total = [], [], None
    for _ in range(60):
        events = project.run()
        # A shared step (a background) fails in every test that reaches it: once here.
        failed = sorted({(e["test"]["scenario"], e["line"], e["sentence"])
                         for e in events if e["event"] == "step_failed"})
        if total is None:
            total = sum(
                1 for suite in project.suites for l in open(suite)
                if l.startswith("  ") and not l.strip().startswith(("#", "|", "examples:")))
        if not failed:
            durations = generated(events, "builtin")
            break
    else:
        sys.exit("builtin_bench: steps still failed after 60 runs")
        for scenario, line, sentence in failed:
            declined.append(sentence)
            path = os.path.join(project.dir, scenario)
            lines = open(path).read().split("\n")
            lines[line - 1] = "  # declined: " + lines[line - 1].strip()
            open(path, "w").write("\n".join(lines))
    proven = len(durations)
    print(f"suite: {', '.join(os.path.relpath(s, ROOT) for s in project.suites)}")
    print(f"steps run: {proven + len(declined)} ({total} lines)")
    print(f"proven by the built-in generator: {proven} "
          f"({100.0 * proven / max(1, proven + len(declined)):.0f}%)")
    print(f"declined or failed: {len(declined)}")
    for sentence in declined:
        print(f"  - {sentence}")
    print(f"median time of a generated step (snapshot, write, prove): {median(durations)}")
    return declined


def llm_wrote_declined(project, declined, replies):
    fake = FakeLlm()
    fake.replies = replies
    project.restore()
    project.configure("first", fake.base_url())
    events = project.run()
    wrote = {e["sentence"] for e in events
             if e["event"] == "step_passed" and e.get("by") == "llm"}
    asked = set(fake.asked)
    print(f"declined steps the scripted LLM then wrote and proved: "
          f"{len(wrote & set(declined))} of {len(declined)}")
    for sentence in declined:
        state = "proven" if sentence in wrote else ("asked, failed" if sentence in asked
                                                    else "not reached")
        print(f"  - {sentence}: {state}")
    print(f"LLM requests: {len(fake.asked)} (for {len(asked)} distinct sentences)")
    fake.server.shutdown()


def builtin_against_llm(project, rounds):
    fake = FakeLlm()
    builtin, llm, http = [], [], []
    for _ in range(rounds):
        project.configure("only")
        events = project.run()
        builtin += generated(events, "builtin")
        fake.replies = project.cached_code()
        project.configure("off", fake.base_url())
        events = project.run()
        llm += generated(events, "llm")
        http += [e["elapsed_ms"] for e in events if e["event"] == "llm_call"]
    print(f"median generated step, {rounds} rounds alternating, the same code either way:")
    print(f"  written by the built-in generator: {median(builtin)}")
    print(f"  written by the fake LLM (answers at once): {median(llm)}")
    print(f"  of which the HTTP round trip to the fake: {median(http)}")
    fake.server.shutdown()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replies", help="JSON: sentence -> code the fake LLM answers")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("suites", nargs="*")
    args = parser.parse_args()
    suites = args.suites or sorted(glob.glob(os.path.join(ROOT, "scenarios", "*.steps")))
    prettyplay = os.environ.get("PRETTYPLAY") or binary("prettyplay")
    project = Project(suites, prettyplay, binary("demo_server", "examples"))
    declined = share_proven(project)
    if args.rounds > 0:
        builtin_against_llm(project, args.rounds)
    if args.replies:
        replies = {k: v for k, v in json.load(open(args.replies)).items()
                   if not k.startswith("_")}
        llm_wrote_declined(project, declined, replies)
    shutil.rmtree(project.dir, ignore_errors=True)


if __name__ == "__main__":
    main()
