"""The curriculum ledger at leaderboard scale: how long checking, appending and building the page
take as the ledger grows. Each grows linearly: checking and appending (which checks the whole
ledger first) cost about 0.5 ms per entry; the page costs about 3 ms per entry, nearly all of it
the seeded bootstrap (2000 resamples for each of three means per group).

Entries are made from the sealed fixture scorecard (tests/support/ledgers.py) over 4 tiers, 25
agents and 50 seeds, none qualifying, and chained; then the file is read and its chain and rules
replayed (`specsnap ledger verify`), one more entry is appended through the file store, and the
page is built.

Usage: python benchmarks/ledger_scale.py [--entries 10000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from specsnap.leaderboard.page import render_page
from specsnap.ledger.entry import GENESIS, Entry, encode_entry, entry_digest
from specsnap.ledger.store import append_candidate, read_ledger
from tests.support.ledgers import candidate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    count = parser.parse_args().entries
    made = candidate(net=0.5, tes=0.5)
    entries: list[Entry] = []
    lines = []
    previous = GENESIS
    for i in range(count):
        c = replace(
            made,
            scorecard_sha256=f"{i:064x}",
            seed=i % 50,
            tier_id=f"tier-{1 + i % 4}",
            agent=f"agent-{i % 25}",
            net_retention=(i % 9) / 8,
        )
        entry = Entry(i, previous, "2025-01-01T00:00:00Z", c, False, False)
        line = encode_entry(entry)
        previous = entry_digest(line)
        entries.append(entry)
        lines.append(line)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ledger.jsonl"
        path.write_bytes(b"".join(line + b"\n" for line in lines))
        size = path.stat().st_size
        started = time.perf_counter()
        found = read_ledger(path)
        checked = time.perf_counter() - started
        assert found.intact, found.problems[:3]
        started = time.perf_counter()
        appended = append_candidate(path, candidate(seed=999_999, net=0.5, tes=0.5))
        append_s = time.perf_counter() - started
        assert appended.entry is not None
        started = time.perf_counter()
        page = render_page(found.ledger)
        page_s = time.perf_counter() - started
    print(f"ledger: {count} entries, {size / 1e6:.1f} MB")
    print(f"check (read, chain, rules):  {checked:.2f} s")
    print(f"append one entry:            {append_s:.2f} s")
    print(f"build the page:              {page_s:.2f} s ({len(page) / 1e6:.1f} MB of HTML)")


if __name__ == "__main__":
    main()
