from decimal import Decimal

import pytest

from catalog import (
    Catalog,
    CatalogError,
    CatalogImportError,
    Dimensions,
    DuplicateSkuError,
    InactiveProductError,
    InvalidProductError,
    InvalidSkuError,
    Product,
    UnknownSkuError,
    ceil_to_step,
    load_products_csv,
    parse_products_csv,
    round_money,
    validate_sku,
)

FEED = """sku,name,unit_price,weight,length_cm,width_cm,height_cm,hazmat
CUP-0001,Espresso cup,3.20,0.120,8,8,7,no
BAT-0002,AA batteries (8x),6.99,0.190,10,6,2,yes
"""


@pytest.mark.parametrize("sku", ["BOX-1001", "ABC-123456"])
def test_valid_skus(sku: str) -> None:
    assert validate_sku(sku) == sku


@pytest.mark.parametrize("sku", ["box-1001", "BOX1001", "BOX-12", "BOXX-1001", " BOX-1001"])
def test_invalid_skus(sku: str) -> None:
    with pytest.raises(InvalidSkuError):
        validate_sku(sku)


def test_product_normalises_values() -> None:
    product = Product("CUP-0001", "  Espresso cup ", 3.2, "0.12", Dimensions("8", 8, 7.5))
    assert product.name == "Espresso cup"
    assert product.unit_price == Decimal("3.2")
    assert product.weight_kg == Decimal("0.12")
    assert product.dimensions.volume_cm3 == Decimal("480.0")
    assert product.dimensions.longest_side_cm == Decimal("8")
    assert product.active and not product.hazmat


@pytest.mark.parametrize(
    "changes",
    [{"unit_price": "1.005"}, {"unit_price": "-1"}, {"weight_kg": "0"}, {"name": "  "}],
)
def test_product_rejects_bad_values(changes: dict[str, str]) -> None:
    base = {"sku": "CUP-0001", "name": "Cup", "unit_price": "1.00", "weight_kg": "0.1"}
    with pytest.raises(InvalidProductError):
        Product(**{**base, **changes}, dimensions=Dimensions(8, 8, 7))  # type: ignore[arg-type]


def test_catalog_add_get_and_duplicates(catalog: Catalog) -> None:
    assert catalog.get("MUG-2001").name == "Stoneware mug"
    assert "MUG-2001" in catalog and "not a sku" not in catalog
    with pytest.raises(DuplicateSkuError):
        catalog.add(Product("MUG-2001", "Another mug", "1.00", "0.3", Dimensions(10, 10, 10)))
    with pytest.raises(UnknownSkuError) as info:
        catalog.get("MUG-9999")
    assert isinstance(info.value, KeyError)
    assert str(info.value) == "unknown SKU 'MUG-9999'"


def test_discontinued_products(catalog: Catalog) -> None:
    catalog.discontinue("LMP-3001")
    assert catalog.get("LMP-3001").active is False
    assert "LMP-3001" not in [product.sku for product in catalog.active_products()]
    with pytest.raises(InactiveProductError):
        catalog.require_active("LMP-3001")


def test_search_and_price_update(catalog: Catalog) -> None:
    assert [product.sku for product in catalog.search("BOX")] == ["BOX-1001"]
    assert [product.sku for product in catalog.search("o")] == [
        "BAT-4001",
        "BOX-1001",
        "LMP-3001",
        "MUG-2001",
    ]
    assert catalog.update_price("MUG-2001", "9.00").unit_price == Decimal("9.00")
    assert catalog.get("MUG-2001").unit_price == Decimal("9.00")


def test_parse_feed() -> None:
    cup, batteries = parse_products_csv(FEED)
    assert cup.sku == "CUP-0001" and cup.weight_kg == Decimal("0.120") and not cup.hazmat
    assert batteries.hazmat and batteries.unit_price == Decimal("6.99")


def test_feed_missing_column() -> None:
    with pytest.raises(CatalogImportError) as info:
        parse_products_csv("sku,name,unit_price,length_cm,width_cm,height_cm\n")
    assert info.value.line == 1
    assert "weight" in str(info.value)


def test_feed_bad_weight_names_the_line() -> None:
    feed = FEED + "MUG-0003,Mug,4.00,heavy,10,10,10,no\n"
    with pytest.raises(CatalogImportError) as info:
        parse_products_csv(feed)
    assert info.value.line == 4
    assert str(info.value) == "line 4: invalid weight 'heavy'"


def test_load_feed_is_all_or_nothing(catalog: Catalog) -> None:
    feed = FEED + "MUG-2001,Mug again,4.00,0.3,10,10,10,\n"
    with pytest.raises(CatalogError):
        load_products_csv(catalog, feed)
    assert "CUP-0001" not in catalog
    assert load_products_csv(Catalog(), FEED) == 2


def test_rounding_helpers() -> None:
    assert round_money("0.125") == Decimal("0.13")
    assert round_money("2.675") == Decimal("2.68")
    assert ceil_to_step("10.0", "0.5") == Decimal("10.0")
    assert ceil_to_step("10.01", "0.5") == Decimal("10.5")
