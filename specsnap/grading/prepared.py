"""What the grader prepares once and reuses: the hidden tests with their compiled bytecode, the
pytest the subjects run, and the graded tree's bytecode (testrun.py runs the tests).

Subjects may not write bytecode and every grading starts from fresh copies, so without these each
process would compile everything it imports, on every grading: the judge its assert-rewritten
hidden tests, each subject the whole product, the visible tests' subject all of pytest.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import shutil
import stat
import subprocess
import tempfile
from importlib import metadata
from pathlib import Path

from specsnap.errors import InfrastructureError
from specsnap.tier.model import Tier

GRADER_INI = "[pytest]\naddopts = -p no:cacheprovider\nconsider_namespace_packages = false\n"


COMPILE = """
import importlib.util, os, py_compile, sys
for path in map(os.fsdecode, filter(None, sys.stdin.buffer.read().split(b"\\0"))):
    cfile = importlib.util.cache_from_source(path)
    folder = os.path.dirname(cfile)
    if os.path.islink(folder) or os.path.islink(cfile) or os.path.isfile(folder):
        continue  # never write through a link the graded tree holds
    try:
        py_compile.compile(path, cfile=cfile, doraise=True)
    except Exception:
        pass
"""


def compile_export(export: Path, python: str) -> None:
    """Compile the graded tree's modules once, before any subject starts, with the subjects'
    interpreter, into `__pycache__` beside them.

    Subjects may not write bytecode, so each would otherwise compile every module it imports
    (about 20 ms per subject on tier 2, twelve subjects or more per grading). Only regular files
    are compiled, never what a link points to (a link may point at what only SpecSnap may read),
    and nothing is written through a link (a `__pycache__` link may point anywhere), in a process
    of its own (the graded source cannot crash the grader's). The export is SpecSnap's copy,
    which no subject can write. What is not compiled here, each subject compiles for itself.
    """
    sources = []
    for dirpath, dirnames, filenames in os.walk(export):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for name in filenames:
            path = os.path.join(dirpath, name)
            if name.endswith(".py") and stat.S_ISREG(os.lstat(path).st_mode):
                sources.append(path)
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(
            [python, "-I", "-S", "-c", COMPILE],
            input=b"\0".join(os.fsencode(path) for path in sources),  # any name, even with "\n"
            cwd=export,
            capture_output=True,
            timeout=120,
            check=False,
        )


JUDGE_CACHE = Path("/var/lib/specsnap/judge")


def judge_root(tier: Tier, work: Path) -> Path:
    """The directory the judge runs the hidden tests from: `hidden/`, the grader's copy of the
    tier's hidden tests, beside a `pytest.ini`.

    pytest compiles each test module with its asserts rewritten, and keeps the bytecode beside
    the module; a fresh copy per grading would compile them all every time (about half a second
    on tier 2). So the copy is kept, named by the digest of the tests' content, in a directory
    only SpecSnap's account can write, and every grading of the same tests reuses it. Without
    such a directory, the copy is made in the workspace.
    """
    cache = _judge_cache()
    if cache is None:
        _copy_hidden(tier, work)
        return work
    entry = cache / _tree_digest(tier.grader)
    if not entry.is_dir():
        staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=cache))
        _copy_hidden(tier, staging)
        try:
            staging.rename(entry)
        except OSError:  # another grading made it first
            shutil.rmtree(staging, ignore_errors=True)
    return entry


def _judge_cache() -> Path | None:
    if os.geteuid() == 0:
        cache = JUDGE_CACHE
    else:
        home = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
        cache = Path(home) / "specsnap" / "judge"
    try:
        cache.mkdir(parents=True, exist_ok=True)
        cache.chmod(0o700)
    except OSError:
        return None
    return cache


def _copy_hidden(tier: Tier, target: Path) -> None:
    shutil.copytree(tier.grader, target / "hidden", ignore=shutil.ignore_patterns("__pycache__"))
    (target / "hidden").chmod(0o700)
    (target / "pytest.ini").write_text(GRADER_INI)
    (target / "pytest.ini").chmod(0o644)


def _tree_digest(root: Path) -> str:
    digest = hashlib.sha256(GRADER_INI.encode())
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            path = Path(dirpath, name)
            digest.update(f"{path.relative_to(root).as_posix()}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:32]


def make_readable(root: Path) -> None:
    if not root.exists():
        return
    root.chmod(0o755)
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = os.path.join(dirpath, name)
            if os.path.islink(path):
                continue  # chmod follows links: a link in the export may point anywhere
            executable = os.path.isdir(path) or os.stat(path).st_mode & 0o100
            os.chmod(path, 0o755 if executable else 0o644)


GRADER_PACKAGES = ("pytest", "_pytest", "pluggy", "pytest_timeout", "iniconfig", "packaging", "py")
GRADER_DISTRIBUTIONS = ("pytest", "pytest-timeout")
RUNTIMES = Path("/var/lib/specsnap/runtime")


def grader_runtime(python: str) -> Path:
    """A root-owned, world-readable copy of the grader's pytest and everything it needs,
    compiled for the subjects' interpreter `python`.

    The visible tests' subject runs them, and a subject has a private /tmp: a SpecSnap installed
    under /tmp (a CI checkout, say) would be invisible to it. The copy holds the installed files
    of pytest, pytest-timeout and their requirements, with their bytecode (a subject may not
    write any: compiling pytest on every start costs about 0.35 s), is made once per set of
    versions and interpreter, and reused.
    """
    dists = _distribution_closure(GRADER_DISTRIBUTIONS)
    names = sorted(f"{d.metadata['Name']}=={d.version}" for d in dists)
    key = hashlib.sha256("\n".join([python, *names]).encode()).hexdigest()[:16]
    target = RUNTIMES / key
    if target.is_dir():
        return target
    RUNTIMES.mkdir(parents=True, exist_ok=True)
    RUNTIMES.parent.chmod(0o711)
    RUNTIMES.chmod(0o711)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=RUNTIMES))
    for dist in dists:
        for file in dist.files or ():
            parts = Path(str(file)).parts
            if not parts or parts[0] == ".." or file.suffix == ".pyc":
                continue  # scripts installed outside site-packages; bytecode
            source = Path(str(dist.locate_file(file)))
            if source.is_file():
                (staging / file).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, staging / file)
    subprocess.run(
        [python, "-m", "compileall", "-q", str(staging)],
        check=False,
        capture_output=True,
        stdin=subprocess.DEVNULL,
    )  # what does not compile is compiled, unsaved, by the subject that imports it
    make_readable(staging)
    try:
        staging.rename(target)
    except OSError:  # another grading made it first
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _distribution_closure(names: tuple[str, ...]) -> list[metadata.Distribution]:
    """The installed distributions `names` need, with their requirements for this interpreter."""
    from packaging.requirements import Requirement

    found: dict[str, metadata.Distribution] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        key = name.lower().replace("_", "-")
        if key in found:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise InfrastructureError(
                f"the grader needs {name!r}, which is not installed"
            ) from None
        found[key] = dist
        for line in dist.requires or ():
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return list(found.values())


def _package_path(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise InfrastructureError(f"the grader needs {name!r}, which is not installed")
    origin = Path(spec.origin).resolve()
    return origin.parent if origin.name == "__init__.py" else origin


def grader_paths() -> list[str]:
    """The directories holding the grader's own pytest and its dependencies, nothing else.

    Found with find_spec, without importing them (importing pytest alone costs ~0.1 s).
    """
    return sorted({str(_package_path(name).parent) for name in GRADER_PACKAGES})
