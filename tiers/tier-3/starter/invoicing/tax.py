"""Tax rates and tax lines.

The platform sells from Germany (``SELLER_COUNTRY``).  Tax is charged at the
rate of the customer's country on the invoice subtotal, rounded half-up to the
cent; countries without an entry, or with a zero rate, get no tax line.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from invoicing.models import TaxLine
from money import Money

SELLER_COUNTRY = "DE"

EU_MEMBER_STATES = frozenset(
    {
        "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU",
        "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
    }
)  # fmt: skip


@dataclass(frozen=True)
class TaxRate:
    country: str
    rate: Decimal
    label: str


_RATES: dict[str, TaxRate] = {
    rate.country: rate
    for rate in (
        TaxRate("AT", Decimal("0.20"), "VAT 20%"),
        TaxRate("BE", Decimal("0.21"), "VAT 21%"),
        TaxRate("DE", Decimal("0.19"), "VAT 19%"),
        TaxRate("ES", Decimal("0.21"), "VAT 21%"),
        TaxRate("FR", Decimal("0.20"), "VAT 20%"),
        TaxRate("IE", Decimal("0.23"), "VAT 23%"),
        TaxRate("IT", Decimal("0.22"), "VAT 22%"),
        TaxRate("NL", Decimal("0.21"), "VAT 21%"),
        TaxRate("PL", Decimal("0.23"), "VAT 23%"),
        TaxRate("SE", Decimal("0.25"), "VAT 25%"),
        TaxRate("GB", Decimal("0.20"), "VAT 20%"),
        TaxRate("CH", Decimal("0.081"), "MWST 8.1%"),
        TaxRate("NO", Decimal("0.25"), "MVA 25%"),
        TaxRate("JP", Decimal("0.10"), "Consumption tax 10%"),
        TaxRate("CA", Decimal("0.05"), "GST 5%"),
        TaxRate("US", Decimal("0"), "No sales tax"),
    )
}


def rate_for(country: str) -> TaxRate | None:
    """The tax rate for customers in ``country``, or None when none is configured."""
    return _RATES.get(country)


def tax_lines_for(subtotal: Money, country: str) -> tuple[TaxLine, ...]:
    """The tax lines for an invoice with ``subtotal`` billed to a customer in ``country``."""
    rate = rate_for(country)
    if rate is None or rate.rate.is_zero() or not subtotal.is_positive():
        return ()
    amount = (subtotal.amount * rate.rate).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return (TaxLine(rate.label, rate.rate, subtotal, Money(amount, subtotal.currency)),)
