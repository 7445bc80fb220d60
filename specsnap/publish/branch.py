"""Publishing files (the badge) to a branch of a git repository, for a public raw URL.

shields.io's endpoint badge reads a JSON document from any public URL; a file on a branch of a
public repository has one (`https://raw.githubusercontent.com/OWNER/REPO/BRANCH/FILE`). The
branch holds nothing but the published files: each publication is one commit on top of the
last, written with git plumbing in a scratch repository (the workspace's checkout is never
touched), and pushed; a push that lost a race with another job is fetched and retried.

With a token, git authenticates as actions/checkout does: an `Authorization` header for that
remote only (`http.<url>.extraheader`), never the token in a URL or on disk.
"""

from __future__ import annotations

import base64
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

from specsnap.errors import InfrastructureError

AUTHOR = ("SpecSnap", "specsnap@users.noreply.github.com")
ATTEMPTS = 3


def publish_files(
    files: Mapping[str, bytes],
    remote: str,
    branch: str,
    message: str,
    token: str | None = None,
) -> str:
    """Commit `files` (name → content) as the whole tree of `branch` at `remote`; the commit."""
    with tempfile.TemporaryDirectory(prefix="specsnap-branch-") as scratch:
        git = _Git(Path(scratch), remote, token)
        git("init", "--quiet", "--bare")
        last = ""
        for _ in range(ATTEMPTS):
            parent = git.fetch(branch)
            tree = git.tree(files)
            if parent and git("rev-parse", f"{parent}^{{tree}}") == tree:
                return parent  # nothing changed: no empty commit
            args = ["commit-tree", tree, "-m", message] + (["-p", parent] if parent else [])
            commit = git(*args)
            pushed = git.run("push", "--quiet", remote, f"{commit}:refs/heads/{branch}")
            if pushed.returncode == 0:
                return commit
            last = pushed.stderr.decode().strip()
        raise InfrastructureError(f"could not push {branch} to the repository: {last}")


class _Git:
    """git in a scratch bare repository, with a fixed identity and the remote's credentials."""

    def __init__(self, repo: Path, remote: str, token: str | None) -> None:
        self.repo = repo
        self.remote = remote
        self.config = ["-c", "core.hooksPath=/dev/null", "-c", "protocol.file.allow=always"]
        if token and remote.startswith("https://"):
            basic = base64.b64encode(f"x-access-token:{token}".encode()).decode()
            self.config += ["-c", f"http.{remote}.extraheader=AUTHORIZATION: basic {basic}"]

    def run(self, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
        name, email = AUTHOR
        env = {
            "GIT_DIR": str(self.repo),
            "GIT_AUTHOR_NAME": name,
            "GIT_AUTHOR_EMAIL": email,
            "GIT_COMMITTER_NAME": name,
            "GIT_COMMITTER_EMAIL": email,
            "GIT_TERMINAL_PROMPT": "0",
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.repo),
        }
        return subprocess.run(
            ["git", *self.config, *args],
            input=stdin,
            capture_output=True,
            env=env,
            check=False,
            timeout=120,
        )

    def __call__(self, *args: str, stdin: bytes | None = None) -> str:
        done = self.run(*args, stdin=stdin)
        if done.returncode != 0:
            raise InfrastructureError(f"git {args[0]} failed: {done.stderr.decode().strip()}")
        return done.stdout.decode().strip()

    def fetch(self, branch: str) -> str:
        """The branch's commit at the remote ("" when it does not exist yet)."""
        listed = self("ls-remote", self.remote, f"refs/heads/{branch}")
        if not listed:
            return ""
        self("fetch", "--quiet", "--depth=1", self.remote, f"refs/heads/{branch}")
        return listed.split()[0]

    def tree(self, files: Mapping[str, bytes]) -> str:
        entries = []
        for name in sorted(files):
            if "/" in name or name in ("", ".", ".."):
                raise ValueError(f"{name!r}: only plain file names are published")
            blob = self("hash-object", "-w", "--stdin", stdin=files[name])
            entries.append(f"100644 blob {blob}\t{name}")
        return self("mktree", stdin=("\n".join(entries) + "\n").encode())
