"""Scores carried from one evaluation to the next, and the delta against the base branch.

Where the base branch's last scores come from (documented in docs/action.md): every check run
SpecSnap creates embeds a snapshot of its scores in an HTML comment in its `output.summary`
(invisible when GitHub renders it). To compare a pull request with its base branch, the publisher
reads the check runs of the base branch's most recent commits through the Checks API and takes the
newest snapshot for the same tier and seed. No artifact download and no extra storage is needed;
the base branch only has to be evaluated too (e.g. the workflow also runs on `push`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from specsnap.scorecard.model import Scorecard

_MARKER = re.compile(r"<!-- specsnap:snapshot (\{.*?\}) -->")


@dataclass(frozen=True)
class Snapshot:
    """The scores of one (tier, seed) cell at one commit."""

    key: str
    raw_retention: float
    net_retention: float
    tes: float | None
    passed: bool
    requirements: tuple[tuple[str, bool], ...]
    commit: str = ""


@dataclass(frozen=True)
class Delta:
    """What changed from `base` to the current scorecard (fractions, so +0.125 is +12.5 points)."""

    base: Snapshot
    raw_retention: float
    net_retention: float
    tes: float | None
    newly_passed: tuple[str, ...]
    newly_failed: tuple[str, ...]
    pass_changed: bool

    @property
    def result_changed(self) -> bool:
        """Whether the result moved: the verdict, a requirement, or a retention score. TES alone
        does not count: it moves with every token an agent spends."""
        moved = round(self.net_retention, 6) != 0 or round(self.raw_retention, 6) != 0
        return self.pass_changed or bool(self.newly_passed or self.newly_failed) or moved


def snapshot_of(card: Scorecard, commit: str = "") -> Snapshot:
    """The snapshot that a check run for `card` carries."""
    return Snapshot(
        key=card.key,
        raw_retention=card.scores.raw_retention,
        net_retention=card.scores.net_retention,
        tes=card.scores.tes,
        passed=card.passed,
        requirements=tuple(sorted((r.id, r.passed) for r in card.requirements)),
        commit=commit,
    )


def embed_snapshot(snapshot: Snapshot) -> str:
    """An HTML comment carrying `snapshot`; `--` never appears inside it (HTML would end there)."""
    body = {
        "key": snapshot.key,
        "raw": snapshot.raw_retention,
        "net": snapshot.net_retention,
        "tes": snapshot.tes,
        "pass": snapshot.passed,
        "req": {rid: ok for rid, ok in snapshot.requirements},
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":")).replace("--", "-\\u002d")
    return f"<!-- specsnap:snapshot {text} -->"


def find_snapshots(text: str | None, commit: str = "") -> list[Snapshot]:
    """Every well-formed snapshot embedded in `text`; malformed ones are ignored, not fatal."""
    found: list[Snapshot] = []
    for match in _MARKER.finditer(text or ""):
        try:
            body = json.loads(match.group(1))
            found.append(
                Snapshot(
                    key=str(body["key"]),
                    raw_retention=float(body["raw"]),
                    net_retention=float(body["net"]),
                    tes=None if body["tes"] is None else float(body["tes"]),
                    passed=bool(body["pass"]),
                    requirements=tuple(sorted((str(k), bool(v)) for k, v in body["req"].items())),
                    commit=commit,
                )
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    return found


def compare(card: Scorecard, base: Snapshot | None) -> Delta | None:
    """The delta of `card` against `base`; None without a base or for another cell."""
    if base is None or base.key != card.key:
        return None
    before = dict(base.requirements)
    now = {r.id: r.passed for r in card.requirements}
    tes = None
    if card.scores.tes is not None and base.tes is not None:
        tes = card.scores.tes - base.tes
    return Delta(
        base=base,
        raw_retention=card.scores.raw_retention - base.raw_retention,
        net_retention=card.scores.net_retention - base.net_retention,
        tes=tes,
        newly_passed=tuple(rid for rid, ok in now.items() if ok and not before.get(rid, False)),
        newly_failed=tuple(rid for rid, ok in now.items() if not ok and before.get(rid, False)),
        pass_changed=card.passed != base.passed,
    )
