"""CAT-2: weight units in supplier feeds (the rounding and the error's wording are seeded)."""

from decimal import ROUND_HALF_UP, Decimal

import pytest

HEADER = "sku,name,unit_price,weight,length_cm,width_cm,height_cm\n"
POUND_KG = Decimal("0.45359237")


@pytest.fixture
def weights(subject):
    """weights(*cells): the weight_kg of a feed with one product per weight cell, as Decimals."""
    parse = subject.module("catalog").parse_products_csv

    def read(*cells):
        rows = "".join(f"ABC-{1000 + i},Item {i},1.00,{w},10,10,10\n" for i, w in enumerate(cells))
        return [product.weight_kg for product in parse(HEADER + rows)]

    return read


def converted(amount, factor, params):
    """What a gram or pound value must become: kilograms, rounded to the seeded decimals."""
    quantum = Decimal(1).scaleb(-params["weight_decimals"])
    return (Decimal(amount) * factor).quantize(quantum, rounding=ROUND_HALF_UP)


def test_grams_and_kilograms(weights, params):
    grams = Decimal("0.001")
    assert weights("750g", "750 g", params["gram_half_in"], "1.25kg", "2 KG", "0.8", "300 G") == [
        converted("750", grams, params),
        converted("750", grams, params),
        Decimal(params["gram_half_kg"]),
        Decimal("1.25"),
        Decimal("2"),
        Decimal("0.8"),
        converted("300", grams, params),
    ]


def test_pounds(weights, params):
    assert weights("2 lb", "1LB", "10 Lb") == [
        Decimal(params["pound_example_kg"]),
        converted("1", POUND_KG, params),
        converted("10", POUND_KG, params),
    ]


def test_pound_factor_to_full_precision(weights, params):
    # Shortened factors (0.4536, 0.45359, 0.453592) round differently at this weight.
    [weight] = weights(params["pound_precise_in"])
    assert weight == Decimal(params["pound_precise_kg"])
    assert str(weight) == params["pound_precise_kg"]


def test_kilograms_keep_the_value_as_written(weights):
    written = ["1.25", "2.5000", "0.1234", "12.34567", "7"]
    found = weights(*(f"{w}kg" for w in written[:3]), *(f"{w} KG" for w in written[3:]))
    assert [str(w) for w in found] == written


def test_unknown_unit_names_line_and_unit(subject, params):
    feed = HEADER + "ABC-1000,Item,1.00,2kg,10,10,10\nABC-1001,Item,1.00,3 oz,10,10,10\n"
    with subject.raises("catalog.CatalogImportError") as info:
        subject.module("catalog").parse_products_csv(feed)
    assert info.value.line == 3
    assert info.value.message == f"line 3: {params['weight_unit_error']} 'oz'"


def test_unknown_unit_is_quoted_exactly_as_written(subject, params):
    parse = subject.module("catalog").parse_products_csv
    for cell, unit in [("3 Oz", "Oz"), ("12STONE", "STONE"), ("5   Kgs", "Kgs")]:
        with subject.raises("catalog.CatalogImportError") as info:
            parse(HEADER + f"ABC-1000,Item,1.00,{cell},10,10,10\n")
        assert info.value.message == f"line 2: {params['weight_unit_error']} '{unit}'"


def test_tiny_gram_weights_round_half_up_or_are_rejected(subject, weights, params):
    assert weights(params["gram_tiny_in"]) == [Decimal(params["gram_tiny_kg"])]
    with subject.raises("catalog.CatalogImportError") as info:
        weights("1 kg", params["gram_zero_in"])
    assert info.value.line == 3
