"""The SpecSnap bot: `/specsnap run tier=2 seed=7` in a pull-request comment starts an evaluation.

- `command`  — parsing the comment command (pure);
- `replies`  — what the bot answers (pure);
- `respond`  — permission check, reaction, reply, start (PyGithub), shared by both front ends;
- `webhook`  — a WSGI receiver that verifies `X-Hub-Signature-256` and refuses stale or replayed
  deliveries;
- `app`      — the GitHub App front end (installation tokens, `workflow_dispatch`);
- the `issue_comment` workflow front end is the Action's `step: bot` (see entrypoint/).

Run the App receiver with `python -m specsnap.bot serve`.
"""
