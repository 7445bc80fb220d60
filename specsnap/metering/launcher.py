"""Start an agent whose only network egress is SpecSnap's meter (standard library only).

Run as the agent's account, before any of the agent's code:

    python -I -S launcher.py HANDOVER_SOCKET PORT -- AGENT_ARGV...

It moves itself into a new network namespace (inside a new user namespace unless it is root,
which is what lets an unprivileged account do it), where only the loopback interface exists,
binds 127.0.0.1:PORT there, and hands that listening socket to the meter over HANDOVER_SOCKET:
the meter, outside the namespace, answers every connection made to it. Nothing else inside the
namespace leads anywhere. Then it becomes the agent (exec), holding no socket of its own.

Where the kernel refuses new namespaces (e.g. Docker's default seccomp profile) it tells the meter
so and starts the agent unconfined; the session record then says egress was not enforced. If the
meter does not take the handover, the agent is not started at all.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import socket
import struct
import sys

CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
SIOCSIFFLAGS = 0x8914
IFF_UP, IFF_LOOPBACK, IFF_RUNNING = 0x1, 0x8, 0x40


def confine(port: int) -> socket.socket:
    """Enter a new network namespace with loopback up; the socket listening on PORT there."""
    libc = ctypes.CDLL(None, use_errno=True)
    uid, gid = os.getuid(), os.getgid()
    flags = CLONE_NEWNET if uid == 0 else CLONE_NEWNET | CLONE_NEWUSER
    if libc.unshare(flags) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"unshare: {os.strerror(errno)}")
    if uid != 0:  # the same ids inside, so files keep their owner; no capability survives exec
        for name, line in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1")):
            with open(f"/proc/self/{name}", "w") as handle:
                handle.write(line)
        with open("/proc/self/gid_map", "w") as handle:
            handle.write(f"{gid} {gid} 1")
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as control:
        request = struct.pack("16sh22x", b"lo", IFF_UP | IFF_LOOPBACK | IFF_RUNNING)
        fcntl.ioctl(control, SIOCSIFFLAGS, request)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", port))
    listener.listen(128)
    return listener


def hand_over(path: str, listener: socket.socket | None, reason: str) -> bool:
    """Give the meter the listening socket (or the reason there is none); its acknowledgement."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(path)
        if listener is not None:
            socket.send_fds(connection, [b"confined"], [listener.fileno()])
        else:
            connection.sendall(b"open:" + reason.encode("utf-8", "replace")[:1000])
        connection.shutdown(socket.SHUT_WR)
        return connection.recv(16) == b"ok"


def main(args: list[str]) -> None:
    if len(args) < 4 or args[2] != "--":
        sys.exit("usage: launcher.py HANDOVER_SOCKET PORT -- AGENT_ARGV...")
    path, port, argv = args[0], int(args[1]), args[3:]
    listener: socket.socket | None = None
    reason = ""
    try:
        listener = confine(port)
    except OSError as exc:
        reason = str(exc)
    if not hand_over(path, listener, reason):
        sys.exit("specsnap: the meter refused this agent's egress handover; not starting it")
    if listener is not None:
        listener.close()
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    main(sys.argv[1:])
