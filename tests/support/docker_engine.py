"""A Docker engine and the images the Docker tests use, shared by every pytest-xdist worker of
one test run (tests/functional/conftest.py holds the fixtures).

The test run uses the local Docker engine, starting `dockerd` itself when none answers (as root),
and the last worker done with it stops it. No container registry is needed: the base image is
built by scripts/build-base-image.sh when the engine lacks it (SPECSNAP_BASE_IMAGE=pinned builds
FROM the Dockerfile's own pinned base). The images are built once per test run, the Action's from
a cold cache; SPECSNAP_ACTION_IMAGE names an image built already instead (to iterate on the
tests, never in CI).

One xdist worker should run the Docker tests (`loadgroup`), but pytest-xdist 3.8 under pytest 9
no longer keeps a group on one worker; the engine and the images are therefore shared through
`shared_state` (a lock and a use count in the run's temporary directory), never started or built
twice.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCAL_BASE_IMAGE = "specsnap-base:bookworm-slim"  # scripts/build-base-image.sh makes it
BASE_IMAGE = os.environ.get("SPECSNAP_BASE_IMAGE", LOCAL_BASE_IMAGE)
IMAGE = "specsnap-action:test"
BOT_IMAGE = "specsnap-bot:test"
FRESH_IMAGE = "specsnap-fresh-machine:test"
PREBUILT = os.environ.get("SPECSNAP_ACTION_IMAGE", "")


@contextlib.contextmanager
def shared_state(factory: pytest.TempPathFactory) -> Iterator[Path]:
    """What the workers of one test run share (a lock, the engine's users, what was built), in
    the run's temporary directory, held under an exclusive lock for the block."""
    base = factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "docker-shared"
    shared.mkdir(mode=0o700, exist_ok=True)
    with (shared / "lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield shared


def docker_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    done = subprocess.run(["docker", "info"], capture_output=True, check=False, timeout=60)
    return done.returncode == 0


@contextlib.contextmanager
def engine_in_use(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A Docker engine: the running one, or a `dockerd` this test run starts, shared by every
    worker that needs it, and stopped by the last one done with it."""
    with shared_state(tmp_path_factory) as shared:
        users = shared / "users"
        count = int(users.read_text()) if users.exists() else 0
        if count == 0 and not docker_answers():
            _start_dockerd(shared)
        users.write_text(str(count + 1))
    try:
        yield
    finally:
        with shared_state(tmp_path_factory) as shared:
            count = int((shared / "users").read_text()) - 1
            (shared / "users").write_text(str(count))
            pid_file = shared / "dockerd.pid"
            if count == 0 and pid_file.exists():
                _stop(int(pid_file.read_text()))
                pid_file.unlink()


def _start_dockerd(shared: Path) -> None:
    if shutil.which("docker") is None or shutil.which("dockerd") is None:
        pytest.skip(
            "no Docker engine: docker/dockerd are not installed (apt-get install docker.io)"
        )
    if os.geteuid() != 0:
        pytest.skip("no Docker engine answers, and starting dockerd needs root")
    log = shared / "dockerd.log"
    with log.open("ab") as out:
        # Its own session: it outlives the worker that started it if another still uses it.
        daemon = subprocess.Popen(
            ["dockerd"], stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    deadline = time.monotonic() + 60
    while not docker_answers():
        if daemon.poll() is not None or time.monotonic() > deadline:
            _stop(daemon.pid)
            pytest.skip(f"dockerd could not be started here: {log.read_text()[-2000:]}")
        time.sleep(1)
    (shared / "dockerd.pid").write_text(str(daemon.pid))


def _stop(pid: int) -> None:
    """SIGTERM, then SIGKILL after 30 s; done when the process is gone or a zombie."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + 30
    while _alive(pid):
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.2)


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def action_image(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Action's image, built from a cold cache (`--no-cache`), FROM the local base image
    (built first when missing) or, with SPECSNAP_BASE_IMAGE=pinned, the Dockerfile's own."""
    if PREBUILT:
        return PREBUILT
    with shared_state(tmp_path_factory) as shared:
        if not (shared / "action-image").exists():
            _build_action_image()
            (shared / "action-image").touch()
    return IMAGE


def _build_action_image() -> None:
    have_base = subprocess.run(
        ["docker", "image", "inspect", BASE_IMAGE], capture_output=True, check=False
    )
    if have_base.returncode != 0 and BASE_IMAGE == LOCAL_BASE_IMAGE:
        subprocess.run(
            ["bash", str(ROOT / "scripts" / "build-base-image.sh"), BASE_IMAGE],
            check=True,
            timeout=1200,
        )
    _build("action", IMAGE, "cold build of the action image", "--no-cache")


def _build(target: str, tag: str, what: str, *flags: str) -> None:
    """`docker build` of the Dockerfile's `target` as `tag`, FROM the base image chosen."""
    base = [] if BASE_IMAGE == "pinned" else ["--build-arg", f"BASE_IMAGE={BASE_IMAGE}"]
    started = time.monotonic()
    command = ["docker", "build", *flags, "--network", "host", *base, "--target", target]
    build = subprocess.run(
        [*command, "-t", tag, str(ROOT)],
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]
    print(f"{what}: {time.monotonic() - started:.0f}s")


def bot_image(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The bot's image (target `bot`), on the layers the Action's cold build just made."""
    with shared_state(tmp_path_factory) as shared:
        if not (shared / "bot-image").exists():
            _build("bot", BOT_IMAGE, "build of the bot image on the Action's layers")
            (shared / "bot-image").touch()
    return BOT_IMAGE


def fresh_machine_image(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh Debian machine as the README assumes one (Python 3.11, git, nothing of SpecSnap's):
    the Dockerfile's `system` stage, on the layers the Action's cold build just made."""
    with shared_state(tmp_path_factory) as shared:
        if not (shared / "fresh-image").exists():
            _build("system", FRESH_IMAGE, "build of a fresh Debian machine")
            (shared / "fresh-image").touch()
    return FRESH_IMAGE


def docker_logs(name: str) -> str:
    done = subprocess.run(["docker", "logs", name], capture_output=True, text=True, check=False)
    return done.stdout + done.stderr
