from decimal import Decimal

import pytest

from catalog import Catalog, Dimensions
from orders import Address, OrderService
from shipping import (
    HazmatRefusedError,
    NoRateError,
    ShippingError,
    UnknownCarrierError,
    cheapest_quote,
    make_label,
    parse_reported_weight,
    quote_items,
    quote_order,
    render_label,
    reweigh_adjustment,
    summarize,
    tracking_number,
    volumetric_weight,
    zone_for,
)


def test_zones() -> None:
    assert (zone_for("DE"), zone_for("FR"), zone_for("CH"), zone_for("US")) == (1, 2, 3, 3)
    with pytest.raises(ValueError):
        zone_for("Germany")


def test_volumetric_and_billable_weight(catalog: Catalog) -> None:
    assert volumetric_weight(Dimensions(30, 20, 10)) == Decimal("1.2")
    summary = summarize([("BOX-1001", 2), ("MUG-2001", 1)], catalog)
    assert summary.actual_kg == Decimal("0.950")
    assert summary.volumetric_kg == Decimal("2.7168")
    assert summary.billable_kg == Decimal("3.0")
    assert summarize([("MUG-2001", 10)], catalog).billable_kg == Decimal("4.5")
    assert summarize([("MUG-2001", 11)], catalog).billable_kg == Decimal("5.0")
    with pytest.raises(ShippingError):
        summarize([], catalog)


def test_parcel_quote_uses_band(catalog: Catalog) -> None:
    quote = quote_items([("MUG-2001", 12)], catalog, "DE", "PARCELCO")
    assert (quote.carrier, quote.zone, quote.billable_kg, quote.price) == (
        "PARCELCO",
        1,
        Decimal("5.5"),
        Decimal("9.90"),
    )
    assert quote_items([("MUG-2001", 12)], catalog, "FR", "PARCELCO").price == Decimal("18.90")


def test_skyfast_refuses_hazmat_and_long_items(catalog: Catalog) -> None:
    with pytest.raises(HazmatRefusedError) as info:
        quote_items([("MUG-2001", 1), ("BAT-4001", 2)], catalog, "DE", "SKYFAST")
    assert info.value.skus == ["BAT-4001"]
    with pytest.raises(NoRateError):
        quote_items([("LMP-3001", 1)], catalog, "DE", "SKYFAST")


def test_skyfast_weight_limit(catalog: Catalog) -> None:
    assert quote_items([("DSK-5001", 1)], catalog, "DE", "SKYFAST").price == Decimal("29.00")
    with pytest.raises(NoRateError):
        quote_items([("DSK-5001", 1), ("MUG-2001", 2)], catalog, "DE", "SKYFAST")


def test_unknown_carrier(catalog: Catalog) -> None:
    with pytest.raises(UnknownCarrierError) as info:
        quote_items([("MUG-2001", 1)], catalog, "DE", "POSTX")
    assert "PARCELCO, SKYFAST" in str(info.value)


def test_cheapest_quote(service: OrderService, catalog: Catalog, berlin: Address) -> None:
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 1)
    assert cheapest_quote(order, catalog).carrier == "PARCELCO"
    service.add_line(order.order_id, "BAT-4001", 1)
    assert quote_order(order, catalog, "PARCELCO").price == Decimal("4.90")


def test_label_for_allocated_order(
    service: OrderService, catalog: Catalog, berlin: Address
) -> None:
    order = service.create_order("C-1", berlin)
    service.add_line(order.order_id, "MUG-2001", 2)
    quote = quote_order(order, catalog, "PARCELCO")
    with pytest.raises(ShippingError):
        make_label(order, quote, 1)
    service.place(order.order_id)
    label = make_label(order, quote, 42)
    assert label.tracking_number.startswith("PC") and label.tracking_number.endswith("DE")
    assert label.order_id == order.order_id and label.zone == 1
    text = render_label(label)
    assert label.tracking_number in text and "10119 Berlin" in text


def test_tracking_sequence_range() -> None:
    with pytest.raises(ValueError):
        tracking_number("PARCELCO", 0)
    with pytest.raises(ValueError):
        tracking_number("PARCELCO", 100_000_000)
    assert tracking_number("SKYFAST", 7).startswith("SF")


def test_reported_weights_in_hub_units() -> None:
    assert parse_reported_weight("12.5 kg") == Decimal("12.500")
    assert parse_reported_weight("14500g") == Decimal("14.500")
    assert parse_reported_weight("2 LB") == Decimal("0.907")
    assert parse_reported_weight("40 oz") == Decimal("1.134")
    with pytest.raises(ValueError):
        parse_reported_weight("12.5 stone")
    with pytest.raises(ValueError):
        parse_reported_weight("heavy")


def test_reweigh_adjustment(catalog: Catalog) -> None:
    quote = quote_items([("MUG-2001", 4)], catalog, "DE", "PARCELCO")
    assert (quote.billable_kg, quote.price) == (Decimal("2.0"), Decimal("4.90"))
    assert reweigh_adjustment(quote, "1.9 kg") == Decimal("0.00")
    assert reweigh_adjustment(quote, "2100 g") == Decimal("2.00")
    assert reweigh_adjustment(quote, "30 lb") == Decimal("10.00")
    with pytest.raises(NoRateError):
        reweigh_adjustment(quote, "80 lb")
