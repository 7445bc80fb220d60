"""The review packet's Markdown: what the agent wrote is shown inertly, and the packet fits in a
pull-request comment however large the diff."""

from __future__ import annotations

from typing import Any

from specsnap.review.rubric import RUBRIC
from specsnap.reviewdesk.packet import MARKDOWN_BUDGET, render_packet
from tests.support.markdown import assert_inert
from tests.support.scorecards import HOSTILE_TEXT


def data(diff: str) -> dict[str, Any]:
    return {
        "scorecard_sha256": "a" * 64,
        "run": {
            "tier_id": "tier-1",
            "seed": 3,
            "agent": HOSTILE_TEXT,
            "stage": 1,
            "handoff": "fresh",
            "baseline_commit": "b" * 40,
            "head_commit": "c" * 40,
        },
        "diff": {"stat": HOSTILE_TEXT, "text": diff},
        "sessions": [
            {
                "session": 1,
                "cutoff": f"fired on source-edit ({HOSTILE_TEXT})",
                "tokens": 1200,
                "trajectory": {
                    "turns": 4,
                    "actions": {"read": 2, "edit": 1},
                    "test_runs": 1,
                    "longest_failing_streak": 0,
                    "tokens_before_first_edit": 300,
                    "rediscovered_files": 0,
                },
                "perturbations": [f"stale-note: {HOSTILE_TEXT}"],
                "risky_moves": [f"test-deleted at abc123: {HOSTILE_TEXT}"],
            },
            {
                "session": 2,
                "cutoff": "not armed",
                "tokens": 0,
                "trajectory": None,
                "perturbations": [],
                "risky_moves": [],
            },
        ],
        "rubric": [
            {"key": q.key, "name": q.name, "question": q.text, "scale": q.scale} for q in RUBRIC
        ],
    }


def test_what_the_agent_wrote_is_inert() -> None:
    diff = f"+++ b/x.py\n+{HOSTILE_TEXT}\n+````\n+```\n+</details> @someone\n"
    markdown = render_packet(data(diff))
    assert_inert(markdown, details=1)
    assert "+</details> @someone" in markdown  # shown, inside the fence
    assert "Session 1: cutoff" in markdown and "4 turns (edit 1, read 2), 1 test runs" in markdown
    assert "Would you accept this pull request?" in markdown


def test_a_large_diff_is_cut_to_fit_a_comment() -> None:
    diff = "+" + "x" * 99 + "\n"
    markdown = render_packet(data(diff * 2000))  # 202,000 characters
    assert len(markdown) <= MARKDOWN_BUDGET
    assert "The diff is cut at" in markdown and "of 202000 characters" in markdown
    assert_inert(markdown, details=1)
    assert "cut at" not in render_packet(data(diff))
