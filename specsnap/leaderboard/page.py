"""The leaderboard page: one self-contained HTML document from the ledger (pure).

Per stage and tier, a plot and a table of every agent over its seeds (mean and confidence
interval of net retention and TES, raw retention, PASS rate, how many runs were attested), the
curriculum's state, and every entry of the ledger. Given the runs' signals
(specsnap.leaderboard.signals), each table also shows how the work went (turns, risky moves, the
reconciled review) and each tier a plot of tokens per session; the reviewers' agreement is shown
once KAPPA_MIN_REVIEWS reviews exist. No script, no external style, font or image:
a Content-Security-Policy says so to the browser too. Everything that comes from a submission
(agent names and options, tier ids) is escaped. The same ledger gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from specsnap import __version__
from specsnap.leaderboard.plot import LEGEND, tier_plot, tokens_plot
from specsnap.leaderboard.signals import RunSignals, agreement, mean_of
from specsnap.ledger.chain import UNLOCK_TES, Ledger, unlocking_entry
from specsnap.ledger.entry import Entry
from specsnap.render.summary import NO_VALUE, interval_text, mean_text, stage_name
from specsnap.render.words import percent, tes_text
from specsnap.review.agreement import KAPPA_MIN_REVIEWS
from specsnap.scorecard.aggregate import Estimate, Result, Summary, agent_label, summarize
from specsnap.scorecard.spread import CONFIDENCE

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; color: #24292f; margin: 0 auto; max-width: 1100px;
       padding: 0 16px 48px; }
h1 { margin: 24px 0 4px; } h2 { margin-top: 36px; border-bottom: 1px solid #d0d7de; }
table { border-collapse: collapse; margin: 8px 0 16px; width: 100%; }
th, td { border-bottom: 1px solid #d8dee4; padding: 4px 8px; text-align: right; }
td { white-space: nowrap; } td.agent { white-space: normal; overflow-wrap: anywhere; }
th { background: #f6f8fa; } td.agent, th.agent, td.left { text-align: left; }
code { font-size: 12px; } .muted { color: #57606a; } .locked { color: #9a6700; }
.unlocked { color: #1a7f37; } figure { margin: 0; overflow-x: auto; }
"""


def result_of_entry(entry: Entry) -> Result:
    c = entry.candidate
    return Result(
        tier_id=c.tier_id,
        agent=agent_label(c.agent, c.agent_options),
        stage=c.stage,
        seed=c.seed,
        raw_retention=c.raw_retention,
        net_retention=c.net_retention,
        tes=c.tes,
        passed=c.passed,
        retained_without_recovery=c.retained_without_recovery,
        handoff=c.handoff_mode,
    )


def rank_key(s: Summary) -> tuple[float, float, float, str]:
    """Best first: Stage II by retention without recovery, then net retention; Stage I by net
    retention; then TES, then the agent's name."""
    kept = (s.retained_without_recovery.mean or 0.0) if s.stage == 2 else 0.0
    return (-kept, -(s.net_retention.mean or 0.0), -(s.tes.mean or -1.0), s.agent)


def render_page(ledger: Ledger, signals: Mapping[str, RunSignals] | None = None) -> str:
    """The page for `ledger` (an intact one: the caller has checked it); `signals` by the
    scorecard digest of the entries they belong to."""
    signals = signals or {}
    results = [result_of_entry(e) for e in ledger.entries]
    summaries = summarize(results)
    sections = []
    for stage in sorted({s.stage for s in summaries}):
        tracks = [(s.tier_id, s.handoff) for s in summaries if s.stage == stage]
        blocks = [
            _tier_block(stage, tier, handoff, ledger.entries, results, summaries, signals)
            for tier, handoff in dict.fromkeys(tracks)
        ]
        sections.append(
            f'<section id="stage-{stage}"><h2>Stage {stage_name(stage)}</h2>\n'
            + "\n".join(blocks)
            + "</section>"
        )
    body = "\n".join(
        [
            "<header><h1>SpecSnap leaderboard</h1>",
            _curriculum(ledger),
            f'<p class="muted" id="ledger-head">{len(ledger.entries)} verified scorecard(s) · '
            f"ledger head <code>{ledger.head}</code> · built by SpecSnap {escape(__version__)} "
            'from <a href="ledger.jsonl">ledger.jsonl</a></p></header>',
            "<main>",
            *(sections or ['<p id="empty">No verified scorecard yet.</p>']),
            *([_agreement(signals)] if signals else []),
            _entries(ledger.entries),
            _method(),
            "</main>",
        ]
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<title>SpecSnap leaderboard</title>\n"
        f"<style>{STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def _curriculum(ledger: Ledger) -> str:
    unlocker = unlocking_entry(ledger.entries)
    if unlocker is None:
        return (
            '<p id="curriculum" class="locked">Stage II (adversarial state perturbation) is '
            f"<strong>locked</strong>: it unlocks when a verified scorecard has PASS and TES ≥ "
            f"{percent(UNLOCK_TES)}. Evaluations run Stage I.</p>"
        )
    c = unlocker.candidate
    return (
        '<p id="curriculum" class="unlocked">Stage II (adversarial state perturbation) is '
        f"<strong>unlocked</strong>, by entry #{unlocker.index}: {escape(c.tier_id)}, seed "
        f"{c.seed}, {escape(agent_label(c.agent, c.agent_options))}, TES {tes_text(c.tes)}, "
        f"recorded {escape(unlocker.recorded_at)} (scorecard <code>{c.scorecard_sha256}</code>). "
        "Every evaluation since runs Stage II.</p>"
    )


def _tier_block(
    stage: int,
    tier: str,
    handoff: str,
    entries: Sequence[Entry],
    results: Sequence[Result],
    summaries: Sequence[Summary],
    signals: Mapping[str, RunSignals],
) -> str:
    """One tier's plot and table in one stage and handoff mode: modes are never ranked together."""
    cell = (stage, tier, handoff)
    rows = sorted((s for s in summaries if (s.stage, s.tier_id, s.handoff) == cell), key=rank_key)
    runs = {
        s.agent: [
            r for r in results if (r.stage, r.tier_id, r.handoff, r.agent) == (*cell, s.agent)
        ]
        for s in rows
    }
    attested = {
        s.agent: sum(
            e.attested
            for e, r in zip(entries, results, strict=True)
            if (r.stage, r.tier_id, r.handoff, r.agent) == (*cell, s.agent)
        )
        for s in rows
    }
    mine = {
        s.agent: [
            signals[e.candidate.scorecard_sha256]
            for e, r in zip(entries, results, strict=True)
            if (r.stage, r.tier_id, r.handoff, r.agent) == (*cell, s.agent)
            and e.candidate.scorecard_sha256 in signals
        ]
        for s in rows
    }
    shown = bool(signals)
    mode = f" ({handoff} handoff)" if handoff != "fresh" else ""
    title = (
        f"{tier}, Stage {stage_name(stage)}{mode}: net retention per run, mean and "
        f"{CONFIDENCE:.0%} CI"
    )
    anchor = f"stage-{stage}-{escape(tier)}" + (f"-{handoff}" if handoff != "fresh" else "")
    table_rows = "\n".join(
        _row(rank, s, attested[s.agent], stage == 2, mine[s.agent] if shown else None)
        for rank, s in enumerate(rows, 1)
    )
    kept = "<th>Retained without recovery</th>" if stage == 2 else ""
    work = "<th>Turns</th><th>Risky moves</th><th>Review</th>" if shown else ""
    return (
        f'<h3 id="{anchor}">{escape(tier)}{mode}</h3>\n'
        f"<figure>{tier_plot(title, rows, runs)}"
        f'<figcaption class="muted">{LEGEND}</figcaption></figure>\n'
        f'<table class="results" data-stage="{stage}" data-tier="{escape(tier)}">\n'
        '<thead><tr><th>#</th><th class="agent">Agent</th><th>Runs</th><th>Seeds</th>'
        f"{kept}<th>Net retention</th><th>{CONFIDENCE:.0%} CI</th><th>TES</th>"
        f"<th>{CONFIDENCE:.0%} CI</th><th>Raw retention</th><th>PASS</th><th>Attested</th>"
        f"{work}</tr></thead>\n<tbody>\n{table_rows}\n</tbody></table>"
        + (_tokens_figure(f"{tier}, Stage {stage_name(stage)}{mode}", rows, mine) if shown else "")
    )


def _row(
    rank: int, s: Summary, attested: int, kept: bool, signals: Sequence[RunSignals] | None
) -> str:
    seeds = ", ".join(str(seed) for seed in s.seeds)
    cells = [
        ("rank", str(rank)),
        ("agent", escape(s.agent)),
        ("runs", str(s.runs)),
        ("seeds", seeds),
        *([("kept", mean_text(s.retained_without_recovery))] if kept else []),
        ("net", mean_text(s.net_retention)),
        ("net-ci", _interval(s.net_retention)),
        ("tes", _tes(s)),
        ("tes-ci", _interval(s.tes)),
        ("raw", mean_text(s.raw_retention)),
        ("pass", f"{s.passed}/{s.runs}"),
        ("attested", f"{attested}/{s.runs}"),
        *(_work_cells(signals, s.runs) if signals is not None else []),
    ]
    tds = "".join(f'<td class="{name}">{value}</td>' for name, value in cells)
    return f'<tr data-agent="{escape(s.agent)}">{tds}</tr>'


def _work_cells(signals: Sequence[RunSignals], runs: int) -> list[tuple[str, str]]:
    """Turns and risky moves (means over the runs whose scorecard has them) and the reconciled
    review (mean over the runs with a complete review); each says over how many when not all."""

    def shown(mean: float | None, count: int, places: int, of: int) -> str:
        if mean is None:
            return NO_VALUE
        return f"{mean:.{places}f}" + ("" if count == of else f" ({count} of {of})")

    turns = mean_of(x.turns for x in signals)
    risky = mean_of(None if x.risky_moves is None else float(x.risky_moves) for x in signals)
    reviews = mean_of(x.review.reconciled_mean for x in signals if x.review is not None)
    return [
        ("turns", shown(*turns, 0, runs)),
        ("risky", shown(*risky, 1, runs)),
        ("review", shown(*reviews, 2, runs)),
    ]


def _tokens_figure(
    title: str, rows: Sequence[Summary], signals: Mapping[str, Sequence[RunSignals]]
) -> str:
    series = []
    for s in rows:
        longest = max((len(x.session_tokens) for x in signals[s.agent]), default=0)
        means = [
            mean_of(
                x.session_tokens[i] if i < len(x.session_tokens) else None for x in signals[s.agent]
            )[0]
            for i in range(longest)
        ]
        if any(m is not None for m in means):
            series.append((s.agent, means))
    if not series:
        return ""
    title = f"{title}: mean effective tokens per session"
    return (
        f'\n<figure class="tokens">{tokens_plot(title, series)}<figcaption class="muted">'
        f"{escape(title)} (input + output + cache write + 0.1 × cache read)</figcaption></figure>"
    )


def _agreement(signals: Mapping[str, RunSignals]) -> str:
    kappa, reviews = agreement(signals)
    if kappa is None and reviews >= KAPPA_MIN_REVIEWS:
        said = f"undefined over {reviews} reviews (every rating fell in one category)"
    elif kappa is None:
        said = (
            f"shown from {KAPPA_MIN_REVIEWS} reviews with two independent reviewers on; "
            f"{reviews} so far"
        )
    else:
        said = f"<strong>{kappa:.2f}</strong> over {reviews} reviews"
    return (
        "<p id=\"agreement\">Reviewers' agreement (Cohen's kappa, quadratic weights, over the "
        f"first two reviewers' ratings of each rubric question): {said}.</p>"
    )


def _interval(value: Estimate) -> str:
    return interval_text(value).replace(" – ", "–")


def _tes(s: Summary) -> str:
    text = mean_text(s.tes)
    if text != NO_VALUE and s.tes.count < s.runs:
        text += f" ({s.tes.count} of {s.runs})"
    return text


def _entries(entries: Sequence[Entry]) -> str:
    rows = []
    for e in entries:
        c = e.candidate
        marks = " · unlocked Stage II" if e.unlocks_stage_2 else ""
        kept = c.retained_without_recovery
        net = percent(c.net_retention) + ("" if kept is None else f" (kept {percent(kept)})")
        rows.append(
            f'<tr data-index="{e.index}"><td>{e.index}</td>'
            f'<td class="left">{escape(e.recorded_at)}</td>'
            f'<td class="left">{escape(c.tier_id)}</td><td>{c.seed}</td>'
            f'<td class="agent">{escape(agent_label(c.agent, c.agent_options))}</td>'
            f"<td>{stage_name(c.stage)}</td><td>{net}</td>"
            f"<td>{tes_text(c.tes)}</td><td>{'yes' if c.passed else 'no'}</td>"
            f"<td>{'yes' if e.attested else 'no'}</td>"
            f'<td class="left"><code>{c.scorecard_sha256[:16]}</code>{marks}</td></tr>'
        )
    return (
        '<h2 id="entries-heading">Ledger</h2>\n<table id="entries">\n<thead><tr><th>#</th>'
        '<th class="agent">Recorded (UTC)</th><th class="agent">Tier</th><th>Seed</th>'
        '<th class="agent">Agent</th><th>Stage</th><th>Net</th><th>TES</th><th>PASS</th>'
        '<th>Attested</th><th class="agent">Scorecard</th></tr></thead>\n<tbody>\n'
        + "\n".join(rows)
        + "\n</tbody></table>"
    )


def _method() -> str:
    return (
        '<h2 id="method">How to read this</h2>\n<p>Every entry is a scorecard that was verified '
        "before it was recorded: its run's records and history were unpacked, and SpecSnap "
        "rebuilt the whole scorecard, regrading the final commit with the tier's hidden tests. "
        f"Intervals are {CONFIDENCE:.0%} percentile bootstrap intervals of the mean over runs "
        f"(seeded, so the page is reproducible), given from three runs on; {NO_VALUE} below. "
        "<em>Attested</em> counts runs whose scorecard came with a GitHub build-provenance "
        "attestation whose signature was checked: it ties the scorecard to the workflow run "
        "that produced it. In Stage II a requirement is <em>retained</em> when it passed and its "
        "ticket was not read after the first session before the code was written, "
        "<em>recovered</em> when it passed after; Stage II ranks by retention without recovery "
        "(<em>kept</em>), then net retention.</p>"
    )
