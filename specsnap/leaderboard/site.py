"""`specsnap leaderboard LEDGER --out DIR`: the static site GitHub Pages serves.

DIR/index.html        the page (specsnap.leaderboard.page)
DIR/leaderboard.json  the same summaries for machines, with the curriculum's state
DIR/ledger.jsonl      a copy of the ledger, so anyone can check the chain and the entries
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from specsnap.leaderboard.page import render_page, result_of_entry
from specsnap.ledger.chain import Ledger, stage_for, unlocking_entry
from specsnap.ledger.store import load_ledger
from specsnap.scorecard.aggregate import summarize, summary_json


def build_site(ledger_path: Path, out: Path) -> Path:
    """Write the site for the ledger at `ledger_path` into `out`; the path of index.html.
    A broken ledger is refused (LedgerError): a page never shows what the rules would not."""
    ledger = load_ledger(ledger_path)
    out.mkdir(parents=True, exist_ok=True)
    _write(out / "index.html", render_page(ledger))
    _write(out / "leaderboard.json", json.dumps(site_data(ledger), indent=2) + "\n")
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


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
