"""Order totals: subtotal, coupon discount, VAT and grand total.

All amounts are EUR. Every rounded amount is rounded to cents with halves rounded up
(:func:`catalog.round_money`); line totals are exact and never rounded.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from catalog import round_money

from .model import Coupon, Order

# Standard VAT rates of the EU countries we deliver to. Deliveries outside this table are
# exports and carry no VAT.
VAT_RATES: dict[str, Decimal] = {
    "AT": Decimal("0.20"),
    "BE": Decimal("0.21"),
    "DE": Decimal("0.19"),
    "DK": Decimal("0.25"),
    "ES": Decimal("0.21"),
    "FR": Decimal("0.20"),
    "IT": Decimal("0.22"),
    "NL": Decimal("0.21"),
    "PL": Decimal("0.23"),
    "SE": Decimal("0.25"),
}


@dataclass(frozen=True)
class PriceBreakdown:
    """How an order's total is made up.

    ``net = subtotal - discount``, ``vat = net * vat_rate`` (rounded), ``total = net + vat``.
    """

    subtotal: Decimal
    discount: Decimal
    net: Decimal
    vat_rate: Decimal
    vat: Decimal
    total: Decimal


def vat_rate_for(country: str) -> Decimal:
    """The VAT rate for deliveries to ``country`` (0 for exports)."""
    return VAT_RATES.get(country, Decimal("0.00"))


def coupon_discount(coupon: Coupon | None, amount: Decimal) -> Decimal:
    """The discount ``coupon`` gives on ``amount``: its percentage of the amount, rounded.

    No discount without a coupon or when ``amount`` is below the coupon's ``min_subtotal``.
    """
    if coupon is None or amount < coupon.min_subtotal:
        return Decimal("0.00")
    return round_money(amount * coupon.percent_off / 100)


def price_order(order: Order) -> PriceBreakdown:
    """Price ``order`` as it stands (any status)."""
    subtotal = round_money(sum((line.line_total for line in order.lines), Decimal(0)))
    discount = coupon_discount(order.coupon, subtotal)
    net = subtotal - discount
    rate = vat_rate_for(order.ship_to.country)
    vat = round_money(net * rate)
    return PriceBreakdown(
        subtotal=subtotal,
        discount=discount,
        net=net,
        vat_rate=rate,
        vat=vat,
        total=net + vat,
    )
