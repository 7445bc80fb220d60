from __future__ import annotations

from specsnap.publish.policy import FailOn, conclusion
from specsnap.render.checks import annotations_for, check_name, render_check_run
from specsnap.render.comment import RenderContext
from specsnap.render.limits import (
    ANNOTATIONS_MAX,
    CHECK_SUMMARY_MAX,
    CHECK_TEXT_MAX,
    github_length,
)
from specsnap.scorecard.delta import find_snapshots, snapshot_of
from tests.support.scorecards import fixture_card, many_violations

NAME = "SpecSnap (tier-2, seed 7)"


def test_one_check_run_per_cell() -> None:
    assert check_name("SpecSnap", fixture_card("tier-2-seed-7").label) == NAME


def test_findings_become_annotations_at_file_and_line() -> None:
    found = annotations_for(fixture_card("tier-2-seed-7"))
    as_api = [a.as_api() for a in found]
    assert as_api[4] == {
        "path": "shipping/rates.py",
        "start_line": 42,
        "end_line": 42,
        "annotation_level": "failure",
        "title": "Module boundary violated: shipping.rates → orders.ledger",
        "message": "module boundary: shipping.rates imports orders.ledger at shipping/rates.py:42 "
        "(dynamic): orders.ledger is private to orders",
    }
    protected = [a for a in found if a.title.startswith("Protected file")]
    assert [(a.path, a.line, a.level) for a in protected] == [
        ("tests/test_shipping.py", 1, "failure"),
        ("wiring.yaml", 1, "failure"),
    ]
    baseline = [a for a in found if a.title.startswith("Baseline")]
    assert [a.path for a in baseline] == ["tests/test_orders.py"]
    lost = [a for a in found if a.level == "warning"]
    assert [(a.path, a.title) for a in lost] == [
        ("shipping/__init__.py", "Requirement SHIP-3 not retained"),
        ("orders/__init__.py", "Requirement ORD-2 not retained"),
    ]
    assert "test_shipping.py::test_ship_3_edge: error" in lost[0].message


def test_a_breach_in_a_session_is_summarised_not_annotated() -> None:
    def breach(document) -> None:  # type: ignore[no-untyped-def]
        document["gate"]["protocol_breaches"] = [
            {"session": 1, "what": "commit 0123456789ab landed while armed"},
            {"session": None, "what": "product code imports pytest", "file": "a/b.py", "line": 3},
        ]
        document["gate"].update(protocol_ok=False, holds=False)

    card = fixture_card("tier-1-seed-3", breach)
    assert [(a.path, a.line, a.title) for a in annotations_for(card)] == [
        ("a/b.py", 3, "Protocol breach")
    ]
    summary = render_check_run(card, None, RenderContext(), NAME, "failure").summary
    assert "protocol breach in session 1: commit 0123456789ab landed while armed" in summary


def test_a_clean_pass_has_no_annotations() -> None:
    assert annotations_for(fixture_card("tier-1-seed-3")) == []


def test_conclusion_follows_the_fail_on_policy() -> None:
    broken, passed, weak = (
        fixture_card("tier-2-seed-7"),
        fixture_card("tier-1-seed-3"),
        fixture_card("tier-4-seed-1"),
    )
    assert conclusion(passed, FailOn.NOT_PASSED) == "success"
    assert conclusion(broken, FailOn.NOT_PASSED) == "failure"
    assert conclusion(weak, FailOn.GATE) == "neutral"  # not passed, but the gate holds
    assert conclusion(broken, FailOn.GATE) == "failure"
    assert conclusion(broken, FailOn.NEVER) == "neutral"


def test_the_summary_carries_the_snapshot_for_later_deltas() -> None:
    card = fixture_card("tier-2-seed-7")
    out = render_check_run(card, None, RenderContext(), NAME, "failure")
    assert find_snapshots(out.summary) == [snapshot_of(card)]
    assert out.title.startswith("Not passed (regression gate broken): net 0.0%")
    assert (out.name, out.conclusion) == (NAME, "failure")


def test_output_limits_are_respected_with_visible_notes() -> None:
    def long_titles(document) -> None:  # type: ignore[no-untyped-def]
        many_violations(ANNOTATIONS_MAX + 120)(document)
        for r in document["requirements"]:
            r["title"] = "x" * 3000

    card = fixture_card("tier-2-seed-7", long_titles)
    out = render_check_run(card, None, RenderContext(), NAME, "failure")
    assert len(out.annotations) == ANNOTATIONS_MAX
    assert out.omitted_annotations == 120 + 3 + 2  # the other gate findings and lost requirements
    assert f"{out.omitted_annotations} of" in out.summary
    assert github_length(out.summary) <= CHECK_SUMMARY_MAX
    assert find_snapshots(out.summary) == [snapshot_of(card)]  # the snapshot survives truncation
    huge = fixture_card(
        "tier-2-seed-7", lambda d: [r.update(title="y" * 20_000) for r in d["requirements"]]
    )
    text = render_check_run(huge, None, RenderContext(), NAME, "failure").text
    assert github_length(text) <= CHECK_TEXT_MAX and "Truncated" in text
