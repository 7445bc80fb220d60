"""The README badge: shields.io endpoint JSON and a self-contained SVG (pure functions).

Serve `specsnap-badge.json` anywhere public (a branch, a gist, GitHub Pages) and point
`https://img.shields.io/endpoint?url=...` at it, or commit `specsnap-badge.svg` and link it
directly: the SVG needs no external service, fonts or scripts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from specsnap.render.words import percent, tes_text
from specsnap.scorecard.model import Scorecard

#: shields.io's named colours, so the JSON and the SVG show the same colour.
COLORS = {
    "brightgreen": "#4c1",
    "green": "#97ca00",
    "yellow": "#dfb317",
    "orange": "#fe7d37",
    "red": "#e05d44",
    "lightgrey": "#9f9f9f",
}


@dataclass(frozen=True)
class Badge:
    label: str
    message: str
    color: str  # a key of COLORS


def badge_for(cards: Sequence[Scorecard]) -> Badge:
    """One card: its tier's net retention and TES (Stage II: retention without recovery,
    "kept", first). Several: how many passed, and mean net."""
    if not cards:
        return Badge("SpecSnap", "no runs", "lightgrey")
    passed = sum(card.passed for card in cards)
    if len(cards) == 1:
        card = cards[0]
        message = f"net {percent(card.scores.net_retention)} · TES {tes_text(card.scores.tes)}"
        kept = card.scores.retained_without_recovery
        if kept is not None:  # Stage II: what decides PASS comes first
            message = f"kept {percent(kept)} · {message}"
            return Badge(f"SpecSnap {card.tier_id} Stage II", message, _color(passed, 1))
        return Badge(f"SpecSnap {card.tier_id}", message, _color(passed, 1))
    mean = sum(card.scores.net_retention for card in cards) / len(cards)
    message = f"{passed}/{len(cards)} passed · net {percent(mean)}"
    return Badge("SpecSnap", message, _color(passed, len(cards)))


def endpoint_json(badge: Badge) -> dict[str, Any]:
    """The shields.io endpoint schema (schemaVersion 1); 300 s is shields' minimum cache time."""
    return {
        "schemaVersion": 1,
        "label": badge.label,
        "message": badge.message,
        "color": badge.color,
        "cacheSeconds": 300,
    }


def render_svg(badge: Badge) -> str:
    """A flat-style badge like shields.io renders, sized from Verdana 11px glyph widths."""
    label_w = round(text_width(badge.label)) + 10
    message_w = round(text_width(badge.message)) + 10
    width = label_w + message_w
    color = COLORS.get(badge.color, COLORS["lightgrey"])
    title = _escape(f"{badge.label}: {badge.message}")
    label, message = _escape(badge.label), _escape(badge.message)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" '
        f'aria-label="{title}"><title>{title}</title>'
        '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" '
        'stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>'
        f'<clipPath id="r"><rect width="{width}" height="20" rx="3" fill="#fff"/></clipPath>'
        f'<g clip-path="url(#r)"><rect width="{label_w}" height="20" fill="#555"/>'
        f'<rect x="{label_w}" width="{message_w}" height="20" fill="{color}"/>'
        f'<rect width="{width}" height="20" fill="url(#s)"/></g>'
        '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" '
        'text-rendering="geometricPrecision" font-size="110">'
        f"{_text(label, label_w / 2, label_w - 10)}"
        f"{_text(message, label_w + message_w / 2, message_w - 10)}"
        "</g></svg>"
    )


def text_width(text: str) -> float:
    """Approximate width in px of `text` in Verdana 11px (the SVG pins it with textLength)."""
    return sum(_WIDTHS.get(char, _WIDE if ord(char) > 0x2000 else _DEFAULT) for char in text)


def _text(content: str, center: float, length: float) -> str:
    x, size = round(center * 10), round(length * 10)
    shadow = (
        f'<text aria-hidden="true" x="{x}" y="150" fill="#010101" fill-opacity=".3" '
        f'transform="scale(.1)" textLength="{size}">{content}</text>'
    )
    text = f'<text x="{x}" y="140" transform="scale(.1)" textLength="{size}">{content}</text>'
    return shadow + text


def _escape(value: str) -> str:
    """XML text and attribute values alike: a quote cannot end the attribute it sits in."""
    return escape(value, {'"': "&quot;", "'": "&apos;"})


def _color(passed: int, total: int) -> str:
    if passed == total:
        return "brightgreen"
    return "yellow" if passed * 2 >= total else "red"


_DEFAULT = 7.0
_WIDE = 11.0
_WIDTHS: dict[str, float] = {
    **dict.fromkeys("iljI.,:;'!|", 3.3),
    **dict.fromkeys(" frt()[]/-", 4.6),
    **dict.fromkeys("0123456789", 7.0),
    **dict.fromkeys("abcdeghknopqsuvxyz", 6.8),
    **dict.fromkeys("mw", 10.7),
    **dict.fromkeys("ABCDEFGHJKLNOPQRSTUVXYZ", 7.6),
    **dict.fromkeys("MW", 9.9),
    "%": 12.0,
    "·": 4.6,
    "/": 4.9,
}
