"""The git hooks of a session and the socket they report to.

The hooks are tiny stdlib-only Python scripts baked with the session's socket path. `pre-commit`
asks the supervisor whether a commit may happen (while the cutoff is armed it may not, and the
attempt itself fires the cutoff); `post-commit` tells it a commit landed and prints what the
supervisor answers — tier 1's product note reaches the agent this way, through its own git
output, never as a file. The hooks live in the agent's repository, so they are checked for
tampering after the session; commits are also seen through the reference watcher.
"""

from __future__ import annotations

import hashlib
import os
import socketserver
import threading
from collections.abc import Callable
from pathlib import Path

HOOKS = ("pre-commit", "post-commit")

HOOK_TEMPLATE = """#!{python} -IS
# Session hook: reports to the session supervisor. Changing it is a protocol breach.
import socket
import sys

try:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(60)
    conn.connect({socket_path!r})
    conn.sendall(b"{hook}\\n")
    chunks = []
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            break
        chunks.append(chunk)
    reply = b"".join(chunks)
except OSError as exc:
    sys.stderr.write("{hook}: the session supervisor did not answer (%s)\\n" % exc)
    sys.exit({unreachable_code})
code, _, text = reply.partition(b"\\n")
sys.stderr.write(text.decode("utf-8", "replace"))
sys.exit(int(code or b"1"))
"""

Handler = Callable[[str], tuple[int, str]]


def install_hooks(repo: Path, python: str, socket_path: Path) -> dict[str, str]:
    """Write the session's hooks into `repo`; returns their sha256 for the tamper check."""
    hooks_dir = repo / ".git" / "hooks"
    hooks_dir.mkdir(parents=True, exist_ok=True)
    digests = {}
    for hook in HOOKS:
        text = HOOK_TEMPLATE.format(
            python=python,
            socket_path=str(socket_path),
            hook=hook,
            unreachable_code=1 if hook == "pre-commit" else 0,
        )
        path = hooks_dir / hook
        path.write_text(text)
        path.chmod(0o755)
        digests[hook] = hashlib.sha256(text.encode()).hexdigest()
    return digests


def hook_tampering(repo: Path, digests: dict[str, str]) -> list[str]:
    """What happened to the hooks and their configuration since `install_hooks`."""
    found = []
    for hook, digest in digests.items():
        path = repo / ".git" / "hooks" / hook
        try:
            current = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            found.append(f"hook {hook} was removed")
            continue
        if current != digest:
            found.append(f"hook {hook} was changed")
    try:
        config = (repo / ".git" / "config").read_text(errors="replace")
    except OSError:
        config = ""
    if "hookspath" in config.lower():
        found.append("core.hooksPath was set in .git/config")
    return found


class ControlServer:
    """A Unix socket server answering the hooks with `handler(hook) -> (exit code, text)`."""

    def __init__(self, path: Path, handler: Handler) -> None:
        path.parent.mkdir(mode=0o711, parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        outer = handler

        class _Request(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                hook = self.rfile.readline(256).decode(errors="replace").strip()
                code, text = outer(hook) if hook in HOOKS else (1, f"unknown hook {hook!r}\n")
                self.wfile.write(f"{code}\n{text}".encode())

        class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
            daemon_threads = True

        self.path = path
        self._server = _Server(str(path), _Request)
        os.chmod(path, 0o777)  # the agent's account must be able to connect
        # shutdown() waits for the serving loop to look at its flag: every poll interval (the
        # default, 0.5 s, was most of a short session's cost).
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self.path.unlink(missing_ok=True)
