from __future__ import annotations

import pytest

from specsnap.scorecard.delta import Snapshot, compare, embed_snapshot, find_snapshots, snapshot_of
from tests.support.scorecards import fixture_card as card


def test_a_snapshot_survives_its_html_comment() -> None:
    current = card("tier-2-seed-7")
    text = "some summary\n\n" + embed_snapshot(snapshot_of(current)) + "\ntrailer"
    (found,) = find_snapshots(text, commit="abc")
    assert found == snapshot_of(current, commit="abc")


def test_a_double_dash_never_ends_the_comment_early() -> None:
    snap = Snapshot("tier--2/seed-1", 0.5, 0.5, None, False, (("A--1", True),))
    embedded = embed_snapshot(snap)
    assert "--" not in embedded.removeprefix("<!--").removesuffix("-->")
    assert find_snapshots(embedded) == [snap]


@pytest.mark.parametrize(
    "text",
    [
        None,
        "",
        "<!-- specsnap:snapshot {not json} -->",
        '<!-- specsnap:snapshot {"key": "x"} -->',
        '<!-- specsnap:snapshot {"key":"k","raw":"lots","net":0,"tes":null,"pass":1,"req":{}} -->',
    ],
)
def test_malformed_or_missing_snapshots_are_ignored(text) -> None:
    assert find_snapshots(text) == []


def test_delta_against_the_base_branch() -> None:
    current, base = card("tier-2-seed-7"), card("tier-2-seed-7-base")
    delta = compare(current, snapshot_of(base, "0a1b2c3"))
    assert delta is not None
    assert delta.raw_retention == pytest.approx(0.125)
    assert delta.net_retention == pytest.approx(-0.625)
    assert delta.newly_passed == ("SHIP-2",) and delta.newly_failed == ()
    assert not delta.pass_changed  # neither passed


def test_no_delta_without_a_base_or_for_another_cell() -> None:
    current = card("tier-2-seed-7")
    assert compare(current, None) is None
    assert compare(current, snapshot_of(card("tier-1-seed-3"))) is None


def test_tes_delta_is_unknown_when_either_side_is() -> None:
    t4 = card("tier-4-seed-1")
    base = snapshot_of(
        card("tier-4-seed-1", lambda d: d["scores"].update(tes=0.5, effective_tokens=1))
    )
    delta = compare(t4, base)
    assert delta is not None and delta.tes is None


def test_a_result_changes_with_the_verdict_a_requirement_or_a_retention_not_tes() -> None:
    current, base = card("tier-2-seed-7"), card("tier-2-seed-7-base")
    changed = compare(current, snapshot_of(base))
    same = compare(current, snapshot_of(current))
    assert changed is not None and changed.result_changed
    assert same is not None and not same.result_changed
    cheaper = card("tier-2-seed-7", lambda d: d["scores"].update(tes=0.5))
    tes_only = compare(cheaper, snapshot_of(current))
    assert tes_only is not None and tes_only.tes == 0.5 and not tes_only.result_changed
