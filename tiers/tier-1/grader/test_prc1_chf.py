"""PRC-1: Swiss francs with 0.05 cash rounding (the CHF fees are seeded)."""

from decimal import Decimal


def test_chf_rounds_to_five_centimes_half_up(pricing):
    cases = {"10.024": "10.00", "10.025": "10.05", "10.074": "10.05", "10.075": "10.10"}
    for raw, rounded in cases.items():
        assert str(pricing.quantize(Decimal(raw), "CHF")) == rounded
    assert str(pricing.quantize(Decimal("3"), "CHF")) == "3.00"
    assert pricing.quantize(Decimal("2.345"), "USD") == Decimal("2.35")


def test_chf_minor_units_formatting_and_allocation(pricing):
    assert pricing.to_minor_units(Decimal("10.05"), "CHF") == 1005
    assert pricing.format_amount(Decimal("1234.5"), "CHF") == "CHF 1,234.50"
    assert pricing.allocate(Decimal("1.00"), [1, 1, 1], "CHF") == [
        Decimal("0.35"),
        Decimal("0.35"),
        Decimal("0.30"),
    ]


def test_chf_fees(pricing, params):
    assert pricing.facility_fee("CHF") == Decimal(params["chf_facility_fee"])
    assert pricing.service_fee(Decimal("21.10"), "CHF") == Decimal("2.55")
    assert pricing.service_fee(Decimal("40.00"), "CHF") == Decimal("4.80")
    assert pricing.service_fee(Decimal("10.00"), "CHF") == Decimal(params["chf_fee_min"])
    assert pricing.service_fee(Decimal("500.00"), "CHF") == Decimal(params["chf_fee_max"])


def test_chf_quote_end_to_end(make_service, now, params):
    service = make_service("CHF", stalls="44.60")
    hold = service.hold_seats("E-500", ["STL-B-1", "STL-B-2"], now)
    quote = service.quote(hold.hold_id, now, discount_code="HALL15")
    assert quote.currency == "CHF"
    facility = Decimal(params["chf_facility_fee"])
    assert [line.service_fee for line in quote.lines] == [Decimal("5.35"), Decimal("5.35")]
    assert [line.facility_fee for line in quote.lines] == [facility, facility]
    # 15 % of 89.20 is 13.38, which rounds to 13.40 and splits into two 6.70s.
    assert [line.discount for line in quote.lines] == [Decimal("6.70"), Decimal("6.70")]
    assert quote.total == Decimal("89.20") - Decimal("13.40") + Decimal("10.70") + 2 * facility


def test_chf_quote_discounts_are_spread_in_five_centime_steps(make_service, now):
    service = make_service("CHF", stalls="44.60")
    hold = service.hold_seats("E-500", ["STL-B-1", "STL-B-2", "STL-B-3"], now)
    quote = service.quote(hold.hold_id, now, discount_code="HALL15")
    # 15 % of 133.80 is 20.07, which rounds to 20.05: 401 five-centime steps over three lines.
    assert quote.discount_total == Decimal("20.05")
    assert [line.discount for line in quote.lines] == [
        Decimal("6.70"),
        Decimal("6.70"),
        Decimal("6.65"),
    ]


def test_chf_price_tables_refuse_odd_centimes(subject, make_service):
    make_service("CHF", stalls="45.05")
    with subject.raises("pricing.PricingError"):
        make_service("CHF", stalls="45.02")
