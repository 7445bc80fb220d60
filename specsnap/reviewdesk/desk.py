"""Recording ratings on a run and saying where the review stands: what `specsnap review` and the
bot share. A rating is admitted by the rules (specsnap.review.rules) and appended to the run's
reviews section under a lock (the bot's workers may record two ratings at once); scorecard.json
is read, never written."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from specsnap.render.markup import code, text
from specsnap.review.rubric import BY_KEY
from specsnap.review.rules import Review, Submission
from specsnap.review.section import Section, append, read_section, write_section
from specsnap.review.signing import Signer
from specsnap.scorecard.io import load_scorecard, scorecard_document
from specsnap.scorecard.receipt import scorecard_digest

LOCK_FILE = ".reviews.lock"


def scorecard_sha256(run_dir: Path) -> str:
    """The digest of the run's scorecard, recomputed (the receipt's, when the card is intact)."""
    return scorecard_digest(scorecard_document(load_scorecard(run_dir / "scorecard.json")))


@contextmanager
def locked(run_dir: Path) -> Iterator[None]:
    with open(run_dir / LOCK_FILE, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def current(run_dir: Path) -> Section:
    return read_section(run_dir, scorecard_sha256(run_dir))


def record(
    run_dir: Path,
    submission: Submission,
    source: Mapping[str, Any],
    sign: Signer | None = None,
) -> Section:
    """Admit `submission` and write the section (its entry signed by `sign`, the bot's, when
    given); RuleError (nothing written) when refused."""
    with locked(run_dir):
        section = append(current(run_dir), submission, source, sign)
        write_section(run_dir, section)
    return section


def standing(review: Review) -> str:
    """Where the review stands, in Markdown, revealing no rating before two reviewers rated."""
    raters = review.raters
    if not review.revealed:
        who = f"{len(raters)} of 2 reviewers have rated" if raters else "No reviewer has rated"
        return f"{who}; ratings stay hidden until a second reviewer has rated."
    lines = [
        "| Question | Ratings | Reconciled | How |",
        "| --- | --- | --- | --- |",
    ]
    for q in review.questions:
        given = ", ".join(f"{code(who)} {s.score}" for who, s in q.ratings)
        if q.agreed is not None:
            given += f"; agreed {q.agreed[1].score} ({code(q.agreed[0])})"
        rating = "—" if q.rating is None else f"{q.rating:g}"
        how = q.method or ("needs a reconciliation" if q.status != "pending" else "pending")
        lines.append(f"| {q.key} {BY_KEY[q.key].name} | {given} | {rating} | {how} |")
    lines.append("")
    lines.append("Reasons:")
    for q in review.questions:
        lines += [f"- {q.key}: {text(reason)}" for reason in q.reasons]
    if review.disputed:
        keys = ", ".join(review.disputed)
        lines += [
            "",
            f"**Reconciliation needed** on {keys}: the two ratings are more than one point apart. "
            "Either reviewer gives an agreed rating (`/specsnap review agreed "
            f'{review.disputed[0]}=N "reason"`), or a third reviewer rates those questions; '
            "both reasons are kept.",
        ]
    elif review.complete:
        mean = review.reconciled_mean
        lines += ["", f"**Review complete**: reconciled mean {mean:.2f} of 5."]
    return "\n".join(lines)
