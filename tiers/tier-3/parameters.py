"""Values of tier 3 derived from a seed's draw: the worked examples the sprint text shows.

`derive(values)` gets the drawn values (tier.yaml `params`) and returns the numbers and strings
whose form depends on them, computed by the rules the requirements state. The hidden tests
read the same values through their `params` fixture, so the text and the tests cannot disagree.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import ROUND_DOWN, ROUND_HALF_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, ROUND_UP, Decimal

ROUNDING = {
    "half_even": ROUND_HALF_EVEN,
    "half_up": ROUND_HALF_UP,
    "half_down": ROUND_HALF_DOWN,
    "down": ROUND_DOWN,
    "up": ROUND_UP,
}
PRORATION_WORDS = {
    "half_even": "half-even to the cent (a half cent goes to the even cent)",
    "half_up": "half-up to the cent (a half cent goes up)",
}
YEN_TAX_WORDS = {
    "half_up": "`half_up` (a half yen rounds away from zero)",
    "half_even": "`half_even` (a half yen rounds to the even yen)",
    "half_down": "`half_down` (a half yen rounds towards zero, more than half away from it)",
    "down": "`down` (any fraction of a yen is dropped)",
    "up": "`up` (any fraction of a yen counts as a whole yen)",
}


def derive(values: dict[str, object]) -> dict[str, object]:
    derived: dict[str, object] = {}
    derived.update(
        _invoice_numbers(
            str(values["invoice_year_sep"]),
            int(values["invoice_digits"]),
            int(values["invoice_year_digits"]),
        )
    )
    derived.update(_yen(str(values["yen_symbol"]), str(values["yen_tax_rounding"])))
    derived.update(_proration(str(values["proration_rounding"]), int(values["proration_due_days"])))
    derived["credit_min"] = f"{Decimal(int(values['credit_min_cents'])) / 100:.2f}"
    return derived


def invoice_number(year: int, counter: int, sep: str, digits: int, year_digits: int) -> str:
    """BILL-4's format: INV-<the year's last `year_digits` digits><sep><counter, zero-padded
    to `digits`>."""
    return f"INV-{year % 10**year_digits:0{year_digits}d}{sep}{counter:0{digits}d}"


def _invoice_numbers(sep: str, digits: int, year_digits: int) -> dict[str, object]:
    return {
        "invoice_first_counter": f"{1:0{digits}d}",
        "invoice_year_pattern": "Y" * year_digits,
        "invoice_year_words": (
            "written in full, 4 digits (2025)"
            if year_digits == 4
            else "written as its last 2 digits (25 for 2025)"
        ),
        "invoice_2025_1": invoice_number(2025, 1, sep, digits, year_digits),
        "invoice_2024_1": invoice_number(2024, 1, sep, digits, year_digits),
        "invoice_2024_2": invoice_number(2024, 2, sep, digits, year_digits),
    }


def yen_tax(subtotal: int, rounding: str) -> Decimal:
    """BILL-5's rule: 10% consumption tax on a whole-yen subtotal, rounded to whole yen."""
    return (Decimal(subtotal) * Decimal("0.10")).quantize(Decimal(1), rounding=ROUNDING[rounding])


def _yen(symbol: str, rounding: str) -> dict[str, object]:
    # BILL-5's example: plan 4,980 + one 245 add-on = 5,225; 10% consumption tax.
    tax = yen_tax(5225, rounding)
    total = Decimal(5225) + tax
    return {
        "yen_tax_rounding_words": YEN_TAX_WORDS[rounding],
        "yen_example_tax_5215": str(yen_tax(5215, rounding)),
        "yen_example_tax_5227": str(yen_tax(5227, rounding)),
        "yen_example_tax_5223": str(yen_tax(5223, rounding)),
        "yen_example_tax": str(tax),
        "yen_example_total": str(total),
        "yen_example_display": f"{symbol}{total:,}",
    }


def _proration(rounding: str, due_days: int) -> dict[str, object]:
    # BILL-7's example: Basic 30.10 -> Pro 50.30 on 2025-02-22, 7 of 28 days unused, German VAT.
    cent = Decimal("0.01")
    credit = (Decimal("30.10") * 7 / 28).quantize(cent, rounding=ROUNDING[rounding])
    charge = (Decimal("50.30") * 7 / 28).quantize(cent, rounding=ROUNDING[rounding])
    net = charge - credit
    vat = (net * Decimal("0.19")).quantize(cent, rounding=ROUND_HALF_UP)
    return {
        "proration_rounding_words": PRORATION_WORDS[rounding],
        "proration_example_credit": str(credit),
        "proration_example_charge": str(charge),
        "proration_example_net": str(net),
        "proration_example_vat": str(vat),
        "proration_example_total": str(net + vat),
        "proration_example_due": (date(2025, 2, 22) + timedelta(days=due_days)).isoformat(),
    }
