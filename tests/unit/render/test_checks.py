from __future__ import annotations

from specsnap.publish.checks import annotations_for, check_name, conclusion, render_check_run
from specsnap.publish.comment import RenderContext
from specsnap.publish.limits import (
    ANNOTATIONS_MAX,
    CHECK_SUMMARY_MAX,
    CHECK_TEXT_MAX,
    github_length,
)
from specsnap.publish.policy import FailOn
from specsnap.publish.snapshot import find_snapshots, snapshot_of
from tests.support.scorecards import fixture_card, many_violations


def test_one_check_run_per_cell() -> None:
    assert check_name("SpecSnap", fixture_card("tier-2-seed-7")) == "SpecSnap (tier-2, seed 7)"


def test_findings_become_annotations_at_file_and_line() -> None:
    found = annotations_for(fixture_card("tier-2-seed-7"))
    as_api = [a.as_api() for a in found]
    assert as_api[1] == {
        "path": "shipping/rates.py",
        "start_line": 42,
        "end_line": 42,
        "annotation_level": "failure",
        "title": "Module boundary violated: shipping.rates → orders.ledger",
        "message": "shipping.rates imports orders.ledger (dynamic), which wiring.yaml forbids: "
        "orders.ledger is private to orders.",
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
    out = render_check_run(card, None, "report", RenderContext(), "SpecSnap", FailOn.NOT_PASSED)
    assert find_snapshots(out.summary) == [snapshot_of(card)]
    assert out.title.startswith("Not passed (regression gate broken): net 0.0%")


def test_output_limits_are_respected_with_visible_notes() -> None:
    card = fixture_card("tier-2-seed-7", many_violations(ANNOTATIONS_MAX + 120))
    report = "\n".join("| row | " + "x" * 200 + " |" for _ in range(2000))
    out = render_check_run(card, None, report, RenderContext(), "SpecSnap", FailOn.NOT_PASSED)
    assert len(out.annotations) == ANNOTATIONS_MAX
    assert out.omitted_annotations == 120 + 3 + 2  # the other gate findings and lost requirements
    assert f"{out.omitted_annotations} of" in out.summary
    assert github_length(out.summary) <= CHECK_SUMMARY_MAX
    assert github_length(out.text) <= CHECK_TEXT_MAX and "Truncated" in out.text
    assert find_snapshots(out.summary) == [snapshot_of(card)]  # the snapshot survives truncation
