"""Rendering: every way SpecSnap shows a scorecard, as pure functions over the model.

- `markup`   — outside text made inert (code spans, escaped prose, plain text);
- `words`    — the one vocabulary: verdicts, how sessions ended, cutoffs, tokens, findings;
- `blocks`   — Markdown blocks the documents share (scores, findings, sessions, requirements);
- `markdown` — scorecard.md, also the check run's text and the job summary's body;
- `comment`  — the sticky pull-request comment and the job summary;
- `checks`   — the check run: title, summary, text, annotations;
- `badge`    — shields.io endpoint JSON and a self-contained SVG;
- `terminal` — `specsnap run`, `session` and `grade` in the terminal;
- `limits`   — GitHub's size limits, and truncation that says it truncated.

The bot's replies (specsnap.bot.replies) use `markup` and `words` the same way.
"""
