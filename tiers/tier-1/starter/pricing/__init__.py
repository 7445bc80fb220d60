"""Face values, fees, discount codes and quotes.

All money is :class:`decimal.Decimal` in a named currency; floats never enter
the pricing code. Amounts are rounded with :func:`pricing.money.quantize`.
"""

from pricing.discounts import DiscountBook, DiscountCode, DiscountKind, discount_amount
from pricing.errors import (
    DuplicateDiscountCodeError, InvalidDiscountCodeError, NoPriceError, PricingError,
    UnknownCurrencyError,
)
from pricing.fees import TicketFees, facility_fee, service_fee, ticket_fees
from pricing.money import allocate, format_amount, quantize, to_minor_units
from pricing.quote import Quote, QuoteLine, build_quote
from pricing.tiers import PriceTable, PriceTier

__all__ = [
    "DiscountBook", "DiscountCode", "DiscountKind", "DuplicateDiscountCodeError",
    "InvalidDiscountCodeError", "NoPriceError", "PriceTable", "PriceTier", "PricingError",
    "Quote", "QuoteLine", "TicketFees", "UnknownCurrencyError", "allocate", "build_quote",
    "discount_amount", "facility_fee", "format_amount", "quantize", "service_fee",
    "ticket_fees", "to_minor_units",
]
