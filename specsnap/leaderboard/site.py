"""`specsnap leaderboard LEDGER --out DIR`: the static site GitHub Pages serves.

DIR/index.html        the page (specsnap.leaderboard.page)
DIR/leaderboard.json  the same summaries for machines, with the curriculum's state
DIR/ledger.jsonl      a copy of the ledger, so anyone can check the chain and the entries

With `--signals SIGNALS`, every SIGNALS/**/scorecard.json (with the reviews.json beside it, if
any) that digests to a ledger entry's scorecard gives that entry's work signals and review
(specsnap.leaderboard.signals); a file that matches no entry, or cannot be read, is skipped.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from specsnap.errors import SpecSnapError
from specsnap.leaderboard.page import render_page, result_of_entry
from specsnap.leaderboard.signals import RunSignals, agreement, run_signals
from specsnap.ledger.chain import Ledger, stage_for, unlocking_entry
from specsnap.ledger.store import load_ledger
from specsnap.review.agreement import KAPPA_MIN_REVIEWS
from specsnap.review.section import REVIEWS_FILE, Section, load_section
from specsnap.scorecard.aggregate import summarize, summary_json
from specsnap.scorecard.io import load_scorecard, scorecard_document
from specsnap.scorecard.receipt import scorecard_digest


def build_site(ledger_path: Path, out: Path, signals_dir: Path | None = None) -> Path:
    """Write the site for the ledger at `ledger_path` into `out`; the path of index.html.
    A broken ledger is refused (LedgerError): a page never shows what the rules would not."""
    ledger = load_ledger(ledger_path)
    signals = load_signals(signals_dir, ledger) if signals_dir is not None else {}
    out.mkdir(parents=True, exist_ok=True)
    _write(out / "index.html", render_page(ledger, signals))
    data = site_data(ledger)
    if signals_dir is not None:
        kappa, reviews = agreement(signals)
        data["reviewers_agreement"] = {
            "kappa": None if kappa is None else round(kappa, 4),
            "weights": "quadratic",
            "reviews": reviews,
            "shown_from": KAPPA_MIN_REVIEWS,
        }
    _write(out / "leaderboard.json", json.dumps(data, indent=2) + "\n")
    if ledger_path.exists():
        shutil.copyfile(ledger_path, out / "ledger.jsonl")
    else:
        _write(out / "ledger.jsonl", "")
    return out / "index.html"


def site_data(ledger: Ledger) -> dict[str, Any]:
    unlocker = unlocking_entry(ledger.entries)
    return {
        "entries": len(ledger.entries),
        "head": ledger.head,
        "stage_required": stage_for(ledger.entries),
        "unlocked_by": None if unlocker is None else unlocker.index,
        "summaries": summary_json(summarize(result_of_entry(e) for e in ledger.entries)),
    }


def load_signals(directory: Path, ledger: Ledger) -> dict[str, RunSignals]:
    """The signals of the ledger's entries found under `directory`, by scorecard digest."""
    wanted = {e.candidate.scorecard_sha256 for e in ledger.entries}
    found: dict[str, RunSignals] = {}
    for path in sorted(directory.rglob("scorecard.json")):
        try:
            card = load_scorecard(path)
        except SpecSnapError:
            continue  # not a scorecard SpecSnap can read: not an entry's
        digest = scorecard_digest(scorecard_document(card))
        if digest not in wanted or digest in found:
            continue
        section: Section | None = None
        if (path.parent / REVIEWS_FILE).is_file():
            try:
                section = load_section(path.parent / REVIEWS_FILE)
            except SpecSnapError:
                section = None  # unreadable reviews are no reviews (verify says why)
        found[digest] = run_signals(card, section, digest)
    return found


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
