"""SHIP-1: heavy shipments go by freight (threshold, prices, zone factor and carrier are seeded)."""

from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal

DESK_KG, MUG_KG = Decimal("24.5"), Decimal("0.45")


def billable(kg):
    """Billable weight as today: rounded up to the next 0.5 kg."""
    return (kg * 2).to_integral_value(rounding=ROUND_CEILING) / 2


def mugs_for(target):
    """How many mugs, added to one desk, make exactly `target` kg billable."""
    mugs = next(n for n in range(100) if billable(DESK_KG + n * MUG_KG) >= target)
    assert billable(DESK_KG + mugs * MUG_KG) == target, "the test needs an exact weight here"
    return mugs


def freight_price(whole_kg, zone, params):
    factor = Decimal("1.00") if zone == 1 else Decimal(params["freight_eu_factor"])
    extra = whole_kg - params["freight_kg"]
    price = (Decimal(params["freight_base"]) + Decimal(params["freight_per_kg"]) * extra) * factor
    return price.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def test_exactly_the_threshold_is_freight(subject, catalog, params):
    threshold = params["freight_kg"]
    items = [("DSK-5001", 1), ("MUG-2001", mugs_for(threshold))]
    quote = subject.module("shipping").quote_items(items, catalog, "DE", "SKYFAST")
    assert quote.mode == "FREIGHT"
    assert quote.carrier == params["freight_carrier"]
    assert quote.zone == 1
    assert quote.billable_kg == Decimal(threshold)
    assert quote.price == Decimal(params["freight_base"])


def test_just_below_the_threshold_stays_parcel(subject, catalog, params):
    below = Decimal(params["freight_below"])
    items = [("DSK-5001", 1), ("MUG-2001", mugs_for(below))]
    quote = subject.module("shipping").quote_items(items, catalog, "DE", "PARCELCO")
    assert quote.mode == "PARCEL"
    assert (quote.carrier, quote.billable_kg, quote.price) == (
        "PARCELCO",
        below,
        Decimal("19.90"),
    )


def test_freight_price_per_kg_and_zone_factor(subject, service, catalog, paris, params):
    shipping = subject.module("shipping")
    # 24.5 kg desk + 18 kg server = 42.5 kg billable -> 43 whole kg
    items = [("DSK-5001", 1), ("SRV-7001", 1)]
    domestic = shipping.quote_items(items, catalog, "DE", "PARCELCO")
    assert (domestic.mode, domestic.carrier, domestic.billable_kg, domestic.price) == (
        "FREIGHT",
        params["freight_carrier"],
        Decimal("43"),
        freight_price(43, 1, params),
    )
    order = service.create_order("C-1", paris)
    service.add_line(order.order_id, "DSK-5001", 1)
    service.add_line(order.order_id, "SRV-7001", 1)
    europe = shipping.quote_order(order, catalog, "PARCELCO")
    assert (europe.mode, europe.carrier, europe.zone) == ("FREIGHT", params["freight_carrier"], 2)
    assert europe.price == freight_price(43, 2, params)
    assert params["freight_example"].endswith(f"-> {europe.price}")
    cheapest = shipping.cheapest_quote(order, catalog)
    assert (cheapest.mode, cheapest.price) == ("FREIGHT", freight_price(43, 2, params))
    with subject.raises("shipping.UnknownCarrierError"):
        shipping.quote_items(items, catalog, "DE", "POSTX")


def test_freight_takes_hazmat_and_long_items(subject, catalog, params):
    # actual 0.48 + 6.8 + 24.5 = 31.78 kg; volumetric 0.0768 + 28.8 + 21.6 = 50.4768 kg
    # -> 50.5 kg billable -> 51 whole kg; the lamp is longer than SkyFast takes, the battery hazmat
    items = [("BAT-4001", 1), ("LMP-3001", 1), ("DSK-5001", 1)]
    quote = subject.module("shipping").quote_items(items, catalog, "DE", "SKYFAST")
    assert (quote.mode, quote.carrier, quote.billable_kg, quote.price) == (
        "FREIGHT",
        params["freight_carrier"],
        Decimal("51"),
        freight_price(51, 1, params),
    )


def test_no_freight_to_zone_three(subject, catalog, params):
    # one more mug than the threshold needs: above it, but not a whole kg
    shipping = subject.module("shipping")
    items = [("DSK-5001", 1), ("MUG-2001", mugs_for(params["freight_kg"]) + 1)]
    assert shipping.quote_items(items, catalog, "DE", "PARCELCO").mode == "FREIGHT"
    with subject.raises("shipping.NoRateError"):
        shipping.quote_items(items, catalog, "US", "PARCELCO")
