"""Currency amounts for the billing platform.

``money`` is the bottom layer: every other package expresses prices, charges,
payments and taxes as :class:`Money` values.  Amounts are :class:`decimal.Decimal`
quantities in one :class:`Currency`; they never hold more decimal places than the
currency's minor units, and every operation that can produce fractions of a minor
unit (multiplying by a rate, taking a fraction) rounds explicitly with a named
rounding mode.

Every domain error of the platform derives from :class:`BillingError`, whose
``code`` is the stable machine-readable identifier the api layer reports.
"""

from money.amount import Money, sum_money
from money.currency import Currency, get_currency, supported_currencies
from money.errors import (
    BillingError,
    CurrencyMismatchError,
    InvalidAmountError,
    UnknownCurrencyError,
)
from money.rounding import ROUNDING_MODES, quantize
