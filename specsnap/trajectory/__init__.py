"""The trajectory: a session's actions reconstructed from the model answers SpecSnap's meter saw
(harness-independent), written as an ATIF trajectory (sessions/N/trajectory.json)."""
