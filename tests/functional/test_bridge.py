"""The bridge between judge and subject, against a real subject process and a small product."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

BOOT = Path(__file__).resolve().parents[2] / "specsnap" / "grading" / "boot"
sys.path.insert(0, str(BOOT))
from bridge_codec import EnumMember, Opaque, Record  # noqa: E402
from bridge_judge import BridgeError, RemoteError, Subject  # noqa: E402

PRODUCT = {
    "shop/__init__.py": """
        import dataclasses, enum, os, time
        from decimal import Decimal
        from shop.errors import NoRate, ShopError

        class Mode(enum.Enum):
            PARCEL = "parcel"
            FREIGHT = "freight"

        @dataclasses.dataclass
        class Quote:
            carrier: str
            price: Decimal
            mode: Mode

        class Basket:
            def __init__(self):
                self.items = []
            def add(self, sku, qty=1):
                self.items.append((sku, qty))
                return self
            def __len__(self):
                return len(self.items)
            def __iter__(self):
                return iter(self.items)

        def quote(kg, zone):
            if zone > 2:
                raise NoRate(f"no rate to zone {zone}", zone)
            return Quote("HAULIX", Decimal("55.00") + kg, Mode.FREIGHT if kg >= 30 else Mode.PARCEL)

        class AlwaysEqual:
            def __eq__(self, other):
                return True
            def __bool__(self):
                return True

        def sleep(seconds):
            time.sleep(seconds)

        def die():
            os._exit(7)

        def load_private():
            import importlib
            return importlib.import_module("shop." + "_private").SECRET
    """,
    "shop/errors.py": """
        class ShopError(Exception):
            pass

        class NoRate(ShopError):
            def __init__(self, message, zone):
                super().__init__(message)
                self.zone = zone
    """,
    "shop/_private.py": "SECRET = 42\n",
}


@pytest.fixture
def subject(tmp_path: Path) -> Iterator[Subject]:
    code = tmp_path / "code"
    for rel, text in PRODUCT.items():
        (code / rel).parent.mkdir(parents=True, exist_ok=True)
        (code / rel).write_text(textwrap.dedent(text))
    (tmp_path / "scratch").mkdir()
    (tmp_path / "inputs").mkdir()
    config: dict[str, Any] = {
        "code_paths": [str(code)],
        "boot_dir": str(BOOT),
        "scratch_root": str(tmp_path / "scratch"),
        "inputs_dir": str(tmp_path / "inputs"),
        "network_guard": False,
        "call_timeout_s": 2,
    }
    launch = {
        "argv": [sys.executable, "-P", "-s", "-S", "-B", str(BOOT / "bridge_subject.py")],
        "env": {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"},
        "sweep": None,
    }
    live = Subject(config, launch, "SHOP-1", 1)
    yield live
    live.close()


def test_values_cross_and_objects_stay_remote(subject: Subject) -> None:
    shop = subject.module("shop")
    quote = shop.quote(Decimal("2.5"), 1)
    assert repr(quote).startswith("<remote shop.Quote")
    assert quote.carrier == "HAULIX" and quote.price == Decimal("57.50")
    assert quote.mode == shop.Mode.PARCEL
    assert isinstance(quote.mode, EnumMember) and quote.mode.value == "parcel"
    record = subject.value(quote)
    assert isinstance(record, Record) and record.price == Decimal("57.50")
    basket = shop.Basket().add("MUG", 2).add("BOX")
    assert len(basket) == 2
    assert list(basket) == [("MUG", 2), ("BOX", 1)]
    assert basket.items[0] == ("MUG", 2)  # a list attribute arrives as a list of values
    assert subject.value(shop.AlwaysEqual()) == Opaque("shop.AlwaysEqual")


def test_remote_objects_cannot_decide_an_assertion(subject: Subject) -> None:
    anything = subject.module("shop").AlwaysEqual()
    for attempt in (lambda: anything == 1, lambda: bool(anything), lambda: hash(anything)):
        with pytest.raises(TypeError, match="cannot be compared"):
            attempt()


def test_exceptions_cross_as_names_and_data(subject: Subject) -> None:
    shop = subject.module("shop")
    with subject.raises("shop.ShopError") as info:  # a base class the subject exports
        shop.quote(1, 3)
    assert info.value.type == "shop.errors.NoRate"
    assert info.value.message == "no rate to zone 3"
    assert info.value.zone == 3
    with (
        pytest.raises(pytest.fail.Exception, match=r"expected shop\.Mode"),
        subject.raises("shop.Mode"),
    ):
        shop.quote(1, 3)
    with (
        pytest.raises(pytest.fail.Exception, match="nothing was raised"),
        subject.raises("shop.NoRate"),
    ):
        shop.quote(1, 1)
    with pytest.raises(RemoteError, match="AttributeError"):
        shop.no_such_function()


def test_a_call_that_hangs_or_kills_the_subject_fails_that_call(subject: Subject) -> None:
    with pytest.raises(BridgeError, match="did not answer within 2s"):
        subject.module("shop").sleep(30)
    assert subject.process.poll() is not None  # the subject was killed


def test_a_subject_that_exits_fails_the_call(subject: Subject) -> None:
    with pytest.raises(BridgeError):
        subject.module("shop").die()


def test_imports_are_reported_with_the_graded_file_and_line(subject: Subject) -> None:
    assert subject.module("shop").load_private() == 42
    subject.close()
    source = textwrap.dedent(PRODUCT["shop/__init__.py"]).splitlines()
    line = next(i for i, text in enumerate(source, 1) if "import_module(" in text)
    loads = {(Path(name).name, Path(file).name, n) for _, name, file, n in subject.imports}
    assert ("_private.py", "__init__.py", line) in loads, subject.imports
