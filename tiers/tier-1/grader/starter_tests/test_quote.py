"""What tests/test_quote.py covers: fees per ticket and the discount spread over the lines."""

from decimal import Decimal


def test_quote_adds_fees_per_ticket(pricing, prices):
    quote = pricing.build_quote(prices, ["flr-a-5", "FLR-A-6"])
    assert [line.seat for line in quote.lines] == ["FLR-A-5", "FLR-A-6"]
    assert quote.face_total == Decimal("178.00")
    assert quote.fees_total == Decimal("25.36")
    assert quote.total == Decimal("203.36")


def test_quote_spreads_discount_over_lines(subject, pricing, prices, discounts):
    quote = pricing.build_quote(prices, ["FLR-A-5", "BAL-A-3"], discount=discounts.get("SPRING10"))
    assert [line.discount for line in quote.lines] == [Decimal("8.90"), Decimal("4.95")]
    assert quote.discount_code == "SPRING10"
    assert quote.total == Decimal("138.50") - Decimal("13.85") + Decimal("16.62") + Decimal("4.00")
    with subject.raises("pricing.NoPriceError"):
        pricing.build_quote(prices, ["BOX-A-1"])
