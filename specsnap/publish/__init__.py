"""Publishing scorecards to GitHub: sticky PR comment, check run with annotations, badge.

The package is split by responsibility, pure rendering apart from I/O:

- `scorecard`  — the published view of a scorecard JSON (validated, frozen);
- `snapshot`, `delta` — the scores carried between runs, and what changed against the base branch;
- `limits`     — GitHub's size and count limits, and visible truncation;
- `comment`, `checks`, `badge` — pure renderers (Markdown, check-run output, shields.io JSON, SVG);
- `target`     — where to publish, read from the workflow's event payload;
- `github`     — the only module that talks to the REST API (PyGithub, retries, rate limits);
- `pipeline`   — `publish_scorecards`: renders, publishes, and degrades to the job summary when the
  token may not write (fork pull requests).

The core of SpecSnap never imports this package (it is the only place PyGithub is used).
"""
