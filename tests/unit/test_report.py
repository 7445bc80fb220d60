"""Scorecard rendering against golden files. Regenerate with:

SPECSNAP_REGENERATE=1 .venv/bin/pytest tests/unit/test_report.py
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from specsnap.report import gate_reasons, render_markdown, render_summary

GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "golden"


def sample_card() -> dict:  # type: ignore[type-arg]
    card: dict = json.loads((GOLDEN / "scorecard.json").read_text())  # type: ignore[type-arg]
    return card


def failing_card() -> dict:  # type: ignore[type-arg]
    card = copy.deepcopy(sample_card())
    card["requirements"][0]["passed"] = False
    card["requirements"][0]["tests"][0]["outcome"] = "failed"
    card["gate"].update(
        holds=False,
        wiring_ok=False,
        wiring_violations=[
            {
                "importer": "shipping.plan",
                "imported": "inventory.stock",
                "file": "shipping/plan.py",
                "line": 7,
                "rule": "shipping may import only catalog, orders",
                "kind": "static",
            }
        ],
    )
    card["scores"].update(net_retention=0.0, tes=0.0, **{"pass": False})
    card["official"] = False
    card["unofficial_reasons"] = ["time limit 60s instead of 1800s"]
    return card


@pytest.mark.parametrize(("name", "card"), [("pass", sample_card), ("fail", failing_card)])
def test_markdown_matches_golden(name: str, card) -> None:  # type: ignore[no-untyped-def]
    rendered = render_markdown(card()) + "\n---\n" + render_summary(card()) + "\n"
    golden = GOLDEN / f"scorecard-{name}.md"
    if os.environ.get("SPECSNAP_REGENERATE"):
        golden.write_text(rendered)
    assert rendered == golden.read_text()


def test_gate_reasons_name_each_failure() -> None:
    reasons = gate_reasons(failing_card()["gate"])
    assert reasons == [
        "boundary: `shipping.plan` imports `inventory.stock` (shipping/plan.py:7, static): "
        "shipping may import only catalog, orders"
    ]
