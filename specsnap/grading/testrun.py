"""One isolated pytest run of the grader's tests against an exported tree.

Layout of the grading workspace (outside the sandbox):

    work/export/    the graded commit's tree (the agent's code)
    work/hidden/    the tier's hidden tests (the grader's copy)
    work/visible/   the starter's visible tests (the grader's pristine copy)
    work/boot/      bootstrap + report plugin;  work/results/  what the run wrote
    work/pytest.ini the grader's own configuration
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import signal
import subprocess
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from specsnap.errors import InfrastructureError
from specsnap.identity import RunAs, give_to, python_for
from specsnap.tiers import Tier

GRADER_INI = "[pytest]\naddopts = -p no:cacheprovider\nconsider_namespace_packages = false\n"


@dataclass(frozen=True)
class TestRun:
    """What the grader saw: outcome per node id (ids as in tier.yaml), plus run facts."""

    outcomes: dict[str, str]  # node id -> passed/failed/error/skipped/xfailed/not-collected
    collected: int
    expected: int
    exit_code: int
    problem: str | None  # why the run as a whole cannot be trusted, if it cannot
    runtime_imports: list[tuple[str, str, str, int]]  # importer, imported, file, line
    network_isolated: bool


def prepare_workspace(tier: Tier, export: Path, work: Path) -> None:
    """Lay out the grader's own copies next to the export."""
    shutil.copytree(tier.grader, work / "hidden", ignore=shutil.ignore_patterns("__pycache__"))
    for rel in tier.visible_tests:
        source = tier.starter / rel
        target = work / "visible" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target)
    boot = work / "boot"
    boot.mkdir()
    for name in ("bootstrap.py", "specsnap_grade_report.py"):
        text = resources.files("specsnap.grading").joinpath("boot", name).read_text()
        (boot / name).write_text(text)
    (work / "pytest.ini").write_text(GRADER_INI)
    (work / "results").mkdir()
    # The tier may be root-only (the Action's image); the test account must read these copies.
    for name in ("hidden", "visible", "boot"):
        _make_readable(work / name)
    (work / "pytest.ini").chmod(0o644)


def _make_readable(root: Path) -> None:
    if not root.exists():
        return
    root.chmod(0o755)
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames:
            os.chmod(os.path.join(dirpath, name), 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)


def run_tests(tier: Tier, export: Path, work: Path, run_as: RunAs) -> TestRun:
    """Run every hidden and visible baseline test once, isolated, and read the grader's report."""
    hidden_ids = [node for req in tier.requirements for node in req.tests]
    hidden_ids += list(tier.hidden_baseline)
    expected = len(hidden_ids) + tier.visible_count
    results = work / "results"
    config = {
        "grader_paths": _grader_paths(),
        "code_paths": [str((export / p).resolve()) for p in tier.python_path],
        "boot_dir": str(work / "boot"),
        "report_path": str(results / "report.json"),
        "imports_path": str(results / "imports.json"),
        "network_guard": not network_isolation_available(),
        "pytest_args": [
            "-c",
            str(work / "pytest.ini"),
            "--rootdir",
            str(work),
            "--import-mode=importlib",
            "-p",
            "no:cacheprovider",
            "-p",
            "pytest_timeout",
            f"--timeout={tier.test_timeout_s}",
            "--continue-on-collection-errors",
            "-q",
            "--no-header",
            "-o",
            "console_output_style=classic",
            *[str(work / "hidden" / node) for node in hidden_ids],
            *[str(work / "visible" / rel) for rel in tier.visible_tests],
        ],
    }
    config_path = work / "boot" / "config.json"
    config_path.write_text(json.dumps(config))
    config_path.chmod(0o644)
    give_to(results, run_as)
    isolated = network_isolation_available()
    argv = [python_for(run_as), "-I", "-S", "-B", str(work / "boot" / "bootstrap.py")]
    argv.append(str(config_path))
    if isolated:
        argv = ["unshare", "--user", "--map-root-user", "--net", "--", *argv]
    limit = tier.test_timeout_s * (expected + 2) + 60
    exit_code, output = _run(argv, export, run_as, limit)
    (work / "results" / "pytest-output.txt").write_bytes(output)
    return _read_report(tier, work, hidden_ids, expected, exit_code, isolated)


def _grader_paths() -> list[str]:
    """The directories holding the grader's own pytest and its dependencies, nothing else.

    Found with find_spec, without importing them (importing pytest alone costs ~0.1 s).
    """
    paths = set()
    for name in ("pytest", "_pytest", "pluggy", "pytest_timeout", "iniconfig", "packaging"):
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise InfrastructureError(f"the grader needs {name!r}, which is not installed")
        origin = Path(spec.origin).resolve()
        package_dir = origin.parent if origin.name == "__init__.py" else origin
        paths.add(str(package_dir.parent))
    return sorted(paths)


@cache
def network_isolation_available() -> bool:
    """Whether a network namespace can be made here (`unshare --user --net`)."""
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--net", "--", "true"], capture_output=True
    )
    return probe.returncode == 0


def _run(argv: list[str], cwd: Path, run_as: RunAs, limit: float) -> tuple[int, bytes]:
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(cwd),
        "LC_ALL": "C.UTF-8",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "NO_PROXY": "*",
    }
    user = None if run_as.is_self else run_as.uid
    group = None if run_as.is_self else run_as.gid
    try:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            user=user,
            group=group,
            extra_groups=[] if user is not None else None,
        )
    except OSError as exc:
        raise InfrastructureError(f"could not start the grader's pytest: {exc}") from exc
    try:
        output, _ = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        return -signal.SIGKILL, output
    finally:
        _kill_group(proc.pid)
    return proc.returncode, output


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def _read_report(
    tier: Tier, work: Path, hidden_ids: list[str], expected: int, exit_code: int, isolated: bool
) -> TestRun:
    report_path = work / "results" / "report.json"
    imports_path = work / "results" / "imports.json"
    problem = None
    try:
        report = json.loads(report_path.read_text())
        raw_outcomes: dict[str, str] = dict(report["outcomes"])
        collected: list[str] = list(report["collected"])
        collect_errors: list[str] = list(report["collect_errors"])
    except (OSError, ValueError, KeyError, TypeError):
        raw_outcomes, collected, collect_errors = {}, [], []
        problem = f"the test run left no readable report (exit code {exit_code})"
    try:
        runtime_imports = [tuple(x) for x in json.loads(imports_path.read_text())]
    except (OSError, ValueError):
        runtime_imports = []
    prefix = (work / "hidden").name + "/"
    outcomes: dict[str, str] = {}
    for node in hidden_ids:
        outcomes[node] = raw_outcomes.get(prefix + node, "not-collected")
    visible = {k: v for k, v in raw_outcomes.items() if k.startswith("visible/")}
    outcomes.update(visible)
    all_passed = bool(raw_outcomes) and all(v == "passed" for v in raw_outcomes.values())
    # Fewer tests than expected is explained by collection errors (those tests then fail);
    # more, or fewer without an error, means something changed what the grader runs.
    if problem is None and (
        len(collected) > expected or (len(collected) < expected and not collect_errors)
    ):
        problem = f"collected {len(collected)} tests, expected {expected}"
    if problem is None and all_passed and exit_code != 0:
        problem = f"the report says every test passed but pytest exited with {exit_code}"
    if problem is not None:
        outcomes = {k: ("error" if v == "passed" else v) for k, v in outcomes.items()}
    return TestRun(
        outcomes=outcomes,
        collected=len(collected),
        expected=expected,
        exit_code=exit_code,
        problem=problem,
        runtime_imports=runtime_imports,
        network_isolated=isolated,
    )
