"""Publishing scorecards to GitHub: sticky PR comment, check run with annotations, job summary.

What is published is rendered by `specsnap.render` (pure); this package does the I/O:

- `policy`   — when a scorecard fails the job (`fail_on`) and its check run's conclusion;
- `target`   — where to publish, read from the workflow's event payload;
- `github`   — the only module that talks to the REST API (PyGithub, retries, rate limits);
- `pipeline` — `publish_scorecards`: renders, publishes, and degrades to the job summary when the
  token may not write (fork pull requests).

The core of SpecSnap never imports this package (it is the only place PyGithub is used).
"""
