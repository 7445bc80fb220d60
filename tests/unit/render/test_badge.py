from __future__ import annotations

import xml.etree.ElementTree as ET

from specsnap.render.badge import Badge, badge_for, endpoint_json, render_svg, text_width
from tests.support.scorecards import fixture_card

SVG = "{http://www.w3.org/2000/svg}"


def test_one_card_shows_its_tier_net_retention_and_tes() -> None:
    assert badge_for([fixture_card("tier-1-seed-3")]) == Badge(
        "SpecSnap tier-1", "net 100.0% · TES 100.0%", "brightgreen"
    )
    assert badge_for([fixture_card("tier-4-seed-1")]).message == "net 37.5% · TES n/a"


def test_several_cards_show_how_many_passed() -> None:
    cards = [fixture_card("tier-1-seed-3"), fixture_card("tier-2-seed-7")]
    assert badge_for(cards) == Badge("SpecSnap", "1/2 passed · net 50.0%", "yellow")
    cards.append(fixture_card("tier-4-seed-1"))
    assert badge_for(cards).color == "red"
    assert badge_for([]).color == "lightgrey"


def test_endpoint_json_follows_the_shields_schema() -> None:
    data = endpoint_json(Badge("SpecSnap", "1/2 passed", "yellow"))
    assert data == {
        "schemaVersion": 1,
        "label": "SpecSnap",
        "message": "1/2 passed",
        "color": "yellow",
        "cacheSeconds": 300,
    }


def test_the_svg_is_self_contained_and_well_formed() -> None:
    svg = render_svg(Badge('Spec<Snap>" onload="x', "a & b", "red"))
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("aria-label") == 'Spec<Snap>" onload="x: a & b'
    assert root.get("onload") is None  # a quote cannot end the attribute it sits in
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert texts == ['Spec<Snap>" onload="x'] * 2 + ["a & b"] * 2
    assert "#e05d44" in svg
    assert (
        "href" not in svg
        and "<script" not in svg
        and "http" not in svg.replace("http://www.w3.org/2000/svg", "")
    )


def test_the_svg_grows_with_its_text() -> None:
    short = ET.fromstring(render_svg(Badge("SpecSnap", "1/1", "red")))
    long = ET.fromstring(render_svg(Badge("SpecSnap", "12/12 passed · net 100.0%", "red")))
    assert int(long.get("width", "0")) > int(short.get("width", "0"))
    assert text_width("mmm") > text_width("iii")
