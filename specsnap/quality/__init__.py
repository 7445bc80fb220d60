"""Signals of the quality of the agent's work, beside its scores: whether its own tests test the
sprint (agent_tests) and how maintainable its cumulative diff is (maintainability). Computed from
the sandbox's history read as data; never part of a score or the gate."""
