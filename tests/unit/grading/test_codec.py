"""The bridge's data codec: what crosses as a value, what cannot, and malformed input."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import os
import sys
from collections import namedtuple
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "specsnap" / "grading" / "boot"))
from bridge_codec import (
    CodecError,
    EnumMember,
    Opaque,
    Record,
    decode_plain,
    encode_plain,
    read_message,
    record_type,
    write_message,
)


class Colour(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Quote:
    carrier: str
    price: Decimal
    legs: list[int]


Point = namedtuple("Point", "x y")


def no_refs(data: dict[str, Any]) -> Any:
    raise AssertionError(f"unexpected reference {data}")


def roundtrip(value: Any) -> Any:
    return decode_plain(encode_plain(value), no_refs)


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        0,
        -(10**30),
        1.5,
        float("inf"),
        "naïve",
        b"\x00\xff",
        Decimal("1.50"),
        Decimal("-0.000"),
        dt.date(2026, 12, 1),
        dt.time(9, 30),
        dt.datetime(2026, 1, 2, 3, 4, 5),
        dt.datetime(2026, 1, 2, tzinfo=dt.timezone(dt.timedelta(hours=2))),
        dt.timedelta(days=-1, seconds=5),
        [1, [2, "x"]],
        (1, (2,)),
        {1, 2},
        frozenset({"a"}),
        {"a": 1, 2: [3], (4, 5): None},
    ],
)
def test_plain_values_cross_unchanged(value: Any) -> None:
    back = roundtrip(value)
    assert back == value and type(back) is type(value)


def test_nan_crosses_as_nan() -> None:
    assert roundtrip(float("nan")) != roundtrip(float("nan"))


def test_dataclasses_and_named_tuples_become_records() -> None:
    quote = roundtrip(Quote("HAULIX", Decimal("9.90"), [1, 2]))
    assert isinstance(quote, Record)
    assert (quote.carrier, quote.price, quote.legs) == ("HAULIX", Decimal("9.90"), [1, 2])
    assert record_type(quote).endswith("Quote")
    assert quote == roundtrip(Quote("HAULIX", Decimal("9.90"), [1, 2]))
    assert quote != roundtrip(Quote("HAULIX", Decimal("9.91"), [1, 2]))
    assert roundtrip(Point(1, 2)).asdict() == {"x": 1, "y": 2}
    with pytest.raises(AttributeError):
        quote.carrier = "X"


def test_enum_members_compare_by_class_and_name() -> None:
    red = roundtrip(Colour.RED)
    assert isinstance(red, EnumMember) and (red.name, red.value) == ("RED", "red")
    assert red == roundtrip(Colour.RED)
    assert red != "red"


class Sneaky(str):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


class SneakyDecimal(Decimal):
    pass


def test_subclasses_of_plain_types_never_pass_as_plain_values() -> None:
    assert roundtrip(Sneaky("x")) == Opaque(f"{__name__}.Sneaky")
    assert roundtrip(SneakyDecimal("1")) == Opaque(f"{__name__}.SneakyDecimal")
    assert roundtrip([Sneaky("x")]) == [Opaque(f"{__name__}.Sneaky")]


@pytest.mark.parametrize(
    "data",
    [
        {"$dec": "1; import os"},
        {"$dec": "9" * 500},
        {"$float": "1e999"},
        {"$bytes": "not base64!"},
        {"$date": 20261201},
        {"$tuple": "abc"},
        {"$dict": [[1]]},
        {"$record": "x", "fields": {"a": 1}, "extra": 1},
        {"$unknown": 1},
        {"no-tag": 1},
        {},
    ],
)
def test_malformed_values_are_refused(data: Any) -> None:
    with pytest.raises(CodecError):
        decode_plain(data, no_refs)


def test_deep_nesting_is_refused() -> None:
    value: Any = []
    for _ in range(200):
        value = [value]
    with pytest.raises(CodecError):
        encode_plain(value)


def test_messages_are_framed_and_checked() -> None:
    read_end, write_end = os.pipe()
    write_message(write_end, {"ok": [1, "two"]})
    os.write(write_end, (12).to_bytes(4, "big") + b"not json at!")
    os.close(write_end)
    assert read_message(read_end) == {"ok": [1, "two"]}
    with pytest.raises(CodecError):
        read_message(read_end)
    with pytest.raises(EOFError):
        read_message(read_end)
