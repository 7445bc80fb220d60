"""The Action's settings: read once from the environment into a frozen value, every problem at once.

Inputs arrive as `INPUT_<NAME>` variables (names from action.yml, upper-cased); the runner's own
context comes from `GITHUB_*` variables and the event payload file.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from specsnap.errors import InputError, Problem
from specsnap.publish.github import ApiConfig
from specsnap.publish.pipeline import CommentMode
from specsnap.publish.policy import FailOn
from specsnap.rundir import DEFAULT_SEED
from specsnap.scorecard.model import HANDOFF_MODES
from specsnap.stage2.stage import STAGES

SOURCE = "action inputs"
DEFAULT_API_URL = "https://api.github.com"

E = TypeVar("E", bound=Enum)


class Step(Enum):
    PREPARE = "prepare"
    SESSION = "session"
    GRADE = "grade"
    PUBLISH = "publish"
    ALL = "all"
    BOT = "bot"
    SUBMIT = "submit"
    BADGE = "badge"
    ANNOUNCE = "announce"


@dataclass(frozen=True)
class Settings:
    step: Step
    workspace: Path
    run_dir: Path | None
    tier: str | None
    seed: int
    agent: str | None
    agent_options: Mapping[str, str]
    agent_install: str | None
    pass_env: tuple[str, ...]
    #: Which of `pass_env` the calling workflow has secrets for (names, never values): the
    #: prepare step judges by it, as its own environment holds no key ("" → by the environment).
    keys_present: tuple[str, ...]
    #: More keys for the session steps, from one secret: a JSON object NAME → value.
    api_keys: Mapping[str, str] = field(repr=False)
    session: int | None
    time_limit_s: int | None
    stage: int | None  # None: the ledger's (specsnap.stage2.stage)
    handoff: str  # how sessions after the cutoff continue (scorecard.model.HANDOFF_MODES)
    ledger: Path | None
    scorecards: tuple[str, ...]  # globs, relative to the workspace
    badge_dir: Path | None
    badge_branch: str
    verify: bool
    fail_on: FailOn
    comment_mode: CommentMode
    comment_key: str
    check_run: bool
    job_summary: bool
    check_name: str
    bot_command: str
    api: ApiConfig | None  # None: no token, nothing can be written
    repository: str
    sha: str
    server_url: str
    event_name: str
    event: Mapping[str, Any] = field(repr=False)
    pull_request: int | None
    commit: str | None
    run_url: str | None

    def shown(self, path: Path) -> str:
        """`path` relative to the workspace when inside it: the runner mounts the workspace at
        another path than the container sees, so only relative paths mean the same to later
        steps."""
        try:
            return str(path.resolve().relative_to(self.workspace.resolve()))
        except ValueError:
            return str(path)


def read_settings(env: Mapping[str, str]) -> Settings:
    """Settings from `env`; an InputError lists every bad or missing input."""
    reader = _Reader(env)
    step = reader.choice("step", Step, Step.ALL)
    tier = _tier(reader.text("tier"))
    seed = reader.integer("seed", minimum=0, default=DEFAULT_SEED)
    agent = reader.text("agent")
    session = reader.integer("session", minimum=1)
    workspace = Path(env.get("GITHUB_WORKSPACE") or os.getcwd())
    run_dir = reader.text("run_dir")
    resolved_run = workspace / run_dir if run_dir else None
    if resolved_run is None and tier is not None and seed is not None:
        resolved_run = workspace / ".specsnap" / "runs" / f"{tier}-seed-{seed}"
    badge_dir = reader.text("badge_dir")

    if step in (Step.PREPARE, Step.ALL):
        reader.require("tier", tier, "a tier such as tier-2 (or 2)")
        reader.require("agent", agent, "an agent name such as claude-code or notetaker")
    if step is Step.SESSION:
        reader.require("session", session, "the session number, 1..n")
    if step in (Step.SESSION, Step.GRADE, Step.SUBMIT):
        reader.require("run_dir", resolved_run, "run_dir, or tier and seed of the prepared run")

    scorecards = reader.lines("scorecards")
    if not scorecards and resolved_run is not None:
        scorecards = (str(resolved_run.relative_to(workspace) / "scorecard.json"),)
    if step in (Step.PUBLISH, Step.BADGE) and not scorecards:
        reader.problem("scorecards", "", "one or more scorecard.json paths or globs")

    stage = reader.integer("stage", minimum=1)
    if stage is not None and stage not in STAGES:
        reader.problem("stage", str(stage), "1 or 2")
    handoff = (reader.text("handoff") or "fresh").lower()
    if handoff not in HANDOFF_MODES:
        reader.problem("handoff", handoff, " or ".join(HANDOFF_MODES))
    ledger = reader.text("ledger")
    token = reader.text("github_token")
    api = ApiConfig(env.get("GITHUB_API_URL") or DEFAULT_API_URL, token) if token else None
    event_name = env.get("GITHUB_EVENT_NAME", "")
    settings = Settings(
        step=step,
        workspace=workspace,
        run_dir=resolved_run,
        tier=tier,
        seed=seed if seed is not None else 1,
        agent=agent,
        agent_options=reader.options("agent_options"),
        agent_install=reader.text("agent_install"),
        pass_env=reader.names("pass_env"),
        keys_present=reader.names("keys_present"),
        api_keys=reader.keys("api_keys"),
        session=session,
        time_limit_s=reader.integer("time_limit", minimum=1),
        stage=stage,
        handoff=handoff,
        ledger=workspace / ledger if ledger else None,
        scorecards=scorecards,
        badge_dir=workspace / badge_dir if badge_dir else None,
        badge_branch=reader.text("badge_branch") or "specsnap-badge",
        verify=reader.boolean("verify", default=False),
        fail_on=reader.choice("fail_on", FailOn, FailOn.NOT_PASSED),
        comment_mode=reader.choice("comment_mode", CommentMode, CommentMode.ALWAYS),
        comment_key=reader.text("comment_key") or "default",
        check_run=reader.boolean("check_run", default=True),
        job_summary=reader.boolean("job_summary", default=True),
        check_name=reader.text("check_name") or "SpecSnap",
        bot_command=reader.text("bot_command") or "/specsnap",
        api=api,
        repository=env.get("GITHUB_REPOSITORY", ""),
        sha=env.get("GITHUB_SHA", ""),
        server_url=env.get("GITHUB_SERVER_URL") or "https://github.com",
        event_name=event_name,
        event=reader.event(env.get("GITHUB_EVENT_PATH")),
        pull_request=reader.integer("pull_request", minimum=1),
        commit=reader.sha("commit"),
        run_url=_run_url(env),
    )
    if (
        step in (Step.PUBLISH, Step.ALL, Step.BOT, Step.BADGE, Step.ANNOUNCE)
        and not settings.repository
    ):
        reader.problem("GITHUB_REPOSITORY", "", "owner/name (set by the runner)", env_var=True)
    if reader.problems:
        raise InputError(reader.problems)
    return settings


def _tier(value: str | None) -> str | None:
    """`2` and `tier-2` both name tier-2."""
    if value is None:
        return None
    return f"tier-{value}" if value.isdigit() else value


def _run_url(env: Mapping[str, str]) -> str | None:
    server, repo, run = (
        env.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID")
    )
    return f"{server}/{repo}/actions/runs/{run}" if server and repo and run else None


class _Reader:
    """Reads `INPUT_*` values and collects a Problem for each bad one instead of stopping."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self.env = env
        self.problems: list[Problem] = []

    def raw(self, name: str) -> str:
        return self.env.get(f"INPUT_{name.upper()}", "").strip()

    def problem(self, name: str, value: str, expected: str, *, env_var: bool = False) -> None:
        key = name if env_var else f"{name} (INPUT_{name.upper()})"
        self.problems.append(Problem(SOURCE, key, repr(value), expected))

    def require(self, name: str, value: object, expected: str) -> None:
        if value is None:
            self.problem(name, "", expected)

    def text(self, name: str) -> str | None:
        return self.raw(name) or None

    def integer(self, name: str, *, minimum: int, default: int | None = None) -> int | None:
        value = self.raw(name)
        if not value:
            return default
        if not re.fullmatch(r"\d+", value) or int(value) < minimum:
            self.problem(name, value, f"a whole number ≥ {minimum}")
            return default
        return int(value)

    def boolean(self, name: str, *, default: bool) -> bool:
        value = self.raw(name).lower()
        if not value:
            return default
        if value not in ("true", "false"):
            self.problem(name, value, "true or false")
            return default
        return value == "true"

    def choice(self, name: str, enum: type[E], default: E) -> E:
        value = self.raw(name).lower()
        if not value:
            return default
        try:
            return enum(value)
        except ValueError:
            self.problem(name, value, "one of " + ", ".join(str(e.value) for e in enum))
            return default

    def lines(self, name: str) -> tuple[str, ...]:
        return tuple(line.strip() for line in self.raw(name).splitlines() if line.strip())

    def names(self, name: str) -> tuple[str, ...]:
        found = tuple(n for n in re.split(r"[\s,]+", self.raw(name)) if n)
        for bad in (n for n in found if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", n)):
            self.problem(name, bad, "environment variable names, comma- or newline-separated")
        return found

    def keys(self, name: str) -> dict[str, str]:
        """A JSON object of environment variable names to non-empty strings; a problem never
        shows a value (they are secrets)."""
        value = self.raw(name)
        if not value:
            return {}
        try:
            data = json.loads(value)
        except ValueError:
            data = None
        if not isinstance(data, dict) or not all(
            isinstance(k, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", k) and isinstance(v, str)
            for k, v in data.items()
        ):
            self.problem(name, "(hidden)", 'a JSON object of names to keys, {"NAME": "key", ...}')
            return {}
        return {k: v for k, v in data.items() if v}

    def options(self, name: str) -> dict[str, str]:
        options: dict[str, str] = {}
        for line in self.lines(name):
            key, sep, value = line.partition("=")
            if not sep or not key.strip():
                self.problem(name, line, "KEY=VALUE, one per line")
                continue
            options[key.strip()] = value.strip()
        return options

    def sha(self, name: str) -> str | None:
        value = self.raw(name)
        if value and not re.fullmatch(r"[0-9a-fA-F]{7,40}", value):
            self.problem(name, value, "a commit SHA (7 to 40 hex digits)")
            return None
        return value or None

    def event(self, path: str | None) -> Mapping[str, Any]:
        if not path:
            return {}
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            self.problem(
                "GITHUB_EVENT_PATH", path, f"a readable JSON event file ({exc})", env_var=True
            )
            return {}
        return data if isinstance(data, dict) else {}
