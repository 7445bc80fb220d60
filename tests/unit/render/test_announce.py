"""The "evaluating…" status of the sticky comment (pure)."""

from __future__ import annotations

from specsnap.render.announce import render_evaluating

MARKER = "<!-- specsnap:comment:default -->"


def test_a_new_comment_says_the_scores_will_come() -> None:
    body = render_evaluating(None, MARKER, "ab" * 20, "https://run")
    assert body.startswith(MARKER + "\n")
    assert (
        "evaluating `abababababab`…** The scores will be here. [The workflow run](https://run)"
        in body
    )


def test_a_status_is_replaced_never_stacked_and_the_scores_stay_below() -> None:
    scores = f"{MARKER}\n### SpecSnap\n| tier-2, seed 7 |\n"
    once = render_evaluating(scores, MARKER, "1" * 40, None)
    twice = render_evaluating(once, MARKER, "2" * 40, None)
    assert twice.count("is evaluating") == 1 and "`222222222222`" in twice
    assert twice.startswith(MARKER + "\n") and twice.endswith("### SpecSnap\n| tier-2, seed 7 |\n")


def test_only_a_commit_id_is_shown_as_one() -> None:
    body = render_evaluating(None, MARKER, "<img src=x>`@x", None)
    assert "evaluating this commit…" in body and "<img" not in body and "@x" not in body
