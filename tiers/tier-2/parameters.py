"""Values of tier 2 that follow from the seed's draw: worked examples and the tests' inputs.

`derive(values)` gets the drawn values (tier.yaml `params`) and returns more, by name. The sprint
text shows them as `${name}`, and the hidden tests read them through the `params` fixture, so a
worked example and the test that checks it always agree. Every value is a str or an int.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
POUND_KG = Decimal("0.45359237")
DE_VAT = Decimal("0.19")
MUG_PRICE = Decimal("8.50")
TIE_PRICE = Decimal("0.25")
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
# A valid code of another length than the drawn one, per drawn length.
OTHER_LENGTH_GTIN = {
    8: "036000291452",
    12: "4006381333931",
    13: "036000291452",
    14: "4006381333931",
}


def derive(values: dict[str, object]) -> dict[str, object]:
    derived: dict[str, object] = {}
    derived.update(_gtin(int(str(values["gtin_digits"]))))
    derived.update(_weights(int(str(values["weight_decimals"]))))
    derived.update(_buffer(str(values["buffer_name"])))
    derived["max_split_words"] = NUMBER_WORDS[int(str(values["max_split"]))]
    derived.update(_volume(values))
    derived.update(_hold(Decimal(str(values["hold_total"]))))
    derived["legacy_example"] = f"SF{int(str(values['legacy_last_seq'])) // 2:08d}DE"
    derived.update(_freight(values))
    return derived


# -- CAT-1 ----------------------------------------------------------------------------------


def gtin_check_digit(body: str) -> int:
    """The GS1 check digit of `body`: weights 3, 1, 3, ... from its rightmost digit."""
    total = sum(int(d) * (3 if i % 2 == 0 else 1) for i, d in enumerate(reversed(body)))
    return (10 - total % 10) % 10


def _with_check(body: str) -> str:
    return body + str(gtin_check_digit(body))


def _gtin(digits: int) -> dict[str, object]:
    def code(body: str) -> str:
        # A GTIN-14 is a GTIN-13 with a packaging indicator in front; shorter codes keep the
        # body's last digits.
        return _with_check(("1" * max(0, digits - 13) + body)[-(digits - 1) :])

    example = code("400638133393")
    bad = example[:-1] + str((int(example[-1]) + 1) % 10)
    zero = next(
        gtin for gtin in (code(f"4000000000{n:02d}") for n in range(100)) if gtin.endswith("0")
    )
    return {
        "gtin_example": example,
        "gtin_example_bad": bad,
        "gtin_second": code("590123412345"),
        "gtin_third": code("871234567890"),
        "gtin_zero_check": zero,
        "gtin_other_length": OTHER_LENGTH_GTIN[digits],
        "gtin_short": example[:-1],
        "gtin_long": example + "0",
    }


# -- CAT-2 ----------------------------------------------------------------------------------


def _round(amount: Decimal, decimals: int) -> Decimal:
    return amount.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def _weights(decimals: int) -> dict[str, object]:
    if decimals == 4:
        half, tiny_ok, tiny_zero = "1234.55 g", "0.05 g", "0.04 g"
        precision = "4 decimals (tenths of a gram)"
    elif decimals == 3:
        half, tiny_ok, tiny_zero = "1234.5 g", "0.5 g", "0.4 g"
        precision = "3 decimals (whole grams)"
    else:
        half, tiny_ok, tiny_zero = "1235 g", "5 g", "4 g"
        precision = "2 decimals (tens of grams)"
    grams = Decimal(half.split()[0]) / 1000
    return {
        "weight_precision": precision,
        "gram_half_in": half,
        "gram_half_kg": str(_round(grams, decimals)),
        "gram_tiny_in": tiny_ok,
        "gram_tiny_kg": str(_round(Decimal(tiny_ok.split()[0]) / 1000, decimals)),
        "gram_zero_in": tiny_zero,
        "pound_example_kg": str(_round(2 * POUND_KG, decimals)),
        # Large enough that a shortened factor (0.4536, 0.45359, 0.453592) rounds differently.
        "pound_precise_in": "1900 lb",
        "pound_precise_kg": str(_round(1900 * POUND_KG, decimals)),
    }


# -- INV-1 ----------------------------------------------------------------------------------


def _buffer(name: str) -> dict[str, object]:
    return {"buffer_words": name.replace("_", " ")}


# -- ORD-1 ----------------------------------------------------------------------------------


def _volume(values: dict[str, object]) -> dict[str, object]:
    bulk_qty, pallet_qty = int(str(values["bulk_qty"])), int(str(values["pallet_qty"]))
    bulk_pct, pallet_pct = Decimal(str(values["bulk_pct"])), Decimal(str(values["pallet_pct"]))

    def half_cent(quantity: int, pct: Decimal) -> bool:
        return (quantity * TIE_PRICE * pct / 100 / CENT) % 1 == Decimal("0.5")

    # The smallest quantities of 0.25 EUR cable ties whose discount ends in half a cent.
    bulk_round = next(q for q in range(bulk_qty, pallet_qty) if half_cent(q, bulk_pct))
    pallet_round = next(q for q in range(pallet_qty, 10_000) if half_cent(q, pallet_pct))
    line = bulk_round * TIE_PRICE
    exact = line * bulk_pct / 100
    example = (
        f"{bulk_round} x {TIE_PRICE} = {line:.2f}, {bulk_pct} % = {exact.normalize():f} -> "
        f"{exact.quantize(CENT, rounding=ROUND_HALF_UP)}"
    )
    subtotal = 20 * MUG_PRICE  # the coupon example: 20 mugs, always a bulk line
    volume = (subtotal * bulk_pct / 100).quantize(CENT, rounding=ROUND_HALF_UP)
    after = subtotal - volume
    coupon = (after * 10 / 100).quantize(CENT, rounding=ROUND_HALF_UP)
    return {
        "bulk_top": pallet_qty - 1,
        "bulk_round_qty": bulk_round,
        "pallet_round_qty": pallet_round,
        "volume_round_example": example,
        "coupon_subtotal": f"{subtotal:.2f}",
        "coupon_volume": f"{volume:.2f}",
        "coupon_after_volume": f"{after:.2f}",
        "coupon_discount_example": f"{coupon:.2f}",
        "coupon_total_example": f"{after - coupon:.2f}",
    }


# -- ORD-2 ----------------------------------------------------------------------------------


def _german_total(net: Decimal) -> Decimal:
    return net + (net * DE_VAT).quantize(CENT, rounding=ROUND_HALF_UP)


def _net_for_total(total: Decimal) -> str | None:
    """The net unit price whose German total (19 % VAT) is exactly `total`, if there is one
    (rounding the VAT to cents skips a total now and then)."""
    guess = (total / (1 + DE_VAT)).quantize(CENT)
    for step in range(-5, 6):
        net = guess + step * CENT
        if _german_total(net) == total:
            return f"{net:.2f}"
    return None


def _hold(threshold: Decimal) -> dict[str, object]:
    if _net_for_total(threshold) is None:
        raise ValueError(f"no net price gives a German total of exactly {threshold}")
    # The highest German total below the threshold: one cent below it, or two.
    below = next(
        total for total in (threshold - CENT, threshold - 2 * CENT) if _net_for_total(total)
    )
    return {
        "hold_total_eur": f"{threshold:.2f}",
        "hold_below": f"{below:.2f}",
        "hold_net_price": _net_for_total(threshold),
        "hold_net_price_below": _net_for_total(below),
    }


# -- SHIP-1 ---------------------------------------------------------------------------------


def _freight(values: dict[str, object]) -> dict[str, object]:
    threshold = Decimal(str(values["freight_kg"]))
    base = Decimal(str(values["freight_base"]))
    per_kg = Decimal(str(values["freight_per_kg"]))
    factor = Decimal(str(values["freight_eu_factor"]))
    billable = Decimal("42.5")  # the standing desk and the rack server
    whole = billable.to_integral_value(rounding=ROUND_CEILING)
    extra = whole - threshold
    raw = (base + extra * per_kg) * factor
    example = (
        f"{billable} kg billable to France -> {whole} kg -> ({base} + {extra} x {per_kg}) x "
        f"{factor} = {raw.normalize():f} -> {raw.quantize(CENT, rounding=ROUND_HALF_UP)}"
    )
    return {"freight_below": f"{threshold - Decimal('0.5')}", "freight_example": example}
