"""Plays a GitHub Actions workflow file the way a hosted runner runs it, for the Docker tests.

The runner's ownership model, faithfully: each job gets a fresh workspace and HOME owned by the
runner's account (uid 1001); GitHub's own steps (checkout, upload-artifact, download-artifact,
`run:` steps, the cleanup after the job) run on the host as that account; each step of the
SpecSnap action runs as root in a fresh container of the image, with the workspace,
`/github/home`, `/github/workflow` and `/github/file_commands` mounted as the runner mounts
them, the step's inputs as `INPUT_*`, and `GITHUB_OUTPUT` / `GITHUB_STEP_SUMMARY` files the
runner created (as 1001) before the step. A reusable workflow called by a job is played with its
inputs, secrets and matrix. `pull_action_image` gives the runner the image action.yml names,
pulled as a runner pulls it before the job.

Only what SpecSnap's documented workflows use is understood; anything else fails loudly.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

RUNNER_UID = 1001
EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.S)
PATH_TOKEN = re.compile(r"(?<![\w.'])([A-Za-z_][\w-]*(?:\.[\w-]+)+)")


@dataclass
class StepResult:
    outcome: str  # success, failure, skipped
    outputs: dict[str, str] = field(default_factory=dict)
    log: str = ""
    code: int | None = None  # the step's exit code (None: skipped)
    seconds: float = 0.0
    step: str = ""  # a SpecSnap action step's `step` input (prepare, session, ...)
    env_set: frozenset[str] = frozenset()  # the non-empty variables its environment had


@dataclass
class Job:
    name: str
    result: str
    outputs: dict[str, str]
    steps: dict[str, StepResult]
    logs: list[str]


@dataclass
class Runner:
    """Where jobs run: a directory per job, one artifact store, the action's image."""

    root: Path
    image: str
    action: str  # what `uses:` names the SpecSnap action as (e.g. specsnap/specsnap)
    workflows: Path  # where `uses: <action>/.github/workflows/X.yml@ref` is read from
    checkout: Path  # the repository actions/checkout puts in the workspace
    env: Mapping[str, str]  # GITHUB_* of every step (repository, API URL, ...)
    jobs: list[Job] = field(default_factory=list)
    action_defaults: Mapping[str, str] = field(default_factory=dict)
    # Where the test's loopback servers are, for every container of the action (as GITHUB_API_URL
    # in `env` points at the loopback GitHub): e.g. GOOGLE_GEMINI_BASE_URL, which the meter
    # reads as its upstream. A step's own `env:` overrides them; never a secret.
    servers: Mapping[str, str] = field(default_factory=dict)

    @property
    def artifacts(self) -> Path:
        return self.root / "artifacts"

    def play(
        self,
        workflow: Path,
        event_name: str,
        event: Mapping[str, Any],
        token: str,
        secrets: Mapping[str, str],
    ) -> dict[str, Job]:
        """Every job of `workflow` (in order); the jobs by id."""
        document = yaml.safe_load(workflow.read_text())
        context = {
            "github": {"event_name": event_name, "event": event, "token": token, **self.github},
            "secrets": dict(secrets),
            "inputs": {},
        }
        context["env"] = _env(document, context)
        return self._play_jobs(document["jobs"], context, event_name, event, token)

    @property
    def github(self) -> dict[str, str]:
        return {
            "repository": self.env["GITHUB_REPOSITORY"],
            "sha": self.env["GITHUB_SHA"],
            "ref": self.env.get("GITHUB_REF", ""),
            "server_url": self.env["GITHUB_SERVER_URL"],
        }

    def _play_jobs(
        self,
        jobs: Mapping[str, Any],
        context: dict[str, Any],
        event_name: str,
        event: Mapping[str, Any],
        token: str,
    ) -> dict[str, Job]:
        done: dict[str, Job] = {}
        for job_id, spec in jobs.items():
            needs = spec.get("needs") or []
            needs = [needs] if isinstance(needs, str) else needs
            ctx = {
                **context,
                "needs": {n: {"outputs": done[n].outputs, "result": done[n].result} for n in needs},
            }
            failed = any(done[n].result != "success" for n in needs)
            condition = spec.get("if")
            if (failed and not _mentions_always(condition)) or (
                condition is not None and not evaluate(condition, ctx, failed)
            ):
                done[job_id] = Job(job_id, "skipped", {}, {}, [])
                continue
            if "uses" in spec:  # a reusable workflow
                called = self._reusable(spec["uses"])
                inputs = _defaults(called["on"]["workflow_call"].get("inputs") or {})
                inputs.update(
                    {k: substitute(str(v), ctx) for k, v in (spec.get("with") or {}).items()}
                )
                secrets = {
                    k: substitute(str(v), ctx) for k, v in (spec.get("secrets") or {}).items()
                }
                inner = {**context, "inputs": inputs, "secrets": secrets}
                inner["env"] = _env(called, inner)  # a called workflow's env is its own
                played = self._play_jobs(called["jobs"], inner, event_name, event, token)
                result = (
                    "success"
                    if all(j.result in ("success", "skipped") for j in played.values())
                    else "failure"
                )
                outputs = {
                    k: substitute(
                        str(v["value"]),
                        {**inner, "jobs": {n: {"outputs": j.outputs} for n, j in played.items()}},
                    )
                    for k, v in (called["on"]["workflow_call"].get("outputs") or {}).items()
                }
                done[job_id] = Job(job_id, result, outputs, {}, [])
                continue
            results = [
                self._job(job_id, spec, {**ctx, "matrix": cell}) for cell in _matrix(spec, ctx)
            ]
            result = "success" if all(j.result == "success" for j in results) else "failure"
            done[job_id] = Job(
                job_id,
                result,
                results[-1].outputs,
                results[-1].steps,
                [line for j in results for line in j.logs],
            )
        return done

    def _reusable(self, uses: str) -> dict[str, Any]:
        match = re.fullmatch(re.escape(self.action) + r"/\.github/workflows/([\w.-]+)@\S+", uses)
        assert match, f"the player cannot call {uses}"
        loaded: dict[str, Any] = yaml.safe_load((self.workflows / match.group(1)).read_text())
        loaded["on"] = loaded.get("on") or loaded[True]  # YAML 1.1 reads `on` as true
        return loaded

    def _job(self, job_id: str, spec: Mapping[str, Any], context: dict[str, Any]) -> Job:
        """One job on a fresh runner: its steps, then GitHub's cleanup as the runner's account."""
        context = {**context, "env": {**context["env"], **_env(spec, context)}}
        index = len(self.jobs)
        home = self.root / f"job{index}"
        dirs = {name: home / name for name in ("workspace", "home", "workflow", "file_commands")}
        home.mkdir(parents=True)
        home.chmod(0o755)
        os.chown(home, RUNNER_UID, RUNNER_UID)  # the runner's work directory is the runner's
        for directory in dirs.values():
            as_runner(["mkdir", "-p", str(directory)])
        event_file = dirs["workflow"] / "event.json"
        as_runner(
            ["bash", "-c", f"cat > {event_file}"], stdin=json.dumps(context["github"]["event"])
        )
        steps: dict[str, StepResult] = {}
        logs: list[str] = []
        failed = False
        for number, step in enumerate(spec.get("steps") or []):
            ctx = {
                **context,
                "steps": {
                    k: {"outputs": v.outputs, "outcome": v.outcome} for k, v in steps.items()
                },
                "job": {"status": "failure" if failed else "success"},
            }
            condition = step.get("if")
            run_it = (not failed or _mentions_always(condition)) and (
                condition is None or evaluate(condition, ctx, failed)
            )
            started = time.monotonic()
            result = (
                self._step(step, ctx, dirs, f"{index}_{number}")
                if run_it
                else StepResult("skipped")
            )
            result.seconds = time.monotonic() - started
            title = step.get("name") or step.get("uses") or step.get("run")
            ended = f"exit {result.code}, {result.seconds:.0f}s" if result.code is not None else "-"
            logs.append(f"--- step {title}: {result.outcome} ({ended})\n{result.log}")
            steps[step.get("id") or f"step{number}"] = result
            failed = failed or result.outcome == "failure"
        ctx = {**context, "steps": {k: {"outputs": v.outputs} for k, v in steps.items()}}
        outputs = {k: substitute(str(v), ctx) for k, v in (spec.get("outputs") or {}).items()}
        cleanup = as_runner(["rm", "-rf", str(dirs["workspace"]), str(dirs["home"])], check=False)
        logs.append(f"--- cleanup as uid {RUNNER_UID}: exit {cleanup.returncode} {cleanup.stderr}")
        job = Job(
            job_id, "failure" if failed or cleanup.returncode else "success", outputs, steps, logs
        )
        self.jobs.append(job)
        return job

    def _step(
        self, step: Mapping[str, Any], ctx: dict[str, Any], dirs: Mapping[str, Path], key: str
    ) -> StepResult:
        env = {**ctx["env"], **_env(step, ctx)}
        inputs = {k: substitute(str(v), ctx) for k, v in (step.get("with") or {}).items()}
        uses = step.get("uses", "")
        env = {**self._github_env(ctx), **env}
        if "run" in step:
            return self._run(substitute(step["run"], ctx), env, dirs, key)
        if uses.startswith("actions/checkout@"):
            done = as_runner(
                ["cp", "-a", f"{self.checkout}/.", str(dirs["workspace"])], check=False
            )
            return _result(done)
        if uses.startswith("actions/upload-artifact@"):
            return self._host_python(
                UPLOAD, [str(dirs["workspace"]), str(self.artifacts), json.dumps(inputs)]
            )
        if uses.startswith("actions/download-artifact@"):
            return self._host_python(
                DOWNLOAD, [str(dirs["workspace"]), str(self.artifacts), json.dumps(inputs)]
            )
        if uses.startswith(f"{self.action}@"):
            return self._action(inputs, env, dirs, key, ctx["github"]["token"])
        raise AssertionError(f"the player cannot run `uses: {uses}`")

    def _github_env(self, ctx: Mapping[str, Any]) -> dict[str, str]:
        """The GITHUB_* variables the runner sets for every step (the event's name and ref)."""
        return {
            **self.env,
            "GITHUB_EVENT_NAME": ctx["github"]["event_name"],
            "GITHUB_REF": ctx["github"]["ref"],
        }

    def _run(
        self, script: str, env: Mapping[str, str], dirs: Mapping[str, Path], key: str
    ) -> StepResult:
        output = dirs["file_commands"] / f"set_output_{key}"
        as_runner(["touch", str(output)])
        full = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(dirs["home"]),
            "GITHUB_OUTPUT": str(output),
            "GITHUB_WORKSPACE": str(dirs["workspace"]),
            "GITHUB_EVENT_PATH": str(dirs["workflow"] / "event.json"),
            **env,
        }
        done = as_runner(["bash", "-e", "-c", script], cwd=dirs["workspace"], env=full, check=False)
        return _result(done, parse_outputs(output.read_text()))

    def _host_python(self, script: str, args: list[str]) -> StepResult:
        return _result(as_runner(["python3", "-c", script, *args], check=False))

    def _action(
        self,
        inputs: Mapping[str, str],
        env: Mapping[str, str],
        dirs: Mapping[str, Path],
        key: str,
        token: str,
    ) -> StepResult:
        output, summary = (
            dirs["file_commands"] / f"{name}_{key}" for name in ("set_output", "step_summary")
        )
        as_runner(["touch", str(output), str(summary)])
        values = {**self.action_defaults, **inputs}
        values["github_token"] = values.get("github_token", "").replace(
            "${{ github.token }}", token
        )
        container_env = {
            "HOME": "/github/home",
            "CI": "true",
            "GITHUB_ACTIONS": "true",
            "GITHUB_WORKSPACE": "/github/workspace",
            "GITHUB_EVENT_PATH": "/github/workflow/event.json",
            "GITHUB_OUTPUT": f"/github/file_commands/{output.name}",
            "GITHUB_STEP_SUMMARY": f"/github/file_commands/{summary.name}",
            **self.servers,
            **env,
            **{f"INPUT_{name.upper()}": value for name, value in values.items()},
        }
        command = ["docker", "run", "--rm", "--network", "host", "--workdir", "/github/workspace"]
        for name, value in container_env.items():
            command += ["-e", f"{name}={value}"]
        for name in ("home", "workflow", "file_commands", "workspace"):
            command += ["-v", f"{dirs[name]}:/github/{name}"]
        done = subprocess.run(
            [*command, self.image], capture_output=True, text=True, check=False, timeout=1500
        )
        result = _result(done, parse_outputs(output.read_text()))
        result.step = values.get("step", "")
        result.env_set = frozenset(name for name, value in container_env.items() if value)
        return result


def pull_action_image(action_yml: Path, registries: Mapping[str, str]) -> str:
    """The image `action.yml` runs (`runs.image: docker://…`), pulled as a runner pulls it
    before the job, its registry host replaced as `registries` says (ghcr.io → a local one, say).
    Named by the digest pulled (`name@sha256:…`), so every step's container runs exactly that."""
    image = yaml.safe_load(action_yml.read_text())["runs"]["image"]
    assert image.startswith("docker://"), f"{action_yml} runs no released image: {image}"
    host, _, path = image.removeprefix("docker://").partition("/")
    reference = f"{registries.get(host, host)}/{path}"
    name, _, tag = reference.rpartition(":")
    assert tag and "/" not in tag, f"{action_yml}'s image has no tag: {image}"
    pull = subprocess.run(
        ["docker", "pull", reference], capture_output=True, text=True, check=False, timeout=900
    )
    assert pull.returncode == 0, f"docker pull {reference}: {pull.stdout}{pull.stderr}"
    inspect = subprocess.run(
        ["docker", "image", "inspect", "--format", "{{json .RepoDigests}}", reference],
        capture_output=True,
        text=True,
        check=True,
    )
    (pulled,) = (d for d in json.loads(inspect.stdout) if d.startswith(f"{name}@"))
    return str(pulled)


def _result(
    done: subprocess.CompletedProcess[str], outputs: dict[str, str] | None = None
) -> StepResult:
    return StepResult(
        "success" if done.returncode == 0 else "failure",
        outputs or {},
        done.stdout + done.stderr,
        done.returncode,
    )


def as_runner(
    argv: list[str],
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    stdin: str | None = None,
    check: bool = True,
) -> subprocess.CompletedProcess[str]:
    """`argv` on the host as the runner's account (uid/gid 1001, no supplementary groups)."""
    done = subprocess.run(
        ["setpriv", f"--reuid={RUNNER_UID}", f"--regid={RUNNER_UID}", "--clear-groups", *argv],
        cwd=cwd,
        env=dict(env) if env is not None else {"PATH": "/usr/local/bin:/usr/bin:/bin"},
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    if check and done.returncode != 0:
        raise AssertionError(f"{argv} as uid {RUNNER_UID} failed: {done.stderr}")
    return done


def parse_outputs(text: str) -> dict[str, str]:
    outputs: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        heredoc = re.fullmatch(r"([A-Za-z_][\w-]*)<<(\S+)", line)
        if heredoc:
            name, delimiter = heredoc.groups()
            outputs[name] = "\n".join(itertools.takewhile(delimiter.__ne__, lines))
        elif "=" in line:
            name, _, value = line.partition("=")
            outputs[name] = value
    return outputs


# -- expressions ---------------------------------------------------------------------------


def substitute(text: str, ctx: Mapping[str, Any]) -> str:
    """`text` with every `${{ expression }}` replaced by its value, as GitHub writes values."""
    return EXPRESSION.sub(lambda m: _show(_eval(m.group(1), ctx, False)), text)


def evaluate(condition: Any, ctx: Mapping[str, Any], failed: bool) -> bool:
    if isinstance(condition, bool):
        return condition
    text = str(condition).strip()
    inner = EXPRESSION.fullmatch(text)
    return bool(_eval(inner.group(1) if inner else text, ctx, failed))


def _eval(expression: str, ctx: Mapping[str, Any], failed: bool) -> Any:
    def lookup(path: str) -> Any:
        value: Any = ctx
        for part in path.split("."):
            value = value.get(part, "") if isinstance(value, Mapping) else ""
        return value

    python = re.sub(r"'((?:[^']|'')*)'", lambda m: repr(m.group(1).replace("''", "'")), expression)
    python = PATH_TOKEN.sub(lambda m: f"_v({m.group(1)!r})", python)
    python = python.replace("&&", " and ").replace("||", " or ")
    python = re.sub(r"!(?!=)", " not ", python)
    functions: dict[str, Callable[..., Any]] = {
        "_v": lookup,
        "fromJSON": lambda s: json.loads(s) if isinstance(s, str) and s else s,
        "always": lambda: True,
        "success": lambda: not failed,
        "failure": lambda: failed,
        "format": lambda f, *a: re.sub(r"\{(\d+)\}", lambda m: str(a[int(m.group(1))]), f),
        "contains": lambda a, b: b in a,
    }
    return eval(python, {"__builtins__": {}}, functions)  # the project's own workflow files


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | dict):
        return json.dumps(value)
    return "" if value is None else str(value)


def _mentions_always(condition: Any) -> bool:
    return condition is not None and "always()" in str(condition)


def _matrix(spec: Mapping[str, Any], ctx: Mapping[str, Any]) -> list[dict[str, Any]]:
    matrix = (spec.get("strategy") or {}).get("matrix")
    if not matrix:
        return [{}]
    axes = {}
    for name, value in matrix.items():
        axes[name] = json.loads(substitute(value, ctx)) if isinstance(value, str) else value
    return [dict(zip(axes, combo, strict=True)) for combo in itertools.product(*axes.values())]


def _env(spec: Mapping[str, Any], ctx: Mapping[str, Any]) -> dict[str, str]:
    """The `env:` of a workflow, job or step, its expressions evaluated."""
    return {k: substitute(str(v), ctx) for k, v in (spec.get("env") or {}).items()}


def _defaults(inputs: Mapping[str, Any]) -> dict[str, str]:
    return {name: str(spec.get("default", "")) for name, spec in inputs.items()}


# -- GitHub's artifact steps, as scripts run by the runner's account ----------------------------

UPLOAD = r"""
import glob, json, os, shutil, sys
workspace, store, inputs = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
paths = [p.strip() for p in inputs["path"].splitlines() if p.strip()]
matches = [f for p in paths for f in glob.glob(os.path.join(workspace, p), recursive=True)]
inside = [os.path.join(d, n) for m in matches for d, _, ns in os.walk(m) for n in ns]
found = sorted({f for f in matches + inside if os.path.isfile(f)})
if not found:
    print(f"no files matched {paths}")
    sys.exit(1 if inputs.get("if-no-files-found", "warn") == "error" else 0)
root = os.path.commonpath([os.path.dirname(f) for f in found])
target = os.path.join(store, inputs.get("name", "artifact"))
for f in found:
    dest = os.path.join(target, os.path.relpath(f, root))
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    shutil.copyfile(f, dest)
print(f"uploaded {len(found)} file(s) as {os.path.basename(target)}")
"""

DOWNLOAD = r"""
import fnmatch, json, os, shutil, sys
workspace, store, inputs = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
path = os.path.join(workspace, inputs.get("path", "."))
names = sorted(os.listdir(store)) if os.path.isdir(store) else []
if "name" in inputs:
    if inputs["name"] not in names:
        sys.exit(f"no artifact {inputs['name']}")
    shutil.copytree(os.path.join(store, inputs["name"]), path, dirs_exist_ok=True)
else:
    for name in (n for n in names if fnmatch.fnmatch(n, inputs.get("pattern", "*"))):
        shutil.copytree(os.path.join(store, name), os.path.join(path, name), dirs_exist_ok=True)
"""
