"""CAT-1: GTIN-13 barcodes on products."""

from decimal import Decimal

import pytest
from catalog import Catalog, CatalogError, Dimensions, InvalidProductError, Product


def _product(sku: str, gtin: str | None) -> Product:
    return Product(
        sku, "Scannable thing", Decimal("1.00"), Decimal("0.1"), Dimensions(5, 5, 5), gtin=gtin
    )


def test_gtin_is_stored_and_found_by_barcode(catalog: Catalog) -> None:
    product = catalog.add(_product("SCN-0001", "4006381333931"))
    assert product.gtin == "4006381333931"
    assert catalog.find_by_gtin("4006381333931") is product
    assert catalog.find_by_gtin("5901234123457") is None
    assert catalog.get("MUG-2001").gtin is None
    zero_check = catalog.add(_product("SCN-0002", "4000000000020"))
    assert catalog.find_by_gtin("4000000000020") is zero_check


def test_invalid_gtins_are_rejected() -> None:
    from catalog import InvalidGtinError

    assert issubclass(InvalidGtinError, InvalidProductError)
    for bad in [
        "4006381333932",
        "400638133393",
        "40063813339310",
        "400638133393A",
        "4006381 33393",
        " 4006381333931",
    ]:
        with pytest.raises(InvalidGtinError):
            _product("SCN-0001", bad)


def test_duplicate_gtin_is_refused(catalog: Catalog) -> None:
    from catalog import DuplicateGtinError

    catalog.add(_product("SCN-0001", "5901234123457"))
    size = len(catalog)
    with pytest.raises(DuplicateGtinError) as info:
        catalog.add(_product("SCN-0002", "5901234123457"))
    assert isinstance(info.value, CatalogError)
    assert len(catalog) == size and "SCN-0002" not in catalog
    catalog.add(_product("SCN-0003", None))
    catalog.add(_product("SCN-0004", None))


def test_find_by_gtin_sees_discontinued_and_updated_products(catalog: Catalog) -> None:
    catalog.add(_product("SCN-0001", "4006381333931"))
    catalog.update_price("SCN-0001", "2.50")
    catalog.discontinue("SCN-0001")
    found = catalog.find_by_gtin("4006381333931")
    assert found is not None
    assert (found.sku, found.unit_price, found.active) == ("SCN-0001", Decimal("2.50"), False)
