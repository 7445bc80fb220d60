"""The curriculum ledger: an append-only record of verified scorecards, and the Stage II unlock.

- `entry` — an entry and its line of canonical JSON, chained to the one before by its digest;
- `chain` — the rules: the chain, the unlock (docs/protocol.md), what may be appended (pure);
- `store` — the file: read, checked, appended under a lock.

`stage_required(LEDGER)` is what the run command and the Action consult: 2 once a verified
scorecard has unlocked Stage II, else 1. Scorecards reach the ledger through
`specsnap.submission`, which verifies a submitted bundle by rebuilding its scorecard.
The format and the rules are documented in docs/leaderboard.md.
"""

from specsnap.ledger.store import stage_required, unlocked_by

__all__ = ["stage_required", "unlocked_by"]
