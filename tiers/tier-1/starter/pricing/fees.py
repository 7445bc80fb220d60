"""Per-ticket fees added on top of the face value.

Every ticket carries two fees:

* the **facility fee**, a flat per-ticket amount passed on to the venue
  (:data:`FACILITY_FEES`), and
* the **service fee**, our own fee: a percentage of the face value, kept
  within per-currency limits (:data:`SERVICE_FEE_RATE`,
  :data:`SERVICE_FEE_LIMITS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from pricing.errors import UnknownCurrencyError
from pricing.money import as_decimal, quantize

#: Flat facility fee per ticket, by currency.
FACILITY_FEES: dict[str, Decimal] = {
    "USD": Decimal("2.00"),
    "EUR": Decimal("2.00"),
    "GBP": Decimal("1.50"),
    "JPY": Decimal("300"),
}

#: Service fee as a fraction of the face value.
SERVICE_FEE_RATE = Decimal("0.12")

#: ``(minimum, maximum)`` service fee per ticket, by currency.
SERVICE_FEE_LIMITS: dict[str, tuple[Decimal, Decimal]] = {
    "USD": (Decimal("1.50"), Decimal("25.00")),
    "EUR": (Decimal("1.50"), Decimal("25.00")),
    "GBP": (Decimal("1.25"), Decimal("20.00")),
    "JPY": (Decimal("200"), Decimal("3000")),
}


def facility_fee(currency: str) -> Decimal:
    """The flat facility fee per ticket in ``currency``.

    Raises:
        UnknownCurrencyError: no facility fee is defined for ``currency``.
    """
    try:
        return FACILITY_FEES[currency]
    except KeyError:
        raise UnknownCurrencyError(f"no facility fee for {currency!r}") from None


def service_fee(face_value: Decimal | int | str, currency: str) -> Decimal:
    """The service fee for one ticket with ``face_value``.

    See TASK.md for the rules.
    """
    raise NotImplementedError("service_fee: see TASK.md")


@dataclass(frozen=True)
class TicketFees:
    """The fees of one ticket."""

    service: Decimal
    facility: Decimal

    @property
    def total(self) -> Decimal:
        """Both fees together."""
        return self.service + self.facility


def ticket_fees(face_value: Decimal | int | str, currency: str) -> TicketFees:
    """Service and facility fee of one ticket.

    Complimentary tickets (face value 0) carry no fees at all.
    """
    face = as_decimal(face_value)
    if face == 0:
        zero = quantize(0, currency)
        return TicketFees(service=zero, facility=zero)
    return TicketFees(service=service_fee(face, currency), facility=facility_fee(currency))
