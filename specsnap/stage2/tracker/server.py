"""The tracker's socket, the `tickets` client on the agent's PATH, and the log of answers.

The client is a tiny stdlib-only script baked with the socket's path, like the git hooks
(specsnap.sessions.control); it lives beside the socket in the session's private control
directory, which is root's: the agent can run it but not change it. Nothing of the tracker is
a file in the sandbox. The server, not the client, keeps the log: each request, the ticket it
showed, and the bytes and characters served, which the session record carries, and every
ticket it told the agent anything of (however many requests there were).
"""

from __future__ import annotations

import os
import socketserver
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from specsnap.stage2.tracker.tickets import REQUEST_MAX, Answer, Board, answer

CLIENT = "tickets"

#: Requests listed one by one in the record; beyond that they are only counted.
REQUESTS_LOGGED = 200

CLIENT_TEMPLATE = """#!{python} -IS
# SpecSnap's ticket tracker: asks the tracker SpecSnap serves for this session.
import socket
import sys

request = " ".join(sys.argv[1:]) or "list"
try:
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(60)
    conn.connect({socket_path!r})
    conn.sendall(request.encode("utf-8", "replace")[:1000].replace(b"\\n", b" ") + b"\\n")
    chunks = []
    while True:
        chunk = conn.recv(65536)
        if not chunk:
            break
        chunks.append(chunk)
    reply = b"".join(chunks)
except OSError as exc:
    sys.stderr.write("tickets: the tracker did not answer (%s)\\n" % exc)
    sys.exit(3)
code, _, text = reply.partition(b"\\n")
out = sys.stdout if code == b"0" else sys.stderr
out.write(text.decode("utf-8", "replace"))
sys.exit(int(code or b"3"))
"""


class TrackerServer:
    """Serves `board()` (read at each request: an amendment or tier 1's product note may be
    announced meanwhile) on a Unix socket in `directory`, logging every answer."""

    def __init__(self, directory: Path, board: Callable[[], Board], started_ns: int) -> None:
        self.path = directory / "tracker.sock"
        self.path.unlink(missing_ok=True)
        self._lock = threading.Lock()
        self._requests: list[dict[str, Any]] = []
        self._count = 0
        self._bytes = 0
        self._chars = 0
        self._read: set[str] = set()
        outer = self

        class _Request(socketserver.StreamRequestHandler):
            timeout = 30

            def handle(self) -> None:
                raw = self.rfile.readline(1024).decode("utf-8", "replace").strip()
                reply = answer(board(), raw)
                served = reply.text.encode("utf-8")
                # Logged once answered, whether or not the client still reads: what counts
                # is what SpecSnap served, never what the agent says it received.
                outer._log(raw, reply, served, started_ns)
                self.wfile.write(f"{reply.code}\n".encode() + served)

        class _Server(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
            # stop() waits for requests in progress, so the log is complete when it is read.
            daemon_threads = False
            block_on_close = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that went away or never spoke: nothing was served, nothing to log

        self._server = _Server(str(self.path), _Request)
        os.chmod(self.path, 0o777)  # the agent's account connects; the directory limits who
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def _log(self, request: str, reply: Answer, served: bytes, t0: int) -> None:
        with self._lock:
            self._count += 1
            self._bytes += len(served)
            self._chars += len(reply.text)
            self._read.update(reply.read)
            if len(self._requests) < REQUESTS_LOGGED:
                self._requests.append(
                    {
                        "request": request[:REQUEST_MAX],
                        "ticket": reply.ticket,
                        "served": reply.code == 0,
                        "bytes": len(served),
                        "chars": len(reply.text),
                        "at_s": round((time.monotonic_ns() - t0) / 1e9, 3),
                    }
                )

    def install_client(self, bin_dir: Path, python: str) -> Path:
        """Write the `tickets` client into `bin_dir` (put it on the agent's PATH)."""
        bin_dir.mkdir(mode=0o755, exist_ok=True)
        client = bin_dir / CLIENT
        client.write_text(CLIENT_TEMPLATE.format(python=python, socket_path=str(self.path)))
        client.chmod(0o755)
        return client

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self.path.unlink(missing_ok=True)

    def usage(self) -> dict[str, Any]:
        """What the session record keeps: how often the agent asked, what was served."""
        with self._lock:
            return {
                "consultations": self._count,
                "bytes_served": self._bytes,
                "chars_served": self._chars,
                "requests": list(self._requests),
                "tickets_read": sorted(self._read),
            }
