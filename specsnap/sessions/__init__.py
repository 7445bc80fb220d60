"""One agent session (SPEC §1.2 to §1.4): fresh HOME, scrubbed environment, the whole process
group, the cutoff, and every record kept outside the sandbox in RUN_DIR/sessions/N/."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from specsnap.agents.base import (
    AdapterTraits,
    Invocation,
    SessionContext,
    adapter_traits,
    get_agent,
)
from specsnap.errors import UsageError
from specsnap.gitrepo import commits_between, rev_parse
from specsnap.identity import RunAs, give_to, python_for, resolve_run_as
from specsnap.metering.session import SessionMetering
from specsnap.params import recall_seed, values_for
from specsnap.prompts import product_note, session_prompt
from specsnap.sessions.control import ControlServer, hook_tampering, install_hooks
from specsnap.sessions.cutoff import CutoffWatcher, Firing
from specsnap.sessions.output import OutputCapture
from specsnap.sessions.processes import SessionMarks, freeze, terminate
from specsnap.sessions.records import exit_info, session_record, write_records
from specsnap.solutions import write_solution
from specsnap.tokens import TokenUsage

if TYPE_CHECKING:
    from specsnap.runs import Run

BASE_PATH = "/usr/local/bin:/usr/bin:/bin"


class Supervisor:
    """Holds the state one session's threads share: arming, firing, commits seen."""

    def __init__(
        self, run: Run, index: int, on_cutoff: Callable[[str], None] | None = None
    ) -> None:
        self.on_cutoff = on_cutoff
        self.run = run
        self.index = index
        tier = run.tier
        self.final = index == tier.sessions
        self.arm_on_commit = index == 1 and tier.cutoff_arm == "baseline_commit"
        self.note = product_note(tier, run.seed) if self.arm_on_commit else None
        self.note_delivered = False
        self.head_at_start = rev_parse(run.sandbox)
        self.head_at_arm: str | None = None
        self.marks: SessionMarks | None = None
        self.stopped = threading.Event()
        self.reason: str | None = None  # source-edit, commit-attempt, commit
        self.started_ns = time.monotonic_ns()
        self.fired_ns: int | None = None  # when the cutoff fired (time.monotonic_ns())
        self.breaches: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self.watcher = CutoffWatcher(
            run.sandbox, tier.watch, tier.ignore, self._on_fire, self._on_ref_change
        )

    def arm(self) -> None:
        if self.final:
            return
        with self._lock:
            if self.watcher.armed:
                return
            self.head_at_arm = rev_parse(self.run.sandbox)
            self.watcher.arm()

    def _freeze(self, reason: str) -> int | None:
        with self._lock:
            if self.reason is not None:
                return None
            self.reason = reason
            self.fired_ns = time.monotonic_ns()
        frozen = freeze(self.marks) if self.marks is not None else None
        self.stopped.set()
        if self.on_cutoff is not None:
            self.on_cutoff(reason)
        return frozen

    def _on_fire(self, firing: Firing) -> int | None:
        return self._freeze("source-edit")

    def _on_ref_change(self) -> None:
        head = rev_parse(self.run.sandbox)
        if self.watcher.armed and head != self.head_at_arm and self.reason is None:
            self._freeze("commit")
        elif self.arm_on_commit and head != self.head_at_start:
            self.arm()

    def on_hook(self, hook: str) -> tuple[int, str]:
        """Answer a git hook of the agent's (see sessions.control)."""
        if hook == "pre-commit":
            if self.watcher.armed:
                self._freeze("commit-attempt")
                return 1, "specsnap: commits are refused while the cutoff is armed\n"
            return 0, ""
        if self.arm_on_commit and rev_parse(self.run.sandbox) != self.head_at_start:
            self.arm()
            if self.note and not self.note_delivered:
                self.note_delivered = True
                return 0, "\n" + self.note + "\n"
        return 0, ""


def run_agent_session(
    run: Run, index: int, on_cutoff: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """Run session `index`; returns (and writes) its record, whatever the agent did.

    `on_cutoff(reason)` is called, on the watcher's thread, right after the agent is frozen.
    """
    tier = run.tier
    adapter = get_agent(run.agent)
    run_as = resolve_run_as()
    records = run.session_dir(index)
    if records.exists():
        raise UsageError(f"{records} exists: session {index} was started before")
    records.mkdir(parents=True, mode=0o700)
    prompt = session_prompt(tier, run.seed, index)
    (records / "prompt.md").write_text(prompt, encoding="utf-8")
    ctx = _prepare_home(
        run, index, prompt, needs_solution=getattr(adapter, "needs_solution", False)
    )
    traits = adapter_traits(adapter, run.agent_options)
    metering = _start_metering(traits, run, run_as)
    if metering is not None:
        ctx = replace(ctx, routes=metering.routes)
    invocation = adapter.invocation(ctx)
    give_to(ctx.home, run_as)
    give_to(run.sandbox, run_as)

    sup = Supervisor(run, index, on_cutoff)
    ctl_dir = Path(tempfile.mkdtemp(prefix="specsnap-ctl-"))
    ctl_dir.chmod(0o711)
    server = ControlServer(ctl_dir / "hooks.sock", sup.on_hook)
    digests = install_hooks(run.sandbox, python_for(run_as), server.path)
    give_to(run.sandbox / ".git" / "hooks", run_as)
    if not sup.final and not sup.arm_on_commit:
        sup.arm()
    token = secrets.token_hex(16)
    env = _environment(adapter.passthrough_env, run.pass_env, invocation.env, ctx, token)
    if metering is not None:
        env = metering.environment(env)
        invocation = replace(invocation, argv=tuple(metering.wrap(invocation.argv)))
    limit = run.time_limit_s or tier.time_limit_s
    capture = OutputCapture(records)
    server.start()
    sup.watcher.start()
    started = time.monotonic()
    try:
        exit, notes = _supervise(invocation, run, run_as, env, sup, capture, token, limit)
    finally:
        sup.watcher.stop()
        server.stop()
        shutil.rmtree(ctl_dir, ignore_errors=True)
    duration = time.monotonic() - started
    _check_protocol(run, sup, digests)
    if not (run.sandbox / ".git").is_dir():
        notes.append("the agent deleted the repository's .git directory")
    reported = adapter.usage(ctx, capture.stdout, capture.stderr)
    usage, metered = _finish_metering(metering, traits, reported, notes)
    record = session_record(sup, prompt, exit, usage, duration, notes)
    record.update(metered)
    write_records(records, record, sup)
    _retire_home(ctx.home, records)
    return record


def _start_metering(traits: AdapterTraits, run: Run, run_as: RunAs) -> SessionMetering | None:
    """SpecSnap's meter between the agent and its model APIs, holding their keys, and the
    agent's egress confined to it; None with `--agent-opt meter=off`."""
    if run.agent_options.get("meter") == "off":
        return None
    return SessionMetering.start(traits.apis, os.environ, run_as.uid, python_for(run_as))


def _finish_metering(
    metering: SessionMetering | None, traits: AdapterTraits, reported: TokenUsage, notes: list[str]
) -> tuple[TokenUsage, dict[str, Any]]:
    """The session's tokens, and the record's metering entries (see specsnap.metering)."""
    entries: dict[str, Any] = {"web_tools": traits.web_tools, "tokens_reported": reported.as_dict()}
    if metering is None:
        notes.append("SpecSnap's meter was off (--agent-opt meter=off)")
        return reported, {**entries, "egress_enforced": False, "meter": None}
    usage, metered = metering.finish(reported, not traits.uses_model, notes)
    return usage, {**entries, **metered}


def solution_values(run: Run) -> dict[str, Any]:
    """The values the control agents' reference solution is rendered with: the run's own, or
    another seed's for the recall control (or `--agent-opt solution_seed=N`)."""
    default = recall_seed(run.tier, run.seed) if run.agent == "recall" else run.seed
    seed = int(run.agent_options.get("solution_seed", default))
    return values_for(run.tier, seed)


def _prepare_home(run: Run, index: int, prompt: str, needs_solution: bool) -> SessionContext:
    """A fresh, empty HOME for the session (with the prompt, and for controls the solution)."""
    home = run.run_dir / "homes" / str(index)
    home.parent.mkdir(mode=0o711, exist_ok=True)
    home.mkdir(mode=0o700)
    (home / "tmp").mkdir()
    (home / "prompt.md").write_text(prompt, encoding="utf-8")
    control_dir = None
    if needs_solution:
        tier = run.tier
        control_dir = home / ".specsnap-control"
        write_solution(tier, solution_values(run), control_dir)
    return SessionContext(
        index=index,
        sandbox=run.sandbox,
        home=home,
        prompt=prompt,
        prompt_file=home / "prompt.md",
        usage_file=home / ".specsnap-usage.json",
        options=run.agent_options,
        control_dir=control_dir,
    )


def _supervise(
    invocation: Invocation,
    run: Run,
    run_as: RunAs,
    env: dict[str, str],
    sup: Supervisor,
    capture: OutputCapture,
    token: str,
    limit: int,
) -> tuple[dict[str, Any], list[str]]:
    """Start the agent, wait for its end, the cutoff or the time limit; end all its processes."""
    try:
        proc = subprocess.Popen(
            list(invocation.argv),
            cwd=run.sandbox,
            env=env,
            stdin=subprocess.PIPE if invocation.stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            user=None if run_as.is_self else run_as.uid,
            group=None if run_as.is_self else run_as.gid,
            extra_groups=None if run_as.is_self else [],
        )
    except OSError as exc:
        failed = {"status": "failed-to-start", "code": None, "signal": None}
        return failed, [f"the agent could not be started: {exc}"]
    sup.marks = SessionMarks(pgid=proc.pid, token=token)
    capture.start(proc, invocation.stdin)

    def reap() -> None:
        proc.wait()
        sup.stopped.set()

    threading.Thread(target=reap, daemon=True).start()
    if sup.reason is not None:  # fired before the marks existed: freeze now
        freeze(sup.marks)
    sup.stopped.wait(timeout=limit)
    timed_out = sup.reason is None and proc.poll() is None
    ended = terminate(sup.marks)
    proc.wait()
    capture.join()
    notes = []
    if ended and sup.reason is None and not timed_out:
        notes.append(f"the agent left {ended} background process(es); SpecSnap ended them")
    if timed_out:
        notes.append(f"the session hit its time limit of {limit}s")
    notes += capture.notes()
    return exit_info(proc.returncode, sup.reason, timed_out), notes


def _retire_home(home: Path, records: Path) -> None:
    """Move the session's HOME into its records, where later sessions cannot read it."""
    target = records / "home"
    shutil.move(home, target)
    if os.geteuid() == 0:
        for root, dirs, files in os.walk(target):
            for name in [root, *(os.path.join(root, n) for n in dirs + files)]:
                os.lchown(name, 0, 0)


def _environment(
    declared: tuple[str, ...], passed: list[str], adapter_env: Any, ctx: SessionContext, token: str
) -> dict[str, str]:
    env = {
        "PATH": os.environ.get("PATH", BASE_PATH),
        "HOME": str(ctx.home),
        "TMPDIR": str(ctx.home / "tmp"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "dumb",
        "CI": "true",
        "SPECSNAP_USAGE_FILE": str(ctx.usage_file),
        "SPECSNAP_SESSION": token,
    }
    for name in (*declared, *passed):
        if name in os.environ:
            env[name] = os.environ[name]
    env.update(adapter_env)
    return env


def _check_protocol(run: Run, sup: Supervisor, digests: dict[str, str]) -> None:
    """Record hook tampering and any commit that landed while the cutoff was armed."""
    if not (run.sandbox / ".git").is_dir():
        return
    for what in hook_tampering(run.sandbox, digests):
        sup.breaches.append({"session": sup.index, "what": what})
    if sup.head_at_arm is not None:
        head = rev_parse(run.sandbox)
        if head is not None and head != sup.head_at_arm:
            for commit in commits_between(run.sandbox, sup.head_at_arm, head) or [head]:
                sup.breaches.append(
                    {"session": sup.index, "what": f"commit {commit[:12]} landed while armed"}
                )
