"""The bridge's data codec: the only form in which values cross between judge and subject.

Standard library only: this file runs in the judge and in the subject. Nothing is pickled and
nothing is executed on decoding. A message is a 4-byte big-endian length and a UTF-8 JSON
document. Values are JSON with tags for what JSON lacks:

    None, bool, int, str         themselves (bool and int by exact type)
    list                         a JSON array
    float                        itself, or {"$float": "nan" | "inf" | "-inf"}
    bytes                        {"$bytes": base64}
    Decimal                      {"$dec": "1.50"}
    date / time / datetime       {"$date" | "$time" | "$datetime": ISO 8601}
    timedelta                    {"$timedelta": [days, seconds, microseconds]}
    tuple / set / frozenset      {"$tuple" | "$set" | "$frozenset": [items]}
    dict                         {"$dict": [[key, value], ...]}
    enum member                  {"$enum": "module.Qualname", "name": ..., "value": value}
    dataclass / named tuple      {"$record": "module.Qualname", "fields": {name: value}}
    a remote object              {"$ref": id, "type": "module.Qualname"}
    anything else                {"$opaque": "module.Qualname"}

Types are checked exactly (`type(x) is str`), so a subclass with its own `__eq__` never passes as
a plain value. The judge decodes into plain Python values, `Record`, `EnumMember`, `Opaque` and
(through its own hook) remote references; malformed input raises CodecError.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import math
import os
import re
import struct
import sys
from collections.abc import Callable
from decimal import Decimal
from typing import Any

MAX_MESSAGE = 64 * 1024 * 1024
MAX_DEPTH = 64
MAX_DECIMAL = 200  # characters
_DECIMAL = re.compile(r"-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?|-?(NaN|sNaN|Infinity)")
_HEADER = struct.Struct(">I")


class CodecError(Exception):
    """A message or value that does not follow the codec."""


def qualname(kind: type) -> str:
    """`module.Qualname` of a class, as the class itself says."""
    module = getattr(kind, "__module__", None)
    name = getattr(kind, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(name, str):
        return "?"
    return f"{module}.{name}"


# -- values on the judge's side -------------------------------------------------------------


class Record:
    """A dataclass instance or named tuple of the subject's, as plain data.

    Fields read as attributes (`record.price`); `record_type(record)` is the class's qualified
    name. Two records are equal when their types and fields are.
    """

    __slots__ = ("_record_fields", "_record_type")

    def __init__(self, type_name: str, fields: tuple[tuple[str, Any], ...]) -> None:
        object.__setattr__(self, "_record_type", type_name)
        object.__setattr__(self, "_record_fields", fields)

    def __getattr__(self, name: str) -> Any:
        for key, value in self._record_fields:
            if key == name:
                return value
        raise AttributeError(f"{self._record_type} has no field {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a record from the subject is read-only")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return (self._record_type, self._record_fields) == (
            other._record_type,
            other._record_fields,
        )

    def __hash__(self) -> int:
        return hash((self._record_type, self._record_fields))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._record_fields)
        return f"{self._record_type.rsplit('.', 1)[-1]}({inner})"

    def asdict(self) -> dict[str, Any]:
        return dict(self._record_fields)


def record_type(record: Record) -> str:
    return record._record_type


class EnumMember:
    """An enum member of the subject's: its class's qualified name, its name and its value.

    Two members are equal when their classes' names and their names are.
    """

    __slots__ = ("name", "type", "value")

    def __init__(self, type_name: str, name: str, value: Any) -> None:
        self.type, self.name, self.value = type_name, name, value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EnumMember):
            return NotImplemented
        return (self.type, self.name) == (other.type, other.name)

    def __hash__(self) -> int:
        return hash((self.type, self.name))

    def __repr__(self) -> str:
        return f"<{self.type.rsplit('.', 1)[-1]}.{self.name}: {self.value!r}>"


class Opaque:
    """A value that has no plain-data form (the marker of an unserialisable object)."""

    __slots__ = ("type",)

    def __init__(self, type_name: str) -> None:
        self.type = type_name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque) and other.type == self.type

    def __hash__(self) -> int:
        return hash(self.type)

    def __repr__(self) -> str:
        return f"Opaque({self.type!r})"


# -- framing --------------------------------------------------------------------------------


def write_message(fd: int, message: Any) -> None:
    data = json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    payload = data.encode("utf-8")
    if len(payload) > MAX_MESSAGE:
        raise CodecError(f"message of {len(payload)} bytes exceeds {MAX_MESSAGE}")
    view = memoryview(_HEADER.pack(len(payload)) + payload)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def read_exactly(fd: int, size: int) -> bytes:
    chunks = []
    while size:
        chunk = os.read(fd, min(size, 1 << 20))
        if not chunk:
            raise EOFError("the other side closed the channel")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_message(fd: int) -> Any:
    (size,) = _HEADER.unpack(read_exactly(fd, _HEADER.size))
    if size > MAX_MESSAGE:
        raise CodecError(f"message of {size} bytes exceeds {MAX_MESSAGE}")
    try:
        return json.loads(read_exactly(fd, size).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise CodecError(f"not a codec message: {exc}") from None


# -- encoding (either side) -----------------------------------------------------------------

SCALARS = (type(None), bool, int, str)


def encode(value: Any, on_other: Callable[[Any], Any], depth: int = 0) -> Any:
    """The codec form of `value`; `on_other(x)` encodes what has no plain form (a ref or opaque)."""
    if depth > MAX_DEPTH:
        raise CodecError("value nested too deeply")
    kind = type(value)
    if kind in SCALARS:
        return value
    if kind is float:
        return value if math.isfinite(value) else {"$float": repr(value)}
    if kind is Decimal:
        return {"$dec": str(value)}
    if kind is bytes:
        return {"$bytes": base64.b64encode(value).decode("ascii")}
    if kind is dt.datetime:
        return {"$datetime": value.isoformat()}
    if kind is dt.date:
        return {"$date": value.isoformat()}
    if kind is dt.time:
        return {"$time": value.isoformat()}
    if kind is dt.timedelta:
        return {"$timedelta": [value.days, value.seconds, value.microseconds]}
    if kind is list:
        return [encode(v, on_other, depth + 1) for v in value]
    if kind is tuple:
        return {"$tuple": [encode(v, on_other, depth + 1) for v in value]}
    if kind in (set, frozenset):
        items = [encode(v, on_other, depth + 1) for v in value]
        return {"$set" if kind is set else "$frozenset": items}
    if kind is dict:
        return {
            "$dict": [
                [encode(k, on_other, depth + 1), encode(v, on_other, depth + 1)]
                for k, v in value.items()
            ]
        }
    return on_other(value)


def encode_plain(value: Any, depth: int = 0) -> Any:
    """The subject's deep form of a value: enums and records as data, the rest opaque."""

    # Imported only if the graded code imported them: nothing else can be an enum or a dataclass.
    enum = sys.modules.get("enum")
    dataclasses = sys.modules.get("dataclasses")

    def other(item: Any) -> Any:
        kind = type(item)
        if enum is not None and isinstance(item, enum.Enum):
            return {
                "$enum": qualname(kind),
                "name": str(item.name),
                "value": encode_plain(item.value, depth + 1),
            }
        if (
            dataclasses is not None
            and dataclasses.is_dataclass(item)
            and not isinstance(item, type)
        ):
            fields = {
                f.name: encode_plain(getattr(item, f.name), depth + 1)
                for f in dataclasses.fields(item)
            }
            return {"$record": qualname(kind), "fields": fields}
        if isinstance(item, tuple) and isinstance(getattr(kind, "_fields", None), tuple):
            fields = {
                str(name): encode_plain(v, depth + 1)
                for name, v in zip(kind._fields, item, strict=False)
            }
            return {"$record": qualname(kind), "fields": fields}
        return {"$opaque": qualname(kind)}

    return encode(value, other, depth)


# -- decoding (the judge's side, and the subject's for arguments) ---------------------------


def decode(data: Any, on_tag: Callable[[dict[str, Any]], Any], depth: int = 0) -> Any:
    """The value `data` stands for; `on_tag(d)` decodes tags this function does not know."""
    if depth > MAX_DEPTH:
        raise CodecError("value nested too deeply")
    kind = type(data)
    if kind in SCALARS:
        return data
    if kind is float:
        return data
    if kind is list:
        return [decode(v, on_tag, depth + 1) for v in data]
    if kind is not dict or len(data) == 0:
        raise CodecError(f"unexpected {kind.__name__} in a codec value")
    tag = next(iter(data))
    body = data[tag]
    try:
        if tag == "$float" and body in ("nan", "inf", "-inf"):
            return float(body)
        if (
            tag == "$dec"
            and type(body) is str
            and len(body) <= MAX_DECIMAL
            and _DECIMAL.fullmatch(body)
        ):
            return Decimal(body)
        if tag == "$bytes" and type(body) is str:
            return base64.b64decode(body, validate=True)
        if tag == "$datetime" and type(body) is str:
            return dt.datetime.fromisoformat(body)
        if tag == "$date" and type(body) is str:
            return dt.date.fromisoformat(body)
        if tag == "$time" and type(body) is str:
            return dt.time.fromisoformat(body)
        if tag == "$timedelta" and _ints(body, 3):
            return dt.timedelta(days=body[0], seconds=body[1], microseconds=body[2])
        if tag in ("$tuple", "$set", "$frozenset") and type(body) is list:
            items = [decode(v, on_tag, depth + 1) for v in body]
            return {"$tuple": tuple, "$set": set, "$frozenset": frozenset}[tag](items)
        if tag == "$dict" and type(body) is list:
            pairs = [_pair(p, on_tag, depth) for p in body]
            return dict(pairs)
    except (ValueError, TypeError, OverflowError, ArithmeticError) as exc:
        raise CodecError(f"bad {tag} value: {exc}") from None
    if type(tag) is str and tag.startswith("$"):
        return on_tag(data)
    raise CodecError(f"unknown codec tag {tag!r}")


def decode_plain(data: Any, on_ref: Callable[[dict[str, Any]], Any], depth: int = 0) -> Any:
    """Decode on the judge's side: records, enum members and opaque markers as plain objects."""

    def tag(d: dict[str, Any]) -> Any:
        if "$enum" in d and _strings(d, "$enum", "name") and set(d) == {"$enum", "name", "value"}:
            return EnumMember(d["$enum"], d["name"], decode_plain(d["value"], on_ref, depth + 1))
        if _is_record(d):
            fields = tuple((k, decode_plain(v, on_ref, depth + 1)) for k, v in d["fields"].items())
            return Record(d["$record"], fields)
        if "$opaque" in d and set(d) == {"$opaque"} and type(d["$opaque"]) is str:
            return Opaque(d["$opaque"])
        if "$ref" in d:
            return on_ref(d)
        raise CodecError(f"malformed codec value {sorted(d)}")

    return decode(data, tag, depth)


def _is_record(d: dict[str, Any]) -> bool:
    return (
        set(d) == {"$record", "fields"}
        and type(d["$record"]) is str
        and type(d["fields"]) is dict
        and all(type(k) is str for k in d["fields"])
    )


def _ints(body: Any, count: int) -> bool:
    return type(body) is list and len(body) == count and all(type(x) is int for x in body)


def _strings(d: dict[str, Any], *keys: str) -> bool:
    return all(type(d.get(k)) is str for k in keys)


def _pair(pair: Any, on_tag: Callable[[dict[str, Any]], Any], depth: int) -> tuple[Any, Any]:
    if type(pair) is not list or len(pair) != 2:
        raise CodecError("a $dict entry is not a [key, value] pair")
    return decode(pair[0], on_tag, depth + 1), decode(pair[1], on_tag, depth + 1)
