"""The leaderboard page from 20 scorecards over 5 seeds, read in a real headless browser.

Twenty sealed scorecards (two tiers × two agents × seeds 1–5, one agent named to inject HTML)
go into a ledger in order; the twentieth is the first to qualify, so it unlocks Stage II.
`specsnap leaderboard` builds the site, and Debian's Chromium, driven by Playwright
(tests/support/page_probe.cjs), opens it: every table cell is checked against figures computed
here, the plots must be there with a mark per run, and nothing may log an error, raise, load
anything but the page itself or run a script.

Needs node, Chromium at /usr/bin/chromium and playwright-core in .cache/playwright
(`.ci/run` installs them); without them the test is skipped, saying which is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
from pathlib import Path
from typing import Any

import pytest

from specsnap.ledger.chain import Outcome
from specsnap.ledger.store import append_candidate
from specsnap.render.summary import interval_text
from specsnap.render.words import percent
from specsnap.scorecard.aggregate import estimate
from tests.functional.cli import specsnap
from tests.support.ledgers import attestation, candidate

ROOT = Path(__file__).resolve().parents[2]
PLAYWRIGHT = ROOT / ".cache" / "playwright" / "node_modules"
CHROMIUM = Path(os.environ.get("SPECSNAP_CHROMIUM", "/usr/bin/chromium"))
PROBE = ROOT / "tests" / "support" / "page_probe.cjs"
HOSTILE = "<img src=x onerror=alert(1)>"


def missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not installed"
    if not CHROMIUM.exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)"
    if not (PLAYWRIGHT / "playwright-core").is_dir():
        return f"playwright-core is not in {PLAYWRIGHT} (scripts/test.sh installs it with npm)"
    return None


pytestmark = [pytest.mark.slow, pytest.mark.skipif(missing() is not None, reason=str(missing()))]

#: (tier, agent, options): per seed 1..5, (net retention, TES).
RUNS: dict[tuple[str, str, tuple[tuple[str, str], ...]], list[tuple[float, float | None]]] = {
    ("tier-1", "notetaker", ()): [(1.0, 0.7), (1.0, 0.6), (0.875, 0.5), (1.0, 0.7), (0.75, 0.74)],
    ("tier-1", "codex", (("model", "o4-mini"),)): [
        (0.5, 0.4), (0.625, 0.5), (0.75, 0.6), (0.375, 0.3), (0.5, 0.4),
    ],
    ("tier-2", "notetaker", ()): [(1.0, 0.6), (0.875, 0.6), (1.0, None), (1.0, 0.7), (1.0, 0.9)],
    ("tier-2", HOSTILE, ()): [(0.0, 0.0), (0.25, 0.2), (0.125, 0.1), (0.0, 0.0), (0.375, 0.3)],
}  # fmt: skip
ATTESTED = {("tier-1", "notetaker"): {1, 2}}


def label(agent: str, options: tuple[tuple[str, str], ...]) -> str:
    return agent + (f" ({', '.join(f'{k}={v}' for k, v in options)})" if options else "")


@pytest.fixture(scope="module")
def seen(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("leaderboard")
    ledger = base / "ledger.jsonl"
    order = [(key, seed) for seed in range(1, 6) for key in RUNS]
    order.remove((("tier-2", "notetaker", ()), 5))  # the one that qualifies goes last
    order.append((("tier-2", "notetaker", ()), 5))
    for (tier, agent, options), seed in order:
        net, tes = RUNS[(tier, agent, options)][seed - 1]
        signed = seed in ATTESTED.get((tier, agent), set())
        made = candidate(
            tier=tier, seed=seed, agent=agent, options=dict(options), net=net, tes=tes,
            attestation=attestation() if signed else None,
        )  # fmt: skip
        assert append_candidate(ledger, made).outcome is Outcome.APPENDED
    built = specsnap("leaderboard", str(ledger), "--out", str(base / "site"))
    assert built.returncode == 0, built.stderr
    probe = subprocess.run(
        ["node", str(PROBE), (base / "site" / "index.html").as_uri()],
        env={**os.environ, "NODE_PATH": str(PLAYWRIGHT), "CHROMIUM": str(CHROMIUM)},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert probe.returncode == 0, probe.stderr
    result: dict[str, Any] = json.loads(probe.stdout)
    result["url"] = (base / "site" / "index.html").as_uri()
    return result


def expected_row(tier: str, agent: str, options: tuple[tuple[str, str], ...]) -> dict[str, str]:
    runs = RUNS[(tier, agent, options)]
    nets = [net for net, _ in runs]
    known = [tes for _, tes in runs if tes is not None]
    tes = percent(statistics.fmean(known)) + ("" if len(known) == 5 else f" ({len(known)} of 5)")
    return {
        "agent": label(agent, options),
        "runs": "5",
        "seeds": "1, 2, 3, 4, 5",
        "net": percent(sum(nets) / 5),
        "net-ci": interval_text(estimate(nets)).replace(" – ", "–"),
        "tes": tes,
        "tes-ci": interval_text(estimate(known)).replace(" – ", "–"),
        "raw": percent(sum(nets) / 5),
        "pass": f"{sum(net >= 0.75 for net in nets)}/5",
        "attested": f"{len(ATTESTED.get((tier, agent), ()))}/5",
    }


def test_the_tables_show_every_figure_over_the_five_seeds(seen: dict[str, Any]) -> None:
    tables = {(t["stage"], t["tier"]): t["rows"] for t in seen["tables"]}
    assert list(tables) == [("1", "tier-1"), ("1", "tier-2")]
    for tier, agent, options in RUNS:
        (row,) = [r for r in tables[("1", tier)] if r["agent"] == label(agent, options)]
        shown = {cell: text for cell, text in row.items() if cell != "rank"}
        assert shown == expected_row(tier, agent, options), (tier, agent)
    assert [r["agent"] for r in tables[("1", "tier-1")]] == ["notetaker", "codex (model=o4-mini)"]
    assert [r["rank"] for r in tables[("1", "tier-2")]] == ["1", "2"]
    assert tables[("1", "tier-2")][0]["tes"] == "70.0% (4 of 5)"


def test_the_intervals_hold_their_means(seen: dict[str, Any]) -> None:
    for table in seen["tables"]:
        for row in table["rows"]:
            low, high = (float(x.rstrip("%")) for x in row["net-ci"].split("–"))
            assert low <= float(row["net"].rstrip("%")) <= high


def test_a_plot_per_tier_with_a_mark_per_run_mean_and_interval(seen: dict[str, Any]) -> None:
    assert [p["label"] for p in seen["plots"]] == [
        "tier-1, Stage I: net retention per run, mean and 95% CI",
        "tier-2, Stage I: net retention per run, mean and 95% CI",
    ]
    for plot in seen["plots"]:
        assert (plot["rows"], plot["runs"], plot["means"], plot["intervals"]) == (2, 10, 2, 2)
        assert plot["width"] > 0 and plot["height"] > 0


def test_the_twentieth_scorecard_unlocked_stage_ii(seen: dict[str, Any]) -> None:
    assert seen["entries"] == 20
    assert seen["curriculum"].startswith(
        "Stage II (adversarial state perturbation) is unlocked, by entry #19: tier-2, seed 5, "
        "notetaker, TES 90.0%"
    )
    assert seen["head"].startswith("20 verified scorecard(s) · ledger head ")


def test_nothing_errs_loads_or_runs_but_the_page(seen: dict[str, Any]) -> None:
    assert seen["status"] in (0, 200)
    assert [m for m in seen["console"] if m["type"] in ("error", "warning")] == []
    assert seen["errors"] == []
    assert seen["requests"] == [seen["url"]]
    assert seen["scripts"] == 0
    assert seen["title"] == "SpecSnap leaderboard"
