"""The sandbox: the agent's repository and everything SpecSnap does to it — its baseline
(`baseline`), git run defensively on it (`gitrepo`), root's writes into it once the agent is gone
(`safefiles`), and the path patterns that name its files (`globs`)."""
