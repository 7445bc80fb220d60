"""SHIP-1: orders of 30 kg billable weight or more ship as freight."""

from decimal import Decimal

import pytest
from catalog import Catalog
from orders import Address, OrderService
from shipping import NoRateError, cheapest_quote, quote_items, quote_order


def test_exactly_thirty_kg_is_freight(catalog: Catalog) -> None:
    # 24.5 kg desk + 12 x 0.45 kg mugs = 29.9 kg actual -> 30.0 kg billable
    quote = quote_items([("DSK-5001", 1), ("MUG-2001", 12)], catalog, "DE", "SKYFAST")
    assert quote.mode == "FREIGHT"
    assert quote.carrier == "HAULIX"
    assert quote.zone == 1
    assert quote.billable_kg == Decimal("30")
    assert quote.price == Decimal("55.00")


def test_just_below_thirty_kg_stays_parcel(catalog: Catalog) -> None:
    # 24.5 kg + 11 x 0.45 kg = 29.45 kg -> 29.5 kg billable
    quote = quote_items([("DSK-5001", 1), ("MUG-2001", 11)], catalog, "DE", "PARCELCO")
    assert quote.mode == "PARCEL"
    assert (quote.carrier, quote.billable_kg, quote.price) == (
        "PARCELCO",
        Decimal("29.5"),
        Decimal("19.90"),
    )


def test_freight_price_per_kg_and_zone_factor(
    service: OrderService, catalog: Catalog, berlin: Address, paris: Address
) -> None:
    # 24.5 kg desk + 18 kg server = 42.5 kg billable -> 43 whole kg
    domestic = quote_items([("DSK-5001", 1), ("SRV-7001", 1)], catalog, "DE", "PARCELCO")
    assert (domestic.mode, domestic.billable_kg, domestic.price) == (
        "FREIGHT",
        Decimal("43"),
        Decimal("66.70"),
    )
    order = service.create_order("C-1", paris)
    service.add_line(order.order_id, "DSK-5001", 1)
    service.add_line(order.order_id, "SRV-7001", 1)
    europe = quote_order(order, catalog, "PARCELCO")
    assert (europe.mode, europe.carrier, europe.zone) == ("FREIGHT", "HAULIX", 2)
    assert europe.price == Decimal("90.05")
    cheapest = cheapest_quote(order, catalog)
    assert (cheapest.mode, cheapest.price) == ("FREIGHT", Decimal("90.05"))


def test_freight_takes_hazmat_and_long_items(catalog: Catalog) -> None:
    # actual 0.48 + 6.8 + 24.5 = 31.78 kg; volumetric 0.0768 + 28.8 + 21.6 = 50.4768 kg
    # -> 50.5 kg billable -> 51 whole kg; the lamp is longer than SkyFast takes, the battery hazmat
    quote = quote_items(
        [("BAT-4001", 1), ("LMP-3001", 1), ("DSK-5001", 1)], catalog, "DE", "SKYFAST"
    )
    assert (quote.mode, quote.carrier, quote.billable_kg, quote.price) == (
        "FREIGHT",
        "HAULIX",
        Decimal("51"),
        Decimal("73.90"),
    )


def test_no_freight_to_zone_three(catalog: Catalog) -> None:
    # 24.5 kg + 13 x 0.45 kg = 30.35 kg -> 30.5 kg billable
    with pytest.raises(NoRateError):
        quote_items([("DSK-5001", 1), ("MUG-2001", 13)], catalog, "US", "PARCELCO")
