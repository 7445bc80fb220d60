"""The SpecSnap bot: `/specsnap run tier=2 seed=7` in a pull-request comment starts an evaluation.

- `command`  — parsing the comment command (pure);
- `replies`  — what the bot answers (pure);
- `respond`  — permission check, reaction, reply, start (PyGithub), shared by both front ends;
- `webhook`  — a WSGI receiver that verifies `X-Hub-Signature-256` and refuses stale or replayed
  deliveries;
- `heads`    — which commit a comment is about: the head when it was written (pure record);
- `service`  — answers each delivery at once, queues comments for worker threads, reports health;
- `app`      — the GitHub App's worker (installation tokens, `workflow_dispatch`);
- `manifest` — the App's manifest (its permissions and events);
- the `issue_comment` workflow front end is the Action's `step: bot` (see entrypoint/).

Run the App receiver with `specsnap-bot serve` (docs/bot.md).
"""
