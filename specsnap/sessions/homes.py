"""The session's HOME (and TMPDIR inside it): fresh, on another filesystem than the sandbox
where possible, and retired into the session's records when the session ends.

A hard link cannot cross filesystems, so a HOME on its own filesystem cannot hold a second
name of a sandbox file (through which the agent could write without the sandbox's directories
seeing it). As root SpecSnap mounts a tmpfs for it; where mounting is not allowed (a container
without CAP_SYS_ADMIN) it uses the system's temporary directory if that is another filesystem;
failing both, the HOME stays in the run directory, and the session record says which it was
(`home_filesystem`: tmpfs, separate or same).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from specsnap.accounts.identity import RunAs

HOME_SIZE = "1g"


@dataclass(frozen=True)
class Home:
    path: Path
    filesystem: str  # tmpfs, separate or same (as the sandbox)
    mounted: bool


def make_home(run_dir: Path, index: int, sandbox: Path, run_as: RunAs) -> Home:
    """An empty HOME for session `index`, owned by root until the session hands it over."""
    path = run_dir / "homes" / str(index)
    path.parent.mkdir(mode=0o711, exist_ok=True)
    path.mkdir(mode=0o700)
    if os.geteuid() == 0 and _mount_tmpfs(path):
        return Home(path, "tmpfs", mounted=True)
    sandbox_dev = os.stat(sandbox).st_dev
    if os.stat(path).st_dev != sandbox_dev:
        return Home(path, "separate", mounted=False)
    elsewhere = Path(tempfile.mkdtemp(prefix="specsnap-home-"))
    if os.stat(elsewhere).st_dev != sandbox_dev:
        path.rmdir()
        return Home(elsewhere, "separate", mounted=False)
    elsewhere.rmdir()
    return Home(path, "same", mounted=False)


def _mount_tmpfs(path: Path) -> bool:
    options = f"size={HOME_SIZE},mode=0700,uid=0,gid=0,nosuid,nodev"
    proc = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "specsnap-home", str(path)],
        capture_output=True,
        check=False,
    )
    return proc.returncode == 0


def retire_home(home: Home, target: Path) -> list[str]:
    """Copy the HOME into the session's records at `target` (root-owned; later sessions cannot
    read it), then remove it; notes on what could not be kept."""
    notes = [] if target.exists() else _copy_tree(home.path, target)
    if home.mounted:
        subprocess.run(["umount", "--lazy", str(home.path)], capture_output=True, check=False)
        home.path.rmdir()
    else:
        shutil.rmtree(home.path, ignore_errors=True)
    return notes


def _copy_tree(source: Path, target: Path) -> list[str]:
    """Directories, regular files and symlinks, as root-owned copies; nothing else is opened
    (a FIFO the agent left would block a reader)."""
    skipped = 0
    for dirpath, dirnames, filenames in os.walk(source):
        rel = Path(dirpath).relative_to(source)
        (target / rel).mkdir(mode=0o700, parents=True, exist_ok=True)
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            src, dst = Path(dirpath) / name, target / rel / name
            info = os.lstat(src)
            if stat.S_ISLNK(info.st_mode):
                os.symlink(os.readlink(src), dst)
            elif stat.S_ISREG(info.st_mode):
                shutil.copyfile(src, dst, follow_symlinks=False)
                os.chmod(dst, stat.S_IMODE(info.st_mode) & 0o700)
            else:
                skipped += 1
    return [f"{skipped} special file(s) in the session's HOME were not kept"] if skipped else []
