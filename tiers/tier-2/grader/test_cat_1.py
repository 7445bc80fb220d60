"""CAT-1: GTIN barcodes on products (the length and the lookup's name are seeded)."""

from decimal import Decimal

import pytest


@pytest.fixture
def scannable(make_product):
    """make(sku, gtin): a small product carrying `gtin` (or none)."""

    def make(sku, gtin):
        return make_product(sku, "Scannable thing", "1.00", "0.1", (5, 5, 5), gtin=gtin)

    return make


def test_gtin_is_stored_and_found_by_barcode(subject, catalog, scannable, params):
    lookup = getattr(catalog, params["gtin_lookup"])
    product = catalog.add(scannable("SCN-0001", params["gtin_example"]))
    assert product.gtin == params["gtin_example"]
    assert subject.value(lookup(params["gtin_example"])) == subject.value(product)
    assert lookup(params["gtin_second"]) is None
    assert catalog.get("MUG-2001").gtin is None
    zero_check = catalog.add(scannable("SCN-0002", params["gtin_zero_check"]))
    assert subject.value(lookup(params["gtin_zero_check"])) == subject.value(zero_check)


def test_invalid_gtins_are_rejected(subject, scannable, params):
    example = params["gtin_example"]
    for bad in [
        params["gtin_example_bad"],  # wrong check digit
        params["gtin_short"],
        params["gtin_long"],
        params["gtin_other_length"],  # right check digit, wrong length
        example[:-2] + "A" + example[-1],
        example[:7] + " " + example[8:],
        " " + example,
        example + " ",
        example[:6] + "-" + example[6:],
    ]:
        with subject.raises("catalog.InvalidGtinError") as info:
            scannable("SCN-0001", bad)
        assert subject.isinstance(info.value.ref, "catalog.InvalidProductError"), bad
    assert scannable("SCN-0001", params["gtin_third"]).gtin == params["gtin_third"]


def test_duplicate_gtin_is_refused(subject, catalog, scannable, params, contains):
    catalog.add(scannable("SCN-0001", params["gtin_second"]))
    size = len(catalog)
    with subject.raises("catalog.DuplicateGtinError") as info:
        catalog.add(scannable("SCN-0002", params["gtin_second"]))
    assert subject.isinstance(info.value.ref, "catalog.CatalogError")
    assert info.value.message == f"GTIN {params['gtin_second']} {params['gtin_taken']} SCN-0001"
    assert len(catalog) == size
    assert contains(catalog, "SCN-0002") is False
    catalog.add(scannable("SCN-0003", None))
    catalog.add(scannable("SCN-0004", None))
    assert len(catalog) == size + 2


def test_find_by_gtin_sees_discontinued_and_updated_products(catalog, scannable, params):
    catalog.add(scannable("SCN-0001", params["gtin_example"]))
    catalog.update_price("SCN-0001", "2.50")
    catalog.discontinue("SCN-0001")
    found = getattr(catalog, params["gtin_lookup"])(params["gtin_example"])
    assert found is not None
    assert (found.sku, found.unit_price, found.active) == ("SCN-0001", Decimal("2.50"), False)


def test_gtin_of_a_discontinued_product_is_still_taken(subject, catalog, scannable, params):
    catalog.add(scannable("SCN-0001", params["gtin_third"]))
    catalog.discontinue("SCN-0001")
    size = len(catalog)
    with subject.raises("catalog.DuplicateGtinError") as info:
        catalog.add(scannable("SCN-0002", params["gtin_third"]))
    assert info.value.message == f"GTIN {params['gtin_third']} {params['gtin_taken']} SCN-0001"
    assert len(catalog) == size
    assert catalog.add(scannable("SCN-0003", params["gtin_example"])).gtin == params["gtin_example"]
