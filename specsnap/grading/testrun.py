"""The grader's test runs against an exported tree: the judge, and the visible tests' subject.

Layout of the grading workspace (outside the sandbox; only SpecSnap's account can write it):

    work/export/     the graded commit's tree (read-only to subjects)
    JUDGE/hidden/    the tier's hidden tests (the grader's copy), run by the judge: kept with
                     their compiled bytecode in SpecSnap's cache, by content (judge_root)
    work/visible/    the starter's visible tests (the grader's pristine copy), run in a subject
    work/boot/       the judge, the bridge, the report plugin
    work/inputs/     files tests hand to subjects;   work/scratch/  one directory per subject
    work/results/    what the judge wrote (subjects cannot reach it)
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from specsnap.errors import InfrastructureError
from specsnap.grading.isolation import SubjectLauncher, Subjects
from specsnap.grading.prepared import (
    GRADER_INI,
    compile_export,
    grader_paths,
    grader_runtime,
    judge_root,
    make_readable,
)
from specsnap.tier.model import Tier

BOOT_FILES = (
    "bridge_codec.py",
    "bridge_judge.py",
    "class_graph.py",
    "bridge_subject.py",
    "judge_boot.py",
    "judge_plugin.py",
    "visible_boot.py",
    "specsnap_grade_report.py",
    "subject_guard.py",
)
BASELINE_GROUP = "(baseline)"


@dataclass(frozen=True)
class TestRun:
    """What the grader saw: outcome per node id (ids as in tier.yaml), plus run facts."""

    outcomes: dict[str, str]  # hidden node id -> passed/failed/error/skipped/xfailed/...
    collected: int
    expected: int
    exit_code: int
    problem: str | None  # why the judge's run as a whole cannot be trusted, if it cannot
    runtime_imports: list[dict[str, Any]]  # from the subjects' audit hooks
    network_isolated: bool
    visible_problem: str | None = None  # why the visible tests' run failed as a whole
    channel_problems: list[str] = field(default_factory=list)
    subjects: int = 0
    visible: dict[str, str] = field(default_factory=dict)  # visible node id -> outcome


def prepare_workspace(tier: Tier, work: Path) -> None:
    """Lay out the grader's own copies next to the export (the hidden tests: judge_root)."""
    for rel in tier.visible_tests:
        source = tier.starter / rel
        target = work / "visible" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target)
    (work / "visible").mkdir(exist_ok=True)
    (work / "visible" / "pytest.ini").write_text(GRADER_INI)
    boot = work / "boot"
    boot.mkdir()
    for name in BOOT_FILES:
        text = resources.files("specsnap.grading").joinpath("boot", name).read_text()
        (boot / name).write_text(text)
    for name in ("results", "scratch", "inputs"):
        (work / name).mkdir()
    # The tier may be root-only (the Action's image); subjects must read the visible tests and
    # the bridge, never the hidden tests or the results.
    for name in ("visible", "boot", "inputs", "export"):
        make_readable(work / name)
    (work / "results").chmod(0o700)
    (work / "scratch").chmod(0o711)


def run_tests(
    tier: Tier, export: Path, work: Path, subjects: Subjects, params: dict[str, Any]
) -> TestRun:
    """Run the hidden tests in the judge and the visible tests in a subject, at the same time."""
    launcher = subjects.first
    judge = judge_root(tier, work)
    compile_export(export, launcher.python)
    hidden_ids = [node for req in tier.requirements for node in req.tests]
    hidden_ids += list(tier.hidden_baseline)
    groups = {f"hidden/{node}": req.id for req in tier.requirements for node in req.tests}
    groups.update({f"hidden/{node}": BASELINE_GROUP for node in tier.hidden_baseline})
    code_paths = [str((export / p).resolve()) for p in tier.python_path]
    visible: dict[str, Any] = {}
    visible_thread = threading.Thread(
        target=lambda: visible.update(_run_visible(tier, work, subjects.visible, code_paths)),
        daemon=True,
    )
    visible_thread.start()
    config = {
        "grader_paths": grader_paths(),
        "boot_dir": str(work / "boot"),
        "code_paths": code_paths,
        "report_path": str(work / "results" / "report.json"),
        "scratch_root": str(work / "scratch"),
        "inputs_dir": str(work / "inputs"),
        "subject_launchers": [
            each.judge_entry(work / "boot" / "bridge_subject.py") for each in subjects.hidden
        ],
        "network_guard": not launcher.network_isolated,
        "call_timeout_s": tier.test_timeout_s,
        "groups": groups,
        "params": params,
        "pytest_args": [
            "-c",
            str(judge / "pytest.ini"),
            "--rootdir",
            str(judge),
            "--import-mode=importlib",
            "-p",
            "no:cacheprovider",
            "-p",
            "pytest_timeout",
            f"--timeout={tier.test_timeout_s + 5}",
            "--continue-on-collection-errors",
            "-q",
            "--no-header",
            "-o",
            "console_output_style=classic",
            *[str(judge / "hidden" / node) for node in hidden_ids],
        ],
    }
    config_path = work / "results" / "judge.json"
    config_path.write_text(json.dumps(config))
    argv = [sys.executable, "-P", "-s", "-S", "-B", str(work / "boot" / "judge_boot.py")]
    limit = (tier.test_timeout_s + 5) * (len(hidden_ids) + 2) + 60
    exit_code, output = _run([*argv, str(config_path)], work, _judge_env(), limit)
    (work / "results" / "judge-output.txt").write_bytes(output)
    visible_thread.join()
    return _read_report(work, hidden_ids, exit_code, launcher, visible)


def _judge_env() -> dict[str, str]:
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/nonexistent",
        "LC_ALL": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def _run_visible(
    tier: Tier, work: Path, launcher: SubjectLauncher, code_paths: list[str]
) -> dict[str, Any]:
    """The pristine visible tests in a subject; their counts come back on a pipe we hold."""
    pytest_args = [
        "-c",
        str(work / "visible" / "pytest.ini"),
        "--rootdir",
        str(work / "visible"),
        "--import-mode=importlib",
        "-p",
        "no:cacheprovider",
        "-p",
        "pytest_timeout",
        f"--timeout={tier.test_timeout_s}",
        "--continue-on-collection-errors",
        "-q",
        "--no-header",
        *[str(work / "visible" / rel) for rel in tier.visible_tests],
    ]
    limit = tier.test_timeout_s * (tier.visible_count + 2) + 60
    return run_subject_pytest(launcher, work, "visible", code_paths, pytest_args, limit)


def run_subject_pytest(
    launcher: SubjectLauncher,
    work: Path,
    name: str,
    code_paths: list[str],
    pytest_args: list[str],
    limit: float,
) -> dict[str, Any]:
    """pytest with `pytest_args` in one subject (scratch directory work/scratch/NAME, pytest's
    output in work/results/NAME-output.txt), ended after `limit` seconds; what it reports comes
    back on a pipe we hold: {"outcomes", "collect_errors", "exit_code", "problem"} (`problem`
    None, or why nothing could be read). Whatever runs in it can forge that report, so it only
    ever says what code run as the subject did, never what the judge decided."""
    scratch = work / "scratch" / name
    scratch.mkdir(mode=0o700)
    if not launcher.account.is_self:
        os.chown(scratch, launcher.account.uid, launcher.account.gid)
    read_end, write_end = os.pipe()
    config = {
        "grader_paths": (
            [str(grader_runtime(launcher.python))] if launcher.private_tmp else grader_paths()
        ),
        "boot_dir": str(work / "boot"),
        "code_paths": code_paths,
        "network_guard": not launcher.network_isolated,
        "result_fd": write_end,
        "pytest_args": pytest_args,
    }
    argv = [*launcher.argv, str(work / "boot" / "visible_boot.py"), json.dumps(config)]
    env = dict(launcher.env(), HOME=str(scratch), TMPDIR=str(scratch))
    chunks: list[bytes] = []
    reader = threading.Thread(target=_drain, args=(read_end, chunks, 16 << 20), daemon=True)
    reader.start()
    try:
        exit_code, output = _run(argv, scratch, env, limit, pass_fds=(write_end,))
    finally:
        os.close(write_end)
        if launcher.sweep_argv:
            subprocess.run(launcher.sweep_argv, capture_output=True, stdin=subprocess.DEVNULL)
    reader.join(timeout=10)
    (work / "results" / f"{name}-output.txt").write_bytes(output)
    if exit_code == -signal.SIGKILL:
        return {"outcomes": {}, "exit_code": exit_code, "problem": f"ran over {limit:.0f} s"}
    try:
        summary = json.loads(b"".join(chunks).decode("utf-8"))
        outcomes = {
            str(k): str(v) for k, v in dict(summary["outcomes"]).items() if isinstance(v, str)
        }
        errors = [str(e) for e in list(summary.get("collect_errors", []))]
    except (ValueError, KeyError, TypeError):
        return {"outcomes": {}, "exit_code": exit_code, "problem": "left no readable report"}
    return {"outcomes": outcomes, "collect_errors": errors, "exit_code": exit_code, "problem": None}


def _drain(fd: int, chunks: list[bytes], cap: int) -> None:
    size = 0
    with contextlib.suppress(OSError):
        while chunk := os.read(fd, 65536):
            if size < cap:
                chunks.append(chunk)
            size += len(chunk)
    os.close(fd)


def _run(
    argv: list[str],
    cwd: Path,
    env: dict[str, str],
    limit: float,
    pass_fds: tuple[int, ...] = (),
) -> tuple[int, bytes]:
    try:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            pass_fds=pass_fds,
        )
    except OSError as exc:
        raise InfrastructureError(f"could not start the grader ({argv[0]}): {exc}") from exc
    try:
        output, _ = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        output, _ = proc.communicate()
        return -signal.SIGKILL, output
    finally:
        _kill_group(proc.pid)
    return proc.returncode, output


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _read_report(
    work: Path,
    hidden_ids: list[str],
    exit_code: int,
    launcher: SubjectLauncher,
    visible: dict[str, Any],
) -> TestRun:
    """The judge's report file, judged by judge_test_run."""
    try:
        report: str | None = (work / "results" / "report.json").read_text()
    except (OSError, ValueError):
        report = None
    try:
        return judge_test_run(report, hidden_ids, exit_code, launcher.network_isolated, visible)
    except InfrastructureError as exc:
        raise InfrastructureError(f"{exc}; see {work / 'results' / 'judge-output.txt'}") from exc


def judge_test_run(
    report: str | None,
    hidden_ids: list[str],
    exit_code: int,
    network_isolated: bool,
    visible: dict[str, Any],
) -> TestRun:
    """What the judge's report (its JSON text, None when it left none) and its exit code say,
    checked against the expected hidden tests; `visible` is what `_run_visible` returned.

    A report that cannot be read credits nothing: every test is then not collected. A report
    that collected another number of tests than expected is SpecSnap's fault (the judge runs
    only the grader's own files).
    """
    problem = None
    try:
        parsed: Any = json.loads(report) if report is not None else None
        raw_outcomes: dict[str, str] = dict(parsed["outcomes"])
        collected: list[str] = list(parsed["collected"])
        bridge: dict[str, Any] = dict(parsed["bridge"])
    except (ValueError, KeyError, TypeError):
        raw_outcomes, collected, bridge = {}, [], {}
        problem = f"the judge left no readable report (exit code {exit_code})"
    outcomes = {node: raw_outcomes.get(f"hidden/{node}", "not-collected") for node in hidden_ids}
    if problem is None and len(collected) != len(hidden_ids):
        raise InfrastructureError(
            f"the judge collected {len(collected)} hidden tests, expected {len(hidden_ids)}"
        )
    visible_problem = visible.get("problem")
    if visible_problem is None and visible.get("exit_code") not in (0, 1, None):
        visible_problem = f"pytest exited with {visible.get('exit_code')}"
    if visible_problem is not None:
        visible_problem = f"the visible tests' run {visible_problem}"
    return TestRun(
        outcomes=outcomes,
        collected=len(collected),
        expected=len(hidden_ids),
        exit_code=exit_code,
        problem=problem,
        runtime_imports=list(bridge.get("imports", [])),
        network_isolated=network_isolated,
        visible_problem=visible_problem,
        channel_problems=[str(p) for p in bridge.get("problems", [])],
        subjects=int(bridge.get("subjects", 0)),
        visible=dict(visible.get("outcomes", {})),
    )
