"""The subject: the only process in which graded code runs during grading.

Started by the judge, fresh for each requirement, as an account that is neither the agent's nor
the judge's, as `python -P -s -S -B bridge_subject.py CONFIG_JSON` with a scrubbed environment
(PYTHONHASHSEED fixed). It answers the judge's requests on a pipe pair and reports every module
load to the judge on a third pipe, from an audit hook installed before any graded code exists in
the process. Everything it sends is plain data (bridge_codec); the judge never receives code or
objects. The graded code can take this process over entirely: it then learns the requests (inputs,
never expected values) and can answer anything, but every verdict is computed in the judge.
"""

from __future__ import annotations

import os
import sys

CONFIG_TEXT = sys.argv[1]


def _install_audit_hook() -> None:
    """Report module loads to the judge, before they happen, where graded code cannot stop it.

    Audit hooks cannot be removed. Everything this hook uses is bound now, to builtins the
    graded code cannot patch; before each report it checks that its descriptor is still the
    judge's pipe (by inode), and if it is not, the import fails instead of going unreported.
    Each report starts and ends with a newline, so stray bytes written to the pipe by graded code
    cannot swallow it.
    """
    import json

    config = json.loads(CONFIG_TEXT)
    fd = int(config["audit_fd"])
    roots = tuple(os.path.join(os.path.realpath(p), "") for p in config["code_paths"])
    suffixes = (".py", ".pyc", ".pyo", ".so", ".pyd", ".pth")
    write, fstat, getframe = os.write, os.fstat, sys._getframe
    inode = fstat(fd).st_ino
    encode = str.encode
    startswith, endswith = str.startswith, str.endswith
    realpath = os.path.realpath
    rfind, partition = str.rfind, str.partition
    real_cache: dict[str, str] = {}

    def real(path: str) -> str:
        found = real_cache.get(path)
        if found is None:
            found = real_cache[path] = realpath(path)
        return found

    def source_of(path: str) -> str:
        """The module a load reads: the grader compiled the tree (prepared.compile_export), so a
        load of `pkg/mod.py` opens `pkg/__pycache__/mod.<tag>.pyc`."""
        cut = rfind(path, "/__pycache__/")
        name = path[cut + 13 :]
        if cut < 0 or not endswith(name, ".pyc") or "/" in name:
            return path
        return path[:cut] + "/" + partition(name, ".")[0] + ".py"

    def importer() -> tuple[str, int]:
        frame = getframe(2)
        while frame is not None:
            filename = frame.f_code.co_filename
            if type(filename) is str and startswith(real(filename), roots):
                return real(filename), frame.f_lineno
            frame = frame.f_back
        return "", 0

    def report(kind: bytes, name: str, path: str) -> None:
        source, line = importer()
        if not source:
            return  # a load the grader asked for, or the standard library's own
        if fstat(fd).st_ino != inode:
            raise ImportError("the grader's import channel was tampered with")
        fields = [
            encode(x, "utf-8", "surrogateescape").hex().encode() for x in (name, path, source)
        ]
        write(fd, b"\n%s %s %s %s %d\n" % (kind, fields[0], fields[1], fields[2], line))

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event == "import":
            name = args[0]
            if isinstance(name, str):
                report(b"i", name, "")
        elif event == "open":
            path = args[0]
            if isinstance(path, str) and endswith(path, suffixes) and startswith(real(path), roots):
                report(b"o", "", source_of(real(path)))

    sys.addaudithook(hook)


_install_audit_hook()

import importlib  # noqa: E402  (after the hook: these imports are reported, as all are)
import json  # noqa: E402

CONFIG = json.loads(CONFIG_TEXT)
sys.path.insert(0, CONFIG["boot_dir"])
from bridge_codec import (  # noqa: E402
    CodecError,
    decode,
    encode,
    encode_plain,
    qualname,
    read_message,
    write_message,
)

if CONFIG.get("network_guard"):
    from subject_guard import guard_network

    guard_network()
sys.path.remove(CONFIG["boot_dir"])
sys.path.extend(CONFIG["code_paths"])  # last: graded code shadows no standard module


class Server:
    """Keeps the objects the judge holds references to, and answers its requests."""

    def __init__(self) -> None:
        self.objects: dict[int, object] = {}
        self.next_id = 1

    def ref(self, value: object) -> dict[str, object]:
        number = self.next_id
        self.next_id += 1
        self.objects[number] = value
        return {"$ref": number, "type": qualname(type(value))}

    def shallow(self, value: object) -> object:
        """Plain values and builtin containers as data, enum members as data, the rest as refs."""
        enum = sys.modules.get("enum")

        def other(item: object) -> object:
            if enum is not None and isinstance(item, enum.Enum):
                return encode_plain(item)
            return self.ref(item)

        return encode(value, other)

    def argument(self, data: object) -> object:
        def tag(d: dict[str, object]) -> object:
            if "$ref" in d and type(d["$ref"]) is int and d["$ref"] in self.objects:
                return self.objects[d["$ref"]]
            if "$enum" in d and type(d["$enum"]) is str and type(d.get("name")) is str:
                return getattr(resolve_qualname(d["$enum"]), str(d["name"]))
            raise CodecError(f"cannot pass {sorted(d)} to the subject")

        return decode(data, tag)

    def handle(self, request: dict[str, object]) -> object:
        op = request["op"]
        target = self.objects.get(request["ref"]) if "ref" in request else None  # type: ignore[call-overload]
        if "ref" in request and request["ref"] not in self.objects:
            raise CodecError(f"unknown reference {request['ref']!r}")
        if op == "import":
            return self.shallow(importlib.import_module(str(request["name"])))
        if op == "getattr":
            return self.shallow(getattr(target, str(request["name"])))
        if op == "setattr":
            setattr(target, str(request["name"]), self.argument(request["value"]))
            return None
        if op == "call":
            args = self.argument(request["args"])
            kwargs = self.argument(request["kwargs"])
            return self.shallow(target(*args, **kwargs))  # type: ignore[operator]
        if op == "getitem":
            return self.shallow(target[self.argument(request["key"])])  # type: ignore[index]
        if op == "setitem":
            target[self.argument(request["key"])] = self.argument(request["value"])  # type: ignore[index]
            return None
        if op == "delitem":
            del target[self.argument(request["key"])]  # type: ignore[attr-defined]
            return None
        if op == "len":
            return len(target)  # type: ignore[arg-type]
        if op == "iter":
            return [self.shallow(item) for item in target]  # type: ignore[attr-defined]
        if op == "value":
            return encode_plain(target)
        if op == "str":
            return plain_str(target)
        if op == "type":
            return [qualname(kind) for kind in type(target).__mro__]
        raise CodecError(f"unknown operation {op!r}")


def plain_str(value: object) -> str:
    text = str(value)
    return bytes.decode(str.encode(text, "utf-8", "surrogatepass"), "utf-8", "surrogatepass")


def resolve_qualname(name: str) -> object:
    """The object `module.Qual.name` names: the longest importable module prefix, then
    attributes."""
    return resolve_dotted(name)


def resolve_dotted(name: str) -> object:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ImportError(f"no module in {name!r}")


def exception_payload(server: Server, exc: BaseException) -> dict[str, object]:
    try:
        message = plain_str(exc)
    except BaseException:
        message = "<unprintable>"
    return {
        "type": qualname(type(exc)),
        "mro": [qualname(kind) for kind in type(exc).__mro__],
        "message": message,
        "ref": server.ref(exc)["$ref"],
    }


def serve(requests: int, responses: int) -> None:
    server = Server()
    while True:
        try:
            request = read_message(requests)
        except EOFError:
            return
        if not isinstance(request, dict) or "op" not in request:
            write_message(responses, {"error": "malformed request"})
            continue
        if request["op"] == "bye":
            write_message(responses, {"ok": None})
            return
        try:
            result = server.handle(request)
        except CodecError as exc:
            write_message(responses, {"error": str(exc)})
            continue
        except BaseException as exc:
            write_message(responses, {"raised": exception_payload(server, exc)})
            continue
        try:
            write_message(responses, {"ok": result})
        except (CodecError, ValueError, TypeError) as exc:
            write_message(responses, {"error": f"the answer cannot be sent: {exc}"})


if __name__ == "__main__":
    serve(int(CONFIG["request_fd"]), int(CONFIG["response_fd"]))
    sys.stdout.flush()
    os._exit(0)
