"""The leaderboard: a static page built from the curriculum ledger.

- `plot` — one inline SVG per tier: each run, the mean and its confidence interval;
- `page` — the HTML document: curriculum state, per-tier tables over seeds, every entry;
- `site` — the files GitHub Pages serves (page, JSON summaries, the ledger itself).
"""
