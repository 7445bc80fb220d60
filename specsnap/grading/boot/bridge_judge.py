"""The judge's side of the bridge: subjects and remote references (the plugin: judge_plugin.py).

The judge is a pytest process that runs the tier's hidden tests and never imports, executes or
unpickles graded code. Tests reach the graded code only through the `subject` fixture:

    shipping = subject.module("shipping")           # a remote reference to the module
    quote = shipping.quote_items([("DSK-5001", 1)], catalog, "DE", "SKYFAST")
    assert quote.mode == "FREIGHT"                   # plain values cross as plain values
    assert subject.value(quote).price == Decimal("55.00")   # a dataclass as a Record
    with subject.raises("shipping.NoRateError"):
        shipping.quote_items(...)

A remote reference supports attribute access, calls, indexing, `len` and iteration; it has no
usable `==`, `bool` or `hash`, so an object of the subject's can never decide an assertion.
Tests may import the plain-data types from here (`from bridge_judge import Record, EnumMember`).

Over 400 lines: it is copied alone into the judge's interpreter, so it cannot import a sibling.
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from bridge_codec import (
    _HEADER,
    MAX_MESSAGE,
    CodecError,
    EnumMember,
    Opaque,
    Record,
    decode_plain,
    encode,
    record_type,
    write_message,
)
from class_graph import class_graph

__all__ = ["EnumMember", "Opaque", "Record", "Ref", "RemoteError", "Subject", "record_type"]


class BridgeError(Exception):
    """The subject broke the protocol, died, or did not answer in time."""


class RemoteError(Exception):
    """An exception raised by the graded code: its class's qualified name, MRO names, message."""

    def __init__(self, subject: Subject, payload: dict[str, Any]) -> None:
        self.type: str = _text(payload.get("type"))
        mro = payload.get("mro")
        self.mro: tuple[str, ...] = tuple(_text(x) for x in mro) if type(mro) is list else ()
        self.message: str = _text(payload.get("message"))
        ref = payload.get("ref")
        self.ref: Ref | None = Ref(subject, ref, self.type) if type(ref) is int else None
        super().__init__(f"{self.type}: {self.message}")

    def __getattr__(self, name: str) -> Any:
        """Attributes of the exception object in the subject (`info.value.available`)."""
        ref = self.__dict__.get("ref")
        if ref is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(ref, name)


def _text(value: Any) -> str:
    return value if type(value) is str else "?"


class Ref:
    """A reference to an object that lives in the subject."""

    __slots__ = ("_bridge_id", "_bridge_subject", "_bridge_type")

    def __init__(self, subject: Subject, number: int, type_name: str) -> None:
        object.__setattr__(self, "_bridge_subject", subject)
        object.__setattr__(self, "_bridge_id", number)
        object.__setattr__(self, "_bridge_type", type_name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return self._bridge_subject.request("getattr", ref=self._bridge_id, name=name)

    def __setattr__(self, name: str, value: Any) -> None:
        self._bridge_subject.request("setattr", ref=self._bridge_id, name=name, value=value)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._bridge_subject.request(
            "call", ref=self._bridge_id, args=list(args), kwargs=dict(kwargs)
        )

    def __getitem__(self, key: Any) -> Any:
        return self._bridge_subject.request("getitem", ref=self._bridge_id, key=key)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._bridge_subject.request("setitem", ref=self._bridge_id, key=key, value=value)

    def __delitem__(self, key: Any) -> None:
        self._bridge_subject.request("delitem", ref=self._bridge_id, key=key)

    def __len__(self) -> int:
        result = self._bridge_subject.request("len", ref=self._bridge_id)
        if type(result) is not int:
            raise BridgeError("len() of a remote object did not answer an int")
        return result

    def __iter__(self) -> Iterator[Any]:
        items = self._bridge_subject.request("iter", ref=self._bridge_id)
        if type(items) is not list:
            raise BridgeError("iterating a remote object did not answer a list")
        return iter(items)

    def _refuse(self, *args: Any) -> Any:
        raise TypeError(
            f"{self!r} lives in the subject and cannot be compared or tested for truth; "
            "compare subject.value(...) or a plain attribute instead"
        )

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __bool__ = __hash__ = __contains__ = _refuse  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<remote {self._bridge_type} #{self._bridge_id}>"


class Subject:
    """One subject process: started on first use, ended by `close()` (or when it dies)."""

    def __init__(
        self, config: dict[str, Any], launch: dict[str, Any], group: str, number: int
    ) -> None:
        self.config = config
        self.launch = launch
        self.group = group
        self.timeout = float(config["call_timeout_s"])
        self.imports: list[tuple[str, str, str, int]] = []  # kind, name or path, file, line
        self.problems: list[str] = []
        self._closing = False
        req_r, self._req_w = os.pipe()
        self._resp_r, resp_w = os.pipe()
        self._audit_r, audit_w = os.pipe()
        scratch = os.path.join(config["scratch_root"], f"{number}")
        os.mkdir(scratch, 0o700)
        if launch.get("uid") is not None:
            os.chown(scratch, launch["uid"], launch["gid"])
        child_config = {
            "request_fd": req_r,
            "response_fd": resp_w,
            "audit_fd": audit_w,
            "code_paths": config["code_paths"],
            "boot_dir": config["boot_dir"],
            "network_guard": config["network_guard"],
        }
        import json

        env = dict(launch["env"], HOME=scratch, TMPDIR=scratch)
        try:
            self.process = subprocess.Popen(
                [*launch["argv"], json.dumps(child_config)],
                cwd=scratch,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(req_r, resp_w, audit_w),
                start_new_session=True,
            )
        finally:
            for fd in (req_r, resp_w, audit_w):
                os.close(fd)
        self._received = bytearray()
        self._poll = select.poll()
        self._poll.register(self._resp_r, select.POLLIN)
        self._audit = threading.Thread(target=self._read_audit, daemon=True)
        self._audit.start()

    # -- the API tests use ------------------------------------------------------------------

    def module(self, name: str) -> Any:
        """The subject's module `name`, imported there."""
        return self.request("import", name=name)

    def value(self, value: Any) -> Any:
        """`value` as plain data: remote objects deeply converted (dataclasses → Record)."""
        if isinstance(value, Ref):
            return self.request("value", ref=value._bridge_id)
        if type(value) is list:
            return [self.value(v) for v in value]
        if type(value) is tuple:
            return tuple(self.value(v) for v in value)
        if type(value) is dict:
            return {k: self.value(v) for k, v in value.items()}
        return value

    def str(self, value: Any) -> str:
        """`str()` of a remote object, computed in the subject, as a plain string."""
        if not isinstance(value, Ref):
            return str(value)
        text = self.request("str", ref=value._bridge_id)
        if type(text) is not str:
            raise BridgeError("str() of a remote object did not answer a string")
        return text

    def type_names(self, value: Any) -> tuple[str, ...]:
        """Qualified names of the classes in the MRO of a remote object."""
        if not isinstance(value, Ref):
            raise TypeError(f"{value!r} is not a remote object")
        names = self.request("type", ref=value._bridge_id)
        if type(names) is not list or not all(type(n) is str for n in names):
            raise BridgeError("the type of a remote object did not answer a list of names")
        return tuple(names)

    def isinstance(self, value: Any, name: str) -> bool:
        """Whether the remote object's class is, or derives from, the class the graded tree
        exports as `name` (e.g. "catalog.InvalidGtinError"), as its source says."""
        names = self.type_names(value)
        return bool(names) and self._derives(names[0], names, name) is None

    @contextlib.contextmanager
    def raises(self, name: str, match: str | None = None) -> Iterator[ExceptionInfo]:
        """Expect the block to raise the graded tree's exception class exported as `name`.

        The judge resolves `name`, and the raised class's ancestors, from the graded source
        (class_graph): the subject is never told what is expected and only names the class
        of what was raised.
        """
        info = ExceptionInfo()
        try:
            yield info
        except RemoteError as exc:
            info.value = exc
            problem = self._derives(exc.type, exc.mro, name)
            if problem is not None:
                pytest.fail(f"{problem}: {exc.message}")
            if match is not None:
                import re

                if not re.search(match, exc.message):
                    pytest.fail(f"{exc.type} message {exc.message!r} does not match {match!r}")
            return
        pytest.fail(f"expected {name} to be raised; nothing was raised")

    def _derives(self, kind: str, reported: tuple[str, ...], name: str) -> str | None:
        """Why class `kind` (as the subject named it, with the MRO it `reported`) is not the
        class `name` or a subclass of it, judged from the source; None if it is."""
        graph = class_graph(tuple(self.config["code_paths"]))
        expected = graph.resolve(name)
        if expected is None:
            return f"expected {name}, which names no class of the graded tree"
        ancestors = graph.ancestors(kind)
        if ancestors is None:
            return f"expected {name}; the graded code's {kind} is no class its source defines"
        first_party = {n for n in reported if n.split(".")[0] in graph.first_party}
        if first_party != {n for n in ancestors if n.split(".")[0] in graph.first_party}:
            return (
                f"expected {name}; what the subject reports of {kind} is not what its source says"
            )
        if expected not in ancestors:
            return f"expected {name}, the graded code raised {kind}"
        return None

    def input_file(self, name: str, content: str | bytes) -> str:
        """Write an input file the subject may read (never one it wrote); returns its path."""
        inputs = self.config["inputs_dir"]
        path = os.path.join(inputs, f"{self.group}-{time.monotonic_ns()}-{name}")
        mode = "wb" if isinstance(content, bytes) else "w"
        with open(path, mode) as handle:
            handle.write(content)
        os.chmod(path, 0o644)
        return path

    # -- the protocol ---------------------------------------------------------------------

    def request(self, op: str, **fields: Any) -> Any:
        if self.process.poll() is not None:
            raise BridgeError(f"the subject has ended (exit code {self.process.returncode})")
        message = {"op": op}
        for key, value in fields.items():
            message[key] = value if key in ("ref", "name") else encode(value, _encode_ref)
        try:
            write_message(self._req_w, message)
            answer = self._read(time.monotonic() + self.timeout)
        except (OSError, EOFError) as exc:
            self.kill()
            raise BridgeError(f"the subject stopped answering: {exc}") from None
        if type(answer) is not dict or len(answer) != 1:
            raise BridgeError("the subject sent a malformed answer")
        if "ok" in answer:
            return decode_plain(answer["ok"], self._decode_ref)
        if "raised" in answer and type(answer["raised"]) is dict:
            raise RemoteError(self, answer["raised"])
        if "error" in answer:
            raise BridgeError(f"the subject refused the request: {_text(answer['error'])}")
        raise BridgeError("the subject sent a malformed answer")

    def _decode_ref(self, data: dict[str, Any]) -> Ref:
        if set(data) != {"$ref", "type"} or type(data["$ref"]) is not int:
            raise CodecError("malformed reference")
        return Ref(self, data["$ref"], _text(data["type"]))

    def _read(self, deadline: float) -> Any:
        import json

        header = self._take(_HEADER.size, deadline)
        (size,) = _HEADER.unpack(header)
        if size > MAX_MESSAGE:
            self.kill()
            raise BridgeError(f"the subject sent {size} bytes, more than {MAX_MESSAGE}")
        try:
            return json.loads(self._take(size, deadline).decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            self.kill()
            raise BridgeError(f"the subject sent something that is not a message: {exc}") from None

    def _take(self, size: int, deadline: float) -> bytes:
        """The next `size` bytes of the answer channel (one read usually brings a whole
        answer, header and all)."""
        while len(self._received) < size:
            remaining = deadline - time.monotonic()
            if not self._poll.poll(max(0, int(remaining * 1000) + 1)):
                self.kill()
                raise BridgeError(f"the subject did not answer within {self.timeout:g}s")
            chunk = os.read(self._resp_r, max(size - len(self._received), 1 << 16))
            if not chunk:
                raise EOFError("the subject closed its answer channel")
            self._received += chunk
        taken = bytes(self._received[:size])
        del self._received[:size]
        return taken

    # -- the import channel ---------------------------------------------------------------

    def _read_audit(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._audit_r, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                self._record_import(line)
        self._record_import(buffer)
        os.close(self._audit_r)
        if not self._closing:
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.problems.append(
                    f"subject of {self.group}: the graded code closed the import channel"
                )

    def _record_import(self, line: bytes) -> None:
        parts = line.split(b" ")
        if len(parts) != 5 or parts[0] not in (b"i", b"o"):
            return  # noise (stray bytes written by the graded code)
        try:
            name, path, source = (
                bytes.fromhex(p.decode()).decode("utf-8", "replace") for p in parts[1:4]
            )
            number = int(parts[4])
        except ValueError:
            return
        self.imports.append((parts[0].decode(), name or path, source, number))

    # -- ending ---------------------------------------------------------------------------

    def close(self) -> None:
        """Say goodbye, then end every process the subject left (its account's, where separate)."""
        self._closing = True
        if self.process.poll() is None:
            with contextlib.suppress(OSError, EOFError, BridgeError, CodecError):
                write_message(self._req_w, {"op": "bye"})
                self._read(time.monotonic() + 2)
        self.kill()

    def kill(self) -> None:
        self._closing = True
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, 9)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        sweep = self.launch.get("sweep")
        if sweep:
            subprocess.run(sweep, stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
        for fd in (self._req_w, self._resp_r):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._req_w = self._resp_r = -1
        self._audit.join(timeout=5)


def _encode_ref(value: Any) -> Any:
    if isinstance(value, Ref):
        return {"$ref": value._bridge_id}
    if isinstance(value, EnumMember):
        return {"$enum": value.type, "name": value.name}
    raise TypeError(
        f"{type(value).__name__} cannot be passed to the subject; "
        "pass plain data or a remote object"
    )


class ExceptionInfo:
    """What `subject.raises` caught: `.value` is the RemoteError (with `.ref` to the object)."""

    value: RemoteError
