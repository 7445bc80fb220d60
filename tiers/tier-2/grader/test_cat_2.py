"""CAT-2: weight units in supplier feeds."""

from decimal import Decimal

import pytest
from catalog import CatalogImportError, parse_products_csv

HEADER = "sku,name,unit_price,weight,length_cm,width_cm,height_cm\n"


def _weights(*raw: str) -> list[Decimal]:
    rows = "".join(f"ABC-{1000 + i},Item {i},1.00,{w},10,10,10\n" for i, w in enumerate(raw))
    return [product.weight_kg for product in parse_products_csv(HEADER + rows)]


def test_grams_and_kilograms() -> None:
    assert _weights("750g", "750 g", "1234.5 g", "1.25kg", "2 KG", "0.8") == [
        Decimal("0.750"),
        Decimal("0.750"),
        Decimal("1.235"),
        Decimal("1.25"),
        Decimal("2"),
        Decimal("0.8"),
    ]


def test_pounds() -> None:
    assert _weights("2 lb", "1LB", "10 Lb") == [
        Decimal("0.907"),
        Decimal("0.454"),
        Decimal("4.536"),
    ]


def test_unknown_unit_names_line_and_unit() -> None:
    feed = HEADER + "ABC-1000,Item,1.00,2kg,10,10,10\nABC-1001,Item,1.00,3 oz,10,10,10\n"
    with pytest.raises(CatalogImportError) as info:
        parse_products_csv(feed)
    assert info.value.line == 3
    assert str(info.value) == "line 3: unknown weight unit 'oz'"


def test_tiny_gram_weights_round_half_up_or_are_rejected() -> None:
    assert _weights("0.5 g") == [Decimal("0.001")]
    with pytest.raises(CatalogImportError) as info:
        _weights("1 kg", "0.4 g")
    assert info.value.line == 3
