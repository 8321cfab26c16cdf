#!/usr/bin/env python3
"""Runs the `run:` lines of the GitHub Actions workflow `prettyplay init` writes, on this machine,
against a fresh clone of this repository: the local check that the workflow installs prettyplay,
Chromium and the driver and replays a new project, the way a fresh runner would.

    scripts/workflow_local.py [--keep] [--fresh-target]

What it does, in a new temporary directory:
  1. `git clone` this repository's HEAD (a fresh clone, as a runner would fetch) and tag it
     `v<version>`, the release tag the workflow installs from until crates.io has prettyplay;
  2. `prettyplay init project` with this checkout's target/release/prettyplay, which writes the
     workflow;
  3. runs the `replay` job's steps (shard 1/1), then the `merge` job's, in order: every `run:`
     block with bash -eo pipefail, as GitHub does, with HOME a new empty directory, GITHUB_PATH
     honoured, `${{ matrix.shard }}`, `${{ env.X }}` and `${{ strategy.job-index }}` filled in.
     The only change to the workflow: PRETTYPLAY_GIT, the repository's URL, points to the fresh
     clone (this machine reaches no git host). `uses:` steps are stood in for: checkout copies
     the project, upload/download-artifact copy files, cache restores nothing (the two jobs
     share HOME, which stands in for what actions/cache carries from one to the other).

The crates.io step of the install runs for real (and fails while prettyplay is unpublished, so
the git fallback runs). CARGO_HOME stays the user's (its registry cache); CARGO_TARGET_DIR is this
checkout's target/ so that only prettyplay itself is compiled (RUSTUP_HOME stays too) (--fresh-target builds everything
in a new directory: much longer). Needs PyYAML and, as root, apt-get (`prettyplay install
--with-deps chromium` installs only what is missing). Exits 1 when a step fails.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent


def version():
    for line in (REPO / "Cargo.toml").read_text().splitlines():
        if line.startswith("version = "):
            return line.split('"')[1]
    raise SystemExit("no version in Cargo.toml")


def fill(text, env, matrix):
    text = text.replace("${{ matrix.shard }}", matrix.get("shard", "1/1"))
    text = text.replace("${{ strategy.job-index }}", "0")
    for name, value in env.items():
        text = text.replace("${{ env.%s }}" % name, str(value))
    return text


def run_job(name, job, work, base_env, artifacts):
    print(f"== job {name}", flush=True)
    env = dict(base_env)
    env.update({k: str(v) for k, v in (job.get("env") or {}).items()})
    # The stand-in for the repository: the fresh clone.
    if "PRETTYPLAY_GIT" in env:
        env["PRETTYPLAY_GIT"] = base_env["LOCAL_GIT"]
    github_path = work / "github_path"
    github_path.write_text("")
    env["GITHUB_PATH"] = str(github_path)
    workspace = work / f"workspace-{name}"
    workspace.mkdir()
    failed = False
    for step in job["steps"]:
        label = step.get("name") or step.get("uses") or "run"
        if failed and step.get("if") != "always()":
            print(f"-- skipped: {label}")
            continue
        uses = step.get("uses", "")
        with_ = step.get("with") or {}
        if uses.startswith("actions/checkout"):
            shutil.copytree(base_env["PROJECT"], workspace, dirs_exist_ok=True)
            print(f"-- {label}: copied the project")
            continue
        if uses.startswith("actions/cache"):
            print(f"-- {label}: nothing cached (a first run)")
            continue
        if uses.startswith("actions/upload-artifact"):
            source = workspace / fill(with_["path"], env, {})
            target = artifacts / fill(with_["name"], env, {})
            if source.exists():
                shutil.copytree(source, target, dirs_exist_ok=True)
            print(f"-- {label}: {source} -> {target}")
            continue
        if uses.startswith("actions/download-artifact"):
            pattern = with_.get("pattern", "*")
            into = workspace / with_.get("path", ".")
            into.mkdir(parents=True, exist_ok=True)
            for found in artifacts.glob(pattern):
                shutil.copytree(found, into / found.name, dirs_exist_ok=True)
            print(f"-- {label}: {pattern} -> {into}")
            continue
        if uses:
            raise SystemExit(f"no stand-in for `uses: {uses}`")
        script = fill(step["run"], env, {"shard": "1/1"})
        extra = [p for p in github_path.read_text().splitlines() if p]
        step_env = dict(env)
        step_env["PATH"] = os.pathsep.join(reversed(extra) if extra else []) + (
            os.pathsep if extra else ""
        ) + env["PATH"]
        print(f"-- {label}\n{script}", flush=True)
        status = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
            cwd=workspace,
            env=step_env,
        ).returncode
        print(f"-- exit {status}: {label}", flush=True)
        if status != 0:
            failed = True
    return not failed


def main():
    keep = "--keep" in sys.argv
    fresh_target = "--fresh-target" in sys.argv
    work = Path(tempfile.mkdtemp(prefix="prettyplay-workflow-"))
    print(f"working in {work}")
    try:
        clone = work / "prettyplay"
        subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "tag", f"v{version()}"], check=True)
        project = work / "project"
        binary = REPO / "target/release/prettyplay"
        # The binary whose `init` writes the workflow: this checkout's, built now.
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=REPO, check=True)
        subprocess.run([str(binary), "init", str(project)], check=True, stdout=subprocess.DEVNULL)
        workflow = yaml.safe_load((project / ".github/workflows/prettyplay.yml").read_text())
        home = work / "home"
        home.mkdir()
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(home),
            "CARGO_HOME": os.environ.get("CARGO_HOME", str(Path.home() / ".cargo")),
            "RUSTUP_HOME": os.environ.get("RUSTUP_HOME", str(Path.home() / ".rustup")),
            "CARGO_TARGET_DIR": str(work / "target") if fresh_target else str(REPO / "target"),
            "npm_config_cache": os.environ.get("npm_config_cache", str(Path.home() / ".npm")),
            "CI": "true",
            "LOCAL_GIT": f"file://{clone}",
            "PROJECT": str(project),
        }
        artifacts = work / "artifacts"
        artifacts.mkdir()
        ok = True
        for name in ("replay", "merge"):
            ok = run_job(name, workflow["jobs"][name], work, env, artifacts) and ok
        print("workflow: passed" if ok else "workflow: FAILED")
        return 0 if ok else 1
    finally:
        if keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
