"""One agent session (docs/protocol.md): its own account, fresh HOME, scrubbed environment,
the cutoff, every process of the session ended, the sandbox taken back, and every record kept
outside the sandbox in RUN_DIR/sessions/N/."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from specsnap.accounts.identity import RunAs, can_execute, give_to, python_for, take_back
from specsnap.accounts.shared_state import sweep_account
from specsnap.agents.base import (
    BASE_PATH,
    AdapterTraits,
    Invocation,
    SessionContext,
    adapter_traits,
    get_agent,
)
from specsnap.errors import UsageError
from specsnap.metering.session import SessionMetering
from specsnap.rundir import SESSION_FILE, RecordedSession, Run, recorded_session
from specsnap.sandbox.gitrepo import rev_parse
from specsnap.scorecard.model import Tokens
from specsnap.sessions.control import ControlServer, install_hooks
from specsnap.sessions.handoff import carry_state
from specsnap.sessions.homes import Home, make_home, retire_home
from specsnap.sessions.output import OutputCapture
from specsnap.sessions.processes import (
    SESSION_VARIABLE,
    SessionMarks,
    end_account,
    freeze,
    terminate,
)
from specsnap.sessions.records import exit_info, session_record, write_records
from specsnap.sessions.sources import sources_digest
from specsnap.sessions.supervisor import Supervisor
from specsnap.stage2.tracker import Board, TrackerServer, board_for
from specsnap.tier.draws import recall_seed, values_for
from specsnap.tier.prompts import session_prompt
from specsnap.tier.solutions import write_solution, write_stage2_fix, write_variants
from specsnap.trajectory.record import write_trajectory

FAILED_TO_START = {"status": "failed-to-start", "code": None, "signal": None}


def run_agent_session(
    run: Run,
    run_as: RunAs,
    index: int,
    environ: Mapping[str, str],
    on_cutoff: Callable[[str], None] | None = None,
) -> RecordedSession:
    """Run session `index` as `run_as`; writes its record and returns the session it states,
    whatever the agent did.

    `environ` is the caller's environment, read here and nowhere else: the PATH the agent's
    tools are found on, the values of the names the run passes to the agent, and the keys the
    meter holds for the agent's model APIs.

    `on_cutoff(reason)` is called, on the watcher's thread, right after the agent is frozen.
    """
    tier = run.tier
    adapter = get_agent(run.agent)
    records = run.session_dir(index)
    if records.exists():
        raise UsageError(f"{records} exists: session {index} was started before")
    records.mkdir(parents=True, mode=0o700)
    account = None if run_as.is_self else run_as
    notes = []
    if account is not None and (leftovers := end_account(account)):
        notes.append(
            f"{leftovers} process(es) of the agent's account were alive before the "
            "session; SpecSnap ended them"
        )
    prompt = session_prompt(tier, run.seed, index, run.stage)
    (records / "prompt.md").write_text(prompt, encoding="utf-8")
    home = make_home(run.run_dir, index, run.sandbox, run_as)
    try:
        return _run_in_home(run, run_as, index, adapter, prompt, home, environ, on_cutoff, notes)
    finally:  # also when SpecSnap itself failed mid-session
        if account is not None:
            end_account(account)
        if home.path.exists():
            retire_home(home, records / "home")
        if not run_as.is_self:  # no namespace is made around an agent: the sweep is the rule
            sweep_account(run_as.uid, keep=(run.run_dir,))
        take_back(run.sandbox, run_as)


def _run_in_home(
    run: Run,
    run_as: RunAs,
    index: int,
    adapter: Any,
    prompt: str,
    home: Home,
    environ: Mapping[str, str],
    on_cutoff: Callable[[str], None] | None,
    notes: list[str],
) -> RecordedSession:
    records = run.session_dir(index)
    ctx = _prepare_home(
        run, index, home.path, prompt, needs_solution=getattr(adapter, "needs_solution", False)
    )
    ctx = replace(ctx, path=environ.get("PATH", BASE_PATH))
    traits = adapter_traits(adapter, run.agent_options)
    handoff = _carry_handoff(run, index, traits, home.path, notes)
    if handoff is not None:
        ctx = replace(ctx, handoff=run.handoff, resume_id=handoff["session_id"])
    metering = _start_metering(traits, run, run_as, environ)
    if metering is not None:
        ctx = replace(ctx, routes=metering.routes)
    invocation = adapter.invocation(ctx)
    sources_at_start = sources_digest(run.sandbox) if run.stage == 2 else None
    give_to(home.path, run_as)
    give_to(run.sandbox, run_as)
    run.sandbox.chmod(0o700)  # other accounts (other runs' agents) never read it

    sup = Supervisor(run, index, on_cutoff)
    ctl_dir = Path(tempfile.mkdtemp(prefix="ctl-"))
    if not run_as.is_self:  # only the agent's account (its own group) reaches the socket
        os.chown(ctl_dir, 0, run_as.gid)
    ctl_dir.chmod(0o710 if not run_as.is_self else 0o711)
    server = ControlServer(ctl_dir / "hooks.sock", sup.on_hook)
    digests = install_hooks(run.sandbox, _hook_python(run_as), server.path)
    tracker = _start_tracker(run, index, sup, ctl_dir, run_as) if run.stage == 2 else None
    give_to(run.sandbox / ".git" / "hooks", run_as)
    if not sup.final and not sup.arm_on_commit:
        sup.arm()
    token = secrets.token_hex(16)
    passed = (*adapter.passthrough_env, *run.pass_env)
    env = _environment(environ, passed, invocation.env, ctx, token)
    if metering is not None:
        env = metering.environment(env)
        invocation = replace(invocation, argv=tuple(metering.wrap(invocation.argv)))
    if tracker is not None:  # `tickets` comes first on the agent's PATH
        env["PATH"] = f"{ctl_dir / 'bin'}:{env['PATH']}"
    limit = run.time_limit_s or run.tier.time_limit_s
    capture = OutputCapture(records)
    server.start()
    sup.watcher.start()
    started = time.monotonic()
    try:
        code, timed_out, supervised = _supervise(
            invocation, run, run_as, env, sup, capture, token, limit
        )
    finally:
        sup.watcher.finish()  # the agent is gone: a change nothing reported yet fires now
        server.stop()
        if tracker is not None:
            tracker.stop()
        shutil.rmtree(ctl_dir, ignore_errors=True)
    # How the session ended is settled only now: an agent that edits and exits before the
    # watcher looks is cut off by the watcher's last comparison, in finish() above.
    exit = dict(FAILED_TO_START) if code is None else exit_info(code, sup.reason, timed_out)
    duration = time.monotonic() - started
    sources_at_end = sources_digest(run.sandbox) if run.stage == 2 else None  # the agent is gone
    notes += supervised
    sup.check_protocol(digests)
    if sup.baseline_problem is not None:
        notes.append(sup.baseline_problem)
    if rev_parse(run.sandbox) is None:
        notes.append("the repository's .git directory was deleted, replaced or broken: no HEAD")
    reported = adapter.usage(ctx, capture.stdout, capture.stderr)
    notes += retire_home(home, records / "home")
    usage, metered = _finish_metering(metering, traits, reported, notes)
    record = session_record(sup, prompt, exit, usage, duration, notes)
    record.update(
        containment="account" if not run_as.is_self else "process-group",
        account=run_as.name,
        home_filesystem=home.filesystem,
        hard_links_at_arm=sup.watcher.linked_at_arm,
    )
    record.update(metered)
    if handoff is not None:
        record["handoff"] = handoff
    if tracker is not None:
        record["tracker"] = tracker.usage()
    if sources_at_start is not None:
        record["sources"] = {"at_start": sources_at_start, "at_end": sources_at_end}
    write_records(records, record, sup)
    if metering is not None and metering.routes:  # an agent with a model API, metered
        meter = metering.meter
        write_trajectory(records, index, run.agent, meter.steps, meter.steps_dropped)
    return recorded_session(record, str(records / SESSION_FILE))


def _carry_handoff(
    run: Run, index: int, traits: AdapterTraits, home: Path, notes: list[str]
) -> dict[str, Any] | None:
    """Under `--handoff resume|compact`, after session 1: the adapter's declared session store
    of the cut-off session moves into this session's fresh HOME (specsnap.sessions.handoff);
    the record's `handoff` entry. None in `fresh`, where nothing moves."""
    if index == 1 or run.handoff == "fresh" or traits.handoff is None:
        return None
    previous = run.session_dir(index - 1) / "home"
    carried = carry_state(run.handoff, traits.handoff, previous, home)
    if carried.error is not None:
        notes.append(f"handoff {run.handoff}: {carried.error}; the session started without it")
    return carried.record()


def _hook_python(run_as: RunAs) -> str:
    """The interpreter named in the hooks' first line: the system's where there is one, so the
    hook text does not show where SpecSnap is installed (hooks need the standard library only)."""
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if os.path.exists(candidate) and can_execute(candidate, run_as):
            return candidate
    return python_for(run_as)


def _start_tracker(
    run: Run, index: int, sup: Supervisor, ctl_dir: Path, run_as: RunAs
) -> TrackerServer:
    """Stage II's ticket tracker for this session, and its `tickets` client in ctl_dir/bin.
    Tier 1's sprint is on the board only once the product note has told the agent of it."""
    tier = run.tier

    def board() -> Board:
        announced = not sup.arm_on_commit or sup.note_delivered
        return board_for(tier, run.seed, index, announced)

    tracker = TrackerServer(ctl_dir, board, sup.started_ns)
    tracker.install_client(ctl_dir / "bin", _hook_python(run_as))
    tracker.start()
    return tracker


def _start_metering(
    traits: AdapterTraits, run: Run, run_as: RunAs, environ: Mapping[str, str]
) -> SessionMetering | None:
    """SpecSnap's meter between the agent and its model APIs, holding their keys, and the
    agent's egress confined to it; None with `--agent-opt meter=off`."""
    if run.agent_options.get("meter") == "off":
        return None
    return SessionMetering.start(traits.apis, environ, run_as.uid, python_for(run_as))


def _finish_metering(
    metering: SessionMetering | None, traits: AdapterTraits, reported: Tokens, notes: list[str]
) -> tuple[Tokens, dict[str, Any]]:
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


def _prepare_home(
    run: Run, index: int, home: Path, prompt: str, needs_solution: bool
) -> SessionContext:
    """Fill the session's empty HOME: the prompt, a TMPDIR, and for controls the solution."""
    (home / "tmp").mkdir()
    (home / "prompt.md").write_text(prompt, encoding="utf-8")
    control_dir = None
    if needs_solution:
        tier = run.tier
        control_dir = home / ".control"
        write_solution(tier, solution_values(run), control_dir)
        if run.stage == 2:
            write_variants(tier, run.seed, control_dir)
            write_stage2_fix(tier, solution_values(run), control_dir)
    return SessionContext(
        index=index,
        sandbox=run.sandbox,
        home=home,
        prompt=prompt,
        prompt_file=home / "prompt.md",
        usage_file=home / ".usage.json",
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
) -> tuple[int | None, bool, list[str]]:
    """Start the agent, wait for its end, the cutoff or the time limit; end all its processes.
    Its exit code (None: it could not be started), whether it hit the time limit, and notes."""
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
        return None, False, [f"the agent could not be started: {exc}"]
    sup.marks = SessionMarks(pgid=proc.pid, token=token, account=None if run_as.is_self else run_as)
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
    if ended.total and sup.reason is None and not timed_out:
        notes.append(f"the agent left {ended.total} background process(es); SpecSnap ended them")
    if ended.escaped:
        notes.append(
            f"{ended.escaped} process(es) of the agent's account had left its session (a new "
            "session and no session token); containment by account ended them"
        )
    if timed_out:
        notes.append(f"the session hit its time limit of {limit}s")
    notes += capture.notes()
    return proc.returncode, timed_out, notes


def _environment(
    environ: Mapping[str, str],
    passed: tuple[str, ...],
    adapter_env: Any,
    ctx: SessionContext,
    token: str,
) -> dict[str, str]:
    env = {
        "PATH": environ.get("PATH", BASE_PATH),
        "HOME": str(ctx.home),
        "TMPDIR": str(ctx.home / "tmp"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "dumb",
        "CI": "true",
        SESSION_VARIABLE: token,
    }
    for name in passed:
        if name in environ:
            env[name] = environ[name]
    env.update(adapter_env)
    return env
